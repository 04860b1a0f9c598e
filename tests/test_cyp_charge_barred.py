"""The cheap test that a charge is barred (12 A: "the attacker may not charge through" a
piece in the way): where it says so, the charge's path finds a piece in the way; it says
nothing of a piece the charge passes, stands beside or beyond."""

from __future__ import annotations

import pytest

from tertia.ai.players import make_player
from tertia.battle import fight_battle
from tertia.core.game import Game
from tertia.core.geometry import base_distance
from tertia.rulesets import get_ruleset
from tertia.rulesets.charge_yr_pikes.charge_path import charge_path, surely_barred
from tertia.rulesets.charge_yr_pikes.data import ROUTED
from tertia.rulesets.charge_yr_pikes.values import unit_data
from tertia.scenarios import resolve_scenario
from tests.test_cyp_doctrine import FAR, _on_card

CHARGER, FOE, FRIEND = "k-horse2", "p-horse", "k-horse"


@pytest.mark.parametrize(("friend_at", "routed", "surely", "blocked"), [
    ((57.0, 24.0), False, True, True),     # straight ahead, between the charger and its foe
    ((57.0, 24.0), True, False, False),    # there, but routed: shoved aside (15 A)
    ((61.5, 24.0), False, False, True),    # its centre beside the charger's width: in the way
                                           # all the same, which only the whole path finds
    ((65.0, 24.0), False, False, False),   # clear beside the line
    ((57.0, 40.0), False, False, False),   # beyond the foe
])
def test_a_piece_straight_ahead_nearer_than_the_foe_surely_bars_the_charge(
        friend_at: tuple[float, float], routed: bool, surely: bool, blocked: bool) -> None:
    changed = {FRIEND: {"formation": ROUTED}} if routed else {}
    game, state = _on_card({**FAR, FRIEND: friend_at, CHARGER: (57.0, 18.0), FOE: (57.0, 34.0)}, (CHARGER,),
                           **changed)
    horse, foe = state.units[CHARGER], state.units[FOE]
    assert surely_barred(state, horse, foe) is surely
    path = charge_path(game.table, state, horse, foe)
    assert (path.blocked_by == state.units[FRIEND].label) is blocked
    assert (path.blocked_by is not None) is blocked


def test_wherever_a_charge_is_surely_barred_its_path_finds_a_piece_in_the_way() -> None:
    """Every troop of a whole battle against every enemy troop within 32", at every 25th
    position: the cheap test never says barred where the charge's path is clear, and says
    so of a good share of the charges that are barred."""
    game = Game(get_ruleset("charge-yr-pikes"), resolve_scenario("edgehill", rules_id="charge-yr-pikes"))
    sides = game.scenario.side_ids
    record = fight_battle(game, {s: make_player("doctrine") for s in sides}, 3)
    said = blocked = 0
    for step in record.steps[::25]:
        state = step.state
        troops = [u for u in state.iter_troops() if not unit_data(u).is_officer]
        for unit in troops:
            for foe in troops:
                if foe.side == unit.side or base_distance(unit.base, foe.base) > 32.0:
                    continue
                path_blocked = charge_path(game.table, state, unit, foe).blocked_by is not None
                blocked += path_blocked
                if surely_barred(state, unit, foe):
                    said += 1
                    assert path_blocked, (step.state.step, unit.id, foe.id)
    assert blocked > 100 and said > blocked / 3
