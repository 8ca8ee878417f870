#!/usr/bin/env python3
"""test/fuzz/fuzz.py -- differential query generator for gpu_reduce.

Each random aggregate query runs twice in one psql session under the same random
settings: with gpu_reduce.bulk_scan = on (Custom Scan (GpuReduce), where the
planner takes it) and off (PostgreSQL's own plan, the reference).  Rows must
agree as psql's unaligned text (a sorted multiset unless ORDER BY ... LIMIT
fixed the order), errors by SQLSTATE.

  python3 test/fuzz/fuzz.py --seed S --count N [--host DIR --port P --dbname D --user U]
      [--out DIR] [--settings-profile cpu|gpu] [--negative-control]
      [--server-log FILE] [--time-limit SECONDS]       (--help for the rest)

Design
  Tables     make_tables(): three per seed from random.Random(seed), filled by
             INSERT ... SELECT over generate_series(), one expression of g per
             column (Column): NULL fractions, duplicates, the types' limits,
             NaN/Infinity, -0, 1e16/1/-1e16, mixed numeric scales, DST-adjacent
             times, long and compressible text; a column dropped and one added
             with a DEFAULT after the load, dead tuples, an index, a range or
             list partitioned table (a partition attached with another column
             order) or an inheritance child.  make_dim(): one or two small
             dimensions (fz<seed>_j0, _j1; their own random stream): an int2/
             int4/int8/date key xk with NULLs (sometimes all: an empty hash
             table) and duplicates (many-to-many), xk2 for composite keys, xv
             for a snowflake, a column of each other class.
  Joins      gen_joins(): a quarter of the queries join the fact table (mostly
             a plain one, the node's probe table) to the dimensions: xk = a fact
             column of its class (int4 = int8 too), sometimes AND xk2 = another,
             sometimes the second dimension to the first (xv); now and then a
             shape the node declines (LEFT/RIGHT/FULL JOIN, a '<' join clause, an
             aggregate over two relations).  Now and then (any query) a semi or
             anti join to a dimension: EXISTS, NOT EXISTS (xk = a fact column,
             sometimes a second clause, the dimension's own WHERE) or IN.
             Keys, aggregates and conjuncts come
             from the fact's or a dimension's ExprGen (DimView: columns
             qualified by the alias); in half of them only plain columns.
  Queries    ExprGen, gen_query(): 0-3 GROUP BY keys, 1-6 native and gpu_*
             aggregates over columns and expressions, WHERE conjuncts of every
             kind the node compiles and some it declines (half the queries leave
             those out, so that the node runs more), HAVING, ORDER BY, LIMIT.
             A Query keeps its parts: rendered for either side, corrupted
             (--negative-control) or shrunk (minimise) from them.
  Settings   gen_settings(): parallel workers, batch_rows, page_path, work_mem,
             enable_hashagg, native_aggregates, TimeZone, ...; SET and RESET ALL,
             or SET LOCAL in a transaction with a savepoint around each side.
  Reference  Where the node runs a query it answers native float sums, averages
             and variances (native_aggregates = exact) exactly, as gpu_sum,
             gpu_avg, gpu_variance do, and native min/max of floats and numerics
             by gpu_min's rule for equal values (-0 < 0, 1.5 < 1.50): there the
             reference calls those gpu_* aggregates, whose answers no plan
             changes.  Native float sums are generated only under exact.  Float
             and unconstrained numeric keys are shown normalised (+ 0,
             trim_scale): a group shows its first row's -0/0 or 1.50/1.5.  Where
             both sides are PostgreSQL's parallel plan, row order decides native
             float sums and float/numeric min/max: not compared.  A difference
             PostgreSQL's plan makes by its row order alone (an error past a
             LIMIT, which of two errors comes first) is run again to tell; so is
             a join's error that PostgreSQL's join skipped by never reading a
             relation (the other side empty): that relation's scan alone, or
             another join method, must fail as the node did.
  Protocol   Server: one psql process (-X -q -A -t, ON_ERROR_STOP=0) per batch,
             a marker (\\echo @@END tag :SQLSTATE ...) after each statement of
             interest.  Phase 1 EXPLAINs each query (GpuReduce in the plan?),
             phase 2 runs both sides.  A lost connection or a crash in the
             server log is a crash of the query in flight: wait for the server,
             go on with the next query.
  Failures   Each is shrunk a little (aggregates, conjuncts, keys, HAVING, ORDER
             BY, settings, joins no other part reads dropped one at a time while
             it still fails; bounded) and written to --out as a replayable SQL
             script: the tables' DDL
             and data, the settings, both queries, both outputs.

The last line is 'N passed, M failed' (N: queries whose answers agreed; M:
differences and crashes); the exit status is 0 only when M is 0.
"""

import argparse
import collections
import copy
import datetime
import os
import random
import re
import subprocess
import sys
import time

PRIMES = [7, 13, 31, 101, 211, 1009, 7919, 104729]
# native aggregates of the sum and variance families, and the gpu_* aggregate answering as the node does
SUM_FAMILY = {'sum': 'gpu_sum', 'avg': 'gpu_avg', 'variance': 'gpu_variance', 'var_samp': 'gpu_variance',
              'var_pop': 'gpu_var_pop', 'stddev': 'gpu_stddev', 'stddev_samp': 'gpu_stddev',
              'stddev_pop': 'gpu_stddev_pop'}
GPU_ARITH = ['gpu_sum', 'gpu_avg', 'gpu_variance', 'gpu_var_pop', 'gpu_stddev', 'gpu_stddev_pop']
GPU_ORDER = ['gpu_min', 'gpu_max', 'gpu_top2', 'gpu_topk']
NUMBER = ('int', 'float', 'num')
TIME = ('date', 'ts', 'tz')
ZONES = ['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT+12', 'Etc/GMT-14', 'America/New_York', 'Europe/Berlin',
         'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns',
         'Pacific/Kiritimati', 'Pacific/Apia']
WORDS = ['a', 'A', 'ab', 'b ', '', '  x', 'abc', 'ABC', 'abcdefgh', 'abcdefghijk', 'zeta', 'Zeta', 'é',
         '日本語', 'ab%', 'a_b', 'x y', 'k1']
CRASH_RE = re.compile(r'terminated by signal|was terminated by exception|TRAP:|PANIC:')
LOST_RE = re.compile(r'connection to server was lost|server closed the connection unexpectedly')
FAILED = ('diff', 'crash')


def q(s):
    """A SQL string literal."""
    return "'" + s.replace("'", "''") + "'"


# ---------------------------------------------------------------- tables

class Column:
    """A generated column: name, SQL type, value class, the expression of g that fills it,
    literals to compare it with, estimated distinct values, whether a key of it is shown
    normalised, whether it is an unconstrained numeric."""

    def __init__(self, name, sqltype, cls, expr, lits, nd, norm=False, unconstrained=False):
        self.name, self.sqltype, self.cls, self.expr = name, sqltype, cls, expr
        self.lits, self.nd, self.norm, self.unconstrained = lits, nd, norm, unconstrained


def wrap(rng, base, specials, sqltype):
    """The column's expression: base with a random NULL fraction and a few rare special values."""
    whens = []
    pct = 100 if rng.random() < 0.02 else rng.choice([0, 0, 1, 5, 20, 50, 90])
    if pct:
        whens.append(f"WHEN (g::int8 * {rng.choice(PRIMES)} + {rng.randrange(100)}) % 100 < {pct} THEN NULL")
    for sp in rng.sample(specials, min(len(specials), rng.choice([0, 1, 2, 3]))):
        whens.append(f"WHEN g % {rng.choice([37, 53, 97, 211, 1009, 4999])} = {rng.randrange(37)} THEN {sp}")
    if not whens:
        return f"({base})::{sqltype}"
    return f"(CASE {' '.join(whens)} ELSE {base} END)::{sqltype}"


def int_column(rng, name, typ, rows, p):
    """An int2, int4 or int8 Column: few or many values, or the whole range, and the limits."""
    lim = {'int2': 32767, 'int4': 2147483647, 'int8': 9223372036854775807}[typ]
    mode = rng.choice(['small', 'small', 'mid', 'wide'] + (['seq'] if typ != 'int2' else []))
    r = {'small': rng.choice([2, 3, 7, 20]), 'mid': rng.choice([100, 1000, 5000])}.get(mode, rows)
    if mode == 'wide':
        base = {'int2': f"(g::int8 * {p}) % 65536 - 32768",
                'int4': f"(g::int8 * {p} * 40503) % 4294967296 - 2147483648",
                'int8': f"((g::int8 * {p}) % 9 - 4) * 1000000000000000000 + g::int8 * {p}"}[typ]
        r = max(r, 10)
    else:
        base = 'g' if mode == 'seq' else f"(g::int8 * {p}) % {r} - {r // 2}"
    lits = [str(v) for v in (0, 1, -1, r // 3, -(r // 4), lim, -lim - 1)] + ['1.5', '2.0']
    lits += {'int2': ['100000', '-40000'], 'int4': ['9999999999', '-2147483649'],
             'int8': ['1e19', '-9223372036854775809']}[typ]
    return Column(name, typ, 'int', wrap(rng, base, [str(lim), str(-lim - 1), '0'], typ), lits, min(r, rows))


def float_column(rng, name, typ, rows, p):
    """A float4 or float8 Column: a grid, cancelling 1e16/1/-1e16, 1 and 2^-53, tiny or huge
    magnitudes, a large mean with a small spread; NaN, the infinities, -0, the limits."""
    mode = rng.choice(['grid', 'grid', 'cancel', 'eps', 'scaled', 'bigmean'])
    r, d = rng.choice([10, 1000, 100000]), rng.choice([1, 4, 7, 1000])
    nd = {'grid': r, 'cancel': 3, 'eps': 2, 'scaled': 1000, 'bigmean': 4}[mode]
    e = rng.choice([-300, -160, -20, 20, 150, 300] if typ == 'float8' else [-40, -10, 10, 30, 35])
    base = {'grid': f"((g::int8 * {p}) % {r} - {r // 2}) / {d}::float8",
            'cancel': 'CASE g % 3 WHEN 0 THEN 1e16 WHEN 1 THEN 1 ELSE -1e16 END',
            'eps': 'CASE WHEN g % 4 = 0 THEN 1 ELSE 1.1102230246251565e-16 END',
            'scaled': f"((g::int8 * {p}) % 1000 - 500) * 1e{e}::float8",
            'bigmean': f"1e12 + ((g::int8 * {p}) % 4) * 0.25"}[mode]
    specials = ["'NaN'", "'Infinity'", "'-Infinity'", "'-0'"] + (
        ["'1e308'", "'-1e308'", "'5e-324'"] if typ == 'float8' else ["'3.4028235e38'", "'1e-45'"])
    expr = wrap(rng, base, rng.sample(specials, 3), typ)
    lits = ['0', "'-0'", '0.5', '1e16', '-1e16', "'NaN'", "'Infinity'", str(r // 3), str(-(r // 5))]
    return Column(name, typ, 'float', expr, lits, min(nd, rows), norm="'-0'" in expr)


def numeric_column(rng, name, typ, rows, p):
    """A numeric(p,s) Column (typ numeric_s; NaN) or an unconstrained one (typ numeric: mixed
    scales, more than 38 digits, NaN and the infinities)."""
    if typ == 'numeric_s':
        prec, scale = rng.choice([(12, 2), (10, 4), (18, 0), (30, 10), (6, 6), (38, 2)])
        k, d = rng.randint(0, min(prec - scale, 15)), rng.randint(0, scale + 1)
        r = 10 ** (k + d) if rng.random() < 0.6 else rng.choice([3, 10, 50])
        d = max(d, len(str(r)) - k)  # |value| < 10^k / 2: it fits the precision
        base = f"((g::numeric * {p}123) % {r} - {r // 2}) / {10 ** d}"
        sqltype = f"numeric({prec},{scale})"
        lits = ['0', "'NaN'", "'Infinity'", "'-Infinity'", str(r // 3 / 10 ** d), str(-(r // 7) / 10 ** d),
                '0.001', '1e20']
        return Column(name, sqltype, 'num', wrap(rng, base, ["'NaN'"], sqltype), lits, min(r, rows))
    mode = rng.choice(['mixed', 'mixed', 'huge', 'grid'])
    x = f"((g::int8 * {p}) % 1000 - 500) / 8.0"
    base = {'mixed': f"CASE g % 4 WHEN 0 THEN ({x})::numeric(20,1) WHEN 1 THEN ({x})::numeric(20,3) "
                     f"WHEN 2 THEN ({x})::numeric(20,0) ELSE {x} END",
            'huge': "CASE WHEN g % 2 = 0 THEN g::numeric * 1e35 + 0.123456789 ELSE g * 1e-30 END",
            'grid': f"((g::int8 * {p}) % 100000) / 100.0"}[mode]
    lits = ['0', '1.5', '1.50', "'NaN'", "'Infinity'", "'-Infinity'", '62.5', '-3']
    expr = wrap(rng, base, ["'NaN'", "'Infinity'", "'-Infinity'"], 'numeric')
    return Column(name, 'numeric', 'num', expr, lits, rows if mode == 'huge' else 1000, True, True)


def time_column(rng, name, typ, rows, p):
    """A date, timestamp or timestamptz Column: few or many values, minutes around New York's
    2021 DST changes, the infinities and the types' limits."""
    if typ == 'date':
        r = rng.choice([7, 400, 30000])
        base = f"date '2000-01-01' + ((g::int8 * {p}) % {r} - {r // 3})::int4"
        days = [rng.randrange(r) - r // 3 for _ in range(4)]
        lits = [f"date '{datetime.date(2000, 1, 1) + datetime.timedelta(days=x)}'" for x in days]
        lits.append("'infinity'::date")
        specials = ["'infinity'", "'-infinity'", "'4713-01-01 BC'", "'5874897-12-31'"]
        return Column(name, 'date', 'date', wrap(rng, base, specials, 'date'), lits, min(r, rows))
    tz = typ == 'timestamptz'
    # whole minutes, seconds, hours only: timestamptz + interval is then the same in every zone
    r = rng.choice([24, 5000, 100000])
    u = rng.choice(['1 second', '37 minutes', '9 hours'] + ([] if tz else ['1 day']))
    start = rng.choice(['2000-01-01 00:00', '2021-03-14 01:00', '2021-11-07 00:30', '1969-12-31 23:00'])
    if rng.random() < 0.4:
        u, r = '1 minute', 240
        start = rng.choice(['2021-03-14 06:00', '2021-11-07 05:00'] if tz else
                           ['2021-03-14 01:00', '2021-11-07 00:30'])
    zone = '+00' if tz else ''
    base = f"{typ} '{start}{zone}' + ((g::int8 * {p}) % {r}) * interval '{u}'"
    t0 = datetime.datetime.fromisoformat(start)
    mins = [rng.randrange(max(r, 60)) * 7 for _ in range(3)]
    lits = [f"{typ} '{t0 + datetime.timedelta(minutes=m)}{zone}'" for m in mins]
    lits += [f"date '{t0.date()}'", f"'infinity'::{typ}"]
    specials = ["'infinity'", "'-infinity'"]
    specials += [] if tz else ["'294276-12-31 23:59:59'", "'4713-01-01 00:00 BC'"]
    return Column(name, typ, 'tz' if tz else 'ts', wrap(rng, base, specials, typ), lits, min(r, rows))


def make_column(rng, name, typ, rows):
    """A Column of type typ (TYPES: numeric_s is numeric(p,s), varchar and bpchar get a length)."""
    p = rng.choice(PRIMES)
    if typ in ('int2', 'int4', 'int8'):
        return int_column(rng, name, typ, rows, p)
    if typ in ('float4', 'float8'):
        return float_column(rng, name, typ, rows, p)
    if typ in ('numeric_s', 'numeric'):
        return numeric_column(rng, name, typ, rows, p)
    if typ in ('date', 'timestamp', 'timestamptz'):
        return time_column(rng, name, typ, rows, p)
    if typ == 'bool':
        r = rng.choice([2, 3, 10])
        expr = wrap(rng, f"(g::int8 * {p}) % {r} < {rng.randint(1, r - 1)}", [], 'bool')
        return Column(name, 'bool', 'bool', expr, ['true', 'false'], 2)
    words = rng.sample(WORDS, rng.randint(3, len(WORDS)))
    mode = rng.choice(['words', 'words', 'k', 'long'])
    base = {'words': f"(ARRAY[{', '.join(q(w) for w in words)}])[1 + (g::int8 * {p}) % {len(words)}]",
            'k': f"'k' || ((g::int8 * {p}) % {rng.choice([10, 1000])})",
            'long': f"lpad(((g::int8 * {p}) % 300)::text, 9, 'v')"}[mode]
    sqltype = {'text': 'text', 'varchar': f"varchar({rng.choice([1, 3, 10])})",
               'bpchar': f"char({rng.choice([1, 4, 8])})"}[typ]
    lits = [q(w) for w in rng.sample(WORDS, 4)] + ["'k7'", "'vvvvvv100'"]
    expr = wrap(rng, base, ["repeat('xyz', 700)"], sqltype)
    return Column(name, sqltype, 'text', expr, lits, {'words': len(words), 'k': 1000, 'long': 300}[mode])


class Table:
    """A generated table (or partitioned or inheritance tree): its columns and the DDL that makes it."""

    def __init__(self, name, kind, rows):
        self.name, self.kind, self.rows = name, kind, rows
        self.columns, self.ddl = [], []


TYPES = ['int2', 'int4', 'int8', 'float4', 'float8', 'numeric_s', 'numeric', 'date', 'timestamp',
         'timestamptz', 'bool', 'text', 'varchar', 'bpchar']
PREFIX = {'int2': 's', 'int4': 'i', 'int8': 'l', 'float4': 'r', 'float8': 'f', 'numeric_s': 'n',
          'numeric': 'u', 'date': 'd', 'timestamp': 'ts', 'timestamptz': 'tz', 'bool': 'b', 'text': 't',
          'varchar': 'v', 'bpchar': 'c'}


def make_table(rng, name, kind, rows):
    """One Table of a kind (plain, range, list, inherit) with every type, some twice."""
    t = Table(name, kind, rows)
    types = TYPES + rng.sample(['int4', 'int8', 'float8', 'numeric_s', 'numeric_s', 'date', 'text', 'int2'],
                               3)
    rng.shuffle(types)
    count = {}
    cols = [Column('id', 'int4', 'int', 'g', ['1000', '0', '-5', str(rows // 2)], rows)]
    if kind in ('range', 'list'):
        r = 1000 if kind == 'range' else 7
        pk = wrap(rng, f"(g::int8 * {rng.choice(PRIMES)}) % {r}", [], 'int4')
        cols.append(Column('pk', 'int4', 'int', pk, ['3', '300', '700'], r))
    for typ in types:
        count[typ] = count.get(typ, 0) + 1
        cols.append(make_column(rng, f"{PREFIX[typ]}{count[typ]}", typ, rows))
    allcols = cols[:]
    allcols.insert(rng.randrange(1, len(allcols) + 1), make_column(rng, 'gone', rng.choice(TYPES), rows))
    names, exprs = ', '.join(c.name for c in allcols), ', '.join(c.expr for c in allcols)
    defs = ', '.join(f"{c.name} {c.sqltype}" for c in allcols)
    ddl = t.ddl
    ddl.append(f"DROP TABLE IF EXISTS {name} CASCADE")
    if kind in ('range', 'list'):
        first, second = ("FROM (MINVALUE) TO (300)", "FROM (300) TO (700)") if kind == 'range' else \
            ("IN (0, 1, 2)", "IN (3, 4)")
        # the second partition made apart, its columns in another order after a dropped one, then attached
        rdefs = ', '.join(f"{c.name} {c.sqltype}" for c in reversed(allcols))
        ddl += [f"CREATE TABLE {name} ({defs}) PARTITION BY {kind.upper()} (pk)",
                f"CREATE TABLE {name}_p0 PARTITION OF {name} FOR VALUES {first}",
                f"CREATE TABLE {name}_p1 (junk int8, {rdefs})", f"ALTER TABLE {name}_p1 DROP COLUMN junk",
                f"ALTER TABLE {name} ATTACH PARTITION {name}_p1 FOR VALUES {second}",
                f"CREATE TABLE {name}_pd PARTITION OF {name} DEFAULT"]
    else:
        ddl.append(f"CREATE TABLE {name} ({defs})")
    ddl.append(f"INSERT INTO {name} ({names}) SELECT {exprs} FROM generate_series(1, {rows}) g")
    nrows = rows
    if kind == 'inherit':
        crows = rng.randint(500, max(600, rows // 3))
        ddl += [f"CREATE TABLE {name}_c (extra int8) INHERITS ({name})",
                f"INSERT INTO {name}_c ({names}, extra) SELECT {exprs}, g "
                f"FROM generate_series({rows + 1}, {rows + crows}) g"]
        nrows += crows
    if rng.random() < 0.5:
        ddl += [f"DELETE FROM {name} WHERE id % {rng.choice([13, 53, 97])} = 0",
                f"UPDATE {name} SET id = id WHERE id % {rng.choice([7, 71])} = 1"]
    added_type = rng.choice(['int4', 'numeric_s', 'float8', 'text', 'date', 'bool'])
    added = make_column(rng, 'added', added_type, rows)
    default = rng.choice([x for x in added.lits[:3] if 'Infinity' not in x])
    added.lits.append(default)
    cols.append(added)
    extra = rng.randint(100, 1500)
    ddl += [f"ALTER TABLE {name} DROP COLUMN gone",
            f"ALTER TABLE {name} ADD COLUMN added {added.sqltype} DEFAULT {default}",
            f"INSERT INTO {name} ({', '.join(c.name for c in cols)}) "
            f"SELECT {', '.join(c.expr for c in cols)} FROM generate_series({nrows + 1}, {nrows + extra}) g"]
    if rng.random() < 0.5:
        ddl.append(f"CREATE INDEX ON {name} ({rng.choice([c.name for c in cols if c.cls in NUMBER + TIME])})")
    ddl.append(f"{rng.choice(['ANALYZE', 'VACUUM ANALYZE'])} {name}")
    t.columns, t.rows = cols, nrows + extra
    return t


def make_dim(rng, name):
    """A small dimension Table (kind 'dim') for joins: a key xk (int2, int4, int8 or date) over
    values the fact tables' columns of its class take, some NULL keys, sometimes duplicate keys
    (a many-to-many join); xk2 (int4, a few values) for composite keys, xv (int4) a snowflake's
    key to the other dimension's xk or xk2, and a column of each other class.  Its columns are
    referenced qualified by the query's alias (dim_view)."""
    t = Table(name, 'dim', 0)
    ktype = rng.choice(['int2', 'int4', 'int8', 'int4', 'date'])
    r, dup = rng.choice([5, 20, 100, 1000]), rng.choice([1, 1, 1, 2, 3])
    rows = r * dup
    p = rng.choice(PRIMES)
    if ktype == 'date':
        base = f"date '2000-01-01' + (g % {r} - {r // 3})::int4"
        lits = [f"date '{datetime.date(2000, 1, 1) + datetime.timedelta(days=rng.randrange(r) - r // 3)}'"
                for _ in range(3)]
        cls = 'date'
    else:
        base = rng.choice([f"g % {r} - {r // 2}", f"g % {r}", f"(g::int8 * {p}) % {r} - {r // 2}"])
        lits = [str(v) for v in (0, 1, -1, r // 3, -(r // 4))]
        cls = 'int'
    nulls = 100 if rng.random() < 0.05 else rng.choice([0, 0, 5, 20])  # 100: no key, an empty hash table
    kexpr = f"(CASE WHEN (g::int8 * 37) % 100 < {nulls} THEN NULL ELSE {base} END)::{ktype}" if nulls else \
        f"({base})::{ktype}"
    cols = [Column('xk', ktype, cls, kexpr, lits, r),
            Column('xk2', 'int4', 'int', f"((g::int8 * {p}) % 7 - 3)::int4", ['0', '1', '-3', '3'], 7)]
    rv = rng.choice([5, 20, 100, 1000])
    cols.append(Column('xv', 'int4', 'int', wrap(rng, f"(g::int8 * {rng.choice(PRIMES)}) % {rv} - {rv // 2}",
                                                  ['0'], 'int4'), ['0', '1', str(rv // 3)], min(rv, rows)))
    for cname, typ in (('xn', 'numeric_s'), ('xf', 'float8'), ('xi', 'int8'), ('xdt', 'date'), ('xt', 'text'),
                       ('xb', 'bool')):
        cols.append(make_column(rng, cname, typ, rows))
    t.ddl += [f"DROP TABLE IF EXISTS {name} CASCADE",
              f"CREATE TABLE {name} ({', '.join(f'{c.name} {c.sqltype}' for c in cols)})",
              f"INSERT INTO {name} ({', '.join(c.name for c in cols)}) "
              f"SELECT {', '.join(c.expr for c in cols)} FROM generate_series(1, {rows}) g"]
    if rng.random() < 0.3:
        t.ddl.append(f"DELETE FROM {name} WHERE xk2 = {rng.randint(-3, 3)}")
    if rng.random() < 0.3:
        t.ddl.append(f"CREATE INDEX ON {name} (xk)")
    t.ddl.append(f"ANALYZE {name}")
    t.columns, t.rows = cols, rows
    return t


class DimView:
    """A dimension's columns as one query references them: qualified by its alias (for ExprGen)."""

    def __init__(self, dim, alias):
        self.name, self.columns = dim.name, []
        for c in dim.columns:
            v = copy.copy(c)
            v.name = f"{alias}.{c.name}"
            self.columns.append(v)


def make_tables(rng, seed):
    """The seed's tables: a large plain one, one maybe partitioned, one maybe with an inheritance
    child; then one or two small dimensions (kind 'dim') that join queries join them to, made from
    another random stream so that the seed's other tables stay as they were."""
    kinds = ['plain', rng.choice(['range', 'list', 'plain']), rng.choice(['inherit', 'plain'])]
    rows = [rng.randint(10000, 60000), int(2000 * 20 ** rng.random()), rng.randint(8000, 30000)]
    tables = [make_table(rng, f"fz{seed}_{k}", kind, n) for k, (kind, n) in enumerate(zip(kinds, rows))]
    drng = random.Random(f"dims {seed}")
    return tables + [make_dim(drng, f"fz{seed}_j{k}") for k in range(drng.choice([1, 2, 2]))]


# ---------------------------------------------------------------- queries

# A GROUP BY key: its expression, what the select list shows, estimated groups, its column if plain.
Key = collections.namedtuple('Key', 'sql out nd col')


class Agg:
    """An aggregate call: function ('count*' for count(*)), argument, argument class, k of gpu_topk."""

    def __init__(self, func, arg=None, cls=None, k=None):
        self.func, self.arg, self.cls, self.k = func, arg, cls, k

    def sql(self, rewrite=False):
        """The call; rewrite: in the gpu_* form whose answer the node gives for a native aggregate."""
        func = self.func
        if rewrite and func in SUM_FAMILY and self.cls == 'float':
            func = SUM_FAMILY[func]
        elif rewrite and func in ('min', 'max') and self.cls in ('float', 'num'):
            func = 'gpu_' + func
        if func == 'count*':
            return 'count(*)'
        return f"gpu_topk({self.arg}, {self.k})" if func == 'gpu_topk' else f"{func}({self.arg})"

    def native_float_sum(self):
        """Whether PostgreSQL's own rounding, so row order, decides this aggregate outside the node."""
        return self.func in SUM_FAMILY and self.cls == 'float'


class ExprGen:
    """Random expressions, conditions, keys and aggregates over one table's columns.
    friendly: leave out what the node is known to decline (text functions, arithmetic and
    comparisons of unconstrained numerics, ...), so that more queries reach it.  plain: keys and
    aggregate arguments are columns (a join's node takes only expressions that cannot raise an error)."""

    def __init__(self, rng, table, friendly=False, plain=False):
        self.r, self.t, self.friendly, self.plain = rng, table, friendly, plain
        self.by, self.arith = {}, {}
        for c in table.columns:
            self.by.setdefault(c.cls, []).append(c)
            if not (friendly and c.unconstrained):
                self.arith.setdefault(c.cls, []).append(c)

    def col(self, cls):
        """A random column of a class, or None."""
        return self.r.choice(self.by[cls]) if cls in self.by else None

    def value(self, cls, depth):
        """A random expression of class int, float or num (its SQL type stays in the class)."""
        r, rnd = self.r, self.r.random()
        if depth <= 0 or rnd < 0.4:
            if self.arith.get(cls) and r.random() < 0.75:
                return r.choice(self.arith[cls]).name
            return r.choice({'int': ['0', '1', '-3', '7', '1000', '100000', '32767', '2147483647'],
                             'float': ['0.5::float8', '2::float4', '1e300::float8', "'-0'::float8",
                                       '-1.5::float8'],
                             'num': ['1.5', '0.01', '100', '-2.125', '0', 'extract(year from d1)']}[cls])
        a = self.value(cls, depth - 1)
        if rnd < 0.65:
            op = r.choice({'int': '+-*+-*/%', 'float': '+-*+-*/', 'num': '+-*+-*/'}[cls])
            b = self.value('int' if cls == 'num' and r.random() < 0.25 else cls, depth - 1)
            if op in '/%' and r.random() < 0.5:
                b = f"NULLIF({b}, 0)"
            return f"({a} {op} {b})"
        if rnd < 0.72:
            return f"{r.choice(['-', 'abs'])}({a})"
        if rnd < 0.82:
            src = r.choice({'int': ['float', 'num'], 'float': ['int', 'num'], 'num': ['int', 'num']}[cls])
            to = r.choice({'int': ['int2', 'int4', 'int8'], 'float': ['float8', 'float4'],
                           'num': ['numeric', 'numeric(12,1)', 'numeric(8,3)', 'numeric(7,0)']}[cls])
            return f"({self.value(src, depth - 1)})::{to}"
        if rnd < 0.92:
            b = self.value(cls, depth - 1)
            return r.choice([f"CASE WHEN {self.cond(depth - 1)} THEN {a} ELSE {b} END", f"COALESCE({a}, {b})",
                             f"GREATEST({a}, {b})", f"LEAST({a}, {b})", f"NULLIF({a}, {b})"])
        c = self.col('date') or self.col('ts')
        if c and cls == 'num':
            return f"extract({r.choice(['year', 'month', 'dow', 'doy', 'quarter'])} from {c.name})"
        if c and cls == 'float':
            return f"date_part('{r.choice(['year', 'day'])}', {c.name})"
        t = self.col('text')
        return f"length({t.name})" if t and cls == 'int' and not self.friendly else a

    def time_value(self, cls):
        """A random date, timestamp or timestamptz expression (mostly a column)."""
        c, r = self.col(cls), self.r
        if self.plain or r.random() < (0.95 if self.friendly else 0.75):
            return c.name
        return r.choice({'date': [f"{c.name} + 7", f"COALESCE({c.name}, date '2000-01-01')",
                                  f"CASE WHEN {self.cond(0)} THEN {c.name} END"],
                         'ts': [f"{c.name} + interval '1 hour'", f"date_trunc('day', {c.name})",
                                f"COALESCE({c.name}, timestamp '2000-01-01')"],
                         'tz': [f"{c.name} + interval '30 minutes'",
                                f"GREATEST({c.name}, timestamptz '2000-01-01+00')"]}[cls])

    def in_list(self, c):
        """An IN list, = ANY or <> ALL over column c, across types and with specials."""
        r = self.r
        lit = r.choice(c.lits)
        if c.cls == 'num' and r.random() < 0.5:
            return r.choice([f"{c.name} IN ('NaN', 3)", f"{c.name} = ANY('{{Infinity,3}}')",
                             f"{c.name} NOT IN ('-Infinity', {lit})", f"{c.name} IN ('NaN', {lit}, NULL)"])
        if c.cls == 'int' and r.random() < 0.3:
            return f"{c.name} IN (1.5, 2, {lit})"
        if c.cls in ('int', 'num') and r.random() < 0.2:
            # a value with a constant of its own before the list's (7c5797e: the program
            # compared c % 10 IN (1, 3) with 10 and 1)
            k = r.randint(2, 9)
            vals = ', '.join(str(r.randrange(k)) for _ in range(r.randint(1, 3)))
            return f"{c.name} % {k} {r.choice(['IN', 'IN', 'NOT IN'])} ({vals})"
        if c.cls == 'float' and r.random() < 0.3:
            return f"{c.name} = ANY('{{-0,Infinity,NaN,1}}')"
        items = ', '.join(r.sample(c.lits, min(len(c.lits), r.randint(1, 4))))
        if r.random() < 0.25:  # typed: an array of quoted literals alone would be text[]
            cast = {'num': '::numeric[]', 'float': '::float8[]'}.get(c.cls, '')
            return f"{c.name} {r.choice(['= ANY', '<> ALL'])}(ARRAY[{items}]{cast})"
        return f"{c.name} {r.choice(['IN', 'IN', 'NOT IN'])} ({items})"

    def cond(self, depth):
        """A random boolean expression: a WHERE conjunct or a CASE condition."""
        r = self.r
        rnd = r.random()
        if depth > 0 and rnd > 0.55:
            if rnd < 0.75:
                return f"({self.cond(depth - 1)} AND {self.cond(depth - 1)})"
            if rnd < 0.92:
                return f"({self.cond(depth - 1)} OR {self.cond(depth - 1)})"
            return f"NOT ({self.cond(depth - 1)})"
        cols = [x for x in self.t.columns if not (self.friendly and x.unconstrained)]
        c = r.choice(cols)
        op = r.choice(['=', '<>'] if self.friendly and c.cls == 'text' else ['=', '<>', '<', '<=', '>', '>='])
        kind = r.choices(['cmp', 'between', 'in', 'null', 'colcol', 'range', 'time', 'text', 'bool', 'expr'],
                         [25, 6, 12, 6, 6, 5, 6, 8, 4, 12])[0]
        if kind == 'between' and c.cls not in ('bool', 'text'):
            a, b = sorted(r.sample(c.lits, 2))
            return f"{c.name} {r.choice(['BETWEEN', 'NOT BETWEEN'])} {a} AND {b}"
        if kind == 'in' and c.cls != 'bool':
            return self.in_list(c)
        if kind == 'null':
            return f"{c.name} IS {r.choice(['', 'NOT '])}NULL"
        if kind == 'colcol':
            other = self.col('ts' if c.cls == 'tz' and not self.friendly else c.cls)
            if c.cls not in ('bool', 'text') and not other.unconstrained:
                return f"{c.name} {op} {other.name}"
        if kind == 'range':  # literals out of the column's range
            x = r.choice([x for x in cols if x.cls in NUMBER])
            return f"{x.name} {op} {r.choice(x.lits[-4:])}"
        if kind == 'time':
            x = r.choice([x for x in cols if x.cls in TIME]).name
            return r.choice([f"{x} {op} CURRENT_DATE - interval '{r.randint(1, 40)} years'",
                             f"{x} {op} now() - interval '{r.randint(1, 9000)} days'",
                             f"{x} {op} date '2001-02-03' + interval '1 year'",
                             f"{x} {op} timestamptz '2021-03-14 06:30+00'",
                             f"{x} {op} date '{r.randint(1970, 2030)}-0{r.randint(1, 9)}-1{r.randint(0, 9)}'",
                             f"{x} {op} timestamp '2021-11-07 01:30'"])
        if kind == 'text':
            x = self.col('text')
            opts = [f"{x.name} {op} {r.choice(x.lits)}", f"{x.name} IN ({r.choice(x.lits)}, {r.choice(x.lits)})",
                    f"{x.name} LIKE {q(r.choice(['ab', 'k1', 'v', '']) + '%')}",
                    f"{x.name} {r.choice(['LIKE', 'NOT LIKE'])} {q(r.choice(['%', '']) + r.choice(['b', 'k1', 'v%1', 'a%b']) + r.choice(['%', '']))}"]
            if not self.friendly:
                opts += [f"lower({x.name}) = 'abc'", f"{x.name} LIKE 'a_%'", f"{x.name} ILIKE 'AB%'"]
            return r.choice(opts)
        if kind == 'bool':
            x = self.col('bool').name
            return r.choice([x, f"NOT {x}", f"{x} IS NOT TRUE", f"{x} IS UNKNOWN"])
        if kind == 'expr':
            cls = r.choice(NUMBER)
            return f"{self.value(cls, 2)} {op} {self.value(cls, 1)}"
        if c.cls == 'bool':
            return f"{c.name} IS {r.choice(['TRUE', 'FALSE', 'NOT TRUE', 'NOT FALSE', 'UNKNOWN'])}"
        return f"{c.name} {op} {r.choice(c.lits)}"

    def conjuncts(self, depth):
        """WHERE conjuncts: a condition, or an AND's conjuncts kept apart (the minimiser drops each)."""
        if depth > 0 and self.r.random() < 0.25:
            return self.conjuncts(depth - 1) + self.conjuncts(depth - 1)
        return [self.cond(depth)]

    def key(self):
        """A random GROUP BY key: a column or an expression over one."""
        c = self.r.choice(self.t.columns)
        n = c.name
        opts = [(n, c.cls, c.nd, False)] * 3  # (expression, result class, groups, declined by the node)
        if c.cls == 'int':
            opts += [(f"{n} % 7", 'int', min(c.nd, 13), False), (f"{n} / 1000", 'int', c.nd // 1000, False),
                     (f"COALESCE({n}, -1)", 'int', c.nd, False),
                     (f"CASE WHEN {n} > 0 THEN 'pos' WHEN {n} < 0 THEN 'neg' END", 'text', 3, True)]
        elif c.cls == 'float':
            opts += [(f"{n} > 0", 'bool', 3, True), (f"round({n})", 'float', c.nd, True),
                     (f"({n} * 2)", 'float', c.nd, False)]
        elif c.cls == 'num':
            opts += [(f"({n} * 2)", 'num', c.nd, c.unconstrained), (f"trunc({n})", 'num', c.nd, True)]
        elif c.cls == 'date':
            opts += [(f"date_trunc('month', {n})", 'tz', c.nd // 30, True),
                     (f"extract(year from {n})", 'num', c.nd // 365, False),
                     (f"extract(dow from {n})", 'num', 7, False)]
        elif c.cls in ('ts', 'tz'):
            opts += [(f"date_trunc('{u}', {n})", c.cls, c.nd // d, c.cls == 'tz')
                     for u, d in (('month', 720), ('day', 24), ('hour', 1))]
            opts.append((f"extract(hour from {n})", 'num', 24, c.cls == 'tz'))
        elif c.cls == 'text':
            opts += [(f"lower({n})", 'text', c.nd, True), (f"left({n}, 1)", 'text', 20, True),
                     (f"length({n})", 'int', 20, True)]
        if self.friendly:
            opts = [o for o in opts if not o[3]]
        if self.plain:
            opts = opts[:3]
        sql, cls, nd, _ = self.r.choice(opts)
        out = sql  # a group shows its first row's -0 or 0, 1.5 or 1.50: shown normalised
        if cls == 'float' and (sql != n or c.norm):
            out = f"({sql})::float8 + 0"
        elif cls == 'num' and (sql != n or c.unconstrained):
            out = f"trim_scale({sql})"
        return Key(sql, out, max(1, nd), c if sql == n else None)

    def agg(self, native):
        """A random aggregate, native or gpu_*; native float sums only under native_aggregates = exact."""
        r = self.r
        w = 0 if self.friendly and native == 'off' else 1
        func = r.choices(['count*', 'count', 'sum', 'avg', 'variance', 'min', 'max', 'gpu_arith', 'gpu_order'],
                         [6, 4, 12 * w, 8 * w, 6 * w, 8 * w, 8 * w, 24 if native == 'off' else 16,
                          16 if native == 'off' else 12])[0]
        if func == 'count*':
            return Agg('count*')
        classes = NUMBER
        if func == 'gpu_arith':
            func = r.choice(GPU_ARITH)
        elif func == 'gpu_order':
            func, classes = r.choice(GPU_ORDER), NUMBER + TIME
        elif func == 'variance':
            func = r.choice(['variance', 'var_samp', 'var_pop', 'stddev', 'stddev_samp', 'stddev_pop'])
        elif func in ('min', 'max'):
            classes = NUMBER + TIME + (('text',) if r.random() < 0.05 and not self.friendly else ())
        elif func == 'count':
            classes = tuple(self.by)
        if func in SUM_FAMILY and native != 'exact':
            classes = tuple(x for x in classes if x != 'float')
        cls = r.choice([x for x in classes if x in self.by])
        if cls in NUMBER:
            arg = self.col(cls).name if self.plain or r.random() < 0.55 else self.value(cls, r.choice([1, 1, 2]))
        else:
            arg = self.time_value(cls) if cls in TIME else self.col(cls).name
        k = r.choices(['1', '2', '3', '5', '0', '100001', 'NULL::int'], [20, 20, 20, 20, 1, 1, 1])[0]
        return Agg(func, arg, cls, k if func == 'gpu_topk' else None)


class Settings:
    """One query's SETs, whether they are SET LOCAL in a transaction, and which side runs first."""

    def __init__(self, items, txn, ref_first):
        self.items, self.txn, self.ref_first = items, txn, ref_first

    def get(self, name):
        """A setting's value, or None when it is not set."""
        return dict(self.items).get(name)

    def replace(self, items=None, txn=None):
        """A copy with other items or transaction mode."""
        return Settings(self.items if items is None else items, self.txn if txn is None else txn,
                        self.ref_first)


def gen_settings(rng, profile, avail):
    """Random settings for one query; avail holds the gpu_reduce GUCs and time zones the server has."""
    s = [('gpu_reduce.native_aggregates', rng.choices(['on', 'exact', 'off'], [35, 45, 20])[0])]
    if rng.random() < 0.5:
        w = rng.randint(0, 4)
        s.append(('max_parallel_workers_per_gather', str(w)))
        if rng.random() < 0.6:
            s += [(n, '0') for n in ('parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size')]
        if w and rng.random() < 0.25:  # fewer workers than planned, or none
            s.append(('max_parallel_workers', str(rng.randint(0, w - 1))))
        if rng.random() < 0.1:
            s.append(('parallel_leader_participation', 'off'))
    for name, prob, values in (('gpu_reduce.batch_rows', 0.4, ['1', '7', '100', '65536', '1000000']),
                               ('gpu_reduce.page_path', 0.4, ['cpu', 'off', 'on']),
                               ('work_mem', 0.3, ['64kB', '64kB', '128kB', '256kB', '1MB', '4MB']),
                               ('enable_hashagg', 0.2, ['off']),
                               ('TimeZone', 0.4, avail['zones']),
                               ('gpu_reduce.buffer_memory', 0.08, ['8kB', '64kB']),
                               ('gpu_reduce.page_pins', 0.08, ['4', '16']),
                               ('gpu_reduce.debug_job_groups', 0.08, ['1', '4']),
                               ('gpu_reduce.enabled', 0.08, ['off']),
                               ('hash_mem_multiplier', 0.08, ['1']),
                               ('gpu_reduce.join_memory', 0.04, ['64kB', '1MB'])):
        if rng.random() < prob:
            s.append((name, rng.choice(values)))
    if profile == 'gpu':
        s.append(('gpu_reduce.min_gpu_rows', '1'))
    s = [(n, v) for n, v in s if not n.startswith('gpu_reduce.') or n in avail['gucs']]
    return Settings(s, rng.random() < 0.4, rng.random() < 0.5)


class Query:
    """One generated query with its settings, kept in parts to render either side, corrupt or shrink it."""

    def __init__(self, idx, table, settings, keys, aggs, where, having, order, limit, only, joins=()):
        self.idx, self.table, self.settings, self.joins = idx, table, settings, list(joins)
        self.keys, self.aggs, self.where, self.having = keys, aggs, where, having
        self.order, self.limit, self.only = order, limit, only
        self.corrupt = False   # negative control: the node side's first aggregate is count(*) + 1
        self.node = None       # GpuReduce in the bulk_scan = on plan (phase 1)
        self.parallel = False  # a Gather in it
        self.subdims = []      # dimensions of its semi and anti joins (EXISTS, IN)

    def sql(self, side='node', rewrite=False):
        """The query text for side 'node' or 'ref'; rewrite: the reference's gpu_* forms."""
        sel = [k.out for k in self.keys] + [a.sql(rewrite) for a in self.aggs]
        if self.corrupt and side == 'node':
            sel[len(self.keys)] = 'count(*) + 1'
        text = f"SELECT {', '.join(sel)} FROM {'ONLY ' if self.only else ''}{self.table.name}"
        text += ''.join(' ' + j.sql for j in self.joins)
        if self.where:
            text += ' WHERE ' + ' AND '.join(self.where)
        if self.keys:
            text += ' GROUP BY ' + ', '.join(k.sql for k in self.keys)
        if self.having:
            text += ' HAVING ' + ' AND '.join(f"{a.sql(rewrite)} {cond}" for a, cond in self.having)
        if self.order:
            text += ' ORDER BY ' + ', '.join(f"{i + 1}{d}" for i, d in enumerate(self.order))
        return text + (f" LIMIT {self.limit}" if self.limit is not None else '')

    def copy(self, **changes):
        """A shallow copy with some parts replaced."""
        c = Query(self.idx, self.table, self.settings, self.keys, self.aggs, self.where, self.having,
                  self.order, self.limit, self.only, self.joins)
        c.corrupt, c.node, c.parallel, c.subdims = self.corrupt, self.node, self.parallel, self.subdims
        for k, v in changes.items():
            setattr(c, k, v)
        return c

    def variants(self):
        """Smaller versions of the query: one part or one setting dropped."""
        order = self.order[:-1] if self.order else None
        for i in range(len(self.aggs) if len(self.aggs) > 1 else 0):
            yield self.copy(aggs=self.aggs[:i] + self.aggs[i + 1:], order=order)
        for i in range(len(self.where)):
            yield self.copy(where=self.where[:i] + self.where[i + 1:])
        for i in range(len(self.keys)):
            yield self.copy(keys=self.keys[:i] + self.keys[i + 1:], order=order)
        if self.having:
            yield self.copy(having=[])
        if self.order:
            yield self.copy(order=None, limit=None)
        items = self.settings.items
        for i in range(len(items)):
            yield self.copy(settings=self.settings.replace(items=items[:i] + items[i + 1:]))
        if self.settings.txn:
            yield self.copy(settings=self.settings.replace(txn=False))
        for i in reversed(range(len(self.joins))):  # a join no other part reads
            cand = self.copy(joins=self.joins[:i] + self.joins[i + 1:])
            if f"{self.joins[i].alias}." not in cand.sql('node'):
                yield cand

    def ddl(self):
        """The DDL of every table the query reads."""
        dims = [j.dim for j in self.joins]
        dims += [d for d in self.subdims if d not in dims]
        return self.table.ddl + [x for d in dims for x in d.ddl]


# A joined dimension: its Table, the query's alias for it, the join's SQL (JOIN ... ON ...).
Join = collections.namedtuple('Join', 'dim alias sql')


def gen_joins(rng, t, dims):
    """One or two joins of fact table t to dimensions: the key's equality to a fact column of its
    class (int2/int4/int8 to any of them, date to date), sometimes composite (xk2 too), sometimes a
    snowflake (the second dimension joined to the first by xv); now and then a shape the node
    declines (LEFT JOIN, a '<' join clause next to the equality).  Returns (joins, views)."""
    joins, views = [], []
    def fact_col(cls):
        cs = [c for c in t.columns if c.cls == cls and (cls != 'date' or c.sqltype == 'date')]
        return rng.choice(cs).name if cs else None
    order = rng.sample(dims, rng.randint(1, len(dims)))
    for n, d in enumerate(order):
        alias = f"j{n}"
        kcls = d.columns[0].cls
        if n > 0 and rng.random() < 0.5:  # snowflake: to the dimension joined before
            on = [f"{rng.choice([f'{alias}.xk', f'{alias}.xk2'] if kcls == 'int' else [f'{alias}.xk2'])}"
                  f" = {joins[-1].alias}.xv"]
        else:
            on = [f"{alias}.xk = {fact_col(kcls)}"]
            if rng.random() < 0.25:
                on.append(f"{alias}.xk2 = {fact_col('int')}")
        kind, decline = 'JOIN', rng.random()
        if decline < 0.06:
            kind = rng.choice(['LEFT JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN'])
        elif decline < 0.12:
            on.append(f"{alias}.xk2 {rng.choice(['<', '<=', '<>'])} {fact_col('int')}")
        elif rng.random() < 0.25:
            on.reverse()
        joins.append(Join(d, alias, f"{kind} {d.name} {alias} ON {' AND '.join(on)}"))
        views.append(DimView(d, alias))
    return joins, views


def gen_query(rng, idx, tables, profile, avail):
    """A random query over one of the tables, with its random settings."""
    s = gen_settings(rng, profile, avail)
    native = s.get('gpu_reduce.native_aggregates')
    facts, dims = [t for t in tables if t.kind != 'dim'], [t for t in tables if t.kind == 'dim']
    join = dims and rng.random() < 0.25
    # a join's probe table is mostly a plain one: the node declines a partitioned or inherited one
    t = rng.choice([x for x in facts if x.kind == 'plain'] if join and rng.random() < 0.85 else facts)
    friendly = rng.random() < 0.5
    g = ExprGen(rng, t, friendly=friendly, plain=join and friendly)
    joins, dgens = [], []
    if join:
        joins, views = gen_joins(rng, t, dims)
        dgens = [ExprGen(rng, v, friendly=friendly or rng.random() < 0.5, plain=friendly) for v in views]

    def pick(share):  # the generator of a key, aggregate or conjunct: the fact table's or a dimension's
        return rng.choice(dgens) if dgens and rng.random() < share else g
    keys, groups = [], 1
    for _ in range(rng.choices([0, 1, 2, 3], [30, 40, 20, 10])[0]):
        k = pick(0.5).key()
        if groups * k.nd <= 5000 or rng.random() < 0.1:
            keys.append(k)
            groups *= k.nd
    aggs = [pick(0.35).agg(native) for _ in range(rng.choices(range(1, 7), [25, 25, 20, 12, 10, 8])[0])]
    if dgens and rng.random() < 0.08:  # an expression over two relations: PostgreSQL's plan
        fi = [c.name for c in t.columns if c.cls == 'int']
        aggs.append(Agg(rng.choice(['sum', 'max', 'count']), f"({rng.choice(fi)} + {dgens[0].col('int').name})",
                        'int'))
    where = [c for _ in range(rng.choices([0, 1, 2, 3], [25, 40, 25, 10])[0])
             for c in pick(0.4).conjuncts(rng.randint(0, 2))]
    if dgens and rng.random() < 0.15:  # a comparison across relations: the joined row's
        cls = rng.choice(['int', 'int', 'date', 'num', 'float'])
        where.append(f"{rng.choice(dgens).col(cls).name} {rng.choice(['<', '<=', '<>', '=', '>'])} "
                     f"{g.col(cls).name}")
    subdims = []
    if dims and rng.random() < 0.12:  # a semi or anti join to a dimension (EXISTS, IN, NOT EXISTS)
        d = rng.choice(dims)
        kcls = d.columns[0].cls
        fc = [c.name for c in t.columns if c.cls == kcls and (kcls != 'date' or c.sqltype == 'date')]
        fi = [c.name for c in t.columns if c.cls == 'int']
        if fc:
            f = f"{t.name}.{rng.choice(fc)}"
            cond = f"s.xk = {f}"
            if fi and rng.random() < 0.25:  # composite, or a clause the node declines
                cond += f" AND s.xk2 {rng.choice(['=', '=', '<'])} {t.name}.{rng.choice(fi)}"
            if rng.random() < 0.3:  # the inner side's own WHERE
                cond += f" AND s.xv > {rng.choice(['0', '-3', '5'])}"
            where.append(rng.choice([f"EXISTS (SELECT 1 FROM {d.name} s WHERE {cond})",
                                     f"NOT EXISTS (SELECT 1 FROM {d.name} s WHERE {cond})",
                                     f"{f} IN (SELECT xk FROM {d.name})"]))
            subdims.append(d)
    if dgens and rng.random() < 0.08:  # a key over two relations
        k = f"({g.col('int').name} - {dgens[0].col('int').name})"
        keys.append(Key(k, k, 100, None))
    for k in keys:  # an equality fixing a key
        if k.col is not None and rng.random() < 0.25 and k.col.cls != 'bool':
            lit = rng.choice(k.col.lits)
            where.append(rng.choice([f"{k.col.name} = {lit}", f"{k.col.name} IN ({lit})"]))
    having = []
    if rng.random() < 0.2:
        having.append(rng.choice([(Agg('count*'), f"> {rng.randint(0, 20)}"), (g.agg(native), 'IS NOT NULL')]))
    order, limit = None, None
    if rng.random() < 0.45 or groups > 5000:
        order = [rng.choice(['', '', ' DESC']) for _ in range(len(keys) + len(aggs))]
        if rng.random() < 0.7 or groups > 5000:
            limit = rng.choice([1, 3, 10, 50])
    qr = Query(idx, t, s, keys, aggs, where, having, order, limit, t.kind == 'inherit' and rng.random() < 0.2,
               joins)
    qr.subdims = subdims
    return qr


# ---------------------------------------------------------------- running

# One statement's outcome: SQLSTATE, output lines, error message.
Result = collections.namedtuple('Result', 'state lines msg')


def marker(tag):
    """The psql line that ends a statement's output: its tag, SQLSTATE and error message."""
    return f"\\echo @@END {tag} :SQLSTATE :LAST_ERROR_MESSAGE\n"


def render_sets(items, local):
    """SET (or SET LOCAL) statements for the settings."""
    return ''.join(f"SET {'LOCAL ' if local else ''}{n} = {q(v)};\n" for n, v in items)


def explain_unit(qr, i):
    """Phase 1 for query qr: (script, tags): its settings and EXPLAIN of the node side."""
    return (render_sets(qr.settings.items, False) + "SET gpu_reduce.bulk_scan = 'on';\n"
            f"EXPLAIN (COSTS OFF) {qr.sql('node')};\n" + marker(f"{i}.e") + "RESET ALL;\n"), [f"{i}.e"]


def run_unit(qr, i, rewrite, markers=True):
    """Phase 2 for query qr: (script, tags): its settings, the node's run and the reference run."""
    s = qr.settings
    sides = [('n', qr.sql('node'), 'on'), ('r', qr.sql('ref', rewrite), 'off')]
    out = 'BEGIN;\n' + render_sets(s.items, True) + 'SAVEPOINT fz;\n' if s.txn else render_sets(s.items, False)
    for tag, text, bulk in reversed(sides) if s.ref_first else sides:
        out += f"SET {'LOCAL ' if s.txn else ''}gpu_reduce.bulk_scan = '{bulk}';\n{text};\n"
        out += marker(f"{i}.{tag}") if markers else ''
        out += 'ROLLBACK TO SAVEPOINT fz;\n' if s.txn else ''
    return out + ('COMMIT;\n' if s.txn else 'RESET ALL;\n'), [f"{i}.n", f"{i}.r"]


class Server:
    """The server under test, reached through psql; sees crashes by lost connections and in its log."""

    def __init__(self, args):
        self.args = args
        self.base = ['psql', '-X', '-q', '-A', '-t', '-P', 'null=(null)', '-v', 'ON_ERROR_STOP=0']
        for opt, val in (('-h', args.host), ('-p', args.port), ('-d', args.dbname), ('-U', args.user)):
            if val:
                self.base += [opt, str(val)]
        self.env = dict(os.environ, PGOPTIONS=f"-c statement_timeout={args.statement_timeout}s -c jit=off")
        log = args.server_log
        self.log_pos = os.path.getsize(log) if log and os.path.exists(log) else 0
        self.logged = 0  # processes terminated by a signal, in the log since the start

    def psql(self, script, stop=False):
        """Run a script in one psql process; returns (exit status, stdout, stderr)."""
        cmd = self.base + (['-v', 'ON_ERROR_STOP=1'] if stop else []) + ['-f', '-']
        p = subprocess.run(cmd, input=script, capture_output=True, text=True, env=self.env)
        return p.returncode, p.stdout, p.stderr

    def log_crashes(self):
        """The crash lines the server log gained since the last look."""
        try:
            with open(self.args.server_log or '', 'rb') as f:
                f.seek(self.log_pos)
                data = f.read()
        except OSError:  # no log given, or not readable
            return []
        self.log_pos += len(data)
        lines = [ln for ln in data.decode('utf-8', 'replace').splitlines() if CRASH_RE.search(ln)]
        self.logged += sum('terminated by signal' in ln for ln in lines)
        return lines

    def wait_ready(self, limit=90):
        """Wait until the server accepts connections again after a crash."""
        deadline = time.time() + limit
        time.sleep(1)
        while time.time() < deadline:
            rc, out, _ = self.psql('SELECT 1;\n')
            if rc == 0 and out.strip() == '1':
                return
            time.sleep(1)
        raise SystemExit(f'fuzz: the server did not come back within {limit} s')

    def run_units(self, units):
        """Run units (script, tags) in as few psql processes as crashes allow.  Returns
        ({tag: Result}, indices of the units in flight when the server crashed, the log's crash
        lines, whether the log showed a crash that no lost connection explains)."""
        results, crashed, loglines, orphan, start = {}, [], [], False, 0
        while start < len(units):
            rc, out, err = self.psql("LOAD 'gpu_reduce';\n" + ''.join(u[0] for u in units[start:]))
            buf = []
            for line in out.splitlines():
                if line.startswith('@@END '):
                    _, tag, state, msg = (line.split(' ', 3) + [''])[:4]
                    results[tag] = Result(state, buf, msg if state != '00000' else '')
                    buf = []
                else:
                    buf.append(line)
            done = start
            while done < len(units) and all(t in results for t in units[done][1]):
                done += 1
            lost = done < len(units) and LOST_RE.search(err)
            if done < len(units) and not lost:
                raise SystemExit(f'fuzz: psql failed (exit {rc}): {err.strip()[-2000:]}')
            if lost:
                crashed.append(done)
                self.wait_ready()
            logged = self.log_crashes()
            loglines += logged
            if logged and not lost:
                orphan = True
                self.wait_ready()
                loglines += self.log_crashes()
            start = done + 1
        return results, crashed, loglines, orphan


# ---------------------------------------------------------------- checking

def compare(qr, node, ref):
    """'pass', 'diff' or 'timeout' for the two sides' Results."""
    if '57014' in (node.state, ref.state):
        return 'timeout'
    if node.state != '00000' or ref.state != '00000':
        return 'pass' if node.state == ref.state else 'diff'
    if qr.limit is not None:
        return 'pass' if node.lines == ref.lines else 'diff'
    return 'pass' if sorted(node.lines) == sorted(ref.lines) else 'diff'


def comparable(qr):
    """Whether both sides' answers are fixed.  Where the node declined, both runs are PostgreSQL's
    plan; a parallel one's row order decides native float sums' rounding and which of equal
    values (-0/0, 1.5/1.50) native min/max return."""
    if qr.node or not qr.parallel:
        return True
    return not any(a.native_float_sum() or (a.func in ('min', 'max') and a.cls in ('float', 'num'))
                   for a in qr.aggs + [h[0] for h in qr.having])


def explain_away(server, qr, node, ref):
    """Whether PostgreSQL's own plan could have answered as the node did, by the order it reads rows
    in: 'limit' when only one side failed under a LIMIT and the other fails alike without it
    (sorted groups streamed into the LIMIT stop before the failing row or group: PostgreSQL's
    plan before a row's error, the Finalize Aggregate above the node before a group whose final
    function raises it; without the LIMIT the planner may choose other plans, which does not
    matter here), 'joinorder' when only one side of a join failed and one of PostgreSQL's
    other join plans answers as the node did, 'order' when the sides failed differently and alike once PostgreSQL's plan
    reads the rows in the table's order too (serial, hashed, no ORDER BY: a sorted GroupAggregate
    may fail finishing a group before it reads a later group's failing row); else None."""
    if (qr.joins or qr.subdims) and (node.state == '00000') != (ref.state == '00000'):
        # PostgreSQL's join reads neither side past an empty one (a hash join with no outer row
        # builds no hash table, none probes an empty one; merge and nested loops alike): an
        # error in the other relation's WHERE clauses comes with one join method or order and
        # not with another.  Explained when that relation's scan with its own conjuncts alone
        # fails as the node did (PostgreSQL's plan), or one of PostgreSQL's other plans answers
        # as the node did.
        failed = node if node.state != '00000' else ref
        aliases = [j.alias + '.' for j in qr.joins]
        # (a semi or anti join's conjunct, EXISTS or IN, is a join: not the table's own)
        scans = [(qr.table, qr.only, [w for w in qr.where if not any(a in w for a in aliases) and
                                      '(SELECT ' not in w])]
        for j in qr.joins:
            others = [a for a in aliases if a != j.alias + '.']
            scans.append((Table(f"{j.dim.name} {j.alias}", 'dim', 0), False,
                          [w for w in qr.where if j.alias + '.' in w and not any(a in w for a in others)]))
        for table, only, where in scans:
            # its conjuncts together, then each alone: a conjunct that also reads the table's
            # columns unqualified (j0.xk = l1, from the join's equivalences) fails to parse in
            # the relation's scan alone, while the one that raises still shows it
            for conjuncts in ([where] + [[w] for w in where] if len(where) > 1 else [where]):
                if failed is node and conjuncts:
                    scan = Query(qr.idx, table, qr.settings, [], [Agg('count*')], conjuncts, [], None, None, only)
                    res = check_one(server, scan, recheck=False)[1]
                    if '0.r' in res and res['0.r'].state == failed.state:
                        return 'joinorder'
        for alt in ([('enable_hashjoin', 'off')], [('enable_hashjoin', 'off'), ('enable_mergejoin', 'off')],
                    [('enable_mergejoin', 'off'), ('enable_nestloop', 'off')]):
            cand = qr.copy(settings=qr.settings.replace(items=list(qr.settings.items) + alt))
            res = check_one(server, cand, recheck=False)[1]
            if '0.r' in res and compare(qr, node, res['0.r']) == 'pass':
                return 'joinorder'
    if qr.limit is not None and (node.state == '00000') != (ref.state == '00000'):
        failed, other = (node, '0.r') if node.state != '00000' else (ref, '0.n')
        res = check_one(server, qr.copy(limit=None), recheck=False)[1]
        return 'limit' if other in res and res[other].state == failed.state else None
    if '00000' not in (node.state, ref.state):
        serial = [('enable_hashagg', 'on'), ('enable_sort', 'off'), ('max_parallel_workers_per_gather', '0')]
        items = [(n, v) for n, v in qr.settings.items if n not in dict(serial)] + serial
        cand = qr.copy(settings=qr.settings.replace(items=items), order=None, limit=None)
        return 'order' if check_one(server, cand, recheck=False)[0] == 'pass' else None
    return None


def check_one(server, qr, recheck=True):
    """Run one query alone (EXPLAIN and both sides); returns (outcome, results): 'crash', 'diff',
    'pass', 'timeout', 'plan' (GpuReduce in the plan or not, unlike before), or explain_away's."""
    (s1, t1), (s2, t2) = explain_unit(qr, 0), run_unit(qr, 0, qr.node)
    res, crashed, _, orphan = server.run_units([(s1 + s2, t1 + t2)])
    if crashed or orphan:
        return 'crash', res
    if ('GpuReduce' in '\n'.join(res['0.e'].lines)) != bool(qr.node):
        return 'plan', res
    outcome = compare(qr, res['0.n'], res['0.r'])
    if outcome == 'diff' and recheck:
        outcome = explain_away(server, qr, res['0.n'], res['0.r']) or outcome
    return outcome, res


def minimise(server, qr, budget_s, budget_n):
    """Shrink a failing query greedily while it still fails (a difference or a crash: one bug may
    show either way), within budget_n runs and budget_s seconds; returns (query, whether it
    failed again by itself)."""
    t0, tries = time.time(), 1
    if check_one(server, qr)[0] not in FAILED:
        return qr, False
    cur, progress = qr, True
    while progress and tries < budget_n and time.time() - t0 < budget_s:
        progress = False
        for cand in cur.variants():
            if tries >= budget_n or time.time() - t0 >= budget_s:
                break
            tries += 1
            if check_one(server, cand)[0] in FAILED:
                cur, progress = cand, True
                break
    return cur, True


def write_failure(outdir, seed, qr, kind, res, prefix, orig, alone, loglines):
    """Write a replayable SQL script for a failure (res holds its answers under tags prefix.n
    and prefix.r; alone: how the shrunk query did by itself, None if not run); returns its path."""
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, f"s{seed}_q{orig.idx:05d}_{kind}.sql")
    lines = [f"-- gpu_reduce fuzz: seed {seed}, query {orig.idx}: {kind}",
             f"-- GpuReduce in the plan: {'yes' if qr.node else 'no'}; run again by itself: "
             f"{alone or 'not tried'}{' (shrunk)' if qr is not orig else ''}",
             f"-- replay: psql -X -d DB -f {os.path.basename(path)}",
             f"-- as generated: {orig.sql('node')}"]
    lines += [f"-- server log: {ln}" for ln in loglines[:5]]
    lines += ["CREATE EXTENSION IF NOT EXISTS gpu_reduce;", "LOAD 'gpu_reduce';"]
    lines += [d + ';' for d in qr.ddl()]
    lines.append(render_sets(qr.settings.items, False) + f"EXPLAIN (COSTS OFF) {qr.sql('node')};\nRESET ALL;")
    lines.append(run_unit(qr, 0, qr.node, markers=False)[0].rstrip())
    node, ref = res.get(f"{prefix}.n"), res.get(f"{prefix}.r")
    if node and ref and node.state == ref.state == '00000':
        only_node, only_ref = collections.Counter(node.lines), collections.Counter(ref.lines)
        only_node, only_ref = only_node - only_ref, only_ref - only_node
        for label, rows in (('node', only_node), ('reference', only_ref)):
            lines.append(f"-- rows only in the {label} run: {sum(rows.values())}")
            lines += [f"--   {ln}" for ln in sorted(rows.elements())[:50]]
    for r, label in ((node, 'node run (gpu_reduce.bulk_scan = on)'), (ref, 'reference run (bulk_scan = off)')):
        if r is None:
            lines.append(f"-- {label}: no answer (the server crashed)")
            continue
        lines.append(f"-- {label}: SQLSTATE {r.state} {r.msg}".rstrip())
        lines += [f"--   {ln}" for ln in r.lines[:50]]
        lines += [f"--   ... {len(r.lines)} rows"] if len(r.lines) > 50 else []
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return path


# ---------------------------------------------------------------- main

def server_facts(server):
    """The gpu_reduce settings and the candidate time zones the server has."""
    zones = ', '.join(q(z) for z in ZONES)
    rc, out, err = server.psql("LOAD 'gpu_reduce';\n"
                               "SELECT 'g', name FROM pg_settings WHERE name LIKE 'gpu_reduce.%';\n"
                               f"SELECT 'z', name FROM pg_timezone_names WHERE name IN ({zones});\n", stop=True)
    if rc:
        raise SystemExit('fuzz: cannot query the server: ' + err.strip())
    rows = [ln.split('|', 1) for ln in out.splitlines() if '|' in ln]
    gucs = {v for k, v in rows if k == 'g'}
    if 'gpu_reduce.bulk_scan' not in gucs:
        raise SystemExit('fuzz: gpu_reduce.bulk_scan does not exist (is the extension installed?)')
    return {'gucs': gucs, 'zones': sorted(v for k, v in rows if k == 'z') or ['UTC']}


class Fuzzer:
    """One seed's run: its tables, batches of queries, counts and failures."""

    def __init__(self, args):
        self.args, self.t0 = args, time.time()
        self.server = Server(args)
        self.avail = server_facts(self.server)
        self.rng = random.Random(args.seed)
        self.tables = make_tables(self.rng, args.seed)
        self.stats = dict(queries=0, compared=0, node=0, passed=0, diff=0, crash=0, timeout=0, skip=0, limit=0,
                          order=0, precedence=0, joinorder=0, corrupted=0, detected=0, minimised=0,
                          join=0, join_node=0)
        self.states = {}  # SQLSTATEs of the errors both sides raised alike

    def say(self, text):
        """Print a progress line."""
        print(f"fuzz: seed {self.args.seed}: {text}", flush=True)

    def run(self):
        """Make the tables, run batches of queries up to the count or the time limit, report."""
        a, st = self.args, self.stats
        rc, _, err = self.server.psql(''.join(d + ';\n' for t in self.tables for d in t.ddl), stop=True)
        if rc:
            raise SystemExit(f'fuzz: making the tables failed: {err.strip()}')
        self.server.log_crashes()
        self.say(f"tables {', '.join(f'{t.name} ({t.kind}, {t.rows} rows)' for t in self.tables)}"
                 f" in {time.time() - self.t0:.1f} s")
        while st['queries'] < a.count:
            if a.time_limit and time.time() - self.t0 > a.time_limit:
                self.say(f"time limit reached after {st['queries']} queries")
                break
            n = min(a.batch, a.count - st['queries'])
            batch = [gen_query(self.rng, st['queries'] + i, self.tables, a.settings_profile, self.avail)
                     for i in range(n)]
            st['queries'] += n
            self.run_batch(batch)
            self.say(f"{st['queries']}/{a.count} queries, {st['diff']} differences, {st['crash']} crashes, "
                     f"{time.time() - self.t0:.0f} s")
        if not a.keep_tables:
            self.server.psql(''.join(f"DROP TABLE IF EXISTS {t.name} CASCADE;\n" for t in self.tables))
        return self.report()

    def run_batch(self, batch):
        """Phase 1: EXPLAIN every query; phase 2: run both sides; judge; record the failures."""
        for qr in batch:
            qr.corrupt = self.args.negative_control and qr.idx % 4 == 0
            self.stats['corrupted'] += qr.corrupt
        res, crashed, loglines, orphan = self.server.run_units([explain_unit(qr, qr.idx) for qr in batch])
        failures = [(batch[i], 'crash', res, loglines) for i in crashed]
        live = [qr for i, qr in enumerate(batch) if i not in crashed]
        for qr in live:
            plan = '\n'.join(res[f"{qr.idx}.e"].lines)
            qr.node, qr.parallel = 'GpuReduce' in plan, 'Gather' in plan
            self.stats['node'] += qr.node
            self.stats['join'] += bool(qr.joins)
            self.stats['join_node'] += bool(qr.joins) and qr.node
        res, crashed, loglines2, orphan2 = self.server.run_units([run_unit(qr, qr.idx, qr.node) for qr in live])
        failures += [(live[i], 'crash', res, loglines2) for i in crashed]
        if orphan or orphan2:
            self.stats['crash'] += 1
            self.say(f"the server log shows a crash during queries {batch[0].idx}-{batch[-1].idx} that no lost"
                     f" connection explains: {(loglines + loglines2)[-1]}")
        for i, qr in enumerate(live):
            if i not in crashed and self.judge(qr, res[f"{qr.idx}.n"], res[f"{qr.idx}.r"]) == 'diff':
                failures.append((qr, 'diff', res, []))
        for qr, kind, r, ll in failures:
            self.record_failure(qr, kind, r, ll)

    def judge(self, qr, node, ref):
        """Compare one query's two Results and count the outcome; returns it."""
        st = self.stats
        outcome = compare(qr, node, ref) if comparable(qr) else 'skip'
        if outcome == 'diff':
            outcome = explain_away(self.server, qr, node, ref) or outcome
        if outcome == 'diff' and '00000' not in (node.state, ref.state) and not qr.corrupt:
            # both failed, each with an error the query can raise: which comes first is the
            # plan's (PostgreSQL's parallel plans differ too; README, Semantics), counted apart
            outcome = 'precedence'
        if self.args.verbose:
            print(f"[{qr.idx}] {outcome} node={qr.node} {node.state}/{ref.state} {qr.sql('node')}", flush=True)
        if outcome == 'timeout':
            st['timeout'] += 1
            self.say(f"query {qr.idx}: statement timeout: {qr.sql('node')}")
        elif outcome == 'skip':
            st['skip'] += 1
        else:
            st['compared'] += 1
            st['passed'] += outcome in ('pass', 'limit', 'order', 'precedence', 'joinorder')
            if outcome in ('limit', 'order', 'precedence', 'joinorder'):
                st[outcome] += 1
            st['detected'] += outcome == 'diff' and qr.corrupt
            if outcome == 'pass' and node.state != '00000':
                self.states[node.state] = self.states.get(node.state, 0) + 1
        return outcome

    def record_failure(self, qr, kind, res, loglines):
        """Count a difference or crash, shrink it (the first --minimise of them) and write its script."""
        a = self.args
        self.stats[kind] += 1
        orig, alone, prefix = qr, None, qr.idx
        if not a.negative_control and self.stats['minimised'] < a.minimise:
            self.stats['minimised'] += 1
            budget = (60, 40) if kind == 'diff' else (30, 12)  # seconds, runs: each crash costs a restart
            qr, reproduced = minimise(self.server, qr, *budget)
            alone = 'passed'
            if reproduced:
                alone, again = check_one(self.server, qr)
                if alone == 'diff':
                    res, prefix = again, 0
        path = write_failure(a.out, a.seed, qr, kind, res, prefix, orig, alone, loglines)
        self.say(f"query {orig.idx}: {kind.upper()}"
                 f"{'' if alone in (None, 'diff', 'crash') else ' (did not fail again by itself)'}"
                 f" -> {path}\n      {qr.sql('node')}")

    def report(self):
        """Print the summary and the closing 'N passed, M failed'; returns the exit status."""
        st = self.stats
        errs = ', '.join(f"{k} x{v}" for k, v in sorted(self.states.items(), key=lambda kv: -kv[1])[:8])
        self.say(f"{st['timeout']} timeouts, {st['skip']} not comparable, {st['limit']} errors only past the "
                 f"LIMIT, {st['order']} errors in row order, {st['joinorder']} errors only under another join "
                 f"plan, {st['precedence']} both failed with another of the "
                 f"query's errors, errors alike: {errs or 'none'}; "
                 f"{time.time() - self.t0:.0f} s")
        if self.args.server_log:
            self.say(f"the server log showed {self.server.logged} processes terminated by a signal")
        if self.args.negative_control:
            print(f"negative control: {st['corrupted']} corrupted queries, {st['detected']} detected")
        pct = 100.0 * st['node'] / max(st['queries'], 1)
        print(f"fuzz: {st['queries']} queries, {st['compared']} checks compared, {st['node']} through the node "
              f"({pct:.1f}%), {st['join']} joins ({st['join_node']} through the node), {st['diff']} differences, "
              f"{st['crash']} crashes")
        failed = st['diff'] + st['crash']
        print(f"{st['passed']} passed, {failed} failed")
        return 0 if failed == 0 else 1


def main():
    """Parse the arguments and run one seed."""
    ap = argparse.ArgumentParser(description='Differential query fuzzer for gpu_reduce: each random query runs '
                                             'with gpu_reduce.bulk_scan on and off, answers compared.')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=300, help='queries to generate')
    for opt in ('--host', '--port', '--dbname', '--user'):
        ap.add_argument(opt, help="psql's connection (default: libpq's)")
    ap.add_argument('--out', default='/tmp/gr_fuzz', help="directory for the failures' scripts")
    ap.add_argument('--settings-profile', choices=['cpu', 'gpu'], default='cpu',
                    help='gpu: every query also with gpu_reduce.min_gpu_rows = 1')
    ap.add_argument('--negative-control', action='store_true', help='corrupt the node side of every 4th query')
    ap.add_argument('--server-log', help="the server's log, read for crashes")
    ap.add_argument('--time-limit', type=float, help='stop generating queries after this many seconds')
    ap.add_argument('--batch', type=int, default=100, help='queries per psql process')
    ap.add_argument('--statement-timeout', type=int, default=20, help='seconds per statement')
    ap.add_argument('--minimise', type=int, default=10, help='shrink at most this many failures')
    ap.add_argument('--keep-tables', action='store_true', help='do not drop the tables at the end')
    ap.add_argument('--verbose', '-v', action='store_true', help='print every query and its outcome')
    return Fuzzer(ap.parse_args()).run()


if __name__ == '__main__':
    sys.exit(main())
