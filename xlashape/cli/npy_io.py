"""The .npy files of ``xlashape ravel`` and ``unravel``: the input
memory-mapped read-only, the output written all or nothing."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator

import numpy as np

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
        array = np.load(path, mmap_mode="r")
    except OSError as e:
        raise CommandError(f"cannot read {path}: {e.strerror or e}") from None
    except (ValueError, EOFError) as e:
        raise CommandError(f"cannot read {path} as a .npy array: {e}") from None
    if array.dtype.kind not in "iu":
        raise CommandError(
            f"{path} holds {array.dtype} values; expected integers "
            "(int8 to int64 or uint8 to uint64)"
        )
    return array


def _file_mode() -> int:
    """The mode a new file gets under the current umask (mkstemp uses 0o600)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def atomic_npy(path: str, shape: tuple[int, ...]) -> Iterator[np.ndarray]:
    """A writable int64 .npy memmap of ``shape`` in a temporary file beside
    ``path``, renamed to ``path`` when the block succeeds and removed when
    it fails."""
    directory, name = os.path.split(os.path.abspath(path))
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    except OSError as e:
        raise CommandError(f"cannot write {path}: {e.strerror or e}") from None
    os.close(fd)
    try:
        try:
            os.chmod(temp, _file_mode())
            out = np.lib.format.open_memmap(temp, mode="w+", dtype=np.int64, shape=shape)
            yield out
            out.flush()
            os.replace(temp, path)
        except OSError as e:
            raise CommandError(f"cannot write {path}: {e.strerror or e}") from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
