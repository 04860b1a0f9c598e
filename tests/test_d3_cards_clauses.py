"""Clause-by-clause checks of "D3 ECW Wargaming Rules", the earlier version (d3-cards):
each docstring quotes the clause it checks; docs/rulesets/d3-cards.md names every test
here."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tertia.activation import unit_type_deck as deck
from tertia.core.actions import EndPhase, Move
from tertia.core.dice import ScriptedDice
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rules.fighting import Attack, Shoot
from tertia.rules.hits import piece
from tertia.rulesets.d3_cards.commanders import Rally

from .d3_support import CARDS, activation, foot, horse, resolved, rolls
from .support import P, R, act, codes, commander, make_game, unit


def game_of(units: list[dict[str, Any]], **kw: Any) -> Game:
    return make_game(units, rules=CARDS, **kw)


def with_hits(state: GameState, uid: str, hits: int) -> GameState:
    return state.with_unit(state.units[uid].evolve(hits=hits))


def with_markers(state: GameState, uid: str, markers: int) -> GameState:
    return state.with_unit(state.units[uid].evolve(ammo_markers=markers))


ENEMY = foot("e", R, 30, 45, 180)
ARMY = [horse("h", P, 10, 5), foot("f", P, 20, 5), unit("d", P, "dragoons", 30, 5),
        unit("g", P, "artillery", 40, 5), unit("s", P, "commanded_shot", 50, 5),
        horse("eh", R, 10, 43, 180), foot("ef", R, 20, 43, 180), unit("ed", R, "dragoons", 30, 43, 180),
        unit("eg", R, "artillery", 40, 43, 180)]
CHIEFS = [commander("pc", P, 60, 3, general=True), commander("rc", R, 60, 45, general=True)]


# --- Sequence of Play -----------------------------------------------------------------------


def test_the_deck_holds_five_cards_a_side() -> None:
    """Sequence of Play: "The deck has the following ten cards which are shuffled together
    in one card deck. 5 Red cards: Horse, Foot, Dragoon, Artillery, Commander Activation.
    5 Blue cards: ..." Each side is a colour."""
    game = game_of(ARMY, commanders=CHIEFS)
    state, _ = game.start(ScriptedDice([1]))
    cards = deck.remaining(state) + deck.drawn(state)
    assert len(cards) == 10
    assert Counter(side for side, _ in cards) == {P: 5, R: 5}
    assert {kind for _, kind in cards} == {"horse", "foot", "dragoons", "artillery", "commander"}


def test_cards_are_drawn_one_at_a_time_at_random() -> None:
    """Sequence of Play: "Each time a players colour card is revealed (blue or red) that
    army's player activates the unit type on the card." Drawing card k of the n left is
    one die of n faces."""
    game = game_of(ARMY, commanders=CHIEFS)
    state, events = game.start(ScriptedDice([7]))
    assert rolls(events) == ["draw a card"]
    assert deck.drawn(state) == [(R, "foot")]
    assert state.active == R and game.ruleset.active_card(state) == "foot"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("card", "activated", "idle"), [
    ("horse", {"h"}, {"f", "d", "g", "s", "pc"}), ("foot", {"f", "s"}, {"h", "d"}),
    ("dragoons", {"d"}, {"f", "s"}), ("artillery", {"g"}, {"h"}), ("commander", {"pc"}, {"h", "f"})])
def test_a_card_activates_its_sides_units_of_that_type(
    card: str, activated: set[str], idle: set[str]
) -> None:
    """Sequence of Play: "that army's player activates the unit type on the card."
    Commanded Shot answer to the Foot card (option ``commanded_shot_card``)."""
    game = game_of(ARMY, commanders=CHIEFS)
    state = activation(game, P, card)
    for uid in activated | idle:
        u = state.units[uid]
        assert game.ruleset.is_activated(state, u) is (uid in activated)  # type: ignore[attr-defined]
    other = game_of(ARMY, commanders=CHIEFS, commanded_shot_card="dragoons")
    assert other.ruleset.card_of(other.ruleset.initial_state(other.scenario).units["s"]) == "dragoons"  # type: ignore[attr-defined]
    start = other.ruleset.initial_state(other.scenario)
    assert other.ruleset.presentation().card_of(start.units["s"]) == "dragoons"
    shown = other.piece(start, "s").fact("card")
    assert shown is not None and (shown.value, shown.words) == ("dragoons", "Dragoons")


def test_the_spent_deck_is_shuffled_for_the_next_turn() -> None:
    """Sequence of Play: "Once complete, take the next card from the top of the pack and
    repeat until all cards have been drawn, then shuffle the card deck and start the next
    turn." """
    game = game_of(ARMY, commanders=CHIEFS)
    state, _ = game.start(ScriptedDice([1]))
    # The first card of those left each time: d9 ... d2, none for the last, d10 for turn 2.
    dice = ScriptedDice([1] * 9)
    seen = [(state.active, game.ruleset.active_card(state))]  # type: ignore[attr-defined]
    while state.turn == 1:
        state, _ = game.apply(state, EndPhase(), dice)
        if state.turn == 1:
            seen.append((state.active, game.ruleset.active_card(state)))  # type: ignore[attr-defined]
    assert dice.remaining == 0
    assert len(seen) == 10 and len(set(seen)) == 10
    assert state.turn == 2 and len(deck.remaining(state)) == 9


def test_a_card_with_nothing_to_activate_is_passed() -> None:
    """Sequence of Play: a card whose units are all gone (or were never there) has nothing
    to activate; it is turned over and the next one drawn."""
    game = game_of([horse("h", P, 10, 5), horse("eh", R, 10, 43, 180)])
    state, events = game.start(ScriptedDice([2, 1]))
    passed = [e for e in events if isinstance(e, deck.TypeCardDrawn)]
    assert [(e.kind, e.idle) for e in passed][:2] == [("foot", True), ("horse", False)]
    assert game.ruleset.active_card(state) == "horse"  # type: ignore[attr-defined]


# --- Movement -------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "card", "allowance"), [
    ("horse", "horse", 12.0), ("dragoons", "dragoons", 9.0), ("foot", "foot", 6.0),
    ("commanded_shot", "foot", 6.0), ("artillery", "artillery", 6.0)])
def test_movement_allowances(kind: str, card: str, allowance: float) -> None:
    """Movement: "Horse units - 12", Dragoon units - 9", Foot units - 6", Commanded Shot
    units - 6", Artillery - 6"" and "A unit may move up to their movement allowance, but
    never exceed it." """
    game = game_of([unit("u", P, kind, 30, 5), ENEMY])
    state = activation(game, P, card)
    assert codes(game, state, Move(unit="u", waypoints=((30, 5 + allowance),))) == []
    assert codes(game, state, Move(unit="u", waypoints=((30, 5.1 + allowance),))) == ["movement.TOO_FAR"]


def test_movement_is_in_a_straight_line_with_free_pivots() -> None:
    """Movement: "All movement must be in a straight-line. Units can pivot on their centre
    at the start or end of their movement." Pivots cost nothing here: a full 6" after one."""
    game = game_of([foot("f", P, 30, 5), ENEMY])
    state = activation(game, P, "foot")
    assert codes(game, state, Move(unit="f", waypoints=((30, 8), (32, 10)))) == ["movement.BAD_PATH"]
    assert codes(game, state, Move(unit="f", waypoints=((36, 5),), face_before=90)) == []
    assert codes(game, state, Move(unit="f", waypoints=((30, 11),), face_after=90)) == []


def test_artillery_stays_once_it_has_fired() -> None:
    """Movement: "Artillery - 6" and cannot move once deployed for shooting"; Units: "Once
    in position and firing the guns must stay in place and make no further moves." """
    game = game_of([unit("g", P, "artillery", 30, 5), ENEMY])
    state = activation(game, P, "artillery")
    state = state.with_unit(state.units["g"].evolve(fired=True))
    assert codes(game, state, Move(unit="g", waypoints=((30, 7),))) == ["movement.STATIONARY"]


def test_charges_horse_and_foot_straight_ahead_one_turn_of_45() -> None:
    """Movement: "Horse and Foot are the only units that may charge into melee. Charges are
    resolved by moving the cavalry straight ahead into combat ... The charging unit may
    turn once up to 45 degrees at the beginning of the charge move." """
    game = game_of([horse("h", P, 30, 10), unit("d", P, "dragoons", 40, 10), foot("e", R, 30, 20, 180),
                    foot("e2", R, 40, 20, 180)])
    assert codes(game, activation(game, P, "horse"), Move(unit="h", waypoints=((30, 16.99),))) == []
    assert codes(game, activation(game, P, "dragoons"), Move(unit="d", waypoints=((40, 16.99),))) == [
        "d3.CANNOT_CHARGE"]
    oblique = Move(unit="h", waypoints=((31.5, 16.99),))
    assert codes(game, activation(game, P, "horse"), oblique) == ["d3.CHARGE_TURN"]


def test_only_one_attacker_may_engage_a_defender() -> None:
    """Movement: "Only one attacking unit may engage any given defending unit", whatever
    face a second would take."""
    game = game_of([horse("a", P, 30, 16.99), horse("c", P, 40, 20, 270), foot("e", R, 30, 20, 180)])
    state = activation(game, P, "horse")
    assert codes(game, state, Move(unit="c", waypoints=((33.51, 20),))) == ["d3.FACE_TAKEN"]


def test_units_may_not_move_through_other_units() -> None:
    """Interpenetration: "Units may not move through other units." """
    game = game_of([foot("f", P, 30, 5), foot("g", P, 30, 9), ENEMY])
    assert codes(game, activation(game, P, "foot"), Move(unit="f", waypoints=((30, 11),))) \
        == ["movement.COLLISION"]


# --- Terrain Effects --------------------------------------------------------------------------

TOWN = {"type": "town", "polygon": [[26, 14], [34, 14], [34, 22], [26, 22]]}


def test_only_commanded_shot_enter_woods() -> None:
    """Terrain: "WOODS - Provide cover against shooting. Only Commanded Shot units can
    enter." """
    wood = {"type": "woods", "polygon": [[26, 14], [34, 14], [34, 22], [26, 22]]}
    game = game_of([unit("s", P, "commanded_shot", 30, 10), ENEMY], terrain=[wood])
    assert codes(game, activation(game, P, "foot"), Move(unit="s", waypoints=((30, 15),))) == []
    game = game_of([foot("f", P, 30, 10), ENEMY], terrain=[wood])
    assert codes(game, activation(game, P, "foot"), Move(unit="f", waypoints=((30, 15),))) \
        == ["movement.IMPASSABLE"]


def test_horse_may_cross_a_town_but_not_end_in_it() -> None:
    """Terrain: "TOWNS - ... only ... Infantry, Dragoons & Commanded Shot may end their move
    in a town." """
    hamlet = {"type": "town", "polygon": [[26, 14], [34, 14], [34, 18], [26, 18]]}
    game = game_of([horse("h", P, 30, 10), ENEMY], terrain=[hamlet])
    state = activation(game, P, "horse")
    assert codes(game, state, Move(unit="h", waypoints=((30, 16),))) == ["movement.CANNOT_END_HERE"]
    assert codes(game, state, Move(unit="h", waypoints=((30, 20),))) == []


def test_only_one_unit_may_occupy_a_town() -> None:
    """Terrain: "Only one unit may occupy a town." """
    game = game_of([foot("f", P, 30, 12), foot("g", P, 30, 18), ENEMY], terrain=[TOWN])
    state = activation(game, P, "foot")
    assert codes(game, state, Move(unit="f", waypoints=((30, 14.4),))) == ["d3.TOWN_OCCUPIED"]
    alone = game_of([foot("f", P, 30, 12), ENEMY], terrain=[TOWN])
    assert codes(alone, activation(alone, P, "foot"), Move(unit="f", waypoints=((30, 16),))) == []


def test_marsh_is_impassable() -> None:
    """Terrain: "MARSH/LAKES - impassable to all units"; "RIVERS - impassable except at
    bridges & fords." """
    marsh = {"type": "marsh", "polygon": [[25, 13], [35, 13], [35, 18], [25, 18]]}
    game = game_of([foot("f", P, 30, 10), ENEMY], terrain=[marsh])
    assert codes(game, activation(game, P, "foot"), Move(unit="f", waypoints=((30, 14),))) \
        == ["movement.IMPASSABLE"]


# --- Musketry ---------------------------------------------------------------------------------


def shoot(units: list[dict[str, Any]], card: str, dice: list[int], terrain: list[dict[str, Any]] = (),  # type: ignore[assignment]
          markers: int = 0, **options: Any) -> tuple[GameState, list[Any]]:
    game = game_of(units, terrain=list(terrain), **options)
    state = with_markers(activation(game, P, card), "u", markers)
    return act(game, state, Shoot(unit="u", target="e"), dice)


@pytest.mark.parametrize(("kind", "card"), [("foot", "foot"), ("dragoons", "dragoons"),
                                            ("commanded_shot", "foot")])
def test_every_musket_rolls_a_d3(kind: str, card: str) -> None:
    """Musketry 3: "To determine the hits roll a D3 for a unit" - Dragoons and Commanded
    Shot too (no D3-1 in this version)."""
    after, events = shoot([unit("u", P, kind, 30, 8), horse("e", R, 30, 18, 180)], card, [2, 1])
    assert piece(after.units["e"]).hits == 2 and resolved(events).modifiers == ()


def test_markers_and_cover_reduce_a_volley() -> None:
    """Musketry 3: "Ammunition shortage. Subtract 1 for each ammunition shortage marker.
    Cover. Subtract 1 if target in cover (entrenchments or buildings)." Woods count too
    (Terrain Effects; option ``woods_cover_shooting``)."""
    units = [foot("u", P, 30, 8), horse("e", R, 30, 18, 180)]
    after, events = shoot(units, "foot", [3, 1], markers=2)
    assert piece(after.units["e"]).hits == 1
    assert resolved(events).modifiers == ("-2 ammunition shortage markers",)
    town = {"type": "town", "polygon": [[26, 14], [34, 14], [34, 22], [26, 22]]}
    after, _ = shoot(units, "foot", [3, 1], terrain=[town], markers=1)
    assert piece(after.units["e"]).hits == 1
    wood = {"type": "woods", "polygon": [[26, 14], [34, 14], [34, 22], [26, 22]]}
    assert shoot(units, "foot", [3, 1], terrain=[wood])[0].units["e"].own.hits == 2
    uncovered = shoot(units, "foot", [3, 1], terrain=[wood], woods_cover_shooting=False)[0]
    assert piece(uncovered.units["e"]).hits == 3


def test_muskets_reach_12_inches_after_a_forward_move() -> None:
    """Musketry: "They may shoot after completing their movement, but that movement must
    have been forward movement. Units moving sideways or backwards outside of their 45
    degree front facing cannot shoot." Musketry 2: "Check the target is within 12" range." """
    game = game_of([foot("u", P, 30, 8), foot("e", R, 30, 23.2, 180)])
    state = activation(game, P, "foot")
    assert codes(game, state, Shoot(unit="u", target="e")) == ["fighting.OUT_OF_RANGE"]
    closer, _ = act(game, state, Move(unit="u", waypoints=((30, 10),)))
    assert codes(game, closer, Shoot(unit="u", target="e")) == []
    aside, _ = act(game, state, Move(unit="u", waypoints=((33, 8),)))
    assert codes(game, aside, Shoot(unit="u", target="e")) == ["movement.MOVED_SIDEWAYS"]


@pytest.mark.parametrize(("weather", "roll", "markers"), [("fair", 5, 1), ("fair", 4, 0),
                                                         ("light-rain", 4, 1), ("heavy-rain", 3, 1),
                                                         ("storm", 2, 1), ("storm", 1, 0)])
def test_shortage_markers_on_5_or_6_less_in_rain(weather: str, roll: int, markers: int) -> None:
    """Musketry: "Whenever a unit shoots roll a D6, on a 5-6 their ammunition supply is
    reduced, add an ammunition shortage marker. A unit can accumulate multiple ammunition
    shortage markers." Weather: light rain 4-6, heavy rain 3-6, storm 2-6."""
    game = game_of([unit("u", P, "dragoons", 30, 8), horse("e", R, 30, 18, 180)])
    state = with_markers(activation(game, P, "dragoons", weather=weather), "u", 2)
    after, _ = act(game, state, Shoot(unit="u", target="e"), [1, roll])
    assert piece(after.units["u"]).ammo_markers == 2 + markers


# --- Artillery --------------------------------------------------------------------------------


def test_guns_cannot_move_or_pivot_and_shoot() -> None:
    """Artillery: "Artillery cannot move or pivot and shoot." """
    game = game_of([unit("g", P, "artillery", 30, 8), foot("e", R, 30, 25, 180)])
    state = activation(game, P, "artillery")
    turned, _ = act(game, state, Move(unit="g", face_before=5.0))
    assert codes(game, turned, Shoot(unit="g", target="e")) == ["core.CANNOT_ACT"]
    assert codes(game, state, Shoot(unit="g", target="e")) == []


@pytest.mark.parametrize(("roll", "markers", "cover", "hit"), [
    (3, 0, False, False), (4, 0, False, True), (6, 0, True, True), (5, 0, True, False),
    (5, 1, False, True), (5, 2, False, False)])
def test_gun_range_is_a_d6_times_6_inches(roll: int, markers: int, cover: bool, hit: bool) -> None:
    """Artillery 2: "roll a D6 and multiply the score by 6" to calculate the range ...
    Reduce the D6 score by 2 if target in cover. Reduce the D6 score by 1 for each
    ammunition shortage marker." 3: "If within range, the target takes 1 hit." Here the
    target is 20" away: 4 pips (24") reach it, 3 (18") do not."""
    terrain = [{"type": "town", "polygon": [[26, 28], [34, 28], [34, 34], [26, 34]]}] if cover else []
    after, events = shoot([unit("u", P, "artillery", 30, 8), foot("e", R, 30, 31, 180)], "artillery",
                          [roll, 1], terrain=terrain, markers=markers)
    assert piece(after.units["e"]).hits == (1 if hit else 0)
    assert rolls(events) == ["artillery range: u at e", "ammunition: u"]


def test_no_gun_reaches_beyond_36_inches() -> None:
    """Artillery 2: a D6 of 6 is 36": a target further off cannot be hit, so cannot be
    chosen."""
    game = game_of([unit("g", P, "artillery", 30, 5), foot("e", R, 30, 44.1, 180)])
    assert codes(game, activation(game, P, "artillery"), Shoot(unit="g", target="e")) \
        == ["fighting.OUT_OF_RANGE"]


# --- Melee ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("attacker", "target", "terrain", "roll", "hits", "mods"), [
    (horse("a", P, 30, 10, traits=("impetuous",)), horse("t", R, 30, 13, 180), None, 2, 3,
     ["+1 impetuous Horse"]),
    (unit("a", P, "dragoons", 30, 10), horse("t", R, 30, 13, 180), None, 2, 1, ["-1 attacker is dragoons"]),
    (unit("a", P, "commanded_shot", 30, 10), horse("t", R, 30, 13, 180), None, 3, 2,
     ["-1 attacker is commanded shot"]),
    (horse("a", P, 30, 10), foot("t", R, 30, 13, 180), None, 3, 2, ["-1 target is Infantry"]),
    (horse("a", P, 30, 10), horse("t", R, 30, 13, 180), {"type": "field", "polygon": [[25, 12], [35, 12],
                                                                                      [35, 16], [25, 16]]},
     2, 1, ["-1 target in fields"]),
])
def test_melee_modifiers(attacker: dict[str, Any], target: dict[str, Any], terrain: dict[str, Any] | None,
                         roll: int, hits: int, mods: list[str]) -> None:
    """Melee 2: "Units roll a D3 ... If the attacking unit is Impetuous Horse +1; if the
    attacking unit are Dragoons or Commanded Shot -1; If a target is Infantry -1; if a
    target in a woods or in fields -1." """
    game = game_of([attacker, target], terrain=[terrain] if terrain else [])
    state = activation(game, P, game.ruleset.card_of(game.ruleset.initial_state(game.scenario).units["a"]))  # type: ignore[attr-defined]
    after, events = act(game, state, Attack(attacker="a", target="t"), [roll])
    assert piece(after.units["t"]).hits == hits and list(resolved(events).modifiers) == mods


def test_flank_and_rear_attacks_double() -> None:
    """Melee 3: "If the attacker is attacking the flank or rear, then double the number of
    hits scored after modifications are applied." """
    game = game_of([horse("a", P, 33.51, 20, 270), foot("t", R, 30, 20, 180)])
    after, _ = act(game, activation(game, P, "horse"), Attack(attacker="a", target="t"), [2])
    assert piece(after.units["t"]).hits == 2


def test_hills_are_an_advantage_in_melee() -> None:
    """Terrain: "HILLS - provide advantages to units defending a hill in melee": the text
    gives no number; Tertia takes one, like cover (option ``hill_advantage``)."""
    hill = {"type": "hill", "polygon": [[20, 12], [40, 12], [40, 30], [20, 30]]}
    for option, hits in ((True, 1), (False, 2)):
        game = game_of([horse("a", P, 30, 10), horse("t", R, 30, 13, 180)], terrain=[hill],
                       hill_advantage=option)
        assert act(game, activation(game, P, "horse"), Attack(attacker="a", target="t"), [2])[0].units[
            "t"].own.hits == hits


def test_guns_and_commanders_engaged_in_melee_are_eliminated() -> None:
    """Melee: "Artillery units and commanders are immediately eliminated if engaged in
    melee." Routing and Commanders say the same."""
    game = game_of([horse("h", P, 30, 10), horse("h2", P, 50, 10), unit("g", R, "artillery", 30, 20, 180),
                    ENEMY],
                   commanders=[commander("c", R, 50, 20, general=True)])
    state = activation(game, P, "horse")
    after, _ = act(game, state, Move(unit="h", waypoints=((30, 16.99),)))
    assert after.units["g"].removed == "destroyed"
    after, _ = act(game, after, Move(unit="h2", waypoints=((50, 17.49),)))
    assert after.units["c"].removed == "captured"


def test_others_fight_only_when_engaged_and_may_withdraw() -> None:
    """Melee: "Only cavalry and infantry can initiate a melee by moving into contact with
    another unit. While other units can melee if attacked." "Units may withdraw from a
    melee, but cannot perform any other action such as shooting." """
    game = game_of([unit("d", P, "dragoons", 30, 10), horse("t", R, 30, 13, 180), foot("x", R, 40, 25, 180)])
    state = activation(game, P, "dragoons")
    assert codes(game, state, Attack(attacker="d", target="t")) == []
    assert codes(game, state, Shoot(unit="d", target="x")) == ["fighting.ENGAGED"]
    back, _ = act(game, state, Move(unit="d", waypoints=((30, 5),)))
    assert codes(game, back, Shoot(unit="d", target="x")) == ["core.ALREADY_ACTED"]


def test_impetuous_horse_pursue_on_4_or_more() -> None:
    """Melee, Impetuous Horse: "Any Horse units on the winning side of a melee that eliminate
    the target, must test to see if they pursue ... Roll D6 and on a score 4+ they are
    removed as they have chased the defeated unit off the battlefield." """
    game = game_of([horse("a", P, 30, 10, traits=("impetuous",)), horse("t", R, 30, 13, 180)])
    state = with_hits(activation(game, P, "horse"), "t", 8)
    assert act(game, state, Attack(attacker="a", target="t"), [1, 4])[0].units["a"].removed == "pursued"
    assert act(game, state, Attack(attacker="a", target="t"), [1, 3])[0].units["a"].in_play


def test_units_rout_on_exceeding_8_hits() -> None:
    """Routing: "Units rout and are removed from the tabletop when they exceed 8 hits." """
    game = game_of([foot("u", P, 30, 8), horse("e", R, 30, 18, 180)])
    state = with_hits(activation(game, P, "foot"), "e", 7)
    assert act(game, state, Shoot(unit="u", target="e"), [1, 1])[0].units["e"].in_play
    assert act(game, state, Shoot(unit="u", target="e"), [2, 1])[0].units["e"].removed == "routed"


# --- Commanders -------------------------------------------------------------------------------


def rally_game(**options: Any) -> tuple[Game, GameState]:
    game = game_of([foot("f", P, 30, 10), foot("e", R, 60, 40, 180)],
                   commanders=[{**commander("c", P, 30, 20, general=True), "value": options.pop("value", 1)}],
                   **options)
    return game, with_hits(activation(game, P, "commander"), "f", 5)


def test_commanders_move_and_join_a_unit_to_rally_it() -> None:
    """Commanders: "Commanders during their action can move and join a unit to rally it. To
    determine how many hits are removed from a unit roll a D3." """
    game, state = rally_game()
    assert codes(game, state, Rally(commander="c", unit="f")) == ["d3.NOT_JOINED"]
    joined, _ = act(game, state, Move(unit="c", waypoints=((30, 12.51),)))
    after, events = act(game, joined, Rally(commander="c", unit="f"), [3])
    assert piece(after.units["f"]).hits == 2 and rolls(events) == ["rally: c with f"]
    assert codes(game, after, Rally(commander="c", unit="f")) == ["core.ALREADY_ACTED"]


def test_rallying_a_unit_in_melee_removes_one_less() -> None:
    """Commanders: "If the unit being rallied is in melee, then subtract 1 from the score." """
    game = game_of([foot("f", P, 30, 10), foot("e", R, 30, 13, 180)],
                   commanders=[commander("c", P, 30, 7.51, general=True)])
    state = with_hits(activation(game, P, "commander"), "f", 5)
    assert act(game, state, Rally(commander="c", unit="f"), [3])[0].units["f"].own.hits == 3
    assert act(game, state, Rally(commander="c", unit="f"), [1])[0].units["f"].own.hits == 5


@pytest.mark.parametrize(("options", "value", "allowed"), [
    ({}, 1, 4), ({"rallies": 3}, 1, 3), ({"rallies_by_value": True}, 2, 5),
    ({"rallies_by_value": True}, 0, 3), ({"rallies_by_value": True}, 1, 4)])
def test_four_rallies_a_game_or_five_or_three(options: dict[str, Any], value: int, allowed: int) -> None:
    """Commanders: "Commanders can only attempt 4 rallies during a game. An optional rule is
    to allow inspirational commanders and maximum of 5 rallies and poor commanders 3." """
    game, state = rally_game(value=value, **options)
    state = state.with_unit(state.units["c"].evolve(x=30, y=12.51))
    used = state.with_values({f"rallies_used:{P}": allowed - 1})
    assert codes(game, used, Rally(commander="c", unit="f")) == []
    spent = state.with_values({f"rallies_used:{P}": allowed})
    assert codes(game, spent, Rally(commander="c", unit="f")) == ["d3.NO_RALLIES_LEFT"]


def test_a_commander_may_not_charge() -> None:
    """Commanders move and rally; they do not charge an enemy unit."""
    game = game_of([foot("e", R, 30, 20, 180), foot("f", P, 10, 5)],
                   commanders=[commander("c", P, 30, 10, general=True)])
    assert codes(game, activation(game, P, "commander"), Move(unit="c", waypoints=((30, 17.49),))) == [
        "d3.CANNOT_CHARGE"]


# --- Weather ----------------------------------------------------------------------------------


def test_rain_bogs_the_guns_and_a_storm_puts_them_out_of_action() -> None:
    """Weather: "Heavy Rain - ... artillery cannot move or pivot and becomes bogged."
    "Storm - ... all movement is halved and artillery cannot move or pivot and is out of
    action for the remainder of the game." """
    game = game_of([unit("g", P, "artillery", 30, 8), foot("f", P, 40, 8), foot("e", R, 30, 25, 180)])
    rain = activation(game, P, "artillery", weather="heavy-rain")
    assert codes(game, rain, Move(unit="g", face_before=10.0)) == ["d3.WEATHER"]
    assert codes(game, rain, Shoot(unit="g", target="e")) == []
    storm = activation(game, P, "artillery", weather="storm")
    assert codes(game, storm, Move(unit="g", face_before=10.0)) == ["d3.WEATHER"]
    assert codes(game, storm, Shoot(unit="g", target="e")) == ["d3.WEATHER"]
    foot_storm = activation(game, P, "foot", weather="storm")
    assert codes(game, foot_storm, Move(unit="f", waypoints=((40, 11),))) == []
    assert codes(game, foot_storm, Move(unit="f", waypoints=((40, 11.1),))) == ["movement.TOO_FAR"]
