"""The doctrine player for ``d3-commands``: the D3 doctrine
(:mod:`tertia.rulesets.d3.ai.doctrine`) with its command cards laid in the order the
period fought, each piece deployed where its scenario puts it, shots judged by its
shooting and every move keeping a unit with its command."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from tertia.activation.command_cards import ORDER_KIND, OrderCards
from tertia.core.actions import Action, Move
from tertia.core.game import Game
from tertia.core.state import GameState, Unit, UnitKind
from tertia.rules.movement import plan_move
from tertia.rulesets.d3.ai.doctrine import D3Doctrine, expected_d3
from tertia.rulesets.d3.cohesion import companions, mate_within
from tertia.rulesets.d3_commands import shooting
from tertia.rulesets.d3_commands.ai.proposals import iter_deploy_places
from tertia.rulesets.d3_commands.organisation import (
    COHESION_RADIUS,
    INDEPENDENT,
    cohesion_group,
    command_card,
)

CARD_ORDER_SPREAD = 1.5
"""How far a card's drawn place may stray from its rank: far enough to swap neighbours."""


class D3CommandsDoctrine(D3Doctrine):
    """Plays either side of ``d3-commands`` legally and sensibly."""

    def _answer(self, game: Game, view: GameState, rng: random.Random) -> Action:
        return answer(game, view, rng, self.card_order)

    @staticmethod
    def card_order(view: GameState, side: str, held: Sequence[str], rng: random.Random) -> tuple[str, ...]:
        """"First, the guns bombarded each other, then the two wings would clash, and
        finally the infantry met": independent units, then commands of horse, then the
        centre, the foot flanks and the reserve last. From the side's own units only.

        The order is secret, so it must not be a function of what the enemy sees: each
        card's place is drawn from the player's own random stream around its rank, so
        neighbouring ranks (and equal ones) change places now and then."""
        def rank(card: str) -> int:
            kinds = {u.kind for u in view.iter_troops(side) if _card(u) == card}
            if card == INDEPENDENT:
                return 0
            if UnitKind.HORSE in kinds and card != "reserve":
                return 1
            if card == "centre":
                return 2
            return 3 if card != "reserve" else 4

        drawn = {str(c): rank(str(c)) + CARD_ORDER_SPREAD * rng.random() for c in sorted(map(str, held))}
        return tuple(sorted(drawn, key=lambda c: (drawn[c], c)))

    def _shot_hits(self, game: Game, view: GameState, unit: Unit, target: Unit) -> float:
        return shot_hits(game, unit, target)

    def _keeps_together(self, game: Game, view: GameState, unit: Unit, move: Move) -> bool:
        return keeps_together(view, unit, move)


CardOrder = Callable[[GameState, str, Sequence[str], random.Random], tuple[str, ...]]
"""How a player lays its command cards: (view, side, cards held, its random stream)."""


def answer(game: Game, view: GameState, rng: random.Random, card_order: CardOrder) -> Action:
    """The decision awaited: the command cards laid by ``card_order`` (Sequence of Play),
    else a piece deployed at the first legal place its scenario gives it."""
    pending = view.pending
    assert pending is not None
    if pending.get("kind") == ORDER_KIND:
        return OrderCards(order=card_order(view, view.to_act, pending.get("cards", ()), rng))
    uid = str(pending["units"][0])
    places = iter_deploy_places(game, view, uid)
    return next((p for p in places if game.is_legal(view, p)), places[0])


def shot_hits(game: Game, unit: Unit, target: Unit) -> float:
    """A shot's expected hits: the mean of the D3 with this rule set's modifiers."""
    return expected_d3(shooting.modifiers(game.table, unit, target))


def keeps_together(view: GameState, unit: Unit, move: Move) -> bool:
    """A move should leave the unit within 6" of another unit of its command as they stand
    now (the engine would pull a stray back, out of any melee)."""
    end = plan_move(unit, move).end
    return mate_within(view, unit, cohesion_group, COHESION_RADIUS, end) or not companions(
        view, unit, cohesion_group)


def _card(unit: Unit) -> str:
    return command_card(unit.command)
