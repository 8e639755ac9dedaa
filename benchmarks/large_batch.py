"""Large batches on one thread, by store path: what to stream on this CPU.

A call of 10**7 rows (rank 4, int64, the padded permuted layout of
``../shared/perf``'s probes) writes far past the caches. The kernels pick
how to store by two thresholds that they derive, at import, from the
caches the CPU reports (``xlashape.cpu``): streaming (non-temporal) stores
from ``stream_bytes``, whole aligned vectors from ``align_bytes``. This
times ravel and unravel, ``threads=1``, into an ``out=`` from ``np.empty``
and into one on a 64-byte line, with each store path forced by those
thresholds and with the CPU's own, as fractions of one ``np.copyto`` of as
many bytes (above 1: faster than the copy), and prints the caches and
thresholds beside them, so that a threshold can be chosen by what the CPU
reports rather than by its model name. Then it times the ravel at the
CPU's thresholds with each prefetch mode (``xlashape.cpu.PREFETCH_MODES``),
and how fast this core reads the ravel's input and nothing else (NumPy's
``max`` of the rows): a ravel reads four times what it writes, so where
one core reads slower than it copies, that read is its ceiling.

Run from anywhere with xlashape installed, on an otherwise idle machine::

    python benchmarks/large_batch.py [N]
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable

import numpy as np

import xlashape as xs
from xlashape import cpu
from xlashape.cli.bench.measure import interleaved_times
from xlashape.cli.bench.relayout import at_line_offset

DIMS, MINOR_TO_MAJOR, PADDED = (101, 37, 23, 13), (3, 1, 0, 2), (102, 38, 24, 14)
OWN_PATH = "the CPU's thresholds"
PATHS = {  # store path: (stream_bytes, align_bytes); None: the CPU's own
    OWN_PATH: (None, None),
    "streamed": (0, 0),
    "cached, aligned vectors": (cpu.MAX_THRESHOLD_BYTES, 0),
    "cached, as they fall": (cpu.MAX_THRESHOLD_BYTES, cpu.MAX_THRESHOLD_BYTES),
}


def under(thresholds: tuple[int, int], prefetch: str, call: Callable[[], object]) -> Callable[[], object]:
    """``call`` made with the kernels' store thresholds set to ``thresholds``
    and their prefetch mode to ``prefetch``."""

    def made() -> object:
        cpu.set_stream_bytes(thresholds[0])
        cpu.set_align_bytes(thresholds[1])
        cpu.set_prefetch(prefetch)
        return call()

    return made


def main() -> None:
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10**7
    shape = xs.Shape("f32", DIMS, xs.Layout(MINOR_TO_MAJOR, padded_dimensions=PADDED))
    rng = np.random.default_rng(0)
    rows = np.stack([rng.integers(0, d, n) for d in DIMS], axis=1).astype(np.int64)
    offsets = xs.ravel(rows, shape)
    flat, table = np.empty(n, np.int64), np.empty((n, 4), np.int64)
    outs = {"np.empty": (flat, table), "on a line": (at_line_offset(flat, 0), at_line_offset(table, 0))}
    source = np.ones(n * 5 // 2, np.int64)  # 40 bytes a row, as ravel and unravel move
    target = np.zeros_like(source)

    features = cpu.cpu_features()
    shares = cpu._cache_shares(cpu._CACHES)  # one CPU's share of each cache level
    own, own_prefetch = (cpu.stream_bytes(), cpu.align_bytes()), cpu.prefetch()
    print(f"level {features['level']}; one CPU's share of each cache: "
          + ", ".join(f"L{k} {v // 1024} KiB" for k, v in sorted(shares.items())))
    print(f"thresholds at import: stream_bytes {own[0]}, align_bytes {own[1]};"
          f" prefetch {own_prefetch!r}; a call moves {40 * n} bytes")
    calls: dict[str, Callable[[], object]] = {
        "copy": lambda: np.copyto(target, source),
        "read": rows.max,
    }
    for path, wanted in PATHS.items():
        thresholds = (own[0] if wanted[0] is None else wanted[0], own[1] if wanted[1] is None else wanted[1])
        for name, (flat, table) in outs.items():
            calls[f"{path}/{name}/ravel"] = under(
                thresholds, own_prefetch, lambda out=flat: xs.ravel(rows, shape, out=out, threads=1))
            calls[f"{path}/{name}/unravel"] = under(
                thresholds, own_prefetch, lambda out=table: xs.unravel(offsets, shape, out=out, threads=1))
    prefetched = {  # the CPU's own mode is the first path's ravel, timed once
        (mode, name): f"{OWN_PATH}/{name}/ravel" if mode == own_prefetch else f"prefetch {mode}/{name}"
        for mode in cpu.PREFETCH_MODES for name in outs}
    for (mode, name), key in prefetched.items():
        if key not in calls:
            calls[key] = under(own, mode, lambda out=outs[name][0]: xs.ravel(rows, shape, out=out, threads=1))
    try:
        times = {key: statistics.median(t) for key, t in interleaved_times(calls, 0.0, 7).items()}
    finally:
        cpu.set_stream_bytes(own[0])
        cpu.set_align_bytes(own[1])
        cpu.set_prefetch(own_prefetch)
    copy = times["copy"]
    print(f"N = {n:.0e}, threads=1, fractions of np.copyto of as many bytes ({copy * 1e3:.1f} ms),"
          " medians of 7 rounds taking turns:")
    for path in PATHS:
        cells = [f"out= {name}: ravel {copy / times[f'{path}/{name}/ravel']:.2f},"
                 f" unravel {copy / times[f'{path}/{name}/unravel']:.2f}" for name in outs]
        print(f"  {path:24s} " + " | ".join(cells))
    print("ravel at the CPU's thresholds, by prefetch mode:")
    for mode in cpu.PREFETCH_MODES:
        cells = [f"out= {name}: ravel {copy / times[prefetched[mode, name]]:.2f}" for name in outs]
        print(f"  {mode:24s} " + " | ".join(cells))
    print(f"reading the ravel's input alone (np.max of the rows): {copy / times['read']:.2f}"
          " (a ravel reads as much, and writes a quarter of that besides)")


if __name__ == "__main__":
    main()
