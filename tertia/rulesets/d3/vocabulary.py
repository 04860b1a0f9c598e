"""The actions both D3 rule sets accept (move, shoot, melee, end the activation), each
citing its own rule set's clauses; each rule set adds its own."""

from __future__ import annotations

from tertia.core.vocabulary import ActionKind, FieldKind, FieldSpec
from tertia.rulesets.d3.base import ACTIVATION
from tertia.rulesets.d3.clauses import ClauseBook


def shared_action_kinds(c: ClauseBook) -> tuple[ActionKind, ...]:
    """Move (a move into contact is a charge), shoot, melee and ending the activation."""
    return (
        ActionKind(
            "move", "Move", "Move {unit}", c.move_allowance,
            (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
             FieldSpec("waypoints", "Path", FieldKind.POINTS, optional=True),
             FieldSpec("face_before", "Facing before moving", FieldKind.FACING, optional=True),
             FieldSpec("face_after", "Facing after moving", FieldKind.FACING, optional=True)),
            phases=(ACTIVATION,), subject="unit",
            help="An activated unit moves; a move into contact with an enemy is a charge.",
        ),
        ActionKind(
            "shoot", "Shoot", "Shoot at {target}", c.shooting,
            (FieldSpec("unit", "Unit", FieldKind.OWN_UNIT),
             FieldSpec("target", "Target", FieldKind.ENEMY_UNIT)),
            dice_driven=True, phases=(ACTIVATION,), subject="unit", target="target",
            help="An activated unit fires at an enemy in its field of fire and range.",
        ),
        ActionKind(
            "attack", "Melee", "Melee with {target}", c.melee,
            (FieldSpec("attacker", "Unit", FieldKind.OWN_UNIT),
             FieldSpec("target", "Enemy in contact", FieldKind.ENEMY_UNIT)),
            dice_driven=True, phases=(ACTIVATION,), subject="attacker", target="target",
            help="An activated unit fights an enemy it is in contact with: one against one.",
        ),
        ActionKind("end_phase", "End the activation", "End the {card_in_play} card's activation",
                   c.activation, help="The side is done with the card in play; the next is played."),
    )
