-- lineitem_f: lineitem with its four numeric(15,2) columns as double
-- precision, every other column as it is (the float variant of Q6:
-- q6f.sql, q6f_gpu.sql); made from lineitem once it is loaded
DROP TABLE IF EXISTS lineitem_f;
CREATE TABLE lineitem_f AS
SELECT l_orderkey, l_partkey, l_suppkey, l_linenumber,
       l_quantity::float8 AS l_quantity, l_extendedprice::float8 AS l_extendedprice,
       l_discount::float8 AS l_discount, l_tax::float8 AS l_tax,
       l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate,
       l_shipinstruct, l_shipmode, l_comment
FROM lineitem;
VACUUM (FREEZE, ANALYZE) lineitem_f;
