"""Troops under Declare Thee Sir: what a unit is made of, how it moves and how far it fires.

Unit Compositions: "Regiments of foot contain three divisions, two of musketeers and one
of pikemen (one card)"; "One gun model and crew equals one battery of artillery (one
card)"; "Cavalry: six or nine mounted figures on two or three stands (two cards)";
"Generals: general and aide on a command stand (one card)". Movement (B.2) and Ranges
(B.4.a) give the rest.

The text gives no stand sizes. The defaults below are a common 15 mm basing in inches (a
foot division 1.5" wide and 1" deep, a stand of horse 1.5" square, a gun 1.5" by 2"), and
a scenario may give its own (``[extensions."declare-thee-sir"].stands``).
"""

from __future__ import annotations

from dataclasses import dataclass

FOOT = "foot"
HORSE = "horse"
DRAGOONS = "dragoons"
COMMANDED_SHOT = "commanded_shot"
ARTILLERY = "artillery"
GENERAL = "general"
TROOPS = (FOOT, HORSE, DRAGOONS, COMMANDED_SHOT, ARTILLERY, GENERAL)


@dataclass(frozen=True, slots=True)
class StandSize:
    """One stand's frontage and depth, in inches."""

    width: float
    depth: float


STAND_SIZES: dict[str, StandSize] = {
    FOOT: StandSize(1.5, 1.0),
    COMMANDED_SHOT: StandSize(1.5, 1.0),
    DRAGOONS: StandSize(1.5, 1.0),
    HORSE: StandSize(1.5, 1.5),
    ARTILLERY: StandSize(1.5, 2.0),
    GENERAL: StandSize(1.5, 1.5),
}
"""The default stand of each troop type (the text gives none; see the module's note)."""

MOST_STANDS = 12
"""The most stands a scenario may give a unit."""

STANDS: dict[str, int] = {
    FOOT: 3, COMMANDED_SHOT: 1, DRAGOONS: 2, HORSE: 3, ARTILLERY: 1, GENERAL: 1,
}
"""Stands a unit has unless its scenario says otherwise: a regiment of foot's three
divisions, three stands of horse (two for a weak regiment), a body of commanded
musketeers or of dragoons, a gun, a command stand."""

CARDS: dict[str, int] = {
    FOOT: 1, COMMANDED_SHOT: 1, DRAGOONS: 1, HORSE: 2, ARTILLERY: 1, GENERAL: 1,
}
"""Cards in the deck for each unit: "(One card)", cavalry "(Two cards)"; commanded
musketeers "need their own card" (Optional Rules a); dragoons, whom the text does not
count, one card like foot (they fight as foot and move as horse)."""
