"""Disorder (section 17): its causes and its removal, the lists the page lost, chosen in
``tables.toml [disorder]``. The text's own causes are the falling-back and close combat
rules' (a unit falls back disordered; a friend passed through that fails its test is
disordered). Chosen here:

- **crossing an obstacle** (a hedge, fence, wall or stream its path crosses) or **ending a
  move in woods or rough ground** disorders a unit (``causes``); not a mounted officer,
  who has no ranks to lose (4 B: a general is no unit, and his move is his own);
- a disordered unit whose tertia passed command response and which neither moves nor
  changes formation on that card **halts and dresses its ranks**: it is no longer
  disordered (``removal.halt_on_card``). Falling back ends sooner, as soon as the unit
  passes command response: "This status continues until the unit passes its next command
  response role" (Special rules B; :func:`~.command.end_falling_back`).

What disorder costs is each rule's own: -1 D6 in close combat, -1 to morale, no charge
move, one rank firing, and a shorter move (``penalties.move_fraction``).
"""

from __future__ import annotations

from tertia.core.ruleset import Tx
from tertia.core.terrain import Battlefield
from tertia.rules.movement import MovePlan
from tertia.rulesets.charge_yr_pikes.events import change
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

OBSTACLES = ("hedge", "fence", "wall", "stream")
ROUGH = ("woods", "rough", "ploughed", "broken", "marsh")


def disordering_ground(table: Battlefield, tables: Tables, plan: MovePlan) -> str | None:
    """The ground that disorders a unit moving along ``plan``, if any."""
    causes = tables.disorder.causes
    if causes.crossing_obstacle:
        for kind in OBSTACLES:
            if table.has(kind) and any(table.overlaps(kind, a) for a in plan.swept()):
                return kind
    if causes.moving_in_woods:
        for kind in ROUGH:
            if table.has(kind) and table.overlaps(kind, plan.end.corners()):
                return kind
    return None


def after_move(tx: Tx, tables: Tables, unit_id: str, plan: MovePlan) -> None:
    """A move over ground that disorders leaves the unit disordered; an officer is not."""
    if unit_data(tx.state.units[unit_id]).is_officer:
        return
    ground = disordering_ground(tx.table, tables, plan)
    if ground is not None:
        change(tx, unit_id, f"is disordered by the {ground}", disordered=True)


def dress_ranks(tx: Tx, tables: Tables) -> None:
    """As a card is done: each unit that could have moved on it and did not move or change
    formation dresses its ranks (disorder and falling back removed)."""
    if not tables.disorder.removal.halt_on_card:
        return
    g = game_data(tx.state)
    for unit_id in g.moving:
        unit = tx.state.units.get(unit_id)
        if unit is None or not unit.in_play or unit_id in g.moved_on_card or unit_id in g.reformed:
            continue
        own = unit_data(unit)
        if own.disordered or own.falling_back:
            change(tx, unit_id, "halts and dresses its ranks", disordered=False, falling_back=False)
