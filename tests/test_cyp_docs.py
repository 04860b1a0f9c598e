"""Charge yr Pikes!' clause table names tests that exist, numbers its rows in order, and
says plainly which clauses are still to be written."""

from __future__ import annotations

import re

from .test_d3_docs import ROOT, defined, references

DOC = "charge-yr-pikes.md"
TEXT = (ROOT / "docs" / "rulesets" / DOC).read_text(encoding="utf-8")


def test_every_test_named_in_the_table_exists() -> None:
    refs = references(DOC)
    assert refs
    missing = [f"{f}::{t}" for f, t in sorted(refs) if t not in defined(f)]
    assert missing == []


def test_clause_rows_are_numbered_in_order() -> None:
    numbers = [int(n) for n in re.findall(r"^\| (\d+) \|", TEXT, re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1))


def test_a_row_names_a_test_or_says_not_yet() -> None:
    lines = [line for line in TEXT.splitlines() if re.match(r"^\| \d+ \|", line)]
    bare = [line[:60] for line in lines if "::test_" not in line and "**not yet**" not in line]
    assert bare == []

