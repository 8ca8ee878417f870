# cpu_ab_numeric.sh [N]: A/B of two builds, /tmp/A.so and /tmp/B.so, installed in turn (new sessions load the file; the server must not preload it), on numeric min/max/top-k through the row path and the bulk scan; table np = 5 M rows of numeric(12,2) column p; PSQL names the psql command
N=${1:-5}; LIB=$(pg_config --pkglibdir); PSQL=${PSQL:-psql}
for r in $(seq $N); do for b in A B; do
cp /tmp/$b.so $LIB/gpu_reduce.so
{ echo "set jit=off; set max_parallel_workers_per_gather=0; \\timing on"
for path in row bulk; do
 [ $path = row ] && echo "set gpu_reduce.bulk_scan=off;" || echo "set gpu_reduce.bulk_scan=on;"
 for a in min max; do
  echo "\\echo @$b n $path $a"; echo "select $a(p) from np;"
  echo "\\echo @$b g $path $a"; echo "select gpu_$a(p) from np;"
 done
 echo "\\echo @$b g $path top10"; echo "select gpu_topk(p, 10) from np;"
done; } | $PSQL -At 2>&1
done; done | python3 -c "
import sys,re,statistics as s,collections
cur=None; d=collections.defaultdict(list)
for l in sys.stdin:
  if l.startswith('@'): cur=tuple(l[1:].split())
  m=re.match(r'Time: ([0-9.]+) ms',l)
  if m and cur: d[cur].append(float(m.group(1))); cur=None
for path in ['row','bulk']:
  for a in ['min','max','top10']:
    out=[]
    for b in 'AB':
      g=s.median(d[(b,'g',path,a)])
      if a=='top10': out.append('%s gpu %.1f' % (b,g))
      else:
        n=s.median(d[(b,'n',path,a)]); out.append('%s native %.1f gpu %.1f ratio %.2f' % (b,n,g,n/g))
    print(path, a, ' | '.join(out))
"
