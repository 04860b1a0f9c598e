"""``tertia simulate`` and ``tertia sweep``: balance studies, thin front ends over
:mod:`tertia.analysis.sim`."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
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
from rich.table import Table
from rich.text import Text

from tertia.ai.players import DEFAULT_PLAYER
from tertia.analysis.sim import (
    BACKENDS,
    Backend,
    GameSpec,
    Row,
    Study,
    columns,
    compare,
    make_spec,
    run,
    summarize,
)
from tertia.analysis.sim.games import TROOP_ORDER
from tertia.analysis.sim.ray_backend import RayUnavailable, require_ray
from tertia.analysis.sim.runner import MAX_GAMES, check_arguments, check_games
from tertia.battle import MAX_ACTIONS
from tertia.cli.common import (
    DEFAULT_RULES,
    OptionOpt,
    PlayerOpt,
    build_game,
    check_outputs,
    chosen_players,
    err,
    fail,
    out,
    parse_options,
    print_table,
)
from tertia.cli.main import app
from tertia.cli.play_commands import DEFAULT_SEED, default_scenario

INTERRUPTED_EXIT = 130
"""The conventional exit status after Ctrl-C; the finished games are still written."""
FAILED_GAMES_EXIT = 2
"""Some games failed (an illegal action, or no end within --max-actions)."""

ScenarioOpt = Annotated[
    str | None,
    typer.Option(help="Scenario name (`tertia scenarios`) or a TOML file (default: Edgehill, or the "
                      "first scenario written for the rule set)"),
]
RulesOpt = Annotated[str, typer.Option(help="Rule set id")]
GamesOpt = Annotated[int, typer.Option(help=f"Games to fight (per value, for a sweep), at most {MAX_GAMES:,} "
                                             "in all (refused at once above that)")]
SeedOpt = Annotated[int, typer.Option(help="Master seed: game i's seed is derived from (seed, i)")]
WorkersOpt = Annotated[int | None, typer.Option(help="Worker processes (default: one per CPU)")]
BackendOpt = Annotated[str, typer.Option(help="local (process pool) or ray")]
AddressOpt = Annotated[str | None, typer.Option(help="Ray cluster to join (default: start a local Ray)")]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Write one row per game to this Parquet file")]
PlotsOpt = Annotated[Path | None, typer.Option(help="Write PNG plots to this directory")]
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


def _checked_backend(backend: str) -> Backend:
    for known in BACKENDS:
        if backend == known:
            return known
    fail(f"--backend {backend!r}: expected one of {', '.join(BACKENDS)}")


def _check_outputs(out_file: Path | None, plots: Path | None, scenario: str) -> None:
    """Refuse unwritable destinations, or the scenario itself, before fighting thousands
    of games."""
    check_outputs({"--out": out_file}, scenario)  # its folder, not the scenario, not a directory
    if plots is not None:
        try:
            plots.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(f"--plots {plots}: cannot create the directory: {exc.strerror or exc}")


def _check_games(games: int, values: int = 1) -> None:
    """Refuse a number of games no run may fight, before anything is loaded or fought."""
    try:
        check_games(games, values)
    except ValueError as exc:
        fail(str(exc))


def _spec(scenario: str, rules: str, options: dict[str, str], max_actions: int,
          vary: str | None = None, player: list[str] | None = None) -> GameSpec:
    if max_actions < 1:
        fail(f"--max-actions must be at least 1, not {max_actions}")
    game = build_game(scenario, rules, options)  # one-line errors for bad input
    players = chosen_players(player, game.scenario.side_ids)
    return make_spec(scenario, game.scenario, rules, options, vary=vary, max_actions=max_actions,
                     players=players)


def _players(spec: GameSpec) -> dict[str, str]:
    return {side: spec.player_of(side) for side in spec.sides}


def _title(spec: GameSpec, names: dict[str, str]) -> str:
    """The scenario and rule set, with each side's player where any is not the default."""
    players = _players(spec)
    if all(p == DEFAULT_PLAYER for p in players.values()):
        return f"{spec.scenario.name} — {spec.rules}"
    return (f"{spec.scenario.name} — {spec.rules} ("
            + ", ".join(f"{names.get(side, side)}: {p}" for side, p in players.items()) + ")")


def _usable_cpus() -> int:
    """CPUs this process may run on (fewer than the machine's under a CPU affinity mask)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def _names(spec: GameSpec) -> dict[str, str]:
    return {s.id: (s.name or s.id) for s in spec.scenario.sides}


def _run(specs: Sequence[GameSpec], games: int, seed: int, workers: int | None, backend: Backend,
         address: str | None) -> Study:
    """Run with a progress bar on standard error; bad arguments fail in one line."""
    chosen = workers if workers is not None else _usable_cpus()
    try:
        check_arguments(games, chosen, seed, backend, len(specs))
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


def _write_parquet(path: Path, rows: Sequence[Row], spec: GameSpec, study: Study,
                   extra: dict[str, Any] | None = None) -> None:
    from tertia import __version__
    from tertia.analysis.sim.storage import write_rows

    metadata = {
        "scenario": spec.scenario_name, "scenario_title": spec.scenario.name, "ruleset": spec.rules,
        "sides": list(spec.sides), "fielded": spec.fielded, "master_seed": study.master_seed,
        "requested": study.requested, "stopped": study.stopped, "engine_version": __version__,
        "players": _players(spec),
        **(extra or {}),
    }
    try:
        write_rows(path, rows, columns(spec), metadata)
    except OSError as exc:
        fail(f"--out {path}: cannot write: {exc.strerror or exc}")


def _finish(study: Study, as_json: bool, failed: int) -> None:
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


def _fmt(interval: dict[str, float] | None, digits: int = 2) -> str:
    if interval is None:
        return "—"
    e, lo, hi = (round(interval[k], digits) + 0.0 for k in ("estimate", "low", "high"))  # no "-0.00"
    return f"{e:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _print_summary(summary: dict[str, Any], spec: GameSpec, names: dict[str, str], study: Study) -> None:
    title = _title(spec, names) + "".join(f", {k}={v}" for k, v in spec.options)
    table = Table(title=f"{title}: {summary['completed']} games")
    table.add_column("outcome")
    for col in ("games", "rate [95% CI]", "mean score [95% CI]"):
        table.add_column(col, justify="right")
    for side in spec.sides:
        table.add_row(f"{names.get(side, side)} won", str(summary["wins"][side]),
                      _fmt(summary["win_rate"][side]), _fmt(summary["mean_score"][side]))
    table.add_row("drawn", str(summary["draws"]), _fmt(summary["draw_rate"]), "")
    print_table(table)
    turns = summary["turns"]
    if turns is not None:
        out.print(f"Game length: mean {_fmt(turns['mean'])} turns, median {turns['median']:g}, "
                  f"range {turns['min']:g}–{turns['max']:g}.")
    fm = summary["first_mover"]
    if fm["win_rate"] is not None:
        out.print(f"First-mover advantage: the side that moved first won {fm['first_mover_wins']} of "
                  f"{fm['decided']} decided games, {_fmt(fm['win_rate'])} (0.5 = none).")
        for side in spec.sides:
            by = fm["by_side"][side]
            out.print(f"  {names.get(side, side)} won {_fmt(by['win_rate_first'])} moving first "
                      f"({by['games_first']} games), {_fmt(by['win_rate_second'])} moving second "
                      f"({by['games_second']}).")
    losses = Table(title="Losses per troop type (share of the units fielded, per game)")
    for col in ("side", "type", "fielded", "mean lost", "loss rate [95% CI]"):
        losses.add_column(col, justify="left" if col in ("side", "type") else "right")
    order = [k.value for k in TROOP_ORDER]
    for side, kinds in summary["loss_rate"].items():
        for kind in sorted(kinds, key=order.index):
            entry = kinds[kind]
            mean_lost = "—" if entry["mean_lost"] is None else f"{entry['mean_lost']:.2f}"
            losses.add_row(names.get(side, side), kind, str(entry["fielded"]), mean_lost, _fmt(entry["rate"]))
    print_table(losses)
    _print_failures(summary)
    _print_timing(study)


def _print_timing(study: Study) -> None:
    out.print(f"{study.games_played} games in {study.seconds:.1f} s ({study.games_per_second:.1f} games/s, "
              f"{study.workers} worker{'s' if study.workers != 1 else ''}, {study.backend} backend).")


def _print_failures(summary: dict[str, Any]) -> None:
    if not summary["failed"]:
        return
    failed = summary["failed"]
    out.print(Text.assemble((f"{failed} game{'s' if failed != 1 else ''} failed", "bold red"),
                            " (reproduce one with `tertia battle --seed SEED` and the same scenario, "
                            "rules and options):"))
    for e in summary["errors"]:
        out.print(f"  game {e['index']}, seed {e['seed']}: {e['error']}", soft_wrap=True)
    if summary["failed"] > len(summary["errors"]):
        out.print(f"  ... and {summary['failed'] - len(summary['errors'])} more (see the Parquet file)")


def _run_info(study: Study) -> dict[str, Any]:
    return {
        "seed": study.master_seed,
        "workers": study.workers,
        "backend": study.backend,
        "seconds": study.seconds,
        "games_per_second": study.games_per_second,
        "interrupted": study.stopped == "interrupted",
        "stopped": study.stopped,
    }


@app.command()
def simulate(
    games: GamesOpt,
    scenario: ScenarioOpt = None,
    rules: RulesOpt = DEFAULT_RULES,
    option: OptionOpt = None,
    seed: SeedOpt = DEFAULT_SEED,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    out_file: OutOpt = None,
    plots: PlotsOpt = None,
    as_json: JsonOpt = False,
    max_actions: MaxActionsOpt = MAX_ACTIONS,
    player: PlayerOpt = None,
) -> None:
    """Fight many AI-against-AI battles: win rates with intervals, game length, first-mover
    advantage and losses per troop type."""
    _check_games(games)
    options = parse_options(option or [])
    chosen_backend = _checked_backend(backend)
    scenario = default_scenario(rules) if scenario is None else scenario
    spec = _spec(scenario, rules, options, max_actions, player=player)
    _check_outputs(out_file, plots, scenario)
    study = _run([spec], games, seed, workers, chosen_backend, address)
    rows = study.rows[0]
    summary = summarize(rows, spec.sides, spec.fielded, requested=games)
    names = _names(spec)
    if out_file is not None:
        _write_parquet(out_file, rows, spec, study)
    written: list[str] = []
    if plots is not None and summary["completed"]:
        from tertia.analysis.sim.plots import plot_study

        written = [str(p) for p in plot_study(rows, summary, spec.sides, names, plots, _title(spec, names))]
    if as_json:
        data = {"scenario": scenario, "rules": rules, "options": dict(spec.options),
                "players": _players(spec), **summary, **_run_info(study),
                "out": None if out_file is None else str(out_file), "plots": written}
        sys.stdout.write(json.dumps(data) + "\n")
    else:
        _print_summary(summary, spec, names, study)
        if out_file is not None:
            out.print(f"Rows written to {out_file}")
        if written:
            out.print(f"Plots written to {plots}: {', '.join(Path(p).name for p in written)}")
    _finish(study, as_json, summary["failed"])


def _parse_vary(vary: list[str], options: dict[str, str]) -> tuple[str, list[str]]:
    if len(vary) != 1:
        fail("--vary: give exactly one KEY=V1,V2,...")
    key, sep, values_text = vary[0].partition("=")
    key = key.strip()
    values = [v.strip() for v in values_text.split(",") if v.strip()]
    if not sep or not key or len(values) < 2:
        fail(f"--vary {vary[0]!r}: expected KEY=V1,V2,... with at least two values")
    if key in options:
        fail(f"--vary {key}: the option is also set with --option; set it in one place")
    return key, values


@app.command()
def sweep(
    vary: Annotated[
        list[str], typer.Option(help="The option to vary and its values", metavar="KEY=V1,V2,...")
    ],
    games: GamesOpt,
    scenario: ScenarioOpt = None,
    rules: RulesOpt = DEFAULT_RULES,
    option: OptionOpt = None,
    seed: SeedOpt = DEFAULT_SEED,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    out_file: OutOpt = None,
    plots: PlotsOpt = None,
    as_json: JsonOpt = False,
    max_actions: MaxActionsOpt = MAX_ACTIONS,
    player: PlayerOpt = None,
) -> None:
    """Fight the same seeds under each value of one option; the paired effect on win rate and
    game length, with intervals, against the first value."""
    options = parse_options(option or [])
    chosen_backend = _checked_backend(backend)
    scenario = default_scenario(rules) if scenario is None else scenario
    key, values = _parse_vary(vary, options)
    _check_games(games, len(values))
    specs = [_spec(scenario, rules, {**options, key: v}, max_actions, vary=v, player=player) for v in values]
    settings = [dict(s.options)[key] for s in specs]
    if len(set(map(repr, settings))) != len(settings):
        fail(f"--vary {key}: the values {', '.join(values)} are not all different")
    _check_outputs(out_file, plots, scenario)
    study = _run(specs, games, seed, workers, chosen_backend, address)
    base = specs[0]
    names = _names(base)
    summaries = [summarize(rows, base.sides, base.fielded, requested=games) for rows in study.rows]
    effects = [None, *(compare(study.rows[0], rows, base.sides) for rows in study.rows[1:])]
    if out_file is not None:
        every = [r for rows in study.rows for r in rows]
        _write_parquet(out_file, every, base, study, {"vary": key, "values": values})
    plot_path: Path | None = None
    if plots is not None and all(s["completed"] for s in summaries):
        from tertia.analysis.sim.plots import plot_sweep

        title = f"{_title(base, names)}: {games} paired games per value"
        plot_path = plot_sweep(key, values, summaries, effects, base.sides, names, plots / "sweep.png", title)
    if as_json:
        results = [{"value": v, **s, "effect": e} for v, s, e in zip(values, summaries, effects, strict=True)]
        data = {"scenario": scenario, "rules": rules, "options": options, "players": _players(base),
                "vary": key, "values": values,
                "baseline": values[0], "games": games, "results": results, **_run_info(study),
                "out": None if out_file is None else str(out_file),
                "plots": [] if plot_path is None else [str(plot_path)]}
        sys.stdout.write(json.dumps(data) + "\n")
    else:
        _print_sweep(key, values, summaries, effects, base, names, study)
        if out_file is not None:
            out.print(f"Rows written to {out_file}")
        if plot_path is not None:
            out.print(f"Plot written to {plot_path}")
    _finish(study, as_json, sum(s["failed"] for s in summaries))


def _print_sweep(key: str, values: Sequence[str], summaries: Sequence[dict[str, Any]],
                 effects: Sequence[dict[str, Any] | None], spec: GameSpec, names: dict[str, str],
                 study: Study) -> None:
    outcomes = Table(title=f"{_title(spec, names)}: {key}", box=box.SIMPLE)
    outcomes.add_column(key)
    outcomes.add_column("games", justify="right")
    for side in spec.sides:
        outcomes.add_column(f"{names.get(side, side)} won", justify="right")
    outcomes.add_column("drawn", justify="right")
    outcomes.add_column("mean turns", justify="right")
    for value, summary in zip(values, summaries, strict=True):
        turns = summary["turns"]["mean"] if summary["turns"] else None
        rates = [_fmt(summary["win_rate"][s]) for s in spec.sides]
        outcomes.add_row(value, str(summary["completed"]), *rates, str(summary["draws"]), _fmt(turns))
    print_table(outcomes)
    effect = Table(title=f"Effect against {key}={values[0]}, paired by seed", box=box.SIMPLE)
    effect.add_column(key)
    effect.add_column("pairs", justify="right")
    for side in spec.sides:
        effect.add_column(f"Δ {names.get(side, side)} won", justify="right")
    effect.add_column("Δ mean turns", justify="right")
    for value, change in zip(values[1:], effects[1:], strict=True):
        if change is None:
            continue
        effect.add_row(value, str(change["paired_games"]),
                       *(_fmt(change["win_rate_difference"][s]) for s in spec.sides),
                       _fmt(change["turns_difference"]))
    print_table(effect)
    out.print("Intervals are 95%: Wilson for rates, normal on the per-seed differences for Δ.")
    for value, summary in zip(values, summaries, strict=True):
        if summary["failed"]:
            out.print(f"{key}={value}:")
            _print_failures(summary)
    _print_timing(study)
