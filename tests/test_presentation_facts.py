"""What each rule set's pieces show (:mod:`tertia.core.presentation`), checked alike for
every registered rule set: only facts it declares, in the order it declares them; a
``hidden`` fact only to the piece's own side (and a referee); a secret value told to the
enemy only as "not yet shown"."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from tertia.ai.random_player import RandomPlayer
from tertia.battle import BattleAborted, fight_battle
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.hidden import is_hidden
from tertia.core.presentation import Fact, FactKind, FactSpec, PieceCard
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset, registered, ruleset_ids
from tertia.rulesets.charge_yr_pikes import secret_grades
from tertia.rulesets.charge_yr_pikes.concealment import DeploymentDone
from tertia.rulesets.charge_yr_pikes.reports import NOT_SHOWN
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.values import unit_data
from tertia.scenarios import resolve_scenario
from tertia.scenarios.catalogue import default_scenario, load_named
from tests.example_rules.data import RULES_ID, game_data
from tests.example_rules.ruleset import SCENARIO, ExampleDeclare
from tests.support import P, R, make_game, unit

ACTIONS = 60
"""How far into a battle each rule set is played (random players) for positions to look at."""


def _positions(game: Game, seed: int = 1, every: int = 6) -> list[GameState]:
    """The start of a battle and every ``every``-th position of its first actions."""
    states: list[GameState] = []
    players = {side: RandomPlayer() for side in game.scenario.side_ids}
    # Not over within ACTIONS actions (BattleAborted): the positions so far are enough.
    with contextlib.suppress(BattleAborted):
        fight_battle(game, players, seed, max_actions=ACTIONS, on_step=lambda step: states.append(step.state))
    return [game.start(SeededDice(seed))[0], *states[::every]]


def _placed(state: GameState) -> Iterator[str]:
    """The pieces a view holds with a place: those front ends show (an enemy piece hidden
    from the side has none)."""
    return (uid for uid, u in state.units.items() if not is_hidden(u.extra.get("position")))


def _check_card(game: Game, card: PieceCard, viewer: str | None) -> None:
    shows = game.ruleset.presentation()
    declared = [spec.key for spec in shows.FACTS]
    keys = [fact.key for fact, _ in card.facts]
    assert set(keys) <= set(declared), f"{card.id} shows undeclared facts {set(keys) - set(declared)}"
    assert len(keys) == len(set(keys)), f"{card.id} shows a fact twice: {keys}"
    assert keys == sorted(keys, key=declared.index), f"{card.id}'s facts are not in declared order"
    for fact, spec in card.facts:
        assert spec == shows.spec(fact.key)
        assert not is_hidden(fact.value)
        if spec.kind is FactKind.HIDDEN:
            assert viewer in (None, card.side), f"{viewer} is shown {card.side}'s hidden {fact.key}"
    assert [f["key"] for f in card.to_dict()["facts"]] == [f.key for f, _ in card.facts if f.shown()]


@pytest.mark.parametrize("rules", ruleset_ids())
def test_every_fact_a_piece_shows_is_declared_and_hidden_ones_only_to_its_side(rules: str) -> None:
    """Played a little under each registered rule set (a rule set added later is checked
    too): each piece as a referee and as each side sees it, worked out from that side's
    observation."""
    game = Game(get_ruleset(rules), load_named(default_scenario(rules), rules_id=rules))
    shows = game.ruleset.presentation()
    declared = [spec.key for spec in shows.FACTS]
    assert len(declared) == len(set(declared)), f"{rules} declares a fact twice"
    assert [d["key"] for d in shows.describe()] == declared
    shown: set[str] = set()
    for state in _positions(game):
        for viewer in (None, *state.sides):
            seen = state if viewer is None else game.observed_state(state, viewer)
            for uid in _placed(seen):
                card = shows.piece(game.table, seen, uid, viewer)
                _check_card(game, card, viewer)
                shown |= {f.key for f, _ in card.facts}
    assert shown, f"no piece under {rules} shows anything"


@pytest.fixture
def example() -> Iterator[Game]:
    with registered(ExampleDeclare):
        yield Game(ExampleDeclare(), resolve_scenario(SCENARIO, rules_id=RULES_ID))


def test_the_example_rule_sets_pieces_show_only_declared_facts(example: Game) -> None:
    shows = example.ruleset.presentation()
    for state in _positions(example):
        for viewer in (None, *state.sides):
            seen = state if viewer is None else example.observed_state(state, viewer)
            for uid in _placed(seen):
                _check_card(example, shows.piece(example.table, seen, uid, viewer), viewer)


def test_a_hidden_fact_is_shown_to_its_own_side_and_a_referee_never_to_the_enemy(example: Game) -> None:
    """The example's free-move choice (``ex_chosen``, a hidden fact): its own side and a
    referee see it on the piece; the enemy's card has no such fact, whether worked out
    from the whole position or from its own view."""
    state = example.ruleset.initial_state(example.scenario)
    uid = next(u.id for u in state.iter_troops())
    side = state.units[uid].side
    enemy = state.opponent(side)
    chosen = state.evolve(own=game_data(state).evolve(free_move=((side, uid),)))
    shows = example.ruleset.presentation()
    for viewer in (None, side):
        fact = shows.piece(example.table, chosen, uid, viewer).fact("ex_chosen")
        assert fact is not None and fact.value is True
        assert example.piece(chosen, uid, viewer).fact("ex_chosen") == fact
    assert "ex_chosen" in {f["key"] for f in example.piece(chosen, uid, side).to_dict()["facts"]}
    for card in (shows.piece(example.table, chosen, uid, enemy), example.piece(chosen, uid, enemy)):
        assert card.fact("ex_chosen") is None
        assert "ex_chosen" not in {f["key"] for f in card.to_dict()["facts"]}
        assert card.fact("ex_stands") is not None  # the rest of the card is there


def test_a_piece_deployed_in_secret_is_marked_unseen_only_for_its_own_side() -> None:
    """Charge yr Pikes! secret deployment (Set-up D): a piece not yet placed shows its own
    side "Hidden from the enemy" (``unseen``, a hidden fact); the enemy's card of it has no
    such fact; once placed, its own side's card has none either."""
    game = Game(ChargeYrPikes(secret_deployment=True), load_named("edgehill", rules_id="charge-yr-pikes"))
    state, _ = game.start(SeededDice(1))
    shows = game.ruleset.presentation()
    unplaced = [u for u in state.units.values() if not unit_data(u).placed]
    assert {u.side for u in unplaced} == set(state.sides)
    for u in unplaced:
        enemy = state.opponent(u.side)
        for viewer in (None, u.side):
            unseen = shows.piece(game.table, state, u.id, viewer).fact("unseen")
            assert unseen is not None and unseen.value is True
        assert "unseen" in {f["key"] for f in game.piece(state, u.id, u.side).to_dict()["facts"]}
        theirs = shows.piece(game.table, state, u.id, enemy)
        assert theirs.fact("unseen") is None and theirs.fact("troop") is not None
    for _ in state.sides:
        state, _ = game.apply(state, DeploymentDone(), SeededDice(2))
    placed = [u for u in state.units.values() if unit_data(u).placed]
    assert placed
    for u in placed:
        own = game.piece(state, u.id, u.side)
        assert "unseen" not in {f["key"] for f in own.to_dict()["facts"]}


def test_a_secret_value_reads_not_yet_shown_to_the_enemy() -> None:
    """Charge yr Pikes! section 22: an officer's value is his own side's until he is called
    on; the enemy's card of him says only "not yet shown", its own side's and a
    referee's the value."""
    game = Game(ChargeYrPikes(secret_deployment=False), load_named("edgehill", rules_id="charge-yr-pikes"))
    state, _ = game.start(SeededDice(1))
    secret = [u for u in state.units.values() for side in state.sides
              if u.side != side and secret_grades.is_secret_from(u, side)]
    assert {u.side for u in secret} == set(state.sides)
    for u in secret:
        value = str(unit_data(u).grade)
        assert value != NOT_SHOWN
        theirs = game.piece(state, u.id, state.opponent(u.side)).fact("grade")
        assert theirs is not None and theirs.value == NOT_SHOWN
        assert f"Value: {NOT_SHOWN}" in game.piece(state, u.id, state.opponent(u.side)).lines()
        for viewer in (None, u.side):
            own = game.piece(state, u.id, viewer).fact("grade")
            assert own is not None and str(own.value).replace("_", " ") == value.replace("_", " ")


def test_an_enemy_piece_hidden_from_the_side_still_has_a_card() -> None:
    """A side's view holds an enemy piece deployed in secret without its place or its
    values; asking what that piece shows the side (``Game.piece``, or every piece of the
    view by ``Presentation.pieces``) answers with what the side knows of it, not an error."""
    game = Game(ChargeYrPikes(secret_deployment=True), load_named("edgehill", rules_id="charge-yr-pikes"))
    state, _ = game.start(SeededDice(1))
    for side in state.sides:
        seen = game.observed_state(state, side)
        cards = game.ruleset.presentation().pieces(game.table, seen, side)
        assert set(cards) == set(seen.units)
        hidden = next(u for u in state.units.values() if u.side != side and not unit_data(u).placed)
        assert game.piece(state, hidden.id, side).fact("unseen") is None


def test_the_examples_divisions_count_against_those_the_regiment_took_the_field_with(example: Game) -> None:
    """The example's ``ex_stands`` is the divisions left of those the regiment started with
    (its order of battle's, else its kind's usual number): Byron's Horse takes the field
    three strong where horse are usually two, and shows 3 of 3, then 2 of 3 a division down."""
    state = example.ruleset.initial_state(example.scenario)
    fact = example.piece(state, "r-horse-2", None).fact("ex_stands")
    assert fact is not None and (fact.value, fact.limit) == (3, 3)
    down = state.with_unit(state.units["r-horse-2"].evolve(stands_left=2))
    fact = example.piece(down, "r-horse-2", None).fact("ex_stands")
    assert fact is not None and (fact.value, fact.limit) == (2, 3)
    usual = example.piece(state, "r-horse", None).fact("ex_stands")
    assert usual is not None and (usual.value, usual.limit) == (2, 2)


def test_a_facts_note_follows_its_own_line_when_asked() -> None:
    """``inspect`` gives each fact's note after that fact, not after the last one."""
    hits = FactSpec("hits", "Hits", FactKind.COUNT, "hits taken")
    ammo = FactSpec("ammo", "Out of ammunition", FactKind.FLAG, "no shot left")
    river = Fact("hits", 4, limit=4, note="river: defending it against enemies across")
    card = PieceCard("u", "Brooke's Foot", "parl", "foot", "c", 0.0, 0.0, 0.0, True, None,
                     facts=((river, hits), (Fact("ammo", True), ammo)))
    assert card.lines() == ["Hits 4 of 4", "Out of ammunition"]
    assert card.lines(noted=True) == ["Hits 4 of 4 (river: defending it against enemies across)",
                                      "Out of ammunition"]


def test_a_trait_its_own_badge_shows_is_not_said_again() -> None:
    """A D3 horse unit impetuous by trait shows the Impetuous badge, and its other traits,
    not "Traits: impetuous" beside it."""
    game = make_game([unit("a", P, "horse", 30, 10, traits=("impetuous", "clubmen")),
                      unit("t", R, "horse", 30, 13, 180)], rules="d3-cards")
    state = game.ruleset.initial_state(game.scenario)
    lines = game.piece(state, "a").lines()
    assert "Impetuous" in lines and "Traits: clubmen" in lines, lines
