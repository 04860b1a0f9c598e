"""What Charge yr Pikes! tells front ends: the actions on a brigade card (moves, formation
changes, charges, dragoons mounting), the free move the commander-in-chief gives, the fire
orders of the fire steps, and the brigade deck beside the table."""

from __future__ import annotations

from tertia.core.vocabulary import DECK, DEPLOYMENT, ActionKind, DecisionKind, FieldKind, FieldSpec, PanelKind
from tertia.rulesets.charge_yr_pikes.actions import FIRE_KINDS, FREE_MOVE
from tertia.rulesets.charge_yr_pikes.bonus import BONUS_MOVES
from tertia.rulesets.charge_yr_pikes.concealment import DEPLOY
from tertia.rulesets.charge_yr_pikes.data import COLUMN, DEPLOYED, LINE, SQUARE
from tertia.rulesets.charge_yr_pikes.phases import FIRE_STEPS
from tertia.rulesets.charge_yr_pikes.points_panel import POINTS
from tertia.rulesets.charge_yr_pikes.reaction import PURPOSES
from tertia.rulesets.charge_yr_pikes.sequence import MOVEMENT

TITLE = "Charge yr Pikes!"
"""Every action cites the rule set by its name, as the other rule sets do."""
MOVEMENT_RULE = f"{TITLE} Movement 5"
FIRE_RULE = f"{TITLE} Sequence of play 3 C-E"

ACTION_KINDS: tuple[ActionKind, ...] = (
    ActionKind(
        "move", "Move", "Move {unit}", MOVEMENT_RULE,
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("waypoints", "Path", FieldKind.POINTS, optional=True),
         FieldSpec("face_before", "Facing before moving", FieldKind.FACING, optional=True),
         FieldSpec("face_after", "Facing after moving", FieldKind.FACING, optional=True)),
        odds=False, phases=(MOVEMENT, BONUS_MOVES), subject="unit",
        help="A unit whose tertia passed its command response moves up to its allowance, by its "
             "troop type and the formation it starts in, less what the ground costs. After the "
             "close combats, a winner owed a bonus move makes one normal move.",
    ),
    ActionKind(
        "cyp_reform", "Change formation", "{unit} forms {formation}", f"{TITLE} Formations 3 A, B",
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("formation", "Formation", FieldKind.CHOICE, choices=(LINE, COLUMN, SQUARE, DEPLOYED))),
        odds=False, phases=(MOVEMENT,), subject="unit",
        help="At the end of its move (or instead of it): line, column, square (foot) or deployed "
             "(in a town or works).",
    ),
    ActionKind(
        "cyp_charge", "Charge", "Charge {target}", f"{TITLE} Close combat 12 A",
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("target", "Target", FieldKind.ENEMY_UNIT)),
        odds=False, phases=(MOVEMENT,), subject="unit", target="target",
        help="Straight at the target, halting 1\" away; the close combat is fought after the fire "
             "steps. Beyond its charge move a unit loses a man to fatigue for each inch.",
    ),
    ActionKind(
        "cyp_mount", "Mount or dismount", "{unit} {mounted}", f"{TITLE} Dragoons 18",
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("mounted", "Mounted", FieldKind.FLAG, flag_labels=("mounts", "dismounts"))),
        odds=False, phases=(MOVEMENT,), subject="unit",
        help="Dragoons take to their horses or get down to fight on foot: one of their two actions "
             "a turn.",
    ),
    ActionKind(
        "cyp_morale_to_move", "Test to move under a charge", "{unit} tests to {purpose}",
        f"{TITLE} Close combat 12 L",
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("purpose", "To", FieldKind.CHOICE, choices=PURPOSES,
                   choice_labels=("move away", "change formation or reface"))),
        odds=False, phases=(MOVEMENT,), subject="unit",
        help="A unit charged this turn that has not moved tests morale before it may move away from "
             "its chargers (failing, it routs) or change formation or reface.",
    ),
    ActionKind(
        "cyp_turn_to_meet", "Turn to meet", "{unit} turns to meet {attacker}", f"{TITLE} Flank and rear 13 B",
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("attacker", "Attacker", FieldKind.ENEMY_UNIT)),
        odds=False, phases=(MOVEMENT,), subject="unit", target="attacker",
        help="A unit charged in flank or rear that has not moved turns in place to meet the charge "
             "front to front.",
    ),
    ActionKind(
        "cyp_breakthrough", "Break through", "{unit} breaks through at {target}",
        f"{TITLE} Close combat 12 J",
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("target", "Target", FieldKind.ENEMY_UNIT)),
        odds=False, phases=(BONUS_MOVES,), subject="unit", target="target",
        help="Horse that won a close combat and passed its test ride at another enemy unit on their "
             "normal move and fight it at once, without a test to close.",
    ),
    ActionKind(
        "cyp_join_front_rank", "Join a front rank", "{officer} joins the front rank of {unit}",
        f"{TITLE} Tertias and officers 4 D-G",
        (FieldSpec("officer", "Officer", FieldKind.OWN_COMMANDER),
         FieldSpec("unit", "Unit", FieldKind.OWN_UNIT)),
        odds=False, phases=(MOVEMENT,), subject="officer", target="unit",
        help="On the Officers & Artillery card an officer touching a friendly unit he commands "
             "fights in its front rank: his bonus counts for it alone, he moves with it and shares "
             "its fate.",
    ),
    ActionKind(
        "cyp_leave_front_rank", "Leave the front rank", "{officer} leaves the front rank",
        f"{TITLE} Tertias and officers 4 D",
        (FieldSpec("officer", "Officer", FieldKind.OWN_COMMANDER),),
        odds=False, phases=(MOVEMENT,), subject="officer",
        help="On the Officers & Artillery card an officer leaves the front rank he is in, where he "
             "stands; never that of a routed unit.",
    ),
    ActionKind(
        "cyp_give_free_move", "Give the free move", "The free move to {tertia}",
        f"{TITLE} Sequence of play 3 A",
        (FieldSpec("tertia", "Tertia", FieldKind.COMMAND),),
        odds=False, decision=FREE_MOVE,
        help="The commander-in-chief names the tertia that moves on the free move card; it tests "
             "command response as on its own card.",
    ),
    ActionKind(
        "cyp_fire", "Fire", "{unit} fires {kind} at {target}", FIRE_RULE,
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
         FieldSpec("target", "Target", FieldKind.ENEMY_UNIT),
         FieldSpec("kind", "Fire", FieldKind.CHOICE, choices=FIRE_KINDS,
                   choice_labels=("muskets", "galloper gun", "ball", "canister"))),
        odds=False, phases=FIRE_STEPS, subject="unit", target="target",
        help="An order for this fire step; when both sides have given theirs, all are worked out "
             "together from the position as the step began.",
    ),
    ActionKind(
        "end_phase", "Done", "Done with {done_with}", f"{TITLE} Sequence of play 3",
        odds=False, phases=(MOVEMENT, *FIRE_STEPS, BONUS_MOVES),
        help="On a card: the side is done with it and the next is turned over. In a fire step: the "
             "side has given all its orders. In the bonus moves: its other winners stand.",
    ),
    ActionKind(
        "cyp_deploy", "Deploy", "Deploy {unit}", f"{TITLE} Set-up D",
        (FieldSpec("unit", "Piece", FieldKind.OWN_UNIT),
         FieldSpec("x", "East (inches)", FieldKind.COORDINATE),
         FieldSpec("y", "North (inches)", FieldKind.COORDINATE),
         FieldSpec("facing", "Facing", FieldKind.FACING, optional=True, none_label="as it stands")),
        odds=False, decision=DEPLOY,
        help="Before the first turn, in secret: a piece placed on the side's own half, not within 12\" "
             "of the centre line outside a town or wood; the pieces serving it go with it.",
    ),
    ActionKind(
        "cyp_deployment_done", "Deployed", "Deployment done", f"{TITLE} Set-up D",
        odds=False, decision=DEPLOY,
        help="The side has deployed; when both have, the screens come away and what each side can "
             "see is placed on the table.",
    ),
)

DECISION_KINDS: tuple[DecisionKind, ...] = (
    DecisionKind(FREE_MOVE, "Free move", "A free move card: the commander-in-chief names a tertia.",
                 "cyp_give_free_move", f"{TITLE} Sequence of play 3 A",
                 made="give the free move to {choice}"),
    DecisionKind(DEPLOY, "Deployment", "Deploy in secret: the enemy sees none of it until both are done.",
                 "cyp_deploy", f"{TITLE} Set-up D", panel=DEPLOYMENT, made="finish deploying"),
)

PANELS: tuple[PanelKind, ...] = (
    PanelKind(DECK, "The brigade cards",
              "Both armies' cards shuffled together: a card for each tertia, an Officers & Artillery "
              "card and a free move card each; the card turned over and how many are left."),
    PanelKind(POINTS, "Objectives and vital points",
              "Each side's objectives, which it means to take, and vital points, which it defends "
              "(section 19), and who holds each: a unit in good order within 3\" with no enemy unit as "
              "near. A side that occupies all its objectives and keeps two of its vital points, while "
              "the other has not, wins."),
    PanelKind(DEPLOYMENT, "Deployment",
              "Select a piece of yours, then click the table where it should stand: on your own half, "
              "not within 12\" of the centre line outside a town or wood.", "cyp_deploy"),
)
