"""Exceptions raised by xlashape."""

__all__ = ["IndexOutOfBoundsError"]


class IndexOutOfBoundsError(IndexError, ValueError):
    """A multi-index or linear index lies outside the array it addresses.

    It subclasses both :class:`IndexError` and :class:`ValueError` (as NumPy's
    ``AxisError`` does), so code written for either keeps working. The message
    names the row of the batch (for batches), the dimension, the value and the
    extent it broke.

    Examples
    --------
    >>> shape = xs.Shape("s32", [2, 3])
    >>> try:
    ...     xs.ravel([[0, 0], [1, 3]], shape)
    ... except IndexError as error:
    ...     print(isinstance(error, ValueError), error)
    True index 3 is out of bounds for dimension 1 with size 3 at row 1 of the batch; multi-index (1, 3)
    """


def index_out_of_bounds(
    value: int, dimension: int, size: int, multi_index: tuple[int, ...], row: int | None = None
) -> IndexOutOfBoundsError:
    """The error for one index outside its dimension."""
    at = "" if row is None else f" at row {row} of the batch"
    return IndexOutOfBoundsError(
        f"index {value} is out of bounds for dimension {dimension} with size "
        f"{size}{at}; multi-index {multi_index}"
    )
