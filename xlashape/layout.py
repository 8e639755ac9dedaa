"""The Layout: how an array's elements are ordered in linear memory."""

from __future__ import annotations

from collections.abc import Iterable

from ._frozen import Frozen
from ._validate import as_int_tuple
from .primitive_type import PaddingValue

__all__ = ["Layout"]


class Layout(Frozen):
    """XLA's Layout proto: ``minor_to_major``, ``padded_dimensions`` and
    ``padding_value``.

    ``minor_to_major`` lists the dimension numbers from the most minor (the
    one that changes fastest in memory) to the most major. ``padded_dimensions``
    is empty, or holds one width per dimension to which that dimension is
    padded. Layouts are immutable, hashable and equal by value; whether a
    layout fits a shape is checked when the :class:`Shape` is built.

    Parameters
    ----------
    minor_to_major : iterable of int
        The dimension numbers, most minor first.
    padded_dimensions : iterable of int, optional
        One padded width per dimension, each at least the dimension's size;
        empty (the default) for no padding.
    padding_value : PaddingValue or int, optional
        What fills the padding; INVALID_PAD (unspecified) by default.

    Raises
    ------
    TypeError, ValueError
        For fields that are not integers or not a known padding value.

    See Also
    --------
    LayoutUtil : XLA's helpers on layouts.

    Examples
    --------
    >>> Layout((0, 1), padded_dimensions=(3, 5), padding_value=PaddingValue.ZERO_PAD)
    Layout(minor_to_major=(0, 1), padded_dimensions=(3, 5), padding_value=PaddingValue.ZERO_PAD)
    """

    __slots__ = ("_minor_to_major", "_padded_dimensions", "_padding_value")
    _minor_to_major: tuple[int, ...]
    _padded_dimensions: tuple[int, ...]
    _padding_value: PaddingValue

    def __init__(
        self,
        minor_to_major: Iterable[int],
        padded_dimensions: Iterable[int] = (),
        padding_value: PaddingValue | int = PaddingValue.INVALID_PAD,
    ) -> None:
        m2m = as_int_tuple(minor_to_major, "minor_to_major")
        padded = as_int_tuple(padded_dimensions, "padded_dimensions")
        pad = PaddingValue.coerce(padding_value)
        object.__setattr__(self, "_minor_to_major", m2m)
        object.__setattr__(self, "_padded_dimensions", padded)
        object.__setattr__(self, "_padding_value", pad)

    @classmethod
    def from_major_to_minor(
        cls,
        major_to_minor: Iterable[int],
        padded_dimensions: Iterable[int] = (),
        padding_value: PaddingValue | int = PaddingValue.INVALID_PAD,
    ) -> Layout:
        """A layout from the major-to-minor order used by JAX and NumPy.

        Parameters
        ----------
        major_to_minor : iterable of int
            The dimension numbers, most major first.
        padded_dimensions, padding_value
            As for :class:`Layout`.

        Returns
        -------
        Layout

        Examples
        --------
        >>> Layout.from_major_to_minor([0, 1])      # row-major, like NumPy's 'C'
        Layout(minor_to_major=(1, 0))
        """
        return cls(
            tuple(as_int_tuple(major_to_minor, "major_to_minor"))[::-1],
            padded_dimensions,
            padding_value,
        )

    @property
    def minor_to_major(self) -> tuple[int, ...]:
        """The dimension numbers, most minor (fastest-changing in memory) first.

        Examples
        --------
        >>> Layout([1, 0]).minor_to_major
        (1, 0)
        """
        return self._minor_to_major

    @property
    def major_to_minor(self) -> tuple[int, ...]:
        """``minor_to_major`` reversed: the order JAX and NumPy use.

        Examples
        --------
        >>> Layout([0, 2, 1]).major_to_minor
        (1, 2, 0)
        """
        return self._minor_to_major[::-1]

    @property
    def padded_dimensions(self) -> tuple[int, ...]:
        """The width each dimension is padded to, or () when not padded.

        Examples
        --------
        >>> Layout([0, 1], [3, 5]).padded_dimensions, Layout([0, 1]).padded_dimensions
        ((3, 5), ())
        """
        return self._padded_dimensions

    @property
    def padding_value(self) -> PaddingValue:
        """What fills the padding positions.

        Examples
        --------
        >>> Layout([0], [4], PaddingValue.ONE_PAD).padding_value
        <PaddingValue.ONE_PAD: 2>
        """
        return self._padding_value

    def _key(self) -> tuple[object, ...]:
        return (self._minor_to_major, self._padded_dimensions, self._padding_value)

    def __repr__(self) -> str:
        parts = [f"minor_to_major={self._minor_to_major}"]
        if self._padded_dimensions:
            parts.append(f"padded_dimensions={self._padded_dimensions}")
        if self._padding_value != PaddingValue.INVALID_PAD:
            parts.append(f"padding_value=PaddingValue.{self._padding_value.name}")
        return f"Layout({', '.join(parts)})"

    def __str__(self) -> str:
        return "{" + ",".join(map(str, self._minor_to_major)) + "}"
