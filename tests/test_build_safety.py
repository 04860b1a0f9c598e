"""The modules compiled with mypyc never get hold of a die value.

Exact odds (:mod:`tertia.analysis.enumerate`) hand the rules die values that note how
their own Python operators are used. Code compiled with mypyc compares and adds such a
value as a plain C integer without calling them, so a compiled module that got hold of a
die value would silently spoil the odds. Die values come from one place, the ``roll`` of
the dice, reached by the rules through ``Tx.roll`` (and ``roll_off`` and
``roll_until_decided``). The rule checked here, by reading the source of every module in
``COMPILED_MODULES`` (``tertia/_build.py``):

1. It imports nothing from ``tertia.core.dice``, in any form: the module itself
   (``import tertia.core.dice``, ``from tertia.core import dice``, relative imports), any
   name in it, also when another module passes that name on (``Dice`` through
   ``tertia.core.ruleset``), also for annotations only.
2. It never rolls: it uses no attribute named ``roll``, ``roll_off`` or
   ``roll_until_decided``, on whatever object, nor ``DiceRolled``, the event that records
   a die value. Holding a ``Tx`` to emit events through and read the state from, and so
   importing ``Tx`` from ``tertia.core.ruleset``, is allowed: a ``Tx`` hands out die values
   only through those methods.
3. It uses no function of a plain module that gets die values and returns something,
   which may be the die value itself. A function gets die values when it rolls, or calls
   by name a function that does and returns something. One that rolls and returns
   nothing (``-> None``) reads its dice in plain Python and is safe to call
   (``retire_commander``, whose misfortune die decides in plain Python whether the
   commander is lost).

What reading the sources cannot see is a die value that plain code passes *into*
compiled code, as an argument, in an event or in the state. ``tests/test_odds_builds.py``
covers that: the exact odds of the compiled build and of the plain sources must agree.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

from tertia import _build

ROOT = Path(_build.__file__).resolve().parent.parent
DICE = "tertia.core.dice"
ROLLING_METHODS = frozenset({"roll", "roll_off", "roll_until_decided"})
DIE_EVENT = "DiceRolled"


def _under(dotted: str, module: str) -> bool:
    return dotted == module or dotted.startswith(module + ".")


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class _Module:
    """One module's parsed source: what its imports bind, and its top-level functions."""

    name: str
    path: str
    tree: ast.Module
    is_package: bool
    imports: list[tuple[int, str]] = field(default_factory=list)  # (line, what is imported)
    names: dict[str, str] = field(default_factory=dict)  # local name -> what it names
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self.imports.append((node.lineno, alias.name))
                    if alias.asname:
                        self.names[alias.asname] = alias.name
                    else:
                        root = alias.name.partition(".")[0]
                        self.names[root] = root
            elif isinstance(node, ast.ImportFrom):
                base = self._absolute(node.level, node.module)
                for alias in node.names:
                    target = f"{base}.{alias.name}" if base else alias.name
                    self.imports.append((node.lineno, target))
                    if alias.name != "*":
                        self.names[alias.asname or alias.name] = target
        for node in self.tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.functions[node.name] = node

    def _absolute(self, level: int, module: str | None) -> str:
        if level == 0:
            return module or ""
        parts = self.name.split(".") if self.is_package else self.name.split(".")[:-1]
        parts = parts[: len(parts) - (level - 1)]
        return ".".join([*parts, *([module] if module else [])])

    def dotted(self, node: ast.expr) -> str | None:
        """What ``a.b.c`` names, when ``a`` was bound by an import (else None)."""
        attrs: list[str] = []
        while isinstance(node, ast.Attribute):
            attrs.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.names:
            return None
        return ".".join([self.names[node.id], *reversed(attrs)])


def disk_source(module: str) -> tuple[str, str, bool] | None:
    """(path, source, is a package) of a module in this tree, or None."""
    stem = ROOT / Path(*module.split("."))
    for path, is_package in ((stem.with_suffix(".py"), False), (stem / "__init__.py", True)):
        if path.is_file():
            return str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"), is_package
    return None


@cache
def _disk_module(name: str) -> _Module | None:
    """A module of this tree read and parsed once a test run (it is only ever read)."""
    found = disk_source(name)
    return None if found is None else _Module(name, found[0], ast.parse(found[1], found[0]), found[2])


class Checker:
    """Reads modules (from disk, or from ``extra`` sources standing in for modules) and
    reports what breaks the rule in the module docstring."""

    def __init__(self, extra: Mapping[str, str] | None = None) -> None:
        self.extra = dict(extra or {})
        self._modules: dict[str, _Module | None] = {}
        self._rolls: dict[tuple[str, str], bool] = {}

    def module(self, name: str) -> _Module | None:
        if name not in self._modules:
            if name in self.extra:
                path = name.replace(".", "/") + ".py"
                self._modules[name] = _Module(name, path, ast.parse(self.extra[name], path), False)
            elif name.startswith("tertia.") or name == "tertia":
                self._modules[name] = _disk_module(name)
            else:
                self._modules[name] = None
        return self._modules[name]

    def origin(self, dotted: str, depth: int = 0) -> str:
        """Where ``module.name`` really comes from: a name a module imported is followed."""
        module, _, name = dotted.rpartition(".")
        parsed = self.module(module) if module and depth < 20 and not _under(dotted, DICE) else None
        if parsed is None or name not in parsed.names or name in parsed.functions:
            return dotted
        return self.origin(parsed.names[name], depth + 1)

    def rolls(self, module: str, function: str) -> bool:
        """Whether a top-level function gets die values: it rolls, or calls by name a
        function (of its own module or imported) that hands them out."""
        key = (module, function)
        if key not in self._rolls:
            self._rolls[key] = False  # a call back into a function being read adds nothing
            parsed = self.module(module)
            assert parsed is not None
            self._rolls[key] = any(
                self._call_rolls(parsed, node.func)
                for node in ast.walk(parsed.functions[function]) if isinstance(node, ast.Call)
            )
        return self._rolls[key]

    def _call_rolls(self, parsed: _Module, func: ast.expr) -> bool:
        if isinstance(func, ast.Attribute) and func.attr in ROLLING_METHODS:
            return True
        if isinstance(func, ast.Name) and func.id in parsed.functions:
            dotted: str | None = f"{parsed.name}.{func.id}"
        else:
            dotted = parsed.dotted(func)
        return dotted is not None and self.hands_out_dice(self.origin(dotted)) is not None

    def hands_out_dice(self, dotted: str) -> str | None:
        """For a function of a plain module that gets die values (:meth:`rolls`) and
        returns something: what it returns (as annotated). None for anything else."""
        module, _, name = dotted.rpartition(".")
        if module in _build.COMPILED_MODULES:
            return None  # compiled modules are held to the rule itself: they never roll
        parsed = self.module(module) if module else None
        if parsed is None or name not in parsed.functions or not self.rolls(module, name):
            return None
        returns = parsed.functions[name].returns
        if isinstance(returns, ast.Constant) and returns.value is None:
            return None
        return "an unannotated value" if returns is None else ast.unparse(returns)

    def check(self, name: str) -> list[Finding]:
        parsed = self.module(name)
        assert parsed is not None, f"no source for {name}"
        found: dict[tuple[int, str], None] = {}

        def flag(line: int, message: str) -> None:
            found[(line, message)] = None

        def judge(line: int, dotted: str, verb: str) -> None:
            real = self.origin(dotted)
            if _under(real, DICE):
                via = "" if real == dotted else f" (as {dotted})"
                flag(line, f"{verb} {real} from the dice module{via}" if real != DICE
                     else f"{verb} the dice module {DICE}{via}")
            elif real.rpartition(".")[2] == DIE_EVENT:
                flag(line, f"{verb} {real}, the event that records a die value")
            elif (returns := self.hands_out_dice(real)) is not None:
                flag(line, f"{verb} {real}, which rolls dice and returns {returns}")

        for line, target in parsed.imports:
            judge(line, target.removesuffix(".*"), "imports")
        inner = {id(n.value) for n in ast.walk(parsed.tree) if isinstance(n, ast.Attribute)}
        for node in ast.walk(parsed.tree):
            if isinstance(node, ast.Attribute):
                if node.attr in ROLLING_METHODS:
                    flag(node.lineno, f"uses .{node.attr}, which rolls dice and returns what they show")
                if id(node) not in inner and (dotted := parsed.dotted(node)) is not None:
                    judge(node.lineno, dotted, "uses")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _under(node.value, DICE):
                flag(node.lineno, f"names the dice module in a string ({node.value!r})")
        return [Finding(parsed.path, line, message) for line, message in sorted(found)]


@pytest.mark.parametrize("module", _build.COMPILED_MODULES)
def test_compiled_module_gets_no_die_values(module: str) -> None:
    findings = Checker().check(module)
    assert not findings, (
        f"{module} is compiled with mypyc (tertia/_build.py) but could get hold of die values, "
        "which exact odds must see in plain Python; move that code to a plain module:\n"
        + "\n".join(map(str, findings))
    )


# --- the checker flags what it should ------------------------------------------------------

PLAIN = "tertia.fake_rules"
"""A plain module standing in for rules that roll dice, for the cases below."""

PLAIN_SOURCE = """
from tertia.core.dice import D6
from tertia.core.ruleset import Tx


def roll_hits(tx: Tx) -> int:
    return tx.roll(D6, "hits")


def double_hits(tx: Tx) -> int:
    return 2 * roll_hits(tx)


def test_nerve(tx: Tx) -> None:
    if roll_hits(tx) == 1:
        tx.state = tx.state


def hits_needed() -> int:
    return 4
"""

CASES: list[tuple[str, str, list[tuple[int, str]]]] = [
    ("from a name", "from tertia.core.dice import D6\n",
     [(1, "imports tertia.core.dice.D6 from the dice module")]),
    ("the module from its package", "import os\nfrom tertia.core import dice\n",
     [(2, "imports the dice module tertia.core.dice")]),
    ("the module", "import tertia.core.dice as d\n", [(1, "imports the dice module tertia.core.dice")]),
    ("relatively", "from .dice import Dice\n", [(1, "imports tertia.core.dice.Dice from the dice module")]),
    ("for annotations only",
     "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tertia.core.dice import Dice\n",
     [(3, "imports tertia.core.dice.Dice from the dice module")]),
    ("passed on by another module", "from tertia.core.ruleset import Dice\n",
     [(1, "imports tertia.core.dice.Dice from the dice module (as tertia.core.ruleset.Dice)")]),
    ("through a package", "import tertia.core\n\nx = tertia.core.dice.D6\n",
     [(3, "uses tertia.core.dice.D6 from the dice module")]),
    ("by its name", "import importlib\nm = importlib.import_module('tertia.core.dice')\n",
     [(2, "names the dice module in a string ('tertia.core.dice')")]),
    ("a roll through a Tx",
     "from tertia.core.ruleset import Tx\n\ndef f(tx: Tx) -> int:\n    return tx.roll_off('x') == 'a'\n",
     [(4, "uses .roll_off, which rolls dice and returns what they show")]),
    ("the dice event", "from tertia.core import events as ev\n\nE = ev.DiceRolled\n",
     [(3, "uses tertia.core.events.DiceRolled, the event that records a die value")]),
    ("a function that rolls", f"from {PLAIN} import roll_hits, hits_needed, test_nerve\n",
     [(1, f"imports {PLAIN}.roll_hits, which rolls dice and returns int")]),
    ("a function that rolls through another", f"import {PLAIN} as rules\n\nn = rules.double_hits\n",
     [(3, f"uses {PLAIN}.double_hits, which rolls dice and returns int")]),
]


@pytest.mark.parametrize(("source", "expected"), [(s, e) for _, s, e in CASES], ids=[c[0] for c in CASES])
def test_the_check_flags_each_way_to_die_values(source: str, expected: list[tuple[int, str]]) -> None:
    checker = Checker({"tertia.core.compiled_example": source, PLAIN: PLAIN_SOURCE})
    findings = checker.check("tertia.core.compiled_example")
    assert [(f.line, f.message) for f in findings] == expected
    assert all(f.path == "tertia/core/compiled_example.py" for f in findings)


def test_the_check_allows_a_tx_and_functions_that_roll_and_return_nothing() -> None:
    source = f"""
from tertia.core.events import Narrated
from tertia.core.ruleset import Tx
from {PLAIN} import hits_needed, test_nerve


def resolve(tx: Tx) -> None:
    tx.emit(Narrated(text="steady"))
    test_nerve(tx)
    if tx.state.turn > hits_needed():
        tx.emit(Narrated(text="late"))
"""
    checker = Checker({"tertia.core.compiled_example": source, PLAIN: PLAIN_SOURCE})
    assert checker.check("tertia.core.compiled_example") == []
    assert checker.rolls(PLAIN, "test_nerve") and not checker.rolls(PLAIN, "hits_needed")


def test_the_check_reads_the_rules_that_roll() -> None:
    """On the real rule sets the check finds functions that roll and return what they
    decided, and functions that roll and return nothing (not only in the cases above)."""
    checker = Checker()
    returns: set[bool] = set()
    for path in sorted((ROOT / "tertia" / "rulesets").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        parsed = checker.module(module)
        assert parsed is not None
        for name in parsed.functions:
            if module not in _build.COMPILED_MODULES and checker.rolls(module, name):
                returns.add(checker.hands_out_dice(f"{module}.{name}") is not None)
    assert returns == {True, False}
