"""An example rule set that lives in the tests: a thin slice of Declare Thee Sir
(``example-declare``), built on the shared blocks in ``tertia.rules`` and
``tertia.activation``. Importing :mod:`tests.example_rules.plugin` registers it, so
``TERTIA_RULESETS=tests.example_rules.plugin`` names it to every front end; the tests
register it only while they play it (see ``tests/example_support.py``)."""
