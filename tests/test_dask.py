"""xlashape.dask against the NumPy-level functions, on Dask's threaded
scheduler and on a real two-process ``distributed.LocalCluster``.

The cluster's workers are separate processes that import xlashape from the
same environment, so these tests also check that the compiled kernels load
and run there.
"""

import functools
import importlib.machinery
import itertools
import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")

import dask.array as da  # noqa: E402
from inputs import index_arrays  # noqa: E402

import xlashape  # noqa: E402
import xlashape.dask as xd  # noqa: E402
from xlashape import IndexOutOfBoundsError, Layout, Shape  # noqa: E402

# Padded, and neither row- nor column-major.
SHAPE = Shape("f32", [5, 7, 3], Layout([1, 2, 0], [6, 7, 4]))
# Uneven row chunks, an empty one and a one-row one among them.
ROW_CHUNKS = (10, 0, 33, 1, 61)
N = sum(ROW_CHUNKS)
# The rank axis whole, and split in two and in three.
RANK_CHUNKS = [(3,), (1, 2), (1, 1, 1)]
# Rows to put a bad index in: first and last of the batch, last of a chunk,
# first after the empty chunk, and the one-row chunk.
BAD_ROWS = [0, 9, 10, 43, N - 1]
# A read-only view of each block, as workers may be handed.
read_only = functools.partial(np.lib.stride_tricks.as_strided, writeable=False)


# N random in-bounds multi-indices of SHAPE, and their offsets.
ROWS = np.stack(
    [np.random.default_rng(dim).integers(0, size, N) for dim, size in enumerate(SHAPE.dimensions)],
    axis=1,
)
OFFSETS = xlashape.ravel(ROWS, SHAPE)


def locate(row: int) -> tuple[int, int]:
    """The (row chunk, row within it) of a row of the whole batch."""
    starts = itertools.accumulate(ROW_CHUNKS, initial=0)
    for chunk, (start, size) in enumerate(zip(starts, ROW_CHUNKS)):
        if start <= row < start + size:
            return chunk, row - start
    raise AssertionError(f"row {row} is past the batch")


def global_message(numpy_message: str, row: int) -> str:
    """The NumPy-level message for the whole batch, as xlashape.dask gives
    it: the row within its chunk added after the global row."""
    chunk, local = locate(row)
    at = f" at row {row} of the batch"
    assert at in numpy_message
    return numpy_message.replace(at, f"{at} (row {local} of row chunk {chunk})")


# -- schedulers ----------------------------------------------------------------


@pytest.fixture(scope="module")
def client():
    """A client of a two-process LocalCluster, one thread per worker.

    It is not made the default scheduler: each test names its scheduler.
    """
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster, set_as_default=False) as client:
        yield client


@pytest.fixture(params=["threads", "cluster"])
def scheduler(request):
    """What ``compute(scheduler=...)`` takes: the threaded scheduler, or the
    cluster's client."""
    return "threads" if request.param == "threads" else request.getfixturevalue("client")


# -- results equal the NumPy-level functions -----------------------------------


@pytest.mark.parametrize("rank_chunks", RANK_CHUNKS)
@pytest.mark.parametrize("threads", [1, None])
def test_ravel_and_unravel_match_the_numpy_level_functions(scheduler, rank_chunks, threads):
    source = ROWS.copy()
    indices = da.from_array(source, chunks=(ROW_CHUNKS, rank_chunks))
    offsets = xd.ravel(indices, SHAPE, threads=threads)
    assert offsets.chunks == (ROW_CHUNKS,) and offsets.dtype == np.int64
    result = offsets.compute(scheduler=scheduler)
    assert result.dtype == np.int64
    np.testing.assert_array_equal(result, xlashape.ravel(ROWS, SHAPE))

    back = xd.unravel(offsets, SHAPE, threads=threads)
    assert back.chunks == (ROW_CHUNKS, (SHAPE.rank,)) and back.dtype == np.int64
    result = back.compute(scheduler=scheduler)
    assert result.dtype == np.int64
    np.testing.assert_array_equal(result, xlashape.unravel(OFFSETS, SHAPE))
    np.testing.assert_array_equal(source, ROWS)  # input untouched


@pytest.mark.parametrize(
    "mode", ["wrap", "clip", ("wrap", "clip", "raise"), ["clip", "raise", "wrap"]]
)
def test_modes_match_the_numpy_level_function(scheduler, mode):
    rng = np.random.default_rng(1)
    rows = rng.integers(-20, 20, size=(N, SHAPE.rank))
    # Keep the dimensions whose mode is 'raise' in bounds.
    modes = [mode] * SHAPE.rank if isinstance(mode, str) else mode
    for dim, (m, size) in enumerate(zip(modes, SHAPE.dimensions)):
        if m == "raise":
            rows[:, dim] %= size
    indices = da.from_array(rows, chunks=(ROW_CHUNKS, (2, 1)))
    np.testing.assert_array_equal(
        xd.ravel(indices, SHAPE, mode=mode).compute(scheduler=scheduler),
        xlashape.ravel(rows, SHAPE, mode=mode),
    )


def test_read_only_blocks(scheduler):
    # The rank axis whole, so that no rechunk copies the blocks.
    indices = da.from_array(ROWS, chunks=(ROW_CHUNKS, 3)).map_blocks(read_only)
    offsets = da.from_array(OFFSETS, chunks=(ROW_CHUNKS,)).map_blocks(read_only)
    np.testing.assert_array_equal(
        xd.ravel(indices, SHAPE).compute(scheduler=scheduler), xlashape.ravel(ROWS, SHAPE)
    )
    np.testing.assert_array_equal(
        xd.unravel(offsets, SHAPE).compute(scheduler=scheduler), xlashape.unravel(OFFSETS, SHAPE)
    )


def arrays(values: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """The NumPy arrays among the one generator's forms of ``values``."""
    return [(label, v) for label, v in index_arrays(values) if isinstance(v, np.ndarray)]


@pytest.mark.parametrize("label, rows", arrays(ROWS))
def test_every_array_form_ravels(label, rows):
    indices = da.from_array(rows, chunks=(ROW_CHUNKS, (1, 2)))
    np.testing.assert_array_equal(
        xd.ravel(indices, SHAPE).compute(scheduler="threads"), xlashape.ravel(rows, SHAPE)
    )


@pytest.mark.parametrize("label, offsets", arrays(OFFSETS))
def test_every_array_form_unravels(label, offsets):
    linear = da.from_array(offsets, chunks=(ROW_CHUNKS,))
    np.testing.assert_array_equal(
        xd.unravel(linear, SHAPE).compute(scheduler="threads"), xlashape.unravel(offsets, SHAPE)
    )


def test_empty_batches_and_rank_zero(scheduler):
    empty = da.zeros((0, SHAPE.rank), dtype=np.uint8, chunks=(5, 1))
    assert xd.ravel(empty, SHAPE).compute(scheduler=scheduler).shape == (0,)
    nothing = da.zeros((0,), dtype=np.int16, chunks=5)
    assert xd.unravel(nothing, SHAPE).compute(scheduler=scheduler).shape == (0, SHAPE.rank)
    scalar = Shape("f32", [])
    rows = np.zeros((N, 0), dtype=np.int32)
    offsets = xd.ravel(da.from_array(rows, chunks=(ROW_CHUNKS, 0)), scalar)
    np.testing.assert_array_equal(
        offsets.compute(scheduler=scheduler), xlashape.ravel(rows, scalar)
    )
    back = xd.unravel(offsets, scalar)
    assert back.chunks == (ROW_CHUNKS, (0,))
    assert back.compute(scheduler=scheduler).shape == (N, 0)


def test_unknown_chunk_sizes():
    indices = da.from_array(ROWS, chunks=(ROW_CHUNKS, (1, 2)))
    kept = indices[indices[:, 0] != 2]
    assert np.isnan(kept.shape[0])
    np.testing.assert_array_equal(
        xd.ravel(kept, SHAPE).compute(scheduler="threads"),
        xlashape.ravel(ROWS[ROWS[:, 0] != 2], SHAPE),
    )


def test_unravel_of_unknown_chunk_sizes():
    offsets = da.from_array(OFFSETS, chunks=(ROW_CHUNKS,))
    kept = offsets[offsets % 3 != 0]
    assert np.isnan(kept.shape[0])
    rows = xd.unravel(kept, SHAPE)
    assert np.isnan(rows.shape[0]) and rows.shape[1] == SHAPE.rank
    np.testing.assert_array_equal(
        rows.compute(scheduler="threads"), xlashape.unravel(OFFSETS[OFFSETS % 3 != 0], SHAPE)
    )


def test_numpy_input_becomes_a_dask_array():
    offsets = xd.ravel(ROWS, SHAPE)
    assert isinstance(offsets, da.Array)
    np.testing.assert_array_equal(offsets.compute(scheduler="threads"), OFFSETS)


def test_store_writes_into_an_existing_array():
    target = np.full(N, -1, dtype=np.int64)
    indices = da.from_array(ROWS, chunks=(ROW_CHUNKS, 3))
    da.store(xd.ravel(indices, SHAPE), target, scheduler="threads")
    np.testing.assert_array_equal(target, OFFSETS)


def test_kernels_run_once_per_chunk_on_the_blocks_handed_over(monkeypatch):
    seen = []

    def spy(function):
        def recording(block, shape, **kwargs):
            seen.append((block.shape, block.flags.writeable))
            return function(block, shape, **kwargs)

        return recording

    monkeypatch.setattr(xlashape.shapes.convert, "ravel", spy(xlashape.shapes.convert.ravel))
    monkeypatch.setattr(xlashape.shapes.convert, "unravel", spy(xlashape.shapes.convert.unravel))
    indices = da.from_array(ROWS, chunks=(ROW_CHUNKS, 3)).map_blocks(read_only)
    back = xd.unravel(xd.ravel(indices, SHAPE).map_blocks(read_only), SHAPE)
    assert seen == []  # building the graph ran no kernel (meta= is given)
    np.testing.assert_array_equal(back.compute(scheduler="threads"), ROWS)
    # Each chunk once, the empty one too, and as handed over: still read-only,
    # so not copied on the way.
    expected = [((n, SHAPE.rank), False) for n in ROW_CHUNKS] + [((n,), False) for n in ROW_CHUNKS]
    assert sorted(seen) == sorted(expected)


# -- errors --------------------------------------------------------------------


@pytest.mark.parametrize("row", BAD_ROWS)
def test_ravel_error_names_the_global_row(scheduler, row):
    rows = ROWS.copy()
    rows[row, 1] = SHAPE.dimensions[1]
    with pytest.raises(IndexOutOfBoundsError) as numpy_error:
        xlashape.ravel(rows, SHAPE)
    indices = da.from_array(rows, chunks=(ROW_CHUNKS, (1, 2)))
    # A reduction downstream does not hide the error.
    with pytest.raises(IndexOutOfBoundsError) as dask_error:
        xd.ravel(indices, SHAPE).sum().compute(scheduler=scheduler)
    assert type(dask_error.value) is IndexOutOfBoundsError
    assert str(dask_error.value) == global_message(str(numpy_error.value), row)


@pytest.mark.parametrize("row", BAD_ROWS)
@pytest.mark.parametrize("where", ["outside the buffer", "on padding"])
def test_unravel_error_names_the_global_row(scheduler, row, where):
    offsets = OFFSETS.copy()
    # Padding: dimension 2 at 3, the first position past its size.
    offsets[row] = SHAPE.buffer_size if where == "outside the buffer" else 3 * SHAPE.strides[2]
    with pytest.raises(IndexOutOfBoundsError) as numpy_error:
        xlashape.unravel(offsets, SHAPE)
    with pytest.raises(IndexOutOfBoundsError) as dask_error:
        xd.unravel(da.from_array(offsets, chunks=(ROW_CHUNKS,)), SHAPE).compute(
            scheduler=scheduler
        )
    assert type(dask_error.value) is IndexOutOfBoundsError
    assert str(dask_error.value) == global_message(str(numpy_error.value), row)


def test_error_with_unknown_chunk_sizes_names_the_row_in_its_chunk():
    bad = 50
    rows = ROWS.copy()
    rows[bad] = (0, 0, -1)  # kept by the mask below, out of range in dimension 2
    indices = da.from_array(rows, chunks=(ROW_CHUNKS, 3))
    kept = indices[indices[:, 0] != 2]
    chunk, within = locate(bad)
    start = bad - within
    local = int(np.count_nonzero(rows[start:bad, 0] != 2))
    with pytest.raises(IndexOutOfBoundsError) as info:
        xd.ravel(kept, SHAPE).compute(scheduler="threads")
    assert f" at row {local} of row chunk {chunk} (chunk sizes unknown" in str(info.value)
    # With the chunk sizes computed, the row is global again.
    kept.compute_chunk_sizes()
    row = int(np.count_nonzero(rows[:bad, 0] != 2))
    with pytest.raises(IndexOutOfBoundsError) as info:
        xd.ravel(kept, SHAPE).compute(scheduler="threads")
    assert f" at row {row} of the batch (row {local} of row chunk {chunk})" in str(info.value)


BAD_ARGUMENTS = [
    ("ravel", ROWS.astype(np.float64), {}),
    ("ravel", ROWS.astype(bool), {}),
    ("ravel", ROWS[:, :2], {}),
    ("ravel", ROWS[:, :, None], {}),
    ("ravel", ROWS, {"mode": "bounce"}),
    ("ravel", ROWS, {"mode": ("wrap", "clip")}),
    ("ravel", ROWS, {"threads": 0}),
    ("ravel", ROWS, {"threads": 1.5}),
    ("ravel", ROWS, {"shape": (5, 7, 3)}),
    ("unravel", OFFSETS.astype(np.float32), {}),
    ("unravel", ROWS, {}),
    ("unravel", OFFSETS, {"threads": -2}),
    ("unravel", OFFSETS, {"shape": b"f32[5,7,3]"}),
]


@pytest.mark.parametrize("name, data, kwargs", BAD_ARGUMENTS)
def test_bad_arguments_fail_at_once_as_at_numpy_level(name, data, kwargs):
    kwargs = {"shape": SHAPE, **kwargs}
    with pytest.raises((TypeError, ValueError)) as numpy_error:
        getattr(xlashape, name)(data, **kwargs)
    # Raised while building the graph: nothing is computed.
    with pytest.raises(type(numpy_error.value)) as dask_error:
        getattr(xd, name)(da.from_array(data, chunks=5), **kwargs)
    assert str(dask_error.value) == str(numpy_error.value)


def test_importing_xlashape_does_not_import_dask():
    code = "import sys, xlashape; assert 'dask' not in sys.modules, 'dask was imported'"
    root = os.path.dirname(os.path.dirname(xlashape.__file__))
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root)


# -- the workers ------------------------------------------------------------------


def test_workers_import_xlashape_and_run_its_compiled_kernels(client):
    # Each worker process loads the extension module and ravels a read-only
    # batch with it.
    results = client.run(
        lambda rows: (
            os.getpid(),
            xlashape.core._batch.__file__,
            xlashape.ravel(read_only(rows), SHAPE, threads=1),
        ),
        ROWS,
    )
    assert len(results) == 2
    pids = {pid for pid, _, _ in results.values()}
    assert len(pids) == 2 and os.getpid() not in pids
    for _, path, offsets in results.values():
        assert path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
        np.testing.assert_array_equal(offsets, OFFSETS)
