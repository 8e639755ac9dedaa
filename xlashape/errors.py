"""Exceptions raised by xlashape, and every message they carry.

Each error is built here by a constructor that takes its facts (the value,
the dimension, its size, the row) and keeps them as attributes, so callers
that restate an error (a row of a file, of a whole Dask array) use the
fields rather than parsing the message.
"""

from __future__ import annotations

from typing import Any

__all__ = ["IndexOutOfBoundsError", "SizeOverflowError"]

BATCH = "the batch"  # what a row is a row of, unless restated


class IndexOutOfBoundsError(IndexError, ValueError):
    """A multi-index or linear index lies outside the array it addresses (or
    a dimension number, physical position or tuple index outside its shape).

    It subclasses both :class:`IndexError` and :class:`ValueError` (as NumPy's
    ``AxisError`` does), so code written for either keeps working. The message
    names the row of the batch (for batches), the dimension, the value and the
    extent it broke.

    Examples
    --------
    >>> shape = xs.Shape("s32", [2, 3])
    >>> try:
    ...     xs.ravel([[0, 0], [1, 3]], shape)
    ... except IndexError as caught:
    ...     error = caught
    >>> print(isinstance(error, ValueError), error)
    True index 3 is out of bounds for dimension 1 with size 3 at row 1 of the batch; multi-index (1, 3)
    >>> error.row, error.dimension, error.value, error.size
    (1, 1, 3, 3)

    Attributes
    ----------
    row : int or None
        The row of the batch (None for a single index).
    dimension : int or None
        The dimension the index broke (None for a linear index outside the
        buffer).
    value : int or None
        The index: the entry of the multi-index, or the linear index.
    size : int or None
        The extent it broke: the dimension's size, or the buffer's size.
    """

    row: int | None
    dimension: int | None
    value: int | None
    size: int | None

    def __init__(
        self,
        message: str,
        *,
        row: int | None = None,
        dimension: int | None = None,
        value: int | None = None,
        size: int | None = None,
        template: str | None = None,
    ) -> None:
        super().__init__(message)
        self.row, self.dimension, self.value, self.size = row, dimension, value, size
        # The message with "{at}" where the row phrase goes, for restated().
        self._template = template

    def restated(self, row: int, of: str) -> IndexOutOfBoundsError:
        """This error with its row given as row ``row`` of ``of`` (a file
        name, or the whole of a chunked batch) instead of the batch's.

        Examples
        --------
        >>> from xlashape.errors import index_out_of_bounds
        >>> error = index_out_of_bounds(3, 1, 3, (1, 3), row=1)
        >>> print(error.restated(1001, "big.npy"))
        index 3 is out of bounds for dimension 1 with size 3 at row 1001 of big.npy; multi-index (1, 3)
        """
        message = str(self) if self._template is None else self._template.format(at=_at(row, of))
        return IndexOutOfBoundsError(
            message,
            row=row,
            dimension=self.dimension,
            value=self.value,
            size=self.size,
            template=self._template,
        )

    def __reduce__(self) -> tuple[Any, ...]:  # keep the fields through pickle (Dask workers)
        fields = (self.row, self.dimension, self.value, self.size, self._template)
        return (_rebuild, (str(self), *fields))


class SizeOverflowError(OverflowError, ValueError):
    """A shape's element count, padded width or stride does not fit in int64
    (or NumPy's intp): no buffer holds it.

    It subclasses :class:`OverflowError`, which code written for it catches,
    and :class:`ValueError`, which NumPy raises for an array too large.

    Examples
    --------
    >>> try:
    ...     xs.Shape("f32", [2**32, 2**32])
    ... except ValueError as caught:
    ...     print(type(caught).__name__, isinstance(caught, OverflowError))
    SizeOverflowError True
    """


def _rebuild(
    message: str,
    row: int | None,
    dimension: int | None,
    value: int | None,
    size: int | None,
    template: str | None,
) -> IndexOutOfBoundsError:
    return IndexOutOfBoundsError(
        message, row=row, dimension=dimension, value=value, size=size, template=template
    )


def _at(row: int | None, of: str = BATCH) -> str:
    return "" if row is None else f" at row {row} of {of}"


def _error(template: str, **fields: Any) -> IndexOutOfBoundsError:
    """The error whose message is ``template`` with the row phrase filled."""
    return IndexOutOfBoundsError(
        template.format(at=_at(fields.get("row"))), template=template, **fields
    )


def index_out_of_bounds(
    value: int, dimension: int, size: int, multi_index: tuple[int, ...], row: int | None = None
) -> IndexOutOfBoundsError:
    """The error for one entry of a multi-index outside its dimension."""
    template = (
        f"index {value} is out of bounds for dimension {dimension} with size "
        f"{size}{{at}}; multi-index {_braced(multi_index)}"
    )
    return _error(template, row=row, dimension=dimension, value=value, size=size)


def linear_index_out_of_bounds(value: int, size: int, row: int | None = None) -> IndexOutOfBoundsError:
    """The error for a linear index outside a buffer of ``size`` elements."""
    template = (
        f"linear index {value} is out of bounds for a buffer of {size} "
        f"elements{{at}}; expected 0 <= index < {size}"
    )
    return _error(template, row=row, value=value, size=size)


def linear_index_on_padding(
    value: int, dimension: int, position: int, size: int, width: int, row: int | None = None
) -> IndexOutOfBoundsError:
    """The error for a linear index that puts ``dimension`` at ``position``,
    past its ``size`` but within its padded ``width``."""
    template = (
        f"linear index {value}{{at}} lands on padding: it puts dimension {dimension} "
        f"at {position}, past its size {size} (padded width {width})"
    )
    return _error(template, row=row, dimension=dimension, value=value, size=size)


def linear_index_on_tile_padding(value: int, reason: str, row: int | None = None) -> IndexOutOfBoundsError:
    """The error for a linear index in the padding of a tiled layout's tiles;
    ``reason`` says which tile, and where undoing it puts the index."""
    return _error(
        f"linear index {value}{{at}} lands on tile padding: {_braced(reason)}", row=row, value=value
    )


def index_outside_int64(what: str, value: int, position: tuple[int, ...]) -> IndexOutOfBoundsError:
    """The error for a Python int that no int64 index holds."""
    limit = 2**63 - 1
    return IndexOutOfBoundsError(
        f"{what}: {value} at position {position} is out of bounds; no shape "
        f"holds an index outside [0, {limit}]",
        value=value,
    )


def _braced(text: object) -> str:
    """``text`` as written, its braces doubled for str.format."""
    return str(text).replace("{", "{{").replace("}", "}}")
