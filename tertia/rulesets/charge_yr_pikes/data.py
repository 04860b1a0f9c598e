"""What Charge yr Pikes! keeps: each unit's troops, figures, formation, states and morale,
each officer's rank and grade, and the game's brigade deck and turn.

Casualties are figures ("Each hit on the table below kills one enemy casting"), kept by
weapon: ``pike`` and ``shot`` for foot, ``men`` for horse, dragoons and gunners. A unit's
stands follow from them (casualties are gathered "onto one stand as long as you keep like
with like", so a weapon has whole stands and at most one casualty stand). Morale follows
the shared convention (:mod:`tertia.rules.morale`): ``morale`` is ``None`` until the unit
first tests ("The first time that a unit must test morale, consult this table"). A
piece's and the game's values are read off the state with
:mod:`~tertia.rulesets.charge_yr_pikes.values`.

>>> from tertia.rulesets.charge_yr_pikes.troops import FOOT
>>> u = CypUnit.of(FOOT)
>>> u.figures, u.stands_left, u.pike_stands, u.shot_stands
(32, 8, 4, 4)
>>> hurt = u.evolve(shot=14)
>>> hurt.stands_left, hurt.shot_stands, hurt.shot_firing_stands, hurt.lost
(8, 4, 3, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from tertia.core.ruledata import RuleData
from tertia.rulesets.charge_yr_pikes import traits
from tertia.rulesets.charge_yr_pikes.traits import ROUTED as ROUTED  # a formation named with the others
from tertia.rulesets.charge_yr_pikes.troops import Troop

LINE = "line"
COLUMN = "column"
SQUARE = "square"
DEPLOYED = "deployed"
FORMATIONS = (LINE, COLUMN, SQUARE, DEPLOYED, ROUTED)
"""Formations A: "Lines, Columns, Squares, Deployed (in towns/forts) and Routed"."""

UNPLACED = "unplaced"
"""Why a piece not yet placed on the table is off it (``Unit.removed``): a hidden piece,
and how it shows in the enemy's view (Sequence of play B)."""
UNSEEN = (UNPLACED,)
"""Reasons for being off the table that a refusal reads as no piece at all, so that it
tells nobody a hidden piece is there (``violations.not_in_play``)."""

RANKS = ("army", "wing", "brigadier", "staff")
"""Tertias C: Commander-in-chief, wing and brigade commanders; "Any officers not listed
would count as 'Staff officers'"."""
GRADES = ("ineffective", "effective", "natural_born_leader")
"""Officers' values (section 22): Ineffective, Effective, Natural Born Leader."""


def _stands(figures: int, per_stand: int) -> int:
    """Stands holding ``figures``: whole stands and one casualty stand for the rest."""
    return -(-figures // per_stand) if per_stand else 0


@dataclass(frozen=True, slots=True)
class CypUnit(RuleData):
    """One piece's values.

    Troops: ``troop`` (a key of :data:`~tertia.rulesets.charge_yr_pikes.troops.TROOPS`),
    ``morale_class`` (section 11 A), ``elite`` and ``trained_bands`` (close combat
    dice), ``firelocks`` (+1 to fire), figures by weapon and a stand's figures, the
    figures it started with (``start``), ``gun`` (galloper, field or heavy) and
    ``mounted`` (dragoons).

    States: ``formation``, ``disordered``, ``falling_back``, ``morale`` (None: untested)
    and the basic point first rolled (``morale_max``, the shared block's name),
    ``attached_to`` (an officer in a
    unit's front rank, or a galloper gun with its unit), ``moved`` (moved this turn: it
    fires as moving muskets), ``fired`` (has fired a volley this game), ``gun_fired``
    (a field or heavy gun that has fired never moves again), ``routed_turn`` (the turn it
    last routed), ``fatigued`` (men short of breath after a long charge), ``half_lost``
    (its morale has taken the 50% rules' -1, which it takes once) and ``abandoned`` (a
    battery's crew has left its gun and goes as foot: Falling back D, Routing G).

    Officers: ``rank`` and ``grade`` (None: grades not used).

    ``stand_width`` and ``stand_depth``: a stand's size at the battle's scale.

    Dragoons: ``remounted`` (mounted or dismounted this turn), ``acts`` (of the two
    actions they may take a turn, those taken: a charge takes both), ``holders`` (men holding
    the horses while the rest fight on foot) and ``other_stand`` (the stand size,
    width and depth, they take up when they mount or dismount).

    Plunder (section 21): ``plundering`` ("off_table", "at_train", "returning" or None),
    where it left the table or the train (``plunder_x``, ``plunder_y``), the turn it began
    (``plunder_turn``) and the turn it came back (``reentered_turn``). Commanded musketeers
    whose ``attached_to`` names a horse unit are intermingled with it (Special rules D).

    Guns: ``fired_turn`` (the turn it last fired: heavy guns fire every other turn),
    ``silent_turn`` (a turn on which a ball has stopped it firing) and ``silenced``
    (silenced by a ball until it rallies on a D6).

    ``grade_secret``: an officer's grade was rolled in secret and the enemy has not yet seen
    it (section 22; :mod:`~tertia.rulesets.charge_yr_pikes.secret_grades`).

    Hidden units (Set-up D, Sequence of play B): ``placed`` is False while the piece is
    noted on a map rather than placed on the table, hidden from the enemy
    (:mod:`~tertia.rulesets.charge_yr_pikes.concealment`); once placed it stays placed."""

    type: ClassVar[str] = "cyp_unit"
    troop: str = "foot"
    morale_class: str = "foot"
    elite: bool = False
    trained_bands: bool = False
    firelocks: bool = False
    pike: int = 0
    shot: int = 0
    men: int = 0
    per_stand: int = 4
    start: int = 0
    gun: str | None = None
    mounted: bool = False
    formation: str = LINE
    disordered: bool = False
    falling_back: bool = False
    morale: int | None = None
    morale_max: int | None = None
    attached_to: str | None = None
    moved: bool = False
    fired: bool = False
    gun_fired: bool = False
    routed_turn: int | None = None
    fatigued: int = 0
    rank: str | None = None
    grade: str | None = None
    stand_width: float = 1.0
    stand_depth: float = 0.75
    remounted: bool = False
    acts: int = 0
    holders: int = 0
    other_stand: tuple[float, float] | None = None
    half_lost: bool = False
    abandoned: bool = False
    plundering: str | None = None
    plunder_x: float | None = None
    plunder_y: float | None = None
    plunder_turn: int | None = None
    reentered_turn: int | None = None
    fired_turn: int | None = None
    silent_turn: int | None = None
    silenced: bool = False
    grade_secret: bool = False
    placed: bool = True

    @classmethod
    def of(cls, troop: Troop, **values: object) -> CypUnit:
        """A unit of ``troop`` at full strength (its usual stands), ``values`` changed."""
        if troop.arm == "foot":  # pikes and shot, each by their own stands
            pike = troop.pike_stands * troop.figures_per_stand
            base = cls(troop=troop.name, morale_class=troop.morale_class, pike=pike,
                       shot=troop.figures - pike, per_stand=troop.figures_per_stand,
                       start=troop.figures)
        else:
            base = cls(troop=troop.name, morale_class=troop.morale_class, men=troop.figures,
                       per_stand=troop.figures_per_stand, start=troop.figures, mounted=troop.mounted)
        return base.evolve(**values) if values else base

    @property
    def figures(self) -> int:
        return self.pike + self.shot + self.men

    @property
    def strength(self) -> int:
        """Every figure of the unit: those in its ranks and, for dragoons on foot, the men
        holding their horses (Unit Organizations A: "four 4-man stands plus two stands of
        horse holders"), who mount again with the rest."""
        return self.figures + self.holders

    @property
    def lost(self) -> int:
        """Figures lost since the start (casualties, in the text's count): dragoons that
        mount or dismount neither gain nor lose any by it."""
        return max(0, self.start - self.strength)

    @property
    def pike_stands(self) -> int:
        return _stands(self.pike, self.per_stand)

    @property
    def shot_stands(self) -> int:
        return _stands(self.shot, self.per_stand)

    @property
    def shot_firing_stands(self) -> int:
        """Shot stands at full strength: "Any SHOT stand with casualties on it may not fire"."""
        return self.shot // self.per_stand if self.per_stand else 0

    @property
    def stands_left(self) -> int:
        return self.pike_stands + self.shot_stands + _stands(self.men, self.per_stand)

    if TYPE_CHECKING:
        @property
        def is_officer(self) -> bool: ...

        @property
        def is_gun(self) -> bool: ...

        @property
        def is_battery(self) -> bool: ...

        @property
        def routed(self) -> bool: ...
    else:  # compiled getters (see traits): asked at almost every step
        is_officer = property(traits.is_officer)
        is_gun = property(traits.is_gun)
        is_battery = property(traits.is_battery)
        routed = property(traits.routed)

    @property
    def under_half(self) -> bool:
        """Has it lost more than half its strength (the 50% rules)?"""
        return self.start > 0 and self.strength * 2 < self.start


@dataclass(frozen=True, slots=True)
class CypGame(RuleData):
    """The game's values: the brigade deck (both armies' cards shuffled together: those
    left to draw this turn and those drawn), the card being played and the tertia it
    moves, the turn limit before darkness is rolled for and the turns left to darkness
    once rolled, and whether each army has taken fright; the units that have moved
    (``moved_on_card``) and changed formation (``reformed``) on the card in play; the
    scenario's replacement tables (``tables``, see :mod:`~.tables`), the tertias of each
    wing commander (``wings``) and this turn's charges, in the order made (attacker,
    target, where the attacker started: x, y, facing, and the men it lost to fatigue);
    each side's table edge (``edges``: "south" or "north") and its objectives and vital
    points (``points``, see :mod:`~tertia.rulesets.charge_yr_pikes.points`); ``rain``,
    light rain all game (-1 to musketry); ``places``, where each unit stood (x, y,
    facing) as the turn began (guns that moved or pivoted, gallopers whose horse moved
    over 8"); the fire step under way (``step``), the side giving its orders
    (``step_side``) and the orders given (``orders``: unit, target, kind); the battle's
    ``year`` (the caracole is abandoned from 1645); the charges of melees ``locked``
    (12 G), fought on in the next turn, as ``charges`` are kept; the winners owed a bonus
    move (``bonus``: unit, whether it may break through, the foes it beat; 12 I, J) and
    the units charged this turn that passed their test to move away, change formation or
    reface (``steadied``: unit and what it tested for, 12 L)."""

    type: ClassVar[str] = "cyp_game"
    deck_left: tuple[str, ...] = ()
    deck_drawn: tuple[str, ...] = ()
    card: str | None = None
    moving: tuple[str, ...] = ()
    turn_limit: int = 10
    darkness_in: int | None = None
    fright: tuple[str, ...] = ()
    moved_on_card: tuple[str, ...] = ()
    reformed: tuple[str, ...] = ()
    tables: Mapping[str, Any] = field(default_factory=dict)
    wings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    charges: tuple[tuple[str, str, float, float, float, int], ...] = ()
    edges: Mapping[str, str] = field(default_factory=dict)
    points: tuple[tuple[Any, ...], ...] = ()
    rain: bool = False
    places: tuple[tuple[str, float, float, float], ...] = ()
    step: str | None = None
    step_side: str | None = None
    orders: tuple[tuple[str, str, str], ...] = ()
    year: int = 1643
    locked: tuple[tuple[str, str, float, float, float, int], ...] = ()
    bonus: tuple[tuple[str, bool, tuple[str, ...]], ...] = ()
    steadied: tuple[tuple[str, str], ...] = ()

