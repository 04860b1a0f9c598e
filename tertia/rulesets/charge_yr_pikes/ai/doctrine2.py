"""The doctrine for Charge yr Pikes!, second edition: the ``doctrine`` player since it
beat the first, which stays the ``baseline`` (``tertia ladder``). The first edition's general
(:mod:`~tertia.rulesets.charge_yr_pikes.ai.doctrine`) with two changes of judgement.

- **Squares** only against horse that could actually charge the foot as things stand:
  its way to them clear of other pieces, the charge ending on the table, and its swing
  and run within its charge move (Close combat 12 A; Movement 5 B). The first edition
  formed square against any enemy horse within 32", a horse's charge move, which covers
  most of the table, so its foot stood in square all battle at half their move.
- **Charges** weighed by what they are expected to come to
  (:func:`~tertia.rulesets.charge_yr_pikes.ai.outlook.charge_outlook`): the defenders'
  fire as the charger halts (canister from a battery, a volley from musketeers), the
  tests to close and after the fire, the close combat's exact chances on the dice of both
  sides, a battery's supporters within 4" fighting for it (section 10), and the loser's
  test, each unit valued at its share of its army (19 D). Horse and foot alike charge
  the foe in reach worth most, when the share of the enemy they expect to take
  outweighs the share of their own they risk. The first edition's horse charged any gun
  ("a gun does not fight back") whatever canister and foot stood by it, and foot charged
  only a shaken foe.
"""

from __future__ import annotations

from tertia.core.game import Game
from tertia.core.state import GameState, Unit
from tertia.rules.nearest import NearestFirst
from tertia.rulesets.charge_yr_pikes.actions import Charge
from tertia.rulesets.charge_yr_pikes.ai.doctrine import CypDoctrine
from tertia.rulesets.charge_yr_pikes.ai.outlook import charge_outlook, halt_ahead_of
from tertia.rulesets.charge_yr_pikes.charge_path import charge_path
from tertia.rulesets.charge_yr_pikes.movement import charge_allowance
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import unit_data

LEAST_WORTH = 0.002
"""A charge is made only when it expects to take this much more of the enemy's army (as
a share of its figures) than it risks of its own: about a figure in an army of 500."""


class CypDoctrine2(CypDoctrine):
    """Plays either side of Charge yr Pikes! (see the module's docstring)."""

    stand_to_fire = 6.0

    def __init__(self) -> None:
        super().__init__(squares_against_reach=True)

    def _charge_call(self, game: Game, state: GameState, unit: Unit, foes: NearestFirst, tables: Tables
                     ) -> Charge | None:
        """The charge worth most among the foes it could reach as things stand (the way
        clear, the charge ending on the table, within its charge move: 12 A, Movement 5 B),
        if one is worth making."""
        own = unit_data(unit)
        if own.troop == "dragoons" or own.disordered:  # as the first edition: these make no charge
            return None
        ranked: list[tuple[float, str]] = []
        reach = charge_allowance(tables, own)
        for foe in foes.within(reach):
            theirs = unit_data(foe)
            if theirs.is_officer or theirs.plundering or theirs.troop == "wagons":
                continue
            worth = charge_outlook(game, state, unit, foe, tables, halt_ahead_of(unit, foe)).worth
            if worth < LEAST_WORTH:
                continue
            path = charge_path(game.table, state, unit, foe)
            if path.blocked_by is None and not path.off_table and path.length <= reach:
                ranked.append((-worth, foe.id))  # else barred, or it would tire before it closed
        for _, foe_id in sorted(ranked):
            charge = Charge(unit=unit.id, target=foe_id)
            if game.is_legal(state, charge):
                return charge
        return None

