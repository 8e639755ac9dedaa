"""Shapes as text: ``f32[2,3]`` and ``f32[2,3]{1,0}``, printed and parsed."""

from __future__ import annotations

import re

from .layout import Layout
from .primitive_type import PrimitiveType
from .shape import Shape

__all__ = ["human_string", "human_string_with_layout", "parse_shape_string"]

_SHAPE = re.compile(
    r"\s*(?P<type>[a-z][a-z0-9]*)\[(?P<dims>[^\]]*)\](?:\{(?P<layout>[^}]*)\})?\s*", re.ASCII
)
_INTS = re.compile(r"\s*(?:\d+\s*(?:,\s*\d+\s*)*)?", re.ASCII)


def human_string(shape: Shape) -> str:
    """``f32[2,3]``: the element type and dimensions."""
    return f"{shape.element_type.text}[{','.join(map(str, shape.dimensions))}]"


def human_string_with_layout(shape: Shape) -> str:
    """``f32[2,3]{1,0}``: with the layout's minor_to_major (padding is not
    part of XLA's text form)."""
    return human_string(shape) + str(shape.layout)


def _ints(text: str, field: str, source: str) -> tuple[int, ...]:
    if not _INTS.fullmatch(text):
        if ":" in text and field == "layout":
            raise ValueError(
                f"cannot parse shape {source!r}: layout attributes after ':' "
                f"(tiling, memory space, element size) are not supported in {{{text}}}"
            )
        raise ValueError(
            f"cannot parse shape {source!r}: {field} must be non-negative "
            f"integers separated by commas, got {text!r}"
        )
    try:
        return tuple(int(v) for v in text.split(",")) if text.strip() else ()
    except ValueError as e:  # more digits than int() converts
        raise ValueError(f"cannot parse shape {source!r}: {field}: {e}") from None


def parse_shape_string(text: str) -> Shape:
    """Read a shape written as :func:`human_string` or
    :func:`human_string_with_layout` prints it, such as ``"f32[2,3]{0,1}"``.

    Raises ValueError quoting the text for anything else, including XLA
    forms xlashape does not model (tuples, dynamic sizes, tiled layouts).
    """
    if not isinstance(text, str):
        raise TypeError(f"shape string must be a str, got {type(text).__name__}")
    match = _SHAPE.fullmatch(text)
    if match is None:
        reason = (
            "tuple shapes are not supported"
            if text.lstrip().startswith("(")
            else "expected the form TYPE[D0,D1,...] or TYPE[D0,D1,...]{M0,M1,...}, "
            "such as f32[2,3]{1,0}"
        )
        raise ValueError(f"cannot parse shape {text!r}: {reason}")
    try:
        element_type = PrimitiveType.from_text(match["type"])
    except ValueError as e:
        raise ValueError(f"cannot parse shape {text!r}: {e}") from None
    dims = _ints(match["dims"], "dimensions", text)
    layout = None
    if match["layout"] is not None:
        layout = Layout(_ints(match["layout"], "layout", text))
    try:
        return Shape(element_type, dims, layout)
    except (ValueError, OverflowError) as e:
        raise ValueError(f"invalid shape {text!r}: {e}") from None
