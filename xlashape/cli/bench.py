"""``xlashape bench``: :mod:`xlashape.bench`'s options and run, imported
only when this command runs."""

from __future__ import annotations

import argparse
import contextlib
import os

from .common import PROG, CommandError, Parser

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
    import :mod:`xlashape.bench`."""
    commands.add_parser("bench", help=DESCRIPTION, add_help=False)


def run(argv: list[str]) -> int:
    """Parse ``argv`` with the options of :mod:`xlashape.bench` and run it."""
    try:
        from .. import bench
    except ModuleNotFoundError as e:
        if e.name != "xlashape.bench":
            raise
        raise CommandError("the bench command is not available in this installation") from None
    parser = Parser(
        prog=f"{PROG} bench",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bench.add_arguments(parser)
    args = parser.parse_args(argv)
    check_outputs(args)
    return bench.run(args)


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
