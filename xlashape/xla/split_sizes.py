"""The pieces a layout's split configs (``SC(...)``) cut an array into, as
XLA's ``LayoutUtil`` sizes them: each split dimension's largest piece, and
the elements of the largest piece of the whole array. XLA sizes a tiled
buffer by them (``ShapeUtil::ArraySize``); no element's offset changes.
"""

from __future__ import annotations

import itertools
import math

from .._validate import as_int
from ..errors import IndexOutOfBoundsError
from ..model.layout import SplitConfig
from ..shapes.shape import UNBOUNDED_SIZE, Shape
from ..shapes.shape_text import require_shape

__all__ = ["check_split_configs", "get_split_config", "max_elements_in_per_split", "max_split_size"]


def _config_dimension(shape: Shape, physical: int, config: object) -> int:
    """The logical dimension a split config's physical dimension names;
    ValueError where the shape has no such dimension."""
    if not 0 <= physical < shape.rank:
        raise ValueError(
            f"layout split config {config} names physical dimension {physical}, but "
            f"shape {shape} has {shape.rank} dimensions: no piece of it can be sized"
        )
    return shape.layout.minor_to_major[shape.rank - 1 - physical]


def max_split_size(shape: Shape, dim: int) -> int:
    """The size of dimension ``dim``'s largest piece under the layout's split
    config for it, or the dimension's size where none splits it (XLA's
    ``LayoutUtil::MaxSplitSize``). As XLA's, it is arithmetic on the split
    indices alone: the piece before the first index, between indices, and
    after the last one; the first split config for the dimension counts.

    Raises
    ------
    IndexError
        For ``dim`` outside the rank.
    ValueError
        For a split config naming a physical dimension the shape lacks.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[150,200,100]{0,1,2:SC(0:30)(1:40,130)}")
    >>> [xs.LayoutUtil.max_split_size(shape, d) for d in range(3)]
    [150, 90, 70]
    """
    shape = require_shape(shape)
    d = as_int(dim, "dim")
    if not 0 <= d < shape.rank:
        raise IndexOutOfBoundsError(
            f"dim {d} is out of range for a rank-{shape.rank} shape; expected 0 <= dim < {shape.rank}"
        )
    size = shape.dimensions[d]
    for config in shape.layout.split_configs:
        if _config_dimension(shape, config.dimension, config) == d:
            edges = (0, *config.split_indices)
            largest = max((b - a for a, b in itertools.pairwise(edges)), default=0)
            return max(largest, size - edges[-1])
    return size


def max_elements_in_per_split(shape: Shape) -> int:
    """The elements of the array's largest piece: the product of every
    dimension's :func:`max_split_size` (XLA's
    ``LayoutUtil::MaxElementsInPerSplit``).

    Examples
    --------
    >>> xs.LayoutUtil.max_elements_in_per_split("f32[150,200,100]{0,1,2:SC(0:30)(1:40,130)}")
    945000
    """
    shape = require_shape(shape)
    return math.prod(max_split_size(shape, d) for d in range(shape.rank))


def check_split_configs(shape: Shape, what: str) -> None:
    """ValueError unless each split config cuts its dimension into pieces:
    indices that do not decrease, from 0 to the dimension's size. XLA builds
    any indices; sizing a buffer by them (``what``) needs pieces, and one
    split config a dimension."""
    dims = [config.dimension for config in shape.layout.split_configs]
    if len(set(dims)) != len(dims):
        raise ValueError(f"{what}: the split configs of {shape} split a physical dimension twice: dimensions {dims}")
    for config in shape.layout.split_configs:
        size = shape.dimensions[_config_dimension(shape, config.dimension, config)]
        edges = (0, *config.split_indices, size)
        if size != UNBOUNDED_SIZE and any(a > b for a, b in itertools.pairwise(edges)):
            raise ValueError(
                f"{what}: layout split config {config} of {shape} does not cut physical "
                f"dimension {config.dimension} (size {size}) into pieces; its indices must "
                f"rise from 0 to at most {size}"
            )


def get_split_config(shape: Shape) -> SplitConfig | None:
    """The layout's one split config, or None where it has none (XLA's
    ``LayoutUtil::GetSplitConfig``).

    Raises
    ------
    ValueError
        For a layout with more than one split config (XLA's ``CHECK``).

    Examples
    --------
    >>> xs.LayoutUtil.get_split_config("f32[150,200]{1,0:SC(0:30)}")
    SplitConfig(0, (30,))
    >>> print(xs.LayoutUtil.get_split_config("f32[150,200]"))
    None
    """
    configs = require_shape(shape).layout.split_configs
    if len(configs) > 1:
        raise ValueError(f"get_split_config takes a layout with at most one split config, got {len(configs)}")
    return configs[0] if configs else None
