"""Stub for the compiled LayoutPlan (xlashape/core/_plan.pyx)."""

class LayoutPlan:
    """Strides, extents and division constants of one shape's layout."""

    rank: int
    size: int
    dimensions: tuple[int, ...]
    widths: tuple[int, ...]
    minor_to_major: tuple[int, ...]
    strides: tuple[int, ...]
    padded: bool

    def __init__(
        self,
        dimensions: tuple[int, ...],
        minor_to_major: tuple[int, ...],
        widths: tuple[int, ...],
    ) -> None: ...
