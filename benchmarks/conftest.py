"""pytest-benchmark glue: throughput and the ratio to NumPy in the JSON.

Every benchmark sets ``benchmark.extra_info["impl"]`` (``"numpy"`` for the
NumPy baseline) and ``["elements"]``, the number of indices it converts.
When results are saved (``--benchmark-json`` or ``--benchmark-autosave``),
each gets ``elements_per_s`` (from its median) and ``speedup_vs_numpy``:
NumPy's median in the same group over its own.
"""


def pytest_benchmark_update_json(config, benchmarks, output_json):
    numpy_median = {
        b["group"]: b["stats"]["median"]
        for b in output_json["benchmarks"]
        if b["extra_info"].get("impl") == "numpy" and b.get("stats")
    }
    for b in output_json["benchmarks"]:
        stats, info = b.get("stats"), b["extra_info"]
        if not stats or not stats.get("median"):
            continue
        if "elements" in info:
            info["elements_per_s"] = info["elements"] / stats["median"]
        if b["group"] in numpy_median:
            info["speedup_vs_numpy"] = numpy_median[b["group"]] / stats["median"]
