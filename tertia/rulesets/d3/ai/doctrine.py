"""The doctrine the D3 rule sets share, first edition (the ``baseline`` player; the second,
:mod:`~tertia.rulesets.d3.ai.doctrine2`, is the doctrine): the battle as the period fought
it. Guns fire first, the wings of horse charge what they can reach (a flank or rear for
choice), the foot advance as a line to musket range and shoot, units in contact fight.
Each rule set completes it in its own package: how its shots are judged, ``d3-commands``'
card order, deployment and cohesion, ``d3-cards``' commanders' rallies.

It decides from its own side's observation only (``Game.observe``): the other side's
card order is hidden there, so nothing it does can depend on it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from tertia.activation import unit_type_deck
from tertia.activation.command_cards import played as cards_played
from tertia.ai.moves import bearing_to, move_towards
from tertia.ai.observation import playable_view
from tertia.ai.targets import goal, nearest_enemy
from tertia.core.actions import Action, EndPhase, Move
from tertia.core.game import Game
from tertia.core.geometry import Face, Point, angle_between, face_towards, is_in_arc
from tertia.core.state import GameState, Unit, UnitKind
from tertia.rules.fighting import Attack, Shoot
from tertia.rules.hits import piece
from tertia.rules.measuring import distance
from tertia.rules.modifiers import Modifier, total
from tertia.rules.movement import plan_move
from tertia.rulesets.d3 import weather
from tertia.rulesets.d3.ai.proposals import activated, charge_blockers, charge_towards
from tertia.rulesets.d3.base import D3RuleSet
from tertia.rulesets.d3.contact import enemy_contacts, face_attacked
from tertia.rulesets.d3.hits import rout_after
from tertia.rulesets.d3.troops import MOVE, can_charge, has_muskets

MUSKET_STANDOFF = 10.0
"""Foot advance to about 10" from their target: in range, short of contact."""
PIVOT_BEFORE = 25.0
"""Degrees off the goal before a unit pivots rather than sliding obliquely."""
CHARGE_WORTH = 0.6
"""The least a charge must be worth (expected hits, weighed) to be made."""


def expected_d3(modifiers: Sequence[Modifier], doubled: bool = False) -> float:
    """Mean hits of a D3 (1,1,2,2,3,3) with modifiers, never below nothing.

    >>> expected_d3([Modifier(-1, "x")])
    1.0
    """
    net = total(modifiers)
    mean = sum(max(0, face + net) for face in (1, 2, 3)) / 3.0
    return mean * (2 if doubled else 1)


class D3Doctrine:
    """Plays either side of a D3 rule set legally and sensibly, with what the rule set's
    own doctrine adds (a subclass in its package). It remembers, within one activation,
    which units it has finished with; that memory is keyed by the activation and never
    affects legality."""

    name = "doctrine"

    def __init__(self) -> None:
        self._key: tuple[object, ...] | None = None
        self._done: set[str] = set()
        self._last_step = -1

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        view = playable_view(game, state, rng)
        if view.pending is not None:
            return self._answer(game, view, rng)
        if view.phase != "activation":
            return EndPhase()
        self._remember(game, view)
        units = [u for u in activated(game, view) if u.id not in self._done]
        units.sort(key=lambda u: (self._nearest_enemy_distance(view, u), u.id))
        for unit in units:
            action = self._unit_action(game, view, unit)
            if action is not None:
                return action
            self._done.add(unit.id)
        return EndPhase()

    def _remember(self, game: Game, view: GameState) -> None:
        played = len(unit_type_deck.drawn(view)) + len(cards_played(view, view.active))
        card = game.ruleset.active_card(view) if isinstance(game.ruleset, D3RuleSet) else None
        key = (view.turn, view.active, card, played)
        went_back = view.step < self._last_step
        self._last_step = view.step
        if key != self._key or went_back:
            self._key = key
            self._done = set()

    # --- what each rule set adds ----------------------------------------------------------

    def _answer(self, game: Game, view: GameState, rng: random.Random) -> Action:
        """The answer to a decision the rules await: the rule set's own doctrine gives it
        (the shared rules await none)."""
        return EndPhase()

    def _shot_hits(self, game: Game, view: GameState, unit: Unit, target: Unit) -> float:
        """The hits a shot of ``unit`` at ``target`` may be expected to inflict, by the rule
        set's own shooting."""
        raise NotImplementedError(f"{type(self).__name__} does not judge shots")

    def _charge_value(self, game: Game, target: Unit, value: float) -> float:
        """What a charge at ``target`` is worth, given the expected hits' ``value``."""
        return value

    def _keeps_together(self, game: Game, view: GameState, unit: Unit, move: Move) -> bool:
        """Whether ``move`` keeps ``unit`` where the rule set wants it among its friends."""
        return True

    def _commander(self, game: Game, view: GameState, unit: Unit) -> Action | None:
        """What an activated commander does (the shared rules give him nothing to do)."""
        return None

    # --- one unit ------------------------------------------------------------------------

    def _unit_action(self, game: Game, view: GameState, unit: Unit) -> Action | None:
        if any(view.is_marked(m, unit.id) for m in ("shot", "meleed", "withdrew", "rallied")):
            return None
        if unit.is_commander:
            return self._commander(game, view, unit)
        contacts = enemy_contacts(view, unit)
        if contacts:
            return self._melee(game, view, unit, contacts)
        shot = self._best_shot(game, view, unit)
        if view.is_marked("moved", unit.id):
            return shot[1] if shot else None
        return self._unmoved_action(game, view, unit, shot)

    def _unmoved_action(self, game: Game, view: GameState, unit: Unit,
                        shot: tuple[float, Shoot] | None) -> Action | None:
        """What a unit not yet moved, out of contact, does with ``shot`` its best shot
        (its worth and the order): the charge worth more, else the shot, else an advance."""
        charge = self._best_charge(game, view, unit) if can_charge(unit) else None
        if charge and (not shot or charge[0] > shot[0]):
            return charge[1]
        if shot:
            return shot[1]
        return self._advance(game, view, unit)

    def _melee(self, game: Game, view: GameState, unit: Unit, contacts: Sequence[Unit]) -> Action | None:
        ruleset = _rules(game)
        best: tuple[float, str, Attack] | None = None
        for e in contacts:
            attack = Attack(attacker=unit.id, target=e.id)
            if not game.is_legal(view, attack):
                continue
            mods = ruleset.melee_modifiers(game.table, view, unit, e)
            value = self._worth(game, e, expected_d3(mods, face_attacked(e, unit) is not Face.FRONT))
            if best is None or (value, e.id) > best[:2]:
                best = (value, e.id, attack)
        return best[2] if best else None

    def _worth(self, game: Game, target: Unit, hits: float) -> float:
        """Expected hits, weighted towards finishing a unit off."""
        left = rout_after(game.ruleset.options) + 1 - piece(target).hits
        bonus = 1.5 if hits >= left else 1.0
        return hits * bonus + (0.3 if target.kind is UnitKind.ARTILLERY else 0.0)

    # --- shooting ------------------------------------------------------------------------

    def _tie(self, uid: str) -> float:
        """What the player's liking for ``uid`` as a target adds to a blow at it (none: the
        first edition settles ties by the target's id alone)."""
        return 0.0

    # --- shooting ------------------------------------------------------------------------

    @staticmethod
    def _shoots(unit: Unit) -> bool:
        return has_muskets(unit) or unit.kind is UnitKind.ARTILLERY

    def _targets(self, game: Game, view: GameState, unit: Unit) -> list[Unit]:
        """Enemy troops within ``unit``'s reach and field of fire."""
        if not self._shoots(unit):
            return []
        reach = _rules(game).shot_reach(game.table, view, unit)
        enemy = view.opponent(unit.side)
        return [e for e in view.near(unit.x, unit.y, unit.x, unit.y, reach + unit.base.radius)
                if e.side == enemy and not e.is_commander
                and math.hypot(e.x - unit.x, e.y - unit.y) <= reach + unit.base.radius + e.base.radius
                and is_in_arc(unit.base, e.base, 45.0)]

    def _shot_worth(self, game: Game, view: GameState, unit: Unit, target: Unit) -> float | None:
        """What a shot of ``unit``'s at ``target`` is worth, or None when it is not worth
        firing: its expected hits, weighted towards finishing a unit off."""
        value = self._worth(game, target, self._shot_hits(game, view, unit, target))
        return value if value > 0.0 else None

    def _best_shot(self, game: Game, view: GameState, unit: Unit) -> tuple[float, Shoot] | None:
        """The legal shot of greatest (worth, target id), if any is worth firing: each shot
        weighed first, then the rules asked of them best first, until one is allowed."""
        shots: list[tuple[float, str, Shoot]] = []
        for e in self._targets(game, view, unit):
            value = self._shot_worth(game, view, unit, e)
            if value is not None:
                shots.append((value + self._tie(e.id), e.id, Shoot(unit=unit.id, target=e.id)))
        shots.sort(key=_value_and_id, reverse=True)
        return next(((value, shot) for value, _, shot in shots if game.is_legal(view, shot)), None)

    # --- charging ------------------------------------------------------------------------

    def _charge_targets(self, game: Game, view: GameState, unit: Unit) -> list[Unit]:
        """Enemy troops within ``unit``'s charge move."""
        reach = MOVE[unit.kind] * weather.movement_factor(view)
        enemy = view.opponent(unit.side)
        return [e for e in view.near(unit.x, unit.y, unit.x, unit.y, reach + unit.base.radius)
                if e.side == enemy and not e.is_commander
                and math.hypot(e.x - unit.x, e.y - unit.y) <= reach + unit.base.radius + e.base.radius]

    def _best_charge(self, game: Game, view: GameState, unit: Unit) -> tuple[float, Move] | None:
        targets = self._charge_targets(game, view, unit)
        blockers = charge_blockers(view, unit, targets)
        # The allowed charge of greatest (value, target id), if worth making: each charge
        # weighed first, then the rules asked of them best first, until one is allowed.
        charges: list[tuple[float, str, Move]] = []
        for e in targets:
            for aim in _face_centres(e):
                move = charge_towards(view, unit, e, aim, blockers)
                if move is not None:
                    worth = self._charge_worth(game, view, unit, e, move)
                    charges.append((worth + self._tie(e.id), e.id, move))
        charges.sort(key=_value_and_id, reverse=True)
        for value, _, move in charges:
            if value < CHARGE_WORTH:
                return None
            if game.is_legal(view, move) and self._keeps_together(game, view, unit, move):
                return value, move
        return None

    def _charge_worth(self, game: Game, view: GameState, unit: Unit, target: Unit, move: Move) -> float:
        """What ``move``, a charge of ``unit`` at ``target``, is worth: the hits expected
        of the melee where it ends, weighed as the rule set weighs a charge."""
        end = plan_move(unit, move).end
        there = unit.evolve(x=end.x, y=end.y, facing=end.facing)
        mods = _rules(game).melee_modifiers(game.table, view, there, target)
        flank = face_towards(target.base, (end.x, end.y)) is not Face.FRONT
        return self._charge_value(game, target, self._worth(game, target, expected_d3(mods, flank)))

    # --- advancing -----------------------------------------------------------------------

    def _advance(self, game: Game, view: GameState, unit: Unit) -> Move | None:
        if unit.kind is UnitKind.ARTILLERY and (piece(unit).fired or weather.guns_bogged(view)):
            return None
        goal, target = self._goal(view, unit)
        if goal is None or target is None:
            return None
        gap = distance(unit, target)
        heading = bearing_to(unit, goal)
        turn = angle_between(heading, unit.facing)
        in_reach = gap <= MUSKET_STANDOFF + 1.0 if has_muskets(unit) else (
            unit.kind is UnitKind.ARTILLERY and gap <= _rules(game).shot_reach(game.table, view, unit))
        if in_reach:
            # Close enough to shoot but no shot: face the enemy for the next activation.
            facing = bearing_to(unit, (target.x, target.y))
            return self._pivot(game, view, unit, facing) if turn > 20.0 else None
        allowance = MOVE[unit.kind] * weather.movement_factor(view)
        span = gap - MUSKET_STANDOFF if has_muskets(unit) else allowance
        face: float | None = None
        if turn > PIVOT_BEFORE:
            face, allowance = heading, allowance - _rules(game).move_rules().pivot_cost
        reach = min(allowance, max(span, 0.0))
        for fraction in (1.0, 0.75, 0.5, 0.25):
            move = self._move_towards(game, view, unit, goal, reach * fraction, face=face)
            if move is not None and self._keeps_together(game, view, unit, move):
                return move
        return self._pivot(game, view, unit, heading) if face is not None else None

    def _pivot(self, game: Game, view: GameState, unit: Unit, heading: float) -> Move | None:
        move = Move(unit=unit.id, waypoints=(), face_before=heading)
        if game.is_legal(view, move) and self._keeps_together(game, view, unit, move):
            return move
        return None

    def _move_towards(self, game: Game, view: GameState, unit: Unit, goal: Point, reach: float,
                      face: float | None = None) -> Move | None:
        """The longest legal straight move of ``unit`` towards ``goal``, up to ``reach``
        (pivoting first to ``face``, if given): :func:`~tertia.ai.moves.move_towards`."""
        return move_towards(game, view, unit, goal, reach, face=face)

    def _goal(self, view: GameState, unit: Unit) -> tuple[Point | None, Unit | None]:
        """Where ``unit`` advances to, and the enemy it makes for (:func:`goal`)."""
        found = goal(view, unit)
        return (None, None) if found is None else found

    @staticmethod
    def _nearest_enemy_distance(view: GameState, unit: Unit) -> float:
        """The distance between centres to the nearest enemy troop. Remembered until a
        piece moves, arrives or leaves within that distance of the unit (which any piece
        that could be nearer, or the nearest itself, does): an activation sorts all its
        units by it before each action."""
        key = (_NEAREST_ENEMY, unit.id)
        found: float | None = view.recall(key, unit)
        if found is None:
            nearest = nearest_enemy(view, unit.side, unit.x, unit.y)
            found = math.inf if nearest is None else math.hypot(nearest.x - unit.x, nearest.y - unit.y)
            view.remember(key, unit, found, found)
        return found


_NEAREST_ENEMY = "d3 doctrine nearest enemy"


def _rules(game: Game) -> D3RuleSet:
    ruleset = game.ruleset
    assert isinstance(ruleset, D3RuleSet)
    return ruleset


def _value_and_id(option: tuple[float, str, Action]) -> tuple[float, str]:
    """How a doctrine ranks the options it weighs: by value, then by target id."""
    return option[0], option[1]


FACES = (Face.REAR, Face.FRONT, Face.RIGHT, Face.LEFT)
"""The faces whose middles :func:`_face_centres` gives, in its order."""


def _face_centres(target: Unit) -> list[Point]:
    """The middle of each face (:data:`FACES`): where a charge may aim."""
    fl, fr, rr, rl = target.base.corners()
    return [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in ((rr, rl), (fl, fr), (fr, rr), (rl, fl))]
