"""The rule-set registry loads once, whole, however many threads ask for it at once, and
the server has it loaded before it answers anything."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import tertia.rulesets as registry
from tertia.core.ruleset import RuleSet
from tertia.web.app import create_app

SHIPPED = {"larger-battles", "d3-commands", "d3-cards", "declare-thee-sir", "charge-yr-pikes"}


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty registry not yet loaded, as in a process just started (the shipped rule
    sets' modules are imported already, so each registration is slowed to open the window
    a slow first import leaves); the real registry comes back afterwards."""
    monkeypatch.setattr(registry, "_REGISTRY", {})
    monkeypatch.setattr(registry, "_loaded", False)
    real = registry.register_ruleset

    def slow(cls: type[RuleSet]) -> type[RuleSet]:
        time.sleep(0.05)
        return real(cls)

    monkeypatch.setattr(registry, "register_ruleset", slow)


@pytest.mark.usefixtures("fresh_registry")
def test_threads_asking_while_the_registry_loads_see_it_whole() -> None:
    threads = 12
    start = threading.Barrier(threads)
    seen: list[set[str]] = []
    found: list[str] = []
    failures: list[str] = []

    def ask(n: int) -> None:
        start.wait()
        try:
            if n % 2:
                seen.append(set(registry.ruleset_ids()))
            else:
                found.append(registry.ruleset_class("charge-yr-pikes").id)
        except ValueError as exc:
            failures.append(str(exc))

    workers = [threading.Thread(target=ask, args=(n,)) for n in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=30)
    assert failures == []
    assert len(seen) == threads // 2 and all(ids >= SHIPPED for ids in seen)
    assert found == ["charge-yr-pikes"] * (threads // 2)


@pytest.mark.usefixtures("fresh_registry")
def test_a_failed_load_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(registry.PLUGINS_VARIABLE, "no_such_module_anywhere")
    with pytest.raises(ValueError, match="cannot import 'no_such_module_anywhere'"):
        registry.ruleset_ids()
    with pytest.raises(ValueError, match="cannot import 'no_such_module_anywhere'"):
        registry.ruleset_class("larger-battles")
    monkeypatch.delenv(registry.PLUGINS_VARIABLE)
    assert set(registry.ruleset_ids()) >= SHIPPED


@pytest.mark.usefixtures("fresh_registry")
def test_the_server_loads_the_registry_before_it_serves(tmp_path: Path) -> None:
    create_app(tmp_path / "games.sqlite3")
    # Read without asking the registry to load: the app must have done it already.
    assert registry._loaded
    assert set(registry._REGISTRY) >= SHIPPED


# --- shipped rule sets imported when first played ------------------------------------------


def test_what_the_registry_says_of_a_shipped_rule_set_before_importing_it_is_its_class_s() -> None:
    for ruleset_id, shipped in registry.SHIPPED.items():
        cls = shipped.load()
        assert cls.id == ruleset_id
        assert shipped.scenario_top_level == cls.SCENARIO_TOP_LEVEL
        assert dict(shipped.scenario_files) == dict(cls.SCENARIO_FILES)
        assert shipped.extension == (cls.SCENARIO_EXTENSION is not None)
        assert getattr(importlib.import_module(registry.manifest(ruleset_id).module), shipped.name) is cls


@pytest.mark.parametrize("rules", sorted(SHIPPED))
def test_a_battle_under_one_rule_set_imports_no_other(rules: str) -> None:
    """``tertia battle --rules X`` (its scenario read and checked, the battle fought) and
    a simulation's game import X's package alone of the shipped rule sets."""
    script = (
        "import sys\n"
        "from tertia.cli.main import app\n"
        f"sys.argv = ['tertia', 'battle', '--rules', {rules!r}, '--seed', '1', '--json']\n"
        "try:\n"
        "    app()\n"
        "except SystemExit:\n"
        "    pass\n"
        "packages = sorted(m for m in sys.modules\n"
        "                  if m.startswith('tertia.rulesets.') and m.count('.') == 2)\n"
        "print(packages, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "TERTIA_PURE_PYTHON": "1"})
    imported = ast.literal_eval(done.stderr.strip().splitlines()[-1])
    package = registry.SHIPPED[rules].module
    expected = {package, "tertia.rulesets.d3"} if package.startswith("tertia.rulesets.d3_") else {package}
    assert set(imported) == expected, done.stderr[-2000:]


def test_a_plugin_may_not_take_a_shipped_id_even_before_that_rule_set_is_imported(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry.SHIPPED))

    class Impostor(RuleSet):
        id = "charge-yr-pikes"

    with pytest.raises(ValueError, match=r"taken by tertia\.rulesets\.charge_yr_pikes\.ChargeYrPikes"):
        registry.register_ruleset(Impostor)
    assert registry._REGISTRY["charge-yr-pikes"] is registry.SHIPPED["charge-yr-pikes"]
