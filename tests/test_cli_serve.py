"""`tertia serve` in its human-readable form: the address to open, the database used."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from tests.web_server import free_port


def test_serve_prints_where_to_open_the_table(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "games.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "tertia", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        assert process.stdout is not None
        banner = process.stdout.readline()
        assert banner.startswith(f"Tertia at http://127.0.0.1:{port}/")
        assert str(db) in banner and "/docs" in banner
        for _ in range(100):
            try:
                if httpx.get(f"http://127.0.0.1:{port}/", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
        else:
            raise AssertionError("the page never answered")
    finally:
        process.kill()
        process.wait(timeout=10)
