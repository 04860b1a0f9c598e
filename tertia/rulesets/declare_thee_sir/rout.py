"""Routs and pursuit (Melee Chart notes, 5d).

"ROUT in melee indicates the target unit is broken. Roll 2D6 for each unit stand and move
that many inches away from foe, or towards friendly table edge. The routing unit will
continue to rout each time it is activated unless it is rallied. When routed off a table
edge, a unit is removed from play." "The victorious attacking unit will pursue the
routing unit 1D6. If it contacts a routing unit stand, the routing stand is moved a
further 2D6. It will continue to pursue each time it is activated until it beats its
current morale point total on 1D6 (3 morale points needs a 4+ etc.), or the routing unit
is removed from play. The pursuing unit then stops, may change facing, and may be rallied
to resume movement." Movement: "Units that move or rout through another unit cause a
moral check (one musketry roll) on each unit involved."

Read so (the clause table says why): a unit broken by a foe flees straight away from it;
on later activations, with no foe to flee, it flees towards its own table edge. Each
stand flees on its own (:func:`tertia.rules.involuntary.plan_scatter`), through friends,
who each check morale once, and is stopped by an enemy or at the water's edge (a lake,
or a river away from its fords and bridges: :mod:`~tertia.rulesets.declare_thee_sir.water`);
a stand whose flight takes it over the edge is gone, and a unit with no stand left is
removed. The unit stands where its flag (its first stand) stands. A pursuer moves 1D6
straight at the nearest stand of the unit it pursues, through its own side's troops, who
each check morale once, and then the pursuer itself; any other enemy in its way stops it in
contact, as do the water's edge and the table's
(:mod:`~tertia.rulesets.declare_thee_sir.edge`); a stand it reaches (the one it went at, or
another of the unit's in its way) flees a further 2D6. Every piece, a routing unit's
scattered stands each, stands in the way of moves, routs and pursuits. A unit broken while
pursuing pursues no more. A forlorn hope flees towards the regiment it would rejoin
(:mod:`~tertia.rulesets.declare_thee_sir.rejoin`). Obstacles (walls, streams, fences,
hedges) stop a rout, a pursuit or a push-back only under the option ``obstacles_stop``
``every_move`` (by default "it stops" is read of a unit's own movement): a routing stand
or a pursuer stops at the first it meets, and one already at an obstacle crosses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.dice import D6, sum_of
from tertia.core.events import DiceRolled, Event, StandsScattered, UnitMoved, UnitRemoved
from tertia.core.geometry import CONTACT, Base, base_distance, bearing
from tertia.core.narration import Narrating, Sentence, tells
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rules.casualties import lose_stands
from tertia.rules.involuntary import (
    Interpenetration,
    Slide,
    away_from,
    facing_from_clear,
    plan_scatter,
    plan_slide,
    towards,
)
from tertia.rules.measuring import home_edge
from tertia.rulesets.declare_thee_sir import edge, movement, rejoin, water
from tertia.rulesets.declare_thee_sir.events import ObstacleReached
from tertia.rulesets.declare_thee_sir.generals import attach, attached_generals, carry_generals
from tertia.rulesets.declare_thee_sir.points import MoraleCheck, morale_check
from tertia.rulesets.declare_thee_sir.readings import EVERY_MOVE, OBSTACLES_STOP, of_game
from tertia.rulesets.declare_thee_sir.stands import stands_of
from tertia.rulesets.declare_thee_sir.values import unit_data

TWO_D6 = sum_of(2, D6)


@dataclass(frozen=True, slots=True)
class UnitBroken(Event):
    """``unit`` is broken: it routs until rallied."""

    type: ClassVar[str] = "dts_unit_broken"
    unit: str


@dataclass(frozen=True, slots=True)
class UnitRallied(Event):
    """``unit`` has rallied: it no longer routs."""

    type: ClassVar[str] = "dts_unit_rallied"
    unit: str


@dataclass(frozen=True, slots=True)
class PursuitChanged(Event):
    """``unit`` now pursues ``target`` (``None``: it has stopped)."""

    type: ClassVar[str] = "dts_pursuit_changed"
    unit: str
    target: str | None


@handles(UnitBroken)
def _broken(s: GameState, e: UnitBroken) -> GameState:
    return s.with_unit(s.units[e.unit].evolve(routing=True))


@handles(UnitRallied)
def _rallied(s: GameState, e: UnitRallied) -> GameState:
    return s.with_unit(s.units[e.unit].evolve(routing=False))


@handles(PursuitChanged)
def _pursuit(s: GameState, e: PursuitChanged) -> GameState:
    return s.with_unit(s.units[e.unit].evolve(pursuing=e.target))


@tells(UnitBroken)
def _tell_broken(n: Narrating, e: UnitBroken, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.unit)} is broken and routs", "loss"


@tells(UnitRallied)
def _tell_rallied(n: Narrating, e: UnitRallied, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.unit)} rallies on its colours", "status"


@tells(PursuitChanged)
def _tell_pursuit(n: Narrating, e: PursuitChanged, dice: Sequence[DiceRolled]) -> Sentence:
    if e.target is None:
        return f"{n.label(e.unit)} stops pursuing", "move"
    return f"{n.label(e.unit)} pursues {n.label(e.target)}", "move"


def is_routing(unit: Unit) -> bool:
    return unit_data(unit).routing


def pursued_by(unit: Unit) -> str | None:
    """The routing unit ``unit`` is pursuing, if any."""
    return unit_data(unit).pursuing


@dataclass(frozen=True, slots=True)
class Flight:
    """A rout carried out: each stand's roll and slide, the friends passed through and
    their morale checks, and whether the unit has left play (off the table, or a forlorn
    hope back in its regiment)."""

    unit: str
    rolls: tuple[int, ...]
    slides: tuple[Slide, ...]
    checks: tuple[MoraleCheck, ...]
    removed: bool


def home_heading(state: GameState, side: str) -> float:
    """Straight towards ``side``'s own table edge."""
    return 180.0 if home_edge(state, side) == "south" else 0.0


def flight_heading(state: GameState, unit: Unit, foe_id: str | None) -> float:
    """Which way a routing unit flees: a forlorn hope towards the regiment it would rejoin
    (Optional Rules a, :mod:`~tertia.rulesets.declare_thee_sir.rejoin`); any other away
    from ``foe_id`` or, with no foe, towards its own edge."""
    regiment = rejoin.regiment_to_rejoin(state, unit)
    if regiment is not None:
        return towards(unit.base, regiment.base)
    foe = state.units.get(foe_id) if foe_id is not None else None
    return away_from(foe.base, unit.base) if foe is not None else home_heading(state, unit.side)


def rout(tx: Tx, unit_id: str, foe_id: str | None, cause: str) -> Flight:
    """Break ``unit_id`` (or keep it fleeing): each stand rolls 2D6 and flees that far
    (:func:`flight_heading`)."""
    unit = tx.state.units[unit_id]
    if not is_routing(unit):
        tx.emit(UnitBroken(unit=unit_id))
        if pursued_by(unit) is not None:  # broken, it flees: it pursues no more
            stop_pursuing(tx, unit_id)
    heading = flight_heading(tx.state, tx.state.units[unit_id], foe_id)
    stands = stands_of(tx.state.units[unit_id])
    rolls = tuple(tx.roll(TWO_D6, f"rout: {unit.label} stand {i + 1}") for i in range(len(stands)))
    return flee(tx, unit_id, stands, rolls, heading, cause)


def flee_further(tx: Tx, unit_id: str, stand: int, heading: float, cause: str) -> Flight:
    """One stand, reached by its pursuer, flees a further 2D6 (the others stay put)."""
    unit = tx.state.units[unit_id]
    stands = stands_of(unit)
    roll = tx.roll(TWO_D6, f"rout: {unit.label} stand {stand + 1} flees its pursuer")
    rolls = tuple(roll if i == stand else 0 for i in range(len(stands)))
    return flee(tx, unit_id, stands, rolls, heading, cause)


def flee(tx: Tx, unit_id: str, stands: tuple[Base, ...], rolls: tuple[int, ...], heading: float,
         cause: str) -> Flight:
    """Each of ``stands`` flees its roll along ``heading``; friends passed check morale,
    each once, and then the routing unit itself ("each unit involved"); a friend the check
    breaks routs in turn, towards its own edge. Stands over the edge are lost, and with them
    all the unit. Generals passed check nothing ("General stands don't check for morale
    points")."""
    state = tx.state
    unit = state.units[unit_id]
    size = (tx.table.width, tx.table.depth)
    slides = plan_scatter(state, unit, stands, [float(r) for r in rolls], heading=heading,
                          policy=Interpenetration.PASS_FRIENDS, table=size)
    slides = tuple(water.keep_dry(tx.table, state, unit, s, Interpenetration.PASS_FRIENDS) for s in slides)
    if of_game(state, OBSTACLES_STOP) == EVERY_MOVE:
        slides = tuple(movement.stop_at_obstacle(tx.table, state, unit, s, Interpenetration.PASS_FRIENDS)
                       for s in slides)
    slides = rejoin.stop_at_regiment(state, unit, stands, slides, size)
    gone = tuple(s.off_table for s in slides)
    before = (unit.x, unit.y)
    # each stand keeps the shape it fled in (a gun in long march is turned sideways)
    tx.emit(StandsScattered(unit=unit_id, places=tuple(s.end.centre for s in slides),
                            width=stands[0].width, depth=stands[0].depth, gone=gone))
    if all(gone):
        for general in attached_generals(tx.state, unit_id):  # left behind as the unit goes
            attach(tx, general.id, None)
    else:
        flag = tx.state.units[unit_id]
        carry_generals(tx, unit, flag.x - before[0], flag.y - before[1])  # they flee with the colours
    checks: list[MoraleCheck] = []
    passed = [f for f in dict.fromkeys(f for s in slides for f in s.passed_through)
              if tx.state.units[f].in_play and not unit_data(tx.state.units[f]).is_general]
    for friend in passed:
        checks.append(morale_check(tx, friend, f"{unit.label} routed through it"))
    if any(gone):
        lose_stands(tx, unit_id, sum(gone), "routed off the table")
    removed = all(gone)
    if passed and not removed:
        names = ", ".join(tx.state.units[f].label for f in passed)
        checks.append(morale_check(tx, unit_id, f"routed through {names}"))
    if removed:
        tx.emit(UnitRemoved(unit=unit_id, reason="routed", detail="off the table"))
    elif rejoin.join(tx, unit_id):  # a forlorn hope that reached its regiment
        removed = True
    for check in checks:  # "loses another point to ... a morale check routs"
        broken = tx.state.units[check.unit]
        if check.routed and check.unit != unit_id and broken.in_play and not is_routing(broken):
            rout(tx, check.unit, None, "failed a morale check")
    return Flight(unit_id, rolls, slides, tuple(checks), removed)


@dataclass(frozen=True, slots=True)
class Pursuit:
    """A pursuer's move: its 1D6, how far it went, and the stand it reached (its index
    among the routing unit's stands), if any."""

    pursuer: str
    roll: int
    distance: float
    reached: int | None


def pursue(tx: Tx, pursuer_id: str, routing_id: str) -> Pursuit:
    """Move ``pursuer_id`` 1D6 straight at the nearest stand of ``routing_id``, its attached
    generals with it (Movement: "Attached generals move with unit"); a stand it reaches
    flees a further 2D6 along the line of the pursuit. It passes through its own side's
    troops, going on until clear of them, and each of them and then the pursuer check
    morale (Movement: "Units that move or rout through another unit cause a moral check
    ... on each unit involved"); one that would go on past the stand it pursues to clear
    a friend stops in contact with that friend instead. Another enemy in its way stops it
    in contact (:func:`pursuit_slide`). The stand it contacts, the one it went at or
    another of the unit's in its way, flees a further 2D6: a quarry that has rallied has no
    routing stand, and the pursuer halts in contact with it. A pursuer that, turned where
    it stands, would stand over a stand of its quarry faces it from just clear, in contact."""
    pursuer = tx.state.units[pursuer_id]
    if pursued_by(pursuer) != routing_id:
        tx.emit(PursuitChanged(unit=pursuer_id, target=routing_id))
    roll = tx.roll(D6, f"pursuit: {pursuer.label}")
    routing = tx.state.units[routing_id]
    stands = stands_of(routing)
    if not routing.in_play or not stands:
        return Pursuit(pursuer_id, roll, 0.0, None)
    nearest = min(range(len(stands)), key=lambda i: (base_distance(pursuer.base, stands[i]), i))
    heading = bearing(pursuer.base.centre, stands[nearest].centre)
    generals = tuple(g.id for g in attached_generals(tx.state, pursuer_id))
    # turned where it stands it may stand over a stand it pursues: it faces it from just clear
    facing = facing_from_clear(tx.state, pursuer.evolve(facing=heading), routing,
                               (tx.table.width, tx.table.depth), generals)
    turned = facing.start
    if facing.blocked_by is not None or not edge.on_table(tx.table, turned):
        return Pursuit(pursuer_id, roll, 0.0, None)  # pinned, it cannot turn that way
    slide = pursuit_slide(tx, pursuer, turned, float(roll), generals)
    went = slide.distance
    walls = of_game(tx.state, OBSTACLES_STOP) == EVERY_MOVE
    if went > 0 or facing.back > 0:
        end = slide.end.centre
        tx.emit(UnitMoved(unit=pursuer_id, path=((pursuer.x, pursuer.y), end), facing=heading,
                          reason="pursuit"))
        carry_generals(tx, pursuer, end[0] - pursuer.x, end[1] - pursuer.y, heading)  # "move with unit"
    if walls:
        stopped = movement.at_obstacle(tx.table, tx.state.units[pursuer_id].base.corners())
        if stopped != unit_data(tx.state.units[pursuer_id]).at_obstacle:
            tx.emit(ObstacleReached(unit=pursuer_id, reached=stopped))
    _check_passed(tx, pursuer_id, slide.passed_through)
    reached = _stand_reached(slide, routing_id, stands) if is_routing(routing) else None
    if reached is None or not _still_pursuing(tx, pursuer_id):
        # short, stopped, broken by its own check, or at a quarry rallied (no routing stand)
        return Pursuit(pursuer_id, roll, went, None)
    flee_further(tx, routing_id, reached, heading, f"caught by {pursuer.label}")
    return Pursuit(pursuer_id, roll, went, reached)


def _stand_reached(slide: Slide, routing_id: str, stands: tuple[Base, ...]) -> int | None:
    """The routing unit's stand the pursuer contacts ("If it contacts a routing unit
    stand"): the one its slide ends touching, when the unit it pursues stopped it (not when
    a friend it could not go on through did, short of it)."""
    if slide.stopped_by != routing_id:
        return None
    gap, nearest = min((base_distance(slide.end, s), i) for i, s in enumerate(stands))
    return nearest if gap <= CONTACT else None


def pursuit_slide(tx: Tx, pursuer: Unit, turned: Base, wanted: float, ignore: tuple[str, ...]) -> Slide:
    """The pursuer's slide (turned to face the stand it pursues, ``turned``) of ``wanted``
    inches (``ignore``: its attached generals, who go with it): through friends until clear
    of them, stopped by any enemy in contact, the unit it pursues first of all, at the
    table's edge, at the water's edge and (option ``obstacles_stop`` ``every_move``) at an
    obstacle. Where clearing a friend would carry it onto an enemy (its quarry among them),
    it stops in contact with the friend instead
    (:class:`~tertia.rules.involuntary.Interpenetration` ``PASS_FRIENDS``)."""
    policy = Interpenetration.PASS_FRIENDS
    slide = plan_slide(tx.state, pursuer, heading=turned.facing, distance=wanted, policy=policy,
                       table=(tx.table.width, tx.table.depth), base=turned, ignore=ignore)
    slide = edge.keep_on(tx.table, tx.state, pursuer, slide, policy, ignore=ignore)
    slide = water.keep_dry(tx.table, tx.state, pursuer, slide, policy, ignore=ignore)
    if of_game(tx.state, OBSTACLES_STOP) == EVERY_MOVE:
        slide = movement.stop_at_obstacle(tx.table, tx.state, pursuer, slide, policy, ignore=ignore)
    return slide


def _check_passed(tx: Tx, pursuer_id: str, passed: Sequence[str]) -> None:
    """The friends a pursuer went through check morale, each once, and then the pursuer
    ("each unit involved"); generals check nothing. One the check breaks routs towards its
    own edge."""
    friends = [f for f in passed if tx.state.units[f].in_play and not unit_data(tx.state.units[f]).is_general]
    if not friends:
        return
    pursuer = tx.state.units[pursuer_id]
    checks = [morale_check(tx, f, f"{pursuer.label} pursued through it") for f in friends]
    names = ", ".join(tx.state.units[f].label for f in friends)
    checks.append(morale_check(tx, pursuer_id, f"pursued through {names}"))
    for check in checks:
        broken = tx.state.units[check.unit]
        if check.routed and broken.in_play and not is_routing(broken):
            rout(tx, check.unit, None, "failed a morale check")


def _still_pursuing(tx: Tx, pursuer_id: str) -> bool:
    """Is the pursuer still in play and pursuing (not broken by a check on the way)?"""
    pursuer = tx.state.units[pursuer_id]
    return pursuer.in_play and not is_routing(pursuer)


def stop_pursuing(tx: Tx, pursuer_id: str) -> None:
    tx.emit(PursuitChanged(unit=pursuer_id, target=None))


def beats_morale(tx: Tx, pursuer_id: str) -> bool:
    """The pursuer's 1D6 against its current morale points: more, and it stops ("until it
    beats its current morale point total on 1D6 (3 morale points needs a 4+ etc.)")."""
    unit = tx.state.units[pursuer_id]
    points = unit_data(unit).morale or 0
    return tx.roll(D6, f"break off pursuit: {unit.label}") > points
