"""The HTTP application: the JSON API, its OpenAPI page, and the page's static files.

``create_app(db_path)`` builds it. Every refusal is ``{"code", "message", "rule"}``
with a 4xx status; no response ever carries a traceback.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import re
import threading
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

import tertia
from tertia.ai.players import DEFAULT_PLAYER, SECOND_EDITION
from tertia.ai.players import players as registered_players
from tertia.core.model_errors import explain
from tertia.rulesets import editions_on_trial, get_ruleset, load_rulesets, ruleset_ids
from tertia.scenarios import list_builtin
from tertia.web.ai_runner import QUANTUM, AiRunner
from tertia.web.errors import ServiceError, not_found
from tertia.web.games import CACHE_SIZE, IDLE_SECONDS, GameService, shipped_scenarios
from tertia.web.jsonbody import parse_json
from tertia.web.limits import MAX_BODY, AllowedHosts, BodyLimit, SecurityHeaders
from tertia.web.schemas import REFUSALS, CreatedGame, NewGame, OddsQuestion
from tertia.web.store import GameStore

log = logging.getLogger("tertia.web")

STATIC = Path(str(resources.files("tertia.web").joinpath("static")))
_BEARER = re.compile(r"^\s*Bearer\s+(\S+)\s*$", re.IGNORECASE)
WAIT_LIMIT = 25.0

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
)
DOCS_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'"
)
"""The OpenAPI page starts Swagger UI with an inline script."""


def bearer_token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (``None`` when absent)."""
    if authorization is None:
        return None
    match = _BEARER.match(authorization)
    if match is None:
        raise ServiceError(401, "NO_TOKEN", "the Authorization header must be: Bearer <token>")
    return match.group(1)


Token = Annotated[str | None, Depends(bearer_token)]


def if_match_version(if_match: Annotated[str | None, Header(max_length=40)] = None) -> int | None:
    """``If-Match: "<version>"``: the game version the caller last saw, if it sent one."""
    if if_match is None:
        return None
    text = if_match.strip().removeprefix("W/").strip('"')
    if not text.isdigit() or len(text) > 18:
        raise ServiceError(422, "BAD_IF_MATCH", 'If-Match takes the game\'s version in quotes: "12"')
    return int(text)


IfMatch = Annotated[int | None, Depends(if_match_version)]


async def action_body(request: Request) -> Any:
    """The request's body as JSON (an action object), with a clear refusal otherwise."""
    raw = await request.body()
    if not raw.strip():
        raise ServiceError(422, "BAD_REQUEST", "the body is empty: send the action as a JSON object")
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise ServiceError(422, "BAD_ACTION", "an action must be a JSON object with a \"type\"")
    return data


ActionJson = Annotated[Any, Depends(action_body)]
ACTION_DOC: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {
            "schema": {"type": "object", "required": ["type"],
                       "properties": {"type": {"type": "string"}}, "additionalProperties": True},
            "examples": {
                "order": {"value": {"type": "give_order", "target": "centre", "purpose": "move"}},
                "move": {"value": {"type": "move", "unit": "p-foot-1", "waypoints": [[18, 14]],
                                   "face_after": 0}},
                "attack": {"value": {"type": "attack", "attacker": "p-foot-1", "target": "r-foot-1",
                                     "supports": [], "commander": None}},
                "declare attacks": {"value": {"type": "declare_attacks", "attacks": [
                    {"attacker": "p-foot-1", "target": "r-foot-1", "supports": ["p-foot-2"]},
                    {"attacker": "p-horse-1", "target": "r-horse-1"}]}},
                "end": {"value": {"type": "end_phase"}},
            },
        }},
    }
}
GameId = Annotated[str, PathParam(max_length=64, description="the game's id")]


def _validation_message(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "the request is malformed"
    first = errors[0]
    if first.get("type") == "json_invalid":
        reason = (first.get("ctx") or {}).get("error", "")
        return f"the body is not valid JSON{': ' + str(reason) if reason else ''}"
    loc = tuple(p for p in first.get("loc", ()) if p != "body")
    if not loc and first.get("type") == "missing":
        return "the request needs a JSON body"
    if not loc and isinstance(first.get("input"), bytes | bytearray):  # not read as JSON at all
        return "the body is not JSON: send a JSON object with Content-Type: application/json"
    if not loc and first.get("type") == "model_attributes_type":
        return "the body must be a JSON object"
    where, why = explain({**first, "loc": loc}, None, BaseModel)
    return f"{where or 'body'}: {why}"


def create_app(
    db_path: Path | str, *, ai_pace: float = 0.0, watch_pace: float = 0.6, max_body: int = MAX_BODY,
    durable: bool = False, max_games: int = CACHE_SIZE, allowed_hosts: Iterable[str] | None = None,
    ai_quantum: float = QUANTUM, idle_seconds: float = IDLE_SECONDS,
) -> FastAPI:
    """The application over the games database at ``db_path`` (created when missing).
    ``ai_pace`` and ``watch_pace`` are the AI's pauses between actions against a person
    and when it plays both sides; ``ai_quantum`` the cadence at which the AI's actions are
    published while something is hidden from its person (:mod:`tertia.web.ai_runner`; 0:
    at once); ``durable`` waits for the disk on every action (see
    :mod:`tertia.web.store`); ``max_games`` games at most are held in memory, none
    longer than ``idle_seconds`` after it was last asked for;
    ``allowed_hosts``, when given, are the only ``Host`` names answered
    (``tertia serve`` gives :data:`~tertia.web.limits.LOCAL_HOSTS` and its ``--allowed-host``)."""
    # Before the first request: a game resumed at once must find its rule set registered.
    load_rulesets()
    store = GameStore(db_path, durable=durable)
    service = GameService(store, cache_size=max_games, idle_seconds=idle_seconds)
    runner = AiRunner(service, pace=ai_pace, watch_pace=watch_pace, quantum=ai_quantum)
    service.on_change = runner.schedule
    stopping = threading.Event()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        stopping.clear()
        runner.start()
        try:
            yield
        finally:
            stopping.set()
            runner.stop()
            store.close()

    app = FastAPI(
        title="Tertia",
        version=tertia.__version__,
        description=(
            "English Civil War battles on a free-movement table. Each human side of a game has "
            "a secret token, sent as `Authorization: Bearer <token>`; a side sees only its own "
            "view and acts only when the game awaits it. Refusals are "
            "`{\"code\", \"message\", \"rule\"}`."
        ),
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.service = service
    app.state.runner = runner
    # Set as the server begins to stop (`tertia serve` on SIGTERM or Ctrl+C, before it
    # waits for open requests to end; the lifespan's end otherwise): pending long-polls
    # then answer at once, so none holds the shutdown up.
    app.state.stopping = stopping
    app.add_middleware(BodyLimit, limit=max_body)
    if allowed_hosts is not None:
        app.add_middleware(AllowedHosts, hosts=allowed_hosts)
    app.add_middleware(SecurityHeaders, policy=PAGE_POLICY, extra=SECURITY_HEADERS)

    # --- refusals --------------------------------------------------------------------------

    @app.exception_handler(ServiceError)
    async def refused(request: Request, exc: ServiceError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return JSONResponse(exc.to_dict(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"code": "BAD_REQUEST", "message": _validation_message(exc), "rule": None},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:  # a body the JSON reader gave up on (depth, size of a number)
            return JSONResponse({"code": "BAD_JSON", "message": "the body is not JSON this API can read",
                                 "rule": None}, status_code=422)
        code = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(exc.status_code, "HTTP_ERROR")
        message = "there is nothing at this address" if exc.status_code == 404 else str(exc.detail)
        return JSONResponse({"code": code, "message": message, "rule": None},
                            status_code=exc.status_code, headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def fault(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error answering %s %s", request.method, request.url.path)
        # Answered outside the middleware stack: the security headers are added here.
        return JSONResponse({"code": "INTERNAL", "message": "the server could not answer this request",
                             "rule": None}, status_code=500, headers=SECURITY_HEADERS)

    # --- the page and its documentation ------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    assets = ""
    if (swagger := swagger_ui_static()) is not None:
        app.mount("/docs-assets", StaticFiles(directory=swagger), name="docs")
        assets = "/docs-assets"

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        if not assets:
            return HTMLResponse("<p>The OpenAPI description is at <a href='/openapi.json'>/openapi.json</a>.")
        page = get_swagger_ui_html(
            openapi_url="/openapi.json", title="Tertia API",
            swagger_js_url=f"{assets}/swagger-ui-bundle.js",
            swagger_css_url=f"{assets}/swagger-ui.css",
            swagger_favicon_url=f"{assets}/favicon-32x32.png",
        )
        page.headers["Content-Security-Policy"] = DOCS_POLICY
        return page

    # --- catalogue and games ---------------------------------------------------------------

    @app.get("/api/catalogue", tags=["games"])
    def catalogue() -> dict[str, Any]:
        """Built-in scenarios and those a rule set ships (each with its sides' ids, troop
        units as the file lists them and as each of its rule sets fields them, and names by
        side id), rule sets with their options, and the modes of play."""
        return {
            "scenarios": [
                {**s.listing(), "sides": list(s.units), "side_names": dict(s.side_names)}
                for s in [*list_builtin(), *shipped_scenarios()]
            ],
            "rules": [_describe(r) for r in ruleset_ids()],
            "modes": ["hotseat", "ai", "link", "watch"],
            # doctrine-2 is offered only while some rule set has an edition on trial: elsewhere
            # it plays the doctrine, which is offered already.
            "players": [{"name": p.name, "title": p.title, "default": p.name == DEFAULT_PLAYER}
                        for p in registered_players() if p.name != SECOND_EDITION or editions_on_trial()],
        }

    @app.get("/api/rules/{rules_id}", tags=["games"], responses=REFUSALS)
    def rules(rules_id: Annotated[str, PathParam(max_length=64)]) -> dict[str, Any]:
        """A rule set: its options, and its vocabulary for front ends (``vocabulary``: every
        action kind with its label, fields and whether its odds come first, the decisions it
        awaits and the panels that show them), and ``breakdown``: the heading over the
        result's breakdown by side and the words for each item where its key would not say
        what it counts."""
        if rules_id not in ruleset_ids():
            raise not_found(f"rule set {rules_id!r}; rule sets: {', '.join(ruleset_ids())}")
        return _describe(rules_id)

    @app.post("/api/games", status_code=201, response_model=CreatedGame, tags=["games"],
              responses=REFUSALS)
    def new_game(body: NewGame, request: Request) -> CreatedGame:
        """Create a game. Answers with its id and one secret token per human side."""
        live, tokens = service.create(body.scenario, body.rules, body.options, body.seed, body.mode,
                                      body.side, body.opponent)
        links = {role: f"/#/play/{live.row.id}?token={token}" for role, token in tokens.items()}
        return CreatedGame(id=live.row.id, mode=body.mode, tokens=tokens, links=links)

    @app.get("/api/games/{game_id}", tags=["games"], responses=REFUSALS)
    def game_summary(game_id: GameId, token: Token) -> dict[str, Any]:
        """The game's set-up and where it stands, for a list of games to resume."""
        roles = service.roles(game_id, token)
        live = service.live(game_id)
        with live.lock:
            side = service.viewing_side(live, roles, None)
            return {"game": service.meta(live, roles), "status": service.status(live, roles, side),
                    "version": live.version}

    @app.get("/api/games/{game_id}/view", tags=["play"], responses=REFUSALS)
    def view(
        game_id: GameId, token: Token,
        side: Annotated[str | None, Query(max_length=64)] = None,
        log_from: Annotated[int, Query(ge=0)] = 0,
    ) -> dict[str, Any]:
        """The caller's side's observation: the position as that side may see it, the turn,
        phase and orders left, the actions open to it, and its log from entry ``log_from``."""
        return service.view(game_id, service.roles(game_id, token), side, log_from)

    @app.get("/api/games/{game_id}/table", tags=["play"], responses=REFUSALS)
    def table(game_id: GameId, token: Token) -> dict[str, Any]:
        """The table's size, terrain and colours."""
        return service.table(game_id, service.roles(game_id, token))

    @app.post("/api/games/{game_id}/actions", tags=["play"], responses=REFUSALS,
              openapi_extra=ACTION_DOC)
    def act(game_id: GameId, token: Token, action: ActionJson, if_match: IfMatch) -> dict[str, Any]:
        """Apply an action for the side the game awaits; answers with the events it caused
        (as that side may see them). 409 when the rules forbid it, 422 when malformed. With
        ``If-Match: "<version>"``, 409 ``STALE_VERSION`` (and the current version) unless the
        game is still at that version, so a doubled or retried request applies once."""
        return service.act(game_id, service.roles(game_id, token), action, if_match)

    @app.post("/api/games/{game_id}/validate", tags=["play"], responses=REFUSALS,
              openapi_extra=ACTION_DOC)
    def validate(game_id: GameId, token: Token, action: ActionJson) -> dict[str, Any]:
        """Would this action be legal now? Every reason it is not, and for a move its
        length against the allowance, and (``contact``) the same move ending in contact
        with the enemy piece its last leg overlaps or stops just short of, when the rules
        allow that move. Nothing is applied."""
        return service.validate(game_id, service.roles(game_id, token), action)

    @app.post("/api/games/{game_id}/odds", tags=["play"], responses=REFUSALS,
              openapi_extra=ACTION_DOC)
    def odds(game_id: GameId, token: Token, action: ActionJson) -> dict[str, Any]:
        """The exact outcomes of a dice action now, with every modifier and its reason."""
        return service.odds(game_id, service.roles(game_id, token), action)

    @app.post("/api/games/{game_id}/question", tags=["play"], responses=REFUSALS)
    def question(game_id: GameId, token: Token, body: OddsQuestion) -> dict[str, Any]:
        """The exact odds of a question in the rule set's own words (`questions` in GET
        /api/rules/{id}) about the position as it stands, whoever's turn it is: one of your
        units' fire, charge or morale test under charge-yr-pikes, an attack under the
        others. Worked out from your side's observation alone: an enemy officer's value you
        have not seen is averaged over his table, a piece you cannot see is not there, and
        naming one is answered 404 as for an id that does not exist. `Odds.to_dict()`
        with the `side` asking."""
        return service.question(game_id, service.roles(game_id, token), body.question, body.attacker,
                                body.target, body.details)

    @app.post("/api/games/{game_id}/undo", tags=["play"], responses=REFUSALS)
    def undo(game_id: GameId, token: Token, if_match: IfMatch) -> dict[str, Any]:
        """Take back the caller's last action, unless a die has been rolled (or something
        hidden revealed) since. ``If-Match`` as for actions."""
        return service.undo(game_id, service.roles(game_id, token), if_match)

    @app.get("/api/games/{game_id}/units/{unit_id}", tags=["play"], responses=REFUSALS)
    def unit(
        game_id: GameId, token: Token,
        unit_id: Annotated[str, PathParam(max_length=64)],
        side: Annotated[str | None, Query(max_length=64)] = None,
        planned: Annotated[str | None, Query(max_length=8000)] = None,
    ) -> dict[str, Any]:
        """A unit's state, the ranges and zones around it, and what it may do now.
        ``planned``: a JSON list of the attacks the caller means to declare with this
        unit's (larger-battles declares a combat phase's attacks together), so that the
        attacks offered are those allowed beside them."""
        return service.unit(game_id, service.roles(game_id, token), unit_id, side, planned)

    @app.get("/api/games/{game_id}/replay", tags=["replay"], responses=REFUSALS)
    def replay(
        game_id: GameId, token: Token,
        step: Annotated[int, Query(ge=0)] = 0,
        side: Annotated[str | None, Query(max_length=64)] = None,
    ) -> dict[str, Any]:
        """The position after ``step`` actions and the log to then, from one side's point
        of view (either side's once the battle is over)."""
        return service.replay(game_id, service.roles(game_id, token), step, side)

    @app.get("/api/games/{game_id}/wait", tags=["play"], responses=REFUSALS)
    async def wait(
        game_id: GameId, token: Token,
        version: Annotated[int, Query()] = 0,
        timeout: Annotated[float, Query(ge=0, le=WAIT_LIMIT)] = 20.0,
    ) -> dict[str, Any]:
        """Wait (up to ``timeout`` seconds) until the game changes from ``version``: how
        the page hears of the AI's or the other player's moves. Answered at once, unchanged,
        when the server is stopping, or when the game was dropped from memory meanwhile
        (the next wait finds the copy rebuilt from the database)."""
        await run_in_threadpool(service.roles, game_id, token)
        live = await run_in_threadpool(service.live, game_id)
        deadline = asyncio.get_running_loop().time() + timeout
        while (live.version == version and not stopping.is_set() and service.holds(live)
               and asyncio.get_running_loop().time() < deadline):
            await asyncio.sleep(0.05)
        return {"version": live.version, "changed": live.version != version}

    return app


def swagger_ui_static() -> Path | None:
    """Swagger UI's files as shipped by the ``swagger-ui-py`` package (found without
    importing it), so the OpenAPI page works with no network."""
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "static"
    return folder if (folder / "swagger-ui-bundle.js").exists() else None


def _describe(rules_id: str) -> dict[str, Any]:
    ruleset = get_ruleset(rules_id)
    described = ruleset.describe()
    bounds = {o.name: (o.low, o.high) for o in ruleset.OPTIONS}
    for option in described["options"]:
        option["low"], option["high"] = bounds.get(option["name"], (None, None))
        for choice in option.get("choices") or ():  # the help names a choice as its list shows it
            option["help"] = option["help"].replace(f"({choice})", f"({str(choice).replace('_', ' ')})")
    described["questions"] = {"words": list(ruleset.ACTION_WORDS), "gun_words": list(ruleset.GUN_WORDS),
                              "not_for_guns": list(ruleset.NOT_FOR_GUNS),
                              "alone_words": list(ruleset.ALONE_WORDS),
                              "details": dict(ruleset.QUERY_DETAILS)}
    shows = ruleset.presentation()
    # The result's breakdown in the words the HTML report heads its results table with.
    described["breakdown"] = {"title": shows.BREAKDOWN_TITLE, "labels": dict(shows.BREAKDOWN_LABELS)}
    return described
