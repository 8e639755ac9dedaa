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
import subprocess
import sys

import pytest
from command_line import command_env, stderr_on_a_terminal

from xlashape import bench, bench_report
from xlashape.bench_report import Column, Section, field
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


def test_summary_reads_the_largest_size_with_the_most_threads():
    cases = [
        record(op, layout, n, threads, speedup=10 * n + threads + (op == "unravel"),
               copy_fraction=0.25 * threads)
        for op in ("ravel", "unravel") for layout in ("row-major", "padded")
        for n in (1, 2) for threads in (1, 2)
    ]
    sections = bench.new_sections()
    sections[0].records.extend(cases)
    info = {"xlashape": "9", "cpu": "Some CPU 9000", "cores": 2, "level": "avx2", "best_level": "avx2",
            "numpy": "2", "numba": None}
    lines = bench.summary(info, sections)
    assert max(map(len, lines)) <= WIDTH
    assert "Some CPU 9000 (2 cores), kernels at CPU level avx2" in lines[0]
    assert "numba not installed" in " ".join(lines[:2])
    table = [line.split() for line in lines if "times faster" in line or "copy limit" in line]
    # n = 2, threads = 2: speedup 22 (ravel) and 23 (unravel), copy 0.50
    assert table[0][-2:] == ["22.0x", "22.0x"] and table[2][-2:] == ["23.0x", "23.0x"]
    assert table[1][-2:] == ["0.50", "0.50"]


# -- arguments ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, sizes",
    [("1e3,1e4", [1000, 10000]), ("1000", [1000]), ("1_000, 2.5e3", [1000, 2500]), ("1E7", [10**7])],
)
def test_sizes_take_integers_and_powers_of_ten(text, sizes):
    assert bench._counts(text) == sizes


@pytest.mark.parametrize("text", ["1.5", "1e-3", "0", "-5", "inf", "nan", "ten", ""])
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


# -- the command ---------------------------------------------------------------------
def test_the_default_run_prints_its_summary_within_a_screen(cli):
    result = cli("bench")
    assert result.returncode == 0, result.stderr
    lines = lines_of(result.stdout)
    assert len(lines) <= SCREEN
    assert max(map(len, lines)) <= WIDTH
    assert lines[0].startswith("xlashape ") and "kernels at CPU level" in lines[0]
    assert any("times faster than NumPy" in line for line in lines)
    assert any("fraction of the copy limit" in line for line in lines)
    assert not any(line.startswith("|") for line in lines)  # no table without --full
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
    from xlashape.bench_relayout import ROWS

    result = cli("bench", "--relayout", "--quick", "--json", "r.json", "--markdown", "r.md")
    assert result.returncode == 0, result.stderr
    records = json.loads((tmp_path / "r.json").read_text())["relayout"]
    assert [(r["row"], r["direction"]) for r in records] == [
        (row.name, call) for row in ROWS for call in ("to_linear", "from_linear")]
    for r in records:
        assert r["xlashape_of_copy"] == pytest.approx(r["copy_s"] / r["xlashape_s"])
    markdown = lines_of((tmp_path / "r.md").read_text())
    assert markdown[0].startswith("| row ") and "xlashape of copy" in markdown[0]
    cells = [[c.strip() for c in line.split("|")[1:-1]] for line in markdown[2:2 + len(records)]]
    header = [c.strip() for c in markdown[0].split("|")[1:-1]]
    assert [(c[0], c[1]) for c in cells] == [(r["row"], r["direction"]) for r in records]
    assert [c[header.index("xlashape of copy")] for c in cells] == [
        f"{r['xlashape_of_copy']:.2f}" for r in records]


def test_relayout_refuses_what_only_the_index_grid_takes(cli):
    result = cli("bench", "--relayout", "--sizes", "1e3", "--modes", "clip")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "xlashape: error: --relayout does not take --sizes, --modes (it takes --threads, --quick, "
        "--full, --json and --markdown)"]


def test_progress_on_a_terminal_is_one_line_redrawn_then_cleared(cli):
    drawn = stderr_on_a_terminal(cli, "bench", *FAST)
    head, _, progress = drawn.partition("\n")  # the line naming the machine, then the bar
    assert head.startswith("xlashape bench on ")
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
    assert "numba not installed" in lines_of(result.stdout)[0] + lines_of(result.stdout)[1]
    why = "numba M/s: numba not installed (pip install numba adds its column)."
    assert why in result.stdout
    assert why in (tmp_path / "b.md").read_text()
    assert "| numba M/s" not in result.stdout
    assert "| numba unchecked M/s" not in result.stdout
    assert "numba unchecked M/s: numba not installed" in " ".join(result.stdout.split())


def test_too_big_sizes_fail_in_one_line_before_measuring(cli):
    result = cli("bench", "--sizes", "1e3,1e13")
    assert result.returncode == 2
    assert result.stdout == ""
    assert lines_of(result.stderr) == [result.stderr.strip()]
    assert re.fullmatch(
        r"xlashape: error: --sizes 1e\+13 needs about [\d.]+ TB of memory for one case "
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
