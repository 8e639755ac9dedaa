"""``xlashape ravel`` and ``xlashape unravel``: bulk conversion of .npy
files between (N, rank) multi-indices and N linear indices, in chunks."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import IndexOutOfBoundsError
from ..shapes.shape import Shape
from ..xla.index_util import IndexUtil
from .common import EXIT_OK, CommandError, Parser, add_command, add_shape_arguments, shape_from
from .npy_io import atomic_npy, load_indices
from .progress import progress

# Rows converted per step: bounds the memory of ravel and unravel.
CHUNK_ROWS = 1 << 20

RAVEL_EPILOG = """\
example:
  $ python -c "import numpy as np; np.save('idx.npy', [[0, 0], [1, 2]])"
  $ xlashape ravel "f32[2,3]{0,1}" idx.npy lin.npy
  $ python -c "import numpy as np; print(np.load('lin.npy'))"
  [0 5]

IN.npy holds an (N, rank) integer array, one multi-index per row; OUT.npy
gets the N linear indices as int64. The input is memory-mapped and converted
in chunks, so files larger than memory work. The output is written to a
temporary file and renamed into place only on success.
"""

UNRAVEL_EPILOG = """\
example:
  $ python -c "import numpy as np; np.save('lin.npy', [0, 5])"
  $ xlashape unravel "f32[2,3]{0,1}" lin.npy idx.npy
  $ python -c "import numpy as np; print(np.load('idx.npy'))"
  [[0 0]
   [1 2]]

IN.npy holds a 1-D integer array of linear indices; OUT.npy gets the
(N, rank) multi-indices as int64. An index on padding is an error. The input
is memory-mapped and converted in chunks; the output is written to a
temporary file and renamed into place only on success.
"""


def add_parsers(commands: argparse._SubParsersAction[Parser]) -> None:
    """Add ``ravel`` and ``unravel`` to the ``xlashape`` subcommands."""
    for name, summary, epilog, handler, source in (
        (
            "ravel",
            "Convert (N, rank) multi-indices in a .npy file to linear indices.",
            RAVEL_EPILOG,
            _ravel,
            "an (N, rank) integer .npy file of multi-indices",
        ),
        (
            "unravel",
            "Convert linear indices in a .npy file to (N, rank) multi-indices.",
            UNRAVEL_EPILOG,
            _unravel,
            "a 1-D integer .npy file of linear indices",
        ),
    ):
        command = add_command(commands, name, summary, epilog, handler)
        add_shape_arguments(command, padding_value=False)
        command.add_argument("input", metavar="IN.npy", help=source)
        command.add_argument(
            "output", metavar="OUT.npy", type=_npy_name, help="the .npy file to write"
        )
        # Rows per chunk; for tests of multi-chunk files.
        command.add_argument(
            "--chunk-rows", type=_positive, default=CHUNK_ROWS, help=argparse.SUPPRESS
        )


def _npy_name(text: str) -> str:
    if not text.endswith(".npy"):
        raise argparse.ArgumentTypeError(f"the output name must end in .npy, got {text!r}")
    return text


def _positive(text: str) -> int:
    if not text.isdecimal() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return int(text)


def _convert_file(
    args: argparse.Namespace,
    shape: Shape,
    source: np.ndarray,
    out_shape: tuple[int, ...],
    conversion: Callable[..., Any],
) -> None:
    """Write ``conversion(shape, rows, out=...)`` of every chunk of ``source``
    to ``args.output``, all or nothing. Errors name the row in the file."""
    if os.path.exists(args.output) and os.path.samefile(args.input, args.output):
        raise CommandError(f"{args.output} is the input file; write the output to another file")
    total, step = len(source), args.chunk_rows
    with (
        atomic_npy(args.output, out_shape) as out,
        progress(args.command, total, step) as advance,
    ):
        for start in range(0, total, step):
            stop = min(start + step, total)
            try:
                conversion(shape, source[start:stop], out=out[start:stop])
            except IndexOutOfBoundsError as e:
                raise CommandError(_in_file(e, start, args.input)) from None
            advance(stop)


def _in_file(error: IndexOutOfBoundsError, start: int, path: str) -> str:
    """The error's message, its row in the chunk made the row in the file."""
    return str(error if error.row is None else error.restated(start + error.row, path))


def _ravel(args: argparse.Namespace) -> int:
    shape = shape_from(args)
    source = load_indices(args.input)
    if source.ndim != 2 or source.shape[1] != shape.rank:
        raise CommandError(
            f"{args.input} must hold an (N, {shape.rank}) array of multi-indices for the "
            f"rank-{shape.rank} shape {shape}, got shape {source.shape}"
        )
    conversion = IndexUtil.multidimensional_index_to_linear_index
    _convert_file(args, shape, source, (len(source),), conversion)
    return EXIT_OK


def _unravel(args: argparse.Namespace) -> int:
    shape = shape_from(args)
    source = load_indices(args.input)
    if source.ndim != 1:
        raise CommandError(
            f"{args.input} must hold a 1-D array of linear indices, got shape {source.shape}"
        )
    conversion = IndexUtil.linear_index_to_multidimensional_index
    _convert_file(args, shape, source, (len(source), shape.rank), conversion)
    return EXIT_OK
