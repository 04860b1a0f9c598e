"""The doctrine for ``d3-cards``, second edition (the ``doctrine`` player; the first stays
the ``baseline``): the shared second edition
(:mod:`~tertia.rulesets.d3.ai.doctrine2`) on the first edition's ``d3-cards`` general
(:mod:`~tertia.rulesets.d3_cards.ai.doctrine`), with this rule set's price of a shot:

- "Whenever a unit shoots roll a D6, on a 5-6 ... add an ammunition shortage marker" and
  "Subtract 1 for each ammunition shortage marker" (Musketry; Artillery 2-3: a pip off the
  gun's range roll). A shot risks that chance of a marker, which costs every later shot
  the hits (or the gun's chance of reaching) one more marker takes away, reckoned over
  the shots the unit may still fire (the turns left, at most :data:`SHOTS_AHEAD`). So
  Dragoons with two markers, who hit one time in three, no longer fire on, but keep out
  of the reach of Horse that would charge them.
- Artillery engaged in melee is eliminated (Melee): a charge that reaches a gun is worth
  a rout, whatever the odds, as the first edition had it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tertia.activation import unit_type_deck
from tertia.core.actions import Action
from tertia.core.game import Game
from tertia.core.state import GameState, Unit, UnitKind
from tertia.rules.hits import piece
from tertia.rules.measuring import distance
from tertia.rules.modifiers import Modifier, total
from tertia.rulesets.d3 import weather
from tertia.rulesets.d3.ai.doctrine import _rules
from tertia.rulesets.d3.ai.doctrine2 import POOR_SHOT, D3Doctrine2, d3_faces, mean
from tertia.rulesets.d3_cards import shooting
from tertia.rulesets.d3_cards.ai.doctrine import charge_value, commander_action, shot_hits

SHOTS_AHEAD = 2
"""The most later shots a marker is reckoned to cost."""


class D3CardsDoctrine2(D3Doctrine2):
    """Plays either side of ``d3-cards``: the first edition, weighing blows and shots
    (see the module's note). What the first edition does as this rule set asks (its
    shots, a charge at guns, its commanders) it does the same way."""

    def _shot_hits(self, game: Game, view: GameState, unit: Unit, target: Unit) -> float:
        return shot_hits(game, unit, target)

    def _charge_value(self, game: Game, target: Unit, value: float) -> float:
        return charge_value(target, value)

    def _commander(self, game: Game, view: GameState, unit: Unit) -> Action | None:
        return commander_action(self, game, view, unit)

    def _shot_outcomes(self, game: Game, view: GameState, unit: Unit, target: Unit) -> tuple[float, ...]:
        options = game.ruleset.options
        if unit.kind is UnitKind.ARTILLERY:
            pips = total(shooting.gun_modifiers(game.table, unit, target, options))
            return self._gun_outcomes(unit, target, pips)
        return d3_faces(shooting.musket_modifiers(game.table, unit, target, options))

    @staticmethod
    def _gun_outcomes(gun: Unit, target: Unit, pips: int) -> tuple[float, ...]:
        """A hit for each face of the range D6 (less ``pips``) whose 6" steps reach."""
        need = distance(gun, target) / shooting.RANGE_STEP
        return tuple(1.0 if max(0, face + pips) >= need else 0.0 for face in range(1, 7))

    def _ammunition_cost(self, game: Game, view: GameState, unit: Unit, target: Unit,
                         outcomes: Sequence[float]) -> float:
        """The chance of a marker times what one more marker takes off each later shot
        at this target: a pip off a gun's range roll, a hit off each face of a volley."""
        if unit.kind is UnitKind.ARTILLERY:
            pips = total(shooting.gun_modifiers(game.table, unit, target, game.ruleset.options))
            later = self._gun_outcomes(unit, target, pips - 1)
        else:
            later = tuple(max(0.0, h - 1) for h in outcomes)
        return self._marker_chance(game, view) * (mean(outcomes) - mean(later))

    def _marker_chance(self, game: Game, view: GameState) -> float:
        """The chance a shot adds a marker, times the later shots it is reckoned to cost."""
        shots = min(SHOTS_AHEAD, max(0, game.scenario.turns - view.turn))
        return max(0, 7 - weather.shortage_from(view)) / 6.0 * shots

    def _can_shoot(self, game: Game, view: GameState, unit: Unit) -> bool:
        """Muskets are spent when their markers leave a volley at a target in the open
        worth less, after the ammunition it risks, than a poor shot; guns never are (their
        markers only shorten their range)."""
        if unit.kind is UnitKind.ARTILLERY:
            return True
        markers = piece(unit).ammo_markers
        volley = d3_faces([Modifier(-markers, "ammunition shortage markers")] if markers else [])
        later = tuple(max(0.0, h - 1) for h in volley)
        return mean(volley) - self._marker_chance(game, view) * (mean(volley) - mean(later)) >= POOR_SHOT

    def _acts_first(self, game: Game, view: GameState, enemy: Unit) -> bool:
        """Its side's card for its type is still in the deck this turn (the deck is open
        to both sides)."""
        return (enemy.side, _rules(game).card_of(enemy)) in unit_type_deck.remaining(view)

    def _eliminated_on_contact(self, target: Unit) -> bool:
        """Artillery units are immediately eliminated if engaged in melee."""
        return target.kind is UnitKind.ARTILLERY
