"""Reading what older versions of Tertia wrote: the map of renamed and moved names.

Game records keep actions by their JSON ``type`` and fields, and a hash of the final state.
When a type or field is renamed, or a value moves to where its rule set keeps it, the old
name is listed here, and a record written before the change loads through this map and
replays to the same game.

Record format 1 hashed the state as it was then laid out (every rule set's unit values as
unit fields, supply bases in the state); format 2 hashes the canonical projection
(:meth:`tertia.core.state.GameState.canonical`), which does not depend on where a value
lives. :func:`legacy_state_hash` rebuilds format 1's layout from today's state, so a
format-1 record still proves its game. Format 3 keeps every step's events too, with a
hash chained through the steps (:mod:`tertia.io.record`); replay reads the events written
through this map (:func:`upgrade_tagged`) before comparing them with the engine's, so an
event type or field renamed is listed here like an action's.

The map (``docs/architecture.md`` explains why each entry moved):

- action and event types: no type has been renamed (:data:`RENAMED_TYPES`);
- action fields: none renamed (:data:`RENAMED_FIELDS`);
- scenario fields that moved into a rule set's table, read where older files write them
  (:func:`claim_top_level`, from each rule set's ``SCENARIO_TOP_LEVEL``);
- values that moved, with their format-1 place and default (:data:`LEGACY_UNIT_FIELDS`,
  :data:`LEGACY_STATE_FIELDS`), and the game-wide values format 1 kept in the state's
  ``extra`` (:data:`LEGACY_SET_UP_VALUES`, then whatever the game's events wrote).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from tertia.core.events import Event, GameDataChanged
from tertia.core.state import GameState, Unit

RENAMED_TYPES: Mapping[str, str] = {}
"""Old action or event ``type`` names to today's."""

RENAMED_FIELDS: Mapping[tuple[str, str], str] = {}
"""(type, old field name) to today's field name."""

LEGACY_UNIT_FIELDS: Mapping[str, Any] = {
    "general": False, "value": 0, "hits": 0, "out_of_ammo": False, "ammo_markers": 0, "fired": False,
}
"""Rule-set values format 1 kept as fields of every unit, with the value a unit without
them had."""

LEGACY_STATE_FIELDS: Mapping[str, Any] = {"supplies": ()}
"""Rule-set values format 1 kept as fields of every state, with their default."""


LEGACY_SET_UP_VALUES: Mapping[str, tuple[str, ...]] = {
    "larger-battles": ("turn_limit", "first", "edges", "objective_ends"),
    "d3-commands": ("turn_limit", "edges", "royalist_sides", "weather", "activation"),
    "d3-cards": ("turn_limit", "edges", "royalist_sides", "weather", "activation"),
}
"""The game-wide values each rule set's set-up put in the state's ``extra`` in format 1
(each rule set now declares them, ``GameState.own``); any other was there from the first
event that wrote it, even when it was written empty."""


def values_written(events: Iterable[Event]) -> set[str]:
    """The game-wide values ``events`` wrote, by key (:func:`legacy_layout` needs them)."""
    return {e.key for e in events if isinstance(e, GameDataChanged)}


def upgrade_tagged(data: Mapping[str, Any]) -> dict[str, Any]:
    """An action or event's JSON with its old type and field names replaced by today's."""
    kind = str(data.get("type"))
    new = RENAMED_TYPES.get(kind, kind)
    out = {RENAMED_FIELDS.get((kind, k), k): v for k, v in data.items()}
    if "type" in data:
        out["type"] = new
    return out


def _rule_value(unit: Unit, name: str, default: Any) -> Any:
    """A unit value format 1 kept as a field: now among the rule set's own values."""
    own = unit.own
    return getattr(own, name) if own is not None and hasattr(own, name) else default


def legacy_layout(state: GameState, ruleset: str, written: Iterable[str] = ()) -> dict[str, Any]:
    """``state``, a game of ``ruleset`` whose events wrote the game-wide values
    ``written`` (:func:`values_written`), laid out as record format 1 stored it."""
    units = []
    for u in state.units.values():
        d: dict[str, Any] = {
            "id": u.id, "side": u.side, "kind": u.kind.value, "command": u.command,
            "x": u.x, "y": u.y, "facing": u.facing, "width": u.width, "depth": u.depth,
            "name": u.name, "traits": list(u.traits),
        }
        for name, default in LEGACY_UNIT_FIELDS.items():
            d[name] = _rule_value(u, name, default)
        d["removed"] = u.removed
        d["extra"] = {k: v for k, v in u.extra.items() if k not in LEGACY_UNIT_FIELDS}
        units.append(d)
    data = state.canonical()
    rules = dict(data["rules"])
    supplies = rules.pop("supplies", [])
    return {
        "sides": list(state.sides),
        "turn": state.turn,
        "active": state.active,
        "phase": state.phase,
        "units": units,
        "supplies": supplies,
        "objectives": data["objectives"],
        "first_side": state.first_side,
        "marks": {k: list(v) for k, v in state.marks.items()},
        "pending": None if state.pending is None else state.pending.to_dict(),
        "result": None if state.result is None else dict(state.result),
        "step": state.step,
        "extra": _legacy_extra(state, {*LEGACY_SET_UP_VALUES.get(ruleset, ()), *written}),
    }


def _legacy_extra(state: GameState, kept: set[str]) -> dict[str, Any]:
    declared = {} if state.own is None else state.own.flat_values()
    found = {**{k: v for k, v in declared.items() if k in kept}, **state.extra}
    return {k: v for k, v in found.items() if k not in LEGACY_STATE_FIELDS}


def legacy_state_hash(state: GameState, ruleset: str, written: Iterable[str] = ()) -> str:
    """The final-state hash a format-1 record holds, computed from today's state (the
    arguments are :func:`legacy_layout`'s)."""
    text = json.dumps(legacy_layout(state, ruleset, written), sort_keys=True, separators=(",", ":"),
                      default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def claim_top_level(document: dict[str, Any]) -> dict[str, str]:
    """Move the top-level fields a rule set's table claims (``SCENARIO_TOP_LEVEL``: the
    spelling of files older than the table) into its table in ``document`` (nested
    tables are copied, never changed); returns, for each moved, its table path and the
    file's own path, so problems name what the file wrote."""
    from tertia.rulesets import manifest, ruleset_ids

    moved: dict[str, str] = {}
    for rules in ruleset_ids():
        for name in manifest(rules).scenario_top_level:
            extensions = document.get("extensions", {})
            table = extensions.get(rules, {}) if isinstance(extensions, dict) else None
            if name not in document or not isinstance(table, dict) or name in table:
                continue  # nothing to move, or left where it is for the model to name
            document["extensions"] = {**extensions, rules: {**table, name: document.pop(name)}}
            moved[f"extensions.{rules}.{name}"] = name
    return moved
