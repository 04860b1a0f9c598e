"""A ladder of players: each pair fights on paired seeds, and the games become ratings.

Every pair of players fights every chosen battle (a scenario under a rule set) on the same
seeds twice, once from each side, so that neither the seed nor the side favours either
(:func:`ladder_specs`). Read from the rows (:func:`standings`):

- **ratings**: a Bradley-Terry fit of every game (a draw is half a win to each), on the
  Elo scale (400 points: ten to one odds), the players' mean at 0. Each pair is given one
  drawn game more than it fought, so that a player who won every game has a finite rating
  (a prior of "even until shown otherwise", worth one game). The 95% intervals are the
  fit's own (Wald: from the inverse of the information matrix, the ratings' mean held at
  0), so a pair that always ends alike still has the uncertainty of the few games it played;
- **the win matrix**: each player's score against each other (wins and half the draws over
  the games, with a Wilson interval over the games);
- **the VP margin**: each player's victory points less its opponent's, per game, with a
  normal interval over the seeds (a seed's two games averaged), and units lost each side;
  one row for each rule set, since each counts victory points on its own scale;
- **battles decided**: for each pair on each battle, the games decided on the field (an
  objective taken, an army broken), not by the turn limit or darkness, as the rule set
  declares its endings (:attr:`~tertia.core.presentation.Presentation.ENDINGS`).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy

from tertia.analysis.sim.games import GameSpec, Row
from tertia.analysis.sim.stats import Z95, mean_interval, wilson, wilson_share

PRIOR_DRAWS = 1.0
"""Drawn games added to each pair before the fit (see the module's note)."""

ELO = 400.0 / math.log(10.0)
"""Rating points per unit of log strength: 400 points are odds of ten to one."""


@dataclass(frozen=True)
class Battle:
    """A scenario under a rule set, as the ladder fights it."""

    scenario: str
    rules: str


def ladder_specs(battles: Sequence[GameSpec], players: Sequence[str]) -> list[GameSpec]:
    """For each battle (a spec with no players named) and each pair of players, the two
    specs that seat the pair each way round."""
    if len(set(players)) != len(players) or len(players) < 2:
        raise ValueError("a ladder needs at least two different players")
    specs = []
    for spec in battles:
        first, second = spec.sides
        for a, b in itertools.combinations(players, 2):
            for one, two in ((a, b), (b, a)):
                specs.append(dataclasses.replace(spec, players=((first, one), (second, two))))
    return specs


@dataclass(frozen=True)
class Game:
    """One finished game of the ladder, from its two players' point of view."""

    battle: Battle
    index: int
    home: str
    """The player of the battle's first side."""
    away: str
    score: float
    """The home player's result: 1 a win, 0.5 a draw, 0 a loss."""
    margin: int
    """The home player's victory points less the away player's."""
    lost: tuple[int, int]
    """Units lost by the home and the away player."""
    decided: bool | None = None
    """Decided on the field, not by the turn limit or darkness; None where the rule set
    declares no endings."""


def games_of(specs: Sequence[GameSpec], rows: Sequence[Sequence[Row]]) -> list[Game]:
    """The finished games of a ladder's run (a failed game is not rated; it is reported as
    simulate reports it)."""
    found = []
    for spec, spec_rows in zip(specs, rows, strict=True):
        first, second = spec.sides
        home, away = spec.player_of(first), spec.player_of(second)
        for row in spec_rows:
            if row.get("error"):
                continue
            winner = row.get("winner")
            score = 1.0 if winner == first else 0.0 if winner == second else 0.5
            decided = row.get("decided")
            found.append(Game(Battle(spec.scenario_name, spec.rules), int(row["index"]), home, away, score,
                              int(row[f"score_{first}"]) - int(row[f"score_{second}"]),
                              (int(row[f"units_lost_{first}"]), int(row[f"units_lost_{second}"])),
                              None if decided is None else bool(decided)))
    return found


@dataclass(frozen=True)
class Fit:
    """Ratings (Elo scale, mean 0) and the half-width of each one's 95% interval."""

    ratings: dict[str, float]
    half_widths: dict[str, float]


def bradley_terry(players: Sequence[str], results: Sequence[tuple[str, str, float]],
                  prior: float = PRIOR_DRAWS) -> Fit:
    """The fit of ``(a, b, a's score)`` results by Hunter's MM iteration, with ``prior``
    drawn games added to every pair.

    >>> fit = bradley_terry(["a", "b"], [("a", "b", 1.0)] * 3)
    >>> round(fit.ratings["a"] - fit.ratings["b"])  # 3.5 to 0.5 with the prior's draw: 7 to 1
    338
    >>> round(fit.half_widths["a"])  # four games tell little
    257
    """
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    wins = [0.0] * n
    played = [[0.0] * n for _ in range(n)]
    for a, b, score in results:
        i, j = index[a], index[b]
        wins[i] += score
        wins[j] += 1.0 - score
        played[i][j] += 1.0
        played[j][i] += 1.0
    for i, j in itertools.combinations(range(n), 2):
        wins[i] += prior / 2
        wins[j] += prior / 2
        played[i][j] += prior
        played[j][i] += prior
    strength = [1.0] * n
    for _ in range(10_000):
        new = []
        for i in range(n):
            denominator = sum(played[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i)
            new.append(wins[i] / denominator if denominator else strength[i])
        centre = math.exp(sum(math.log(s) for s in new) / n)
        new = [s / centre for s in new]
        settled = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True)) < 1e-10
        strength = new
        if settled:
            break
    theta = [math.log(x) for x in strength]
    information = numpy.zeros((n, n))
    for i, j in itertools.permutations(range(n), 2):
        chance = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
        weight = played[i][j] * chance * (1.0 - chance)
        information[i, j] -= weight
        information[i, i] += weight
    covariance = numpy.linalg.pinv(information)  # the mean held at 0: the free direction dropped
    return Fit({p: ELO * theta[index[p]] for p in players},
               {p: Z95 * ELO * math.sqrt(max(0.0, float(covariance[index[p], index[p]]))) for p in players})


def standings(players: Sequence[str], games: Sequence[Game]) -> dict[str, Any]:
    """The ladder's ratings with intervals, its win matrix and VP margins (JSON-ready)."""
    fit = bradley_terry(players, [(g.home, g.away, g.score) for g in games])
    table: list[dict[str, Any]] = []
    for p in sorted(players, key=lambda p: -fit.ratings[p]):
        mine = [g for g in games if p in (g.home, g.away)]
        rating, half = fit.ratings[p], fit.half_widths[p]
        table.append({
            "player": p, "rating": rating, "low": rating - half, "high": rating + half, "games": len(mine),
            "score": sum(g.score if g.home == p else 1 - g.score for g in mine) / len(mine) if mine else None,
        })
    return {"ratings": table, "matrix": _matrix(players, games), "margins": _margins(players, games),
            "decided": _decided(players, games), "games": len(games), "prior_draws": PRIOR_DRAWS}


def _matrix(players: Sequence[str], games: Sequence[Game]) -> dict[str, dict[str, Any]]:
    """Each player's score against each other: ``matrix[a][b]`` is a's, with its interval."""
    matrix: dict[str, dict[str, Any]] = {p: {} for p in players}
    for a, b in itertools.permutations(players, 2):
        mine = [g.score if g.home == a else 1 - g.score for g in games if {g.home, g.away} == {a, b}]
        if not mine:
            continue
        points = sum(mine)
        wins = sum(1 for s in mine if s == 1.0)
        draws = sum(1 for s in mine if s == 0.5)
        interval = wilson_share(mine)
        matrix[a][b] = {"games": len(mine), "wins": wins, "draws": draws, "losses": len(mine) - wins - draws,
                        "score": points / len(mine), "interval": interval.as_dict()}
    return matrix


def _margins(players: Sequence[str], games: Sequence[Game]) -> list[dict[str, Any]]:
    """For each pair under each rule set, the first player's VP margin and units lost each
    side, per game. Rule sets are kept apart: each counts victory points on its own scale."""
    found = []
    rule_sets = sorted({g.battle.rules for g in games})
    for (a, b), rules in itertools.product(itertools.combinations(players, 2), rule_sets):
        by_seed: dict[tuple[Battle, int], list[Game]] = {}
        for g in games:
            if {g.home, g.away} == {a, b} and g.battle.rules == rules:
                by_seed.setdefault((g.battle, g.index), []).append(g)
        if not by_seed:
            continue
        margins = [sum(g.margin if g.home == a else -g.margin for g in pair) / len(pair)
                   for pair in by_seed.values()]
        mine = [g.lost[0] if g.home == a else g.lost[1] for pair in by_seed.values() for g in pair]
        theirs = [g.lost[1] if g.home == a else g.lost[0] for pair in by_seed.values() for g in pair]
        found.append({"player": a, "against": b, "rules": rules, "seeds": len(margins),
                      "vp_margin": _interval(margins), "units_lost": sum(mine) / len(mine),
                      "units_lost_against": sum(theirs) / len(theirs)})
    return found


def _decided(players: Sequence[str], games: Sequence[Game]) -> list[dict[str, Any]]:
    """For each pair on each battle, its games decided on the field (not by the turn limit
    or darkness), with a Wilson interval; battles whose rule set declares no endings left out."""
    found = []
    battles = sorted({g.battle for g in games}, key=lambda b: (b.rules, b.scenario))
    for (a, b), battle in itertools.product(itertools.combinations(players, 2), battles):
        ended = [g.decided for g in games if {g.home, g.away} == {a, b} and g.battle == battle
                 and g.decided is not None]
        if ended:
            found.append({"player": a, "against": b, "rules": battle.rules, "scenario": battle.scenario,
                          "games": len(ended), "decided": sum(ended),
                          "rate": wilson(sum(ended), len(ended)).as_dict()})
    return found


def _interval(values: Sequence[float]) -> dict[str, float]:
    return mean_interval(values).as_dict()
