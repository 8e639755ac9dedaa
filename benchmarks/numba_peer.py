"""numba's loops for the benchmark grid: xlashape.cli.bench.peers, shared with
``xlashape bench``."""

from xlashape.cli.bench.peers import numba, ravel_call, unravel_call

__all__ = ["numba", "ravel_call", "unravel_call"]
