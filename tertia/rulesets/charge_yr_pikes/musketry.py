"""Musketry (Fire, section 8) and galloper guns' fire (Artillery: galloper guns).

"Each musket-armed infantry stand rolls one D6 for fire. Each hit on the table below
kills one enemy casting. Any SHOT stand with casualties on it may not fire." Close range
"6" or less" hits on 3-6, long range "over 6" up to 12"" on 5-6. "Measure the range from
the center of the front of each firing stand to the nearest part of the enemy's stand."
"B. Formations of musketeers up to two ranks deep may all fire. Third and subsequent
ranks may not fire. C. Disordered foot may only shoot with one rank. ... D. If the front
stand of shot is in range, the rearward stand is also. E. The arc of fire is 45 degrees
from the facing direction of each stand." Modifiers: "+1 First volley of the game, +1
Officer attached to unit (directing fire), +1 Unit armed with 'firelocks' ..., -1 Light
rain, -1 Target unit behind wall, hedge, or in woods, Halve hits - Target in town or
field works."

Read so:

- musket-armed stands are the shot of foot regiments, musketeers, highlanders (all shot
  by their organisation) and dismounted dragoons ("Dragoons may not fire mounted"); horse
  do not fire ("Pistol fire is now factored into melee"); a routed unit does not fire;
- a stand fires when it is shot at full strength, in the ranks that fire (the first two;
  disordered foot the first), has a target stand in its 45-degree arc, sees it
  (:mod:`~tertia.rulesets.charge_yr_pikes.sight`) with no troops in the line (muskets
  never fire over troops), and is within 12" of it; its range is to the nearest target
  stand it may fire at;
- D: a rear-rank stand whose file leader (the shot stand before it) is in range fires at
  the leader's range, whether or not it is within range, arc or sight itself;
- the modifiers add to each die, the modified roll read as the nearest face of the table
  (a 7 is a 6): with +1 close range hits on 2-6;
- "First volley of the game" is each unit's first volley (``CypUnit.fired``);
- the officer is one in the unit's front rank (``attached_to``);
- each range's stands roll as one node: the count of dice that hit (exact odds stay one
  node);
- galloper guns "fire as 2 stands of infantry (1D6 for each gunner on the gun) ... at
  the same target at which the infantry unit is firing, with the same range": a D6 a
  gunner left on the musketry table, measured from the gun, within 12" (the galloper's
  canister range); the target's cover and rain modify it, the regiment's own modifiers
  (first volley, officer, firelocks) do not. Attached to horse, it fires at the unit the
  horse is charging, else the unit charging it, else the nearest enemy; not when the
  horse moved over 8" this turn (measured from where it stood as the turn began).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from tertia.core.geometry import base_distance, is_in_arc
from tertia.core.narration import side_does
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.core.violations import Violation, not_in_play
from tertia.rules.fighting import no_target
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers
from tertia.rulesets.charge_yr_pikes.data import DEPLOYED, UNSEEN, CypUnit
from tertia.rulesets.charge_yr_pikes.fire import (
    GALLOPER,
    MUSKETRY,
    FireCode,
    Modifier,
    Shot,
    Strike,
    hit_faces,
    roll_hits,
    total,
)
from tertia.rulesets.charge_yr_pikes.sight import (
    Sighting,
    behind_wall_hedge_or_woods,
    in_town_or_works,
    sightings,
)
from tertia.rulesets.charge_yr_pikes.stands import SHOT, stand_ahead, stands_of
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

RULE = "Charge yr Pikes! Fire 8"
GALLOPER_RULE = "Charge yr Pikes! Artillery: galloper guns"
MUSKET_TROOPS = ("foot", "musketeers", "highlanders")
GALLOPER_HORSE_MOVE = 8.0
"""Galloper guns: "If attached to cavalry which move faster than 8" per turn, the galloper
gun cannot fire that turn"."""


def has_muskets(own: CypUnit) -> bool:
    """Is it musket-armed infantry (or dragoons on foot)?"""
    if own.is_officer or own.is_gun:
        return False
    return own.troop in MUSKET_TROOPS or (own.troop == "dragoons" and not own.mounted)


def ranks_firing(own: CypUnit, tables: Tables) -> int:
    """B, C: two ranks fire; disordered foot one."""
    return tables.musketry.disordered_ranks_firing if own.disordered else tables.musketry.ranks_firing


def firing_stands(unit: Unit, tables: Tables) -> tuple[int, ...]:
    """The stands that may fire: shot at full strength in the ranks that fire."""
    limit = ranks_firing(unit_data(unit), tables)
    return tuple(i for i, s in enumerate(stands_of(unit)) if s.weapon == SHOT and s.full and s.rank < limit)


def stand_ranges(table: Battlefield, state: GameState, firer: Unit, target: Unit, tables: Tables
                 ) -> dict[int, float]:
    """Each firing stand in range of the target and its range (D: a rear stand at its file
    leader's)."""
    m = tables.musketry
    stands = stands_of(firer)
    limit = ranks_firing(unit_data(firer), tables)
    shot = [i for i, s in enumerate(stands) if s.weapon == SHOT and s.rank < limit]
    own_range = _clear_ranges(table, state, firer, target, shot, tables)
    out: dict[int, float] = {}
    for i in firing_stands(firer, tables):
        reach = own_range.get(i)
        ahead = stand_ahead(stands, i)
        if ahead is not None and stands[ahead].weapon == SHOT and ahead in own_range:
            reach = own_range[ahead] if reach is None else min(reach, own_range[ahead])
        if reach is not None and reach <= m.long_range + 1e-9:
            out[i] = reach
    return out


def _clear_ranges(table: Battlefield, state: GameState, firer: Unit, target: Unit, stands: list[int],
                  tables: Tables) -> dict[int, float]:
    out: dict[int, float] = {}
    for s in _sightings(table, state, firer, target, stands, tables):
        if not s.screens and s.distance <= tables.musketry.long_range + 1e-9:
            out[s.stand] = min(out.get(s.stand, math.inf), s.distance)
    return out


def _sightings(table: Battlefield, state: GameState, firer: Unit, target: Unit, stands: list[int],
               tables: Tables) -> list[Sighting]:
    return sightings(table, state, firer, target, stands, tables.musketry.arc, tables.sight.dead_ground)


def target_problems(state: GameState, firer: Unit, target_id: str, rule: str) -> list[Violation]:
    """An enemy unit in play that fire may strike: not an officer (generals die only with
    the unit they lead) nor a galloper (it suffers its unit's fate)."""
    absent = no_target(state, target_id, firer, rule, UNSEEN)
    if absent:
        return absent
    target = state.units[target_id]
    own = unit_data(target)
    if own.is_officer:
        return [Violation(FireCode.NOT_A_TARGET, f"{target.label} is an officer: fire at the unit he leads",
                          f"{rule}; Tertias and officers E")]
    if own.gun == "galloper":
        return [Violation(FireCode.NOT_A_TARGET, f"{target.label} is a galloper gun: fire at "
                          f"{own.attached_to}, whose fate it suffers", f"{rule}; galloper guns")]
    return []


def line_problems(firer: Unit, target: Unit, stands: Iterable[int], found: list[Sighting], reach: float,
                  arc: float, rule: str, what: str = "") -> list[Violation]:
    """Why none of the firer's ``stands`` may fire at the target over these lines: out of
    arc, hidden, troops in the way, or out of range (the nearest line named)."""
    if not found:
        ours, theirs = stands_of(firer), stands_of(target)
        if not any(is_in_arc(ours[i].base, t.base, arc) for i in stands for t in theirs):
            return [Violation(FireCode.OUT_OF_ARC, f"no stand of {firer.label} that may fire has "
                              f"{target.label} in its {arc:g} degree arc", f"{rule} E")]
        return [Violation(FireCode.OUT_OF_SIGHT, f"the ground hides {target.label} from every stand of "
                          f"{firer.label} that bears on it", "Charge yr Pikes! Terrain 16 A, B")]
    clear = [s for s in found if not s.screens]
    if not clear:
        screen = found[0].screens[0]
        between = f"stand between {firer.label} and {target.label}"
        return [Violation(FireCode.IN_THE_WAY, side_does(screen.label, between, person=screen.is_commander),
                          rule)]
    nearest = min(s.distance for s in clear)
    if nearest > reach + 1e-9:
        return [Violation(FireCode.OUT_OF_RANGE, f"{target.label} is {nearest:.1f}\" from {firer.label}; "
                          f"{what}range is {reach:g}\"", rule)]
    return []


def musketry_problems(table: Battlefield, state: GameState, firer_id: str, target_id: str, tables: Tables
                      ) -> list[Violation]:
    """Why ``firer_id`` may not fire its muskets at ``target_id`` (empty: it may)."""
    firer = state.units.get(firer_id)
    if firer is None or not firer.in_play:
        return [Violation(FireCode.CANNOT_FIRE, not_in_play(state, firer_id, unseen=UNSEEN), RULE)]
    own = unit_data(firer)
    if not has_muskets(own):
        why = ("mounted dragoons may not fire (Dragoons 18 B)" if own.troop == "dragoons"
               else "pistol fire is factored into melee" if firer.kind.value == "horse"
               else "it carries no muskets")
        return [Violation(FireCode.CANNOT_FIRE, f"{firer.label} does not fire muskets: {why}", RULE)]
    if own.routed:
        return [Violation(FireCode.CANNOT_FIRE, f"{firer.label} is routed", RULE)]
    problems = target_problems(state, firer, target_id, RULE)
    if problems:
        return problems
    stands = firing_stands(firer, tables)
    if not stands:
        why = ("every shot stand has casualties on it" if own.shot and own.shot_firing_stands == 0
               else "no shot stand at full strength stands in its first "
               f"{ranks_firing(own, tables)} rank(s)")
        return [Violation(FireCode.NO_FIRING_STANDS, f"{firer.label} may not fire: {why}", f"{RULE} A, B, C")]
    target = state.units[target_id]
    if stand_ranges(table, state, firer, target, tables):
        return []
    found = _sightings(table, state, firer, target, list(stands), tables)
    return line_problems(firer, target, stands, found, tables.musketry.long_range, tables.musketry.arc, RULE,
                         "musket ")


def musketry_modifiers(table: Battlefield, state: GameState, firer: Unit, target: Unit, tables: Tables
                       ) -> tuple[Modifier, ...]:
    """The modifiers that apply to a volley's dice."""
    m = tables.musketry.modifiers
    own = unit_data(firer)
    officer = bool(front_rank_officers(state, firer.id))
    lines = ((m.first_volley, "first volley", not own.fired),
             (m.officer_attached, "officer attached", officer),
             (m.firelocks, "firelocks", own.firelocks))
    mine = tuple((v, why) for v, why, holds in lines if holds)
    return mine + target_modifiers(table, state, firer, target, tables)


def target_modifiers(table: Battlefield, state: GameState, firer: Unit, target: Unit, tables: Tables
                     ) -> tuple[Modifier, ...]:
    """Light rain and the target's cover (walls, hedges, woods)."""
    m = tables.musketry.modifiers
    lines = ((m.light_rain, "light rain", game_data(state).rain),
             (m.behind_wall_hedge_or_woods, "target behind a wall or hedge or in woods",
              behind_wall_hedge_or_woods(table, target, firer)))
    return tuple((v, why) for v, why, holds in lines if holds)


def halved(table: Battlefield, target: Unit, firer: Unit) -> bool:
    """Halve hits: the target is in a town or field works (or deployed in them)."""
    return unit_data(target).formation == DEPLOYED or in_town_or_works(table, target, firer)


def hits_per_figure(target: Unit, tables: Tables) -> int:
    """Muskets on artillerists: two hits remove one."""
    own = unit_data(target)
    return tables.musketry.artillerist_hits if own.is_gun else 1


def _bands(ranges: list[float], tables: Tables) -> tuple[int, int]:
    close = sum(1 for r in ranges if r <= tables.musketry.close_range + 1e-9)
    return close, len(ranges) - close


def _roll_bands(tx: Tx, close: int, long: int, modifier: int, tables: Tables, what: str) -> tuple[int, int]:
    m = tables.musketry
    close_hits = roll_hits(tx, close, hit_faces(m.close_hits, modifier), f"{what}, {close} at close range")
    long_hits = roll_hits(tx, long, hit_faces(m.long_hits, modifier), f"{what}, {long} at long range")
    return close_hits, long_hits


def work_out_volley(tx: Tx, table: Battlefield, state: GameState, firer_id: str, target_id: str,
                    tables: Tables) -> Shot:
    """One unit's volley at ``target_id``, worked out on ``state`` (the step's start),
    its dice rolled through ``tx``; nothing is applied
    (:func:`~tertia.rulesets.charge_yr_pikes.fire.apply_fire`). Raises ``ValueError``
    for a volley :func:`musketry_problems` refuses."""
    problems = musketry_problems(table, state, firer_id, target_id, tables)
    if problems:
        raise ValueError(str(problems[0]))
    firer, target = state.units[firer_id], state.units[target_id]
    close, long = _bands(list(stand_ranges(table, state, firer, target, tables).values()), tables)
    modifiers = musketry_modifiers(table, state, firer, target, tables)
    what = f"musketry: {firer.label} at {target.label}"
    hits = _roll_bands(tx, close, long, total(modifiers), tables, what)
    strike = Strike(target_id, sum(hits), halved=halved(table, target, firer),
                    per_figure=hits_per_figure(target, tables), test_on_casualties=True, faces=hits)
    return Shot(firer_id, target_id, MUSKETRY, modifiers, close, long, (strike,))


# --- galloper guns -----------------------------------------------------------------------


def galloper_target(state: GameState, gun_id: str, *, charging: str | None = None,
                    charged_by: str | None = None) -> str | None:
    """The target of a galloper attached to horse: "1. Charging 2. Being charged by
    3. Closest to" (the nearest enemy unit in play, base edge to base edge)."""
    if charging is not None:
        return charging
    if charged_by is not None:
        return charged_by
    gun = state.units[gun_id]
    unit = state.units.get(unit_data(gun).attached_to or "")
    if unit is None:
        return None
    foes = [u for u in state.iter_troops() if u.side != gun.side and u.in_play
            and not unit_data(u).is_officer and unit_data(u).gun != "galloper"]
    best = min(foes, key=lambda u: (base_distance(unit.base, u.base), u.id), default=None)
    return None if best is None else best.id


def moved_from_start(state: GameState, unit: Unit) -> tuple[float, float] | None:
    """How far (straight) a unit stands from where the turn began, and how far it has
    turned; None when the start of the turn was not noted."""
    for unit_id, x, y, facing in game_data(state).places:
        if unit_id == unit.id:
            turned = abs((unit.facing - facing + 180.0) % 360.0 - 180.0)
            return math.hypot(unit.x - x, unit.y - y), turned
    return None


def galloper_problems(table: Battlefield, state: GameState, gun_id: str, target_id: str, tables: Tables,
                      unit_target: str | None) -> list[Violation]:
    """Why a galloper may not fire at ``target_id``. ``unit_target``: the target its
    unit fires at (or charges) this step; for one attached to horse, the unit
    :func:`galloper_target` names."""
    gun = state.units.get(gun_id)
    if gun is None or not gun.in_play:
        absent = not_in_play(state, gun_id, "galloper gun", unseen=UNSEEN)
        return [Violation(FireCode.CANNOT_FIRE, absent, GALLOPER_RULE)]
    if unit_data(gun).gun != "galloper":
        return [Violation(FireCode.CANNOT_FIRE, f"{gun.label} is no galloper gun", GALLOPER_RULE)]
    own = unit_data(gun)
    if own.men <= 0 or own.routed:
        return [Violation(FireCode.CANNOT_FIRE, f"{gun.label} has no gunners to serve it", GALLOPER_RULE)]
    problems = target_problems(state, gun, target_id, GALLOPER_RULE)
    if problems:
        return problems
    unit = state.units.get(own.attached_to or "")
    if unit is None or not unit.in_play:
        return [Violation(FireCode.CANNOT_FIRE, f"{gun.label} is attached to no unit in play", GALLOPER_RULE)]
    if target_id != unit_target:
        return [Violation(FireCode.WRONG_TARGET, f"{gun.label} fires at {unit.label}'s target "
                          f"({unit_target or 'none this step'})", GALLOPER_RULE)]
    moved = moved_from_start(state, unit)
    if unit_data(unit).mounted and moved is not None and moved[0] > GALLOPER_HORSE_MOVE + 1e-9:
        return [Violation(FireCode.GUN_MOVED, f"{unit.label} moved {moved[0]:.1f}\" this turn; a galloper "
                          "with horse that moved over 8\" does not fire", GALLOPER_RULE)]
    target = state.units[target_id]
    found = sightings(table, state, gun, target, (0,), tables.musketry.arc, tables.sight.dead_ground)
    return line_problems(gun, target, (0,), found, tables.artillery.canister_range["galloper"],
                         tables.musketry.arc, GALLOPER_RULE, "galloper ")


def work_out_galloper(tx: Tx, table: Battlefield, state: GameState, gun_id: str, target_id: str,
                      tables: Tables, unit_target: str | None) -> Shot:
    """A galloper's fire, as two stands of infantry (a D6 a gunner); see
    :func:`work_out_volley`."""
    problems = galloper_problems(table, state, gun_id, target_id, tables, unit_target)
    if problems:
        raise ValueError(str(problems[0]))
    gun, target = state.units[gun_id], state.units[target_id]
    found = sightings(table, state, gun, target, (0,), tables.musketry.arc, tables.sight.dead_ground)
    reach = min(s.distance for s in found if not s.screens)
    dice = unit_data(gun).men
    close, long = (dice, 0) if reach <= tables.musketry.close_range + 1e-9 else (0, dice)
    modifiers = target_modifiers(table, state, gun, target, tables)
    hits = _roll_bands(tx, close, long, total(modifiers), tables, f"galloper: {gun.label} at {target.label}")
    strike = Strike(target_id, sum(hits), halved=halved(table, target, gun), test_on_casualties=True,
                    faces=hits)
    return Shot(gun_id, target_id, GALLOPER, modifiers, close, long, (strike,))
