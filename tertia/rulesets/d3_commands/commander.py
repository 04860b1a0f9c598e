"""The commander of d3-commands: placed once and never moved; contacted alone by an
enemy unit he flees, and every unit of his army takes D3-1 hits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.dice import D3
from tertia.core.events import Narrated, UnitRemoved
from tertia.core.ruleset import Tx
from tertia.core.state import Unit
from tertia.rules.hits import HitsInflicted
from tertia.rulesets.d3.contact import in_contact
from tertia.rulesets.d3_commands import clauses


def is_alone(tx: Tx, commander: Unit) -> bool:
    """No troop unit of his own side touches him."""
    return not any(in_contact(commander, u) for u in tx.state.iter_troops(commander.side))


def flee(tx: Tx, commander: Unit, by: Unit, options: Mapping[str, Any]) -> None:
    tx.emit(UnitRemoved(unit=commander.id, reason="fled", detail=f"contacted by {by.label}"))
    units = sorted(tx.state.iter_troops(commander.side), key=lambda u: u.id)
    if options["flee_hits"] == "one roll":
        hits = max(0, tx.roll(D3, f"commander fled: {commander.side}") - 1)
        rolls = {u.id: hits for u in units}
    else:
        rolls = {u.id: max(0, tx.roll(D3, f"commander fled: {u.label}") - 1) for u in units}
    tx.emit(Narrated(text=f"{commander.label} has fled: every unit takes D3-1 hits ({clauses.COMMANDER})"))
    for u in units:
        if rolls[u.id]:
            tx.emit(HitsInflicted(unit=u.id, hits=rolls[u.id], cause=f"{commander.label} fled"))
