"""Golden transcripts: every registered rule set (the example plugin's too) on every
scenario of the catalogue written for it, three seeds, played again and compared line for
line with the stored transcript (``tests/golden.py``)."""

from __future__ import annotations

import difflib
import json

import pytest

from tertia.rulesets import ruleset_ids
from tests.golden import GOLDEN_DIR, GoldenCase, fight, golden_cases, render, transcript
from tests.plugin_rules import with_plugins

CASES = golden_cases()


def test_every_rule_set_with_a_scenario_is_pinned() -> None:
    pinned = {c.rules for c in CASES}
    with with_plugins():
        assert pinned == set(ruleset_ids())
    assert "example-declare" in pinned
    for rules in pinned:
        assert len([c for c in CASES if c.rules == rules]) >= 3


def test_no_stale_transcripts() -> None:
    expected = {c.path for c in CASES}
    stored = set(GOLDEN_DIR.rglob("*.txt"))
    assert stored - expected == set(), "transcripts for cases that no longer exist"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_play_matches_the_golden_transcript(case: GoldenCase) -> None:
    assert case.path.exists(), f"{case.path} is missing: run `make golden`"
    stored = case.path.read_text(encoding="utf-8")
    played = render(case)
    if played != stored:
        diff = list(difflib.unified_diff(
            stored.splitlines(), played.splitlines(), "stored", "played", n=2, lineterm=""
        ))
        shown = "\n".join(diff[:40])
        pytest.fail(f"{case.id} no longer plays as pinned (`make golden` to accept):\n{shown}")


def test_a_transcript_shows_every_die_with_purpose_distribution_and_value() -> None:
    case = CASES[0]
    record = fight(case)
    text = transcript(case, record)
    dice = [line for line in text.splitlines() if '"type": "dice_rolled"' in line]
    assert len(dice) == len(record.rolls) > 0
    for line, roll in zip(dice, record.rolls, strict=True):
        assert f'"die": "{roll.die}"' in line and f'"value": {roll.value}' in line
        assert f'"purpose": {json.dumps(roll.purpose)}' in line
    assert text.count("\naction ") == len(record.steps)
    assert text.rstrip().endswith(record.final_state.state_hash())
