"""The grouped walk of exact odds gives what the plain walk gives, question for question.

The grouped walk (:mod:`tertia.analysis.enumerate`) walks one branch for each way the
rules' comparisons of the dice go, dice compared together grouped jointly; the plain walk
takes every face of every die on its own. For every rule set in the registry, legal odds
questions are asked (:func:`tertia.analysis.questions.legal_questions`, as the page asks
them) at the start, a third and two thirds through a battle of the doctrine against
itself in each of its built-in scenarios (every few units, under the newer rule sets,
whose battles are long), and each question the plain walk finishes within its budget is
compared: every outcome, with its description, at the very same fraction, and every
summary chance. At least 200 questions are compared in all, some under every rule set,
and on some of them the grouped walk must have done less work, or the comparison shows
nothing. The grouped walk settles apart the steps the rules mark so
(:mod:`tertia.analysis.apart`); a question that settled one is also walked grouped with
every such step walked as it runs, to the very same answer (``tests/test_odds_apart.py``
compares the two where settling saves the most).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import pytest

from tertia.analysis.enumerate import TooManyBranches, WorkMeter
from tertia.analysis.odds import Odds, odds
from tertia.analysis.questions import Question, legal_questions, positions
from tertia.core.game import Game
from tertia.core.violations import IllegalAction
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios import resolve_scenario
from tertia.scenarios.catalogue import written_for

pytestmark = pytest.mark.xdist_group("odds-walks")  # one worker: the battles are played once

GROUPED_BUDGET = 800
"""Work a grouped walk may do here (a question beyond it is left out, as one the plain
walk could not finish anyway)."""
PLAIN_BUDGET = 12_000
"""Work the plain walk may do on one question before the question is left out."""
PER_POSITION = 14
"""Questions asked at most in one position."""
EVERY = {"declare-thee-sir": 3, "charge-yr-pikes": 6}
"""Every how many units questions are asked of, where armies are large."""


@dataclass(frozen=True)
class Compared:
    rules: str
    where: str
    grouped_work: int
    plain_work: int
    settled: int


def _fractions(found: Odds) -> tuple[list[tuple[str, object]], dict[str, object]]:
    outcomes = sorted((o.description, o.probability) for o in found.outcomes)
    exact = {k: v for k, v in found.summary.items() if k.endswith("_exact")}
    return outcomes, exact


def _questions(rules: str) -> Iterator[tuple[Game, Question, str]]:
    for scenario in written_for(rules):
        game = Game(get_ruleset(rules), resolve_scenario(scenario.name, rules_id=rules))
        for state in positions(game, 1):
            for asked, question in enumerate(legal_questions(game, state, every=EVERY.get(rules, 1)), 1):
                yield game, question, f"{scenario.name} step {question.step} {question.word} " \
                    f"{question.unit} at {question.target}"
                if asked == PER_POSITION:
                    break


@cache
def compared(rules: str) -> tuple[Compared, ...]:
    """The questions of ``rules`` both walks answered, each checked equal on the way."""
    found: list[Compared] = []
    for game, question, where in _questions(rules):
        grouped_meter, plain_meter = WorkMeter(), WorkMeter()
        try:
            grouped = odds(game, question.ready, question.action, responses=question.responses,
                           budget=GROUPED_BUDGET, meter=grouped_meter)
            plain = odds(game, question.ready, question.action, responses=question.responses,
                         budget=PLAIN_BUDGET, meter=plain_meter, face_by_face=True)
            unsettled = odds(game, question.ready, question.action, responses=question.responses,
                             budget=PLAIN_BUDGET, apart=False) if grouped_meter.settled else grouped
        except (TooManyBranches, IllegalAction):
            continue
        assert _fractions(grouped) == _fractions(plain) == _fractions(unsettled), where
        found.append(Compared(rules, where, grouped_meter.work, plain_meter.work, grouped_meter.settled))
    return tuple(found)


@pytest.mark.parametrize("rules", ruleset_ids())
def test_the_grouped_walk_answers_as_the_plain_walk_does(rules: str) -> None:
    found = compared(rules)
    assert found, f"no question of {rules} was answered by both walks"


def test_two_hundred_questions_are_compared_and_grouping_saves_work_on_some() -> None:
    found = [c for rules in ruleset_ids() for c in compared(rules)]
    assert len(found) >= 200
    assert any(c.grouped_work < c.plain_work for c in found)
