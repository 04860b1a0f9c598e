"""What Charge yr Pikes! shows a player beside the table: the turn in brief (the card in
play and the units that may move on it, the fire step and the orders given, the cards
still to turn, each army's losses (``None`` on a view hiding some of its pieces) and whether
it has taken fright, the objectives and
vital points and the side holding each as the viewer sees the table, and while a side
deploys in secret, where it may deploy; each tertia's card by name) and a unit's card (its
figures by weapon and stands, formation, disorder, falling back, morale: "untested" until
first tested, its officer's rank and grade, "not yet shown" on the enemy's view while
it is secret)."""

from __future__ import annotations

from typing import Any

from tertia.activation.deck import group_card
from tertia.core.hidden import is_hidden
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes import army, points
from tertia.rulesets.charge_yr_pikes.cards import tertia_label_in
from tertia.rulesets.charge_yr_pikes.concealment import UNPLACED, deploying
from tertia.rulesets.charge_yr_pikes.data import game_data, unit_data
from tertia.rulesets.charge_yr_pikes.deployment import CENTRE_CLEAR, COVER
from tertia.rulesets.charge_yr_pikes.tables import Tables

UNTESTED = "untested"
NOT_SHOWN = "not yet shown"


def summary(state: GameState, tables: Tables) -> dict[str, Any]:
    """The turn in brief."""
    g = game_data(state)
    return {
        "card": g.card,
        "moving": list(g.moving),
        "fire_step": g.step,
        "orders": [list(o) for o in g.orders],
        "cards_left": len(g.deck_left),
        "darkness_in": g.darkness_in,
        "losses_percent": {side: None if _unseen(state, side) else
                           float(army.fright_losses(state, side, tables).percent)
                           for side in state.sides},
        "fright": list(g.fright),
        "points": [{"side": p.side, "kind": p.kind, "role": p.role, "name": p.name, "x": p.x, "y": p.y,
                    "held_by": points.holder(state, p, tables)} for p in points.places(state)],
        "deploy_zone": deploy_zone(state),
        "card_names": card_names(state),
    }


def card_names(state: GameState) -> dict[str, str]:
    """Each tertia's brigade card as the players call it, by the card: its arms and its
    commander (:func:`~tertia.rulesets.charge_yr_pikes.cards.tertia_label`), from the order
    of battle both sides know."""
    found: dict[str, str] = {}
    for unit in state.iter_units(include_removed=True):
        card = group_card(unit.command, unit.side)
        if card not in found and (label := tertia_label_in(state, unit.command, unit.side)) is not None:
            found[card] = label
    return found


def deploy_zone(state: GameState) -> dict[str, Any] | None:
    """Where the side deploying in secret may place its pieces (Set-up D), for the page
    to shade; None when no side is deploying. ``edge``: its own table edge (its half is
    that edge's half of the table); ``centre_clear``: the inches either side of the centre
    line where only pieces in ``cover`` (towns, woods) may stand."""
    side = deploying(state)
    if side is None:
        return None
    edge = game_data(state).edges.get(side, "south" if side == state.sides[0] else "north")
    return {"side": side, "edge": edge, "centre_clear": CENTRE_CLEAR, "cover": [str(k) for k in COVER]}


def _unseen(state: GameState, side: str) -> bool:
    """Are pieces of ``side`` hidden in this view? Its losses are then not known (a hidden
    piece is off the table in the view, not lost)."""
    return any(u.removed == UNPLACED for u in state.iter_units(side, include_removed=True))


def unit_card(state: GameState, unit_id: str) -> dict[str, Any]:
    """A unit's card as a referee reads it."""
    unit = state.units[unit_id]
    own = unit_data(unit)
    card: dict[str, Any] = {"id": unit.id, "side": unit.side, "type": own.troop}
    if own.is_officer:
        return {**card, "rank": own.rank, "grade": _grade(own.grade), "leads": own.attached_to}
    card |= {
        "tertia": tertia_label_in(state, unit.command, unit.side) or unit.command,
        "figures": own.figures, "started_with": own.start, "lost": own.lost,
        "stands": own.stands_left,
        "formation": own.formation,
        "disordered": own.disordered, "falling_back": own.falling_back,
        "morale": UNTESTED if own.morale is None else own.morale,
        "moved": own.moved,
    }
    if own.pike or own.shot:
        card |= {"pike": own.pike, "shot": own.shot, "shot_stands_firing": own.shot_firing_stands}
    if own.is_gun:
        card |= {"gun": own.gun, "gunners": own.men, "has_fired": own.gun_fired, "silenced": own.silenced}
    if own.troop == "dragoons":
        card |= {"mounted": own.mounted}
    return card


def _grade(grade: Any) -> str:
    """An officer's value as his card shows it: on a side's view of an enemy officer not
    yet called on (section 22), only that it is not shown."""
    if is_hidden(grade):
        return NOT_SHOWN
    return str(grade) if grade else "not rolled"
