"""``tertia battle``, ``replay``, ``inspect`` and ``rules``: thin front ends over the engine."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.table import Table
from rich.text import Text

from tertia.ai.player import Player
from tertia.ai.players import ALIASES, DEFAULT_PLAYER, SECOND_EDITION, make_player
from tertia.ai.players import players as registered_players
from tertia.analysis.odds import odds_notes
from tertia.battle import (
    MAX_ACTIONS,
    BattleAborted,
    BattleRecord,
    Step,
    dice_seed,
    fight_battle,
)
from tertia.cli.common import (
    DEFAULT_SEED,
    RULES_HELP,
    OptionOpt,
    RulesForFileOpt,
    SideOpt,
    StepOpt,
    TurnOpt,
    battle_choice,
    build_game,
    check_outputs,
    chosen_players,
    fail,
    given_path,
    out,
    parse_options,
    position_from_file,
    print_folded,
    print_table,
    side_named,
    side_names,
)
from tertia.cli.inspection import inspection, panel_tables, status_lines
from tertia.cli.inspection import to_dict as inspection_dict
from tertia.cli.main import app
from tertia.cli.prompt_player import LeftTheBattle, PromptPlayer
from tertia.core.actions import Action
from tertia.core.dice import SeededDice
from tertia.core.events import Event
from tertia.core.game import Game
from tertia.core.hidden import place_hidden
from tertia.core.narration import plural, side_does
from tertia.core.scenario import DRAWN_UP
from tertia.core.state import UnitKind
from tertia.io.narrative import NarrativeLine, Narrator
from tertia.io.record import (
    LoadedRecord,
    RecordError,
    ReplayResult,
    ScenarioNotRecord,
    load_record,
    replay,
    save_record,
)
from tertia.io.safe_narration import tell_safely
from tertia.rulesets import editions_on_trial, get_ruleset, ruleset_class, ruleset_ids

HUMAN = "human"
"""The player ``battle`` adds of its own: you, at the terminal."""


def battle_summary(record: BattleRecord) -> dict[str, Any]:
    game = record.game
    final = record.final_state
    result = final.result or {}
    lost: dict[str, int] = {}
    lost_by_type: dict[str, dict[str, int]] = {}
    shows = game.ruleset.presentation()
    gone_by_side = {side: shows.lost_pieces(record.initial_state, final, side) for side in final.sides}
    for side, pieces in gone_by_side.items():
        gone = [u for u in pieces if u.kind is not UnitKind.COMMANDER]
        lost[side] = len(gone)
        by_type: dict[str, int] = {}
        for u in gone:
            by_type[u.kind.value] = by_type.get(u.kind.value, 0) + 1
        lost_by_type[side] = by_type
    return {
        "ruleset": game.ruleset.id,
        "ruleset_version": game.ruleset.version,
        "options": dict(game.ruleset.options),
        "scenario": game.scenario.name,
        "seed": record.seed,
        "players": dict(record.players),
        "finished": final.is_over,
        "winner": result.get("winner"),
        "reason": result.get("reason"),
        "turns": final.turn,
        "first_side": game.ruleset.presentation().first_mover(final),
        "score": dict(result.get("score", {})),
        "units_lost": lost,
        "units_lost_by_type": lost_by_type,
        "commanders_lost": {side: sum(1 for u in pieces if u.is_commander)
                            for side, pieces in gone_by_side.items()},
        "actions": len(record.steps),
        "final_hash": final.state_hash(),
    }


def as_typed(value: object) -> str:
    """An option's value as it is typed after ``--option NAME=``: ``true`` and ``false``
    for a switch, the value itself otherwise."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def print_result(record: BattleRecord, names: dict[str, str]) -> None:
    summary = battle_summary(record)
    table = Table(title=f"{summary['scenario']} — {record.game.ruleset.title}, seed {summary['seed']}")
    table.add_column("side")
    table.add_column("score", justify="right")
    table.add_column("units lost", justify="right")
    table.add_column("commanders lost", justify="right")
    for side in record.final_state.sides:
        table.add_row(names.get(side, side), str(summary["score"].get(side, 0)),
                      str(summary["units_lost"][side]), str(summary["commanders_lost"][side]))
    print_table(table)
    winner = summary["winner"]
    verdict = f"Victory to {names.get(winner, winner)}" if winner else "A drawn battle"
    reason = summary["reason"]
    # the reason follows a colon, as the report gives it, so its own asides keep their brackets
    ended = f" after {plural(summary['turns'], 'turn')}" + (f": {reason.rstrip('.')}." if reason else ".")
    out.print(Text.assemble((verdict, "bold"), ended))


@app.command()
def battle(
    scenario: Annotated[
        str | None,
        typer.Option(help="Scenario name (`tertia scenarios`) or a TOML file (default: Edgehill, or "
                          "the first scenario written for the rule set)"),
    ] = None,
    rules: Annotated[str | None, typer.Option(help=RULES_HELP)] = None,
    seed: Annotated[int, typer.Option(help="Seed for the dice and the players")] = DEFAULT_SEED,
    option: OptionOpt = None,
    player: Annotated[
        list[str] | None,
        typer.Option(help="Who plays a side (repeatable; default doctrine): a player of `tertia players`, "
                          "or human (you, at the terminal)",
                     metavar="SIDE=PLAYER"),
    ] = None,
    save: Annotated[Path | None, typer.Option(help="Write the game record (JSON) here",
                                              parser=given_path)] = None,
    report: Annotated[Path | None, typer.Option(help="Write an HTML report here", parser=given_path)] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object, no narrative", metavar="")
    ] = False,
    max_actions: Annotated[
        int, typer.Option(help="Stop the battle if it is not over after this many actions (exit 2): the "
                               "battle so far is told, and saved with --save as an unfinished battle that "
                               "--resume goes on with")
    ] = MAX_ACTIONS,
    resume: Annotated[
        Path | None,
        typer.Option(help="Go on with a battle left unfinished and saved with --save: its own scenario, rule "
                          "set, options, seed and players (--player changes who plays); saved back to it "
                          "unless --save names another file", parser=given_path),
    ] = None,
) -> None:
    """Fight a battle, AI against AI (or you at the terminal), and tell it turn by turn."""
    so_far: list[Action] = []
    if resume is not None:
        game, seed, so_far, recorded = _resumed(resume, scenario, rules, seed, option)
        player = player or [f"{side}={name}" for side, name in recorded.items()]
        save = resume if save is None else save
    check_outputs({"--save": save, "--report": report}, scenario)
    if max_actions < 1:
        fail(f"--max-actions must be at least 1, not {max_actions}")
    if resume is None:
        chosen_scenario, chosen_rules = battle_choice(scenario, rules)
        game = build_game(chosen_scenario, chosen_rules, parse_options(option or []))
    chosen = chosen_players(player, game, also=(HUMAN,))
    humans = [side for side, kind in chosen.items() if kind == HUMAN]
    if humans and as_json:
        fail("--player SIDE=human asks its questions at the terminal; it cannot be combined with --json")
    names = side_names(game)
    leaving = f"The battle so far is saved to {save}" if save is not None else "Nothing is saved"
    players = {side: _player(kind, names, leaving) for side, kind in chosen.items()}
    live = _LiveNarrative(game, names, humans, seed, len(so_far)) if humans else None
    stopped: BattleAborted | None = None
    try:
        record = fight_battle(game, players, seed, max_actions=max_actions, resume=so_far,
                              on_step=live.step if live is not None else None)
    except BattleAborted as exc:
        if exc.unfinished is None:
            fail(str(exc), 2)
        stopped, record = exc, exc.unfinished  # --max-actions: the battle so far is told and kept
    except LeftTheBattle as exc:
        _left(exc, save)
    # The record and the report are written before the battle is told, so nothing the
    # telling meets can lose them.
    if save is not None:
        try:
            save_record(record, save)
        except OSError as exc:
            fail(f"{save}: cannot write: {exc.strerror or exc}")
    if report is not None:
        _write_report(record, report)
    if not as_json and live is None:
        _heading(game)
        narrator = Narrator.for_rules(game.ruleset, record.deployed, side_names=names,
                                      notes=odds_notes(record))
        for line in tell_safely(narrator, record.iter_events(), where=f"seed {seed}"):
            _print_line(line.kind, line.text)
    if as_json:  # the battle so far, when --max-actions stopped it
        sys.stdout.write(json.dumps(battle_summary(record)) + "\n")
    if stopped is not None:
        _stopped(stopped, record, save, report, as_json)
    if as_json:
        return
    print_result(record, names)
    if save is not None:
        out.print(f"Record saved to {save}")
    if report is not None:
        out.print(f"Report written to {report}")


def _stopped(exc: BattleAborted, record: BattleRecord, save: Path | None, report: Path | None,
             as_json: bool) -> NoReturn:
    """The battle reached ``--max-actions``: what was saved and how to go on, in one line
    on standard error, and exit 2 (the battle so far has been told and written)."""
    at = _at(record.final_state.turn)
    if save is None:
        kept = "; nothing was saved (--save FILE keeps the battle so far to go on with)"
    else:
        kept = (f"; the battle so far is saved to {save}. To go on: "
                f"tertia battle --resume {shlex.quote(str(save))}")
    if report is not None and not as_json:
        out.print(f"Report of the battle so far written to {report}")
    fail(f"{exc} (stopped after {plural(len(record.steps), 'action')}, {at}){kept}", 2)


def _player(kind: str, names: dict[str, str], leaving: str) -> Player:
    if kind == HUMAN:
        return PromptPlayer(_read_line, lambda text: out.print(Text(text)), names,
                            prompt=lambda text: out.print(Text(text), end=""), on_leaving=leaving)
    return make_player(kind)


def _resumed(file: Path, scenario: str | None, rules: str | None, seed: int,
             option: list[str] | None) -> tuple[Game, int, list[Action], dict[str, str]]:
    """The battle a record left unfinished: its game, seed and actions so far, each taken
    again and checked (:func:`~tertia.io.record.replay`), and who played each side."""
    if scenario is not None or option:
        given = "--scenario" if scenario is not None else "--option"
        fail(f"--resume goes on with {file}'s own battle: {given} cannot be given with it")
    loaded, result = _replayed(file)
    if rules not in (None, loaded.game.ruleset.id):
        fail(f"--resume goes on with {file}'s own battle, under {loaded.game.ruleset.named()}: "
             "--rules cannot name another")
    if seed not in (DEFAULT_SEED, loaded.seed):
        fail(f"--resume goes on with {file}'s own battle and its own seed, {loaded.seed}: "
             "--seed cannot name another")
    if result.final_state is not None and result.final_state.is_over:
        fail(f"{file}: the battle is over; nothing to go on with (tertia replay {shlex.quote(str(file))} "
             "checks it)")
    recorded = loaded.data.get("players")
    players = {str(k): str(v) for k, v in recorded.items()} if isinstance(recorded, dict) else {}
    return loaded.game, loaded.seed, [action for _, action in loaded.actions], players


def _at(turn: int) -> str:
    """Where a battle stands, in words: at a turn, or in its deployment (turn 0)."""
    return f"at turn {turn}" if turn else "in the deployment, before the first turn"


def _left(exc: LeftTheBattle, save: Path | None) -> NoReturn:
    """The person left: the battle so far saved, when there is a file to save it to."""
    so_far = exc.record
    if save is None or so_far is None:
        fail(f"{exc}; nothing was saved")
    try:
        save_record(so_far, save)
    except OSError as error:
        fail(f"{exc}; {save}: cannot write: {error.strerror or error}")
    out.print(f"{str(exc).capitalize()}: saved to {save} {_at(so_far.final_state.turn)}. "
              f"To go on: tertia battle --resume {shlex.quote(str(save))}")
    raise typer.Exit(0)


def _read_line() -> str | None:
    """A line from standard input; None when it has ended."""
    line = sys.stdin.readline()
    return line if line else None


class _LiveNarrative:
    """With a person playing, the battle is told as it goes, each action's events as that
    person's side may see them (``RuleSet.event_visible_to``; all of them in a hotseat).
    A battle resumed after ``resumed`` actions is told from the start of the turn it
    stopped in."""

    def __init__(self, game: Game, names: dict[str, str], humans: list[str], seed: int,
                 resumed: int = 0) -> None:
        self.game = game
        self.viewer = humans[0] if len(humans) == 1 else None
        self.to_hold = resumed
        """Actions of the battle so far still to be taken again before the telling goes live."""
        self.held: list[NarrativeLine] = []
        """The lines of the battle so far, kept until then."""
        # The battle's start, as fight_battle will make it (the same seeded dice): told now,
        # before anyone is asked anything.
        _, events = game.start(SeededDice(dice_seed(seed)))
        self.narrator = Narrator.for_rules(game.ruleset, game.deployed(), side_names=names)
        _heading(game)
        self.tell(events)

    def step(self, step: Step) -> None:
        self.tell(step.events)
        if self.to_hold:
            self.to_hold -= 1
            if not self.to_hold:
                self._catch_up(step.state.turn)

    def tell(self, events: Sequence[Event]) -> None:
        if self.viewer is not None:
            events = [e for e in events if self.game.ruleset.event_visible_to(e, self.viewer)]
        lines = tell_safely(self.narrator, events)
        if self.to_hold:
            self.held.extend(lines)
            return
        for line in lines:
            _print_line(line.kind, line.text)

    def _catch_up(self, turn: int) -> None:
        """The battle so far has been taken again: its turn so far is told."""
        held, self.held = self.held, []
        start = max((i for i, line in enumerate(held) if line.kind == "heading"), default=0)
        out.print(Text(f"The battle so far is taken again: {_at(turn)}. This turn so far:", style="dim"))
        for line in held[start:]:
            _print_line(line.kind, line.text)


def _heading(game: Game) -> None:
    """The battle's heading: the scenario and the rule set, then the options played where
    any is not its default, so that the telling says what rules it follows."""
    from tertia.io.report import options_changed

    title = Text.assemble((game.scenario.name, "bold"), f" — {game.ruleset.title}")
    if title.cell_len + 4 <= out.width:
        out.rule(title)
    else:  # a rule would cut the title short: it is printed whole, on a line of its own
        out.print(title)
    changed = options_changed(game.ruleset.describe())
    if changed:
        out.print(Text("Options: " + "; ".join(changed), style="dim"))
    # The battle's story and how it is drawn up under these rules, as the page's "The
    # battle" and the report's head tell them.
    if game.scenario.description:
        out.print(Text(game.scenario.description, style="italic"))
    if game.scenario.notes:
        out.print(Text.assemble((f"{DRAWN_UP} ", "bold"), game.scenario.notes), style="dim")


def _print_line(kind: str, text: str) -> None:
    styles = {"heading": "bold underline", "phase": "dim", "attack": "yellow", "hit": "red",
              "loss": "bold red", "objective": "bold green", "end": "bold", "dice": "dim"}
    if kind == "heading":
        out.print()
    out.print(Text(text, style=styles.get(kind, "")))


def _write_report(record: BattleRecord, path: Path) -> None:
    from tertia.io.report import write_report_for

    try:
        write_report_for(record, path, notes=odds_notes(record))
    except OSError as exc:
        fail(f"{path}: cannot write: {exc.strerror or exc}")


def _replayed(file: Path) -> tuple[LoadedRecord, ReplayResult]:
    """A record read and re-run with its own dice; a clean exit naming the file when it is
    none, or does not reproduce exactly (exit 3)."""
    try:
        loaded = load_record(file)
    except ScenarioNotRecord as exc:
        fail(f"{exc}; to fight it: tertia battle --scenario {shlex.quote(str(file))}")
    except RecordError as exc:
        fail(str(exc))
    result = replay(loaded)
    if not result.ok:
        fail(f"{file}: diverged: {result.message}", 3)
    return loaded, result


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record written by `tertia battle --save`",
                                         parser=given_path)],
) -> None:
    """Re-run a game record; exit 0 with the final state hash when it reproduces exactly."""
    _, result = _replayed(file)
    out.print(f"{file}: {result.steps} actions replayed identically")
    if result.final_state is not None and not result.final_state.is_over:
        out.print(f"The battle is unfinished, {_at(result.final_state.turn)}. To go on: "
                  f"tertia battle --resume {shlex.quote(str(file))}")
    out.print(result.final_hash or "")


@app.command()
def inspect(
    file: Annotated[Path, typer.Argument(help="A scenario TOML file or a game record (JSON)",
                                         parser=given_path)],
    rules: RulesForFileOpt = None,
    step: StepOpt = None,
    turn: TurnOpt = None,
    side: SideOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON", metavar="")] = False,
) -> None:
    """Every piece as the rule set shows it now (or, in a record, after --step actions or
    as --turn began): what it is, whether it is in play, and each fact its rule set
    declares (hits against the hit limit and what raised it, morale, figures, formation ...);
    then the rule set's panels as the page shows them (the cards left to draw, the
    objectives and who holds each, the orders left ...), the turn and when the battle
    ends, the score, each army's losses and where each side stands against a victory."""
    position = position_from_file(file, rules, step=step, turn=turn)
    game, state = position.game, position.state
    viewer = None if side is None else side_named(game, side)
    seen = inspection(game, state, position.told, viewer)
    presentation = game.ruleset.presentation()
    cards = [presentation.piece(game.table, seen.seen, uid, viewer) for uid, unit in seen.seen.units.items()
             if not place_hidden(unit)]
    if as_json:
        sys.stdout.write(json.dumps({"rules": game.ruleset.id, "turn": state.turn,
                                     "facts": presentation.describe(),
                                     "units": [c.to_dict() for c in cards], **inspection_dict(seen)}) + "\n")
        return
    names = side_names(game)
    as_seen = "" if viewer is None else f", as {side_does(names.get(viewer, viewer), 'see')} it"
    table = Table(title=f"{game.scenario.name} — {game.ruleset.title}, turn {state.turn}{as_seen}")
    for col in ("piece", "side", "kind", "status", "shows"):
        table.add_column(col)
    for c in cards:
        shows = " · ".join(c.lines(noted=True))
        table.add_row(
            Text(c.name), Text(names.get(c.side, c.side)), Text(c.kind_label),
            Text("in play" if c.in_play else str(c.removed).replace("_", " ")), Text(shows),
        )
    print_table(table)
    for shown in panel_tables(seen):
        print_table(shown)
    for line in status_lines(seen):
        print_folded(line)


@app.command()
def players(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON", metavar="")] = False,
) -> None:
    """The players a side may be given (`--player SIDE=NAME` of battle, simulate and sweep)."""
    known = registered_players()
    aliases = {p.name: [a for a, to in ALIASES.items() if to == p.name] for p in known}
    specs = {rid: get_ruleset(rid).AI for rid in ruleset_ids()}
    editions = [ruleset_class(rid).named() for rid in editions_on_trial()]
    later = [ruleset_class(rid).named() for rid, spec in specs.items()
             if spec is not None and spec.baseline is not None]
    notes = {SECOND_EDITION: (f" (a second edition under {'; '.join(editions)})" if editions else
                              " (no rule set has one on trial now)"),
             "baseline": f" (the doctrine is a later edition under {'; '.join(later) or 'no rule set yet'})"}
    if as_json:
        sys.stdout.write(json.dumps([{"name": p.name, "title": p.title + notes.get(p.name, ""),
                                      "aliases": aliases[p.name], "default": p.name == DEFAULT_PLAYER}
                                     for p in known]) + "\n")
        return
    table = Table(title="Players")
    table.add_column("name", style="bold")
    table.add_column("what it is")
    for p in known:
        also = f" (also {', '.join(aliases[p.name])})" if aliases[p.name] else ""
        table.add_row(p.name + also, p.title + notes.get(p.name, "")
                      + ("; the default" if p.name == DEFAULT_PLAYER else ""))
    table.add_row(HUMAN, "you, at the terminal (battle only)")
    print_table(table)


@app.command()
def rules(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON", metavar="")] = False,
) -> None:
    """The rule sets, their options and defaults."""
    described = [get_ruleset(rid).describe() for rid in ruleset_ids()]
    if as_json:
        sys.stdout.write(json.dumps(described) + "\n")
        return
    for d in described:
        title = f"{d['id']} — {d['title']} (version {d['version']})"
        if not d["options"]:  # no table: its title would be folded to the width of its empty header
            out.print(Text(title, style="italic"), soft_wrap=False)
            out.print("  no options")
            continue
        table = Table(title=title)
        table.add_column("option", no_wrap=True, overflow="fold")
        table.add_column("default", overflow="fold")
        table.add_column("meaning", overflow="fold")
        for o in d["options"]:
            choices = f" (one of {', '.join(map(as_typed, o['choices']))})" if o["choices"] else ""
            table.add_row(Text(o["name"]), Text(as_typed(o["default"]) + choices), Text(o["help"]))
        print_table(table)
