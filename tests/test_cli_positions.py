"""``inspect`` and ``odds`` at a chosen moment of a record: ``--step K`` (after K
actions) or ``--turn N`` (as turn N began), checked against the record itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tertia.battle import dice_seed
from tertia.cli.main import app
from tertia.core.dice import SeedCheckedDice
from tertia.io.record import load_record

runner = CliRunner()


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("positions") / "skirmish.json"
    result = runner.invoke(app, ["battle", "--scenario", "skirmish", "--seed", "5", "--save", str(path)])
    assert result.exit_code == 0, result.output
    return path


def _inspected(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["inspect", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


def test_a_step_or_a_turn_chooses_the_position_inspected(record: Path) -> None:
    loaded = load_record(record)
    game = loaded.game
    began, _ = game.start(SeedCheckedDice(loaded.rolls, dice_seed(loaded.seed)))
    assert _inspected(str(record), "--step", "0")["turn"] == began.turn
    last = _inspected(str(record))
    assert _inspected(str(record), "--step", str(len(loaded.actions))) == last
    for turn in (2, 3):
        assert _inspected(str(record), "--turn", str(turn))["turn"] == turn
    assert _inspected(str(record), "--turn", "3") != last


@pytest.mark.parametrize(("args", "words"), [
    (("--step", "9999"), "holds"),
    (("--turn", "99"), "ended in turn"),
    (("--step", "3", "--turn", "2"), "give one of them"),
    (("--step", "-1"), "--step -1: give a number of actions, 0 or more"),
    (("--turn", "0"), "--turn 0: turns count from 1"),
])
def test_a_position_the_record_does_not_hold_is_refused_in_one_line(record: Path, args: tuple[str, ...],
                                                                    words: str) -> None:
    for command in (["inspect", str(record)], ["odds", str(record), "--attacker", "x", "--target", "y"]):
        result = runner.invoke(app, [*command, *args])
        assert result.exit_code == 1 and words in result.output, result.output
        assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_an_odds_budget_below_one_is_refused_in_one_line(record: Path) -> None:
    result = runner.invoke(app, ["odds", str(record), "--attacker", "x", "--target", "y", "--budget", "0"])
    assert result.exit_code == 1 and result.output == "error: --budget 0: give at least 1 unit of work\n"


def test_a_scenario_has_no_step_to_choose() -> None:
    result = runner.invoke(app, ["inspect", "skirmish", "--turn", "2"])
    assert result.exit_code == 1 and "chooses a position in a game record" in result.output, result.output
