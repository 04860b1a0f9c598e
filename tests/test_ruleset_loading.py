"""The rule-set registry loads once, whole, however many threads ask for it at once, and
the server has it loaded before it answers anything."""

from __future__ import annotations

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
