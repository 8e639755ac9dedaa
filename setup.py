"""Build the compiled core of xlashape.

Compiler directives are set here, once, for every extension module. Set
``XLASHAPE_DEBUG_CYTHON=1`` to turn bounds, wrap-around, initialisation and
None checks back on (a slower build meant for hunting memory errors).
"""

import os
import sys

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("XLASHAPE_DEBUG_CYTHON", "0") not in ("", "0")

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
    COMPILE_ARGS = ["/O2"]
else:
    COMPILE_ARGS = ["-O3"]
    if DEBUG:
        COMPILE_ARGS = ["-O0", "-g"]

MODULES = ["_plan", "_index", "_ravel", "_unravel", "_batch"]

extensions = [
    Extension(
        f"xlashape.{name}",
        [f"xlashape/{name}.pyx"],
        include_dirs=[np.get_include()],
        define_macros=MACROS,
        extra_compile_args=COMPILE_ARGS,
    )
    for name in MODULES
]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES))
