"""Game records: the whole battle as JSON (rule set and options, scenario, seed, actions,
dice), and replay that re-runs a record and reports the first divergence."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from pydantic import ValidationError

import tertia
from tertia.battle import BattleRecord, dice_seed
from tertia.core.actions import ACTION_TYPES, Action, BadActionData, action_from_dict
from tertia.core.dice import DiceDivergence, Roll, SeedCheckedDice, distribution_named
from tertia.core.game import Game
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.io.compat import claim_top_level, legacy_state_hash, upgrade_tagged, values_written
from tertia.io.files import write_text
from tertia.rulesets import get_ruleset

FORMAT = "tertia-record"
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)
"""Format 1 hashed the state as it was laid out then (see :mod:`tertia.io.compat`)."""
MAX_RECORD_BYTES = 50_000_000


class RecordError(Exception):
    """A record file that cannot be read: one line saying where and why."""


def record_to_dict(record: BattleRecord) -> dict[str, Any]:
    game = record.game
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "engine_version": tertia.__version__,
        "ruleset": {
            "id": game.ruleset.id,
            "version": game.ruleset.version,
            "options": dict(game.ruleset.options),
        },
        "scenario": game.scenario.model_dump(mode="json"),
        "seed": record.seed,
        "players": dict(record.players),
        "actions": [{"side": s.side, **s.action.to_dict()} for s in record.steps],
        "rolls": [{"purpose": r.purpose, "die": r.die, "value": r.value} for r in record.rolls],
        "final_hash": record.final_state.state_hash(),
        "result": dict(record.final_state.result or {}),
    }


def save_record(record: BattleRecord, path: Path) -> None:
    write_text(path, json.dumps(record_to_dict(record), indent=1))


@dataclass(frozen=True)
class LoadedRecord:
    game: Game
    seed: int
    actions: list[tuple[str, Action]]
    rolls: list[Roll]
    final_hash: str | None
    data: Mapping[str, Any]
    format_version: int = FORMAT_VERSION

    def state_hash(self, state: GameState, written: Iterable[str] = ()) -> str:
        """``state``'s hash as this record's format computes it (format 1 needs the keys of
        the game-wide values the game wrote, :func:`~tertia.io.compat.values_written`)."""
        if self.format_version == 1:
            return legacy_state_hash(state, self.game.ruleset.id, written)
        return state.state_hash()


def load_record(path: Path) -> LoadedRecord:
    """Read and check a record file; raises :class:`RecordError` with a one-line reason."""
    name = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise RecordError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if size > MAX_RECORD_BYTES:
        raise RecordError(f"{name}: {size} bytes is larger than a record can be ({MAX_RECORD_BYTES})")
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        raise RecordError(f"{name}: not a text file (a record is JSON)") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{name}: not valid JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise RecordError(f"{name}: nested too deeply to be a record") from None
    except OSError as exc:
        raise RecordError(f"{name}: cannot read: {exc.strerror or exc}") from None
    return parse_record(data, name)


RECORD_FIELDS = frozenset({
    "format", "format_version", "engine_version", "ruleset", "scenario", "seed", "players",
    "actions", "rolls", "final_hash", "result",
})
RULESET_FIELDS = frozenset({"id", "version", "options"})
ROLL_FIELDS = frozenset({"purpose", "die", "value"})
MAX_ACTIONS = 1_000_000
MAX_ROLLS = 20_000_000


def check_ruleset_version(rules: str, recorded: Any, current: str, name: str = "record") -> None:
    """Refuse a record made under another version of its rule set: the same actions and
    dice would play a different game, so replaying it would diverge without saying why."""
    if recorded is None:
        raise RecordError(f"{name}: ruleset.version is missing (this engine plays {rules} {current})")
    if str(recorded) != current:
        raise RecordError(
            f"{name}: ruleset.version: made under {rules} {recorded}, but this engine plays "
            f"{rules} {current}; the game cannot be replayed"
        )


def _object(value: Any, where: str, name: str, allowed: frozenset[str] | None = None) -> dict[str, Any]:
    """``value`` as a JSON object, with no fields outside ``allowed`` when it is given."""
    if not isinstance(value, dict):
        raise RecordError(f"{name}: {where} must be a JSON object")
    unknown = sorted(set(value) - allowed) if allowed is not None else []
    if unknown:
        raise RecordError(f"{name}: {where}: unknown field {unknown[0]!r}")
    return value


def _required(data: dict[str, Any], key: str, where: str, name: str) -> Any:
    if key not in data:
        raise RecordError(f"{name}: missing field {where}{key!r}")
    return data[key]


def _integer(value: Any, where: str, name: str) -> int:
    """A JSON integer: not a float, a string or a boolean, which ``int()`` would accept."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{name}: {where} must be an integer, not {type(value).__name__}")
    return value


def _list(value: Any, where: str, name: str, limit: int) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{name}: {where} must be a JSON list")
    if len(value) > limit:
        raise RecordError(f"{name}: {where} has {len(value)} entries, more than a game can have ({limit})")
    return value


def _text(value: Any, where: str, name: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{name}: {where} must be text")
    return value


def _action(entry: Any, where: str, name: str) -> tuple[str, Action]:
    if not isinstance(entry, dict):
        raise RecordError(f"{name}: {where} must be a JSON object")
    entry = upgrade_tagged(entry)
    cls = ACTION_TYPES.get(str(entry.get("type")))
    if cls is not None:
        _object(entry, where, name, frozenset({"type", "side", *(f.name for f in fields(cls))}))
    try:
        action = action_from_dict(entry)
    except BadActionData as exc:
        raise RecordError(f"{name}: {where}: {exc}") from None
    return _text(entry.get("side", ""), f"{where}.side", name), action


def _roll(entry: Any, where: str, name: str) -> Roll:
    entry = _object(entry, where, name, ROLL_FIELDS)
    purpose = _text(_required(entry, "purpose", f"{where}.", name), f"{where}.purpose", name)
    die = _text(_required(entry, "die", f"{where}.", name), f"{where}.die", name)
    value = _integer(_required(entry, "value", f"{where}.", name), f"{where}.value", name)
    try:
        dist = distribution_named(die)
    except KeyError:
        raise RecordError(f"{name}: {where}.die: {die!r} names no die") from None
    if value not in dist:
        raise RecordError(f"{name}: {where}.value: {value} is not a face of {die}")
    return Roll(purpose, die, value)


def parse_record(data: Any, name: str = "record") -> LoadedRecord:
    """Check a record's every field and build the game it was played under; raises
    :class:`RecordError` naming the first field that is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{name}: not a Tertia game record (no \"format\": \"{FORMAT}\")")
    _object(data, "the record", name, RECORD_FIELDS)
    version = _required(data, "format_version", "", name)
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise RecordError(
            f"{name}: format_version: {version!r} is not one this engine reads "
            f"({', '.join(map(str, READABLE_VERSIONS))})"
        )
    rs = _object(_required(data, "ruleset", "", name), "ruleset", name, RULESET_FIELDS)
    rules = _text(_required(rs, "id", "ruleset.", name), "ruleset.id", name)
    options = _object(rs.get("options", {}), "ruleset.options", name)
    try:
        ruleset = get_ruleset(rules, **options)
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"{name}: ruleset: {exc.args[0] if exc.args else exc}") from None
    check_ruleset_version(ruleset.id, rs.get("version"), ruleset.version, name)
    try:
        written = _required(data, "scenario", "", name)
        document = dict(written) if isinstance(written, dict) else written
        if isinstance(document, dict):
            claim_top_level(document)
        scenario = Scenario.model_validate(document)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise RecordError(f"{name}: scenario.{loc}: {first['msg']}") from None
    seed = _integer(_required(data, "seed", "", name), "seed", name)
    listed = _list(_required(data, "actions", "", name), "actions", name, MAX_ACTIONS)
    actions = [_action(a, f"actions[{i}]", name) for i, a in enumerate(listed)]
    listed = _list(_required(data, "rolls", "", name), "rolls", name, MAX_ROLLS)
    rolls = [_roll(r, f"rolls[{i}]", name) for i, r in enumerate(listed)]
    final_hash = data.get("final_hash")
    if final_hash is not None:
        _text(final_hash, "final_hash", name)
    if "result" in data:
        _object(data["result"], "result", name)
    return LoadedRecord(
        game=Game(ruleset, scenario), seed=seed, actions=actions, rolls=rolls,
        final_hash=final_hash, data=data, format_version=version,
    )


@dataclass(frozen=True)
class ReplayResult:
    ok: bool
    final_state: GameState | None
    final_hash: str | None
    message: str
    steps: int


def replay(loaded: LoadedRecord) -> ReplayResult:
    """Re-run a record with its own dice; ``ok`` only when every action applies, every die
    matches and the final state hash equals the recorded one."""
    dice = SeedCheckedDice(loaded.rolls, dice_seed(loaded.seed))
    game = loaded.game
    try:
        state, events = game.start(dice)
    except DiceDivergence as exc:
        return ReplayResult(False, None, None, f"at the start: {exc}", 0)
    written = values_written(events)
    for i, (side, action) in enumerate(loaded.actions):
        if side and side != state.to_act:
            return ReplayResult(False, state, state.state_hash(),
                                f"action {i + 1}: recorded for {side}, but {state.to_act} is to act", i)
        try:
            state, events = game.apply(state, action, dice)
            written |= values_written(events)
        except IllegalAction as exc:
            return ReplayResult(False, state, state.state_hash(), f"action {i + 1}: {exc}", i)
        except DiceDivergence as exc:
            return ReplayResult(False, state, state.state_hash(), f"action {i + 1}: {exc}", i)
    if not dice.exhausted:
        return ReplayResult(False, state, state.state_hash(),
                            "the record has dice that the rules never asked for", len(loaded.actions))
    digest = loaded.state_hash(state, written)
    if loaded.final_hash is not None and digest != loaded.final_hash:
        return ReplayResult(False, state, digest,
                            f"final_hash: the final state is {digest}, the record says {loaded.final_hash}",
                            len(loaded.actions))
    if "result" in loaded.data and dict(loaded.data["result"]) != dict(state.result or {}):
        return ReplayResult(False, state, digest,
                            f"result: the record says {json.dumps(loaded.data['result'])}, the game "
                            f"ends {json.dumps(dict(state.result or {}))}", len(loaded.actions))
    return ReplayResult(True, state, digest, "identical", len(loaded.actions))
