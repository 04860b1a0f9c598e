"""What a rule set shows of its pieces and its position, declared once for every front end.

A rule set declares the *facts* a piece shows (:class:`FactSpec`: a key, the label players
read, the kind of fact) and works out each piece's facts (:class:`Fact`: its value, limit
and the words for it) from the position *as the viewer sees it*. The command line
(``inspect``, the narrative, the human prompt), the HTML report and its maps, and the page
receive these facts and the rule set's own words; they never read a rule set's own values
(``Unit.own``, ``Unit.extra``) themselves.

The kinds of fact (:class:`FactKind`):

- ``count``: a number against its limit ("Hits 2 of 4"), drawn as pips on the base when
  the declaration says so;
- ``pips``: a small number without a limit, drawn as pips;
- ``flag``: yes or no, shown only when set ("has fired");
- ``badge``: a short mark drawn on the base when set, with its words;
- ``word``: a value told in words ("formation: line"), with a short mark on the base when
  the rule set gives one;
- ``hidden``: a fact only the piece's own side is shown (an officer's secret value); it is
  absent from every other view.

>>> spec = FactSpec("hits", "Hits", FactKind.COUNT, on_base=True)
>>> Fact("hits", 2, limit=4).text(spec)
'Hits 2 of 4'
>>> Fact("fired", True).text(FactSpec("fired", "Has fired", FactKind.FLAG))
'Has fired'
>>> Fact("formation", "line", words="in line").text(FactSpec("formation", "Formation", FactKind.WORD))
'Formation: in line'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from tertia.core.hidden import is_hidden, place_hidden
from tertia.core.narration import humanise, possessive, turn_heading
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield

if TYPE_CHECKING:
    from tertia.core.events import Event
    from tertia.core.ruleset import RuleSet


class FactKind(StrEnum):
    """How a fact reads and how front ends draw it."""

    COUNT = "count"
    PIPS = "pips"
    FLAG = "flag"
    BADGE = "badge"
    WORD = "word"
    HIDDEN = "hidden"


@dataclass(frozen=True, slots=True)
class FactSpec:
    """One fact a rule set's pieces may show: ``key`` (unique in the rule set), ``label``
    (as players read it), ``kind``, ``help`` (what it means, for a tooltip), ``rule`` (the
    clause it comes from), ``glyph`` (its short mark on the base, for a badge) and
    ``on_base`` (drawn on the base itself: a count's pips, a badge, a word's mark).

    Where the rules bound what the fact can show, it says so, for whoever reads the
    values as data (the research observation): ``words``, every word a ``word`` fact's
    value can be (its identifier, as ``Fact.value`` holds it: ``"long_march"``), and
    ``most``, the largest number a count, pips or a word given as a number can show
    (a count's limit included). ``None``: not known from the rules (names of pieces, a
    scenario's commands, a tally without a cap).

    >>> FactSpec("formation", "Formation", FactKind.WORD, words=("line", "column")).words
    ('line', 'column')
    >>> FactSpec("hits", "Hits", FactKind.FLAG, most=4)
    Traceback (most recent call last):
    ...
    ValueError: fact 'hits': a flag shows no number to bound
    """

    key: str
    label: str
    kind: FactKind
    help: str = ""
    rule: str = ""
    glyph: str = ""
    on_base: bool = False
    words: tuple[str, ...] | None = None
    most: float | None = None

    def __post_init__(self) -> None:
        if self.words is not None and (self.kind is not FactKind.WORD or not self.words
                                       or len(set(self.words)) != len(self.words)):
            raise ValueError(f"fact {self.key!r}: words are declared once each, for a word fact")
        if self.most is not None and self.kind not in NUMBER_KINDS:
            raise ValueError(f"fact {self.key!r}: a {self.kind.value} shows no number to bound")
        if self.most is not None and not self.most > 0:
            raise ValueError(f"fact {self.key!r}: the largest number is above 0, not {self.most}")

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "kind": self.kind.value, "help": self.help,
                "rule": self.rule, "glyph": self.glyph, "on_base": self.on_base}


NUMBER_KINDS = frozenset({FactKind.COUNT, FactKind.PIPS, FactKind.WORD})
"""The kinds of fact that may show a number (a word may: Charge yr Pikes!' morale points)."""


def redeclared(facts: Iterable[FactSpec], *changed: FactSpec) -> tuple[FactSpec, ...]:
    """``facts`` with each of ``changed`` in place of the declaration of its key: a rule
    set's bounds on a fact it shares with others (the hit limit under its own rules).

    >>> from dataclasses import replace
    >>> hits = FactSpec("hits", "Hits", FactKind.COUNT)
    >>> redeclared((hits,), replace(hits, most=6))[0].most
    6
    """
    by_key = {spec.key: spec for spec in changed}
    return tuple(by_key.get(spec.key, spec) for spec in facts)


FactValue = int | float | str | bool | None


@dataclass(frozen=True, slots=True)
class Fact:
    """A piece's value of one declared fact: ``value``, its ``limit`` (a count's), the
    ``words`` a player reads for it (the value itself when none), its short ``glyph`` on
    the base when the value picks one (a formation's mark), and a ``note`` saying why
    (what raised a limit, say)."""

    key: str
    value: FactValue
    limit: int | None = None
    words: str | None = None
    glyph: str | None = None
    note: str | None = None

    def shown(self) -> bool:
        """Whether there is anything to show: a flag or badge that is set, a value that is
        there."""
        return self.value is not None and self.value is not False and self.value != ""

    def value_words(self) -> str:
        """The value as a player reads it ("2 of 4", "yes", "long march"): its ``words``,
        else the value itself, an identifier in words."""
        if self.words is not None:
            return self.words
        if isinstance(self.value, bool):
            return "yes" if self.value else "no"
        text = f"{self.value:g}" if isinstance(self.value, float) else humanise(str(self.value))
        return f"{text} of {self.limit}" if self.limit is not None else text

    def mark(self, spec: FactSpec) -> str | None:
        """The short mark drawn beside the base when the fact is drawn there and set: the
        value's own glyph (a formation's), else a badge's (or a hidden fact's) declared one."""
        if not spec.on_base or not self.shown():
            return None
        return self.glyph or (spec.glyph if spec.kind in (FactKind.BADGE, FactKind.HIDDEN) else None) or None

    def text(self, spec: FactSpec) -> str:
        """The fact in a line: the label alone for a flag or badge, else label and value."""
        if spec.kind in (FactKind.FLAG, FactKind.BADGE) and self.words is None:
            return spec.label
        if spec.kind is FactKind.COUNT:
            return f"{spec.label} {self.value_words()}"
        return f"{spec.label}: {self.value_words()}"

    def to_dict(self, spec: FactSpec) -> dict[str, Any]:
        out: dict[str, Any] = {
            "key": self.key, "label": spec.label, "kind": spec.kind.value, "value": self.value,
            "words": self.value_words(), "text": self.text(spec),
        }
        if self.limit is not None:
            out["limit"] = self.limit
        glyph = self.mark(spec)
        if glyph:
            out["glyph"] = glyph
        if spec.on_base:
            out["on_base"] = True
        if self.note:
            out["note"] = self.note
        if spec.help:
            out["help"] = spec.help
        return out


@dataclass(frozen=True, slots=True)
class PieceCard:
    """Everything a front end shows of one piece, as one side sees it: who it is, where,
    whether it is in play, its title in the narrative (``General``), and its facts in the
    order the rule set declares them."""

    id: str
    name: str
    side: str
    kind: str
    command: str
    x: float
    y: float
    facing: float
    in_play: bool
    removed: str | None
    facts: tuple[tuple[Fact, FactSpec], ...] = field(default=())
    kind_label: str = ""
    """The kind in the rule set's words ("baggage"; :meth:`Presentation.kind_label`)."""
    mark: str = ""
    """How the base is marked (:meth:`Presentation.kind_mark`): the engine kind's mark,
    or :data:`WAGON`."""

    def fact(self, key: str) -> Fact | None:
        return next((f for f, _ in self.facts if f.key == key), None)

    def lines(self, *, noted: bool = False) -> list[str]:
        """Each fact with anything to show, as a line; ``noted``, each followed by its
        note in brackets ("Hits 4 of 4 (river: defending it against enemies across)")."""
        return [f.text(spec) + (f" ({f.note})" if noted and f.note else "")
                for f, spec in self.facts if f.shown()]

    def base_count(self) -> tuple[Fact, FactSpec] | None:
        """The count the rule set draws on the base (hits taken, figures left), when the
        piece shows one."""
        return next(((f, spec) for f, spec in self.facts
                     if spec.on_base and spec.kind in (FactKind.COUNT, FactKind.PIPS) and f.shown()), None)

    def base_marks(self) -> list[tuple[str, str]]:
        """The short marks drawn beside the base (a badge set, a formation's mark), each
        with its words."""
        return [(mark, f.text(spec)) for f, spec in self.facts if (mark := f.mark(spec))]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "side": self.side, "kind": self.kind,
            "kind_label": self.kind_label, "mark": self.mark,
            "command": self.command, "x": self.x, "y": self.y, "facing": self.facing,
            "in_play": self.in_play, "removed": self.removed,
            "facts": [f.to_dict(spec) for f, spec in self.facts if f.shown()],
        }


WAGON = "wagon"
"""The mark of a base drawn as a wagon (a baggage train's), whatever its engine kind."""

SECTION_STYLES = ("cards", "list", "lines", "dice", "ordered")
ITEM_STATES = ("active", "played", "back", "gone", "waiting", "obeyed", "refused")


@dataclass(frozen=True, slots=True)
class LastTurn:
    """The turns on which time ends a battle, as the status line gives them ("Turn 3 of
    12"): ``first`` to ``last`` (the same turn when the clock is fixed; a span while a die
    still to be rolled decides it), and ``rule``, a sentence of the rule that sets it when
    that is not simply the scenario's number of turns. A battle may end sooner otherwise
    (an army broken, an objective taken); it never goes on past ``last``.

    >>> LastTurn(12, 12).text, LastTurn(11, 16).text
    ('12', '11–16')
    """

    first: int
    last: int
    rule: str | None = None

    @property
    def text(self) -> str:
        return str(self.last) if self.first == self.last else f"{self.first}–{self.last}"

    def to_dict(self) -> dict[str, Any]:
        return {"first": self.first, "last": self.last, "text": self.text, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class PanelItem:
    """One entry of a panel's section: its ``text``; the ``side`` it belongs to; its
    ``state`` (one of :data:`ITEM_STATES`: a card in play, played, face down ...); a
    ``title`` on hover; the ``unit`` it is about (a click selects it) and the ``target``
    an offer of the panel's kind is aimed at; the value it stands for (``id``: a card an
    order puts in its place), a ``note`` under it, and a die's ``face``."""

    text: str
    side: str | None = None
    state: str | None = None
    title: str | None = None
    unit: str | None = None
    target: str | None = None
    id: str | None = None
    note: str | None = None
    face: str | None = None

    def __post_init__(self) -> None:
        if self.state is not None and self.state not in ITEM_STATES:
            raise ValueError(f"panel item state {self.state!r}: one of {', '.join(ITEM_STATES)}")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text}
        for key in ("side", "state", "title", "unit", "target", "id", "note", "face"):
            value = getattr(self, key)
            if value:
                out[key] = value
        return out


@dataclass(frozen=True, slots=True)
class PanelSection:
    """A titled part of a panel: its ``items`` drawn in one ``style`` (one of
    :data:`SECTION_STYLES`: a row of small ``cards``, a ``list`` one item a line, ``lines``
    of sentences, ``dice``), a ``note`` under it, shown at once or on demand (``open``)."""

    key: str
    items: tuple[PanelItem, ...]
    style: str = "list"
    title: str | None = None
    note: str | None = None
    side: str | None = None
    open: bool = True

    def __post_init__(self) -> None:
        if self.style not in SECTION_STYLES:
            raise ValueError(f"panel section style {self.style!r}: one of {', '.join(SECTION_STYLES)}")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "style": self.style,
                               "items": [i.to_dict() for i in self.items]}
        for key in ("title", "note", "side"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if not self.open:
            out["open"] = False
        return out


@dataclass(frozen=True, slots=True)
class Panel:
    """What a panel shows one side: its ``sections``, and ``labels``: the words (with a
    title on hover and a note) for each value its action puts in order, by the value (the
    command cards a side lays)."""

    sections: tuple[PanelSection, ...] = ()
    labels: Mapping[str, PanelItem] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"sections": [s.to_dict() for s in self.sections],
                "labels": {value: label.to_dict() for value, label in self.labels.items()}}


@dataclass(frozen=True)
class PanelContext:
    """Where a panel is shown: the ``viewer`` it is shown to, the side ``to_act``,
    whether a decision is ``pending``, the ``phases`` the panel's action is made in (empty:
    any), the sides' names, ``recent``: the events the viewer may see of each action,
    newest first (what was just rolled), and whether the viewer is ``watching`` (it sees
    as that side but does not play it: the AI plays both sides), so the panels name the
    side where they would say "you"."""

    viewer: str
    to_act: str | None = None
    pending: bool = False
    phases: tuple[str, ...] = ()
    side_names: Mapping[str, str] = field(default_factory=dict)
    recent: Callable[[], Iterable[Sequence[Any]]] = lambda: ()
    watching: bool = False

    def side_name(self, side: object, default: str | None = None) -> str:
        """A side by its name (``default``, else the side itself, when it has none)."""
        return self.side_names.get(str(side), str(side) if default is None else default)

    def plays(self, side: object) -> bool:
        """Is ``side`` the viewer's own, played by the one the panel is shown to (not watched)?"""
        return str(side) == self.viewer and not self.watching

    def whose(self, side: object, default: str | None = None) -> str:
        """``side``'s, in words: "your" where the viewer :meth:`plays` it, else the side's
        name as a possessive ("Parliament's")."""
        if self.plays(side):
            return "your"
        return possessive(self.side_name(side, default))

    def own_title(self) -> str:
        """The heading over the viewer's own side: its name, with "(you)" when it plays it."""
        name = self.side_name(self.viewer)
        return name if self.watching else f"{name} (you)"


def kind_words(unit: Unit) -> str:
    """The engine's kind of a piece in words ("commanded shot"): what a rule set calls it
    unless it names it otherwise (:meth:`Presentation.kind_label`)."""
    return unit.kind.value.replace("_", " ")


@dataclass(frozen=True, slots=True)
class Ending:
    """One way a rule set's battle ends, known by how the result's reason opens
    (``opens``): its ``name`` in a summary's words, and whether the battle is ``decided``
    by it (won on the field: objectives taken, an army broken or wiped out), not ended by
    the turn limit or darkness."""

    name: str
    opens: str
    decided: bool


class Presentation:
    """What a rule set shows: its pieces' facts, the distances drawn round a piece, the
    card that activates a piece, the position in brief, and its own names for commands.
    A rule set declares :attr:`FACTS` and overrides :meth:`facts` (and the rest it uses)
    in a subclass in its own package, returned by its ``RuleSet.presentation``."""

    FACTS: tuple[FactSpec, ...] = ()
    """Every fact the rule set's pieces may show, in the order front ends list them."""

    SHARED_TURNS: ClassVar[bool] = False
    """Do both sides act in every turn (each as its cards come from one deck)? Then a
    turn's heading names the turn alone (:meth:`turn_heading`)."""

    FIRST_MOVER: ClassVar[bool] = True
    """Does the battle's start name a side that moves first? Not where every card of both
    sides is shuffled into one deck before any is drawn: the deck decides who acts."""

    def lost_pieces(self, first: GameState, final: GameState, side: str) -> list[Unit]:
        """``side``'s pieces the battle fielded (in play in ``first``, its start) that are a
        loss to it in ``final`` (:meth:`lost`): a piece made in play (a forlorn hope sent out
        by its regiment, part of it, and removed as it rejoins) is never one of them. What
        every summary of a battle (``battle``, ``simulate``, ``ladder``) counts lost."""
        fielded = {u.id for u in first.iter_units(side)}
        return [u for u in final.iter_units(side, include_removed=True) if u.id in fielded and self.lost(u)]

    def first_mover(self, state: GameState) -> str | None:
        """The side that moved first in the battle ``state`` belongs to, as reports and
        simulations count it: None where the deck decides who acts (:attr:`FIRST_MOVER`),
        the start's ``first_side`` being only the scenario's first side there."""
        return state.first_side if self.FIRST_MOVER else None

    ENDINGS: ClassVar[tuple[Ending, ...]] = ()
    """Every way the rule set's battles end (:meth:`ending`), in the order summaries list
    them; none declared, a summary cannot say how its battles ended."""

    def ending(self, result: Mapping[str, Any] | None) -> Ending | None:
        """How a battle with ``result`` ended: the first of :attr:`ENDINGS` whose opening its
        reason has; None for a battle not ended or a reason none declares."""
        reason = str((result or {}).get("reason") or "")
        return next((e for e in self.ENDINGS if reason.startswith(e.opens)), None) if reason else None

    BREAKDOWN_TITLE: ClassVar[str] = "Points by source"
    """What the result's breakdown by side holds, as a heading over it (the report's
    results table): the points each side scored, by where they came from, unless the rule
    set counts otherwise."""

    BREAKDOWN_LABELS: ClassVar[Mapping[str, str]] = {}
    """Each item of the result's breakdown by side as a column of the report's results table
    reads it, by its key, where the key in words would not say what its number counts (a
    deduction in points read as a count); any other item is its key in words."""

    DICE_WORDS: ClassVar[Mapping[str, str]] = {}
    """The words a die is told by, by the opening of the purpose the rules give it, where
    that purpose reads as one of the test's outcomes ("officer falls: X" whatever the die
    shows). Records keep the rules' purpose, which replay checks die by die, so a saved
    game plays back unchanged; only the telling changes (:meth:`dice_words`)."""

    def dice_words(self, purpose: str) -> str:
        """``purpose`` with its opening told as :attr:`DICE_WORDS` words it, if it is one."""
        for opening, words in self.DICE_WORDS.items():
            if purpose.startswith(opening):
                return words + purpose[len(opening):]
        return purpose

    _DECLARED: ClassVar[Mapping[str, tuple[int, FactSpec]]] = {}
    """Each declared fact by key, with its place in :attr:`FACTS` (made once a class)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._DECLARED = {spec.key: (i, spec) for i, spec in enumerate(cls.FACTS)}

    def __init__(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset

    # --- to override -----------------------------------------------------------------------

    def lost(self, unit: Unit) -> bool:
        """Is ``unit`` a loss to its side: out of play, and not for a reason its rules count
        no loss (troops that left the table alive)? By default every piece out of play is."""
        return not unit.in_play

    def facts(self, table: Battlefield, seen: GameState, unit: Unit, viewer: str | None) -> Iterable[Fact]:
        """``unit``'s facts in ``seen``, the position as ``viewer`` sees it (``None``: a
        referee, who sees everything). Only keys of :attr:`FACTS`."""
        return ()

    def turn_heading(self, turn: int, side: str) -> str:
        """A turn's heading in the log, ``side`` the name of the side whose turn it is:
        "Turn 3 — Royalists"; "Turn 3" under :attr:`SHARED_TURNS`."""
        return turn_heading(turn, None if self.SHARED_TURNS else side)

    def kind_label(self, unit: Unit) -> str:
        """What kind of piece ``unit`` is, in the rule set's words ("horse", "commanded
        shot"): the order of battle's type, a piece card's and a study's losses by type.
        A rule set whose pieces of one engine kind differ (wagons among the guns) names
        them here."""
        return kind_words(unit)

    def kind_mark(self, unit: Unit) -> str:
        """How the map marks ``unit``'s base: by its engine kind ("foot", "artillery"),
        unless the rule set draws a piece of that kind otherwise (:data:`WAGON`)."""
        return unit.kind.value

    def title(self, seen: GameState, unit: Unit) -> str | None:
        """A commander's rank as the narrative puts it before his name ("General"), or
        None to give the name alone."""
        return None

    def overlays(self, table: Battlefield, seen: GameState, unit_id: str) -> dict[str, Any]:
        """Distances a front end may draw around a unit, each with the rule it comes from:
        ``zones`` ({"kind", "radius", "label", "rule"}, edge to edge), ``arcs``
        ({"half_angle", "reach", "label", "rule"}; ``half_angle`` 0 means straight ahead
        across the frontage) and ``sight`` ({"target", "clear"}) to the units it could
        shoot at."""
        return {"zones": [], "arcs": [], "sight": []}

    def card_of(self, unit: Unit) -> str | None:
        """The card that activates ``unit`` under a rule set activated by cards (for a
        card panel's list of each card's units); ``None`` otherwise."""
        return None

    def summary(self, state: GameState) -> dict[str, Any]:
        """The position in brief for a status line (score, orders left, the card in
        play ...), JSON-ready; string values may be named in an action kind's phrase.
        Called on a side's observation when the rule set hides anything. Keys front
        ends read: ``score`` (per side), ``orders_left``, ``active_card``, ``activated``
        (the one piece now activated, which they pick out) and ``declared`` (what it
        is to do, in words)."""
        return {}

    def last_turn(self, state: GameState, turns: int) -> LastTurn:
        """The turns on which time ends the battle in ``state``, as far as its position
        tells: by default the scenario's ``turns``, the last turn played."""
        return LastTurn(turns, turns)

    def opens_turn(self, event: Event) -> bool:
        """Does ``event`` begin the next turn's play before the turn is announced (a deck
        gathered for it, whose first cards may be turned idle before a side acts)? The
        narrative then heads the turn before it. None does by default."""
        return False

    def standing(self, state: GameState, side_names: Mapping[str, str]) -> tuple[str, ...]:
        """Where each side stands in ``state`` against a victory the rule set gives other
        than by the score (objectives taken, points kept), a sentence a side, the side
        named as ``side_names`` has it; none by default."""
        return ()

    def command_label(self, state: GameState, command: str, side: str | None = None) -> str | None:
        """A command (the group of units a card or order moves together) as the players
        call it, for buttons, prompts and the narrative: by default by its commander
        ("Colonel Hollis's command"). Both sides may have a command of one name: ``side``'s
        when given (a unit's own command, as a report lists it), else the side to act's
        first; None when no commander leads it."""
        leaders = sorted((u for u in state.units.values() if u.is_commander and u.command == command
                          and side in (None, u.side)),
                         key=lambda u: (u.side != state.to_act, u.id))
        return f"{possessive(leaders[0].label, person=True)} command" if leaders else None

    def panel(self, name: str, seen: GameState, context: PanelContext) -> Panel:
        """What panel ``name`` (one of the rule set's ``PANELS``) shows ``context.viewer``,
        from ``seen``, its observation. A rule set fills its own panels here, and a shared
        block's (:data:`~tertia.core.vocabulary.PANEL_NAMES`: the deck, command cards,
        orders ...) by asking that block (:mod:`tertia.activation.panels`). Empty by
        default: a panel whose action alone is shown (deployment)."""
        return Panel()

    # --- for front ends --------------------------------------------------------------------

    def spec(self, key: str) -> FactSpec:
        """The declaration of fact ``key``; raises KeyError naming the rule set."""
        found = self._DECLARED.get(key)
        if found is None:
            raise KeyError(f"{self.ruleset.id} declares no fact {key!r}")
        return found[1]

    def piece(self, table: Battlefield, seen: GameState, unit_id: str, viewer: str | None) -> PieceCard:
        """``unit_id`` as ``viewer`` sees it in ``seen`` (its observation): its facts in
        declared order, a ``hidden`` fact only for its own side or a referee, nothing
        ``seen`` holds as hidden (a piece whose very place is hidden shows no fact)."""
        unit = seen.units[unit_id]
        found: list[tuple[Fact, FactSpec]] = []
        # A piece the view holds without its place (hidden from the viewer) shows nothing.
        shown = () if place_hidden(unit) else self.facts(table, seen, unit, viewer)
        for fact in shown:
            spec = self.spec(fact.key)
            if spec.kind is FactKind.HIDDEN and viewer is not None and viewer != unit.side:
                continue
            if is_hidden(fact.value):
                continue
            found.append((fact, spec))
        found.sort(key=lambda pair: self._DECLARED[pair[0].key][0])
        return PieceCard(
            id=unit.id, name=unit.label, side=unit.side, kind=unit.kind.value, command=unit.command,
            x=unit.x, y=unit.y, facing=unit.facing, in_play=unit.in_play, removed=unit.removed,
            facts=tuple(found), kind_label=self.kind_label(unit), mark=self.kind_mark(unit),
        )

    def pieces(self, table: Battlefield, seen: GameState, viewer: str | None) -> dict[str, PieceCard]:
        """:meth:`piece` for every unit of ``seen``."""
        return {uid: self.piece(table, seen, uid, viewer) for uid in seen.units}

    def describe(self) -> list[dict[str, Any]]:
        """The declarations, JSON-ready (served with the rule set's vocabulary)."""
        return [spec.to_dict() for spec in self.FACTS]

