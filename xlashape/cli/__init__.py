"""The ``xlashape`` command: the spec's pictures on demand, and bulk
conversion of .npy files between multi-indices and linear indices.

Commands (each has ``--help`` with an example):

- ``show SHAPE``: the logical array, the padded array and the linear memory
  as the spec draws them, then strides and sizes;
- ``ravel SHAPE IN.npy OUT.npy``: (N, rank) multi-indices to N linear indices;
- ``unravel SHAPE IN.npy OUT.npy``: N linear indices to (N, rank) multi-indices;
- ``bench``: throughput against NumPy (:mod:`xlashape.cli.bench`).

Exit status: 0 on success; 2 when the command line is wrong (an unknown
command or option, a SHAPE or ``--padded`` that does not parse or does not
fit, an output name without ``.npy``); 1 when the work fails (an input file
missing, unreadable, not .npy, of the wrong dtype or shape, or holding an
index out of range; an output that cannot be written). Every error is one
line on stderr, ``xlashape: error: ...``, never a traceback; a failed
conversion leaves no output file behind.

The package is the top layer: ``common`` (the parser, the errors and exit
statuses every command shares), one module per command (``show`` with
``tile_picture``, ``ravel`` with ``npy_io`` and ``progress``) and the bench
(``bench``). It may import everything below it: ``xlashape``'s public
names and any layer under them; nothing below imports it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import __version__
from . import bench, ravel, show
from .common import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, PROG, CommandError, Exit, Parser

__all__ = ["main"]

MAIN_EPILOG = """\
example:
  $ xlashape show "f32[2,3]{0,1}" --padded 3,5

exit status: 0 on success, 1 when the work fails (a missing or bad input
file, an index out of range, an output that cannot be written), 2 when the
command line is wrong. Errors are one line on stderr.
"""


def _build_parser() -> Parser:
    """The ``xlashape`` argument parser, with one subparser per command."""
    parser = Parser(
        prog=PROG,
        description="XLA shapes and layouts: the spec's pictures and bulk index conversion.",
        epilog=MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    show.add_parser(commands)
    ravel.add_parsers(commands)
    bench.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``xlashape`` command line on ``argv`` (default ``sys.argv[1:]``)
    and return its exit status; user errors are printed, not raised."""
    parser = _build_parser()
    try:
        args, rest = parser.parse_known_args(argv)
        if args.command == "bench":
            return bench.run(rest)
        if rest:
            args.parser.error(f"unrecognized arguments: {' '.join(rest)}")
        status: int = args.handler(args)
        sys.stdout.flush()  # here, so that a reader gone away is caught below
        return status
    except Exit as done:
        return done.code
    except CommandError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader left early (``xlashape show ... | head``): stop quietly, as
        # Unix tools do. Point stdout at /dev/null so the interpreter's own
        # flush at exit cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
