"""The progress bar of ``xlashape ravel`` and ``unravel`` on a terminal."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

from .common import PROG


@contextlib.contextmanager
def progress(label: str, total: int, chunk_rows: int) -> Iterator[Callable[[int], None]]:
    """A function drawing a progress bar on stderr with ``\\r``, for runs of
    more than one chunk when stderr is a terminal; a no-op otherwise."""
    if total <= chunk_rows or not sys.stderr.isatty():
        yield lambda done: None
        return
    width = 30

    def draw(done: int) -> None:
        filled = width * done // total
        bar = "#" * filled + "-" * (width - filled)
        percent = 100 * done // total
        sys.stderr.write(f"\r{PROG} {label} [{bar}] {percent:3d}% {done}/{total} rows")
        sys.stderr.flush()

    draw(0)
    try:
        yield draw
    finally:
        sys.stderr.write("\n")
