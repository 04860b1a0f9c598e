"""Loading and checking scenario files: every problem is one line naming file and field."""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, Field
from typer.testing import CliRunner

import tertia.rulesets
from tertia.cli.main import app
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.model_errors import field_path
from tertia.core.scenario import Scenario
from tertia.core.terrain import TerrainKind
from tertia.io import scenario_file
from tertia.io.scenario_file import (
    Problem,
    ScenarioError,
    check_scenario,
    load_scenario,
)
from tertia.io.svg import render_map
from tertia.rulesets import get_ruleset
from tertia.rulesets.larger_battles.scenario_table import LargerBattlesTable

HERE = Path(__file__).parent / "scenarios"

BASE = """\
name = "Test"
rules = ["larger-battles"]

[table]
width = 48
depth = 36

[[sides]]
id = "parliament"
edge = "south"

[[sides]]
id = "royalist"
edge = "north"

[[commanders]]
id = "p-cmd"
side = "parliament"
command = "centre"
general = true
x = 24
y = 2

[[units]]
id = "p-foot-1"
side = "parliament"
type = "foot"
command = "centre"
x = 20
y = 6

[[units]]
id = "r-foot-1"
side = "royalist"
type = "foot"
command = "centre"
x = 20
y = 30
facing = 180
"""


def block(header: str, **fields: object) -> str:
    """A TOML array-of-tables entry, appended after BASE."""
    lines = [f"\n[[{header}]]"]
    for key, value in fields.items():
        if isinstance(value, str) and not value.startswith(("[", "nan", "inf", "-inf")):
            lines.append(f'{key} = "{value}"')
        elif isinstance(value, bool):
            lines.append(f"{key} = {str(value).lower()}")
        else:
            lines.append(f"{key} = {value}")
    return "\n".join(lines) + "\n"


def unit(uid: str, **fields: object) -> str:
    spec: dict[str, object] = {
        "id": uid, "side": "parliament", "type": "foot", "command": "centre", "x": 30, "y": 6,
    }
    spec.update(fields)
    return block("units", **spec)


def problems_of(text: str, rules_id: str | None = None) -> list[Problem]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(text, source_name="t.toml", rules_id=rules_id)
    return info.value.problems


def lines_of(text: str, rules_id: str | None = None) -> list[str]:
    return [str(p) for p in problems_of(text, rules_id)]


def only(text: str, rules_id: str | None = None) -> str:
    lines = lines_of(text, rules_id)
    assert len(lines) == 1, lines
    return lines[0]


# --- the happy path --------------------------------------------------------------------


def test_base_scenario_loads() -> None:
    scenario = load_scenario(BASE, source_name="t.toml")
    assert isinstance(scenario, Scenario)
    assert [u.id for u in scenario.units] == ["p-foot-1", "r-foot-1"]


def test_problem_is_one_line_with_file_and_path() -> None:
    problem = Problem("edgehill.toml", "units[3] 'p-foot-2'.type", "unknown unit type 'pikes'")
    assert str(problem) == "edgehill.toml: units[3] 'p-foot-2'.type: unknown unit type 'pikes'"
    assert str(Problem("x.toml", "", "empty file")) == "x.toml: empty file"


def test_check_scenario_on_files() -> None:
    assert check_scenario(HERE / "tiny.toml") == []
    assert check_scenario(str(HERE / "tiny.toml"), "larger-battles") == []
    problems = check_scenario(HERE / "broken.toml")
    assert problems and all(p.file == str(HERE / "broken.toml") for p in problems)


def test_load_from_bytes_and_path_names_the_source(tmp_path: Path) -> None:
    path = tmp_path / "ok.toml"
    path.write_text(BASE, encoding="utf-8")
    assert load_scenario(path).name == "Test"
    assert load_scenario(BASE.encode()).name == "Test"
    with pytest.raises(ScenarioError) as info:
        load_scenario(tmp_path / "nope.toml")
    assert str(info.value) == f"{tmp_path / 'nope.toml'}: no such file"


# --- reading the file ------------------------------------------------------------------


def test_missing_file() -> None:
    assert [str(p) for p in check_scenario("no/such/file.toml")] == [
        "no/such/file.toml: no such file"
    ]


def test_directory(tmp_path: Path) -> None:
    (problem,) = check_scenario(tmp_path)
    assert problem.message == "is a directory, not a scenario file"


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file the user may not read (simulated, since the superuser reads anything)."""
    path = tmp_path / "locked.toml"
    path.write_text(BASE)
    real_open = Path.open

    def refuse(self: Path, *args: object, **kwargs: object) -> object:
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", refuse)
    (problem,) = check_scenario(path)
    assert problem.message == "cannot read the file: permission denied"


def test_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "image.toml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (problem,) = check_scenario(path)
    assert problem.message == "binary file, not a TOML scenario"


def test_empty_file(tmp_path: Path) -> None:
    for content in (b"", b"  \n\t\n"):
        path = tmp_path / "empty.toml"
        path.write_bytes(content)
        (problem,) = check_scenario(path)
        assert problem.path == ""
        assert problem.message.startswith("empty file")


def test_huge_file(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    path.write_bytes(b"# padding\n" * (scenario_file.MAX_BYTES // 10 + 1))
    (problem,) = check_scenario(path)
    assert problem.message.startswith("file is too large (over 5 MB)")


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('name = "x"\n# Café\n'.encode("latin-1"))
    (problem,) = check_scenario(path)
    assert problem.message.startswith("not UTF-8 text (byte 0xe9 at line 2, column 6)")


def test_utf8_byte_order_mark_is_accepted() -> None:
    assert load_scenario(b"\xef\xbb\xbf" + BASE.encode()).name == "Test"


def test_toml_syntax_error_gives_the_line() -> None:
    text = BASE.replace('edge = "north"', 'edge = = "north"')
    line = only(text)
    assert line.startswith("t.toml: invalid TOML: ")
    assert "(at line 14, column 8)" in line


def test_deep_nesting_is_a_problem_not_a_crash() -> None:
    problems = problems_of("a = " + "[" * 200_000)
    assert problems[0].message.startswith("invalid TOML")


# --- the file format: pydantic errors as field paths -----------------------------------


def test_unknown_unit_type_names_the_unit_and_lists_known_types() -> None:
    line = only(BASE + unit("p-foot-2", type="pikes"))
    assert line == (
        "t.toml: units[2] 'p-foot-2'.type: unknown unit type 'pikes'; "
        "known: foot, horse, dragoons, commanded_shot, artillery"
    )


def test_unknown_terrain_type() -> None:
    line = only(BASE + block("terrain", type="forest", name="Big Wood",
                             polygon="[[1, 1], [5, 1], [5, 5]]"))
    assert line.startswith("t.toml: terrain[0] 'Big Wood'.type: unknown terrain type 'forest'; ")
    assert "known: bridge, broken, entrenchment, fence, field," in line


def test_unknown_command_and_edge() -> None:
    assert only(BASE + unit("u9", command="middle")) == (
        "t.toml: units[2] 'u9'.command: unknown command 'middle'; "
        "known: centre, right, left, reserve, artillery, dragoons, independent"
    )
    assert only(BASE.replace('edge = "north"', 'edge = "east"')) == (
        "t.toml: sides[1] 'royalist'.edge: unknown edge 'east'; known: south, north"
    )


def test_missing_fields() -> None:
    assert only(BASE + block("units", id="u9", side="parliament", type="foot",
                             command="centre", y=6)) == (
        "t.toml: units[2] 'u9'.x: required field is missing"
    )
    text = BASE.replace("[table]\nwidth = 48\ndepth = 36\n", "")
    assert only(text) == "t.toml: table: required field is missing"


def test_mistyped_fields() -> None:
    assert only(BASE + unit("u9", x="ten")) == (
        "t.toml: units[2] 'u9'.x: expected a number, got 'ten'"
    )
    assert only(BASE + unit("u9", facing="[1, 2]")) == (
        "t.toml: units[2] 'u9'.facing: expected a number, got a list"
    )
    assert only(BASE.replace('rules = ["larger-battles"]', 'rules = "larger-battles"')) == (
        "t.toml: rules: expected a list, got 'larger-battles'"
    )
    assert only(BASE.replace("general = true", "general = 3")) == (
        "t.toml: commanders[0] 'p-cmd'.general: expected true or false, got 3"
    )


def test_unknown_field_lists_the_known_ones() -> None:
    line = only(BASE + unit("u9", colour="red"))
    assert line.startswith("t.toml: units[2] 'u9'.colour: unknown field 'colour'; known: id, ")


def test_nan_and_inf() -> None:
    assert only(BASE.replace("width = 48", "width = nan")) == (
        "t.toml: table.width: must be a finite number, got nan"
    )
    assert only(BASE + unit("u9", y="-inf")) == (
        "t.toml: units[2] 'u9'.y: must be a finite number, got -inf"
    )


def test_zero_and_negative_sizes() -> None:
    assert only(BASE.replace("depth = 36", "depth = 0")) == (
        "t.toml: table.depth: must be greater than 0, got 0"
    )
    assert only(BASE + unit("u9", width=-4)) == (
        "t.toml: units[2] 'u9'.width: must be greater than 0, got -4"
    )
    assert only(BASE.replace('name = "Test"', 'name = "Test"\nturns = 0')) == (
        "t.toml: turns: must be at least 1, got 0"
    )
    assert only(BASE.replace('name = "Test"', 'name = ""')) == "t.toml: name: must not be empty"


def test_degenerate_polygons_and_lines() -> None:
    flat = block("terrain", type="hill", name="Flat", polygon="[[0, 0], [5, 5], [10, 10]]")
    assert only(BASE + flat) == "t.toml: terrain[0] 'Flat': the polygon is degenerate (zero area)"
    two = block("terrain", type="woods", polygon="[[0, 0], [5, 5]]")
    assert only(BASE + two) == "t.toml: terrain[0]: a polygon needs at least 3 points"
    bow = block("terrain", type="field", name="Bow", polygon="[[0, 0], [6, 4], [6, 0], [0, 3]]")
    assert only(BASE + bow) == "t.toml: terrain[0] 'Bow': the polygon crosses itself"
    road = block("terrain", type="road", name="Lane", line="[[0, 0], [10, 0]]")
    assert only(BASE + road) == "t.toml: terrain[0] 'Lane': a line needs a width"
    point = block("terrain", type="hill", name="P", polygon="[[0, 0], [5], [5, 5]]")
    assert only(BASE + point) == (
        "t.toml: terrain[0] 'P'.polygon[1][1]: too few items; a point is a pair of numbers [x, y]"
    )


def test_sides_must_be_two() -> None:
    text = BASE.replace('[[sides]]\nid = "royalist"\nedge = "north"\n', "")
    assert "t.toml: sides: a scenario needs exactly two sides, one per army" in lines_of(text)
    text = BASE + block("sides", id="scots", edge="north")
    assert lines_of(text) == ["t.toml: sides: a scenario needs exactly two sides, one per army"]


def test_field_path_uses_id_then_name() -> None:
    doc = {"units": [{"id": "a"}, {"name": "B"}, 3], "table": {"width": 1}}
    assert field_path(("units", 0, "x"), doc) == "units[0] 'a'.x"
    assert field_path(("units", 1, "x"), doc) == "units[1] 'B'.x"
    assert field_path(("units", 2), doc) == "units[2]"
    assert field_path(("units", 7, "x"), doc) == "units[7].x"
    assert field_path(("table", "width"), doc) == "table.width"


def test_many_problems_are_capped() -> None:
    text = BASE + "".join(unit(f"u{i}", type="pikes") for i in range(60))
    problems = problems_of(text)
    assert len(problems) == scenario_file.MAX_PROBLEMS + 1
    assert problems[-1].message == "... and 10 more problems"


# --- checks on the whole battle --------------------------------------------------------


def test_duplicate_ids_across_units_and_commanders() -> None:
    assert only(BASE + unit("p-cmd")) == (
        "t.toml: units[2] 'p-cmd'.id: duplicate id 'p-cmd' (also commanders[0] 'p-cmd')"
    )
    assert only(BASE + unit("p-foot-1", x=40)) == (
        "t.toml: units[2] 'p-foot-1'.id: duplicate id 'p-foot-1' (also units[0] 'p-foot-1')"
    )


def test_unknown_sides() -> None:
    known = "known: parliament, royalist"
    assert only(BASE + unit("u9", side="parliment")) == (
        f"t.toml: units[2] 'u9'.side: unknown side 'parliment'; {known}"
    )
    cmd = block("commanders", id="c9", side="scots", command="left", x=40, y=2)
    assert only(BASE + cmd) == f"t.toml: commanders[1] 'c9'.side: unknown side 'scots'; {known}"
    supply = block("supplies", side="scots", x=10, y=1)
    assert only(BASE + supply, "larger-battles") == f"t.toml: supplies[0].side: unknown side 'scots'; {known}"
    objective = block("objectives", name="Hill", side="scots", x=10, y=18, radius=3)
    assert only(BASE + objective) == (
        f"t.toml: objectives[0] 'Hill'.side: unknown side 'scots'; {known}"
    )


def test_first_names_an_unknown_side() -> None:
    text = BASE.replace('name = "Test"', 'name = "Test"\nfirst = "scots"')
    assert only(text) == "t.toml: first: unknown side 'scots'; known: parliament, royalist"


def test_each_side_needs_a_unit() -> None:
    text = BASE.split("[[units]]\nid = \"r-foot-1\"")[0]
    assert only(text) == "t.toml: sides[1] 'royalist': side 'royalist' has no units"


def test_at_most_one_general_a_side() -> None:
    cmd = block("commanders", id="p-cmd-2", side="parliament", command="left", general=True,
                x=40, y=2)
    assert only(BASE + cmd) == (
        "t.toml: commanders[1] 'p-cmd-2'.general: side 'parliament' has more than one general "
        "(also commanders[0] 'p-cmd')"
    )


def test_units_off_the_table_use_rule_set_sizes_and_facing() -> None:
    # A 4" x 2" base centred 1.5" from the west edge sticks out facing north ...
    assert only(BASE + unit("u9", x=1.5, y=18)) == (
        "t.toml: units[2] 'u9': base at (1.5, 18) is off the 48\" x 36\" table"
    )
    # ... but not turned to face east, when its 2" depth runs along x.
    load_scenario(BASE + unit("u9", x=1.5, y=18, facing=90))
    # An explicit size counts: a 1" frontage fits.
    load_scenario(BASE + unit("u9", x=1.5, y=18, width=1))
    # Artillery bases are 3" wide.
    load_scenario(BASE + unit("u9", type="artillery", command="artillery", x=1.5, y=18))
    assert only(BASE + unit("u9", x=60, y=18)).endswith("is off the 48\" x 36\" table")


def test_commanders_off_the_table() -> None:
    cmd = block("commanders", id="c9", side="royalist", command="centre", x=40, y=35.5)
    assert only(BASE + cmd) == (
        "t.toml: commanders[1] 'c9': base at (40, 35.5) is off the 48\" x 36\" table"
    )


def test_supply_bases_are_larger_battles_own_wherever_the_file_writes_them() -> None:
    old = BASE + block("supplies", id="s1", side="parliament", x=10, y=1)
    new = old.replace("[[supplies]]", '[[extensions."larger-battles".supplies]]')
    for text in (old, new):
        scenario = load_scenario(text, rules_id="larger-battles")
        table = get_ruleset("larger-battles").scenario_extension(scenario)
        assert isinstance(table, LargerBattlesTable) and [s.id for s in table.supplies] == ["s1"]
        assert "supplies" not in scenario.model_dump()
    assert only(new.replace("y = 1", "y = -1"), "larger-battles").startswith(
        "t.toml: extensions.larger-battles.supplies[0] 's1': (10, -1) is off")
    both = old + block("extensions.\"larger-battles\".supplies", side="royalist", x=10, y=35)
    assert only(both) == ('t.toml: supplies: written twice: here and in [extensions."larger-battles"]; '
                          "keep one")


def test_supplies_and_objectives_off_the_table() -> None:
    assert only(BASE + block("supplies", id="s1", side="parliament", x=10, y=-1), "larger-battles") == (
        "t.toml: supplies[0] 's1': (10, -1) is off the 48\" x 36\" table"
    )
    assert only(BASE + block("objectives", name="Far", x=50, y=1, radius=2)) == (
        "t.toml: objectives[0] 'Far': (50, 1) is off the 48\" x 36\" table"
    )


def test_overlapping_bases() -> None:
    assert only(BASE + unit("u9", x=22, y=6.5)) == (
        "t.toml: units[2] 'u9': base overlaps units[0] 'p-foot-1'"
    )
    cmd = block("commanders", id="c9", side="parliament", command="left", x=21, y=6)
    assert only(BASE + cmd) == "t.toml: units[0] 'p-foot-1': base overlaps commanders[1] 'c9'"
    # Rotated bases overlap by their true outline, not their bounding boxes.
    assert only(BASE + unit("u9", x=20, y=8.5, facing=90)).endswith("overlaps units[0] 'p-foot-1'")
    load_scenario(BASE + unit("u9", x=23.5, y=8, facing=45))


def test_bases_in_contact_do_not_overlap() -> None:
    side_by_side = unit("u9", x=24, y=6)
    behind = unit("u10", x=20, y=4)
    load_scenario(BASE + side_by_side + behind)


def test_terrain_outside_the_table() -> None:
    wood = block("terrain", type="woods", name="Far Wood",
                 polygon="[[40, 10], [80, 10], [80, 20], [40, 20]]")
    assert only(BASE + wood) == (
        "t.toml: terrain[0] 'Far Wood'.polygon[1]: point (80, 10) is outside the "
        "48\" x 36\" table"
    )
    road = block("terrain", type="road", line="[[0, 0], [24, -3]]", width=1)
    assert only(BASE + road) == (
        "t.toml: terrain[0].line[1]: point (24, -3) is outside the 48\" x 36\" table"
    )
    # Terrain running to the table edge is fine.
    load_scenario(BASE + block("terrain", type="road", line="[[0, 18], [48, 18]]", width=1))


# --- rule sets -------------------------------------------------------------------------


def test_rule_set_must_be_one_the_scenario_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    real = tertia.rulesets.ruleset_class("larger-battles")

    class Other(real):  # type: ignore[misc, valid-type]
        id = "other-rules"

    monkeypatch.setattr(tertia.rulesets, "_REGISTRY", {"larger-battles": real, "other-rules": Other})
    assert only(BASE, "other-rules") == (
        "t.toml: rules: the scenario is not written for rule set 'other-rules'; "
        "it lists: larger-battles"
    )
    # With no rules list a scenario suits every rule set.
    load_scenario(BASE.replace('rules = ["larger-battles"]\n', ""), rules_id="other-rules")


def test_unknown_rule_set() -> None:
    line = only(BASE, "no-such-rules")
    assert line.startswith("t.toml: unknown rule set 'no-such-rules'; known: ")
    assert "larger-battles" in line


def test_rule_set_scenario_problems_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    real = tertia.rulesets.ruleset_class("larger-battles")

    class Picky(real):  # type: ignore[misc, valid-type]
        def scenario_problems(self, scenario: Scenario) -> list[tuple[str, str]]:
            return [("units[0] 'p-foot-1'.command", "too few drummers")]

    monkeypatch.setattr(tertia.rulesets, "_REGISTRY", {"larger-battles": Picky})
    assert only(BASE, "larger-battles") == (
        "t.toml: units[0] 'p-foot-1'.command: too few drummers"
    )
    # Without --rules the rule set's own checks do not run.
    load_scenario(BASE)
    # Nor when the generic checks already failed (the rule set may rely on them).
    assert only(BASE + unit("u9", side="scots"), "larger-battles").endswith(
        "unknown side 'scots'; known: parliament, royalist"
    )


def test_larger_battles_checks_command_make_up() -> None:
    text = BASE + unit("p-drag", type="dragoons", command="centre", x=30)
    assert load_scenario(text).units[-1].id == "p-drag"
    problems = problems_of(text, "larger-battles")
    assert [p.path for p in problems] == ["units[2] 'p-drag'.command"]
    assert "dragoons" in problems[0].message


def test_broken_file_lists_every_problem() -> None:
    lines = [str(p) for p in check_scenario(HERE / "broken.toml")]
    name = str(HERE / "broken.toml")
    assert lines == [
        f"{name}: first: unknown side 'scots'; known: parliament, royalist",
        f"{name}: units[1] 'p-horse'.side: unknown side 'parliment'; known: parliament, royalist",
        f"{name}: units[0] 'p-foot'.id: duplicate id 'p-foot' (also commanders[0] 'p-foot')",
        f"{name}: units[1] 'p-horse': base at (23, 6) is off the 24\" x 24\" table",
        f"{name}: units[2] 'r-foot': base overlaps units[0] 'p-foot'",
    ]


# --- never anything but ScenarioError --------------------------------------------------


def _edgehill_bytes() -> bytes:
    return resources.files("tertia.scenarios").joinpath("edgehill.toml").read_bytes()


def _load_or_problems(data: bytes) -> None:
    try:
        load_scenario(data, source_name="fuzz.toml")
    except ScenarioError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert "\n" not in str(problem)


def test_random_bytes_only_raise_scenario_error() -> None:
    rng = random.Random(1642)
    for _ in range(300):
        size = rng.choice((0, 1, 7, 64, 500, 4000))
        _load_or_problems(bytes(rng.getrandbits(8) for _ in range(size)))
    for _ in range(200):  # printable noise gets past the UTF-8 check to the parser
        size = rng.choice((1, 20, 200, 2000))
        _load_or_problems("".join(rng.choice("[]{}=\"'.,#\n abc123-_") for _ in range(size))
                          .encode())


def test_truncated_and_mutated_edgehill_only_raise_scenario_error() -> None:
    data = _edgehill_bytes()
    rng = random.Random(23101642)
    for cut in sorted(rng.sample(range(len(data)), 300)):  # cut mid-line: mostly the parser's errors
        _load_or_problems(data[:cut])
    for cut in [i for i, b in enumerate(data) if b == ord("\n")][::3]:  # whole lines: the checks'
        _load_or_problems(data[:cut])
    for _ in range(300):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            mutated[rng.randrange(len(mutated))] = rng.choice(b"0123456789-.[]=\"x\n")
        _load_or_problems(bytes(mutated))


# --- the validate command --------------------------------------------------------------


runner = CliRunner()


def test_validate_valid_file() -> None:
    path = str(HERE / "tiny.toml")
    result = runner.invoke(app, ["validate", path])
    assert result.exit_code == 0
    assert result.output == f"{path}: valid (2 units, 2 commanders; checked under larger-battles)\n"
    result = runner.invoke(app, ["validate", path, "--rules", "larger-battles"])
    assert result.exit_code == 0, result.output


def test_validate_broken_file_prints_one_line_per_problem() -> None:
    path = str(HERE / "broken.toml")
    result = runner.invoke(app, ["validate", path])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert len(lines) == 5
    assert all(line.startswith(f"{path}: ") for line in lines)
    assert "Traceback" not in result.output


def test_validate_missing_file_and_bad_rules() -> None:
    result = runner.invoke(app, ["validate", "nowhere.toml"])
    assert (result.exit_code, result.output) == (1, "nowhere.toml: no such file\n")
    result = runner.invoke(app, ["validate", str(HERE / "tiny.toml"), "--rules", "nope"])
    assert result.exit_code == 1
    assert "unknown rule set 'nope'" in result.output


def test_validate_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "junk.toml"
    path.write_bytes(bytes(range(256)))
    result = runner.invoke(app, ["validate", str(path)])
    assert (result.exit_code, result.output) == (
        1, f"{path}: binary file, not a TOML scenario\n"
    )


# --- bounds and what a battle would trip over -----------------------------------------------


def test_both_sides_on_one_edge() -> None:
    text = BASE.replace('edge = "north"', 'edge = "south"')
    assert "both sides have the south edge" in only(text)


@pytest.mark.parametrize("field", ["width", "depth"])
def test_tables_larger_than_any_real_one_are_refused(field: str) -> None:
    text = BASE.replace(f"{field} = {48 if field == 'width' else 36}", f"{field} = 1000.5")
    line = only(text)
    assert f"table.{field}" in line and "1000" in line
    assert load_scenario(BASE.replace(f"{field} = {48 if field == 'width' else 36}", f"{field} = 1000"))


def test_unknown_traits_are_refused_with_the_nearest_known_one() -> None:
    placed = 'command = "centre"\nx = 20\ny = 6'
    text = BASE.replace(placed, placed + '\ntraits = ["impetous"]')
    line = only(text.replace('rules = ["larger-battles"]', 'rules = ["d3-cards"]'), "d3-cards")
    assert "units[0] 'p-foot-1'.traits[0]" in line and "did you mean 'impetuous'?" in line
    line = only(text, "larger-battles")
    assert "knows no trait 'impetous'" in line and "it has no traits" in line


def test_too_many_pieces_are_refused() -> None:
    text = BASE + "".join(unit(f"u{i}", x=1 + (i % 40), y=1 + (i // 40) * 0.01) for i in range(501))
    assert any("units" in line and "500" in line for line in lines_of(text))


def test_validate_without_rules_checks_every_rule_set_the_scenario_names(tmp_path: Path) -> None:
    path = tmp_path / "woods.toml"
    text = BASE.replace('rules = ["larger-battles"]', 'rules = ["larger-battles", "d3-commands"]')
    path.write_text(text + block("terrain", type="woods", polygon="[[16, 3], [24, 3], [24, 9], [16, 9]]"))
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    for rules in ("larger-battles", "d3-commands"):
        assert any(line.startswith(f"{path} under {rules}: units[0] 'p-foot-1'") and "wood" in line
                   for line in lines), lines


# --- each rule set's own table ----------------------------------------------------------


class _Regiment(BaseModel):
    model_config = ConfigDict(extra="forbid")
    unit: str
    stands: int = Field(ge=2, le=4)


class _Order(BaseModel):
    model_config = ConfigDict(extra="forbid")
    regiments: list[_Regiment] = []


@pytest.fixture
def stands_rules(monkeypatch: pytest.MonkeyPatch) -> str:
    """larger-battles under another id, with an order of battle of regiments of stands."""
    real = tertia.rulesets.ruleset_class("larger-battles")

    class Stands(real):  # type: ignore[misc, valid-type]
        id = "stands-rules"
        SCENARIO_EXTENSION = _Order

    monkeypatch.setattr(tertia.rulesets, "_REGISTRY", {"larger-battles": real, "stands-rules": Stands})
    return Stands.id


def test_a_scenario_carries_an_order_of_battle_per_rule_set(stands_rules: str) -> None:
    table = '\n[extensions."stands-rules"]\nregiments = [{unit = "p-foot-1", stands = 3}]\n'
    scenario = load_scenario(BASE.replace('rules = ["larger-battles"]\n', "") + table,
                             rules_id=stands_rules)
    order = tertia.rulesets.get_ruleset(stands_rules).scenario_extension(scenario)
    assert isinstance(order, _Order) and order.regiments[0].stands == 3
    # Played under another rule set, the table is carried but not read.
    assert tertia.rulesets.get_ruleset("larger-battles").scenario_extension(scenario) == LargerBattlesTable()


def test_a_rule_set_checks_its_own_table(stands_rules: str) -> None:
    text = BASE.replace('rules = ["larger-battles"]\n', "")
    bad = text + '\n[extensions."stands-rules"]\nregiments = [{unit = "p-foot-1", stands = 9}]\n'
    assert only(bad, stands_rules).startswith(
        "t.toml: extensions.stands-rules.regiments[0].stands: ")
    assert "4" in only(bad, stands_rules)
    unknown = text + '\n[extensions."stands-rules"]\ncolours = "blue"\n'
    assert only(unknown, stands_rules).startswith(
        "t.toml: extensions.stands-rules.colours: unknown field 'colours'")


def test_a_rule_set_the_scenario_is_written_for_must_exist() -> None:
    """A misspelt name in ``rules`` is named at once (the battle would refuse the rule set
    it meant, saying only that the scenario is not written for it)."""
    assert only(BASE.replace('rules = ["larger-battles"]', 'rules = ["larger-battle"]')) == (
        "t.toml: rules[0]: no rule set 'larger-battle'; "
        "known: larger-battles, d3-commands, d3-cards, declare-thee-sir, charge-yr-pikes")


def test_a_table_for_an_unknown_rule_set_or_one_that_takes_none() -> None:
    assert only(BASE + '\n[extensions."no-such-rules"]\nx = 1\n') == (
        "t.toml: extensions.no-such-rules: no rule set 'no-such-rules'; "
        "known: larger-battles, d3-commands, d3-cards, declare-thee-sir, charge-yr-pikes")
    assert only(BASE + '\n[extensions."d3-commands"]\nx = 1\n') == (
        "t.toml: extensions.d3-commands.x: unknown field 'x'; rule set 'd3-commands' takes only "
        "order_of_battle here")
    assert only(BASE + '\n[extensions."larger-battles"]\nx = 1\n') == (
        "t.toml: extensions.larger-battles.x: unknown field 'x'; known: supplies")


# --- a rule set's own order of battle ---------------------------------------------------


def own_unit(uid: str, rules: str = "d3-cards", **fields: object) -> str:
    """A unit of ``rules``' own order of battle, appended after BASE."""
    spec: dict[str, object] = {
        "id": uid, "side": "parliament", "type": "horse", "command": "right", "x": 30, "y": 6,
    }
    spec.update(fields)
    return block(f'extensions."{rules}".order_of_battle.units', **spec)


ARMY = (BASE.replace('rules = ["larger-battles"]', 'rules = ["larger-battles", "d3-cards"]')
        + own_unit("p-horse") + own_unit("r-horse", side="royalist", command="left", y=30, facing=180))
OWN = "t.toml: extensions.d3-cards.order_of_battle"
"""Where problems in ARMY's own order of battle are located."""


def test_a_rule_set_fields_its_own_order_of_battle_and_the_others_the_shared_one() -> None:
    plain = load_scenario(ARMY, source_name="t.toml")
    assert [u.id for u in plain.units] == ["p-foot-1", "r-foot-1"]
    assert plain.for_rules("larger-battles") is plain
    own = load_scenario(ARMY, source_name="t.toml", rules_id="d3-cards")
    assert [u.id for u in own.units] == ["p-horse", "r-horse"]
    assert own.commanders == plain.commanders  # only the lists the table gives are replaced
    assert plain.for_rules("d3-cards") == own and own.for_rules("d3-cards") is own
    assert load_scenario(ARMY, rules_id="larger-battles").units == plain.units
    fielded_under = {"d3-cards": {"p-horse", "r-horse"}, "larger-battles": {"p-foot-1", "r-foot-1"}}
    for rules, fielded in fielded_under.items():
        game = Game(get_ruleset(rules), plain)
        state = game.ruleset.initial_state(game.scenario)
        assert {u.id for u in state.units.values() if u.kind.value != "commander"} == fielded, rules
        assert game.start(SeededDice(1))[0].units.keys() == state.units.keys()


def test_an_order_of_battle_says_how_it_is_drawn_up_in_place_of_the_shared_notes() -> None:
    """An order of battle's ``notes`` replace the scenario's under its rule set alone;
    given with no list of pieces, they replace the notes and no piece."""
    text = (ARMY.replace('name = "Test"', 'name = "Test"\nnotes = "A brigade a unit."', 1)
            + '\n[extensions."d3-cards".order_of_battle]\nnotes = "Eight units a side."\n'
            + '\n[extensions."larger-battles".order_of_battle]\nnotes = "A brigade a unit, as drawn."\n')
    plain = load_scenario(text, source_name="t.toml")
    assert plain.notes == "A brigade a unit."
    cards = plain.for_rules("d3-cards")
    assert cards.notes == "Eight units a side." and [u.id for u in cards.units] == ["p-horse", "r-horse"]
    larger = plain.for_rules("larger-battles")
    assert larger.notes == "A brigade a unit, as drawn." and larger.units == plain.units
    assert plain.own_lists("larger-battles") == () and plain.own_lists("d3-cards") == ("units",)
    assert load_scenario(ARMY, rules_id="d3-cards").notes == ""


def test_commanders_alone_may_be_replaced() -> None:
    chief = block('extensions."d3-cards".order_of_battle.commanders', id="r-chief", side="royalist",
                  command="centre", general=True, x=24, y=34, facing=180)
    scenario = load_scenario(ARMY + chief, rules_id="d3-cards")
    assert [c.id for c in scenario.commanders] == ["r-chief"]
    assert [u.id for u in scenario.units] == ["p-horse", "r-horse"]
    assert [c.id for c in load_scenario(ARMY + chief).commanders] == ["p-cmd"]


@pytest.mark.parametrize("rules_id", [None, "d3-cards"])
def test_a_bad_field_in_a_rule_sets_own_order_of_battle_is_one_line(rules_id: str | None) -> None:
    pikes = ARMY.replace('type = "horse"', 'type = "pikes"', 1)
    assert only(pikes, rules_id) == (
        f"{OWN}.units[0] 'p-horse'.type: unknown unit type 'pikes'; "
        "known: foot, horse, dragoons, commanded_shot, artillery")
    assert only(ARMY + own_unit("p-x", x=40, colour="blue"), rules_id).startswith(
        f"{OWN}.units[2] 'p-x'.colour: unknown field 'colour'; known: id, name, side,")
    assert only(ARMY.replace("x = 30\ny = 30", "x = inf\ny = 30"), rules_id) == (
        f"{OWN}.units[1] 'r-horse'.x: must be a finite number, got inf")
    table = '\n[extensions."d3-cards".order_of_battle]\n'
    assert only(BASE + table + "units = 3\n", rules_id) == f"{OWN}.units: expected a list, got 3"
    assert only(BASE + table + "horse = []\n", rules_id) == (
        f"{OWN}.horse: unknown field 'horse'; known: commanders, units, notes")
    assert only(BASE + '\n[extensions."d3-cards"]\norder_of_battle = 3\n', rules_id) == (
        f"{OWN}: expected a table, got 3")


@pytest.mark.parametrize("rules_id", [None, "d3-cards"])
def test_a_rule_sets_own_pieces_are_placed_and_checked_as_the_shared_ones(rules_id: str | None) -> None:
    assert only(ARMY + own_unit("p-far", x=60), rules_id) == (
        f"{OWN}.units[2] 'p-far': base at (60, 6) is off the 48\" x 36\" table")
    assert only(ARMY + own_unit("p-near", x=31, y=7), rules_id) == (
        f"{OWN}.units[2] 'p-near': base overlaps extensions.d3-cards.order_of_battle.units[0] 'p-horse'")
    assert only(ARMY + own_unit("p-chief", x=24, y=3), rules_id) == (
        f"{OWN}.units[2] 'p-chief': base overlaps commanders[0] 'p-cmd'")
    assert only(ARMY + own_unit("p-horse", x=40), rules_id) == (
        f"{OWN}.units[2] 'p-horse'.id: duplicate id 'p-horse' "
        "(also extensions.d3-cards.order_of_battle.units[0] 'p-horse')")
    assert only(ARMY + own_unit("p-scot", side="scots", x=40), rules_id) == (
        f"{OWN}.units[2] 'p-scot'.side: unknown side 'scots'; known: parliament, royalist")
    assert only(ARMY + own_unit("p-odd", command="vanguard", x=40), rules_id).startswith(
        f"{OWN}.units[2] 'p-odd'.command: unknown command 'vanguard'; known: centre,")


def test_the_shared_pieces_are_not_fielded_where_a_rule_set_has_its_own() -> None:
    # A shared unit off the table is a problem without a rule set and under larger-battles,
    # none under d3-cards, which fields its own units.
    off = ARMY.replace("x = 20\ny = 30", "x = 20\ny = 40")
    assert only(off) == only(off, "larger-battles") == (
        "t.toml: units[1] 'r-foot-1': base at (20, 40) is off the 48\" x 36\" table")
    assert [u.id for u in load_scenario(off, rules_id="d3-cards").units] == ["p-horse", "r-horse"]


def test_a_rule_sets_own_checks_name_its_own_pieces_where_the_file_writes_them() -> None:
    royal_foot = own_unit("r-foot-2", "larger-battles", side="royalist", type="foot", command="centre",
                          x=20, y=30, facing=180)
    text = BASE + own_unit("p-drag", "larger-battles", type="dragoons", command="centre") + royal_foot
    assert only(text, "larger-battles").startswith(
        "t.toml: extensions.larger-battles.order_of_battle.units[0] 'p-drag'.command: dragoons belong "
        "to the dragoons command, not 'centre'")
    fixed = load_scenario(text.replace('command = "centre"\nx = 30', 'command = "dragoons"\nx = 30'),
                          rules_id="larger-battles")
    assert [u.id for u in fixed.units] == ["p-drag", "r-foot-2"]
    assert get_ruleset("larger-battles").scenario_extension(fixed) == LargerBattlesTable()


def test_a_commander_value_is_the_rule_sets() -> None:
    text = BASE + block("commanders", id="c9", side="royalist", command="centre", x=22, y=32,
                        value=3)
    assert only(text, "larger-battles") == (
        "t.toml: commanders[1] 'c9'.value: must be from 0 to 2 under larger-battles, got 3")
    assert load_scenario(text.replace("value = 3", "value = 2"), rules_id="larger-battles")


def test_terrain_a_rule_set_gives_no_meaning_is_refused_under_it(monkeypatch: pytest.MonkeyPatch) -> None:
    wall = BASE + block("terrain", type="wall", name="Park Wall", line="[[10, 20], [20, 20]]", width=0.5)
    line = only(wall, "larger-battles")
    assert line.startswith("t.toml: terrain[0] 'Park Wall'.type: rule set 'larger-battles' has no "
                           "terrain 'wall'; it knows: bridge, broken, entrenchment,")
    real = tertia.rulesets.ruleset_class("larger-battles")

    class Walled(real):  # type: ignore[misc, valid-type]
        TERRAIN_KINDS = frozenset(TerrainKind)

    monkeypatch.setattr(tertia.rulesets, "_REGISTRY", {"larger-battles": Walled})
    scenario = load_scenario(wall, rules_id="larger-battles")
    assert scenario.build_battlefield().features[0].kind is TerrainKind.WALL
    # Without a rule set the file is read as it is.
    assert load_scenario(wall).terrain[0].type == "wall"


def test_a_rule_set_adds_a_kind_of_terrain_by_naming_it() -> None:
    works = BASE + block("terrain", type="works", name="Sconce", polygon="[[10, 20], [14, 20], [14, 23]]")
    assert only(works).startswith("t.toml: terrain[0] 'Sconce'.type: unknown terrain type 'works'; "
                                  "known: bridge, broken,")
    assert only(works, "larger-battles").startswith(
        "t.toml: terrain[0] 'Sconce'.type: rule set 'larger-battles' has no terrain 'works'")
    real = tertia.rulesets.ruleset_class("larger-battles")

    class Besieging(real):  # type: ignore[misc, valid-type]
        id = "besieging"
        TERRAIN_KINDS = frozenset({*real.TERRAIN_KINDS, "works"})

    works = works.replace('rules = ["larger-battles"]', 'rules = ["larger-battles", "besieging"]')
    with tertia.rulesets.registered(Besieging):
        assert load_scenario(works).terrain[0].type == "works"
        table = load_scenario(works, rules_id="besieging").build_battlefield()
    assert table.features[0].kind == "works" and table.has("works")
    assert table.contains_point("works", (13, 21)) and not table.has(TerrainKind.WOODS)
    with tertia.rulesets.registered(Besieging):
        game = Game(get_ruleset("besieging"), load_scenario(works, rules_id="besieging"))
    drawn = render_map(game.table, game.ruleset.initial_state(game.scenario), side_names={})
    assert ">Works<" in drawn and 'class="terrain works"' in drawn
    assert only(BASE + block("terrain", type="Works!", polygon="[[10, 20], [14, 20], [14, 23]]")).startswith(
        "t.toml: terrain[0].type: a kind of terrain is a lower-case name (letters, digits, _), "
        "got 'Works!'")


def test_every_kind_of_terrain_is_drawn() -> None:
    from tertia.io.svg import TERRAIN_STYLE

    assert set(TERRAIN_STYLE) == set(TerrainKind)
