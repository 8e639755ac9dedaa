"""numba's loops for the benchmark grid: xlashape.bench_peers, shared with
``xlashape bench``."""

from xlashape.bench_peers import numba, ravel_call, unravel_call

__all__ = ["numba", "ravel_call", "unravel_call"]
