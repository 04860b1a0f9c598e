"""``tertia inspect`` beside the pieces: the rule set's panels as the page builds them, the
standing, and a side's own view (``--side``) keeping the other side's secrets.

Every rule set's panels read in words at every position is the matrix's
(``tests/test_surface_matrix.py``); here, that Charge yr Pikes!' objectives and vital
points are each said to be held by the side the position says holds it, and that a side's
inspection is the same whatever the enemy keeps from it (the difference test)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tertia.activation.command_cards import OrderCards
from tertia.ai.doctrine import DoctrinePlayer
from tertia.battle import BattleAborted, BattleRecord, fight_battle
from tertia.cli.main import app
from tertia.core.actions import Action
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.io.record import save_record
from tertia.rulesets import get_ruleset
from tertia.rulesets.charge_yr_pikes import points
from tertia.rulesets.charge_yr_pikes.reports import tables_of
from tertia.scenarios import load_builtin

runner = CliRunner()
WIDE = {"COLUMNS": "1000"}
"""A width no line reaches: each is printed whole and may be looked for."""


def inspect(*args: str) -> str:
    result = runner.invoke(app, ["inspect", *args], env=WIDE)
    assert result.exit_code == 0, result.output
    return result.output


def unfinished(game: Game, players: dict[str, Any], seed: int, actions: int) -> BattleRecord:
    """The first ``actions`` actions of a battle, as a record ``inspect`` reads."""
    try:
        return fight_battle(game, players, seed, max_actions=actions)
    except BattleAborted as stopped:
        assert stopped.unfinished is not None
        return stopped.unfinished


# --- Charge yr Pikes!: who holds each point -------------------------------------------------------


def test_the_points_panel_names_who_holds_each_point_as_the_position_has_it(tmp_path: Path) -> None:
    """Each objective and vital point is said to be held by the side the position says
    holds it (section 19: a unit in good order within 3", no enemy as near), by name, or
    by neither side; the position inspected has points of both kinds."""
    game = Game(get_ruleset("charge-yr-pikes"), load_builtin("edgehill"))
    record = unfinished(game, {s: DoctrinePlayer() for s in game.scenario.side_ids}, 1, 20)
    save_record(record, tmp_path / "battle.json")
    state = record.final_state
    holders = {place: points.holder(state, place, tables_of(state)) for place in points.places(state)}
    assert None in holders.values() and any(held is not None for held in holders.values())
    text = inspect(str(tmp_path / "battle.json"))
    data = json.loads(inspect(str(tmp_path / "battle.json"), "--json"))
    names = game.scenario.side_names()
    panel = next(view for view in data["panels"] if view["name"] == "points")
    for side in state.sides:
        section = next(s for s in panel["sections"] if s["key"] == f"points-{side}")
        mine = [*points.places(state, side, points.OBJECTIVE), *points.places(state, side, points.VITAL)]
        assert [item["text"] for item in section["items"]] == [_what(p) for p in mine]
        for place, item in zip(mine, section["items"], strict=True):
            held = holders[place]
            said = "held by neither side" if held is None else f"held by {names[held]}"
            assert item["note"] == said, (place.name, item)
            assert f"{_what(place)} — {said}" in text, place.name


def _what(place: points.Place) -> str:
    return f"{'Objective' if place.kind == points.OBJECTIVE else 'Vital point'}: {place.name}"


# --- a side's own view --------------------------------------------------------------------------


class _Laying(DoctrinePlayer):
    """The doctrine, but for ``hider``'s command cards: its first card as the doctrine lays
    it and the rest in the reverse order (``twist``), so that two battles differ only in
    the order of cards ``hider``'s enemy has not yet seen."""

    def __init__(self, hider: str, twist: bool) -> None:
        super().__init__()
        self.hider, self.twist = hider, twist

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        action = super().choose(game, state, rng)
        if self.twist and isinstance(action, OrderCards) and state.to_act == self.hider:
            return dataclasses.replace(action, order=(action.order[0], *reversed(action.order[1:])))
        return action


def _twin(folder: Path, twist: bool) -> tuple[Path, BattleRecord]:
    """A d3-commands battle's first actions: both sides' cards laid, the royalists' first
    one played, their second not yet turned over (``twist``: their later cards reversed)."""
    game = Game(get_ruleset("d3-commands"), load_builtin("edgehill"))
    players = {side: _Laying("royalist", twist) for side in game.scenario.side_ids}
    record = unfinished(game, players, 3, 9)
    path = folder / f"{'twisted' if twist else 'laid'}.json"
    save_record(record, path)
    return path, record


def test_a_sides_inspection_is_the_same_whatever_the_enemy_keeps_from_it(tmp_path: Path) -> None:
    """Two records that differ only in the order of the royalists' command cards still
    face down give Parliament's inspection (text and JSON) alike, while a referee, and
    the royalists themselves, see the two orders apart."""
    laid, first = _twin(tmp_path, False)
    twisted, second = _twin(tmp_path, True)
    orders = [[s.action for s in r.steps if isinstance(s.action, OrderCards) and s.side == "royalist"]
              for r in (first, second)]
    assert orders[0] != orders[1] and orders[0][0].order[0] == orders[1][0].order[0]
    others = [[s.action for s in r.steps if not (isinstance(s.action, OrderCards) and s.side == "royalist")]
              for r in (first, second)]
    assert others[0] == others[1]
    for args in ((), ("--json",)):
        assert inspect(str(laid), "--side", "parliament", *args) == \
            inspect(str(twisted), "--side", "parliament", *args)
        assert inspect(str(laid), *args) != inspect(str(twisted), *args)
        own = [inspect(str(path), "--side", "royalist", *args) for path in (laid, twisted)]
        assert own[0] != own[1]


def test_the_referee_sees_each_sides_cards_as_that_side_is_shown_them(tmp_path: Path) -> None:
    """Where the sides are shown a panel differently (each its own order of cards), the
    referee's inspection gives each side's, named; a side's gives its own alone."""
    laid, _ = _twin(tmp_path, False)
    text = inspect(str(laid))
    assert "Command cards, as Parliament (Earl of Essex) sees it" in text
    assert "Command cards, as Royalists (King Charles I) see it" in text
    data = json.loads(inspect(str(laid), "--json"))
    assert [view["seen_by"] for view in data["panels"] if view["name"] == "command-cards"] == \
        [["parliament"], ["royalist"]]
    own = json.loads(inspect(str(laid), "--side", "Royalists", "--json"))
    assert own["side"] == "royalist"
    assert [view["seen_by"] for view in own["panels"] if view["name"] == "command-cards"] == [["royalist"]]
    assert "as Royalists (King Charles I) see it" in inspect(str(laid), "--side", "royalist")


def test_a_side_not_in_the_battle_is_refused_naming_the_sides(tmp_path: Path) -> None:
    laid, _ = _twin(tmp_path, False)
    result = runner.invoke(app, ["inspect", str(laid), "--side", "Scots"], env=WIDE)
    assert result.exit_code == 1
    assert "--side Scots: no such side" in result.output and "Royalists (King Charles I)" in result.output
