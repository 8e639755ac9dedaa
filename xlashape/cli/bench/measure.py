"""The measuring both benches share (``suite`` and ``relayout``): calls
timed taking turns, the copy limit (the fastest copy of the bytes a call
moves, on one thread or split over several) and the record of the machine
the numbers were measured on.
"""

from __future__ import annotations

import functools
import itertools
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from ... import __version__, cpu, get_num_threads
from .machine import cpu_model, cpu_vendor, non_temporal_threshold, transparent_hugepages
from .peers import jax_device, jax_version, numba_version

__all__ = [
    "ALIGNMENT", "COPY_ON", "calls_per_sample", "copy_bytes", "copy_calls", "fastest_copy",
    "hugepages_text", "interleaved_times", "load_average", "machine", "split_copy_call",
]

# Bytes of the boundary a split copy cuts at (a cache line), and that the
# out= alignment section counts from.
ALIGNMENT = 64


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
    ``min_rounds`` rounds ran (at most 200). Each round takes the calls in
    a new order (seeded), so that no call always follows the same one: a
    call that reads the rows the call before it read finds them in cache,
    and in a fixed order numba's unchecked loop always followed its
    bounds-checked one."""
    numbers = {name: calls_per_sample(call) for name, call in calls.items()}
    times: dict[str, list[float]] = {name: [] for name in calls}
    order = list(calls.items())
    shuffle = random.Random(0).shuffle
    start = time.perf_counter()
    rounds = 0
    while rounds < min_rounds or (time.perf_counter() - start < min_time and rounds < 200):
        shuffle(order)
        for name, call in order:
            number = numbers[name]
            t0 = time.perf_counter()
            for _ in range(number):
                call()
            times[name].append((time.perf_counter() - t0) / number)
        rounds += 1
    return times


def copy_bytes(nbytes: int) -> int:
    """The bytes the copy limit copies for ``nbytes`` of traffic: half
    of them, in whole int64s (at least one)."""
    return max(nbytes // 2 // 8, 1) * 8


# The copy limit's calls are named COPY_ON plus their thread count.
COPY_ON = "copy on "


@functools.cache
def _copy_workers(workers: int) -> ThreadPoolExecutor:
    """Threads that copy parts of a split copy, kept for the process."""
    return ThreadPoolExecutor(workers, thread_name_prefix="xlashape-bench-copy")


def split_copy_call(src: np.ndarray, dst: np.ndarray, threads: int) -> Callable[[], object]:
    """``np.copyto(dst, src)`` of two equal 1-D arrays cut into ``threads``
    parts (at 64-byte multiples) that this thread and ``threads - 1``
    workers copy at once; ``np.copyto`` lets go of the GIL as it copies."""
    step = max(ALIGNMENT // src.itemsize, 1)
    cuts = [min(round(len(src) * k / threads / step) * step, len(src)) for k in range(threads + 1)]
    cuts[-1] = len(src)
    parts = [(dst[a:b], src[a:b]) for a, b in itertools.pairwise(cuts) if b > a]
    pool = _copy_workers(max(threads - 1, 1))

    def call() -> None:
        started = [pool.submit(np.copyto, d, s) for d, s in parts[1:]]
        np.copyto(*parts[0])
        for copy in started:
            copy.result()

    return call


def copy_calls(src: np.ndarray, dst: np.ndarray, threads: int) -> dict[str, Callable[[], object]]:
    """The copy limit's calls, each copying 1-D ``src`` into ``dst``, by
    name: one ``np.copyto`` on one thread and, for ``threads`` > 1, the
    same copy split over that many (:func:`split_copy_call`); the limit is
    the faster (:func:`fastest_copy`)."""
    calls: dict[str, Callable[[], object]] = {COPY_ON + "1": lambda: np.copyto(dst, src)}
    if threads > 1:
        calls[COPY_ON + str(threads)] = split_copy_call(src, dst, threads)
    return calls


def fastest_copy(times: dict[str, list[float]]) -> tuple[int, list[float]]:
    """The copy limit among the :func:`copy_calls` timed in ``times``: the
    copy of the smallest median time, as its thread count and its seconds
    per round."""
    name = min((n for n in times if n.startswith(COPY_ON)), key=lambda n: statistics.median(times[n]))
    return int(name[len(COPY_ON):]), times[name]


def load_average() -> float | None:
    """The system's 1-minute load average (the number of threads running
    or waiting to run, averaged), or None where not known."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def hugepages_text(info: dict[str, Any]) -> str:
    """Linux's transparent huge page mode in ``info`` (machine()), in words."""
    return f"transparent huge pages: {info.get('transparent_hugepages') or 'unknown here'}"


def machine() -> dict[str, Any]:
    """What the numbers were measured on: the CPU, its vendor, glibc's
    non-temporal threshold in bytes and Linux's transparent huge page mode
    (each None where not known), the 1-minute load average as the run
    begins (None where not known), the levels, the versions, and the
    device the JAX peer runs on."""
    features = cpu.cpu_features()
    libc, libc_version = platform.libc_ver()
    return {
        "cpu": cpu_model(),
        "cpu_vendor": cpu_vendor(),
        "libc": f"{libc} {libc_version}" if libc else None,
        "non_temporal_threshold": non_temporal_threshold(),
        "transparent_hugepages": transparent_hugepages(),
        "load_average": load_average(),
        "cores": os.cpu_count(),
        "threads_default": get_num_threads(),
        "level": features["level"],
        "best_level": features["best"],
        "stream_bytes": features["stream_bytes"],
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba_version(),
        "jax": jax_version(),
        "jax_device": jax_device(),
        "xlashape": __version__,
        "command": "xlashape bench " + " ".join(sys.argv[2:] if sys.argv[1:2] == ["bench"] else sys.argv[1:]),
    }
