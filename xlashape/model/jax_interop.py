"""JAX's layouts as xlashape's, and back (the optional ``jax`` extra).

JAX describes how an array lies on its device with
``jax.experimental.layout.Layout(major_to_minor, tiling,
sub_byte_element_size_in_bits)``, wrapped with a sharding in a ``Format``
(``jax.Array.format``). These are XLA's minor_to_major (reversed), tiles and
element_size_in_bits, so they map one to one. JAX is imported only when a
function here needs it; this module never imports :mod:`xlashape.shapes.shape`
(``Shape.from_jax`` builds the Shape from what :func:`read_jax` returns).

Tested with JAX 0.10.2 (``pip install jax``); older releases named the
layout class ``DeviceLocalLayout`` and exposed it as ``Array.layout``, and
both are read too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validate import as_dtype
from .layout import Layout
from .primitive_type import PrimitiveType, type_of_dtype_name

__all__ = ["element_type_of", "read_jax", "to_jax_layout"]

def element_type_of(dtype: Any) -> PrimitiveType:
    """The XLA element type of a NumPy or JAX dtype (``bfloat16`` is BF16,
    ``int4`` S4, ``float8_e4m3fn`` F8E4M3FN)."""
    dt = as_dtype(dtype)
    return type_of_dtype_name(dt.name) or PrimitiveType.from_dtype(dt)


def _jax_layout_class() -> Any:
    try:
        import jax.experimental.layout as jax_layout
    except ImportError:
        raise ImportError(
            "JAX interop needs JAX: pip install 'xlashape[jax]' (or pip install jax)"
        ) from None
    return getattr(jax_layout, "Layout", None) or getattr(jax_layout, "DeviceLocalLayout")  # noqa: B009


def _device_layout(obj: Any) -> Any:
    """The device-local layout inside ``obj``: an array's format, a Format,
    or a layout itself."""
    for attribute in ("format", "layout"):
        inner = getattr(obj, attribute, None)
        if inner is not None and not callable(inner) and inner is not obj:
            obj = inner
            break
    for attribute in ("layout", "device_local_layout"):
        inner = getattr(obj, attribute, None)
        if inner is not None and hasattr(inner, "major_to_minor"):
            return inner
    return obj


def _not_a_layout_hint(layout: Any) -> str:
    """Why ``layout`` (what read_jax found) is no layout, where it can tell."""
    if "auto" in type(layout).__name__.lower():
        return "; its AUTO layout has not been chosen yet (compile first, then read the result's format)"
    if isinstance(layout, np.ndarray):
        return "; a NumPy array has no device layout: Shape.from_array reads its strides"
    return ""


def read_jax(
    obj: Any, dimensions: Any = None, dtype: Any = None
) -> tuple[PrimitiveType, tuple[int, ...], Layout]:
    """Element type, dimensions and Layout of a ``jax.Array`` (or anything
    with ``shape``, ``dtype`` and ``format``), or of a JAX ``Format`` or
    ``Layout`` given with ``dimensions`` and ``dtype``."""
    layout = _device_layout(obj)
    if not hasattr(layout, "major_to_minor"):
        raise TypeError(
            "expected a jax.Array, a jax.experimental.layout.Format or Layout, got "
            f"{type(obj).__name__}{_not_a_layout_hint(layout)}"
        )
    dims = getattr(obj, "shape", None) if dimensions is None else dimensions
    element = getattr(obj, "dtype", None) if dtype is None else dtype
    if dims is None or element is None:
        raise TypeError(
            f"a {type(obj).__name__} carries no dimensions or dtype: pass them, as in "
            "Shape.from_jax(layout, dimensions=(8, 128), dtype='float32')"
        )
    tiling = getattr(layout, "tiling", None) or getattr(layout, "_tiling", None) or ()
    bits = getattr(layout, "sub_byte_element_size_in_bits", None)
    if bits is None:
        bits = getattr(layout, "_sub_byte_element_size_in_bits", 0) or 0
    xla_layout = Layout.from_major_to_minor(
        tuple(int(d) for d in layout.major_to_minor),
        tiles=[tuple(int(t) for t in tile) for tile in tiling],
        element_size_in_bits=int(bits),
    )
    return element_type_of(element), tuple(int(d) for d in dims), xla_layout


def to_jax_layout(layout: Layout) -> Any:
    """The ``jax.experimental.layout.Layout`` of an xlashape Layout (its
    major_to_minor, tiles and element_size_in_bits). ValueError for the 2017
    padding, a memory space, a tail padding alignment, split configs or a
    dynamic-shape metadata prefix, which JAX's layout does not carry."""
    if layout.padded_dimensions:
        raise ValueError(
            f"layout {layout!r} is padded; JAX's layouts have no padded_dimensions"
        )
    if layout.memory_space:
        raise ValueError(
            f"layout {layout} has memory space {layout.memory_space}; JAX keeps memory "
            "kinds on the sharding, not the layout"
        )
    uncarried = [
        name
        for name, present in (
            ("a tail padding alignment (L)", layout.tail_padding_alignment_in_elements != 1),
            ("split configs (SC)", bool(layout.split_configs)),
            ("a dynamic-shape metadata prefix (M)", bool(layout.dynamic_shape_metadata_prefix_bytes)),
        )
        if present
    ]
    if uncarried:
        raise ValueError(f"layout {layout} has {' and '.join(uncarried)}; JAX's layouts carry none")
    return _jax_layout_class()(
        major_to_minor=layout.major_to_minor,
        tiling=tuple(tile.dimensions for tile in layout.tiles),
        sub_byte_element_size_in_bits=layout.element_size_in_bits,
    )
