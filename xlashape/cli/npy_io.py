"""The .npy files of ``xlashape ravel`` and ``unravel``: the input
memory-mapped read-only, the output written all or nothing."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import socket
import stat
import tempfile
from collections.abc import Iterator

import numpy as np

from .._validate import require_integer_dtype
from .common import CommandError


def load_indices(path: str) -> np.ndarray:
    """The integer array in the .npy file at ``path``, memory-mapped read-only."""
    magic = np.lib.format.MAGIC_PREFIX
    try:
        with open(path, "rb") as f:
            if f.read(len(magic)) != magic:
                raise CommandError(
                    f"{path} is not a .npy file: it does not start with the .npy header"
                )
        array: np.ndarray = np.load(path, mmap_mode="r")
    except OSError as e:
        raise CommandError(f"cannot read {path}: {e.strerror or e}") from None
    except (ValueError, EOFError) as e:
        raise CommandError(f"cannot read {path} as a .npy array: {e}") from None
    try:
        require_integer_dtype(array.dtype, path)
    except TypeError as e:
        raise CommandError(str(e)) from None
    return array


def _file_mode(path: str) -> int:
    """The mode for the new ``path``: that of the file it replaces, or what a
    new file gets under the current umask (mkstemp uses 0o600). A read-only
    ``path`` is refused rather than replaced."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
    except OSError as e:
        raise CommandError(f"cannot write {path}: {e.strerror or e}") from None
    if not mode & stat.S_IWUSR:
        raise CommandError(
            f"{path} is read-only (mode {mode:#o}); make it writable or remove it to replace it"
        )
    return mode


# Temporary outputs are named ``.OUT.PID@HOST.RANDOM.tmp``, beside OUT: a
# later run on the same OUT removes those whose process on this host is gone
# (a run killed half-way), and leaves every other file alone.
_TEMP = ".{name}.{pid}@{host}."


def _remove_stale_temps(directory: str, name: str) -> None:
    """Remove the temporary outputs for ``name`` left by dead processes."""
    host = socket.gethostname()
    pattern = re.compile(
        re.escape(f".{name}.") + r"(\d+)@" + re.escape(host) + r"\.[a-z0-9_]+\.tmp", re.ASCII
    )
    with contextlib.suppress(OSError), os.scandir(directory) as entries:
        for entry in entries:
            match = pattern.fullmatch(entry.name)
            if match and not _alive(int(match[1])):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this host."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # another user's, or not a pid here
        return True
    return True


def _reserve(fd: int, offset: int, length: int) -> None:
    """Allocate bytes ``offset`` to ``offset + length`` of the file ``fd`` on
    disk now, so that a full disk raises OSError(ENOSPC) here instead of
    SIGBUS when the memory map is written. The bytes read as zeros."""
    if length <= 0:
        return
    fallocate = getattr(os, "posix_fallocate", None)
    if fallocate is not None:
        try:
            fallocate(fd, offset, length)
            return
        except OSError as e:
            if e.errno not in (errno.EOPNOTSUPP, errno.EINVAL):
                raise
    block = bytes(1 << 20)  # no fallocate here: write the zeros
    for start in range(offset, offset + length, len(block)):
        os.pwrite(fd, block[: min(len(block), offset + length - start)], start)


@contextlib.contextmanager
def atomic_npy(path: str, shape: tuple[int, ...]) -> Iterator[np.ndarray]:
    """A writable int64 .npy memmap of ``shape`` in a temporary file beside
    ``path``, its disk space reserved, renamed to ``path`` when the block
    succeeds and removed when it fails. An existing ``path`` keeps its mode."""
    directory, name = os.path.split(os.path.abspath(path))
    mode = _file_mode(path)
    _remove_stale_temps(directory, name)
    prefix = _TEMP.format(name=name, pid=os.getpid(), host=socket.gethostname())
    try:
        fd, temp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=directory)
    except OSError as e:
        raise CommandError(f"cannot write {path}: {e.strerror or e}") from None
    try:
        try:
            os.chmod(temp, mode)
            out = np.lib.format.open_memmap(temp, mode="w+", dtype=np.int64, shape=shape)
            _reserve(fd, out.offset, out.nbytes)
            os.close(fd)
            fd = -1
            yield out
            out.flush()
            os.replace(temp, path)
        except OSError as e:
            raise CommandError(f"cannot write {path}: {e.strerror or e}") from None
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
