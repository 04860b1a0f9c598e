"""Install-time build: compile the hot modules with mypyc when possible.

Everything else about the package is in pyproject.toml. The modules listed in
tertia/_build.py are compiled to C extensions (an editable install puts them next to the
sources). The install goes on with the same modules as plain Python, after one line saying
why, when mypyc or the C compiler fails; TERTIA_PURE_PYTHON=1 skips compiling altogether.
Games are identical either way.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError

ROOT = Path(__file__).resolve().parent


def _load_build_module() -> Any:
    """tertia/_build.py, without importing the package (its dependencies may be missing)."""
    spec = importlib.util.spec_from_file_location("_tertia_build", ROOT / "tertia" / "_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILD = _load_build_module()
PACKAGE = "tertia"
METADATA_ONLY = {"egg_info", "dist_info", "sdist"}


def _say(message: str) -> None:
    print(f"tertia: {message}", file=sys.stderr, flush=True)


def _sweep(package_dir: Path, keep: frozenset[str] = frozenset()) -> None:
    """Remove the extensions (and the record) an earlier build left in a package
    directory, but those in ``keep`` (paths relative to the directory holding it): a pure
    build must not run them, nor a build that no longer compiles their module. Tertia
    has no native code of its own, so every extension under the package is mypyc's."""
    for path in sorted(package_dir.rglob("*")):
        if (path.name.endswith(tuple(EXTENSION_SUFFIXES))
                and path.relative_to(package_dir.parent).as_posix() not in keep):
            path.unlink()
    if not keep:
        (package_dir / BUILD.RECORD).unlink(missing_ok=True)


class MypycBuildExt(build_ext):
    """Generates the C code with mypyc when the extensions are first needed, builds them,
    and falls back to pure Python when either step fails."""

    def finalize_options(self) -> None:
        dist = self.distribution
        # Metadata steps (egg_info, dist_info, sdist) finalize this command only to list
        # sources: they keep the stand-in and never pay for mypyc. The outcome is kept on
        # the distribution, since setuptools may re-initialize this command.
        if not hasattr(dist, "tertia_build") and not set(dist.commands) <= METADATA_ONLY:
            dist.tertia_build = {"failed": None, "digests": {}}  # type: ignore[attr-defined]
            dist.ext_modules = self._mypycify()
        super().finalize_options()

    @property
    def _state(self) -> dict[str, Any]:
        state: dict[str, Any] = getattr(self.distribution, "tertia_build", {"failed": None, "digests": {}})
        return state

    def _mypycify(self) -> list[Extension]:
        sources = [os.path.relpath(BUILD.source_path(m, str(ROOT))) for m in BUILD.COMPILED_MODULES]
        try:
            from mypyc.build import mypycify
        except ImportError as exc:
            self._fail(f"mypyc is not installed ({exc})")
            return []
        # The record names the sources as mypyc reads them, not as they are after the build.
        self._state["digests"] = {
            m: BUILD.digest(BUILD.source_path(m, str(ROOT))) for m in BUILD.COMPILED_MODULES
        }
        log = io.StringIO()
        try:
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                return list(mypycify(sources, group_name=BUILD.GROUP))
        except (Exception, SystemExit) as exc:  # mypyc exits on a type error
            errors = [line for line in log.getvalue().splitlines() if ": error:" in line]
            self._fail(f"mypyc could not compile the modules ({errors[0] if errors else _first_line(exc)})")
            return []
        finally:
            sys.stderr.write(log.getvalue())

    def run(self) -> None:
        inplace = self.inplace  # build_ext.run clears it while building, and an error leaves it so
        if self._state["failed"] is None and self.extensions:
            try:
                super().run()
            except Exception as exc:  # no compiler, no Python.h, a link error ...
                self._fail(f"the C compiler failed ({_first_line(exc)}; `pip install -v` shows why)")
        built = frozenset(
            Path(self.get_ext_filename(self.get_ext_fullname(ext.name))).as_posix() for ext in self.extensions
        )
        for package_dir in self._package_dirs(inplace):
            _sweep(package_dir, keep=built)
        self._write_record(self._package_dirs(inplace))

    def _fail(self, reason: str) -> None:
        _say(f"{reason}; installing pure Python (the same games, only slower)")
        self._state["failed"] = reason
        self.extensions = []
        self.distribution.ext_modules = []
        _sweep(ROOT / PACKAGE)  # an earlier compiled build must not shadow the sources
        self._write_record([ROOT / PACKAGE])  # why, even if build_ext is not run after all

    def _package_dirs(self, inplace: bool) -> list[Path]:
        """Where the extensions go: the build tree, and the sources when building in place
        (an editable install)."""
        dirs = [Path(self.build_lib, PACKAGE)]
        if inplace:
            build_py = self.get_finalized_command("build_py")
            dirs.append(Path(build_py.get_package_dir(PACKAGE)).resolve())
        return dirs

    def _write_record(self, package_dirs: list[Path]) -> None:
        failed = self._state["failed"]
        record = {"modules": {}, "failed": failed} if failed else {"modules": self._state["digests"]}
        for package_dir in package_dirs:
            package_dir.mkdir(parents=True, exist_ok=True)
            (package_dir / BUILD.RECORD).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def _first_line(exc: BaseException) -> str:
    """What went wrong, in a few words: the compiler's own messages are in the build log
    (``pip install -v``), not in its exception, which only repeats the command line."""
    if isinstance(exc, CCompilerError):
        return type(exc).__name__
    lines = str(exc).strip().splitlines()
    line = lines[0] if lines else ""
    return f"{type(exc).__name__}: {line[:100]}{'...' if len(line) > 100 else ''}"


if BUILD.pure_requested():
    _say(f"{BUILD.PURE_ENV} is set; installing pure Python")
    _sweep(ROOT / PACKAGE)  # an earlier compiled build must not shadow the sources
    setup()
else:
    # A stand-in, replaced by mypyc's extensions when build_ext runs: metadata-only steps
    # never pay for mypyc, and the wheel is marked as platform-specific.
    setup(
        ext_modules=[Extension(BUILD.GROUP + "__mypyc", sources=[])],
        cmdclass={"build_ext": MypycBuildExt},
    )
