"""Command response (Movement 5 A, Tertias and officers 4 B, C, G; Officers' values 22).

"Roll a D10 for each tertia as it's card is drawn from the deck. The highest ranking
officer within 8" may be used to test. If no officers are in range of the brigade, each
individual unit must test as 'Regiment without officer'." Read so:

- an officer may test for a tertia when he commands it (the commander-in-chief commands
  every tertia, "The C-in-C can influence any unit"; a wing commander those the scenario
  gives him; a brigadier or staff officer his own), is not in a unit's front rank ("he
  influences the one he is with alone", 4 G) and stands within 8" of one of its units,
  measured from the unit's reference point (Movement 5 B: "All measuring for distance is
  made from the center of the line, or the center of the front of the head of a column,
  or the center of mass of a square") to the nearest part of his base
  (:func:`in_command_radius`);
- the highest ranking such officer tests once for the units of the tertia within his 8";
  each unit out of his reach tests alone, "without officer";
- an officer in a unit's front rank tests for that unit alone;
- a face in the officer's "no move" list (by grade when grades are used, else by rank;
  ``tables.toml [command_response]``) means no move. A D10 face 10 reads as the text's 0;
- a unit falling back that passes is falling back no more (:func:`respond`): Special rules
  B, of a unit wholly fatigued by a charge, "This status continues until the unit passes
  its next command response role". Falling back 14 gives the status no end of its own, so
  every unit falling back ends it so; one that fails stays falling back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tertia.activation.command_response import ResponseTable
from tertia.core.dice import D10
from tertia.core.geometry import Point, point_polygon_distance
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes import secret_grades
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers, lone_enemy_officers
from tertia.rulesets.charge_yr_pikes.cards import card_label
from tertia.rulesets.charge_yr_pikes.data import RANKS
from tertia.rulesets.charge_yr_pikes.events import CommandResponded, change
from tertia.rulesets.charge_yr_pikes.movement import reference_point, reference_point_of
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import unit_data

COMMAND_RADIUS = 8.0
"""Tertias and officers B: "Mounted generals have an 8" command radius"."""
NO_OFFICER = "no_officer"
_TERTIA = "cyp the troops of a tertia"


def response_table(tables: Tables, *, graded: bool) -> ResponseTable:
    """The "no move" faces as a table keyed by what tests: a grade (officers' values in
    use) or a rank, and ``no_officer``."""
    given = tables.command_response.grade if graded else tables.command_response.rank
    lines: dict[str, frozenset[int]] = {k: frozenset(v) for k, v in given.items()}
    lines[NO_OFFICER] = frozenset(tables.command_response.no_officer)
    return ResponseTable(D10, lines)


def line_for(officer: Unit | None, *, graded: bool) -> str:
    """The line of the response table an officer (None: none) tests on."""
    if officer is None:
        return NO_OFFICER
    own = unit_data(officer)
    if graded and own.grade is not None:
        return own.grade
    return own.rank or "staff"


def commands(officer: Unit, tertia: str, wings: Mapping[str, tuple[str, ...]]) -> bool:
    """Does ``officer`` command ``tertia``? The army's general commands all; a wing
    commander the tertias the scenario gives him (``wings``) and his own; any other
    officer his own."""
    rank = unit_data(officer).rank
    if rank == "army":
        return True
    return officer.command == tertia or (rank == "wing" and tertia in wings.get(officer.id, ()))


@dataclass(frozen=True, slots=True)
class ResponseDie:
    """One command response die to roll: ``officer`` (None: without officer) for
    ``units``."""

    officer: Unit | None
    units: tuple[str, ...]


def dice_for(state: GameState, side: str, tertia: str, wings: Mapping[str, tuple[str, ...]],
             units: Sequence[Unit] | None = None) -> list[ResponseDie]:
    """The dice a tertia's card calls for, in the order rolled: for each unit led by an
    officer in its front rank, his; the best free officer's for the units in his reach;
    then one for each unit beyond it. ``units``: those of the tertia to test (by default
    all its troops)."""
    if units is None:
        # a piece keeps its side and command all game: the tertia is sifted once
        units = state.pieces_where((_TERTIA, side, tertia), lambda u: u.side == side and not u.is_commander
                                   and u.command == tertia, fixed=True)
    if not units:
        return []
    led: dict[str, Unit] = {}
    for u in units:
        # the last of the side's officers in its front rank, as a walk of the side's pieces finds
        for officer in front_rank_officers(state, u.id):
            if officer.side == side:
                led[u.id] = officer
    free = [o for o in map(state.units.__getitem__, lone_enemy_officers(state, state.opponent(side)))
            if commands(o, tertia, wings)]
    out: list[ResponseDie] = []
    for u in [u for u in units if u.id in led]:
        out.append(ResponseDie(led[u.id], (u.id,)))
    rest = [u for u in units if u.id not in led]
    best = _highest(o for o in free if any(_reaches(o, u) for u in rest))
    if best is not None:
        covered = tuple(u.id for u in rest if _reaches(best, u))
        out.append(ResponseDie(best, covered))
        rest = [u for u in rest if u.id not in covered]
    out.extend(ResponseDie(None, (u.id,)) for u in rest)
    return out


def command_distance(officer: Unit, unit: Unit, at: Point | None = None) -> float:
    """Movement 5 B: from ``unit``'s reference point (standing at ``at``, its facing kept,
    when given) to the nearest part of ``officer``'s base."""
    ref = reference_point(unit) if at is None else \
        reference_point_of(unit.base.moved_to(at[0], at[1]), unit_data(unit).formation)
    return point_polygon_distance(officer.base.corners(), ref)


def in_command_radius(officer: Unit, unit: Unit, at: Point | None = None) -> bool:
    """Tertias and officers B: is ``unit`` (at ``at``, when given) within the officer's 8"
    command radius?"""
    return command_distance(officer, unit, at) <= COMMAND_RADIUS + 1e-9


def _reaches(officer: Unit, unit: Unit) -> bool:
    return in_command_radius(officer, unit)


def _highest(officers: Iterable[Unit]) -> Unit | None:
    """The highest ranking of ``officers`` (ties: the first by id)."""
    return min(officers, key=lambda o: (RANKS.index(unit_data(o).rank or "staff"), o.id), default=None)


def respond(tx: Tx, card: str, tests: Sequence[ResponseDie], table: ResponseTable, *, graded: bool,
            label: str | None = None) -> None:
    """Roll each die's D10 and record whether its units obey. An officer testing is
    called on: his value, read for the roll, is shown (section 22). ``label`` names the
    card and tertia in the dice's purpose (by default the card's name)."""
    for test in tests:
        officer = test.officer
        if officer is not None and graded:
            secret_grades.called_on(tx, (officer,), secret_grades.COMMAND, deciding=test.units)
            officer = tx.state.units[officer.id]
        who = "without officer" if officer is None else f"under {officer.label}"
        face = tx.roll(D10, f"command response: {label or card_label(tx.state, card)}, {who}")
        obeyed = table.responds(line_for(officer, graded=graded), face)
        tx.emit(CommandResponded(card=card, officer=None if test.officer is None else test.officer.id,
                                 units=test.units, face=face, obeyed=obeyed))
        if obeyed:
            end_falling_back(tx, test.units)


def end_falling_back(tx: Tx, units: Iterable[str]) -> None:
    """Special rules B: falling back "continues until the unit passes its next command
    response role": those of ``units`` falling back are so no more (they stay disordered
    until that is removed in its own way)."""
    for unit_id in units:
        if unit_data(tx.state.units[unit_id]).falling_back:
            change(tx, unit_id, "passes its command response and ends its fall back", falling_back=False)
