"""Cover, contact and melee in both D3 rule sets, clause by clause: hedges shelter only
the unit that holds them, entrenchments only a unit inside or behind the works against an
enemy outside, the melee cover of each text, and the clauses of d3-commands whose rows
need a test of their own. Each docstring quotes its clause; docs/rulesets/d3-commands.md
and d3-cards.md name every test here."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tertia.analysis.odds import odds
from tertia.core.actions import Attack, Move, Shoot
from tertia.core.game import Game
from tertia.core.state import GameState

from .d3_support import CARDS, COMMANDS, activation, foot, horse, resolved
from .support import P, R, act, make_game, unit

THIRD = Fraction(1, 3)
OPEN = {"1": THIRD, "2": THIRD, "3": THIRD}
"""A D3 with no modifier: 1, 2 or 3 hits, a third each."""
COVERED = {"0": THIRD, "1": THIRD, "2": THIRD}
"""A D3 less one for cover: 0, 1 or 2 hits, a third each."""

CARD = {COMMANDS: {"horse": "right", "foot": "centre", "commanded_shot": "independent"},
        CARDS: {"horse": "horse", "foot": "foot", "commanded_shot": "foot"}}


def hand_over(game: Game, state: GameState, side: str, kind: str) -> GameState:
    """The same position with ``side``'s card for ``kind`` in play and nothing done."""
    card = CARD[game.ruleset.id][kind]
    return state.evolve(active=side, marks={},
                        extra={**state.extra, "activation": {"side": side, "card": card}})


def modifiers(game: Game, state: GameState, attacker: str, target: str) -> list[str]:
    _, events = act(game, state, Attack(attacker=attacker, target=target), [2])
    return list(resolved(events).modifiers)


def cover_in(mods: list[str]) -> str | None:
    """The cover a melee's modifiers name, in either rule set's words."""
    for m in mods:
        for head in ("-1 target in cover (", "-1 target in "):
            if m.startswith(head):
                return m[len(head):].rstrip(")")
    return None


def hits_of(game: Game, state: GameState, action: Attack | Shoot) -> dict[str, Fraction]:
    return dict(odds(game, state, action).summary["target_hits_exact"])


def charged(rules: str, terrain: list[dict[str, Any]], *, target_at: float = 14.0) -> tuple[Game, GameState]:
    """Horse ``h`` at (30, 4) charges 6.99" north into Foot ``d`` facing it at (30,
    ``target_at``), across ``terrain``; the position after the charge, Horse's card still in
    play."""
    game = make_game([horse("h", P, 30, 4), foot("d", R, 30, target_at, 180)], rules=rules,
                     terrain=terrain)
    state = activation(game, P, CARD[rules]["horse"])
    front = target_at - 1.5
    state, _ = act(game, state, Move(unit="h", waypoints=((30, front - 1.51),)))
    return game, state


HEDGE_LINE = {"type": "hedge", "line": [[20, 12], [40, 12]], "width": 0.5}
HEDGED_FIELD = {"type": "field", "polygon": [[20, 12.2], [40, 12.2], [40, 30], [20, 30]], "hedged": True}


# --- Hedges ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [COMMANDS, CARDS])
def test_a_hedge_covers_the_unit_holding_it_not_the_unit_that_charged_it(rules: str) -> None:
    """Terrain: "HEDGES - Provide cover for defenders in melees" (d3-cards: "Provide cover
    only for melees"). Foot behind a hedge are charged across it: the charger's blow is
    taken in cover; when the Foot strike back the charger, outside the hedge, has none,
    though the hedge now lies under the charger's own base."""
    game, state = charged(rules, [HEDGE_LINE])
    assert cover_in(modifiers(game, state, "h", "d")) == "hedge"
    back = hand_over(game, state, R, "foot")
    assert modifiers(game, back, "d", "h") == []
    assert hits_of(game, back, Attack(attacker="d", target="h")) == OPEN


@pytest.mark.parametrize("rules", [COMMANDS, CARDS])
def test_a_hedge_away_from_the_melee_covers_nobody(rules: str) -> None:
    """Hedges: only a hedge between the two units counts."""
    aside = {"type": "hedge", "line": [[40, 0], [40, 30]], "width": 0.5}
    game, state = charged(rules, [aside])
    assert modifiers(game, state, "h", "d") == ["-1 target is Infantry"]


def test_a_hedged_field_covers_the_unit_inside_it() -> None:
    """Hedges: a unit inside a hedged field holds its hedge against an enemy outside; the
    enemy outside has none against it, and two units inside the same field have none."""
    game, state = charged(COMMANDS, [HEDGED_FIELD])
    assert modifiers(game, state, "h", "d") == ["-1 target is Infantry", "-1 target in cover (hedge)"]
    back = hand_over(game, state, R, "foot")
    assert modifiers(game, back, "d", "h") == []
    inside = make_game([horse("h", P, 30, 15.49), foot("d", R, 30, 18.5, 180)], rules=COMMANDS,
                       terrain=[HEDGED_FIELD])
    assert modifiers(inside, activation(inside, P, "right"), "h", "d") == ["-1 target is Infantry"]


def test_a_unit_that_charges_out_of_a_hedged_field_leaves_its_cover() -> None:
    """Hedges cover defenders: Foot that charge out of their hedged field (their centre
    still inside it) have no cover from it when the Horse they charged strike back."""
    game = make_game([horse("h", P, 30, 10), foot("d", R, 30, 18, 180)], rules=COMMANDS,
                     terrain=[HEDGED_FIELD])
    state, _ = act(game, activation(game, R, "centre"), Move(unit="d", waypoints=((30, 13.01),)))
    assert state.units["d"].y > 12.2
    assert modifiers(game, hand_over(game, state, P, "horse"), "h", "d") == ["-1 target is Infantry"]


def test_without_a_charge_the_unit_nearer_the_hedge_holds_it() -> None:
    """Hedges: units standing in contact across a hedge with no charge between them (set
    up so): the one whose centre is nearer the hedge holds it."""
    game = make_game([horse("h", P, 30, 10), horse("e", R, 30, 13, 180)], rules=COMMANDS,
                     terrain=[{"type": "hedge", "line": [[20, 12], [40, 12]], "width": 0.5}])
    assert modifiers(game, activation(game, P, "right"), "h", "e") == ["-1 target in cover (hedge)"]
    assert modifiers(game, activation(game, R, "right"), "e", "h") == []


@pytest.mark.parametrize("rules", [COMMANDS, CARDS])
def test_a_hedge_gives_no_cover_against_shooting(rules: str) -> None:
    """Hedges cover only in melee: a volley across a hedge the target holds is not
    reduced."""
    game = make_game([foot("f", P, 30, 4), horse("e", R, 30, 14, 180)], rules=rules,
                     terrain=[{"type": "hedge", "line": [[20, 12], [40, 12]], "width": 0.5}])
    state = activation(game, P, CARD[rules]["foot"])
    _, events = act(game, state, Shoot(unit="f", target="e"), [2, 1])
    assert list(resolved(events).modifiers) == []


# --- Entrenchments --------------------------------------------------------------------------

AROUND_TARGET = {"type": "entrenchment", "polygon": [[26, 15], [34, 15], [34, 22], [26, 22]]}
AROUND_SHOOTER = {"type": "entrenchment", "polygon": [[26, 4], [34, 4], [34, 11], [26, 11]]}
AROUND_BOTH = {"type": "entrenchment", "polygon": [[20, 2], [40, 2], [40, 24], [20, 24]]}
LINE_NEAR_TARGET = {"type": "entrenchment", "line": [[20, 15.5], [40, 15.5]], "width": 1.0}
LINE_NEAR_SHOOTER = {"type": "entrenchment", "line": [[20, 10.5], [40, 10.5]], "width": 1.0}


@pytest.mark.parametrize("rules", [COMMANDS, CARDS])
@pytest.mark.parametrize(("works", "covered"), [
    (AROUND_TARGET, True), (AROUND_SHOOTER, False), (AROUND_BOTH, False),
    (LINE_NEAR_TARGET, True), (LINE_NEAR_SHOOTER, False)])
def test_entrenchments_cover_a_target_inside_or_behind_them_against_shooting(
    rules: str, works: dict[str, Any], covered: bool
) -> None:
    """Terrain: "ENTRENCHMENTS - Provide cover for melee and shooting combat": to a unit
    inside the works or behind them against an enemy outside; never to a target in the
    open shot at from inside or from behind the shooter's own works."""
    game = make_game([foot("f", P, 30, 8), horse("e", R, 30, 18, 180)], rules=rules, terrain=[works])
    state = activation(game, P, CARD[rules]["foot"])
    _, events = act(game, state, Shoot(unit="f", target="e"), [2, 1])
    assert list(resolved(events).modifiers) == (["-1 target in cover (entrenchment)"] if covered else [])


def test_a_target_in_the_open_shot_from_the_works_takes_a_full_d3() -> None:
    """Entrenchments, exact odds: Foot firing out of their works at Horse in the open roll
    an unmodified D3 (1, 2 or 3 hits, a third each); the target inside the works takes
    D3-1 (0, 1 or 2)."""
    for works, expected in ((AROUND_SHOOTER, OPEN), (AROUND_TARGET, COVERED)):
        game = make_game([foot("f", P, 30, 8), horse("e", R, 30, 18, 180)], rules=COMMANDS,
                         terrain=[works])
        assert hits_of(game, activation(game, P, "centre"), Shoot(unit="f", target="e")) == expected


@pytest.mark.parametrize("rules", [COMMANDS, CARDS])
def test_entrenchments_cover_their_holder_in_melee_not_the_enemy_outside(rules: str) -> None:
    """Entrenchments in melee: Foot in their works charged by Horse are in cover; when
    they strike back the Horse outside the works are not. Across a line of works the
    unit charged holds them."""
    game, state = charged(rules, [AROUND_TARGET], target_at=17.0)
    assert cover_in(modifiers(game, state, "h", "d")) == "entrenchment"
    back = hand_over(game, state, R, "foot")
    assert modifiers(game, back, "d", "h") == []
    line = {"type": "entrenchment", "line": [[20, 12], [40, 12]], "width": 0.5}
    game, state = charged(rules, [line])
    assert cover_in(modifiers(game, state, "h", "d")) == "entrenchment"
    assert modifiers(game, hand_over(game, state, R, "foot"), "d", "h") == []


# --- Melee cover ----------------------------------------------------------------------------

TOWN = {"type": "town", "polygon": [[26, 12], [34, 12], [34, 22], [26, 22]]}
HILL = {"type": "hill", "polygon": [[20, 12], [40, 12], [40, 30], [20, 30]]}
WOOD = {"type": "woods", "polygon": [[26, 12], [34, 12], [34, 22], [26, 22]]}
FIELD = {"type": "field", "polygon": [[26, 12], [34, 12], [34, 22], [26, 22]]}


def melee(rules: str, terrain: list[dict[str, Any]], *, target: str = "horse",
          attacker_at: float = 10.0, target_at: float = 13.0) -> list[str]:
    """Horse at (30, ``attacker_at``) strikes a unit of ``target`` kind facing it."""
    game = make_game([horse("a", P, 30, attacker_at),
                      unit("t", R, target, 30, target_at, 180, command="independent"
                           if target == "commanded_shot" else "right")],
                     rules=rules, terrain=terrain)
    return modifiers(game, activation(game, P, CARD[rules]["horse"]), "a", "t")


@pytest.mark.parametrize(("terrain", "expected"), [
    ([], []),
    ([TOWN], ["-1 target in cover (town)"]),
    ([HILL], ["-1 target in cover (defending a hill)"]),
    ([TOWN, HILL, {"type": "hedge", "line": [[20, 12], [40, 12]], "width": 0.5}],
     ["-1 target in cover (town)"]),
    ([WOOD], []),
    ([FIELD], []),
])
def test_commands_a_target_in_cover_takes_one_less_in_melee(
    terrain: list[dict[str, Any]], expected: list[str]
) -> None:
    """Melee 2 (d3-commands): "if a target is in a cover -1": a town, a hill it defends, a
    hedge or works it holds; one -1 however many apply; woods and fields give none in
    melee."""
    assert melee(COMMANDS, terrain) == expected


def test_commands_melee_cover_odds() -> None:
    """Melee 2, exact odds: Horse on Horse in a town roll D3-1: 0, 1 or 2 hits, a third
    each; in the open 1, 2 or 3."""
    for terrain, expected in (([TOWN], COVERED), ([], OPEN)):
        game = make_game([horse("a", P, 30, 10), horse("t", R, 30, 13, 180)], rules=COMMANDS,
                         terrain=terrain)
        assert hits_of(game, activation(game, P, "right"), Attack(attacker="a", target="t")) == expected


@pytest.mark.parametrize(("terrain", "target", "attacker_at", "target_at", "expected"), [
    ([WOOD], "commanded_shot", 10.0, 13.0, ["-1 target in woods"]),
    ([FIELD], "horse", 10.0, 13.0, ["-1 target in fields"]),
    ([{"type": "woods", "polygon": [[26, 6], [34, 6], [34, 11.6], [26, 11.6]]}], "horse", 10.0, 13.0, []),
    ([{"type": "field", "polygon": [[26, 6], [34, 6], [34, 11.6], [26, 11.6]]}], "horse", 10.0, 13.0, []),
    ([], "horse", 10.0, 13.0, []),
])
def test_cards_a_target_in_woods_or_fields_takes_one_less(
    terrain: list[dict[str, Any]], target: str, attacker_at: float, target_at: float, expected: list[str]
) -> None:
    """Melee 2 (d3-cards): "if a target in a woods or in fields -1": the target's centre
    in them; an attacker in woods or fields gives its target nothing."""
    assert melee(CARDS, terrain, target=target, attacker_at=attacker_at, target_at=target_at) == expected
