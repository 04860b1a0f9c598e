"""What the commands that fight many battles share (``simulate``, ``sweep``, ``ladder``):
their options, the checks made before any battle is fought, the run with its progress bar,
and how a run's end, failures and timing are told."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from tertia.ai.players import DEFAULT_PLAYER
from tertia.analysis.sim import BACKENDS, Backend, GameSpec, Row, Study, make_spec, run
from tertia.analysis.sim.ray_backend import RayUnavailable, require_ray
from tertia.analysis.sim.runner import MAX_GAMES, check_arguments, check_games
from tertia.battle import BattleAborted
from tertia.cli.common import (
    RULES_HELP,
    build_game,
    check_outputs,
    chosen_players,
    err,
    fail,
    given_path,
    out,
    try_writing_in,
)
from tertia.core.narration import plural
from tertia.io.files import exists, shown_name, unnamable
from tertia.rulesets import ruleset_class

T = TypeVar("T")

INTERRUPTED_EXIT = 130
"""The conventional exit status after Ctrl-C; the finished games are still written."""
FAILED_GAMES_EXIT = 2
"""Some games failed (an illegal action, or no end within --max-actions)."""

ScenarioOpt = Annotated[
    str | None,
    typer.Option(help="Scenario name (`tertia scenarios`) or a TOML file (default: Edgehill, or the "
                      "first scenario written for the rule set)"),
]
RulesOpt = Annotated[str | None, typer.Option(help=RULES_HELP)]
GamesOpt = Annotated[int, typer.Option(help=f"Games to fight (per value, for a sweep), at most {MAX_GAMES:,} "
                                             "in all (refused at once above that)")]
SeedOpt = Annotated[int, typer.Option(help="Master seed: game i's seed is derived from (seed, i)")]
WorkersOpt = Annotated[int | None, typer.Option(help="Worker processes (default: one per CPU)")]
BackendOpt = Annotated[str, typer.Option(help="local (process pool) or ray")]
AddressOpt = Annotated[str | None, typer.Option(help="Ray cluster to join (default: start a local Ray)")]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Write one row per game to this Parquet file",
                                                   parser=given_path)]
PlotsOpt = Annotated[Path | None, typer.Option(help="Write PNG plots to this directory", parser=given_path)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object", metavar="")]
MaxActionsOpt = Annotated[int, typer.Option(help="A game not over after this many actions fails")]


class RateColumn(ProgressColumn):
    """Games per second since the start: the same measure as the summary printed at the
    end (games played over seconds taken), not an estimate over the last few seconds."""

    def render(self, task: Task) -> Text:
        return Text(rate_text(task.completed, task.elapsed), style="progress.data.speed")


def rate_text(done: float, seconds: float | None) -> str:
    """``12.3 games/s``, or nothing before the first game is done.

    >>> rate_text(30, 2.0), rate_text(0, 1.0), rate_text(5, None)
    ('15.0 games/s', '', '')
    """
    if not done or not seconds:
        return ""
    return f"{done / seconds:.1f} games/s"


def checked_backend(backend: str) -> Backend:
    for known in BACKENDS:
        if backend == known:
            return known
    fail(f"--backend {backend!r}: expected one of {', '.join(BACKENDS)}")


def check_study_outputs(out_file: Path | None, plots: Path | None, scenario: str) -> None:
    """Refuse unwritable destinations, or the scenario itself, before fighting thousands
    of games: ``--plots`` must be a folder, or a path where one can be made; each folder is
    tried by making a file in it (:func:`try_writing_in`)."""
    check_outputs({"--out": out_file}, scenario)  # its folder, not the scenario, not a directory
    if plots is not None:
        named = f"--plots {shown_name(plots)}"
        reason = unnamable(plots)
        if reason is not None:  # mkdir would raise, not refuse, for a name holding a NUL
            fail(f"{named}: cannot create the directory: {reason}")
        if exists(plots) and not exists(plots, "dir"):  # a file or a device: mkdir would say "File exists"
            fail(f"{named}: is not a folder; give a folder for the plots (made if it does not exist)")
        try:
            plots.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(f"{named}: cannot create the directory: {exc.strerror or exc}")
        try_writing_in(plots, named)


def drawing(plots: Path, draw: Callable[[], T]) -> T:
    """What ``draw`` returns, or a clean exit naming ``--plots`` when a plot cannot be
    written there after all (its folder was tried before the games were fought)."""
    try:
        return draw()
    except OSError as exc:
        fail(f"--plots {plots}: cannot write: {exc.strerror or exc}")


def check_games_or_fail(games: int, values: int = 1) -> None:
    """Refuse a number of games no run may fight, before anything is loaded or fought."""
    try:
        check_games(games, values)
    except ValueError as exc:
        fail(str(exc))


def study_spec(scenario: str, rules: str, options: dict[str, str], max_actions: int,
          vary: str | None = None, player: list[str] | None = None) -> GameSpec:
    if max_actions < 1:
        fail(f"--max-actions must be at least 1, not {max_actions}")
    game = build_game(scenario, rules, options)  # one-line errors for bad input
    players = chosen_players(player, game)
    return make_spec(scenario, game.scenario, rules, options, vary=vary, max_actions=max_actions,
                     players=players)


def players_of(spec: GameSpec) -> dict[str, str]:
    return {side: spec.player_of(side) for side in spec.sides}


def title_of(spec: GameSpec, names: dict[str, str]) -> str:
    """The scenario and rule set, with each side's player where any is not the default."""
    players = players_of(spec)
    if all(p == DEFAULT_PLAYER for p in players.values()):
        return f"{spec.scenario.name} — {ruleset_class(spec.rules).named()}"
    return (f"{spec.scenario.name} — {ruleset_class(spec.rules).named()} ("
            + ", ".join(f"{names.get(side, side)}: {p}" for side, p in players.items()) + ")")


def usable_cpus() -> int:
    """CPUs this process may run on (fewer than the machine's under a CPU affinity mask)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def run_with_progress(specs: Sequence[GameSpec], games: int, seed: int, workers: int | None, backend: Backend,
         address: str | None) -> Study:
    """Run with a progress bar on standard error; bad arguments fail in one line."""
    chosen = workers if workers is not None else usable_cpus()
    try:
        check_arguments(games, chosen, seed, backend, len(specs), address)
        if backend == "ray":
            require_ray()
    except (ValueError, RayUnavailable) as exc:
        fail(str(exc))
    total = games * len(specs)
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=err, transient=False,
    )
    with progress:
        task = progress.add_task("battles", total=total)
        try:
            return run(specs, games, seed, workers=chosen, backend=backend, address=address,
                       on_rows=lambda rows: progress.advance(task, len(rows)))
        except (ValueError, RayUnavailable) as exc:
            progress.stop()
            fail(str(exc))
        except KeyboardInterrupt:
            progress.stop()
            fail("interrupted before any game finished", INTERRUPTED_EXIT)


def finish(study: Study, as_json: bool, failed: int) -> None:
    """Exit as the run ended: 130 after Ctrl-C, 1 if a worker was lost, 2 if any game
    failed (the rows and the summary are written first)."""
    if study.stopped is None:
        if failed:
            raise typer.Exit(FAILED_GAMES_EXIT)
        return
    if not as_json:
        if study.stopped == "interrupted":
            err.print(f"Interrupted: {study.games_played} finished games kept.")
        else:
            err.print(Text.assemble(("error:", "bold red"),
                                    f" {study.stopped}; {study.games_played} finished games kept."))
    raise typer.Exit(INTERRUPTED_EXIT if study.stopped == "interrupted" else 1)


def fmt(interval: dict[str, float] | None, digits: int = 2) -> str:
    if interval is None:
        return "—"
    e, lo, hi = (round(interval[k], digits) + 0.0 for k in ("estimate", "low", "high"))  # no "-0.00"
    return f"{e:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def print_timing(study: Study) -> None:
    out.print(f"{plural(study.games_played, 'game')} in {study.seconds:.1f} s "
              f"({study.games_per_second:.1f} games/s, {plural(study.workers, 'worker')}, "
              f"{study.backend} backend).")


IN_WORDS = (BattleAborted.__name__,)
"""The failures whose message says what went wrong in words, without its class's name: a
battle that did not end, a player that chose an illegal action or found none. Any other
(a fault in the engine) keeps its class's name, without which ``KeyError: 'x'`` says
nothing."""


def failure_in_words(failure: dict[str, Any]) -> str:
    """What went wrong in a failed game (``{"index", "seed", "error"}``, its ``error`` as
    its row has it: ``"Class: message (game i, seed s)"``) as the listing gives it after
    the game and its seed: the message alone where it is in words (:data:`IN_WORDS`),
    without the game and seed again.

    >>> failure_in_words({"index": 0, "seed": 7,
    ...                   "error": "BattleAborted: the battle did not end within 5 actions (game 0, seed 7)"})
    'the battle did not end within 5 actions'
    >>> failure_in_words({"index": 1, "seed": 8, "error": "KeyError: 'score_x' (game 1, seed 8)"})
    "KeyError: 'score_x'"
    """
    error = str(failure["error"]).removesuffix(f" (game {failure['index']}, seed {failure['seed']})")
    name, sep, message = error.partition(": ")
    return message if sep and name in IN_WORDS else error


def print_failures(summary: dict[str, Any]) -> None:
    if not summary["failed"]:
        return
    failed = summary["failed"]
    out.print(Text.assemble((f"{failed} game{'s' if failed != 1 else ''} failed", "bold red"),
                            " (reproduce one with `tertia battle --seed SEED` and the same scenario, "
                            "rules and options):"))
    for e in summary["errors"]:
        out.print(f"  game {e['index']}, seed {e['seed']}: {failure_in_words(e)}", soft_wrap=True)
    if summary["failed"] > len(summary["errors"]):
        out.print(f"  ... and {summary['failed'] - len(summary['errors'])} more (see the Parquet file)")


def run_info(study: Study) -> dict[str, Any]:
    return {
        "seed": study.master_seed,
        "workers": study.workers,
        "backend": study.backend,
        "seconds": study.seconds,
        "games_per_second": study.games_per_second,
        "interrupted": study.stopped == "interrupted",
        "stopped": study.stopped,
    }


def write_study_rows(path: Path, rows: Sequence[Row], columns: Sequence[str], study: Study,
                     metadata: dict[str, Any]) -> None:
    """A run's rows as Parquet (``--out``), with its master seed, the games asked for, why it
    stopped early and the engine's version beside ``metadata``; a clean exit when the file
    cannot be written."""
    from tertia import __version__
    from tertia.analysis.sim.storage import write_rows

    run = {"master_seed": study.master_seed, "requested": study.requested, "stopped": study.stopped,
           "engine_version": __version__}
    try:
        write_rows(path, rows, columns, {**metadata, **run})
    except OSError as exc:
        fail(f"--out {path}: cannot write: {exc.strerror or exc}")
