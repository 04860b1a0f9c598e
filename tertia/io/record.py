"""Game records: the whole battle as JSON (rule set and options, scenario, seed, each
step's action and events with a chained hash, dice), and replay that re-runs a record and
reports the first divergence.

Each step of a record (format 3) carries a hash of its side, action and events (as
canonical JSON) and of the hash before it; the chain begins with the set-up (engine and
rule-set versions, options, scenario, seed, players) and the events of the battle's
start. The chain is worked out when a record is written (:func:`record_to_dict`), never
while battles are fought. Replay works every hash out again from what the file says and
plays every action again, comparing the events the engine gives with those written, so
an edit to any field of any step made without re-running the engine is refused, naming
the first step it touches, even when the edit changes no die and no final position.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from pydantic import ValidationError

import tertia
from tertia.battle import BattleRecord, dice_seed
from tertia.core.actions import ACTION_TYPES, Action, BadActionData, action_from_dict
from tertia.core.dice import DiceDivergence, Roll, SeedCheckedDice, distribution_named
from tertia.core.events import Event
from tertia.core.game import Game
from tertia.core.model_errors import explain
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.io.compat import claim_top_level, legacy_state_hash, upgrade_tagged, values_written
from tertia.io.files import shown_name, unnamable, write_text
from tertia.rulesets import get_ruleset, ruleset_class

FORMAT = "tertia-record"
FORMAT_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
"""Format 1 hashed the state as it was laid out then (see :mod:`tertia.io.compat`);
formats 1 and 2 list the actions alone, with no events and no chain of hashes; format 3
keeps each step's action, events and chained hash."""
CHAINED_VERSION = 3
"""The first format whose steps carry a chained hash: a record of it without one is refused."""
MAX_RECORD_BYTES = 50_000_000
CHAIN_ORIGIN = "tertia-record-chain"
"""What the first hash of a chain follows."""
SET_UP_FIELDS = ("engine_version", "ruleset", "scenario", "seed", "players")
"""The fields of a record the start of its chain covers, with the start's events."""


class RecordError(Exception):
    """A record file that cannot be read: one line saying where and why."""


class ScenarioNotRecord(RecordError):
    """A scenario file (TOML) given where a game record was asked for."""


def _is_scenario(text: str) -> bool:
    """Whether ``text`` reads as a scenario file: TOML with the ``sides`` a scenario
    needs (it may still have problems of its own)."""
    try:
        document = tomllib.loads(text.removeprefix("\ufeff"))
    except (tomllib.TOMLDecodeError, RecursionError):
        return False
    return "sides" in document


def canonical_json(value: Any) -> str:
    """``value`` as the chain hashes it: JSON with sorted keys and no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _plain(value: Any) -> Any:
    """``value`` as it reads back from a JSON file (tuples as lists, keys as text), so a
    hash worked out on writing is the one worked out again from the file."""
    return json.loads(json.dumps(value))


def _chained(previous: str, part: Mapping[str, Any]) -> str:
    digest = hashlib.sha256(previous.encode("utf-8"))
    digest.update(b"\n")
    digest.update(canonical_json(part).encode("utf-8"))
    return digest.hexdigest()


def start_hash(set_up: Mapping[str, Any], events: Any) -> str:
    """The first hash of a record's chain: its set-up (:data:`SET_UP_FIELDS`) and the
    events of the battle's start."""
    return _chained(CHAIN_ORIGIN, {**set_up, "events": events})


def step_hash(previous: str, side: Any, action: Any, events: Any) -> str:
    """A step's hash: the hash before it, then its side, action and events."""
    return _chained(previous, {"side": side, "action": action, "events": events})


def record_to_dict(record: BattleRecord) -> dict[str, Any]:
    """The record as written (format 3), each step's hash chained from the one before."""
    game = record.game
    data: dict[str, Any] = _plain({
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
    })
    events = _plain([e.to_dict() for e in record.start_events])
    chained = start_hash({k: data[k] for k in SET_UP_FIELDS}, events)
    data["start"] = {"events": events, "hash": chained}
    steps = []
    for s in record.steps:
        action = _plain(s.action.to_dict())
        events = _plain([e.to_dict() for e in s.events])
        chained = step_hash(chained, s.side, action, events)
        steps.append({"side": s.side, "action": action, "events": events, "hash": chained})
    data["steps"] = steps
    data["rolls"] = [{"purpose": r.purpose, "die": r.die, "value": r.value} for r in record.rolls]
    data["final_hash"] = record.final_state.state_hash()
    data["result"] = _plain(dict(record.final_state.result or {}))
    return data


def save_record(record: BattleRecord, path: Path) -> None:
    write_text(path, json.dumps(record_to_dict(record), indent=1))


@dataclass(frozen=True)
class Chain:
    """What a format-3 record says of each step, as written: the chain replay checks."""

    set_up: Mapping[str, Any]
    start: Mapping[str, Any]
    """The start's ``events`` and ``hash``."""
    steps: list[Mapping[str, Any]]
    """Each step's ``side``, ``action``, ``events`` and ``hash``."""


@dataclass(frozen=True)
class LoadedRecord:
    game: Game
    seed: int
    actions: list[tuple[str, Action]]
    rolls: list[Roll]
    final_hash: str | None
    data: Mapping[str, Any]
    format_version: int = FORMAT_VERSION
    chain: Chain | None = None
    """The steps as written with their hashes (format 3; None for older formats)."""

    def state_hash(self, state: GameState, written: Iterable[str] = ()) -> str:
        """``state``'s hash as this record's format computes it (format 1 needs the keys of
        the game-wide values the game wrote, :func:`~tertia.io.compat.values_written`)."""
        if self.format_version == 1:
            return legacy_state_hash(state, self.game.ruleset.id, written)
        return state.state_hash()


def load_record(path: Path) -> LoadedRecord:
    """Read and check a record file; raises :class:`RecordError` with a one-line reason,
    naming the file as :func:`~tertia.io.files.shown_name` shows it."""
    name = shown_name(path)
    reason = unnamable(path)
    if reason is not None:  # a name too long, or holding a NUL: nothing could be read under it
        raise RecordError(f"{name}: cannot read: {reason}")
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise RecordError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if size > MAX_RECORD_BYTES:
        raise RecordError(f"{name}: {size} bytes is larger than a record can be ({MAX_RECORD_BYTES})")
    try:
        text = path.read_bytes().decode("utf-8")
        data = json.loads(text)
    except UnicodeDecodeError:
        raise RecordError(f"{name}: not a text file (a record is JSON)") from None
    except json.JSONDecodeError as exc:
        if _is_scenario(text):
            raise ScenarioNotRecord(f"{name}: a scenario, not a battle record") from None
        raise RecordError(f"{name}: not valid JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise RecordError(f"{name}: nested too deeply to be a record") from None
    except OSError as exc:
        raise RecordError(f"{name}: cannot read: {exc.strerror or exc}") from None
    return parse_record(data, name)


OLD_RECORD_FIELDS = frozenset({
    "format", "format_version", "engine_version", "ruleset", "scenario", "seed", "players",
    "actions", "rolls", "final_hash", "result",
})
"""The fields of formats 1 and 2."""
RECORD_FIELDS = frozenset({
    "format", "format_version", "engine_version", "ruleset", "scenario", "seed", "players",
    "start", "steps", "rolls", "final_hash", "result",
})
RULESET_FIELDS = frozenset({"id", "version", "options"})
ROLL_FIELDS = frozenset({"purpose", "die", "value"})
START_FIELDS = frozenset({"events", "hash"})
STEP_FIELDS = frozenset({"side", "action", "events", "hash"})
MAX_ACTIONS = 1_000_000
MAX_ROLLS = 20_000_000
MAX_EVENTS = 1_000_000
"""Events of one step (or of the start)."""


def check_ruleset_version(rules: str, recorded: Any, current: str, name: str = "record",
                          unknown_options: Iterable[str] = ()) -> None:
    """Refuse a record made under another version of its rule set: the same actions and
    dice would play a different game, so replaying it would diverge without saying why.
    ``unknown_options``, the record's options this version does not have (an option
    renamed since), are named after both versions."""
    if recorded is None:
        raise RecordError(f"{name}: ruleset.version is missing (this engine plays {rules} {current})")
    if str(recorded) != current:
        gone = sorted(unknown_options)
        also = (f" (its option{'s' if len(gone) > 1 else ''} {', '.join(map(repr, gone))} "
                f"{'are' if len(gone) > 1 else 'is'} not {rules} {current}'s)") if gone else ""
        raise RecordError(
            f"{name}: ruleset.version: made under {rules} {recorded}, but this engine plays "
            f"{rules} {current}; the game cannot be replayed{also}"
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


def _action(entry: Any, where: str, name: str, sided: bool = True) -> tuple[str, Action]:
    """An action as a record lists it: with its ``side`` among its fields when ``sided``
    (formats 1 and 2), else beside it in its step (format 3)."""
    if not isinstance(entry, dict):
        raise RecordError(f"{name}: {where} must be a JSON object")
    entry = upgrade_tagged(entry)
    cls = ACTION_TYPES.get(str(entry.get("type")))
    if cls is not None:
        own = frozenset({"type", *(f.name for f in fields(cls))})
        _object(entry, where, name, own | {"side"} if sided else own)
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


def _events(value: Any, where: str, name: str) -> list[Any]:
    events = _list(value, where, name, MAX_EVENTS)
    for j, event in enumerate(events):
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise RecordError(f"{name}: {where}[{j}] must be a JSON object with a \"type\"")
    return events


def _unchained(where: str, name: str) -> RecordError:
    return RecordError(
        f"{name}: {where}: a format-{CHAINED_VERSION} record has a chained hash for every step, and "
        f"this one has none here; it was not written by `tertia battle --save`, or was cut"
    )


def _chain(data: dict[str, Any], name: str) -> tuple[Chain, list[tuple[str, Action]]]:
    """A format-3 record's steps, each with its action, events and hash."""
    if "start" not in data or "steps" not in data:
        raise _unchained("start" if "start" not in data else "steps", name)
    start = _object(data["start"], "start", name, START_FIELDS)
    if "hash" not in start:
        raise _unchained("start.hash", name)
    _events(_required(start, "events", "start.", name), "start.events", name)
    _text(start["hash"], "start.hash", name)
    listed = _list(data["steps"], "steps", name, MAX_ACTIONS)
    actions = []
    for i, entry in enumerate(listed):
        where = f"steps[{i}]"
        entry = _object(entry, where, name, STEP_FIELDS)
        if "hash" not in entry:
            raise _unchained(f"{where}.hash", name)
        side = _text(_required(entry, "side", f"{where}.", name), f"{where}.side", name)
        written = _required(entry, "action", f"{where}.", name)
        _, action = _action(written, f"{where}.action", name, sided=False)
        _events(_required(entry, "events", f"{where}.", name), f"{where}.events", name)
        _text(entry["hash"], f"{where}.hash", name)
        actions.append((side, action))
    set_up = {k: data.get(k) for k in SET_UP_FIELDS}
    return Chain(set_up=set_up, start=start, steps=listed), actions


def parse_record(data: Any, name: str = "record") -> LoadedRecord:
    """Check a record's every field and build the game it was played under; raises
    :class:`RecordError` naming the first field that is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{name}: not a Tertia game record (no \"format\": \"{FORMAT}\")")
    version = _required(data, "format_version", "", name)
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise RecordError(
            f"{name}: format_version: {version!r} is not one this engine reads "
            f"({', '.join(map(str, READABLE_VERSIONS))})"
        )
    chained = version >= CHAINED_VERSION
    if chained and "actions" in data and "steps" not in data:
        raise _unchained("steps", name)
    _object(data, "the record", name, RECORD_FIELDS if chained else OLD_RECORD_FIELDS)
    rs = _object(_required(data, "ruleset", "", name), "ruleset", name, RULESET_FIELDS)
    rules = _text(_required(rs, "id", "ruleset.", name), "ruleset.id", name)
    options = _object(rs.get("options", {}), "ruleset.options", name)
    try:
        cls = ruleset_class(rules)
    except ValueError as exc:
        raise RecordError(f"{name}: ruleset: {exc.args[0] if exc.args else exc}") from None
    # The version first: an option renamed since the record was made is named with both
    # versions, not as an option this engine does not know.
    check_ruleset_version(cls.id, rs.get("version"), cls.version, name,
                          set(options) - {o.name for o in cls.OPTIONS})
    try:
        ruleset = get_ruleset(rules, **options)
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"{name}: ruleset: {exc.args[0] if exc.args else exc}") from None
    try:
        written = _required(data, "scenario", "", name)
        document = dict(written) if isinstance(written, dict) else written
        if isinstance(document, dict):
            claim_top_level(document)
        scenario = Scenario.model_validate(document)
    except ValidationError as exc:
        where, why = explain(exc.errors(include_url=False)[0], document)
        raise RecordError(f"{name}: scenario.{where}: {why}") from None
    seed = _integer(_required(data, "seed", "", name), "seed", name)
    chain: Chain | None = None
    if chained:
        chain, actions = _chain(data, name)
    else:
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
        final_hash=final_hash, data=data, format_version=version, chain=chain,
    )


@dataclass(frozen=True)
class ReplayResult:
    ok: bool
    final_state: GameState | None
    final_hash: str | None
    message: str
    steps: int
    kept: GameState | None = None
    """The first position the replay's ``moment`` chose (after that many actions), if any."""


def _shown(value: Any) -> str:
    text = canonical_json(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _difference(written: Any, played: Any, where: str) -> str | None:
    """Where ``written`` (the record) and ``played`` (the engine) first differ, in words;
    None when they are the same."""
    if canonical_json(written) == canonical_json(played):
        return None
    if isinstance(written, dict) and isinstance(played, dict):
        keys = sorted(set(written) | set(played), key=lambda k: (k != "type", k))
        for key in keys:
            if key not in played:
                return f"{where}.{key}: the record has it, the game has no such field"
            if key not in written:
                return f"{where}.{key}: missing (the game gives {_shown(played[key])})"
            found = _difference(written[key], played[key], f"{where}.{key}")
            if found is not None:
                return found
    if isinstance(written, list) and isinstance(played, list):
        for j, (a, b) in enumerate(zip(written, played, strict=False)):
            found = _difference(a, b, f"{where}[{j}]")
            if found is not None:
                return found
        return f"{where}: the record has {len(written)} entries, the game {len(played)}"
    return f"{where}: the record has {_shown(written)}, the game gives {_shown(played)}"


def _events_differ(written: Any, events: Iterable[Any], where: str) -> str | None:
    """How the events written differ from those the engine gave (old type and field names
    read as today's, :func:`~tertia.io.compat.upgrade_tagged`); None when they agree."""
    upgraded = [upgrade_tagged(e) for e in written]
    return _difference(upgraded, _plain([e.to_dict() for e in events]), where)


def _step_name(loaded: LoadedRecord, i: int, side: str, action: Action) -> str:
    """``step 12 (steps[11], a move by royalist)``: a step as replay names it."""
    listed = "steps" if loaded.chain is not None else "actions"
    by = f" by {side}" if side else ""
    return f"step {i + 1} ({listed}[{i}], {action.type}{by})"


def replay(loaded: LoadedRecord, *, moment: Callable[[int, GameState], bool] | None = None,
           told: Callable[[Sequence[Event]], None] | None = None) -> ReplayResult:
    """Re-run a record with its own dice; ``ok`` only when every action applies, every die
    matches and the final state hash equals the recorded one, and, for a record with a
    chain (format 3), every step's hash follows from what it says and the step before,
    and every step's events are the ones the engine gives. A failure names the first step
    that differs. ``moment(done, state)``, asked of each position (after ``done``
    actions), chooses the one kept as :attr:`ReplayResult.kept`: the first it is true of.
    ``told`` is given the battle's start's events, then each action's, as they happen."""
    dice = SeedCheckedDice(loaded.rolls, dice_seed(loaded.seed))
    game = loaded.game
    chain = loaded.chain
    previous = ""
    if chain is not None:
        previous = str(chain.start["hash"])
        if start_hash(chain.set_up, chain.start["events"]) != previous:
            return ReplayResult(False, None, None,
                                "at the start: start.hash does not follow from the set-up (versions, "
                                "options, scenario, seed, players) and the start's events: the record "
                                "was changed after the game was played", 0)
    try:
        state, events = game.start(dice)
    except DiceDivergence as exc:
        return ReplayResult(False, None, None, f"at the start: {exc}", 0)
    if chain is not None:
        found = _events_differ(chain.start["events"], events, "start.events")
        if found is not None:
            return ReplayResult(False, state, state.state_hash(), f"at the start: {found}", 0)
    if told is not None:
        told(events)
    written = values_written(events)
    kept: GameState | None = None
    for i, (side, action) in enumerate(loaded.actions):
        if kept is None and moment is not None and moment(i, state):
            kept = state
        step = _step_name(loaded, i, side, action)
        if chain is not None:
            entry = chain.steps[i]
            if step_hash(previous, entry["side"], entry["action"], entry["events"]) != entry["hash"]:
                return ReplayResult(False, state, state.state_hash(),
                                    f"{step}: its hash does not follow from its side, action and events "
                                    f"and the step before: the step was changed after the game was "
                                    f"played", i)
            previous = str(entry["hash"])
        if side and side != state.to_act:
            recorded, to_act = game.side_names.get(side, repr(side)), game.side_names[state.to_act]
            return ReplayResult(False, state, state.state_hash(),
                                f"{step}: recorded for {recorded}, but {to_act} is to act", i)
        try:
            state, events = game.apply(state, action, dice)
            written |= values_written(events)
        except IllegalAction as exc:
            return ReplayResult(False, state, state.state_hash(), f"{step}: {exc}", i)
        except DiceDivergence as exc:
            return ReplayResult(False, state, state.state_hash(), f"{step}: {exc}", i)
        if told is not None:
            told(events)
        if chain is not None:
            found = _events_differ(chain.steps[i]["events"], events, f"steps[{i}].events")
            if found is not None:
                return ReplayResult(False, state, state.state_hash(), f"{step}: {found}", i)
    if not dice.exhausted:
        return ReplayResult(False, state, state.state_hash(),
                            "the record has dice that the rules never asked for", len(loaded.actions))
    digest = loaded.state_hash(state, written)
    if loaded.final_hash is not None and digest != loaded.final_hash:
        return ReplayResult(False, state, digest,
                            f"final_hash: the final state is {digest}, the record says {loaded.final_hash}",
                            len(loaded.actions))
    if "result" in loaded.data:
        found = _difference(_plain(loaded.data["result"]), _plain(dict(state.result or {})), "result")
        if found is not None:  # the first field that differs, not both results whole
            return ReplayResult(False, state, digest, found, len(loaded.actions))
    if kept is None and moment is not None and moment(len(loaded.actions), state):
        kept = state
    return ReplayResult(True, state, digest, "identical", len(loaded.actions), kept)
