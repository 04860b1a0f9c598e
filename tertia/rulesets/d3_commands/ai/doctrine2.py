"""The doctrine for ``d3-commands``, second edition (the ``doctrine`` player; the first
stays the ``baseline``): the shared second edition
(:mod:`~tertia.rulesets.d3.ai.doctrine2`) on the first edition's ``d3-commands`` general
(:mod:`~tertia.rulesets.d3_commands.ai.doctrine`), with this rule set's price of a shot
and its own card order:

- "Whenever infantry or artillery shoot roll a D6; on a 5-6 they have run out of
  ammunition for the rest of the game", and a gun that runs out is removed (Shooting),
  which scores the enemy a unit lost (``d3.victory``). A shot risks that chance of the
  shots the unit may still fire (the turns left, at most :data:`SHOTS_AHEAD`) and, for a
  gun, of a rout's worth: guns fire only where the shot is likely to rout its target.
- **Cards in the order the fight needs them** (Sequence of Play: "places them in the
  order they want their commands to be activated"): commands already in melee or within a
  charge of the enemy first, so they strike before the enemy's card comes, then those
  within musket or gun range, the rest last; commands of one rank in an order drawn from
  the player's own random stream, and neighbouring ranks now and then changing places.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from tertia.activation.command_cards import played as cards_played
from tertia.core.actions import Action, Move
from tertia.core.game import Game
from tertia.core.state import GameState, Unit, UnitKind
from tertia.rules.hits import piece
from tertia.rulesets.d3 import weather
from tertia.rulesets.d3.ai.doctrine2 import REACH_SLACK, ROUT_WORTH, D3Doctrine2, d3_faces, mean
from tertia.rulesets.d3.troops import MOVE, can_charge, has_muskets
from tertia.rulesets.d3_commands import shooting
from tertia.rulesets.d3_commands.ai.doctrine import answer, keeps_together, shot_hits
from tertia.rulesets.d3_commands.organisation import command_card

SHOTS_AHEAD = 2
"""The most later shots running out is reckoned to cost."""
CARD_SPREAD = 1.2
"""How far a card's drawn place may stray from its rank: commands of one rank in any
order, neighbouring ranks sometimes swapped."""
ENGAGED, CHARGING, SHOOTING, AWAY = 0, 1, 2, 3
"""The ranks of a command's card, first to last."""


class D3CommandsDoctrine2(D3Doctrine2):
    """Plays either side of ``d3-commands``: the first edition, weighing blows, shots and
    its card order (see the module's note). What the first edition does as this rule set
    asks (its answers to decisions, its shots, keeping a command together) it does the
    same way, with this edition's card order."""

    def _answer(self, game: Game, view: GameState, rng: random.Random) -> Action:
        return answer(game, view, rng, self.card_order)

    def _shot_hits(self, game: Game, view: GameState, unit: Unit, target: Unit) -> float:
        return shot_hits(game, unit, target)

    def _keeps_together(self, game: Game, view: GameState, unit: Unit, move: Move) -> bool:
        return keeps_together(view, unit, move)

    def _shot_outcomes(self, game: Game, view: GameState, unit: Unit, target: Unit) -> tuple[float, ...]:
        return d3_faces(shooting.modifiers(game.table, unit, target))

    def _ammunition_cost(self, game: Game, view: GameState, unit: Unit, target: Unit,
                         outcomes: Sequence[float]) -> float:
        """The chance of running out times the later shots it would cost (each as good as
        this one) and, for a gun, a unit lost."""
        if unit.kind not in shooting.CHECK_AMMUNITION:
            return 0.0
        chance = max(0, 7 - weather.shortage_from(view)) / 6.0
        shots = min(SHOTS_AHEAD, max(0, game.scenario.turns - view.turn))
        lost = mean(outcomes) * shots
        if unit.kind is UnitKind.ARTILLERY:
            lost += ROUT_WORTH
        return chance * lost

    def _can_shoot(self, game: Game, view: GameState, unit: Unit) -> bool:
        """Foot and guns that have run out of ammunition shoot no more."""
        return not piece(unit).out_of_ammo

    def _acts_first(self, game: Game, view: GameState, enemy: Unit) -> bool:
        """Its command's card not yet turned over this turn (played cards are seen by
        both sides; the order of the rest is not)."""
        return command_card(enemy.command) not in cards_played(view, enemy.side)

    @staticmethod
    def card_order(view: GameState, side: str, held: Sequence[str], rng: random.Random) -> tuple[str, ...]:
        """Commands engaged or able to charge first, then those able to shoot, the rest
        last; each card's place drawn from the player's own random stream around its
        rank. From the side's own view only (the enemy's order is hidden there)."""
        enemies = list(view.iter_troops(view.opponent(side)))
        drawn = {str(c): _card_rank(view, side, str(c), enemies) + CARD_SPREAD * rng.random()
                 for c in sorted(map(str, held))}
        return tuple(sorted(drawn, key=lambda c: (drawn[c], c)))


def _card_rank(view: GameState, side: str, card: str, enemies: Sequence[Unit]) -> int:
    """How soon ``card``'s command wants to act: engaged, able to charge, able to shoot,
    or none of these (the first that any of its units is)."""
    best = AWAY
    for u in view.iter_troops(side):
        if command_card(u.command) != card:
            continue
        gap = min((math.hypot(e.x - u.x, e.y - u.y) - e.base.radius - u.base.radius
                   for e in enemies), default=math.inf)
        if gap <= 0.1:
            return ENGAGED
        if can_charge(u) and gap <= MOVE[u.kind] * weather.movement_factor(view) + REACH_SLACK:
            best = min(best, CHARGING)
        elif gap <= _range(u):
            best = min(best, SHOOTING)
    return best


def _range(unit: Unit) -> float:
    """How far ``unit`` shoots on the flat (nothing, for those without muskets or guns)."""
    if unit.kind is UnitKind.ARTILLERY:
        return shooting.GUN_RANGE
    return shooting.MUSKET_RANGE if has_muskets(unit) else 0.0
