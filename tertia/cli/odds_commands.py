"""``tertia odds``: the exact outcome distribution of an attack, shot or bombardment."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text
from typer.core import TyperOption

from tertia.analysis.answer import CHANCE_LABELS, refusal_in_words
from tertia.analysis.enumerate import ODDS_BUDGET, TooManyBranches
from tertia.analysis.odds import Odds, UnaskedResponse, odds
from tertia.cli.common import (
    OptionOpt,
    RulesForFileOpt,
    StepOpt,
    TurnOpt,
    fail,
    given_path,
    out,
    parse_options,
    side_names,
    state_from_file,
)
from tertia.cli.main import Command, app
from tertia.cli.pieces import UnknownPiece, piece_id, refused
from tertia.core.actions import Action
from tertia.core.narration import agree, is_plural_name, percent
from tertia.core.ruleset import RuleSet
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.rules.fighting import told_modifier
from tertia.rulesets import ruleset_class, ruleset_ids

BAR_WIDTH = 30


def action_words() -> dict[str, tuple[str, ...]]:
    """Each registered rule set's words for ``--action`` (its ``ACTION_WORDS``), by id."""
    return {rules: ruleset_class(rules).ACTION_WORDS for rules in ruleset_ids()}


def action_help() -> str:
    """``--action``'s help, read from every registered rule set's words, rule sets with
    the same words named together."""
    grouped: dict[tuple[str, ...], list[str]] = {}
    for rules, words in action_words().items():
        if words:
            grouped.setdefault(words, []).append(rules)
    said = [f"{_either(list(words))} under {_and(rules)}" for words, rules in grouped.items()]
    return "The rule set's word for the action: " + "; ".join(said)


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


class OddsCommand(Command):
    """``tertia odds``: its ``--action`` help lists the words of the rule sets registered
    when the help is shown (plugins' too), read from each rule set's ``ACTION_WORDS``."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        for param in self.params:
            if param.name == "action" and isinstance(param, TyperOption):
                param.help = action_help()
        super().format_help(ctx, formatter)


def bar(probability: float) -> str:
    """A small horizontal bar for a probability, in eighth blocks."""
    eighths = round(probability * BAR_WIDTH * 8)
    full, rest = divmod(eighths, 8)
    return "█" * full + ("" if rest == 0 else " ▏▎▍▌▋▊▉"[rest])


def print_odds(result: Odds, names: dict[str, str], sides: dict[str, str] | None = None,
               heading: str = "") -> None:
    """An answer as the terminal shows it: what was asked (``heading``: the action and the
    rule set, in words), the modifiers (as the narrative tells them, each value said once),
    the likeliest outcomes (the rest counted together), the target's and the attacker's
    measures, every other piece touched, and each side's units routed
    (:mod:`tertia.analysis.answer`)."""
    attacker = names.get(result.attacker or "", result.attacker or "")
    target = names.get(result.target or "", result.target or "")
    # A question asked of a unit alone (its own morale test) names it once.
    asked = attacker if result.target in (None, result.attacker) else f"{attacker} against {target}"
    out.print(Text(asked + (f": {heading}" if heading else ""), style="bold"))
    if result.modifiers or result.defender_modifiers:
        for m in result.modifiers:
            out.print(f"  attacker {told_modifier(m)}")
        for m in result.defender_modifiers:
            out.print(f"  defender {told_modifier(m)}")
    else:
        out.print("  no modifiers")
    out.print(_likeliest_table(result))
    out.print(_summary_table(result, target, attacker))
    others = _pieces_table(result, names)
    if others is not None:
        out.print(others)
    out.print(_sides_table(result, sides or {}))


def refusal_table(told: dict[str, Any], names: dict[str, str]) -> Table:
    """What a refused question tells (``TooManyBranches.told``) as the terminal shows it
    (:func:`~tertia.analysis.answer.refusal_in_words`): each chance of each party, the
    estimate and its 95% interval where draws were made, and the bounds proved."""
    heading, chances = refusal_in_words(told, names.get)
    estimated = told["draws"] > 0
    table = Table(title=f"Not exact: {heading}")
    table.add_column("chance")
    if estimated:
        table.add_column("about", justify="right")
        table.add_column("95% interval", justify="right")
    table.add_column("proved between", justify="right")
    for c in chances:
        row = (c.said, c.about or "", c.interval or "", c.proved) if estimated else (c.said, c.proved)
        table.add_row(*row)
    return table


def _likeliest_table(result: Odds) -> Table:
    likeliest = result.likeliest
    table = Table(title="Likeliest outcomes")
    table.add_column("chance", justify="right")
    table.add_column("exact", justify="right")
    table.add_column("")
    table.add_column("result")
    for p, words in likeliest.rows:
        table.add_row(f"{percent(float(p), 1):>6}", str(p), bar(float(p)), words)
    if likeliest.others:
        p = likeliest.others_chance
        table.add_row(f"{percent(float(p), 1):>6}", str(p), bar(float(p)),
                      f"{likeliest.others} other outcome{'s' if likeliest.others != 1 else ''}")
    return table


def _summary_table(result: Odds, target: str, attacker: str) -> Table:
    """The target's and the attacker's measures, those of the parties the question has
    alone (a morale test's unit, not the enemy it faces); the target's counts even at
    nothing, the attacker's where it may lose something."""
    summary = Table(title="Summary")
    summary.add_column("")
    summary.add_column("chance", justify="right")
    summary.add_column("")
    named = (("target", target), ("attacker", attacker))
    parties = [(who, name) for who, name in named if who in result.parties]
    chances: list[tuple[str, str]] = []
    for measure in result.measures:
        if measure.kind == "count":
            for who, name in parties:
                dist = result.summary[f"{who}_{measure.key}"]
                if who == "target" or set(dist) != {"0"}:
                    for value, p in dist.items():
                        summary.add_row(f"{measure.title} on {name}: {value}", percent(p, 1), bar(p))
        elif measure.kind == "unit_flag":
            chances += [(f"{who}_{measure.key}", f"{name} {measure.title}") for who, name in parties]
        else:
            chances.append((measure.key, measure.title))
    # Where the rule set counts a rout on the table too, the common chance is a rout off it.
    routed = "is routed from the field" if any(m.routs for m in result.measures) else "routs"
    for key, label in (*((f"{who}_routed", f"{name} {routed}") for who, name in parties),
                       *chances, ("commander_lost", "a commander is lost")):
        p = result.summary[key]
        if p:
            summary.add_row(agree(label, tuple(n for n in (target, attacker) if is_plural_name(n))),
                            percent(p, 1), bar(p))
    return summary


def _pieces_table(result: Odds, names: dict[str, str]) -> Table | None:
    """Each piece other than the target and the attacker that the action can touch (the
    enemy a morale test faces among them, as no party to the test)."""
    named = {result.attacker, *([result.target] if "target" in result.parties else [])}
    others = [p for p in result.pieces if p.unit not in named]
    if not others:
        return None
    titles = {m.key: m.title for m in result.measures}
    table = Table(title="Other pieces")
    table.add_column("piece")
    table.add_column("")
    table.add_column("chance", justify="right")
    table.add_column("")
    for piece in others:
        name = names.get(piece.unit, piece.unit)
        for key, dist in piece.counts.items():
            for value, p in dist.items():
                if value != "0":
                    told = f"{titles.get(key, key)}: {value}"
                    table.add_row(name, told, percent(float(p), 1), bar(float(p)))
                    name = ""
        for key, p in piece.chances.items():
            label = CHANCE_LABELS.get(key) or titles.get(key, key)
            table.add_row(name, label, percent(float(p), 1), bar(float(p)))
            name = ""
    return table


def _sides_table(result: Odds, sides: dict[str, str]) -> Table:
    table = Table(title="Units routed")
    table.add_column("side", no_wrap=True)
    table.add_column("units", justify="right")
    table.add_column("chance", justify="right")
    table.add_column("")
    for side in result.sides:
        name = sides.get(side.side, side.side)
        for n, p in side.units_routed.items():
            table.add_row(name, str(n), percent(float(p), 1), bar(float(p)))
            name = ""
    return table


@app.command("odds", cls=OddsCommand)
def odds_command(
    file: Annotated[Path, typer.Argument(help="A scenario TOML file or a game record (JSON)",
                                         parser=given_path)],
    attacker: Annotated[str, typer.Option(
        help="The attacking unit (or gun): its name as `tertia inspect` lists it, the start of "
             "that name, or its id")],
    target: Annotated[str | None, typer.Option(
        help="The target unit, named as --attacker (left out for a word asked of a unit alone, "
             "such as Charge yr Pikes!' morale)")] = None,
    rules: RulesForFileOpt = None,
    option: OptionOpt = None,
    action: Annotated[str | None, typer.Option(
        help="The rule set's word for the action (each rule set's are listed here)",
        metavar="WORD")] = None,
    support: Annotated[
        list[str] | None, typer.Option(help="A supporting unit, named as --attacker (repeatable)",
                                       metavar="UNIT")
    ] = None,
    commander: Annotated[str | None, typer.Option(help="An encouraging commander")] = None,
    defender_commander: Annotated[
        str | None, typer.Option(help="The defender's encouraging commander")
    ] = None,
    budget: Annotated[int, typer.Option(
        help="Give up on an action whose branches cost more work than this (units of work: a "
             "walk down the chance tree or a die rolled; the page allows the default; at least 1)",
    )] = ODDS_BUDGET,
    step: StepOpt = None,
    turn: TurnOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON", metavar="")] = False,
) -> None:
    """Exact odds of an attack, shot or bombardment in the position the file gives (a
    record's last, or after --step actions, or as --turn began), under the rule options
    given (a record's own, which --option may repeat but not change)."""
    if budget < 1:
        fail(f"--budget {budget}: give at least 1 unit of work")
    game, state = state_from_file(file, rules, parse_options(option or []), step=step, turn=turn)
    attacker = _named(state, "--attacker", attacker)
    target = (_alone(game.ruleset, action, attacker) if target is None
              else _named(state, "--target", target))
    support = [_named(state, "--support", s) for s in support or ()]
    commander = _named(state, "--commander", commander) if commander else commander
    if defender_commander:
        defender_commander = _named(state, "--defender-commander", defender_commander)
    try:
        details = {name: value for name, value in (
            ("supports", tuple(support or ())), ("commander", commander),
            ("defender_commander", defender_commander)) if value}
        unknown = [f"--{name.replace('_', '-').removesuffix('s')}" for name in details
                   if name not in game.ruleset.QUERY_DETAILS]
        if unknown:
            fail(f"{unknown[0]} is not a particular of an action under {game.ruleset.title}")
        ready, act = game.ruleset.query(state, action, attacker, target, details)
        result = odds(game, ready, act, responses=game.ruleset.query_responses(ready, details),
                      budget=budget)
    except IllegalAction as exc:
        fail("; ".join(refused(v, state) for v in game.named(exc.violations)))
    except UnaskedResponse:
        fail(f"--defender-commander {defender_commander} cannot take part: the rules ask the defending "
             f"side for no commander in this attack (its commanders must be within reach of the "
             f"combat and not yet have encouraged this turn, and the target must be one a "
             f"commander may encourage)")
    except TooManyBranches as exc:
        if as_json and exc.told is not None:  # what the refusal tells, as data, beside its words
            sys.stdout.write(json.dumps({"exact": False, "refused": str(exc), **exc.told}) + "\n")
        elif exc.told is not None and exc.told["chances"]:
            out.print(refusal_table(exc.told, {uid: u.label for uid, u in state.units.items()}))
        fail(f"no exact odds for this action: {exc} (--budget {budget}; a larger budget walks "
             f"further, at more cost)")
    except NotImplementedError as exc:
        fail(f"no exact odds for this action: {exc}")
    if as_json:
        sys.stdout.write(json.dumps(result.to_dict()) + "\n")
        return
    print_odds(result, {uid: u.label for uid, u in state.units.items()}, side_names(game),
               asked_in_words(game.ruleset, act, action))


def _alone(ruleset: RuleSet, word: str | None, attacker: str) -> str:
    """The unit a question without ``--target`` acts on: the asking unit itself, for a word
    the rule set asks of a unit alone (``ALONE_WORDS``); any other is refused, naming the
    missing option, as the page's questions are."""
    if word is not None and word in ruleset.ALONE_WORDS:
        return attacker
    asked = f"a question of {word!r}" if word else "a question"
    alone = " or ".join(ruleset.ALONE_WORDS)
    fail(f"Missing option '--target': {asked} under {ruleset.title} names the unit it acts on"
         + (f"; only {alone} is asked of a unit alone" if alone else ""), code=2)


def asked_in_words(ruleset: RuleSet, act: Action, word: str | None) -> str:
    """What a question asked, for a reader: the action's own name in the rule set's words
    (its kind's label, else the word asked) and the rule set's title."""
    kind = ruleset.action_kind(act.type)
    what = kind.label if kind is not None else (word or "").replace("_", " ")
    return f"{what}, under {ruleset.title}" if what else f"under {ruleset.title}"


def _named(state: GameState, flag: str, called: str) -> str:
    """The id of the piece ``called`` names (:func:`~tertia.cli.pieces.piece_id`), or a
    one-line refusal naming the option."""
    try:
        return piece_id(state, called)
    except UnknownPiece as exc:
        fail(f"{flag}: {exc}")
