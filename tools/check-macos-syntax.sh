#!/usr/bin/env bash
# Check that every C file of the package compiles for macOS, on a Linux
# machine with no Mac and no Apple SDK: clang's syntax-only mode for the
# targets the macOS wheels are built for, against the macOS C library headers
# that the ziglang wheel on PyPI carries.
#
#   tools/check-macos-syntax.sh
#
# For arm64-apple-macos11 (Apple silicon) and x86_64-apple-macos10.9 (Intel:
# cibuildwheel's deployment target for the x86_64 wheels of CPython 3.10 and
# 3.11, 10.13 from 3.12 on), it runs ``clang -fsyntax-only`` on
# 1. the kernels' C files, xlashape/csrc (the baseline and NEON levels for
#    arm64, the baseline, AVX2 and AVX-512 levels, with their target pragmas,
#    for x86_64);
# 2. the C that Cython makes from each .pyx, as setup.py makes it, against
#    NumPy's headers from its macOS wheels and this machine's Python headers
#    (whose pyconfig.h is Linux's, the one header of Python's that is made
#    for each platform: what it proves of Python's headers is less).
# Every warning of -Wall, and of a function newer than the deployment
# target, is an error: on macOS int64_t is long long where NumPy's npy_int64
# is long, so a mixed-up pointer type warns there only.
# The files, include folders, macros and flags are setup.py's own, read from
# its extension modules. It also checks that each target compiles the levels
# it should (arm64: baseline and neon), so that a level that silently drops
# out on macOS fails the check.
#
# It proves that the C parses and type-checks for macOS with its headers:
# no Linux-only header or function, no GNU-only pragma or attribute that
# clang ignores, no function newer than the deployment target. It does not
# prove that Apple's own clang accepts it (a build of clang of its own), nor
# that it links or runs: nothing is linked and nothing runs on macOS.
#
# Needs clang 15 or later (the headers declare _Float16 functions, which
# older clang rejects for x86-64; apt-get installs clang-19 where none is
# found, as root), and a Python with pip, NumPy, Cython and setuptools (the
# build requirements), HOST_PYTHON or python3. Downloads (about 130 MB, once)
# and unpacked headers stay in build/macos-check (which git ignores).
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=build/macos-check
SDK=$CACHE/sdk  # a stand-in for Apple's SDK: only usr/include
ZIG=ziglang==0.17.1  # the release whose headers were checked; any-darwin-any is their folder
HOST_PYTHON=${HOST_PYTHON:-python3}
start=$SECONDS

step() { printf '\n== %s\n' "$*"; }

# -- the compiler: clang 15 or later -------------------------------------------
CLANG=
for candidate in clang clang-21 clang-20 clang-19 clang-18 clang-17 clang-16 clang-15; do
    command -v "$candidate" >/dev/null || continue
    major=$("$candidate" --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p')
    if [ "${major:-0}" -ge 15 ]; then CLANG=$candidate; break; fi
done
if [ -z "$CLANG" ]; then
    step "installing clang-19"
    if [ "$(id -u)" != 0 ]; then
        echo "no clang 15 or later here: run as root, or install clang-19 first" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q --no-install-recommends clang-19 >/dev/null \
        || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends clang-19 >/dev/null; }
    CLANG=clang-19
fi

# -- the macOS headers, from the ziglang wheel ---------------------------------
NUMPY=$("$HOST_PYTHON" -c 'import numpy; print(numpy.__version__)')
PYVER=$("$HOST_PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
if [ "$(cat "$CACHE/.unpacked" 2>/dev/null)" != "$ZIG numpy==$NUMPY cp$PYVER" ]; then
    step "downloading $ZIG and the macOS wheels of numpy==$NUMPY"
    rm -rf "$CACHE"
    mkdir -p "$CACHE/wheels/zig" "$CACHE/wheels/arm64" "$CACHE/wheels/x86_64"
    pip_download() { "$HOST_PYTHON" -m pip download -q --no-deps --only-binary=:all: "$@"; }
    pip_download -d "$CACHE/wheels/zig" "$ZIG"
    # the wheel for the target's macOS, or for a later one where NumPy has
    # none (pip takes the first platform it has a wheel for)
    pip_download -d "$CACHE/wheels/arm64" --platform macosx_11_0_arm64 \
        --platform macosx_14_0_arm64 --python-version "$PYVER" --implementation cp "numpy==$NUMPY"
    pip_download -d "$CACHE/wheels/x86_64" --platform macosx_10_9_x86_64 \
        --platform macosx_14_0_x86_64 --python-version "$PYVER" --implementation cp "numpy==$NUMPY"
    "$HOST_PYTHON" - "$CACHE" <<'PY'
import glob, os, sys, zipfile

cache = sys.argv[1]

def unpack(wheel, folder, into):
    """The files under ``folder`` in ``wheel``, copied under ``into``."""
    with zipfile.ZipFile(wheel) as whl:
        names = [n for n in whl.namelist() if n.startswith(folder) and not n.endswith("/")]
        if not names:
            sys.exit(f"{wheel} has nothing under {folder}")
        for name in names:
            path = os.path.join(into, name[len(folder):])
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with whl.open(name) as src, open(path, "wb") as dst:
                dst.write(src.read())

[zig] = glob.glob(f"{cache}/wheels/zig/*.whl")
unpack(zig, "ziglang/lib/libc/include/any-darwin-any/", f"{cache}/sdk/usr/include")
for arch in ("arm64", "x86_64"):
    [numpy] = glob.glob(f"{cache}/wheels/{arch}/*.whl")
    unpack(numpy, "numpy/_core/include/", f"{cache}/numpy-{arch}")
PY
    rm -rf "$CACHE/wheels"
    echo "$ZIG numpy==$NUMPY cp$PYVER" > "$CACHE/.unpacked"
fi

# Python's headers, with pyconfig.h, which Python.h includes from its own
# folder, taken from where this Python keeps it (Debian: a folder of its own).
PYINC=$CACHE/python-include
rm -rf "$PYINC"
mkdir -p "$PYINC"
"$HOST_PYTHON" - "$PYINC" <<'PY'
import os, shutil, sys, sysconfig

into = sys.argv[1]
include = sysconfig.get_paths()["include"]
for name in os.listdir(include):
    if name != "pyconfig.h":
        os.symlink(os.path.join(include, name), os.path.join(into, name))
config_h = sysconfig.get_config_h_filename()
multiarch = sysconfig.get_config_var("MULTIARCH")
if multiarch:  # Debian's Python: that pyconfig.h picks the file of the CPU from a folder of its own
    own = os.path.join(sysconfig.get_config_var("INCLUDEDIR"), multiarch, os.path.basename(include),
                       "pyconfig.h")
    if os.path.exists(own):
        config_h = own
shutil.copy(config_h, os.path.join(into, "pyconfig.h"))
PY

# -- setup.py's sources and flags, its Cython C made as a build makes it ---------
step "cythonizing, as setup.py does"
# setup.py's own code runs, up to its call of setup(), which here records
# the extension modules instead (so nothing is compiled, and the build's
# flavour stamp is left alone). The C files land where a build puts them.
"$HOST_PYTHON" - "$CACHE/extensions.txt" <<'PY'
import sys

import numpy
import setuptools

record = sys.argv[1]

def setup(ext_modules, **_):
    """Write each C file of the build with its compiler arguments, one a
    line; @numpy@ stands for NumPy's headers, which differ on macOS."""
    with open(record, "w") as out:
        for ext in ext_modules:
            args = ["-I@numpy@" if folder == numpy.get_include() else f"-I{folder}"
                    for folder in ext.include_dirs]
            args += [f"-D{name}={value}" for name, value in ext.define_macros]
            args += ext.extra_compile_args
            for source in ext.sources:
                kind = "kernel" if source.startswith("xlashape/csrc/") else "cython"
                out.write("\t".join([kind, source, *args]) + "\n")
    raise SystemExit(0)

setuptools.setup = setup
sys.argv = ["setup.py"]
with open("setup.py") as f:
    exec(compile(f.read(), "setup.py", "exec"), {"__name__": "__main__", "__file__": "setup.py"})
PY

# -- the checks ----------------------------------------------------------------
# What python.org's macOS builds pass to every extension (sysconfig's
# CFLAGS), and the warnings made errors.
PY_CFLAGS=(-DNDEBUG -fwrapv -fno-common -Wall -Wsign-compare)
STRICT=(-Wunguarded-availability -Werror)
declare -A LEVELS=([arm64]="baseline neon" [x86_64]="baseline avx2 avx512")
failed=0
checked=0
for target in arm64-apple-macos11 x86_64-apple-macos10.9; do
    arch=${target%%-*}
    step "$target ($($CLANG --version | head -1))"
    CC=("$CLANG" "--target=$target" -isysroot "$SDK" -fsyntax-only "${PY_CFLAGS[@]}" "${STRICT[@]}")
    # the levels this target compiles, as levels.h lists them
    levels=$(echo '#include "base/levels.h"' | "${CC[@]/-fsyntax-only/-E}" -dM -Ixlashape/csrc -x c - \
             | sed -n 's/^#define XS_LEVELS(X) //p' | sed 's/X(\([a-z0-9_]*\))/\1/g' | xargs)
    if [ "$levels" != "${LEVELS[$arch]}" ]; then
        echo "FAILED: levels.h gives the levels '$levels' for $target, not '${LEVELS[$arch]}'"
        failed=$((failed + 1))
    else
        echo "levels: $levels"
    fi
    while IFS=$'\t' read -r kind source args; do
        read -ra args <<< "$args"
        args=("${args[@]/#-I@numpy@/-I$CACHE/numpy-$arch}")
        if "${CC[@]}" "${args[@]}" "-I$PYINC" "$source"; then
            echo "ok      $kind $source"
        else
            echo "FAILED  $kind $source"
            failed=$((failed + 1))
        fi
        checked=$((checked + 1))
    done < "$CACHE/extensions.txt"
done

echo
echo "$checked compilations, $failed failed, in $((SECONDS - start)) s"
[ "$failed" = 0 ]
