"""Threads at every batch size: one command, one markdown report.

    python benchmarks/many_core.py [--threads 1,2,4,8,16] [--sizes ...] [--quick]

Prints, for the CPU it runs on (named in the report):

- ravel and unravel of rank-4 int64 rows of a padded, permuted layout, into
  an ``out=``, at N = 10^4 .. 10^7 rows, on each thread count T (1, 2, 4, 8,
  16 up to the CPUs this process may use, and the default, ``threads=``
  left out), in M rows/s, with numba's ``prange`` loops of the same work as
  the peer when numba is importable;
- a 256 MB f32 transpose (``f32[8192,8192]{0,1}``) and ``T(8,128)`` tiling
  (``f32[8192,8192]{1,0:T(8,128)}``) by ``to_linear``, in ms, against a
  copy of the same bytes split over as many threads (``np.copyto`` of
  slices, on a thread pool);
- 4 Python threads calling at once with ``threads=16``: calls per second
  against the same calls made one at a time.

Every index figure is the median of 5 rounds, each the median of 21 timed calls
after warm-up calls (so that the hand-off has settled), every relayout
figure of 5 rounds of 5; the rounds take turns over the thread counts, so
that a noisy neighbour hurts them alike.
``--threads`` may name counts past the CPUs (oversubscribed: a call never
runs on more threads than the CPUs, whatever it asks).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import platform
import statistics
import threading
import time
from collections.abc import Callable

import numpy as np

import xlashape as xs
from xlashape.core import _batch
from xlashape.core.threads import available_cpus

try:
    import numba
except ImportError:  # the peer's columns stay empty
    numba = None

DIMS, MINOR_TO_MAJOR, PADDED = (64, 128, 256, 32), (3, 1, 2, 0), (64, 128, 256, 128)
SHAPE = xs.Shape("f32", DIMS, xs.Layout(MINOR_TO_MAJOR, padded_dimensions=PADDED))
SIZES = (10**4, 3 * 10**4, 10**5, 3 * 10**5, 10**6, 10**7)
RELAYOUTS = ("f32[8192,8192]{0,1}", "f32[8192,8192]{1,0:T(8,128)}")


def cpu_name() -> str:
    """The CPU's model name, with its family and model numbers (Linux), or
    what the platform module says."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                key, _, value = line.partition(":")
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    if "model name" not in fields:
        return platform.processor() or platform.machine()
    family, model = fields.get("cpu family"), fields.get("model")
    return f"{fields['model name']} (family {family}, model {model})"


if numba is not None:

    @numba.njit(parallel=True)
    def nb_ravel(rows, strides, extents, out):  # type: ignore[no-untyped-def]
        bad = 0
        for i in numba.prange(rows.shape[0]):
            offset = 0
            for d in range(rows.shape[1]):
                v = rows[i, d]
                if v < 0 or v >= extents[d]:
                    bad += 1
                offset += v * strides[d]
            out[i] = offset
        return bad

    @numba.njit(parallel=True)
    def nb_unravel(offsets, order, widths, extents, out):  # type: ignore[no-untyped-def]
        bad = 0
        for i in numba.prange(offsets.shape[0]):
            n = offsets[i]
            for k in range(order.shape[0]):
                q = n // widths[k]
                v = n - q * widths[k]
                if v >= extents[k]:
                    bad += 1
                out[i, order[k]] = v
                n = q
        return bad


def timed(call: Callable[[], object], warm: int, count: int) -> float:
    for _ in range(warm):
        call()
    times = []
    for _ in range(count):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def rounds(calls: dict[object, Callable[[], object]], warm: int, count: int,
           turns: int = 3) -> dict[object, float]:
    """The median over ``turns`` rounds of each call's median time, the
    rounds taking turns over the calls, each round from the next call on (so
    that no call keeps one place in a round: a neighbour that takes the CPU
    at a steady period may fall on one place every round)."""
    seen: dict[object, list[float]] = {key: [] for key in calls}
    keys = list(calls)
    for turn in range(turns):
        for key in keys[turn % len(keys):] + keys[:turn % len(keys)]:
            seen[key].append(timed(calls[key], warm, count))
    return {key: statistics.median(values) for key, values in seen.items()}


def index_rows(n: int, counts: list[int | None], quick: bool,
               rng: np.random.Generator) -> list[str]:
    """The index table's rows for ``n`` rows, one a thread count."""
    rows = np.stack([rng.integers(0, d, n) for d in DIMS], axis=1).astype(np.int64)
    offsets = xs.ravel(rows, SHAPE)
    out, out_rows = np.empty(n, np.int64), np.empty((n, 4), np.int64)
    warm, count = (3, 3) if quick else (10, 21)
    calls: dict[object, Callable[[], object]] = {}
    for t in counts:
        calls["ravel", t] = lambda t=t: xs.ravel(rows, SHAPE, out=out, threads=t)
        calls["unravel", t] = lambda t=t: xs.unravel(offsets, SHAPE, out=out_rows, threads=t)
    got = rounds(calls, warm, count, 1 if quick else 5)
    peers: dict[object, float] = {}
    if numba is not None:
        strides = np.array(SHAPE.strides, np.int64)
        extents = np.array(DIMS, np.int64)
        order = np.array(MINOR_TO_MAJOR, np.int64)
        widths = np.array([PADDED[d] for d in MINOR_TO_MAJOR], np.int64)
        order_extents = np.array([DIMS[d] for d in MINOR_TO_MAJOR], np.int64)
        for t in counts:
            numba.set_num_threads(min(t or available_cpus(), numba.config.NUMBA_NUM_THREADS))
            peers["ravel", t] = timed(lambda: nb_ravel(rows, strides, extents, out), warm, count)
            peers["unravel", t] = timed(
                lambda: nb_unravel(offsets, order, widths, order_extents, out_rows), warm, count)
    lines = []
    for t in counts:
        ours = [f"{n / got[op, t] / 1e6:.0f}" for op in ("ravel", "unravel")]
        theirs = [f"{n / peers[op, t] / 1e6:.0f}" if peers else "" for op in ("ravel", "unravel")]
        label = "default" if t is None else t
        lines.append(f"| {n:.0e} | {label} | {ours[0]} | {theirs[0]} | {ours[1]} | {theirs[1]} |")
    return lines


def sized_table(header: str, sizes: tuple[int, ...],
                rows_of: Callable[[int, np.random.Generator], list[str]]) -> list[str]:
    """A markdown table: ``header``, then the rows of each size."""
    rng = np.random.default_rng(0)
    cells = header.strip(" |").split("|")
    lines = [header, "|" + "|".join("---" if c.strip() == "op" else "---:" for c in cells) + "|"]
    for n in sizes:
        lines += rows_of(n, rng)
    return lines


def index_table(sizes: tuple[int, ...], counts: list[int | None], quick: bool) -> list[str]:
    peer = "numba prange" if numba is not None else "numba (not installed)"
    return sized_table(f"| N | T | ravel | {peer} ravel | unravel | {peer} unravel |", sizes,
                       lambda n, rng: index_rows(n, counts, quick, rng))


def parallel_copy(src: np.ndarray, dst: np.ndarray, threads: int,
                  pool: concurrent.futures.ThreadPoolExecutor) -> None:
    """``np.copyto`` of ``src`` into ``dst`` in ``threads`` slices at once."""
    bounds = np.linspace(0, src.size, threads + 1).astype(int)
    flat_src, flat_dst = src.reshape(-1), dst.reshape(-1)

    def part(k: int) -> None:
        np.copyto(flat_dst[bounds[k]:bounds[k + 1]], flat_src[bounds[k]:bounds[k + 1]])

    list(pool.map(part, range(threads)))


def relayout_rows(text: str, values: np.ndarray, copy: np.ndarray, counts: list[int | None],
                  quick: bool, pool: concurrent.futures.ThreadPoolExecutor) -> list[str]:
    """The relayout table's rows for the layout ``text``."""
    out = xs.to_linear(values, text)
    calls: dict[object, Callable[[], object]] = {}
    for t in counts:
        calls["xs", t] = lambda t=t: xs.to_linear(values, text, out=out, threads=t)
        calls["copy", t] = lambda t=t: parallel_copy(values, copy, t or available_cpus(), pool)
    got = rounds(calls, 1 if quick else 2, 3 if quick else 5, 1 if quick else 5)
    lines = []
    for t in counts:
        ms, cp = got["xs", t] * 1e3, got["copy", t] * 1e3
        label = "default" if t is None else t
        lines.append(f"| `{text}` | {label} | {ms:.1f} | {cp:.1f} | {ms / cp:.2f} |")
    return lines


def relayout_table(counts: list[int | None], quick: bool) -> list[str]:
    values = np.random.default_rng(1).random((8192, 8192), dtype=np.float32)
    copy = np.empty_like(values)
    lines = [
        "| layout | T | to_linear ms | parallel copy ms | to_linear / copy |",
        "|---|---:|---:|---:|---:|",
    ]
    most = max(t or available_cpus() for t in counts)
    with concurrent.futures.ThreadPoolExecutor(most) as pool:
        for text in RELAYOUTS:
            lines += relayout_rows(text, values, copy, counts, quick, pool)
    return lines


def calls_per_second(call: Callable[[int], object], callers: int, repeat: int,
                     together: bool) -> float:
    """Calls per second of ``callers`` x ``repeat`` calls (``call(k)`` for
    caller k): from one thread, or from ``callers`` threads at once."""
    for k in range(callers):
        call(k)
    if not together:
        start = time.perf_counter()
        for _ in range(repeat):
            for k in range(callers):
                call(k)
        return callers * repeat / (time.perf_counter() - start)
    barrier = threading.Barrier(callers + 1)

    def caller(k: int) -> None:
        barrier.wait()
        for _ in range(repeat):
            call(k)

    workers = [threading.Thread(target=caller, args=(k,)) for k in range(callers)]
    for w in workers:
        w.start()
    barrier.wait()
    start = time.perf_counter()
    for w in workers:
        w.join()
    return callers * repeat / (time.perf_counter() - start)


def concurrency_rows(n: int, quick: bool, callers: int, rng: np.random.Generator) -> list[str]:
    rows = np.stack([rng.integers(0, d, n) for d in DIMS], axis=1).astype(np.int64)
    offsets = xs.ravel(rows, SHAPE)
    out = [np.empty(n, np.int64) for _ in range(callers)]
    out_rows = [np.empty((n, 4), np.int64) for _ in range(callers)]
    repeat = max(4, min(400, int(2e7 // n))) // (4 if quick else 1)
    calls = {
        "ravel": lambda k: xs.ravel(rows, SHAPE, out=out[k], threads=16),
        "unravel": lambda k: xs.unravel(offsets, SHAPE, out=out_rows[k], threads=16),
    }
    lines = []
    for op, call in calls.items():
        alone = calls_per_second(call, callers, repeat, together=False)
        together = calls_per_second(call, callers, repeat, together=True)
        lines.append(f"| {n:.0e} | {op} | {alone:.0f} | {together:.0f} | {together / alone:.2f} |")
    return lines


def concurrency_table(sizes: tuple[int, ...], quick: bool, callers: int = 4) -> list[str]:
    return sized_table(
        f"| N | op | one at a time, calls/s | {callers} Python threads at once, calls/s | ratio |",
        sizes, lambda n, rng: concurrency_rows(n, quick, callers, rng))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cpus = available_cpus()
    grid = ",".join(str(t) for t in (1, 2, 4, 8, 16) if t <= cpus)
    parser.add_argument("--threads", default=grid,
                        help="thread counts, comma-separated (the default is always added)")
    parser.add_argument("--sizes", default=",".join(str(n) for n in SIZES), help="row counts")
    parser.add_argument("--quick", action="store_true", help="fewer calls: a smoke run")
    parser.add_argument("--skip", default="",
                        help="sections to leave out: index, relayout, concurrency")
    args = parser.parse_args()
    counts: list[int | None] = [int(t) for t in args.threads.split(",")] + [None]
    sizes = tuple(int(float(n)) for n in args.sizes.split(","))
    features = xs.cpu_features()
    print(f"**{cpu_name()}**, {cpus} CPUs for this process ({os.cpu_count()} online), "
          f"xlashape {xs.__version__} at `{features['level']}`, default threads "
          f"{features['threads']}, numba {numba.__version__ if numba else 'not installed'}.\n")
    skip = set(args.skip.split(","))
    if "index" not in skip:
        print("Rank 4 int64 rows, `f32[64,128,256,32]{3,1,2,0}` padded to 128 along dimension 3, "
              "`out=` given; M rows/s (median of 5 rounds of 21 calls).\n")
        print("\n".join(index_table(sizes, counts, args.quick)), "\n", flush=True)
    if "relayout" not in skip:
        print("256 MB of f32 by `to_linear` into an `out=`, and a copy of the same bytes "
              "on as many threads.\n")
        print("\n".join(relayout_table(counts, args.quick)), "\n", flush=True)
    if "concurrency" not in skip:
        print("Four Python threads each calling with `threads=16`, against the same calls "
              "one at a time.\n")
        print("\n".join(concurrency_table(sizes, args.quick)), "\n", flush=True)
    pool = {k: v for k, v in xs.cpu_features().items() if k.startswith("pool")}
    costs = _batch.pool_info()  # what the hand-off counts a worker now: (start, on top)
    layer = numba.threading_layer() if numba is not None and "index" not in skip else None
    awake, asleep = (f"{a / 1e3:.1f} + {b / 1e3:.1f} us" for a, b in (costs["awake"], costs["asleep"]))
    print(f"pool: {pool}; a worker now costs {awake} spinning, {asleep} asleep (start + on top)")
    if layer:
        print(f"numba's threading layer: {layer}")


if __name__ == "__main__":
    main()
