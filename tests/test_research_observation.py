"""The observation's columns for the facts each rule set declares (``tertia.research.facts``):
a column named for every declared fact under every registered rule set, values that agree
with what the side is shown of each piece, counts, numbers, words and pieces named read as
documented, and a ``HIDDEN`` fact kept from the other side."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tertia.core.hidden import place_hidden
from tertia.core.presentation import Fact, FactKind, FactSpec
from tertia.core.state import GameState, UnitKind
from tertia.research import TertiaEnv
from tertia.research.facts import MIN_SCALE, PARTS, word_code
from tertia.research.observation import PIECE_FEATURES
from tertia.rulesets import get_ruleset, ruleset_ids
from tests.plugin_rules import with_plugins

with with_plugins():
    RULES = ruleset_ids()
    WITH_HIDDEN_FACTS = [rules for rules in RULES if any(
        spec.kind is FactKind.HIDDEN for spec in get_ruleset(rules).presentation().FACTS)]

SHORT = {"larger-battles": "skirmish", "d3-cards": "chalgrove"}
"""Small battles where a rule set has one (the others fight their default battle)."""


def make(rules: str, **kwargs: Any) -> TertiaEnv:
    with with_plugins():
        return TertiaEnv(rules, SHORT.get(rules), max_candidates=16, **kwargs)


def play(env: TertiaEnv, actions: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(actions):
        observation = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def read(env: TertiaEnv, vector: Any, slot: int, name: str) -> float:
    return float(vector[env.layout.column(f"piece{slot}.{name}")])


def slot_of(env: TertiaEnv, uid: str) -> int:
    return env.layout.slots.index(uid)


def restart(env: TertiaEnv, state: GameState) -> None:
    env.reset(seed=1, options={"state": state})


@pytest.mark.parametrize("rules", RULES)
def test_every_declared_fact_has_its_columns(rules: str) -> None:
    """Each piece's row is the generic values, then each declared fact's columns in
    declared order, by its kind; every name is given once and the bounds fit the names."""
    env = make(rules)
    facts = env.game.ruleset.presentation().FACTS
    expected = [*PIECE_FEATURES]
    for spec in facts:
        expected.append(f"fact.{spec.key}")
        for part in PARTS.get(spec.kind, ()):
            if part == "word" and spec.words is not None:
                expected += [f"fact.{spec.key}={word}" for word in spec.words]
            else:
                expected.append(f"fact.{spec.key}.{part}")
    assert list(env.layout.row_names) == expected and len(facts) > 0
    names = env.layout.names()
    low, high = env.layout.bounds()
    assert len(set(names)) == len(names) == env.layout.size == low.size == high.size
    last = env.layout.max_pieces - 1
    assert all(f"piece{last}.fact.{spec.key}" in names for spec in facts)
    for spec in facts:
        scale = env.layout.scale(spec.key)
        assert scale == spec.most if spec.most is not None else scale >= MIN_SCALE, spec.key


def _expected(env: TertiaEnv, spec: FactSpec, fact: Fact | None) -> dict[str, float]:
    """What the columns of ``spec`` should read for ``fact``, as the module documents them."""
    key = spec.key
    words = {f"fact.{key}={word}": float(fact is not None and fact.value == word)
             for word in spec.words or ()}
    if fact is None:
        return {f"fact.{key}": 0.0, **words}
    out = {f"fact.{key}": float(fact.shown())}
    number = fact.value if isinstance(fact.value, int | float) and not isinstance(fact.value, bool) else None
    scale = env.layout.scale(key)
    if number is not None:
        out[f"fact.{key}.number"] = min(1.0, number / scale)
        if fact.limit:
            out[f"fact.{key}.fraction"] = min(1.0, number / fact.limit)
    if fact.limit is not None:
        out[f"fact.{key}.limit"] = min(1.0, fact.limit / scale)
    if isinstance(fact.value, str) and fact.value:
        out[f"fact.{key}.word"] = word_code(fact.value)
    return {name: value for name, value in {**out, **words}.items() if name in env.layout.row_names}


@pytest.mark.parametrize("rules", RULES)
def test_the_fact_columns_read_what_the_side_is_shown(rules: str) -> None:
    """Over the start of a battle, each side's columns for each piece read the facts its
    own view shows of that piece (``Presentation.piece``), and are all within bounds."""
    env = make(rules)
    env.reset(seed=4)
    presentation = env.game.ruleset.presentation()
    low, high = env.layout.bounds()
    set_columns = 0
    for _ in range(6):
        for side in env.agents:
            view = env.game.observed_state(env.game_state, side)
            vector = env.observe(side)["observation"]
            assert np.all(vector >= low) and np.all(vector <= high)
            for slot, uid in enumerate(env.layout.slot_order(view)):
                if uid not in view.units or place_hidden(view.units[uid]):
                    continue
                card = presentation.piece(env.game.table, view, uid, side)
                for spec in presentation.FACTS:
                    for name, value in _expected(env, spec, card.fact(spec.key)).items():
                        assert read(env, vector, slot, name) == pytest.approx(value, abs=1e-6), (uid, name)
                        set_columns += value != 0
        play(env, 3, seed=4)
    assert set_columns, "no fact column was ever set"


def test_hits_read_against_the_hit_limit() -> None:
    """larger-battles: a foot unit with two hits of a limit of three reads 2/3 of its
    limit, by both sides (hits are on the open table); the hits and the limit are read
    against the highest limit the rules allow (23: the options' highest, 20, raised by
    cover, a river and support)."""
    env = make("larger-battles")
    env.reset(seed=1)
    state = env.game_state
    foot = next(u for u in state.units.values() if u.kind is UnitKind.FOOT)
    limit = env.game.ruleset.presentation().piece(env.game.table, state, foot.id, None).fact("hits")
    assert limit is not None and limit.limit == 3
    restart(env, state.with_unit(foot.evolve(hits=2)))
    slot = slot_of(env, foot.id)
    for side in env.agents:
        vector = env.observe(side)["observation"]
        assert read(env, vector, slot, "fact.hits.fraction") == pytest.approx(2 / 3)
        assert read(env, vector, slot, "fact.hits.number") == pytest.approx(2 / 23)
        assert read(env, vector, slot, "fact.hits.limit") == pytest.approx(3 / 23)
        assert read(env, vector, slot, "fact.hits") == 1.0


def test_figures_morale_formation_and_disorder_under_charge_yr_pikes() -> None:
    """Charge yr Pikes!: a regiment of 32 down to 20 figures, 10 of them shot, tested at 2
    morale points of the 4 the rules allow at most, in square and disordered reads so on
    its side's row; a formation reads as a column for each."""
    env = make("charge-yr-pikes")
    env.reset(seed=1)
    state = env.game_state
    side = env.agents[0]
    foot = next(u for u in state.units.values()
                if u.side == side and u.kind is UnitKind.FOOT and u.own.start == 32 and u.own.shot == 16)
    changed = foot.evolve(pike=10, shot=10, morale=2, formation="square", disordered=True)
    restart(env, state.with_unit(changed))
    vector = env.observe(side)["observation"]
    slot = slot_of(env, foot.id)
    assert env.layout.scale("figures") == 32
    assert read(env, vector, slot, "fact.figures.fraction") == pytest.approx(20 / 32)
    assert read(env, vector, slot, "fact.figures.number") == pytest.approx(20 / 32)
    assert read(env, vector, slot, "fact.weapons.number") == pytest.approx(10 / env.layout.scale("weapons"))
    assert read(env, vector, slot, "fact.morale.number") == pytest.approx(2 / 4)
    assert read(env, vector, slot, "fact.morale=untested") == 0.0
    assert [read(env, vector, slot, f"fact.formation={word}") for word in ("line", "square", "column")] == [
        0.0, 1.0, 0.0]
    assert read(env, vector, slot, "fact.disordered") == 1.0
    restart(env, state)
    assert read(env, env.observe(side)["observation"], slot, "fact.disordered") == 0.0


def test_an_officers_grade_and_unit_as_each_side_sees_them() -> None:
    """Charge yr Pikes!: once an officer is placed with a unit, his own side reads his grade
    and the slot of the unit he is with; the enemy reads "not yet shown" until his grade
    is revealed."""
    env = make("charge-yr-pikes")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(300):
        officer = next((u for u in env.game_state.units.values() if u.own.is_officer and u.own.attached_to
                        and u.own.placed and u.own.grade_secret), None)
        if officer is not None:
            break
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    assert officer is not None, "no officer was placed with a unit in 300 actions"
    slot = slot_of(env, officer.id)
    own = env.observe(officer.side)["observation"]
    assert read(env, own, slot, f"fact.grade={officer.own.grade.replace('_', ' ')}") == 1.0
    assert read(env, own, slot, "fact.grade=not yet shown") == 0.0
    led = (slot_of(env, officer.own.attached_to) + 1) / env.layout.max_pieces
    assert read(env, own, slot, "fact.leads.piece") == pytest.approx(led)
    seen = env.observe(env.game_state.opponent(officer.side))["observation"]
    assert read(env, seen, slot, "fact.grade=not yet shown") == 1.0
    assert read(env, seen, slot, f"fact.grade={officer.own.grade.replace('_', ' ')}") == 0.0
    assert read(env, seen, slot, "fact.leads.piece") == pytest.approx(led)


@pytest.mark.parametrize("rules", WITH_HIDDEN_FACTS)
def test_a_hidden_fact_is_read_by_its_own_side_alone(rules: str) -> None:
    """A fact of the kind ``HIDDEN`` (a Charge yr Pikes! piece not yet placed, the example's
    secret choice of a unit for the free move) is set on its own side's row of the piece
    and never on another side's."""
    env = make(rules)
    env.reset(seed=2)
    hidden = [spec.key for spec in env.game.ruleset.presentation().FACTS if spec.kind is FactKind.HIDDEN]
    found = 0
    for _ in range(40):
        observed = {side: env.observe(side)["observation"] for side in env.agents}
        for slot, uid in enumerate(env.layout.slots):
            owner = env.game_state.units[uid].side
            for key in hidden:
                found += read(env, observed[owner], slot, f"fact.{key}") == 1.0
                assert all(read(env, observed[side], slot, f"fact.{key}") == 0.0
                           for side in env.agents if side != owner)
        play(env, 1, seed=2)
    assert found, f"{rules}: no piece showed its side a hidden fact in 40 actions"


def test_the_guide_to_the_fact_columns_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/api.md, "The rule set's facts in the observation": its example runs verbatim and
    prints what its comments say."""
    guide = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    section = guide.split("### The rule set's facts in the observation", 1)[1]
    example = re.search(r"```python\n(.*?)```", section, flags=re.S)
    assert example is not None
    exec(example.group(1), {})
    printed = capsys.readouterr().out.splitlines()
    said = re.findall(r"^# (.*?)(?: \.\.\.)?$", example.group(1), flags=re.M)
    assert len(said) == 2 and printed[:2] == said and len(printed) > 5
