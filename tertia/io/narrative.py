"""Readable narrative from the event stream: one line per event worth telling.

A :class:`Narrator` follows a game. It is given the state before the first event it will
see and applies each event after telling it (with the one reducer), so a line can say
how many hits a unit now has, which way a unit turned or whose supplies were raided. A
rule set's own events (and a shared block's: hits, ammunition) are told by the sentences
they register (:mod:`tertia.core.narration`); a commander's rank before his name is the
rule set's word (:meth:`Presentation.title <tertia.core.presentation.Presentation.title>`).

>>> from tertia.core.state import GameState, Unit, UnitKind
>>> from tertia.core.events import TurnBegan
>>> from tertia.core.events import UnitRemoved
>>> foot = Unit("essex", "parl", UnitKind.FOOT, "centre", 10, 10, 0, 4, 2, name="Essex's Foot")
>>> state = GameState(("roy", "parl"), 1, "roy", "movement", {"essex": foot})
>>> n = Narrator(state, side_names={"roy": "Royalists", "parl": "Parliament"})
>>> n.line(TurnBegan(turn=2, side="roy"))
'Turn 2 — Royalists'
>>> n.line(UnitRemoved(unit="essex", reason="routed"))
"Essex's Foot is routed and leaves the field"

Dice are events too. :meth:`Narrator.entries` folds the dice of an attack into the
attack's line ("5+1=6 against 3+0=3") and gathers other dice into one compact line.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tertia.core import events as ev
from tertia.core.geometry import angle_between, path_length
from tertia.core.narration import (
    DICE_TAKERS,
    SENTENCES,
    SIDE_VERBS,
    agree,
    bracket_nested,
    command_by_role,
    default_side_name,
    humanise,
    is_plural_name,
    of,
    plural,
    possessive_pronoun,
    pronoun_is,
    side_does,
    turn_heading,
    without_aside,
)
from tertia.core.reducer import reduce
from tertia.core.ruleset import RuleSet
from tertia.core.state import GameState, Unit
from tertia.core.vocabulary import DecisionKind, capitalise

_COMPASS = (
    "north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west",
)

_MOVE_VERBS = {
    "move": "moves",
    "charge": "charges",
    "retire": "retires",
    "retreat": "falls back",
    "withdraw": "withdraws",
    "rout": "flees",
    "pursue": "pursues",
    "exit": "leaves the table",
    "deploy": "deploys",
    "routs": "routs",
    "falls back": "falls back",
    "evades": "evades",
    "to safety": "moves to safety",
    "rides off to plunder": "rides off to plunder",
    "swept along in the rout": "is swept along in the rout",
    "pursuit": "pursues",
    "pursuit: a move forward": "moves forward in the pursuit",
    "pursuit: a move to the rear": "moves to the rear in the pursuit",
    "with its unit": "goes with {its} unit",
    "with its regiment": "goes with {its} regiment",
    "falls back with its unit": "falls back with {its} unit",
    "falls back on its regiment": "falls back on {its} regiment",
    "pushed back by artillery": "is pushed back by artillery",
    "pushed back in melee": "is pushed back in melee",
    "cohesion": "closes up on {its} command",
    "deployed": "deploys",
}
"""A move's reason (``UnitMoved.reason``) as its verb; ``{its}`` is the piece's own
("his" for a commander). Any other reason is told as "moves (reason)"."""

_REMOVAL_PHRASES = {
    "routed": "is routed and leaves the field",
    "raided": "is lost raiding the enemy's supplies",
    "misfortune": "suffers a misfortune and is carried from the field",
    "exited": "leaves the table",
    "fled": "flees the field",
    "destroyed": "is destroyed",
    "captured": "is captured",
    "rejoined": "goes back into its regiment's ranks",
    "pursued": "pursues off the field",
    "routed off": "routs off the table",
    "fallen": "falls",
    "killed": "is killed",
    "deserted": "deserts",
    "escaped": "escapes from the field",
    "plundering": "rides off to plunder",
}

_COMMANDER_REMOVAL_PHRASES = {"destroyed": "is lost"}
"""A removal told otherwise of a commander, a man rather than a body of troops."""

SILENT_EVENTS: frozenset[str] = frozenset({ev.Marked.type, ev.GameDataChanged.type})
"""Bookkeeping events with nothing to tell a reader."""


def compass_point(bearing_deg: float) -> str:
    """The nearest of eight compass points.

    >>> compass_point(0), compass_point(100), compass_point(-45)
    ('north', 'east', 'north-west')
    """
    return _COMPASS[round((bearing_deg % 360.0) / 45.0) % 8]


def describe_facing(facing: float) -> str:
    """A facing as a compass point, with degrees when it is not close to one.

    >>> describe_facing(90), describe_facing(200)
    ('east', 'south-south-west (200°)')
    """
    f = facing % 360.0
    point = compass_point(f)
    if angle_between(f, round(f / 45.0) * 45.0) <= 5.0:
        return point
    sixteen = (
        "north", "north-north-east", "north-east", "east-north-east",
        "east", "east-south-east", "south-east", "south-south-east",
        "south", "south-south-west", "south-west", "west-south-west",
        "west", "west-north-west", "north-west", "north-north-west",
    )
    return f"{sixteen[round(f / 22.5) % 16]} ({f:.0f}°)"


@dataclass(frozen=True, slots=True)
class NarrativeLine:
    """A line of narrative with the kind of thing it tells (for styling) and its event.

    ``kind`` is one of ``heading`` (a player turn, a card played), ``phase``, ``order``,
    ``move``, ``attack``, ``hit``, ``loss``, ``dice``, ``objective``, ``decision``,
    ``card`` (a card drawn), ``note``, ``end``.
    """

    text: str
    kind: str
    event: ev.Event | None = None


@dataclass(slots=True)
class TurnBlock:
    """The events of one player turn (``turn`` and ``side`` are ``None`` before the first)."""

    turn: int | None
    side: str | None
    events: list[ev.Event] = field(default_factory=list)


def iter_turn_blocks(events: Iterable[ev.Event]) -> Iterator[TurnBlock]:
    """Group events by player turn: each :class:`TurnBegan` starts a block.

    Events before the first ``TurnBegan`` (the opening procedure) form a block of their
    own with no turn; it is left out when there are none.

    >>> blocks = list(iter_turn_blocks([ev.GameStarted("roy"), ev.TurnBegan(1, "roy"),
    ...                                 ev.PhaseBegan("movement"), ev.TurnBegan(1, "parl")]))
    >>> [(b.turn, b.side, len(b.events)) for b in blocks]
    [(None, None, 1), (1, 'roy', 2), (1, 'parl', 1)]
    """
    block = TurnBlock(None, None)
    for e in events:
        if isinstance(e, ev.TurnBegan):
            if block.events or block.turn is not None:
                yield block
            block = TurnBlock(e.turn, e.side, [e])
        else:
            block.events.append(e)
    if block.events or block.turn is not None:
        yield block


class Narrator:
    """Tells events as lines of English, following the state as it goes.

    ``state`` is the position before the first event narrated; it may be ``None``, in
    which case units are named by ``labels`` (or their ids) and running totals are left
    out. ``side_names`` maps side ids to display names.
    """

    def __init__(
        self,
        state: GameState | None = None,
        *,
        side_names: Mapping[str, str] | None = None,
        labels: Mapping[str, str] | None = None,
        notes: Mapping[int, str] | None = None,
        titles: Callable[[GameState, Unit], str | None] | None = None,
        commands: Callable[[GameState, str, str | None], str | None] | None = None,
        decisions: Mapping[str, DecisionKind] | None = None,
        turns: Callable[[int, str], str] | None = None,
        opens_turn: Callable[[ev.Event], bool] | None = None,
        first_mover: bool = True,
        dice_words: Callable[[str], str] | None = None,
    ) -> None:
        self.state = state
        self.dice_words: Callable[[str], str] = dice_words or _as_given
        """A die's purpose as the rule set tells it (the rule set's
        :meth:`~tertia.core.presentation.Presentation.dice_words`)."""
        self.first_mover = first_mover
        """Does the battle's start name the side that moves first (the rule set's
        :attr:`~tertia.core.presentation.Presentation.FIRST_MOVER`)?"""
        self.opens_turn: Callable[[ev.Event], bool] = opens_turn or _opens_no_turn
        """Does an event begin the next turn's play before the turn is announced (the
        rule set's :meth:`~tertia.core.presentation.Presentation.opens_turn`)? The turn's
        heading is then told before it."""
        self.titles = titles
        """A commander's rank before his name (the rule set's
        :meth:`~tertia.core.presentation.Presentation.title`)."""
        self.commands = commands
        """A command (a group of units a card or order moves) by the rule set's name for it
        (:meth:`~tertia.core.presentation.Presentation.command_label`)."""
        self.decisions: Mapping[str, DecisionKind] = decisions or {}
        """The rule set's declared decisions by kind: the label a decision is told by, whether
        its own events tell it (``told``) and the words its choice is told in (``made``)."""
        self.turns: Callable[[int, str], str] = turns or turn_heading
        """A turn's heading, from its number and its side's name (the rule set's
        :meth:`~tertia.core.presentation.Presentation.turn_heading`)."""
        self._told: list[NarrativeLine] = []
        self._new_turn = False
        """Has a turn's heading just been told (so its first phase is told, whatever the
        phase before it)?"""
        self._plurals: tuple[str, ...] | None = None
        self._with_the: tuple[str, ...] | None = None
        self.side_names: dict[str, str] = dict(side_names or {})
        self.labels: dict[str, str] = dict(labels or {})
        self.notes: Mapping[int, str] = notes or {}
        """Extra words for particular events, by ``id(event)`` (the odds of an attack)."""

    @classmethod
    def for_rules(
        cls,
        ruleset: RuleSet,
        state: GameState | None = None,
        *,
        side_names: Mapping[str, str] | None = None,
        notes: Mapping[int, str] | None = None,
    ) -> Narrator:
        """A narrator speaking ``ruleset``'s words: its commanders' titles, its names for
        commands and cards, its labels for the decisions it awaits."""
        shows = ruleset.presentation()

        return cls(state, side_names=side_names, notes=notes, titles=shows.title,
                   commands=shows.command_label, decisions={k.kind: k for k in ruleset.DECISION_KINDS},
                   turns=shows.turn_heading, opens_turn=shows.opens_turn, first_mover=shows.FIRST_MOVER,
                   dice_words=shows.dice_words)

    # --- names ---------------------------------------------------------------------------

    def label(self, unit_id: str) -> str:
        """A unit's or commander's display name."""
        if unit_id in self.labels:
            return self.labels[unit_id]
        if self.state is not None and unit_id in self.state.units:
            return self.state.units[unit_id].label
        return unit_id

    def side(self, side_id: str | None) -> str:
        if side_id is None:
            return "neither side"
        return self.side_names.get(side_id) or default_side_name(side_id)

    def target(self, ident: str) -> str:
        """An order's target: a unit, or a command (``"centre"`` or ``"side:centre"``), one
        no commander leads by what it is ("the horse command": the side giving the order
        is named before it)."""
        if self.state is not None and ident in self.state.units:
            return self.label(ident)
        if ident in self.labels:
            return self.labels[ident]
        side, sep, command = ident.partition(":")
        owner = None
        if sep and command and (side in self._side_ids()):
            ident, owner = command, side
        named = self.command_name(ident, owner)
        return named if named is not None else command_by_role(ident, owner)

    def command_name(self, command: str, side: str | None = None) -> str | None:
        """A command by the rule set's name for it (``side``'s, when given: both sides may
        have a command of one name); None when it gives none."""
        if self.commands is None or self.state is None:
            return None
        return self.commands(self.state, command, side)

    def follows_attack_on(self, unit_id: str) -> bool:
        """Is the last line told (passing over notes) an attack this unit took part in?"""
        return _follows_attack_on(self._told, unit_id)

    def note(self, event: ev.Event) -> str | None:
        """The extra words given for ``event`` (its odds), if any."""
        return self.notes.get(id(event))

    # --- single events -------------------------------------------------------------------

    def line(self, event: ev.Event) -> str | None:
        """The line for one event (``None`` when there is nothing to tell), then apply it."""
        entry = self._entry(event, ())
        self._advance(event)
        return None if entry is None else entry.text

    def entries(self, events: Iterable[ev.Event]) -> list[NarrativeLine]:
        """Lines for a run of events, with dice folded in.

        Dice rolled just before an attack appear in that attack's line; other dice are
        gathered into one ``dice`` line before the next thing told. A phase heading with
        nothing under it is dropped, and so is a card's line ("Card drawn: …") that a
        heading telling that card follows at once, and a decision awaited ("Royalists to
        decide: …") that its choice follows at once. A turn begun again with each card (the
        D3 rules) is headed once, and so is its phase: the heading and phase under way are
        read from the state, so a telling that starts mid-turn knows them too.
        """
        out: list[NarrativeLine] = []
        self._told = out
        dice: list[ev.DiceRolled] = []
        for e in headed_first(events, self.opens_turn):
            if isinstance(e, ev.DiceRolled):
                dice.append(e)
                self._advance(e)
                continue
            takes = DICE_TAKERS.get(type(e))
            if takes is not None:
                own, others = self._attack_dice(takes(e), dice)
                if others:
                    out.append(self._dice_entry(others))
                entry = self._entry(e, own)
                dice = []
            else:
                entry = self._entry(e, ())
                if entry is not None and dice:
                    out.append(self._dice_entry(dice))
                    dice = []
            self._advance(e)
            if entry is None:
                continue
            if entry.kind in ("phase", "heading") and out and out[-1].kind == "phase":
                out.pop()
            elif entry.kind == "heading" and out and out[-1].kind == "card":
                out.pop()  # the rule set's heading tells the card just drawn
            elif (awaited := awaited_by(out, entry.event)) is not None:
                del out[awaited]  # the choice made tells whose the decision was
            out.append(entry)
        if dice:
            out.append(self._dice_entry(dice))
        if out and out[-1].kind == "phase":
            out.pop()
        return out

    def lines(self, events: Iterable[ev.Event]) -> list[str]:
        """:meth:`entries` as plain strings."""
        return [e.text for e in self.entries(events)]

    # --- internals -----------------------------------------------------------------------

    def _advance(self, event: ev.Event) -> None:
        if self.state is None:
            return
        # An event that does not fit the state (a partial log) leaves it as it was.
        with contextlib.suppress(AttributeError, KeyError, IndexError, TypeError, ValueError):
            self.state = reduce(self.state, event)

    def purpose(self, purpose: str) -> str:
        """A die's purpose (or a rule set's note) with side ids given as side names, each
        without its aside, since the words go on after it ("Royalists turn over their
        centre command card", not "Royalists (King Charles I) turn over ...")."""
        text = humanise(self.dice_words(purpose))
        for side_id in self._side_ids():
            name = without_aside(self.side(side_id))
            text = re.sub(rf"(?<![\w'])({re.escape(side_id)})(?![\w'])", name, text)
        return text

    def _side_ids(self) -> tuple[str, ...]:
        ids = set(self.side_names)
        if self.state is not None:
            ids.update(self.state.sides)
        return tuple(sorted(ids, key=len, reverse=True))

    def _attack_dice(
        self, pieces: Sequence[str], dice: Sequence[ev.DiceRolled]
    ) -> tuple[list[ev.DiceRolled], list[ev.DiceRolled]]:
        """Split waiting dice into an attack's own (those whose purpose names one of its
        ``pieces``; all of them when none does) and earlier, unrelated rolls."""
        names = {n for p in pieces for n in (self.label(p).lower(), p.lower())}
        own = [d for d in dice if any(n and n in d.purpose.lower() for n in names)]
        if not own:
            return list(dice), []
        return own, [d for d in dice if all(d is not o for o in own)]

    def _dice_entry(self, dice: Sequence[ev.DiceRolled]) -> NarrativeLine:
        parts = [f"{self.purpose(d.purpose)}: {d.value} ({d.die})" for d in dice]
        told = the_within("Dice — " + "; ".join(parts), self._names_with_the())
        return NarrativeLine(bracket_nested(told), "dice", dice[-1])

    def _entry(self, e: ev.Event, dice: Sequence[ev.DiceRolled]) -> NarrativeLine | None:
        if e.type in SILENT_EVENTS:
            return None
        handler = _TELLERS.get(type(e)) or SENTENCES.get(type(e))
        if handler is None and isinstance(e, ev.Casualties):
            handler = Narrator._casualties
        if handler is None:
            return NarrativeLine(self._generic(e), "note", e)
        text, kind = handler(self, e, dice)
        if text is None:
            return None
        told = the_within(agree(text, self._plural_names()), self._names_with_the())
        return NarrativeLine(bracket_nested(told), kind, e)

    def _plural_names(self) -> tuple[str, ...]:
        """The names of the units that take a verb in the plural ("Usher's Dragoons"; a
        commander is one man, whatever his name), longest first (a name may hold a shorter
        one); found once."""
        if self._plurals is None:
            pieces = self.state.units.values() if self.state is not None else ()
            named = {*self.labels.values(), *(u.label for u in pieces if not u.is_commander)}
            self._plurals = tuple(sorted((n for n in named if is_plural_name(n)), key=lambda n: (-len(n), n)))
        return self._plurals

    def _names_with_the(self) -> tuple[str, ...]:
        """The pieces' names that open with "The" ("The King's Lifeguard of Foot"), longest
        first; found once."""
        if self._with_the is None:
            pieces = self.state.units.values() if self.state is not None else ()
            named = {*self.labels.values(), *(u.label for u in pieces)}
            with_the = (n for n in named if n.startswith("The "))
            self._with_the = tuple(sorted(with_the, key=lambda n: (-len(n), n)))
        return self._with_the

    def _generic(self, e: ev.Event) -> str:
        """An event with no sentence of its own, in words: its type, then each field with
        a unit named by its name and a side by the side's."""
        d = e.to_dict()
        d.pop("type", None)
        details = ", ".join(f"{humanise(k)} {self._field_words(v)}" for k, v in d.items()
                            if v not in (None, ""))
        return f"{humanise(e.type).capitalize()}" + (f": {details}" if details else "")

    def _field_words(self, value: object) -> str:
        if isinstance(value, str):
            if self.state is not None and value in self.state.units:
                return self.label(value)
            if value in self._side_ids():
                return self.side(value)
            return self.command_name(value) or humanise(value)
        if isinstance(value, list | tuple):
            return ", ".join(self._field_words(v) for v in value)
        return _value_text(value)

    # One method per event type; each returns (text or None, kind).

    def _game_started(self, e: ev.GameStarted, dice: Sequence[ev.DiceRolled]) -> _Told:
        if not self.first_mover:
            return "The battle begins.", "heading"
        return f"The battle begins: {side_does(self.side(e.first_side), 'move first')}.", "heading"

    def _turn_began(self, e: ev.TurnBegan, dice: Sequence[ev.DiceRolled]) -> _Told:
        heading = self.turns(e.turn, self.side(e.side))
        now = self.state
        if now is not None and now.turn == e.turn and heading == self.turns(now.turn, self.side(now.active)):
            # A turn both sides play begins again with each card: its heading stands.
            return None, "heading"
        self._new_turn = True
        return heading, "heading"

    def _phase_began(self, e: ev.PhaseBegan, dice: Sequence[ev.DiceRolled]) -> _Told:
        new_turn, self._new_turn = self._new_turn, False
        if e.phase == "over" or (not new_turn and self.state is not None and self.state.phase == e.phase):
            return None, "phase"  # the game's end, or the phase already under way
        return f"{humanise(e.phase).capitalize()} phase", "phase"

    def _dice_rolled(self, e: ev.DiceRolled, dice: Sequence[ev.DiceRolled]) -> _Told:
        purpose = self.purpose(e.purpose)
        return f"{purpose[:1].upper()}{purpose[1:]}: rolled {e.value} ({e.die})", "dice"

    def _unit_moved(self, e: ev.UnitMoved, dice: Sequence[ev.DiceRolled]) -> _Told:
        name = self.label(e.unit)
        path = [(float(p[0]), float(p[1])) for p in e.path]
        distance = path_length(path)
        before = self._facing(e.unit)
        known = _MOVE_VERBS.get(e.reason)
        verb = known.format(its=self._its(e.unit)) if known is not None else f"moves ({humanise(e.reason)})"
        if distance < 0.05:
            if before is not None and angle_between(before, e.facing) < 0.5:
                return f"{name} stays where {self._pronoun_is(e.unit)}", "move"
            return f"{name} turns to face {describe_facing(e.facing)}", "move"
        (x0, y0), (x1, y1) = path[0], path[-1]
        heading = math.degrees(math.atan2(x1 - x0, y1 - y0))
        text = f'{name} {verb} {distance:.1f}" {compass_point(heading)}'
        if before is None or angle_between(before, e.facing) >= 0.5:
            text += f", facing {describe_facing(e.facing)}"
        return text, "move"

    def _unit_turned(self, e: ev.UnitTurned, dice: Sequence[ev.DiceRolled]) -> _Told:
        reason = "" if e.reason == "turn" else f" ({humanise(e.reason)})"
        return f"{self.label(e.unit)} turns to face {describe_facing(e.facing)}{reason}", "move"

    def _unit_formed(self, e: ev.UnitFormed, dice: Sequence[ev.DiceRolled]) -> _Told:
        return f"{self.label(e.unit)} forms {humanise(e.formation)}", "move"

    def _stands_scattered(self, e: ev.StandsScattered, dice: Sequence[ev.DiceRolled]) -> _Told:
        gone = sum(1 for g in e.gone if g)
        left = len(e.places) - gone
        lost = f", {plural(gone, 'stand')} off the table" if gone else ""
        return f"{self.label(e.unit)} flees in disorder ({plural(left, 'stand')} left{lost})", "move"

    def _stands_gathered(self, e: ev.StandsGathered, dice: Sequence[ev.DiceRolled]) -> _Told:
        name = self.label(e.unit)
        return f"{of('stands', name, opening=True)} gather on {possessive_pronoun(name)} colours", "move"

    def _casualties(self, e: ev.Casualties, dice: Sequence[ev.DiceRolled]) -> _Told:
        """Any casualties without a sentence of their own: morale points, stands, figures,
        or a rule set's own kind."""
        return f"{self.label(e.unit)} loses {plural(e.amount, e.noun)} ({humanise(e.cause)})", "hit"

    def _unit_deployed(self, e: ev.UnitDeployed, dice: Sequence[ev.DiceRolled]) -> _Told:
        return (f"{self.label(e.unit)} deploys at ({e.x:.1f}, {e.y:.1f}) facing "
                f"{describe_facing(e.facing)}"), "move"

    def _unit_removed(self, e: ev.UnitRemoved, dice: Sequence[ev.DiceRolled]) -> _Told:
        phrase = _REMOVAL_PHRASES.get(e.reason, f"leaves the field ({humanise(e.reason)})")
        name = self.label(e.unit)
        if self.state is not None and e.unit in self.state.units:
            u = self.state.units[e.unit]
            if u.is_commander:
                phrase = _COMMANDER_REMOVAL_PHRASES.get(e.reason, phrase)
            title = self.titles(self.state, u) if self.titles is not None and u.is_commander else None
            if title and not name.lower().startswith(title.lower()):
                name = f"{title} {name}"
        detail = f" ({e.detail})" if e.detail else ""
        return f"{name} {phrase}{detail}", "loss"

    def _objective_taken(self, e: ev.ObjectiveTaken, dice: Sequence[ev.DiceRolled]) -> _Told:
        return side_does(self.side(e.side), f"take {e.objective}"), "objective"

    def _decision_label(self, kind: str) -> str:
        declared = self.decisions.get(kind)
        return (humanise(kind) if declared is None else declared.label).lower()

    def _told_by_its_events(self, kind: str) -> bool:
        declared = self.decisions.get(kind)
        return declared is not None and declared.told

    def _decision_awaited(self, e: ev.DecisionAwaited, dice: Sequence[ev.DiceRolled]) -> _Told:
        if self._told_by_its_events(e.kind):
            return None, "decision"
        return f"{self.side(e.side)} to decide: {self._decision_label(e.kind)}", "decision"

    def _decision_made(self, e: ev.DecisionMade, dice: Sequence[ev.DiceRolled]) -> _Told:
        if self._told_by_its_events(e.kind):
            return None, "decision"
        kind = self._decision_label(e.kind)
        declared = self.decisions.get(e.kind)
        if e.choice is None:
            declined = declared.none_told() if declared is not None else None
            return side_does(self.side(e.side), declined or f"decline ({kind})"), "decision"
        words = self._field_words(e.choice)
        phrase = declared.choice_told(words) if declared is not None else None
        return side_does(self.side(e.side), phrase or f"choose {words} ({kind})"), "decision"

    def _narrated(self, e: ev.Narrated, dice: Sequence[ev.DiceRolled]) -> _Told:
        return self._side_agreeing(e.text), "note"

    def _side_agreeing(self, text: str) -> str:
        """A rule set's note in words (:meth:`purpose`), where it opens with a side and a
        verb its rule set declares (:func:`~tertia.core.narration.side_verbs`), that verb
        and the side's own "their" agreeing with the side's name. Such a note is recorded
        with the side's id and the verb in the plural ("parliament turn over their right
        command card"), so a name in the singular makes it "Parliament turns over its
        right command card", up to the note's first aside."""
        told = self.purpose(text)
        side_id = next((s for s in self._side_ids() if text.startswith(s + " ")), None)
        if side_id is None:
            return told
        name = without_aside(self.side(side_id))
        if is_plural_name(name) or not told.startswith(name + " "):
            return told
        clause, aside, rest = told[len(name) + 1:].partition(" (")
        if clause.split(" ")[0] not in SIDE_VERBS:
            return told
        own = possessive_pronoun(name)
        clause = " ".join(own if word == "their" else word for word in clause.split(" "))
        return side_does(name, clause) + aside + rest

    def _status_changed(self, e: ev.UnitStatusChanged, dice: Sequence[ev.DiceRolled]) -> _Told:
        return f"{self.label(e.unit)}: {humanise(e.key)} now {_value_text(e.value)}", "note"

    def _game_ended(self, e: ev.GameEnded, dice: Sequence[ev.DiceRolled]) -> _Told:
        scores = ", ".join(f"{self.side(s)} {v}" for s, v in e.score.items())
        outcome = "a draw" if e.winner is None else f"victory to {self.side(e.winner)}"
        text = f"The battle ends: {outcome}"
        if scores:
            text += f" — {scores}"
        if e.reason:  # a sentence of its own, so the reason's own asides keep their brackets
            text += f". {capitalise(humanise(e.reason).rstrip('.'))}."
        return text, "end"

    def _its(self, unit_id: str) -> str:
        """The piece's own: "his" for a commander, else "its" (which a plural name makes
        "their")."""
        unit = self.state.units.get(unit_id) if self.state is not None else None
        return "his" if unit is not None and unit.is_commander else "its"

    def _pronoun_is(self, unit_id: str) -> str:
        """"he is" for a commander, "they are" for a piece named in the plural, else "it is"."""
        unit = self.state.units.get(unit_id) if self.state is not None else None
        return pronoun_is(self.label(unit_id), person=unit is not None and unit.is_commander)

    def _facing(self, unit_id: str) -> float | None:
        if self.state is not None and unit_id in self.state.units:
            return self.state.units[unit_id].facing
        return None


_Told = tuple[str | None, str]


def the_within(text: str, names: Sequence[str]) -> str:
    """``text`` with each of ``names`` (each opening with "The") told with "the" where it
    stands within a sentence, as English writes a name's article there; a sentence may
    still open with it.

    >>> the_within("The King's Foot charges The Reserve. The Reserve holds",
    ...            ["The King's Foot", "The Reserve"])
    "The King's Foot charges the Reserve. The Reserve holds"
    """
    for name in names:
        text = re.sub(re.escape(name), _article_within, text)
    return text


def _article_within(found: re.Match[str]) -> str:
    """A name found in a text, its opening "The" lowered unless it opens a sentence."""
    before = found.string[:found.start()].rstrip()
    if not before or before.endswith((".", "!", "?")):
        return found.group(0)
    return "t" + found.group(0)[1:]

_TELLERS: dict[type[ev.Event], Any] = {
    ev.GameStarted: Narrator._game_started,
    ev.TurnBegan: Narrator._turn_began,
    ev.PhaseBegan: Narrator._phase_began,
    ev.DiceRolled: Narrator._dice_rolled,
    ev.UnitMoved: Narrator._unit_moved,
    ev.UnitTurned: Narrator._unit_turned,
    ev.UnitFormed: Narrator._unit_formed,
    ev.StandsScattered: Narrator._stands_scattered,
    ev.StandsGathered: Narrator._stands_gathered,
    ev.UnitDeployed: Narrator._unit_deployed,
    ev.UnitRemoved: Narrator._unit_removed,
    ev.ObjectiveTaken: Narrator._objective_taken,
    ev.DecisionAwaited: Narrator._decision_awaited,
    ev.DecisionMade: Narrator._decision_made,
    ev.Narrated: Narrator._narrated,
    ev.UnitStatusChanged: Narrator._status_changed,
    ev.GameEnded: Narrator._game_ended,
}


def decision_key(event: ev.Event | None) -> str | None:
    """Whose decision of which kind ``event`` awaits or makes (``side/kind``), if any: a
    choice made answers the decision awaited with the same key."""
    if isinstance(event, (ev.DecisionAwaited, ev.DecisionMade)):
        return f"{event.side}/{event.kind}"
    return None


def _opens_no_turn(event: ev.Event) -> bool:
    return False


def _as_given(purpose: str) -> str:
    return purpose


def headed_first(events: Iterable[ev.Event], opens_turn: Callable[[ev.Event], bool]) -> Iterator[ev.Event]:
    """``events`` in order, save that a turn whose play begins before it is announced (an
    event ``opens_turn``: a deck gathered, whose first cards may be turned idle before a
    side acts) is announced first: its :class:`~tertia.core.events.TurnBegan`, with the
    phase begun with it, is told before the events from the opening one on. The battle's
    start (:class:`~tertia.core.events.GameStarted`) is told where it falls.

    >>> gathered = ev.GameDataChanged(key="drawn", value=())
    >>> told = headed_first([gathered, ev.GameStarted("roy"), ev.TurnBegan(1, "roy"),
    ...                      ev.PhaseBegan("activation")], lambda e: e is gathered)
    >>> [type(e).__name__ for e in told]
    ['GameStarted', 'TurnBegan', 'PhaseBegan', 'GameDataChanged']
    """
    held: list[ev.Event] = []
    waiting: ev.Event | None = None  # the turn announced, its phase perhaps to follow
    for e in events:
        if waiting is not None:
            yield waiting
            waiting = None
            if isinstance(e, ev.PhaseBegan):
                yield e
                yield from held
                held = []
                continue
            yield from held
            held = []
        if held:
            if isinstance(e, ev.TurnBegan):
                waiting = e
            elif isinstance(e, ev.GameStarted):
                yield e
            else:
                held.append(e)
            continue
        if opens_turn(e):
            held.append(e)
            continue
        yield e
    if waiting is not None:
        yield waiting
    yield from held


def awaited_by(told: Sequence[NarrativeLine], made: ev.Event | None) -> int | None:
    """Where among the decision lines ending ``told`` the decision that the choice
    ``made`` answers was told as awaited, if it was: the two then read as the choice
    alone. (Two decisions may be awaited together and answered one after the other.)"""
    if not isinstance(made, ev.DecisionMade):
        return None
    for at in range(len(told) - 1, -1, -1):
        line = told[at]
        if line.kind != "decision":
            return None
        if isinstance(line.event, ev.DecisionAwaited) and decision_key(line.event) == decision_key(made):
            return at
    return None


def _follows_attack_on(out: Sequence[NarrativeLine], unit_id: str) -> bool:
    """Is the last line told (passing over notes) an attack this unit took part in?"""
    for line in reversed(out):
        takes = DICE_TAKERS.get(type(line.event)) if line.event is not None else None
        if takes is not None:
            return unit_id in takes(line.event)
        if line.kind != "note":
            return False
    return False


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def narrate(
    events: Iterable[ev.Event],
    state: GameState | None = None,
    side_names: Mapping[str, str] | None = None,
) -> list[str]:
    """Narrative lines for a run of events from ``state`` (the position before them)."""
    return Narrator(state, side_names=side_names).lines(events)
