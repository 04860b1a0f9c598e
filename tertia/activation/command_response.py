"""Command response: a die rolled for an officer's order, read on a table of the faces on
which nothing happens, by the officer's grade.

Written for Charge yr Pikes! (Command Response, D10: graded officers fail on 0, 9, 8
(Ineffective), 0, 9 (Effective), 0 (Natural Born Leader); see ``RULES-NOTES.md``: the
table itself was lost and is a documented default) and used first by the example slice of
Declare Thee Sir in the tests (a countercharge must be ordered). The table is data: a rule
set names its grades and their failing faces, and the die (a D10 whose 10 reads as 0, as
the text counts it).

>>> CHARGE_YR_PIKES.responds("effective", 9), CHARGE_YR_PIKES.responds("effective", 8)
(False, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tertia.core.dice import D10, Distribution
from tertia.core.ruleset import Tx


@dataclass(frozen=True)
class ResponseTable:
    """``fails_on``: for each grade, the faces of ``die`` on which the order is not obeyed."""

    die: Distribution
    fails_on: Mapping[str, frozenset[int]]

    def __post_init__(self) -> None:
        for grade, faces in self.fails_on.items():
            stray = sorted(f for f in faces if f not in self.die)
            if stray:
                raise ValueError(f"grade {grade!r} fails on {stray}, not faces of {self.die.name}")

    @property
    def grades(self) -> tuple[str, ...]:
        return tuple(self.fails_on)

    def responds(self, grade: str, face: int) -> bool:
        """Is the order obeyed when ``face`` is rolled for an officer of ``grade``?"""
        if grade not in self.fails_on:
            raise ValueError(f"no grade {grade!r}; grades: {', '.join(self.fails_on)}")
        return face not in self.fails_on[grade]


ZERO = 10
"""The D10's face the texts read as 0."""

CHARGE_YR_PIKES = ResponseTable(D10, {
    "ineffective": frozenset({ZERO, 9, 8}),
    "effective": frozenset({ZERO, 9}),
    "natural_born_leader": frozenset({ZERO}),
    "no_officer": frozenset({ZERO, 9, 8, 7}),
})
"""Charge yr Pikes!' grades, with the in-text faces; ``no_officer`` ("Regiment without
officer") is a chosen default, one face worse than the worst graded officer."""


@dataclass(frozen=True, slots=True)
class Response:
    face: int
    obeyed: bool


def roll_response(tx: Tx, table: ResponseTable, grade: str, purpose: str) -> Response:
    """Roll the table's die for an order given by an officer of ``grade``."""
    if grade not in table.fails_on:
        raise ValueError(f"no grade {grade!r}; grades: {', '.join(table.fails_on)}")
    face = tx.roll(table.die, purpose)
    return Response(face, table.responds(grade, face))
