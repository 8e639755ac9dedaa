"""Hypothesis strategies: random shapes with random layouts and padding."""

from __future__ import annotations

import math

import hypothesis.strategies as st
import numpy as np
from hypothesis import assume

from xlashape import Layout, PaddingValue, Shape

# Element types whose byte sizes differ, to exercise byte_size_of.
ELEMENT_TYPES = ("pred", "s8", "u16", "f32", "s64", "c128", "bf16")


@st.composite
def shapes(draw, min_rank: int = 0, max_rank: int = 8, max_size: int = 4, max_elements: int = 4096, pad: bool = True):
    """A Shape of rank min_rank..max_rank with sizes 0..max_size, a random
    minor_to_major permutation and, sometimes, padding."""
    rank = draw(st.integers(min_rank, max_rank))
    dims = draw(st.lists(st.integers(0, max_size), min_size=rank, max_size=rank))
    m2m = draw(st.permutations(range(rank)))
    padded = ()
    if pad and rank and draw(st.booleans()):
        padded = tuple(d + draw(st.integers(0, 2)) for d in dims)
    if math.prod(padded or dims) > max_elements:
        padded = ()
        dims = [min(d, 2) for d in dims]
    value = draw(st.sampled_from(list(PaddingValue))) if pad else PaddingValue.INVALID_PAD
    return Shape(draw(st.sampled_from(ELEMENT_TYPES)), dims, Layout(m2m, padded, value))


@st.composite
def tiled_shapes(draw, tiles=None):
    """A tiled Shape: random sizes (often not multiples of the tile), order
    and tiles, or the given tiles."""
    rank = draw(st.integers(1 if tiles is None else max(len(t) for t in tiles[:1]), 4))
    dims = draw(st.lists(st.integers(0, 20), min_size=rank, max_size=rank))
    m2m = draw(st.permutations(range(rank)))
    if tiles is None:
        count = draw(st.integers(1, 3))
        tiles = []
        for _ in range(count):
            length = draw(st.integers(1, rank + 1))
            sizes = draw(st.lists(st.sampled_from([1, 2, 3, 4, 8, -1]), min_size=length, max_size=length))
            sizes[-1] = abs(sizes[-1])
            tiles.append(sizes)
    if math.prod(dims) > 3000:
        dims = [min(d, 6) for d in dims]
    return Shape("f32", dims, Layout(m2m, tiles=tiles))


@st.composite
def big_shapes(draw):
    """Shapes of rank 1 to 6 with sizes up to 10**6 and up to 2**50
    elements, any order, padded or tiled (power-of-two and other tiles, *,
    one or two levels)."""
    rank = draw(st.integers(1, 6))
    dims: list[int] = []
    for _ in range(rank):
        dims.append(draw(st.integers(1, max(1, min(10**6, 2**50 // math.prod(dims))))))
    m2m = draw(st.permutations(range(rank)))
    kind = draw(st.sampled_from(["plain", "padded", "tiled"]))
    if kind == "padded":
        layout = Layout(m2m, [d + draw(st.integers(0, 300)) for d in dims])
    elif kind == "tiled":
        sizes = st.sampled_from([1, 2, 3, 8, 100, 128, 256, -1])
        first = draw(st.lists(sizes, min_size=1, max_size=min(rank, 3)))
        first[-1] = abs(first[-1])
        tiles = [first] + ([[2, 1]] if draw(st.booleans()) else [])
        layout = Layout(m2m, tiles=tiles)
    else:
        layout = Layout(m2m)
    try:
        return Shape(draw(st.sampled_from(["f32", "bf16", "s8", "c128"])), dims, layout)
    except (ValueError, OverflowError):  # a buffer past int64
        assume(False)
        raise


def all_multi_indices(shape: Shape) -> np.ndarray:
    """Every in-bounds multi-index of ``shape``, row-major, as (N, rank)."""
    if shape.rank == 0:
        return np.zeros((1, 0), dtype=np.int64)
    grids = np.indices(shape.dimensions).reshape(shape.rank, -1)
    return np.ascontiguousarray(grids.T)
