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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tertia.activation.command_cards import OrderCards
from tertia.ai.doctrine import DoctrinePlayer
from tertia.battle import BattleAborted, BattleRecord, fight_battle
from tertia.cli.main import app
from tertia.core.actions import Action
from tertia.core.game import Game
from tertia.core.ruleset import RuleSet
from tertia.core.state import GameState
from tertia.io.record import save_record
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.rulesets.charge_yr_pikes import points
from tertia.rulesets.charge_yr_pikes.concealment import Deploy, DeploymentDone
from tertia.rulesets.charge_yr_pikes.reports import tables_of
from tertia.scenarios import load_builtin
from tertia.scenarios.catalogue import default_scenario, load_named
from tests.plugin_rules import every_rule_set, with_plugins

runner = CliRunner()
WIDE = {"COLUMNS": "1000"}
"""A width no line reaches: each is printed whole and may be looked for."""


def inspect(*args: str) -> str:
    result = runner.invoke(app, ["inspect", *args], env=WIDE)
    assert result.exit_code == 0, result.output
    return result.output


def unfinished(game: Game, players: dict[str, Any], seed: int, actions: int,
               resume: Sequence[Action] = ()) -> BattleRecord:
    """The first ``actions`` actions of a battle (``resume``'s first, then the players'),
    as a record ``inspect`` reads."""
    try:
        return fight_battle(game, players, seed, max_actions=actions, resume=resume)
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


@dataclass(frozen=True)
class Twins:
    """The first actions of two battles of one game and seed that differ only in what
    ``hider`` keeps from ``viewer``."""

    game: Game
    seed: int
    hider: str
    viewer: str
    first: tuple[Action, ...]
    second: tuple[Action, ...]


def _d3_commands() -> Twins:
    """The royalists' command cards after the first laid in two orders (``_twin``)."""
    game = Game(get_ruleset("d3-commands"), load_builtin("edgehill"))
    steps = unfinished(game, {side: DoctrinePlayer() for side in game.scenario.side_ids}, 3, 9).steps
    twisted = [dataclasses.replace(s.action, order=(s.action.order[0], *reversed(s.action.order[1:])))
               if isinstance(s.action, OrderCards) and s.side == "royalist" else s.action for s in steps]
    return Twins(game, 3, "royalist", "parliament", tuple(s.action for s in steps), tuple(twisted))


class _Deploying:
    """Charge yr Pikes!' secret deployment: ``hider`` places ``piece`` at ``place`` and is
    done; the other side is done at once."""

    name = "deploying"

    def __init__(self, hider: str, piece: str, place: tuple[float, float]) -> None:
        self.hider, self.piece, self.place, self.placed = hider, piece, place, False

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        if state.to_act == self.hider and not self.placed:
            self.placed = True
            return Deploy(self.piece, *self.place)
        return DeploymentDone()


def _charge_yr_pikes() -> Twins:
    """Edgehill with secret deployment: a royalist battery deployed into Radway at one of
    two places, where Parliament does not see it; both sides done."""
    game = Game(get_ruleset("charge-yr-pikes", secret_deployment=True), load_builtin("edgehill"))
    piece, places = "r-guns-right", ((22.5, 41.0), (24.5, 40.5))
    fought = [tuple(s.action for s in unfinished(
        game, {side: _Deploying("royalist", piece, place) for side in game.scenario.side_ids}, 7, 3).steps)
        for place in places]
    return Twins(game, 7, "royalist", "parliament", *fought)


def _example_declare() -> Twins:
    """The example plugin's battle up to a side's first secret choice of the unit its
    free-move card goes to, made for two units."""
    from tests.example_rules.data import AssignFreeMove

    game = Game(get_ruleset("example-declare"), load_named("declare", rules_id="example-declare"))
    record = unfinished(game, {side: DoctrinePlayer() for side in game.scenario.side_ids}, 5, 60)
    k = next(k for k, s in enumerate(record.steps) if isinstance(s.action, AssignFreeMove))
    chosen = record.steps[k]
    before = record.steps[k - 1].state if k else record.initial_state
    other = next(AssignFreeMove(u.id) for u in before.iter_troops(chosen.side)
                 if u.id != chosen.action.unit and game.is_legal(before, AssignFreeMove(u.id)))
    actions = tuple(s.action for s in record.steps[:k])
    return Twins(game, 5, chosen.side, before.opponent(chosen.side), (*actions, chosen.action),
                 (*actions, other))


TWINS: dict[str, Callable[[], Twins]] = {
    "d3-commands": _d3_commands, "charge-yr-pikes": _charge_yr_pikes, "example-declare": _example_declare}
"""For each rule set that hides something from a side, two battles differing only in it."""

with with_plugins():
    HIDING = [rules for rules in ruleset_ids()
              if type(get_ruleset(rules)).observed_state is not RuleSet.observed_state]
    """The rule sets that hide something from a side (they make its view their own way)."""


def test_every_rule_set_that_hides_something_is_among_those_with_twins() -> None:
    assert set(HIDING) == set(TWINS), "a rule set that hides something needs its twin battles here"
    assert {"d3-commands", "charge-yr-pikes", "example-declare"} <= set(HIDING)


@pytest.mark.parametrize("rules", HIDING)
def test_a_sides_inspection_is_the_same_whatever_the_enemy_keeps_from_it(tmp_path: Path, rules: str) -> None:
    """Two records that differ only in what one side keeps from the other (d3-commands'
    order of command cards still face down, Charge yr Pikes!' battery deployed unseen,
    the example's secret choice of a unit) give the other side's inspection (text and
    JSON) alike, while a referee, and the side keeping it, see the two apart."""
    with with_plugins():
        twins = TWINS[rules]()
        game, viewer = twins.game, twins.viewer
        assert twins.first != twins.second
        records = [unfinished(game, {}, twins.seed, len(actions), resume=actions)
                   for actions in (twins.first, twins.second)]
        finals = [record.final_state for record in records]
        assert finals[0] != finals[1]
        assert game.observed_state(finals[0], viewer) == game.observed_state(finals[1], viewer)
        visible = game.ruleset.event_visible_to
        told = [[[e for e in events if visible(e, viewer)] for events in
                 (record.start_events, *(s.events for s in record.steps))] for record in records]
        assert told[0] == told[1]
        paths = [tmp_path / "first.json", tmp_path / "second.json"]
        for record, path in zip(records, paths, strict=True):
            save_record(record, path)
        for args in ((), ("--json",)):
            seen = [inspect(str(path), "--side", viewer, *args) for path in paths]
            assert seen[0] == seen[1], args
        for who in ((), ("--side", twins.hider)):
            assert inspect(str(paths[0]), *who, "--json") != inspect(str(paths[1]), *who, "--json"), who


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


# --- a panel with nothing in it -------------------------------------------------------------------


ACTIONS = 60
"""Actions fought of each rule set's default battle: past its deployment into its turns."""


def _titles(text: str) -> list[str]:
    """The lines of ``inspect``'s text, stripped: a panel's title is one of them."""
    return [line.strip() for line in text.splitlines()]


def _headed(label: str, lines: list[str]) -> bool:
    """Is a panel titled ``label`` printed (alone, or as one side sees it)?"""
    return any(line == label or line.startswith((f"{label}, as ", f"{label}:")) for line in lines)


@pytest.mark.parametrize("rules", every_rule_set())
def test_a_panel_with_nothing_to_show_is_left_out_as_the_page_hides_it(tmp_path: Path, rules: str) -> None:
    """At the battle's start, as its first turn begins and on through its turns, ``inspect``
    prints each panel that shows anything now and no other (a deployment panel, empty
    from the first turn to the end, is not said empty at every position), while the JSON
    gives every panel the rule set declares, an empty one with no sections."""
    with with_plugins():
        game = Game(get_ruleset(rules), load_named(default_scenario(rules), rules_id=rules))
        record = unfinished(game, {s: DoctrinePlayer() for s in game.scenario.side_ids}, 2, ACTIONS)
        path = tmp_path / "battle.json"
        save_record(record, path)
        states = [record.initial_state, *(s.state for s in record.steps)]
        begun = next((k for k, s in enumerate(states) if s.turn >= 1), 0)
        assert any(s.turn >= 1 for s in states[begun:]), f"{rules}: no turn begun in {ACTIONS} actions"
        steps = sorted({0, begun, min(begun + 1, len(states) - 1), len(states) // 2, len(states) - 1})
        for step in steps:
            lines = _titles(inspect(str(path), "--step", str(step)))
            data = json.loads(inspect(str(path), "--step", str(step), "--json"))
            declared = list(dict.fromkeys(view["name"] for view in data["panels"]))
            assert declared == [spec.name for spec in game.ruleset.PANELS]
            for name in declared:
                views = [view for view in data["panels"] if view["name"] == name]
                shown = any(view["sections"] for view in views)
                assert _headed(views[0]["label"], lines) == shown, (rules, step, name, shown)
            assert not any("nothing to show" in line for line in lines), (rules, step)
