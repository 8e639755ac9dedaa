"""Tiled relayouts into an ``out=`` at byte offsets past a 64-byte line.

For each tiled row of ``xlashape bench --relayout`` (64 MB arrays), times
``to_linear`` into a linear ``out=`` and ``from_linear`` into an array
``out=``, one thread, each starting the given number of bytes past a
64-byte line (offsets that are not a multiple of the element size are
skipped), the calls of one row taking turns round by round, in a new
order each round. Prints each median and its ratio to the first offset's,
then how much of the process's memory was on transparent huge pages
while a row's arrays were alive, at most (large moves on 4 KiB pages run
slower, so compare runs alike in this).
``--shape`` times tiled layouts of your own instead of the bench rows.

Run from anywhere with xlashape installed::

    python benchmarks/relayout_offsets.py [--offsets 0,2,16,32] [--rounds 5] [--rows "(2,1)"]
    python benchmarks/relayout_offsets.py --shape "s8[8192,8192]{1,0:T(8,128)}"
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable

import numpy as np

from xlashape.cli.bench.machine import huge_page_bytes, transparent_hugepages
from xlashape.cli.bench.measure import interleaved_times
from xlashape.cli.bench.relayout import ROWS, at_line_offset
from xlashape.linear import packing
from xlashape.linear.buffers import from_linear, to_linear
from xlashape.shapes.shape_text import parse_array_shape_string


def row_calls(text: str, offsets: list[int]) -> dict[tuple[str, int], Callable[[], object]]:
    """The calls of one row: (direction, offset) -> call."""
    shape = parse_array_shape_string(text)
    dtype = packing.storage_dtype(shape.element_type)
    assert dtype is not None
    array = (np.arange(shape.element_count) % 97).astype(dtype).reshape(shape.dimensions)
    buffer = to_linear(array, shape, out=at_line_offset(to_linear(array, shape), 0))
    calls: dict[tuple[str, int], Callable[[], object]] = {}
    for offset in offsets:
        if offset % array.itemsize:
            continue
        linear, back = at_line_offset(buffer, offset), at_line_offset(array, offset)
        calls["to_linear", offset] = lambda out=linear: to_linear(array, shape, out=out, threads=1)
        calls["from_linear", offset] = lambda out=back: from_linear(buffer, shape, out=out, threads=1)
    return calls


def print_row(name: str, text: str, offsets: list[int], rounds: int) -> int | None:
    """Time one tiled layout at each offset, both directions, and print a
    line for each direction. Returns the bytes of the process's memory on
    huge pages just after, while the row's arrays are alive (None: not
    known)."""
    calls = row_calls(text, offsets)
    named = {f"{d} {o}": call for (d, o), call in calls.items()}
    times = interleaved_times(named, 0.0, rounds)
    held = huge_page_bytes()
    for direction in ("to_linear", "from_linear"):
        medians = {o: statistics.median(times[f"{d} {o}"]) for d, o in calls if d == direction}
        base = medians[min(medians, key=offsets.index)]
        cells = "  ".join(f"+{o}: {m * 1e3:6.2f} ms ({m / base:.2f})" for o, m in medians.items())
        print(f"{name:22s} {direction:11s} {cells}", flush=True)
    return held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--offsets", default="0,2,16,32", help="bytes past a line, the first the base")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rows", default="T(", help="only the bench rows whose name holds this")
    parser.add_argument(
        "--shape",
        action="append",
        default=[],
        help="a tiled array shape of your own, timed instead of the bench rows (repeatable), "
        "e.g. 's8[8192,8192]{1,0:T(8,128)}'",
    )
    args = parser.parse_args()
    offsets = [int(o) for o in args.offsets.split(",")]
    for text in args.shape:
        try:
            tiles = parse_array_shape_string(text).layout.tiles
        except ValueError as error:
            parser.error(f"--shape: {error}")
        if not tiles:
            parser.error(f"--shape {text!r} has no tiles: a tiled layout such as {{1,0:T(8,128)}} was expected")
    held: list[int | None] = [print_row(text, text, offsets, args.rounds) for text in args.shape]
    for row in ROWS if not args.shape else ():
        if args.rows not in row.name or "T(" not in row.text:
            continue
        if row.missing():
            print(f"{row.name:22s} skipped: {row.missing()}", flush=True)
            continue
        held.append(print_row(row.name, row.text, offsets, args.rounds))
    known = [h for h in held if h is not None]
    most = f"{max(known) >> 20} MiB" if known else "unknown"
    print(f"huge pages: {most} of this process's memory while a row was timed, at most "
          f"(transparent huge pages: {transparent_hugepages() or 'unknown'})", flush=True)


if __name__ == "__main__":
    main()
