"""The vector contract (csrc/vec/kernels_vec.h): each operation at every level
against the plain-C reference (csrc/vec/kernels_vec_portable.h with the same
lanes), the reference against a plain Python statement of the contract,
and the untiled loops of csrc/kernels/kernels_impl.h compiled over the reference
against NumPy, so that the vector loops run, and are checked, on any CPU.

Through ``_xs_vec_check`` (tests/vec_check/), as NumPy tests its
universal intrinsics through its ``_simd`` module: test-only compiled
code, which tests/vec_check/build.py builds the first time it is needed.
Levels this CPU does not run, and operations a level does not have (the
optional ones), are skipped with the reason. The first tests read the
headers themselves: the contract lists exactly what the loops use, and
each level defines it.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import assume, given
from oracles import numpy_ravel, numpy_unravel
from vec_check.build import load

import xlashape as xs

vc = load()

CSRC = Path(__file__).resolve().parent.parent / "xlashape" / "csrc"
M64 = (1 << 64) - 1
M32 = (1 << 32) - 1
FILL = 0xA5  # the bytes of run's out that no operation wrote
REFERENCE = {4: "portable4", 8: "portable8"}
PORTABLE = tuple(REFERENCE.values())
STORES = (0, 1, 2)  # enum xs_store: plain, aligned slots, non-temporal
PREFETCHES = (0, 1, 2)  # enum xs_prefetch: none, into L1, into L2 (kernels_common.h)


def levels_for(op: str | None = None) -> list:
    """Every level of the build, skipped (with the reason) where this CPU
    does not run it or, for ``op``, where the level lacks it."""
    params = []
    for name, info in vc.LEVELS.items():
        reason = None
        if not info["supported"]:
            reason = f"this CPU does not run {name}"
        elif op in ("xs_vravel_column", "xs_vstore_rows32") and op not in info["optional"]:
            reason = f"{name} has no {op} (an optional operation)"
        params.append(pytest.param(name, marks=pytest.mark.skip(reason=reason)) if reason else name)
    return params


def lanes(level: str) -> int:
    return vc.LEVELS[level]["lanes"]


def run(level: str, op: str, data=None, params=(), ok=0, flag=0, *, flag_as_bool=False):
    """The operation at ``level`` and at the reference of its lanes, which
    must agree (in every byte of out); the reference's ``(result, out, ok,
    flag)``. ``flag_as_bool``: the flag's value is the level's own, only
    whether it is set is in the contract."""
    got = vc.run(level, op, data, params, ok, flag, FILL)
    reference = REFERENCE[lanes(level)]
    if reference == level:
        return got
    want = vc.run(reference, op, data, params, ok, flag, FILL)
    assert got[0] == want[0], f"{op} at {level}: result {got[0]}, reference {want[0]}"
    assert got[2] == want[2], f"{op} at {level}: ok {got[2]:#x}, reference {want[2]:#x}"
    if flag_as_bool:
        assert bool(got[3]) == bool(want[3]), f"{op} at {level}: flag {got[3]}, reference {want[3]}"
    else:
        assert got[3] == want[3], f"{op} at {level}: flag {got[3]}, reference {want[3]}"
    assert np.array_equal(got[1], want[1]), f"{op} at {level}: out differs from the reference"
    return want


def u64(values) -> np.ndarray:
    """Python ints as uint64 (each modulo 2**64)."""
    return np.array([v & M64 for v in values], dtype=np.uint64)


def f64(values) -> np.ndarray:
    return np.array(values, dtype=np.float64)


def lanes_of(out: np.ndarray, count: int, offset: int = 0) -> list[int]:
    return [int(v) for v in out[offset:offset + 8 * count].view(np.uint64)]


def doubles_of(out: np.ndarray, count: int) -> np.ndarray:
    return out[:8 * count].view(np.float64)


def signed(v: int) -> int:
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def untouched(out: np.ndarray, start: int, stop: int) -> bool:
    """Whether out holds FILL outside bytes [start, stop)."""
    return bool(np.all(out[:start] == FILL) and np.all(out[stop:] == FILL))


# -- strategies ----------------------------------------------------------------

EDGES = (0, 1, 2, 3, 63, 64, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**50, 2**52 - 1, 2**52,
         2**53 + 1, 2**63 - 1, 2**63, M64 - 1, M64)
# any 64-bit value, read unsigned (a negative int64 is a huge value)
any64 = st.one_of(st.sampled_from(EDGES), st.integers(0, M64))
below63 = st.one_of(st.sampled_from([e for e in EDGES if e < 2**63]), st.integers(0, 2**63 - 1))
below52 = st.one_of(st.sampled_from([0, 1, 2, 3, 2**31, 2**52 - 1]), st.integers(0, 2**52 - 1))
counts = st.one_of(st.integers(0, 70), st.sampled_from([2**32, 2**63, M64]))  # shift counts
int32s = st.one_of(st.sampled_from([0, 1, -1, 2**31 - 1, -(2**31)]), st.integers(-(2**31), 2**31 - 1))
moderate = st.floats(-(2.0**60), 2.0**60, allow_nan=False)  # no overflow in a product


def vec(data, n: int, elements=any64) -> list[int]:
    return data.draw(st.lists(elements, min_size=n, max_size=n))


def bits(n: int) -> st.SearchStrategy[int]:
    return st.integers(0, (1 << n) - 1)


# -- the headers ---------------------------------------------------------------

NAME = r"(?:xs_v\w+|XS_V\w+)"


def _text(name: str) -> str:
    return (CSRC / name).read_text()


def contract() -> dict[str, set[str]]:
    """The names kernels_vec.h lists: macros and types (in its comments),
    functions (declared), and the optional ones."""
    text = _text("vec/kernels_vec.h")
    functions = set(re.findall(r"^static [\w ]*?\**\b(xs_v\w+)\(", text, re.M))
    optional = set(re.findall(r"^ \* (XS_V\w+) \(optional\)", text, re.M))
    for block in re.findall(r"#ifdef XS_V\w+\n(.*?)#endif", text, re.S):
        optional |= set(re.findall(r"\b(xs_v\w+)\(", block))
    return {
        "macros": set(re.findall(r"^ \* (XS_V\w+)(?:\([\w, ]+\))?(?: \(optional\))?$", text, re.M)),
        "types": set(re.findall(r"^ \* (xs_v\w+)$", text, re.M)),
        "functions": functions,
        "optional": optional,
    }


def defined_in(text: str) -> set[str]:
    """The vector names a C file defines itself: macros, typedefs, static
    functions (the tiled kernels' through XS_TLFN) and enum members."""
    names = set(re.findall(rf"#define ({NAME})", text))
    names |= set(re.findall(rf"typedef [^;{{]*\b({NAME});", text))
    names |= set(re.findall(rf"\}} ({NAME});", text))
    names |= set(re.findall(rf"^static [^=;()]*?\b({NAME})\(", text, re.M))
    names |= set(re.findall(rf"XS_TLFN\(({NAME})\)", text))
    for body in re.findall(r"enum\s*\{([^}]*)\}", text):  # its enumerators, not their values
        names |= set(re.findall(rf"(?:^|,)\s*({NAME})\s*(?==|,|$)", body))
    return names


def used_by_loops() -> set[str]:
    """The vector names the loops and the store stream use and do not
    define themselves; a pasted prefix (xs_vload_ioffsets_ ## XS_TN) stands
    for its int32 and int64 names."""
    used, local = set(), set()
    loops = ("kernels/kernels_impl.h", "tiled/tiled_kernels.h", "tiled/tiled_kernels_impl.h",
             "tiled/tiled_kernels_dims.h", "relayout/relayout_impl.h")
    for name in (*loops, "vec/kernels_store.h"):
        text = _text(name)
        used |= set(re.findall(rf"\b({NAME})\b", text))
        local |= defined_in(text)
    # the tiled loops paste xs_vload_(i)offsets_<TN> from its parts
    for name in loops:
        used |= set(re.findall(r"XS_T?CAT2\((xs_vload_\w*), XS_TN\)", _text(name)))
    expanded = set()
    for name in used - local:
        expanded |= {name + "i32", name + "i64"} if name.endswith("_") else {name}
    return expanded


def test_the_contract_lists_exactly_what_the_loops_use():
    names = contract()
    listed = names["macros"] | names["types"] | names["functions"]
    used = used_by_loops()
    assert sorted(used - listed) == [], "used by the loops, missing from kernels_vec.h"
    assert sorted(listed - used) == [], "listed in kernels_vec.h, used by no loop"


@pytest.mark.parametrize(
    "header",
    ["vec/kernels_vec_avx2.h", "vec/kernels_vec_avx512.h", "vec/kernels_vec_neon.h",
     "vec/kernels_vec_portable.h"],
)
def test_each_level_defines_the_contract(header):
    text = _text(header)
    assert "kernels_vec.h" in text.split("*/")[0], f"{header} does not say it implements kernels_vec.h"
    names = contract()
    defined = defined_in(text)
    for shared in re.findall(r'#include "(vec/kernels_vec_\w+\.h)"', text):  # the x86 levels' share
        defined |= defined_in(_text(shared))
    required = (names["macros"] | names["types"] | names["functions"]) - names["optional"]
    assert sorted(required - defined) == [], f"{header} lacks part of the contract"
    # an optional function where, and only where, its macro is defined
    for macro, function in (("XS_VRAVEL_COLUMN", "xs_vravel_column"),
                            ("XS_VSTORE_ROWS32", "xs_vstore_rows32")):  # fmt: skip
        assert (macro in defined) == (function in defined), f"{header}: {macro} and {function}"


# Contract functions with no operation of their own in _vec_check, and the
# operation that exercises each.
EXERCISED_BY = {
    "xs_vlanes_below": "xs_vstore_lanes",
    "xs_vlanes_not": "xs_vstore_lanes",
    "xs_vkeep": "xs_vjoin",
    "xs_vrows_init": "xs_vstore_rows",
    "xs_vravel_init": "xs_vravel_check",
    "xs_vfence": "xs_vstore_line_nt",  # (every operation of vec_check ends with it)
}


def test_every_operation_is_exercised():
    functions = contract()["functions"]
    assert sorted(functions - set(vc.OPS) - set(EXERCISED_BY)) == []
    assert set(EXERCISED_BY.values()) <= set(vc.OPS)


def test_levels_mirror_each_other():
    """Each CPU level's lanes, rank sets and optional operations are those
    of the portable level that is its reference."""
    for name, info in vc.LEVELS.items():
        reference = vc.LEVELS[REFERENCE[info["lanes"]]]
        assert info["bytes"] == 8 * info["lanes"]
        for key in ("rows_ranks", "ravel_ranks", "optional"):
            assert info[key] == reference[key], (name, key)


# an intrinsic, a vector type of the x86 compilers, or their header
INTRINSIC = re.compile(r"\b_mm\w*|\b__m(?:64|128|256|512)\w*|<\w*mmintrin\.h>", re.I)
LEVEL_HEADER = re.compile(r"vec/kernels_vec_(?!portable\.h$)\w+\.h")  # and the x86 levels' share


def test_only_the_level_headers_hold_intrinsics():
    """One vector layer: no file of csrc/ but a vector level's header names
    an intrinsic (the relayout kernels, the driver and the pool included)."""
    found = {}
    for path in sorted(p for p in CSRC.rglob("*") if p.is_file()):
        name = path.relative_to(CSRC).as_posix()
        hits = sorted(set(INTRINSIC.findall(path.read_text())))
        if hits and not LEVEL_HEADER.fullmatch(name):
            found[name] = hits[:5]
    assert found == {}, "intrinsics outside the vector level headers"
    for header in ("vec/kernels_vec_avx2.h", "vec/kernels_vec_avx512.h"):  # the pattern finds them
        assert LEVEL_HEADER.fullmatch(header) and INTRINSIC.search(_text(header)), header
    assert not LEVEL_HEADER.fullmatch("vec/kernels_vec_portable.h")


# -- filling, and the lanes' flags ---------------------------------------------


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_set(level, data):
    n = lanes(level)
    x = data.draw(any64)
    assert lanes_of(run(level, "xs_vi_set", params=[x])[1], n) == [x] * n
    d = data.draw(st.floats(allow_nan=False))
    out = run(level, "xs_vd_set", params=[int(f64([d]).view(np.uint64)[0])])[1]
    assert doubles_of(out, n).tobytes() == f64([d] * n).tobytes()


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_ok_flags(level, data):
    n = lanes(level)
    full = (1 << n) - 1
    a, b = data.draw(bits(n)), data.draw(bits(n))
    assert run(level, "xs_vok_all", ok=a)[2] == full
    assert run(level, "xs_vok_bad", ok=a)[0] == (a != full)
    assert run(level, "xs_vok_and", params=[b], ok=a)[2] == a & b


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_ok_below(level, data):
    n = lanes(level)
    ok = data.draw(bits(n))
    limit = vec(data, n, st.floats())
    same = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    x = [lim if s else data.draw(st.floats()) for lim, s in zip(limit, same)]
    want = sum(1 << lane for lane in range(n) if x[lane] < limit[lane])  # NaN: False
    assert run(level, "xs_vok_below", f64(x + limit), ok=ok)[2] == ok & want


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_ok_below_integers(level, data):
    n = lanes(level)
    ok = data.draw(bits(n))
    limit = vec(data, n, below63)
    x = [v if data.draw(st.booleans()) else data.draw(below63) for v in limit]
    want = sum(1 << lane for lane in range(n) if x[lane] < limit[lane])
    assert run(level, "xs_vok_below_i", u64(x + limit), ok=ok)[2] == ok & want


# -- loads ---------------------------------------------------------------------


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_loads(level, data):
    n = lanes(level)
    items = vec(data, n)
    assert lanes_of(run(level, "xs_vload_i64", u64(items))[1], n) == items
    small = vec(data, n, int32s)
    out = run(level, "xs_vload_i32", np.array(small, dtype=np.int32))[1]
    assert lanes_of(out, n) == [v & M64 for v in small]  # sign-extended


@pytest.mark.parametrize("level", levels_for())
@pytest.mark.parametrize("width", [32, 64])
@pytest.mark.parametrize("as_double", [False, True], ids=["ioffsets", "offsets"])
@given(data=st.data())
def test_load_offsets(level, width, as_double, data):
    """Lanes in [0, size) kept, the others 0 and cleared from ok."""
    n = lanes(level)
    size = data.draw(below52 if as_double else below63)
    top = min(size, 2**31) if width == 32 else size
    anything = int32s if width == 32 else st.integers(-(2**63), 2**63 - 1)
    items = vec(data, n, st.one_of(st.integers(0, top - 1), anything) if top > 0 else anything)
    ok = data.draw(bits(n))
    array = np.array(items, dtype=np.int32 if width == 32 else np.int64)
    op = f"xs_vload_{'offsets' if as_double else 'ioffsets'}_i{width}"
    _, out, got_ok, _ = run(level, op, array, [size], ok)
    good = [0 <= v < size for v in items]
    assert got_ok == ok & sum(1 << lane for lane in range(n) if good[lane])
    kept = [v if g else 0 for v, g in zip(items, good)]
    if as_double:
        assert list(doubles_of(out, n)) == [float(v) for v in kept]
    else:
        assert lanes_of(out, n) == kept


# -- integer lanes ---------------------------------------------------------------


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_integer_lanes(level, data):
    n = lanes(level)
    a, b = vec(data, n), vec(data, n)
    assert lanes_of(run(level, "xs_vand", u64(a + b))[1], n) == [x & y for x, y in zip(a, b)]
    assert lanes_of(run(level, "xs_vadd", u64(a + b))[1], n) == [(x + y) & M64 for x, y in zip(a, b)]
    for narrow in (0, 1):
        want = [((x & M32) * (y & M32) if narrow else x * y) & M64 for x, y in zip(a, b)]
        assert lanes_of(run(level, "xs_vmul", u64(a + b), [narrow])[1], n) == want


def shr(n: int, s: int) -> int:
    return n >> s if s < 64 else 0


def shl(n: int, s: int) -> int:
    return (n << s) & M64 if s < 64 else 0


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_shifts_and_digits(level, data):
    """Each lane its own count; a count of 64 or more gives 0."""
    n = lanes(level)
    x, s = vec(data, n), vec(data, n, counts)
    assert lanes_of(run(level, "xs_vshr", u64(x + s))[1], n) == [shr(v, c) for v, c in zip(x, s)]
    assert lanes_of(run(level, "xs_vshl", u64(x + s))[1], n) == [shl(v, c) for v, c in zip(x, s)]
    acc, mask, weight = vec(data, n), vec(data, n), vec(data, n, counts)
    want = [a | shl(shr(v, c) & m, w) for a, v, c, m, w in zip(acc, x, s, mask, weight)]
    assert lanes_of(run(level, "xs_vdigit", u64(acc + x + s + mask + weight))[1], n) == want


# -- double lanes and conversions ------------------------------------------------


def fma(x: float, y: float, z: float) -> float:
    """x * y + z rounded once (int / int true division rounds correctly)."""
    return float(Fraction(x) * Fraction(y) + Fraction(z))


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_fused_multiply_add(level, data):
    n = lanes(level)
    x, y, z = vec(data, n, moderate), vec(data, n, moderate), vec(data, n, moderate)
    out = run(level, "xs_vfloor_fma", f64(x + y + z))[1]
    assert list(doubles_of(out, n)) == [math.floor(fma(a, b, c)) for a, b, c in zip(x, y, z)]
    out = run(level, "xs_vfnmadd", f64(x + y + z))[1]
    assert list(doubles_of(out, n)) == [fma(-a, b, c) for a, b, c in zip(x, y, z)]


widths = st.one_of(
    st.sampled_from([1, 2, 3, 5, 7, 10, 1023, 2**20 + 1, 2**31 - 1, 2**32 + 1, 2**49 + 1, 2**50]),
    st.integers(1, 2**50),
)


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_division_in_doubles(level, data):
    """kernels_common.h's XS_FLOOR_DIV_LIMIT: with rw = 1 / w and hrw = rw
    / 2, q = floor(fma(n, rw, hrw)) is n // w and fma(-q, w, n) is n % w,
    exactly, for every 0 <= n < 2**50 and w >= 1."""
    n = lanes(level)
    w = vec(data, n, widths)
    num = []
    for d in w:  # any n, or one next to a multiple of w (q changes there)
        k = data.draw(st.integers(0, (2**50 - 1) // d))
        near = data.draw(st.sampled_from([k * d, max(k * d - 1, 0), min(k * d + d - 1, 2**50 - 1)]))
        num.append(near if data.draw(st.booleans()) else data.draw(st.integers(0, 2**50 - 1)))
    rw = [1.0 / d for d in w]
    hrw = [0.5 * r for r in rw]
    q = doubles_of(run(level, "xs_vfloor_fma", f64(num + rw + hrw))[1], n)
    assert [int(v) for v in q] == [a // d for a, d in zip(num, w)]
    r = doubles_of(run(level, "xs_vfnmadd", f64(list(q) + w + num))[1], n)
    assert [int(v) for v in r] == [a % d for a, d in zip(num, w)]


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_conversions(level, data):
    n = lanes(level)
    x = vec(data, n, below52)
    assert list(doubles_of(run(level, "xs_vi_to_vd", u64(x))[1], n)) == [float(v) for v in x]
    d = [float(v) for v in vec(data, n, below52)]
    d[data.draw(st.integers(0, n - 1))] = data.draw(st.sampled_from([0.0, -0.0, 1.0]))
    assert lanes_of(run(level, "xs_vd_to_vi", f64(d))[1], n) == [int(v) for v in d]


# -- stores ----------------------------------------------------------------------


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_stores(level, data):
    n = lanes(level)
    size = 8 * n
    v = vec(data, n)
    image = u64(v).tobytes()
    at = 8 * data.draw(st.integers(0, 16))
    out = run(level, "xs_vstore", u64(v), [at])[1]
    assert out[at:at + size].tobytes() == image and untouched(out, at, at + size)
    at = size * data.draw(st.integers(0, 3))
    out = run(level, "xs_vstore_nt", u64(v), [at])[1]
    assert out[at:at + size].tobytes() == image and untouched(out, at, at + size)


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_masked_stores(level, data):
    """Only the 32-bit lanes of the set are written; no other byte."""
    n32 = 2 * lanes(level)
    v = vec(data, lanes(level))
    image = u64(v).tobytes()
    count, other = data.draw(st.integers(0, n32)), data.draw(st.booleans())
    at = 4 * data.draw(st.integers(0, 32))
    out = run(level, "xs_vstore_lanes", u64(v), [count, other, at])[1]
    want = bytearray([FILL] * vc.OUT_BYTES)
    for j in range(n32):
        if (j < count) != other:
            want[at + 4 * j:at + 4 * j + 4] = image[4 * j:4 * j + 4]
    assert out.tobytes() == bytes(want)


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_join(level, data):
    """xs_vjoin(xs_vkeep(prev), v): prev's last lag 32-bit lanes, then v
    moved up by lag; the tail: prev's last lag lanes, in the lanes below lag."""
    n = lanes(level)
    n32 = 2 * n
    prev, v = vec(data, n), vec(data, n)
    lag = data.draw(st.integers(1, n32 - 1))
    out = run(level, "xs_vjoin", u64(prev + v), [lag])[1]
    p32, v32 = u64(prev).view(np.uint32), u64(v).view(np.uint32)
    joined = [p32[j - lag + n32] if j < lag else v32[j - lag] for j in range(n32)]
    assert list(out[:4 * n32].view(np.uint32)) == joined
    tail = out[4 * n32:8 * n32]
    assert list(tail[:4 * lag].view(np.uint32)) == list(p32[n32 - lag:])
    assert untouched(out, 0, 4 * n32 + 4 * lag)


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_store_stream(level, data):
    """kernels_store.h over the level's operations: the vectors put, byte
    for byte, at any start, in every store mode; no byte outside."""
    n = lanes(level)
    count = data.draw(st.integers(0, 9))
    v = vec(data, count * n)
    store, at = data.draw(st.sampled_from(STORES)), data.draw(st.integers(0, 130))
    block = data.draw(st.booleans())
    out = run(level, "xs_vstream", u64(v), [count, store, at, block])[1]
    assert out[at:at + 8 * n * count].tobytes() == u64(v).tobytes()
    assert untouched(out, at, at + 8 * n * count)


# -- rows in registers -------------------------------------------------------------


def rows_args(level, data, ranks):
    n = lanes(level)
    rank = data.draw(st.sampled_from(sorted(ranks)))
    position = data.draw(st.permutations(range(rank)))
    col = vec(data, rank * n)
    store, at = data.draw(st.sampled_from(STORES)), 4 * data.draw(st.integers(0, 32))
    # dimension d of row i is lane i of col[position[d]]
    rows = [[col[position[d] * n + i] for d in range(rank)] for i in range(n)]
    return rank, [rank, *position, store, at], col, rows, at


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_store_rows(level, data):
    rank, params, col, rows, at = rows_args(level, data, vc.LEVELS[level]["rows_ranks"])
    out = run(level, "xs_vstore_rows", u64(col), params)[1]
    size = 8 * lanes(level) * rank
    assert lanes_of(out, lanes(level) * rank, at) == [v for row in rows for v in row]
    assert untouched(out, at, at + size)


@pytest.mark.parametrize("level", levels_for("xs_vstore_rows32"))
@given(data=st.data())
def test_store_rows32(level, data):
    rank, params, col, rows, at = rows_args(level, data, {1, 2, 4})
    out = run(level, "xs_vstore_rows32", u64(col), params)[1]
    size = 4 * lanes(level) * rank
    assert list(out[at:at + size].view(np.uint32)) == [v & M32 for row in rows for v in row]
    assert untouched(out, at, at + size)


def test_optional_operations_are_absent_where_not_defined():
    for name, info in vc.LEVELS.items():
        if not info["supported"]:
            continue
        for op in {"xs_vravel_column", "xs_vstore_rows32"} - info["optional"]:
            with pytest.raises(LookupError):
                vc.run(name, op, params=[1, 0])


# -- ravel in registers ------------------------------------------------------------


def ravel_args(level, data):
    """rank, extents, and rank vectors of XS_VL rows, their elements often
    in range (element e: dimension e % rank)."""
    n = lanes(level)
    rank = data.draw(st.sampled_from(sorted(vc.LEVELS[level]["ravel_ranks"])))
    extent = vec(data, rank, st.one_of(st.sampled_from([0, 1, 2, 3, 2**32, 2**63 - 1]), below63))
    elements = []
    for e in range(rank * n):  # in range, at either edge of it, or anything
        ext = extent[e % rank]
        edge = st.sampled_from([ext, max(ext - 1, 0), 0])
        inside = st.integers(0, ext - 1) if ext > 0 else edge
        elements.append(data.draw(st.one_of(inside, inside, edge, any64)))
    return n, rank, extent, elements


def ravel_ok(n, rank, extent, elements) -> int:
    """ok's lanes after the check: lane l cleared where some vector holds
    in lane l an element outside its dimension's extent."""
    bad = 0
    for e, v in enumerate(elements):
        if v >= extent[e % rank]:
            bad |= 1 << (e % n)
    return ((1 << n) - 1) & ~bad


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_ravel_check(level, data):
    n, rank, extent, elements = ravel_args(level, data)
    ok = data.draw(bits(n))
    got = run(level, "xs_vravel_check", u64(elements), [rank, *extent], ok)[2]
    assert got == ok & ravel_ok(n, rank, extent, elements)


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_ravel_rowsum(level, data):
    n, rank, _, elements = ravel_args(level, data)
    out = run(level, "xs_vravel_rowsum", u64(elements), [rank])[1]
    assert lanes_of(out, n) == [sum(elements[r * rank:(r + 1) * rank]) & M64 for r in range(n)]


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_ravel_sum(level, data):
    n, rank, extent, elements = ravel_args(level, data)
    stride = vec(data, rank, st.one_of(st.integers(0, 2**20), any64))
    narrow, ok = data.draw(st.sampled_from([0, 1])), data.draw(bits(n))
    _, out, got_ok, _ = run(level, "xs_vravel_sum", u64(elements), [rank, narrow, *extent, *stride], ok)

    def term(e):
        v, s = elements[e], stride[e % rank]
        return (v & M32) * (s & M32) if narrow else v * s

    assert lanes_of(out, n) == [sum(term(r * rank + d) for d in range(rank)) & M64 for r in range(n)]
    assert got_ok == ok & ravel_ok(n, rank, extent, elements)


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_ravel_sum_narrow_high_halves(level, data):
    """With ``narrow`` and extents below 2**32, elements whose low 32 bits
    are in range and whose high 32 bits are not 0 (a negative index among
    them) still clear their lanes: a check of the low halves alone, or of
    halves narrowed without saturation, would keep them."""
    n = lanes(level)
    rank = data.draw(st.sampled_from(sorted(vc.LEVELS[level]["ravel_ranks"])))
    extent = vec(data, rank, st.one_of(st.sampled_from([0, 1, 2**32 - 1]), st.integers(1, 1000)))
    stride = vec(data, rank, st.integers(0, M32))
    elements = []
    for e in range(rank * n):
        ext = extent[e % rank]
        low = data.draw(st.integers(0, ext - 1)) if ext > 0 else data.draw(st.integers(0, M32))
        high = data.draw(st.sampled_from([0, 0, 1, 2**31, M32]))
        elements.append(high << 32 | low)
    ok = data.draw(bits(n))
    _, out, got_ok, _ = run(level, "xs_vravel_sum", u64(elements), [rank, 1, *extent, *stride], ok)
    assert lanes_of(out, n) == [sum((elements[r * rank + d] & M32) * stride[d] for d in range(rank)) & M64
                                for r in range(n)]
    assert got_ok == ok & ravel_ok(n, rank, extent, elements)


@pytest.mark.parametrize("level", levels_for("xs_vravel_column"))
@given(data=st.data())
def test_ravel_column(level, data):
    """ok less the lanes where v, read signed, is outside [0, extm1]."""
    n = lanes(level)
    acc, stride = vec(data, n), vec(data, n)
    extm1 = vec(data, n, st.one_of(st.sampled_from([M64, 0, 1, 2**32 - 1]), below63))
    v = [data.draw(st.integers(0, e)) if e < 2**63 and data.draw(st.booleans()) else data.draw(any64)
         for e in extm1]
    narrow, ok = data.draw(st.sampled_from([0, 1])), data.draw(bits(n))
    _, out, got_ok, _ = run(level, "xs_vravel_column", u64(acc + v + extm1 + stride), [narrow], ok)
    mul = [((x & M32) * (s & M32) if narrow else x * s) for x, s in zip(v, stride)]
    assert lanes_of(out, n) == [(a + m) & M64 for a, m in zip(acc, mul)]
    good = [0 <= signed(x) <= signed(e) for x, e in zip(v, extm1)]
    assert got_ok == ok & sum(1 << lane for lane in range(n) if good[lane])


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_ravel_rows4_u32(level, data):
    """Whole vectors of rank-4 uint32 rows from row i; the first row not
    done; a bad flag that only gains."""
    n32 = 2 * lanes(level)
    stop = data.draw(st.integers(0, 80))
    i = data.draw(st.integers(0, stop))
    extent = vec(data, 4, st.one_of(st.sampled_from([1, 2, 2**31]), st.integers(1, 2**31)))
    stride = vec(data, 4, st.integers(0, M32))
    rows = [[data.draw(st.integers(0, e - 1)) if data.draw(st.integers(0, 9)) else data.draw(st.integers(0, M32))
             for e in extent] for _ in range(stop)]
    store, at = data.draw(st.sampled_from(STORES)), 4 * data.draw(st.integers(0, 32))
    flag = data.draw(st.sampled_from([0, 1, 2**40]))
    prefetch = data.draw(st.sampled_from(PREFETCHES))
    done, out, _, got_flag = run(level, "xs_vravel_rows4_u32", np.array(rows, dtype=np.uint32).reshape(-1),
                                 [i, stop, store, at, *extent, *stride, prefetch], flag=flag,
                                 flag_as_bool=True)
    assert done == i + (stop - i) // n32 * n32
    sums = [sum(v * s for v, s in zip(row, stride)) & M32 for row in rows[i:done]]
    assert list(out[at + 4 * i:at + 4 * done].view(np.uint32)) == sums
    assert untouched(out, at + 4 * i, at + 4 * done)
    bad = any(v >= e for row in rows[i:done] for v, e in zip(row, extent))
    assert bool(got_flag) == (bool(flag) or bad) and got_flag & flag == flag


# -- relayout: moving elements ------------------------------------------------------

UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def random_bytes(data) -> np.ndarray:
    """vec_check's whole input, random bytes."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    return rng.integers(0, 256, vc.IN_BYTES, dtype=np.uint8)


def rows_of(raw: np.ndarray, step: int, rows: int, count: int, size: int) -> np.ndarray:
    """The (rows, count) elements of ``size`` bytes whose rows start
    ``step`` bytes apart in ``raw``."""
    return np.stack([raw[r * step:r * step + count * size].view(UINT[size]) for r in range(rows)])


def written(at: int, step: int, rows: np.ndarray) -> np.ndarray:
    """vec_check's out after writing ``rows`` (an array of elements) row by
    row, ``step`` bytes apart from byte ``at``, and nothing else."""
    want = np.full(vc.OUT_BYTES, FILL, dtype=np.uint8)
    for r, row in enumerate(rows):
        image = np.frombuffer(np.ascontiguousarray(row).tobytes(), dtype=np.uint8)
        want[at + r * step:at + r * step + image.size] = image
    return want


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_transpose(level, data):
    """The block of XS_VTRANSPOSE_SIDE's side, as arr.T; whole lines a
    row where the move streams."""
    size, stream = data.draw(st.sampled_from([1, 2, 4, 8])), data.draw(st.sampled_from([0, 1]))
    side = run(level, "xs_vtranspose", random_bytes(data), [size, stream, 64, 64, 0])[0]
    if size >= 2:
        assert side > 0 and side * size <= 64
    if stream and side:
        assert side * size == 64
    raw = random_bytes(data)
    ssi = data.draw(st.integers(0, 256))
    if stream:
        dsj = 64 * data.draw(st.integers(1, 2))
    else:
        dsj = data.draw(st.integers(max(side, 1) * size, 128))
    room = vc.OUT_BYTES - max(side - 1, 0) * dsj - side * size  # the last byte at may start
    at = data.draw(st.integers(0, room // 64)) * 64 if stream else data.draw(st.integers(0, room))
    got, out, _, _ = run(level, "xs_vtranspose", raw, [size, stream, ssi, dsj, at])
    assert got == side
    block = rows_of(raw, ssi, side, side, size) if side else np.zeros((0, 0), UINT[size])
    assert np.array_equal(out, written(at, dsj, block.T))


def interleave_args(data):
    rows = data.draw(st.sampled_from([2, 4]))
    size = data.draw(st.sampled_from([s for s in (1, 2, 4) if rows * s <= 8]))
    stream, count = data.draw(st.sampled_from([0, 1])), data.draw(st.integers(0, 100))
    at = data.draw(st.integers(0, 64)) * (16 if stream else 1)
    return rows, size, stream, count, at


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_interleave(level, data):
    """The first nj less nj % (16 / size) columns of the rows, as
    arr.T.reshape(-1)."""
    rows, size, stream, nj, at = interleave_args(data)
    raw, ssi = random_bytes(data), data.draw(st.integers(0, 1024))
    n, out, _, _ = run(level, "xs_vinterleave", raw, [rows, size, stream, ssi, nj, at])
    assert n == nj - nj % (16 // size)
    arr = rows_of(raw, ssi, rows, nj, size)
    assert np.array_equal(out, written(at, 0, [arr[:, :n].T.reshape(-1)]))


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_interleave_joined(level, data):
    """Runs one after another, each of the rows' next nj columns, the first
    at any element offset in any line and the rest joined to the run
    before, then the carry's bytes written as the caller writes them: the
    rows' runs * nj columns interleaved from ``at``, and nothing else."""
    rows, size, _, _, _ = interleave_args(data)
    nj = 16 // size * data.draw(st.integers(0, 12))
    runs = data.draw(st.integers(1, 4))
    at = 64 * data.draw(st.integers(0, 4)) + size * data.draw(st.integers(0, 64 // size - 1))
    raw, ssi = random_bytes(data), data.draw(st.integers(0, 1024))
    n, out, _, _ = run(level, "xs_vinterleave_joined", raw, [rows, size, ssi, nj, at, runs])
    assert n == nj
    arr = rows_of(raw, ssi, rows, runs * nj, size)
    assert np.array_equal(out, written(at, 0, [arr.T.reshape(-1)]))


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_deinterleave(level, data):
    """The first ni less ni % (16 / size) groups of the run, as
    run.reshape(ni, rows).T, each row dsj apart."""
    rows, size, stream, ni, at = interleave_args(data)
    raw = random_bytes(data)
    dsj = ni * size + data.draw(st.integers(0, 64))
    if stream:
        dsj += -dsj % 16
    n, out, _, _ = run(level, "xs_vdeinterleave", raw, [rows, size, stream, dsj, ni, at])
    assert n == ni - ni % (16 // size)
    arr = raw[:rows * ni * size].view(UINT[size]).reshape(ni, rows)
    assert np.array_equal(out, written(at, dsj, arr[:n].T))


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_deinterleave_lines(level, data):
    """The run's rows from dst on, o = dst % 64 bytes past a line, each
    row's last o bytes left out; where the rows go on from a run whose
    groups end at ``before`` (a place in in), the o bytes before each row
    from the last o of that run's row; where none, o > 0, each row's first
    64 - o bytes left out too, and its first 64 in head (out's last rows *
    64 bytes) instead."""
    rows = data.draw(st.sampled_from([2, 4]))
    size = data.draw(st.sampled_from([s for s in (1, 2, 4) if rows * s <= 8]))
    lines = data.draw(st.integers(1, 6))
    ni, o = lines * 64 // size, size * data.draw(st.integers(0, 63 // size))
    dsj = 64 * data.draw(st.integers(lines, lines + 2))
    at = 64 * data.draw(st.integers(0, 3)) + o
    raw = random_bytes(data)
    before = data.draw(st.just(0) | st.integers(64 * rows, vc.IN_BYTES))
    _, out, _, _ = run(level, "xs_vdeinterleave_lines", raw, [rows, size, dsj, ni, at, before])
    groups = raw[:rows * ni * size].view(UINT[size]).reshape(ni, rows)
    want = np.full(vc.OUT_BYTES, FILL, dtype=np.uint8)
    head = vc.OUT_BYTES - 64 * rows
    for j in range(rows):
        row = np.frombuffer(groups[:, j].tobytes(), dtype=np.uint8)
        start = at + j * dsj
        want[start:start + row.size - o] = row[:row.size - o]
        if before and o:
            run_before = raw[before - 64 * rows:before].view(UINT[size]).reshape(-1, rows)
            want[start - o:start] = np.frombuffer(run_before[:, j].tobytes(), dtype=np.uint8)[64 - o:]
        elif o:
            want[start:start + 64 - o] = FILL
            want[head + 64 * j:head + 64 * (j + 1)] = row[:64]
    assert np.array_equal(out, want)


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_store_line(level, data):
    """64 bytes from any address to a line, and no other byte."""
    raw = random_bytes(data)
    at, frm = 64 * data.draw(st.integers(0, 63)), data.draw(st.integers(0, vc.IN_BYTES - 64))
    out = run(level, "xs_vstore_line_nt", raw, [at, frm])[1]
    assert np.array_equal(out, written(at, 0, [raw[frm:frm + 64]]))


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_store_lines(level, data):
    """n lines, 64 * n bytes from any address to a line, and no other byte
    (n from 0 to past the longest step a level takes at once)."""
    raw = random_bytes(data)
    n = data.draw(st.integers(0, 13))
    at, frm = 64 * data.draw(st.integers(0, 63 - n)), data.draw(st.integers(0, vc.IN_BYTES - 64 * n))
    out = run(level, "xs_vstore_lines_nt", raw, [at, frm, n])[1]
    assert np.array_equal(out, written(at, 0, [raw[frm:frm + 64 * n]]))


# -- the loops of kernels_impl.h over the portable levels ----------------------------


@st.composite
def kernel_shapes(draw):
    """Shapes whose rows the loops take: ranks 1-8, random orders, padded
    or not, every width a power of two sometimes (unravel by shifts), and
    sometimes one extent past 2**32 (products no longer 32-bit) or a buffer
    past 2**50 elements (unravel without the vector division)."""
    rank = draw(st.integers(1, 8))
    dims = draw(st.lists(st.integers(1, 7), min_size=rank, max_size=rank))
    if rank <= 4 and draw(st.integers(0, 4)) == 0:
        dims[draw(st.integers(0, rank - 1))] = draw(st.sampled_from([2**20 + 1, 2**33 + 5, 2**45 + 3, 2**48]))
    padded = []
    form = draw(st.sampled_from(["plain", "padded", "pow2"]))
    if form == "padded":
        padded = [d + draw(st.integers(0, 2)) for d in dims]
    elif form == "pow2":
        padded = [1 << (d - 1).bit_length() for d in dims]
    return xs.Shape("f32", dims, xs.Layout(draw(st.permutations(range(rank))), padded))


def valid_rows(shape, data, count: int) -> np.ndarray:
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    return np.stack([rng.integers(0, d, count) for d in shape.dimensions], axis=1).astype(np.int64)


def index_dtype(data, top: int):
    """int32 where every value fits (sometimes), else int64."""
    return np.int32 if top < 2**31 and data.draw(st.booleans()) else np.int64


def region(data, count: int) -> tuple[int, int]:
    start = data.draw(st.integers(0, count))
    return start, data.draw(st.integers(start, count))


def sentinel(dtype) -> int:
    return -7 if np.dtype(dtype).kind == "i" else 0xFFFFFFF7


def sentinel_out(dtype, items: int, shift: int) -> tuple[np.ndarray, np.ndarray]:
    """A view of ``items`` at ``shift`` items into a larger array of a
    sentinel, and that array."""
    whole = np.full(items + shift + 16, sentinel(dtype), dtype=dtype)
    return whole[shift:shift + items], whole


def sentinel_kept(whole, view, start: int, stop: int, per_row: int = 1) -> bool:
    """Whether whole holds the sentinel outside view's rows [start, stop)."""
    first = (view.__array_interface__["data"][0] - whole.__array_interface__["data"][0]) // whole.itemsize
    rest = np.concatenate([whole[:first + start * per_row], whole[first + stop * per_row:]])
    return bool(np.all(rest == sentinel(whole.dtype)))


def bad_row(shape, rows, data, start, stop) -> np.ndarray:
    """rows with one index in [start, stop) out of its range."""
    rows = rows.copy()
    i, d = data.draw(st.integers(start, stop - 1)), data.draw(st.integers(0, shape.rank - 1))
    rows[i, d] = data.draw(st.sampled_from([shape.dimensions[d], -1, shape.dimensions[d] + 5]))
    return rows




@pytest.mark.parametrize("level", PORTABLE)
@given(shape=kernel_shapes(), data=st.data())
def test_ravel_rows_loops(level, shape, data):
    count = data.draw(st.integers(0, 300))
    rows = valid_rows(shape, data, count)
    rows = rows.astype(index_dtype(data, max(shape.dimensions)))
    start, stop = region(data, count)
    store, shift = data.draw(st.sampled_from(STORES)), data.draw(st.integers(0, 8))
    out, whole = sentinel_out(np.int64, count, shift)
    assert not vc.ravel_rows(level, shape._plan, rows, out, start, stop, store)
    assert np.array_equal(out[start:stop], numpy_ravel(shape, rows)[start:stop])
    assert sentinel_kept(whole, out, start, stop)
    columns = [np.ascontiguousarray(rows[:, d]) for d in range(shape.rank)]
    out, whole = sentinel_out(np.int64, count, shift)
    assert not vc.ravel_cols(level, shape._plan, columns, out, start, stop, store)
    assert np.array_equal(out[start:stop], numpy_ravel(shape, rows)[start:stop])
    if stop > start:
        wrong = bad_row(shape, rows.astype(np.int64), data, start, stop).astype(rows.dtype)
        assert vc.ravel_rows(level, shape._plan, wrong, out, start, stop, store)
        columns = [np.ascontiguousarray(wrong[:, d]) for d in range(shape.rank)]
        assert vc.ravel_cols(level, shape._plan, columns, out, start, stop, store)


@pytest.mark.parametrize("level", PORTABLE)
@given(shape=kernel_shapes(), data=st.data())
def test_ravel_rows32_loops(level, shape, data):
    assume(shape._plan.size <= 2**31)
    count = data.draw(st.integers(0, 300))
    rows = valid_rows(shape, data, count).astype(index_dtype(data, max(shape.dimensions)))
    start, stop = region(data, count)
    store, shift = data.draw(st.sampled_from(STORES)), data.draw(st.integers(0, 16))
    out, whole = sentinel_out(np.uint32, count, shift)
    assert not vc.ravel_cols32(level, shape._plan, rows, out, start, stop, store)
    assert np.array_equal(out[start:stop], numpy_ravel(shape, rows)[start:stop].astype(np.uint32))
    assert sentinel_kept(whole, out, start, stop)
    if stop > start:
        wrong = bad_row(shape, rows.astype(np.int64), data, start, stop).astype(rows.dtype)
        assert vc.ravel_cols32(level, shape._plan, wrong, out, start, stop, store)


def on_padding(shape, data) -> int:
    """An offset inside the buffer on padding (a position past its
    dimension's extent), or -1 where the layout has none."""
    widths = shape.padded_dimensions
    padded = [d for d in range(shape.rank) if widths[d] > shape.dimensions[d]]
    if not padded:
        return -1
    d = data.draw(st.sampled_from(padded))
    row = np.zeros((1, shape.rank), dtype=np.int64)
    row[0, d] = data.draw(st.integers(shape.dimensions[d], widths[d] - 1))
    return int(numpy_ravel(shape, row)[0])


def bad_offset(shape, offsets, data, start, stop) -> np.ndarray:
    """offsets with one in [start, stop) outside the buffer or on padding."""
    offsets = offsets.copy()
    choices = [shape._plan.size, -1] + [p for p in [on_padding(shape, data)] if p >= 0]
    value = data.draw(st.sampled_from(choices))
    if not np.can_cast(np.min_scalar_type(value), offsets.dtype):
        value = -1
    offsets[data.draw(st.integers(start, stop - 1))] = value
    return offsets


@pytest.mark.parametrize("level", PORTABLE)
@given(shape=kernel_shapes(), data=st.data())
def test_unravel_rows_loops(level, shape, data):
    count = data.draw(st.integers(0, 600))
    rows = valid_rows(shape, data, count)
    offsets = numpy_ravel(shape, rows).astype(index_dtype(data, shape._plan.size))
    start, stop = region(data, count)
    store, shift = data.draw(st.sampled_from(STORES)), data.draw(st.integers(0, 8))
    if data.draw(st.booleans()):  # C-contiguous rows: the vector transposes
        flat, _ = sentinel_out(np.int64, count * shape.rank, shift)
        out = flat.reshape(count, shape.rank)
    else:  # the transpose of a (rank, count) array, as unravel_index's
        flat, _ = sentinel_out(np.int64, count * shape.rank, shift)
        out = flat.reshape(shape.rank, count).T
    assert not vc.unravel_rows(level, shape._plan, offsets, out, start, stop, store)
    assert np.array_equal(out[start:stop], numpy_unravel(shape, offsets)[start:stop])
    if stop > start:
        wrong = bad_offset(shape, offsets, data, start, stop)
        assert vc.unravel_rows(level, shape._plan, wrong, out, start, stop, store)


@pytest.mark.parametrize("level", [name for name in PORTABLE if "xs_vstore_rows32" in vc.LEVELS[name]["optional"]])
@given(shape=kernel_shapes(), data=st.data())
def test_unravel32_loops(level, shape, data):
    """xs_unravel32 into C-contiguous uint32 rows (ranks 1, 2 and 4) or
    contiguous columns (ranks 2 to 4), against NumPy; no item outside the
    rows asked for written; a bad offset flagged."""
    assume(max(shape.padded_dimensions) < 2**31)
    count = data.draw(st.integers(0, 600))
    rows = valid_rows(shape, data, count)
    offsets = numpy_ravel(shape, rows).astype(index_dtype(data, shape._plan.size))
    start, stop = region(data, count)
    store, shift = data.draw(st.sampled_from(STORES)), data.draw(st.integers(0, 16))
    flat, whole = sentinel_out(np.uint32, count * shape.rank, shift)
    columns = shape.rank > 1 and count > 1 and data.draw(st.booleans())  # else they are rows
    out = flat.reshape(shape.rank, count).T if columns else flat.reshape(count, shape.rank)
    done, bad = vc.unravel32(level, shape._plan, offsets, out, start, stop, store)
    plan = shape._plan
    divides = plan.size <= 2**50 or all(w & (w - 1) == 0 for w in shape.padded_dimensions)
    takes = divides and shape.rank in ((2, 3, 4) if columns else (1, 2, 4))
    assert done == (stop if takes else start)
    if takes:
        assert not bad
        assert np.array_equal(out[start:stop], rows[start:stop])
        if columns:
            kept = whole.copy()
            for d in range(shape.rank):
                kept[shift + d * count + start:shift + d * count + stop] = sentinel(np.uint32)
            assert np.all(kept == sentinel(np.uint32))
        else:
            assert sentinel_kept(whole, flat, start, stop, shape.rank)
        if stop > start:
            wrong = bad_offset(shape, offsets, data, start, stop)
            assert vc.unravel32(level, shape._plan, wrong, out, start, stop, store)[1]


# Fixed cases that take each vector path of the loops, whatever hypothesis
# draws: rank 4 and 2 (the transposes of both portable levels), 3 and 8 (the
# 8-lane level's rows), widths all powers of two (unravel by shifts), 5 and 7
# (rows staged on the stack), an extent past 2**32 (64-bit products).
FIXED = [
    xs.Shape("f32", [37, 11, 5, 3], xs.Layout([2, 0, 3, 1], [40, 11, 7, 3])),
    xs.Shape("f32", [16, 8, 32, 4], xs.Layout([3, 2, 1, 0])),
    xs.Shape("f32", [9, 10, 11], xs.Layout([1, 2, 0])),
    xs.Shape("f32", [3, 2, 3, 2, 3, 2, 3, 2]),
    xs.Shape("f32", [5, 4, 3, 6, 7], xs.Layout([4, 2, 0, 1, 3], [5, 5, 3, 6, 8])),
    xs.Shape("f32", [2, 3, 4, 2, 3, 4, 2], xs.Layout([0, 1, 2, 3, 4, 5, 6])),
    xs.Shape("f32", [1000, 3], xs.Layout([0, 1])),
    xs.Shape("f32", [2**33 + 5, 3], xs.Layout([1, 0])),
    xs.Shape("f32", [1000]),
]


@pytest.mark.parametrize("level", PORTABLE)
@pytest.mark.parametrize("shape", FIXED, ids=str)
@pytest.mark.parametrize("store", STORES)
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_loops_on_fixed_shapes(level, shape, store, dtype):
    rng = np.random.default_rng(0)
    count = 1_001  # an odd count: a tail that is no whole vector
    rows = np.stack([rng.integers(0, d, count) for d in shape.dimensions], axis=1)
    offsets = numpy_ravel(shape, rows)
    if np.iinfo(dtype).max < offsets.max() or np.iinfo(dtype).max < rows.max():
        pytest.skip(f"{shape}'s indices do not fit {np.dtype(dtype)}")
    rows, offsets = rows.astype(dtype), offsets.astype(dtype)
    for shift in (0, 1, 3):
        out, _ = sentinel_out(np.int64, count, shift)
        assert not vc.ravel_rows(level, shape._plan, rows, out, 0, count, store)
        assert np.array_equal(out, offsets)
        flat, _ = sentinel_out(np.int64, count * shape.rank, shift)
        assert not vc.unravel_rows(level, shape._plan, offsets, flat.reshape(count, shape.rank), 0, count, store)
        assert np.array_equal(flat.reshape(count, shape.rank), rows)


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_store_line_joined(level, data):
    """A line joined from na bytes at a and 64 - na bytes at b, and no other
    byte; or, at the levels that decline every line (AVX2, NEON), no byte
    at all. The others join every na."""
    raw = random_bytes(data)
    na = data.draw(st.integers(1, 63))
    at = 64 * data.draw(st.integers(0, 63))
    a = data.draw(st.integers(0, vc.IN_BYTES - na))
    b = data.draw(st.integers(0, vc.IN_BYTES - (64 - na)))
    joined, out, _, _ = vc.run(level, "xs_vstore_line_joined_nt", raw, [at, a, na, b], 0, 0, FILL)
    declines = level in ("avx2", "neon")
    assert joined == (0 if declines else 1)
    line = np.concatenate([raw[a:a + na], raw[b:b + 64 - na]])
    assert np.array_equal(out, written(at, 0, [line] if joined else []))


@pytest.mark.parametrize("level", levels_for())
@given(data=st.data())
def test_store_line_blend(level, data):
    """A line of the first n bytes at a and the last 64 - n at b (each
    read at any address), and no other byte."""
    raw = random_bytes(data)
    n = data.draw(st.integers(1, 63))
    at = 64 * data.draw(st.integers(0, 63))
    a, b = (data.draw(st.integers(0, vc.IN_BYTES - 64)) for _ in range(2))
    out = run(level, "xs_vstore_line_blend_nt", raw, [at, a, b, n])[1]
    line = np.concatenate([raw[a:a + n], raw[b + n:b + 64]])
    assert np.array_equal(out, written(at, 0, [line]))
