"""JAX interop (the optional ``jax`` extra), skipped where JAX is absent.

On CPU JAX's layouts are plain major-to-minor; tiled layouts are built here
directly as ``jax.experimental.layout.Layout`` objects, as a TPU would
report them.
"""

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
jax_layout = pytest.importorskip("jax.experimental.layout")

from xlashape import Shape, ShapeUtil  # noqa: E402
from xlashape.model.jax_interop import element_type_of  # noqa: E402


def test_cpu_array():
    x = jnp.zeros((3, 5), jnp.float32)
    shape = Shape.from_jax(x)
    assert str(shape) == "f32[3,5]{1,0}"
    assert Shape.from_jax(x.format, (3, 5), np.float32) == shape


@pytest.mark.parametrize(
    "text, major_to_minor, tiling, bits, dtype",
    [
        ("bf16[16,256]{1,0:T(8,128)(2,1)}", (0, 1), ((8, 128), (2, 1)), 0, "bfloat16"),
        ("f32[3,5]{0,1:T(2,2)}", (1, 0), ((2, 2),), 0, "float32"),
        ("s4[1024]{0:T(1024)E(4)}", (0,), ((1024,),), 4, "int4"),
        ("u8[128,256,8]{2,1,0:T(8,128)(4,1)}", (0, 1, 2), ((8, 128), (4, 1)), 0, "uint8"),
    ],
)
def test_tiled_layouts_both_ways(text, major_to_minor, tiling, bits, dtype):
    layout = jax_layout.Layout(major_to_minor, tiling=tiling, sub_byte_element_size_in_bits=bits)
    expected = ShapeUtil.parse_shape_string(text)
    assert Shape.from_jax(layout, expected.dimensions, dtype) == expected
    back = expected.to_jax_layout()
    assert back.major_to_minor == major_to_minor
    assert tuple(map(tuple, back.tiling)) == tiling
    assert back.sub_byte_element_size_in_bits == bits
    assert back == layout


@pytest.mark.parametrize(
    "dtype, name",
    [("bfloat16", "BF16"), ("int4", "S4"), ("uint4", "U4"), ("float8_e4m3fn", "F8E4M3FN"),
     ("float8_e5m2", "F8E5M2"), ("int8", "S8"), ("float32", "F32"), ("bool", "PRED")],
)  # fmt: skip
def test_jax_dtypes(dtype, name):
    assert element_type_of(jnp.dtype(dtype)).name == name


def test_errors():
    with pytest.raises(TypeError, match="carries no dimensions or dtype"):
        Shape.from_jax(jax_layout.Layout((0,)))
    with pytest.raises(TypeError, match=r"expected a jax\.Array"):
        Shape.from_jax(object())
    with pytest.raises(ValueError, match="no padded_dimensions"):
        ShapeUtil.make_shape_with_layout("f32", [2, 3], [1, 0], padded_dimensions=[2, 4]).to_jax_layout()
    with pytest.raises(ValueError, match="memory space"):
        ShapeUtil.parse_shape_string("f32[8,128]{1,0:S(1)}").to_jax_layout()
