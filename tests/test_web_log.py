"""The served game's log under every registered rule set (the example plugin's included):
a battle played through the HTTP API by the doctrine on both sides, its log then read
whole as one side's page reads it, entry by entry. Each entry is told apart from the
others, so a turn begun again with each card (the D3 rules) must still be headed once,
and a decision awaited in one entry must give way to its choice in a later one."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.ai.doctrine import DoctrinePlayer
from tertia.rulesets import ruleset_ids
from tertia.scenarios.catalogue import written_for
from tertia.web.app import create_app
from tests.log_checks import told_again
from tests.plugin_rules import with_plugins
from tests.web_support import bearer, create, doctrine_action, service

ACTIONS = 150
"""Enough actions for two turns or more under every rule set."""


def _cells() -> list[tuple[str, str]]:
    with with_plugins():
        return [(rules, written_for(rules)[0].name) for rules in ruleset_ids()]


CELLS = _cells()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with with_plugins(), TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as c:
        yield c


@pytest.mark.parametrize(("rules", "scenario"), CELLS, ids=[r for r, _ in CELLS])
def test_the_served_log_heads_each_turn_and_phase_once(client: TestClient, rules: str, scenario: str) -> None:
    created = create(client, scenario=scenario, rules=rules, mode="hotseat", seed=3)
    gid, tokens = created["id"], {s: bearer(t) for s, t in created["tokens"].items()}
    players: dict[str, DoctrinePlayer] = {}
    rng = random.Random(3)
    for _ in range(ACTIONS):
        if service(client).live(gid).state.is_over:
            break
        side, action = doctrine_action(client, gid, players, rng)
        answer = client.post(f"/api/games/{gid}/actions", json=action.to_dict(), headers=tokens[side])
        assert answer.status_code == 200, answer.text
    first = next(iter(tokens))
    log = client.get(f"/api/games/{gid}/view?log_from=0", headers=tokens[first]).json()["log"]
    shown = as_the_page_reads(log)
    lines = "\n".join(line["text"] for line in shown)
    assert "Turn 2" in lines, lines[-2000:]
    assert told_again(lines) == [], lines[-2000:]
    assert answered_among_decisions(shown) == [], lines


def answered_among_decisions(shown: list[dict[str, str]]) -> list[str]:
    """Each decision left awaited though its choice follows with only decisions between."""
    left = []
    for at, line in enumerate(shown):
        for after in shown[at + 1:] if "awaits" in line else ():
            if after.get("answers") == line["awaits"]:
                left.append(line["text"])
            if after["kind"] != "decision" or after.get("answers") == line["awaits"]:
                break
    return left


def as_the_page_reads(log: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The log's lines as the page shows them (``log.js``): a line that ``answers`` a
    decision takes the place of the line that ``awaits`` it, where only decisions were
    told since."""
    shown: list[dict[str, str]] = []
    for line in (line for entry in log for line in entry["lines"]):
        if "answers" in line:
            for at in range(len(shown) - 1, -1, -1):
                if shown[at]["kind"] != "decision":
                    break
                if shown[at].get("awaits") == line["answers"]:
                    del shown[at]
                    break
        shown.append(line)
    return shown
