"""The C core as MSVC sees it: Windows wheels are built with MSVC, which
has none of GCC's builtins (``__builtin_*``, ``__atomic_*``,
``__attribute__``, ``asm``) and ignores GCC's pragmas. No compiler of
MSVC's runs here, so each C file is preprocessed by this machine's own
compiler as MSVC would (``_MSC_VER`` and ``_WIN32`` defined, ``__GNUC__``
and ``__clang__`` not, an empty ``intrin.h``), and the lines that come
from the package's own files must name none of those. This proves no more
than that: that MSVC compiles the rest is left to the wheel build."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

CSRC = Path(__file__).resolve().parent.parent / "xlashape" / "csrc"
CC = os.environ.get("CC", "cc").split()
GNU_ONLY = re.compile(r"__builtin_\w+|__atomic_\w+|__attribute__|__asm__|\basm\b|_Pragma\s*\(\s*\"GCC")
LINE_MARK = re.compile(r'^# \d+ "([^"]+)"')

pytestmark = pytest.mark.skipif(
    shutil.which(CC[0]) is None or os.name == "nt", reason="needs a Unix C compiler"
)


def gnu_only_lines(source: Path, stub: Path, own: Path = CSRC) -> list[str]:
    """The lines of the files under ``own``, in ``source`` preprocessed as
    MSVC sees it, that use something of GCC's alone."""
    result = subprocess.run(
        [*CC, "-E", "-U__GNUC__", "-U__GNUC_MINOR__", "-U__clang__", "-D_MSC_VER=1930",
         "-D_M_X64", "-D_WIN32", f"-I{CSRC}", "-idirafter", str(stub), str(source)],
        capture_output=True, text=True, check=True,
    )
    found, current = [], None
    for line in result.stdout.splitlines():
        mark = LINE_MARK.match(line)
        if mark:
            current = mark.group(1)
        elif current and Path(current).resolve().is_relative_to(own) and GNU_ONLY.search(line):
            found.append(f"{Path(current).resolve().relative_to(own)}: {line.strip()}")
    return found


@pytest.fixture(scope="module")
def stub(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("msvc")
    (folder / "intrin.h").write_text("/* MSVC's intrinsics, for the preprocessor alone */\n")
    return folder


@pytest.mark.parametrize("source", sorted(p.relative_to(CSRC).as_posix() for p in CSRC.rglob("*.c")))
def test_msvc_sees_no_gnu_builtins(source: str, stub: Path) -> None:
    assert gnu_only_lines(CSRC / source, stub) == []


def test_the_check_finds_a_gnu_builtin(tmp_path: Path, stub: Path) -> None:
    """Trailing zeros counted by GCC's builtin, as the tiled kernels once
    did, are found; the package's own MSVC spelling of it is not."""
    source = tmp_path / "planted.c"
    source.write_text(
        '#include "base/plan.h"\n'
        "int by_gcc(unsigned long long x) { return __builtin_ctzll(x); }\n"
        "int by_plan(unsigned long long x) { return xs_ctz64(x); }\n"
    )
    assert gnu_only_lines(source, stub, own=tmp_path) == [
        "planted.c: int by_gcc(unsigned long long x) { return __builtin_ctzll(x); }"
    ]
