"""Drop-in replacements for ``numpy.ravel_multi_index`` and
``numpy.unravel_index``.

They accept and refuse what NumPy's functions do, with NumPy's exception
types (and, where NumPy's own tests pin a message, NumPy's words), and
return what they return: values, dtypes, broadcasting, scalars for scalars.
They go further: ``order`` may be any ``minor_to_major`` tuple,
``padded_dims`` gives padded layouts, errors name the row, dimension and
value, uint64 indices are never wrapped, and the work runs in the compiled
kernels on ``threads`` threads.

The public functions are compiled (``_drop_ins``): they cache the layout of
each (dims, order, padded_dims) and take the common calls (integer arrays
of one length, or plain ints; a mode and order as strings) straight to the
C driver. This module is their general path, for every other form and for
every error: it reads arguments as NumPy does and raises as NumPy would.
Calls on other libraries' arrays (a Dask array, any type with its own
``__array_function__``) go to :mod:`xlashape.drop_ins.duck_arrays` instead.
The compiled front never imports this module: ``xlashape.drop_ins`` hands
it over (``_drop_ins.take_general_path``).
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Mapping, Sequence, Set
from typing import Any

import numpy as np

from .._validate import as_int
from ..core import _batch
from ..model.layout import Layout
from ..shapes.shape import Shape

__all__ = [
    "new_shape",
    "raise_what_numpy_reads_first",
    "ravel_shaped",
    "require_index_dtype",
    "unravel_shaped",
]

# NumPy's phrases where its own tests pin them (TestRavelUnravelIndex).
EMPTY_SEQUENCE = (
    "indices must be integral: the provided empty sequence was inferred as float. "
    "Wrap it with 'np.array(indices, dtype=np.intp)'"
)
NOT_INTEGRAL = "only int indices permitted"

# NumPy's integer clip modes (numpy._core.multiarray.CLIP, WRAP, RAISE).
_NUMPY_MODE_NUMBERS = {0: "clip", 1: "wrap", 2: "raise"}
_ZERO = np.intp(0)  # ``_ZERO + i`` makes an intp scalar fastest
# Index arrays the kernels read as they are: the native integer dtypes, by
# identity (NumPy's built-in dtypes are singletons; any other dtype object
# takes the checked path).
_NATIVE_INTEGER_DTYPES = tuple(np.dtype(f"{kind}{size}") for kind in "iu" for size in (1, 2, 4, 8))
_NATIVE_INTEGER_IDS = frozenset(map(id, _NATIVE_INTEGER_DTYPES))
# NumPy's limits on the rank: NPY_MAXDIMS for any dims, and one less for
# ravel_multi_index (its iterator takes at most NPY_MAXARGS operands, the
# rank's index arrays and the result).
_MAX_DIMS = 64
_MAX_RAVEL_RANK = _MAX_DIMS - 1
# NumPy reads an integer clip mode as a C int.
_C_INT_MIN, _C_INT_MAX = -(2**31), 2**31 - 1


# -- the layout, built once per (dims, order, padded_dims) -------------------
@functools.lru_cache(maxsize=512)
def _cached_shape(
    dims: tuple[int, ...], order: str | tuple[int, ...], padded: tuple[int, ...] | None
) -> Shape:
    """The Shape of normalised arguments; errors are raised, never cached."""
    rank = len(dims)
    minor_to_major: Sequence[int]
    if isinstance(order, tuple):
        minor_to_major = order
    elif order == "F":
        minor_to_major = range(rank)
    else:
        minor_to_major = range(rank - 1, -1, -1)
    try:
        return Shape("s64", dims, Layout(minor_to_major, () if padded is None else padded))
    except OverflowError as e:  # NumPy says ValueError for dims too large
        raise ValueError(f"invalid dims {dims}: {e}") from None


def new_shape(dims: object, order: object, padded_dims: object) -> Shape:
    """The Shape that ``dims``, ``order`` and ``padded_dims`` describe, read
    as NumPy reads them; NumPy's exception types for what it refuses."""
    padded = None if padded_dims is None else _int_tuple(padded_dims, "padded_dims")
    sizes, minor_to_major = _dims(dims), _order(order)
    for i, size in enumerate(sizes):
        if size < 0:
            raise ValueError(
                f"negative dimensions are not allowed; dimension {i} of {sizes} is {size}"
            )
    return _cached_shape(sizes, minor_to_major, padded)


def _dims(dims: Any) -> tuple[int, ...]:
    """NumPy's ``dims``: a sequence of ints or one int (not a bool). Bytes
    are refused, where NumPy reads their byte values (``b'12'`` as
    ``(49, 50)``), which no one writing them means."""
    if dims is None:
        raise TypeError("Use () not None as shape arguments")
    if isinstance(dims, (bytes, bytearray)):
        raise TypeError(
            f"dims must be a sequence of integers or a single integer, got "
            f"{type(dims).__name__} {dims!r}: NumPy would read its byte values "
            f"{tuple(dims[:8])}{'...' if len(dims) > 8 else ''} as the dimensions, "
            "which xlashape refuses"
        )
    if isinstance(dims, memoryview):
        dims = _memoryview_items(dims)
    if (
        type(dims) is not int
        and _is_sequence(dims)
        and not isinstance(dims, str)
        and not (isinstance(dims, np.ndarray) and dims.ndim == 0)
    ):
        try:
            length = len(dims)
        except OverflowError:  # a length past Py_ssize_t, as NumPy words it
            raise TypeError(
                f"expected a sequence of integers or a single integer, got {dims!r}"
            ) from None
        if length > _MAX_DIMS:  # NumPy checks the length before the entries
            raise ValueError(
                f"dims has {length} entries; NumPy supports at most {_MAX_DIMS} dimensions"
            )
        return _int_tuple(dims, "dims")
    if isinstance(dims, (bool, np.bool_)):
        raise TypeError(f"expected a sequence of integers or a single integer, got {dims!r}")
    return (as_int(dims, "dims"),)


def _memoryview_items(view: memoryview) -> list[Any]:
    """The items NumPy reads from a memoryview of ``dims``, one by one as
    from any sequence; its TypeError where Python cannot index the view
    (released, not 1-D, or a format Python does not unpack, such as
    big-endian)."""
    try:
        if view.ndim == 1:
            return view.tolist()
    except (ValueError, NotImplementedError):
        pass
    raise TypeError(f"expected a sequence of integers or a single integer, got {view!r}")


def _int_tuple(values: Any, what: str) -> tuple[int, ...]:
    """One int per dimension: at most _MAX_DIMS of them are read."""
    items = values.tolist() if isinstance(values, np.ndarray) and values.dtype.kind in "iu" else values
    if isinstance(items, (str, bytes)) or not _is_sequence(items):
        raise TypeError(f"{what} must be a sequence of integers, got {type(values).__name__}")
    entries = tuple(itertools.islice(items, _MAX_DIMS + 1))
    if len(entries) > _MAX_DIMS:
        raise ValueError(f"{what} has more than {_MAX_DIMS} entries; NumPy supports at most {_MAX_DIMS} dimensions")
    return tuple(as_int(v, f"{what}[{i}]") for i, v in enumerate(entries))


def _order(order: object) -> str | tuple[int, ...]:
    """'C' or 'F' as NumPy spells them ('c', b'F', None for C), or a
    minor_to_major tuple."""
    if order is None:
        return "C"
    letter = _letter(order)
    if letter is None:
        return _int_tuple(order, "order")
    if letter in ("C", "F"):
        return letter
    if letter in ("A", "K"):
        raise ValueError(f"only 'C' or 'F' order is permitted (got {order!r})")
    raise ValueError(
        f"order must be one of 'C', 'F', 'A', or 'K' (only 'C' or 'F' order is "
        f"permitted), or a minor_to_major sequence; got {order!r}"
    )


def _letter(order: object) -> str | None:
    """A str or bytes order upper-cased, as NumPy reads it; None otherwise."""
    if isinstance(order, bytes):
        order = order.decode("latin-1")
    return order.upper() if isinstance(order, str) else None


def raise_what_numpy_reads_first(
    ravel: bool, dims: object, order: object, padded_dims: object, first: object, mode: object
) -> None:
    """After new_shape refused a call's dims or order with a ValueError that
    NumPy raises only later in the call (order 'A' or 'K', a negative
    dimension, a size past int64), raise the error NumPy meets first in the
    arguments it reads before: for ravel_multi_index the rank limit and
    ``mode``, then (for a negative dimension) ``first``, the multi_index; for
    unravel_index ``first``, the indices. Returns if there is none."""
    try:
        sizes = _dims(dims)
        letter = _letter(order)
        if padded_dims is not None or (letter not in ("A", "K") and isinstance(_order(order), tuple)):
            return  # refused as NumPy parses (or an argument NumPy has not)
    except (TypeError, ValueError):
        return
    negative = min(sizes, default=0) < 0
    try:
        if ravel:
            _check_ravel_rank(len(sizes))
            _, late = _read_modes(mode, len(sizes))
            strides_overflow = _size_overflows(sizes if letter == "F" else sizes[::-1])
            if negative and letter not in ("A", "K") and not strides_overflow:
                _columns(first, len(sizes))
                if late is not None:
                    raise late
        elif (negative or letter in ("A", "K")) and not _size_overflows(sizes, stop_at_zero=True):
            _indices(first, "indices")
    except (TypeError, ValueError) as e:
        raise e from None  # not "during handling of" the refusal it precedes


def _size_overflows(sizes: Sequence[int], stop_at_zero: bool = False) -> bool:
    """Whether NumPy's product of ``sizes``, in this order, overflows intp
    (unravel_index's stops at a zero; ravel_multi_index's strides do not)."""
    product = 1
    for size in sizes:
        if size == 0 and stop_at_zero:
            return False
        product *= size
        if not -(2**63) <= product < 2**63:
            return True
    return stop_at_zero and product == -1  # unravel_index's "too large" sentinel


def _is_sequence(value: object) -> bool:
    """Whether NumPy's C code sees a sequence (PySequence_Check): something
    indexable with a length, not a mapping, set or iterator."""
    return (
        hasattr(type(value), "__getitem__")
        and hasattr(type(value), "__len__")
        and not isinstance(value, (Mapping, Set))
    )


def _modes(mode: object, rank: int) -> bytes | None:
    """NumPy's clip modes, once or one per dimension, as the kernels' codes;
    None when every dimension raises. Every error is raised at once."""
    codes, late = _read_modes(mode, rank)
    if late is not None:
        raise late
    return codes


def _read_modes(mode: object, rank: int) -> tuple[bytes | None, ValueError | None]:
    """:func:`_modes`, and the ValueError NumPy raises only once it has read
    the multi_index: for an integer mode (a C int) outside 0..2, which NumPy
    notes and reads on (its TypeError for non-integer indices, or its
    ValueError for a multi_index of the wrong length, comes first). A text
    mode NumPy cannot read after such an integer raises that error instead
    of its own; every other error is raised at once."""
    if mode is None or (isinstance(mode, str) and mode == "raise"):
        return None, None
    if isinstance(mode, (tuple, list)):
        if len(mode) != rank:
            raise ValueError(f"list of clipmodes has wrong length ({len(mode)} instead of {rank})")
        items: Sequence[object] = mode
    else:
        items = (mode,)
    codes = bytearray()
    late = None
    for item in items:
        error = _late_mode_error(item)
        if error is not None:
            late = late or error
            codes.append(_batch.RAISE)  # never run: late is raised first
            continue
        try:
            codes.append(_mode_code(item))
        except ValueError:
            if late is not None:
                raise late from None
            raise
    if items is not mode:  # one mode for every dimension
        codes *= rank
    return (bytes(codes) if any(codes) else None), late


def _mode_code(mode: object) -> int:
    """One mode's code: text, or a number 0..2 (_late_mode_error takes the
    other C ints)."""
    if mode is None:
        return _batch.RAISE
    if isinstance(mode, bytes):
        mode = mode.decode("latin-1")
    if isinstance(mode, str):
        if mode not in _batch.MODES:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
        return _batch.MODES[mode]
    try:
        if isinstance(mode, (bool, np.bool_)):
            raise TypeError
        number = operator.index(mode)  # type: ignore[arg-type]  # TypeError is the check
        if number not in _NUMPY_MODE_NUMBERS:
            raise TypeError
    except TypeError:
        raise TypeError(
            f"clipmode not understood: expected 'clip', 'raise' or 'wrap', got {mode!r}"
        ) from None
    return _batch.MODES[_NUMPY_MODE_NUMBERS[number]]


def _late_mode_error(mode: object) -> ValueError | None:
    """The ValueError for one integer mode (a C int) outside 0..2, which
    NumPy raises late (see _read_modes); None for any other mode."""
    if mode is None or isinstance(mode, (bool, np.bool_, str, bytes)):
        return None
    try:
        number = operator.index(mode)  # type: ignore[arg-type]  # TypeError is the check
    except TypeError:
        return None
    if _C_INT_MIN <= number <= _C_INT_MAX and number not in _NUMPY_MODE_NUMBERS:
        return ValueError(
            f"integer clipmode must be RAISE, WRAP, or CLIP from 'numpy._core.multiarray' "
            f"(0, 1 or 2), got {number}"
        )
    return None


# -- index arrays --------------------------------------------------------------
def _indices(values: Any, what: str) -> np.ndarray:
    """``values`` as an integer (or boolean) array, as NumPy reads indices:
    the dtype NumPy infers for lists, an empty sequence refused, no floats."""
    if type(values) is np.ndarray:
        array = values
        if array.dtype.kind in "iu":  # the common case, first
            return _batch.as_index_array(array, what, allow_bool=True, numpy_rules=True)
    else:
        array = np.asarray(values)
        if array.size == 0 and _is_sequence(values) and len(values) == 0:
            raise TypeError(f"{what}: {EMPTY_SEQUENCE}")
    require_index_dtype(array.dtype, what)
    return _batch.as_index_array(array, what, allow_bool=True, numpy_rules=True)


def require_index_dtype(dtype: np.dtype[Any], what: str) -> None:
    """TypeError unless ``dtype`` holds indices as NumPy reads them: integers
    or booleans."""
    if dtype.kind not in "iub":
        raise TypeError(f"{NOT_INTEGRAL}: {what} must hold integers, got dtype {dtype}")


def _columns(multi_index: Any, rank: int) -> tuple[list[np.ndarray], tuple[int, ...]]:
    """NumPy's ``multi_index``, a sequence of ``rank`` integer array_likes,
    as flat index arrays broadcast together, and their common shape."""
    if type(multi_index) is tuple or type(multi_index) is list or (
        _is_sequence(multi_index)
        and not (isinstance(multi_index, np.ndarray) and multi_index.ndim == 0)
    ):
        if len(multi_index) == rank:
            return _flat_columns(multi_index)
        length = f"{len(multi_index)}"
    else:
        try:
            iter(multi_index)
        except TypeError:
            raise TypeError(
                f"multi_index must be a sequence of {rank} index arrays, got "
                f"{type(multi_index).__name__} {multi_index!r}"
            ) from None
        length = "no length"
    raise ValueError(
        f"parameter multi_index must be a sequence of length {rank}, got "
        f"{type(multi_index).__name__} of {length}"
    )


def _flat_columns(items: Any) -> tuple[list[np.ndarray], tuple[int, ...]]:
    """The columns of a ``multi_index`` of the right length, as for _columns."""
    columns = []
    shapes = []
    for i, column in enumerate(items):
        if type(column) is not np.ndarray or id(column.dtype) not in _NATIVE_INTEGER_IDS:
            column = _indices(column, f"multi_index[{i}]")
        columns.append(column)
        shapes.append(column.shape)
    if shapes and len(shapes[0]) == 1 and shapes.count(shapes[0]) == len(shapes):
        return columns, shapes[0]  # the common case: 1-D columns of one length
    if not columns:
        return columns, ()
    shape = _broadcast_shape(shapes)
    return [np.broadcast_to(c, shape).reshape(-1) for c in columns], shape


def _broadcast_shape(shapes: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The shape ``shapes`` broadcast to, as NumPy's iterator finds it for
    arrays of up to 64 dimensions (np.broadcast_shapes takes at most 32)."""
    result = [1] * max(map(len, shapes))
    for shape in shapes:
        for axis, size in enumerate(shape, len(result) - len(shape)):
            if size != 1 and result[axis] != size:
                if result[axis] != 1:
                    raise ValueError(
                        f"shape mismatch: multi_index arrays of shapes "
                        f"{', '.join(map(str, shapes))} cannot be broadcast together "
                        f"(axis {axis}: {result[axis]} and {size})"
                    )
                result[axis] = size
    return tuple(result)


# -- the general path of the drop-ins (see _drop_ins) -----------------------------
def ravel_shaped(shape: Shape, multi_index: Any, mode: Any, out: Any, threads: Any) -> Any:
    """``ravel_multi_index`` of any ``multi_index`` into ``shape``."""
    rank = shape.rank
    _check_ravel_rank(rank)
    codes, late = _read_modes(mode, rank)
    if type(multi_index) is np.ndarray and multi_index.ndim == 2 and rank and len(multi_index) == rank:
        # (rank, N): its transpose is an (N, rank) batch, read in place; for
        # the common ``a.T`` of a C-ordered (N, rank) array, row by row. (A
        # subclass is read as a sequence, as NumPy reads it: the rows of an
        # np.matrix are (1, N).)
        rows = _indices(multi_index, "multi_index").T
        if late:
            raise late
        return _batch.ravel_array(shape._plan, rows, codes, out, threads, multi_index)
    flat, result_shape = _columns(multi_index, rank)
    if late:
        raise late
    if not flat:  # rank 0: the one multi-index () is at 0
        if out is None:
            return _ZERO
        _batch.check_out(out, (), ()).fill(0)
        return out
    flat_out = None if out is None else _flat_out(out, result_shape)
    result = _batch.ravel_columns(shape._plan, flat, codes, flat_out, threads, multi_index)
    if out is not None:
        return out
    if len(result_shape) != 1:
        result = result.reshape(result_shape)
        if result_shape == ():
            return result[()]
    subtype = _priority_subtype(multi_index)
    return result if subtype is None else result.view(subtype)


def _priority_subtype(items: Any) -> type[np.ndarray] | None:
    """The ndarray subclass NumPy's iterator gives ravel_multi_index's result:
    that of the index array of highest ``__array_priority__`` above
    ndarray's 0 (np.matrix, np.ma.MaskedArray); None for ndarray."""
    best, subtype = 0.0, None
    for item in items:
        if isinstance(item, np.ndarray) and type(item) is not np.ndarray:
            priority = float(getattr(item, "__array_priority__", 0.0))
            if priority > best:
                best, subtype = priority, type(item)
    return subtype


def _check_ravel_rank(rank: int) -> None:
    if rank > _MAX_RAVEL_RANK:
        raise ValueError(
            f"too many dimensions passed to ravel_multi_index: dims has {rank} entries; "
            f"NumPy's ravel_multi_index takes at most {_MAX_RAVEL_RANK}"
        )


def _flat_out(out: object, shape: tuple[int, ...]) -> np.ndarray:
    """``out`` as a flat view; it must be a C-contiguous array of ``shape``."""
    return _batch.check_out(out, shape, contiguous=True).reshape(-1)


def unravel_shaped(target: Shape, indices: Any, out: Any, threads: Any) -> Any:
    """``unravel_index`` of any ``indices`` into ``target``."""
    linear = _indices(indices, "indices")
    rank = target.rank
    if out is None:
        rows = np.empty((rank,) + linear.shape, dtype=np.int64)
    else:
        _flat_out(out, (rank,) + linear.shape)
        rows = out
    # The kernel fills an (N, rank) view: here the transpose of (rank, N).
    if linear.ndim == 1:  # the common case: no reshaping
        flat, flat_linear = rows, linear
    else:
        flat, flat_linear = rows.reshape(rank, linear.size), linear.reshape(-1)
    if out is not None:  # dtype, writability and overlap; a new array needs none
        _batch.check_out(flat.T, (linear.size, rank), (linear, indices))
    _batch.unravel(target._plan, flat_linear, flat.T, threads)
    if linear.ndim == 0:
        return tuple(row[()] for row in rows)
    if rank == 0:  # every index was 0, the one position; NumPy's words:
        raise ValueError(
            f"multiple indices are not supported for 0d arrays: indices of shape "
            f"{linear.shape} for shape ()"
        )
    return tuple(rows)
