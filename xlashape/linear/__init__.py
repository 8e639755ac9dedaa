"""Linear buffers: an array's elements laid out in its Shape's buffer, and
back, and relayout from one layout to another.

Holds ``buffers`` (``to_linear``, ``from_linear``, ``view_linear``,
``relayout``, ``padding_fill_value``), ``packing`` (sub-byte element
types packed into bytes) and ``relayout_plan`` (the plan the compiled
relayout kernels, ``xlashape.core._relayout``, run).

May import: the shapes (``xlashape.shapes``), the compiled core, the
model, ``xlashape.errors`` and ``xlashape._validate``. Not the facades,
``xlashape.dask``, the pictures, the drop-ins or the CLI.
"""
