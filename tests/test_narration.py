"""A rule set tells its own events through ``core.narration.tells``, without an edit to
the narrator; a second sentence for one event type is refused."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import pytest

from tertia.ai.players import make_player
from tertia.ai.random_player import RandomPlayer
from tertia.battle import fight_battle
from tertia.core.dice import SeededDice
from tertia.core.events import DiceRolled, Event, GameStarted, UnitMoved, UnitRemoved
from tertia.core.game import Game
from tertia.core.narration import SENTENCES, Narrating, Sentence, humanise, plural, possessive, tells
from tertia.io.narrative import Narrator
from tertia.rulesets import get_ruleset
from tertia.rulesets.larger_battles.events import OrderGiven, SupplyRaided
from tertia.scenarios import load_builtin
from tertia.scenarios.catalogue import default_scenario, load_named


@dataclass(frozen=True, slots=True)
class ColoursTaken(Event):
    type: ClassVar[str] = "test_colours_taken"
    unit: str
    by: str


@tells(ColoursTaken)
def colours_taken(n: Narrating, e: ColoursTaken, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.by)} takes the colours of {n.label(e.unit)}", "loss"


def test_a_rule_sets_sentence_is_told_by_the_narrator() -> None:
    narrator = Narrator(labels={"a": "Essex's Foot", "b": "Rupert's Horse"})
    assert narrator.line(ColoursTaken(unit="a", by="b")) == "Rupert's Horse takes the colours of Essex's Foot"


@dataclass(frozen=True, slots=True)
class Untold(Event):
    type: ClassVar[str] = "test_untold"
    unit: str


def test_an_event_without_a_sentence_is_told_plainly() -> None:
    """Its type, then each field in words (an identifier's underscores as spaces)."""
    assert Narrator().line(Untold(unit="a")) == "Test untold: unit a"
    assert Narrator().line(Untold(unit="the_mill")) == "Test untold: unit the mill"


def test_a_second_sentence_for_one_event_is_refused() -> None:
    with pytest.raises(TypeError, match="'test_colours_taken' already has a sentence"):
        @tells(ColoursTaken)
        def again(n: Narrating, e: ColoursTaken, dice: Sequence[DiceRolled]) -> Sentence:
            return "again", "loss"
    assert SENTENCES[ColoursTaken] is colours_taken


def test_larger_battles_tells_its_own_events_from_its_package() -> None:
    assert SENTENCES[OrderGiven].__module__ == SENTENCES[SupplyRaided].__module__ == \
        "tertia.rulesets.larger_battles.events"


def test_the_words_sentences_share() -> None:
    assert (humanise("charge_home"), plural(1, "hit"), plural(3, "hit")) == ("charge home", "1 hit", "3 hits")
    assert (possessive("Royalists"), possessive("Parliament")) == ("Royalists'", "Parliament's")
    assert possessive("Colonel Hollis", person=True) == "Colonel Hollis's"  # as in "Hollis's Foot"


@pytest.mark.parametrize(("reason", "told"), [
    ("routed", "Essex's Foot is routed and leaves the field (1 hit)"),
    ("pursued", "Essex's Foot pursues off the field (1 hit)"),
    ("routed off", "Essex's Foot routs off the table (1 hit)"),
    ("fallen", "Essex's Foot falls (1 hit)"),
    ("plundering", "Essex's Foot rides off to plunder (1 hit)"),
    ("gone home", "Essex's Foot leaves the field (gone home) (1 hit)"),
])
def test_a_piece_leaving_the_field_is_told_by_why(reason: str, told: str) -> None:
    """A pursuer is not told as one pursued: each reason a rule set gives has its own
    verb; one without leaves the field, the reason named."""
    narrator = Narrator(labels={"a": "Essex's Foot"})
    assert narrator.line(UnitRemoved(unit="a", reason=reason, detail=plural(1, "hit"))) == told


def test_a_piece_that_does_not_move_stays_where_he_or_it_is() -> None:
    """A commander is told as "he", any other piece as "it"."""
    game = Game(get_ruleset("larger-battles"), load_builtin("skirmish"))
    state = game.ruleset.initial_state(game.scenario)
    narrator = Narrator(state)
    for unit in (next(u for u in state.units.values() if u.is_commander),
                 next(u for u in state.units.values() if not u.is_commander)):
        still = ((unit.x, unit.y), (unit.x, unit.y))
        told = narrator.line(UnitMoved(unit=unit.id, path=still, facing=unit.facing))
        assert told == f"{unit.label} stays where {'he' if unit.is_commander else 'it'} is", told


@pytest.mark.parametrize(("reason", "commander", "piece"), [
    ("with its unit", "goes with his unit", "goes with its unit"),
    ("falls back with its unit", "falls back with his unit", "falls back with its unit"),
    ("falls back", "falls back", "falls back"),
    ("rides off to plunder", "rides off to plunder", "rides off to plunder"),
    ("swept along in the rout", "is swept along in the rout", "is swept along in the rout"),
    ("pursuit: a move forward", "moves forward in the pursuit", "moves forward in the pursuit"),
    ("pushed back by artillery", "is pushed back by artillery", "is pushed back by artillery"),
    ("pushed back in melee", "is pushed back in melee", "is pushed back in melee"),
    ("cohesion", "closes up on his command", "closes up on its command"),
    ("deployed", "deploys", "deploys"),
    ("an unforeseen reason", "moves (an unforeseen reason)", "moves (an unforeseen reason)"),
])
def test_a_move_is_told_by_its_reason_as_a_verb(reason: str, commander: str, piece: str) -> None:
    """A move's reason is its verb ("falls back", "goes with his unit"), a commander's own
    told as "his"; a reason with no verb of its own follows "moves" in brackets."""
    game = Game(get_ruleset("larger-battles"), load_builtin("skirmish"))
    state = game.ruleset.initial_state(game.scenario)
    narrator = Narrator(state)
    for unit, verb in ((next(u for u in state.units.values() if u.is_commander), commander),
                       (next(u for u in state.units.values() if not u.is_commander), piece)):
        path = ((unit.x, unit.y), (unit.x, unit.y + 4.0))
        told = narrator.line(UnitMoved(unit=unit.id, path=path, facing=unit.facing, reason=reason))
        assert told == f'{unit.label} {verb} 4.0" north', told


def test_a_piece_named_in_the_plural_falls_back() -> None:
    narrator = Narrator(labels={"d": "Okey's Dragoons"})
    told = narrator.line(UnitMoved(unit="d", path=((0.0, 0.0), (0.0, 3.0)), facing=0.0, reason="falls back"))
    assert told == "Okey's Dragoons fall back 3.0\" north, facing north", told


def test_a_d3_cards_turn_is_headed_before_its_first_card_is_drawn() -> None:
    """D3 cards: "the ten cards ... drawn one at a time"; when every card has been drawn
    the deck is shuffled for the next turn, whose cards are drawn until one finds a side
    to act. Each turn's heading comes before its first card, so under each heading are
    its own ten cards, acted on or turned idle."""
    game = Game(get_ruleset("d3-cards"), load_builtin("chalgrove"))
    record = fight_battle(game, {s: make_player("baseline") for s in game.scenario.side_ids}, 7)
    lines = Narrator.for_rules(game.ruleset, record.deployed).lines(record.iter_events())
    headings = [i for i, line in enumerate(lines) if line.startswith("Turn ")]
    assert len(headings) == record.final_state.turn
    assert not any("draw a card" in line for line in lines[:headings[0]])
    cards = [sum(1 for line in lines[a:b] if re.search(r"card drawn$|card: nothing to activate$", line))
             for a, b in zip(headings, [*headings[1:], len(lines)], strict=True)]
    assert cards[:-1] == [10] * (len(cards) - 1) and 0 < cards[-1] <= 10, cards


@pytest.mark.parametrize("rules", ["larger-battles", "d3-commands", "d3-cards", "declare-thee-sir",
                                   "charge-yr-pikes"])
def test_the_battles_start_names_who_moves_first_only_where_a_side_does(rules: str) -> None:
    """Where both sides' cards are shuffled into one deck (Declare Thee Sir, Charge yr
    Pikes!) the deck decides who acts, and the start names no side as moving first."""
    game = Game(get_ruleset(rules), load_named(default_scenario(rules), rules_id=rules))
    dice, rng = SeededDice(3), random.Random(3)
    state, events = game.start(dice)
    told_all = list(events)
    while not any(isinstance(e, GameStarted) for e in told_all):  # after a deployment, under some
        state, more = game.apply(state, RandomPlayer().choose(game, state, rng), dice)
        told_all += more
    told = [line for line in Narrator.for_rules(game.ruleset, game.deployed()).lines(told_all)
            if line.startswith("The battle begins")]
    assert len(told) == 1
    names_a_side = told[0] != "The battle begins."
    assert names_a_side == game.ruleset.presentation().FIRST_MOVER == (rules not in ("declare-thee-sir",
                                                                                     "charge-yr-pikes"))
