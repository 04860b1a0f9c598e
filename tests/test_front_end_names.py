"""Front ends read what a piece shows from its rule set's facts, never its own values.

The page (``tertia/web/static/**/*.js``), the reports and records (``tertia/io``) and the
command line (``tertia/cli``) receive each piece's facts and the rule set's own words
(:mod:`tertia.core.presentation`). None of them may read a unit's or a position's own
values (``own``, ``extra``), the turn's marks by name, or any value a registered rule set
keeps or shows under its own name (``hits``, ``general``, ``formation``, ``morale`` ...):
a new rule set would then reach them only through a change to the front end.

The names checked are worked out from the registry, so a rule set added later (the
example plugin is registered here) is checked too: every fact key any rule set declares
and every field of a piece's rule-set values. A few of those names are also names the
front ends use for their own things (a form field's ``value``, a deck's ``card``, the
core unit's ``stands`` and ``traits``): they are listed in :data:`GENERIC` with why.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from tertia.core.ruledata import RuleData
from tertia.core.state import STATE_FIELDS, UNIT_FIELDS
from tertia.rulesets import get_ruleset, ruleset_ids
from tests.plugin_rules import with_plugins

ROOT = Path(__file__).resolve().parent.parent
PAGE = sorted((ROOT / "tertia/web/static").rglob("*.js"))
PYTHON = sorted([*(ROOT / "tertia/io").glob("*.py"), *(ROOT / "tertia/cli").glob("*.py"),
                 *(ROOT / "tertia/web").glob("*.py")])

EXEMPT = {
    "tertia/io/compat.py": "reads records written by older engines, whose layout is what it maps",
    "tertia/web/errors.py": "its own error's extra fields (an answer's body), no piece's values",
    "tertia/web/limits.py": "its own extra response headers, no piece's values",
}
"""Files whose job is the stored layout itself."""

GENERIC = {
    "value": "a fact's own field (fact.value), and a form field's value",
    "card": "the deck's and the command cards' data (active.card), and a piece's card",
    "start": "a screen's start()",
    "declared": "a documented summary key front ends read (docs/vocabulary.md)",
    "activated": "a documented summary key front ends read (docs/vocabulary.md)",
    "move": "the HTTP verb's word and a drag's kind (a pointer move)",
    "parent": "a DOM node's parent",
}
"""Names a rule set uses that front ends also use for their own things."""

CORE = (set(UNIT_FIELDS) | set(STATE_FIELDS)) - {"own", "extra"}
"""The core's own unit and position fields (stands, traits, facing ...): front ends may
read these whatever the rule set."""

MARKS = ("ordered", "attacked", "bombarded", "supported")
"""The turn's marks by the names rule sets give them (``state.marks``)."""


def rule_set_names() -> set[str]:
    """Every fact key a registered rule set declares, and every field of the values a
    rule set keeps for a piece (its ``RuleData`` records other than a game's record)."""
    names: set[str] = set()
    games: list[type] = []
    with with_plugins():
        for rid in ruleset_ids():
            ruleset = get_ruleset(rid)
            names |= {spec.key for spec in ruleset.presentation().FACTS}
            game = getattr(ruleset, "GAME_DATA", None)
            if isinstance(game, type):
                games.append(game)
    for cls in set(RuleData.registry.values()):
        # Only the engine's and the example plugin's records: another test's own records
        # are registered or not by what else the worker ran, and would change the names.
        if not cls.__module__.startswith(("tertia.", "tests.example_rules.")):
            continue
        if any(issubclass(cls, g) or issubclass(g, cls) for g in games) or not dataclasses.is_dataclass(cls):
            continue
        names |= {f.name for f in dataclasses.fields(cls) if f.name != "type"}
    return names | set(MARKS) | {"hit_limit", "hit_limit_base"}


NAMES = frozenset(rule_set_names() - set(GENERIC) - CORE)

# --- the page --------------------------------------------------------------------------------

JS_ALWAYS = (
    (re.compile(r"\.own\b"), "reads a rule set's own values (.own)"),
    (re.compile(r"\.extra\b"), "reads a rule set's free-form values (.extra)"),
    (re.compile(r"\[\s*[\"'](?:own|extra)[\"']\s*\]"), "reads a rule set's own values ([\"own\"])"),
    (re.compile(r"(?<![\w.$])(?:own|extra)\s*\.\s*[A-Za-z_]"), "reads a rule set's own values (own.)"),
    (re.compile(r"\.markers\b"), "reads the turn's marks, a rule set's names"),
)


def _strip_js_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"(^|\s)//.*$", r"\1", text, flags=re.M)


def js_problems(text: str, names: Iterable[str] = NAMES) -> list[tuple[int, str]]:
    """Each line of a script reading what front ends may not, with why."""
    wanted = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    by_name = (
        re.compile(rf"(?<![\w$])[\w$\])]+\s*\??\.\s*({wanted})\b(?!\s*=[^=])"),
        re.compile(rf"\[\s*[\"'`]({wanted})[\"'`]\s*\]"),
        re.compile(rf"[\"'`]({wanted})[\"'`]\s+in\b"),
        re.compile(rf"\.(?:includes|startsWith|indexOf)\(\s*[\"'`]({wanted})[\"'`]"),
    )
    found: list[tuple[int, str]] = []
    for n, line in enumerate(_strip_js_comments(text).splitlines(), 1):
        for pattern, why in JS_ALWAYS:
            if pattern.search(line):
                found.append((n, why))
        for pattern in by_name:
            m = pattern.search(line)
            if m:
                found.append((n, f"reads a rule set's value by name ({m.group(1)!r})"))
    return found


# --- Python front ends -----------------------------------------------------------------------


VALUE_MODULES = ("tertia.rules.pieces", "tertia.rules.hit_values", "tertia.rules.hit_facts")
"""Modules that read a piece's rule-set values (or name its facts) for rule sets' own code."""


def py_problems(text: str, names: Iterable[str] = NAMES) -> list[tuple[int, str]]:
    """Each place a Python front end reads ``own`` or ``extra``, looks a rule set's value up
    by its name (a subscript or a ``get`` of a string naming one), or imports what reads
    them: a rule set's own modules, or the shared readers of a piece's values."""
    wanted = set(names)
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Attribute) and node.attr in ("own", "extra"):
            found.append((node.lineno, f"reads .{node.attr}"))
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            key = node.slice.value
            if key in ("own", "extra") or key in wanted:
                found.append((node.lineno, f"reads [{key!r}]"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and node.args and isinstance(node.args[0], ast.Constant)):
            key = node.args[0].value
            if key in ("own", "extra") or key in wanted:
                found.append((node.lineno, f"reads .get({key!r})"))
        elif isinstance(node, ast.ImportFrom | ast.Import):
            modules = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                       else [a.name for a in node.names])
            if isinstance(node, ast.ImportFrom):  # from tertia.rules import pieces: a module
                modules += [f"{node.module}.{a.name}" for a in node.names
                            if (ROOT / f"{node.module}.{a.name}".replace(".", "/")).is_dir()
                            or (ROOT / (f"{node.module}.{a.name}".replace(".", "/") + ".py")).is_file()]
            for module in modules:
                if module.startswith("tertia.rulesets.") or module in VALUE_MODULES:
                    found.append((node.lineno, f"imports {module}, which reads a rule set's values"))
                    break
    return found


# --- the checks ------------------------------------------------------------------------------


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _problems(path: Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    return js_problems(text) if path.suffix == ".js" else py_problems(text)


def test_the_names_checked_come_from_the_registry() -> None:
    assert {"hits", "general", "formation", "morale", "figures", "out_of_ammo"} <= NAMES
    assert {"ex_stands", "ex_tally", "ex_tested", "ex_colours", "ex_order", "ex_chosen"} <= NAMES
    assert not NAMES & {"x", "y", "id", "side", "kind", "facing", "stands", "traits", "name"}


@pytest.mark.parametrize("path", [p for p in [*PAGE, *PYTHON] if _rel(p) not in EXEMPT], ids=_rel)
def test_no_front_end_reads_a_rule_sets_own_values(path: Path) -> None:
    rel = _rel(path)
    problems = _problems(path)
    assert not problems, "\n".join(f"{rel}:{n}: {why}" for n, why in problems)


@pytest.mark.parametrize(("line", "expected"), [
    ("if (u.hits) g.append(pips);", "'hits'"),
    ("const limit = r.hit_limit;", "'hit_limit'"),
    ("const w = u.own.stand_width;", ".own"),
    ("const own = u.own || {};", ".own"),
    ("return own.declared_attacks || [];", "own."),
    ("if (u.general) ring();", "'general'"),
    ("const f = card[\"formation\"];", "'formation'"),
    ("if (marks.includes(\"ordered\")) badge();", "'ordered'"),
    ("const m = v.markers[u.id];", "marks"),
    ("const e = view.state.extra;", ".extra"),
    ("if ('morale' in piece) tell();", "'morale'"),
    ("x = u?.ex_chosen;", "'ex_chosen'"),
])
def test_the_page_check_flags_a_rule_sets_value(line: str, expected: str) -> None:
    problems = js_problems(line)
    assert problems, line
    assert any(expected in why for _, why in problems), problems


@pytest.mark.parametrize("line", [
    "const n = fact.value;",
    "input.value = String(v);",
    "const p = { x: u.x, y: u.y, facing: u.facing };",
    "for (const s of u.stands || []) draw(s);",
    "// u.hits and u.own are never read here",
    "const text = `${f.label} ${f.words}`;",
    "h('span', { class: 'hits' }, n);",
])
def test_the_page_check_passes_what_front_ends_may_read(line: str) -> None:
    assert js_problems(line) == []


@pytest.mark.parametrize(("source", "expected"), [
    ("n = unit.own.hits", ".own"),
    ("from tertia.rules.pieces import piece", "tertia.rules.pieces"),
    ("from tertia.rulesets.larger_battles import presentation", "tertia.rulesets.larger_battles"),
    ("n = u.own.values().get('hits')", ".own"),
    ("e = state.extra['position']", ".extra"),
    ("m = data['morale']", "'morale'"),
    ("f = card.get('formation')", "'formation'"),
])
def test_the_python_check_flags_a_rule_sets_value(source: str, expected: str) -> None:
    problems = py_problems(source)
    assert any(expected in why for _, why in problems), problems


def test_the_python_check_passes_facts() -> None:
    assert py_problems("text = ', '.join(f.text(spec) for f, spec in card.facts if f.value)") == []
    assert py_problems("from tertia.rulesets import get_ruleset") == []
