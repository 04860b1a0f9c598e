"""Secret deployment and hidden units (Set-up D, Sequence of play B).

"Deploy armies in secret using maps or with a screen down the center of the table. No
troops may be deployed within 12" of the center of the table save those in towns, or
woods. The locations of hidden units must be plainly noted on a map." "Units that become
visible during movement are placed on the table at the appropriate time. Units not placed
on the table may neither move nor fire."

Read so (option ``secret_deployment``, on by default, the text's game; off, a battle
starts from the scenario's positions with every piece on the table, for a club replaying
a battle's historical deployment or a referee beside figures already set out):

- **Deployment.** Before the first turn each side in turn (the first side first) places
  its pieces on its own half of the table (:class:`Deploy`), with nothing of the other
  side's in view: while a side deploys every piece of the other is noted on its map, not
  placed. The scenario's positions are where pieces stand unless moved; a side says it is
  done with :class:`DeploymentDone`. A piece must stand on its own half, not within 12" of
  the centre line outside a town or wood (:mod:`~.deployment`), not overlap another of its
  side's pieces; officers in a unit's front rank, gallopers and commanded musketeers go
  with the unit they serve. A side is done only when each tertia it moved has its units
  within 6" of one another (Tertias and officers A). When both are done the screens come
  away: every piece an enemy piece can see is placed on the table, the rest stay hidden.
- **Being seen.** A hidden piece is placed when an enemy piece (placed or not: troops in a
  wood see out) has a line of sight to it within the distance for the ground it stands on
  (``tables.toml [visibility]``: open ground, woods, towns); the line runs centre to
  centre and is hidden by woods and towns from level ground and by the dead ground behind
  them seen from a hill (:mod:`~.sight`, ``[sight] dead_ground``) and by a crest higher
  than both; troops do not block sight. Sight is checked after every action (a card's
  move, a formation change, the end of a card, the fire steps, close combat, the army
  phases: every involuntary move too), at points 1" apart along every path a piece moved
  (a piece that crosses the enemy's sight and goes back into a wood has been seen), and at
  every piece's place when the action is over. A piece in a unit's front rank or serving
  it (officers, gallopers, commanded musketeers) is placed with it. Once placed, a piece
  never hides again.
- **What hidden units may do.** A hidden unit may not be fired at or charged (the enemy
  does not know it is there); giving it a fire order, or charging with it, places it
  first (the smoke, and the charge, show it). With ``[visibility] unseen_moves`` (true) it
  may move, change formation and mount or dismount unseen (the move is noted on the map)
  and is placed when it comes into sight; a club holding to the letter ("may neither move
  nor fire") puts false, and any of those places it first.
- **What the enemy may know.** A side judges its actions on its own view: the rules
  validate an action as if the enemy's hidden pieces were not on the table
  (:func:`as_seen_by`), so no refusal names, locates or betrays one. A move that runs into
  a hidden enemy piece stops short where it would touch it, and the piece is placed
  ("found in the way"); a charge that does is stopped there, as a move, with no charge
  made. The log shows the enemy nothing a hidden piece did (:class:`Unseen`); its
  observation shows a hidden piece's identity and order of battle (the scenario is
  public) with no place on the table (``removed == "unplaced"``, its position a
  placeholder) and its states as placeholders (:func:`hide`); a player samples plausible
  places for them (:func:`sample`).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from tertia.core.actions import Action
from tertia.core.events import (
    DecisionAwaited,
    DecisionMade,
    DiceRolled,
    Event,
    Marked,
    PhaseBegan,
    UnitMoved,
    event_from_dict,
)
from tertia.core.geometry import Base, Point, base_distance, bases_overlap
from tertia.core.hidden import as_view, hidden, place_hidden, without_view_mark
from tertia.core.reducer import handles, reduce
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.core.violations import CoreCode, Violation, no_piece_of, side_doing
from tertia.rules.codes import MovementCode
from tertia.rulesets.charge_yr_pikes.cards import tertia_label_in
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.data import LINE, UNSEEN, CypUnit
from tertia.rulesets.charge_yr_pikes.data import UNPLACED as UNPLACED  # named here with its hiding
from tertia.rulesets.charge_yr_pikes.deployment import tertia_groups, together, too_near_the_centre
from tertia.rulesets.charge_yr_pikes.dragoons import MOUNTED_PER_STAND
from tertia.rulesets.charge_yr_pikes.events import CommandResponded, change
from tertia.rulesets.charge_yr_pikes.layout import StandSize, footprint_of
from tertia.rulesets.charge_yr_pikes.secret_grades import GradeRevealed
from tertia.rulesets.charge_yr_pikes.sight import crest_hides, ground_hides, level
from tertia.rulesets.charge_yr_pikes.tables import Tables, tables_of
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

DEPLOY = "cyp_deploy"
"""The decision awaited while a side deploys."""
DEPLOYMENT = "deployment"
"""The phase before the first turn."""
RULE = "Set-up D"
SEEN_RULE = "Sequence of play 3 B"
STEP = 1.0
"""Inches between the points of a path where sight is checked."""
SAMPLE_TRIES = 30
"""Places tried for a hidden piece a player samples, before one in sight is kept."""
_POSITION = hidden("unit position")

PUBLIC = frozenset({"troop", "morale_class", "elite", "trained_bands", "firelocks", "pike", "shot", "men",
                    "per_stand", "start", "gun", "mounted", "holders", "stand_width", "stand_depth",
                    "other_stand", "rank", "grade", "placed"})
"""A hidden piece's values the enemy knows: its order of battle (the scenario is public).
Dragoons show as mounted (whether they have got down is their secret)."""


# --- actions and events ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deploy(Action):
    """In the deployment before the first turn, place one of the side's pieces at ``x``,
    ``y`` facing ``facing`` (default: as it stands)."""

    type: ClassVar[str] = "cyp_deploy"
    unit: str
    x: float
    y: float
    facing: float | None = None


@dataclass(frozen=True, slots=True)
class DeploymentDone(Action):
    """The side has deployed (its pieces not moved stand where the scenario puts them)."""

    type: ClassVar[str] = "cyp_deployment_done"


@dataclass(frozen=True, slots=True)
class UnitPlaced(Event):
    """A hidden piece was placed on the table (Sequence of play B): ``why`` says how it
    came to be seen (never by whom: the spotter may be hidden itself)."""

    type: ClassVar[str] = "cyp_unit_placed"
    unit: str
    why: str


@handles(UnitPlaced)
def _placed(s: GameState, e: UnitPlaced) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(u.evolve(own=unit_data(u).evolve(placed=True)))


@dataclass(frozen=True, slots=True)
class Unseen(Event):
    """Something only ``sides`` may see: ``event`` (as its JSON object) was done by or to
    a piece hidden from the other side. It applies as that event."""

    type: ClassVar[str] = "cyp_unseen"
    sides: tuple[str, ...]
    event: Mapping[str, Any]

    @property
    def inner(self) -> Event:
        return event_from_dict(self.event)


@handles(Unseen)
def _unseen(s: GameState, e: Unseen) -> GameState:
    return reduce(s, e.inner)


# --- who is hidden -----------------------------------------------------------------------


def is_placed(unit: Unit) -> bool:
    return bool(unit_data(unit).placed)


def hidden_pieces(state: GameState) -> dict[str, str]:
    """Every piece in play not placed on the table, and its side (remembered on the
    state, which never changes)."""
    found: dict[str, str] | None = state.cache.get(_HIDDEN)
    if found is None:
        # whether a piece is placed is its own: sifted once, a changed piece tested again
        found = state.cache[_HIDDEN] = {u.id: u.side for u in state.pieces_where(_HIDDEN, _unplaced)}
    return found


_HIDDEN = "cyp_hidden_pieces"


def _unplaced(unit: Unit) -> bool:
    return unit_data(unit).placed is False


def hiding_alike(view: GameState, state: GameState) -> GameState:
    """``view``, told that its hidden pieces are ``state``'s: a view made from ``state``
    placing and hiding no piece (only officers' values and orders changed). Returns
    ``view``; its rules judge every action as if they had looked for them themselves."""
    view.cache[_HIDDEN] = hidden_pieces(state)
    return view


def hidden_from(state: GameState, side: str) -> list[str]:
    """The pieces hidden from ``side``: the enemy's not placed on the table."""
    return sorted(u for u, s in hidden_pieces(state).items() if s != side)


# --- sight ---------------------------------------------------------------------------------


def ground_of(table: Battlefield, unit: Unit) -> str:
    """The ground a piece stands on for being seen: its centre in a town, a wood, or open."""
    centre = (unit.x, unit.y)
    if table.has(TerrainKind.TOWN) and table.contains_point(TerrainKind.TOWN, centre):
        return "town"
    if table.has(TerrainKind.WOODS) and table.contains_point(TerrainKind.WOODS, centre):
        return "woods"
    return "open"


def sees(table: Battlefield, tables: Tables, spotter: Unit, target: Unit) -> bool:
    """Does ``spotter`` see ``target``: within the distance for the target's ground, with
    a line of sight between their centres?"""
    vis = tables.visibility
    reach = float(getattr(vis, ground_of(table, target)))
    if math.hypot(spotter.x - target.x, spotter.y - target.y) - spotter.base.radius - target.base.radius \
            > reach + 1e-9:
        return False
    if base_distance(spotter.base, target.base) > reach + 1e-9:
        return False
    a, b = (spotter.x, spotter.y), (target.x, target.y)
    la, lb = level(table, spotter), level(table, target)
    if ground_hides(table, a, b, la, lb, float(tables.sight.dead_ground)):
        return False
    return not crest_hides(table, a, b, la, lb)


def seen(table: Battlefield, tables: Tables, state: GameState, target: Unit) -> bool:
    """Does any enemy piece in play see ``target``?"""
    return any(sees(table, tables, s, target) for s in state.iter_units(state.opponent(target.side)))


def attached_group(state: GameState, unit_id: str) -> list[str]:
    """``unit_id``, the unit it serves (if any) and every piece serving either: they are
    placed together."""
    own = unit_data(state.units[unit_id])
    root = own.attached_to if own.attached_to in state.units else unit_id
    assert root is not None
    return [root, *(u.id for u in state.iter_units() if unit_data(u).attached_to == root and u.id != root)]


def place(tx: Tx, unit_id: str, why: str) -> None:
    """Place a hidden piece on the table, and the pieces that go with it."""
    for piece in attached_group(tx.state, unit_id):
        if unit_data(tx.state.units[piece]).placed is False and tx.state.units[piece].in_play:
            tx.emit(UnitPlaced(unit=piece, why=why))


def place_to_act(tx: Tx, tables: Tables, unit_id: str, what: str) -> None:
    """Sequence of play B, "Units not placed on the table may neither move nor fire": a
    hidden unit that fires or charges is placed first (and one that moves, changes
    formation or mounts without ``[visibility] unseen_moves``). ``what``: "fire", "charge"
    or "move"."""
    if unit_data(tx.state.units[unit_id]).placed is not False:
        return
    if what == "move" and tables.visibility.unseen_moves:
        return
    place(tx, unit_id, {"fire": "it fires", "charge": "it charges"}.get(what, "it moves"))


def _along(path: Sequence[Point]) -> Iterator[Point]:
    """Points 1" apart along ``path``, its start and end left out (the places before and
    after the move are checked with every piece)."""
    for (x0, y0), (x1, y1) in itertools.pairwise(path):
        leg = math.hypot(x1 - x0, y1 - y0)
        n = int(leg // STEP)
        for i in range(1, n + 1):
            t = i * STEP / leg
            if t < 1.0 - 1e-9:
                yield x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        yield x1, y1


def spot(tx: Tx, tables: Tables, paths: Sequence[tuple[str, tuple[Point, ...]]] = ()) -> None:
    """Place every hidden piece an enemy piece sees: along the ``paths`` pieces moved (the
    mover seen, or seeing), then where every piece now stands."""
    table = tx.table
    for unit_id, path in paths:
        if not hidden_pieces(tx.state):
            return
        mover = tx.state.units.get(unit_id)
        if mover is None or not mover.in_play:
            continue
        for x, y in list(_along(path))[:-1]:
            at = mover.evolve(x=x, y=y)
            if unit_data(at).placed is False and seen(table, tables, tx.state, at):
                place(tx, unit_id, "it comes into the enemy's sight")
                mover = tx.state.units[unit_id]
            for other in hidden_from(tx.state, mover.side):
                if sees(table, tables, at, tx.state.units[other]):
                    place(tx, other, "the enemy comes within sight of it")
    for unit_id in sorted(hidden_pieces(tx.state)):
        unit = tx.state.units[unit_id]
        if unit_data(unit).placed is False and seen(table, tables, tx.state, unit):
            place(tx, unit_id, "the enemy sees it")


def stop_short(tx: Tx, unit: Unit, points: tuple[Point, ...], facing: float) -> tuple[Point, ...]:
    """A move validated on its side's view may run into an enemy piece hidden from it:
    the mover stops at the last point (1/4" apart) where it touches none, and that piece
    is placed ("found in the way")."""
    hiding = [tx.state.units[u] for u in hidden_from(tx.state, unit.side)]
    if not hiding or len(points) < 2:
        return points
    kept = [points[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        leg = math.hypot(x1 - x0, y1 - y0)
        n = max(1, math.ceil(leg / 0.25))
        for i in range(1, n + 1):
            t = i / n
            p = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            base = Base(p[0], p[1], facing if i == n else unit.facing, unit.width, unit.depth)
            hit = next((h for h in hiding if bases_overlap(base, h.base)), None)
            if hit is not None:
                if i > 1:
                    t = (i - 1) / n
                    kept.append((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t))
                place(tx, hit.id, "it is found in the way")
                return tuple(kept)
        kept.append((x1, y1))
    return points


# --- deployment ------------------------------------------------------------------------------


def begin_deployment(tx: Tx) -> None:
    """Set-up D: every piece goes onto its side's map; the first side deploys."""
    tx.emit(PhaseBegan(phase=DEPLOYMENT))
    for unit in list(tx.state.iter_units()):
        change(tx, unit.id, "deploys in secret", placed=False)
    tx.emit(DecisionAwaited(side=tx.state.sides[0], kind=DEPLOY, context={}))


def deploying(state: GameState) -> str | None:
    """The side deploying now, if any."""
    pending = state.pending
    return pending.side if pending is not None and pending.kind == DEPLOY else None


def _own_half(table: Battlefield, state: GameState, unit: Unit) -> bool:
    edge = game_data(state).edges.get(unit.side, "south" if unit.side == state.sides[0] else "north")
    ys = [y for _, y in unit.base.corners()]
    middle = table.depth / 2.0
    return max(ys) <= middle + 1e-9 if edge == "south" else min(ys) >= middle - 1e-9


def moved_with(state: GameState, unit: Unit, x: float, y: float, facing: float) -> list[Unit]:
    """``unit`` at (``x``, ``y``) facing ``facing``, and the pieces serving it carried along
    (turned about its centre)."""
    turn = math.radians(facing - unit.facing)
    out = [unit.evolve(x=x, y=y, facing=facing % 360.0)]
    for other in state.iter_units(unit.side):
        if unit_data(other).attached_to == unit.id:
            dx, dy = other.x - unit.x, other.y - unit.y
            rx = dx * math.cos(turn) + dy * math.sin(turn)
            ry = -dx * math.sin(turn) + dy * math.cos(turn)
            out.append(other.evolve(x=x + rx, y=y + ry, facing=(other.facing + facing - unit.facing) % 360.0))
    return out


def deploy_problems(table: Battlefield, state: GameState, action: Action) -> list[Violation]:
    """Set-up D and Tertias A, for a :class:`Deploy` or :class:`DeploymentDone`."""
    side = deploying(state)
    if side is None:
        return [Violation(CoreCode.WRONG_PHASE, "the armies are deployed", RULE)]
    if isinstance(action, DeploymentDone):
        return _done_problems(state, side)
    if not isinstance(action, Deploy):
        return [Violation(CoreCode.WRONG_PHASE,
                          side_doing(side, "deploy (deploy pieces, then say done)"), RULE)]
    unit = state.units.get(action.unit)
    if unit is None or unit.side != side or not unit.in_play:
        return [Violation(CoreCode.UNKNOWN_UNIT, no_piece_of(state, action.unit, side, unseen=UNSEEN), RULE)]
    if unit_data(unit).attached_to in state.units:
        return [Violation(CypCode.NOT_MOVING, f"{unit.label} goes with the unit it serves", RULE)]
    numbers = (action.x, action.y) + (() if action.facing is None else (action.facing,))
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in numbers):
        return [Violation(CoreCode.CANNOT_ACT, "x, y and facing must be finite numbers", RULE)]
    facing = unit.facing if action.facing is None else float(action.facing)
    group = moved_with(state, unit, float(action.x), float(action.y), facing)
    ids = {u.id for u in group}
    for piece in group:
        if not table.inside_table(piece.base.corners()):
            return [Violation(MovementCode.OFF_TABLE, f"{piece.label} would stand partly off the table",
                              RULE)]
        if not _own_half(table, state, piece):
            return [Violation(CypCode.NOT_MOVING, f"{piece.label} must deploy on its own half of the table",
                              RULE)]
        if not unit_data(piece).is_officer and too_near_the_centre(table, piece):
            return [Violation(CypCode.NOT_MOVING, f"{piece.label} may not deploy within 12\" of the centre "
                              "of the table outside a town or wood", RULE)]
        for other in state.iter_units(side):
            if other.id not in ids and bases_overlap(piece.base, other.base):
                return [Violation(MovementCode.COLLISION, f"{piece.label} would overlap {other.label}", RULE)]
    return []


def _done_problems(state: GameState, side: str) -> list[Violation]:
    moved = set(state.marks.get(_DEPLOYED, ()))
    for tertia, units in sorted(tertia_groups(state, side).items()):
        if moved & {u.id for u in units} and not together(units):
            name = tertia_label_in(state, tertia, side) or tertia
            return [Violation(CypCode.LEAVES_TERTIA, f"the tertia {name} must be deployed with all its units "
                              "within 6\" of one another", "Tertias and officers 4 A")]
    return []


_DEPLOYED = "cyp_deployed"
"""The mark naming the pieces a side has moved in its deployment."""


def deploy(tx: Tx, action: Deploy) -> None:
    """Place the piece (and those serving it) where the side says."""
    unit = tx.state.units[action.unit]
    facing = unit.facing if action.facing is None else float(action.facing)
    for piece in moved_with(tx.state, unit, float(action.x), float(action.y), facing):
        before = tx.state.units[piece.id]
        tx.emit(UnitMoved(unit=piece.id, path=((before.x, before.y), (piece.x, piece.y)), facing=piece.facing,
                          reason="deployed"))
    tx.emit(Marked(mark=_DEPLOYED, ident=unit.id))


def deployment_done(tx: Tx, tables: Tables) -> bool:
    """The deploying side is done; True when both are and the battle begins (the screens
    come away: what each side sees is placed)."""
    side = deploying(tx.state)
    assert side is not None
    tx.emit(DecisionMade(side=side, kind=DEPLOY, choice="done"))
    if side == tx.state.sides[0]:
        tx.emit(DecisionAwaited(side=tx.state.sides[1], kind=DEPLOY, context={}))
        return False
    spot(tx, tables)
    return True


# --- what a side may see -----------------------------------------------------------------------


def _public_face(own: CypUnit) -> CypUnit:
    """``own`` as the enemy knows it: dragoons shown mounted."""
    if own.troop != "dragoons" or own.mounted or own.other_stand is None:
        return own
    width, depth = own.other_stand
    return own.evolve(mounted=True, men=own.men + own.holders, holders=0, per_stand=MOUNTED_PER_STAND,
                      stand_width=width, stand_depth=depth, other_stand=(own.stand_width, own.stand_depth))


_NAMES = tuple(f.name for f in fields(CypUnit))


def _masked(own: CypUnit) -> CypUnit:
    face = _public_face(own)
    return face.evolve(**{n: hidden(n.replace("_", " ")) for n in _NAMES if n not in PUBLIC})


def _defaulted(own: CypUnit) -> CypUnit:
    """A hidden piece's values as a player plays them: its public face, the rest as a
    piece fresh on the table (in line, in good order)."""
    face = _public_face(own)
    blank = CypUnit()
    return face.evolve(**{n: getattr(blank, n) for n in _NAMES if n not in PUBLIC})


def _off_table(unit: Unit, own: CypUnit) -> Unit:
    return unit.evolve(x=0.0, y=0.0, facing=0.0, width=0.0, depth=0.0, removed=UNPLACED, own=own, stands=())


def hide(table: Battlefield, state: GameState, side: str) -> GameState:
    """``state`` as ``side`` sees it: each enemy piece not placed shows its identity and
    order of battle, not on the table (``removed == "unplaced"``, its position a
    placeholder in ``extra["position"]``), its states placeholders; the game's notes of
    those pieces (moving on the card, places) left out."""
    secret = hidden_from(state, side)
    if not secret:
        return state
    units = dict(state.units)
    for uid in secret:
        u = units[uid]
        units[uid] = _off_table(u, _masked(unit_data(u))).evolve(extra={**u.extra, "position": _POSITION})
    g = game_data(state)
    gone = set(secret)
    own = g.evolve(moving=tuple(u for u in g.moving if u not in gone),
                   moved_on_card=tuple(u for u in g.moved_on_card if u not in gone),
                   reformed=tuple(u for u in g.reformed if u not in gone),
                   places=tuple(p for p in g.places if p[0] not in gone))
    marks = {k: tuple(i for i in v if i not in gone) for k, v in state.marks.items()}
    return as_view(state.evolve(units=units, own=own, marks=marks), side)


def as_seen_by(state: GameState, side: str) -> GameState:
    """The position the rules judge ``side``'s actions on: the enemy's hidden pieces off
    the table with only their order of battle, so that no refusal depends on (or names)
    one."""
    secret = hidden_from(state, side)
    if not secret:
        return state
    key = (_SEEN_BY, side)
    found: GameState | None = state.cache.get(key)
    if found is None:
        units = dict(state.units)
        for uid in secret:
            units[uid] = _off_table(units[uid], _defaulted(unit_data(units[uid])))
        found = state.cache[key] = state.evolve(units=units)
    return found


_SEEN_BY = "cyp_seen_by"


def unseen_off_table(view: GameState) -> GameState:
    """A side's view (:func:`hide`) with the enemy pieces hidden from it as the rules
    judge the side's actions (:func:`as_seen_by`): off the table, their order of battle
    kept and their other values those of a piece fresh on the table, no longer
    placeholders. What a side works out for itself from its view alone (its odds) does
    not count on pieces it cannot see."""
    secret = [u for u in view.units.values() if u.removed == UNPLACED and place_hidden(u)]
    if not secret:
        return view
    units = dict(view.units)
    for u in secret:
        units[u.id] = _off_table(u, _defaulted(unit_data(u))).evolve(
            extra={k: v for k, v in u.extra.items() if k != "position"})
    return view.evolve(units=units)


def sample(table: Battlefield, observation: GameState, side: str, rng: random.Random) -> GameState:
    """A full state from ``side``'s view: each enemy piece it cannot see put at a random
    place on its own half, not within 12" of the centre outside towns and woods, not
    overlapping another piece and, where one of a few tries finds it, out of ``side``'s
    sight; in line, in good order, its hidden states as a piece fresh on the table."""
    secret = sorted(u.id for u in observation.units.values()
                    if u.removed == UNPLACED and place_hidden(u))
    if not secret:
        return observation
    tables = tables_of(observation)
    state = observation
    for uid in secret:
        state = state.with_unit(_sampled_piece(table, tables, state, state.units[uid], rng))
    return without_view_mark(state)


def _sampled_piece(table: Battlefield, tables: Tables, state: GameState, unit: Unit, rng: random.Random
                   ) -> Unit:
    own = _defaulted(unit_data(unit)).evolve(formation=LINE, placed=False)
    width, depth = footprint_of(own, LINE, StandSize(own.stand_width, own.stand_depth))
    edge = game_data(state).edges.get(unit.side, "south" if unit.side == state.sides[0] else "north")
    facing = 0.0 if edge == "south" else 180.0
    extra = {k: v for k, v in unit.extra.items() if k != "position"}
    best: Unit | None = None
    for _ in range(SAMPLE_TRIES):
        x = rng.uniform(width / 2.0 + 0.5, table.width - width / 2.0 - 0.5)
        y = rng.uniform(depth / 2.0 + 0.5, table.depth / 2.0 - depth / 2.0 - 0.5)
        y = y if edge == "south" else table.depth - y
        at = Unit(unit.id, unit.side, unit.kind, unit.command, x, y, facing, width, depth, name=unit.name,
                  traits=unit.traits, own=own, extra=extra)
        if too_near_the_centre(table, at) or any(bases_overlap(at.base, o.base) for o in state.iter_units()):
            continue
        best = best or at
        if not any(sees(table, tables, s, at) for s in state.iter_units(state.opponent(unit.side))):
            return at
    if best is not None:
        return best
    return unit.evolve(x=table.width / 2.0, y=(1.0 + depth) if edge == "south" else table.depth - 1.0 - depth,
                       facing=facing, width=width, depth=depth, removed=None, own=own, extra=extra)


# --- the log ---------------------------------------------------------------------------------


def visible_to(event: Event, side: str) -> bool:
    """May ``side`` see ``event`` in its log? Not what only the other side saw."""
    return not isinstance(event, Unseen) or side in event.sides


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def _seen_by_sides(state: GameState, event: Event, hiding: Mapping[str, str]) -> tuple[str, ...]:
    """The sides that may see ``event``, given the pieces ``hiding`` (id: side): a side
    does not see an event that names (by id, or by name in a die's purpose or a line of
    narrative) an enemy piece hidden from it."""
    labels = {uid: state.units[uid].label for uid in hiding if uid in state.units}
    owners: set[str] = set()
    for text in _strings(event.to_dict()):
        for uid, owner in hiding.items():
            if owner in owners:
                continue
            if text == uid or (len(text) > len(uid) and (uid in text or labels.get(uid, uid) in text)):
                owners.add(owner)
    return _sides_knowing(state, owners)


def conceal_events(tx: Tx, before: GameState, mark: int) -> None:
    """Wrap each event from ``mark`` on that names a piece hidden (before or after it)
    from a side in :class:`Unseen`, for the sides that may see it, and the dice rolled
    for it (:func:`_dice_with`). A placing is public."""
    if not hidden_pieces(before) and not hidden_pieces(tx.state):
        return
    state = before
    out: list[Event] = []
    events = tx.events[mark:]
    for i, e in enumerate(events):
        after = reduce(state, e)
        if not isinstance(e, UnitPlaced | Unseen | GradeRevealed):
            hiding = {**hidden_pieces(state), **hidden_pieces(after)}
            if hiding:
                response = _response_rolled_for(events, i)
                sides = (_seen_by_sides(state, e, hiding) if response is None
                         else _seeing_units(state, response.units, hiding))
                if sides != state.sides:
                    e = Unseen(sides=sides, event=e.to_dict())
        out.append(e)
        state = after
    tx.events[mark:] = _dice_with(out)


def _response_rolled_for(events: Sequence[Event], i: int) -> CommandResponded | None:
    """The command response ``events[i]`` is, or whose die it is: seen by whoever sees all
    its units, wherever their officer stands (the die of units in the enemy's sight is
    rolled in the open, and the officer's value shown with it, section 22). A value shown
    (``GradeRevealed``) is public: it is shown only for a roll the enemy sees."""
    e = events[i]
    if isinstance(e, DiceRolled) and i + 1 < len(events):
        e = events[i + 1]
    return e if isinstance(e, CommandResponded) else None


def _seeing_units(state: GameState, units: Iterable[str], hiding: Mapping[str, str]) -> tuple[str, ...]:
    """The sides from which none of ``units`` is hidden."""
    return _sides_knowing(state, {hiding[u] for u in units if u in hiding})


def _sides_knowing(state: GameState, owners: set[str]) -> tuple[str, ...]:
    """The sides that may see what names pieces hidden by ``owners``: those owners alone
    (every side, when there are none; none, when two sides' hidden pieces are named)."""
    return tuple(s for s in state.sides if not (owners - {s}))


def _dice_with(events: list[Event]) -> list[Event]:
    """Dice rolled just before an event a side may not see were rolled for it (a rule
    rolls, then tells what the dice gave): that side does not see them either, even when
    their purpose names no hidden piece (a command response "without officer" for a
    hidden unit out of its officer's reach would otherwise show that it is there)."""
    out = list(events)
    sides: tuple[str, ...] | None = None
    for i in range(len(out) - 1, -1, -1):
        e = out[i]
        if isinstance(e, Unseen):
            sides = e.sides if e.inner.type != DiceRolled.type else sides
        elif isinstance(e, DiceRolled):
            if sides is not None:
                out[i] = Unseen(sides=sides, event=e.to_dict())
        else:
            sides = None
    return out


def after_action(tx: Tx, tables: Tables, before: GameState, mark: int) -> None:
    """After an action (or the battle's opening): who is now seen, then what each side's
    log may show."""
    if hidden_pieces(tx.state) and tx.state.phase != DEPLOYMENT:
        paths = [(e.unit, e.path) for e in tx.events[mark:] if isinstance(e, UnitMoved)]
        spot(tx, tables, paths)
    conceal_events(tx, before, mark)
