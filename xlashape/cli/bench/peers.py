"""The optional peers of ``xlashape bench`` and the benchmark grid.

numba's plain loops, compiled for this machine by numba's JIT: one per
direction bounds-checked as xlashape is (an index out of range raises),
and one per direction unchecked, the fastest plain loop numba makes: the
rank static (the strides, widths and order are tuples, so each rank
compiles its own loop), no check of any index (ravel sums index * stride;
unravel divides by each width in turn). On valid input both give
xlashape's results; on invalid input the unchecked loop gives garbage.

JAX: ``jax.jit`` of ``jnp.ravel_multi_index`` / ``jnp.unravel_index`` on
the case's own (N, rank) rows (their columns taken inside the jitted
function, which XLA fuses into its loop, so that both read the same array)
or offsets, XLA's own compiled loop, timed warm with the result's
``block_until_ready()``. JAX computes integers in 32 bits unless
``jax_enable_x64`` is set; the peer sets it, so that JAX reads and writes
the case's dtype as xlashape does. JAX runs on the CPU
(:func:`cpu_device`) even where it sees a GPU or TPU: its input is placed
there, and a jitted call runs where its input is, so that every figure
compares work on the same processor."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

numba: Any
try:  # imported by name: Any to mypy whether or not numba is installed
    numba = importlib.import_module("numba")
except ImportError:  # the peer is skipped
    numba = None
jax: Any
try:
    jax = importlib.import_module("jax")
except ImportError:  # the peer is skipped
    jax = None


def _ravel(rows: Any, strides: Any, extents: Any, out: Any) -> Any:
    for i in range(rows.shape[0]):
        acc = 0
        for j in range(rows.shape[1]):
            v = rows[i, j]
            if v < 0 or v >= extents[j]:
                raise IndexError("index out of bounds")
            acc += v * strides[j]
        out[i] = acc
    return out


def _unravel(offsets: Any, order: Any, widths: Any, extents: Any, size: int, out: Any) -> Any:
    for i in range(offsets.shape[0]):
        n = offsets[i]
        if n < 0 or n >= size:
            raise IndexError("offset out of bounds")
        for k in range(order.shape[0]):
            r = n % widths[k]
            if r >= extents[k]:
                raise IndexError("offset on padding")
            out[i, order[k]] = r
            n //= widths[k]
    return out


def _ravel_unchecked(rows: Any, strides: Any, out: Any) -> Any:
    for i in range(rows.shape[0]):
        acc = 0
        for j in range(len(strides)):  # a tuple: the rank is a constant
            acc += rows[i, j] * strides[j]
        out[i] = acc
    return out


def _unravel_unchecked(offsets: Any, order: Any, widths: Any, out: Any) -> Any:
    for i in range(offsets.shape[0]):
        n = offsets[i]
        for k in range(len(widths)):  # tuples: the rank is a constant
            q = n // widths[k]
            out[i, order[k]] = n - q * widths[k]
            n = q
    return out


if numba is not None:
    _ravel = numba.njit(nogil=True, cache=False)(_ravel)
    _unravel = numba.njit(nogil=True, cache=False)(_unravel)
    _ravel_unchecked = numba.njit(nogil=True, cache=False, boundscheck=False)(_ravel_unchecked)
    _unravel_unchecked = numba.njit(nogil=True, cache=False, boundscheck=False)(_unravel_unchecked)


def numba_version() -> str | None:
    """numba's version, or None when it is not installed."""
    return None if numba is None else str(numba.__version__)


def why_no_numba() -> str | None:
    """Why a numba column is empty (None: it is installed)."""
    return None if numba is not None else "numba not installed (pip install numba adds its column)"


def ravel_call(shape: Any, rows: np.ndarray, out: np.ndarray) -> Callable[[], Any]:
    strides = np.array(shape.strides, dtype=np.int64)
    extents = np.array(shape.dimensions, dtype=np.int64)
    return lambda: _ravel(rows, strides, extents, out)


def unravel_call(shape: Any, offsets: np.ndarray, out: np.ndarray) -> Callable[[], Any]:
    order = np.array(shape.layout.minor_to_major, dtype=np.int64)
    widths = np.array([shape.padded_dimensions[d] for d in order], dtype=np.int64)
    extents = np.array([shape.dimensions[d] for d in order], dtype=np.int64)
    size = int(shape.buffer_size)
    return lambda: _unravel(offsets, order, widths, extents, size, out)


def ravel_unchecked_call(shape: Any, rows: np.ndarray, out: np.ndarray) -> Callable[[], Any]:
    """numba's unchecked ravel of ``rows`` into ``out``: the strides a
    tuple of Python ints."""
    strides = tuple(int(s) for s in shape.strides)
    return lambda: _ravel_unchecked(rows, strides, out)


def unravel_unchecked_call(shape: Any, offsets: np.ndarray, out: np.ndarray) -> Callable[[], Any]:
    """numba's unchecked unravel of ``offsets`` into ``out``: the
    dimensions minor to major, with their padded widths, as tuples."""
    order = tuple(int(d) for d in shape.layout.minor_to_major)
    widths = tuple(int(shape.padded_dimensions[d]) for d in order)
    return lambda: _unravel_unchecked(offsets, order, widths, out)


def numba_call(case: Any, data: dict[str, Any], *, checked: bool = True) -> Callable[[], Any] | None:
    """numba's call for a bench case (compiled by a first call), bounds-
    checked or (``checked=False``) not, or None without numba or for a
    tiled layout (the plain loops know no tiles)."""
    if numba is None or case.shape.layout.tiles:
        return None
    if case.op == "ravel":
        make_ravel = ravel_call if checked else ravel_unchecked_call
        call = make_ravel(case.shape, data["rows"], data["ravel_out"])
    else:
        make_unravel = unravel_call if checked else unravel_unchecked_call
        call = make_unravel(case.shape, data["offsets"], data["unravel_out"])
    call()
    return call


def jax_version() -> str | None:
    """JAX's version, or None when it is not installed."""
    return None if jax is None else str(jax.__version__)


def why_no_jax() -> str | None:
    """Why a JAX column is empty (None: it is installed)."""
    return None if jax is not None else 'JAX not installed (pip install ".[jax]" adds its column)'


def cpu_device(module: Any) -> Any:
    """The device the bench runs JAX on: the first CPU device of JAX
    ``module``, whatever its default device (a GPU or TPU where there is
    one), so that JAX's figures, like every other, are the CPU's."""
    return module.devices("cpu")[0]


def jax_device() -> str | None:
    """Where the JAX peer runs, as JAX names it (such as ``cpu:0``), or
    None when JAX is not installed."""
    return None if jax is None else str(cpu_device(jax))


def jax_call(case: Any, data: dict[str, Any]) -> Callable[[], Any] | None:
    """JAX's jitted call for a bench case (compiled and run once here) on
    the CPU (:func:`cpu_device`), or None without JAX or for a tiled
    layout. Like NumPy's equivalent, it takes the multi-index reordered
    major-to-minor with the padded widths as dims (JAX knows only C
    order). Under jit JAX cannot raise: 'raise' cases run its 'clip' mode,
    the closest, which also checks nothing. The call returns JAX's result
    (a tuple of columns for unravel)."""
    if jax is None or case.shape.layout.tiles:
        return None
    jax.config.update("jax_enable_x64", True)
    jnp = importlib.import_module("jax.numpy")
    device = cpu_device(jax)
    shape = case.shape
    order = shape.layout.major_to_minor
    widths = tuple(shape.padded_dimensions[d] for d in order)
    call: Callable[[], Any]
    if case.op == "ravel":
        rows = jax.device_put(data["rows"], device)
        mode = "clip" if case.mode == "raise" else case.mode
        ravel = jax.jit(lambda r: jnp.ravel_multi_index(tuple(r[:, d] for d in order), widths, mode=mode))
        call = lambda: ravel(rows).block_until_ready()  # noqa: E731
    else:
        offsets = jax.device_put(data["offsets"], device)
        unravel = jax.jit(lambda f: jnp.unravel_index(f, widths))
        call = lambda: tuple(a.block_until_ready() for a in unravel(offsets))  # noqa: E731
    call()
    return call
