"""``xlashape bench``: throughput side by side with NumPy, and the command
that runs it.

This ``__init__`` is the command: it adds ``bench`` to the command line and,
only when the command runs, imports the bench itself. The bench's modules:
``suite`` (the cases, the runs and the report's sections), ``timing`` (calls
taking turns, and the copy limit), ``machine`` (what the numbers were
measured on), ``peers`` (numba and JAX, where installed), ``relayout``
(``--relayout``: relayout against NumPy's copies), ``report`` (tables, JSON
and Markdown) and ``plot`` (``--plot``).

May import: ``xlashape.cli.common`` and everything below the command line
(the public names of ``xlashape`` and the layers under them). Nothing of
the other commands.
"""

from __future__ import annotations

import argparse
import contextlib
import os

from ..common import PROG, CommandError, Parser

DESCRIPTION = "Measure xlashape's throughput side by side with NumPy."
EPILOG = """\
example:
  $ xlashape bench
  $ xlashape bench --full --sizes 1e3,1e4 --markdown bench.md

The summary comes first (seconds); --full adds every measurement, --long
runs the bigger grid (minutes). Ctrl-C stops the run and shows what it
measured so far (exit status 130).
"""


def add_parser(commands: argparse._SubParsersAction[Parser]) -> None:
    """Add ``bench`` to the ``xlashape`` subcommands; its own options are
    added when it runs (see :func:`run`), so that the other commands never
    import :mod:`xlashape.cli.bench.suite`."""
    commands.add_parser("bench", help=DESCRIPTION, add_help=False)


def run(argv: list[str]) -> int:
    """Parse ``argv`` with the options of :mod:`xlashape.cli.bench.suite` and run it."""
    try:
        from . import suite
    except ModuleNotFoundError as e:
        if e.name != "xlashape.cli.bench.suite":
            raise
        raise CommandError("the bench command is not available in this installation") from None
    parser = Parser(
        prog=f"{PROG} bench",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    suite.add_arguments(parser)
    args = parser.parse_args(argv)
    check_outputs(args)
    return suite.run(args)


def check_outputs(args: argparse.Namespace) -> None:
    """Fail now, in one line, if ``--json``, ``--markdown`` or ``--plot``
    cannot be written or ``--plot`` has no matplotlib, rather than after the
    whole run."""
    for option in ("json", "markdown", "plot"):
        path = getattr(args, option, None)
        if path:
            _check_writable(f"--{option}", path)
    if getattr(args, "plot", None):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise CommandError(
                "--plot needs matplotlib; install it with pip install 'xlashape[plot]' "
                "(or pip install matplotlib)"
            ) from None


def _check_writable(option: str, path: str) -> None:
    """Open ``path`` for appending, as the run will write it, and remove it
    again if it did not exist."""
    existed = os.path.lexists(path)
    try:
        with open(path, "ab"):
            pass
    except OSError as e:
        raise CommandError(f"cannot write {option} {path}: {e.strerror or e}") from None
    if not existed:
        with contextlib.suppress(OSError):
            os.unlink(path)
