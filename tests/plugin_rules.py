"""The rule sets from plugins that the whole-battle tests play beside the shipped ones: the
conformance playouts (``tests/test_conformance.py``) and the golden transcripts
(``tests/golden.py``) cover every registered rule set on every scenario of the catalogue
written for it (:mod:`tertia.scenarios.catalogue`), so a plugin's rule set is played on
the battles it ships as a shipped one is on the built-ins.

The example rule set (``tests/example_rules``) is registered here as
``TERTIA_RULESETS=tests.example_rules.plugin`` registers it, but only while cases are
listed and battles fought: the other tests list the registered rule sets when they are
collected, and expect the shipped ones alone."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from tertia.core.ruleset import RuleSet
from tertia.rulesets import registered, ruleset_ids
from tests.example_rules.ruleset import ExampleDeclare

PLUGINS: tuple[type[RuleSet], ...] = (ExampleDeclare,)


@contextmanager
def with_plugins() -> Iterator[None]:
    """The :data:`PLUGINS` registered for the length of a ``with`` block (left as they are
    when already registered, as by ``TERTIA_RULESETS``)."""
    with ExitStack() as stack:
        for cls in PLUGINS:
            stack.enter_context(registered(cls))
        yield


def every_rule_set() -> list[str]:
    """Every registered rule set's id, the :data:`PLUGINS`' among them: the cases of a test
    run over the whole registry (whose tests ask for the ``plugins_registered`` fixture,
    so that the plugins are registered while they run)."""
    with with_plugins():
        return list(ruleset_ids())
