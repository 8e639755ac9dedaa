"""Which CPU level the batch kernels run at.

The kernels are compiled for several levels of the x86-64 instruction set
(``baseline``, ``avx2``, ``avx512``), each in its own functions, and the
best level the CPU and OS support is chosen once, at import. The
environment variable ``XLASHAPE_CPU`` (``baseline``, ``avx2`` or
``avx512``) asks for a lower one; :func:`set_cpu_level` changes it at run
time (the tests use it to run every level). Other CPUs run ``baseline``.
"""

from __future__ import annotations

import os

from . import _batch

__all__ = ["LEVELS", "cpu_features", "set_cpu_level"]

LEVELS: tuple[str, ...] = tuple(_batch.LEVELS)


def cpu_features() -> dict[str, object]:
    """The kernel level in use, the best this machine supports, every level
    it supports, and the worker pool's state: ``{"level": ..., "best":
    ..., "supported": (...), "levels": LEVELS, "pool_workers": ...,
    "pool_wake_ns": ...}``.

    Examples
    --------
    >>> features = xs.cpu_features()
    >>> features["level"] in features["supported"]
    True
    """
    best = _batch.best_cpu_level()
    pool = _batch.pool_info()
    return {
        "level": _batch.cpu_level(),
        "best": best,
        "supported": LEVELS[: LEVELS.index(best) + 1],
        "levels": LEVELS,
        "pool_workers": pool["workers"],
        "pool_wake_ns": pool["wake_ns"],
    }


def set_cpu_level(level: str | None) -> str:
    """Run the kernels at ``level`` (None: the best supported); returns the
    previous level. ValueError for an unknown level or one this CPU lacks."""
    return str(_batch.select_cpu_level(level))


def _initial_level() -> None:
    wanted = os.environ.get("XLASHAPE_CPU", "").strip().lower()
    if not wanted:
        _batch.select_cpu_level(None)
        return
    if wanted not in LEVELS:
        raise ValueError(f"XLASHAPE_CPU must be one of {', '.join(LEVELS)}, got {wanted!r}")
    supported = LEVELS[: LEVELS.index(_batch.best_cpu_level()) + 1]
    # A level above what the CPU has cannot run: use the best there is.
    _batch.select_cpu_level(wanted if wanted in supported else supported[-1])


_initial_level()
