"""Every step of a record carries a hash of its side, action and events chained from the
step before (record format 3): any edit to any field of any step made without re-running
the engine is refused by replay, naming the first step it touches, even an edit that
changes no die and no final position."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tertia.io.record as record_module
from tertia.ai.doctrine import DoctrinePlayer
from tertia.analysis.sim import make_spec, run
from tertia.battle import fight_battle
from tertia.cli.main import app
from tertia.core.game import Game
from tertia.io.record import (
    FORMAT_VERSION,
    SET_UP_FIELDS,
    parse_record,
    record_to_dict,
    replay,
    start_hash,
    step_hash,
)
from tertia.rulesets import get_ruleset
from tertia.scenarios import load_builtin
from tests.cli_support import saved_record

runner = CliRunner()
Data = dict[str, Any]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Data:
    """A skirmish under larger-battles, written by ``tertia battle --save``."""
    return saved_record(tmp_path_factory.mktemp("chain"), seed=5)


def copied(data: Data) -> Data:
    out: Data = json.loads(json.dumps(data))
    return out


def rechain(data: Data) -> Data:
    """Every hash of the chain worked out again from what the record says, as anyone
    editing a record could do without the engine."""
    chained = start_hash({k: data[k] for k in SET_UP_FIELDS}, data["start"]["events"])
    data["start"]["hash"] = chained
    for step in data["steps"]:
        chained = step["hash"] = step_hash(chained, step["side"], step["action"], step["events"])
    return data


def as_format_2(data: Data) -> Data:
    """The same game as format 2 wrote it: the actions alone, no events, no chain."""
    out = copied(data)
    out["format_version"] = 2
    out["actions"] = [{"side": s["side"], **s["action"]} for s in out.pop("steps")]
    del out["start"]
    return out


def replayed(tmp_path: Path, data: Data) -> tuple[int, str]:
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert "Traceback" not in result.output
    return result.exit_code, result.output.strip()


def _first(data: Data, test: Callable[[Data], bool]) -> int:
    return next(i for i, s in enumerate(data["steps"]) if test(s))


def _move(data: Data) -> int:
    return _first(data, lambda s: s["action"]["type"] == "move" and len(s["action"]["waypoints"]) > 0)


def _rolling(data: Data) -> int:
    """A step that rolls a die, some way into the battle."""
    rolling = [i for i, s in enumerate(data["steps"]) if any(e["type"] == "dice_rolled" for e in s["events"])]
    return rolling[len(rolling) // 2]


def _die(data: Data, i: int) -> int:
    """The index in ``rolls`` of step ``i``'s first die."""
    before = sum(e["type"] == "dice_rolled" for e in data["start"]["events"])
    before += sum(e["type"] == "dice_rolled" for s in data["steps"][:i] for e in s["events"])
    return before


def shift_waypoint(data: Data, i: int) -> None:
    x, y = data["steps"][i]["action"]["waypoints"][-1]
    data["steps"][i]["action"]["waypoints"][-1] = [x + 0.5, y]


def other_side(data: Data, i: int) -> None:
    sides = [s["id"] for s in data["scenario"]["sides"]]
    data["steps"][i]["side"] = next(s for s in sides if s != data["steps"][i]["side"])


def event_field(data: Data, i: int) -> None:
    event = data["steps"][i]["events"][-1]
    key = next(k for k in sorted(event) if k != "type")
    value = event[key]
    event[key] = value + 1 if isinstance(value, (int, float)) and not isinstance(value, bool) else f"{value}!"


def die_in_events(data: Data, i: int) -> None:
    die = next(e for e in data["steps"][i]["events"] if e["type"] == "dice_rolled")
    die["value"] = 1 if die["value"] != 1 else 2


def die_in_rolls(data: Data, i: int) -> None:
    roll = data["rolls"][_die(data, i)]
    roll["value"] = 1 if roll["value"] != 1 else 2


def event_dropped(data: Data, i: int) -> None:
    data["steps"][i]["events"].pop()


def event_added(data: Data, i: int) -> None:
    data["steps"][i]["events"].append({"type": "narrated", "text": "and then the sun came out"})


def new_hash(data: Data, i: int) -> None:
    data["steps"][i]["hash"] = "0" * 64


EDITS: dict[str, tuple[Callable[[Data], int], Callable[[Data, int], None]]] = {
    "a move's last waypoint 0.5 inch over": (_move, shift_waypoint),
    "the side that acted": (_move, other_side),
    "a field of an event": (_rolling, event_field),
    "a die among a step's events": (_rolling, die_in_events),
    "a die in the rolls": (_rolling, die_in_rolls),
    "an event taken out": (_rolling, event_dropped),
    "an event put in": (_move, event_added),
    "the step's hash": (_rolling, new_hash),
    "the last step's action": (lambda d: len(d["steps"]) - 1, lambda d, i: d["steps"][i]["action"].update(
        type="declare_attacks", attacks=[])),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edited_step_is_refused_naming_that_step(tmp_path: Path, written: Data, edit: str) -> None:
    where, change = EDITS[edit]
    data = copied(written)
    i = where(data)
    change(data, i)
    code, out = replayed(tmp_path, data)
    assert code == 3 and len(out.splitlines()) == 1, out
    assert f"diverged: step {i + 1} (steps[{i}], " in out, out


@pytest.mark.parametrize("edit", sorted(set(EDITS) - {"the step's hash"}))
def test_an_edited_step_with_its_chain_worked_out_again_is_refused_naming_that_step(
    tmp_path: Path, written: Data, edit: str
) -> None:
    """Hashes worked out again without the engine: the engine's events give the edit away."""
    where, change = EDITS[edit]
    data = copied(written)
    i = where(data)
    change(data, i)
    code, out = replayed(tmp_path, rechain(data))
    assert code == 3 and len(out.splitlines()) == 1, out
    assert f"diverged: step {i + 1} (steps[{i}], " in out, out


def test_the_untouched_record_replays_and_its_chain_is_the_one_written(tmp_path: Path, written: Data) -> None:
    assert written["format_version"] == FORMAT_VERSION == 3
    assert rechain(copied(written)) == written
    code, out = replayed(tmp_path, written)
    assert code == 0 and out.splitlines()[-1] == written["final_hash"]
    assert len({s["hash"] for s in written["steps"]}) == len(written["steps"])


def test_the_set_up_is_covered_by_the_start_of_the_chain(tmp_path: Path, written: Data) -> None:
    for change in (lambda d: d.update(players={}), lambda d: d.update(engine_version="0.0.1"),
                   lambda d: d["scenario"].update(name="Another ford")):
        data = copied(written)
        change(data)
        code, out = replayed(tmp_path, data)
        assert code == 3 and out.endswith("the record was changed after the game was played"), out
        assert "at the start: start.hash" in out


def test_an_edited_result_is_refused_naming_the_field_that_differs(tmp_path: Path, written: Data) -> None:
    """A result changed after the game (its winner) is named by the field, the record's
    value and the game's, in one line: never both results whole."""
    data = copied(written)
    played = data["result"]["winner"]
    data["result"]["winner"] = next(s["id"] for s in data["scenario"]["sides"] if s["id"] != played)
    code, out = replayed(tmp_path, data)
    assert code == 3 and len(out.splitlines()) == 1, out
    assert out.endswith(f'result.winner: the record has "{data["result"]["winner"]}", the game gives '
                        f'"{played}"'), out


def test_the_first_edited_step_is_named(tmp_path: Path, written: Data) -> None:
    data = copied(written)
    move = _move(data)
    later = len(data["steps"]) - 2
    event_field(data, later)
    shift_waypoint(data, move)
    code, out = replayed(tmp_path, data)
    assert code == 3 and f"step {move + 1} (steps[{move}], move by " in out


def test_the_same_game_as_format_2_still_replays(written: Data) -> None:
    old = as_format_2(written)
    result = replay(parse_record(old, "format-2.json"))
    assert result.ok and result.final_hash == written["final_hash"], result.message


def test_a_record_without_its_chain_is_refused_in_one_line(tmp_path: Path, written: Data) -> None:
    unchained = as_format_2(written)
    unchained["format_version"] = FORMAT_VERSION
    code, out = replayed(tmp_path, unchained)
    assert code == 1 and len(out.splitlines()) == 1
    assert "steps: a format-3 record has a chained hash for every step" in out


def test_a_move_shifted_where_format_2_saw_nothing_is_refused() -> None:
    """Charge yr Pikes! at Edgehill: moving a move's last waypoint by half an inch, where
    the move is overwritten later and no die differs, replayed identically as format 2;
    the chain refuses it at that step."""
    game = Game(get_ruleset("charge-yr-pikes"), load_builtin("edgehill"))
    record = fight_battle(game, {side: DoctrinePlayer() for side in game.scenario.side_ids}, 1)
    data = json.loads(json.dumps(record_to_dict(record)))
    moves = [i for i, s in enumerate(data["steps"])
             if s["action"]["type"] == "move" and s["action"]["waypoints"]]
    unseen = None
    for i in moves:
        edited = copied(data)
        shift_waypoint(edited, i)
        if replay(parse_record(as_format_2(edited))).ok:
            unseen = i
            break
    assert unseen is not None, "every shifted move changes the game: nothing for the chain to catch"
    edited = copied(data)
    shift_waypoint(edited, unseen)
    result = replay(parse_record(edited))
    assert not result.ok and result.message.startswith(f"step {unseen + 1} (steps[{unseen}], move by ")
    result = replay(parse_record(rechain(edited)))
    assert not result.ok and result.message.startswith(f"step {unseen + 1} (steps[{unseen}], move by ")
    assert f"steps[{unseen}].events[" in result.message


def test_battles_and_simulations_work_out_no_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chain is worked out when a record is written, never while battles are fought."""
    def refuse(*args: object) -> str:
        raise AssertionError("a chained hash was worked out")

    monkeypatch.setattr(record_module, "_chained", refuse)
    game = Game(get_ruleset("larger-battles"), load_builtin("skirmish"))
    record = fight_battle(game, {side: DoctrinePlayer() for side in game.scenario.side_ids}, 2)
    study = run([make_spec("skirmish", load_builtin("skirmish"), "larger-battles")], games=1, master_seed=2)
    assert record.steps and study.games_played == 1
    with pytest.raises(AssertionError, match="chained hash"):
        record_to_dict(record)


def test_a_record_whose_scenario_breaks_its_model_is_refused_in_the_scenario_files_words(
        tmp_path: Path, written: Data) -> None:
    """A field out of bounds in a record's scenario is named as a scenario file's problem
    is ("must be at least ...", the unit by its id), not in pydantic's words."""
    broken = copied(written)
    broken["scenario"]["table"]["width"] = -5
    code, out = replayed(tmp_path, broken)
    assert code == 1 and len(out.splitlines()) == 1
    assert "scenario.table.width: must be greater than 0, got -5" in out, out
    assert "Input should" not in out
