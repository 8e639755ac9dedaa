"""xlashape: XLA's shapes and layouts for NumPy.

Turns whole batches of multi-dimensional indices into linear offsets and
back, for any ``minor_to_major`` layout, padded layouts included.
"""

try:
    from . import _plan  # noqa: F401  (the compiled core)
except ImportError as error:  # pragma: no cover - a source tree without its build
    import os as _os

    raise ImportError(
        "xlashape's compiled modules are not built in "
        f"{_os.path.dirname(__file__)}: this looks like a source checkout. Run from "
        "another directory to use the installed xlashape (pip install . first), or "
        "build in place with pip install -e ."
    ) from error

from . import reference as reference  # xlashape.reference: the oracle, importable as an attribute
from .buffers import from_linear, padding_fill_value, relayout, to_linear, view_linear
from .convert import ravel, unravel
from .cpu import cpu_features
from .errors import IndexOutOfBoundsError
from .index_util import IndexUtil
from .layout import Layout, SplitConfig, Tile
from .layout_util import LayoutUtil
from .numpy_compat import ravel_multi_index, unravel_index
from .primitive_type import PaddingValue, PrimitiveType
from .result_cache import result_cache_info, set_result_cache
from .shape import Shape
from .shape_util import ShapeUtil
from .threads import get_num_threads, set_num_threads
from .tuple_shape import NonArrayShape, TupleShape

__version__ = "0.1.0"

__all__ = [
    "IndexOutOfBoundsError",
    "IndexUtil",
    "Layout",
    "LayoutUtil",
    "NonArrayShape",
    "PaddingValue",
    "PrimitiveType",
    "Shape",
    "ShapeUtil",
    "cpu_features",
    "SplitConfig",
    "Tile",
    "TupleShape",
    "from_linear",
    "get_num_threads",
    "padding_fill_value",
    "ravel",
    "relayout",
    "ravel_multi_index",
    "result_cache_info",
    "set_num_threads",
    "set_result_cache",
    "to_linear",
    "unravel",
    "unravel_index",
    "view_linear",
]
