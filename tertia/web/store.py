"""Saved games in SQLite: every game is its rows of actions, each with the dice it used.

The database runs in WAL mode. A row is in the database file's write-ahead log when
:meth:`GameStore.append_action` returns, so a reply sent after it survives a killed
server (``synchronous=NORMAL``); ``durable=True`` also waits for the disk
(``synchronous=FULL``), so the row survives a power cut too, at a few milliseconds an
action. Side tokens are kept only as SHA-256 digests and compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tertia.core.dice import Roll

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    scenario TEXT NOT NULL,
    rules TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    mode TEXT NOT NULL,
    controllers TEXT NOT NULL,
    start_rolls TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    rules_version TEXT NOT NULL DEFAULT '1.0',
    seed_text TEXT,
    version INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tokens (
    game_id TEXT NOT NULL REFERENCES games(id),
    role TEXT NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (game_id, role)
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    side TEXT NOT NULL,
    action TEXT NOT NULL,
    rolls TEXT NOT NULL,
    barrier INTEGER NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


DIGESTS_KEPT = 1024
"""Games whose token digests a :class:`GameStore` remembers (every request's token is
checked against them): the games in play, and many more (a server holds 48 in memory),
at some 800 bytes each. Those remembered longest are forgotten first, and read again from
the database when asked about: a server running for weeks meets games without end."""


def token_digest(token: str) -> str:
    """The stored form of a side's secret token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game's set-up, as saved."""

    id: str
    created: float
    scenario: str
    rules: str
    options: Mapping[str, Any]
    seed: int
    mode: str
    controllers: Mapping[str, str]
    """Side id to ``human`` or ``ai``."""
    start_rolls: tuple[Roll, ...]
    status: str = "playing"
    rules_version: str = ""
    """The version of the rule set the game was begun under: its actions replay only under it."""
    version: int = 0
    """Rises by one on every action applied and every undo: a client's ``If-Match``."""
    players: Mapping[str, str] = field(default_factory=dict)
    """The player (:mod:`tertia.ai.players`) of each side the server plays that was given
    one by name; the others play the doctrine."""


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One applied action: who took it, what it was, the dice it used, and whether it
    closes the history to undo (it rolled a die or revealed something)."""

    seq: int
    side: str
    action: Mapping[str, Any]
    rolls: tuple[Roll, ...]
    barrier: bool


def _rolls_json(rolls: Sequence[Roll]) -> str:
    return json.dumps([[r.purpose, r.die, r.value] for r in rolls])


def _rolls_from(text: str) -> tuple[Roll, ...]:
    return tuple(Roll(str(p), str(d), int(v)) for p, d, v in json.loads(text))


class GameStore:
    """The games database. One connection, serialised by a lock: writes are small and
    reads of live games come from memory."""

    def __init__(self, path: Path | str, *, durable: bool = False) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self._digests: dict[str, dict[str, str]] = {}
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "rules_version" not in columns:
            # Databases from before rule sets had versions in play: every game then was 1.0.
            self._db.execute("ALTER TABLE games ADD COLUMN rules_version TEXT NOT NULL DEFAULT '1.0'")
        if "seed_text" not in columns:
            # Seeds drawn by the server have 128 bits, more than an SQLite integer holds.
            self._db.execute("ALTER TABLE games ADD COLUMN seed_text TEXT")
        if "version" not in columns:
            self._db.execute("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
        if "players" not in columns:
            # Games from before players had names: the doctrine played every AI side.
            self._db.execute("ALTER TABLE games ADD COLUMN players TEXT NOT NULL DEFAULT '{}'")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # --- writing ---------------------------------------------------------------------------

    def create_game(self, row: GameRow, digests: Mapping[str, str]) -> None:
        """Save a new game and the digests of its tokens (role to digest)."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, created, updated, scenario, rules, options, seed, mode, "
                "controllers, start_rolls, status, rules_version, seed_text, players) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.created, row.created, row.scenario, row.rules,
                 json.dumps(dict(row.options)), 0, row.mode, json.dumps(dict(row.controllers)),
                 _rolls_json(row.start_rolls), row.status, row.rules_version, str(row.seed),
                 json.dumps(dict(row.players))),
            )
            db.executemany(
                "INSERT INTO tokens (game_id, role, digest) VALUES (?, ?, ?)",
                [(row.id, role, digest) for role, digest in digests.items()],
            )

    def append_action(self, game_id: str, action: ActionRow, status: str, version: int) -> None:
        """Append an applied action, with the game's status and version, in one transaction."""
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO actions (game_id, seq, side, action, rolls, barrier, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, action.seq, action.side, json.dumps(dict(action.action)),
                 _rolls_json(action.rolls), int(action.barrier), now),
            )
            db.execute("UPDATE games SET updated = ?, status = ?, version = ? WHERE id = ?",
                       (now, status, version, game_id))

    def remove_actions_from(self, game_id: str, seq: int, status: str, version: int) -> None:
        """Undo: delete the actions numbered ``seq`` and after, and set the game's status and
        version, in one transaction."""
        with self._transaction() as db:
            db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, seq))
            db.execute("UPDATE games SET updated = ?, status = ?, version = ? WHERE id = ?",
                       (time.time(), status, version, game_id))

    # --- reading ---------------------------------------------------------------------------

    def load_game(self, game_id: str) -> tuple[GameRow, list[ActionRow]] | None:
        with self._lock:
            found = self._db.execute(
                "SELECT id, created, scenario, rules, options, seed, mode, controllers, start_rolls, "
                "status, rules_version, seed_text, version, players FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if found is None:
                return None
            rows = self._db.execute(
                "SELECT seq, side, action, rolls, barrier FROM actions WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        (gid, created, scenario, rules, options, seed, mode, controllers, start_rolls, status,
         rules_version, seed_text, version, players) = found
        game = GameRow(
            id=gid, created=created, scenario=scenario, rules=rules, options=json.loads(options),
            seed=int(seed_text) if seed_text is not None else int(seed), mode=mode,
            controllers=json.loads(controllers),
            start_rolls=_rolls_from(start_rolls), status=status, rules_version=rules_version,
            version=int(version), players=json.loads(players),
        )
        actions = [
            ActionRow(seq=int(s), side=side, action=json.loads(a), rolls=_rolls_from(r), barrier=bool(b))
            for s, side, a, r, b in rows
        ]
        return game, actions

    def game_exists(self, game_id: str) -> bool:
        if game_id in self._digests:
            return True
        with self._lock:
            return self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is not None

    def digests(self, game_id: str) -> dict[str, str]:
        """A game's token digests by role (they never change, so they are remembered)."""
        found = self._digests.get(game_id)
        if found is None:
            with self._lock:
                rows = self._db.execute(
                    "SELECT role, digest FROM tokens WHERE game_id = ?", (game_id,)
                ).fetchall()
                found = {role: digest for role, digest in rows}
                if found:
                    self._digests[game_id] = found
                    while len(self._digests) > DIGESTS_KEPT:
                        del self._digests[next(iter(self._digests))]
        return found

    def match_token(self, game_id: str, token: str) -> str | None:
        """The role (a side id, or ``spectator``) a token holds in a game, or ``None``.
        Every stored digest is compared, in constant time."""
        given = token_digest(token)
        found = None
        for role, digest in self.digests(game_id).items():
            if hmac.compare_digest(given, digest):
                found = role
        return found

    def unfinished_games(self) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM games WHERE status = 'playing' ORDER BY updated DESC"
            ).fetchall()
        return [r[0] for r in rows]
