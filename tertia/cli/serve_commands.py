"""``tertia serve``: play in the browser, with saved games in SQLite."""

from __future__ import annotations

import ctypes
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated

import typer

from tertia.cli.common import fail, given_path, out
from tertia.cli.main import app
from tertia.io.files import shown_name, unnamable

if TYPE_CHECKING:
    from fastapi import FastAPI

DB_NAME = "games.sqlite3"
SHUTDOWN_GRACE = 1
"""Seconds a stopping server gives requests still open (an odds question, say) to end
(whole seconds: uvicorn's setting)."""


def default_db() -> Path:
    """The games database in the user's data folder (``~/.local/share/tertia`` on Linux)."""
    from platformdirs import user_data_path

    return user_data_path("tertia", appauthor=False) / DB_NAME


HostOpt = Annotated[str, typer.Option(help="address to listen on; 0.0.0.0 opens it to the network")]
PortOpt = Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")]
DbOpt = Annotated[Path | None, typer.Option(help="games database (default: in the user's data folder)",
                                                    parser=given_path)]
PaceOpt = Annotated[float, typer.Option(min=0, max=10, help="pause between AI actions against a person (s)")]
DurableOpt = Annotated[
    bool, typer.Option(help="wait for the disk on every action (survives power cuts)", metavar="")
]
QuantumOpt = Annotated[
    float, typer.Option(min=0, max=60, help="while the rules hide something from the person, the AI's "
                        "actions are seen at multiples of this after the last change, so its thinking "
                        "time tells nothing (s; 0: at once)")
]
WatchOpt = Annotated[float, typer.Option(min=0, max=10, help="pause when the AI plays both sides (s)")]
MaxGamesOpt = Annotated[
    int | None, typer.Option(min=1, max=100_000, help="games held in memory at most (default 48)")
]
AllowedHostOpt = Annotated[
    list[str] | None,
    typer.Option("--allowed-host", metavar="NAME",
                 help="a host name the server answers to besides localhost (repeatable)"),
]


@app.command()
def serve(
    host: HostOpt = "127.0.0.1",
    port: PortOpt = 8000,
    db: DbOpt = None,
    ai_pace: PaceOpt = 0.0,
    watch_pace: WatchOpt = 0.6,
    ai_quantum: QuantumOpt = 1.0,
    durable: DurableOpt = False,
    max_games: MaxGamesOpt = None,
    allowed_host: AllowedHostOpt = None,
) -> None:
    """Play in the browser: open the address it prints. Every game is saved as it goes and
    resumes after a restart."""
    from tertia.web.app import create_app
    from tertia.web.limits import LOCAL_HOSTS

    path = db if db is not None else default_db()
    reason = unnamable(path)
    if reason is not None:  # before a folder for it is made
        fail(f"cannot open the games database {shown_name(path)}: {reason}")
    fewer_malloc_arenas()
    try:
        hosts = [*LOCAL_HOSTS, *(allowed_host or ())]
        if host not in ("0.0.0.0", "::"):
            hosts.append(host)
        sizes = {} if max_games is None else {"max_games": max_games}
        application = create_app(path, ai_pace=ai_pace, watch_pace=watch_pace, ai_quantum=ai_quantum,
                                 durable=durable, allowed_hosts=hosts, **sizes)
    except Exception as exc:  # an unreadable or locked database: say so, without a traceback
        fail(f"cannot open the games database {shown_name(path)}: {exc}")
    shown = f"[{host}]" if ":" in host else host
    out.print(f"Tertia at http://{shown}:{port}/  (games saved in {path}; API at /docs)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        out.print("Listening beyond this machine: anyone who can reach it may start games.")
    run_until_stopped(application, host=host, port=port)


MALLOC_ARENAS = 2
M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter for the number of malloc arenas."""


def fewer_malloc_arenas() -> bool:
    """Have glibc's malloc keep :data:`MALLOC_ARENAS` arenas rather than up to eight per
    core; whether it agreed. By default each thread that allocates gets an arena of its own,
    and the server answers requests on dozens of threads: memory freed in one arena is not
    reused by another, so the server's resident memory creeps up for minutes (by some 35 MiB
    under 40 players, ``benchmarks/serve_soak.py``). Its Python code runs one thread at a
    time, so a couple of arenas cost nothing in contention. Elsewhere than glibc: nothing."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return bool(ctypes.CDLL("libc.so.6").mallopt(M_ARENA_MAX, MALLOC_ARENAS))
    except (OSError, AttributeError):
        return False


def run_until_stopped(application: FastAPI, *, host: str, port: int) -> None:
    """Serve ``application`` until SIGTERM or Ctrl+C. Stopping sets the app's ``stopping``
    event first, so long-polls pending on ``/wait`` answer at once, and any other request
    still open after :data:`SHUTDOWN_GRACE` seconds is cut off."""
    import uvicorn

    stopping: threading.Event = application.state.stopping

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            stopping.set()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(application, host=host, port=port, log_level="warning", timeout_keep_alive=5,
                            timeout_graceful_shutdown=SHUTDOWN_GRACE)
    server = Server(config)
    server.run()
    if not server.started:
        fail(f"could not listen on {host}:{port}")
