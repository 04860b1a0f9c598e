"""Clause-by-clause checks of "ECW Rules for Larger Battles" (larger-battles) that the other
rule tests do not cover: organisation and deployment, supplies, the sequence of play, the
finer points of movement, bombardment, combat, routing and commanders, and the engine's
interpretations where the text is silent. Each docstring quotes the clause it checks; the
clause table in docs/rulesets/larger-battles.md names every test here."""

from __future__ import annotations

from typing import Any

import pytest

from tertia.core.actions import EndPhase, Move
from tertia.core.dice import ScriptedDice
from tertia.core.events import DiceRolled
from tertia.core.game import Game
from tertia.core.narration import possessive
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.io.scenario_file import semantic_problems
from tertia.rules.fighting import Attack, AttackResolved
from tertia.rules.hits import piece
from tertia.rulesets import get_ruleset
from tertia.rulesets.larger_battles.actions import Bombard, DeclareAttacks, Encourage, GiveOrder
from tertia.rulesets.larger_battles.events import supplies_of
from tertia.rulesets.larger_battles.orders import orders_left
from tertia.rulesets.larger_battles.routing import hit_limit
from tertia.rulesets.larger_battles.victory import score_breakdown

from .support import P, R, act, codes, commander, make_game, position, unit

# --- helpers -----------------------------------------------------------------------------


def problems(units: list[dict[str, Any]], **kw: Any) -> list[tuple[str, str]]:
    """The rule set's own scenario problems for a position built like the rule tests'."""
    game = make_game(units, **kw)
    return get_ruleset("larger-battles").scenario_problems(game.scenario)


def messages(found: list[tuple[str, str]]) -> str:
    return "\n".join(m for _, m in found)


def limit(game: Game, state: GameState, uid: str) -> int:
    return hit_limit(game.table, state, state.units[uid], game.ruleset.options).value


def with_hits(state: GameState, uid: str, hits: int) -> GameState:
    return state.with_unit(state.units[uid].evolve(hits=hits))


def lost(state: GameState, uid: str, reason: str = "routed") -> GameState:
    return state.with_unit(state.units[uid].evolve(removed=reason))


def resolved(events: list[Any]) -> AttackResolved:
    return next(e for e in events if isinstance(e, AttackResolved))


def rolls(events: list[Any]) -> list[str]:
    return [e.purpose for e in events if isinstance(e, DiceRolled)]


def duel(a_kind: str, t_kind: str, **options: Any) -> tuple[Game, GameState]:
    """Attacker ``a`` 3" south of target ``t``, face to face, in the combat phase."""
    a_cmd = "right" if a_kind == "horse" else None
    t_cmd = "left" if t_kind == "horse" else None
    game = make_game([unit("a", P, a_kind, 30, 10, command=a_cmd),
                      unit("t", R, t_kind, 30, 15, 180, command=t_cmd)], **options)
    return game, position(game, phase="combat")


FAR_ENEMY = unit("e", R, "foot", 60, 45, 180)

# --- Units ------------------------------------------------------------------------------


def test_base_frontages_4_troops_3_artillery_2_commanders() -> None:
    """Units: "Units are based with frontages of 4 inches for troops, 3 inches for
    artillery, and 2 inches for individual commanders." """
    game = make_game(
        [unit("f", P, "foot", 10, 5), unit("h", P, "horse", 20, 5, command="right"),
         unit("d", P, "dragoons", 30, 5), unit("s", P, "commanded_shot", 40, 5),
         unit("g", P, "artillery", 50, 5), FAR_ENEMY],
        commanders=[commander("c", P, 60, 5)],
    )
    units = game.ruleset.initial_state(game.scenario).units
    assert {uid: units[uid].width for uid in ("f", "h", "d", "s", "g", "c")} == {
        "f": 4.0, "h": 4.0, "d": 4.0, "s": 4.0, "g": 3.0, "c": 2.0}


def test_table_and_army_size_are_not_enforced() -> None:
    """Units: "I play on a 6 foot by 4 foot tabletop and an armies will have between 12
    and 18 units." The engine reads this as a description: a 4' x 3' table with one unit a
    side raises no problem (the table is the scenario's)."""
    found = problems([unit("p", P, "foot", 20, 5), unit("r", R, "foot", 20, 30, 180)],
                     commanders=[commander("pc", P, 20, 2), commander("rc", R, 20, 34)],
                     width=48, depth=36)
    assert found == []


def test_one_commander_general_a_side() -> None:
    """Units: "One commander is designated as commander-general." Two generals on one side
    is a scenario problem; the flag is what the -4 victory point line reads."""
    game = make_game([unit("p", P, "foot", 20, 5), unit("r", R, "foot", 20, 40, 180)],
                     commanders=[commander("g1", P, 14, 5, general=True),
                                 commander("g2", P, 26, 5, general=True)])
    found = semantic_problems(game.scenario, rules_id="larger-battles")
    assert [p.path for p in found] == ["commanders[1] 'g2'.general"]


# --- Organising Your Army ---------------------------------------------------------------


def test_a_command_is_all_infantry_or_all_cavalry() -> None:
    """Organising Your Army: "The flanks, centre, and reserve commands need to consist of
    either infantry or cavalry; they cannot be mixed within a single command." Foot and
    commanded shot are both infantry."""
    mixed = problems([unit("f", P, "foot", 20, 5), unit("h", P, "horse", 25, 5, command="centre"),
                      FAR_ENEMY], commanders=[commander("c", P, 22, 8)])
    assert len(mixed) == 1 and "all infantry or all cavalry" in mixed[0][1]
    infantry = problems([unit("f", P, "foot", 20, 5), unit("s", P, "commanded_shot", 25, 5),
                         FAR_ENEMY], commanders=[commander("c", P, 22, 8)])
    assert infantry == []


def test_dragoons_and_artillery_have_commands_of_their_own() -> None:
    """Organising Your Army: "Dragoons and artillery have separate commands of their own." """
    found = problems([unit("d", P, "dragoons", 20, 5, command="centre"),
                      unit("g", P, "artillery", 30, 5, command="left"),
                      unit("f", P, "foot", 40, 5, command="dragoons"), FAR_ENEMY],
                     commanders=[commander("c", P, 20, 8), commander("l", P, 30, 8, command="left")])
    text = messages(found)
    assert "dragoons belong to the dragoons command" in text
    assert "artillery belongs to the artillery command" in text
    assert "foot must be in the centre, a flank or the reserve" in text
    assert len(found) == 3


def test_infantry_and_cavalry_belong_to_a_flank_centre_or_reserve() -> None:
    """Organising Your Army: the commands are Right Flank, Centre, Left Flank, Artillery,
    Dragoons and Reserve; the scenario format's "independent" holds no troops here."""
    found = problems([unit("h", P, "horse", 20, 5, command="independent"), FAR_ENEMY])
    assert len(found) == 1 and "horse must be in the centre, a flank or the reserve" in found[0][1]
    for command in ("right", "left", "centre", "reserve"):
        assert problems([unit("h", P, "horse", 20, 5, command=command), FAR_ENEMY]) == []


def test_commanders_are_assigned_to_flank_centre_and_reserve_commands() -> None:
    """Organising Your Army: "Commanders are assigned to the flank, centre, and reserve
    commands" - not to the artillery or dragoons (the commander-general may stand apart).
    A command without a commander is allowed: its units have no radius to keep."""
    found = problems([unit("f", P, "foot", 20, 5), FAR_ENEMY],
                     commanders=[commander("gc", P, 40, 5, command="artillery")])
    assert [p for p, _ in found] == ["commanders[0] 'gc'.command"]
    general = problems([unit("f", P, "foot", 20, 5), FAR_ENEMY],
                       commanders=[commander("g", P, 25, 2, command="independent", general=True)])
    assert general == []
    assert problems([unit("f", P, "foot", 20, 5), FAR_ENEMY]) == []


# --- Initial Deployment -----------------------------------------------------------------


def test_deployment_within_12_inches_of_the_commander() -> None:
    """Initial Deployment: "all units in a command must be deployed within 12" of their
    designated commander" (edge to edge, base to base)."""
    # Commander base spans x 9-11; the foot at x = 25 spans 23-27: exactly 12" apart.
    ok = problems([unit("f", P, "foot", 25, 5), FAR_ENEMY], commanders=[commander("c", P, 10, 5)])
    assert ok == []
    far = problems([unit("f", P, "foot", 25.5, 5), FAR_ENEMY], commanders=[commander("c", P, 10, 5)])
    assert len(far) == 1 and "deployed 12.5\" from its commander 'c'" in far[0][1]


def test_deployment_rule_does_not_bind_dragoons_or_artillery() -> None:
    """Initial Deployment: "this constraint does not apply for dragoons and artillery
    units, which can be deployed independently." """
    found = problems([unit("d", P, "dragoons", 60, 5), unit("g", P, "artillery", 5, 5),
                      unit("f", P, "foot", 30, 5), FAR_ENEMY],
                     commanders=[commander("c", P, 30, 8)])
    assert found == []


def test_deployment_rule_does_not_bind_later_moves() -> None:
    """Initial Deployment: "this rule applies solely to initial unit deployment and not
    when moving units": a unit may move beyond 12" of its commander."""
    game = make_game([unit("f", P, "foot", 21, 5), FAR_ENEMY], commanders=[commander("c", P, 10, 5)])
    state = position(game, orders=(("f", "move"),))
    state, _ = act(game, state, Move(unit="f", waypoints=((27, 5),)))
    assert state.units["f"].x == pytest.approx(27.0)  # now 14" from the commander


# --- Sequence of Play and Orders --------------------------------------------------------


def test_who_moves_first_is_a_die_roll_off_with_ties_rolled_again() -> None:
    """Sequence of Play (silent on who starts): both sides roll a D6, ties roll again."""
    game = make_game([unit("p", P, "foot", 10, 5), unit("r", R, "foot", 60, 40, 180)])
    state, _ = game.start(ScriptedDice([3, 3, 2, 5]))
    assert (state.active, state.first_side, state.turn, state.phase) == (R, R, 1, "movement")
    state, _ = game.start(ScriptedDice([6, 1]))
    assert state.active == P


def test_a_scenario_may_name_the_side_that_moves_first() -> None:
    """Sequence of Play: a scenario's ``first`` replaces the roll-off (no die is rolled)."""
    base = make_game([unit("p", P, "foot", 10, 5), unit("r", R, "foot", 60, 40, 180)])
    game = Game(base.ruleset, base.scenario.model_copy(update={"first": R}))
    state, events = game.start(ScriptedDice([]))
    assert state.active == R and rolls(events) == []


def test_a_game_turn_is_two_player_turns_of_four_phases() -> None:
    """Sequence of Play: "Each complete game turn comprises two player turns", each of
    Movement, Artillery Bombardment, Combat and Routing Units (run at the end of combat)."""
    game = make_game([unit("p", P, "foot", 10, 5), unit("r", R, "foot", 60, 40, 180)], turns=3)
    state = position(game)
    state, _ = act(game, state, GiveOrder(target="p"))
    assert orders_left(state) == 1
    seen = []
    for _ in range(3):
        state, _ = act(game, state, EndPhase())
        seen.append((state.turn, state.active, state.phase))
    assert seen == [(1, P, "bombardment"), (1, P, "combat"), (1, R, "movement")]
    assert orders_left(state) == 2  # the new player turn has its own two orders
    for _ in range(3):
        state, _ = act(game, state, EndPhase())
    assert (state.turn, state.active, state.phase) == (2, P, "movement")


def test_the_default_battle_is_12_turns() -> None:
    """How to Win: "A battle ends, normally after a set number of turns, typically 12
    turns": a scenario that gives no length plays 12."""
    scenario = Scenario.model_validate({
        "name": "no length", "table": {"width": 72, "depth": 48},
        "sides": [{"id": P, "edge": "south"}, {"id": R, "edge": "north"}],
        "units": [unit("p", P, "foot", 10, 5), unit("r", R, "foot", 60, 40, 180)],
    })
    state = get_ruleset("larger-battles").initial_state(scenario)
    assert state.value("turn_limit") == 12


def test_orders_are_not_needed_to_fight() -> None:
    """Orders: "this restriction only affects the movement and bombardment phases of a
    player's turn and not the other phases": combat needs no order."""
    game, state = duel("dragoons", "dragoons")
    assert state.marked("orders") == ()
    after, _ = act(game, state, Attack(attacker="a", target="t"), [5, 2])
    assert piece(after.units["t"]).hits == 1


def test_orders_are_given_in_their_own_phases() -> None:
    """Orders: an order moves a unit or command (movement phase) or orders a bombardment
    (movement or bombardment phase); none is given in the combat phase."""
    game = make_game([unit("g", P, "artillery", 30, 5), unit("f", P, "foot", 10, 5), FAR_ENEMY])
    bombardment = position(game, phase="bombardment")
    assert codes(game, bombardment, GiveOrder(target="f")) == ["core.WRONG_PHASE"]
    assert not codes(game, bombardment, GiveOrder(target="g", purpose="bombard"))
    assert not codes(game, position(game), GiveOrder(target="artillery", purpose="bombard"))
    combat = position(game, phase="combat")
    assert codes(game, combat, GiveOrder(target="g", purpose="bombard")) == ["core.WRONG_PHASE"]
    assert codes(game, position(game), GiveOrder(target="f", purpose="bombard")) == ["core.CANNOT_ACT"]


def test_a_command_order_moves_its_commander_too() -> None:
    """Orders: "Issuing an order is necessary to move either one unit or all units within a
    command": the command's commander moves on the command's order, and needs one."""
    game = make_game([unit("f", P, "foot", 10, 5), FAR_ENEMY], commanders=[commander("c", P, 20, 5)])
    state = position(game)
    assert codes(game, state, Move(unit="c", waypoints=((20, 15),))) == ["larger-battles.NOT_ORDERED"]
    state, _ = act(game, state, GiveOrder(target="centre"))
    assert not codes(game, state, Move(unit="c", waypoints=((20, 15),)))
    assert not codes(game, state, Move(unit="f", waypoints=((10, 11),)))


# --- Movement ---------------------------------------------------------------------------


def test_units_pass_through_neither_units_nor_commanders() -> None:
    """Interpenetration: "No unit or commander may pass through other units." The engine
    treats commanders' bases as solid too."""
    game = make_game([unit("a", P, "foot", 30, 5), FAR_ENEMY],
                     commanders=[commander("c", P, 30, 9), commander("k", P, 50, 5, command="left")])
    state = position(game, orders=(("a", "move"), ("k", "move")))
    assert codes(game, state, Move(unit="a", waypoints=((30, 11),))) == ["movement.COLLISION"]
    assert not codes(game, state, Move(unit="a", waypoints=((30, 7),)))  # touching is fine
    blocker = make_game([unit("a", P, "foot", 50, 9), FAR_ENEMY],
                        commanders=[commander("k", P, 50, 5, command="left")])
    state = position(blocker, orders=(("k", "move"),))
    assert codes(blocker, state, Move(unit="k", waypoints=((50, 14),))) == ["movement.COLLISION"]


def test_the_3_inch_stop_has_a_small_placing_tolerance() -> None:
    """Enemy Units: "Units must cease movement upon moving to within 3" of an enemy unit."
    A unit may end up to 0.05" inside 3" (placing a base by hand), no closer."""
    game = make_game([unit("a", P, "foot", 30, 10), unit("e", R, "foot", 30, 17, 180)])
    state = position(game, orders=(("a", "move"),))
    assert not codes(game, state, Move(unit="a", waypoints=((30, 12.04),)))  # 2.96"
    assert codes(game, state, Move(unit="a", waypoints=((30, 12.1),))) == ["movement.ENEMY_ZONE"]  # 2.9"


def test_commanders_also_stop_at_3_inches_but_make_no_zone() -> None:
    """Enemy Units: the engine applies the 3" stop to commanders' moves too, while enemy
    commanders stop nobody (units may move into contact with them: Commander Attacks)."""
    game = make_game([unit("e", R, "foot", 30, 16, 180), unit("f", P, "foot", 10, 5)],
                     commanders=[commander("c", P, 30, 10), commander("k", R, 10, 12, command="left")])
    state = position(game, orders=(("c", "move"), ("f", "move")))
    # c spans y 9-11 and e 15-17: 1" forward leaves 3", 1.5" leaves 2.5".
    assert codes(game, state, Move(unit="c", waypoints=((30, 11.5),))) == ["movement.ENEMY_ZONE"]
    assert not codes(game, state, Move(unit="c", waypoints=((30, 11),)))
    assert not codes(game, state, Move(unit="f", waypoints=((10, 10),)))  # touches k


def test_directly_away_tolerance_is_an_option() -> None:
    """Enemy Units: "They can only turn or move directly away from the enemy." Directly
    away is within ``directly_away_tolerance`` degrees (15 by default) of the bearing from
    the enemy's centre to the unit's centre."""
    units = [unit("a", P, "foot", 30, 10), unit("e", R, "foot", 30, 14, 180)]
    off_10 = ((30 - 3 * 0.17365, 10 - 3 * 0.98481),)
    off_20 = ((30 - 3 * 0.34202, 10 - 3 * 0.93969),)
    game = make_game(units)
    state = position(game, orders=(("a", "move"),))
    assert not codes(game, state, Move(unit="a", waypoints=off_10))
    assert codes(game, state, Move(unit="a", waypoints=off_20)) == ["movement.NOT_AWAY"]
    assert codes(game, state, Move(unit="a", waypoints=((30, 8.5), (29.7, 7.5)))) == ["movement.NOT_AWAY"]
    loose = make_game(units, directly_away_tolerance=25)
    assert not codes(loose, position(loose, orders=(("a", "move"),)), Move(unit="a", waypoints=off_20))


def test_turning_spends_the_road_bonus() -> None:
    """Turning: "All movement is limited to 3" when turning", so a road move that turns
    gets neither its +3" nor its full allowance."""
    road = {"type": "road", "line": [[30, 0], [30, 48]], "width": 3}
    game = make_game([unit("f", P, "foot", 30, 5), FAR_ENEMY], terrain=[road])
    state = position(game, orders=(("f", "move"),))
    assert not codes(game, state, Move(unit="f", waypoints=((30, 14),)))
    assert codes(game, state, Move(unit="f", waypoints=((30, 14),), face_after=10)) == ["movement.TOO_FAR"]
    assert not codes(game, state, Move(unit="f", waypoints=((30, 8),), face_after=10))
    assert codes(game, state, Move(unit="f", waypoints=((30, 8.5),), face_after=10)) == ["movement.TOO_FAR"]


def test_fields_and_broken_ground_are_passable_at_full_rate() -> None:
    """Terrain 3: "Fields and Broken Terrain. Passible for all units." """
    field = {"type": "field", "hedged": True, "polygon": [[25, 8], [35, 8], [35, 12], [25, 12]]}
    broken = {"type": "broken", "polygon": [[25, 12], [35, 12], [35, 16], [25, 16]]}
    game = make_game([unit("h", P, "horse", 30, 5, command="right"), FAR_ENEMY], terrain=[field, broken])
    state = position(game, orders=(("h", "move"),))
    assert not codes(game, state, Move(unit="h", waypoints=((30, 17),)))
    assert codes(game, state, Move(unit="h", waypoints=((30, 17.5),))) == ["movement.TOO_FAR"]


def test_a_town_is_judged_by_the_unit_centre() -> None:
    """Terrain 2: "Cavalry may not end their move in a town." A horse unit whose centre is
    outside may overlap the town's edge; its centre inside is refused."""
    town = {"type": "town", "polygon": [[25, 8], [35, 8], [35, 14], [25, 14]]}
    game = make_game([unit("h", P, "horse", 30, 24, 180, command="right"), FAR_ENEMY], terrain=[town])
    state = position(game, orders=(("h", "move"),))
    assert not codes(game, state, Move(unit="h", waypoints=((30, 14.5),)))
    assert codes(game, state, Move(unit="h", waypoints=((30, 13.9),))) == ["movement.CANNOT_END_HERE"]


def test_hills_slow_only_the_way_up_and_the_whole_move() -> None:
    """Terrain 5: "All units move 3" when moving up a hill." Going down is at full rate; a
    move that climbs at any point is limited to 3" in all."""
    hill = {"type": "hill", "polygon": [[20, 10], [40, 10], [40, 30], [20, 30]]}
    game = make_game([unit("g", P, "horse", 30, 25, command="right"),
                      unit("h", P, "horse", 50, 8, command="right"), FAR_ENEMY], terrain=[hill])
    state = position(game, orders=((f"{P}:right", "move"),))
    assert not codes(game, state, Move(unit="g", waypoints=((30, 37),)))  # 12" off the hill
    # From the flat at x = 50 into the hill at x = 39 is 11": refused, 3" is the limit.
    assert codes(game, state, Move(unit="h", waypoints=((39, 8), (39, 11)))) == ["movement.TOO_FAR"]


def test_climbing_a_second_hill_of_the_same_height_is_moving_up_a_hill() -> None:
    """Terrain 5: "All units move 3" when moving up a hill." Horse on one hill crossing the
    plain and climbing onto a second hill of the same height moves up a hill."""
    hill_a = {"type": "hill", "polygon": [[20, 0], [30, 0], [30, 20], [20, 20]]}
    hill_b = {"type": "hill", "polygon": [[40, 0], [50, 0], [50, 20], [40, 20]]}
    game = make_game([unit("h", P, "horse", 29, 10, 90, command="right"), FAR_ENEMY],
                     terrain=[hill_a, hill_b])
    state = position(game, orders=(("h", "move"),))
    assert codes(game, state, Move(unit="h", waypoints=((41, 10),))) == ["movement.TOO_FAR"]


def test_rivers_may_be_crossed_at_a_bridge() -> None:
    """Terrain 6: "These may only be crossed via bridges or fords." """
    river = {"type": "river", "line": [[0, 12], [72, 12]], "width": 2}
    bridge = {"type": "bridge", "polygon": [[27, 10], [33, 10], [33, 14], [27, 14]]}
    game = make_game([unit("h", P, "horse", 30, 5, command="right"),
                      unit("g", P, "horse", 50, 5, command="right"), FAR_ENEMY],
                     terrain=[river, bridge])
    state = position(game, orders=((f"{P}:right", "move"),))
    assert not codes(game, state, Move(unit="h", waypoints=((30, 17),)))
    assert codes(game, state, Move(unit="g", waypoints=((50, 17),))) == ["movement.RIVER"]


# --- Artillery Bombardment --------------------------------------------------------------


def gunnery(target_xy: tuple[float, float], *extra: dict[str, Any], **kw: Any) -> tuple[Game, GameState]:
    game = make_game([unit("g", P, "artillery", 30, 5), unit("t", R, "foot", *target_xy, 180), *extra],
                     **kw)
    return game, position(game, phase="bombardment", orders=(("g", "bombard"),))


def test_a_gun_bombards_once_a_turn() -> None:
    """Artillery Bombardment: each gun with an order fires once in the bombardment phase."""
    game, state = gunnery((30, 20))
    state, _ = act(game, state, Bombard(gun="g", target="t"), [4])
    assert codes(game, state, Bombard(gun="g", target="t")) == ["core.ALREADY_ACTED"]


def test_directly_in_front_is_the_strip_ahead_of_the_front_edge() -> None:
    """Frontal Facing: "The enemy unit must be directly in front of the artillery unit":
    some part of the target lies in the strip as wide as the gun straight ahead of it."""
    game, state = gunnery((33, 20))  # target spans x 31-35; the gun's front 28.5-31.5
    assert not codes(game, state, Bombard(gun="g", target="t"))
    game, state = gunnery((33.6, 20))  # spans 31.6-35.6: clear of the strip
    assert codes(game, state, Bombard(gun="g", target="t")) == ["fighting.NOT_IN_FRONT"]


def test_commanders_are_not_bombarded() -> None:
    """Artillery Bombardment: guns bombard "enemy units"; a commander is not a target."""
    game = make_game([unit("g", P, "artillery", 30, 5), FAR_ENEMY],
                     commanders=[commander("k", R, 30, 20)])
    state = position(game, phase="bombardment", orders=(("g", "bombard"),))
    assert codes(game, state, Bombard(gun="g", target="k")) == ["fighting.NOT_ENEMY"]
    refused = game.validate(state, Bombard(gun="g", target="k"))[0].message
    assert refused.endswith("is a commander: only the enemy's troops may be attacked"), refused


def test_a_gun_does_not_bombard_its_own_side() -> None:
    game = make_game([unit("g", P, "artillery", 30, 5), unit("f", P, "foot", 30, 20), FAR_ENEMY])
    state = position(game, phase="bombardment", orders=(("g", "bombard"),))
    refused = game.validate(state, Bombard(gun="g", target="f"))
    assert [v.code for v in refused] == ["fighting.NOT_ENEMY"]
    gun, friend = state.units["g"], state.units["f"]
    assert refused[0].message == f"{friend.label} is on {possessive(gun.label)} own side", refused


def test_a_bombarded_gun_is_lost_at_once() -> None:
    """Assess Casualties and Routing Units: a 5+ hits; artillery rout on 1 hit, at once."""
    game = make_game([unit("g", P, "artillery", 30, 5), unit("t", R, "artillery", 30, 20, 180)])
    state = position(game, phase="bombardment", orders=(("g", "bombard"),))
    after, _ = act(game, state, Bombard(gun="g", target="t"), [5])
    assert after.units["t"].removed == "routed"


# --- Combat -----------------------------------------------------------------------------


def test_combat_facing_is_a_45_degree_frontal_arc() -> None:
    """Combat, Frontal Facing: "Units must face the enemy unit being attacked": some part of
    the target lies ahead of the front edge between lines splayed 45 degrees outward."""
    inside = make_game([unit("a", P, "dragoons", 30, 10), unit("t", R, "foot", 36, 13, 270)])
    assert not codes(inside, position(inside, phase="combat"), Attack(attacker="a", target="t"))
    outside = make_game([unit("a", P, "dragoons", 30, 10), unit("t", R, "foot", 36, 11, 270)])
    assert codes(outside, position(outside, phase="combat"),
                 Attack(attacker="a", target="t")) == ["fighting.NOT_IN_FRONT"]


def test_defender_fights_as_it_stands_when_it_cannot_turn() -> None:
    """Frontal Facing: "Defending units must turn to face the primary attacking unit"; the
    engine skips a turn that would overlap another base."""
    game = make_game([unit("a", P, "dragoons", 30, 10), unit("t", R, "dragoons", 30, 15, 90),
                      unit("b", R, "dragoons", 32.9, 15, 90)])
    state = position(game, phase="combat")
    after, _ = act(game, state, Attack(attacker="a", target="t"), [3, 3])
    assert after.units["t"].facing == pytest.approx(90.0)


def test_artillery_and_commanders_neither_attack_nor_support() -> None:
    """Combat, Measure Range: "Infantry, cavalry and dragoons have a range of 3"": guns
    bombard instead, and commanders only encourage."""
    game = make_game([unit("a", P, "dragoons", 30, 10), unit("g", P, "artillery", 34, 10),
                      unit("t", R, "foot", 30, 15, 180)],
                     commanders=[commander("c", P, 25, 10)])
    state = position(game, phase="combat")
    assert codes(game, state, Attack(attacker="a", target="t", supports=("g",))) == ["fighting.BAD_SUPPORT"]
    assert codes(game, state, Attack(attacker="g", target="t")) == ["core.CANNOT_ACT"]
    assert codes(game, state, Attack(attacker="c", target="t")) == ["core.CANNOT_ACT"]
    assert codes(game, state, Attack(attacker="a", target="t", supports=("c",))) == ["fighting.BAD_SUPPORT"]


def test_a_unit_fights_once_a_turn_but_may_be_attacked_again() -> None:
    """Combat: a unit attacks or supports once in its side's combat phase; a target may be
    attacked by several primary units, each a roll of its own. The phase's attacks are
    declared together, once."""
    game = make_game([unit("a", P, "dragoons", 30, 10), unit("s", P, "dragoons", 34.5, 12),
                      unit("b", P, "dragoons", 25.5, 12), unit("t", R, "foot", 30, 15, 180)])
    state = position(game, phase="combat")
    both = DeclareAttacks(attacks=(Attack(attacker="a", target="t", supports=("s",)),
                                   Attack(attacker="b", target="t")))
    twice = DeclareAttacks(attacks=(Attack(attacker="a", target="t", supports=("s",)),
                                    Attack(attacker="b", target="t", supports=("s",))))
    assert codes(game, state, twice) == ["core.ALREADY_ACTED"]
    state, _ = act(game, state, both, [])
    state, _ = act(game, state, Attack(attacker="a", target="t"), [2, 3])
    assert piece(state.units["t"]).hits == 0  # 2 + 1 support ties 3
    state, _ = act(game, state, Attack(attacker="b", target="t"), [6, 1])
    assert piece(state.units["t"]).hits == 1
    assert codes(game, state, Attack(attacker="a", target="t")) == ["core.ALREADY_ACTED"]
    assert codes(game, state, Attack(attacker="s", target="t")) == ["core.ALREADY_ACTED"]


def test_supporting_units_must_be_in_range_and_face_the_target() -> None:
    """Supporting Units: a supporting unit is attacking too, so the engine asks of it what
    it asks of the primary: within 3" and facing the target."""
    game = make_game([unit("a", P, "dragoons", 30, 10), unit("far", P, "dragoons", 38, 10),
                      unit("back", P, "dragoons", 34.5, 12, 180), unit("t", R, "foot", 30, 15, 180)])
    state = position(game, phase="combat")
    assert codes(game, state, Attack(attacker="a", target="t", supports=("far",))) == ["fighting.BAD_SUPPORT"]
    assert codes(game, state, Attack(attacker="a", target="t", supports=("back",))) \
        == ["fighting.BAD_SUPPORT"]


def test_any_troop_type_may_support_in_combat() -> None:
    """Supporting Units: "For each supporting unit attacking add 1." Unlike the routing
    support, combat support is not limited to similar units."""
    game = make_game([unit("a", P, "foot", 30, 10), unit("s", P, "horse", 34.5, 12, command="right"),
                      unit("d", P, "dragoons", 25.5, 12), unit("t", R, "dragoons", 30, 15, 180)])
    state = position(game, phase="combat")
    _, events = act(game, state, Attack(attacker="a", target="t", supports=("s", "d")), [2, 6, 6])
    assert resolved(events).attacker_score == 2 + 1 + 2  # muskets, two supports


def test_muskets_when_defending_is_an_option() -> None:
    """Muskets: "Infantry with ammunition add 1 when attacking" - not when defending, unless
    the ``muskets_when_defending`` option is on."""
    game, state = duel("dragoons", "foot")
    _, events = act(game, state, Attack(attacker="a", target="t"), [3, 3])
    assert resolved(events).defender_score == 3
    game, state = duel("dragoons", "foot", muskets_when_defending=True)
    _, events = act(game, state, Attack(attacker="a", target="t"), [3, 3])
    assert resolved(events).defender_score == 4


def test_out_of_ammunition_infantry_lose_only_the_musket_bonus() -> None:
    """Muskets and Check Ammunition: infantry out of ammunition attack without the +1 and
    roll no further ammunition die; their pikes still stop the cavalry bonus."""
    game, state = duel("foot", "dragoons")
    state = state.with_unit(state.units["a"].evolve(out_of_ammo=True))
    after, events = act(game, state, Attack(attacker="a", target="t"), [3, 2])
    assert resolved(events).attacker_score == 3 and piece(after.units["t"]).hits == 1
    game, state = duel("horse", "foot")
    state = state.with_unit(state.units["t"].evolve(out_of_ammo=True))
    _, events = act(game, state, Attack(attacker="a", target="t"), [3, 3])
    assert resolved(events).attacker_score == 3


def test_only_the_primary_infantry_checks_ammunition() -> None:
    """Check Ammunition: "The primary attacking Infantry, not any supporting units, rolls a
    D6. On a score of 1 or 2 they have run out of ammunition." Defenders do not check."""
    game = make_game([unit("a", P, "foot", 30, 10), unit("s", P, "foot", 34.5, 12),
                      unit("t", R, "foot", 30, 15, 180)])
    state = position(game, phase="combat")
    after, events = act(game, state, Attack(attacker="a", target="t", supports=("s",)), [3, 3, 1])
    assert rolls(events)[2].startswith("ammunition: a")
    assert piece(after.units["a"]).out_of_ammo
    assert not piece(after.units["s"]).out_of_ammo and not piece(after.units["t"]).out_of_ammo


def test_dragoons_get_neither_the_musket_nor_the_cavalry_bonus() -> None:
    """Assess Casualties 1 and 2 name infantry and cavalry only: dragoons attack at the bare
    die and never check ammunition."""
    game, state = duel("dragoons", "commanded_shot")
    _, events = act(game, state, Attack(attacker="a", target="t"), [3, 2])
    assert resolved(events).attacker_score == 3 and len(rolls(events)) == 2


def test_commanders_encourage_only_infantry_or_cavalry() -> None:
    """Commander Rally: "Add 1 to an infantry or cavalry unit." Not to dragoons, attacking
    or defending."""
    game = make_game([unit("a", P, "dragoons", 30, 10), unit("t", R, "dragoons", 30, 15, 180)],
                     commanders=[commander("c", P, 30, 7.5), commander("k", R, 30, 17.5)])
    state = position(game, phase="combat")
    assert codes(game, state, Attack(attacker="a", target="t", commander="c")) == ["fighting.BAD_COMMANDER"]
    after, _ = act(game, state, Attack(attacker="a", target="t"), [3, 3])
    assert after.pending is None  # no defending commander is asked for


def test_a_commander_must_be_within_3_inches_of_the_combat() -> None:
    """Commanders: "Commanders within 3" of a combat can choose to encourage" - within 3"
    of the primary attacker or its target."""
    game = make_game([unit("a", P, "horse", 30, 10, command="right"),
                      unit("t", R, "horse", 30, 15, 180, command="left")],
                     commanders=[commander("near", P, 30, 5), commander("far", P, 37, 10)])
    state = position(game, phase="combat")
    assert not codes(game, state, Attack(attacker="a", target="t", commander="near"))  # 3"
    assert codes(game, state, Attack(attacker="a", target="t", commander="far")) == ["fighting.BAD_COMMANDER"]


def test_a_commander_encourages_once_a_turn() -> None:
    """Commanders: a commander encourages one combat in a player turn."""
    game = make_game([unit("a", P, "horse", 30, 10, command="right"),
                      unit("b", P, "horse", 36, 10, command="right"),
                      unit("t", R, "horse", 30, 15, 180, command="left"),
                      unit("u", R, "horse", 36, 15, 180, command="left")],
                     commanders=[commander("c", P, 33, 7)])
    state = position(game, phase="combat")
    assert codes(game, state, DeclareAttacks(attacks=(
        Attack(attacker="a", target="t", commander="c"),
        Attack(attacker="b", target="u", commander="c")))) == ["fighting.BAD_COMMANDER"]
    state, _ = act(game, state, Attack(attacker="a", target="t", commander="c"), [3, 3, 4])
    assert state.units["c"].in_play and state.is_marked("encouraged", "c")


def test_the_defending_commander_is_an_option() -> None:
    """Commanders: with ``defender_may_encourage`` off only the attacker's commander may
    encourage, and the attack resolves without asking the defender."""
    game = make_game([unit("a", P, "horse", 30, 10, command="right"),
                      unit("t", R, "horse", 30, 15, 180, command="left")],
                     commanders=[commander("k", R, 30, 17.5, command="left")],
                     defender_may_encourage=False)
    state = position(game, phase="combat")
    after, _ = act(game, state, Attack(attacker="a", target="t"), [3, 3])
    assert after.pending is None
    assert codes(game, state, Encourage(commander="k")) == ["core.NOTHING_PENDING"]


def test_misfortune_is_rolled_only_by_commanders_who_encouraged() -> None:
    """Commander Misfortune: "After combat, roll a D6": for each commander who encouraged in
    that combat, not for those merely near it or who declined."""
    game = make_game([unit("a", P, "horse", 30, 10, command="right"),
                      unit("t", R, "horse", 30, 15, 180, command="left")],
                     commanders=[commander("c", P, 30, 7.5, command="right"),
                                 commander("k", R, 30, 17.5, command="left")])
    state = position(game, phase="combat")
    state, _ = act(game, state, Attack(attacker="a", target="t"))
    after, events = act(game, state, Encourage(commander=None), [3, 3])
    assert len(rolls(events)) == 2 and after.units["c"].in_play and after.units["k"].in_play
    state = position(game, phase="combat")
    state, _ = act(game, state, Attack(attacker="a", target="t", commander="c"))
    after, events = act(game, state, Encourage(commander="k"), [3, 3, 1, 1])
    assert [p.split(" (")[0] for p in rolls(events)[2:]] == ["misfortune: c", "misfortune: k"]
    assert after.units["c"].removed == after.units["k"].removed == "misfortune"


def test_a_flanking_unit_never_takes_a_hit() -> None:
    """Author's reply: "Flanking units count as supporting unit in combat and cannot take
    any hits in combat." Target t is engaged to its front by a; f stands on t's flank."""
    game = make_game([unit("a", P, "dragoons", 30, 10), unit("f", P, "dragoons", 35, 15, 270),
                      unit("t", R, "foot", 30, 15, 180)])
    state = position(game, phase="combat")
    attack = Attack(attacker="f", target="t", supports=("a",))
    assert codes(game, state, attack) == ["larger-battles.FLANK_PRIMARY"]
    after, _ = act(game, state, Attack(attacker="a", target="t", supports=("f",)), [1, 6])
    assert piece(after.units["f"]).hits == 0 and piece(after.units["a"]).hits == 1


# --- Routing Units ----------------------------------------------------------------------


def test_hit_limits_are_options() -> None:
    """Routing Units: the hit limits 3/2/2/1 are the ``hit_limit_*`` options."""
    game = make_game([unit("f", P, "foot", 10, 5), unit("h", P, "horse", 20, 5, command="right"),
                      unit("d", P, "dragoons", 30, 5), unit("g", P, "artillery", 40, 5), FAR_ENEMY],
                     hit_limit_infantry=4, hit_limit_cavalry=3, hit_limit_dragoons=1,
                     hit_limit_artillery=2)
    state = position(game)
    assert [limit(game, state, u) for u in ("f", "h", "d", "g")] == [4, 3, 1, 2]


def test_dragoons_and_artillery_gain_no_support() -> None:
    """Routing 3, Support: "Infantry and cavalry with 2 other supporting units" - dragoons
    and guns in a close line keep their limits of 2 and 1."""
    game = make_game([unit("d1", P, "dragoons", 20, 10), unit("d2", P, "dragoons", 25, 10),
                      unit("d3", P, "dragoons", 30, 10), unit("g1", P, "artillery", 20, 20),
                      unit("g2", P, "artillery", 24, 20), unit("g3", P, "artillery", 28, 20), FAR_ENEMY])
    state = position(game)
    assert [limit(game, state, u) for u in ("d2", "g2")] == [2, 1]


def test_cavalry_support_cavalry() -> None:
    """Routing 3, Support: "(infantry for infantry and cavalry for cavalry)"."""
    game = make_game([unit("h1", P, "horse", 20, 10, command="right"),
                      unit("h2", P, "horse", 25, 10, command="right"),
                      unit("h3", P, "horse", 30, 10, command="right"), FAR_ENEMY])
    state = position(game)
    assert [limit(game, state, u) for u in ("h1", "h2", "h3")] == [2, 3, 2]


def test_routs_cascade_when_support_is_lost() -> None:
    """Routing: "Whenever a unit situation changes, for example ... a unit lacks support,
    always reassess immediately": one rout can take the support from another."""
    game = make_game([unit("l", P, "foot", 20, 10), unit("c", P, "foot", 25, 10),
                      unit("r", P, "foot", 30, 10), unit("g", R, "artillery", 30, 30, 180)])
    state = position(game, phase="bombardment", active=R, orders=(("g", "bombard"),))
    state = with_hits(with_hits(state, "c", 3), "r", 2)
    assert (limit(game, state, "c"), limit(game, state, "r")) == (4, 3)
    after, _ = act(game, state, Bombard(gun="g", target="r"), [5])
    assert after.units["r"].removed == "routed" and after.units["c"].removed == "routed"
    assert after.units["l"].in_play


def test_dragoons_leaving_cover_are_reassessed_at_once() -> None:
    """Routing: "Whenever a unit situation changes, for example, dragoons leave cover ...
    reassess immediately." """
    town = {"type": "town", "polygon": [[10, 5], [20, 5], [20, 15], [10, 15]]}
    game = make_game([unit("d", P, "dragoons", 15, 10), FAR_ENEMY], terrain=[town])
    state = with_hits(position(game, orders=(("d", "move"),)), "d", 2)
    assert limit(game, state, "d") == 3
    after, _ = act(game, state, Move(unit="d", waypoints=((15, 19),)))
    assert after.units["d"].removed == "routed"


def test_broken_ground_is_cover_only_under_the_broad_option() -> None:
    """Terrain 2-3 say "Defending Dragoons benefit" in towns and in fields and broken
    terrain; Routing 1 says "hedged fields or towns". ``dragoon_cover`` picks the reading."""
    broken = {"type": "broken", "polygon": [[10, 5], [20, 5], [20, 15], [10, 15]]}
    narrow = make_game([unit("d", P, "dragoons", 15, 10), FAR_ENEMY], terrain=[broken])
    assert limit(narrow, position(narrow), "d") == 2
    broad = make_game([unit("d", P, "dragoons", 15, 10), FAR_ENEMY], terrain=[broken],
                      dragoon_cover="fields-broken-and-towns")
    assert limit(broad, position(broad), "d") == 3


def test_the_river_bonus_needs_an_enemy_in_range_and_counts_fords() -> None:
    """Routing 2, Rivers: "if defending a river and all attacking units are on the opposite
    river bank." With no enemy within 3" the unit is not defending; an enemy across a ford
    is still across the river."""
    river = {"type": "river", "line": [[0, 20], [72, 20]], "width": 2}
    ford = {"type": "ford", "polygon": [[27, 18], [33, 18], [33, 22], [27, 22]]}
    distant = make_game([unit("d", P, "foot", 30, 17.5), unit("e", R, "foot", 30, 30, 180)],
                        terrain=[river])
    assert limit(distant, position(distant), "d") == 3
    at_ford = make_game([unit("d", P, "foot", 30, 17.5), unit("e", R, "foot", 30, 22.5, 180)],
                        terrain=[river, ford])
    assert limit(at_ford, position(at_ford), "d") == 4


# --- Commanders -------------------------------------------------------------------------


def test_a_commander_with_nowhere_to_retire_is_captured() -> None:
    """Commander Attacks: "the commander must immediately retire 12"". With no clear place
    on the way to his own edge, the commander is taken and counts as lost."""
    game = make_game([unit("h", P, "horse", 30, 38, command="right"), unit("e", R, "foot", 60, 30, 180)],
                     commanders=[commander("k", R, 30, 45, command="left")])
    state = position(game, orders=(("h", "move"),))
    after, events = act(game, state, Move(unit="h", waypoints=((30, 43),)))
    assert after.units["k"].removed == "captured" and rolls(events) == []
    assert score_breakdown(after, R, game.ruleset.options)["commanders_lost"] == -2


# --- Supplies ---------------------------------------------------------------------------


def supply(side: str, x: float, y: float) -> dict[str, Any]:
    return {"side": side, "x": x, "y": y}


def test_an_army_has_at_most_three_supply_bases() -> None:
    """Supplies: "Armies have 3 supply bases." A fourth is a problem; fewer are allowed (a
    small scenario may give fewer)."""
    four = problems([unit("f", P, "foot", 30, 10), FAR_ENEMY],
                    supplies=[supply(P, x, 1) for x in (10, 25, 40, 55)])
    assert len(four) == 1 and "3 supply bases, not 4" in four[0][1]
    assert problems([unit("f", P, "foot", 30, 10), FAR_ENEMY], supplies=[supply(P, 10, 1)]) == []


def test_supply_bases_stand_on_the_army_edge() -> None:
    """Supplies: "placed anywhere along the army's tabletop edge" (within 3" of it)."""
    found = problems([unit("f", P, "foot", 30, 10), FAR_ENEMY],
                     supplies=[supply(P, 10, 3), supply(P, 30, 3.5), supply(R, 30, 45)])
    assert [p for p, _ in found] == ["extensions.larger-battles.supplies[1]"]


def test_supply_bases_are_12_inches_apart() -> None:
    """Supplies: "must be spaced with 12" between them" (centre to centre)."""
    assert problems([unit("f", P, "foot", 30, 10), FAR_ENEMY],
                    supplies=[supply(P, 10, 1), supply(P, 22, 1)]) == []
    close = problems([unit("f", P, "foot", 30, 10), FAR_ENEMY],
                     supplies=[supply(P, 10, 1), supply(P, 21.5, 1)])
    assert len(close) == 1 and "12\" apart" in close[0][1]


def test_only_cavalry_raid_supply_bases() -> None:
    """Supplies: "If a an enemy cavalry unit reaches a supply base it is removed along with
    the cavalry unit." Dragoons reaching it do nothing."""
    game = make_game([unit("d", P, "dragoons", 30, 38), unit("e", R, "foot", 60, 30, 180)],
                     supplies=[supply(R, 30, 47.5)])
    state = position(game, orders=(("d", "move"),))
    after, _ = act(game, state, Move(unit="d", waypoints=((30, 46),)))
    assert after.units["d"].in_play and supplies_of(after)[0].raided_by is None


# --- How to Win -------------------------------------------------------------------------


def test_losing_the_general_costs_4_or_6_by_option() -> None:
    """How to Win: "Subtract 2 points for each commander lost. Subtract 4 points if the
    commander-general is lost." By default the general's loss is the 4 alone."""
    units = [unit("p", P, "foot", 10, 5), unit("r", R, "foot", 60, 40, 180)]
    cmds = [commander("gen", P, 20, 5, general=True)]
    for option, expected in ((False, -4), (True, -6)):
        game = make_game(units, commanders=cmds, general_loss_also_counts_as_commander=option)
        state = lost(position(game), "gen", "misfortune")
        assert score_breakdown(state, P, game.ruleset.options)["commanders_lost"] == expected


def test_half_the_army_counts_raiders_but_needs_more_than_half() -> None:
    """How to Win: "Add 6 points if the enemy units are reduced by more than half, including
    any enemy cavalry exiting the tabletop after attacking supplies." Exactly half is not
    enough; raiders count as lost but not as routed."""
    game = make_game([unit("p1", P, "foot", 10, 5), unit("p2", P, "foot", 20, 5),
                      unit("p3", P, "horse", 30, 5, command="right"), unit("p4", P, "foot", 40, 5),
                      unit("r", R, "foot", 60, 40, 180)])
    state = lost(lost(position(game), "p1"), "p2")
    b = score_breakdown(state, R, game.ruleset.options)
    assert (b["routed_enemy_units"], b["enemy_reduced_by_half"]) == (2, 0)
    state = lost(state, "p3", "raided")
    b = score_breakdown(state, R, game.ruleset.options)
    assert (b["routed_enemy_units"], b["enemy_reduced_by_half"]) == (2, 6)


def test_the_battle_ends_when_a_side_has_no_units_left() -> None:
    """How to Win (engine): a side with no troop units left ends the battle at the end of
    the player turn."""
    game = make_game([unit("p", P, "foot", 10, 5), unit("r", R, "foot", 60, 40, 180)])
    state = lost(position(game, phase="combat"), "r")
    state, _ = act(game, state, EndPhase())
    assert state.is_over and state.result is not None
    assert state.result["reason"] == "the beaten side has no units left" and state.result["winner"] == P


def test_an_objective_is_taken_only_when_no_enemy_holds_it_too() -> None:
    """How to Win: "Add 6 points if objective taken." The active side takes it at the end
    of its turn with a unit's centre inside and no enemy unit's centre inside."""
    objective = {"name": "Radway", "x": 30, "y": 21, "radius": 3}
    game = make_game([unit("p", P, "foot", 30, 20), unit("r", R, "foot", 31, 23, 180)],
                     objectives=[objective])
    state, _ = act(game, position(game, phase="combat"), EndPhase())
    assert not state.is_over and state.objectives[0].taken_by is None
    mine = make_game([unit("p", P, "foot", 30, 20), unit("r", R, "foot", 60, 40, 180)],
                     objectives=[{**objective, "side": R}])
    state, _ = act(mine, position(mine, phase="combat"), EndPhase())
    assert state.objectives[0].taken_by is None  # an objective for the other side only
