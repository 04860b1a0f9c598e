"""What the command-line front ends share: consoles, clean failures, and loading games."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tertia.ai.players import choose_players
from tertia.core.events import Event
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.io.files import exists, same_file, shown_name, unnamable, written_through
from tertia.io.record import LoadedRecord, RecordError, ScenarioNotRecord, load_record, replay
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios.catalogue import scenario_files

# Markup is off: names and messages come from files and must print as they are written
# ("Royalists [/bold]" is a name, not a closing tag). Styles go in Text objects. In a
# terminal lines wrap at its edge; in a pipe or a file each line stays whole.
out = Console(highlight=False, markup=False, soft_wrap=not sys.stdout.isatty())
err = Console(stderr=True, highlight=False, markup=False, soft_wrap=not sys.stderr.isatty())


DEFAULT_RULES = "larger-battles"
DEFAULT_SEED = 1642

OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Rule option (repeatable)", metavar="KEY=VALUE")
]


def print_table(table: Table) -> None:
    """A table fitted to the terminal, or to the width ``COLUMNS`` gives (as Rich reads
    it for the help and the odds), or at its natural width when the output is a file or a
    pipe and no width is given (no edge to fit)."""
    if out.is_terminal:
        out.print(table)
        return
    width = given_width() or max(out.width, out.measure(table, options=out.options.update_width(400)).maximum)
    Console(file=out.file, width=width, highlight=False, markup=False, color_system=None).print(table)


def print_folded(text: Text) -> None:
    """A line of words folded at the terminal's edge, or at the width ``COLUMNS`` gives
    when the output is a file or a pipe (as :func:`print_table` fits a table); whole
    when neither gives one."""
    width = None if out.is_terminal else given_width()
    if width is None:
        out.print(text)
        return
    Console(file=out.file, width=width, highlight=False, markup=False, color_system=None).print(text)


def given_width() -> int | None:
    """The width ``COLUMNS`` names, read as the table is printed; None when it names none."""
    columns = os.environ.get("COLUMNS", "").strip()
    return int(columns) if columns.isdigit() and int(columns) > 0 else None


def given_path(text: str) -> Path:
    """A path given on the command line, taken as given (the ``parser`` of every path
    argument and option): whether anything can be read or written under it is the
    command's to say, in one line naming it, even for a name no file may have (Typer's own
    reading of a path answers a NUL character with a usage screen)."""
    return Path(text)


def fail(message: str, code: int = 1) -> NoReturn:
    err.print(Text.assemble(("error:", "bold red"), " ", message), soft_wrap=True)
    raise typer.Exit(code)


def fail_problems(problems: Sequence[object], fallback: str) -> NoReturn:
    """Print each problem on its own error line and exit 1 (``fallback`` if none)."""
    for problem in problems[:-1]:
        err.print(Text.assemble(("error:", "bold red"), " ", str(problem)), soft_wrap=True)
    fail(str(problems[-1]) if problems else fallback)


def check_outputs(outputs: dict[str, Path | None], scenario: str | None) -> None:
    """Refuse, before anything is fought, outputs that cannot be written (a name too long
    or holding a NUL character, a folder that does not exist or cannot be written in, a
    directory for a file, a device or pipe that cannot be written to) or that would
    overwrite the scenario being played, a scenario the catalogue offers by name
    (:func:`~tertia.scenarios.catalogue.scenario_files`), or each other. A device, a named pipe or a link is
    written into, not replaced (:func:`tertia.io.files.replacing`): its own folder need not
    be writable. Each refusal names the output as :func:`~tertia.io.files.shown_name`
    shows it, on one line."""
    given = [(flag, path) for flag, path in outputs.items() if path is not None]
    source = Path(scenario) if scenario is not None and exists(scenario, "file") else None
    catalogued = scenario_files() if given else {}
    for i, (flag, path) in enumerate(given):
        named = f"{flag} {shown_name(path)}"
        reason = unnamable(path)
        if reason is not None:  # no file can be made under a name the system cannot look up
            fail(f"{named}: cannot write: {reason}")
        if source is not None and same_file(path, source):
            fail(f"{named}: is the scenario being played; choose another file")
        for name, file in catalogued.items():
            if same_file(path, file):
                fail(f"{named}: is the file of the scenario {name!r}; choose another file")
        if exists(path, "dir"):
            fail(f"{named}: is a directory; give a file name")
        if written_through(path) and exists(path):  # a device, a pipe, a link: written into
            if not os.access(path, os.W_OK):
                fail(f"{named}: cannot write to it")
        else:
            _check_folder(named, path)
        for other_flag, other in given[i + 1:]:
            if same_file(path, other):
                fail(f"{flag} and {other_flag} both name {shown_name(path)}; give each its own file")


def _check_folder(named: str, path: Path) -> None:
    """Refuse an output (``named``: its flag and name) whose folder is missing, not a
    folder, or cannot be written in (where the file is made, or renamed into place)."""
    folder = path.parent
    if not exists(folder):
        fail(f"{named}: no such directory {shown_name(folder)}")
    if not exists(folder, "dir"):
        fail(f"{named}: {shown_name(folder)} is not a directory")
    try_writing_in(folder, named)


def try_writing_in(folder: Path, named: str) -> None:
    """A clean exit naming the output (``named``) unless a file can be made in ``folder``;
    the file made is removed at once. Its permissions alone do not say (a read-only file
    system, ``/proc``, or a folder anyone may not write in, as seen by the superuser)."""
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".tertia-", suffix=".tmp"):
            pass
    except (OSError, ValueError) as exc:
        fail(f"{named}: cannot write in {shown_name(folder)}: {getattr(exc, 'strerror', None) or exc}")


PlayerOpt = Annotated[
    list[str] | None,
    typer.Option("--player", metavar="SIDE=PLAYER",
                 help="Who plays a side (repeatable; default doctrine): a player of `tertia players`"),
]


def chosen_players(pairs: list[str] | None, game: Game, also: Sequence[str] = ()) -> dict[str, str]:
    """Each side of ``game``'s player from ``--player SIDE=NAME`` pairs (a side by its id
    or its name), or a clean exit naming the pair and what was expected
    (:func:`tertia.ai.players.choose_players`)."""
    try:
        return choose_players(pairs or [], game.scenario.side_ids, also=also, side_names=side_names(game))
    except ValueError as exc:
        fail(str(exc))


def parse_options(pairs: list[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            fail(f"--option {pair!r}: expected KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def build_game(scenario: str, rules: str, options: dict[str, str] | None = None) -> Game:
    """A game from a scenario name or file and a rule set id, or a clean exit on bad input."""
    from tertia.io.scenario_file import ScenarioError, written_for
    from tertia.scenarios import resolve_scenario

    try:
        ruleset = get_ruleset(rules, **(options or {}))
    except ValueError as exc:
        listed = written_for(scenario) if exists(scenario, "file") else None
        if rules not in ruleset_ids() and listed and rules in listed:  # the file's own, unknown here
            fail(f"{scenario}: rules[{listed.index(rules)}]: {exc}")
        fail(str(exc))
    try:
        loaded = resolve_scenario(scenario, rules_id=rules)
    except ScenarioError as exc:
        fail_problems(exc.problems, f"{scenario}: not a valid scenario")
    except (OSError, ValueError, KeyError) as exc:
        fail(str(exc))
    return Game(ruleset, loaded)


def side_names(game: Game) -> dict[str, str]:
    return game.scenario.side_names()


def side_named(game: Game, given: str) -> str:
    """The side ``given`` names: by its id or by the name players read ("Royalists", or
    "Royalists (King Charles I)" whole), in any case; a clean exit naming the sides when it
    names none."""
    wanted = given.strip().casefold()
    for side, name in side_names(game).items():
        if wanted in (side.casefold(), name.casefold(), name.split(" (")[0].strip().casefold()):
            return side
    fail(f"--side {given}: no such side in this battle; give one of {', '.join(side_names(game))} "
         f"or its name ({'; '.join(side_names(game).values())})")


SideOpt = Annotated[str | None, typer.Option(
    help="Show what this side sees (by its id or name), its enemy's secrets kept; by default a referee's "
         "view of everything", metavar="SIDE")]


RulesForFileOpt = Annotated[
    str | None,
    typer.Option(help="Rule set id (default: a record's own rule set; for a scenario, larger-battles "
                      "when it is written for it, else the first it is written for)"),
]


StepOpt = Annotated[int | None, typer.Option(
    help="A record's position after this many actions (0: as the battle began), not its last")]
TurnOpt = Annotated[int | None, typer.Option(
    help="A record's position as this turn began (after the action that began it; turns count from "
         "1), not its last")]


@dataclass(frozen=True)
class Position:
    """A position a file describes: its ``game``, the ``state``, and ``told``: the
    events of the battle's start and of each action that led to it, first first (none for
    a scenario, which no action has been taken in)."""

    game: Game
    state: GameState
    told: tuple[tuple[Event, ...], ...] = ()


def state_from_file(file: Path, rules: str | None, options: dict[str, str] | None = None, *,
                    step: int | None = None, turn: int | None = None) -> tuple[Game, GameState]:
    """The game and position :func:`position_from_file` reads."""
    position = position_from_file(file, rules, options, step=step, turn=turn)
    return position.game, position.state


def position_from_file(file: Path, rules: str | None, options: dict[str, str] | None = None, *,
                       step: int | None = None, turn: int | None = None) -> Position:
    """The position a file describes: a scenario as deployed under ``rules`` (by default
    larger-battles, or the first rule set the scenario is written for when it is not
    written for that) with rule ``options``, or a record's position under the record's
    own rule set and options (an option given must be the one the record was played with):
    its last, or, once the whole record is checked, the one after ``step`` actions or as
    ``turn`` began. A file named ``.json`` is a record unless it is a scenario written in
    TOML."""
    if step is not None and turn is not None:
        fail("--step and --turn each choose a position: give one of them")
    if step is not None and step < 0:
        fail(f"--step {step}: give a number of actions, 0 or more")
    if turn is not None and turn < 1:
        fail(f"--turn {turn}: turns count from 1")
    if file.suffix.lower() == ".json":
        loaded: LoadedRecord | None = None
        try:
            loaded = load_record(file)
        except ScenarioNotRecord:
            pass
        except RecordError as exc:
            fail(str(exc))
        if loaded is not None:
            return _record_position(loaded, file, rules, options, step=step, turn=turn)
    if step is not None or turn is not None:
        fail(f"{'--step' if step is not None else '--turn'} chooses a position in a game record; "
             f"{file} is a scenario")
    game = build_game(str(file), rules or _scenario_rules(str(file)), options)
    return Position(game, game.ruleset.initial_state(game.scenario))


def _record_position(loaded: LoadedRecord, file: Path, rules: str | None, options: dict[str, str] | None,
                     *, step: int | None = None, turn: int | None = None) -> Position:
    """A record's position under its own rule set and options, refusing ``rules`` or
    ``options`` other than the record's: its last, or, found as the record is checked,
    the one after ``step`` actions or as ``turn`` began (the first position of that turn,
    after the action that began it), with the events that led to it."""
    ruleset = loaded.game.ruleset
    if rules is not None and ruleset.id != rules:
        fail(f"{file}: this record was played under {ruleset.id}, not {rules}")
    if options:
        _check_record_options(loaded, file, options)
    if step is not None and step > len(loaded.actions):
        fail(f"--step {step}: {file} holds {len(loaded.actions)} actions")
    chosen = _moment(step, turn)
    done: list[int] = []

    def moment(actions: int, state: GameState) -> bool:
        if chosen is not None and chosen(actions, state):
            done.append(actions)
            return True
        return False

    told: list[tuple[Event, ...]] = []
    result = replay(loaded, moment=moment if chosen is not None else None,
                    told=lambda events: told.append(tuple(events)))
    if not result.ok or result.final_state is None:
        fail(f"{file}: the record does not replay: {result.message}")
    if chosen is None:
        return Position(loaded.game, result.final_state, tuple(told))
    if result.kept is None:
        fail(f"--turn {turn}: {file}'s battle ended in turn {result.final_state.turn}")
    return Position(loaded.game, result.kept, tuple(told[:done[0] + 1]))


def _check_record_options(loaded: LoadedRecord, file: Path, options: dict[str, str]) -> None:
    """A clean exit unless each of ``options`` is the one the record was played with."""
    ruleset = loaded.game.ruleset
    try:
        asked = get_ruleset(ruleset.id, **options).options
    except ValueError as exc:
        fail(f"--option: {exc}")
    for key in options:
        if asked[key] != ruleset.options[key]:
            played = ruleset.options[key]
            shown = str(played).lower() if isinstance(played, bool) else played
            fail(f"--option {key}={options[key]}: {file} was played with {key}={shown}; "
                 f"a record's options are its own")


def _moment(step: int | None, turn: int | None) -> Callable[[int, GameState], bool] | None:
    """The position ``--step`` or ``--turn`` chooses, as a replay's ``moment``; None for
    the last."""
    if step is not None:
        return lambda done, state: done == step
    if turn is not None:
        return lambda done, state: state.turn >= turn
    return None


def _scenario_rules(scenario: str) -> str:
    """The rule set a scenario is read under when none is named: larger-battles when the
    scenario is written for it (or names none), else the first it is written for."""
    from tertia.io.scenario_file import ScenarioError, written_for
    from tertia.scenarios import resolve_scenario

    try:
        written: Sequence[str] | None = resolve_scenario(scenario).rules
    except (ScenarioError, OSError, ValueError, KeyError):
        # build_game then names what is wrong with it, under the rule set the file names:
        # under another, all it would hear is that the file is not written for that one
        written = written_for(scenario) if exists(scenario, "file") else None
    return DEFAULT_RULES if not written or DEFAULT_RULES in written else written[0]


RULES_HELP = ("Rule set id (default: the scenario's own, larger-battles when it is written for it, "
              "else the first it is written for; larger-battles when no scenario is named)")
"""The help of ``--rules`` wherever it goes with ``--scenario`` (:func:`battle_choice`)."""


def battle_choice(scenario: str | None, rules: str | None) -> tuple[str, str]:
    """The scenario and rule set to fight when ``--scenario`` or ``--rules`` may be left
    out: a scenario named without a rule set is fought under its own
    (:func:`_scenario_rules`: larger-battles when it is written for it, else the first it
    lists), a rule set without a scenario at its default battle
    (:func:`default_scenario`), and neither at Edgehill under larger-battles."""
    chosen_rules = rules if rules is not None else (
        DEFAULT_RULES if scenario is None else _scenario_rules(scenario))
    # an empty --scenario names none: build_game refuses it
    chosen_scenario = default_scenario(chosen_rules) if scenario is None else scenario
    return chosen_scenario, chosen_rules


def default_scenario(rules: str) -> str:
    """Edgehill, unless it is not written for ``rules`` and another scenario is: then the
    first built-in written for it, else the first battle a rule set ships for it
    (:func:`tertia.scenarios.catalogue.default_scenario`); a clean exit when a shipped
    battle's file has problems."""
    from tertia.io.scenario_file import ScenarioError
    from tertia.scenarios.catalogue import default_scenario as catalogue_default

    try:
        return catalogue_default(rules)
    except ScenarioError as exc:
        fail_problems(exc.problems, "a scenario a rule set ships is not valid")
