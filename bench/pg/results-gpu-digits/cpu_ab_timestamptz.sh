# cpu_ab_timestamptz.sh [N]: native min/max(t) against gpu_min/gpu_max(t) through the row path, alternating in one session; f4 = 10 M rows with a timestamptz column t; PSQL names the psql command
N=${1:-9}
{
echo "set jit=off; set max_parallel_workers_per_gather=0; set gpu_reduce.bulk_scan=off; \\timing on"
for r in $(seq $N); do
echo "\\echo @n min_t"; echo "select min(t) from f4;"
echo "\\echo @g min_t"; echo "select gpu_min(t) from f4;"
echo "\\echo @n max_t"; echo "select max(t) from f4;"
echo "\\echo @g max_t"; echo "select gpu_max(t) from f4;"
done
} | ${PSQL:-psql} -At 2>&1 | python3 "$(dirname "$0")/../ab_medians.py"
