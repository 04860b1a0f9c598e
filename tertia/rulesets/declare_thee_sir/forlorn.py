"""The forlorn hope (Optional Rules a), under the option ``forlorn_hope``.

"Forlorn hope formation: To form, declare formation change. Use one division of
musketeers to form in line 1D6 inches in front of the regiment. It moves the same 1D6
distance at the same time as parent unit. Commanded musketeers need their own card. Roll
morale as unit. The forlorn hope must have at least one morale point. When it falls to
poor morale or is routed, it will attempt to rejoin its parent regiment. A infantry unit
with poor morale cannot form or maintain a forlorn hope." Fire: "-1 if target is in
forlorn hope"; Melee: "target ... forlorn hope = +2", "attacker in forlorn hope = -2"
(:mod:`~tertia.rulesets.declare_thee_sir.modifiers`).

Read so:

- **how one is had**: a regiment of foot declares a formation change to ``forlorn_hope``
  and sends one division of musketeers out; the division becomes a piece of its own, a
  body of commanded musketeers in the formation ``forlorn_hope``, which keeps the name of
  its ``parent``; the regiment closes up about its front, a stand fewer, its attached
  generals keeping their place about it (as through any formation change). Commanded
  musketeers of the scenario's order of battle may start in forlorn hope (the scenario's
  table) or take it up or leave it by a formation change, where they stand: they have no
  regiment in front of which to go.
- **who may**: a regiment of foot with two stands or more (one stays with the colours),
  not at poor morale, with no forlorn hope of its own out already; commanded musketeers.
  Nobody else: the text speaks of musketeers only.
- **where it goes**: "1D6 inches in front": the division forms in line, facing the
  regiment's way, on the regiment's centre line, and goes forward the die's inches from
  the regiment's front edge; a piece in its way stops it there, and so does water (a
  lake, a river away from its fords and bridges). There must be room for it just before
  the regiment, on the table and out of water.
- **the regiment's own generals**: a general attached to the regiment standing where the
  division forms (just before its front) is not in its way: he stays with the regiment,
  standing in its front, and the division forms just past him (past each, if more than
  one stands there one before another) and goes its 1D6 from there, as a player lifts the
  division over his own general's stand and measures on from the front of it. It needs
  room there, and on its way past him, as it would just before the regiment.
- **its card**: "Commanded musketeers need their own card": the new piece has one, in the
  deck from the next turn's shuffle (the deck of the turn in hand was dealt without it).
- **moving with its regiment**: when its regiment moves on its own card (advance, advance
  and fire, retiring under Rally), the forlorn hope is carried the same way and the same
  distance, as an attached general is, and turns as its regiment turns; the move is
  refused if it would carry the forlorn hope off the table, into water or onto another
  piece. It is not carried in a charge, a push-back or a rout, nor once it must rejoin
  the regiment; on its own card it acts as any unit.
- **morale**: "Roll morale as unit": it starts untested and rolls its own points; the
  regiment's are untouched.
- **victory**: a forlorn hope drawn from a regiment is part of it, not a unit of its
  own, and is not counted among a side's units (:mod:`~tertia.rulesets.declare_thee_sir.victory`).

Rejoining (at poor morale or routed, and when the regiment falls to poor) is
:mod:`~tertia.rulesets.declare_thee_sir.rejoin`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.dice import D6
from tertia.core.events import DiceRolled, Event, UnitMoved
from tertia.core.geometry import EPSILON, Base, first_contact, heading_vector, polygons_overlap
from tertia.core.narration import Narrating, Sentence, tells
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.rules.formations import footprint, reformed_centre
from tertia.rules.involuntary import Interpenetration, piece_under, plan_slide
from tertia.rulesets.declare_thee_sir import generals, rejoin, water
from tertia.rulesets.declare_thee_sir.data import FORLORN_HOPE, DtsUnit
from tertia.rulesets.declare_thee_sir.stands import LAYOUTS
from tertia.rulesets.declare_thee_sir.troops import COMMANDED_SHOT, FOOT
from tertia.rulesets.declare_thee_sir.values import unit_data

LEAST_LEFT = 1
"""Stands a regiment keeps when its forlorn hope goes out: its colours stay."""


@dataclass(frozen=True, slots=True)
class ForlornHopeFormed(Event):
    """``regiment`` sent out a division as the forlorn hope ``unit`` (named ``name``),
    ``ahead`` inches before its front: the division stands ``width`` by ``depth`` at
    (``x``, ``y``) facing ``facing``; the regiment, a stand fewer, closes up to
    ``regiment_width`` by ``regiment_depth`` about (``regiment_x``, ``regiment_y``)."""

    type: ClassVar[str] = "dts_forlorn_hope_formed"
    regiment: str
    unit: str
    name: str
    ahead: float
    x: float
    y: float
    facing: float
    width: float
    depth: float
    regiment_x: float
    regiment_y: float
    regiment_width: float
    regiment_depth: float


@handles(ForlornHopeFormed)
def _formed(s: GameState, e: ForlornHopeFormed) -> GameState:
    regiment = s.units[e.regiment]
    own = unit_data(regiment)
    division = Unit(e.unit, regiment.side, UnitKind.COMMANDED_SHOT, regiment.command, e.x, e.y, e.facing,
                    e.width, e.depth, name=e.name,
                    own=DtsUnit(troop=COMMANDED_SHOT, stands_left=1, stand_width=own.stand_width,
                                stand_depth=own.stand_depth, formation=FORLORN_HOPE, parent=e.regiment))
    s = s.with_unit(regiment.evolve(x=e.regiment_x, y=e.regiment_y, width=e.regiment_width,
                                    depth=e.regiment_depth, stands_left=own.stands_left - 1))
    return s.with_unit(division)


@tells(ForlornHopeFormed)
def _tell_formed(n: Narrating, e: ForlornHopeFormed, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.regiment)} sends its forlorn hope {e.ahead:.1f}\" ahead", "move"


def forlorn_hopes_of(state: GameState, regiment_id: str) -> list[Unit]:
    """The forlorn hopes in play drawn from ``regiment_id``."""
    return list(_drawn_from(state).get(regiment_id, ()))


def _drawn_from(state: GameState) -> dict[str, list[Unit]]:
    """The pieces in play drawn from each regiment, found once for a state (every move of
    a regiment judged asks)."""
    found: dict[str, list[Unit]] | None = state.cache.get(_DRAWN_FROM)
    if found is None:
        found = {}
        for u in rejoin.drawn_pieces(state):
            parent = unit_data(u).parent
            assert parent is not None  # what drawn_pieces holds
            found.setdefault(parent, []).append(u)
        state.cache[_DRAWN_FROM] = found
    return found


_DRAWN_FROM = ("declare-thee-sir", "drawn from")


def why_not(state: GameState, unit: Unit) -> str | None:
    """Why ``unit`` may not take up the forlorn hope now (``None``: it may)."""
    own = unit_data(unit)
    if own.troop == COMMANDED_SHOT:
        return f"{unit.label} is already in forlorn hope" if own.formation == FORLORN_HOPE else None
    if own.troop != FOOT:
        return "only musketeers form a forlorn hope: a regiment of foot or commanded musketeers"
    if own.morale == 0:
        return f"{unit.label} is at poor morale: an infantry unit with poor morale cannot form a forlorn hope"
    if own.stands_left <= LEAST_LEFT:
        return f"{unit.label} has no division of musketeers left to send out"
    if forlorn_hopes_of(state, unit.id):
        return f"{unit.label} already has its forlorn hope out"
    return None


def sends_out(unit: Unit) -> bool:
    """Does taking up the forlorn hope send a division out (a regiment of foot), rather
    than change the unit's own formation (commanded musketeers)?"""
    return unit_data(unit).troop == FOOT


def _stand_before(unit: Unit, past: float = 0.0) -> Base:
    """The division's stand just before the regiment's front, on its centre line, and
    ``past`` inches further on."""
    own = unit_data(unit)
    fx, fy = heading_vector(unit.facing)
    front_x, front_y = unit.base.front_centre()
    ahead = own.stand_depth / 2.0 + past
    return Base(front_x + fx * ahead, front_y + fy * ahead, unit.facing, own.stand_width, own.stand_depth)


def past_own_generals(state: GameState, unit: Unit) -> float:
    """How far past its place just before the regiment's front the division's stand must go
    to stand clear of the regiment's own attached generals (0 when none stands there): each
    it would stand on is passed, until it stands on none."""
    own = generals.attached_generals(state, unit.id)
    direction = heading_vector(unit.facing)
    went = 0.0
    while True:
        at = _stand_before(unit, went)
        on = [g for g in own if polygons_overlap(at.corners(), g.base.corners())]
        if not on:
            return round(went, 9) + 0.0
        went += max(EPSILON, *(_clear_of(at, g.base, direction) for g in on))


def _clear_of(moving: Base, other: Base, direction: tuple[float, float]) -> float:
    """How far ``moving`` slides along ``direction`` to leave ``other`` wholly behind it:
    from well beyond it, back until they touch."""
    far = 2.0 * (moving.radius + other.radius) + 1.0
    beyond = moving.moved_to(moving.x + direction[0] * far, moving.y + direction[1] * far)
    back = first_contact(beyond.corners(), other.corners(), (-direction[0], -direction[1]), 0.0)
    return far - back


def room_problem(table: Battlefield, state: GameState, unit: Unit) -> str | None:
    """Is there room for the division just before the regiment (or past its own generals
    standing there), on the table, out of water and on no other piece, and on its way past
    them?"""
    past = past_own_generals(state, unit)
    first = _stand_before(unit, past)
    place = first.corners()
    if not table.inside_table(place):
        return f"{unit.label}'s forlorn hope would stand off the table"
    way = _way_past(unit, past)
    wet = water.wet(table, (way.corners(),))
    if wet is not None:
        return f"{unit.label}'s forlorn hope would stand in the {wet}"
    mine = (unit.id, *(g.id for g in generals.attached_generals(state, unit.id)))
    other = piece_under(state, first, mine) or (piece_under(state, way, mine) if past > 0 else None)
    return None if other is None else f"{unit.label}'s forlorn hope would stand on {other.label}"


def _way_past(unit: Unit, past: float) -> Base:
    """The ground the division's stand covers going from just before the regiment's front
    to ``past`` inches further on (its first place itself when ``past`` is 0)."""
    middle = _stand_before(unit, past / 2.0)
    return Base(middle.x, middle.y, middle.facing, middle.width, middle.depth + past)


def new_id(state: GameState, regiment_id: str) -> str:
    """An id no piece has had: the regiment's, with ``-forlorn-hope`` (and a number after
    the first)."""
    n = 1
    while (found := f"{regiment_id}-forlorn-hope" + (f"-{n}" if n > 1 else "")) in state.units:
        n += 1
    return found


def form(tx: Tx, regiment_id: str) -> ForlornHopeFormed:
    """Send out ``regiment_id``'s forlorn hope: 1D6 inches before its front (past the
    regiment's own generals standing there), stopped by anything in the way; the regiment
    closes up a stand fewer, its attached generals keeping their place about it."""
    unit = tx.state.units[regiment_id]
    own = unit_data(unit)
    roll = tx.roll(D6, f"forlorn hope: {unit.label}")
    past = past_own_generals(tx.state, unit)
    start = _stand_before(unit, past)
    slide = plan_slide(tx.state, unit, heading=unit.facing, distance=float(roll),
                       policy=Interpenetration.STOP, table=(tx.table.width, tx.table.depth), base=start,
                       ignore=(regiment_id,))
    slide = water.keep_dry(tx.table, tx.state, unit, slide, Interpenetration.STOP, ignore=(regiment_id,))
    ahead, end = slide.distance, slide.end
    if slide.off_table:  # the edge stops it as a piece would
        ahead, end = _within(tx.table, start, unit.facing, slide.distance)
    ahead += past
    width, depth = footprint(LAYOUTS[own.formation], own.stands_left - 1, own.stand_width, own.stand_depth)
    x, y = reformed_centre(unit.base, depth)
    event = ForlornHopeFormed(regiment=regiment_id, unit=new_id(tx.state, regiment_id),
                              name=f"{unit.label}'s forlorn hope", ahead=ahead, x=end.x, y=end.y,
                              facing=unit.facing, width=end.width, depth=end.depth, regiment_x=x,
                              regiment_y=y, regiment_width=width, regiment_depth=depth)
    tx.emit(event)
    generals.carry_reformed_generals(tx, unit, tx.state.units[regiment_id])  # they keep their place
    return event


def _within(table: Battlefield, start: Base, heading: float, distance: float, step: float = 0.25
            ) -> tuple[float, Base]:
    """The farthest a stand goes along ``heading``, up to ``distance``, staying on the table."""
    dx, dy = heading_vector(heading)
    went = distance
    while went > 0:
        end = start.moved_to(start.x + dx * went, start.y + dy * went)
        if table.inside_table(end.corners()):
            return went, end
        went = max(0.0, went - step)
    return 0.0, start


def carried(state: GameState, unit: Unit, dx: float, dy: float, facing: float) -> list[Unit]:
    """``unit``'s forlorn hopes where its move of (``dx``, ``dy``), ending facing
    ``facing``, carries them: the same way, turned as the regiment turned."""
    turn = facing - unit.facing
    return [f.evolve(x=f.x + dx, y=f.y + dy, facing=(f.facing + turn) % 360.0)
            for f in forlorn_hopes_of(state, unit.id)
            if unit_data(f).formation == FORLORN_HOPE and not unit_data(f).routing
            and not rejoin.must_rejoin(state, f)]


def carry(tx: Tx, unit: Unit, dx: float, dy: float, facing: float) -> None:
    """Optional Rules a: "It moves the same 1D6 distance at the same time as parent unit";
    the generals attached to it "move with unit" (Movement) as it goes."""
    for moved in carried(tx.state, unit, dx, dy, facing):
        before = tx.state.units[moved.id]
        tx.emit(UnitMoved(unit=moved.id, path=((before.x, before.y), (moved.x, moved.y)),
                          facing=moved.facing, reason="with its regiment"))
        generals.carry_generals(tx, before, dx, dy, moved.facing)
