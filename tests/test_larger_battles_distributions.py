"""Every dice mechanic of larger-battles, run through the real engine with seeded dice,
agrees with its exact distribution (a binomial test at the 0.1% level)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rules.fighting import Attack
from tertia.rules.hits import piece
from tertia.rulesets.larger_battles.actions import Bombard

from .support import P, R, commander, make_game, position, unit

SAMPLES = 3000


def agrees(successes: int, n: int, p: Fraction) -> bool:
    """Within 3.3 standard deviations of the exact expectation (about a 0.1% false alarm)."""
    mean = n * float(p)
    sd = math.sqrt(n * float(p) * (1 - float(p)))
    return abs(successes - mean) <= 3.3 * sd


def sample(game: Game, state: GameState, action: object, predicate, seed: int = 99) -> int:  # type: ignore[no-untyped-def]
    dice = SeededDice(seed)
    count = 0
    for _ in range(SAMPLES):
        after, _ = game.apply(state, action, dice)  # type: ignore[arg-type]
        count += bool(predicate(after))
    return count


def test_bombardment_hits_one_in_three() -> None:
    """Bombardment: a D6 of 5+ causes a hit, exactly 1/3."""
    game = make_game([unit("g", P, "artillery", 30, 5), unit("t", R, "foot", 30, 20, 180)])
    state = position(game, phase="bombardment", orders=(("g", "bombard"),))
    hits = sample(game, state, Bombard(gun="g", target="t"), lambda s: piece(s.units["t"]).hits == 1)
    assert agrees(hits, SAMPLES, Fraction(1, 3))


def test_ammunition_runs_out_one_in_three() -> None:
    """Check Ammunition: a 1 or 2 on a D6, exactly 1/3."""
    game = make_game([unit("a", P, "foot", 30, 10), unit("t", R, "foot", 30, 15, 180)])
    state = position(game, phase="combat")
    out = sample(game, state, Attack(attacker="a", target="t"), lambda s: piece(s.units["a"]).out_of_ammo)
    assert agrees(out, SAMPLES, Fraction(1, 3))


def test_misfortune_one_in_six() -> None:
    """Commander Misfortune: a 1 on a D6 after combat, exactly 1/6."""
    game = make_game(
        [unit("a", P, "horse", 30, 10, command="right"), unit("t", R, "horse", 30, 15, 180, command="left")],
        commanders=[commander("c", P, 30, 7.5, command="right")],
    )
    state = position(game, phase="combat")
    lost = sample(game, state, Attack(attacker="a", target="t", commander="c"),
                  lambda s: not s.units["c"].in_play)
    assert agrees(lost, SAMPLES, Fraction(1, 6))


@pytest.mark.parametrize(("attacker", "defender", "a_mod", "d_mod"), [
    ("foot", "foot", 1, 0),        # muskets
    ("horse", "horse", 1, 1),      # cavalry both sides
    ("horse", "foot", 0, 0),       # no cavalry bonus against pikes
    ("dragoons", "artillery", 1, 0),
])
def test_opposed_roll_outcomes(attacker: str, defender: str, a_mod: int, d_mod: int) -> None:
    """Combat: the chances of hitting and of being hit match the exact opposed-D6 figures."""
    win = Fraction(sum(1 for a in range(1, 7) for d in range(1, 7) if a + a_mod > d + d_mod), 36)
    lose = Fraction(sum(1 for a in range(1, 7) for d in range(1, 7) if d + d_mod > a + a_mod), 36)
    game = make_game([
        unit("a", P, attacker, 30, 10, command="right" if attacker == "horse" else None),
        unit("t", R, defender, 30, 15, 180, command="left" if defender == "horse" else None),
    ])
    state = position(game, phase="combat")
    action = Attack(attacker="a", target="t")
    assert agrees(sample(game, state, action, lambda s: piece(s.units["t"]).hits == 1), SAMPLES, win)
    assert agrees(sample(game, state, action, lambda s: piece(s.units["a"]).hits == 1, seed=7), SAMPLES, lose)
