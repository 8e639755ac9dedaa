"""Batch conversion on a Shape: ``ravel`` and ``unravel`` over NumPy arrays.

These are the array-level entry points that IndexUtil's batch path, the
NumPy drop-ins and ``xlashape.dask`` build on. Both are compiled
(_convert.pyx), so that a call on a small batch costs little more than its
kernel.
"""

from __future__ import annotations

from ..core._batch import mode_codes
from ._convert import ravel, unravel

__all__ = ["ravel", "unravel", "mode_codes"]
