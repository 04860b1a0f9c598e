"""The larger-battles doctrine, second edition (the ``doctrine-2`` player): orders only to
commands that move, a gun's order kept only for a shot the rules accept, and a
commander's encouragement only where the points at stake outweigh his misfortune; the
first edition is still the doctrine and the baseline."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tertia.ai.moves import gain, move_towards, round_friends, way_clear
from tertia.ai.players import make_player
from tertia.battle import Step, fight_battle
from tertia.core.actions import Move
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.geometry import Point, hypot
from tertia.core.state import GameState, Unit
from tertia.rules.fighting import Attack
from tertia.rules.hits import piece
from tertia.rules.measuring import has_enemy_troops_within
from tertia.rulesets import get_ruleset
from tertia.rulesets.larger_battles.actions import DeclareAttacks, GiveOrder
from tertia.rulesets.larger_battles.ai.doctrine import ENGAGE, LargerBattlesDoctrine
from tertia.rulesets.larger_battles.ai.doctrine2 import EVEN, LEADER_ASKS, MISFORTUNE, LargerBattlesDoctrine2
from tertia.rulesets.larger_battles.victory import scores
from tertia.scenarios import load_builtin

from .support import counting_legality, position


def _game(scenario: str) -> Game:
    return Game(get_ruleset("larger-battles"), load_builtin(scenario))


def _idle_orders(steps: list[Step], side: str) -> tuple[int, int]:
    """Move orders ``side`` gave, and those no unit of the command ordered moved on."""
    given = idle = 0
    for i, st in enumerate(steps):
        order = st.action
        if st.side != side or not isinstance(order, GiveOrder) or order.purpose != "move":
            continue
        given += 1
        following = []
        for later in steps[i + 1:]:
            if later.side != side or type(later.action).__name__ == "EndPhase":
                break
            following.append(later.action)
        idle += not any(isinstance(a, Move) and st.state.units[a.unit].command == order.target
                        for a in following)
    return given, idle


@pytest.mark.parametrize("scenario", ["skirmish", "edgehill"])
def test_the_second_edition_gives_no_order_that_moves_nothing_where_the_first_does(scenario: str) -> None:
    game = _game(scenario)
    sides = game.scenario.side_ids
    totals = {}
    for name in ("doctrine-2", "baseline"):
        given = idle = 0
        for seed in (1, 2, 3):
            players = {s: make_player(name if s == sides[0] else "random") for s in sides}
            g, i = _idle_orders(fight_battle(game, players, seed).steps, sides[0])
            given, idle = given + g, idle + i
        totals[name] = (given, idle)
    assert totals["doctrine-2"][0] > 0 and totals["doctrine-2"][1] == 0
    assert totals["baseline"][1] > 0  # the first edition's idle orders, kept as they were


def _first_attack_with_a_commander(game: Game) -> tuple[GameState, Attack]:
    sides = game.scenario.side_ids
    for seed in range(1, 20):
        record = fight_battle(game, {s: make_player("baseline") for s in sides}, seed)
        for st in record.steps:
            if isinstance(st.action, DeclareAttacks):
                before = record.steps[record.steps.index(st) - 1].state
                for a in st.action.attacks:
                    if a.commander is not None:
                        return before, a
    raise AssertionError("no attack led by a commander in 19 battles")


def test_a_commander_encourages_only_where_the_points_at_stake_outweigh_his_misfortune() -> None:
    """The weighing: the +1's expected points (a rout won or spared, a point each and a
    point for the unit's later part) against a misfortune's expected cost (1/6 of the 2
    points a commander is worth, and a point of service). Fresh units (every hit still to
    take) are not worth it; the same attack with both units a hit from routing is."""
    game = _game("edgehill")
    state, attack = _first_attack_with_a_commander(game)
    second = LargerBattlesDoctrine2()
    assert attack.commander is not None
    fresh = state
    for uid in (attack.attacker, attack.target):
        fresh = fresh.with_unit(fresh.units[uid].evolve(hits=0))
    assert not second._worth(game, fresh, attack, attack.commander, defending=False)
    last = fresh
    for uid in (attack.attacker, attack.target):
        unit = last.units[uid]
        limit = second._hits_left(game, last, unit)
        last = last.with_unit(unit.evolve(hits=int(limit) - 1))
    assert second._hits_left(game, last, last.units[attack.target]) == 1.0
    assert second._worth(game, last, attack, attack.commander, defending=False)
    assert pytest.approx(0.5) == MISFORTUNE * (2.0 + 1.0)


def test_the_second_edition_loses_fewer_commanders_than_the_first() -> None:
    game = _game("edgehill")
    sides = game.scenario.side_ids

    def lost(name: str) -> int:
        total = 0
        for seed in range(4, 9):  # seeds where the first edition loses six, the second two
            for mine in sides:
                players = {s: make_player(name if s == mine else "random") for s in sides}
                record = fight_battle(game, players, seed)
                total += sum(1 for u in record.final_state.iter_units(mine, include_removed=True)
                             if u.is_commander and not u.in_play)
        return total

    assert lost("doctrine-2") < lost("baseline")


def test_the_second_edition_is_the_doctrine_and_the_first_the_baseline() -> None:
    """Once it beat the first edition (``tertia ladder``), the second is the doctrine,
    and the first is kept by name (``baseline``: the golden transcripts' player)."""
    from tertia.ai.lookup import baseline_for, doctrine_for, second_edition_for

    ruleset = get_ruleset("larger-battles")
    assert doctrine_for(ruleset) is LargerBattlesDoctrine2 is second_edition_for(ruleset)
    assert baseline_for(ruleset) is LargerBattlesDoctrine
    assert LargerBattlesDoctrine2().name == "doctrine"


def _skirmish_start() -> tuple[Game, GameState]:
    game = _game("skirmish")
    state, _ = game.start(SeededDice(1))
    state = state.evolve(active="parliament", phase="movement")
    return game, game.apply(state, GiveOrder(target="centre", purpose="move"), SeededDice(1))[0]


def test_the_two_nearest_foot_free_of_the_enemy_make_for_the_objective_and_stay_on_it() -> None:
    """How to Win (6 points for an objective taken): Hollis's and Brooke's Foot, each two
    moves from the ford, are both sent (held by two, one rout does not lose it); Brooke's
    makes for it, and once on it is not moved again. Within 3" of an enemy away from the
    ford it is not sent: Hollis's and then the horse, two moves off too, are."""
    game, state = _skirmish_start()
    player = LargerBattlesDoctrine2()
    ford = state.objectives[0]
    assert player._holders_now(state) == {"p-foot-2": ford, "p-foot-1": ford}
    before = state.units["p-foot-2"]
    move = player._plan_move(game, state, before)
    assert isinstance(move, Move)
    after = game.apply(state, move, SeededDice(1))[0].units["p-foot-2"]
    def off(unit: Unit) -> float:
        return hypot(unit.x - ford.x, unit.y - ford.y)

    assert off(before) > ford.radius >= off(after)
    there = state.with_unit(after).evolve(step=state.step + 1)
    assert player._holders_now(there) == {"p-foot-2": ford, "p-foot-1": ford}
    assert player._plan_move(game, there, there.units["p-foot-2"]) is None
    # Brooke's Foot engaged away from the ford: Hollis's is sent instead.
    enemy = state.units["r-dragoons"]
    engaged = state.with_unit(enemy.evolve(x=before.x, y=before.y + 5.0)).evolve(turn=2)
    assert player._holders_now(engaged) == {"p-foot-1": ford, "p-horse": ford}


def test_routing_the_only_unit_on_an_objective_is_worth_its_points() -> None:
    """The rout value of a unit alone on an objective carries the objective's 6 points; a
    second unit of its side on it takes them away again."""
    game, state = _skirmish_start()
    ford = state.objectives[0]
    foot = state.units["r-foot-1"]
    away = LargerBattlesDoctrine2._rout_value(game, state, foot)
    on = state.with_unit(foot.evolve(x=ford.x, y=ford.y + 1.0))
    assert LargerBattlesDoctrine2._rout_value(game, on, on.units["r-foot-1"]) == away + 6.0
    mate = on.units["r-foot-2"]
    both = on.with_unit(mate.evolve(x=ford.x + 1.0, y=ford.y + 1.0))
    assert LargerBattlesDoctrine2._rout_value(game, both, both.units["r-foot-1"]) == away


def test_a_side_not_behind_on_points_makes_no_even_attack() -> None:
    """An attack's value is what it is expected to gain; a side behind makes one that
    gains nothing (the first edition's margin, EVEN), a side ahead or level asks
    LEADER_ASKS of it: an even fight can only cost it its lead, or the draw it holds."""
    game = _game("edgehill")
    state, attack = _first_attack_with_a_commander(game)
    bare = Attack(attack.attacker, attack.target, attack.supports, None)
    side = state.units[attack.attacker].side

    def lead(s: GameState) -> int:
        score = scores(s, game.ruleset.options)
        return score[side] - score[s.opponent(side)]

    def losing(of_side: str, until: Callable[[GameState], bool]) -> GameState:
        """``state`` with commanders of ``of_side`` (2 points each; none in the attack, nor
        the general) lost until ``until``: the troops, and so what a rout is worth, as
        they were."""
        s = state
        for spare in [u for u in state.iter_units(of_side) if u.is_commander and u.id != attack.commander
                      and not piece(u).general]:
            if until(s):
                break
            s = s.with_unit(spare.evolve(removed="misfortune"))
        return s

    ahead = losing(state.opponent(side), lambda s: lead(s) > 0)
    behind = losing(side, lambda s: lead(s) < 0)

    def levelled(s: GameState) -> GameState:
        """``s`` with units routed (a point each), far from the attack, until level."""
        fighting = {attack.attacker, attack.target, *attack.supports}
        for u in sorted(s.iter_troops(side if lead(s) > 0 else s.opponent(side)), key=lambda u: u.id):
            if lead(s) == 0:
                break
            far = all(hypot(u.x - s.units[f].x, u.y - s.units[f].y) > 12 for f in fighting)
            if u.id not in fighting and far:
                s = s.with_unit(u.evolve(removed="routed"))
        return s

    level = levelled(state)
    assert lead(ahead) > 0 == lead(level) > lead(behind)
    player = LargerBattlesDoctrine2()
    value = {name: player._attack_value(game, s, bare)
             for name, s in (("ahead", ahead), ("level", level), ("behind", behind))}
    assert value["behind"] - value["ahead"] == pytest.approx(LEADER_ASKS + EVEN)
    assert value["behind"] - value["level"] == pytest.approx(LEADER_ASKS + EVEN)


def test_the_second_edition_orders_first_the_arm_that_outnumbers_the_enemys() -> None:
    """Orders: a command's claim on one of the turn's two orders is the weight of its units
    free of the enemy. At Edgehill Parliament's foot outnumber the King's (6 to 5) and its
    horse are outnumbered (6 to 9): its centre (four foot) comes before either wing of
    horse, where the first edition, counting a foot unit 2 to a horse unit's 3, put both
    wings first. The Royalists, stronger in horse, order their right wing (five horse)
    before their centre (five foot)."""
    game = _game("edgehill")
    start, _ = game.start(SeededDice(1))

    def claims(player: LargerBattlesDoctrine, side: str) -> dict[str, float]:
        state = start.evolve(active=side, phase="movement")
        found = LargerBattlesDoctrine._claims(player, state)
        return {command: claim for command, (claim, _) in found.items()}

    first = claims(LargerBattlesDoctrine(), "parliament")
    second = claims(LargerBattlesDoctrine2(), "parliament")
    assert first["centre"] < min(first["left"], first["right"])
    assert second["centre"] > max(second["left"], second["right"])
    royalists = claims(LargerBattlesDoctrine2(), "royalist")
    assert royalists["right"] > royalists["centre"]


def test_a_brigade_touching_its_neighbour_in_line_moves_up_where_the_first_edition_stands() -> None:
    """Edgehill: Ballard's two brigades stand side by side, touching, 3" behind the first
    line. Ordered to move, the first edition finds the second brigade's way barred by the
    brigade it touches and it stands; the second edition measures the way as its
    neighbour only touches it, and it closes up straight on behind the first line."""
    game = _game("edgehill")
    start = game.ruleset.initial_state(game.scenario)
    left, right = start.units["p-ballard-foot-1"], start.units["p-ballard-foot-2"]
    assert hypot(left.x - right.x, left.y - right.y) == pytest.approx((left.width + right.width) / 2)
    state = position(game, orders=((left.id, "move"), (right.id, "move")))
    assert LargerBattlesDoctrine()._plan_move(game, state, right) is None
    move = LargerBattlesDoctrine2()._plan_move(game, state, right)
    assert move is not None and not game.validate(state, move)
    (x, y), = move.waypoints
    assert x == pytest.approx(right.x) and y - right.y > 2.5


def _at_the_brook(fighting: bool) -> tuple[Game, GameState]:
    """The Skirmish at the Ford, the Royalists' turn 2, their centre already ordered: their
    horse stands at Dene Brook, which it may cross only at the ford (Terrain 6, Rivers);
    with ``fighting``, Lunsford's Foot at the ford is within 3" of Brooke's Foot."""
    game = _game("skirmish")
    state = position(game, active="royalist", orders=(("royalist:centre", "move"),)).evolve(turn=2)
    horse = state.units["r-horse"].evolve(x=9.3, y=18.9)
    foot = state.units["r-foot-1"].evolve(x=23.4, y=19.5)
    enemy = state.units["p-foot-2"]
    enemy = enemy.evolve(x=23.4, y=foot.y - (foot.depth + enemy.depth) / 2 - (2.0 if fighting else 6.0))
    return game, state.with_unit(horse).with_unit(foot).with_unit(enemy)


@pytest.mark.parametrize("fighting", [True, False])
def test_a_wing_whose_horse_cannot_move_is_ordered_for_its_commander_to_ride_to_the_fight(
        fighting: bool) -> None:
    """Orders; Commanders (those within 3" of a combat may encourage): Wilmot's Horse
    cannot move at the brook, so an order to Lord Wilmot's wing moves only Lord Wilmot.
    While Lunsford's Foot fights at the ford the second edition gives it all the same, and
    he rides towards that fight; with nobody fighting the order goes to the dragoons."""
    game, state = _at_the_brook(fighting)
    given = (*state.marked("ordered_move"), "royalist:right")
    ordered = state.evolve(marks={**state.marks, "ordered_move": given})
    assert LargerBattlesDoctrine()._plan_move(game, ordered, ordered.units["r-horse"]) is None
    assert has_enemy_troops_within(state, state.units["r-foot-1"], ENGAGE) is fighting
    player = LargerBattlesDoctrine2()
    order = player._best_order(game, state, random.Random(1))
    assert order == GiveOrder(target="right" if fighting else "dragoons", purpose="move")
    if fighting:
        commander = ordered.units["r-horse-cmd"]
        move = player._plan_move(game, ordered, commander)
        assert move is not None and not game.validate(ordered, move)
        after = game.apply(ordered, move, SeededDice(1))[0].units["r-horse-cmd"]
        foot = state.units["r-foot-1"]
        def off(unit: Unit) -> float:
            return hypot(unit.x - foot.x, unit.y - foot.y)

        assert off(after) < off(commander) - 6.0


def _second_line(ahead: bool) -> tuple[Game, GameState]:
    """Edgehill, the Royalists' turn 1: Lord Digby's Horse, ordered, stands in the King's
    second line 2" behind Grandison's (moved 1" towards Wilmot's, so overlapping Digby's
    front by 3"), the Earl of Carnarvon's drawn back; without ``ahead``, Grandison's stands
    aside, out of Digby's way."""
    game = _game("edgehill")
    state = position(game, active="royalist", orders=(("r-digby-horse", "move"),))
    ahead_of = state.units["r-grandison-horse"].evolve(x=56.0) if ahead else \
        state.units["r-grandison-horse"].evolve(x=66.0, y=46.0)
    return game, state.with_unit(ahead_of).with_unit(state.units["r-carnarvon-horse"].evolve(x=66.0, y=42.0))


def _digby_and_his_goal(ahead: bool) -> tuple[Game, GameState, Unit, Point]:
    """:func:`_second_line`, with Lord Digby's Horse and the goal the second edition gives it."""
    game, state = _second_line(ahead)
    digby = state.units["r-digby-horse"]
    goal = LargerBattlesDoctrine2()._goal(state, digby)
    assert goal is not None
    return game, state, digby, goal


@pytest.mark.parametrize("ahead", [True, False])
def test_a_second_line_unit_whose_way_a_friend_bars_goes_round_it(ahead: bool) -> None:
    """Movement; Turning (no turn, so the whole allowance): the first edition walks Digby's
    Horse up to Grandison's back, 2" on; the second edition slides it aslant past
    Grandison's flank into the front line, more than an inch nearer its goal, facing as
    it was. With nobody in its way both go the same way."""
    game, state, digby, goal = _digby_and_his_goal(ahead)
    player = LargerBattlesDoctrine2()
    first = LargerBattlesDoctrine()._plan_move(game, state, digby)
    second = player._plan_move(game, state, digby)
    assert first is not None and second is not None and not game.validate(state, second)
    if not ahead:
        assert second == first
        return
    assert gain(digby, goal, first) == pytest.approx(2.0, abs=0.01)
    assert gain(digby, goal, second) > gain(digby, goal, first) + 1.0
    (x, y), = second.waypoints
    assert second.face_before is None and x - digby.x > 4.0 and y < digby.y



def test_a_detour_that_could_not_beat_the_best_is_not_put_to_the_rules() -> None:
    """The way round a friend (:func:`~tertia.ai.moves.round_friends`): a detour whose
    clear run, foreshortened towards the goal, could not beat the best so far is not
    asked, and the move chosen is the one asking every detour finds."""
    game, state, digby, goal = _digby_and_his_goal(True)
    straight = LargerBattlesDoctrine()._plan_move(game, state, digby)
    reach = 12.0
    asked: list[Point] = []

    def towards(aim: Point) -> Move | None:
        asked.append(aim)
        return move_towards(game, state, digby, aim, reach, least_first=True)

    every = round_friends(state, digby, goal, reach, straight, towards)
    assert len(asked) >= 1 and every != straight
    asked.clear()
    assert round_friends(state, digby, goal, reach, straight, towards, clear=lambda aim: 0.0) == straight
    assert asked == []
    asked.clear()
    measured = round_friends(state, digby, goal, reach, straight, towards,
                             clear=lambda aim: way_clear(state, digby, aim, reach))
    assert measured == every


@pytest.mark.parametrize("near", [True, False])
def test_a_unit_found_to_have_no_way_is_planned_again_only_once_a_piece_near_it_moves(near: bool) -> None:
    """Wilmot's Horse at the brook has no way (Rivers): planned once, the second edition
    keeps that on the position's memo of the pieces, and asks the rules nothing more for it
    while nothing within its move and the 3" beyond moves; once Lord Wilmot rides a little
    nearer, it is planned afresh; the dragoons' move, far off, changes nothing. Whichever,
    the answer is the one a player planning it from nothing gives."""
    game, state = _at_the_brook(False)
    given = (*state.marked("ordered_move"), "royalist:right")
    ordered = state.evolve(marks={**state.marks, "ordered_move": given})
    player = LargerBattlesDoctrine2()
    assert player._plan_move(game, ordered, ordered.units["r-horse"]) is None
    mover = ordered.units["r-horse-cmd" if near else "r-dragoons"]
    after = ordered.with_unit(mover.evolve(x=mover.x + 1.0))
    asked = counting_legality(game)
    assert player._plan_move(game, ordered, ordered.units["r-horse"]) is None
    assert asked == []
    assert player._plan_move(game, after, after.units["r-horse"]) is None
    assert (asked != []) is near
    _, fresh = _at_the_brook(False)
    fresh = fresh.evolve(marks=dict(after.marks)).with_unit(after.units[mover.id])
    assert LargerBattlesDoctrine2()._plan_move(game, fresh, fresh.units["r-horse"]) is None
