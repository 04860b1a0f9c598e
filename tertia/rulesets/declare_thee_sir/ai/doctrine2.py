"""The doctrine for Declare Thee Sir, second edition: the ``doctrine`` player since it beat
the first, which stays the ``baseline`` (``tertia ladder``). The first edition's commander
(:mod:`~tertia.rulesets.declare_thee_sir.ai.doctrine`), who now

- **finds a way round friends.** A unit whose way ahead is barred by its own side (a second
  line behind the first, horse behind a regiment in melee) looks for a detour: an oblique
  leg (up to 45 degrees, the open-ground move) or a leg to a flank (a third of the move,
  Movement: "Difficult Terrain or Flank move = 1/3 movement"), then on towards the enemy,
  judged by how far the way from where it would stand is open. It advances on it rather
  than defer (:mod:`~tertia.rulesets.declare_thee_sir.ai.detours`).
- **charges only what pays more than its volleys.** A unit goes in only for a charge
  expected to gain at least as many morale points as it costs (the first edition's horse
  went in at a small loss: a fresh foe holding, the attacker loses a point on a HOLD and
  on doubles, Melee b), and no fewer than standing to fire would take: two volleys
  (Game Play 4), each the chance it reaches times the points it takes (Fire c).
- **stands at poor morale.** A unit at poor with the enemy near rests (a point back on
  doubles, Rally d) or fires where it stands; the first edition fell back (Rally a),
  spending its card on a move the enemy's horse, at 2D6, make up on theirs.
- **weighs where a general rides** (:mod:`~tertia.rulesets.declare_thee_sir.ai.postings`):
  his point, his +2 in the charges a unit is likely to make, and a rally roll for a
  routing unit, against his risk: he dies only under fire, on a 1 when his unit loses a
  point to it (Fire d), so the enemy firers within reach of the unit. He joins the unit
  where that balance is best, and leaves his unit for another only when the other is
  clearly better.
- **uses the optional formations where they pay.** With the option ``forlorn_hope``, a
  regiment of foot out of the enemy's reach sends its forlorn hope out: a division that
  has its own card (more volleys), is hit at -1 and is no unit for the army's break
  (Optional Rules a). With the option ``caracole``, horse with firelocks form the caracole
  when enemy horse could charge them and the charge expected against the caracole (it
  evades 1D6 first, and is met at +2 if caught: Optional Rules b) costs them less than
  one against their line; they go back to line when it no longer pays and they have
  nothing better to do.

Everything else is the first edition's. Every action is still judged by the rules before
it is chosen.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from tertia.core.actions import Action, Move
from tertia.core.game import Game
from tertia.core.state import GameState, Unit
from tertia.rulesets.declare_thee_sir import forlorn
from tertia.rulesets.declare_thee_sir.ai.detours import detour
from tertia.rulesets.declare_thee_sir.ai.doctrine import (
    LEAST_GAIN,
    OBJECTIVES,
    SHOOT,
    DtsDoctrine,
    as_declared,
    likely_move,
)
from tertia.rulesets.declare_thee_sir.ai.generals import join, stays
from tertia.rulesets.declare_thee_sir.ai.judgement import (
    foes,
    live_foes,
    shot_chance,
    volley_worth,
)
from tertia.rulesets.declare_thee_sir.ai.postings import posting
from tertia.rulesets.declare_thee_sir.ai.threats import caracole_pays
from tertia.rulesets.declare_thee_sir.data import (
    ADVANCE,
    CARACOLE,
    DEFER,
    FORLORN_HOPE,
    FORMATION_CHANGE,
    LINE,
    DtsUnit,
)
from tertia.rulesets.declare_thee_sir.events import ChangeFormation
from tertia.rulesets.declare_thee_sir.movement import GENERAL_MOVE
from tertia.rulesets.declare_thee_sir.troops import FOOT, HORSE
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data

VOLLEYS = 2
"""Game Play 4: "Stand and fire (two volleys)"."""
HORSE_DASH = 0.0
"""Horse charge what is expected to gain at least what it costs (the first edition's
went in at a small loss)."""
FORLORN_CLEAR = 12.0
"""A regiment sends its forlorn hope out only with no enemy this near (a charge's likely
reach): the formation change takes its activation."""


class DtsDoctrine2(DtsDoctrine):
    """Plays either side of Declare Thee Sir: the first edition, with detours round
    friends, charges that pay, generals posted by their worth against their risk, and the
    optional formations used where they pay (see the module's note)."""


    def __init__(self) -> None:
        super().__init__()
        self._wanted: dict[str, str] = {}
        """The formation each unit declared a change for."""
        self._volleys = 0.0
        """What standing to fire would take instead of the charge being weighed."""
        self._posted: tuple[object, str, Unit | None] | None = None
        """The general's posting, remembered while no piece changes (from his declaration
        to his ride)."""

    # --- the declaration ----------------------------------------------------------------

    def _option(self, game: Game, state: GameState, unit: Unit) -> tuple[str, str | None]:
        """An optional formation where one pays, else the first edition's option; a
        caracole with nothing better to do goes back to line."""
        self._wanted.pop(unit.id, None)
        own = unit_data(unit)
        if own.routing or own.pursuing is not None or own.is_general:
            return super()._option(game, state, unit)
        wanted = self._formation(game, state, unit)
        if wanted is not None:
            self._wanted[unit.id] = wanted
            return FORMATION_CHANGE, None
        option, how = super()._option(game, state, unit)
        if own.formation == CARACOLE and option == DEFER and self._may_reform(game, state, unit, LINE):
            self._wanted[unit.id] = LINE
            return FORMATION_CHANGE, None
        return option, how

    def _falls_back(self, game: Game, state: GameState, unit: Unit) -> bool:
        """A unit at poor morale stands, threatened or not: it rests to regain a point on
        doubles (Rally d) or fires, rather than spend its card falling back from horse
        that move 2D6 to its 1D6 or 2D6 and come on again (measured, falling back lost
        more units than it saved)."""
        return False

    def _formation(self, game: Game, state: GameState, unit: Unit) -> str | None:
        """The optional formation the unit takes up now, if one pays (see the module's note)."""
        own = unit_data(unit)
        opts = game.ruleset.options
        if opts.get("forlorn_hope") and own.troop == FOOT and self._forlorn_pays(game, state, unit):
            return FORLORN_HOPE
        if opts.get("caracole") and own.troop == HORSE and own.firelocks and own.formation == LINE \
                and caracole_pays(game, state, unit) and not self._would_charge(game, state, unit) \
                and self._may_reform(game, state, unit, CARACOLE):
            return CARACOLE
        return None

    def _forlorn_pays(self, game: Game, state: GameState, unit: Unit) -> bool:
        """Optional Rules a: a regiment that may send one out, with no enemy within a
        charge's reach and no volley to fire this activation instead."""
        if forlorn.why_not(state, unit) is not None:
            return False
        near = foes(state, unit, FORLORN_CLEAR)
        if any(not unit_data(e).routing for e in near):
            return False
        if shot_chance(unit, self._nearest_shot(game, state, unit)) >= SHOOT:
            return False
        return self._may_reform(game, state, unit, FORLORN_HOPE)

    @staticmethod
    def _may_reform(game: Game, state: GameState, unit: Unit, formation: str) -> bool:
        declared = as_declared(state, FORMATION_CHANGE, {})
        return game.is_legal(declared, ChangeFormation(unit=unit.id, formation=formation))

    def _dash(self, own: DtsUnit) -> float:
        """Horse charge what pays (:data:`HORSE_DASH`), foot as before; and neither for
        less than the volleys the unit could fire instead (:meth:`_would_charge`)."""
        floor = HORSE_DASH if own.is_mounted else super()._dash(own)
        return max(floor, self._volleys)

    def _would_charge(self, game: Game, state: GameState, unit: Unit) -> bool:
        """The first edition's judgement, with a charge held to be worth at least what
        standing to fire would take instead: two volleys (Game Play 4), each the chance
        it reaches times the points it takes (:func:`volley_worth`)."""
        shot = self._nearest_shot(game, state, unit)
        self._volleys = 0.0 if shot is None else \
            VOLLEYS * shot_chance(unit, shot) * volley_worth(game, state, unit, shot[0])
        try:
            return super()._would_charge(game, state, unit)
        finally:
            self._volleys = 0.0

    def _way_open(self, game: Game, state: GameState, unit: Unit, live: list[Unit]) -> bool:
        """The first edition's open way, or a detour round the friends in it."""
        if super()._way_open(game, state, unit, live):
            return True
        goals = [(e.x, e.y) for e in self._goals(game, state, unit, live)]
        return detour(game, state, unit, goals, likely_move(unit_data(unit)), LEAST_GAIN, validate=False) \
            is not None

    # --- carrying it out -----------------------------------------------------------------

    def _reform(self, game: Game, state: GameState, unit: Unit) -> Action | None:
        wanted = self._wanted.pop(unit.id, None)
        if wanted is not None:
            change = ChangeFormation(unit=unit.id, formation=wanted)
            if game.is_legal(state, change):
                return change
        return super()._reform(game, state, unit)

    def _advance(self, game: Game, state: GameState, unit: Unit, allowance: Mapping[str, int]) -> Move | None:
        """The first edition's advance, else a detour round the friends in the way."""
        found = super()._advance(game, state, unit, allowance)
        if found is not None:
            return found
        live = live_foes(state, unit, OBJECTIVES, 0.0)
        goals = [(e.x, e.y) for e in self._goals(game, state, unit, live)]
        return detour(game, state, unit, goals, allowance, LEAST_GAIN)

    # --- the generals --------------------------------------------------------------------

    def _ride(self, game: Game, state: GameState, general: Unit) -> Move | None:
        """A general rides to the unit where his worth less his risk is best, and stays
        with his own while his worth there outweighs his risk
        (:func:`~tertia.rulesets.declare_thee_sir.ai.postings.posting`)."""
        memo = self._posted
        if memo is not None and memo[0] is state.units and memo[1] == general.id:
            joining = memo[2]
        else:
            joining = posting(game, state, general)
            self._posted = (state.units, general.id, joining)
        if joining is None:
            return None
        if stays(state, general) and unit_data(general).attached_to == joining.id:
            return None
        if game_data(state).allowance is None:
            state = as_declared(state, ADVANCE, {"open": GENERAL_MOVE,
                                                 "difficult": math.ceil(GENERAL_MOVE / 3)})
        return join(game, state, general, joining)

