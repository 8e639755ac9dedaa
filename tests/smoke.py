"""Smoke test of an installed xlashape (wheel builds run it, from outside
the source tree): the compiled modules load, both directions agree with
NumPy, errors name the row, and the command line runs.

    python tests/smoke.py
"""

import importlib.machinery
import os
import subprocess
import sys
import sysconfig
import tempfile

import numpy as np

import xlashape as xs


def main() -> None:
    package = os.path.dirname(xs.__file__)
    # Each module (its folder and name) by what its files end with.
    files = [(os.path.join(folder, name.split(".")[0]), name)
             for folder, _, names in os.walk(package) for name in names]  # fmt: skip
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    compiled = {module for module, name in files if name.endswith(suffixes)}
    sources = {module for module, name in files if name.endswith(".pyx")}
    assert compiled, f"no compiled modules in {package}"
    assert sources <= compiled, f"no compiled module for {sorted(sources - compiled)}"
    if sysconfig.get_config_var("Py_GIL_DISABLED"):
        # Every module is marked freethreading_compatible: importing them
        # must not turn the GIL back on.
        assert not sys._is_gil_enabled(), "importing xlashape enabled the GIL"
    rng = np.random.default_rng(0)
    dims = (7, 5, 3)
    rows = np.stack([rng.integers(0, d, 10_000) for d in dims], axis=1)
    for order, minor_to_major in (("C", [2, 1, 0]), ("F", [0, 1, 2])):
        shape = xs.ShapeUtil.make_shape_with_layout("f32", dims, minor_to_major)
        offsets = xs.ravel(rows, shape, threads=2)
        assert np.array_equal(offsets, np.ravel_multi_index(rows.T, dims, order=order))
        assert np.array_equal(xs.unravel(offsets, shape), rows)
    try:
        xs.ravel(np.array([[0, 0, 0], [0, 5, 0]]), shape)
    except xs.IndexOutOfBoundsError as error:
        assert "row 1" in str(error), error
    else:
        raise AssertionError("an index out of bounds was accepted")
    with tempfile.TemporaryDirectory() as elsewhere:  # not a source checkout
        shown = subprocess.run(
            [sys.executable, "-m", "xlashape", "show", "f32[2,3]{0,1}"],
            capture_output=True, text=True, check=True, cwd=elsewhere,
        )  # fmt: skip
    assert "a d b e c f" in shown.stdout, shown.stdout
    print(f"xlashape {xs.__version__} from {os.path.dirname(xs.__file__)}: smoke test passed")


if __name__ == "__main__":
    main()
