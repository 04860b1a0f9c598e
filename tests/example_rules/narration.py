"""The example slice's sentences for its own events (:mod:`tertia.core.narration`), so its
log reads in words as a shipped rule set's does."""

from __future__ import annotations

from collections.abc import Sequence

from tertia.core.events import DiceRolled
from tertia.core.narration import Narrating, Sentence, possessive, tells
from tests.example_rules.data import (
    ActivationEnded,
    ChargeDeclared,
    ChargeMet,
    ChargeOver,
    FreeMoveAssigned,
    StandsFled,
    UnitActivated,
)


@tells(FreeMoveAssigned)
def _assigned(n: Narrating, e: FreeMoveAssigned, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{possessive(n.side(e.side))} free move goes to {n.label(e.unit)}", "order"


@tells(UnitActivated)
def _activated(n: Narrating, e: UnitActivated, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.unit)} is activated", "order"


@tells(ActivationEnded)
def _ended(n: Narrating, e: ActivationEnded, dice: Sequence[DiceRolled]) -> Sentence:
    return None, "note"


@tells(ChargeDeclared)
def _charge(n: Narrating, e: ChargeDeclared, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.unit)} declares a charge on {n.label(e.target)}", "order"


@tells(ChargeMet)
def _met(n: Narrating, e: ChargeMet, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.by)} countercharges and meets {n.label(e.charger)}", "attack"


@tells(ChargeOver)
def _over(n: Narrating, e: ChargeOver, dice: Sequence[DiceRolled]) -> Sentence:
    return None, "note"


@tells(StandsFled)
def _fled(n: Narrating, e: StandsFled, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.unit)}'s stands flee, each its own way", "move"
