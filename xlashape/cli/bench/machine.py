"""What ``xlashape bench`` says about the machine: the CPU's model and
vendor, glibc's streaming-store threshold, Linux's transparent huge page
mode, and how much of this process's memory is on huge pages.

glibc's ``memmove`` (what ``np.copyto`` of a contiguous array calls)
switches to non-temporal (streaming) stores, which skip the read for
ownership of each destination line, when it copies at least
``glibc.cpu.x86_non_temporal_threshold`` bytes. Above it the bench's copy
limit is a streaming copy, faster per byte than ordinary stores can be, so
the bench says which side of it its copy fell. glibc's dynamic loader
prints its tunables, that threshold among them as it applies to this
process, when run as ``ld.so --list-tunables`` (glibc 2.33 and later).
Where any of this cannot be found (another OS or C library, an older
glibc), the functions here answer None.
"""

from __future__ import annotations

import functools
import os
import platform
import re
import struct
import subprocess
import sys
from collections.abc import Iterator

__all__ = [
    "copy_streams", "cpu_model", "cpu_vendor", "huge_page_bytes", "interpreter_of", "list_tunables",
    "loader_candidates", "mapped_loaders", "non_temporal_threshold", "parse_cpuinfo",
    "parse_huge_page_bytes", "parse_non_temporal_threshold", "parse_transparent_hugepages",
    "transparent_hugepages",
]

# Linux's transparent huge page setting: its modes, the one in force in brackets.
THP_ENABLED = "/sys/kernel/mm/transparent_hugepage/enabled"

TUNABLE = "glibc.cpu.x86_non_temporal_threshold"
# Where glibc's loader usually lies, tried after the ones this process names.
COMMON_LOADERS = (
    "/lib64/ld-linux-x86-64.so.2",
    "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
    "/lib/ld-linux-aarch64.so.1",
    "/lib64/ld64.so.2",
    "/lib/ld-linux.so.2",
)
PT_INTERP = 3  # the ELF program header naming the loader


def parse_cpuinfo(text: str, key: str) -> str | None:
    """The value of the first ``key : value`` line of a /proc/cpuinfo
    ``text``, or None where there is none.

    >>> from xlashape.cli.bench.machine import parse_cpuinfo
    >>> parse_cpuinfo("vendor_id\\t: GenuineIntel\\nmodel name\\t: Xeon\\n", "model name")
    'Xeon'
    """
    for line in text.splitlines():
        name, colon, value = line.partition(":")
        if colon and name.strip() == key and value.strip():
            return value.strip()
    return None


def _read_text(path: str) -> str:
    """A text file's contents, or "" where it cannot be read."""
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def _cpuinfo() -> str:
    return _read_text("/proc/cpuinfo")


def cpu_model() -> str:
    """The CPU's model name (/proc/cpuinfo's "model name"; elsewhere
    ``platform.processor()``, else the machine type)."""
    return parse_cpuinfo(_cpuinfo(), "model name") or platform.processor() or platform.machine()


def cpu_vendor() -> str | None:
    """The CPU's vendor (/proc/cpuinfo's "vendor_id", such as
    GenuineIntel or AuthenticAMD), or None where not known."""
    return parse_cpuinfo(_cpuinfo(), "vendor_id")


def parse_transparent_hugepages(text: str) -> str | None:
    """The mode in force in Linux's transparent huge page setting (the
    one in brackets), or None where the text names none.

    >>> from xlashape.cli.bench.machine import parse_transparent_hugepages
    >>> parse_transparent_hugepages("always [madvise] never\\n"), parse_transparent_hugepages("")
    ('madvise', None)
    """
    match = re.search(r"\[(\w+)\]", text)
    return None if match is None else match[1]


def transparent_hugepages() -> str | None:
    """Linux's transparent huge page mode: ``always``, ``madvise`` (NumPy
    asks for huge pages on its large arrays) or ``never``; None where it
    cannot be read (not Linux). Large moves ran slower on 4 KiB pages
    (docs/performance.md), presumably for their many more TLB entries."""
    return parse_transparent_hugepages(_read_text(THP_ENABLED))


def parse_huge_page_bytes(text: str) -> int | None:
    """The bytes on transparent huge pages (``AnonHugePages``) in a
    ``/proc/<pid>/smaps_rollup`` text, or None where it has no such line.

    >>> from xlashape.cli.bench.machine import parse_huge_page_bytes
    >>> parse_huge_page_bytes("Rss: 9 kB\\nAnonHugePages:    387072 kB\\n"), parse_huge_page_bytes("")
    (396361728, None)
    """
    match = re.search(r"^AnonHugePages:\s*(\d+) kB", text, re.MULTILINE)
    return None if match is None else int(match[1]) << 10


def huge_page_bytes() -> int | None:
    """The bytes of this process's memory on transparent huge pages, or
    None where not known (not Linux): which large arrays got them."""
    return parse_huge_page_bytes(_read_text("/proc/self/smaps_rollup"))


def parse_non_temporal_threshold(text: str) -> int | None:
    """The bytes of ``glibc.cpu.x86_non_temporal_threshold`` in the output
    of ``ld.so --list-tunables``, or None where it has no such line.

    >>> from xlashape.cli.bench.machine import parse_non_temporal_threshold
    >>> parse_non_temporal_threshold(
    ...     "glibc.cpu.x86_non_temporal_threshold: 0xb580000 (min: 0x4040, max: 0xfff)")
    190316544
    """
    match = re.search(re.escape(TUNABLE) + r"\s*:\s*(0x[0-9a-fA-F]+|\d+)", text)
    return None if match is None else int(match[1], 0)


# The ELF layout interpreter_of reads, by class (1: 32-bit, 2: 64-bit):
# e_phoff's offset and format, e_phentsize's offset (e_phnum follows), and
# a program header's p_offset and p_filesz as one format.
ELF_LAYOUT = {1: (0x1C, "I", 0x2A, "4xI8xI"), 2: (0x20, "Q", 0x36, "8xQ16xQ")}


def interpreter_of(path: str) -> str | None:
    """The loader an ELF executable names (its PT_INTERP), or None where
    ``path`` is no readable ELF file or names none."""
    try:
        with open(path, "rb") as f:
            ident = f.read(16)
            if ident[:4] != b"\x7fELF" or ident[4] not in ELF_LAYOUT or ident[5] not in (1, 2):
                return None
            order = "<" if ident[5] == 1 else ">"
            at_phoff, phoff_format, at_entsize, place = ELF_LAYOUT[ident[4]]
            f.seek(at_phoff)
            (phoff,) = struct.unpack(order + phoff_format, f.read(struct.calcsize(phoff_format)))
            f.seek(at_entsize)
            entsize, count = struct.unpack(order + "HH", f.read(4))
            for k in range(count):
                f.seek(phoff + k * entsize)
                header = f.read(entsize)
                if struct.unpack(order + "I", header[:4])[0] == PT_INTERP:
                    offset, size = struct.unpack(order + place, header[: struct.calcsize(place)])
                    f.seek(offset)
                    return f.read(size).rstrip(b"\0").decode() or None
    except (OSError, struct.error, UnicodeDecodeError):
        return None
    return None


def mapped_loaders(maps: str) -> list[str]:
    """The loaders a /proc/PID/maps text shows mapped, each once.

    >>> from xlashape.cli.bench.machine import mapped_loaders
    >>> mapped_loaders("7f-7f r--p 0 08:01 5 /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2")
    ['/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2']
    """
    paths = [line.split(None, 5)[5].strip() for line in maps.splitlines() if len(line.split(None, 5)) == 6]
    return [p for p in dict.fromkeys(paths) if re.fullmatch(r".*/ld(-linux[-\w]*|64)?\.so\.\d+", p)]


def loader_candidates() -> Iterator[str]:
    """Paths that may be glibc's dynamic loader, best first, each once:
    the one Python's executable names, those mapped into this process,
    then the usual places."""
    seen = set()
    mapped = mapped_loaders(_read_text("/proc/self/maps"))
    for path in [interpreter_of(sys.executable), *mapped, *COMMON_LOADERS]:
        if path and path not in seen and os.path.isfile(path):
            seen.add(path)
            yield path


def list_tunables(loader: str) -> str | None:
    """What ``loader --list-tunables`` prints, or None where it fails."""
    try:
        done = subprocess.run([loader, "--list-tunables"], capture_output=True, text=True, timeout=10,
                              check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


@functools.cache
def non_temporal_threshold() -> int | None:
    """glibc's non-temporal threshold in bytes for this process (its
    environment, GLIBC_TUNABLES included), or None where no loader here
    reports one (not Linux, not glibc, glibc before 2.33, not x86). Asked
    once per process."""
    if not sys.platform.startswith("linux"):
        return None
    for loader in loader_candidates():
        threshold = parse_non_temporal_threshold(list_tunables(loader) or "")
        if threshold is not None:
            return threshold
    return None


def copy_streams(nbytes: int, threshold: int | None) -> bool | None:
    """Whether a glibc ``memmove`` of ``nbytes`` streams its stores:
    it does from ``threshold`` bytes on; None where the threshold is not
    known.

    >>> from xlashape.cli.bench.machine import copy_streams
    >>> copy_streams(200 << 20, 190316544), copy_streams(4 << 20, 190316544), copy_streams(1, None)
    (True, False, None)
    """
    return None if threshold is None else nbytes >= threshold
