"""Charge yr Pikes! officers' grades (section 22, optional) pinned from both sides: with
grades off, close combat reads the officers' ranks and shows nobody; on, each side's
front-rank officers are shown before its dice."""

from __future__ import annotations

import pytest

from tertia.core.events import DiceRolled
from tertia.rulesets.charge_yr_pikes import secret_grades as sg
from tertia.rulesets.charge_yr_pikes.melee import resolve
from tertia.rulesets.charge_yr_pikes.melee_dice import Fighter
from tertia.rulesets.charge_yr_pikes.tables import default_tables

from . import cyp_melee_support as melee

T = default_tables()
NBL, E = "natural_born_leader", "effective"


@pytest.mark.parametrize(("graded", "dice", "shown"), [
    (True, ["6d6", "8d6"], [("kh", E), ("pf", NBL)]),
    (False, ["6d6", "7d6"], []),
])
def test_close_combat_shows_the_officers_only_with_grades(graded: bool, dice: list[str],
                                                          shown: list[tuple[str, str]]) -> None:
    """Section 22: graded, each front-rank officer is called on, shown, and adds his
    grade's dice (effective 1, natural born leader 2); without grades (Special rules A) he
    adds his rank's (a brigadier 1) and his value is neither read nor shown."""
    state = melee.state_of(
        melee.piece("h", "king", "horse", 20.0, 10.0), melee.piece("f", "parl", "foot", 20.0, 12.0, 180.0),
        melee.officer("kh", "king", "h").evolve(grade=E, grade_secret=True),
        melee.officer("pf", "parl", "f").evolve(grade=NBL, grade_secret=True))
    fighters = (Fighter("h", ("f",), True), Fighter("f", ("h",), False))
    tx = melee.tx_with(state, 18, 13, 1, 1, 4)  # the two sides' dice; the officers' D10s; the plunder test
    resolve(tx, T, fighters, melee.Morale(), graded=graded)
    assert [e.die for e in tx.events if isinstance(e, DiceRolled)][:2] == dice
    assert [(e.officer, e.grade) for e in tx.events if isinstance(e, sg.GradeRevealed)] == shown
