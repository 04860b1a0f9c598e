"""Fire worked out together, then applied (Sequence of play C, D, E; Fire 8; Artillery 9).

The sequence fires a step's every shot (the artillery; then the standing muskets; then
the moving muskets) from the state as the step begins: each shot is worked out on that
state (:func:`~tertia.rulesets.charge_yr_pikes.musketry.work_out_volley`,
:func:`~tertia.rulesets.charge_yr_pikes.artillery.work_out_artillery`), rolling its
dice, and no shot's casualties change another's; then :func:`apply_fire` takes the
casualties of them all and says which units must test morale.

What the dice did to each unit is a :class:`Strike`. Applying, a unit's strikes of one
kind of fire in the step are pooled:

- "Halve hits - Target in town or field works. Half hits are added together to make
  whole hits. Any extra 'half hit' is 'confirmed' with a D6 roll. 1,2,3 = disregard ...
  4,5,6 = ... a full hit." The half hits of every shot of a kind at a unit in the step
  are added together, and one odd half is confirmed;
- "If muskets fire on artillerists, it takes two hits to remove one artillerist": the
  step's musket hits on a battery are pooled and every two remove a gunner; an odd hit
  is lost (no confirming die: the text asks for two hits);
- each whole hit kills a figure (:func:`~tertia.rulesets.charge_yr_pikes.casualties.kill`,
  under fire, so a front-rank officer and a galloper's gunners roll their D10s);
- a battery a ball has silenced cannot fire next turn, or at all until it rallies.

Who tests morale: musketry "test morale if casualties result"; "Target units fired on
by canister must test morale even if no hits result"; ball on foot or horse takes
casualties "but need not test morale", on field or heavy artillery "will test morale if
hit" (read: if the ball struck home at all, a gunner or the battery silenced); a routed
unit that takes casualties from any fire tests (Routing H).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tertia.core.dice import D6, Distribution, count_of
from tertia.core.ruleset import Tx
from tertia.core.state import Unit
from tertia.core.violations import Codes
from tertia.rulesets.charge_yr_pikes.casualties import kill
from tertia.rulesets.charge_yr_pikes.events import change
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import unit_data

MUSKETRY = "musketry"
GALLOPER = "galloper"
BALL = "ball"
CANISTER = "canister"

SILENT_TURN = "silent_turn"
SILENCED = "silenced"

Modifier = tuple[int, str]
"""One modifier's value and what it is for."""


class FireCode(Codes, namespace="charge-yr-pikes.fire"):
    """Why a unit may not fire at a target (Charge yr Pikes!)."""

    NOT_A_TARGET = "the piece is one fire may not strike (an officer, a galloper gun)"
    CANNOT_FIRE = "the unit has no weapon that fires, or is in no state to fire"
    NO_FIRING_STANDS = "no stand of the unit may fire"
    OUT_OF_ARC = "no firing stand has the target in its arc"
    OUT_OF_SIGHT = "the ground hides the target from every stand that bears on it"
    IN_THE_WAY = "troops stand in the line of fire"
    OUT_OF_RANGE = "the target is beyond the weapon's range"
    GUN_MOVED = "the gun moved or pivoted too far this turn"
    RELOADING = "a heavy gun fires every other turn"
    SILENCED = "the battery has been silenced"
    NO_BALL = "galloper guns fire no ball"
    WRONG_TARGET = "a galloper fires at its unit's target"


@dataclass(frozen=True, slots=True)
class Strike:
    """What one shot's dice did to one unit: ``hits`` the dice scored; ``halved``: it is
    in a town or works; ``per_figure``: hits that remove one figure (muskets on gunners:
    two); ``effect``: a ball silenced the battery (:data:`SILENT_TURN`, :data:`SILENCED`);
    ``struck``: the ball struck a battery home (it tests); ``test_always``: canister;
    ``faces``: the dice read (a count of hits for a stand count node)."""

    unit: str
    hits: int
    halved: bool = False
    per_figure: int = 1
    effect: str | None = None
    struck: bool = False
    test_always: bool = False
    test_on_casualties: bool = False
    faces: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Shot:
    """One unit's fire at its target: its ``kind`` (musketry, galloper, ball, canister),
    the ``modifiers`` that applied, the dice thrown at each range (``close``, ``long``:
    stands or gunners) and what it did to each unit (``strikes``: the target first, then
    any a ball passes through)."""

    firer: str
    target: str
    kind: str
    modifiers: tuple[Modifier, ...] = ()
    close: int = 0
    long: int = 0
    strikes: tuple[Strike, ...] = ()

    @property
    def hits(self) -> int:
        """The hits the dice scored on the target (before halving and pooling)."""
        return sum(s.hits for s in self.strikes if s.unit == self.target)


@dataclass(frozen=True, slots=True)
class FireApplied:
    """What a step's fire did: figures each unit lost, and the units that must test
    morale, in the order first struck."""

    casualties: dict[str, int] = field(default_factory=dict)
    must_test: tuple[str, ...] = ()


def total(modifiers: Iterable[Modifier]) -> int:
    return sum(v for v, _ in modifiers)


def hit_faces(hits: Sequence[int], modifier: int, sides: int = 6) -> tuple[int, ...]:
    """The faces of a die that hit when ``modifier`` is added to the roll: a modified roll
    is read on the table as the nearest face (above the top face: the top face).

    >>> hit_faces((3, 4, 5, 6), 1), hit_faces((5, 6), -1), hit_faces((5, 6), -2)
    ((2, 3, 4, 5, 6), (6,), ())
    """
    return tuple(f for f in range(1, sides + 1) if min(sides, max(1, f + modifier)) in hits)


def roll_hits(tx: Tx, dice: int, faces: Sequence[int], purpose: str) -> int:
    """How many of ``dice`` D6 show one of ``faces``, rolled as one node; nothing is
    rolled when the count is certain."""
    if dice <= 0:
        return 0
    node: Distribution = count_of(dice, D6, faces)
    if len(node.outcomes) == 1:
        return node.outcomes[0][0]
    return tx.roll(node, purpose)


def apply_fire(tx: Tx, shots: Sequence[Shot], tables: Tables) -> FireApplied:
    """Take the casualties of a step's ``shots`` together and record what firing did to
    the firers and silenced batteries (see the module's note)."""
    pooled: dict[tuple[str, str], list[Strike]] = {}
    for shot in shots:
        for strike in shot.strikes:
            pooled.setdefault((strike.unit, shot.kind), []).append(strike)
    casualties: dict[str, int] = {}
    for (unit_id, kind), strikes in pooled.items():
        unit = tx.state.units.get(unit_id)
        if unit is None or not unit.in_play:
            continue
        figures = _figures(tx, unit.label, strikes, tables)
        taken = kill(tx, unit_id, figures, kind, by_fire=True) if figures else 0
        if taken:
            casualties[unit_id] = casualties.get(unit_id, 0) + taken
    for shot in shots:
        for strike in shot.strikes:
            _silence(tx, strike)
        _fired(tx, shot)
    order: list[str] = []
    for shot in shots:
        for strike in shot.strikes:
            tests = strike.test_always or strike.struck or (
                strike.test_on_casualties and casualties.get(strike.unit, 0) > 0)
            routed = unit_data(tx.state.units[strike.unit]).routed and casualties.get(strike.unit, 0) > 0
            if (tests or routed) and strike.unit not in order and tx.state.units[strike.unit].in_play:
                order.append(strike.unit)
    return FireApplied(casualties, tuple(order))


def _figures(tx: Tx, label: str, strikes: Sequence[Strike], tables: Tables) -> int:
    """A unit's figures lost to one kind of fire in the step: whole hits, half hits added
    (an odd half confirmed on a D6), then the hits each figure takes."""
    whole = sum(s.hits for s in strikes if not s.halved)
    halves = sum(s.hits for s in strikes if s.halved)
    hits = whole + halves // 2
    if halves % 2:
        face = tx.roll(D6, f"half hit confirmed: {label}")
        hits += face in tables.musketry.half_hit_confirm
    per_figure = max(s.per_figure for s in strikes)
    return hits // per_figure


def _silence(tx: Tx, strike: Strike) -> None:
    if strike.effect is None or not tx.state.units[strike.unit].in_play:
        return
    if strike.effect == SILENCED:
        change(tx, strike.unit, "silenced by a ball until it rallies", silenced=True)
    elif strike.effect == SILENT_TURN:
        change(tx, strike.unit, "a ball stops it firing next turn", silent_turn=tx.state.turn + 1)


def _fired(tx: Tx, shot: Shot) -> None:
    """A unit's first volley is spent; a field or heavy gun that fires keeps its place for
    the rest of the game, and a gun's turn of firing is noted (heavy guns reload)."""
    firer = tx.state.units.get(shot.firer)
    if firer is None or not firer.in_play:
        return
    own = unit_data(firer)
    if shot.kind == MUSKETRY:
        change(tx, shot.firer, "its first volley fired", fired=True)
    elif shot.kind == GALLOPER:
        change(tx, shot.firer, "fired", fired=True, fired_turn=tx.state.turn)
    elif own.is_gun:
        change(tx, shot.firer, "fired: its horses and limbers go to the rear", fired=True, gun_fired=True,
               fired_turn=tx.state.turn)


def longest_reach(unit: Unit, tables: Tables) -> float:
    """The furthest a unit's fire can reach, base edge to base edge: muskets (and a
    galloper, firing as muskets) their long range, a gun the longer of its ball and
    canister. Every range the rules measure is at least the gap between the bases, so no
    target further off can be hit."""
    own = unit_data(unit)
    if own.is_battery:
        gun = own.gun or "field"  # a battery always names its gun
        return float(max(tables.artillery.ball_range.get(gun, 0),  # type: ignore[call-overload]
                         tables.artillery.canister_range.get(gun, 0)))  # type: ignore[call-overload]
    return float(max(tables.musketry.long_range, tables.artillery.canister_range.get("galloper", 0)))
