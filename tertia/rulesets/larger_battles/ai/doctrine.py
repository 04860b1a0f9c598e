"""The doctrine player for ``larger-battles``: a scripted general who plays by the period's
book. Guns bombard what they can see; horse on the wings seek the enemy horse, then the
baggage; foot advance as a line, supported; commanders go where the fighting is.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from typing import ClassVar, Final

from tertia.ai.moves import bearing_to, move_past_touching, move_towards, pivot_to
from tertia.ai.targets import line_goal, nearest_enemy
from tertia.core.actions import Action, EndPhase, Move
from tertia.core.game import Game
from tertia.core.geometry import Point, angle_between, hypot, radians
from tertia.core.state import GameState, Unit, UnitKind
from tertia.rules.fighting import Attack
from tertia.rules.hits import piece
from tertia.rules.measuring import has_enemy_troops_within, home_edge, iter_enemy_troops_within
from tertia.rules.modifiers import total
from tertia.rulesets.larger_battles.actions import Bombard, DeclareAttacks, Encourage, GiveOrder
from tertia.rulesets.larger_battles.combat import (
    COMBAT_RANGE,
    DECLARED,
    attacker_modifiers,
    can_attack,
    declared_attacks,
    defender_modifiers,
    is_flanking,
    support_bar,
)
from tertia.rulesets.larger_battles.commanders import can_be_encouraged, iter_eligible_commanders
from tertia.rulesets.larger_battles.events import supplies_of, supply_bases
from tertia.rulesets.larger_battles.orders import ordered_units, orders_left
from tertia.rulesets.larger_battles.profile import profile
from tertia.rulesets.larger_battles.routing import hit_limit

ENGAGE = 3.0
COMMANDER_SETTLED = 2.0  # a commander this close to his place behind the fight stays put
BOMBARD_REACH = 24.0 + 5.0  # range plus the half-diagonals of two bases: a cheap first cut
TURN_BEFORE_ADVANCE = 35.0  # degrees off the goal before a unit wheels rather than slides
ORDER_WEIGHT: Final = {UnitKind.HORSE: 3.0, UnitKind.FOOT: 2.0}
"""What a unit of each kind adds to its command's claim on an order (any other kind 1)."""


def _ahead(gun: Unit, target: Unit) -> bool:
    """A cheap first cut for "directly in front": the target's circle reaches the strip
    straight ahead of the gun's front edge."""
    right, forward = gun.base.to_local((target.x, target.y))
    return forward > 0 and abs(right) <= gun.width / 2 + target.base.radius


def _in_reach(gun: Unit, target: Unit) -> bool:
    """A cheap first cut: the target's centre within :data:`BOMBARD_REACH` of the gun's
    (no root taken where either offset alone goes further, which the distance never
    falls short of)."""
    dx, dy = target.x - gun.x, target.y - gun.y
    return abs(dx) <= BOMBARD_REACH and abs(dy) <= BOMBARD_REACH and hypot(dx, dy) <= BOMBARD_REACH


def _near(a: Unit, b: Unit, inches: float) -> bool:
    """A cheap first cut: bounding circles within ``inches`` of each other."""
    return hypot(a.x - b.x, a.y - b.y) - a.base.radius - b.base.radius <= inches


def advance_on(game: Game, state: GameState, unit: Unit, goal: Point, allowance: float, *,
               past_touching: bool = False) -> Move | None:
    """A move towards ``goal``: straight on up to ``allowance`` where it lies near the
    unit's front, else wheeling to face it (Turning: "All movement is limited to 3\" when
    turning"), or just pivoting where even that is barred. ``past_touching``: where the
    straight move finds no way, its way is measured again as neighbours touching the unit
    in line only touch it, straight on (:func:`~tertia.ai.moves.move_past_touching`)."""
    heading = bearing_to(unit, goal)
    if angle_between(heading, unit.facing) > TURN_BEFORE_ADVANCE:
        return move_towards(game, state, unit, goal, 3.0, face=heading,
                            obstacles=supply_bases(state)) or pivot_to(game, state, unit, heading)
    straight = move_past_touching if past_touching else move_towards
    return straight(game, state, unit, goal, allowance, obstacles=supply_bases(state))


def win_lose(a_mod: int, d_mod: int) -> tuple[float, float]:
    """Chances that an opposed D6 roll is won and lost with these total modifiers."""
    win = sum(1 for a in range(1, 7) for d in range(1, 7) if a + a_mod > d + d_mod) / 36
    lose = sum(1 for a in range(1, 7) for d in range(1, 7) if d + d_mod > a + a_mod) / 36
    return win, lose


class _Known:
    """What a combat plan asks again and again of one position: the side's troops near
    each target (in play order, among the pieces near it), and whether each unit survives
    fighting."""

    def __init__(self, state: GameState, side: str) -> None:
        self.state = state
        self.side = side
        self._near: dict[str, list[Unit]] = {}
        self._survives: dict[str, bool] = {}

    def near(self, target: Unit) -> list[Unit]:
        found = self._near.get(target.id)
        if found is None:
            x, y, side = target.x, target.y, self.side
            found = self._near[target.id] = [
                u for u in self.state.near(x, y, x, y, ENGAGE + target.base.radius)
                if u.side == side and not u.is_commander and _near(u, target, ENGAGE)
            ]
        return found

    def bearing(self, target: Unit) -> set[str]:
        """The pieces whose part in a plan may change an attack on ``target``: the target,
        the side's troops near it (attacking or supporting makes them used), and the
        enemies within 3" of those (attacked, they no longer bar a support)."""
        found = {target.id}
        for u in self.near(target):
            found.add(u.id)
            found.update(e.id for e in iter_enemy_troops_within(self.state, u, COMBAT_RANGE))
        return found

    def survives(self, game: Game, unit: Unit) -> bool:
        found = self._survives.get(unit.id)
        if found is None:
            found = self._survives[unit.id] = LargerBattlesDoctrine._survives_fighting(game, self.state, unit)
        return found


class LargerBattlesDoctrine:
    """Plays any side of ``larger-battles`` legally and sensibly.

    Within one phase it remembers which units it has already planned for, so each unit is
    considered once; the memory is keyed by the turn and phase and never affects legality.
    """

    name = "doctrine"
    PAST_TOUCHING: ClassVar[bool] = False
    """Does a unit whose straight way is barred by neighbours touching it in line go past
    them (:func:`advance_on`)? Not in the first edition: such a unit stands."""

    def __init__(self) -> None:
        self._phase_key: tuple[int, str, str] | None = None
        self._considered: set[str] = set()
        self._gun_targets: bool | None = None
        self._shots: list[Bombard] | None = None
        self._last_step = -1

    def _remember_phase(self, state: GameState) -> None:
        key = (state.turn, state.active, state.phase)
        went_back = state.step < self._last_step  # a new game, or an earlier position
        self._last_step = state.step
        if key != self._phase_key or went_back:
            self._phase_key = key
            self._considered = set()
            self._gun_targets = None
            self._shots = None

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        if state.pending is not None:
            return self._encourage(game, state)
        self._remember_phase(state)
        if state.phase == "movement":
            return self._movement(game, state, rng)
        if state.phase == "bombardment":
            return self._bombardment(game, state)
        if state.phase == "combat":
            return self._combat(game, state)
        return EndPhase()

    # --- orders and movement ---------------------------------------------------------------

    def _movement(self, game: Game, state: GameState, rng: random.Random) -> Action:
        left = orders_left(state)
        if left > 0:
            if self._gun_targets is None:
                self._gun_targets = self._guns_worth_an_order(game, state)
            if left > (1 if self._gun_targets else 0):
                order = self._best_order(game, state, rng)
                if order is not None:
                    return order
        for unit in self._movers(state):
            self._considered.add(unit.id)
            move = self._plan_move(game, state, unit)
            if move is not None:
                return move
        return EndPhase()

    def _movers(self, state: GameState) -> list[Unit]:
        """Ordered units that have not moved nor been considered this phase, leading units
        first so lines stay clear."""
        edge = home_edge(state, state.active)
        sign = 1.0 if edge == "south" else -1.0
        considered = self._considered
        ready = [u for u in ordered_units(state, state.active, "move")
                 if u.id not in considered and not state.is_marked("moved", u.id)]
        return sorted(ready, key=lambda u: (u.is_commander, -sign * u.y, u.id))

    def _best_order(self, game: Game, state: GameState, rng: random.Random) -> Action | None:
        claims = self._claims(state)
        if not claims:
            return None
        best = max(sorted(claims), key=lambda k: (claims[k][0], rng.random()))
        order = GiveOrder(target=best, purpose="move")
        return order if game.is_legal(state, order) else None

    def _claims(self, state: GameState) -> dict[str, tuple[float, list[Unit]]]:
        """Each command not yet ordered to move, with its claim on an order (the weight of
        its units free of the enemy, each kind as :meth:`_order_weights` weighs it, the
        reserve little before turn 3) and those units."""
        side = state.active
        given = state.marked("ordered_move")
        weights = self._order_weights(state)
        claims: dict[str, tuple[float, list[Unit]]] = {}
        for unit in state.iter_units(side):
            if unit.kind is UnitKind.COMMANDER or unit.kind is UnitKind.ARTILLERY:
                continue
            if f"{side}:{unit.command}" in given or has_enemy_troops_within(state, unit, ENGAGE):
                continue
            weight = weights.get(unit.kind, 1.0)
            if unit.command == "reserve" and state.turn < 3:
                weight *= 0.3
            score, units = claims.get(unit.command, (0.0, []))
            units.append(unit)
            claims[unit.command] = (score + weight, units)
        return claims

    def _order_weights(self, state: GameState) -> Mapping[UnitKind, float]:
        """What a unit of each kind adds to its command's claim on an order (any other
        kind 1)."""
        return ORDER_WEIGHT

    def _plan_move(self, game: Game, state: GameState, unit: Unit) -> Move | None:
        if unit.kind is UnitKind.COMMANDER:
            return self._commander_move(game, state, unit)
        if has_enemy_troops_within(state, unit, ENGAGE):
            return None
        return self._move_to(game, state, unit, self._goal(state, unit))

    def _move_to(self, game: Game, state: GameState, unit: Unit, goal: Point | None) -> Move | None:
        """A troop unit free of the enemy: its move towards ``goal`` (:meth:`_goal`), none
        without one; guns that have fired only pivot to face it (Artillery)."""
        if goal is None:
            return None
        allowance = profile(unit.kind).move
        if unit.kind is UnitKind.ARTILLERY:
            if piece(unit).fired:
                return pivot_to(game, state, unit, bearing_to(unit, goal))
            allowance = 3.0
        return advance_on(game, state, unit, goal, allowance, past_touching=self.PAST_TOUCHING)

    def _goal(self, state: GameState, unit: Unit) -> Point | None:
        """Horse make for the enemy horse, or for the enemy's supplies when no enemy horse is
        within 22"; foot and commanded shot advance as a line on the enemy foot; anything
        else makes for the nearest enemy (:mod:`tertia.ai.targets`)."""
        if next(state.iter_troops(state.opponent(unit.side)), None) is None:
            return None
        if unit.kind is UnitKind.HORSE:
            horse = nearest_enemy(state, unit.side, unit.x, unit.y, horse=True)
            supplies = [s for s in supplies_of(state) if s.in_play and s.side != unit.side]
            if supplies and (horse is None or hypot(horse.x - unit.x, horse.y - unit.y) > 22.0):
                s = min(supplies, key=lambda s: hypot(s.x - unit.x, s.y - unit.y))
                return (s.x, s.y)
            target = horse
        elif unit.kind in (UnitKind.FOOT, UnitKind.COMMANDED_SHOT):
            found = line_goal(state, unit, on_foot=True)
            return None if found is None else found[0]
        else:
            target = None
        if target is None:
            target = nearest_enemy(state, unit.side, unit.x, unit.y)
        return None if target is None else (target.x, target.y)

    def _commander_move(self, game: Game, state: GameState, unit: Unit) -> Move | None:
        friends = [u for u in state.iter_troops(unit.side) if can_attack(u)]
        engaged = [u for u in friends if has_enemy_troops_within(state, u, ENGAGE)]
        own = [u for u in engaged if u.command == unit.command] or engaged
        if own:
            spot = min(own, key=lambda u: (hypot(u.x - unit.x, u.y - unit.y), u.id))
        else:
            command = [u for u in friends if u.command == unit.command] or friends
            if not command:
                return None
            spot = min(command, key=lambda u: (hypot(u.x - unit.x, u.y - unit.y), u.id))
        back = radians(spot.facing + 180.0)
        goal = (spot.x + math.sin(back) * 3.0, spot.y + math.cos(back) * 3.0)
        if hypot(goal[0] - unit.x, goal[1] - unit.y) < COMMANDER_SETTLED:
            return None
        return move_towards(game, state, unit, goal, profile(UnitKind.COMMANDER).move,
                            obstacles=supply_bases(state))

    # --- bombardment -----------------------------------------------------------------------

    def _guns_worth_an_order(self, game: Game, state: GameState) -> bool:
        """Is an order to be kept for the guns this phase? Where the rough look finds a
        target for one."""
        return self._guns_may_fire(state)

    def _guns_may_fire(self, state: GameState) -> bool:
        """Worth keeping an order for the guns? A rough look (range and facing only): the
        bombardment phase asks the rules properly."""
        enemies = list(state.iter_troops(state.opponent(state.active)))
        return any(
            _in_reach(gun, e) and _ahead(gun, e)
            for gun in state.iter_troops(state.active) if gun.kind is UnitKind.ARTILLERY
            for e in enemies
        )

    def _guns_with_targets(self, game: Game, state: GameState) -> list[Bombard]:
        """The best legal shot of each gun that has one."""
        probe = state.evolve(phase="bombardment", marks={
            **state.marks, "ordered_bombard": (*state.marked("ordered_bombard"), f"{state.active}:artillery"),
        })
        shots: list[Bombard] = []
        for gun in state.iter_troops(state.active):
            if gun.kind is not UnitKind.ARTILLERY or state.is_marked("bombarded", gun.id):
                continue
            targets = [
                Bombard(gun=gun.id, target=e.id) for e in state.iter_troops(state.opponent(gun.side))
                if _in_reach(gun, e) and _ahead(gun, e)
            ]
            # The most promising target first; the first the rules allow is the one.
            targets.sort(key=lambda b: self._target_priority(game, state, b.target))
            shot = next((b for b in targets if game.is_legal(probe, b)), None)
            if shot is not None:
                shots.append(shot)
        return shots

    def _target_priority(self, game: Game, state: GameState, target_id: str) -> tuple[int, str]:
        t = state.units[target_id]
        left = hit_limit(game.table, state, t, game.ruleset.options).value - piece(t).hits
        return (left, target_id)

    def _bombardment(self, game: Game, state: GameState) -> Action:
        # Targets are chosen once a phase: a bombardment only ever removes targets.
        if self._shots is None:
            self._shots = self._guns_with_targets(game, state)
        shots = self._shots
        ready = next((b for b in shots if game.is_legal(state, b)), None)
        if ready is not None:
            return ready
        if shots and orders_left(state) > 0:
            order = GiveOrder(target="artillery", purpose="bombard")
            if game.is_legal(state, order):
                return order
            for b in shots:
                single = GiveOrder(target=b.gun, purpose="bombard")
                if game.is_legal(state, single):
                    return single
        return EndPhase()

    # --- combat ----------------------------------------------------------------------------

    def _combat(self, game: Game, state: GameState) -> Action:
        """The phase's attacks, planned and declared together (as the rules ask), then
        fought in the order declared; then the phase ends."""
        if state.is_marked(DECLARED, state.active):
            left = declared_attacks(state)
            return left[0] if left else EndPhase()
        plan = self._plan_attacks(game, state)
        return DeclareAttacks(attacks=tuple(plan)) if plan else EndPhase()

    def _plan_attacks(self, game: Game, state: GameState) -> list[Attack]:
        """The most valuable attack first, then the next among the units left, each with
        every support the rules allow beside the attacks already planned; a flank attacker
        only joins a target nobody else attacks. The whole plan is checked at the end,
        dropping attacks from the last until the rules allow it."""
        pairs = [
            (attacker, target)
            for attacker in state.iter_troops(state.active) if can_attack(attacker)
            for target in iter_enemy_troops_within(state, attacker, ENGAGE)
            if game.is_legal(state, Attack(attacker=attacker.id, target=target.id))
        ]
        plan: list[Attack] = []
        used: set[str] = set()
        leaders: set[str] = set()
        # Each round of the plan asks again of the same pairs: what depends only on the
        # position is worked out once, and a pair's attack again only when the round
        # before planned an attack with a piece it bears on (_Known.bearing).
        known = _Known(state, state.active)
        values: dict[Attack, float] = {}
        offers: list[tuple[float, Attack] | None] = [None] * len(pairs)
        watchers: dict[str, list[int]] = {}
        for i, (attacker, target) in enumerate(pairs):
            for piece_id in (attacker.id, *known.bearing(target)):
                watchers.setdefault(piece_id, []).append(i)
        stale: Iterable[int] = range(len(pairs))
        while True:
            for i in stale:
                attacker, target = pairs[i]
                attack = self._attack_beside(game, state, plan, used, attacker, target, known)
                if attack is None:
                    offers[i] = None
                    continue
                value = values.get(attack)
                if value is None:
                    value = values[attack] = self._attack_value(game, state, attack)
                offers[i] = (value, attack)
            best: tuple[float, Attack] | None = None
            for offer in offers:
                if offer is not None and offer[0] > 0 and (best is None or offer[0] > best[0]):
                    best = offer
            if best is None:
                break
            attack = best[1]
            commander = self._commander_for(state, attack, leaders)
            if commander is not None:
                leaders.add(commander)
                attack = Attack(attack.attacker, attack.target, attack.supports, commander)
            plan.append(attack)
            used.update((attack.attacker, *attack.supports))
            stale = sorted({i for piece_id in (attack.target, attack.attacker, *attack.supports)
                            for i in watchers.get(piece_id, ())})
        while plan and not game.is_legal(state, DeclareAttacks(attacks=tuple(plan))):
            plan.pop()
        return plan

    def _attack_beside(
        self, game: Game, state: GameState, plan: list[Attack], used: set[str], attacker: Unit,
        target: Unit, known: _Known,
    ) -> Attack | None:
        """``attacker``'s attack on ``target`` with every support still free, or None."""
        if attacker.id in used or not known.survives(game, attacker):
            return None
        flank = is_flanking(attacker, target)
        if any(p.target == target.id and (flank or is_flanking(state.units[p.attacker], target))
               for p in plan):
            return None
        targets = {p.target for p in plan}
        supports = tuple(
            u.id for u in known.near(target)
            if u.id != attacker.id and u.id not in used
            and not (flank and not is_flanking(u, target))
            and support_bar(state, u, target, targets) is None
            and known.survives(game, u)
        )
        return Attack(attacker.id, target.id, supports)

    @staticmethod
    def _survives_fighting(game: Game, state: GameState, unit: Unit) -> bool:
        """Would the unit still stand once it fights (leaving a river bank or cover)?"""
        if not piece(unit).hits:
            return True
        fought = state.with_mark("supported", unit.id)
        limit = hit_limit(game.table, fought, fought.units[unit.id], game.ruleset.options)
        return limit.value > piece(unit).hits

    def _commander_for(self, state: GameState, attack: Attack, taken: set[str]) -> str | None:
        """A commander (never the general) the rules let encourage this attack, and not
        already leading another; the whole plan is still checked before it is declared."""
        attacker, target = state.units[attack.attacker], state.units[attack.target]
        if not can_be_encouraged(attacker):
            return None
        eligible = iter_eligible_commanders(state, state.active, (attacker, target))
        return next((c.id for c in eligible if not piece(c).general and c.id not in taken), None)

    def _attack_value(self, game: Game, state: GameState, attack: Attack) -> float:
        opts = game.ruleset.options
        a_mod = total(attacker_modifiers(state, attack, opts))
        d_mod = total(defender_modifiers(state, attack, None, opts))
        win, lose = win_lose(a_mod, d_mod)
        a = state.units[attack.attacker]
        t = state.units[attack.target]
        t_left = hit_limit(game.table, state, t, opts).value - piece(t).hits
        a_left = hit_limit(game.table, state, a, opts).value - piece(a).hits
        return win / max(t_left, 1) - lose / max(a_left, 1) + 0.01

    def _encourage(self, game: Game, state: GameState) -> Action:
        assert state.pending is not None
        eligible: Iterable[str] = state.pending.get("eligible", ())
        for cid in eligible:
            if not piece(state.units[cid]).general:
                return Encourage(commander=cid)
        return Encourage(commander=None)

