"""The page in a real Chromium (Debian's), driven by Playwright: a battle against the AI
from the new-game form to the result, dragging units to legal and illegal places, odds,
an attack, undo, a reload that resumes, and replay.

Set ``TERTIA_SCREENSHOTS=docs/screenshots`` to keep screenshots of the key screens.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tertia.ai.doctrine import DoctrinePlayer
from tertia.core.game import Game
from tertia.core.geometry import Base, polygon_distance
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.rulesets.larger_battles.actions import DeclareAttacks
from tertia.scenarios import load_builtin
from tertia.scenarios.catalogue import default_scenario, load_named
from tests.web_server import Server, chromium

SHOTS = os.environ.get("TERTIA_SCREENSHOTS")

pytestmark = pytest.mark.xdist_group("browser")
"""The browser tests (this module's and tests/test_page_matrix.py's) on one worker (``--dist
loadgroup``): each module's servers and browser are started once, and the other worker's
tests use the time a page spends waiting for its server."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # The AI's actions published at once: nothing here needs its timing kept secret
    # (tests/test_web_ai_timing.py holds the cadence).
    s = Server(tmp_path_factory.mktemp("web") / "games.sqlite3", None, "--ai-quantum", "0").start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium("browser tests skipped") as launched:
        yield launched


def _checked_page(browser: Any) -> Iterator[Any]:
    """A page in a browser context of its own (its own storage: one player's browser),
    failing the test on any script error it shows."""
    context = browser.new_context(viewport={"width": 1440, "height": 900}, device_scale_factor=1)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(15_000)
    yield pg
    context.close()
    assert errors == [], errors


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    yield from _checked_page(browser)


def open_every_link(pg: Any, server: Server, gid: str, tokens: dict[str, str]) -> None:
    """Open each side's link in turn, so that this browser holds every side's token (a
    hotseat), each page drawn before the next."""
    held = f"JSON.parse(localStorage.getItem('tertia.games') || '{{}}')['{gid}']"
    for side, tok in tokens.items():
        pg.goto("about:blank")
        pg.goto(f"{server.url}/#/play/{gid}?token={tok}")
        pg.wait_for_function(f"() => {held} && '{side}' in {held}.tokens")
        pg.wait_for_selector(".unit")
        pg.wait_for_function("() => !location.hash.includes('token=')")


def shoot(pg: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def to_client(pg: Any, x: float, y: float) -> tuple[float, float]:
    """Table inches to a point on the screen, through the map's own transform."""
    found = pg.evaluate("""([x, y]) => { const m = window.tertiaScreen.map;
        const pt = m.root.createSVGPoint(); pt.x = x; pt.y = m.table.depth - y;
        const p = pt.matrixTransform(m.root.getScreenCTM());
        return [p.x, p.y]; }""", [x, y])
    return float(found[0]), float(found[1])


def drag(pg: Any, frm: tuple[float, float], to: tuple[float, float]) -> None:
    x0, y0 = to_client(pg, *frm)
    x1, y1 = to_client(pg, *to)
    pg.mouse.move(x0, y0)
    pg.mouse.down()
    pg.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=6)
    pg.mouse.move(x1, y1, steps=6)
    pg.mouse.up()


def pick_to_place(pg: Any, unit_id: str) -> None:
    """Pick a piece waiting to be placed by a click on it, and wait until its card is drawn:
    the card may move the table on the screen, so a click on the table waits for it."""
    pg.click(f'.unit[data-unit="{unit_id}"]', force=True)
    pg.wait_for_function("(id) => document.querySelector('[data-test=deploy-unit]').value === id",
                         arg=unit_id)
    pg.wait_for_function("(id) => { const s = window.tertiaScreen; "
                         "return s.detail && s.detail.report.id === id; }", arg=unit_id)


def unit_position(pg: Any, unit_id: str) -> tuple[float, float]:
    u = pg.evaluate("(id) => window.tertiaScreen.view.state.units.find((u) => u.id === id)", unit_id)
    return float(u["x"]), float(u["y"])


def unit_figures(pg: Any, unit_id: str) -> int:
    """The figures a piece shows its side (its facts, as the page draws them)."""
    facts = pg.evaluate("(id) => window.tertiaScreen.view.pieces[id].facts", unit_id)
    return int(next(f["value"] for f in facts if f["key"] == "figures"))


def game_id(pg: Any) -> str:
    return str(pg.evaluate("() => window.tertiaScreen.gameId"))


def token(pg: Any, gid: str) -> str:
    tokens = pg.evaluate("(id) => JSON.parse(localStorage.getItem('tertia.games'))[id].tokens", gid)
    return str(tokens["parliament"])


def order_hollis_and_pick_his_foot(pg: Any) -> tuple[float, float]:
    """At the Skirmish at the Ford, Parliament to move: Hollis's command ordered to move and
    Hollis's Foot picked to be dragged; where it stands."""
    pg.click("button:has-text(\"Order Colonel Hollis's command to move\")")
    pg.wait_for_function("() => document.querySelector('.orders-chip').innerText.includes('1')")
    start = unit_position(pg, "p-foot-1")
    pg.click('.unit[data-unit="p-foot-1"]')
    pg.wait_for_selector(".move-help")
    return start


def open_new_game(pg: Any, server: Server, body: dict[str, Any]) -> dict[str, Any]:
    """A game made through the API with ``body``, opened in ``pg`` with its first link."""
    created: dict[str, Any] = httpx.post(server.url + "/api/games", json=body).json()
    tok = next(iter(created["tokens"].values()))
    pg.goto(f"{server.url}/#/play/{created['id']}?token={tok}")
    return created


class FirstHeld:
    """The first request the page makes to ``pattern``, held to be answered later (an
    answer overtaken on the way); any later one goes on."""

    def __init__(self, pg: Any, pattern: str) -> None:
        self.pg = pg
        self.held: list[Any] = []
        pg.route(pattern, self._hold_the_first)

    def _hold_the_first(self, route: Any) -> None:
        if self.held:
            route.continue_()
        else:
            self.held.append(route)

    def route(self, what: str) -> Any:
        """The held request, once the page has made it."""
        deadline = time.monotonic() + 15
        while not self.held:
            assert time.monotonic() < deadline, f"the page did not ask for {what}"
            self.pg.wait_for_timeout(50)
        return self.held[0]


class Bot:
    """Plays our side through the HTTP API with the doctrine AI, as a bot would."""

    def __init__(self, server: Server, gid: str, tok: str) -> None:
        self.url = f"{server.url}/api/games/{gid}"
        self.headers = {"Authorization": f"Bearer {tok}"}
        self.game = Game(get_ruleset("larger-battles"), load_builtin("skirmish"))
        self.player = DoctrinePlayer()
        self.rng = random.Random(3)

    def view(self) -> dict[str, Any]:
        return dict(httpx.get(self.url + "/view?log_from=100000", headers=self.headers).json())

    def our_state(self, timeout: float = 15.0) -> GameState | None:
        """The position once the game awaits us (``None`` when it is over)."""
        deadline = time.monotonic() + timeout
        while True:
            status = self.view()
            if status["status"]["over"]:
                return None
            if status["status"]["your_turn"]:
                return GameState.from_dict(status["state"])
            assert time.monotonic() < deadline, "the AI did not reply"
            time.sleep(0.05)

    def play_until(self, stop: Any) -> Any:
        for _ in range(2000):
            state = self.our_state()
            if state is None:
                return None
            action = self.player.choose(self.game, state, self.rng)
            if stop(state, action):
                return action
            r = httpx.post(self.url + "/actions", json=action.to_dict(), headers=self.headers)
            assert r.status_code == 200, r.text
        raise AssertionError("the battle went on too long")


def test_a_battle_against_the_ai_in_the_browser(server: Server, page: Any) -> None:
    pg = page
    pg.goto(server.url + "/")
    pg.wait_for_selector("[data-test=create]")
    shoot(pg, "new-game")
    pg.select_option("#scenario", "skirmish")
    pg.check("input[name=mode][value=ai]")
    pg.select_option("#side", "parliament")
    pg.fill("#seed", "1")
    pg.click("[data-test=create]")
    pg.wait_for_selector(".turn-chip.yours")
    assert "TURN" in pg.inner_text("[data-test=status]").upper()
    gid = game_id(pg)

    # Orders, then drag a unit to a legal place and to an illegal one.
    start = order_hollis_and_pick_his_foot(pg)
    drag(pg, start, (start[0], start[1] + 14))
    # The page judges the ghost on its way as well (into the river short of the limit, say):
    # the box is read once it judges where the ghost was put down.
    pg.wait_for_function("() => document.querySelector('[data-test=measure]')"
                         "?.innerText.startsWith('14.0\"')")
    pg.wait_for_selector(".move-box.illegal")
    reason = pg.inner_text("[data-test=move-reason]")
    assert "the limit is 6" in reason and "Larger Battles" in reason
    pg.wait_for_selector(".ghost.illegal")  # the ghost may repaint a frame after the ruler
    assert pg.locator(".ghost.illegal").count() == 1
    assert pg.is_disabled("[data-test=confirm-move]")
    shoot(pg, "move-illegal")
    drag(pg, (start[0], start[1] + 14), (start[0], start[1] + 4))
    pg.wait_for_selector(".move-box.legal", timeout=60_000)
    assert '4.0" of 6"' in pg.inner_text(".move-box")
    shoot(pg, "move-legal")
    pg.click("[data-test=confirm-move]")
    pg.wait_for_function("() => window.tertiaScreen.view.state.units.find((u) => u.id === 'p-foot-1').y > %f"
                         % (start[1] + 3.9))
    # Undo the move: the unit stands where it started.
    pg.wait_for_selector("[data-test=undo]:not([disabled])")
    pg.click("[data-test=undo]")
    pg.wait_for_function("() => window.tertiaScreen.view.state.units.find((u) => u.id === 'p-foot-1').y < %f"
                         % (start[1] + 0.01))
    assert unit_position(pg, "p-foot-1") == start

    # Reload: the battle resumes where it was.
    steps = pg.evaluate("() => window.tertiaScreen.view.status.step")
    pg.reload()
    pg.wait_for_selector(".turn-chip.yours")
    pg.wait_for_function(f"() => window.tertiaScreen.view?.status.step === {steps}")
    assert "Order Colonel Hollis's command to move" not in pg.inner_text(".prompt")

    # Play on through the API (as a bot would) until our side can attack; do that here.
    bot = Bot(server, gid, token(pg, gid))
    declared = bot.play_until(lambda state, action: isinstance(action, DeclareAttacks))
    assert isinstance(declared, DeclareAttacks), "the battle ended before any attack"
    attack = declared.attacks[0]
    pg.wait_for_function("() => window.tertiaScreen.view.status.phase === 'combat' && "
                         "window.tertiaScreen.view.status.your_turn")
    pg.click(f'.unit[data-unit="{attack.attacker}"]')
    pg.wait_for_selector(f'[data-test="offer-{attack.target}"]')
    pg.click(f'.unit[data-unit="{attack.target}"]')
    pg.wait_for_selector("[data-test=hit-chance]")
    chance = pg.inner_text("[data-test=hit-chance]")
    assert "%" in chance and "to inflict a hit" in chance
    assert pg.inner_text(".mods").strip()
    shoot(pg, "odds")
    # The phase's attacks are declared together, then fought one by one with their odds.
    pg.click("[data-test=plan-add]")
    pg.wait_for_selector("[data-test=plan]")
    assert "Attacks to declare together" in pg.inner_text("[data-test=plan]")
    shoot(pg, "plan")
    pg.click("[data-test=declare-attacks]")
    pg.wait_for_selector("[data-test=declared] button")
    shoot(pg, "declared")
    assert "1 attack declared" in pg.locator(".log-line").last.inner_text()
    pg.click("[data-test=declared] button")
    pg.wait_for_selector("[data-test=hit-chance]")
    log_before = pg.locator(".log-line").count()
    pg.click("[data-test=roll]")
    pg.wait_for_selector(".dice-tray:not([hidden]) .die")
    pg.wait_for_function(f"() => document.querySelectorAll('.log-line').length > {log_before}")
    assert pg.locator(".log-line.kind-attack").count() >= 1
    shoot(pg, "attack")

    # On to the end: the page shows the result and the score.
    assert bot.play_until(lambda state, action: False) is None
    pg.wait_for_selector("[data-test=result]", timeout=30_000)
    assert "Score" in pg.inner_text("[data-test=result]")
    shoot(pg, "result")

    # Replay: step back and forward.
    pg.click("[data-test=result] >> text=Replay the battle")
    pg.wait_for_selector("[data-test=replay-step]")
    total = int(pg.inner_text("[data-test=replay-step]").split()[-1])
    step = "document.querySelector('[data-test=replay-step]').textContent"
    pg.wait_for_function(f"() => {step} === 'Step {total} of {total}'")
    pg.click("[data-test=back]")
    pg.wait_for_function(f"() => {step}.startsWith('Step {total - 1} ')")
    pg.select_option(".replay-controls select", "royalist")
    pg.click("[data-test=forward]")
    pg.wait_for_function(f"() => {step}.startsWith('Step {total} ')")
    shoot(pg, "replay")


class HeldWhile:
    """The requests the page makes to ``pattern`` while :attr:`holding`, held to be
    answered later (or never); once let go, any later one goes on."""

    def __init__(self, pg: Any, pattern: str) -> None:
        self.held: list[Any] = []
        self.holding = True
        pg.route(pattern, self._hold)

    def _hold(self, route: Any) -> None:
        if self.holding:
            self.held.append(route)
        else:
            route.continue_()


def _hollis_foot_moved_up(pg: Any, server: Server) -> tuple[float, float]:
    """The Skirmish at the Ford, Parliament to move: Hollis's Foot dragged 4" on, the
    rules' verdict shown; where it stood."""
    open_new_game(pg, server, {"scenario": "skirmish", "mode": "ai", "side": "parliament", "seed": 1})
    pg.wait_for_selector(".turn-chip.yours")
    start = order_hollis_and_pick_his_foot(pg)
    drag(pg, start, (start[0], start[1] + 4))
    pg.wait_for_selector(".move-box.legal [data-test=confirm-move]:not([disabled])", timeout=60_000)
    return start


def test_a_move_is_judged_where_the_ghost_was_put_down(server: Server, page: Any) -> None:
    """A verdict of a place the ghost has since left is not the dropped move's: until the
    server judges where the ghost was put down, the box says it is asking and its move
    cannot be made; then it shows that verdict."""
    pg = page
    start = _hollis_foot_moved_up(pg, server)
    asked = HeldWhile(pg, "**/validate")
    drag(pg, (start[0], start[1] + 4), (start[0], start[1] + 14))  # past the 6" allowed
    pg.wait_for_selector(".move-box.checking [data-test=move-checking]")
    pg.wait_for_timeout(1000)  # time enough for any odds of the earlier place to come back
    assert pg.locator(".move-box.legal").count() == 0
    assert pg.is_disabled("[data-test=confirm-move]")
    assert asked.held, "the page did not ask about the ghost's new place"
    asked.holding = False
    for route in asked.held:
        route.continue_()
    pg.wait_for_selector(".move-box.illegal", timeout=60_000)
    assert pg.inner_text("[data-test=measure]").startswith('14.0"')
    assert pg.is_disabled("[data-test=confirm-move]")
    pg.unroute("**/validate")


def test_reset_while_the_rules_are_asked_puts_the_move_away(server: Server, page: Any) -> None:
    """Reset pressed while the server is still judging the ghost (and the page has more
    places to ask about) puts the move away for good: no verdict arriving after it brings
    back the ghost or its move box."""
    pg = page
    start = _hollis_foot_moved_up(pg, server)
    asked = HeldWhile(pg, "**/validate")
    drag(pg, (start[0], start[1] + 4), (start[0], start[1] + 5))  # one place held, the later ones queued
    pg.wait_for_selector(".move-box.checking [data-test=move-checking]")
    assert asked.held, "the page did not ask about the ghost's new place"
    asked.holding = False  # a question asked after Reset would be answered at once
    pg.click("[data-test=reset-move]")
    pg.wait_for_timeout(1500)  # time enough for a queued question to be asked and answered
    assert pg.evaluate("() => window.tertiaScreen.pendingMove") is None
    assert pg.locator("[data-test=move-box]:not([hidden])").count() == 0
    assert pg.locator(".ghost").count() == 0
    pg.unroute("**/validate")


def test_a_replay_link_with_its_token_opens_the_replay_and_hides_the_token(server: Server, page: Any) -> None:
    """A link to a battle's replay carrying its token (as a play link does) opens the
    replay at the step it names, keeps the token and takes it out of the address; it had
    said "No token for this battle"."""
    body = {"scenario": "skirmish", "rules": "larger-battles", "mode": "hotseat", "seed": 3}
    made = httpx.post(server.url + "/api/games", json=body).json()
    token = made["tokens"]["parliament"]
    page.goto(f"{server.url}/#/replay/{made['id']}?token={token}&step=0")
    page.wait_for_selector("[data-test=replay-step]")
    assert page.locator("text=No token for this battle").count() == 0
    assert token not in page.url and page.url.endswith(f"#/replay/{made['id']}?step=0"), page.url


def test_a_link_without_a_token_and_a_bad_token(server: Server, page: Any) -> None:
    pg = page
    pg.goto(server.url + "/#/play/no-such-game")
    pg.wait_for_selector("text=No token for this battle")
    pg.goto(server.url + "/#/play/no-such-game?token=forged")
    pg.wait_for_selector(".toast.error")
    assert "does not open a battle" in pg.inner_text(".toast.error")


def test_a_gun_shows_its_line_of_fire_and_sight(server: Server, page: Any) -> None:
    pg = page
    created = httpx.post(server.url + "/api/games", json={"scenario": "edgehill", "mode": "hotseat",
                                                           "seed": 2}).json()
    open_every_link(pg, server, created["id"], created["tokens"])
    tok = list(created["tokens"].values())[-1]
    # The supply bases larger-battles keeps are drawn from the markers it lists.
    supplies = len(httpx.get(f"{server.url}/api/games/{created['id']}/view",
                             headers={"Authorization": f"Bearer {tok}"}).json()["table_markers"])
    assert supplies == 6 and pg.locator(".table-marker.supply").count() == supplies
    gun = pg.evaluate("() => window.tertiaScreen.view.state.units.find((u) => u.kind === 'artillery'"
                      " && window.tertiaScreen.view.status.to_act === u.side).id")
    pg.click(f'.unit[data-unit="{gun}"]')
    pg.wait_for_selector(".arc-straight")
    pg.wait_for_selector("line.sight")
    assert pg.locator("line.sight").count() >= 1
    pg.click("button.toggle:has-text('Sight')")
    assert pg.locator("line.sight").count() == 0
    pg.click("button.toggle:has-text('Sight')")
    shoot(pg, "table")


def test_a_supply_bases_title_names_it_and_whoever_took_it(server: Server, page: Any) -> None:
    """Each supply base's title on the page is its name as players call it, sent with the
    view ("Royalists' central supply base"), never its id; a base taken names the side that
    took it, or the piece, as the battle names them, never by an id."""
    pg = page
    created = httpx.post(server.url + "/api/games", json={"scenario": "edgehill", "rules": "larger-battles",
                                                           "mode": "hotseat", "seed": 2}).json()
    open_every_link(pg, server, created["id"], created["tokens"])
    pg.wait_for_selector(".table-marker.supply title", state="attached")
    sent = pg.evaluate("() => window.tertiaScreen.view.table_markers")
    titles = pg.eval_on_selector_all(".table-marker.supply title", "ts => ts.map((t) => t.textContent)")
    assert titles == [m["name"] for m in sent] and len(titles) == 6, titles
    battle = load_builtin("edgehill")
    names = battle.side_names()
    assert "Royalists' central supply base" in titles, titles
    # The same bases drawn again, one taken by a side and one by a piece, as a raid leaves them.
    piece = next(u for u in battle.units if u.side == "parliament" and u.name)
    taken = {sent[0]["id"]: "royalist", sent[-1]["id"]: piece.id}
    titles = pg.evaluate("""(taken) => { const s = window.tertiaScreen;
        const markers = s.view.table_markers.map((m) => ({ ...m, taken_by: taken[m.id] || null }));
        s.map.drawState(s.view.state, { tableMarkers: markers, pieces: s.view.pieces });
        return [...document.querySelectorAll('.table-marker.supply title')].map((t) => t.textContent); }""",
                         taken)
    assert titles[0] == f"{sent[0]['name']}, taken by {names['royalist']}", titles
    assert titles[-1] == f"{sent[-1]['name']}, taken by {piece.name}", titles
    assert not any(re.search(r"\broyalist\b|\bparliament\b|-baggage-|" + re.escape(piece.id), t)
                   for t in titles), titles


def test_the_openapi_page_renders_offline(server: Server, page: Any) -> None:
    page.goto(server.url + "/docs")
    page.wait_for_selector(".opblock")
    assert page.locator(".opblock-summary-path:has-text('/api/games/{game_id}/actions')").count() == 1


def test_command_cards_are_ordered_and_played_in_the_page(server: Server, page: Any) -> None:
    """d3-commands against the AI: arrange the cards (buttons, keyboard, drag), lay them,
    move a unit of the active command, and see the played card struck through while the
    AI's cards show only as backs."""
    pg = page
    created = httpx.post(server.url + "/api/games", json={
        "scenario": "edgehill", "rules": "d3-commands", "mode": "ai", "side": "parliament", "seed": 4}).json()
    gid, tok = created["id"], created["tokens"]["parliament"]
    url, headers = f"{server.url}/api/games/{gid}", {"Authorization": f"Bearer {tok}"}
    pg.goto(f"{server.url}/#/play/{gid}?token={tok}")
    pg.wait_for_selector("[data-test=card-order]")
    order = ("() => [...document.querySelectorAll('[data-test=card-order] .cmd-card')]"
             ".map((c) => c.dataset.card)")
    assert pg.evaluate(order) == ["centre", "right", "left", "reserve", "independent"]
    assert pg.locator("[data-test=other-cards] .mini-card.back").count() == 4
    assert "Sir William Balfour" not in pg.inner_text("[data-test=other-cards]")
    pg.click("[data-test=up-right]")
    pg.focus('.cmd-card[data-card="independent"]')
    pg.keyboard.press("Alt+ArrowUp")
    assert pg.evaluate("() => document.activeElement.dataset.card") == "independent"
    pg.drag_and_drop('.cmd-card[data-card="left"]', '.cmd-card[data-card="centre"]')
    wanted = ["right", "left", "centre", "independent", "reserve"]
    assert pg.evaluate(order) == wanted
    pg.click("[data-test=lay-cards]")

    # The AI lays its own; once the initiative is rolled our right flank is active.
    pg.wait_for_function("() => { const v = window.tertiaScreen.view; return v.status.your_turn && "
                         "v.status.phase === 'activation'; }", timeout=30_000)
    laid = ("() => [...document.querySelectorAll('[data-test=own-order] .cmd-card')]"
            ".map((c) => c.dataset.card)")
    assert pg.evaluate(laid) == wanted
    assert "your right flank command" in pg.inner_text("[data-test=active-command]")
    assert pg.locator('[data-test=own-order] .cmd-card.active[data-card="right"]').count() == 1
    view = httpx.get(url + "/view", headers=headers).json()
    [cards] = [p for p in view["panels"] if p["name"] == "command-cards"]
    [theirs] = [sec for sec in cards["sections"] if sec["key"] == "other-cards"]
    backs = sum(i.get("state") == "back" for i in theirs["items"])
    assert pg.locator("[data-test=other-cards] .mini-card.back").count() == backs > 0

    # Move a horse of the right flank a few inches, as the server allows.
    ahead: tuple[str, tuple[float, float], tuple[float, float]] | None = None
    for u in view["state"]["units"]:
        if u["side"] != "parliament" or u["command"] != "right" or u.get("removed"):
            continue
        for step in (3.0, 2.0, 1.0):
            to = (u["x"], u["y"] + step)
            probe = {"type": "move", "unit": u["id"], "waypoints": [list(to)], "face_after": u["facing"]}
            if httpx.post(url + "/validate", json=probe, headers=headers).json()["legal"]:
                ahead = (u["id"], (u["x"], u["y"]), to)
                break
        if ahead:
            break
    assert ahead is not None, "no unit of the right flank may move"
    uid, start, to = ahead
    pg.click(f'.unit[data-unit="{uid}"]')
    pg.wait_for_selector(".move-help")
    drag(pg, start, to)
    pg.wait_for_selector(".move-box.legal", timeout=60_000)
    pg.click("[data-test=confirm-move]")
    pg.wait_for_function("(id) => window.tertiaScreen.view.state.units.find((u) => u.id === id).y > %f"
                         % (start[1] + 0.5), arg=uid)

    # End the activation: the card is struck through; the AI plays, then our next card.
    pg.keyboard.press("Escape")
    pg.click("[data-test=end-phase]")
    pg.wait_for_selector('[data-test=own-order] .cmd-card.played[data-card="right"] s')
    pg.wait_for_function("() => window.tertiaScreen.view.status.your_turn && document.querySelector("
                         "'[data-test=own-order] .cmd-card.active[data-card=\"left\"]')", timeout=30_000)
    assert pg.locator('[data-test=own-order] .cmd-card.active').count() == 1
    assert pg.locator("[data-test=other-cards] .mini-card.played").count() >= 1
    shoot(pg, "cards")


def test_pieces_are_deployed_by_clicking_the_table(server: Server, page: Any) -> None:
    """d3-commands with the deployment procedure, against the AI: the page names the piece
    to place and puts it where the table is clicked; a click the rules refuse says why."""
    pg = page
    created = httpx.post(server.url + "/api/games", json={
        "scenario": "edgehill", "rules": "d3-commands", "options": {"deployment": "procedure"},
        "mode": "ai", "side": "parliament", "seed": 4}).json()
    gid, tok = created["id"], created["tokens"]["parliament"]
    url, headers = f"{server.url}/api/games/{gid}", {"Authorization": f"Bearer {tok}"}
    pg.goto(f"{server.url}/#/play/{gid}?token={tok}")
    pg.wait_for_selector("[data-test=deploy-prompt]", timeout=30_000)
    view = httpx.get(url + "/view", headers=headers).json()
    pending = view["status"]["pending"]
    uid = pending["units"][0]
    assert pg.input_value("[data-test=deploy-unit]") == uid
    assert pending["step"] in pg.inner_text("[data-test=decision-prompt]")
    assert view["status"]["pending"]["kind"] == "deploy"
    assert pg.text_content(".deploy-zone") == 'deployment zone (16")'
    shoot(pg, "deployment")

    # Too far forward: the rules refuse, and the piece still waits.
    pg.mouse.click(*to_client(pg, 36.0, 40.0))
    pg.wait_for_selector(".toast.error")
    assert uid in httpx.get(url + "/view", headers=headers).json()["status"]["pending"]["units"]

    # Where the scenario put it, which the rules allow: the piece stands there.
    unit = next(u for u in view["state"]["units"] if u["id"] == uid)
    spot = (round(unit["x"], 2), round(unit["y"], 2))
    probe = {"type": "deploy", "unit": uid, "x": spot[0], "y": spot[1]}
    assert httpx.post(url + "/validate", json=probe, headers=headers).json()["legal"]
    pg.mouse.click(*to_client(pg, *spot))
    pg.wait_for_function("(id) => !window.tertiaScreen.view.state.units.find((u) => u.id === id).removed",
                         arg=uid, timeout=30_000)
    x, y = unit_position(pg, uid)
    assert abs(x - spot[0]) < 0.1 and abs(y - spot[1]) < 0.1


def test_the_opponent_is_chosen_by_name_and_named_at_the_table(server: Server, page: Any) -> None:
    """The form offers the opponent only where the server plays a side (against the AI,
    AI against AI), every registered player by name; the table names the one chosen."""
    pg = page
    pg.goto(server.url + "/")
    pg.wait_for_selector("[data-test=create]")
    offered = pg.eval_on_selector_all("[data-test=opponent] option", "os => os.map((o) => o.value)")
    assert offered[:3] == ["doctrine", "baseline", "random"]
    assert pg.eval_on_selector("[data-test=opponent]", "s => s.value") == "doctrine"
    pg.check("input[name=mode][value=hotseat]")
    assert not pg.is_visible("[data-test=opponent]")  # no side is the server's
    pg.check("input[name=mode][value=watch]")
    assert pg.is_visible("[data-test=opponent]")
    pg.select_option("#scenario", "skirmish")
    pg.check("input[name=mode][value=ai]")
    assert pg.is_visible("[data-test=opponent]")
    pg.select_option("[data-test=opponent]", "random")
    pg.click("[data-test=create]")
    pg.wait_for_function("() => window.tertiaScreen?.view")
    sides = pg.evaluate("() => window.tertiaScreen.view.game.sides")
    assert sorted(str(s["player"]) for s in sides) == ["None", "random"]
    pg.wait_for_selector("[data-test=mode]:has-text('Against the AI (random)')")


TEXTS = "els => els.map((e) => e.textContent)"
"""The text of each element a selector finds."""


def test_two_player_links_are_whole_closable_and_kept(server: Server, page: Any) -> None:
    pg = page
    pg.goto(server.url + "/")
    pg.wait_for_selector("[data-test=create]")
    pg.select_option("#scenario", "skirmish")
    pg.fill("#seed", "7")  # given for another way of playing, then link games chosen
    assert pg.is_visible("#seed")
    pg.check("input[name=mode][value=link]")
    assert not pg.is_visible("#seed")  # link games draw their own secret seed
    rules = pg.eval_on_selector("#rules", "el => el.selectedOptions[0].textContent")
    pg.click("[data-test=create]")
    pg.wait_for_selector("[data-test=links]")
    links = pg.eval_on_selector_all("[data-test=links] input.link", "els => els.map((e) => e.value)")
    assert len(links) == 2
    for link in links:
        assert link.startswith(server.url + "/#/play/") and "//#" not in link
    # Each side by the scenario's name for it, as the new-game form names it.
    names = set(load_named("skirmish").side_names().values())
    assert set(pg.eval_on_selector_all("[data-test=links] .link-row b", TEXTS)) == names
    plays = pg.eval_on_selector_all("[data-test=links] .link-row button.primary", TEXTS)
    assert set(plays) == {f"Play as {name}" for name in names}
    # Closed without picking a side, the game stays in the list with both links, under its
    # rule set.
    pg.click("[data-test=close-links]")
    assert pg.locator("[data-test=links]").count() == 0
    state = pg.text_content(".game-item [data-test=game-state]")
    assert state == f" · {rules} · two links, no side picked yet"
    pg.click(".game-item button:has-text('Links')")
    pg.wait_for_selector("[data-test=links]")
    again = pg.eval_on_selector_all("[data-test=links] input.link", "els => els.map((e) => e.value)")
    assert again == links
    assert set(pg.eval_on_selector_all("[data-test=links] .link-row b", TEXTS)) == names
    pg.keyboard.press("Escape")
    assert pg.locator("[data-test=links]").count() == 0
    # Each link opens its side's table, with nothing shown twice in the log.
    pg.goto(links[0])
    pg.wait_for_selector("[data-test=status]")
    pg.wait_for_function("() => window.tertiaScreen?.view")
    pg.goto(server.url + "/")
    pg.wait_for_selector(".game-item button:has-text('Links')")
    pg.click(".game-item button:has-text('Links')")
    assert pg.eval_on_selector_all("[data-test=links] input.link", "els => els.map((e) => e.value)") == links


def test_the_log_shows_each_entry_once_while_the_ai_plays(server: Server, page: Any) -> None:
    pg = page
    created = httpx.post(server.url + "/api/games", json={"scenario": "skirmish", "mode": "ai",
                                                           "side": "parliament", "seed": 6}).json()
    gid, tok = created["id"], created["tokens"]["parliament"]
    pg.goto(server.url + created["links"]["parliament"])
    pg.wait_for_function("() => window.tertiaScreen?.view")
    bot = Bot(server, gid, tok)
    played = iter(range(6))
    bot.play_until(lambda state, action: next(played, None) is None)
    # An action's answer and the wait for changes can both refresh at once, each asking for
    # the log from where it stood when it set out.
    pg.evaluate("() => { const s = window.tertiaScreen; s.logView.count -= 3; "
                "return Promise.all([s.refresh(), s.refresh()]); }")
    indexes = pg.eval_on_selector_all(".log-entry", "els => els.map((e) => e.dataset.index)")
    assert len(indexes) > 3 and len(indexes) == len(set(indexes)), indexes
    pg.goto(f"{server.url}/#/replay/{gid}")
    pg.wait_for_selector("[data-test=replay-step]")
    pg.click("[data-test=back]")
    while pg.inner_text("[data-test=replay-step]").split()[1] != "0":
        pg.click("[data-test=back]")
    assert "null" not in pg.inner_text("body")


def test_a_replay_address_with_a_step_not_whole_shows_the_last_step(server: Server, page: Any) -> None:
    """``?step=2`` opens the replay at step 2; a step that is no whole number of actions
    (a word, a fraction, a sign) opens it at the last, as a step past the end does."""
    pg = page
    created = httpx.post(server.url + "/api/games", json={"scenario": "skirmish", "mode": "ai",
                                                           "side": "parliament", "seed": 6}).json()
    gid, tok = created["id"], created["tokens"]["parliament"]
    pg.goto(server.url + created["links"]["parliament"])  # the page holds the side's token
    pg.wait_for_function("() => window.tertiaScreen?.view")
    played = iter(range(4))
    Bot(server, gid, tok).play_until(lambda state, action: next(played, None) is None)
    step = "document.querySelector('[data-test=replay-step]')?.textContent ?? ''"
    pg.goto(f"{server.url}/#/replay/{gid}?step=2")
    pg.wait_for_function(f"() => ({step}).startsWith('Step 2 of ')")
    total = pg.inner_text("[data-test=replay-step]").split()[-1]
    for given in ("abc", "2.5", "-1"):
        pg.goto(f"{server.url}/#/replay/{gid}?step={given}")
        pg.wait_for_function(f"() => ({step}) === 'Step {total} of {total}'")
        assert "NaN" not in pg.inner_text("body")


def test_a_view_older_than_the_one_shown_is_not_drawn(server: Server, page: Any) -> None:
    """Two views cross on the way: one the page asked for before the game moved on reaches
    it after one asked for since. The page goes on showing the newer: its version, its
    status and its log, never the older's."""
    pg = page
    created = httpx.post(server.url + "/api/games", json={"scenario": "skirmish", "mode": "ai",
                                                           "side": "parliament", "seed": 6}).json()
    gid, tok = created["id"], created["tokens"]["parliament"]
    pg.goto(server.url + created["links"]["parliament"])
    pg.wait_for_function("() => window.tertiaScreen?.view?.status.your_turn")
    bot = Bot(server, gid, tok)
    older = httpx.get(f"{bot.url}/view?log_from=0", headers=bot.headers).json()
    first = FirstHeld(pg, "**/api/games/*/view?*")
    # The older view sets out (a whole refresh, as after a hand-over or an undo) and is held.
    pg.evaluate("() => { window.olderArrived = window.tertiaScreen.refresh(true); }")
    held = first.route("the view")
    assert "log_from=0" in held.request.url
    # The game moves on; the page hears of it and draws the newer view.
    played = iter(range(3))
    bot.play_until(lambda state, action: next(played, None) is None)
    newer = bot.view()["version"]
    assert newer > older["version"]
    pg.wait_for_function(f"() => window.tertiaScreen.view.version === {newer}")
    status = pg.inner_text("[data-test=status]")
    entries = pg.eval_on_selector_all(".log-entry", "els => els.map((e) => e.dataset.index)")
    assert len(entries) > len(older["log"])
    # Now the older view arrives.
    held.fulfill(status=200, content_type="application/json", body=json.dumps(older))
    pg.evaluate("() => window.olderArrived")
    assert pg.evaluate("() => window.tertiaScreen.view.version") == newer
    assert pg.inner_text("[data-test=status]") == status
    assert pg.eval_on_selector_all(".log-entry", "els => els.map((e) => e.dataset.index)") == entries


def test_a_pieces_card_older_than_the_one_shown_is_not_drawn(server: Server, page: Any) -> None:
    """Two cards of one piece cross on the way: one asked for before its command was
    ordered to move reaches the page after one asked for since. The page goes on showing
    the newer, with its move."""
    pg = page
    body = {"scenario": "skirmish", "mode": "ai", "side": "parliament", "seed": 1}
    created = open_new_game(pg, server, body)
    pg.wait_for_selector(".turn-chip.yours")
    card_url = f"{server.url}/api/games/{created['id']}/units/p-foot-1"
    headers = {"Authorization": f"Bearer {created['tokens']['parliament']}"}
    older = httpx.get(card_url, headers=headers).json()
    assert not any(a["interaction"] == "drag" for a in older["actions"])
    first = FirstHeld(pg, "**/api/games/*/units/p-foot-1*")
    pg.evaluate("() => { window.olderArrived = window.tertiaScreen.select('p-foot-1'); }")
    held = first.route("the card")
    # The command is ordered; the page, the piece still selected, asks for its card again.
    pg.click("button:has-text(\"Order Colonel Hollis's command to move\")")
    moving = ("() => window.tertiaScreen.detail?.report.id === 'p-foot-1'"
              " && window.tertiaScreen.detail.actions.some((a) => a.interaction === 'drag')")
    pg.wait_for_function(moving)
    # Now the older card arrives.
    held.fulfill(status=200, content_type="application/json", body=json.dumps(older))
    pg.evaluate("() => window.olderArrived")
    assert pg.evaluate(moving)
    pg.wait_for_selector(".move-help")
    pg.unroute("**/api/games/*/units/p-foot-1*")


def test_d3_cards_shows_its_deck_and_offers_a_commanders_rally(server: Server, page: Any) -> None:
    """d3-cards, hotseat: both sides played through the API by the doctrine until a
    commander would rally; the page then shows the deck panel (cards left, drawn, in
    play) and, with the commander selected, the rally the rule set declares, its odds
    first, then the roll."""
    pg = page
    created = httpx.post(server.url + "/api/games", json={
        "scenario": "chalgrove", "rules": "d3-cards", "mode": "hotseat", "seed": 2}).json()
    gid, tokens = created["id"], created["tokens"]
    url = f"{server.url}/api/games/{gid}"
    game = Game(get_ruleset("d3-cards"), load_builtin("chalgrove", rules_id="d3-cards"))
    players: dict[str, DoctrinePlayer] = {}
    rng = random.Random(2)
    rally: dict[str, Any] | None = None
    for _ in range(300):
        to_act = httpx.get(url, headers={"Authorization": f"Bearer {tokens['parliament']}"}).json()
        side = to_act["status"]["to_act"]
        headers = {"Authorization": f"Bearer {tokens[side]}"}
        state = GameState.from_dict(httpx.get(url + "/view?log_from=100000", headers=headers).json()["state"])
        action = players.setdefault(side, DoctrinePlayer()).choose(game, state, rng)
        if action.type == "rally":
            rally = action.to_dict()
            break
        r = httpx.post(url + "/actions", json=action.to_dict(), headers=headers)
        assert r.status_code == 200, r.text
    assert rally is not None, "no commander rallied"

    open_every_link(pg, server, gid, tokens)
    pg.wait_for_function(f"() => window.tertiaScreen.view?.side === '{side}'")
    pg.wait_for_selector("[data-test=panel-deck]:not([hidden])")
    assert "left to draw this turn" in pg.inner_text("[data-test=deck-count]")
    assert "your commander card" in pg.inner_text("[data-test=deck-active]")
    assert pg.locator("[data-test=deck-drawn] .mini-card.active").count() == 1
    assert pg.locator("[data-test=panel-command-cards]").count() == 0

    # The commander's rally: offered on the unit card, the odds first, then the roll.
    pg.click(f'.unit[data-unit="{rally["commander"]}"]')
    offer = f'[data-test="offer-{rally["unit"]}"][data-kind=rally]'
    pg.wait_for_selector(offer)
    assert "rallies" in pg.inner_text(offer)
    pg.click(offer)
    pg.wait_for_selector("[data-test=outcome-chance]")
    assert "recovers" in pg.inner_text("[data-test=outcomes]")
    assert pg.inner_text("[data-test=roll]") == "Rally!"
    shoot(pg, "rally-odds")
    log_before = pg.locator(".log-line").count()
    pg.click("[data-test=roll]")
    pg.wait_for_function(f"() => document.querySelectorAll('.log-line').length > {log_before}")
    pg.wait_for_function("() => !document.querySelector('[data-test=outcome-chance]')")
    pg.wait_for_function(f"() => window.tertiaScreen.detail?.report.id === '{rally['commander']}' && "
                         "window.tertiaScreen.view.status.step > 0 && "
                         "!window.tertiaScreen.detail.actions.some((a) => a.kind === 'rally')")
    assert pg.locator(offer).count() == 0  # one rally an activation


def test_declare_thee_sir_cards_declarations_and_rolled_moves_in_the_page(server: Server, page: Any) -> None:
    """Declare Thee Sir against the AI on Edgehill: the card drawn picks out its unit and
    offers the six options as buttons; a declaration clicked rolls the move, shown before
    the unit is placed; the unit is dragged within it and the log tells it. The timer for
    the text's 30 seconds is off until switched on; on, it counts down, and when time
    runs out the page declares defer."""
    pg = page
    body = {"scenario": "edgehill", "rules": "declare-thee-sir", "mode": "ai", "side": "parliament",
            "seed": 3}
    created = httpx.post(server.url + "/api/games", json=body).json()
    gid, tok = created["id"], created["tokens"]["parliament"]
    url, headers = f"{server.url}/api/games/{gid}", {"Authorization": f"Bearer {tok}"}
    pg.goto(f"{server.url}/#/play/{gid}?token={tok}")
    pg.wait_for_selector("[data-test=decision-prompt]", timeout=60_000)
    assert pg.get_attribute("[data-test=timer-toggle]", "aria-pressed") == "false"
    assert pg.locator("[data-test=countdown]:not([hidden])").count() == 0
    view = httpx.get(url + "/view", headers=headers).json()
    uid = view["status"]["pending"]["unit"]
    unit = next(u for u in view["state"]["units"] if u["id"] == uid)
    pg.wait_for_selector(f'.unit.focus.selected[data-unit="{uid}"]')
    assert pg.inner_text('.report [data-fact="morale"] dd') == "untested"
    assert "Card drawn: " + unit["name"] in pg.inner_text("[data-test=deck-active]")
    assert "left to draw this turn" in pg.inner_text("[data-test=deck-count]")
    shoot(pg, "dts-declare")

    # Declare the advance by its button: the move is rolled and shown before it is made.
    log_before = pg.locator(".log-line").count()
    # The question names the regiment, so its choices say only what differs.
    assert unit["name"] in pg.inner_text("[data-test=decision-prompt]")
    pg.get_by_role("button", name="Advance", exact=True).click()
    pg.wait_for_selector("[data-test=allowance]")
    allowance = httpx.get(url + "/view", headers=headers).json()["state"]["own"]["allowance"]
    assert f'{allowance["open"]}" over open ground' in pg.inner_text("[data-test=allowance]")
    assert f'{allowance["open"]}" over open ground' in pg.inner_text("[data-test=prompt-allowance]")
    pg.wait_for_function(f"() => document.querySelectorAll('.log-line').length > {log_before}")
    assert "may move" in pg.inner_text(".log")

    # Drag it ahead within the roll: the ruler measures against it.
    heading = math.radians(unit["facing"])
    start = (unit["x"], unit["y"])
    target: tuple[float, float] | None = None
    for step in (min(3.0, allowance["open"] - 0.5), 2.0, 1.0, 0.5):
        to = (round(start[0] + math.sin(heading) * step, 2), round(start[1] + math.cos(heading) * step, 2))
        probe = {"type": "move", "unit": uid, "waypoints": [list(to)]}
        if step > 0 and httpx.post(url + "/validate", json=probe, headers=headers).json()["legal"]:
            target = to
            break
    assert target is not None, f"{uid} may not move ahead"
    drag(pg, start, target)
    pg.wait_for_selector(".move-box.legal", timeout=60_000)
    assert f'of {allowance["open"]}" allowed (over open ground)' in pg.inner_text("[data-test=measure]")
    shoot(pg, "dts-move")
    lines = pg.locator(".log-line").count()
    pg.click("[data-test=confirm-move]")
    pg.wait_for_function("([id, x, y]) => { const u = window.tertiaScreen.view.state.units"
                         ".find((v) => v.id === id); return Math.hypot(u.x - x, u.y - y) > 0.4; }",
                         arg=[uid, *start])
    pg.wait_for_function(f"() => document.querySelectorAll('.log-line').length > {lines}")

    # The timer: switched on, the next declaration of ours is counted down; when time
    # runs out the page declares defer. The choice is kept in this browser.
    pg.wait_for_function("() => { const v = window.tertiaScreen.view; return v.status.your_turn && "
                         "v.status.pending && v.status.pending.kind === 'declare'; }", timeout=60_000)
    pg.click("[data-test=timer-toggle]")
    assert pg.get_attribute("[data-test=timer-toggle]", "aria-pressed") == "true"
    pg.wait_for_selector("[data-test=countdown]:not([hidden])")
    assert re.fullmatch(r"\d+s to decide", pg.inner_text("[data-test=countdown]"))
    seconds = int(pg.inner_text("[data-test=countdown]").split("s")[0])
    assert 25 <= seconds <= 30
    waiting = pg.evaluate("() => window.tertiaScreen.view.status.pending.unit")
    step = pg.evaluate("() => window.tertiaScreen.view.status.step")
    pg.evaluate("() => { window.tertiaScreen.timer.deadline = performance.now(); }")
    pg.wait_for_selector(".toast:has-text('Time is up')")
    pg.wait_for_function(f"() => window.tertiaScreen.view.status.step > {step}")
    told = httpx.get(url + f"/view?log_from={step + 1}", headers=headers).json()["log"][0]
    assert told["action"] == {"type": "dts_declare", "unit": waiting, "option": "defer", "how": None}
    pg.reload()
    pg.wait_for_selector("[data-test=timer-toggle]")
    pg.wait_for_selector("[data-test=decision-prompt]", timeout=60_000)  # the timer runs for a decision
    assert pg.get_attribute("[data-test=timer-toggle]", "aria-pressed") == "true"
    pg.click("[data-test=timer-toggle]")
    # the page hides the countdown when it next draws, not within the click
    pg.wait_for_function("() => !document.querySelector('[data-test=countdown]:not([hidden])')")
    assert pg.locator("[data-test=countdown]:not([hidden])").count() == 0

    # Moves forced on a piece are traced like moves made, and a routed unit's stands apart
    # from its colours are drawn where they stand (what the log and the position carry).
    drawn = pg.evaluate("""(id) => { const s = window.tertiaScreen; const v = s.view;
        const u = v.state.units.find((x) => x.id === id);
        const trace = (dx, dy, reason) => ({ side: u.side, reason,
            path: [[u.x, u.y], [u.x + dx, u.y + dy]] });
        s.map.drawTraces([trace(0, -3, "pushed back in melee"), trace(2, -5, "scattered")]);
        const routed = { ...u, stands: [0, 1, 2].map((i) => ({ x: u.x + 2 * i, y: u.y - 4, facing: u.facing,
            width: 1.5, depth: 1, removed: i === 2 ? "off the table" : null })) };
        const units = v.state.units.map((x) => (x.id === id ? routed : x));
        s.map.drawState({ ...v.state, units }, v.markers);
        return [document.querySelectorAll("polyline.trace.forced").length,
                document.querySelectorAll(".trace-runner").length,
                document.querySelectorAll(`.unit.stand[data-unit="${id}"]`).length]; }""", uid)
    assert drawn == [2, 2, 1]  # the stand off the table is not drawn; the first is the unit's own


def test_charge_yr_pikes_brigade_cards_moves_and_formations_in_the_page(server: Server, page: Any) -> None:
    """Charge yr Pikes! against the AI at Naseby: the brigade card turned over is shown with
    each unit's command response roll; a unit that may move is dragged forward and then
    forms column from its card's button; Done turns the next card over and the AI plays
    its cards until the page is ours again."""
    pg = page
    body = {"scenario": "naseby", "rules": "charge-yr-pikes", "mode": "ai", "side": "parliament", "seed": 3,
            "options": {"secret_deployment": False}}
    created = httpx.post(server.url + "/api/games", json=body).json()
    gid, tok = created["id"], created["tokens"]["parliament"]
    url, headers = f"{server.url}/api/games/{gid}", {"Authorization": f"Bearer {tok}"}
    pg.goto(f"{server.url}/#/play/{gid}?token={tok}")
    pg.wait_for_selector("[data-test=deck-responses]", timeout=60_000)
    view = httpx.get(url + "/view", headers=headers).json()
    [deck] = [p for p in view["panels"] if p["name"] == "deck"]
    [rolled] = [sec["items"] for sec in deck["sections"] if sec["key"] == "deck-responses"]
    assert "Card drawn: " in pg.inner_text("[data-test=deck-active]")
    assert pg.locator("[data-test=deck-response]").count() == len(rolled) > 0
    first = rolled[0]
    names = {u["id"]: u["name"] for u in view["state"]["units"]}
    shown = pg.inner_text("[data-test=deck-response] >> nth=0")
    assert first["face"] in shown and first["text"] in shown and any(n in shown for n in names.values())
    assert ("may move" if first["state"] == "obeyed" else "no move") in shown
    # Objectives and vital points with who holds them, each army's losses, figures on units.
    points = view["status"]["summary"]["points"]
    assert pg.locator("[data-test=point]").count() == len(points) > 0
    held = [p for p in points if p["held_by"]]
    assert pg.locator("[data-test=point][data-held]:not([data-held=''])").count() == len(held)
    # Each point's mark is pinned above the pieces, so that a piece on the point never hides
    # it, and takes no click, which reaches the piece (or the point's title) under it.
    assert pg.locator("[data-test=pin]").count() == len(points)
    layers = pg.evaluate("() => [...document.querySelectorAll('svg g[class^=layer-]')]"
                         ".map((g) => g.getAttribute('class'))")
    assert layers.index("layer-units") < layers.index("layer-pins") < layers.index("layer-labels"), layers
    pin_clicks = pg.evaluate("() => getComputedStyle(document.querySelector('[data-test=pin]'))"
                             ".pointerEvents")
    assert pin_clicks == "none"
    assert pg.inner_text("[data-test=army-losses]").endswith("0% – 0%")
    # On hover, what each army needs to take fright at the end of this turn (15 L).
    odds = view["status"]["summary"]["fright_odds"]
    fright = pg.get_attribute("[data-test=army-losses]", "title")
    assert "steady on any roll" in fright, fright
    assert all(f"({odds[side]['words']})" in fright for side in odds), fright
    shoot(pg, "cyp-deck")

    # A unit that may move on the card is dragged 4" straight ahead, then forms column.
    moving = view["status"]["summary"]["moving"]
    uid = target = None
    for candidate in moving:
        unit = next(u for u in view["state"]["units"] if u["id"] == candidate)
        heading = math.radians(unit["facing"])
        to = (round(unit["x"] + math.sin(heading) * 4, 2), round(unit["y"] + math.cos(heading) * 4, 2))
        probe = {"type": "move", "unit": candidate, "waypoints": [list(to)]}
        if httpx.post(url + "/validate", json=probe, headers=headers).json()["legal"]:
            uid, target, start = candidate, to, (unit["x"], unit["y"])
            break
    assert uid is not None and target is not None, "no unit on the card may move ahead"
    pg.click(f'.unit[data-unit="{uid}"]', force=True)
    pg.wait_for_function("(id) => { const s = window.tertiaScreen; "
                         "return s.detail && s.detail.report.id === id; }", arg=uid)
    assert pg.inner_text('.report [data-fact="formation"] dd') == "line"
    drag(pg, start, target)
    pg.wait_for_selector(".move-box.legal", timeout=60_000)
    pg.click("[data-test=confirm-move]")
    pg.wait_for_function("([id, x, y]) => { const u = window.tertiaScreen.view.state.units"
                         ".find((v) => v.id === id); return Math.hypot(u.x - x, u.y - y) > 3.5; }",
                         arg=[uid, *start])
    column = f"{names[uid]} forms column"
    pg.get_by_role("button", name=column, exact=True).click()
    pg.wait_for_function("(id) => window.tertiaScreen.view.pieces[id].facts"
                         ".some((f) => f.key === 'formation' && f.value === 'column')", arg=uid)
    pg.wait_for_function("() => { const d = document.querySelector('.report [data-fact=\"formation\"] dd'); "
                         "return d && d.textContent === 'column'; }")
    badges = f'.unit.troop[data-unit="{uid}"] [data-test=unit-badges]'
    assert pg.text_content(f"{badges} [data-fact=formation] text") == "C"
    assert pg.text_content(f"{badges} [data-fact=figures] text") == str(unit_figures(pg, uid))
    assert "column" in pg.inner_text(".log")

    # Done: the next cards are turned over; the AI plays its own until the page is ours again.
    step = pg.evaluate("() => window.tertiaScreen.view.status.step")
    pg.get_by_role("button", name=re.compile(r"^Done with the .+ card$")).click()
    pg.wait_for_function(f"() => {{ const s = window.tertiaScreen.view.status; return s.step > {step} + 1 && "
                         "s.your_turn; }", timeout=60_000)
    log = httpx.get(url + "/view?log_from=0", headers=headers).json()["log"]
    assert any(e["side"] == "royalist" for e in log), "the AI played no card"
    assert pg.locator("[data-test=deck-active]").count() == 1


def test_charge_yr_pikes_secret_deployment_in_hotseat_behind_a_handed_over_screen(server: Server,
                                                                                  page: Any) -> None:
    """Charge yr Pikes! with secret deployment, hotseat at Naseby: the side deploying sees
    none of the enemy's pieces and its own marked as unseen; a piece of its own is picked
    on the table and placed by a click on its own half (a place too near the centre is
    refused with the rule's reason); when it is done the screen is covered until the next
    player takes it, who sees none of the first side's pieces."""
    pg = page
    created = httpx.post(server.url + "/api/games", json={
        "scenario": "naseby", "rules": "charge-yr-pikes", "mode": "hotseat", "seed": 3,
        "options": {"secret_deployment": True}}).json()
    gid = created["id"]
    open_every_link(pg, server, gid, created["tokens"])
    pg.wait_for_selector("[data-test=deploy-prompt]")
    first = pg.evaluate("() => window.tertiaScreen.view.side")
    other = next(s for s in created["tokens"] if s != first)
    assert pg.locator(f'.unit[data-side="{other}"]').count() == 0
    assert pg.locator(f'.unit.hidden-piece[data-side="{first}"]').count() > 0
    assert pg.inner_text("[data-test=army-losses]").endswith("?")

    # Pick a horse regiment on the table and place it 1" ahead; then too near the centre.
    uid = "p-rossiter-horse"
    x, y = unit_position(pg, uid)
    pick_to_place(pg, uid)
    pg.mouse.click(*to_client(pg, x, y + 1.2))
    pg.wait_for_function("([id, y]) => window.tertiaScreen.view.state.units"
                         ".find((u) => u.id === id).y > y + 1", arg=[uid, y])
    pg.mouse.click(*to_client(pg, x, 29))
    pg.wait_for_selector(".toast.error:has-text('centre of the table')")
    shoot(pg, "cyp-deploy")

    # Done: the screen is covered, then shows the other side's deployment alone.
    pg.get_by_role("button", name="Deployment done", exact=True).click()
    pg.wait_for_selector("[data-test=handover]")
    assert pg.locator(".handover").is_visible()
    pg.click("[data-test=handover-ready]")
    pg.wait_for_function(f"() => window.tertiaScreen.view.side === '{other}'")
    pg.wait_for_selector("[data-test=deploy-prompt]")
    assert pg.locator("[data-test=handover]").count() == 0
    assert pg.locator(f'.unit[data-side="{first}"]').count() == 0
    assert pg.locator(f'.unit.hidden-piece[data-side="{other}"]').count() > 0


def test_charge_yr_pikes_odds_of_a_units_fire_asked_in_the_page(server: Server, page: Any) -> None:
    """Charge yr Pikes! at Naseby: a battery of ours selected, *Odds…* on its card, an enemy
    regiment clicked on the table, "fire" chosen: the panel shows the chance of killing
    figures that the server's question answers, from our side's view. A battery is offered
    ball and canister; a regiment of foot is not."""
    pg = page
    created = httpx.post(server.url + "/api/games", json={
        "scenario": "naseby", "rules": "charge-yr-pikes", "mode": "hotseat", "seed": 3,
        "options": {"secret_deployment": False}}).json()
    gid, tok = created["id"], created["tokens"]["parliament"]
    gun, target = "p-guns-left", "r-york-foot"
    pg.goto(f"{server.url}/#/play/{gid}?token={tok}")
    pg.wait_for_selector(f'.unit[data-unit="{gun}"]', timeout=60_000)
    pg.click(f'.unit[data-unit="{gun}"]', force=True)
    pg.click("[data-test=ask-odds]")
    pg.wait_for_selector("[data-test=question]")
    words = pg.eval_on_selector_all("[data-test=question-word] option", "os => os.map((o) => o.value)")
    assert {"fire", "ball", "canister", "charge", "morale"} <= set(words)
    pg.click(f'.unit[data-unit="{target}"]', force=True)  # the enemy, clicked on the table
    pg.wait_for_function("(id) => document.querySelector('[data-test=question-target]').value === id",
                         arg=target)
    pg.select_option("[data-test=question-word]", "fire")
    headline = "[data-test=question] [data-test=measure-chance]"
    pg.wait_for_selector(headline)
    answer = httpx.post(f"{server.url}/api/games/{gid}/question", headers={"Authorization": f"Bearer {tok}"},
                        json={"question": "fire", "attacker": gun, "target": target}).json()
    lost = 1 - answer["summary"]["target_figures_lost"]["0"]
    assert 0 < lost < 1
    shown = pg.inner_text(headline)
    name = pg.evaluate("(id) => window.tertiaScreen.names(id)", target)
    assert shown == f"{round(lost * 100)}% chance of any figures lost: {name}", shown
    bars = pg.locator("[data-test=question] .bar-row")
    assert bars.count() == len(answer["summary"]["target_figures_lost"])
    shoot(pg, "cyp-odds")

    # A regiment of foot is asked no battery's words.
    pg.get_by_role("button", name="Close", exact=True).click()
    pg.click('.unit[data-unit="p-fairfax-foot"]', force=True)
    pg.wait_for_function("() => { const d = window.tertiaScreen.detail; "
                         "return d && d.report.id === 'p-fairfax-foot'; }")
    pg.click("[data-test=ask-odds]")
    words = pg.eval_on_selector_all("[data-test=question-word] option", "os => os.map((o) => o.value)")
    assert "fire" in words and "ball" not in words and "canister" not in words


def test_odds_too_dear_to_walk_show_their_bounds_and_estimates_in_the_page(server: Server, page: Any) -> None:
    """Declare Thee Sir at Edgehill: the King's right guns asked the odds of their fire at
    Charles Essex's brigade, a question too dear to walk within the budget. The panel says
    so in a line, then gives a table of the chances the server's refusal tells: each
    piece's chance by its name, about so much, its 95% interval and the bounds the walked
    branches prove; the refusal's whole line is folded away beneath."""
    pg = page
    created = httpx.post(server.url + "/api/games", json={
        "scenario": "edgehill", "rules": "declare-thee-sir", "mode": "hotseat", "seed": 1}).json()
    gid, tok = created["id"], created["tokens"]["royalist"]
    gun, target = "r-guns-right", "p-cessex-foot-2"
    refused = httpx.post(f"{server.url}/api/games/{gid}/question", headers={"Authorization": f"Bearer {tok}"},
                         json={"question": "fire", "attacker": gun, "target": target}, timeout=60)
    assert refused.status_code == 422 and refused.json()["code"] == "TOO_MANY_BRANCHES", refused.text
    told = refused.json()["told"]
    assert told["draws"] > 0 and told["chances"]
    pg.goto(f"{server.url}/#/play/{gid}?token={tok}")
    pg.wait_for_selector(f'.unit[data-unit="{gun}"]', timeout=60_000)
    pg.click(f'.unit[data-unit="{gun}"]', force=True)
    pg.click("[data-test=ask-odds]")
    pg.wait_for_selector("[data-test=question]")
    pg.click(f'.unit[data-unit="{target}"]', force=True)
    pg.wait_for_function("(id) => document.querySelector('[data-test=question-target]').value === id",
                         arg=target)
    pg.select_option("[data-test=question-word]", "fire")
    pg.wait_for_selector("[data-test=question] [data-test=odds-bounded]", timeout=60_000)
    message = refused.json()["message"]
    assert pg.inner_text("[data-test=question] [data-test=odds-refusal]") == (
        "This question has too many outcomes to list exactly.")
    assert pg.text_content("[data-test=question] [data-test=odds-refusal-words]") == message
    rows = pg.locator("[data-test=question] [data-test=odds-estimate]")
    assert rows.count() == len(told["chances"])
    for n, chance in enumerate(told["chances"]):
        cells = rows.nth(n).locator("td").all_inner_texts()
        name = pg.evaluate("(id) => window.tertiaScreen.names(id)", chance["unit"])
        low, high = chance["interval"]
        proved_low, proved_high = chance["proved"]
        assert cells == [f"{name} {chance['words']}", f"{100 * chance['estimate']:.1f}%",
                         f"{100 * low:.1f}%–{100 * high:.1f}%",
                         f"{100 * proved_low:.1f}%–{100 * proved_high:.1f}%"]
    assert "undefined" not in pg.inner_text("[data-test=question]")
    shoot(pg, "dts-odds-estimated")


# --- Charge yr Pikes!: secret deployment from two links, a piece coming into sight, the end ---


@pytest.fixture(scope="module")
def cyp_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server offering the small Charge yr Pikes! battles of ``tests.cyp_page_scenarios``
    beside the built-in ones (named to it as a plugin module)."""
    saved = os.environ.get("TERTIA_RULESETS")
    os.environ["TERTIA_RULESETS"] = "tests.cyp_page_scenarios"
    try:
        # A watched battle paced at a twentieth of the default: it is still seen moving
        # (the banner), and its end comes in seconds.
        s = Server(tmp_path_factory.mktemp("web-cyp") / "games.sqlite3", None, "--ai-quantum", "0",
                   "--watch-pace", "0.03").start(timeout=60.0)
    finally:
        if saved is None:
            os.environ.pop("TERTIA_RULESETS", None)
        else:
            os.environ["TERTIA_RULESETS"] = saved
    yield s
    s.stop()


@pytest.fixture
def second_page(browser: Any) -> Iterator[Any]:
    """Another browser context: the other player's own browser, with its own storage."""
    yield from _checked_page(browser)


def drawn_pieces(pg: Any, side: str) -> set[str]:
    """The pieces of ``side`` the page draws on its map."""
    return set(pg.eval_on_selector_all(f'.unit:not(.stand)[data-side="{side}"]',
                                       "els => els.map((e) => e.dataset.unit)"))


def placed_in_view(view: dict[str, Any], side: str) -> set[str]:
    return {u["id"] for u in view["state"]["units"] if u["side"] == side and not u.get("removed")}


def wait_for_version(pg: Any, version: int) -> None:
    pg.wait_for_function("(v) => window.tertiaScreen.view?.version === v", arg=version, timeout=60_000)


def test_charge_yr_pikes_both_sides_deploy_in_secret_from_their_own_links(
        server: Server, page: Any, second_page: Any) -> None:
    """Naseby with secret deployment between two players' links, each in its own browser:
    while deploying, each page draws only its own side's pieces and shades its deployment
    zone (its own half but the 12" by the centre line); each side moves a piece by clicking
    the table and says it is done; then the battle begins and each page draws the enemy's
    pieces its own can see, as the server's view for its token lists them."""
    created = httpx.post(server.url + "/api/games", json={
        "scenario": "naseby", "rules": "charge-yr-pikes", "mode": "link",
        "options": {"secret_deployment": True}}).json()
    gid, tokens = created["id"], created["tokens"]
    url = f"{server.url}/api/games/{gid}"
    headers = {side: {"Authorization": f"Bearer {tok}"} for side, tok in tokens.items()}
    first = httpx.get(url + "/view", headers=headers["parliament"]).json()["status"]["to_act"]
    second = next(s for s in tokens if s != first)
    pages = {first: page, second: second_page}
    for side, pg in pages.items():
        pg.goto(server.url + created["links"][side])
        pg.wait_for_function("(side) => window.tertiaScreen?.view?.side === side", arg=side)
        pg.wait_for_selector(f'.unit[data-side="{side}"]')
    depth = float(httpx.get(url + "/table", headers=headers[first]).json()["depth"])

    for side in (first, second):
        pg, enemy = pages[side], next(s for s in tokens if s != side)
        pg.wait_for_selector("[data-test=deploy-prompt]", timeout=60_000)
        zone = pg.wait_for_selector(f'[data-test=deploy-zone][data-side="{side}"]')
        edge = zone.get_attribute("data-edge")
        # The band where anything may stand: the side's own half but the 12" by the centre.
        top, height = pg.eval_on_selector(f'[data-test=deploy-zone][data-side="{side}"] .deploy-open',
                                          "r => [r.y.baseVal.value, r.height.baseVal.value]")
        assert height == pytest.approx(depth / 2 - 12)
        assert top == pytest.approx(depth / 2 + 12 if edge == "south" else 0.0)  # map y runs south
        for pg_ in pages.values():  # neither page draws a piece of the other side
            assert drawn_pieces(pg_, next(s for s in tokens if s != pg_.evaluate(
                "() => window.tertiaScreen.view.side"))) == set()
        assert pages[enemy].locator("[data-test=deploy-zone]").count() == 0
        assert drawn_pieces(pg, enemy) == set() and len(drawn_pieces(pg, side)) > 10

        # A piece of one's own moved back its depth towards its own edge, where the rules
        # allow it and the click falls clear of every piece drawn.
        view = httpx.get(url + "/view", headers=headers[side]).json()
        spot: tuple[str, float, float] | None = None
        for u in view["state"]["units"]:
            if u["side"] != side or u["kind"] == "commander" or u.get("removed"):
                continue
            back = (u["depth"] + 0.6) * (-1 if edge == "south" else 1)
            probe = {"type": "cyp_deploy", "unit": u["id"], "x": round(u["x"], 2),
                     "y": round(u["y"] + back, 2)}
            clear = pg.evaluate("([x, y]) => !document.elementFromPoint(x, y)?.closest('.unit')",
                                list(to_client(pg, probe["x"], probe["y"])))
            if clear and httpx.post(url + "/validate", json=probe, headers=headers[side]).json()["legal"]:
                spot = (u["id"], probe["x"], probe["y"])
                break
        assert spot is not None, f"no piece of {side} may step back"
        uid, x, y = spot
        pick_to_place(pg, uid)
        pg.mouse.click(*to_client(pg, x, y))
        pg.wait_for_function("([id, y]) => Math.abs(window.tertiaScreen.view.state.units"
                             ".find((u) => u.id === id).y - y) < 0.3", arg=[uid, y])  # a click is a pixel
        shoot(pg, f"cyp-deploy-{side}")
        pg.get_by_role("button", name="Deployment done", exact=True).click()
        pg.wait_for_function("() => !document.querySelector('[data-test=deploy-prompt]')")

    # The screens come away: each page draws what its pieces can see of the enemy.
    for side, pg in pages.items():
        enemy = next(s for s in tokens if s != side)
        pg.wait_for_function("() => window.tertiaScreen.view.status.phase !== 'deployment'", timeout=60_000)
        view = httpx.get(url + "/view", headers=headers[side]).json()
        wait_for_version(pg, view["version"])
        seen = placed_in_view(view, enemy)
        pg.wait_for_function("([side, n]) => document.querySelectorAll("
                             "`.unit:not(.stand)[data-side=\"${side}\"]`).length === n",
                             arg=[enemy, len(seen)])
        assert drawn_pieces(pg, enemy) == seen and seen, f"{side} sees none of {enemy}'s pieces"
        assert pg.locator("[data-test=deploy-zone]").count() == 0
    shoot(page, "cyp-link-deployed")


def cyp_play_until(url: str, headers: dict[str, dict[str, str]], stop: Any,
                   limit: int = 60) -> dict[str, Any]:
    """Both sides play through the API, each taking the last choice it is offered (its card
    done, its free move given), until ``stop(view)`` holds for the side to act's view."""
    for _ in range(limit):
        status = httpx.get(url + "/view?log_from=100000", headers=headers["parliament"]).json()["status"]
        to_act = status["to_act"]
        view = httpx.get(url + "/view?log_from=100000", headers=headers[to_act]).json()
        if stop(view):
            return dict(view)
        assert view["choices"], f"{to_act} has nothing to choose"
        r = httpx.post(url + "/actions", json=view["choices"][-1]["action"], headers=headers[to_act])
        assert r.status_code == 200, r.text
    raise AssertionError("the moment never came")


def test_charge_yr_pikes_a_hidden_gun_comes_into_sight_on_the_enemys_page(
        cyp_server: Server, page: Any, second_page: Any) -> None:
    """A Royalist gun in a wood is seen only from within 6": after the secret deployment
    Parliament's page draws the Royalist horse in the open but not the gun, while the
    Royalist page draws it marked hidden; Parliament's general is dragged up to the wood on
    his card, and then Parliament's page draws the gun and its log says it is placed, and
    the Royalist page no longer marks it hidden."""
    created = httpx.post(cyp_server.url + "/api/games", json={
        "scenario": "cyp-test-reveal", "rules": "charge-yr-pikes", "mode": "hotseat", "seed": 1,
        "options": {"secret_deployment": True}}).json()
    gid, tokens = created["id"], created["tokens"]
    url = f"{cyp_server.url}/api/games/{gid}"
    headers = {side: {"Authorization": f"Bearer {tok}"} for side, tok in tokens.items()}
    view = cyp_play_until(url, headers, lambda v: v["status"]["to_act"] == "parliament"
                          and "p-gen" in v["status"]["summary"]["moving"])
    assert "r-gun" not in placed_in_view(view, "royalist")
    assert {"r-horse-1", "r-horse-2", "r-horse-3"} <= placed_in_view(view, "royalist")
    pages = {"parliament": page, "royalist": second_page}
    for side, pg in pages.items():  # each browser holds its own side's token only
        pg.goto(f"{cyp_server.url}/#/play/{gid}?token={tokens[side]}")
        pg.wait_for_function("(side) => window.tertiaScreen?.view?.side === side", arg=side)
        wait_for_version(pg, view["version"])
    parl, roy = page, second_page
    parl.wait_for_selector('.unit[data-unit="r-horse-2"]')
    assert parl.locator('.unit[data-unit="r-gun"]').count() == 0
    roy.wait_for_selector('.unit.hidden-piece[data-unit="r-gun"]')
    lines = parl.locator(".log-line").count()

    # The general rides up to the wood on Parliament's Officers & Artillery card.
    general = unit_position(parl, "p-gen")
    parl.click('.unit[data-unit="p-gen"]', force=True)
    parl.wait_for_function("() => window.tertiaScreen.detail?.report.id === 'p-gen' && "
                           "window.tertiaScreen.tool")
    drag(parl, general, (44.0, 23.5))
    parl.wait_for_selector(".move-box.legal")
    parl.click("[data-test=confirm-move]")
    parl.wait_for_selector('.unit[data-unit="r-gun"]')
    parl.wait_for_function(f"() => document.querySelectorAll('.log-line').length > {lines}")
    assert "Hopton's Guns are placed on the table" in parl.inner_text(".log")
    roy.wait_for_selector('.unit[data-unit="r-gun"]:not(.hidden-piece)', timeout=30_000)
    shoot(parl, "cyp-reveal")


def check_the_results_dice(pg: Any, server: Server, gid: str, tok: str) -> list[dict[str, Any]]:
    """With the result shown: the dice tray over the map is put away (no roll of a turn
    gone by sits under the result), and the result shows the dice of the action that ended
    the battle, as the side ``tok`` plays sees them, under their own heading, or none where
    it rolled none. Those dice, for the caller to check they were rolled."""
    pg.wait_for_selector("[data-test=result]")
    assert pg.locator(".dice-tray").is_hidden()
    assert pg.locator(".dice-tray .die").count() == 0
    url, headers = f"{server.url}/api/games/{gid}", {"Authorization": f"Bearer {tok}"}
    total = httpx.get(url + "/view?log_from=100000", headers=headers).json()["log_total"]
    [ending] = httpx.get(url + f"/view?log_from={total - 1}", headers=headers).json()["log"]
    dice: list[dict[str, Any]] = ending["dice"]
    shown = pg.locator("[data-test=result] [data-test=deciding-roll]")
    if not dice:
        assert shown.count() == 0
        return dice
    assert "The last roll, as the battle ended" in shown.inner_text()
    faces = shown.locator(".tray-die")
    drawn = [(faces.nth(i).get_attribute("title"), faces.nth(i).locator(".die").get_attribute("aria-label"))
             for i in range(faces.count())]
    assert drawn == [(d["purpose"], f"{d['die']} showing {d['value']}") for d in dice[-8:]]
    return dice


def watch_the_victory(server: Server, pg: Any) -> None:
    """The page follows the AI fighting both sides of ``cyp-test-victory`` (won as the
    first turn ends), each side's deployment seen."""
    created = httpx.post(server.url + "/api/games", json={
        "scenario": "cyp-test-victory", "rules": "charge-yr-pikes", "mode": "watch", "seed": 1,
        "options": {"secret_deployment": False}}).json()
    tok = next(iter(created["tokens"].values()))
    pg.goto(f"{server.url}/#/play/{created['id']}?token={tok}")


def test_a_battle_watched_to_its_end_clears_the_ais_banner_and_shows_the_results_losses(
        cyp_server: Server, page: Any) -> None:
    """Watching the AI play both sides: while it moves, the map's banner says for whom;
    once the battle is over the banner is gone, and the losses shown are those the result
    counts (19 D, F), no longer army morale's."""
    pg = page
    watch_the_victory(cyp_server, pg)
    pg.wait_for_function("() => window.tertiaScreen?.view")
    over = "window.tertiaScreen.view.status.over"
    banner = "(document.querySelector('.map-banner')?.textContent || '')"
    pg.wait_for_function(f"() => {over} || {banner}.startsWith('The AI is moving for')")
    pg.wait_for_function(f"() => {over}", timeout=120_000)
    pg.wait_for_selector("[data-test=outcome]")
    assert pg.locator(".map-banner").is_hidden()
    # Nobody acts any more: the top bar names the victor where it named the side active.
    winner = pg.evaluate("() => window.tertiaScreen.view.status.result.winner")
    chip = pg.inner_text("[data-test=active-side]")
    names = pg.evaluate("() => Object.fromEntries(window.tertiaScreen.table.sides.map((s) => [s.id, s.name]))"
                        )
    label, _, named = chip.partition("\n")
    assert (label.upper(), named) == (("VICTOR", names[winner]) if winner else ("RESULT", "Drawn")), chip
    losses = pg.get_attribute("[data-test=army-losses]", "title")
    assert losses.startswith("Casualties counted for the result."), losses

    # Your battles names the battle's rule set, how it was played and its victor in words.
    pg.goto(cyp_server.url + "/#/")
    pg.wait_for_selector("[data-test=game-state]")
    listed = pg.inner_text("[data-test=game-state]")
    victor = f"won by {names[winner]}" if winner else "drawn"
    assert listed.startswith(" · Charge yr Pikes!"), listed
    assert listed.endswith(" · AI against AI (doctrine) · " + victor), listed


def test_a_score_that_did_not_decide_the_battle_says_so(cyp_server: Server, page: Any) -> None:
    """Once the battle is over, the top bar's score chip says whether the score decided it.
    A victor on a level or lower score (an army broke, objectives taken, the larger share
    of casualties at darkness) or a draw on scores apart: "Score, not deciding", and on
    hover what did. A victor on the highest score, or a draw on level scores: "Score". The
    prompt says how the battle ended under its headline."""
    pg = page
    watch_the_victory(cyp_server, pg)
    pg.wait_for_function("() => window.tertiaScreen?.view?.status.over", timeout=120_000)
    reason = pg.evaluate("() => window.tertiaScreen.view.status.result.reason")
    assert pg.inner_text("[data-test=outcome-reason]") == f"The battle ended: {reason}."
    sides = pg.evaluate("() => window.tertiaScreen.table.side_order")
    first, second = sides

    def shown(winner: str | None, scores: tuple[int, int]) -> tuple[str, str | None]:
        return tuple(pg.evaluate("""([winner, score]) => {
            const s = window.tertiaScreen;
            s.view.status.result = { winner, score, reason: 'the beaten army breaks' };
            s.view.status.summary = { ...s.view.status.summary, score };
            s.renderTopbar();
            const chip = document.querySelector('[data-test=score]');
            return [chip.querySelector('small').textContent, chip.getAttribute('title')];
        }""", [winner, dict(zip(sides, scores, strict=True))]))

    not_deciding = ("Score, not deciding", "Not what decided the battle: the beaten army breaks.")
    assert shown(first, (8, 8)) == not_deciding
    assert shown(first, (3, 5)) == not_deciding
    assert shown(second, (3, 5)) == ("Score", "")
    assert shown(None, (4, 4)) == ("Score", "")
    assert shown(None, (4, 6)) == not_deciding


def test_the_result_fits_a_phones_screen(cyp_server: Server, page: Any) -> None:
    """A finished battle's result on a 390px wide screen: every button of the dialog lies
    within its card (they wrap rather than run past its edge), and on a screen shorter
    than the card it scrolls, its top and its buttons in reach; over the prompt, who one
    is and how the battle is played stand apart, not run together."""
    pg = page
    pg.set_viewport_size({"width": 390, "height": 844})
    watch_the_victory(cyp_server, pg)
    pg.wait_for_selector("[data-test=result]", timeout=120_000)
    outside = pg.evaluate("""() => {
        const card = document.querySelector('[data-test=result] .modal-card').getBoundingClientRect();
        return [...document.querySelectorAll('[data-test=result] .modal-card .btn')]
          .filter((b) => { const r = b.getBoundingClientRect();
                           return r.left < card.left - 0.5 || r.right > card.right + 0.5; })
          .map((b) => b.textContent); }""")
    assert outside == []
    # As they read at Edgehill against the AI, the longest pair the built-in battles give.
    apart = pg.evaluate("""() => {
        const nodes = [...document.querySelector('.prompt-head').children];
        nodes[0].textContent = 'You: Parliament (Earl of Essex)';
        nodes[1].textContent = 'Against the AI (doctrine)';
        const [you, mode] = nodes.map((n) => n.getBoundingClientRect());
        return mode.left - you.right; }""")
    assert apart >= 6, apart
    # On a screen shorter than the card, the card scrolls, its top and its buttons in reach.
    pg.set_viewport_size({"width": 390, "height": 480})
    top, taller = pg.evaluate("""() => { const modal = document.querySelector('[data-test=result]');
        modal.scrollTop = 0;
        const card = modal.querySelector('.modal-card').getBoundingClientRect();
        return [card.top, card.height > window.innerHeight]; }""")
    assert taller and top >= 0, (top, taller)
    pg.click("[data-test=close-result]", timeout=5_000)
    pg.wait_for_selector("[data-test=result]", state="detached")


def test_charge_yr_pikes_played_to_the_degree_of_victory_in_the_page(cyp_server: Server, page: Any) -> None:
    """Against the AI, a battle the Parliament horse win as the first turn ends (they stand
    on their objectives): each of our cards is ended from the page's buttons until the
    battle is over; the page then shows the pursuit phase in the log (it is begun and
    over within the action ending the turn), the result headed by the degree of victory,
    and in replay the objectives and vital points as they stood."""
    pg = page
    created = httpx.post(cyp_server.url + "/api/games", json={
        "scenario": "cyp-test-victory", "rules": "charge-yr-pikes", "mode": "ai", "side": "parliament",
        "seed": 1, "options": {"secret_deployment": False}}).json()
    gid, tok = created["id"], created["tokens"]["parliament"]
    pg.goto(f"{cyp_server.url}/#/play/{gid}?token={tok}")
    pg.wait_for_function("() => window.tertiaScreen?.view")
    over = "window.tertiaScreen.view.status.over"
    for _ in range(40):
        pg.wait_for_function(f"() => {over} || window.tertiaScreen.view.status.your_turn", timeout=60_000)
        if pg.evaluate(f"() => {over}"):
            break
        step = pg.evaluate("() => window.tertiaScreen.view.status.step")
        pg.locator(".prompt .choices button").last.click()
        pg.wait_for_function(f"() => {over} || window.tertiaScreen.view.status.step > {step}", timeout=60_000)
    pg.wait_for_selector("[data-test=result]", timeout=60_000)
    headline = pg.inner_text("[data-test=result-headline]")
    assert headline == "An indecisive victory for Parliament", headline
    assert "indecisive victory" in pg.inner_text("[data-test=result-terms]")
    # The side's name is singular: its verb agrees with it.
    assert "Parliament wins: an indecisive victory." in pg.inner_text("[data-test=outcome]")
    # The breakdown's items headed as the HTML report heads them, under its heading.
    from tests.test_page_matrix import report_headings
    result = pg.evaluate("() => window.tertiaScreen.view.status.result")
    title, items = report_headings("charge-yr-pikes", result)
    assert pg.inner_text("[data-test=result] [data-test=breakdown-title]") == title
    assert pg.locator("[data-test=result] [data-test=breakdown-item]").all_inner_texts() == items
    assert pg.locator(".log-line.kind-phase", has_text="Pursuit phase").count() == 1
    assert "moves forward in the pursuit" in pg.inner_text(".log")
    # The last action rolled the armies' morale (one army takes fright without a roll):
    # those dice are in the result, and the tray's are put away.
    assert check_the_results_dice(pg, cyp_server, gid, tok)
    shoot(pg, "cyp-result")
    # The result is a dialog to the keyboard too: taken into it, Tab kept within it, and
    # Escape closes it; the prompt's button opens it again.
    assert pg.evaluate("() => document.activeElement.textContent") == "Replay the battle"
    for _ in range(4):
        pg.keyboard.press("Tab")
        assert pg.evaluate("() => !!document.activeElement.closest('[data-test=result]')")
    pg.keyboard.press("Escape")
    pg.wait_for_selector("[data-test=result]", state="detached")
    pg.click(".prompt button:has-text('See the result')")
    pg.wait_for_selector("[data-test=result]")

    # Replay draws the objectives and vital points too, as each side saw them.
    pg.click("[data-test=result] >> text=Replay the battle")
    pg.wait_for_selector("[data-test=replay-step]")
    pg.wait_for_selector("[data-test=point]")
    assert pg.locator("[data-test=point]").count() == 12
    # At its last step the battle is over: the victor is named, and no side or phase acts.
    status = pg.inner_text("[data-test=replay-status]").lower()  # the chips' labels are set in capitals
    assert "victor" in status and "parliament" in status and "phase" not in status, status
    pg.click(".replay-controls button[title=Start]")  # before the pursuit carried the horse off them
    pg.wait_for_function("() => document.querySelector('[data-test=replay-step]')"
                         ".textContent.startsWith('Step 0 ')")
    status = pg.inner_text("[data-test=replay-status]").lower()
    assert "active" in status and "phase" in status and "victor" not in status, status
    pg.wait_for_selector('[data-test=point][data-held="parliament"]')
    assert pg.locator('[data-test=point][data-held="parliament"]').count() == 3


def test_the_page_measures_a_gap_as_the_engine_does(server: Server, page: Any) -> None:
    """A target picker says how far each target stands, edge to edge (as the rules measure
    ranges); the page's measure (``gaps.js``) agrees with the engine's on pieces turned
    every way, apart, touching and overlapping, and on a unit whose stands stand apart."""
    rng = random.Random(5)
    pairs = []
    for _ in range(40):
        a = {"x": rng.uniform(0, 20), "y": rng.uniform(0, 20), "facing": rng.uniform(0, 360),
             "width": rng.choice((4.0, 3.0, 1.0)), "depth": rng.choice((2.0, 1.0)), "stands": []}
        b = {"x": rng.uniform(0, 20), "y": rng.uniform(0, 20), "facing": rng.uniform(0, 360),
             "width": rng.choice((4.0, 2.0)), "depth": rng.choice((2.0, 0.5)), "stands": []}
        pairs.append((a, b))
    def stand(x: float, facing: float, removed: str | None = None) -> dict[str, Any]:
        return {"x": x, "y": 0.0, "facing": facing, "width": 1.0, "depth": 1.0, "removed": removed}

    scattered = {"x": 0.0, "y": 0.0, "facing": 0.0, "width": 4.0, "depth": 1.0,
                 "stands": [stand(10.0, 90.0), stand(30.0, 0.0), stand(4.0, 0.0, "fled")]}
    near = {"x": 10.0, "y": 5.0, "facing": 0.0, "width": 2.0, "depth": 1.0, "stands": []}
    # laid crosswise, no corner of either inside the other
    pairs.append(({"x": 5.0, "y": 5.0, "facing": 0.0, "width": 6.0, "depth": 1.0, "stands": []},
                  {"x": 5.0, "y": 5.0, "facing": 90.0, "width": 6.0, "depth": 1.0, "stands": []}))
    page.goto(server.url + "/")
    found = page.evaluate("""async ([pairs, scattered, near]) => {
        const { gapBetween } = await import('/static/js/gaps.js');
        return [pairs.map(([a, b]) => gapBetween(a, b)), gapBetween(scattered, near)]; }""",
                          [pairs, scattered, near])

    def base(u: dict[str, Any]) -> Base:
        return Base(u["x"], u["y"], u["facing"], u["width"], u["depth"])

    for (a, b), gap in zip(pairs, found[0], strict=True):
        assert gap == pytest.approx(polygon_distance(base(a).corners(), base(b).corners()), abs=1e-9)
    # the stand 10" off is nearest (the colours' base at 0 and the fled stand do not count)
    nearest = Base(10.0, 0.0, 90.0, 1.0, 1.0)
    assert found[1] == pytest.approx(polygon_distance(nearest.corners(), base(near).corners()), abs=1e-9)
    assert found[1] == pytest.approx(4.0)


def test_a_place_both_sides_mark_is_named_once_on_the_map(server: Server, page: Any) -> None:
    """Naseby marks the road to Naseby as the King's objective and, 2.5" away, as
    Parliament's vital point (Charge yr Pikes! 19): the map shows both marks, but the name
    once. Places of other names are still named."""
    body = {"scenario": "naseby", "rules": "charge-yr-pikes", "mode": "ai", "side": "parliament", "seed": 3,
            "options": {"secret_deployment": False}}
    created = httpx.post(server.url + "/api/games", json=body).json()
    gid, tok = created["id"], created["tokens"]["parliament"]
    page.goto(f"{server.url}/#/play/{gid}?token={tok}")
    page.wait_for_selector("[data-test=point]")
    marks = page.eval_on_selector_all(
        "[data-test=point]", "els => els.map((e) => e.querySelector('text').textContent)")
    assert marks.count("the road to Naseby") == 2
    shown = page.eval_on_selector_all(
        ".objective-name:not(.crowded)", "els => els.map((e) => e.textContent)")
    assert shown.count("the road to Naseby") == 1, shown
    assert "Mill Hill" in shown and len(set(shown)) == len(shown), shown


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Do two boxes on the screen (Playwright's boundingBox) overlap?"""
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def _inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    """Is one box on the screen wholly within another?"""
    return (outer["x"] <= inner["x"] and inner["x"] + inner["width"] <= outer["x"] + outer["width"]
            and outer["y"] <= inner["y"] and inner["y"] + inner["height"] <= outer["y"] + outer["height"])


@pytest.mark.parametrize(("scenario", "rules"), [
    ("chalgrove", "d3-cards"), ("edgehill", "d3-commands"), ("skirmish", "larger-battles"),
    ("naseby", "charge-yr-pikes"),
])
def test_the_north_arrow_stands_clear_of_the_zoom_buttons(server: Server, page: Any, scenario: str,
                                                          rules: str) -> None:
    """The whole table as the page first shows it, on a wide screen and a small one: the
    north arrow is on the map, in sight, and under none of the zoom buttons."""
    pg = page
    open_new_game(pg, server, {
        "scenario": scenario, "rules": rules, "mode": "hotseat", "seed": 3,
        "options": {"secret_deployment": False} if rules == "charge-yr-pikes" else {}})
    pg.wait_for_selector(".unit")
    for width, height in ((1440, 900), (1024, 700)):
        pg.set_viewport_size({"width": width, "height": height})
        pg.click("button[title='Whole table']")
        pg.wait_for_timeout(100)
        compass = pg.locator(".compass").bounding_box()
        box = pg.locator(".map-box").bounding_box()
        assert compass is not None and box is not None
        assert _inside(compass, box), (width, compass, box)
        buttons = pg.locator(".zoom-controls button")
        assert buttons.count() == 3
        for i in range(buttons.count()):
            button = buttons.nth(i).bounding_box()
            assert button is not None and not _overlap(compass, button), (width, compass, button)


def test_the_top_bar_says_the_armies_deploy_and_drops_what_the_end_leaves_meaningless(
        server: Server, page: Any) -> None:
    """Charge yr Pikes! secret deployment: the turn chip says the armies are deploying, not
    "turn 0". A battle over: no orders left, no phase, and only the turn it ended on."""
    pg = page
    open_new_game(pg, server, {
        "scenario": "edgehill", "rules": "charge-yr-pikes", "mode": "hotseat", "seed": 3,
        "options": {"secret_deployment": True}})
    pg.wait_for_selector("[data-test=deploy-prompt]")
    assert pg.evaluate("() => window.tertiaScreen.view.status.turn") == 0
    last = pg.evaluate("() => window.tertiaScreen.view.status.last_turn.text")
    chip = pg.inner_text("[data-test=turn]")
    label, _, value = chip.partition("\n")
    assert (label.upper(), value) == ("DEPLOYMENT", f"before turn 1 of {last}"), chip
    assert "0 of" not in chip

    # Larger battles, in play: its orders left and phase; then as a battle over shows them.
    open_new_game(pg, server, {
        "scenario": "skirmish", "rules": "larger-battles", "mode": "hotseat", "seed": 3})
    pg.wait_for_selector(".unit")
    pg.wait_for_selector(".orders-chip")
    assert pg.locator(".phase-chip").count() == 1
    assert pg.inner_text("[data-test=turn]").partition("\n")[2] == "1 of 8"
    pg.evaluate("""() => { const s = window.tertiaScreen;
        s.view.status = { ...s.view.status, over: true, your_turn: false, result: { winner: null } };
        s.renderTopbar(); }""")
    assert pg.locator(".orders-chip").count() == 0 and pg.locator(".phase-chip").count() == 0
    label, _, value = pg.inner_text("[data-test=turn]").partition("\n")
    assert (label.upper(), value) == ("ENDED", "on turn 1")
    assert "Battle over" in pg.inner_text("[data-test=status]")


def test_your_battles_names_a_saved_game_that_no_longer_replays(browser: Any, page: Any,
                                                                tmp_path: Path) -> None:
    """A game this browser holds whose saved record no longer replays under the server's
    engine: *Your battles* shows the server's one line for it, and the other games as ever."""
    db = tmp_path / "games.sqlite3"
    s = Server(db, None, "--ai-quantum", "0").start()
    try:
        broken, sound = (httpx.post(s.url + "/api/games", json={
            "scenario": "skirmish", "mode": "hotseat", "seed": seed}).json() for seed in (4, 5))
        s.stop()
        with sqlite3.connect(db) as conn:
            rolls = json.loads(conn.execute("SELECT start_rolls FROM games WHERE id = ?",
                                            (broken["id"],)).fetchone()[0])
            rolls[0][0] = "a roll the rules never ask for"
            conn.execute("UPDATE games SET start_rolls = ? WHERE id = ?", (json.dumps(rolls), broken["id"]))
        s.start()
        pg = page
        pg.goto(s.url + "/")
        held = {g["id"]: {"tokens": g["tokens"], "title": "Skirmish at the Ford", "mode": "hotseat",
                          "touched": i} for i, g in enumerate((broken, sound))}
        pg.evaluate("(held) => localStorage.setItem('tertia.games', JSON.stringify(held))", held)
        pg.reload()
        pg.wait_for_selector(".game-item:has-text('no longer replays')")
        items = pg.locator(".game-item")
        assert items.count() == 2
        texts = [items.nth(i).inner_text() for i in range(2)]
        [bad] = [t for t in texts if "no longer replays" in t]
        assert f"game '{broken['id']}'" in bad and "could not answer" not in bad
        assert "Forget" in bad
        pg.wait_for_selector(".game-item:has-text('Resume')")
    finally:
        s.stop()


def test_a_move_dropped_onto_an_enemy_is_put_into_contact_by_a_button(server: Server, page: Any) -> None:
    """d3-cards: Crosse's Troop dragged onto Prince Rupert's Lifeguard is refused for the
    overlap; the move box offers the same move ending in contact, and that one is legal."""
    pg = page
    created = httpx.post(server.url + "/api/games", json={
        "scenario": "chalgrove", "rules": "d3-cards", "mode": "hotseat", "seed": 11}).json()
    gid, tokens = created["id"], created["tokens"]
    url = f"{server.url}/api/games/{gid}"
    heads = {side: {"Authorization": f"Bearer {tok}"} for side, tok in tokens.items()}
    r = httpx.post(url + "/actions", headers=heads["royalist"],
                   json={"type": "move", "unit": "r-lifeguard", "waypoints": [[25, 19]]})
    assert r.status_code == 200, r.text
    for _ in range(10):
        status = httpx.get(url, headers=heads["parliament"]).json()["status"]
        if status["to_act"] == "parliament" and status["summary"]["active_card"] == "horse":
            break
        r = httpx.post(url + "/actions", json={"type": "end_phase"}, headers=heads[status["to_act"]])
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("Parliament's horse card never came")

    open_every_link(pg, server, gid, tokens)
    pg.wait_for_function("() => window.tertiaScreen.view?.side === 'parliament'")
    start = unit_position(pg, "p-crosse-horse")
    pg.click('.unit[data-unit="p-crosse-horse"]')
    pg.wait_for_selector(".move-help")
    drag(pg, start, (start[0], 21.6))
    pg.wait_for_selector(".move-box.illegal [data-test=snap-contact]", timeout=60_000)
    assert "Prince Rupert's Lifeguard" in pg.inner_text("[data-test=snap-contact]")
    pg.click("[data-test=snap-contact]")
    pg.wait_for_selector(".move-box.legal", timeout=60_000)
    assert "The rules allow this move." in pg.inner_text("[data-test=move-box]")
    assert pg.locator("[data-test=snap-contact]").count() == 0
    action = pg.evaluate("() => window.tertiaScreen.tool.action()")
    assert action["waypoints"] == [[25, 22]]


def test_the_first_tab_offers_a_way_past_the_pieces_to_the_prompt(server: Server, page: Any) -> None:
    """Every piece on the table takes the keyboard in turn; before the first of them, Tab
    reaches a link that takes it straight to the prompt beside the table."""
    pg = page
    open_new_game(pg, server, {"scenario": "edgehill", "rules": "larger-battles", "mode": "ai",
                               "side": "parliament", "seed": 1})
    pg.wait_for_function("() => window.tertiaScreen?.view?.status.your_turn", timeout=60_000)
    pg.evaluate("() => document.activeElement && document.activeElement.blur()")
    focused = []
    while len(focused) < 12 and (not focused or focused[-1] != "skip-to-prompt"):
        pg.keyboard.press("Tab")
        focused.append(pg.evaluate("() => { const a = document.activeElement;"
                                   " return a.closest('.unit') ? 'piece' : a.dataset.test || a.className; }"))
    assert focused[-1] == "skip-to-prompt" and "piece" not in focused, focused
    assert pg.locator("[data-test=skip-to-prompt]").is_visible()
    pg.keyboard.press("Enter")
    assert pg.evaluate("() => !!document.activeElement.closest('.prompt')")


@pytest.mark.parametrize("rules", ruleset_ids())
def test_a_piece_is_chosen_from_the_keyboard_under_every_rule_set(server: Server, page: Any,
                                                                  rules: str) -> None:
    """A piece is a button on the table: focused with Tab and pressed with Enter or Space it
    is selected as a click selects it, its card shown, and the keyboard stays on it though
    the table is drawn anew; Escape lets it go. Enter on a button of the move box is that
    button's (Reset puts the ghost back, it makes no move)."""
    pg = page
    scenario = default_scenario(rules)
    side = load_named(scenario, rules_id=rules).side_ids[0]
    open_new_game(pg, server, {"scenario": scenario, "rules": rules, "mode": "ai", "side": side, "seed": 1})
    pg.wait_for_function("() => window.tertiaScreen?.view?.status.your_turn", timeout=60_000)
    ours = pg.evaluate("() => { const v = window.tertiaScreen.view; return v.state.units"
                       ".filter((u) => u.side === v.side && !u.removed && u.x !== null).map((u) => u.id); }")
    picked = "(id) => window.tertiaScreen.detail?.report.id === id"
    for key, uid in zip(("Enter", " "), ours[:2], strict=False):
        pg.focus(f'.unit[data-unit="{uid}"]')
        pg.keyboard.press(key)
        pg.wait_for_function(picked, arg=uid)
        assert pg.locator(".unit-card").is_visible()
        assert pg.evaluate("() => document.activeElement.closest('.unit')?.dataset.unit") == uid
    pg.keyboard.press("Escape")
    pg.wait_for_function("() => window.tertiaScreen.selected === null")
    assert pg.locator(".unit-card").is_hidden()
    for uid in ours:
        pg.focus(f'.unit[data-unit="{uid}"]')
        pg.keyboard.press("Enter")
        pg.wait_for_function(picked, arg=uid)
        if pg.evaluate("() => window.tertiaScreen.detail.actions.some((a) => a.interaction === 'drag')"):
            break
    else:
        return
    x, y = unit_position(pg, uid)
    turned = "(id) => window.tertiaScreen.view.state.units.find((u) => u.id === id).facing"
    facing = math.radians(pg.evaluate(turned, uid))
    pg.evaluate("([x, y]) => { const m = window.tertiaScreen.map;"
                " m.setViewBox(x - 12, m.table.depth - y - 8, 24, 16); }", [x, y])
    drag(pg, (x, y), (x + math.sin(facing) * 0.8, y + math.cos(facing) * 0.8))
    pg.wait_for_selector("[data-test=move-box]:not([hidden])")
    pg.focus("[data-test=move-box] button:has-text('Reset')")
    pg.keyboard.press("Enter")
    pg.wait_for_function("() => !window.tertiaScreen.pendingMove")
    time.sleep(0.5)
    # The piece stands where it stood (the view may have moved on for another reason: the
    # opponent's card drawn under d3-cards).
    assert unit_position(pg, uid) == (x, y)
    assert math.radians(pg.evaluate(turned, uid)) == facing


def test_enter_on_reset_stays_reset_while_the_move_box_is_drawn_anew(server: Server, page: Any) -> None:
    """The move box is drawn anew when its odds arrive or the view moves on: the keyboard
    stays on the button that held it, so Enter on Reset just after is still Reset's and no
    move is made (on the page's own Enter, which makes the move, it was)."""
    pg = page
    rules = "d3-cards"  # a move of a few tenths is legal at the start, its odds worked out
    scenario = default_scenario(rules)
    side = load_named(scenario, rules_id=rules).side_ids[0]
    open_new_game(pg, server, {"scenario": scenario, "rules": rules, "mode": "ai", "side": side, "seed": 1})
    pg.wait_for_function("() => window.tertiaScreen?.view?.status.your_turn", timeout=60_000)
    ours = pg.evaluate("() => { const v = window.tertiaScreen.view; return v.state.units"
                       ".filter((u) => u.side === v.side && !u.removed && u.x !== null).map((u) => u.id); }")
    picked = "(id) => window.tertiaScreen.detail?.report.id === id"
    for uid in ours:
        pg.focus(f'.unit[data-unit="{uid}"]')
        pg.keyboard.press("Enter")
        pg.wait_for_function(picked, arg=uid)
        if pg.evaluate("() => window.tertiaScreen.detail.actions.some((a) => a.interaction === 'drag')"):
            break
    x, y = unit_position(pg, uid)
    turned = "(id) => window.tertiaScreen.view.state.units.find((u) => u.id === id).facing"
    facing = math.radians(pg.evaluate(turned, uid))
    pg.evaluate("([x, y]) => { const m = window.tertiaScreen.map;"
                " m.setViewBox(x - 12, m.table.depth - y - 8, 24, 16); }", [x, y])
    version = pg.evaluate("() => window.tertiaScreen.view.version")
    drag(pg, (x, y), (x + math.sin(facing) * 0.8, y + math.cos(facing) * 0.8))
    pg.wait_for_selector("[data-test=confirm-move]:not([disabled])")
    pg.focus("[data-test=reset-move]")
    pg.evaluate("() => window.tertiaScreen.renderMoveBox()")
    assert pg.evaluate("() => document.activeElement.dataset.test") == "reset-move"
    pg.keyboard.press("Enter")
    pg.wait_for_function("() => !window.tertiaScreen.pendingMove")
    time.sleep(0.5)
    assert pg.evaluate("() => window.tertiaScreen.view.version") == version
    assert unit_position(pg, uid) == (x, y)


def answering(status: int, body: dict[str, Any]) -> Any:
    """A route handler answering every request it takes with ``status`` and ``body``."""
    def fulfil(route: Any) -> None:
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))
    return fulfil


def test_an_action_whose_odds_cannot_be_told_may_still_be_made(server: Server, page: Any) -> None:
    """Odds the server cannot tell (too many outcomes to walk, or hanging on what the rules
    hide) do not forbid the action: the refusal is shown in one line, and once the rules
    allow the action its button may be pressed and it is made. An action the rules forbid
    stays refused. Declare Thee Sir at Edgehill, a volley of Parliament's left guns."""
    pg = page
    created = httpx.post(server.url + "/api/games", json={
        "scenario": "edgehill", "rules": "declare-thee-sir", "mode": "hotseat", "seed": 1}).json()
    gid, tokens = created["id"], created["tokens"]
    url = f"{server.url}/api/games/{gid}"
    for _ in range(80):
        view = httpx.get(url + "/view", headers={"Authorization": f"Bearer {tokens['parliament']}"}).json()
        side, unit = view["status"]["to_act"], view["status"]["pending"]["unit"]
        option = "stand_and_fire" if unit == "p-guns-left" else "defer"
        answer = httpx.post(url + "/actions", headers={"Authorization": f"Bearer {tokens[side]}"},
                            json={"type": "dts_declare", "unit": unit, "option": option})
        assert answer.status_code == 200, answer.text
        if unit == "p-guns-left":
            break
    else:
        raise AssertionError("the left guns' card was not drawn")
    untold = (("TOO_MANY_BRANCHES", 422, "this action has too many outcomes to list exactly"),
              ("HIDDEN_INFORMATION", 409, "these odds depend on what the rules hide from you"))
    for code, status, message in untold:
        pg.route("**/odds", answering(status, {"code": code, "message": message, "rule": None}))
        open_every_link(pg, server, gid, tokens)
        pg.wait_for_function("() => window.tertiaScreen.detail?.report.id === 'p-guns-left'")
        pg.locator(".unit-actions .btn.target, [data-test=take-picked]").first.click()
        pg.wait_for_selector("[data-test=odds-refusal]")
        assert pg.inner_text("[data-test=odds-refusal]") == message
        pg.wait_for_selector("[data-test=odds-untold]")
        assert pg.locator("[data-test=roll]").is_enabled()
        pg.unroute("**/odds")
    version = pg.evaluate("() => window.tertiaScreen.view.version")
    pg.click("[data-test=roll]")
    pg.wait_for_function(f"() => window.tertiaScreen.view.version > {version}", timeout=60_000)
    assert "Parliament's left guns" in pg.inner_text(".log") or pg.locator(".dice-tray").count()

    # A refusal of the rules themselves keeps the button refused.
    pg.route("**/odds", answering(409, {"code": "core.WRONG_PHASE", "message": "not now", "rule": None}))
    pg.route("**/validate", answering(200, {"legal": True, "violations": []}))
    pg.evaluate("() => window.tertiaScreen.openOdds({ action: { type: 'dts_fire', unit: 'p-guns-left',"
                " target: 'r-rupert-horse' }, label: 'Fire', kind: 'dts_fire',"
                " target: 'r-rupert-horse' })")
    pg.wait_for_selector("[data-test=odds-refusal]")
    time.sleep(0.5)
    assert pg.locator("[data-test=roll]").is_disabled()
    assert pg.locator("[data-test=odds-untold]").count() == 0


@pytest.mark.parametrize("rules", ruleset_ids())
def test_on_a_phone_every_panel_is_reached_and_nothing_is_wider_than_the_window(
        server: Server, browser: Any, rules: str) -> None:
    """At 390x844 the map and the panels stand one above the other and the page scrolls as a
    whole: no panel is cut to a sliver of its height, and neither the top bar nor anything
    else is wider than the window."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    pg = context.new_page()
    try:
        scenario = default_scenario(rules)
        side = load_named(scenario, rules_id=rules).side_ids[0]
        open_new_game(pg, server, {"scenario": scenario, "rules": rules, "mode": "ai", "side": side,
                                   "seed": 1})
        pg.wait_for_selector(".unit")
        pg.wait_for_function("() => window.tertiaScreen?.view")
        wide = pg.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], wide
        clipped = pg.evaluate("""() => { const panel = document.querySelector('.side-panel');
            return [...panel.querySelectorAll(':scope > .card:not(.log)')]
              .filter((c) => c.offsetParent
                && panel.clientHeight < c.offsetTop + c.offsetHeight - panel.offsetTop - 1)
              .map((c) => c.getAttribute('aria-label') || c.className); }""")
        assert clipped == [], clipped
        prompt = pg.locator(".prompt")
        prompt.scroll_into_view_if_needed()
        box = prompt.bounding_box()
        assert box is not None and box["height"] > 60 and box["y"] + box["height"] <= 844 + 1, box
    finally:
        context.close()
