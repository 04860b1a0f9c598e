"""The end of the battle (section 19 C-F): victory by objectives and vital points,
darkness, the pursuit phase and the degree of victory.

"C. If one army has occupied all of its objectives and still holds at least two of its
own vital points, while the other army has not, then that army has won the game. Proceed
directly to the PURSUIT PHASE below and after that to the DEGREE OF VICTORY." "D. If
neither army has won after 10 turns, roll one D6. The result is the number of turns left
till darkness. If darkness falls and neither army has won, count casualties on each side.
Count exact casualties except: [lost] The side with the larger percent of casualties has
lost. Proceed to the DEGREE OF VICTORY Phase below."

Read so:

- Victory (C) is checked as each turn ends, after army morale (:func:`at_turn_end`);
  holding and keeping points is :mod:`~tertia.rulesets.charge_yr_pikes.points`'. A side
  with no objectives cannot win so.
- After the game's ``turn_limit`` (10) turns the D6 is rolled once; darkness falls as
  turn ``turn_limit`` + the roll ends. At darkness there is no pursuit. Equal percentages
  are a drawn battle.
- Casualties at darkness and for the degree of victory are counted exactly, save the
  kinds in ``tables.toml [victory] count_whole``
  (:func:`~tertia.rulesets.charge_yr_pikes.army.final_losses`).
- The pursuit phase (E) is begun as a phase of its own (the log and the page say so), and
  kept simple and exact: "a move to the rear" is the unit's normal
  move (its formation's line of the movement table, no ground or disorder costs) straight
  towards its own table edge, without turning; a unit whose move reaches its edge gets
  off the board. Routed losers are removed (dead). The winners in good order that fight
  (infantry and cavalry: not guns, wagons or officers) "may make a move forward":
  each, or those the winner names, its normal move straight towards the enemy's edge
  (stopping at it). A loser is contacted when a winner's path (the ground its base sweeps)
  touches its base; contacted by cavalry (horse, lobsters, Scots horse, mounted dragoons)
  it is captured, else by infantry (foot, musketeers, highlanders, dismounted dragoons) it
  rolls a D6, captured on ``captured_by_foot`` (1-3). Officers take no part: "A general
  which is not in the front rank of a unit may not be over-run or captured".
- A move of the pursuit, to the rear or forward, ends clear of its own side's pieces, as
  every move does (Formations C: units "can move freely through friendly units as long
  as they do not end their move intermingled"): it is cut back :data:`CUT_BACK` at a
  time until it does (:func:`clear_run`); the winners move the foremost first. A
  winner's path for contact is its whole move forward, where it would have ended had no
  friend stood there.
- The degree of victory (F) is read from the difference of the two percentages in
  percentage points; a bound is reached (5 points higher is marginal), save "over 50%
  higher" (``degrees_over``): exactly 50 is overwhelming.
- The result's score is each side's enemy casualties in figures, which decide nothing
  (the text has no points): the reason says how the battle was decided (19 C or D), each
  army's share of casualties and figures lost, what the score counts, and how much
  higher the beaten army's share is, with the degree (:func:`result_reason`), so that a
  victor that laid fewer figures low than it lost reads right.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from fractions import Fraction

from tertia.core.dice import D6
from tertia.core.events import GameDataChanged, GameEnded, PhaseBegan, UnitMoved, UnitRemoved
from tertia.core.geometry import EPSILON, Base, heading_vector, polygon_distance, swept_polygon
from tertia.core.presentation import Ending
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rules.involuntary import stands_on
from tertia.rules.measuring import home_edge
from tertia.rulesets.charge_yr_pikes.army import CAPTURED, ESCAPED, ROUTED, ArmyLosses, final_losses
from tertia.rulesets.charge_yr_pikes.data import SQUARE
from tertia.rulesets.charge_yr_pikes.movement import line_of
from tertia.rulesets.charge_yr_pikes.points import (
    OBJECTIVE,
    in_good_order,
    objectives_occupied,
    places,
    vital_points_kept,
)
from tertia.rulesets.charge_yr_pikes.tables import Tables, Victory
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

PURSUIT = "pursuit"
"""The phase the pursuit is, begun (for the players to see) before the losers move off."""
KEEP_AT_LEAST = 2
"""19 C: "still holds at least two of its own vital points"."""
INFANTRY = frozenset({"foot", "musketeers", "highlanders"})
CAVALRY = frozenset({"horse", "lobsters", "scots_horse"})


def has_won(state: GameState, side: str, tables: Tables) -> bool:
    """Has ``side`` "occupied all of its objectives and still holds at least two of its
    own vital points"?"""
    objectives = places(state, side, OBJECTIVE)
    return (bool(objectives) and objectives_occupied(state, side, tables) == len(objectives)
            and vital_points_kept(state, side, tables) >= KEEP_AT_LEAST)


def winner_by_points(state: GameState, tables: Tables) -> str | None:
    """19 C: the side that has won by its objectives and vital points "while the other
    army has not"; None when neither or both have."""
    won = [side for side in state.sides if has_won(state, side, tables)]
    return won[0] if len(won) == 1 else None


def at_turn_end(tx: Tx, tables: Tables, pursuers: Collection[str] | None = None) -> bool:
    """As each turn ends (after army morale): a side that has won by 19 C wins, after the
    pursuit phase (``pursuers``: the winning units that move forward; None: all that
    can); else, after ``turn_limit`` turns, the D6 for the turns left till darkness is
    rolled, and when darkness falls the battle ends on casualties. True when the battle
    has ended."""
    winner = winner_by_points(tx.state, tables)
    if winner is not None:
        held = {side: _points_held(tx.state, side, tables) for side in tx.state.sides}
        tx.emit(PhaseBegan(phase=PURSUIT))
        pursue(tx, winner, tables, pursuers)
        end(tx, winner, BY_POINTS, tables, held)
        return True
    game = game_data(tx.state)
    if game.darkness_in is None:
        if tx.state.turn >= game.turn_limit:
            left = tx.roll(DARKNESS_DIE, "turns left till darkness")
            tx.emit(GameDataChanged(key="darkness_in", value=left))
        return False
    if tx.state.turn >= game.turn_limit + game.darkness_in:
        darkness(tx, tables)
        return True
    return False


def darkness(tx: Tx, tables: Tables) -> None:
    """"If darkness falls and neither army has won ... The side with the larger percent
    of casualties has lost"; equal shares draw."""
    a, b = tx.state.sides
    pa, pb = final_losses(tx.state, a, tables).percent, final_losses(tx.state, b, tables).percent
    if pa == pb:
        end(tx, None, AT_DARKNESS, tables)
        return
    loser = a if pa > pb else b
    end(tx, tx.state.opponent(loser), AT_DARKNESS, tables)


def degree_of_victory(margin: Fraction, table: Victory) -> str:
    """F: the degree for a loser's casualties ``margin`` percentage points higher than the
    winner's."""
    degrees = sorted(table.degrees)
    found = degrees[0][1]
    for bound, name in degrees:
        if margin > bound or (margin == bound and name not in table.degrees_over):
            found = name
    return found


BY_POINTS = "by_points"
"""19 C decided the battle: a side occupied its objectives and kept its vital points."""
DARKNESS_DIE = D6
"""19 D: "roll one D6. The result is the number of turns left till darkness"."""
AT_DARKNESS = "at_darkness"
"""19 D decided it: darkness fell and the shares of casualties were compared."""
SCORE_IS = "each side's score is the enemy's casualties in figures"
"""What the result's score counts, said in its reason: the score is no part of the
text's victory, which objectives or the shares of casualties decide."""


def end(tx: Tx, winner: str | None, how: str, tables: Tables,
        held: Mapping[str, Mapping[str, int]] | None = None) -> None:
    """End the battle: each side's casualties (F: "Each side again computes it's
    caualties as a percentage of it's entire army"), the points it held (``held``: as
    the battle was won, before the pursuit; else now) and the degree of victory in the
    breakdown; each side's score is the enemy's casualties in figures. The reason says
    how the battle was decided (``how``: :data:`BY_POINTS` or :data:`AT_DARKNESS`), the
    casualties it was decided or graded on, what the score counts and the degree
    (:func:`result_reason`)."""
    state = tx.state
    counted = {side: final_losses(state, side, tables) for side in state.sides}
    held = held or {side: _points_held(state, side, tables) for side in state.sides}
    breakdown: dict[str, object] = {s: {**_losses_summary(counted[s]), **held[s]} for s in state.sides}
    degree = None
    if winner is not None:
        margin = counted[state.opponent(winner)].percent - counted[winner].percent
        degree = f"{degree_of_victory(margin, tables.victory)} victory"
        breakdown["degree"] = degree
        breakdown["margin"] = round(float(margin), 2)
    reason = result_reason(how, counted, winner, degree, state.sides)
    tx.emit(GameEnded(winner=winner, score={s: counted[state.opponent(s)].lost for s in state.sides},
                      reason=reason, breakdown=breakdown))


WON_BY_POINTS = ("the victors have occupied all their objectives and kept two or more of their vital points, "
                 "the beaten army has not")
"""How a result's reason opens when the battle was won by the points (19 C)."""

DARKNESS_FALLS = "darkness falls"
"""How a result's reason opens when the battle ended at darkness (19 D)."""

ENDINGS = (Ending("won by objectives (19 C)", WON_BY_POINTS, decided=True),
           Ending("darkness fell (19 D)", DARKNESS_FALLS, decided=False))
"""Every way a battle ends (:attr:`~tertia.core.presentation.Presentation.ENDINGS`)."""


def result_reason(how: str, counted: Mapping[str, ArmyLosses], winner: str | None, degree: str | None,
                  sides: tuple[str, str]) -> str:
    """The result in words, naming no side (the result names the winner): how the battle
    was decided, each army's casualties as a share and in figures, what the score counts
    and, for a victory, how much higher the beaten army's share is and the degree (F).

    >>> won = {"a": ArmyLosses("a", 106, 516), "b": ArmyLosses("b", 118, 490)}
    >>> result_reason(AT_DARKNESS, won, "a", "indecisive victory", ("a", "b"))
    ... # doctest: +NORMALIZE_WHITESPACE
    "darkness falls and the larger share of casualties loses: the beaten army lost 24.08% of its
    figures, 118 of 490, the victors 20.54%, 106 of 516; each side's score is the enemy's
    casualties in figures; the beaten army's share is 3.54 points higher: an indecisive victory"
    """
    if winner is None:
        each = _percent(counted[sides[0]].percent)
        return (f"{DARKNESS_FALLS} and each army has lost {each} of its figures: equal shares of casualties, "
                f"a drawn battle; {SCORE_IS}")
    beaten, victors = counted[_other(sides, winner)], counted[winner]
    decided = WON_BY_POINTS if how == BY_POINTS else \
        f"{DARKNESS_FALLS} and the larger share of casualties loses"
    margin = beaten.percent - victors.percent
    higher = "no higher" if margin == 0 else f"{_points(abs(margin))} {'higher' if margin > 0 else 'lower'}"
    article = "an" if degree and degree[0] in "aeiou" else "a"
    return (f"{decided}: the beaten army lost {_percent(beaten.percent)} of its figures, "
            f"{beaten.lost} of {beaten.strength}, the victors {_percent(victors.percent)}, "
            f"{victors.lost} of {victors.strength}; {SCORE_IS}; the beaten army's share is {higher}: "
            f"{article} {degree}")


def _other(sides: tuple[str, str], side: str) -> str:
    return sides[1] if side == sides[0] else sides[0]


def _percent(share: Fraction) -> str:
    """A share as the result's breakdown rounds it, to two places: "24.08%", "37.5%"."""
    return f"{round(float(share), 2):g}%"


def _points(margin: Fraction) -> str:
    """Percentage points as the breakdown's margin: "3.54 points", "1 point"."""
    text = f"{round(float(margin), 2):g}"
    return f"{text} point" if text == "1" else f"{text} points"


def _losses_summary(counted: ArmyLosses) -> dict[str, object]:
    return {"casualties_percent": round(float(counted.percent), 2), "figures_lost": counted.lost,
            "army_figures": counted.strength}


def _points_held(state: GameState, side: str, tables: Tables) -> dict[str, int]:
    return {"objectives_occupied": objectives_occupied(state, side, tables),
            "vital_points_held": vital_points_kept(state, side, tables)}


# --- the pursuit phase ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pursuit:
    """The losers divided "into the quick (living) and the dead": those that got off the
    board (``escaped``), those left on it (``living``: not contacted, or contacted by
    infantry and escaped), the routed removed (``routed``) and the ``captured``."""

    escaped: tuple[str, ...]
    living: tuple[str, ...]
    routed: tuple[str, ...]
    captured: tuple[str, ...]


def pursue(tx: Tx, winner: str, tables: Tables, pursuers: Collection[str] | None = None) -> Pursuit:
    """E, steps 1 to 7, for the army that lost to ``winner``."""
    loser = tx.state.opponent(winner)
    escaped = _to_the_rear(tx, loser, tables)
    routed = tuple(u.id for u in tx.state.iter_troops(loser) if unit_data(u).routed)
    for unit_id in routed:
        tx.emit(UnitRemoved(unit=unit_id, reason=ROUTED, detail="routed when its army lost: with the dead"))
    paths = _forward(tx, winner, tables, pursuers)
    living: list[str] = []
    captured: list[str] = []
    for unit in list(tx.state.iter_troops(loser)):
        if _is_captured(tx, unit, paths, tables):
            tx.emit(UnitRemoved(unit=unit.id, reason=CAPTURED, detail="taken in the pursuit"))
            captured.append(unit.id)
        else:
            living.append(unit.id)
    return Pursuit(escaped, tuple(living), routed, tuple(captured))


def move_of(unit: Unit, tables: Tables) -> float:
    """A unit's normal move in its formation (a gun that has fired moves no more)."""
    own = unit_data(unit)
    if own.gun_fired:
        return 0.0
    line = line_of(tables, own)
    return float(line.square if own.formation == SQUARE and line.square is not None else line.normal)


def _to_the_rear(tx: Tx, side: str, tables: Tables) -> tuple[str, ...]:
    """Step 1: "Move all losing units (except routed) a move to the rear. Any units that
    can get off the board will live." Returns those that got off."""
    off: list[str] = []
    dx, dy = heading_vector(_heading(tx.state, side, home=True))
    for unit in list(tx.state.iter_troops(side)):
        if unit_data(unit).routed:
            continue
        move = move_of(unit, tables)
        if _room(tx, unit.base, side, home=True) <= move + EPSILON:
            tx.emit(UnitRemoved(unit=unit.id, reason=ESCAPED, detail="got off the board in the pursuit"))
            off.append(unit.id)
            continue
        move = clear_run(tx.state, unit, (dx, dy), move)
        if move > 0.0:
            tx.emit(UnitMoved(unit=unit.id, path=((unit.x, unit.y), (unit.x + dx * move, unit.y + dy * move)),
                              facing=unit.facing, reason="pursuit: a move to the rear"))
    return tuple(off)


def _forward(tx: Tx, side: str, tables: Tables, pursuers: Collection[str] | None
             ) -> dict[str, tuple[Base, Base]]:
    """Step 3: the winners that fight move forward a normal move, straight towards the
    enemy's edge, stopping at it; each one's base before and after."""
    dx, dy = heading_vector(_heading(tx.state, side, home=False))
    paths: dict[str, tuple[Base, Base]] = {}
    # the foremost first, so that those behind end clear of where it ends
    for unit in sorted(tx.state.iter_troops(side), key=lambda u: (_room(tx, u.base, side, home=False), u.id)):
        chosen = pursuers is None or unit.id in pursuers
        if not (chosen and in_good_order(unit) and _arm(unit) is not None):
            continue
        move = min(move_of(unit, tables), _room(tx, unit.base, side, home=False))
        paths[unit.id] = (unit.base, unit.base.moved_to(unit.x + dx * move, unit.y + dy * move))
        move = clear_run(tx.state, unit, (dx, dy), move)
        if move > 0.0:
            tx.emit(UnitMoved(unit=unit.id, path=((unit.x, unit.y), (unit.x + dx * move, unit.y + dy * move)),
                              facing=unit.facing, reason="pursuit: a move forward"))
    return paths


CUT_BACK = 0.25
"""Inches a move is cut back at a time to end clear of friends (Formations C): one the
ground's dice cut short, or one of the pursuit phase."""


def clear_run(state: GameState, unit: Unit, direction: tuple[float, float], move: float) -> float:
    """How far of ``move`` inches straight along ``direction`` ``unit`` goes so as to end
    on no other piece of its side (Formations C: units "can move freely through friendly
    units as long as they do not end their move intermingled"): the whole move, else cut
    back :data:`CUT_BACK` at a time (to none at all). The enemy's pieces are the
    pursuit's to settle (contact captures, steps 4 and 5), and officers at large no bar
    (Generals F: they are moved out of the way)."""
    dx, dy = direction
    enemy = {u.id for u in state.iter_units(state.opponent(unit.side))}
    while move > 0.0 and stands_on(state, unit.base.moved_to(unit.x + dx * move, unit.y + dy * move),
                                   {unit.id, *enemy}, commanders=False):
        move = max(0.0, move - CUT_BACK)
    return move


def _is_captured(tx: Tx, unit: Unit, paths: dict[str, tuple[Base, Base]], tables: Tables) -> bool:
    """Steps 4 and 5: captured when a victorious cavalry unit's path touches ``unit``;
    else, touched by infantry, on a D6 of ``captured_by_foot``."""
    corners = unit.base.corners()
    arms = {_arm(tx.state.units[w]) for w, (start, end) in paths.items()
            if polygon_distance(swept_polygon(start, end), corners) <= EPSILON}
    if "cavalry" in arms:
        return True
    if "infantry" in arms:
        face = tx.roll(D6, f"pursuit: {unit.label} contacted by infantry")
        return face in tables.victory.captured_by_foot
    return False


def _arm(unit: Unit) -> str | None:
    """"infantry" or "cavalry" for the pursuit (dragoons by whether they are mounted);
    None for guns, wagons and officers."""
    own = unit_data(unit)
    if own.troop == "dragoons":
        return "cavalry" if own.mounted else "infantry"
    return "infantry" if own.troop in INFANTRY else "cavalry" if own.troop in CAVALRY else None


def _heading(state: GameState, side: str, *, home: bool) -> float:
    """Straight towards ``side``'s own table edge (``home``) or the enemy's."""
    towards_south = (home_edge(state, side) == "south") == home
    return 180.0 if towards_south else 0.0


def _room(tx: Tx, base: Base, side: str, *, home: bool) -> float:
    """How far ``base`` can go straight towards ``side``'s own edge (``home``) or the
    enemy's before it reaches it."""
    ys = [y for _, y in base.corners()]
    towards_south = (home_edge(tx.state, side) == "south") == home
    return max(0.0, min(ys)) if towards_south else max(0.0, tx.table.depth - max(ys))

