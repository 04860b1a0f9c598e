"""The doctrine the D3 rule sets share, second edition: the ``doctrine`` player of
``d3-cards`` and ``d3-commands`` since it beat the first, which stays the ``baseline``
(``tertia ladder``). The first edition's general (:mod:`~tertia.rulesets.d3.ai.doctrine`),
who now weighs a blow by the chance it routs its target and what it costs him:

- **Blows weighed by routs.** A unit counts for a victory point only once it exceeds its
  hits and routs (Routing; ``d3.victory``), so a melee, a charge or a shot is worth its
  expected hits and a point's worth more by the chance it routs the target; and a hit is
  worth more on a unit already worn (:data:`ON_THE_WORN`), so blows go where a rout is
  nearest rather than spread over fresh units that commanders rally.
- **Charges weighed against the return blow.** Melee is one-sided (Units only inflict hits
  during their activation): the unit charged strikes back on its own card. Where that
  blow would not come anyway (the target neither in melee already nor able to charge or
  shoot the charger where it stands), half of it counts against the charge; so does half
  of what the charge lays the unit open to from a third enemy still to act (a flank, for
  choice). Engaging an enemy free to charge counts half of what it could do to a friend
  within its reach (a unit in melee may only fight or withdraw).
- **Shots weighed against the ammunition they spend.** Every shot risks the shooter's
  ammunition (a shortage marker in ``d3-cards``; running out, and a gun leaving the field,
  in ``d3-commands``): each rule set prices that risk, and a shot worth less than a poor
  one is not fired. A shooter whose ammunition is spent closes with the enemy to charge
  if it may charge (Foot), else keeps out of the reach of enemies who could charge it.
- **Withdrawing from a losing melee** ("Units may withdraw from a melee"): when the
  enemy's next blows would probably rout the unit, or are worth much more than its own
  (Horse against Foot), unless its own blow probably routs an enemy, and only when the
  withdrawal takes it beyond the charge of every enemy touching it.
- **The first blow.** An advancing unit does not end its move where an enemy whose card
  is still to come this turn (so who surely acts before the unit does again) could charge
  it, or move and shoot it, with a blow at least as good as its own answer, reckoned
  where the unit would stand (in cover or out of it): it stops short, and the enemy must
  come into its reach. Once that card is played the unit closes: the battle is to be
  decided, not waited out. A unit that may not charge (Dragoons), or a charger badly
  outmatched, falls back beyond the charge of such an enemy when it can get clear.
- **Reserves committed.** Horse make for enemies no friend is attacking (the first
  edition's made for the nearest enemy horse even when a friend already held it in melee,
  where no second attacker may engage it); a unit coming up from behind whose way is
  blocked by friends goes round them instead of standing behind them. Horse whose enemy
  is in melee with friends (so a straight charge at it would stop on them) come up
  instead to a point out from a face no friend touches, a flank or rear for choice
  (:meth:`_launch_point`), arrive facing the enemy (a charge may turn only so far), and
  charge from there.
- **Lines that touch.** A unit the first edition finds no way for, because neighbours it
  touches in line stand at its shoulders (foot deployed shoulder to shoulder, guns in the
  intervals of the foot), measures its way again as its neighbours only touch it and goes
  straight on (:meth:`_move_towards`); the first edition's such units never move.
- **Openings varied.** Near-equal choices (blows within :data:`VALUE_TIE` of each other,
  enemy horse within :data:`DISTANCE_TIE` of each other) go by a preference among the
  enemy's pieces drawn once a battle from the player's own random stream, not by name.

Everything else is the first edition's. Every action is still judged by the rules before
it is chosen.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from tertia.ai.moves import (
    ENEMY_CLEARANCE,
    bearing_to,
    gain,
    move_past_touching,
    round_friends,
    step_aside,
)
from tertia.core.actions import Action, Move
from tertia.core.game import Game
from tertia.core.geometry import Face, Point, angle_between, bearing, face_towards, point_segment_distance
from tertia.core.state import GameState, Unit, UnitKind
from tertia.rules.fighting import Attack, Shoot
from tertia.rules.hits import piece
from tertia.rules.modifiers import Modifier, total
from tertia.rules.movement import plan_move
from tertia.rulesets.d3 import weather
from tertia.rulesets.d3.ai.doctrine import (
    CHARGE_WORTH,
    FACES,
    MUSKET_STANDOFF,
    PIVOT_BEFORE,
    D3Doctrine,
    _face_centres,
    _rules,
)
from tertia.rulesets.d3.contact import charger_between, enemy_contacts, face_attacked
from tertia.rulesets.d3.hits import rout_after
from tertia.rulesets.d3.troops import MOVE, can_charge, has_muskets

ROUT_WORTH = 4.0
"""A rout in hits: a victory point, and the end of the unit's part in the battle."""
ON_THE_WORN = 2.0
"""How much more a hit is worth on a unit that has taken all the hits it can hold than
on a fresh one, rising evenly between: each brings its rout (a victory point, Routing)
nearer, and a commander's rally takes hits off one at a time, so blows spread over many
units rout none. Measured against the random player at Chalgrove (d3-cards, Parliament,
200 games, seed 2110): 182 wins and 16 draws -> 189 and 11 (seed 2111, 400 games: 372
and 25 -> 381 and 17); 1.0 gave 185 and 15."""
GUN_WORTH = 0.3
"""What the first edition adds for a gun as target, kept."""
RETURN_SHARE = 0.5
"""How much of the blow a charged unit will strike back counts against the charge."""
EXPOSURE_SHARE = 0.5
"""How much of the blow a charge lays its unit open to from a third enemy counts against it."""
PIN_SHARE = 0.5
"""How much of the blow a charged unit could otherwise land on a friend counts for the
charge that engages it."""
POOR_SHOT = 0.3
"""A shot worth less than this (hits, weighed, less the ammunition it risks) is not fired."""
WITHDRAW_AT = 0.5
"""A unit withdraws when the enemy's next blow routs it at least this often."""
OUTMATCHED = 0.75
"""A unit withdraws when the blows it will take are worth this much more than its own."""
REACH_SLACK = 1.0
"""Inches beyond a charger's move within which it is reckoned able to reach a unit."""
VALUE_TIE = 0.01
"""Hits of worth within which two blows are a toss-up, settled by the player's preference
for one target over another, drawn once a battle from its own random stream."""
DISTANCE_TIE = 1.0
"""Inches within which two enemy horse are equally near, settled the same way."""
MUSKET_REACH = 12.0
"""Muskets reach 12" in both texts."""
RESERVE_FROM = 24.0
"""Inches (centre to centre) from the nearest enemy beyond which a unit is coming up from
behind, and may go round friends in its way."""
SIDESTEP = 4.0
"""Inches a unit boxed in by friends steps aside: a unit's frontage."""
FLANK_FIRST = 6.0
"""Inches farther a charger will go to strike an enemy's flank or rear rather than its
front, where its blow is doubled (Melee 3)."""
LAUNCH_GAP = 1.0
"""Inches beyond 3" of the face to be charged (and its own half-diagonal) at which a
charger coming up stands, at the nearest."""
LAUNCH_STEP = 2.0
"""Inches farther out at a time a charger coming up stands, until its way there keeps 3"
from the enemy."""
ARRIVED = 1.5
"""Inches within which a charger stands at its point to charge from."""
SQUARED = 1.5
"""Degrees within which a charger at its point to charge from faces its enemy."""


Threat = tuple[Unit, tuple[float, ...]]
"""An enemy and the hits of its blow (each face equally likely)."""


def d3_faces(modifiers: Sequence[Modifier], doubled: bool = False) -> tuple[float, ...]:
    """The hits of each equally likely face of a D3 (1, 2, 3) with modifiers, never below
    nothing, doubled for a flank or rear attack (Melee 3).

    >>> d3_faces([Modifier(-1, "x")], doubled=True)
    (0, 2, 4)
    """
    net = total(modifiers)
    return tuple(max(0, face + net) * (2 if doubled else 1) for face in (1, 2, 3))


def mean(outcomes: Sequence[float]) -> float:
    return sum(outcomes) / len(outcomes) if outcomes else 0.0


class D3Doctrine2(D3Doctrine):
    """The shared doctrine, second edition (see the module's note); each rule set's own
    second edition puts it before its first edition's doctrine."""


    def __init__(self) -> None:
        super().__init__()
        self._liking: dict[str, float] | None = None
        """The player's preference for each piece as a target, drawn once a battle."""
        self._reckoned: dict[tuple[int, str, str], tuple[float, bool]] = {}
        self._unattacked_at: tuple[tuple[int, str], list[Unit]] | None = None
        self._widest_base: float | None = None
        self._target_limit: bool | None = None
        self._chargers_at: tuple[tuple[int, str], list[Threat]] | None = None
        self._table_size: tuple[float, float] | None = None

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        if self._liking is None:
            self._liking = {uid: rng.random() for uid in sorted(state.units)}
            self._table_size = (game.table.width, game.table.depth)
        return super().choose(game, state, rng)

    def _liked(self, uid: str) -> float:
        """The player's preference for ``uid`` as a target this battle, from 0 to 1."""
        return (self._liking or {}).get(uid, 0.0)

    def _tie(self, uid: str) -> float:
        """What the player's preference for ``uid`` as a target adds to a blow at it:
        enough to settle a toss-up, never to overturn a real difference."""
        return VALUE_TIE * self._liked(uid)

    # --- weighing blows -------------------------------------------------------------------

    def _hits_left(self, game: Game, unit: Unit) -> int:
        """Hits ``unit`` may still take before it routs."""
        return rout_after(game.ruleset.options) + 1 - piece(unit).hits

    def _blow_worth(self, game: Game, target: Unit, outcomes: Sequence[float]) -> float:
        """The expected hits of equally likely ``outcomes``, each worth more the more hits
        ``target`` has taken already (:data:`ON_THE_WORN`), a rout's worth times the
        chance they rout it, and for a gun the first edition's bonus times the chance of
        a hit."""
        left = self._hits_left(game, target)
        if not outcomes:
            return 0.0
        routs = sum(1 for h in outcomes if h >= left) / len(outcomes)
        gun = GUN_WORTH * sum(1 for h in outcomes if h > 0) / len(outcomes) if (
            target.kind is UnitKind.ARTILLERY) else 0.0
        worn = piece(target).hits / rout_after(game.ruleset.options)
        return mean(outcomes) * (1.0 + ON_THE_WORN * worn) + ROUT_WORTH * routs + gun

    def _melee_outcomes(self, game: Game, view: GameState, attacker: Unit, target: Unit,
                        doubled: bool) -> tuple[float, ...]:
        return d3_faces(_rules(game).melee_modifiers(game.table, view, attacker, target), doubled)

    # --- what each rule set adds ----------------------------------------------------------

    def _shot_outcomes(self, game: Game, view: GameState, unit: Unit, target: Unit) -> tuple[float, ...]:
        """Equally likely hits of a shot of ``unit`` at ``target``, by the rule set's own
        shooting."""
        raise NotImplementedError(f"{type(self).__name__} does not judge shots")

    def _ammunition_cost(self, game: Game, view: GameState, unit: Unit, target: Unit,
                         outcomes: Sequence[float]) -> float:
        """What a shot of ``outcomes`` risks of the shooter's ammunition, in hits (the rule
        set's own)."""
        return 0.0

    def _acts_first(self, game: Game, view: GameState, enemy: Unit) -> bool:
        """Will ``enemy`` surely be activated before the unit now acting is again: its
        card still to come this turn? (The rule set's own; yes by default.)"""
        return True

    def _eliminated_on_contact(self, target: Unit) -> bool:
        """Whether a charge that reaches ``target`` removes it outright."""
        return False

    # --- one unit ------------------------------------------------------------------------

    def _unmoved_action(self, game: Game, view: GameState, unit: Unit,
                        shot: tuple[float, Shoot] | None) -> Action | None:
        """As the first edition, but a unit that may not charge keeps out of reach unless
        its shot is worth half a rout; one that may, with no shot, evades a foe it is badly
        outmatched by; and muskets with no shot worth their ammunition close in to charge or
        fall back."""
        if not can_charge(unit) and (shot is None or shot[0] < ROUT_WORTH / 2):
            evade = self._evade(game, view, unit)
            if evade is not None:
                return evade
        charge = self._best_charge(game, view, unit) if can_charge(unit) else None
        if charge and (not shot or charge[0] > shot[0]):
            return charge[1]
        if can_charge(unit) and shot is None:
            evade = self._evade(game, view, unit, margin=OUTMATCHED)
            if evade is not None:
                return evade
        if shot:
            return shot[1]
        if self._shoots(unit) and not self._can_shoot(game, view, unit):
            # No shot worth its ammunition: close with the enemy, or keep out of his reach.
            return self._close_in(game, view, unit) if can_charge(unit) else self._fall_back(game, view, unit)
        return self._advance(game, view, unit)

    def _can_shoot(self, game: Game, view: GameState, unit: Unit) -> bool:
        """Is ``unit`` still able to fire shots worth their ammunition, when in reach?
        (The rule set's own; every shooter by default.)"""
        return True

    def _close_in(self, game: Game, view: GameState, unit: Unit) -> Move | None:
        """Straight at the enemy the unit makes for, as near as the rules allow, to charge
        on its next activation."""
        _, target = self._goal(view, unit)
        if target is None:
            return None
        reach = MOVE[unit.kind] * weather.movement_factor(view)
        heading = bearing_to(unit, (target.x, target.y))
        face = None if angle_between(heading, unit.facing) < PIVOT_BEFORE else heading
        move = self._move_towards(game, view, unit, (target.x, target.y), reach, face=face)
        return move if move is not None and self._keeps_together(game, view, unit, move) else None

    # --- melee ---------------------------------------------------------------------------

    def _melee(self, game: Game, view: GameState, unit: Unit, contacts: Sequence[Unit]) -> Action | None:
        best: tuple[float, str, Attack] | None = None
        blows = {e.id: self._melee_outcomes(game, view, unit, e, face_attacked(e, unit) is not Face.FRONT)
                 for e in contacts}
        for e in contacts:
            attack = Attack(attacker=unit.id, target=e.id)
            if not game.is_legal(view, attack):
                continue
            value = self._blow_worth(game, e, blows[e.id]) + self._tie(e.id)
            if best is None or (value, e.id) > best[:2]:
                best = (value, e.id, attack)
        withdraw = self._withdrawal(game, view, unit, contacts, blows)
        return withdraw or (best[2] if best else None)

    def _withdrawal(self, game: Game, view: GameState, unit: Unit, contacts: Sequence[Unit],
                    blows: dict[str, tuple[float, ...]]) -> Move | None:
        """Withdraw when the melee goes against ``unit``: the enemies' next blows probably
        rout it, or are worth more than its own best (``blows``, at each enemy) by
        :data:`OUTMATCHED`; but not when its own blow probably routs an enemy, nor unless
        the move takes it beyond every touching enemy's charge."""
        mine = 0.0
        for e in contacts:
            if sum(1 for h in blows[e.id] if h >= self._hits_left(game, e)) / 3.0 >= WITHDRAW_AT:
                return None
            mine = max(mine, self._blow_worth(game, e, blows[e.id]))
        left = self._hits_left(game, unit)
        danger, theirs = 0.0, 0.0
        for e in contacts:
            blow = self._melee_outcomes(game, view, e, unit, face_attacked(unit, e) is not Face.FRONT)
            danger = max(danger, sum(1 for h in blow if h >= left) / 3.0)
            theirs += self._blow_worth(game, unit, blow)
        if danger < WITHDRAW_AT and theirs < mine + OUTMATCHED:
            return None
        cx = sum(e.x for e in contacts) / len(contacts)
        cy = sum(e.y for e in contacts) / len(contacts)
        away = (unit.x - cx, unit.y - cy)
        span = math.hypot(*away)
        if span < 1e-6:
            return None
        reach = MOVE[unit.kind] * weather.movement_factor(view)
        goal = (unit.x + away[0] / span * reach, unit.y + away[1] / span * reach)
        if any(can_charge(e) and self._reaches(view, e, goal, unit.base.radius) for e in contacts):
            return None  # not even the whole move gets beyond their charge
        move = self._move_towards(game, view, unit, goal, reach)
        if move is None:
            return None
        end = plan_move(unit, move).end
        for e in contacts:
            if can_charge(e) and self._reaches(view, e, (end.x, end.y), unit.base.radius):
                return None
        return move

    @staticmethod
    def _reaches(view: GameState, enemy: Unit, at: Point, radius: float) -> bool:
        """Could ``enemy`` charge a unit of base radius ``radius`` standing at ``at``?"""
        reach = MOVE[enemy.kind] * weather.movement_factor(view) + REACH_SLACK
        return math.hypot(enemy.x - at[0], enemy.y - at[1]) - enemy.base.radius - radius <= reach

    # --- shooting ------------------------------------------------------------------------

    def _shot_worth(self, game: Game, view: GameState, unit: Unit, target: Unit) -> float | None:
        """Its blow less the ammunition it risks; not worth firing below a poor shot."""
        outcomes = self._shot_outcomes(game, view, unit, target)
        value = self._blow_worth(game, target, outcomes) - self._ammunition_cost(game, view, unit, target,
                                                                                  outcomes)
        return value if value >= POOR_SHOT else None

    def _fall_back(self, game: Game, view: GameState, unit: Unit) -> Move | None:
        """Out of the reach of every enemy that could charge ``unit``, straight away from
        the nearest of them; nothing when none could."""
        threats = [e for e in view.iter_troops(view.opponent(unit.side))
                   if can_charge(e) and self._reaches(view, e, (unit.x, unit.y), unit.base.radius)]
        if not threats or unit.kind is UnitKind.ARTILLERY:
            return None
        return self._away(game, view, unit, threats)

    def _evade(self, game: Game, view: GameState, unit: Unit, margin: float = 0.0) -> Move | None:
        """Fall back beyond the reach of every enemy free to charge the unit whose card is
        still to come this turn and whose blow would outweigh its own by ``margin`` (none,
        for a unit that may not charge: Dragoons, Commanded Shot); nothing when none
        threatens, or the unit cannot get clear of them all."""
        if unit.kind is UnitKind.ARTILLERY:
            return None
        radius = unit.base.radius
        # no charger reaches farther than a Horse's move
        farthest = MOVE[UnitKind.HORSE] * weather.movement_factor(view) + REACH_SLACK + radius
        if self._nearest_enemy_distance(view, unit) > farthest + self._widest(view):
            return None
        enemy = view.opponent(unit.side)
        threats = [e for e in view.near(unit.x, unit.y, unit.x, unit.y, farthest)
                   if e.side == enemy and can_charge(e) and self._reaches(view, e, (unit.x, unit.y), radius)
                   and self._acts_first(game, view, e) and not enemy_contacts(view, e)
                   and self._outstrikes(game, view, e, unit, margin)]
        if not threats:
            return None
        move = self._away(game, view, unit, threats)
        if move is None:
            return None
        end = plan_move(unit, move).end
        return None if any(self._reaches(view, e, (end.x, end.y), radius) for e in threats) else move

    def _widest(self, view: GameState) -> float:
        """The longest half-diagonal of any piece's base (bases keep their size all battle)."""
        if self._widest_base is None:
            self._widest_base = max((u.base.radius for u in view.units.values()), default=0.0)
        return self._widest_base

    def _away(self, game: Game, view: GameState, unit: Unit, threats: Sequence[Unit]) -> Move | None:
        """The unit's whole move straight away from the nearest of ``threats``, as far as
        the rules allow."""
        near = min(threats, key=lambda e: (math.hypot(e.x - unit.x, e.y - unit.y), e.id))
        away = (unit.x - near.x, unit.y - near.y)
        span = math.hypot(*away) or 1.0
        reach = MOVE[unit.kind] * weather.movement_factor(view)
        goal = (unit.x + away[0] / span * reach, unit.y + away[1] / span * reach)
        move = self._move_towards(game, view, unit, goal, reach)
        return move if move is not None and self._keeps_together(game, view, unit, move) else None

    def _outstrikes(self, game: Game, view: GameState, enemy: Unit, unit: Unit, margin: float = 0.0) -> bool:
        """Would ``enemy``'s melee blow at ``unit`` be worth at least ``unit``'s at it,
        and ``margin`` more? (A rout's worth, when its touch eliminates ``unit``.)"""
        if self._eliminated_on_contact(unit):
            return True
        theirs = self._blow_worth(game, unit, self._melee_outcomes(game, view, enemy, unit, False))
        mine = self._blow_worth(game, enemy, self._melee_outcomes(game, view, unit, enemy, False))
        return theirs >= mine + margin

    # --- charging ------------------------------------------------------------------------

    def _charge_targets(self, game: Game, view: GameState, unit: Unit) -> list[Unit]:
        """The first edition's, less those a friend already attacks where the rules allow
        "only one attacking unit" to "engage any given defending unit"."""
        targets = super()._charge_targets(game, view, unit)
        if targets and self._one_attacker(game):
            targets = [e for e in targets if _is_unattacked(view, e)]
        return targets

    def _one_attacker(self, game: Game) -> bool:
        """Does the rule set let only one attacker engage a defender, whatever its face?"""
        if self._target_limit is None:
            self._target_limit = _rules(game).move_rules().charge_limit == "target"
        return self._target_limit

    def _charge_worth(self, game: Game, view: GameState, unit: Unit, target: Unit, move: Move) -> float:
        """The blow the charge lands where it ends, less a share of the blow the target
        strikes back on its own activation if it survives, unless a blow from it comes
        anyway (:meth:`_strikes_anyway`), and less a share of what the charge lays the unit
        open to from other enemies (:meth:`_exposure`) beyond what it stands open to now."""
        end = plan_move(unit, move).end
        there = unit.evolve(x=end.x, y=end.y, facing=end.facing)
        if self._eliminated_on_contact(target):
            return ROUT_WORTH
        flank = face_attacked(target, there) is not Face.FRONT
        mine = self._melee_outcomes(game, view, there, target, flank)
        worth = self._blow_worth(game, target, mine)
        menace, anyway = self._about(game, view, target, unit)
        worth += PIN_SHARE * menace
        if not anyway:
            left = self._hits_left(game, target)
            survives = sum(1 for h in mine if h < left) / len(mine)
            back = self._melee_outcomes(game, view, target, there,
                                        face_attacked(there, target) is not Face.FRONT)
            worth -= RETURN_SHARE * survives * self._blow_worth(game, there, back)
        if worth < CHARGE_WORTH:
            return worth  # not made whatever else it risks
        exposed = (self._exposure(game, view, unit, there, target)
                   - self._exposure(game, view, unit, unit, target))
        return worth - EXPOSURE_SHARE * max(0.0, exposed)

    def _exposure(self, game: Game, view: GameState, unit: Unit, at: Unit, target: Unit) -> float:
        """The best blow an enemy other than ``target``, free to charge and with its card
        still to come this turn, could land on ``unit`` standing as ``at`` (doubled on a
        flank or rear it would reach)."""
        worst = 0.0
        for e, blow in self._chargers_against(game, view, unit):
            if e.id == target.id or not self._reaches(view, e, (at.x, at.y), at.base.radius):
                continue
            if face_towards(at.base, (e.x, e.y)) is not Face.FRONT:
                blow = tuple(2 * h for h in blow)
            worst = max(worst, self._blow_worth(game, unit, blow))
        return worst

    def _chargers_against(self, game: Game, view: GameState, unit: Unit) -> list[Threat]:
        """The enemies free to charge, with their cards still to come this turn, that could
        reach ``unit`` anywhere within its own move, each with its blow at the unit's
        front; reckoned once a position."""
        key = (view.step, unit.id)
        if self._chargers_at is not None and self._chargers_at[0] == key:
            return self._chargers_at[1]
        factor = weather.movement_factor(view)
        farthest = (MOVE[UnitKind.HORSE] + MOVE[unit.kind]) * factor + REACH_SLACK + unit.base.radius
        enemy = view.opponent(unit.side)
        found = [(e, self._melee_outcomes(game, view, e, unit, False))
                 for e in view.near(unit.x, unit.y, unit.x, unit.y, farthest)
                 if e.side == enemy and can_charge(e) and self._acts_first(game, view, e)
                 and not enemy_contacts(view, e)]
        self._chargers_at = (key, found)
        return found

    def _about(self, game: Game, view: GameState, enemy: Unit, unit: Unit) -> tuple[float, bool]:
        """``enemy``'s :meth:`_menace` to ``unit``'s friends and whether it
        :meth:`_strikes_anyway`, reckoned once a position for each charge aimed at it."""
        key = (view.step, enemy.id, unit.id)
        found = self._reckoned.get(key)
        if found is None:
            if self._reckoned and next(iter(self._reckoned))[0] != view.step:
                self._reckoned.clear()
            found = self._reckoned[key] = (self._menace(game, view, enemy, unit),
                                           self._strikes_anyway(game, view, enemy, unit))
        return found

    def _menace(self, game: Game, view: GameState, enemy: Unit, unit: Unit) -> float:
        """The best blow ``enemy``, free to charge, could land on a friend of ``unit`` within
        its reach (a rout's worth for one a touch eliminates): what engaging it prevents,
        since a unit in melee may only fight or withdraw."""
        if not can_charge(enemy) or enemy_contacts(view, enemy):
            return 0.0
        best = 0.0
        reach = MOVE[enemy.kind] * weather.movement_factor(view) + REACH_SLACK + enemy.base.radius
        for friend in view.near(enemy.x, enemy.y, enemy.x, enemy.y, reach):  # every friend it may reach
            if friend.side != unit.side or friend.is_commander or friend.id == unit.id or \
                    not self._reaches(view, enemy, (friend.x, friend.y), friend.base.radius):
                continue
            if self._eliminated_on_contact(friend):
                return ROUT_WORTH
            blow = self._melee_outcomes(game, view, enemy, friend, False)
            best = max(best, self._blow_worth(game, friend, blow))
        return best

    def _strikes_anyway(self, game: Game, view: GameState, enemy: Unit, unit: Unit) -> bool:
        """Will ``enemy`` strike a blow on its next activation whatever ``unit`` does now:
        it is in melee already, or could charge or shoot ``unit`` where it stands?"""
        if enemy_contacts(view, enemy):
            return True
        if can_charge(enemy) and self._reaches(view, enemy, (unit.x, unit.y), unit.base.radius):
            return True
        if not self._shoots(enemy):
            return False
        reach = _rules(game).shot_reach(game.table, view, enemy)
        return math.hypot(enemy.x - unit.x, enemy.y - unit.y) - enemy.base.radius - unit.base.radius <= reach

    # --- advancing -----------------------------------------------------------------------

    def _goal(self, view: GameState, unit: Unit) -> tuple[Point | None, Unit | None]:
        """Horse make for the nearest enemy horse that no friend is attacking, else the
        nearest enemy troop no friend is attacking ("only one attacking unit may engage any
        given defending unit"; an enemy that charged a friend may still be charged, in the
        flank for choice); the first edition's goal when a friend is attacking every
        enemy, and for the rest. Of horse within :data:`DISTANCE_TIE` of each other, the
        one the player prefers this battle."""
        point, target = super()._goal(view, unit)
        if unit.kind is UnitKind.HORSE:
            free = self._unattacked(view, view.opponent(unit.side))
            pool = [e for e in free if e.kind is UnitKind.HORSE] or free
            if pool:
                target = min(pool, key=lambda e: (math.hypot(e.x - unit.x, e.y - unit.y)
                                                  - DISTANCE_TIE * self._liked(e.id), e.id))
                point = (target.x, target.y)
            if target is not None:
                point = self._launch_point(view, unit, target) or point
        return point, target

    def _launch_point(self, view: GameState, unit: Unit, target: Unit) -> Point | None:
        """Where ``unit`` comes up to charge ``target`` when friends are in melee with it:
        out from the middle of a face none of them touches, so that the charge there runs
        clear of them (a charge moves straight, and stops at the first base it meets), as
        near as the way there keeps 3" from the target and within a charge of the face
        (:func:`_launch_on`); of the faces, the nearest such point, a flank or rear's by
        :data:`FLANK_FIRST` inches. None when no friend touches the target (the way
        straight at it is the charge's own) or no face has such a point on the table."""
        friends = enemy_contacts(view, target)
        if not friends:
            return None
        taken = {face_attacked(target, f) for f in friends}
        reach = MOVE[unit.kind] * weather.movement_factor(view)
        best: tuple[float, Point] | None = None
        for face, centre in zip(FACES, _face_centres(target), strict=True):
            if face in taken:
                continue
            point = _launch_on(unit, target, centre, reach, self._table_size)
            if point is None:
                continue
            preferred = FLANK_FIRST if face is not Face.FRONT else 0.0
            cost = math.hypot(point[0] - unit.x, point[1] - unit.y) - preferred
            if best is None or cost < best[0]:
                best = (cost, point)
        return None if best is None else best[1]

    def _unattacked(self, view: GameState, side: str) -> list[Unit]:
        """``side``'s troops that no enemy of theirs is attacking (each in melee only with
        units it charged itself), reckoned once a position."""
        key = (view.step, side)
        if self._unattacked_at is None or self._unattacked_at[0] != key:
            free = [e for e in view.iter_troops(side) if _is_unattacked(view, e)]
            self._unattacked_at = (key, free)
        return self._unattacked_at[1]

    def _advance(self, game: Game, view: GameState, unit: Unit) -> Move | None:
        move = super()._advance(game, view, unit)
        if unit.kind is not UnitKind.ARTILLERY:
            move = self._detour(game, view, unit, move)
        if unit.kind is UnitKind.HORSE:
            move = self._faced_to_charge(game, view, unit, move)
        if move is None or not move.waypoints:
            return move
        return self._short_of_first_blow(game, view, unit, move)

    def _move_towards(self, game: Game, view: GameState, unit: Unit, goal: Point, reach: float,
                      face: float | None = None) -> Move | None:
        """The first edition's; but where that finds no way, the way measured again on the
        base narrowed by :data:`~tertia.ai.moves.TOUCHING`, so that a neighbour the unit
        merely touches in line does not stop it, and straight on when the goal lies nearly
        ahead and the unit does not pivot first (:func:`~tertia.ai.moves.straight_on`).
        The first edition's foot deployed shoulder to shoulder never advance
        (:func:`~tertia.ai.moves.move_past_touching`)."""
        return move_past_touching(game, view, unit, goal, reach, face=face)

    def _faced_to_charge(self, game: Game, view: GameState, unit: Unit, move: Move | None) -> Move | None:
        """A charger coming up to a point to charge from (:meth:`_launch_point`) ends its
        move there facing the enemy, as a charge may turn only so far; one standing there
        already turns to face it. ``move`` as it was otherwise."""
        launch, target = self._goal(view, unit)
        if launch is None or target is None or not _charges_from(launch, target):
            return move
        if move is None or not move.waypoints:
            if math.dist((unit.x, unit.y), launch) > ARRIVED:
                return move
            heading = bearing_to(unit, (target.x, target.y))
            askew = angle_between(heading, unit.facing) > SQUARED
            return self._pivot(game, view, unit, heading) if askew else move
        end = move.waypoints[-1]
        if move.face_before is not None or math.dist(end, launch) > ARRIVED:
            return move
        faced = Move(unit=unit.id, waypoints=move.waypoints, face_after=bearing(end, (target.x, target.y)))
        return faced if game.is_legal(view, faced) and self._keeps_together(game, view, unit, faced) else move

    def _detour(self, game: Game, view: GameState, unit: Unit, move: Move | None) -> Move | None:
        """Round friends in the way (:meth:`_round_friends`); where that gains no inch and no
        enemy is within musket range, a step aside, :data:`SIDESTEP` inches square to the
        unit's facing, that opens its way (:func:`~tertia.ai.moves.step_aside`: the second
        line boxed in behind its guns and the first line), keeping its place in the army."""
        goal, target = self._goal(view, unit)
        if goal is None or target is None:
            return move
        found = self._round_friends(game, view, unit, move, goal, target)
        if gain(unit, goal, found) >= 1.0 or self._nearest_enemy_distance(view, unit) < MUSKET_REACH:
            return found
        aside = step_aside(view, unit, goal, SIDESTEP, lambda move: game.is_legal(view, move),
                           lambda other: self._keeps_together(game, view, unit, other))
        return found if aside is None else aside

    def _round_friends(self, game: Game, view: GameState, unit: Unit, move: Move | None, goal: Point,
                       target: Unit) -> Move | None:
        """Round friends in the way (:func:`~tertia.ai.moves.round_friends`) when no enemy is
        near (a reserve coming up), each way turned as the first edition turns and keeping
        its place in the army."""
        gap = math.hypot(goal[0] - unit.x, goal[1] - unit.y)
        # no nearer than the first edition stops: musket range, or just short of contact;
        # a point to charge from is itself the place to stop
        if has_muskets(unit):
            short = MUSKET_STANDOFF
        elif _charges_from(goal, target):
            short = 0.0
        else:
            short = unit.base.radius + target.base.radius + ENEMY_CLEARANCE
        reach = min(MOVE[unit.kind] * weather.movement_factor(view), gap - short)
        if reach < 1.0 or self._nearest_enemy_distance(view, unit) < RESERVE_FROM:
            return move
        heading = bearing_to(unit, goal)
        face = None if angle_between(heading, unit.facing) < PIVOT_BEFORE else heading
        return round_friends(view, unit, goal, reach, move,
                             lambda aim: self._move_towards(game, view, unit, aim, reach, face=face),
                             lambda other: self._keeps_together(game, view, unit, other))

    def _short_of_first_blow(self, game: Game, view: GameState, unit: Unit, move: Move) -> Move | None:
        """``move`` cut short so as not to end where an enemy could strike ``unit`` first
        (:meth:`_first_blow_reach`, reckoned with the unit where it would stand, in or out
        of cover); the whole move when the unit stands where one could already."""
        end = plan_move(unit, move).end
        factor = weather.movement_factor(view)
        shoots = self._shoots(unit)
        enemy = view.opponent(unit.side)
        farthest = max(MOVE.values()) * factor + max(MUSKET_REACH, REACH_SLACK) + unit.base.radius
        near = [e for e in view.near(min(unit.x, end.x), min(unit.y, end.y), max(unit.x, end.x),
                                     max(unit.y, end.y), farthest)
                if e.side == enemy and not e.is_commander
                and (_within_strike(e, unit, end.x, end.y, factor, shoots)
                    or _within_strike(e, unit, unit.x, unit.y, factor, shoots))
                and self._acts_first(game, view, e)]
        if not near:
            return move
        if self._struck(game, view, unit, near, unit.x, unit.y, unit.facing) or \
                not self._struck(game, view, unit, near, end.x, end.y, end.facing):
            return move
        (x1, y1), = move.waypoints
        for fraction in (0.75, 0.5, 0.25):
            x, y = unit.x + (x1 - unit.x) * fraction, unit.y + (y1 - unit.y) * fraction
            if self._struck(game, view, unit, near, x, y, end.facing):
                continue
            shorter = Move(unit=unit.id, waypoints=((x, y),), face_before=move.face_before,
                           face_after=move.face_after)
            if game.is_legal(view, shorter) and self._keeps_together(game, view, unit, shorter):
                return shorter
        return None

    def _struck(self, game: Game, view: GameState, unit: Unit, near: Sequence[Unit], x: float, y: float,
                facing: float) -> bool:
        """Could one of ``near`` strike ``unit`` first were it standing at (x, y), so
        facing (:meth:`_first_blow_reach`)?"""
        factor = weather.movement_factor(view)
        shoots = self._shoots(unit)
        there = unit.evolve(x=x, y=y, facing=facing)
        for e in near:
            if _within_strike(e, unit, x, y, factor, shoots):
                reach = self._first_blow_reach(game, view, e, there)
                gap = math.hypot(e.x - x, e.y - y) - e.base.radius - unit.base.radius
                if reach is not None and gap <= reach:
                    return True
        return False

    def _first_blow_reach(self, game: Game, view: GameState, enemy: Unit, unit: Unit) -> float | None:
        """How near (edge to edge) ``enemy`` may stand and strike ``unit`` first on its next
        activation with a blow at least as good as the one ``unit`` would answer with: its
        charge, or for a shooter facing a shooter its move and volley; None when it poses
        no such threat."""
        factor = weather.movement_factor(view)
        reach: float | None = None
        if can_charge(enemy) and self._outstrikes(game, view, enemy, unit):
            reach = MOVE[enemy.kind] * factor + REACH_SLACK
        if has_muskets(enemy) and self._shoots(unit) and not enemy_contacts(view, enemy):
            theirs = self._blow_worth(game, unit, self._shot_outcomes(game, view, enemy, unit))
            mine = self._blow_worth(game, enemy, self._shot_outcomes(game, view, unit, enemy))
            if theirs >= mine:
                volley = MOVE[enemy.kind] * factor + _rules(game).shot_reach(game.table, view, enemy)
                reach = max(reach or 0.0, volley)
        return reach


def _is_unattacked(view: GameState, unit: Unit) -> bool:
    """Is no enemy attacking ``unit`` (is it in melee only with units it charged itself)?"""
    return all(charger_between(view, unit, o) == unit.id for o in enemy_contacts(view, unit))


def _charges_from(goal: Point, target: Unit) -> bool:
    """Is ``goal`` a point to charge ``target`` from (:meth:`D3Doctrine2._launch_point`),
    not the target itself?"""
    return goal != (target.x, target.y)


def _launch_on(unit: Unit, target: Unit, centre: Point, reach: float,
               table: tuple[float, float] | None) -> Point | None:
    """The nearest point, out from ``centre`` (the middle of one of ``target``'s faces) by
    :data:`LAUNCH_GAP` inches beyond 3" and ``unit``'s half-diagonal and then by
    :data:`LAUNCH_STEP` inches at a time, no farther than ``reach`` (a charge), whose
    straight way from ``unit`` keeps 3" from ``target`` (bases measured by their
    half-diagonals) and which leaves ``unit`` on the table (``table``: width, depth);
    None when there is none."""
    span = math.hypot(centre[0] - target.x, centre[1] - target.y) or 1.0
    out = ((centre[0] - target.x) / span, (centre[1] - target.y) / span)
    clear = target.base.radius + unit.base.radius + ENEMY_CLEARANCE
    margin = unit.base.radius
    stand = unit.base.radius + ENEMY_CLEARANCE + LAUNCH_GAP
    while stand <= reach:
        x, y = centre[0] + out[0] * stand, centre[1] + out[1] * stand
        if table is not None and not (margin <= x <= table[0] - margin and margin <= y <= table[1] - margin):
            return None
        if point_segment_distance((target.x, target.y), (unit.x, unit.y), (x, y)) >= clear:
            return (x, y)
        stand += LAUNCH_STEP
    return None


def _within_strike(enemy: Unit, unit: Unit, x: float, y: float, factor: float, shoots: bool) -> bool:
    """Would ``unit`` standing at (x, y) be within the farthest ``enemy`` could come and
    strike, whatever the blow (its move at ``factor`` and a volley's reach if both shoot)?"""
    reach = MOVE[enemy.kind] * factor + (MUSKET_REACH if shoots and has_muskets(enemy) else REACH_SLACK)
    return math.hypot(enemy.x - x, enemy.y - y) - enemy.base.radius - unit.base.radius <= reach
