-- TPC-H Q15, exactly as DuckDB 1.4.4's tpch extension (PyPI duckdb-ext-tpch==1.4.4.20260205) gives it:
--   SELECT query FROM tpch_queries() WHERE query_nr = 15
-- the standard TPC-H text with the specification's default substitution
-- parameters (written by bench/tpch/gen.py --write-queries).
-- PostgreSQL runs it as written: no change.  Where the specification's Q15
-- creates a view (revenue0), queries it and drops it, this text has the same
-- view as a WITH clause: one statement, the same answer.
WITH revenue AS (
    SELECT
        l_suppkey AS supplier_no,
        sum(l_extendedprice * (1 - l_discount)) AS total_revenue
    FROM
        lineitem
    WHERE
        l_shipdate >= CAST('1996-01-01' AS date)
      AND l_shipdate < CAST('1996-04-01' AS date)
    GROUP BY
        supplier_no
)
SELECT
    s_suppkey,
    s_name,
    s_address,
    s_phone,
    total_revenue
FROM
    supplier,
    revenue
WHERE
    s_suppkey = supplier_no
    AND total_revenue = (
        SELECT
            max(total_revenue)
        FROM revenue)
ORDER BY
    s_suppkey;
