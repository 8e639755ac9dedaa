"""Stub for the NumPy drop-ins' compiled front (xlashape/drop_ins/_drop_ins.pyx)."""

from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, SupportsIndex, TypeAlias, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

ModeKind: TypeAlias = Literal["raise", "wrap", "clip"]
# NumPy's order ('C' or 'F'), or a minor_to_major sequence.
Order: TypeAlias = Literal["C", "F"] | Sequence[int] | None
# A string: NumPy before 2.3 (the last ones for Python 3.10) cannot subscript np.bool.
IntLike: TypeAlias = "int | np.integer[Any] | np.bool[Any]"
ShapeLike: TypeAlias = SupportsIndex | Sequence[SupportsIndex]

@overload
def ravel_multi_index(
    multi_index: SupportsLenAndGetItem[IntLike],
    dims: ShapeLike,
    mode: ModeKind | tuple[ModeKind, ...] = "raise",
    order: Order = "C",
    *,
    out: None = None,
    padded_dims: Sequence[int] | None = None,
    threads: int | None = None,
) -> np.intp: ...
@overload
def ravel_multi_index(
    multi_index: SupportsLenAndGetItem[ArrayLike],
    dims: ShapeLike,
    mode: ModeKind | tuple[ModeKind, ...] = "raise",
    order: Order = "C",
    *,
    out: NDArray[np.int64] | None = None,
    padded_dims: Sequence[int] | None = None,
    threads: int | None = None,
) -> NDArray[np.intp]: ...
@overload
def unravel_index(
    indices: IntLike,
    shape: ShapeLike,
    order: Order = "C",
    *,
    out: None = None,
    padded_dims: Sequence[int] | None = None,
    threads: int | None = None,
) -> tuple[np.intp, ...]: ...
@overload
def unravel_index(
    indices: ArrayLike,
    shape: ShapeLike,
    order: Order = "C",
    *,
    out: NDArray[np.int64] | None = None,
    padded_dims: Sequence[int] | None = None,
    threads: int | None = None,
) -> tuple[NDArray[np.intp], ...]: ...
def try_ravel_multi_index(
    multi_index: object,
    dims: object,
    mode: object = "raise",
    order: object = "C",
    *,
    padded_dims: object = None,
    threads: int | None = None,
) -> np.intp | NDArray[np.intp] | None: ...
def try_unravel_index(
    indices: object,
    shape: object,
    order: object = "C",
    *,
    padded_dims: object = None,
    threads: int | None = None,
) -> tuple[np.intp, ...] | tuple[NDArray[np.intp], ...] | None: ...
def take_general_path(general: ModuleType, duck_arrays: ModuleType) -> None: ...
