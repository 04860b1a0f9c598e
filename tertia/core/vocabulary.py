"""What a rule set tells front ends about its play: its action kinds, the decisions it
awaits and the panels that show them.

A rule set declares these (``RuleSet.ACTION_KINDS``, ``DECISION_KINDS``, ``PANELS``);
the page, the HTTP API and the command line build their buttons, prompts and panels from
them, so a rule set's own actions (a d3-cards commander's rally, say) reach every front
end without the front end naming them. Everything here is a frozen value with a
JSON-ready ``to_dict``; nothing here judges legality, which stays ``validate``'s.

Templates (an action kind's ``phrase``, a decision's ``prompt``) name values in braces:
``{commander} rallies {unit}``. A name is a field of the action, or a dotted path into
the pending decision's context (``{attack.target}``); ids of pieces read as their names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

NAME = re.compile(r"[a-z][a-z0-9_]*")
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_.]*)\}")


class FieldKind(StrEnum):
    """What an action's field holds, so a front end knows how to ask for it."""

    OWN_UNIT = "own-unit"
    """One of the acting side's pieces in play (a unit or a commander)."""
    OWN_COMMANDER = "own-commander"
    """One of the acting side's commanders."""
    ENEMY_UNIT = "enemy-unit"
    """One of the other side's pieces, as the acting side sees them."""
    OWN_UNITS = "own-units"
    """A list of the acting side's units, commanders aside (supporting units, say)."""
    COMMAND = "command"
    """One of the acting side's commands by name, or one of its pieces."""
    POINTS = "points"
    """A path across the table: a list of ``[x, y]`` points in inches."""
    COORDINATE = "coordinate"
    """One coordinate of a place on the table, in inches (``x`` east, ``y`` north)."""
    FACING = "facing"
    """Degrees clockwise from north."""
    CHOICE = "choice"
    """One of the field's ``choices``."""
    FLAG = "flag"
    """True or false."""
    CARD_ORDER = "card-order"
    """The cards a decision deals, in the order the player chooses."""
    ACTIONS = "actions"
    """A list of actions of the field's ``item`` type, made together."""


UNIT_KINDS = frozenset({FieldKind.OWN_UNIT, FieldKind.OWN_COMMANDER, FieldKind.ENEMY_UNIT})
"""Fields naming one piece."""


class Interaction(StrEnum):
    """How a front end has a player make an action of a kind (derived from its fields)."""

    DRAG = "drag"
    """Draw a path on the table (a move)."""
    PLACE = "place"
    """Click a place on the table (a piece deployed)."""
    ARRANGE = "arrange"
    """Put a decision's cards in order."""
    GATHER = "gather"
    """Plan several actions, then make them together."""
    AIM = "aim"
    """Choose the unit it is aimed at (the odds first when it is dice-driven)."""
    BUTTON = "button"
    """Every value can be offered: one button per legal action."""


WAYS = (
    (FieldKind.POINTS, Interaction.DRAG),
    (FieldKind.COORDINATE, Interaction.PLACE),
    (FieldKind.CARD_ORDER, Interaction.ARRANGE),
    (FieldKind.ACTIONS, Interaction.GATHER),
)
"""Fields that call for their own way of making an action; the first found decides."""


@dataclass(frozen=True)
class FieldSpec:
    """One field of an action's JSON, as a front end asks for it.

    ``optional`` fields may be left out (they have a default). ``from_pending`` names the
    key of the pending decision's context that lists the values allowed (the commanders
    eligible to encourage, the pieces waiting to deploy, the cards to order).
    ``none_label`` is how an optional field left out reads ("no commander"); ``item`` is
    the action type of each entry of an :attr:`FieldKind.ACTIONS` field."""

    name: str
    label: str
    kind: FieldKind
    optional: bool = False
    choices: tuple[str, ...] = ()
    from_pending: str | None = None
    none_label: str = ""
    item: str | None = None
    choice_labels: tuple[str, ...] = ()
    """How each of ``choices`` reads on a button, in the same order (default: the choice
    itself, its underscores as spaces)."""
    flag_labels: tuple[str, ...] = ()
    """How a flag field reads set and not set, in that order (default: yes and no), where
    an action's phrase gives it ("{unit} {mounted}": "mounts", "dismounts")."""

    def __post_init__(self) -> None:
        if not NAME.fullmatch(self.name):
            raise ValueError(f"field name {self.name!r} is not a lower-case identifier")
        if (self.kind is FieldKind.CHOICE) != bool(self.choices):
            raise ValueError(f"field {self.name}: choices go with (and only with) a choice field")
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError(f"field {self.name}: one label for each choice")
        if self.flag_labels and (self.kind is not FieldKind.FLAG or len(self.flag_labels) != 2):
            raise ValueError(f"field {self.name}: a flag's two labels go with (and only with) a flag field")
        if (self.kind is FieldKind.ACTIONS) != (self.item is not None):
            raise ValueError(f"field {self.name}: an item type goes with (and only with) a list of actions")

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "label": self.label, "kind": self.kind.value,
            "optional": self.optional, "choices": list(self.choices),
            "from_pending": self.from_pending, "none_label": self.none_label, "item": self.item,
            "choice_labels": [self.choice_label(c) for c in self.choices],
            "flag_labels": list(self.flag_labels or ("yes", "no")) if self.kind is FieldKind.FLAG else [],
        }

    def choice_label(self, value: str) -> str:
        """How the choice ``value`` reads on a button."""
        if value in self.choices and self.choice_labels:
            return self.choice_labels[self.choices.index(value)]
        return value.replace("_", " ")


@dataclass(frozen=True)
class ActionKind:
    """One kind of action a rule set accepts (its JSON ``type``), as front ends offer it.

    ``label`` names the kind ("Rally"); ``phrase`` words one action of it for a button
    ("{commander} rallies {unit}"); ``rule`` is the clause it serves. ``dice_driven``: its
    dice are the point of it, so a front end shows the odds before it is made. ``odds``:
    whether odds may be asked at all (not for an action that decides nothing by dice
    itself and is followed by a whole turn of play, such as ordering cards). ``decision``
    is the pending decision kind it answers (``None``: it is played when nothing is
    pending); ``phases`` the phases it is played in (empty: any). ``subject`` names the
    field holding the piece that acts, so it is offered when that piece is selected;
    ``target`` the field holding the piece it is aimed at."""

    type: str
    label: str
    phrase: str
    rule: str
    fields: tuple[FieldSpec, ...] = ()
    dice_driven: bool = False
    odds: bool = True
    decision: str | None = None
    phases: tuple[str, ...] = ()
    subject: str | None = None
    target: str | None = None
    help: str = ""

    def __post_init__(self) -> None:
        if not NAME.fullmatch(self.type):
            raise ValueError(f"action type {self.type!r} is not a lower-case identifier")
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.type}: a field is named twice")
        for role in (self.subject, self.target):
            if role is not None and role not in names:
                raise ValueError(f"{self.type}: {role!r} is not one of its fields")
        if self.dice_driven and not self.odds:
            raise ValueError(f"{self.type}: a dice-driven action must allow odds")

    def field(self, name: str) -> FieldSpec | None:
        return next((f for f in self.fields if f.name == name), None)

    @property
    def interaction(self) -> Interaction:
        """How a player makes it, from its fields: a path is dragged, a place clicked,
        cards arranged, a list of actions gathered, a target aimed at; else a button."""
        kinds = {f.kind for f in self.fields}
        for kind, way in WAYS:
            if kind in kinds:
                return way
        return Interaction.AIM if self.target is not None else Interaction.BUTTON

    def fits(self, phase: str, pending_kind: str | None) -> bool:
        """Could an action of this kind be made now (before ``validate`` has its say)?"""
        if pending_kind is not None or self.decision is not None:
            return self.decision == pending_kind
        return not self.phases or phase in self.phases

    def describe(self, values: Mapping[str, Any], name: Callable[[str], str | None],
                 context: Mapping[str, Any] | None = None) -> str:
        """A button's words for one action of this kind (its JSON ``values``): the
        ``phrase`` with each field filled in (pieces by ``name``, commands as "the left
        command", a field left out by its ``none_label``) and other names looked up in
        ``context``; the ``label`` when the phrase names something missing."""
        shown = dict(context or {})
        for f in self.fields:
            shown[f.name] = _render(f, values.get(f.name), name)
        text = fill(self.phrase, lambda path: _plain(_lookup(shown, path), lambda _: None))
        return capitalise(" ".join(text.split())) if text is not None else self.label

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type, "label": self.label, "phrase": self.phrase, "rule": self.rule,
            "fields": [f.to_dict() for f in self.fields], "dice_driven": self.dice_driven,
            "odds": self.odds, "decision": self.decision, "phases": list(self.phases),
            "subject": self.subject, "target": self.target, "help": self.help,
            "interaction": self.interaction.value,
        }


@dataclass(frozen=True)
class DecisionKind:
    """A decision the rules await from one side (``state.pending["kind"]``): its
    ``label``, the ``prompt`` a front end shows (a template over the pending context),
    the action type that ``answer``s it, the ``panel`` that shows it (``None``: the
    prompt's buttons) and the ``rule`` it comes from.

    ``time_limit``: seconds a player at the table has to decide, when the rules set a
    limit in real time (the engine never times anything: a front end may, at the
    player's wish); ``on_time_out`` is the answer's field values the rules take when
    that time runs out (``(("option", "defer"),)``). ``told``: the rule set's own events
    tell the answer ("Meldrum's Brigade: advance"), so the log leaves out the generic
    lines of the decision awaited and made. ``made``: how the log tells a choice, a verb
    phrase over ``{choice}`` (the choice in words) said of the side that chose ("give the
    free move to {choice}": "Royalists give the free move to Henry Wentworth"); empty,
    "Royalists choose Henry Wentworth (free move)". ``declined``: how the log tells the
    answer that chooses nothing, a verb phrase said of the side ("send no commander to
    encourage the defence"); empty, "Parliament declines (encourage the defence)"."""

    kind: str
    label: str
    prompt: str
    answer: str
    rule: str
    panel: str | None = None
    time_limit: float | None = None
    on_time_out: tuple[tuple[str, str], ...] = ()
    told: bool = False
    made: str = ""
    declined: str = ""

    def __post_init__(self) -> None:
        if self.time_limit is not None and self.time_limit <= 0:
            raise ValueError(f"decision {self.kind}: a time limit is a number of seconds above 0")
        if bool(self.on_time_out) != (self.time_limit is not None):
            raise ValueError(f"decision {self.kind}: a time limit goes with (and only with) "
                             "the answer taken when it runs out")

    def ask(self, pending: Mapping[str, Any], name: Callable[[str], str | None]) -> str:
        """The prompt filled in from the pending context (pieces by name)."""
        text = fill(self.prompt, lambda path: _plain(_lookup(pending, path), name))
        return text if text is not None else self.label

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "label": self.label, "prompt": self.prompt,
                "answer": self.answer, "rule": self.rule, "panel": self.panel,
                "time_limit": self.time_limit, "on_time_out": dict(self.on_time_out)}

    def choice_told(self, choice: str) -> str | None:
        """The verb phrase the log tells a choice of this decision by (``choice`` in
        words), or None where the rule set gives none.

        >>> DecisionKind("order", "Command card order", "?", "order_cards", "r",
        ...              made="lay {choice}").choice_told("5 cards face down")
        'lay 5 cards face down'
        """
        return self.made.replace("{choice}", choice) if self.made else None

    def none_told(self) -> str | None:
        """The verb phrase the log tells the answer choosing nothing by, or None where the
        rule set gives none.

        >>> DecisionKind("encourage", "Encourage", "?", "encourage", "r",
        ...              declined="send no commander").none_told()
        'send no commander'
        """
        return self.declined or None


ORDERS = "orders"
COMMAND_CARDS = "command-cards"
DECK = "deck"
DEPLOYMENT = "deployment"
ATTACK_PLAN = "attack-plan"
PANEL_NAMES = (ORDERS, COMMAND_CARDS, DECK, DEPLOYMENT, ATTACK_PLAN)
"""The panels the shared blocks fill (orders, command cards, a deck, deployment, an attack
plan). A rule set may declare a panel of any other name and fill it itself, from generic
sections (:meth:`Presentation.panel <tertia.core.presentation.Presentation.panel>`)."""

_PANEL_NAME = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$")


@dataclass(frozen=True)
class PanelKind:
    """A panel beside the table: one of :data:`PANEL_NAMES` or a rule set's own (which its
    presentation fills), with the ``label`` it is headed by, what it shows (``help``), and
    the action type it makes, if any (its actions are then made there rather than as the
    prompt's buttons)."""

    name: str
    label: str
    help: str
    action: str | None = None

    def __post_init__(self) -> None:
        if not _PANEL_NAME.match(self.name):
            raise ValueError(f"panel name {self.name!r}: lower-case words joined by - or _")

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "help": self.help, "action": self.action}


def vocabulary_problems(
    actions: Iterable[ActionKind], decisions: Iterable[DecisionKind], panels: Iterable[PanelKind]
) -> list[str]:
    """Where a rule set's declarations disagree with each other: a type declared twice, a
    decision answered by no declared action, an action answering an undeclared decision,
    a panel or list item naming nothing declared. Empty when they agree."""
    acts, decs, pans = list(actions), list(decisions), list(panels)
    types = {a.type for a in acts}
    kinds = {d.kind for d in decs}
    names = {p.name for p in pans}
    problems = [f"action type {t!r} declared twice" for t in sorted(types)
                if sum(a.type == t for a in acts) > 1]
    for d in decs:
        if d.answer not in types:
            problems.append(f"decision {d.kind!r} is answered by {d.answer!r}, which is not declared")
        if d.panel is not None and d.panel not in names:
            problems.append(f"decision {d.kind!r} is shown in panel {d.panel!r}, which is not declared")
        answer = next((a for a in acts if a.type == d.answer), None)
        for name, value in d.on_time_out if answer is not None else ():
            spec = answer.field(name) if answer is not None else None
            if spec is None:
                problems.append(f"decision {d.kind!r} times out with field {name!r}, which "
                                f"{d.answer!r} does not have")
            elif spec.choices and value not in spec.choices:
                problems.append(f"decision {d.kind!r} times out with {name} {value!r}, which is "
                                f"not one of its choices")
    for a in acts:
        if a.decision is not None and a.decision not in kinds:
            problems.append(f"action {a.type!r} answers {a.decision!r}, which is not declared")
        problems.extend(f"action {a.type!r}: field {f.name!r} lists {f.item!r}, which is not declared"
                        for f in a.fields if f.item is not None and f.item not in types)
    problems.extend(f"panel {p.name!r} makes {p.action!r}, which is not declared"
                    for p in pans if p.action is not None and p.action not in types)
    return problems


# --- templates ---------------------------------------------------------------------------


def fill(template: str, lookup: Callable[[str], str | None]) -> str | None:
    """``template`` with each ``{name}`` replaced by ``lookup(name)``; None when a name
    has no value."""
    missing = False

    def one(match: re.Match[str]) -> str:
        nonlocal missing
        value = lookup(match.group(1))
        if value is None:
            missing = True
            return ""
        return value

    text = PLACEHOLDER.sub(one, template)
    return None if missing else text


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def _lookup(values: Mapping[str, Any], path: str) -> Any:
    found: Any = values
    for part in path.split("."):
        if not isinstance(found, Mapping) or part not in found:
            return None
        found = found[part]
    return found


def _plain(value: Any, name: Callable[[str], str | None]) -> str | None:
    """A context value as words: a piece by its name, a list joined, a number trimmed."""
    if value is None:
        return None
    if isinstance(value, str):
        return name(value) or value
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v, name) or "" for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _render(spec: FieldSpec, value: Any, name: Callable[[str], str | None]) -> str:
    if value is None or (spec.optional and value in ((), [])):
        return spec.none_label
    if spec.kind is FieldKind.COMMAND:
        return name(str(value)) or f"the {value} command"
    if spec.kind is FieldKind.ACTIONS:
        n = len(value) if isinstance(value, list | tuple) else 0
        return f"{n} {str(spec.item).replace('_', ' ')}{'' if n == 1 else 's'}"
    if spec.kind is FieldKind.POINTS:
        return "a path" if value else "no path"
    if spec.kind is FieldKind.CHOICE:
        return spec.choice_label(str(value))
    if spec.kind is FieldKind.FLAG:
        return (spec.flag_labels or ("yes", "no"))[0 if value else 1]
    return _plain(value, name) or ""
