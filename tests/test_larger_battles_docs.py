"""The larger-battles clause table names tests that exist, every clause test is in it, and
its rows are numbered in order (the checks tests/test_d3_docs.py makes of the D3 tables)."""

from __future__ import annotations

import re

import pytest

from .test_d3_docs import ROOT, defined, references

DOC = "larger-battles.md"
CLAUSE_TESTS = sorted(
    p.name for pattern in ("test_larger_battles_clauses.py", "test_larger_battles_audit_*.py")
    for p in (ROOT / "tests").glob(pattern)
)
"""Files written to test the table's clauses; the table cites tests of the other
test_larger_battles_*.py files too, but need not cite every one of them."""


def test_every_test_named_in_the_table_exists() -> None:
    refs = references(DOC)
    assert len(refs) > 100
    missing = [f"{f}::{t}" for f, t in sorted(refs) if t not in defined(f)]
    assert missing == []


def test_the_table_cites_only_larger_battles_tests() -> None:
    files = {f for f, _ in references(DOC)}
    assert sorted(f for f in files if not f.startswith("test_larger_battles_")) == []


@pytest.mark.parametrize("tests", CLAUSE_TESTS)
def test_every_clause_test_is_in_the_table(tests: str) -> None:
    named = {t for f, t in references(DOC) if f == tests}
    assert sorted(defined(tests) - named) == []


def test_clause_rows_are_numbered_in_order() -> None:
    text = (ROOT / "docs" / "rulesets" / DOC).read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^\| (\d+) \|", text, re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1))
