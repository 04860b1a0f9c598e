"""Records written before the core was made neutral (record format 1) still load and
replay to the same game, through the map in :mod:`tertia.io.compat`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tertia.core.events import GameDataChanged
from tertia.io.compat import legacy_layout, legacy_state_hash, upgrade_tagged, values_written
from tertia.io.record import load_record, parse_record, replay

FORMAT1 = sorted((Path(__file__).parent / "records" / "format1").glob("*.json"))


def test_there_are_format_1_records_for_every_rule_set() -> None:
    rules = {json.loads(p.read_text())["ruleset"]["id"] for p in FORMAT1}
    assert rules == {"larger-battles", "d3-commands", "d3-cards"}
    assert all(json.loads(p.read_text())["format_version"] == 1 for p in FORMAT1)


@pytest.mark.parametrize("path", FORMAT1, ids=lambda p: p.stem)
def test_a_format_1_record_replays_to_its_recorded_hash(path: Path) -> None:
    loaded = load_record(path)
    result = replay(loaded)
    assert result.ok, result.message
    assert result.final_hash == loaded.final_hash == json.loads(path.read_text())["final_hash"]


@pytest.mark.parametrize("path", FORMAT1[:1], ids=lambda p: p.stem)
def test_a_format_1_record_with_another_hash_is_refused(path: Path) -> None:
    data = json.loads(path.read_text())
    data["final_hash"] = "0" * 16
    result = replay(parse_record(data, path.name))
    assert not result.ok and result.message.startswith("final_hash:")


@pytest.mark.parametrize("path", FORMAT1[:1], ids=lambda p: p.stem)
def test_the_same_game_as_format_2_checks_the_canonical_hash(path: Path) -> None:
    data = json.loads(path.read_text())
    first = replay(parse_record(data, path.name))
    assert first.final_state is not None
    data["format_version"] = 2
    assert not replay(parse_record(data, path.name)).ok  # format 1's hash is not format 2's
    data["final_hash"] = first.final_state.state_hash()
    assert replay(parse_record(data, path.name)).ok


def test_the_legacy_layout_keeps_every_unit_value_as_a_field() -> None:
    loaded = load_record(next(p for p in FORMAT1 if "edgehill" in p.stem and "larger" in p.stem))
    state = replay(loaded).final_state
    assert state is not None
    written = {"declared_attacks"}
    layout = legacy_layout(state, "larger-battles", written)
    assert layout["supplies"] and {"id", "side", "x", "y", "raided_by"} <= set(layout["supplies"][0])
    for unit in layout["units"]:
        assert {"general", "value", "hits", "out_of_ammo", "ammo_markers", "fired", "removed"} <= set(unit)
    assert {"turn_limit", "first", "edges", "objective_ends", "declared_attacks"} == set(layout["extra"])
    assert legacy_state_hash(state, "larger-battles", written) == loaded.final_hash
    assert legacy_state_hash(state, "larger-battles") != loaded.final_hash


def test_format_1_kept_a_value_written_empty_and_left_out_one_never_written() -> None:
    loaded = load_record(next(p for p in FORMAT1 if "d3-cards" in p.stem))
    state = replay(loaded).final_state
    assert state is not None and state.value("activation") is None
    extra = legacy_layout(state, "d3-cards", {"deck"})["extra"]
    assert extra["activation"] is None and "deck" in extra and "drawn" not in extra


def test_the_values_written_are_the_game_data_keys() -> None:
    assert values_written([GameDataChanged(key="deck", value=[]),
                           GameDataChanged(key="cards_played:Royalist", value=None)]) == \
        {"deck", "cards_played:Royalist"}


def test_upgrading_a_tagged_object_keeps_unknown_names() -> None:
    assert upgrade_tagged({"type": "move", "unit": "a"}) == {"type": "move", "unit": "a"}


def test_a_1_0_record_with_a_renamed_option_is_refused_naming_both_versions(tmp_path: Path) -> None:
    """larger-battles 1.1 renamed ``cavalry_bonus_when_defending`` to ``cavalry_bonus``:
    a 1.0 record is refused for its version, naming both, and the old option with them."""
    from typer.testing import CliRunner

    from tertia.cli.main import app
    from tertia.rulesets import get_ruleset

    data = json.loads(next(p for p in FORMAT1 if p.stem.startswith("larger-battles")).read_text())
    options = data["ruleset"]["options"]
    del options["cavalry_bonus"]
    options["cavalry_bonus_when_defending"] = True
    data["ruleset"]["version"] = "1.0"
    path = tmp_path / "made-under-1.0.json"
    path.write_text(json.dumps(data))
    current = get_ruleset("larger-battles").version
    for command in (["replay", str(path)], ["inspect", str(path)]):
        result = CliRunner().invoke(app, command)
        lines = result.output.strip().splitlines()
        assert result.exit_code == 1 and len(lines) == 1, result.output
        assert f"made under larger-battles 1.0, but this engine plays larger-battles {current}" in lines[0]
        assert "'cavalry_bonus_when_defending' is not" in lines[0] and str(path) in lines[0]
    # Under its own version an unknown option is still named as one.
    data["ruleset"]["version"] = current
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "has no option 'cavalry_bonus_when_defending'" in result.output
