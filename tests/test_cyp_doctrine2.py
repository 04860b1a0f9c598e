"""The Charge yr Pikes! doctrine, second edition (the ``doctrine-2`` player): foot form
square only against horse that could charge them as things stand."""

from __future__ import annotations

from tertia.ai.lookup import doctrine_for, second_edition_for
from tertia.ai.players import make_player
from tertia.battle import Step, fight_battle
from tertia.core.game import Game
from tertia.core.state import GameState, Unit
from tertia.rulesets import get_ruleset
from tertia.rulesets.charge_yr_pikes.actions import Reform
from tertia.rulesets.charge_yr_pikes.ai.doctrine import CypDoctrine, _enemy_horse, _square_call, _within
from tertia.rulesets.charge_yr_pikes.charge_path import charge_path
from tertia.rulesets.charge_yr_pikes.tables import tables_of
from tertia.scenarios import resolve_scenario


def _game(scenario: str) -> Game:
    return Game(get_ruleset("charge-yr-pikes", secret_deployment=False),
                resolve_scenario(scenario, rules_id="charge-yr-pikes"))


class _Found(Exception):
    """Stops a battle at the position wanted."""

    def __init__(self, state: GameState, unit: Unit) -> None:
        self.state, self.unit = state, unit


def _first_square(game: Game) -> tuple[GameState, Unit]:
    """The position before the first edition's first square of a battle, and its unit."""
    sides = game.scenario.side_ids
    before: list[GameState] = []

    def watch(step: Step) -> None:
        if isinstance(step.action, Reform) and step.action.formation == "square":
            raise _Found(before[-1], before[-1].units[step.action.unit])
        before.append(step.state)

    players = {s: make_player("baseline") for s in sides}
    try:
        record = fight_battle(game, players, 1, on_step=watch, max_actions=2000)
    except _Found as found:
        return found.state, found.unit
    raise AssertionError(f"no square in a battle of {len(record.steps)} actions")


def test_the_second_edition_forms_no_square_against_horse_that_cannot_reach() -> None:
    """Naseby: the first edition's first square, against horse within 32"; the second
    edition forms it only if one of those horse has a clear charge within its reach."""
    game = _game("naseby")
    state, unit = _first_square(game)
    tables = tables_of(state)
    assert isinstance(_square_call(game, state, unit, tables), Reform)
    near = [(e, reach) for e, reach in _enemy_horse(state, unit.side, tables) if _within(unit, e, reach)]
    assert near
    reachable = [e for e, reach in near
                 if (p := charge_path(game.table, state, e, unit)).blocked_by is None
                 and not p.off_table and p.length <= reach]
    second = _square_call(game, state, unit, tables, True)
    assert isinstance(second, Reform) == bool(reachable)


def test_the_second_edition_stands_in_square_less() -> None:
    game = _game("naseby")
    sides = game.scenario.side_ids

    def squares(name: str) -> int:
        record = fight_battle(game, {s: make_player(name) for s in sides}, 2, max_actions=1500)
        return sum(1 for st in record.steps
                   if isinstance(st.action, Reform) and st.action.formation == "square")

    assert squares("doctrine-2") < squares("baseline")


def test_the_second_edition_is_the_doctrine_with_squares_against_reach() -> None:
    ruleset = get_ruleset("charge-yr-pikes")
    assert doctrine_for(ruleset) is CypDoctrine
    player = second_edition_for(ruleset)()
    assert isinstance(player, CypDoctrine) and player.squares_against_reach
    assert not CypDoctrine().squares_against_reach
