"""The C core stamps out per-entry code one way (xlashape/csrc/base/each.h)
and keeps one registry of index dtypes (base/plan.h): each entry of a list
is compiled once, in order, with its own fields; a list longer than the
helper's limit, or a vector level that lists a dtype without its vector
loads, fails to compile with a message that names the list or the load.

Each check compiles a few lines against the headers with the C compiler
that builds the package (only the syntax pass: nothing is linked)."""

import os
import shlex
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

CSRC = Path(__file__).resolve().parent.parent / "xlashape" / "csrc"
CC = shlex.split(sysconfig.get_config_var("CC") or "cc")

pytestmark = pytest.mark.skipif(
    shutil.which(CC[0]) is None or os.name == "nt", reason="needs a Unix C compiler"
)

# A template that records the entry it is compiled for: position k holds
# the entry's value (the list's entries are X(value)).
TEMPLATE = """
#define PROBE_VALUE(v) v
#define PROBE_CAT_(a, b) a##b
#define PROBE_CAT(a, b) PROBE_CAT_(a, b)
enum { PROBE_CAT(probe_at_, XS_EACH_K) = XS_EACH_ENTRY(PROBE_VALUE) };
"""


def compile_c(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    """Run the compiler's syntax pass over ``source``, with the C core's
    folder and ``tmp_path`` on the include path."""
    path = tmp_path / "probe.c"
    path.write_text(source)
    return subprocess.run(
        [*CC, "-std=c11", "-fsyntax-only", f"-I{CSRC}", f"-I{tmp_path}", str(path)],
        capture_output=True, text=True, timeout=120,
    )


def each_source(values: list[int], list_name: str = "PROBE_LIST") -> str:
    entries = " ".join(f"X({v})" for v in values)
    return (f"#define {list_name}(X) {entries}\n"
            f"#define XS_EACH_LIST {list_name}\n"
            '#define XS_EACH_FILE "probe_template.h"\n'
            '#include "base/each.h"\n')


@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(-1000, 1000), max_size=32))
def test_each_compiles_every_entry_once_in_order(tmp_path_factory, values):
    tmp_path = tmp_path_factory.mktemp("each")
    (tmp_path / "probe_template.h").write_text(TEMPLATE)
    checks = "".join(f'_Static_assert(probe_at_{k} == {v}, "entry {k}");\n'
                     for k, v in enumerate(values))
    # one position past the list: no template was compiled there
    past = f"enum {{ probe_at_{len(values)} = 0 }};\n"
    result = compile_c(tmp_path, each_source(values) + checks + past)
    assert result.returncode == 0, result.stderr


def test_each_names_a_list_past_its_limit(tmp_path):
    (tmp_path / "probe_template.h").write_text(TEMPLATE)
    result = compile_c(tmp_path, each_source(list(range(33)), "XS_PROBE_TOO_LONG"))
    assert result.returncode != 0
    assert "XS_PROBE_TOO_LONG" in result.stderr
    assert "32" in result.stderr


def test_each_refuses_to_nest(tmp_path):
    (tmp_path / "probe_template.h").write_text(
        TEMPLATE + '#define XS_EACH_LIST PROBE_INNER\n'
                   '#define XS_EACH_FILE "probe_template.h"\n#include "base/each.h"\n')
    result = compile_c(tmp_path, "#define PROBE_INNER(X) X(7)\n" + each_source([1, 2]))
    assert result.returncode != 0
    assert "do not nest" in result.stderr


def level_source(entries: str, loads: str = "") -> str:
    """A vector level over the portable vector header (4 lanes) whose dtype
    list is ``entries``, after the announcements ``loads``."""
    return ('#include "kernels/kernels_common.h"\n'
            "#define XS_PORTABLE_VL 4\n"
            '#include "vec/kernels_vec_portable.h"\n'
            '#include "vec/kernels_vec.h"\n'
            f"{loads}\n"
            "#define XS_LEVEL probe\n"
            f"#define XS_LEVEL_DTYPES(X) {entries}\n"
            "#define XS_EACH_LIST XS_LEVEL_DTYPES\n"
            '#define XS_EACH_FILE "kernels/kernels_dtype.h"\n'
            '#include "base/each.h"\n')


def test_a_level_compiles_the_registry_entries_it_lists(tmp_path):
    # int16 as the registry has it (no vector loads) next to int32 (with them)
    result = compile_c(tmp_path, level_source("XS_DTYPE_I16(X) XS_DTYPE_I32(X)"))
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("entry", "loads", "missing"),
    [
        # a dtype whose vector loops read it, with no load of it
        ("X(I16, i16, int16_t, 0, 1)", "", "xs_vload_i16"),
        # one that also unravels in vectors, with its item load only
        ("X(I16, i16, int16_t, 1, 1)", "#define XS_VLOAD_i16 1", "xs_vload_offsets_i16"),
    ],
)
def test_a_level_without_a_load_fails_naming_it(tmp_path, entry, loads, missing):
    result = compile_c(tmp_path, level_source(entry, loads))
    assert result.returncode != 0
    assert missing in result.stderr
