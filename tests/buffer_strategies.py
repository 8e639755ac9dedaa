"""Strategies and inputs for the linear-buffer and bitcast tests."""

from __future__ import annotations

import itertools
import math

import hypothesis.strategies as st
import numpy as np
from oracles import numpy_ravel
from strategies import all_multi_indices, shapes

from xlashape import Layout, PaddingValue, PrimitiveType, Shape

# Every element type with a NumPy dtype.
NUMPY_TYPES = tuple(t for t in PrimitiveType if t.numpy_dtype is not None)
# Padding values that ask for a fill, and those that leave padding as it is.
FILLED = (
    PaddingValue.ZERO_PAD,
    PaddingValue.ONE_PAD,
    PaddingValue.LOWEST_PAD,
    PaddingValue.HIGHEST_PAD,
)
UNFILLED = (PaddingValue.INVALID_PAD, PaddingValue.UNKNOWN_PAD)


@st.composite
def numpy_shapes(draw, **kwargs) -> Shape:
    """A random shape (as ``strategies.shapes``) of any NumPy-backed type."""
    shape = draw(shapes(**kwargs))
    return Shape(draw(st.sampled_from(NUMPY_TYPES)), shape.dimensions, shape.layout)


def numbered(dimensions: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """A C array of ``dimensions`` whose elements count up from 1, modulo
    100 so that every dtype holds them exactly (bool holds them as True)."""
    count = math.prod(dimensions)
    return (1 + np.arange(count) % 100).astype(dtype).reshape(dimensions)


def element_offsets(shape: Shape) -> np.ndarray:
    """Every element's offset in the linear buffer, in row-major order of the
    logical array, by NumPy's ravel_multi_index (the oracle)."""
    return numpy_ravel(shape, all_multi_indices(shape))


def padding_mask(shape: Shape) -> np.ndarray:
    """True at the buffer positions that hold no element."""
    mask = np.ones(shape.buffer_size, dtype=bool)
    if shape.element_count:
        mask[element_offsets(shape)] = False
    return mask


@st.composite
def layouts(draw, dimensions: tuple[int, ...]) -> Layout:
    """A random layout for ``dimensions``: any order, sometimes padded."""
    rank = len(dimensions)
    padded = ()
    if rank and draw(st.booleans()):
        padded = tuple(d + draw(st.integers(0, 2)) for d in dimensions)
    return Layout(
        draw(st.permutations(range(rank))), padded, draw(st.sampled_from(list(PaddingValue)))
    )


@st.composite
def regrouped(draw, dimensions: tuple[int, ...]) -> tuple[int, ...]:
    """Other dimensions with the same element count: the prime factors of
    ``dimensions``, in order or shuffled, regrouped, with 1s put in."""
    if 0 in dimensions:
        return tuple(draw(st.lists(st.integers(0, 3), max_size=3))) + (0,)
    factors = [p for d in dimensions for p in _prime_factors(d)]
    if draw(st.booleans()):
        factors = draw(st.permutations(factors))
    groups = []
    if factors:
        cuts = sorted(draw(st.sets(st.integers(1, len(factors) - 1)))) if len(factors) > 1 else []
        bounds = [0] + cuts + [len(factors)]
        groups = [math.prod(factors[a:b]) for a, b in itertools.pairwise(bounds)]
    for _ in range(draw(st.integers(0, 2))):
        groups.insert(draw(st.integers(0, len(groups))), 1)
    return tuple(groups)


def _prime_factors(n: int) -> list[int]:
    factors, p = [], 2
    while n > 1:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1
    return factors


def _with_unit_dimension(shape: Shape, position: int, place: int) -> Shape:
    """``shape`` with a size-1 dimension inserted at ``position``, at
    ``place`` in minor_to_major: the same elements at the same offsets."""
    dims = shape.dimensions[:position] + (1,) + shape.dimensions[position:]
    order = [d if d < position else d + 1 for d in shape.layout.minor_to_major]
    order.insert(place, position)
    padded = shape.layout.padded_dimensions
    if padded:
        padded = padded[:position] + (1,) + padded[position:]
    return Shape(shape.element_type, dims, Layout(order, padded, shape.layout.padding_value))


@st.composite
def reshape_pairs(draw) -> tuple[Shape, Shape]:
    """An input shape and a reshape of it: both row-major, or each with a
    random layout, or the same layout with a size-1 dimension put in (so that
    bitcasts, padded ones included, are common). The element types are
    mostly the same."""
    shape = draw(shapes(max_rank=5, max_elements=512))
    kind = draw(st.sampled_from(["row-major", "random", "unit"]))
    if kind == "unit":
        source = shape
        target = _with_unit_dimension(
            shape, draw(st.integers(0, shape.rank)), draw(st.integers(0, shape.rank))
        )
    else:
        dims = draw(regrouped(shape.dimensions))
        if kind == "row-major":
            source = Shape(shape.element_type, shape.dimensions)
            target = Shape(shape.element_type, dims)
        else:
            source = shape
            target = Shape(shape.element_type, dims, draw(layouts(dims)))
    if draw(st.integers(0, 9)) == 0:
        other = "s8" if target.element_type != PrimitiveType.S8 else "u8"
        target = Shape(other, target.dimensions, target.layout)
    return source, target


@st.composite
def transposes(draw) -> tuple[Shape, tuple[int, ...], Shape]:
    """A shape, a dimension mapping and the transposed shape: with a random
    layout, or half the time the one that keeps every element in place."""
    shape = draw(shapes(max_rank=5, max_elements=512))
    mapping = tuple(draw(st.permutations(range(shape.rank))))
    dims = tuple(shape.dimensions[d] for d in mapping)
    if draw(st.booleans()):
        return shape, mapping, Shape(shape.element_type, dims, draw(layouts(dims)))
    inverse = np.argsort(mapping)
    order = [int(inverse[d]) for d in shape.layout.minor_to_major]
    padded = shape.layout.padded_dimensions
    widths = tuple(padded[d] for d in mapping) if padded else ()
    return (
        shape,
        mapping,
        Shape(shape.element_type, dims, Layout(order, widths, shape.layout.padding_value)),
    )
