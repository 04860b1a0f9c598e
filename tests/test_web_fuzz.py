"""The HTTP API fuzzed from its own OpenAPI document (schemathesis): whatever a client
sends, in or out of the documented shapes, no operation answers 500, and every refusal is
``{"code", "message", "rule"}``. Game operations are aimed at a real game with a real
token half of the time, so that bodies reach the rules, not only the 404."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings

from tertia.web.app import create_app

APP = create_app(Path(tempfile.mkdtemp(prefix="tertia-fuzz-")) / "games.sqlite3")
_live, _tokens = APP.state.service.create("skirmish", "larger-battles", {}, 3, "hotseat", None)
GAME_ID, TOKEN = _live.row.id, _tokens["parliament"]
AIM = random.Random(0)


async def without_lifespan(scope: Any, receive: Any, send: Any) -> None:
    """The application, its start and stop left out: every fuzzed call would otherwise
    start it and stop it (closing its database) again."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    await APP(scope, receive, send)


schema = schemathesis.openapi.from_asgi("/openapi.json", without_lifespan)


@schema.parametrize()
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_no_operation_answers_500(case: Any) -> None:
    headers = {}
    if case.path_parameters and "game_id" in case.path_parameters and AIM.random() < 0.5:
        case.path_parameters["game_id"] = GAME_ID
        headers["Authorization"] = f"Bearer {TOKEN}"
    if case.path.endswith("/wait"):
        # A long poll on an unchanged game lasts its whole timeout (20 s unless asked):
        # keep it shorter than the client's own read timeout.
        case.query = {**(case.query or {}), "timeout": 0.5}
    response = case.call(headers=headers)
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:300])
    if response.status_code >= 400 and "application/json" in str(response.headers.get("content-type")):
        body = response.json()
        assert {"code", "message", "rule"} <= set(body), body
        assert "Traceback (most recent call last)" not in response.text  # a name it was sent may be echoed
