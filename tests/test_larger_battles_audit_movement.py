"""larger-battles: the shape of a move, commanders retiring, scenario ground, odds on a
record mid-turn, and clauses whose earlier tests did not test them (rows 2, 13, 34, 44,
54 and 88 of docs/rulesets/larger-battles.md)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tertia.ai.doctrine import DoctrinePlayer
from tertia.battle import BattleRecord, Step, dice_seed, fight_battle
from tertia.cli.main import app
from tertia.core.actions import Action, EndPhase, Move
from tertia.core.dice import SeededDice
from tertia.core.events import UnitMoved
from tertia.core.game import Game
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.core.violations import CoreCode, IllegalAction
from tertia.io.record import save_record
from tertia.io.scenario_file import semantic_problems
from tertia.rules.fighting import Attack
from tertia.rules.movement import plan_move
from tertia.rulesets import get_ruleset
from tertia.rulesets.larger_battles import clauses
from tertia.rulesets.larger_battles.actions import Bombard, DeclareAttacks
from tertia.rulesets.larger_battles.movement import allowance, off_road_allowance
from tertia.scenarios import load_builtin, resolve_scenario

from .support import P, R, act, codes, commander, make_game, position, unit

FAR_ENEMY = unit("far", R, "foot", 60, 45, 180)
ODDS_FILE = "tests/scenarios/odds.toml"
runner = CliRunner()


def rules_of(game: Game, state: GameState, action: Action) -> list[str]:
    return [v.rule for v in game.validate(state, action)]


def along(x: float, y: float, heading: float, distance: float) -> tuple[float, float]:
    """The point ``distance`` inches from (x, y) on a bearing (degrees clockwise from north)."""
    a = math.radians(heading)
    return (x + distance * math.sin(a), y + distance * math.cos(a))


# --- Turning: a bent path (row 40) --------------------------------------------------------


def test_a_path_that_changes_direction_part_way_is_turning() -> None:
    """Turning: units pivot "at the start and/or end of their move. All movement is
    limited to 3" when turning." A path that changes direction part-way by more than a
    degree has turned in the middle: it is held to 3". A straight path through waypoints,
    or one bending by a degree or less, keeps the full 12"."""
    game = make_game([unit("h", P, "horse", 30, 5, command="right"), FAR_ENEMY])
    state = position(game, orders=(("h", "move"),))
    assert not codes(game, state, Move(unit="h", waypoints=((30, 8), (30, 17))))  # 12", straight
    slight = Move(unit="h", waypoints=((30, 7), along(30, 7, 0.9, 2)))
    bent = Move(unit="h", waypoints=((30, 7), along(30, 7, 1.1, 2)))
    assert not codes(game, state, slight)  # 4": a 0.9-degree bend is no turn
    assert codes(game, state, bent) == ["movement.TOO_FAR"]  # 4": a 1.1-degree bend is
    assert rules_of(game, state, bent) == [clauses.TURNING]
    assert not codes(game, state, Move(unit="h", waypoints=((30, 7), (31, 7))))  # 3" with a bend
    assert codes(game, state, Move(unit="h", waypoints=((30, 7), (31.5, 7)))) == ["movement.TOO_FAR"]


def test_a_bent_path_along_a_road_follows_the_road() -> None:
    """Turning and Roads: a move along a road follows the road, so its bends are not
    turning, and the road's +3" applies. The same bent path off the road is turning; a
    pivot is turning on the road too."""
    road = {"type": "road", "line": [[30, 0], [30, 8], [34, 12], [34, 48]], "width": 3}
    game = make_game([unit("f", P, "foot", 30, 4), unit("g", P, "foot", 50, 4, command="left"),
                      FAR_ENEMY], terrain=[road])
    state = position(game, orders=((f"{P}:centre", "move"), (f"{P}:left", "move")))
    assert not codes(game, state, Move(unit="f", waypoints=((30, 8), (33, 11))))  # 8.24" on the road
    assert codes(game, state, Move(unit="g", waypoints=((50, 8), (51, 9)))) == ["movement.TOO_FAR"]  # 5.41"
    assert not codes(game, state, Move(unit="g", waypoints=((50, 9.4),)))  # 5.4" straight
    assert codes(game, state, Move(unit="f", waypoints=((30, 8), (31, 9)), face_after=45)) \
        == ["movement.TOO_FAR"]


@pytest.mark.parametrize("rule", ["free", "forward-arc-only"])
def test_sideways_and_backward_slides_are_an_option(rule: str) -> None:
    """The text is silent on sliding sideways or backwards. ``slide = free`` (default)
    allows any direction; ``forward-arc-only`` allows a slide within 45 degrees of the
    unit's front, so a unit wanting to go elsewhere pivots first (and turning limits it
    to 3")."""
    game = make_game([unit("h", P, "horse", 30, 5, command="right"), FAR_ENEMY], slide=rule)
    state = position(game, orders=(("h", "move"),))
    strict = rule == "forward-arc-only"
    assert not codes(game, state, Move(unit="h", waypoints=((30, 17),)))
    assert not codes(game, state, Move(unit="h", waypoints=(along(30, 5, 45, 8),)))
    sideways = ["movement.MOVED_SIDEWAYS"] if strict else []
    assert codes(game, state, Move(unit="h", waypoints=(along(30, 5, 46, 8),))) == sideways
    assert codes(game, state, Move(unit="h", waypoints=((42, 5),))) == sideways
    assert codes(game, state, Move(unit="h", waypoints=((30, 3),))) == sideways
    assert not codes(game, state, Move(unit="h", waypoints=((33, 5),), face_before=90))


def test_the_doctrine_player_moves_legally_when_slides_keep_to_the_front() -> None:
    """The doctrine player proposes only what ``validate`` accepts, whichever way
    ``slide`` is set: a whole battle runs to its end without an illegal action."""
    game = Game(get_ruleset("larger-battles", slide="forward-arc-only"),
                load_builtin("skirmish", rules_id="larger-battles"))
    record = fight_battle(game, {P: DoctrinePlayer(), R: DoctrinePlayer()}, 1)
    assert record.final_state.is_over


# --- Commander Attacks (rows 88 and 89) ---------------------------------------------------


def contact(extra_units: list[dict[str, Any]] = (), *, terrain: list[dict[str, Any]] = (),  # type: ignore[assignment]
            k_at: tuple[float, float] = (30, 27)) -> tuple[Game, GameState, Move]:
    """Parliament's horse moves into contact with royalist commander k (whose edge is the
    north one) from the south."""
    kx, ky = k_at
    game = make_game([unit("h", P, "horse", kx, ky - 7, command="right"), FAR_ENEMY, *extra_units],
                     commanders=[commander("k", R, kx, ky, command="left")], terrain=terrain)
    state = position(game, orders=(("h", "move"),))
    return game, state, Move(unit="h", waypoints=((kx, ky - 2),))


def retreat_path(events: list[Any]) -> tuple[tuple[float, float], ...]:
    return next(e.path for e in events if isinstance(e, UnitMoved) and e.unit == "k")


def test_a_contacted_commander_retires_12_inches_along_a_clear_way() -> None:
    """Commander Attacks: "the commander must immediately retire 12"". He goes 12" in a
    straight line towards his own edge, along a way a commander could take: with a friendly
    unit straight behind him, he retires at the first angle (in 5-degree steps, up to 45
    off straight back) that passes it. Then the misfortune test."""
    game, state, move = contact()
    after, events = act(game, state, move, [4])
    assert retreat_path(events) == ((30, 27), pytest.approx((30, 39)))

    game, state, move = contact([unit("b", R, "foot", 30, 36, 180)])
    after, events = act(game, state, move, [4])
    start, end = retreat_path(events)
    assert math.hypot(end[0] - start[0], end[1] - start[1]) == pytest.approx(12)
    # Straight back to 20 degrees off it runs into the foot; 25 degrees east clears it.
    assert end == pytest.approx(along(30, 27, 25, 12))
    assert (after.units["k"].x, after.units["k"].y) == pytest.approx(end)


def test_woods_or_a_river_in_the_way_leave_the_commander_nowhere_to_go() -> None:
    """Commander Attacks: the way back must be one a commander could move along: no woods,
    marsh or lakes, and a river only at a ford or bridge. A band of woods or a river without
    a crossing behind him means he is lost, even though the ground 12" back is clear; a ford
    on his way lets him through."""
    woods = {"type": "woods", "polygon": [[0, 31], [72, 31], [72, 35], [0, 35]]}
    game, state, move = contact(terrain=[woods])
    after, events = act(game, state, move)
    assert after.units["k"].removed == "captured"

    river = {"type": "river", "line": [[0, 33], [72, 33]], "width": 2}
    game, state, move = contact(terrain=[river])
    after, _ = act(game, state, move)
    assert after.units["k"].removed == "captured"

    ford = {"type": "ford", "polygon": [[27, 31], [33, 31], [33, 35], [27, 35]]}
    game, state, move = contact(terrain=[river, ford])
    after, events = act(game, state, move, [4])
    assert retreat_path(events)[-1] == pytest.approx((30, 39))


def test_the_3_inch_stop_does_not_hold_a_retiring_commander() -> None:
    """Commander Attacks: the retreat passes within 3" of an enemy unit (1.5" from the
    parliament foot beside his way) without stopping."""
    game, state, move = contact([unit("p2", P, "foot", 34.5, 33, command="left")])
    _, events = act(game, state, move, [4])
    assert retreat_path(events)[-1] == pytest.approx((30, 39))


def test_a_commander_near_his_edge_retires_aslant_or_is_lost() -> None:
    """Commander Attacks: 12" straight back from 10" short of his edge would leave the
    table, and so would 40 degrees off it; 45 degrees stays on (8.5" nearer the edge).
    From 3" short of it no angle fits: he is lost."""
    game, state, move = contact(k_at=(30, 38))
    _, events = act(game, state, move, [4])
    assert retreat_path(events)[-1] == pytest.approx(along(30, 38, 45, 12))
    game, state, move = contact(k_at=(30, 45))
    after, _ = act(game, state, move)
    assert after.units["k"].removed == "captured"


def test_only_an_enemy_unit_contacting_him_sends_a_commander_back() -> None:
    """Commander Attacks: "If an enemy unit moves into contact with a commander": an enemy
    commander moving into contact sends nobody back."""
    game = make_game([unit("f", P, "foot", 10, 5), FAR_ENEMY],
                     commanders=[commander("c", P, 30, 20), commander("k", R, 30, 27, command="left")])
    state = position(game, orders=(("c", "move"),))
    after, events = act(game, state, Move(unit="c", waypoints=((30, 25),)))
    assert (after.units["k"].x, after.units["k"].y) == (30, 27)
    assert not [e for e in events if isinstance(e, UnitMoved) and e.unit == "k"]


# --- Scenario ground --------------------------------------------------------------------


def test_units_deployed_on_forbidden_ground_are_scenario_problems() -> None:
    """Terrain 1, 4 and 6: woods, marshland and lakes are impassable, rivers crossed only at
    fords and bridges, so no piece may be deployed there: one problem per piece, naming it
    and the ground. Touching the woods' edge, standing on a ford, in a town or a field is
    allowed."""
    terrain = [
        {"type": "woods", "name": "Battle Wood", "polygon": [[2, 2], [10, 2], [10, 10], [2, 10]]},
        {"type": "marsh", "polygon": [[14, 2], [22, 2], [22, 10], [14, 10]]},
        {"type": "lake", "polygon": [[26, 2], [34, 2], [34, 10], [26, 10]]},
        {"type": "river", "line": [[0, 20], [72, 20]], "width": 2},
        {"type": "ford", "polygon": [[46, 18], [52, 18], [52, 22], [46, 22]]},
        {"type": "town", "polygon": [[56, 2], [66, 2], [66, 10], [56, 10]]},
    ]
    units = [
        unit("w", P, "dragoons", 6, 6), unit("m", P, "dragoons", 18, 6),
        unit("r", P, "dragoons", 30, 20), unit("ford", P, "dragoons", 49, 20),
        unit("edge", P, "dragoons", 6, 11), unit("town", P, "dragoons", 61, 6), FAR_ENEMY,
    ]
    scenario = Scenario.model_validate({
        "name": "ground", "table": {"width": 72, "depth": 48},
        "sides": [{"id": P, "edge": "south"}, {"id": R, "edge": "north"}],
        "commanders": [commander("c", P, 30, 6, command="reserve")],
        "units": units, "terrain": terrain,
    })
    found = [(p.path, p.message) for p in semantic_problems(scenario, rules_id="larger-battles")]
    assert [path for path, _ in found] == [
        "commanders[0] 'c'", "units[0] 'w'", "units[1] 'm'", "units[2] 'r'"]
    messages = dict(found)
    assert "deployed in lake" in messages["commanders[0] 'c'"]
    assert "deployed in woods (Battle Wood)" in messages["units[0] 'w'"]
    assert clauses.WOODS in messages["units[0] 'w'"]
    assert "deployed in marsh" in messages["units[1] 'm'"]
    assert "a river away from a ford or bridge" in messages["units[2] 'r'"]


def test_validate_reports_forbidden_ground_in_one_line(tmp_path: Path) -> None:
    """``tertia validate --rules larger-battles`` prints the problem naming the unit and
    the ground."""
    text = Path(ODDS_FILE).read_text(encoding="utf-8") + (
        '\n[[terrain]]\ntype = "woods"\nname = "Grove"\npolygon = [[32, 1], [38, 1], [38, 7], [32, 7]]\n')
    path = tmp_path / "grove.toml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path), "--rules", "larger-battles"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if "Grove" in line]
    assert len(lines) == 1 and "'p-gun'" in lines[0] and "deployed in woods" in lines[0]


# --- Odds on a record mid-turn ------------------------------------------------------------


def odds_game() -> Game:
    scenario = resolve_scenario(ODDS_FILE, rules_id="larger-battles").model_copy(update={"first": P})
    return Game(get_ruleset("larger-battles"), scenario)


def record_of(game: Game, actions: list[Action], path: Path, seed: int = 1) -> GameState:
    """Play ``actions`` from the start and save the game as a record at ``path``."""
    dice = SeededDice(dice_seed(seed))
    state, start_events = game.start(dice)
    record = BattleRecord(game=game, seed=seed, initial_state=state, start_events=tuple(start_events))
    for action in actions:
        side = state.to_act
        state, events = game.apply(state, action, dice)
        record.steps.append(Step(side=side, action=action, events=tuple(events), state=state))
    record.rolls = list(dice.log)
    save_record(record, path)
    return state


def odds_cli(file: Path | str, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["odds", str(file), *args, "--json"])
    return result.exit_code, result.output


def test_odds_on_a_record_mid_turn_keep_the_turns_marks(tmp_path: Path) -> None:
    """``tertia odds`` on a record answers what the game would allow: mid-way through a
    side's combat phase, a unit that has fought may not fight again, an attack that was not
    declared with the phase's others may not be made, and the declared attack still to
    fight may be asked about; once the turn has passed, the side's next player turn starts
    afresh."""
    game = odds_game()
    declared = DeclareAttacks(attacks=(Attack(attacker="p-foot", target="r-foot", commander="p-cmd"),
                                       Attack(attacker="p-horse", target="r-horse-2")))
    fought = [EndPhase(), EndPhase(), declared, Attack(attacker="p-foot", target="r-foot")]
    mid = tmp_path / "mid.json"
    state = record_of(game, fought, mid)
    assert state.phase == "combat" and state.units["p-cmd"].in_play
    attack = ("--attacker", "p-foot", "--target", "r-foot")
    code, output = odds_cli(mid, *attack)
    assert code == 1 and "is not among those left to fight" in output
    code, output = odds_cli(mid, "--attacker", "p-support", "--target", "r-foot")
    assert code == 1 and "is not among those left to fight" in output
    code, output = odds_cli(mid, "--attacker", "p-horse", "--target", "r-horse-2")
    assert code == 0, output
    assert odds_cli(ODDS_FILE, *attack)[0] == 0

    passed = tmp_path / "passed.json"
    record_of(game, [*fought, Attack(attacker="p-horse", target="r-horse-2"), EndPhase()], passed)
    code, output = odds_cli(passed, *attack, "--commander", "p-cmd")
    assert code == 0, output
    assert "+1 commander" in " ".join(json.loads(output)["modifiers"])


def test_bombardment_odds_mid_turn_keep_the_orders_and_the_guns_that_fired() -> None:
    """A gun that has bombarded this player turn may not again; a gun not yet ordered is
    ordered for the question only while its side has an order left."""
    game = odds_game()
    state = position(game, phase="bombardment")
    ready, action = game.ruleset.query(state, "bombard", "p-gun", "r-horse")
    assert isinstance(action, Bombard) and not game.validate(ready, action)
    fired = state.evolve(marks={"bombarded": ("p-gun",), "ordered_bombard": ("p-gun",), "orders": ("p-gun",)})
    ready, action = game.ruleset.query(fired, "bombard", "p-gun", "r-horse")
    assert codes(game, ready, action) == ["core.ALREADY_ACTED"]
    spent = position(game, orders=((f"{P}:centre", "move"), (f"{P}:right", "move")))
    ready, action = game.ruleset.query(spent, "bombard", "p-gun", "r-horse")
    assert codes(game, ready, action) == ["larger-battles.NOT_ORDERED"]
    one_left = position(game, orders=((f"{P}:centre", "move"),))
    ready, action = game.ruleset.query(one_left, "bombard", "p-gun", "r-horse")
    assert not game.validate(ready, action)
    later = fired.evolve(phase="combat")  # this turn's bombardment is past: the next turn's
    ready, action = game.ruleset.query(later, "bombard", "p-gun", "r-horse")
    assert not game.validate(ready, action)
    theirs = spent.evolve(active=R)
    ready, action = game.ruleset.query(theirs, "bombard", "p-gun", "r-horse")
    assert not game.validate(ready, action)


def test_odds_wait_for_a_decision_the_game_waits_for() -> None:
    """While the defender's commander is still to answer an attack, the game allows no
    other attack: neither does the odds question (in the attacker's turn). In the other
    side's turn the question is about the attacker's next turn, and is answered."""
    game = make_game([unit("a", P, "foot", 30, 10), unit("b", P, "foot", 40, 10),
                      unit("e", R, "foot", 30, 15, 180), unit("f", R, "foot", 40, 15, 180)],
                     commanders=[commander("k", R, 35, 18)])
    state, _ = act(game, position(game, phase="combat"), Attack(attacker="a", target="e"))
    assert state.pending is not None
    with pytest.raises(IllegalAction) as refused:
        game.ruleset.query(state, "melee", "b", "f")
    assert refused.value.violations[0].code is CoreCode.PENDING_DECISION
    ready, action = game.ruleset.query(state.evolve(active=R), "melee", "b", "f")
    assert not game.validate(ready, action)


# --- Row 2: army size --------------------------------------------------------------------


@pytest.mark.parametrize("size", [1, 11, 12, 18, 19])
def test_any_army_size_is_accepted(size: int) -> None:
    """Units: "an armies will have between 12 and 18 units" describes the author's games:
    armies smaller or larger raise no scenario problem, and the battle starts."""
    ours = [unit(f"p{i}", P, "dragoons", 4 + 5 * (i % 10), 5 + 4 * (i // 10)) for i in range(size)]
    theirs = [unit(f"r{i}", R, "dragoons", 4 + 5 * (i % 10), 43 - 4 * (i // 10), 180)
              for i in range(size)]
    game = make_game([*ours, *theirs])
    assert semantic_problems(game.scenario, rules_id="larger-battles") == []
    state, _ = game.start(SeededDice(1))
    assert state.phase == "movement" and len(list(state.iter_troops(P))) == size


# --- Row 13: the turn limit --------------------------------------------------------------


def test_the_battle_ends_after_the_twelfth_turn_not_before() -> None:
    """How to Win: "A battle ends, normally after a set number of turns, typically 12
    turns." With no length given the battle plays 12 turns: it ends when the second side's
    twelfth player turn ends, not after the eleventh, nor after the first side's twelfth."""
    scenario = Scenario.model_validate({
        "name": "no length", "table": {"width": 72, "depth": 48},
        "sides": [{"id": P, "edge": "south"}, {"id": R, "edge": "north"}],
        "units": [unit("p", P, "foot", 10, 5), unit("r", R, "foot", 60, 40, 180)],
    })
    game = Game(get_ruleset("larger-battles"), scenario)
    combat = position(game, phase="combat")
    after, _ = act(game, combat.evolve(turn=11, active=R), EndPhase())
    assert not after.is_over and (after.turn, after.active) == (12, P)
    after, _ = act(game, combat.evolve(turn=12, active=P), EndPhase())
    assert not after.is_over and (after.turn, after.active) == (12, R)
    after, _ = act(game, combat.evolve(turn=12, active=R), EndPhase())
    assert after.is_over and after.result is not None and "turn limit (12)" in after.result["reason"]


# --- Row 34: infantry 6" ------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["foot", "commanded_shot"])
def test_infantry_of_both_kinds_move_6_inches_measured_along_the_path(kind: str) -> None:
    """Movement Allowances: "Infantry 6"", for pike and shot and for commanded shot alike,
    measured along the path of the base's centre: on a bending road (+3") a path of 9.66"
    is refused though it ends only 8.94" from where it began."""
    road = {"type": "road", "line": [[30, 0], [30, 8], [38, 16], [38, 48]], "width": 3}
    game = make_game([unit("i", P, kind, 50, 5), unit("j", P, kind, 30, 4, command="left"), FAR_ENEMY],
                     terrain=[road])
    state = position(game, orders=((f"{P}:centre", "move"), (f"{P}:left", "move")))
    assert not codes(game, state, Move(unit="i", waypoints=((50, 11),)))
    assert codes(game, state, Move(unit="i", waypoints=((50, 11.1),))) == ["movement.TOO_FAR"]
    assert not codes(game, state, Move(unit="j", waypoints=((30, 8), (33.5, 11.5))))  # 8.95"
    assert codes(game, state, Move(unit="j", waypoints=((30, 8), (34, 12)))) == ["movement.TOO_FAR"]


# --- Row 44: the 3" stop ------------------------------------------------------------------


def test_a_slide_may_not_pass_within_3_inches_of_the_enemy_even_to_end_beyond() -> None:
    """Enemy Units: "Units must cease movement upon moving to within 3" of an enemy unit."
    A slide that passes 2.9" from an enemy unit and ends more than 3" from it is refused; at
    3.0" it is allowed. A waypoint at 3" is a stop; at 3.1" it is not. Enemy commanders
    stop nobody; a moving commander stops like any unit."""
    enemy = unit("e", R, "foot", 30, 20, 180)  # y 19-21, x 28-32

    def slide(y: float, *waypoints: tuple[float, float]) -> list[str]:
        game = make_game([unit("a", P, "horse", 25, y, command="right"), enemy, FAR_ENEMY])
        state = position(game, orders=(("a", "move"),))
        return codes(game, state, Move(unit="a", waypoints=waypoints))

    assert slide(15.1, (35, 15.1)) == ["movement.ENEMY_ZONE"]
    assert slide(15.0, (35, 15.0)) == []
    assert slide(15.0, (30, 15.0), (35, 15.0)) == ["movement.ENEMY_ZONE"]
    assert slide(14.9, (30, 14.9), (35, 14.9)) == []

    # Enemy commander k spans y 19-21 over x 49-51; commander c passes 2.4" below e.
    game = make_game([unit("h", P, "horse", 45, 15.1, command="right"), enemy, FAR_ENEMY],
                     commanders=[commander("c", P, 25, 15.6), commander("k", R, 50, 20, command="left")])
    state = position(game, orders=(("h", "move"), ("c", "move")))
    assert not codes(game, state, Move(unit="h", waypoints=((55, 15.1),)))
    assert codes(game, state, Move(unit="c", waypoints=((35, 15.6),))) == ["movement.ENEMY_ZONE"]
    assert not codes(game, state, Move(unit="c", waypoints=((15, 15.6),)))


# --- Row 54: the road bonus ---------------------------------------------------------------


def test_the_road_bonus_needs_the_whole_path_on_the_road() -> None:
    """Roads: "increase their movement distance by 3" if their entire move is spent on the
    road." 9" along the road, not 9.1"; a move that starts on the road and leaves it keeps
    only the 6"."""
    road = {"type": "road", "line": [[30, 0], [30, 48]], "width": 3}
    game = make_game([unit("f", P, "foot", 30, 4), FAR_ENEMY], terrain=[road])
    state = position(game, orders=(("f", "move"),))
    assert not codes(game, state, Move(unit="f", waypoints=((30, 13),)))
    assert codes(game, state, Move(unit="f", waypoints=((30, 13.1),))) == ["movement.TOO_FAR"]
    leaving = Move(unit="f", waypoints=((32.5, 12.5),))  # 8.86", ending 2.5" off the centre line
    assert codes(game, state, leaving) == ["movement.TOO_FAR"]
    assert rules_of(game, state, leaving) == [clauses.MOVE_ALLOWANCE]
    assert not codes(game, state, Move(unit="f", waypoints=(along(30, 4, 16.4, 5.99),)))


def test_no_road_ever_allows_less_so_a_move_within_the_off_road_allowance_needs_no_road_looked_for() -> None:
    """Roads only add (Roads: +3"; a road's bends are no turn), so a move no longer than
    its allowance off the road is within it: validation looks for a road only beyond
    that. Over moves of every troop type, along a road and off it, up and down a hill,
    straight, bent and pivoted: the off-road allowance never exceeds the allowance, and
    is less than it on the road."""
    road = {"type": "road", "line": [[30, 0], [30, 48]], "width": 3}
    hill = {"type": "hill", "polygon": [[40, 10], [60, 10], [60, 30], [40, 30]]}
    kinds = ("foot", "horse", "dragoons", "artillery", "commanded_shot")
    game = make_game([unit(k, P, k, 10 + 6 * i, 4) for i, k in enumerate(kinds)] + [FAR_ENEMY],
                     terrain=[road, hill])
    state = position(game)
    options = game.ruleset.options
    rng = random.Random(7)
    less_off_road = 0
    for _ in range(400):
        u = state.units[rng.choice(kinds)]
        on_road = rng.random() < 0.5
        x, y = (30.0, rng.uniform(4, 40)) if on_road else (rng.uniform(4, 68), rng.uniform(4, 40))
        heading = rng.choice([0.0, 180.0]) if on_road else rng.uniform(0, 360)
        placed = u.evolve(x=x, y=y, facing=heading if on_road else rng.uniform(0, 360))
        first = along(x, y, heading, rng.uniform(0.5, 9.0))
        bend = heading + rng.choice([0.0, 0.5, 20.0])
        waypoints = (first,) if rng.random() < 0.6 else (first, along(*first, bend, rng.uniform(0.5, 5.0)))
        move = Move(unit=u.id, waypoints=waypoints, face_before=rng.choice([None, None, heading]))
        plan = plan_move(placed, move)
        full, _ = allowance(game.table, state.with_unit(placed), plan, options)
        off_road = off_road_allowance(game.table, plan)
        assert off_road <= full
        less_off_road += off_road < full
    assert less_off_road > 20
