"""Exact odds (tertia odds): hand-computed values for each modifier, and for each mechanic
a seeded sample of the real engine agreeing with the exact distribution."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tertia.analysis.enumerate import enumerate_branches
from tertia.analysis.odds import odds, unit_changes
from tertia.cli.main import app
from tertia.cli.pieces import UnknownPiece, _without_the, piece_id
from tertia.core.dice import D3, D6, SeededDice, sum_of
from tertia.core.game import Game
from tertia.core.narration import percent
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.rules.fighting import Attack
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.rulesets.larger_battles.actions import Bombard, Encourage
from tertia.scenarios import load_builtin
from tertia.scenarios.catalogue import load_named

from .support import P, R, commander, make_game, position, unit

ODDS_FILE = "tests/scenarios/odds.toml"


def opposed(a_mod: int, d_mod: int) -> tuple[Fraction, Fraction]:
    win = Fraction(sum(1 for a in range(1, 7) for d in range(1, 7) if a + a_mod > d + d_mod), 36)
    lose = Fraction(sum(1 for a in range(1, 7) for d in range(1, 7) if d + d_mod > a + a_mod), 36)
    return win, lose


def duel(a_kind: str, t_kind: str, *extra: dict, **kw: object) -> tuple[Game, GameState]:
    game = make_game([
        unit("a", P, a_kind, 30, 10, command="right" if a_kind == "horse" else None),
        unit("t", R, t_kind, 30, 15, 180, command="left" if t_kind == "horse" else None), *extra,
    ], **kw)  # type: ignore[arg-type]
    return game, position(game, phase="combat")


# --- the enumerator ------------------------------------------------------------------------


def test_enumeration_groups_faces_compared_only_with_constants() -> None:
    calls = 0

    def run(dice):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        return "hit" if dice.roll(D6, "x") >= 5 else "miss"

    branches = enumerate_branches(run)
    assert {b.result: b.probability for b in branches} == {"hit": Fraction(1, 3), "miss": Fraction(2, 3)}
    assert calls == 2  # two classes of faces, one walk each


def test_enumeration_of_arithmetic_walks_every_face() -> None:
    branches = enumerate_branches(lambda dice: dice.roll(D6, "a") + dice.roll(D3, "b"))
    dist: Counter[int] = Counter()
    for b in branches:
        dist[b.result] += b.probability  # type: ignore[assignment]
    assert dist[2] == Fraction(1, 18) and sum(dist.values()) == 1


def test_a_die_value_divided_with_divmod_walks_every_face() -> None:
    branches = enumerate_branches(lambda dice: divmod(dice.roll(sum_of(2, D6), "a"), 6)[0])
    dist: Counter[int] = Counter()
    for b in branches:
        dist[b.result] += b.probability  # type: ignore[assignment]
    # Two dice make 6 to 11 on 26 of 36 rolls, 12 on 1.
    assert dist == {0: Fraction(10, 36), 1: Fraction(25, 36), 2: Fraction(1, 36)}


def test_a_value_consulted_after_a_later_die_is_not_grouped() -> None:
    def run(dice):  # type: ignore[no-untyped-def]
        a = dice.roll(D6, "a")
        b = dice.roll(D6, "b")
        return (a > 3, b > 3) if a == 6 else (a > 3, False)

    probs = Counter()
    for br in enumerate_branches(run):
        probs[br.result] += br.probability  # type: ignore[assignment]
    assert probs[(True, True)] == Fraction(1, 6) * Fraction(1, 2)
    assert sum(probs.values()) == 1


def test_sums_of_dice_are_one_chance_node() -> None:
    branches = enumerate_branches(lambda dice: dice.roll(sum_of(2, D6), "2d6") >= 7)
    assert sum(b.probability for b in branches if b.result) == Fraction(21, 36)
    assert len(branches) == 2


# --- hand-computed values, one per modifier ---------------------------------------------------


@pytest.mark.parametrize(("a_kind", "t_kind", "a_mod", "d_mod", "reason"), [
    ("foot", "foot", 1, 0, "+1 muskets: infantry with ammunition attacking"),
    ("horse", "horse", 1, 1, "+1 cavalry"),
    ("horse", "foot", 0, 0, None),
    ("horse", "commanded_shot", 1, 0, "+1 cavalry"),
    ("dragoons", "artillery", 1, 0, "+1 attacking artillery"),
    ("dragoons", "dragoons", 0, 0, None),
])
def test_each_combat_modifier(a_kind: str, t_kind: str, a_mod: int, d_mod: int, reason: str | None) -> None:
    game, state = duel(a_kind, t_kind)
    result = odds(game, state, Attack(attacker="a", target="t"))
    win, lose = opposed(a_mod, d_mod)
    assert result.summary["target_hits_exact"].get("1", Fraction(0)) == win
    assert result.summary["attacker_hits_exact"].get("1", Fraction(0)) == lose
    if reason:
        assert reason in result.modifiers
    assert sum(o.probability for o in result.outcomes) == 1
    assert math.isclose(sum(result.summary["target_hits"].values()), 1.0)


def test_supports_and_commander() -> None:
    game, state = duel("dragoons", "dragoons", unit("s", P, "dragoons", 34.5, 12),
                       commanders=[commander("c", P, 30, 7.5, command="right")])
    result = odds(game, state, Attack(attacker="a", target="t", supports=("s",)))
    assert result.summary["target_hits_exact"]["1"] == opposed(1, 0)[0]
    assert "+1 supporting unit" in result.modifiers
    game, state = duel("horse", "horse", commanders=[commander("c", P, 30, 7.5, command="right")])
    result = odds(game, state, Attack(attacker="a", target="t", commander="c"))
    assert result.summary["target_hits_exact"]["1"] == opposed(2, 1)[0]
    assert result.summary["commander_lost_exact"] == Fraction(1, 6)


def test_ammunition_and_routs() -> None:
    game, state = duel("foot", "dragoons")
    state = state.with_unit(state.units["t"].evolve(hits=1))
    result = odds(game, state, Attack(attacker="a", target="t"))
    assert result.summary["ammunition_exhausted_exact"] == Fraction(1, 3)
    assert result.summary["target_routed_exact"] == opposed(1, 0)[0]


def test_bombardment_odds() -> None:
    game = make_game([unit("g", P, "artillery", 30, 5), unit("t", R, "foot", 30, 20, 180)])
    state = position(game, phase="bombardment", orders=(("g", "bombard"),))
    result = odds(game, state, Bombard(gun="g", target="t"))
    assert result.summary["target_hits_exact"] == {"0": Fraction(2, 3), "1": Fraction(1, 3)}


def test_the_defenders_commander_is_answered() -> None:
    game, state = duel("horse", "horse", commanders=[commander("k", R, 30, 17.5, command="left")])
    plain = odds(game, state, Attack(attacker="a", target="t"))
    assert plain.summary["target_hits_exact"]["1"] == opposed(1, 1)[0]
    helped = odds(game, state, Attack(attacker="a", target="t"), responses=[Encourage(commander="k")])
    assert helped.summary["target_hits_exact"]["1"] == opposed(1, 2)[0]


def test_illegal_queries_raise_the_engines_violation() -> None:
    game = make_game([unit("a", P, "foot", 30, 10), unit("t", R, "foot", 30, 25, 180)])
    with pytest.raises(IllegalAction) as info:
        odds(game, position(game, phase="combat"), Attack(attacker="a", target="t"))
    assert info.value.violations[0].code == "fighting.OUT_OF_RANGE"


# --- seeded samples of the real engine against the exact distribution -------------------------


def chi_square_agrees(observed: Counter[str], expected: dict[str, Fraction], n: int) -> bool:
    """Pearson chi-square at about the 0.1% level (categories with expectation >= 5)."""
    critical = [10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32, 26.12, 27.88, 29.59, 31.26, 32.91]
    cells = [(observed.get(k, 0), n * float(p)) for k, p in expected.items() if n * float(p) >= 5]
    stat = sum((o - e) ** 2 / e for o, e in cells)
    dof = max(len(cells) - 1, 1)
    return stat < critical[min(dof, len(critical)) - 1]


@pytest.mark.parametrize("case", ["foot-duel", "cavalry-commander", "bombard"])
def test_monte_carlo_of_the_engine_agrees(case: str) -> None:
    if case == "foot-duel":
        game, state = duel("foot", "foot")
        action: object = Attack(attacker="a", target="t")
    elif case == "cavalry-commander":
        game, state = duel("horse", "horse", commanders=[commander("c", P, 30, 7.5, command="right")])
        action = Attack(attacker="a", target="t", commander="c")
    else:
        game = make_game([unit("g", P, "artillery", 30, 5), unit("t", R, "foot", 30, 20, 180)])
        state = position(game, phase="bombardment", orders=(("g", "bombard"),))
        action = Bombard(gun="g", target="t")
    exact = odds(game, state, action)  # type: ignore[arg-type]
    expected = {o.description: o.probability for o in exact.outcomes}
    dice = SeededDice(2024)
    n = 4000
    seen: Counter[str] = Counter()
    for _ in range(n):
        after, _ = game.apply(state, action, dice)  # type: ignore[arg-type]
        key = next(o.description for o in exact.outcomes if o.effects == unit_changes(state, after))
        seen[key] += 1
    assert chi_square_agrees(seen, expected, n)


# --- the command -------------------------------------------------------------------------------

runner = CliRunner()


def test_cli_json_shape() -> None:
    result = runner.invoke(app, ["odds", ODDS_FILE, "--attacker", "p-foot", "--target", "r-foot",
                                 "--support", "p-support", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for key in ("rules", "action", "attacker", "target", "modifiers", "outcomes", "summary"):
        assert key in data
    assert math.isclose(sum(o["probability"] for o in data["outcomes"]), 1.0)
    assert set(data["summary"]["target_hits"]) == {"0", "1"}
    assert "+1 supporting unit" in data["modifiers"]


def test_cli_text_lists_modifiers_with_reasons() -> None:
    result = runner.invoke(app, ["odds", ODDS_FILE, "--attacker", "p-foot", "--target", "r-foot"])
    assert result.exit_code == 0
    assert "+1 muskets: infantry with ammunition attacking" in result.output


def test_cli_shoot_and_bombard_are_the_same_for_guns() -> None:
    outs = [json.loads(runner.invoke(app, ["odds", ODDS_FILE, "--attacker", "p-gun", "--target", "r-horse",
                                           "--action", word, "--json"]).output)["summary"]
            for word in ("shoot", "bombard")]
    assert outs[0] == outs[1]


@pytest.mark.parametrize(("args", "needle"), [
    (["--attacker", "p-foot", "--target", "r-horse"], "combat range is 3\" (Larger Battles: Combat, Measure"),
    (["--attacker", "nobody", "--target", "r-foot"], "--attacker: no piece is called 'nobody'"),
    (["--attacker", "p-foot", "--target", "Prince Ruperts"], "did you mean Prince Rupert's Horse?"),
    (["--attacker", "p-foot", "--target", "r-foot", "--action", "shoot"], "melee"),
    (["--attacker", "p-gun", "--target", "r-foot"], "is engaged in combat (Larger Battles: Artillery"),
])
def test_cli_illegal_requests_exit_1_with_the_engines_message(args: list[str], needle: str) -> None:
    result = runner.invoke(app, ["odds", ODDS_FILE, *args])
    assert result.exit_code == 1 and needle in result.output and "Traceback" not in result.output


def test_cli_takes_a_piece_by_its_name_or_the_start_of_it() -> None:
    """A player names pieces as ``tertia inspect`` lists them (any case, or the start of
    the name where no other piece's starts so); the record's ids still serve."""
    def ask(attacker: str, target: str, *support: str) -> dict[str, object]:
        extra = [arg for s in support for arg in ("--support", s)]
        result = runner.invoke(app, ["odds", ODDS_FILE, "--attacker", attacker, "--target", target, *extra,
                                     "--json"])
        assert result.exit_code == 0, result.output
        return dict(json.loads(result.output))

    by_id = ask("p-foot", "r-foot", "p-support")
    assert ask("essex's foot", "Belasyse", "Holles's Foot") == by_id
    assert ask("Essex's Foot", "r-foot") != by_id  # the support counts


@pytest.mark.parametrize("scenario", ["naseby", "chalgrove"])
def test_a_piece_whose_name_opens_with_the_may_be_named_without_it(scenario: str) -> None:
    """The narrative tells "charges the Duke of York's Regiment of Foot" within a
    sentence: the piece is found by the words after its "The" too."""
    loaded = load_named(scenario)
    state = Game(get_ruleset(loaded.rules[0]), loaded).ruleset.initial_state(loaded)
    for piece in state.units.values():
        if piece.label.startswith("The "):
            assert piece_id(state, piece.label[4:].lower()) == piece.id


@pytest.mark.parametrize("scenario", ["edgehill", "naseby", "chalgrove"])
def test_a_piece_is_found_by_a_word_of_its_name_no_other_has(scenario: str) -> None:
    """A player at the table names a regiment by its colonel ("Lunsford"): a word of the
    name, from the start of a word, finds the one piece whose name has it; a word two
    names share is refused naming both, and letters inside a word find nothing."""
    loaded = load_named(scenario)
    for rules in loaded.rules:
        state = Game(get_ruleset(rules), loaded).ruleset.initial_state(loaded)
        pieces = list(state.iter_units(include_removed=True))
        words = {w.casefold() for u in pieces for w in re.findall(r"[A-Za-z]{4,}", u.label)}
        for word in sorted(words):
            having = [u for u in pieces if re.search(r"(?<!\w)" + word, u.label.casefold())]
            starting = [u for u in pieces if _without_the(u.label).casefold().startswith(word)]
            if starting:
                continue  # the start of a name is read first
            if len(having) == 1:
                assert piece_id(state, word.upper()) == having[0].id, (rules, word)
            else:
                with pytest.raises(UnknownPiece, match="could be"):
                    piece_id(state, word)
        inner = next(u for u in pieces if len(u.label) > 8)
        with pytest.raises(UnknownPiece, match="no piece is called"):
            piece_id(state, inner.label[1:5] + "qq")


def test_narrative_shows_the_odds_of_each_attack() -> None:
    result = runner.invoke(app, ["battle", "--scenario", "skirmish", "--seed", "2"])
    assert "to inflict a hit]" in result.output


def test_chance_outcomes_are_the_states_play_reaches() -> None:
    """The search API: each chance outcome is exactly the state play reaches with some dice,
    and the probabilities sum to one."""
    from tertia.analysis.odds import chance_outcomes
    from tertia.core.dice import ScriptedDice

    game = make_game([unit("g", P, "artillery", 30, 5), unit("t", R, "foot", 30, 20, 180)])
    state = position(game, phase="bombardment", orders=(("g", "bombard"),))
    outcomes = chance_outcomes(game, state, Bombard(gun="g", target="t"))
    assert sum(p for p, _, _ in outcomes) == 1 and len(outcomes) == 2
    played = {game.apply(state, Bombard(gun="g", target="t"), ScriptedDice([r]))[0].state_hash(): r
              for r in (1, 6)}
    assert {s.state_hash() for _, s, _ in outcomes} == set(played)
    assert {p for p, _, _ in outcomes} == {Fraction(1, 3), Fraction(2, 3)}


@pytest.mark.parametrize("rules", ruleset_ids())
def test_chance_outcomes_within_a_budget_answer_or_are_refused(rules: str) -> None:
    """A search bounds the work of a chance node as the odds do: within the budget the
    outcomes are those of the unbounded walk; past it the node is refused, not answered in
    part."""
    from tertia.analysis.enumerate import ODDS_BUDGET, TooManyBranches
    from tertia.analysis.odds import chance_outcomes
    from tertia.analysis.questions import legal_questions, positions
    from tertia.scenarios import resolve_scenario
    from tertia.scenarios.catalogue import written_for

    scenario = written_for(rules)[0].name
    game = Game(get_ruleset(rules), resolve_scenario(scenario, rules_id=rules))
    for state in positions(game, 1):
        for q in legal_questions(game, state, targets=1):
            try:
                bounded = chance_outcomes(game, q.ready, q.action, responses=q.responses, budget=ODDS_BUDGET)
            except TooManyBranches:
                continue
            assert sum(p for p, _, _ in bounded) == 1
            unbounded = chance_outcomes(game, q.ready, q.action, responses=q.responses)
            def hashed(found: list[Any]) -> list[tuple[Fraction, str]]:
                return [(p, s.state_hash()) for p, s, _ in found]

            assert hashed(bounded) == hashed(unbounded)
            with pytest.raises(TooManyBranches):
                chance_outcomes(game, q.ready, q.action, responses=q.responses, budget=1)
            return
    pytest.fail(f"no chance node of {rules} was answered within the budget")


@pytest.mark.parametrize("rules", ruleset_ids())
def test_a_refused_question_tells_its_estimates_on_every_surface(rules: str) -> None:
    """Under every rule set, a question refused over a small budget and given the work to
    draw from the rest tells the same chances in its line, as data (the page's and
    ``--json``'s ``told``), in the terminal's table and at the prompt: each estimate within
    its interval and its bounds, each piece by its name."""
    from rich.console import Console

    from tertia.analysis.enumerate import TooManyBranches
    from tertia.analysis.questions import legal_questions, positions
    from tertia.cli.odds_commands import refusal_table
    from tertia.cli.prompt_player import refusal_lines
    from tertia.scenarios import resolve_scenario
    from tertia.scenarios.catalogue import written_for

    scenario = written_for(rules)[0].name
    game = Game(get_ruleset(rules), resolve_scenario(scenario, rules_id=rules))
    untold: list[str] = []  # refusals whose draws showed none of the chances it tells
    for state in positions(game, 1):
        for q in legal_questions(game, state, targets=1):
            try:
                odds(game, q.ready, q.action, responses=q.responses, budget=3, sample=3_000)
                continue
            except TooManyBranches as caught:
                refused = caught
            told = refused.told
            if told is None or not told["draws"]:
                continue
            if not told["chances"]:
                untold.append(str(refused))
                continue
            message = str(refused)
            assert "draws from the chance not walked estimate: " in message and "\n" not in message
            names = {uid: u.label for uid, u in q.ready.units.items()}
            for chance in told["chances"]:
                (proved_low, proved_high), (low, high) = chance["proved"], chance["interval"]
                assert proved_low - 1e-9 <= low <= chance["estimate"] <= high <= proved_high + 1e-9
                assert f"{chance['words']} {percent(chance['estimate'], 1)}" in message
            console = Console(width=200, record=True)
            console.print(refusal_table(told, names))
            table = console.export_text()
            lines = refusal_lines(told, names.get)
            for chance in told["chances"]:
                assert names[chance["unit"]] in table
                assert any(names[chance["unit"]] in line and chance["words"] in line for line in lines)
            assert "undefined" not in table and "None" not in table
            return
    # a rule set whose questions tell no chance of a piece (D3 shooting routs nothing) says so
    assert untold, f"no question of {rules} was refused with draws from the rest"
    assert all("draws from the chance not walked show none of the chances it tells" in m for m in untold)


def test_a_face_used_differently_in_its_own_branch_keeps_its_weight() -> None:
    """Faces grouped by one walk's comparisons may be used differently once played: a value
    shown only when it hits must still count every hitting face."""
    def run(dice):  # type: ignore[no-untyped-def]
        roll = dice.roll(D6, "shot")
        return f"hit with {roll}" if roll >= 5 else "miss"

    probs: Counter[str] = Counter()
    for b in enumerate_branches(run):
        probs[b.result] += b.probability  # type: ignore[assignment]
    assert probs == {"miss": Fraction(2, 3), "hit with 5": Fraction(1, 6), "hit with 6": Fraction(1, 6)}


def test_refinement_inside_a_sub_branch() -> None:
    def run(dice):  # type: ignore[no-untyped-def]
        a = dice.roll(D6, "a")
        if a <= 2:
            return "low"
        b = dice.roll(D6, "b")
        return (a if a == 6 else "mid", b >= 4)

    probs: Counter[object] = Counter()
    for br in enumerate_branches(run):
        probs[br.result] += br.probability  # type: ignore[assignment]
    assert sum(probs.values()) == 1
    assert probs[(6, True)] == Fraction(1, 12) and probs[("mid", False)] == Fraction(3, 6) * Fraction(1, 2)


def test_an_attempt_rolled_again_is_walked_once_and_conditioned_on_deciding() -> None:
    """Ties rolled again through ``Tx.roll_until_decided``: the attempt is walked once and
    what its ties would have had is shared out over the throws that decide (D6 + 1 against
    D6: 21 wins and 10 losses among the 31 untied throws). An attempt that never decides
    is refused."""
    from tertia.analysis.enumerate import TooManyBranches
    from tertia.core.ruleset import Tx

    game = Game(get_ruleset("larger-battles"), load_builtin("skirmish"))
    state = game.ruleset.initial_state(game.scenario)

    def run(dice, never=False):  # type: ignore[no-untyped-def]
        tx = Tx(game.table, state, dice)

        def attempt() -> bool | None:
            a, b = tx.roll(D6, "a") + 1, tx.roll(D6, "b")
            return None if a == b or never else a > b

        return tx.roll_until_decided(attempt)

    probs: dict[bool, Fraction] = {}
    for br in enumerate_branches(run):
        probs[br.result] = probs.get(br.result, Fraction(0)) + br.probability
    assert probs == {True: Fraction(21, 31), False: Fraction(10, 31)}
    with pytest.raises(TooManyBranches, match="whatever the dice"):
        enumerate_branches(lambda dice: run(dice, never=True))


def test_a_procedure_without_end_is_refused_not_walked_for_ever() -> None:
    """Re-rolling ties in a bare loop has no finite tree: enumeration stops with a clear
    error (the rules roll again through ``Tx.roll_until_decided``)."""
    from tertia.analysis.enumerate import TooManyBranches

    def run(dice):  # type: ignore[no-untyped-def]
        while True:
            a, b = dice.roll(D6, "a"), dice.roll(D6, "b")
            if a != b:
                return a > b

    with pytest.raises(TooManyBranches):
        enumerate_branches(run)


def test_cli_refuses_a_defending_commander_who_cannot_take_part(tmp_path: Path) -> None:
    """A named commander is used or refused with the reason, never silently left out."""
    text = Path(ODDS_FILE).read_text(encoding="utf-8")
    text += """
[[commanders]]
id = "r-near"
name = "Lord Wilmot"
side = "royalist"
command = "centre"
x = 15
y = 23
facing = 180

[[commanders]]
id = "r-far"
name = "Sir Jacob Astley"
side = "royalist"
command = "reserve"
x = 3
y = 33
facing = 180
"""
    scenario = tmp_path / "odds-with-commanders.toml"
    scenario.write_text(text, encoding="utf-8")
    attack = ["odds", str(scenario), "--attacker", "p-foot", "--target", "r-foot", "--json"]
    near = runner.invoke(app, [*attack, "--defender-commander", "r-near"])
    assert near.exit_code == 0, near.output
    assert any("commander rally" in m for m in json.loads(near.output)["defender_modifiers"])
    refused = runner.invoke(app, [*attack, "--defender-commander", "Sir Jacob"])
    assert refused.exit_code == 1, refused.output
    assert "Sir Jacob Astley cannot encourage here; eligible: Lord Wilmot" in refused.output
    refused = runner.invoke(app, [*attack, "--defender-commander", "nobody"])
    assert refused.exit_code == 1 and "--defender-commander: no piece is called 'nobody'" in refused.output
    # A bombardment asks the defending side nothing at all.
    bombard = ["odds", str(scenario), "--attacker", "p-gun", "--target", "r-horse", "--json"]
    refused = runner.invoke(app, [*bombard, "--defender-commander", "r-near"])
    assert refused.exit_code == 1
    assert "--defender-commander r-near cannot take part" in refused.output
    assert runner.invoke(app, bombard).exit_code == 0


# --- the work budget -----------------------------------------------------------------------


def _two_dice(dice):  # type: ignore[no-untyped-def]
    """Two D6 each read whole before the next is rolled: 36 walks of 2 dice each, 3 units
    of work a walk."""
    first = int(dice.roll(D6, "a"))
    return first + int(dice.roll(D6, "b"))


def test_the_work_of_a_walk_is_one_a_walk_and_one_a_die() -> None:
    from tertia.analysis.enumerate import WorkMeter

    meter = WorkMeter()
    assert len(enumerate_branches(_two_dice, meter=meter)) == 36
    assert meter.work == 36 * 3
    assert len(enumerate_branches(_two_dice, budget=36 * 3)) == 36  # the budget exactly is enough


def test_a_walk_over_its_budget_is_refused_with_the_share_of_chance_it_walked() -> None:
    """Counted in work, the refusal is the same on any machine: 12 walks fit a budget of
    34 units (the check comes before each walk), a third of the chance."""
    from tertia.analysis.enumerate import TooManyBranches

    refusals = []
    for _ in range(2):
        with pytest.raises(TooManyBranches) as refused:
            enumerate_branches(_two_dice, budget=34)
        refusals.append(refused.value)
    assert str(refusals[0]) == str(refusals[1])
    assert len(refusals[0].partial) == 12 and refusals[0].walked == Fraction(12, 36)
    assert "(12 branches walked, 33.3% of the chance)" in str(refusals[0])


def _two_dice_told(dice):  # type: ignore[no-untyped-def]
    """:func:`_two_dice`, telling both faces."""
    first = int(dice.roll(D6, "a"))
    return first, int(dice.roll(D6, "b"))


def test_a_walk_over_its_budget_draws_from_what_it_did_not_walk() -> None:
    """Asked to, a refused walk goes on drawing at random from the branches it had not
    walked: the draws weigh the chance not walked between them, each an equal share, and
    never fall in a branch walked; with the walked branches they estimate the whole, the
    same on every run; with no work to draw, or too little, there is no estimate."""
    from tertia.analysis.enumerate import LEAST_SAMPLES, TooManyBranches

    def refused(sample: int) -> TooManyBranches:
        with pytest.raises(TooManyBranches) as caught:
            enumerate_branches(_two_dice_told, budget=34, sample=sample)
        return caught.value

    first, again = refused(3 * 600), refused(3 * 600)
    assert len(first.sampled) == 600
    assert [b.result for b in first.sampled] == [b.result for b in again.sampled]
    assert sum(b.probability for b in first.sampled) == 1 - first.walked == Fraction(2, 3)
    walked = {b.result for b in first.partial}
    assert len(walked) == 12 and not walked & {b.result for b in first.sampled}
    for total in range(2, 13):  # each sum's estimate within 4 standard errors of its exact chance
        exact = Fraction(6 - abs(total - 7), 36)
        estimate = sum((b.probability for b in (*first.partial, *first.sampled) if sum(b.result) == total),
                       Fraction(0))
        assert abs(estimate - exact) <= 4 * math.sqrt(float(exact * (1 - exact)) / 600), total
    assert refused(0).sampled == [] and refused(3 * (LEAST_SAMPLES - 1)).sampled == []


def _bounds(message: str, said: str) -> tuple[Fraction, Fraction]:
    """The bounds a refusal gives a chance: "<said> 12.0% to 40.0%" where the branches
    walked showed it; else none at least, and at most what they left unwalked."""
    found = re.search(re.escape(said) + r" ([\d.]+)% to ([\d.]+)%", message)
    if found is not None:
        return Fraction(found[1]) / 100, Fraction(found[2]) / 100
    rest = re.search(r"each at most ([\d.]+)% \(none showed", message)
    assert rest is not None, message
    return Fraction(0), Fraction(rest[1]) / 100


def test_the_bounds_a_refusal_gives_hold_the_exact_answer() -> None:
    """A melee with a support and a commander, refused part way: each chance the walked
    branches prove bounds the exact one, at least what was walked, at most that plus the
    rest; more budget, narrower bounds."""
    from tertia.analysis.enumerate import TooManyBranches

    game, state = duel("horse", "horse", commanders=[commander("c", P, 30, 7.5, command="right")])
    action = Attack(attacker="a", target="t", commander="c")
    exact = odds(game, state, action).summary["target_routed_exact"]
    widths = []
    for budget in (6, 18):
        with pytest.raises(TooManyBranches, match="at most") as refused:
            odds(game, state, action, budget=budget)
        low, high = _bounds(str(refused.value), f"{state.units['t'].label} is routed from the field")
        assert refused.value.walked is not None
        assert low - Fraction(1, 1000) <= exact <= high + Fraction(1, 1000)
        widths.append(high - low)
    assert widths[1] < widths[0]


def test_a_refusal_tells_each_chance_its_walked_branches_show_once() -> None:
    """Two chances the walked branches show alike are both told; leaving play is left out
    only where it is the rout already told; with none shown, the share not yet walked
    bounds them all."""
    from tertia.analysis.odds import bounds_in_words
    from tertia.core.ruleset import OddsMeasure

    fell = OddsMeasure("fell_back", "unit_flag", ("fell_back",), "falls back")
    passed = OddsMeasure("passed", "unit_flag", ("passed",), "passes its test")
    quarter, half = Fraction(1, 4), Fraction(1, 2)
    alike = {"target_fell_back_exact": quarter, "target_passed_exact": quarter,
             "target_routed_exact": quarter, "target_removed_exact": quarter}
    said = bounds_in_words(alike, [fell, passed], {"target": "Essex's Foot"}, half)
    assert "falls back 25.0% to 75.0%" in said and "passes its test 25.0% to 75.0%" in said
    assert "is routed from the field 25.0%" in said and "leaves play" not in said
    more = {**alike, "target_removed_exact": half}
    assert "leaves play 50.0% to 100% " in bounds_in_words(more, [fell], {"target": "Essex's Foot"}, half)
    none = bounds_in_words({"target_fell_back_exact": Fraction(0)}, [fell], {"target": "Essex's Foot"}, half)
    assert none.startswith("the chances it tells are each at most 50.0%")

