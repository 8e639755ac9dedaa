"""``xlashape bench``: CPU throughput side by side with NumPy (and numba).

Every case runs xlashape, NumPy's best equivalent, numba's loops (when
numba is installed: bounds-checked, and unchecked with a static rank),
JAX's jitted functions (when JAX is installed; on the CPU, whatever JAX's
default device) and the copy limit on identical input in the same process,
interleaved round by round so that a busy neighbour slows them alike. The
"copy limit" is ``np.copyto`` of half of the bytes the operation reads
plus writes, so that the copy's own reads and writes move as many bytes as
the operation: on one thread and, for a case on several threads, split
over as many, the faster of the two. glibc's memmove streams its stores
(non-temporal stores) from its threshold on, and each case says whether
its copy did. Buffers are warm (allocated
and touched before timing), except in the "without out=" columns, which
time the common call that allocates its result: once as a loop that drops
each result (the result cache then hands the freed memory to the next
call), and once with the cache emptied first, as when every earlier result
is still alive (fresh memory, page faults and all). Each time is a median
over rounds; a ratio to NumPy or to the copy limit is the median over
rounds of the two calls' ratio in each, with its spread (25th-75th
percentile over rounds), and a spread wider than WIDE_SPREAD of its median
is marked as a busy machine's. A tiled case also times its call and the same call on the
untiled (row-major) layout, the two alone taking turns: "time / row-major"
is the tiled layout's cost. Likewise a case in mode 'clip' or 'wrap' (and
each drop-in ravel in those modes) times the same call in mode 'raise'
beside it: "time / raise" is the mode's cost. The "out= alignment" section times the same
call (rank 4, int64) into an ``out=`` whose data starts 16 bytes past a
64-byte boundary, where ``np.empty`` often puts it, and into one on the
boundary, the two taking turns. Only ratios measured in the same run are
reported.

What it prints: a summary first (what xlashape does; on which CPU, vendor
and level; how many times faster than NumPy and what fraction of the copy
limit, each with its spread; what the copy limit is), then, with
``--full``, the machine's diagnostics (glibc's streaming threshold, whether
the copy streamed, what an ``out=`` off a 64-byte boundary costs) and every
measurement in tables at most 100 columns wide; ``--json`` and
``--markdown`` write them to files. Measurements are records (dicts) in sections, shown by the
columns defined here and rendered by :mod:`xlashape.cli.bench.report`: a new
measurement is a record field and a :class:`~xlashape.cli.bench.report.Column`.
The default grid takes seconds; ``--long`` runs the bigger one (minutes).
Sizes that are no counts, or whose buffers cannot fit in the memory
available, are refused in one line before anything runs, and Ctrl-C keeps
and shows what was measured.
"""

from __future__ import annotations

import argparse
import array
import dataclasses
import decimal
import json
import math
import os
import statistics
import sys
import timeit
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from ... import IndexUtil, Layout, Shape, cpu, get_num_threads
from ...core import result_cache
from ...core._batch import traffic
from ...drop_ins._drop_ins import ravel_multi_index, unravel_index
from ...shapes import convert
from ..common import EXIT_INTERRUPTED, EXIT_USAGE, PROG, CommandError
from . import relayout
from .machine import copy_streams, non_temporal_threshold
from .measure import (
    ALIGNMENT,
    copy_bytes,
    copy_calls,
    fastest_copy,
    hugepages_text,
    interleaved_times,
    machine,
)
from .peers import (
    jax_call,
    numba_call,
    why_no_jax,
    why_no_numba,
)
from .plot import plot
from .report import (
    WIDTH,
    Column,
    Section,
    field,
    json_document,
    markdown_table,
    spread_field,
    text,
    text_table,
    wrap,
)

__all__ = [
    "Case", "add_arguments", "alignment_cases", "alignment_times", "drop_in_calls", "drop_in_data",
    "make_case_data", "numpy_equivalents", "out_at", "plot", "run", "summary",
]

LAYOUTS = ("row-major", "column-major", "permuted", "padded", "tiled")
# The --long grid: a few minutes on a 2-core machine.
DEFAULT_SIZES = (10**3, 10**4, 10**5, 10**7)
# The default grid: seconds.
QUICK_SIZES = (10**3, 10**5)
# Ravel's modes: every mode runs the row-major ravel cases; 'raise' runs all.
MODES = ("raise", "clip", "wrap")
# Bytes above which the copy limit is np.copyto (DRAM); below, the traffic
# loop of kernels_traffic.h, which moves the bytes as the kernels do.
IN_CACHE_BYTES = 32 << 20
# The drop-ins' sizes; 1 is one multi-index of ints (ravel) or one int (unravel).
DROP_IN_SIZES = (1, 10, 10**3, 10**5, 10**7)
QUICK_DROP_IN_SIZES = (1, 10**3)
# The out= alignment section: bytes past a 64-byte boundary (ALIGNMENT) of
# the two out= buffers (np.empty's usual place, and the boundary), and its layout.
OUT_OFFSETS = (16, 0)
ALIGNMENT_LAYOUT = "padded"


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
    result gets fresh memory: each page is faulted in, and zeroed by the
    operating system, by the thread that writes it first, with ordinary
    stores (fresh pages are never streamed into); the faults and the
    unmapping are timed with the call."""
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


def round_ratios(top: Sequence[float], bottom: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The median over rounds of ``top[k] / bottom[k]`` (two calls' seconds
    in round k), and its spread: the 25th and 75th percentiles.

    >>> from xlashape.cli.bench.suite import round_ratios
    >>> round_ratios([2.0, 3.0, 4.0, 6.0, 9.0], [1.0, 1.0, 1.0, 1.0, 1.0])
    (4.0, (2.5, 7.5))
    """
    ratios = [t / b for t, b in zip(top, bottom, strict=True)]
    if len(ratios) < 2:
        return ratios[0], (ratios[0], ratios[0])
    low, _, high = statistics.quantiles(ratios, n=4)
    median = statistics.median(ratios)
    # The quartiles are interpolated, so where the ratios near the middle
    # are equal they can land an ulp on the wrong side of the median.
    return median, (min(low, median), max(high, median))


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


def scalar_times(repeat: int = 21, number: int = 7000) -> list[dict[str, Any]]:
    """Nanoseconds per single-index call, IndexUtil against NumPy, rank 4:
    ``repeat`` rounds of ``number`` calls of each, taking turns; medians,
    and how many times faster with its spread."""
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
        times: dict[str, list[float]] = {"xlashape": [], "numpy": []}
        for _ in range(repeat):
            for name, call in (("xlashape", ours), ("numpy", theirs)):
                times[name].append(timeit.timeit(call, number=number) / number)
        record = _against_numpy(times)
        records.append({"op": op, "xlashape_ns": record.pop("xlashape_s") * 1e9,
                        "numpy_ns": record.pop("numpy_s") * 1e9, **record})
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


def drop_in_forms() -> dict[str, tuple[str, tuple[Any, ...]]]:
    """Issue 22's argument forms of one call, by name: (the function's
    name, its arguments), each rank 2. The first is what scikit-image's
    ``morphology/_max_tree.pyx`` calls, the most frequent call of the
    drop-ins in the sweep of NumPy users' test suites."""
    shape32 = np.array([5, 7], dtype=np.int32).data
    return {
        "unravel_index(int, int32 memoryview dims)": ("unravel_index", (17, shape32)),
        "ravel_multi_index(int32 memoryviews)":
            ("ravel_multi_index", (np.array([2, 3], dtype=np.int32).data, shape32)),
        "ravel_multi_index(memoryview, tuple dims)":
            ("ravel_multi_index", (np.array([2, 3]).data, (5, 7))),
        "ravel_multi_index(lists, tuple dims)":
            ("ravel_multi_index", (([1, 2, 3], [0, 4, 6]), (5, 7))),
        # Buffers other than the builtin memoryview (Cython's memoryviews among them).
        "unravel_index(int, array.array dims)": ("unravel_index", (17, array.array("q", [5, 7]))),
        "ravel_multi_index(array.array, tuple dims)":
            ("ravel_multi_index", (array.array("q", [2, 3]), (5, 7))),
    }


def drop_in_times(sizes: Sequence[int], min_time: float, min_rounds: int,
                  modes: Sequence[str] = ("raise",)) -> list[dict[str, Any]]:
    """Seconds per call of the NumPy drop-ins against NumPy's own functions,
    as a user calls them (no ``out=``, default threads), rank 4 row-major,
    ravel in each of ``modes``, then each of :func:`drop_in_forms` (``form``
    names it), interleaved round by round (see :func:`drop_in_calls`)."""
    records: list[dict[str, Any]] = []
    calls: dict[str, Callable[[], object]]
    for n in sizes:
        for op, mode in [*(("ravel_multi_index", m) for m in modes), ("unravel_index", "raise")]:
            ours, theirs = drop_in_calls(op, n, mode)
            calls = {"xlashape": ours, "numpy": theirs}
            if mode != "raise":
                calls["raise"] = drop_in_calls(op, n)[0]
            times = interleaved_times(calls, min_time, min_rounds)
            median = {name: statistics.median(t) for name, t in times.items()}
            record = {"op": op, "n": n, "mode": mode, **_against_numpy(times)}
            if "raise" in median:
                record.update(raise_s=median["raise"], raise_ratio=median["xlashape"] / median["raise"])
            records.append(record)
    for form, (op, args) in drop_in_forms().items():
        drop_in = ravel_multi_index if op == "ravel_multi_index" else unravel_index
        calls = {"xlashape": partial(drop_in, *args), "numpy": partial(getattr(np, op), *args)}
        records.append({"op": op, "n": 1, "form": form,
                        **_against_numpy(interleaved_times(calls, min_time, min_rounds))})
    return records


def _against_numpy(times: dict[str, list[float]]) -> dict[str, Any]:
    """The median seconds of the "xlashape" and "numpy" calls in
    ``times``, and how many times faster xlashape is, with its spread."""
    speedup, spread = round_ratios(times["numpy"], times["xlashape"])
    return {"xlashape_s": statistics.median(times["xlashape"]), "numpy_s": statistics.median(times["numpy"]),
            "speedup": speedup, "speedup_spread": spread}


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
        unchecked = numba_call(case, data, checked=False)
        if unchecked is not None:
            calls["numba unchecked"] = unchecked
        jax = jax_call(case, data)
        if jax is not None:
            calls["jax"] = jax
    copied = copy_bytes(case.bytes_moved)
    src = np.ones(copied // 8, dtype=np.int64)
    calls.update(copy_calls(src, np.zeros_like(src), threads))
    in_cache = traffic_call(case)
    if in_cache is not None:
        calls["traffic"] = in_cache
    times = interleaved_times(calls, min_time, min_repeats)
    median = {name: statistics.median(t) for name, t in times.items()}
    ours = median["xlashape"]
    copy_threads, copy_times = fastest_copy(times)
    copy_fraction, copy_spread = round_ratios(copy_times, times["xlashape"])
    record: dict[str, Any] = {
        **dataclasses.asdict(case),
        "threads": threads,
        "level": cpu.cpu_features()["level"],
        "xlashape_s": ours,
        "copy_s": statistics.median(copy_times),
        "copy_threads": copy_threads,
        "xlashape_meps": case.n / ours / 1e6,
        "copy_fraction": copy_fraction,
        "copy_fraction_spread": copy_spread,
        "copy_bytes": copied,
        "copy_streamed": copy_streams(copied // copy_threads, non_temporal_threshold()),
        "rounds": len(copy_times),
    }
    if numpy_names:
        best = min(numpy_names, key=median.__getitem__)
        speedup, speedup_spread = round_ratios(times[best], times["xlashape"])
        record.update(numpy_s={name: median[name] for name in numpy_names},
                      numpy_meps=case.n / median[best] / 1e6, speedup=speedup, speedup_spread=speedup_spread)
    if "numba" in median:
        record.update(numba_s=median["numba"], numba_meps=case.n / median["numba"] / 1e6)
    if "numba unchecked" in median:
        unchecked_s = median["numba unchecked"]
        record.update(numba_unchecked_s=unchecked_s, numba_unchecked_meps=case.n / unchecked_s / 1e6)
    if "jax" in median:
        record.update(jax_s=median["jax"], jax_meps=case.n / median["jax"] / 1e6,
                      jax_speedup=median["jax"] / ours)
    if "traffic" in median:
        record.update(traffic_s=median["traffic"], traffic_fraction=median["traffic"] / ours)
    # A tiled layout against the row-major one, and 'clip' or 'wrap' against
    # 'raise': the two calls alone, taking turns. Beside the calls above
    # (those that allocate, above all) the untiled one measured up to 2x
    # slower than alone (10^5 unravel), and cases run one after another
    # drift apart on a busy machine.
    if case.layout == "tiled":
        untiled = dataclasses.replace(case, layout="row-major")
        tiled_s, row_major_s = _taking_turns(
            calls["xlashape"], xlashape_call(untiled, make_case_data(untiled), threads), min_time, min_repeats)
        record.update(tiled_beside_row_major_s=tiled_s, row_major_s=row_major_s,
                      row_major_ratio=tiled_s / row_major_s)
    if case.mode != "raise":
        raised = dataclasses.replace(case, mode="raise")
        mode_s, raise_s = _taking_turns(
            calls["xlashape"], xlashape_call(raised, data, threads), min_time, min_repeats)
        record.update(mode_beside_raise_s=mode_s, raise_s=raise_s, raise_ratio=mode_s / raise_s)
    if no_out:
        fresh = median["xlashape without out="]
        record.update(no_out_s=fresh, no_out_meps=case.n / fresh / 1e6, no_out_fraction=ours / fresh)
        unused = median["xlashape without out=, no reuse"]
        record.update(no_reuse_s=unused, no_reuse_meps=case.n / unused / 1e6,
                      no_reuse_fraction=ours / unused)
    return record


def _taking_turns(first: Callable[[], object], second: Callable[[], object], min_time: float,
                  min_repeats: int) -> tuple[float, float]:
    """The median seconds of two calls that take turns, alone."""
    times = interleaved_times({"first": first, "second": second}, min_time, min_repeats)
    return statistics.median(times["first"]), statistics.median(times["second"])


def out_at(shape: tuple[int, ...], offset: int, alignment: int = ALIGNMENT) -> np.ndarray:
    """An uninitialised C-contiguous int64 array of ``shape`` whose data
    starts ``offset`` bytes past an ``alignment``-byte boundary: a slice of
    an over-allocated byte buffer."""
    if offset % 8 or not 0 <= offset < alignment:
        raise ValueError(f"offset must be a multiple of 8 in [0, {alignment}), got {offset}")
    nbytes = math.prod(shape) * 8
    raw = np.empty(nbytes + alignment, dtype=np.uint8)
    start = (offset - raw.ctypes.data) % alignment
    return raw[start:start + nbytes].view(np.int64).reshape(shape)


def alignment_times(case: Case, threads: int, min_time: float, min_rounds: int) -> dict[str, Any]:
    """xlashape's ``case`` into an out= at each of OUT_OFFSETS bytes past a
    64-byte boundary, on the same input, the calls taking turns: seconds
    per call and the time at 16 over the time at 0."""
    data = make_case_data(case)
    calls: dict[str, Callable[[], object]] = {}
    for offset in OUT_OFFSETS:
        outs = {"ravel_out": out_at((case.n,), offset), "unravel_out": out_at((case.n, case.rank), offset)}
        calls[str(offset)] = xlashape_call(case, {**data, **outs}, threads)
    times = interleaved_times(calls, min_time, min_rounds)
    median = {int(offset): statistics.median(t) for offset, t in times.items()}
    record: dict[str, Any] = {**dataclasses.asdict(case), "threads": threads,
                              "level": cpu.cpu_features()["level"]}
    for offset, seconds in median.items():
        record.update({f"out_{offset}_s": seconds, f"out_{offset}_meps": case.n / seconds / 1e6})
    record["misaligned_ratio"] = median[OUT_OFFSETS[0]] / median[OUT_OFFSETS[1]]
    return record


def alignment_cases(sizes: Sequence[int], thread_counts: Sequence[int]) -> list[tuple[Case, int]]:
    """The out= alignment section's cases: ravel and unravel, rank 4,
    int64, ALIGNMENT_LAYOUT, at each size and thread count."""
    return [(Case(op, n, layout=ALIGNMENT_LAYOUT), threads)
            for op in ("ravel", "unravel") for n in sizes for threads in thread_counts]


# -- what the run shows (report renders it) ------------------------------
def _mode(record: dict[str, Any]) -> str:
    return str(record.get("mode", "raise"))


def _streamed(record: dict[str, Any]) -> str | None:
    """Whether the case's copy streamed its stores: yes, no or unknown."""
    if "copy_streamed" not in record:
        return None
    return {True: "yes", False: "no", None: "unknown"}[record["copy_streamed"]]


def _mib(nbytes: int) -> str:
    return f"{nbytes / (1 << 20):.1f} MiB"


# A spread is wide where its rounds' middle half spans more than this
# fraction of the median: the machine was busy while they ran.
WIDE_SPREAD = 0.25
WIDE_MARK = "*"


def is_wide(record: dict[str, Any], name: str) -> bool:
    """Whether the spread of ``record[name]`` (``record[name + "_spread"]``,
    its 25th and 75th percentiles over rounds) is wide: more than
    WIDE_SPREAD of the median apart."""
    spread = record.get(name + "_spread")
    if name not in record or spread is None:
        return False
    low, high = spread
    return bool(high - low > WIDE_SPREAD * abs(record[name]))


def _marked(record: dict[str, Any], name: str, spec: str, suffix: str = "", *, unmarked: str = "") -> str:
    """A summary figure with its spread, then WIDE_MARK where that is wide
    (else ``unmarked``)."""
    shown = text(spread_field(name, spec, suffix)(record))
    return shown + (WIDE_MARK if is_wide(record, name) else unmarked)


CASE_COLUMNS = (
    Column("op", field("op"), key=True),
    Column("layout", field("layout"), key=True),
    Column("mode", _mode, key=True),
    Column("N", lambda r: _sizes_text([r["n"]]), key=True),
    Column("threads", field("threads"), key=True),
    Column("dtype", field("dtype"), key=True),
    Column("level", field("level"), key=True),
    Column("xlashape M/s", field("xlashape_meps", ".0f")),
    Column("NumPy M/s", field("numpy_meps", ".0f")),
    Column("speedup", spread_field("speedup", ".1f", "x")),
    Column("of copy limit", spread_field("copy_fraction", ".2f")),
    Column("copy threads", field("copy_threads")),
    Column("copy streamed", _streamed),
    Column("of traffic limit", field("traffic_fraction", ".2f")),
    Column("numba M/s", field("numba_meps", ".0f"), why_empty=why_no_numba),
    Column("numba unchecked M/s", field("numba_unchecked_meps", ".0f"), why_empty=why_no_numba),
    Column("JAX CPU M/s", field("jax_meps", ".0f"), why_empty=why_no_jax),
    Column("without out= M/s", field("no_out_meps", ".0f")),
    Column("without out=, no reuse M/s", field("no_reuse_meps", ".0f")),
    Column("time / row-major", field("row_major_ratio", ".2f")),
    Column("time / raise", field("raise_ratio", ".2f")),
)
ALIGNMENT_COLUMNS = (  # N first: a row starts with no op, unlike a case's
    Column("N", lambda r: _sizes_text([r["n"]]), key=True),
    Column("threads", field("threads"), key=True),
    Column("op", field("op"), key=True),
    Column("layout", field("layout"), key=True),
    Column("dtype", field("dtype"), key=True),
    Column("level", field("level"), key=True),
    *(Column(f"out= at {k} mod 64 M/s", field(f"out_{k}_meps", ".0f")) for k in OUT_OFFSETS),
    Column(f"time at {OUT_OFFSETS[0]} / at {OUT_OFFSETS[1]}", field("misaligned_ratio", ".2f")),
)
SCALAR_COLUMNS = (
    Column("one index, rank 4", field("op"), key=True),
    Column("xlashape ns", field("xlashape_ns", ".0f")),
    Column("NumPy ns", field("numpy_ns", ".0f")),
    Column("speedup", spread_field("speedup", ".1f", "x")),
)
DROP_IN_COLUMNS = (
    Column("drop-in (rank 4; forms rank 2)", lambda r: f"xs.{r.get('form', r['op'])}", key=True),
    Column("N", lambda r: "1 (one index)" if r["n"] == 1 else _sizes_text([r["n"]]), key=True),
    Column("mode", _mode, key=True),
    Column("xlashape us", field("xlashape_s", ".2f", scale=1e6)),
    Column("NumPy us", field("numpy_s", ".2f", scale=1e6)),
    Column("speedup", spread_field("speedup", ".1f", "x")),
    Column("time / raise", field("raise_ratio", ".2f")),
)


def new_sections() -> list[Section]:
    """The run's sections, empty: batch cases, out= alignment, one index,
    the drop-ins."""
    return [
        Section("cases", "Batches: million indices per second", CASE_COLUMNS),
        Section("alignment", f"out= alignment: the same call into out= at {OUT_OFFSETS[0]} and at "
                f"{OUT_OFFSETS[1]} bytes past a 64-byte boundary", ALIGNMENT_COLUMNS),
        Section("scalar", "One index at a time (IndexUtil)", SCALAR_COLUMNS),
        Section("drop_ins", "NumPy drop-ins against NumPy's own functions", DROP_IN_COLUMNS),
    ]


def headline(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cases the summary reads: int64 indices (where measured) at the
    largest N, with the most threads, one per (op, layout)."""
    if not records:
        return []
    dtype = "int64" if any(r["dtype"] == "int64" for r in records) else records[0]["dtype"]
    chosen = [r for r in records if r["dtype"] == dtype]
    n = max(r["n"] for r in chosen)
    chosen = [r for r in chosen if r["n"] == n]
    threads = max(r["threads"] for r in chosen)
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for r in chosen:
        if r["threads"] == threads:
            seen.setdefault((r["op"], r["layout"]), r)
    return list(seen.values())


def _where(info: dict[str, Any]) -> str:
    """The CPU, its vendor where known, and its cores."""
    vendor = f"{info['cpu_vendor']}, " if info.get("cpu_vendor") else ""
    return f"{info['cpu']} ({vendor}{info['cores']} cores)"


def opening_lines(info: dict[str, Any]) -> list[str]:
    """A run's first lines on stderr: the CPU, the level and NumPy's
    version, wrapped (a CPU's name can be long)."""
    return wrap(f"xlashape bench on {_where(info)}, level {info['level']}, NumPy {info['numpy']}")


def _threads(count: int) -> str:
    return f"{count} thread{'s' if count > 1 else ''}"


def threshold_text(info: dict[str, Any]) -> str:
    """glibc's non-temporal threshold, in words."""
    threshold = info.get("non_temporal_threshold")
    if threshold is None:
        return "glibc's non-temporal (streaming-store) threshold: unknown here"
    return f"glibc's non-temporal (streaming-store) threshold: {_mib(threshold)}"


def streaming_sentence(info: dict[str, Any], cases: Sequence[dict[str, Any]]) -> str:
    """The threshold, and whether the copy of ``cases`` (the summary's)
    streamed its stores."""
    streamed = {_streamed(r) for r in cases} - {None}
    if not streamed:
        return threshold_text(info) + "."
    sizes = sorted({r["copy_bytes"] for r in cases if "copy_bytes" in r})
    copied = " to ".join(_mib(b) for b in (sizes[0], sizes[-1])[: 1 if len(sizes) == 1 else 2])
    said = streamed.pop() if len(streamed) == 1 else "in some cases"
    return f"{threshold_text(info)}; the summary's copy ({copied}) streamed its stores: {said}."


def alignment_line(records: Sequence[dict[str, Any]]) -> list[str]:
    """The out= alignment ratios at the largest N, with the most threads."""
    if not records:
        return []
    n = max(r["n"] for r in records)
    threads = max(r["threads"] for r in records if r["n"] == n)
    chosen = [r for r in records if r["n"] == n and r["threads"] == threads]
    ratios = ", ".join(f"{r['op']} {r['misaligned_ratio']:.2f}" for r in chosen)
    return wrap(f"out= at {OUT_OFFSETS[0]} mod 64 against {OUT_OFFSETS[1]} mod 64, time ratio "
                f"(N = {_sizes_text([n])}, {chosen[0]['layout']}, {_threads(threads)}): {ratios}.")


def opening(info: dict[str, Any]) -> str:
    """The summary's first sentence: what xlashape does, and what it is
    measured against, where."""
    level = info["level"] if info["level"] == info["best_level"] else (
        f"{info['level']} (best here: {info['best_level']})")
    numba = f" and numba {info['numba']}" if info["numba"] else " (numba not installed)"
    return (f"xlashape {info['xlashape']} converts batches of multi-indices to linear memory offsets "
            f"and back, in any XLA layout. Measured on {_where(info)} at CPU level {level}, against "
            f"NumPy {info['numpy']}{numba}.")


SUMMARY_LABEL = 42  # the summary's label column
# The summary's columns: a header, and a record's figure as (field, format, suffix).
SUMMARY_FIGURES = (
    ("times faster than NumPy", ("speedup", ".1f", "x")),
    ("fraction of the copy limit", ("copy_fraction", ".2f", "")),
)
SUMMARY_CELL = 29  # each figure's column, its wide mark included


def busy_line(info: dict[str, Any]) -> list[str]:
    """What a wide spread means, and the load the machine had."""
    load = info.get("load_average")
    before = "" if load is None else (
        f" (its 1-minute load average was {load:.1f} as the run began, on {info['cores']} cores)")
    return wrap(f"{WIDE_MARK} Wide spread (over {WIDE_SPREAD:.0%} of the median): the machine was busy"
                f"{before}, so such figures change from run to run; rerun when it is idle.")


def why_above_one(info: dict[str, Any], cases: Sequence[dict[str, Any]]) -> str:
    """Why a fraction of the copy limit can pass 1, for ``cases`` (the
    summary's, of one size, dtype and thread count): what a ravel writes
    of its bytes against the copy's half; for several threads, a copy that
    gained nothing from them; for results xlashape streams, a copy that
    did not."""
    first = cases[0]
    per_index = Case("ravel", 1, dtype=first["dtype"]).bytes_moved // 8  # a ravel writes 8 of them
    why = ("Above 1 is no error: writing costs more than reading, and the copy writes half its bytes, "
           f"a ravel one in {per_index}")
    alone = [r["copy_threads"] < r["threads"] for r in cases if "copy_threads" in r]
    if any(alone):
        threads = _threads(first["threads"])
        why += ("; the copy ran on one thread (split from Python over {0}, it was slower), the call on {0}"
                if all(alone) else "; some copies ran on one thread (split from Python over {0}, they "
                "were slower), the calls on {0}").format(threads)
    stream = info.get("stream_bytes")
    if stream is not None and any(2 * r.get("copy_bytes", 0) >= stream and r.get("copy_streamed") is not True
                                  for r in cases):
        why += "; xlashape streams results this large past the cache, and this copy did not"
    return why + "."


def copy_limit_lines(info: dict[str, Any], cases: Sequence[dict[str, Any]]) -> list[str]:
    """What the copy limit is for ``cases`` (the summary's), and why a
    fraction of it can pass 1."""
    threads = max(r["threads"] for r in cases)
    split = "" if threads == 1 else f" (or split over {_threads(threads)}, if faster)"
    return wrap(f"The copy limit: np.copyto{split} of half the bytes the call reads plus writes, so "
                "that it reads and writes as many (1.00: as fast). " + why_above_one(info, cases))


def summary(info: dict[str, Any], sections: Sequence[Section]) -> list[str]:
    """A few lines: what xlashape does and where it ran; how many times
    faster than NumPy and what fraction of the copy limit, by operation
    and layout, at the largest N measured, each a median over rounds with
    its spread; what the copy limit is; the one-index calls; and, where a
    spread is wide, that the machine was busy. The machine's diagnostics
    are :func:`diagnostics`'s."""
    by_name = {s.name: s.records for s in sections}
    lines = wrap(opening(info))
    wide = False
    cases = headline(by_name["cases"])
    if cases:
        first = cases[0]
        title = f"N = {_sizes_text([first['n']])}, rank-4 {first['dtype']} indices, {_threads(first['threads'])}"
        lines += ["", title.ljust(SUMMARY_LABEL)
                  + "".join(header.rjust(SUMMARY_CELL) for header, _ in SUMMARY_FIGURES)]
        previous = None
        for r in cases:
            label = f"  {r['op'] if r['op'] != previous else '':9}{r['layout']}"
            previous = r["op"]
            cells = [_marked(r, *figure, unmarked=" ") for _, figure in SUMMARY_FIGURES]
            wide = wide or any(is_wide(r, figure[0]) for _, figure in SUMMARY_FIGURES)
            lines.append(label.ljust(SUMMARY_LABEL) + "".join(c.rjust(SUMMARY_CELL) for c in cells).rstrip())
        lines += [""] + wrap("Each figure: the median over rounds of all calls taking turns; in brackets, "
                             "its 25th-75th percentile.")
        lines += copy_limit_lines(info, cases)
    one = [(f"IndexUtil {r['op']}", r) for r in by_name["scalar"]]
    one += [(f"xs.{r['op']}", r) for r in by_name["drop_ins"]
            if r["n"] == 1 and "form" not in r and _mode(r) == "raise"]
    if one:
        parts = [f"{name} {_marked(r, 'speedup', '.1f', 'x')}" for name, r in one]
        wide = wide or any(is_wide(r, "speedup") for _, r in one)
        lines += [""] + wrap("One index, rank 4, times faster than NumPy: " + ", ".join(parts) + ".")
    if wide:
        lines += [""] + busy_line(info)
    return lines


def diagnostics(info: dict[str, Any], sections: Sequence[Section]) -> list[str]:
    """What ``--full`` says about the machine before its tables: glibc's
    streaming-store threshold and whether the summary's copy streamed its
    stores, and what an out= off a 64-byte boundary cost."""
    by_name = {s.name: s.records for s in sections}
    return wrap(streaming_sentence(info, headline(by_name["cases"]))) + alignment_line(
        by_name.get("alignment", []))


def caption(info: dict[str, Any]) -> str:
    """The tables' caption: the machine, the versions, the command, and
    what the columns mean."""
    numba = f", numba {info['numba']}" if info["numba"] else ""
    jax = f", JAX {info['jax']} on {info['jax_device']}" if info.get("jax") else ""
    vendor = f" ({info['cpu_vendor']})" if info.get("cpu_vendor") else ""
    return (
        f"rank 4; {info['cpu']}{vendor}, {info['cores']} cores, kernels at level {info['level']}; "
        f"{threshold_text(info)}; {hugepages_text(info)}; "
        f"Python {info['python']}, NumPy {info['numpy']}{numba}{jax}, xlashape {info['xlashape']}; "
        f"command: {info['command']}. Every call ran on this CPU; NumPy and numba on one thread. "
        "'speedup': NumPy's time over xlashape's, a median over interleaved rounds, with (in "
        "brackets) its 25th-75th percentile. 'of copy limit': likewise, the copy limit's time "
        "over xlashape's; the copy limit is np.copyto of half as many bytes as the call reads "
        "plus writes (so that it reads and writes as many), on one thread, or split over the "
        "case's threads where that was faster ('copy threads' says which). 'of traffic limit' "
        f"(up to {IN_CACHE_BYTES >> 20} MiB): the median time of a single-thread vectorised "
        "loop that reads and writes exactly the operation's bytes, over xlashape's. 'copy "
        "streamed': whether each part of the copy (glibc's memmove) copied at least the "
        "non-temporal threshold, so streamed its stores past the cache (unknown where the "
        "threshold is). 'numba M/s': numba's loop, bounds-checked; 'numba unchecked M/s': "
        "numba's loop with the rank static (strides a tuple) and no check. JAX: jax.jit on "
        "JAX's CPU device (never a GPU), warm, block_until_ready, with jax_enable_x64 (the "
        "case's dtype), 'clip' for 'raise', on its own threads, reading the same (N, rank) rows "
        "or offsets. 'out= alignment': xlashape's call into out= at "
        f"{OUT_OFFSETS[0]} and at {OUT_OFFSETS[1]} bytes past a 64-byte boundary, the two taking "
        "turns; 'time at 16 / at 0' is the first's median time over the second's."
    )


def tables(info: dict[str, Any], sections: Sequence[Section], render: Callable[[Section], list[str]]) -> list[str]:
    """Every section that has records, by ``render``, under its title; then
    the caption."""
    lines: list[str] = []
    for section in sections:
        body = render(section)
        if body:
            lines += [f"{section.title}:", "", *body, ""]
    return lines + wrap(caption(info))


# -- arguments --------------------------------------------------------------------
# The largest count an argument takes: int64's largest, the most elements
# an array can have.
MAX_COUNT = 2**63 - 1


def _counts(text: str) -> list[int]:
    """Comma-separated counts from 1 to MAX_COUNT, each an integer or an
    integral number such as 1e5 (what --help prints as defaults)."""
    values = []
    for item in filter(None, (v.strip().replace("_", "") for v in text.split(","))):
        try:
            number = decimal.Decimal(item)
        except decimal.InvalidOperation:
            number = decimal.Decimal("nan")
        if not number.is_finite() or number != number.to_integral_value():
            raise argparse.ArgumentTypeError(
                f"expected whole numbers such as 1000 or 1e3, separated by commas, got {text!r}"
            )
        if not 1 <= number <= MAX_COUNT:
            raise argparse.ArgumentTypeError(f"expected numbers from 1 to {MAX_COUNT:.1e}, got {text!r}")
        values.append(int(number))
    if not values:
        raise argparse.ArgumentTypeError(f"expected numbers >= 1, got {text!r}")
    return values


def _name_list(choices: tuple[str, ...]) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        names = [v.strip() for v in text.split(",") if v.strip()]
        bad = [n for n in names if n not in choices]
        if bad or not names:
            raise argparse.ArgumentTypeError(f"expected some of {', '.join(choices)}, got {text!r}")
        return names

    return parse


def _sizes_text(sizes: Sequence[int]) -> str:
    return ",".join(f"{n:.0e}".replace("e+0", "e").replace("e+", "e") for n in sizes)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    grid = parser.add_mutually_exclusive_group()
    grid.add_argument("--quick", action="store_true",
                      help=f"the default grid: sizes {_sizes_text(QUICK_SIZES)}, int64, short timing (seconds)")
    grid.add_argument("--long", action="store_true",
                      help=f"the long grid: sizes {_sizes_text(DEFAULT_SIZES)}, int64 and int32, longer "
                           "timing, drop-ins up to 1e7 (minutes)")
    parser.add_argument("--full", action="store_true",
                        help="print every measurement in tables after the summary")
    parser.add_argument("--json", metavar="FILE", help="also write every measurement to FILE as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="also write the full tables to FILE as Markdown")
    parser.add_argument("--plot", metavar="FILE.png", help="draw throughput against N (needs matplotlib)")
    parser.add_argument("--threads", type=_counts, metavar="T,T,...",
                        help="thread counts to sweep (default: 1 and get_num_threads())")
    parser.add_argument("--sizes", type=_counts, metavar="N,N,...",
                        help=f"batch sizes (default: {_sizes_text(QUICK_SIZES)}; "
                             f"--long: {_sizes_text(DEFAULT_SIZES)})")
    parser.add_argument("--dtypes", type=_name_list(("int64", "int32")), metavar="D,D",
                        help="index dtypes (default: int64; --long: int64,int32)")
    parser.add_argument("--layouts", type=_name_list(LAYOUTS), metavar="L,L",
                        help=f"layouts, of {', '.join(LAYOUTS)} (default: row-major,padded,tiled)")
    parser.add_argument("--levels", type=_name_list(cpu.LEVELS), metavar="L,L",
                        help="CPU levels to compare (default: the one in use)")
    parser.add_argument("--relayout", action="store_true",
                        help="time to_linear and from_linear instead (xlashape.cli.bench.relayout)")
    parser.add_argument("--modes", type=_name_list(MODES), metavar="M,M",
                        help="ravel modes; 'clip' and 'wrap' run the row-major ravel cases "
                        "(default: raise; --long: raise,clip,wrap) and the drop-in ravel "
                        "(default: raise,clip,wrap)")


# -- memory ------------------------------------------------------------------------
def case_memory(case: Case) -> int:
    """About the most bytes a case holds at once: its input and warm
    buffers (twice for a tiled case, which also times the row-major one),
    the results NumPy and the calls without out= allocate, and the copy."""
    rows = case.n * case.rank * np.dtype(case.dtype).itemsize
    data = rows + case.n * np.dtype(case.dtype).itemsize + case.n * 8 + case.n * case.rank * 8
    results = 2 * case.n * case.rank * 8
    return data * (2 if case.layout == "tiled" else 1) + results + case.bytes_moved


def available_memory() -> int | None:
    """Bytes of memory free for use (MemAvailable), or None where unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return None


def _bytes_text(n: float) -> str:
    for scale, unit in ((1e18, "EB"), (1e15, "PB"), (1e12, "TB"), (1e9, "GB"), (1e6, "MB")):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n / 1e3:.0f} kB"


# Bytes no machine has: a 64-bit address space.
ADDRESS_SPACE = 1 << 64


def check_memory(cases: Sequence[Case], available: int | None) -> None:
    """CommandError, before anything is measured, if the largest case
    cannot fit in ``available`` bytes (None: unknown) or in any 64-bit
    machine's memory."""
    if not cases:
        return
    biggest = max(cases, key=case_memory)
    need = case_memory(biggest)
    what = f"--sizes {biggest.n:.0e}"
    if need >= ADDRESS_SPACE:
        raise CommandError(f"{what} is too large: one case would need more memory than a 64-bit machine "
                           f"can address ({_bytes_text(ADDRESS_SPACE)})", EXIT_USAGE)
    if available is not None and need > available:
        raise CommandError(
            f"{what} needs about {_bytes_text(need)} of memory for one case "
            f"({biggest.op}, {biggest.layout}, {biggest.dtype}); {_bytes_text(available)} is "
            "available here",
            EXIT_USAGE,
        )


# -- the run -------------------------------------------------------------------------
class _Progress:
    """``[k/K] what`` on stderr: one line redrawn in place on a terminal,
    a line each otherwise."""

    def __init__(self) -> None:
        self.terminal = sys.stderr.isatty()
        self.drawn = 0

    def __call__(self, text: str) -> None:
        if self.terminal:
            text = text[: WIDTH - 1]
            sys.stderr.write("\r" + text.ljust(self.drawn))
            self.drawn = len(text)
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def clear(self) -> None:
        if self.terminal and self.drawn:
            sys.stderr.write("\r" + " " * self.drawn + "\r")
            sys.stderr.flush()
        self.drawn = 0


def run(args: argparse.Namespace) -> int:
    if args.relayout:
        return relayout.run(args)
    long = args.long
    sizes = args.sizes or (DEFAULT_SIZES if long else QUICK_SIZES)
    min_time, min_repeats = (0.3, 7) if long else (0.1, 5)
    thread_counts = args.threads or sorted({1, get_num_threads()})
    dtypes = args.dtypes or (["int64", "int32"] if long else ["int64"])
    layouts = args.layouts or ["row-major", "padded", "tiled"]
    levels = args.levels or [cpu.cpu_features()["level"]]
    modes = args.modes or (list(MODES) if long else ["raise"])
    supported = tuple(cpu.LEVELS[: cpu.LEVELS.index(str(cpu.cpu_features()["best"])) + 1])
    unsupported = [level for level in levels if level not in supported]
    if unsupported:
        raise CommandError(f"this CPU lacks the level(s) {', '.join(unsupported)}", EXIT_USAGE)
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
    check_memory([case for case, _, _ in cases], available_memory())
    info = machine()
    for line in opening_lines(info):
        print(line, file=sys.stderr)
    sections = new_sections()
    records, alignment, scalars, drop_ins = (s.records for s in sections)
    progress = _Progress()
    interrupted = False
    previous = cpu.set_cpu_level(levels[0])
    try:
        for k, (case, threads, level) in enumerate(cases, 1):
            cpu.set_cpu_level(level)
            progress(f"[{k}/{len(cases)}] {case.op} {case.mode} {case.dtype} {case.layout} N={case.n:.0e} "
                     f"threads={threads} level={level}")
            records.append(run_case(case, threads, min_time, min_repeats, no_out=case.n >= 10**5))
        cpu.set_cpu_level(previous)
        for k, (case, threads) in enumerate(alignment_cases(sizes, thread_counts), 1):
            progress(f"[alignment {k}] {case.op} N={case.n:.0e} threads={threads}: out= at 16 and 0 mod 64")
            alignment.append(alignment_times(case, threads, min_time, min_repeats))
        progress("[scalar] one index at a time")
        scalars += scalar_times(number=7000 if long else 700)
        progress("[drop-ins] xs.ravel_multi_index and xs.unravel_index against NumPy's")
        drop_ins += drop_in_times(DROP_IN_SIZES if long else QUICK_DROP_IN_SIZES, min_time, min_repeats,
                                  args.modes or MODES)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        cpu.set_cpu_level(previous)
        progress.clear()
    if interrupted:
        print(f"{PROG}: interrupted: showing the {len(records)} of {len(cases)} cases measured",
              file=sys.stderr)
    print("\n".join(summary(info, sections)))
    if args.full:
        print("\n" + "\n".join(diagnostics(info, sections) + [""] + tables(info, sections, text_table)))
    else:
        print("\n" + "\n".join(wrap(
            "Every measurement: xlashape bench --full (or --json FILE, --markdown FILE)"
            + ("." if long else "; a longer run: --long."))))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(tables(info, sections, markdown_table)) + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(json_document(info, sections, interrupted=interrupted), f, indent=2)
    if args.plot and records:
        plot(records, args.plot, caption(info))
    return EXIT_INTERRUPTED if interrupted else 0
