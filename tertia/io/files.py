"""Writing output files whole or not at all: each is written to a temporary file beside
it and renamed into place, so a reader never sees half a file and a failure leaves the
old file (if any) as it was. A new file's permissions are those the umask gives any new
file; a file replaced keeps its own.

A path that already names something other than a regular file (a character device such
as ``/dev/null``, a named pipe, a socket), or that is a symbolic link (``/dev/stdout``, a
link to a file kept elsewhere), is never replaced: what is written goes into what it names,
once the whole of it has been written to a temporary file elsewhere, so a writer that fails
part-way sends nothing there. A directory is refused.

A name given by a person (a scenario, a record, an output) is looked up with
:func:`exists`, which answers False for a name the system cannot even look up (one too long,
one holding a NUL character) rather than raising; :func:`unnamable` says why such a name
names nothing, and :func:`shown_name` fits any name into a one-line message."""

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
from typing import Literal

PathKind = Literal["any", "file", "dir"]

SHOWN_NAME = 120
"""The longest name a message shows whole (:func:`shown_name`)."""


def exists(path: str | os.PathLike[str], kind: PathKind = "any") -> bool:
    """Whether ``path`` names something that exists (its links followed): anything, a
    regular file (``kind="file"``) or a directory (``kind="dir"``). A name the system
    cannot look up (too long, holding a NUL character, a loop of symbolic links, in a
    folder that may not be searched) names nothing: the answer is False, never an exception.

    >>> exists("."), exists(".", "file"), exists(".", "dir"), exists("x" * 300), exists("a\\0b")
    (True, False, True, False, False)
    """
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    if kind == "file":
        return stat.S_ISREG(mode)
    if kind == "dir":
        return stat.S_ISDIR(mode)
    return True


def unnamable(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` is no name the system can look up, in words for a message: it (or a
    folder in it) is too long, it holds a character no file name may hold, or its
    symbolic links lead round in a loop; None for a name it can look up, whether or not
    anything is there.

    >>> unnamable("x" * 300), unnamable("a\\0b"), unnamable("no-such-file")
    ('File name too long', 'the name holds a NUL character', None)
    """
    failure = _lookup_failure(path)
    return None if failure is None else failure.strerror


def _lookup_failure(path: str | os.PathLike[str]) -> OSError | None:
    """The error looking ``path`` up meets when the name itself is at fault (an
    :class:`OSError` even where Python raises a :class:`ValueError`); None otherwise."""
    try:
        os.stat(path)
    except ValueError:  # a NUL, or a character the file system's encoding cannot hold
        held = "a NUL character" if "\0" in os.fspath(path) else "a character no file name may hold"
        return OSError(errno.EINVAL, f"the name holds {held}", os.fspath(path))
    except OSError as exc:
        if exc.errno in (errno.ENAMETOOLONG, errno.ELOOP):
            return OSError(exc.errno, exc.strerror or os.strerror(exc.errno), os.fspath(path))
    return None


def shown_name(name: str | os.PathLike[str]) -> str:
    """A name as a one-line message shows it: control characters written as escapes
    (a NUL as ``\\x00``), and a name longer than :data:`SHOWN_NAME` characters cut to its
    start and end, with its length.

    >>> shown_name("edgehill"), shown_name("a\\0b.toml")
    ('edgehill', 'a\\\\x00b.toml')
    >>> shown_name("x" * 300) == "x" * 60 + "..." + "x" * 30 + " (300 characters)"
    True
    """
    text = os.fspath(name)
    escaped = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    if len(escaped) <= SHOWN_NAME:
        return escaped
    return f"{escaped[:60]}...{escaped[-30:]} ({len(text)} characters)"


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
    except (OSError, ValueError):
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
    :class:`IsADirectoryError` before anything is written, and a name the system cannot
    look up (:func:`unnamable`) an :class:`OSError` saying why.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with replacing(folder / "out.txt") as tmp:
    ...     _ = tmp.write_text("whole")
    >>> (folder / "out.txt").read_text(), sorted(p.name for p in folder.iterdir())
    ('whole', ['out.txt'])
    """
    target = Path(path)
    failure = _lookup_failure(target)
    if failure is not None:
        raise failure
    if exists(target, "dir"):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
    through = written_through(target)
    if through:  # only this process reads it again: its owner's alone
        tmp = _new_file(Path(tempfile.gettempdir()), f".{target.name}.", 0o600)
    else:
        tmp = _new_file(target.parent, f".{target.name}.", 0o666)
    try:
        if not through and exists(target):
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
    """Whether two paths name one file (existing or not); never a name the system cannot
    look up (:func:`unnamable`)."""
    try:
        if exists(a) and exists(b):
            return a.samefile(b)
    except OSError:
        pass
    try:
        return a.resolve() == b.resolve()
    except (OSError, ValueError, RuntimeError):  # RuntimeError: a loop of symbolic links
        return False
