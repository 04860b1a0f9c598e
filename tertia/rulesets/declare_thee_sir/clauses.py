"""Where each rule stands in the text (Declare Thee Sir, MWAN #82): the names violations,
the clause table and docstrings cite."""

from __future__ import annotations

NAME = "Declare Thee Sir"
TITLE = f"{NAME}:"
"""Every clause cites the rule set by its name, as the other rule sets do."""
GAME_PLAY = f"{TITLE} A) Game Play"
FORMATIONS = f"{TITLE} B.I Formations"
MOVEMENT = f"{TITLE} B.2 Movement"
MORALE = f"{TITLE} B.3 Morale"
FIRE = f"{TITLE} B.4 Fire"
MELEE = f"{TITLE} B.5 Melee"
RALLY = f"{TITLE} B.6 Rally"
OPTIONAL = f"{TITLE} B.7 Optional Rules"
COMPOSITION = f"{TITLE} Unit Compositions"
