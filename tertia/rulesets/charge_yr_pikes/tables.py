"""Charge yr Pikes!' tables as data: those the text keeps, copied from it, and those the
scraped page lost, chosen (``tables.toml`` beside this module gives each with its
reasoning).

A club that reads a lost table otherwise replaces it in its scenario file, under
``[extensions."charge-yr-pikes".tables]``: each table given there replaces the built-in
one whole, and is checked as strictly (:func:`tables_with`).

>>> t = default_tables()
>>> t.movement["horse"].charge, t.command_response.no_officer
(32, (10, 9, 8, 7))
>>> t.initial_morale["foot"][5], t.morale.pass_
(3, 6)
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from tertia.core.model_errors import explain
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.values import game_data

TABLES_FILE = Path(__file__).with_name("tables.toml")

D10Face = Annotated[int, Field(strict=True, ge=1, le=10)]
"""A D10 face; 10 is the text's 0."""
D6Face = Annotated[int, Field(strict=True, ge=1, le=6)]
Inches = Annotated[int, Field(strict=True, ge=0, le=100)]
Grade = Literal["ineffective", "effective", "natural_born_leader"]
Rank = Literal["army", "wing", "brigadier", "staff"]
MoraleClass = Literal["horse", "second_rate_horse", "elite_foot", "foot", "second_rate_foot", "clubmen"]
MoveType = Literal["foot", "musketeers", "highlanders", "horse", "lobsters", "dragoons", "scots_horse",
                   "artillery", "wagons", "coach", "officer", "dismounted_dragoons"]
Arm = Literal["foot", "horse", "artillery"]
Gun = Literal["galloper", "field", "heavy"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class RoutMove(_Strict):
    inches: Inches
    dice: Annotated[int, Field(strict=True, ge=0, le=4)] = 0


class MoveLine(_Strict):
    """One line of the movement table: inches by formation (None: "N/A")."""

    normal: Inches
    square: Inches | None = None
    road: Inches | None = None
    charge: Inches | None = None
    rout: RoutMove | None = None


class CommandResponse(_Strict):
    """D10 faces meaning "no move", by the rank tested (grades off), by grade (grades
    on), and for a regiment with no officer in reach."""

    rank: dict[Rank, tuple[D10Face, ...]]
    grade: dict[Grade, tuple[D10Face, ...]]
    no_officer: tuple[D10Face, ...]

    _every_rank = field_validator("rank")(lambda v: _need_all(v, Rank))
    _every_grade = field_validator("grade")(lambda v: _need_all(v, Grade))


class Bonus(_Strict):
    morale: Annotated[int, Field(strict=True, ge=0, le=6)]
    melee_dice: Annotated[int, Field(strict=True, ge=0, le=6)]


class OfficerBonus(_Strict):
    grade: dict[Grade, Bonus]
    rank: dict[Rank, Bonus]

    _every_grade = field_validator("grade")(lambda v: _need_all(v, Grade))
    _every_rank = field_validator("rank")(lambda v: _need_all(v, Rank))


class Cards(_Strict):
    officers_and_artillery: Annotated[int, Field(strict=True, ge=0, le=3)] = 1
    free_move: Annotated[int, Field(strict=True, ge=0, le=3)] = 1
    by_arm: Annotated[bool, Field(strict=True)] = False


class MoraleModifiers(_Strict):
    disordered: int
    falling_back: int
    in_town_or_works: int
    supported: int


class Permanent(_Strict):
    routs: int
    over_half_lost: int
    army_fright: int


class Triggers(_Strict):
    officer_killed: bool
    friend_routs_within: Inches
    canister_always: bool


class Morale(_Strict):
    pass_: Annotated[int, Field(strict=True, ge=1, le=20, alias="pass")]
    fall_back_within: Annotated[int, Field(strict=True, ge=0, le=10)]
    modifiers: MoraleModifiers
    permanent: Permanent
    triggers: Triggers


class DisorderCauses(_Strict):
    crossing_obstacle: bool
    moving_in_woods: bool
    interpenetration: bool
    charged_in_flank: bool


class DisorderRemoval(_Strict):
    halt_on_card: bool
    rally_test: bool


class DisorderPenalties(_Strict):
    move_fraction: Annotated[float, Field(ge=0.0, le=1.0)]


class Disorder(_Strict):
    causes: DisorderCauses
    removal: DisorderRemoval
    penalties: DisorderPenalties


class MusketryModifiers(_Strict):
    first_volley: int
    officer_attached: int
    firelocks: int
    light_rain: int
    behind_wall_hedge_or_woods: int


class Musketry(_Strict):
    close_range: Inches
    long_range: Inches
    close_hits: tuple[D6Face, ...]
    long_hits: tuple[D6Face, ...]
    ranks_firing: Annotated[int, Field(strict=True, ge=1, le=6)]
    disordered_ranks_firing: Annotated[int, Field(strict=True, ge=1, le=6)]
    half_hit_confirm: tuple[D6Face, ...]
    arc: Annotated[int, Field(strict=True, ge=0, le=90)]
    artillerist_hits: Annotated[int, Field(strict=True, ge=1, le=6)]
    modifiers: MusketryModifiers


MOST_GUNNERS = 12
"""The largest crew a table may give a gun."""


class Canister(_Strict):
    hits: tuple[D6Face, ...]
    gunners: dict[Gun, Annotated[int, Field(strict=True, ge=1, le=MOST_GUNNERS)]]


class Deep(_Strict):
    troops: tuple[MoveType, ...]
    formations: tuple[Literal["line", "column", "square", "deployed"], ...]


class Stops(_Strict):
    kinds: tuple[str, ...]
    hills: bool


BatteryResult = Literal["gunner", "silent_turn", "silenced"]


class Batteries(_Strict):
    """Ball on a battery: the D10 faces that hit a gunner or roll again, the second D10's
    results, and the rally D6 faces on which a silenced battery may fire again."""

    hit: tuple[D10Face, ...]
    roll_again: tuple[D10Face, ...]
    again: dict[D10Face, BatteryResult]
    resume: tuple[D6Face, ...]

    @field_validator("again", mode="before")
    @classmethod
    def _faces_from_keys(cls, value: Any) -> Any:
        if isinstance(value, Mapping):
            return {int(f) if isinstance(f, str) and f.isdigit() else f: v for f, v in value.items()}
        return value


class BallModifiers(_Strict):
    enfilade: int
    officer_attached: int


class Handling(_Strict):
    arc: Annotated[int, Field(strict=True, ge=0, le=90)]
    pivot: dict[Literal["field", "heavy"], Annotated[int, Field(strict=True, ge=0, le=180)]]
    every: dict[Literal["field", "heavy"], Annotated[int, Field(strict=True, ge=1, le=6)]]
    clear_space: Inches
    ball_takes_cover: bool


class Artillery(_Strict):
    ball_range: dict[Gun, Inches]
    canister_range: dict[Gun, Inches]
    penetration: dict[Literal["field", "heavy"], Inches]
    ball_hits: dict[Literal["deep", "shallow", "cavalry"], dict[D6Face, Annotated[int, Field(ge=0, le=6)]]]
    canister: Canister
    deep: Deep
    stops: Stops
    batteries: Batteries
    modifiers: BallModifiers
    handling: Handling

    @field_validator("ball_hits", mode="before")
    @classmethod
    def _faces_from_keys(cls, value: Any) -> Any:
        """TOML keys are strings: ``"6" = 2`` reads as face 6, two hits."""
        if isinstance(value, Mapping):
            return {k: ({int(f) if isinstance(f, str) and f.isdigit() else f: n for f, n in v.items()}
                        if isinstance(v, Mapping) else v) for k, v in value.items()}
        return value


class ArmyMorale(_Strict):
    bands: tuple[tuple[Annotated[int, Field(ge=0, le=100)], Annotated[int, Field(ge=1, le=20)]], ...]
    fright_at: Annotated[int, Field(ge=0, le=100)]
    vital_point_lost: Annotated[int, Field(strict=True, ge=0, le=10)]
    uncounted: tuple[MoveType, ...]


class Victory(_Strict):
    turns_before_darkness: Annotated[int, Field(strict=True, ge=1, le=50)]
    degrees: tuple[tuple[Annotated[int, Field(ge=0, le=100)], str], ...]
    hold_within: Annotated[float, Field(ge=0.0, le=24.0)]
    count_whole: tuple[Literal["routed", "captured", "plundering", "deserted"], ...]
    degrees_over: tuple[str, ...]
    captured_by_foot: tuple[D6Face, ...]
    setup_line: Inches
    vital_held: Literal["unless_taken", "occupied"]


class Plunder(_Strict):
    obedient: tuple[D6Face, ...]
    returns: tuple[D6Face, ...]
    reentry: dict[D6Face, Literal["left", "exit", "right"]]
    reentry_shift: Inches

    @field_validator("reentry", mode="before")
    @classmethod
    def _faces_from_keys(cls, value: Any) -> Any:
        if isinstance(value, Mapping):
            return {int(f) if isinstance(f, str) and f.isdigit() else f: v for f, v in value.items()}
        return value


class MeleeDice(_Strict):
    """Close combat D: the additional dice each condition gives a unit."""

    soft_obstacle: int
    horse_against_motionless_horse: int
    pistol_fire: int
    elite: int
    horse_against_foot_without_pikes: int
    hard_obstacle: int
    foot_in_works_or_town: int
    flank_or_rear: int
    against_lobsters: int
    scots_horse: int
    trained_bands: int
    horse_in_town: int
    uphill: int
    disordered: int


class Melee(_Strict):
    casualties_rounding: Literal["down", "nearest", "up"]
    odd_stand_fights: bool
    dice: MeleeDice


class Caracole(_Strict):
    pistols: tuple[D6Face, ...]
    royalist_bonus: Annotated[int, Field(strict=True, ge=-6, le=6)]
    abandoned_from: Annotated[int, Field(strict=True, ge=1600, le=1701)]


class GroundCost(_Strict):
    """Movement lost to a kind of ground by one arm: D6 (``dice``), fixed ``inches``, or
    none at all (``impassable``)."""

    dice: Annotated[int, Field(strict=True, ge=0, le=4)] = 0
    inches: Inches = 0
    impassable: bool = False


class Rout(_Strict):
    """Readings chosen for falling back and routing (section 13 C, 15 A, C)."""

    flank_rear_reads: Literal["total", "die"]
    half_d6: Literal["up", "down"]
    lower_pikes: bool


class Sight(_Strict):
    """Terrain 16 B: the dead ground behind woods and buildings seen from a hill."""

    dead_ground: Inches


class Reaction(_Strict):
    """12 L: what a charged unit that fails its test to change formation or reface does:
    "rout" (read with the sentence before: "any failure means that they rout") or
    "stand" (it only may not change)."""

    reform_failure: Literal["rout", "stand"]


class Visibility(_Strict):
    """Set-up D, Sequence of play B: how near an enemy must be to see a hidden piece, by
    the ground it stands on, and whether a hidden unit may move unseen."""

    open: Inches
    woods: Inches
    town: Inches
    unseen_moves: bool


class Tables(_Strict):
    """Every table the rule set reads."""

    movement: dict[MoveType, MoveLine]
    command_response: CommandResponse
    officer_grades: dict[Literal["army", "wing", "brigadier"], tuple[Grade, ...]]
    officer_bonus: OfficerBonus
    cards: Cards
    initial_morale: dict[MoraleClass, tuple[int, int, int, int, int, int]]
    morale: Morale
    disorder: Disorder
    musketry: Musketry
    artillery: Artillery
    army_morale: ArmyMorale
    victory: Victory
    plunder: Plunder
    terrain: dict[str, dict[Arm, GroundCost]]
    rout: Rout
    melee: Melee
    caracole: Caracole


    sight: Sight
    reaction: Reaction
    visibility: Visibility

    _every_face = field_validator("officer_grades")(lambda v: _six_faces(v))
    _every_move = field_validator("movement")(lambda v: _need_all(v, MoveType))
    _every_class = field_validator("initial_morale")(lambda v: _need_all(v, MoraleClass))


def _six_faces(found: Mapping[str, tuple[Any, ...]]) -> Mapping[str, tuple[Any, ...]]:
    """``found``, whose every line gives one entry for each face of a D6."""
    for key, line in found.items():
        if len(line) != 6:
            raise ValueError(f"{key} has {len(line)} entries, not one for each face of a D6")
    return found


def _need_all(found: Mapping[str, Any], kind: Any) -> Mapping[str, Any]:
    """``found``, which must have a line for each name ``kind`` (a Literal) allows."""
    missing = [k for k in kind.__args__ if k not in found]
    if missing:
        raise ValueError(f"lacks {', '.join(missing)}")
    return found


@cache
def default_tables() -> Tables:
    """The built-in tables (``tables.toml``)."""
    with TABLES_FILE.open("rb") as f:
        return Tables.model_validate(tomllib.load(f))


class TablesError(ValueError):
    """A replacement table that does not fit; the message names the table and field."""


def tables_with(replacements: Mapping[str, Any]) -> Tables:
    """The built-in tables with some replaced whole, each checked as strictly."""
    if not replacements:
        return default_tables()
    unknown = sorted(set(replacements) - set(Tables.model_fields))
    if unknown:
        raise TablesError(f"tables.{unknown[0]}: no such table (tables: {', '.join(Tables.model_fields)})")
    merged = {**default_tables().model_dump(by_alias=True), **replacements}
    try:
        return Tables.model_validate(merged)
    except ValidationError as e:
        where, why = explain(e.errors(include_url=False)[0], merged, Tables)
        raise TablesError(f"tables.{where}: {why}") from None


@lru_cache(maxsize=64)
def _tables(replacements: str) -> Tables:
    return tables_with(json.loads(replacements))


def tables_of(state: GameState) -> Tables:
    """The tables this game plays with: the built-in ones and the scenario's replacements.
    Asked at almost every step: the replacements last asked about, the very same mapping
    (every state of a game holds the one its first had), are answered without writing
    them out again."""
    given = game_data(state).tables
    last = _LAST_ASKED
    if last and last[0][0] is given:
        return last[0][1]
    found = _tables(json.dumps(given, sort_keys=True))
    last[:] = [(given, found)]
    return found


_LAST_ASKED: list[tuple[Mapping[str, Any], Tables]] = []
"""The replacements last asked about (held, so never another's id) and their tables."""
