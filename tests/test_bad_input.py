"""Bad input gets a clear error, fast.

Every public entry point answers bad input with TypeError or ValueError
(or the library's subclasses of them), never SyntaxError, AttributeError,
OverflowError alone, RecursionError, MemoryError or a call that never
returns. Each part below is a fuzz test of one cause: the shape-text
parser's mutation fuzzer (every attribute of the grammar), LayoutUtil's
layout arguments, the rank limit, the parser's linear time, the settings'
range, lazy iteration over huge regions, the drop-ins' order of errors
against NumPy, and a sweep of the whole public API with garbage.
"""

from __future__ import annotations

import inspect
import itertools
import random
import signal
import subprocess
import sys
import tempfile
import threading
import tracemalloc

import numpy as np
import pytest
from command_line import command_env
from hypothesis import given
from hypothesis import strategies as st
from strategies import all_multi_indices, shapes

import xlashape as xs
from xlashape import cpu, reference
from xlashape.errors import SizeOverflowError

ALLOWED = (TypeError, ValueError)
# A call that has not answered after this long is stopped, so that a call
# that never returns fails the test instead of hanging it. How much work a
# call does is judged without a clock: by the memory it allocates and the
# lines of Python it runs (peak_bytes, traced_lines), so a busy machine
# changes no verdict.
HANG_SECONDS = 10.0


class DidNotReturn(Exception):
    """A call still running after HANG_SECONDS: stopped."""


def _stop(signum, frame):
    raise DidNotReturn(f"no answer in {HANG_SECONDS} s")


def outcome(call, *args, **kwargs):
    """(result or None, exception or None) of one call; a call that does
    not return is stopped (on the main thread, where signals go)."""
    alarm = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if alarm:
        previous = signal.signal(signal.SIGALRM, _stop)
        signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
    try:
        result, error = call(*args, **kwargs), None
    except Exception as caught:  # the test judges every exception type
        result, error = None, caught
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    return result, error


def check_refusal(error, what):
    if isinstance(error, DidNotReturn) or (error is not None and not isinstance(error, ALLOWED)):
        raise AssertionError(f"{what} raised {type(error).__name__}: {error}") from error


def traced_lines(call, *args) -> int:
    """The lines of Python one call runs (its answer or error ignored): a
    measure of its work that no other load on the machine changes."""
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        count += event == "line"
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        call(*args)
    except Exception:  # the work done before an error counts the same
        pass
    finally:
        sys.settrace(previous)
    return count


def peak_bytes(call, *args) -> int:
    """The most memory Python's allocators held at once during one call,
    beyond what they held before it."""
    tracemalloc.start()
    try:
        call(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# -- 1. the shape-text parser: a mutation fuzzer over the whole grammar -------
SEEDS = [
    "f32[2,3]{1,0}",
    "f32[]",
    "bf16[128,256]{1,0:T(8,128)(2,1)}",
    "f32[4,6,8]{2,1,0:T(2,*,128)}",
    "c64[3,5]{0,1:T(1024)(128)(2,1)}",
    "s4[1024]{0:E(4)}",
    "f32[1,2,3,4]{3,2,1,0:L(100)}",
    "pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}",
    "u8[16]{0:M(8)}",
    "f32[<=16,3]",
    "f32[?,784]",
    "f32[2,3]{0,1:PAD(3,5)}",
    "f32[2,3]{0,1:PAD(3,5:zero)}",
    "(f32[2,3]{1,0}, s32[])",
    "((f32[1], (s8[2]{0})), token[])",
    "token[]",
    "opaque[]",
    "f32[4]{0:D(C)}",
    " f32 [ 2 , 3 ] { 1 , 0 : T ( 2 , 1 ) } ",
]
# Pieces a mutation inserts: every character of the grammar and some it
# lacks, the attributes' letters, and numbers NumPy or int() would choke on.
PIECES = [
    *"0123456789,()[]{}:<=?*+~# \tfsupredbcxyLTESMCPADz-.!",
    "²", "٣", "<=", "T(", "SC(", "PAD(", "E(", "L(", "S(", "M(", "D(", ",,", "i4,,", "02",
    "f32", "token", "(2,", ":zero", "9" * 25, "1" * 30,
]


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(text) + 1)
        kind = rng.randrange(7)
        if kind == 0:
            text = text[:at] + text[at + rng.randint(1, 3) :]
        elif kind == 1:
            text = text[:at] + rng.choice(PIECES) + text[at:]
        elif kind == 2:
            text = text[:at] + rng.choice(PIECES) + text[at + 1 :]
        elif kind == 3:  # a span repeated: long inputs
            span = text[at : at + rng.randint(1, 8)]
            text = text[:at] + span * rng.randint(2, 60) + text[at:]
        elif kind == 4:
            other = rng.choice(SEEDS)
            text = text[:at] + other[rng.randrange(len(other) + 1) :]
        elif kind == 5 and len(text) > 1:
            i, j = sorted(rng.sample(range(len(text)), 2))
            text = text[:i] + text[j] + text[i + 1 : j] + text[i] + text[j + 1 :]
        else:
            text = text[:at]
    return text


def test_parser_mutation_fuzzer():
    rng = random.Random(33)
    parsed = refused = 0
    for n in range(25_000):
        text = mutate(rng.choice(SEEDS), rng)
        shape, error = outcome(xs.ShapeUtil.parse_shape_string, text)
        check_refusal(error, f"parse_shape_string({text!r})")
        if error is None:
            parsed += 1
            # What the parser reads, it prints so that it reads it again.
            assert xs.ShapeUtil.parse_shape_string(str(shape)) == shape, text
        else:
            refused += 1
            assert "shape" in str(error) or "element type" in str(error), (text, error)
        if n % 4 == 0:  # element type names reach the hint through Shape too
            name = text[: rng.randint(1, 8)]
            _, error = outcome(xs.Shape, name, [2])
            check_refusal(error, f"Shape({name!r}, [2])")
    assert parsed > 500 and refused > 10_000  # the fuzzer reaches both sides


@pytest.mark.parametrize("text", [",", "02[2]", "i4,,[2]", "(2,)i4[3]", "f4,f4[1]", "[('a','i4')][2]"])
def test_element_type_hint_never_evaluates_text(text):
    with pytest.raises(ValueError, match="cannot parse shape"):
        xs.ShapeUtil.parse_shape_string(text)


@pytest.mark.parametrize("name", ["i4,,", ",", "02", "f4,(", "(2,)i4", b"i4,,"])
def test_dtype_text_is_never_evaluated(name):
    with pytest.raises(ValueError if isinstance(name, str) else TypeError, match="element type"):
        xs.Shape(name, [2])
    with pytest.raises(TypeError, match="must be a NumPy dtype"):
        xs.PrimitiveType.from_dtype(name)
    with pytest.raises(TypeError):
        xs.ravel([[0]], "f32[2]", dtype=name)
    with pytest.raises(TypeError):
        xs.padding_fill_value(1, name)


def test_hint_ignores_numpy_deprecations():
    # 'a' is a deprecated NumPy alias; the hint asks quietly (under the
    # suite's warnings-as-errors too).
    with pytest.raises(ValueError, match="unknown element type 'a'"):
        xs.Shape("a", [2])


def test_dtype_names_and_codes_are_still_read():
    assert xs.PrimitiveType.from_dtype(">c16") is xs.PrimitiveType.C128
    assert xs.PrimitiveType.from_dtype(b"f4") is xs.PrimitiveType.F32
    assert xs.ravel([[1]], "f32[2]", dtype="int32").dtype == np.int32
    with pytest.raises(ValueError, match="NumPy reads it as float32, XLA's 'f32'"):
        xs.Shape("f4", [2])


# -- 2. LayoutUtil's layout arguments: a Layout, a Shape or shape text --------
L = xs.LayoutUtil
# (function, the arguments after the layout), for a rank-3 layout.
LAYOUT_FUNCTIONS = [
    (L.minor, (0,)),
    (L.minor, (2,)),
    (L.major, (0,)),
    (L.major, (1,)),
    (L.make_logical_to_physical, ()),
    (L.is_monotonic_with_dim0_major, ()),
    (L.is_monotonic_with_dim0_minor, ()),
    (L.are_dimensions_consecutive, ([0, 2],)),
    (L.are_dimensions_consecutive, ([1],)),
    (L.move_dim_to_major, (0,)),
    (L.minor_to_major, ()),
    (L.human_string, ()),
]


@given(shapes(min_rank=3, max_rank=3, max_size=3))
def test_layout_functions_take_shapes_and_text(shape):
    # The oracle: each function on the shape's Layout itself.
    for function, rest in LAYOUT_FUNCTIONS:
        expected = function(shape.layout, *rest)
        assert function(shape, *rest) == expected, function.__name__
        assert function(str(shape), *rest) == expected, function.__name__
    assert L.equal(shape, str(shape)) and L.equal(shape.layout, shape)


@pytest.mark.parametrize("garbage", [None, (1, 0), [2, 1, 0], 3, 1.5, b"f32[2]", object()])
@pytest.mark.parametrize(("function", "rest"), LAYOUT_FUNCTIONS, ids=lambda f: getattr(f, "__name__", ""))
def test_layout_functions_refuse_garbage(function, rest, garbage):
    with pytest.raises(TypeError, match=r"must be a Layout, a Shape or shape text.* got "):
        function(garbage, *rest)


def test_layout_functions_refuse_bad_text_with_valueerror():
    for function, rest in LAYOUT_FUNCTIONS:
        with pytest.raises(ValueError, match="cannot parse shape"):
            function("f32[2,3", *rest)


# -- 3. one rank limit for every constructor ---------------------------------
def ones(n):
    """n ones, made as they are read (a generator has no length to check)."""
    return (1 for _ in range(n))


RANK_LIMITED = {
    "Layout": lambda n: xs.Layout(range(n)),
    "Layout padded": lambda n: xs.Layout([0], padded_dimensions=ones(n)),
    "Layout.from_major_to_minor": lambda n: xs.Layout.from_major_to_minor(range(n)),
    "Shape": lambda n: xs.Shape("f32", ones(n)),
    "Tile": lambda n: xs.Tile(ones(n)),
    "get_default_layout_for_rank": L.get_default_layout_for_rank,
    "make_descending_layout": L.make_descending_layout,
    "make_ascending_layout": L.make_ascending_layout,
    "make_layout_from_major_to_minor": lambda n: L.make_layout_from_major_to_minor(range(n)),
    "make_layout": lambda n: L.make_layout(range(n)),
    "make_shape": lambda n: xs.ShapeUtil.make_shape("f32", ones(n)),
}


@pytest.mark.parametrize("name", RANK_LIMITED)
@pytest.mark.parametrize("rank", [xs.Shape.MAX_RANK + 1, 10**8, 10**30])
def test_rank_limit(name, rank):
    function = RANK_LIMITED[name]
    _, error = outcome(function, rank)
    check_refusal(error, f"{name}({rank})")
    assert isinstance(error, ValueError) and f"MAX_RANK = {xs.Shape.MAX_RANK}" in str(error), error


@pytest.mark.parametrize("name", RANK_LIMITED)
def test_rank_limit_is_numpys(name):
    assert xs.Shape.MAX_RANK == 64  # NPY_MAXDIMS: NumPy's arrays go this far
    np.empty((1,) * xs.Shape.MAX_RANK)
    RANK_LIMITED[name](xs.Shape.MAX_RANK)  # the limit itself is allowed


def test_endless_dimensions_end():
    with pytest.raises(ValueError, match="MAX_RANK"):
        xs.Shape("f32", itertools.count(1))
    with pytest.raises(ValueError, match="dynamic_dimensions has 2 entries"):
        xs.Shape("f32", [2], dynamic_dimensions=itertools.cycle([True]))


@pytest.mark.parametrize("rank", [-1, -(10**30)])
def test_negative_ranks(rank):
    for function in (L.get_default_layout_for_rank, L.make_descending_layout, L.make_ascending_layout):
        with pytest.raises(ValueError, match="rank must be >= 0 and at most"):
            function(rank)


# -- 4. the parser answers long texts, in time linear in them -------------------------------------
# Each text of n repeats, as a function of n; the tests read them at 100,000
# (5,000 tuple members).
LONG_TEXTS = {
    "100,000 tiles": lambda n: "f32[1]{0:T" + "(1)" * n + "}",
    "a tile of 100,000 sizes": lambda n: "f32[1]{0:T(" + ",".join(["1"] * n) + ")}",
    "100,000 dimensions": lambda n: "f32[" + ",".join(["1"] * n) + "]",
    "100,000 layout entries": lambda n: "f32[1]{" + ",".join(["0"] * n) + "}",
    "100,000 padded widths": lambda n: "f32[1]{0:PAD(" + ",".join(["1"] * n) + ")}",
    "100,000 split indices": lambda n: "f32[1]{0:SC(0:" + ",".join(map(str, range(1, n + 1))) + ")}",
    "a 100,000-digit size": lambda n: "f32[" + "9" * n + "]",
    "100,000 spaces": lambda n: "f32[1]" + " " * n,
    "100,000 open tuples": lambda n: "(" * n,
    "a tuple of 5,000": lambda n: "(" + ", ".join(["f32[2,3]{1,0}"] * (n // 20)) + ")",
}


@pytest.mark.parametrize("name", LONG_TEXTS)
def test_long_texts_are_answered(name):
    shape, error = outcome(xs.ShapeUtil.parse_shape_string, LONG_TEXTS[name](100_000))
    check_refusal(error, name)
    if name == "a tuple of 5,000":
        assert error is None and len(shape) == 5_000
    elif name == "100,000 spaces":
        assert error is None and shape == xs.Shape("f32", [1])
    elif name == "100,000 split indices":  # XLA checks no split index, and reads them all
        assert error is None and len(shape.layout.split_configs[0].split_indices) == 100_000
    else:
        assert isinstance(error, ValueError)


@pytest.mark.parametrize("name", LONG_TEXTS)
def test_the_parser_is_linear_in_its_input(name):
    """Twice the text, at most about twice the work (a loop over the text
    within a loop over it would take four times)."""
    small, large = (traced_lines(xs.ShapeUtil.parse_shape_string, LONG_TEXTS[name](n))
                    for n in (2_000, 4_000))
    assert large <= 2.5 * max(small, 1), f"{name}: {small} lines of Python at 2,000, {large} at 4,000"


def test_the_linear_time_check_can_fail():
    def quadratic(text):
        return sum(1 for i in range(len(text)) for _ in range(i))

    assert traced_lines(quadratic, "x" * 400) > 2.5 * traced_lines(quadratic, "x" * 200)


def test_tile_limits():
    assert xs.Layout.MAX_TILES == 64
    most = "(1)" * xs.Layout.MAX_TILES
    shape = xs.ShapeUtil.parse_shape_string("f32[3,5]{1,0:T" + most + "}")
    assert shape.buffer_size == reference.buffer_size(shape) == 15
    with pytest.raises(ValueError, match=r"at most Layout\.MAX_TILES = 64 tiles"):
        xs.ShapeUtil.parse_shape_string("f32[3,5]{1,0:T" + most + "(1)}")
    with pytest.raises(ValueError, match=r"at most Layout\.MAX_TILES = 64 tiles"):
        xs.Layout([1, 0], tiles=itertools.repeat((1,)))
    with pytest.raises(ValueError, match=r"a tile has at most Shape\.MAX_RANK = 64 sizes"):
        xs.ShapeUtil.parse_shape_string("f32[1]{0:T(" + ",".join(["1"] * 65) + ")}")


@st.composite
def long_tiles(draw):
    """A small shape with several tiles, some much longer than its rank (each
    adds leading dimensions of size 1)."""
    rank = draw(st.integers(1, 3))
    dims = draw(st.lists(st.integers(1, 5), min_size=rank, max_size=rank))
    tiles = [
        draw(st.lists(st.sampled_from([1, 2, 3]), min_size=1, max_size=rank + 6))
        for _ in range(draw(st.integers(1, 6)))
    ]
    return xs.Shape("f32", dims, xs.Layout(draw(st.permutations(range(rank))), tiles=tiles))


@given(long_tiles())
def test_long_tiles_against_the_reference(shape):
    # The tiled walk changes its tail in place: the reference tiles step by step.
    assert shape.buffer_size == reference.buffer_size(shape)
    index = all_multi_indices(shape)
    expected = [reference.linear_index_of(shape, tuple(row)) for row in index]
    assert xs.ravel(index, shape).tolist() == expected
    assert xs.unravel(np.array(expected), shape).tolist() == index.tolist()


# -- 5. settings: exact integers in their range ------------------------------
SETTERS = [(cpu.set_stream_bytes, cpu.stream_bytes), (cpu.set_align_bytes, cpu.align_bytes)]


@pytest.fixture
def restore_thresholds():
    saved = cpu.stream_bytes(), cpu.align_bytes()
    yield
    cpu.set_stream_bytes(saved[0])
    cpu.set_align_bytes(saved[1])


@pytest.mark.usefixtures("restore_thresholds")
@given(st.integers(0, cpu.MAX_THRESHOLD_BYTES) | st.sampled_from([0, 1, 2**53 - 1, 2**53, 2**52 + 1]))
def test_thresholds_round_trip(value):
    for put, get in SETTERS:
        put(value)
        assert get() == value and type(get()) is int
        assert put(get()) == value  # save and restore
        assert get() == value


@pytest.mark.usefixtures("restore_thresholds")
@pytest.mark.parametrize("value", [2**53 + 1, 2**62, 2**63 - 1, 2**63, 2**64, 10**30, -1, -(2**63)])
def test_thresholds_refuse_out_of_range(value):
    for put, get in SETTERS:
        before = get()
        with pytest.raises(ValueError, match=f"{put.__name__}: nbytes must be a byte count from 0 to MAX_THRESHOLD_BYTES"):
            put(value)
        assert get() == before


@pytest.mark.usefixtures("restore_thresholds")
@pytest.mark.parametrize("value", [1.5, 1e6, "4096", b"4096", True, [1]])
def test_thresholds_refuse_non_integers(value):
    for put, _ in SETTERS:
        with pytest.raises(TypeError, match=f"{put.__name__}: nbytes must be an integer"):
            put(value)


def import_with(variable, value):
    code = "import xlashape as xs; print(xs.cpu_features()['stream_bytes'], xs.get_num_threads())"
    env = dict(command_env(), **{variable: value})
    # Run from elsewhere than the checkout, whose xlashape/ has no compiled modules.
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd=tempfile.gettempdir(), timeout=120, check=False)


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("XLASHAPE_STREAM_BYTES", str(2**63)),
        ("XLASHAPE_STREAM_BYTES", str(2**53 + 1)),
        ("XLASHAPE_STREAM_BYTES", "²"),
        ("XLASHAPE_STREAM_BYTES", "9" * 5000),
        ("XLASHAPE_STREAM_BYTES", "-1"),
        ("XLASHAPE_NUM_THREADS", "²"),
        ("XLASHAPE_NUM_THREADS", "9" * 5000),
        ("XLASHAPE_RESULT_CACHE_MB", str(2**64)),
        ("XLASHAPE_RESULT_CACHE_MB", "²"),
        ("XLASHAPE_CPU", "²"),
        ("XLASHAPE_PREFETCH", "l3"),
        ("XLASHAPE_PREFETCH", "²"),
    ],
)
def test_bad_environment_variables_name_themselves(variable, value):
    done = import_with(variable, value)
    assert done.returncode != 0
    assert f"ValueError: {variable} must be" in done.stderr, done.stderr[-500:]


def test_environment_threshold_at_its_limit():
    done = import_with("XLASHAPE_STREAM_BYTES", str(2**53))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == str(2**53)


# -- 6. lazy iteration over huge regions --------------------------------------
def first_indices(shape, base=None, count=None, incr=None, k=5):
    seen = []
    xs.ShapeUtil.for_each_index(shape, base, count, incr, lambda index: seen.append(index) or len(seen) < k)
    return seen


@pytest.mark.parametrize(
    "text",
    ["s8[2147483648,2147483648]", "s8[2147483648,2147483648]{0,1}", "pred[1099511627776,3,1048576]{1,2,0}",
     "s8[2147483648,2147483648]{1,0:T(8,128)}"],
)
def test_for_each_index_on_huge_shapes_starts_at_once(text):
    huge = xs.ShapeUtil.parse_shape_string(text)
    # The oracle: the same layout with the most major dimension cut to 8,
    # whose first indices are the huge shape's.
    small_dims = list(huge.dimensions)
    small_dims[huge.layout.minor_to_major[-1]] = 8
    small = xs.Shape(huge.element_type, small_dims, xs.Layout(huge.layout.minor_to_major))
    assert first_indices(huge, k=7) == first_indices(small, k=7)
    # Lazy: the first indices come in a few MiB, where a list of either
    # shape's indices (at least 2**34 of them) would take hundreds of GiB.
    assert peak_bytes(first_indices, huge) < 64 << 20
    base, count, incr = [0] * huge.rank, [3] * huge.rank, [2] * huge.rank
    assert first_indices(huge, base, count, incr) == first_indices(small, base, count, incr)


@given(shapes(max_rank=4), st.data())
def test_for_each_index_visits_the_layout_order(shape, data):
    # The oracle: every index of the region, sorted by its position with the
    # layout's most major dimension first (itertools.product's order).
    rank = shape.rank
    base = [data.draw(st.integers(0, max(d - 1, 0))) for d in shape.dimensions]
    count = [data.draw(st.integers(0, max(d - b, 0))) for d, b in zip(shape.dimensions, base)]
    incr = [data.draw(st.integers(1, 3)) for _ in range(rank)]
    major_first = shape.layout.minor_to_major[::-1]
    ranges = [range(b, b + c, s) if c else range(b, b + 1) for b, c, s in zip(base, count, incr)]
    expected = []
    if shape.element_count:
        for physical in itertools.product(*(ranges[d] for d in major_first)):
            index = [0] * rank
            for d, value in zip(major_first, physical):
                index[d] = value
            expected.append(tuple(index))
    seen = []
    xs.ShapeUtil.for_each_index(shape, base, count, incr, seen.append)
    assert seen == expected


@pytest.mark.parametrize("text", ["s8[2147483648,2147483648]{1,0:T(8,128)}", "f32[4194304,1048576]{0,1:T(2,128)}"])
def test_small_region_of_a_huge_tiled_buffer(text):
    shape = xs.ShapeUtil.parse_shape_string(text)
    base, count = [5, 100], [7, 300]
    rows = xs.ShapeUtil.indices_in_physical_order(shape, base, count, [2, 3])
    expected = sorted(
        itertools.product(range(5, 12, 2), range(100, 400, 3)),
        key=lambda index: reference.linear_index_of(shape, index),
    )
    assert rows.tolist() == [list(index) for index in expected]


@pytest.mark.parametrize("text", ["s8[2147483648,2147483648]", "s8[2147483648,2147483648]{1,0:T(8,128)}"])
def test_indices_no_array_holds_are_refused_first(text):
    _, error = outcome(xs.ShapeUtil.indices_in_physical_order, text)
    check_refusal(error, text)
    assert isinstance(error, ValueError) and "larger than NumPy's maximum" in str(error)


@pytest.mark.parametrize(
    ("base", "count", "incr"),
    [([0, 0], [1, 1], [10**30, 10**30]), ([0, 0], [0, 0], [-(10**30), 0]), ([2**63, 0], [0, 1], None)],
)
def test_region_entries_past_int64(base, count, incr):
    shape = xs.Shape("f32", [3, 4])
    for call in (
        lambda: first_indices(shape, base, count, incr),
        lambda: xs.ShapeUtil.indices_in_physical_order(shape, base, count, incr).tolist(),
    ):
        result, error = outcome(call)
        check_refusal(error, f"region {base, count, incr}")
        if error is None:
            assert result in ([(0, 0)], [[0, 0]])
    empty = xs.Shape("f32", [0, 4])
    assert first_indices(empty, base, count, incr) == []
    assert xs.ShapeUtil.indices_in_physical_order(empty, base, count, incr).shape == (0, 2)


# -- 7. the drop-ins raise what NumPy raises first ---------------------------
MULTI_INDICES = [([1.5], [0]), ([1], [0]), ([1],), (["a"], [0]), (1.5, 0), ([3], [1]), ([], [])]
MODES = [5, -1, 2**31, 2**40, np.int8(7), "x", b"clip", None, "clip", 1, (5, 0), (0, 5), ("x", 0), (5, "x"),
         ("x", 5), (5, 5), [5, 0], (1.5, 0), (5, 1.5), (5, None), (None, 0), (True, 0), (5,), (0, 0, 0), True, 1.5]
DIMS_ORDERS = [((2, 3), "C"), ((2, 3), "F"), ((2, -3), "C"), ((2, 3), "A"), ((2**40, 2**40), "C")]


def numpy_outcome(function, *args, **kwargs):
    _, error = outcome(function, *args, **kwargs)
    return ("raises", type(error)) if error is not None else ("returns", None)


@pytest.mark.parametrize("mode", MODES, ids=repr)
def test_ravel_errors_in_numpys_order(mode):
    for multi_index, (dims, order) in itertools.product(MULTI_INDICES, DIMS_ORDERS):
        theirs = numpy_outcome(np.ravel_multi_index, multi_index, dims, mode=mode, order=order)
        ours = numpy_outcome(xs.ravel_multi_index, multi_index, dims, mode=mode, order=order)
        if theirs[0] == "returns":
            continue  # values are test_numpy_compat's; negative dims under clip/wrap are refused on purpose
        # Ours may be a subclass (IndexOutOfBoundsError for NumPy's ValueError).
        assert ours[0] == "raises" and issubclass(ours[1], theirs[1]), (multi_index, dims, order, theirs, ours)


@pytest.mark.parametrize("dims", [b"1", b"\x02\x03", b"", bytearray(b"\x02\x03")], ids=repr)
def test_bytes_dims_are_refused(dims):
    # NumPy reads the byte values (b"1" as 49); xlashape refuses, saying so.
    with pytest.raises(TypeError, match="NumPy would read its byte values"):
        xs.unravel_index(0, dims)
    with pytest.raises(TypeError, match="NumPy would read its byte values"):
        xs.ravel_multi_index((0,) * len(dims), dims)


def test_dims_of_unbounded_length():
    with pytest.raises(TypeError, match="expected a sequence of integers or a single integer"):
        xs.unravel_index(0, range(10**30))
    for keyword in ("order", "padded_dims"):
        with pytest.raises(ValueError, match="more than 64 entries"):
            xs.unravel_index(0, (2, 3), **{keyword: range(10**30)})
    with pytest.raises(ValueError, match="mode has more than 3 entries"):
        xs.ravel([[0, 0]], "f32[2,3]", mode=itertools.repeat("wrap"))


# -- 8. the whole public API, swept with garbage ------------------------------
GARBAGE = [
    None, (), (1, 2), [None], [[1]], {"a": 1}, object(), True,
    "", "x", ",", "i4,,", "02[2]", "f32[2,3", b"1", b"i4,,",
    -1, 10**30, -(10**30), 2**63, 2**64, 1.5, float("nan"), np.float32(1),
    [10**30], [-1], [1.5], np.array([1.5]), np.array([[2**62, 2**62]]),
]
SHAPE = xs.Shape("f32", [2, 3])
# Plausible values for the other arguments, by parameter name (the shape
# for any other).
PLAUSIBLE = {
    "layout": SHAPE.layout, "indices": [0, 1], "index": 0, "dimension": 0, "dim": 0, "rank": 2,
    "element_type": "f32", "dimensions": [2, 3], "minor_to_major": [1, 0], "buffer": np.zeros(6, np.float32),
    "array": np.zeros((2, 3), np.float32), "multi_index": ([0], [1]), "dims": (2, 3), "offsets": [0, 1],
    "visitor": lambda index: False, "padding_value": 1, "dtype": np.float32, "text": "f32", "value": 1,
}


def public_functions():
    for name in xs.__all__:
        item = getattr(xs, name)
        if name in ("ShapeUtil", "LayoutUtil", "IndexUtil"):
            for attribute in sorted(vars(item)):
                if not attribute.startswith("_") and callable(getattr(item, attribute)):
                    yield f"{name}.{attribute}", getattr(item, attribute)
        elif callable(item) and name != "IndexOutOfBoundsError":
            yield name, item
    for name in ("from_text", "from_dtype", "coerce"):
        yield f"PrimitiveType.{name}", getattr(xs.PrimitiveType, name)
    yield "PaddingValue.coerce", xs.PaddingValue.coerce
    yield "Shape.from_array", xs.Shape.from_array
    yield "Layout.from_major_to_minor", xs.Layout.from_major_to_minor
    for name in ("set_stream_bytes", "set_align_bytes", "set_cpu_level"):
        yield f"cpu.{name}", getattr(cpu, name)


def required_parameters(function):
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # a compiled function without a signature
        return ["indices", "shape"]
    names = [p.name for p in parameters if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return names or [next(iter(p.name for p in parameters), "value")]


@pytest.fixture
def restore_settings():
    saved = (xs.get_num_threads(), xs.result_cache_info(), cpu.stream_bytes(), cpu.align_bytes(), cpu.cpu_features()["level"])
    yield
    xs.set_num_threads(saved[0])
    xs.set_result_cache(saved[1]["max_bytes"], saved[1]["max_buffers"])
    cpu.set_stream_bytes(saved[2])
    cpu.set_align_bytes(saved[3])
    cpu.set_cpu_level(saved[4])


@pytest.mark.usefixtures("restore_settings")
@pytest.mark.parametrize(("name", "function"), list(public_functions()), ids=lambda v: v if isinstance(v, str) else "")
def test_public_api_swept_with_garbage(name, function):
    names = required_parameters(function)
    for slot, garbage in itertools.product(range(len(names)), GARBAGE):
        args = [PLAUSIBLE.get(n, SHAPE) for n in names]
        args[slot] = garbage
        _, error = outcome(function, *args)
        check_refusal(error, f"{name}{tuple(args)!r}")


def test_size_overflow_is_a_valueerror():
    for call in (
        lambda: xs.Shape("f32", [2**32, 2**32]),
        lambda: xs.Shape("f32", [2, 3], xs.Layout([1, 0], [2**62, 3])),
        lambda: xs.Shape("f32", [2**64]),
    ):
        with pytest.raises(SizeOverflowError) as caught:
            call()
        assert isinstance(caught.value, ValueError) and isinstance(caught.value, OverflowError)


def test_out_of_range_numbers_are_valueerrors_too():
    # Dimension numbers, physical positions and tuple indices outside their
    # shape: IndexError as before, and ValueError.
    tuple_shape = xs.ShapeUtil.parse_shape_string("(f32[2], s8[3])")
    for call in (
        lambda: xs.ShapeUtil.get_dimension(SHAPE, 10**30),
        lambda: xs.LayoutUtil.minor(SHAPE, 2),
        lambda: xs.LayoutUtil.move_dim_to_major(SHAPE, 5),
        lambda: xs.ShapeUtil.get_tuple_element_shape(tuple_shape, 2),
        lambda: xs.ShapeUtil.get_subshape(tuple_shape, (0, 0)),
        lambda: xs.ShapeUtil.delete_dimension(2, SHAPE),
        lambda: xs.ShapeUtil.for_each_index(SHAPE, [2, 0], None, None, print),
    ):
        with pytest.raises(IndexError) as caught:
            call()
        assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("name", ["ravel", "unravel"])
def test_dask_entry_points_swept_with_garbage(name):
    da = pytest.importorskip("dask.array")
    from xlashape import dask as xs_dask

    function = getattr(xs_dask, name)
    batch = da.zeros((2, 2) if name == "ravel" else (2,), dtype=np.int64, chunks=1)
    for slot, garbage in itertools.product(range(2), GARBAGE):
        args = [batch, SHAPE]
        args[slot] = garbage
        _, error = outcome(function, *args)
        check_refusal(error, f"dask.{name}{tuple(args)!r}")
