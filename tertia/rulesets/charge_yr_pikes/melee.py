"""Fighting a close combat (section 12 D-K; Special rules B, D; section 21 A).

- **E**: "Each side rolls the appropriate number of D6 for units involved in the melee
  and sums the total. Divide the result by 6 and that is the number of casualties
  inflicted on the enemy." Each side's dice (the sum over its units, :mod:`melee_dice
  <tertia.rulesets.charge_yr_pikes.melee_dice>`) are rolled as one node; the division
  rounds as ``tables.toml [melee] casualties_rounding`` says (down by default).
- **H**: "Casualties should be removed from units in equal proportions", pike and shot
  alike (:func:`~tertia.rulesets.charge_yr_pikes.casualties.kill`, which also rolls for
  front-rank officers). With several units on a side, the casualties are shared out one
  at a time, the unit that rolled the most dice first (then in the order given), never
  more than a unit has; a battery takes none. Casualties come off before the tests, so a
  unit tests as it stands after the fight.
- **F**: "The side that inflicts more casualties has won the melee and the loser tests
  morale. If it passes, it falls back disordered. If it fails, it routs." Each unit of
  the losing side tests.
- **G**: "If casualties are the same on each side then the smaller force tests morale. If
  it fails it falls back disordered. If it passes, the larger side tests in the same way.
  If both pass morale, the units are locked into the melee which continues in the next
  turn." The smaller force has fewer figures in its fighting units (the attacker's side
  when they are equal); each of its units tests and any that fails falls back
  disordered; only if none failed does the larger side test. A side whose units all fell
  back has lost and the other has won; units of both sides still standing are locked.
- **13 C**: a unit attacked in flank/rear that fails any of these tests routs.
- **Section 10**: a battery on the losing side, or whose side's units all fall back,
  routs: its gunners will not stand.
- **Special rules B**: fatigued men are forgotten once the combat is fought (winners
  "forget their fatigue and are available for any bonus move"; losers "suffer the unit's
  fate"; a locked melee goes on next turn with rested men).
- **Special rules D**: commanded musketeers intermingled with horse (their
  ``attached_to`` names the horse) do not fight beside it; "if there is a melee and their
  friendly horse get the worst of it, the musketeers then fight, and the modifiers are not
  friendly": when a horse unit loses, its musketeers fight a close combat of their own
  against the winners that fought that horse, on the same footing (same role, flank and
  obstacle as the horse), every modifier applying as usual (the enemy horse's "+1 D6 if
  Horse fighting foot without pikes" among them).
- **Section 21 A**: each horse unit that won and still stands tests obedience at once
  (:func:`~tertia.rulesets.charge_yr_pikes.plunder.obeys`); those that fail are named in
  :attr:`MeleeResult.plunderers` for the plunder move.
- **I-K**: :func:`bonus_moves`, once all close combats are resolved (who tests); the
  moves, breakthroughs and bonus combats are :mod:`~tertia.rulesets.charge_yr_pikes.bonus`'s.

The fall-back and rout moves (and disorder, and a rout's half D6 of casualties) are the
falling-back and routing rules': :class:`MeleeResult` names the units that fall back and
those that rout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tertia.core.dice import D6, sum_of
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers
from tertia.rulesets.charge_yr_pikes.casualties import kill
from tertia.rulesets.charge_yr_pikes.charge import BONUS, CAVALRY, EQUAL, LOST, MoraleCall, MoraleStep, is_gun
from tertia.rulesets.charge_yr_pikes.events import change
from tertia.rulesets.charge_yr_pikes.melee_dice import Fighter, UnitDice, unit_dice
from tertia.rulesets.charge_yr_pikes.plunder import obeys
from tertia.rulesets.charge_yr_pikes.secret_grades import called_on
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import unit_data

CLOSE_COMBAT = "close combat"
"""The cause of casualties taken in close combat."""


def casualties_from(total: int, rounding: str) -> int:
    """12 E: a side's total divided by 6, rounded "down", to the "nearest" (3 and more
    up) or "up".

    >>> [casualties_from(t, "down") for t in (5, 6, 17)], casualties_from(15, "nearest")
    ([0, 1, 2], 3)
    """
    # The total is only ever compared with multiples of six (and halves, rounding to the
    # nearest), so exact odds walk one branch for each number of casualties, not one for
    # each face of the side's dice (analysis.enumerate groups faces compared alike).
    shift = {"up": 5, "nearest": 3}.get(rounding, 0)
    whole = 0
    while total >= 6 * (whole + 1) - shift:
        whole += 1
    return whole


@dataclass(frozen=True, slots=True)
class SideRoll:
    """One side's part: its units' dice, the total rolled and the casualties it
    inflicted on the enemy."""

    side: str
    units: tuple[UnitDice, ...]
    total: int
    inflicted: int

    @property
    def dice(self) -> int:
        return sum(u.dice for u in self.units)


@dataclass(frozen=True, slots=True)
class MeleeResult:
    """What a close combat did: each side's roll (the attackers' first), the figures
    each unit lost, the morale tests in order, the units that fall back (disordered) and
    that rout, the winning side (None: locked), the units locked, the winners still
    standing (``won``), the horse that would plunder, the commanded musketeers' fights
    that followed (``then``) and whether the combat began this turn."""

    attackers: SideRoll
    defenders: SideRoll
    casualties: tuple[tuple[str, int], ...]
    tests: tuple[tuple[MoraleCall, bool], ...]
    fall_back: tuple[str, ...]
    rout: tuple[str, ...]
    winner: str | None
    locked: tuple[str, ...]
    won: tuple[str, ...]
    plunderers: tuple[str, ...]
    then: tuple[MeleeResult, ...]
    fighters: tuple[Fighter, ...]
    began_this_turn: bool = True

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.defenders.side if self.winner == self.attackers.side else self.attackers.side


def resolve(tx: Tx, tables: Tables, fighters: Sequence[Fighter], test: MoraleStep, *, graded: bool = True,
            plunder: bool = True, began_this_turn: bool = True) -> MeleeResult:
    """12 D-H with Special rules B and D and section 21 A: fight one close combat.
    ``fighters``: :func:`~tertia.rulesets.charge_yr_pikes.melee_dice.fighters_of` (or,
    for a locked melee, :func:`continued`); ``test``: the morale module's test."""
    by_id = {f.unit: f for f in fighters}
    a_side = tx.state.units[next(f.unit for f in fighters if f.attacking)].side
    d_side = next(s for s in tx.state.sides if s != a_side)
    mine = {s: [f for f in fighters if tx.state.units[f.unit].side == s] for s in (a_side, d_side)}
    rolls = {s: _roll(tx, tables, s, mine[s], by_id, graded) for s in (a_side, d_side)}
    lost = _share_out(tx, rolls[a_side].inflicted, rolls[d_side]) + _share_out(tx, rolls[d_side].inflicted,
                                                                               rolls[a_side])
    tests: list[tuple[MoraleCall, bool]] = []
    fall_back: list[str] = []
    rout: list[str] = []
    if rolls[a_side].inflicted != rolls[d_side].inflicted:
        loser = d_side if rolls[a_side].inflicted > rolls[d_side].inflicted else a_side
        for f in _testing(tx.state, mine[loser]):
            passed = _ask(test, tests, MoraleCall(f.unit, LOST, f.flank_or_rear))
            (fall_back if passed else rout).append(f.unit)
    else:
        first, second = _smaller_first(tx.state, mine, a_side, d_side)
        for s in (first, second):
            failed = False
            for f in _testing(tx.state, mine[s]):
                if not _ask(test, tests, MoraleCall(f.unit, EQUAL, f.flank_or_rear)):
                    (rout if f.flank_or_rear else fall_back).append(f.unit)
                    failed = True
            if failed:
                break
    gone = set(fall_back) | set(rout)
    standing = {s: [f.unit for f in _testing(tx.state, mine[s]) if f.unit not in gone] for s in mine}
    winner = _winner(standing, a_side, d_side)
    for s in mine:
        if winner is not None and s != winner:
            rout.extend(f.unit for f in mine[s] if is_gun(tx.state.units[f.unit]) and f.unit not in rout)
    for f in fighters:
        if unit_data(tx.state.units[f.unit]).fatigued:
            change(tx, f.unit, "fatigue forgotten after close combat", fatigued=0)
    then = _musketeers_fight(tx, tables, fighters, winner, standing, test, graded) if winner else ()
    beaten = {u for r in then for u in (*r.fall_back, *r.rout)}
    won = tuple(u for u in standing[winner] if u not in beaten) if winner else ()
    plunderers = tuple(u for u in won if plunder and unit_data(tx.state.units[u]).troop in CAVALRY
                       and not obeys(tx, tables, u, graded=graded))
    locked = () if winner else tuple(u for s in (a_side, d_side) for u in standing[s])
    return MeleeResult(rolls[a_side], rolls[d_side], tuple(lost), tuple(tests), tuple(fall_back), tuple(rout),
                       winner, locked, won, plunderers, then, tuple(fighters), began_this_turn)


def _roll(tx: Tx, tables: Tables, side: str, fighters: Sequence[Fighter], by_id: dict[str, Fighter],
          graded: bool) -> SideRoll:
    """12 D, E: a side's dice rolled as one, and the casualties they inflict. The
    officers in the fighters' front ranks are called on (section 22)."""
    for f in fighters:
        if graded and not is_gun(tx.state.units[f.unit]):
            called_on(tx, front_rank_officers(tx.state, f.unit), CLOSE_COMBAT)
    units = tuple(unit_dice(tables, tx.table, tx.state, f, by_id, graded=graded) for f in fighters)
    n = sum(u.dice for u in units)
    names = ", ".join(tx.state.units[f.unit].label for f in fighters)
    total = tx.roll(sum_of(n, D6), f"close combat: {side} ({names})") if n else 0
    return SideRoll(side, units, total, casualties_from(total, tables.melee.casualties_rounding))


def _share_out(tx: Tx, casualties: int, enemy: SideRoll) -> list[tuple[str, int]]:
    """12 H: casualties shared one at a time among the enemy's fighting units, the one
    that rolled the most dice first; each unit's pike and shot alike (``kill``)."""
    order = sorted((u for u in enemy.units if not is_gun(tx.state.units[u.unit])),
                   key=lambda u: -u.dice)
    room = {u.unit: unit_data(tx.state.units[u.unit]).figures for u in order}
    share = dict.fromkeys(room, 0)
    left = casualties
    while left > 0 and any(room[u] > share[u] for u in room):
        for u in room:
            if left > 0 and room[u] > share[u]:
                share[u] += 1
                left -= 1
    return [(u, kill(tx, u, n, CLOSE_COMBAT)) for u, n in share.items() if n]


def _testing(state: GameState, fighters: Sequence[Fighter]) -> list[Fighter]:
    """The units of a side that test: in play, with figures left, not batteries."""
    return [f for f in fighters if state.units[f.unit].in_play and not is_gun(state.units[f.unit])
            and unit_data(state.units[f.unit]).figures > 0]


def _smaller_first(state: GameState, mine: dict[str, list[Fighter]], a_side: str, d_side: str
                   ) -> tuple[str, str]:
    """12 G: the smaller force (fewer figures fighting; the attackers when equal) first."""
    def force(s: str) -> int:
        return sum(unit_data(state.units[f.unit]).figures for f in _testing(state, mine[s]))
    return (d_side, a_side) if force(d_side) < force(a_side) else (a_side, d_side)


def _winner(standing: dict[str, list[str]], a_side: str, d_side: str) -> str | None:
    if standing[a_side] and not standing[d_side]:
        return a_side
    if standing[d_side] and not standing[a_side]:
        return d_side
    return None


def _ask(test: MoraleStep, tests: list[tuple[MoraleCall, bool]], call: MoraleCall) -> bool:
    passed = test(call)
    tests.append((call, passed))
    return passed


def intermingled(state: GameState, horse_id: str) -> tuple[str, ...]:
    """Special rules D: the commanded musketeers intermingled with a horse unit."""
    side = state.units[horse_id].side
    return tuple(u.id for u in state.iter_troops(side) if unit_data(u).troop == "musketeers"
                 and unit_data(u).attached_to == horse_id and unit_data(u).figures > 0)


def _musketeers_fight(tx: Tx, tables: Tables, fighters: Sequence[Fighter], winner: str,
                      standing: dict[str, list[str]], test: MoraleStep, graded: bool
                      ) -> tuple[MeleeResult, ...]:
    """Special rules D: the musketeers of each beaten horse unit fight its victors."""
    out: list[MeleeResult] = []
    by_id = {f.unit: f for f in fighters}
    for f in fighters:
        unit = tx.state.units[f.unit]
        if unit.side == winner or unit_data(unit).troop not in CAVALRY:
            continue
        victors = tuple(v for v in f.foes if v in standing[winner])
        for m in intermingled(tx.state, f.unit):
            if not victors:
                break
            theirs = [replace(by_id[v], foes=(m,)) for v in victors]
            ours = replace(f, unit=m, foes=victors, pistols=False)
            order = [ours, *theirs] if f.attacking else [*theirs, ours]
            out.append(resolve(tx, tables, order, test, graded=graded, plunder=False))
    return tuple(out)


def continued(state: GameState, result: MeleeResult) -> tuple[Fighter, ...]:
    """12 G: a locked melee "continues in the next turn": its locked units, the same
    foes among them, without this turn's uphill charge or mounted fire."""
    locked = set(result.locked)
    return tuple(replace(f, foes=tuple(x for x in f.foes if x in locked), uphill=False, pistols=False)
                 for f in result.fighters if f.unit in locked and state.units[f.unit].in_play)


@dataclass(frozen=True, slots=True)
class BonusMove:
    """12 I, J: a winner that passed its test: foot make a normal move; horse a normal
    move or a breakthrough (the passed test counts as its test to close)."""

    unit: str
    breakthrough: bool


def bonus_moves(state: GameState, results: Sequence[MeleeResult], test: MoraleStep) -> tuple[BonusMove, ...]:
    """12 I-K, once all close combats are resolved: the winners of combats begun this
    turn (not those riding off to plunder) test; K: those that fail stand in place."""
    out: list[BonusMove] = []
    for r in results:
        if not r.began_this_turn:
            continue
        for u in r.won:
            if u in r.plunderers or not state.units[u].in_play:
                continue
            if test(MoraleCall(u, BONUS)):
                out.append(BonusMove(u, unit_data(state.units[u]).troop in CAVALRY))
    return tuple(out)
