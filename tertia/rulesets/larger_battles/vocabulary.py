"""What ``larger-battles`` tells front ends: its seven actions, the defending side's
decision to encourage, and its orders and attack-plan panels."""

from __future__ import annotations

from tertia.core.vocabulary import (
    ATTACK_PLAN,
    ORDERS,
    ActionKind,
    DecisionKind,
    FieldKind,
    FieldSpec,
    PanelKind,
)
from tertia.rulesets.larger_battles import clauses
from tertia.rulesets.larger_battles.orders import PURPOSES

ENCOURAGE = "encourage"

PATH = (
    FieldSpec("waypoints", "Path", FieldKind.POINTS, optional=True),
    FieldSpec("face_before", "Facing before moving", FieldKind.FACING, optional=True),
    FieldSpec("face_after", "Facing after moving", FieldKind.FACING, optional=True),
)

ACTION_KINDS: tuple[ActionKind, ...] = (
    ActionKind(
        "give_order", "Give an order", "Order {target} to {purpose}", clauses.ORDERS,
        (FieldSpec("target", "Command or unit", FieldKind.COMMAND),
         FieldSpec("purpose", "To", FieldKind.CHOICE, optional=True, choices=PURPOSES)),
        phases=("movement", "bombardment"), subject="target",
        help="Two orders a player turn, each to a command or one unit: to move, or to bombard.",
    ),
    ActionKind(
        "move", "Move", "Move {unit}", clauses.MOVE_ALLOWANCE,
        (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT), *PATH),
        phases=("movement",), subject="unit",
        help="An ordered unit moves: a turn, a path, a turn at the end.",
    ),
    ActionKind(
        "bombard", "Bombard", "Bombard {target}", clauses.BOMBARDMENT,
        (FieldSpec("gun", "Gun", FieldKind.OWN_UNIT), FieldSpec("target", "Target", FieldKind.ENEMY_UNIT)),
        dice_driven=True, phases=("bombardment",), subject="gun", target="target",
        help="An ordered gun fires at an enemy directly in front, within 24\".",
    ),
    ActionKind(
        "attack", "Attack", "Attack {target}", clauses.COMBAT,
        (FieldSpec("attacker", "Attacker", FieldKind.OWN_UNIT),
         FieldSpec("target", "Target", FieldKind.ENEMY_UNIT),
         FieldSpec("supports", "Supporting units", FieldKind.OWN_UNITS, optional=True, none_label="none"),
         FieldSpec("commander", "Encouraged by", FieldKind.OWN_COMMANDER, optional=True,
                   none_label="no commander")),
        dice_driven=True, phases=("combat",), subject="attacker", target="target",
        help="A primary attacker engages an enemy within 3\", with supports and a commander.",
    ),
    ActionKind(
        "declare_attacks", "Declare attacks", "Declare {attacks}", clauses.COMBAT,
        (FieldSpec("attacks", "Attacks", FieldKind.ACTIONS, item="attack"),),
        phases=("combat",),
        help="Every attack of the combat phase, declared together, then fought one by one.",
    ),
    ActionKind(
        ENCOURAGE, "Encourage", "{commander} encourages", clauses.COMMANDER_RALLY,
        (FieldSpec("commander", "Commander", FieldKind.OWN_COMMANDER, optional=True,
                   from_pending="eligible", none_label="no commander"),),
        decision=ENCOURAGE,
        help="The defending side's answer to an attack: a commander within 3\" who encourages, or none.",
    ),
    ActionKind("end_phase", "End the phase", "End the {phase} phase", clauses.SEQUENCE,
               help="Movement, bombardment, combat; routing follows combat at once."),
)

DECISION_KINDS: tuple[DecisionKind, ...] = (
    DecisionKind(ENCOURAGE, "Encourage the defence",
                 "{attack.attacker} attacks {attack.target}. Does a commander encourage the defence?",
                 ENCOURAGE, clauses.COMMANDER_RALLY, made="send {choice} to encourage the defence",
                 declined="send no commander to encourage the defence"),
)

PANELS: tuple[PanelKind, ...] = (
    PanelKind(ORDERS, "Orders", "Orders left this player turn, and the orders that may be given.",
              "give_order"),
    PanelKind(ATTACK_PLAN, "Attacks to declare together",
              "The combat phase's attacks are declared together, then fought one by one.",
              "declare_attacks"),
)
