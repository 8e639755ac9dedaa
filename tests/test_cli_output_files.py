"""What ``xlashape ravel`` and ``unravel`` do to the file system: a full disk,
a run killed half-way, an existing output's mode, and the progress bar.

Run through subprocess as a user runs them (the ``cli`` fixture of
``test_cli``)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pytest
from command_line import command_env, stderr_on_a_terminal

UNRAVEL = ("unravel", "s32[10,10,10]", "in.npy")


@pytest.fixture
def tiny_disk(tmp_path):
    """A 2 MiB tmpfs mounted at ``tmp_path / "tiny"``, or a skip."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if sys.platform != "linux":
        pytest.skip("mounting a small tmpfs needs Linux")
    try:
        made = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=2M", "tmpfs", str(mount)],
            capture_output=True,
            text=True,
        )
    except FileNotFoundError:
        pytest.skip("no mount command to make a small disk with")
    if made.returncode:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {made.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_full_disk_is_a_one_line_error_that_leaves_the_old_output(cli, tmp_path, tiny_disk):
    np.save(tmp_path / "in.npy", np.arange(100_000) % 1000)  # 2.4 MB of output
    np.save(tiny_disk / "out.npy", np.arange(3))
    before = (tiny_disk / "out.npy").read_bytes()
    result = cli(*UNRAVEL, "tiny/out.npy")
    assert result.returncode == 1, result  # not -SIGBUS
    assert result.stdout == ""
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("xlashape: error: cannot write tiny/out.npy: ")
    assert "No space left on device" in result.stderr
    assert sorted(os.listdir(tiny_disk)) == ["out.npy"]  # no temp file
    assert (tiny_disk / "out.npy").read_bytes() == before


def test_a_file_that_fits_the_small_disk_is_written(cli, tmp_path, tiny_disk):
    np.save(tmp_path / "in.npy", np.arange(10_000) % 1000)  # 240 kB
    result = cli(*UNRAVEL, "tiny/out.npy")
    assert result.returncode == 0, result.stderr
    expected = np.stack(np.unravel_index(np.arange(10_000) % 1000, (10, 10, 10)), axis=1)
    np.testing.assert_array_equal(np.load(tiny_disk / "out.npy"), expected)
    assert os.listdir(tiny_disk) == ["out.npy"]


def _dead_pid() -> int:
    """The id of a process that has exited and been reaped."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _temp_name(pid: int, host: str | None = None, out: str = "out.npy") -> str:
    """A temp file name as a conversion by ``pid`` on ``host`` makes it."""
    return f".{out}.{pid}@{host or socket.gethostname()}.abcd1234.tmp"


def test_a_killed_run_leaves_a_temp_file_that_the_next_run_removes(cli, tmp_path):
    np.save(tmp_path / "in.npy", np.arange(3_000_000) % 1000)
    argv = (*UNRAVEL, "out.npy", "--chunk-rows", "1000")
    run = subprocess.Popen(
        [sys.executable, "-m", "xlashape", *argv], cwd=tmp_path, env=command_env()
    )
    temps: list[str] = []
    deadline = time.monotonic() + 60
    while not temps and time.monotonic() < deadline:
        temps = [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]
        time.sleep(0.01)
    run.send_signal(signal.SIGKILL)
    run.wait()
    assert temps, "the conversion never made its temp file"
    [temp] = temps
    # The name says whose it is, so a later run can tell it is stale.
    assert temp.startswith(f".out.npy.{run.pid}@{socket.gethostname()}.")
    assert (tmp_path / temp).exists()
    np.save(tmp_path / "in.npy", np.arange(10))
    result = cli(*argv)
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path)) == ["in.npy", "out.npy"]


def test_the_next_run_spares_temp_files_of_live_runs_and_of_other_files(cli, tmp_path):
    np.save(tmp_path / "in.npy", np.arange(10))
    dead = _dead_pid()
    keep = [
        _temp_name(os.getpid()),  # alive: this test's process
        _temp_name(dead, host="another-host"),  # cannot tell from here
        _temp_name(dead, out="other.npy"),  # another output's
        ".out.npy.user-file.tmp",  # not named by xlashape
    ]
    stale = [_temp_name(dead), _temp_name(dead).replace("abcd1234", "x_y_z987")]
    for name in keep + stale:
        (tmp_path / name).write_bytes(b"partial")
    result = cli(*UNRAVEL, "out.npy")
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path)) == sorted(["in.npy", "out.npy", *keep])


def test_an_existing_output_keeps_its_mode(cli, tmp_path):
    np.save(tmp_path / "in.npy", np.arange(6))
    np.save(tmp_path / "out.npy", np.arange(2))
    os.chmod(tmp_path / "out.npy", 0o640)
    result = cli(*UNRAVEL, "out.npy")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out.npy").stat().st_mode & 0o7777 == 0o640
    assert np.load(tmp_path / "out.npy").shape == (6, 3)


def test_a_read_only_output_is_refused(cli, tmp_path):
    np.save(tmp_path / "in.npy", np.arange(6))
    np.save(tmp_path / "out.npy", np.arange(2))
    os.chmod(tmp_path / "out.npy", 0o444)
    before = (tmp_path / "out.npy").read_bytes()
    result = cli(*UNRAVEL, "out.npy")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "xlashape: error: out.npy is read-only (mode 0o444); make it writable or remove it "
        "to replace it"
    ]
    assert (tmp_path / "out.npy").read_bytes() == before
    assert (tmp_path / "out.npy").stat().st_mode & 0o7777 == 0o444
    assert sorted(os.listdir(tmp_path)) == ["in.npy", "out.npy"]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("columns", [40, 60, 120])
def test_the_progress_bar_fits_the_terminal_and_shows_rate_and_time_left(
    cli, tmp_path, monkeypatch, columns
):
    monkeypatch.setenv("COLUMNS", str(columns))  # what shutil.get_terminal_size reads first
    np.save(tmp_path / "in.npy", np.arange(5000) % 1000)
    text = stderr_on_a_terminal(cli, *UNRAVEL, "out.npy", "--chunk-rows", "1000")
    lines = [line for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n") if line]
    assert len(lines) == 6  # one redraw per chunk, and the start
    assert all(len(line) < columns for line in lines), lines
    assert "100%" in lines[-1]
    if columns >= 60:
        assert "5000/5000 rows" in lines[-1]
    assert all("rows/s" in line for line in lines[1:]), lines
    assert all(" left" in line for line in lines[1:]), lines
    if columns >= 120:
        assert all("[" in line and "]" in line for line in lines), lines  # room for a bar


def test_reserving_space_writes_zeros_where_fallocate_is_unsupported(tmp_path, monkeypatch):
    import errno

    from xlashape.cli import npy_io

    def unsupported(fd, offset, length):
        raise OSError(errno.EOPNOTSUPP, "Operation not supported")

    monkeypatch.setattr(os, "posix_fallocate", unsupported, raising=False)
    path = str(tmp_path / "out.npy")
    with npy_io.atomic_npy(path, (3_000_000,)) as out:  # more than one 1 MiB block
        assert (out == 0).all()
        out[-1] = 7
    stored = np.load(path)
    assert stored.shape == (3_000_000,) and stored[-1] == 7 and not stored[:-1].any()
    assert os.stat(path).st_blocks * 512 >= stored.nbytes  # allocated, not sparse
