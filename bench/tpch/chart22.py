"""The chart of a tpch22.sh run: for each workers setting, each query's
median time (log scale) under PostgreSQL's plan, the default plan (a mark
where GpuReduce was in it) and DuckDB (1 thread and all threads).

  python chart22.py OUTDIR/results.csv OUTDIR/chart.png

tpch22.sh calls it when matplotlib can be imported; nothing needs it.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


# a float from a CSV field, None when empty
def num(v):
    return float(v) if v else None


def main():
    rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["query"] != "total"]
    workers = sorted({r["workers"] for r in rows}, key=int)
    fig, axes = plt.subplots(len(workers), 1, figsize=(12, 3.5 * len(workers)), squeeze=False)
    series = (("native_ms", "PostgreSQL's plan"), ("node_ms", "default plan (gpu_reduce)"),
              ("duckdb_1t_ms", "DuckDB, 1 thread"), ("duckdb_all_ms", "DuckDB, all threads"))
    width = 0.2
    for ax, w in zip(axes[:, 0], workers):
        rs = [r for r in rows if r["workers"] == w]
        xs = range(len(rs))
        for i, (key, label) in enumerate(series):
            vals = [num(r[key]) for r in rs]
            if all(v is None for v in vals):
                continue
            ax.bar([x + (i - 1.5) * width for x in xs], [v or 0 for v in vals], width, label=label)
        for x, r in zip(xs, rs):
            if r["node_in_plan"] == "1":
                ax.annotate("GpuReduce", (x, 1), rotation=90, fontsize=7, ha="center", va="bottom",
                            xycoords=("data", "axes fraction"), xytext=(0, -60), textcoords="offset points")
        ax.set_yscale("log")
        ax.set_xticks(list(xs))
        ax.set_xticklabels([r["query"].upper() for r in rs])
        ax.set_ylabel("ms (median)")
        ax.set_title(f"max_parallel_workers_per_gather = {w}")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=100)
    print("wrote", sys.argv[2])


main()
