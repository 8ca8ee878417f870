#!/bin/bash
# ab.sh PSQL TABLE RUNS WORKERS: native vs gpu_* with the row path folding (xrow_fold on) and batching (off), alternating, one fresh session per query
P=$1; T=$2; R=$3; W=${4:-0}
declare -A Q
Q[sum_int8]="sum(b)|gpu_sum(b)"
Q[four]="sum(b), min(d), max(d), avg(i)|gpu_sum(b), gpu_min(d), gpu_max(d), gpu_avg(i)"
Q[max_tz]="max(t)|gpu_max(t)"
for c in sum_int8 four max_tz; do
  n=${Q[$c]%%|*}; g=${Q[$c]#*|}
  for r in $(seq $R); do
    for v in native on off; do
      if [ $v = native ]; then q="SELECT $n FROM $T"; else q="SET gpu_reduce.xrow_fold = $v; SELECT $g FROM $T"; fi
      ms=$(PGOPTIONS="-c jit=off -c gpu_reduce.bulk_scan=off -c max_parallel_workers_per_gather=$W" $P -At -c '\timing on' -c "$q" | awk '/^Time:/ {t=$2} END {print t}')
      echo "$c $v $ms"
    done
  done
done | python3 -c "
import sys,statistics as s,collections
d=collections.defaultdict(list)
for l in sys.stdin:
  c,v,ms=l.split(); d[(c,v)].append(float(ms))
for c in ['sum_int8','four','max_tz']:
  n=s.median(d[(c,'native')]); on=s.median(d[(c,'on')]); off=s.median(d[(c,'off')])
  print('workers=$W %-9s native %8.1f  fold %8.1f (%.3f)  batch %8.1f (%.3f)   runs n=%s' % (c, n, on, n/on, off, n/off, len(d[(c,'native')])))
  for v in ('native','on','off'): print('   ', v, ' '.join('%.0f' % x for x in d[(c,v)]))
"
