"""Output files are written whole or not at all, and what is not a regular file (a device,
a named pipe, a link) is written into, never replaced."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tertia.io.files import replacing, same_file, write_text
from tests.pipe_support import Drain


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    target.write_text("old")
    with pytest.raises(RuntimeError), replacing(target) as tmp:
        tmp.write_text("half a")
        raise RuntimeError("the disk filled up")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_a_whole_write_replaces_the_file(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("old")
    write_text(target, "new")
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_same_file_sees_through_relative_paths_and_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.toml").write_text("x")
    (tmp_path / "link.toml").symlink_to(tmp_path / "a.toml")
    assert same_file(Path("a.toml"), tmp_path / "a.toml")
    assert same_file(Path("link.toml"), Path("a.toml"))
    assert same_file(Path("new.json"), tmp_path / "new.json")
    assert not same_file(Path("a.toml"), Path("b.toml"))


def test_a_named_pipe_is_written_into_never_replaced(tmp_path: Path) -> None:
    pipe = tmp_path / "out.json"
    os.mkfifo(pipe)
    with Drain(pipe) as drain:
        write_text(pipe, "whole")
    assert drain.got == b"whole"
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_a_link_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    pipe, link = tmp_path / "pipe", tmp_path / "link.html"
    os.mkfifo(pipe)
    link.symlink_to(pipe)
    with Drain(pipe) as drain:
        write_text(link, "through the link")
    assert drain.got == b"through the link"
    assert link.is_symlink() and stat.S_ISFIFO(os.lstat(pipe).st_mode)
    kept, to_file = tmp_path / "kept.json", tmp_path / "to-file.json"
    kept.write_text("old")
    to_file.symlink_to(kept)
    write_text(to_file, "new")
    assert to_file.is_symlink() and kept.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.json", "link.html", "pipe", "to-file.json"]


def test_a_failed_write_sends_nothing_into_a_pipe(tmp_path: Path) -> None:
    pipe = tmp_path / "out.html"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with pytest.raises(RuntimeError), replacing(pipe) as tmp:
            tmp.write_text("half a")
            raise RuntimeError("the report could not be drawn")
        assert os.read(reader, 100) == b""
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)


def test_a_directory_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError), replacing(tmp_path):
        raise AssertionError("the block is not entered")
    assert list(tmp_path.iterdir()) == []


def test_an_output_is_as_readable_as_any_new_file_and_a_replaced_one_keeps_its_mode(tmp_path: Path) -> None:
    mask = os.umask(0o022)
    try:
        write_text(tmp_path / "report.html", "new")
        kept = tmp_path / "game.json"
        kept.write_text("old")
        kept.chmod(0o640)
        write_text(kept, "new")
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "report.html").stat().st_mode) == 0o644
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640
