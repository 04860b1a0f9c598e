"""Rule sets register by id: a new one from its own module, never two under one id."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tertia.rulesets import register_ruleset, registered, ruleset_class, ruleset_ids
from tertia.rulesets.larger_battles import LargerBattles


def test_the_shipped_rule_sets_are_registered() -> None:
    assert {"larger-battles", "d3-commands", "d3-cards"} <= set(ruleset_ids())
    assert ruleset_class("larger-battles") is LargerBattles


def test_a_second_rule_set_under_a_taken_id_is_refused() -> None:
    class Impostor(LargerBattles):
        pass

    with pytest.raises(ValueError, match=r"'larger-battles' is taken by .*LargerBattles"):
        register_ruleset(Impostor)
    assert ruleset_class("larger-battles") is LargerBattles
    assert register_ruleset(LargerBattles) is LargerBattles  # the same class again is fine


def test_an_unknown_id_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown rule set 'nope'; known: larger-battles"):
        ruleset_class("nope")


def test_a_plugin_module_named_in_the_environment_is_loaded() -> None:
    code = "from tertia.rulesets import ruleset_ids; print(ruleset_ids())"
    env_missing = {"TERTIA_RULESETS": "no_such_module_anywhere", "PATH": ""}
    # -B: with an environment of its own, nothing would keep its bytecode out of the sources
    failed = subprocess.run([sys.executable, "-B", "-c", code], capture_output=True, text=True,
                            env={**env_missing, "TERTIA_PURE_PYTHON": "1"})
    assert failed.returncode != 0
    assert "TERTIA_RULESETS: cannot import 'no_such_module_anywhere'" in failed.stderr


def test_a_rule_set_registered_for_a_while_goes_away_again() -> None:
    class Visiting(LargerBattles):
        id = "visiting-rules"

    with registered(Visiting):
        assert ruleset_class("visiting-rules") is Visiting
    assert "visiting-rules" not in ruleset_ids()

    class Impostor(LargerBattles):
        pass

    with pytest.raises(ValueError, match="is taken"), registered(Impostor):
        pass
    assert ruleset_class("larger-battles") is LargerBattles
