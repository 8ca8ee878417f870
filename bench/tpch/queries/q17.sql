-- TPC-H Q17, exactly as DuckDB 1.4.4's tpch extension (PyPI duckdb-ext-tpch==1.4.4.20260205) gives it:
--   SELECT query FROM tpch_queries() WHERE query_nr = 17
-- the standard TPC-H text with the specification's default substitution
-- parameters (written by bench/tpch/gen.py --write-queries).
-- PostgreSQL runs it as written: no change.
SELECT
    sum(l_extendedprice) / 7.0 AS avg_yearly
FROM
    lineitem,
    part
WHERE
    p_partkey = l_partkey
    AND p_brand = 'Brand#23'
    AND p_container = 'MED BOX'
    AND l_quantity < (
        SELECT
            0.2 * avg(l_quantity)
        FROM
            lineitem
        WHERE
            l_partkey = p_partkey);
