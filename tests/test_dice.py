"""Dice: exact distributions are the oracle; seeded samples must agree with them."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from tertia.core.dice import (
    D3,
    D6,
    D10,
    DiceDivergence,
    Distribution,
    ReplayDice,
    Roll,
    ScriptedDice,
    SeededDice,
    derive_seed,
    distribution_named,
    sum_of,
)


def chi_square_ok(dist: Distribution, samples: list[int]) -> bool:
    """Pearson chi-square against the exact distribution, at a 0.1% false-alarm level
    (critical values for up to 10 degrees of freedom)."""
    critical = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 8: 26.12, 9: 27.88, 10: 29.59}
    n = len(samples)
    stat = 0.0
    for value, _ in dist.outcomes:
        expected = n * float(dist.probability(value))
        observed = samples.count(value)
        stat += (observed - expected) ** 2 / expected
    return stat < critical[len(dist.outcomes) - 1]


def test_d3_is_a_d6_marked_112233() -> None:
    """RULES-NOTES: "D3 means a six-sided die marked 1,1,2,2,3,3"."""
    assert D3.outcomes == ((1, 2), (2, 2), (3, 2))
    assert D3.probability(2) == Fraction(1, 3)


@pytest.mark.parametrize("dist", [D6, D3, D10, sum_of(2, D6)], ids=lambda d: d.name)
def test_seeded_samples_agree_with_the_exact_distribution(dist: Distribution) -> None:
    dice = SeededDice(12345)
    samples = [dice.roll(dist, "test") for _ in range(20_000)]
    assert chi_square_ok(dist, samples)
    assert set(samples) == set(dist.values())


def test_sum_of_two_d6_is_triangular() -> None:
    two = sum_of(2, D6)
    assert [two.probability(v) * 36 for v in range(2, 13)] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert distribution_named("2d6") == two


def test_seeded_dice_are_reproducible_and_logged() -> None:
    a, b = SeededDice(7), SeededDice(7)
    rolls_a = [a.roll(D6, "x") for _ in range(50)]
    assert rolls_a == [b.roll(D6, "x") for _ in range(50)]
    assert a.log[0] == Roll("x", "d6", rolls_a[0])


def test_scripted_dice_refuse_impossible_faces_and_run_dry() -> None:
    dice = ScriptedDice([3, 5])
    assert dice.roll(D6, "a") == 3
    with pytest.raises(DiceDivergence):
        dice.roll(D3, "b")  # 5 is not a face of a D3
    with pytest.raises(DiceDivergence):
        ScriptedDice([]).roll(D6, "c")


def test_replay_dice_fail_loudly_on_a_different_request() -> None:
    dice = ReplayDice([Roll("combat: a", "d6", 4)])
    with pytest.raises(DiceDivergence, match="combat: a"):
        dice.roll(D6, "combat: b")


def test_derived_seeds_are_stable_and_distinct() -> None:
    seeds = {derive_seed(1, "game", i) for i in range(1000)}
    assert len(seeds) == 1000
    assert derive_seed(2024, "dice") == derive_seed(2024, "dice") < 2**63
    assert not math.isnan(float(derive_seed(0)))


@pytest.mark.parametrize(("scenario", "rules"), [("skirmish", "larger-battles"), ("edgehill", "d3-commands"),
                                                 ("chalgrove", "d3-cards")])
def test_every_die_is_logged_under_a_name_that_says_its_distribution(scenario: str, rules: str) -> None:
    """A saved log's die names are exact: each names the very distribution rolled (d3
    marked 1,1,2,2,3,3; d<n> for a card drawn from n), so a log can be checked and resumed
    from the names alone."""
    from tertia.ai.doctrine import DoctrinePlayer
    from tertia.core.game import Game
    from tertia.rulesets import get_ruleset
    from tertia.scenarios import load_builtin

    class Checking(SeededDice):
        def roll(self, dist: Distribution, purpose: str) -> int:
            named = distribution_named(dist.name)
            assert {v: named.probability(v) for v in named.values()} == {
                v: dist.probability(v) for v in dist.values()}, dist
            return super().roll(dist, purpose)

    options = {"solo_shuffle": "both"} if rules == "d3-commands" else {}
    game = Game(get_ruleset(rules, **options), load_builtin(scenario))
    dice = Checking(4)
    state, _ = game.start(dice)
    players = {side: DoctrinePlayer() for side in state.sides}
    rng = random.Random(4)
    while not state.is_over:
        state, _ = game.apply(state, players[state.to_act].choose(game, state, rng), dice)
    assert {r.die for r in dice.log} >= {"d6"} | ({"d3"} if rules != "larger-battles" else set())
