"""The registry of rule sets by engine id."""

from __future__ import annotations

from typing import Any

from tertia.core.ruleset import RuleSet


def _registry() -> dict[str, type[RuleSet]]:
    from tertia.rulesets.d3_cards import D3Cards
    from tertia.rulesets.d3_commands import D3Commands
    from tertia.rulesets.larger_battles import LargerBattles

    return {cls.id: cls for cls in (LargerBattles, D3Commands, D3Cards)}


def ruleset_ids() -> list[str]:
    return list(_registry())


def get_ruleset(ruleset_id: str, **options: Any) -> RuleSet:
    """Build a rule set by id with options; raises ValueError naming the known ids."""
    registry = _registry()
    if ruleset_id not in registry:
        raise ValueError(f"unknown rule set {ruleset_id!r}; known: {', '.join(registry)}")
    return registry[ruleset_id](**options)
