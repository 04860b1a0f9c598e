"""Steps settled apart (:mod:`tertia.analysis.apart`): in play they run as called; under
exact odds each is worked out once per position it starts in and walked one branch per
distinct outcome, with the very distribution the plain walk gives, and walked as it runs
wherever what makes that exact does not hold."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import pytest

from tertia.ai.random_player import RandomPlayer
from tertia.analysis import enumerate as enumeration
from tertia.analysis.enumerate import MAX_LEAVES, TooManyBranches, WorkMeter, enumerate_branches
from tertia.analysis.odds import chance_outcomes, odds
from tertia.analysis.questions import Question, played, readied
from tertia.battle import fight_battle
from tertia.core.actions import Action
from tertia.core.dice import D6, Dice, ScriptedDice, summed
from tertia.core.events import Marked
from tertia.core.game import Game
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.rulesets import get_ruleset
from tertia.scenarios import resolve_scenario

UNITS = ("a", "b", "c")


def _state(**extra: Any) -> GameState:
    units = {uid: Unit(uid, "blue", UnitKind.FOOT, "line", 10.0 * i, 0.0, 0.0, 4, 2)
             for i, uid in enumerate(UNITS)}
    return GameState(("blue", "red"), 1, "blue", "play", units, extra=extra)


@dataclass(frozen=True)
class Checked:
    RECORD: ClassVar[tuple[str, ...]] = ("dice", "word")
    unit: str
    dice: tuple[int, int]
    broken: bool
    word: str = ""


def _check(tx: Tx, unit: str) -> Checked:
    """Doubles or a 7 shake the unit; 10 or more breaks it."""
    first, second = tx.roll(D6, f"{unit} first"), tx.roll(D6, f"{unit} second")
    if first == second or summed(first, second) == 7:
        tx.emit(Marked(mark="shaken", ident=unit))
    broken = summed(first, second) >= 10
    if broken:
        tx.emit(Marked(mark="broken", ident=unit))
    return Checked(unit, (first, second), broken, "high" if summed(first, second) > 8 else "low")


def _volley(reads_dice_after: bool = False, reads_word_after: bool = False, units: tuple[str, ...] = UNITS
            ) -> Callable[[Dice], Any]:
    def run(dice: Dice) -> Any:
        tx = Tx(None, _state(), dice)  # type: ignore[arg-type]  # the checks read no table
        checks = [tx.apart(_check, uid) for uid in units]
        high = (reads_dice_after and checks[0].dice[0] > 3) or (reads_word_after and checks[1].word == "high")
        return tuple(sorted(tx.state.marks.items())), tuple(c.broken for c in checks), high
    return run


def _walked(run: Callable[[Dice], Any], **how: Any) -> tuple[dict[Any, Fraction], int]:
    meter = WorkMeter()
    dist: Counter[Any] = Counter()
    for b in enumerate_branches(run, meter=meter, **how):
        dist[b.result] += b.probability  # type: ignore[assignment]
    assert sum(dist.values()) == 1
    return dict(dist), meter.work


def test_in_play_a_step_apart_runs_as_called_with_the_same_dice() -> None:
    faces = [3, 3, 2, 5, 6, 6]
    marked = Tx(None, _state(), ScriptedDice(faces))  # type: ignore[arg-type]
    plain = Tx(None, _state(), ScriptedDice(faces))  # type: ignore[arg-type]
    assert [marked.apart(_check, u) for u in UNITS] == [_check(plain, u) for u in UNITS]
    assert marked.events == plain.events and marked.state == plain.state


def test_settled_apart_the_checks_give_the_plain_walks_distribution_for_less_work() -> None:
    settled, work = _walked(_volley())
    grouped, grouped_work = _walked(_volley(), apart=False)
    assert settled == grouped
    assert work < grouped_work
    two = _volley(units=UNITS[:2])
    assert _walked(two)[0] == _walked(two, face_by_face=True)[0]


def test_a_step_whose_dice_are_read_after_it_is_walked_as_it_runs() -> None:
    settled, _ = _walked(_volley(reads_dice_after=True))
    plain, _ = _walked(_volley(reads_dice_after=True), apart=False)
    assert settled == plain


def test_a_step_whose_record_is_read_after_it_is_walked_as_it_runs() -> None:
    settled, _ = _walked(_volley(reads_word_after=True))
    plain, _ = _walked(_volley(reads_word_after=True), apart=False)
    assert settled == plain


def test_after_the_walk_a_steps_record_is_one_branchs() -> None:
    def run(dice: Dice) -> Checked:
        return Tx(None, _state(), dice).apart(_check, "a")  # type: ignore[arg-type]

    words = {b.result.word for b in enumerate_branches(run)}
    assert words <= {"high", "low"} and all(type(w) is not str for w in words)


def _beats_the_die_before(tx: Tx, unit: str) -> bool:
    return bool(tx.roll(D6, f"{unit} test") > tx.state.extra["before"])


def test_a_step_that_reads_a_die_rolled_before_it_is_walked_as_it_runs() -> None:
    def run(dice: Dice) -> Any:
        tx = Tx(None, _state(before=dice.roll(D6, "before")), dice)  # type: ignore[arg-type]
        return tx.apart(_beats_the_die_before, "a"), tx.apart(_beats_the_die_before, "b")

    settled, _ = _walked(run)
    plain, _ = _walked(run, face_by_face=True)
    assert settled == plain


def test_a_step_given_a_die_or_made_as_a_closure_is_walked_as_it_runs() -> None:
    def run(dice: Dice) -> Any:
        before = dice.roll(D6, "before")
        tx = Tx(None, _state(), dice)  # type: ignore[arg-type]

        def closure(tx: Tx) -> bool:
            return bool(tx.roll(D6, "closure") > before)

        return tx.apart(closure), tx.apart(_beats, before)

    settled, _ = _walked(run)
    plain, _ = _walked(run, face_by_face=True)
    assert settled == plain


def _beats(tx: Tx, score: int) -> bool:
    return bool(tx.roll(D6, "beats") > score)


def _counts_the_events_before(tx: Tx, unit: str) -> bool:
    return bool(tx.roll(D6, f"{unit} test") > len(tx.events))


def test_a_step_that_reads_the_events_before_it_is_walked_as_it_runs() -> None:
    def run(dice: Dice) -> Any:
        tx = Tx(None, _state(), dice)  # type: ignore[arg-type]
        tx.emit(Marked(mark="shaken", ident="a"))
        return tx.apart(_counts_the_events_before, "a"), tx.apart(_counts_the_events_before, "b")

    settled, _ = _walked(run)
    plain, _ = _walked(run, face_by_face=True)
    assert settled == plain


def _steadied_fire(unit: str, target: str) -> tuple[Game, GameState, Question]:
    """A gun's shot at Edgehill's start, the target's side all tested at 4 morale points:
    the push-back's checks of the friends it passes through cost points but rout none."""
    game = Game(get_ruleset("declare-thee-sir"), resolve_scenario("edgehill", rules_id="declare-thee-sir"))
    start = next(played(game, 1))
    gun = start.units[unit]
    seen = game.observed_state(start, gun.side)
    question = readied(game, seen, seen.units[unit], "fire", seen.units[target])
    assert question is not None
    side = start.units[target].side
    steady = question.ready.with_units([u.evolve(morale=4, morale_max=4) for u in question.ready.iter_units()
                                        if u.side == side and hasattr(u.own, "morale")])
    return game, steady, question


@pytest.mark.parametrize(("unit", "target"), [("r-guns-left", "p-meldrum-foot-1"),
                                              ("p-guns-left", "r-maurice-horse")])
def test_a_push_back_through_friends_settles_their_checks_to_the_same_odds_for_far_less_work(
        unit: str, target: str) -> None:
    game, steady, question = _steadied_fire(unit, target)
    settled_meter, unsettled_meter = WorkMeter(), WorkMeter()
    settled = odds(game, steady, question.action, responses=question.responses, meter=settled_meter)
    unsettled = odds(game, steady, question.action, responses=question.responses, meter=unsettled_meter,
                     apart=False)
    assert [(o.description, o.probability) for o in settled.outcomes] == \
        [(o.description, o.probability) for o in unsettled.outcomes]
    assert settled.summary == unsettled.summary
    assert settled_meter.settled and settled_meter.work * 5 < unsettled_meter.work


def _two_checks(tx: Tx, first: str, second: str) -> tuple[bool, bool]:
    return tx.apart(_check, first).broken, tx.apart(_check, second).broken


def test_steps_settled_within_a_step_and_within_an_attempt_rolled_again_keep_the_odds() -> None:
    def nested(dice: Dice) -> Any:
        tx = Tx(None, _state(), dice)  # type: ignore[arg-type]
        return tx.apart(_two_checks, "a", "b"), tuple(sorted(tx.state.marks.items()))

    def again(dice: Dice) -> Any:
        tx = Tx(None, _state(), dice)  # type: ignore[arg-type]
        return tx.roll_until_decided(
            lambda: None if tx.apart(_check, "a").broken else bool(tx.roll(D6, "then") > 4))

    for run in (nested, again):
        assert _walked(run)[0] == _walked(run, apart=False)[0] == _walked(run, face_by_face=True)[0]


def test_the_branches_of_steps_settled_apart_count_against_the_bound_on_branches() -> None:
    run = _volley()
    meter = WorkMeter()
    answer = enumerate_branches(run, meter=meter)
    assert meter.settled and meter.branches > len(answer)
    within = enumerate_branches(run, max_leaves=meter.branches)
    assert [(b.result, b.probability) for b in within] == [(b.result, b.probability) for b in answer]
    with pytest.raises(TooManyBranches, match=f"more than {meter.branches - 1} branches"):
        enumerate_branches(run, max_leaves=meter.branches - 1)


class _Runaway(BaseException):
    """The walk went on past the work a refusal may take (no rule's handler catches it)."""


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times the rules are run down a chance tree (each walk of the question's
    own tree and of every step's settled apart from it), the walk stopped past
    ``2 * MAX_LEAVES``: the work a refusal is held to, counted, not timed."""
    made = [0]
    begin = enumeration._Walker.__init__

    def counted(self: enumeration._Walker, *args: Any, **kwargs: Any) -> None:
        made[0] += 1
        if made[0] > 2 * MAX_LEAVES:
            raise _Runaway
        begin(self, *args, **kwargs)

    monkeypatch.setattr(enumeration._Walker, "__init__", counted)
    yield made


class _Asked(Exception):
    def __init__(self, state: GameState, action: Action) -> None:
        self.state, self.action = state, action


class _StopsAt(RandomPlayer):
    """The random player, stopping the battle at the ``at``-th action chosen."""

    chosen = 0

    def __init__(self, at: int) -> None:
        super().__init__()
        self.at = at

    def choose(self, game: Game, state: GameState, rng: Any) -> Action:
        action = super().choose(game, state, rng)
        _StopsAt.chosen += 1
        if _StopsAt.chosen == self.at:
            raise _Asked(state, action)
        return action


def _random_battles_action(rules: str, scenario: str, seed: int, at: int) -> tuple[Game, GameState, Action]:
    """The ``at``-th action of the random player's battle on ``seed`` (as
    :func:`~tertia.battle.fight_battle` seeds it), with the position it is taken in."""
    game = Game(get_ruleset(rules), resolve_scenario(scenario, rules_id=rules))
    _StopsAt.chosen = 0
    try:
        fight_battle(game, {side: _StopsAt(at) for side in game.scenario.side_ids}, seed)
    except _Asked as asked:
        return game, asked.state, asked.action
    raise AssertionError(f"the battle ended before its action {at}")


def test_a_chain_of_tests_too_large_to_walk_is_refused_without_a_budget_in_bounded_work(
        walks: list[int]) -> None:
    """A move at Roundway Down (Sir Arthur Haselrig riding, in the random player's battle on
    seed 7) whose chain of tests starts from thousands of positions: each test's branches
    count against the one bound, so the walk is refused
    after at most a few times ``MAX_LEAVES`` walks, not after minutes of them."""
    game, state, action = _random_battles_action("declare-thee-sir", "roundway_down", 7, 13)
    assert action.type == "move"
    walks[0] = 0
    with pytest.raises(TooManyBranches, match=f"more than {MAX_LEAVES} branches"):
        chance_outcomes(game, state, action)
    assert walks[0] <= 2 * MAX_LEAVES


def _digest(found: list[tuple[Fraction, GameState, list[Any]]]) -> str:
    return hashlib.sha256(repr([(str(p), s.state_hash()) for p, s, _ in found]).encode()).hexdigest()[:16]


def _at_the_start(rules: str, scenario: str, word: str, unit: str, target: str
                  ) -> tuple[Game, GameState, Question]:
    game = Game(get_ruleset(rules), resolve_scenario(scenario, rules_id=rules))
    start = next(played(game, 1))
    seen = game.observed_state(start, start.units[unit].side)
    question = readied(game, seen, seen.units[unit], word, seen.units[target])
    assert question is not None
    return game, question.ready, question


ANSWERS = [
    (("larger-battles", "edgehill", "bombard", "r-guns-right", "p-cessex-foot-2"), 2, "8c7bf442964fc5d8"),
    (("d3-commands", "edgehill", "shoot", "r-guns-right", "p-cessex-foot-2"), 6, "c1d2f5a584350ace"),
    (("d3-cards", "chalgrove", "shoot", "r-wentworth-dragoons-1", "p-dalbier-dragoons"), 6,
     "0b7d3106ca2f708d"),
    (("r-guns-left", "p-meldrum-foot-1"), 20, "ea8f17a0e1753594"),
    (("p-guns-left", "r-maurice-horse"), 30, "fcd639779bd894a5"),
]
"""Questions within the bound on branches and the answers walked before the branches of
steps settled apart counted against it: how many states, and a digest of each state's
exact chance, likeliest first."""


@pytest.mark.parametrize(("asked", "states", "digest"), ANSWERS)
def test_answers_within_the_bound_on_branches_are_as_they_were(asked: tuple[str, ...], states: int,
                                                               digest: str) -> None:
    game, ready, question = _steadied_fire(*asked) if len(asked) == 2 else _at_the_start(*asked)
    found = chance_outcomes(game, ready, question.action, responses=question.responses)
    assert (len(found), _digest(found)) == (states, digest)
    meter = WorkMeter()
    answer = odds(game, ready, question.action, responses=question.responses, meter=meter)
    bounded = odds(game, ready, question.action, responses=question.responses, max_leaves=meter.branches)
    assert bounded.outcomes == answer.outcomes
