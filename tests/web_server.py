"""A real ``tertia serve`` in a subprocess on a free loopback port, for tests that need
the whole server: killing it, restarting it, or driving it from a browser."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``tertia serve`` on 127.0.0.1 with its own database; start, kill -9, restart."""

    def __init__(self, db: Path, port: int | None = None, *extra: str) -> None:
        self.db = db
        self.port = port or free_port()
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> Server:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tertia", "serve", "--port", str(self.port), "--db", str(self.db),
             *self.extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.process.stderr.read().decode()}")  # type: ignore[union-attr]
            try:
                if httpx.get(self.url + "/api/catalogue", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.02)  # a refused connection costs nothing: the server answers some 0.6 s on
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """kill -9: no shutdown, no flush; only what is on disk survives."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
