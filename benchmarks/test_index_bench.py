"""The benchmark grid: xlashape against NumPy's best equivalents (and numba
when it is installed), on identical input in the same session.

The default ``pytest`` run collects one small case per implementation,
operation, dtype and layout, runs each once (``--benchmark-disable``) and
checks that every implementation agrees. The full grid is opt-in: run
``XLASHAPE_BENCH=1 pytest benchmarks --benchmark-enable`` (add
``XLASHAPE_BENCH_FULL=1`` for N = 10**7, ``XLASHAPE_BENCH_THREADS=1,2,4``
for a thread sweep, and ``--benchmark-json FILE`` for throughput and
ratios).
"""

import functools
import os

import numba_peer
import numpy as np
import pytest

import xlashape as xs
from xlashape.cli.bench.suite import (
    LAYOUTS,
    Case,
    drop_in_calls,
    make_case_data,
    numpy_equivalents,
    xlashape_call,
)

GRID = bool(os.environ.get("XLASHAPE_BENCH"))
if GRID:
    SIZES: tuple[int, ...] = (1, 10**3, 10**4, 10**5) + ((10**7,) if os.environ.get("XLASHAPE_BENCH_FULL") else ())
    RANKS: tuple[int, ...] = (1, 2, 4, 8)
    THREADS = sorted({1, xs.get_num_threads(), *(
        int(t) for t in os.environ.get("XLASHAPE_BENCH_THREADS", "").split(",") if t.strip())})
else:  # the agreement check of the default run
    SIZES, RANKS, THREADS = (10**3,), (4,), [1, 2]
# The drop-ins as users call them; 1 is one multi-index of ints, or one int.
DROP_IN_SIZES = (1, 10, 10**3) + ((10**5,) if GRID else ()) + (
    (10**7,) if os.environ.get("XLASHAPE_BENCH_FULL") else ())
DTYPES = ("int32", "int64")
# (implementation, threads): only xlashape has a thread count.
IMPLS = sorted({*(("xlashape", t) for t in THREADS), ("numpy", 1), ("numpy a.T", 1), ("numba", 1)})
OPS = ("ravel", "unravel")


def applies(impl: str, op: str, layout: str) -> bool:
    """Whether ``impl`` has a form for ``op`` on ``layout`` here: numba
    only where it is installed, NumPy and numba's plain loops know no
    tiles, and NumPy's ``a.T`` form (the multi-index as it lies, no
    reordering) fits only a row-major ravel."""
    if impl == "xlashape":
        return True
    if layout == "tiled" or (impl == "numba" and numba_peer.numba is None):
        return False
    return impl != "numpy a.T" or (op == "ravel" and layout == "row-major")


# Only the combinations that exist: none generated just to be skipped.
BATCH_CASES = [
    pytest.param(impl, threads, op, layout, id=f"{impl.replace(' ', '')}-{threads}-{op}-{layout}")
    for impl, threads in IMPLS
    for op in OPS
    for layout in LAYOUTS
    if applies(impl, op, layout)
]


@functools.lru_cache(maxsize=4)
def case_data(case: Case) -> dict:
    return make_case_data(case)


def implementation(impl: str, case: Case, threads: int):
    """The call to time (``impl`` applies to ``case``; see ``applies``)."""
    data = case_data(case)
    if impl == "xlashape":
        return xlashape_call(case, data, threads)
    if impl == "numba":
        if case.op == "ravel":
            return numba_peer.ravel_call(case.shape, data["rows"], data["ravel_out"])
        return numba_peer.unravel_call(case.shape, data["offsets"], data["unravel_out"])
    return numpy_equivalents(case, data)[impl]


def expected(case: Case) -> np.ndarray:
    """The oracle every implementation must match: NumPy's answer; for a
    tiled layout, which NumPy lacks, the rows themselves (unravel) or the
    single-index calls, one row at a time (ravel)."""
    data = case_data(case)
    if case.shape.layout.tiles:
        if case.op == "unravel":
            return data["rows"]
        ravel_one = xs.IndexUtil.multidimensional_index_to_linear_index
        return np.array([ravel_one(case.shape, tuple(row)) for row in data["rows"].tolist()])
    return np.array(numpy_equivalents(case, data)["numpy"](), copy=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("rank", RANKS, ids=lambda r: f"r{r}")
@pytest.mark.parametrize("n", SIZES, ids=lambda n: f"N{n:.0e}")
@pytest.mark.parametrize("impl, threads, op, layout", BATCH_CASES)
def test_batch(benchmark, impl, threads, op, n, rank, dtype, layout):
    case = Case(op, n, rank, dtype, layout)
    call = implementation(impl, case, threads)
    call()  # warm up (and compile, for numba)
    benchmark.group = f"{op} N={n:.0e} rank={rank} {dtype} {layout}"
    benchmark.extra_info.update(impl=impl, elements=n, threads=threads)
    result = np.array(benchmark(call), copy=True)  # before the oracle reuses the buffers
    np.testing.assert_array_equal(result, expected(case))


@pytest.mark.parametrize("impl", ("xlashape", "numpy"))
@pytest.mark.parametrize("op", OPS)
def test_scalar(benchmark, impl, op):
    shape = Case(op, 1).shape
    index = (50, 20, 10, 5)
    offset = xs.IndexUtil.multidimensional_index_to_linear_index(shape, index)
    calls = {
        ("xlashape", "ravel"): lambda: xs.IndexUtil.multidimensional_index_to_linear_index(shape, index),
        ("numpy", "ravel"): lambda: np.ravel_multi_index(index, shape.dimensions),
        ("xlashape", "unravel"): lambda: xs.IndexUtil.linear_index_to_multidimensional_index(shape, offset),
        ("numpy", "unravel"): lambda: np.unravel_index(offset, shape.dimensions),
    }
    benchmark.group = f"scalar {op} rank=4"
    benchmark.extra_info.update(impl=impl, elements=1)
    result = benchmark(calls[impl, op])
    assert result == (offset if op == "ravel" else index)


@pytest.mark.parametrize("n", DROP_IN_SIZES, ids=lambda n: f"N{n:.0e}")
@pytest.mark.parametrize("impl", ("xlashape", "numpy"))
@pytest.mark.parametrize("op", ("ravel_multi_index", "unravel_index"))
def test_drop_in(benchmark, impl, op, n):
    ours, theirs = drop_in_calls(op, n)
    benchmark.group = f"drop-in {op} N={n:.0e} rank=4"
    benchmark.extra_info.update(impl=impl, elements=n)
    result = benchmark(ours if impl == "xlashape" else theirs)
    expected = theirs()
    assert type(result) is type(expected)
    for got, want in zip(*(r if isinstance(r, tuple) else (r,) for r in (result, expected))):
        assert type(got) is type(want)
        np.testing.assert_array_equal(got, want)
