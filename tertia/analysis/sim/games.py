"""One simulated game: what to fight (a :class:`GameSpec`), and the plain row a game
becomes. Everything here runs inside worker processes as well as in the main process, so
a row depends only on the spec, the master seed and the game's index, never on the worker.
"""

from __future__ import annotations

import gc
import hashlib
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from tertia.ai.player import Player
from tertia.ai.players import DEFAULT_PLAYER, entry, make_player
from tertia.battle import MAX_ACTIONS, fight_battle
from tertia.core.dice import derive_seed
from tertia.core.game import Game
from tertia.core.presentation import Presentation
from tertia.core.scenario import Scenario
from tertia.core.state import GameState, Unit, UnitKind
from tertia.rulesets import get_ruleset

TROOP_ORDER = (UnitKind.FOOT, UnitKind.HORSE, UnitKind.DRAGOONS, UnitKind.COMMANDED_SHOT, UnitKind.ARTILLERY)
"""Troop types in the order their columns appear."""

Job = tuple[int, int]
"""A game to fight: (variant number, game index)."""

Row = dict[str, Any]


@dataclass(frozen=True)
class GameSpec:
    """A rule set with options on a scenario: what every game of one variant fights.

    ``options`` holds only the options set explicitly (already coerced to their types);
    ``vary`` labels the variant in a sweep (the varied option's value as given).
    """

    scenario_name: str
    scenario: Scenario
    rules: str
    options: tuple[tuple[str, Any], ...] = ()
    vary: str | None = None
    max_actions: int = MAX_ACTIONS
    scenario_digest: str = ""
    players: tuple[tuple[str, str], ...] = ()
    """The player of each side named (:mod:`tertia.ai.players`); the others play the
    default (the doctrine)."""

    @property
    def key(self) -> tuple[str, str, str, int]:
        """What identifies the game this spec builds (the worker cache key)."""
        return (self.scenario_digest, self.rules, json.dumps(self.options, default=str), self.max_actions)

    @property
    def sides(self) -> tuple[str, str]:
        return self.scenario.side_ids

    def player_of(self, side: str) -> str:
        return dict(self.players).get(side, DEFAULT_PLAYER)

    def build_game(self) -> Game:
        return Game(get_ruleset(self.rules, **dict(self.options)), self.scenario)

    @cached_property
    def fielded(self) -> dict[str, dict[str, int]]:
        """Troop units per side and type at the start, in column order: the engine's
        kinds first, then any kind the rule set names apart (:func:`troop_type`)."""
        game = game_for(self)
        shows = game.ruleset.presentation()
        start = game.ruleset.initial_state(self.scenario)
        order = [kind.value for kind in TROOP_ORDER]
        counts: dict[str, dict[str, int]] = {side: {} for side in self.sides}
        for side in self.sides:
            types = [troop_type(shows, u) for u in start.iter_units(side) if not u.is_commander]
            for name in sorted(set(types), key=lambda t: (order.index(t) if t in order else len(order), t)):
                counts[side][name] = types.count(name)
        return counts

    @property
    def least_score(self) -> float | None:
        """The least score a side can have under the spec's rule set
        (:attr:`~tertia.core.ruleset.RuleSet.LEAST_SCORE`): the floor of the interval of
        a side's mean score."""
        return game_for(self).ruleset.LEAST_SCORE

    @cached_property
    def last_turn(self) -> int:
        """The last turn a battle of this spec can reach, as its rule set tells it from the
        deployed position (:meth:`~tertia.core.presentation.Presentation.last_turn`: the
        scenario's ``turns``, or a later turn a die may still give): the bound of the
        interval of its mean game length."""
        game = game_for(self)
        return game.ruleset.presentation().last_turn(game.deployed(), game.scenario.turns).last


def troop_type(shows: Presentation, unit: Unit) -> str:
    """A unit's type as a study's columns name it: its kind in the rule set's words
    (:meth:`~tertia.core.presentation.Presentation.kind_label`), underscored
    ("commanded_shot", a rule set's "baggage")."""
    return shows.kind_label(unit).replace(" ", "_")


def make_spec(
    scenario_name: str,
    scenario: Scenario,
    rules: str,
    options: Mapping[str, Any] | None = None,
    *,
    vary: str | None = None,
    max_actions: int = MAX_ACTIONS,
    players: Mapping[str, str] | None = None,
) -> GameSpec:
    """A spec with its options checked and coerced by the rule set (``ValueError`` on a bad
    option) and the scenario fingerprinted for caching; ``players`` names each side's
    player where it is not the default (``UnknownPlayer``, a ValueError, on a bad name)."""
    ruleset = get_ruleset(rules, **dict(options or {}))
    coerced = tuple(sorted((name, ruleset.options[name]) for name in (options or {})))
    digest = hashlib.sha256(scenario.model_dump_json().encode()).hexdigest()[:16]
    named = tuple((side, entry(name).name) for side, name in (players or {}).items()
                  if side in scenario.side_ids)
    return GameSpec(scenario_name, scenario, rules, coerced, vary, max_actions, digest, named)


_GAMES: dict[tuple[str, str, str, int], Game] = {}


def game_for(spec: GameSpec) -> Game:
    """The spec's game, built once per process and reused for every game it fights."""
    game = _GAMES.get(spec.key)
    if game is None:
        game = _GAMES[spec.key] = spec.build_game()
    return game


def game_seed(master_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with ``master_seed``."""
    return derive_seed(master_seed, "game", index)


def columns(spec: GameSpec) -> list[str]:
    """Every column of a row for this spec, in order (see ``docs/simulation.md``)."""
    cols = ["index", "seed", "master_seed", "scenario", "ruleset", "ruleset_version", "options"]
    if spec.vary is not None:
        cols.append("vary")
    cols += [f"player_{side}" for side in spec.sides]
    cols += ["winner", "reason", "ending", "decided", "turns", "first_side", "actions", "error"]
    for side in spec.sides:
        cols += [f"score_{side}", f"units_lost_{side}", f"commanders_lost_{side}"]
    for side, kinds in spec.fielded.items():
        cols += [f"lost_{side}_{kind}" for kind in kinds]
    return cols


def play_game(spec: GameSpec, master_seed: int, index: int) -> Row:
    """Fight game ``index`` with each side played by its player (the doctrine, unless the
    spec names another) and return its row.

    A game that raises becomes a row with ``error`` set (the exception, the game's index
    and its seed) and the outcome columns empty; it is never dropped.
    """
    seed = game_seed(master_seed, index)
    row: Row = dict.fromkeys(columns(spec))
    row.update(index=index, seed=seed, master_seed=master_seed, scenario=spec.scenario_name,
               ruleset=spec.rules)
    if spec.vary is not None:
        row["vary"] = spec.vary
    row.update({f"player_{side}": spec.player_of(side) for side in spec.sides})
    try:
        game = game_for(spec)
        row.update(ruleset_version=game.ruleset.version,
                   options=json.dumps(dict(game.ruleset.options), sort_keys=True))
        players: dict[str, Player] = {side: make_player(spec.player_of(side)) for side in spec.sides}
        record = fight_battle(game, players, seed, max_actions=spec.max_actions)
        _outcome(row, record.initial_state, record.final_state, spec, len(record.steps))
    except Exception as exc:  # a failing game is data, reported with its seed
        message = " ".join(str(exc).split()) or "no message"
        row["error"] = f"{type(exc).__name__}: {message} (game {index}, seed {seed})"
    return row


def _outcome(row: Row, first: GameState, final: GameState, spec: GameSpec, actions: int) -> None:
    result = final.result or {}
    score = result.get("score", {})
    shows = game_for(spec).ruleset.presentation()
    ending = shows.ending(final.result)
    row.update(winner=result.get("winner"), reason=result.get("reason"), turns=final.turn,
               ending=None if ending is None else ending.name,
               decided=None if ending is None else int(ending.decided),
               first_side=shows.first_mover(final), actions=actions)
    for side, kinds in spec.fielded.items():
        lost = shows.lost_pieces(first, final, side)
        row[f"score_{side}"] = int(score.get(side, 0))
        row[f"units_lost_{side}"] = sum(1 for u in lost if not u.is_commander)
        row[f"commanders_lost_{side}"] = sum(1 for u in lost if u.is_commander)
        types = [troop_type(shows, u) for u in lost if not u.is_commander]
        for kind in kinds:
            row[f"lost_{side}_{kind}"] = types.count(kind)


@dataclass(frozen=True, slots=True)
class ChunkResult:
    """The rows of one batch of games, tagged with their variant, and the time it took."""

    rows: list[tuple[int, Row]]
    seconds: float


def run_chunk(specs: Sequence[GameSpec], master_seed: int, jobs: Sequence[Job]) -> ChunkResult:
    """Fight a batch of games; the unit of work a worker process or a Ray task receives."""
    start = time.perf_counter()
    # Battles leave no cyclic garbage, so the collector's passes over the many short-lived
    # objects of a battle are pure cost here: it runs once the batch is done instead.
    collecting = gc.isenabled()
    gc.disable()
    try:
        rows = [(variant, play_game(specs[variant], master_seed, index)) for variant, index in jobs]
    finally:
        if collecting:
            gc.enable()
    return ChunkResult(rows, time.perf_counter() - start)
