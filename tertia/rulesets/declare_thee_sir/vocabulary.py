"""What Declare Thee Sir tells front ends: the declaration awaited when a card is drawn
(with the text's 30 seconds to make it), the actions that carry out each option, and the
deck of unit cards beside the table."""

from __future__ import annotations

from tertia.core.vocabulary import DECK, ActionKind, DecisionKind, FieldKind, FieldSpec, PanelKind
from tertia.rulesets.declare_thee_sir import clauses
from tertia.rulesets.declare_thee_sir.data import DEFER, FORMATION_NAMES, OPTIONS
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
        "dts_change_formation", "Change formation", "{unit} {formation}", clauses.FORMATIONS,
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("formation", "Formation", FieldKind.CHOICE,
                   choices=(*FORMATION_NAMES, "caracole", "forlorn_hope", "mount", "dismount"),
                   choice_labels=(*(f"forms {f.replace('_', ' ')}" for f in FORMATION_NAMES), "caracoles",
                                  "sends out its forlorn hope", "mounts", "dismounts"))),
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

DECLARATION_SECONDS = 30
"""Game Play: "the units immediate commander has 30 seconds to declare one of the following
six options". The text says nothing of a commander who lets them pass; he has declared
nothing, and the unit stays as option 6 leaves it ("Defer (remain inactive)"). Only a
front end with a player at it times this, and only when the player asks it to."""

DECISION_KINDS: tuple[DecisionKind, ...] = (
    DecisionKind(DECLARE, "Declaration", "Card drawn for {unit}: declare its option.",
                 "dts_declare", clauses.GAME_PLAY, time_limit=DECLARATION_SECONDS,
                 on_time_out=(("option", DEFER),), told=True),
)

PANELS: tuple[PanelKind, ...] = (
    PanelKind(DECK, "The deck",
              "A card for each regiment, battery and general, two for each regiment of horse, "
              "drawn one at a time: the card drawn, the cards drawn before it this turn and "
              "how many of each side's are still to come."),
)
