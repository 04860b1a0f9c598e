"""Refusals name sides as the battle names them, under every registered rule set.

The rules know a side by its id alone; the battle names it ("the King's Army"). Every
refusal a player reads (an illegal action, a piece of the other side, an action out of
turn, a decision still awaited) names a side by the scenario's name, in the engine's
answers, in the HTTP API's error bodies and at the command line (the narrative and
``--json``), and never by its id where a name belongs. Each rule set (the example
plugin's too) is fought on its own default battle with the sides renamed to names no id
could be turned into, so only the scenario could have given them.

A refusal names a piece, a command or a card the side refused can see as players call it
(a piece by its name, "Sir John Meldrum's command", "the centre card"), never by the
engine's id; an id the player typed that names nothing it can see (no piece, or a piece
hidden from it) is quoted as typed, and a piece hidden from the side refused reads as no
piece at all, word for word.

A new rule set is covered without editing this file.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import tertia.research.environment as research_env
from tertia.ai import players as registry
from tertia.ai.random_player import RandomPlayer
from tertia.battle import BattleAborted, fight_battle
from tertia.cli.main import app
from tertia.core.actions import Action, action_from_dict
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.hidden import place_hidden
from tertia.core.narration import default_side_name, without_aside
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.core.violations import Violation
from tertia.core.vocabulary import FieldKind
from tertia.io.record import parse_record, record_to_dict, replay, step_hash
from tertia.offers import command_name
from tertia.research.candidates import Candidates
from tertia.rulesets import get_ruleset
from tertia.scenarios.catalogue import default_scenario, load_named, shipped_files
from tests.plugin_rules import every_rule_set
from tests.web_support import bearer, serving_changed

NAMES = ("the King's Army (Charles I)", "the Eastern Association (Manchester)")
"""The sides' names in the battles fought here, first side first: neither holds a side's id."""

UNKNOWN = "nobody-here"
"""A piece no battle has."""

runner = CliRunner()



RULE_SETS = every_rule_set()


pytestmark = pytest.mark.usefixtures("plugins_registered")


def renamed(scenario: Scenario) -> Scenario:
    """``scenario`` with its sides given :data:`NAMES`."""
    sides = tuple(s.model_copy(update={"name": name}) for s, name in zip(scenario.sides, NAMES, strict=True))
    return scenario.model_copy(update={"sides": sides})


def battle(rules: str) -> Game:
    """The rule set's default battle, its sides renamed."""
    return Game(get_ruleset(rules), renamed(load_named(default_scenario(rules), rules_id=rules)))


# --- what a refusal may say of a side -------------------------------------------------------


def bare_sides(message: str, game: Game, state: GameState) -> list[str]:
    """The side ids (or ids in words: "Royalist"), in lower case, in ``message`` where the
    battle's name belongs: what is left once every side's name and every piece's name is
    taken out."""
    names = {*game.side_names.values(), *(without_aside(n) for n in game.side_names.values()),
             *(u.label for u in state.units.values())}
    text = message
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    found = []
    for side in state.sides:
        for word in sorted({side.lower(), default_side_name(side).lower()}):
            if re.search(rf"(?<![\w'-]){re.escape(word)}s?(?![\w-])", text, re.IGNORECASE):
                found.append(word)
    return found


def sides_named(message: str, game: Game) -> list[str]:
    """The sides ``message`` names by the battle's names."""
    return [side for side, name in game.side_names.items() if without_aside(name) in message]


def test_the_checks_catch_a_side_named_by_its_id() -> None:
    """The checks are able to fail: an id, or an id in words, is caught; a name is not."""
    game = battle(RULE_SETS[0])
    state = game.deployed()
    first, second = state.sides
    assert bare_sides(f"it is {first}'s turn", game, state) == [first]
    assert bare_sides(f"no unit of {default_side_name(second)}s", game, state) == [second.lower()]
    named = f"it is {game.side_names[first]}'s turn"
    assert bare_sides(named, game, state) == [] and sides_named(named, game) == [first]
    assert sides_named(f"it is {default_side_name(first)}'s turn", game) == []


# --- what a refusal may say of a piece, a command or a card ----------------------------------


def named_things(game: Game, state: GameState) -> tuple[dict[str, str], set[str]]:
    """What the side to act in ``state`` sees that players call by a name: each piece,
    command and card by its id, with its name; and those names, with the sides'."""
    seen = game.observed_state(state, state.to_act)
    things = {u.id: u.label for u in seen.units.values() if not place_hidden(u)}
    for command in sorted({u.command for u in seen.units.values() if u.command}):
        things.setdefault(command, command_name(game.ruleset, seen, command) or "")
    cards = game.ruleset.presentation().summary(seen).get("card_names") or {}
    things.update({card: name for card, name in cards.items() if card not in things})
    names = {*game.side_names.values(), *(without_aside(n) for n in game.side_names.values()),
             *(u.label for u in seen.units.values())}
    return things, {*names, *things.values()} - {""}


VERBS = ("has", "have", "is", "are", "already", "would", "may", "must", "cannot", "can't")
"""Verbs that, after a plain word opening a refusal, make the word what the refusal tells of."""


def bare_ids(message: str, game: Game, state: GameState) -> list[str]:
    """The ids of pieces, commands and cards the side to act in ``state`` sees that
    ``message`` quotes where their names belong: what is left once every name is taken
    out (a name the same as an id, "centre" for the centre card, is left in). An id with
    more than letters in it (``r-foot``, ``group:r-army:royalist``) is caught wherever it
    stands; one that is also a plain word (``left``, ``centre``) only where it stands for
    the thing: quoted, opening the message as what a verb there tells of, or closing a
    clause after "is"."""
    things, names = named_things(game, state)
    text = message
    for name in sorted(names - set(things), key=len, reverse=True):
        text = text.replace(name, " ")
    found = []
    for ident in things:
        word = re.escape(ident)
        if (re.search(rf"['\"]{word}['\"]", text)
                or (not ident.isalpha() and re.search(rf"(?<![\w-]){word}(?![\w-])", text))
                or re.search(rf"^{word} (?:{'|'.join(VERBS)})\b|\bis {word}(?=$|[,;:.)])", text)):
            found.append(ident)
    return found


def test_the_checks_catch_an_id_where_a_name_belongs() -> None:
    """The checks are able to fail: a piece's, a command's or a card's id is caught where
    its name belongs; its name is not, nor an id typed that names nothing."""
    game = battle(RULE_SETS[0])
    state = game.deployed()
    piece = next(state.iter_units(state.to_act))
    command = next(u.command for u in state.iter_units() if u.command)
    assert bare_ids(f"no piece {piece.id!r} of the army in play", game, state) == [piece.id]
    assert bare_ids(f"the units that may move: {piece.id}, another", game, state) == [piece.id]
    assert bare_ids(f"{command} already has a move order this turn", game, state) == [command]
    in_play = f"{piece.label} is not activated: the card in play is {command}"
    assert bare_ids(in_play, game, state) == [command]
    named = command_name(game.ruleset, state, command)
    assert named and bare_ids(f"{named} already has a move order this turn", game, state) == []
    assert bare_ids(f"{piece.label} is no longer in play", game, state) == []
    assert bare_ids(f"there is no unit {UNKNOWN!r}", game, state) == []


# --- the probes: refused actions --------------------------------------------------------------


def foes_in_sight(game: Game, state: GameState) -> list[str]:
    """The pieces of the side not to act that the side to act sees in play."""
    seen = game.observed_state(state, state.to_act)
    return [u.id for u in seen.iter_units(state.opponent(state.to_act)) if u.in_play]


def wrong_pieces(game: Game, action: Action, state: GameState) -> list[Action]:
    """``action`` made by a piece of the other side and by a piece no battle has, where
    its kind names the piece that acts."""
    kind = game.ruleset.action_kind(action.type)
    data = action.to_dict()
    if kind is None or not kind.subject or kind.subject not in data:
        return []
    made = []
    for piece in [*foes_in_sight(game, state)[:1], UNKNOWN]:
        try:
            made.append(action_from_dict({**data, kind.subject: piece}))
        except (KeyError, TypeError, ValueError):
            continue
    return made


def wrong_fields(game: Game, action: Action, state: GameState) -> list[Action]:
    """``action`` with each field naming a piece or a command given one the side to act
    sees but may not name there: a piece of the other side for one of its own (an own piece
    that is no commander for a commander), one of its own for an enemy, a command of the
    other side's for one of its own."""
    kind = game.ruleset.action_kind(action.type)
    if kind is None:
        return []
    side = state.to_act
    seen = game.observed_state(state, side)
    foes = foes_in_sight(game, state)[:1]
    own = list(seen.iter_units(side))
    own_commands = {u.command for u in own}
    foe_commands = sorted({u.command for u in seen.iter_units(seen.opponent(side), include_removed=True)
                           if u.command and not place_hidden(u)}, key=lambda c: (c in own_commands, c))
    wrong: dict[FieldKind, list[Any]] = {
        FieldKind.OWN_UNIT: foes,
        FieldKind.OWN_COMMANDER: [*foes, *(u.id for u in own if not u.is_commander)][:2],
        FieldKind.ENEMY_UNIT: [u.id for u in own][:1],
        FieldKind.OWN_UNITS: [[f] for f in foes],
        FieldKind.COMMAND: foe_commands[:1],
    }
    data = action.to_dict()
    made = []
    for spec in kind.fields:
        for value in wrong.get(spec.kind, ()):
            try:
                made.append(action_from_dict({**data, spec.name: value}))
            except (KeyError, TypeError, ValueError):
                continue
    return made


def probes(game: Game, state: GameState, earlier: list[Action], rng: random.Random) -> list[Action]:
    """Actions to refuse in ``state``: the random player's proposals each made by a piece
    of the other side and by an unknown one, the first of each kind with a piece or a
    command it may not name (:func:`wrong_fields`), the proposals themselves, and the last
    actions taken (by either side, some of them now out of turn or before a decision
    awaited)."""
    proposed = [a for _, a in zip(range(20), RandomPlayer().iter_proposals(game, state, rng), strict=False)]
    first_of_kind = list({a.type: a for a in reversed(proposed)}.values())
    return [*(w for a in proposed for w in wrong_pieces(game, a, state)),
            *(w for a in first_of_kind for w in wrong_fields(game, a, state)), *proposed, *earlier[-4:]]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_refusal_names_sides_as_the_battle_does(rules: str) -> None:
    """A battle played a while by the random player, and at each position actions of the
    wrong side, of an unknown piece, naming a piece or a command the side may not name
    there, and out of turn refused: no refusal names a side, or a piece, command or card
    the side sees, by its id, and those naming a side (at least the other side's piece
    refused) name it as the battle does."""
    game = battle(rules)
    dice, rng, player = SeededDice(3), random.Random(3), RandomPlayer()
    state, _ = game.start(dice)
    earlier: list[Action] = []
    naming: list[str] = []
    for _ in range(40):
        if state.is_over:
            break
        for action in probes(game, state, earlier, rng):
            for refusal in game.validate(state, action):
                assert not bare_sides(refusal.message, game, state), (action, refusal.message)
                assert not bare_ids(refusal.message, game, state), (action, refusal.message)
                assert "\x02" not in refusal.message and "\x02" not in str(refusal)
                if sides_named(refusal.message, game):
                    naming.append(refusal.message)
        chosen = player.choose(game, state, rng)
        earlier.append(chosen)
        state, _ = game.apply(state, chosen, dice)
    assert naming, f"no refusal under {rules} named a side"


def hidden_foes(game: Game, state: GameState) -> list[str]:
    """The pieces of the side not to act hidden from the side to act (in its view with no
    place on the table)."""
    seen = game.observed_state(state, state.to_act)
    return [u.id for u in seen.units.values() if u.side != state.to_act and place_hidden(u)]


def refused_as(game: Game, state: GameState, action: Action, piece: str) -> list[tuple[str, str]]:
    """``action`` refused with each field naming a piece given ``piece``: code and message."""
    kind = game.ruleset.action_kind(action.type)
    assert kind is not None
    data = action.to_dict()
    for spec in kind.fields:
        if spec.kind in (FieldKind.OWN_UNIT, FieldKind.OWN_COMMANDER, FieldKind.ENEMY_UNIT):
            data[spec.name] = piece
    return [(v.code, v.message) for v in game.validate(state, action_from_dict(data))]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_piece_hidden_from_a_side_is_refused_it_as_no_piece(rules: str) -> None:
    """Where the side to act cannot see a piece of the other side's, an action naming it
    (to act with, or to aim at) is refused in the words, and with the code, an action
    naming no piece at all is: nothing in a refusal tells that the piece is there. Where a
    battle of the rule set, played a while, never hides a piece, there is nothing to tell."""
    game = battle(rules)
    dice, rng, player = SeededDice(3), random.Random(3), RandomPlayer()
    state, _ = game.start(dice)
    asked, hid = 0, False
    for _ in range(40):
        if state.is_over:
            break
        secret = hidden_foes(game, state)
        hid = hid or bool(secret)
        proposed = [a for _, a in zip(range(20), player.iter_proposals(game, state, rng), strict=False)]
        for action in list({a.type: a for a in proposed}.values()) if secret else ():
            kind = game.ruleset.action_kind(action.type)
            if kind is None or not any(f.kind in (FieldKind.OWN_UNIT, FieldKind.OWN_COMMANDER,
                                                  FieldKind.ENEMY_UNIT) for f in kind.fields):
                continue
            for piece in secret[:3]:
                hidden = refused_as(game, state, action, piece)
                unknown = refused_as(game, state, action, UNKNOWN)
                assert hidden, (action, piece)
                as_unknown = [(code, m.replace(repr(piece), repr(UNKNOWN))) for code, m in hidden]
                assert as_unknown == unknown, (action, piece)
                asked += 1
        state, _ = game.apply(state, player.choose(game, state, rng), dice)
    assert asked or not hid, f"{rules} hid pieces, but no action naming one was asked"


def test_a_refusal_the_rules_raise_themselves_is_named_by_the_game() -> None:
    """A refusal raised outside validation (an odds question's) keeps its mentions of
    sides until the game names them; a refusal with none is left as it is."""
    from tertia.core.violations import side_named, side_whose

    game = battle(RULE_SETS[0])
    first, second = game.deployed().sides
    raised = Violation("core.PENDING_DECISION", f"{side_named(first)} must first decide", "rule")
    assert raised.message == f"{default_side_name(first)} must first decide"
    [named] = game.named([raised])
    assert named.message == f"{NAMES[0]} must first decide" and named.to_dict()["message"] == named.message
    plain = Violation("core.GAME_OVER", "the battle is over", "rule")
    assert game.named([plain]) == [plain]
    whose = Violation("x", f"it is {side_whose(second)} turn", "")
    assert game.named([whose])[0].message == "it is the Eastern Association's turn"


# --- the research API and the record check -------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS)
def test_the_research_api_names_the_side_left_with_no_candidate(rules: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A battle the research environment cuts short because the side to act is offered
    nothing says so naming the side as the battle does."""
    def none_offered(game: Game, state: GameState, side: str, seed: int, limit: int) -> Candidates:
        return Candidates(side, state.step, state, ())

    monkeypatch.setattr(research_env, "candidates_for", none_offered)
    game = battle(rules)
    env = research_env.TertiaEnv(rules, game.scenario)
    env.reset(seed=3)
    state = env.game_state
    reasons = {info["reason"] for info in env.infos.values()}
    assert all(env.truncations.values()) and len(reasons) == 1, env.infos
    [reason] = reasons
    assert sides_named(reason, game) == [state.to_act] and not bare_sides(reason, game, state), reason


@pytest.mark.parametrize("rules", RULE_SETS)
def test_the_record_check_names_sides_when_a_step_is_recorded_for_the_wrong_one(rules: str) -> None:
    """A record whose step is written down for the side not to act (its hashes made to
    follow, as an editor could) is refused naming both sides as the battle does."""
    game = battle(rules)
    players = {side: RandomPlayer() for side in game.scenario.side_ids}
    try:
        record = fight_battle(game, players, 3, max_actions=6)
    except BattleAborted as stopped:
        assert stopped.unfinished is not None
        record = stopped.unfinished
    data = record_to_dict(record)
    step = data["steps"][-1]
    step["side"] = next(side for side in game.scenario.side_ids if side != step["side"])
    chained = data["start"]["hash"]
    for entry in data["steps"]:
        chained = entry["hash"] = step_hash(chained, entry["side"], entry["action"], entry["events"])
    result = replay(parse_record(data))
    assert not result.ok and "recorded for" in result.message, result.message
    told = result.message.split(": ", 1)[1]
    assert names_both_sides(told, game) and result.final_state is not None
    assert not bare_sides(told, game, result.final_state), told


def names_both_sides(message: str, game: Game) -> bool:
    """Does ``message`` name both sides as the battle does?"""
    return sorted(sides_named(message, game)) == sorted(game.scenario.side_ids)


# --- the HTTP API -----------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The server, every battle it builds with its sides renamed."""
    with serving_changed(tmp_path, monkeypatch, renamed) as served:
        yield served


def _checked(body: dict[str, Any], game: Game, state: GameState) -> list[str]:
    """Every message of an error body (or a validation's answer), checked for bare side
    ids; those naming a side."""
    messages = [body["message"]] if "message" in body else []
    messages += [v["message"] for v in body.get("violations", ())]
    for message in messages:
        assert not bare_sides(message, game, state), (message, body)
    return [m for m in messages if sides_named(m, game)]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_the_api_names_sides_in_its_refusals(client: TestClient, rules: str) -> None:
    """Out of turn, the other side's player is told whose move it is by name; an action of
    the wrong side's piece or an unknown one is refused, by ``validate`` and by ``actions``,
    in words naming sides as the battle does. Played on (by the random player, through the
    API) until some refusal of the rules names a side."""
    created = client.post("/api/games", json={"scenario": default_scenario(rules), "rules": rules,
                                              "mode": "hotseat", "seed": 3}).json()
    gid, tokens = created["id"], created["tokens"]
    live = client.app.state.service.live(gid)  # type: ignore[attr-defined]
    game, rng = live.game, random.Random(3)
    assert game.side_names == dict(zip(game.scenario.side_ids, NAMES, strict=True))
    naming: list[str] = []
    for _ in range(30):
        state = live.state
        if state.is_over:
            break
        side = state.to_act
        late = client.post(f"/api/games/{gid}/actions", json={"type": "end_phase"},
                           headers=bearer(tokens[state.opponent(side)]))
        assert late.status_code == 403 and late.json()["code"] == "NOT_YOUR_TURN", late.text
        assert sides_named(late.json()["message"], game) == [side], late.text
        _checked(late.json(), game, state)
        for action in probes(game, state, [], rng)[:12]:
            answer = client.post(f"/api/games/{gid}/validate", json=action.to_dict(),
                                 headers=bearer(tokens[side]))
            assert answer.status_code == 200, answer.text
            naming += _checked(answer.json(), game, state)
            if not answer.json()["legal"]:
                refused = client.post(f"/api/games/{gid}/actions", json=action.to_dict(),
                                      headers=bearer(tokens[side]))
                assert refused.status_code == 409, refused.text
                naming += _checked(refused.json(), game, state)
        if naming:
            break
        chosen = RandomPlayer().choose(game, state, rng)
        done = client.post(f"/api/games/{gid}/actions", json=chosen.to_dict(), headers=bearer(tokens[side]))
        assert done.status_code == 200, done.text
    assert naming, f"no refusal under {rules} named a side"


# --- the command line -------------------------------------------------------------------------


class _Blunderer(RandomPlayer):
    """A player that, once it may, acts with a piece of the other side."""

    name = "blunderer"

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        chosen = super().choose(game, state, rng)
        wrong = wrong_pieces(game, chosen, state)
        return wrong[0] if wrong and wrong[0].to_dict() != chosen.to_dict() else chosen


def scenario_text(name: str) -> str:
    """The TOML of the scenario ``name``, built in or shipped by a rule set."""
    shipped = shipped_files()
    if name in shipped:
        return shipped[name][1].read_text(encoding="utf-8")
    return (files("tertia.scenarios") / f"{name}.toml").read_text(encoding="utf-8")


def renamed_text(text: str, sides: tuple[str, ...]) -> str:
    """A scenario's TOML with its sides (``sides``, in order) given :data:`NAMES`."""
    out: list[str] = []
    in_sides = False
    for line in text.splitlines():
        if line.startswith("["):
            in_sides = line.strip() == "[[sides]]"
        if in_sides and re.match(r"\s*name\s*=", line):
            continue
        out.append(line)
        found = re.match(r'\s*id\s*=\s*"([^"]+)"', line)
        if in_sides and found:
            out.append(f'name = "{NAMES[sides.index(found.group(1))]}"')
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("as_json", [False, True], ids=["narrative", "json"])
def test_the_command_line_names_sides_when_a_player_acts_out_of_place(
        rules: str, as_json: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tertia battle`` with a player that acts with the other side's piece stops in one
    line naming the player's side and the refusal, each side as the battle names it."""
    monkeypatch.setitem(registry._REGISTRY, "blunderer",
                        registry.PlayerEntry("blunderer", "acts with the enemy's pieces", _Blunderer))
    game = battle(rules)
    file = tmp_path / "renamed.toml"
    text = renamed_text(scenario_text(default_scenario(rules)), game.scenario.side_ids)
    file.write_text(text, encoding="utf-8")
    side = game.scenario.side_ids[0]
    result = runner.invoke(app, ["battle", "--scenario", str(file), "--rules", rules, "--seed", "3",
                                 "--player", f"{side}=blunderer", *(["--json"] if as_json else [])])
    output = " ".join(result.output.split())
    assert result.exit_code == 2, result.output
    assert f"blunderer, playing {NAMES[0]}, chose an illegal action: " in output, output
    refusal = output.split("chose an illegal action: ", 1)[1]
    assert not bare_sides(refusal, game, game.deployed()), refusal
    assert sides_named(refusal, game), refusal
