"""Exact odds of any dice-driven action, computed by the code that plays it.

``odds(game, state, action)`` runs the rule set's own resolution under enumerating dice
(:mod:`tertia.analysis.enumerate`) and gathers every distinct result with its exact
probability. There is no second copy of any rule here: only a comparison of the state
before and after.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tertia.analysis.answer import (
    CHANCE_LABELS,
    Likeliest,
    PieceOdds,
    SideOdds,
    count_distribution,
    flag,
    likeliest,
    pieces,
    sides,
    unit_chance,
)
from tertia.analysis.enumerate import MAX_LEAVES, Branch, TooManyBranches, WorkMeter, enumerate_branches
from tertia.analysis.sim.stats import wilson
from tertia.battle import BattleRecord
from tertia.core.actions import Action
from tertia.core.dice import Dice, Distribution, SeededDice
from tertia.core.events import Event
from tertia.core.game import Game
from tertia.core.narration import percent, plural, said_of
from tertia.core.ruleset import ODDS_PARTIES, ActionOver, OddsMeasure, OddsParty, Tx
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.rules.fighting import AttackResolved

UNIT_FIELDS = ("removed", "x", "y", "facing")


@dataclass(frozen=True)
class Outcome:
    """One distinct result: what changed, and its exact probability."""

    probability: Fraction
    effects: Mapping[str, Mapping[str, Any]]
    description: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "probability": float(self.probability),
            "fraction": str(self.probability),
            "effects": {k: dict(v) for k, v in self.effects.items()},
            "description": self.description,
        }


@dataclass(frozen=True)
class Odds:
    """The exact distribution of an action's results, with marginal summaries: of the
    target and the attacker (``summary``), of every piece touched (``pieces``) and of each
    side (``sides``): :mod:`tertia.analysis.answer`."""

    ruleset: str
    action: Action
    attacker: str | None
    target: str | None
    modifiers: tuple[str, ...]
    defender_modifiers: tuple[str, ...]
    outcomes: tuple[Outcome, ...]
    summary: Mapping[str, Any] = field(default_factory=dict)
    measures: tuple[OddsMeasure, ...] = ()
    parties: tuple[OddsParty, ...] = ODDS_PARTIES
    """Whose measures apply to the question (the rule set's ``odds_parties``): a morale
    test's, the unit's alone."""
    pieces: tuple[PieceOdds, ...] = ()
    sides: tuple[SideOdds, ...] = ()

    @property
    def likeliest(self) -> Likeliest:
        """The likeliest outcomes in words, and the chance of all the others."""
        return likeliest(self.outcomes)

    def probability(self, predicate: Any) -> Fraction:
        return sum((o.probability for o in self.outcomes if predicate(o)), Fraction(0))

    def hit_chance(self) -> Fraction:
        """Chance that the target takes at least one hit."""
        return sum(
            (p for k, p in self.summary.get("target_hits_exact", {}).items() if int(k) > 0), Fraction(0)
        )

    def to_dict(self) -> dict[str, Any]:
        summary = {k: v for k, v in self.summary.items() if not k.endswith("_exact")}
        return {
            "rules": self.ruleset,
            "action": self.action.to_dict(),
            "attacker": self.attacker,
            "target": self.target,
            "modifiers": list(self.modifiers),
            "defender_modifiers": list(self.defender_modifiers),
            "outcomes": [o.to_dict() for o in self.outcomes],
            "summary": summary,
            "measures": [{"key": m.key, "kind": m.kind, "label": m.title} for m in self.measures],
            "parties": list(self.parties),
            "pieces": [p.to_dict() for p in self.pieces],
            "chance_labels": dict(CHANCE_LABELS),
            "sides": [s.to_dict() for s in self.sides],
            "likeliest": self.likeliest.to_dict(),
        }


def unit_changes(before: GameState, after: GameState) -> dict[str, dict[str, Any]]:
    """Per unit, the fields an action changed (hits as the number gained). A rule set's
    game-wide values are left out: they may hold what one side must not see."""
    changes: dict[str, dict[str, Any]] = {}
    for uid, old in before.units.items():
        new = after.units[uid]
        if new is old:  # a state shares the pieces nothing changed: most of an army
            continue
        diff: dict[str, Any] = {}
        for name in UNIT_FIELDS:
            a, b = getattr(old, name), getattr(new, name)
            if a != b:
                diff[name] = b
        if new.own is not None and new.own is not old.own:
            for name, b in new.own.changed_from(old.own).items():
                a = getattr(old.own, name, None)
                diff[name] = b - a if name == "hits" and isinstance(a, int) else b
        if old.extra != new.extra:
            diff["extra"] = {k: v for k, v in new.extra.items() if old.extra.get(k) != v}
        if diff:
            changes[uid] = diff
    return changes


def _describe(state: GameState, effects: Mapping[str, Mapping[str, Any]]) -> str:
    """What an outcome did to each piece, a clause a piece, each verb agreeing with the
    piece's name ("Sanders's Dragoons take 1 hit, rout")."""
    parts = []
    for uid, diff in effects.items():
        unit = state.units.get(uid)
        name = unit.label if unit is not None else uid
        phrases = []
        if "hits" in diff:
            n = diff["hits"]
            phrases.append(f"recovers {plural(-n, 'hit')}" if n < 0 else f"takes {plural(n, 'hit')}")
        if diff.get("removed"):
            reason = diff["removed"]
            phrases.append("routs" if reason == "routed" else f"is lost ({reason})")
        if diff.get("out_of_ammo"):
            phrases.append("runs out of ammunition")
        if diff.get("ammo_markers"):
            phrases.append(f"has {plural(diff['ammo_markers'], 'ammunition marker')}")
        if phrases:
            parts.append(said_of(name, phrases))
    return "; ".join(parts) or "no effect"


def _key(effects: Mapping[str, Mapping[str, Any]]) -> str:
    return repr(sorted((k, sorted(v.items())) for k, v in effects.items()))


class UnaskedResponse(ValueError):
    """An answer was given for a decision the rules never ask for in this action (a
    defending commander who cannot take part, say): it would be silently left out."""

    def __init__(self, response: Action) -> None:
        super().__init__(f"the rules ask for no {response.type.replace('_', ' ')} in this action")
        self.response = response


Played = tuple[GameState, list[Event]]
"""What a branch of an action comes to: the position it leaves and the events on the way."""


def _resolver(
    game: Game, state: GameState, action: Action, responses: Sequence[Action] | None,
    *, action_alone: bool = False,
) -> Callable[[Dice], Played]:
    """The action's resolution as a function of the dice, answering any decision the rules
    ask of the other side mid-action with ``responses`` or the rule set's defaults; an
    answer the rules never ask for is refused (:class:`UnaskedResponse`). With
    ``action_alone`` it stops where the rules say the action is over
    (:meth:`Tx.action_over <tertia.core.ruleset.Tx.action_over>`).

    The steps before the first die (a declaration, a decision answered) play alike on
    every branch: they are worked out once (:func:`_fixed_start`) and each walk of the
    chance tree starts where they end."""
    done, start, begun = _fixed_start(game, state, action, responses, action_alone)

    def run(dice: Dice) -> Played:
        tx = Tx(game.table, start, dice, ends_with_action=action_alone)
        tx.events = list(begun)
        with contextlib.suppress(ActionOver):
            _play_out(game, tx, action, responses, done=done)
        return tx.state, tx.events

    return run


class _DieWanted(BaseException):
    """The rules asked for a die while the steps that need none were being worked out."""


class _NoDice:
    """Dice for the steps before the first roll: none may be rolled."""

    def roll(self, dist: Distribution, purpose: str) -> int:
        raise _DieWanted


def _fixed_start(game: Game, state: GameState, action: Action, responses: Sequence[Action] | None,
                 action_alone: bool) -> tuple[int, GameState, list[Event]]:
    """How many of the action's steps (the action, then each answer) complete without a
    die, and the state and events they leave. A step that rolls, ends the action or is
    refused is left to the walks, which play it (and raise what it raises) as before."""
    tx = Tx(game.table, state, _NoDice(), ends_with_action=action_alone)
    reached = (0, state, list[Event]())

    def completed(steps: int) -> None:
        nonlocal reached
        reached = (steps, tx.state, list(tx.events))

    with contextlib.suppress(_DieWanted, ActionOver, IllegalAction, UnaskedResponse):
        _play_out(game, tx, action, responses, completed=completed)
    return reached


def _play_out(game: Game, tx: Tx, action: Action, responses: Sequence[Action] | None, *,
              done: int = 0, completed: Callable[[int], None] | None = None) -> None:
    """Resolve ``action``, then answer each decision the rules ask mid-action; the first
    ``done`` of these steps are already in ``tx`` (:func:`_fixed_start`), and
    ``completed``, when given, hears how many steps are complete after each."""
    ruleset = game.ruleset
    if done == 0:
        ruleset.resolve(tx, action)
        done = 1
        if completed is not None:
            completed(done)
    queue = list(responses)[done - 1:] if responses is not None else None
    while tx.state.pending is not None and not tx.state.is_over:
        if queue is not None:
            if not queue:
                break
            answer = queue.pop(0)
        else:
            defaults = ruleset.default_responses(tx.state)
            if not defaults:
                break
            answer = defaults[0]
        problems = ruleset.validate(game.table, tx.state, answer)
        if problems:
            raise IllegalAction(problems)
        ruleset.resolve(tx, answer)
        done += 1
        if completed is not None:
            completed(done)
    if queue:
        raise UnaskedResponse(queue[0])


def chance_outcomes(
    game: Game, state: GameState, action: Action, *, responses: Sequence[Action] | None = (),
    max_leaves: int = MAX_LEAVES, budget: int | None = None,
) -> list[tuple[Fraction, GameState, list[Event]]]:
    """Every state ``action`` can lead to, with its exact probability: the chance node of a
    search tree. Branches ending in the same state are merged. By default no decision of
    the other side is answered (the returned states may await one).

    An action can set off a chain of tests (a rout passing friends, each testing in turn)
    whose tree is too large to walk: with more than ``max_leaves`` branches, those of the
    tests settled apart included, it is refused with
    :class:`~tertia.analysis.enumerate.TooManyBranches`, which can take half a minute of
    CPU. ``budget`` bounds the work, as for :func:`odds`
    (:data:`~tertia.analysis.enumerate.ODDS_BUDGET` is about a second of CPU): a tree not
    walked within it is refused too. Neither is ever answered in part."""
    violations = game.validate(state, action)
    if violations:
        raise IllegalAction(violations)
    merged: dict[str, tuple[Fraction, GameState, list[Event]]] = {}
    run = _resolver(game, state, action, responses)
    for branch in enumerate_branches(run, max_leaves=max_leaves, budget=budget):
        final, events = branch.result
        final = final.evolve(step=state.step + 1)
        key = final.state_hash()
        prob = merged[key][0] + branch.probability if key in merged else branch.probability
        merged[key] = (prob, final, events)
    return sorted(merged.values(), key=lambda t: -t[0])


def odds(
    game: Game, state: GameState, action: Action, *, responses: Sequence[Action] | None = None,
    max_leaves: int = MAX_LEAVES, budget: int | None = None, meter: WorkMeter | None = None,
    face_by_face: bool = False, apart: bool = True, sample: int | None = None,
) -> Odds:
    """Every result of ``action`` in ``state`` with its exact probability.

    A decision the rules ask of the other side mid-action (a defending commander, say) is
    answered by ``responses`` in order, or by the rule set's default answers. An action
    with more than ``max_leaves`` branches (those of the steps settled apart included:
    :attr:`~tertia.analysis.enumerate.WorkMeter.branches`), or more work than ``budget`` (when given:
    :data:`~tertia.analysis.enumerate.ODDS_BUDGET`), is refused
    (:class:`~tertia.analysis.enumerate.TooManyBranches`), its message giving the bounds
    the branches walked prove and, from ``sample`` more work (by default half the
    ``budget``) drawing at random from the branches not walked, an estimate of each
    (:func:`~tertia.analysis.enumerate.sample_rest`). ``meter``, when given, counts the
    work done.
    ``face_by_face`` walks every die face by face (the plain walk, for checking); without
    ``apart`` every step the rules settle apart is walked as it runs (for checking too)."""
    violations = game.validate(state, action)
    if violations:
        raise IllegalAction(violations)
    ruleset = game.ruleset
    run = _resolver(game, state, action, responses, action_alone=True)
    try:
        branches = enumerate_branches(
            run, max_leaves=max_leaves, budget=budget, meter=meter, face_by_face=face_by_face,
            apart=apart, sample=(budget or 0) // 2 if sample is None else sample)
    except TooManyBranches as refused:
        raise _bounded(game, state, action, refused) from None
    outcomes, attack = _outcomes(game, state, branches)
    attacker, target = _parties(action, attack)
    return Odds(
        ruleset=ruleset.id,
        action=action,
        attacker=attacker,
        target=target,
        modifiers=tuple(attack.modifiers) if attack else (),
        defender_modifiers=tuple(attack.defender_modifiers) if attack else (),
        outcomes=outcomes,
        summary=summarise(state, outcomes, attacker, target, ruleset.ODDS_MEASURES),
        measures=ruleset.ODDS_MEASURES,
        parties=ruleset.odds_parties(action),
        pieces=pieces(state, outcomes, ruleset.ODDS_MEASURES, (target, attacker)),
        sides=sides(state, outcomes, ruleset.ODDS_MEASURES),
    )


def _parties(action: Action, attack: AttackResolved | None) -> tuple[str | None, str | None]:
    """The attacker and the target an odds answer is about: the attack's, when one was
    resolved, else those the action names."""
    if attack is not None:
        return attack.attacker, attack.target
    target = getattr(action, "target", None)
    attacker = getattr(action, "attacker", None) or getattr(action, "gun", None) or (
        getattr(action, "unit", None) if target is not None else None)
    return attacker, target


def _outcomes(game: Game, state: GameState, branches: Sequence[Branch[Played]]
              ) -> tuple[tuple[Outcome, ...], AttackResolved | None]:
    """The distinct results of ``branches`` (equal effects merged), likeliest first, and the
    attack they resolve, if any."""
    ruleset = game.ruleset
    merged: dict[str, tuple[Fraction, dict[str, dict[str, Any]]]] = {}
    attack: AttackResolved | None = None
    for branch in branches:
        final, events = branch.result
        if attack is None:
            attack = next((e for e in events if isinstance(e, AttackResolved)), None)
        effects = unit_changes(state, final)
        for uid, values in ruleset.odds_effects(state, final, events).items():
            effects.setdefault(uid, {}).update(values)
        key = _key(effects)
        prob, _ = merged.get(key, (Fraction(0), effects))
        merged[key] = (prob + branch.probability, effects)
    outcomes = tuple(
        sorted(  # in one order whatever order the walk found them in
            (Outcome(p, eff, ruleset.describe_effects(state, eff) or _describe(state, eff))
             for p, eff in merged.values()),
            key=lambda o: (-o.probability, o.description, _key(o.effects)),
        )
    )
    return outcomes, attack


def _bounded(game: Game, state: GameState, action: Action, refused: TooManyBranches) -> TooManyBranches:
    """``refused`` with the bounds its walked branches prove on each chance the summary
    gives of the target and of the attacker, those the question has (:func:`bounds_in_words`),
    and what its draws from the rest estimate of each (:func:`estimates_in_words`)."""
    walked = refused.walked
    if walked is None or not refused.partial:
        return refused
    summary, attacker, target = summary_of(game, state, action, refused.partial)
    measures = game.ruleset.ODDS_MEASURES
    parties = game.ruleset.odds_parties(action)
    named: tuple[tuple[str, str | None], ...] = (("target", target), ("attacker", attacker))
    names: dict[str, str] = {who: state.units[uid].label for who, uid in named
                             if uid is not None and uid in state.units and who in parties}
    rest, draws = 1 - walked, len(refused.sampled)
    proved = "; " + bounds_in_words(summary, measures, names, rest)
    guess = summary_of(game, state, action, [*refused.partial, *refused.sampled])[0] if draws else None
    if guess is not None:
        proved += "; " + estimates_in_words(summary, guess, measures, names, rest, draws)
    bounded = TooManyBranches(f"{refused}{proved}", refused.partial, walked, refused.sampled)
    units = {"target": target, "attacker": attacker}
    bounded.told = {"walked": float(walked), "draws": draws, "chances": [
        {"party": who, "unit": units[who], **chance}
        for who, chances in told_in_data(summary, guess, measures, names, rest, draws) for chance in chances]}
    return bounded


def told_in_data(walked: Mapping[str, Any], estimated: Mapping[str, Any] | None,
                 measures: Sequence[OddsMeasure], names: Mapping[str, str], rest: Fraction,
                 draws: int) -> list[tuple[str, list[dict[str, Any]]]]:
    """What a refusal tells of each piece's chances, as data: each chance's key
    (``chance``) and words (agreeing with the piece's name), the bounds the walked
    branches prove (``proved``) and, where
    draws were made (``estimated`` summarises them with the walked branches), the estimate
    and its 95% ``interval`` (:func:`estimates`)."""
    def agreed(who: str, title: str) -> str:  # the verb agreeing with the piece's name
        return said_of(names[who], [title]).removeprefix(names[who]).strip()

    if estimated is None:
        return [(who, [{"chance": key, "words": agreed(who, title),
                        "proved": [float(p), float(min(p + rest, Fraction(1)))]} for key, title, p in told])
                for who, told in told_chances(walked, measures, names)]
    return [(who, [{"chance": e.key, "words": agreed(who, e.title), "proved": [e.proved_low, e.proved_high],
                    "estimate": e.estimate, "interval": [e.low, e.high]} for e in told])
            for who, told in estimates(walked, estimated, measures, names, rest, draws)]


def summary_of(game: Game, state: GameState, action: Action, branches: Sequence[Branch[Played]]
               ) -> tuple[dict[str, Any], str | None, str | None]:
    """The marginals (:func:`summarise`) of ``branches`` of ``action`` in ``state``, all of
    them or some (their chances need not add up to one), with the attacker and the target
    they are of."""
    outcomes, attack = _outcomes(game, state, branches)
    attacker, target = _parties(action, attack)
    return summarise(state, outcomes, attacker, target, game.ruleset.ODDS_MEASURES), attacker, target


def played_out(game: Game, state: GameState, action: Action, *, responses: Sequence[Action] | None = None,
               draws: int, seed: int) -> list[Branch[Played]]:
    """``draws`` results of ``action`` in ``state``, each played with dice of its own seed
    (``seed``, ``seed + 1``, ...) and weighing a share of one: a plain simulation, against
    which an estimate can be checked (``benchmarks/odds_estimates.py``)."""
    run = _resolver(game, state, action, responses, action_alone=True)
    share = Fraction(1, draws)
    return [Branch(run(SeededDice(seed + n)), share, ()) for n in range(draws)]


def bounds_in_words(summary: Mapping[str, Any], measures: Sequence[OddsMeasure], names: Mapping[str, str],
                    rest: Fraction) -> str:
    """What the branches walked prove of each piece's chances (``summary``'s exact ones,
    the target's and the attacker's, by ``names``), ``rest`` the chance not yet walked:
    each chance they show at least, at most that plus ``rest``, in the rule set's words
    (its unit flags' titles, then the common rout where it has none of its own, and
    leaving play unless that is only by the rout already told).

    >>> from tertia.core.ruleset import OddsMeasure
    >>> fell = OddsMeasure("fell_back", "unit_flag", ("fell_back",), "falls back")
    >>> summary = {"target_fell_back_exact": Fraction(1, 4), "target_routed_exact": Fraction(1, 4),
    ...            "target_removed_exact": Fraction(1, 4)}
    >>> said = bounds_in_words(summary, [fell], {"target": "Essex's Foot"}, Fraction(1, 2))
    >>> said.split(": ")[1].split(" (")[0]
    "Essex's Foot falls back 25.0% to 75.0%, is routed from the field 25.0% to 75.0%"
    """
    parts: list[str] = []
    for who, told in told_chances(summary, measures, names):
        bounds = [f"{title} {percent(float(p), 1)} to {percent(float(min(p + rest, Fraction(1))), 1)}"
                  for _, title, p in told]
        parts.append(said_of(names[who], bounds))
    left = percent(float(rest), 1)
    if not parts:
        return f"the chances it tells are each at most {left} (none showed in the branches walked)"
    return f"the branches walked prove: {'; '.join(parts)} ({left} of the chance not yet walked)"


def estimates_in_words(walked: Mapping[str, Any], estimated: Mapping[str, Any],
                       measures: Sequence[OddsMeasure], names: Mapping[str, str], rest: Fraction,
                       draws: int) -> str:
    """:func:`estimates` in words, each piece by its name in ``names``.

    >>> from tertia.core.ruleset import OddsMeasure
    >>> walked = {"target_routed_exact": Fraction(1, 4)}
    >>> estimated = {"target_routed_exact": Fraction(1, 4) + Fraction(1, 2) * Fraction(30, 100)}
    >>> said = estimates_in_words(walked, estimated, [], {"target": "Essex's Foot"}, Fraction(1, 2), 100)
    >>> said.split(": ")[1]
    "Essex's Foot is routed from the field 40.0% (35.9% to 44.8%) (95% intervals)"
    """
    parts = [said_of(names[who], [f"{e.title} {percent(e.estimate, 1)} ({percent(e.low, 1)} to "
                                  f"{percent(e.high, 1)})" for e in told])
             for who, told in estimates(walked, estimated, measures, names, rest, draws)]
    if not parts:
        return f"{draws:,} draws from the chance not walked show none of the chances it tells"
    return f"{draws:,} draws from the chance not walked estimate: {'; '.join(parts)} (95% intervals)"


@dataclass(frozen=True)
class Estimate:
    """A chance a refusal estimates (:func:`estimates`): its key and words, the estimate
    and its 95% interval, and the bounds the walked branches prove."""

    key: str
    title: str
    estimate: float
    low: float
    high: float
    proved_low: float
    proved_high: float


def estimates(walked: Mapping[str, Any], estimated: Mapping[str, Any], measures: Sequence[OddsMeasure],
              names: Mapping[str, str], rest: Fraction, draws: int) -> list[tuple[str, list[Estimate]]]:
    """What ``draws`` results drawn at random from the chance not walked (``rest``) make
    of each chance :func:`bounds_in_words` bounds, for the target and the attacker in
    ``names``: ``estimated`` summarises the walked branches and the draws together,
    ``walked`` the walked alone; each estimate with its 95% interval (Wilson's, of the
    share of the draws, scaled to ``rest``), always within the bounds."""
    found: list[tuple[str, list[Estimate]]] = []
    for who, told in told_chances(estimated, measures, names):
        guesses: list[Estimate] = []
        for key, title, p in told:
            known = walked.get(f"{who}_{key}_exact")
            base = known if isinstance(known, Fraction) else Fraction(0)
            share = wilson(round(float((p - base) / rest) * draws), draws)
            guesses.append(Estimate(key, title, float(p), float(base + rest * Fraction(share.low)),
                                    float(base + rest * Fraction(share.high)), float(base),
                                    float(min(base + rest, Fraction(1)))))
        found.append((who, guesses))
    return found


def told_measures(measures: Sequence[OddsMeasure]) -> list[tuple[str, str]]:
    """The chances a refusal tells of a piece, each by its key and its words: the rule
    set's unit flags, then the common rout where it has none of its own, then leaving play."""
    named = [m for m in measures if m.kind == "unit_flag"]
    common = [] if any(m.routs for m in named) else [("routed", "is routed from the field")]
    return [(m.key, m.title) for m in named] + common + [("removed", "leaves play")]


def told_chances(summary: Mapping[str, Any], measures: Sequence[OddsMeasure], names: Mapping[str, str]
                 ) -> list[tuple[str, list[tuple[str, str, Fraction]]]]:
    """For the target and the attacker that ``names`` names, the chances of ``summary``
    a refusal tells (:func:`told_measures`), each by its key and its words: those above
    nothing, and leaving play only where it is not by the rout already told."""
    routs = [m.key for m in measures if m.kind == "unit_flag" and m.routs] or ["routed"]
    found: list[tuple[str, list[tuple[str, str, Fraction]]]] = []
    for who in ("target", "attacker"):
        told: list[tuple[str, str, Fraction]] = []
        for key, title in told_measures(measures):
            p = summary.get(f"{who}_{key}_exact")
            if not isinstance(p, Fraction) or not p:
                continue
            if key == "removed" and any(summary.get(f"{who}_{k}_exact") == p for k in routs):
                continue  # it leaves play only by its rout, told already
            told.append((key, title, p))
        if told and who in names:
            found.append((who, told))
    return found


def summarise(
    state: GameState, outcomes: Sequence[Outcome], attacker: str | None, target: str | None,
    measures: Sequence[OddsMeasure] = (),
) -> dict[str, Any]:
    """Marginals: whether the target and the attacker leave play (routed or otherwise) and
    whether a commander is lost, for every rule set; then the rule set's own ``measures``
    (:attr:`RuleSet.ODDS_MEASURES <tertia.core.ruleset.RuleSet.ODDS_MEASURES>`): a count's
    distribution for the target and the attacker (``target_hits``), a unit flag's chance
    for each of them (``target_broken``), a flag's chance on any unit
    (``ammunition_exhausted``)."""

    def chance(pred: Any) -> Fraction:
        return sum((o.probability for o in outcomes if pred(o)), Fraction(0))

    def removed(uid: str | None, reason: str | None = None) -> Fraction:
        """Chance that a unit leaves play (for ``reason`` only, when given)."""
        return unit_chance(outcomes, uid, lambda e: bool(e.get("removed")) and reason in (None, e["removed"]))

    commanders = {u.id for u in state.units.values() if u.is_commander}
    summary: dict[str, Any] = {}
    chances: dict[str, Fraction] = {}
    for m in measures:
        if m.kind == "count":
            for who, uid in (("target", target), ("attacker", attacker)):
                dist = count_distribution(outcomes, uid, m.fields[0])
                summary[f"{who}_{m.key}"] = {k: float(v) for k, v in dist.items()}
                summary[f"{who}_{m.key}_exact"] = dist
        elif m.kind == "unit_flag":
            for who, uid in (("target", target), ("attacker", attacker)):
                chances[f"{who}_{m.key}"] = unit_chance(outcomes, uid, flag(m.fields[0]))
        else:
            chances[m.key] = chance(lambda o, names=m.fields: any(
                any(d.get(n) for n in names) for d in o.effects.values()))
    chances.update({
        "target_routed": removed(target, "routed"),
        "attacker_routed": removed(attacker, "routed"),
        "target_removed": removed(target),
        "attacker_removed": removed(attacker),
        "commander_lost": chance(
            lambda o: any(uid in commanders and d.get("removed") for uid, d in o.effects.items())
        ),
    })
    for name, p in chances.items():
        summary[name] = float(p)
        summary[f"{name}_exact"] = p
    return summary


def hit_phrase(o: Odds) -> str:
    """"7/12 to inflict a hit" for narratives and reports."""
    p = o.hit_chance()
    if p == 1:
        return "certain to hit"
    return f"{p} to inflict a hit" if p else "no chance to hit"


def odds_notes(record: BattleRecord) -> dict[int, str]:
    """For every resolved attack in a battle, the odds it had, keyed by ``id`` of its
    :class:`AttackResolved` event: "7/12 to inflict a hit"."""
    notes: dict[int, str] = {}
    before = record.initial_state
    for step in record.steps:
        resolved = [e for e in step.events if isinstance(e, AttackResolved)]
        if resolved:
            try:
                result = odds(record.game, before, step.action, responses=[])
            except (IllegalAction, TooManyBranches):
                result = None
            if result is not None:
                for e in resolved:
                    notes[id(e)] = hit_phrase(result)
        before = step.state
    return notes
