"""Output files are written whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from tertia.io.files import replacing, same_file, write_text


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
