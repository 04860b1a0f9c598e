"""The players a battle, a simulation, a sweep or a served game may be given, by name.

Each is made afresh for every game (a doctrine keeps memory within a game), so a name is
all a worker process needs. The shipped players are ``doctrine`` (the default wherever
none is named), ``baseline`` (the doctrine's first edition, kept by name so that a later
edition can be measured against it; ``doctrine-1`` names it too), ``random``, and
``doctrine-2`` (a second edition in the making, where a rule set has one). Any other
registers itself with :func:`register_player` when its module is imported; an installed
package names such a module as an entry point in the ``tertia.players`` group, and every
front end then offers it. A second player under a taken name is refused, naming both.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points

from tertia.ai.doctrine import BaselinePlayer, DoctrinePlayer, SecondEditionPlayer
from tertia.ai.player import Player
from tertia.ai.random_player import RandomPlayer

DEFAULT_PLAYER = "doctrine"
"""The player of every side no one names."""
SECOND_EDITION = "doctrine-2"
"""The name of the doctrine's second edition while it is not yet the doctrine."""

ENTRY_POINT_GROUP = "tertia.players"


@dataclass(frozen=True)
class PlayerEntry:
    """A player known by ``name``: what a front end says of it, and how to make one."""

    name: str
    title: str
    make: Callable[[], Player]


class UnknownPlayer(ValueError):
    """No player is registered under a name."""


_SHIPPED = (
    PlayerEntry("doctrine", "the standard opponent: a general who plays each rule set by its own "
                "doctrine", DoctrinePlayer),
    PlayerEntry("baseline", "an earlier, plainer general, kept to measure the standard one against",
                BaselinePlayer),
    PlayerEntry("random", "picks at random among legal actions: a sparring partner", RandomPlayer),
    PlayerEntry(SECOND_EDITION, "a newer general still on trial where a rule set has one, else the "
                "standard opponent", SecondEditionPlayer),
)
ALIASES: Mapping[str, str] = {"doctrine-1": "baseline"}
"""Other names a player answers to."""

_REGISTRY: dict[str, PlayerEntry] = {p.name: p for p in _SHIPPED}
_LOCK = threading.RLock()
_plugins_loaded = False


def register_player(name: str, title: str, make: Callable[[], Player]) -> PlayerEntry:
    """Make ``make()`` a player under ``name``; ValueError when the name is taken."""
    with _LOCK:
        taken = _REGISTRY.get(name) or (_REGISTRY.get(ALIASES[name]) if name in ALIASES else None)
        if taken is not None and taken.make is not make:
            raise ValueError(f"player {name!r} is already registered ({taken.title}); "
                             f"cannot register {getattr(make, '__qualname__', make)!r} under it")
        entry = _REGISTRY[name] = PlayerEntry(name, title, make)
        return entry


def _load_plugins() -> None:
    global _plugins_loaded
    with _LOCK:
        if _plugins_loaded:
            return
        _plugins_loaded = True
        for point in entry_points(group=ENTRY_POINT_GROUP):
            point.load()  # its module registers its players


def players() -> tuple[PlayerEntry, ...]:
    """Every registered player, the shipped ones first."""
    _load_plugins()
    return tuple(_REGISTRY.values())


def player_names() -> tuple[str, ...]:
    return tuple(p.name for p in players())


def entry(name: str) -> PlayerEntry:
    """The player registered under ``name`` (or an alias of it); UnknownPlayer else."""
    known = {p.name: p for p in players()}
    found = known.get(ALIASES.get(name, name))
    if found is None:
        raise UnknownPlayer(f"no player {name!r}; players: {', '.join(known)}")
    return found


def make_player(name: str) -> Player:
    """A new player of the kind registered under ``name``."""
    return entry(name).make()


def choose_players(pairs: Iterable[str], sides: Sequence[str], *, also: Sequence[str] = (),
                   side_names: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each side's player, from ``SIDE=NAME`` pairs (``--player``); the other sides get
    :data:`DEFAULT_PLAYER`. A side may be given by its id or by the name players read
    (``side_names``: "Royalists", or "Royalists (King Charles I)" whole), in any case, and
    a player by its name in any case.
    ``also`` names players a front end adds of its own (a person at the terminal). Raises
    ValueError naming the pair and what was expected."""
    chosen = dict.fromkeys(sides, DEFAULT_PLAYER)
    names = (*player_names(), *ALIASES, *also)
    called = {s.lower(): s for s in sides}
    for sid, name in (side_names or {}).items():
        called.setdefault(name.lower(), sid)
        called.setdefault(name.split(" (")[0].strip().lower(), sid)
    named: set[str] = set()
    by_case = {n.casefold(): n for n in names}
    for pair in pairs:
        given, sep, typed = (part.strip() for part in pair.partition("="))
        side = called.get(given.lower(), given)
        name = by_case.get(typed.casefold(), typed)  # a player's name in any case, as a side's
        if not sep or side not in chosen or name not in names:
            listed = ", ".join(f"{sid} ({side_names[sid]})" if side_names and side_names.get(sid, sid) != sid
                               else sid for sid in sides)
            raise ValueError(f"--player {pair!r}: expected SIDE=PLAYER with SIDE one of {listed} "
                             f"and PLAYER one of {', '.join(names)}")
        if side in named:
            raise ValueError(f"--player {pair!r}: {side} is given a player twice")
        named.add(side)
        chosen[side] = name if name in also else entry(name).name
    return chosen
