"""The forlorn hope rejoining its regiment (Optional Rules a), under the option ``forlorn_hope``.

"The forlorn hope must have at least one morale point. When it falls to poor morale or is
routed, it will attempt to rejoin its parent regiment. A infantry unit with poor morale
cannot form or maintain a forlorn hope."

Read so:

- **when**: a forlorn hope sent out by a regiment must rejoin it when it is at poor morale
  (its last point lost: it "must have at least one"), when it routs, and when its regiment
  falls to poor (which "cannot ... maintain" one). Only a regiment in play and not routing
  can take it back: while its regiment routs, or once the regiment is gone, the division
  fights on as any body of commanded musketeers. Commanded musketeers of the order of
  battle have no regiment and never rejoin.
- **how**, by the option ``forlorn_rejoin``:

  - ``march`` (the default; the text's "attempt" is one that can fail): the division
    goes back on its own card. Not routing, its commander declares nothing (the attempt is
    not his to choose): it rolls its move (1D6) and goes straight towards its regiment's
    centre, keeping its facing, a third of the roll if the way touches difficult ground;
    any piece in the way, the table's edge, a lake or a river away from fords and bridges
    stops it short, and an obstacle stops it at the obstacle (crossed when next activated,
    as any move). Routing, it flees as a routing unit does (2D6, and it may try to rally)
    but towards its regiment rather than away from the foe or to its own edge, and its
    flight ends where it reaches the regiment.
  - ``at_once``: at the end of the activation in which it falls to poor or routs, or its
    regiment falls to poor, it rejoins wherever it stands, with no dice (the figures go
    back into the regiment, as many tables play it).

- **rejoining**: touching its regiment, at the end of any activation or of its own move
  back, the division goes back into the ranks: the regiment takes its stand again and lays
  its stands out in its formation about its front (the front edge where it was), and the
  forlorn hope leaves play (it is part of its regiment, so no unit is lost). The
  regiment's morale points are untouched; the division's own are forgotten. There must be
  room for the regiment's stand on the table and clear of every other piece: without it
  the attempt fails for now and is made again at the end of each activation, and on the
  division's next card it falls back as under ``march``. The regiment's attached generals
  keep their place about its new footprint, as through a formation change (one with no
  room there stays where he stood, on his own, and the regiment may not stand on him). A
  general attached to the forlorn hope stays with the regiment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.dice import D6
from tertia.core.events import DiceRolled, Event, UnitMoved, UnitRemoved
from tertia.core.geometry import EPSILON, Base, base_distance, heading_vector
from tertia.core.narration import Narrating, Sentence, tells
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.rules.formations import footprint, reformed_centre
from tertia.rules.involuntary import Interpenetration, Slide, plan_slide, stands_on, towards
from tertia.rules.movement import MovePlan
from tertia.rulesets.declare_thee_sir import movement
from tertia.rulesets.declare_thee_sir.events import ObstacleReached
from tertia.rulesets.declare_thee_sir.generals import (
    ATTACH_REACH,
    attach,
    attached_generals,
    carry_generals,
    carry_reformed_generals,
    reformed_places,
)
from tertia.rulesets.declare_thee_sir.stands import LAYOUTS
from tertia.rulesets.declare_thee_sir.values import unit_data

MARCH, AT_ONCE = "march", "at_once"
REJOIN_CHOICES = (MARCH, AT_ONCE)
"""The option ``forlorn_rejoin``: how a forlorn hope rejoins (see the module's note)."""

TOUCHING = ATTACH_REACH
"""Edge to edge, this close to its regiment a forlorn hope touches it."""
REJOINED = "rejoined"
"""Why a forlorn hope that rejoined left play (it is not lost)."""


@dataclass(frozen=True, slots=True)
class ForlornHopeRejoined(Event):
    """The forlorn hope ``unit`` went back into ``regiment``, which now stands ``width``
    by ``depth`` about (``x``, ``y``), a stand more."""

    type: ClassVar[str] = "dts_forlorn_hope_rejoined"
    unit: str
    regiment: str
    x: float
    y: float
    width: float
    depth: float


@handles(ForlornHopeRejoined)
def _rejoined(s: GameState, e: ForlornHopeRejoined) -> GameState:
    regiment = s.units[e.regiment]
    return s.with_unit(regiment.evolve(x=e.x, y=e.y, width=e.width, depth=e.depth, stands=(),
                                       stands_left=unit_data(regiment).stands_left + 1))


@tells(ForlornHopeRejoined)
def _tell_rejoined(n: Narrating, e: ForlornHopeRejoined, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.unit)} rejoins {n.label(e.regiment)}", "status"


def regiment_to_rejoin(state: GameState, hope: Unit) -> Unit | None:
    """The regiment ``hope`` was sent out from, when it is there to take it back: in play
    and not routing."""
    parent = unit_data(hope).parent
    regiment = state.units.get(parent) if parent is not None else None
    if regiment is None or not regiment.in_play or unit_data(regiment).routing:
        return None
    return regiment


def must_rejoin(state: GameState, hope: Unit) -> bool:
    """Must ``hope`` go back to its regiment: it is at poor or routing, or its regiment is
    at poor, and the regiment can take it back."""
    regiment = regiment_to_rejoin(state, hope)
    if regiment is None or not hope.in_play:
        return False
    own = unit_data(hope)
    return own.morale == 0 or own.routing or unit_data(regiment).morale == 0


def falls_back(state: GameState, hope: Unit) -> bool:
    """Does ``hope``'s card make it fall back on its regiment (it must rejoin and is not
    routing: a routing one rallies or flees towards the regiment)?"""
    return must_rejoin(state, hope) and not unit_data(hope).routing


def regrown(regiment: Unit) -> Unit:
    """``regiment`` with a stand more, laid out in its formation about its front."""
    own = unit_data(regiment)
    width, depth = footprint(LAYOUTS[own.formation], own.stands_left + 1, own.stand_width, own.stand_depth)
    x, y = reformed_centre(regiment.base, depth)
    return regiment.evolve(x=x, y=y, width=width, depth=depth, stands_left=own.stands_left + 1, stands=())


def room_for(table: Battlefield, state: GameState, hope: Unit, regiment: Unit) -> bool:
    """Is there room for ``regiment`` to take its stand back: on the table and clear of
    every piece but itself and ``hope``? Its own attached generals are not in its way: they
    keep their place about its new footprint, or stay where they stood if they have no room
    there (:func:`~tertia.rulesets.declare_thee_sir.generals.reformed_places`), when the
    regiment must not stand on them."""
    grown = regrown(regiment)
    clear = {regiment.id, hope.id, *(g.id for g in attached_generals(state, regiment.id))}
    if not table.inside_table(grown.base.corners()) or stands_on(state, grown.base, clear):
        return False
    left = reformed_places(table, state, regiment, grown, ignore=(hope.id,)).left
    return not any(grown.overlaps(g.base.corners()) for g in left)


def join(tx: Tx, hope_id: str, *, anywhere: bool = False) -> bool:
    """``hope_id`` goes back into its regiment if it must, touches it (or ``anywhere``) and
    there is room; True when it has. The regiment's attached generals keep their place
    about its new footprint (Movement: "Attached generals move with unit"), and the
    forlorn hope's join the regiment."""
    hope = tx.state.units.get(hope_id)
    if hope is None or not must_rejoin(tx.state, hope):
        return False
    regiment = regiment_to_rejoin(tx.state, hope)
    assert regiment is not None  # must_rejoin found it
    if not anywhere and base_distance(hope.base, regiment.base) > TOUCHING:
        return False
    if not room_for(tx.table, tx.state, hope, regiment):
        return False
    grown = regrown(regiment)
    tx.emit(ForlornHopeRejoined(unit=hope_id, regiment=regiment.id, x=grown.x, y=grown.y,
                                width=grown.width, depth=grown.depth))
    carry_reformed_generals(tx, regiment, grown, ignore=(hope_id,))  # before the hope's join it
    for general in attached_generals(tx.state, hope_id):
        attach(tx, general.id, regiment.id)
    tx.emit(UnitRemoved(unit=hope_id, reason=REJOINED, detail=f"back in {regiment.label}"))
    return True


def settle(tx: Tx, how: str) -> None:
    """At the end of an activation: every forlorn hope that must rejoin and touches its
    regiment goes back into it; under ``at_once`` wherever it stands."""
    for hope in drawn_pieces(tx.state):
        join(tx, hope.id, anywhere=how == AT_ONCE)


def drawn_pieces(state: GameState) -> tuple[Unit, ...]:
    """The pieces in play drawn from a regiment (forlorn hopes), in play order: kept from
    one position to the next, each change of a piece testing only that piece again."""
    return state.pieces_where(_DRAWN, _is_drawn)


def _is_drawn(unit: Unit) -> bool:
    return unit_data(unit).parent is not None


_DRAWN = ("declare-thee-sir", "drawn from a regiment")


@dataclass(frozen=True, slots=True)
class FallBack:
    """A forlorn hope's move back: the roll, the inches it was allowed, how far it went
    and whether it rejoined."""

    unit: str
    roll: int
    allowed: int
    distance: float
    rejoined: bool


def fall_back(tx: Tx, hope_id: str) -> FallBack:
    """On its card, a forlorn hope that must rejoin (and is not routing) rolls its move and
    goes straight towards its regiment (see the module's note), then rejoins it if it
    touches it."""
    hope = tx.state.units[hope_id]
    regiment = regiment_to_rejoin(tx.state, hope)
    assert regiment is not None  # only called when it falls back
    own = unit_data(hope)
    roll = sum(tx.roll(D6, f"falls back: {hope.label}") for _ in range(movement.move_dice(own)))
    found = movement.work_out(roll, movement.modifiers(own), halve=False)
    heading = towards(hope.base, regiment.base)
    allowed = found.open_ground
    slide = _towards(tx.state, hope, heading, float(allowed))
    if _difficult(tx.table, movement.straight(hope, heading, slide.distance)):
        allowed = found.difficult
        slide = _towards(tx.state, hope, heading, float(allowed))
    went, stopped = movement.ground_stop(tx.table, hope, heading, slide.distance)
    if went > EPSILON:
        dx, dy = heading_vector(heading)
        end = (hope.x + dx * went, hope.y + dy * went)
        tx.emit(UnitMoved(unit=hope_id, path=((hope.x, hope.y), end), facing=hope.facing,
                          reason="falls back on its regiment"))
        carry_generals(tx, hope, dx * went, dy * went)
    if stopped != own.at_obstacle:
        tx.emit(ObstacleReached(unit=hope_id, reached=stopped))
    return FallBack(hope_id, roll, allowed, went, join(tx, hope_id))


def _towards(state: GameState, hope: Unit, heading: float, inches: float) -> Slide:
    """Slide towards the regiment, stopped by the first piece in the way (the regiment
    itself among them); the hope's own generals go with it."""
    return plan_slide(state, hope, heading=heading, distance=inches, policy=Interpenetration.STOP,
                      table=(float("inf"), float("inf")),
                      ignore={g.id for g in attached_generals(state, hope.id)})


def _difficult(table: Battlefield, plan: MovePlan) -> bool:
    areas = plan.swept()
    return any(table.has(k) and table.overlaps(k, a) for k in movement.DIFFICULT for a in areas) \
        or movement.crosses_hill_step(table, plan)


def stop_at_regiment(state: GameState, unit: Unit, stands: Sequence[Base], slides: Sequence[Slide],
                     table: tuple[float, float]) -> tuple[Slide, ...]:
    """A routing forlorn hope's flight ends where a stand reaches its regiment (it flees to
    rejoin it): each slide that would reach the regiment is cut there."""
    regiment = regiment_to_rejoin(state, unit)
    if regiment is None:
        return tuple(slides)
    others = {u.id for u in state.iter_units() if u.id not in (regiment.id, unit.id)}
    out = []
    for stand, slide in zip(stands, slides, strict=True):
        meets = plan_slide(state, unit, heading=slide.heading, distance=slide.wanted,
                           policy=Interpenetration.STOP, table=(float("inf"), float("inf")),
                           base=stand, ignore=others)
        if meets.stopped_by == regiment.id and meets.distance <= slide.distance + EPSILON:
            slide = plan_slide(state, unit, heading=slide.heading, distance=meets.distance,
                               policy=Interpenetration.PASS_FRIENDS, table=table,
                               base=stand, ignore=(regiment.id,))
        out.append(slide)
    return tuple(out)
