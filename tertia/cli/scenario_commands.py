"""``tertia validate`` and ``tertia scenarios``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from tertia.cli.common import fail_problems, print_table
from tertia.cli.main import app
from tertia.core.scenario import Scenario
from tertia.io.files import exists, unnamable
from tertia.io.scenario_file import Problem, ScenarioError, load_scenario
from tertia.rulesets import ruleset_ids
from tertia.scenarios import resolve_scenario
from tertia.scenarios.catalogue import is_named, load_named, scenario_catalogue


@app.command()
def validate(
    file: Annotated[str, typer.Argument(help="Scenario TOML file, or a scenario name (`tertia scenarios`).")],
    rules: Annotated[
        str | None,
        typer.Option("--rules", help="Also check the scenario against this rule set."),
    ] = None,
) -> None:
    """Check a scenario file: one line per problem, or a summary when it is valid.

    Without --rules the scenario is checked under every rule set it names."""
    path = Path(file)

    def load(rules_id: str | None) -> Scenario:
        if not file.strip() or unnamable(file) is not None:
            # refuses an empty name (not "."), and one too long or holding a NUL, as no scenario's
            return resolve_scenario(file, rules_id=rules_id)
        if not exists(path) and is_named(file):
            return load_named(file, rules_id=rules_id)
        return load_scenario(path, source_name=file, rules_id=rules_id)

    try:
        scenario = load(rules)
    except ScenarioError as exc:
        for problem in exc.problems:
            typer.echo(str(problem))
        raise typer.Exit(1) from None
    checked = [rules] if rules is not None else [r for r in scenario.rules if r in ruleset_ids()]
    failed = False
    for rules_id in checked if rules is None else []:
        try:
            load(rules_id)
        except ScenarioError as exc:
            failed = True
            for problem in exc.problems:
                typer.echo(str(Problem(f"{problem.file} under {rules_id}", problem.path, problem.message)))
    if failed:
        raise typer.Exit(1)
    under = f"; checked under {', '.join(checked)}" if checked else ""
    typer.echo(
        f"{file}: valid ({len(scenario.units)} units, {len(scenario.commanders)} commanders{under})"
    )


@app.command()
def scenarios(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.", metavar="")] = False,
) -> None:
    """List the scenarios that may be named, built in or shipped by a rule set, and the rule
    sets each is written for."""
    try:
        entries = scenario_catalogue()
    except ScenarioError as exc:
        fail_problems(exc.problems, "a scenario a rule set ships is not valid")
    if as_json:
        rows = [{**s.listing(), "shipped_by": s.shipped_by} for s in entries]
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table(title="Scenarios")
    table.add_column("name", style="bold", no_wrap=True, overflow="fold")
    table.add_column("title")
    table.add_column("rules", no_wrap=True, overflow="fold")
    table.add_column("units")
    table.add_column("from")
    for s in entries:
        # one line of units to each line of rule sets: a rule set may field the file's units otherwise
        units = "\n".join(_sized(s.units_by_rules.get(r, s.units)) for r in s.rules) or _sized(s.units)
        source = "built in" if s.shipped_by is None else f"rule set {s.shipped_by}"
        table.add_row(s.name, s.title, "\n".join(s.rules) or "any", units, source)
    print_table(table)


def _sized(units: Mapping[str, int]) -> str:
    return ", ".join(f"{side} {n}" for side, n in units.items())
