"""``xlashape show`` on big and tiled shapes: every line fits in 100
columns, the elided tile pictures still show the tile order and where
padding falls (checked against xlashape.reference's memory), and
``--svg``/``--html`` write the layout picture.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from strategies import big_shapes, tiled_shapes
from test_cli import element_names, section

from xlashape import Shape, ShapeUtil, reference
from xlashape.cli import tile_picture
from xlashape.cli.show import _describe, _element_name
from xlashape.pictures import layout_picture

WIDTH = 100
# The two tilings the docs lead with, and shapes whose names run long, whose
# axes are tiled, padded, permuted or many.
WIDE = [
    "bf16[16,256]{1,0:T(8,128)(2,1)}",
    "f32[1024,1024]{1,0:T(8,128)}",
    "f32[8,128,256]{0,2,1:T(8,128)}",
    "f32[10,200]{1,0:T(8,128)}",
    "s8[3037000000,3037000000]{0,1:T(8,128)}",
    "s8[3037000499,3037000499]{0,1}",
    "f32[100000,100000,1000]{2,1,0:PAD(100001,100000,1024)}",
    "f32[65537,65537]{1,0:T(2,*,128)}",
    "s4[123456,456]{1,0:T(2,128)E(4)}",
    "f32[999,999,999,999,999,999]{5,4,3,2,1,0:T(1024)(128)}",
    "c128[7,100000]{0,1:T(3,100)}",
    "s8[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]",
]


def assert_fits(lines: list[str]) -> None:
    too_wide = [line for line in lines if len(line) > WIDTH]
    assert not too_wide, f"{len(too_wide)} line(s) over {WIDTH} columns, such as {too_wide[0]!r}"


@pytest.mark.parametrize("text", WIDE[:2])
def test_show_of_the_docs_tilings_fits_in_100_columns(cli, text):
    result = cli("show", text)
    assert result.returncode == 0, result.stderr
    assert_fits(result.stdout.splitlines())
    assert len(result.stdout) < 5000  # was 18 KB and more


@pytest.mark.parametrize("text", WIDE)
def test_show_fits_in_100_columns(text):
    assert_fits(_describe(ShapeUtil.parse_shape_string(text)))


@given(big_shapes())
def test_show_of_any_shape_fits_in_100_columns(shape):
    assert_fits(_describe(shape))


# -- the elided pictures against the reference ---------------------------------
def runs(line: str) -> list[list[str]]:
    """The memory line's cells in runs between "...", "|" kept."""
    found: list[list[str]] = [[]]
    for token in line.split():
        if token == "...":
            found.append([])
        else:
            found[-1].append(token)
    return found


def assert_memory_line_true(shape: Shape, line: str) -> None:
    """Each run of cells is a stretch of the reference's memory, runs in
    order from the first slot to the last, | exactly at the tile borders."""
    names = element_names(shape.element_count)
    memory = reference.linear_values(shape, names, fill="0")
    if not memory:
        assert line == "(empty)"
        return
    tile = layout_picture.memory_unit(shape)
    end = -1
    stretches = runs(line)
    for k, run in enumerate(stretches):
        cells = [c for c in run if c != "|"]
        named = next((i for i, c in enumerate(cells) if c != "0"), None)
        if named is None:  # all padding: only its place in the order is unknown
            assert set(cells) == {"0"}
            end += len(cells)
            continue
        start = memory.index(cells[named]) - named
        assert start > end, (k, "runs out of order")
        assert memory[start : start + len(cells)] == cells, k
        if k == 0:
            assert start == 0
        if k == len(stretches) - 1:
            assert start + len(cells) == len(memory)
        bordered = []  # the run with | before each tile's first slot and after the last one's
        for j, cell in enumerate(cells):
            if (start + j) % tile == 0 and start + j > 0:
                bordered.append("|")
            bordered.append(cell)
        if (start + len(cells)) % tile == 0 and start + len(cells) < len(memory):
            bordered.append("|")
        assert run == bordered, k
        end = start + len(cells) - 1


@pytest.mark.parametrize(
    "text",
    ["f32[3,5]{1,0:T(2,2)}", "f32[10,200]{1,0:T(8,128)}", "bf16[16,256]{1,0:T(8,128)(2,1)}", "s8[37,19]{0,1:T(4,8)}"],
)
@pytest.mark.parametrize("edge", [1, 2, 5, 24])
def test_memory_line_shows_tile_order_and_padding(text, edge):
    shape = ShapeUtil.parse_shape_string(text)
    line = tile_picture.memory_line(shape, _element_name, "0", edge)
    assert_memory_line_true(shape, line)
    if shape.buffer_size > ShapeUtil.elements_in(shape):
        assert " 0" in line  # some padding is shown
    assert line.count("|") >= 2 or shape.buffer_size <= 2 * layout_picture.memory_unit(shape)


@given(tiled_shapes())
def test_memory_line_of_random_tilings_is_true(shape):
    assert_memory_line_true(shape, tile_picture.memory_line(shape, _element_name, "0", 3))


@pytest.mark.parametrize("text", ["f32[10,200]{1,0:T(8,128)}", "s8[37,19]{0,1:T(4,8)}", "f32[9,300]{1,0:T(4,128)}"])
def test_tile_grid_cells_are_the_elements_at_their_places(text):
    """Each grid line is one row of the two most minor dimensions (earlier
    ones at 0), its named cells in increasing columns, "|" between columns
    of different tiles, and 0 exactly past the dimensions."""
    shape = ShapeUtil.parse_shape_string(text)
    dims = shape.dimensions
    minor, major = shape.layout.minor_to_major[:2]
    tile_minor = shape.layout.tiles[0].dimensions[-1]
    place = {n: divmod(k, dims[1]) for k, n in enumerate(element_names(shape.element_count))}
    lines = tile_picture.tile_grid(shape, _element_name, "0", 2)
    padding_rows = 0
    for line in lines:
        if set(line) <= {"-", "+"} or line == "...":
            continue
        tokens = line.split()
        named = [(i, place[t]) for i, t in enumerate(tokens) if t in place]
        if not named:
            padding_rows += 1
            assert set(tokens) <= {"0", "|", "..."}
            continue
        assert not padding_rows  # padding rows come last
        rows = {index[major] for _, index in named}
        assert len(rows) == 1
        columns = [index[minor] for _, index in named]
        assert columns == sorted(columns)
        for (i, a), (j, b) in itertools.pairwise(named):
            between = tokens[i + 1 : j]
            crosses = a[minor] // tile_minor != b[minor] // tile_minor
            assert ("|" in between) == crosses and ("..." in between) == (b[minor] > a[minor] + 1)
        assert tokens[-1] == "0" or columns[-1] == dims[minor] - 1  # the row's padding, at its end
    assert bool(padding_rows) == (dims[major] % shape.layout.tiles[0].dimensions[-2] != 0)


# -- --svg and --html ------------------------------------------------------------
def test_show_svg_writes_the_picture(cli, tmp_path):
    result = cli("show", "bf16[16,256]{1,0:T(8,128)(2,1)}", "--svg", "layout.svg")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and result.stderr == ""
    written = (tmp_path / "layout.svg").read_text()
    shape = ShapeUtil.parse_shape_string("bf16[16,256]{1,0:T(8,128)(2,1)}")
    assert written == layout_picture.svg(shape) + "\n"
    root = ET.fromstring(written)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_show_html_writes_a_page_and_svg_to_stdout(cli, tmp_path):
    result = cli("show", "f32[2,3]{0,1}", "--padded", "3,5", "--html", "page.html", "--svg", "-")
    assert result.returncode == 0, result.stderr
    shape = ShapeUtil.parse_shape_string("f32[2,3]{0,1:PAD(3,5:zero)}")  # --padded's default value
    assert result.stdout == layout_picture.svg(shape) + "\n"
    page = (tmp_path / "page.html").read_text()
    assert page == layout_picture.html(shape) and page.count('class="xs-pad"') == 9


def test_show_svg_into_a_missing_directory_fails_on_one_line(cli):
    result = cli("show", "f32[2,3]", "--svg", "no/such/dir/layout.svg")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "cannot write no/such/dir/layout.svg" in result.stderr


@pytest.mark.parametrize("options", [(), ("--svg", "layout.svg")])
def test_show_of_an_unbounded_shape_fails_on_one_line(cli, options):
    result = cli("show", "f32[?,3]", *options)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "f32[?,3]{1,0} has an unbounded dimension ('?'), so no buffer to draw" in result.stderr


def test_text_stays_the_default(cli):
    result = cli("show", "f32[3,5]{1,0:T(2,2)}")
    assert section(result.stdout, "linear memory") == ["a b f g | c d h i | e 0 j 0 | k l 0 0 | m n 0 0 | o 0 0 0"]
    assert "<svg" not in result.stdout
