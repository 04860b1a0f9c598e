"""larger-battles names a supply base as players call it, never by its id (Supplies).

A refusal that a supply base is in the way (Interpenetration: the markers block a move
like a base), and the log's line for a raid, name a base by the name the scenario gives it
(``name`` in ``[[extensions."larger-battles".supplies]]``); a base with none by its side,
as the battle names the side, and, where the side has more than one, its place along the
edge, west to east ("the King's Army's central supply base"). The engine's answers and
the command line read the same.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tertia.ai import players as registry
from tertia.ai.random_player import RandomPlayer
from tertia.cli.main import app
from tertia.core.actions import Action, EndPhase, Move
from tertia.core.game import Game
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.core.table_markers import table_markers
from tertia.io.narrative import Narrator
from tertia.io.svg import render_map
from tertia.rulesets import get_ruleset
from tertia.rulesets.larger_battles.actions import GiveOrder
from tertia.rulesets.larger_battles.events import Supply, supplies_of, supply_name
from tertia.scenarios.catalogue import load_named

from .support import P, R, act, position, unit
from .web_support import bearer, serving_changed

NAMES = {P: "the Eastern Association (Manchester)", R: "the King's Army (Charles I)"}
"""The sides' names: neither holds a side's id, so only the scenario could have given them."""

KINGS = "the King's Army's"
"""The royalist side's name as a possessive."""

runner = CliRunner()


def named_game(units: list[dict[str, Any]], supplies: list[dict[str, Any]]) -> Game:
    """An open 6' x 4' table with the sides given :data:`NAMES` and these supply bases."""
    scenario = Scenario.model_validate({
        "name": "the baggage", "turns": 12, "table": {"width": 72, "depth": 48},
        "sides": [{"id": P, "name": NAMES[P], "edge": "south"}, {"id": R, "name": NAMES[R], "edge": "north"}],
        "units": units, "extensions": {"larger-battles": {"supplies": supplies}},
    })
    return Game(get_ruleset("larger-battles"), scenario)


PIECES = [unit("h", P, "horse", 43, 38, command="right"), unit("e", R, "foot", 60, 30, 180)]
"""A parliamentary horse regiment 10" short of the north edge, and a royalist one."""

THREE = [{"side": R, "x": 30, "y": 47.5, "id": "r-baggage-west"},
         {"side": R, "x": 43, "y": 47.5, "id": "r-baggage-centre"},
         {"side": R, "x": 56, "y": 47.5, "id": "r-baggage-east"}]
"""Three royalist supply bases along the north edge, 13" apart."""


def refusals_at(game: Game, x: float) -> list[str]:
    """The refusals of a parliamentary horse at ``x``, 8" short of the north edge, moving
    up against the royalist supply base there."""
    state = position(game, orders=(("h", "move"),))
    state = state.with_unit(state.units["h"].evolve(x=x))
    return [str(v) for v in game.validate(state, Move(unit="h", waypoints=((x, 46.5),)))]


def test_a_refusal_names_a_supply_base_by_the_name_the_scenario_gives_it() -> None:
    """Supplies, Interpenetration: a move onto a supply base given a name is refused naming
    it so; the base's id, and the side's, are nowhere in the words."""
    named = [{**base, "name": "the baggage at Edgcote"} if base["x"] == 43 else base for base in THREE]
    game = named_game(PIECES, named)
    [refusal] = refusals_at(game, 43)
    assert refusal.startswith("h would pass through or overlap the baggage at Edgcote ("), refusal
    assert "r-baggage" not in refusal and "supply r" not in refusal and "royalist" not in refusal.lower()


@pytest.mark.parametrize(("x", "place"), [(30, "western"), (43, "central"), (56, "eastern")])
def test_a_refusal_names_a_supply_base_without_a_name_by_its_side_and_place(x: float, place: str) -> None:
    """A base the scenario gives no name is named by its side, as the battle names it, and
    by where it stands among its side's bases, west to east: never by its id."""
    game = named_game(PIECES, THREE)
    [refusal] = refusals_at(game, x)
    assert refusal.startswith(f"h would pass through or overlap {KINGS} {place} supply base ("), refusal
    assert "r-baggage" not in refusal and "Royalist" not in refusal


def test_a_side_with_one_supply_base_names_no_place() -> None:
    """A side's only supply base needs no place to tell it from another."""
    game = named_game(PIECES, [{"side": R, "x": 43, "y": 47.5}])
    [refusal] = refusals_at(game, 43)
    assert refusal.startswith(f"h would pass through or overlap {KINGS} supply base ("), refusal
    assert "supply-1" not in refusal


def test_more_bases_than_the_rules_allow_are_named_in_order_from_the_west() -> None:
    """A state holding more than three bases a side (which no scenario checked may give)
    names each by its place in order from the west, and never by its id."""
    bases = [Supply(f"r-{i}", R, 10.0 + 12 * i, 47.5) for i in range(4)]
    assert [supply_name(b, bases, "Royalists'") for b in bases] == [
        f"Royalists' {n} supply base from the west" for n in ("first", "second", "third", "fourth")]


def test_a_name_is_written_only_when_the_scenario_gives_one() -> None:
    """A base the scenario names keeps its name through a saved game; one it does not is
    written as it always was, so the hashes of games already recorded hold."""
    game = named_game([unit("e", R, "foot", 60, 30, 180)],
                      [{**THREE[0], "name": "the baggage at Edgcote"}, THREE[1]])
    state = game.ruleset.initial_state(game.scenario)
    written = [s.to_dict() for s in supplies_of(state)]
    assert written[0]["name"] == "the baggage at Edgcote" and "name" not in written[1]
    again = GameState.from_dict(state.to_dict())
    assert [s.name for s in supplies_of(again)] == ["the baggage at Edgcote", ""]
    assert again.state_hash() == state.state_hash()


def test_the_log_tells_a_raid_by_the_side_and_the_base_as_players_call_them() -> None:
    """Supplies: the log names the raiding side and the base raided as the battle names
    them ("the Eastern Association raids the King's Army's central supply base")."""
    game = named_game(PIECES, THREE)
    state = position(game, orders=(("h", "move"),))
    after, events = act(game, state, Move(unit="h", waypoints=((43, 46),)))
    assert supplies_of(after)[1].raided_by == P
    lines = Narrator.for_rules(game.ruleset, state, side_names=game.side_names).lines(events)
    assert f"{NAMES[P]} raids {KINGS} central supply base" in lines, lines
    assert f"{state.units['h'].label} is lost raiding the enemy's supplies" in lines, lines
    assert not any(base["id"] in line for base in THREE for line in lines), lines


def test_edgehill_names_its_supply_bases_in_words() -> None:
    """At Edgehill, with the sides renamed, a Parliament horse regiment ridden onto the
    King's baggage in the centre (the King's regiments gone from the way) is refused
    naming the base by its side and place."""
    scenario = load_named("edgehill", rules_id="larger-battles")
    sides = tuple(s.model_copy(update={"name": NAMES[s.id]}) for s in scenario.sides)
    game = Game(get_ruleset("larger-battles"), scenario.model_copy(update={"sides": sides}))
    state = position(game, orders=(("p-balfour-horse", "move"),))
    [base] = [s for s in supplies_of(state) if s.id == "r-baggage-centre"]
    horse = state.units["p-balfour-horse"]
    onto = base.y - horse.depth / 2  # its front rank on the base's middle
    horse = horse.evolve(x=base.x, y=onto - 2.5, facing=0.0)
    state = state.with_units([horse, *(u.evolve(removed="routed") for u in state.iter_units(R))])
    refusals = [v.message for v in game.validate(state, Move(unit=horse.id, waypoints=((base.x, onto),)))]
    assert f"{horse.label} would pass through or overlap {KINGS} central supply base" in refusals, refusals
    assert not any("r-baggage" in m or "supply r" in m for m in refusals), refusals


# --- the map: the page's data and the report --------------------------------------------------


EASTERN = "the Eastern Association's"
"""The parliamentary side's name as a possessive."""

IDS = re.compile(r"r-baggage|p-baggage|\broyalist\b|\bparliament\b|\bRoyalist\b|[\x00-\x1f]")
"""What no name of a base a player reads holds: a base's id, a side's id (in words too)
or a control character (a side's mention left unworded)."""

SVG = "{http://www.w3.org/2000/svg}"


def marker_titles(svg: str) -> dict[str, str]:
    """Each table marker's title in an SVG map, by its kind's class and place on the map
    (its supply base's place, west to east, in the battle's order)."""
    root = ET.fromstring(svg)
    found = [" ".join(title.itertext()) for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "supply"
             for title in g.iter(f"{SVG}title")]
    return dict(zip(("west", "centre", "east"), found, strict=True))


def test_the_map_names_each_supply_base_as_players_call_it() -> None:
    """The table markers the page and the reports draw name each base as the refusals and
    the log do: by the name the scenario gives it, else by its side, as the battle names
    it, and its place; the SVG map's title on each base is that name."""
    named = [{**base, "name": "the baggage at Edgcote"} if base["x"] == 56 else base for base in THREE]
    game = named_game(PIECES, named)
    state = game.ruleset.initial_state(game.scenario)
    expected = [f"{KINGS} western supply base", f"{KINGS} central supply base", "the baggage at Edgcote"]
    assert [m.name for m in table_markers(state, game.side_names)] == expected
    titles = marker_titles(render_map(game.table, state, side_names=game.side_names))
    assert list(titles.values()) == expected, titles
    assert not any(IDS.search(t) for t in titles.values()), titles


def test_a_raided_base_is_told_taken_by_the_side_as_the_battle_names_it() -> None:
    """Supplies: a base raided is crossed out on the SVG map, its title naming the base and
    the side that raided it as the battle names them, never by their ids; the events
    recorded still hold the side's id."""
    game = named_game(PIECES, THREE)
    state = position(game, orders=(("h", "move"),))
    after, events = act(game, state, Move(unit="h", waypoints=((43, 46),)))
    assert [e.to_dict()["by"] for e in events if e.type == "supply_raided"] == [P]
    titles = marker_titles(render_map(game.table, after, side_names=game.side_names))
    assert titles["centre"] == f"{KINGS} central supply base, taken by {NAMES[P]}", titles
    assert titles["west"] == f"{KINGS} western supply base", titles
    assert not any(IDS.search(t) for t in titles.values()), titles


def test_the_page_is_sent_each_supply_base_by_its_name(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The view the page draws the table from (``table_markers``) names each supply base at
    Edgehill, the sides renamed, as players call it: the page has no other way to."""
    def renamed(scenario: Scenario) -> Scenario:
        return scenario.model_copy(update={"sides": tuple(s.model_copy(update={"name": NAMES[s.id]})
                                                          for s in scenario.sides)})

    with serving_changed(tmp_path, monkeypatch, renamed) as client:
        created = client.post("/api/games", json={"scenario": "edgehill", "rules": "larger-battles",
                                                   "mode": "hotseat", "seed": 1}).json()
        token = next(iter(created["tokens"].values()))
        view = client.get(f"/api/games/{created['id']}/view", headers=bearer(token)).json()
    names = {m["id"]: m["name"] for m in view["table_markers"]}
    places = {"west": "western", "kineton": "central", "centre": "central", "east": "eastern"}
    assert names == {f"{side}-baggage-{at}": f"{EASTERN if side == 'p' else KINGS} {places[at]} supply base"
                     for side, at in (("p", "west"), ("p", "kineton"), ("p", "east"),
                                      ("r", "west"), ("r", "centre"), ("r", "east"))}, names


# --- the command line -------------------------------------------------------------------------


RAID = """\
name = "A raid on the baggage"
rules = ["larger-battles"]
turns = 4
first = "parliament"

[table]
width = 72
depth = 48

[[sides]]
id = "parliament"
name = "the Eastern Association (Manchester)"
edge = "south"

[[sides]]
id = "royalist"
name = "the King's Army (Charles I)"
edge = "north"

[[units]]
id = "p-horse"
name = "Vermuyden's Horse"
side = "parliament"
type = "horse"
command = "right"
x = 43
y = 38
facing = 0

[[units]]
id = "r-foot"
name = "Lisle's Foot"
side = "royalist"
type = "foot"
command = "centre"
x = 60
y = 30
facing = 180

[[extensions."larger-battles".supplies]]
id = "r-baggage-edgcote"
side = "royalist"
x = 43
y = 47.5
"""


class _Raider(RandomPlayer):
    """A player that orders its horse forward and rides it onto the enemy's baggage,
    whether or not the rules let it."""

    name = "raider"

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        if state.phase != "movement" or state.to_act != P:
            return EndPhase() if not game.validate(state, EndPhase()) else super().choose(game, state, rng)
        if not state.is_marked("ordered_move", "p-horse"):
            return GiveOrder(target="p-horse")
        return Move(unit="p-horse", waypoints=((43, 46.5),))


@pytest.mark.parametrize(("name", "called"), [
    ('name = "the baggage at Edgcote"\n', "the baggage at Edgcote"),
    ("", f"{KINGS} supply base"),
], ids=["named", "unnamed"])
@pytest.mark.parametrize("as_json", [False, True], ids=["narrative", "json"])
def test_the_command_line_names_a_supply_base_in_a_refusal(
        name: str, called: str, as_json: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tertia battle`` with a player that rides onto the enemy's supply base stops in one
    line naming the base as the scenario does, or in words where it gives no name."""
    monkeypatch.setitem(registry._REGISTRY, "raider",
                        registry.PlayerEntry("raider", "rides onto the enemy's baggage", _Raider))
    file = tmp_path / "raid.toml"
    file.write_text(RAID + name, encoding="utf-8")
    players = ["--player", "parliament=raider", "--player", "royalist=raider"]
    result = runner.invoke(app, ["battle", "--scenario", str(file), "--rules", "larger-battles",
                                 "--seed", "3", *players, *(["--json"] if as_json else [])])
    output = " ".join(result.output.split())
    assert result.exit_code == 2, result.output
    assert f"Vermuyden's Horse would pass through or overlap {called}" in output, output
    assert "r-baggage" not in output and "supply r" not in output, output
