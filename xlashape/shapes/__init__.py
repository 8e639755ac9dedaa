"""Shapes: Shape, TupleShape and NonArrayShape, their text, their
comparisons and variants, and the batch conversion on a Shape.

Holds ``shape`` (Shape, which holds its compiled plan), ``tuple_shape``,
``shape_text`` (XLA's shape text, and ``require_shape``, which reads a
public function's Shape argument), ``shape_equality``, ``shape_variants``,
``subshapes``, ``tuple_helpers``, ``dynamic_shapes``, ``array_predicates``
and ``element_type_predicates`` (what ShapeUtil asks of one shape), and
``convert`` with its compiled ``_convert`` (``xlashape.ravel`` and
``xlashape.unravel``).

May import: the compiled core (``xlashape.core``), the model,
``xlashape.reference``, ``xlashape.errors`` and ``xlashape._validate``.
Not the facades, buffers, pictures or drop-ins above it: ``Shape``'s
notebook picture is handed to it by ``xlashape.pictures``
(``shape.set_html_picture``).
"""
