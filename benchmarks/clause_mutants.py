"""A mutation run over the code each row of a rule set's clause table cites.

A clause-table row (``docs/rulesets/<id>.md``) names where a clause is implemented and the
tests that pin it. This script makes small changes (mutants) to the code a row cites and
runs only that row's tests against each: a mutant the tests still pass on *survived*, and
shows a change to the clause those tests cannot see.

For each row it reads the "Where implemented" column's backticked references:

- ``module:function``, ``module:Class.method``, ``module:Class``, ``module:CONSTANT``:
  a module of ``tertia/rulesets/<package>/`` (or of its sub-packages); a dotted module
  (``rules.morale:DECLARE_FOOT``, ``web.games:asked_of``) or a path (``core/scenario.py:...``)
  is one of ``tertia/``;
- ``module`` alone (a module of the rule set's package that the row names no part of):
  the whole module;
- ``tables.toml [section] key``: the numbers of that key (or of the whole section and its
  sub-sections when no key is named); ``tables.toml`` alone is data left unmutated;
- anything else (an option's name, a JavaScript file) is noted and left alone.

Mutants of a function, class, constant or module (its annotations and docstrings aside):
comparison flips (``<``/``<=``, ``>``/``>=``, ``==``/``!=``, ``in``/``not in``,
``is``/``is not``), ``and``/``or``, ``+``/``-``, ``*``/``/``, ``//`` to ``*``, numbers
plus and minus one, ``True``/``False``, ``not x`` to ``x``, ``-x`` to ``x``,
``min``/``max``, ``return x`` to ``return None``, and a call, augmented assignment,
``raise``, ``break`` or ``continue`` made ``pass``. Of those, at most ``--per-function``
are tried for each reference, spread evenly over it in a fixed order (the first N of a
run with a larger N are the N of a run with a smaller, so a larger run reuses a smaller
one's results). A TOML number is mutated plus and minus one.

Each mutant is written into a private copy of the checkout (``--workdir``: never the
checkout being worked in; ``git worktree add /tmp/mut HEAD`` makes one), the row's tests
are run there (``pytest -x -q -p no:xdist -p no:cacheprovider FILE::TEST ...``, a time
limit per mutant; a timeout counts as killed) and the file is restored. The row's tests
are first run on the unmutated code: a row whose tests fail there is reported and not
mutated. Results are kept, one JSON line each, in ``--cache`` (default
``<workdir>/.clause-mutants-<id>.jsonl``); ``--resume`` reuses them. A result is kept by
the mutant (the file and the statement changed, so an edit elsewhere in the file keeps it)
and the names of the row's tests: after a cited test is edited, run without ``--resume``
(or with a fresh ``--cache``) for the result to see the edit. ``--stop-at HH:MM``
starts no mutant after that time (local clock); what was not run is reported so.

Judgements of surviving mutants (an equivalent mutant, no change in behaviour, or a real
gap) are read from ``--judged`` (default ``docs/rulesets/mutants-<id>.toml``)::

    [[mutant]]
    id = "3f2a9c1d0b7e"         # as the report prints it
    verdict = "equivalent"       # or "gap"
    why = "..."
    fixed = "..."                # optional: how a gap was closed since the run

The report (``--out``, default ``docs/rulesets/mutants-<id>.md``) gives for each row the
references, mutants tried, killed and survived, with each survivor's ``file:line`` and
change; a summary is printed.

Usage: python benchmarks/clause_mutants.py --rules charge-yr-pikes --workdir /tmp/mut
       [--rows 1,2,5-9] [--per-function 8] [--timeout 60] [--jobs 1] [--resume]
       [--stop-at 15:30] [--list] [--report-only]
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import copy
import datetime
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
"""The checkout this script belongs to: reports are written here, mutants never are."""

PYTEST = ["-m", "pytest", "-x", "-q", "-p", "no:xdist", "-p", "no:cacheprovider"]


# --- The clause table ---------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    number: int
    clause: str
    where: str
    tests: tuple[str, ...]


def parse_rows(markdown: str) -> list[Row]:
    """The rows of every clause table in a rule set's page, in order.

    >>> text = "| # | Clause | Where implemented | Test | Interpretation |\\n|---|---|---|---|---|\\n"
    >>> text += "| 3 | A | `cards:deal` | `test_x.py::test_y`, `test_x.py::test_z` | none |\\n"
    >>> [(r.number, r.where, r.tests) for r in parse_rows(text)]
    [(3, '`cards:deal`', ('tests/test_x.py::test_y', 'tests/test_x.py::test_z'))]
    """
    rows: list[Row] = []
    in_table = False
    for line in markdown.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| #"):
            in_table = len(cells) >= 5
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        if not in_table or not cells[0].isdigit():
            continue
        # A cell's own "|" would shift the columns; the last is the interpretation.
        number, clause, where, test = cells[0], cells[1], cells[2], cells[3]
        tests = tuple(
            "tests/" + ref for ref in re.findall(r"`([^`]+)`", test) if re.match(r"^[\w/]+\.py::\w", ref)
        )
        rows.append(Row(int(number), clause, where, tests))
    return rows


def select_rows(rows: list[Row], spec: str | None) -> list[Row]:
    """The rows named by ``--rows`` (``1,2,5-9``), all when none are named."""
    if not spec:
        return rows
    wanted: set[int] = set()
    for part in spec.split(","):
        first, _, last = part.strip().partition("-")
        wanted.update(range(int(first), int(last or first) + 1))
    return [row for row in rows if row.number in wanted]


# --- What a row cites ---------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A reference resolved: a Python definition (or module), or a TOML table's numbers."""

    ref: str
    path: str  # relative to the checkout
    name: str | None  # dotted name in the module; None for the whole module or a TOML section
    section: str | None = None
    key: str | None = None


@dataclass
class Resolution:
    targets: list[Target] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _module_path(root: Path, package: str, module: str) -> str | None:
    """The file of ``module`` as a row writes it, relative to the checkout."""
    base = root / "tertia" / "rulesets" / package
    if module.endswith(".py") or "/" in module:
        candidates = [root / "tertia" / module]
    else:
        dotted = module.replace(".", "/") + ".py"
        candidates = [base / dotted, *sorted(base.glob(f"*/{dotted}")), root / "tertia" / dotted]
        if "." in module:
            candidates.append(root / "tertia" / module.replace(".", "/") / "__init__.py")
    for candidate in candidates:
        if candidate.is_file():
            return str(candidate.relative_to(root))
    return None


def resolve(row: Row, root: Path, package: str) -> Resolution:
    found = Resolution()
    refs = re.findall(r"`([^`]+)`", row.where)
    named_modules = {ref.split(":", 1)[0] for ref in refs if ":" in ref}
    for ref in refs:
        toml = re.match(r"^(\S+\.toml)\s*(?:\[([^\]]+)\](?:\s+(\w+))?)?$", ref.strip())
        if toml:
            path = f"tertia/rulesets/{package}/{toml.group(1)}"
            if toml.group(2) and (root / path).is_file():
                found.targets.append(Target(ref.strip(), path, None, toml.group(2), toml.group(3)))
            else:
                found.notes.append(f"`{ref.strip()}`: data, not mutated")
            continue
        if ":" in ref:
            module, name = ref.split(":", 1)
            if not re.match(r"^[A-Za-z_][\w.]*$", name):
                found.notes.append(f"`{ref}`: not a Python name, left alone")
                continue
            module_file = _module_path(root, package, module)
            if module_file is None or not module_file.endswith(".py"):
                found.notes.append(f"`{ref}`: no Python module found, left alone")
                continue
            found.targets.append(Target(ref, module_file, name))
            continue
        if re.match(r"^[a-z_][\w.]*$", ref) and ref not in named_modules:
            module_file = _module_path(root, package, ref)
            if module_file is not None:
                found.targets.append(Target(ref, module_file, None))
                continue
        # An option's name, a class of the engine, a script of the page: not code of the row's.
    return found


# --- Mutants --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    key: str  # from the file's name and the statement changed, before and after: edits elsewhere keep it
    path: str
    line: int
    change: str
    text: str  # the whole file, mutated
    legacy: str = ""  # the key of the whole file mutated (the first runs' results are kept by it)


_COMPARE_SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_BINOP_SWAP: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Mult,
}
_SYMBOL: dict[type[ast.AST], str] = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+",
    ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.And: "and", ast.Or: "or",
}

Edit = Callable[[ast.AST], None]
"""Changes, in place, the node a site was found at (in a copy of the tree)."""


@dataclass(frozen=True)
class Site:
    line: int
    change: str
    edit: Edit


def _is_docstring(node: ast.AST) -> bool:
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str))


def _children(node: ast.AST) -> Iterator[ast.AST]:
    """Child nodes in a fixed order, annotations, decorators and docstrings left out."""
    for name, value in ast.iter_fields(node):
        if name in ("annotation", "returns", "decorator_list", "type_comment", "type_params"):
            continue
        items = value if isinstance(value, list) else [value]
        for index, item in enumerate(items):
            if not isinstance(item, ast.AST):
                continue
            if name == "body" and index == 0 and _is_docstring(item):
                continue
            yield item


def walk(node: ast.AST) -> Iterator[ast.AST]:
    yield node
    for child in _children(node):
        yield from walk(child)


def _pass_edit(parent_field: str, index: int) -> Edit:
    def edit(parent: ast.AST) -> None:
        body = getattr(parent, parent_field)
        body[index] = ast.copy_location(ast.Pass(), body[index])
    return edit


def sites_of(node: ast.AST) -> Iterator[tuple[int, Site]]:
    """(node's position in ``walk``, site) for every mutation of a node's code."""
    for position, item in enumerate(walk(node)):
        line = getattr(item, "lineno", 0)
        if isinstance(item, ast.Compare):
            for i, op in enumerate(item.ops):
                swap = _COMPARE_SWAP.get(type(op))
                if swap:
                    def edit(n: ast.AST, i: int = i, swap: type[ast.cmpop] = swap) -> None:
                        assert isinstance(n, ast.Compare)
                        n.ops[i] = swap()
                    yield position, Site(line, f"`{_SYMBOL[type(op)]}` → `{_SYMBOL[swap]}`", edit)
        elif isinstance(item, ast.BoolOp):
            other: type[ast.boolop] = ast.Or if isinstance(item.op, ast.And) else ast.And

            def bool_edit(n: ast.AST, other: type[ast.boolop] = other) -> None:
                assert isinstance(n, ast.BoolOp)
                n.op = other()
            yield position, Site(line, f"`{_SYMBOL[type(item.op)]}` → `{_SYMBOL[other]}`", bool_edit)
        elif isinstance(item, ast.BinOp | ast.AugAssign) and type(item.op) in _BINOP_SWAP:
            swapped = _BINOP_SWAP[type(item.op)]

            def op_edit(n: ast.AST, swapped: type[ast.operator] = swapped) -> None:
                assert isinstance(n, ast.BinOp | ast.AugAssign)
                n.op = swapped()
            suffix = "=" if isinstance(item, ast.AugAssign) else ""
            yield position, Site(
                line, f"`{_SYMBOL[type(item.op)]}{suffix}` → `{_SYMBOL[swapped]}{suffix}`", op_edit)
        elif isinstance(item, ast.Constant):
            value = item.value
            if isinstance(value, bool):
                def bool_const(n: ast.AST) -> None:
                    assert isinstance(n, ast.Constant)
                    n.value = not n.value
                yield position, Site(line, f"`{value}` → `{not value}`", bool_const)
            elif isinstance(value, int | float):
                for delta in (1, -1):
                    def number(n: ast.AST, delta: int = delta) -> None:
                        assert isinstance(n, ast.Constant) and isinstance(n.value, int | float)
                        n.value = n.value + delta
                    yield position, Site(line, f"`{value!r}` → `{value + delta!r}`", number)
        elif isinstance(item, ast.UnaryOp) and isinstance(item.op, ast.Not | ast.USub):
            symbol = "not " if isinstance(item.op, ast.Not) else "-"
            # Replacing the node itself needs its parent: the edit marks it, ``_apply`` unwraps.
            yield position, Site(line, f"`{symbol}x` → `x`", _unwrap_edit)
        elif (isinstance(item, ast.Call) and isinstance(item.func, ast.Name)
              and item.func.id in ("min", "max")):
            other_name = "max" if item.func.id == "min" else "min"

            def call_edit(n: ast.AST, other_name: str = other_name) -> None:
                assert isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                n.func.id = other_name
            yield position, Site(line, f"`{item.func.id}(...)` → `{other_name}(...)`", call_edit)
        elif isinstance(item, ast.Return) and item.value is not None and not (
                isinstance(item.value, ast.Constant) and item.value.value is None):
            def return_edit(n: ast.AST) -> None:
                assert isinstance(n, ast.Return)
                n.value = ast.Constant(None)
            yield position, Site(line, "`return ...` → `return None`", return_edit)
        for body_field in ("body", "orelse", "finalbody"):
            body = getattr(item, body_field, None)
            if not isinstance(body, list):
                continue
            for index, stmt in enumerate(body):
                if (isinstance(stmt, ast.Expr) and not _is_docstring(stmt)) or isinstance(
                        stmt, ast.AugAssign | ast.Raise | ast.Break | ast.Continue):
                    kind = type(stmt).__name__.lower() if not isinstance(stmt, ast.Expr) else "call"
                    yield position, Site(stmt.lineno, f"{kind} deleted (`pass`)",
                                         _pass_edit(body_field, index))


def _unwrap_edit(n: ast.AST) -> None:
    n._tertia_unwrap = True  # type: ignore[attr-defined]  # read by _Unwrap


class _Unwrap(ast.NodeTransformer):
    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        return node.operand if getattr(node, "_tertia_unwrap", False) else node


def spread(count: int) -> list[int]:
    """Indices 0..count-1 in an order whose every prefix is spread evenly over them.

    >>> spread(8)
    [0, 4, 2, 6, 1, 3, 5, 7]
    >>> spread(5)
    [0, 2, 1, 3, 4]
    """
    order: list[int] = []
    seen: set[int] = set()
    denominator = 1
    while len(order) < count:
        for numerator in range(denominator):
            if denominator > 1 and numerator % 2 == 0:
                continue
            index = numerator * count // denominator
            if index not in seen:
                seen.add(index)
                order.append(index)
        denominator *= 2
        if denominator > 4 * count:
            order.extend(i for i in range(count) if i not in seen)
            break
    return order[:count]


def _find(tree: ast.Module, name: str) -> tuple[ast.stmt, ast.AST] | None:
    """(top-level statement holding it, node) of a dotted name defined in a module."""
    parts = name.split(".")
    for top in tree.body:
        node: ast.AST | None = _named(top, parts[0])
        for part in parts[1:]:
            if node is None:
                break
            node = next((found for child in getattr(node, "body", [])
                         if (found := _named(child, part))), None)
        if node is not None:
            return top, node
    # A method written without its class (``ruleset:_fire`` for ``DeclareTheeSir._fire``).
    for top in tree.body:
        if isinstance(top, ast.ClassDef) and len(parts) == 1:
            method = next((found for child in top.body if (found := _named(child, parts[0]))), None)
            if method is not None:
                return top, method
    return None


def _named(stmt: ast.AST, name: str) -> ast.AST | None:
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and stmt.name == name:
        return stmt
    if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
        return stmt
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
        return stmt
    return None


def _key(path: str, text: str) -> str:
    return hashlib.sha1(f"{path}\0{text}".encode()).hexdigest()[:12]


def python_mutants(root: Path, target: Target, limit: int) -> tuple[list[Mutant], str | None]:
    source = (root / target.path).read_text()
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    if target.name is None:
        # The whole module: each top-level statement in turn holds the sites.
        holders: list[tuple[ast.stmt, ast.AST]] = [(top, top) for top in tree.body if not _is_docstring(top)]
    else:
        found = _find(tree, target.name)
        if found is None:
            return [], f"`{target.ref}`: `{target.name}` not found in {target.path}"
        holders = [found]
    sites: list[tuple[ast.stmt, ast.AST, int, int]] = []
    for top, node in holders:
        for index, (position, _site) in enumerate(sites_of(node)):
            sites.append((top, node, position, index))
    mutants: list[Mutant] = []
    for choice in spread(len(sites))[:limit]:
        top, node, position, index = sites[choice]
        mutated_top = copy.deepcopy(top)
        # The same node in the copy: the same path from the top-level statement.
        path_in_top = next(i for i, n in enumerate(walk(top)) if n is node)
        copy_node = list(walk(mutated_top))[path_in_top]
        site = list(sites_of(copy_node))[index][1]
        target_node = list(walk(copy_node))[position]
        site.edit(target_node)
        mutated_top = _Unwrap().visit(mutated_top)
        ast.fix_missing_locations(mutated_top)
        start = min([top.lineno, *(d.lineno for d in getattr(top, "decorator_list", []))]) - 1
        end = top.end_lineno or top.lineno
        text = "".join(lines[:start]) + ast.unparse(mutated_top) + "\n" + "".join(lines[end:])
        try:
            compile(text, target.path, "exec")
        except SyntaxError:
            continue
        # Kept by the definition cited (a method, not its whole class), before and after.
        key = _key(target.path, f"{ast.get_source_segment(source, node)}\0{ast.unparse(copy_node)}")
        mutants.append(Mutant(key, target.path, site.line, site.change, text, _key(target.path, text)))
    return mutants, None


_NUMBER = re.compile(r"(?<![\w.\"'])(-?\d+(?:\.\d+)?)(?![\w.\"'])")


def toml_mutants(root: Path, target: Target, limit: int) -> tuple[list[Mutant], str | None]:
    source = (root / target.path).read_text()
    lines = source.splitlines(keepends=True)
    section: str | None = None
    places: list[tuple[int, re.Match[str]]] = []
    key: str | None = None
    for number, line in enumerate(lines):
        header = re.match(r"^\s*\[([^\]]+)\]", line)
        if header:
            section = header.group(1).strip()
            key = None
            continue
        assignment = re.match(r"^\s*([\w\"-]+)\s*=", line)
        if assignment:
            key = assignment.group(1).strip('"')
        if section is None or not (section == target.section or section.startswith(f"{target.section}.")):
            continue
        if target.key is not None and key != target.key:
            continue
        code = line.split("#", 1)[0]
        value_start = code.index("=") + 1 if assignment else 0
        for match in _NUMBER.finditer(code, value_start):
            if code.count('"', 0, match.start()) % 2 == 0:
                places.append((number, match))
    if not places:
        return [], f"`{target.ref}`: no numbers found"
    candidates = [(n, m, d) for n, m in places for d in (1, -1)]
    mutants: list[Mutant] = []
    for choice in spread(len(candidates))[:limit]:
        number, match, delta = candidates[choice]
        old = match.group(1)
        new = str(float(old) + delta) if "." in old else str(int(old) + delta)
        line = lines[number][: match.start()] + new + lines[number][match.end():]
        text = "".join(lines[:number]) + line + "".join(lines[number + 1:])
        key = _key(target.path, f"[{target.section}] {lines[number]}\0{line}")
        mutants.append(Mutant(key, target.path, number + 1, f"`{old}` → `{new}`", text,
                              _key(target.path, text)))
    return mutants, None


def mutants_of(root: Path, target: Target, limit: int) -> tuple[list[Mutant], str | None]:
    if target.path.endswith(".toml"):
        return toml_mutants(root, target, limit)
    return python_mutants(root, target, limit)


# --- Running --------------------------------------------------------------------------------


@dataclass
class Outcome:
    status: str  # "killed", "survived", "timeout", "error" (killed: the tests did not pass)
    seconds: float
    detail: str = ""
    output: str = ""


def run_tests(root: Path, tests: Sequence[str], timeout: float, mutant: bool,
              extra: Sequence[str] = ()) -> Outcome:
    """The tests run in a fresh interpreter (the unmutated code's run, and ``--no-fork``)."""
    env = dict(os.environ, TERTIA_PURE_PYTHON="1", PYTHONPATH=str(root))
    if mutant:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, *PYTEST, *extra, *tests], cwd=root, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return Outcome("timeout", time.monotonic() - started, f"over {timeout:g} s")
    except BaseException:
        os.killpg(process.pid, signal.SIGKILL)
        raise
    return _outcome(process.returncode, output, time.monotonic() - started)


def _outcome(returncode: int, output: str, seconds: float) -> Outcome:
    last = [line for line in output.splitlines() if line.strip()]
    summary = next((line for line in reversed(last) if re.search(r"\d+ (passed|failed|error)", line)),
                   last[-1] if last else "")
    if returncode == 0:
        return Outcome("survived", seconds, summary, output)
    failed = next((line for line in last if line.startswith(("FAILED", "ERROR"))), summary)
    status = "killed" if returncode == 1 else "error"
    return Outcome(status, seconds, f"rc {returncode}: {failed}"[:300], output)


PRELOADED = ("numpy", "shapely", "shapely.geometry", "pydantic", "hypothesis", "pytest", "typer", "rich",
             "fastapi", "starlette.testclient", "httpx", "matplotlib", "pyarrow", "platformdirs")
"""Third-party modules imported once by the forking runner, so that each mutant's run
imports only Tertia (never imported by this process: each fork imports it afresh)."""


class ForkRunner:
    """Runs a mutant's tests in a fork of this process, pytest and the libraries already imported."""

    def __init__(self, root: Path) -> None:
        self.root = root
        os.environ["TERTIA_PURE_PYTHON"] = "1"
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        os.environ.setdefault("MKL_NUM_THREADS", "1")
        os.environ["PYTHONPATH"] = str(root)
        sys.path.insert(0, str(root))
        assert not any(name == "tertia" or name.startswith("tertia.") for name in sys.modules)
        import importlib

        for name in PRELOADED:
            with contextlib.suppress(ImportError):
                importlib.import_module(name)

    def run(self, tests: Sequence[str], timeout: float, extra: Sequence[str] = ()) -> Outcome:
        import tempfile

        started = time.monotonic()
        with tempfile.TemporaryFile("w+") as log:
            pid = os.fork()
            if pid == 0:  # the child: never returns
                code = 3
                try:
                    os.setsid()
                    os.dup2(log.fileno(), 1)
                    os.dup2(log.fileno(), 2)
                    os.chdir(self.root)
                    sys.dont_write_bytecode = True
                    import pytest

                    code = int(pytest.main([*PYTEST[2:], *extra, *tests]))
                finally:
                    sys.stdout.flush()
                    sys.stderr.flush()
                    os._exit(code)
            try:
                returncode = self._wait(pid, timeout)
            except BaseException:
                _kill_group(pid)
                raise
            if returncode is None:
                return Outcome("timeout", time.monotonic() - started, f"over {timeout:g} s")
            log.seek(0)
            return _outcome(returncode, log.read(), time.monotonic() - started)

    @staticmethod
    def _wait(pid: int, timeout: float) -> int | None:
        deadline = time.monotonic() + timeout
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                _kill_group(pid)  # anything the tests left running
                return os.waitstatus_to_exitcode(status)
            if time.monotonic() >= deadline:
                _kill_group(pid)
                os.waitpid(pid, 0)
                return None
            time.sleep(0.05)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


_DURATION = re.compile(r"^\s*([\d.]+)s (?:setup|call|teardown)\s+(\S+)")


def durations(output: str, tests: Sequence[str]) -> dict[str, float]:
    """Seconds each cited test took, from pytest's ``--durations=0`` lines."""
    found = dict.fromkeys(tests, 0.0)
    for line in output.splitlines():
        match = _DURATION.match(line)
        if match:
            node = match.group(2).split("[", 1)[0]
            for test in tests:
                if node == test or node.endswith("/" + test.split("/", 1)[-1]):
                    found[test] += float(match.group(1))
    return found


def _drop_bytecode(root: Path, path: str) -> None:
    file = root / path
    for cached in (file.parent / "__pycache__").glob(f"{file.stem}.*.pyc"):
        cached.unlink(missing_ok=True)


class Cache:
    def __init__(self, path: Path, resume: bool) -> None:
        self.path = path
        self.entries: dict[str, dict[str, object]] = {}
        if resume and path.exists():
            for line in path.read_text().splitlines():
                if line.strip():
                    entry = json.loads(line)
                    self.entries[str(entry["id"])] = entry
        elif path.exists():
            path.rename(path.with_suffix(".jsonl.old"))  # a fresh run keeps the last one's aside

    def get(self, key: str) -> dict[str, object] | None:
        return self.entries.get(key)

    def put(self, key: str, entry: dict[str, object]) -> None:
        entry = {"id": key, **entry}
        self.entries[key] = entry
        with self.path.open("a") as stream:
            stream.write(json.dumps(entry) + "\n")


def _tests_key(tests: Sequence[str]) -> str:
    return hashlib.sha1("\0".join(tests).encode()).hexdigest()[:8]


# --- The run ---------------------------------------------------------------------------------


@dataclass
class RowResult:
    row: Row
    resolution: Resolution
    baseline: str = ""
    mutants: list[tuple[Mutant, str, str]] = field(default_factory=list)  # (mutant, status, detail)
    not_run: int = 0
    problems: list[str] = field(default_factory=list)


def run(args: argparse.Namespace) -> list[RowResult]:
    root: Path = args.workdir.resolve()
    package = args.rules.replace("-", "_")
    rows = select_rows(parse_rows((root / "docs" / "rulesets" / f"{args.rules}.md").read_text()), args.rows)
    cache = Cache(args.cache or root / f".clause-mutants-{args.rules}.jsonl",
                  args.resume or args.report_only or args.list)
    stop = _stop_time(args.stop_at)
    runner = None if args.list or args.report_only or args.no_fork or args.jobs > 1 else ForkRunner(root)
    results: list[RowResult] = []
    for row in rows:
        result = RowResult(row, resolve(row, root, package))
        results.append(result)
        for target in result.resolution.targets:
            made, problem = mutants_of(root, target, args.per_function)
            if problem:
                result.problems.append(problem)
            elif not made:
                result.problems.append(f"`{target.ref}`: nothing to mutate (no operator, number or call)")
            seen = {m.key for m, _, _ in result.mutants}
            result.mutants.extend((m, "", "") for m in made if m.key not in seen)
        if args.list:
            continue
        if not row.tests:
            result.baseline = "no tests cited"
            continue
        if not result.mutants:
            result.baseline = "nothing to mutate"
            continue
        suffix = _tests_key(row.tests)
        baseline_key = f"baseline-{_baseline_digest(root, result)}-{suffix}"
        cached = cache.get(baseline_key)
        if cached is None and not args.report_only and not _past(stop):
            outcome = run_tests(root, row.tests, args.baseline_timeout, mutant=False,
                                extra=["--durations=0", "--durations-min=0", *_skip_plugins(row.tests)])
            cached = {"status": outcome.status, "detail": outcome.detail,
                      "seconds": round(outcome.seconds, 1),
                      "durations": durations(outcome.output, row.tests)}
            cache.put(baseline_key, cached)
            print(f"row {row.number}: tests on the unmutated code: {outcome.status} "
                  f"({outcome.seconds:.1f} s) {outcome.detail}", flush=True)
        if cached is None:
            result.baseline = "not run"
            result.not_run = len(result.mutants)
            continue
        result.baseline = "passes" if cached["status"] == "survived" else f"fails: {cached['detail']}"
        if cached["status"] != "survived":
            continue
        pending = [(i, m) for i, (m, _, _) in enumerate(result.mutants) if _cached(cache, m, suffix) is None]
        if pending and not args.report_only:
            timed = cached.get("durations")
            order = (sorted(row.tests, key=lambda t: timed.get(t, 0.0)) if isinstance(timed, dict)
                     else row.tests)
            _run_mutants(root, row, tuple(order), pending, cache, suffix, args, stop, runner)
        for i, (m, _, _) in enumerate(result.mutants):
            entry = _cached(cache, m, suffix)
            if entry is None:
                result.not_run += 1
            else:
                result.mutants[i] = (m, str(entry["status"]), str(entry["detail"]))
    return results


def _cached(cache: Cache, mutant: Mutant, suffix: str) -> dict[str, object] | None:
    return cache.get(f"{mutant.key}-{suffix}") or cache.get(f"{mutant.legacy}-{suffix}")


def _baseline_digest(root: Path, result: RowResult) -> str:
    paths = sorted({m.path for m, _, _ in result.mutants})
    return hashlib.sha1(b"".join((root / p).read_bytes() for p in paths)).hexdigest()[:8]


def _skip_plugins(tests: Sequence[str]) -> list[str]:
    """Leaves out the API fuzzer's plugin (slow to load) unless a test of the row uses it."""
    return [] if any("fuzz" in test for test in tests) else ["-p", "no:schemathesis"]


def _run_mutants(root: Path, row: Row, tests: Sequence[str], pending: list[tuple[int, Mutant]],
                 cache: Cache, suffix: str, args: argparse.Namespace, stop: datetime.datetime | None,
                 runner: ForkRunner | None) -> None:
    """Runs one mutant at a time per file (``--jobs`` > 1 runs mutants of different files at once).

    The tests run fastest first (as timed on the unmutated code), so a kill comes soon."""
    by_file: dict[str, list[Mutant]] = {}
    for _, mutant in pending:
        by_file.setdefault(mutant.path, []).append(mutant)

    def one_file(mutants: list[Mutant]) -> None:
        for mutant in mutants:
            if _past(stop):
                return
            file = root / mutant.path
            original = file.read_text()
            try:
                file.write_text(mutant.text)
                _drop_bytecode(root, mutant.path)
                extra = _skip_plugins(tests)
                outcome = (runner.run(tests, args.timeout, extra) if runner is not None
                           else run_tests(root, tests, args.timeout, mutant=True, extra=extra))
            finally:
                file.write_text(original)
                _drop_bytecode(root, mutant.path)
            status = "killed" if outcome.status == "timeout" else outcome.status
            detail = outcome.detail if outcome.status != "timeout" else "timeout"
            cache.put(f"{mutant.key}-{suffix}", {"status": status, "detail": detail,
                                                "seconds": round(outcome.seconds, 1)})
            print(f"row {row.number}: {mutant.path}:{mutant.line} {mutant.change}: {status} "
                  f"({outcome.seconds:.1f} s)", flush=True)

    if args.jobs <= 1 or len(by_file) == 1 or runner is not None:
        for mutants in by_file.values():
            one_file(mutants)
    else:
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            list(pool.map(one_file, by_file.values()))


def _stop_time(text: str | None) -> datetime.datetime | None:
    if not text:
        return None
    hours, minutes = (int(part) for part in text.split(":"))
    return datetime.datetime.now().replace(hour=hours, minute=minutes, second=0, microsecond=0)


def _past(stop: datetime.datetime | None) -> bool:
    return stop is not None and datetime.datetime.now() >= stop


# --- The report -------------------------------------------------------------------------------


Judged = dict[tuple[str, int | None], dict[str, str]]
"""Verdicts by (mutant, row): a row of ``None`` holds for every row citing the mutant."""

VERDICTS = ("equivalent", "elsewhere", "gap")
"""equivalent: no change in behaviour; elsewhere: the cited function does more than the
row's clause and the change is of another clause (named in ``why``), not this row's;
gap: a change of the row's clause its tests do not see."""


def load_judged(path: Path) -> Judged:
    if not path.exists():
        return {}
    with path.open("rb") as stream:
        data = tomllib.load(stream)
    judged: Judged = {}
    for entry in data.get("mutant", []):
        verdict = {k: str(v) for k, v in entry.items() if k != "rows"}
        if verdict.get("verdict") not in VERDICTS:
            raise SystemExit(f"{path}: {entry['id']}: verdict must be one of {', '.join(VERDICTS)}")
        for row in entry.get("rows", [None]):
            judged[(str(entry["id"]), row)] = verdict
    return judged


def _verdict(judged: Judged, key: str, row: int) -> dict[str, str]:
    return judged.get((key, row)) or judged.get((key, None)) or {}


def report(args: argparse.Namespace, results: list[RowResult], judged: Judged) -> str:
    totals = {"rows": len(results), "mutants": 0, "killed": 0, "survived": 0, "equivalent": 0,
              "elsewhere": 0, "gap": 0, "fixed": 0, "unjudged": 0, "not_run": 0}
    gap_rows: list[int] = []
    unjudged_rows: list[int] = []
    body: list[str] = []
    for result in results:
        row = result.row
        run_here = [(m, s, d) for m, s, d in result.mutants if s]
        killed = sum(1 for _, s, _ in run_here if s in ("killed", "error"))
        timeouts = sum(1 for _, s, d in run_here if d == "timeout")
        errors = sum(1 for _, s, _ in run_here if s == "error")
        survivors = [(m, d) for m, s, d in run_here if s == "survived"]
        totals["mutants"] += len(run_here)
        totals["killed"] += killed
        totals["survived"] += len(survivors)
        totals["not_run"] += result.not_run
        verdicts = [_verdict(judged, m.key, row.number).get("verdict", "") for m, _ in survivors]
        for name in VERDICTS:
            totals[name] += verdicts.count(name)
        totals["unjudged"] += sum(1 for v in verdicts if v not in VERDICTS)
        fixed = [bool(_verdict(judged, m.key, row.number).get("fixed")) for m, _ in survivors]
        totals["fixed"] += sum(1 for v, f in zip(verdicts, fixed, strict=True) if v == "gap" and f)
        if any(v == "gap" and not f for v, f in zip(verdicts, fixed, strict=True)):
            gap_rows.append(row.number)
        if any(v not in VERDICTS for v in verdicts):
            unjudged_rows.append(row.number)
        refs = ", ".join(f"`{t.ref}`" for t in result.resolution.targets) or "—"
        body.append(f"### Row {row.number}\n")
        body.append(f"- Cited: {refs}")
        for note in [*result.resolution.notes, *result.problems]:
            body.append(f"- {note}")
        body.append(f"- Tests ({len(row.tests)}) on the unmutated code: {result.baseline or 'not run'}")
        how = ", ".join(part for part in (f"{timeouts} by timeout" if timeouts else "",
                                           f"{errors} by an error" if errors else "") if part)
        body.append(f"- Mutants: {len(run_here)} run, {killed} killed" + (f" ({how})" if how else "")
                    + f", {len(survivors)} survived"
                    + (f", {result.not_run} not run" if result.not_run else ""))
        for mutant, _detail in survivors:
            verdict = _verdict(judged, mutant.key, row.number)
            label = verdict.get("verdict", "not judged")
            why = f": {verdict['why']}" if verdict.get("why") else ""
            if verdict.get("fixed"):
                why += f" Fixed: {verdict['fixed']}"
            body.append(f"  - survived `{mutant.key}` {mutant.path}:{mutant.line} {mutant.change} — "
                        f"**{label}**{why}")
        body.append("")
    head = [
        f"# Mutants of the {args.rules} clause table",
        "",
        "Written by `benchmarks/clause_mutants.py` (see its docstring): the code each row cites",
        f"mutated, at most {args.per_function} mutants a reference (spread evenly over it), each",
        "run against that row's cited tests only. A survivor is a change those tests do not see:",
        "*equivalent*, it changes no behaviour; *elsewhere*, the cited function does more than the",
        "row's clause and the change is of another clause; *gap*, a change of the row's clause.",
        f"Verdicts are kept in `docs/rulesets/mutants-{args.rules}.toml`. The code mutated is that of",
        f"commit {_commit(args.workdir)}" + (f"; no mutant was started after {args.stop_at}, and those"
                                             " not run are counted so" if args.stop_at else "") + ".",
        "",
        "| rows | mutants run | killed | survived | equivalent | elsewhere | gaps (fixed since) "
        "| not judged | not run |",
        "|---|---|---|---|---|---|---|---|---|",
        f"| {totals['rows']} | {totals['mutants']} | {totals['killed']} | {totals['survived']} | "
        f"{totals['equivalent']} | {totals['elsewhere']} | {totals['gap']} ({totals['fixed']}) | "
        f"{totals['unjudged']} | {totals['not_run']} |",
        "",
        "A gap *fixed since* was closed after the run (a test added to the row, or a row's test",
        "strengthened) and checked to kill the mutant; the run's counts are those of the table",
        "as it was run. Rows with a gap left: " + (", ".join(map(str, gap_rows)) or "none")
        + ". Rows with a survivor not judged: " + (", ".join(map(str, unjudged_rows)) or "none") + ".",
        "",
    ]
    print(f"{args.rules}: {totals['rows']} rows, {totals['mutants']} mutants run, {totals['killed']} killed, "
          f"{totals['survived']} survived ({totals['equivalent']} equivalent, {totals['elsewhere']} "
          f"elsewhere, {totals['gap']} gaps of which {totals['fixed']} fixed since, "
          f"{totals['unjudged']} not judged), {totals['not_run']} not run; "
          f"rows with a gap left: {', '.join(map(str, gap_rows)) or 'none'}; "
          f"rows not judged: {', '.join(map(str, unjudged_rows)) or 'none'}")
    return "\n".join(head + body).rstrip() + "\n"


def _commit(workdir: Path) -> str:
    found = subprocess.run(["git", "-C", str(workdir), "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True, check=False)
    return f"`{found.stdout.strip()}`" if found.returncode == 0 else "(not a git checkout)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rules", required=True, help="the rule set's id, e.g. charge-yr-pikes")
    parser.add_argument("--workdir", type=Path, required=True, help="a private copy of the checkout")
    parser.add_argument("--rows", help="rows to run, e.g. 1,2,5-9 (all by default)")
    parser.add_argument("--per-function", type=int, default=8, help="mutants a reference at most")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a mutant's tests may take")
    parser.add_argument("--baseline-timeout", type=float, default=300.0)
    parser.add_argument("--jobs", type=int, default=1, help="mutants of different files run at once")
    parser.add_argument("--no-fork", action="store_true",
                        help="run each mutant's tests in a fresh interpreter, not a fork of this one")
    parser.add_argument("--resume", action="store_true", help="reuse the results in --cache")
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--stop-at", help="start no mutant after HH:MM (local time)")
    parser.add_argument("--list", action="store_true", help="list the mutants; run nothing")
    parser.add_argument("--report-only", action="store_true", help="report from --cache; run nothing")
    parser.add_argument("--judged", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.workdir.resolve() == HERE:
        parser.error("--workdir must be a private copy, not the checkout this script is in")
    # A stop by signal ends the run as an interrupt does: the mutated file is restored.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    results = run(args)
    if args.list:
        for result in results:
            print(f"row {result.row.number}: {len(result.mutants)} mutants; "
                  f"{', '.join(t.ref for t in result.resolution.targets)}")
            for note in [*result.resolution.notes, *result.problems]:
                print(f"    {note}")
            for mutant, _, _ in result.mutants:
                print(f"    {mutant.key} {mutant.path}:{mutant.line} {mutant.change}")
        return 0
    judged = load_judged(args.judged or HERE / "docs" / "rulesets" / f"mutants-{args.rules}.toml")
    text = report(args, results, judged)
    out = args.out or HERE / "docs" / "rulesets" / f"mutants-{args.rules}.md"
    out.write_text(text)
    print(f"report: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
