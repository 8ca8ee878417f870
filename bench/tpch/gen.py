"""TPC-H data for the benchmarks: DuckDB's dbgen (duckdb==1.4.4 with
duckdb-ext-tpch==1.4.4.20260205, the extension file its wheel ships), the
tables written as CSV for PostgreSQL's COPY, and DuckDB's own times for the
same queries on the same data.

  python gen.py SF OUTDIR            lineitem.csv under OUTDIR (unless there)
  python gen.py SF OUTDIR --all      all eight tables, TABLE.csv each (unless there)
  python gen.py SF OUTDIR --time Q.sql [--time Q.sql ...] [--runs N]
                                     and DuckDB's median time of each query,
                                     one thread and all threads, one line each
      [--times-csv FILE]             those times also as CSV: query,threads,median_ms
      [--no-csv]                     time only: write no table (dbgen still runs)
  python gen.py --write-queries DIR  the 22 query texts of the extension into
                                     DIR/q01.sql ... q22.sql (done once; committed
                                     in bench/tpch/queries)

The CSV files have no header and '|' as delimiter; each is written under a
temporary name and renamed, so a file that exists is complete.
"""
import glob
import os
import statistics
import sys
import time

import duckdb

TABLES = ("region", "nation", "part", "supplier", "partsupp", "customer", "orders", "lineitem")


# a DuckDB connection with the wheel's tpch extension loaded (and dbgen run at sf, unless None)
def connect(sf):
    ext = glob.glob(os.path.join(os.path.dirname(duckdb.__file__), "..", "duckdb_ext",
                                 "extensions", "*", "*", "tpch.duckdb_extension"))
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{os.path.abspath(ext[0])}'")
    if sf is not None:
        con.execute(f"CALL dbgen(sf={sf})")
    return con


# the extension's 22 query texts as committed files, a header saying where they came from
def write_queries(out):
    con = connect(None)
    os.makedirs(out, exist_ok=True)
    for nr, q in con.execute("SELECT query_nr, query FROM tpch_queries() ORDER BY query_nr").fetchall():
        with open(os.path.join(out, f"q{nr:02d}.sql"), "w") as f:
            f.write(f"-- TPC-H Q{nr}, exactly as DuckDB {duckdb.__version__}'s tpch extension "
                    "(PyPI duckdb-ext-tpch==1.4.4.20260205) gives it:\n"
                    f"--   SELECT query FROM tpch_queries() WHERE query_nr = {nr}\n"
                    "-- the standard TPC-H text with the specification's default substitution\n"
                    "-- parameters (written by bench/tpch/gen.py --write-queries).\n"
                    "-- PostgreSQL runs it as written: no change.\n")
            f.write(q.rstrip() + "\n")
    print("wrote", out)


# TABLE.csv under out for each table asked for, unless the file is there
def write_csv(con, out, tables):
    os.makedirs(out, exist_ok=True)
    for t in tables:
        path = os.path.join(out, f"{t}.csv")
        if os.path.exists(path):
            continue
        con.execute(f"COPY {t} TO '{path}.tmp' (HEADER false, DELIMITER '|')")
        os.rename(f"{path}.tmp", path)
        print(con.execute(f"SELECT count(*) FROM {t}").fetchone()[0], f"{t} rows", flush=True)


# DuckDB's median time of each query file, one thread and all threads
def time_queries(con, files, runs, times_csv):
    rows = []
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
            med = statistics.median(ts)
            rows.append(f"{name},{threads},{med:.1f}")
            print(f"duckdb {name} threads={threads} median_ms={med:.1f} answer={ans}", flush=True)
    if times_csv:
        with open(times_csv, "w") as out:
            out.write("query,threads,median_ms\n" + "".join(r + "\n" for r in rows))


def main():
    if sys.argv[1] == "--write-queries":
        write_queries(sys.argv[2])
        return
    sf, out = sys.argv[1], sys.argv[2]
    con = connect(sf)
    if "--no-csv" not in sys.argv:
        write_csv(con, out, TABLES if "--all" in sys.argv else ("lineitem",))
    files = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--time"]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
    times_csv = sys.argv[sys.argv.index("--times-csv") + 1] if "--times-csv" in sys.argv else None
    time_queries(con, files, runs, times_csv)


main()
