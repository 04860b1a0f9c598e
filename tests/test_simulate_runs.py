"""Running studies: rows that depend on the seed only, failures kept with their seeds,
interrupted runs that keep their finished games, batching, and Parquet round trips."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tertia.analysis.sim import games as sim_games
from tertia.analysis.sim.games import (
    ChunkResult,
    GameSpec,
    Job,
    Row,
    columns,
    game_seed,
    make_spec,
    run_chunk,
)
from tertia.analysis.sim.runner import jobs_for, run
from tertia.analysis.sim.scheduler import WorkerLost, _Batcher, run_jobs
from tertia.analysis.sim.storage import read_rows, write_rows
from tertia.analysis.sim.summary import summarize
from tertia.battle import BattleRecord, fight_battle
from tertia.cli.main import app
from tertia.rulesets import ruleset_ids
from tertia.scenarios import load_builtin
from tests.plugin_rules import with_plugins

SEED = 11
GAMES = 6


@pytest.fixture(scope="module")
def spec() -> GameSpec:
    return make_spec("skirmish", load_builtin("skirmish"), "larger-battles")


@pytest.fixture(scope="module")
def in_process(spec: GameSpec) -> list[Row]:
    study = run([spec], GAMES, SEED, workers=1)
    assert study.stopped is None
    return study.rows[0]


def test_rows_are_in_index_order_with_derived_seeds(in_process: list[Row]) -> None:
    assert [r["index"] for r in in_process] == list(range(GAMES))
    assert [r["seed"] for r in in_process] == [game_seed(SEED, i) for i in range(GAMES)]
    assert all(r["error"] is None and r["turns"] >= 1 for r in in_process)
    assert len({r["seed"] for r in in_process}) == GAMES


def test_two_workers_give_the_same_rows_as_one(spec: GameSpec, in_process: list[Row]) -> None:
    study = run([spec], GAMES, SEED, workers=2)
    assert study.stopped is None and study.workers == 2
    assert study.rows[0] == in_process


def test_a_different_master_seed_gives_different_games(spec: GameSpec, in_process: list[Row]) -> None:
    other = run([spec], GAMES, SEED + 1).rows[0]
    assert [r["seed"] for r in other] != [r["seed"] for r in in_process]


def test_a_row_has_every_documented_column(spec: GameSpec, in_process: list[Row]) -> None:
    row = in_process[0]
    assert list(row) == columns(spec)
    for name in ("index", "seed", "master_seed", "scenario", "ruleset", "ruleset_version", "options",
                 "winner", "reason", "turns", "first_side", "actions", "error",
                 "score_parliament", "score_royalist", "units_lost_parliament", "units_lost_royalist",
                 "lost_parliament_foot", "lost_royalist_dragoons"):
        assert name in row
    assert row["scenario"] == "skirmish" and row["ruleset"] == "larger-battles"
    assert '"hit_limit_infantry": 3' in row["options"]
    lost_by_type = sum(v for k, v in row.items() if k.startswith("lost_parliament_"))
    assert lost_by_type == row["units_lost_parliament"]


def test_a_row_agrees_with_the_battle_fought_from_its_seed(spec: GameSpec, in_process: list[Row]) -> None:
    """The seed in a row reproduces the game, as ``tertia battle --seed`` would."""
    from tertia.ai.doctrine import DoctrinePlayer

    row = in_process[2]
    game = spec.build_game()
    record = fight_battle(game, {s: DoctrinePlayer() for s in spec.sides}, row["seed"])
    final = record.final_state
    assert final.result is not None
    expected = (final.result["winner"], final.turn, len(record.steps))
    assert (row["winner"], row["turns"], row["actions"]) == expected


NO_FIRST_MOVER = {"declare-thee-sir", "charge-yr-pikes"}
"""Rule sets whose sides act as one deck of both sides' cards comes: no side moves first."""


@pytest.mark.parametrize("rules", ruleset_ids())
def test_first_side_is_recorded_only_where_a_side_moves_first(rules: str) -> None:
    """A study names the side that moved first, and measures its advantage, only under a
    rule set whose battles have one; elsewhere the column is empty and the summary's
    ``first_mover`` null, never the scenario's first side passed off as the first mover.
    The row's side is the one the rule set's presentation names for the battle fought
    (:meth:`~tertia.core.presentation.Presentation.first_mover`), as ``battle --json`` reads it."""
    from tertia.ai.doctrine import DoctrinePlayer
    from tertia.cli.common import battle_choice
    from tertia.scenarios import resolve_scenario

    scenario, _ = battle_choice(None, rules)
    spec = make_spec(scenario, resolve_scenario(scenario, rules_id=rules), rules)
    rows = run([spec], 1, SEED, workers=1).rows[0]
    assert rows[0]["error"] is None, rows[0]["error"]
    summary = summarize(rows, spec.sides, spec.fielded)
    game = spec.build_game()
    shows = game.ruleset.presentation()
    final = fight_battle(game, {s: DoctrinePlayer() for s in spec.sides}, rows[0]["seed"]).final_state
    assert rows[0]["first_side"] == shows.first_mover(final)
    if rules in NO_FIRST_MOVER:
        assert not shows.FIRST_MOVER and final.first_side in spec.sides  # the start names one all the same
        assert rows[0]["first_side"] is None and summary["first_mover"] is None
    else:
        assert shows.FIRST_MOVER
        assert rows[0]["first_side"] in spec.sides and summary["first_mover"] is not None


def _with_plugin_ids() -> list[str]:
    with with_plugins():
        return list(ruleset_ids())


@pytest.mark.parametrize("rules", _with_plugin_ids())
def test_a_battles_json_names_a_first_side_only_where_simulate_does(rules: str) -> None:
    """``tertia battle --json`` and a study agree on the side that moved first: none
    where one deck decides who acts, as simulate's rows have it, a side elsewhere."""
    from tertia.cli.common import battle_choice
    from tertia.scenarios import resolve_scenario

    with with_plugins():
        scenario, _ = battle_choice(None, rules)
        spec = make_spec(scenario, resolve_scenario(scenario, rules_id=rules), rules)
        row = run([spec], 1, SEED, workers=1).rows[0][0]
        fought = CliRunner().invoke(app, ["battle", "--rules", rules, "--seed", str(SEED), "--json"])
    assert fought.exit_code == 0, fought.output
    first = json.loads(fought.output)["first_side"]
    assert (first is None) is (row["first_side"] is None), (first, row["first_side"])
    assert first is None or first in spec.sides


def test_a_game_that_raises_is_a_row_with_its_seed(spec: GameSpec, monkeypatch: pytest.MonkeyPatch) -> None:
    bad_seed = game_seed(SEED, 3)

    def flaky(game: Any, players: Any, seed: int, **kw: Any) -> BattleRecord:
        if seed == bad_seed:
            raise RuntimeError("the doctrine lost its map")
        return fight_battle(game, players, seed, **kw)

    monkeypatch.setattr(sim_games, "fight_battle", flaky)
    rows = run([spec], GAMES, SEED).rows[0]
    assert len(rows) == GAMES
    failed = [r for r in rows if r["error"] is not None]
    assert [r["index"] for r in failed] == [3]
    assert "the doctrine lost its map" in failed[0]["error"] and str(bad_seed) in failed[0]["error"]
    assert failed[0]["seed"] == bad_seed and failed[0]["winner"] is None and failed[0]["turns"] is None


def test_failures_in_worker_processes_come_back_as_rows(spec: GameSpec) -> None:
    short = make_spec("skirmish", spec.scenario, "larger-battles", max_actions=5)
    rows = run([short], 4, SEED, workers=2).rows[0]
    assert [r["index"] for r in rows] == [0, 1, 2, 3]
    for r in rows:
        assert "did not end within 5 actions" in r["error"] and str(r["seed"]) in r["error"]


class _StopAfter:
    """A progress callback that presses Ctrl-C once ``after`` games have been reported."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.seen = 0

    def __call__(self, rows: Sequence[tuple[int, Row]]) -> None:
        self.seen += len(rows)
        if self.seen >= self.after:
            raise KeyboardInterrupt


def test_an_interrupted_run_keeps_its_finished_games(spec: GameSpec, in_process: list[Row]) -> None:
    study = run([spec], GAMES, SEED, on_rows=_StopAfter(3))
    assert study.stopped == "interrupted"
    assert study.rows[0] == in_process[:3]


def test_an_interrupted_pool_keeps_finished_and_running_games(spec: GameSpec) -> None:
    games = 40
    study = run([spec], games, SEED, workers=2, on_rows=_StopAfter(1))
    kept = study.rows[0]
    assert study.stopped == "interrupted"
    assert 1 <= len(kept) < games
    full = run([spec], games, SEED).rows[0]
    assert all(full[r["index"]] == r for r in kept)


def test_sweep_variants_fight_the_same_seeds(spec: GameSpec) -> None:
    specs = [make_spec("skirmish", spec.scenario, "larger-battles", {"hit_limit_infantry": v}, vary=str(v))
             for v in (3, 4)]
    study = run(specs, 4, SEED)
    seeds = [[r["seed"] for r in rows] for rows in study.rows]
    assert seeds[0] == seeds[1] == [game_seed(SEED, i) for i in range(4)]
    assert [r["vary"] for r in study.rows[1]] == ["4"] * 4
    assert all('"hit_limit_infantry": 4' in r["options"] for r in study.rows[1])


def test_runs_are_ordered_game_by_game_so_a_stopped_sweep_stays_paired() -> None:
    assert jobs_for(2, 3) == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]


def test_batches_grow_to_the_target_time_and_shrink_for_the_tail() -> None:
    batcher = _Batcher([(0, i) for i in range(1000)], slots=2, max_batch=256)
    assert len(batcher.take()) == 1  # nothing timed yet
    batcher.record(ChunkResult([(0, {})] * 10, seconds=0.05))  # 5 ms a game: 50 to a batch
    assert len(batcher.take()) == 50
    batcher.next = 990
    assert len(batcher.take()) == 3  # 10 left for 2 slots with 2 batches each


@pytest.mark.parametrize("bad", [{"games": 0}, {"workers": 0}, {"master_seed": -1}, {"backend": "cloud"},
                                 {"address": "10.0.0.5:6379"}])
def test_impossible_arguments_are_refused(spec: GameSpec, bad: dict[str, Any]) -> None:
    args: dict[str, Any] = {"games": 2, "master_seed": 1, **bad}
    with pytest.raises(ValueError):
        run([spec], **args)


def test_parquet_round_trip_keeps_rows_columns_and_metadata(
    spec: GameSpec, in_process: list[Row], tmp_path: Path
) -> None:
    import pyarrow.parquet as pq

    rows = [*in_process, {**dict.fromkeys(columns(spec)), "index": GAMES, "seed": 5, "error": "boom"}]
    path = tmp_path / "games.parquet"
    write_rows(path, rows, columns(spec), {"scenario": "skirmish", "fielded": spec.fielded})
    back, metadata = read_rows(path)
    assert back == rows
    assert metadata == {"scenario": "skirmish", "fielded": spec.fielded}
    schema = pq.read_schema(path)
    assert schema.names == columns(spec)
    assert str(schema.field("seed").type) == "int64" and str(schema.field("winner").type) == "string"


def test_an_unwritable_parquet_path_is_an_os_error(
    spec: GameSpec, in_process: list[Row], tmp_path: Path
) -> None:
    with pytest.raises(OSError):
        write_rows(tmp_path / "missing" / "games.parquet", in_process, columns(spec), {})


class _PoolThatLosesAWorker:
    """A pool whose second batch never comes back, as when a worker process is killed."""

    slots = 1
    max_batch = 1

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.batches: list[tuple[Job, ...]] = []
        self.closed = False

    def submit(self, jobs: tuple[Job, ...]) -> int:
        self.batches.append(jobs)
        return len(self.batches) - 1

    def wait(self, handles: Collection[int]) -> list[int]:
        return [min(handles)]

    def result(self, handle: int) -> ChunkResult:
        if handle == 1:
            raise WorkerLost("a worker process died")
        return run_chunk([self.spec], SEED, self.batches[handle])

    def cancel(self, handles: Collection[int]) -> list[int]:
        return []

    def close(self) -> None:
        self.closed = True


def test_a_lost_worker_stops_the_run_and_keeps_what_finished(spec: GameSpec, in_process: list[Row]) -> None:
    pool = _PoolThatLosesAWorker(spec)
    outcome = run_jobs(pool, jobs_for(1, GAMES))
    assert outcome.stopped == "a worker process died" and pool.closed
    assert [row for _, row in outcome.rows] == in_process[:1]


def test_a_piece_made_in_play_is_never_counted_lost() -> None:
    """Losses are of the pieces a battle fielded: a forlorn hope a regiment sends out in
    play (Declare Thee Sir, Optional Rules a: part of its regiment) and that is removed as
    it rejoins is no loss, while a fielded regiment routed off is one."""
    from tertia.core.dice import SeededDice
    from tertia.core.game import Game
    from tertia.rulesets import get_ruleset

    game = Game(get_ruleset("declare-thee-sir"), load_builtin("roundway_down"))
    lost_pieces = game.ruleset.presentation().lost_pieces
    first, _ = game.start(SeededDice(1))
    regiment, other = [u for u in first.iter_troops("parliament")][:2]
    hope = regiment.evolve(id=f"{regiment.id}-forlorn-hope", removed="rejoined")
    final = first.with_unit(hope).with_unit(other.evolve(removed="routed off"))
    assert [u.id for u in lost_pieces(first, final, "parliament")] == [other.id]
    assert lost_pieces(first, first, "parliament") == []


def test_no_row_counts_more_of_a_troop_type_lost_than_were_fielded() -> None:
    """With forlorn hopes sent out and taken back (the random player sends them), each
    side's losses of a troop type stay within what it fielded, so the summary's shares are
    shares: a battle of Roundway Down that once counted two commanded shot lost of one."""
    spec = make_spec("roundway_down", load_builtin("roundway_down"), "declare-thee-sir",
                     {"forlorn_hope": True, "caracole": True},
                     players={"parliament": "random", "royalist": "doctrine"})
    row = sim_games.play_game(spec, 7, 7)
    assert row["error"] is None
    for side, kinds in spec.fielded.items():
        for kind, count in kinds.items():
            assert 0 <= row[f"lost_{side}_{kind}"] <= count, (side, kind, row[f"lost_{side}_{kind}"])
    summarize([row], spec.sides, spec.fielded, requested=1, last_turn=spec.last_turn)


def test_troops_that_left_the_table_alive_are_no_loss() -> None:
    """Charge yr Pikes! 19 E 1: a loser that got off its own edge in the pursuit phase "will
    live", and troops that pursued the beaten enemy off the table are not counted: no loss
    in any summary; a regiment captured in the pursuit is one."""
    from tertia.core.dice import SeededDice
    from tertia.core.game import Game
    from tertia.rulesets import get_ruleset

    game = Game(get_ruleset("charge-yr-pikes"), load_builtin("edgehill"))
    first, _ = game.start(SeededDice(1))
    escaped, pursuing, captured = [u for u in first.iter_troops("parliament")][:3]
    final = first.with_unit(escaped.evolve(removed="escaped")).with_unit(
        pursuing.evolve(removed="pursuing")).with_unit(captured.evolve(removed="captured"))
    shows = game.ruleset.presentation()
    assert [u.id for u in shows.lost_pieces(first, final, "parliament")] == [captured.id]
    other = Game(get_ruleset("d3-cards"), load_builtin("edgehill")).ruleset.presentation()
    everyone = [escaped.id, pursuing.id, captured.id]
    assert [u.id for u in other.lost_pieces(first, final, "parliament")] == everyone  # the default: all out


def test_a_battles_summary_counts_losses_as_simulate_does() -> None:
    """``battle --json`` and a ``simulate`` row of the same battle count the same losses:
    the Roundway Down battle whose forlorn hopes, sent out and taken back, once counted
    lost counts no more commanded shot lost than the one Parliament fielded."""
    spec = make_spec("roundway_down", load_builtin("roundway_down"), "declare-thee-sir",
                     {"forlorn_hope": True, "caracole": True},
                     players={"parliament": "random", "royalist": "doctrine"})
    row = sim_games.play_game(spec, 7, 7)
    result = CliRunner().invoke(app, [
        "battle", "--rules", "declare-thee-sir", "--scenario", "roundway_down", "-o", "forlorn_hope=true",
        "-o", "caracole=true", "--seed", str(row["seed"]), "--player", "parliament=random",
        "--player", "royalist=doctrine", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["units_lost"] == {side: row[f"units_lost_{side}"] for side in spec.sides}
    assert summary["units_lost_by_type"]["parliament"].get("commanded_shot", 0) <= 1


@pytest.mark.parametrize("rules", _with_plugin_ids())
def test_a_battles_json_and_a_study_count_the_same_losses(rules: str) -> None:
    """Under every registered rule set, the example plugin's too, ``tertia battle --json``
    and the study's row of the same battle (its seed, the doctrine on both sides) count
    the same units and commanders lost, each side's within what it fielded: both ask the
    rule set's presentation (``lost_pieces``)."""
    from tertia.cli.common import battle_choice
    from tertia.scenarios import resolve_scenario

    with with_plugins():
        scenario, _ = battle_choice(None, rules)
        spec = make_spec(scenario, resolve_scenario(scenario, rules_id=rules), rules)
        row = run([spec], 1, SEED, workers=1).rows[0][0]
        fought = CliRunner().invoke(app, ["battle", "--rules", rules, "--scenario", scenario,
                                          "--seed", str(row["seed"]), "--json"])
    assert row["error"] is None and fought.exit_code == 0, (row["error"], fought.output)
    summary = json.loads(fought.output)
    for side in spec.sides:
        assert summary["units_lost"][side] == row[f"units_lost_{side}"]
        assert summary["commanders_lost"][side] == row[f"commanders_lost_{side}"]
        assert row[f"units_lost_{side}"] <= sum(spec.fielded[side].values())
