"""The peers of ``xlashape bench`` (xlashape.cli.bench.peers). numba's loops
give xlashape's and NumPy's results on valid input: the bounds-checked loop
and the unchecked one (static rank, strides a tuple); skipped without
numba. JAX runs on the CPU whatever its default device, and its calls give
NumPy's results; skipped without JAX.
"""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import numpy as np
import pytest

from xlashape.cli.bench import relayout as bench_relayout
from xlashape.cli.bench import suite as bench
from xlashape.cli.bench.peers import (
    _ravel_unchecked,
    cpu_device,
    jax_call,
    numba_call,
    ravel_unchecked_call,
)
from xlashape.linear.buffers import from_linear, to_linear
from xlashape.shapes import convert
from xlashape.shapes.shape_text import parse_array_shape_string


def _installed(name: str):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


numba = _installed("numba")
jax = _installed("jax")
needs_numba = pytest.mark.skipif(numba is None, reason="numba not installed")
needs_jax = pytest.mark.skipif(jax is None, reason="JAX not installed")

DTYPES = ("int64", "int32")
LAYOUTS = ("row-major", "column-major", "permuted", "padded")
RANKS = (1, 2, 3, 4, 5, 8)


def _numpy_ravel(case: bench.Case, rows: np.ndarray) -> np.ndarray:
    """NumPy's ravel of ``rows`` in the case's layout: the multi-index
    major to minor, the padded widths as dims."""
    shape = case.shape
    order = shape.layout.major_to_minor
    widths = tuple(shape.padded_dimensions[d] for d in order)
    return np.ravel_multi_index(tuple(rows[:, d] for d in order), widths)


def _numpy_unravel(case: bench.Case, offsets: np.ndarray) -> np.ndarray:
    shape = case.shape
    order = shape.layout.major_to_minor
    widths = tuple(shape.padded_dimensions[d] for d in order)
    columns = np.unravel_index(offsets, widths)
    return np.stack([columns[order.index(d)] for d in range(case.rank)], axis=1)


# Each direction: its output buffer, its input, NumPy's form and xlashape's.
DIRECTIONS = {
    "ravel": ("ravel_out", "rows", _numpy_ravel, convert.ravel),
    "unravel": ("unravel_out", "offsets", _numpy_unravel, convert.unravel),
}


@needs_numba
@pytest.mark.parametrize("checked", [True, False], ids=["checked", "unchecked"])
@pytest.mark.parametrize("rank", RANKS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", DIRECTIONS)
def test_numba_loops_match_numpy_and_xlashape(op, dtype, layout, rank, checked):
    out, given, numpy_form, xlashape_form = DIRECTIONS[op]
    case = bench.Case(op, 1000, rank=rank, dtype=dtype, layout=layout)
    data = bench.make_case_data(case, seed=rank)
    data[out][:] = -1
    call = numba_call(case, data, checked=checked)
    assert call is not None
    result = call()
    assert result is data[out]
    np.testing.assert_array_equal(result, numpy_form(case, data[given]))
    np.testing.assert_array_equal(result, xlashape_form(data[given], case.shape))


@needs_numba
def test_the_unchecked_ravel_checks_nothing_where_the_checked_one_raises():
    case = bench.Case("ravel", 4, rank=2)
    data = bench.make_case_data(case)
    extent = case.shape.dimensions[1]
    data["rows"][2] = (1, extent)  # past the end of dimension 1
    strides = case.shape.strides
    call = numba_call(case, data, checked=False)
    assert call is not None
    assert call()[2] == strides[0] + extent * strides[1]  # the sum, unchecked
    with pytest.raises(IndexError):
        numba_call(case, data)


@needs_numba
def test_the_unchecked_loop_takes_the_strides_as_a_tuple():
    case = bench.Case("ravel", 10, rank=3)
    data = bench.make_case_data(case)
    ravel_unchecked_call(case.shape, data["rows"], data["ravel_out"])()
    # a static rank of 3: the strides' type holds their count
    assert numba.types.UniTuple(numba.int64, 3) in {signature[1] for signature in _ravel_unchecked.signatures}


@needs_numba
@pytest.mark.parametrize("op", ["ravel", "unravel"])
def test_tiled_layouts_have_no_numba_loop(op):
    case = bench.Case(op, 10, layout="tiled")
    data = bench.make_case_data(case)
    assert numba_call(case, data, checked=False) is None
    assert numba_call(case, data) is None


# -- JAX ---------------------------------------------------------------------
class _Device(SimpleNamespace):
    pass


def _jax_with(default: list[_Device], cpus: list[_Device]) -> SimpleNamespace:
    """A stand-in for the jax module: ``devices()`` lists ``default`` (a
    GPU first, as on a machine with one), ``devices("cpu")`` the CPUs."""

    def devices(backend: str | None = None) -> list[_Device]:
        return cpus if backend == "cpu" else default

    return SimpleNamespace(devices=devices)


def test_jax_runs_on_the_cpu_where_its_default_is_a_gpu():
    gpu, cpu0, cpu1 = _Device(platform="gpu"), _Device(platform="cpu", id=0), _Device(platform="cpu", id=1)
    assert cpu_device(_jax_with([gpu], [cpu0, cpu1])) is cpu0
    assert cpu_device(_jax_with([cpu1, cpu0], [cpu0, cpu1])) is cpu0  # the first CPU, whatever the order


@needs_jax
def test_the_chosen_device_is_jaxs_own_cpu():
    device = cpu_device(jax)
    assert device.platform == "cpu" and device in jax.devices("cpu")


@needs_jax
@pytest.mark.parametrize("layout", ["row-major", "padded"])
@pytest.mark.parametrize("op", ["ravel", "unravel"])
def test_jax_calls_run_on_the_cpu_and_give_numpys_results(op, layout):
    case = bench.Case(op, 1000, layout=layout)
    data = bench.make_case_data(case, seed=3)
    call = jax_call(case, data)
    assert call is not None
    result = call()
    arrays = [result] if op == "ravel" else list(result)
    assert all(a.devices() == {cpu_device(jax)} for a in arrays)
    if op == "ravel":
        np.testing.assert_array_equal(np.asarray(result), _numpy_ravel(case, data["rows"]))
    else:  # JAX's columns are major to minor, as NumPy's unravel_index of the padded widths
        widths = tuple(case.shape.padded_dimensions[d] for d in case.shape.layout.major_to_minor)
        for mine, numpys in zip(arrays, np.unravel_index(data["offsets"], widths), strict=True):
            np.testing.assert_array_equal(np.asarray(mine), numpys)


@needs_jax
def test_the_relayout_peer_runs_on_the_cpu_and_lays_out_as_to_linear():
    shape = parse_array_shape_string("f32[20,300]{1,0:T(8,128)}")
    array = np.arange(20 * 300, dtype=np.float32).reshape(20, 300)
    buffer = to_linear(array, shape)
    calls = bench_relayout.jax_calls(shape, array, buffer)
    assert calls is not None
    forward, backward = (call() for call in calls)
    assert forward.devices() == backward.devices() == {cpu_device(jax)}
    np.testing.assert_array_equal(np.asarray(forward), buffer)  # padding zeros in both
    np.testing.assert_array_equal(np.asarray(backward), from_linear(buffer, shape))
