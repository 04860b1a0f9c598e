"""The suite itself: every test has an id of its own, since pytest-xdist (``make test``
runs on two workers) hands tests out by id and runs only the first of tests sharing one."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_test_collected_has_an_id_of_its_own() -> None:
    """Collected as ``make test`` collects them (each fuzzed API operation among them:
    schemathesis names each but gave all its function's id, so one alone was fuzzed)."""
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-o", "addopts=", "-p", "no:cacheprovider",
         "--doctest-modules", "tertia", "tests"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert listed.returncode == 0, listed.stdout[-2000:] + listed.stderr[-2000:]
    ids = [line for line in listed.stdout.splitlines() if "::" in line]
    shared = {nodeid: n for nodeid, n in Counter(ids).items() if n > 1}
    assert len(ids) > 1000 and shared == {}, shared
    assert sum("test_web_fuzz.py::test_no_operation_answers_500[" in nodeid for nodeid in ids) > 1
