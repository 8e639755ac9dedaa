"""The NumPy drop-ins, ``xlashape.ravel_multi_index`` and
``xlashape.unravel_index``, and their public face.

Holds ``_drop_ins`` (the compiled front: the cached layouts and the fast
paths straight to the C driver), ``numpy_compat`` (the general path, which
reads every form of the arguments and raises as NumPy does) and
``duck_arrays`` (calls on other libraries' arrays, NEP 18, through
``xlashape.dask`` for Dask). This ``__init__`` is the face: it imports the
compiled front and hands it its general path, which the front never
imports.

May import: ``xlashape.dask``, the shapes (``xlashape.shapes``), the
compiled core, the model, ``xlashape.errors`` and ``xlashape._validate``.
Not the facades, the linear buffers, the pictures or the CLI.
"""

from . import duck_arrays, numpy_compat
from ._drop_ins import ravel_multi_index, take_general_path, unravel_index

take_general_path(numpy_compat, duck_arrays)

__all__ = ["ravel_multi_index", "unravel_index"]
