"""Officers' values kept from the enemy until first called on (section 22).

Section 22: "randomly assign values to officers ... Keep their values under a note and only
reveal them to the enemy when the officer is first called on to exert himself." Read so:

- Each value is rolled at the start (:func:`roll_grade`, from
  :func:`~tertia.rulesets.charge_yr_pikes.sequence.roll_grades`) under the note: the D6
  and the value (:class:`GradeRolled`) are seen by the officer's own side only. A grade the
  scenario fixes is no secret (both sides read the scenario), nor is any value with the
  option ``officer_grades`` off (none is rolled).
- He is "called on to exert himself" the first time his value is read for a roll
  (:func:`called_on`): a command response he tests (his grade's D10 "no move" faces), a
  morale test of the unit whose front rank he is in (his bonus: fire, charges, close
  combat, rallying, any test), a close combat it fights (his dice), its
  plunder obedience or return roll (his bonus). Every die is rolled on the open table, so
  the test of his own side's command response shows his value to the enemy as well. His
  value is shown (:class:`GradeRevealed`, seen by both sides) before that die is rolled,
  whether or not it happens to change the result: the player looks under the note either
  way. His presence alone reads no value and shows nothing (the +1 an officer gives a
  unit's or a battery's fire, the 50% test he spares his unit, the caracole's officer).
- An officer still hidden from the enemy (noted on his side's map, not yet placed on the
  table: Sequence of play B) is called on out of the enemy's sight, and the enemy sees
  neither him nor his dice: his value stays under the note, to be shown the first time he
  is called on once placed.
- Until then the enemy's observation (:func:`hide`) holds a placeholder for the grade,
  and nothing else there carries it (the roll and :class:`GradeRolled` are out of its
  log, :func:`carries_secret`). A player of that side tries its actions on a sample
  (:func:`sample`): each placeholder drawn on the officer's rank's line of ``tables.toml
  [officer_grades]``, as the roll itself is.
- A position that still holds a placeholder (a side's observation asked for odds:
  :func:`as_dice`) rolls it on that same line where the value is first read, so exact
  odds average over the grade, as they do over a morale rating not yet tested. The real
  game never meets a placeholder.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from tertia.core.dice import D6
from tertia.core.events import DiceRolled, Event
from tertia.core.hidden import as_view, hidden, is_hidden, view_of, without_view_mark
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes.data import CypUnit
from tertia.rulesets.charge_yr_pikes.tables import Tables, tables_with
from tertia.rulesets.charge_yr_pikes.values import game_data, graded_in_secret, is_placeholder, unit_data

PLACEHOLDER = hidden("officer grade")
"""What the enemy sees of a grade not yet revealed."""
ROLL = "officer's value"
"""The start of a grade roll's purpose; the officer's side follows in brackets."""

COMMAND = "command response"
MORALE = "morale test"
CLOSE_COMBAT = "close combat"
PLUNDER = "plunder"
"""The rolls an officer's value is read for (the ``why`` of :class:`GradeRevealed`)."""


# --- events ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GradeRolled(Event):
    """``officer`` of ``side`` has the value ``grade``, rolled under the note (``secret``:
    the enemy may not see it)."""

    type: ClassVar[str] = "cyp_grade_rolled"
    officer: str
    side: str
    grade: str
    secret: bool = True


@handles(GradeRolled)
def _rolled(s: GameState, e: GradeRolled) -> GameState:
    return s.with_unit(s.units[e.officer].evolve(grade=e.grade, grade_secret=e.secret))


@dataclass(frozen=True, slots=True)
class GradeRevealed(Event):
    """``officer`` of ``side`` is first called on (``why``: the roll his value is read
    for): his value ``grade`` is shown to the enemy."""

    type: ClassVar[str] = "cyp_grade_revealed"
    officer: str
    side: str
    grade: str
    why: str


@handles(GradeRevealed)
def _revealed(s: GameState, e: GradeRevealed) -> GameState:
    return s.with_unit(s.units[e.officer].evolve(grade_secret=False))


# --- rolling and revealing -------------------------------------------------------------------


@lru_cache(maxsize=16)
def _lines(replacements: str) -> Mapping[str, tuple[str, ...]]:
    return _as_lines(tables_with(json.loads(replacements)))


def _as_lines(tables: Tables) -> Mapping[str, tuple[str, ...]]:
    return {str(rank): tuple(line) for rank, line in tables.officer_grades.items()}


def grade_line(state: GameState, officer: Unit, tables: Tables | None = None) -> tuple[str, ...]:
    """The D6 line an officer's value is rolled on: his rank's (a staff officer rolls as a
    brigadier, section 22), from ``tables`` (by default the game's)."""
    lines = _as_lines(tables) if tables is not None else _game_lines(state)
    rank = unit_data(officer).rank or "staff"
    return lines[rank if rank in lines else "brigadier"]


def _game_lines(state: GameState) -> Mapping[str, tuple[str, ...]]:
    """The game's lines, found once for a state (a player's view draws every hidden
    value on them before each decision)."""
    found: Mapping[str, tuple[str, ...]] | None = state.cache.get(_GAME_LINES)
    if found is None:
        found = state.cache[_GAME_LINES] = _lines(json.dumps(game_data(state).tables, sort_keys=True))
    return found


_GAME_LINES = "cyp officer grade lines"


def grade_on(line: tuple[str, ...], face: int) -> str:
    """The value ``line`` gives for a D6 ``face``. The face is compared with where each run
    of one value ends (never used as an index), so exact odds walk one branch per value."""
    for end in range(1, len(line) + 1):
        if (end == len(line) or line[end] != line[end - 1]) and face <= end:
            return line[end - 1]
    raise ValueError(f"no value for a face of {int.__int__(face)} on {line}")


def roll_purpose(officer: Unit) -> str:
    """A grade roll's purpose, naming the officer's side (which alone may see it)."""
    return f"{ROLL} ({officer.side}): {officer.label}"


def roll_grade(tx: Tx, officer_id: str, tables: Tables | None = None, *, secret: bool = True) -> str:
    """Section 22 A: "randomly assign values to officers ... with a D6 roll" on his rank's
    line of ``tables`` (by default the game's); ``secret``, under the note. Returns the
    value."""
    officer = tx.state.units[officer_id]
    face = tx.roll(D6, roll_purpose(officer))
    grade = grade_on(grade_line(tx.state, officer, tables), face)
    tx.emit(GradeRolled(officer=officer_id, side=officer.side, grade=grade, secret=secret))
    return grade


def called_on(tx: Tx, officers: Iterable[Unit | str], why: str, *, deciding: Iterable[str] = ()) -> None:
    """Section 22: each of ``officers`` is "called on to exert himself": his value is about
    to be read for a roll (``why``). A value still a placeholder (a position built from a
    side's observation) is rolled on his rank's line first; a value not yet revealed is
    shown to the enemy now, unless the roll is out of its sight: he is hidden from it (not
    yet placed on the table) and so is one of the units the roll decides for
    (``deciding``; a command response of units all in the enemy's sight is rolled in the
    open, wherever their officer stands). Call before reading the grades for the roll."""
    deciding = tuple(deciding)
    units_seen = bool(deciding) and all(unit_data(tx.state.units[u]).placed is not False for u in deciding)
    for officer in officers:
        officer_id = officer if isinstance(officer, str) else officer.id
        own = unit_data(tx.state.units[officer_id])
        if is_hidden(own.grade):
            roll_grade(tx, officer_id)
            own = unit_data(tx.state.units[officer_id])
        if own.grade_secret and own.grade is not None and (own.placed is not False or units_seen):
            tx.emit(GradeRevealed(officer=officer_id, side=tx.state.units[officer_id].side,
                                  grade=own.grade, why=why))


def is_secret_from(unit: Unit, viewer: str) -> bool:
    """Is ``unit`` an officer whose value ``viewer`` may not see? (Asked of a side's
    view, a hidden piece's ``grade_secret`` is itself a placeholder, and its grade already
    one: so observing an observation changes nothing.)"""
    return unit.side != viewer and unit_data(unit).grade_secret is True


# --- what each side sees ---------------------------------------------------------------------


def secret_officers(state: GameState, viewer: str) -> list[Unit]:
    """The officers whose value ``viewer`` may not see (:func:`is_secret_from`, written
    out: it is asked before every decision of a player)."""
    return [u for u in state.units.values() if u.side != viewer and unit_data(u).grade_secret is True]


def hides_from(state: GameState, viewer: str) -> bool:
    """Does ``state`` hold a value ``viewer`` may not see: does :func:`hide` change it?"""
    return any(u.side != viewer and unit_data(u).grade_secret is True for u in state.units.values())


def hide(state: GameState, viewer: str) -> GameState:
    """``state`` with every enemy officer's unrevealed value a placeholder, marked as
    ``viewer``'s view; ``state`` itself when there is none."""
    secret = secret_officers(state, viewer)
    if not secret:
        return state
    return as_view(state.with_units(officer.evolve(own=_graded(unit_data(officer), PLACEHOLDER))
                                    for officer in secret), viewer)


def sample(observation: GameState, rng: random.Random) -> GameState:
    """``observation`` with each placeholder value drawn by ``rng`` as the roll draws it (a
    D6 on the officer's rank's line), in the order of the officers' ids; no longer marked
    as a view."""
    shown = observation
    for officer_id in sorted(u.id for u in observation.units.values() if is_placeholder(unit_data(u).grade)):
        officer = shown.units[officer_id]
        grade = grade_on(grade_line(shown, officer), rng.randint(1, 6))
        shown = shown.with_unit(officer.evolve(own=_graded(unit_data(officer), grade)))
    return without_view_mark(shown)


def hidden_and_sampled(state: GameState, viewer: str, rng: random.Random) -> GameState:
    """``sample(hide(state, viewer), rng)`` in one step: each officer whose value
    ``viewer`` may not see given a value drawn by ``rng`` as :func:`sample` draws it, in
    the order of the officers' ids; his own value is replaced, never read. No longer
    marked as a view."""
    secret = sorted(graded_in_secret(state.units.values(), viewer), key=_unit_id)
    drawn = [officer.evolve(own=_graded(unit_data(officer), grade_on(grade_line(state, officer),
                                                                      rng.randint(1, 6))))
             for officer in secret]
    return without_view_mark(state.with_units(drawn))


def _unit_id(unit: Unit) -> str:
    return unit.id


_GRADED: dict[tuple[int, str | None], tuple[CypUnit, CypUnit]] = {}
GRADED_KEPT = 1024
"""Officers' values with another grade kept ready, all forgotten when there are more. A
battle has a few dozen officers (two AI battles on Edgehill make 202, and find 95% of
their 4,220 asks kept); a server with a dozen such battles in play makes some 1,500 in
its first minute, so 1,024 (about 0.5 MiB) are full by then, where 4,096 took five
minutes to fill, to 2 MiB. Making one again takes some 10 µs."""


def _graded(own: CypUnit, grade: str | Mapping[str, str]) -> CypUnit:
    """``own`` with ``grade`` (a value or the placeholder). The same officer is hidden and
    sampled before every decision of a player, so each result is kept, under the values
    it was made from (held beside it: an id is only theirs while they live)."""
    if not isinstance(grade, str) and grade is not PLACEHOLDER:
        return own.evolve(grade=grade)
    key = (id(own), grade if isinstance(grade, str) else None)
    found = _GRADED.get(key)
    if found is not None and found[0] is own:
        return found[1]
    made = own.evolve(grade=grade)
    if len(_GRADED) >= GRADED_KEPT:
        _GRADED.clear()
    _GRADED[key] = (own, made)
    return made


def carries_secret(event: Event, viewer: str) -> bool:
    """Does ``event`` carry a value ``viewer`` may not see: another side's grade rolled
    under the note, or the die it was rolled with?"""
    if isinstance(event, GradeRolled):
        return event.secret and event.side != viewer
    if isinstance(event, DiceRolled):
        return event.purpose.startswith(f"{ROLL} (") and not event.purpose.startswith(f"{ROLL} ({viewer}):")
    return False


def as_dice(state: GameState) -> GameState:
    """A side's observation made a position the rules may play on for odds: its
    placeholder values stay, each rolled where it is first read (:func:`called_on`). Only
    when they are all the observation hides: otherwise it is returned still a view, to be
    sampled first."""
    if view_of(state) is None:
        return state
    hides = state.cache.get(_HIDES_MORE)
    if hides is None:  # a side asks many questions of one observation: looked through once
        hides = state.cache[_HIDES_MORE] = _hides_more(state.to_dict())
    return state if hides else without_view_mark(state)


_HIDES_MORE = "cyp_hides_more_than_grades"
"""The key in ``GameState.cache`` of whether an observation hides more than officers' grades."""


def _hides_more(data: Any, *, in_grade: bool = False) -> bool:
    """Does the serialised state hold a placeholder other than an officer's grade?"""
    if is_hidden(data):
        return not in_grade
    if isinstance(data, Mapping):
        return any(_hides_more(v, in_grade=k == "grade") for k, v in data.items())
    if isinstance(data, list | tuple):
        return any(_hides_more(v) for v in data)
    return False
