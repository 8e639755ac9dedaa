"""The words of the model: element types, layouts and tiles.

Holds ``primitive_type`` and ``primitive_util`` (XLA's element types),
``layout`` and ``layout_edit`` (Layout, Tile, SplitConfig and their
variants), ``tiling`` (what a layout's tiles do to the indices, as
programs the compiled tiled plans run), ``strides`` (the layout of NumPy
strides), ``jax_interop`` (JAX's names for them), and ``_frozen`` and
``_xla_names`` (the immutable value base and XLA's CamelCase aliases).

May import: ``xlashape.errors`` and ``xlashape._validate`` only. Everything
else builds on this layer; the compiled core reads layouts from it.
"""
