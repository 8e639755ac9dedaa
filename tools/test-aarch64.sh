#!/usr/bin/env bash
# Build xlashape for 64-bit Arm (aarch64) and run the core of its tests
# there, under emulation, on an x86-64 Debian machine (Debian 12 or later).
#
#   tools/test-aarch64.sh [pytest arguments...]
#
# What it does, each step skipped where its result is already there (so a
# second run starts at the tests):
# 1. Installs Debian's cross compiler (gcc-aarch64-linux-gnu) and user-mode
#    emulator (qemu-user) where they are missing (as root, by apt-get).
# 2. Downloads Debian's arm64 packages of Python 3.11 and its headers
#    (libpython3.11-dev), with everything they depend on, through apt with
#    a state of its own (the machine's own sources; its list of
#    architectures and packages untouched), and unpacks them with
#    ``dpkg -x`` into a root of their own, build/aarch64/root.
# 3. Installs the Arm wheels of NumPy (the version this machine's Python
#    has, where it has one), Cython, setuptools, pytest and hypothesis into
#    build/aarch64/site (pip's --platform; nothing is built from source).
# 4. Builds the extension modules in place with the emulated Python's
#    setup.py build_ext: Debian's arm64 Python names aarch64-linux-gnu-gcc
#    as its compiler, a program of this machine, which the emulator runs
#    natively. The modules are *.cpython-311-aarch64-linux-gnu.so beside
#    this machine's own, and their objects go to
#    build/temp.linux-aarch64-cpython-311.
# 5. Runs pytest under qemu-aarch64 on the tests of TESTS below (or on the
#    arguments given), whose vector-op tests build tests/vec_check/ for
#    aarch64 the same way.
#
# Everything it downloads or builds stays under build/ (which git ignores);
# ``rm -rf build/aarch64`` starts it afresh.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE=$ROOT/build/aarch64
SYSROOT=$CACHE/root
SITE=$CACHE/site
PYVER=3.11

# The core of the suite: the kernels of every level against NumPy and the
# pure-Python reference, the vector operations of every level against the
# portable ones, the NumPy drop-ins, the layout algebra and relayout. About
# N minutes under qemu on 2 cores of an AMD EPYC (hypothesis's "dev"
# profile).
TESTS=(
    tests/test_kernels.py
    tests/test_vector_ops.py
    tests/test_numpy_compat.py
    tests/test_layout_algebra.py
    tests/test_relayout.py
    tests/test_kernel_modes.py
    tests/test_batch_ranks_and_widths.py
)

step() { printf '\n== %s\n' "$*"; }

# -- 1. the cross compiler and the emulator --------------------------------
if ! command -v aarch64-linux-gnu-gcc >/dev/null || ! command -v qemu-aarch64 >/dev/null; then
    step "installing gcc-aarch64-linux-gnu and qemu-user"
    if [ "$(id -u)" != 0 ]; then
        echo "run as root, or install gcc-aarch64-linux-gnu and qemu-user first" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q --no-install-recommends gcc-aarch64-linux-gnu qemu-user >/dev/null \
        || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends \
                 gcc-aarch64-linux-gnu qemu-user >/dev/null; }
fi

# -- 2. Debian's arm64 Python, unpacked into a root of its own ---------------
if [ ! -e "$SYSROOT/.unpacked" ]; then
    step "downloading Debian's arm64 python$PYVER and libpython$PYVER-dev"
    APT=$CACHE/apt
    mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial"
    : > "$APT/status"  # no package counts as installed: every dependency comes
    apt_arm64() {
        apt-get -q -o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
            -o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" \
            -o Dir::State::status="$APT/status" -o Debug::NoLocking=1 "$@"
    }
    apt_arm64 update >/dev/null
    apt_arm64 install -y --download-only --no-install-recommends \
        "python$PYVER" "libpython$PYVER-dev" libstdc++6 >/dev/null
    rm -rf "$SYSROOT"
    mkdir -p "$SYSROOT"
    for deb in "$APT"/cache/archives/*.deb; do dpkg -x "$deb" "$SYSROOT"; done
    touch "$SYSROOT/.unpacked"
fi
PYTHON=("qemu-aarch64" -L "$SYSROOT" "$SYSROOT/usr/bin/python$PYVER")
# The arm64 Python's headers include <aarch64-linux-gnu/python3.11/pyconfig.h>,
# which lies under the root's usr/include; searched after the cross compiler's
# own directories, so that its C library headers come first.
export CFLAGS="-idirafter $SYSROOT/usr/include"
export PYTHONPATH=$SITE
export PYTHONDONTWRITEBYTECODE=1

# -- 3. the Arm wheels -------------------------------------------------------
if [ ! -e "$SITE/.installed" ]; then
    step "installing the aarch64 wheels of numpy, Cython, setuptools, pytest, hypothesis"
    HOST_PYTHON=${HOST_PYTHON:-python3}
    NUMPY=$("$HOST_PYTHON" -c 'import numpy; print("numpy==" + numpy.__version__)' 2>/dev/null \
            || echo "numpy>=2")
    rm -rf "$SITE"
    "$HOST_PYTHON" -m pip install -q --target "$SITE" --only-binary=:all: \
        --platform manylinux_2_28_aarch64 \
        --platform manylinux_2_17_aarch64 --python-version "$PYVER" --implementation cp \
        "$NUMPY" "Cython>=3.0.10,<4" "setuptools>=77,<90" "pytest>=8" "hypothesis>=6.100" \
        "pytest-benchmark>=4"
    touch "$SITE/.installed"
fi

# -- 4. the extension modules, built by the emulated Python ------------------
step "building the extension modules for aarch64"
start=$SECONDS
"${PYTHON[@]}" setup.py -q build_ext --inplace
echo "built in $((SECONDS - start)) s"

# -- 5. the tests ------------------------------------------------------------
step "running the tests under qemu-aarch64"
"${PYTHON[@]}" -c 'import platform, xlashape.cpu as c; print(platform.machine(), c.cpu_features())'
start=$SECONDS
status=0
"${PYTHON[@]}" -m pytest -q -p no:cacheprovider --hypothesis-profile=dev \
    "${@:-${TESTS[@]}}" || status=$?
echo "tests ran in $((SECONDS - start)) s"
exit $status
