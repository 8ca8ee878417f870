-- The eight TPC-H tables with the specification's column types, for
-- tpch22.sh (psql -f schema.sql; load22.sql fills them).  lineitem is
-- create.sql's, the table the other benchmarks here load.  Keys are bigint
-- where lineitem's are (l_orderkey, so o_orderkey), integer elsewhere.
-- Primary keys and the usual foreign-key indexes are made by keys.sql after
-- the load; no FOREIGN KEY constraints (the planner is given indexes only).
\ir create.sql
DROP TABLE IF EXISTS region, nation, part, supplier, partsupp, customer, orders;
CREATE TABLE region (
    r_regionkey     integer NOT NULL,
    r_name          char(25) NOT NULL,
    r_comment       varchar(152) NOT NULL
);
CREATE TABLE nation (
    n_nationkey     integer NOT NULL,
    n_name          char(25) NOT NULL,
    n_regionkey     integer NOT NULL,
    n_comment       varchar(152) NOT NULL
);
CREATE TABLE part (
    p_partkey       integer NOT NULL,
    p_name          varchar(55) NOT NULL,
    p_mfgr          char(25) NOT NULL,
    p_brand         char(10) NOT NULL,
    p_type          varchar(25) NOT NULL,
    p_size          integer NOT NULL,
    p_container     char(10) NOT NULL,
    p_retailprice   numeric(15,2) NOT NULL,
    p_comment       varchar(23) NOT NULL
);
CREATE TABLE supplier (
    s_suppkey       integer NOT NULL,
    s_name          char(25) NOT NULL,
    s_address       varchar(40) NOT NULL,
    s_nationkey     integer NOT NULL,
    s_phone         char(15) NOT NULL,
    s_acctbal       numeric(15,2) NOT NULL,
    s_comment       varchar(101) NOT NULL
);
CREATE TABLE partsupp (
    ps_partkey      integer NOT NULL,
    ps_suppkey      integer NOT NULL,
    ps_availqty     integer NOT NULL,
    ps_supplycost   numeric(15,2) NOT NULL,
    ps_comment      varchar(199) NOT NULL
);
CREATE TABLE customer (
    c_custkey       integer NOT NULL,
    c_name          varchar(25) NOT NULL,
    c_address       varchar(40) NOT NULL,
    c_nationkey     integer NOT NULL,
    c_phone         char(15) NOT NULL,
    c_acctbal       numeric(15,2) NOT NULL,
    c_mktsegment    char(10) NOT NULL,
    c_comment       varchar(117) NOT NULL
);
CREATE TABLE orders (
    o_orderkey      bigint NOT NULL,
    o_custkey       integer NOT NULL,
    o_orderstatus   char(1) NOT NULL,
    o_totalprice    numeric(15,2) NOT NULL,
    o_orderdate     date NOT NULL,
    o_orderpriority char(15) NOT NULL,
    o_clerk         char(15) NOT NULL,
    o_shippriority  integer NOT NULL,
    o_comment       varchar(79) NOT NULL
);
