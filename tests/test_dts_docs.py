"""Declare Thee Sir's clause table names tests that exist, numbers its rows in order, and
says plainly which clauses are still to be written."""

from __future__ import annotations

import re

from .test_d3_docs import ROOT, defined, references

DOC = "declare-thee-sir.md"


def test_every_test_named_in_the_table_exists() -> None:
    refs = references(DOC)
    assert len(refs) > 50
    missing = [f"{f}::{t}" for f, t in sorted(refs) if t not in defined(f)]
    assert missing == []


def test_clause_rows_are_numbered_in_order() -> None:
    text = (ROOT / "docs" / "rulesets" / DOC).read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^\| (\d+) \|", text, re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1))


def test_a_row_names_a_test_or_says_not_yet() -> None:
    text = (ROOT / "docs" / "rulesets" / DOC).read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \|.*$", text, re.MULTILINE)
    lines = [line for line in text.splitlines() if re.match(r"^\| \d+ \|", line)]
    assert len(rows) == len(lines)
    bare = [line[:60] for line in lines if "::test_" not in line and "**not yet**" not in line]
    assert bare == []


def test_every_movement_and_rout_test_is_in_the_table() -> None:
    named = {t for _, t in references(DOC)}
    for tests in ("test_dts_movement.py", "test_dts_rout.py", "test_dts_actions.py"):
        assert sorted(defined(tests) - named) == [], tests

