"""``tertia battle --player SIDE=human``: a person at the terminal, asked only what the
rule set's vocabulary declares (its action kinds' labels and phrases, its fields'
labels), offered only pieces the rules allow, shown the odds of a dice-driven action
before it is made, and refused bad answers in one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tertia.cli.main import app
from tertia.cli.prompt_player import PromptPlayer, rout_line
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios import load_builtin
from tertia.scenarios.catalogue import default_scenario, load_named

runner = CliRunner()
LB = ["battle", "--scenario", "skirmish", "--seed", "4", "--player", "parliament=human"]
CARDS = ["battle", "--rules", "d3-cards", "--scenario", "chalgrove", "--seed", "14",
         "--player", "parliament=human"]
"""Seed 4: Parliament moves first at the ford; seed 14: Parliament's dragoons card is
drawn first at Chalgrove."""


def play(args: list[str], answers: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, args, input="".join(a + "\n" for a in answers))
    return result.exit_code, result.output


def test_the_menu_is_built_from_the_vocabulary() -> None:
    code, out = play(LB, ["3"])
    lb = get_ruleset("larger-battles")
    assert "Turn 1, movement phase: Parliament to act" in out
    assert "3. Order Colonel Hollis's command to move" in out and "5. End the movement phase" in out
    for kind in ("give_order", "move"):
        label = lb.action_kind(kind).label  # type: ignore[union-attr]
        assert f". {label} …" in out
    assert "Bombard …" not in out  # not a movement-phase kind
    assert "Parliament orders Colonel Hollis's command to move" in out  # the order was given
    assert code == 1 and "error: the input ended before the battle did; nothing was saved" in out


def test_a_command_is_asked_for_with_the_name_the_menu_gives_it() -> None:
    """An order's command is typed by its id, shown beside the name the menu's orders give
    it (its commander's); a command with no name of its own is shown by its id alone."""
    code, out = play(LB, ["6", ""])
    assert "Command or unit (a command (artillery; centre: Colonel Hollis's command; "\
        "right: Captain Fiennes's command) or a unit id)" in out, out
    assert code == 1


def test_no_order_is_asked_for_once_the_turns_orders_are_given() -> None:
    """Larger Battles: Sequence of Play, Orders: two orders a turn. With both given, the
    form for an order is no longer offered (it could only be refused)."""
    code, out = play(LB, ["3", "1"])
    before, after = out.split("orders left 0", 1)
    assert "Give an order …" in before and "Give an order …" not in after and "Move …" in after
    assert code == 1


def test_a_kind_is_filled_in_by_its_declared_fields() -> None:
    """An order to the centre, then a move: only the ordered centre is offered, each field
    asked by its label and kind, and the move made."""
    code, out = play(LB, ["3", "6", "p-foot-1", "18,12", "", ""])
    asked = out.split("6. Move …", 1)[1]
    assert "Unit (a number, a name or an id)" in asked
    assert "Path (x,y points in inches, separated by spaces; blank: leave out)" in asked
    assert "Facing before moving (degrees clockwise from north; blank: leave out)" in asked
    listed = asked.split("Unit (", 1)[0]
    assert "p-foot-1  Hollis's Foot" in listed and "p-horse" not in listed  # not ordered
    assert "Hollis's Foot moves 2.0\" north" in out and code == 1


def test_a_dice_driven_kind_shows_its_odds_first() -> None:
    code, out = play(CARDS, ["3", "1", "1", "n"])
    assert "3. Shoot …" in out
    assert "Target (a number, a name or an id)" in out
    assert "to inflict a hit on Prince of Wales's Regiment of Horse" in out
    assert "Go ahead? (Y/n)" in out
    assert "shoots at" not in out  # declined: no shot made
    assert code == 1


def test_an_answer_that_is_neither_yes_nor_no_rolls_no_dice() -> None:
    """Go ahead? asks again until the answer is y or n (blank: yes): "no way" is no yes."""
    code, out = play(CARDS, ["3", "1", "1", "no way", "maybe", "n"])
    assert "'no way': answer y or n" in out and "'maybe': answer y or n" in out
    assert "shoots at" not in out and code == 1


def test_leaving_is_asked_once_more_and_a_no_goes_on() -> None:
    """q asks whether to leave the battle unfinished: no (or blank) goes back to the
    question; yes leaves, nothing saved."""
    code, out = play(LB, ["q", "n", "3", "q", "", "6", "p-foot-1", "18,12", "", "", "q", "yes"])
    assert out.count("Leave the battle unfinished? Nothing is saved (y/N)") == 3
    assert "Hollis's Foot moves 2.0\" north" in out  # the battle went on after each no
    assert code == 1 and "error: the battle was left unfinished; nothing was saved" in out


def test_a_mistyped_field_is_asked_for_again() -> None:
    """A value that cannot be read is refused and the same field asked again; the rest of
    the action stands (the answers after it are not taken as choices of the menu)."""
    code, out = play(LB, ["3", "6", "p-foot-1", "abc", "18,12", "", ""])
    assert "a point is x,y (like 12,20.5), not 'abc'" in out
    assert out.count("Path (x,y points in inches") == 2
    assert "Hollis's Foot moves 2.0\" north" in out and "no choice" not in out and code == 1


def test_the_header_shows_the_position_once_and_the_buttons_name_the_card() -> None:
    """The words a rule set keeps for its buttons ("the dragoons card") name the card on
    the button, not again in the line that sums up the position."""
    _, out = play(CARDS, [])
    assert "weather fair; active card dragoons\n" in out, out
    assert "card in play" not in out and "1. End the dragoons card's activation" in out


def test_a_battle_left_with_save_is_saved_so_far_and_goes_on_with_resume(tmp_path: Path) -> None:
    """Nothing is lost: leaving (or the input ending) with --save writes the battle so far;
    --resume takes it again, action by action with its own dice, and goes on from there,
    saving back to the same file; the record replays and shows it unfinished."""
    saved = tmp_path / "battle.json"
    code, out = play([*LB, "--save", str(saved)], ["3", "q", "y"])
    assert "Leave the battle unfinished? The battle so far is saved to" in out
    assert code == 0 and "The battle was left unfinished: saved to" in out and "--resume" in out
    first = json.loads(saved.read_text())
    assert first["result"] == {} and first["players"]["parliament"] == "human"
    assert any(step["action"]["type"] == "give_order" for step in first["steps"])
    replayed = runner.invoke(app, ["replay", str(saved)])
    assert replayed.exit_code == 0 and "The battle is unfinished, at turn 1" in replayed.output
    # Resumed: the order given is not asked again; the move is made; the input ends.
    code, out = play(["battle", "--resume", str(saved)], ["6", "p-foot-1", "18,12", "", ""])
    assert "The battle so far is taken again: at turn 1" in out
    assert "Parliament orders Colonel Hollis's command to move" in out  # this turn so far, told
    assert "Hollis's Foot moves 2.0\" north" in out
    assert code == 0 and "the input ended before the battle did: saved to" in out.lower()
    second = json.loads(saved.read_text())
    before = len(first["steps"])
    assert second["steps"][:before] == first["steps"] and len(second["steps"]) > before
    assert runner.invoke(app, ["replay", str(saved)]).exit_code == 0


def test_resume_refuses_what_would_make_it_another_battle(tmp_path: Path) -> None:
    saved = tmp_path / "battle.json"
    play([*LB, "--save", str(saved)], ["q", "y"])
    for extra, word in ((["--scenario", "edgehill"], "--scenario"), (["--seed", "5"], "--seed"),
                        (["--rules", "d3-commands"], "--rules"), (["-o", "x=1"], "--option")):
        code, out = play(["battle", "--resume", str(saved), *extra], [])
        assert code == 1 and f"{word} cannot" in out and "Traceback" not in out, out
    done = tmp_path / "done.json"
    fought = runner.invoke(app, ["battle", "--scenario", "skirmish", "--seed", "4", "--save", str(done)])
    assert fought.exit_code == 0
    code, out = play(["battle", "--resume", str(done)], [])
    assert code == 1 and "the battle is over; nothing to go on with" in out
    tampered = json.loads(saved.read_text())
    tampered["seed"] = 5
    saved.write_text(json.dumps(tampered))
    code, out = play(["battle", "--resume", str(saved)], [])
    assert code in (1, 3) and "Traceback" not in out and len(out.strip().splitlines()) == 1, out


def test_a_kind_no_piece_may_make_is_left_off_the_menu() -> None:
    """The dragoons may shoot and move, so both are listed; none is in contact nor a
    commander at hand, so melee and rally are not (they were listed, then refused)."""
    code, out = play(CARDS, [])
    assert "2. Move …" in out and "3. Shoot …" in out
    assert "Melee …" not in out and "Rally …" not in out and code == 1


def test_bad_answers_are_refused_in_one_line_and_asked_again() -> None:
    code, out = play(LB, ["99", "6", "centre", "march", "q", "y"])
    assert "no choice '99': give a number from 1 to 6" in out
    assert "Move …" not in out  # nothing has been ordered yet
    assert "to: 'march' is not one of move, bombard" in out
    assert code == 1 and "error: the battle was left unfinished; nothing was saved" in out
    _, out = play(LB, ["3", "6", "nobody"])
    assert "no piece is called 'nobody' (tertia inspect lists every piece): give a number from the list, " \
           "a name or an id" in out


def test_a_piece_is_named_as_players_read_it() -> None:
    """A unit may be given by its name, or words only its name has, as ``odds`` takes it."""
    code, out = play(LB, ["3", "6", "hollis", "18,12", "", ""])
    assert "Hollis's Foot moves 2.0\" north" in out and code == 1
    _, out = play(LB, ["3", "6", "Hollis's Foot", "18,12", "", ""])
    assert "Hollis's Foot moves 2.0\" north" in out


def test_human_and_json_do_not_mix() -> None:
    code, out = play([*LB, "--json"], [])
    assert code == 1 and "cannot be combined with --json" in out


def test_a_card_order_is_typed_or_taken_as_dealt() -> None:
    """d3-commands: the order_cards kind, an arrange kind, is asked for by its field."""
    game = Game(get_ruleset("d3-commands"), load_builtin("edgehill"))
    state, _ = game.start(SeededDice(1))
    lines: list[str] = []
    answers = iter(["2", "independent reserve centre left right"])
    player = PromptPlayer(lambda: next(answers, None), lines.append)
    action = player.choose(game, state, None)  # type: ignore[arg-type]
    order = ["independent", "reserve", "centre", "left", "right"]
    assert action.to_dict() == {"type": "order_cards", "order": order}
    assert "  1. Lay the command cards face down in this order" in lines
    assert "  2. Order the command cards …" in lines
    assert any(line.startswith("  Orders: lay your command cards face down") for line in lines)
    assert any("Cards, top first (the cards top first" in line for line in lines)


def test_the_units_listed_say_so_of_a_side_that_shows_none() -> None:
    """Asked for the units while the enemy deploys in secret, a person reads that none of
    its pieces is in sight, not the side's name over an empty list; their own are listed."""
    _, out = play(["battle", "--rules", "charge-yr-pikes", "--scenario", "naseby", "--seed", "3",
                   "--player", "royalist=human"], ["?"])
    assert "Parliament (Sir Thomas Fairfax): none in sight\n" in out, out
    assert "  Royalists (King Charles I):\n    r-king  King Charles I (commander)" in out, out


@pytest.mark.parametrize("rules", ruleset_ids())
def test_the_units_listed_give_the_count_on_a_base_once(rules: str) -> None:
    """Each piece listed by ``?`` gives the count its base shows (hits, figures) beside
    its name, and not again among the facts after it."""
    scenario = load_named(default_scenario(rules), rules_id=rules)
    side = scenario.side_ids[0]
    _, out = play(["battle", "--rules", rules, "--scenario", default_scenario(rules), "--seed", "3",
                   "--player", f"{side}=human"], ["?"])
    listed = [line for line in out.splitlines() if line.startswith("    ") and " at (" in line]
    assert listed, out
    for line in listed:
        counted = re.match(r"\s+\S+  .*? \([^,()]+, ([^()]+)\) at \(", line)
        if counted is not None:
            assert counted.group(1) not in line.split(" facing ", 1)[1], line


def test_help_at_the_menu_says_what_may_be_typed() -> None:
    code, out = play(LB, ["help"])
    assert "give the number of a choice; ? lists the units; q leaves the battle" in out
    assert "no choice 'help'" not in out and code == 1


@pytest.mark.parametrize(("chance", "shown"), [
    (0.0, "0%"), (0.004, "<1%"), (0.25, "25%"), (0.985, "99%"), (0.996, ">99%"), (1.0, "100%")])
def test_a_chance_near_certain_or_impossible_is_not_shown_as_either(chance: float, shown: str) -> None:
    """Before the dice the prompt shows a chance as the page does: only what is certain or
    impossible reads 100% or 0%; a rout of 0.4% reads <1%, not 0%."""
    assert rout_line("Essex's Foot", chance) == f"  Essex's Foot routs: {shown}"


@pytest.mark.parametrize("rules", ruleset_ids())
def test_the_header_tells_an_armys_losses_in_words_not_the_summarys_keys(rules: str) -> None:
    """The line that sums up the position gives no item of the rule set's summary as the
    engine keeps it ("losses counted army_morale"); a rule set that keeps army morale has
    each army's losses told in one line, as ``inspect`` and the page's losses chip give
    them."""
    scenario = load_named(default_scenario(rules), rules_id=rules)
    side = scenario.side_ids[0]
    _, out = play(["battle", "--rules", rules, "--scenario", default_scenario(rules), "--seed", "3",
                   "--player", f"{side}=human"], [])
    header = out.split(" to act\n", 1)[1].split("\n  1. ", 1)[0]
    assert "losses counted" not in header and "losses percent" not in header, header
    assert "_" not in header, header
    game = Game(get_ruleset(rules), scenario)
    keeps_morale = "losses_percent" in game.ruleset.presentation().summary(game.deployed())
    assert ("  Army morale: " in header) is keeps_morale, header
