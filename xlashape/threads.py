"""How many threads the batch kernels use, and the pool that runs them.

Large batches are cut into one contiguous chunk per thread; every kernel
releases the GIL, so the chunks run in parallel. Results do not depend on the
thread count. Batches too small to repay a hand-off stay on the calling
thread.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from ._validate import as_int

__all__ = ["get_num_threads", "set_num_threads"]

# Below this many rows per thread, splitting costs more than it saves.
MIN_ROWS_PER_THREAD = 1 << 16

_default_threads = os.cpu_count() or 1
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def get_num_threads() -> int:
    """The number of threads a batch call uses when ``threads`` is None.

    Returns
    -------
    int
        The default thread count: the number of CPUs at import, or the value
        last given to :func:`set_num_threads`.

    See Also
    --------
    set_num_threads : change it.

    Examples
    --------
    >>> xs.get_num_threads() >= 1
    True
    """
    return _default_threads


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
    global _default_threads
    previous = _default_threads
    _default_threads = check_threads(threads)
    return previous


def check_threads(threads: object) -> int:
    """A thread count: None means the default; otherwise an int >= 1."""
    if threads is None:
        return _default_threads
    if type(threads) is int and threads >= 1:
        return threads
    n = as_int(threads, "threads")
    if n < 1:
        raise ValueError(f"threads must be >= 1 (or None for the default), got {n}")
    return n


def _forget_pool_in_child() -> None:
    """A forked child inherits the pool but not its threads: start afresh."""
    global _pool, _pool_lock
    _pool = None
    _pool_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_in_child)


def _get_pool() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(
                max_workers=max(os.cpu_count() or 1, 2) * 2,
                thread_name_prefix="xlashape",
            )
        return _pool


def run_chunks(kernel: Callable[..., int], args: tuple[object, ...], n: int, threads: object) -> int:
    """Run ``kernel(*args, start, stop)`` over rows [0, n) in per-thread chunks.

    Each call returns the first bad row of its chunk or -1; this returns the
    first bad row overall, or -1.
    """
    count = min(check_threads(threads), n // MIN_ROWS_PER_THREAD)
    if count <= 1:
        return kernel(*args, 0, n)
    bounds = [n * k // count for k in range(count + 1)]
    pool = _get_pool()
    futures = [pool.submit(kernel, *args, bounds[k], bounds[k + 1]) for k in range(1, count)]
    results = [kernel(*args, bounds[0], bounds[1])] + [f.result() for f in futures]
    bad = [row for row in results if row >= 0]
    return min(bad) if bad else -1
