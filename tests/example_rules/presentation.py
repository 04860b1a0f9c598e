"""What the example slice's pieces show: one fact of every kind, under keys no built-in
rule set uses, so that the front ends' tests find each kind drawn (and the hidden one
kept from the other side)."""

from __future__ import annotations

from typing import Any

from tertia.activation import deck
from tertia.core.hidden import is_hidden
from tertia.core.presentation import (
    Ending,
    Fact,
    FactKind,
    FactSpec,
    Panel,
    PanelContext,
    PanelItem,
    PanelSection,
    Presentation,
)
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.rules.formations import FORMATIONS
from tests.example_rules.combat import ARTILLERY_POINTS, POINTS
from tests.example_rules.data import DEFAULT_STANDS, MOST_STANDS, RULE, game_data, piece
from tests.example_rules.sequence import NO_UNITS_LEFT, TURN_LIMIT
from tests.example_rules.vocabulary import MUSTER

MOST_MORALE = max(points for table in (POINTS, ARTILLERY_POINTS) for _, points in table.steps)
"""The most morale points a unit has: the best first test (points are only ever lost)."""

EX_STANDS = FactSpec("ex_stands", "Divisions", FactKind.COUNT,
                     "Divisions left of those the regiment took the field with", RULE, on_base=True,
                     most=MOST_STANDS)
EX_TALLY = FactSpec("ex_tally", "Resolve", FactKind.PIPS, "Morale points left, once tested", RULE,
                    most=MOST_MORALE)
EX_TESTED = FactSpec("ex_tested", "Blooded", FactKind.FLAG, "Its morale has been tested", RULE)
EX_COLOURS = FactSpec("ex_colours", "Colours raised", FactKind.BADGE, "Its card is the one drawn", RULE,
                      glyph="⚐", on_base=True)
EX_ORDER = FactSpec("ex_order", "Array", FactKind.WORD, "Its formation", RULE, on_base=True,
                    words=tuple(FORMATIONS))
EX_CHOSEN = FactSpec("ex_chosen", "Chosen for the free move", FactKind.HIDDEN,
                     "Its side's secret choice for the free-move card", RULE, glyph="✦", on_base=True)

ARRAY_MARKS = {"column": "Col", "hedgehog": "Hh"}


def card_words(state: GameState, card: str) -> str:
    """A deck's card as players call it: the unit it activates, or the special card."""
    found = deck.read_card(card)
    if found.kind == deck.UNIT and found.name in state.units:
        return state.units[found.name].label
    return found.name.replace("_", " ") + " card"


class ExamplePresentation(Presentation):
    """The example slice's pieces and position as the front ends show them."""

    FACTS = (EX_STANDS, EX_TALLY, EX_TESTED, EX_COLOURS, EX_ORDER, EX_CHOSEN)
    FIRST_MOVER = False  # one deck of both sides' cards decides who acts
    ENDINGS = (Ending("a side had no units left", NO_UNITS_LEFT, decided=True),
               Ending("the turn limit was reached", TURN_LIMIT, decided=False))

    def facts(self, table: Battlefield, seen: GameState, unit: Unit, viewer: str | None) -> list[Fact]:
        if unit.kind is UnitKind.COMMANDER:
            return []
        own = piece(unit)
        game = game_data(seen)
        chosen = any(u == unit.id and not is_hidden(u) for s, u in game.free_move if s == unit.side)
        return [
            Fact(EX_STANDS.key, own.stands_left, limit=own.stands_start or DEFAULT_STANDS[unit.kind]),
            Fact(EX_TALLY.key, own.morale),
            Fact(EX_TESTED.key, own.morale is not None),
            Fact(EX_COLOURS.key, game.activated == unit.id),
            Fact(EX_ORDER.key, own.formation, words=f"in {own.formation}",
                 glyph=ARRAY_MARKS.get(own.formation)),
            Fact(EX_CHOSEN.key, chosen),
        ]

    def panel(self, name: str, seen: GameState, context: PanelContext) -> Panel:
        """The muster: the unit the viewer's free-move card goes to (the enemy's choice
        face down), and how many cards are left to draw."""
        if name != MUSTER:
            return Panel()
        viewer = context.viewer
        game = game_data(seen)
        chosen = []
        for side, unit in game.free_move:
            if is_hidden(unit) or side != viewer:
                chosen.append(PanelItem("a unit chosen in secret", side=side, state="back"))
            elif unit in seen.units:
                chosen.append(PanelItem(seen.units[unit].label, side=side, state="active", unit=unit))
        left = len(game.deck_left)
        return Panel((
            PanelSection("ex-free-move", tuple(chosen), "list", title="Free-move cards",
                         note=None if chosen else "Not yet given this turn."),
            PanelSection("ex-cards-left", (PanelItem(f"{left} card{'' if left == 1 else 's'} left to draw"),),
                         "lines"),
        ))

    def card_of(self, unit: Unit) -> str | None:
        return None if unit.kind is UnitKind.COMMANDER else deck.unit_card(unit.id)

    def summary(self, state: GameState) -> dict[str, Any]:
        g = game_data(state)
        return {"card": card_words(state, g.card) if g.card else "", "cards_left": len(g.deck_left)}
