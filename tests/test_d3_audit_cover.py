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
from tertia.core.actions import Move
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rules.fighting import Attack, Shoot
from tertia.rules.hits import piece
from tertia.rulesets.d3_commands.organisation import current_cards

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
    return state.evolve(active=side, marks={}).with_values({"activation": {"side": side, "card": card}})


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


def hits_of(game: Game, state: GameState, action: Attack | Shoot | Move) -> dict[str, Fraction]:
    return dict(odds(game, state, action).summary["target_hits_exact"])


def charged(rules: str, terrain: list[dict[str, Any]], *, target_at: float = 14.0
            ) -> tuple[Game, GameState, list[str]]:
    """Horse ``h`` at (30, 4) charges 6.99" north into Foot ``d`` facing it at (30,
    ``target_at``), across ``terrain``, and strikes (a D3 of 2): the position after the
    charge, Horse's card still in play, and the modifiers of the Horse's blow (the charge
    fights at once, option ``charge_fights_at_once``)."""
    game = make_game([horse("h", P, 30, 4), foot("d", R, 30, target_at, 180)], rules=rules,
                     terrain=terrain)
    state = activation(game, P, CARD[rules]["horse"])
    charge = Move(unit="h", waypoints=((30, target_at - 3.01),))
    state, events = act(game, state, charge, [2])
    return game, state, list(resolved(events).modifiers)


HEDGE_LINE = {"type": "hedge", "line": [[20, 12], [40, 12]], "width": 0.5}
HEDGED_FIELD = {"type": "field", "polygon": [[20, 12.2], [40, 12.2], [40, 30], [20, 30]], "hedged": True}


# --- Hedges ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [COMMANDS, CARDS])
def test_a_hedge_covers_the_unit_holding_it_not_the_unit_that_charged_it(rules: str) -> None:
    """Terrain: "HEDGES - Provide cover for defenders in melees" (d3-cards: "Provide cover
    only for melees"). Foot behind a hedge are charged across it: the charger's blow is
    taken in cover; when the Foot strike back the charger, outside the hedge, has none,
    though the hedge now lies under the charger's own base."""
    game, state, blow = charged(rules, [HEDGE_LINE])
    assert cover_in(blow) == "hedge"
    back = hand_over(game, state, R, "foot")
    assert modifiers(game, back, "d", "h") == []
    assert hits_of(game, back, Attack(attacker="d", target="h")) == OPEN


@pytest.mark.parametrize("rules", [COMMANDS, CARDS])
def test_a_hedge_away_from_the_melee_covers_nobody(rules: str) -> None:
    """Hedges: only a hedge between the two units counts."""
    aside = {"type": "hedge", "line": [[40, 0], [40, 30]], "width": 0.5}
    assert charged(rules, [aside])[2] == ["-1 target is Infantry"]


def test_a_hedged_field_covers_the_unit_inside_it() -> None:
    """Hedges: a unit inside a hedged field holds its hedge against an enemy outside; the
    enemy outside has none against it, and two units inside the same field have none."""
    game, state, blow = charged(COMMANDS, [HEDGED_FIELD])
    assert blow == ["-1 target is Infantry", "-1 target in cover (hedge)"]
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
    state, _ = act(game, activation(game, R, "centre"), Move(unit="d", waypoints=((30, 13.01),)), [2])
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
    game, state, blow = charged(rules, [AROUND_TARGET], target_at=17.0)
    assert cover_in(blow) == "entrenchment"
    back = hand_over(game, state, R, "foot")
    assert modifiers(game, back, "d", "h") == []
    line = {"type": "entrenchment", "line": [[20, 12], [40, 12]], "width": 0.5}
    game, state, blow = charged(rules, [line])
    assert cover_in(blow) == "entrenchment"
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


# --- d3-commands: the 6" rule, guns that have fired, the commander ----------------------------


def command_of_two(gap: float) -> list[dict[str, Any]]:
    """Two Foot of the centre side by side, ``gap`` inches apart edge to edge."""
    return [foot("a", P, 10, 5), foot("b", P, 14 + gap, 5), foot("e", R, 30, 45, 180)]


def test_commands_a_unit_must_remain_within_6_inches_of_its_command() -> None:
    """Commands: "Where there are multiple units in a command a unit must always remain
    within 6" of at least one unit from that command." As deployed: 6" edge to edge is
    within, 6.1" is not, and each stray is named; a command of one unit has nobody to
    keep near. In play: once the rest of the command has moved, a move ending 6.1" from
    all of it is refused and one ending 6" is not; while another unit is still to move the
    gap may open for a moment."""
    def problems(units: list[dict[str, Any]]) -> list[str]:
        game = make_game(units, rules=COMMANDS)
        return [f"{where}: {m}" for where, m in game.ruleset.scenario_problems(game.scenario)]

    assert problems(command_of_two(6.0)) == []
    found = problems(command_of_two(6.1))
    assert [p.split(":")[0] for p in found] == ["units[0] 'a'", "units[1] 'b'"]
    assert all("within 6\"" in p for p in found)
    assert problems([foot("a", P, 10, 5), horse("h", P, 40, 5), foot("e", R, 30, 45, 180)]) == []
    game = make_game(command_of_two(6.0), rules=COMMANDS)
    state = activation(game, P, "centre")
    done = state.with_mark("moved", "a")
    assert codes_of(game, done, Move(unit="b", waypoints=((20.0, 5),))) == []
    assert codes_of(game, done, Move(unit="b", waypoints=((20.1, 5),))) == ["d3.COHESION"]
    assert codes_of(game, state, Move(unit="b", waypoints=((20.1, 5),))) == []
    three = make_game([foot("a", P, 10, 10), foot("b", P, 20, 10), foot("c", P, 30, 10),
                       foot("e", R, 30, 45, 180)], rules=COMMANDS)
    back = Move(unit="b", waypoints=((20, 4),))
    one_left = activation(three, P, "centre").with_mark("moved", "a")
    assert codes_of(three, one_left, back) == []
    assert codes_of(three, one_left.with_mark("moved", "c"), back) == ["d3.COHESION"]
    lone = make_game([foot("a", P, 10, 5), horse("h", P, 40, 5), foot("e", R, 30, 45, 180)], rules=COMMANDS)
    assert codes_of(lone, activation(lone, P, "right"), Move(unit="h", waypoints=((52, 5),))) == []


def test_a_legal_move_the_6_inch_rule_would_undo_is_warned_of() -> None:
    """Commands, 6" rule: a move that leaves the unit more than 6" from the rest of its
    command while another is still to move is legal (the gap may yet close), but the
    front end's ruler warns that the unit is moved back at the end of the activation
    unless it does; ending within 6" is no warning, and a refused move is warned of by
    its refusal alone."""
    game = make_game(command_of_two(6.0), rules=COMMANDS)
    state = activation(game, P, "centre")
    table = game.table

    def warnings(at: GameState, x: float) -> list[dict[str, str]]:
        measured = game.ruleset.measure_move(table, at, Move(unit="b", waypoints=((x, 5),)))
        assert measured is not None
        return list(measured.get("warnings", []))

    [warned] = warnings(state, 20.1)
    assert "6.1\" from the nearest unit of its command" in warned["message"]
    assert "moved back at the end of the activation" in warned["message"]
    assert warned["rule"].endswith("Commands, 6\" rule")
    assert warnings(state, 20.0) == []
    done = state.with_mark("moved", "a")
    assert codes_of(game, done, Move(unit="b", waypoints=((20.1, 5),))) == ["d3.COHESION"]
    assert warnings(done, 20.1) == []


def codes_of(game: Game, state: GameState, action: Move | Shoot | Attack) -> list[str]:
    return [v.code for v in game.validate(state, action)]


def test_commands_a_gun_cannot_move_after_attempting_to_shoot() -> None:
    """Movement: "Artillery - 6" and cannot move after attempting to shoot." A gun that
    has not shot moves 6" and no more; once it has shot (a D3-1 of no hits still counts
    as an attempt) it may never again leave its place, though it may pivot on the spot.
    Foot that shot may move on their next card."""
    game = make_game([unit("g", P, "artillery", 30, 5), foot("f", P, 50, 5), foot("e", R, 30, 25, 180),
                      foot("e2", R, 50, 15, 180)], rules=COMMANDS)
    state = activation(game, P, "independent")
    assert codes_of(game, state, Move(unit="g", waypoints=((30, 11),))) == []
    assert codes_of(game, state, Move(unit="g", waypoints=((30, 11.1),))) == ["movement.TOO_FAR"]
    fired, events = act(game, state, Shoot(unit="g", target="e"), [1, 1])
    assert resolved(events).attacker_score == 0 and piece(fired.units["g"]).fired
    later = hand_over_card(fired, P, "independent")
    assert codes_of(game, later, Move(unit="g", waypoints=((30, 6),))) == ["movement.STATIONARY"]
    assert codes_of(game, later, Move(unit="g", face_before=20.0)) == []
    volley, _ = act(game, activation(game, P, "centre"), Shoot(unit="f", target="e2"), [1, 1])
    assert codes_of(game, hand_over_card(volley, P, "centre"), Move(unit="f", waypoints=((50, 6),))) == []


def hand_over_card(state: GameState, side: str, card: str) -> GameState:
    return state.evolve(active=side, marks={}).with_values({"activation": {"side": side, "card": card}})


def test_commands_the_commander_once_placed_cannot_move() -> None:
    """Commanders: "Once placed at the start of a game or when they arrive on the
    tabletop they cannot move." No card of his side activates him, and were one to, his
    move would still be refused; under d3-cards, where commanders move, the same move is
    legal."""
    units = [foot("f", P, 10, 5), foot("e", R, 30, 45, 180)]
    chiefs = [{"id": "c", "side": P, "command": "centre", "x": 30, "y": 5, "general": True}]
    game = make_game(units, rules=COMMANDS, commanders=chiefs)
    move = Move(unit="c", waypoints=((30, 7),))
    assert game.ruleset.card_of(game.ruleset.initial_state(game.scenario).units["c"]) == "commander"  # type: ignore[attr-defined]
    start = game.ruleset.initial_state(game.scenario)
    assert game.ruleset.presentation().card_of(start.units["c"]) == "commander"
    shown = game.piece(start, "c").fact("card")
    assert shown is not None and (shown.value, shown.words) == ("commander", "Commander")
    assert "commander" not in current_cards(game.ruleset.initial_state(game.scenario), P)
    assert codes_of(game, activation(game, P, "centre"), move) == ["activation.NOT_ACTIVATED"]
    assert codes_of(game, activation(game, P, "commander"), move) == ["movement.STATIONARY"]
    cards = make_game(units, rules=CARDS, commanders=chiefs)
    assert codes_of(cards, activation(cards, P, "commander"), move) == []


# --- d3-commands: a charge fights at once -------------------------------------------------------


def test_a_charge_that_makes_contact_fights_at_once() -> None:
    """Melee: "Only cavalry and infantry can initiate a melee by moving into the square of
    an enemy unit. The effects of melee are determined immediately" (d3-cards: "Charges are
    resolved by moving the cavalry straight ahead into combat"): the move that makes
    contact rolls the charger's D3 there and then, and the charger can neither leave the
    melee unfought nor fight it again; a move short of contact rolls nothing. With
    ``charge_fights_at_once = false`` the charge rolls nothing and the charger may Attack
    later in its activation."""
    game = make_game([horse("h", P, 30, 10), foot("e", R, 30, 20, 180)], rules=COMMANDS)
    state = activation(game, P, "right")
    _, events = act(game, state, Move(unit="h", waypoints=((30, 16),)))
    assert not [e for e in events if type(e).__name__ == "DiceRolled"]
    after, events = act(game, state, Move(unit="h", waypoints=((30, 16.99),)), [3])
    assert resolved(events).summary.endswith("D3 3-1, 2 hits") and piece(after.units["e"]).hits == 2
    assert codes_of(game, after, Attack(attacker="h", target="e")) == ["core.ALREADY_ACTED"]
    later = make_game([horse("h", P, 30, 10), foot("e", R, 30, 20, 180)], rules=COMMANDS,
                      charge_fights_at_once=False)
    after, events = act(later, activation(later, P, "right"), Move(unit="h", waypoints=((30, 16.99),)))
    assert piece(after.units["e"]).hits == 0
    assert codes_of(later, after, Attack(attacker="h", target="e")) == []
    cards = make_game([horse("h", P, 30, 10), foot("e", R, 30, 20, 180)], rules=CARDS)
    after, _ = act(cards, activation(cards, P, "horse"), Move(unit="h", waypoints=((30, 16.99),)), [3])
    assert piece(after.units["e"]).hits == 2
    assert codes_of(cards, after, Attack(attacker="h", target="e")) == ["core.ALREADY_ACTED"]


def test_commands_the_odds_of_a_charge_are_its_melee() -> None:
    """Melee, exact odds: Horse charging Foot roll D3-1 as they make contact: 0, 1 or 2
    hits, a third each; a charge on Horse in the open 1, 2 or 3."""
    for target, expected in ((foot("e", R, 30, 20, 180), COVERED), (horse("e", R, 30, 20, 180), OPEN)):
        game = make_game([horse("h", P, 30, 10), target], rules=COMMANDS)
        charge = Move(unit="h", waypoints=((30, 16.99),))
        assert hits_of(game, activation(game, P, "right"), charge) == expected


@pytest.mark.parametrize(("kind", "hits"), [("commanded_shot", 1), ("artillery", 1), ("dragoons", 1),
                                            ("foot", 2)])
def test_commands_shot_and_guns_in_contact_fight_with_d3_minus_1(kind: str, hits: int) -> None:
    """The author's reply gives Dragoons in melee D3-1; the text gives Commanded Shot and
    Artillery no melee die at all. Tertia's extrapolation: they too fight with D3-1 when in
    contact (as they shoot); Foot a full D3. A D3 of 2 on Horse: 1 hit, or 2 for Foot."""
    game = make_game([unit("u", P, kind, 30, 10, command="centre" if kind == "foot" else "independent"),
                      horse("t", R, 30, 13, 180)], rules=COMMANDS)
    card = "centre" if kind == "foot" else "independent"
    after, _ = act(game, activation(game, P, card), Attack(attacker="u", target="t"), [2])
    assert piece(after.units["t"]).hits == hits


def test_commands_near_the_enemy_a_dog_leg_is_refused() -> None:
    """Movement, the 12" rule: units near an unengaged enemy "must either remain
    stationary, move towards the enemy, or directly away". Tertia's reading: one straight
    slide; a bent path ("dog-leg") to the same place is refused within 12" and allowed
    beyond."""
    game = make_game([foot("f", P, 30, 10), foot("e", R, 30, 20, 180)], rules=COMMANDS)
    state = activation(game, P, "centre")
    assert codes_of(game, state, Move(unit="f", waypoints=((31, 12),))) == []
    assert codes_of(game, state, Move(unit="f", waypoints=((30, 11), (31, 12)))) == ["movement.NOT_AWAY"]
    far = make_game([foot("f", P, 30, 10), foot("e", R, 30, 30, 180)], rules=COMMANDS)
    assert codes_of(far, activation(far, P, "centre"), Move(unit="f", waypoints=((30, 11), (31, 12)))) == []


# --- A charge that touches a second enemy unit ---------------------------------------------------


def brushing(rules: str, second: str = "foot") -> tuple[Game, GameState, Move]:
    """Horse ``h`` charges 6.99" north at Foot ``e``; its base also overlaps the front of
    ``f2`` (``second``), standing beside ``e``."""
    game = make_game([horse("h", P, 31.5, 10), foot("e", R, 30, 20, 180),
                      unit("f2", R, second, 34.02, 20, 180, command="centre" if second == "foot"
                           else "independent"),
                      horse("k", P, 36.5, 10)], rules=rules)
    return game, activation(game, P, CARD[rules]["horse"]), Move(unit="h", waypoints=((31.5, 16.99),))


@pytest.mark.parametrize("rules", [COMMANDS, CARDS])
def test_a_charge_that_also_touches_a_second_unit_fights_only_its_target(rules: str) -> None:
    """Movement, charges: no text forbids a charge that also touches a second enemy
    unit. The charge is aimed at the unit nearest the middle of its front edge and fights
    only that one; the unit touched in passing is not engaged by it: neither may attack
    the other, it is free to shoot and to move as if out of melee, and the face it shows
    stays open to another charger. Once either moves the touch in passing is over."""
    game, state, charge = brushing(rules)
    assert codes_of(game, state, charge) == []
    after, events = act(game, state, charge, [2])
    assert resolved(events).target == "e"
    assert codes_of(game, after, Attack(attacker="h", target="f2")) == ["core.ALREADY_ACTED"]
    theirs = hand_over(game, after, R, "foot")
    assert codes_of(game, theirs, Attack(attacker="f2", target="h")) == ["fighting.NOT_IN_CONTACT"]
    assert codes_of(game, theirs, Attack(attacker="e", target="h")) == []
    assert codes_of(game, theirs, Shoot(unit="f2", target="h")) == []
    assert codes_of(game, after, Move(unit="k", waypoints=((36.5, 16.99),))) == []
    moved, _ = act(game, theirs, Move(unit="f2", waypoints=((34.02, 23),)))
    assert moved.value("passing") == ()


def test_a_gun_touched_in_passing_is_not_engaged_in_melee() -> None:
    """d3-cards, Melee: "Artillery units ... are immediately eliminated if engaged in
    melee": a gun a charge only brushes in passing stays; the gun charged is destroyed."""
    game, state, charge = brushing(CARDS, second="artillery")
    after, _ = act(game, state, charge, [2])
    assert after.units["f2"].in_play
    gun_first = make_game([horse("h", P, 31.5, 10), unit("g", R, "artillery", 30, 20, 180),
                           foot("f2", R, 34.02, 20, 180)], rules=CARDS)
    after, _ = act(gun_first, activation(gun_first, P, "horse"), Move(unit="h", waypoints=((31.5, 16.99),)))
    assert after.units["g"].removed == "destroyed" and after.units["f2"].in_play
