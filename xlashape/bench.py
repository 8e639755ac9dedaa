"""``xlashape bench``: CPU throughput side by side with NumPy.

Every case runs xlashape and NumPy's best equivalent on identical input in
the same process, and a single-thread ``np.copyto`` of as many bytes as the
operation reads plus writes, the "copy limit". Buffers are warm (allocated
and touched before timing), each timing is the median of several repeats,
and only ratios measured in the same run are reported.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np

from . import IndexUtil, Layout, Shape, convert, get_num_threads

__all__ = ["Case", "add_arguments", "make_case_data", "numpy_equivalents", "run"]

LAYOUTS = ("row-major", "column-major", "permuted", "padded", "tiled")
# The default set: about a minute on a 2-core machine.
DEFAULT_SIZES = (10**3, 10**5, 10**7)
QUICK_SIZES = (10**3, 10**5)


def make_layout(name: str, rank: int) -> Layout:
    """One of LAYOUTS for ``rank``: 'permuted' moves dimension 0 to the
    middle of the order; 'padded' is that permutation with every dimension
    padded by one; 'tiled' is row-major tiled by (8,128)."""
    if name == "row-major":
        return Layout(range(rank - 1, -1, -1))
    if name == "column-major":
        return Layout(range(rank))
    order = list(range(1, rank))
    order.insert(rank // 2, 0)
    if name == "permuted":
        return Layout(order)
    if name == "padded":
        return Layout(order, [d + 1 for d in case_dimensions(rank)])
    if name == "tiled":  # row-major, the two most minor dimensions in TPU tiles
        return Layout(range(rank - 1, -1, -1), tiles=[(8, 128)])
    raise ValueError(f"unknown layout {name!r}; expected one of {', '.join(LAYOUTS)}")


def case_dimensions(rank: int) -> tuple[int, ...]:
    """Dimension sizes for a rank: mixed odd sizes, about 10**6 elements at
    rank 4 so no divisor is a power of two."""
    return tuple((101, 37, 23, 13, 7, 5, 3, 3)[:rank]) if rank <= 8 else (3,) * rank


@dataclasses.dataclass(frozen=True)
class Case:
    """One benchmark: an operation on N indices of one rank, dtype, layout."""

    op: str
    n: int
    rank: int = 4
    dtype: str = "int64"
    layout: str = "row-major"

    @property
    def shape(self) -> Shape:
        return Shape("f32", case_dimensions(self.rank), make_layout(self.layout, self.rank))

    @property
    def bytes_moved(self) -> int:
        """Bytes the operation reads plus writes: ravel reads (N, rank)
        indices and writes N int64 offsets; unravel reads N offsets and
        writes (N, rank) int64 indices."""
        itemsize = np.dtype(self.dtype).itemsize
        if self.op == "ravel":
            return self.n * self.rank * itemsize + self.n * 8
        return self.n * itemsize + self.n * self.rank * 8


def make_case_data(case: Case, seed: int = 0) -> dict[str, np.ndarray]:
    """Random valid input for ``case`` and warm output buffers."""
    shape = case.shape
    rng = np.random.default_rng(seed)
    rows = np.empty((case.n, case.rank), dtype=case.dtype)
    for d, size in enumerate(shape.dimensions):
        rows[:, d] = rng.integers(0, size, case.n)
    offsets = convert.ravel(rows, shape).astype(case.dtype)
    return {
        "rows": rows,
        "offsets": offsets,
        "ravel_out": np.zeros(case.n, dtype=np.int64),
        "unravel_out": np.zeros((case.n, case.rank), dtype=np.int64),
    }


def xlashape_call(case: Case, data: dict[str, Any], threads: int) -> Callable[[], np.ndarray]:
    shape = case.shape
    if case.op == "ravel":
        return lambda: convert.ravel(data["rows"], shape, out=data["ravel_out"], threads=threads)
    return lambda: convert.unravel(data["offsets"], shape, out=data["unravel_out"], threads=threads)


def numpy_equivalents(case: Case, data: dict[str, Any]) -> dict[str, Callable[[], np.ndarray]]:
    """NumPy's best equivalents: the multi-index reordered major-to-minor
    with padded widths as dims, as a tuple of column views and (for the
    row-major layout, which needs no reordering) as ``a.T``. The unravel
    result is stacked into the same (N, rank) buffer xlashape fills. NumPy
    cannot tell padding positions from elements, so it checks less. It has
    no tiled layouts either: for 'tiled' it ravels as if untiled, and
    unravels over the tiled array's dimensions (the digits, not the index)."""
    shape = case.shape
    order = shape.layout.major_to_minor
    widths = tuple(shape.padded_dimensions[d] for d in order)
    rows, out = data["rows"], data["unravel_out"]
    if case.op == "ravel":
        calls = {"numpy": lambda: np.ravel_multi_index(tuple(rows[:, d] for d in order), widths)}
        if case.layout == "row-major":
            calls["numpy a.T"] = lambda: np.ravel_multi_index(rows.T, widths)
        return calls
    if case.layout == "tiled":
        tiled = shape.tiled_dimensions

        def unravel_tiles() -> np.ndarray:
            columns = np.unravel_index(data["offsets"], tiled)
            return np.stack(columns[: case.rank], axis=1, out=out)

        return {"numpy": unravel_tiles}
    position = [order.index(d) for d in range(case.rank)]

    def unravel() -> np.ndarray:
        columns = np.unravel_index(data["offsets"], widths)
        return np.stack([columns[p] for p in position], axis=1, out=out)

    return {"numpy": unravel}


def median_time(call: Callable[[], object], min_time: float, min_repeats: int) -> float:
    """Median seconds per call, after one warm-up call."""
    call()
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < min_repeats or (time.perf_counter() - start < min_time and len(times) < 200):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def copy_limit_time(nbytes: int, min_time: float, min_repeats: int) -> float:
    """Median seconds of a single-thread np.copyto of ``nbytes`` bytes."""
    src = np.ones(nbytes // 8, dtype=np.int64)
    dst = np.zeros_like(src)
    return median_time(lambda: np.copyto(dst, src), min_time, min_repeats)


def scalar_times(repeat: int = 7, number: int = 20000) -> list[dict[str, Any]]:
    """Nanoseconds per single-index call, IndexUtil against NumPy, rank 4."""
    shape = Case("ravel", 1).shape
    index, dims = (50, 20, 10, 5), shape.dimensions
    offset = IndexUtil.multidimensional_index_to_linear_index(shape, index)
    pairs = {
        "ravel": (
            lambda: IndexUtil.multidimensional_index_to_linear_index(shape, index),
            lambda: np.ravel_multi_index(index, dims),
        ),
        "unravel": (
            lambda: IndexUtil.linear_index_to_multidimensional_index(shape, offset),
            lambda: np.unravel_index(offset, dims),
        ),
    }
    records = []
    for op, (ours, theirs) in pairs.items():
        ns = [statistics.median(timeit.repeat(f, repeat=repeat, number=number)) / number * 1e9 for f in (ours, theirs)]
        records.append({"op": op, "xlashape_ns": ns[0], "numpy_ns": ns[1], "speedup": ns[1] / ns[0]})
    return records


def run_case(case: Case, threads: int, min_time: float, min_repeats: int) -> dict[str, Any]:
    """Measure one case: xlashape, NumPy's best equivalent, the copy limit."""
    data = make_case_data(case)
    ours = median_time(xlashape_call(case, data, threads), min_time, min_repeats)
    numpy_times = {
        name: median_time(call, min_time, min_repeats)
        for name, call in numpy_equivalents(case, data).items()
    }
    best = min(numpy_times.values())
    copy = copy_limit_time(case.bytes_moved, min_time, min_repeats)
    return {
        **dataclasses.asdict(case),
        "threads": threads,
        "xlashape_s": ours,
        "numpy_s": numpy_times,
        "copy_s": copy,
        "xlashape_meps": case.n / ours / 1e6,
        "numpy_meps": case.n / best / 1e6,
        "speedup": best / ours,
        "copy_fraction": copy / ours,
    }


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    import xlashape

    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "xlashape": xlashape.__version__,
    }


def format_table(records: list[dict[str, Any]], scalars: list[dict[str, Any]]) -> str:
    lines = [
        "| op | layout | N | threads | xlashape M/s | NumPy M/s | speedup | of copy limit |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in records:
        lines.append(
            f"| {r['op']} | {r['layout']} | {r['n']:.0e} | {r['threads']} | "
            f"{r['xlashape_meps']:.0f} | {r['numpy_meps']:.0f} | {r['speedup']:.1f}x | "
            f"{r['copy_fraction']:.2f} |"
        )
    lines += ["", "| one index, rank 4 | xlashape ns | NumPy ns | speedup |", "|---|---:|---:|---:|"]
    for s in scalars:
        lines.append(f"| {s['op']} | {s['xlashape_ns']:.0f} | {s['numpy_ns']:.0f} | {s['speedup']:.1f}x |")
    return "\n".join(lines)


def plot(records: list[dict[str, Any]], path: str) -> None:
    """Throughput against N, log-log, one line per implementation."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit(
            "xlashape: error: --plot needs matplotlib; install it with "
            "pip install 'xlashape[plot]' (or pip install matplotlib)"
        ) from None
    ops = sorted({r["op"] for r in records})
    fig, axes = plt.subplots(1, len(ops), figsize=(6 * len(ops), 4.5), squeeze=False)
    for ax, op in zip(axes[0], ops):
        series: dict[str, list[tuple[int, float]]] = {}
        for r in (r for r in records if r["op"] == op):
            tag = f"{r['layout']}"
            series.setdefault(f"xlashape, {r['threads']} thread(s), {tag}", []).append((r["n"], r["xlashape_meps"]))
            if r["threads"] == 1:  # NumPy and the copy do not depend on xlashape's threads
                series.setdefault(f"NumPy, {tag}", []).append((r["n"], r["numpy_meps"]))
                series.setdefault(f"copy limit, {tag}", []).append((r["n"], r["n"] / r["copy_s"] / 1e6))
        for label, points in series.items():
            xs, ys = zip(*sorted(points))
            ax.plot(xs, ys, marker="o", label=label, linestyle="--" if label.startswith("copy") else "-")
        ax.set(xscale="log", yscale="log", xlabel="N (indices)", ylabel="M indices / s", title=op)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="small sizes and few repeats (seconds, not a minute)")
    parser.add_argument("--json", metavar="FILE", help="also write every measurement to FILE as JSON")
    parser.add_argument("--plot", metavar="FILE.png", help="draw throughput against N (needs matplotlib)")


def run(args: argparse.Namespace) -> int:
    sizes = QUICK_SIZES if args.quick else DEFAULT_SIZES
    min_time, min_repeats = (0.05, 3) if args.quick else (0.3, 5)
    all_threads = get_num_threads()
    thread_counts = sorted({1, all_threads})
    cases = [
        (Case(op, n, layout=layout), threads)
        for op in ("ravel", "unravel")
        for layout in ("row-major", "padded", "tiled")
        for n in sizes
        for threads in thread_counts
    ]
    info = machine()
    print(f"xlashape bench on {info['cpu']} ({info['cores']} cores), NumPy {info['numpy']}", file=sys.stderr)
    records = []
    for k, (case, threads) in enumerate(cases, 1):
        print(f"[{k}/{len(cases)}] {case.op} {case.layout} N={case.n:.0e} threads={threads}", file=sys.stderr)
        records.append(run_case(case, threads, min_time, min_repeats))
    print("[scalar] one index at a time", file=sys.stderr)
    scalars = scalar_times(number=2000 if args.quick else 20000)
    print(format_table(records, scalars))
    print(
        f"\nrank 4, int64 indices; {info['cpu']}, {info['cores']} cores; Python {info['python']}, "
        f"NumPy {info['numpy']}, xlashape {info['xlashape']}. 'of copy limit': single-thread "
        "np.copyto time of the bytes read plus written, over xlashape's time."
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "cases": records, "scalar": scalars}, f, indent=2)
    if args.plot:
        plot(records, args.plot)
    return 0
