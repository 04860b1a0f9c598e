"""The import contracts of ``docs/architecture.md``, as ``pyproject.toml`` states them for
import-linter (``[tool.importlinter]``, checked by ``make lint`` with ``lint-imports``): the
layers, rule-set-blind front ends, rule sets apart from each other, and no import cycle in
any rule set. Each holds on the sources, and each breaks when an import it forbids is
added, counting imports made inside functions."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter import configuration
from importlinter.application.use_cases import read_user_options
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract
from importlinter.domain.contract import Contract

from tertia.rulesets import get_ruleset, ruleset_ids

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
TYPES: dict[str, type[Contract]] = {
    "layers": LayersContract, "forbidden": ForbiddenContract,
    "independence": IndependenceContract, "acyclic_siblings": AcyclicSiblingsContract,
}


@cache
def _options() -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    configuration.configure()
    options = read_user_options(config_filename=str(PYPROJECT))
    return options.session_options, {c["id"]: c for c in options.contracts_options}


@cache
def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("tertia", cache_dir=None)


def contract(contract_id: str) -> Contract:
    settings, contracts = _options()
    found = contracts[contract_id]
    return TYPES[found["type"]](name=found["name"], session_options=settings, contract_options=found)


def broken_by(contract_id: str, *imports: tuple[str, str]) -> str | None:
    """Why the contract is broken once ``imports`` (importer, imported) are added to the
    sources' imports; None while it holds."""
    graph = copy.deepcopy(_graph())
    for importer, imported in imports:
        graph.add_import(importer=importer, imported=imported, line_number=1,
                         line_contents=f"import {imported}")
    check = contract(contract_id).check(graph, verbose=False)
    return None if check.kept else f"{contract_id}: {check.metadata}"


def test_the_contracts_are_the_ones_documented() -> None:
    assert set(_options()[1]) == {"layers", "rule-set-blind", "rule-sets-apart", "d3-family", "no-cycles"}


@pytest.mark.parametrize("contract_id", sorted(_options()[1]))
def test_the_sources_keep_the_contract(contract_id: str) -> None:
    assert broken_by(contract_id) is None


LEAKS = [
    ("layers", ("tertia.core.state", "tertia.rulesets.larger_battles.events")),
    ("layers", ("tertia.activation.deck", "tertia.ai.moves")),
    ("layers", ("tertia.ai.moves", "tertia.rulesets.larger_battles.events")),
    ("layers", ("tertia.io.report", "tertia.analysis.odds")),
    ("layers", ("tertia.analysis.odds", "tertia.io.narrative")),
    ("layers", ("tertia.scenarios", "tertia.web.games")),
    ("rule-set-blind", ("tertia.io.record", "tertia.rulesets.d3.base")),
    ("rule-set-blind", ("tertia.web.games", "tertia.rules.hits")),
    ("rule-set-blind", ("tertia.cli.common", "tertia.rules.hit_values")),
    ("rule-sets-apart", ("tertia.rulesets.larger_battles.combat", "tertia.rulesets.declare_thee_sir.data")),
    ("d3-family", ("tertia.rulesets.d3.base", "tertia.rulesets.d3_cards.commanders")),
    ("d3-family", ("tertia.rulesets.d3_cards.melee", "tertia.rulesets.d3_commands.organisation")),
    ("no-cycles", ("tertia.rulesets.charge_yr_pikes.concealment", "tertia.rulesets.charge_yr_pikes.ruleset")),
]


@pytest.mark.parametrize(("contract_id", "leak"), LEAKS,
                         ids=lambda v: v if isinstance(v, str) else "->".join(v))
def test_a_forbidden_import_breaks_the_contract(contract_id: str, leak: tuple[str, str]) -> None:
    assert broken_by(contract_id, leak) is not None


def test_an_import_inside_a_function_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cycle contract sees an import made only inside a function, as the one that
    tied eight Charge yr Pikes! modules into a cycle was."""
    package = tmp_path / "cyclic" / "rulesets" / "one"
    package.mkdir(parents=True)
    for folder in (tmp_path / "cyclic", tmp_path / "cyclic" / "rulesets", package):
        (folder / "__init__.py").write_text("")
    (package / "a.py").write_text("from cyclic.rulesets.one import b\n")
    (package / "b.py").write_text("def later() -> None:\n    from cyclic.rulesets.one import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("cyclic", cache_dir=None)
    assert graph.direct_import_exists(importer="cyclic.rulesets.one.b", imported="cyclic.rulesets.one.a")
    options = {**_options()[1]["no-cycles"], "ancestors": ["cyclic.rulesets"]}
    cycles = AcyclicSiblingsContract(name="cycles", session_options={"root_packages": ["cyclic"]},
                                     contract_options=options)
    assert not cycles.check(graph, verbose=False).kept



SHIPPED = [r for r in ruleset_ids() if type(get_ruleset(r)).__module__.startswith("tertia.rulesets.")]


@pytest.mark.parametrize("rules", SHIPPED)
def test_a_rule_sets_players_live_in_its_own_package(rules: str) -> None:
    """A rule set's ``AI`` declaration names players in its own package's ``ai``;
    ``tertia.ai`` holds only what every player shares."""
    ruleset = get_ruleset(rules)
    package = ".".join(type(ruleset).__module__.split(".")[:3])
    spec = ruleset.AI
    assert spec is not None and spec.doctrine is not None
    for reference in (spec.proposer, spec.doctrine):
        assert reference.startswith(f"{package}.ai."), f"{reference} is not in {package}.ai"


CLI_MODULES = sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "tertia" / "cli").glob("*.py")
                     if p.stem != "__init__")


@pytest.mark.parametrize("module", CLI_MODULES)
def test_each_command_module_imports_first(module: str) -> None:
    """A command module imported before any other (as a plugin might) finds every name it
    needs: no command module takes a name from another one."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", f"import tertia.cli.{module}"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-600:]
