"""The clause names a D3 rule set cites in its refusals; each rule set fills in its own."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ClauseBook:
    """Clause names used by the shared D3 blocks, each prefixed with the rule set's id."""

    sequence: str
    activation: str
    move_allowance: str
    pivot: str
    straight_line: str
    interpenetration: str
    charge: str
    charge_turn: str
    charge_limit: str
    woods: str
    towns: str
    marsh: str
    rivers: str
    artillery: str
    shooting: str
    shooting_procedure: str
    shooting_range: str
    ammunition: str
    melee: str
    withdraw: str
    routing: str
    commander: str
    weather: str
