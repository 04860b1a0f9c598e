"""A small d3-commands battle for the page's browser test of a charge's odds, offered by a
server started with ``TERTIA_RULESETS=tests.d3_page_scenarios`` (as a plugin's own battles
would be): ``d3-test-charge``, a horse regiment 5" from a regiment of foot."""

from __future__ import annotations

from pathlib import Path

from tertia.rulesets.d3_commands import D3Commands

HERE = Path(__file__).resolve().parent / "scenarios"

D3Commands.SCENARIO_FILES = {**D3Commands.SCENARIO_FILES, "d3-test-charge": str(HERE / "d3_charge.toml")}
