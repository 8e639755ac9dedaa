"""``xlashape bench``: CPU throughput side by side with NumPy (and numba).

Every case runs xlashape, NumPy's best equivalent, numba's bounds-checked
loop (when numba is installed) and a single-thread ``np.copyto`` on
identical input in the same process, interleaved round by round so that a
busy neighbour slows them alike. The "copy limit" copies half of the bytes
the operation reads plus writes, so that the copy's own reads and writes
move as many bytes as the operation. Buffers are warm (allocated and
touched before timing), except in the "without out=" columns, which time
the common call that allocates its result: once as a loop that drops each
result (the result cache then hands the freed memory to the next call),
and once with the cache emptied first, as when every earlier result is
still alive (fresh memory, page faults and all). Each figure is a median over
rounds; the copy ratio also gives its spread (25th-75th percentile over
rounds). A tiled case also times its call and the same call on the untiled
(row-major) layout, the two alone taking turns: "time / row-major" is the
tiled layout's cost.
Only ratios measured in the same run are reported.
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
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import IndexUtil, Layout, Shape, convert, cpu, get_num_threads, result_cache
from ._batch import traffic
from ._drop_ins import ravel_multi_index, unravel_index
from .bench_peers import jax_call, jax_version, numba_call, numba_version
from .bench_plot import plot

__all__ = ["Case", "add_arguments", "drop_in_calls", "drop_in_data", "make_case_data", "numpy_equivalents", "plot", "run"]

LAYOUTS = ("row-major", "column-major", "permuted", "padded", "tiled")
# The default set: a few minutes on a 2-core machine.
DEFAULT_SIZES = (10**3, 10**4, 10**5, 10**7)
QUICK_SIZES = (10**3, 10**5)
# Ravel's modes: every mode runs the row-major ravel cases; 'raise' runs all.
MODES = ("raise", "clip", "wrap")
# Bytes above which the copy limit is np.copyto (DRAM); below, the traffic
# loop of kernels_traffic.h, which moves the bytes as the kernels do.
IN_CACHE_BYTES = 32 << 20
# The drop-ins' sizes; 1 is one multi-index of ints (ravel) or one int (unravel).
DROP_IN_SIZES = (1, 10, 10**3, 10**5, 10**7)
QUICK_DROP_IN_SIZES = (1, 10**3)


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
    mode: str = "raise"

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


def xlashape_call(case: Case, data: dict[str, Any], threads: int, *, out: bool = True,
                  reuse: bool = True) -> Callable[[], np.ndarray]:
    """xlashape's call for ``case``: into the warm ``out`` buffer, or (with
    ``out=False``) allocating its result, as most callers do; with
    ``reuse=False`` too, the result cache is emptied first, so that the
    result gets fresh memory (the unmapping is timed with the call)."""
    shape = case.shape
    if out:
        if case.op == "ravel":
            return lambda: convert.ravel(data["rows"], shape, mode=case.mode, out=data["ravel_out"],
                                         threads=threads)
        return lambda: convert.unravel(data["offsets"], shape, out=data["unravel_out"], threads=threads)
    def call() -> np.ndarray:
        if case.op == "ravel":
            return convert.ravel(data["rows"], shape, mode=case.mode, threads=threads)
        return convert.unravel(data["offsets"], shape, threads=threads)

    return call if reuse else _with_nothing_to_reuse(call)


def _with_nothing_to_reuse(call: Callable[[], np.ndarray]) -> Callable[[], np.ndarray]:
    def fresh() -> np.ndarray:
        bounds = result_cache.set_result_cache(0)  # unmaps what it holds
        result_cache.set_result_cache(bounds["max_bytes"], bounds["max_buffers"])
        return call()

    return fresh


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
        mode: Any = case.mode  # one of MODES (NumPy's stubs want a Literal)
        calls = {"numpy": lambda: np.ravel_multi_index(tuple(rows[:, d] for d in order), widths, mode=mode)}
        if case.layout == "row-major":
            calls["numpy a.T"] = lambda: np.ravel_multi_index(rows.T, widths, mode=mode)
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


def calls_per_sample(call: Callable[[], object], target: float = 2e-4) -> int:
    """How many calls make one timed sample of at least ``target`` seconds
    (one call of a large case; many of a small one)."""
    call()
    t0 = time.perf_counter()
    call()
    once = max(time.perf_counter() - t0, 1e-8)
    return max(1, min(100_000, int(target / once)))


def interleaved_times(calls: dict[str, Callable[[], object]], min_time: float,
                      min_rounds: int) -> dict[str, list[float]]:
    """Seconds per call of each of ``calls``, one sample of each per round,
    the calls taking turns, until ``min_time`` has passed and at least
    ``min_rounds`` rounds ran (at most 200)."""
    numbers = {name: calls_per_sample(call) for name, call in calls.items()}
    times: dict[str, list[float]] = {name: [] for name in calls}
    start = time.perf_counter()
    rounds = 0
    while rounds < min_rounds or (time.perf_counter() - start < min_time and rounds < 200):
        for name, call in calls.items():
            number = numbers[name]
            t0 = time.perf_counter()
            for _ in range(number):
                call()
            times[name].append((time.perf_counter() - t0) / number)
        rounds += 1
    return times


def copy_call(nbytes: int) -> Callable[[], object]:
    """A single-thread np.copyto of ``nbytes // 2`` bytes: it reads and
    writes them, ``nbytes`` of traffic in all, as the operation does."""
    src = np.ones(max(nbytes // 2 // 8, 1), dtype=np.int64)
    dst = np.zeros_like(src)
    return lambda: np.copyto(dst, src)


def traffic_call(case: Case) -> Callable[[], object] | None:
    """The in-cache limit of a case: the traffic loop of kernels_traffic.h,
    which reads and writes the operation's bytes in contiguous int64
    streams, vectorised whole, on one thread at the level in use. None above
    IN_CACHE_BYTES, where DRAM bounds both and np.copyto is the limit."""
    if case.bytes_moved > IN_CACHE_BYTES:
        return None
    itemsize = np.dtype(case.dtype).itemsize
    read = (case.n * case.rank if case.op == "ravel" else case.n) * itemsize // 8
    written = case.n if case.op == "ravel" else case.n * case.rank
    src = np.ones(max(read, 1), dtype=np.int64)
    dst = np.zeros(max(written, 1), dtype=np.int64)
    return lambda: traffic(src, dst)


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


def drop_in_data(n: int, seed: int = 0) -> tuple[tuple[int, ...], Any, Any]:
    """Rank-4 dims, ``n`` random multi-indices as NumPy's tuple of columns
    and their linear indices; for N = 1, one multi-index of Python ints and
    one Python int."""
    dims = case_dimensions(4)
    rng = np.random.default_rng(seed)
    columns: Any = tuple(rng.integers(0, d, n) for d in dims)
    if n == 1:
        columns = tuple(int(c[0]) for c in columns)
    offsets: Any = np.ravel_multi_index(columns, dims)
    return dims, columns, int(offsets) if n == 1 else offsets


def drop_in_calls(op: str, n: int, mode: str = "raise") -> tuple[Callable[[], object], Callable[[], object]]:
    """xlashape's drop-in ``op`` ('ravel_multi_index' or 'unravel_index') and
    NumPy's function of that name, each on the same :func:`drop_in_data`
    (ravel in ``mode``)."""
    dims, columns, offsets = drop_in_data(n)
    how: Any = mode  # one of MODES (the stubs want a Literal)
    if op == "ravel_multi_index":
        return (lambda: ravel_multi_index(columns, dims, how)), (lambda: np.ravel_multi_index(columns, dims, how))
    return (lambda: unravel_index(offsets, dims)), (lambda: np.unravel_index(offsets, dims))


def drop_in_times(sizes: Sequence[int], min_time: float, min_rounds: int,
                  modes: Sequence[str] = ("raise",)) -> list[dict[str, Any]]:
    """Seconds per call of the NumPy drop-ins against NumPy's own functions,
    as a user calls them (no ``out=``, default threads), rank 4 row-major,
    ravel in each of ``modes``, interleaved round by round (see
    :func:`drop_in_calls`)."""
    records = []
    for n in sizes:
        for op, mode in [*(("ravel_multi_index", m) for m in modes), ("unravel_index", "raise")]:
            ours, theirs = drop_in_calls(op, n, mode)
            times = interleaved_times({"xlashape": ours, "numpy": theirs}, min_time, min_rounds)
            x, y = statistics.median(times["xlashape"]), statistics.median(times["numpy"])
            records.append({"op": op, "n": n, "mode": mode, "xlashape_s": x, "numpy_s": y,
                            "speedup": y / x})
    return records


def _quartiles(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return values[0], values[0]
    q = statistics.quantiles(values, n=4)
    return q[0], q[2]


def run_case(case: Case, threads: int, min_time: float, min_repeats: int, *,
             no_out: bool = False, peers: bool = True) -> dict[str, Any]:
    """Measure one case: xlashape (into out=, and without it if asked),
    NumPy's best equivalents, numba's loop, and the copy limit, interleaved."""
    data = make_case_data(case)
    calls: dict[str, Callable[[], object]] = {"xlashape": xlashape_call(case, data, threads)}
    if no_out:
        calls["xlashape without out="] = xlashape_call(case, data, threads, out=False)
        calls["xlashape without out=, no reuse"] = xlashape_call(
            case, data, threads, out=False, reuse=False)
    numpy_names = []
    if peers:
        for name, call in numpy_equivalents(case, data).items():
            calls[name] = call
            numpy_names.append(name)
        numba = numba_call(case, data)
        if numba is not None:
            calls["numba"] = numba
        jax = jax_call(case, data)
        if jax is not None:
            calls["jax"] = jax
    calls["copy"] = copy_call(case.bytes_moved)
    in_cache = traffic_call(case)
    if in_cache is not None:
        calls["traffic"] = in_cache
    times = interleaved_times(calls, min_time, min_repeats)
    median = {name: statistics.median(t) for name, t in times.items()}
    ours = median["xlashape"]
    ratios = [c / x for c, x in zip(times["copy"], times["xlashape"])]
    record: dict[str, Any] = {
        **dataclasses.asdict(case),
        "threads": threads,
        "level": cpu.cpu_features()["level"],
        "xlashape_s": ours,
        "copy_s": median["copy"],
        "xlashape_meps": case.n / ours / 1e6,
        "copy_fraction": median["copy"] / ours,
        "copy_fraction_spread": _quartiles(ratios),
        "rounds": len(ratios),
    }
    if numpy_names:
        best = min(median[name] for name in numpy_names)
        record.update(numpy_s={name: median[name] for name in numpy_names},
                      numpy_meps=case.n / best / 1e6, speedup=best / ours)
    if "numba" in median:
        record.update(numba_s=median["numba"], numba_meps=case.n / median["numba"] / 1e6)
    if "jax" in median:
        record.update(jax_s=median["jax"], jax_meps=case.n / median["jax"] / 1e6,
                      jax_speedup=median["jax"] / ours)
    if "traffic" in median:
        record.update(traffic_s=median["traffic"], traffic_fraction=median["traffic"] / ours)
    if case.layout == "tiled":
        # The same call on the untiled layout, the two alone taking turns:
        # beside the calls above (those that allocate, above all) the
        # untiled one measured up to 2x slower than alone (10^5 unravel).
        untiled = dataclasses.replace(case, layout="row-major")
        pair = interleaved_times({"tiled": calls["xlashape"],
                                  "row-major": xlashape_call(untiled, make_case_data(untiled), threads)},
                                 min_time, min_repeats)
        tiled_s, row_major_s = (statistics.median(pair[name]) for name in ("tiled", "row-major"))
        record.update(tiled_beside_row_major_s=tiled_s, row_major_s=row_major_s,
                      row_major_ratio=tiled_s / row_major_s)
    if no_out:
        fresh = median["xlashape without out="]
        record.update(no_out_s=fresh, no_out_meps=case.n / fresh / 1e6, no_out_fraction=ours / fresh)
        unused = median["xlashape without out=, no reuse"]
        record.update(no_reuse_s=unused, no_reuse_meps=case.n / unused / 1e6,
                      no_reuse_fraction=ours / unused)
    return record


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    import xlashape

    features = cpu.cpu_features()
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "threads_default": get_num_threads(),
        "level": features["level"],
        "best_level": features["best"],
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba_version(),
        "jax": jax_version(),
        "xlashape": xlashape.__version__,
        "command": "xlashape bench " + " ".join(sys.argv[2:] if sys.argv[1:2] == ["bench"] else sys.argv[1:]),
    }


HEADER = (
    "| op | layout | N | threads | xlashape M/s | NumPy M/s | speedup | of copy limit "
    "| copy spread | dtype | level | numba M/s | without out= M/s | without out=, no reuse M/s "
    "| time / row-major | mode | JAX M/s | of traffic limit |"
)


def format_table(records: list[dict[str, Any]], scalars: list[dict[str, Any]],
                 drop_ins: Sequence[dict[str, Any]] = ()) -> str:
    lines = [HEADER, "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---|---:|---:|"]
    for r in records:
        low, high = r["copy_fraction_spread"]
        numpy_meps = f"{r['numpy_meps']:.0f}" if "numpy_meps" in r else "-"
        speedup = f"{r['speedup']:.1f}x" if "speedup" in r else "-"
        numba = f"{r['numba_meps']:.0f}" if "numba_meps" in r else "-"
        fresh = f"{r['no_out_meps']:.0f}" if "no_out_meps" in r else "-"
        unused = f"{r['no_reuse_meps']:.0f}" if "no_reuse_meps" in r else "-"
        untiled = f"{r['row_major_ratio']:.2f}" if "row_major_ratio" in r else "-"
        jax = f"{r['jax_meps']:.0f}" if "jax_meps" in r else "-"
        traffic_limit = f"{r['traffic_fraction']:.2f}" if "traffic_fraction" in r else "-"
        lines.append(
            f"| {r['op']} | {r['layout']} | {r['n']:.0e} | {r['threads']} | "
            f"{r['xlashape_meps']:.0f} | {numpy_meps} | {speedup} | "
            f"{r['copy_fraction']:.2f} | {low:.2f}-{high:.2f} | {r['dtype']} | {r['level']} | "
            f"{numba} | {fresh} | {unused} | {untiled} | {r.get('mode', 'raise')} | {jax} | "
            f"{traffic_limit} |"
        )
    lines += ["", "| one index, rank 4 | xlashape ns | NumPy ns | speedup |", "|---|---:|---:|---:|"]
    for s in scalars:
        lines.append(f"| {s['op']} | {s['xlashape_ns']:.0f} | {s['numpy_ns']:.0f} | {s['speedup']:.1f}x |")
    if drop_ins:
        lines += ["", "| drop-in, rank 4 | N | xlashape us | NumPy us | speedup | mode |",
                  "|---|---:|---:|---:|---:|---|"]
    for d in drop_ins:
        n = "1 (one index)" if d["n"] == 1 else f"{d['n']:.0e}"
        lines.append(f"| xs.{d['op']} | {n} | {d['xlashape_s'] * 1e6:.2f} | {d['numpy_s'] * 1e6:.2f} "
                     f"| {d['speedup']:.1f}x | {d.get('mode', 'raise')} |")
    return "\n".join(lines)


def caption(info: dict[str, Any]) -> str:
    numba = f", numba {info['numba']}" if info["numba"] else ""
    return (
        f"rank 4; {info['cpu']}, {info['cores']} cores, kernels at level {info['level']}; "
        f"Python {info['python']}, NumPy {info['numpy']}{numba}, xlashape {info['xlashape']}; "
        f"command: {info['command']}. 'of copy limit': time of a single-thread np.copyto "
        "moving as many bytes (half read, half written) over xlashape's time, median over "
        "interleaved rounds, spread = 25th-75th percentile. 'of traffic limit' (up to "
        f"{IN_CACHE_BYTES >> 20} MiB): the same for a vectorised loop that reads and writes "
        "exactly the operation's bytes. JAX: jax.jit, warm, block_until_ready, with "
        "jax_enable_x64 (the case's dtype), 'clip' for 'raise', on its own threads."
    )


def _int_list(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected integers separated by commas, got {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected integers >= 1, got {text!r}")
    return values


def _name_list(choices: tuple[str, ...]) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        names = [v.strip() for v in text.split(",") if v.strip()]
        bad = [n for n in names if n not in choices]
        if bad or not names:
            raise argparse.ArgumentTypeError(f"expected some of {', '.join(choices)}, got {text!r}")
        return names

    return parse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="small sizes and few repeats (seconds, not minutes)")
    parser.add_argument("--json", metavar="FILE", help="also write every measurement to FILE as JSON")
    parser.add_argument("--plot", metavar="FILE.png", help="draw throughput against N (needs matplotlib)")
    parser.add_argument("--threads", type=_int_list, metavar="T,T,...",
                        help="thread counts to sweep (default: 1 and get_num_threads())")
    parser.add_argument("--sizes", type=_int_list, metavar="N,N,...", help="batch sizes (default: 1e3,1e4,1e5,1e7)")
    parser.add_argument("--dtypes", type=_name_list(("int64", "int32")), metavar="D,D",
                        help="index dtypes (default: int64,int32; --quick: int64)")
    parser.add_argument("--layouts", type=_name_list(LAYOUTS), metavar="L,L",
                        help=f"layouts, of {', '.join(LAYOUTS)} (default: row-major,padded,tiled)")
    parser.add_argument("--levels", type=_name_list(cpu.LEVELS), metavar="L,L",
                        help="CPU levels to compare (default: the one in use)")
    parser.add_argument("--modes", type=_name_list(MODES), metavar="M,M",
                        help="ravel modes; 'clip' and 'wrap' run the row-major ravel cases and "
                        "the drop-in ravel (default: raise,clip,wrap; --quick: raise)")


def run(args: argparse.Namespace) -> int:
    quick = args.quick
    sizes = args.sizes or (QUICK_SIZES if quick else DEFAULT_SIZES)
    min_time, min_repeats = (0.05, 3) if quick else (0.3, 7)
    thread_counts = args.threads or sorted({1, get_num_threads()})
    dtypes = args.dtypes or (["int64"] if quick else ["int64", "int32"])
    layouts = args.layouts or ["row-major", "padded", "tiled"]
    levels = args.levels or [cpu.cpu_features()["level"]]
    modes = args.modes or (["raise"] if quick else list(MODES))
    supported = tuple(cpu.LEVELS[: cpu.LEVELS.index(str(cpu.cpu_features()["best"])) + 1])
    unsupported = [level for level in levels if level not in supported]
    if unsupported:
        raise SystemExit(f"xlashape: error: this CPU lacks the level(s) {', '.join(unsupported)}")
    cases = [
        (Case(op, n, dtype=dtype, layout=layout, mode=mode), threads, level)
        for level in levels
        for op in ("ravel", "unravel")
        for mode in (modes if op == "ravel" else ["raise"])
        for dtype in dtypes
        for layout in (layouts if mode == "raise" else ["row-major"])
        for n in sizes
        for threads in thread_counts
    ]
    info = machine()
    print(f"xlashape bench on {info['cpu']} ({info['cores']} cores), level {info['level']}, "
          f"NumPy {info['numpy']}", file=sys.stderr)
    records = []
    previous = cpu.set_cpu_level(levels[0])
    try:
        for k, (case, threads, level) in enumerate(cases, 1):
            cpu.set_cpu_level(level)
            print(f"[{k}/{len(cases)}] {case.op} {case.mode} {case.dtype} {case.layout} N={case.n:.0e} "
                  f"threads={threads} level={level}", file=sys.stderr)
            records.append(run_case(case, threads, min_time, min_repeats, no_out=case.n >= 10**5))
    finally:
        cpu.set_cpu_level(previous)
    print("[scalar] one index at a time", file=sys.stderr)
    scalars = scalar_times(number=2000 if quick else 20000)
    print("[drop-ins] xs.ravel_multi_index and xs.unravel_index against NumPy's", file=sys.stderr)
    drop_ins = drop_in_times(QUICK_DROP_IN_SIZES if quick else DROP_IN_SIZES, min_time, min_repeats,
                             modes)
    print(format_table(records, scalars, drop_ins))
    print("\n" + caption(info))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "cases": records, "scalar": scalars, "drop_ins": drop_ins}, f,
                      indent=2)
    if args.plot:
        plot(records, args.plot, caption(info))
    return 0
