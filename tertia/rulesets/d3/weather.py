"""Weather (both texts, after Wesencraft's weather barometer): rain makes ammunition run
short more often and bogs the guns; a storm halves all movement and puts the guns out of
action for the rest of the game.

Neither text reproduces the barometer, so "rolled" weather uses a D6 table of the
engine's own: 1-3 fair, 4 light rain, 5 heavy rain, 6 storm.
"""

from __future__ import annotations

from tertia.core.dice import D6
from tertia.core.events import GameDataChanged, Narrated
from tertia.core.ruleset import Tx
from tertia.core.state import GameState

FAIR, LIGHT_RAIN, HEAVY_RAIN, STORM = "fair", "light-rain", "heavy-rain", "storm"
WEATHERS = (FAIR, LIGHT_RAIN, HEAVY_RAIN, STORM)
OPTION_CHOICES = (*WEATHERS, "rolled")

SHORTAGE_FROM = {FAIR: 5, LIGHT_RAIN: 4, HEAVY_RAIN: 3, STORM: 2}
"""Ammunition shortage on a D6 of this or more: 5-6, light rain 4-6, heavy rain 3-6,
storm 2-6."""

ROLLED = {1: FAIR, 2: FAIR, 3: FAIR, 4: LIGHT_RAIN, 5: HEAVY_RAIN, 6: STORM}


def weather(state: GameState) -> str:
    return str(state.value("weather", FAIR))


def shortage_from(state: GameState) -> int:
    return SHORTAGE_FROM[weather(state)]


def guns_bogged(state: GameState) -> bool:
    """Heavy rain or storm: artillery cannot move or pivot."""
    return weather(state) in (HEAVY_RAIN, STORM)


def guns_out_of_action(state: GameState) -> bool:
    """Storm: artillery is out of action for the remainder of the game."""
    return weather(state) == STORM


def movement_factor(state: GameState) -> float:
    """Storm: all movement is halved."""
    return 0.5 if weather(state) == STORM else 1.0


def settle_weather(tx: Tx, chosen: str) -> None:
    """Fix the day's weather: the option's, or rolled on the D6 table. The narrative names
    a rolled outcome whatever it is, and a chosen one unless it is fair."""
    roll = int(tx.roll(D6, "weather")) if chosen == "rolled" else None
    if roll is not None:
        chosen = ROLLED[roll]
    tx.emit(GameDataChanged(key="weather", value=chosen))
    if roll is not None or chosen != FAIR:
        how = f" (a D6 of {roll})" if roll is not None else ""
        tx.emit(Narrated(text=f"The weather{how}: {chosen.replace('-', ' ')}"))
