"""What ``xlashape bench`` prints and accepts: the summary first, tables
within 100 columns, empty columns that say why, sizes such as 1e3, sizes too
big for memory refused before measuring, and Ctrl-C keeping what was
measured. The numbers themselves are checked in test_cli.py against the
JSON records; here, the shape of the output and the arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys

import numpy as np
import pytest
from command_line import command_env, stderr_on_a_terminal
from hypothesis import example, given
from hypothesis import strategies as st

from xlashape.cli.bench import measure
from xlashape.cli.bench import report as bench_report
from xlashape.cli.bench import suite as bench
from xlashape.cli.bench.report import Column, Section, field
from xlashape.cli.common import CommandError

WIDTH = 100
SCREEN = 30  # lines: the summary must fit a terminal without scrolling
FAST = ("--sizes", "1e3", "--layouts", "row-major")  # the least a run measures


def lines_of(text: str) -> list[str]:
    return text.splitlines()


# -- rendering, from records (nothing measured) -------------------------------------
def record(op: str, layout: str, n: int, threads: int, **values) -> dict:
    return {"op": op, "layout": layout, "n": n, "threads": threads, "dtype": "int64",
            "level": "avx2", **values}


COLUMNS = (
    Column("op", field("op"), key=True),
    Column("layout", field("layout"), key=True),
    Column("N", field("n", ".0e"), key=True),
    Column("threads", field("threads"), key=True),
    Column("dtype", field("dtype"), key=True),
    Column("level", field("level"), key=True),
    *(Column(f"a long value header {k}", field(f"v{k}", ".2f")) for k in range(8)),
    Column("peer M/s", field("peer"), why_empty=lambda: "peer not installed"),
    Column("unexplained", field("nothing")),
)


def records() -> list[dict]:
    return [record(op, layout, 10**3, threads, **{f"v{k}": k + 0.5 for k in range(8)})
            for op in ("ravel", "unravel") for layout in ("row-major", "tiled") for threads in (1, 2)]


def test_text_table_fits_the_width_in_panels_that_repeat_the_keys():
    section = Section("cases", "Cases", COLUMNS, records())
    lines = bench_report.text_table(section)
    assert max(map(len, lines)) <= WIDTH
    # key columns that vary head every panel; those of one value are said once
    assert lines[0] == "all rows: N 1e+03, dtype int64, level avx2"
    headers = [line for line in lines if line.startswith("| op ")]
    assert len(headers) >= 2
    for header in headers:
        assert [c.strip() for c in header.split("|")[1:4]] == ["op", "layout", "threads"]
    shown = {c.strip() for h in headers for c in h.split("|")[4:-1]}
    assert shown == {f"a long value header {k}" for k in range(8)}
    # every value lands in its row: each panel has one line per record
    rows = [line for line in lines if line.startswith(("| ravel", "| unravel"))]
    assert len(rows) == len(headers) * len(section.records)
    # the empty column that knows why says so; the other is left out quietly
    assert lines[-1] == "peer M/s: peer not installed."
    assert "unexplained" not in "\n".join(lines)


def test_markdown_table_has_every_column_with_values_in_one_table():
    section = Section("cases", "Cases", COLUMNS, records())
    lines = bench_report.markdown_table(section)
    header = [c.strip() for c in lines[0].split("|")[1:-1]]
    assert header == [c.header for c in COLUMNS[:14]]
    assert len(lines) == 2 + len(section.records) + 1
    assert lines[-1] == "peer M/s: peer not installed."


INFO = {"xlashape": "9", "cpu": "Some CPU 9000", "cores": 2, "level": "avx2", "best_level": "avx2",
        "numpy": "2", "numba": None}


def opening(lines: list[str]) -> str:
    """The summary's first paragraph, as one line."""
    return " ".join(lines[:lines.index("")])


def figures(lines: list[str]) -> dict[tuple[str, str], list[str]]:
    """The summary table's figures by (op, layout): each cell's words."""
    start = next(k for k, line in enumerate(lines) if line.startswith("N = ")) + 1
    rows, op = {}, ""
    for line in lines[start:lines.index("", start)]:
        words = line.split()
        if not line.startswith("   "):  # "  ravel    padded" names its op, "           tiled" goes on
            op, words = words[0], words[1:]
        rows[op, words[0]] = words[1:]
    return rows


def test_summary_reads_the_largest_size_with_the_most_threads():
    cases = [
        record(op, layout, n, threads, speedup=10 * n + threads + (op == "unravel"),
               copy_fraction=0.25 * threads)
        for op in ("ravel", "unravel") for layout in ("row-major", "padded")
        for n in (1, 2) for threads in (1, 2)
    ]
    sections = bench.new_sections()
    sections[0].records.extend(cases)
    lines = bench.summary(INFO, sections)
    assert max(map(len, lines)) <= WIDTH
    first = opening(lines)
    assert first.startswith("xlashape 9 converts batches of multi-indices to linear memory offsets and back")
    assert "Some CPU 9000 (2 cores) at CPU level avx2" in first and "numba not installed" in first
    # n = 2, threads = 2: speedup 22 (ravel) and 23 (unravel), copy 0.50; no spread recorded
    assert figures(lines) == {("ravel", "row-major"): ["22.0x", "0.50"], ("ravel", "padded"): ["22.0x", "0.50"],
                              ("unravel", "row-major"): ["23.0x", "0.50"], ("unravel", "padded"): ["23.0x", "0.50"]}


def _spread_case(op: str, speedup: float, speedup_spread: tuple, fraction: float, fraction_spread: tuple) -> dict:
    return record(op, "padded", 10**5, 2, speedup=speedup, speedup_spread=speedup_spread,
                  copy_fraction=fraction, copy_fraction_spread=fraction_spread, copy_threads=2)


def test_each_figure_shows_its_spread_and_a_wide_one_says_the_machine_was_busy():
    sections = bench.new_sections()
    sections[0].records += [_spread_case("ravel", 7.6, (6.94, 8.1), 0.95, (0.9, 1.0)),
                            _spread_case("unravel", 25.3, (7.6, 30.0), 1.2, (0.5, 1.9))]
    sections[2].records.append({"op": "ravel", "speedup": 9.0, "speedup_spread": (8.9, 9.1)})
    lines = bench.summary({**INFO, "load_average": 3.62}, sections)
    assert max(map(len, lines)) <= WIDTH
    assert figures(lines) == {("ravel", "padded"): ["7.6x", "(6.9-8.1)", "0.95", "(0.90-1.00)"],
                              ("unravel", "padded"): ["25.3x", "(7.6-30.0)*", "1.20", "(0.50-1.90)*"]}
    assert "IndexUtil ravel 9.0x (8.9-9.1)." in " ".join(lines)
    said = " ".join(" ".join(lines).split())
    assert "the median over rounds of all calls taking turns; in brackets, its 25th-75th percentile" in said
    assert ("* Wide spread (over 25% of the median): the machine was busy (its 1-minute load average was "
            "3.6 as the run began, on 2 cores), so such figures change from run to run") in said
    unknown = " ".join(" ".join(bench.summary(INFO, sections)).split())  # no load average known
    assert "* Wide spread (over 25% of the median): the machine was busy, so such figures change" in unknown
    # narrow spreads everywhere: no mark, and no word of a busy machine
    sections[0].records[1] = _spread_case("unravel", 25.3, (24.0, 26.0), 1.2, (1.1, 1.3))
    calm = bench.summary({**INFO, "load_average": 3.62}, sections)
    assert "*" not in "".join(calm) and "busy" not in " ".join(calm)
    # the same width on both sides of the median is wide or not by its fraction of the median
    assert bench.is_wide({"x": 1.0, "x_spread": (0.8, 1.06)}, "x")
    assert not bench.is_wide({"x": 1.0, "x_spread": (0.8, 1.04)}, "x")
    assert not bench.is_wide({"x": 1.0}, "x")


@pytest.mark.parametrize("copy_threads, said", [
    ((2, 2), None),
    ((1, 1), "the copy ran on one thread (split from Python over 2 threads, it was slower), the call on "
             "2 threads"),
    ((1, 2), "some copies ran on one thread (split from Python over 2 threads, they were slower), the calls "
             "on 2 threads"),
])
def test_the_summary_says_what_the_copy_limit_is_and_why_a_fraction_can_pass_1(copy_threads, said):
    sections = bench.new_sections()
    case = _spread_case("ravel", 7.6, (6.9, 8.1), 1.3, (1.2, 1.4))
    sections[0].records += [{**case, "layout": layout, "copy_threads": threads, "copy_bytes": 2 << 20,
                             "copy_streamed": False} for layout, threads in zip(("padded", "tiled"), copy_threads)]
    text = " ".join(" ".join(bench.summary({**INFO, "stream_bytes": 64 << 20}, sections)).split())
    assert ("The copy limit: np.copyto (or split over 2 threads, if faster) of half the bytes the call "
            "reads plus writes, so that it reads and writes as many (1.00: as fast).") in text
    # rank 4, int64: a ravel reads 32 bytes and writes 8
    assert ("Above 1 is no error: writing costs more than reading, and the copy writes half its bytes, "
            "a ravel one in 5") in text
    assert said in text if said else "split from Python" not in text
    assert "streams" not in text  # 4 MiB moved: below the 64 MiB from which xlashape streams
    streaming = " ".join(" ".join(bench.summary({**INFO, "stream_bytes": 4 << 20}, sections)).split())
    assert "xlashape streams results this large past the cache, and this copy did not." in streaming


def test_the_summary_leaves_the_machine_diagnostics_to_full():
    sections = bench.new_sections()
    sections[0].records.append({**_spread_case("ravel", 7.6, (6.9, 8.1), 0.9, (0.8, 1.0)),
                                "copy_bytes": 2 << 20, "copy_streamed": False})
    sections[1].records.append(record("ravel", "padded", 10**5, 2, misaligned_ratio=1.25))
    info = {**INFO, "non_temporal_threshold": 4 << 20}
    summary = " ".join(" ".join(bench.summary(info, sections)).split())
    diagnostics = " ".join(" ".join(bench.diagnostics(info, sections)).split())
    for diagnostic in ("non-temporal", "streamed its stores", "mod 64"):
        assert diagnostic not in summary and diagnostic in diagnostics
    assert diagnostics == (
        "glibc's non-temporal (streaming-store) threshold: 4.0 MiB; the summary's copy (2.0 MiB) streamed "
        "its stores: no. out= at 16 mod 64 against 0 mod 64, time ratio (N = 1e5, padded, 2 threads): "
        "ravel 1.25.")


# -- the copy limit and the figures' spread (nothing measured) ----------------------
@pytest.mark.parametrize("threads", [2, 3, 16])
@pytest.mark.parametrize("length", [1, 7, 8, 1000, 4099])
def test_a_split_copy_copies_every_element_once(length, threads):
    src = np.arange(length, dtype=np.int64) * 3 + 1
    dst = np.full_like(src, -1)
    measure.split_copy_call(src, dst, threads)()
    np.testing.assert_array_equal(dst, src)


def test_the_copy_limit_has_a_split_copy_for_several_threads_and_takes_the_faster():
    src = np.arange(100, dtype=np.int64)
    assert list(measure.copy_calls(src, np.empty_like(src), 1)) == ["copy on 1"]
    calls = measure.copy_calls(src, np.empty_like(src), 4)
    assert list(calls) == ["copy on 1", "copy on 4"]
    dst = np.zeros_like(src)
    for call in measure.copy_calls(src, dst, 4).values():
        dst[:] = -1
        call()
        np.testing.assert_array_equal(dst, src)
    times = {"xlashape": [1.0, 1.0, 1.0], "copy on 1": [3.0, 1.0, 2.0], "copy on 4": [1.5, 1.4, 9.0]}
    assert measure.fastest_copy(times) == (4, [1.5, 1.4, 9.0])  # median 1.5 against 2.0
    times["copy on 4"] = [2.5, 2.1, 0.1]
    assert measure.fastest_copy(times) == (1, [3.0, 1.0, 2.0])


@given(st.lists(st.tuples(st.floats(1e-6, 1.0), st.floats(1e-6, 1.0)), min_size=1, max_size=50))
# two ratios an ulp apart: the interpolated upper quartile falls below their mean
@example([(0.21171079649281718, 1.0), (0.2117107964928172, 1.0)])
def test_a_ratio_is_the_median_over_rounds_with_its_quartiles(rounds):
    top, bottom = ([t for t, _ in rounds], [b for _, b in rounds])
    median, (low, high) = bench.round_ratios(top, bottom)
    ratios = sorted(t / b for t, b in rounds)
    assert median == pytest.approx(float(np.median(ratios)))
    if len(ratios) > 1:  # the 'exclusive' quartiles of the statistics module
        assert (low, high) == pytest.approx(tuple(statistics.quantiles(ratios, n=4)[::2]), rel=1e-12)
    assert low <= median <= high


# -- arguments ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, sizes",
    [("1e3,1e4", [1000, 10000]), ("1000", [1000]), ("1_000, 2.5e3", [1000, 2500]), ("1E7", [10**7])],
)
def test_sizes_take_integers_and_powers_of_ten(text, sizes):
    assert bench._counts(text) == sizes


@pytest.mark.parametrize("text", ["1.5", "1e-3", "0", "-5", "inf", "nan", "ten", "", "1e99", "1e999999999",
                                  str(2**63)])
def test_sizes_refuse_what_is_not_a_count(text):
    with pytest.raises(argparse.ArgumentTypeError, match="expected"):
        bench._counts(text)


def test_what_help_prints_as_a_default_is_accepted():
    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    text = " ".join(parser.format_help().split())
    defaults = re.findall(r"(--\w+) \S+ [^(]*\(default: ([^;)]+)(?:; --long: ([^)]+))?\)", text)
    options = {option for option, *_ in defaults}
    assert {"--sizes", "--dtypes", "--layouts"} <= options
    for option, default, long_default in defaults:
        for value in filter(None, (default, long_default)):
            if "get_num_threads" in value or "the one in use" in value:
                continue
            parser.parse_args([option, value.replace(" ", "")])


def test_sizes_that_cannot_fit_in_memory_are_refused_before_measuring():
    cases = [bench.Case("ravel", 10**3), bench.Case("unravel", 10**10, layout="tiled")]
    with pytest.raises(CommandError) as refused:
        bench.check_memory(cases, available=16 * 10**9)
    assert refused.value.code == 2
    assert str(refused.value) == (
        "--sizes 1e+10 needs about "
        f"{bench._bytes_text(bench.case_memory(cases[1]))} of memory for one case "
        "(unravel, tiled, int64); 16.0 GB is available here"
    )
    bench.check_memory(cases[:1], available=16 * 10**9)  # fits
    bench.check_memory(cases, available=None)  # unknown: not checked


@pytest.mark.parametrize("available", [None, 2**80])
def test_sizes_no_64_bit_machine_could_hold_are_refused_whatever_the_memory(available):
    huge = bench.Case("ravel", 10**18)
    assert bench.case_memory(huge) >= 2**64
    with pytest.raises(CommandError) as refused:
        bench.check_memory([huge], available)
    assert refused.value.code == 2
    assert str(refused.value) == ("--sizes 1e+18 is too large: one case would need more memory than a 64-bit "
                                  "machine can address (18.4 EB)")


def test_a_long_cpu_name_wraps_the_opening_line():
    info = {"cpu": "Intel(R) Xeon(R) Platinum 8592+ Processor @ 2.80GHz, of a long name",
            "cpu_vendor": "GenuineIntel", "cores": 16, "level": "avx512", "numpy": "2.4.6"}
    lines = bench.opening_lines(info)
    assert len(lines) == 2 and max(map(len, lines)) <= bench_report.WIDTH
    assert " ".join(lines) == ("xlashape bench on Intel(R) Xeon(R) Platinum 8592+ Processor @ 2.80GHz, of a "
                               "long name (GenuineIntel, 16 cores), level avx512, NumPy 2.4.6")


# -- the command ---------------------------------------------------------------------
def test_the_default_run_prints_its_summary_within_a_screen(cli):
    result = cli("bench")
    assert result.returncode == 0, result.stderr
    lines = lines_of(result.stdout)
    assert len(lines) <= SCREEN
    assert max(map(len, lines)) <= WIDTH
    assert lines[0].startswith("xlashape ") and "converts batches of multi-indices" in lines[0]
    assert " at CPU level " in opening(lines)
    assert any("times faster than NumPy" in line for line in lines)
    assert any("fraction of the copy limit" in line for line in lines)
    assert not any(line.startswith("|") for line in lines)  # no table without --full
    for diagnostic in ("non-temporal", "streamed its stores", "mod 64"):
        assert diagnostic not in result.stdout
    # every figure of the table with its spread: "7.6x (6.9-8.1)", "0.95 (0.90-1.00)"
    table = figures(lines)
    assert len(table) == 6
    for cells in table.values():
        assert re.fullmatch(r"[\d.]+x \([\d.]+-[\d.]+\)\*? [\d.]+ \([\d.]+-[\d.]+\)\*?", " ".join(cells))
    assert ("busy" in result.stdout) == ("*" in "".join(c for cells in table.values() for c in cells)
                                          + "".join(line for line in lines if line.startswith("One index")))
    assert "--full" in result.stdout and "a longer run: --long" in result.stdout
    assert max(map(len, lines_of(result.stderr))) <= WIDTH


def test_a_long_run_does_not_offer_a_longer_one(cli):
    result = cli("bench", "--long", *FAST, "--dtypes", "int64", "--modes", "raise")
    assert result.returncode == 0, result.stderr
    assert "--full" in result.stdout and "--long" not in result.stdout


def test_full_prints_every_table_within_100_columns_and_files_hold_them(cli, tmp_path):
    result = cli("bench", *FAST, "--full", "--json", "b.json", "--markdown", "b.md")
    assert result.returncode == 0, result.stderr
    lines = lines_of(result.stdout)
    assert max(map(len, lines)) <= WIDTH
    cases = json.loads((tmp_path / "b.json").read_text())["cases"]
    batches = lines[lines.index(bench.new_sections()[0].title + ":"):lines.index(
        bench.new_sections()[1].title + ":")]
    rows = [line for line in batches if line.startswith(("| ravel", "| unravel"))]
    headers = [line for line in batches if line.startswith("| op ")]
    assert len(rows) == len(headers) * len(cases)  # one row per case in each panel
    markdown = (tmp_path / "b.md").read_text().splitlines()
    header = next(line for line in markdown if line.startswith("| op "))
    assert len(header) > WIDTH  # the file keeps every column in one table
    case_rows = [line for line in markdown if re.match(r"\| (un)?ravel +\| row-major ", line)]
    assert len(case_rows) == len(cases)


def test_full_names_the_machine_and_shows_the_alignment_and_numba_unchecked(cli, tmp_path):
    result = cli("bench", *FAST, "--threads", "1", "--full", "--json", "b.json")
    assert result.returncode == 0, result.stderr
    document = json.loads((tmp_path / "b.json").read_text())
    info = document["machine"]
    assert {"cpu", "cpu_vendor", "non_temporal_threshold"} <= set(info)
    threshold = info["non_temporal_threshold"]
    assert threshold is None or (isinstance(threshold, int) and threshold > 0)
    text = " ".join(result.stdout.split())
    assert "non-temporal (streaming-store) threshold: " in text
    assert ("unknown here" in text) == (threshold is None)
    for case in document["cases"]:
        assert case["copy_streamed"] is (None if threshold is None else case["copy_bytes"] >= threshold)
    # out= alignment: ravel and unravel, rank 4 int64, each size and thread count
    alignment = document["alignment"]
    assert [(r["op"], r["n"], r["threads"], r["rank"], r["dtype"]) for r in alignment] == [
        ("ravel", 1000, 1, 4, "int64"), ("unravel", 1000, 1, 4, "int64")]
    title = bench.new_sections()[1].title + ":"
    assert title in result.stdout and "time at 16 / at 0" in result.stdout
    assert "out= at 16 mod 64 against 0 mod 64, time ratio" in text
    if document["machine"]["numba"] is not None:
        assert "numba unchecked M/s" in result.stdout
        assert all(c["numba_unchecked_meps"] > 0 for c in document["cases"])


def test_modes_time_raise_beside_them(cli, tmp_path):
    result = cli("bench", *FAST, "--threads", "1", "--modes", "raise,wrap", "--full", "--json", "b.json")
    assert result.returncode == 0, result.stderr
    cases = json.loads((tmp_path / "b.json").read_text())["cases"]
    assert [(c["op"], c["mode"]) for c in cases] == [("ravel", "raise"), ("ravel", "wrap"), ("unravel", "raise")]
    for case in cases:
        assert ("raise_ratio" in case) == (case["mode"] == "wrap")
    wrap = cases[1]
    assert wrap["raise_ratio"] == pytest.approx(wrap["mode_beside_raise_s"] / wrap["raise_s"])
    panels = [line for line in lines_of(result.stdout) if re.match(r"\| ravel +\| wrap ", line)]
    header = next(line for line in lines_of(result.stdout) if "time / raise" in line)
    cells = [c.strip() for c in panels[-1].split("|")]
    assert cells[[c.strip() for c in header.split("|")].index("time / raise")] == f"{wrap['raise_ratio']:.2f}"


def test_relayout_writes_its_table_to_json_and_markdown(cli, tmp_path):
    from xlashape.cli.bench.relayout import ROWS

    result = cli("bench", "--relayout", "--quick", "--json", "r.json", "--markdown", "r.md")
    assert result.returncode == 0, result.stderr
    records = json.loads((tmp_path / "r.json").read_text())["relayout"]
    assert [(r["row"], r["direction"]) for r in records] == [
        (row.name, call) for row in ROWS for call in ("to_linear", "from_linear")]
    for r in records:
        assert r["xlashape_of_copy"] == pytest.approx(r["copy_s"] / r["xlashape_s"])
        # tiled rows: into an out= on a 64-byte line and 16 bytes past one
        assert ("unaligned_of_aligned" in r) == ("T(" in r["shape"])
        if "T(" in r["shape"]:
            assert r["unaligned_of_aligned"] == pytest.approx(r["unaligned_out_s"] / r["aligned_out_s"])
    markdown = lines_of((tmp_path / "r.md").read_text())
    assert markdown[0].startswith("| row ") and "xlashape of copy" in markdown[0]
    cells = [[c.strip() for c in line.split("|")[1:-1]] for line in markdown[2:2 + len(records)]]
    header = [c.strip() for c in markdown[0].split("|")[1:-1]]
    assert [(c[0], c[1]) for c in cells] == [(r["row"], r["direction"]) for r in records]
    assert [c[header.index("xlashape of copy")] for c in cells] == [
        f"{r['xlashape_of_copy']:.2f}" for r in records]
    assert [c[header.index("+16 B / aligned")] for c in cells] == [
        f"{r['unaligned_of_aligned']:.2f}" if "unaligned_of_aligned" in r else "-" for r in records]


def test_relayout_skips_the_rows_that_need_ml_dtypes_without_it(cli, tmp_path):
    from xlashape.cli.bench.relayout import ROWS

    hidden = tmp_path / "hidden"
    hidden.mkdir()
    (hidden / "ml_dtypes.py").write_text('raise ImportError("hidden for this test")\n')
    env = command_env()
    env["PYTHONPATH"] = os.pathsep.join([str(hidden), env["PYTHONPATH"]])
    result = cli("bench", "--relayout", "--quick", "--json", "r.json", env=env)
    assert result.returncode == 0, result.stderr
    bf16 = [row.name for row in ROWS if row.text.startswith("bf16")]
    assert bf16
    for name in bf16:
        assert f"{name}: skipped, bf16 arrays need ml_dtypes (pip install \"xlashape[ml-dtypes]\")" in result.stderr
    records = json.loads((tmp_path / "r.json").read_text())["relayout"]
    assert [r["row"] for r in records[::2]] == [row.name for row in ROWS if row.name not in bf16]


def test_relayout_refuses_what_only_the_index_grid_takes(cli):
    result = cli("bench", "--relayout", "--sizes", "1e3", "--modes", "clip")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "xlashape: error: --relayout does not take --sizes, --modes (it takes --threads, --quick, "
        "--full, --json and --markdown)"]


def test_progress_on_a_terminal_is_one_line_redrawn_then_cleared(cli):
    drawn = stderr_on_a_terminal(cli, "bench", *FAST)
    # the lines naming the machine (the terminal ends them with \r\n), then the bar
    head, _, progress = drawn.replace("\r\n", "\n").partition("\r")
    assert head.startswith("xlashape bench on ") and head.endswith("\n")
    assert all(len(line) <= WIDTH for line in head.splitlines())
    frames = progress.split("\r")
    assert "\n" not in progress.rstrip("\n") and len(frames) > 4
    assert any(frame.startswith("[1/4] ravel raise int64 row-major N=1e+03") for frame in frames)
    assert all(len(frame) <= WIDTH for frame in frames)
    assert frames[-1].strip() == ""  # cleared, so the summary starts on a clean line


def _no_numba(tmp_path) -> dict[str, str]:
    """An environment whose ``numba`` fails to import."""
    blocker = tmp_path / "blocker" / "numba"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('numba blocked for this test')\n")
    env = command_env()
    env["PYTHONPATH"] = os.pathsep.join([str(blocker.parent), env["PYTHONPATH"]])
    return env


def test_an_empty_peer_column_says_why(cli, tmp_path):
    result = cli("bench", *FAST, "--full", "--markdown", "b.md", env=_no_numba(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "numba not installed" in opening(lines_of(result.stdout))
    why = "numba M/s: numba not installed (pip install numba adds its column)."
    assert why in result.stdout
    assert why in (tmp_path / "b.md").read_text()
    assert "| numba M/s" not in result.stdout
    assert "| numba unchecked M/s" not in result.stdout
    assert "numba unchecked M/s: numba not installed" in " ".join(result.stdout.split())


@pytest.mark.parametrize("sizes, message", [
    ("1e99", "argument --sizes: expected numbers from 1 to 9.2e+18, got '1e99'"),
    ("-5", "argument --sizes: expected numbers from 1 to 9.2e+18, got '-5'"),
    ("0", "argument --sizes: expected numbers from 1 to 9.2e+18, got '0'"),
    ("ten", "argument --sizes: expected whole numbers such as 1000 or 1e3, separated by commas, got 'ten'"),
    ("1e3,1e18", "--sizes 1e+18 is too large: one case would need more memory than a 64-bit machine can "
                 "address (18.4 EB)"),
])
def test_absurd_sizes_are_refused_in_one_line(cli, sizes, message):
    result = cli("bench", "--sizes", sizes)
    assert result.returncode == 2
    assert result.stdout == ""
    assert lines_of(result.stderr) == [result.stderr.strip()]
    assert result.stderr.startswith(f"xlashape: error: {message}")


def test_too_big_sizes_fail_in_one_line_before_measuring(cli):
    result = cli("bench", "--sizes", "1e3,1e13")
    assert result.returncode == 2
    assert result.stdout == ""
    assert lines_of(result.stderr) == [result.stderr.strip()]
    assert re.fullmatch(
        r"xlashape: error: --sizes 1e\+13 needs about [\d.]+ PB of memory for one case "
        r"\(\w+, \w+, int64\); [\d.]+ [GMT]B is available here",
        result.stderr.strip(),
    )


def test_ctrl_c_keeps_and_prints_what_was_measured(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "xlashape", "bench", "--long", "--json", "b.json"],
        cwd=tmp_path, env=command_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        seen = []
        for line in process.stderr:  # progress: one line per case off a terminal
            seen.append(line)
            if line.startswith("[3/"):
                process.send_signal(signal.SIGINT)
                break
        stdout, stderr = process.communicate(timeout=120)
    finally:
        process.kill()
    stderr = "".join(seen) + stderr
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    kept = int(re.search(r"xlashape: interrupted: showing the (\d+) of \d+ cases measured", stderr)[1])
    assert kept >= 2
    document = json.loads((tmp_path / "b.json").read_text())
    assert document["interrupted"] is True
    assert len(document["cases"]) == kept
    assert "times faster than NumPy" in stdout
