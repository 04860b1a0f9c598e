"""The D3 doctrine, second edition (the ``doctrine-2`` player of ``d3-cards`` and
``d3-commands``): shots weighed against the ammunition they spend, spent muskets that
close in or fall back, the first blow left to the enemy's card, and openings drawn from
the player's own random stream; the first edition is still the doctrine and the
baseline."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from tertia.ai.lookup import baseline_for, doctrine_for, second_edition_for
from tertia.core.actions import Action, Move
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.geometry import Face
from tertia.core.state import GameState
from tertia.rules.fighting import Shoot
from tertia.rulesets import get_ruleset
from tertia.rulesets.d3.ai.doctrine import D3Doctrine
from tertia.rulesets.d3.ai.doctrine2 import ON_THE_WORN, REACH_SLACK
from tertia.rulesets.d3.contact import enemy_contacts, face_attacked
from tertia.rulesets.d3.troops import MOVE
from tertia.rulesets.d3_cards.ai.doctrine import D3CardsDoctrine
from tertia.rulesets.d3_cards.ai.doctrine2 import D3CardsDoctrine2
from tertia.rulesets.d3_commands.ai.doctrine import D3CommandsDoctrine
from tertia.rulesets.d3_commands.ai.doctrine2 import D3CommandsDoctrine2
from tertia.scenarios import load_builtin

from .d3_support import CARDS, COMMANDS, activation, foot, horse
from .support import P, R, make_game, unit


def test_each_d3_rule_set_plays_its_second_edition_and_keeps_the_first_as_baseline() -> None:
    for rules, first, second in ((CARDS, D3CardsDoctrine, D3CardsDoctrine2),
                                 (COMMANDS, D3CommandsDoctrine, D3CommandsDoctrine2)):
        ruleset = get_ruleset(rules)
        assert doctrine_for(ruleset) is second and baseline_for(ruleset) is first
        assert second_edition_for(ruleset) is second  # doctrine-2 plays the doctrine


def _decide(player: D3Doctrine, game: Game, state: GameState, player_seed: int = 7) -> Action:
    return player.choose(game, state, random.Random(player_seed))


def _cards_position(units: list[dict[str, Any]], card: str, deck: tuple[tuple[str, str], ...],
                    markers: dict[str, int] | None = None) -> tuple[Game, GameState]:
    """A d3-cards position with ``P``'s ``card`` in play, ``deck`` the cards still to
    come this turn, and each unit's ammunition-shortage markers as given."""
    game = make_game(units, rules=CARDS)
    state = activation(game, P, card).with_values({"deck": deck, "drawn": ()})
    for uid, n in (markers or {}).items():
        state = state.with_unit(state.units[uid].evolve(ammo_markers=n))
    return game, state


# Dragoons facing enemy horse 10" away (centre to centre), well within its 12" charge.
DRAGOONS_AND_HORSE = [unit("d", P, "dragoons", 30, 20, 0), horse("eh", R, 30, 30, 180)]


def test_dragoons_with_two_markers_fall_back_from_horse_where_the_first_edition_fires_on() -> None:
    """Musketry: "Subtract 1 for each ammunition shortage marker", and every shot risks
    another on 5-6. At two markers a volley hits one time in three; the first edition
    fires it at the horse that is about to charge, the second falls back beyond the
    horse's charge instead (Dragoons may not charge; in melee they roll D3-1)."""
    game, state = _cards_position(DRAGOONS_AND_HORSE, "dragoons", ((R, "horse"),), {"d": 2})
    assert _decide(D3CardsDoctrine(), game, state) == Shoot(unit="d", target="eh")
    action = _decide(D3CardsDoctrine2(), game, state)
    assert isinstance(action, Move) and action.unit == "d"
    game.validate(state, action)
    after, _ = game.apply(state, action, SeededDice(1))
    d, eh = after.units["d"], after.units["eh"]
    gap = math.hypot(d.x - eh.x, d.y - eh.y) - d.base.radius - eh.base.radius
    assert gap > MOVE[eh.kind] + REACH_SLACK


def test_dragoons_with_full_ammunition_still_fire_once_the_horse_has_acted() -> None:
    """A volley with no markers (D3, two hits on average) is worth its risk of a marker,
    and with the enemy's horse card already played this turn nothing charges them first."""
    game, state = _cards_position(DRAGOONS_AND_HORSE, "dragoons", ((R, "foot"),))
    assert _decide(D3CardsDoctrine2(), game, state) == Shoot(unit="d", target="eh")


def test_spent_foot_close_in_to_charge_where_the_first_edition_stands() -> None:
    """Foot whose three markers leave their volley worth nothing no longer stand in musket
    range: they advance on the enemy to charge on their next card."""
    units = [foot("f", P, 30, 20, 0), foot("ef", R, 30, 31, 180)]
    game, state = _cards_position(units, "foot", ((R, "foot"),), {"f": 3})
    first = _decide(D3CardsDoctrine(), game, state)
    assert not isinstance(first, Move)
    action = _decide(D3CardsDoctrine2(), game, state)
    assert isinstance(action, Move) and action.unit == "f"
    after, _ = game.apply(state, action, SeededDice(1))
    assert after.units["f"].y > state.units["f"].y + 2.0


def test_horse_stop_short_of_enemy_horse_whose_card_is_still_to_come() -> None:
    """The first blow: Horse 25" apart. With the enemy's horse card still in this turn's
    deck, the second edition stops beyond its charge (the first edition rides 12" into it);
    with that card already played it rides on as the first edition does."""
    units = [horse("h", P, 30, 5, 0), horse("eh", R, 30, 30, 180)]
    game, state = _cards_position(units, "horse", ((R, "horse"),))
    reach = MOVE[state.units["eh"].kind] + REACH_SLACK

    def gap_after(action: Action) -> float:
        assert isinstance(action, Move)
        after, _ = game.apply(state, action, SeededDice(1))
        h, eh = after.units["h"], after.units["eh"]
        return math.hypot(h.x - eh.x, h.y - eh.y) - h.base.radius - eh.base.radius

    assert gap_after(_decide(D3CardsDoctrine(), game, state)) <= reach
    assert gap_after(_decide(D3CardsDoctrine2(), game, state)) > reach
    played = state.with_values({"deck": ((R, "foot"),), "drawn": ((R, "horse"),)})
    first, second = _decide(D3CardsDoctrine(), game, played), _decide(D3CardsDoctrine2(), game, played)
    assert second == first


def test_a_d3_commands_gun_fires_only_where_the_shot_is_likely_to_rout() -> None:
    """Shooting: a gun that runs out of ammunition (5-6 after any shot) is removed, a unit
    lost. The first edition fires at fresh foot 15" off (D3-1, one hit on average); the
    second holds its fire, and fires when the foot is a hit from routing."""
    units = [unit("g", P, "artillery", 30, 10, 0), foot("ef", R, 30, 25, 180)]
    game = make_game(units, rules=COMMANDS)
    gun = game.ruleset.initial_state(game.scenario).units["g"]
    state = activation(game, P, game.ruleset.card_of(gun))  # type: ignore[attr-defined]
    shot = Shoot(unit="g", target="ef")
    assert _decide(D3CommandsDoctrine(), game, state) == shot
    assert _decide(D3CommandsDoctrine2(), game, state) != shot
    worn = state.with_unit(state.units["ef"].evolve(hits=8))
    assert _decide(D3CommandsDoctrine2(), game, worn) == shot


def _opening(game: Game, player: type[D3Doctrine], player_seed: int, actions: int = 40) -> list[Action]:
    """The first ``actions`` of a battle on fixed dice, each side played by ``player``
    with its own random stream from ``player_seed``."""
    state, _ = game.start(SeededDice(1643))
    players = {s: player() for s in game.scenario.side_ids}
    streams = {s: random.Random(f"{player_seed}:{s}") for s in game.scenario.side_ids}
    dice = SeededDice(1644)
    chosen: list[Action] = []
    while len(chosen) < actions and not state.is_over:
        side = state.to_act
        action = players[side].choose(game, state, streams[side])
        state, _ = game.apply(state, action, dice)
        chosen.append(action)
    return chosen


def test_openings_differ_with_the_players_own_random_stream() -> None:
    """On the same dice, the first edition opens Chalgrove the same way whatever its
    random stream; the second's near-equal choices follow a preference drawn from it."""
    game = Game(get_ruleset(CARDS), load_builtin("chalgrove", rules_id=CARDS))
    firsts = {tuple(map(repr, _opening(game, D3CardsDoctrine, seed))) for seed in range(4)}
    seconds = {tuple(map(repr, _opening(game, D3CardsDoctrine2, seed))) for seed in range(4)}
    assert len(firsts) == 1
    assert len(seconds) > 1


def test_d3_commands_card_orders_vary_with_the_random_stream_and_put_the_fight_first() -> None:
    """Commands in melee or within a charge of the enemy are laid first; the rest in an
    order drawn from the player's own stream."""
    units = [horse("h", P, 30, 20, 0, command="right"), foot("f", P, 50, 2, 0),
             foot("f2", P, 60, 2, 0, command="left"), horse("eh", R, 30, 32, 180)]
    game = make_game(units, rules=COMMANDS)
    state = game.ruleset.initial_state(game.scenario)
    orders = {D3CommandsDoctrine2.card_order(state, P, ("centre", "left", "right"), random.Random(s))
              for s in range(12)}
    assert all(order[0] == "right" for order in orders)
    assert len(orders) > 1


# Dragoons with two enemy foot regiments alike before them, one on each side, in musket range.
TWO_TARGETS = [unit("d", P, "dragoons", 30, 20, 0), foot("a", R, 25, 29, 180), foot("b", R, 35, 29, 180)]


def test_blows_go_to_the_unit_already_worn_and_the_players_liking_settles_two_fresh_ones() -> None:
    """Routing: a unit counts for a victory point only once it exceeds its hits, and a
    commander's rally takes them off one at a time. A volley (D3: two hits on average)
    at a regiment that has taken 4 of the 8 it can hold, out of reach of a rout, is worth
    1 + ON_THE_WORN * 4/8 times its hits; so the second edition fires at the worn one,
    whatever its own random stream, where two fresh ones are a toss-up settled by it."""
    game, state = _cards_position(TWO_TARGETS, "dragoons", ((R, "horse"),))
    player = D3CardsDoctrine2()
    volley = (1.0, 2.0, 3.0)
    assert player._blow_worth(game, state.units["a"], volley) == 2.0
    fresh = {_decide(D3CardsDoctrine2(), game, state, player_seed) for player_seed in range(8)}
    assert fresh == {Shoot(unit="d", target="a"), Shoot(unit="d", target="b")}
    for worn in ("a", "b"):
        hurt = state.with_unit(state.units[worn].evolve(hits=4))
        assert player._blow_worth(game, hurt.units[worn], volley) == 2.0 * (1 + ON_THE_WORN / 2)
        assert {_decide(D3CardsDoctrine2(), game, hurt, player_seed) for player_seed in range(8)} == {
            Shoot(unit="d", target=worn)}



def _activations(player: D3Doctrine, game: Game, state: GameState, uid: str, most: int) -> GameState:
    """``state`` after ``uid``'s moves over at most ``most`` activations, each judged by the
    rules and on fresh marks (a new card), until it is in melee or makes none."""
    for _ in range(most):
        action = _decide(player, game, state)
        if not isinstance(action, Move) or action.unit != uid:
            break
        game.validate(state, action)
        state, _ = game.apply(state, action, SeededDice(1))
        state = state.evolve(marks={}).with_mark("meleed", "f")
        if enemy_contacts(state, state.units[uid]):
            break
    return state


@pytest.mark.parametrize(("rules", "card", "most", "first_edition", "second_edition"), [
    (CARDS, "horse", 3, D3CardsDoctrine, D3CardsDoctrine2),
    (COMMANDS, "right", 5, D3CommandsDoctrine, D3CommandsDoctrine2),
])
def test_horse_behind_a_friend_in_melee_go_round_to_charge_the_enemys_flank(
        rules: str, card: str, most: int, first_edition: type[D3Doctrine],
        second_edition: type[D3Doctrine]) -> None:
    """A charge moves straight and stops at the first base it meets, so Horse behind a
    friend whose front is locked with enemy Horse (which charged it) cannot charge through
    the friend. The first edition rides up behind the friend and stands there; the second
    comes round to a point out from the enemy's free flank, faces it, and charges it
    there, doubling its blow (Melee 3)."""
    units = [horse("h", P, 30, 10, 0), horse("f", P, 30, 20, 0), horse("eh", R, 30, 23, 180)]
    game = make_game(units, rules=rules)
    state = activation(game, P, card).with_values({"charges": {"eh": "f"}}).with_mark("meleed", "f")
    if rules == CARDS:
        state = state.with_values({"deck": ((R, "foot"),), "drawn": ()})
    assert [e.id for e in enemy_contacts(state, state.units["eh"])] == ["f"]
    first = _activations(first_edition(), game, state, "h", most)
    assert not enemy_contacts(first, first.units["h"])
    second = _activations(second_edition(), game, state, "h", most)
    h, eh = second.units["h"], second.units["eh"]
    assert [e.id for e in enemy_contacts(second, h)] == ["eh"]
    assert face_attacked(eh, h) is not Face.FRONT


def _moved_in_activation(player: D3Doctrine, game: Game, state: GameState) -> dict[str, float]:
    """How far each unit of the side in play moved over the rest of its activation, every
    action judged by the rules."""
    side, start = state.active, state
    for _ in range(20):
        action = _decide(player, game, state)
        game.validate(state, action)
        state, _ = game.apply(state, action, SeededDice(1))
        if state.active != side or not isinstance(action, Move):
            break
    return {uid: math.hypot(u.x - start.units[uid].x, u.y - start.units[uid].y)
            for uid, u in state.units.items() if u.side == side}


@pytest.mark.parametrize(("rules", "card", "first_edition", "second_edition"), [
    (CARDS, "foot", D3CardsDoctrine, D3CardsDoctrine2),
    (COMMANDS, "centre", D3CommandsDoctrine, D3CommandsDoctrine2),
])
def test_foot_in_a_line_shoulder_to_shoulder_advance_together(
        rules: str, card: str, first_edition: type[D3Doctrine], second_edition: type[D3Doctrine]) -> None:
    """Movement: "Units may not move through other units", but a unit touching its
    neighbours in line is not moving through them. Three foot deployed shoulder to
    shoulder, the enemy 30" ahead: the first edition measures the middle one's way with
    its neighbours' bases touching its own and never moves it; the second moves it straight
    on, and its neighbours go forward too."""
    alone = make_game([foot("x", P, 30, 20, 0)], rules=rules)
    width = alone.ruleset.initial_state(alone.scenario).units["x"].width
    units = [foot("l", P, 30 - width, 20, 0), foot("m", P, 30, 20, 0), foot("r", P, 30 + width, 20, 0),
             foot("ef", R, 31, 50, 180)]
    game = make_game(units, rules=rules)
    state = activation(game, P, card)
    if rules == CARDS:
        state = state.with_values({"deck": ((R, "foot"),), "drawn": ()})
    assert _moved_in_activation(first_edition(), game, state)["m"] == 0.0
    moved = _moved_in_activation(second_edition(), game, state)
    assert moved["m"] >= 5.0 and moved["l"] >= 2.0 and moved["r"] >= 2.0


@pytest.mark.parametrize(("rules", "card", "first_edition", "second_edition"), [
    (CARDS, "foot", D3CardsDoctrine, D3CardsDoctrine2),
    (COMMANDS, "centre", D3CommandsDoctrine, D3CommandsDoctrine2),
])
@pytest.mark.parametrize("right_open", [True, False])
def test_a_second_line_boxed_in_behind_its_guns_steps_aside_where_that_opens_its_way(
        rules: str, card: str, first_edition: type[D3Doctrine], second_edition: type[D3Doctrine],
        right_open: bool) -> None:
    """Movement ("Units may not move through other units"): a foot regiment stands with its
    front against the back of its own battery (2" to its left), a regiment of the first
    line (another command) at the battery's left, the enemy 30" off. No slant gets it past:
    the first edition never moves it. The second steps it aside a frontage to the right,
    where nothing then bars its way on, the left being barred by the first line; with the
    right barred too, it stands."""
    probe = make_game([foot("x", P, 30, 20, 0), unit("y", P, "artillery", 40, 20, 0)], rules=rules)
    placed = probe.ruleset.initial_state(probe.scenario).units
    width, depth, gun_depth = placed["x"].width, placed["x"].depth, placed["y"].depth
    front = 20 + (depth + gun_depth) / 2
    units = [foot("b", P, 30, 20, 0), unit("g", P, "artillery", 28, front, 0),
             foot("n", P, 28 - width, front, 0, command="left"), foot("ef", R, 29, 50, 180)]
    if not right_open:
        units.append(foot("o", P, 28 + width, front, 0, command="left"))
    game = make_game(units, rules=rules)
    state = activation(game, P, card)
    if rules == CARDS:
        state = state.with_values({"deck": ((R, "foot"),), "drawn": ()})
    assert _moved_in_activation(first_edition(), game, state)["b"] == 0.0
    after = _position_after_activation(second_edition(), game, state, "b")
    if not right_open:
        assert after == (30, 20)
        return
    assert after[0] - 30 == pytest.approx(width, abs=0.3) and after[1] == pytest.approx(20, abs=0.3)


def _position_after_activation(player: D3Doctrine, game: Game, state: GameState,
                               uid: str) -> tuple[float, float]:
    side = state.active
    for _ in range(20):
        action = _decide(player, game, state)
        assert not game.validate(state, action)
        state, _ = game.apply(state, action, SeededDice(1))
        if state.active != side or not isinstance(action, Move):
            break
    moved = state.units[uid]
    return (round(moved.x, 6), round(moved.y, 6))
