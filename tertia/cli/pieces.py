"""A piece named at the command line: by the name players read (as ``tertia inspect``
lists it), in any case, or by the first words of that name where only one piece has
them, or by words within it (a colonel's name: "Lunsford") where only one piece's name
has them, or by its id in the record."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence

from tertia.core.narration import agree, is_plural_name
from tertia.core.state import GameState, Unit


class UnknownPiece(ValueError):
    """No piece, or more than one, answers to a name; the message says which are near."""


def piece_id(state: GameState, called: str) -> str:
    """The id of the one piece of ``state`` that ``called`` names: its id, its whole name
    (any case), the start of its name where no other piece's starts so, or else words
    within it, from the start of a word, where no other piece's name has them.

    >>> from tertia.core.state import GameState, Unit, UnitKind
    >>> foot = Unit("p1", "parliament", UnitKind.FOOT, "c", 0, 0, 0, 4, 2, name="Hollis's Foot")
    >>> horse = Unit("p2", "parliament", UnitKind.HORSE, "c", 9, 0, 0, 4, 2, name="Holles's Horse")
    >>> state = GameState(("parliament", "royalist"), 1, "parliament", "movement", {"p1": foot, "p2": horse})
    >>> piece_id(state, "hollis's foot"), piece_id(state, "Holles"), piece_id(state, "p1")
    ('p1', 'p2', 'p1')
    >>> piece_id(state, "Hol")
    Traceback (most recent call last):
    ...
    tertia.cli.pieces.UnknownPiece: 'Hol' could be Holles's Horse or Hollis's Foot

    A name opening with "The" may be given without it, as the narrative tells it within a
    sentence ("charges the Duke of York's Regiment of Foot"):

    >>> duke = Unit("r1", "royalist", UnitKind.FOOT, "c", 0, 9, 0, 4, 2, name="The Duke of York's Foot")
    >>> piece_id(state.with_unit(duke), "duke of york")
    'r1'

    Words within a name, from the start of a word, name the one piece that has them:

    >>> piece_id(state.with_unit(duke), "york"), piece_id(state, "horse")
    ('r1', 'p2')
    >>> piece_id(state, "ollis")
    Traceback (most recent call last):
    ...
    tertia.cli.pieces.UnknownPiece: no piece is called 'ollis'; did you mean Hollis's Foot?
    """
    if called in state.units:
        return called
    return piece_among(list(state.iter_units(include_removed=True)), called)


def piece_among(pieces: Sequence[Unit], called: str) -> str:
    """The id of the one of ``pieces`` that ``called`` names, as :func:`piece_id` finds it."""
    if any(u.id == called for u in pieces):
        return called
    wanted = called.strip().casefold()
    for found in ([u for u in pieces if u.label.casefold() == wanted],
                  [u for u in pieces if u.label.casefold().startswith(wanted)],
                  [u for u in pieces if _without_the(u.label).casefold().startswith(wanted)],
                  [u for u in pieces if _has_words(u.label, wanted)]):
        if len(found) == 1:
            return found[0].id
        if len(found) > 1:
            raise UnknownPiece(f"{called!r} could be {_either(found)}")
    near = difflib.get_close_matches(called, [u.label for u in pieces], n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(near)}?" if near else " (tertia inspect lists every piece)"
    raise UnknownPiece(f"no piece is called {called!r}{hint}")


def _has_words(name: str, wanted: str) -> bool:
    """Does ``name`` hold ``wanted`` (folded) from the start of one of its words?"""
    return re.search(r"(?<!\w)" + re.escape(wanted), name.casefold()) is not None


def _without_the(name: str) -> str:
    """A name without its opening "The", if it has one."""
    return name[4:] if name.casefold().startswith("the ") else name


def _either(pieces: Iterable[Unit]) -> str:
    names = sorted(u.label for u in pieces)
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


def refused(message: object, state: GameState) -> str:
    """A refusal (a rule's violation) as a person reads it: one that opens with a piece
    whose name is in the plural takes its verb in the plural ("Wardlawe's Dragoons are
    60.4\" from ..."), as the narrative agrees its sentences (a commander is one man,
    whatever his name)."""
    names = {u.label for u in state.units.values() if not u.is_commander and is_plural_name(u.label)}
    return agree(str(message), sorted(names, key=lambda n: (-len(n), n)), opening=True)
