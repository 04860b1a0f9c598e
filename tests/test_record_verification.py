"""Game records are verified, not just replayed: the dice must be the ones the recorded
seed gives, the format and rule-set versions ones this engine reads, the stored result the
one the game reaches; every malformed field is one line naming it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tertia.cli.main import app
from tertia.io.record import SET_UP_FIELDS, start_hash, step_hash
from tests.cli_support import saved_record

runner = CliRunner()


@pytest.fixture(scope="module")
def record_data(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return saved_record(tmp_path_factory.mktemp("records"), seed=3)


def replay_text(tmp_path: Path, data: Any) -> tuple[int, str]:
    path = tmp_path / "tampered.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert "Traceback" not in result.output
    return result.exit_code, result.output.strip()


def tampered(data: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    copy = json.loads(json.dumps(data))
    change(copy)
    return copy


def test_the_untouched_record_replays(tmp_path: Path, record_data: dict[str, Any]) -> None:
    code, out = replay_text(tmp_path, record_data)
    assert code == 0 and out.splitlines()[-1] == record_data["final_hash"]


def rechain(data: dict[str, Any]) -> None:
    """Work every hash of ``data``'s chain out again from what it says, as an editor could."""
    chained = start_hash({k: data[k] for k in SET_UP_FIELDS}, data["start"]["events"])
    data["start"]["hash"] = chained
    for step in data["steps"]:
        chained = step["hash"] = step_hash(chained, step["side"], step["action"], step["events"])


def _step_rolling(data: dict[str, Any], roll: int) -> int:
    """The index of the step that rolled ``data["rolls"][roll]``."""
    seen = sum(e["type"] == "dice_rolled" for e in data["start"]["events"])
    for i, step in enumerate(data["steps"]):
        seen += sum(e["type"] == "dice_rolled" for e in step["events"])
        if seen > roll:
            return i
    raise AssertionError(f"no step rolled roll {roll}")


def _same_outcome_ammunition_roll(data: dict[str, Any]) -> int:
    """A roll whose value can change without changing play: an ammunition check of 3-6
    (only 1 or 2 runs a unit out)."""
    return next(i for i, r in enumerate(data["rolls"])
                if r["purpose"].startswith("ammunition") and r["value"] >= 3)


def test_a_die_changed_without_changing_the_outcome_is_caught(tmp_path: Path,
                                                              record_data: dict[str, Any]) -> None:
    i = _same_outcome_ammunition_roll(record_data)

    def change(d: dict[str, Any]) -> None:
        d["rolls"][i]["value"] = 3 if d["rolls"][i]["value"] != 3 else 4

    code, out = replay_text(tmp_path, tampered(record_data, change))
    assert code != 0 and len(out.splitlines()) == 1
    assert f"rolls[{i}]" in out and "its seed gives" in out
    step = _step_rolling(record_data, i)
    assert f"diverged: step {step + 1} (steps[{step}], " in out


def test_a_changed_seed_is_caught(tmp_path: Path, record_data: dict[str, Any]) -> None:
    code, out = replay_text(tmp_path, tampered(record_data, lambda d: d.update(seed=d["seed"] + 1)))
    assert code == 3 and "at the start: start.hash" in out
    # With the chain worked out again, the dice still give it away, at the first step to roll.
    def reseeded(d: dict[str, Any]) -> None:
        d["seed"] += 1
        rechain(d)

    code, out = replay_text(tmp_path, tampered(record_data, reseeded))
    assert code == 3 and "rolls[" in out and "its seed gives" in out


def test_a_changed_result_is_caught(tmp_path: Path, record_data: dict[str, Any]) -> None:
    def change(d: dict[str, Any]) -> None:
        d["result"]["winner"] = "nobody"

    code, out = replay_text(tmp_path, tampered(record_data, change))
    assert code != 0 and 'result.winner: the record has "nobody"' in out


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d.update(format_version=4), "format_version"),
    (lambda d: d.pop("format_version"), "format_version"),
    (lambda d: d.update(surprise=1), "'surprise'"),
    (lambda d: d["ruleset"].update(colour="red"), "'colour'"),
    (lambda d: d.update(ruleset=["larger-battles"]), "ruleset must be a JSON object"),
    (lambda d: d["rolls"][0].update(value="3"), "rolls[0].value must be an integer"),
    (lambda d: d["rolls"][0].update(value=3.0), "rolls[0].value must be an integer"),
    (lambda d: d["rolls"][0].update(value=True), "rolls[0].value must be an integer"),
    (lambda d: d["rolls"][1].update(extra=1), "rolls[1]: unknown field 'extra'"),
    (lambda d: d["rolls"][0].update(value=7), "rolls[0].value: 7 is not a face of d6"),
    (lambda d: d["rolls"][0].update(die="dx"), "rolls[0].die: 'dx' names no die"),
    (lambda d: d["rolls"][2].pop("purpose"), "rolls[2].'purpose'"),
    (lambda d: d["steps"][0]["action"].update(hidden=True), "steps[0].action: unknown field 'hidden'"),
    (lambda d: d["steps"][0].update(hidden=True), "steps[0]: unknown field 'hidden'"),
    (lambda d: d.update(steps={"a": 1}), "steps must be a JSON list"),
    (lambda d: d["steps"][1].pop("hash"), "steps[1].hash: a format-3 record has a chained hash"),
    (lambda d: d["steps"][1].update(hash=None), "steps[1].hash must be text"),
    (lambda d: d["start"].pop("hash"), "start.hash: a format-3 record has a chained hash"),
    (lambda d: d.pop("steps"), "steps: a format-3 record has a chained hash"),
    (lambda d: d["steps"][2].update(events=[1]), "steps[2].events[0] must be a JSON object"),
    (lambda d: d.update(seed="3"), "seed must be an integer"),
    (lambda d: d.update(seed=3.5), "seed must be an integer"),
    (lambda d: d.update(final_hash=7), "final_hash must be text"),
    (lambda d: d.update(result=[1]), "result must be a JSON object"),
])
def test_malformed_fields_are_one_line_naming_the_field(
    tmp_path: Path, record_data: dict[str, Any], change: Callable[[dict[str, Any]], None], field: str
) -> None:
    code, out = replay_text(tmp_path, tampered(record_data, change))
    assert code == 1 and len(out.splitlines()) == 1, out
    assert field in out


def test_absurd_nesting_is_one_line(tmp_path: Path) -> None:
    code, out = replay_text(tmp_path, "[" * 200_000 + "]" * 200_000)
    assert code == 1 and len(out.splitlines()) == 1 and "nested too deeply" in out
