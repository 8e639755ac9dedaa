"""Build and import ``_xs_vec_check``, the tests' window on the vector
contract (xlashape/csrc/vec/kernels_vec.h): each operation of every level, and
the untiled loops of kernels_impl.h compiled over the portable level.

It is test-only compiled code, so the package's own build (setup.py) never
compiles it and no wheel carries it: the tests build it here, the first time
they need it, into ``build/vec-check-<hash>/`` at the checkout's root, where
``<hash>`` covers its sources, the kernel headers, the Python and NumPy it
builds for and its flags. A later run with the same inputs imports that
build at once; a change to any of them builds anew.

It is compiled at ``-O1``: the checks hold each level to the portable one
and the loops to NumPy, whatever the optimisation level, and ``-O1`` takes
a fraction of ``-O3``'s compile time over these large files. Its C files
compile side by side, one process per CPU.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CSRC = ROOT / "xlashape" / "csrc"
NAME = "_xs_vec_check"
SOURCES = ["vec_check.c", "vec_check_portable4.c", "vec_check_portable8.c",
           "vec_check_avx2.c", "vec_check_avx512.c"]
FLAGS = ["-O1", "-g0"] if os.name != "nt" else ["/O1"]


def _inputs_hash() -> str:
    """What the build depends on: every file it reads, and what it builds for."""
    digest = hashlib.sha256()
    files = [HERE / f"{NAME}.pyx", ROOT / "xlashape" / "core" / "_plan.pxd",
             *sorted(HERE.glob("*.[ch]")), *sorted(CSRC.rglob("*.h"))]
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    for text in (sys.version, np.__version__, sysconfig.get_platform(), repr(FLAGS)):
        digest.update(text.encode())
    return digest.hexdigest()[:16]


def _compile(target: Path) -> None:
    """Cythonize the module and compile it with its C files into ``target``."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    extension = Extension(
        NAME,
        [str(HERE / f"{NAME}.pyx"), *(str(HERE / name) for name in SOURCES)],
        include_dirs=[np.get_include(), str(HERE), str(CSRC)],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")],
        extra_compile_args=FLAGS,
    )
    [module] = cythonize(
        [extension],
        include_path=[str(ROOT)],
        build_dir=str(target / "cython"),
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False},
        quiet=True,
    )
    command = build_ext(Distribution({"ext_modules": [module]}))
    command.build_lib = str(target)
    command.build_temp = str(target / "objects")
    command.ensure_finalized()
    _compile_side_by_side(command)
    command.run()


def _compile_side_by_side(command: object) -> None:
    """Compile the extension's C files in parallel (Unix compilers)."""
    build_extensions = command.build_extensions  # type: ignore[attr-defined]

    def parallel() -> None:
        compiler = command.compiler  # type: ignore[attr-defined]
        if hasattr(compiler, "_compile") and hasattr(compiler, "_setup_compile"):
            serial = compiler.compile

            def compile_all(sources, output_dir=None, macros=None, include_dirs=None, debug=0,
                            extra_preargs=None, extra_postargs=None, depends=None):
                with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                    objects = pool.map(
                        lambda source: serial([source], output_dir, macros, include_dirs, debug,
                                              extra_preargs, extra_postargs, depends),
                        sources)
                    return [obj for pair in objects for obj in pair]

            compiler.compile = compile_all
        build_extensions()

    command.build_extensions = parallel  # type: ignore[attr-defined]


def load() -> ModuleType:
    """The built module, building it first where no build of these inputs exists."""
    target = ROOT / "build" / f"vec-check-{_inputs_hash()}"
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    library = target / f"{NAME}{suffix}"
    if not library.exists():
        _compile(target)
    spec = importlib.util.spec_from_file_location(NAME, library)
    assert spec is not None and spec.loader is not None, library
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
