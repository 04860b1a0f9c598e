"""Plain ASGI middleware: a body larger than the limit gets 413 before the app reads it,
and one sent too slowly 408; a request for a host name the server does not answer to gets
400; every response carries the security headers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 64 * 1024
"""No action or new game needs more than a few hundred bytes."""
BODY_SECONDS = 10.0
"""A body not wholly received in this time is refused: a client that trickles its body
would otherwise hold a connection (and its memory) open for as long as it likes."""
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
"""Host names ``tertia serve`` answers to unless told more (``--allowed-host``): a page
on another site that makes a browser resolve its own name to this machine (DNS
rebinding) is refused."""


async def _send_json(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"code": code, "message": message, "rule": None}).encode()
    headers: list[Any] = [(b"content-type", b"application/json"),
                          (b"content-length", str(len(body)).encode()),
                          (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def host_name(header: bytes) -> str:
    """The name in a ``Host`` header, without its port (``[::1]:8000`` is ``::1``).

    >>> host_name(b"[::1]:8000"), host_name(b"Example.org:80"), host_name(b"localhost")
    ('::1', 'example.org', 'localhost')
    """
    text = header.decode("latin-1").strip().lower()
    if text.startswith("["):
        return text[1:text.find("]")] if "]" in text else text
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


class AllowedHosts:
    """ASGI middleware: refuse (400) a request whose ``Host`` is not one of ``hosts``."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str]) -> None:
        self.app = app
        self.hosts = frozenset(h.strip("[]").lower() for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            header = dict(scope.get("headers", ())).get(b"host", b"")
            name = host_name(header)
            if name not in self.hosts:
                await _send_json(send, 400, "BAD_HOST",
                                 f"this server does not answer to the host name {name[:80]!r}; "
                                 f"start it with --allowed-host {name[:80]} to let it")
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """ASGI middleware: read a request's body (up to ``limit`` bytes, declared or
    streamed) before the app does, and refuse a larger one with 413."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY, seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.limit = limit
        self.seconds = seconds

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
        deadline = asyncio.get_running_loop().time() + self.seconds
        while True:
            try:
                message = await asyncio.wait_for(receive(), deadline - asyncio.get_running_loop().time())
            except TimeoutError:
                await _send_json(send, 408, "TOO_SLOW",
                                 f"the body did not arrive within {self.seconds:g} seconds")
                return
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
        await _send_json(send, 413, "TOO_LARGE", f"the body is larger than {self.limit} bytes")


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
