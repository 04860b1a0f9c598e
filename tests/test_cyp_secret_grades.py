"""Charge yr Pikes! officers' values under the note (section 22): "Keep their values under
a note and only reveal them to the enemy when the officer is first called on to exert
himself." Rolled in secret, shown at the first roll each is read for (command response,
morale, close combat, plunder), a placeholder in the enemy's observation and out of its
log, sampled on the rank's line by a player, averaged over by the odds asked from an
observation; two games differing only in what a side cannot see look the same to it."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from tertia.ai.random_player import RandomPlayer
from tertia.analysis.enumerate import enumerate_branches
from tertia.analysis.odds import odds
from tertia.battle import fight_battle
from tertia.core.actions import EndPhase
from tertia.core.dice import Distribution, ScriptedDice, SeededDice
from tertia.core.events import DiceRolled, Event
from tertia.core.game import Game
from tertia.core.hidden import HiddenInformation, hidden, view_of
from tertia.core.presentation import PieceCard
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rulesets import registered
from tertia.rulesets.charge_yr_pikes import concealment
from tertia.rulesets.charge_yr_pikes import secret_grades as sg
from tertia.rulesets.charge_yr_pikes.ai.doctrine import CypDoctrine, odds_good
from tertia.rulesets.charge_yr_pikes.ai.proposals import iter_proposals
from tertia.rulesets.charge_yr_pikes.command import ResponseDie, respond, response_table
from tertia.rulesets.charge_yr_pikes.data import CypGame
from tertia.rulesets.charge_yr_pikes.events import CommandResponded
from tertia.rulesets.charge_yr_pikes.melee import resolve
from tertia.rulesets.charge_yr_pikes.melee_dice import Fighter
from tertia.rulesets.charge_yr_pikes.morale import MoraleTested, morale_test, rally_routed
from tertia.rulesets.charge_yr_pikes.plunder import obeys
from tertia.rulesets.charge_yr_pikes.reports import NOT_SHOWN
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes, tables_of
from tertia.rulesets.charge_yr_pikes.scenario_table import PikesTable
from tertia.rulesets.charge_yr_pikes.sequence import roll_grades
from tertia.rulesets.charge_yr_pikes.setup import pieces
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data
from tertia.scenarios import load_builtin

from . import cyp_melee_support as melee
from . import cyp_morale_support as m
from .test_cyp_setup import scenario

T = default_tables()
RULES = ChargeYrPikes(secret_deployment=False)
NBL, E, IN = "natural_born_leader", "effective", "ineffective"


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    with registered(ChargeYrPikes):
        yield


def _state(extension: dict[str, Any] | None = None) -> GameState:
    """The test scenario's pieces (no grades yet), in the movement phase."""
    s = scenario(extension)
    units = pieces(s, PikesTable.model_validate(s.extensions.get("charge-yr-pikes", {})))
    return GameState(("king", "parl"), 1, "king", "movement", units, own=CypGame())


def _graded(state: GameState, uid: str, grade: str | None, *, secret: bool = True) -> GameState:
    return state.with_unit(state.units[uid].evolve(grade=grade, grade_secret=secret))


def _with_parl_officer(state: GameState, grade: str = NBL, *, secret: bool = True,
                       attached_to: str | None = "p-foot") -> GameState:
    foot = state.units["p-foot"]
    colonel = m.officer("p-col", "parl", foot.x, foot.y, attached_to=attached_to).evolve(command="p1")
    return _graded(state.with_unit(colonel), "p-col", grade, secret=secret)


def _kinds(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def _revealed(events: list[Event]) -> list[tuple[str, str, str]]:
    return [(e.officer, e.grade, e.why) for e in events if isinstance(e, sg.GradeRevealed)]


# --- rolled under the note ----------------------------------------------------------------


def test_each_value_is_rolled_under_the_note_and_one_the_scenario_fixes_is_known() -> None:
    # Section 22 A: the army's general rolls a 4 on the army line: natural born leader;
    # the brigadier's value the scenario fixes is not rolled, and both sides know it.
    state = _state({"officers": [{"commander": "k-brig", "rank": "brigadier", "grade": "effective"}]})
    tx = Tx(scenario().build_battlefield(), state, ScriptedDice([4]))
    roll_grades(tx, T)
    gen, brig = unit_data(tx.state.units["k-gen"]), unit_data(tx.state.units["k-brig"])
    assert (gen.grade, gen.grade_secret) == (T.officer_grades["army"][3], True)
    assert (brig.grade, brig.grade_secret) == (E, False)
    die, rolled = tx.events
    assert isinstance(die, DiceRolled) and die.purpose == "officer's value (king): k-gen"
    assert rolled == sg.GradeRolled(officer="k-gen", side="king", grade=NBL)
    # His own side sees the die and the value; the enemy sees neither.
    assert all(RULES.event_visible_to(e, "king") for e in tx.events)
    assert not any(RULES.event_visible_to(e, "parl") for e in tx.events)


@pytest.mark.parametrize("rank", ["army", "wing", "brigadier", "staff"])
def test_a_face_gives_its_ranks_value_and_the_roll_is_the_tables_distribution(rank: str) -> None:
    line = T.officer_grades["brigadier" if rank == "staff" else rank]  # type: ignore[index]
    assert [sg.grade_on(line, face) for face in range(1, 7)] == list(line)
    # The roll itself, walked exactly: each value as often as the line holds it, and one
    # branch per value (the face is only compared, never used as an index).
    state = _state().with_unit(m.officer("o", "king", 1.0, 1.0, rank=rank))

    def run(dice: Any) -> str:
        return sg.roll_grade(Tx(scenario().build_battlefield(), state, dice), "o")

    branches = enumerate_branches(run)
    assert {b.result: b.probability for b in branches} == \
        {g: Fraction(n, 6) for g, n in Counter(line).items()}
    assert len(branches) == len(set(line))


# --- shown when first called on ------------------------------------------------------------


def test_an_officer_testing_command_response_is_shown_before_his_die_even_to_the_enemy() -> None:
    # The cards and their rolls are on the open table: his own side's response shows him.
    # Effective fails on 9: no move.
    state = _graded(_state(), "k-gen", E)
    tx = Tx(scenario().build_battlefield(), state, ScriptedDice([9, 9]))
    table = response_table(T, graded=True)
    respond(tx, "king:k1", [ResponseDie(state.units["k-gen"], ("k-foot",))], table, graded=True)
    assert _kinds(tx.events) == ["GradeRevealed", "DiceRolled", "CommandResponded"]
    assert _revealed(tx.events) == [("k-gen", E, sg.COMMAND)]
    assert [e.obeyed for e in tx.events if isinstance(e, CommandResponded)] == [False]
    assert not unit_data(tx.state.units["k-gen"]).grade_secret
    assert all(RULES.event_visible_to(e, side) for e in tx.events for side in ("king", "parl"))
    # Once shown, never again.
    respond(tx, "king:k1", [ResponseDie(tx.state.units["k-gen"], ("k-foot",))], table, graded=True)
    assert len(_revealed(tx.events)) == 1


def test_without_grades_and_without_an_officer_nothing_is_shown() -> None:
    state = _graded(_state(), "k-gen", E)
    tx = Tx(scenario().build_battlefield(), state, ScriptedDice([9, 3]))
    respond(tx, "king:k1", [ResponseDie(state.units["k-gen"], ("k-foot",))],
            response_table(T, graded=False), graded=False)
    respond(tx, "king:k1", [ResponseDie(None, ("k-foot",))], response_table(T, graded=True), graded=True)
    assert _revealed(tx.events) == [] and unit_data(tx.state.units["k-gen"]).grade_secret


def _led(grade: str = NBL, **foot: Any) -> GameState:
    """Parliament's foot (rating 3) led by a brigadier of ``grade`` under the note; the
    king's foot beside it with none."""
    values = {"morale": 3, "morale_max": 3, **foot}
    return m.state_of(m.troop("f", m.PARL, 20.0, 30.0, **values), m.troop("k", m.KING, 40.0, 10.0, **values),
                      _graded_unit(m.officer("o", m.PARL, 20.0, 30.0, attached_to="f"), grade))


def _graded_unit(unit: Unit, grade: str) -> Unit:
    return unit.evolve(grade=grade, grade_secret=True)


def test_a_morale_test_shows_the_front_rank_officer_before_its_die() -> None:
    # 3 + 1 + 2 (natural born leader) = 6: passes on his bonus, and so he is shown.
    tx = m.tx_with(_led(NBL), 1)
    assert morale_test(tx, T, "f", "fired on").passed
    assert _kinds(tx.events) == ["GradeRevealed", "DiceRolled", "MoraleTested"]
    assert _revealed(tx.events) == [("o", NBL, sg.MORALE)]
    tested = next(e for e in tx.events if isinstance(e, MoraleTested))
    assert ("officer", 2) in tested.modifiers


def test_an_ineffective_officer_is_shown_too_and_a_unit_without_one_shows_nothing() -> None:
    # His +0 changes nothing, but his value was looked at for the roll.
    tx = m.tx_with(_led(IN), 1, 6)
    assert not morale_test(tx, T, "f", "fired on").passed
    assert _revealed(tx.events) == [("o", IN, sg.MORALE)]
    morale_test(tx, T, "k", "fired on")
    assert len(_revealed(tx.events)) == 1


def test_a_rally_shows_him() -> None:
    tx = m.tx_with(_led(E, formation="routed", routed_turn=1).evolve(turn=2), 2)
    rallied = rally_routed(tx, T, "f")
    assert rallied is not None and rallied.rallied  # 3 + 2 + 1 = 6
    assert _revealed(tx.events) == [("o", E, sg.MORALE)]


def test_close_combat_shows_both_sides_officers_before_each_sides_dice() -> None:
    state = melee.state_of(
        melee.piece("h", "king", "horse", 20.0, 10.0), melee.piece("f", "parl", "foot", 20.0, 12.0, 180.0),
        _graded_unit(melee.officer("kh", "king", "h"), E),
        _graded_unit(melee.officer("pf", "parl", "f"), NBL))
    fighters = (Fighter("h", ("f",), True), Fighter("f", ("h",), False))
    # 18 and 13: the officers' D10s (1: neither falls), the plunder test.
    tx = melee.tx_with(state, 18, 13, 1, 1, 4)
    result = resolve(tx, T, fighters, melee.Morale())
    assert _kinds(tx.events)[:4] == ["GradeRevealed", "DiceRolled", "GradeRevealed", "DiceRolled"]
    assert _revealed(tx.events) == [("kh", E, sg.CLOSE_COMBAT), ("pf", NBL, sg.CLOSE_COMBAT)]
    # His dice are in the roll: 5 stands + 1, 6 stands + 2.
    assert [e.die for e in tx.events if isinstance(e, DiceRolled)][:2] == ["6d6", "8d6"]
    assert result.winner == "king"


def test_a_horse_units_plunder_obedience_shows_its_officer() -> None:
    state = melee.state_of(melee.piece("h", "king", "horse", 20.0, 10.0),
                           _graded_unit(melee.officer("kh", "king", "h"), E))
    tx = melee.tx_with(state, 4)
    obeys(tx, T, "h")
    assert _revealed(tx.events) == [("kh", E, sg.PLUNDER)]
    tx = melee.tx_with(state, 4)
    obeys(tx, T, "h", graded=False)  # grades off: his rank's bonus, his value unread
    assert _revealed(tx.events) == []


# --- what each side sees --------------------------------------------------------------------


def _secrets() -> GameState:
    """The king's general under the note, his brigadier shown; Parliament's colonel under
    the note."""
    state = _graded(_graded(_state(), "k-gen", NBL), "k-brig", IN, secret=False)
    return _with_parl_officer(state, E)


def test_the_enemy_sees_a_placeholder_until_he_is_shown_and_his_own_side_always_sees_him() -> None:
    state, table = _secrets(), scenario().build_battlefield()
    king, parl = RULES.observed_state(table, state, "king"), RULES.observed_state(table, state, "parl")
    assert view_of(king) == "king" and view_of(parl) == "parl"
    assert unit_data(king.units["p-col"]).grade == hidden("officer grade")
    assert [unit_data(king.units[u]).grade for u in ("k-gen", "k-brig")] == [NBL, IN]
    assert [unit_data(parl.units[u]).grade for u in ("k-gen", "k-brig", "p-col")] == \
        [hidden("officer grade"), IN, E]
    # Shown, it is no secret: nothing is hidden from either side.
    shown = _graded(_graded(state, "k-gen", NBL, secret=False), "p-col", E, secret=False)
    assert RULES.observed_state(table, shown, "king") is shown
    assert RULES.observed_state(table, shown, "parl") is shown


def test_a_view_cannot_be_played_on_and_its_card_does_not_name_the_value() -> None:
    game = Game(RULES, scenario())
    view = game.observed_state(_secrets(), "parl")
    with pytest.raises(HiddenInformation):
        game.validate(view, EndPhase())
    table, shows = game.table, RULES.presentation()
    assert _grade_shown(shows.piece(table, view, "k-gen", "parl")) == NOT_SHOWN
    assert _grade_shown(shows.piece(table, view, "k-brig", "parl")) == _words(IN)
    assert "Value: not yet shown" in shows.piece(table, view, "k-gen", "parl").lines()
    # The same worked out from the whole position for each side, and the referee's card.
    assert _grade_shown(game.piece(_secrets(), "k-gen", "parl")) == NOT_SHOWN
    assert _grade_shown(game.piece(_secrets(), "k-gen", "king")) == _words(NBL)  # his own side
    assert _grade_shown(game.piece(_secrets(), "k-gen")) == _words(NBL)  # the referee's card
    assert _grade_shown(game.piece(_secrets(), "p-col", "king")) == NOT_SHOWN
    assert _grade_shown(game.piece(_secrets(), "p-col", "parl")) == _words(E)


def _words(grade: str) -> str:
    return grade.replace("_", " ")


def _grade_shown(card: PieceCard) -> str:
    """The officer's value as his card reads it (its identifier's underscores as spaces)."""
    grade = card.fact("grade")
    assert grade is not None
    return _words(grade.value_words())


class _Faces(random.Random):
    """A stream whose D6 faces are given."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = faces

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6)
        return self.faces.pop(0)


def test_a_sample_draws_each_placeholder_on_its_ranks_line_and_keeps_all_else() -> None:
    table = scenario().build_battlefield()
    state = _graded(_secrets(), "k-brig", IN)  # now under the note too
    view = RULES.observed_state(table, state, "parl")
    line = {"k-gen": T.officer_grades["army"], "k-brig": T.officer_grades["brigadier"]}
    for face in range(1, 7):
        sample = RULES.sample_hidden(table, view, "parl", _Faces([face, face]))  # ids in order
        assert view_of(sample) is None
        assert [unit_data(sample.units[u]).grade for u in ("k-brig", "k-gen")] == \
            [line["k-brig"][face - 1], line["k-gen"][face - 1]]
        assert RULES.observed_state(table, sample, "parl") == view
    # And drawn with the stream's chances: the army line's values, over many samples.
    seen = Counter(unit_data(RULES.sample_hidden(table, view, "parl", random.Random(i)).units["k-gen"]).grade
                   for i in range(3000))
    for grade, n in Counter(line["k-gen"]).items():
        p = n / 6
        assert abs(seen[grade] / 3000 - p) < 4 * (p * (1 - p) / 3000) ** 0.5


def test_the_roll_and_the_secret_value_are_out_of_the_enemys_log_and_its_showing_in_both() -> None:
    rolled = sg.GradeRolled(officer="k-gen", side="king", grade=NBL)
    die = DiceRolled(purpose="officer's value (king): k-gen", die="d6", value=4)
    fixed = sg.GradeRolled(officer="k-gen", side="king", grade=NBL, secret=False)
    shown = sg.GradeRevealed(officer="k-gen", side="king", grade=NBL, why=sg.MORALE)
    other = DiceRolled(purpose="morale: k-foot (fired on)", die="d6", value=4)
    assert [RULES.event_visible_to(e, "parl") for e in (rolled, die, fixed, shown, other)] == \
        [False, False, True, True, True]
    assert all(RULES.event_visible_to(e, "king") for e in (rolled, die, fixed, shown, other))


# --- odds asked from an observation ---------------------------------------------------------


def _odds_position() -> tuple[Game, GameState]:
    """Parliament's foot, rating 2, led by a brigadier whose value the king has not seen."""
    game = Game(RULES, scenario())
    state = RULES.initial_state(game.scenario).evolve(turn=1, phase="movement")
    foot = state.units["p-foot"]
    state = state.with_unit(foot.evolve(own=unit_data(foot).evolve(morale=2, morale_max=2)))
    return game, _with_parl_officer(state, NBL)


def _passes(game: Game, state: GameState) -> Fraction:
    ready, question = game.ruleset.query(state, "morale", "p-foot", "k-foot")
    return Fraction(odds(game, ready, question).summary["attacker_passed_exact"])


def test_odds_asked_from_an_observation_average_over_the_value_not_yet_shown() -> None:
    # 2 + D6 + bonus passes at six: ineffective 3/6, effective 4/6, natural born leader
    # 5/6. The true position (NBL) says 5/6; the king, who has not seen him, is told the
    # average over the brigadier's line.
    game, state = _odds_position()
    line = T.officer_grades["brigadier"]
    by_grade = {g: _passes(game, _graded(state, "p-col", g)) for g in set(line)}
    assert by_grade == {IN: Fraction(3, 6), E: Fraction(4, 6), NBL: Fraction(5, 6)}
    view = game.observed_state(state, "king")
    seen = _passes(game, view)
    assert seen == sum(by_grade[g] for g in line) / 6 != _passes(game, state)
    # The same from a twin whose colonel is ineffective: the king's odds do not know.
    assert _passes(game, game.observed_state(_graded(state, "p-col", IN), "king")) == seen
    # Parliament sees its own colonel: its odds are the true ones.
    assert _passes(game, game.observed_state(state, "parl")) == by_grade[NBL]
    ready, question = game.ruleset.query(view, "morale", "p-foot", "k-foot")
    assert any("p-col proves to be natural born leader" in o.description
               for o in odds(game, ready, question).outcomes)


def test_a_view_hiding_more_than_grades_is_left_a_view_for_the_odds() -> None:
    game, state = _odds_position()
    view = game.observed_state(state, "king")
    assert view_of(sg.as_dice(view)) is None
    more = view.with_unit(view.units["k-foot"].evolve(extra={"where": hidden("position")}))
    assert view_of(sg.as_dice(more)) == "king"


# --- the difference test: two games differing only in a secret -----------------------------


def _naseby_positions(seed: int, every: int = 9) -> tuple[Game, list[GameState]]:
    game = Game(RULES, load_builtin("naseby"))
    record = fight_battle(game, {s: CypDoctrine() for s in game.scenario.side_ids}, seed)
    states = [record.initial_state, *(s.state for s in record.steps)]
    return game, [s for s in states[::every] if not s.is_over]


def _twin(state: GameState, hider: str) -> GameState:
    """``state`` with every unrevealed value of ``hider``'s officers changed."""
    twin = state
    for u in state.units.values():
        own = unit_data(u)
        if u.side == hider and own.grade_secret:
            twin = twin.with_unit(u.evolve(grade=NBL if own.grade != NBL else IN))
    return twin


def _pieces_seen(game: Game, state: GameState, viewer: str) -> dict[str, PieceCard]:
    """Every piece as ``viewer``'s side is shown it."""
    return RULES.presentation().pieces(game.table, game.observed_state(state, viewer), viewer)


@pytest.mark.parametrize("seed", [1, 2])
def test_two_games_differing_only_in_unshown_values_look_the_same_to_the_other_side(seed: int) -> None:
    game, states = _naseby_positions(seed)
    compared = 0
    for state in states:
        for viewer in state.sides:
            hider = state.opponent(viewer)
            twin = _twin(state, hider)
            if twin == state:
                continue
            compared += 1
            assert game.observed_state(state, viewer) == game.observed_state(twin, viewer)
            assert game.observe(state, viewer) == game.observe(twin, viewer)
            assert RULES.presentation().summary(game.observed_state(state, viewer)) == \
                RULES.presentation().summary(game.observed_state(twin, viewer))
            assert _pieces_seen(game, state, viewer) == _pieces_seen(game, twin, viewer)
            for i in range(3):
                assert game.playable_state(state, viewer, i) == game.playable_state(twin, viewer, i)
            if state.to_act != viewer:
                continue
            tried = iter_proposals(game, state, random.Random(seed))
            assert tried == iter_proposals(game, twin, random.Random(seed))
            for action in tried[:60]:
                assert game.validate(state, action) == game.validate(twin, action)
            assert CypDoctrine().choose(game, state, random.Random(seed)) == \
                CypDoctrine().choose(game, twin, random.Random(seed))
            assert RandomPlayer().choose(game, state, random.Random(seed)) == \
                RandomPlayer().choose(game, twin, random.Random(seed))
    assert compared >= 5  # the check can fail: there were secrets to keep


def test_a_playable_state_is_the_sampled_view() -> None:
    game, states = _naseby_positions(3, every=25)
    for i, state in enumerate(states):
        for side in state.sides:
            composed = game.sample_hidden(game.observed_state(state, side), side, random.Random(i))
            assert game.playable_state(state, side, i) == composed


class _OtherValues:
    """Seeded dice, save that ``side``'s officers' values roll other faces: the stream
    goes on as it would."""

    def __init__(self, seed: int, side: str) -> None:
        self.dice = SeededDice(seed)
        self.prefix = f"{sg.ROLL} ({side}):"

    def roll(self, dist: Distribution, purpose: str) -> int:
        face = self.dice.roll(dist, purpose)
        return face % 6 + 1 if purpose.startswith(self.prefix) else face


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_log_and_view_are_the_same_until_an_officer_is_shown(seed: int) -> None:
    # Two games of Naseby whose Parliamentarian officers' values were rolled otherwise:
    # until the first of them is shown, the king's side reads the same log and sees the
    # same position.
    game = Game(RULES, load_builtin("naseby"))
    king, parl = game.scenario.side_ids
    one, two = SeededDice(seed), _OtherValues(seed, parl)
    (a, a_events), (b, b_events) = game.start(one), game.start(two)
    assert a != b
    players = {s: (CypDoctrine(), CypDoctrine(), random.Random(seed)) for s in (king, parl)}
    while True:
        cut_a, cut_b = _until_shown(a_events, parl), _until_shown(b_events, parl)
        assert [e for e in cut_a if RULES.event_visible_to(e, king)] == \
            [e for e in cut_b if RULES.event_visible_to(e, king)]
        assert len(cut_a) == len(cut_b)
        if len(cut_a) < len(a_events) or a.is_over:
            break
        assert game.observe(a, king) == game.observe(b, king)
        first, second, rng = players[a.to_act]
        saved = rng.getstate()
        action = first.choose(game, a, rng)
        rng.setstate(saved)
        assert second.choose(game, b, rng) == action
        (a, a_events), (b, b_events) = game.apply(a, action, one), game.apply(b, action, two)
    assert any(isinstance(e, sg.GradeRevealed) and e.side == parl for e in a_events)


def _until_shown(events: list[Event], side: str) -> list[Event]:
    for i, e in enumerate(events):
        if isinstance(e, sg.GradeRevealed) and e.side == side:
            return events[:i]
    return events


def test_the_doctrine_player_charges_on_what_it_sees_not_on_the_true_value() -> None:
    # The king's horse may charge Parliament's disordered foot, whose colonel it has not
    # seen. Whether the odds look good depends on his dice (the horse's 5 against the
    # foot's 5, or 7 with a natural born leader); the player's choice is the same
    # whatever he truly is.
    game = Game(RULES, scenario())
    state = RULES.initial_state(game.scenario).evolve(turn=1, phase="movement")
    horse, foot = state.units["k-horse"], state.units["p-foot"]
    state = state.with_unit(foot.evolve(x=horse.x, y=horse.y + 10.0,
                                        own=unit_data(foot).evolve(disordered=True)))
    state = _with_parl_officer(state, NBL)
    g = game_data(state)
    state = state.evolve(own=g.evolve(card="group:k2:king", moving=("k-horse",)), active="king")
    tables = tables_of(state)
    good = {grade: odds_good(game, _graded(state, "p-col", grade), state.units["k-horse"],
                             state.units["p-foot"], tables) for grade in (IN, NBL)}
    assert good == {IN: True, NBL: False}  # on the true position the value decides
    chosen = {CypDoctrine().choose(game, _graded(state, "p-col", grade), random.Random(1))
              for grade in (IN, E, NBL)}
    assert len(chosen) == 1


def _unplaced(state: GameState, *pieces: str) -> GameState:
    for uid in pieces:
        unit = state.units[uid]
        state = state.with_unit(unit.evolve(own=unit_data(unit).evolve(placed=False)))
    return state


@pytest.mark.parametrize("hidden_too", [(), ("k-foot",)])
def test_a_hidden_officers_response_for_units_in_sight_is_rolled_in_the_open(
        hidden_too: tuple[str, ...]) -> None:
    """Section 22 and Sequence of play B: the king's general is not yet placed. Rolling
    command response for a foot regiment the enemy sees, the die and its result are on
    the open table, so his value is shown (his place is not); for a regiment hidden too,
    the roll is out of the enemy's sight and his value stays under the note."""
    state = _unplaced(_graded(_state(), "k-gen", E), "k-gen", *hidden_too)
    tx = Tx(scenario().build_battlefield(), state, ScriptedDice([9]))
    respond(tx, "king:k1", [ResponseDie(state.units["k-gen"], ("k-foot",))], response_table(T, graded=True),
            graded=True)
    concealment.conceal_events(tx, state, 0)
    seen = [e for e in tx.events if RULES.event_visible_to(e, "parl")]
    if hidden_too:
        assert _revealed(tx.events) == [] and unit_data(tx.state.units["k-gen"]).grade_secret
        assert seen == []  # neither the die nor the response
    else:
        assert _revealed(seen) == [("k-gen", E, sg.COMMAND)]
        assert _kinds(seen) == ["GradeRevealed", "DiceRolled", "CommandResponded"]
        assert unit_data(tx.state.units["k-gen"]).placed is False  # shown his worth, not his place
