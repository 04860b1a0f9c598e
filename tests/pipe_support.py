"""A reader on a named pipe, for tests of outputs written into one."""

from __future__ import annotations

import os
import threading
from pathlib import Path


class Drain:
    """What a reader on a named pipe got: started before the write, so that opening the
    pipe to write does not block; left without a writer, it is let go at the end."""

    def __init__(self, pipe: Path) -> None:
        self.pipe = pipe
        self.got = b""
        self.thread = threading.Thread(target=self._read, daemon=True)

    def _read(self) -> None:
        with self.pipe.open("rb") as read:
            self.got = read.read()

    def __enter__(self) -> Drain:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.thread.join(timeout=0.5)
        if self.thread.is_alive():  # nothing opened the pipe to write: the reader is let go
            os.close(os.open(self.pipe, os.O_WRONLY | os.O_NONBLOCK))
