"""Every command-line surface under every registered rule set: the matrix.

For each rule set the registry holds (the example plugin's included, as
``TERTIA_RULESETS`` would register it), each scenario of the catalogue written for it and
several seeds, one battle is fought through ``tertia battle`` (the narrative, not
``--json``) with ``--save`` and ``--report``, and that one battle then serves every other
surface: ``replay``, ``inspect`` (text and JSON), ``odds`` on a dice-driven action of the
position it left (answered, or refused in one line), and, once a cell, ``simulate`` and a
human player's first choices. Every text and HTML output is checked for tracebacks,
``None``, ``undefined``, ``null``, ``[object Object]``, an event that could not be told
and the engine's own ids (units', commands') where words belong.

A new rule set, or a new scenario written for one, is covered without editing this file.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tertia.battle import BattleRecord, fight_battle
from tertia.cli.main import app
from tertia.core.game import Game
from tertia.core.narration import default_side_name
from tertia.core.state import GameState, Unit
from tertia.io.safe_narration import UNTOLD
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios.catalogue import load_named, written_for
from tests.log_checks import told_again
from tests.plugin_rules import with_plugins

SEEDS = (1, 2, 3)

runner = CliRunner()


def _cells() -> list[tuple[str, str]]:
    with with_plugins():
        return [(rules, entry.name) for rules in ruleset_ids() for entry in written_for(rules)]


CELLS = _cells()


@pytest.fixture(autouse=True)
def _plugins() -> Iterator[None]:
    with with_plugins():
        yield


def invoke(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=stdin, env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"tertia {' '.join(args)} raised {result.exception!r}:\n{result.output}") \
            from result.exception
    return result.exit_code, result.output


# --- what no output may hold --------------------------------------------------------------

_PLACEHOLDERS = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\bundefined\b|\bnull\b|\bNaN\b|\[object Object\]"
                           r"|Traceback|\)'s?\b")  # the last: a possessive after a name's aside
_SNAKE = re.compile(r"(?<![\w/.#=\"'-])[a-z]+(?:_[a-z]+)+(?![\w/(\"'-])")


@dataclass(frozen=True)
class Words:
    """The ids of a battle, and of the rule sets, that must never reach a reader in place of
    words (a rule is cited by its book's name)."""

    ids: frozenset[str]

    @classmethod
    def of(cls, state: GameState) -> Words:
        ids = {u.id for u in state.units.values()}
        ids |= {u.command for u in state.units.values() if re.search(r"[-_\d]", u.command)}
        ids |= set(ruleset_ids())
        ids |= set(state.sides)  # a side is told by its name ("Royalists"), never its id ("royalist")
        return cls(frozenset(i for i in ids if len(i) > 2))

    def pattern(self) -> re.Pattern[str]:
        """Any of the ids as a whole word, in one pattern (a text is read once)."""
        if self.ids not in _ID_PATTERNS:
            alternatives = "|".join(sorted(map(re.escape, self.ids), key=len, reverse=True)) or r"(?!x)x"
            _ID_PATTERNS[self.ids] = re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")
        return _ID_PATTERNS[self.ids]

    def problems(self, text: str) -> list[str]:
        found = [m.group(0) for m in _PLACEHOLDERS.finditer(text)]
        found += [m.group(0) for m in _SNAKE.finditer(text)]
        found += [m.group(0) for m in self.pattern().finditer(text)]
        found += ["an untold event"] if "could not be told" in text else []
        return sorted(set(found))


_ID_PATTERNS: dict[frozenset[str], re.Pattern[str]] = {}


def visible_text(html: str) -> str:
    """An HTML page's text as a reader sees it: tags, styles, scripts and attribute values
    (ids, classes) left out; tooltips kept."""
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    titles = " ".join(re.findall(r"<title>(.*?)</title>", html, flags=re.S))
    return re.sub(r"<[^>]+>", " ", html) + " " + titles


def start_of(rules: str, scenario: str) -> GameState:
    """The position as deployed for ``scenario`` under ``rules``."""
    game = Game(get_ruleset(rules), load_named(scenario, rules_id=rules))
    return game.ruleset.initial_state(game.scenario)


# --- one battle a cell and seed, shared by its surfaces -----------------------------------


@dataclass(frozen=True)
class Fought:
    rules: str
    scenario: str
    seed: int
    narrative: str
    record: Path
    report: Path
    words: Words
    battle: BattleRecord
    """The battle as ``tertia battle`` fought it, the record saved and the report written
    from it (``test_the_saved_battle_replays`` shows the saved record replays to it)."""

    def final_state(self) -> GameState:
        """The position the battle left."""
        return self.battle.final_state


_FOUGHT: dict[tuple[str, str, int], Fought] = {}


def fought(tmp_path_factory: pytest.TempPathFactory, rules: str, scenario: str, seed: int) -> Fought:
    key = (rules, scenario, seed)
    if key not in _FOUGHT:
        folder = tmp_path_factory.mktemp(f"{rules}-{scenario}-{seed}")
        record, report = folder / "battle.json", folder / "battle.html"
        from tertia.cli import play_commands  # imported by tertia.cli.main, whose app registers it

        battles: list[BattleRecord] = []

        def kept(*args: Any, **kwargs: Any) -> BattleRecord:
            battles.append(fight_battle(*args, **kwargs))
            return battles[-1]

        with pytest.MonkeyPatch.context() as m:  # the battle the command fights, kept as it is
            m.setattr(play_commands, "fight_battle", kept)
            code, out = invoke("battle", "--rules", rules, "--scenario", scenario, "--seed", str(seed),
                               "--save", str(record), "--report", str(report))
        assert code == 0, out
        assert len(battles) == 1
        words = Words.of(start_of(rules, scenario))
        _FOUGHT[key] = Fought(rules, scenario, seed, out, record, report, words, battles[0])
    return _FOUGHT[key]


MATRIX = [pytest.param(rules, scenario, seed, marks=pytest.mark.xdist_group(f"{rules}-{scenario}-{seed}"))
          for rules, scenario in CELLS for seed in SEEDS]
"""Each battle's surfaces on one worker (``--dist loadgroup``), so it is fought once."""
IDS = [f"{r}-{s}-{n}" for r, s in CELLS for n in SEEDS]


@pytest.mark.parametrize(("rules", "scenario", "seed"), MATRIX, ids=IDS)
def test_the_narrative_battle_reads_in_words(tmp_path_factory: pytest.TempPathFactory, rules: str,
                                             scenario: str, seed: int) -> None:
    battle = fought(tmp_path_factory, rules, scenario, seed)
    assert "Turn 1" in battle.narrative
    # Under its heading, the battle's story and how it is drawn up under these rules.
    opening = " ".join(battle.narrative.split("The battle begins")[0].split())
    played = battle.battle.game.scenario
    assert " ".join(played.description.split()) in opening and " ".join(played.notes.split()) in opening
    assert told_again(battle.narrative) == []
    assert battle.words.problems(battle.narrative) == [], battle.narrative[-3000:]
    assert UNTOLD not in battle.narrative


@pytest.mark.parametrize(("rules", "scenario", "seed"), MATRIX, ids=IDS)
def test_the_saved_battle_replays(tmp_path_factory: pytest.TempPathFactory, rules: str, scenario: str,
                                  seed: int) -> None:
    battle = fought(tmp_path_factory, rules, scenario, seed)
    code, out = invoke("replay", str(battle.record))
    assert code == 0 and "replayed identically" in out, out


@pytest.mark.parametrize(("rules", "scenario", "seed"), MATRIX, ids=IDS)
def test_the_report_reads_in_words(tmp_path_factory: pytest.TempPathFactory, rules: str, scenario: str,
                                   seed: int) -> None:
    battle = fought(tmp_path_factory, rules, scenario, seed)
    html = battle.report.read_text(encoding="utf-8")
    assert "<svg" in html and "Turn 1" in html
    text = visible_text(html)
    assert battle.words.problems(text) == []
    # What each piece left in the field shows, as its rule set words it, is in the order
    # of battle (and in its map tooltip).
    game = battle.battle.game
    final = battle.final_state()
    shows = game.ruleset.presentation()
    for card in shows.pieces(game.table, final, None).values():
        if card.in_play:
            missing = [line for line in card.lines() if escape(line) not in html]
            assert missing == [], (card.name, missing)
        if card.kind != "commander":  # its type in the rule set's words
            kind = card.kind_label[:1].upper() + card.kind_label[1:]
            assert f"<td>{escape(card.name)}</td><td>{escape(kind)}</td>" in html, card.name
    # The battle's story, then how it is drawn up as this rule set fields it, no other's.
    played = game.scenario
    assert escape(played.description.strip()) in html
    assert escape(played.notes.strip()) in html
    for other in set(played.rules) & set(ruleset_ids()):
        notes = load_named(scenario, rules_id=other).notes.strip()
        assert notes == played.notes.strip() or escape(notes) not in html, other
    # The result's breakdown by side is headed as the rule set words what it holds.
    groups = re.findall(r'<th colspan="\d+" scope="colgroup">([^<]*)</th>', html)
    assert groups[:-1] in ([], [escape(shows.BREAKDOWN_TITLE)]) and groups[-1] == "Losses", groups


@pytest.mark.parametrize(("rules", "scenario", "seed"), MATRIX, ids=IDS)
def test_the_reports_last_map_marks_each_point_with_its_holder(tmp_path_factory: pytest.TempPathFactory,
                                                               rules: str, scenario: str, seed: int) -> None:
    """The objectives and vital points a rule set's summary gives (the page's flags and
    diamonds) are on the report's maps too, each titled with its side and holder as the
    battle left them; a rule set that keeps none draws none."""
    battle = fought(tmp_path_factory, rules, scenario, seed)
    html = battle.report.read_text(encoding="utf-8")
    last_map = html[html.rindex("<svg"):]
    shown = re.findall(r'<g class="point (\w+)"><title>([^<]*)</title>', last_map)
    points = battle.battle.game.ruleset.presentation().summary(battle.final_state()).get("points") or []
    assert len(shown) == len(points)
    for p, (kind, title) in zip(points, shown, strict=True):
        what = "Objective" if p["kind"] == "objective" else "Vital point"
        assert kind == p["kind"] and title.startswith(f"{what} of ")
        assert f": {escape(p['name'])}, held by " in title, (p, title)
        assert title.endswith("held by neither side") == (p["held_by"] is None), (p, title)
    assert battle.words.problems(visible_text(last_map)) == []


@pytest.mark.parametrize(("rules", "scenario", "seed"), MATRIX, ids=IDS)
def test_the_reports_last_turn_says_where_each_side_stands(tmp_path_factory: pytest.TempPathFactory,
                                                           rules: str, scenario: str, seed: int) -> None:
    """Where each side stands against a victory other than the score, as its rule set
    words it (Charge yr Pikes!' objectives and vital points), closes each turn of the
    report; a rule set that declares no such standing shows none."""
    battle = fought(tmp_path_factory, rules, scenario, seed)
    html = battle.report.read_text(encoding="utf-8")
    final = battle.final_state()
    names = {s.id: s.name or default_side_name(s.id) for s in battle.battle.game.scenario.sides}
    shows = battle.battle.game.ruleset.presentation()
    lines = shows.standing(final, names)
    last_turn = html[html.rindex('<section class="turn"'):]
    shown = re.findall(r"<li>([^<]*)</li>", last_turn[last_turn.index('class="standing"'):]) \
        if lines else []
    assert shown == [escape(line) for line in lines]
    assert ('class="standing"' in html) == bool(lines)
    with_points = {p["side"] for p in shows.summary(final).get("points") or []}
    assert [line.split(":")[0] for line in lines] == [names[s] for s in final.sides if s in with_points]
    assert battle.words.problems(" ".join(lines)) == []


@pytest.mark.parametrize(("rules", "scenario", "seed"), MATRIX, ids=IDS)
def test_inspect_shows_every_piece_by_its_rule_set(tmp_path_factory: pytest.TempPathFactory, rules: str,
                                                   scenario: str, seed: int) -> None:
    battle = fought(tmp_path_factory, rules, scenario, seed)
    code, out = invoke("inspect", str(battle.record))
    assert code == 0, out
    assert battle.words.problems(out) == []
    code, raw = invoke("inspect", str(battle.record), "--json")
    assert code == 0, raw
    data = json.loads(raw)
    declared = {f["key"]: f for f in data["facts"]}
    assert data["rules"] == rules and data["units"]
    for unit in data["units"]:
        for fact in unit["facts"]:
            assert fact["key"] in declared, fact
            assert fact["kind"] == declared[fact["key"]]["kind"]
            assert battle.words.problems(fact["text"]) == [], fact
    in_play = [u for u in data["units"] if u["in_play"]]
    assert any(u["name"] in out for u in in_play)


FIRST_SEED = [pytest.param(rules, scenario, SEEDS[0],
                           marks=pytest.mark.xdist_group(f"{rules}-{scenario}-{SEEDS[0]}"))
              for rules, scenario in CELLS]
"""One battle a cell (its first seed's), on the worker that fights it for the others."""
FIRST_SEED_IDS = [f"{r}-{s}-{SEEDS[0]}" for r, s in CELLS]
WIDE = {"COLUMNS": "1000"}
"""A width no panel's line reaches, so each is printed whole and may be looked for."""


def panel_words(view: dict[str, Any]) -> Iterator[str]:
    """Every string of a panel as ``inspect --json`` gives it that a reader reads: its
    label and help, each section's title and note, each item's (and each label's) text,
    title and note."""
    yield view["label"]
    yield view["help"]
    for section in view["sections"]:
        yield from (section[key] for key in ("title", "note") if key in section)
        for item in section["items"]:
            yield from (item[key] for key in ("text", "title", "note") if key in item)
    for label in view["labels"].values():
        yield from (label[key] for key in ("text", "title", "note") if key in label)


@pytest.mark.parametrize("moment", ["deployed", "midway", "last"])
@pytest.mark.parametrize(("rules", "scenario", "seed"), FIRST_SEED, ids=FIRST_SEED_IDS)
def test_inspect_shows_every_panel_by_its_rule_set(tmp_path_factory: pytest.TempPathFactory, rules: str,
                                                   scenario: str, seed: int, moment: str) -> None:
    """After the pieces, ``inspect`` shows each panel its rule set declares, as the page
    builds it (the deck, the objectives and who holds each, the orders left ...), each
    section's title and every item of it in words; then the turn and when the battle ends,
    and where each side stands: at the battle's start, midway and at its end, in text and
    in JSON."""
    battle = fought(tmp_path_factory, rules, scenario, seed)
    game = battle.battle.game
    steps = {"deployed": 0, "midway": len(battle.battle.steps) // 2, "last": len(battle.battle.steps)}[moment]
    state = battle.battle.steps[steps - 1].state if steps else battle.battle.initial_state
    at = ["--step", str(steps)]
    code, text = invoke("inspect", str(battle.record), *at, env=WIDE)
    assert code == 0, text
    assert battle.words.problems(text) == []
    code, raw = invoke("inspect", str(battle.record), *at, "--json", env=WIDE)
    assert code == 0, raw
    data = json.loads(raw)
    declared = [spec.name for spec in game.ruleset.PANELS]
    assert list(dict.fromkeys(view["name"] for view in data["panels"])) == declared
    for view in data["panels"]:
        assert set(view["seen_by"]) <= set(state.sides) and view["seen_by"], view["name"]
        assert view["label"] in text or not view["sections"]  # an empty panel is left out, as on the page
        for words in panel_words(view):
            assert isinstance(words, str) and battle.words.problems(words) == [], (view["name"], words)
        for section in view["sections"]:
            shown = [section.get("title"), section.get("note"), *(i["text"] for i in section["items"])]
            missing = [words for words in shown if words and words not in text]
            assert missing == [], (view["name"], section["key"], missing)
    shows = game.ruleset.presentation()
    standing = list(shows.standing(state, game.scenario.side_names()))
    assert data["standing"] == standing and all(line in text for line in standing)
    last = shows.last_turn(state, game.scenario.turns)
    assert data["last_turn"] == last.to_dict()
    assert f"of {last.text}." in text if not state.is_over else f"ended on turn {state.turn}" in text


@pytest.mark.parametrize(("rules", "scenario", "seed"), MATRIX, ids=IDS)
def test_the_last_turn_the_page_gives_is_never_passed(tmp_path_factory: pytest.TempPathFactory, rules: str,
                                                      scenario: str, seed: int) -> None:
    """The page's "Turn 3 of 12" reads the rule set's last turn: at every step of the
    battle it spans the turn the battle ended on, and it only ever narrows (a die rolled
    for darkness fixes a span; it never moves the end)."""
    battle = fought(tmp_path_factory, rules, scenario, seed)
    game = battle.battle.game
    shows = game.ruleset.presentation()
    final = battle.final_state()
    ended_on = final.turn
    before = None
    for state in (battle.battle.initial_state, *(step.state for step in battle.battle.steps)):
        last = shows.last_turn(state, game.scenario.turns)
        assert last.first <= last.last and ended_on <= last.last, (state.turn, last)
        assert last.text == (str(last.last) if last.first == last.last else f"{last.first}–{last.last}")
        if before is not None:
            assert before.first <= last.first and last.last <= before.last, (before, last)
        before = last
    assert before is not None and battle.words.problems(before.rule or "") == []


def _closest_enemies(state: GameState) -> tuple[Unit, Unit] | None:
    troops = [u for u in state.units.values() if u.in_play and not u.is_commander]
    pairs = [(a, b) for a in troops for b in troops if a.side != b.side]
    if not pairs:
        return None
    return min(pairs, key=lambda p: ((p[0].x - p[1].x) ** 2 + (p[0].y - p[1].y) ** 2, p[0].id, p[1].id))


@pytest.mark.parametrize(("rules", "scenario", "seed"), MATRIX, ids=IDS)
def test_odds_answer_or_refuse_in_one_line(tmp_path_factory: pytest.TempPathFactory, rules: str,
                                           scenario: str, seed: int) -> None:
    battle = fought(tmp_path_factory, rules, scenario, seed)
    pair = _closest_enemies(battle.final_state()) or _closest_enemies(start_of(rules, scenario))
    assert pair is not None
    attacker, target = pair
    ruleset = get_ruleset(rules)
    words = [w for w in ruleset.ACTION_WORDS if w not in ruleset.GUN_WORDS] or [None]
    # One of the rule set's words a seed, in turn: the seeds of a cell ask them all between them.
    word = words[(seed - 1) % len(words)]
    args = ["odds", str(battle.record), "--attacker", attacker.id, "--target", target.id]
    code, out = invoke(*args, *(["--action", word] if word else []))
    if code == 0:
        assert "%" in out or "/" in out, out
        # The likeliest outcomes, and each side's units routed under its own name.
        assert "Likeliest outcomes" in out and "Units routed" in out, out
        for side in load_named(scenario, rules_id=rules).sides:
            assert (side.name or side.id) in out, out
        # The rule set, the action and every piece in words, never the engine's ids.
        assert Words.of(start_of(rules, scenario)).problems(out) == [], out
    elif "Not exact:" in out:  # refused for its cost: the chances it tells, a table above its one line
        table, error = out.split("error:", 1)
        assert "proved between" in table and Words.of(start_of(rules, scenario)).problems(table) == [], out
        assert_refused_in_words("error:" + error, rules, scenario)
    else:
        assert_refused_in_words(out, rules, scenario)
    assert "Traceback" not in out and "None" not in out


@pytest.mark.parametrize(("rules", "scenario"), CELLS, ids=[f"{r}-{s}" for r, s in CELLS])
def test_odds_of_a_unit_alone_need_no_target_and_any_other_names_it(tmp_path_factory: pytest.TempPathFactory,
                                                                     rules: str, scenario: str) -> None:
    """``tertia odds`` as the page asks: a word the rule set asks of a unit alone (Charge
    yr Pikes!' morale) is answered without ``--target``, as with the unit as its own
    target, its answer naming the unit once; any other word without one is refused in one
    line naming the option."""
    battle = fought(tmp_path_factory, rules, scenario, SEEDS[0])
    pair = _closest_enemies(battle.final_state()) or _closest_enemies(start_of(rules, scenario))
    assert pair is not None
    unit = pair[0].id
    ruleset = get_ruleset(rules)
    # asked of a unit alone that is still in play, the answer names it once, not "X against X"
    alone = next(u for u in battle.final_state().iter_troops() if u.in_play)
    for word in ruleset.ALONE_WORDS:
        asked = ["odds", str(battle.record), "--attacker", unit, "--action", word]
        assert invoke(*asked) == invoke(*asked, "--target", unit), word
        code, told = invoke("odds", str(battle.record), "--attacker", alone.id, "--action", word)
        assert code == 0 and f"{alone.label}: " in told and f"{alone.label} against" not in told, (word, told)
    for word in [w for w in ruleset.ACTION_WORDS if w not in ruleset.ALONE_WORDS][:1]:
        code, out = invoke("odds", str(battle.record), "--attacker", unit, "--action", word)
        assert code == 2 and out.count("\n") == 1 and "Missing option '--target'" in out, out
        assert f"a question of {word!r} under {ruleset.title} names the unit it acts on" in out, out


@pytest.mark.parametrize(("rules", "scenario"), CELLS, ids=[f"{r}-{s}" for r, s in CELLS])
def test_the_words_guns_are_never_asked_are_refused_for_them(rules: str, scenario: str) -> None:
    """A front end leaves out for artillery the words its rule set says guns are never
    asked (``NOT_FOR_GUNS``): the rules refuse each of them for every gun and enemy."""
    from tertia.analysis.questions import readied

    ruleset = get_ruleset(rules)
    assert set(ruleset.NOT_FOR_GUNS) <= set(ruleset.ACTION_WORDS)
    game = Game(ruleset, load_named(scenario, rules_id=rules))
    start = game.ruleset.initial_state(game.scenario)
    for gun in (u for u in start.iter_troops() if u.kind.value == "artillery"):
        # an enemy regiment drawn up against the gun's front, as though it had charged
        foe = next(u for u in start.iter_troops(start.opponent(gun.side))
                   if u.kind.value in ("foot", "horse"))
        gap = (gun.depth + foe.depth) / 2
        ahead = math.radians(gun.facing)
        foe = foe.evolve(x=gun.x + math.sin(ahead) * gap, y=gun.y + math.cos(ahead) * gap,
                         facing=(gun.facing + 180.0) % 360.0)
        state = start.with_unit(foe)
        for word in ruleset.NOT_FOR_GUNS:
            seen = game.observed_state(state, gun.side)
            assert readied(game, seen, seen.units[gun.id], word, seen.units[foe.id]) is None, (gun.id, word)
            theirs = game.observed_state(state, foe.side)  # the regiment may be asked it at the gun
            assert readied(game, theirs, theirs.units[foe.id], word, theirs.units[gun.id]) is not None, word


def assert_refused_in_words(out: str, rules: str, scenario: str) -> None:
    """One line, in words: the reason and the rule it cites by the book's name, never an
    engine code (``IllegalAction(core.UNKNOWN_UNIT)``) or a rule set's id."""
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), out
    assert re.search(r"\b[a-z0-9]+\.[A-Z_]{3,}\b|IllegalAction", lines[0]) is None, out
    assert Words.of(start_of(rules, scenario)).problems(lines[0]) == [], out


@pytest.mark.parametrize(("rules", "scenario"), CELLS, ids=[f"{r}-{s}" for r, s in CELLS])
def test_odds_of_a_piece_not_in_play_are_refused_in_words(rules: str, scenario: str) -> None:
    code, out = invoke("odds", scenario, "--rules", rules, "--attacker", "nobody", "--target", "nobody")
    assert code != 0, out
    assert "nobody" in out, out
    assert_refused_in_words(out, rules, scenario)


@pytest.mark.parametrize(("rules", "scenario"), CELLS, ids=[f"{r}-{s}" for r, s in CELLS])
def test_simulate_fights_the_cell(rules: str, scenario: str) -> None:
    code, out = invoke("simulate", "--rules", rules, "--scenario", scenario, "--games", "1", "--seed", "1",
                       "--workers", "1")
    assert code == 0, out
    assert Words.of(start_of(rules, scenario)).problems(out) == [], out
    # how the battle ended, in the rule set's own words (``Presentation.ENDINGS``)
    assert "How the battles ended" in out and "Decided on the field" in out, out
    assert "does not declare" not in out, out


@pytest.mark.parametrize(("rules", "scenario"), CELLS, ids=[f"{r}-{s}" for r, s in CELLS])
def test_a_person_is_asked_in_words(rules: str, scenario: str) -> None:
    """A person at the terminal is shown the first choices in the rule set's words, takes
    the first one offered and then leaves: nothing is saved, and everything told reads in
    words."""
    side = load_named(scenario, rules_id=rules).side_ids[0]
    code, out = invoke("battle", "--rules", rules, "--scenario", scenario, "--seed", "1",
                       "--player", f"{side}=human", stdin="1\n\n\n")
    assert code == 1 and "nothing was saved" in out, out[-2000:]
    assert re.search(r"^\s*1\. ", out, flags=re.M), out[-2000:]
    assert Words.of(start_of(rules, scenario)).problems(out) == [], out[-3000:]


@pytest.mark.parametrize(("rules", "scenario"), CELLS, ids=[f"{r}-{s}" for r, s in CELLS])
def test_validate_passes_the_cell(rules: str, scenario: str) -> None:
    code, out = invoke("validate", scenario, "--rules", rules)
    assert code == 0, out
    assert _PLACEHOLDERS.search(out) is None, out


def _sweep_option(rules: str) -> str | None:
    """An option of ``rules`` to sweep, with two of its values, or None when it has none."""
    for option in get_ruleset(rules).describe()["options"]:
        if option["choices"]:
            return f"{option['name']}={','.join(str(c) for c in option['choices'][:2])}"
        if isinstance(option["default"], bool):
            return f"{option['name']}=true,false"
    return None


RULES = sorted({rules for rules, _ in CELLS})


@pytest.mark.parametrize("rules", RULES)
def test_sweep_and_the_catalogues_speak_every_rule_set(rules: str) -> None:
    vary = _sweep_option(rules)
    scenario = written_for(rules)[0].name
    if vary is not None:
        code, out = invoke("sweep", "--rules", rules, "--scenario", scenario, "--vary", vary, "--games", "1",
                           "--workers", "1")
        assert code == 0, out
        assert "decided on the field, rate" in out, out  # the rule set's endings (ENDINGS)
        assert _PLACEHOLDERS.search(out) is None, out
        assert _named_by_id(rules, out) == [], out
    code, out = invoke("ladder", "--rules", rules, "--scenario", scenario, "--games", "1", "--workers", "1")
    assert code == 0 and "rating" in out, out
    assert "Battles decided on the field" in out, out
    assert _PLACEHOLDERS.search(out) is None, out
    assert _named_by_id(rules, out) == [], out
    for command in (("rules",), ("scenarios",)):
        code, out = invoke(*command)
        assert code == 0 and rules in out, out
        assert _PLACEHOLDERS.search(out) is None, out


def _typed_option(rules: str) -> tuple[str, Any, list[str]] | None:
    """An option of ``rules`` declared as a flag or a number, its default, and two values
    as a person types them; None when it has none."""
    for option in get_ruleset(rules).describe()["options"]:
        default = option["default"]
        if isinstance(default, bool):
            return option["name"], default, ["true", "false"]
        if isinstance(default, int | float) and not option["choices"]:
            return option["name"], default, [str(default), str(int(default) + 1)]
    return None


@pytest.mark.parametrize("rules", RULES)
def test_sweep_and_ladder_json_give_options_typed_as_declared(rules: str) -> None:
    """The options of ``sweep --json`` and ``ladder --json`` are the values the rule set
    parsed (a number, a flag), not the words typed."""
    typed = _typed_option(rules)
    if typed is None:
        return
    name, default, values = typed
    parsed = [get_ruleset(rules, **{name: v}).options[name] for v in values]
    assert all(type(value) is type(default) for value in parsed)
    scenario = written_for(rules)[0].name
    swept = _json_of("sweep", "--rules", rules, "--scenario", scenario, "--vary",
                     f"{name}={','.join(values)}", "--games", "1", "--workers", "1", "--json")
    assert swept["values"] == parsed and swept["baseline"] == parsed[0], swept["values"]
    assert [type(r["value"]) for r in swept["results"]] == [type(default)] * 2
    laddered = _json_of("ladder", "--rules", rules, "--scenario", scenario, "--games", "1", "--workers", "1",
                        "--option", f"{name}={values[1]}", "--json")
    assert laddered["options"] == {name: parsed[1]}
    assert type(laddered["options"][name]) is type(default)


def _json_of(*args: str) -> Any:
    """What a command prints on standard output, read as JSON (its progress goes to standard error)."""
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _named_by_id(rules: str, text: str) -> list[str]:
    """Where a designer's table names the rule set by the id typed after ``--rules``
    instead of its name."""
    return re.findall(rf"(?<![\w-]){re.escape(rules)}(?![\w-])", text)


def test_the_checks_can_fail() -> None:
    """Each check above finds what it looks for."""
    state = start_of("larger-battles", "skirmish")
    words = Words.of(state)
    some_id = next(iter(state.units))
    for bad in ("None", "disordered True", "it is undefined", "null", "[object Object]", "advance_and_fire",
                f"{some_id} moves", "(this event could not be told: x)", "Traceback (most recent call last)"):
        assert words.problems(f"A line: {bad}."), bad
    assert words.problems("Hollis's Foot moves 3.0\" north, facing east") == []
    assert words.problems("a rule (larger-battles: Combat)") == ["larger-battles"]
    twice = "Turn 1\nActivation phase\nA card\nActivation phase\nTurn 1"
    assert told_again(twice) == ["Activation phase", "Turn 1"]
    assert told_again("Turn 1\nActivation phase\nTurn 2\nActivation phase\nCombat phase") == []
    assert _named_by_id("d3-cards", "Edgehill (d3-cards): 2 games") == ["d3-cards"]
    assert _named_by_id("d3-cards", "Edgehill (D3 (earlier)), saved to edgehill-d3-cards.parquet") == []
    assert visible_text('<p class="a_b" id="p-foot-1">Words <title>a tip</title></p>').split() == \
        ["Words", "a", "tip", "a", "tip"]


@pytest.mark.parametrize(("rules", "scenario"), CELLS, ids=[f"{r}-{s}" for r, s in CELLS])
def test_a_units_command_is_named_by_its_own_sides_commander(rules: str, scenario: str) -> None:
    """Both sides may have a command of one name ("left"): the report's order of battle
    names each unit's command by a commander of the unit's own side, never the enemy's."""
    state = start_of(rules, scenario)
    shown = get_ruleset(rules).presentation()
    commanders = [u for u in state.units.values() if u.is_commander]
    for unit in state.units.values():
        label = shown.command_label(state, unit.command, unit.side) or ""
        enemies = [c.label for c in commanders if c.side != unit.side and c.label in label]
        assert enemies == [], (unit.id, label)
