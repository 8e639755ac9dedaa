"""Pictures of a layout: ``layout_picture`` draws where each element of a
Shape lies, in the logical array, the padded array and linear memory (SVG
and HTML; ``xlashape show`` draws it as text in the terminal).

Importing this package gives ``Shape._repr_html_`` its picture
(``layout_picture.svg``): Shape sits below the modules the picture draws
with, so it never imports them, and is handed the drawing here.

May import: the facades (``xlashape.xla``), the shapes, the compiled core,
the model, ``xlashape.errors`` and ``xlashape._validate``. Not the linear
buffers, the drop-ins or the CLI.
"""

from ..shapes.shape import set_html_picture
from .layout_picture import svg

set_html_picture(svg)
