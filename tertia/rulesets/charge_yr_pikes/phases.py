"""The sequence of play after the movement phase (section 3, C to L).

- **C, D, E: fire.** Artillery, then standing muskets (units that have not moved this
  turn), then moving muskets (units that moved and are not charging: 12 A "Attacking
  units cannot fire"). In each step each side in turn gives its fire orders
  (:class:`~tertia.rulesets.charge_yr_pikes.actions.FireOrder`), the first side first,
  and ends its orders; then every order is worked out from the position as the step
  began and applied together (:func:`~tertia.rulesets.charge_yr_pikes.fire.apply_fire`),
  and the units struck test morale in the order first struck: a routed unit by 15 H,
  any other by the plain results (:func:`~tertia.rulesets.charge_yr_pikes.rout.fail_plainly`).
- **F to H: close combat.** The turn's charges, in the order made, are gathered into
  combats (charges that share a unit fight together); each combat is closed in (tests to
  close, defenders' tests), fought (:func:`~tertia.rulesets.charge_yr_pikes.melee.resolve`)
  and its results carried out (fall-backs, routs, plunder); combats are fought in the
  order of their first charge.
- **J: morale adjustments.** Each unit over half lost takes its -1 and tests.
- **K: rallies.** Routed units from an earlier turn try to rally; silenced batteries roll
  to fire again.
- **L: army morale** for each army, the first side first, then the battle's end
  (objectives and vital points, darkness).

- **I: bonus moves.** The winners of the combats begun this turn test; each side in turn
  gives those that passed their bonus moves and breakthroughs, then the bonus combats are
  fought (:mod:`~tertia.rulesets.charge_yr_pikes.bonus`).

A melee locked (12 G) is fought on in the next turn's close combat phase, before the new
ones. Countercharges, turning to meet and moving away from a charge (12 L, M; 13 B) are
made on the charged unit's card (:mod:`~tertia.rulesets.charge_yr_pikes.reaction`); a
countercharge is fought here with both units as attackers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tertia.core.events import PhaseBegan
from tertia.core.geometry import Base
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes import (
    army,
    artillery,
    bonus,
    melee,
    morale,
    musketry,
    plunder,
    reaction,
    victory,
)
from tertia.rulesets.charge_yr_pikes.charge import (
    CLOSED_ON,
    Charge,
    MoraleCall,
    MoraleStep,
    attacks_with_pistols,
    is_cavalry,
    lapsed,
)
from tertia.rulesets.charge_yr_pikes.events import MeleeLocked, OrdersDone, PhaseStep, StepOver
from tertia.rulesets.charge_yr_pikes.fallback import fall_back
from tertia.rulesets.charge_yr_pikes.fire import Shot, apply_fire
from tertia.rulesets.charge_yr_pikes.melee_dice import fighters_of
from tertia.rulesets.charge_yr_pikes.rout import fail_plainly, rout, routed_attacked, routed_fired_on
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

ARTILLERY = "artillery"
STANDING_FIRE = "standing_fire"
MOVING_FIRE = "moving_fire"
FIRE_STEPS = (ARTILLERY, STANDING_FIRE, MOVING_FIRE)
"""Sequence C, D, E."""
CLOSE_COMBAT = "close_combat"
ADJUSTMENTS = "adjustments"
RALLIES = "rallies"
ARMY_MORALE = "army_morale"


def after_movement(tx: Tx, tables: Tables, options: Mapping[str, Any]) -> bool:
    """The movement phase is over: note where each unit stands for the guns and begin the
    fire steps. True when the battle is over."""
    return begin_fire_step(tx, tables, options, 0)


def begin_fire_step(tx: Tx, tables: Tables, options: Mapping[str, Any], index: int) -> bool:
    """Begin fire step ``index`` (of :data:`FIRE_STEPS`); a step in which neither side
    has a unit that may fire is passed over. After the last, the close combat phase."""
    for step in FIRE_STEPS[index:]:
        tx.emit(PhaseBegan(phase=step))
        for side in tx.state.sides:
            if shooters(tx.state, side, step):
                tx.emit(PhaseStep(step=step, side=side))
                return False
    return after_fire(tx, tables, options)


def shooters(state: GameState, side: str, step: str) -> list[Unit]:
    """The units of ``side`` that may be given fire orders in ``step``."""
    charging = {c[0] for c in game_data(state).charges}
    return [u for u in state.iter_troops(side) if u.id not in charging and _may_fire(state, u, step)]


def is_shooter(state: GameState, unit_id: str, step: str) -> bool:
    """Whether ``unit_id`` is among the :func:`shooters` of the side to give orders (asked
    of the one unit, not the whole army)."""
    u = state.units.get(unit_id)
    if u is None or not u.in_play or u.is_commander or u.side != state.active:
        return False
    return all(c[0] != unit_id for c in game_data(state).charges) and _may_fire(state, u, step)


def _may_fire(state: GameState, unit: Unit, step: str) -> bool:
    own = unit_data(unit)
    if own.routed or own.abandoned:
        return False
    if step == ARTILLERY:
        return own.is_battery
    return (own.gun == "galloper" or musketry.has_muskets(own)) and \
        (step == STANDING_FIRE) == (not _moved(state, unit))


def _moved(state: GameState, unit: Unit) -> bool:
    """Has the unit moved this turn (a galloper: has its regiment)?"""
    own = unit_data(unit)
    led = state.units.get(own.attached_to or "") if own.gun == "galloper" else None
    return unit_data(led).moved if led is not None else own.moved


def orders_done(tx: Tx, tables: Tables, options: Mapping[str, Any]) -> bool:
    """The side giving orders has finished: the other side gives its own, or the step's
    fire is worked out. True when the battle is over."""
    g = game_data(tx.state)
    step, side = g.step or ARTILLERY, g.step_side or tx.state.sides[0]
    tx.emit(OrdersDone(side=side))
    later = tx.state.sides[tx.state.sides.index(side) + 1:]
    for other in later:
        if shooters(tx.state, other, step):
            tx.emit(PhaseStep(step=step, side=other))
            return False
    work_out_fire(tx, tables, step)
    tx.action_over()  # the step's fire and its tests are done: the next step is the play that follows
    return begin_fire_step(tx, tables, options, FIRE_STEPS.index(step) + 1)


def work_out_fire(tx: Tx, tables: Tables, step: str) -> None:
    """Every order of the step worked out on the position as it began, applied together;
    then the units struck test."""
    start = tx.state
    shots: list[Shot] = []
    for unit_id, target, kind in game_data(start).orders:
        if kind == "musket":
            shots.append(musketry.work_out_volley(tx, tx.table, start, unit_id, target, tables))
        elif kind == "galloper":
            shots.append(musketry.work_out_galloper(tx, tx.table, start, unit_id, target, tables,
                                                    galloper_aim(start, unit_id)))
        else:
            shots.append(artillery.work_out_artillery(tx, tx.table, start, unit_id, target, kind, tables))
    applied = apply_fire(tx, shots, tables)
    tx.emit(StepOver())
    for unit_id in applied.must_test:
        unit = tx.state.units.get(unit_id)
        if unit is None or not unit.in_play:
            continue
        if unit_data(unit).routed:
            routed_fired_on(tx, tables, unit_id, "fired on")
        else:
            result = morale.morale_test(tx, tables, unit_id, "fired on")
            fail_plainly(tx, tables, unit_id, result, "fired on")


def galloper_aim(state: GameState, gun_id: str) -> str | None:
    """What a galloper's regiment aims at this step: the target it was ordered to fire
    at (foot), or, for horse, what it charges, is charged by or is closest to."""
    led = unit_data(state.units[gun_id]).attached_to
    for unit_id, target, kind in game_data(state).orders:
        if unit_id == led and kind == "musket":
            return target
    if led is None:
        return None
    charging = next((c[1] for c in game_data(state).charges if c[0] == led), None)
    charged_by = next((c[0] for c in game_data(state).charges if c[1] == led), None)
    return musketry.galloper_target(state, gun_id, charging=charging, charged_by=charged_by)


# --- close combat -------------------------------------------------------------------------


def after_fire(tx: Tx, tables: Tables, options: Mapping[str, Any]) -> bool:
    """F to H, then J, K and L. True when the battle is over."""
    tx.emit(PhaseBegan(phase=CLOSE_COMBAT))
    drop_lapsed(tx)
    fought_on = combats(tx.state, game_data(tx.state).locked)
    fresh = combats(tx.state, game_data(tx.state).charges)
    tx.emit(StepOver(charges=True))
    for combat in fought_on:
        fight_on(tx, tables, combat, options)
    results = [r for combat in fresh if (r := fight(tx, tables, combat, options)) is not None]
    if bonus.offer(tx, results, morale_step(tx, tables, {})):
        return begin_bonus(tx, tables, options, 0)
    return after_bonus(tx, tables, options)


def drop_lapsed(tx: Tx) -> None:
    """12 A, B: the turn's charges whose units were driven apart since the charge halted
    come to nothing (:func:`~tertia.rulesets.charge_yr_pikes.charge.lapsed`)."""
    for gone in lapsed(tx.state):
        tx.emit(gone)


def combats(state: GameState, kept: Sequence[tuple[str, str, float, float, float, int]]
            ) -> list[list[Charge]]:
    """Charges as the game keeps them (``charges``, ``locked``) gathered into combats:
    charges that share a unit fight together, in the order of their first charge."""
    groups: list[list[Charge]] = []
    members: list[set[str]] = []
    for attacker, target, x, y, facing, _ in kept:
        a, t = state.units.get(attacker), state.units.get(target)
        if a is None or t is None or not a.in_play or not t.in_play:
            continue
        charge = Charge(attacker, target, Base(x, y, facing, a.width, a.depth))
        joined = [i for i, m in enumerate(members) if attacker in m or target in m]
        if not joined:
            groups.append([charge])
            members.append({attacker, target})
            continue
        first = joined[0]
        for i in reversed(joined[1:]):
            groups[first].extend(groups.pop(i))
            members[first] |= members.pop(i)
        groups[first].append(charge)
        members[first] |= {attacker, target}
    return groups


def morale_step(tx: Tx, tables: Tables, results: dict[str, morale.MoraleResult]) -> MoraleStep:
    """The close combat rules' morale test (``charge.MoraleStep``): each test taken, its
    result kept in ``results`` by unit."""
    def test(call: MoraleCall) -> bool:
        result = morale.morale_test(tx, tables, call.unit, call.reason, flank_or_rear=call.flank_or_rear)
        results[call.unit] = result
        return result.passed
    return test


def fight(tx: Tx, tables: Tables, charges: list[Charge], options: Mapping[str, Any], *,
          closed: frozenset[str] = frozenset()) -> melee.MeleeResult | None:
    """One combat: tests to close and to stand, the fight and its results (``closed``:
    breakthrough horse, whose test to close is passed, 12 J). None: no melee."""
    results: dict[str, morale.MoraleResult] = {}
    test = morale_step(tx, tables, results)

    year = int(game_data(tx.state).year)
    pistols = [c.attacker for c in charges if is_cavalry(tx.state.units[c.attacker])
               and attacks_with_pistols(tx, tables, c.attacker, year=year,
                                        royalist="royal" in tx.state.units[c.attacker].side.lower())]
    closing = reaction.close_in(tx, charges, test, closed=closed)
    foe_of = {c.target: c.attacker for c in charges}
    for unit_id in closing.failed:
        if unit_id in results and tx.state.units[unit_id].in_play:
            fail_plainly(tx, tables, unit_id, results[unit_id], CLOSED_ON, foe=foe_of.get(unit_id))
    for unit_id in closing.rout:
        if not tx.state.units[unit_id].in_play:
            continue
        if unit_data(tx.state.units[unit_id]).routed:
            routed_attacked(tx, tables, unit_id, "attacked while routed", foe=foe_of.get(unit_id))
        else:
            rout(tx, tables, unit_id, "will not stand", foe=foe_of.get(unit_id), after_melee=True)
    going = [c for c in closing.charges if tx.state.units[c.attacker].in_play
             and tx.state.units[c.target].in_play]
    if not going:
        return None
    fighters = fighters_of(tx.table, tx.state, going, pistols)
    result = melee.resolve(tx, tables, fighters, test, graded=bool(options.get("officer_grades", True)))
    carry_out(tx, tables, result, going)
    return result


def fight_on(tx: Tx, tables: Tables, charges: list[Charge], options: Mapping[str, Any]) -> None:
    """A melee locked last turn fights on (12 G: "the units are locked into the melee
    which continues in the next turn"): no tests to close, no bonus moves after it."""
    going = [c for c in charges if tx.state.units[c.attacker].in_play and tx.state.units[c.target].in_play]
    if not going:
        return

    fighters = fighters_of(tx.table, tx.state, going)
    result = melee.resolve(tx, tables, fighters, morale_step(tx, tables, {}),
                           graded=bool(options.get("officer_grades", True)),
                           began_this_turn=False)
    carry_out(tx, tables, result, going)


def carry_out(tx: Tx, tables: Tables, result: melee.MeleeResult, charges: list[Charge]) -> None:
    """A combat's results: the beaten fall back or rout, horse that will plunder ride off,
    a melee locked is kept to be fought on next turn."""
    if result.winner is None and result.locked:
        kept = tuple((c.attacker, c.target, c.start.x, c.start.y, c.start.facing, 0) for c in charges
                     if c.attacker in result.locked and c.target in result.locked)
        if kept:
            tx.emit(MeleeLocked(charges=kept))
    foes = {c.target: c.attacker for c in charges} | {c.attacker: c.target for c in charges}
    for unit_id in result.fall_back:
        if tx.state.units[unit_id].in_play:
            fall_back(tx, tables, unit_id, "lost a close combat")
    for unit_id in result.rout:
        if tx.state.units[unit_id].in_play:
            rout(tx, tables, unit_id, "lost a close combat", foe=foes.get(unit_id), after_melee=True)
    for unit_id in result.plunderers:
        if tx.state.units[unit_id].in_play:
            plunder.ride_off(tx, unit_id)
    for sub in result.then:
        carry_out(tx, tables, sub, charges)


# --- I: bonus moves ---------------------------------------------------------------------------


def begin_bonus(tx: Tx, tables: Tables, options: Mapping[str, Any], index: int) -> bool:
    """12 I, J: the next side (from ``index``) owed bonus moves gives its orders; when none
    is, the bonus combats. True when the battle is over."""
    for side in tx.state.sides[index:]:
        if bonus.owed(tx.state, side):
            tx.emit(PhaseStep(step=bonus.BONUS_MOVES, side=side))
            return False
    if game_data(tx.state).step is not None:
        tx.emit(StepOver())
    return after_bonus(tx, tables, options)


def bonus_done(tx: Tx, tables: Tables, options: Mapping[str, Any]) -> bool:
    """The side giving bonus orders has finished: its other units stand (12 K)."""
    side = game_data(tx.state).step_side or tx.state.sides[0]
    bonus.side_done(tx, side)
    return begin_bonus(tx, tables, options, tx.state.sides.index(side) + 1)


def after_bonus(tx: Tx, tables: Tables, options: Mapping[str, Any]) -> bool:
    """Sequence I: "fight any bonus close combats" (no bonus moves after them); then J, K
    and L. True when the battle is over."""
    closed = bonus.breakers(tx.state)
    for combat in combats(tx.state, game_data(tx.state).charges):
        fight(tx, tables, combat, options, closed=closed)
    tx.emit(bonus.CloseCombatOver())
    return after_close_combat(tx, tables)


# --- J, K, L ------------------------------------------------------------------------------


def after_close_combat(tx: Tx, tables: Tables) -> bool:
    """J: the 50% rules; K: rallies; L: army morale and the battle's end. True when the
    battle is over."""
    tx.emit(PhaseBegan(phase=ADJUSTMENTS))
    for unit in list(tx.state.iter_troops()):
        if tx.state.units[unit.id].in_play and not unit_data(unit).is_gun:
            morale.half_strength_test(tx, tables, unit.id)
    tx.emit(PhaseBegan(phase=RALLIES))
    for unit_id in morale.routed_units(tx.state):
        morale.rally_routed(tx, tables, unit_id)
    for unit in list(tx.state.iter_troops()):
        if unit_data(unit).silenced:
            artillery.rally_silenced(tx, unit.id, tables)
    tx.emit(PhaseBegan(phase=ARMY_MORALE))
    for side in tx.state.sides:
        army.army_morale(tx, side, tables, lambda unit_id: _fright_rout(tx, tables, unit_id))
    plunder.end_of_turn(tx, tables)
    return victory.at_turn_end(tx, tables)


def _fright_rout(tx: Tx, tables: Tables, unit_id: str) -> None:
    if tx.state.units[unit_id].in_play:
        rout(tx, tables, unit_id, "its army takes fright")
