"""The dice each unit rolls in close combat (section 12 D; Special rules A, C).

"Dice for fighting stands: 1 D6 for each pike stand or highlanders stand at full strength.
Casualty stands do not fight; 1D6 for each cavalry stand at full strength, casualty stands
do not fight; 1D6 for each two musketeer stands or Dragoon stands (mounted or dismounted)
Casualty stands do not fight." Then the "Additional dice per unit", each a value in
``tables.toml [melee.dice]``, and "+? Officer bonus (varies by officer)": the melee dice of
each officer in its front rank (``tables.toml [officer_bonus]``, by grade when officers
are graded, else by rank; "Staff officers count as a brigadier").

Read so:

- **Stands at full strength**: a weapon's figures fill whole stands and at most one
  casualty stand (:mod:`~tertia.rulesets.charge_yr_pikes.data`); only the whole stands
  fight. A foot regiment rolls for its full pike stands and for each two full shot stands;
  musketeers and dragoons (mounted or on foot) for each two full stands; horse, lobsters
  and Scots horse, and highlanders, for each full stand. An odd musketeer or dragoon stand
  adds nothing by default (``odd_stand_fights`` counts it as a die). Guns and wagons
  never fight (section 10: "Artillerymen will not stand for close combat").
- **Fatigued men** (Special rules B: "Fatigued men do not fight") stand out as casualties
  would, taken from pike and shot alike, before the stands are counted.
- **A unit's foes** are the enemy units it fights: an attacker its target, a defender the
  units that charged it (a battery's supporters, those that charged the battery). A
  condition on the enemy ("fighting enemy horse which remained motionless", "fighting
  Lobsters", "fighting foot without pikes ... not sheltering behind some obstacle")
  counts when it holds of every foe that fights (a battery does not).
- **Horse** is cavalry: horse, lobsters and Scots horse. "Remained motionless this turn":
  the foe has not moved this turn (a countercharging defender has). "Foot without pikes":
  foot (dismounted dragoons too) with no pikemen left, defending no obstacle and not in
  a town. "Fighting in a town": the horse or a foe it fights stands (centre) in a town.
- **Obstacles defended** (defenders only): a hedge or fence is soft, a wall hard, works
  (an entrenchment or ground of kind ``works``) or a town give foot +3 ("Foot defending
  works or a town"); a unit gets the best one it defends, not their sum (the text lists
  what is defended, one thing each). It defends a linear obstacle when the line from
  each foe's centre to its own crosses it and the obstacle is nearer to it than to the
  foe, and an area when its centre is on it and the foe's is not.
- **Uphill**: an attacker whose move began lower than the ground its target stands on
  (hill levels at the centres).
- **Pistol fire**: the caracole's ``pistol_fire`` dice (Special rules C: "-1 D6"). 12 D's
  line "+1 D6 if Horse which attacked or defended with pistol fire instead of using the
  sword" names the same thing with the opposite sign; Special rules C is the later rule
  and gives its reason ("much less effective than the all-out charge"), so it rules, once.
- **Disordered**: the unit's own flag; horse plundering at the baggage train fight as
  disordered (section 21 C).
- A unit never rolls fewer than no dice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString

from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers, officer_line
from tertia.rulesets.charge_yr_pikes.casualties import split
from tertia.rulesets.charge_yr_pikes.charge import CAVALRY, Charge, gun_support, is_gun
from tertia.rulesets.charge_yr_pikes.data import CypUnit
from tertia.rulesets.charge_yr_pikes.plunder import AT_TRAIN
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import unit_data

SOFT = "soft"
HARD = "hard"
WORKS = "works"
OBSTACLES: dict[str, tuple[str, ...]] = {
    WORKS: (TerrainKind.ENTRENCHMENT, "works", TerrainKind.TOWN),
    HARD: (TerrainKind.WALL,),
    SOFT: (TerrainKind.HEDGE, TerrainKind.FENCE),
}
"""The ground each kind of obstacle is, best first."""

Line = tuple[int, str]
"""One line of a unit's dice: how many, and why."""


@dataclass(frozen=True, slots=True)
class Fighter:
    """One unit in a close combat: the ``foes`` it fights, whether it is ``attacking``,
    is attacked in flank/rear, the obstacle it defends (:data:`SOFT`, :data:`HARD`,
    :data:`WORKS` or None), whether it moved uphill to attack, and whether it attacks
    with pistol fire (the caracole)."""

    unit: str
    foes: tuple[str, ...]
    attacking: bool
    flank_or_rear: bool = False
    obstacle: str | None = None
    uphill: bool = False
    pistols: bool = False


@dataclass(frozen=True, slots=True)
class UnitDice:
    """A unit's dice: those for its fighting ``stands`` and the additional ``lines``."""

    unit: str
    stands: int
    lines: tuple[Line, ...]

    @property
    def dice(self) -> int:
        return max(0, self.stands + sum(n for n, _ in self.lines))


def is_foot(own: CypUnit) -> bool:
    return own.troop in ("foot", "musketeers", "highlanders") or (own.troop == "dragoons" and not own.mounted)


def fighting(own: CypUnit) -> CypUnit:
    """The unit as it fights: its fatigued men stood out like casualties."""
    pike, shot, men = split(own, own.fatigued)
    return own.evolve(pike=own.pike - pike, shot=own.shot - shot, men=own.men - men)


def stand_dice(own: CypUnit, *, odd_stand_fights: bool) -> int:
    """12 D: dice for a unit's stands at full strength (fatigued men out)."""
    if own.is_gun or own.is_officer or own.troop in ("wagons", "artillery"):
        return 0
    f = fighting(own)
    per = max(1, f.per_stand)
    full_pike, full_shot, full_men = f.pike // per, f.shot // per, f.men // per

    def pairs(n: int) -> int:
        return n // 2 + (n % 2 if odd_stand_fights else 0)

    if own.troop in CAVALRY:
        return full_men
    if own.troop == "highlanders":
        return full_pike + full_shot + full_men
    if own.troop == "dragoons":
        return pairs(full_men)
    return full_pike + pairs(full_shot)


def officer_dice(tables: Tables, officer: Unit, *, graded: bool) -> int:
    """Special rules A, section 22: an officer's close combat dice, by grade or rank."""
    return officer_line(tables, officer, graded=graded).melee_dice


def unit_dice(tables: Tables, table: Battlefield, state: GameState, fighter: Fighter,
              fighters: Mapping[str, Fighter], *, graded: bool = True) -> UnitDice:
    """12 D: a unit's dice, with every additional line that applies to it."""
    unit = state.units[fighter.unit]
    own = unit_data(unit)
    if is_gun(unit):
        return UnitDice(fighter.unit, 0, ())
    d = tables.melee.dice
    foes = [state.units[f] for f in fighter.foes if not is_gun(state.units[f])]
    horse = own.troop in CAVALRY

    def every(holds: bool) -> bool:
        return bool(foes) and holds

    in_town = horse and any(table.contains_point(TerrainKind.TOWN, (u.x, u.y)) for u in (unit, *foes))
    conditions: list[tuple[int, str, bool]] = [
        (d.soft_obstacle, "defending a soft obstacle", fighter.obstacle == SOFT),
        (d.hard_obstacle, "defending a hard obstacle", fighter.obstacle == HARD),
        (d.foot_in_works_or_town, "foot defending works or a town",
         fighter.obstacle == WORKS and is_foot(own)),
        (d.horse_against_motionless_horse, "horse fighting horse that stood still",
         horse and every(all(unit_data(f).troop in CAVALRY and not unit_data(f).moved for f in foes))),
        (d.pistol_fire, "horse attacking with pistol fire", horse and fighter.pistols),
        (d.elite, "elite", own.elite),
        (d.horse_against_foot_without_pikes, "horse fighting foot without pikes",
         horse and every(all(_pikeless_in_the_open(table, f, fighters) for f in foes))),
        (d.flank_or_rear, "attacked in flank/rear", fighter.flank_or_rear),
        (d.against_lobsters, "cavalry fighting lobsters",
         horse and every(all(unit_data(f).troop == "lobsters" for f in foes))),
        (d.scots_horse, "Scots cavalry", own.troop == "scots_horse"),
        (d.trained_bands, "trained bands", own.trained_bands),
        (d.horse_in_town, "horse fighting in a town", in_town),
        (d.uphill, "moved uphill to attack", fighter.attacking and fighter.uphill),
        (d.disordered, "disordered", own.disordered or own.plundering == AT_TRAIN),
    ]
    lines = [(n, why) for n, why, holds in conditions if holds and n]
    for officer in front_rank_officers(state, fighter.unit):
        bonus = officer_dice(tables, officer, graded=graded)
        if bonus:
            lines.append((bonus, f"officer {officer.label}"))
    stands = stand_dice(own, odd_stand_fights=tables.melee.odd_stand_fights)
    return UnitDice(fighter.unit, stands, tuple(lines))


def _pikeless_in_the_open(table: Battlefield, foe: Unit, fighters: Mapping[str, Fighter]) -> bool:
    own = unit_data(foe)
    behind = foe.id in fighters and fighters[foe.id].obstacle is not None
    return (is_foot(own) and own.pike == 0 and not behind
            and not table.contains_point(TerrainKind.TOWN, (foe.x, foe.y)))


def obstacle_defended(table: Battlefield, defender: Unit, foes: Sequence[Unit]) -> str | None:
    """The best obstacle ``defender`` holds against every one of ``foes`` (see above)."""
    if not foes:
        return None
    for kind, grounds in OBSTACLES.items():
        if all(_holds(table, grounds, defender, foe) for foe in foes):
            return kind
    return None


def _holds(table: Battlefield, grounds: tuple[str, ...], defender: Unit, foe: Unit) -> bool:
    features = table.features_near(grounds, (defender.x, defender.y), (foe.x, foe.y))
    if not features:
        return False
    me, them = shapely.Point(defender.x, defender.y), shapely.Point(foe.x, foe.y)
    line = LineString(((foe.x, foe.y), (defender.x, defender.y)))
    for feature in features:
        shape = feature.geometry
        if feature.is_linear:
            if bool(line.intersects(shape)) and float(shape.distance(me)) <= float(shape.distance(them)):
                return True
        elif bool(shape.covers(me)) and not bool(shape.covers(them)):
            return True
    return False


def fighters_of(table: Battlefield, state: GameState, charges: Sequence[Charge],
                pistols: Sequence[str] = ()) -> tuple[Fighter, ...]:
    """The units of one close combat as its ``charges`` make it, attackers first: each
    attacker fights its target; each defender the units that charged it, a battery's
    supporters for it; ``pistols`` are the attackers that flinched into mounted fire."""
    out: dict[str, Fighter] = {}
    for c in charges:
        start_level = table.hill_level(c.start.centre)
        target = state.units[c.target]
        uphill = table.hill_level((target.x, target.y)) > start_level
        old = out.get(c.attacker)
        foes = (*old.foes, c.target) if old else (c.target,)
        out[c.attacker] = Fighter(c.attacker, foes, True, uphill=uphill or bool(old and old.uphill),
                                  pistols=c.attacker in pistols)
    for target_id in dict.fromkeys(c.target for c in charges):
        on_it = [c for c in charges if c.target == target_id]
        attackers = tuple(dict.fromkeys(c.attacker for c in on_it))
        flank = any(c.is_flank_or_rear(state) for c in on_it)
        defenders = [target_id, *(gun_support(state, target_id) if is_gun(state.units[target_id]) else ())]
        for d in defenders:
            unit = state.units[d]
            old = out.get(d)
            foes = tuple(dict.fromkeys((*(old.foes if old else ()), *attackers)))
            # a unit that charged as well as being charged (a countercharge, 12 M) fights as
            # an attacker and defends no obstacle: it has left it to go in
            charging = bool(old and old.attacking)
            obstacle = None if charging else obstacle_defended(table, unit, [state.units[a] for a in foes])
            out[d] = Fighter(d, foes, charging, flank_or_rear=(flank and d == target_id)
                             or bool(old and old.flank_or_rear), obstacle=obstacle,
                             uphill=bool(old and old.uphill), pistols=bool(old and old.pistols))
        for a in attackers:
            mine = out[a]
            out[a] = Fighter(a, tuple(dict.fromkeys((*mine.foes, *defenders))), True, uphill=mine.uphill,
                             pistols=mine.pistols, flank_or_rear=mine.flank_or_rear)
    return tuple(out.values())
