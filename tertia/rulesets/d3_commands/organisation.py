"""Commands: the centre (Foot only), the flanks and the reserve (all Foot or all Horse),
and the independent units (Dragoons and Artillery, and here Commanded Shot); each
command has one card, and a unit must stay within 6" of another unit of its command."""

from __future__ import annotations

from collections.abc import Iterator

from tertia.core.geometry import Base, is_within
from tertia.core.scenario import Scenario
from tertia.core.state import GameState, Unit, UnitKind
from tertia.rulesets.d3_commands import clauses

INDEPENDENT = "independent"
INDEPENDENT_NAMES = frozenset({"independent", "artillery", "dragoons"})
"""The scenario format's commands that are the independent command here."""

CARD_ORDER = ("centre", "right", "left", "reserve", INDEPENDENT)
"""At most five commands, one card each."""

INDEPENDENT_KINDS = frozenset({UnitKind.DRAGOONS, UnitKind.ARTILLERY, UnitKind.COMMANDED_SHOT})
COHESION_RADIUS = 6.0


def command_card(command: str) -> str:
    """The card a scenario command plays under."""
    return INDEPENDENT if command in INDEPENDENT_NAMES else command


def cohesion_group(unit: Unit) -> str | None:
    """The command a unit must keep within 6" of; None for independent units."""
    card = command_card(unit.command)
    return None if card == INDEPENDENT or unit.is_commander else card


def holds_card(state: GameState, side: str, card: str) -> bool:
    """Whether the side has troops in play under ``card``; the troops of each card are
    sifted once (a piece keeps its command all game)."""
    return bool(state.pieces_where((_UNDER_CARD, side, card), lambda u: u.side == side and not u.is_commander
                                   and command_card(u.command) == card, fixed=True))


_UNDER_CARD = "troops under the card"


def current_cards(state: GameState, side: str) -> list[str]:
    """The cards of the side's commands that still have units in play."""
    held = {command_card(u.command) for u in state.iter_troops(side)}
    return [c for c in CARD_ORDER if c in held]


def scenario_problems(scenario: Scenario, bases: dict[str, Base]) -> Iterator[tuple[str, str]]:
    """Command make-up and the 6" rule as deployed."""
    words: dict[tuple[str, str], set[str]] = {}
    for i, u in enumerate(scenario.units):
        where = f"units[{i}] {u.id!r}.command"
        kind = UnitKind(u.type)
        card = command_card(u.command)
        if kind in INDEPENDENT_KINDS and card != INDEPENDENT:
            yield where, (f"{u.type} are independent units and belong to the independent command, "
                          f"not {u.command!r} ({clauses.COMMANDS})")
        elif kind not in INDEPENDENT_KINDS and card == INDEPENDENT:
            yield where, (f"only Dragoons, Artillery and Commanded Shot are independent; {u.type} "
                          f"belong to the centre, a flank or the reserve ({clauses.COMMANDS})")
        elif card == "centre" and kind is not UnitKind.FOOT:
            yield where, f"the centre can only be made up of Foot units, not {u.type} ({clauses.COMMANDS})"
        elif card in ("right", "left", "reserve"):
            words.setdefault((u.side, card), set()).add(u.type)
    for (side, card), kinds in sorted(words.items()):
        if len(kinds) > 1:
            yield (f"units (side {side!r}, command {card!r})",
                   f"the {card} command must be all Foot or all Horse, not "
                   f"{' and '.join(sorted(kinds))} ({clauses.COMMANDS})")
    for i, u in enumerate(scenario.units):
        card = command_card(u.command)
        if card == INDEPENDENT:
            continue
        mates = [o for o in scenario.units if o.id != u.id and o.side == u.side
                 and command_card(o.command) == card]
        if mates and not any(is_within(bases[u.id], bases[o.id], COHESION_RADIUS) for o in mates):
            yield (f"units[{i}] {u.id!r}",
                   f"more than 6\" from every other unit of the {card} command; a unit must "
                   f"always remain within 6\" of one ({clauses.COHESION})")
