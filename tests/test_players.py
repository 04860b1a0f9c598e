"""Players by name: the registry, ``tertia players``, and ``--player SIDE=NAME`` on
``battle``, ``simulate`` and ``sweep``; every registered player plays every rule set."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tertia.ai import players as registry
from tertia.ai.doctrine import DoctrinePlayer
from tertia.ai.players import (
    DEFAULT_PLAYER,
    UnknownPlayer,
    choose_players,
    make_player,
    player_names,
    register_player,
)
from tertia.ai.random_player import RandomPlayer
from tertia.analysis.sim.storage import read_rows
from tertia.battle import BattleAborted, Step, fight_battle
from tertia.cli.main import app
from tertia.core.actions import Action
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios import resolve_scenario
from tertia.scenarios.catalogue import default_scenario
from tests.table_checks import table_problems

runner = CliRunner()
SIDES = ("parliament", "royalist")


class _Passive:
    """A player that always ends the phase when it may: a registered player of a package."""

    name = "passive"

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        return RandomPlayer(end_phase_weight=1.0).choose(game, state, rng)


@pytest.fixture
def passive() -> Iterator[str]:
    register_player("passive", "ends every phase it may", _Passive)
    try:
        yield "passive"
    finally:
        del registry._REGISTRY["passive"]


def test_the_shipped_players_and_their_aliases() -> None:
    assert player_names()[:3] == ("doctrine", "baseline", "random")
    assert DEFAULT_PLAYER == "doctrine"
    assert isinstance(make_player("doctrine"), DoctrinePlayer)
    assert isinstance(make_player("doctrine-1"), DoctrinePlayer)  # the baseline's other name
    assert isinstance(make_player("random"), RandomPlayer)
    assert make_player("random") is not make_player("random")  # a new one for every game
    with pytest.raises(UnknownPlayer, match="no player 'grandmaster'; players: doctrine, baseline, random"):
        make_player("grandmaster")


def test_a_taken_name_is_refused_and_a_new_player_is_offered_everywhere(passive: str) -> None:
    with pytest.raises(ValueError, match="player 'random' is already registered"):
        register_player("random", "another", _Passive)
    with pytest.raises(ValueError, match="player 'doctrine-1' is already registered"):
        register_player("doctrine-1", "another", _Passive)
    assert passive in player_names()
    assert choose_players([f"royalist={passive}"], SIDES) == {"parliament": "doctrine", "royalist": passive}
    listed = json.loads(runner.invoke(app, ["players", "--json"]).stdout)
    assert [p["name"] for p in listed][-1] == passive
    assert next(p for p in listed if p["name"] == "baseline")["aliases"] == ["doctrine-1"]


@pytest.mark.parametrize("on_trial", [False, True])
def test_the_listing_names_the_rule_sets_with_a_second_edition(monkeypatch: pytest.MonkeyPatch,
                                                               on_trial: bool) -> None:
    """``doctrine-2`` names the rule sets with an edition on trial (none once every second
    edition is the doctrine); ``baseline`` those whose doctrine is a later edition."""
    from tertia.core.ai_spec import AiSpec

    if on_trial:  # a third edition on trial under d3-cards
        spec = get_ruleset("d3-cards").AI
        assert spec is not None
        trial = AiSpec(spec.proposer, spec.doctrine, spec.baseline,
                       second_edition="tertia.ai.random_player:RandomPlayer")
        monkeypatch.setattr(type(get_ruleset("d3-cards")), "AI", trial)
    with_one = [rid for rid in ruleset_ids() if (spec := get_ruleset(rid).AI) and spec.second_edition]
    assert with_one == (["d3-cards"] if on_trial else [])
    listed = json.loads(runner.invoke(app, ["players", "--json"]).stdout)
    named = {rid: get_ruleset(rid).named() for rid in ruleset_ids()}
    title = next(p for p in listed if p["name"] == "doctrine-2")["title"]
    assert (named["d3-cards"] in title) is on_trial
    assert not any(named[rid] in title for rid in ruleset_ids() if rid not in with_one)
    assert ("no rule set has one on trial now" in title) is not on_trial
    promoted = [rid for rid in ruleset_ids() if (spec := get_ruleset(rid).AI) and spec.baseline]
    title = next(p for p in listed if p["name"] == "baseline")["title"]
    assert promoted and all(named[rid] in title for rid in promoted)
    assert not any(named[rid] in title for rid in ruleset_ids() if rid not in promoted)
    # Each is named as a reader knows it, never by the id --rules takes.
    for p in listed:
        assert not any(rid in p["title"] for rid in ruleset_ids()), p


@pytest.mark.parametrize(("pairs", "message"), [
    (["royalist"], "--player 'royalist': expected SIDE=PLAYER with SIDE one of parliament, royalist"),
    (["scots=random"], "--player 'scots=random': expected SIDE=PLAYER"),
    (["royalist=grandmaster"], "and PLAYER one of doctrine, baseline, random, doctrine-2, doctrine-1"),
    (["royalist=random", "royalist=baseline"], "royalist is given a player twice"),
])
def test_a_bad_choice_of_player_is_refused_naming_the_pair(pairs: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        choose_players(pairs, SIDES)


def test_a_side_is_chosen_by_its_id_or_by_the_name_players_read() -> None:
    names = {"parliament": "Parliament (Earl of Essex)", "royalist": "Royalists (King Charles I)"}
    pairs = ["Royalists=random", "PARLIAMENT (earl of essex)=baseline"]
    chosen = choose_players(pairs, SIDES, side_names=names)
    assert chosen == {"parliament": "baseline", "royalist": "random"}
    with pytest.raises(ValueError, match=r"SIDE one of parliament \(Parliament \(Earl of Essex\)\)"):
        choose_players(["Roundheads=random"], SIDES, side_names=names)


def test_an_alias_is_recorded_under_the_players_own_name() -> None:
    assert choose_players(["parliament=doctrine-1"], SIDES)["parliament"] == "baseline"


def test_a_player_is_chosen_by_its_name_in_any_case() -> None:
    chosen = choose_players(["royalist=RANDOM", "parliament=Doctrine-1"], SIDES)
    assert chosen == {"parliament": "baseline", "royalist": "random"}


@pytest.mark.parametrize("rules", ruleset_ids())
def test_every_player_plays_every_rule_set(rules: str) -> None:
    """Each registered player, on both sides, takes only legal actions for 60 actions of
    each rule set's default battle (a battle over sooner is over)."""
    game = Game(get_ruleset(rules), resolve_scenario(default_scenario(rules), rules_id=rules))
    for name in player_names():
        players = {side: make_player(name) for side in game.scenario.side_ids}
        try:
            record = fight_battle(game, players, 3, max_actions=60)
            assert record.final_state.is_over
        except BattleAborted as exc:  # 60 legal actions, and not over yet
            assert str(exc) == "the battle did not end within 60 actions", f"{name} under {rules}: {exc}"


def _option_choices() -> Iterator[tuple[str, dict[str, object]]]:
    """Every rule set of the registry with each option changed from its default, one at a
    time: a switch turned over, or each other choice a choice option offers (a number is
    left at its default: it moves a threshold, not what a player may be offered)."""
    for rules in ruleset_ids():
        for option in get_ruleset(rules).OPTIONS:
            if isinstance(option.default, bool):
                yield rules, {option.name: not option.default}
            else:
                yield from ((rules, {option.name: c}) for c in option.choices or () if c != option.default)


def _option_id(value: object) -> str:
    return ",".join(f"{k}={v}" for k, v in value.items()) if isinstance(value, dict) else str(value)


@pytest.mark.parametrize(("rules", "changed"), list(_option_choices()), ids=_option_id)
def test_every_player_plays_under_every_choice_of_option(rules: str, changed: dict[str, object]) -> None:
    """Each registered player, on both sides, takes only legal actions for 150 actions of the
    rule set's default battle with one option changed (a battle over sooner is over): an
    option may close to a unit what a player would otherwise offer it. After every action
    no piece stands off the table or on another (the conformance playouts' check)."""
    game = Game(get_ruleset(rules, **changed), resolve_scenario(default_scenario(rules), rules_id=rules))

    def table_kept(step: Step) -> None:
        problems = table_problems(game, step.state)
        assert problems == [], f"{changed}, after {step.action}: {'; '.join(problems)}"

    for name in player_names():
        players = {side: make_player(name) for side in game.scenario.side_ids}
        try:
            record = fight_battle(game, players, 1, max_actions=150, on_step=table_kept)
            assert record.final_state.is_over
        except BattleAborted as exc:
            assert str(exc) == "the battle did not end within 150 actions", f"{name}, {changed}: {exc}"


def test_battle_takes_a_player_by_name_and_refuses_an_unknown_one() -> None:
    base = ["battle", "--scenario", "skirmish", "--seed", "5", "--json"]
    doctrine = json.loads(runner.invoke(app, base).stdout)
    baseline = json.loads(runner.invoke(app, [*base, "--player", "parliament=baseline"]).stdout)
    first = json.loads(runner.invoke(app, [*base, "--player", "parliament=doctrine-1"]).stdout)
    rand = json.loads(runner.invoke(app, [*base, "--player", "parliament=random"]).stdout)
    second = json.loads(runner.invoke(app, [*base, "--player", "parliament=doctrine-2"]).stdout)
    assert first["final_hash"] == baseline["final_hash"]  # two names of one player
    assert second["final_hash"] == doctrine["final_hash"]  # the second edition is the doctrine
    assert baseline["final_hash"] != doctrine["final_hash"]
    assert rand["final_hash"] != doctrine["final_hash"]
    refused = runner.invoke(app, [*base, "--player", "parliament=grandmaster"])
    assert refused.exit_code == 1
    assert refused.output.count("\n") == 1 and "'parliament=grandmaster'" in refused.output


def test_simulate_records_each_sides_player_and_fights_with_it(tmp_path: Path) -> None:
    def study(*extra: str) -> dict[str, object]:
        found = runner.invoke(app, ["simulate", "--scenario", "skirmish", "--games", "6", "--workers", "1",
                                    "--json", *extra])
        assert found.exit_code == 0, found.output
        return dict(json.loads(found.stdout))

    plain = study()
    against = study("--player", "royalist=random", "--out", str(tmp_path / "games.parquet"))
    assert plain["players"] == {"parliament": "doctrine", "royalist": "doctrine"}
    assert against["players"] == {"parliament": "doctrine", "royalist": "random"}
    assert against["wins"] != plain["wins"] or against["turns"] != plain["turns"]
    rows, metadata = read_rows(tmp_path / "games.parquet")
    assert {r["player_royalist"] for r in rows} == {"random"}
    assert {r["player_parliament"] for r in rows} == {"doctrine"}
    assert metadata["players"] == against["players"]
    refused = runner.invoke(app, ["simulate", "--games", "2", "--player", "scots=random"])
    assert refused.exit_code == 1 and "--player 'scots=random'" in refused.output


def test_sweep_fights_every_value_with_the_players_named() -> None:
    found = runner.invoke(app, ["sweep", "--scenario", "skirmish", "--vary", "hit_limit_infantry=2,3",
                                "--games", "4", "--workers", "1", "--player", "parliament=random", "--json"])
    assert found.exit_code == 0, found.output
    data = json.loads(found.stdout)
    assert data["players"] == {"parliament": "random", "royalist": "doctrine"}
    assert [r["completed"] for r in data["results"]] == [4, 4]


def test_the_baseline_is_the_doctrine_until_a_rule_set_names_its_first_edition(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tertia.ai.lookup import baseline_for, doctrine_for
    from tertia.core.ai_spec import AiSpec

    ruleset = get_ruleset("larger-battles")
    spec = ruleset.AI
    assert spec is not None
    monkeypatch.setattr(type(ruleset), "AI", AiSpec(spec.proposer, spec.doctrine))  # in its first edition
    assert baseline_for(ruleset) is doctrine_for(ruleset)
    kept = AiSpec(spec.proposer, spec.doctrine, baseline="tertia.ai.random_player:RandomPlayer")
    monkeypatch.setattr(type(ruleset), "AI", kept)
    assert baseline_for(ruleset) is RandomPlayer
    assert baseline_for(ruleset) is not doctrine_for(ruleset)
    with pytest.raises(ValueError, match="AI baseline 'first edition' is not a 'module:attribute' reference"):
        AiSpec(spec.proposer, spec.doctrine, baseline="first edition")


class _Stuck:
    """A player that finds nothing to do."""

    name = "stuck"

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        from tertia.ai.player import NoLegalAction

        raise NoLegalAction(f"nothing to do at step {state.step}")


def test_a_player_with_no_action_stops_the_battle_in_one_line() -> None:
    register_player("stuck", "finds nothing to do", _Stuck)
    try:
        found = runner.invoke(app, ["battle", "--scenario", "skirmish", "--player", "royalist=stuck"])
    finally:
        del registry._REGISTRY["stuck"]
    assert found.exit_code == 2 and found.output.count("\n") == 1, found.output
    assert "stuck, playing Royalists, found no action to take: nothing to do at step" in found.output


def test_the_random_player_deploys_in_secret_without_breaking_a_tertia() -> None:
    """Charge yr Pikes! with secret deployment: the random player's shifts never take a
    unit more than 6" from the rest of its tertia, so being done stays legal (a seed on
    which it once could never finish deploying)."""
    game = Game(get_ruleset("charge-yr-pikes"), resolve_scenario("edgehill", rules_id="charge-yr-pikes"))
    players = {"parliament": make_player("random"), "royalist": make_player("doctrine")}
    try:
        record = fight_battle(game, players, 6376112863938378611, max_actions=400)
        assert record.final_state.is_over
    except BattleAborted as exc:
        assert str(exc) == "the battle did not end within 400 actions"
