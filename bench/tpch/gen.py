"""TPC-H data for the benchmarks: DuckDB's dbgen (duckdb==1.4.4 with
duckdb-ext-tpch==1.4.4.20260205, the extension file its wheel ships), the
lineitem table written as CSV for PostgreSQL's COPY, and DuckDB's own times
for the same queries on the same data.

  python gen.py SF OUTDIR            lineitem.csv under OUTDIR (unless there)
  python gen.py SF OUTDIR --time Q.sql [--time Q.sql ...] [--runs N]
                                     and DuckDB's median time of each query,
                                     one thread and all threads, one line each
"""
import glob
import os
import statistics
import sys
import time

import duckdb


def connect(sf):
    ext = glob.glob(os.path.join(os.path.dirname(duckdb.__file__), "..", "duckdb_ext",
                                 "extensions", "*", "*", "tpch.duckdb_extension"))
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{os.path.abspath(ext[0])}'")
    con.execute(f"CALL dbgen(sf={sf})")
    return con


def main():
    sf, out = sys.argv[1], sys.argv[2]
    con = connect(sf)
    if not os.path.exists(f"{out}/lineitem.csv"):
        os.makedirs(out, exist_ok=True)
        con.execute(f"COPY lineitem TO '{out}/lineitem.csv' (HEADER false, DELIMITER '|')")
        print(con.execute("SELECT count(*) FROM lineitem").fetchone()[0], "lineitem rows")
    files = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--time"]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
    for f in files:
        q = open(f).read()
        name = os.path.splitext(os.path.basename(f))[0]
        for threads in (1, os.cpu_count()):
            con.execute(f"SET threads = {threads}")
            con.execute(q).fetchall()
            ts = []
            for _ in range(runs):
                t0 = time.perf_counter()
                ans = con.execute(q).fetchall()
                ts.append((time.perf_counter() - t0) * 1000)
            print(f"duckdb {name} threads={threads} median_ms={statistics.median(ts):.1f} answer={ans}",
                  flush=True)


main()
