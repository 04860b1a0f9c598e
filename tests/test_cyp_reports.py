"""Charge yr Pikes! beside the table: the turn in brief and a unit's card, morale reading
"untested" until the unit first tests."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tertia.ai.players import make_player
from tertia.battle import fight_battle
from tertia.cli.inspection import inspection, status_lines
from tertia.core.actions import EndPhase
from tertia.core.dice import Roll, ScriptedDice, SeededDice
from tertia.core.events import DiceRolled
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.io.narrative import Narrator
from tertia.offers import describe
from tertia.rulesets import get_ruleset, registered
from tertia.rulesets.charge_yr_pikes import army
from tertia.rulesets.charge_yr_pikes.actions import GiveFreeMove
from tertia.rulesets.charge_yr_pikes.cards import card_label
from tertia.rulesets.charge_yr_pikes.concealment import DeploymentDone
from tertia.rulesets.charge_yr_pikes.reports import CypPresentation, fright_words
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.tables import tables_of
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data
from tertia.scenarios import load_builtin
from tertia.web.live import LiveGame
from tertia.web.store import ActionRow, GameRow
from tests.golden import GoldenCase, fight

from .test_cyp_setup import scenario


def test_a_units_card_says_untested_until_it_tests_and_counts_its_figures() -> None:
    game = Game(ChargeYrPikes(secret_deployment=False), scenario())
    state, _ = game.start(ScriptedDice([4, 1, 1, 5]))
    card = game.piece(state, "k-foot")
    morale, figures = card.fact("morale"), card.fact("figures")
    weapons, stands = card.fact("weapons"), card.fact("stands")
    assert morale is not None and morale.value == "untested"
    assert figures is not None and (figures.value, figures.limit, figures.note) == (32, 32, None)
    assert weapons is not None and (weapons.value, weapons.value_words()) == (16, "16 pike, 16 shot")
    assert stands is not None and stands.value == 8
    assert "Morale: untested" in card.lines() and "Figures 32 of 32" in card.lines()
    tested = state.with_unit(state.units["k-foot"].evolve(morale=2, shot=13))
    card = game.piece(tested, "k-foot")
    morale, figures, weapons = card.fact("morale"), card.fact("figures"), card.fact("weapons")
    assert morale is not None and morale.value == 2
    assert figures is not None and (figures.value, figures.limit, figures.note) == (29, 32, "3 lost")
    assert weapons is not None and (weapons.value, weapons.value_words()) == (13, "16 pike, 13 shot")
    # Three shot stands still fire: the rules' figure, no longer on the card.
    assert unit_data(tested.units["k-foot"]).shot_firing_stands == 3
    grade = game.piece(state, "k-gen").fact("grade")
    assert grade is not None and str(grade.value).replace("_", " ") == "natural born leader"


def test_the_turn_in_brief_counts_no_cards_before_the_first_deck_is_shuffled() -> None:
    """While the armies deploy in secret no deck is made (Sequence of play 1 shuffles it
    as each turn begins): the brief gives no count of cards left, where it said 0."""
    game = Game(ChargeYrPikes(), load_builtin("naseby"))
    deploying, _ = game.start(SeededDice(1))
    assert deploying.turn == 0 and game.ruleset.presentation().summary(deploying)["cards_left"] is None
    begun, dice, player, rng = deploying, SeededDice(2), make_player("random"), random.Random(1)
    while begun.turn < 1:
        begun, _ = game.apply(begun, player.choose(game, begun, rng), dice)
    assert game.ruleset.presentation().summary(begun)["cards_left"] > 0


def test_the_turn_in_brief_names_the_card_and_who_may_move() -> None:
    game = Game(ChargeYrPikes(secret_deployment=False), scenario())
    state, _ = game.start(ScriptedDice([4, 1, 1, 5]))
    brief = game.ruleset.presentation().summary(state)
    assert brief["card"] == "group:k1:king" and brief["moving"] == ["k-foot"]
    assert brief["cards_left"] == 6 and brief["losses_percent"] == {"king": 0.0, "parl": 0.0}


def test_the_turn_in_brief_lists_each_point_with_its_holder_and_no_losses_of_an_army_unseen() -> None:
    """Naseby: each side's objectives and vital points with the side holding it; on a view
    hiding pieces of the enemy (secret deployment), the enemy's losses are not known
    (its unplaced pieces are off the table in the view, not lost)."""
    naseby = load_builtin("naseby")
    with registered(ChargeYrPikes):
        game = Game(ChargeYrPikes(secret_deployment=False), naseby)
        state, _ = game.start(SeededDice(1))
        brief = game.ruleset.presentation().summary(state)
        assert len(brief["points"]) == len(game.ruleset.table_of(naseby).points) > 0
        assert {p["held_by"] for p in brief["points"]} <= {None, *state.sides}
        assert any(p["held_by"] == p["side"] for p in brief["points"] if p["kind"] == "vital")
        assert brief["losses_percent"] == {side: 0.0 for side in state.sides}
        secret = Game(ChargeYrPikes(secret_deployment=True), naseby)
        hidden, _ = secret.start(SeededDice(1))
        first, second = hidden.sides
        seen = secret.ruleset.presentation().summary(secret.observed_state(hidden, first))
        assert seen["losses_percent"] == {first: 0.0, second: None}


def test_the_losses_shown_are_army_morales_until_the_battle_is_over_then_the_results() -> None:
    """The page's losses: while the battle goes on, the figures army morale counts (15 L);
    once it is over, the casualties the result counts (19 D, F), which count more (a
    routed unit whole), so that the page agrees with the result it shows."""
    naseby = load_builtin("naseby")
    with registered(ChargeYrPikes):
        game = Game(ChargeYrPikes(), naseby)
        record = fight_battle(game, {side: make_player("baseline") for side in naseby.side_ids}, 6)
        tables = tables_of(record.final_state)
        for state, counted, measure in ((record.steps[-2].state, army.fright_losses, "army_morale"),
                                        (record.final_state, army.final_losses, "result")):
            brief = game.ruleset.presentation().summary(state)
            assert brief["losses_counted"] == measure
            assert brief["losses_percent"] == {side: float(counted(state, side, tables).percent)
                                               for side in state.sides}
        over = record.final_state
        assert any(army.final_losses(over, s, tables).percent > army.fright_losses(over, s, tables).percent
                   for s in over.sides)


def _deploying_naseby() -> tuple[Game, GameState, dict[str, Any]]:
    """Naseby with secret deployment as it starts, and the summary its first side sees."""
    game = Game(ChargeYrPikes(secret_deployment=True), load_builtin("naseby"))
    state, _ = game.start(SeededDice(1))
    return game, state, game.ruleset.presentation().summary(game.observed_state(state, state.sides[0]))


def test_each_tertia_card_is_named_by_its_arms_and_commander_and_the_deploying_side_has_its_zone() -> None:
    """Naseby with secret deployment: the summary names each tertia's card as the players
    call it (its arms and its commander, the brigadier before the wing commander; the
    enemy's too, from the order of battle both know), and a unit's card its tertia so; while
    a side deploys the summary says where (its edge's half but the 12" by the centre line,
    there only towns and woods); once both are done, nowhere."""
    with registered(ChargeYrPikes):
        game, state, seen = _deploying_naseby()
        first, second = state.sides
        names = seen["card_names"]
        assert names["group:p-right:parliament"] == "Horse (Oliver Cromwell)"
        assert names["group:p-okey:parliament"] == "Dragoons (Colonel John Okey)"
        assert names["group:r-bastley:royalist"] == "Foot and horse (Sir Bernard Astley)"
        assert names["group:r-baggage:royalist"] == "Baggage"
        tertia = game.piece(state, "p-whalley-horse").fact("tertia")
        assert tertia is not None and tertia.value == "Horse (Oliver Cromwell)"
        assert seen["deploy_zone"] == {"side": first, "edge": "south", "centre_clear": 12.0,
                                       "cover": ["town", "woods"]}
        state, _ = game.apply(state, DeploymentDone(), SeededDice(2))
        assert game.ruleset.presentation().summary(state)["deploy_zone"]["side"] == second
        state, _ = game.apply(state, DeploymentDone(), SeededDice(2))
        assert game.ruleset.presentation().summary(state)["deploy_zone"] is None


def test_a_free_move_button_names_the_tertia_by_its_card_and_an_unknown_command_plainly() -> None:
    """The free move's button reads "The free move to Horse (Oliver Cromwell)", not the
    tertia's id; a command no piece belongs to keeps the plain words."""
    naseby = load_builtin("naseby")
    with registered(ChargeYrPikes):
        game = Game(ChargeYrPikes(secret_deployment=False), naseby)
        state, _ = game.start(SeededDice(1))
        assert describe(game.ruleset, state, GiveFreeMove(tertia="p-right")) == \
            "The free move to Horse (Oliver Cromwell)"
        plain = describe(game.ruleset, state, GiveFreeMove(tertia="nowhere"))
        assert plain == "The free move to the nowhere command"


def test_the_button_that_ends_a_card_or_step_says_what_it_finishes() -> None:
    """Sequence of play 3: "Done" finishes the card in play (named as the players call
    it), a fire step's orders or the bonus moves, and says which."""
    game = Game(ChargeYrPikes(), load_builtin("naseby"))
    record = fight_battle(game, {s: make_player("doctrine") for s in game.scenario.side_ids}, 3)
    told: dict[str, str] = {}
    for step in record.steps[:600]:
        g = game_data(step.state)
        words = describe(game.ruleset, step.state, EndPhase())
        if g.step is not None:
            told.setdefault(g.step, words)
        elif g.card is not None:
            assert words == f"Done with the {card_label(step.state, g.card)} card", words
            told.setdefault("card", words)
    assert told["standing_fire"] == "Done with the standing fire orders"
    assert told["artillery"] == "Done with the artillery orders"
    assert told["card"].startswith("Done with the ") and "_" not in told["card"]


def test_the_baggage_train_is_baggage_not_artillery_wherever_its_kind_is_named() -> None:
    """Unit Organizations C and 19 B: the wagons are the army's baggage. The engine counts
    them among the artillery; the piece card, the report's order of battle and a study's
    losses by type name them as the rule set does."""
    from tertia.analysis.sim.games import columns, make_spec
    from tertia.battle import BattleRecord
    from tertia.io.report import build_report_for

    naseby = load_builtin("naseby")
    game = Game(ChargeYrPikes(), naseby)
    state, _ = game.start(SeededDice(1))
    wagons = [u for u in state.units.values() if unit_data(u).troop == "wagons"]
    guns = [u for u in state.units.values() if unit_data(u).troop == "artillery"]
    assert wagons and guns
    assert {game.piece(state, u.id).kind_label for u in wagons} == {"baggage"}
    assert {game.piece(state, u.id).kind_label for u in guns} == {"artillery"}
    assert game.piece(state, wagons[0].id).to_dict()["kind_label"] == "baggage"
    # Drawn as wagons, not guns: the map and the report mark the base by the card's mark.
    assert {game.piece(state, u.id).mark for u in wagons} == {"wagon"}
    assert {game.piece(state, u.id).to_dict()["mark"] for u in guns} == {"artillery"}
    html = build_report_for(BattleRecord(game=game, seed=1, initial_state=state, start_events=()))
    assert f"<td>{wagons[0].label}</td><td>Baggage</td>" in html
    assert f"<td>{guns[0].label}</td><td>Artillery</td>" in html
    assert '<polygon class="baggage"' in html  # a wagon bed drawn on each wagon's base
    spec = make_spec("naseby", naseby, "charge-yr-pikes")
    side = wagons[0].side
    assert spec.fielded[side]["baggage"] == len(wagons)
    assert spec.fielded[side]["artillery"] == len([u for u in guns if u.side == side])
    assert f"lost_{side}_baggage" in columns(spec)


def _with_parl_lost(state: GameState, lost: int) -> GameState:
    """Parliament's one regiment of foot (32 figures) with ``lost`` shot down."""
    foot = state.units["p-foot"]
    return state.with_unit(foot.evolve(shot=unit_data(foot).shot - lost))


def test_each_army_is_told_the_roll_that_brings_fright_at_the_turns_end_as_army_morale_reckons_it() -> None:
    """15 L, "Effects on the entire army": the summary, ``tertia inspect``'s army morale
    line and the page's chip give each side the D10 it needs for fright this turn and the
    chance of it, from the engine's own test: 9% lost needs 11+, which no face of the D10
    reaches ("Morale steady 1-10": steady on any roll), 25% 10+, 50% frightens without a
    roll."""
    game = Game(ChargeYrPikes(secret_deployment=False), scenario())
    state, _ = game.start(ScriptedDice([4, 1, 1, 5]))
    tables = tables_of(state)
    for lost, roll, chance, words in ((3, 11, 0.0, "steady on any roll"), (8, 10, 0.1, "fright on 10+, 10%"),
                                      (16, None, 1.0, "takes fright without a roll")):
        hurt = _with_parl_lost(state, lost)
        odds = game.ruleset.presentation().summary(hurt)["fright_odds"]["parl"]
        test = army.fright_test(hurt, "parl", tables)
        assert (odds["roll"], odds["chance"], odds["words"]) == (roll, chance, words)
        assert (test.roll, float(test.chance)) == (roll, chance)
        lines = [line.plain for line in status_lines(inspection(game, hurt, [], None))]
        assert any(line.startswith("Army morale: ") and f"({words})" in line for line in lines), lines


def test_vital_points_lost_lower_the_roll_that_brings_fright() -> None:
    """"+1 if one vital point is lost, +2 if two": at 30% lost the chart's 9+ is a roll of
    7+ with two lost, three chances in ten becoming five."""
    test = army.FrightTest(army.ArmyLosses("king", lost=30, strength=100), vital_lost=2, modifier=2, needed=9)
    assert (test.roll, test.chance) == (7, Fraction(2, 5))
    assert fright_words(test) == "fright on 7+, 40%"


def test_a_roll_beyond_the_die_is_told_as_steady_and_one_vital_point_lost_brings_it_within_reach() -> None:
    """Under a fifth lost the chart's 11+ lies beyond the D10: no roll brings fright, and
    the words say so rather than "fright on 11+, 0%"; a vital point lost (+1) makes it a
    roll of 10."""
    tenth = army.ArmyLosses("king", lost=10, strength=100)
    steady = army.FrightTest(tenth, vital_lost=0, modifier=0, needed=11)
    assert (steady.roll, steady.chance) == (11, 0)
    assert fright_words(steady) == "steady on any roll"
    one_lost = army.FrightTest(tenth, vital_lost=1, modifier=1, needed=11)
    assert fright_words(one_lost) == "fright on 10+, 10%"


def test_the_fright_odds_of_an_army_unseen_are_not_known_and_none_are_given_once_the_battle_is_over() -> None:
    """On a view hiding pieces of the enemy (secret deployment) the enemy's odds are
    worked out from nothing the viewer does not see: none are given; once the battle is
    over no army tests again."""
    with registered(ChargeYrPikes):
        secret, hidden, seen = _deploying_naseby()
        first, second = hidden.sides
        naseby = secret.scenario
        assert seen["fright_odds"][second] is None
        assert seen["fright_odds"][first]["words"] == "steady on any roll"
        record = fight_battle(secret, {side: make_player("baseline") for side in naseby.side_ids}, 6)
        assert secret.ruleset.presentation().summary(record.final_state)["fright_odds"] == {}


def test_an_officer_is_titled_by_his_rank_and_a_fallen_one_is_lost_not_destroyed() -> None:
    """Section 22's ranks read as titles ("Wing commander Sir James Ramsay", not "Wing Sir
    James Ramsay"); a man swept away with his unit is lost, as a unit is destroyed."""
    from tertia.core.events import UnitRemoved
    from tertia.io.narrative import Narrator

    game = Game(ChargeYrPikes(secret_deployment=False), scenario())
    state, _ = game.start(ScriptedDice([4, 1, 1, 5]))
    shows = game.ruleset.presentation()
    general = state.units["k-gen"]
    titles = {rank: shows.title(state, general.evolve(rank=rank))
              for rank in ("army", "wing", "brigadier", "staff")}
    assert titles == {"army": "General", "wing": "Wing commander", "brigadier": "Brigadier",
                      "staff": "Staff officer"}
    wing = state.with_unit(general.evolve(rank="wing"))
    narrator = Narrator.for_rules(game.ruleset, wing, side_names=game.side_names)
    [line] = narrator.lines([UnitRemoved(unit="k-gen", reason="destroyed")])
    assert line == f"Wing commander {general.label} is lost"


TOLD_AS_THE_TEST = {
    "half hit confirmed: Lord Brooke's Regiment of Foot": "Half hit: Lord Brooke's Regiment of Foot",
    "galloper's gunners hit instead: Galloper (Holles)": "Galloper's gunners: Galloper (Holles)",
    "officer falls: Sir Jacob Astley": "Officer's fate: Sir Jacob Astley",
    "silenced battery rallies: The Royal Train": "Silenced battery's rally: The Royal Train",
}


@pytest.mark.parametrize(("purpose", "told"), TOLD_AS_THE_TEST.items())
def test_a_die_whose_purpose_reads_as_an_outcome_is_told_by_its_test(purpose: str, told: str) -> None:
    """An officer's D10 is rolled whether or not he falls (10 kills or wounds him): the log
    tells "Officer's fate: X", not "Officer falls: X", whatever the die shows; so do the
    other three such dice. Another rule set tells the same purpose as it is given."""
    rolled = DiceRolled(purpose=purpose, die="d10", value=3)
    [line] = Narrator.for_rules(ChargeYrPikes()).lines([rolled])
    assert line == f"Dice — {told[:1].lower()}{told[1:]}: 3 (d10)"
    [plain] = Narrator.for_rules(get_ruleset("larger-battles")).lines([rolled])
    assert plain == f"Dice — {purpose}: 3 (d10)"


def test_the_openings_told_otherwise_are_those_the_rules_roll() -> None:
    """Each purpose the presentation words anew is one the rules still give a die (a
    purpose reworded in the rules would leave its words behind unused)."""
    sources = "".join(p.read_text() for p in Path(army.__file__).parent.glob("*.py"))
    for opening in CypPresentation.DICE_WORDS:
        assert f'f"{opening}{{' in sources, opening


def test_a_silenced_batterys_rally_is_told_so_on_the_page_and_recorded_as_rolled() -> None:
    """Edgehill, seed 3 (the golden transcript's battle): the battery silenced on turn 5
    rolls to rally. The record keeps the purpose the rules gave the die, so the game
    rebuilt from it on the server replays; the page's log entry tells the die as the
    rally it decides."""
    record = fight(GoldenCase("edgehill", "charge-yr-pikes", 3))
    rows, index = [], None
    for number, step in enumerate(record.steps, start=1):
        rolls = tuple(Roll(e.purpose, e.die, e.value) for e in step.events if isinstance(e, DiceRolled))
        rows.append(ActionRow(number, step.side, step.action.to_dict(), rolls, bool(rolls)))
        if index is None and any(r.purpose.startswith("silenced battery rallies: ") for r in rolls):
            index = number
    assert index is not None, "no silenced battery rallied in this battle"
    start = tuple(Roll(e.purpose, e.die, e.value) for e in record.start_events if isinstance(e, DiceRolled))
    row = GameRow(id="g", created=0.0, scenario="edgehill", rules="charge-yr-pikes",
                  options={}, seed=3, mode="hotseat", controllers={},
                  start_rolls=start, rules_version=record.game.ruleset.version)
    live = LiveGame.rebuild(row, record.game, rows[:index])
    told = [d["purpose"] for d in live.log_entry(index, record.steps[index - 1].side)["dice"]]
    assert any(p.startswith("silenced battery's rally: ") for p in told), told
    assert not any("rallies" in p for p in told), told
