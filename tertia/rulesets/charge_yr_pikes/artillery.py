"""Artillery (section 9): ball, canister, penetration, batteries hit, heavy guns, pivots
and firing over troops from hills.

"BALL Gallopers = no ball Field guns = 36" Heavy guns = 48". CANNISTER ... Field guns =
12" Heavy guns = 15"." Ball: "Roll 1 D6 per battery firing: Deep formations: 1,2 = miss
3,4,5 = 1 hit, 6 = 2hits; Shallow formations 1,2,3 = miss, 4,5,6 = 1 hit"; on cavalry
"1,2,3 = miss, 4,5,6 = 1 hit"; on field or heavy artillery "Roll 1 D10 per battery ...
9 = 1 artillerist hit, 0 = roll again 1,2,3,4,5 = 1 artillerist hit, 6,7,8 = battery
cannot fire for one turn 9,0 = battery silenced indefinitely. Roll a D6 in rally phase
of each turn. 1,2,3 = cannot fire. 4,5,6 = may resume normal fire." "Modifiers: +1 if
firing in enfilade. (Not against batteries) + 1 if officer attached to battery." "HEAVY
GUNS were very slow to load and may only fire every other turn." Canister: "Roll a D6
for each gunner. All formations 1,2 = miss, 3,4,5,6 = hit." "Field guns may pivot in
place up to 45 degrees from the facing direction in which they began the turn and still
fire. Heavy guns may not fire on a turn in which they pivot." Penetration: "For field
guns, this depth of penetration is 12" from the front of the original target unit. For
heavy guns ... 18" ... Enemy or friendly units that are along the direct line of fire
and within the penetration zone must test for hits just as the original target unit
does." Hills: "When artillery located on a hill fires ball at a target on another hill,
it may fire over all intervening troops, towns, or woods ... on a hill fires ball at a
target not on a hill, it may fire over intervening friendly troops as long as there is a
clear space of 12" between the friendly troops and the target unit ... not on a hill
fires ball at a target on a hill, it may fire over intervening friendly troops on the
same level as itself, as long as there is a clear space of 12" between the firing
artillery and the friendly troops. Artillery may never fire cannister over friendly
troops."

Read so:

- a battery is one gun piece; its arc is its stand's 45 degrees (as musketry's); range is
  from its front centre to the nearest part of the target;
- a gun that left its place this turn does not fire (only a pivot in place "and still
  fire"); a field gun turned more than 45 degrees, or a heavy gun turned at all, from its
  facing as the turn began does not fire (where each stood is noted as the turn begins:
  :func:`note_places`); a heavy gun that fired last turn does not fire;
- cavalry are horse and mounted dragoons; infantry stand deep or shallow by
  ``tables.toml [artillery.deep]``, shallow in a town or works (the text);
- enfilade: the gun stands beyond the target's flank (its centre beyond a side of the
  target's base, split by the diagonals); a square has no flank;
- the modifiers add to the first die, read as the nearest face (not to the D10 rolled
  again);
- "test morale if hit": the ball struck the battery home (a gunner hit, or the battery
  stopped or silenced);
- penetration: the direct line of fire runs from the gun's front centre through the
  target's centre; the zone runs from where it meets the target's base 12" (18") on,
  and stops at the first woods, town or works, or where the ground rises above the
  target's front (``tables.toml [artillery.stops]``); each unit it crosses there (but
  officers and gallopers, who share their unit's fate) rolls its own die, as a target;
- canister's dice are the gunners left; a wall, hedge or woods takes 1 off each, as off
  musketry's (16 C); canister fires over no troops at all (enemy troops in the way are
  the nearer target), ball over troops only by the hill rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

import shapely
from shapely.geometry import LineString
from shapely.geometry import Polygon as ShapelyPolygon

from tertia.core.dice import D6, D10, read_face
from tertia.core.events import Event
from tertia.core.geometry import Face, Point, base_distance, face_towards
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.core.violations import Violation, not_in_play
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers
from tertia.rulesets.charge_yr_pikes.data import DEPLOYED, SQUARE, UNSEEN
from tertia.rulesets.charge_yr_pikes.events import change
from tertia.rulesets.charge_yr_pikes.fire import (
    BALL,
    CANISTER,
    SILENCED,
    SILENT_TURN,
    FireCode,
    Modifier,
    Shot,
    Strike,
    hit_faces,
    roll_hits,
    total,
)
from tertia.rulesets.charge_yr_pikes.musketry import (
    halved,
    line_problems,
    moved_from_start,
    target_problems,
)
from tertia.rulesets.charge_yr_pikes.sight import (
    WORKS,
    Sighting,
    behind_wall_hedge_or_woods,
    in_the_way,
    level,
    sightings,
)
from tertia.rulesets.charge_yr_pikes.tables import Batteries, Tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

RULE = "Charge yr Pikes! Artillery 9"
HILLS_RULE = "Charge yr Pikes! Artillery: firing from hills"
KINDS = (BALL, CANISTER)
GUNNER = "gunner"
HIT, MISSED, AGAIN = "hit", "missed", "again"
"""How a battery's first D10 against a battery reads (:func:`_battery_read`)."""
HORSE_TROOPS = ("horse", "lobsters", "scots_horse")
STEP = 0.25
"""Inches between the points where the ground under a ball's path is looked at."""


@dataclass(frozen=True, slots=True)
class PlacesNoted(Event):
    """Where each unit stood (x, y, facing) as the turn began."""

    type: ClassVar[str] = "cyp_places_noted"
    places: tuple[tuple[str, float, float, float], ...]


@handles(PlacesNoted)
def _noted(s: GameState, e: PlacesNoted) -> GameState:
    return s.evolve(own=game_data(s).evolve(places=e.places))


def note_places(tx: Tx) -> None:
    """Note where every unit stands as a turn begins (guns that then move or pivot, and
    gallopers with horse that moves over 8", are judged from it)."""
    tx.emit(PlacesNoted(tuple((u.id, u.x, u.y, u.facing) for u in tx.state.iter_units())))


def is_cavalry(unit: Unit) -> bool:
    own = unit_data(unit)
    return own.troop in HORSE_TROOPS or (own.troop == "dragoons" and own.mounted)


def is_battery(unit: Unit) -> bool:
    """Field or heavy artillery (a galloper shares its unit's fate)."""
    return unit_data(unit).is_battery


def stands_deep(table: Battlefield, unit: Unit, tables: Tables) -> bool:
    """Deep or shallow to a ball: in a town or works shallow; else by the chosen list."""
    own = unit_data(unit)
    centre = (unit.x, unit.y)
    if own.formation == DEPLOYED or any(table.contains_point(k, centre) for k in (TerrainKind.TOWN, *WORKS)):
        return False
    deep = tables.artillery.deep
    return own.troop in deep.troops or own.formation in deep.formations


def enfiladed(gun: Unit, unit: Unit) -> bool:
    """Is the gun beyond a flank of ``unit`` (a square has none)?"""
    if unit_data(unit).formation == SQUARE:
        return False
    return face_towards(unit.base, gun.base.centre) in (Face.LEFT, Face.RIGHT)


# --- legality --------------------------------------------------------------------------


def gun_problems(state: GameState, gun: Unit, tables: Tables) -> list[Violation]:
    """Why a battery may not fire this turn at all."""
    own = unit_data(gun)
    if own.men <= 0 or own.routed:
        return [Violation(FireCode.CANNOT_FIRE, f"{gun.label} has no gunners to serve it", RULE)]
    if own.silenced:
        return [Violation(FireCode.SILENCED, f"{gun.label} is silenced until it rallies (a D6 of 4-6 in "
                          "the rally phase)", f"{RULE}: ball on batteries")]
    if own.silent_turn == state.turn:
        return [Violation(FireCode.SILENCED, f"{gun.label} cannot fire this turn (hit by a ball)",
                          f"{RULE}: ball on batteries")]
    every = tables.artillery.handling.every[own.gun]  # type: ignore[index]  # a battery's gun
    if own.fired_turn == state.turn:
        return [Violation(FireCode.RELOADING, f"{gun.label} has already fired this turn", RULE)]
    if own.fired_turn is not None and state.turn - own.fired_turn < every:
        return [Violation(FireCode.RELOADING, f"{gun.label} fired on turn {own.fired_turn}; a heavy gun "
                          "fires every other turn", f"{RULE}: heavy guns")]
    moved = moved_from_start(state, gun)
    if moved is not None:
        shifted, turned = moved
        if shifted > 1e-6:
            return [Violation(FireCode.GUN_MOVED, f"{gun.label} moved this turn; a gun fires after pivoting "
                              "in place only", f"{RULE}: pivots")]
        pivot = tables.artillery.handling.pivot[own.gun]  # type: ignore[index]
        if turned > pivot + 1e-6:
            limit = ("may not fire on a turn it pivots" if pivot == 0
                     else f"may pivot {pivot} degrees and fire")
            return [Violation(FireCode.GUN_MOVED, f"{gun.label} pivoted {turned:.0f} degrees this turn; a "
                              f"{own.gun} gun {limit}", f"{RULE}: pivots")]
    return []


def over_troops(table: Battlefield, gun: Unit, target: Unit, line: Sighting, kind: str,
                tables: Tables) -> str | None:
    """Why the troops this line crosses stop the shot (None: it may fire over them)."""
    if not line.screens:
        return None
    friends = [u for u in line.screens if u.side == gun.side]
    enemies = [u for u in line.screens if u.side != gun.side]
    if kind == CANISTER:
        if friends:
            return f"artillery may never fire canister over friendly troops ({friends[0].label})"
        return f"{enemies[0].label} stands in the line of fire"
    gun_level, target_level = level(table, gun), level(table, target)
    if gun_level > 0 and target_level > 0:
        return None
    if enemies:
        return f"{enemies[0].label} stands in the line of fire"
    clear = tables.artillery.handling.clear_space
    if gun_level > 0:
        near = [u for u in friends if base_distance(u.base, target.base) < clear - 1e-9]
        return None if not near else (f"{near[0].label} stands within {clear}\" of {target.label}: a gun on "
                                      f"a hill fires over friends with {clear}\" clear before the target")
    if target_level > 0:
        below = [u for u in friends if level(table, u) != gun_level]
        near = [u for u in friends if base_distance(u.base, gun.base) < clear - 1e-9]
        if below:
            return f"{below[0].label} is not on the gun's level"
        return None if not near else (f"{near[0].label} stands within {clear}\" of {gun.label}: firing at a "
                                      f"hill, a gun fires over friends {clear}\" clear of it")
    return f"{friends[0].label} stands in the line of fire"


def _lines(table: Battlefield, state: GameState, gun: Unit, target: Unit, tables: Tables) -> list[Sighting]:
    return sightings(table, state, gun, target, (0,), tables.artillery.handling.arc, tables.sight.dead_ground)


def reach_of(gun: Unit, kind: str, tables: Tables) -> int:
    ranges = tables.artillery.ball_range if kind == BALL else tables.artillery.canister_range
    return ranges[unit_data(gun).gun]  # type: ignore[index]  # a gun's own


def artillery_problems(table: Battlefield, state: GameState, gun_id: str, target_id: str, kind: str,
                       tables: Tables) -> list[Violation]:
    """Why ``gun_id`` may not fire ``kind`` (ball or canister) at ``target_id`` (empty:
    it may). Galloper guns fire with their unit
    (:func:`~tertia.rulesets.charge_yr_pikes.musketry.galloper_problems`)."""
    gun = state.units.get(gun_id)
    if gun is None or not gun.in_play:
        return [Violation(FireCode.CANNOT_FIRE, not_in_play(state, gun_id, "battery", unseen=UNSEEN),
                          RULE)]
    if not unit_data(gun).is_gun:
        return [Violation(FireCode.CANNOT_FIRE, f"{gun.label} is no battery", RULE)]
    if unit_data(gun).gun == "galloper":
        if kind == BALL:
            return [Violation(FireCode.NO_BALL, "galloper guns fire no ball", RULE)]
        return [Violation(FireCode.CANNOT_FIRE, f"{gun.label} fires with its unit, as two stands of "
                          "infantry", f"{RULE}: galloper guns")]
    if kind not in KINDS:
        return [Violation(FireCode.CANNOT_FIRE, f"a gun fires ball or canister, not {kind!r}", RULE)]
    problems = gun_problems(state, gun, tables) or target_problems(state, gun, target_id, RULE)
    if problems:
        return problems
    target = state.units[target_id]
    found = _lines(table, state, gun, target, tables)
    if not found:
        return line_problems(gun, target, (0,), found, 0.0, tables.artillery.handling.arc, RULE)
    reasons = [over_troops(table, gun, target, line, kind, tables) for line in found]
    clear = [line for line, why in zip(found, reasons, strict=True) if why is None]
    if not clear:
        first = next(r for r in reasons if r is not None)
        return [Violation(FireCode.IN_THE_WAY, first, HILLS_RULE)]
    nearest = min(line.distance for line in clear)
    reach = reach_of(gun, kind, tables)
    if nearest > reach + 1e-9:
        return [Violation(FireCode.OUT_OF_RANGE, f"{target.label} is {nearest:.1f}\" from {gun.label}; "
                          f"{unit_data(gun).gun} gun {kind} range is {reach}\"", RULE)]
    return []


# --- ball --------------------------------------------------------------------------------


def ball_modifiers(state: GameState, gun: Unit, unit: Unit, table: Battlefield, tables: Tables
                   ) -> tuple[Modifier, ...]:
    """Enfilade (not at batteries), an officer with the battery, and, when the tables
    say so, the target's wall, hedge or woods."""
    m = tables.artillery.modifiers
    lines = [(m.enfilade, "firing in enfilade", not is_battery(unit) and enfiladed(gun, unit)),
             (m.officer_attached, "officer attached to the battery",
              bool(front_rank_officers(state, gun.id)))]
    if tables.artillery.handling.ball_takes_cover and not is_battery(unit):
        lines.append((tables.musketry.modifiers.behind_wall_hedge_or_woods,
                      "target behind a wall or hedge or in woods",
                      behind_wall_hedge_or_woods(table, unit, gun)))
    return tuple((v, why) for v, why, holds in lines if holds)


def ball_strike(tx: Tx, table: Battlefield, state: GameState, gun: Unit, unit: Unit, tables: Tables,
                purpose: str) -> tuple[Strike, tuple[Modifier, ...]]:
    """One ball's die against ``unit`` (the target, or a unit in the penetration zone)."""
    modifiers = ball_modifiers(state, gun, unit, table, tables)
    cut = halved(table, unit, gun)
    if is_battery(unit):
        b = tables.artillery.batteries
        face = tx.roll(D10, purpose)
        plus = total(modifiers)
        read = read_face(face, D10, lambda f: _battery_read(b, max(1, min(10, f + plus))))
        if read == HIT:
            return Strike(unit.id, 1, halved=cut, struck=True, faces=(face,)), modifiers
        if read == MISSED:
            return Strike(unit.id, 0, faces=(face,)), modifiers
        again = tx.roll(D10, f"{purpose}, rolled again")
        result = read_face(again, D10, lambda f: b.again.get(f))
        if result is None:  # as the table would have been read before
            raise KeyError("a second D10's face missing from [artillery.batteries.again]")
        if result == GUNNER:
            return Strike(unit.id, 1, halved=cut, struck=True, faces=(face, again)), modifiers
        effect = SILENCED if result == SILENCED else SILENT_TURN
        return Strike(unit.id, 0, effect=effect, struck=True, faces=(face, again)), modifiers
    line = "cavalry" if is_cavalry(unit) else "deep" if stands_deep(table, unit, tables) else "shallow"
    face = tx.roll(D6, purpose)
    hits_on: Mapping[int, int] = tables.artillery.ball_hits[line]  # type: ignore[index]  # a line's name
    plus = total(modifiers)
    hits = read_face(face, D6, lambda f: hits_on.get(max(1, min(6, f + plus)), 0))
    return Strike(unit.id, hits, halved=cut, faces=(face,)), modifiers


def _battery_read(b: Batteries, read: int) -> str:
    """A modified D10 against a battery: a gunner hit, rolled again, or missed."""
    return HIT if read in b.hit else AGAIN if read in b.roll_again else MISSED


def penetration(table: Battlefield, state: GameState, gun: Unit, target: Unit, tables: Tables
                ) -> tuple[Unit, ...]:
    """The units in the ball's penetration zone behind ``target``, nearest first."""
    depth = tables.artillery.penetration.get(unit_data(gun).gun or "field")  # type: ignore[call-overload]
    if not depth:
        return ()
    a = gun.base.front_centre()
    c = target.base.centre
    length = math.hypot(c[0] - a[0], c[1] - a[1])
    if length < 1e-9:
        return ()
    ux, uy = (c[0] - a[0]) / length, (c[1] - a[1]) / length
    far = length + target.base.radius * 2.0 + depth
    ray = LineString((a, (a[0] + ux * far, a[1] + uy * far)))
    meets = ray.intersection(ShapelyPolygon(target.base.corners()))
    entry = min((float(ray.project(shapely.Point(p))) for p in shapely.get_coordinates(meets)),
                default=length)
    end = entry + depth
    end = min(end, _stopped_at(table, a, (ux, uy), entry, end, tables))
    if end <= entry:
        return ()
    start_pt = (a[0] + ux * entry, a[1] + uy * entry)
    end_pt = (a[0] + ux * end, a[1] + uy * end)
    found = [u for u in in_the_way(state, start_pt, end_pt, (gun.id, target.id))
             if unit_data(u).gun != "galloper"]
    return tuple(sorted(found, key=lambda u: (math.hypot(u.x - a[0], u.y - a[1]), u.id)))


def _stopped_at(table: Battlefield, a: Point, u: Point, entry: float, end: float, tables: Tables) -> float:
    """Where along the line from ``a`` (direction ``u``) the ground stops a ball between
    ``entry`` and ``end``: the first woods, town or works, or rising ground."""
    stops = tables.artillery.stops
    kinds = [k for name in stops.kinds for k in ((name, *WORKS) if name in WORKS else (name,))]
    p0 = (a[0] + u[0] * entry, a[1] + u[1] * entry)
    p1 = (a[0] + u[0] * end, a[1] + u[1] * end)
    zone = LineString((p0, p1))
    stop = end
    for feature in table.features_near(kinds, p0, p1):
        meets = zone.intersection(feature.geometry)
        if not meets.is_empty:
            first = min(float(zone.project(shapely.Point(p))) for p in shapely.get_coordinates(meets))
            stop = min(stop, entry + first)
    if stops.hills and table.may_meet(TerrainKind.HILL, (p0, p1)):
        ground = table.hill_level(p0)
        steps = int((end - entry) / STEP)
        for k in range(1, steps + 1):
            at = entry + k * STEP
            if table.hill_level((a[0] + u[0] * at, a[1] + u[1] * at)) > ground:
                stop = min(stop, at)
                break
    return stop


# --- working out a shot ------------------------------------------------------------------


def work_out_artillery(tx: Tx, table: Battlefield, state: GameState, gun_id: str, target_id: str, kind: str,
                       tables: Tables) -> Shot:
    """A battery's shot of ``kind`` (ball or canister) at ``target_id``, worked out on
    ``state`` (the step's start), its dice rolled through ``tx``; nothing is applied
    (:func:`~tertia.rulesets.charge_yr_pikes.fire.apply_fire`). Raises ``ValueError``
    for a shot :func:`artillery_problems` refuses."""
    problems = artillery_problems(table, state, gun_id, target_id, kind, tables)
    if problems:
        raise ValueError(str(problems[0]))
    gun, target = state.units[gun_id], state.units[target_id]
    if kind == CANISTER:
        modifiers: tuple[Modifier, ...] = ()
        if behind_wall_hedge_or_woods(table, target, gun):
            modifiers = ((tables.musketry.modifiers.behind_wall_hedge_or_woods,
                          "target behind a wall or hedge or in woods"),)
        dice = unit_data(gun).men
        hits = roll_hits(tx, dice, hit_faces(tables.artillery.canister.hits, total(modifiers)),
                         f"canister: {gun.label} at {target.label}, {dice} gunners")
        strike = Strike(target_id, hits, halved=halved(table, target, gun),
                        test_always=tables.morale.triggers.canister_always, test_on_casualties=True,
                        faces=(hits,))
        return Shot(gun_id, target_id, CANISTER, modifiers, close=dice, strikes=(strike,))
    what = f"ball: {gun.label} at {target.label}"
    first, modifiers = ball_strike(tx, table, state, gun, target, tables, what)
    strikes = [first]
    for unit in penetration(table, state, gun, target, tables):
        strike, _ = ball_strike(tx, table, state, gun, unit, tables,
                                f"ball: {gun.label} at {target.label}, passing through {unit.label}")
        strikes.append(strike)
    return Shot(gun_id, target_id, BALL, modifiers, strikes=tuple(strikes))


def rally_silenced(tx: Tx, gun_id: str, tables: Tables) -> bool:
    """A silenced battery in the rally phase: "Roll a D6 ... 1,2,3 = cannot fire. 4,5,6 =
    may resume normal fire." Returns whether it may fire again (a battery not silenced
    rolls nothing)."""
    gun = tx.state.units[gun_id]
    if not unit_data(gun).silenced:
        return True
    face = tx.roll(D6, f"silenced battery rallies: {gun.label}")
    if face in tables.artillery.batteries.resume:
        change(tx, gun_id, "the battery resumes normal fire", silenced=False)
        return True
    return False
