"""The limits of shape text: how deep tuples nest, integers past int64, and
shapes whose bytes overflow int64, refused as XLA's parser refuses them,
with a ValueError that says so (never a RecursionError), on the command
line in one line."""

import pickle

import pytest

from xlashape import Shape, ShapeUtil, TupleShape
from xlashape.shapes import tuple_shape

MAX_TUPLE_DEPTH = 100  # documented: protobuf's recursion limit for a ShapeProto

P = ShapeUtil.parse_shape_string


def nested(depth: int, leaf: str = "f32[2]{0}") -> str:
    return "(" * depth + leaf + ")" * depth


@pytest.mark.parametrize("text", [nested(1000), "(" * 1000, nested(300), nested(MAX_TUPLE_DEPTH + 1)])
def test_deep_tuple_text_is_a_value_error(text):
    assert getattr(tuple_shape, "MAX_TUPLE_DEPTH", None) == MAX_TUPLE_DEPTH
    with pytest.raises(ValueError, match=f"tuples nest at most {MAX_TUPLE_DEPTH} deep"):
        P(text)


def test_the_deepest_tuple_parses_prints_and_parses_back():
    for leaf in ("f32[2]{0}", ""):
        shape = P(nested(MAX_TUPLE_DEPTH, leaf))
        text = str(shape)
        assert text == nested(MAX_TUPLE_DEPTH, leaf) and P(text) == shape
        assert ShapeUtil.human_string(shape) == nested(MAX_TUPLE_DEPTH, "f32[2]" if leaf else "")
        assert hash(shape) == hash(P(text)) and pickle.loads(pickle.dumps(shape)) == shape
        assert repr(shape).startswith("TupleShape([TupleShape(")
        assert ShapeUtil.get_leaf_count(shape) == (1 if leaf else 0)


def test_building_a_deeper_tuple_is_refused():
    shape = TupleShape([Shape("f32", [2])])
    for _ in range(MAX_TUPLE_DEPTH - 1):
        shape = TupleShape([shape])
    with pytest.raises(ValueError, match=f"nest at most {MAX_TUPLE_DEPTH} deep.*nests {MAX_TUPLE_DEPTH + 1}"):
        TupleShape([Shape("s8", []), shape])


def test_the_command_line_says_it_in_one_line(cli):
    result = cli("show", nested(1000))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("xlashape: error: ")
    assert f"tuples nest at most {MAX_TUPLE_DEPTH} deep" in result.stderr


@pytest.mark.parametrize("text, message", [
    # XLA's lexer reads integers as int64: a layout attribute past it does not parse.
    ("f32[2]{0:S(99999999999999999999)}", "more than the int64 maximum"),
    ("f32[2]{0:E(9223372036854775808)}", "more than the int64 maximum"),
    # XLA's ValidateShapeSize: the bytes of the elements (bounds included) fit in int64.
    ("f32[<=9223372036854775807]", "size overflows int64"),
    ("f32[2305843009213693952]", "size overflows int64"),
])
def test_integers_and_sizes_xla_refuses(text, message):
    with pytest.raises(ValueError, match=message):
        P(text)


def test_integers_and_sizes_xla_accepts():
    assert P("s8[<=9223372036854775807]").dimensions == (9223372036854775807,)
    assert P("f32[2]{0:S(9223372036854775807)}").layout.memory_space == 9223372036854775807
    # Built in Python, a Shape bounds its element count only: the NumPy
    # drop-ins describe any index space NumPy accepts with one.
    assert Shape("c128", [2**59 + 1]).element_count == 2**59 + 1
