"""Names no file may have, given where a scenario, a record or an output is named: one too
long for the system to look up, one holding a NUL character. Every command refuses each in
one line naming it (shortened, its NUL shown) and the reason, exits 1 without a traceback,
and writes nothing; the server answers such a scenario with a 4xx."""

from __future__ import annotations

import errno
import inspect
import os
from collections.abc import Callable, Iterator
from pathlib import Path, PurePath
from typing import Annotated, Any, get_args, get_origin, get_type_hints

import pytest
import typer
from fastapi.testclient import TestClient
from typer.models import ArgumentInfo, ParameterInfo
from typer.testing import CliRunner

from tertia.cli.common import given_path
from tertia.cli.main import app
from tertia.io.files import exists, replacing, same_file, shown_name, unnamable, written_through
from tertia.io.record import RecordError, load_record
from tertia.io.scenario_file import ScenarioError, load_scenario
from tertia.scenarios import load_builtin, resolve_scenario
from tertia.scenarios.catalogue import load_named
from tertia.web.app import create_app

runner = CliRunner()
LONG = "x" * 300
NUL = "bad\0name.toml"
BAD = {"long": LONG, "nul": NUL}
TOO_LONG = os.strerror(errno.ENAMETOOLONG)  # "File name too long"
REASON = {"long": TOO_LONG, "nul": "the name holds a NUL character"}
SHOWN = {"long": "x" * 60 + "..." + "x" * 30 + " (300 characters)", "nul": "bad\\x00name.toml"}

NOT_A_SCENARIO = "no such file, and no scenario of that name"
STUDY = ["--games", "1", "--workers", "1"]
VARY = ["--vary", "cavalry_bonus=literal,attacking-only"]

# Each command given a bad name where it reads a scenario or a record, and what it says.
READING: dict[str, tuple[list[str], str]] = {
    "battle --scenario": (["battle", "--scenario", "{}"], NOT_A_SCENARIO),
    "simulate --scenario": (["simulate", *STUDY, "--scenario", "{}"], NOT_A_SCENARIO),
    "sweep --scenario": (["sweep", *STUDY, *VARY, "--scenario", "{}"], NOT_A_SCENARIO),
    "ladder --scenario": (["ladder", *STUDY, "--scenario", "{}"], NOT_A_SCENARIO),
    "odds": (["odds", "{}", "--attacker", "a", "--target", "b"], NOT_A_SCENARIO),
    "inspect": (["inspect", "{}"], NOT_A_SCENARIO),
    "validate": (["validate", "{}"], NOT_A_SCENARIO),
    "replay": (["replay", "{}"], "cannot read: {reason}"),
    "battle --resume": (["battle", "--resume", "{}"], "cannot read: {reason}"),
}

# Each command given a bad name where it writes, and what it says.
WRITING: dict[str, tuple[list[str], str]] = {
    "battle --save": (["battle", "--scenario", "skirmish", "--save", "{}"],
                      "--save {shown}: cannot write: {reason}"),
    "battle --report": (["battle", "--scenario", "skirmish", "--report", "{}"],
                        "--report {shown}: cannot write: {reason}"),
    "simulate --out": (["simulate", *STUDY, "--scenario", "skirmish", "--out", "{}"],
                       "--out {shown}: cannot write: {reason}"),
    "simulate --plots": (["simulate", *STUDY, "--scenario", "skirmish", "--plots", "{}"],
                         "--plots {shown}: cannot create the directory: {reason}"),
    "sweep --out": (["sweep", *STUDY, *VARY, "--scenario", "skirmish", "--out", "{}"],
                    "--out {shown}: cannot write: {reason}"),
    "sweep --plots": (["sweep", *STUDY, *VARY, "--scenario", "skirmish", "--plots", "{}"],
                      "--plots {shown}: cannot create the directory: {reason}"),
    "ladder --out": (["ladder", *STUDY, "--scenario", "skirmish", "--out", "{}"],
                     "--out {shown}: cannot write: {reason}"),
    "ladder --plots": (["ladder", *STUDY, "--scenario", "skirmish", "--plots", "{}"],
                       "--plots {shown}: cannot create the directory: {reason}"),
    "serve --db": (["serve", "--port", "1", "--db", "{}"],
                   "cannot open the games database {shown}: {reason}"),
}


def _nothing_fought(monkeypatch: pytest.MonkeyPatch) -> None:
    def fight(*args: object, **kwargs: object) -> None:
        raise AssertionError("a battle was fought")

    monkeypatch.setattr("tertia.cli.play_commands.fight_battle", fight)
    monkeypatch.setattr("tertia.cli.serve_commands.run_until_stopped", fight)


def _refused(args: list[str], bad: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The one line a command given ``bad`` where ``args`` has ``{}`` says, after checking it
    exits 1 on a clean refusal, having written nothing in the folder it runs in."""
    _nothing_fought(monkeypatch)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, [bad if arg == "{}" else arg for arg in args], env={"COLUMNS": "200"})
    output = result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1, output
    assert "Traceback" not in output and "Error" not in output
    assert len(output.strip().splitlines()) == 1, output
    assert LONG not in output and "\0" not in output  # shortened, its NUL shown as an escape
    assert list(tmp_path.iterdir()) == []
    return output.strip()


@pytest.mark.parametrize("kind", BAD)
@pytest.mark.parametrize("command", READING)
def test_a_name_no_file_may_have_is_no_scenario_or_record(
        command: str, kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    args, says = READING[command]
    line = _refused(args, BAD[kind], tmp_path, monkeypatch)
    assert SHOWN[kind] in line
    assert says.format(reason=REASON[kind]) in line


@pytest.mark.parametrize("kind", BAD)
@pytest.mark.parametrize("command", WRITING)
def test_a_name_no_file_may_have_is_refused_as_an_output_before_anything_is_done(
        command: str, kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    args, says = WRITING[command]
    line = _refused(args, BAD[kind], tmp_path, monkeypatch)
    assert line == "error: " + says.format(shown=SHOWN[kind], reason=REASON[kind])


@pytest.mark.parametrize("kind", BAD)
def test_a_bad_name_inside_an_existing_folder(kind: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder exists and may be written in; the name in it still cannot be made."""
    folder = tmp_path / "out"
    folder.mkdir()
    monkeypatch.chdir(tmp_path)
    bad = f"{folder}/{BAD[kind]}"
    result = runner.invoke(app, ["battle", "--scenario", "skirmish", "--save", bad])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert result.output == f"error: --save {shown_name(bad)}: cannot write: {REASON[kind]}\n"
    assert list(folder.iterdir()) == []


def test_a_link_in_a_loop_is_refused_as_an_output_before_the_battle(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _nothing_fought(monkeypatch)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loop").symlink_to("loop")
    result = runner.invoke(app, ["battle", "--scenario", "skirmish", "--save", "loop"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert result.output == f"error: --save loop: cannot write: {os.strerror(errno.ELOOP)}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["loop"]


def test_a_name_with_a_line_break_is_told_on_one_line(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    line = _refused(["battle", "--scenario", "{}"], "two\nlines.toml", tmp_path, monkeypatch)
    assert line.startswith("error: two\\nlines.toml: " + NOT_A_SCENARIO)


# --- every path the command line takes is parsed by given_path -------------------------------


def _leaves(annotation: Any) -> Iterator[Any]:
    """The types an annotation is made of: the type itself, each of a union's (``Path |
    None``) and of a container's (``list[Path]``), ``Annotated``'s metadata left out."""
    args = get_args(annotation)
    if get_origin(annotation) is Annotated:
        yield from _leaves(args[0])
    elif args:
        for arg in args:
            yield from _leaves(arg)
    else:
        yield annotation


PATH_CHECKS = {"exists": False, "file_okay": True, "dir_okay": True, "writable": False, "readable": True,
               "resolve_path": False, "allow_dash": False, "path_type": None}
"""Typer's options for a path, with the values that ask for nothing: any other value makes
the parameter a path Typer reads itself."""


def _path_like(annotation: Any, info: ParameterInfo | None) -> bool:
    """Whether Typer takes a parameter so annotated, with ``info``, for a path: a type
    that is a path (``pathlib.Path``, ``os.PathLike``), a Click ``Path`` type, or any of
    Typer's options for a path set."""
    paths = (PurePath, os.PathLike)
    if any(isinstance(leaf, type) and issubclass(leaf, paths) for leaf in _leaves(annotation)):
        return True
    if info is None:
        return False
    click_type = getattr(info, "click_type", None)
    if click_type is not None and type(click_type).__name__ == "Path":
        return True
    return any(getattr(info, name, unset) != unset for name, unset in PATH_CHECKS.items())


def _parameters(callback: Callable[..., Any]) -> Iterator[tuple[str, Any, ParameterInfo | None]]:
    """A command's parameters as its command line names them (``--save``, ``FILE``), each
    with its annotation and its Typer option or argument (``None``: a plain parameter)."""
    hints = get_type_hints(callback, include_extras=True)
    for name, parameter in inspect.signature(callback).parameters.items():
        annotation = hints.get(name, Any)
        given = [m for m in getattr(annotation, "__metadata__", ()) if isinstance(m, ParameterInfo)]
        default = parameter.default
        info = given[0] if given else default if isinstance(default, ParameterInfo) else None
        # Within ``Annotated`` an option's first argument is its first flag, not its default.
        declared = [info.default, *(info.param_decls or ())] if info is not None else []
        flags = [d for d in declared if isinstance(d, str) and d.startswith("-")]
        if isinstance(info, ArgumentInfo):
            shown = name.upper()
        else:
            shown = flags[0] if flags else "--" + name.replace("_", "-")
        yield shown, annotation, info


def path_parameters(typer_app: typer.Typer, prefix: str = "") -> dict[str, bool]:
    """Every path-like parameter (:func:`_path_like`) of every command of ``typer_app``, its
    groups' and its callbacks', as "command --option" (an argument: "command NAME"), each
    with whether it is parsed by :func:`~tertia.cli.common.given_path`."""
    found: dict[str, bool] = {}
    callbacks: list[tuple[str, Callable[..., Any] | None]] = [
        ((info.name or (info.callback.__name__ if info.callback else "")).replace("_", "-"), info.callback)
        for info in typer_app.registered_commands]
    if typer_app.registered_callback is not None:
        callbacks.append(("", typer_app.registered_callback.callback))
    for command, callback in callbacks:
        for shown, annotation, info in _parameters(callback) if callback is not None else ():
            if _path_like(annotation, info):
                where = " ".join(part for part in (prefix, command, shown) if part)
                found[where] = info is not None and info.parser is given_path
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            named = " ".join(part for part in (prefix, group.name or "") if part)
            found |= path_parameters(group.typer_instance, named)
    return found


def test_every_path_the_command_line_takes_is_parsed_by_given_path() -> None:
    """A path given to any command, option or argument, is parsed by ``given_path``, so that
    a name no file may have is refused by the command in one line rather than by Typer
    with a usage screen: a path option added without it fails here."""
    found = path_parameters(app)
    assert {*WRITING, "battle --resume", "replay FILE", "odds FILE", "inspect FILE"} <= set(found), found
    assert [where for where, parsed in found.items() if not parsed] == []


OLD_STYLE_OUT = typer.Option(None, "--out")
"""An option given as a parameter's default, as Typer once had them all."""


def test_the_path_check_finds_what_it_looks_for() -> None:
    """:func:`path_parameters` flags every kind of path parameter left to Typer, in a group
    and in a callback too, and passes one parsed by ``given_path`` and what is no path."""
    sample = typer.Typer()
    group = typer.Typer()
    sample.add_typer(group, name="group")

    @sample.callback()
    def main(log: Annotated[Path | None, typer.Option()] = None) -> None:
        """A callback taking a path."""

    @sample.command()
    def play(
        scenario: Annotated[str, typer.Option()] = "edgehill",
        save: Annotated[Path | None, typer.Option("--save", parser=given_path)] = None,
        report: Annotated[Path | None, typer.Option("--report")] = None,
        record: Annotated[str, typer.Option(exists=True)] = "",
        files: Annotated[list[Path] | None, typer.Option("--file")] = None,
        out: Path | None = OLD_STYLE_OUT,
        count: int = 1,
    ) -> None:
        """A command taking paths."""

    @group.command("load-it")
    def load_it(file: Annotated[Path, typer.Argument()], other: PurePath | None = None) -> None:
        """A command of a group taking paths."""

    assert path_parameters(sample) == {
        "play --save": True, "play --report": False, "play --record": False, "play --file": False,
        "play --out": False, "--log": False, "group load-it FILE": False, "group load-it --other": False,
    }


# --- the functions every front end looks names up with -------------------------------------


@pytest.mark.parametrize("kind", BAD)
def test_looking_a_bad_name_up_answers_rather_than_raises(kind: str, tmp_path: Path) -> None:
    name = BAD[kind]
    assert not exists(name) and not exists(name, "file") and not exists(name, "dir")
    assert unnamable(name) == REASON[kind] and unnamable(tmp_path / name) == REASON[kind]
    assert not written_through(Path(name))
    assert not same_file(Path(name), tmp_path)
    with pytest.raises(OSError, match=REASON[kind]), replacing(tmp_path / name):
        raise AssertionError("nothing is written under a bad name")
    assert list(tmp_path.iterdir()) == []


def test_names_that_may_be_looked_up(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert exists(tmp_path) and exists(tmp_path, "dir") and not exists(tmp_path, "file")
    assert exists(tmp_path / "file", "file") and not exists(tmp_path / "missing")
    assert unnamable(tmp_path / "missing") is None and unnamable(tmp_path / "file") is None


def test_a_name_is_shown_whole_unless_it_is_very_long() -> None:
    assert shown_name("edgehill") == "edgehill"
    assert shown_name("x" * 120) == "x" * 120
    assert shown_name(LONG) == SHOWN["long"]
    assert shown_name(NUL) == SHOWN["nul"]


@pytest.mark.parametrize("kind", BAD)
def test_the_readers_refuse_a_bad_name_in_one_line(kind: str) -> None:
    with pytest.raises(ScenarioError) as unknown:
        resolve_scenario(BAD[kind])
    assert str(unknown.value).startswith(f"{SHOWN[kind]}: {NOT_A_SCENARIO}")
    with pytest.raises(ScenarioError) as unread:
        load_scenario(Path(BAD[kind]))
    assert str(unread.value) == f"{SHOWN[kind]}: cannot read the file: {REASON[kind]}"
    with pytest.raises(RecordError, match=f"cannot read: {REASON[kind]}$"):
        load_record(Path(BAD[kind]))


@pytest.mark.parametrize("kind", [*BAD, "lines"])
def test_the_catalogue_shows_a_name_it_does_not_hold_safely(kind: str) -> None:
    """``load_builtin`` and ``load_named``, given a name no scenario has (too long, holding
    a NUL or a line break), refuse it in one line showing it as ``shown_name`` does: cut
    short, its control characters escaped, nowhere whole."""
    name = {**BAD, "lines": "two\nlines.toml"}[kind]
    shown = shown_name(name)
    for load in (load_builtin, load_named):
        with pytest.raises(ScenarioError) as refused:
            load(name)
        message = str(refused.value)
        assert message.startswith(f"{shown}: no ") and f"scenario '{shown}';" in message, message
        assert "\n" not in message and "\0" not in message and name not in message, message


# --- the server ----------------------------------------------------------------------------


@pytest.mark.parametrize("scenario", [LONG, NUL, "x" * 64, "../tertia/scenarios/skirmish.toml", "skirmish\0"])
def test_the_server_answers_a_bad_scenario_name_with_a_4xx(scenario: str, tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3"), raise_server_exceptions=False) as client:
        answer = client.post("/api/games", json={"scenario": scenario, "mode": "hotseat", "seed": 1})
        assert 400 <= answer.status_code < 500, answer.text
        message = answer.json()["message"]
        assert message.startswith("scenario: is too long") or message.startswith("no scenario ")
        assert "\n" not in message and "\0" not in message and LONG not in message
        assert client.get("/api/catalogue").status_code == 200  # still serving
