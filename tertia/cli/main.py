"""The ``tertia`` command. Each group of commands lives in its own module and registers
itself on :data:`app`; this module only assembles them."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="tertia",
    help="English Civil War battles on a free-movement table.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    import tertia.cli.serve_commands  # noqa: F401
    from tertia.cli import odds_commands, play_commands, scenario_commands, simulate_commands  # noqa: F401


_register()

if __name__ == "__main__":  # pragma: no cover
    app()
