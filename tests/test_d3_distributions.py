"""Every dice mechanic of the D3 rule sets: the exact distribution from the odds engine
(which runs the rule set's own code) equals the one worked out by hand, and a seeded
sample of the real engine agrees with it (a binomial test at the 0.1% level)."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from tertia.activation.command_cards import OrderCards
from tertia.analysis.enumerate import enumerate_branches
from tertia.analysis.odds import chance_outcomes, odds
from tertia.core.actions import Action, Move
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.rules.fighting import Attack, Shoot
from tertia.rules.hits import piece
from tertia.rulesets.d3_cards.commanders import Rally

from .d3_support import CARDS, COMMANDS, activation, foot, horse
from .support import P, R, commander, make_game, unit

SAMPLES = 2000
THIRD = Fraction(1, 3)


def agrees(successes: int, n: int, p: Fraction) -> bool:
    """Within 3.3 standard deviations of the exact expectation (about a 0.1% false alarm)."""
    mean = n * float(p)
    sd = math.sqrt(n * float(p) * (1 - float(p)))
    return abs(successes - mean) <= 3.3 * max(sd, 1e-9)


def sample(game: Game, state: GameState, action: Action, predicate: Callable[[GameState], bool],
           seed: int = 99) -> int:
    dice = SeededDice(seed)
    return sum(bool(predicate(game.apply(state, action, dice)[0])) for _ in range(SAMPLES))


def hits_of(game: Game, state: GameState, action: Action) -> dict[str, Fraction]:
    return dict(odds(game, state, action).summary["target_hits_exact"])


def spread(*values: int) -> dict[str, Fraction]:
    """Equal chances over the given hit counts."""
    out: dict[str, Fraction] = {}
    for v in values:
        out[str(v)] = out.get(str(v), Fraction(0)) + Fraction(1, len(values))
    return out


def shot(rules: str, kind: str, card: str, target: dict[str, Any], **kw: Any) -> tuple[Game, GameState]:
    game = make_game([unit("u", P, kind, 30, 8, command="centre" if kind == "foot" else "independent"),
                      target], rules=rules, **kw)
    return game, activation(game, P, card)


# --- d3-commands ------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "card", "expected"), [
    ("foot", "centre", spread(1, 2, 3)), ("dragoons", "independent", spread(0, 1, 2)),
    ("commanded_shot", "independent", spread(0, 1, 2)), ("artillery", "independent", spread(0, 1, 2))])
def test_commands_shooting_hits(kind: str, card: str, expected: dict[str, Fraction]) -> None:
    """Shooting 3: D3 for infantry, D3-1 for dragoons, commanded shot and artillery."""
    game, state = shot(COMMANDS, kind, card, horse("e", R, 30, 18, 180))
    assert hits_of(game, state, Shoot(unit="u", target="e")) == expected
    two = sample(game, state, Shoot(unit="u", target="e"), lambda s: piece(s.units["e"]).hits == 2)
    assert agrees(two, SAMPLES, expected["2"])


def test_commands_ammunition_runs_out_one_time_in_three() -> None:
    """Ammunition shortage: a D6 of 5-6 (1/3), 4-6 in light rain (1/2)."""
    for weather, chance in (("fair", THIRD), ("light-rain", Fraction(1, 2))):
        game, state = shot(COMMANDS, "foot", "centre", horse("e", R, 30, 18, 180))
        state = state.with_values({"weather": weather})
        result = odds(game, state, Shoot(unit="u", target="e"))
        assert result.summary["ammunition_exhausted_exact"] == chance
        out = sample(game, state, Shoot(unit="u", target="e"), lambda s: piece(s.units["u"]).out_of_ammo)
        assert agrees(out, SAMPLES, chance)


def test_commands_flank_charge_of_impetuous_horse_on_foot() -> None:
    """Melee: (D3 +1 impetuous -1 infantry) doubled on the flank: 2, 4 or 6 hits."""
    game = make_game([horse("a", P, 33.51, 20, 270, traits=("impetuous",)), foot("t", R, 30, 20, 180)],
                     rules=COMMANDS)
    state = activation(game, P, "right")
    assert hits_of(game, state, Attack(attacker="a", target="t")) == spread(2, 4, 6)
    six = sample(game, state, Attack(attacker="a", target="t"), lambda s: piece(s.units["t"]).hits == 6)
    assert agrees(six, SAMPLES, THIRD)


@pytest.mark.parametrize(("rules", "need"), [(COMMANDS, 5), (CARDS, 4)])
def test_pursuit_chances(rules: str, need: int) -> None:
    """Impetuous Horse pursue on 5+ (d3-commands) or 4+ (d3-cards) once their enemy routs."""
    game = make_game([horse("a", P, 30, 10, traits=("impetuous",)), horse("t", R, 30, 13, 180),
                      foot("x", R, 60, 40, 180)], rules=rules)
    state = activation(game, P, "right" if rules == COMMANDS else "horse")
    state = state.with_unit(state.units["t"].evolve(hits=8))
    chance = Fraction(7 - need, 6)
    result = odds(game, state, Attack(attacker="a", target="t"))
    assert result.summary["attacker_removed_exact"] == chance
    assert result.summary["target_routed_exact"] == 1
    gone = sample(game, state, Attack(attacker="a", target="t"), lambda s: not s.units["a"].in_play)
    assert agrees(gone, SAMPLES, chance)


def test_a_fleeing_commander_costs_each_unit_d3_minus_1() -> None:
    """Commanders: "all units immediately take D3-1 hits": 0, 1 or 2 each."""
    game = make_game([horse("h", P, 30, 10), foot("a", R, 50, 40, 180), foot("b", R, 55, 40, 180)],
                     rules=COMMANDS, commanders=[commander("c", R, 30, 20, general=True)])
    state = activation(game, P, "right")
    move = Move(unit="h", waypoints=((30, 17.49),))
    dist: dict[tuple[int, int], Fraction] = {}
    for o in odds(game, state, move).outcomes:
        key = (o.effects.get("a", {}).get("hits", 0), o.effects.get("b", {}).get("hits", 0))
        dist[key] = dist.get(key, Fraction(0)) + o.probability
    assert dist == {(a, b): Fraction(1, 9) for a in range(3) for b in range(3)}
    two = sample(game, state, move, lambda s: piece(s.units["a"]).hits == 2)
    assert agrees(two, SAMPLES, THIRD)


def test_initiative_with_commander_values() -> None:
    """Sequence of Play: D6 + value each, ties rolled again. With values 0 and 2 the first
    side wins 6 of the 32 untied throws. (One card a side: no orders, the roll opens the
    turn.)"""
    game = make_game([foot("f", P, 10, 5), foot("e", R, 10, 43, 180)], rules=COMMANDS, commanders=[
        {**commander("pc", P, 50, 2), "value": 0}, {**commander("rc", R, 50, 46), "value": 2}])
    wins = sum(1 for a in range(1, 7) for b in range(1, 7) if a > b + 2)
    untied = sum(1 for a in range(1, 7) for b in range(1, 7) if a != b + 2)
    assert (wins, untied) == (6, 32)
    firsts = sum(game.start(SeededDice(seed))[0].active == P for seed in range(SAMPLES))
    assert agrees(firsts, SAMPLES, Fraction(wins, untied))
    exact: dict[str, Fraction] = {}
    for branch in enumerate_branches(lambda dice: game.start(dice)[0].active):
        exact[branch.result] = exact.get(branch.result, Fraction(0)) + branch.probability
    assert exact == {P: Fraction(wins, untied), R: 1 - Fraction(wins, untied)}


def test_initiative_outcomes_of_the_last_card_order_are_exact() -> None:
    """The action that completes the card orders rolls the initiative: its chance outcomes
    are the two sides going first, ties rolled again, exactly (values 1 and 0: the first
    side wins 21 of the 31 untied throws)."""
    game = make_game([foot("f", P, 10, 5), foot("e", R, 10, 43, 180), horse("h", P, 20, 5, command="right"),
                      horse("k", R, 20, 43, 180, command="right")], rules=COMMANDS, commanders=[
        {**commander("pc", P, 50, 2), "value": 1}, {**commander("rc", R, 50, 46), "value": 0}])
    state, _ = game.start(SeededDice(1))
    first, second = state.to_act, state.opponent(state.to_act)
    state, _ = game.apply(state, OrderCards(order=("centre", "right")), SeededDice(2))
    assert state.to_act == second
    outcomes = chance_outcomes(game, state, OrderCards(order=("right", "centre")))
    by_side = {s.active: p for p, s, _ in outcomes}
    wins = sum(1 for a in range(1, 7) for b in range(1, 7) if a + 1 > b)
    untied = sum(1 for a in range(1, 7) for b in range(1, 7) if a + 1 != b)
    assert (wins, untied) == (21, 31) and first in (P, R)
    assert by_side == {P: Fraction(wins, untied), R: 1 - Fraction(wins, untied)}


# --- d3-cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("markers", "cover", "expected"), [
    (0, False, spread(1, 2, 3)), (1, False, spread(0, 1, 2)), (1, True, spread(0, 0, 1))])
def test_cards_musketry(markers: int, cover: bool, expected: dict[str, Fraction]) -> None:
    """Musketry 3: a D3, less 1 for each marker and 1 for cover."""
    town = [{"type": "town", "polygon": [[26, 14], [34, 14], [34, 22], [26, 22]]}] if cover else []
    game, state = shot(CARDS, "dragoons", "dragoons", horse("e", R, 30, 18, 180), terrain=town)
    state = state.with_unit(state.units["u"].evolve(ammo_markers=markers))
    assert hits_of(game, state, Shoot(unit="u", target="e")) == expected
    result = odds(game, state, Shoot(unit="u", target="e"))
    assert result.summary["ammunition_exhausted_exact"] == THIRD


@pytest.mark.parametrize(("cover", "markers", "chance"), [
    (False, 0, Fraction(1, 2)), (True, 0, Fraction(1, 6)), (False, 2, Fraction(1, 6))])
def test_cards_gun_hits_within_its_rolled_range(cover: bool, markers: int, chance: Fraction) -> None:
    """Artillery: range D6 x 6" (less 2 pips for cover, 1 per marker); a target 20" away is
    hit when the pips reach 4."""
    town = [{"type": "town", "polygon": [[26, 28], [34, 28], [34, 34], [26, 34]]}] if cover else []
    game, state = shot(CARDS, "artillery", "artillery", foot("e", R, 30, 31, 180), terrain=town)
    state = state.with_unit(state.units["u"].evolve(ammo_markers=markers))
    assert hits_of(game, state, Shoot(unit="u", target="e")).get("1", Fraction(0)) == chance
    hit = sample(game, state, Shoot(unit="u", target="e"), lambda s: piece(s.units["e"]).hits == 1)
    assert agrees(hit, SAMPLES, chance)


def test_cards_rally_removes_a_d3() -> None:
    """Commanders: a rally removes a D3 of hits (one less in melee)."""
    game = make_game([foot("f", P, 30, 10), foot("e", R, 60, 40, 180)], rules=CARDS,
                     commanders=[commander("c", P, 30, 12.51, general=True)])
    state = activation(game, P, "commander")
    state = state.with_unit(state.units["f"].evolve(hits=5))
    outcomes = odds(game, state, Rally(commander="c", unit="f")).outcomes
    removed: dict[int, Fraction] = {}
    for o in outcomes:
        k = o.effects.get("f", {}).get("hits", 0)
        removed[k] = removed.get(k, Fraction(0)) + o.probability
    assert removed == {-1: THIRD, -2: THIRD, -3: THIRD}


def test_cards_first_card_is_any_of_ten() -> None:
    """Sequence of Play: the ten cards shuffled together: each is the first drawn one time
    in ten."""
    game = make_game([horse("h", P, 10, 5), foot("f", P, 20, 5), unit("d", P, "dragoons", 30, 5),
                      unit("g", P, "artillery", 40, 5), horse("eh", R, 10, 43, 180),
                      foot("ef", R, 20, 43, 180), unit("ed", R, "dragoons", 30, 43, 180),
                      unit("eg", R, "artillery", 40, 43, 180)], rules=CARDS,
                     commanders=[commander("pc", P, 60, 3, general=True),
                                 commander("rc", R, 60, 45, general=True)])
    firsts = sum(
        game.start(SeededDice(seed))[0].value("drawn")[0] == (P, "horse") for seed in range(SAMPLES)
    )
    assert agrees(firsts, SAMPLES, Fraction(1, 10))


def test_queries_name_the_rule_sets_words() -> None:
    """``tertia odds``: ``shoot``, ``melee`` and ``bombard`` (a gun's shot)."""
    game, state = shot(CARDS, "artillery", "artillery", foot("e", R, 30, 31, 180))
    ready, action = game.ruleset.query(state, "bombard", "u", "e")
    assert action == Shoot(unit="u", target="e") and odds(game, ready, action).outcomes
    with pytest.raises(IllegalAction):
        game.ruleset.query(state, "charge", "u", "e")
    foot_game, foot_state = shot(CARDS, "foot", "foot", foot("e", R, 30, 11.01, 180))
    with pytest.raises(IllegalAction):
        foot_game.ruleset.query(foot_state, "bombard", "u", "e")
    ready, action = foot_game.ruleset.query(foot_state, None, "u", "e")
    assert action == Attack(attacker="u", target="e")
