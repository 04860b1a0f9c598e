"""An answer of odds beyond the target and the attacker (:mod:`tertia.analysis.answer`):
every piece touched, each side's units routed and the likeliest outcomes, checked against
the outcomes they are read from, under every registered rule set (the example plugin's
included), so a new rule set is covered without editing this file."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tertia.analysis.answer import LIKELIEST, ROUTS, likeliest
from tertia.analysis.enumerate import ODDS_BUDGET, TooManyBranches
from tertia.analysis.odds import Odds, Outcome, odds
from tertia.analysis.questions import legal_questions, played
from tertia.core.game import Game
from tertia.rulesets import get_ruleset
from tertia.scenarios.catalogue import load_named, written_for
from tests.plugin_rules import every_rule_set

ANSWERS = 6
"""Answers checked a rule set."""
EVERY = 25
"""Actions between the positions questions are asked in."""



pytestmark = pytest.mark.usefixtures("plugins_registered")


def answers(rules: str) -> list[Odds]:
    """Answers to the legal questions of the first scenario written for ``rules``, asked
    every :data:`EVERY` actions into a battle of the doctrine against itself, from its start
    until :data:`ANSWERS` that chance decides are answered (refusals passed over: a cheaper
    budget finds them sooner)."""
    game = Game(get_ruleset(rules), load_named(written_for(rules)[0].name, rules_id=rules))
    found: list[Odds] = []
    for step, state in enumerate(played(game, 1)):
        if step % EVERY or step > EVERY * 12:
            continue
        for q in legal_questions(game, state, targets=1, every=4):
            try:
                answer = odds(game, q.ready, q.action, responses=q.responses, budget=ODDS_BUDGET // 4)
            except TooManyBranches:
                continue
            if len(answer.outcomes) > 1:  # one that chance decides
                found.append(answer)
            if len(found) == ANSWERS:
                return found
    return found


@pytest.mark.parametrize("rules", every_rule_set())
def test_each_piece_and_each_side_agree_with_the_outcomes(rules: str) -> None:
    ruleset = get_ruleset(rules)
    found = answers(rules)
    if not ruleset.ACTION_WORDS:  # a rule set that declares no question has none answered
        assert found == []
        return
    assert found, f"no question of {rules} answered"
    for answer in found:
        pieces = {p.unit: p for p in answer.pieces}
        touched = {uid for o in answer.outcomes for uid in o.effects}
        assert set(pieces) <= touched
        for piece in answer.pieces:
            for dist in piece.counts.values():
                assert sum(dist.values()) == 1
        for who, uid in (("target", answer.target), ("attacker", answer.attacker)):
            piece = pieces.get(uid or "")
            for m in answer.measures:
                if m.kind == "unit_flag":  # read apart from the summary: the two agree
                    told = piece.chances.get(m.key, Fraction(0)) if piece else Fraction(0)
                    assert told == answer.summary[f"{who}_{m.key}_exact"]
            routed = piece.chances.get(ROUTS, Fraction(0)) if piece else Fraction(0)
            assert routed >= answer.summary[f"{who}_routed_exact"]
        for side in answer.sides:
            assert sum(side.units_routed.values()) == 1
            # The mean count of a side's routs is the sum of its pieces' chances to rout.
            mean = sum((n * p for n, p in side.units_routed.items()), Fraction(0))
            assert mean == sum((p.chances.get(ROUTS, Fraction(0)) for p in answer.pieces
                                if p.side == side.side), Fraction(0))
        told = answer.likeliest
        chances = [p for p, _ in told.rows]
        assert chances == sorted(chances, reverse=True) and len(told.rows) <= LIKELIEST
        assert sum(chances, told.others_chance) == 1
        assert len(told.rows) + told.others == len({o.description for o in answer.outcomes})


def _outcome(p: Fraction, words: str) -> Outcome:
    return Outcome(p, {}, words)


def test_the_likeliest_take_outcomes_told_alike_together() -> None:
    outcomes = [_outcome(Fraction(1, 8), "a"), _outcome(Fraction(1, 4), "b"), _outcome(Fraction(1, 8), "a"),
                _outcome(Fraction(1, 8), "c"), _outcome(Fraction(3, 8), "d")]
    told = likeliest(outcomes, limit=2)
    assert told.rows == ((Fraction(3, 8), "d"), (Fraction(1, 4), "a"))
    assert (told.others, told.others_chance) == (2, Fraction(3, 8))
    whole = likeliest(outcomes)
    assert whole.others == 0 and whole.others_chance == 0 and len(whole.rows) == 4
