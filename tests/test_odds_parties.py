"""Who an answer of odds concerns (``Odds.parties``, the rule set's ``odds_parties``) as the
front ends read it.

An answer measures its parties (the target and the attacker, or a morale test's unit
alone) and lists every other piece the action can touch apart. Three readers of the
parties are checked here, under every registered rule set that answers questions (the
example plugin's included), on answers to questions asked in its own battle:

- ``tertia odds``' "Other pieces" table lists exactly the pieces touched that are no party;
- the page's odds panel (``odds.js``, run in the browser) lists exactly the same, and names
  a target that is no party nowhere else;
- a question refused for its cost names, in what its walked branches prove, the parties
  and no other piece.

Each answer is also read with the target made no party (as a morale test's enemy is), so
that a reader ignoring the parties fails under every rule set, not only under the one
whose questions have a unit alone.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tertia.analysis.enumerate import ODDS_BUDGET, TooManyBranches
from tertia.analysis.odds import Odds, odds
from tertia.analysis.questions import Question, legal_questions, played
from tertia.cli import odds_commands
from tertia.core.game import Game
from tertia.core.ruleset import OddsParty
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset
from tertia.rulesets.charge_yr_pikes import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.values import unit_data
from tertia.scenarios.catalogue import load_named, written_for
from tests.plugin_rules import every_rule_set, with_plugins
from tests.web_server import Server, chromium

ANSWERS = 6
"""Answers read a rule set."""
EVERY = 25
"""Actions between the positions questions are asked in."""
BUDGETS = (1, 3, 10, 30, 100)
"""Budgets a question is asked under until one refuses it with what it walked."""



RULES = every_rule_set()


pytestmark = pytest.mark.usefixtures("plugins_registered")


def _game(rules: str) -> Game:
    return Game(get_ruleset(rules), load_named(written_for(rules)[0].name, rules_id=rules))


def _questions(rules: str) -> Iterator[Question]:
    """The legal questions of the first scenario written for ``rules``, asked every
    :data:`EVERY` actions into a battle of the doctrine against itself."""
    game = _game(rules)
    for step, state in enumerate(played(game, 1)):
        if step % EVERY or step > EVERY * 12:
            continue
        yield from legal_questions(game, state, targets=1, every=4)


@functools.cache
def asked(rules: str) -> tuple[tuple[GameState, Odds], ...]:
    """Up to :data:`ANSWERS` answers that chance decides, each with the position asked."""
    with with_plugins():
        game = _game(rules)
        found: list[tuple[GameState, Odds]] = []
        for q in _questions(rules):
            try:
                answer = odds(game, q.ready, q.action, responses=q.responses, budget=ODDS_BUDGET // 4)
            except TooManyBranches:
                continue
            if len(answer.outcomes) > 1:
                found.append((q.ready, answer))
            if len(found) == ANSWERS:
                break
        return tuple(found)


def readings(rules: str) -> list[tuple[GameState, Odds]]:
    """Each answer as given, and again with a target it names made no party."""
    read = []
    for state, answer in asked(rules):
        read.append((state, answer))
        if answer.target is not None and answer.target != answer.attacker and "target" in answer.parties:
            read.append((state, dataclasses.replace(answer, parties=("attacker",))))
    return read


def others(answer: Odds) -> list[str]:
    """The pieces an answer touches that are no party to it, in its order."""
    concerned = {answer.attacker, *([answer.target] if "target" in answer.parties else [])}
    return [p.unit for p in answer.pieces if p.unit not in concerned]


def names(state: GameState) -> dict[str, str]:
    return {uid: u.label for uid, u in state.units.items()}


def _answering(rules: str) -> bool:
    return bool(get_ruleset(rules).ACTION_WORDS)


def _checked(rules: str) -> list[tuple[GameState, Odds]]:
    """A rule set's readings, the check able to fail: some answer touches a piece that
    is no party (with the target made none, any that touches its target)."""
    read = readings(rules)
    assert read, f"no question of {rules} answered"
    assert any(others(answer) for _, answer in read), f"no answer of {rules} touches a piece past its parties"
    return read


# --- the command line's "Other pieces" -------------------------------------------------------------


def printed(answer: Odds, named: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> str:
    """``tertia odds``' text of ``answer``."""
    console = Console(width=400, file=io.StringIO(), record=True, highlight=False, markup=False)
    monkeypatch.setattr(odds_commands, "out", console)
    odds_commands.print_odds(answer, named)
    return console.export_text()


def other_pieces(text: str) -> list[str]:
    """The pieces the "Other pieces" table names, in order (none when it is not printed)."""
    if "Other pieces" not in text:
        return []
    table = text.split("Other pieces", 1)[1].split("Units routed", 1)[0]
    rows = [line.split("│") for line in table.splitlines() if line.count("│") >= 2]
    return [cells[1].strip() for cells in rows if cells[1].strip()]


@pytest.mark.parametrize("rules", RULES)
def test_the_other_pieces_table_lists_exactly_the_pieces_that_are_no_party(
        rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if not _answering(rules):
        assert asked(rules) == ()
        return
    for state, answer in _checked(rules):
        named = names(state)
        text = printed(answer, named, monkeypatch)
        assert other_pieces(text) == [named[uid] for uid in others(answer)], (answer.parties, text)
        summary = text.split("Summary", 1)[1].split("Units routed", 1)[0].split("Other pieces", 1)[0]
        if "target" not in answer.parties and answer.target is not None:
            assert named[answer.target] not in summary, summary


# --- a question refused for its cost --------------------------------------------------------------


def proved(message: str) -> list[str]:
    """The clauses of what a refusal's walked branches prove, one a piece."""
    if "prove: " not in message:
        return []
    return message.split("prove: ", 1)[1].rsplit(" (", 1)[0].split("; ")


def refusal(game: Game, q: Question, budget: int, monkeypatch: pytest.MonkeyPatch,
            parties: tuple[OddsParty, ...] | None = None) -> str:
    """``q``'s refusal under ``budget`` (empty when it is answered), the rule set naming
    ``parties`` as the question's (its own when None)."""
    with monkeypatch.context() as patched:
        if parties is not None:
            patched.setattr(game.ruleset, "odds_parties", lambda action: parties)
        try:
            odds(game, q.ready, q.action, responses=q.responses, budget=budget)
        except TooManyBranches as refused:
            return str(refused)
    return ""


@pytest.mark.parametrize("rules", RULES)
def test_a_refused_questions_partial_results_name_its_parties_alone(
        rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a refusal's walked branches prove is told of each party to the question whose
    chances showed, and of no other piece: with one party alone named the question's,
    the clauses of that party stay as they were and the other's go."""
    if not _answering(rules):
        return
    game = _game(rules)
    found = dropped = 0
    for q in _questions(rules):
        labels = {"target": q.ready.units[q.target].label, "attacker": q.ready.units[q.unit].label}
        if labels["target"] == labels["attacker"]:
            continue  # each clause must be told apart by its piece's name
        for budget in BUDGETS:
            said = proved(refusal(game, q, budget, monkeypatch))
            if said:
                break
        if not said:
            continue
        parties = game.ruleset.odds_parties(q.action)
        assert all(any(c.startswith(labels[who]) for who in parties) for c in said), (parties, said)
        for only in ("target", "attacker"):
            kept = [c for c in said if c.startswith(labels[only])]
            assert proved(refusal(game, q, budget, monkeypatch, (only,))) == kept, (only, said)
            dropped += len(kept) < len(said)
        found += 1
        if found >= 3 and dropped:
            return
    assert found and dropped, f"no question of {rules} was refused with a party's chances shown"


def _morale_test(alone: bool) -> tuple[Game, GameState, Any, dict[str, str]]:
    """Charge yr Pikes!: a regiment's morale test (rating 3: it may rout, and its rout's
    tests are many) in front of an enemy regiment, or of none (``alone``: asked of the unit
    itself, as the page asks a test with no enemy named)."""
    from tests.test_cyp_odds import _facing
    from tests.test_cyp_odds import _game as cyp_game

    with with_plugins():
        game, state = cyp_game()
    assert isinstance(game.ruleset, ChargeYrPikes)
    state = _facing(state, 3.0)
    foot = state.units["p-foot"]
    state = state.with_unit(foot.evolve(own=unit_data(foot).evolve(morale=3, morale_max=3)))
    ready, question = game.ruleset.query(state, "morale", "p-foot", "p-foot" if alone else "k-foot")
    return game, ready, question, names(state)


@pytest.mark.parametrize("alone", [False, True], ids=["facing-an-enemy", "alone"])
def test_a_refused_morale_test_names_the_unit_tested_once_and_never_the_enemy(alone: bool) -> None:
    """A morale test is its unit's alone (``parties``): refused for its cost, what its
    walked branches prove is told of that unit once, whether an enemy is named (no party
    to it) or the unit is asked of itself (its own target, told once, not twice)."""
    game, ready, question, named = _morale_test(alone)
    assert game.ruleset.odds_parties(question) == ("attacker",)
    message = _refused(game, ready, question)
    said = proved(message)
    assert len(said) == 1 and said[0].startswith(named["p-foot"]), said
    assert message.count(named["p-foot"]) == 1, message
    assert named["k-foot"] not in message


def _refused(game: Game, ready: GameState, question: Any) -> str:
    """The first refusal of ``question`` under :data:`BUDGETS` that proves anything."""
    for budget in BUDGETS:
        try:
            odds(game, ready, question, budget=budget)
        except TooManyBranches as refused:
            if proved(str(refused)):
                return str(refused)
    raise AssertionError("the question was never refused with anything proved")


# --- the page's odds panel ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("odds-parties") / "games.sqlite3", None, "--ai-quantum", "0").start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium("the odds panel is not checked") as launched:
        yield launched


PANEL = """async ([answers, names]) => {
  const { OddsView } = await import('/static/js/odds.js');
  return answers.map((answer) => {
    const view = new OddsView((id) => names[id] || id);
    view.render(answer);
    const block = view.body.querySelector('[data-test=odds-pieces]');
    const listed = block ? [...block.querySelectorAll('li > b')].map((b) => b.textContent) : [];
    const rest = view.body.cloneNode(true);
    rest.querySelectorAll('[data-test=odds-pieces], [data-test=odds-outcomes], [data-test=outcomes]')
      .forEach((node) => node.remove());
    return { listed, rest: rest.textContent };
  });
}"""
"""Each answer drawn by the page's own odds view: the units its "Other units" block names,
and its text but for that block and the outcomes told in words."""


@pytest.mark.xdist_group("browser")
def test_the_pages_odds_panel_lists_exactly_the_pieces_that_are_no_party(server: Server, browser: Any,
                                                                        tmp_path: Path) -> None:
    """The page's odds view, drawing each answer (as given, and with its target made no
    party) of every rule set that answers questions, lists under "Other units" exactly
    the pieces touched that are no party; a target that is no party is named nowhere else
    (neither in the headline nor in the bars and chances that measure the parties)."""
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(server.url + "/static/index.html")
        checked = 0
        for rules in RULES:
            if not _answering(rules):
                continue
            read = _checked(rules)
            named = {uid: label for state, _ in read for uid, label in names(state).items()}
            drawn = pg.evaluate(PANEL, [[answer.to_dict() for _, answer in read], named])
            for (_, answer), shown in zip(read, drawn, strict=True):
                expected = [named[uid] for uid in others(answer)]
                assert shown["listed"] == expected, (rules, answer.parties, shown)
                assert not re.search(r"\bundefined\b|\bnull\b|\bNaN\b", shown["rest"]), (rules, shown["rest"])
                if "target" not in answer.parties and answer.target != answer.attacker:
                    target = named[answer.target or ""]
                    assert not re.search(re.escape(target), shown["rest"]), (rules, shown["rest"])
                checked += 1
        assert checked
        assert errors == [], errors
    finally:
        context.close()
