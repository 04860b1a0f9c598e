"""What a rule set's table in a scenario (``[extensions."<id>"]``, the model
:attr:`RuleSet.SCENARIO_EXTENSION <tertia.core.ruleset.RuleSet.SCENARIO_EXTENSION>`)
checks against the battle it belongs to: that each piece it names is one the battle
fields, of the side it must be, and named once.

A table whose model has :meth:`CheckedTable.table_problems` is checked so whenever the
scenario is (:mod:`tertia.io.scenario_file`), with the file's other checks. A table with
such a problem sizes no base and is set up by no rule set: neither an entry naming no
piece nor the second of two entries for one piece (which the first would silently
override) reaches play. :class:`Pieces` words the usual refusals alike for every rule set:

>>> from tertia.core.scenario import Scenario
>>> battle = Scenario.model_validate({
...     "name": "x", "table": {"width": 24, "depth": 24},
...     "sides": [{"id": "parliament", "edge": "south"}, {"id": "royalist", "edge": "north"}],
...     "commanders": [{"id": "p-gen", "side": "parliament", "command": "army", "x": 2, "y": 2}],
...     "units": [{"id": "p-foot", "side": "parliament", "type": "foot", "command": "a", "x": 6, "y": 2},
...               {"id": "r-foot", "side": "royalist", "type": "foot", "command": "b", "x": 6, "y": 20}]})
>>> pieces = Pieces(battle)
>>> pieces.unit_problem("p-foot", "parliament") is None
True
>>> pieces.unit_problem("r-foot", "parliament", whose="p-gen's")
"'r-foot' is a unit of the enemy (royalist); p-gen's side is parliament"
>>> pieces.unit_problem("p-gen")
"'p-gen' is a commander, not a unit"
>>> pieces.commander_problem("p-foot")
"'p-foot' is a unit, not a commander"
>>> first_seen(["a", "b", "a", "c", "b"])
{2: 0, 4: 1}
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Protocol, runtime_checkable

from tertia.core.scenario import CommanderSpec, Scenario, UnitSpec


@runtime_checkable
class CheckedTable(Protocol):
    """A rule set's table that checks what it names against the battle."""

    def table_problems(self, scenario: Scenario) -> Iterable[tuple[str, str]]:
        """(field path in the table, message) for each entry naming a piece the battle
        does not field, a piece of the wrong side or kind, or one already named.
        ``scenario`` is the battle as the rule set fights it (its own order of battle,
        where it has one); the paths are the table's own (``regiments[3].unit``)."""
        ...


class Pieces:
    """The battle's pieces by id, and why an id a table gives names none of the kind and
    side it should."""

    def __init__(self, scenario: Scenario) -> None:
        self.sides = scenario.side_ids
        self.units: dict[str, UnitSpec] = {}
        for u in scenario.units:
            self.units.setdefault(u.id, u)
        self.commanders: dict[str, CommanderSpec] = {}
        for c in scenario.commanders:
            self.commanders.setdefault(c.id, c)

    def unit_problem(self, ident: str, side: str | None = None, *, whose: str = "the") -> str | None:
        """Why ``ident`` names no unit (of ``side``, when given; ``whose`` says whose side
        that is: "p-gen's"); None when it does."""
        unit = self.units.get(ident)
        if unit is None:
            if ident in self.commanders:
                return f"{ident!r} is a commander, not a unit"
            return f"no unit {ident!r} in the scenario"
        if side is not None and unit.side != side:
            return f"{ident!r} is a unit of the enemy ({unit.side}); {whose} side is {side}"
        return None

    def commander_problem(self, ident: str) -> str | None:
        """Why ``ident`` names no commander; None when it does."""
        if ident in self.commanders:
            return None
        if ident in self.units:
            return f"{ident!r} is a unit, not a commander"
        return f"no commander {ident!r} in the scenario"

    def side_problem(self, side: str) -> str | None:
        """Why ``side`` is no side of the battle; None when it is one."""
        if side in self.sides:
            return None
        return f"no side {side!r} in the scenario; sides: {', '.join(self.sides)}"

    def commands(self, side: str) -> frozenset[str]:
        """The commands ``side``'s units are in."""
        return frozenset(u.command for u in self.units.values() if u.side == side)


def first_seen(keys: Iterable[Hashable]) -> dict[int, int]:
    """For each key that came before, its index and the index where it first came."""
    seen: dict[Hashable, int] = {}
    again: dict[int, int] = {}
    for i, key in enumerate(keys):
        if key in seen:
            again[i] = seen[key]
        else:
            seen[key] = i
    return again


def named_once(names: Sequence[str], entries: str, field: str, problem_of: Callable[[str], str | None],
               one_entry: str) -> Iterator[tuple[int, tuple[str, str] | None]]:
    """Each entry of a table's list ``entries`` by its index, with what is wrong with the
    piece its ``field`` names: the one-line problem ``problem_of`` finds (no such piece,
    one of the wrong kind), or the name listed again (``one_entry`` saying why a piece has
    a single entry), as ``(field's path, reason)``; ``None`` for a good entry."""
    again = first_seen(names)
    for i, name in enumerate(names):
        at = f"{entries}[{i}].{field}"
        why = problem_of(name)
        if why is not None:
            yield i, (at, why)
        elif i in again:
            yield i, (at, f"{name} is listed twice (also {entries}[{again[i]}]): {one_entry}, and the first "
                      "would silently win")
        else:
            yield i, None
