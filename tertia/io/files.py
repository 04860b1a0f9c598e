"""Writing output files whole or not at all: each is written to a temporary file beside
it and renamed into place, so a reader never sees half a file and a failure leaves the
old file (if any) as it was. A new file's permissions are those the umask gives any new
file; a file replaced keeps its own.

A path that already names something other than a regular file (a character device such
as ``/dev/null``, a named pipe, a socket), or that is a symbolic link (``/dev/stdout``, a
link to a file kept elsewhere), is never replaced: what is written goes into what it names,
once the whole of it has been written to a temporary file elsewhere, so a writer that fails
part-way sends nothing there. A directory is refused."""

from __future__ import annotations

import errno
import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def written_through(path: Path) -> bool:
    """Whether ``path`` is written into rather than replaced (:func:`replacing`): it is a
    symbolic link, or it names (its links followed) something that exists and is neither
    a regular file nor a directory: a device, a named pipe, a socket.

    >>> import tempfile, pathlib, os
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> os.mkfifo(folder / "pipe")
    >>> (folder / "link").symlink_to(folder / "elsewhere.json")
    >>> [written_through(folder / name) for name in ("pipe", "link", "new.json", ".")]
    [True, True, False, False]
    """
    if os.path.islink(path):
        return True
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary path to write to, whose contents end up at ``path`` when the block ends
    normally; the temporary file is removed either way.

    Where ``path`` is new or a regular file, the temporary file is in ``path``'s folder
    and is renamed over it. Where ``path`` is a link or names a device, a named pipe or a
    socket (:func:`written_through`), the temporary file is in the system's temporary
    folder and its contents are copied into what ``path`` names, which stays what it was
    (a link stays a link; ``/dev/null`` discards them). A directory at ``path`` raises
    :class:`IsADirectoryError` before anything is written.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with replacing(folder / "out.txt") as tmp:
    ...     _ = tmp.write_text("whole")
    >>> (folder / "out.txt").read_text(), sorted(p.name for p in folder.iterdir())
    ('whole', ['out.txt'])
    """
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
    through = written_through(target)
    if through:  # only this process reads it again: its owner's alone
        tmp = _new_file(Path(tempfile.gettempdir()), f".{target.name}.", 0o600)
    else:
        tmp = _new_file(target.parent, f".{target.name}.", 0o666)
    try:
        if not through and target.exists():
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))  # a file replaced keeps its mode
        yield tmp
        if through:
            _copy_into(tmp, target)
        else:
            os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def _new_file(folder: Path, prefix: str, mode: int) -> Path:
    """A new empty file in ``folder`` whose name starts with ``prefix``, made with ``mode``
    less the umask, as any new file is: an output renamed into place is then as readable as
    one written directly (:func:`tempfile.mkstemp` makes it its owner's alone)."""
    for _ in range(100):
        candidate = folder / f"{prefix}{secrets.token_hex(6)}.tmp"
        try:
            os.close(os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode))
        except FileExistsError:
            continue
        return candidate
    raise FileExistsError(errno.EEXIST, "no free name for a temporary file", str(folder))


def _copy_into(source: Path, target: Path) -> None:
    """``source``'s bytes written into what ``target`` names, opened for writing as it is
    (a file a link names is truncated first, or made when the link names none yet)."""
    with source.open("rb") as read, target.open("wb") as write:
        shutil.copyfileobj(read, write)


def write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all (:func:`replacing`)."""
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (existing or not)."""
    try:
        if a.exists() and b.exists():
            return a.samefile(b)
    except OSError:
        pass
    return a.resolve() == b.resolve()
