"""Every registered rule set, played in the page: each rule set (the example plugin's
too) with a battle it suits, against the AI, from the new-game form, through clicks and
drags only.

In each cell the page is played for a turn of each side at least: a unit dragged and
moved, a question of odds or the odds of a dice-driven action answered (or refused in
one line) before any die is rolled, and the side's phase or activation ended until the
AI has played after it. After every step the page's text must hold no ``undefined``,
``null``, ``NaN`` or ``[object Object]``, no engine id (the battle's unit ids, words in
snake_case) and no two buttons alike in one place; the top bar and the panels must lie
within the window at 1440x900 and at 1024x700.

One server and one browser serve every cell. ``TERTIA_SCREENSHOTS=docs/screenshots``
keeps a screenshot of each rule set's table (``matrix-<rule set>.png``).
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tertia.core.scenario import Scenario
from tertia.rulesets import ruleset_ids
from tertia.scenarios import builtin_names
from tertia.scenarios.catalogue import default_scenario, is_named, load_named, scenario_catalogue, written_for
from tests.plugin_rules import with_plugins
from tests.web_server import Server, chromium

SHOTS = os.environ.get("TERTIA_SCREENSHOTS")

pytestmark = pytest.mark.xdist_group("browser")
"""The browser tests (this module's and tests/test_web_browser.py's) on one worker (``--dist
loadgroup``): each module's servers and browser are started once, and the other worker's
tests use the time a page spends waiting for its server."""

def _cells() -> list[tuple[str, str, str, dict[str, Any]]]:
    """Every registered rule set (the example plugin's too) on its default battle, our side
    the battle's first: a rule set registered later is a cell without an edit here."""
    with with_plugins():
        cells = []
        for rules in ruleset_ids():
            scenario = default_scenario(rules)
            cells.append((rules, scenario, load_named(scenario, rules_id=rules).side_ids[0], {}))
        return cells


CELLS = _cells()


def _openings() -> list[tuple[str, str]]:
    """Every registered rule set (the example plugin's too) on each battle written for it."""
    with with_plugins():
        return [(rules, s.name) for rules in ruleset_ids() for s in written_for(rules)]


OPENINGS = _openings()

SECONDS_A_CELL = 120.0
"""How long a cell may play before giving up: a bound for a busy machine; a cell ends as
soon as a turn of each side is done."""
SERVER_WAIT = 60_000
"""Milliseconds to wait for the server's answer to an action (it plays the AI's reply
first): a minute, as the browser tests wait, since with both cores busy running the rest
of the suite an answer has taken over 15 s."""

BAD_WORDS = re.compile(r"\bundefined\b|\bnull\b|\bNaN\b|\bTrue\b|\bFalse\b|\[object Object\]|\?\"|"
                       r"Nothing this unit may do right now\.|could not be told|\)'s?\b")
"""Placeholders, a card with no reason, a log entry whose event could not be told, and a
possessive after a name's aside ("Royalists (King Charles I)'s")."""
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    saved = os.environ.get("TERTIA_RULESETS")
    os.environ["TERTIA_RULESETS"] = "tests.example_rules.plugin,tests.d3_page_scenarios"
    try:
        # The AI's actions published at once: nothing here needs its timing kept secret.
        s = Server(tmp_path_factory.mktemp("matrix") / "games.sqlite3", None, "--ai-quantum", "0").start()
    finally:
        if saved is None:
            os.environ.pop("TERTIA_RULESETS", None)
        else:
            os.environ["TERTIA_RULESETS"] = saved
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium("the page matrix is skipped") as launched:
        yield launched


def test_the_page_checks_catch_what_they_look_for(browser: Any) -> None:
    context = browser.new_context(viewport={"width": 800, "height": 600})
    pg = context.new_page()
    try:
        pg.set_content("<div class='choices'><button>Move</button><button>Move</button></div>"
                       "<p>Hits undefined of 4 · null · p-foot-1 · advance_and_fire · "
                       "Own [object Object] · (this event could not be told: x)</p>")
        found = " | ".join(dom_problems(pg, {"p-foot-1", "centre"}))
        for wanted in ("'undefined'", "'null'", "'[object Object]'", "'advance_and_fire'", "'p-foot-1'",
                       "'Move' twice", "'could not be told'"):
            assert wanted in found, (wanted, found)
        pg.set_content("<p>Hits 2 of 4 · Sir John's foot, in line · the centre command</p>")
        assert dom_problems(pg, {"p-foot-1", "centre"}) == []
    finally:
        context.close()


def test_the_matrix_covers_every_registered_rule_set(server: Server) -> None:
    import httpx

    listed = {r["id"] for r in httpx.get(server.url + "/api/catalogue").json()["rules"]}
    assert listed == {c[0] for c in CELLS}


# --- what the page must never show ------------------------------------------------------------


def dom_problems(pg: Any, ids: set[str]) -> list[str]:
    """Words the page shows that it must not, buttons shown twice in one place, and a
    decision logged as awaited just above the choice that answers it."""
    text = pg.evaluate("() => document.body.innerText")
    found = [f"shows {m.group(0)!r} in {text[max(0, m.start() - 60):m.end() + 60]!r}"
             for m in BAD_WORDS.finditer(text)]
    found += [f"shows the engine word {w!r}" for w in sorted(set(SNAKE.findall(text)))]
    words = set(re.findall(r"[\w'-]+", text))
    found += [f"shows the unit id {i!r}" for i in sorted(ids & words) if "-" in i or "_" in i]
    twice = pg.evaluate("""() => {
        const out = [];
        for (const box of document.querySelectorAll('.choices, .unit-actions, .odds-actions, .panel')) {
          const seen = new Set();
          for (const b of box.querySelectorAll(':scope button, :scope > * > button')) {
            if (b.closest('.cmd-card')) continue;
            const t = b.innerText.trim();
            if (t && seen.has(t)) out.push(t); seen.add(t);
          }
        }
        return out; }""")
    found += [f"shows the button {t!r} twice" for t in twice]
    answered = pg.evaluate("""() => {
        const rows = [...document.querySelectorAll('.log-list .log-line')];
        const out = [];
        rows.forEach((row, at) => {
          for (const next of row.dataset.awaits ? rows.slice(at + 1) : []) {
            if (next.dataset.answers === row.dataset.awaits) { out.push(row.innerText); break; }
            if (!next.classList.contains('kind-decision')) break;
          }
        });
        return out; }""")
    found += [f"logs {t!r} above the choice that answers it" for t in answered]
    return found


def label_problems(pg: Any) -> list[str]:
    """Names on the map shown alike, cut short, or over one another at this zoom."""
    return list(pg.evaluate("""() => {
        const out = [];
        const nodes = document.querySelectorAll(
          '.unit-label:not(.crowded) text, .terrain-name:not(.crowded), .objective-name:not(.crowded)');
        const shown = [...nodes].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect(),
          unit: t.closest('.unit-label'), place: t.classList.contains('objective-name') }));
        for (const kind of ['unit', 'place']) {
          const names = shown.filter((n) => n[kind]).map((n) => n.text);
          const twice = names.filter((n, i) => names.indexOf(n) !== i);
          if (twice.length) out.push(`names shown alike: ${[...new Set(twice)].join(', ')}`);
        }
        const names = shown.filter((n) => n.unit).map((n) => n.text);
        for (const n of names) {
          const open = (n.match(/\\(/g) || []).length;
          if (open !== (n.match(/\\)/g) || []).length) out.push(`a name cut short: ${n}`);
        }
        for (let i = 0; i < shown.length; i++) for (let j = i + 1; j < shown.length; j++) {
          const a = shown[i].box, b = shown[j].box;
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (w > 2 && h > 2) out.push(`${shown[i].text} over ${shown[j].text}`);
        }
        return out; }"""))


def out_of_window(pg: Any) -> list[str]:
    """Parts of the top bar and the panels beyond the window, or cut short inside it."""
    return list(pg.evaluate("""() => {
        const out = [];
        const w = window.innerWidth, h = window.innerHeight;
        const check = (el, name) => {
          const r = el.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) return;
          if (r.left < -1 || r.right > w + 1 || r.top < -1) {
            out.push(`${name} beyond the window: ${JSON.stringify(r)}`);
          }
        };
        for (const el of document.querySelectorAll('.topbar .chip, .topbar .btn, .topbar .game-title')) {
          check(el, el.innerText.replace(/\\s+/g, ' '));
          if (el.scrollWidth > el.clientWidth + 1) {
            out.push(`${el.innerText.replace(/\\s+/g, ' ')} cut short`);
          }
        }
        const panel = document.querySelector('.side-panel');
        if (panel) {
          check(panel, 'the side panel');
          const edge = panel.getBoundingClientRect().right;
          for (const b of panel.querySelectorAll('.btn, select')) {
            const r = b.getBoundingClientRect();
            if (r.width && r.right > edge + 1) out.push(`${b.innerText.trim()} beyond the side panel`);
          }
        }
        const map = document.querySelector('.map-box');
        if (map) check(map, 'the map');
        return out; }"""))


# --- playing through the page ----------------------------------------------------------------


def to_client(pg: Any, x: float, y: float) -> tuple[float, float]:
    found = pg.evaluate("""([x, y]) => { const m = window.tertiaScreen.map;
        const pt = m.root.createSVGPoint(); pt.x = x; pt.y = m.table.depth - y;
        const p = pt.matrixTransform(m.root.getScreenCTM()); return [p.x, p.y]; }""", [x, y])
    return float(found[0]), float(found[1])


def panel_problems(pg: Any) -> list[str]:
    """Panels the view fills whose words the page does not show: each panel's items, the
    shared blocks' and a rule set's own alike (``view.panels``), must be in its node."""
    problems = []
    for panel in screen(pg, "s.view.panels") or []:
        texts = [i["text"] for sec in panel["sections"] if sec.get("open", True) for i in sec["items"]]
        if not texts:
            continue
        node = pg.query_selector(f"[data-test=panel-{panel['name']}]")
        shown = node.inner_text() if node is not None and node.is_visible() else ""
        problems += [f"{panel['name']}: {t!r} not shown" for t in texts if t not in shown]
    return problems


def open_page(browser: Any) -> tuple[Any, Any, list[str]]:
    """A fresh browser context at 1440x900 with its page, and the page's script errors."""
    context = browser.new_context(viewport={"width": 1440, "height": 900}, device_scale_factor=1)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(15_000)
    return context, pg, errors


@contextmanager
def home_page(browser: Any, server: Server) -> Iterator[Any]:
    """The home page in a fresh browser context (:func:`open_page`), to run the page's own
    modules in; the test fails on any script error it shows."""
    context, pg, errors = open_page(browser)
    try:
        pg.goto(server.url + "/")
        yield pg
        assert errors == [], errors
    finally:
        context.close()


def create_game(pg: Any, server: Server, rules: str, scenario: str, side: str,
                opponent: str | None = None) -> None:
    """A game against the AI (``opponent``, else the form's default) made from the
    new-game form, seed 1."""
    pg.goto(server.url + "/")
    pg.wait_for_selector("[data-test=create]")
    pg.select_option("#scenario", scenario)
    pg.select_option("#rules", rules)
    pg.check("input[name=mode][value=ai]")
    pg.select_option("#side", side)
    if opponent is not None:
        pg.select_option("[data-test=opponent]", opponent)
    pg.fill("#seed", "1")
    pg.click("[data-test=create]")


def screen(pg: Any, what: str) -> Any:
    return pg.evaluate(f"() => {{ const s = window.tertiaScreen; return {what}; }}")


def wait_for_us(pg: Any, timeout: float = 20.0) -> dict[str, Any]:
    """Until the game awaits us (or is over), the page drawn from the latest view."""
    pg.wait_for_function("() => { const s = window.tertiaScreen; return s && s.view && "
                         "(s.view.status.your_turn || s.view.status.over); }", timeout=timeout * 1000)
    status: dict[str, Any] = screen(pg, "s.view.status")
    return status


def click_unit(pg: Any, uid: str) -> bool:
    """Select a piece by clicking it on the map (zoomed onto it first)."""
    u = screen(pg, f"s.view.state.units.find((u) => u.id === {uid!r})")
    if u is None:
        return False
    pg.evaluate("""([x, y]) => { const m = window.tertiaScreen.map;
        m.setViewBox(x - 12, m.table.depth - y - 8, 24, 16); }""", [u["x"], u["y"]])
    x, y = to_client(pg, u["x"], u["y"])
    pg.mouse.click(x, y)
    try:
        picked = "(id) => { const s = window.tertiaScreen; return s.detail && s.detail.report.id === id; }"
        pg.wait_for_function(picked, arg=uid, timeout=5000)
    except Exception:
        return False
    return True


def try_drag(pg: Any, uid: str) -> bool:
    """Drag the selected piece's ghost a little way, ahead, then back, then aside, and make
    the first move the rules allow (the odds of what follows shown first, if dice decide)."""
    u = screen(pg, f"s.view.state.units.find((u) => u.id === {uid!r})")
    r = math.radians(u["facing"])
    for fwd, side in ((1.5, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0), (0.7, 0.0)):
        to = (u["x"] + math.sin(r) * fwd + math.cos(r) * side,
              u["y"] + math.cos(r) * fwd - math.sin(r) * side)
        x0, y0 = to_client(pg, u["x"], u["y"])
        x1, y1 = to_client(pg, *to)
        pg.mouse.move(x0, y0)
        pg.mouse.down()
        pg.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
        pg.mouse.move(x1, y1, steps=4)
        pg.mouse.up()
        try:
            pg.wait_for_selector("[data-test=move-box]", timeout=5000)  # the drag took the piece
            verdict = "[data-test=move-box].legal, [data-test=move-box].illegal"
            pg.wait_for_selector(verdict, timeout=SERVER_WAIT)
            judged = ("() => document.querySelector('[data-test=move-box]')"
                      " && !document.querySelector('[data-test=move-odds-wait]')")
            pg.wait_for_function(judged, timeout=SERVER_WAIT)
        except Exception:
            continue
        if pg.locator("[data-test=move-box].legal").count():
            version = screen(pg, "s.view.version")
            pg.click("[data-test=confirm-move]")
            pg.wait_for_function(f"() => window.tertiaScreen.view.version > {version}", timeout=SERVER_WAIT)
            return True
    return False


def try_odds(pg: Any) -> bool:
    """The odds of a dice-driven action on the selected piece's card, or its question of
    odds, answered or refused in one line before any die is rolled; then the action made
    (when it may be) or the panel closed."""
    version = screen(pg, "s.view.version")
    aimed = pg.locator(".unit-actions .btn.target:has-text('…')")
    if aimed.count():
        aimed.first.click()
    elif pg.locator("[data-test=ask-odds]").count():
        pg.click("[data-test=ask-odds]")
        words = pg.eval_on_selector_all("[data-test=question-word] option", "els => els.map((e) => e.value)")
        if len(words) > 1:
            pg.select_option("[data-test=question-word]", words[1])
        targets = pg.eval_on_selector_all("[data-test=question-target] option",
                                          "els => els.map((e) => e.value)")
        if len(targets) > 1:
            pg.select_option("[data-test=question-target]", targets[1])
    else:
        return False
    answer = ("[data-test=hit-chance], [data-test=measure-chance], [data-test=outcome-chance], "
              "[data-test=odds-refusal]")
    pg.wait_for_selector(answer, timeout=20000)
    # Nothing has been rolled while the odds are shown, and the question fits the panel.
    assert screen(pg, "s.view.version") == version
    assert out_of_window(pg) == []
    text = pg.inner_text(".odds-panel")
    refused = pg.locator("[data-test=odds-refusal]")
    if refused.count():
        assert len(refused.inner_text().strip().splitlines()) == 1, refused.inner_text()
    else:  # an answer lists its likeliest outcomes
        listed = ".odds-panel [data-test=odds-outcomes], .odds-panel [data-test=outcomes]"
        assert pg.locator(listed).count(), text
    assert not BAD_WORDS.search(text), text
    roll = pg.locator(".odds-panel [data-test=roll]")
    if roll.count() and roll.is_enabled():
        roll.click()
        pg.wait_for_function(f"() => window.tertiaScreen.view.version > {version}", timeout=SERVER_WAIT)
    else:
        close = ".odds-panel button:has-text('Close'), .odds-panel button:has-text('Cancel')"
        pg.locator(close).first.click()
    return True


def own_pieces(pg: Any) -> list[tuple[str, list[str]]]:
    """Our pieces in play with the ways their cards offer to act now (``drag``, ``aim``,
    ``button``; ``!`` when dice decide it), as the page's server tells it: the piece the
    moment is about first, then those with something to do."""
    found: list[tuple[str, list[str]]] = pg.evaluate("""async () => {
        const s = window.tertiaScreen; const v = s.view;
        const focus = s.focusPiece();
        const mine = v.state.units.filter((u) => u.side === v.side && !u.removed).map((u) => u.id);
        const out = [];
        for (const id of mine) {
          const r = await fetch(`/api/games/${s.gameId}/units/${encodeURIComponent(id)}`,
            { headers: { Authorization: `Bearer ${s.token()}` } });
          const d = await r.json();
          out.push([id, (d.actions || []).map((a) => a.interaction + (a.dice_driven ? "!" : ""))]);
        }
        out.sort((a, b) => (b[0] === focus) - (a[0] === focus) || b[1].length - a[1].length);
        return out; }""")
    return found


def press(pg: Any, selector: str) -> bool:
    version = screen(pg, "s.view.version")
    button = pg.locator(selector)
    if not button.count() or not button.first.is_enabled():
        return False
    button.first.click()
    try:
        pg.wait_for_function(f"() => window.tertiaScreen.view.version > {version}", timeout=SERVER_WAIT)
    except Exception:
        return False
    return True


def ids_of(pg: Any) -> set[str]:
    """The battle's unit and command ids, and the rule sets' ids (a rule is cited by its
    book's name)."""
    return set(screen(pg, "s.view.state.units.flatMap((u) => [u.id, u.command])")) | set(ruleset_ids())


def play_cell(pg: Any, rules: str) -> dict[str, Any]:
    """Play our side through the page until a turn of each side is done (or the time is
    up), checking the page after every step."""
    done: dict[str, Any] = {"drag": False, "odds": False, "ended": 0, "ai_after": False, "orders": 0,
                            "problems": []}
    ids = ids_of(pg)
    odds_possible = bool(screen(pg, "s.questions.words.length || s.vocab.actions.some((k) => k.dice_driven)"))
    start_turn = None
    deadline = time.monotonic() + SECONDS_A_CELL
    tried: set[str] = set()
    while time.monotonic() < deadline:
        status = wait_for_us(pg)
        done["problems"] += dom_problems(pg, ids)
        if status["over"]:
            break
        turn = status.get("turn") or 0
        if start_turn is None and turn:
            start_turn = turn
        if done["ended"] and screen(pg, "s.view.log_total") > done["ended_at"]:
            done["ai_after"] = True
        if (done["drag"] and (done["odds"] or not odds_possible) and done["ai_after"]
                and start_turn is not None and turn > start_turn):
            break
        decision = screen(pg, "s.vocab.pending(s.view.status)")
        # A decision: its panel's way (cards laid in order), else the prompt's first answer.
        answered = decision is not None and (press(pg, "[data-test=lay-cards]")
                                             or press(pg, ".prompt .choices > button"))
        if answered:
            continue
        # Orders to give first, where a panel offers them (twice at most a phase).
        if done["orders"] < 2 and press(pg, ".panel .choices > button"):
            done["orders"] += 1
            continue
        acted = False
        # Once a drag and the odds are done, nothing is looked for among the pieces.
        pieces = own_pieces(pg) if not (done["drag"] and (done["odds"] or not odds_possible)) else []
        wanted = ([p for p in pieces if "drag" in p[1]] if not done["drag"] else []) + \
            ([p for p in pieces if any(w.endswith("!") for w in p[1])] if not done["odds"] else [])
        if not done["odds"] and not wanted and odds_possible and screen(pg, "s.questions.words.length"):
            troops = set(screen(pg, "s.view.state.units.filter((u) => u.kind !== 'commander')"
                                    ".map((u) => u.id)"))
            wanted = [p for p in pieces if p[0] in troops][:1]
        for uid, ways in wanted[:3]:
            key = f"{status.get('step')}:{uid}"
            if key in tried:
                continue
            tried.add(key)
            if not click_unit(pg, uid):
                continue
            if not done["odds"] and try_odds(pg):
                done["odds"] = True
                acted = True
                break
            if not done["drag"] and "drag" in ways and try_drag(pg, uid):
                done["drag"] = True
                acted = True
                break
        if acted:
            continue
        # Nothing more to do: end the phase or the activation (or take the first choice).
        log_total = screen(pg, "s.view.log_total")
        pg.keyboard.press("Escape")
        if press(pg, ".prompt .choices .end-phase") or press(pg, ".prompt .choices > button"):
            done["ended"] += 1
            done["ended_at"] = log_total
            done["orders"] = 0
            continue
        break
    return done


def words(text: str) -> str:
    return " ".join(text.split())


def check_the_briefing(pg: Any, played: Scenario) -> None:
    """The side panel's folded "The battle" tells the scenario's story and how its order
    of battle is drawn up as the rule set played fields it (its own order of battle's
    notes, where it has them); it is not shown for a scenario that tells neither."""
    briefing = pg.locator("[data-test=briefing]")
    if not played.description and not played.notes:
        assert briefing.is_hidden()
        return
    pg.click("[data-test=briefing] summary")
    told = words(briefing.inner_text())
    assert words(played.description) in told and words(played.notes) in told, told
    pg.click("[data-test=briefing] summary")


def test_the_new_battle_form_tells_the_battle_as_the_rule_set_chosen_draws_it_up(server: Server,
                                                                                  browser: Any) -> None:
    """Edgehill under d3-cards is eight units a side, under Charge yr Pikes! regiments in
    tertias: the form's "The battle" tells the story once and, after it, the notes of the
    rule set chosen, changing with it."""
    with home_page(browser, server) as pg:
        pg.wait_for_selector("[data-test=create]")
        pg.select_option("#scenario", "edgehill")
        pg.click("[data-test=briefing] summary")
        for rules in ("d3-cards", "charge-yr-pikes", "larger-battles"):
            pg.select_option("#rules", rules)
            played = load_named("edgehill", rules_id=rules)
            told = words(pg.inner_text("[data-test=briefing]"))
            assert words(played.description) in told and words(played.notes) in told, (rules, told)
        assert words(load_named("edgehill", rules_id="d3-cards").notes) not in told


PHONE = {"width": 390, "height": 844}
"""A phone's screen, held upright."""


def wider_than_the_window(pg: Any) -> list[str]:
    """Whatever runs past the window's right edge, so that the page scrolls sideways (the
    map, drawn to fit its frame, and a table in a frame of its own left out)."""
    return list(pg.evaluate("""() => [...document.body.querySelectorAll('*')]
        .filter((e) => !e.closest('svg, .table-wrap') && e.getBoundingClientRect().right
                       > document.documentElement.clientWidth + 1)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${(e.innerText || '').slice(0, 40)}`)"""))


def test_the_new_battle_form_fits_a_phones_screen_under_every_rule_set(server: Server, browser: Any) -> None:
    """The form on a phone's screen with each rule set chosen on each battle written for
    it: a long choice (a rule set's title, a player's description) never widens it past
    the window."""
    with home_page(browser, server) as pg:
        pg.set_viewport_size(PHONE)
        pg.wait_for_selector("[data-test=create]")
        for rules, scenario in OPENINGS:
            pg.select_option("#scenario", scenario)
            pg.select_option("#rules", rules)
            assert wider_than_the_window(pg) == [], (rules, scenario)


@pytest.mark.parametrize(("rules", "scenario", "side", "options"), CELLS, ids=[c[0] for c in CELLS])
def test_the_replay_fits_a_phones_screen(server: Server, browser: Any, rules: str, scenario: str,
                                         side: str, options: dict[str, Any]) -> None:
    """A replay on a phone's screen: its controls wrap within the window."""
    gid, token = _play_by_first_choices(server, rules, scenario, 12)
    context, pg, errors = open_page(browser)
    try:
        pg.set_viewport_size(PHONE)
        pg.goto(f"{server.url}/#/replay/{gid}?token={token}&step=6")
        pg.wait_for_selector("[data-test=replay-status]")
        assert wider_than_the_window(pg) == []
        assert errors == [], errors
    finally:
        context.close()


@pytest.mark.parametrize(("rules", "scenario", "side", "options"), CELLS, ids=[c[0] for c in CELLS])
def test_each_rule_set_plays_in_the_page(server: Server, browser: Any, rules: str, scenario: str, side: str,
                                         options: dict[str, Any]) -> None:
    context, pg, errors = open_page(browser)
    try:
        create_game(pg, server, rules, scenario, side)
        pg.wait_for_selector(".unit")
        wait_for_us(pg, 30)
        with with_plugins():
            played = load_named(scenario, rules_id=rules)
        check_the_briefing(pg, played)
        assert out_of_window(pg) == []
        # The turn chip gives the last turn by the rule set's own clock (darkness under
        # Charge yr Pikes!), never the scenario's number where the rule set ends otherwise.
        last = screen(pg, "s.view.status.last_turn")
        assert pg.inner_text("[data-test=turn]").endswith(f"of {last['text']}"), last
        first_turn = screen(pg, "s.view.status.turn") or 0
        done = play_cell(pg, rules)
        assert done["problems"] == [], sorted(set(done["problems"]))
        assert done["drag"], f"{rules}: no unit could be dragged and moved"
        odds_possible = screen(pg, "s.questions.words.length || s.vocab.actions.some((k) => k.dice_driven)")
        assert done["odds"] or not odds_possible, f"{rules}: no odds were asked"
        assert done["ended"] >= 1 and done["ai_after"], f"{rules}: the turn did not pass to the AI and back"
        assert (screen(pg, "s.view.status.turn") or 0) > first_turn, f"{rules}: a whole turn was not played"
        # An enemy piece (a commander, where one is drawn) described from our side's view.
        enemy = screen(pg, "(s.view.state.units.filter((u) => u.side !== s.view.side && !u.removed)"
                           ".sort((a, b) => (b.kind === 'commander') - (a.kind === 'commander'))[0]"
                           " || {}).id")
        if enemy and click_unit(pg, enemy):
            card = pg.inner_text(".unit-card")
            assert not BAD_WORDS.search(card) and not re.search(r"\b(Own|Extra|Width|Depth)\b", card), card
            # The piece's kind as its rule set names it (the report's, so never the engine's key).
            kind = screen(pg, "s.detail.report.kind_label")
            assert kind and kind in pg.inner_text(".unit-card [data-test=unit-side]"), kind
        assert dom_problems(pg, ids_of(pg)) == []
        assert panel_problems(pg) == []
        pg.evaluate("() => window.tertiaScreen.map.fit()")
        pg.wait_for_timeout(100)
        assert label_problems(pg) == []
        if SHOTS:
            troop = screen(pg, "s.view.state.units.find((u) => u.side === s.view.side && !u.removed"
                               " && u.kind !== 'commander').id")
            click_unit(pg, troop)
            pg.evaluate("() => window.tertiaScreen.map.fit()")
            pg.wait_for_timeout(300)
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            pg.screenshot(path=str(Path(SHOTS) / f"matrix-{rules}.png"))
        pg.set_viewport_size({"width": 1024, "height": 700})
        pg.wait_for_timeout(200)
        assert out_of_window(pg) == []
        assert errors == [], errors
    finally:
        context.close()


def test_a_charge_dragged_home_shows_its_odds_before_its_dice(server: Server, browser: Any) -> None:
    """d3-commands: a unit moved into contact fights at once. The drag ends in a step that
    shows the charge's odds, and nothing is rolled until the move is made. Against the
    first edition (``baseline``), whose foot, winning the initiative, stand: the doctrine's
    second edition charges the horse first."""
    context, pg, errors = open_page(browser)
    try:
        create_game(pg, server, "d3-commands", "d3-test-charge", "parliament", opponent="baseline")
        pg.wait_for_selector(".unit")
        for _ in range(4):  # lay the cards if asked, until the horse may move
            wait_for_us(pg, 30)
            if screen(pg, "s.vocab.pending(s.view.status)") is None:
                break
            press(pg, "[data-test=lay-cards]")
        assert click_unit(pg, "p-horse")
        horse = screen(pg, "s.view.state.units.find((u) => u.id === 'p-horse')")
        foot = screen(pg, "s.view.state.units.find((u) => u.id === 'r-foot')")
        contact = foot["y"] - foot["depth"] / 2 - horse["depth"] / 2
        version = screen(pg, "s.view.version")
        x0, y0 = to_client(pg, horse["x"], horse["y"])
        x1, y1 = to_client(pg, horse["x"], contact)
        pg.mouse.move(x0, y0)
        pg.mouse.down()
        pg.mouse.move(x1, y1, steps=8)
        pg.mouse.up()
        pg.wait_for_selector("[data-test=move-odds] [data-test=hit-chance]")
        assert "Lifeguard of Foot" in pg.inner_text("[data-test=move-odds]")
        assert pg.inner_text("[data-test=confirm-move]") == "Move here and roll"
        assert screen(pg, "s.view.version") == version  # nothing rolled yet
        pg.click("[data-test=confirm-move]")
        pg.wait_for_function(f"() => window.tertiaScreen.view.version > {version}")
        # The charge's dice reach the page's log, beside the attack they decided (whichever
        # view carried them: one sent after the AI has moved holds only the later entries).
        pg.wait_for_selector(".log-list .log-entry .log-dice")
        # Hits taken, as the pieces' facts say: pips on each base, and a meter on the card.
        counts = screen(pg, """Object.values(s.view.pieces).flatMap((p) => p.facts
            .filter((f) => f.kind === 'count' && f.on_base && f.value > 0 && f.value <= 6)
            .map((f) => [p.id, f.key, f.value, f.text]))""")
        assert counts, "no piece has taken a hit"
        for uid, key, value, text in counts:
            pips = pg.locator(f'.unit[data-unit="{uid}"] [data-test=base-pips] [data-fact="{key}"] circle')
            assert pips.count() == value, (uid, key, value)
            assert click_unit(pg, uid)
            assert re.fullmatch(r"\w+ \d+ of \d+", text)
            assert text in pg.inner_text(".unit-card [data-test=fact-meter]")
        assert errors == [], errors
    finally:
        context.close()


def test_the_result_is_not_shown_over_a_turns_old_dice(server: Server, browser: Any) -> None:
    """d3-commands' charge at close range, played through the API by the doctrine AI on
    both sides while Parliament's page follows it: once the page's tray shows a roll, the
    battle is played on at once to its end (the turn limit). The result then shows with the
    tray put away, not over those dice; the battle's last action rolled none, so the result
    shows no roll either."""
    import random

    import httpx

    from tertia.ai.doctrine import DoctrinePlayer
    from tertia.core.game import Game
    from tertia.core.state import GameState
    from tertia.io.scenario_file import load_scenario
    from tertia.rulesets import get_ruleset
    from tests.test_web_browser import check_the_results_dice

    body = {"scenario": "d3-test-charge", "rules": "d3-commands", "mode": "hotseat", "seed": 1}
    created = httpx.post(server.url + "/api/games", json=body).json()
    gid, tokens = created["id"], created["tokens"]
    ours = {"Authorization": f"Bearer {tokens['parliament']}"}
    url = f"{server.url}/api/games/{gid}"
    charge = Path(__file__).parent / "scenarios" / "d3_charge.toml"  # as the server offers it
    game = Game(get_ruleset("d3-commands"), load_scenario(charge, rules_id="d3-commands"))
    players: dict[str, DoctrinePlayer] = {}
    rng = random.Random(1)
    context, pg, errors = open_page(browser)
    try:
        pg.goto(f"{server.url}/#/play/{gid}?token={tokens['parliament']}")
        pg.wait_for_selector(".unit")
        rolled = False
        for _ in range(200):
            status = httpx.get(url, headers=ours).json()["status"]
            if status["over"]:
                break
            side = status["to_act"]
            headers = {"Authorization": f"Bearer {tokens[side]}"}
            seen = httpx.get(url + "/view?log_from=100000", headers=headers).json()
            state = game.sample_hidden(GameState.from_dict(seen["state"]), side, rng)  # the other's cards
            action = players.setdefault(side, DoctrinePlayer()).choose(game, state, rng)
            made = httpx.post(url + "/actions", json=action.to_dict(), headers=headers, timeout=60)
            assert made.status_code == 200, made.text
            if not rolled and any(entry["dice"] for entry in made.json()["log"]):
                rolled = True
                pg.wait_for_selector(".dice-tray:not([hidden]) .die")  # the page has the roll
        else:
            raise AssertionError("the battle did not end")
        assert rolled, "no die was rolled before the end"
        assert check_the_results_dice(pg, server, gid, tokens["parliament"]) == []
        assert errors == [], errors
    finally:
        context.close()


def test_a_deployment_not_yet_done_says_why_naming_the_tertia(server: Server, browser: Any) -> None:
    """Charge yr Pikes!' secret deployment: a piece placed away from its tertia, and the
    button to say the deployment is done is shown refused, with the rules' reason naming
    the tertia by its card (no id); the top bar names the side deploying."""
    context, pg, errors = open_page(browser)
    try:
        create_game(pg, server, "charge-yr-pikes", "naseby", "parliament")
        wait_for_us(pg, 30)
        pg.wait_for_selector("[data-test=deploy-unit]")
        assert "Parliament" in pg.inner_text("[data-test=active-side]")
        # A foot regiment of a tertia of several, put down at the table's other end.
        group = screen(pg, """(() => { const mine = s.view.state.units.filter((u) => u.side === s.view.side
            && u.kind === 'foot');
            const by = (c) => mine.filter((u) => u.command === c).length;
            return mine.find((u) => by(u.command) > 1); })()""")
        width = screen(pg, "s.table.width")
        units = screen(pg, "s.view.state.units.filter((u) => !u.removed)")
        pg.select_option("[data-test=deploy-unit]", group["id"])

        def clear(x: float, y: float) -> bool:
            room = max(group["width"], group["depth"]) + 2
            return all(abs(u["x"] - x) > (u["width"] + room) / 2 or abs(u["y"] - y) > (u["depth"] + room) / 2
                       for u in units)

        spots = [(x, y) for y in (5.0, 9.0, 3.0) for x in range(8, int(width) - 8, 4)
                 if abs(x - group["x"]) > 12 and clear(x, y)]
        for x, y in spots[:4]:
            version = screen(pg, "s.view.version")
            cx, cy = to_client(pg, x, y)
            pg.mouse.click(cx, cy)
            pg.wait_for_timeout(600)
            if screen(pg, "s.view.version") > version:
                break
        pg.wait_for_selector("[data-test=refused]")
        refused = pg.inner_text("[data-test=refused]")
        assert "must be deployed with all its units" in refused, refused
        assert group["command"] not in refused
        assert dom_problems(pg, ids_of(pg)) == []
        assert errors == [], errors
    finally:
        context.close()


WIDE_NAMES = """document.addEventListener('DOMContentLoaded', () => {
    const style = document.createElement('style');
    style.textContent = '.unit-label .name { font-family: "DejaVu Sans", sans-serif; letter-spacing: .1em; }';
    document.head.append(style); });"""
"""Names drawn in a font wider than the one the page is styled with, as on a machine whose
sans-serif font runs wide: the map must lay its names out by their width as drawn."""


def touching_names(pg: Any) -> list[str]:
    """Pairs of pieces' names shown on the map whose drawn boxes meet or cross."""
    return list(pg.evaluate("""() => {
        const shown = [...document.querySelectorAll('.unit-label:not(.crowded) text')]
          .map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
        const out = [];
        for (let i = 0; i < shown.length; i++) for (let j = i + 1; j < shown.length; j++) {
          const a = shown[i].box, b = shown[j].box;
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          const by = `${w.toFixed(1)} x ${h.toFixed(1)} px`;
          if (w > -1 && h > -1) out.push(`${shown[i].text} meets ${shown[j].text} (${by})`);
        }
        return out; }"""))


@pytest.mark.parametrize(("rules", "scenario"), OPENINGS, ids=[f"{r}-{s}" for r, s in OPENINGS])
@pytest.mark.parametrize("wide", [False, True], ids=["styled", "wide-font"])
def test_no_two_names_on_the_map_meet_at_the_opening(server: Server, browser: Any, rules: str, scenario: str,
                                                     wide: bool) -> None:
    """Each battle written for each rule set, as it opens: no two pieces' names on the map
    meet or cross, at two window sizes, whether the names are drawn in the page's own font
    or in a wider one (the width a name takes is the width it is drawn at, not a guess)."""
    import httpx

    created = httpx.post(server.url + "/api/games", json={"scenario": scenario, "rules": rules,
                                                           "mode": "hotseat", "seed": 1})
    assert created.status_code == 201, created.text
    gid, token = created.json()["id"], next(iter(created.json()["tokens"].values()))
    context, pg, errors = open_page(browser)
    try:
        if wide:
            pg.add_init_script(WIDE_NAMES)
        pg.goto(f"{server.url}/#/play/{gid}?token={token}")
        pg.wait_for_selector(".unit-label", state="attached")
        for width, height in ((1440, 900), (1024, 700)):
            pg.set_viewport_size({"width": width, "height": height})
            pg.wait_for_timeout(200)  # the names are laid out again once the map has its new size
            assert pg.locator(".unit-label:not(.crowded)").count() >= 2
            assert touching_names(pg) == [], (width, height)
            assert label_problems(pg) == [], (width, height)
        assert errors == [], errors
    finally:
        context.close()


def _play_by_first_choices(server: Server, rules: str, scenario: str, actions: int) -> tuple[str, str]:
    """A hotseat game of ``rules`` played through the API for ``actions`` actions, each
    side taking the first choice its prompt offers (ending its phase, mostly): its id and
    a token for the replay."""
    import httpx

    created = httpx.post(server.url + "/api/games", json={"scenario": scenario, "rules": rules,
                                                           "mode": "hotseat", "seed": 1}).json()
    gid, tokens = created["id"], created["tokens"]
    url = f"{server.url}/api/games/{gid}"
    any_token = {"Authorization": f"Bearer {next(iter(tokens.values()))}"}
    for _ in range(actions):
        side = httpx.get(url, headers=any_token).json()["status"]["to_act"]
        if side not in tokens:
            break
        me = {"Authorization": f"Bearer {tokens[side]}"}
        choices = httpx.get(url + "/view?log_from=100000", headers=me).json()["choices"]
        if not choices:
            break
        made = httpx.post(url + "/actions", json=choices[0]["action"], headers=me, timeout=60)
        assert made.status_code == 200, made.text
    return gid, next(iter(tokens.values()))


@pytest.mark.parametrize(("rules", "scenario", "side", "options"), CELLS, ids=[c[0] for c in CELLS])
def test_each_replay_step_shows_no_placeholder(server: Server, browser: Any, rules: str, scenario: str,
                                                side: str, options: dict[str, Any]) -> None:
    """Every rule set's replay, stepped through from the start: the status beside the map
    (turn, side, phase and the step's last line) holds no ``null`` or ``undefined``, a step
    whose entry tells nothing (a larger-battles phase ended with nothing done) included."""
    gid, token = _play_by_first_choices(server, rules, scenario, 12)
    context, pg, errors = open_page(browser)
    try:
        pg.goto(f"{server.url}/#/play/{gid}?token={token}")
        pg.wait_for_selector(".unit")
        pg.goto(f"{server.url}/#/replay/{gid}")
        pg.wait_for_selector("[data-test=replay-status]")
        total = int(pg.inner_text("[data-test=replay-step]").split()[-1])
        assert total >= 2, total
        pg.click(".replay-controls button[title=Start]")
        counter = "document.querySelector('[data-test=replay-step]').textContent"
        for step in range(total + 1):
            if step:
                pg.click("[data-test=forward]")
            pg.wait_for_function(f"() => {counter}.startsWith('Step {step} ')")
            shown = pg.evaluate(
                "() => document.querySelector('[data-test=replay-status]').parentNode.innerText")
            assert not BAD_WORDS.search(shown), (step, shown)
        assert errors == [], errors
    finally:
        context.close()


POSSESSIVE_SAMPLES = ("Royalists", "Parliament", "Royalists (King Charles I)", "Usher's Dragoons", "Essex's",
                      "Colonel Hollis", "Sir Jacob Astley", "Lord Wilmot", "Prince Rupert of the Rhine")
"""Names the possessive's rule tells apart: a plural in s, a person whose name ends in s, a
name already possessive, a name with a closing aside."""


def catalogue_scenarios() -> dict[str, Scenario]:
    """Every scenario in the catalogue by name, the built-ins and the battles every
    registered rule set ships (the example plugin's among them, as the matrix's server
    serves them): a rule set registered later brings its battles here without an edit."""
    with with_plugins():
        return {entry.name: load_named(entry.name) for entry in scenario_catalogue()}


def catalogue_names(samples: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """``samples`` and the names of every side, and of every commander (a person), of every
    scenario in the catalogue (:func:`catalogue_scenarios`): the sides' names, then the
    people's."""
    sides, people = list(samples), list(samples)
    for scenario in catalogue_scenarios().values():
        sides += scenario.side_names().values()
        people += [c.name for c in scenario.commanders if c.name]
    return sides, people


def test_the_names_compared_are_those_of_every_scenario_the_catalogue_serves(server: Server) -> None:
    """The names the page's possessive and agreement are held to are those of every scenario
    the server's catalogue serves that the registry ships (the example plugin's battle
    among them, not the built-ins alone): each side's name as served, and each commander's."""
    import httpx

    served = httpx.get(server.url + "/api/catalogue").json()["scenarios"]
    sides, people = catalogue_names(())
    with with_plugins():
        shipped = [s for s in served if is_named(s["name"])]
        commanders = {s["name"]: [c.name for c in load_named(s["name"]).commanders if c.name]
                      for s in shipped}
    assert {s["name"] for s in shipped} - set(builtin_names()), "no battle a rule set ships is served"
    for s in shipped:
        assert set(s["side_names"].values()) <= set(sides), s["name"]
        assert set(commanders[s["name"]]) <= set(people), s["name"]


def test_the_pages_possessive_agrees_with_the_engines_for_sides_and_commanders(server: Server,
                                                                                browser: Any) -> None:
    """The page's ``possessive()`` (``ui.js``, run in the browser) gives what the engine's
    :func:`~tertia.core.narration.possessive` gives, for every side and every commander (a
    person: "Colonel Hollis's") of every scenario in the catalogue."""
    from tertia.core.narration import possessive

    sides, people = catalogue_names(POSSESSIVE_SAMPLES)
    with home_page(browser, server) as pg:
        run = ("async ([names, person]) => { const ui = await import('/static/js/ui.js'); "
               "return names.map((n) => ui.possessive(n, { person })); }")
        assert pg.evaluate(run, [sides, False]) == [possessive(n) for n in sides]
        assert pg.evaluate(run, [people, True]) == [possessive(n, person=True) for n in people]
        assert pg.evaluate(run, [["Colonel Hollis"], True]) == ["Colonel Hollis's"]


AGREEMENT_SAMPLES = ("Royalists", "Parliament", "Parliament (Earl of Essex)", "Usher's Dragoons",
                     "Wentworth's and Belasyse's Brigades", "Lord Saye's Regiment of Foot",
                     "The Reserve of Three Cornets", "Lord Byron's Horse", "The Lords Commissioners",
                     "Sir Thomas Fairfax", "Clubmen", "The Hollis", "they", "y")
"""Names the agreement's rule tells apart: a plural in s, one with an aside or an "of" after
its head noun, a head noun in 's, ss or us, a pronoun, a lone letter."""
AGREEMENT_VERBS = ("win", "move first", "choose", "carry", "reach", "pass", "go", "play", "fix", "buzz",
                   "wash", "say", "y", "")
"""Verbs whose third person singular the rule spells apart: -s, -es after s, sh, ch, x, z or
o, -ies after a consonant and y, -s after a vowel and y; a one-letter verb and none."""


def test_the_pages_agreement_agrees_with_the_engines_for_sides_and_commanders(server: Server,
                                                                              browser: Any) -> None:
    """The page's ``isPluralName()`` and ``sideDoes()`` (``ui.js``, run in the browser) give
    what the engine's :func:`~tertia.core.narration.is_plural_name` and
    :func:`~tertia.core.narration.side_does` give, for every side and every commander (a
    person: "Colonel Hollis wins") of every scenario in the catalogue, with each verb."""
    from tertia.core.narration import is_plural_name, side_does

    sides, people = catalogue_names(AGREEMENT_SAMPLES)
    with home_page(browser, server) as pg:
        plural = ("async (names) => { const ui = await import('/static/js/ui.js'); "
                  "return names.map((n) => ui.isPluralName(n)); }")
        assert pg.evaluate(plural, sides + people) == [is_plural_name(n) for n in sides + people]
        does = ("async ([names, verbs, person]) => { const ui = await import('/static/js/ui.js'); "
                "return names.flatMap((n) => verbs.map((v) => ui.sideDoes(n, v, { person }))); }")
        verbs = list(AGREEMENT_VERBS)
        assert pg.evaluate(does, [sides, verbs, False]) == [side_does(n, v) for n in sides for v in verbs]
        assert pg.evaluate(does, [people, verbs, True]) == [side_does(n, v, person=True)
                                                            for n in people for v in verbs]
        assert pg.evaluate(does, [["Royalists", "Parliament"], ["win"], False]) == ["Royalists win",
                                                                                   "Parliament wins"]


def test_the_new_game_form_names_each_scenarios_sides_as_the_scenario_does(server: Server,
                                                                           browser: Any) -> None:
    """The new-game form lists the sides of every scenario the server offers (the battles
    rule sets ship among them) by the scenario's names for them, as the catalogue serves
    them and a game names them, never by their ids in words; each option's value stays the
    side's id."""
    import httpx

    from tertia.scenarios import load_builtin

    served = httpx.get(server.url + "/api/catalogue").json()["scenarios"]
    assert {s["name"] for s in served} > set(builtin_names())
    with home_page(browser, server) as pg:
        pg.wait_for_selector("[data-test=create]")
        pg.check("input[name=mode][value=ai]")
        for s in served:
            pg.select_option("#scenario", s["name"])
            shown = pg.eval_on_selector_all("#side option", "os => os.map((o) => [o.value, o.textContent])")
            assert shown == [[side, s["side_names"][side]] for side in s["sides"]], s["name"]
            if s["name"] in builtin_names():
                assert dict(shown) == load_builtin(s["name"]).side_names(), s["name"]
        pg.select_option("#scenario", "edgehill")
        assert pg.inner_text("#side option[value=royalist]") == "Royalists (King Charles I)"


def _recorded_results(rules: str) -> list[dict[str, Any]]:
    """The results of the rule set's golden transcripts, one of each shape of breakdown."""
    from tests.golden import golden_cases

    found: dict[str, dict[str, Any]] = {}
    for case in golden_cases():
        if case.rules != rules:
            continue
        for line in case.path.read_text(encoding="utf-8").splitlines():
            if line.startswith("result "):
                result = json.loads(line.removeprefix("result "))
                shape = json.dumps({k: sorted(v) if isinstance(v, dict) else None
                                    for k, v in (result.get("breakdown") or {}).items()}, sort_keys=True)
                found.setdefault(shape, result)
    return list(found.values())


def report_headings(rules: str, result: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The HTML report's heading over the result's breakdown (None where it shows none) and
    the column heading of each item of it, for ``result`` on the rule set's default battle."""
    from html import unescape

    from tertia.core.game import Game
    from tertia.io.report import Shown, _result_section
    from tertia.rulesets import get_ruleset

    game = Game(get_ruleset(rules), load_named(default_scenario(rules), rules_id=rules))
    state = game.ruleset.initial_state(game.scenario)
    final = state.evolve(result=result)
    html = _result_section(state, final, [], game.side_names, {},
                           Shown(game.table, final, game.ruleset.presentation()))
    head = html[html.index("<thead>"):html.index("</thead>")]
    group = re.search(r'<th colspan="\d+" scope="colgroup">([^<]*)</th>', head)
    title = unescape(group.group(1)) if group and group.group(1) != "Losses" else None
    last_row = re.findall(r"<tr>(.*?)</tr>", head)[-1]
    columns = [unescape(c) for c in re.findall(r'<th scope="col">([^<]*)</th>', last_row)]
    assert columns[-2:] == ["Troops", "Commanders"], columns
    return title, columns[:-2]


@pytest.mark.parametrize("rules", [c[0] for c in CELLS])
def test_the_report_fits_a_phones_screen(browser: Any, tmp_path: Path, rules: str) -> None:
    """The HTML report of a battle (its first 300 actions) on a 390px wide screen: nothing
    runs past the window's edge; a table too wide for it scrolls within its own frame."""
    from tests.test_surface_matrix import invoke

    report = tmp_path / "battle.html"
    with with_plugins():
        code, out = invoke("battle", "--rules", rules, "--seed", "1", "--max-actions", "300",
                           "--report", str(report))
    assert code in (0, 2) and report.exists(), out
    context, pg, errors = open_page(browser)
    try:
        pg.set_viewport_size(PHONE)
        pg.goto(report.as_uri())
        assert wider_than_the_window(pg) == []
        assert errors == [], errors
    finally:
        context.close()


@pytest.mark.parametrize("rules", [c[0] for c in CELLS])
def test_the_pages_result_heads_the_breakdown_as_the_report_does(server: Server, browser: Any,
                                                                  rules: str) -> None:
    """Each recorded result of the rule set (its golden transcripts, one of each shape), as
    the page's result dialog draws its table (``resultTable`` in ``play.js``, in the page,
    with the words the server serves for the rule set): each item of the breakdown is
    headed as the HTML report heads its column (larger-battles' ``commanders_lost``, the
    points they cost, "For commanders lost"), under the report's heading over them."""
    with with_plugins():
        results = _recorded_results(rules)
        assert results, rules
        expected = [report_headings(rules, r) for r in results]
        battle = load_named(default_scenario(rules), rules_id=rules)
        table = {"side_order": list(battle.side_ids),
                 "sides": [{"id": s, "name": n, "colour": "#333"} for s, n in battle.side_names().items()]}
    context, pg, errors = open_page(browser)
    try:
        pg.goto(server.url + "/")
        shown = pg.evaluate("""async ([rules, table, results]) => {
            const play = await import('/static/js/play.js');
            const served = await (await fetch('/api/rules/' + rules)).json();
            return results.map((r) => {
              const node = document.body.appendChild(play.resultTable(table, r, served.breakdown));
              const caption = node.querySelector('caption');
              const items = [...node.querySelectorAll('[data-test=breakdown-item]')].map((n) => n.innerText);
              node.remove();
              return [caption ? caption.innerText : null, items];
            }); }""", [rules, table, results])
        assert [tuple(s) for s in shown] == expected
        assert errors == [], errors
    finally:
        context.close()
