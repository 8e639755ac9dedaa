"""How many threads the batch kernels use.

Large batches are cut into chunks that the calling thread and the workers
of a persistent pool (written in C, csrc/runtime/pool.c) take in turn; every
kernel runs without the GIL. Results never depend on the thread count.

The default is the number of CPUs this process may use: its CPU affinity,
capped by a cgroup CPU quota when one is set (as in containers), and
overridden by the ``XLASHAPE_NUM_THREADS`` environment variable. A call
never runs on more threads than those CPUs (measured at import), nor than
``MAX_THREADS``, whatever ``threads=`` asks: more would only take turns on
the same CPUs. When another thread of the process is already running a
call on the pool, a call runs on its own thread instead of queueing.

``threads=`` is the most a call may use. How many it does use is decided
per call, from what it costs: its time on one thread (its bytes, or rows,
times the rate measured for its kind of call at the CPU level in use),
the time a worker takes to start on it, and what each worker costs the
call on top (waking it, handing it chunks). A call on ``w`` threads takes
about ``(work + (w - 1) * start) / w + (w - 1) * per_worker``; each call
gets the ``w`` that makes that least, so a mid-size batch runs on the few
workers that pay for themselves, a small one alone, a large one on all.
The rates and costs are medians of the last few calls' measurements, so
no one slow call changes the next decision, and a busy machine, where
workers start late, soon splits less.
"""

from __future__ import annotations

import math
import os

from . import _batch

__all__ = ["get_num_threads", "set_num_threads", "available_cpus", "MAX_THREADS"]

MAX_THREADS: int = _batch.MAX_THREADS


def _cgroup_cpu_limit() -> float | None:
    """The CPU quota of this process's cgroup (v2 ``cpu.max`` or v1
    ``cfs_quota_us``/``cfs_period_us``), in CPUs; None when unlimited or
    unknown."""
    candidates = [
        ("/sys/fs/cgroup/cpu.max", None),
        ("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "/sys/fs/cgroup/cpu/cpu.cfs_period_us"),
    ]
    for quota_path, period_path in candidates:
        try:
            with open(quota_path) as f:
                fields = f.read().split()
            if period_path is not None:
                with open(period_path) as f:
                    fields.append(f.read().strip())
        except OSError:
            continue
        if len(fields) < 2 or fields[0] in ("max", "-1"):
            return None
        try:
            quota, period = int(fields[0]), int(fields[1])
        except ValueError:
            return None
        return quota / period if quota > 0 and period > 0 else None
    return None


def available_cpus() -> int:
    """The number of CPUs this process may use: its affinity mask, capped by
    a cgroup CPU quota (rounded up), at least 1."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        count = os.cpu_count() or 1
    limit = _cgroup_cpu_limit()
    if limit is not None:
        count = min(count, max(1, math.ceil(limit)))
    return max(count, 1)


def _initial_threads() -> int:
    value = os.environ.get("XLASHAPE_NUM_THREADS", "").strip()
    if value:
        try:
            return int(_batch.check_threads(int(value)))
        except ValueError:
            raise ValueError(
                f"XLASHAPE_NUM_THREADS must be an integer >= 1, got {value!r}"
            ) from None
    return available_cpus()


def get_num_threads() -> int:
    """The number of threads a batch call uses when ``threads`` is None.

    Returns
    -------
    int
        The default thread count: the number of CPUs this process may use
        (or ``XLASHAPE_NUM_THREADS``) at import, or the value last given to
        :func:`set_num_threads`.

    See Also
    --------
    set_num_threads : change it.

    Examples
    --------
    >>> xs.get_num_threads() >= 1
    True
    """
    return int(_batch.get_default_threads())


def set_num_threads(threads: int) -> int:
    """Set the default thread count of the batch calls.

    Calls given ``threads=None`` (the default) use it. Results never depend
    on the thread count; small batches stay on the calling thread anyway.

    Parameters
    ----------
    threads : int
        The new default, at least 1.

    Returns
    -------
    int
        The previous default, so that it can be restored.

    Raises
    ------
    ValueError
        If ``threads`` is less than 1.
    TypeError
        If ``threads`` is not an integer.

    Examples
    --------
    >>> previous = xs.set_num_threads(1)
    >>> xs.get_num_threads()
    1
    >>> xs.set_num_threads(previous)
    1
    >>> xs.set_num_threads(0)
    Traceback (most recent call last):
      ...
    ValueError: threads must be >= 1 (or None for the default), got 0
    """
    previous = get_num_threads()
    _batch.set_default_threads(check_threads(threads))
    return previous


def check_threads(threads: object) -> int:
    """A thread count: None means the default; otherwise an int >= 1 (at
    most MAX_THREADS)."""
    return int(_batch.check_threads(threads))


_batch.set_default_threads(_initial_threads())
# No call runs on more threads than the CPUs this process may use, nor on
# more than one where the build has no pool (Windows).
_batch.set_cpu_limit(available_cpus() if _batch.POOL_THREADED else 1)
