"""The ``tertia`` command. Each group of commands lives in its own module and registers
itself on :data:`app`; this module only assembles them."""

from __future__ import annotations

import inspect
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Annotated, Any, get_args

import typer
from rich.text import Text
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.models import CommandFunctionType

import tertia
from tertia.cli.common import err, fail
from tertia.rulesets import PLUGINS_VARIABLE, ruleset_ids


def _untyped_help(option: Any) -> Any:
    """``--help`` is a flag: show no ``<bool>`` beside it, as for the other flags."""
    if option is not None:
        option.metavar = ""
    return option


_WORDS = {"str": "TEXT", "int": "INTEGER", "float": "NUMBER"}


def value_word(param: TyperArgument | TyperOption) -> str:
    """What a parameter's value is, as the help shows it: "TEXT", "INTEGER", "NUMBER" or
    "PATH" (a range's bounds are shown beside it), instead of the Python type Typer would
    show (``<str>``, ``<list[str]>``)."""
    descriptor = param.type_descriptor
    if descriptor.is_path:
        return descriptor.path_type.upper()
    annotation: Any = descriptor.annotation
    if descriptor.is_list:
        (annotation,) = get_args(annotation)
    name = str(getattr(annotation, "__name__", annotation))
    return _WORDS.get(name, name.upper())


class Argument(TyperArgument):
    """A command's argument whose help shows its value in words (:func:`value_word`)."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return value_word(self)


def _in_words(params: list[Any]) -> None:
    """Every parameter's help shows its value in words, not as a Python type: an option
    without a metavar of its own takes :func:`value_word` (a flag, none), and an argument
    becomes an :class:`Argument`."""
    for param in params:
        if isinstance(param, TyperOption) and param.metavar is None:
            param.metavar = "" if param.is_flag else value_word(param)
        elif type(param) is TyperArgument:
            param.__class__ = Argument


def flowed(text: str) -> str:
    r"""A docstring's paragraphs as flowing text: its line breaks within a paragraph are the
    source's, not the reader's (the help wraps to the terminal), so they become spaces.

    >>> flowed("Play in the browser: every game\n    is saved.\n\nSecond paragraph.")
    'Play in the browser: every game is saved.\n\nSecond paragraph.'
    """
    paragraphs = re.split(r"\n\s*\n", inspect.cleandoc(text))
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


class Command(TyperCommand):
    """A ``tertia`` command whose help shows each value in words (:func:`_in_words`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _in_words(self.params)
        if self.help:
            self.help = flowed(self.help)

    def get_help_option(self, ctx: Any) -> Any:
        return _untyped_help(super().get_help_option(ctx))


class Group(TyperGroup):
    def get_help_option(self, ctx: Any) -> Any:
        return _untyped_help(super().get_help_option(ctx))

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        """Run a command; a command line the parser cannot use (an option missing or
        unknown, a value of the wrong kind) stops with one line, as every other error does,
        naming the command whose ``--help`` lists its options, where the parser would draw
        a usage block and a framed error."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            result = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except typer.Abort:
            err.print("Aborted.")
            sys.exit(1)
        except typer.TyperException as exc:  # the parser's: its usage errors carry their command
            ctx = getattr(exc, "ctx", None)
            lists = "commands" if ctx is not None and isinstance(ctx.command, TyperGroup) else "options"
            where = f" (`{ctx.command_path} --help` lists its {lists})" if ctx is not None else ""
            told = getattr(exc, "format_message", None)
            message = (str(told()) if callable(told) else str(exc)).rstrip(".")
            err.print(Text.assemble(("error:", "bold red"), " ", message + where), soft_wrap=True)
            sys.exit(getattr(exc, "exit_code", 2))
        sys.exit(result if isinstance(result, int) else 0)


class App(typer.Typer):
    """The ``tertia`` application: each command registered on it is a :class:`Command`
    unless it names a class of its own, whichever module registers it and in whatever
    order the modules are imported."""

    def command(self, *args: Any, cls: type[TyperCommand] | None = None, **kwargs: Any
                ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        return super().command(*args, cls=cls or Command, **kwargs)


app = App(
    name="tertia",
    help="English Civil War battles on a free-movement table.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=Group,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"tertia {tertia.__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print the version and exit", metavar="", is_eager=True,
                     callback=_print_version),
    ] = False,
) -> None:
    """English Civil War battles on a free-movement table."""
    _load_rule_sets()


def _load_rule_sets() -> None:
    """Register every rule set before a command runs, so one that cannot be loaded stops
    it with one line whatever the command.

    A module named in ``TERTIA_RULESETS`` is looked for on the import path and then in the
    current directory, as ``python -m tertia`` finds it: the installed ``tertia`` script
    does not put the directory on the path, and the documented example
    (``TERTIA_RULESETS=tests.example_rules.plugin tertia battle``) is run from the
    checkout. Appended, the directory shadows no installed module."""
    if os.environ.get(PLUGINS_VARIABLE, "").strip() and os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        ruleset_ids()
    except ValueError as exc:
        fail(str(exc))


def _register() -> None:
    import tertia.cli.serve_commands  # noqa: F401
    from tertia.cli import (  # noqa: F401
        ladder_commands,
        odds_commands,
        play_commands,
        scenario_commands,
        simulate_commands,
    )


_register()

if __name__ == "__main__":  # pragma: no cover
    app()
