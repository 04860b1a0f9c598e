"""How a player fights Charge yr Pikes! against itself: whether its battles are decided,
and by which arms, battle by battle.

For each battle (every one written for the rule set, or those named), a player (by
default the doctrine) takes both sides for ``--games`` seeds, and the script reports:

- **decided**: battles won by objectives (19 C), with a 95% Wilson interval; the others
  end at darkness on the share of casualties (19 D);
- **foot in a close combat**, as a share of the foot regiments fielded (horse, dragoons,
  guns, officers and the baggage left out), two ways: *charged or charging*, a regiment
  in a charge fought out in the close combat phase (12 A-G: the tests to close and to
  stand, and the melee when both do), with a charged battery's supporters within 4"
  (section 10), and *melee fought*, one in a combat in which casualties fell in close
  combat (12 E), so neither side flinched before contact;
- **horse lost**: regiments of horse out of play at the end, a battle, each side's of
  those it fielded, and how they went: routed as their army took fright (15 L step 2,
  and the friends their rout made test), else by the way they left the table (fled off
  it in a rout, deserted under the 50% rules, captured, destroyed, off it plundering
  ...); not those that got off the board in the pursuit, which "will live" (19 E 1);
- **fright**: battles in which each side's army took fright (15 L), and how many battles
  were decided by the turn the first army took fright (:data:`FRIGHT_BANDS`): an army is
  past holding its ground only once it has, and an objective behind its line is seldom
  taken before (the doctrine goes for its objectives then, or on a lead of 10 points);
- **how near the undecided came**: in each battle not decided, the most of its three
  objectives a side held at once as a turn began (19 C asks all three, and two of its
  own vital points kept); and, for each objective of each side, the battles in which
  the side held it as some turn began, as the battle was won (the victor's three) or
  as it ended, so the objective that holds the decisions back shows.

Usage: python benchmarks/pikes_play.py [--scenario edgehill ...] [--player doctrine]
    [--games 100] [--seed 1] [--workers 2] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tertia.ai.players import UnknownPlayer, entry, make_player
from tertia.analysis.sim.stats import wilson
from tertia.battle import BattleRecord, fight_battle
from tertia.core.events import UnitRemoved
from tertia.core.game import Game
from tertia.core.state import GameState, Unit
from tertia.rulesets import get_ruleset
from tertia.rulesets.charge_yr_pikes.army import ArmyMoraleTested
from tertia.rulesets.charge_yr_pikes.bonus import CloseCombatOver
from tertia.rulesets.charge_yr_pikes.charge import CAVALRY, gun_support, is_gun
from tertia.rulesets.charge_yr_pikes.data import ROUTED
from tertia.rulesets.charge_yr_pikes.events import UnitChanged
from tertia.rulesets.charge_yr_pikes.melee import CLOSE_COMBAT
from tertia.rulesets.charge_yr_pikes.points import OBJECTIVE, holds, objectives_occupied, places
from tertia.rulesets.charge_yr_pikes.tables import tables_of
from tertia.rulesets.charge_yr_pikes.troops import TROOPS
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data
from tertia.scenarios import resolve_scenario
from tertia.scenarios.catalogue import written_for

RULES = "charge-yr-pikes"


@dataclass(frozen=True)
class Battle:
    """What one battle came to."""

    seed: int
    decided: bool
    foot: int
    foot_charged: int
    foot_in_melee: int
    horse_lost: int
    fright: tuple[str, ...]
    horse_fielded: dict[str, int]
    """Each side's regiments of horse."""
    horse_lost_by: dict[str, dict[str, int]]
    """Each side's horse lost, by how (:data:`IN_FRIGHT`, else the reason it left)."""
    most_objectives: int
    """The most of its objectives a side held at once as a turn began."""
    objectives: tuple[tuple[str, str], ...] = ()
    """The battle's objectives (side, name), in the scenario's order."""
    objectives_held: tuple[tuple[str, str], ...] = ()
    """Each objective (side, name) its side held as some turn began or as the battle ended,
    and the victor's three in a battle won by objectives (:func:`objectives_held`)."""
    first_fright: int | None = None
    """The turn the first army took fright (15 L), None if neither did."""


LIVED = frozenset({"escaped"})
"""Removals that lose no regiment: a losing unit that got off the board in the pursuit
"will live" (19 E 1)."""

IN_FRIGHT = "fright"
"""Horse lost that routed in their army's fright test: at morale 1 (15 L step 2), or as
the rout of a friend within 6" made them test (Routing B)."""


def fight(job: tuple[str, str, int]) -> Battle:
    """Fight ``scenario`` with ``player`` on both sides from ``seed``."""
    scenario_name, player, seed = job
    scenario = resolve_scenario(scenario_name, rules_id=RULES)
    game = Game(get_ruleset(RULES), scenario)
    sides = scenario.side_ids
    record = fight_battle(game, {side: make_player(player) for side in sides}, seed)
    charged: set[str] = set()
    in_melee: set[str] = set()
    before = [record.initial_state, *(step.state for step in record.steps)]  # one more than steps
    for state, step in zip(before, record.steps, strict=False):
        if not any(isinstance(e, CloseCombatOver) for e in step.events):
            continue
        kept = game_data(state)  # the phase's charges, cleared as it ends
        hit = {getattr(e, "unit", None) for e in step.events if getattr(e, "cause", None) == CLOSE_COMBAT}
        for attacker, target, *_ in (*kept.charges, *kept.locked):
            members = {attacker, target}
            if target in state.units and is_gun(state.units[target]):
                members.update(gun_support(state, target))  # they fight for it (section 10)
            charged.update(members)
            if members & hit:
                in_melee.update(members)
    final = record.final_state
    pieces = [u for u in final.iter_units(include_removed=True) if not u.is_commander]
    foot = [u.id for u in pieces if _is_foot(u)]
    horse = [u for u in pieces if unit_data(u).troop in CAVALRY]
    how = _how_lost(record.steps, {u.id for u in horse})
    lost = [u for u in horse if not u.in_play and how.get(u.id) not in LIVED]
    lost_by = {side: dict(Counter(how.get(u.id, "other") for u in lost if u.side == side)) for side in sides}
    return Battle(seed=seed, decided=won_by_objectives(record),
                  foot=len(foot), foot_charged=sum(1 for f in foot if f in charged),
                  foot_in_melee=sum(1 for f in foot if f in in_melee),
                  horse_lost=len(lost),
                  fright=tuple(sorted(game_data(final).fright)),
                  horse_fielded={side: sum(1 for u in horse if u.side == side) for side in sides},
                  horse_lost_by=lost_by, most_objectives=most_objectives_held(record),
                  objectives=tuple((p.side, p.name) for p in places(record.initial_state, kind=OBJECTIVE)),
                  objectives_held=objectives_held(record),
                  first_fright=first_fright(record))


def first_fright(record: BattleRecord) -> int | None:
    """The turn in which an army first took fright (15 L), if one did."""
    before = [record.initial_state, *(step.state for step in record.steps)]
    for state, step in zip(before, record.steps, strict=False):
        if any(isinstance(e, ArmyMoraleTested) and e.fright for e in step.events):
            return state.turn
    return None


FRIGHT_BANDS = ((1, 5), (6, 8), (9, None))
"""The turns, first to last (None: to the end), by which the battles are grouped for the
turn their first army took fright."""


def fright_band(turn: int | None) -> str:
    """The name of the band of :data:`FRIGHT_BANDS` ``turn`` falls in; "never" for None."""
    if turn is None:
        return "never"
    for first, last in FRIGHT_BANDS:
        if turn >= first and (last is None or turn <= last):
            return f"turns {first}-{last}" if last is not None else f"turn {first} or later"
    return f"turn {turn}"


HOW_WORDS = {
    IN_FRIGHT: "routed as their army took fright",
    "routed off": "fled off the table in a rout",
    "routed": "removed routed as their army took fright",
    "deserted": "deserted",
    "captured": "captured",
    "destroyed": "destroyed",
    "plundering": "off the table plundering",
}
"""How horse were lost, in the words the report prints (the engine's removal reasons)."""


def _how_lost(steps: Sequence[Any], horse: set[str]) -> dict[str, str]:
    """How each regiment of ``horse`` last left the table: :data:`IN_FRIGHT` when its
    last rout came as its army took fright, else the reason it was removed."""
    how: dict[str, str] = {}
    routed_in_fright: dict[str, bool] = {}
    for step in steps:
        frightened: str | None = None  # the side whose fright steps the events now tell
        for e in step.events:
            if isinstance(e, ArmyMoraleTested):
                frightened = e.side if e.fright else None
            elif isinstance(e, UnitChanged) and e.unit in horse and "formation" in (values := dict(e.values)):
                # a rout in the fright steps marks it, a rally clears the mark
                routed_in_fright[e.unit] = (values["formation"] == ROUTED and frightened is not None
                                            and step.state.units[e.unit].side == frightened)
            elif isinstance(e, UnitRemoved) and e.unit in horse:
                how[e.unit] = IN_FRIGHT if routed_in_fright.get(e.unit) else e.reason
    return how


def turns_begun(record: BattleRecord) -> Iterator[GameState]:
    """The position as each turn after the first began (the turn before's end, when
    victory is judged, behind it)."""
    turn = record.initial_state.turn
    for state in (step.state for step in record.steps):
        if state.turn != turn:
            turn = state.turn
            yield state


def most_objectives_held(record: BattleRecord) -> int:
    """The most of its objectives (19 C) either side held at once as a turn began."""
    tables = tables_of(record.initial_state)
    return max((objectives_occupied(state, side, tables) for state in turns_begun(record)
                for side in state.sides), default=0)


def objectives_held(record: BattleRecord) -> tuple[tuple[str, str], ...]:
    """Each objective (its side, its name) that its side held (19 C) as some turn began or
    as the battle ended, and the victor's three in a battle won by objectives."""
    return tuple(sorted({*held_at_turns(record), *victors_objectives(record)}))


def held_at_turns(record: BattleRecord) -> set[tuple[str, str]]:
    """Each objective (its side, its name) that its side held (19 C) as some turn began or
    as the battle ended."""
    tables = tables_of(record.initial_state)
    return {(side, place.name) for state in (*turns_begun(record), record.final_state) for side in state.sides
            for place in places(state, side, OBJECTIVE) if holds(state, side, place, tables)}


def won_by_objectives(record: BattleRecord) -> bool:
    """Whether the battle was won by objectives (19 C), not decided at darkness: the
    rule set's one ending decided on the field (its presentation's ``ENDINGS``)."""
    ending = get_ruleset(RULES).presentation().ending(record.final_state.result)
    return ending is not None and ending.decided


def victors_objectives(record: BattleRecord) -> tuple[tuple[str, str], ...]:
    """The victor's objectives (side, name) in a battle won by objectives: it held all
    three as the turn ended (19 C), though its pursuers' move forward (19 E 3) may take
    them off one before the battle's last position; none in a battle not so won."""
    if not won_by_objectives(record):
        return ()
    victor = str((record.final_state.result or {}).get("winner"))
    return tuple((victor, place.name) for place in places(record.initial_state, victor, OBJECTIVE))


def _is_foot(unit: Unit) -> bool:
    """A foot regiment: of the foot arm (foot, musketeers, highlanders; Unit Organizations),
    not dragoons, guns or the baggage."""
    return TROOPS[unit_data(unit).troop].arm == "foot"


@dataclass(frozen=True)
class Summary:
    """The measures over a battle's seeds (see the module's note)."""

    battles: int
    decided: int
    decided_interval: tuple[float, float]
    foot_charged_or_charging: float
    foot_melee_fought: float
    horse_lost_a_battle: float
    fright: dict[str, int]
    horse_lost_by_side: dict[str, float]
    """Each side's horse lost a battle."""
    horse_fielded: dict[str, int]
    horse_lost_how: dict[str, float]
    """Horse lost a battle (both sides) by how they went, most first."""
    undecided_most_objectives: dict[int, int]
    """The battles not decided, by the most objectives a side held at once in them."""
    decided_by_first_fright: dict[str, tuple[int, int]]
    """By the band of turns in which the first army took fright (:func:`fright_band`):
    the battles decided, and the battles."""
    battles_holding: dict[str, dict[str, int]]
    """Each side's objectives, in the scenario's order, with the battles in which the
    side held each as some turn began, as the battle was won or as it ended."""


def summary(battles: Sequence[Battle], sides: Sequence[str]) -> Summary:
    """The measures over ``battles`` (at least one)."""
    n = len(battles)
    decided = sum(b.decided for b in battles)
    foot = sum(b.foot for b in battles) or 1
    interval = wilson(decided, n)
    return Summary(battles=n, decided=decided, decided_interval=(interval.low, interval.high),
                   foot_charged_or_charging=sum(b.foot_charged for b in battles) / foot,
                   foot_melee_fought=sum(b.foot_in_melee for b in battles) / foot,
                   horse_lost_a_battle=sum(b.horse_lost for b in battles) / max(1, n),
                   fright={side: sum(side in b.fright for b in battles) for side in sides},
                   horse_lost_by_side={side: sum(sum(b.horse_lost_by.get(side, {}).values())
                                                     for b in battles) / n for side in sides},
                   horse_fielded=dict(battles[0].horse_fielded),
                   horse_lost_how=_ranked(battles, n),
                   undecided_most_objectives=dict(sorted(Counter(b.most_objectives for b in battles
                                                                 if not b.decided).items())),
                   decided_by_first_fright=_by_first_fright(battles),
                   battles_holding=_battles_holding(battles))


def _by_first_fright(battles: Sequence[Battle]) -> dict[str, tuple[int, int]]:
    """Battles decided, and battles, by the band of turns their first army took fright
    in, the bands in order of turns and "never" last."""
    order = [fright_band(first) for first, _ in FRIGHT_BANDS] + [fright_band(None)]
    found: dict[str, tuple[int, int]] = {}
    for band in order:
        members = [b for b in battles if fright_band(b.first_fright) == band]
        if members:
            found[band] = (sum(b.decided for b in members), len(members))
    return found


def _battles_holding(battles: Sequence[Battle]) -> dict[str, dict[str, int]]:
    """For each side, each of its objectives with the battles in which it held it."""
    found: dict[str, dict[str, int]] = {}
    for side, name in battles[0].objectives:
        found.setdefault(side, {})[name] = sum((side, name) in b.objectives_held for b in battles)
    return found


def _ranked(battles: Sequence[Battle], n: int) -> dict[str, float]:
    """Horse lost a battle by how they went, over both sides, most first."""
    counts: Counter[str] = Counter()
    for b in battles:
        for tally in b.horse_lost_by.values():
            counts.update(tally)
    return {how: k / n for how, k in sorted(counts.items(), key=lambda item: (-item[1], item[0]))}


def progress(text: str, done: int, total: int) -> None:
    """``text`` on standard error: rewritten in place on a terminal; elsewhere (a log, a
    pipe) a line at each tenth of the battles, so a log stays readable."""
    if sys.stderr.isatty():
        print(f"\r{text}", end="", file=sys.stderr, flush=True)
    elif done == total or done * 10 // total != (done - 1) * 10 // total:
        print(text, file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", action="append", default=None,
                        help="a battle (repeatable; default: every one written for the rule set)")
    parser.add_argument("--player", default="doctrine", help="the player on both sides (`tertia players`)")
    parser.add_argument("--games", type=int, default=100, help="seeds a battle")
    parser.add_argument("--seed", type=int, default=1, help="the first seed; the rest follow it")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="write the numbers here")
    args = parser.parse_args(argv)
    try:
        player = entry(args.player).name
    except UnknownPlayer as exc:
        parser.error(str(exc))
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    scenarios = args.scenario or [s.name for s in written_for(RULES)]
    report: dict[str, object] = {"player": player, "seed": args.seed, "games": args.games}
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for name in scenarios:
            sides = resolve_scenario(name, rules_id=RULES).side_ids
            jobs = [(name, player, seed) for seed in range(args.seed, args.seed + args.games)]
            battles: list[Battle] = []
            for battle in pool.imap(fight, jobs):
                battles.append(battle)
                progress(f"{name}: {len(battles)}/{len(jobs)} battles", len(battles), len(jobs))
            if sys.stderr.isatty():
                print(file=sys.stderr)
            found = summary(battles, sides)
            report[name] = asdict(found) | {"rows": [asdict(b) for b in battles]}
            low, high = found.decided_interval
            print(f"{name} ({player} against itself, seeds {args.seed}-{args.seed + args.games - 1}):")
            print(f"  decided by objectives  {found.decided} of {found.battles} [{low:.2f}, {high:.2f}]")
            print(f"  foot in a close combat {found.foot_charged_or_charging:.1%} charged or charging, "
                  f"{found.foot_melee_fought:.1%} melee fought")
            each = ", ".join(f"{side} {found.horse_lost_by_side[side]:.2f} of "
                             f"{found.horse_fielded.get(side, 0)}" for side in sides)
            print(f"  horse lost a battle    {found.horse_lost_a_battle:.2f} ({each})")
            print("    how: " + ", ".join(f"{HOW_WORDS.get(how, how)} {k:.2f}"
                                      for how, k in found.horse_lost_how.items()))
            print(f"  army took fright       {found.fright}")
            bands = ", ".join(f"{band} {won} of {k}"
                              for band, (won, k) in found.decided_by_first_fright.items())
            print(f"  decided by the turn the first army took fright: {bands}")
            near = ", ".join(f"{held} in {k}" for held, k in found.undecided_most_objectives.items())
            print(f"  undecided battles by the most objectives a side held at once: {near or 'none'}")
            held = "; ".join(f"{side} " + ", ".join(f"{objective} {k}" for objective, k in tally.items())
                             for side, tally in found.battles_holding.items())
            print(f"  battles in which a side held its objective: {held or 'none'}")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
