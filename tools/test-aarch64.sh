#!/usr/bin/env bash
# Build xlashape for 64-bit Arm (aarch64) and run the core of its tests
# there, under emulation, on an x86-64 Debian machine (Debian 12 or later).
#
#   tools/test-aarch64.sh [pytest arguments...]
#   tools/test-aarch64.sh --count
#
# What it does, each step skipped where its result is already there (so a
# second run starts at the tests):
# 1. Installs Debian's cross compiler (gcc-aarch64-linux-gnu), its C library
#    headers (libc6-dev-arm64-cross) and user-mode emulator (qemu-user) where
#    they are missing (as root, by apt-get).
# 2. Downloads Debian's arm64 packages of Python 3.11 and its headers
#    (libpython3.11-dev), with everything they depend on, through apt with
#    a state of its own (the machine's own sources; its list of
#    architectures and packages untouched), and unpacks them with
#    ``dpkg -x`` into a root of their own, build/aarch64/root.
# 3. Installs the Arm wheels of NumPy (the version this machine's Python
#    has, where it has one), ml_dtypes, Cython, setuptools, pytest,
#    hypothesis and pytest-benchmark into build/aarch64/site (pip's
#    --platform; nothing is built from source).
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
# With --count, step 5 instead counts the instructions per row of ravel and
# unravel of rank-4 int64 rows at each level, one thread, with a plugin of
# qemu's (tools/aarch64/insn_count.c, built against the qemu-plugin.h of
# Debian's qemu source package): each count is the difference of two runs
# of tools/aarch64/count_insns.py, one converting 10^5 rows more than the
# other, over 10^5.
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
# portable ones, the NumPy drop-ins, the layout algebra and relayout, with
# hypothesis's "dev" profile. On 2 busy cores of an AMD EPYC: the build
# 3.5 minutes (1.5 where Cython's C is already made), these tests 6 under
# qemu.
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

# -- 1. the cross compiler, its C library headers and the emulator -----------
# (libc6-dev-arm64-cross is only a recommendation of the compiler's package:
# without it, the compiler would find this machine's own headers instead.)
if ! command -v aarch64-linux-gnu-gcc >/dev/null || ! command -v qemu-aarch64 >/dev/null ||
        [ ! -f /usr/aarch64-linux-gnu/include/stdlib.h ]; then
    step "installing gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user"
    if [ "$(id -u)" != 0 ]; then
        echo "run as root, or install gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user first" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    PACKAGES=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)
    apt-get install -y -q --no-install-recommends "${PACKAGES[@]}" >/dev/null \
        || { apt-get update -q >/dev/null &&
             apt-get install -y -q --no-install-recommends "${PACKAGES[@]}" >/dev/null; }
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
# the checkout's package too, for the tests' child processes, which start elsewhere
export PYTHONPATH=$SITE:$ROOT
export PYTHONDONTWRITEBYTECODE=1

# -- 3. the Arm wheels -------------------------------------------------------
HOST_PYTHON=${HOST_PYTHON:-python3}
NUMPY=$("$HOST_PYTHON" -c 'import numpy; print("numpy==" + numpy.__version__)' 2>/dev/null \
        || echo "numpy>=2")
WHEELS=("$NUMPY" "ml_dtypes>=0.4" "Cython>=3.0.10,<4" "setuptools>=77,<90" "pytest>=8"
        "hypothesis>=6.100" "pytest-benchmark>=4")
if [ "$(cat "$SITE/.installed" 2>/dev/null)" != "${WHEELS[*]}" ]; then
    step "installing the aarch64 wheels of ${WHEELS[*]}"
    rm -rf "$SITE"
    "$HOST_PYTHON" -m pip install -q --target "$SITE" --only-binary=:all: \
        --platform manylinux_2_28_aarch64 \
        --platform manylinux_2_17_aarch64 --python-version "$PYVER" --implementation cp \
        "${WHEELS[@]}"
    echo "${WHEELS[*]}" > "$SITE/.installed"
fi

# The tests that start a Python of their own run sys.executable: the
# emulated Python, which this machine cannot run by itself (no binfmt_misc
# entry is assumed), so sys.executable names a script that runs it under
# qemu-aarch64.
cat > "$CACHE/python3" <<EOF
#!/bin/sh
exec qemu-aarch64 -L "$SYSROOT" "$SYSROOT/usr/bin/python$PYVER" "\$@"
EOF
chmod +x "$CACHE/python3"
echo "import sys; sys.executable = '$CACHE/python3'" > "$SITE/sitecustomize.py"

# -- 4. the extension modules, built by the emulated Python ------------------
step "building the extension modules for aarch64"
start=$SECONDS
"${PYTHON[@]}" setup.py -q build_ext --inplace
echo "built in $((SECONDS - start)) s"

if [ "${1:-}" = --count ]; then
    # -- 5'. instructions per row, by qemu's plugin ---------------------------
    PLUGIN=$CACHE/insn_count.so
    if [ ! -e "$PLUGIN" ] || [ tools/aarch64/insn_count.c -nt "$PLUGIN" ]; then
        step "building the instruction-counting plugin"
        HEADER=$CACHE/qemu-plugin/qemu-plugin.h
        if [ ! -e "$HEADER" ]; then
            # Debian's qemu source package, through apt with a state of its
            # own: the machine's sources, as deb-src
            SRC=$CACHE/apt-src
            mkdir -p "$SRC/lists/partial" "$SRC/parts" "$CACHE/qemu-plugin"
            [ -e /etc/apt/sources.list ] && sed -n 's/^deb /deb-src /p' /etc/apt/sources.list \
                > "$SRC/parts/one-line.list"
            for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
                [ -e "$f" ] || continue
                sed -e 's/^Types: deb$/Types: deb-src/' -e 's/^deb /deb-src /' "$f" \
                    > "$SRC/parts/$(basename "$f")"
            done
            apt_src() {
                apt-get -q -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$SRC/parts" \
                    -o Dir::State::Lists="$SRC/lists" -o Dir::State::status=/dev/null \
                    -o Debug::NoLocking=1 "$@"
            }
            apt_src update >/dev/null
            (cd "$SRC" && apt_src source --download-only qemu >/dev/null 2>&1)
            tar -xJf "$SRC"/qemu_*.orig.tar.xz -C "$CACHE/qemu-plugin" --strip-components=3 \
                --wildcards '*/include/qemu/qemu-plugin.h'
        fi
        command -v gcc >/dev/null || apt-get install -y -q --no-install-recommends gcc >/dev/null
        gcc -O2 -shared -fPIC -I"$CACHE/qemu-plugin" tools/aarch64/insn_count.c -o "$PLUGIN"
    fi
    step "instructions per row, rank-4 int64 rows, one thread (qemu-aarch64's count)"
    count() {  # level op rows: the instructions of the whole run
        # one thread, fixed hashes: two runs differ by a few thousand instructions
        OPENBLAS_NUM_THREADS=1 XLASHAPE_NUM_THREADS=1 PYTHONHASHSEED=0 PYTHONPATH=$ROOT:$SITE \
            qemu-aarch64 -plugin "$PLUGIN" -L "$SYSROOT" "$SYSROOT/usr/bin/python$PYVER" \
            tools/aarch64/count_insns.py "$@" 2>&1 >/dev/null | sed -n 's/^insns //p'
    }
    for op in ravel unravel; do
        for level in baseline neon; do
            echo "$op $level $(count $level $op 100000) $(count $level $op 200000)"
        done
    done | awk '{ per_row[$1, $2] = ($4 - $3) / 100000
                  printf "%-8s %-8s %7.2f instructions per row\n", $1, $2, per_row[$1, $2] }
                $2 == "neon" { printf "%-8s neon / baseline: %.2f\n", $1, per_row[$1, "neon"] / per_row[$1, "baseline"] }'
    exit 0
fi

# -- 5. the tests ------------------------------------------------------------
step "running the tests under qemu-aarch64"
"${PYTHON[@]}" -c 'import platform, xlashape.cpu as c; print(platform.machine(), c.cpu_features())'
start=$SECONDS
status=0
"${PYTHON[@]}" -m pytest -q -p no:cacheprovider --hypothesis-profile=dev \
    "${@:-${TESTS[@]}}" || status=$?
echo "tests ran in $((SECONDS - start)) s"
exit $status
