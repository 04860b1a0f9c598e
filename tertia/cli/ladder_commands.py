"""``tertia ladder``: players against each other on paired seeds, rated (a thin front end
over :mod:`tertia.analysis.sim.ladder`)."""

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

from tertia.ai.players import entry as player_entry
from tertia.analysis.sim import GameSpec, Row, Study, columns
from tertia.analysis.sim.ladder import games_of, ladder_specs, standings
from tertia.analysis.sim.summary import summarize
from tertia.battle import MAX_ACTIONS
from tertia.cli.common import DEFAULT_SEED, OptionOpt, battle_choice, fail, out, parse_options, print_table
from tertia.cli.main import app
from tertia.cli.studies import (
    AddressOpt,
    BackendOpt,
    JsonOpt,
    MaxActionsOpt,
    OutOpt,
    PlotsOpt,
    SeedOpt,
    WorkersOpt,
    check_games_or_fail,
    check_study_outputs,
    checked_backend,
    drawing,
    finish,
    fmt,
    print_failures,
    print_timing,
    run_info,
    run_with_progress,
    study_spec,
    write_study_rows,
)
from tertia.core.narration import plural
from tertia.rulesets import ruleset_class

DEFAULT_PLAYERS = ("doctrine", "random")


def _players(named: list[str] | None) -> list[str]:
    """The ladder's players by their registered names (the defaults when none is named),
    or a clean exit naming a player unknown, one named twice (an alias and its player are
    one), or fewer than two."""
    chosen = list(named or DEFAULT_PLAYERS)
    found: list[str] = []
    for name in chosen:
        try:
            player = player_entry(name).name
        except ValueError as exc:
            fail(f"--player {name!r}: {exc}")
        if player in found:
            first = chosen[found.index(player)]
            if first == name:
                fail(f"--player: {name} is named twice")
            fail(f"--player: {first} and {name} are one player ({player}); name it once")
        found.append(player)
    if len(found) < 2:
        fail("--player: a ladder needs at least two players")
    return found


def _battles(scenarios: list[str] | None, rules: list[str] | None, options: dict[str, str],
             max_actions: int) -> list[GameSpec]:
    """Every chosen scenario under every chosen rule set, checked as ``battle`` checks
    them: each rule set's default battle where no scenario is named, each scenario under
    its own rule set where no rule set is (:func:`~tertia.cli.common.battle_choice`), and
    Edgehill under larger-battles where neither is."""
    rule_sets: list[str | None] = [*rules] if rules else [None]
    named: list[str | None] = [*scenarios] if scenarios else [None]
    pairs = [battle_choice(scenario, rule_set) for rule_set in rule_sets for scenario in named]
    return [study_spec(scenario, rule_set, options, max_actions) for scenario, rule_set in pairs]


def _write(path: Path, specs: Sequence[GameSpec], study: Study, players: list[str],
           table: dict[str, Any]) -> None:
    every: list[str] = []
    for spec in specs:
        every += [c for c in columns(spec) if c not in every]
    rows: list[Row] = [r for spec_rows in study.rows for r in spec_rows]
    metadata = {"ladder": players, "battles": sorted({f"{s.scenario_name}:{s.rules}" for s in specs}),
                "ratings": table["ratings"]}
    write_study_rows(path, rows, every, study, metadata)


@app.command()
def ladder(
    games: Annotated[int, typer.Option(
        help="Seeds each pair fights each battle on (each seed both ways round)")],
    player: Annotated[list[str] | None, typer.Option(
        help="A player of `tertia players` (repeatable, at least two; default "
             f"{' and '.join(DEFAULT_PLAYERS)})", metavar="NAME")] = None,
    scenario: Annotated[list[str] | None, typer.Option(
        help="A scenario to fight (repeatable; default each rule set's default battle)")] = None,
    rules: Annotated[list[str] | None, typer.Option(
        help="A rule set (repeatable; default: each scenario's own, as battle chooses it; "
             "larger-battles when no scenario is named)")] = None,
    option: OptionOpt = None,
    seed: SeedOpt = DEFAULT_SEED,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    out_file: OutOpt = None,
    plots: PlotsOpt = None,
    as_json: JsonOpt = False,
    max_actions: MaxActionsOpt = MAX_ACTIONS,
) -> None:
    """Players against each other on paired seeds: ratings with intervals, the win matrix
    and the VP margin of each pair."""
    named = _players(player)
    pairs = len(named) * (len(named) - 1)  # each pair seated both ways round
    check_games_or_fail(games, pairs * max(1, len(rules or ())) * max(1, len(scenario or ())))
    options = parse_options(option or [])
    chosen_backend = checked_backend(backend)
    battles = _battles(scenario, rules, options, max_actions)
    specs = ladder_specs(battles, named)
    check_study_outputs(out_file, plots, battles[0].scenario_name)
    study = run_with_progress(specs, games, seed, workers, chosen_backend, address)
    table = standings(named, games_of(specs, study.rows))
    summaries = [summarize(rows, spec.sides, spec.fielded, requested=games, least_score=spec.least_score)
                 for spec, rows in zip(specs, study.rows, strict=True)]
    failed = sum(summary["failed"] for summary in summaries)
    if out_file is not None:
        _write(out_file, specs, study, named, table)
    plot: Path | None = None
    title = f"{' v '.join(named)}: " + ", ".join(
        f"{b.scenario.name} ({ruleset_class(b.rules).named()})" for b in battles)
    if plots is not None and table["games"]:
        from tertia.analysis.sim.plots import plot_ladder

        plot = drawing(plots, lambda: plot_ladder(table, plots, title))
    if as_json:
        data = {"players": named,
                "battles": [{"scenario": b.scenario_name, "rules": b.rules} for b in battles],
                "options": dict(battles[0].options),  # typed as the rule set parsed them
                "seeds": games, **table, "failed": failed, **run_info(study),
                "out": None if out_file is None else str(out_file),
                "plots": [] if plot is None else [str(plot)]}
        sys.stdout.write(json.dumps(data) + "\n")
    else:
        _print_ladder(table, title, named)
        _print_decided(table["decided"], {(s.scenario_name, s.rules): s.scenario.name for s in specs})
        for summary in summaries:
            print_failures(summary)
        print_timing(study)
        if out_file is not None:
            out.print(f"Rows written to {out_file}")
        if plot is not None:
            out.print(f"Plot written to {plot}")
    finish(study, as_json, failed)


def _print_decided(decided: list[dict[str, Any]], titles: dict[tuple[str, str], str]) -> None:
    """Each pair's games on each battle decided on the field, where the rule set says;
    ``titles`` the scenarios' titles by (scenario, rule set)."""
    if not decided:
        return
    table = Table(title="Battles decided on the field, not by the turn limit or darkness", box=box.SIMPLE)
    for col in ("player", "against", "battle", "games", "decided [95% CI]"):
        table.add_column(col, justify="left" if col in ("player", "against", "battle") else "right")
    for d in decided:
        battle = f"{titles[d['scenario'], d['rules']]}, {ruleset_class(d['rules']).named()}"
        table.add_row(d["player"], d["against"], battle, str(d["games"]), fmt(d["rate"]))
    print_table(table)


def _print_ladder(table: dict[str, Any], title: str, players: list[str]) -> None:
    heading = f"{title}: {plural(table['games'], 'game')}"
    ratings = Table(title=heading, box=box.SIMPLE, min_width=cell_len(heading))  # the title on one line
    for col in ("player", "rating [95% CI]", "games", "score"):
        ratings.add_column(col, justify="left" if col == "player" else "right")
    for r in table["ratings"]:
        interval = {"estimate": r["rating"], "low": r["low"], "high": r["high"]}
        ratings.add_row(r["player"], fmt(interval, 0), str(r["games"]),
                        "—" if r["score"] is None else f"{r['score']:.2f}")
    print_table(ratings)
    matrix = Table(title="Score of each row's player against each column's [95% CI]", box=box.SIMPLE)
    matrix.add_column("")
    for p in players:
        matrix.add_column(p, justify="right")
    for a in players:
        row = table["matrix"][a]
        matrix.add_row(a, *(fmt({**row[b]["interval"], "estimate": row[b]["score"]}) if b in row else "—"
                            for b in players))
    print_table(matrix)
    margins = Table(title="Victory points and units lost, per game, paired by seed", box=box.SIMPLE)
    several = len({m["rules"] for m in table["margins"]}) > 1  # each on its rule set's own scale
    named = ("player", "against", "rule set") if several else ("player", "against")
    for col in (*named, "seeds", "VP margin [95% CI]", "units lost", "units lost against"):
        margins.add_column(col, justify="left" if col in named else "right")
    for m in table["margins"]:
        rules = (ruleset_class(m["rules"]).named(),) if several else ()
        margins.add_row(m["player"], m["against"], *rules, str(m["seeds"]), fmt(m["vp_margin"]),
                        f"{m['units_lost']:.2f}", f"{m['units_lost_against']:.2f}")
    print_table(margins)
    out.print("Ratings: a Bradley-Terry fit (a draw half a win), one drawn game added to each pair; "
              "intervals are 95%, the fit's own (Wald).")
