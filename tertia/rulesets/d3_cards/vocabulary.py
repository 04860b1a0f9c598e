"""What ``d3-cards`` tells front ends: the shared D3 actions, the commander's rally, and
the deck of unit-type cards."""

from __future__ import annotations

from tertia.core.vocabulary import DECK, ActionKind, FieldKind, FieldSpec, PanelKind
from tertia.rulesets.d3.base import ACTIVATION
from tertia.rulesets.d3.vocabulary import shared_action_kinds
from tertia.rulesets.d3_cards import clauses

RALLY = ActionKind(
    "rally", "Rally", "{commander} rallies {unit}", clauses.RALLY,
    (FieldSpec("commander", "Commander", FieldKind.OWN_COMMANDER),
     FieldSpec("unit", "Unit to rally", FieldKind.OWN_UNIT)),
    dice_driven=True, phases=(ACTIVATION,), subject="commander", target="unit",
    help="On the Commander card, the commander joins a unit and removes a D3 of its hits "
         "(one less in melee); a few rallies a game.",
)

ACTION_KINDS: tuple[ActionKind, ...] = (*shared_action_kinds(clauses.BOOK), RALLY)

PANELS: tuple[PanelKind, ...] = (
    PanelKind(DECK, "The deck",
              "Ten unit-type cards, five a side, drawn one at a time: the cards still to draw "
              "this turn, those drawn, and the card in play."),
)
