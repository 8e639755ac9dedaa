"""``xlashape bench --relayout``: laying arrays out, and reading them back,
against the copy limit, NumPy and ``jax.jit``.

Each row is one shape, in both directions: ``to_linear`` (a C-ordered
array into the shape's linear buffer, ``out=`` given) and ``from_linear``
(the buffer back into a C-ordered array). Beside xlashape run, on the same
data, interleaved round by round in one process:

- **copy**: ``np.copyto`` of a buffer of the same bytes, or with several
  ``--threads`` the same copy split over as many if that is faster (the
  limit; see :func:`~xlashape.cli.bench.measure.copy_calls`);
- **NumPy**: NumPy's best strided copy of the same relayout: ``np.copyto``
  between strided views of the two buffers, one per box of the plan that
  xlashape's mover runs (one box where the sizes are multiples of the
  tiles; a transpose is one view), into warm buffers;
- **jax.jit** (where JAX is installed): the tiling as XLA would write it
  in the program, pad, reshape and transpose (or the reverse and a slice),
  jitted, on arrays already on JAX's CPU device (never a GPU's, where
  there is one), until ``block_until_ready()``.

xlashape's ``from_linear`` allocates its result, as a user's call does
(the result cache hands it the memory the previous result left).

Tiled rows also time each direction into an ``out=`` that starts on a
64-byte line and into one that starts 16 bytes past a line (where
``np.empty`` usually puts a large buffer), in the same rounds: their
medians, and the second's over the first's.

Figures are fractions of the copy: the copy's median time over the
call's, both medians over the same rounds (1.0 runs at copy speed). A
fraction can pass 1 where the call streams its stores past the cache and
the copy does not, or runs on more threads than the copy gained from.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from ... import Shape, cpu
from ...linear import packing, relayout_plan
from ...linear.buffers import from_linear, to_linear
from ...shapes.shape_text import parse_array_shape_string
from ..common import EXIT_USAGE, CommandError
from .measure import copy_calls, fastest_copy, hugepages_text, interleaved_times, machine
from .peers import cpu_device, why_no_jax
from .report import Column, Section, field, markdown_table, text_table, wrap

__all__ = ["ROWS", "Row", "run", "row_times"]


@dataclasses.dataclass(frozen=True)
class Row:
    name: str
    text: str  # the shape; its element type's storage dtype is the array's

    def missing(self) -> str | None:
        """Why this row cannot run here (its element type needs ml_dtypes,
        which is not installed), or None."""
        element_type = parse_array_shape_string(self.text).element_type
        if packing.storage_dtype(element_type) is not None:
            return None
        return (f"{element_type.name.lower()} arrays need ml_dtypes "
                '(pip install "xlashape[ml-dtypes]")')


# 64 MiB arrays (the sizes); --quick divides each dimension by 4.
ROWS = (
    Row("identity", "f32[4096,4096]{1,0}"),
    Row("transpose f32", "f32[4096,4096]{0,1}"),
    Row("transpose bf16", "bf16[4096,8192]{0,1}"),
    Row("transpose f64", "f64[2048,4096]{0,1}"),
    Row("rank-4 permutation", "f32[64,64,64,64]{0,1,2,3}"),
    Row("T(8,128) f32", "f32[4096,4096]{1,0:T(8,128)}"),
    Row("T(8,128)(2,1) bf16", "bf16[4096,8192]{1,0:T(8,128)(2,1)}"),
    Row("T(8,128)(4,1) s8", "s8[8192,8192]{1,0:T(8,128)(4,1)}"),
    Row("padded T(8,128) f32", "f32[4000,4000]{1,0:T(8,128)}"),
)


# Bytes past a 64-byte line of the unaligned out= (np.empty's usual start).
UNALIGNED_BYTES = 16


def at_line_offset(like: np.ndarray, offset: int) -> np.ndarray:
    """A zeroed array of ``like``'s shape and dtype that starts ``offset``
    bytes past a 64-byte line."""
    raw = np.zeros(like.nbytes + 64 + offset, np.uint8)
    start = (-raw.ctypes.data) % 64 + offset
    return raw[start : start + like.nbytes].view(like.dtype).reshape(like.shape)


def _quick(text: str) -> str:
    shape = parse_array_shape_string(text)
    dims = [max(d // 4, 1) for d in shape.dimensions]
    return str(Shape(shape.element_type, dims, shape.layout))


def _strided(buffer: np.ndarray, steps: np.ndarray, start: np.ndarray, count: np.ndarray) -> np.ndarray:
    offset = int(np.dot(start, steps))
    base = buffer.reshape(-1)[offset // buffer.itemsize :] if offset >= 0 else buffer
    return np.lib.stride_tricks.as_strided(base, tuple(count), tuple(steps), writeable=True)


def numpy_call(src: np.ndarray, dst: np.ndarray, plan: relayout_plan.Plan) -> Callable[[], object]:
    """NumPy's strided copies of the plan's boxes, views made once."""
    pairs = [
        (_strided(dst, plan.dst_step, s, c), _strided(src, plan.src_step, s, c))
        for s, c in zip(plan.start, plan.count)
    ]

    def call() -> None:
        for target, source in pairs:
            np.copyto(target, source)

    return call


def _digits(shape: Shape, itemsize: int) -> tuple[tuple[relayout_plan.Axis, ...], list[list[int]]]:
    axes = relayout_plan.shape_axes(shape, itemsize)
    assert axes is not None, f"no digit form for {shape}"
    per_dim = [sorted((k for k, a in enumerate(axes) if a.dim == d), key=lambda k: -axes[k].divisor) for d in range(shape.rank)]
    return axes, per_dim


def jax_calls(shape: Shape, array: np.ndarray, buffer: np.ndarray) -> tuple[Callable[[], object], Callable[[], object]] | None:
    """``jax.jit`` of the layout as reshape and transpose, both directions,
    on the CPU (:func:`~xlashape.cli.bench.peers.cpu_device`); None without
    JAX."""
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None
    axes, per_dim = _digits(shape, array.itemsize)
    split = [axes[k].extent for ks in per_dim for k in ks]
    padded = [int(np.prod([axes[k].extent for k in ks])) for ks in per_dim]
    order = [k for ks in per_dim for k in ks]  # digit k of the split array is axis order[k]
    to_tiled = [order.index(k) for k in range(len(axes))]

    def lay_out(a: Any) -> Any:
        a = jnp.pad(a, [(0, p - d) for p, d in zip(padded, shape.dimensions)])
        return a.reshape(split).transpose(to_tiled).reshape(-1)

    def read_back(b: Any) -> Any:
        a = b.reshape([a.extent for a in axes]).transpose(order).reshape(padded)
        return a[tuple(slice(0, d) for d in shape.dimensions)]

    forward, backward = jax.jit(lay_out), jax.jit(read_back)
    device = cpu_device(jax)
    device_array, device_buffer = jax.device_put(array, device), jax.device_put(buffer, device)
    forward(device_array).block_until_ready()
    backward(device_buffer).block_until_ready()
    return (
        lambda: forward(device_array).block_until_ready(),
        lambda: backward(device_buffer).block_until_ready(),
    )


def row_times(row: Row, threads: int, min_time: float, min_rounds: int, *, quick: bool = False) -> list[dict[str, Any]]:
    """One record per direction: medians and fractions of the copy."""
    text = _quick(row.text) if quick else row.text
    shape = parse_array_shape_string(text)
    dtype = packing.storage_dtype(shape.element_type)
    assert dtype is not None
    array = (np.arange(shape.element_count) % 97).astype(dtype).reshape(shape.dimensions)
    buffer = to_linear(array, shape, out=at_line_offset(to_linear(array, shape), 0))
    back = np.empty_like(array)
    copy_src = buffer.reshape(-1).copy()
    src_axes = relayout_plan.shape_axes(shape, array.itemsize)
    assert src_axes is not None
    to_plan = relayout_plan.plan(shape.dimensions, relayout_plan.array_axes(array), src_axes)
    from_plan = relayout_plan.plan(shape.dimensions, src_axes, relayout_plan.array_axes(back))
    assert to_plan is not None and from_plan is not None
    calls = {
        **copy_calls(copy_src, np.empty_like(copy_src), threads),
        "to_linear": lambda: to_linear(array, shape, out=buffer, threads=threads),
        "from_linear": lambda: from_linear(buffer, shape, threads=threads),
        "numpy to": numpy_call(array, buffer, to_plan),
        "numpy from": numpy_call(buffer, back, from_plan),
    }
    if shape.layout.tiles:  # into out= on a line (to_linear's own buffer) and past one
        placed = at_line_offset(buffer, UNALIGNED_BYTES)
        read = {"aligned": at_line_offset(array, 0), "unaligned": at_line_offset(array, UNALIGNED_BYTES)}
        calls["to_linear unaligned"] = lambda: to_linear(array, shape, out=placed, threads=threads)
        calls["from_linear aligned"] = lambda: from_linear(buffer, shape, out=read["aligned"], threads=threads)
        calls["from_linear unaligned"] = lambda: from_linear(buffer, shape, out=read["unaligned"], threads=threads)
    peers = jax_calls(shape, array, buffer)
    if peers is not None:
        calls["jax to"], calls["jax from"] = peers
    rounds = interleaved_times(calls, min_time, min_rounds)
    copy_threads, copy_times = fastest_copy(rounds)
    times = {name: float(np.median(t)) for name, t in rounds.items()}
    times["copy"] = float(np.median(copy_times))
    records = []
    for direction, ours in (("to", "to_linear"), ("from", "from_linear")):
        record = {
            "row": row.name,
            "shape": text,
            "direction": f"{ours}",
            "threads": threads,
            "level": cpu.cpu_features()["level"],
            "bytes": int(buffer.nbytes),
            "copy_s": times["copy"],
            "copy_threads": copy_threads,
            "xlashape_s": times[ours],
            "xlashape_of_copy": times["copy"] / times[ours],
            "numpy_of_copy": times["copy"] / times[f"numpy {direction}"],
            "jax_of_copy": times["copy"] / times[f"jax {direction}"] if peers else None,
        }
        if f"{ours} unaligned" in times:
            aligned = times.get(f"{ours} aligned", times[ours])
            record["aligned_out_s"] = aligned
            record["unaligned_out_s"] = times[f"{ours} unaligned"]
            record["unaligned_of_aligned"] = times[f"{ours} unaligned"] / aligned
        records.append(record)
    return records


COLUMNS = (
    Column("row", field("row"), key=True),
    Column("call", field("direction"), key=True),
    Column("threads", field("threads"), key=True),
    Column("copy ms", field("copy_s", ".1f", scale=1e3)),
    Column("copy threads", field("copy_threads")),
    Column("xlashape of copy", field("xlashape_of_copy", ".2f")),
    Column("NumPy of copy", field("numpy_of_copy", ".2f")),
    Column("out= ms", field("aligned_out_s", ".1f", scale=1e3)),
    Column(f"out= +{UNALIGNED_BYTES} B ms", field("unaligned_out_s", ".1f", scale=1e3)),
    Column(f"+{UNALIGNED_BYTES} B / aligned", field("unaligned_of_aligned", ".2f")),
    Column("jax.jit CPU of copy", lambda r: None if r["jax_of_copy"] is None else f"{r['jax_of_copy']:.2f}",
           why_empty=why_no_jax),
)


# What the index grid takes and the relayout rows do not: refused, never ignored.
GRID_OPTIONS = ("sizes", "dtypes", "layouts", "levels", "modes", "long", "plot")


def run(args: argparse.Namespace) -> int:
    """The relayout section: every row, each thread count of ``--threads``
    (default 1), at the level in use."""
    given = [f"--{name}" for name in GRID_OPTIONS if getattr(args, name, None)]
    if given:
        raise CommandError(f"--relayout does not take {', '.join(given)} (it takes --threads, --quick, "
                           "--full, --json and --markdown)", EXIT_USAGE)
    min_time, min_rounds = (0.05, 3) if args.quick else (1.0, 7)
    thread_counts = args.threads or [1]
    info = machine()
    cpu_text = f"{info['cpu']} ({info['cores']} cores), level {info['level']}"
    for line in wrap(f"xlashape bench --relayout on {cpu_text}"):
        print(line, file=sys.stderr)
    records = []
    for k, row in enumerate(ROWS, 1):
        if row.missing():
            print(f"[{k}/{len(ROWS)}] {row.name}: skipped, {row.missing()}", file=sys.stderr)
            continue
        for threads in thread_counts:
            print(f"[{k}/{len(ROWS)}] {row.name} threads={threads}", file=sys.stderr)
            records.extend(row_times(row, threads, min_time, min_rounds, quick=args.quick))
    section = Section("relayout", "Relayout: fractions of the copy limit", COLUMNS, records)
    print("\n".join(text_table(section)))
    print("\n" + "\n".join(wrap(
        "Fractions of the copy limit: np.copyto of the same bytes (split over the call's threads where "
        "that was faster; 'copy threads' says which), its median time over the call's, medians over "
        "interleaved rounds. Above 1 is no error: the call may stream its stores past the cache where "
        f"the copy does not. Every call ran on this CPU, JAX's too. {info['cpu']}, {info['cores']} cores, "
        f"level {info['level']}, NumPy {info['numpy']}, {hugepages_text(info)}.")))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(markdown_table(section)) + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "relayout": records}, f, indent=2)
    return 0
