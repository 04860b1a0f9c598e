"""The game service: create games, tell each side what it may see, apply and undo actions.

Every change is written to the store before the caller hears of it. Games in play are
kept in memory (a small cache); any other game is rebuilt from its rows when asked for.
Each request names its caller by the roles its token holds: one or more side ids, or
``spectator`` for a game the AI plays on both sides.
"""

from __future__ import annotations

import json
import logging
import random
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from tertia.ai.players import UnknownPlayer
from tertia.ai.players import entry as player_entry
from tertia.analysis.enumerate import ODDS_BUDGET, TooManyBranches
from tertia.analysis.odds import UnaskedResponse, odds
from tertia.core.actions import Action, BadActionData, Move
from tertia.core.events import Event
from tertia.core.game import Game
from tertia.core.hidden import HiddenInformation, place_hidden, view_of
from tertia.core.ruleset import RuleSet
from tertia.core.state import GameState
from tertia.core.table_markers import table_markers
from tertia.core.violations import CoreCode, IllegalAction
from tertia.io.panels import panels
from tertia.io.scenario_file import ScenarioError
from tertia.offers import idle_reasons, parse_items, prompt_offers, prompt_refusals, unit_offers
from tertia.rules.fighting import told_modifier
from tertia.rulesets import get_ruleset, ruleset_class, ruleset_ids
from tertia.scenarios import BuiltinScenario
from tertia.scenarios.catalogue import load_named
from tertia.scenarios.catalogue import scenario_names as catalogue_names
from tertia.scenarios.catalogue import shipped_scenarios as catalogue_shipped
from tertia.web.action_json import check_plan, parse_action
from tertia.web.contact import contact_suggestion
from tertia.web.errors import ServiceError, illegal, not_found
from tertia.web.jsonbody import parse_json
from tertia.web.live import LiveGame, Prepared, ReplayFailed, Step
from tertia.web.options import check_options
from tertia.web.store import ActionRow, GameRow, GameStore, token_digest
from tertia.web.table import table_data

log = logging.getLogger("tertia.web")

MODES = ("hotseat", "ai", "link", "watch")
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
SPECTATOR = "spectator"
CACHE_SIZE = 48
"""Games held in memory at most (``tertia serve --max-games``), the least recently used
dropped first. A game in play is asked about at least every 20 seconds (its page waits
for changes), so 48 hold the games of 40 players at once and the 8 they left last; a game
dropped is rebuilt from the database when next asked for, in a tenth of a second for a
200-action Charge yr Pikes! battle (pure Python). A game held takes some 0.4 to 1 MiB as
it grows (its actions and their events, a few positions, its view and latest log entries
ready): under 40 players (``benchmarks/serve_soak.py``) 64 games held 6 MiB more than 48,
and grew by 2 MiB more after the first minute. A server for more players at once takes a
``--max-games`` above their number."""
IDLE_SECONDS = 300.0
"""A game no request has asked for in this long is dropped from memory (and rebuilt from
the database when next asked for): games left by their players hold no memory for long."""
ATTENTION_SECONDS = 60.0
"""The AI plays on in a game only while someone has asked about it this recently (an open
page asks at least every 20 seconds, waiting for changes): a battle of the AI against
itself that nobody watches any more, or an AI's turn nobody waits for, stops there, and
goes on when the game is next asked for."""
DRAWN_SEED_BITS = 128


def drawn_seed() -> int:
    """A secret seed for a game whose seed nobody chose: 128 bits, its top bit set so that
    its streams are derived with 128 bits too (:data:`~tertia.core.dice.WIDE_SEED`)."""
    return secrets.randbits(DRAWN_SEED_BITS - 1) | (1 << (DRAWN_SEED_BITS - 1))


@lru_cache(maxsize=32)
def _game(scenario: str, rules: str, options: str) -> Game:
    """Games are immutable (rule set plus table), so equal set-ups share one."""
    return Game(get_ruleset(rules, **json.loads(options)), load_named(scenario, rules_id=rules))


def scenario_names(rules: str) -> list[str]:
    """The scenarios that may be named (``rules`` for any rule set): the catalogue's, the
    built-in ones and those registered rule sets ship (:mod:`tertia.scenarios.catalogue`)."""
    return catalogue_names()


def shipped_scenarios() -> list[BuiltinScenario]:
    """The battles rule sets ship beside the built-in ones, each offered under the rule
    sets it is written for (its own, when its file names none)."""
    return catalogue_shipped()


def build_game(scenario: str, rules: str, options: Mapping[str, Any]) -> Game:
    """The game a set-up names; :class:`ServiceError` 422 for a bad one. Only built-in
    scenarios and those the rule set ships may be named: the server never reads a file a
    client names."""
    if scenario not in scenario_names(rules):
        known = ", ".join(scenario_names(rules))
        raise ServiceError(422, "UNKNOWN_SCENARIO", f"no scenario {scenario!r}; scenarios: {known}")
    if rules not in ruleset_ids():
        raise ServiceError(422, "UNKNOWN_RULES",
                           f"unknown rule set {rules!r}; known: {', '.join(ruleset_ids())}")
    check_options(ruleset_class(rules), options)
    try:
        get_ruleset(rules, **dict(options))
    except ValueError as exc:
        raise ServiceError(422, "BAD_OPTION", str(exc)) from None
    try:
        return _game(scenario, rules, json.dumps(dict(options), sort_keys=True))
    except ScenarioError as exc:
        raise ServiceError(422, "BAD_SCENARIO", str(exc)) from None


def parse_plan(ruleset: RuleSet, planned: Any) -> tuple[Action, ...]:
    """The actions a player means to make together (a JSON list, already parsed: those of
    the kind the rule set gathers, such as larger-battles' attacks), or none."""
    if planned is None:
        return ()
    check_plan(ruleset, planned)
    try:
        return parse_items(ruleset, planned)
    except BadActionData as exc:
        raise ServiceError(422, "BAD_ACTION", f"planned: {exc}") from None


class GameService:
    """Create, view, play, undo and replay games; the HTTP layer only translates."""

    def __init__(self, store: GameStore, *, cache_size: int = CACHE_SIZE,
                 idle_seconds: float = IDLE_SECONDS, attention_seconds: float = ATTENTION_SECONDS) -> None:
        self.store = store
        self.cache_size = cache_size
        self.idle_seconds = idle_seconds
        self.attention_seconds = attention_seconds
        self.idle_clock: Callable[[], float] = time.monotonic
        """The clock idleness and attention are read on (never the AI runner's, which
        tests drive)."""
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._asked: dict[str, float] = {}
        """When each game was last asked about, oldest first; only those within
        :attr:`attention_seconds` are kept."""
        self._cache_lock = threading.Lock()
        self.on_change: Callable[[str], None] = lambda game_id: None
        """Called after every change to a game (the AI runner listens)."""
        self.clock: Callable[[], float] = time.monotonic
        """The clock :attr:`LiveGame.changed_at` is read on (the AI runner's)."""

    # --- games in memory -------------------------------------------------------------------

    def live(self, game_id: str, *, asked: bool = True) -> LiveGame:
        """The game in memory, rebuilt from the store when it is not. ``asked``: a request
        asks for it (not the AI runner), so the AI goes on with it if it had stopped for
        want of attention (:data:`ATTENTION_SECONDS`)."""
        resumed = asked and not self.attend(game_id)
        found = self._held(game_id)
        if found is None:
            found = self._load(game_id)
        if resumed:
            self.on_change(game_id)
        return found

    def _held(self, game_id: str) -> LiveGame | None:
        with self._cache_lock:
            found = self._live.get(game_id)
            if found is not None:
                self._live.move_to_end(game_id)
                found.used_at = self.idle_clock()
                self._drop_idle()
            return found

    def _load(self, game_id: str) -> LiveGame:
        loaded = self.store.load_game(game_id)
        if loaded is None:
            raise not_found(f"game {game_id!r}")
        row, actions = loaded
        game = build_game(row.scenario, row.rules, row.options)
        for name in row.players.values():
            try:
                player_entry(name)
            except UnknownPlayer:
                raise ServiceError(
                    409, "UNKNOWN_PLAYER",
                    f"game {game_id!r} is played by {name!r}, a player this server does not have "
                    "(a package that registered it may have been removed), so it cannot be resumed",
                ) from None
        if row.rules_version != game.ruleset.version:
            raise ServiceError(
                409, "OLD_RULES_VERSION",
                f"game {game_id!r} was begun under {row.rules} {row.rules_version}; this server "
                f"plays {row.rules} {game.ruleset.version}, so it cannot be resumed",
            )
        try:
            rebuilt = LiveGame.rebuild(row, game, actions)
        except ReplayFailed as exc:
            log.warning("game %s does not replay: %s", game_id, exc)
            raise ServiceError(
                409, "RECORD_DIVERGED",
                f"game {game_id!r} ({game.scenario.name}, {game.ruleset.title}): this battle's record no "
                f"longer replays under this engine, so it cannot be resumed: {exc}",
            ) from None
        return self._keep(rebuilt)

    def _keep(self, live: LiveGame) -> LiveGame:
        """Hold a game in memory, dropping the least recently used beyond ``cache_size``
        (they are rebuilt from the database when next asked for)."""
        with self._cache_lock:
            found = self._live.setdefault(live.row.id, live)
            self._live.move_to_end(live.row.id)
            found.used_at = self.idle_clock()
            while len(self._live) > self.cache_size:
                self._live.popitem(last=False)
            self._drop_idle()
        return found

    def _drop_idle(self) -> None:
        """Drop the games no request has asked for in :attr:`idle_seconds` (held under the
        cache's lock; the least recently used come first)."""
        stale = self.idle_clock() - self.idle_seconds
        while self._live:
            oldest = next(iter(self._live.values()))
            if oldest.used_at >= stale:
                return
            self._live.popitem(last=False)

    def attend(self, game_id: str) -> bool:
        """Note that someone asks about the game now; whether someone had already within
        :attr:`attention_seconds`."""
        now = self.idle_clock()
        with self._cache_lock:
            last = self._asked.pop(game_id, None)
            self._asked[game_id] = now
            stale = now - self.attention_seconds
            while (oldest := next(iter(self._asked))) != game_id and self._asked[oldest] < stale:
                del self._asked[oldest]
        return last is not None and last >= stale

    def attended(self, game_id: str) -> bool:
        """Has anyone asked about the game within :attr:`attention_seconds`?"""
        last = self._asked.get(game_id)
        return last is not None and last >= self.idle_clock() - self.attention_seconds

    @property
    def games_in_memory(self) -> int:
        return len(self._live)

    def holds(self, live: LiveGame) -> bool:
        """Is ``live`` the game's copy in memory (not one dropped since)?"""
        with self._cache_lock:
            return self._live.get(live.row.id) is live

    def forget(self, game_id: str) -> None:
        """Drop a game from memory (it is rebuilt from the store when next asked for)."""
        with self._cache_lock:
            self._live.pop(game_id, None)

    # --- access ----------------------------------------------------------------------------

    def roles(self, game_id: str, token: str | None) -> frozenset[str]:
        """The roles a bearer token holds in a game: 401 without one, 404 for an unknown
        game, 403 for a token of no role there."""
        if not token:
            raise ServiceError(401, "NO_TOKEN", "this needs the side's token: Authorization: Bearer <token>")
        if not GAME_ID.fullmatch(game_id) or not self.store.game_exists(game_id):
            raise not_found(f"game {game_id!r}")
        role = self.store.match_token(game_id, token)
        if role is None:
            raise ServiceError(403, "BAD_TOKEN", "this token does not belong to this game")
        return frozenset((role,))

    @staticmethod
    def viewing_side(live: LiveGame, roles: frozenset[str], asked: str | None) -> str:
        """The side whose view a caller gets: the one asked for if the caller may see it."""
        sides = live.sides
        if asked is not None and asked not in sides:
            raise ServiceError(422, "UNKNOWN_SIDE", f"no side {asked!r}; sides: {', '.join(sides)}")
        if SPECTATOR in roles:
            return asked or live.state.to_act
        mine = [s for s in sides if s in roles]
        if asked is None:
            return live.state.to_act if live.state.to_act in mine else mine[0]
        if asked not in mine:
            raise ServiceError(403, "NOT_YOUR_SIDE", f"you do not play {live.game.side_names[asked]}")
        return asked

    @staticmethod
    def acting_side(live: LiveGame, roles: frozenset[str]) -> str:
        """The side the caller acts for now: only the side the game awaits, and only its
        own player."""
        state = live.state
        if not any(s in roles for s in live.sides):
            # Refused for who the caller is, whatever the state of play.
            raise ServiceError(403, "NOT_A_PLAYER", "only a side's player may act; this token watches")
        if state.is_over:
            raise ServiceError(409, "GAME_OVER", "the battle is over")
        side = state.to_act
        if side not in roles:
            raise ServiceError(403, "NOT_YOUR_TURN",
                               f"the game awaits {live.game.side_names[side]}, not you")
        return side

    # --- creating --------------------------------------------------------------------------

    @staticmethod
    def _opponent(name: str) -> str:
        """The registered player ``name`` (or its alias) names, or a refusal listing them."""
        try:
            return player_entry(name).name
        except UnknownPlayer as exc:
            raise ServiceError(422, "UNKNOWN_PLAYER", str(exc)) from None

    def create(
        self, scenario: str, rules: str, options: Mapping[str, Any], seed: int | None, mode: str,
        side: str | None, opponent: str | None = None,
    ) -> tuple[LiveGame, dict[str, str]]:
        """A new game, saved; returns it with a fresh token for each role. ``opponent`` names
        the player (:mod:`tertia.ai.players`) of every side the server plays."""
        if mode not in MODES:
            raise ServiceError(422, "BAD_MODE", f"mode is one of {', '.join(MODES)}, not {mode!r}")
        game = build_game(scenario, rules, options)
        sides = game.scenario.side_ids
        if mode == "ai":
            if side is None:
                raise ServiceError(422, "NO_SIDE", f"against the AI, pick your side: {' or '.join(sides)}")
            if side not in sides:
                raise ServiceError(422, "UNKNOWN_SIDE", f"no side {side!r}; sides: {', '.join(sides)}")
        controllers = {
            s: "ai" if mode == "watch" or (mode == "ai" and s != side) else "human" for s in sides
        }
        roles = [s for s in sides if controllers[s] == "human"] or [SPECTATOR]
        players = {s: self._opponent(opponent) for s in sides if controllers[s] == "ai"} if opponent else {}
        if opponent and not players:
            raise ServiceError(422, "NO_OPPONENT",
                               f"a {mode} game has no side the server plays, so it takes no opponent")
        if seed is not None and mode == "link":
            raise ServiceError(422, "SEED_NOT_ALLOWED",
                               "a game between two players' links draws its own secret seed; a chosen "
                               "seed is for hotseat, AI and watch games")
        row = GameRow(
            id=secrets.token_urlsafe(9), created=time.time(), scenario=scenario, rules=rules,
            options=dict(game.ruleset.options), seed=drawn_seed() if seed is None else seed,
            mode=mode, controllers=controllers, start_rolls=(), rules_version=game.ruleset.version,
            players=players,
        )
        live = LiveGame.start(row, game)
        live.changed_at = self.clock()
        tokens = {role: secrets.token_urlsafe(24) for role in roles}
        self.store.create_game(live.row, {r: token_digest(t) for r, t in tokens.items()})
        self._keep(live)
        self.attend(row.id)
        self.on_change(row.id)
        return live, tokens

    # --- views -----------------------------------------------------------------------------

    def meta(self, live: LiveGame, roles: frozenset[str]) -> dict[str, Any]:
        row = live.row
        names = live.side_names()
        return {
            "id": row.id, "mode": row.mode, "scenario": row.scenario,
            "title": live.game.scenario.name, "rules": row.rules, "options": dict(row.options),
            "seed": row.seed if live.state.is_over else None, "created": row.created,
            "sides": [{"id": s, "name": names.get(s, s), "controller": live.controller(s),
                       "player": live.player_name(s)} for s in live.sides],
            "you": sorted(r for r in roles if r in live.sides),
            "spectator": SPECTATOR in roles,
        }

    def status(self, live: LiveGame, roles: frozenset[str], side: str) -> dict[str, Any]:
        state = live.state
        seen = live.observe(len(live.steps), side)
        return {
            "turn": seen.get("turn"), "phase": seen.get("phase"), "active": seen.get("active"),
            "to_act": state.to_act, "pending": next(iter(seen.get("decisions") or ()), None),
            "decisions": seen.get("decisions") or [], "result": seen.get("result"),
            "over": state.is_over, "step": len(live.steps),
            "summary": visible_summary(live, side),
            "last_turn": visible_last_turn(live, side),
            "can_undo": self.undo_problem(live, roles) is None,
            "secret": live.hides_anything(side),
            "waiting_for": None if state.is_over else live.controller(state.to_act),
            "your_turn": state.to_act in roles and not state.is_over,
        }

    def view(self, game_id: str, roles: frozenset[str], side: str | None, log_from: int) -> dict[str, Any]:
        live = self.live(game_id)
        with live.lock:
            viewer = self.viewing_side(live, roles, side)
            total = len(live.steps) + 1
            start = min(max(0, log_from), total)
            seen = live.observe(len(live.steps), viewer)
            status = self.status(live, roles, viewer)
            choices, refused = self.prompt(live, roles)
            return {
                "game": self.meta(live, roles),
                "version": live.version,
                "side": viewer,
                "state": seen,
                "pieces": pieces_of(live, len(live.steps), viewer),
                "markers": markers(seen),
                "table_markers": table_markers_of(live, len(live.steps), viewer),
                "status": status,
                "choices": choices,
                "refused": refused,
                "panels": panels_of(live, viewer, watching=viewer not in roles),
                "log_total": total,
                "log": [live.log_entry(i, viewer) for i in range(start, total)],
            }

    def table(self, game_id: str, roles: frozenset[str]) -> dict[str, Any]:
        """The table and its terrain: the same for both sides, fixed for the battle."""
        live = self.live(game_id)
        return table_data(live.game, live.side_names())

    # --- actions ---------------------------------------------------------------------------

    def choices(self, live: LiveGame, roles: frozenset[str]) -> list[dict[str, Any]]:
        """Legal actions for the caller that concern no single unit of the table (ending
        the phase, orders to commands, answers to a pending decision), built from the rule
        set's declared action kinds (:func:`tertia.offers.prompt_offers`)."""
        state = live.state
        if state.is_over or state.to_act not in roles:
            return []
        return [offer.to_dict() for offer in prompt_offers(live.game, state)]

    @staticmethod
    def prompt(live: LiveGame, roles: frozenset[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The caller's choices (:meth:`choices`), and the prompt's buttons made with no
        field (ending the phase, a deployment done) that the caller may not press now,
        each with the rules' reason (:func:`tertia.offers.prompt_refusals`)."""
        state = live.state
        if state.is_over or state.to_act not in roles:
            return [], []
        offers = prompt_offers(live.game, state)
        return ([o.to_dict() for o in offers],
                [r.to_dict() for r in prompt_refusals(live.game, state, offers)])

    def validate(self, game_id: str, roles: frozenset[str], data: Any) -> dict[str, Any]:
        """Would this action be legal now? With a move's length against its allowance."""
        live = self.live(game_id)
        action = parse_action(data, live.game.ruleset)
        with live.lock:
            side = self.acting_side(live, roles)
            state = live.state
            problems = live.game.validate(state, action)
            measure = live.game.ruleset.measure_move(live.game.table, state, action)
            answer: dict[str, Any] = {"legal": not problems, "violations": [v.to_dict() for v in problems],
                                      "measure": measure}
            if isinstance(action, Move):
                # Worked out on what the side sees (the position itself where nothing is hidden):
                # nothing hidden from it is met or named.
                seen = live.observation(len(live.steps), side)
                contact = contact_suggestion(live.game, state, seen, action)
                if contact is not None:
                    answer["contact"] = contact
            return answer

    def act(self, game_id: str, roles: frozenset[str], data: Any,
            if_match: int | None = None) -> dict[str, Any]:
        """Apply the caller's action and save it before answering; with ``if_match``, only
        if the game is still at that version (a retried or doubled request applies once)."""
        live = self.live(game_id)
        action = parse_action(data, live.game.ruleset)
        with live.lock:
            check_version(live, if_match)
            side = self.acting_side(live, roles)
            problems = live.game.validate(live.state, action)
            if problems:
                raise illegal(problems)
            step = self.apply(live, side, action)
            answer = {
                "version": live.version,
                "events": [e.to_dict() for e in live.visible(step.events, side)],
                "log": [live.log_entry(len(live.steps), side)],
                "status": self.status(live, roles, side),
            }
        self.on_change(game_id)
        return answer

    def apply(self, live: LiveGame, side: str, action: Action) -> Step:
        """Apply and persist (held under ``live.lock``). If saving fails the game is
        dropped from memory, so it is rebuilt from what was saved."""
        return self.publish(live, live.prepare(side, action))

    def publish(self, live: LiveGame, prepared: Prepared) -> Step:
        """Make an action worked out with :meth:`LiveGame.prepare` part of the game and
        save it (held under ``live.lock``): from now on it is seen (the version changes)."""
        step = live.commit(prepared)
        live.changed_at = self.clock()
        try:
            self.store.append_action(
                live.row.id,
                ActionRow(len(live.steps), step.side, step.action.to_dict(), step.rolls, step.barrier),
                live.status_word(),
                live.version,
            )
        except BaseException:
            self.forget(live.row.id)
            raise
        return step

    # --- undo ------------------------------------------------------------------------------

    @staticmethod
    def undo_problem(live: LiveGame, roles: frozenset[str]) -> str | None:
        """Why the caller may not undo now, or ``None``: only the caller's own last action,
        while the game still awaits the caller, and never past a die or a secret shown."""
        if not live.steps:
            return "nothing has been done yet"
        last = live.steps[-1]
        if last.side not in roles:
            return "the last action was not yours"
        if last.barrier:
            return "dice have been rolled (or something hidden revealed) since"
        if live.state.is_over or live.state.to_act not in roles:
            return "the other side has the move"
        return None

    def undo(self, game_id: str, roles: frozenset[str], if_match: int | None = None) -> dict[str, Any]:
        live = self.live(game_id)
        with live.lock:
            check_version(live, if_match)
            problem = self.undo_problem(live, roles)
            if problem is not None:
                raise ServiceError(409, "CANNOT_UNDO", f"cannot undo: {problem}")
            undone = live.steps[-1]
            self.store.remove_actions_from(game_id, len(live.steps), "playing", live.version + 1)
            live.pop()
            live.changed_at = self.clock()
            side = self.viewing_side(live, roles, None)
            answer = {"version": live.version, "undone": undone.action.to_dict(),
                      "status": self.status(live, roles, side)}
        self.on_change(game_id)
        return answer

    # --- questions about the position ------------------------------------------------------

    def odds(self, game_id: str, roles: frozenset[str], data: Any) -> dict[str, Any]:
        """Exact odds of the caller's dice action now, from the rule set's own code."""
        live = self.live(game_id)
        action = parse_action(data, live.game.ruleset)
        kind = live.game.ruleset.action_kind(action.type)
        if kind is not None and not kind.odds:
            raise ServiceError(422, "NO_ODDS", f"odds are not given for {kind.label.lower()}: it decides "
                               "nothing by dice itself, and what follows it is a whole turn of play",
                               rule=kind.rule)
        with live.lock:
            side = self.acting_side(live, roles)
            try:
                answer = odds(live.game, live.state, action, budget=ODDS_BUDGET).to_dict()
            except IllegalAction as exc:
                raise illegal(live.game.named(exc.violations)) from None
            except TooManyBranches as exc:
                # Worked out on the whole position: what its walked branches prove is not
                # told to a side the rules hide anything from.
                hidden = live.hides_anything(side)
                told = "" if hidden else f": {exc}"
                raise ServiceError(422, "TOO_MANY_BRANCHES",
                                   f"this action has too many outcomes to list exactly{told}",
                                   extra=None if hidden or exc.told is None else {"told": exc.told}) from None
            if live.hides_anything(side) and answer != self._odds_from_view(live, side, action):
                raise ServiceError(409, "HIDDEN_INFORMATION",
                                   "these odds depend on what the rules hide from you")
            return told_odds(answer)

    @staticmethod
    def _odds_from_view(live: LiveGame, side: str, action: Action) -> dict[str, Any] | None:
        """The odds worked out from ``side``'s observation alone, its hidden values sampled
        (``None`` when they cannot be): an answer equal to this tells the side nothing it
        cannot see."""
        try:
            seen = live.game.observed_state(live.state, side)
            full = live.game.sample_hidden(seen, side, random.Random(live.state.step))
            return odds(live.game, full, action, budget=ODDS_BUDGET).to_dict()
        except Exception:  # a redacted position the rules cannot resolve: nothing to compare
            return None

    def question(self, game_id: str, roles: frozenset[str], word: str | None, attacker: str,
                 target: str | None, details: Mapping[str, Any]) -> dict[str, Any]:
        """Exact odds of a question in the rule set's words (``fire``, ``charge`` ...) asked
        of one of the caller's units at a unit it can see, worked out from the caller's
        side's observation alone (:meth:`RuleSet.query <tertia.core.ruleset.RuleSet.query>`
        readies it; what the rules leave hidden there is sampled from that observation),
        never from the whole position. A piece the side cannot see is answered as an
        unknown one."""
        live = self.live(game_id)
        ruleset = live.game.ruleset
        words = ruleset.ACTION_WORDS
        if not words:
            raise ServiceError(422, "NO_ODDS", f"{ruleset.title} answers no questions of odds")
        if word is not None and word not in words:
            raise ServiceError(422, "UNKNOWN_WORD", f"{ruleset.title} has no question {word!r}; its words: "
                               f"{', '.join(words)}")
        if target is None and word not in ruleset.ALONE_WORDS:
            asked = f"a question of {word!r}" if word else "a question"
            alone = " or ".join(ruleset.ALONE_WORDS)
            raise ServiceError(422, "NO_TARGET", f"{asked} under {ruleset.title} names the unit it acts on "
                               "(target)" + (f"; only {alone} is asked of a unit alone" if alone else ""))
        unknown = sorted(set(details) - set(ruleset.QUERY_DETAILS))
        if unknown:
            takes = ", ".join(ruleset.QUERY_DETAILS) or "none"
            raise ServiceError(422, "BAD_DETAIL", f"a question under {ruleset.title} takes no {unknown[0]!r} "
                               f"(its particulars: {takes})")
        with live.lock:
            if live.state.is_over:
                raise ServiceError(409, "GAME_OVER", "the battle is over")
            owner = live.state.units[attacker].side if attacker in live.state.units else None
            side = self.viewing_side(live, roles, owner if SPECTATOR in roles else None)
            seen = live.game.observed_state(live.state, side)
        # From here on only the side's observation is read.
        return asked_of(live.game, seen, side, word, attacker, target, details)

    def unit(self, game_id: str, roles: frozenset[str], unit_id: str, side: str | None,
             planned: str | None = None) -> dict[str, Any]:
        """A unit as the caller may see it, its overlays, and what it may do now; with
        ``planned`` (a JSON list of attacks the caller means to declare with this one), its
        attacks as they would stand beside those."""
        raw_plan = parse_json(planned, "planned") if planned else None
        live = self.live(game_id)
        plan = parse_plan(live.game.ruleset, raw_plan)
        with live.lock:
            viewer = self.viewing_side(live, roles, side)
            # A piece the side's view holds without a place (an enemy piece hidden from it)
            # is answered as an unknown one, and is no target of the side's own pieces.
            shown = {uid for uid, u in live.observation(len(live.steps), viewer).units.items()
                     if not place_hidden(u)}
            if unit_id not in shown:
                raise not_found(f"unit {unit_id!r}")
            state, game = live.state, live.game
            # What the piece shows, worked out from the side's own observation alone.
            observed = live.observation(len(live.steps), viewer) if live.hides_anything(viewer) else state
            presentation = game.ruleset.presentation()
            report = presentation.piece(game.table, observed, unit_id, viewer).to_dict()
            overlays = presentation.overlays(game.table, observed, unit_id)
            overlays["sight"] = [s for s in overlays.get("sight", ()) if s.get("target") in shown]
            unit = state.units[unit_id]
            mine = not state.is_over and state.to_act in roles and unit.side == state.to_act
            actions = [o.to_dict() for o in unit_offers(game, state, unit, shown, plan)] if mine else []
            # Why a piece of the side to act is offered nothing: the rules' own reasons.
            idle = ([i.to_dict() for i in idle_reasons(game, state, unit, shown)]
                    if mine and not actions else [])
            return {"report": report, "overlays": overlays, "actions": actions, "idle": idle}

    # --- replay ----------------------------------------------------------------------------

    def replay(self, game_id: str, roles: frozenset[str], step: int, side: str | None) -> dict[str, Any]:
        """The position after ``step`` actions from one side's point of view, with the log
        to that point. Either side's view once the battle is over; before that, only the
        caller's own."""
        live = self.live(game_id)
        with live.lock:
            total = len(live.steps)
            if not 0 <= step <= total:
                raise ServiceError(422, "BAD_STEP", f"step is from 0 to {total}, not {step}")
            if live.state.is_over and side is not None and side in live.sides:
                viewer = side
            else:
                viewer = self.viewing_side(live, roles, side)
            seen = live.observe(step, viewer)
            return {
                "game": self.meta(live, roles), "step": step, "steps": total, "side": viewer,
                "state": seen,
                "pieces": pieces_of(live, step, viewer),
                "markers": markers(seen),
                "table_markers": table_markers_of(live, step, viewer),
                "summary": summary_at(live, step, viewer),
                "log": [live.log_entry(i, viewer) for i in range(step + 1)],
            }


def asked_of(game: Game, seen: GameState, side: str, word: str | None, attacker: str,
             target: str | None, details: Mapping[str, Any]) -> dict[str, Any]:
    """The odds of a question worked out on ``side``'s observation ``seen`` alone (see
    :meth:`GameService.question`): every unit named must be one the side sees on the table
    (else 404, as for an id that does not exist) and the one acting its own."""
    shown = {u.id: u for u in seen.units.values() if not place_hidden(u)}
    named = [attacker, *([] if target is None else [target])]
    for value in details.values():
        named.extend([value] if isinstance(value, str) else value or ())
    for uid in named:
        if uid not in shown:
            raise not_found(f"unit {uid!r}")
    unit = shown[attacker]
    if unit.side != side:
        raise ServiceError(409, CoreCode.NOT_YOUR_UNIT, f"{unit.label} belongs to "
                           f"{game.side_names[unit.side]}: questions of odds are asked of your own units")
    ruleset = game.ruleset
    try:
        ready, action = ruleset.query(seen, word, attacker, target or attacker, details)
        if view_of(ready) is not None:  # what the rules cannot make a die of, sampled from the view
            ready = ruleset.sample_hidden(game.table, ready, side, random.Random(seen.step))
        responses = ruleset.query_responses(ready, details)
        answer = odds(game, ready, action, responses=responses, budget=ODDS_BUDGET).to_dict()
    except IllegalAction as exc:
        raise illegal(game.named(exc.violations)) from None
    except UnaskedResponse as exc:
        raise ServiceError(409, "UNASKED_RESPONSE", f"{exc}: no such answer can take part") from None
    except TooManyBranches as exc:
        raise ServiceError(422, "TOO_MANY_BRANCHES", f"this question has too many outcomes to list "
                           f"exactly: {exc}",
                           extra=None if exc.told is None else {"told": exc.told}) from None
    except (NotImplementedError, HiddenInformation) as exc:
        raise ServiceError(422, "NO_ODDS", f"no exact odds for this question: {exc}") from None
    return {**told_odds(answer), "side": side}


def told_odds(answer: Mapping[str, Any]) -> dict[str, Any]:
    """An odds answer (``Odds.to_dict()``) with each side's modifiers as the narrative tells
    them (:func:`~tertia.rules.fighting.told_modifier`): "D3-1 for dragoons", not "-1 D3-1
    for dragoons", the value said once."""
    return {**answer, "modifiers": [told_modifier(m) for m in answer.get("modifiers", ())],
            "defender_modifiers": [told_modifier(m) for m in answer.get("defender_modifiers", ())]}


def check_version(live: LiveGame, expected: int | None) -> None:
    """Optimistic concurrency: 409 ``STALE_VERSION``, with the current version, when the
    caller's ``If-Match`` names another."""
    if expected is not None and expected != live.version:
        raise ServiceError(409, "STALE_VERSION",
                           f"the game is at version {live.version}, not {expected}: it has changed "
                           f"since you looked", extra={"version": live.version})


# --- what the page shows beside a unit ------------------------------------------------------


def pieces_of(live: LiveGame, step: int, side: str) -> dict[str, dict[str, Any]]:
    """What each piece on the table shows ``side`` after ``step`` actions, by id: the rule
    set's facts (:mod:`tertia.core.presentation`) worked out from ``side``'s observation
    alone; a piece the observation holds without a place is left out."""
    game = live.game
    seen = live.observation(step, side)
    presentation = game.ruleset.presentation()
    return {uid: presentation.piece(game.table, seen, uid, side).to_dict()
            for uid, unit in seen.units.items() if not place_hidden(unit)}


def panels_of(live: LiveGame, viewer: str, watching: bool = False) -> list[dict[str, Any]]:
    """The rule set's panels as ``viewer`` sees them, each its declaration with the
    sections the page draws and the words for the values its action puts in order
    (:meth:`Presentation.panel <tertia.core.presentation.Presentation.panel>`);
    ``watching``: the one they are shown to sees as ``viewer`` but does not play it."""
    seen = live.observation(len(live.steps), viewer)
    shown = panels(live.game, live.state, seen, viewer, recent=lambda: recent_events(live, viewer),
                   watching=watching)
    return [{**spec.to_dict(), **panel.to_dict()} for spec, panel in shown]


def visible_summary(live: LiveGame, side: str) -> dict[str, Any]:
    """The rule set's summary (score, orders left ...) worked out only from what ``side``
    sees: from the position itself when nothing is hidden, else from the observation."""
    summary = live.game.ruleset.presentation().summary
    if not live.hides_anything(side):
        return dict(summary(live.state))
    try:
        return dict(summary(live.observation(len(live.steps), side)))
    except (KeyError, TypeError, ValueError):
        return {}


def visible_last_turn(live: LiveGame, side: str) -> dict[str, Any]:
    """The turns on which time ends the battle, as the rule set gives them
    (:meth:`~tertia.core.presentation.Presentation.last_turn`) from what ``side`` sees."""
    shows = live.game.ruleset.presentation()
    return shows.last_turn(live.observation(len(live.steps), side), live.game.scenario.turns).to_dict()


def summary_at(live: LiveGame, step: int, side: str) -> dict[str, Any]:
    """The rule set's summary of the position after ``step`` actions, as ``side`` saw it
    then (for replay: the objectives and vital points and who held them ...)."""
    try:
        shows = live.game.ruleset.presentation()
        return dict(shows.summary(live.observation(step, side)))
    except (KeyError, TypeError, ValueError):
        return {}


def table_markers_of(live: LiveGame, step: int, side: str) -> list[dict[str, Any]]:
    """The rule set's markers on the table (supply bases ...) after ``step`` actions, as
    ``side`` sees them, each as :class:`~tertia.core.table_markers.TableMarker` writes it,
    its ``name`` worded with the battle's names for the sides."""
    return [m.to_dict() for m in table_markers(live.observation(step, side), live.side_names())]


def markers(seen: Mapping[str, Any]) -> dict[str, list[str]]:
    """Per unit shown, the turn's marks on it (its own or its command's: ``moved``,
    ``ordered_move`` ...) as the observation shows them, so the table can show what each
    unit has done."""
    shown = {u["id"]: u for u in seen.get("units", ())}
    out: dict[str, list[str]] = {}
    for name, idents in dict(seen.get("marks") or {}).items():
        for ident in idents:
            if ident in shown:
                out.setdefault(ident, []).append(name)
            elif ":" in ident:
                side, _, command = ident.partition(":")
                for uid, u in shown.items():
                    if u.get("side") == side and u.get("command") == command:
                        out.setdefault(uid, []).append(name)
    return out


def recent_events(live: LiveGame, side: str) -> Iterator[list[Event]]:
    """The events ``side`` may see of each action, newest first (the battle's start last)."""
    for step in reversed(live.steps):
        yield live.visible(step.events, side)
    yield live.visible(live.start_events, side)
