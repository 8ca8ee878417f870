-- Primary keys and the usual foreign-key indexes of the TPC-H tables (after
-- the load, which is faster without them), then VACUUM (FREEZE, ANALYZE).
-- lineitem's primary key (l_orderkey, l_linenumber) is its l_orderkey index;
-- partsupp's (ps_partkey, ps_suppkey) its ps_partkey index.
ALTER TABLE region   ADD PRIMARY KEY (r_regionkey);
ALTER TABLE nation   ADD PRIMARY KEY (n_nationkey);
ALTER TABLE part     ADD PRIMARY KEY (p_partkey);
ALTER TABLE supplier ADD PRIMARY KEY (s_suppkey);
ALTER TABLE partsupp ADD PRIMARY KEY (ps_partkey, ps_suppkey);
ALTER TABLE customer ADD PRIMARY KEY (c_custkey);
ALTER TABLE orders   ADD PRIMARY KEY (o_orderkey);
ALTER TABLE lineitem ADD PRIMARY KEY (l_orderkey, l_linenumber);
CREATE INDEX ON lineitem (l_partkey, l_suppkey);
CREATE INDEX ON lineitem (l_suppkey);
CREATE INDEX ON orders (o_custkey);
CREATE INDEX ON partsupp (ps_suppkey);
CREATE INDEX ON customer (c_nationkey);
CREATE INDEX ON supplier (s_nationkey);
CREATE INDEX ON nation (n_regionkey);
VACUUM (FREEZE, ANALYZE);
