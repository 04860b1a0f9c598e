"""What a piece shows under a rule set that counts hits (``larger-battles``,
``d3-commands``, ``d3-cards``): the facts each of them declares alike, and how they read
from :class:`~tertia.rules.hit_values.HitsPiece`.

>>> from tertia.core.state import Unit, UnitKind
>>> foot = Unit("f", "parl", UnitKind.FOOT, "centre", 0, 0, 0, 4, 2, own=HitsPiece(hits=2))
>>> [f.text(spec) for f, spec in zip(hits_facts(foot, 4), (HITS,))]
['Hits 2 of 4']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tertia.core.presentation import Fact, FactKind, FactSpec
from tertia.core.scenario import MOST_COMMANDER_VALUE
from tertia.core.state import GameState, Unit
from tertia.rules.hit_values import HitsPiece
from tertia.rules.pieces import piece

__all__ = [
    "FIRED",
    "GENERAL",
    "HITS",
    "OUT_OF_AMMUNITION",
    "VALUE",
    "HitsPiece",
    "commander_facts", "commander_title",
    "hits_facts",
    "names_of",
]

HITS = FactSpec("hits", "Hits", FactKind.COUNT,
                "Hits taken against the hit limit: at the limit the unit routs", on_base=True)
OUT_OF_AMMUNITION = FactSpec("out_of_ammunition", "Out of ammunition", FactKind.BADGE,
                             "The unit has run out of ammunition", glyph="∅", on_base=True)
FIRED = FactSpec("fired", "Has fired", FactKind.BADGE, "The gun has fired and may now only pivot",
                 glyph="✹", on_base=True)
GENERAL = FactSpec("general", "General", FactKind.BADGE, "The army's general, its commander-in-chief",
                   glyph="G", on_base=True)
VALUE = FactSpec("value", "Value", FactKind.WORD, "The commander's value", most=MOST_COMMANDER_VALUE)
MOVED = FactSpec("moved", "Moved this turn", FactKind.BADGE, "It has moved this turn", glyph="✓",
                 on_base=True)
FOUGHT = FactSpec("fought", "Fought this turn", FactKind.BADGE, "It has fought (or shot) this turn",
                  glyph="⚔", on_base=True)


def turn_facts(state: GameState, unit: Unit, fought_marks: Sequence[str]) -> list[Fact]:
    """Whether the unit has moved, and fought (any of ``fought_marks``), this player turn."""
    return [Fact(MOVED.key, state.is_marked("moved", unit.id)),
            Fact(FOUGHT.key, any(state.is_marked(m, unit.id) for m in fought_marks))]


def hits_facts(unit: Unit, limit: int | None, why: Sequence[str] = ()) -> list[Fact]:
    """A troop's hits against its hit limit (with what raised it), and whether it has
    fired or run out of ammunition."""
    own = piece(unit)
    note = "; ".join(why) or None
    return [
        Fact(HITS.key, own.hits, limit=limit, note=note),
        Fact(OUT_OF_AMMUNITION.key, own.out_of_ammo),
        Fact(FIRED.key, own.fired),
    ]


def commander_facts(unit: Unit) -> list[Fact]:
    """A commander's value, and whether he is the army's general."""
    own = piece(unit)
    return [Fact(GENERAL.key, own.general), Fact(VALUE.key, own.value)]


def commander_title(unit: Unit) -> str:
    """A commander's rank before his name in the narrative: the army's general, or a
    commander."""
    return "General" if piece(unit).general else "Commander"


def names_of(state: GameState, ids: Iterable[str]) -> str | None:
    """Pieces by their names, in a line; None for none."""
    names = [state.units[i].label if i in state.units else i for i in ids]
    return ", ".join(names) or None
