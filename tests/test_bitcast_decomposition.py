"""ShapeUtil.decompose_bitcast and its kin against XLA's own tests
(xla/shape_util_test.cc) and against the element mapping of 2,000 random
bitcasts.

The oracle for the property: a bitcast reads the input's buffer as the
output, so input element ``i`` (at offset ``ravel(i, input)``) becomes the
output element ``unravel(offset, output)``. A reshape keeps the logical
row-major order (NumPy's ``ravel_multi_index``), and a transpose by
``dims`` gives output index ``o[j] = i[dims[j]]``.
"""

import numpy as np
import pytest
from buffer_strategies import _prime_factors
from strategies import all_multi_indices

import xlashape as xs
from xlashape import Shape, ShapeUtil
from xlashape.xla.bitcast_decomposition import (
    BitcastDecompositionReshape,
    BitcastDecompositionTranspose,
    BitcastDecompositionTrt,
)

dense = ShapeUtil.make_shape_with_dense_layout


def test_decompose_bitcast_to_reshape():
    """ShapeUtilTest.DecomposeBitcastToReshape."""
    got = ShapeUtil.decompose_bitcast(dense("f32", [1, 16, 17, 3], [3, 2, 1, 0]), dense("f32", [16, 51], [1, 0]))
    assert isinstance(got, BitcastDecompositionReshape)


def test_decompose_bitcast_to_reshape2():
    """ShapeUtilTest.DecomposeBitcastToReshape2."""
    got = ShapeUtil.decompose_bitcast(dense("f32", [17, 3, 1, 16], [1, 0, 3, 2]), dense("f32", [51, 16], [0, 1]))
    assert isinstance(got, BitcastDecompositionReshape)


def test_decompose_bitcast_to_transpose():
    """ShapeUtilTest.DecomposeBitcastToTranspose."""
    got = ShapeUtil.decompose_bitcast(dense("f32", [3, 7, 6, 4], [3, 2, 1, 0]), dense("f32", [3, 6, 4, 7], [2, 1, 3, 0]))
    assert got == BitcastDecompositionTranspose((0, 2, 3, 1))


# (XLA test, input, output, transpose1_dims, transpose1_shape, reshape_shape, transpose2_dims)
TRT_CASES = [
    ("DecomposeBitcastToReshapeAndTranspose",
     dense("f32", [16, 17, 3], [2, 1, 0]), dense("f32", [51, 16], [0, 1]),
     (0, 1, 2), dense("f32", [16, 17, 3], [2, 1, 0]), dense("f32", [16, 51], [1, 0]), (1, 0)),
    ("DecomposeBitcastToReshapeAndTranspose2",
     dense("f32", [16, 17, 3, 7], [3, 2, 1, 0]), dense("f32", [7, 16, 51], [0, 2, 1]),
     (0, 1, 2, 3), dense("f32", [16, 17, 3, 7], [3, 2, 1, 0]), dense("f32", [16, 51, 7], [2, 1, 0]), (2, 0, 1)),
    ("DecomposeBitcastToTransposeAndReshape",
     dense("f32", [16, 3, 17], [1, 2, 0]), dense("f32", [51, 16], [1, 0]),
     (0, 2, 1), dense("f32", [16, 17, 3], [2, 1, 0]), dense("f32", [51, 16], [1, 0]), (0, 1)),
    ("DecomposeBitcastToTrt",
     dense("f32", [16, 3, 17], [1, 2, 0]), dense("f32", [16, 51], [0, 1]),
     (0, 2, 1), dense("f32", [16, 17, 3], [2, 1, 0]), dense("f32", [51, 16], [1, 0]), (1, 0)),
]


@pytest.mark.parametrize("xla_test, source, target, dims1, shape1, reshaped, dims2", TRT_CASES)
def test_decompose_bitcast_to_trt(xla_test, source, target, dims1, shape1, reshaped, dims2):
    """ShapeUtilTest.DecomposeBitcastToReshapeAndTranspose, ...AndTranspose2,
    DecomposeBitcastToTransposeAndReshape and DecomposeBitcastToTrt: the
    pieces and both identity checks, as XLA states them."""
    got = ShapeUtil.decompose_bitcast(source, target)
    assert isinstance(got, BitcastDecompositionTrt), xla_test
    assert got.transpose1_dims == dims1
    assert got.transpose1_shape == shape1
    assert got.reshape_shape == reshaped
    assert got.transpose2_dims == dims2
    assert got.is_transpose1_identity() == (list(dims1) == sorted(dims1))
    assert got.is_transpose2_identity() == (list(dims2) == sorted(dims2))
    assert ShapeUtil.decompose_bitcast_to_trt(source, target) == got


def test_decompositions_are_reached_from_shape_util():
    """The result classes are XLA's nested ShapeUtil types."""
    assert ShapeUtil.BitcastDecompositionReshape is BitcastDecompositionReshape
    assert ShapeUtil.BitcastDecompositionTranspose is BitcastDecompositionTranspose
    assert ShapeUtil.BitcastDecompositionTrt is BitcastDecompositionTrt


def test_not_decomposable_and_refused():
    assert ShapeUtil.is_decomposable_bitcast("f32[2,3]{0,1}", "s8[6]")
    assert not ShapeUtil.is_decomposable_bitcast("f32[2,3]", "f32[7]")
    assert ShapeUtil.decompose_bitcast("f32[2,3]", "f32[7]") is None
    assert ShapeUtil.decompose_bitcast_to_trt("f32[2,3]", "f32[7]") is None
    with pytest.raises(ValueError, match="is tiled: its buffer is no reshape or transpose"):
        ShapeUtil.decompose_bitcast("f32[8,128]{1,0:T(8,128)}", "f32[1024]")
    padded = Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
    with pytest.raises(ValueError, match="is padded"):
        ShapeUtil.decompose_bitcast_to_trt(padded, "f32[6]")
    with pytest.raises(TypeError, match="input_shape must be a Shape"):
        ShapeUtil.decompose_bitcast(None, "f32[6]")


# -- the property: 2,000 random bitcasts -------------------------------------------------


def _random_shape(rng: np.random.Generator, sizes: list[int]) -> Shape:
    return Shape("f32", sizes, xs.Layout(rng.permutation(len(sizes)).tolist()))


def _factor(rng: np.random.Generator, n: int, rank: int) -> list[int]:
    """``rank`` sizes whose product is ``n`` (rank >= 1), ones scattered in."""
    sizes = [1] * rank
    for prime in _prime_factors(n):
        sizes[rng.integers(rank)] *= prime
    return sizes


def _bitcast_pairs(count: int, seed: int):
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        in_rank = int(rng.integers(0, 7))
        out_rank = int(rng.integers(0, 7)) if rng.random() >= 0.25 else in_rank
        sizes = rng.integers(1, 5, size=in_rank).tolist()
        if rng.random() < 0.05 and in_rank:
            sizes[rng.integers(in_rank)] = 0
        n = int(np.prod(sizes, dtype=np.int64))
        if out_rank == 0 and n != 1:
            continue
        if out_rank == in_rank and rng.random() < 0.7:  # the sizes in another order: often a transpose
            out_sizes = rng.permutation(sizes).tolist()
        elif n == 0:
            out_sizes = rng.integers(0, 4, size=out_rank).tolist()
            if out_rank:
                out_sizes[rng.integers(out_rank)] = 0
            else:
                continue
        else:
            out_sizes = _factor(rng, n, out_rank) if out_rank else []
        made += 1
        yield _random_shape(rng, sizes), _random_shape(rng, out_sizes)


def _reshape(index: np.ndarray, source: Shape, target: Shape) -> np.ndarray:
    """Row-major multi-index ``index`` of ``source`` as one of ``target``."""
    flat = np.ravel_multi_index(tuple(index.T), source.dimensions) if source.rank else np.zeros(len(index), np.int64)
    if not target.rank:
        return np.zeros((len(index), 0), np.int64)
    return np.stack(np.unravel_index(flat, target.dimensions), axis=1)


def _transpose(index: np.ndarray, dims) -> np.ndarray:
    return index[:, list(dims)] if len(dims) else index


def test_pieces_applied_in_order_move_every_element_where_the_bitcast_does():
    """For 2,000 random bitcasts (ranks 0-6, random layouts; a seeded loop),
    each piece is a bitcast, as XLA's CHECKs require, and the pieces,
    applied in order, send every input element to the output element that
    the bitcast (same buffer offset) sends it to."""
    kinds = {BitcastDecompositionReshape: 0, BitcastDecompositionTranspose: 0, BitcastDecompositionTrt: 0}
    for source, target in _bitcast_pairs(2000, seed=36):
        piece = ShapeUtil.decompose_bitcast(source, target)
        kinds[type(piece)] += 1
        index = all_multi_indices(source)
        if not len(index):
            continue
        expected = xs.unravel(xs.ravel(index, source), target)
        if isinstance(piece, BitcastDecompositionReshape):
            got = _reshape(index, source, target)
        elif isinstance(piece, BitcastDecompositionTranspose):
            assert ShapeUtil.transpose_is_bitcast(source, target, piece.transpose_dims)
            got = _transpose(index, piece.transpose_dims)
        else:
            assert ShapeUtil.transpose_is_bitcast(source, piece.transpose1_shape, piece.transpose1_dims)
            assert ShapeUtil.reshape_is_bitcast(piece.transpose1_shape, piece.reshape_shape)
            assert ShapeUtil.transpose_is_bitcast(piece.reshape_shape, target, piece.transpose2_dims)
            got = _transpose(index, piece.transpose1_dims)
            got = _reshape(got, piece.transpose1_shape, piece.reshape_shape)
            got = _transpose(got, piece.transpose2_dims)
        np.testing.assert_array_equal(got.reshape(expected.shape), expected, err_msg=f"{source} -> {target}: {piece}")
    assert all(kinds.values()), kinds  # every kind of piece was met


def test_trt_alone_reproduces_every_bitcast():
    """decompose_bitcast_to_trt, even where a reshape or a transpose alone
    would do, moves every element where the bitcast does (300 cases)."""
    for source, target in _bitcast_pairs(300, seed=7):
        trt = ShapeUtil.decompose_bitcast_to_trt(source, target)
        index = all_multi_indices(source)
        if not len(index):
            continue
        expected = xs.unravel(xs.ravel(index, source), target)
        got = _transpose(_reshape(_transpose(index, trt.transpose1_dims), trt.transpose1_shape, trt.reshape_shape),
                         trt.transpose2_dims)
        np.testing.assert_array_equal(got.reshape(expected.shape), expected)
