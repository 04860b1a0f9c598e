"""What ``d3-commands`` tells front ends: the shared D3 actions, the secret order of the
command cards and the deployment procedure, each a decision with its own panel."""

from __future__ import annotations

from tertia.activation.command_cards import ORDER_KIND
from tertia.core.vocabulary import (
    COMMAND_CARDS,
    DEPLOYMENT,
    ActionKind,
    DecisionKind,
    FieldKind,
    FieldSpec,
    PanelKind,
)
from tertia.rulesets.d3.vocabulary import shared_action_kinds
from tertia.rulesets.d3_commands import clauses
from tertia.rulesets.d3_commands.deployment import KIND as DEPLOY_KIND

ACTION_KINDS: tuple[ActionKind, ...] = (
    *shared_action_kinds(clauses.BOOK),
    ActionKind(
        "order_cards", "Order the command cards", "Lay the command cards face down in this order",
        clauses.CARDS,
        (FieldSpec("order", "Cards, top first", FieldKind.CARD_ORDER, from_pending="cards"),),
        odds=False, decision=ORDER_KIND,
        help="Each side secretly orders one card per command; the initiative roll follows.",
    ),
    ActionKind(
        "deploy", "Deploy", "Deploy {unit}", clauses.DEPLOYMENT,
        (FieldSpec("unit", "Piece", FieldKind.OWN_UNIT, from_pending="units"),
         FieldSpec("x", "East (inches)", FieldKind.COORDINATE),
         FieldSpec("y", "North (inches)", FieldKind.COORDINATE),
         FieldSpec("facing", "Facing", FieldKind.FACING, optional=True, none_label="towards the enemy")),
        odds=False, decision=DEPLOY_KIND,
        help="One waiting piece placed by its own table edge, within the deployment zone.",
    ),
)

DECISION_KINDS: tuple[DecisionKind, ...] = (
    DecisionKind(ORDER_KIND, "Command card order",
                 "Orders: lay your command cards face down in the order you will play them.",
                 "order_cards", clauses.CARDS, COMMAND_CARDS, made="lay {choice}"),
    DecisionKind(DEPLOY_KIND, "Deployment",
                 "Deployment, {step} step: place each of {units} by your own table edge, within "
                 "the deployment zone.",
                 "deploy", clauses.DEPLOYMENT, DEPLOYMENT),
)

PANELS: tuple[PanelKind, ...] = (
    PanelKind(COMMAND_CARDS, "Command cards",
              "Your cards in the order laid (played ones struck through), the other side's as "
              "face-down backs, and the command now active.", "order_cards"),
    PanelKind(DEPLOYMENT, "Deployment", "The piece to place next: click the table where it should stand.",
              "deploy"),
)
