"""Importing this registers the example rule set (``TERTIA_RULESETS=tests.example_rules.plugin``)."""

from tertia.rulesets import register_ruleset
from tests.example_rules.ruleset import ExampleDeclare

register_ruleset(ExampleDeclare)
