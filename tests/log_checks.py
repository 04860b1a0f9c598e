"""What a log must not do, whichever surface tells it: head a turn twice, or a phase twice
within its turn (a rule set that begins the turn again with each card, as the D3 rules
do, is headed once)."""

from __future__ import annotations

import re

_TURN = re.compile(r"Turn \d+( — .+)?")
_PHASE = re.compile(r"[A-Z][a-z ]* phase")


def told_again(lines: str) -> list[str]:
    """Each turn heading told more than once, and each phase heading told again within
    its turn, in the order found."""
    turns: set[str] = set()
    phases: set[str] = set()
    again: list[str] = []
    for line in (text.strip() for text in lines.splitlines()):
        if _TURN.fullmatch(line):
            again += [line] if line in turns else []
            turns.add(line)
            phases = set()
        elif _PHASE.fullmatch(line):
            again += [line] if line in phases else []
            phases.add(line)
    return again
