"""The D3 clause tables name tests that exist, and every clause test is in its table (the
tests both rule sets share in one table or both)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
REFERENCE = re.compile(r"`(test_[a-z0-9_]+\.py)::(test_[a-z0-9_]+)(?:\[[^\]]*\])?`")


def references(doc: str) -> set[tuple[str, str]]:
    return set(REFERENCE.findall((ROOT / "docs" / "rulesets" / doc).read_text(encoding="utf-8")))


def defined(test_file: str) -> set[str]:
    text = (ROOT / "tests" / test_file).read_text(encoding="utf-8")
    return set(re.findall(r"^def (test_[a-z0-9_]+)", text, re.MULTILINE))


@pytest.mark.parametrize("doc", ["d3-commands.md", "d3-cards.md"])
def test_every_test_named_in_the_table_exists(doc: str) -> None:
    refs = references(doc)
    assert len(refs) > 40
    missing = [f"{f}::{t}" for f, t in sorted(refs) if t not in defined(f)]
    assert missing == []


@pytest.mark.parametrize(("doc", "tests"), [("d3-commands.md", "test_d3_commands_clauses.py"),
                                            ("d3-cards.md", "test_d3_cards_clauses.py")])
def test_every_clause_test_is_in_its_table(doc: str, tests: str) -> None:
    named = {t for f, t in references(doc) if f == tests}
    assert sorted(defined(tests) - named) == []


SHARED = "test_d3_audit_cover.py"
"""Clause tests of both rule sets: each is named in one table or both."""


def test_every_shared_clause_test_is_in_a_table() -> None:
    named = {t for doc in ("d3-commands.md", "d3-cards.md") for f, t in references(doc) if f == SHARED}
    assert defined(SHARED) and sorted(defined(SHARED) - named) == []


@pytest.mark.parametrize("doc", ["d3-commands.md", "d3-cards.md"])
def test_clause_rows_are_numbered_in_order(doc: str) -> None:
    text = (ROOT / "docs" / "rulesets" / doc).read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^\| (\d+) \|", text, re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1))
