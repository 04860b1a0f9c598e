"""Helpers for the command-line tests: a saved game record to tamper with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tertia.cli.main import app


def saved_record(folder: Path, seed: int, scenario: str = "skirmish") -> dict[str, Any]:
    """Fight a battle with ``tertia battle --save`` and return the record's JSON."""
    path = folder / "game.json"
    args = ["battle", "--scenario", scenario, "--seed", str(seed), "--json", "--save", str(path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(path.read_text())
    return data
