"""Build the compiled core of xlashape.

Compiler directives are set here, once, for every extension module. Set
``XLASHAPE_DEBUG_CYTHON=1`` to turn bounds, wrap-around, initialisation and
None checks back on, with debug info and no optimisation (a slower build
meant for hunting memory errors). Other builds carry no debug info.

The extension modules are cythonized and compiled in parallel (one job
per CPU). The kernels' C files (xlashape/csrc) are built into ``core._batch``;
the AVX2 and AVX-512 kernels get their instruction sets from target
pragmas inside their own files, so no -m flag applies to the whole build
and one build runs on every x86-64 CPU (never -march=native).
"""

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("XLASHAPE_DEBUG_CYTHON", "0") not in ("", "0")
JOBS = os.cpu_count() or 1

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "nonecheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
    "freethreading_compatible": True,
}

# Keep in step with the minimum NumPy in pyproject.toml's dependencies.
MACROS = [("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")]

if sys.platform == "win32":
    # C11 for _Alignas and _Pragma (MSVC's C mode has neither by default)
    COMPILE_ARGS = ["/O2", "/std:c11"]
    LINK_ARGS = []
elif DEBUG:
    COMPILE_ARGS = ["-O0", "-g"]
    LINK_ARGS = []
else:
    # -g0 last, so that it overrides the -g in Python's own CFLAGS; the
    # linker drops any debug info that remains.
    COMPILE_ARGS = ["-O3", "-g0"]
    LINK_ARGS = ["-Wl,-S"]

# What shapes the generated and compiled code. A build whose flags differ
# from the last one's in this checkout (XLASHAPE_DEBUG_CYTHON switched) starts
# afresh instead of reusing build/ and the generated C; see _cython_source.
FLAVOUR = repr((DIRECTIVES, MACROS, COMPILE_ARGS, LINK_ARGS))
FLAVOUR_STAMP = os.path.join("build", "xlashape-flavour.txt")


def _last_flavour() -> str | None:
    if not os.path.exists(FLAVOUR_STAMP):
        return None
    with open(FLAVOUR_STAMP) as stamp:
        return stamp.read()


AFRESH = _last_flavour() != FLAVOUR

CSRC = "xlashape/csrc"
# One file per CPU level (csrc/base/levels.h lists them, by CPU: a file
# whose level the target lacks compiles to nothing), and what they share.
LEVELS = ["levels/kernels_baseline.c", "levels/kernels_avx2.c", "levels/kernels_avx512.c",
          "levels/kernels_neon.c"]
# The level files first, the largest first: they take nearly all of the
# compile time (about 65, 50 and 20 s of CPU on an AMD EPYC), so starting
# them first keeps every CPU busy to the end of the build.
KERNELS = [*reversed(LEVELS), "driver/dispatch.c", "cpu/cpu_level.c", "runtime/pool.c",
           "runtime/handoff.c", "runtime/rate.c", "kernels/kernels_generic.c",
           "runtime/result_cache.c", "driver/tiled_chunks.c", "driver/relayout_run.c"]
# The compiled modules, by dotted name under xlashape (the subpackage names
# the layer each belongs to; xlashape/__init__.py lists the layers).
SOURCES = {
    "core._plan": [],
    "core._batch": [f"{CSRC}/{name}" for name in KERNELS],
    "xla._index": [],
    "shapes._convert": [],
    "core._tiled": [],
    "drop_ins._drop_ins": [],
    "core._relayout": [],
    "core._boxes": [],
}

PXDS = sorted(
    os.path.join(folder, name)
    for folder, _, names in os.walk("xlashape")
    for name in names
    if name.endswith(".pxd")
)


def _cython_source(name: str) -> str:
    """The module's .pyx, or the C file Cython made from it where that is
    newer than the .pyx and every .pxd of this package.

    Cython's own check also counts the .pxd files of Cython and NumPy, which
    pip installs afresh, so newer, into each isolated build environment: every
    ``pip install .`` would regenerate all the C and recompile everything
    (about 90 s), even right after the same checkout was built. Counting only
    this package's files lets a second ``pip install`` of an unchanged
    checkout reuse the first one's build in ``build/`` (build_ext skips an
    extension whose sources and headers are all older than it)."""
    path = "xlashape/" + name.replace(".", "/")
    pyx, c = f"{path}.pyx", f"{path}.c"
    if not AFRESH and os.path.exists(c) and all(os.path.getmtime(c) > os.path.getmtime(f) for f in [pyx, *PXDS]):
        return c
    return pyx


# Every header of the kernels, in their folders: a change to any rebuilds.
HEADERS = sorted(str(header) for header in Path(CSRC).rglob("*.h"))

extensions = [
    Extension(
        f"xlashape.{name}",
        [*sources, _cython_source(name)],
        include_dirs=[np.get_include(), CSRC],
        define_macros=MACROS,
        extra_compile_args=COMPILE_ARGS,
        extra_link_args=LINK_ARGS,
        depends=HEADERS,
    )
    for name, sources in SOURCES.items()
]


class ParallelBuildExt(build_ext):
    """build_ext that builds the extension modules side by side, and the C
    files of one module side by side too (with Unix compilers)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = JOBS
        self.force = self.force or AFRESH

    def build_extensions(self) -> None:
        if hasattr(self.compiler, "_compile") and hasattr(self.compiler, "_setup_compile"):
            self.compiler.compile = _compile_in_parallel.__get__(self.compiler)
        super().build_extensions()


def _compile_in_parallel(self, sources, output_dir=None, macros=None, include_dirs=None,
                         debug=0, extra_preargs=None, extra_postargs=None, depends=None):
    """CCompiler.compile, one thread per source file (each runs the compiler
    as a separate process)."""
    macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
        output_dir, macros, include_dirs, sources, depends, extra_postargs)
    cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

    def compile_one(obj):
        src, ext = build[obj]
        self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

    with ThreadPoolExecutor(JOBS) as pool:
        list(pool.map(compile_one, [obj for obj in objects if obj in build]))
    return objects


setup(
    ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES, nthreads=JOBS, force=AFRESH),
    cmdclass={"build_ext": ParallelBuildExt},
)
# Written only once the build has succeeded.
os.makedirs("build", exist_ok=True)
with open(FLAVOUR_STAMP, "w") as stamp:
    stamp.write(FLAVOUR)
