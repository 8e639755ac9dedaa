"""Which CPU level the batch kernels run at.

The kernels are compiled for several levels of the x86-64 instruction set
(``baseline``, ``avx2``, ``avx512``), each in its own functions, and the
best level the CPU and OS support is chosen once, at import. The
environment variable ``XLASHAPE_CPU`` (one of :data:`LEVELS`) asks for a
lower one; a level the CPU lacks stops the import with a ValueError, as
:func:`set_cpu_level` (which changes the level at run time; the tests use it
to run every level) refuses it. On 64-bit Arm the levels are ``baseline``
and ``neon``, which every aarch64 CPU runs; other CPUs run ``baseline``.

Results too large to stay in cache are written by non-temporal
(streaming) stores, which skip reading each cache line before writing it.
A call streams when it reads and writes at least :func:`stream_bytes`
bytes: at import, three quarters of one CPU's share of the last-level cache
plus its own L2, as glibc (2.26-2.37) derives the threshold from which its
``memcpy`` streams; ``XLASHAPE_STREAM_BYTES`` (a byte count) sets it
instead, and :func:`set_stream_bytes` changes it at run time.

Both thresholds are byte counts from 0 to :data:`MAX_THRESHOLD_BYTES`
(2**53, 8 PiB: the kernels compare a call's bytes with them as doubles,
which hold every count up to there exactly), and read back as set. Past
that range, :func:`set_stream_bytes` and :func:`set_align_bytes` raise
ValueError; an ``XLASHAPE_STREAM_BYTES`` or ``XLASHAPE_CPU`` the module
cannot read makes ``import xlashape`` fail with a ValueError naming the
variable, as ``XLASHAPE_NUM_THREADS`` and ``XLASHAPE_RESULT_CACHE_MB`` do.

Below that, a call that moves at least :func:`align_bytes` (at import,
three quarters of one CPU's share of its L2) writes whole vectors on
64-byte boundaries whatever ``out=``'s alignment, each turned by the
misalignment; a smaller call's results stay in L2, where stores across two
cache lines cost less than the turn. :func:`set_align_bytes` changes it.

A ravel of C-contiguous rows that moves that much also asks for its input
ahead of the loads (:func:`prefetch`), in one of :data:`PREFETCH_MODES`:
``"l2"`` (8 KiB ahead, into L2) on an x86-64 CPU whose L2 holds 2 MiB or
more, ``"l1"`` (2 KiB ahead, into L1) on others, or ``"off"``. The
environment variable ``XLASHAPE_PREFETCH`` (one of the modes) sets it
instead, and :func:`set_prefetch` changes it at run time. Neither ever
changes a result. ``python benchmarks/large_batch.py`` times each mode on
the machine it runs on. In the ``"l2"`` mode, and in the ``"l1"`` mode at
the ``"avx2"`` level, a streamed relayout of ``(2,1)`` or ``(4,1)`` tiles
of 1- or 2-byte elements back to row-major order asks for its source ahead
too.
"""

from __future__ import annotations

import os
from pathlib import Path

from ._validate import as_int
from .core import _batch

__all__ = [
    "LEVELS",
    "MAX_THRESHOLD_BYTES",
    "PREFETCH_MODES",
    "align_bytes",
    "cpu_features",
    "prefetch",
    "set_align_bytes",
    "set_cpu_level",
    "set_prefetch",
    "set_stream_bytes",
    "stream_bytes",
]

LEVELS: tuple[str, ...] = tuple(_batch.LEVELS)
#: How a ravel of rows past a core's L2 prefetches its input: none, 2 KiB
#: ahead into L1, or 8 KiB ahead into L2 (where the inverse interleaves of
#: streamed relayouts prefetch their source too, as they do in the L1 mode
#: at the avx2 level).
PREFETCH_MODES: tuple[str, ...] = tuple(_batch.PREFETCH_MODES)
#: The largest streaming or aligned-slot threshold, in bytes: 2**53.
MAX_THRESHOLD_BYTES = 2**53


def cpu_features() -> dict[str, object]:
    """The CPU level the kernels run at, the worker pool, and the thresholds
    from which results are written in aligned slots and streamed.

    Returns
    -------
    dict
        ``level``
            The kernel level in use: one of ``levels``.
        ``best``
            The best level this CPU (and OS) supports.
        ``supported``
            Every level this CPU supports, lowest first.
        ``levels``
            Every level the kernels are compiled for (``xlashape.cpu.LEVELS``).
        ``threads``
            The most threads a batch call uses by default, the calling
            thread included: :func:`xlashape.get_num_threads`, capped by the
            CPUs this process may use, and 1 where the build has no worker
            pool (Windows: every call runs on the calling thread).
        ``pool_started``
            Whether the worker pool has started: it starts at the first call
            split across threads.
        ``pool_workers``
            The pool's worker threads besides the calling thread: before the
            pool starts, the most a call at the default thread count will
            start (``threads - 1``); after, the number started, which
            a call given more ``threads`` may have raised (never past the
            CPUs, less one).
        ``pool_wake_ns``
            How long a sleeping worker takes to wake, in nanoseconds,
            measured when the pool starts; None before.
        ``stream_bytes``, ``align_bytes``
            :func:`xlashape.cpu.stream_bytes` and
            :func:`xlashape.cpu.align_bytes`. Relayouts (``to_linear``,
            ``from_linear``, ``relayout``) stream by the same threshold of
            bytes read and written.
        ``prefetch``
            :func:`xlashape.cpu.prefetch`.

    Examples
    --------
    >>> features = xs.cpu_features()
    >>> features["level"] in features["supported"]
    True
    """
    best = _batch.best_cpu_level()
    pool = _batch.pool_info()
    threads = min(int(_batch.get_default_threads()), _batch.cpu_limit())
    started = pool["workers"] > 0
    return {
        "level": _batch.cpu_level(),
        "best": best,
        "supported": LEVELS[: LEVELS.index(best) + 1],
        "levels": LEVELS,
        "threads": threads,
        "pool_started": started,
        "pool_workers": int(pool["workers"]) if started else threads - 1,
        "pool_wake_ns": pool["wake_ns"] if started else None,
        "stream_bytes": stream_bytes(),
        "align_bytes": align_bytes(),
        "prefetch": prefetch(),
    }


def set_cpu_level(level: str | None) -> str:
    """Run the kernels at ``level`` (None: the best supported); returns the
    previous level. ValueError for an unknown level or one this CPU lacks."""
    return str(_batch.select_cpu_level(level))


def stream_bytes() -> int:
    """The bytes a call reads and writes from which it writes its results by
    non-temporal stores, past the caches."""
    return int(_batch.stream_bytes())


def set_stream_bytes(nbytes: int | None) -> int:
    """Stream the results of calls that read and write at least ``nbytes``
    bytes (None: the threshold derived from this CPU's caches); returns the
    previous threshold. ValueError for a count outside 0 to
    MAX_THRESHOLD_BYTES, TypeError for a non-integer."""
    value = _cache_threshold() if nbytes is None else _threshold(nbytes, "set_stream_bytes")
    previous = stream_bytes()
    _batch.set_stream_bytes(value)
    return previous


def align_bytes() -> int:
    """The bytes a call reads and writes from which it writes its results in
    aligned slots, whatever ``out=``'s alignment."""
    return int(_batch.align_bytes())


def set_align_bytes(nbytes: int | None) -> int:
    """Write aligned slots for calls that read and write at least ``nbytes``
    bytes (None: the threshold derived from this CPU's L2); returns the
    previous threshold. ValueError for a count outside 0 to
    MAX_THRESHOLD_BYTES, TypeError for a non-integer."""
    value = _l2_threshold() if nbytes is None else _threshold(nbytes, "set_align_bytes")
    previous = align_bytes()
    _batch.set_align_bytes(value)
    return previous


def prefetch() -> str:
    """How a ravel of C-contiguous rows that moves at least
    :func:`align_bytes` asks for its input ahead of its loads: one of
    :data:`PREFETCH_MODES`."""
    return str(_batch.prefetch_mode())


def set_prefetch(mode: str | None) -> str:
    """Prefetch as ``mode``, one of :data:`PREFETCH_MODES` (None: the mode
    chosen for this CPU's L2); returns the previous mode. ValueError for
    another string, TypeError for what is neither a string nor None."""
    if mode is not None and not isinstance(mode, str):
        raise TypeError(
            f"set_prefetch: mode must be a str (one of {', '.join(PREFETCH_MODES)}) or None,"
            f" got {type(mode).__name__}"
        )
    if mode is not None and mode not in PREFETCH_MODES:
        raise ValueError(
            f"set_prefetch: mode must be one of {', '.join(PREFETCH_MODES)} or None, got {mode!r}"
        )
    previous = prefetch()
    _batch.set_prefetch_mode(_cache_prefetch() if mode is None else mode)
    return previous


def _threshold(nbytes: object, function: str) -> int:
    """``nbytes`` as a byte count from 0 to MAX_THRESHOLD_BYTES; TypeError or
    ValueError naming ``function`` otherwise."""
    value = as_int(nbytes, f"{function}: nbytes")
    if not 0 <= value <= MAX_THRESHOLD_BYTES:
        raise ValueError(
            f"{function}: nbytes must be a byte count from 0 to MAX_THRESHOLD_BYTES "
            f"= 2**53 = {MAX_THRESHOLD_BYTES}, got {value}"
        )
    return value


def _cpu_count(text: str) -> int:
    """The CPUs in a sysfs list such as ``0-3,8``."""
    count = 0
    for part in text.strip().split(","):
        if part:
            first, _, last = part.partition("-")
            count += int(last or first) - int(first) + 1
    return count


_CACHES = Path("/sys/devices/system/cpu/cpu0/cache")


def _data_caches(root: Path) -> dict[int, tuple[int, int]]:
    """Each level of data cache, from sysfs: its size in bytes and the CPUs
    that share it."""
    caches: dict[int, tuple[int, int]] = {}
    for index in root.glob("index[0-9]*"):
        try:
            level = int((index / "level").read_text())
            kind = (index / "type").read_text().strip()
            size = (index / "size").read_text().strip()
            sharing = _cpu_count((index / "shared_cpu_list").read_text())
        except (OSError, ValueError):
            continue
        if kind == "Instruction" or not size.endswith("K"):
            continue
        caches[level] = (int(size[:-1]) * 1024, max(sharing, 1))
    return caches


def _cache_shares(root: Path) -> dict[int, int]:
    """One CPU's share in bytes of each level of data cache, from sysfs."""
    return {level: size // sharing for level, (size, sharing) in _data_caches(root).items()}


def _cache_threshold(root: Path = _CACHES) -> int:
    """Three quarters of one CPU's share of the last-level cache plus its L2
    (glibc's derivation), from sysfs; 32 MiB where sysfs has no caches."""
    share = _cache_shares(root)
    if not share:
        return 32 << 20
    last = max(share)
    return (share[last] + (share.get(2, 0) if last > 2 else 0)) * 3 // 4


def _l2_threshold(root: Path = _CACHES) -> int:
    """Three quarters of one CPU's share of its L2, from sysfs; 1 MiB where
    sysfs has no L2."""
    share = _cache_shares(root)
    return share[2] * 3 // 4 if 2 in share else 1 << 20


def _cache_prefetch(root: Path = _CACHES, levels: tuple[str, ...] = LEVELS) -> str:
    """``"l2"`` where the kernels are x86-64's (``levels`` has avx2) and the L2
    in sysfs holds 2 MiB or more, whatever shares it; ``"l1"`` otherwise,
    sysfs without an L2 included (csrc/kernels/kernels_common.h gives the
    measurements behind each)."""
    l2 = _data_caches(root).get(2)
    return "l2" if "avx2" in levels and l2 is not None and l2[0] >= 2 << 20 else "l1"


def _initial_prefetch() -> None:
    wanted = os.environ.get("XLASHAPE_PREFETCH", "").strip().lower()
    if wanted and wanted not in PREFETCH_MODES:
        raise ValueError(
            f"XLASHAPE_PREFETCH must be one of {', '.join(PREFETCH_MODES)}, got {wanted[:40]!r}"
            + ("..." if len(wanted) > 40 else "")
        )
    set_prefetch(wanted or None)


def _initial_thresholds() -> None:
    wanted = os.environ.get("XLASHAPE_STREAM_BYTES", "").strip()
    value = None
    if wanted:
        try:  # ASCII digits only: str.isdigit takes '²', which int() refuses
            value = int(wanted) if wanted.isascii() and wanted.isdigit() else -1
        except ValueError:  # more digits than int() reads
            value = -1
        if not 0 <= value <= MAX_THRESHOLD_BYTES:
            raise ValueError(
                f"XLASHAPE_STREAM_BYTES must be a byte count (digits) from 0 to "
                f"MAX_THRESHOLD_BYTES = 2**53 = {MAX_THRESHOLD_BYTES}, got {wanted[:40]!r}"
                + ("..." if len(wanted) > 40 else "")
            )
    set_stream_bytes(value)
    set_align_bytes(None)


def _initial_level() -> None:
    wanted = os.environ.get("XLASHAPE_CPU", "").strip().lower()
    if not wanted:
        _batch.select_cpu_level(None)
        return
    if wanted not in LEVELS:
        raise ValueError(f"XLASHAPE_CPU must be one of {', '.join(LEVELS)}, got {wanted!r}")
    best = _batch.best_cpu_level()
    if LEVELS.index(wanted) > LEVELS.index(best):  # as set_cpu_level refuses it
        raise ValueError(
            f"XLASHAPE_CPU={wanted!r} asks for a level this CPU lacks; the best it supports "
            f"is {best!r} (set XLASHAPE_CPU to that or lower, or unset it to use the best)"
        )
    _batch.select_cpu_level(wanted)


_initial_level()
_initial_thresholds()
_initial_prefetch()
