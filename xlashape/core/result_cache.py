"""Reuse of the memory of large results that were freed.

A call without ``out=`` allocates its result. A fresh allocation of tens
or hundreds of megabytes costs page faults: the operating system maps and
zeroes every page on first touch, which on a 2-core VM took longer than
converting the indices itself (a first fill of a new 320 MB array 35-56 ms,
a second fill 15-20 ms). So results of at least ``RESULT_CACHE_MIN_BYTES``
(4 MiB) come from xlashape's own NumPy memory handler, and when such a
result is freed its memory is kept, already faulted in, in a small bounded
cache, and reused by the next result it fits. A loop that converts chunk
after chunk and drops (or overwrites) each result pays the page faults
once.

What this does not do: a call whose earlier results are all still alive
finds nothing to reuse, and pays the page faults as before. Results are
ordinary NumPy arrays that own their memory (``.base`` is None); a buffer
is reused only after the array that owned it (and every view of it) is
gone, so a result never shares memory with another live array. (Their
NumPy memory handler is named ``xlashape_result_cache``.)

The cache holds at most ``max_bytes`` (default: 512 MiB, or 1/16 of the
machine's memory if that is less) in at most ``max_buffers`` buffers
(default 4), and unmaps the least recently freed buffer first. It is
thread-safe; a forked child starts with it empty. The environment variable
``XLASHAPE_RESULT_CACHE_MB`` sets ``max_bytes`` at import (in MiB; 0 turns
the cache off); :func:`set_result_cache` changes the bounds at run time.
On systems without ``mmap`` (Windows) results come from ``malloc`` and
nothing is kept.
"""

from __future__ import annotations

import os
import sys
from typing import TypedDict, cast

from .._validate import as_int
from . import _batch

__all__ = ["result_cache_info", "set_result_cache", "RESULT_CACHE_MIN_BYTES"]

RESULT_CACHE_MIN_BYTES: int = _batch.RESULT_CACHE_MIN_BYTES
DEFAULT_MAX_BUFFERS = 4
MIB = 1 << 20


class ResultCacheInfo(TypedDict):
    """What :func:`result_cache_info` returns."""

    enabled: bool
    max_bytes: int
    max_buffers: int
    held_bytes: int
    held_buffers: int
    hits: int
    misses: int


def _default_max_bytes() -> int:
    """512 MiB, or 1/16 of physical memory if that is less."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 512 * MIB
    return min(512 * MIB, memory // 16) if memory > 0 else 512 * MIB


def _initial_max_bytes() -> int:
    value = os.environ.get("XLASHAPE_RESULT_CACHE_MB", "").strip()
    if not value:
        return _default_max_bytes()
    try:
        megabytes = int(value)
    except ValueError:
        megabytes = -1
    if not 0 <= megabytes <= sys.maxsize // MIB:
        raise ValueError(
            f"XLASHAPE_RESULT_CACHE_MB must be an integer >= 0 and at most "
            f"{sys.maxsize // MIB} (MiB; 0 turns the result cache off), got {value!r}"
        )
    return megabytes * MIB


def result_cache_info() -> ResultCacheInfo:
    """The result cache's bounds and what it holds now.

    Returns
    -------
    dict
        ``enabled``; ``max_bytes`` and ``max_buffers``, its bounds;
        ``held_bytes`` and ``held_buffers``, the freed memory it keeps now
        (mapped bytes, a header page and rounding to 2 MiB included); and
        ``hits`` and ``misses``, how many large results reused kept memory
        and how many were mapped fresh since import.

    See Also
    --------
    set_result_cache : change the bounds, or turn the cache off.

    Examples
    --------
    >>> info = xs.result_cache_info()
    >>> info["held_bytes"] <= info["max_bytes"]
    True
    """
    return cast(ResultCacheInfo, _batch.result_cache_stats())


def set_result_cache(max_bytes: int | None = None, max_buffers: int | None = None) -> ResultCacheInfo:
    """Bound the memory kept for reuse by large results, or turn it off.

    Parameters
    ----------
    max_bytes : int, optional
        The most freed memory kept, in bytes; 0 turns the cache off (every
        result is then a plain ``np.empty``). None keeps the current bound.
    max_buffers : int, optional
        The most buffers kept (at most 64); 0 turns the cache off. None
        keeps the current bound.

    Returns
    -------
    dict
        The cache's state before the change, as :func:`result_cache_info`
        returns it: pass its ``max_bytes`` and ``max_buffers`` back to
        restore it.

    Raises
    ------
    TypeError
        If a bound is not an integer (a bool, a float or a string is not).
    ValueError
        If a bound is negative, ``max_bytes`` is over ``sys.maxsize``, or
        ``max_buffers`` is over 64.

    Notes
    -----
    Memory over a new bound is returned to the operating system at once,
    least recently freed first; ``set_result_cache(0)`` releases all of it.

    Examples
    --------
    >>> previous = xs.set_result_cache(max_bytes=64 << 20, max_buffers=2)
    >>> xs.result_cache_info()["max_buffers"]
    2
    >>> _ = xs.set_result_cache(previous["max_bytes"], previous["max_buffers"])
    """
    previous = result_cache_info()
    if max_bytes is None:
        max_bytes = previous["max_bytes"]
    if max_buffers is None:
        max_buffers = previous["max_buffers"]
    max_bytes, max_buffers = as_int(max_bytes, "max_bytes"), as_int(max_buffers, "max_buffers")
    if not 0 <= max_bytes <= sys.maxsize:
        raise ValueError(
            f"max_bytes must be >= 0 and at most {sys.maxsize}, got {max_bytes} "
            "(0 turns the result cache off)"
        )
    if not 0 <= max_buffers <= _batch.RESULT_CACHE_MAX_BUFFERS:
        raise ValueError(
            f"max_buffers must be between 0 and {_batch.RESULT_CACHE_MAX_BUFFERS} "
            f"(0 turns the result cache off), got {max_buffers}"
        )
    _batch.configure_result_cache(max_bytes, max_buffers)
    return previous


_batch.configure_result_cache(_initial_max_bytes(), DEFAULT_MAX_BUFFERS)
