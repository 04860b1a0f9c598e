"""What Declare Thee Sir keeps: each unit's troop type, stands, formation and morale, and the
game's deck, the unit activated and the option its commander declared.

Morale follows the shared block's convention (:mod:`tertia.rules.morale`): ``morale`` is
``None`` while the unit is untested (Morale: "Other units start the game untested"), and
``morale_max`` holds the points first rolled. The deck follows :mod:`tertia.activation.deck`
(``deck_left``, ``deck_drawn``). A piece's and the game's values are read off the state
with :mod:`~tertia.rulesets.declare_thee_sir.values`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from tertia.core.ruledata import RuleData
from tertia.rulesets.declare_thee_sir.troops import ARTILLERY, GENERAL, HORSE

LINE = "line"
LONG_MARCH = "long_march"
HEDGEHOG = "hedgehog"
FORMATION_NAMES = (LINE, LONG_MARCH, HEDGEHOG)
"""Game Mechanics I: Line, Long March (Column) and Hedgehog (Square)."""
CARACOLE = "caracole"
"""Optional Rules b: the rolling fire formation of cavalry with firelocks."""
FORLORN_HOPE = "forlorn_hope"
"""Optional Rules a: a division of musketeers in line before its regiment."""

FORMATION_CHANGE = "formation_change"
ADVANCE = "advance"
ADVANCE_AND_FIRE = "advance_and_fire"
STAND_AND_FIRE = "stand_and_fire"
RALLY = "rally"
DEFER = "defer"
OPTIONS = (FORMATION_CHANGE, ADVANCE, ADVANCE_AND_FIRE, STAND_AND_FIRE, RALLY, DEFER)
"""Game Play: the six options a commander declares when his unit is activated."""


@dataclass(frozen=True, slots=True)
class DtsUnit(RuleData):
    """One unit's values: its troop type (``troops``), how many stands it has and their
    size, its formation, morale points (``None``: untested) and the points first rolled;
    ``firelocks`` (cavalry that may caracole), ``mounted`` (dragoons), ``attached_to``
    (a general's unit), ``parent`` (the regiment a forlorn hope was drawn from),
    ``at_obstacle`` (stopped by a wall or stream, which it crosses without penalty when
    next activated), ``routing`` (broken, fleeing until rallied), ``pursuing`` (the
    routing unit it pursues), ``damp_powder`` (struck by that event card: it may not
    fire on its next activation) and ``general_point`` (one of its ``morale`` points is an
    attached general's, counted while he is attached: option ``general_point``)."""

    type: ClassVar[str] = "dts_unit"
    troop: str = "foot"
    stands_left: int = 1
    stand_width: float = 1.5
    stand_depth: float = 1.0
    formation: str = LINE
    morale: int | None = None
    morale_max: int | None = None
    firelocks: bool = False
    mounted: bool = False
    attached_to: str | None = None
    parent: str | None = None
    at_obstacle: bool = False
    routing: bool = False
    pursuing: str | None = None
    damp_powder: bool = False
    general_point: bool = False

    @property
    def is_general(self) -> bool:
        return self.troop == GENERAL

    @property
    def is_mounted(self) -> bool:
        """Moves 2D6 and fires 3" + 1D6: cavalry, and dragoons on their horses."""
        return self.troop == HORSE or (self.troop == "dragoons" and self.mounted)

    @property
    def is_gun(self) -> bool:
        return self.troop == ARTILLERY


@dataclass(frozen=True, slots=True)
class DtsGame(RuleData):
    """The game's values: the deck (cards left to draw this turn, cards drawn), the unit
    activated and by which card, the option declared for it, its rolled move
    (``allowance``: the inches over ``open`` ground, ``difficult`` ground and by ``road``,
    :mod:`~tertia.rulesets.declare_thee_sir.movement`) and whether it has moved, volleys
    still to fire, the turn limit, each side's table edge, the scenario's objectives
    whose holding as a turn ends ends the battle (their ``ends_game``), and the readings the
    game is played under (the options of :mod:`~tertia.rulesets.declare_thee_sir.readings`,
    by name; one not given is its default)."""

    type: ClassVar[str] = "dts_game"
    deck_left: tuple[str, ...] = ()
    deck_drawn: tuple[str, ...] = ()
    activated: str | None = None
    card: str | None = None
    declared: str | None = None
    allowance: Mapping[str, int] | None = None
    moved: bool = False
    volleys: int = 0
    turn_limit: int = 10
    edges: Mapping[str, str] = field(default_factory=dict)
    ending_objectives: tuple[str, ...] = ()
    readings: Mapping[str, str] = field(default_factory=dict)

