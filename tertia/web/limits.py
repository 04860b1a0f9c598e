"""Plain ASGI middleware: a body larger than the limit gets 413 before the app reads it,
and every response carries the security headers."""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 64 * 1024
"""No action or new game needs more than a few hundred bytes."""


class BodyLimit:
    """ASGI middleware: read a request's body (up to ``limit`` bytes, declared or
    streamed) before the app does, and refuse a larger one with 413."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"code": "TOO_LARGE", "message": f"the body is larger than {self.limit} bytes",
                           "rule": None}).encode()
        headers: list[Any] = [(b"content-type", b"application/json"),
                              (b"content-length", str(len(body)).encode()),
                              (b"connection", b"close")]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """ASGI middleware: the fixed security headers on every response, and the page's
    content security policy on HTML."""

    def __init__(self, app: ASGIApp, policy: str, extra: dict[str, str]) -> None:
        self.app = app
        self.policy = policy.encode()
        self.extra = [(k.lower().encode(), v.encode()) for k, v in extra.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in self.extra if k not in present]
                content_type = dict(headers).get(b"content-type", b"")
                if content_type.startswith(b"text/html") and b"content-security-policy" not in present:
                    headers.append((b"content-security-policy", self.policy))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
