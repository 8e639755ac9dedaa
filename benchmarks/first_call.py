"""What a first call into new memory costs, against repeated calls and ``out=``.

Times, in a fresh process, ``xs.unravel_index`` and NumPy's
``np.unravel_index`` of N offsets (default 10**7, rank 4), after one call
of each into memory already in use (xlashape's into ``out=``, which also
starts its thread pool; NumPy's on 1,000 offsets):

- the first call of each at N (its result is new memory: the operating system
  zeroes each page as it is first written);
- the median of repeated calls that drop each result (xlashape's result
  cache hands the freed memory to the next result; NumPy's allocator may
  or may not reuse it);
- the median of calls writing into one ``out=`` (shape ``(rank, N)``),
  reused.

Run from anywhere with xlashape installed::

    python benchmarks/first_call.py [N]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

import xlashape as xs

DIMS = (64, 128, 256, 32)
REPEATS = 7


def seconds(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main(n: int) -> None:
    offsets = np.random.default_rng(0).integers(0, int(np.prod(DIMS)), size=n)
    out = np.zeros((len(DIMS), n), dtype=np.int64)  # in memory before any timing
    xs.unravel_index(offsets, DIMS, out=out)
    np.unravel_index(offsets[:1000], DIMS)
    first = {"xlashape": seconds(lambda: xs.unravel_index(offsets, DIMS)),
             "NumPy": seconds(lambda: np.unravel_index(offsets, DIMS))}
    repeated = {
        "xlashape": statistics.median(seconds(lambda: xs.unravel_index(offsets, DIMS)) for _ in range(REPEATS)),
        "NumPy": statistics.median(seconds(lambda: np.unravel_index(offsets, DIMS)) for _ in range(REPEATS)),
    }
    into_out = statistics.median(
        seconds(lambda: xs.unravel_index(offsets, DIMS, out=out)) for _ in range(REPEATS))
    print(f"unravel_index of {n:,} offsets into a rank-{len(DIMS)} shape, "
          f"{xs.get_num_threads()} threads (xlashape), "
          f"level {xs.cpu_features()['level']}")
    print(f"{'':24}{'xlashape':>10}{'NumPy':>10}")
    print(f"{'first call':24}{first['xlashape'] * 1e3:>8.1f}ms{first['NumPy'] * 1e3:>8.1f}ms")
    print(f"{'repeated calls, median':24}{repeated['xlashape'] * 1e3:>8.1f}ms"
          f"{repeated['NumPy'] * 1e3:>8.1f}ms")
    print(f"{'into out=, median':24}{into_out * 1e3:>8.1f}ms{'-':>10}")


if __name__ == "__main__":
    main(int(float(sys.argv[1])) if len(sys.argv) > 1 else 10**7)
