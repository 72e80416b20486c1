"""A test that pytest-timeout stops inside a loop is reported as a failure, not an INTERNALERROR.

On Python 3.11 the jump that closes a loop has no line number, and the interpreter runs signal
handlers there; conftest.py gives such traceback entries a line (see ``with_line_numbers``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent

LOOP = """
import itertools

import pytest


@pytest.mark.timeout(1)
def test_stopped_in_a_loop():
    seen = 0
    for i in itertools.count():
        if i < 0:
            seen += 1
"""


def test_a_test_stopped_in_a_loop_fails_cleanly(tmp_path: Path) -> None:
    (tmp_path / "test_loop.py").write_text(LOOP)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:cacheprovider", "-q", "test_loop.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "INTERNALERROR" not in run.stdout + run.stderr
    assert "1 failed" in run.stdout, run.stdout[-2000:]
    assert "Timeout" in run.stdout
