"""What an answer of odds tells beyond the target and the attacker: every piece the action
can touch, each side's count of units routed, and the likeliest outcomes with the chance
left over.

An action's consequences reach past the two units it names: friends a rout passes through
check their morale, a rout makes the friends near it test, a charge's pursuit runs on.
A player asks "what happens to my line", not only "to this unit", and the whole table of
joint outcomes, one row for every way each of k friends' tests can go, is no way to
answer it. So an answer gives, read from the outcomes (:class:`~tertia.analysis.odds.Outcome`):

- for **each piece** an outcome changes, each measure the rule set declares
  (:attr:`RuleSet.ODDS_MEASURES <tertia.core.ruleset.RuleSet.ODDS_MEASURES>`) as its own
  exact distribution or chance, with the chance that it routs and that it leaves play;
- for **each side**, the exact distribution of how many of its units rout: a unit routs
  when it leaves play routed, or when a measure the rule set marks as a rout
  (:attr:`OddsMeasure.routs <tertia.core.ruleset.OddsMeasure.routs>`) is set on it;
- the **likeliest outcomes** in the rule set's words, those told in the same words taken
  together (a routed stand's end place is no part of them), and the count and chance of
  all the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tertia.core.narration import percent
from tertia.core.ruleset import OddsMeasure
from tertia.core.state import GameState

if TYPE_CHECKING:
    from tertia.analysis.odds import Outcome

ROUTS = "routs"
"""A piece's chance to rout (leave play routed, or break as its rule set says)."""
LEAVES_PLAY = "leaves_play"
"""A piece's chance to leave play, for whatever reason."""

CHANCE_LABELS = {ROUTS: "routs", LEAVES_PLAY: "leaves play"}
"""How front ends name the chances every piece has, beside its rule set's measures."""

LIKELIEST = 12
"""How many outcomes an answer lists by name; the rest are counted together."""


def _exact(p: Fraction) -> dict[str, Any]:
    return {"probability": float(p), "fraction": str(p)}


@dataclass(frozen=True)
class PieceOdds:
    """One piece's part in an answer: each count measure's distribution (``counts``: key to
    value to chance, only those that can be more than nothing) and each chance (``chances``:
    a flag measure's key, :data:`ROUTS` or :data:`LEAVES_PLAY`, only those above nothing)."""

    unit: str
    side: str
    counts: Mapping[str, Mapping[str, Fraction]]
    chances: Mapping[str, Fraction]

    def to_dict(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "side": self.side,
            "counts": {k: {v: float(p) for v, p in dist.items()} for k, dist in self.counts.items()},
            "chances": {k: float(p) for k, p in self.chances.items()},
        }


@dataclass(frozen=True)
class SideOdds:
    """How many of a side's units rout: each number with its exact chance."""

    side: str
    units_routed: Mapping[int, Fraction]

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "units_routed": {str(n): float(p) for n, p in self.units_routed.items()}}


@dataclass(frozen=True)
class Likeliest:
    """The likeliest outcomes in words (``rows``: chance and words, likeliest first), and
    how many others there are and their chance together."""

    rows: tuple[tuple[Fraction, str], ...]
    others: int
    others_chance: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcomes": [{**_exact(p), "description": words} for p, words in self.rows],
            "others": {"count": self.others, **_exact(self.others_chance)},
        }


def count_distribution(outcomes: Sequence[Outcome], uid: str | None, name: str) -> dict[str, Fraction]:
    """The exact distribution of the value ``name`` an outcome gives the piece ``uid``
    (0 where it gives none, and everywhere when no piece is named), by value."""
    dist: dict[str, Fraction] = {}
    for o in outcomes:
        value = str(o.effects.get(uid, {}).get(name, 0) if uid else 0)
        dist[value] = dist.get(value, Fraction(0)) + o.probability
    return dict(sorted(dist.items(), key=lambda kv: float(kv[0])))


def unit_chance(outcomes: Sequence[Outcome], uid: str | None, holds: Callable[[Mapping[str, Any]], bool]
                ) -> Fraction:
    """The chance that what an outcome does to the piece ``uid`` ``holds`` (none when no
    piece is named, nor where the outcome leaves it alone)."""
    if not uid:
        return Fraction(0)
    return sum((o.probability for o in outcomes if uid in o.effects and holds(o.effects[uid])), Fraction(0))


def rout_fields(measures: Sequence[OddsMeasure]) -> tuple[str, ...]:
    """The fields of the measures a rule set marks as a rout."""
    return tuple(f for m in measures if m.routs for f in m.fields)


def routs(effect: Mapping[str, Any], fields: Sequence[str]) -> bool:
    """Did a piece rout in one outcome (``effect``: what the outcome did to it)?"""
    return effect.get("removed") == "routed" or any(effect.get(f) for f in fields)


def pieces(state: GameState, outcomes: Sequence[Outcome], measures: Sequence[OddsMeasure],
           first: Sequence[str | None] = ()) -> tuple[PieceOdds, ...]:
    """Every piece some outcome changes, ``first`` (the target, the attacker) leading and
    the rest in the position's own order, with its measures' exact marginals."""
    touched = {uid for o in outcomes for uid in o.effects}
    order = [uid for uid in dict.fromkeys(first) if uid in touched]
    order += [uid for uid in state.units if uid in touched and uid not in order]
    fields = rout_fields(measures)
    found = []
    for uid in order:
        counts: dict[str, dict[str, Fraction]] = {}
        chances: dict[str, Fraction] = {}
        tests = [(m.key, flag(m.fields[0])) for m in measures if m.kind == "unit_flag"]
        tests += [(ROUTS, lambda e: routs(e, fields)), (LEAVES_PLAY, flag("removed"))]
        for m in measures:
            if m.kind == "count":
                dist = count_distribution(outcomes, uid, m.fields[0])
                if set(dist) != {"0"}:
                    counts[m.key] = dist
        for key, holds in tests:
            p = unit_chance(outcomes, uid, holds)
            if p:
                chances[key] = p
        if counts or chances:
            found.append(PieceOdds(uid, state.units[uid].side, counts, chances))
    return tuple(found)


def flag(name: str) -> Callable[[Mapping[str, Any]], bool]:
    """Whether what an outcome does to a piece sets ``name``."""
    return lambda effect: bool(effect.get(name))


def sides(state: GameState, outcomes: Sequence[Outcome],
          measures: Sequence[OddsMeasure]) -> tuple[SideOdds, ...]:
    """For each side, the exact distribution of how many of its units rout."""
    fields = rout_fields(measures)
    found = []
    for side in state.sides:
        dist: dict[int, Fraction] = {}
        for o in outcomes:
            n = sum(1 for uid, e in o.effects.items()
                    if uid in state.units and state.units[uid].side == side and routs(e, fields))
            dist[n] = dist.get(n, Fraction(0)) + o.probability
        found.append(SideOdds(side, dict(sorted(dist.items()))))
    return tuple(found)


def likeliest(outcomes: Sequence[Outcome], limit: int = LIKELIEST) -> Likeliest:
    """The ``limit`` likeliest outcomes in words, those told alike taken together (in one
    order whatever order they were found in), and the rest counted."""
    told: dict[str, Fraction] = {}
    for o in outcomes:
        told[o.description] = told.get(o.description, Fraction(0)) + o.probability
    ranked = sorted(told.items(), key=lambda kv: (-kv[1], kv[0]))
    rest = ranked[limit:]
    return Likeliest(tuple((p, words) for words, p in ranked[:limit]), len(rest),
                     sum((p for _, p in rest), Fraction(0)))


@dataclass(frozen=True)
class RefusedChance:
    """One chance a refused question tells, in words for a front end: the piece and what
    befalls it (``said``), about so much and its 95% interval where draws were made
    (``None`` where none were), and the bounds proved."""

    said: str
    about: str | None
    interval: str | None
    proved: str


def refusal_in_words(told: Mapping[str, Any], name: Callable[[str], str | None]
                     ) -> tuple[str, list[RefusedChance]]:
    """What a refused question tells (``TooManyBranches.told``), as the terminal's table
    and the prompt show it: how much of the chance was walked exactly (and how many draws
    estimate the rest), then each chance, each piece by ``name``."""
    def span(low: float, high: float) -> str:
        return f"{percent(low, 1)} to {percent(high, 1)}"

    drawn = told["draws"]
    heading = f"{percent(told['walked'], 1)} of the chance walked exactly" + (
        f", the rest estimated from {drawn:,} draws" if drawn else "")
    chances = [RefusedChance(f"{name(c['unit']) or c['unit']} {c['words']}",
                             percent(c["estimate"], 1) if drawn else None,
                             span(*c["interval"]) if drawn else None, span(*c["proved"]))
               for c in told["chances"]]
    return heading, chances
