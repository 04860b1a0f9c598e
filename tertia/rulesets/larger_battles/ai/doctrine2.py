"""The doctrine for ``larger-battles``, second edition (the ``doctrine-2`` player, until it
beats the first edition and becomes the doctrine): the first edition's general
(:mod:`~tertia.rulesets.larger_battles.ai.doctrine`), who now weighs what he risks
against what he gains:

- **Encouragement** (Commanders: +1 to the unit's combat roll; Commander Misfortune: a 1
  on a D6 after the combat and the commander is lost, 2 victory points, 4 for the
  commander-general). A commander encourages only when the victory points the +1 is
  expected to win (the chance it adds of routing the enemy unit, and takes away of his
  own unit routing, each a point and a point more for the unit's later part in the
  battle, and the army's half-strength bonus of 6 where that rout would decide it)
  outweigh the points a misfortune is expected to cost, with a point more for the
  service he would still give. The commander-general never does.
- **Orders only where they move something.** An order goes to the command with the most
  weight of units free of the enemy (the first edition's choice, but with each arm
  weighed by how far it outnumbers the enemy's, where the first edition put the horse
  first) among those where a unit would actually move on it (the first edition's move,
  as the rules would judge it once the order is given), or, while friends are fighting,
  where its commander would ride to them (Commanders: those within 3" of a combat may
  encourage), none where nothing would; and one is kept back for the guns only when a
  gun has a target the rules accept. A unit then makes the move so planned while the
  rules still accept it (another moving first may have barred it: it is planned again).
  At the Skirmish at the Ford the Royalist horse stands at the brook, which it may cross
  only at the ford its own foot are fighting for: its commander's ride to that fight won
  0.705 -> 0.820 of 400 games against the first edition as the Royalists, where the
  order went to the dragoons instead.
- **Round friends in the way.** A unit free of the enemy whose straight way a friend
  bars (the first edition walks it up to the friend's back and there it stands: the
  King's second line of horse at Edgehill, behind the first) slides aslant round it,
  30 or 60 degrees off its goal's bearing, facing as it was (no turn, so the whole
  allowance: Turning), where that brings it more than an inch nearer
  (:func:`~tertia.ai.moves.round_friends`, as the D3 doctrine goes round).
- **Objectives held.** For each objective the side may take (How to Win: 6 points), the
  two nearest troop units free of the enemy (or already fighting for it), foot first,
  make for it and stay there, so that one rout does not lose it; their commands' orders
  come first while they are on their way.
- **Attacks valued in points.** An attack is worth each side's chance of a hit times
  what that hit brings a rout nearer by: the rout's victory points (a point, a point
  more for the unit's later part, the half-army bonus where it decides it, an
  objective's 6 where the unit is its side's only one on it) over the hits left. A side
  not behind on victory points (ahead, or level) makes no even attack, only one expected
  to gain: a coin toss can only cost it its lead, or the draw it holds.
- **Lines that touch.** A unit whose straight way the first edition finds barred by a
  neighbour it touches in line (Ballard's brigades at Edgehill, side by side) measures it
  again as that neighbour only touches it and goes straight on (:func:`advance_on`); the
  first edition's such unit stands.

Everything else is the first edition's: goals, attack plans, bombardment, where the
commanders ride. Every action is still judged by the rules before it is chosen.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from typing import ClassVar

from tertia.ai.moves import move_towards, round_friends, way_clear
from tertia.core.actions import Action, Move
from tertia.core.game import Game
from tertia.core.geometry import Point, hypot
from tertia.core.state import GameState, Objective, Unit, UnitKind
from tertia.rules.fighting import Attack
from tertia.rules.hits import piece
from tertia.rules.measuring import has_enemy_troops_within
from tertia.rules.modifiers import total
from tertia.rulesets.larger_battles.actions import Bombard, DeclareAttacks, Encourage, GiveOrder
from tertia.rulesets.larger_battles.ai.doctrine import (
    ENGAGE,
    LargerBattlesDoctrine,
    _ahead,
    _in_reach,
    advance_on,
    win_lose,
)
from tertia.rulesets.larger_battles.combat import (
    attack_from,
    attacker_modifiers,
    can_attack,
    defender_modifiers,
)
from tertia.rulesets.larger_battles.events import supply_bases
from tertia.rulesets.larger_battles.losses import troops_at_start, units_lost
from tertia.rulesets.larger_battles.orders import is_ordered
from tertia.rulesets.larger_battles.profile import profile
from tertia.rulesets.larger_battles.routing import hit_limit
from tertia.rulesets.larger_battles.victory import scores

MISFORTUNE = 1 / 6
"""Commander Misfortune: a 1 on a D6 after the combat."""

COMMANDER_LOST = 2.0
GENERAL_LOST = 4.0
"""Victory points: "subtract 2 points for each commander lost", 4 for the general."""

SERVICE = 1.0
"""The points a commander's later encouragements and presence are reckoned to be worth."""

ROUTED = 1.0
HALF_ARMY = 6.0
OBJECTIVE = 6.0
"""Victory points: a point for each routed enemy unit, 6 when his units are reduced by
more than half, 6 for an objective taken."""

UNIT_WORTH = 1.0
"""What a unit's later part in the battle is reckoned worth, beyond its rout's point: a
rout takes it out of every fight still to come."""


EVEN = 0.01
"""An even attack (expected to gain nothing) is made: the first edition's margin."""

LEADER_ASKS = 0.03
"""A side not behind on victory points attacks only for at least this expected gain: an
even fight is a coin toss, which can only cost it its lead or the draw it holds. Measured
against the random player at Edgehill as Parliament (800 games): 0.932 -> 0.951 for a side
ahead; against the first edition over Edgehill and the Skirmish at the Ford, both sides
(3,200 games): 0.590 -> 0.578. Declining even fights whatever the score won 0.972 of the
same 800, but 0.561 against the first edition. A level side too (1,000 games a side at
Edgehill, seed 7): Parliament 930 -> 945, the Royalists 981 -> 980, against the first
edition 0.577 -> 0.577."""

HORSE_AND_FOOT_ALIKE = {UnitKind.HORSE: 3.0, UnitKind.FOOT: 3.0}
"""What a unit of each kind adds to its command's claim on an order (Orders: two a turn,
one often kept for the guns), before it is multiplied by the side's units of that kind
over the enemy's: horse and foot alike, so the orders go first to the arm that outnumbers
its enemy's. The first edition counts a foot unit 2 to a horse unit's 3 whatever the
armies, which left Parliament's centre foot at Edgehill, who outnumber the King's and
fight with their muskets as well when they attack, waiting for their first order until
turn 5 on average. Against the random player at Edgehill (1,000 games a side, seed 7),
Parliament / the Royalists won 945 / 980 with the first edition's weights, 981 / 962
with horse and foot alike, 985 / 953 with foot at 4 (foot first), and 984 / 983 with the
arm that outnumbers its enemy's first."""

HOLDERS = 2
"""Units sent to each objective: held by two, it is not lost to one rout (measured at the
Skirmish at the Ford against one and three)."""

HOLDER_CLAIM = 10.0
"""Above any command's claim on an order: a holder's way to an objective comes first."""

class LargerBattlesDoctrine2(LargerBattlesDoctrine):
    """Plays any side of ``larger-battles``: the first edition, weighing risks (see the
    module's note)."""

    name = "doctrine"
    PAST_TOUCHING: ClassVar[bool] = True

    def __init__(self) -> None:
        super().__init__()
        self._moves_key: tuple[int, str, str] | None = None
        self._planned: dict[str, Move | None] = {}
        """Each unit's move as planned when the phase's orders were weighed."""
        self._holders_key: tuple[int, str, str] | None = None
        self._holders: dict[str, Objective] = {}
        """The units sent to hold the objectives this phase, each with its objective."""
        self._valued: GameState | None = None
        self._hit_worth: dict[str, tuple[float, float]] = {}
        """What a hit on each unit is worth in the position :attr:`_valued` (a combat plan
        and an encouragement weigh the same units again and again)."""

    # --- encouragement ---------------------------------------------------------------------

    def _encourage(self, game: Game, state: GameState) -> Action:
        assert state.pending is not None
        attack = attack_from(state.pending["attack"])
        eligible: Iterable[str] = state.pending.get("eligible", ())
        for cid in eligible:
            general = piece(state.units[cid]).general
            if not general and self._worth(game, state, attack, cid, defending=True):
                return Encourage(commander=cid)
        return Encourage(commander=None)

    def _combat(self, game: Game, state: GameState) -> Action:
        """The first edition's plan, each commander kept only where encouraging pays."""
        declared = super()._combat(game, state)
        if not isinstance(declared, DeclareAttacks):
            return declared
        kept = tuple(
            a if a.commander is None or self._worth(game, state, a, a.commander, defending=False)
            else Attack(a.attacker, a.target, a.supports, None)
            for a in declared.attacks)
        plan = DeclareAttacks(attacks=kept)
        return plan if kept == declared.attacks or game.is_legal(state, plan) else declared

    def _worth(self, game: Game, state: GameState, attack: Attack, commander: str, *,
               defending: bool) -> bool:
        """Does the +1 win more points than the commander's misfortune is expected to cost?"""
        opts = game.ruleset.options
        bare = Attack(attack.attacker, attack.target, attack.supports, None)
        a_mod = total(attacker_modifiers(state, bare, opts))
        d_mod = total(defender_modifiers(state, bare, None, opts))
        win, lose = win_lose(a_mod, d_mod)
        if defending:
            helped_win, helped_lose = win_lose(a_mod, d_mod + 1)
        else:
            helped_win, helped_lose = win_lose(a_mod + 1, d_mod)
        attacker, target = state.units[attack.attacker], state.units[attack.target]
        ours, theirs = (target, attacker) if defending else (attacker, target)
        # Chances the commander's side routs the enemy unit, and loses its own, go up and down.
        gain_rout = (helped_lose - lose) if defending else (helped_win - win)
        spare_rout = (lose - helped_lose) if not defending else (win - helped_win)
        their_worth, their_left = self._hit_value(game, state, theirs)
        our_worth, our_left = self._hit_value(game, state, ours)
        gain = gain_rout * their_worth / their_left + spare_rout * our_worth / our_left
        lost = GENERAL_LOST if piece(state.units[commander]).general else COMMANDER_LOST
        cost = MISFORTUNE * (lost + SERVICE)
        return gain > cost

    def _attack_value(self, game: Game, state: GameState, attack: Attack) -> float:
        """The points the attack is expected to win: each side's chance of a hit, times
        what the hit brings its unit's rout nearer by (the rout's worth over the hits it
        has left)."""
        opts = game.ruleset.options
        win, lose = win_lose(total(attacker_modifiers(state, attack, opts)),
                             total(defender_modifiers(state, attack, None, opts)))
        a, t = state.units[attack.attacker], state.units[attack.target]
        t_worth, t_left = self._hit_value(game, state, t)
        a_worth, a_left = self._hit_value(game, state, a)
        asked = LEADER_ASKS if _not_behind(game, state, a.side) else -EVEN
        return win * t_worth / t_left - lose * a_worth / a_left - asked

    def _hit_value(self, game: Game, state: GameState, unit: Unit) -> tuple[float, float]:
        """What one more hit on ``unit`` brings its rout nearer by: the rout's worth, and
        the hits it has left to share it; worked out once a position and unit."""
        if state is not self._valued:
            self._valued, self._hit_worth = state, {}
        found = self._hit_worth.get(unit.id)
        if found is None:
            found = self._hit_worth[unit.id] = (
                self._rout_value(game, state, unit), self._hits_left(game, state, unit))
        return found

    @staticmethod
    def _hits_left(game: Game, state: GameState, unit: Unit) -> float:
        limit = hit_limit(game.table, state, unit, game.ruleset.options).value
        return float(max(1, limit - piece(unit).hits))

    @staticmethod
    def _rout_value(game: Game, state: GameState, unit: Unit) -> float:
        """The points its rout is worth to its enemy: one, the army's half-strength bonus
        when this rout would take its side past half, and an objective's points where it
        is its side's only unit on one."""
        value = ROUTED + UNIT_WORTH + (HALF_ARMY if _one_loss_from_half(state, unit.side) else 0.0)
        for objective in state.objectives:
            if _on(unit, objective) and not any(
                    _on(u, objective) for u in state.iter_troops(unit.side) if u.id != unit.id):
                value += OBJECTIVE
        return value

    # --- orders and movement ---------------------------------------------------------------

    def _guns_worth_an_order(self, game: Game, state: GameState) -> bool:
        """Has any gun of the side a shot the rules would accept, were the bombardment now?"""
        side = state.active
        probe = state.evolve(phase="bombardment", marks={
            **state.marks, "ordered_bombard": (*state.marked("ordered_bombard"), f"{side}:artillery")})
        enemies = list(state.iter_troops(state.opponent(side)))
        return any(game.is_legal(probe, Bombard(gun=gun.id, target=e.id))
                   for gun in state.iter_troops(side)
                   if gun.kind is UnitKind.ARTILLERY and not state.is_marked("bombarded", gun.id)
                   for e in enemies if _in_reach(gun, e) and _ahead(gun, e))

    @staticmethod
    def _key(state: GameState) -> tuple[int, str, str]:
        """The phase: a move planned in it, when an order was weighed, stands while the
        rules still accept it."""
        return (state.turn, state.active, state.phase)

    # --- objectives ------------------------------------------------------------------------

    def _holders_now(self, state: GameState) -> dict[str, Objective]:
        """Each objective's holders, chosen once a phase: of the side's troops (guns
        aside) free of the enemy or already fighting for it, the :data:`HOLDERS` fewest
        moves away, foot first among equals (they stand longest: a hit limit of 3), then
        the nearest."""
        key = self._key(state)
        if key == self._holders_key:
            return self._holders
        side = state.active
        holders: dict[str, Objective] = {}
        for objective in state.objectives:
            if objective.side not in (None, side):
                continue
            candidates = [
                u for u in state.iter_troops(side)
                if u.kind is not UnitKind.ARTILLERY and u.id not in holders
                and (_contesting(u, objective) or not has_enemy_troops_within(state, u, ENGAGE))]
            for rank in sorted(_holder_rank(u, objective) for u in candidates)[:HOLDERS]:
                holders[rank[-1]] = objective
        self._holders_key, self._holders = key, holders
        return holders

    def _order_weights(self, state: GameState) -> Mapping[UnitKind, float]:
        """Horse and foot alike, each times the side's units of that kind over the
        enemy's (:data:`HORSE_AND_FOOT_ALIKE`): the orders go first where it is stronger."""
        side = state.active
        ours = {kind: 0 for kind in HORSE_AND_FOOT_ALIKE}
        theirs = dict(ours)
        for u in state.iter_troops():
            if u.kind in ours:
                (ours if u.side == side else theirs)[u.kind] += 1
        return {kind: weight * ours[kind] / max(theirs[kind], 1)
                for kind, weight in HORSE_AND_FOOT_ALIKE.items()}

    def _claims(self, state: GameState) -> dict[str, tuple[float, list[Unit]]]:
        """The first edition's claims, with the command of a holder still on its way to
        its objective first."""
        claims = super()._claims(state)
        for unit_id, objective in self._holders_now(state).items():
            unit = state.units[unit_id]
            if unit.command in claims and not _on(unit, objective):
                score, units = claims[unit.command]
                claims[unit.command] = (score + HOLDER_CLAIM, units)
        return claims

    def _best_order(self, game: Game, state: GameState, rng: random.Random) -> Action | None:
        """The first edition's choice of command (its claim on an order), among the
        commands where at least one unit would move on the order."""
        key_now = self._key(state)
        if key_now != self._moves_key:
            self._moves_key, self._planned = key_now, {}
        claims = self._claims(state)
        ranked = {k: (claims[k][0], rng.random()) for k in sorted(claims)}
        for command in sorted(ranked, key=lambda k: ranked[k], reverse=True):
            if self._would_move(game, state, command, claims[command][1]):
                order = GiveOrder(target=command, purpose="move")
                return order if game.is_legal(state, order) else None
        return None

    def _would_move(self, game: Game, state: GameState, command: str, units: list[Unit]) -> bool:
        """Would any of ``units`` move once ``command`` is ordered, or, while friends are
        fighting, its commander ride to them (:meth:`_commander_move`), where he may
        encourage? Each move is planned as the rules would judge it then, and kept for when
        it is made."""
        side = state.active
        key = f"{side}:{command}"
        probe = state.evolve(marks={**state.marks, "ordered_move": (*state.marked("ordered_move"), key)})
        if any(self._planned_move(game, probe, unit.id) is not None for unit in units):
            return True
        return _friends_fighting(state, side) and any(
            self._planned_move(game, probe, u.id) is not None
            for u in state.iter_units(side) if u.kind is UnitKind.COMMANDER and u.command == command)

    def _planned_move(self, game: Game, probe: GameState, unit_id: str) -> Move | None:
        """The piece's move in ``probe`` (its command ordered), planned once a phase."""
        if unit_id not in self._planned:
            self._planned[unit_id] = self._fresh_move(game, probe, probe.units[unit_id])
        return self._planned[unit_id]

    def _plan_move(self, game: Game, state: GameState, unit: Unit) -> Move | None:
        """The move planned when the order was weighed, while the rules still accept it;
        else a holder's way to its objective, or the first edition's move, planned anew."""
        planned = self._planned.get(unit.id) if self._moves_key == self._key(state) else None
        if planned is not None and game.is_legal(state, planned):
            return planned
        return self._fresh_move(game, state, unit)

    def _fresh_move(self, game: Game, state: GameState, unit: Unit) -> Move | None:
        """A holder's way to its objective; any other unit's first-edition move, or, where
        friends bar that, its way round them (:meth:`_round_friends`). A troop unit found
        to have no way stays so, its goal the same, until a piece within its reach moves
        (remembered on the position's memo of the pieces: a command's units are planned
        when its order is weighed and again as they move)."""
        if unit.kind is UnitKind.COMMANDER or unit.kind is UnitKind.ARTILLERY:
            return super()._plan_move(game, state, unit)
        objective = self._holders_now(state).get(unit.id)
        goal = (objective.x, objective.y) if objective is not None else self._goal(state, unit)
        key = (_STANDS, goal, objective is not None)
        if state.recall(key, unit) is not None:
            return None
        if objective is not None:
            move = self._to_objective(game, state, unit, objective)
        elif has_enemy_troops_within(state, unit, ENGAGE):
            move = None
        else:
            move = self._round_friends(game, state, unit, goal, self._move_to(game, state, unit, goal))
        if move is None and not state.is_marked("moved", unit.id) and is_ordered(state, unit, "move"):
            state.remember(key, unit, _stands_reach(unit), True)
        return move

    def _round_friends(self, game: Game, state: GameState, unit: Unit, goal: Point | None,
                       move: Move | None) -> Move | None:
        """Troops free of the enemy whose friends bar their way to their ``goal`` go round
        them (:func:`~tertia.ai.moves.round_friends`), sliding aslant, their facing kept (no
        turn: Turning), as far as a move may take them short of the 3" stop (Enemy Units)."""
        if goal is None:
            return move
        reach = min(profile(unit.kind).move, hypot(goal[0] - unit.x, goal[1] - unit.y) - ENGAGE)
        if reach < 1.0:
            return move
        supplies = supply_bases(state)
        return round_friends(state, unit, goal, reach, move, lambda aim: move_towards(
            game, state, unit, aim, reach, obstacles=supplies, least_first=True),
            clear=lambda aim: way_clear(state, unit, aim, reach, obstacles=supplies))

    @staticmethod
    def _to_objective(game: Game, state: GameState, unit: Unit, objective: Objective) -> Move | None:
        """Onto the objective (nothing once there), turning first where it lies well off
        the unit's facing, as the first edition turns."""
        if _on(unit, objective) or has_enemy_troops_within(state, unit, ENGAGE):
            return None
        return advance_on(game, state, unit, (objective.x, objective.y), profile(unit.kind).move,
                          past_touching=True)


_STANDS = "lb doctrine 2 stands"
"""Where a position's memo keeps that a troop unit has no way to its goal."""


def _stands_reach(unit: Unit) -> float:
    """How near a piece must be to change whether ``unit`` has a way: what its move may
    sweep (its allowance, every way it tries) and the 3" stop short of the enemy beyond
    (Movement; Enemy Units), with a tolerance's margin."""
    return profile(unit.kind).move + ENGAGE + 0.1


def _not_behind(game: Game, state: GameState, side: str) -> bool:
    """Is ``side`` ahead on victory points as they stand, or level (How to Win)? Counted once a
    position: a combat plan weighs every attack it might make."""
    key = ("lb doctrine not behind", side)
    found: bool | None = state.cache.get(key)
    if found is None:
        score = scores(state, game.ruleset.options)
        found = state.cache[key] = score[side] >= score[state.opponent(side)]
    return found


def _friends_fighting(state: GameState, side: str) -> bool:
    """Is any troop unit of ``side`` that may attack within 3" of an enemy (Combat), where a
    commander's encouragement may count? Asked once a position: each order weighed asks it."""
    key = ("lb doctrine friends fighting", side)
    found: bool | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = any(can_attack(u) and has_enemy_troops_within(state, u, ENGAGE)
                                       for u in state.iter_troops(side))
    return found


def _one_loss_from_half(state: GameState, side: str) -> bool:
    """Would one more unit lost take ``side``'s army past half (How to Win: 6 points to the
    enemy)? Counted once a position (:func:`~.losses.units_lost` of
    :func:`~.losses.troops_at_start`): a combat plan asks it of every attack it weighs."""
    key = ("lb doctrine one loss from half", side)
    found: bool | None = state.cache.get(key)
    if found is None:
        lost = units_lost(state, side)
        found = state.cache[key] = lost <= len(troops_at_start(state, side)) / 2 < lost + 1
    return found


def _holder_rank(unit: Unit, objective: Objective) -> tuple[int, bool, float, str]:
    """Moves to the objective, not foot, distance, then the id: the least are sent."""
    off = hypot(unit.x - objective.x, unit.y - objective.y)
    return (math.ceil(off / profile(unit.kind).move), unit.kind is not UnitKind.FOOT, off, unit.id)


def _contesting(unit: Unit, objective: Objective) -> bool:
    """Is the unit at the objective, or in a fight for it (within 3" of its edge)?"""
    return hypot(unit.x - objective.x, unit.y - objective.y) <= objective.radius + ENGAGE


def _on(unit: Unit, objective: Objective) -> bool:
    """Is the unit's centre within the objective (How to Win: it holds it, or denies it)?"""
    return hypot(unit.x - objective.x, unit.y - objective.y) <= objective.radius
