"""The workload of ``tools/test-aarch64.sh --count``: one call of
``xs.ravel`` or ``xs.unravel`` on ROWS rank-4 int64 rows at one CPU
level, on one thread, run under qemu-aarch64 with the instruction-counting
plugin (tools/aarch64/insn_count.c).

    python count_insns.py LEVEL ravel|unravel ROWS

The inputs are made for the largest count whatever ROWS is, so that two
runs differ only in the rows the call converts: the difference of their
counts, over the difference of their rows, is the instructions per row.
"""

from __future__ import annotations

import sys

import numpy as np

import xlashape as xs

MOST = 200_000
SHAPE = xs.Shape("f32", [100, 50, 20, 10])  # layout {3,2,1,0}; widths not powers of two


def main() -> None:
    level, op, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
    xs.cpu.set_cpu_level(level)
    rng = np.random.default_rng(0)
    indices = np.stack([rng.integers(0, d, MOST) for d in SHAPE.dimensions], axis=1)
    offsets = xs.ravel(indices, SHAPE, threads=1)
    if op == "ravel":
        xs.ravel(indices[:rows], SHAPE, threads=1)
    else:
        xs.unravel(offsets[:rows], SHAPE, threads=1)


if __name__ == "__main__":
    main()
