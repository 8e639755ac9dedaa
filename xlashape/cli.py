"""The ``xlashape`` command: the spec's pictures on demand, and bulk
conversion of .npy files between multi-indices and linear indices.

Commands (each has ``--help`` with an example):

- ``show SHAPE``: the logical array, the padded array and the linear memory
  as the spec draws them, then strides and sizes;
- ``ravel SHAPE IN.npy OUT.npy``: (N, rank) multi-indices to N linear indices;
- ``unravel SHAPE IN.npy OUT.npy``: N linear indices to (N, rank) multi-indices;
- ``bench``: throughput against NumPy (:mod:`xlashape.bench`).

Exit status: 0 on success; 2 when the command line is wrong (an unknown
command or option, a SHAPE or ``--padded`` that does not parse or does not
fit, an output name without ``.npy``); 1 when the work fails (an input file
missing, unreadable, not .npy, of the wrong dtype or shape, or holding an
index out of range; an output that cannot be written). Every error is one
line on stderr, ``xlashape: error: ...``, never a traceback; a failed
conversion leaves no output file behind.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from . import __version__, convert
from .errors import IndexOutOfBoundsError
from .index_util import IndexUtil
from .layout import Layout
from .layout_util import LayoutUtil
from .primitive_type import PaddingValue
from .shape import Shape
from .shape_util import ShapeUtil

__all__ = ["main"]

PROG = "xlashape"
EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

# Rows converted per step: bounds the memory of ravel and unravel.
CHUNK_ROWS = 1 << 20

# --padding-value: the layout's PaddingValue, and how `show` draws a padding
# cell ("0" is the spec's picture). Element names are lowercase letters, so
# none of these can be mistaken for an element.
PADDING = {
    "zero": (PaddingValue.ZERO_PAD, "0"),
    "one": (PaddingValue.ONE_PAD, "1"),
    "lowest": (PaddingValue.LOWEST_PAD, "L"),
    "highest": (PaddingValue.HIGHEST_PAD, "H"),
    "unknown": (PaddingValue.UNKNOWN_PAD, "?"),
}
DEFAULT_PADDING = "zero"

# `show` elision: an axis longer than 2 * EDGE + 1 shows EDGE items at each
# end and GAP between them.
GRID_EDGE = 3  # rows and columns of a picture
SLICE_EDGE = 2  # 2-D slices of a picture of rank > 2
MEMORY_EDGE = 10  # cells of the linear memory
GAP = "..."

SHOW_EPILOG = """\
examples:
  $ xlashape show "f32[2,3]{0,1}"
  draws the array a b c / d e f and its column-major memory: a d b e c f

  $ xlashape show "f32[2,3]{0,1}" --padded 3,5
  draws the spec's padded example; its linear memory line is
  a d 0 b e 0 c f 0 0 0 0 0 0 0

Elements are named a..z, aa, ab, ... in row-major (logical) order. Padding
cells are drawn as 0 (zero, the spec's picture), 1 (one), L (lowest),
H (highest) or ? (unknown). Rank > 2 arrays are drawn as 2-D slices labelled
by their leading indices, such as [1,:,:]. Long axes, many slices and long
memory show their first and last few items around "...".
"""

RAVEL_EPILOG = """\
example:
  $ python -c "import numpy as np; np.save('idx.npy', [[0, 0], [1, 2]])"
  $ xlashape ravel "f32[2,3]{0,1}" idx.npy lin.npy
  $ python -c "import numpy as np; print(np.load('lin.npy'))"
  [0 5]

IN.npy holds an (N, rank) integer array, one multi-index per row; OUT.npy
gets the N linear indices as int64. The input is memory-mapped and converted
in chunks, so files larger than memory work. The output is written to a
temporary file and renamed into place only on success. --padding-value is
accepted for symmetry with show; it changes no index.
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
temporary file and renamed into place only on success. --padding-value is
accepted for symmetry with show; it changes no index.
"""

BENCH_DESCRIPTION = "Measure xlashape's throughput side by side with NumPy."
BENCH_EPILOG = """\
example:
  $ xlashape bench --quick
"""

MAIN_EPILOG = """\
example:
  $ xlashape show "f32[2,3]{0,1}" --padded 3,5

exit status: 0 on success, 1 when the work fails (a missing or bad input
file, an index out of range, an output that cannot be written), 2 when the
command line is wrong. Errors are one line on stderr.
"""


class CommandError(Exception):
    """A user error: :func:`main` prints it on one line and returns ``code``."""

    def __init__(self, message: str, code: int = EXIT_FAILURE) -> None:
        super().__init__(message)
        self.code = code


class _Exit(Exception):
    """argparse finished early (``--help``, ``--version``) with ``code``."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that returns through :func:`main` instead of
    exiting, with errors on one line."""

    def error(self, message: str):
        raise CommandError(f"{message} (see '{self.prog} --help')", EXIT_USAGE)

    def exit(self, status: int = 0, message: str | None = None):
        if message:
            sys.stderr.write(message)
        raise _Exit(status)


# -- argument types ----------------------------------------------------------
def _shape_text(text: str) -> Shape:
    try:
        return ShapeUtil.parse_shape_string(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _widths(text: str) -> tuple[int, ...]:
    if not re.fullmatch(r"\s*\d+\s*(,\s*\d+\s*)*", text, re.ASCII):
        raise argparse.ArgumentTypeError(
            f"expected comma-separated widths such as 3,5, got {text!r}"
        )
    return tuple(int(w) for w in text.split(","))


def _npy_name(text: str) -> str:
    if not text.endswith(".npy"):
        raise argparse.ArgumentTypeError(f"the output name must end in .npy, got {text!r}")
    return text


def _positive(text: str) -> int:
    if not text.isdecimal() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return int(text)


# -- the parser --------------------------------------------------------------
def _add_command(
    subparsers: argparse._SubParsersAction, name: str, summary: str, epilog: str, handler: Callable
) -> _Parser:
    parser = subparsers.add_parser(
        name,
        help=summary,
        description=summary,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(handler=handler, parser=parser)
    return parser


def _add_shape_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "shape",
        metavar="SHAPE",
        type=_shape_text,
        help='the shape as text, such as "f32[2,3]{0,1}" (quote it for the shell)',
    )
    parser.add_argument(
        "--padded",
        metavar="W,...",
        type=_widths,
        help="pad each dimension to this width (one width per dimension)",
    )
    parser.add_argument(
        "--padding-value",
        choices=PADDING,
        help=f"what fills the padding (default {DEFAULT_PADDING}; needs --padded)",
    )


def _add_file_arguments(parser: argparse.ArgumentParser, source: str) -> None:
    parser.add_argument("input", metavar="IN.npy", help=source)
    parser.add_argument("output", metavar="OUT.npy", type=_npy_name, help="the .npy file to write")
    # Rows per chunk; for tests of multi-chunk files.
    parser.add_argument("--chunk-rows", type=_positive, default=CHUNK_ROWS, help=argparse.SUPPRESS)


def _build_parser() -> _Parser:
    """The ``xlashape`` argument parser, with one subparser per command."""
    parser = _Parser(
        prog=PROG,
        description="XLA shapes and layouts: the spec's pictures and bulk index conversion.",
        epilog=MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    summary = "Draw a shape's array and linear memory as the spec does."
    show = _add_command(commands, "show", summary, SHOW_EPILOG, _show)
    _add_shape_arguments(show)
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
        command = _add_command(commands, name, summary, epilog, handler)
        _add_shape_arguments(command)
        _add_file_arguments(command, source)
    # bench's own options are added when it runs (see _bench), so that the
    # other commands never import it.
    commands.add_parser("bench", help=BENCH_DESCRIPTION, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``xlashape`` command line on ``argv`` (default ``sys.argv[1:]``)
    and return its exit status; user errors are printed, not raised."""
    parser = _build_parser()
    try:
        args, rest = parser.parse_known_args(argv)
        if args.command == "bench":
            return _bench(rest)
        if rest:
            args.parser.error(f"unrecognized arguments: {' '.join(rest)}")
        return args.handler(args)
    except _Exit as done:
        return done.code
    except CommandError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _bench(argv: list[str]) -> int:
    """Parse ``argv`` with the options of :mod:`xlashape.bench` and run it."""
    try:
        from . import bench
    except ModuleNotFoundError as e:
        if e.name != f"{__package__}.bench":
            raise
        raise CommandError("the bench command is not available in this installation") from None
    parser = _Parser(
        prog=f"{PROG} bench",
        description=BENCH_DESCRIPTION,
        epilog=BENCH_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bench.add_arguments(parser)
    return bench.run(parser.parse_args(argv))


def _shape_from(args: argparse.Namespace) -> Shape:
    """SHAPE with the layout's padding from ``--padded``/``--padding-value``."""
    shape = args.shape
    if args.padded is None:
        if args.padding_value is not None:
            raise CommandError(
                "--padding-value needs --padded: an unpadded layout has no padding", EXIT_USAGE
            )
        return shape
    layout = Layout(
        shape.layout.minor_to_major, args.padded, PADDING[args.padding_value or DEFAULT_PADDING][0]
    )
    try:
        return Shape(shape.element_type, shape.dimensions, layout)
    except (ValueError, OverflowError) as e:
        widths = ",".join(map(str, args.padded))
        raise CommandError(f"--padded {widths} does not fit {shape}: {e}", EXIT_USAGE) from None


# -- show --------------------------------------------------------------------
def _element_name(number: int) -> str:
    """The name of the element ``number`` (row-major): a..z, then aa..zz,
    then aaa and so on, like spreadsheet columns."""
    name = ""
    number += 1
    while number:
        number, letter = divmod(number - 1, 26)
        name = chr(ord("a") + letter) + name
    return name


def _shown(size: int, edge: int) -> list[int | None]:
    """0..size-1, or the first and last ``edge`` of them with None between."""
    if size <= 2 * edge + 1:
        return list(range(size))
    return [*range(edge), None, *range(size - edge, size)]


def _cell_names(shape: Shape, coords: np.ndarray, pad: str) -> list[str]:
    """Names of the cells at (N, rank) ``coords`` within the padded widths:
    the element's name, or ``pad`` where a coordinate is past its dimension."""
    inside = np.all(coords < np.array(shape.dimensions, dtype=np.int64), axis=1)
    row_major = Shape(shape.element_type, shape.dimensions)
    numbers = convert.ravel(coords[inside], row_major)
    names = iter([_element_name(n) for n in numbers.tolist()])
    return [next(names) if ok else pad for ok in inside.tolist()]


def _axis(size: int, edge: int) -> list[tuple[int] | None]:
    """:func:`_shown` as 1-tuples, ready to join into multi-indices."""
    return [None if i is None else (i,) for i in _shown(size, edge)]


def _aligned(names: list[str]) -> Iterator[str]:
    width = max(map(len, names), default=0)
    return iter([name.rjust(width) for name in names])


def _join(items: Sequence[object], cells: Iterator[str]) -> str:
    """One line: the next cell for each item, GAP for each None."""
    return " ".join(GAP if item is None else next(cells) for item in items)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _extent_text(extent: Sequence[int]) -> str:
    return " x ".join(map(str, extent)) if extent else "rank 0, one element"


def _picture(shape: Shape, extent: tuple[int, ...], pad: str) -> list[str]:
    """The array over ``extent`` (the dimensions, or the padded widths), one
    line per row as the spec draws it; rank > 2 as labelled 2-D slices."""
    if 0 in extent:
        return ["(no elements)"]
    rank = len(extent)
    lead = extent[: max(rank - 2, 0)]
    lead_shape = Shape(shape.element_type, lead)
    heads = [
        None if k is None else IndexUtil.linear_index_to_multidimensional_index(lead_shape, k)
        for k in _shown(math.prod(lead), SLICE_EDGE)
    ]
    rows = _axis(extent[-2], GRID_EDGE) if rank >= 2 else [()]
    cols = _axis(extent[-1], GRID_EDGE) if rank >= 1 else [()]
    coords = [
        head + row + col
        for head in heads
        if head is not None
        for row in rows
        if row is not None
        for col in cols
        if col is not None
    ]
    grid = np.array(coords, dtype=np.int64).reshape(len(coords), rank)
    cells = _aligned(_cell_names(shape, grid, pad))
    lines = []
    for head in heads:
        if head is None:
            lines.append(f"{GAP} ({math.prod(lead) - 2 * SLICE_EDGE} slices not shown)")
            continue
        if lead:
            lines.append("[" + ",".join(map(str, head)) + ",:,:]")
        lines.extend(GAP if row is None else _join(cols, cells) for row in rows)
    return lines


def _memory_line(shape: Shape, pad: str) -> str:
    """The linear memory in the spec's notation, such as
    ``a d 0 b e 0 c f 0 0 0 0 0 0 0``; long memory elided."""
    positions = _shown(shape.buffer_size, MEMORY_EDGE)
    if not positions:
        return "(empty)"
    # The padded widths as an unpadded shape: every position in the buffer is
    # a multi-index of it, padding included.
    box = Shape(shape.element_type, shape.padded_dimensions, Layout(shape.layout.minor_to_major))
    shown = np.array([p for p in positions if p is not None], dtype=np.int64)
    coords = convert.unravel(shown, box)
    return _join(positions, iter(_cell_names(shape, coords, pad)))


def _describe(shape: Shape, padding: str = DEFAULT_PADDING) -> list[str]:
    """The lines ``xlashape show`` prints for ``shape``; ``padding`` names
    the --padding-value whose symbol draws padding cells."""
    pad = PADDING[padding][1]
    m2m = shape.layout.minor_to_major
    fastest = f": dimension {m2m[0]} varies fastest" if m2m else ""
    widths = shape.padded_dimensions
    padded = LayoutUtil.is_padded(shape)
    padding_text = f"widths [{','.join(map(str, widths))}], value {padding}, drawn as {pad}"
    lines = [
        f"shape:          {ShapeUtil.human_string_with_layout(shape)}",
        f"layout:         {shape.layout} (minor to major{fastest})",
        f"padding:        {padding_text if padded else 'none'}",
        "",
        f"logical array ({_extent_text(shape.dimensions)}):",
        *_picture(shape, shape.dimensions, pad),
    ]
    if padded:
        lines += [
            "",
            f"padded array ({_extent_text(widths)}), same layout:",
            *_picture(shape, widths, pad),
        ]
    size = shape.buffer_size
    elided = f"; the first and last {MEMORY_EDGE} shown" if size > 2 * MEMORY_EDGE + 1 else ""
    lines += [
        "",
        f"linear memory ({_plural(size, 'element')}{elided}):",
        _memory_line(shape, pad),
        "",
        f"strides:        [{', '.join(map(str, shape.strides))}] elements",
        f"element count:  {ShapeUtil.elements_in(shape)}",
        f"buffer size:    {_plural(size, 'element')}, padding included",
        f"byte size:      {_plural(ShapeUtil.byte_size_of(shape), 'byte')}",
    ]
    return lines


def _show(args: argparse.Namespace) -> int:
    print("\n".join(_describe(_shape_from(args), args.padding_value or DEFAULT_PADDING)))
    return EXIT_OK


# -- ravel and unravel -------------------------------------------------------
_BATCH_ROW = re.compile(r"at row (\d+) of the batch")


def _load_indices(path: str) -> np.ndarray:
    """The integer array in the .npy file at ``path``, memory-mapped read-only."""
    magic = np.lib.format.MAGIC_PREFIX
    try:
        with open(path, "rb") as f:
            if f.read(len(magic)) != magic:
                raise CommandError(
                    f"{path} is not a .npy file: it does not start with the .npy header"
                )
        array = np.load(path, mmap_mode="r")
    except OSError as e:
        raise CommandError(f"cannot read {path}: {e.strerror or e}") from None
    except (ValueError, EOFError) as e:
        raise CommandError(f"cannot read {path} as a .npy array: {e}") from None
    if array.dtype.kind not in "iu":
        raise CommandError(
            f"{path} holds {array.dtype} values; expected integers "
            "(int8 to int64 or uint8 to uint64)"
        )
    return array


def _file_mode() -> int:
    """The mode a new file gets under the current umask (mkstemp uses 0o600)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def _atomic_npy(path: str, shape: tuple[int, ...]) -> Iterator[np.ndarray]:
    """A writable int64 .npy memmap of ``shape`` in a temporary file beside
    ``path``, renamed to ``path`` when the block succeeds and removed when
    it fails."""
    directory, name = os.path.split(os.path.abspath(path))
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    except OSError as e:
        raise CommandError(f"cannot write {path}: {e.strerror or e}") from None
    os.close(fd)
    try:
        try:
            os.chmod(temp, _file_mode())
            out = np.lib.format.open_memmap(temp, mode="w+", dtype=np.int64, shape=shape)
            yield out
            out.flush()
            os.replace(temp, path)
        except OSError as e:
            raise CommandError(f"cannot write {path}: {e.strerror or e}") from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


@contextlib.contextmanager
def _progress(label: str, total: int, chunk_rows: int) -> Iterator[Callable[[int], None]]:
    """A function drawing a progress bar on stderr with ``\\r``, for runs of
    more than one chunk when stderr is a terminal; a no-op otherwise."""
    if total <= chunk_rows or not sys.stderr.isatty():
        yield lambda done: None
        return
    width = 30

    def draw(done: int) -> None:
        filled = width * done // total
        bar = "#" * filled + "-" * (width - filled)
        percent = 100 * done // total
        sys.stderr.write(f"\r{PROG} {label} [{bar}] {percent:3d}% {done}/{total} rows")
        sys.stderr.flush()

    draw(0)
    try:
        yield draw
    finally:
        sys.stderr.write("\n")


def _convert_file(
    args: argparse.Namespace,
    shape: Shape,
    source: np.ndarray,
    out_shape: tuple[int, ...],
    conversion: Callable,
) -> None:
    """Write ``conversion(shape, rows, out=...)`` of every chunk of ``source``
    to ``args.output``, all or nothing. Errors name the row in the file."""
    if os.path.exists(args.output) and os.path.samefile(args.input, args.output):
        raise CommandError(f"{args.output} is the input file; write the output to another file")
    total, step = len(source), args.chunk_rows
    with (
        _atomic_npy(args.output, out_shape) as out,
        _progress(args.command, total, step) as progress,
    ):
        for start in range(0, total, step):
            stop = min(start + step, total)
            try:
                conversion(shape, source[start:stop], out=out[start:stop])
            except IndexOutOfBoundsError as e:
                raise CommandError(_in_file(e, start, args.input)) from None
            progress(stop)


def _in_file(error: IndexOutOfBoundsError, start: int, path: str) -> str:
    """The error's message, its row in the chunk made the row in the file."""
    return _BATCH_ROW.sub(lambda m: f"at row {int(m[1]) + start} of {path}", str(error))


def _ravel(args: argparse.Namespace) -> int:
    shape = _shape_from(args)
    source = _load_indices(args.input)
    if source.ndim != 2 or source.shape[1] != shape.rank:
        raise CommandError(
            f"{args.input} must hold an (N, {shape.rank}) array of multi-indices for the "
            f"rank-{shape.rank} shape {shape}, got shape {source.shape}"
        )
    conversion = IndexUtil.multidimensional_index_to_linear_index
    _convert_file(args, shape, source, (len(source),), conversion)
    return EXIT_OK


def _unravel(args: argparse.Namespace) -> int:
    shape = _shape_from(args)
    source = _load_indices(args.input)
    if source.ndim != 1:
        raise CommandError(
            f"{args.input} must hold a 1-D array of linear indices, got shape {source.shape}"
        )
    conversion = IndexUtil.linear_index_to_multidimensional_index
    _convert_file(args, shape, source, (len(source), shape.rank), conversion)
    return EXIT_OK
