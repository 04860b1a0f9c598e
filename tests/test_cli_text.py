"""Text from files is shown as written: square brackets are not markup, and control
characters (terminal escapes among them) are refused when the file is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tertia.cli.main import app

runner = CliRunner()
TINY = Path(__file__).parent / "scenarios" / "tiny.toml"


def scenario_with(tmp_path: Path, **replacements: str) -> Path:
    """tiny.toml with its ``name = "..."`` lines for the scenario and the two sides given."""
    text = TINY.read_text(encoding="utf-8")
    text = text.replace('name = "Tiny"', f'name = {json.dumps(replacements["scenario"])}')
    for side, edge in (("parliament", "south"), ("royalist", "north")):
        named = f'id = "{side}"\nname = {json.dumps(replacements[edge])}\nedge'
        text = text.replace(f'id = "{side}"\nedge', named)
    path = tmp_path / "named.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_square_brackets_in_names_are_printed_as_written(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, scenario="Tiny [variant b]", south="Roundheads [/bold]",
                         north="Royalists [red]")
    result = runner.invoke(app, ["battle", "--scenario", str(path), "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "Tiny [variant b]" in result.output
    assert "Roundheads [/bold]" in result.output and "Royalists [red]" in result.output


@pytest.mark.parametrize("bad", ["Royal\x1b[31mists", "Roy\x07alists", "Roy\u202ealists"])
def test_control_characters_in_names_are_refused_naming_the_field(tmp_path: Path, bad: str) -> None:
    path = scenario_with(tmp_path, scenario="Tiny", south="Roundheads", north=bad)
    for command in (["validate", str(path)], ["battle", "--scenario", str(path)]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1
        assert "\x1b" not in result.output and "\x07" not in result.output
        assert "sides[1] 'royalist'.name" in result.output and "control character" in result.output


def test_a_description_keeps_its_line_breaks_and_tabs(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, scenario="Tiny", south="Roundheads", north="Royalists")
    text = path.read_text(encoding="utf-8")
    text = text.replace("turns = 3\n", 'turns = 3\ndescription = "one\\n\\ttwo"\n')
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("blank", [" ", "   ", "\u3000"])
def test_a_name_of_spaces_alone_is_refused_naming_the_field(tmp_path: Path, blank: str) -> None:
    """A name that shows nothing (spaces alone) would leave a side or piece unnamed on the
    page and in the log: refused, naming the field, where a name left out shows the id."""
    path = scenario_with(tmp_path, scenario="Tiny", south="Roundheads", north=blank)
    for command in (["validate", str(path)], ["battle", "--scenario", str(path)]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1, result.output
        assert "sides[1] 'royalist'.name: is blank" in result.output
    fine = scenario_with(tmp_path, scenario="Tiny", south="Roundheads", north="Royalists")
    assert runner.invoke(app, ["validate", str(fine)]).exit_code == 0


def test_an_id_of_spaces_alone_is_refused_naming_the_field(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, scenario="Tiny", south="Roundheads", north="Royalists")
    blank_id = path.read_text(encoding="utf-8").replace('id = "royalist"', 'id = "  "')
    path.write_text(blank_id, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    assert "sides[1] '  '.id: is blank" in result.output
