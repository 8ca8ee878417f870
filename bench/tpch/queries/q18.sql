-- TPC-H Q18, exactly as DuckDB 1.4.4's tpch extension (PyPI duckdb-ext-tpch==1.4.4.20260205) gives it:
--   SELECT query FROM tpch_queries() WHERE query_nr = 18
-- the standard TPC-H text with the specification's default substitution
-- parameters (written by bench/tpch/gen.py --write-queries).
-- PostgreSQL runs it as written: no change.
SELECT
    c_name,
    c_custkey,
    o_orderkey,
    o_orderdate,
    o_totalprice,
    sum(l_quantity)
FROM
    customer,
    orders,
    lineitem
WHERE
    o_orderkey IN (
        SELECT
            l_orderkey
        FROM
            lineitem
        GROUP BY
            l_orderkey
        HAVING
            sum(l_quantity) > 300)
    AND c_custkey = o_custkey
    AND o_orderkey = l_orderkey
GROUP BY
    c_name,
    c_custkey,
    o_orderkey,
    o_orderdate,
    o_totalprice
ORDER BY
    o_totalprice DESC,
    o_orderdate
LIMIT 100;
