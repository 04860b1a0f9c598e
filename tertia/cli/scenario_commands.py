"""``tertia validate`` and ``tertia scenarios``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from tertia.cli.common import print_table
from tertia.cli.main import app
from tertia.io.scenario_file import ScenarioError, load_scenario
from tertia.scenarios import builtin_names, list_builtin, load_builtin


@app.command()
def validate(
    file: Annotated[str, typer.Argument(help="Scenario TOML file (or a built-in's name).")],
    rules: Annotated[
        str | None,
        typer.Option("--rules", help="Also check the scenario against this rule set."),
    ] = None,
) -> None:
    """Check a scenario file: one line per problem, or a summary when it is valid."""
    path = Path(file)
    try:
        if not path.exists() and file in builtin_names():
            scenario = load_builtin(file, rules_id=rules)
        else:
            scenario = load_scenario(path, source_name=file, rules_id=rules)
    except ScenarioError as exc:
        for problem in exc.problems:
            typer.echo(str(problem))
        raise typer.Exit(1) from None
    typer.echo(
        f"{file}: valid ({len(scenario.units)} units, {len(scenario.commanders)} commanders)"
    )


@app.command()
def scenarios(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.", metavar="")] = False,
) -> None:
    """List the built-in scenarios and the rule sets each is written for."""
    entries = list_builtin()
    if as_json:
        rows = [
            {"name": s.name, "title": s.title, "rules": list(s.rules), "units": dict(s.units)}
            for s in entries
        ]
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table(title="Built-in scenarios")
    table.add_column("name", style="bold")
    table.add_column("title")
    table.add_column("rules")
    table.add_column("units")
    for s in entries:
        units = ", ".join(f"{side} {n}" for side, n in s.units.items())
        table.add_row(s.name, s.title, ", ".join(s.rules) or "any", units)
    print_table(table)
