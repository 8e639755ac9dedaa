"""The ``xlashape bench --plot`` figure: throughput against N, log-log.

One panel per operation. Colour tells the layout, line style the
implementation and thread count (xlashape solid, thicker with more
threads; NumPy dashed; numba dash-dot; the copy limit dotted, grey). The
legend sits outside the data, and the caption says what was measured,
where, and with which command.
"""

from __future__ import annotations

from typing import Any

__all__ = ["plot"]

LAYOUT_COLOURS = {"row-major": "tab:blue", "column-major": "tab:green",
                  "permuted": "tab:purple", "padded": "tab:orange",
                  "tiled": "tab:red"}
THREAD_STYLES = ["-", (0, (5, 1)), (0, (3, 1, 1, 1)), (0, (1, 1))]


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit(
            "xlashape: error: --plot needs matplotlib; install it with "
            "pip install 'xlashape[plot]' (or pip install matplotlib)"
        ) from None
    return plt


def plot(records: list[dict[str, Any]], path: str, caption: str = "") -> None:
    """Draw ``records`` (from xlashape.cli.bench.suite.run_case) to ``path``."""
    plt = _pyplot()
    ops = sorted({r["op"] for r in records}) or ["ravel"]
    threads = sorted({r["threads"] for r in records})
    fig, axes = plt.subplots(1, len(ops), figsize=(6.5 * len(ops), 5), squeeze=False)
    for ax, op in zip(axes[0], ops):
        series: dict[tuple[str, str, Any], list[tuple[int, float]]] = {}
        for r in (r for r in records if r["op"] == op):
            key = (r["layout"], r.get("dtype", "int64"))
            series.setdefault((*key, ("xlashape", r["threads"], r.get("level"))), []).append((r["n"], r["xlashape_meps"]))
            if "numpy_meps" in r:
                series.setdefault((*key, ("NumPy",)), []).append((r["n"], r["numpy_meps"]))
            if "numba_meps" in r:
                series.setdefault((*key, ("numba",)), []).append((r["n"], r["numba_meps"]))
            series.setdefault((*key, ("copy limit",)), []).append((r["n"], r["n"] / r["copy_s"] / 1e6))
        for (layout, dtype, impl), points in sorted(series.items(), key=lambda item: str(item[0])):
            points = sorted(set(points))
            xs, ys = zip(*points)
            colour = LAYOUT_COLOURS.get(layout, "black")
            if impl[0] == "xlashape":
                style = THREAD_STYLES[threads.index(impl[1]) % len(THREAD_STYLES)]
                label = f"xlashape {impl[1]} thr, {layout}, {dtype}" + (f", {impl[2]}" if impl[2] else "")
                ax.plot(xs, ys, color=colour, linestyle=style, linewidth=1.5 + threads.index(impl[1]), marker="o", label=label)
            elif impl[0] == "copy limit":
                ax.plot(xs, ys, color="grey", linestyle=":", linewidth=1, label=f"copy limit, {layout}, {dtype}")
            else:
                style = "--" if impl[0] == "NumPy" else "-."
                ax.plot(xs, ys, color=colour, linestyle=style, linewidth=1, marker=".", label=f"{impl[0]}, {layout}, {dtype}")
        ax.set(xscale="log", yscale="log", xlabel="N (indices)", ylabel="M indices / s", title=op)
        ax.grid(True, which="both", alpha=0.3)
    handles, labels = axes[0][-1].get_legend_handles_labels()
    for ax in axes[0][:-1]:
        more_handles, more_labels = ax.get_legend_handles_labels()
        for h, label in zip(more_handles, more_labels):
            if label not in labels:
                handles.append(h)
                labels.append(label)
    if handles:
        fig.legend(handles, labels, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=7, frameon=False)
    if caption:
        fig.text(0.01, 0.01, caption, fontsize=7, wrap=True, va="bottom")
    fig.tight_layout(rect=(0, 0.1 if caption else 0, 1, 1))
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
