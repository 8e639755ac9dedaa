"""XLA's utility classes and the helpers they delegate to.

Holds the facades ``shape_util`` (ShapeUtil), ``layout_util``
(LayoutUtil) and ``index_util`` (IndexUtil, with its compiled ``_index``),
and their helper modules: ``bitcast``, ``bitcast_decomposition``,
``byte_sizes``, ``dimension_surgery``, ``layout_queries``,
``layouts_in_shapes``, ``reshape_dimensions``, ``split_sizes`` and
``physical_order``.

May import: the shapes (``xlashape.shapes``), the compiled core, the
model, ``xlashape.reference``, ``xlashape.errors`` and
``xlashape._validate``. Not the linear buffers, ``xlashape.dask``, the
pictures, the drop-ins or the CLI.
"""
