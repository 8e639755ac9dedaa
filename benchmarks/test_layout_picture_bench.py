"""How long a layout picture takes to make: ``layout_picture.svg`` (what a
notebook's ``Shape._repr_html_`` returns and ``xlashape show --svg``
writes), for small, big, tiled, padded and high-rank shapes. The picture
is elided, so its time should not grow with the shape: the target is under
100 ms for any shape. Run for real with

    python -m pytest benchmarks/test_layout_picture_bench.py --benchmark-enable

and read the median column. Under the default ``--benchmark-disable`` each
case runs once and checks the picture's size bound (200 KB).
"""

from __future__ import annotations

import pytest

from xlashape import ShapeUtil
from xlashape.pictures import layout_picture

CASES = [
    "f32[2,3]{0,1:PAD(3,5)}",
    "f32[3,5]{1,0:T(2,2)}",
    "bf16[16,256]{1,0:T(8,128)(2,1)}",
    "f32[8,128,256]{0,2,1:T(8,128)}",
    "f32[1024,1024]{1,0:T(8,128)}",
    "bf16[4096,4096,16]{0,2,1:T(8,128)(2,1)}",
    "f32[3,5,4,6]{1,3,0,2:PAD(4,7,4,8)}",
    "f32[100000,100000,1000]{2,1,0:PAD(100001,100000,1024)}",
    "f32[65537,65537]{1,0:T(2,*,128)}",
    "s4[1024]{0:E(4)}",
    "f32[9,9,9,9,9,9,9,9]{3,7,1,5,0,4,2,6}",
]


@pytest.mark.parametrize("text", CASES)
def test_svg(benchmark, text):
    shape = ShapeUtil.parse_shape_string(text)
    benchmark.group = "layout picture"
    benchmark.extra_info["impl"] = "xlashape"
    picture = benchmark(layout_picture.svg, shape)
    assert len(picture.encode()) < 200_000
