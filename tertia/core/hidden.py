"""What a side may not see: one mechanism for every rule set.

A rule set hides a value from a side by putting a placeholder, :func:`hidden`, in its
observation (:meth:`RuleSet.observed_state <tertia.core.ruleset.RuleSet.observed_state>`),
and marks the observation as that side's view (:func:`as_view`). A view is for looking
at: :class:`~tertia.core.game.Game` refuses to validate or apply an action on one
(:class:`HiddenInformation`), because the rules would silently read placeholders as
values. A search AI first asks the rule set for a full state consistent with the view,
:meth:`RuleSet.sample_hidden <tertia.core.ruleset.RuleSet.sample_hidden>`, which
samples only what is secret from that side.

Chance not yet rolled (a morale nobody knows until it is first tested) is not a secret
of either side: it stays a die to roll, never a placeholder.

>>> hidden("card order"), is_hidden(hidden("card order")), is_hidden({"hidden": 3})
({'hidden': 'card order'}, True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.state import GameState, Unit

VIEW_OF = "view_of"
"""The key in ``GameState.extra`` naming the side whose view a state is."""


class HiddenInformation(Exception):
    """An action was validated or applied on a side's view, which holds placeholders."""


def hidden(what: str) -> dict[str, str]:
    """A placeholder for a value the viewer may not see; ``what`` says what it hides.
    It is plain JSON, so a view survives being sent and read back."""
    return {"hidden": what}


def is_hidden(value: Any) -> bool:
    """Is ``value`` a placeholder (:func:`hidden`)?"""
    # A plain dict first: players ask this of every secret slot before each action.
    return (type(value) is dict or isinstance(value, Mapping)) and len(value) == 1 \
        and isinstance(value.get("hidden"), str)


def place_hidden(unit: Unit) -> bool:
    """Does a side's view hold ``unit`` without its place (a piece hidden from that side,
    whose ``position`` is a placeholder)?"""
    return is_hidden(unit.extra.get("position"))


def as_view(state: GameState, side: str, values: Mapping[str, Any] | None = None) -> GameState:
    """``state`` marked as ``side``'s view (the rule set has hidden something from it),
    with game-wide ``values`` (its placeholders, say) put in too (``GameState.with_values``)."""
    shown = state.with_values(values) if values else state
    return shown.evolve(extra={**shown.extra, VIEW_OF: side})


def view_of(state: GameState) -> str | None:
    """The side whose view ``state`` is, or None for a full state."""
    side = state.extra.get(VIEW_OF)
    return None if side is None else str(side)


def without_view_mark(state: GameState, values: Mapping[str, Any] | None = None) -> GameState:
    """``state`` no longer marked as a view, with game-wide ``values`` (those sampled for
    its placeholders, say) put in (``GameState.with_values``)."""
    if VIEW_OF not in state.extra and not values:
        return state
    kept = state.evolve(extra={k: v for k, v in state.extra.items() if k != VIEW_OF})
    return kept.with_values(values) if values else kept


def refuse_view(state: GameState) -> None:
    """Raise :class:`HiddenInformation` when ``state`` is a side's view."""
    side = view_of(state)
    if side is not None:
        raise HiddenInformation(
            f"this is {side}'s view of the game, with values hidden from it; "
            f"sample the hidden values first (RuleSet.sample_hidden)")
