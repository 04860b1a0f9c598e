"""Charge yr Pikes!' vocabulary for front ends: every action it plays is declared, with
its decision and panel, and the declarations agree with each other."""

from __future__ import annotations

from dataclasses import fields

from tertia.core.actions import Action
from tertia.core.vocabulary import vocabulary_problems
from tertia.rulesets.charge_yr_pikes import actions
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes


def test_the_declarations_agree() -> None:
    r = ChargeYrPikes
    assert vocabulary_problems(r.ACTION_KINDS, r.DECISION_KINDS, r.PANELS) == []


def test_every_action_of_the_rule_set_is_declared_with_its_fields() -> None:
    declared = {k.type: k for k in ChargeYrPikes.ACTION_KINDS}
    own = [c for c in vars(actions).values()
           if isinstance(c, type) and issubclass(c, Action) and c is not Action]
    assert own
    for cls in own:
        kind = declared[cls.type]
        assert {f.name for f in kind.fields} == {f.name for f in fields(cls)}, cls.type
    assert {"move", "end_phase"} <= set(declared)
