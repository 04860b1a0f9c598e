"""Charge yr Pikes! plunder (section 21) pinned from both sides: the roll to cease adds the
officers' bonus by grade; only units still plundering roll it, not one taken or destroyed
at the train; horse that cannot ride anywhere keep their facing."""

from __future__ import annotations

import pytest

from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.plunder import AT_TRAIN, end_of_turn, go_plundering
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import unit_data

from .cyp_melee_support import dice_left, officer, piece, state_of, tx_with

T = default_tables()


def _at_train(*others: object, removed: str | None = None) -> GameState:
    """The king's horse plundering at the enemy's train since turn 2; it is turn 3."""
    h = piece("h", "king", "horse", 30.0, 40.0)
    h = h.evolve(removed=removed, own=unit_data(h).evolve(plundering=AT_TRAIN, plunder_x=30.0,
                                                           plunder_y=40.0, plunder_turn=2))
    return state_of(h, *others, turn=3)  # type: ignore[arg-type]


@pytest.mark.parametrize(("grade", "face", "ceases"), [
    ("ineffective", 3, False), ("ineffective", 4, True),
    ("natural_born_leader", 2, True), ("natural_born_leader", 1, False)])
def test_the_roll_to_cease_plundering_adds_the_officers_bonus_by_grade(grade: str, face: int,
                                                                       ceases: bool) -> None:
    """21 C with "normal officer bonuses apply": a D6 of 4 to 6 ceases; the brigadier in the
    horse's front rank adds his grade's morale bonus (an ineffective one nothing, a natural
    born leader 2), not his rank's (1)."""
    led = officer("o", "king", "h", rank="brigadier", grade=grade, x=30.0, y=40.5)
    tx = tx_with(_at_train(led), face)
    end_of_turn(tx, T)
    assert dice_left(tx) == 0
    assert (unit_data(tx.state.units["h"]).plundering is None) is ceases


@pytest.mark.parametrize(("removed", "rolls"), [(None, True), ("captured", False), ("destroyed", False)])
def test_only_horse_still_plundering_roll_to_cease(removed: str | None, rolls: bool) -> None:
    """21 C: at the end of a turn the plunderers roll to cease; horse taken or destroyed at
    the train plunder no more and roll nothing."""
    tx = tx_with(_at_train(removed=removed), *([4] if rolls else []))
    end_of_turn(tx, T)
    assert dice_left(tx) == 0
    assert bool(tx.events) is rolls


def test_horse_with_nowhere_to_ride_keep_their_facing() -> None:
    """21 B: the plunderers ride off along their path; one that ends where it began (no way
    clear) has turned nowhere."""
    h = piece("h", "king", "horse", 30.0, 20.0, facing=90.0)
    tx = tx_with(state_of(h))
    go_plundering(tx, "h", [(30.0, 20.0), (30.0, 20.0)], at_train=True)
    assert tx.state.units["h"].facing == 90.0
