"""Commanded (detached) troops (Special rules D): "Players may detatch a stand of shot from
several foot units to creat new units of 'Commanded Musketeers'. These should be at least
4 stands strong and can be up to 8 stands strong. Make a note so you do not count their
loss from the 'parent units' as casualties."

Read so, as scenario data: a regiment of the scenario's table of troop ``musketeers`` names
the foot units it draws a stand of shot from (``detached_from``, 4 to 8 of them, each once);
each parent is a regiment of foot or of musketeers (highlanders fight as pikes and have no
stand of shot to give, and a commanded unit gives none of its own) with a whole stand of
shot left to give after every detachment from it. The commanded unit starts with a stand
of shot for each parent (its figures are the stands drawn, so its table gives none of its
own), and each parent starts a stand of shot short for each unit it gives to: its starting
strength is smaller by those men, so their loss is never a casualty of the parent's (the
50% rules, a missing stand on rallying, army morale and the battle's end all read a
unit's ``start``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Final

from tertia.rulesets.charge_yr_pikes.data import CypUnit
from tertia.rulesets.charge_yr_pikes.scenario_table import PikesTable, RegimentSpec

FEWEST_STANDS: Final = 4
MOST_STANDS: Final = 8
"""Special rules D: "at least 4 stands strong and can be up to 8 stands strong"."""
COMMANDED_TROOP: Final = "musketeers"
PARENT_TROOPS: Final = frozenset({"foot", "musketeers"})
"""Foot units with stands of shot to give."""


def detachments(table: PikesTable) -> Counter[str]:
    """How many stands of shot each parent unit gives (a unit may give to more than one
    commanded unit)."""
    return Counter(p for r in table.regiments for p in r.detached_from)


def detachment_problems(table: PikesTable, where: str, units: Mapping[str, CypUnit]
                        ) -> list[tuple[str, str]]:
    """Each commanded unit's detachment against Special rules D, one problem a line naming
    the unit and the field. ``units``: every scenario unit's values before any stand is
    detached; ``where``: the table's place in the scenario file."""
    specs = {r.unit: r for r in table.regiments}
    problems: list[tuple[str, str]] = []
    for i, r in enumerate(table.regiments):
        if r.detached_from:
            problems.extend((f"{where}.regiments[{i}].{name}", f"{r.unit}: {text}")
                            for name, text in _commanded_problems(r, units, specs))
    given = detachments(table)
    for i, r in enumerate(table.regiments):
        for parent in dict.fromkeys(r.detached_from):
            own = units.get(parent)
            commanded = parent in specs and bool(specs[parent].detached_from)
            if own is None or own.troop not in PARENT_TROOPS or commanded:
                continue
            left = _whole_shot_stands(own)
            if given[parent] > left:
                problems.append((f"{where}.regiments[{i}].detached_from",
                                 f"{r.unit}: {parent} has no stand of shot left to give "
                                 f"({left} stands of shot, {given[parent]} asked)"))
    return problems


def _whole_shot_stands(own: CypUnit) -> int:
    return own.shot // own.per_stand if own.per_stand else 0


def _commanded_problems(r: RegimentSpec, units: Mapping[str, CypUnit], specs: Mapping[str, RegimentSpec]
                        ) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    if r.troop != COMMANDED_TROOP:
        found.append(("troop", f"a unit detached from others is commanded musketeers (troop "
                               f"\"{COMMANDED_TROOP}\"), not {r.troop}"))
    if any(v is not None for v in (r.pike, r.shot, r.men)):
        found.append(("detached_from", "commanded musketeers are the stands they draw: give no pike, "
                                       "shot or men"))
    n = len(r.detached_from)
    if not FEWEST_STANDS <= n <= MOST_STANDS:
        found.append(("detached_from", f"commanded musketeers are {FEWEST_STANDS} to {MOST_STANDS} "
                                       f"stands strong, a stand from each parent: {n} parents given"))
    for parent, times in Counter(r.detached_from).items():
        if times > 1:
            found.append(("detached_from", f"draws from {parent} {times} times (a stand from each parent)"))
        own = units.get(parent)
        if parent == r.unit:
            found.append(("detached_from", "draws a stand from itself"))
        elif own is None:
            found.append(("detached_from", f"no unit {parent!r} in the scenario"))
        elif parent in specs and specs[parent].detached_from:
            found.append(("detached_from", f"{parent} is commanded musketeers itself, no parent unit"))
        elif own.troop not in PARENT_TROOPS:
            found.append(("detached_from", f"{parent} is no regiment of foot with shot to give "
                                           f"(it is {own.troop})"))
    return found
