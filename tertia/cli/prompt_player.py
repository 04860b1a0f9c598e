"""A person playing at the terminal (``tertia battle --player SIDE=human``), asked only
what the rule set's vocabulary declares.

Each turn lists the legal actions that need nothing more (answers to a pending decision,
orders to commands, ending the phase: :func:`tertia.offers.prompt_offers`) and then each
declared kind that fits the moment and needs the player to fill it in (a move, an attack,
a rally, a card order ...). A kind is filled in field by field, each asked for by its
label and kind (a piece from a numbered list, a path, a facing, a choice); the engine
judges the result, and a refusal is shown with its rule before asking again. A
dice-driven kind shows its exact odds first and asks whether to go ahead.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tertia.analysis.answer import ROUTS, likeliest, refusal_in_words
from tertia.analysis.enumerate import ODDS_BUDGET, TooManyBranches
from tertia.analysis.odds import odds
from tertia.battle import BattleStopped
from tertia.cli.inspection import ARMY_LOSS_KEYS, losses_line
from tertia.cli.pieces import UnknownPiece, piece_among, refused
from tertia.core.actions import Action, BadActionData, action_from_dict
from tertia.core.game import Game
from tertia.core.narration import command_by_role, percent, side_does
from tertia.core.state import GameState, Unit
from tertia.core.violations import IllegalAction
from tertia.core.vocabulary import ActionKind, FieldKind, FieldSpec, Interaction
from tertia.offers import Offer, command_name, fitting, namer, prompt_offers, unit_offers

Read = Callable[[], str | None]
"""The next line the person types, or ``None`` when the input has ended."""
Write = Callable[[str], None]

LEAVE = ("q", "quit")
SHOW = "?"
HELP = ("h", "help")


class LeftTheBattle(BattleStopped):
    """The person left (``q``), or the input ended, before the battle did."""


class Skip(Exception):
    """A field's answer could not be used; the turn's menu is shown again."""


class PromptPlayer:
    """Chooses by asking: every choice and question comes from the rule set's vocabulary."""

    name = "human"

    def __init__(self, read: Read, write: Write, side_names: dict[str, str] | None = None,
                 prompt: Write | None = None, on_leaving: str = "Nothing is saved") -> None:
        self.read = read
        self.write = write
        self.prompt = prompt or write
        """Writes a question, left open for the answer on the same line."""
        self.side_names = side_names or {}
        self.on_leaving = on_leaving
        """What becomes of a battle left unfinished, as the person is told before leaving."""

    # --- the turn's menu ---------------------------------------------------------------------

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        side = state.to_act
        seen = game.observed_state(state, side)
        while True:
            self._header(game, seen)
            offers = prompt_offers(game, state)
            kinds = [k for k in fitting(game.ruleset, state)
                     if _asks(k) and self._makeable(game, state, seen, k)]
            entries: list[Offer | ActionKind] = [*offers, *kinds]
            for n, entry in enumerate(entries, 1):
                words = entry.label if isinstance(entry, Offer) else f"{entry.label} …"
                self.write(f"  {n}. {words}")
            self.write(f"  {SHOW} the units   q leave the battle")
            answer = self._ask("Choose")
            if answer == SHOW:
                self._show_units(game, seen)
                continue
            if answer.lower() in HELP:
                self.write(f"  give the number of a choice; {SHOW} lists the units; q leaves the battle")
                continue
            if not answer.isdigit() or not 1 <= int(answer) <= len(entries):
                self.write(f"  no choice {answer!r}: give a number from 1 to {len(entries)}")
                continue
            chosen = entries[int(answer) - 1]
            try:
                action = chosen.action if isinstance(chosen, Offer) else self._fill(game, state, seen, chosen)
            except Skip as exc:
                self.write(f"  {exc}")
                continue
            problems = game.validate(state, action)
            if problems:
                for v in problems:
                    self.write(f"  refused: {refused(v, state)}")
                continue
            measured = game.ruleset.measure_move(game.table, state, action) or {}
            for warning in measured.get("warnings", ()):
                self.write(f"  note: {warning['message']} ({warning['rule']})")
            kind = game.ruleset.action_kind(action.type)
            if kind is not None and kind.dice_driven and not self._odds_first(game, seen, action):
                continue
            return action

    def _odds_first(self, game: Game, seen: GameState, action: Action) -> bool:
        """A dice-driven action's odds, then whether to go ahead."""
        for line in odds_lines(game, seen, action):
            self.write(line)
        return self._yes("  Go ahead? (Y/n)", default=True)

    def _yes(self, question: str, *, default: bool) -> bool:
        """A yes or a no (blank: ``default``), asked again until it is one of them: dice are
        never rolled on an answer that was not meant as a yes."""
        while True:
            answer = self._ask(question).lower()
            if not answer:
                return default
            if answer in ("y", "yes", "n", "no"):
                return answer.startswith("y")
            self.write(f"  {answer!r}: answer y or n")

    def _makeable(self, game: Game, state: GameState, seen: GameState, kind: ActionKind) -> bool:
        """May some piece make ``kind`` now? A kind none may make is left off the menu
        (it was listed, then refused as "nothing may bombard now")."""
        try:
            self._offers(game, state, seen, kind, ())
        except Skip:
            return False
        return _command_makeable(game, state, kind)

    def _header(self, game: Game, seen: GameState) -> None:
        side = self.side_names.get(seen.to_act, seen.to_act)
        self.write("")
        self.write(f"Turn {seen.turn}, {seen.phase} phase: {side} to act")
        summary = game.ruleset.presentation().summary(seen)
        piece = namer(seen)
        cards = summary.get("card_names")
        card_names: Mapping[str, str] = cards if isinstance(cards, Mapping) else {}

        def words(value: str | int) -> str:
            if not isinstance(value, str):
                return str(value)
            return piece(value) or card_names.get(value) or value.replace("_", " ")

        brief = [f"{k.replace('_', ' ')} {words(v)}" for k, v in summary.items()
                 if isinstance(v, str | int) and v != "" and k not in ARMY_LOSS_KEYS]
        if brief:
            self.write("  " + "; ".join(brief))
        losses = losses_line(summary, seen.sides, lambda s: self.side_names.get(s, s))
        if losses is not None:
            self.write("  " + losses)
        if seen.pending is not None:
            decision = game.ruleset.decision_kind(str(seen.pending.get("kind")))
            if decision is not None:
                self.write("  " + decision.ask(seen.pending, namer(seen)))

    def _show_units(self, game: Game, seen: GameState) -> None:
        """Every piece the side sees, with what its rule set shows of it."""
        for side in seen.sides:
            pieces = list(seen.iter_units(side))
            # a side may show none: hidden while it deploys in secret, or all out of sight
            self.write(f"  {self.side_names.get(side, side)}:" + ("" if pieces else " none in sight"))
            for u in pieces:
                shows = _shows(game, seen, u)
                self.write(f"    {_piece(game, seen, u)} at ({u.x:.1f}, {u.y:.1f}) facing {u.facing:.0f}"
                           + (f": {shows}" if shows else ""))

    def _ask(self, question: str) -> str:
        while True:
            answer = self._line(question)
            if answer.lower() not in LEAVE:
                return answer
            # A q typed by mistake would throw the battle away: it is asked once more.
            if self._line(f"  Leave the battle unfinished? {self.on_leaving} (y/N)").lower() in ("y", "yes"):
                raise LeftTheBattle("the battle was left unfinished")

    def _line(self, question: str) -> str:
        self.prompt(f"{question}: ")
        line = self.read()
        if line is None:
            raise LeftTheBattle("the input ended before the battle did")
        return line.strip()

    # --- filling in a kind ----------------------------------------------------------------

    def _fill(self, game: Game, state: GameState, seen: GameState, kind: ActionKind) -> Action:
        data = self._values(game, state, seen, kind)
        try:
            return action_from_dict(data)
        except BadActionData as exc:
            raise Skip(str(exc)) from None

    def _values(self, game: Game, state: GameState, seen: GameState, kind: ActionKind,
                plan: Sequence[Action] = ()) -> dict[str, Any]:
        """The kind's fields, asked in order; pieces are listed only where the rules
        allow them (the offers for the kind), so the person picks among legal ones."""
        offers = self._offers(game, state, seen, kind, plan)
        data: dict[str, Any] = {"type": kind.type}
        for spec in kind.fields:
            pieces = _candidates(spec, seen)
            if offers is not None and pieces is not None:
                pieces = _allowed(spec, kind, pieces, offers, data)
            value = self._field(game, state, seen, spec, pieces)
            if value is not None:
                data[spec.name] = value
        return data

    @staticmethod
    def _offers(game: Game, state: GameState, seen: GameState, kind: ActionKind,
                plan: Sequence[Action]) -> list[Offer] | None:
        """Every legal offer of ``kind`` made by a piece (None: the kind's subject is no
        piece, or it has none); :class:`Skip` when no piece may make one now."""
        subject = kind.field(kind.subject) if kind.subject else None
        if subject is None or subject.from_pending is not None:
            return None
        pieces = _candidates(subject, seen)
        if pieces is None:
            return None
        shown = set(seen.units)
        found = [o for u in pieces if u.id in state.units
                 for o in unit_offers(game, state, state.units[u.id], shown, plan, only=kind.type)]
        if not found:
            raise Skip(f"nothing may {kind.label.lower()} now")
        return found

    def _field(self, game: Game, state: GameState, seen: GameState, spec: FieldSpec,
               pieces: list[Unit] | None) -> Any:
        """One field's value from the person (None: left out); :class:`Skip` for an
        answer that cannot be used."""
        if spec.kind is FieldKind.ACTIONS:
            return self._list_of_actions(game, state, seen, spec)
        if pieces is not None:
            for n, u in enumerate(pieces, 1):
                self.write(f"    {n}. {_piece(game, seen, u)}")
        blank = f"; blank: {spec.none_label or 'leave out'}" if spec.optional else ""
        if spec.kind is FieldKind.CARD_ORDER:
            blank = "; blank: as dealt"
        while True:
            answer = self._ask(f"  {spec.label} ({_hint(spec, seen, game)}{blank})")
            if not answer:
                if spec.kind is FieldKind.CARD_ORDER:
                    return list(_pending_list(spec, seen))
                if spec.optional:
                    return None
                raise Skip(f"{spec.label.lower()} is needed: back to the choices")
            try:
                return _parse(spec, answer, pieces)
            except Skip as exc:  # a mistyped value is asked for again, not the whole action
                self.write(f"  {exc}")

    def _list_of_actions(self, game: Game, state: GameState, seen: GameState,
                         spec: FieldSpec) -> list[dict[str, Any]]:
        item = game.ruleset.action_kind(str(spec.item))
        if item is None:
            raise Skip(f"{game.ruleset.title} declares no {spec.item!r} to list")
        items: list[dict[str, Any]] = []
        while True:
            n = len(items) + 1
            more = self._ask(f"  {spec.label}: add {item.label.lower()} {n}? (y, or blank to finish)")
            if more.lower() not in ("y", "yes"):
                return items
            planned = [action_from_dict({**i, "type": item.type}) for i in items]
            entry = self._values(game, state, seen, item, planned)
            entry.pop("type")
            items.append(entry)


# --- what a field may hold -------------------------------------------------------------------


def _asks(kind: ActionKind) -> bool:
    """Whether a kind is listed to be filled in (rather than only offered whole)."""
    return kind.subject is not None or kind.interaction is not Interaction.BUTTON


def _shows(game: Game, seen: GameState, u: Unit) -> str:
    """What the rule set shows of a piece, in a line, from the side's own view: each fact
    but the count on its base, which :func:`_piece` gives beside its name."""
    card = game.ruleset.presentation().piece(game.table, seen, u.id, seen.to_act)
    counted = card.base_count()
    on_base = counted[0].text(counted[1]) if counted is not None else None
    return " · ".join(line for line in card.lines() if line != on_base)


def _piece(game: Game, seen: GameState, u: Unit) -> str:
    """A piece to pick: the id it may be named by, its name, its kind and the count its
    rule set draws on its base (hits taken, figures left)."""
    card = game.ruleset.presentation().piece(game.table, seen, u.id, seen.to_act)
    counted = card.base_count()
    shown = f", {counted[0].text(counted[1])}" if counted is not None else ""
    return f"{u.id}  {u.label} ({card.kind_label}{shown})"


def _pending_list(spec: FieldSpec, seen: GameState) -> list[str]:
    pending: Mapping[str, Any] = seen.pending or {}
    listed = pending.get(spec.from_pending or "")
    return [str(v) for v in listed] if isinstance(listed, list | tuple) else []


def _candidates(spec: FieldSpec, seen: GameState) -> list[Unit] | None:
    """The pieces a field may name, to list by number; None for a field naming none."""
    side = seen.to_act
    if spec.from_pending is not None:
        if spec.kind not in (FieldKind.OWN_UNIT, FieldKind.OWN_COMMANDER):
            return None
        return [seen.units[i] for i in _pending_list(spec, seen) if i in seen.units]
    if spec.kind is FieldKind.ENEMY_UNIT:
        return list(seen.iter_units(seen.opponent(side)))
    if spec.kind is FieldKind.OWN_COMMANDER:
        return [u for u in seen.iter_units(side) if u.is_commander]
    if spec.kind is FieldKind.OWN_UNIT:
        return list(seen.iter_units(side))
    if spec.kind is FieldKind.OWN_UNITS:
        return [u for u in seen.iter_units(side) if not u.is_commander]
    return None


def _command_makeable(game: Game, state: GameState, kind: ActionKind) -> bool:
    """May some command (or one of the side's units in its place) be given ``kind`` now?
    True for a kind whose subject is no command, or one with a field no list of values
    fills: only the engine can judge what the person types there. An order when every
    order of the turn is given is left off the menu (Larger Battles: two a turn)."""
    subject = kind.field(kind.subject) if kind.subject else None
    if subject is None or subject.kind is not FieldKind.COMMAND:
        return True
    others: list[list[tuple[str, Any]]] = []
    for spec in kind.fields:
        if spec.name == subject.name:
            continue
        if spec.kind is not FieldKind.CHOICE:
            return True
        values: list[Any] = [*([None] if spec.optional else []), *spec.choices]
        others.append([(spec.name, v) for v in values])
    own = list(state.iter_units(state.to_act))
    named = sorted({u.command for u in own} | {u.id for u in own})
    fillings = [dict(f) for f in itertools.product(*others)]
    return any(game.is_legal(state, action) for name in named for filling in fillings
               if (action := _built({"type": kind.type, subject.name: name, **filling})) is not None)


def _built(data: dict[str, Any]) -> Action | None:
    """The action ``data`` describes, fields left out as None taking their defaults; None
    when it describes none."""
    try:
        return action_from_dict({k: v for k, v in data.items() if v is not None})
    except BadActionData:
        return None


def _allowed(spec: FieldSpec, kind: ActionKind, pieces: list[Unit], offers: Sequence[Offer],
             data: dict[str, Any]) -> list[Unit]:
    """Of ``pieces``, those a legal offer of ``kind`` puts in ``spec`` given the fields
    already answered in ``data`` (the acting piece, then its target, then the pieces its
    optional fields may name)."""
    subject, target = kind.subject, kind.target
    mine = [o for o in offers if subject is None or subject not in data
            or o.action.to_dict().get(subject) == data[subject]]
    if spec.name == subject:
        ids = {o.action.to_dict().get(subject) for o in offers}
    elif spec.name == target:
        ids = {o.target for o in mine}
    elif any(spec.name in o.options for o in mine):
        aimed = [o for o in mine if target is None or o.target == data.get(target)]
        ids = {i for o in aimed for i in o.options.get(spec.name, ())}
    else:
        return pieces
    return [u for u in pieces if u.id in ids]


def _hint(spec: FieldSpec, seen: GameState, game: Game) -> str:
    match spec.kind:
        case FieldKind.OWN_UNIT | FieldKind.OWN_COMMANDER | FieldKind.ENEMY_UNIT:
            return "a number, a name or an id"
        case FieldKind.OWN_UNITS:
            return "numbers or ids, separated by spaces"
        case FieldKind.COMMAND:
            commands = sorted({u.command for u in seen.iter_units(seen.to_act)})
            return f"a command ({'; '.join(_command_words(game, seen, c) for c in commands)}) or a unit id"
        case FieldKind.CHOICE:
            return "one of " + ", ".join(spec.choices)
        case FieldKind.POINTS:
            return "x,y points in inches, separated by spaces"
        case FieldKind.COORDINATE:
            return "a number" if "inches" in spec.label else "inches"
        case FieldKind.FACING:
            return "degrees clockwise from north"
        case FieldKind.FLAG:
            return "y or n"
        case FieldKind.CARD_ORDER:
            return "the cards top first, separated by spaces: " + " ".join(_pending_list(spec, seen))
    return spec.kind.value


def _command_words(game: Game, seen: GameState, command: str) -> str:
    """A command as typed, with the name the players know it by where it has one of its
    own ("centre: Sir Edmund Verney's command"), as the menu's orders name it."""
    named = command_name(game.ruleset, seen, command)
    return command if named in (None, command_by_role(command)) else f"{command}: {named}"


def _one_piece(word: str, pieces: Sequence[Unit]) -> str:
    """The piece of the list ``word`` names: by its number in the list, its id, or its
    name (or words of it only one piece's name has: :func:`~tertia.cli.pieces.piece_among`)."""
    if word.isdigit() and 1 <= int(word) <= len(pieces):
        return pieces[int(word) - 1].id
    try:
        return piece_among(pieces, word)
    except UnknownPiece as exc:
        raise Skip(f"{exc}: give a number from the list, a name or an id") from None


def _number(word: str, what: str) -> float:
    try:
        return float(word)
    except ValueError:
        raise Skip(f"{what}: {word!r} is not a number") from None


def _parse(spec: FieldSpec, answer: str, pieces: Sequence[Unit] | None) -> Any:
    """A typed answer as the field's JSON value; :class:`Skip` naming what is wrong."""
    words = answer.replace(",", " ").split() if spec.kind is not FieldKind.POINTS else answer.split()
    match spec.kind:
        case FieldKind.OWN_UNIT | FieldKind.OWN_COMMANDER | FieldKind.ENEMY_UNIT:
            return _one_piece(answer, pieces or ())
        case FieldKind.OWN_UNITS:
            return [_one_piece(w, pieces or ()) for w in words]
        case FieldKind.POINTS:
            points = []
            for w in words:
                xy = w.split(",")
                if len(xy) != 2:
                    raise Skip(f"a point is x,y (like 12,20.5), not {w!r}")
                points.append([_number(xy[0], "x"), _number(xy[1], "y")])
            return points
        case FieldKind.COORDINATE | FieldKind.FACING:
            return _number(answer, spec.label.lower())
        case FieldKind.FLAG:
            return answer.lower() in ("y", "yes", "true")
        case FieldKind.CARD_ORDER:
            return words
        case FieldKind.CHOICE if answer not in spec.choices:
            raise Skip(f"{spec.label.lower()}: {answer!r} is not one of {', '.join(spec.choices)}")
    return answer


# --- odds before the dice --------------------------------------------------------------------

def odds_lines(game: Game, seen: GameState, action: Action) -> list[str]:
    """The exact odds of ``action`` worked out from what the side sees, as lines."""
    try:
        result = odds(game, seen, action, budget=ODDS_BUDGET)
    except TooManyBranches as refused:  # what the walk proves, and estimates, of what the side sees
        if refused.told is None or not refused.told["chances"]:
            return [f"  (too many outcomes to list exactly: {refused})"]
        return refusal_lines(refused.told, namer(seen))
    except (IllegalAction, KeyError, TypeError, ValueError):
        return ["  (no odds can be given from what you see)"]
    name = namer(seen)
    lines = []
    if result.target is not None:
        target = name(result.target) or result.target
        counted = next((m for m in result.measures if m.kind == "count"), None)
        if "target_hits_exact" in result.summary or counted is None:
            lines.append(f"  Odds: {percent(float(result.hit_chance()))} to inflict a hit on {target}")
        else:
            some = sum(p for k, p in result.summary[f"target_{counted.key}_exact"].items() if k != "0")
            lines.append(f"  Odds: {percent(float(some))} chance of any {counted.title}: {target}")
    told = likeliest(result.outcomes, SHOWN)
    lines.extend(f"    {percent(float(p)):>4}  {words}" for p, words in told.rows)
    if told.others:
        lines.append(f"    {percent(float(told.others_chance)):>4}  … {told.others} other outcome"
                     f"{'s' if told.others != 1 else ''}")
    for piece in result.pieces:
        chance = piece.chances.get(ROUTS)
        if chance and piece.unit not in (result.target, result.attacker):
            lines.append(rout_line(name(piece.unit) or piece.unit, float(chance)))
    return lines


def refusal_lines(told: Mapping[str, Any], name: Callable[[str], str | None]) -> list[str]:
    """What a refused question tells (``TooManyBranches.told``), as the prompt shows it
    (:func:`~tertia.analysis.answer.refusal_in_words`): how much was walked exactly, then
    each chance, about so much where draws were made (its 95% interval), with the bounds
    proved."""
    heading, chances = refusal_in_words(told, name)
    lines = [f"  Not exact (too many outcomes): {heading}"]
    for c in chances:
        estimated = f"    about {c.about:>6}  {c.said} ({c.interval}; proved {c.proved})"
        lines.append(estimated if c.about is not None else f"    {c.said}: proved {c.proved}")
    return lines


def rout_line(label: str, chance: float) -> str:
    """The chance that a piece the action does not aim at routs, its verb agreeing with its
    name.

    >>> rout_line("Usher's Dragoons", 0.25), rout_line("Essex's Foot", 0.5)
    ("  Usher's Dragoons rout: 25%", "  Essex's Foot routs: 50%")
    """
    return f"  {side_does(label, 'rout')}: {percent(chance)}"


SHOWN = 8
"""Outcomes a player is shown before the dice: the likeliest, the rest counted."""

