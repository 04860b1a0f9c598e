"""Clauses of the D3 texts an outside audit found untested or misread: d3-cards' one pivot,
shooting after a wheel (both D3 rule sets), towns that can be assaulted, an attacker that
may itself be charged, scenarios checked against each rule set, and d3-cards rows whose
tests did not test their clause. Each docstring quotes the clause; the docs' tables name
every test here."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tertia.analysis.odds import odds
from tertia.cli.main import app
from tertia.core.actions import Move
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.io.scenario_file import ScenarioError, check_scenario
from tertia.rules.fighting import Shoot
from tertia.rules.hits import piece
from tertia.rulesets.d3_cards.commanders import Rally
from tertia.scenarios import list_builtin, load_builtin, resolve_scenario

from .d3_support import CARDS, COMMANDS, activation, foot, horse, resolved, rolls
from .support import P, R, act, codes, commander, make_game, unit


def cards_game(units: list[dict[str, Any]], **kw: Any) -> Game:
    return make_game(units, rules=CARDS, **kw)


# --- Pivots and shooting after a move ---------------------------------------------------------


def test_one_pivot_at_the_start_or_the_end() -> None:
    """d3-cards Movement: "Units can pivot on their centre at the start or end of their
    movement": one pivot a move, at either end (option ``d3_cards_pivots``: ``both``)."""
    game = cards_game([foot("f", P, 30, 5), foot("e", R, 30, 45, 180)])
    state = activation(game, P, "foot")
    assert codes(game, state, Move(unit="f", waypoints=((30, 8),), face_before=90)) == []
    assert codes(game, state, Move(unit="f", waypoints=((30, 8),), face_after=90)) == []
    assert codes(game, state, Move(unit="f", face_before=90, face_after=180)) == ["movement.BAD_PATH"]
    both = Move(unit="f", waypoints=((34, 5),), face_before=90, face_after=0)
    assert codes(game, state, both) == ["movement.BAD_PATH"]
    loose = cards_game([foot("f", P, 30, 5), foot("e", R, 30, 45, 180)], d3_cards_pivots="both")
    assert codes(loose, activation(loose, P, "foot"), both) == []


def test_sidestep_by_pivoting_twice_cannot_shoot() -> None:
    """d3-cards Musketry: "Units moving sideways or backwards outside of their 45 degree
    front facing cannot shoot." With one pivot a unit cannot turn, slide and turn back to
    shoot from a sidestep; with ``d3_cards_pivots = "both"`` it can, as the rules allowed."""
    units = [foot("f", P, 30, 5), foot("e", R, 34, 16, 180)]
    sidestep = Move(unit="f", waypoints=((34, 5),), face_before=90, face_after=0)
    loose = cards_game(units, d3_cards_pivots="both")
    moved, _ = act(loose, activation(loose, P, "foot"), sidestep)
    assert codes(loose, moved, Shoot(unit="f", target="e")) == []
    strict = cards_game(units, d3_cards_pivots="both", forward_judged_from="activation-start")
    moved, _ = act(strict, activation(strict, P, "foot"), sidestep)
    assert codes(strict, moved, Shoot(unit="f", target="e")) == ["movement.MOVED_SIDEWAYS"]


@pytest.mark.parametrize("rules", [CARDS, COMMANDS])
def test_wheel_and_advance_then_fire(rules: str) -> None:
    """Musketry (d3-cards) and Shooting (d3-commands): shooting "after completing their
    movement, but that movement must have been forward movement". By default forward is
    judged after the pivot at the start: a unit may wheel 60 degrees, advance and fire.
    Option ``forward_judged_from = "activation-start"`` judges it from the facing the unit
    had when activated: the same move is then not forward, while a wheel of 30 is."""
    card = "foot" if rules == CARDS else "centre"
    units = [foot("f", P, 30, 5), foot("e", R, 42, 14, 240)]
    wheel = Move(unit="f", waypoints=((31.73, 6.0),), face_before=60)
    narrow = Move(unit="f", waypoints=((30.5, 5.87),), face_before=30)
    for option, wide_ok in (("after-start-pivot", True), ("activation-start", False)):
        game = make_game(units, rules=rules, forward_judged_from=option)
        state = activation(game, P, card)
        wheeled, _ = act(game, state, wheel)
        assert (codes(game, wheeled, Shoot(unit="f", target="e")) == []) is wide_ok
        turned, _ = act(game, state, narrow)
        assert codes(game, turned, Shoot(unit="f", target="e")) == []


# --- Towns ------------------------------------------------------------------------------------

BIG_TOWN = {"type": "town", "polygon": [[20, 14], [40, 14], [40, 26], [20, 26]]}


def test_a_town_garrison_may_be_assaulted() -> None:
    """d3-cards Terrain Effects: "Only one unit may occupy a town." A unit occupies a town
    when its centre stands in it; no other unit may end a move occupying it, but a charge
    into contact with the garrison is an assault, not an occupation, whether the charger
    ends at the town's edge or inside it. A unit whose centre stays outside does not
    occupy the town."""
    game = cards_game([foot("f", P, 30, 13.5), foot("g", P, 24, 10), foot("e", R, 30, 22, 180)],
                      terrain=[BIG_TOWN])
    state = activation(game, P, "foot")
    assert codes(game, state, Move(unit="f", waypoints=((30, 18.99),))) == []
    assert codes(game, state, Move(unit="f", waypoints=((30, 18.5),))) == ["d3.TOWN_OCCUPIED"]
    assert codes(game, state, Move(unit="g", waypoints=((24, 15),))) == ["d3.TOWN_OCCUPIED"]
    assert codes(game, state, Move(unit="g", waypoints=((24, 13.5),))) == []
    edge = cards_game([foot("f", P, 30, 8), foot("e", R, 30, 15.6, 180)], terrain=[BIG_TOWN])
    assert codes(edge, activation(edge, P, "foot"), Move(unit="f", waypoints=((30, 12.59),))) == []
    friends = cards_game([foot("f", P, 30, 13.5), foot("k", P, 30, 22)], terrain=[BIG_TOWN])
    assert codes(friends, activation(friends, P, "foot"), Move(unit="f", waypoints=((30, 18.99),))) == [
        "d3.TOWN_OCCUPIED"]


def test_assaulting_a_town_is_d3_less_two_against_foot() -> None:
    """d3-cards Melee 2 and Terrain Effects: Foot assaulting Foot in a town roll a D3, -1
    for a target of Infantry and -1 for the town's cover: of the faces 1,1,2,2,3,3 only the
    two 3s score, so one hit with chance 1/3 and none with 2/3."""
    game = cards_game([foot("f", P, 30, 13.5), foot("e", R, 30, 22, 180)], terrain=[BIG_TOWN])
    state = activation(game, P, "foot")
    charge = Move(unit="f", waypoints=((30, 18.99),))  # the charge fights at once
    result = odds(game, state, charge)
    assert dict(result.summary["target_hits_exact"]) == {"0": Fraction(2, 3), "1": Fraction(1, 3)}
    _, events = act(game, state, charge, [3])
    assert list(resolved(events).modifiers) == ["-1 target is Infantry", "-1 target in town"]


# --- One attacker a defender ------------------------------------------------------------------


def to_card(state: GameState, side: str, card: str) -> GameState:
    """The same position with ``side``'s ``card`` in play and nothing done yet."""
    played = {"side": side, "card": card}
    return state.evolve(active=side, marks={}).with_values({"activation": played})


def test_a_unit_that_charged_may_itself_be_charged() -> None:
    """d3-cards Movement: "Only one attacking unit may engage any given defending unit." A
    unit that charged is the attacker in its melee, not a defender: one enemy may still
    charge it, and then it defends, so a second may not. The unit it charged stays a
    defender. When the one charged charges back, the roles turn round. Units found in
    contact with no charge between them both count as defending."""
    units = [horse("a", P, 30, 5), horse("b", P, 45, 20, 270), foot("e", R, 30, 20, 180),
             foot("c", R, 38, 15.5, 270), foot("d", R, 22, 15.5, 90)]
    game = cards_game(units)
    # Each charge fights at once: a D3 of 1 (less 1 against Foot) leaves every unit whole.
    charged, _ = act(game, activation(game, P, "horse"), Move(unit="a", waypoints=((30, 16.99),)), [1])
    assert codes(game, charged, Move(unit="b", waypoints=((33.51, 20),))) == ["d3.FACE_TAKEN"]
    answer = to_card(charged, R, "foot")
    assert codes(game, answer, Move(unit="c", waypoints=((33.51, 15.5),))) == []
    second, _ = act(game, answer, Move(unit="c", waypoints=((33.51, 15.5),)), [1])
    assert codes(game, second, Move(unit="d", waypoints=((26.49, 15.5),))) == ["d3.FACE_TAKEN"]
    back, _ = act(game, answer, Move(unit="e", waypoints=((30, 23),)))
    again, _ = act(game, to_card(back, R, "foot"), Move(unit="e", waypoints=((30, 20),)), [1])
    assert codes(game, again, Move(unit="c", waypoints=((33.51, 15.5),))) == ["d3.FACE_TAKEN"]
    placed = cards_game([horse("a", P, 30, 16.99), *units[1:]])
    state = activation(placed, R, "foot")
    assert codes(placed, state, Move(unit="c", waypoints=((33.51, 15.5),))) == ["d3.FACE_TAKEN"]


# --- Scenarios checked against each rule set ---------------------------------------------------

WOOD = {"type": "woods", "polygon": [[10, 10], [20, 10], [20, 20], [10, 20]]}
TOWN = {"type": "town", "polygon": [[30, 10], [40, 10], [40, 20], [30, 20]]}
MARSH = {"type": "marsh", "polygon": [[50, 10], [60, 10], [60, 20], [50, 20]]}
LAKE = {"type": "lake", "polygon": [[50, 30], [60, 30], [60, 40], [50, 40]]}
RIVER = {"type": "river", "line": [[0, 27], [40, 27]], "width": 1.0}
FORD = {"type": "ford", "polygon": [[30, 25], [36, 25], [36, 29], [30, 29]]}
GROUND = [WOOD, TOWN, MARSH, LAKE, RIVER, FORD]


def terrain_problems(rules: str, units: list[dict[str, Any]], **kw: Any) -> dict[str, str]:
    """The scenario's problems about where its pieces stand, by field path."""
    game = make_game(units, rules=rules, terrain=GROUND, **kw)
    return {path: message for path, message in game.ruleset.scenario_problems(game.scenario)
            if "Terrain Effects" in message or "at once" in message}


@pytest.mark.parametrize("rules", [CARDS, COMMANDS])
def test_scenarios_deploy_units_only_where_they_may_stand(rules: str) -> None:
    """Terrain Effects of both texts, checked on a scenario's deployment (`tertia validate
    --rules`, and whenever a scenario is loaded for the rule set): only Commanded Shot in
    woods; only Infantry, Dragoons and Commanded Shot in a town; nothing in a marsh, a lake
    or a river away from its fords. One line names the unit and the reason. The commander
    may stand in a town in d3-commands (its deployment procedure allows it; he never moves)
    but not in d3-cards, where he may not end a move in one."""
    shot = {**unit("s", P, "commanded_shot", 15, 15), "command": "independent"}
    allowed = [shot, foot("f", P, 35, 15), foot("w", P, 33, 27), foot("e", R, 30, 45, 180)]
    assert terrain_problems(rules, allowed) == {}
    clause = "D3 (earlier)" if rules == CARDS else "D3 (2022)"
    barred = [foot("f", P, 15, 15), horse("h", P, 35, 15), foot("m", P, 55, 15), foot("l", P, 55, 35),
              foot("r", P, 10, 27), foot("e", R, 30, 45, 180)]
    assert terrain_problems(rules, barred) == {
        "units[0] 'f'": f"foot deployed in woods: only Commanded Shot may enter woods ({clause}: "
                        f"Terrain Effects, woods)",
        "units[1] 'h'": f"horse deployed in town: only Infantry, Dragoons and Commanded Shot may "
                        f"stand in a town ({clause}: Terrain Effects, towns)",
        "units[2] 'm'": f"foot deployed in marsh: marsh is impassable to all units ({clause}: "
                        f"Terrain Effects, marsh and lakes)",
        "units[3] 'l'": f"foot deployed in lake: lakes are impassable to all units ({clause}: "
                        f"Terrain Effects, marsh and lakes)",
        "units[4] 'r'": f"foot deployed in river: a river is impassable except at bridges and fords "
                        f"({clause}: Terrain Effects, rivers)",
    }
    chief = [commander("c", P, 38.5, 11.5, general=True)]
    in_town = terrain_problems(rules, allowed, commanders=chief)
    if rules == CARDS:
        assert in_town == {"commanders[0] 'c'": "the commander deployed in town: only Infantry, Dragoons "
                                                "and Commanded Shot may stand in a town (D3 (earlier): "
                                                "Terrain Effects, towns)"}
    else:
        assert in_town == {}


def test_pieces_placed_by_the_deployment_procedure_are_not_checked_where_the_file_puts_them() -> None:
    """d3-commands' deployment procedure places every piece in play (and judges the ground
    then), so the positions the file gives are not deployments."""
    woods = [foot("f", P, 15, 15), foot("e", R, 30, 45, 180)]
    assert terrain_problems(COMMANDS, woods, deployment="procedure") == {}
    assert list(terrain_problems(COMMANDS, woods)) == ["units[0] 'f'"]


def test_d3_cards_scenarios_one_unit_a_town_and_no_gun_or_commander_in_contact() -> None:
    """d3-cards, checked on a scenario: "Only one unit may occupy a town" (two centres in
    one town); "Artillery units and commanders are immediately eliminated if engaged in
    melee", so neither may be deployed touching an enemy unit. d3-commands has neither
    rule."""
    units = [foot("f", P, 33, 15), foot("g", P, 37.5, 15), foot("k", P, 43, 15),
             unit("a", P, "artillery", 10, 40), foot("e", R, 10, 43.01, 180), foot("x", R, 20, 43.01, 180)]
    chief = [commander("c", P, 20, 40.51, general=True)]
    game = make_game(units, rules=CARDS, terrain=[TOWN], commanders=chief)
    assert game.ruleset.scenario_problems(game.scenario) == [
        ("units[1] 'g'", "deployed in the town 'f' occupies: only one unit may occupy a town "
                         "(D3 (earlier): Terrain Effects, towns)"),
        ("commanders[0] 'c'", "the commander is deployed in contact with the enemy unit 'x' and would "
                              "be removed from play at once (D3 (earlier): Commanders)"),
        ("units[3] 'a'", "artillery deployed in contact with the enemy unit 'e' would be eliminated "
                         "at once (D3 (earlier): Melee, artillery and commanders engaged)"),
    ]
    apart = [foot("f", P, 33, 15), foot("k", P, 43, 15), unit("a", P, "artillery", 10, 40),
             foot("e", R, 10, 43.2, 180), foot("x", R, 20, 43.2, 180)]
    spaced = make_game(apart, rules=CARDS, terrain=[TOWN], commanders=chief)
    assert spaced.ruleset.scenario_problems(spaced.scenario) == []
    commands = make_game([{**u, "command": "independent"} if u["type"] == "artillery" else u for u in units],
                         rules=COMMANDS, terrain=[TOWN], commanders=chief)
    assert [m for _, m in commands.ruleset.scenario_problems(commands.scenario)
            if "town" in m or "at once" in m] == []


def test_validate_reports_where_the_rule_set_forbids_a_unit(tmp_path: Path) -> None:
    """`tertia validate FILE --rules ID` and loading a scenario for a rule set run its
    checks: a scenario that puts Horse in a town fails under d3-cards, one line naming the
    unit and the reason, and passes without a rule set."""
    path = tmp_path / "town.toml"
    path.write_text(TOWN_SCENARIO, encoding="utf-8")
    assert check_scenario(path) == []
    found = [str(p) for p in check_scenario(path, rules_id=CARDS)]
    assert found == [f"{path}: units[0] 'h': horse deployed in town: only Infantry, Dragoons and "
                     f"Commanded Shot may stand in a town (D3 (earlier): Terrain Effects, towns)"]
    with pytest.raises(ScenarioError):
        resolve_scenario(path, rules_id=CARDS)
    result = CliRunner().invoke(app, ["validate", str(path), "--rules", CARDS])
    assert result.exit_code != 0 and "units[0] 'h': horse deployed in town" in result.output


TOWN_SCENARIO = """
name = "Horse in a town"
turns = 4
[table]
width = 48
depth = 48
[[sides]]
id = "parliament"
edge = "south"
[[sides]]
id = "royalist"
edge = "north"
[[units]]
id = "h"
side = "parliament"
type = "horse"
command = "right"
x = 24
y = 10
[[units]]
id = "e"
side = "royalist"
type = "foot"
command = "centre"
x = 24
y = 40
facing = 180
[[terrain]]
type = "town"
polygon = [[20, 6], [28, 6], [28, 14], [20, 14]]
"""


# --- d3-cards rows whose tests did not test their clause --------------------------------------


def test_d3_cards_battles_have_6_to_8_units_a_side() -> None:
    """d3-cards Introduction: "The rules are geared towards games using 6-8 units per
    side." A description, not a rule: every built-in scenario written for d3-cards fields
    six to eight troop units a side (commanders apart) under it; Edgehill, whose other rule
    sets field three times as many, has an order of battle of its own for d3-cards."""
    written = [sc for sc in list_builtin() if CARDS in sc.rules]
    assert [sc.name for sc in written] == ["chalgrove", "edgehill"]
    for sc in written:
        scenario = load_builtin(sc.name, rules_id=CARDS)
        for side in scenario.side_ids:
            assert 6 <= sum(1 for u in scenario.units if u.side == side) <= 8, (sc.name, side)


def gun_game(**options: Any) -> Game:
    return cards_game([unit("g", P, "artillery", 30, 5), foot("e", R, 30, 28, 180)], **options)


def test_a_gun_moves_6_inches_until_it_has_fired() -> None:
    """d3-cards Movement: "Artillery - 6" and cannot move once deployed for shooting."
    A gun moves up to 6" (not 6.1") activation after activation until its first shot; from
    then on it cannot move. Read "deployed for shooting" as having fired."""
    game = gun_game()
    state = activation(game, P, "artillery")
    assert codes(game, state, Move(unit="g", waypoints=((30, 11.1),))) == ["movement.TOO_FAR"]
    moved, _ = act(game, state, Move(unit="g", waypoints=((30, 11),)))
    again = to_card(moved, P, "artillery")
    assert codes(game, again, Move(unit="g", waypoints=((30, 17),))) == []
    fired, _ = act(game, again, Shoot(unit="g", target="e"), [1, 1])
    assert piece(fired.units["g"]).fired
    assert codes(game, to_card(fired, P, "artillery"), Move(unit="g", waypoints=((30, 12),))) == [
        "movement.STATIONARY"]


def test_a_gun_that_has_fired_stays_in_place_but_may_turn() -> None:
    """d3-cards Units: "Once in position and firing the guns must stay in place and make no
    further moves." After its first shot, in this turn or any later one, a gun never slides
    again; it may still pivot on the spot to lay on a new target. A gun that has not fired
    may move."""
    game = gun_game()
    state = activation(game, P, "artillery")
    assert codes(game, state, Move(unit="g", waypoints=((31, 5),), face_before=90)) == []
    fired, _ = act(game, state, Shoot(unit="g", target="e"), [4, 1])
    later = to_card(fired.evolve(turn=fired.turn + 2), P, "artillery")
    assert codes(game, later, Move(unit="g", waypoints=((30, 6),))) == ["movement.STATIONARY"]
    assert codes(game, later, Move(unit="g", waypoints=((31, 5),), face_before=90)) == ["movement.STATIONARY"]
    assert codes(game, later, Move(unit="g", face_before=20)) == []


ENTRENCHMENT = {"type": "entrenchment", "polygon": [[26, 14], [34, 14], [34, 22], [26, 22]]}
BUILDINGS = {"type": "town", "polygon": [[26, 14], [34, 14], [34, 22], [26, 22]]}


@pytest.mark.parametrize(("ground", "target_y", "hits", "mods"), [
    ([], 18, 3, []), ([BUILDINGS], 18, 2, ["-1 target in cover (town)"]),
    ([ENTRENCHMENT], 18, 2, ["-1 target in cover (entrenchment)"]),
    ([BUILDINGS, ENTRENCHMENT], 18, 2, ["-1 target in cover (town)"]),
    ([BUILDINGS], 13, 3, []), ([ENTRENCHMENT], 13, 3, [])])
def test_cover_against_muskets_is_entrenchments_or_buildings(
    ground: list[dict[str, Any]], target_y: float, hits: int, mods: list[str]
) -> None:
    """d3-cards Musketry 3: "Cover. Subtract 1 if target in cover (entrenchments or
    buildings)." A D3 of 3 scores 3 on a target in the open, 2 on one in a town (buildings)
    or in an entrenchment, still 2 with both (one -1), and 3 on a target whose centre is
    outside them though its base reaches in."""
    game = cards_game([foot("u", P, 30, 3), horse("e", R, 30, target_y, 180)], terrain=ground)
    after, events = act(game, activation(game, P, "foot"), Shoot(unit="u", target="e"), [3, 1])
    assert piece(after.units["e"]).hits == hits and list(resolved(events).modifiers) == mods


def test_a_volley_at_buildings_is_d3_less_one() -> None:
    """d3-cards Musketry 3, exact odds: against a target in buildings the D3 (1,1,2,2,3,3)
    less one scores 0, 1 or 2 hits, each with chance 1/3."""
    game = cards_game([foot("u", P, 30, 3), horse("e", R, 30, 18, 180)], terrain=[BUILDINGS])
    result = odds(game, activation(game, P, "foot"), Shoot(unit="u", target="e"))
    third = Fraction(1, 3)
    assert dict(result.summary["target_hits_exact"]) == {"0": third, "1": third, "2": third}


@pytest.mark.parametrize(("weather", "roll", "marker"), [
    ("fair", 5, True), ("fair", 6, True), ("fair", 4, False), ("light-rain", 4, True),
    ("light-rain", 3, False), ("heavy-rain", 3, True), ("heavy-rain", 2, False)])
def test_guns_collect_shortage_markers_too(weather: str, roll: int, marker: bool) -> None:
    """d3-cards Artillery: "Ammunition shortage - Whenever a unit shoots roll a D6, on a 5-6
    their ammunition supply is reduced, add an ammunition shortage marker. A unit can
    accumulate multiple ammunition shortage markers." Weather: 4-6 in light rain, 3-6 in
    heavy rain (in a storm guns do not shoot)."""
    game = gun_game()
    state = activation(game, P, "artillery", weather=weather)
    state = state.with_unit(state.units["g"].evolve(ammo_markers=1))
    fired, events = act(game, state, Shoot(unit="g", target="e"), [6, roll])
    assert piece(fired.units["g"]).ammo_markers == (2 if marker else 1)
    assert rolls(events) == ["artillery range: g at e", "ammunition: g"]


def test_a_gun_collects_a_marker_one_time_in_three() -> None:
    """d3-cards Artillery, exact odds: a gun adds a shortage marker on a D6 of 5 or 6,
    chance 1/3 in fair weather, 1/2 in light rain; with one marker already its range is a
    pip shorter, so a target 20" off (4 pips needed) is hit on 5-6 instead of 4-6."""
    for weather, chance in (("fair", Fraction(1, 3)), ("light-rain", Fraction(1, 2))):
        game = gun_game()
        result = odds(game, activation(game, P, "artillery", weather=weather), Shoot(unit="g", target="e"))
        assert result.summary["ammunition_exhausted_exact"] == chance
    game = gun_game()
    state = activation(game, P, "artillery")
    fresh = odds(game, state, Shoot(unit="g", target="e")).summary["target_hits_exact"]
    marked = state.with_unit(state.units["g"].evolve(ammo_markers=1))
    short = odds(game, marked, Shoot(unit="g", target="e")).summary["target_hits_exact"]
    assert dict(fresh)["1"] == Fraction(1, 2) and dict(short)["1"] == Fraction(1, 3)


@pytest.mark.parametrize(("options", "value", "allowed"), [
    ({}, 1, 4), ({"rallies": 3}, 1, 3), ({"rallies": 5}, 1, 5), ({"rallies_by_value": True}, 2, 5),
    ({"rallies_by_value": True}, 0, 3), ({"rallies_by_value": True}, 1, 4)])
def test_every_rally_attempt_counts_towards_the_four(options: dict[str, Any], value: int,
                                                     allowed: int) -> None:
    """d3-cards Commanders: "Commanders can only attempt 4 rallies during a game. An optional
    rule is to allow inspirational commanders and maximum of 5 rallies and poor commanders
    3 rallies." Played out over the Commander cards of a game: every attempt counts, even
    one that removes nothing (a D3 of 1 less 1 for a unit in melee), and the attempt after
    the last allowed is refused."""
    chief = [{**commander("c", P, 30, 7.51, general=True), "value": value}]
    game = cards_game([foot("f", P, 30, 10), foot("e", R, 30, 13, 180)], commanders=chief, **options)
    state = activation(game, P, "commander")
    state = state.with_unit(state.units["f"].evolve(hits=8))
    for attempt in range(allowed):
        state = to_card(state.evolve(turn=1 + attempt), P, "commander")
        assert codes(game, state, Rally(commander="c", unit="f")) == [], attempt
        state, _ = act(game, state, Rally(commander="c", unit="f"), [1])
    assert piece(state.units["f"]).hits == 8
    last = to_card(state.evolve(turn=allowed + 1), P, "commander")
    assert codes(game, last, Rally(commander="c", unit="f")) == ["d3.NO_RALLIES_LEFT"]
