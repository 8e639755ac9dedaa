"""The progress bar of ``xlashape ravel`` and ``unravel`` on a terminal:
one line, redrawn in place, as wide as the terminal, with the rate and the
time left."""

from __future__ import annotations

import contextlib
import shutil
import sys
import time
from collections.abc import Callable, Iterator

from .common import PROG

MIN_BAR = 10  # a bar narrower than this is left out


def _rate_text(rows_per_second: float) -> str:
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if rows_per_second >= scale:
            return f"{rows_per_second / scale:.1f}{suffix} rows/s"
    return f"{rows_per_second:.0f} rows/s"


def _duration_text(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def progress_line(label: str, done: int, total: int, elapsed: float, columns: int) -> str:
    """The bar's line after ``done`` of ``total`` rows in ``elapsed`` seconds,
    ``columns - 1`` wide: the percentage and the time left always, then as
    room allows the rate, the row counts, the command and a bar."""
    parts = {
        "head": f"{PROG} {label}",
        "bar": "",
        "percent": f"{100 * done // total:3d}%",
        "counts": f"{done}/{total} rows",
        "rate": "",
        "left": "",
    }
    if done and elapsed > 0:
        rate = done / elapsed
        parts["rate"] = _rate_text(rate)
        parts["left"] = f"{_duration_text((total - done) / rate)} left"
    width = columns - 1  # the last column would wrap on some terminals

    def joined() -> str:
        return " ".join(part for part in parts.values() if part)

    for name in ("head", "counts", "rate"):  # left out in this order until it fits
        if len(joined()) <= width:
            break
        parts[name] = ""
    room = width - len(joined()) - 3  # a space and the brackets
    if room >= MIN_BAR:
        filled = room * done // total
        parts["bar"] = "[" + "#" * filled + "-" * (room - filled) + "]"
    return joined()[:width].ljust(width)


@contextlib.contextmanager
def progress(label: str, total: int, chunk_rows: int) -> Iterator[Callable[[int], None]]:
    """A function drawing a progress bar on stderr with ``\\r``, for runs of
    more than one chunk when stderr is a terminal; a no-op otherwise."""
    if total <= chunk_rows or not sys.stderr.isatty():
        yield lambda done: None
        return
    start = time.monotonic()

    def draw(done: int) -> None:
        columns = shutil.get_terminal_size().columns
        line = progress_line(label, done, total, time.monotonic() - start, columns)
        sys.stderr.write("\r" + line)
        sys.stderr.flush()

    draw(0)
    try:
        yield draw
    finally:
        sys.stderr.write("\n")
