"""What Declare Thee Sir shows a player beside the table: the activation in brief (the
unit whose card is drawn, the option declared, its rolled move, volleys left, the cards
still to draw), a unit's card (its stands, formation and morale, "untested" until first
tested) and a placed move's length against the allowance its ground takes.

Morale (B.3): "Other units start the game untested. A unit's morale points are
determined when it is first fired upon, melees, or is called for by an event card":
until then a unit's card says "untested", never a number.
"""

from __future__ import annotations

from typing import Any

from tertia.activation import deck
from tertia.activation.panels import unit_deck_panel
from tertia.core.actions import Action, Move
from tertia.core.presentation import Fact, FactKind, FactSpec, Panel, PanelContext, Presentation
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.core.vocabulary import DECK
from tertia.rules.morale import DECLARE_LEVELS
from tertia.rules.movement import plan_move
from tertia.rulesets.declare_thee_sir import clauses, movement
from tertia.rulesets.declare_thee_sir.data import (
    CARACOLE,
    FORLORN_HOPE,
    HEDGEHOG,
    LINE,
    LONG_MARCH,
    OPTIONS,
    RALLY,
)
from tertia.rulesets.declare_thee_sir.events import VOLLEYS as OPTION_VOLLEYS
from tertia.rulesets.declare_thee_sir.generals import attached_generals
from tertia.rulesets.declare_thee_sir.points import MOST_POINTS
from tertia.rulesets.declare_thee_sir.troops import MOST_STANDS, TROOPS
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data
from tertia.rulesets.declare_thee_sir.victory import ENDINGS, OBJECTIVE_POINTS, scores, units_lost

UNTESTED = "untested"

ALLOWANCE_KEYS = ("open", "difficult", "road")


def declared_words(declared: str | None) -> str | None:
    """The option as it reads ("advance and fire", "rally (retire)")."""
    if declared is None:
        return None
    option, _, how = declared.partition(":")
    return option.replace("_", " ") + (f" ({how})" if how else "")


def allowance_words(allowance: Any) -> dict[str, int]:
    """A rolled move as each kind of ground reads: {"open ground": 7, ...}."""
    if not allowance:
        return {}
    return {movement.GROUND_WORDS[k]: int(allowance[k]) for k in ALLOWANCE_KEYS if k in allowance}


def move_words(allowance: Any) -> str | None:
    """A rolled move in a line: '7" over open ground, 3" through difficult ground or to a
    flank'; None before it is rolled."""
    words = allowance_words(allowance)
    return ", ".join(f'{inches}" {ground}' for ground, inches in words.items()) if words else None


def summary(state: GameState, objective_points: int = OBJECTIVE_POINTS) -> dict[str, Any]:
    """The activation in brief: ``activated`` (the piece whose card is drawn, or None),
    ``declared`` (its option in words), ``allowance`` (its rolled move by ground),
    ``volleys_left`` (None unless its option fires: none is declared yet, or one that
    fires none), ``cards_left`` (still to draw this turn), and the score so far."""
    game = game_data(state)
    return {
        "activated": game.activated,
        "declared": declared_words(game.declared),
        "allowance": allowance_words(game.allowance),
        "volleys_left": game.volleys if game.declared in OPTION_VOLLEYS else None,
        "cards_left": len(deck.left(state)),
        "score": {side: sum(points.values()) for side, points in scores(state, objective_points).items()},
        "units_lost": {side: units_lost(state, side)[0] for side in state.sides},
    }


def morale_words(morale: int | None, first: int | None, general: bool = False) -> str:
    """Morale as a player reads it: "untested", or the points left of those first
    rolled with their level ("3 of 4 points: excellent"); with an attached general's
    point among them, counted with those first rolled and named ("3 of 3 points:
    excellent, one a general's")."""
    if morale is None:
        return UNTESTED
    if general and first is not None:
        first = min(MOST_POINTS, first + 1)
    of = f" of {first}" if first is not None and first != morale else ""
    his = ", one a general's" if general else ""
    return f"{morale}{of} point{'s' if (first or morale) != 1 else ''}: {DECLARE_LEVELS.name(morale)}{his}"


FORMATION_WORDS = (LINE, LONG_MARCH, HEDGEHOG, CARACOLE, FORLORN_HOPE)
"""Every formation a unit may be in: the three of the rules and those of the optional
rules (the caracole, the forlorn hope)."""
DECLARED_WORDS = tuple(filter(None, (*(declared_words(option) for option in OPTIONS),
                                     *(declared_words(f"{RALLY}:{how}") for how in ("rest", "retire")))))
"""Every option as a unit's card tells it, a rally as resting or retiring among them."""

def morale_fact(morale: int | None, first: int | None, general: bool = False) -> Fact:
    """Morale as a unit's card shows it (:func:`morale_words`): the points left as its
    number, or "untested"."""
    words = morale_words(morale, first, general)
    return Fact(MORALE.key, words) if morale is None else Fact(MORALE.key, morale, words=words)


TROOP = FactSpec("troop", "Troop", FactKind.WORD, "Its troop type", clauses.COMPOSITION, words=TROOPS)
FORMATION = FactSpec("formation", "Formation", FactKind.WORD, "Line, long march or hedgehog",
                     clauses.FORMATIONS, on_base=True, words=FORMATION_WORDS)
STANDS = FactSpec("stands", "Stands", FactKind.PIPS, "Stands left in the unit", clauses.COMPOSITION,
                  most=MOST_STANDS)
MORALE = FactSpec("morale", "Morale", FactKind.WORD, "Morale points: untested until first tested",
                  clauses.MORALE, words=(UNTESTED,), most=MOST_POINTS)
ROUTING = FactSpec("routing", "Routing", FactKind.BADGE, "Broken and fleeing until rallied", clauses.MORALE,
                   glyph="R", on_base=True)
PURSUING = FactSpec("pursuing", "Pursuing", FactKind.WORD, "The routing unit it pursues", clauses.MELEE)
AT_OBSTACLE = FactSpec("at_obstacle", "Stopped at an obstacle", FactKind.BADGE,
                       "Stopped by a wall or stream: it crosses without penalty when next activated",
                       clauses.MOVEMENT, glyph="‖", on_base=True)
DAMP_POWDER = FactSpec("damp_powder", "Damp powder", FactKind.BADGE,
                       "Struck by the event card: it may not fire on its next activation", clauses.GAME_PLAY,
                       glyph="≈", on_base=True)
FIRELOCKS = FactSpec("firelocks", "Firelocks", FactKind.FLAG, "Cavalry with firelocks, who may caracole",
                     clauses.COMPOSITION)
MOUNTED = FactSpec("mounted", "Mounted", FactKind.FLAG, "Dragoons on their horses", clauses.COMPOSITION)
GENERALS = FactSpec("generals", "Generals with it", FactKind.WORD, "Generals attached to the unit",
                    clauses.COMPOSITION)
ATTACHED_TO = FactSpec("attached_to", "With", FactKind.WORD, "The unit the general is attached to",
                       clauses.COMPOSITION)
ACTIVATED = FactSpec("activated", "Activated", FactKind.BADGE, "Its card is the one drawn",
                     clauses.GAME_PLAY, glyph="★", on_base=True)
DECLARED = FactSpec("declared", "Declared", FactKind.WORD, "The option declared for this activation",
                    clauses.GAME_PLAY, words=DECLARED_WORDS)
MOVE = FactSpec("move", "Move rolled", FactKind.WORD, "The move rolled for this activation", clauses.MOVEMENT)
VOLLEYS = FactSpec("volleys_left", "Volleys left", FactKind.PIPS,
                   "Volleys left this activation", clauses.FIRE, most=max(OPTION_VOLLEYS.values()))

FACTS = (TROOP, FORMATION, STANDS, MORALE, ROUTING, PURSUING, AT_OBSTACLE, DAMP_POWDER, FIRELOCKS, MOUNTED,
         GENERALS, ATTACHED_TO, ACTIVATED, DECLARED, MOVE, VOLLEYS)
"""What a Declare Thee Sir piece shows."""

FORMATION_MARKS = {"long_march": "M", "hedgehog": "H"}
"""A formation's mark on the base; a line, the usual order, has none."""


def _label(state: GameState, unit_id: str | None) -> str | None:
    found = state.units.get(unit_id) if unit_id is not None else None
    return None if found is None else found.label


def unit_facts(state: GameState, unit: Unit) -> list[Fact]:
    """A piece's card: troop, formation, stands, morale ("untested" until first tested),
    what it is doing (routing, pursuing, stopped at an obstacle), who is attached, and,
    when its card is drawn, the option declared and the move rolled."""
    own = unit_data(unit)
    game = game_data(state)
    out = [Fact(TROOP.key, own.troop)]
    if own.is_general:
        with_unit = own.attached_to if unit.in_play else None  # a fallen general is with no one
        out.append(Fact(ATTACHED_TO.key, with_unit, words=_label(state, with_unit)))
    else:
        generals = [g.label for g in attached_generals(state, unit.id)]
        out += [
            Fact(FORMATION.key, own.formation, glyph=FORMATION_MARKS.get(own.formation)),
            Fact(STANDS.key, own.stands_left),
            morale_fact(own.morale, own.morale_max, own.general_point),
            Fact(ROUTING.key, own.routing),
            Fact(PURSUING.key, own.pursuing, words=_label(state, own.pursuing)),
            Fact(AT_OBSTACLE.key, own.at_obstacle),
            Fact(DAMP_POWDER.key, own.damp_powder),
            Fact(FIRELOCKS.key, own.firelocks),
            Fact(GENERALS.key, ", ".join(generals) or None),
        ]
        if own.troop == "dragoons":
            out.append(Fact(MOUNTED.key, own.mounted))
    if game.activated == unit.id:
        out += [
            Fact(ACTIVATED.key, True),
            Fact(DECLARED.key, declared_words(game.declared)),
            Fact(MOVE.key, move_words(game.allowance)),
            Fact(VOLLEYS.key, game.volleys or None),
        ]
    return out


class DtsPresentation(Presentation):
    """Declare Thee Sir's pieces and position as its front ends show them."""

    FACTS = FACTS
    FIRST_MOVER = False
    """Both armies' cards are shuffled into one deck: the deck, not a side, moves first."""
    SHARED_TURNS = True
    """Both sides act in every turn, as their units' cards come from one deck (Game Play)."""
    ENDINGS = ENDINGS

    def facts(self, table: Battlefield, seen: GameState, unit: Unit, viewer: str | None) -> list[Fact]:
        return unit_facts(seen, unit)

    def title(self, seen: GameState, unit: Unit) -> str | None:
        return "General" if unit_data(unit).is_general else None

    def panel(self, name: str, seen: GameState, context: PanelContext) -> Panel:
        """The deck of unit cards: the card drawn, the cards left and those drawn."""
        if name != DECK:
            return Panel()
        return unit_deck_panel(seen, context, game_data(seen).card)

    def summary(self, state: GameState) -> dict[str, Any]:
        return summary(state, int(self.ruleset.option("objective_points")))


def measure_move(table: Battlefield, state: GameState, action: Action) -> dict[str, Any] | None:
    """A placed move of the activated unit against its rolled allowance: ``length``, the
    ``allowance`` its ``ground`` takes and every ground's figure (``allowances``); None
    for anything else, or before the move is rolled."""
    game = game_data(state)
    if not isinstance(action, Move) or action.unit != game.activated or game.allowance is None:
        return None
    unit = state.units.get(action.unit)
    if unit is None:
        return None
    plan = plan_move(unit, action)
    limit = movement.limit_of(table, plan, unit_data(unit), game.allowance)
    return {"length": plan.length, "allowance": limit.inches, "rule": clauses.MOVEMENT,
            "ground": movement.GROUND_WORDS[limit.kind], "allowances": allowance_words(game.allowance)}
