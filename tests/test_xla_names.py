"""XLA's CamelCase names (``ShapeUtil.ReshapeIsBitcast``) raise an
AttributeError that names xlashape's snake_case one, derived by rule: every
public method and attribute is found from its CamelCase spelling, and a name
that stands for none gets no suggestion."""

import pickle

import hypothesis.strategies as st
import pytest
from hypothesis import given

import xlashape as xs
from xlashape.model._xla_names import XlaNames, snake_case

SHAPE = xs.Shape("f32", [2, 3, 4, 5], xs.Layout([0, 1, 2, 3]))  # 4-D: x, y, z and p
# The classes of static helpers, and an instance of each model class.
HELPERS = (xs.ShapeUtil, xs.LayoutUtil, xs.IndexUtil)
INSTANCES = (SHAPE, SHAPE.layout, xs.Tile([8, 128]), xs.LayoutUtil.make_layout([1, 0]))
HINT = "(xlashape spells XLA's names in snake_case)"


def public_names(owner):
    cls = owner if isinstance(owner, type) else type(owner)
    return sorted(name for name in dir(cls) if not name.startswith("_") and name.islower())


def camel_case(name):
    """``byte_size_of`` -> ``ByteSizeOf``, ``dim0_minor`` -> ``Dim0Minor``."""
    return "".join(word[:1].upper() + word[1:] for word in name.split("_"))


def refusal(owner, name):
    """The AttributeError that asking ``owner`` for ``name`` raises."""
    assert not hasattr(owner, name)
    with pytest.raises(AttributeError) as raised:
        getattr(owner, name)
    return raised.value


def suggested(owner, name):
    """The attribute that the refusal of ``name`` suggests, or None."""
    message = str(refusal(owner, name))
    cls = owner if isinstance(owner, type) else type(owner)
    subject = f"type object {cls.__name__!r}" if isinstance(owner, type) else f"{cls.__name__!r} object"
    head = f"{subject} has no attribute {name!r}"
    if message == head:
        return None
    prefix = f"{head}; did you mean {cls.__name__}."
    assert message.startswith(prefix) and message.endswith(f"? {HINT}"), message
    return message[len(prefix) : -len(f"? {HINT}")]


@pytest.mark.parametrize("owner", HELPERS + INSTANCES, ids=lambda o: type(o).__name__)
def test_every_public_name_is_found_from_its_camel_case_spelling(owner):
    names = public_names(owner)
    assert names
    for name in names:
        camel = camel_case(name)
        if camel == name:  # one word without a capital: nothing to suggest
            continue
        assert suggested(owner, camel) == name
        assert getattr(owner, name) is not None  # the suggestion is there


@pytest.mark.parametrize(
    ("owner", "xla_name", "name"),
    [
        (xs.ShapeUtil, "ReshapeIsBitcast", "reshape_is_bitcast"),
        (xs.ShapeUtil, "ByteSizeOf", "byte_size_of"),
        (xs.ShapeUtil, "HumanStringWithLayout", "human_string_with_layout"),
        (xs.ShapeUtil, "MakeShapeWithDescendingLayoutAndSamePhysicalLayout",
         "make_shape_with_descending_layout_and_same_physical_layout"),
        (xs.ShapeUtil, "InsertedOrDeleted1SizedDimensions", "inserted_or_deleted_1_sized_dimensions"),
        (xs.ShapeUtil, "ElementsIn", "elements_in"),
        (xs.LayoutUtil, "IsMonotonicWithDim0Minor", "is_monotonic_with_dim0_minor"),
        (xs.LayoutUtil, "MakeLayoutFromMajorToMinor", "make_layout_from_major_to_minor"),
        (xs.IndexUtil, "MultidimensionalIndexToLinearIndex", "multidimensional_index_to_linear_index"),
        (xs.IndexUtil, "BumpIndices", "bump_indices"),
        # A misspelt word (letters swapped, one doubled, one dropped), and a
        # word XLA splits as two.
        (xs.ShapeUtil, "ReshapeIsBitcats", "reshape_is_bitcast"),
        (xs.ShapeUtil, "ReshapeIsBitcasst", "reshape_is_bitcast"),
        (xs.ShapeUtil, "ReshapeIsBitast", "reshape_is_bitcast"),
        (xs.ShapeUtil, "ReshapeIsBitCast", "reshape_is_bitcast"),
        # Shape's and Layout's own accessors, in XLA's C++ spelling.
        (SHAPE, "ElementType", "element_type"),
        (SHAPE.layout, "MinorToMajor", "minor_to_major"),
    ],
)
def test_xlas_names_are_answered_with_xlashapes(owner, xla_name, name):
    assert suggested(owner, xla_name) == name
    error = refusal(owner, xla_name)
    assert error.name == xla_name and error.obj is owner


@pytest.mark.parametrize(
    ("owner", "name"),
    [
        # XLA names whose nearest name here is another function: no guess.
        (xs.ShapeUtil, "PrependMajorDimension"),
        (xs.ShapeUtil, "MakeShapeWithSparseLayout"),
        (xs.ShapeUtil, "ArrayDataSize"),
        (xs.ShapeUtil, "CompatibleKind"),
        (xs.ShapeUtil, "ForEachMutableSubshape"),
        (xs.ShapeUtil, "UpdateTupleShape"),
        (xs.ShapeUtil, "MakeMaybeTupleShape"),
        # Two words run together by a misspelt capital: never the one word
        # they begin with (CompatibleKind, its K changed to a: not
        # compatible).
        (xs.ShapeUtil, "Compatibleaind"),
        # Names that stand for nothing.
        (xs.ShapeUtil, "FrobnicateWidgets"),
        (xs.LayoutUtil, "Q"),
        (SHAPE, "IsDefinitelyNotAMethod"),
    ],
)
def test_names_that_stand_for_no_name_here_get_no_suggestion(owner, name):
    if snake_case(name) in public_names(owner):  # added since: then it is found
        assert suggested(owner, name) == snake_case(name)
    else:
        assert suggested(owner, name) is None


@pytest.mark.parametrize("owner", HELPERS + INSTANCES[:1], ids=lambda o: type(o).__name__)
@pytest.mark.parametrize("name", ["nonexistent_fn", "_private", "__array_interface__", "byte_size_off"])
def test_other_missing_names_raise_pythons_plain_error(owner, name):
    # Not CamelCase: Python's own message (its traceback adds its own
    # suggestions for misspellings), and getattr's default still works.
    assert suggested(owner, name) is None
    assert getattr(owner, name, "default") == "default"


@given(st.sampled_from([(owner, name) for owner in HELPERS for name in public_names(owner)]), st.data())
def test_a_misspelt_camel_case_name_is_never_given_another_name(owner_and_name, data):
    # One letter of one word changed, dropped or doubled: the suggestion is
    # the name misspelt, or there is none; never a different name.
    owner, name = owner_and_name
    camel = camel_case(name)
    at = data.draw(st.integers(1, len(camel) - 1))
    edit = data.draw(st.sampled_from(["change", "drop", "double"]))
    letter = data.draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz"))
    typo = {
        "change": camel[:at] + letter + camel[at + 1 :],
        "drop": camel[:at] + camel[at + 1 :],
        "double": camel[:at] + camel[at] + camel[at:],
    }[edit]
    if typo.islower() or any(other.replace("_", "") == typo.lower() for other in public_names(owner)):
        return  # no capital left, or another name's spelling: not a misspelling
    assert suggested(owner, typo) in (None, name)


def test_classes_of_helpers_added_later_find_their_names_without_a_list():
    class Helpers(metaclass=XlaNames):
        @staticmethod
        def make_widget_2d():
            return "widget"

    assert suggested(Helpers, "MakeWidget2d") == "make_widget_2d"
    assert suggested(Helpers, "MakeWidget2D") == "make_widget_2d"
    assert Helpers.make_widget_2d() == "widget"


def test_the_helpers_stay_plain_classes():
    # The metaclass changes nothing but the error: the classes pickle by
    # name, their methods are found, and instances still work where made.
    for cls in HELPERS:
        assert pickle.loads(pickle.dumps(cls)) is cls
    assert xs.ShapeUtil.byte_size_of(SHAPE) == 4 * 2 * 3 * 4 * 5
    assert pickle.loads(pickle.dumps(SHAPE)) == SHAPE


def test_a_property_that_raises_attribute_error_keeps_its_own_message():
    with pytest.raises(AttributeError, match="dimension letter 'p' names a dimension of 4-D arrays only"):
        _ = xs.Shape("f32", [2, 3]).p


@pytest.mark.parametrize(
    ("name", "snake"),
    [
        ("ByteSizeOf", "byte_size_of"),
        ("HumanStringWithLayout", "human_string_with_layout"),
        ("IsMonotonicWithDim0Minor", "is_monotonic_with_dim0_minor"),
        ("XLAShape", "xla_shape"),
        ("ShapeToHLOText", "shape_to_hlo_text"),
        ("FindTranspose021", "find_transpose021"),
    ],
)
def test_snake_case_splits_words_and_keeps_acronyms_whole(name, snake):
    assert snake_case(name) == snake
