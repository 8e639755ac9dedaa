"""The .pxd struct mirrors lay out as the C headers do: each field's offset
and size, and the struct's size, as the C compiler gives them.

test_struct_mirrors compares the fields' names, order and types as text;
this compiles a small C program that includes the real headers and prints
offsetof and sizeof for each field the header declares, and compares that
with the layout a ctypes.Structure built from the mirror's fields has.
"""

import ctypes
import shlex
import shutil
import subprocess
import sysconfig

import pytest
from test_struct_mirrors import MIRRORS, PACKAGE, _c_fields, _pxd_fields

# The mirrors' scalar types, as ctypes lays them out; any pointer is a
# c_void_p, and a struct with a mirror of its own is that mirror.
SCALARS = {
    "int": ctypes.c_int,
    "uint8_t": ctypes.c_uint8,
    "int64_t": ctypes.c_int64,
    "uint64_t": ctypes.c_uint64,
    "size_t": ctypes.c_size_t,
    "Py_ssize_t": ctypes.c_ssize_t,
    "double": ctypes.c_double,
}
PXD = {struct: pxd for struct, _, pxd in MIRRORS}

# A layout: (name, offset, size) for each field, and the struct's size.
Layout = tuple[list[tuple[str, int, int]], int]


def _ctype(type_text: str) -> type:
    if "*" in type_text:
        return ctypes.c_void_p
    base = type_text.removeprefix("const ")
    if base in PXD:
        return _structure(base, _pxd_fields(PXD[base], base))
    assert base in SCALARS, f"no ctypes type for {type_text!r}: add it to SCALARS"
    return SCALARS[base]


def _structure(struct: str, fields: list[tuple[str, str]]) -> type:
    return type(struct, (ctypes.Structure,), {"_fields_": [(n, _ctype(t)) for n, t in fields]})


def _mirror_layout(struct: str, fields: list[tuple[str, str]]) -> Layout:
    """The layout of ``fields`` (a mirror's (name, type) list) as a C struct."""
    cls = _structure(struct, fields)
    return [(n, getattr(cls, n).offset, getattr(cls, n).size) for n, _ in fields], ctypes.sizeof(cls)


def _compiler() -> list[str] | None:
    """The C compiler that built the package (sysconfig's CC), or cc, gcc
    or clang; None if there is none."""
    for command in (sysconfig.get_config_var("CC") or "", "cc", "gcc", "clang"):
        words = shlex.split(command)
        if words and shutil.which(words[0]):
            return words
    return None


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Layout]:
    """Each mirrored struct's layout, as the C compiler lays out the header."""
    cc = _compiler()
    if cc is None:
        pytest.skip("no C compiler (sysconfig's CC, cc, gcc or clang) to read the headers' "
                    "layouts with; CI has one, since it builds the package")
    headers = sorted({header for _, header, _ in MIRRORS})
    lines = ["#include <stddef.h>", "#include <stdio.h>"]
    lines += [f'#include "{header.removeprefix("csrc/")}"' for header in headers]
    lines.append("int main(void) {")
    for struct, header, _ in MIRRORS:
        for name, _ in _c_fields(header, struct):
            lines.append(f'    printf("{struct} {name} %zu %zu\\n", offsetof({struct}, {name}), '
                         f"sizeof((({struct} *)0)->{name}));")
        # (sizeof, a keyword, is no field's name)
        lines.append(f'    printf("{struct} sizeof 0 %zu\\n", sizeof({struct}));')
    lines += ["    return 0;", "}"]
    tmp = tmp_path_factory.mktemp("layouts")
    (tmp / "layouts.c").write_text("\n".join(lines) + "\n")
    subprocess.run([*cc, "-I", str(PACKAGE / "csrc"), "layouts.c", "-o", "layouts"],
                   cwd=tmp, check=True)
    output = subprocess.run([str(tmp / "layouts")], capture_output=True, text=True, check=True)
    layouts: dict[str, Layout] = {struct: ([], 0) for struct, _, _ in MIRRORS}
    for line in output.stdout.splitlines():
        struct, name, offset, size = line.split()
        if name == "sizeof":
            layouts[struct] = (layouts[struct][0], int(size))
        else:
            layouts[struct][0].append((name, int(offset), int(size)))
    return layouts


@pytest.mark.parametrize(("struct", "pxd"), [(s, p) for s, _, p in MIRRORS])
def test_pxd_mirror_lays_out_as_header(compiled: dict[str, Layout], struct: str,
                                       pxd: str) -> None:
    assert _mirror_layout(struct, _pxd_fields(pxd, struct)) == compiled[struct]


def _positions(layout: Layout) -> tuple[list[tuple[int, int]], int]:
    """A layout without its names: each field's (offset, size), and the size."""
    return [(offset, size) for _, offset, size in layout[0]], layout[1]


def test_a_drifted_layout_is_seen(compiled: dict[str, Layout]) -> None:
    """A mirror whose first field has a type of another size, or with two
    neighbouring fields of different sizes swapped, lays out otherwise
    (offsets and sizes alone, names aside)."""
    swaps = 0
    for struct, _, pxd in MIRRORS:
        fields = _pxd_fields(pxd, struct)
        sizes = [size for _, _, size in compiled[struct][0]]
        (name, _), *rest = fields
        other = "int" if sizes[0] != ctypes.sizeof(ctypes.c_int) else "uint64_t"
        retyped = _mirror_layout(struct, [(name, other), *rest])
        assert _positions(retyped) != _positions(compiled[struct])
        k = next((k for k in range(len(sizes) - 1) if sizes[k] != sizes[k + 1]), None)
        if k is not None:
            fields[k], fields[k + 1] = fields[k + 1], fields[k]
            assert _positions(_mirror_layout(struct, fields)) != _positions(compiled[struct])
            swaps += 1
    assert swaps > 0
