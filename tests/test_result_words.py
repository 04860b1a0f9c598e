"""Words a reader meets in every rule set's results and narrative, over the registry (the
example plugin's rule set included): the report's results table heads each item of the
breakdown as its rule set words it, a side's note is told with its verb agreeing with
the side's name, a modifier never says its value twice, and the card in play is named
alike in the position in brief and on the button that ends its activation.

The recorded wording (notes, modifiers, results) is read from the golden transcripts, so
what is checked is what the rule sets write."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from html import unescape
from typing import Any

import pytest

from tertia.ai.doctrine import BaselinePlayer
from tertia.battle import BattleAborted, fight_battle
from tertia.core import events as ev
from tertia.core.actions import EndPhase
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.narration import default_side_name, plural_verb
from tertia.io.narrative import Narrator
from tertia.io.report import Shown, _result_section
from tertia.offers import describe
from tertia.rules.fighting import AttackResolved, told_modifier
from tertia.rulesets import get_ruleset
from tertia.scenarios.catalogue import load_named, written_for
from tests.golden import golden_cases
from tests.plugin_rules import every_rule_set, with_plugins

RULES = every_rule_set()


pytestmark = pytest.mark.usefixtures("plugins_registered")


def _recorded(rules: str) -> Iterator[dict[str, Any]]:
    """Every event and result the rule set's golden transcripts hold, as recorded."""
    for case in golden_cases():
        if case.rules != rules:
            continue
        for line in case.path.read_text(encoding="utf-8").splitlines():
            if line.startswith("  {"):
                yield json.loads(line)
            elif line.startswith("result "):
                yield {"type": "result", **json.loads(line.removeprefix("result "))}


def _game(rules: str) -> Game:
    return Game(get_ruleset(rules), load_named(written_for(rules)[0].name, rules_id=rules))


# --- the results table ----------------------------------------------------------------------


def _headings(rules: str, result: dict[str, Any]) -> list[str]:
    """The column headings of the report's results table for ``result`` on the rule set's
    first battle."""
    game = _game(rules)
    state = game.ruleset.initial_state(game.scenario)
    final = state.evolve(result={k: v for k, v in result.items() if k != "type"})
    names = {s: default_side_name(s) for s in state.sides}
    html = _result_section(state, final, [], names, {}, Shown(game.table, final, game.ruleset.presentation()))
    head = html[html.index("<thead>"):html.index("</thead>")]
    rows = re.findall(r"<tr>(.*?)</tr>", head)
    return [unescape(h) for h in re.findall(r'<th scope="col">([^<]*)</th>', rows[-1])]


@pytest.mark.parametrize("rules", RULES)
def test_the_results_table_heads_each_item_of_the_breakdown_as_its_rule_set_words_it(rules: str) -> None:
    """Each item of a recorded result's breakdown by side heads its column in the rule set's
    words where it gives them, else as its key in words; every word the rule set gives is
    for an item its results hold."""
    shows = get_ruleset(rules).presentation()
    results = [e for e in _recorded(rules) if e["type"] == "result"]
    assert results
    given: set[str] = set()
    for result in results:
        breakdown = result.get("breakdown") or {}
        sides = [s for s in result["score"] if isinstance(breakdown.get(s), dict)]
        items = list(dict.fromkeys(k for side in sides for k in breakdown[side]))
        given |= set(items)
        expected = [shows.BREAKDOWN_LABELS.get(k) or k.replace("_", " ").capitalize() for k in items]
        assert _headings(rules, result)[:len(items)] == expected
    assert set(shows.BREAKDOWN_LABELS) <= given, set(shows.BREAKDOWN_LABELS) - given


def test_larger_battles_commanders_lost_reads_as_the_points_it_costs_not_a_count() -> None:
    """How to Win: "Subtract 2 points for each commander lost" (4 for the general): the
    breakdown's ``commanders_lost`` is that deduction, -2 for one commander, and its column
    says so beside the count of commanders lost under Losses."""
    result = {"winner": "royalist", "reason": "", "score": {"parliament": -2, "royalist": 1},
              "breakdown": {side: {"routed_enemy_units": int(side == "royalist"), "supplies_attacked": 0,
                                   "commanders_lost": -2 * (side == "parliament"),
                                   "enemy_reduced_by_half": 0, "objectives_taken": 0}
                            for side in ("parliament", "royalist")}}
    headings = _headings("larger-battles", result)
    assert headings == ["For enemy units routed", "For enemy supplies attacked", "For commanders lost",
                        "For the enemy reduced by half", "For objectives taken", "Troops", "Commanders"]
    game = _game("larger-battles")
    state = game.ruleset.initial_state(game.scenario)
    html = _result_section(state, state.evolve(result=result), [], {}, {},
                           Shown(game.table, state, game.ruleset.presentation()))
    assert ">Victory points by source (How to Win)</th>" in html
    assert ">Commanders lost<" not in html


# --- a side's notes -------------------------------------------------------------------------


SINGULAR, PLURAL = "Parliament (Earl of Essex)", "Royalists (King Charles I)"


@pytest.mark.parametrize(("note", "told"), [
    ("parliament win the initiative (D3 (2022): Sequence of Play, initiative)",
     "Parliament wins the initiative (D3 [2022]: Sequence of Play, initiative)"),
    ("royalist win the initiative (D3 (2022): Sequence of Play, initiative)",
     "Royalists win the initiative (D3 [2022]: Sequence of Play, initiative)"),
    ("parliament turn over their right command card", "Parliament turns over its right command card"),
    ("royalist turn over their right command card", "Royalists turn over their right command card"),
    ("parliament deploy first in every step (D3 (2022): Deployment)",
     "Parliament deploys first in every step (D3 [2022]: Deployment)"),
    # no verb of a side's after it: the side's name stands as a word of the note
    ("parliament artillery card drawn", "Parliament artillery card drawn"),
    ("initiative: parliament", "initiative: Parliament"),
])
def test_a_note_a_side_opens_is_told_with_its_verb_agreeing_with_the_sides_name(note: str, told: str) -> None:
    get_ruleset("d3-commands")  # its notes' verbs are declared where it writes them
    narrator = Narrator(side_names={"parliament": SINGULAR, "royalist": PLURAL})
    assert narrator.line(ev.Narrated(text=note)) == told


def test_every_recorded_note_opening_with_a_side_agrees_with_a_singular_name_and_a_plural_one() -> None:
    """Every rule set of the registry: each note its battles record that opens with a side
    and the side's verb (written in the plural) is told "Parliament wins ...", "Royalists
    win ..."; d3-commands writes such notes (the initiative, the card turned over)."""
    found: dict[str, int] = {}
    for rules in RULES:
        for e in _recorded(rules):
            if e["type"] != "narrated":
                continue
            side, _, rest = e["text"].partition(" ")
            if side not in ("parliament", "royalist"):
                continue
            verb = rest.split(" ")[0]
            for name in (SINGULAR, PLURAL):
                line = Narrator(side_names={side: name}).line(ev.Narrated(text=e["text"]))
                assert line is not None
                told = line.removeprefix(name.split(" (")[0] + " ").split(" ")[0]
                if name == PLURAL:
                    assert told == verb, (rules, line)
                else:
                    assert plural_verb(told) == verb and " their " not in line.split(" (")[0], (rules, line)
            found[rules] = found.get(rules, 0) + 1
    assert found.get("d3-commands", 0) > 0, found


# --- modifiers ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_no_recorded_modifier_is_told_saying_its_value_twice(rules: str) -> None:
    """A modifier whose reason is the die its value makes ("-1 D3-1 for dragoons", the D3
    for dragoons, commanded shot and artillery being D3-1) is told by that die alone; any
    other keeps its value before its reason."""
    attacks = [e for e in _recorded(rules) if e["type"] == "attack_resolved"]
    for e in attacks:
        for modifier in (*e["modifiers"], *e["defender_modifiers"]):
            told = told_modifier(modifier)
            assert not re.match(r"[+-]\d+ D\d+[+-]\d+ ", told), (rules, told)
            assert told == modifier or modifier.endswith(" " + told)


def test_a_dragoons_shot_is_told_with_its_d3_minus_one_plainly() -> None:
    shot = AttackResolved(kind="shooting", attacker="a", target="t", supports=(), attacker_score=1,
                          defender_score=0, modifiers=("-1 D3-1 for dragoons", "-1 target in cover (hedge)"),
                          defender_modifiers=(),
                          summary="Usher's Dragoons shoot at Essex's Foot: D3 3-2, 1 hit")
    assert Narrator(labels={"a": "Usher's Dragoons", "t": "Essex's Foot"}).line(shot) == (
        "Usher's Dragoons shoot at Essex's Foot: D3 3-2, 1 hit "
        "(D3-1 for dragoons, -1 target in cover [hedge])")


# --- the card in play -----------------------------------------------------------------------


def _positions(rules: str) -> tuple[Game, list[Any]]:
    """The rule set's first battle's positions over its first 80 actions."""
    game = _game(rules)
    seen: list[Any] = []
    with contextlib.suppress(BattleAborted):
        fight_battle(game, {s: BaselinePlayer() for s in game.scenario.side_ids}, 1,
                     on_step=lambda step: seen.append(step.state), max_actions=80)
    return game, seen


def _card_in_brief() -> list[str]:
    """The rule sets whose position in brief gives the card in play (``active_card``)."""
    with with_plugins():
        return [rules for rules in RULES if "active_card" in get_ruleset(rules).presentation().summary(
            _game(rules).start(SeededDice(1))[0])]


@pytest.mark.parametrize("rules", _card_in_brief())
def test_the_card_in_play_is_named_in_the_summary_as_its_button_names_it(rules: str) -> None:
    """Where a rule set's position in brief gives the card in play (``active_card``, the
    D3 rule sets), it names that card in ``card_names`` as the button ending its
    activation does: d3-commands' "right" is the "right flank" in both."""
    game, states = _positions(rules)
    presentation = game.ruleset.presentation()
    summaries = [(state, presentation.summary(state)) for state in states]
    shown = [(state, summary) for state, summary in summaries if summary.get("active_card")]
    assert shown, f"no card in play in {rules}' first 80 actions"
    cards: dict[str, str] = {}
    for state, summary in shown:
        card = summary["active_card"]
        cards[card] = summary["card_names"][card]
        assert describe(game.ruleset, state, EndPhase()) == f"End the {cards[card]} card's activation"
    if rules == "d3-commands":
        assert cards["right"] == "right flank" and cards["centre"] == "centre", cards
