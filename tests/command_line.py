"""Running the ``xlashape`` command as a user does, for the command-line tests.

Every run is ``python -m xlashape`` with PYTHONPATH naming the directory that
holds the imported package, so the same tests cover a development tree and
an installed wheel. ``conftest.py`` turns :func:`runner` into the ``cli``
fixture.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable

import xlashape

PACKAGE_ROOT = os.path.dirname(os.path.dirname(xlashape.__file__))

Run = Callable[..., subprocess.CompletedProcess]


def command_env() -> dict[str, str]:
    """The environment of a run: this one, with the package's directory first
    on PYTHONPATH."""
    paths = [PACKAGE_ROOT, *filter(None, [os.environ.get("PYTHONPATH")])]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(paths))


def runner(cwd: str | os.PathLike[str]) -> Run:
    """A function running ``xlashape ARGS...`` in ``cwd``, returning the
    CompletedProcess (output captured as text unless the call says otherwise)."""

    def run(*args: object, **kwargs: object) -> subprocess.CompletedProcess:
        options: dict = {"capture_output": True, "text": True, "env": command_env(), **kwargs}
        return subprocess.run(
            [sys.executable, "-m", "xlashape", *map(str, args)], cwd=cwd, timeout=300, **options
        )

    return run


def stderr_on_a_terminal(cli: Run, *argv: object) -> str:
    """What ``xlashape ARGV`` writes to stderr on a pseudo-terminal; it must
    succeed."""
    import pty

    controller, terminal = pty.openpty()
    try:
        done = cli(*argv, stderr=terminal, capture_output=False, stdout=subprocess.PIPE)
    finally:
        os.close(terminal)
    drawn = b""
    with open(controller, "rb", buffering=0) as reader:
        while True:
            try:
                data = reader.read(4096)
            except OSError:  # EIO: the terminal side is closed
                break
            if not data:
                break
            drawn += data
    assert done.returncode == 0
    return drawn.decode()
