#!/usr/bin/env python3
"""ab_medians.py: medians of psql's \\timing output, native against gpu_*.

Reads psql output on stdin in which each timed query is preceded by a marker
line '@SIDE KEY...' (printed with \\echo): SIDE is n (native) or g (gpu_*),
KEY names the case.  The next 'Time: X ms' line is that query's time.  For
each KEY, in the order first seen, prints the medians, their ratio
(native / gpu) and the geometric mean of the per-pair ratios (each native
run against the gpu run after it); a KEY with gpu times only gets its median.
Used by the A/B scripts of bench/pg/results-cpu-xsum and results-gpu-digits.
"""
import collections
import math
import re
import statistics
import sys

times = collections.defaultdict(list)
keys = []
cur = None
for line in sys.stdin:
    if line.startswith('@'):
        side, *key = line[1:].split()
        cur = (side, ' '.join(key))
        if cur[1] not in keys:
            keys.append(cur[1])
        continue
    m = re.match(r'Time: ([0-9.]+) ms', line)
    if m and cur:
        times[cur].append(float(m.group(1)))
        cur = None
width = max((len(k) for k in keys), default=0)
for k in keys:
    n, g = times[('n', k)], times[('g', k)]
    if not g:
        continue
    if not n:
        print('%-*s gpu %.1f' % (width, k, statistics.median(g)))
        continue
    pairs = [a / b for a, b in zip(n, g)]
    print('%-*s native %.1f gpu %.1f ratio %.3f paired geomean %.3f' %
          (width, k, statistics.median(n), statistics.median(g),
           statistics.median(n) / statistics.median(g),
           math.exp(sum(map(math.log, pairs)) / len(pairs))))
