"""What a side may do now, built from its rule set's vocabulary (``RuleSet.ACTION_KINDS``):
the buttons, targets and choices the page and the command line show.

Nothing here names an action type. Each declared kind that fits the moment (its phase,
the decision pending) is filled in from what its fields hold — the side's commands, its
pieces, the enemy's pieces it can see, a field's choices, the values the pending decision
lists — and every offer is an action ``validate`` accepts. Fields no button can fill (a
path, a place on the table, a list of actions) are left to the front end's own ways: a
drag, a click on the table, a plan.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tertia.core.actions import Action, BadActionData, action_from_dict
from tertia.core.game import Game
from tertia.core.narration import command_by_role, default_side_name, possessive
from tertia.core.ruleset import RuleSet
from tertia.core.state import GameState, Unit
from tertia.core.vocabulary import ActionKind, FieldKind, FieldSpec, Interaction
from tertia.rules.codes import MovementCode

PIECE_LISTS = (FieldKind.OWN_UNITS, FieldKind.OWN_COMMANDER)
"""Optional fields offered as a list of the pieces that may fill them, one at a time."""


@dataclass(frozen=True)
class Offer:
    """One legal action for a button (or a target to click), with its kind. ``options``:
    for each optional field naming pieces (supports, a commander), the pieces allowed in
    it one at a time. ``gathered_by``: the type of the action that makes this one together
    with others (larger-battles declares a phase's attacks together). ``allowance``: for a
    move, the inches it may go; ``allowances``: when the ground decides that, the inches
    over each kind of ground (the rule set's :meth:`~tertia.core.ruleset.RuleSet.measure_move`)."""

    kind: ActionKind
    action: Action
    label: str
    target: str | None = None
    options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    gathered_by: str | None = None
    allowance: float | None = None
    allowances: Mapping[str, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action": self.action.to_dict(), "label": self.label, "kind": self.kind.type,
            "interaction": self.kind.interaction.value, "dice_driven": self.kind.dice_driven,
        }
        if self.target is not None:
            out["target"] = self.target
        if self.options:
            out["options"] = {k: list(v) for k, v in self.options.items()}
        if self.gathered_by is not None:
            out["gathered_by"] = self.gathered_by
        if self.kind.interaction is Interaction.DRAG:
            out["allowance"] = self.allowance
            if self.allowances:
                out["allowances"] = dict(self.allowances)
        return out


# --- words --------------------------------------------------------------------------------


def phrase_context(ruleset: RuleSet, state: GameState) -> dict[str, str]:
    """Names an action kind's phrase may use besides its fields: the phase, every string
    in the rule set's summary (the card in play ...), and its ``words``: names kept for
    phrases alone ("the left flank card"), which a summary shown whole leaves out."""
    summary = ruleset.presentation().summary(state)
    words = summary.get("words")
    kept = {k: v for k, v in words.items() if isinstance(v, str)} if isinstance(words, dict) else {}
    return {"phase": state.phase, **{k: v for k, v in summary.items() if isinstance(v, str)}, **kept}


def namer(state: GameState) -> Callable[[str], str | None]:
    """Pieces by name, for templates; ``None`` for anything that is no piece."""
    def name(ident: str) -> str | None:
        unit = state.units.get(ident)
        return unit.label if unit is not None else None

    return name


def command_name(ruleset: RuleSet, state: GameState, command: str,
                 side_names: Mapping[str, str] | None = None, side: str | None = None) -> str | None:
    """A command (the group of units an order or a card moves together) as players call
    it: the rule set's name for it (by default its commander's, "Sir John Meldrum's
    command"), else, no commander leading it, by its side and what it is
    (:func:`~tertia.core.narration.command_by_role`): "the King's Army's horse command"
    with ``side_names`` (each side's name in the battle), "the horse command" without
    (a side's own buttons); ``None`` for no command of the position. Both sides may have
    a command of one name: ``side``'s is named, else the side to act's."""
    owners = {u.side for u in state.units.values() if u.command == command}
    if not owners:
        return None
    if side not in owners:
        side = state.to_act if state.to_act in owners else min(owners)
    named = ruleset.presentation().command_label(state, command, side)
    if named:
        return named
    whose = None if side_names is None else possessive(side_names.get(side) or default_side_name(side))
    return command_by_role(command, side, whose)


def describe(ruleset: RuleSet, state: GameState, action: Action,
             context: Mapping[str, str] | None = None) -> str:
    """A button's words for ``action``, from its declared kind's phrase."""
    kind = ruleset.action_kind(action.type)
    if kind is None:
        return action.type.replace("_", " ").capitalize()
    shown = phrase_context(ruleset, state) if context is None else context
    piece = namer(state)
    return kind.describe(action.to_dict(), lambda ident: piece(ident) or command_name(ruleset, state, ident),
                         shown)


# --- what fits now ------------------------------------------------------------------------


def fitting(ruleset: RuleSet, state: GameState) -> list[ActionKind]:
    """The declared kinds that could be made now, by phase and pending decision."""
    if state.is_over:
        return []
    pending = state.pending.get("kind") if state.pending is not None else None
    return [k for k in ruleset.ACTION_KINDS if k.fits(state.phase, None if pending is None else str(pending))]


def gatherer(ruleset: RuleSet, kind: ActionKind) -> tuple[ActionKind, FieldSpec] | None:
    """The kind (and its field) that makes actions of ``kind`` together, if any."""
    for other in ruleset.ACTION_KINDS:
        for f in other.fields:
            if f.kind is FieldKind.ACTIONS and f.item == kind.type:
                return other, f
    return None


def gathered(ruleset: RuleSet, kind: ActionKind, items: Sequence[Action]) -> Action | None:
    """The action making ``items`` (each of ``kind``) together; None when no kind does."""
    found = gatherer(ruleset, kind)
    if found is None:
        return None
    maker, f = found
    return action_from_dict({"type": maker.type, f.name: [a.to_dict() for a in items]})


def parse_items(ruleset: RuleSet, data: Any) -> tuple[Action, ...]:
    """Planned actions (a JSON list, each of a kind some declared kind gathers); raises
    :class:`BadActionData` naming what is wrong."""
    if not isinstance(data, list):
        raise BadActionData("a plan must be a list of actions")
    items = {f.item for k in ruleset.ACTION_KINDS for f in k.fields if f.kind is FieldKind.ACTIONS}
    if not items:
        if data:
            raise BadActionData(f"{ruleset.id} makes no actions together: nothing may be planned")
        return ()
    kind = sorted(str(i) for i in items)[0]
    found: list[Action] = []
    for i, entry in enumerate(data):
        if not isinstance(entry, Mapping):
            raise BadActionData(f"plan[{i}] must be an object")
        try:
            found.append(action_from_dict({**entry, "type": kind}))
        except BadActionData as exc:
            raise BadActionData(f"plan[{i}]: {exc}") from None
    return tuple(found)


# --- enumerating ---------------------------------------------------------------------------


def _own(state: GameState, side: str, but: str | None = None) -> list[Unit]:
    return [u for u in state.iter_units(side) if u.id != but]


def _values(spec: FieldSpec, state: GameState, side: str) -> list[Any] | None:
    """The values a button may give ``spec``, or None when no list of buttons can (a
    path, a place, a list of actions; a single piece outside a decision: it is offered
    with that piece)."""
    pending: Mapping[str, Any] = state.pending or {}
    if spec.from_pending is not None:
        listed = pending.get(spec.from_pending)
        if isinstance(listed, list | tuple):
            items = [str(v) for v in listed]
        else:  # the one piece or value the decision is about
            items = [] if listed is None else [str(listed)]
        if spec.kind is FieldKind.CARD_ORDER:
            return [tuple(items)]
        return [None, *items] if spec.optional else items
    if spec.kind is FieldKind.CHOICE:
        return [None, *spec.choices] if spec.optional else list(spec.choices)
    if spec.optional:
        return [None]
    if spec.kind is FieldKind.FLAG:
        return [False, True]
    if spec.kind is FieldKind.COMMAND:
        return sorted({u.command for u in state.iter_units(side)})
    return None


def _combinations(kind: ActionKind, fixed: Mapping[str, Any], state: GameState,
                  side: str) -> Iterator[dict[str, Any]]:
    """Every filling of ``kind``'s fields, ``fixed`` ones as given; none when a field cannot
    be filled by buttons."""
    names: list[str] = []
    choices: list[list[Any]] = []
    for spec in kind.fields:
        if spec.name in fixed:
            continue
        values = _values(spec, state, side)
        if values is None:
            return
        names.append(spec.name)
        choices.append(values)
    for combo in itertools.product(*choices):
        data = {"type": kind.type, **fixed}
        data.update({n: v for n, v in zip(names, combo, strict=True) if v is not None})
        yield data


def _build(data: Mapping[str, Any]) -> Action | None:
    try:
        return action_from_dict(data)
    except BadActionData:
        return None


def prompt_offers(game: Game, state: GameState) -> list[Offer]:
    """Legal actions that concern no single piece on the table: answers to the pending
    decision, orders to commands, ending the phase."""
    ruleset = game.ruleset
    side = state.to_act
    context = phrase_context(ruleset, state)
    out: list[Offer] = []
    seen: list[Action] = []
    for kind in fitting(ruleset, state):
        if kind.interaction not in (Interaction.BUTTON, Interaction.ARRANGE):
            continue
        for data in _combinations(kind, {}, state, side):
            action = _build(data)
            # An optional field left out takes its default: the same action as that choice.
            if action is not None and action not in seen and game.is_legal(state, action):
                seen.append(action)
                out.append(Offer(kind, action, describe(ruleset, state, action, context)))
    return out


def prompt_refusals(game: Game, state: GameState, offers: Sequence[Offer]) -> list[Idle]:
    """The kinds of the prompt that are made with no field at all (ending the phase,
    saying a deployment is done) that fit the moment but are not offered, each with the
    rules' first reason: a button a player looks for is never missing without one."""
    offered = {o.kind.type for o in offers}
    found: list[Idle] = []
    for kind in fitting(game.ruleset, state):
        if kind.fields or kind.type in offered or kind.interaction is not Interaction.BUTTON:
            continue
        action = _build({"type": kind.type})
        problems = game.validate(state, action) if action is not None else []
        if action is not None and problems:
            found.append(Idle(kind, problems[0].message, problems[0].rule,
                              describe(game.ruleset, state, action)))
    return found


def unit_offers(game: Game, state: GameState, unit: Unit, shown: Collection[str],
                plan: Sequence[Action] = (), only: str | None = None) -> list[Offer]:
    """What ``unit`` (of the side the state awaits) may do now: every kind whose subject it
    can be (or only the kind of type ``only``), filled in every way the rules allow. A
    kind made together with others (``gathered_by``) is judged beside the actions
    already ``plan``-ned."""
    ruleset = game.ruleset
    side = state.to_act
    if unit.side != side or not unit.in_play:
        return []
    context = phrase_context(ruleset, state)
    out: list[Offer] = []
    seen: set[Action] = set()
    for kind in fitting(ruleset, state):
        if only is not None and kind.type != only:
            continue
        subject = kind.field(kind.subject) if kind.subject else None
        if subject is None or subject.from_pending is not None:
            continue
        fixed = {subject.name: unit.id}
        way = kind.interaction
        if way is Interaction.DRAG:
            probe = _drag_probe(kind, fixed)
            if probe is not None and _may_drag(game, state, probe):
                measure = ruleset.measure_move(game.table, state, probe)
                out.append(Offer(kind, probe, f"Drag to {kind.label.lower()}",
                                 allowance=measure["allowance"] if measure else None,
                                 allowances=measure.get("allowances") if measure else None))
        elif way is Interaction.AIM:
            out.extend(_aimed(game, state, kind, unit, shown, plan, context))
        elif way is Interaction.BUTTON:
            for data in _combinations(kind, fixed, state, side):
                action = _build(data)
                # An optional field left out takes its default: the same action as that
                # choice, offered once.
                if action is not None and action not in seen and game.is_legal(state, action):
                    seen.add(action)
                    out.append(Offer(kind, action, describe(ruleset, state, action, context)))
    return out


@dataclass(frozen=True)
class Idle:
    """Why a piece may not make an action of ``kind`` now: the rules' first reason."""

    kind: ActionKind
    message: str
    rule: str
    words: str | None = None
    """The button's words, for a kind offered as a button when it may be made."""

    def to_dict(self) -> dict[str, str]:
        out = {"kind": self.kind.type, "label": self.kind.label, "message": self.message, "rule": self.rule}
        if self.words is not None:
            out["words"] = self.words
        return out


def idle_reasons(game: Game, state: GameState, unit: Unit, shown: Collection[str]) -> list[Idle]:
    """For a piece of the side the state awaits that is offered nothing, why: for each
    kind that fits the moment and that the piece could make, the rules' own first reason
    for refusing it (a move with its subject alone, an aimed kind at the nearest piece it
    could be aimed at, a button's first filling)."""
    if unit.side != state.to_act or not unit.in_play:
        return []
    found: list[Idle] = []
    for kind in fitting(game.ruleset, state):
        subject = kind.field(kind.subject) if kind.subject else None
        if subject is None or subject.from_pending is not None:
            continue
        fixed: dict[str, Any] = {subject.name: unit.id}
        probe: Action | None = None
        if kind.interaction is Interaction.AIM and kind.target is not None:
            spec = kind.field(kind.target)
            pool = _targets(spec, state, unit, shown) if spec is not None else []
            targets = sorted(pool, key=lambda t: math.hypot(t.x - unit.x, t.y - unit.y))
            if not targets:
                found.append(Idle(kind, "nothing it could be aimed at", kind.rule))
                continue
            probe = _build({"type": kind.type, **fixed, kind.target: targets[0].id})
        elif kind.interaction is Interaction.BUTTON:
            built = (_build(data) for data in _combinations(kind, fixed, state, unit.side))
            probe = next((a for a in built if a is not None), None)
        elif kind.interaction is Interaction.DRAG:
            probe = _drag_probe(kind, fixed)
        if probe is None:
            continue
        problems = [v for v in game.validate(state, probe) if v.code != MovementCode.BAD_PATH]
        if problems:
            found.append(Idle(kind, problems[0].message, problems[0].rule))
    return found


def _drag_probe(kind: ActionKind, fixed: Mapping[str, Any]) -> Action | None:
    """A dragged kind's action with its piece and no path yet (an empty path where the
    kind requires one)."""
    data = {"type": kind.type, **fixed}
    for spec in kind.fields:
        if spec.kind is FieldKind.POINTS and not spec.optional:
            data[spec.name] = []
    return _build(data)


def _may_drag(game: Game, state: GameState, probe: Action) -> bool:
    """May the piece be dragged now: is its action with no path legal, or refused only for
    want of one?"""
    return all(v.code == MovementCode.BAD_PATH for v in game.validate(state, probe))


def _targets(spec: FieldSpec, state: GameState, unit: Unit, shown: Collection[str]) -> list[Unit]:
    if spec.kind is FieldKind.ENEMY_UNIT:
        return [e for e in state.iter_units(state.opponent(unit.side)) if e.id in shown]
    if spec.kind is FieldKind.OWN_COMMANDER:
        return [u for u in _own(state, unit.side, unit.id) if u.is_commander]
    return _own(state, unit.side, unit.id)


def _aimed(game: Game, state: GameState, kind: ActionKind, unit: Unit, shown: Collection[str],
           plan: Sequence[Action], context: Mapping[str, str]) -> list[Offer]:
    """Offers of an aimed kind: one per piece it may be aimed at, each with the pieces its
    optional fields may name."""
    ruleset = game.ruleset
    assert kind.subject is not None and kind.target is not None
    target_spec = kind.field(kind.target)
    assert target_spec is not None
    maker = gatherer(ruleset, kind)
    out: list[Offer] = []
    for target in _targets(target_spec, state, unit, shown):
        fixed = {kind.subject: unit.id, kind.target: target.id}
        for data in _combinations(kind, fixed, state, state.to_act):
            action = _build(data)
            if action is None:
                continue
            alone = gathered(ruleset, kind, (action,))
            together = alone is not None and game.is_legal(state, alone)
            beside = tuple(plan) if together else ()

            def allowed(a: Action, beside: tuple[Action, ...] = beside) -> bool:
                made = gathered(ruleset, kind, (*beside, a)) if beside else a
                return made is not None and game.is_legal(state, made)

            if not allowed(action):
                continue
            options = _options(kind, data, state, unit, target, allowed)
            out.append(Offer(kind, action, describe(ruleset, state, action, context), target=target.id,
                             options=options, gathered_by=maker[0].type if together and maker else None))
    return out


def _options(kind: ActionKind, data: Mapping[str, Any], state: GameState, unit: Unit, target: Unit,
             allowed: Callable[[Action], bool]) -> dict[str, tuple[str, ...]]:
    """For each optional field naming pieces, those allowed in it one at a time."""
    found: dict[str, tuple[str, ...]] = {}
    for spec in kind.fields:
        if not spec.optional or spec.kind not in PIECE_LISTS or spec.from_pending is not None:
            continue
        pool = [u for u in _own(state, unit.side, unit.id) if u.id != target.id
                and u.is_commander == (spec.kind is FieldKind.OWN_COMMANDER)]
        ok: list[str] = []
        for piece in pool:
            value: Any = [piece.id] if spec.kind is FieldKind.OWN_UNITS else piece.id
            action = _build({**data, spec.name: value})
            if action is not None and allowed(action):
                ok.append(piece.id)
        found[spec.name] = tuple(ok)
    return found
