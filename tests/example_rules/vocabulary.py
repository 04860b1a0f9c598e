"""What the example slice tells front ends: its actions, the decisions it awaits, and its
computer players."""

from __future__ import annotations

from tertia.core.ai_spec import AiSpec
from tertia.core.vocabulary import ActionKind, DecisionKind, FieldKind, FieldSpec, PanelKind
from tests.example_rules.data import ASSIGN_FREE_MOVE, COUNTERCHARGE, RULES_ID, STAND_OR_FIRE
from tests.example_rules.sequence import PHASE

R = f"{RULES_ID}: Declare Thee Sir"

ACTION_KINDS: tuple[ActionKind, ...] = (
    ActionKind(
        "declare_assign_free_move", "Give the free move", "Give the free-move card to {unit}",
        f"{R}, Game Play (event cards)",
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT, from_pending="units"),),
        odds=False, decision=ASSIGN_FREE_MOVE, help="Secretly: the other side sees only that you chose.",
    ),
    ActionKind(
        "declare_change_formation", "Change formation", "{unit} forms {formation}",
        f"{R}, Game Play option 1 and Formations",
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("formation", "Formation", FieldKind.CHOICE, choices=("line", "column", "hedgehog"))),
        odds=False, phases=(PHASE,), subject="unit",
    ),
    ActionKind(
        "declare_advance", "Advance", "Advance {unit}", f"{R}, Game Play option 2 and Movement",
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT), FieldSpec("waypoints", "Path", FieldKind.POINTS)),
        odds=False, phases=(PHASE,), subject="unit",
        help="The movement dice are rolled; the unit goes as far along the path as they allow.",
    ),
    ActionKind(
        "declare_charge", "Charge", "{unit} charges {target}", f"{R}, Melee a",
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT), FieldSpec("target", "Target", FieldKind.ENEMY_UNIT)),
        dice_driven=True, phases=(PHASE,), subject="unit", target="target",
        help="The target answers, and a friend of it may countercharge, before the melee.",
    ),
    ActionKind(
        "declare_respond", "Answer the charge", "{choice}", f"{R}, Fire and Melee",
        (FieldSpec("choice", "Answer", FieldKind.CHOICE, choices=("stand", "fire")),),
        odds=False, decision=STAND_OR_FIRE,
    ),
    ActionKind(
        "declare_countercharge", "Countercharge", "{unit} countercharges", f"{R}, Melee",
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT, optional=True, from_pending="eligible",
                   none_label="No one"),),
        odds=False, decision=COUNTERCHARGE,
    ),
    ActionKind("end_phase", "Defer", "Defer", f"{R}, Game Play option 6",
               phases=(PHASE,), help="The activated unit remains inactive."),
)

DECISION_KINDS: tuple[DecisionKind, ...] = (
    DecisionKind(ASSIGN_FREE_MOVE, "Free move", "Which unit gets your free-move card this turn?",
                 "declare_assign_free_move", f"{R}, Game Play"),
    DecisionKind(STAND_OR_FIRE, "Charged", "{charger} charges {target}: stand, or fire?",
                 "declare_respond", f"{R}, Melee a"),
    DecisionKind(COUNTERCHARGE, "Countercharge", "Does one of {eligible} countercharge {charger}?",
                 "declare_countercharge", f"{R}, Melee"),
)

MUSTER = "ex-muster"
PANELS: tuple[PanelKind, ...] = (
    PanelKind(MUSTER, "Muster",
              "Your free-move card's unit (kept from the enemy) and the cards left to draw"),
)
"""A panel of the example's own, which no front end knows by name: its presentation fills it."""

AI = AiSpec(proposer="tests.example_rules.player:propose",
            doctrine="tests.example_rules.player:SimpleGeneral")
