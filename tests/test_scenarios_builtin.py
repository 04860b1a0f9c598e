"""The scenarios shipped with Tertia: they load, validate under their rule sets, and
match the shape each one promises."""

from __future__ import annotations

import doctest
import io
import itertools
import json
import math
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import tertia.io.scenario_file
import tertia.scenarios
from tertia.ai.doctrine import DoctrinePlayer
from tertia.battle import fight_battle
from tertia.cli.main import app
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.geometry import Base, base_distance
from tertia.core.scenario import CommanderSpec, Scenario, UnitSpec
from tertia.core.state import UnitKind
from tertia.core.terrain import TerrainKind
from tertia.io.record import parse_record, record_to_dict, replay
from tertia.io.scenario_file import ScenarioError
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.rulesets.larger_battles.scenario_table import LargerBattlesTable
from tertia.scenarios import (
    builtin_names,
    list_builtin,
    load_builtin,
    resolve_scenario,
)

NAMES = builtin_names()
EDGEHILL = Path(tertia.scenarios.__file__).parent / "edgehill.toml"
runner = CliRunner()


def base_of(scenario: Scenario, piece: UnitSpec | CommanderSpec) -> Base:
    rules = get_ruleset("larger-battles")
    kind = UnitKind(piece.type) if isinstance(piece, UnitSpec) else UnitKind.COMMANDER
    w, d = rules.base_size(kind)
    return Base(piece.x, piece.y, piece.facing, piece.width or w, piece.depth or d)


def test_the_builtins_are_listed() -> None:
    assert NAMES == ["chalgrove", "edgehill", "naseby", "roundway_down", "skirmish"]
    listing = {s.name: s for s in list_builtin()}
    assert listing["edgehill"].title == "Edgehill, 23 October 1642"
    assert listing["edgehill"].rules == ("larger-battles", "d3-commands", "d3-cards", "declare-thee-sir",
                                         "charge-yr-pikes")
    assert listing["naseby"].rules == ("charge-yr-pikes",)
    assert listing["skirmish"].rules == ("larger-battles",)
    assert listing["chalgrove"].rules == ("d3-cards",)
    assert listing["roundway_down"].rules == ("declare-thee-sir",)
    assert dict(listing["chalgrove"].units) == {"parliament": 7, "royalist": 6}
    assert set(listing["edgehill"].units) == {"parliament", "royalist"}


@pytest.mark.parametrize(
    ("name", "rules_id"),
    [
        (name, rules_id)
        for name in NAMES
        for rules_id in [None, *load_builtin(name).rules]
        if rules_id is None or rules_id in ruleset_ids()
    ],
)
def test_builtin_validates_under_its_rule_sets(name: str, rules_id: str | None) -> None:
    scenario = load_builtin(name, rules_id=rules_id)
    assert scenario.name


def test_doctests() -> None:
    for module in (tertia.scenarios, tertia.io.scenario_file):
        failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert tried > 0 and failures == 0, module.__name__


# --- resolving names and paths ---------------------------------------------------------


def test_resolve_by_name_and_by_path(tmp_path: Path) -> None:
    assert resolve_scenario("skirmish") is load_builtin("skirmish")
    path = Path(__file__).parent / "scenarios" / "tiny.toml"
    assert resolve_scenario(path).name == "Tiny"
    assert resolve_scenario(str(path)).name == "Tiny"


@pytest.mark.parametrize(("typed", "meant"), [("roundway-down", "roundway_down"), ("Edgehil", "edgehill"),
                                              ("chalgrove field", "chalgrove")])
def test_a_name_near_a_scenarios_is_answered_with_the_name_meant(typed: str, meant: str) -> None:
    """Rule sets' ids are written with hyphens and scenarios' names with underscores: a
    battle named the one way for the other is refused with the name meant, not played."""
    with pytest.raises(ScenarioError) as info:
        resolve_scenario(typed)
    assert str(info.value) == (
        f"{typed}: no such file, and no scenario of that name (did you mean {meant}?); "
        "scenarios: chalgrove, edgehill, naseby, roundway_down, skirmish"
    )


def test_resolve_unknown_lists_the_builtins() -> None:
    with pytest.raises(ScenarioError) as info:
        resolve_scenario("marston_moor")
    assert str(info.value) == (
        "marston_moor: no such file, and no scenario of that name; "
        "scenarios: chalgrove, edgehill, naseby, roundway_down, skirmish"
    )
    with pytest.raises(ScenarioError) as info:
        load_builtin("marston_moor")
    assert str(info.value) == (
        "marston_moor: no built-in scenario 'marston_moor'; "
        "built-ins: chalgrove, edgehill, naseby, roundway_down, skirmish")


def test_resolve_a_broken_file_reports_its_problems() -> None:
    path = Path(__file__).parent / "scenarios" / "broken.toml"
    with pytest.raises(ScenarioError) as info:
        resolve_scenario(str(path))
    assert len(info.value.problems) == 5


# --- Edgehill --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def edgehill() -> Scenario:
    return load_builtin("edgehill")


def test_edgehill_table_and_sides(edgehill: Scenario) -> None:
    assert (edgehill.table.width, edgehill.table.depth, edgehill.turns) == (72, 48, 12)
    assert edgehill.side("parliament").edge == "south"
    assert edgehill.side("royalist").edge == "north"
    assert edgehill.sources and edgehill.description


def test_edgehill_armies(edgehill: Scenario) -> None:
    for side in edgehill.side_ids:
        units = [u for u in edgehill.units if u.side == side]
        assert 12 <= len(units) <= 18, side
        generals = [c for c in edgehill.commanders if c.side == side and c.general]
        assert len(generals) == 1
    general = {c.side: c.name for c in edgehill.commanders if c.general}
    assert "Essex" in general["parliament"]
    assert "Forth" in general["royalist"]
    facing = {"parliament": 0.0, "royalist": 180.0}
    assert all(u.facing == facing[u.side] for u in edgehill.units)
    assert all(c.facing == facing[c.side] for c in edgehill.commanders)


def test_edgehill_order_of_battle(edgehill: Scenario) -> None:
    names = " | ".join(u.name for u in edgehill.units)
    for who in ("Rupert", "Wilmot", "Wentworth", "Belasyse", "Gerard", "Fielding's Brigade",
                "King's Lifeguard of Foot", "Usher", "Duncombe", "Charles Essex", "Meldrum",
                "Ballard", "Ramsay", "Balfour", "Stapleton", "Lord Fielding", "Wardlawe"):
        assert who in names, who
    leaders = {(c.side, c.command): c.name for c in edgehill.commanders}
    assert "Rupert" in leaders[("royalist", "right")]
    assert "Wilmot" in leaders[("royalist", "left")]
    assert "Ramsay" in leaders[("parliament", "left")]
    assert "Balfour" in leaders[("parliament", "right")]


def test_edgehill_commands(edgehill: Scenario) -> None:
    commanders = {(c.side, c.command): c for c in edgehill.commanders}
    kinds: dict[tuple[str, str], set[str]] = {}
    for u in edgehill.units:
        if u.type in ("dragoons", "artillery"):
            assert u.command == u.type, u.id
            continue
        kinds.setdefault((u.side, u.command), set()).add(u.type)
        leader = commanders[(u.side, u.command)]
        gap = base_distance(base_of(edgehill, u), base_of(edgehill, leader))
        assert gap <= 12.0, (u.id, gap)
    assert all(len(k) == 1 for k in kinds.values()), kinds


def test_edgehill_armies_start_apart(edgehill: Scenario) -> None:
    for a, b in itertools.product(edgehill.units, edgehill.units):
        if a.side == "parliament" and b.side == "royalist":
            assert base_distance(base_of(edgehill, a), base_of(edgehill, b)) >= 20.0 - 1e-9


def test_edgehill_supplies(edgehill: Scenario) -> None:
    for side in edgehill.side_ids:
        table = get_ruleset("larger-battles").scenario_extension(edgehill)
        assert isinstance(table, LargerBattlesTable)
        supplies = [s for s in table.supplies if s.side == side]
        assert len(supplies) == 3
        edge_y = 0.0 if edgehill.side(side).edge == "south" else edgehill.table.depth
        assert all(abs(s.y - edge_y) <= 3.0 for s in supplies)
        for s, t in itertools.combinations(supplies, 2):
            assert math.hypot(s.x - t.x, s.y - t.y) >= 12.0


def test_edgehill_terrain(edgehill: Scenario) -> None:
    by_name = {t.name: t for t in edgehill.terrain}
    assert by_name["Edge Hill"].type == "hill"
    assert by_name["Radway"].type == "town"
    assert by_name["Little Kineton"].type == "town"
    assert by_name["the Kineton road"].type == "road"
    hedged = [t for t in edgehill.terrain if t.type == "field" and t.hedged]
    assert hedged
    # The hedges are on Parliament's right: the east half of the table.
    assert all(min(x for x, _ in t.polygon or ()) > edgehill.table.width / 2 for t in hedged)
    # The escarpment runs along the Royalist (north) edge.
    assert min(y for _, y in by_name["Edge Hill"].polygon or ()) > edgehill.table.depth * 0.8


# --- Edgehill under d3-cards ------------------------------------------------------------

CARDS = "d3-cards"


def test_edgehill_under_d3_cards_fields_eight_units_a_side() -> None:
    """d3-cards is "geared towards games using 6-8 units per side": Edgehill gives it an
    order of battle of its own, eight a side, under the same generals."""
    scenario = load_builtin("edgehill", rules_id=CARDS)
    shared = load_builtin("edgehill")
    assert scenario.own_lists(CARDS) == ("units",) and scenario.commanders == shared.commanders
    facing = {"parliament": 0.0, "royalist": 180.0}
    for side in scenario.side_ids:
        units = [u for u in scenario.units if u.side == side]
        assert 6 <= len(units) <= 8 and len(units) == 8, side
        assert all(u.facing == facing[side] for u in units)
    names = " | ".join(u.name for u in scenario.units)
    for who in ("Rupert", "Byron's", "Wilmot", "Digby", "Wentworth", "Belasyse", "Gerard",
                "Richard Fielding", "Sir Nicholas Byron", "Usher", "Duncombe", "Royal Train",
                "Ramsay", "Charles Essex", "Meldrum", "Ballard", "Balfour", "Stapleton",
                "Lord Fielding", "Wardlawe", "Lord General's Train"):
        assert who in names, who
    assert {u.id for u in scenario.units if "impetuous" in u.traits} == {"r-rupert-wing", "r-wilmot-wing"}
    assert scenario.notes.startswith("These rules are written for six to eight units a side")
    assert "six to eight units" not in load_builtin("edgehill", rules_id="larger-battles").notes


def test_edgehill_under_d3_cards_stands_where_the_bodies_it_groups_stand() -> None:
    """Each d3-cards unit stands within 3" of a unit of its side and kind in the shared
    order of battle, on the same table, and the armies start more than a Horse move
    (12") apart."""
    scenario = load_builtin("edgehill", rules_id=CARDS)
    shared = load_builtin("edgehill").units
    for u in scenario.units:
        near = min(math.dist((u.x, u.y), (s.x, s.y)) for s in shared if (s.side, s.type) == (u.side, u.type))
        assert near <= 3.0, u.id
    rules = get_ruleset(CARDS)

    def base(u: UnitSpec) -> Base:
        return Base(u.x, u.y, u.facing, *rules.base_size(UnitKind(u.type)))

    for a, b in itertools.product(scenario.units, scenario.units):
        if a.side == "parliament" and b.side == "royalist":
            assert base_distance(base(a), base(b)) > 12.0, (a.id, b.id)


@pytest.mark.parametrize("rules_id", ["larger-battles", "d3-commands", "declare-thee-sir"])
def test_edgehills_other_rule_sets_field_the_shared_order_of_battle(rules_id: str) -> None:
    shared = load_builtin("edgehill")
    assert load_builtin("edgehill", rules_id=rules_id) == shared
    game = Game(get_ruleset(rules_id), shared)
    assert game.scenario is shared
    fielded = set(game.ruleset.initial_state(game.scenario).units)
    assert {u.id for u in shared.units} <= fielded
    cards_only = {u.id for u in load_builtin("edgehill", rules_id=CARDS).units} - {u.id for u in shared.units}
    assert cards_only and not cards_only & fielded


@pytest.mark.parametrize("rules_id", [None, CARDS, "larger-battles"])
def test_a_bad_field_in_edgehills_d3_cards_order_of_battle_is_one_line(rules_id: str | None) -> None:
    text = EDGEHILL.read_text(encoding="utf-8")
    own = text.index('[[extensions."d3-cards".order_of_battle.units]]\nid = "r-rupert-wing"')
    bad = text[:own] + text[own:].replace('type = "horse"', 'type = "hosre"', 1)
    with pytest.raises(ScenarioError) as info:
        tertia.io.scenario_file.load_scenario(bad, source_name="edgehill.toml", rules_id=rules_id)
    assert [str(p) for p in info.value.problems] == [
        "edgehill.toml: extensions.d3-cards.order_of_battle.units[1] 'r-rupert-wing'.type: "
        "unknown unit type 'hosre'; known: foot, horse, dragoons, commanded_shot, artillery"]


def test_edgehill_under_d3_cards_is_fought_to_a_result_and_replays() -> None:
    game = Game(get_ruleset(CARDS), load_builtin("edgehill"))
    assert len(game.scenario.units) == 16
    record = fight_battle(game, {side: DoctrinePlayer() for side in game.scenario.side_ids}, 5)
    final = record.final_state
    assert final.is_over and final.result is not None and len(record.steps) > 50
    assert final.turn >= 1 and any(u.removed for u in final.units.values())
    loaded = parse_record(json.loads(json.dumps(record_to_dict(record))), "edgehill.json")
    replayed = replay(loaded)
    assert replayed.ok and replayed.final_hash == final.state_hash()


# --- the skirmish ----------------------------------------------------------------------


def test_skirmish_has_one_of_everything() -> None:
    s = load_builtin("skirmish")
    assert (s.table.width, s.table.depth) == (48, 36)
    kinds = {t.type for t in s.terrain}
    assert {"hill", "woods", "river", "ford", "town", "road", "field"} <= kinds
    assert any(t.type == "field" and t.hedged for t in s.terrain)
    for side in s.side_ids:
        assert 3 <= sum(u.side == side for u in s.units) <= 4
        assert 1 <= sum(c.side == side for c in s.commanders) <= 2
        table = get_ruleset("larger-battles").scenario_extension(s)
        assert isinstance(table, LargerBattlesTable)
        assert sum(p.side == side for p in table.supplies) == 1
    assert len(s.objectives) == 1
    # The objective is the ford.
    objective = s.objectives[0]
    assert s.build_battlefield().contains_point(TerrainKind.FORD, (objective.x, objective.y))


# --- the scenarios command -------------------------------------------------------------


def test_scenarios_command_table() -> None:
    result = runner.invoke(app, ["scenarios"])
    assert result.exit_code == 0, result.output
    assert "edgehill" in result.output and "skirmish" in result.output
    assert "larger-battles" in result.output


def test_scenarios_command_keeps_every_name_whole_at_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    monkeypatch.setattr("tertia.cli.common.out", Console(file=screen, width=80, force_terminal=True,
                                                         color_system=None, highlight=False, markup=False))
    result = runner.invoke(app, ["scenarios"])
    assert result.exit_code == 0, result.output
    shown = screen.getvalue()
    assert "…" not in shown and max(len(line) for line in shown.splitlines()) <= 80
    cells = [cell.strip() for line in shown.splitlines() for cell in line.split("│")]
    for row in json.loads(runner.invoke(app, ["scenarios", "--json"]).output):
        assert row["name"] in cells
        assert all(rules in cells for rules in row["rules"]), row["rules"]


def test_scenarios_command_json() -> None:
    result = runner.invoke(app, ["scenarios", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [r["name"] for r in rows] == NAMES
    edgehill = rows[NAMES.index("edgehill")]
    assert edgehill["title"] == "Edgehill, 23 October 1642"
    assert edgehill["rules"] == ["larger-battles", "d3-commands", "d3-cards", "declare-thee-sir",
                                 "charge-yr-pikes"]
    assert edgehill["units"] == {"parliament": 15, "royalist": 18}
    assert set(rows[1]) == {"name", "title", "rules", "units", "units_by_rules", "shipped_by", "description",
                            "notes_by_rules"}
    assert edgehill["description"].startswith("King Charles I, marching on London")
    assert edgehill["notes_by_rules"]["d3-cards"].startswith("These rules are written for six to eight")
    assert edgehill["notes_by_rules"]["larger-battles"] == edgehill["notes_by_rules"]["declare-thee-sir"]
    assert {r["shipped_by"] for r in rows} == {None}


def _fielded(name: str, rules: str) -> dict[str, int]:
    scenario = load_builtin(name, rules_id=rules)
    state = Game(get_ruleset(rules), scenario).start(SeededDice(1))[0]
    return {side: sum(1 for _ in state.iter_troops(side)) for side in scenario.side_ids}


@pytest.mark.parametrize(("name", "rules"), [(s.name, r) for s in list_builtin() for r in s.rules])
def test_scenarios_command_counts_the_units_each_rule_set_fields(name: str, rules: str) -> None:
    """Charge yr Pikes! fields Edgehill's brigades as regiments, d3-cards its own order of
    battle: each rule set's line counts the troops a game under it starts with."""
    rows = {r["name"]: r for r in json.loads(runner.invoke(app, ["scenarios", "--json"]).output)}
    fielded = _fielded(name, rules)
    assert rows[name]["units_by_rules"][rules] == fielded
    screen = runner.invoke(app, ["scenarios"], env={"COLUMNS": "200"}).output
    lines = screen.splitlines()
    line = next(i for i, text in enumerate(lines) if f" {name} " in text)
    while f" {rules} " not in lines[line]:
        line += 1
    assert ", ".join(f"{side} {n}" for side, n in fielded.items()) in lines[line]


def test_validate_accepts_a_builtin_name() -> None:
    result = runner.invoke(app, ["validate", "edgehill", "--rules", "larger-battles"])
    assert result.exit_code == 0, result.output
    assert result.output == "edgehill: valid (33 units, 9 commanders; checked under larger-battles)\n"
