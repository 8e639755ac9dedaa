"""xlashape: XLA's shapes and layouts for NumPy.

Turns whole batches of multi-dimensional indices into linear offsets and
back, for any ``minor_to_major`` layout, padded layouts included.

The package is built in layers, each importing only those below it
(tests/test_import_layers.py holds them to it), from the bottom:
``errors`` and ``_validate``; the model (``model``: element types, layouts,
tiles) and ``reference`` (the spec in plain Python); the compiled core
(``core``, and ``cpu``); the shapes (``shapes``: Shape, its text, and
``ravel``/``unravel``); XLA's utility classes (``xla``), the linear buffers
(``linear``) and ``dask``; the pictures (``pictures``) and the NumPy
drop-ins (``drop_ins``); this module, the public names; and the command
line (``cli``, with the bench).
"""

try:
    from .core import _plan  # noqa: F401  (the compiled core)
except ImportError as error:  # pragma: no cover - a source tree without its build
    import os as _os

    raise ImportError(
        "xlashape's compiled modules are not built in "
        f"{_os.path.dirname(__file__)}: this looks like a source checkout. Run from "
        "another directory to use the installed xlashape (pip install . first), or "
        "build in place with pip install -e ."
    ) from error

from . import pictures  # noqa: F401  (it gives Shape._repr_html_ its picture)
from . import reference as reference  # xlashape.reference: the oracle, importable as an attribute
from .core.result_cache import result_cache_info, set_result_cache
from .core.threads import get_num_threads, set_num_threads
from .cpu import cpu_features
from .drop_ins import ravel_multi_index, unravel_index
from .errors import IndexOutOfBoundsError
from .linear.buffers import from_linear, padding_fill_value, relayout, to_linear, view_linear
from .model.layout import Layout, SplitConfig, Tile
from .model.primitive_type import PaddingValue, PrimitiveType
from .shapes.convert import ravel, unravel
from .shapes.shape import Shape
from .shapes.tuple_shape import NonArrayShape, TupleShape
from .xla.index_util import IndexUtil
from .xla.layout_util import LayoutUtil
from .xla.shape_util import ShapeUtil

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
