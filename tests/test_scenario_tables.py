"""Declare Thee Sir's and Charge yr Pikes!' tables in a scenario (``[extensions."<id>"]``)
are checked strictly: each entry names a piece the battle fields, of the side it must be,
once. A broken table is refused by ``tertia validate FILE --rules ID`` and by ``tertia
battle --scenario FILE`` in one line naming the file, the field and the reason, and
nothing is played.

The broken tables are derived from each built-in scenario written for the rule set, from
its own table (an entry listed twice, an entry naming no piece, a piece of the enemy's),
so a new scenario is covered as soon as it is written."""

from __future__ import annotations

import copy
import doctest
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tertia.core.table_checks
import tertia.scenarios
from tertia.cli.main import app
from tertia.core.scenario import Scenario
from tertia.io.scenario_file import ScenarioError, load_scenario
from tertia.rulesets import ruleset_ids
from tertia.rulesets.charge_yr_pikes.scenario_table import PikesTable
from tertia.rulesets.declare_thee_sir.scenario_table import DeclareTable
from tertia.scenarios import builtin_names, list_builtin, load_builtin

runner = CliRunner()
DTS, CYP = "declare-thee-sir", "charge-yr-pikes"
BUILTIN = Path(tertia.scenarios.__file__).parent
NONE = "no-such-piece"


# --- a scenario's document written back as TOML ------------------------------------------


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_value(x)}" for k, x in v.items()) + "}"


def toml_text(document: dict[str, Any]) -> str:
    """``document`` as TOML (every table inline: what tomllib reads back is ``document``)."""
    return "".join(f"{json.dumps(k)} = {_value(v)}\n" for k, v in document.items())


def document(name: str) -> dict[str, Any]:
    return tomllib.loads((BUILTIN / f"{name}.toml").read_text(encoding="utf-8"))


def written_for(rules: str) -> list[str]:
    return [s.name for s in list_builtin() if rules in s.rules]


# --- the broken tables -------------------------------------------------------------------


@dataclass(frozen=True)
class Broken:
    """A scenario's table broken one way, and the one line that must refuse it."""

    scenario: str
    rules: str
    what: str
    table: dict[str, Any]
    path: str
    reason: str

    @property
    def id(self) -> str:
        return f"{self.scenario}-{self.rules}-{self.what}"


def _officers_key(rules: str) -> tuple[str, str]:
    """The table's list of officers and the field naming the commander."""
    return ("generals", "commander") if rules == DTS else ("officers", "commander")


def broken_tables(name: str, rules: str) -> list[Broken]:
    """Every edit of the scenario's own table this file makes: duplicate, dangling and
    cross-side entries, and rule set's own ones (two army commanders, foot as horse)."""
    table = document(name)["extensions"][rules]
    played = load_builtin(name, rules_id=rules)
    side_of = {p.id: p.side for p in (*played.units, *played.commanders)}
    found: list[Broken] = []

    def edit(what: str, change: Any, path: str, reason: str) -> None:
        changed = copy.deepcopy(table)
        change(changed)
        found.append(Broken(name, rules, what, changed, f"extensions.{rules}.{path}", reason))

    def enemy_unit(side: str) -> str:
        return next(u.id for u in played.units if u.side != side)

    regiments = table.get("regiments", [])
    if regiments:
        n = len(regiments)
        twice = dict(regiments[0])
        if rules == DTS:
            # stands = 2 then 3: the first would silently win.
            twice["stands"] = regiments[0].get("stands", 2) % 12 + 1
        edit("regiment-twice", lambda t: t["regiments"].append(twice), f"regiments[{n}].unit", "listed twice")
        edit("regiment-of-no-unit", lambda t: t["regiments"][0].update(unit=NONE), "regiments[0].unit",
             f"no unit {NONE!r}")
        commander = played.commanders[0].id
        edit("regiment-of-a-commander", lambda t: t["regiments"][0].update(unit=commander),
             "regiments[0].unit", f"{commander!r} is a commander, not a unit")
        for i, r in enumerate(regiments):
            side = side_of[r["unit"]]
            if r.get("attached_to"):
                edit(f"regiment-{i}-attached-to-the-enemy",
                     lambda t, i=i, side=side: t["regiments"][i].update(attached_to=enemy_unit(side)),
                     f"regiments[{i}].attached_to", "a unit of the enemy")
            if r.get("detached_from"):
                edit(f"regiment-{i}-detached-from-the-enemy",
                     lambda t, i=i, side=side: t["regiments"][i].update(
                         detached_from=[enemy_unit(side), *t["regiments"][i]["detached_from"][1:]]),
                     f"regiments[{i}].detached_from", "a unit of the enemy")
    key, field = _officers_key(rules)
    officers = table.get(key, [])
    if officers:
        n, first = len(officers), officers[0]
        side = side_of[first[field]]
        twice = dict(first)
        if rules == CYP:
            twice["rank"] = "brigadier" if first["rank"] != "brigadier" else "wing"
        edit("officer-twice", lambda t: t[key].append(twice), f"{key}[{n}].{field}", "listed twice")
        edit("officer-of-no-commander", lambda t: t[key][0].update({field: NONE}), f"{key}[0].{field}",
             f"no commander {NONE!r}")
        unit = played.units[0].id
        edit("officer-of-a-unit", lambda t: t[key][0].update({field: unit}), f"{key}[0].{field}",
             f"{unit!r} is a unit, not a commander")
        edit("officer-with-an-enemy-unit", lambda t: t[key][0].update(attached_to=enemy_unit(side)),
             f"{key}[0].attached_to", "a unit of the enemy")
        edit("officer-with-no-unit", lambda t: t[key][0].update(attached_to=NONE), f"{key}[0].attached_to",
             f"no unit {NONE!r}")
    if rules == CYP:
        _cyp_tables(table, played, edit)
    return found


def _cyp_tables(table: dict[str, Any], played: Scenario, edit: Any) -> None:
    """Charge yr Pikes!' own: a second army commander, a wing given no tertia or the
    enemy's, a foot unit as horse, a point twice or of no side."""
    officers = table.get("officers", [])
    side_of = {c.id: c.side for c in played.commanders}
    army = {side_of[o["commander"]] for o in officers if o["rank"] == "army"}
    second = next((i for i, o in enumerate(officers)
                   if o["rank"] != "army" and side_of[o["commander"]] in army), None)
    if second is not None:
        edit("two-army-commanders", lambda t: t["officers"][second].update(rank="army"),
             f"officers[{second}].rank", "two army commanders")
    wing = next((i for i, o in enumerate(officers) if o["rank"] == "wing"), None)
    if wing is not None:
        side = side_of[officers[wing]["commander"]]
        ours = {u.command for u in played.units if u.side == side}
        theirs = next(u.command for u in played.units if u.side != side and u.command not in ours)
        given = list(officers[wing].get("commands", []))
        edit("wing-given-no-tertia", lambda t: t["officers"][wing].update(commands=[*given, NONE]),
             f"officers[{wing}].commands", f"no tertia {NONE!r}")
        edit("wing-given-an-enemy-tertia", lambda t: t["officers"][wing].update(commands=[*given, theirs]),
             f"officers[{wing}].commands", "the enemy's")
    regiments = table.get("regiments", [])
    foot = next(u.id for u in played.units if u.type == "foot")
    at = next((i for i, r in enumerate(regiments) if r["unit"] == foot), len(regiments))

    def as_horse(t: dict[str, Any]) -> None:
        if at < len(regiments):
            t["regiments"][at].update(troop="horse")
        else:
            t.setdefault("regiments", []).append({"unit": foot, "troop": "horse"})

    edit("foot-as-horse", as_horse, f"regiments[{at}].troop", "troop 'horse'")
    points = table.get("points", [])
    if points:
        edit("point-twice", lambda t: t["points"].append(dict(points[0])), f"points[{len(points)}].name",
             "listed twice")
        edit("point-of-no-side", lambda t: t["points"][0].update(side=NONE), "points[0].side",
             f"no side {NONE!r}")


CASES = [case for rules in (DTS, CYP) for name in written_for(rules) for case in broken_tables(name, rules)]


def write(tmp_path: Path, case: Broken) -> Path:
    doc = document(case.scenario)
    doc["extensions"][case.rules] = case.table
    path = tmp_path / f"{case.scenario}.toml"
    path.write_text(toml_text(doc), encoding="utf-8")
    return path


def lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.strip()]


@pytest.fixture
def nothing_played(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    fought: list[object] = []
    monkeypatch.setattr("tertia.cli.play_commands.fight_battle", lambda *a, **k: fought.append(a))
    return fought


def test_every_rule_set_with_a_table_has_a_scenario_to_break() -> None:
    assert written_for(DTS) and written_for(CYP)
    kinds = {case.what for case in CASES}
    for needed in ("regiment-twice", "regiment-of-no-unit", "officer-twice", "officer-of-no-commander",
                   "officer-with-an-enemy-unit", "two-army-commanders", "wing-given-an-enemy-tertia",
                   "foot-as-horse", "point-twice"):
        assert needed in kinds, needed


@pytest.mark.parametrize(("name", "rules"), [(n, r) for r in (DTS, CYP) for n in written_for(r)])
def test_the_scenario_as_written_back_is_valid(name: str, rules: str) -> None:
    # The edits alone break the tables: the scenario written back untouched is valid.
    load_scenario(toml_text(document(name)), source_name=f"{name}.toml", rules_id=rules)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_a_broken_table_is_refused_in_one_line(tmp_path: Path, case: Broken,
                                               nothing_played: list[object]) -> None:
    path = write(tmp_path, case)
    where = f"{path}: {case.path}: "
    checked = runner.invoke(app, ["validate", str(path), "--rules", case.rules])
    assert checked.exit_code == 1 and lines(checked.output) == [checked.output.strip()], checked.output
    assert checked.output.startswith(where) and case.reason in checked.output, checked.output
    fought = runner.invoke(app, ["battle", "--scenario", str(path), "--rules", case.rules])
    assert fought.exit_code == 1, fought.output
    assert lines(fought.output) == [f"error: {checked.output.strip()}"], fought.output
    assert nothing_played == []
    # Without --rules, every table the file carries is checked: the same line.
    unnamed = runner.invoke(app, ["validate", str(path)])
    assert unnamed.exit_code == 1 and lines(unnamed.output) == lines(checked.output), unnamed.output


# --- what the derived tables do not reach --------------------------------------------------


def test_doctests() -> None:
    failures, tried = doctest.testmod(tertia.core.table_checks)
    assert tried > 0 and failures == 0


def battle(units: list[dict[str, Any]], commanders: list[dict[str, Any]], table: dict[str, Any],
           rules: str) -> Scenario:
    return Scenario.model_validate({
        "name": "x", "table": {"width": 48, "depth": 36},
        "sides": [{"id": "parliament", "edge": "south"}, {"id": "royalist", "edge": "north"}],
        "commanders": commanders, "units": units, "extensions": {rules: table}})


def unit(uid: str, side: str, kind: str = "foot", command: str = "a") -> dict[str, Any]:
    return {"id": uid, "side": side, "type": kind, "command": command, "x": 10, "y": 4}


def officer(cid: str, side: str, command: str = "a", general: bool = False) -> dict[str, Any]:
    return {"id": cid, "side": side, "command": command, "general": general, "x": 2, "y": 2}


UNITS = [unit("p-foot", "parliament"), unit("p-foot-2", "parliament"), unit("p-horse", "parliament", "horse"),
         unit("p-gun", "parliament", "artillery"), unit("p-shot", "parliament", "commanded_shot"),
         unit("r-foot", "royalist", command="b"), unit("r-horse", "royalist", "horse", "c")]
OFFICERS = [officer("p-gen", "parliament", general=True), officer("p-wing", "parliament"),
            officer("p-wing-2", "parliament"), officer("r-gen", "royalist", "b", general=True)]


def pikes(table: dict[str, Any]) -> list[tuple[str, str]]:
    return list(PikesTable.model_validate(table).table_problems(battle(UNITS, OFFICERS, table, CYP)))


def declare(table: dict[str, Any]) -> list[tuple[str, str]]:
    return list(DeclareTable.model_validate(table).table_problems(battle(UNITS, OFFICERS, table, DTS)))


def test_a_regiments_attachments_and_detachments_are_of_its_own_side() -> None:
    assert pikes({"regiments": [{"unit": "p-gun", "troop": "artillery", "gun": "galloper",
                                 "attached_to": "p-horse"}]}) == []
    assert pikes({"regiments": [{"unit": "p-gun", "troop": "artillery", "gun": "galloper",
                                 "attached_to": "r-horse"}]}) == [
        ("regiments[0].attached_to",
         "'r-horse' is a unit of the enemy (royalist); p-gun's side is parliament")]
    assert pikes({"regiments": [{"unit": "p-gun", "troop": "artillery", "gun": "galloper",
                                 "attached_to": "p-gun"}]}) == [
        ("regiments[0].attached_to", "p-gun is attached to itself")]
    assert pikes({"regiments": [{"unit": "p-foot", "troop": "foot", "attached_to": "p-horse"}]}) == [
        ("regiments[0].attached_to", "p-foot is foot: only a galloper gun or commanded musketeers are "
                                     "attached to a unit")]
    parents = ["p-foot", "p-foot-2", "r-foot", NONE]
    assert pikes({"regiments": [{"unit": "p-shot", "troop": "musketeers", "detached_from": parents}]}) == [
        ("regiments[0].detached_from", "p-shot: 'r-foot' is a unit of the enemy (royalist); p-shot's side "
                                       "is parliament"),
        ("regiments[0].detached_from", f"p-shot: no unit {NONE!r} in the scenario")]


def test_a_regiments_troop_gun_and_mount_suit_its_unit() -> None:
    assert pikes({"regiments": [{"unit": "p-foot", "troop": "highlanders"},
                                {"unit": "p-horse", "troop": "lobsters"},
                                {"unit": "p-gun", "troop": "wagons"}]}) == []
    assert pikes({"regiments": [{"unit": "p-foot", "troop": "horse"}]}) == [
        ("regiments[0].troop", "p-foot is a foot unit in the order of battle, and troop 'horse' is horse; "
                               "a foot unit's troop is one of: foot, highlanders")]
    assert pikes({"regiments": [{"unit": "p-foot", "troop": "foot", "gun": "field", "mounted": False}]}) == [
        ("regiments[0].gun", "p-foot is foot: only a battery (troop artillery) has a gun"),
        ("regiments[0].mounted", "p-foot is foot: only dragoons start dismounted")]


def test_one_army_commander_a_side_counting_the_general_the_table_leaves_out() -> None:
    assert pikes({}) == []  # each side's general commands its army
    assert pikes({"officers": [{"commander": "p-wing", "rank": "army"}]}) == [
        ("officers[0].rank", "parliament has two army commanders, p-gen (the side's general) and p-wing: "
                             "each army has one Commander-in-chief (Tertias and officers C)")]
    # The general ranked otherwise leaves the army to the one ranked so.
    assert pikes({"officers": [{"commander": "p-gen", "rank": "wing"},
                               {"commander": "p-wing", "rank": "army"}]}) == []
    assert pikes({"officers": [{"commander": "p-gen", "rank": "wing"}]}) == [
        ("officers", "parliament has no army commander: each army has one Commander-in-chief (Tertias and "
                     "officers C); give one officer rank \"army\"")]


def test_a_wings_tertias_are_its_sides_named_once_and_in_one_wing() -> None:
    wings = [{"commander": "p-wing", "rank": "wing", "commands": ["a"]},
             {"commander": "p-wing-2", "rank": "wing", "commands": ["a"]}]
    assert pikes({"officers": wings[:1]}) == []
    assert pikes({"officers": wings}) == [
        ("officers[1].commands", "tertia 'a' is in p-wing's wing already: a tertia is in one wing")]
    assert pikes({"officers": [{"commander": "p-wing", "rank": "wing", "commands": ["a", "a"]}]}) == [
        ("officers[0].commands", "p-wing is given tertia 'a' 2 times")]
    assert pikes({"officers": [{"commander": "p-wing", "rank": "brigadier", "commands": ["a"]}]}) == [
        ("officers[0].commands", "p-wing is of rank brigadier: only a wing commander is given tertias "
                                 "beyond his own (Tertias and officers C)")]


def test_declare_thee_sir_firelocks_for_horse_and_dismounted_dragoons_only() -> None:
    assert declare({"regiments": [{"unit": "p-horse", "firelocks": True}]}) == []
    assert declare({"regiments": [{"unit": "p-foot", "firelocks": True, "mounted": False}]}) == [
        ("regiments[0].firelocks", "p-foot is foot: only horse carry firelocks (Optional Rules b)"),
        ("regiments[0].mounted", "p-foot is foot: only dragoons start on foot")]


# --- refused before anything else: the wrong rule set, no scenario at all -------------------


WRONG_RULES = [(name, rules) for name in builtin_names() for rules in ruleset_ids()
               if load_builtin(name).rules and rules not in load_builtin(name).rules]


@pytest.mark.parametrize(("name", "rules"), WRONG_RULES)
def test_a_scenario_for_other_rule_sets_is_refused_in_its_one_line(name: str, rules: str,
                                                                   nothing_played: list[object]) -> None:
    path = BUILTIN / f"{name}.toml"
    checked = runner.invoke(app, ["validate", str(path), "--rules", rules])
    assert checked.exit_code == 1 and len(lines(checked.output)) == 1, checked.output
    assert checked.output.startswith(f"{path}: rules: the scenario is not written for rule set {rules!r}")
    fought = runner.invoke(app, ["battle", "--scenario", name, "--rules", rules])
    assert fought.exit_code == 1 and len(lines(fought.output)) == 1, fought.output
    assert "not written for rule set" in fought.output and nothing_played == []
    with pytest.raises(ScenarioError) as refused:
        load_builtin(name, rules_id=rules)
    assert len(refused.value.problems) == 1


@pytest.mark.parametrize("name", ["", " "])
@pytest.mark.parametrize("command", ["battle", "simulate", "sweep", "validate"])
def test_an_empty_scenario_name_is_refused(name: str, command: str, nothing_played: list[object]) -> None:
    args = {"battle": ["battle", "--scenario", name], "validate": ["validate", name],
            "simulate": ["simulate", "--scenario", name, "--games", "1"],
            "sweep": ["sweep", "--scenario", name, "--vary", "hit_limit_infantry=3,4", "--games", "1"],
            }[command]
    result = runner.invoke(app, args)
    assert result.exit_code == 1 and len(lines(result.output)) == 1, result.output
    assert "an empty name is no scenario" in result.output and nothing_played == []
