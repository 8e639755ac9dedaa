"""The ``xlashape`` command line, run through subprocess as a user runs it.

Every run is ``python -m xlashape`` in a fresh temporary directory, with
PYTHONPATH naming the directory that holds the imported package, so the same
tests cover a development tree and an installed wheel. Oracles: the spec's
pictures verbatim, :mod:`xlashape.reference`, and NumPy.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import signal
import string
import subprocess
import sys

import numpy as np
import pytest
from command_line import command_env, stderr_on_a_terminal
from oracles import numpy_ravel, numpy_unravel

import xlashape
from xlashape import ShapeUtil, reference

# Items show prints at each end of an elided axis and of elided memory.
GRID_EDGE = 3
MEMORY_EDGE = 10
SYMBOLS = {"zero": "0", "one": "1", "lowest": "L", "highest": "H", "unknown": "?"}


def element_names(count: int) -> list[str]:
    """a, b, ..., z, aa, ab, ..., zz, aaa, ...: every word over a..z, shortest
    first (the oracle for show's element names)."""
    words = (
        "".join(letters)
        for length in itertools.count(1)
        for letters in itertools.product(string.ascii_lowercase, repeat=length)
    )
    return list(itertools.islice(words, count))


def section(stdout: str, header: str) -> list[str]:
    """The lines after the line starting with ``header``, up to a blank line."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header)) + 1
    end = lines.index("", start) if "" in lines[start:] else len(lines)
    return lines[start:end]


def field(stdout: str, name: str) -> str:
    return re.search(rf"^{name}:\s+(.*)$", stdout, re.MULTILINE)[1]


def elided(cells: list[str]) -> list[str]:
    """``cells`` as show prints long memory: the first and last few."""
    if len(cells) <= 2 * MEMORY_EDGE + 1:
        return cells
    return cells[:MEMORY_EDGE] + ["..."] + cells[-MEMORY_EDGE:]


# -- show --------------------------------------------------------------------
SPEC_PICTURES = [
    (["f32[2,3]{0,1}"], "a d b e c f"),
    (["f32[2,3]{1,0}"], "a b c d e f"),
    (["f32[2,3]{0,1}", "--padded", "3,5"], "a d 0 b e 0 c f 0 0 0 0 0 0 0"),
]


@pytest.mark.parametrize("argv, memory", SPEC_PICTURES)
def test_show_draws_the_spec_pictures_verbatim(cli, argv, memory):
    result = cli("show", *argv)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert section(result.stdout, "logical array") == ["a b c", "d e f"]
    assert section(result.stdout, "linear memory") == [memory]


def test_show_draws_the_spec_padded_array(cli):
    result = cli("show", "f32[2,3]{0,1}", "--padded", "3,5")
    assert section(result.stdout, "padded array") == ["a b c 0 0", "d e f 0 0", "0 0 0 0 0"]


# Shapes of rank 0 to 4, permuted and padded layouts, every padding value,
# size-0 dimensions, names past z, and memory long enough to be elided.
SHOW_CASES = [
    ("s8[]", ()),
    ("u16[5]", ("--padded", "7", "--padding-value", "highest")),
    ("f32[3,4,2]{0,2,1}", ()),
    ("pred[2,1,3,2]{3,1,0,2}", ("--padded", "2,2,4,3", "--padding-value", "one")),
    ("f64[0,3]", ("--padded", "2,3", "--padding-value", "unknown")),
    ("c64[40]", ()),
    ("s16[3,2]{0,1}", ("--padded", "31,3", "--padding-value", "lowest")),
    ("s16[2,3,4]{1,0,2}", ("--padded", "3,3,5")),
]


def _shape_of(text: str, options: tuple[str, ...]):
    """The Shape the command line describes, built through the model API."""
    shape = ShapeUtil.parse_shape_string(text)
    opts = dict(zip(options[::2], options[1::2]))
    widths = tuple(int(w) for w in opts["--padded"].split(",")) if "--padded" in opts else ()
    shape = ShapeUtil.make_shape_with_layout(
        shape.element_type, shape.dimensions, shape.layout.minor_to_major, padded_dimensions=widths
    )
    return shape, SYMBOLS[opts.get("--padding-value", "zero")]


def _padded_tokens(shape, names: list[str], pad: str) -> list[str]:
    """The padded array in row-major order: each cell's name, or ``pad``."""
    grid = np.full(shape.padded_dimensions, pad, dtype=object)
    grid[tuple(slice(0, d) for d in shape.dimensions)] = np.array(
        names, dtype=object
    ).reshape(shape.dimensions)
    return grid.ravel().tolist()


def _picture_tokens(lines: list[str]) -> list[str]:
    """Every cell of a picture in reading order, slice labels left out."""
    return [token for line in lines if not line.startswith("[") for token in line.split()]


@pytest.mark.parametrize("text, options", SHOW_CASES)
def test_show_agrees_with_the_reference(cli, text, options):
    shape, pad = _shape_of(text, options)
    dims, widths, m2m = shape.dimensions, shape.padded_dimensions, shape.layout.minor_to_major
    names = element_names(math.prod(dims))
    result = cli("show", text, *options)
    assert result.returncode == 0, result.stderr
    out = result.stdout

    memory = reference.linear_values(shape, names, fill=pad)
    expected = " ".join(elided(memory)) if memory else "(empty)"
    assert section(out, "linear memory") == [expected]
    small = 2 * GRID_EDGE + 1  # no axis of the cases is elided up to this size
    if not names:
        assert section(out, "logical array") == ["(no elements)"]
    elif max(dims, default=1) <= small:
        assert _picture_tokens(section(out, "logical array")) == names
    if any(w > d for w, d in zip(widths, dims)) and max(widths) <= small:
        assert _picture_tokens(section(out, "padded array")) == _padded_tokens(shape, names, pad)

    strides = [math.prod(widths[m] for m in m2m[: m2m.index(d)]) for d in range(len(dims))]
    itemsize = shape.element_type.numpy_dtype.itemsize
    assert field(out, "strides") == f"[{', '.join(map(str, strides))}] elements"
    assert field(out, "element count") == str(math.prod(dims))
    assert field(out, "buffer size").startswith(f"{math.prod(widths)} element")
    assert field(out, "byte size").startswith(f"{math.prod(widths) * itemsize} byte")


def test_show_elides_long_axes_and_aligns_cells(cli):
    result = cli("show", "f32[9,20]")
    lines = section(result.stdout, "logical array")
    names = element_names(9 * 20)
    shown_rows = [0, 1, 2, None, 6, 7, 8]
    assert len(lines) == len(shown_rows)
    for line, row in zip(lines, shown_rows):
        if row is None:
            assert line == "..."
        else:
            start, stop = row * 20, (row + 1) * 20
            first, last = names[start : start + GRID_EDGE], names[stop - GRID_EDGE : stop]
            assert line.split() == first + ["..."] + last
    assert len({len(line) for line in lines if line != "..."}) == 1  # aligned columns


def test_show_elides_big_shapes(cli):
    result = cli("show", "f32[100000,100000,1000]", "--padded", "100001,100000,1024")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) < 100 and max(map(len, lines)) < 200
    assert "slices not shown" in result.stdout
    logical = section(result.stdout, "logical array")
    assert logical[0] == "[0,:,:]"
    assert logical[1].split()[:3] == element_names(3)
    assert logical[4] == "..."
    memory = section(result.stdout, "linear memory")[0].split()
    assert memory[:MEMORY_EDGE] == element_names(MEMORY_EDGE)
    assert memory[MEMORY_EDGE:] == ["..."] + ["0"] * MEMORY_EDGE
    assert field(result.stdout, "element count") == str(10**13)


def test_show_into_a_pipe_whose_reader_left_is_quiet(cli):
    """``xlashape show ... | head``: a reader gone before the output comes ends
    the command quietly with the shell's SIGPIPE status, not a traceback."""
    read, write = os.pipe()
    os.close(read)  # the reader has already left
    try:
        result = cli("show", "f32[2,3]{0,1}", capture_output=False, stdout=write, stderr=subprocess.PIPE)
    finally:
        os.close(write)
    assert result.stderr == ""
    assert result.returncode == 128 + signal.SIGPIPE


# -- ravel and unravel -------------------------------------------------------
N = 1000

# (shape text, --padded, how the input file stores the indices): row-major,
# column-major, a permutation, padded; rank 1 and 0; native, unsigned,
# big-endian and Fortran-ordered files.
LAYOUTS = [
    ("s32[7,9,3]{2,1,0}", None, "int64"),
    ("s32[7,9,3]{0,1,2}", None, "uint16"),
    ("s32[7,9,3]{0,2,1}", None, ">i4"),
    ("s32[7,9,3]{0,2,1}", "8,9,5", "fortran-int32"),
    ("s32[7,9,3]{1,2,0}", "7,10,4", ">u8"),
    ("u8[11]", "13", "int8"),
    ("f32[]", None, "int64"),
]


def _random_rows(shape, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    columns = [rng.integers(0, size, N) for size in shape.dimensions]
    return np.stack(columns, axis=1) if columns else np.zeros((N, 0), dtype=np.int64)


def _stored(values: np.ndarray, storage: str) -> np.ndarray:
    if storage.startswith("fortran-"):
        return np.asfortranarray(values.astype(storage.removeprefix("fortran-")))
    return values.astype(storage)


def _padded_argv(padded: str | None) -> list[str]:
    return ["--padded", padded] if padded else []


@pytest.mark.parametrize("chunk_rows", [None, 7])
@pytest.mark.parametrize("text, padded, storage", LAYOUTS)
def test_ravel_and_unravel_round_trip_and_agree_with_numpy(
    cli, tmp_path, text, padded, storage, chunk_rows
):
    shape, _ = _shape_of(text, tuple(_padded_argv(padded)))
    rows = _random_rows(shape)
    np.save(tmp_path / "idx.npy", _stored(rows, storage))
    before = (tmp_path / "idx.npy").read_bytes()
    chunks = ["--chunk-rows", chunk_rows] if chunk_rows else []

    ravel = cli("ravel", text, "idx.npy", "lin.npy", *_padded_argv(padded), *chunks)
    assert ravel.returncode == 0, ravel.stderr
    linear = np.load(tmp_path / "lin.npy")
    assert linear.dtype == np.int64 and linear.shape == (N,)
    np.testing.assert_array_equal(linear, numpy_ravel(shape, rows))

    np.save(tmp_path / "lin-in.npy", _stored(linear, storage))
    unravel = cli("unravel", text, "lin-in.npy", "back.npy", *_padded_argv(padded), *chunks)
    assert unravel.returncode == 0, unravel.stderr
    back = np.load(tmp_path / "back.npy")
    assert back.dtype == np.int64 and back.shape == (N, shape.rank)
    np.testing.assert_array_equal(back, rows)
    np.testing.assert_array_equal(back, numpy_unravel(shape, linear))
    assert (tmp_path / "idx.npy").read_bytes() == before
    assert ravel.stderr == unravel.stderr == ""


@pytest.mark.parametrize("text, order", [("s64[6,5,4]{2,1,0}", "C"), ("s64[6,5,4]{0,1,2}", "F")])
def test_c_and_f_layouts_match_numpy_orders(cli, tmp_path, text, order):
    dims = (6, 5, 4)
    rows = _random_rows(ShapeUtil.parse_shape_string(text), seed=1)
    np.save(tmp_path / "idx.npy", rows)
    assert cli("ravel", text, "idx.npy", "lin.npy", "--chunk-rows", 64).returncode == 0
    linear = np.load(tmp_path / "lin.npy")
    np.testing.assert_array_equal(linear, np.ravel_multi_index(tuple(rows.T), dims, order=order))
    assert cli("unravel", text, "lin.npy", "back.npy", "--chunk-rows", 64).returncode == 0
    expected = np.stack(np.unravel_index(linear, dims, order=order), axis=1)
    np.testing.assert_array_equal(np.load(tmp_path / "back.npy"), expected)


def test_empty_files_convert(cli, tmp_path):
    np.save(tmp_path / "idx.npy", np.zeros((0, 2), dtype=np.uint8))
    assert cli("ravel", "f32[2,3]", "idx.npy", "lin.npy").returncode == 0
    assert np.load(tmp_path / "lin.npy").shape == (0,)
    assert cli("unravel", "f32[2,3]", "lin.npy", "back.npy").returncode == 0
    assert np.load(tmp_path / "back.npy").shape == (0, 2)


def test_output_replaces_an_existing_file_with_the_usual_mode(cli, tmp_path):
    np.save(tmp_path / "idx.npy", np.array([[1, 2]]))
    np.save(tmp_path / "lin.npy", np.arange(5))
    assert cli("ravel", "f32[2,3]", "idx.npy", "lin.npy").returncode == 0
    np.testing.assert_array_equal(np.load(tmp_path / "lin.npy"), [5])
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "lin.npy").stat().st_mode & 0o777 == 0o666 & ~umask


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_bar_only_on_a_terminal(cli, tmp_path):
    np.save(tmp_path / "lin.npy", np.arange(5000) % 6)
    argv = ("unravel", "f32[2,3]", "lin.npy", "idx.npy", "--chunk-rows", 1000)
    piped = cli(*argv)
    assert piped.returncode == 0 and piped.stderr == ""
    text = stderr_on_a_terminal(cli, *argv)
    assert "\r" in text and "100% 5000/5000 rows" in text


# -- errors ------------------------------------------------------------------
def _write(name: str, data: bytes):
    def setup(tmp_path):
        (tmp_path / name).write_bytes(data)

    return setup


def _save(name: str, array):
    def setup(tmp_path):
        np.save(tmp_path / name, np.asarray(array))

    return setup


def _directory(name: str):
    def setup(tmp_path):
        (tmp_path / name).mkdir()

    return setup


def _both(first, second):
    def setup(tmp_path):
        first(tmp_path)
        second(tmp_path)

    return setup


def _npz(tmp_path):
    with open(tmp_path / "in.npy", "wb") as f:  # np.savez would append .npz to a name
        np.savez(f, a=np.arange(4))


def _truncated(tmp_path):
    np.save(tmp_path / "in.npy", np.arange(100))
    data = (tmp_path / "in.npy").read_bytes()
    (tmp_path / "in.npy").write_bytes(data[:200])


def _bad_row(row: int, value: list[int]):
    rows = np.zeros((50, 2), dtype=np.int64)
    rows[row] = value
    return _save("in.npy", rows)


def _bad_offset(row: int, value: int):
    offsets = np.zeros(50, dtype=np.int64)
    offsets[row] = value
    return _save("in.npy", offsets)


def _nothing(tmp_path):
    pass


GOOD_ROWS = _save("in.npy", [[0, 1], [1, 2]])
RAVEL = ["ravel", "f32[2,3]", "in.npy", "out.npy"]
UNRAVEL = ["unravel", "f32[2,3]", "in.npy", "out.npy"]

# (id, setup, argv, exit status, message fragment)
ERRORS = [
    ("no-command", _nothing, [], 2, "required: COMMAND"),
    ("unknown-command", _nothing, ["frob"], 2, "invalid choice: 'frob'"),
    ("unknown-option", _nothing, ["show", "f32[2]", "--bogus"], 2, "unrecognized arguments: --bogus"),
    ("bad-shape", _nothing, ["show", "f32[2,3"], 2, "cannot parse shape 'f32[2,3'"),
    ("bad-type", _nothing, ["show", "f33[2]"], 2, "unknown element type 'f33'"),
    ("bad-layout", _nothing, ["show", "f32[2,3]{0,0}"], 2, "duplicate"),
    ("bad-widths", _nothing, ["show", "f32[2,3]", "--padded", "3,x"], 2, "argument --padded"),
    ("narrow-widths", _nothing, ["show", "f32[2,3]", "--padded", "1,3"], 2, "does not fit"),
    ("widths-rank", _nothing, ["show", "f32[2,3]", "--padded", "3"], 2, "1 padded width, but shape has 2 dimensions"),
    ("value-alone", _nothing, ["show", "f32[2]", "--padding-value", "one"], 2, "needs --padded"),
    ("bad-value", _nothing, ["show", "f32[2]", "--padded", "3", "--padding-value", "x"], 2, "choice"),
    ("out-not-npy", GOOD_ROWS, [*RAVEL[:3], "out.txt"], 2, "must end in .npy"),
    ("missing", _nothing, RAVEL, 1, "No such file"),
    ("directory", _directory("in.npy"), RAVEL, 1, "Is a directory"),
    ("text", _write("in.npy", b"0 1\n1 2\n"), RAVEL, 1, "not a .npy file"),
    ("empty-file", _write("in.npy", b""), RAVEL, 1, "not a .npy file"),
    ("npz", _npz, UNRAVEL, 1, "not a .npy file"),
    ("truncated", _truncated, UNRAVEL, 1, "cannot read in.npy"),
    ("floats", _save("in.npy", [[0.0, 1.0]]), RAVEL, 1, "float64"),
    ("bools", _save("in.npy", [True]), UNRAVEL, 1, "bool"),
    ("ravel-1d", _save("in.npy", [0, 1]), RAVEL, 1, "(N, 2)"),
    ("ravel-rank", _save("in.npy", [[0, 1, 2]]), RAVEL, 1, "got shape (1, 3)"),
    ("unravel-2d", GOOD_ROWS, UNRAVEL, 1, "1-D"),
    (
        "ravel-range",
        _bad_row(23, [0, 3]),
        [*RAVEL, "--chunk-rows", "7"],
        1,
        "index 3 is out of bounds for dimension 1 with size 3 at row 23 of in.npy",
    ),
    (
        "ravel-negative",
        _bad_row(49, [-1, 0]),
        [*RAVEL, "--chunk-rows", "16"],
        1,
        "index -1 is out of bounds for dimension 0 with size 2 at row 49 of in.npy",
    ),
    (
        "ravel-uint64",
        _save("in.npy", np.array([[0, 0], [2**64 - 1, 0]], dtype=np.uint64)),
        RAVEL,
        1,
        f"index {2**64 - 1} is out of bounds for dimension 0",
    ),
    (
        "unravel-range",
        _bad_offset(40, 6),
        [*UNRAVEL, "--chunk-rows", "16"],
        1,
        "linear index 6 is out of bounds for a buffer of 6 elements at row 40 of in.npy",
    ),
    (
        "unravel-padding",
        _bad_offset(31, 2),
        ["unravel", "f32[2,3]{0,1}", *UNRAVEL[2:], "--padded", "3,5", "--chunk-rows", "10"],
        1,
        "linear index 2 at row 31 of in.npy lands on padding",
    ),
    ("no-out-dir", GOOD_ROWS, [*RAVEL[:3], "no/out.npy"], 1, "cannot write no/out.npy"),
    ("out-is-dir", _both(GOOD_ROWS, _directory("out.npy")), RAVEL, 1, "cannot write out.npy"),
    ("out-is-in", GOOD_ROWS, [*RAVEL[:3], "in.npy"], 1, "is the input file"),
]


def _listing(tmp_path) -> dict[str, bytes | None]:
    return {
        path.name: path.read_bytes() if path.is_file() else None for path in tmp_path.iterdir()
    }


@pytest.mark.parametrize(
    "setup, argv, status, message", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS]
)
def test_errors_are_one_line_and_leave_no_output(cli, tmp_path, setup, argv, status, message):
    setup(tmp_path)
    before = _listing(tmp_path)
    result = cli(*argv)
    assert result.returncode == status
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("xlashape: error: ")
    assert message in lines[0]
    assert _listing(tmp_path) == before


def test_a_failed_conversion_keeps_the_previous_output(cli, tmp_path):
    _bad_row(45, [2, 0])(tmp_path)
    np.save(tmp_path / "out.npy", np.arange(3))
    before = _listing(tmp_path)
    result = cli("ravel", "f32[2,3]", "in.npy", "out.npy", "--chunk-rows", "10")
    assert result.returncode == 1
    assert "at row 45 of in.npy" in result.stderr
    assert _listing(tmp_path) == before


# -- help --------------------------------------------------------------------
@pytest.mark.parametrize("command", ["", "show", "ravel", "unravel", "bench"])
def test_help_shows_an_example(cli, command):
    result = cli(*filter(None, [command]), "--help")
    assert result.returncode == 0
    assert result.stderr == ""
    assert result.stdout.startswith(f"usage: xlashape {command}".rstrip())
    assert "example" in result.stdout
    assert f"$ xlashape {command}".rstrip() in result.stdout


def test_version(cli):
    result = cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"xlashape {xlashape.__version__}"


# -- bench -------------------------------------------------------------------
def test_bench_quick_prints_its_table(cli, tmp_path):
    result = cli("bench", "--quick", "--json", "bench.json", "--markdown", "bench.md")
    assert result.returncode == 0, result.stderr
    markdown = (tmp_path / "bench.md").read_text().splitlines()
    header = next(line for line in markdown if line.startswith("| op "))
    names = [c.strip() for c in header.split("|")[1:-1]]
    assert names[:7] == ["op", "layout", "mode", "N", "threads", "dtype", "level"]
    assert {"xlashape M/s", "NumPy M/s", "speedup", "of copy limit", "copy threads",
            "without out= M/s", "without out=, no reuse M/s", "time / row-major",
            "of traffic limit"} <= set(names)
    assert "time / raise" not in names
    column = {name: k for k, name in enumerate(names)}
    rows = [line for line in markdown if re.match(r"\| (un)?ravel +\| [a-z-]+ +\| ", line)]
    assert "[1/" in result.stderr  # progress
    record = json.loads((tmp_path / "bench.json").read_text())
    cases = record["cases"]
    assert record["interrupted"] is False
    if record["machine"]["jax"] is not None:  # JAX runs on the CPU, as every call does
        assert "cpu" in record["machine"]["jax_device"].lower()
    # Every case of the quick set was measured, and the table shows those
    # measurements: one row per case, in order, with the recorded values.
    assert {(c["op"], c["layout"]) for c in cases} == {
        (op, layout) for op in ("ravel", "unravel") for layout in ("row-major", "padded", "tiled")
    }
    assert {c["n"] for c in cases} == {10**3, 10**5}
    assert all(c["xlashape_s"] > 0 and c["copy_s"] > 0 and c["numpy_s"] for c in cases)
    table = [[c.strip() for c in line.split("|")[1:-1]] for line in rows]
    for cells, case in zip(table, cases, strict=True):
        assert cells[:5] == [case["op"], case["layout"], case["mode"],
                             f"{case['n']:.0e}".replace("e+0", "e"), str(case["threads"])]
        assert float(cells[column["xlashape M/s"]]) == pytest.approx(
            case["n"] / case["xlashape_s"] / 1e6, abs=0.5)
        # a median over rounds, then its 25th-75th percentile
        low, high = case["speedup_spread"]
        assert cells[column["speedup"]] == f"{case['speedup']:.1f}x ({low:.1f}-{high:.1f})"
        low, high = case["copy_fraction_spread"]
        assert cells[column["of copy limit"]] == f"{case['copy_fraction']:.2f} ({low:.2f}-{high:.2f})"
        assert low <= case["copy_fraction"] <= high
        assert int(cells[column["copy threads"]]) == case["copy_threads"] in (1, case["threads"])
        # Tiled cases time the untiled call beside their own.
        ratio_cell = cells[column["time / row-major"]]
        if case["layout"] == "tiled":
            ratio = case["tiled_beside_row_major_s"] / case["row_major_s"]
            assert case["row_major_ratio"] == pytest.approx(ratio)
            assert float(ratio_cell) == pytest.approx(ratio, abs=0.005)
        else:
            assert ratio_cell == "-" and "row_major_s" not in case
        assert "raise_s" not in case  # --quick: 'raise' only, so no "time / raise" column
        # --quick: 'raise' only; JAX where installed (no tiles); the traffic
        # loop for every in-cache case
        assert cells[column["mode"]] == case["mode"] == "raise"
        if "jax_meps" in case:
            assert float(cells[column["JAX CPU M/s"]]) == pytest.approx(case["jax_meps"], abs=0.5)
        elif "JAX CPU M/s" in column:
            assert cells[column["JAX CPU M/s"]] == "-"
            assert case["layout"] == "tiled" or record["machine"]["jax"] is None
        assert float(cells[column["of traffic limit"]]) == pytest.approx(
            case["traffic_s"] / case["xlashape_s"], abs=0.005)
    assert [s["op"] for s in record["scalar"]] == ["ravel", "unravel"]
    # The drop-ins against NumPy's functions, one multi-index and 10^3, then
    # issue 22's argument forms.
    sized = [d for d in record["drop_ins"] if "form" not in d]
    assert [(d["op"], d["n"], d["mode"]) for d in sized] == [
        (op, n, mode) for n in (1, 10**3)
        for op, mode in [("ravel_multi_index", m) for m in ("raise", "clip", "wrap")]
        + [("unravel_index", "raise")]
    ]
    # 'clip' and 'wrap' time the 'raise' call beside their own.
    for d in sized:
        assert ("raise_s" in d) == (d["mode"] != "raise")
        if d["mode"] != "raise":
            assert d["raise_ratio"] == pytest.approx(d["xlashape_s"] / d["raise_s"])
    drop_in_header = next(line for line in markdown if line.startswith("| drop-in (rank 4"))
    assert [c.strip() for c in drop_in_header.split("|")[1:-1]] == [
        "drop-in (rank 4; forms rank 2)", "N", "mode", "xlashape us", "NumPy us", "speedup",
        "time / raise"]
    from xlashape.cli.bench.suite import drop_in_forms

    forms = [d["form"] for d in record["drop_ins"] if "form" in d]
    assert forms == list(drop_in_forms())
    assert sum(line.startswith("| xs.") for line in markdown) == 8 + len(forms)


def test_bench_plot_draws_a_png(cli, tmp_path):
    pytest.importorskip("matplotlib")
    result = cli("bench", "--quick", "--plot", "throughput.png")
    assert result.returncode == 0, result.stderr
    png = (tmp_path / "throughput.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000


def test_bench_plot_without_matplotlib_says_how_to_get_it(monkeypatch, tmp_path):
    from xlashape.cli.bench import suite as bench

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    with pytest.raises(SystemExit, match=r"--plot needs matplotlib; install it with pip install"):
        bench.plot([], str(tmp_path / "never.png"))
    assert not (tmp_path / "never.png").exists()


@pytest.mark.parametrize(
    "args",
    [
        ("show", "f32[99999999999,99999999999]"),
        ("show", "f32[0,18446744073709551616]"),
        ("show", "f32[2,3]{0,1}", "--padded", "3,99999999999999999999"),
    ],
)
def test_oversized_shapes_are_one_line_usage_errors(cli, args):
    result = cli(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "int64 maximum" in result.stderr


@pytest.mark.parametrize("command", ["ravel", "unravel"])
def test_padding_value_is_for_show_only(cli, tmp_path, command):
    # It changes no index, so ravel and unravel do not take it.
    np.save(tmp_path / "in.npy", np.zeros((1, 2) if command == "ravel" else 1, dtype=int))
    argv = [command, "f32[2,3]", "in.npy", "out.npy", "--padded", "3,5"]
    assert cli(*argv).returncode == 0
    result = cli(*argv, "--padding-value", "one")
    assert result.returncode == 2
    assert "unrecognized arguments: --padding-value one" in result.stderr
    assert "--padding-value" not in cli(command, "--help").stdout


def _no_matplotlib(tmp_path) -> str:
    """A directory whose ``matplotlib`` package fails to import."""
    blocker = tmp_path / "blocker" / "matplotlib"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('matplotlib blocked for this test')\n")
    return str(blocker.parent)


@pytest.mark.parametrize(
    "options, message",
    [
        (["--json", "no/such/dir/bench.json"], "cannot write --json no/such/dir/bench.json: No such file"),
        (["--plot", "no/such/dir/bench.png"], "cannot write --plot no/such/dir/bench.png: No such file"),
        (["--json", "."], "cannot write --json .: Is a directory"),
        (["--markdown", "no/such/dir/bench.md"], "cannot write --markdown no/such/dir/bench.md: No such file"),
        (["--plot", "bench.png"], "--plot needs matplotlib; install it with pip install"),
    ],
)
def test_bench_refuses_unwritable_outputs_and_a_missing_matplotlib_before_running(
    cli, tmp_path, options, message
):
    env = command_env()
    env["PYTHONPATH"] = os.pathsep.join([_no_matplotlib(tmp_path), env["PYTHONPATH"]])
    before = sorted(os.listdir(tmp_path))
    result = cli("bench", "--quick", *options, env=env)
    assert result.returncode == 1
    assert result.stdout == ""  # no table: nothing was measured
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("xlashape: error: ") and message in result.stderr
    assert sorted(os.listdir(tmp_path)) == before
