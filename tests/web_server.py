"""A real ``tertia serve`` in a subprocess on a free loopback port, for tests that need
the whole server: killing it, restarting it, or driving it from a browser (Debian's
Chromium, :func:`chromium`)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@contextmanager
def chromium(unchecked: str) -> Iterator[Any]:
    """Chromium launched headless for the page's tests; on a machine without it the test
    is skipped, saying loudly what goes ``unchecked`` (``.ci/run`` installs it)."""
    found = find_chromium()
    if found is None:
        message = f"NO CHROMIUM FOUND: {unchecked} (install Debian's chromium: apt-get install chromium)"
        print(f"\n{'!' * 20} {message} {'!' * 20}", file=sys.stderr)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=found, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


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
