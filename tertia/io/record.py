"""Game records: the whole battle as JSON (rule set and options, scenario, seed, actions,
dice), and replay that re-runs a record and reports the first divergence."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

import tertia
from tertia.battle import BattleRecord
from tertia.core.actions import Action, BadActionData, action_from_dict
from tertia.core.dice import DiceDivergence, ReplayDice, Roll
from tertia.core.game import Game
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.rulesets import get_ruleset

FORMAT = "tertia-record"
FORMAT_VERSION = 1
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
    text = json.dumps(record_to_dict(record), indent=1)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


@dataclass(frozen=True)
class LoadedRecord:
    game: Game
    seed: int
    actions: list[tuple[str, Action]]
    rolls: list[Roll]
    final_hash: str | None
    data: Mapping[str, Any]


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
    except OSError as exc:
        raise RecordError(f"{name}: cannot read: {exc.strerror or exc}") from None
    return parse_record(data, name)


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


def parse_record(data: Any, name: str = "record") -> LoadedRecord:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{name}: not a Tertia game record (no \"format\": \"{FORMAT}\")")
    try:
        rs = data["ruleset"]
        ruleset = get_ruleset(str(rs["id"]), **dict(rs.get("options", {})))
        check_ruleset_version(ruleset.id, rs.get("version"), ruleset.version, name)
        scenario = Scenario.model_validate(data["scenario"])
        seed = int(data["seed"])
        actions: list[tuple[str, Action]] = []
        for i, a in enumerate(data["actions"]):
            try:
                actions.append((str(a.get("side", "")), action_from_dict(a)))
            except (BadActionData, AttributeError) as exc:
                raise RecordError(f"{name}: actions[{i}]: {exc}") from None
        rolls = []
        for i, r in enumerate(data["rolls"]):
            try:
                rolls.append(Roll(str(r["purpose"]), str(r["die"]), int(r["value"])))
            except (KeyError, TypeError, ValueError):
                raise RecordError(f"{name}: rolls[{i}]: needs purpose, die and an integer value") from None
    except RecordError:
        raise
    except KeyError as exc:
        raise RecordError(f"{name}: missing field {exc.args[0]!r}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise RecordError(f"{name}: scenario.{loc}: {first['msg']}") from None
    except (TypeError, ValueError) as exc:
        raise RecordError(f"{name}: {exc}") from None
    final_hash = data.get("final_hash")
    return LoadedRecord(
        game=Game(ruleset, scenario), seed=seed, actions=actions, rolls=rolls,
        final_hash=str(final_hash) if final_hash is not None else None, data=data,
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
    dice = ReplayDice(loaded.rolls)
    game = loaded.game
    try:
        state, _ = game.start(dice)
    except DiceDivergence as exc:
        return ReplayResult(False, None, None, f"at the start: {exc}", 0)
    for i, (side, action) in enumerate(loaded.actions):
        if side and side != state.to_act:
            return ReplayResult(False, state, state.state_hash(),
                                f"action {i + 1}: recorded for {side}, but {state.to_act} is to act", i)
        try:
            state, _ = game.apply(state, action, dice)
        except IllegalAction as exc:
            return ReplayResult(False, state, state.state_hash(), f"action {i + 1}: {exc}", i)
        except DiceDivergence as exc:
            return ReplayResult(False, state, state.state_hash(), f"action {i + 1}: {exc}", i)
    if not dice.exhausted:
        return ReplayResult(False, state, state.state_hash(),
                            "the record has dice that the rules never asked for", len(loaded.actions))
    digest = state.state_hash()
    if loaded.final_hash is not None and digest != loaded.final_hash:
        return ReplayResult(False, state, digest,
                            f"final state {digest} differs from the recorded {loaded.final_hash}",
                            len(loaded.actions))
    return ReplayResult(True, state, digest, "identical", len(loaded.actions))
