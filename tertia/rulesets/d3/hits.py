"""Hits and routs: hits accumulate, and a unit routs and is removed when it has more
hits than the rout threshold (eight, or six as the author first wrote). Impetuous Horse
that destroy their enemy may pursue it off the table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.dice import D6
from tertia.core.events import Narrated, UnitRemoved
from tertia.core.ruleset import Tx
from tertia.core.state import Unit
from tertia.rules.hits import piece


def rout_after(options: Mapping[str, Any]) -> int:
    """Hits a unit can hold: it routs on exceeding this."""
    return int(options["rout_after"])


def check_routs(tx: Tx, options: Mapping[str, Any]) -> list[str]:
    """Remove every troop unit with more hits than the threshold; their ids."""
    limit = rout_after(options)
    routed = [u for u in tx.state.iter_troops() if piece(u).hits > limit]
    for u in routed:
        tx.emit(UnitRemoved(unit=u.id, reason="routed", detail=f"{piece(u).hits} hits, more than {limit}"))
    return [u.id for u in routed]


def roll_pursuit(tx: Tx, horse: Unit, beaten: Unit, need: int, rule: str) -> bool:
    """Impetuous Horse that eliminated their enemy roll a D6: on ``need`` or more they
    chase it off the battlefield and are removed too."""
    roll = tx.roll(D6, f"pursuit: {horse.label} after {beaten.label}")
    if roll >= need:
        tx.emit(UnitRemoved(unit=horse.id, reason="pursued",
                            detail=f"chased {beaten.label} off the field ({rule})"))
        return True
    tx.emit(Narrated(text=f"{horse.label} rein in after routing {beaten.label}"))
    return False
