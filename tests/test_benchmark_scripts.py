"""The benchmark scripts under benchmarks/ that take arguments of their own,
run as a user runs them (on tiny inputs: what they print, not how fast)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from command_line import command_env

RELAYOUT_OFFSETS = Path(__file__).resolve().parents[1] / "benchmarks" / "relayout_offsets.py"

pytestmark = pytest.mark.skipif(not RELAYOUT_OFFSETS.exists(), reason="no benchmarks/ beside tests/")


def relayout_offsets(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(RELAYOUT_OFFSETS), *args], capture_output=True,
                          text=True, env=command_env(), timeout=300)


def test_a_shape_of_your_own_is_timed_both_ways_at_each_offset_it_can_take():
    shape = "bf16[16,256]{1,0:T(8,128)(2,1)}"
    done = relayout_offsets("--shape", shape, "--offsets", "0,3,16", "--rounds", "2")
    assert done.returncode == 0, done.stderr
    *lines, pages = done.stdout.splitlines()
    assert [line.split()[:2] for line in lines] == [[shape, "to_linear"], [shape, "from_linear"]]
    assert re.fullmatch(r"huge pages: (\d+ MiB|unknown) of this process's memory while a row was timed, "
                        r"at most "
                        r"\(transparent huge pages: (always|madvise|never|unknown)\)", pages)
    for line in lines:  # 3 bytes is no multiple of a bf16's 2: skipped
        assert re.findall(r"\+(\d+):", line) == ["0", "16"]
        assert "(1.00)" in line.split("+16:")[0]


@pytest.mark.parametrize(("shape", "message"), [
    ("s8[64,512]{1,0}", "has no tiles"),
    ("s8[64,512", "cannot parse shape 's8[64,512'"),
])  # fmt: skip
def test_a_shape_that_is_not_tiled_is_refused_before_timing(shape, message):
    done = relayout_offsets("--shape", shape)
    assert done.returncode == 2
    assert message in done.stderr and done.stdout == ""
