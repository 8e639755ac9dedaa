"""The README is short and true: ``python -m doctest README.md`` passes, its
test command is the one CI runs, and its first command runs."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import xlashape

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def installed_env() -> dict[str, str]:
    """The environment of a child process that imports the xlashape these
    tests import (installed, or built in place in the checkout)."""
    root = os.path.dirname(os.path.dirname(xlashape.__file__))
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))


def test_python_m_doctest_passes_on_the_readme(tmp_path):
    """Exactly the command a reader would run (from elsewhere than the
    checkout's root, as the README says): every example, and a blank line
    between each expected output and the fence that closes it."""
    result = subprocess.run(
        [sys.executable, "-m", "doctest", str(README)],
        capture_output=True, text=True, env=installed_env(), cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert ">>> " in README.read_text()


def test_readme_is_short():
    """A front door, not the manual: at most 10 KB (the rest is in docs/)."""
    assert len(README.read_bytes()) <= 10_000


def test_readme_test_command_is_what_ci_runs():
    command = 'pip install ".[test,dask,plot,jax]" && pytest'
    assert command in README.read_text()
    assert command + "\n" in (ROOT / ".ci" / "run").read_text()


def test_readme_first_command_runs_from_the_checkout():
    """``xlashape bench`` as the README's first line runs it: the installed
    console script, from the repository root."""
    script = Path(sys.executable).with_name("xlashape")
    if not script.exists():
        pytest.skip("xlashape is not installed in this environment (only built in place)")
    assert "pip install . && xlashape bench" in README.read_text()
    result = subprocess.run(
        [str(script), "bench"], capture_output=True, text=True, cwd=README.parent
    )
    assert result.returncode == 0, result.stderr
    assert "times faster than NumPy" in result.stdout
