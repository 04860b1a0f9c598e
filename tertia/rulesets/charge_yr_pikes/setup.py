"""The pieces as a Charge yr Pikes! battle starts: each unit's troops and figures from the
scenario's table (:mod:`~tertia.rulesets.charge_yr_pikes.scenario_table`) over its troop
type's organisation (:mod:`~tertia.rulesets.charge_yr_pikes.troops`), each officer's rank
and grade, and every footprint at the battle's stand size."""

from __future__ import annotations

from tertia.core.scenario import CommanderSpec, Scenario, UnitSpec
from tertia.core.state import Unit, UnitKind
from tertia.rulesets.charge_yr_pikes.commanded import detachments
from tertia.rulesets.charge_yr_pikes.data import CypUnit
from tertia.rulesets.charge_yr_pikes.layout import STAND_SIZES, StandSize, arm_of, footprint_of
from tertia.rulesets.charge_yr_pikes.scenario_table import OfficerSpec, PikesTable, RegimentSpec
from tertia.rulesets.charge_yr_pikes.tables import tables_with
from tertia.rulesets.charge_yr_pikes.troops import DISMOUNTED_DRAGOON_STANDS, HORSE_HOLDERS, TROOPS, Troop

TROOP_OF_KIND = {"foot": "foot", "horse": "horse", "dragoons": "dragoons",
                 "commanded_shot": "musketeers", "artillery": "artillery"}
"""The troop type a unit plays as when the scenario's table does not say."""


def stand_size(table: PikesTable, arm: str) -> StandSize:
    """An arm's stand at the battle's scale: the scenario's, else the default."""
    given = table.stands.get(arm)  # type: ignore[call-overload]
    return STAND_SIZES[arm] if given is None else StandSize(given.width, given.depth)


def regiment(table: PikesTable, spec: UnitSpec, given: int = 0) -> CypUnit:
    """A unit's values at the start; ``given``: the stands of shot it gives to commanded
    musketeers (Special rules D: :mod:`~tertia.rulesets.charge_yr_pikes.commanded`), which
    it starts without and never counts as casualties."""
    found = next((r for r in table.regiments if r.unit == spec.id), None)
    r = found or RegimentSpec(unit=spec.id, troop=TROOP_OF_KIND[spec.type])  # type: ignore[arg-type]
    troop = TROOPS[r.troop]
    own = CypUnit.of(troop, elite=r.elite, trained_bands=r.trained_bands, firelocks=r.firelocks,
                     formation=r.formation, attached_to=r.attached_to)
    own = own.evolve(morale_class=r.morale_class or morale_class_of(troop, elite=r.elite,
                                                                    trained_bands=r.trained_bands))
    if troop.name == "artillery":
        # Canister: "a D6 for each gunner": a battery's crew by its gun (tables.toml).
        gun = r.gun or "field"
        crew = tables_with(table.tables).artillery.canister.gunners[gun]
        own = own.evolve(gun=gun, men=crew, per_stand=crew)
    if troop.name == "dragoons" and not r.mounted:
        # Unit Organizations A: on foot, "four 4-man stands" (the holders keep the horses).
        own = own.evolve(mounted=False, men=DISMOUNTED_DRAGOON_STANDS * 4, per_stand=4,
                         holders=HORSE_HOLDERS)
    figures = {k: v for k, v in (("pike", r.pike), ("shot", r.shot), ("men", r.men)) if v is not None}
    if figures:
        own = own.evolve(**figures)
    if r.detached_from:
        own = own.evolve(pike=0, men=0, shot=len(r.detached_from) * own.per_stand)
    if given:
        own = own.evolve(shot=max(0, own.shot - given * own.per_stand))
    return own.evolve(start=own.strength)


FOOT_LINES = {(False, False): "foot", (True, False): "elite_foot", (False, True): "second_rate_foot",
              (True, True): "foot"}
"""Section 11 A's foot lines by (elite, trained bands): "Elite Foot", "Foot or elite trained
bands", "2nd rate Foot or trained bands"."""


def morale_class_of(troop: Troop, *, elite: bool, trained_bands: bool) -> str:
    """The line of section 11 A a unit rolls its morale on when the scenario names none:
    foot (foot, musketeers, highlanders) by its flags (:data:`FOOT_LINES`: plain trained
    bands are "2nd rate Foot or trained bands", elite trained bands "Foot or elite
    trained bands", elite foot "Elite Foot"); any other troop its type's line (the
    trained bands' lines are foot lines, and there is no elite line of horse).

    >>> from tertia.rulesets.charge_yr_pikes.troops import FOOT, TROOPS
    >>> morale_class_of(FOOT, elite=False, trained_bands=True)
    'second_rate_foot'
    >>> morale_class_of(TROOPS["horse"], elite=True, trained_bands=True)
    'horse'
    """
    if troop.morale_class != "foot":
        return troop.morale_class
    return FOOT_LINES[elite, trained_bands]


def undetached(scenario: Scenario, table: PikesTable) -> dict[str, CypUnit]:
    """Every unit's values before any stand of shot is detached from it."""
    return {s.id: regiment(table, s) for s in scenario.units}


def officer(table: PikesTable, spec: CommanderSpec) -> CypUnit:
    """An officer's values: his rank (the army's general by default commands it, others
    are brigadiers), a fixed grade if the table gives one, and the unit he leads."""
    found = next((o for o in table.officers if o.commander == spec.id), None)
    o = found or OfficerSpec(commander=spec.id, rank="army" if spec.general else "brigadier")
    return CypUnit(troop="officer", morale_class="horse", men=1, per_stand=1, start=1, mounted=True,
                   rank=o.rank, grade=o.grade, attached_to=o.attached_to)


def sized(own: CypUnit, table: PikesTable) -> CypUnit:
    """``own`` with its arm's stand size at the battle's scale (dragoons keep the other
    arm's too, for when they mount or dismount)."""
    size = stand_size(table, arm_of(own))
    own = own.evolve(stand_width=size.width, stand_depth=size.depth)
    if own.troop == "dragoons":
        other = stand_size(table, "foot" if own.mounted else "horse")
        own = own.evolve(other_stand=(other.width, other.depth))
    return own


def pieces(scenario: Scenario, table: PikesTable) -> dict[str, Unit]:
    """Every officer and unit as set up."""
    out: dict[str, Unit] = {}
    for c in scenario.commanders:
        own = sized(officer(table, c), table)
        width, depth = footprint_of(own, own.formation, StandSize(own.stand_width, own.stand_depth))
        out[c.id] = Unit(c.id, c.side, UnitKind.COMMANDER, c.command, c.x, c.y, c.facing % 360.0,
                         width, depth, name=c.name, own=own)
    given = detachments(table)
    for s in scenario.units:
        own = sized(regiment(table, s, given[s.id]), table)
        width, depth = footprint_of(own, own.formation, StandSize(own.stand_width, own.stand_depth))
        out[s.id] = Unit(s.id, s.side, UnitKind(s.type), s.command, s.x, s.y, s.facing % 360.0,
                         width, depth, name=s.name, traits=tuple(s.traits), own=own)
    return out
