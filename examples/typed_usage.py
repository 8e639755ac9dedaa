"""User code that type-checks with ``mypy --strict`` against xlashape.

CI runs mypy over this file (``[tool.mypy] files`` in pyproject.toml), so a
change to the public signatures or stubs that breaks ordinary typed callers
fails there. It also runs: ``python examples/typed_usage.py`` prints the
offsets of a few multi-indices under a column-major, padded layout.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import xlashape as xs


def offsets_of(indices: npt.NDArray[np.int64], shape: xs.Shape) -> npt.NDArray[np.int64]:
    """Linear offsets of an (N, rank) batch of multi-indices."""
    result: npt.NDArray[np.int64] = xs.ravel(indices, shape, mode="raise", threads=1)
    return result


def round_trip(shape: xs.Shape, offsets: npt.NDArray[np.int64]) -> bool:
    """True when unravel then ravel gives the offsets back."""
    rows = xs.unravel(offsets, shape)
    return bool(np.array_equal(xs.ravel(rows, shape), offsets))


def column_major(dims: list[int], padded: list[int]) -> xs.Shape:
    """A padded, column-major f32 shape."""
    layout = xs.Layout(list(range(len(dims))), padded_dimensions=padded)
    return xs.Shape(xs.PrimitiveType.F32, dims, layout)


def from_text(text: str) -> tuple[int, ...]:
    """The dimensions of a shape written as XLA writes it."""
    shape = xs.ShapeUtil.parse_shape_string(text)
    assert isinstance(shape, xs.Shape)  # not a tuple, token or opaque shape
    return shape.dimensions


def drop_ins(flat: npt.NDArray[np.intp]) -> int:
    """NumPy-shaped calls: a scalar in gives a scalar out."""
    one: np.intp = xs.ravel_multi_index((1, 2), (2, 3), order="F")
    rows = xs.unravel_index(flat, (2, 3))
    return int(one) + len(rows)


def bitcast_layout(source: xs.Shape, dims: list[int]) -> xs.Shape | None:
    """The layout that makes reshaping ``source`` to ``dims`` a bitcast, if any."""
    target = xs.ShapeUtil.make_shape_with_descending_layout(source.element_type, dims)
    return xs.ShapeUtil.align_layouts(source, target)


def memory_order(shape: xs.Shape) -> list[tuple[int, ...]]:
    """The multi-indices of ``shape`` in the order its buffer holds them."""
    rows: npt.NDArray[np.int64] = xs.ShapeUtil.indices_in_physical_order(shape)
    return [tuple(row) for row in rows.tolist()]


def main() -> None:
    shape = column_major([2, 3], [3, 5])
    indices = np.array([[0, 1], [1, 2]], dtype=np.int64)
    offsets = offsets_of(indices, shape)
    threads: int = xs.get_num_threads()
    print(xs.ShapeUtil.human_string_with_layout(shape), offsets.tolist(), threads > 0)
    assert offsets.tolist() == [3, 7]
    assert from_text("f32[2,3]{0,1}") == (2, 3)
    assert round_trip(shape, offsets)
    assert drop_ins(np.arange(6, dtype=np.intp)) == 7
    aligned = bitcast_layout(xs.Shape("f32", [6, 4], xs.Layout([0, 1])), [2, 3, 4])
    assert aligned is not None and aligned.layout.minor_to_major == (1, 0, 2)
    assert memory_order(xs.Shape("f32", [2, 2], xs.Layout([0, 1]))) == [(0, 0), (1, 0), (0, 1), (1, 1)]
    try:
        xs.ravel(np.array([[2, 0]]), shape)
    except xs.IndexOutOfBoundsError as error:
        print("refused:", error)


if __name__ == "__main__":
    main()
