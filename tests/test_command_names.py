"""A command no commander leads is named in words, under every registered rule set.

A command a commander leads is his ("Sir John Meldrum's command"); one none leads is its
side's, by what it is: "the King's Army's horse command", the side named as the battle
names it and the command by its id less the tag that tells the engine whose it is
(``r-horse``: "horse"), never "the r horse command". Where the words about it already say
whose it is (a side's own buttons, "Royalists order the horse command to move") it is
"the horse command". Refusals (the engine's answers and the command line) name it so.

A new rule set is covered without editing this file.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tertia.ai import players as registry
from tertia.ai.random_player import RandomPlayer
from tertia.cli.main import app
from tertia.core.actions import Action, EndPhase
from tertia.core.game import Game
from tertia.core.narration import possessive
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.io.narrative import Narrator
from tertia.io.report import Shown
from tertia.offers import command_name, describe
from tertia.rulesets import get_ruleset
from tertia.rulesets.larger_battles.actions import GiveOrder
from tertia.rulesets.larger_battles.events import OrderGiven
from tertia.scenarios.catalogue import default_scenario, load_named
from tests.plugin_rules import every_rule_set

from .support import P, R, act, make_game, position, unit

NAMES = ("the King's Army (Charles I)", "the Eastern Association (Manchester)")
"""The sides' names, first side first: neither holds a side's id."""

RULE_SETS = every_rule_set()

runner = CliRunner()


def renamed(scenario: Scenario) -> Scenario:
    """``scenario`` with its sides given :data:`NAMES`."""
    sides = tuple(s.model_copy(update={"name": name}) for s, name in zip(scenario.sides, NAMES, strict=True))
    return scenario.model_copy(update={"sides": sides})


def battle(rules: str) -> Game:
    """The rule set's default battle, its sides renamed."""
    return Game(get_ruleset(rules), renamed(load_named(default_scenario(rules), rules_id=rules)))


def leaderless(state: GameState) -> list[tuple[str, str]]:
    """Each side's commands (side, command) that no commander of the side leads."""
    led = {(u.side, u.command) for u in state.units.values() if u.is_commander}
    return sorted({(u.side, u.command) for u in state.units.values() if u.command} - led)


def tagged(state: GameState) -> tuple[GameState, dict[tuple[str, str], str]]:
    """``state`` with each command no commander leads given its side's tag, as scenarios
    often write them (``centre`` of the royalists as ``r-centre``), where it has none;
    and the words each such command stands for, by (side, command as tagged)."""
    renames = {(side, c): c if c.startswith(f"{side[0]}-") else f"{side[0]}-{c}"
               for side, c in leaderless(state)}
    words = {(side, tagged): command.replace("-", " ").replace("_", " ")
             for (side, command), tagged in renames.items()}
    changed = [u.evolve(command=renames[(u.side, u.command)]) for u in state.units.values()
               if renames.get((u.side, u.command), u.command) != u.command]
    return state.with_units(changed), words


def no_tag(words: str, side: str, command: str) -> bool:
    """Do ``words`` hold neither the command's id nor its side's tag as a word of its own?"""
    return command not in words and not re.search(rf"(?<![\w'-]){re.escape(side[0])}(?![\w'-])", words)


@pytest.mark.usefixtures("plugins_registered")
@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_command_no_commander_leads_is_named_by_its_side_and_what_it_is(rules: str) -> None:
    """Each command of the rule set's default battle that no commander leads (its id given
    the side's tag, "r-centre") is named, with the battle's names, as "the King's Army's
    centre command" where the rule set gives it no name of its own, and "the centre
    command" without them; a name the rule set gives holds no id either."""
    game = battle(rules)
    state, words = tagged(game.deployed())
    assert words, f"{rules}: every command of its default battle has a commander"
    for (side, command), plain in words.items():
        named = command_name(game.ruleset, state, command, game.side_names, side)
        assert named and no_tag(named, side, command), (rules, side, command, named)
        if game.ruleset.presentation().command_label(state, command, side) is not None:
            continue  # the rule set's own name ("Guns")
        assert named == f"{possessive(game.side_names[side])} {plain} command", (rules, command, named)
        assert command_name(game.ruleset, state, command, side=side) == f"the {plain} command"


def test_a_command_is_named_as_its_own_side_has_it() -> None:
    """Both sides may have a command of one name: the side asked for's is named, else the
    side to act's."""
    game = battle("larger-battles")
    state = position(game, active=P)
    parliament, royalists = possessive(game.side_names[P]), possessive(game.side_names[R])
    named = game.side_names
    assert command_name(game.ruleset, state, "artillery", named) == f"{parliament} artillery command"
    assert command_name(game.ruleset, state, "artillery", named, R) == f"{royalists} artillery command"


def test_a_refusal_names_a_command_no_commander_leads_by_its_side() -> None:
    """larger-battles' Orders: an order refused names a command no commander leads as
    its side's, by the battle's names, as everywhere else; a command of the other side's
    alone is named by what it is, and the side it belongs to after."""
    game = battle("larger-battles")
    state = position(game, active=P)
    artillery = [u for u in state.iter_units(P) if u.command == "artillery"]
    state = state.with_units([u.evolve(command="p-artillery") for u in artillery])
    state, _ = act(game, state, GiveOrder(target="p-artillery"))
    parliament, royalists = possessive(game.side_names[P]), possessive(game.side_names[R])
    [again] = game.validate(state, GiveOrder(target="p-artillery"))
    assert again.message == f"{parliament} artillery command already has a move order this turn"
    assert again.message.startswith(command_name(game.ruleset, state, "p-artillery", game.side_names) or "?")
    theirs = state.evolve(active=R)
    [refused] = game.validate(theirs, GiveOrder(target="p-artillery"))
    assert refused.message == f"the artillery command is {parliament}, not {royalists}"


def test_the_log_the_buttons_and_the_report_name_an_own_command_by_what_it_is() -> None:
    """Where the words say whose a command is (the side that orders it, its own buttons,
    its order of battle), it is named by what it is alone: never by its side's tag."""
    game = make_game([unit("h", R, "horse", 30, 40, 180, command="r-horse"), unit("f", P, "foot", 30, 5)])
    state = position(game, active=R)
    told = Narrator.for_rules(game.ruleset, state, side_names=game.side_names).line(
        OrderGiven(side=R, target=f"{R}:r-horse", purpose="move"))
    assert told is not None and told.endswith(" the horse command to move"), told
    assert describe(game.ruleset, state, GiveOrder(target="r-horse")) == "Order the horse command to move"
    assert Shown(game.table, state, game.ruleset.presentation()).command("r-horse", R) == "Horse"


# --- the command line -------------------------------------------------------------------------


GUNS = """\
name = "The guns at the ford"
rules = ["larger-battles"]
turns = 4
first = "parliament"

[table]
width = 72
depth = 48

[[sides]]
id = "parliament"
name = "the Eastern Association (Manchester)"
edge = "south"

[[sides]]
id = "royalist"
name = "the King's Army (Charles I)"
edge = "north"

[[units]]
id = "p-guns"
name = "Manchester's Train"
side = "parliament"
type = "artillery"
command = "artillery"
x = 30
y = 6
facing = 0

[[units]]
id = "r-foot"
name = "Lisle's Foot"
side = "royalist"
type = "foot"
command = "centre"
x = 40
y = 40
facing = 180
"""


class _Reorderer(RandomPlayer):
    """A player that orders its guns to move, and orders them again."""

    name = "reorderer"

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        if state.phase == "movement" and state.to_act == P:
            return GiveOrder(target="artillery")
        return EndPhase() if not game.validate(state, EndPhase()) else super().choose(game, state, rng)


@pytest.mark.parametrize("as_json", [False, True], ids=["narrative", "json"])
def test_the_command_line_names_a_command_no_commander_leads_by_its_side(
        as_json: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tertia battle`` with a player that orders its guns twice stops in one line naming
    the command as its side's, by the battle's name."""
    monkeypatch.setitem(registry._REGISTRY, "reorderer",
                        registry.PlayerEntry("reorderer", "orders its guns twice", _Reorderer))
    file = tmp_path / "guns.toml"
    file.write_text(GUNS, encoding="utf-8")
    players = ["--player", "parliament=reorderer", "--player", "royalist=reorderer"]
    result = runner.invoke(app, ["battle", "--scenario", str(file), "--rules", "larger-battles",
                                 "--seed", "3", *players, *(["--json"] if as_json else [])])
    output = " ".join(result.output.split())
    assert result.exit_code == 2, result.output
    assert "the Eastern Association's artillery command already has a move order this turn" in output, output
