"""Sentences for a rule set's own events.

The narrator (:mod:`tertia.io.narrative`) tells the core's events and the shared blocks'
itself; a rule set tells its own by registering a sentence for each of its event types
with :func:`tells`, in its own package, so the log, replays and reports read them without
an edit anywhere else. An event with no sentence is still told, plainly, by its type and
fields.

A sentence gets the narrator (anything with :class:`Narrating`'s names and values), the
event and the dice rolled for it, and returns its text (``None`` to tell nothing) and the
kind of line it is (``order``, ``move``, ``hit``, ``loss``, ``status`` ... the page styles
each).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from tertia.core.events import DiceRolled, Event
from tertia.core.state import GameState

Sentence = tuple[str | None, str]
"""A line's text (``None``: nothing to tell) and its kind."""


class Narrating(Protocol):
    """What a sentence may ask of the narrator telling it."""

    @property
    def state(self) -> GameState | None:
        """The position before the event (``None`` when the narrator follows none)."""

    def label(self, unit_id: str) -> str:
        """A unit's or commander's display name."""

    def side(self, side_id: str | None) -> str:
        """A side's display name."""

    def target(self, ident: str) -> str:
        """A unit's name, or a command's ("centre" or "side:centre")."""

    def follows_attack_on(self, unit_id: str) -> bool:
        """Is the last line told (passing over notes) an attack this unit took part in?
        Then a sentence about it need not name the attack again."""

    def note(self, event: Event) -> str | None:
        """Extra words the front end gives for this event (the odds of an attack)."""

    def command_name(self, command: str) -> str | None:
        """A command (the group of units a card or order moves) by the rule set's name
        for it; None when it gives none."""


E = TypeVar("E", bound=Event)
Teller = Callable[[Any, Any, Sequence[DiceRolled]], Sentence]

SENTENCES: dict[type[Event], Teller] = {}
"""The sentence registered for each rule set's event type."""


def tells(event_type: type[E]) -> Callable[
        [Callable[[Narrating, E, Sequence[DiceRolled]], Sentence]],
        Callable[[Narrating, E, Sequence[DiceRolled]], Sentence]]:
    """Register the decorated function as the sentence for ``event_type``; a second
    sentence for one type is refused where it is registered."""
    def register(fn: Callable[[Narrating, E, Sequence[DiceRolled]], Sentence]
                 ) -> Callable[[Narrating, E, Sequence[DiceRolled]], Sentence]:
        known = SENTENCES.get(event_type)
        where = (fn.__module__, fn.__qualname__)
        if known is not None and (known.__module__, known.__qualname__) != where:
            raise TypeError(f"{event_type.type!r} already has a sentence, "
                            f"{known.__module__}.{known.__qualname__}")
        SENTENCES[event_type] = fn
        return fn
    return register


DICE_TAKERS: dict[type[Event], Callable[[Any], tuple[str, ...]]] = {}
"""Events that take the dice rolled just before them into their own line (an attack's
dice), each with the pieces whose dice it takes (a die whose purpose names one of them)."""


def takes_dice(event_type: type[E], pieces: Callable[[E], tuple[str, ...]]) -> None:
    """Let ``event_type``'s sentence receive the dice rolled just before it that name
    one of ``pieces(event)`` (all of them when none does), instead of a line of dice of
    their own; and let the line it makes count as the attack those pieces fought."""
    DICE_TAKERS[event_type] = pieces


SIDE_VERBS: set[str] = set()
"""Verbs a rule set's notes (:class:`~tertia.core.events.Narrated`) put right after a side's
id, in the plural, the side being their subject ("royalist win the initiative")."""


def side_verbs(*verbs: str) -> None:
    """Let a note opening with a side's id and then one of ``verbs`` be told with that verb,
    and the side's own "their" before the note's first aside, agreeing with the side's name
    ("Parliament wins the initiative", "Royalists win the initiative"); a note naming no
    such verb after the side ("parliament artillery card drawn") is told as it is."""
    SIDE_VERBS.update(verbs)


def humanise(text: str) -> str:
    """An identifier as words: ``"charge_home"`` -> ``"charge home"``."""
    return text.replace("_", " ")


def plural(n: int, word: str) -> str:
    """``plural(2, "hit")`` -> ``"2 hits"``; ``plural(1, "hit")`` -> ``"1 hit"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def percent(p: float, places: int = 0) -> str:
    """A chance in percent to ``places`` decimals, as a player reads it: only what is
    certain or impossible shows 100% or 0%; a chance that would round to either shows as
    under or over the least step (<1% and >99% in whole percent, as the page does).

    >>> [percent(p) for p in (0.0, 0.008, 0.25, 0.985, 0.992, 1.0)]
    ['0%', '<1%', '25%', '99%', '>99%', '100%']
    >>> percent(0.0004, 1), percent(0.3337, 1), percent(0.9996, 1)
    ('<0.1%', '33.4%', '>99.9%')
    """
    if p <= 0.0:
        return "0%"
    if p >= 1.0:
        return "100%"
    step = 10.0 ** -places
    share = p * 100
    if share < step:
        return f"<{step:.{places}f}%"
    if share > 100 - step:
        return f">{100 - step:.{places}f}%"
    return f"{math.floor(share / step + 0.5) * step:.{places}f}%"


def side_does(side: str, verb: str, *, person: bool = False) -> str:
    """``side`` (or a piece) doing ``verb``, the verb agreeing with the name: a name in
    the plural ("Royalists", "Parliamentarians (Waller)", "Okey's Dragoons (third
    division)") takes the verb as it is, any other ("Parliament", "The King's army") and a
    person's (``person``: "Colonel Hollis") the third person singular.

    >>> side_does("Parliament (Earl of Essex)", "order"), side_does("Royalists", "order")
    ('Parliament (Earl of Essex) orders', 'Royalists order')
    >>> side_does("Parliament", "move first"), side_does("Parliament", "choose")
    ('Parliament moves first', 'Parliament chooses')
    >>> side_does("Okey's Dragoons (third division)", "stand between"), side_does(
    ...     "Colonel Hollis", "stand between", person=True)
    ("Okey's Dragoons (third division) stand between", 'Colonel Hollis stands between')
    """
    if not person and is_plural_name(side):
        return f"{side} {verb}"
    word, sep, rest = verb.partition(" ")
    if word.endswith(("s", "sh", "ch", "x", "z", "o")):
        word += "es"
    elif word.endswith("y") and word[-2:-1] not in "aeiou":
        word = word[:-1] + "ies"
    else:
        word += "s"
    return f"{side} {word}{sep}{rest}"


def is_plural_name(name: str) -> bool:
    """Does the name of a side or a piece take its verb in the plural? So its head noun,
    the last word before any bracket or "of", ends in a plural s ("they" is plural too).

    >>> [is_plural_name(n) for n in ("Royalists", "Wentworth's and Belasyse's Brigades",
    ...  "Usher's Dragoons", "Parliament (Earl of Essex)", "Lord Saye's Regiment of Foot",
    ...  "The Reserve of Three Cornets", "Lord Byron's Horse")]
    [True, True, True, False, False, False, False]
    """
    if name in _PLURAL_PRONOUNS:
        return True
    head = name.split(" (")[0].split(" of ")[0].split()
    return bool(head) and head[-1].endswith("s") and not head[-1].endswith(("'s", "ss", "us"))


_PLURAL_PRONOUNS = frozenset({"they", "They", "we", "We", "you", "You"})


def pronoun(name: str, *, person: bool = False) -> str:
    """How a sentence refers back to a piece named ``name``: "he" for a person (a
    commander), "they" for a name in the plural, else "it".

    >>> pronoun("Usher's Dragoons"), pronoun("Essex's Foot"), pronoun("Lord Forth", person=True)
    ('they', 'it', 'he')
    """
    return "he" if person else "they" if is_plural_name(name) else "it"


_POSSESSIVE = {"he": "his", "they": "their", "it": "its"}
_OBJECT = {"he": "him", "they": "them", "it": "it"}


def possessive_pronoun(name: str, *, person: bool = False) -> str:
    """"his", "their" or "its", as :func:`pronoun`."""
    return _POSSESSIVE[pronoun(name, person=person)]


def object_pronoun(name: str, *, person: bool = False) -> str:
    """"him", "them" or "it", as :func:`pronoun`."""
    return _OBJECT[pronoun(name, person=person)]


def pronoun_is(name: str, *, person: bool = False) -> str:
    """The pronoun for ``name`` with "is" agreeing: "it is", "they are", "he is"."""
    who = pronoun(name, person=person)
    return f"{who} {'are' if who == 'they' else 'is'}"


_PLURAL_VERBS = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}
_NOT_VERBS = frozenset({"as", "its", "this", "thus", "plus", "across", "towards", "less", "unless",
                        "upwards", "always", "perhaps", "us", "his", "hers"})
_CLAUSE_ENDS = (";", ":", ",", ".", "(", ")")
_PLURAL_OWN = {"its": "their", "itself": "themselves"}


def plural_verb(word: str) -> str | None:
    """A verb in the third person singular in the plural ("moves" -> "move", "is" ->
    "are", "carries" -> "carry", "reaches" -> "reach"); None for a word that is none.

    >>> [plural_verb(w) for w in ("moves", "is", "loses", "passes", "carries", "reaches", "as", "3")]
    ['move', 'are', 'lose', 'pass', 'carry', 'reach', None, None]
    """
    if word in _PLURAL_VERBS:
        return _PLURAL_VERBS[word]
    if (word in _NOT_VERBS or len(word) < 3 or not word.isalpha() or not word.islower()
            or not word.endswith("s") or word.endswith("ss")):
        return None
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    return word[:-1]


def bracket_nested(text: str) -> str:
    """``text`` with an aside inside an aside in square brackets, as printers set them
    (one inside that in parentheses again), where a name carrying its own aside is told
    within one.

    >>> bracket_nested("Balfour's Horse tests morale (Lord Saye's Foot (Meldrum's) routed near it)")
    "Balfour's Horse tests morale (Lord Saye's Foot [Meldrum's] routed near it)"
    >>> bracket_nested("loses 2 figures (routing (its army takes fright)) (d6)")
    'loses 2 figures (routing [its army takes fright]) (d6)'
    >>> bracket_nested("destroyed (engaged (D3 (earlier): Melee))")
    'destroyed (engaged [D3 (earlier): Melee])'
    """
    if "(" not in text:
        return text
    out: list[str] = []
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
            out.append("(" if depth % 2 else "[")
        elif char == ")" and depth > 0:
            out.append(")" if depth % 2 else "]")
            depth -= 1
        else:
            out.append(char)
    return "".join(out)


def agree(text: str, names: Sequence[str], *, opening: bool = False) -> str:
    """``text`` with the verbs whose subject is one of ``names`` (names taking a plural
    verb, :func:`is_plural_name`) in the plural: the word right after the name, and each
    verb joined to it by "and" in the same clause. The sentences are written for a unit
    in the singular, so only a plural name changes them. ``opening``: only the name the
    text opens with is its subject (a refusal, written with no thought of agreement:
    "no stand of Usher's Dragoons sees ..." keeps its verb); ``names`` longest first.

    >>> agree("Usher's Dragoons falls back and loses 2 figures; Essex's Foot holds",
    ...       ["Usher's Dragoons"])
    "Usher's Dragoons fall back and lose 2 figures; Essex's Foot holds"
    >>> agree("Okey's Dragoons halts and dresses its ranks: in good order", ["Okey's Dragoons"])
    "Okey's Dragoons halt and dress their ranks: in good order"
    >>> agree("Usher's Dragoons is out of sight of Okey's Dragoons", ["Okey's Dragoons",
    ...       "Usher's Dragoons"], opening=True)
    "Usher's Dragoons are out of sight of Okey's Dragoons"
    """
    if opening:
        subject = next((name for name in names if text.startswith(name + " ")), None)
        return text if subject is None else _agree_after(text, len(subject) + 1)
    for name in names:
        start = text.find(name + " ")
        while start >= 0:
            text = _agree_after(text, start + len(name) + 1)
            start = text.find(name + " ", start + len(name))
    return text


def _agree_after(text: str, at: int) -> str:
    """The clause from ``at`` (its verb first) with that verb and those joined to it by
    "and" in the plural, and the unit's own "its" as "their"; unchanged when its first
    word is no verb."""
    words = text[at:].split(" ")
    for i, token in enumerate(words):
        word = token.rstrip("".join(_CLAUSE_ENDS))
        if i == 0 or words[i - 1] == "and":
            plural = plural_verb(word)
            if plural is None and i == 0:
                return text
            if plural is not None:
                words[i] = plural + token[len(word):]
        elif word in _PLURAL_OWN:
            words[i] = _PLURAL_OWN[word] + token[len(word):]
        if word != token or any(c in token for c in _CLAUSE_ENDS):
            break
    return text[:at] + " ".join(words)


def said_of(name: str, phrases: Sequence[str]) -> str:
    """``phrases`` said of the piece ``name``, each verb agreeing with it ("Wardlawe's
    Dragoons pass their morale tests 17.0% to 66.6%, fall back disordered …").

    >>> said_of("Wardlawe's Dragoons", ["passes its morale tests", "falls back disordered"])
    "Wardlawe's Dragoons pass their morale tests, fall back disordered"
    """
    plurals = (name,) if is_plural_name(name) else ()
    agreed = [agree(f"{name} {phrase}", plurals).removeprefix(name).strip() for phrase in phrases]
    return f"{name} {', '.join(agreed)}"


def turn_heading(turn: int, side: str | None) -> str:
    """A turn's heading in the log: "Turn 3 — Royalists" for a turn that is one side's,
    "Turn 3" (``side`` None) for one both sides play in."""
    return f"Turn {turn}" if side is None else f"Turn {turn} — {side}"


def default_side_name(side_id: str) -> str:
    """A readable name for a side id with no given name: ``"royalists"`` -> ``"Royalists"``."""
    return side_id.replace("_", " ").replace("-", " ").strip().title() or side_id


def without_aside(name: str) -> str:
    """A name without its closing aside, where a sentence goes on after it.

    >>> without_aside("Royalists (King Charles I)"), without_aside("Ramsay's Wing")
    ('Royalists', "Ramsay's Wing")
    """
    return name[:name.rindex(" (")] if name.endswith(")") and " (" in name else name


def possessive(name: str, *, person: bool = False) -> str:
    """``"Royalists"`` -> ``"Royalists'"``, ``"Parliament"`` -> ``"Parliament's"``: a
    plural in s takes the apostrophe alone, any other name "'s", a person's
    (``person``: a commander) whatever its last letter, as the scenarios write them
    ("Hollis's Foot", so "Colonel Hollis's command"). A name's closing aside is left out,
    since the possessive cannot follow it.

    >>> possessive("Royalists (King Charles I)"), possessive("Parliament (Earl of Essex)")
    ("Royalists'", "Parliament's")
    >>> possessive("Colonel Hollis", person=True), possessive("Usher's Dragoons")
    ("Colonel Hollis's", "Usher's Dragoons'")
    >>> possessive("Essex's")
    "Essex's's"
    """
    name = without_aside(name)
    plural = not person and name.endswith("s") and not name.endswith("'s")
    return f"{name}'" if plural else f"{name}'s"


def of(thing: str, name: str, *, opening: bool = False) -> str:
    """``name``'s ``thing`` ("Essex's Foot's card"); "the card of Ramsay's Wing (first line,
    left)" for a name ending in an aside, which a possessive cannot follow and a piece's
    name needs (``opening``: at the start of a sentence, "The ...").

    >>> of("card", "Essex's Foot"), of("card", "Ramsay's Wing (first line)", opening=True)
    ("Essex's Foot's card", "The card of Ramsay's Wing (first line)")
    """
    if not name.endswith(")"):
        return f"{possessive(name)} {thing}"
    return f"{'The' if opening else 'the'} {thing} of {name}"


def command_role(command: str, side: str | None = None) -> str:
    """What a command is, from its id, in words: the id less a tag naming ``side`` (the
    side's id, or its first letter, before a dash or an underscore), which tells the
    engine whose it is and a player nothing, its dashes and underscores read as spaces.

    >>> command_role("r-horse", "royalist"), command_role("royalist_left", "royalist")
    ('horse', 'left')
    >>> command_role("centre", "royalist"), command_role("commanded_shot", "royalist")
    ('centre', 'commanded shot')
    >>> command_role("r-horse"), command_role("p-horse", "royalist")
    ('r horse', 'p horse')
    """
    words = [w for w in re.split(r"[-_\s]+", command) if w]
    if side and len(words) > 1 and words[0].lower() in (side.lower(), side[:1].lower()):
        words = words[1:]
    return " ".join(words) or command


def command_by_role(command: str, side: str | None = None, whose: str | None = None) -> str:
    """A command no commander leads, as players call it: by its side, ``whose`` (the
    side's name as a possessive, "the King's Army's"), and what it is
    (:func:`command_role`): "the King's Army's horse command", as a command a commander
    leads is his ("Sir John Meldrum's command"). Without ``whose``, where the words about
    it say whose it is (an order a side gives its own), "the horse command".

    >>> command_by_role("r-horse", "royalist", possessive("the King's Army (Charles I)"))
    "the King's Army's horse command"
    >>> command_by_role("artillery", "parliament", "Parliament's"), command_by_role("r-horse", "royalist")
    ("Parliament's artillery command", 'the horse command')
    """
    role = command_role(command, side)
    return f"{whose} {role} command" if whose else f"the {role} command"
