"""What each rule set declares for front ends (``ACTION_KINDS``, ``DECISION_KINDS``,
``PANELS``, ``AI``) agrees with what its ``validate`` accepts and its games play: every
action type it recognises is declared and nothing else is, each declared kind's fields are
its action's, and every action of seeded games fits the kind it is declared as."""

from __future__ import annotations

import random
from dataclasses import MISSING, fields
from typing import Any

import pytest

from tertia.ai.doctrine import DoctrinePlayer
from tertia.ai.lookup import NoAi, doctrine_for, proposer_for, resolve
from tertia.ai.player import Player
from tertia.ai.random_player import RandomPlayer
from tertia.battle import fight_battle
from tertia.core.actions import ACTION_TYPES, Action, EndPhase
from tertia.core.ai_spec import AiSpec
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.ruleset import RuleSet
from tertia.core.state import GameState
from tertia.core.violations import CoreCode
from tertia.core.vocabulary import (
    ActionKind,
    DecisionKind,
    FieldKind,
    FieldSpec,
    Interaction,
    PanelKind,
    vocabulary_problems,
)
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios import list_builtin, load_builtin

GAMES = {"larger-battles": "skirmish", "d3-commands": "edgehill", "d3-cards": "chalgrove",
         "declare-thee-sir": "edgehill", "charge-yr-pikes": "naseby"}


def game_of(rules: str, **options: Any) -> Game:
    return Game(get_ruleset(rules, **options), load_builtin(GAMES[rules], rules_id=rules))


def minimal(cls: type[Action]) -> Action:
    """An action of ``cls`` with its required fields filled with placeholders."""
    filler = {"str": "nobody", "float": 0.0, "int": 0, "bool": False}
    values = {f.name: filler[str(f.type).split(" ")[0]] for f in fields(cls)
              if f.default is MISSING and f.default_factory is MISSING}
    return cls(**values)


def in_open_play(game: Game) -> GameState:
    """A position of ordinary play: the side to act free to act, nothing pending."""
    dice = SeededDice(3)
    state, _ = game.start(dice)
    player, rng = RandomPlayer(), random.Random(3)
    for _ in range(200):
        if state.pending is None and state.phase not in ("setup", "deployment"):
            return state
        state, _ = game.apply(state, player.choose(game, state, rng), dice)
    raise AssertionError("the game never left its set-up")


def recognised(game: Game, state: GameState) -> set[str]:
    """Every registered action type the rule set's ``validate`` recognises (its refusal,
    if any, is not "unknown action")."""
    found = set()
    for name, cls in ACTION_TYPES.items():
        if cls is Action:
            continue
        codes = {v.code for v in game.validate(state, minimal(cls))}
        if CoreCode.UNKNOWN_ACTION not in codes:
            found.add(name)
    return found


@pytest.mark.parametrize("rules", ruleset_ids())
def test_every_action_validate_recognises_is_declared_and_nothing_else(rules: str) -> None:
    game = game_of(rules)
    declared = {k.type for k in game.ruleset.ACTION_KINDS}
    assert declared == recognised(game, in_open_play(game))


def test_the_recognition_check_can_fail() -> None:
    """A rule set that leaves out its rally is caught: d3-cards recognises ``rally``."""
    game = game_of("d3-cards")
    found = recognised(game, in_open_play(game))
    assert "rally" in found and "give_order" not in found
    short = {k.type for k in game.ruleset.ACTION_KINDS if k.type != "rally"}
    assert short != found


@pytest.mark.parametrize("rules", ruleset_ids())
def test_declarations_agree_with_each_other_and_with_the_actions(rules: str) -> None:
    ruleset = get_ruleset(rules)
    assert vocabulary_problems(ruleset.ACTION_KINDS, ruleset.DECISION_KINDS, ruleset.PANELS) == []
    for kind in ruleset.ACTION_KINDS:
        cls = ACTION_TYPES[kind.type]
        names = {f.name for f in fields(cls)}
        required = {f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING}
        declared = {f.name for f in kind.fields}
        assert required <= declared <= names, kind.type
        assert not any(f.optional and f.name in required for f in kind.fields), kind.type
        assert kind.rule.startswith(f"{ruleset.named()}"), kind.rule
        assert kind.label and kind.phrase
    for decision in ruleset.DECISION_KINDS:
        answer = ruleset.action_kind(decision.answer)
        assert answer is not None and answer.decision == decision.kind
    assert ruleset.vocabulary()["actions"][0]["type"] == ruleset.ACTION_KINDS[0].type


def test_what_each_rule_set_declares() -> None:
    lb, commands, cards = (get_ruleset(r) for r in ("larger-battles", "d3-commands", "d3-cards"))
    rally = cards.action_kind("rally")
    assert rally is not None and rally.dice_driven and rally.interaction is Interaction.AIM
    assert [p.name for p in cards.PANELS] == ["deck"]
    assert {p.name for p in commands.PANELS} == {"command-cards", "deployment"}
    assert {p.name for p in lb.PANELS} == {"orders", "attack-plan"}
    no_odds = {r.id: {k.type for k in r.ACTION_KINDS if not k.odds} for r in (lb, commands, cards)}
    assert no_odds == {"larger-battles": set(), "d3-commands": {"order_cards", "deploy"}, "d3-cards": set()}
    decision = commands.decision_kind("order_cards")
    assert decision is not None and decision.panel == "command-cards"
    assert lb.decision_kind("encourage") is not None and cards.DECISION_KINDS == ()


def _fits(ruleset: RuleSet, state: GameState, action: Action) -> None:
    kind = ruleset.action_kind(action.type)
    assert kind is not None, f"{ruleset.id} played an undeclared {action.type}"
    pending = None if state.pending is None else str(state.pending["kind"])
    assert kind.fits(state.phase, pending), f"{action.type} in {state.phase} ({pending})"


class Fitting:
    """Wraps a player: every action it takes must be of a declared kind that fits."""

    def __init__(self, inner: Player, seen: set[str]) -> None:
        self.inner = inner
        self.name = inner.name
        self.seen = seen

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        action = self.inner.choose(game, state, rng)
        _fits(game.ruleset, state, action)
        self.seen.add(action.type)
        return action


@pytest.mark.parametrize(("rules", "options"), [
    ("larger-battles", {}), ("d3-commands", {}), ("d3-commands", {"deployment": "procedure"}),
    ("d3-cards", {}),
])
@pytest.mark.parametrize("kind", ["doctrine", "random"])
def test_every_action_of_seeded_games_has_a_declared_kind_that_fits(
    rules: str, options: dict[str, Any], kind: str
) -> None:
    """Every action the players take is of a declared kind, in a phase (or answering a
    decision) its kind says; the doctrine uses every kind declared (so none is
    declared for nothing)."""
    game = game_of(rules, **options)
    seen: set[str] = set()
    make = DoctrinePlayer if kind == "doctrine" else RandomPlayer
    for seed in (1, 2):
        players: dict[str, Player] = {side: Fitting(make(), seen) for side in game.scenario.side_ids}
        fight_battle(game, players, seed)
    if kind == "doctrine":  # the doctrine uses every kind there is a use for
        expected = {k.type for k in game.ruleset.ACTION_KINDS}
        if rules == "d3-commands" and not options:
            expected -= {"deploy"}  # the scenario sets the deployment
        assert seen == expected
    else:
        assert {"move", "end_phase"} <= seen, seen


def test_the_fitting_check_can_fail() -> None:
    game = game_of("larger-battles")
    state, _ = game.start(SeededDice(1))
    with pytest.raises(AssertionError, match="bombard in movement"):
        _fits(game.ruleset, state, minimal(ACTION_TYPES["bombard"]))
    with pytest.raises(AssertionError, match="undeclared rally"):
        _fits(game.ruleset, state, minimal(ACTION_TYPES["rally"]))
    _fits(game.ruleset, state, EndPhase())


# --- the declarations themselves --------------------------------------------------------


def test_a_phrase_reads_pieces_by_name() -> None:
    game = game_of("d3-cards")
    state, _ = game.start(SeededDice(1))
    rally = game.ruleset.action_kind("rally")
    assert rally is not None
    commander = next(u for u in state.iter_units() if u.is_commander)
    friend = next(u for u in state.iter_troops(commander.side))
    names = {u.id: u.label for u in state.iter_units()}
    words = rally.describe({"commander": commander.id, "unit": friend.id}, names.get)
    assert words == f"{commander.label} rallies {friend.label}"
    end = game.ruleset.action_kind("end_phase")
    assert end is not None
    ended = end.describe({}, names.get, {"card_in_play": "left flank"})
    assert ended == "End the left flank card's activation"
    assert end.describe({}, names.get) == "End the activation"  # no card named: the label


@pytest.mark.parametrize("rules", ruleset_ids())
def test_every_phrase_reads_each_choice_and_flag_in_words(rules: str) -> None:
    """A button's words never show a value as the engine holds it: a flag as True or
    False, a choice with its underscores ("Okey's Dragoons: mounted True", "forms mount")."""
    for kind in get_ruleset(rules).ACTION_KINDS:
        valued = [f for f in kind.fields if f.kind in (FieldKind.CHOICE, FieldKind.FLAG)]
        for f in valued:
            for value in (f.choices if f.kind is FieldKind.CHOICE else (True, False)):
                values = {g.name: "u" for g in kind.fields if g.kind is not FieldKind.POINTS}
                values[f.name] = value
                words = kind.describe(values, {"u": "Okey's Dragoons"}.get)
                assert not any(w in words.split() for w in ("True", "False", "None")), (kind.type, words)
                assert "_" not in words, (kind.type, words)


def test_a_flag_reads_by_its_labels() -> None:
    mount = get_ruleset("charge-yr-pikes").action_kind("cyp_mount")
    assert mount is not None
    names = {"d": "Okey's Dragoons"}.get
    assert mount.describe({"unit": "d", "mounted": True}, names) == "Okey's Dragoons mounts"
    assert mount.describe({"unit": "d", "mounted": False}, names) == "Okey's Dragoons dismounts"
    change = get_ruleset("declare-thee-sir").action_kind("dts_change_formation")
    assert change is not None
    assert change.describe({"unit": "d", "formation": "mount"}, names) == "Okey's Dragoons mounts"
    marching = change.describe({"unit": "d", "formation": "long_march"}, names)
    assert marching == "Okey's Dragoons forms long march"


def test_a_decision_prompt_fills_in_its_context() -> None:
    lb = get_ruleset("larger-battles")
    decision = lb.decision_kind("encourage")
    assert decision is not None
    pending = {"kind": "encourage", "attack": {"attacker": "a", "target": "t"}, "eligible": []}
    names = {"a": "Lunsford's Foot", "t": "Holles's Foot"}.get
    assert decision.ask(pending, names).startswith("Lunsford's Foot attacks Holles's Foot.")
    assert decision.ask({"kind": "encourage"}, names) == decision.label


@pytest.mark.parametrize(("make", "message"), [
    (lambda: FieldSpec("Unit", "Unit", FieldKind.OWN_UNIT), "identifier"),
    (lambda: FieldSpec("purpose", "To", FieldKind.CHOICE), "choices"),
    (lambda: FieldSpec("attacks", "Attacks", FieldKind.ACTIONS), "item type"),
    (lambda: FieldSpec("unit", "Unit", FieldKind.OWN_UNIT, flag_labels=("on", "off")), "flag's two labels"),
    (lambda: FieldSpec("on", "On", FieldKind.FLAG, flag_labels=("on",)), "flag's two labels"),
    (lambda: ActionKind("fly", "Fly", "Fly", "r", (), subject="unit"), "not one of its fields"),
    (lambda: ActionKind("fly", "Fly", "Fly", "r", dice_driven=True, odds=False), "must allow odds"),
    (lambda: PanelKind("Score Board", "Score", ""), "panel name"),
    (lambda: AiSpec(proposer="tertia.ai", doctrine="x:y"), "module:attribute"),
    (lambda: DecisionKind("ask", "Ask", "?", "reply", "r", time_limit=30), "runs out"),
    (lambda: DecisionKind("ask", "Ask", "?", "reply", "r", on_time_out=(("option", "no"),)), "runs out"),
    (lambda: DecisionKind("ask", "Ask", "?", "reply", "r", time_limit=0, on_time_out=(("a", "b"),)),
     "above 0"),
])
def test_a_bad_declaration_is_refused_in_one_line(make: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()


def test_disagreeing_declarations_are_named() -> None:
    move = ActionKind("move", "Move", "Move", "r")
    problems = vocabulary_problems(
        [move, move, ActionKind("answer", "A", "A", "r", decision="nothing")],
        [DecisionKind("ask", "Ask", "?", "reply", "r", panel="deck")],
        [PanelKind("orders", "Orders", "", "give_order")])
    assert problems == [
        "action type 'move' declared twice",
        "decision 'ask' is answered by 'reply', which is not declared",
        "decision 'ask' is shown in panel 'deck', which is not declared",
        "action 'answer' answers 'nothing', which is not declared",
        "panel 'orders' makes 'give_order', which is not declared",
    ]


def test_a_time_limit_runs_out_into_an_answer_the_answering_kind_can_give() -> None:
    """A decision timed in real time names what the rules answer when time runs out: a
    field of its answer, and one of that field's choices."""
    reply = ActionKind("reply", "Reply", "Reply", "r",
                       (FieldSpec("option", "Option", FieldKind.CHOICE, choices=("yes", "no")),))

    def timed(*values: tuple[str, str]) -> DecisionKind:
        return DecisionKind("ask", "Ask", "?", "reply", "r", time_limit=30, on_time_out=values)

    assert vocabulary_problems([reply], [timed(("option", "no"))], []) == []
    assert timed(("option", "no")).to_dict()["on_time_out"] == {"option": "no"}
    assert timed(("option", "no")).to_dict()["time_limit"] == 30
    assert vocabulary_problems([reply], [timed(("option", "maybe"))], []) == [
        "decision 'ask' times out with option 'maybe', which is not one of its choices"]
    assert vocabulary_problems([reply], [timed(("how", "no"))], []) == [
        "decision 'ask' times out with field 'how', which 'reply' does not have"]


# --- computer players through the rule set ------------------------------------------------


@pytest.mark.parametrize("rules", ruleset_ids())
def test_each_rule_set_names_players_that_exist(rules: str) -> None:
    ruleset = get_ruleset(rules)
    assert callable(proposer_for(ruleset)) and callable(doctrine_for(ruleset))
    assert doctrine_for(ruleset)().name == "doctrine"


def test_a_rule_set_without_players_is_refused_in_one_line() -> None:
    ruleset = get_ruleset("d3-cards")

    class Bare(type(ruleset)):  # type: ignore[misc]
        id = "bare"
        AI = None

    with pytest.raises(NoAi, match="bare declares no computer players"):
        doctrine_for(Bare())
    with pytest.raises(NoAi, match="no callable 'nothing'"):
        resolve("tertia.ai.doctrine:nothing")
    with pytest.raises(NoAi, match="cannot import"):
        resolve("tertia.no_such_module:x")


def test_every_built_in_scenario_suits_a_rule_set_with_a_vocabulary() -> None:
    for scenario in list_builtin():
        for rules in scenario.rules:
            assert get_ruleset(rules).ACTION_KINDS, rules
