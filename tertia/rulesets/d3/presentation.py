"""What a piece and the position show under the D3 rule sets (``d3-commands``,
``d3-cards``): hits against the rout limit (Hits: a unit routs after its limit), the card
that activates it, ammunition, impetuous horse, enemies in contact, a commander's value
and rallies; the field of fire drawn round a piece; the score, the weather and the card in
play."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol, cast

from tertia.activation import unit_type_deck
from tertia.activation.command_cards import card_words
from tertia.activation.panels import command_cards_panel, type_deck_panel
from tertia.core.events import Event
from tertia.core.geometry import base_distance
from tertia.core.presentation import Fact, FactKind, FactSpec, Panel, PanelContext, Presentation
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.core.vocabulary import COMMAND_CARDS, DECK
from tertia.rules.hit_facts import (
    FIRED,
    FOUGHT,
    GENERAL,
    HITS,
    MOVED,
    VALUE,
    commander_facts,
    commander_title,
    hits_facts,
    names_of,
    turn_facts,
)
from tertia.rules.sight import has_line_of_sight
from tertia.rules.victory import ENDED_AT_TURN_LIMIT, ENDED_WIPED_OUT
from tertia.rulesets.d3 import shooting
from tertia.rulesets.d3.clauses import ClauseBook
from tertia.rulesets.d3.contact import enemy_contacts
from tertia.rulesets.d3.data import activation_of
from tertia.rulesets.d3.hits import rout_after
from tertia.rulesets.d3.troops import is_impetuous


class D3Rules(Protocol):
    """What the presentation asks of a D3 rule set (``D3RuleSet``'s hooks)."""

    @property
    def options(self) -> Mapping[str, Any]: ...

    @property
    def CLAUSES(self) -> ClauseBook: ...

    def card_of(self, unit: Unit) -> str: ...

    def commander_report(self, state: GameState, unit: Unit) -> dict[str, Any]: ...

    def ammunition_report(self, state: GameState, unit: Unit) -> dict[str, Any]: ...

    def zones(self, state: GameState, unit: Unit) -> list[dict[str, Any]]: ...

    def shot_reach(self, table: Battlefield, state: GameState, unit: Unit) -> float: ...

    def position(self, state: GameState) -> dict[str, Any]: ...

CARD = FactSpec("card", "Card", FactKind.WORD, "The card that activates it")
AMMUNITION = FactSpec("ammunition", "Ammunition", FactKind.WORD, "Its ammunition as things stand")
IMPETUOUS = FactSpec("impetuous", "Impetuous", FactKind.BADGE, "Horse that must charge an enemy in reach",
                     glyph="!", on_base=True)
TRAITS = FactSpec("traits", "Traits", FactKind.WORD, "What sets the unit apart")
ENGAGED = FactSpec("engaged", "In contact with", FactKind.WORD, "Enemy units in contact")
RALLIES = FactSpec("rallies_left", "Rallies left", FactKind.COUNT, "Rallies the commander may still make")


FOUGHT_MARKS = ("meleed", "shot")

SHORTAGE_MARKERS = "shortage_markers"
"""The key of an ammunition report giving the unit's ammunition as a number of markers."""


def ammunition_fact(report: Mapping[str, Any]) -> Fact:
    """A unit's ammunition from its rule set's report: its state in words ("out", "never
    short"), or the number of shortage markers it carries, told in the report's words
    ("1 shortage marker"); none where ammunition does not apply ("n/a")."""
    words = report.get("ammunition")
    if words in (None, "n/a"):
        return Fact(AMMUNITION.key, None)
    markers = report.get(SHORTAGE_MARKERS)
    return Fact(AMMUNITION.key, words) if markers is None else Fact(AMMUNITION.key, markers, words=words)


class D3Presentation(Presentation):
    """The D3 rule sets' pieces and position as their front ends show them."""

    FACTS: tuple[FactSpec, ...] = (HITS, FIRED, MOVED, FOUGHT, CARD, AMMUNITION, IMPETUOUS, TRAITS, ENGAGED,
                                   GENERAL, VALUE, RALLIES)
    SHARED_TURNS = True
    """Both sides act in every turn, a card (a command card, or a card from the one deck)
    at a time (Sequence of Play)."""
    ENDINGS = (ENDED_WIPED_OUT, ENDED_AT_TURN_LIMIT)

    def opens_turn(self, event: Event) -> bool:
        """Sequence of Play (D3 cards): "When every card has been drawn the deck is
        shuffled for the next turn": the turn begins as its deck is gathered, before its
        first card finds a side to act, so it is headed before that card is drawn."""
        return unit_type_deck.gathered(event)

    @property
    def rules(self) -> D3Rules:
        return cast(D3Rules, self.ruleset)

    def facts(self, table: Battlefield, seen: GameState, unit: Unit, viewer: str | None) -> Iterable[Fact]:
        rules = self.rules
        card = Fact(CARD.key, rules.card_of(unit), words=card_words(rules.card_of(unit)))
        if unit.is_commander:
            out = [*commander_facts(unit), card]
            report = rules.commander_report(seen, unit)
            if "rallies_left" in report:
                out.append(Fact(RALLIES.key, report["rallies_left"], limit=report.get("rallies_allowed")))
            return out
        limit = rout_after(rules.options) + 1
        out = [fact for fact in hits_facts(unit, limit) if fact.key != "out_of_ammunition"]
        out += turn_facts(seen, unit, FOUGHT_MARKS)
        impetuous = is_impetuous(seen, unit, rules.options)
        traits = [t.replace("_", " ") for t in unit.traits if not (impetuous and t == IMPETUOUS.key)]
        out += [
            card,
            ammunition_fact(rules.ammunition_report(seen, unit)),
            Fact(IMPETUOUS.key, impetuous),
            Fact(TRAITS.key, ", ".join(traits) or None),  # a trait its own badge shows is not said twice
        ]
        if unit.in_play:
            out.append(Fact(ENGAGED.key, names_of(seen, (e.id for e in enemy_contacts(seen, unit)))))
        return out

    def title(self, seen: GameState, unit: Unit) -> str | None:
        return commander_title(unit)

    def overlays(self, table: Battlefield, seen: GameState, unit_id: str) -> dict[str, Any]:
        """The 45-degree field of fire to the unit's range, with line of sight to enemies
        within it, and the rule set's own zones."""
        rules = self.rules
        u = seen.units[unit_id]
        arcs: list[dict[str, Any]] = []
        sight: list[dict[str, Any]] = []
        if u.kind is UnitKind.ARTILLERY or (not u.is_commander and u.kind is not UnitKind.HORSE):
            reach = rules.shot_reach(table, seen, u)
            arcs.append({"half_angle": shooting.FIELD_OF_FIRE, "reach": reach,
                         "label": f"{reach:g}\" range, 45-degree field of fire",
                         "rule": rules.CLAUSES.shooting_range})
            for e in seen.iter_troops(seen.opponent(u.side)):
                if base_distance(u.base, e.base) <= reach:
                    sight.append({"target": e.id, "clear": has_line_of_sight(table, seen, u, e)})
        return {"zones": rules.zones(seen, u), "arcs": arcs, "sight": sight}

    def panel(self, name: str, seen: GameState, context: PanelContext) -> Panel:
        """The command cards (d3-commands) or the deck of troop-type cards (d3-cards),
        with the command or type now activated (Sequence of Play)."""
        if name == COMMAND_CARDS:
            return command_cards_panel(seen, context, activation_of(seen), self.card_of)
        if name == DECK:
            return type_deck_panel(seen, context, activation_of(seen))
        return Panel()

    def card_of(self, unit: Unit) -> str | None:
        return self.rules.card_of(unit)

    def summary(self, state: GameState) -> dict[str, Any]:
        """The score so far (Victory), units lost, the weather and the card in play
        (``active_card``, ``None`` between activations), and what the rule set adds."""
        return self.rules.position(state)
