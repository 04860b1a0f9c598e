"""``tertia simulate`` and ``tertia sweep``: balance studies, thin front ends over
:mod:`tertia.analysis.sim`."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.cells import cell_len
from rich.table import Table

from tertia.analysis.sim import GameSpec, Row, Study, columns, compare, summarize
from tertia.battle import MAX_ACTIONS
from tertia.cli.common import (
    DEFAULT_SEED,
    OptionOpt,
    PlayerOpt,
    battle_choice,
    fail,
    out,
    parse_options,
    print_table,
)
from tertia.cli.main import app
from tertia.cli.studies import (
    FAILED_GAMES_EXIT,
    AddressOpt,
    BackendOpt,
    GamesOpt,
    JsonOpt,
    MaxActionsOpt,
    OutOpt,
    PlotsOpt,
    RulesOpt,
    ScenarioOpt,
    SeedOpt,
    WorkersOpt,
    check_games_or_fail,
    check_study_outputs,
    checked_backend,
    drawing,
    finish,
    fmt,
    players_of,
    print_failures,
    print_timing,
    run_info,
    run_with_progress,
    study_spec,
    title_of,
    write_study_rows,
)
from tertia.core.narration import humanise, plural, possessive
from tertia.rulesets import ruleset_class

__all__ = ["FAILED_GAMES_EXIT", "simulate", "sweep"]


def _names(spec: GameSpec) -> dict[str, str]:
    return spec.scenario.side_names()


def _write_parquet(path: Path, rows: Sequence[Row], spec: GameSpec, study: Study,
                   extra: dict[str, Any] | None = None) -> None:
    metadata = {
        "scenario": spec.scenario_name, "scenario_title": spec.scenario.name, "ruleset": spec.rules,
        "sides": list(spec.sides), "fielded": spec.fielded, "players": players_of(spec), **(extra or {}),
    }
    write_study_rows(path, rows, columns(spec), study, metadata)


def _print_summary(summary: dict[str, Any], spec: GameSpec, names: dict[str, str], study: Study) -> None:
    title = title_of(spec, names) + "".join(f", {k}={v}" for k, v in spec.options)
    heading = f"{title}: {plural(summary['completed'], 'game')}"
    table = Table(title=heading, min_width=cell_len(heading))  # a title on one line, as wide as it needs
    table.add_column("outcome")
    for col in ("games", "rate [95% CI]"):
        table.add_column(col, justify="right")
    for side in spec.sides:
        table.add_row(f"{names.get(side, side)} won", str(summary["wins"][side]),
                      fmt(summary["win_rate"][side]))
    table.add_row("drawn", str(summary["draws"]), fmt(summary["draw_rate"]))
    print_table(table)
    # a side's score is over every game, won, lost or drawn: a line of its own, not the "won" row
    if summary["completed"]:
        means = "; ".join(f"{names.get(side, side)} {fmt(summary['mean_score'][side])}"
                          for side in spec.sides)
        out.print(f"Victory points at the end, mean over all {plural(summary['completed'], 'game')}: "
                  f"{means}.")
    turns = summary["turns"]
    if turns is not None:
        out.print(f"Game length: mean {fmt(turns['mean'])} turns, median {turns['median']:g}, "
                  f"range {turns['min']:g}–{turns['max']:g}.")
    _print_endings(summary)
    fm = summary["first_mover"]
    if fm is None and summary["completed"]:
        out.print(f"First-mover advantage: not measured; no side moves first under "
                  f"{ruleset_class(spec.rules).named()} (one deck of both sides' cards decides who acts).")
    elif fm is not None and fm["win_rate"] is not None:
        out.print(f"First-mover advantage: the side that moved first won {fm['first_mover_wins']} of "
                  f"{plural(fm['decided'], 'game')} with a winner, {fmt(fm['win_rate'])} (0.5 = none).")
        for side in spec.sides:
            by = fm["by_side"][side]
            out.print(f"  {names.get(side, side)} won {fmt(by['win_rate_first'])} moving first "
                      f"({plural(by['games_first'], 'game')}), {fmt(by['win_rate_second'])} moving second "
                      f"({by['games_second']}).")
    losses = Table(title="Losses per troop type (share of the units fielded, per game)")
    for col in ("side", "type", "fielded", "mean lost", "loss rate [95% CI]"):
        losses.add_column(col, justify="left" if col in ("side", "type") else "right")
    for side, kinds in summary["loss_rate"].items():
        for kind in kinds:  # in the study's column order
            entry = kinds[kind]
            mean_lost = "—" if entry["mean_lost"] is None else f"{entry['mean_lost']:.2f}"
            losses.add_row(names.get(side, side), humanise(kind), str(entry["fielded"]), mean_lost,
                           fmt(entry["rate"]))
    print_table(losses)
    print_failures(summary)
    print_timing(study)


def _print_endings(summary: dict[str, Any]) -> None:
    """How the battles ended, by the rule set's endings, and the share decided on the field."""
    endings = summary["endings"]
    if endings is None:
        return
    table = Table(title="How the battles ended")
    table.add_column("ending")
    for col in ("decided on the field", "games", "rate [95% CI]"):
        table.add_column(col, justify="right")
    for name, entry in endings["by_ending"].items():
        table.add_row(name, "yes" if entry["decided"] else "no", str(entry["games"]), fmt(entry["rate"]))
    if endings["not_declared"]:
        table.add_row("a reason the rule set does not declare", "—", str(endings["not_declared"]), "")
    print_table(table)
    out.print(f"Decided on the field (not by the turn limit or darkness): {endings['decided']} of "
              f"{plural(summary['completed'], 'game')}, {fmt(endings['decided_rate'])}.")


@app.command()
def simulate(
    games: GamesOpt,
    scenario: ScenarioOpt = None,
    rules: RulesOpt = None,
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
    check_games_or_fail(games)
    options = parse_options(option or [])
    chosen_backend = checked_backend(backend)
    scenario, rules = battle_choice(scenario, rules)
    spec = study_spec(scenario, rules, options, max_actions, player=player)
    check_study_outputs(out_file, plots, scenario)
    study = run_with_progress([spec], games, seed, workers, chosen_backend, address)
    rows = study.rows[0]
    summary = summarize(rows, spec.sides, spec.fielded, requested=games, last_turn=spec.last_turn,
                        least_score=spec.least_score)
    names = _names(spec)
    if out_file is not None:
        _write_parquet(out_file, rows, spec, study)
    written: list[str] = []
    if plots is not None and summary["completed"]:
        from tertia.analysis.sim.plots import plot_study

        title = title_of(spec, names)
        drawn = drawing(plots, lambda: plot_study(rows, summary, spec.sides, names, plots, title))
        written = [str(p) for p in drawn]
    if as_json:
        data = {"scenario": scenario, "rules": rules, "options": dict(spec.options),
                "players": players_of(spec), **summary, **run_info(study),
                "out": None if out_file is None else str(out_file), "plots": written}
        sys.stdout.write(json.dumps(data) + "\n")
    else:
        _print_summary(summary, spec, names, study)
        if out_file is not None:
            out.print(f"Rows written to {out_file}")
        if written:
            out.print(f"Plots written to {plots}: {', '.join(Path(p).name for p in written)}")
    finish(study, as_json, summary["failed"])


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
    rules: RulesOpt = None,
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
    chosen_backend = checked_backend(backend)
    scenario, rules = battle_choice(scenario, rules)
    key, values = _parse_vary(vary, options)
    check_games_or_fail(games, len(values))
    specs = [study_spec(scenario, rules, {**options, key: v}, max_actions, vary=v, player=player)
             for v in values]
    settings = [dict(s.options)[key] for s in specs]
    if len(set(map(repr, settings))) != len(settings):
        fail(f"--vary {key}: the values {', '.join(values)} are not all different")
    check_study_outputs(out_file, plots, scenario)
    study = run_with_progress(specs, games, seed, workers, chosen_backend, address)
    base = specs[0]
    names = _names(base)
    summaries = [summarize(rows, base.sides, base.fielded, requested=games, last_turn=spec.last_turn,
                           least_score=spec.least_score)
                 for spec, rows in zip(specs, study.rows, strict=True)]
    effects = [None, *(_effect(base, spec, study.rows[0], rows)
                       for spec, rows in zip(specs[1:], study.rows[1:], strict=True))]
    if out_file is not None:
        every = [r for rows in study.rows for r in rows]
        _write_parquet(out_file, every, base, study, {"vary": key, "values": values})
    plot_path: Path | None = None
    if plots is not None and all(s["completed"] for s in summaries):
        from tertia.analysis.sim.plots import plot_sweep

        title = f"{title_of(base, names)}: {plural(games, 'paired game')} per value"
        sweep_png = plots / "sweep.png"
        plot_path = drawing(plots, lambda: plot_sweep(key, values, summaries, effects, base.sides, names,
                                                      sweep_png, title))
    if as_json:
        results = [{"value": v, **s, "effect": e}
                   for v, s, e in zip(settings, summaries, effects, strict=True)]
        data = {"scenario": scenario, "rules": rules, "options": _set_beside(base, key),
                "players": players_of(base), "vary": key, "values": settings,
                "baseline": settings[0], "games": games, "results": results, **run_info(study),
                "out": None if out_file is None else str(out_file),
                "plots": [] if plot_path is None else [str(plot_path)]}
        sys.stdout.write(json.dumps(data) + "\n")
    else:
        _print_sweep(key, values, summaries, effects, base, names, study)
        if out_file is not None:
            out.print(f"Rows written to {out_file}")
        if plot_path is not None:
            out.print(f"Plot written to {plot_path}")
    finish(study, as_json, sum(s["failed"] for s in summaries))


def _set_beside(spec: GameSpec, key: str) -> dict[str, Any]:
    """The options set with ``--option`` beside the one varied, each typed as its rule set
    declares it (as ``spec`` holds them once parsed), not as the words given."""
    return {name: value for name, value in spec.options if name != key}


def _effect(base: GameSpec, spec: GameSpec, baseline: Sequence[Row],
            treated: Sequence[Row]) -> dict[str, Any]:
    """The paired effect of ``spec``'s games against ``base``'s, each interval clipped to
    what the difference can be: game length to the later of the two last turns, a side's
    losses to the more troop units it fields under either (:func:`compare`)."""
    fielded = {side: max(sum(base.fielded[side].values()), sum(spec.fielded[side].values()))
               for side in base.sides}
    return compare(baseline, treated, base.sides, last_turn=max(base.last_turn, spec.last_turn),
                   fielded=fielded)


def _print_sweep(key: str, values: Sequence[str], summaries: Sequence[dict[str, Any]],
                 effects: Sequence[dict[str, Any] | None], spec: GameSpec, names: dict[str, str],
                 study: Study) -> None:
    outcomes = Table(title=f"{title_of(spec, names)}: {key}", box=box.SIMPLE)
    outcomes.add_column(key)
    outcomes.add_column("games", justify="right")
    for side in spec.sides:
        outcomes.add_column(f"{names.get(side, side)} won, rate [95% CI]", justify="right")
    outcomes.add_column("drawn, rate [95% CI]", justify="right")
    outcomes.add_column("mean turns [95% CI]", justify="right")
    ended = any(summary["endings"] is not None for summary in summaries)
    if ended:
        outcomes.add_column("decided on the field, rate [95% CI]", justify="right")
    for value, summary in zip(values, summaries, strict=True):
        turns = summary["turns"]["mean"] if summary["turns"] else None
        rates = [fmt(summary["win_rate"][s]) for s in spec.sides]
        decided = [fmt(summary["endings"]["decided_rate"] if summary["endings"] else None)] if ended else []
        outcomes.add_row(value, str(summary["completed"]), *rates, fmt(summary["draw_rate"]), fmt(turns),
                         *decided)
    print_table(outcomes)
    effect = Table(title=f"Effect against {key}={values[0]}, paired by seed", box=box.SIMPLE)
    effect.add_column(key)
    effect.add_column("pairs", justify="right")
    for side in spec.sides:
        effect.add_column(f"Δ {names.get(side, side)} won", justify="right")
    effect.add_column("Δ mean turns", justify="right")
    effect.add_column("Δ VP margin", justify="right")
    for side in spec.sides:
        effect.add_column(f"Δ {names.get(side, side)} lost", justify="right")
    for value, change in zip(values[1:], effects[1:], strict=True):
        if change is None:
            continue
        effect.add_row(value, str(change["paired_games"]),
                       *(fmt(change["win_rate_difference"][s]) for s in spec.sides),
                       fmt(change["turns_difference"]), fmt(change["vp_margin_difference"]),
                       *(fmt(change["units_lost_difference"][s]) for s in spec.sides))
    print_table(effect)
    first, second = (names.get(side, side) for side in spec.sides)
    out.print(f"VP margin: {possessive(first)} victory points less {possessive(second)}; "
              "lost: troop units out of play at the end.")
    out.print("Intervals are 95%: Wilson for rates, normal for mean turns and on the per-seed differences "
              "for Δ, clipped to what each can be (no more turns than the last).")
    for value, summary in zip(values, summaries, strict=True):
        if summary["failed"]:
            out.print(f"{key}={value}:")
            print_failures(summary)
    print_timing(study)
