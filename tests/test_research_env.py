"""The PettingZoo environment of ``tertia.research``: PettingZoo's own API test under every
registered rule set, seeded battles that repeat, a mask that marks exactly the legal
candidates, observations and candidates blind to the other side's secrets, and whole
battles whose rewards sum to nothing."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from tertia.battle import dice_seed
from tertia.core.actions import EndPhase, Move
from tertia.core.dice import SeededDice
from tertia.core.hidden import view_of
from tertia.core.ruleset import RuleSet
from tertia.core.state import GameState
from tertia.core.violations import CoreCode, IllegalAction, Violation
from tertia.research import CandidateRefused, TertiaEnv
from tertia.rulesets import get_ruleset, ruleset_ids
from tests.plugin_rules import with_plugins

with with_plugins():
    RULES = ruleset_ids()
    HIDING = [rules for rules in RULES
              if type(get_ruleset(rules)).observed_state is not RuleSet.observed_state]
    """The rule sets that hide something from a side (they make its view their own way)."""

SHORT = {"larger-battles": "skirmish", "d3-cards": "chalgrove"}
"""Small battles where a rule set has one (the others fight their default battle)."""


def make(rules: str, **kwargs: Any) -> TertiaEnv:
    return TertiaEnv(rules, SHORT.get(rules), **kwargs)


def masked_choice(env: TertiaEnv, rng: np.random.Generator) -> int:
    observation, *_ = env.last()
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test_passes(rules: str) -> None:
    with with_plugins():
        env = make(rules, max_candidates=16, max_actions=40, render_mode="ansi")
        api_test(env, num_cycles=6, verbose_progress=False)
        assert isinstance(env.render(), str)
        for agent in env.possible_agents:
            assert env.observation_space(agent)["observation"].shape == (len(env.layout.names()),)


def test_the_example_rule_set_is_among_those_tested() -> None:
    assert "example-declare" in RULES and "larger-battles" in RULES
    assert {"charge-yr-pikes", "d3-commands", "example-declare"} <= set(HIDING)


@pytest.mark.parametrize("rules", ["larger-battles", "charge-yr-pikes", "d3-commands"])
def test_one_seed_one_battle(rules: str) -> None:
    """Two resets with one seed give the same observations, candidates and positions, and
    the battle opens with the dice fight_battle rolls for that seed."""
    def run(env: TertiaEnv, seed: int = 5) -> list[tuple[Any, ...]]:
        env.reset(seed=seed)
        rng = np.random.default_rng(0)
        seen = []
        for _ in range(12):
            agent = env.agent_selection
            observation = env.observe(agent)
            seen.append((agent, observation["observation"].tobytes(), observation["action_mask"].tobytes(),
                         [a.to_dict() for a in env.candidates()], env.game_state.state_hash()))
            env.step(masked_choice(env, rng))
        return seen

    env = make(rules, max_candidates=16)
    first = run(env)
    assert run(env) == first and run(make(rules, max_candidates=16)) == first
    opening, _ = env.game.start(SeededDice(dice_seed(5)))
    env.reset(seed=5)
    assert env.game_state == opening
    assert run(env, seed=6) != first


@pytest.mark.parametrize("rules", ["larger-battles", "charge-yr-pikes", "declare-thee-sir"])
def test_the_mask_marks_exactly_the_legal_candidates(rules: str) -> None:
    """Index i is marked while a candidate stands there, each candidate is legal on the
    true position, ending the phase comes first when legal, a smaller K keeps the first K
    of the same list, and a side not to act has nothing marked."""
    wide, narrow = make(rules, max_candidates=200), make(rules, max_candidates=3)
    rng = np.random.default_rng(3)
    wide.reset(seed=11)
    narrow.reset(seed=11)
    for _ in range(15):
        agent = wide.agent_selection
        state = wide.game_state
        mask = wide.observe(agent)["action_mask"]
        offered = wide.candidates()
        assert offered and list(mask) == [1] * len(offered) + [0] * (200 - len(offered))
        assert all(wide.game.is_legal(state, a) for a in offered)
        assert (offered[0] == EndPhase()) == wide.game.is_legal(state, EndPhase())
        assert len({str(a.to_dict()) for a in offered}) == len(offered)
        assert narrow.candidates() == offered[:3]
        assert int(narrow.observe(agent)["action_mask"].sum()) == min(3, len(offered))
        for other in wide.agents:
            if other != agent:
                assert not wide.observe(other)["action_mask"].any() and wide.candidates(other) == ()
        index = int(rng.integers(len(offered[:3])))
        wide.step(index)
        narrow.step(index)


def _secrets(env: TertiaEnv, rng: np.random.Generator, count: int = 3) -> list[tuple[str, list[GameState]]]:
    """Moments, some actions apart, when the side to act has something hidden from it:
    that side and positions differing from the true one only in what it may not see (its
    view with the secrets sampled afresh)."""
    game = env.game
    found: list[tuple[str, list[GameState]]] = []
    last = -10
    for taken in range(150):
        agent = env.agent_selection
        view = game.observed_state(env.game_state, agent)
        if view_of(view) is not None and taken - last >= 10:
            samples = [game.sample_hidden(view, agent, random.Random(s)) for s in range(5)]
            found.append((agent, [env.game_state, *samples]))
            last = taken
            if len(found) == count:
                return found
        env.step(masked_choice(env, rng))
    raise AssertionError(f"{game.ruleset.id}: the side to act had something hidden from it "
                         f"only {len(found)} times in 150 actions")


@pytest.mark.parametrize("rules", HIDING)
def test_a_side_sees_nothing_of_the_other_sides_secrets(rules: str) -> None:
    """Positions that differ only in the other side's secrets (Charge yr Pikes!' hidden
    pieces and officers' grades, d3-commands' card orders, the example's secret choice for
    the free move) give the side to act the same observation, its rule set's fact columns
    among it, mask and candidates."""
    with with_plugins():
        env = make(rules, max_candidates=32)
        judge = make(rules, max_candidates=32)
    env.reset(seed=2)
    facts = [i for i, name in enumerate(env.layout.names()) if ".fact." in name]
    other_seen = set()
    differing = 0
    for agent, positions in _secrets(env, np.random.default_rng(2)):
        differing += len({str(p.to_dict()) for p in positions}) > 1
        seen = []
        for position in positions:
            judge.reset(seed=2, options={"state": position})
            observation = judge.observe(agent)
            assert observation["observation"][facts].any()
            seen.append((observation["observation"].tobytes(), observation["action_mask"].tobytes(),
                         [a.to_dict() for a in judge.candidates(agent)]))
            other_seen.update(judge.observe(o)["observation"].tobytes() for o in judge.agents if o != agent)
        assert all(s == seen[0] for s in seen)
    assert differing, "the secrets sampled never differ"
    if rules == "charge-yr-pikes":  # the hidden pieces' places are the other side's to see
        assert len(other_seen) > 1


def test_a_refusal_on_the_true_position_tells_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    env = make("larger-battles")
    env.reset(seed=1)
    before = env.game_state

    def refuse(*_: Any) -> Any:
        raise IllegalAction([Violation(CoreCode.UNKNOWN_UNIT, "the hidden piece at 12, 30", "secret")])

    monkeypatch.setattr(env.game, "apply", refuse)
    with pytest.raises(CandidateRefused) as refused:
        env.step(0)
    assert "12, 30" not in str(refused.value) and refused.value.__context__ is None
    assert env.game_state is before and env.actions_taken == 0


def test_a_raw_action_is_judged_on_the_sides_view() -> None:
    env = make("larger-battles")
    env.reset(seed=1)
    agent = env.agent_selection
    enemy = next(u for u in env.game_state.units.values() if u.side != agent)
    before = env.game_state
    with pytest.raises(IllegalAction):
        env.step_action(Move(unit=enemy.id, waypoints=((enemy.x, enemy.y + 1),)))
    assert env.game_state is before
    with pytest.raises(ValueError, match="not offered"):
        env.step(len(env.candidates()))
    env.step_action(env.candidates()[-1])
    assert env.actions_taken == 1 and env.game_state.step == before.step + 1


@pytest.mark.parametrize(("rules", "seed"), [("larger-battles", 1), ("d3-cards", 1), ("example-declare", 1)])
def test_a_whole_battle_ends_with_rewards_summing_to_nothing(rules: str, seed: int) -> None:
    with with_plugins():
        env = make(rules, max_actions=2000)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        final: dict[str, float] = {}
        infos: dict[str, dict[str, Any]] = {}
        for agent in env.agent_iter():
            _, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                assert terminated and not truncated, info
                final[agent], infos[agent] = reward, info
                env.step(None)
                continue
            assert reward == 0
            env.step(masked_choice(env, rng))
    assert set(final) == set(env.possible_agents) and sum(final.values()) == 0
    winner = next(iter(infos.values()))["winner"]
    assert all(i["reason"] and i["winner"] == winner for i in infos.values())
    assert final == {a: (0.0 if winner is None else 1.0 if a == winner else -1.0) for a in final}


def test_the_guide_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/api.md, "A PettingZoo environment": its example runs verbatim."""
    guide = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    section = guide.split("## A PettingZoo environment", 1)[1]
    example = re.search(r"```python\n(.*?)```", section, flags=re.S)
    assert example is not None
    names: dict[str, Any] = {}
    exec(example.group(1), names)
    env = names["env"]
    assert not env.agents and names["info"]["reason"]
    printed = capsys.readouterr().out
    assert names["info"]["reason"] in printed and env.render() in printed
