"""What Declare Thee Sir tells front ends: the declaration awaited when a card is drawn,
and the actions that carry out each option."""

from __future__ import annotations

from tertia.core.vocabulary import ActionKind, DecisionKind, FieldKind, FieldSpec
from tertia.rulesets.declare_thee_sir import clauses
from tertia.rulesets.declare_thee_sir.data import FORMATION_NAMES, OPTIONS
from tertia.rulesets.declare_thee_sir.events import DECLARE
from tertia.rulesets.declare_thee_sir.sequence import PHASE

ACTION_KINDS: tuple[ActionKind, ...] = (
    ActionKind(
        "dts_declare", "Declare", "{unit}: {option} {how}", clauses.GAME_PLAY,
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT, from_pending="unit"),
         FieldSpec("option", "Option", FieldKind.CHOICE, choices=OPTIONS),
         FieldSpec("how", "Rally by", FieldKind.CHOICE, optional=True, choices=("rest", "retire"),
                   choice_labels=("by resting", "by retiring"))),
        odds=False, decision=DECLARE, subject="unit",
        help="The activated unit's commander declares one of the six options; a move is rolled at once.",
    ),
    ActionKind(
        "dts_change_formation", "Change formation", "{unit} forms {formation}", clauses.FORMATIONS,
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("formation", "Formation", FieldKind.CHOICE,
                   choices=(*FORMATION_NAMES, "caracole", "forlorn_hope", "mount", "dismount"))),
        odds=False, phases=(PHASE,), subject="unit",
        help="Under a declared formation change: line, long march or (foot only) hedgehog; "
             "dragoons mount or dismount; with their options, cavalry with firelocks caracole and "
             "a regiment of foot sends out its forlorn hope.",
    ),
    ActionKind(
        "move", "Move", "Move {unit}", clauses.MOVEMENT,
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("waypoints", "Path", FieldKind.POINTS, optional=True),
         FieldSpec("face_before", "Facing before moving", FieldKind.FACING, optional=True),
         FieldSpec("face_after", "Facing after moving", FieldKind.FACING, optional=True)),
        odds=False, phases=(PHASE,), subject="unit",
        help="Within the rolled move: a third through difficult ground or to a flank; rearward only "
             "under Rally.",
    ),
    ActionKind(
        "dts_fire", "Fire", "Fire at {target}", clauses.FIRE,
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("target", "Target", FieldKind.ENEMY_UNIT)),
        dice_driven=True, phases=(PHASE,), subject="unit", target="target",
        help="A volley (two under stand and fire, one under advance and fire) at a target in the "
             "45 degree arc; the range is rolled.",
    ),
    ActionKind(
        "dts_charge", "Charge", "Charge {target}", clauses.MELEE,
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("target", "Target", FieldKind.ENEMY_UNIT)),
        dice_driven=True, phases=(PHASE,), subject="unit", target="target",
        help="Under advance: straight at the target, test to close, then the melee; a general on "
             "his own evades 9\" and the charger halts an inch short.",
    ),
    ActionKind(
        "end_phase", "End the activation", "End the activation", clauses.GAME_PLAY,
        odds=False, phases=(PHASE,),
        help="The activated unit does no more: it need not use all its move or fire every volley.",
    ),
)

DECISION_KINDS: tuple[DecisionKind, ...] = (
    DecisionKind(DECLARE, "Declaration", "{unit}'s card is drawn: declare its option ({options}).",
                 "dts_declare", clauses.GAME_PLAY),
)
