"""Declare Thee Sir declares every action its rules recognise, with the fields each needs,
and its declaration as a decision with its answer (the checks every registered rule set
passes, run on this one before it is registered)."""

from __future__ import annotations

from dataclasses import MISSING, fields

from tertia.core.actions import ACTION_TYPES
from tertia.core.vocabulary import vocabulary_problems

from .dts_support import P, R, activated, dts_game, unit
from .test_vocabulary import recognised


def test_every_action_validate_recognises_is_declared_and_nothing_else() -> None:
    game = dts_game([unit("pf", P, "foot", 20, 6), unit("rf", R, "foot", 20, 14, 180)])
    state = activated(game, "pf", "advance", {"open": 4, "difficult": 2})
    assert {k.type for k in game.ruleset.ACTION_KINDS} == recognised(game, state)


def test_the_declarations_agree_with_each_other_and_with_the_actions() -> None:
    ruleset = dts_game([]).ruleset
    assert vocabulary_problems(ruleset.ACTION_KINDS, ruleset.DECISION_KINDS, ruleset.PANELS) == []
    for kind in ruleset.ACTION_KINDS:
        cls = ACTION_TYPES[kind.type]
        required = {f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING}
        assert required <= {f.name for f in kind.fields} <= {f.name for f in fields(cls)}, kind.type
        assert kind.rule.startswith("Declare Thee Sir: "), kind.rule
    declare = ruleset.action_kind(ruleset.DECISION_KINDS[0].answer)
    assert declare is not None and declare.decision == "declare"
