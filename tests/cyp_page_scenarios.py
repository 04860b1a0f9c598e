"""Two small Charge yr Pikes! battles for the page's browser tests, offered by a server
started with ``TERTIA_RULESETS=tests.cyp_page_scenarios`` (a module named there is imported
when the rule sets are first listed): they join the rule set's shipped scenarios in that
server only, as a plugin's own battles would.

- ``cyp-test-reveal``: a Royalist gun in a wood, seen only from within 6";
- ``cyp-test-victory``: the Parliament horse on their three objectives from the start, so
  Parliament wins as the first turn ends (the pursuit, then the degree of victory).
"""

from __future__ import annotations

from pathlib import Path

from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes

HERE = Path(__file__).resolve().parent / "scenarios"
SCENARIOS = {"cyp-test-reveal": HERE / "cyp_reveal.toml", "cyp-test-victory": HERE / "cyp_victory.toml"}

ChargeYrPikes.SCENARIO_FILES = {**ChargeYrPikes.SCENARIO_FILES, **{k: str(v) for k, v in SCENARIOS.items()}}
