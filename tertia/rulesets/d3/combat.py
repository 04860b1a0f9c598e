"""The D3 combat block: roll a D3, apply the modifiers, never below nothing, double for a
flank or rear attack after every other modifier; the result is the number of hits."""

from __future__ import annotations

from collections.abc import Sequence

from tertia.core.dice import D3
from tertia.core.ruleset import Tx
from tertia.core.state import Unit
from tertia.rules.fighting import AttackResolved
from tertia.rules.hits import HitsInflicted
from tertia.rules.modifiers import Modifier, total


def final_hits(roll: int, modifiers: Sequence[Modifier], doubled: bool) -> int:
    """The hits a roll scores.

    >>> final_hits(1, [Modifier(-1, "infantry"), Modifier(-1, "cover")], False)
    0
    >>> final_hits(3, [Modifier(1, "impetuous Horse"), Modifier(-1, "infantry")], True)
    6
    """
    hits = max(0, roll + total(modifiers))
    return hits * 2 if doubled else hits


def roll_hits(
    tx: Tx,
    *,
    kind: str,
    attacker: Unit,
    target: Unit,
    modifiers: Sequence[Modifier],
    doubled: str | None = None,
    verb: str,
) -> int:
    """Roll the D3 for ``attacker`` against ``target``, tell it, and inflict the hits.
    ``doubled`` names the face attacked when the hits are doubled (flank or rear)."""
    roll = tx.roll(D3, f"{kind}: {attacker.label} against {target.label}")
    hits = final_hits(roll, modifiers, doubled is not None)
    net = total(modifiers)
    sign = "+" if net >= 0 else "-"
    arithmetic = f"D3 {roll}{sign}{abs(net)}" if modifiers else f"D3 {roll}"
    if doubled is not None:
        arithmetic = f"({arithmetic}) x2 for the {doubled}"
    outcome = "no hits" if hits == 0 else ("1 hit" if hits == 1 else f"{hits} hits")
    tx.emit(AttackResolved(
        kind=kind, attacker=attacker.id, target=target.id, supports=(),
        attacker_score=hits, defender_score=0,
        modifiers=tuple(str(m) for m in modifiers)
        + ((f"x2 attack on the {doubled}",) if doubled else ()),
        defender_modifiers=(),
        summary=f"{attacker.label} {verb} {target.label}: {arithmetic}, {outcome}",
    ))
    if hits:
        tx.emit(HitsInflicted(unit=target.id, hits=hits, cause=f"{kind} by {attacker.label}"))
    return hits
