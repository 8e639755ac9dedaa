"""``xlashape bench``: :mod:`xlashape.bench`'s options and run, imported
only when this command runs."""

from __future__ import annotations

import argparse

from .common import PROG, CommandError, Parser

DESCRIPTION = "Measure xlashape's throughput side by side with NumPy."
EPILOG = """\
example:
  $ xlashape bench --quick
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
    return bench.run(parser.parse_args(argv))
