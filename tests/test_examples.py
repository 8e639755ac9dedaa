"""The scripts in examples/ run (mypy checks them too: see .ci/run)."""

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.py"))


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(script, tmp_path):
    # From another directory, so that the installed xlashape is imported.
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr


def test_there_are_examples():
    assert EXAMPLES


def test_smoke_test_passes(tmp_path):
    """tests/smoke.py, which each wheel build runs, passes here too."""
    smoke = Path(__file__).with_name("smoke.py")
    result = subprocess.run([sys.executable, str(smoke)], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "smoke test passed" in result.stdout
