"""The layers of ``docs/architecture.md``: each imports only from the layers above it, so
the core stays neutral and a rule set stays in its own package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "tertia"

LAYERS = ("core", "shared", "rulesets", "ai", "analysis", "io", "front")
"""From the top: a module may import from its own layer and those before it."""

PACKAGE_LAYER = {
    "core": "core", "rules": "shared", "activation": "shared", "rulesets": "rulesets",
    "ai": "ai", "battle": "ai", "offers": "ai", "analysis": "analysis", "io": "io",
    "scenarios": "io", "cli": "front", "web": "front",
}
"""Where each top-level package or module of ``tertia`` sits."""

MODULE_LAYER = {"tertia.io.files": "core"}
"""Modules placed apart from their package: writing a file whole or not at all is a
utility of the standard library's kind, which simulations use as much as reports."""

REGISTRY = "tertia.rulesets"
"""The registry, which names the shipped rule sets."""

RULE_SET_FAMILIES = {"d3_commands": {"d3"}, "d3_cards": {"d3"}}
"""Rule-set packages that build on a shared family package."""


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "tertia" or len(parts) < 2:
        return None
    for name, layer in MODULE_LAYER.items():
        if module == name or module.startswith(name + "."):
            return layer
    return PACKAGE_LAYER.get(parts[1])


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found.extend((node.lineno, f"{node.module}.{a.name}") for a in node.names)
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, a.name) for a in node.names)
    return found


def problems(path: Path) -> list[str]:
    module = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts).removesuffix(".__init__")
    own = layer_of(module)
    if own is None:
        return []
    out = []
    for line, name in imports_of(path):
        theirs = layer_of(name)
        if theirs is None or name.split(".")[:2] == module.split(".")[:2]:
            continue
        if LAYERS.index(theirs) > LAYERS.index(own):
            out.append(f"{module}:{line} ({own}) imports {name} ({theirs})")
    parts = module.split(".")
    if own == "rulesets" and len(parts) > 2 and module != REGISTRY:
        allowed = {parts[2], *RULE_SET_FAMILIES.get(parts[2], ())}
        for line, name in imports_of(path):
            other = name.split(".")
            if other[:2] == ["tertia", "rulesets"] and len(other) > 2 and other[2] not in allowed:
                out.append(f"{module}:{line} imports another rule set's {name}")
    return out


SOURCES = sorted(p for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_package_has_a_layer() -> None:
    tops = {p.relative_to(ROOT).parts[0].removesuffix(".py") for p in SOURCES}
    assert tops - set(PACKAGE_LAYER) - {"__init__", "__main__", "_build", "_version"} == set()


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_module_imports_only_from_its_layer_and_above(path: Path) -> None:
    assert problems(path) == []


RULE_SET_BLIND = ("analysis", "io", "cli", "web")
"""Packages that serve every rule set alike: they reach one only through the registry and
what it declares (its vocabulary, sentences, table markers ...), never its modules."""


def rule_set_imports(path: Path) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{line} imports {name}" for line, name in imports_of(path)
            if name.startswith(REGISTRY + ".") and name.split(".")[2][:1].islower()
            and (ROOT / "rulesets" / name.split(".")[2]).is_dir()]


@pytest.mark.parametrize("package", RULE_SET_BLIND)
def test_front_ends_and_reports_name_no_rule_set(package: str) -> None:
    found = [p for path in sorted((ROOT / package).rglob("*.py")) for p in rule_set_imports(path)]
    assert found == []


def test_the_rule_set_check_can_fail(tmp_path: Path) -> None:
    leak = tmp_path / "leak.py"
    leak.write_text("from tertia.rulesets.larger_battles.events import supplies_of\n"
                    "from tertia.rulesets import get_ruleset\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        (tmp_path / "rulesets" / "larger_battles").mkdir(parents=True)
        assert [p.split(" imports ")[1] for p in rule_set_imports(leak)] == [
            "tertia.rulesets.larger_battles.events", "tertia.rulesets.larger_battles.events.supplies_of"]
    finally:
        ROOT = saved


def test_the_check_can_fail(tmp_path: Path) -> None:
    core = tmp_path / "tertia" / "core"
    core.mkdir(parents=True)
    bad = core / "leak.py"
    bad.write_text("from tertia.rulesets.larger_battles.actions import GiveOrder\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path / "tertia"
    try:
        assert problems(bad) == [
            "tertia.core.leak:1 (core) imports tertia.rulesets.larger_battles.actions (rulesets)",
            "tertia.core.leak:1 (core) imports tertia.rulesets.larger_battles.actions.GiveOrder (rulesets)",
        ]
    finally:
        ROOT = saved
