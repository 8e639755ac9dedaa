"""How xlashape.dask.ravel scales: threads, a two-process cluster, one process.

Ravels N multi-indices of rank 3 (int64, uniform in s32[1000,1000,1000],
row-major) held in row chunks, and prints a markdown table of wall
times. With xlashape installed (or ``PYTHONPATH=.`` in a source tree built in
place), from the repository root::

    python benchmarks/dask_scaling.py [--rows 1e8] [--chunk 1e7] [--repeat 5]

The cases:

- ``xlashape.ravel`` on one NumPy array in this process, with the default
  thread count and with one thread: the baseline every ratio is taken
  against.
- ``xlashape.dask.ravel`` and ``dask.array.ravel_multi_index`` on the
  threaded scheduler, the indices already in memory as Dask chunks.
- The same on a ``distributed.LocalCluster`` of ``--workers`` processes
  with one thread each. The indices are made in the cluster
  (``dask.array.random``, chunk by chunk on the workers) and persisted
  there, so they never cross from this process.

Each Dask case is timed twice: with the result left in chunks where it was
computed (``persist``), and gathered into one NumPy array here
(``compute``), which adds assembling, and for the cluster transferring, the
N int64 results. Dask times include building the graph: each run clones
it with keys of its own, so that no run can reuse another's results. The
table gives the median and the minimum of ``--repeat`` runs after one
warm-up run, and ratios of medians. This is a script, not a test: it
asserts nothing about time.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

import xlashape

try:
    import dask
    import dask.array as da
    import distributed
    from dask.graph_manipulation import clone
except ImportError:
    sys.exit('this benchmark needs Dask: pip install "dask[array]" distributed')

import xlashape.dask as xd

SHAPE = xlashape.ShapeUtil.parse_shape_string("s32[1000,1000,1000]{2,1,0}")
# The same row-major layout, as dask.array.ravel_multi_index takes it.
DIMS, ORDER = SHAPE.dimensions, "C"


def time_runs(run: Callable[[], object], repeat: int) -> list[float]:
    """Wall times of ``repeat`` runs of ``run()``, after a warm-up run."""
    run()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return times


def machine() -> str:
    """CPU model, cores and memory of this machine."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            names = (line.split(":", 1)[1] for line in info if line.startswith("model name"))
            model = next(names).strip()
    except (OSError, StopIteration):
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{model}, {os.cpu_count()} cores, {memory:.0f} GiB, {platform.system()}"


def threads_label(count: int) -> str:
    """Where the single-process runs ran."""
    return f"1 process, {count} thread{'s' if count > 1 else ''}"


def single_process_times(rows: int, repeat: int) -> dict[tuple[str, str], list[float]]:
    """Times of xlashape.ravel on one NumPy array, default and 1 thread."""
    local = np.random.default_rng(0).integers(0, 1000, size=(rows, 3))
    times = {}
    for threads in (None, 1):
        count = xlashape.get_num_threads() if threads is None else threads
        times["xlashape.ravel (NumPy)", threads_label(count)] = time_runs(
            lambda: xlashape.ravel(local, SHAPE, threads=threads),  # noqa: B023 (run at once)
            repeat,
        )
    return times


def dask_cases(indices: da.Array, scheduler: object, repeat: int) -> dict[str, list[float]]:
    """Times of the four Dask runs on ``indices``, computed on ``scheduler``."""
    ours = xd.ravel(indices, SHAPE)
    theirs = da.ravel_multi_index(indices.T, DIMS, order=ORDER)
    if not da.all(ours == theirs).compute(scheduler=scheduler):
        raise AssertionError("xlashape.dask.ravel and dask.array.ravel_multi_index disagree")
    if isinstance(scheduler, distributed.Client):

        def persist(result: da.Array) -> None:
            distributed.wait(scheduler.persist(result))

    else:

        def persist(result: da.Array) -> None:
            result.persist(scheduler=scheduler)

    def compute(result: da.Array) -> None:
        result.compute(scheduler=scheduler)

    # Each run works on a clone with keys of its own: the cluster's scheduler
    # would hand back results it still holds from the run before.
    return {
        f"{name}, {how.__name__}": time_runs(
            lambda: how(clone(result, omit=indices)),  # noqa: B023 (run at once)
            repeat,
        )
        for how in (persist, compute)
        for name, result in (("xlashape.dask.ravel", ours), ("dask.array.ravel_multi_index", theirs))
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=float, default=1e8, help="multi-indices in all (default 1e8)")
    parser.add_argument("--chunk", type=float, default=1e7, help="rows per chunk (default 1e7)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per case (default 5)")
    parser.add_argument("--workers", type=int, default=2, help="cluster processes (default 2)")
    args = parser.parse_args()
    rows, chunk = int(args.rows), int(args.chunk)

    print(f"command: python {' '.join(sys.argv)}")
    print(f"machine: {machine()}")
    print(
        f"versions: Python {platform.python_version()}, NumPy {np.__version__}, "
        f"Dask {dask.__version__}, distributed {distributed.__version__}, "
        f"xlashape {xlashape.__version__}"
    )
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    print(f"data: {rows:.3g} int64 multi-indices of rank 3 in {SHAPE}, chunks of {chunk:.3g} rows")
    print(flush=True)

    times = single_process_times(rows, args.repeat)
    threaded = f"threaded scheduler, {os.cpu_count()} threads"
    indices = da.random.default_rng(0).integers(0, 1000, size=(rows, 3), chunks=(chunk, 3))
    in_memory = indices.persist(scheduler="threads")
    for case, runs in dask_cases(in_memory, "threads", args.repeat).items():
        times[case, threaded] = runs
    del in_memory

    where = f"LocalCluster, {args.workers} processes x 1 thread"
    with distributed.LocalCluster(
        n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        # Made and kept on the workers: the graph holds no data.
        in_cluster = client.persist(indices)
        distributed.wait(in_cluster)
        for case, runs in dask_cases(in_cluster, client, args.repeat).items():
            times[case, where] = runs

    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    print()
    median = {key: statistics.median(runs) for key, runs in times.items()}
    baseline = median["xlashape.ravel (NumPy)", threads_label(xlashape.get_num_threads())]
    print(
        "| what | where | median s | min s | M rows/s | speed vs 1-process xlashape "
        "| speed vs dask.array.ravel_multi_index |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for (case, place), seconds in median.items():
        versus = ""
        if case.startswith("xlashape.dask.ravel"):
            rival = case.replace("xlashape.dask.ravel", "dask.array.ravel_multi_index")
            versus = f"{median[rival, place] / seconds:.1f}x"
        print(
            f"| {case} | {place} | {seconds:.3f} | {min(times[case, place]):.3f} "
            f"| {rows / seconds / 1e6:.0f} | {baseline / seconds:.2f}x | {versus} |"
        )


if __name__ == "__main__":
    main()
