"""Clause-by-clause checks of "D3 English Civil War Rules" (d3-commands): each docstring
quotes the clause it checks; docs/rulesets/d3-commands.md names every test here."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest

from tertia.activation import command_cards as cards
from tertia.activation.command_cards import OrderCards
from tertia.core.actions import EndPhase, Move
from tertia.core.dice import ScriptedDice
from tertia.core.events import Narrated, UnitMoved
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.io.scenario_file import ScenarioError
from tertia.rules.fighting import Attack, Shoot
from tertia.rules.hits import piece
from tertia.rulesets import get_ruleset
from tertia.rulesets.d3_commands.sequence import initiative_bonus
from tertia.scenarios import load_builtin
from tests.observed import game_values

from .d3_support import COMMANDS, activation, foot, horse, resolved, rolls
from .support import P, R, act, codes, commander, make_game, unit


def game_of(units: list[dict[str, Any]], **kw: Any) -> Game:
    return make_game(units, rules=COMMANDS, **kw)


def problems(units: list[dict[str, Any]], **kw: Any) -> list[str]:
    game = game_of(units, **kw)
    return [m for _, m in game.ruleset.scenario_problems(game.scenario)]


def ahead(x: float, y: float, facing: float, d: float) -> tuple[float, float]:
    r = math.radians(facing)
    return (x + math.sin(r) * d, y + math.cos(r) * d)


def with_hits(state: GameState, uid: str, hits: int) -> GameState:
    return state.with_unit(state.units[uid].evolve(hits=hits))


def mid_turn(state: GameState, side: str, card: str) -> GameState:
    """``side`` is playing ``card``; the other side still holds one card to play."""
    other = state.opponent(side)
    return state.with_values({cards.deck_key(side): [card], cards.played_key(side): [card],
                              cards.deck_key(other): ["centre"], cards.played_key(other): []})


def started(game: Game, dice: list[int]) -> tuple[GameState, ScriptedDice]:
    scripted = ScriptedDice(dice)
    state, _ = game.start(scripted)
    return state, scripted


ENEMY = foot("e", R, 30, 45, 180)

# --- Units ----------------------------------------------------------------------------------


def test_bases_are_4_by_3_and_any_size_works() -> None:
    """Units: "My units are based as a single unit on a 4x3 inch base, but units of any
    base size will work." Commanders stand on 2" x 2"; a scenario may size any base."""
    game = game_of([foot("f", P, 10, 5), horse("h", P, 20, 5), unit("g", P, "artillery", 30, 5),
                    foot("big", P, 40, 5, width=6.0, depth=2.0), ENEMY],
                   commanders=[commander("c", P, 50, 5, general=True)])
    units = game.ruleset.initial_state(game.scenario).units
    assert [(units[u].width, units[u].depth) for u in ("f", "h", "g", "c", "big")] == [
        (4.0, 3.0), (4.0, 3.0), (4.0, 3.0), (2.0, 2.0), (6.0, 2.0)]


def test_each_army_has_a_single_commander() -> None:
    """Commanders: "Each army has a single Commander": the side's general (else its first
    commander) is placed; other commanders of the scenario stay off the table."""
    game = game_of([foot("f", P, 10, 5), ENEMY],
                   commanders=[commander("sub", P, 20, 2), commander("gen", P, 30, 2, general=True),
                               commander("r1", R, 20, 46), commander("r2", R, 30, 46)])
    units = game.ruleset.initial_state(game.scenario).units
    assert {u for u in units if units[u].is_commander} == {"gen", "r1"}


def test_army_size_and_table_are_not_enforced() -> None:
    """Introduction: "geared towards games using between 10-20 units per side played on a
    4x4 to 6x4 tabletop": a description, not a constraint."""
    assert problems([foot("f", P, 10, 5), ENEMY], width=30, depth=30) == []


# --- Commands -------------------------------------------------------------------------------


def test_the_centre_is_foot_only() -> None:
    """Commands: "Centre - can only be made up of Foot units." """
    found = problems([foot("f", P, 10, 5), horse("h", P, 15, 5, command="centre"), ENEMY])
    assert len(found) == 1 and "centre can only be made up of Foot" in found[0]


@pytest.mark.parametrize("command", ["right", "left", "reserve"])
def test_flanks_and_reserve_are_all_foot_or_all_horse(command: str) -> None:
    """Commands: Right Flank, Left Flank and Reserve "can be made up of either all Foot or
    all Horse units"."""
    assert problems([foot("f", P, 10, 5, command=command), foot("g", P, 15, 5, command=command),
                     ENEMY]) == []
    assert problems([horse("h", P, 10, 5, command=command), horse("i", P, 15, 5, command=command),
                     ENEMY]) == []
    mixed = problems([foot("f", P, 10, 5, command=command), horse("h", P, 15, 5, command=command),
                      ENEMY])
    assert len(mixed) == 1 and "all Foot or all Horse" in mixed[0]


def test_dragoons_artillery_and_commanded_shot_are_independent() -> None:
    """Commands: "Independent Units - can be made Dragoon and Artillery units and is the
    only command these units can belong to." Commanded Shot deploy with the independent
    units (Deployment step 6), so they are independent too."""
    found = problems([unit("d", P, "dragoons", 10, 5, command="right"),
                      unit("s", P, "commanded_shot", 20, 5, command="centre"),
                      foot("f", P, 30, 5, command="artillery"), ENEMY])
    assert len(found) == 3
    assert sum("belong to the independent command" in m for m in found) == 2
    assert any("only Dragoons, Artillery and Commanded Shot are independent" in m for m in found)
    for command in ("independent", "artillery", "dragoons"):
        assert problems([unit("d", P, "dragoons", 10, 5, command=command), ENEMY]) == []


def test_units_deploy_within_6_inches_of_their_command() -> None:
    """Commands: "Where there are multiple units in a command a unit must always remain
    within 6" of at least one unit from that command." Independent units are free."""
    near = problems([foot("a", P, 10, 5), foot("b", P, 20, 5), ENEMY])
    assert near == []
    far = problems([foot("a", P, 10, 5), foot("b", P, 21, 5), ENEMY])
    assert len(far) == 2 and all("within 6\"" in m for m in far)
    assert problems([unit("d", P, "dragoons", 10, 5), unit("e2", P, "dragoons", 40, 5), ENEMY]) == []


def test_edgehill_keeps_the_command_rules() -> None:
    """Commands and the 6" rule hold for Edgehill as deployed (and it stays valid for
    larger-battles)."""
    for rules in ("d3-commands", "larger-battles"):
        scenario = load_builtin("edgehill", rules_id=rules)
        assert scenario.name.startswith("Edgehill")


def test_a_broken_command_is_reported_by_validate() -> None:
    """Scenario checks run when a scenario is loaded for the rule set."""
    text = """
name = "x"
[table]
width = 48
depth = 36
[[sides]]
id = "p"
edge = "south"
[[sides]]
id = "r"
edge = "north"
[[units]]
id = "a"
side = "p"
type = "horse"
command = "centre"
x = 10
y = 5
[[units]]
id = "b"
side = "r"
type = "foot"
command = "centre"
x = 10
y = 30
facing = 180
"""
    from tertia.io.scenario_file import load_scenario

    with pytest.raises(ScenarioError) as err:
        load_scenario(text, rules_id=COMMANDS)
    assert "centre can only be made up of Foot" in str(err.value)


def test_one_card_per_command_and_unused_cards_set_aside() -> None:
    """Commands: "Make up a card for each command. Set aside any command card which is
    not used." """
    game = game_of([foot("f", P, 10, 5), horse("h", P, 40, 5), ENEMY])
    state, _ = started(game, [])
    assert state.pending is not None and state.pending["cards"] == ["centre", "right"]
    assert cards.deck(state, R) == ("centre",)


def test_a_stray_unit_is_moved_back_within_6_inches() -> None:
    """Commands: "In the event that this rule is broken, units must be moved to adhere to
    this rule": at the end of the activation the stray unit slides back towards the
    nearest unit of its command until within 6"."""
    game = game_of([foot("a", P, 10, 5), foot("b", P, 25, 5), foot("c", P, 30, 5), ENEMY])
    state = activation(game, P, "centre")
    state = mid_turn(state, P, "centre")
    after, events = act(game, state, EndPhase(), [])
    moved = [e for e in events if isinstance(e, UnitMoved) and e.reason == "cohesion"]
    assert [e.unit for e in moved] == ["a"]
    a, b = after.units["a"], after.units["b"]
    gap = (b.x - b.width / 2) - (a.x + a.width / 2)
    assert 5.8 < gap <= 6.0


def test_cohesion_breaks_off_a_melee() -> None:
    """Commands: "...including breaking off melee": a unit in contact with the enemy and
    out of reach of its command is pulled out of the melee."""
    game = game_of([foot("a", P, 10, 5), foot("b", P, 30, 5), foot("e", R, 10, 8, 180)])
    state = activation(game, R, "centre")
    state = mid_turn(state, R, "centre")
    after, _ = act(game, state, EndPhase(), [])
    a = after.units["a"]
    assert a.x > 10 and not any(True for _ in _contacts(after, "a"))


def _contacts(state: GameState, uid: str) -> list[str]:
    from tertia.rulesets.d3.contact import enemy_contacts

    return [u.id for u in enemy_contacts(state, state.units[uid])]


def test_independent_units_need_not_stay_together() -> None:
    """Commands: "This rule does not apply to independent units." """
    game = game_of([unit("d", P, "dragoons", 10, 5), unit("d2", P, "dragoons", 50, 5), ENEMY])
    state = activation(game, P, "independent")
    state = mid_turn(state, P, "independent")
    _, events = act(game, state, EndPhase(), [])
    assert not [e for e in events if isinstance(e, UnitMoved)]


def test_the_last_unit_to_move_may_not_leave_its_command() -> None:
    """Commands, 6" rule: once every other unit of the command has moved, a move that
    leaves the unit more than 6" from all of them is refused."""
    game = game_of([foot("a", P, 10, 5), foot("b", P, 15, 5), ENEMY])
    state = activation(game, P, "centre")
    away = Move(unit="a", waypoints=((4.5, 5),))
    assert codes(game, state, away) == []
    assert codes(game, state.with_mark("moved", "b"), away) == ["d3.COHESION"]
    assert codes(game, state.with_mark("moved", "b"), Move(unit="a", waypoints=((5.5, 5),))) == []


# --- Sequence of Play -----------------------------------------------------------------------

TWO_COMMANDS = [foot("f", P, 10, 5), horse("h", P, 30, 5), foot("e", R, 10, 43, 180),
                horse("eh", R, 30, 43, 180)]


def test_each_side_orders_its_cards_face_down() -> None:
    """Sequence of Play: "each player takes their command cards and places them in the
    order they want their commands to be activated ... face down with the first command
    to be activated on top." Each side's order must hold each of its cards once."""
    game = game_of(TWO_COMMANDS)
    state, _ = started(game, [])
    assert state.phase == "orders" and state.to_act == P
    assert codes(game, state, OrderCards(order=("centre",))) == ["activation.BAD_CARD_ORDER"]
    assert codes(game, state, OrderCards(order=("centre", "centre"))) == ["activation.BAD_CARD_ORDER"]
    assert codes(game, state, Move(unit="f", waypoints=((10, 6),))) == ["core.PENDING_DECISION"]
    state, _ = act(game, state, OrderCards(order=("right", "centre")))
    assert state.to_act == R and state.pending is not None
    assert cards.unplayed(state, P) == ("right", "centre")


def test_only_the_side_itself_sees_its_order() -> None:
    """Sequence of Play: "Only the player knows the order": the other side's observation
    shows how many cards are left, never their order, and the event that records it is
    hidden from the other side."""
    game = game_of(TWO_COMMANDS)
    state, _ = started(game, [])
    state, events = act(game, state, OrderCards(order=("right", "centre")))
    theirs = game_values(game.observe(state, R))
    mine = game_values(game.observe(state, P))
    assert theirs[cards.order_key(P)] == {"hidden": "card order"}
    assert mine[cards.order_key(P)] == ["right", "centre"]
    assert "right" not in str(theirs.get(cards.order_key(P)))
    secret = [e for e in events if not game.ruleset.event_visible_to(e, R)]
    assert len(secret) == 1 and all(game.ruleset.event_visible_to(e, P) for e in events)


def test_initiative_is_a_d6_plus_the_commanders_value_ties_rolled_again() -> None:
    """Sequence of Play: "both players roll a D6 and add their commander's value with the
    highest scoring player activating their command first (re-rolling any ties)." A poor
    commander adds 0, an average one 1, a veteran 2."""
    game = game_of(TWO_COMMANDS, commanders=[
        {**commander("pc", P, 50, 2), "value": 0}, {**commander("rc", R, 50, 46), "value": 2}])
    state, _ = started(game, [])
    state, _ = act(game, state, OrderCards(order=("centre", "right")))
    state, events = act(game, state, OrderCards(order=("right", "centre")), [4, 2, 6, 3])
    assert rolls(events) == ["initiative: parliament", "initiative: royalist"] * 2
    assert state.active == P and game.ruleset.active_card(state) == "centre"


@pytest.mark.parametrize(("scale", "bonus"), [("0-1-2", (0, 2)), ("1-2-3", (1, 3)), ("none", (0, 0))])
def test_commander_value_scales(scale: str, bonus: tuple[int, int]) -> None:
    """RULES-NOTES: the text never defines a commander's value; the scenario gives 0, 1 or
    2 and the option ``commander_values`` says what each adds."""
    game = game_of(TWO_COMMANDS, commander_values=scale, commanders=[
        {**commander("pc", P, 50, 2), "value": 0}, {**commander("rc", R, 50, 46), "value": 2}])
    state = game.ruleset.initial_state(game.scenario)
    assert initiative_bonus(state, game.ruleset.options) == {P: bonus[0], R: bonus[1]}


def play_through(game: Game, p_order: tuple[str, ...], r_order: tuple[str, ...],
                 initiative: list[int]) -> list[tuple[str, str]]:
    state, _ = started(game, [])
    state, _ = act(game, state, OrderCards(order=p_order))
    state, _ = act(game, state, OrderCards(order=r_order), initiative)
    seen = []
    while state.phase == "activation":
        seen.append((state.active, str(game.ruleset.active_card(state))))
        state, _ = act(game, state, EndPhase())
    assert state.turn == 2 and state.phase == "orders"
    return seen


def test_sides_alternate_playing_their_top_cards() -> None:
    """Sequence of Play: "Players then alternate activating their commands in the order of
    their command cards"; a side with more cards plays the rest in turn. Then a new turn
    begins with new orders and a new roll."""
    game = game_of([*TWO_COMMANDS, foot("f2", P, 50, 5, command="reserve")])
    seen = play_through(game, ("reserve", "centre", "right"), ("right", "centre"), [2, 5])
    assert seen == [(R, "right"), (P, "reserve"), (R, "centre"), (P, "centre"), (P, "right")]


def test_only_the_activated_command_acts() -> None:
    """Sequence of Play: "When a player's command is activated all units in the command
    can: move, shoot, and melee." Units of other commands cannot."""
    game = game_of(TWO_COMMANDS)
    state = activation(game, P, "centre")
    assert codes(game, state, Move(unit="f", waypoints=((10, 7),))) == []
    assert codes(game, state, Move(unit="h", waypoints=((30, 7),))) == ["activation.NOT_ACTIVATED"]
    assert codes(game, state, Move(unit="e", waypoints=((10, 40),))) == ["core.NOT_YOUR_UNIT"]


def test_a_command_that_loses_all_its_units_loses_its_card() -> None:
    """Sequence of Play: "If during a game a command loses all its units, immediately
    remove its card from the deck." """
    game = game_of([foot("f", P, 30, 10), foot("e", R, 30, 13, 180), horse("eh", R, 60, 43, 180)])
    state = activation(game, P, "centre")
    state = state.with_values({cards.deck_key(R): ["centre", "right"], cards.played_key(R): []})
    state = with_hits(state, "e", 8)
    state, _ = act(game, state, Attack(attacker="f", target="e"), [3])
    assert not state.units["e"].in_play
    assert cards.deck(state, R) == ("right",) and cards.cards_left(state, R) == 1


def test_solo_games_shuffle_the_opposing_cards_with_a_veteran_commander() -> None:
    """Sequence of Play: "If you are playing a solo game, try just shuffling the opposing
    army's command cards and always give a veteran commander." The shuffled side orders
    nothing; each of its cards is drawn at random when it plays."""
    game = game_of(TWO_COMMANDS, solo_shuffle="north",
                   commanders=[{**commander("rc", R, 50, 46), "value": 0}])
    state, _ = started(game, [])
    assert state.to_act == P
    assert initiative_bonus(state, game.ruleset.options)[R] == 2
    state, events = act(game, state, OrderCards(order=("centre", "right")), [1, 5, 2])
    assert state.active == R and rolls(events)[-1] == "shuffled card: royalist"
    assert game.ruleset.active_card(state) == "right"


# --- Movement -------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "allowance"), [
    ("horse", 12.0), ("dragoons", 9.0), ("foot", 6.0), ("commanded_shot", 6.0), ("artillery", 6.0)])
def test_movement_allowances(kind: str, allowance: float) -> None:
    """Movement: "Horse units - 12", Dragoon units - 9", Foot units - 6", Commanded Shot
    units - 6", Artillery - 6"" and "A unit may move up to their movement allowance, but
    never exceed it." """
    command = {"horse": "right", "foot": "centre"}.get(kind, "independent")
    game = game_of([unit("u", P, kind, 30, 5, command=command), ENEMY])
    state = activation(game, P, "right" if kind == "horse" else command)
    assert codes(game, state, Move(unit="u", waypoints=((30, 5 + allowance),))) == []
    assert codes(game, state, Move(unit="u", waypoints=((30, 5.1 + allowance),))) == ["movement.TOO_FAR"]


def test_artillery_cannot_move_after_attempting_to_shoot() -> None:
    """Movement: "Artillery - 6" and cannot move after attempting to shoot"; Units: "Once in
    position and firing the guns remain stationary." A pivot on the spot is allowed."""
    game = game_of([unit("g", P, "artillery", 30, 5), ENEMY])
    state = activation(game, P, "independent")
    state = state.with_unit(state.units["g"].evolve(fired=True))
    assert codes(game, state, Move(unit="g", waypoints=((30, 7),))) == ["movement.STATIONARY"]
    assert codes(game, state, Move(unit="g", face_before=20.0)) == []


def test_each_pivot_costs_3_inches() -> None:
    """Movement: "Units may pivot at the start and end of their turn. When pivoting units
    reduce their movement by 3"." Each pivot costs 3" (option ``pivot_cost_each``)."""
    game = game_of([foot("f", P, 30, 5), ENEMY])
    state = activation(game, P, "centre")
    assert codes(game, state, Move(unit="f", waypoints=(ahead(30, 5, 20, 0.1),), face_before=20,
                                   face_after=50)) == ["movement.TOO_FAR"]
    assert codes(game, state, Move(unit="f", waypoints=(ahead(30, 5, 30, 3.0),), face_before=30)) == []
    assert codes(game, state, Move(unit="f", waypoints=(ahead(30, 5, 30, 3.1),), face_before=30)) == [
        "movement.TOO_FAR"]
    assert codes(game, state, Move(unit="f", face_before=30, face_after=60)) == []
    once = game_of([foot("f", P, 30, 5), ENEMY], pivot_cost_each=False)
    state = activation(once, P, "centre")
    assert codes(once, state, Move(unit="f", waypoints=(ahead(30, 5, 30, 3.0),), face_before=30,
                                   face_after=0)) == []


def test_units_may_not_move_through_other_units() -> None:
    """Movement: "Units may not move through other units." """
    game = game_of([foot("f", P, 30, 5), foot("g", P, 30, 9), ENEMY])
    state = activation(game, P, "centre")
    assert codes(game, state, Move(unit="f", waypoints=((30, 11),))) == ["movement.COLLISION"]


def test_within_12_inches_stay_advance_or_move_directly_away() -> None:
    """Movement: "Units within 12" of an enemy unit that is not engaged in melee must
    either remain stationary, move towards the enemy, or directly away from the enemy." """
    game = game_of([foot("f", P, 30, 10), foot("e", R, 30, 20, 180)])
    state = activation(game, P, "centre")
    assert codes(game, state, Move(unit="f", waypoints=((33, 10),))) == ["movement.NOT_AWAY"]
    assert codes(game, state, Move(unit="f", waypoints=((31, 13),))) == []
    assert codes(game, state, Move(unit="f", waypoints=((30, 5),))) == []
    assert codes(game, state, Move(unit="f", face_before=90.0)) == []
    far = game_of([foot("f", P, 30, 10), foot("e", R, 30, 30, 180)])
    assert codes(far, activation(far, P, "centre"), Move(unit="f", waypoints=((34, 10),))) == []


def test_the_12_inch_rule_ignores_enemies_in_melee() -> None:
    """Movement: the 12" rule counts only enemy units "not engaged in melee"."""
    game = game_of([foot("f", P, 30, 10), foot("g", P, 50, 17), foot("e", R, 50, 20, 180)])
    state = activation(game, P, "centre")
    assert codes(game, state, Move(unit="f", waypoints=((33, 10),))) == []


def test_only_horse_and_foot_charge() -> None:
    """Movement: "Horse and Foot are the only units that may charge other units by moving
    the attacking unit into contact with its target." """
    game = game_of([unit("d", P, "dragoons", 30, 10), foot("e", R, 30, 20, 180)])
    state = activation(game, P, "independent")
    assert codes(game, state, Move(unit="d", waypoints=((30, 16.99),))) == ["d3.CANNOT_CHARGE"]
    game = game_of([horse("h", P, 30, 10), foot("e", R, 30, 20, 180)])
    assert codes(game, activation(game, P, "right"), Move(unit="h", waypoints=((30, 16.99),))) == []


def charge_at(facing: float) -> tuple[Game, GameState, Move]:
    """Horse at (30, 10) pivots to ``facing`` and charges 6" straight ahead into a foot
    unit waiting face to face."""
    end = ahead(30, 10, facing, 6.0)
    front = ahead(*end, facing, 1.5)
    target = ahead(*front, facing, 1.545)
    game = game_of([horse("h", P, 30, 10), foot("e", R, target[0], target[1], (facing + 180) % 360)])
    return game, activation(game, P, "right"), Move(unit="h", waypoints=(end,), face_before=facing)


def test_a_charge_turns_once_at_the_start_at_most_45_degrees() -> None:
    """Movement, charges: "A charging unit may turn once, at the start of its move. This
    evolution may not exceed 45 degrees." """
    game, state, move = charge_at(40.0)
    assert codes(game, state, move) == []
    game, state, move = charge_at(50.0)
    assert codes(game, state, move) == ["d3.CHARGE_TURN"]
    game, state, move = charge_at(0.0)
    assert codes(game, state, replace(move, face_after=1.0)) == ["d3.CHARGE_TURN"]
    mid = (30, 12)
    assert codes(game, state, replace(move, waypoints=(mid, *move.waypoints))) == ["d3.CHARGE_TURN"]


def test_only_one_attacker_on_each_face() -> None:
    """Movement, charges: "Only one attacking unit may contact each face of the target
    (these being Front, Left Flank, Right Flank, and Rear)." """
    game = game_of([horse("a", P, 30, 16.99), horse("b", P, 34.01, 10), horse("c", P, 40, 20, 270),
                    foot("e", R, 30, 20, 180)])
    state = activation(game, P, "right")
    assert codes(game, state, Move(unit="b", waypoints=((34.01, 16.99),))) == ["d3.FACE_TAKEN"]
    assert codes(game, state, Move(unit="c", waypoints=((33.51, 20),))) == []


def test_melee_is_fought_in_the_activation_after_contact() -> None:
    """Movement, charges: "Fighting. Combat is resolved during the Melee Combat phase":
    there is no melee phase; a unit already in contact fights with an Attack in its
    activation, and without contact there is no melee. A charge fights as it makes
    contact (Melee: "determined immediately"); with ``charge_fights_at_once = false`` the
    charger fights with an Attack after its move."""
    game = game_of([horse("h", P, 30, 10), foot("e", R, 30, 20, 180)], charge_fights_at_once=False)
    state = activation(game, P, "right")
    assert codes(game, state, Attack(attacker="h", target="e")) == ["fighting.NOT_IN_CONTACT"]
    state, _ = act(game, state, Move(unit="h", waypoints=((30, 16.99),)))
    state, events = act(game, state, Attack(attacker="h", target="e"), [2])
    assert piece(state.units["e"]).hits == 1 and resolved(events).kind == "melee"
    engaged = game_of([horse("h", P, 30, 13.5), foot("e", R, 30, 16.51, 180)])
    after, events = act(engaged, activation(engaged, P, "right"), Attack(attacker="h", target="e"), [3])
    assert piece(after.units["e"]).hits == 2


# --- Terrain Effects --------------------------------------------------------------------------

WOOD = {"type": "woods", "polygon": [[25, 14], [35, 14], [35, 22], [25, 22]]}
TOWN = {"type": "town", "polygon": [[25, 14], [35, 14], [35, 22], [25, 22]]}


def test_only_commanded_shot_enter_woods() -> None:
    """Terrain: "WOODS - ... may only be entered by Commanded Shot units." """
    game = game_of([foot("f", P, 22, 10), unit("s", P, "commanded_shot", 30, 10, command="independent"),
                    ENEMY],
                   terrain=[WOOD])
    assert codes(game, activation(game, P, "centre"), Move(unit="f", waypoints=((24, 15),))) == [
        "movement.IMPASSABLE"]
    assert codes(game, activation(game, P, "independent"), Move(unit="s", waypoints=((30, 15),))) == []


@pytest.mark.parametrize(("kind", "card", "allowed"), [
    ("foot", "centre", True), ("dragoons", "independent", True), ("commanded_shot", "independent", True),
    ("horse", "right", False), ("artillery", "independent", False)])
def test_towns_admit_infantry_dragoons_and_commanded_shot(kind: str, card: str, allowed: bool) -> None:
    """Terrain: "TOWNS - Provide cover and may only be entered by Infantry, Dragoons &
    Commanded Shot." """
    command = {"horse": "right", "foot": "centre"}.get(kind, "independent")
    game = game_of([unit("u", P, kind, 30, 10, command=command), ENEMY], terrain=[TOWN])
    found = codes(game, activation(game, P, card), Move(unit="u", waypoints=((30, 15),)))
    assert found == ([] if allowed else ["movement.IMPASSABLE"])


def test_marsh_lakes_and_rivers() -> None:
    """Terrain: "MARSH/LAKES - Impassable to all units." "RIVERS - impassable except at
    bridges & fords." """
    marsh = {"type": "marsh", "polygon": [[25, 13], [35, 13], [35, 18], [25, 18]]}
    river = {"type": "river", "line": [[0, 13], [72, 13]], "width": 1.0}
    ford = {"type": "ford", "polygon": [[40, 11], [46, 11], [46, 15], [40, 15]]}
    game = game_of([foot("f", P, 30, 10), foot("g", P, 43, 10), ENEMY], terrain=[marsh, river, ford])
    state = activation(game, P, "centre")
    assert codes(game, state, Move(unit="f", waypoints=((30, 14),))) == ["movement.IMPASSABLE"]
    assert codes(game, state, Move(unit="g", waypoints=((43, 15),))) == []
    game = game_of([foot("f", P, 30, 10), ENEMY], terrain=[river])
    assert codes(game, activation(game, P, "centre"), Move(unit="f", waypoints=((30, 15),))) == [
        "movement.RIVER"]


def melee_mods(terrain: dict[str, Any], *, target_at: tuple[float, float] = (30, 13)) -> list[str]:
    game = game_of([horse("h", P, 30, 10), horse("e", R, target_at[0], target_at[1], 180)],
                   terrain=[terrain])
    state = activation(game, P, "right")
    _, events = act(game, state, Attack(attacker="h", target="e"), [2])
    return list(resolved(events).modifiers)


def shot_mods(terrain: dict[str, Any], target_at: tuple[float, float] = (30, 18)) -> list[str]:
    game = game_of([foot("f", P, 30, 8), horse("e", R, target_at[0], target_at[1], 180)],
                   terrain=[terrain])
    state = activation(game, P, "centre")
    _, events = act(game, state, Shoot(unit="f", target="e"), [2, 1])
    return list(resolved(events).modifiers)


def test_woods_cover_against_shooting_only() -> None:
    """Terrain: "WOODS - Provide cover against shooting"; not in melee."""
    wood = {"type": "woods", "polygon": [[26, 12], [34, 12], [34, 22], [26, 22]]}
    assert shot_mods(wood) == ["-1 target in cover (woods)"]
    assert melee_mods(wood) == []


def test_towns_cover_against_shooting_and_in_melee() -> None:
    """Terrain: "TOWNS - Provide cover". """
    town = {"type": "town", "polygon": [[26, 12], [34, 12], [34, 22], [26, 22]]}
    assert shot_mods(town) == ["-1 target in cover (town)"]
    assert melee_mods(town) == ["-1 target in cover (town)"]


def test_hedges_cover_defenders_in_melee_only() -> None:
    """Terrain: "HEDGES - Provide cover for defenders in melees": here to the unit nearer
    the hedge (no charge between them); tests/test_d3_audit_cover.py has the rest."""
    hedge = {"type": "hedge", "line": [[20, 12], [40, 12]], "width": 0.5}
    assert melee_mods(hedge) == ["-1 target in cover (hedge)"]
    hedge_far = {"type": "hedge", "line": [[20, 15], [40, 15]], "width": 0.5}
    assert shot_mods(hedge_far) == []


def test_hills_cover_units_defending_them_in_melee() -> None:
    """Terrain: "HILLS - provide cover to units defending a hill in melee." """
    hill = {"type": "hill", "polygon": [[20, 12], [40, 12], [40, 30], [20, 30]]}
    assert melee_mods(hill) == ["-1 target in cover (defending a hill)"]
    whole = {"type": "hill", "polygon": [[20, 2], [40, 2], [40, 30], [20, 30]]}
    assert melee_mods(whole) == []


def test_entrenchments_cover_in_melee_and_against_shooting() -> None:
    """Terrain: "ENTRENCHMENTS - Provide cover for melee and shooting combat." """
    works = {"type": "entrenchment", "polygon": [[26, 12], [34, 12], [34, 22], [26, 22]]}
    assert shot_mods(works) == ["-1 target in cover (entrenchment)"]
    assert melee_mods(works) == ["-1 target in cover (entrenchment)"]


# --- Shooting ---------------------------------------------------------------------------------


def test_only_foot_dragoons_commanded_shot_and_guns_shoot() -> None:
    """Shooting: "Only Foot, Dragoons, and Commanded Shot units may shoot with muskets or
    flintlocks"; artillery shoot their guns."""
    game = game_of([horse("h", P, 30, 8), foot("e", R, 30, 18, 180)])
    assert codes(game, activation(game, P, "right"), Shoot(unit="h", target="e")) == ["core.CANNOT_ACT"]


def test_shooting_after_a_forward_move_only() -> None:
    """Shooting: "They may shoot if stationary, or after completing their movement which
    must have been forward in their 45 degree front facing arc. They cannot shoot if they
    have moved sideways or backwards." """
    game = game_of([foot("f", P, 30, 8), foot("e", R, 30, 18, 180)])
    state = activation(game, P, "centre")
    assert codes(game, state, Shoot(unit="f", target="e")) == []
    forward, _ = act(game, state, Move(unit="f", waypoints=((31, 10),)))
    assert codes(game, forward, Shoot(unit="f", target="e")) == []
    back, _ = act(game, state, Move(unit="f", waypoints=((30, 6),)))
    assert codes(game, back, Shoot(unit="f", target="e")) == ["movement.MOVED_SIDEWAYS"]
    shot, _ = act(game, state, Shoot(unit="f", target="e"), [1, 1])
    assert codes(game, shot, Move(unit="f", waypoints=((30, 9),))) == ["core.ALREADY_ACTED"]


def test_field_of_fire_and_line_of_sight() -> None:
    """Shooting 1: "Check units have a 45 degree field of fire and have a clear line of
    sight of the target." Woods, towns and other units block the line."""
    game = game_of([foot("f", P, 30, 8), foot("side", R, 45, 9, 180), foot("e", R, 30, 18, 180),
                    foot("g", P, 50, 8), foot("e2", R, 50, 18, 180)],
                   terrain=[{"type": "woods", "polygon": [[48, 12], [52, 12], [52, 14], [48, 14]]}])
    state = activation(game, P, "centre")
    assert codes(game, state, Shoot(unit="f", target="side")) == ["fighting.NOT_IN_FRONT"]
    assert codes(game, state, Shoot(unit="g", target="e2")) == ["fighting.NO_LINE_OF_SIGHT"]
    blocked = game_of([foot("f", P, 30, 8), foot("x", P, 30, 12), foot("e", R, 30, 18, 180)])
    assert codes(blocked, activation(blocked, P, "centre"), Shoot(unit="f", target="e")) == [
        "fighting.NO_LINE_OF_SIGHT"]


def test_ranges_12_for_muskets_24_for_guns_36_from_a_hill() -> None:
    """Shooting 2: "Check the target is within range 12" for muskets and 24" for
    artillery. If artillery are positioned on a hill, then their range is 36"." """
    game = game_of([foot("f", P, 10, 8), foot("e", R, 10, 23.2, 180),
                    unit("g", P, "artillery", 40, 8), foot("t", R, 40, 36, 180)])
    assert codes(game, activation(game, P, "centre"), Shoot(unit="f", target="e")) \
        == ["fighting.OUT_OF_RANGE"]
    assert codes(game, activation(game, P, "independent"), Shoot(unit="g", target="t")) == [
        "fighting.OUT_OF_RANGE"]
    hill = {"type": "hill", "polygon": [[35, 2], [45, 2], [45, 12], [35, 12]]}
    game = game_of([unit("g", P, "artillery", 40, 8), foot("t", R, 40, 36, 180)], terrain=[hill])
    assert codes(game, activation(game, P, "independent"), Shoot(unit="g", target="t")) == []


@pytest.mark.parametrize(("kind", "roll", "hits"), [
    ("foot", 2, 2), ("dragoons", 2, 1), ("commanded_shot", 3, 2), ("artillery", 1, 0)])
def test_shooting_hits_d3_or_d3_minus_1(kind: str, roll: int, hits: int) -> None:
    """Shooting 3: "roll a D3 for infantry and D3-1 for dragoons, commanded shot, and
    artillery." """
    command = "centre" if kind == "foot" else "independent"
    game = game_of([unit("u", P, kind, 30, 8, command=command), horse("e", R, 30, 18, 180)])
    state = activation(game, P, command)
    ammo = [1] if kind in ("foot", "artillery") else []
    after, _ = act(game, state, Shoot(unit="u", target="e"), [roll, *ammo])
    assert piece(after.units["e"]).hits == hits


def test_cover_takes_one_from_a_shot() -> None:
    """Shooting 3: "Reduce any score by 1 if the target is in cover." Never below nothing."""
    town = {"type": "town", "polygon": [[26, 12], [34, 12], [34, 22], [26, 22]]}
    game = game_of([foot("f", P, 30, 8), foot("e", R, 30, 18, 180)], terrain=[town])
    state = activation(game, P, "centre")
    assert act(game, state, Shoot(unit="f", target="e"), [3, 1])[0].units["e"].own.hits == 2
    assert act(game, state, Shoot(unit="f", target="e"), [1, 1])[0].units["e"].own.hits == 0


def test_ammunition_runs_out_for_foot_and_guns_on_5_or_6() -> None:
    """Shooting, ammunition shortage: "Whenever an infantry or artillery shoot (not dragoons
    or commanded shot) roll a D6, on a 5-6 they have run out of ammunition and cannot shoot
    for the remainder of the game. In the case of artillery they are removed." """
    game = game_of([foot("f", P, 30, 8), unit("g", P, "artillery", 40, 8),
                    unit("d", P, "dragoons", 50, 8), foot("e", R, 30, 18, 180),
                    foot("e2", R, 45, 18, 180)])
    state = activation(game, P, "centre")
    kept, _ = act(game, state, Shoot(unit="f", target="e"), [1, 4])
    assert not piece(kept.units["f"]).out_of_ammo
    out, _ = act(game, state, Shoot(unit="f", target="e"), [1, 5])
    assert piece(out.units["f"]).out_of_ammo
    assert codes(game, out.evolve(marks={}), Shoot(unit="f", target="e")) == ["fighting.OUT_OF_AMMUNITION"]
    guns = activation(game, P, "independent")
    gone, _ = act(game, guns, Shoot(unit="g", target="e2"), [2, 6])
    assert gone.units["g"].removed == "no ammunition"
    _, events = act(game, guns, Shoot(unit="d", target="e2"), [2])
    assert rolls(events) == ["shooting: d against e2"]


def test_units_in_melee_cannot_shoot() -> None:
    """Melee: "Units may withdraw from a melee, but cannot perform any other action such
    as shooting." """
    game = game_of([foot("f", P, 30, 10), foot("e", R, 30, 13, 180)])
    assert codes(game, activation(game, P, "centre"), Shoot(unit="f", target="e")) == ["fighting.ENGAGED"]


# --- Melee ------------------------------------------------------------------------------------


def test_melee_is_one_sided() -> None:
    """Melee 1: "One Sided Combat. Units only inflict hits during their activation." The
    attacker takes no hits; the defender strikes back only when its own card is played."""
    game = game_of([foot("f", P, 30, 10), horse("e", R, 30, 13, 180)])
    state = activation(game, P, "centre")
    after, _ = act(game, state, Attack(attacker="f", target="e"), [3])
    assert (piece(after.units["e"]).hits, piece(after.units["f"]).hits) == (3, 0)
    assert codes(game, state, Attack(attacker="e", target="f")) == ["core.NOT_YOUR_UNIT"]
    theirs = activation(game, R, "right")
    assert codes(game, theirs, Attack(attacker="e", target="f")) == []


@pytest.mark.parametrize(("attacker", "target", "roll", "hits", "mods"), [
    (horse("a", P, 30, 10, traits=("impetuous",)), horse("t", R, 30, 13, 180), 2, 3, ["+1 impetuous Horse"]),
    (horse("a", P, 30, 10), foot("t", R, 30, 13, 180), 1, 0, ["-1 target is Infantry"]),
    (horse("a", P, 30, 10), unit("t", R, "commanded_shot", 30, 13, 180), 2, 2, []),
])
def test_melee_hits_are_a_d3_with_modifiers(attacker: dict[str, Any], target: dict[str, Any], roll: int,
                                             hits: int, mods: list[str]) -> None:
    """Melee 2: "Units roll a D3. The final score gives the number of hits ... If the
    attacking unit is Impetuous Horse +1. If a target is Infantry -1." Infantry means Foot
    (option ``infantry_in_melee`` adds Commanded Shot)."""
    game = game_of([attacker, target])
    state = activation(game, P, "right")
    after, events = act(game, state, Attack(attacker="a", target="t"), [roll])
    assert piece(after.units["t"]).hits == hits and list(resolved(events).modifiers) == mods


def test_commanded_shot_count_as_infantry_by_option() -> None:
    """Melee 2 with ``infantry_in_melee = "foot-and-commanded-shot"``."""
    game = game_of([horse("a", P, 30, 10), unit("t", R, "commanded_shot", 30, 13, 180)],
                   infantry_in_melee="foot-and-commanded-shot")
    after, _ = act(game, activation(game, P, "right"), Attack(attacker="a", target="t"), [2])
    assert piece(after.units["t"]).hits == 1


def test_flank_and_rear_attacks_double_after_the_modifiers() -> None:
    """Melee 2: "If the attack is on the flank or rear, then double the number of hits
    scored after all other modifications are applied." """
    game = game_of([horse("a", P, 33.51, 20, 270), foot("t", R, 30, 20, 180)])
    state = activation(game, P, "right")
    after, events = act(game, state, Attack(attacker="a", target="t"), [3])
    assert piece(after.units["t"]).hits == 4
    assert "x2 attack on the left flank" in resolved(events).modifiers
    rear = game_of([horse("a", P, 30, 23.01, 180), foot("t", R, 30, 20, 180)])
    after, _ = act(rear, activation(rear, P, "right"), Attack(attacker="a", target="t"), [1])
    assert piece(after.units["t"]).hits == 0


def test_withdrawing_from_a_melee_and_nothing_else() -> None:
    """Melee: "Units may withdraw from a melee, but cannot perform any other action such
    as shooting." A unit in contact may fight, or move out of contact; nothing more."""
    game = game_of([foot("f", P, 30, 10), foot("e", R, 30, 13, 180), foot("e2", R, 40, 25, 180)])
    state = activation(game, P, "centre")
    assert codes(game, state, Move(unit="f", waypoints=((31, 10),))) == ["fighting.ENGAGED"]
    flank = game_of([foot("f", P, 30, 10), foot("e", R, 33.54, 10, 270)])
    assert codes(flank, activation(flank, P, "centre"), Move(unit="f", face_before=1.0)) \
        == ["fighting.ENGAGED"]
    back, _ = act(game, state, Move(unit="f", waypoints=((30, 5),)))
    assert codes(game, back, Shoot(unit="f", target="e2")) == ["core.ALREADY_ACTED"]
    fought, _ = act(game, state, Attack(attacker="f", target="e"), [1])
    assert codes(game, fought, Move(unit="f", waypoints=((30, 5),))) == ["core.ALREADY_ACTED"]


def test_impetuous_horse_pursue_on_5_or_6() -> None:
    """Melee, impetuous Horse: "If the winning side of a melee that eliminates a unit and is
    impetuous, they must test to see if they pursue the vanquished combatants. Roll D6, on
    a score 5+ they are removed as they have chased the defeated unit off the battlefield." """
    game = game_of([horse("a", P, 30, 10, traits=("impetuous",)), horse("t", R, 30, 13, 180)])
    state = with_hits(activation(game, P, "right"), "t", 8)
    gone, events = act(game, state, Attack(attacker="a", target="t"), [1, 5])
    assert gone.units["t"].removed == "routed" and gone.units["a"].removed == "pursued"
    assert rolls(events)[-1] == "pursuit: a after t"
    kept, _ = act(game, state, Attack(attacker="a", target="t"), [1, 4])
    assert kept.units["a"].in_play
    steady = game_of([horse("a", P, 30, 10), horse("t", R, 30, 13, 180)])
    _, events = act(steady, with_hits(activation(steady, P, "right"), "t", 8),
                    Attack(attacker="a", target="t"), [1])
    assert "pursuit: a after t" not in rolls(events)


def test_all_royalist_horse_impetuous_by_option() -> None:
    """Units, Horse: "Royalist Horse can be treated as impetuous" (option
    ``royalist_horse_impetuous``): a side whose id or name says Royalist."""
    game = game_of([horse("t", P, 30, 10), horse("a", R, 30, 13, 180)], royalist_horse_impetuous=True)
    after, events = act(game, activation(game, R, "right"), Attack(attacker="a", target="t"), [1])
    assert piece(after.units["t"]).hits == 2 and "+1 impetuous Horse" in resolved(events).modifiers


def test_dragoons_fight_back_with_d3_minus_1() -> None:
    """The author's reply on dragoons in melee: they "would attack with D3-1, which would be
    modified by minus 1 against infantry to D3-2"; so do Commanded Shot and guns."""
    game = game_of([unit("d", P, "dragoons", 30, 10), foot("t", R, 30, 13, 180),
                    unit("d2", P, "dragoons", 40, 10), horse("h", R, 40, 13, 180)])
    state = activation(game, P, "independent")
    after, events = act(game, state, Attack(attacker="d", target="t"), [3])
    assert piece(after.units["t"]).hits == 1
    assert list(resolved(events).modifiers) == ["-1 D3-1 for dragoons", "-1 target is Infantry"]
    assert act(game, state, Attack(attacker="d2", target="h"), [3])[0].units["h"].own.hits == 2


def test_clubmen_are_an_option_fight_with_d3_minus_2_and_are_always_in_cover() -> None:
    """The author on Clubmen: "their combat in a melee situation to be D3-2 and all shooting
    against them are treated as them having cover"; Tertia gives them no muskets."""
    units = [foot("c", P, 30, 10, traits=("clubmen",)), horse("t", R, 30, 13, 180),
             foot("f", R, 50, 20, 180), foot("g", P, 50, 8, command="left")]
    game = game_of(units)
    assert any("optional troop type" in m for _, m in game.ruleset.scenario_problems(game.scenario))
    game = game_of(units, clubmen=True)
    assert game.ruleset.scenario_problems(game.scenario) == []
    state = activation(game, P, "centre")
    assert act(game, state, Attack(attacker="c", target="t"), [3])[0].units["t"].own.hits == 1
    assert codes(game, state, Shoot(unit="c", target="f")) == ["core.CANNOT_ACT"]
    game2 = game_of([foot("c", P, 50, 8, traits=("clubmen",)), foot("f", R, 50, 18, 180)], clubmen=True)
    _, events = act(game2, activation(game2, R, "centre"), Shoot(unit="f", target="c"), [2, 1])
    assert "-1 target in cover (Clubmen count as in cover)" in resolved(events).modifiers


# --- Routing ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("limit", "routs_at"), [(8, 9), (6, 7)])
def test_units_rout_on_exceeding_8_hits_or_6_by_option(limit: int, routs_at: int) -> None:
    """Routing: "Units are considered routed and are removed when they exceed 8 hits." The
    author's comment: "It is 6 hits, but more often now ... after exceeding 8 hits"."""
    game = game_of([foot("f", P, 30, 8), horse("e", R, 30, 18, 180)], rout_after=limit)
    state = with_hits(activation(game, P, "centre"), "e", routs_at - 2)
    one, _ = act(game, state, Shoot(unit="f", target="e"), [1, 1])
    assert one.units["e"].in_play and piece(one.units["e"]).hits == routs_at - 1
    two, _ = act(game, state, Shoot(unit="f", target="e"), [2, 1])
    assert two.units["e"].removed == "routed"


# --- Commanders -------------------------------------------------------------------------------


def test_the_commander_cannot_move() -> None:
    """Commanders: "Once placed at the start of a game or when they arrive on the tabletop
    they cannot move." """
    game = game_of([foot("f", P, 10, 5), ENEMY], commanders=[commander("c", P, 30, 5, general=True)])
    state = activation(game, P, "commander")
    assert codes(game, state, Move(unit="c", waypoints=((30, 7),))) == ["movement.STATIONARY"]


def fleeing(flee_hits: str = "each unit") -> tuple[Game, GameState]:
    game = game_of([horse("h", P, 30, 10), foot("a", R, 50, 40, 180), foot("b", R, 55, 40, 180)],
                   commanders=[commander("c", R, 30, 20, general=True)], flee_hits=flee_hits)
    return game, activation(game, P, "right")


def test_a_commander_contacted_alone_flees_and_every_unit_takes_d3_minus_1() -> None:
    """Commanders: "If an enemy unit moves into contact with a commander alone they flee the
    battle and are removed from play. If a commander is forced to flee, all units
    immediately take D3-1 hits." Each unit rolls (option ``flee_hits``)."""
    game, state = fleeing()
    after, events = act(game, state, Move(unit="h", waypoints=((30, 17.49),)), [3, 1])
    assert after.units["c"].removed == "fled"
    assert (piece(after.units["a"]).hits, piece(after.units["b"]).hits) == (2, 0)
    assert rolls(events) == ["commander fled: a", "commander fled: b"]
    game, state = fleeing("one roll")
    after, _ = act(game, state, Move(unit="h", waypoints=((30, 17.49),)), [2])
    assert (piece(after.units["a"]).hits, piece(after.units["b"]).hits) == (1, 1)


def test_a_commander_with_his_troops_does_not_flee() -> None:
    """Commanders: only a commander "alone" flees: one touching his own unit stays."""
    game = game_of([horse("h", P, 30, 10), foot("a", R, 33.01, 21.5, 180)],
                   commanders=[commander("c", R, 30, 20, general=True)])
    after, _ = act(game, activation(game, P, "right"), Move(unit="h", waypoints=((30, 17.49),)))
    assert after.units["c"].in_play


# --- Weather ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("weather", "roll", "short"), [
    ("fair", 4, False), ("fair", 5, True), ("light-rain", 4, True), ("light-rain", 3, False),
    ("heavy-rain", 3, True), ("storm", 2, True), ("storm", 1, False)])
def test_rain_makes_ammunition_run_short_sooner(weather: str, roll: int, short: bool) -> None:
    """Weather: "Light Rain - Ammunition shortage on 4-6"; "Heavy Rain - ... on 3-6";
    "Storm - ... on a 2-6"."""
    game = game_of([foot("f", P, 30, 8), horse("e", R, 30, 18, 180)])
    state = activation(game, P, "centre", weather=weather)
    after, _ = act(game, state, Shoot(unit="f", target="e"), [1, roll])
    assert piece(after.units["f"]).out_of_ammo is short


def test_heavy_rain_bogs_the_guns_and_a_storm_halves_movement() -> None:
    """Weather: "Heavy Rain - ... artillery cannot move or pivot and become bogged";
    "Storm - ... all movement is halved and artillery is out of action for the remainder
    of the game." """
    game = game_of([unit("g", P, "artillery", 30, 8), horse("h", P, 50, 8), foot("e", R, 30, 25, 180)])
    rain = activation(game, P, "independent", weather="heavy-rain")
    assert codes(game, rain, Move(unit="g", waypoints=((30, 9),))) == ["d3.WEATHER"]
    assert codes(game, rain, Move(unit="g", face_before=10.0)) == ["d3.WEATHER"]
    assert codes(game, rain, Shoot(unit="g", target="e")) == []
    storm = activation(game, P, "independent", weather="storm")
    assert codes(game, storm, Shoot(unit="g", target="e")) == ["d3.WEATHER"]
    horse_storm = activation(game, P, "right", weather="storm")
    assert codes(game, horse_storm, Move(unit="h", waypoints=((50, 14),))) == []
    assert codes(game, horse_storm, Move(unit="h", waypoints=((50, 14.1),))) == ["movement.TOO_FAR"]


@pytest.mark.parametrize(("roll", "weather"), [(3, "fair"), (4, "light-rain"), (5, "heavy-rain"),
                                                (6, "storm")])
def test_weather_may_be_rolled(roll: int, weather: str) -> None:
    """Weather: the barometer of "With Pike and Musket" is not reproduced: option
    ``weather = "rolled"`` uses a D6 table (1-3 fair, 4 light rain, 5 heavy rain, 6 storm)."""
    game = game_of(TWO_COMMANDS, weather="rolled")
    state, events = game.start(ScriptedDice([roll]))
    assert state.value("weather") == weather
    told = [e.text for e in events if isinstance(e, Narrated)]
    assert f"The weather (a D6 of {roll}): {weather.replace('-', ' ')}" in told


def test_options_are_listed_with_bounds() -> None:
    """Every choice players could disagree about is a named option with bounds."""
    rules = get_ruleset(COMMANDS)
    names = {o["name"] for o in rules.describe()["options"]}
    assert {"rout_after", "royalist_horse_impetuous", "weather", "clubmen", "solo_shuffle",
            "commander_values", "pivot_cost", "deployment", "flee_hits"} <= names
    with pytest.raises(ValueError):
        get_ruleset(COMMANDS, weather="snow")
    with pytest.raises(ValueError):
        get_ruleset(COMMANDS, rout_after=0)
