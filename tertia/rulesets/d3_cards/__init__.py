"""D3 ECW Wargaming Rules, the earlier version (engine id ``d3-cards``).

A shuffled deck of ten unit-type cards, five a side, drawn one at a time; the units of
the type drawn move (in straight lines), shoot and melee; ammunition-shortage markers
accumulate; guns roll their range; commanders rally; units rout on exceeding eight hits.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from tertia.core.actions import Action
from tertia.core.ai_spec import AiSpec
from tertia.core.presentation import redeclared
from tertia.core.ruleset import OptionSpec, Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.core.violations import CoreCode, Violation
from tertia.core.vocabulary import ActionKind, PanelKind
from tertia.rules.hits import piece
from tertia.rulesets.d3 import weather
from tertia.rulesets.d3.base import COMMON_OPTIONS, D3RuleSet, MeleeRules, ShootingRules
from tertia.rulesets.d3.movement import MoveRules
from tertia.rulesets.d3.presentation import CARD, RALLIES, SHORTAGE_MARKERS, D3Presentation
from tertia.rulesets.d3_cards import clauses, commanders, placement, sequence, vocabulary
from tertia.rulesets.d3_cards import melee as melee_rules
from tertia.rulesets.d3_cards import shooting as own_shooting
from tertia.rulesets.d3_cards.data import D3CardsData

CARD_OF_KIND = {
    UnitKind.HORSE: "horse",
    UnitKind.FOOT: "foot",
    UnitKind.DRAGOONS: "dragoons",
    UnitKind.ARTILLERY: "artillery",
    UnitKind.COMMANDER: "commander",
}


MOST_RALLIES = 5
"""The most rallies a commander may have: the option's highest, and an inspirational
commander's under ``rallies_by_value``."""


class D3CardsPresentation(D3Presentation):
    """d3-cards' pieces: a card of each troop type (Commanded Shot on the foot's or the
    dragoons' by option), ammunition as the shortage markers a unit carries."""

    FACTS = redeclared(D3Presentation.FACTS, replace(CARD, words=tuple(CARD_OF_KIND.values())),
                       replace(RALLIES, most=MOST_RALLIES))


class D3Cards(D3RuleSet):
    GAME_DATA = D3CardsData
    id: ClassVar[str] = "d3-cards"
    PRESENTATION = D3CardsPresentation
    title: ClassVar[str] = "D3 ECW Wargaming Rules (earlier version)"
    short_title: ClassVar[str] = clauses.PREFIX
    version: ClassVar[str] = "1.1"
    CLAUSES = clauses.BOOK
    PURSUIT_FROM: ClassVar[int] = 4
    SHOOTING: ClassVar[ShootingRules] = own_shooting
    MELEE: ClassVar[MeleeRules] = melee_rules
    COMMANDER_IN_TOWN: ClassVar[bool] = False
    ACTION_KINDS: ClassVar[tuple[ActionKind, ...]] = vocabulary.ACTION_KINDS
    PANELS: ClassVar[tuple[PanelKind, ...]] = vocabulary.PANELS
    AI = AiSpec(proposer="tertia.rulesets.d3_cards.ai.proposals:iter_proposals",
                doctrine="tertia.rulesets.d3_cards.ai.doctrine2:D3CardsDoctrine2",
                baseline="tertia.rulesets.d3_cards.ai.doctrine:D3CardsDoctrine")
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        *COMMON_OPTIONS,
        OptionSpec("rallies", 4, "rallies a commander may attempt in a game", (3, 4, 5)),
        OptionSpec("rallies_by_value", False,
                   "inspirational commanders (value 2) have 5 rallies and poor ones (value 0) 3"),
        OptionSpec("commanded_shot_card", "foot",
                   "the card that activates Commanded Shot (the text has no card of their own)",
                   ("foot", "dragoons")),
        OptionSpec("woods_cover_shooting", True,
                   "woods give cover against shooting (Terrain Effects; Musketry names only "
                   "entrenchments and buildings)"),
        OptionSpec("hill_advantage", True,
                   "units defending a hill count as in cover in melee (the text's \"advantages\")"),
        OptionSpec("d3_cards_pivots", "one",
                   "\"pivot on their centre at the start or end of their movement\": one pivot a "
                   "move, or one at each end", ("one", "both")),
    )

    def begin(self, tx: Tx) -> None:
        weather.settle_weather(tx, str(self.option("weather")))
        sequence.start_turn(tx, 1, self.has_units)

    # --- the rule set's own actions ----------------------------------------------------------

    def validate_special(
        self, table: Battlefield, state: GameState, action: Action
    ) -> list[Violation] | None:
        if not isinstance(action, commanders.Rally):
            return None
        if state.pending is not None or state.phase != "activation":
            return [Violation(CoreCode.WRONG_PHASE, "commanders rally when their card is played",
                              clauses.RALLY)]
        own = self._unit_problems(state, (action.commander,)) if action.commander in state.units else []
        return own or commanders.validate(state, action, self.options)

    def resolve_special(self, tx: Tx, action: Action) -> bool:
        if isinstance(action, commanders.Rally):
            commanders.resolve(tx, action)
            return True
        return False

    # --- hooks -------------------------------------------------------------------------------

    def card_of(self, unit: Unit) -> str:
        if unit.kind is UnitKind.COMMANDED_SHOT:
            return str(self.option("commanded_shot_card"))
        return CARD_OF_KIND[unit.kind]

    def has_units(self, state: GameState, side: str, card: str) -> bool:
        return any(self.card_of(u) == card for u in state.iter_units(side))

    def move_rules(self) -> MoveRules:
        return MoveRules(
            clauses=clauses.BOOK, pivot_cost=0.0, pivot_cost_each=False, straight_line=True,
            commanders_move=True, towns_closed_to_others=False, one_unit_per_town=True,
            charge_limit="target", charge_tolerance=float(self.option("charge_tolerance")),
            max_pivots=1 if self.option("d3_cards_pivots") == "one" else 2,
            forward_from=str(self.option("forward_judged_from")),
        )

    def position_problems(self, table: Battlefield, state: GameState) -> list[tuple[str, str]]:
        """One unit a town; no gun or commander already touching the enemy."""
        return [*placement.town_problems(table, state), *placement.contact_problems(state)]

    def on_contact(self, tx: Tx, mover: Unit, touched: list[Unit]) -> None:
        melee_rules.eliminate_on_contact(tx, mover, touched)

    def end_activation(self, tx: Tx) -> None:
        sequence.end_activation(tx, self.has_units)

    # --- reports -----------------------------------------------------------------------------

    def ammunition_report(self, state: GameState, unit: Unit) -> dict[str, Any]:
        if unit.kind is UnitKind.HORSE:
            return {"ammunition": "n/a"}
        n = piece(unit).ammo_markers
        return {"ammunition": f"{n} shortage marker{'s' if n != 1 else ''}", SHORTAGE_MARKERS: n}

    def commander_report(self, state: GameState, unit: Unit) -> dict[str, Any]:
        return {"rallies_left": commanders.rallies_left(state, unit, self.options),
                "rallies_allowed": commanders.rallies_allowed(unit, self.options)}
