"""What ``xlashape bench`` says about the machine (xlashape.cli.bench.machine):
the CPU's model and vendor, glibc's non-temporal threshold read from the
loader's ``--list-tunables``, whether the copy streamed its stores, and
their fallbacks to None; and the out= alignment section's buffers. Nothing
here asserts a time.
"""

from __future__ import annotations

import os
import struct
import sys

import numpy as np
import pytest

from xlashape.cli.bench import machine as bench_machine
from xlashape.cli.bench import measure
from xlashape.cli.bench import suite as bench
from xlashape.cli.bench.machine import (
    copy_streams,
    interpreter_of,
    list_tunables,
    mapped_loaders,
    non_temporal_threshold,
    parse_cpuinfo,
    parse_non_temporal_threshold,
)

# What glibc 2.36's loader prints, cut short (its lines come in no fixed order).
TUNABLES = """\
glibc.rtld.nns: 0x4 (min: 0x1, max: 0x10)
glibc.cpu.x86_shstk:
glibc.cpu.x86_rep_movsb_threshold: 0x2000 (min: 0x100, max: 0xffffffffffffffff)
glibc.cpu.x86_non_temporal_threshold: 0xb580000 (min: 0x4040, max: 0xfffffffffffffff)
glibc.cpu.x86_rep_stosb_threshold: 0x800 (min: 0x1, max: 0xffffffffffffffff)
glibc.malloc.mmap_threshold: 0x0 (min: 0x0, max: 0xffffffffffffffff)
"""
CPUINFO = """\
processor\t: 0
vendor_id\t: GenuineIntel
cpu family\t: 6
model name\t: Intel(R) Xeon(R) Processor
flags\t\t: fpu vme avx512f

processor\t: 1
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Processor
"""


@pytest.fixture
def no_cached_threshold():
    """non_temporal_threshold asks once per process: forget its answer
    around a test that changes what it finds."""
    non_temporal_threshold.cache_clear()
    yield
    non_temporal_threshold.cache_clear()


# -- parsing ---------------------------------------------------------------------
def test_the_threshold_is_read_from_its_own_line_of_the_tunables():
    assert parse_non_temporal_threshold(TUNABLES) == 0xB580000 == 190316544


@pytest.mark.parametrize("text, expected", [
    ("glibc.cpu.x86_non_temporal_threshold: 0xC0000 (min: 0x4040, max: 0x0fff)", 0xC0000),
    ("glibc.cpu.x86_non_temporal_threshold: 786432", 786432),
    ("glibc.cpu.x86_non_temporal_threshold:0x4040", 0x4040),
])
def test_the_threshold_in_hex_or_decimal(text, expected):
    assert parse_non_temporal_threshold(text) == expected


@pytest.mark.parametrize("text", [
    "",
    TUNABLES.replace("glibc.cpu.x86_non_temporal_threshold", "glibc.cpu.x86_other"),
    "glibc.cpu.x86_non_temporal_threshold:",  # no value
    "ld.so: unrecognized option '--list-tunables'",  # glibc before 2.33
])
def test_no_threshold_line_gives_none(text):
    assert parse_non_temporal_threshold(text) is None


def test_cpuinfo_gives_model_and_vendor_and_none_for_what_it_lacks():
    assert parse_cpuinfo(CPUINFO, "model name") == "Intel(R) Xeon(R) Processor"
    assert parse_cpuinfo(CPUINFO, "vendor_id") == "GenuineIntel"
    assert parse_cpuinfo(CPUINFO, "cpu family") == "6"
    assert parse_cpuinfo(CPUINFO, "vendor") is None  # the whole key, not a prefix
    assert parse_cpuinfo("vendor_id\t:\n", "vendor_id") is None  # empty
    assert parse_cpuinfo("", "model name") is None


def test_without_cpuinfo_the_model_falls_back_to_platform_and_the_vendor_to_none(monkeypatch):
    monkeypatch.setattr(bench_machine, "_cpuinfo", lambda: "")
    monkeypatch.setattr(bench_machine.platform, "processor", lambda: "arm")
    assert bench_machine.cpu_model() == "arm"
    assert bench_machine.cpu_vendor() is None
    monkeypatch.setattr(bench_machine.platform, "processor", lambda: "")
    monkeypatch.setattr(bench_machine.platform, "machine", lambda: "aarch64")
    assert bench_machine.cpu_model() == "aarch64"
    monkeypatch.setattr(bench_machine, "_cpuinfo", lambda: CPUINFO)
    assert (bench_machine.cpu_model(), bench_machine.cpu_vendor()) == (
        "Intel(R) Xeon(R) Processor", "GenuineIntel")


# -- finding the loader ----------------------------------------------------------------
def elf(interp: bytes | None, wide: bool = True, order: str = "<") -> bytes:
    """A minimal ELF file: its header, one program header (PT_INTERP
    naming ``interp``, or PT_LOAD where None), then the name."""
    header_size, entry_size = (64, 56) if wide else (52, 32)
    name = (interp or b"") + b"\0"
    at = header_size + entry_size
    ident = b"\x7fELF" + bytes([2 if wide else 1, 1 if order == "<" else 2, 1]) + bytes(9)
    kind = 3 if interp is not None else 1
    if wide:
        head = ident + struct.pack(order + "HHIQQQIHHHHHH", 2, 62, 1, 0, header_size, 0, 0,
                                   header_size, entry_size, 1, 64, 0, 0)
        program = struct.pack(order + "IIQQQQQQ", kind, 4, at, at, at, len(name), len(name), 1)
    else:
        head = ident + struct.pack(order + "HHIIIIIHHHHHH", 2, 3, 1, 0, header_size, 0, 0,
                                   header_size, entry_size, 1, 40, 0, 0)
        program = struct.pack(order + "IIIIIIII", kind, at, at, at, len(name), len(name), 4, 1)
    assert len(head) == header_size and len(program) == entry_size
    return head + program + name


@pytest.mark.parametrize("wide", [True, False])
@pytest.mark.parametrize("order", ["<", ">"])
def test_the_loader_an_executable_names_is_read_from_its_pt_interp(tmp_path, wide, order):
    path = tmp_path / "exe"
    path.write_bytes(elf(b"/opt/lib/ld-linux-x86-64.so.2", wide, order))
    assert interpreter_of(str(path)) == "/opt/lib/ld-linux-x86-64.so.2"


def test_no_pt_interp_not_elf_or_no_file_name_no_loader(tmp_path):
    static = tmp_path / "static"
    static.write_bytes(elf(None))
    text = tmp_path / "script"
    text.write_text("#!/bin/sh\n")
    short = tmp_path / "short"
    short.write_bytes(elf(b"/lib/ld.so.1")[:70])  # cut inside its program header
    for path in (static, text, short, tmp_path / "absent"):
        assert interpreter_of(str(path)) is None


def test_the_python_running_here_names_a_loader_that_exists_where_it_is_dynamic():
    with open(sys.executable, "rb") as f:
        is_elf = f.read(4) == b"\x7fELF"
    loader = interpreter_of(sys.executable)
    if not is_elf or loader is None:
        pytest.skip("not a dynamically linked ELF executable")
    assert loader in list(bench_machine.loader_candidates())


def test_loaders_are_found_in_a_maps_text_each_once():
    maps = "\n".join([
        "55d0-55d1 r--p 00000000 08:01 12 /work/venv/bin/python3.11",
        "7f00-7f01 r--p 00000000 08:01 13 /usr/lib/x86_64-linux-gnu/libc.so.6",
        "7f02-7f03 r--p 00000000 08:01 14 /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
        "7f03-7f04 r-xp 00001000 08:01 14 /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
        "7f05-7f06 r--p 00000000 08:01 15 /lib/ld-linux-aarch64.so.1",
        "7f07-7f08 r--p 00000000 08:01 16 /lib/libld-linux.so.2.py",
        "7ffd-7ffe rw-p 00000000 00:00 0 [stack]",
        "7ffe-7fff rw-p 00000000 00:00 0",
    ])
    assert mapped_loaders(maps) == ["/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
                                    "/lib/ld-linux-aarch64.so.1"]
    assert mapped_loaders("") == []


def test_a_loader_that_cannot_run_or_fails_lists_no_tunables(tmp_path):
    assert list_tunables(str(tmp_path / "absent")) is None
    failing = tmp_path / "fails"
    failing.write_text("#!/bin/sh\necho glibc.cpu.x86_non_temporal_threshold: 0x10\nexit 1\n")
    failing.chmod(0o755)
    assert list_tunables(str(failing)) is None


def test_the_threshold_comes_from_the_first_loader_that_reports_it(monkeypatch, tmp_path,
                                                                     no_cached_threshold):
    silent, reporting = tmp_path / "old-ld.so", tmp_path / "ld.so"
    silent.write_text("#!/bin/sh\necho glibc.malloc.mmap_threshold: 0x0\n")
    reporting.write_text(f"#!/bin/sh\n[ \"$1\" = --list-tunables ] && cat <<'EOF'\n{TUNABLES}EOF\n")
    for script in (silent, reporting):
        script.chmod(0o755)
    monkeypatch.setattr(bench_machine.sys, "platform", "linux")
    monkeypatch.setattr(bench_machine, "loader_candidates", lambda: iter([str(silent), str(reporting)]))
    assert non_temporal_threshold() == 0xB580000


def test_no_loader_or_not_linux_gives_no_threshold(monkeypatch, no_cached_threshold):
    monkeypatch.setattr(bench_machine, "loader_candidates", lambda: iter([]))
    assert non_temporal_threshold() is None
    non_temporal_threshold.cache_clear()
    monkeypatch.setattr(bench_machine, "loader_candidates", lambda: iter(["/bin/sh"]))
    monkeypatch.setattr(bench_machine.sys, "platform", "darwin")
    assert non_temporal_threshold() is None


def test_a_copy_streams_from_the_threshold_on_and_is_unknown_without_one():
    assert copy_streams(1000, 1000) is True
    assert copy_streams(999, 1000) is False
    assert copy_streams(10**12, None) is None


# -- what the bench records and says ---------------------------------------------------------
@pytest.mark.parametrize("threshold, streamed, cell", [(64, True, "yes"), (1 << 40, False, "no"),
                                                       (None, None, "unknown")])
def test_each_case_records_whether_its_copy_streamed(monkeypatch, threshold, streamed, cell):
    monkeypatch.setattr(bench, "non_temporal_threshold", lambda: threshold)
    case = bench.Case("ravel", 1000)
    record = bench.run_case(case, 1, min_time=0.0, min_repeats=1, peers=False)
    assert record["copy_bytes"] == case.bytes_moved // 2 == 20000
    assert record["copy_streamed"] is streamed
    column = next(c for c in bench.CASE_COLUMNS if c.header == "copy streamed")
    assert column.cell(record) == cell


def test_the_machine_record_holds_the_cpu_vendor_and_threshold(monkeypatch, no_cached_threshold):
    monkeypatch.setattr(measure, "cpu_vendor", lambda: "AuthenticAMD")
    monkeypatch.setattr(measure, "non_temporal_threshold", lambda: 3 << 20)
    info = measure.machine()
    assert info["cpu_vendor"] == "AuthenticAMD" and info["non_temporal_threshold"] == 3 << 20
    assert "(AuthenticAMD)" in bench.caption(info)
    assert "threshold: 3.0 MiB" in bench.caption(info)
    monkeypatch.setattr(measure, "non_temporal_threshold", lambda: None)
    assert "threshold: unknown here" in bench.caption(measure.machine())


def _info(threshold: int | None) -> dict:
    return {"xlashape": "9", "cpu": "Some CPU 9000", "cpu_vendor": "SomeVendor", "cores": 2,
            "level": "avx2", "best_level": "avx2", "numpy": "2", "numba": None,
            "non_temporal_threshold": threshold}


@pytest.mark.parametrize("threshold, said", [
    (1 << 20, "threshold: 1.0 MiB; the summary's copy (2.0 MiB) streamed its stores: yes."),
    (4 << 20, "threshold: 4.0 MiB; the summary's copy (2.0 MiB) streamed its stores: no."),
    (None, "threshold: unknown here; the summary's copy (2.0 MiB) streamed its stores: unknown."),
])
def test_the_summary_names_the_vendor_and_full_whether_the_copy_streamed(threshold, said):
    sections = bench.new_sections()
    streamed = copy_streams(2 << 20, threshold)
    sections[0].records.extend(
        {"op": op, "layout": "padded", "n": 10**5, "threads": 1, "dtype": "int64", "speedup": 2.0,
         "copy_fraction": 0.5, "copy_bytes": 2 << 20, "copy_streamed": streamed}
        for op in ("ravel", "unravel"))
    lines = bench.summary(_info(threshold), sections)
    assert "Some CPU 9000 (SomeVendor, 2 cores)" in " ".join(lines[:lines.index("")])
    assert max(map(len, lines)) <= bench.WIDTH
    assert "streamed" not in " ".join(lines)  # a diagnostic: --full's
    diagnostics = bench.diagnostics(_info(threshold), sections)
    assert said in " ".join(" ".join(diagnostics).split())
    assert max(map(len, diagnostics)) <= bench.WIDTH


# -- the out= alignment section -----------------------------------------------------------------
@pytest.mark.parametrize("offset", [0, 8, 16, 48, 56])
@pytest.mark.parametrize("shape", [(1,), (1000,), (1000, 4), (3, 5, 7)])
def test_out_buffers_start_the_bytes_asked_past_a_64_byte_boundary(offset, shape):
    for _ in range(5):  # over several allocations, wherever each lands
        out = bench.out_at(shape, offset)
        assert out.ctypes.data % 64 == offset
        assert out.shape == shape and out.dtype == np.int64
        assert out.flags.c_contiguous and out.flags.writeable
        out[...] = 7  # all of it is there to write
        assert out.base is not None and out.base.nbytes >= out.nbytes


@pytest.mark.parametrize("offset", [-8, 4, 64, 100])
def test_out_buffers_refuse_an_offset_that_is_not_a_multiple_of_8_below_64(offset):
    with pytest.raises(ValueError, match="multiple of 8"):
        bench.out_at((10,), offset)


@pytest.mark.parametrize("op", ["ravel", "unravel"])
def test_the_alignment_section_times_the_call_into_both_buffers(monkeypatch, op):
    seen = []
    original = bench.xlashape_call

    def spy(case, data, threads, **kw):
        seen.append((data[f"{case.op}_out"].ctypes.data % 64, data[f"{case.op}_out"].shape))
        return original(case, data, threads, **kw)

    monkeypatch.setattr(bench, "xlashape_call", spy)
    case, threads = next((c, t) for c, t in bench.alignment_cases([1000], [1]) if c.op == op)
    assert (case.rank, case.dtype, case.layout) == (4, "int64", "padded")
    record = bench.alignment_times(case, threads, min_time=0.0, min_rounds=3)
    shape = (1000,) if op == "ravel" else (1000, 4)
    assert seen == [(16, shape), (0, shape)]
    assert record["misaligned_ratio"] == pytest.approx(record["out_16_s"] / record["out_0_s"])
    assert record["out_16_meps"] == pytest.approx(1000 / record["out_16_s"] / 1e6)
    assert (record["op"], record["n"], record["threads"]) == (op, 1000, 1)


def test_the_alignment_calls_write_what_the_warm_out_call_writes():
    for op in ("ravel", "unravel"):
        case = bench.Case(op, 1000, layout="padded")
        data = bench.make_case_data(case)
        key = f"{op}_out"
        bench.xlashape_call(case, data, 1)()
        for offset in bench.OUT_OFFSETS:
            out = bench.out_at(data[key].shape, offset)
            bench.xlashape_call(case, {**data, key: out}, 1)()
            np.testing.assert_array_equal(out, data[key])


@pytest.mark.parametrize("text, mode", [
    ("always [madvise] never\n", "madvise"),
    ("[always] madvise never\n", "always"),
    ("always madvise [never]\n", "never"),
    ("always madvise never\n", None),  # none in force named
    ("", None),
])
def test_the_huge_page_mode_is_the_one_in_brackets(text, mode):
    assert bench_machine.parse_transparent_hugepages(text) == mode


def test_the_huge_page_mode_is_read_from_linux_setting_or_unknown(monkeypatch, tmp_path):
    setting = tmp_path / "enabled"
    setting.write_text("always defer [madvise] never\n")
    monkeypatch.setattr(bench_machine, "THP_ENABLED", str(setting))
    assert bench_machine.transparent_hugepages() == "madvise"
    info = measure.machine()
    assert info["transparent_hugepages"] == "madvise"
    assert "transparent huge pages: madvise" in bench.caption(info)
    monkeypatch.setattr(bench_machine, "THP_ENABLED", str(tmp_path / "missing"))
    assert bench_machine.transparent_hugepages() is None
    assert "transparent huge pages: unknown here" in bench.caption(measure.machine())


def test_the_huge_page_bytes_are_read_from_anon_huge_pages_and_are_known_on_linux():
    assert bench_machine.parse_huge_page_bytes("Rss:  12 kB\nAnonHugePages:  2048 kB\n") == 2 << 20
    assert bench_machine.parse_huge_page_bytes("ShmemHugePages: 2048 kB\n") is None
    held = bench_machine.huge_page_bytes()
    if os.path.exists("/proc/self/smaps_rollup"):  # Linux 4.14 and later
        assert isinstance(held, int) and held >= 0 and held % (1 << 10) == 0
    else:
        assert held is None
