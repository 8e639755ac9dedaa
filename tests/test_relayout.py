"""relayout, and to_linear / from_linear on the compiled mover: against
xlashape.reference at every CPU level and thread count, over random shapes,
layouts, tilings, paddings, element sizes, non-contiguous inputs and out=
buffers at every alignment."""

import contextlib
import functools
import itertools
import math

import hypothesis.strategies as st
import ml_dtypes
import numpy as np
import pytest
from buffer_strategies import FILLED, UNFILLED, numbered
from hypothesis import given, settings

import xlashape as xs
from xlashape import Layout, PaddingValue, Shape, cpu, reference
from xlashape.linear import packing

LEVELS = xs.cpu_features()["supported"]
# Element types of every size the mover takes (1, 2, 4, 8), one it leaves to
# the element-by-element path (16), and packed sub-byte ones.
TYPES = ("pred", "s8", "u8", "bf16", "s16", "f32", "s32", "f64", "s64", "c128", "s4", "f8e4m3fn")
# Tilings TPUs use and random ones (with '*'), for ranks 1 and up.
TPU_TILES = ([(8, 128)], [(8, 128), (2, 1)], [(8, 128), (4, 1)], [(128,)], [(2, -1, 128)], [(4, 4)])


@contextlib.contextmanager
def at_level(name: str):
    previous = xs.cpu.set_cpu_level(name)
    try:
        yield
    finally:
        xs.cpu.set_cpu_level(previous)


@contextlib.contextmanager
def streaming(threshold: int | bool):
    """Outputs streamed from ``threshold`` bytes on; True: every output
    (non-temporal stores however small), False: none."""
    if isinstance(threshold, bool):
        threshold = 0 if threshold else cpu.MAX_THRESHOLD_BYTES
    previous = cpu.set_stream_bytes(threshold)
    try:
        yield
    finally:
        cpu.set_stream_bytes(previous)


@pytest.fixture(params=LEVELS)
def level(request):
    with at_level(request.param):
        yield request.param


@st.composite
def layouts(draw, dims: list[int], element_type: str) -> Layout:
    """Any layout of ``dims``: a permutation, padded widths or tiles, a
    padding value, and for s4 sometimes packed 2 to a byte."""
    rank = len(dims)
    m2m = draw(st.permutations(range(rank)))
    pad = draw(st.sampled_from(list(PaddingValue)))
    bits = 4 if element_type == "s4" and draw(st.booleans()) else 0
    kind = draw(st.sampled_from(["plain", "padded", "tiled"]))
    if kind == "padded" and rank:
        widths = [d + draw(st.integers(0, 2)) for d in dims]
        return Layout(m2m, widths, pad, element_size_in_bits=bits)
    if kind == "tiled":
        if draw(st.booleans()):
            tiles = draw(st.sampled_from(TPU_TILES))
        else:
            tiles = []
            for _ in range(draw(st.integers(1, 2))):
                sizes = draw(st.lists(st.sampled_from([1, 2, 3, 4, 8, -1]), min_size=1, max_size=rank + 1))
                sizes[-1] = abs(sizes[-1])
                tiles.append(sizes)
        return Layout(m2m, (), pad, tiles=tiles, element_size_in_bits=bits)
    return Layout(m2m, (), pad, element_size_in_bits=bits)


@st.composite
def shape_pairs(draw) -> tuple[Shape, Shape]:
    """Two shapes of the same dimensions and element type."""
    element_type = draw(st.sampled_from(TYPES))
    rank = draw(st.integers(0, 4))
    dims = draw(st.lists(st.integers(0, 24), min_size=rank, max_size=rank))
    if math.prod(dims) > 2000:
        dims = [min(d, 6) for d in dims]
    source = Shape(element_type, dims, draw(layouts(dims, element_type)))
    return source, Shape(element_type, dims, draw(layouts(dims, element_type)))


def values_of(shape: Shape) -> np.ndarray:
    """A numbered array of the shape, in its storage dtype (-8..7 for s4)."""
    dtype = packing.storage_dtype(shape.element_type)
    if shape.element_type == xs.PrimitiveType.S4:
        return (np.arange(shape.element_count) % 16 - 8).astype(np.int8).reshape(shape.dimensions)
    return numbered(shape.dimensions, dtype)


def expected_buffer(shape: Shape, values: np.ndarray, before: np.ndarray | None) -> np.ndarray:
    """The reference's buffer, unpacked: elements at their offsets, padding
    as the padding value says, or as ``before`` had it (unspecified
    padding of out=), or 0 (unspecified, new buffer)."""
    dtype = values.dtype
    fill = xs.padding_fill_value(shape.layout.padding_value, dtype)
    if shape.element_type == xs.PrimitiveType.S4 and fill is not None and fill not in (0, 1):
        fill = dtype.type(-8 if fill < 0 else 7)  # the ends of s4, not of its int8 storage
    if fill is None:
        base = np.zeros(shape.buffer_size, dtype) if before is None else unpacked(before, shape)
    else:
        base = np.full(shape.buffer_size, fill, dtype)
    base = base.copy()
    base[reference_offsets(shape)] = values.reshape(-1)
    return base


@functools.lru_cache(maxsize=64)
def reference_offsets(shape: Shape) -> np.ndarray:
    """The reference's offset of each element of ``shape``, in C order."""
    offsets = [reference.linear_index_of(shape, index) for index in np.ndindex(*shape.dimensions)]
    return np.array(offsets, dtype=np.int64)


def unpacked(buffer: np.ndarray, shape: Shape) -> np.ndarray:
    bits = packing.packed_bits(shape)
    dtype = packing.storage_dtype(shape.element_type)
    return packing.unpack(buffer, bits, shape.buffer_size, dtype) if bits else buffer


def same(a: np.ndarray, b: np.ndarray) -> None:
    """Equal bit for bit (NaN padding included)."""
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8))


def byte_buffer(shape: Shape, offset: int, fill: int) -> np.ndarray:
    """A linear buffer of ``shape`` starting ``offset`` bytes into a larger
    array (an out= at any alignment), every byte ``fill``."""
    template = xs.to_linear(values_of(shape), shape)
    raw = np.full(template.nbytes + offset, fill, dtype=np.uint8)
    return raw[offset:].view(template.dtype)


# -- against the reference ---------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    pair=shape_pairs(),
    offset=st.integers(0, 7),
    threads=st.sampled_from([1, 2]),
    level=st.sampled_from(LEVELS),
    stream=st.booleans(),
)
def test_relayout_agrees_with_reference(pair, offset, threads, level, stream):
    with streaming(stream), at_level(level):
        check_relayout(pair, offset, threads)


def check_relayout(pair, offset, threads):
    source, target = pair
    values = values_of(source)
    buffer = xs.to_linear(values, source, threads=threads)
    same(unpacked(buffer, source), expected_buffer(source, values, None))
    copy = buffer.copy()
    moved = xs.relayout(buffer, source, target, threads=threads)
    same(unpacked(moved, target), expected_buffer(target, values, None))
    same(buffer, copy)  # the input is never modified
    out = byte_buffer(target, offset, 0x5A)
    before = out.copy()
    assert xs.relayout(buffer, source, target, out=out, threads=threads) is out
    same(unpacked(out, target), expected_buffer(target, values, before))
    same(xs.from_linear(moved, target, threads=threads), values)


@settings(max_examples=40, deadline=None)
@given(pair=shape_pairs(), form=st.sampled_from(["reversed", "every_other"]), level=st.sampled_from(LEVELS))
def test_non_contiguous_inputs(pair, form, level):
    _, shape = pair
    values = values_of(shape)
    if shape.rank == 0:
        return
    if form == "reversed":  # negative strides
        data = np.flip(np.flip(values, 0).copy(), 0)
    else:
        data = np.repeat(values, 2, axis=-1)[..., ::2]
    np.testing.assert_array_equal(data, values)
    with at_level(level):
        same(unpacked(xs.to_linear(data, shape), shape), expected_buffer(shape, values, None))


def test_from_linear_never_reads_padding():
    # Padding full of NaN and garbage: the result holds the elements only.
    shape = xs.ShapeUtil.parse_shape_string("f32[13,300]{1,0:T(8,128)}")
    values = numbered(shape.dimensions, np.float32)
    buffer = xs.to_linear(values, shape)
    garbage = np.full(shape.buffer_size, np.nan, np.float32)
    garbage[packing.element_offsets(shape)] = buffer[packing.element_offsets(shape)]
    same(xs.from_linear(garbage, shape), values)


# -- large buffers: every level, split over threads ----------------------------------
LARGE = (
    "f32[512,640]{0,1}",
    "f64[300,520]{0,1}",
    "bf16[520,700]{0,1}",
    "s8[700,900]{0,1}",
    "f32[24,40,16,20]{0,1,2,3}",
    "f32[509,1000]{1,0:T(8,128)}",
    "bf16[509,1000]{1,0:T(8,128)(2,1)}",
    "s8[509,1000]{1,0:T(8,128)(4,1)}",
    "f32[700,700]{0,1:T(8,128)}",
)


@pytest.mark.parametrize("text", LARGE)
@pytest.mark.parametrize("threads", [1, 2])
def test_large_buffers_at_every_level(level, text, threads):
    shape = xs.ShapeUtil.parse_shape_string(text)
    values = numbered(shape.dimensions, packing.storage_dtype(shape.element_type))
    offsets = packing.element_offsets(shape)
    buffer = xs.to_linear(values, shape, threads=threads)
    np.testing.assert_array_equal(buffer[offsets], values.reshape(-1))
    padding = np.ones(shape.buffer_size, dtype=bool)
    padding[offsets] = False
    assert not buffer[padding].any()  # unspecified padding of a new buffer: 0
    same(xs.from_linear(buffer, shape, threads=threads), values)
    row_major = Shape(shape.element_type, shape.dimensions)
    same(xs.relayout(buffer, shape, row_major, threads=threads), values.reshape(-1))
    transposed = values.T  # a non-contiguous input
    shape_t = Shape(shape.element_type, transposed.shape, shape.layout)
    if not shape.layout.tiles:
        np.testing.assert_array_equal(
            xs.to_linear(transposed, shape_t, threads=threads)[packing.element_offsets(shape_t)],
            transposed.reshape(-1),
        )


# Streamed, a transpose whose only outer axis is swept by its strips: the
# driver splits that axis over threads, so a chunk's count replaces it.
@pytest.mark.parametrize("threads", [1, 2])
def test_swept_transposes_split_over_threads(level, threads):
    shape = xs.ShapeUtil.parse_shape_string("f32[512,8,160]{0,1,2}")
    values = numbered(shape.dimensions, np.float32)
    with streaming(True):
        buffer = xs.to_linear(values, shape, threads=threads)
        same(buffer, expected_buffer(shape, values, None))
        same(xs.from_linear(buffer, shape, threads=threads), values)


# Past a streaming threshold of 16 MiB read and written (8 MiB written): runs
# and interleaves written by streaming stores (transposes beside them, not
# streamed).
STREAMED = (
    "f32[1100,2048]{1,0:T(8,128)}",
    "bf16[1100,4100]{1,0:T(8,128)(2,1)}",
    "s8[2200,4100]{1,0:T(8,128)(4,1)}",
    "s32[1500,1500]{1,0}",
    "f32[1500,1601]{0,1}",
    "bf16[2100,2101]{0,1}",
    "f64[1100,1001]{0,1}",
    "u8[3000,3001]{0,1}",
    "f32[48,48,48,25]{0,1,2,3}",
)


@pytest.mark.parametrize("text", STREAMED)
def test_streamed_outputs(level, text):
    shape = xs.ShapeUtil.parse_shape_string(text)
    values = numbered(shape.dimensions, packing.storage_dtype(shape.element_type))
    out = byte_buffer(shape, 3, 0)  # misaligned: the run's ends by memcpy
    with streaming(16 << 20):
        for buffer in (xs.to_linear(values, shape), xs.to_linear(values, shape, out=out)):
            np.testing.assert_array_equal(buffer[packing.element_offsets(shape)], values.reshape(-1))
            same(xs.from_linear(buffer, shape, threads=2), values)


# Streamed transposes whose result rows are whole 64-byte lines apart: an
# out= at any multiple of the element size within a line has its first
# elements of each row peeled off, then whole-line micro-blocks; the
# counts along both sides leave remainders past the micro-blocks.
LINE_ROWS = ("bf16[96,77]{0,1}", "f32[48,37]{0,1}", "f64[24,45]{0,1}", "f32[16,5,7,48]{0,1,2,3}")
# Reversed axes of more than two strips of result rows each way, each
# stripped along the axes between (xs_sweep): the first strip takes the
# peeled rows as well, and the last is short.
SWEPT = ("bf16[80,2,5,96]{0,1,2,3}", "f32[40,2,5,48]{0,1,2,3}", "f64[20,2,5,24]{0,1,2,3}")


@pytest.mark.parametrize("text", LINE_ROWS + SWEPT)
def test_streamed_transposes_at_every_alignment(level, text):
    shape = xs.ShapeUtil.parse_shape_string(text)
    values = numbered(shape.dimensions, packing.storage_dtype(shape.element_type))
    source = Shape(shape.element_type, shape.dimensions)
    buffer = xs.to_linear(values, source)
    streamed_at_every_alignment(values, (
        (shape, lambda out: xs.to_linear(values, shape, out=out)),
        (shape, lambda out: xs.relayout(buffer, source, shape, out=out)),
    ))  # fmt: skip


def streamed_at_every_alignment(values: np.ndarray, calls) -> None:
    """Each ``(layout, call)`` of ``calls``, streaming forced, into an out=
    of that layout at every multiple of the element size within a 64-byte
    line, over two fills: the call returns its out=, which holds the
    reference's buffer of ``values`` and, elsewhere, what it held before."""
    with streaming(True):
        for offset, fill, (target, call) in itertools.product(
            range(0, 64, values.itemsize), (0x00, 0xA5), calls
        ):
            out = byte_buffer(target, offset, fill)
            before = out.copy()
            assert call(out) is out
            same(out, expected_buffer(target, values, before))


# Streamed tiled moves into an out= at every multiple of the element size
# within a 64-byte line: runs (T(8,128), of every element size), the
# interleaves of (2,1) and (4,1) tiles and, back to a row-major out=, their
# inverse; padded tiles among them (20 rows of 8-row tiles, 300 columns of
# 128-column ones). Each row of a tile is a run that shares a line with the
# next row's where the out= is not 64-byte aligned.
TILED_ROWS = (
    "f32[16,256]{1,0:T(8,128)}",
    "f32[20,300]{1,0:T(8,128)}",
    "s8[20,300]{1,0:T(8,128)}",
    "bf16[20,300]{1,0:T(8,128)}",
    "f64[20,300]{1,0:T(8,128)}",
    "bf16[16,256]{1,0:T(8,128)(2,1)}",
    "bf16[20,300]{1,0:T(8,128)(2,1)}",
    "s8[20,300]{1,0:T(8,128)(2,1)}",
    "f32[20,300]{1,0:T(8,128)(2,1)}",
    "s8[16,256]{1,0:T(8,128)(4,1)}",
    "s8[20,300]{1,0:T(8,128)(4,1)}",
    "bf16[20,300]{1,0:T(8,128)(4,1)}",
    # Rows that start on lines, whose inverse of 4 rows is staged: wider than
    # one stage (1024 and 512 columns a tile), and with part of a line over.
    "s8[8,2048]{1,0:T(8,1024)(4,1)}",
    "bf16[8,1024]{1,0:T(8,512)(4,1)}",
    "s8[8,192]{1,0:T(8,96)(4,1)}",
    # More rows of a tile than the inverse keeps staged at once: 16 pairs.
    "bf16[64,300]{1,0:T(32,128)(2,1)}",
    # A tile's row shorter than a line: the inverse's rows go on inside the
    # line they start in, which only their first part writes by memcpy.
    "s8[8,64]{1,0:T(8,16)(4,1)}",
    "bf16[8,40]{1,0:T(8,8)(2,1)}",
)


@pytest.mark.parametrize("text", TILED_ROWS)
def test_streamed_tiles_at_every_alignment(level, text):
    shape = xs.ShapeUtil.parse_shape_string(text)
    values = numbered(shape.dimensions, packing.storage_dtype(shape.element_type))
    row_major = Shape(shape.element_type, shape.dimensions)
    tiled = xs.to_linear(values, shape)
    flat = values.reshape(-1)
    streamed_at_every_alignment(values, (
        (shape, lambda out: xs.to_linear(values, shape, out=out)),
        (shape, lambda out: xs.relayout(flat, row_major, shape, out=out)),
        (row_major, lambda out: xs.relayout(tiled, shape, row_major, out=out)),
    ))  # fmt: skip


# The inverse interleaves ask for their source 16 moves ahead in the L2
# prefetch mode alone: every mode gives the same bytes at every alignment,
# the last moves asking past the source's end.
INVERSE_ROWS = (
    "bf16[20,300]{1,0:T(8,128)(2,1)}",
    "s8[20,300]{1,0:T(8,128)(4,1)}",
    "bf16[64,300]{1,0:T(32,128)(2,1)}",
)


@pytest.mark.parametrize("text", INVERSE_ROWS)
def test_inverse_interleaves_in_every_prefetch_mode(level, text, prefetch):
    shape = xs.ShapeUtil.parse_shape_string(text)
    values = numbered(shape.dimensions, packing.storage_dtype(shape.element_type))
    row_major = Shape(shape.element_type, shape.dimensions)
    tiled = xs.to_linear(values, shape)
    streamed_at_every_alignment(values, (
        (row_major, lambda out: xs.relayout(tiled, shape, row_major, out=out)),
    ))  # fmt: skip
    with streaming(True):
        same(xs.from_linear(tiled, shape), values)


# from_linear into an out= at every multiple of the element size within a
# 64-byte line, streamed or not: the tilings above (every element size under
# T(8,128), the (2,1) and (4,1) interleaves, padded tiles) and (4,1) under
# T(4,128). Bytes of the larger array outside out= stay as they were.
# Streamed, the runs of plain tiles go in the source's order where a tile
# has at most 8 rows, each row's line end held or set aside till the next
# tile's run of that row: several tile rows of 10 tiles (the ends of a
# row's last tile never taken back), tiles of 4 rows (the last padded), and
# tiles of 16 rows, which keep the result's order.
FROM_TILED = (
    *TILED_ROWS,
    "s8[20,300]{1,0:T(4,128)(4,1)}",
    "bf16[12,260]{1,0:T(4,128)(4,1)}",
    "f32[16,1280]{1,0:T(8,128)}",
    "s8[16,1280]{1,0:T(8,128)}",
    "f64[12,1250]{1,0:T(4,128)}",
    "f32[32,300]{1,0:T(16,128)}",
)


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("text", FROM_TILED + SWEPT)
def test_from_linear_into_out_at_every_alignment(level, text, stream):
    from_linear_at_every_alignment(text, stream, None)


# Runs of plain tiles in the source's order on one thread and two (every
# box of 16 KiB or more split): rows shorter than a line (ends staged, then
# set aside or taken back), several tile rows a range, and one tile row of
# many tiles, which threads split along its tiles. Then the inverse
# interleaves, whose moves step their two innermost axes apart from the
# others, in a frame for where their rows start (every move's on lines, all
# the same bytes past one, or anywhere): arrays of rank 3 (three axes and
# more outside each move), their rows going on from tile to tile or (padded
# tiles along the rows) not, and more than 8 moves a tile (32-row tiles);
# one tile row split along its tiles, or (4-row tiles: no axis outside the
# move) along its rows, whose chunks after the first start on lines; and
# one tile row of one tile a move, split along the tile rows' axis.
SOURCE_ORDER = (
    "f32[16,40]{1,0:T(8,8)}",
    "s8[16,100]{1,0:T(8,16)}",
    "bf16[16,72]{1,0:T(8,16)}",
    "f32[24,1280]{1,0:T(8,128)}",
    "f32[8,8192]{1,0:T(8,128)}",
    "bf16[3,16,512]{2,1,0:T(8,128)(2,1)}",
    "s8[2,24,384]{2,1,0:T(8,128)(4,1)}",
    "bf16[3,20,256]{2,1,0:T(8,128)(2,1)}",
    "bf16[2,64,256]{2,1,0:T(32,128)(2,1)}",
    "bf16[2,20,300]{2,1,0:T(8,128)(2,1)}",
    "bf16[8,4096]{1,0:T(8,128)(2,1)}",
    "s8[8,4096]{1,0:T(8,128)(4,1)}",
    "s8[4,8192]{1,0:T(4,128)(4,1)}",
    "bf16[4,4096]{1,0:T(4,128)(4,1)}",
    "bf16[64,128]{1,0:T(8,128)(2,1)}",
)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("text", SOURCE_ORDER)
def test_runs_in_the_source_order_at_every_alignment(level, text, threads, every_split):
    from_linear_at_every_alignment(text, True, threads)


# The interleaves of those, and of 4-byte elements, into an out= at every
# alignment: each thread's chunk begins a run of lines of its own, the line
# it starts in written in part, and leaves the line it ends in for its last
# bytes.
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(
    "text",
    [t for t in SOURCE_ORDER if ")(" in t] + ["f32[20,300]{1,0:T(8,128)(2,1)}"],
)
def test_interleaves_split_at_every_alignment(level, text, threads, every_split):
    shape = xs.ShapeUtil.parse_shape_string(text)
    values = numbered(shape.dimensions, packing.storage_dtype(shape.element_type))
    streamed_at_every_alignment(values, (
        (shape, lambda out: xs.to_linear(values, shape, out=out, threads=threads)),
    ))  # fmt: skip


def from_linear_at_every_alignment(text: str, stream: bool, threads: int | None) -> None:
    """from_linear of ``text``'s buffer of numbered values into an out= at
    every multiple of the element size within a 64-byte line, over two
    fills: out= holds the values, and the bytes around it what they held."""
    shape = xs.ShapeUtil.parse_shape_string(text)
    values = numbered(shape.dimensions, packing.storage_dtype(shape.element_type))
    buffer = xs.to_linear(values, shape)
    wanted = xs.from_linear(buffer, shape)
    same(wanted, values)
    with streaming(stream):
        for offset, fill in itertools.product(range(0, 64, values.itemsize), (0x00, 0xA5)):
            raw = np.full(values.nbytes + 128, fill, dtype=np.uint8)
            start = (-raw.ctypes.data) % 64 + offset
            out = raw[start : start + values.nbytes].view(values.dtype).reshape(values.shape)
            before = raw.copy()
            assert xs.from_linear(buffer, shape, out=out, threads=threads) is out
            same(out, wanted)
            outside = np.ones(raw.size, dtype=bool)
            outside[start : start + values.nbytes] = False
            np.testing.assert_array_equal(raw[outside], before[outside])


@pytest.mark.parametrize("text", ["f32[2,3]{0,1:T(2,2)}", "s4[3,5]{1,0:T(2,2)E(4)}", "bf16[4,3]{0,1}"])
def test_from_linear_into_out_agrees_with_reference(text):
    shape = xs.ShapeUtil.parse_shape_string(text)
    values = values_of(shape)
    buffer = xs.to_linear(values, shape)
    out = np.full(values.shape, 3, values.dtype)
    assert xs.from_linear(buffer, shape, out=out) is out
    same(out, values)


def test_from_linear_out_errors():
    shape = xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1:T(2,2)}")
    buffer = xs.to_linear(numbered((2, 3), np.float32), shape)
    read_only = np.zeros((2, 3), np.float32)
    read_only.flags.writeable = False
    cases = [
        ([[0.0] * 3] * 2, TypeError, "out must be a NumPy array, got list"),
        (np.zeros((3, 2), np.float32), ValueError, r"out must have shape \(2, 3\), got \(3, 2\)"),
        (np.zeros((2, 3)), TypeError, r"out must have dtype float32 \(native byte order\), got float64"),
        (np.zeros((2, 3), ">f4"), TypeError, r"out must have dtype float32 \(native byte order\), got >f4"),
        (read_only, ValueError, "out is read-only"),
        (np.zeros((3, 2), np.float32).T, ValueError, "out must be C-contiguous"),
        (buffer[:6].reshape(2, 3), ValueError, "out overlaps an input array"),
    ]
    for out, error, message in cases:
        before = np.array(out, copy=True)
        kept = buffer.copy()
        with pytest.raises(error, match=message):
            xs.from_linear(buffer, shape, out=out)
        np.testing.assert_array_equal(np.asarray(out), before)
        same(buffer, kept)


# -- padding -------------------------------------------------------------------------
def test_out_padding_left_untouched_for_unspecified_padding():
    # Issue 18: to_linear(..., out=) wrote 0 into the tile padding.
    shape = Shape("s32", (3, 5), Layout((1, 0), tiles=[xs.Tile((2, 2))]))
    out = np.full(24, 7, np.int32)
    xs.to_linear(np.arange(15, dtype=np.int32).reshape(3, 5), shape, out=out)
    assert out[9] == 7
    padding = np.ones(24, dtype=bool)
    padding[packing.element_offsets(shape)] = False
    assert (out[padding] == 7).all()


@pytest.mark.parametrize("pad", UNFILLED)
def test_packed_out_padding_left_untouched(pad):
    shape = Shape("s4", (3, 5), Layout((1, 0), (), pad, tiles=[(2, 2)], element_size_in_bits=4))
    values = (np.arange(15) % 16 - 8).astype(np.int8).reshape(3, 5)
    out = np.full(12, 0x77, np.uint8)
    xs.to_linear(values, shape, out=out)
    lanes = packing.unpack(out, 4, 24, np.dtype(np.int8))
    offsets = packing.element_offsets(shape)
    np.testing.assert_array_equal(lanes[offsets], values.reshape(-1))
    padding = np.ones(24, dtype=bool)
    padding[offsets] = False
    assert (lanes[padding] == 7).all()


@pytest.mark.parametrize("pad", FILLED)
@pytest.mark.parametrize("dtype", [ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2])
def test_narrow_float_padding(pad, dtype):
    text = {np.dtype(ml_dtypes.bfloat16): "bf16"}.get(np.dtype(dtype)) or "f8" + np.dtype(dtype).name[7:]
    shape = Shape(text, (3, 5), Layout((1, 0), (), pad, tiles=[(2, 4)]))
    fill = xs.padding_fill_value(pad, dtype)
    buffer = xs.to_linear(np.ones((3, 5), dtype), shape)
    padding = np.ones(shape.buffer_size, dtype=bool)
    padding[packing.element_offsets(shape)] = False
    same(buffer[padding], np.full(padding.sum(), fill, dtype))
    info = ml_dtypes.finfo(dtype)
    if pad == PaddingValue.HIGHEST_PAD:
        has_inf = np.isinf(np.array(np.inf, np.float32).astype(dtype).astype(np.float32))
        assert float(fill) == (np.inf if has_inf else float(info.max))


# -- ml_dtypes -----------------------------------------------------------------------
def test_bf16_tpu_layout_round_trip():
    shape = xs.ShapeUtil.parse_shape_string("bf16[40,300]{1,0:T(8,128)(2,1)}")
    values = np.arange(12000, dtype=np.float32).reshape(40, 300).astype(ml_dtypes.bfloat16)
    buffer = xs.to_linear(values, shape)
    assert buffer.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(buffer[packing.element_offsets(shape)], values.reshape(-1))
    same(xs.from_linear(buffer, shape), values)


def test_int4_arrays_pack_as_xla_packs():
    # XLA's PackIntN: the first element in the high-order nibble.
    shape = xs.ShapeUtil.parse_shape_string("s4[5]{0:E(4)}")
    values = np.array([1, -2, 3, -8, 7], dtype=ml_dtypes.int4)
    np.testing.assert_array_equal(xs.to_linear(values, shape), [0x1E, 0x38, 0x70])
    np.testing.assert_array_equal(xs.from_linear(xs.to_linear(values, shape), shape), values.astype(np.int8))


def test_float4_packs_its_bits():
    shape = xs.ShapeUtil.parse_shape_string("f4e2m1fn[3]{0:E(4)}")
    values = np.array([0.5, -6, 1], dtype=ml_dtypes.float4_e2m1fn)
    bits = values.view(np.uint8) & 0xF
    np.testing.assert_array_equal(xs.to_linear(values, shape), [bits[0] << 4 | bits[1], bits[2] << 4])
    same(xs.from_linear(xs.to_linear(values, shape), shape), values)


# -- errors --------------------------------------------------------------------------
def test_relayout_errors():
    row_major = xs.ShapeUtil.parse_shape_string("f32[2,3]{1,0}")
    buffer = np.zeros(6, np.float32)
    with pytest.raises(ValueError, match=r"relayout keeps the dimensions: .* has \(2, 3\), .* has \(3, 2\)"):
        xs.relayout(buffer, row_major, xs.ShapeUtil.parse_shape_string("f32[3,2]{1,0}"))
    with pytest.raises(TypeError, match=r"relayout keeps the element type: .* holds f32, .* holds s32"):
        xs.relayout(buffer, row_major, xs.ShapeUtil.parse_shape_string("s32[2,3]{1,0}"))
    with pytest.raises(TypeError, match=r"buffer must have dtype float32 .* got <f8"):
        xs.relayout(buffer.astype(np.float64), row_major, row_major)
    with pytest.raises(ValueError, match=r"buffer holds 5 elements, but shape .* needs 6"):
        xs.relayout(buffer[:5], row_major, row_major)
    with pytest.raises(ValueError, match=r"out holds 7 elements, but shape .* needs 6"):
        xs.relayout(buffer, row_major, row_major, out=np.zeros(7, np.float32))
