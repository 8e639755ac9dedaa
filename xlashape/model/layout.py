"""The Layout: how an array's elements are ordered in linear memory."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from .._validate import MAX_TILES, as_int, as_int_tuple
from ._frozen import Frozen
from .primitive_type import PaddingValue

__all__ = ["Layout", "SplitConfig", "Tile"]


class Tile(Frozen):
    """One tile of a tiled layout: its size in each of the most minor
    physical dimensions, from the most major of them to the most minor.

    An entry ``Tile.COMBINE`` (-1, printed ``*``) merges that dimension into
    the next more minor one before tiling, as XLA's ``kCombineDimension``.
    Sizes are >= 1; XLA's ``ValidateLayoutForShape`` refuses an empty tile or
    a size of 0 ("layout has invalid tiles"). A tile has at most
    ``Shape.MAX_RANK`` (64) sizes.

    >>> xs.Tile((2, xs.Tile.COMBINE, 128))
    Tile((2, -1, 128))
    >>> str(xs.Tile((8, 128)))
    '(8,128)'
    """

    COMBINE = -1

    __slots__ = ("_dimensions",)
    _dimensions: tuple[int, ...]

    def __init__(self, dimensions: Iterable[int]) -> None:
        dims = as_int_tuple(dimensions, "tile dimensions", per_dimension=True)
        if not dims:
            raise ValueError("layout has invalid tiles: a tile has at least one dimension, got ()")
        for i, size in enumerate(dims):
            if size < 1 and size != Tile.COMBINE:
                raise ValueError(
                    f"layout has invalid tiles: tile {_text(dims)} has size {size} at "
                    f"position {i}; tile sizes are >= 1, or -1 (*) to combine a "
                    "dimension with the next more minor one"
                )
        if dims[-1] == Tile.COMBINE:
            raise ValueError(
                f"layout has invalid tiles: tile {_text(dims)} ends in *, but * "
                "combines a dimension with the next more minor one and the last "
                "has none"
            )
        object.__setattr__(self, "_dimensions", dims)

    @property
    def dimensions(self) -> tuple[int, ...]:
        """The tile's sizes, most major first; -1 marks a combined dimension.

        Examples
        --------
        >>> xs.Tile((2, xs.Tile.COMBINE, 128)).dimensions
        (2, -1, 128)
        """
        return self._dimensions

    def _key(self) -> tuple[object, ...]:
        return (self._dimensions,)

    def __repr__(self) -> str:
        return f"Tile({self._dimensions})"

    def __str__(self) -> str:
        return _text(self._dimensions)


def _text(dims: tuple[int, ...]) -> str:
    return "(" + ",".join("*" if d == Tile.COMBINE else str(d) for d in dims) + ")"


class SplitConfig(Frozen):
    """One of a layout's split configs (XLA's ``SplitConfig``, printed
    ``SC(1:200)``): the physical dimension ``dimension`` (0 the most major)
    is split into pieces at ``split_indices``.

    XLA reads split configs in ``ShapeUtil::ArraySize`` only: a tiled
    buffer is sized for the largest piece of each split dimension
    (``LayoutUtil::MaxSplitSize``); no element's offset changes
    (``LayoutUtil::LinearIndex`` ignores them). As in XLA, any integers
    build one (``SplitConfig(1, [0, 4])`` begins with an empty piece), and
    a layout may hold any of them; sizing a buffer by them refuses indices
    that do not cut their dimension into pieces (decreasing, negative or
    past its size), a dimension the shape lacks, and a dimension split
    twice, saying so.

    >>> str(xs.SplitConfig(1, (4, 5)))
    '(1:4,5)'
    """

    __slots__ = ("_dimension", "_split_indices")
    _dimension: int
    _split_indices: tuple[int, ...]

    def __init__(self, dimension: int, split_indices: Iterable[int]) -> None:
        dim = as_int(dimension, "split config dimension")
        indices = as_int_tuple(split_indices, "split_indices")
        object.__setattr__(self, "_dimension", dim)
        object.__setattr__(self, "_split_indices", indices)

    @property
    def dimension(self) -> int:
        """The physical dimension split, 0 being the most major.

        Examples
        --------
        >>> xs.SplitConfig(0, (10,)).dimension
        0
        """
        return self._dimension

    @property
    def split_indices(self) -> tuple[int, ...]:
        """Where the pieces start, after the first.

        Examples
        --------
        >>> xs.SplitConfig(1, (4, 5)).split_indices
        (4, 5)
        """
        return self._split_indices

    def _key(self) -> tuple[object, ...]:
        return (self._dimension, self._split_indices)

    def __repr__(self) -> str:
        return f"SplitConfig({self._dimension}, {self._split_indices})"

    def __str__(self) -> str:
        return f"({self._dimension}:{','.join(map(str, self._split_indices))})"


def _as_tiles(tiles: Iterable[Tile | Iterable[int]]) -> tuple[Tile, ...]:
    if isinstance(tiles, (str, bytes)) or not isinstance(tiles, Iterable):
        raise TypeError(f"tiles must be a sequence of Tiles, got {type(tiles).__name__}")
    result = tuple(t if isinstance(t, Tile) else Tile(t) for t in itertools.islice(tiles, MAX_TILES + 1))
    if len(result) > MAX_TILES:
        raise ValueError(too_many_tiles())
    return result


def too_many_tiles() -> str:
    """The message refusing more than MAX_TILES tiles."""
    return (
        f"a layout has at most Layout.MAX_TILES = {MAX_TILES} tiles (XLA's use one to "
        "three), got more"
    )


def _as_split_configs(
    configs: Iterable[SplitConfig | tuple[int, Iterable[int]]],
) -> tuple[SplitConfig, ...]:
    if isinstance(configs, (str, bytes)) or not isinstance(configs, Iterable):
        raise TypeError(
            f"split_configs must be a sequence of SplitConfigs, got {type(configs).__name__}"
        )
    return tuple(c if isinstance(c, SplitConfig) else SplitConfig(*c) for c in configs)


# The xlashape-only text of the 2017 padding: PAD(3,5) or PAD(3,5:zero).
PADDING_ATTRIBUTE = "PAD"
_PADDING_NAMES = {
    PaddingValue.ZERO_PAD: "zero",
    PaddingValue.ONE_PAD: "one",
    PaddingValue.LOWEST_PAD: "lowest",
    PaddingValue.HIGHEST_PAD: "highest",
    PaddingValue.UNKNOWN_PAD: "unknown",
}
PADDING_VALUES_BY_NAME = {name: value for value, name in _PADDING_NAMES.items()}


class Layout(Frozen):
    """XLA's Layout proto: ``minor_to_major``, ``padded_dimensions`` and
    ``padding_value`` (the 2017 fields), and ``tiles``,
    ``element_size_in_bits``, ``memory_space``,
    ``tail_padding_alignment_in_elements``, ``split_configs`` and
    ``dynamic_shape_metadata_prefix_bytes`` (today's dense-layout fields).

    ``minor_to_major`` lists the dimension numbers from the most minor (the
    one that changes fastest in memory) to the most major. ``padded_dimensions``
    is empty, or holds one width per dimension to which that dimension is
    padded. ``tiles`` tile the most minor physical dimensions, the first tile
    first (see XLA's "Tiled layout" page); ``element_size_in_bits`` (0: the
    type's own size) packs sub-byte elements, and ``memory_space`` (0: the
    default) names where the array lives. ``tail_padding_alignment_in_elements``
    (``L(n)``, 1: none) rounds a tiled buffer's element count up to a multiple
    of n; ``split_configs`` (``SC(d:i,...)``) split physical dimensions into
    pieces, a tiled buffer sized for the largest; both as XLA's
    ``ShapeUtil::ArraySize`` reads them, with no offset moved.
    ``dynamic_shape_metadata_prefix_bytes`` (``M(n)``) is carried and
    printed; no XLA size function reads it. Layouts are immutable, hashable and
    equal by value; whether a layout fits a shape is checked when the
    :class:`Shape` is built.

    Today's XLA has no ``padded_dimensions`` (the field is reserved in
    ``xla_data.proto``), so no layout has both it and tiles: that is refused.

    Parameters
    ----------
    minor_to_major : iterable of int
        The dimension numbers, most minor first.
    padded_dimensions : iterable of int, optional
        One padded width per dimension, each at least the dimension's size;
        empty (the default) for no padding.
    padding_value : PaddingValue or int, optional
        What fills the padding; INVALID_PAD (unspecified) by default.
    tiles : sequence of Tile or of sequences of int, optional
        At most ``Layout.MAX_TILES`` (64) of them.
    element_size_in_bits, memory_space : int, optional
    tail_padding_alignment_in_elements : int, optional
        Keyword only; at least 1 (the default).
    split_configs : sequence of SplitConfig or (dimension, indices), optional
        Keyword only.
    dynamic_shape_metadata_prefix_bytes : int, optional
        Keyword only; at least 0 (the default).

    Raises
    ------
    TypeError, ValueError
        For fields that are not integers or not a known padding value;
        ValueError for more than ``Shape.MAX_RANK`` (64) entries in
        ``minor_to_major`` or ``padded_dimensions``.

    See Also
    --------
    LayoutUtil : XLA's helpers on layouts.

    Examples
    --------
    >>> xs.Layout((0, 1), padded_dimensions=(3, 5), padding_value=xs.PaddingValue.ZERO_PAD)
    Layout(minor_to_major=(0, 1), padded_dimensions=(3, 5), padding_value=PaddingValue.ZERO_PAD)
    >>> str(xs.Layout((1, 0), tiles=[(8, 128), (2, 1)], memory_space=1))
    '{1,0:T(8,128)(2,1)S(1)}'
    >>> str(xs.Layout((0, 1), padded_dimensions=(3, 5)))   # xlashape's own attribute
    '{0,1:PAD(3,5)}'
    """

    #: The most tiles a layout has: 64.
    MAX_TILES = MAX_TILES

    __slots__ = (
        "_minor_to_major",
        "_padded_dimensions",
        "_padding_value",
        "_tiles",
        "_element_size_in_bits",
        "_memory_space",
        "_tail_padding_alignment_in_elements",
        "_split_configs",
        "_dynamic_shape_metadata_prefix_bytes",
    )
    _minor_to_major: tuple[int, ...]
    _padded_dimensions: tuple[int, ...]
    _padding_value: PaddingValue
    _tiles: tuple[Tile, ...]
    _element_size_in_bits: int
    _memory_space: int
    _tail_padding_alignment_in_elements: int
    _split_configs: tuple[SplitConfig, ...]
    _dynamic_shape_metadata_prefix_bytes: int

    def __init__(
        self,
        minor_to_major: Iterable[int],
        padded_dimensions: Iterable[int] = (),
        padding_value: PaddingValue | int = PaddingValue.INVALID_PAD,
        tiles: Iterable[Tile | Iterable[int]] = (),
        element_size_in_bits: int = 0,
        memory_space: int = 0,
        *,
        tail_padding_alignment_in_elements: int = 1,
        split_configs: Iterable[SplitConfig | tuple[int, Iterable[int]]] = (),
        dynamic_shape_metadata_prefix_bytes: int = 0,
    ) -> None:
        m2m = as_int_tuple(minor_to_major, "minor_to_major", per_dimension=True)
        padded = as_int_tuple(padded_dimensions, "padded_dimensions", per_dimension=True)
        pad = PaddingValue.coerce(padding_value)
        tile_list = _as_tiles(tiles)
        bits = as_int(element_size_in_bits, "element_size_in_bits")
        space = as_int(memory_space, "memory_space")
        alignment = as_int(tail_padding_alignment_in_elements, "tail_padding_alignment_in_elements")
        splits = _as_split_configs(split_configs)
        prefix = as_int(dynamic_shape_metadata_prefix_bytes, "dynamic_shape_metadata_prefix_bytes")
        if alignment < 1:
            raise ValueError(
                f"layout tail_padding_alignment_in_elements must be >= 1 (1: no tail "
                f"padding), got {alignment}"
            )
        if prefix < 0:
            raise ValueError(f"layout dynamic_shape_metadata_prefix_bytes must be >= 0, got {prefix}")
        if padded and tile_list:
            raise ValueError(
                "a layout cannot have both padded_dimensions and tiles: XLA "
                "removed padded_dimensions (reserved in xla_data.proto) before it "
                "added tiles, and defines no layout with both; tile padding already "
                "pads each tiled dimension to whole tiles"
            )
        if bits < 0:
            raise ValueError(
                f"element_size_in_bits must be >= 0 (0: the element type's own "
                f"size), got {bits}"
            )
        object.__setattr__(self, "_minor_to_major", m2m)
        object.__setattr__(self, "_padded_dimensions", padded)
        object.__setattr__(self, "_padding_value", pad)
        object.__setattr__(self, "_tiles", tile_list)
        object.__setattr__(self, "_element_size_in_bits", bits)
        object.__setattr__(self, "_memory_space", space)
        object.__setattr__(self, "_tail_padding_alignment_in_elements", alignment)
        object.__setattr__(self, "_split_configs", splits)
        object.__setattr__(self, "_dynamic_shape_metadata_prefix_bytes", prefix)

    @classmethod
    def from_major_to_minor(
        cls,
        major_to_minor: Iterable[int],
        padded_dimensions: Iterable[int] = (),
        padding_value: PaddingValue | int = PaddingValue.INVALID_PAD,
        *,
        tiles: Iterable[Tile | Iterable[int]] = (),
        element_size_in_bits: int = 0,
        memory_space: int = 0,
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
        >>> xs.Layout.from_major_to_minor([0, 1])      # row-major, like NumPy's 'C'
        Layout(minor_to_major=(1, 0))
        """
        return cls(
            tuple(as_int_tuple(major_to_minor, "major_to_minor", per_dimension=True))[::-1],
            padded_dimensions,
            padding_value,
            tiles=tiles,
            element_size_in_bits=element_size_in_bits,
            memory_space=memory_space,
        )

    @property
    def minor_to_major(self) -> tuple[int, ...]:
        """The dimension numbers, most minor (fastest-changing in memory) first.

        Examples
        --------
        >>> xs.Layout([1, 0]).minor_to_major
        (1, 0)
        """
        return self._minor_to_major

    @property
    def major_to_minor(self) -> tuple[int, ...]:
        """``minor_to_major`` reversed: the order JAX and NumPy use.

        Examples
        --------
        >>> xs.Layout([0, 2, 1]).major_to_minor
        (1, 2, 0)
        """
        return self._minor_to_major[::-1]

    @property
    def padded_dimensions(self) -> tuple[int, ...]:
        """The width each dimension is padded to, or () when not padded.

        Examples
        --------
        >>> xs.Layout([0, 1], [3, 5]).padded_dimensions, xs.Layout([0, 1]).padded_dimensions
        ((3, 5), ())
        """
        return self._padded_dimensions

    @property
    def padding_value(self) -> PaddingValue:
        """What fills the padding positions.

        Examples
        --------
        >>> xs.Layout([0], [4], xs.PaddingValue.ONE_PAD).padding_value
        <PaddingValue.ONE_PAD: 2>
        """
        return self._padding_value

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles, the first applied first; () for an untiled layout.

        Examples
        --------
        >>> xs.Layout((1, 0), tiles=[(8, 128), (2, 1)]).tiles
        (Tile((8, 128)), Tile((2, 1)))
        """
        return self._tiles

    @property
    def element_size_in_bits(self) -> int:
        """Bits per element in memory; 0 means the element type's own size.

        Examples
        --------
        >>> xs.Layout((0,), element_size_in_bits=4).element_size_in_bits
        4
        """
        return self._element_size_in_bits

    @property
    def memory_space(self) -> int:
        """Where the array lives (backend-defined); 0 is the default space.

        Examples
        --------
        >>> str(xs.Layout((1, 0), memory_space=1))
        '{1,0:S(1)}'
        """
        return self._memory_space

    @property
    def tail_padding_alignment_in_elements(self) -> int:
        """A tiled buffer's element count is rounded up to a multiple of
        this (``L(n)``); 1, the default, adds nothing.

        Examples
        --------
        >>> xs.ShapeUtil.parse_shape_string("f32[1,2,3,4]{3,2,1,0:L(100)}").layout.tail_padding_alignment_in_elements
        100
        """
        return self._tail_padding_alignment_in_elements

    @property
    def split_configs(self) -> tuple[SplitConfig, ...]:
        """The split configs (``SC(...)``), () for none.

        Examples
        --------
        >>> xs.ShapeUtil.parse_shape_string("pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}").layout.split_configs
        (SplitConfig(0, (10,)), SplitConfig(1, (4, 5)))
        """
        return self._split_configs

    @property
    def dynamic_shape_metadata_prefix_bytes(self) -> int:
        """Bytes of dynamic-shape metadata before the data (``M(n)``), 0 for
        none; carried and printed, read by no size function (as in XLA).

        Examples
        --------
        >>> xs.ShapeUtil.parse_shape_string("f32[123,456]{1,0:T(16,128)M(1024)}").layout.dynamic_shape_metadata_prefix_bytes
        1024
        """
        return self._dynamic_shape_metadata_prefix_bytes

    def _key(self) -> tuple[object, ...]:
        return (
            self._minor_to_major,
            self._padded_dimensions,
            self._padding_value,
            self._tiles,
            self._element_size_in_bits,
            self._memory_space,
            self._tail_padding_alignment_in_elements,
            self._split_configs,
            self._dynamic_shape_metadata_prefix_bytes,
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (layout_from_fields, self._key())

    def __repr__(self) -> str:
        parts = [f"minor_to_major={self._minor_to_major}"]
        if self._padded_dimensions:
            parts.append(f"padded_dimensions={self._padded_dimensions}")
        if self._padding_value != PaddingValue.INVALID_PAD:
            parts.append(f"padding_value=PaddingValue.{self._padding_value.name}")
        if self._tiles:
            parts.append(f"tiles={self._tiles}")
        if self._element_size_in_bits:
            parts.append(f"element_size_in_bits={self._element_size_in_bits}")
        if self._memory_space:
            parts.append(f"memory_space={self._memory_space}")
        if self._tail_padding_alignment_in_elements != 1:
            parts.append(f"tail_padding_alignment_in_elements={self._tail_padding_alignment_in_elements}")
        if self._split_configs:
            parts.append(f"split_configs={self._split_configs}")
        if self._dynamic_shape_metadata_prefix_bytes:
            parts.append(
                f"dynamic_shape_metadata_prefix_bytes={self._dynamic_shape_metadata_prefix_bytes}"
            )
        return f"Layout({', '.join(parts)})"

    def __str__(self) -> str:
        """XLA's text form, ``{1,0:T(8,128)(2,1)L(2)E(4)S(1)SC(0:2)M(8)}``,
        its attributes in XLA's order; then the 2017 padding, which XLA's
        text lacks, in xlashape's own ``PAD(widths)`` or
        ``PAD(widths:value)`` (``value`` one of zero, one, lowest, highest,
        unknown), so that no padded buffer prints as an unpadded one.
        :func:`xlashape.shapes.shape_text.parse_shape_string` reads it back; XLA
        refuses it as an unknown attribute."""
        return self.text(padding=True)

    def text(self, *, padding: bool = True) -> str:
        """``str(layout)``; with ``padding=False``, XLA's own text only,
        without the 2017 padding (for output that states the padding
        beside it: alone, such text names a different buffer).

        Examples
        --------
        >>> xs.Layout([0, 1], [3, 5]).text(padding=False)
        '{0,1}'
        """
        attributes = ""
        if self._tiles:
            attributes += "T" + "".join(map(str, self._tiles))
        if self._tail_padding_alignment_in_elements != 1:
            attributes += f"L({self._tail_padding_alignment_in_elements})"
        if self._element_size_in_bits:
            attributes += f"E({self._element_size_in_bits})"
        if self._memory_space:
            attributes += f"S({self._memory_space})"
        if self._split_configs:
            attributes += "SC" + "".join(map(str, self._split_configs))
        if self._dynamic_shape_metadata_prefix_bytes:
            attributes += f"M({self._dynamic_shape_metadata_prefix_bytes})"
        if padding and (self._padded_dimensions or self._padding_value != PaddingValue.INVALID_PAD):
            value = _PADDING_NAMES.get(self._padding_value)
            widths = ",".join(map(str, self._padded_dimensions))
            attributes += f"{PADDING_ATTRIBUTE}({widths}{'' if value is None else ':' + value})"
        m2m = ",".join(map(str, self._minor_to_major))
        return "{" + m2m + (":" + attributes if attributes else "") + "}"



def layout_from_fields(
    minor_to_major: Iterable[int],
    padded_dimensions: Iterable[int],
    padding_value: PaddingValue | int,
    tiles: Iterable[Tile | Iterable[int]],
    element_size_in_bits: int,
    memory_space: int,
    tail_padding_alignment_in_elements: int,
    split_configs: Iterable[SplitConfig | tuple[int, Iterable[int]]],
    dynamic_shape_metadata_prefix_bytes: int,
) -> Layout:
    """A Layout from every field, in the order of its ``_key()`` (for pickle
    and LayoutUtil.make_layout: the last three are keyword-only in Layout)."""
    return Layout(
        minor_to_major,
        padded_dimensions,
        padding_value,
        tiles,
        element_size_in_bits,
        memory_space,
        tail_padding_alignment_in_elements=tail_padding_alignment_in_elements,
        split_configs=split_configs,
        dynamic_shape_metadata_prefix_bytes=dynamic_shape_metadata_prefix_bytes,
    )
