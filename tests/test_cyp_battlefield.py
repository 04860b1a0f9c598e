"""Charge yr Pikes! Set-up A: "Choose armies and set up terrain ... by one player ... behind a
screen ... with agreement of both players ... by a non-playing gamemaster." However it was
laid out, the scenario's terrain is the battlefield the rule set plays on."""

from __future__ import annotations

from tertia.core.actions import Move
from tertia.core.dice import ScriptedDice
from tertia.core.game import Game
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes

from .test_cyp_setup import scenario

K1_MOVES = [4, 1, 1, 5]  # grades; k1's card first; k-foot rolls 5 and moves
HEDGE = {"type": "hedge", "name": "Long hedge", "line": [[20.0, 15.0], [40.0, 15.0]], "width": 0.2}


def test_the_scenarios_terrain_is_the_battlefield_played_on() -> None:
    laid_out = Game(ChargeYrPikes(secret_deployment=False), scenario(terrain=[HEDGE]))
    bare = Game(ChargeYrPikes(secret_deployment=False), scenario())
    assert [f.name for f in laid_out.table.features] == ["Long hedge"] and not bare.table.features
    assert (laid_out.table.width, laid_out.table.depth) == (72.0, 48.0)
    # The same 8" move crosses the hedge on the table laid out, and costs 2" for it there.
    move = Move(unit="k-foot", waypoints=((30.0, 20.0),))
    state, _ = laid_out.start(ScriptedDice(K1_MOVES))
    assert [v.code for v in laid_out.validate(state, move)] == [CypCode.TOO_FAR]
    state, _ = bare.start(ScriptedDice(K1_MOVES))
    assert bare.is_legal(state, move)
