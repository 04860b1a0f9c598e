"""The words a question of odds is asked in: only those the rules can answer are offered,
and "its usual action" asks what the piece would do."""

from __future__ import annotations

import pytest

from tertia.core.game import Game
from tertia.core.state import GameState, UnitKind
from tertia.core.violations import IllegalAction
from tertia.rules.fighting import Attack, Shoot
from tertia.rulesets import get_ruleset
from tertia.rulesets.larger_battles.actions import Bombard
from tertia.scenarios import load_builtin


def _start(rules: str) -> tuple[Game, GameState]:
    game = Game(get_ruleset(rules), load_builtin("edgehill"))
    return game, game.ruleset.initial_state(game.scenario)


def test_larger_battles_offers_no_shot_for_troops_but_takes_one_for_a_gun() -> None:
    """Combat: a unit's shooting is part of its melee, so ``shoot`` is not offered; a gun's
    shot is its bombardment, asked by either word."""
    game, state = _start("larger-battles")
    assert "shoot" not in game.ruleset.ACTION_WORDS
    gun = next(u for u in state.units.values() if u.kind is UnitKind.ARTILLERY and u.side == "parliament")
    foot = next(u for u in state.units.values() if u.kind is UnitKind.FOOT and u.side == "parliament")
    enemy = next(u for u in state.units.values() if u.kind is UnitKind.FOOT and u.side == "royalist")
    _, shot = game.ruleset.query(state, "shoot", gun.id, enemy.id, {})
    assert isinstance(shot, Bombard)
    with pytest.raises(IllegalAction, match="combines shooting and melee"):
        game.ruleset.query(state, "shoot", foot.id, enemy.id, {})
    with pytest.raises(IllegalAction, match="has no action 'volley'"):
        game.ruleset.query(state, "volley", foot.id, enemy.id, {})


@pytest.mark.parametrize("rules", ["d3-commands", "d3-cards"])
def test_a_d3_units_usual_action_is_a_shot_only_for_those_with_muskets(rules: str) -> None:
    """Shooting: "only Foot, Dragoons, Commanded Shot and artillery shoot"; horse out of
    contact are asked about their melee, foot about their shot."""
    game, state = _start(rules)
    horse = next(u for u in state.units.values() if u.kind is UnitKind.HORSE and u.side == "parliament")
    foot = next(u for u in state.units.values() if u.kind is UnitKind.FOOT and u.side == "parliament")
    enemy = next(u for u in state.units.values() if u.kind is UnitKind.FOOT and u.side == "royalist")
    _, usual = game.ruleset.query(state, None, horse.id, enemy.id, {})
    assert isinstance(usual, Attack)
    _, usual = game.ruleset.query(state, None, foot.id, enemy.id, {})
    assert isinstance(usual, Shoot)
