"""The compiled core and its glue.

Holds the Cython modules over the C kernels (``xlashape/csrc``):
``_plan`` (a layout compiled for the row steps, and single indices),
``_tiled`` (the tiled plans), ``_batch`` (the batch driver's glue: input
checks, the job, the pool), ``_relayout`` (the relayout kernels) and
``_boxes`` (rows in physical order), each with its ``.pxd`` and ``.pyi``;
and the Python modules that set the core's run-time knobs, ``threads``
(the thread count) and ``result_cache``. (``xlashape.cpu``, the CPU
level and store thresholds, is the core's too, kept at its documented
path.)

May import: the model (``xlashape.model``), ``xlashape.reference`` (the
plans' fallback and error messages), ``xlashape.errors`` and
``xlashape._validate``. Never a Shape: the layers above hand the core what
it needs of them (``_batch.plan_of`` takes the reader of shape text from
its callers).
"""
