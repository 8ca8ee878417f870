#!/usr/bin/env python3
"""paired.py LOG...: for pg_bench.sh per-case logs (@run native / @run gpu,
alternating), the medians' ratio and the ratios of each native run to the gpu
run after it: their median, geometric mean and range."""
import math
import re
import statistics as s
import sys

for path in sys.argv[1:]:
    native, gpu, cur = [], [], None
    for line in open(path):
        if line.startswith('@run '):
            cur = line.split()[1]
        m = re.match(r'Time: ([0-9.]+) ms', line)
        if m and cur:
            (native if cur == 'native' else gpu).append(float(m.group(1)))
            cur = None
    r = [a / b for a, b in zip(native, gpu)]
    print('%s: %d runs, medians %.1f / %.1f ms = %.3f; paired median %.3f, geomean %.3f, range %.2f-%.2f'
          % (path.split('/')[-1], len(r), s.median(native), s.median(gpu),
             s.median(native) / s.median(gpu), s.median(r),
             math.exp(sum(map(math.log, r)) / len(r)), min(r), max(r)))
