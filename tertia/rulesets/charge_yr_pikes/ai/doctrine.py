"""The doctrine player for Charge yr Pikes!, first edition (the ``baseline`` player; the
second, :mod:`~tertia.rulesets.charge_yr_pikes.ai.doctrine2`, is the doctrine): the
battle as the period fought it, one brigade card at a time.

- **Deployment** (option ``secret_deployment``): the scenario's, as it stands. It plays
  from its own observation, the enemy pieces it cannot see sampled.
- **Free move.** The commander-in-chief gives the free move to the tertia with the most
  to gain: one whose card has been turned this turn and none of whose units moved (it
  failed its command response), else the one nearest the enemy.
- **On a card**, each unit that may move is considered once, in order:

  - *Officers* ride to stay within their 8" command radius of their tertia, a little
    behind it (towards their own table edge).
  - *Guns* stay where they are (a gun that has fired never moves again, and one that
    moves fires less well); wagons stay with the baggage; routed, falling back and
    plundering units are left to the rules that move them.
  - *Foot in the open* form square when enemy horse stand within their charge reach
    (horse's charge move, 32"), and form line again when none do.
  - *Horse* charge enemy horse, foot without pikes, guns and disordered, falling back,
    routed or half-beaten units within charge reach when the odds look good: the close
    combat dice (:mod:`~tertia.rulesets.charge_yr_pikes.melee_dice`) it would roll at
    least match the foe's. *Foot* charge only a shaken foe (disordered, falling back,
    routed, or under half strength) within reach, on the same odds.
  - *Dragoons* get down to fire when the enemy is within 12" and mount to ride when he
    is beyond 18" (where the rules let them: mounted, they stand wider, and by the table's
    edge may not mount; they go on with their other orders).
  - *Guards*: while the enemy is within 24" of one of its side's vital points
    (:mod:`~tertia.rulesets.charge_yr_pikes.points`), the side's unit nearest it (two
    when the enemy is within 12") goes to it and stays there.
  - *Foot with an enemy within 8"* stand to fire (standing muskets fire first); horse
    with enemy foot within 12" and no charge worth making wait rather than ride into
    the muskets.
  - *Any other unit* advances towards its objective: the nearest enemy within 18",
    else the nearest of its side's objectives and the enemy's vital points that it does
    not hold, else the nearest enemy. It keeps within 6" of its tertia (the rules
    refuse a move that leaves it; a shorter move is tried) and, where it can, within its
    officer's 8" command radius.
- **A charged unit** (12 L, M; 13 B), on its card, before anything else: charged in flank
  or rear, it turns to meet the charge; outmatched (its chargers' close combat dice at
  least half as many again as its own), it tests to move away and, passing, falls back a
  move straight away from them; foot charged by horse in flank or rear that cannot turn
  test to form square; horse charged by horse countercharge (so the enemy horse gets no
  die for meeting horse that stood still); otherwise it stands to receive the charge.
- **Bonus moves** (12 I, J). Horse owed one break through at the nearest enemy within
  their normal move that is routed, falling back, shaken, a gun, or a target they would
  charge with good odds; foot, and horse with no such target, stand fast.
- **Fire steps.** Each unit that may fire is ordered at the nearest target the rules
  accept (a field or heavy gun fires canister within canister range, else ball); then
  the orders are ended.

Every action is judged by the rules (``Game.is_legal``) before it is chosen; when no
unit has anything worth doing the card (or the orders) is ended, so the player never
loops. The player reasons on its side's observation, what it cannot see (an enemy
officer's value not yet shown) sampled (:mod:`tertia.ai.observation`).
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Collection, Sequence

from tertia.activation.deck import group_card
from tertia.ai.moves import advance_towards
from tertia.ai.observation import playable_view
from tertia.core.actions import Action, EndPhase, Move
from tertia.core.game import Game
from tertia.core.geometry import Point, base_distance, bearing
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import TerrainKind
from tertia.rules.nearest import SLACK, NearestFirst
from tertia.rulesets.charge_yr_pikes import phases
from tertia.rulesets.charge_yr_pikes.actions import (
    FREE_MOVE,
    Breakthrough,
    Charge,
    FireOrder,
    GiveFreeMove,
    MoraleToMove,
    Mount,
    Reform,
    TurnToMeet,
)
from tertia.rulesets.charge_yr_pikes.artillery import reach_of
from tertia.rulesets.charge_yr_pikes.bonus import BONUS_MOVES, owed
from tertia.rulesets.charge_yr_pikes.cards import tertias
from tertia.rulesets.charge_yr_pikes.charge import CAVALRY
from tertia.rulesets.charge_yr_pikes.command import (
    COMMAND_RADIUS,
    command_distance,
    commands,
    in_command_radius,
)
from tertia.rulesets.charge_yr_pikes.concealment import DEPLOY, DeploymentDone
from tertia.rulesets.charge_yr_pikes.data import LINE, SQUARE, CypUnit
from tertia.rulesets.charge_yr_pikes.fire import longest_reach
from tertia.rulesets.charge_yr_pikes.melee_dice import Fighter, is_foot, unit_dice
from tertia.rulesets.charge_yr_pikes.movement import allowance, charge_allowance, line_of
from tertia.rulesets.charge_yr_pikes.musketry import has_muskets
from tertia.rulesets.charge_yr_pikes.points import OBJECTIVE, VITAL, Place, holds, in_good_order, places
from tertia.rulesets.charge_yr_pikes.reaction import (
    MOVE_AWAY,
    REFORM,
    chargers_of,
    flank_attacks,
    steadied_for,
)
from tertia.rulesets.charge_yr_pikes.tables import Tables, tables_of
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

DISMOUNT_NEAR = 12.0
"""Mounted dragoons with the enemy this close get down to fire."""
MOUNT_BEYOND = 18.0
"""Dragoons on foot with the enemy further off than this mount to ride."""
GUARD_ALERT = 24.0
"""An enemy this near one of its side's vital points calls a guard to it."""
GUARD_PRESSED = 12.0
"""An enemy this near calls a second guard."""
GUARD_AT = 2.0
"""A guard this near its point stays there."""
STAND_TO_FIRE = 8.0
"""Foot with an enemy this close stand still and fire (standing muskets fire first)."""
HORSE_WAITS = 12.0
"""Horse with enemy foot this close and no charge worth making wait."""
ENGAGE = 18.0
"""An enemy this close becomes a unit's objective, before any point."""
BEHIND = 3.0
"""How far behind his tertia an officer takes post."""
SETTLED = 1.0
"""An officer this near his post stays there."""
LEAST_GAIN = 0.5
"""A move that brings a unit less than this much nearer its goal is not worth it."""
SHORTER = (0.75, 0.5, 0.25)
"""Fractions of a move tried to keep a unit within its officer's command radius."""
OUTMATCHED = 1.5
"""A charged unit whose chargers roll this many times its close combat dice moves away."""
EDGE_SENSE = {"south": -1.0, "north": 1.0}
"""Which way (in y) is towards a side's own table edge."""


class CypDoctrine:
    name = "doctrine"
    stand_to_fire: float = STAND_TO_FIRE
    """Foot with muskets and an enemy this close stand still and fire."""

    def __init__(self) -> None:
        self._card_key: tuple[int, int, str | None] | None = None
        self._done: set[str] = set()
        self._idle: set[str] = set()
        self._looked_again: set[str] = set()
        self._unfit = UnfitToFire()

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        pending = state.pending  # public: the decision awaited is the same in every view
        if pending is not None and pending.kind == DEPLOY:
            return DeploymentDone()  # the scenario's deployment, so nothing of the view is read
        pieces = state.units
        state = playable_view(game, state, rng)  # its own observation, what it cannot see sampled
        if pending is not None and pending.kind == FREE_MOVE:
            return self._free_move(state)
        g = game_data(state)
        if g.step == BONUS_MOVES:
            return _bonus(game, state) or EndPhase()
        if g.step is not None:
            return _fire(game, state, self._unfit.of(state, pieces)) or EndPhase()
        key = (state.turn, len(g.deck_drawn), g.card)
        if key != self._card_key:
            self._card_key, self._done = key, set()
            self._idle, self._looked_again = set(), set()
        for unit_id in self._in_turn(state, g.moving):
            if unit_id in g.moved_on_card:
                follow = self._follow_up(game, state, unit_id)
                if follow is not None and game.is_legal(state, follow):
                    return follow
                continue
            if unit_id in self._done or unit_id in g.reformed:
                continue
            self._done.add(unit_id)
            unit = state.units.get(unit_id)
            if unit is None or not unit.in_play:
                continue
            action = self._order(game, state, unit)
            if action is not None and game.is_legal(state, action):
                if isinstance(action, MoraleToMove):
                    self._done.discard(unit_id)  # passing, it acts on what it tested for
                self._look_again(state, unit)
                return action
            self._idle.add(unit_id)
        return EndPhase()

    def _looks_again(self, state: GameState, idle: Unit, actor: Unit) -> bool:
        """Does ``idle``, which did nothing on its card, look again now that ``actor`` has
        acted? In the first edition, never."""
        return False

    def _look_again(self, state: GameState, actor: Unit) -> None:
        """Once ``actor`` has acted on the card, the pieces that did nothing before it
        and :meth:`_looks_again` may act now, once each."""
        again = {u for u in self._idle - self._looked_again
                 if (idle := state.units.get(u)) is not None and self._looks_again(state, idle, actor)}
        self._done -= again
        self._looked_again |= again

    def _follow_up(self, game: Game, state: GameState, unit_id: str) -> Action | None:
        """What a piece that has moved on the card does next (the first edition: nothing)."""
        return None

    def _in_turn(self, state: GameState, moving: tuple[str, ...]) -> Sequence[str]:
        """The order in which the pieces moving on the card are given theirs (the first
        edition: as the card lists them)."""
        return moving

    # --- the free move --------------------------------------------------------------------

    @staticmethod
    def _free_move(state: GameState) -> Action:
        """The tertia with the most to gain: one that failed its command response this
        turn, else the one nearest the enemy."""
        side = state.to_act
        choices = tertias(state, side)
        drawn = set(game_data(state).deck_drawn)

        def score(tertia: str) -> tuple[int, float, str]:
            units = [u for u in state.iter_troops(side) if u.command == tertia and not unit_data(u).is_gun]
            failed = failed_response(tertia, side, units, drawn)
            near = min((foes.gap(0) for foes in (_foes(state, u) for u in units) if foes), default=math.inf)
            return (0 if failed else 1, near, tertia)

        return GiveFreeMove(tertia=min(choices, key=score))

    # --- a unit's order on its card -------------------------------------------------------

    def _charge_call(self, game: Game, state: GameState, unit: Unit, foes: NearestFirst, tables: Tables
                     ) -> Charge | None:
        """The charge ``unit`` makes on its card, if any: at the nearest foe worth charging
        with good odds (:func:`worth_charging`, :func:`odds_good`)."""
        return _charge(game, state, unit, foes, tables)

    def _order(self, game: Game, state: GameState, unit: Unit) -> Action | None:
        own = unit_data(unit)
        tables = tables_of(state)
        if own.is_officer:
            return _officer_move(game, state, unit, tables)
        if own.is_gun or own.troop == "wagons" or own.routed or own.falling_back or own.plundering:
            return None
        foes = _foes(state, unit)
        if not foes:
            return self._unopposed(game, state, unit, tables)
        chargers = chargers_of(state, unit.id)
        if chargers:
            return _react(game, state, unit, chargers, tables)
        square = self._square_call(game, state, unit, tables)
        if square is not None:
            return square
        if own.formation == SQUARE:
            return None
        if own.troop == "dragoons":
            mount = _mount_call(game, state, unit, foes)
            if mount is not None and game.is_legal(state, mount):  # by the edge it may not
                return mount
        charge = self._charge_call(game, state, unit, foes, tables)
        if charge is not None:
            return charge
        guard = self._post(state, unit)
        if guard is not None:
            return self._at_post(game, state, unit, guard, tables)
        if _holds_fire(unit, foes, self.stand_to_fire):
            return self._wait(game, state, unit, foes, tables)
        return self._advance(game, state, unit, _objective(state, unit, foes, tables), tables)

    def _unopposed(self, game: Game, state: GameState, unit: Unit, tables: Tables) -> Action | None:
        """The order of troops with no enemy troops left on the table to measure
        themselves against: in the first edition, none."""
        return None

    def _at_post(self, game: Game, state: GameState, unit: Unit, post: Point, tables: Tables
                 ) -> Action | None:
        """A unit with a post: on its way there while farther than :data:`GUARD_AT`, else
        standing at it."""
        return self._to_post(game, state, unit, post, tables) if _dist(unit, post) > GUARD_AT else None

    def _post(self, state: GameState, unit: Unit) -> Point | None:
        """The point ``unit`` goes to and stays at: a vital point it guards
        (:func:`_guard_post`)."""
        return _guard_post(state, unit)

    def _to_post(self, game: Game, state: GameState, unit: Unit, post: Point, tables: Tables) -> Move | None:
        """The move towards its post (:func:`_move_to`)."""
        return _move_to(game, state, unit, post, tables)

    def _square_call(self, game: Game, state: GameState, unit: Unit, tables: Tables) -> Reform | None:
        """Foot in the open form square while an enemy horse :meth:`_threatens` them, and
        line again when none does (the first edition: any within its charge reach)."""
        own = unit_data(unit)
        if line_of(tables, own).square is None or _in_cover(game, unit):
            return None
        threat = any(_within(unit, e, reach) and self._threatens(game, state, e, unit, reach, tables)
                     for e, reach in _enemy_horse(state, unit.side, tables))
        if threat and own.formation != SQUARE:
            return Reform(unit=unit.id, formation=SQUARE)
        if not threat and own.formation == SQUARE:
            return Reform(unit=unit.id, formation=LINE)
        return None

    def _threatens(self, game: Game, state: GameState, horse: Unit, foot: Unit, reach: float,
                   tables: Tables) -> bool:
        """Does ``horse``, within its charge ``reach`` of ``foot``, call for a square? In
        the first edition, always."""
        return True

    def _advance(self, game: Game, state: GameState, unit: Unit, goal: Point, tables: Tables) -> Move | None:
        """A unit with nothing better to do moves towards ``goal`` (:func:`_move_to`)."""
        return _move_to(game, state, unit, goal, tables)

    def _wait(self, game: Game, state: GameState, unit: Unit, foes: NearestFirst, tables: Tables
              ) -> Action | None:
        """What a unit holding (foot standing to fire, horse waiting) does on its card:
        in the first edition, nothing."""
        return None


# --- charged units and bonus moves ---------------------------------------------------------------


def _react(game: Game, state: GameState, unit: Unit, chargers: tuple[str, ...], tables: Tables
           ) -> Action | None:
    """12 L, M; 13 B: what a charged unit does on its card (see the module's docstring)."""
    own = unit_data(unit)
    if own.moved:
        return None
    purpose = steadied_for(state, unit.id)
    if purpose == MOVE_AWAY:
        return move_away(game, state, unit, [state.units[c] for c in chargers], tables)
    if purpose == REFORM:
        return Reform(unit=unit.id, formation=SQUARE) if own.formation != SQUARE else None
    flank = flank_attacks(state, unit.id)
    if flank:
        turn = TurnToMeet(unit=unit.id, attacker=flank[0])
        if game.is_legal(state, turn):
            return turn
    if _outmatched(game, state, unit, chargers, tables):
        return MoraleToMove(unit=unit.id, purpose=MOVE_AWAY)
    horse = [c for c in chargers if unit_data(state.units[c]).troop in CAVALRY]
    if flank and horse and line_of(tables, own).square is not None and own.formation != SQUARE:
        return MoraleToMove(unit=unit.id, purpose=REFORM)
    if own.troop in CAVALRY and horse:
        return Charge(unit=unit.id, target=horse[0])
    return None


def _outmatched(game: Game, state: GameState, unit: Unit, chargers: tuple[str, ...], tables: Tables) -> bool:
    """Do the chargers' close combat dice come to :data:`OUTMATCHED` times the unit's?"""
    fighters = {c: Fighter(unit=c, foes=(unit.id,), attacking=True) for c in chargers}
    fighters[unit.id] = Fighter(unit=unit.id, foes=chargers, attacking=False)
    theirs = sum(unit_dice(tables, game.table, state, fighters[c], fighters).dice for c in chargers)
    mine = unit_dice(tables, game.table, state, fighters[unit.id], fighters).dice
    return theirs >= OUTMATCHED * max(1, mine)


def bearing_away(unit: Unit, threats: Sequence[Unit]) -> float:
    """The bearing from the midst of ``threats`` (their centres' mean) to ``unit``."""
    cx = sum(t.x for t in threats) / len(threats)
    cy = sum(t.y for t in threats) / len(threats)
    return bearing((cx, cy), (unit.x, unit.y))


def move_away(game: Game, state: GameState, unit: Unit, threats: Sequence[Unit], tables: Tables
              ) -> Move | None:
    """A move straight away from the midst of ``threats``, as far as the rules allow."""
    reach = allowance(tables, unit_data(unit), on_road=False) or 0.0
    away = bearing_away(unit, threats)
    goal = (unit.x + math.sin(math.radians(away)) * reach, unit.y + math.cos(math.radians(away)) * reach)
    return advance_towards(game, state, unit, goal, reach, arc=180.0, least=LEAST_GAIN, ahead=away)


def _bonus(game: Game, state: GameState) -> Action | None:
    """12 I, J: horse break through at the nearest enemy worth it within their normal move;
    foot, and horse with none, stand fast."""
    tables = tables_of(state)
    for unit_id in owed(state, state.active):
        unit = state.units[unit_id]
        if unit_data(unit).troop not in CAVALRY:
            continue
        reach = (allowance(tables, unit_data(unit), on_road=False) or 0.0) + 1.0
        for foe in _foes(state, unit).within(reach):
            theirs = unit_data(foe)
            weak = theirs.is_gun or is_shaken(theirs)
            if weak or (worth_charging(unit, foe) and odds_good(game, state, unit, foe, tables)):
                action = Breakthrough(unit=unit_id, target=foe.id)
                if game.is_legal(state, action):
                    return action
    return None


# --- fire -----------------------------------------------------------------------------------


def _fire(game: Game, state: GameState, unfit: set[str]) -> Action | None:
    """The first order the rules accept: each unit that may fire at its nearest target.
    A unit with none is added to ``unfit`` and not asked again (see :class:`UnfitToFire`)."""
    g = game_data(state)
    given = {o[0] for o in g.orders}
    tables = tables_of(state)
    for unit in phases.shooters(state, state.active, g.step or ""):
        if unit.id in given or unit.id in unfit:
            continue
        reach = longest_reach(unit, tables)
        # nearest first, and no shot reaches further than the bases are apart
        for target in _foes(state, unit).within(reach + 1e-6):
            order = FireOrder(unit=unit.id, target=target.id, kind=_fire_kind(unit, target, tables))
            if game.is_legal(state, order):
                return order
        if unit_data(unit).gun != "galloper":
            unfit.add(unit.id)
    return None


class UnfitToFire:
    """The units of the side giving its orders in a fire step that have no order the rules
    accept, while its pieces stand as they did. An order given changes nothing the rules
    judge another unit's order by but the orders, which they read only for the unit
    ordered and a galloper's regiment (so gallopers are never noted): until a piece
    changes or the step or side does, such a unit would be refused again at every target."""

    __slots__ = ("_key", "_pieces", "_units")

    def __init__(self) -> None:
        self._key: tuple[int, str | None, str | None] | None = None
        self._pieces: object = None
        self._units: set[str] = set()

    def of(self, state: GameState, pieces: object) -> set[str]:
        """The units noted for ``state``'s fire step and side while its pieces are
        ``pieces`` (the true position's, compared by identity: a changed piece makes new
        ones); a new, empty set otherwise."""
        g = game_data(state)
        key = (state.turn, g.step, g.step_side)
        if key != self._key or pieces is not self._pieces:
            self._key, self._pieces, self._units = key, pieces, set()
        return self._units


def _fire_kind(unit: Unit, target: Unit, tables: Tables) -> str:
    own = unit_data(unit)
    if own.gun == "galloper":
        return "galloper"
    if own.is_gun:
        return "canister" if _gap(unit, target) <= reach_of(unit, "canister", tables) else "ball"
    return "musket"


# --- officers -------------------------------------------------------------------------------


def failed_response(tertia: str, side: str, units: Sequence[Unit], drawn: Collection[str]) -> bool:
    """Has ``tertia``'s card been drawn this turn (``drawn``) with none of ``units`` moving
    on it: its command response failed?"""
    return group_card(tertia, side) in drawn and not any(unit_data(u).moved for u in units)


def _officer_move(game: Game, state: GameState, officer: Unit, tables: Tables) -> Move | None:
    """An officer at large rides to his post a little behind his tertia, unless every unit
    of it is within his command radius already."""
    if unit_data(officer).attached_to is not None:
        return None
    mates = _tertia_units(state, officer)
    if not mates:
        return None
    if all(command_distance(officer, u) <= COMMAND_RADIUS - SETTLED for u in mates):
        return None
    cx = sum(u.x for u in mates) / len(mates)
    cy = sum(u.y for u in mates) / len(mates)
    back = EDGE_SENSE.get(game_data(state).edges.get(officer.side, "south"), -1.0)
    post = (cx, cy + back * BEHIND)
    if _dist(officer, post) <= SETTLED:
        return None
    reach = allowance(tables, unit_data(officer), on_road=False) or 0.0
    return advance_towards(game, state, officer, post, reach, arc=180.0, least=LEAST_GAIN)


def _tertia_units(state: GameState, piece: Unit) -> list[Unit]:
    return [u for u in state.iter_troops(piece.side) if u.command == piece.command and u.id != piece.id
            and not unit_data(u).is_officer and not unit_data(u).is_gun and in_good_order(u)]


def _officer_of(state: GameState, unit: Unit) -> Unit | None:
    """The officer at large whose command radius the unit had best keep within: its own
    tertia's, else any that commands it."""
    wings = game_data(state).wings
    found = [o for o in state.iter_units(unit.side) if unit_data(o).is_officer and o.in_play
             and unit_data(o).attached_to is None and commands(o, unit.command, wings)]
    found.sort(key=lambda o: (o.command != unit.command, o.id))
    return found[0] if found else None


# --- squares, mounts, charges ---------------------------------------------------------------


def _enemy_horse(state: GameState, side: str, tables: Tables) -> list[tuple[Unit, float]]:
    """Each of ``side``'s enemy horse (of the troops :func:`_foes` measures) that is not
    routed, with its charge reach; worked out once a position and side."""
    key = ("cyp doctrine enemy horse", side)
    found: list[tuple[Unit, float]] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = [(e, charge_allowance(tables, unit_data(e)))
                                    for e in _enemy_troops(state, side)
                                    if unit_data(e).troop in CAVALRY and not unit_data(e).routed]
    return found


def _within(unit: Unit, other: Unit, inches: float) -> bool:
    """Are the two bases at most ``inches`` apart? Measured exactly only when the distance
    between centres less both half-diagonals (never more than the exact one but for
    rounding, :data:`~tertia.rules.nearest.SLACK`) does not already put them further."""
    bound = math.hypot(other.x - unit.x, other.y - unit.y) - unit.base.radius - other.base.radius
    return bound - SLACK <= inches and base_distance(unit.base, other.base) <= inches


def _in_cover(game: Game, unit: Unit) -> bool:
    table = game.table
    return any(table.has(k) and table.overlaps(k, unit.base.corners())
               for k in (TerrainKind.TOWN, TerrainKind.ENTRENCHMENT))


def _mount_call(game: Game, state: GameState, unit: Unit, foes: NearestFirst) -> Mount | None:
    own = unit_data(unit)
    nearest = foes.gap(0)
    if own.mounted and nearest <= DISMOUNT_NEAR:
        return Mount(unit=unit.id, mounted=False)
    if not own.mounted and nearest > MOUNT_BEYOND:
        return Mount(unit=unit.id, mounted=True)
    return None


def is_shaken(own: CypUnit) -> bool:
    """A foe foot will charge: disordered, falling back, routed or under half strength."""
    return own.disordered or own.falling_back or own.routed or own.under_half


def worth_charging(unit: Unit, foe: Unit) -> bool:
    """Is ``foe`` the kind of target ``unit`` charges? Horse: horse, foot without pikes,
    guns, shaken units; foot: shaken units only."""
    mine, theirs = unit_data(unit), unit_data(foe)
    if theirs.is_officer or theirs.plundering:
        return False
    if mine.troop in CAVALRY:
        return (theirs.troop in CAVALRY or theirs.is_gun or is_shaken(theirs)
                or (is_foot(theirs) and theirs.pike == 0))
    return is_foot(mine) and is_shaken(theirs)


def odds_good(game: Game, state: GameState, unit: Unit, foe: Unit, tables: Tables) -> bool:
    """The close combat dice the charger would roll at least match the foe's (a gun, a
    routed or a falling back foe does not fight back)."""
    theirs = unit_data(foe)
    if theirs.is_gun or theirs.routed or theirs.falling_back:
        return True
    attacker = Fighter(unit=unit.id, foes=(foe.id,), attacking=True)
    defender = Fighter(unit=foe.id, foes=(unit.id,), attacking=False)
    fighters = {unit.id: attacker, foe.id: defender}
    mine = unit_dice(tables, game.table, state, attacker, fighters).dice
    return mine > 0 and mine >= unit_dice(tables, game.table, state, defender, fighters).dice


def _charge(game: Game, state: GameState, unit: Unit, foes: NearestFirst, tables: Tables) -> Charge | None:
    own = unit_data(unit)
    if own.troop == "dragoons" or own.disordered:
        return None
    for foe in foes.within(charge_allowance(tables, own)):
        if worth_charging(unit, foe) and odds_good(game, state, unit, foe, tables):
            charge = Charge(unit=unit.id, target=foe.id)
            if game.is_legal(state, charge):
                return charge
    return None


# --- guards, objectives, moves --------------------------------------------------------------


def _guard_post(state: GameState, unit: Unit) -> Point | None:
    """The vital point ``unit`` guards: one the enemy is within 24" of, for which it is
    among the side's one (two, the enemy within 12") nearest troops in good order."""
    return next((spot for spot, guards in _guards(state, unit.side) if unit.id in guards), None)


def _guards(state: GameState, side: str) -> list[tuple[Point, tuple[str, ...]]]:
    """Each of ``side``'s vital points in turn with the troops that guard it (see
    :func:`_guard_post`); worked out once a position and side."""
    key = ("cyp doctrine guards", side)
    found: list[tuple[Point, tuple[str, ...]]] | None = state.cache.get(key)
    if found is not None:
        return found
    found = state.cache[key] = []
    enemy = state.opponent(side)
    own_troops: list[Unit] | None = None
    for place in places(state, side, VITAL):
        spot = (place.x, place.y)
        # every troop whose centre is within the alert stands near the spot; nearer, or
        # none, is all that is asked of the threat beyond it
        threat = min((_dist(e, spot) for e in state.near(*spot, *spot, GUARD_ALERT)
                      if e.side == enemy and e.kind is not UnitKind.COMMANDER and in_good_order(e)),
                     default=math.inf)
        if threat > GUARD_ALERT:
            continue
        if own_troops is None:
            own_troops = point_holders(state, side)
        wanted = 2 if threat <= GUARD_PRESSED else 1
        nearest = heapq.nsmallest(wanted, own_troops, key=lambda u: (_dist(u, spot), u.id))
        found.append((spot, tuple(u.id for u in nearest)))
    return found


def point_holders(state: GameState, side: str) -> list[Unit]:
    """``side``'s troops that can be sent to hold a point: in good order (not the wagons),
    and not guns, which the doctrine keeps where they stand."""
    return [u for u in state.iter_troops(side) if in_good_order(u) and not unit_data(u).is_gun]


def _holds_fire(unit: Unit, foes: NearestFirst, stand_to_fire: float = STAND_TO_FIRE) -> bool:
    """Foot with muskets and an enemy within ``stand_to_fire`` (8") stand to fire; horse
    with enemy foot within 12" (and no charge worth making) wait."""
    own = unit_data(unit)
    if own.troop in CAVALRY:
        return any(is_foot(unit_data(e)) and not is_shaken(unit_data(e)) for e in foes.within(HORSE_WAITS))
    return has_muskets(own) and foes.gap(0) <= stand_to_fire


def _objective(state: GameState, unit: Unit, foes: NearestFirst, tables: Tables) -> Point:
    """The nearest enemy within 18", else the nearest point to take (the side's
    objectives, the enemy's vital points) it does not hold, else the nearest enemy."""
    nearest = next(((e, gap) for e, gap in foes.pairs() if not unit_data(e).routed), None)
    if nearest is None:  # every one routed
        nearest = (foes[0], foes.gap(0))
    if nearest[1] <= ENGAGE:
        return (nearest[0].x, nearest[0].y)
    goals = _goals(state, unit.side, tables)
    if goals:
        best = min(goals, key=lambda p: (_dist(unit, (p.x, p.y)), p.name))
        return (best.x, best.y)
    return (nearest[0].x, nearest[0].y)


def _goals(state: GameState, side: str, tables: Tables) -> list[Place]:
    """The points ``side`` makes for: its objectives and the enemy's vital points that it
    does not hold; worked out once a position and side."""
    key = ("cyp doctrine goals", side)
    found: list[Place] | None = state.cache.get(key)
    if found is None:
        enemy = state.opponent(side)
        found = state.cache[key] = [p for p in (*places(state, side, OBJECTIVE), *places(state, enemy, VITAL))
                                    if not holds(state, side, p, tables)]
    return found


def _move_to(game: Game, state: GameState, unit: Unit, goal: Point, tables: Tables, *,
             passing: tuple[str, ...] = ()) -> Move | None:
    """A legal move towards ``goal`` (the rules keep it within its tertia; shorter moves
    are tried), cut short where that keeps it within its officer's command radius;
    ``passing``: pieces it plans its way as though they were not there."""
    reach = allowance(tables, unit_data(unit), on_road=False) or 0.0
    if reach <= 0:
        return None
    # The rules ask no facing of a move: the fan of headings is laid about the goal, so a
    # guard can step back to its post still facing the enemy.
    move = advance_towards(game, state, unit, goal, reach, least=LEAST_GAIN,
                           ahead=bearing((unit.x, unit.y), goal), passing=passing)
    if move is None:
        return None
    officer = _officer_of(state, unit)
    if officer is None or not in_command_radius(officer, unit):
        return move
    end = move.waypoints[-1]
    if _within_radius(unit, officer, end):
        return move
    for f in SHORTER:
        point = (unit.x + (end[0] - unit.x) * f, unit.y + (end[1] - unit.y) * f)
        shorter = Move(unit=unit.id, waypoints=(point,), face_before=move.face_before)
        if _within_radius(unit, officer, point) and game.is_legal(state, shorter):
            return shorter
    return move


def _within_radius(unit: Unit, officer: Unit, at: Point) -> bool:
    return in_command_radius(officer, unit, at)


# --- measures --------------------------------------------------------------------------------


def _foes(state: GameState, unit: Unit) -> NearestFirst:
    """Enemy troops in play (no officers, none plundering off the table), nearest first
    (measured only as far as they are read); worked out once a position and unit (the
    state never changes; its cache goes with it)."""
    key = ("cyp doctrine foes", unit.id, unit.base)
    found: NearestFirst | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = NearestFirst(unit, _enemy_troops(state, unit.side))
    return found


def _enemy_troops(state: GameState, side: str) -> tuple[Unit, ...]:
    """``side``'s enemy troops in play that :func:`_foes` measures, picked out once for a
    position and side."""
    key = ("cyp doctrine enemy troops", side)
    found: tuple[Unit, ...] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = tuple(e for e in state.iter_troops(state.opponent(side))
                                         if e.in_play and _is_foe(e, side))
    return found


def _is_foe(piece: Unit, side: str) -> bool:
    """Is ``piece`` an enemy of ``side`` the doctrine measures itself against: not one of
    its own, not an officer, not off the table plundering?"""
    own = unit_data(piece)
    return piece.side != side and not own.is_officer and own.plundering != "off_table"


def _gap(a: Unit, b: Unit) -> float:
    return base_distance(a.base, b.base)


def _dist(unit: Unit, p: Point) -> float:
    return math.dist((unit.x, unit.y), p)
