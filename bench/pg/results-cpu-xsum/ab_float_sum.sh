# ab_float_sum.sh [N]: native sum(d) against gpu_sum(d) (exact) on a 10 M-row table f4, through the row path and the bulk scan, alternating in one session; PSQL names the psql command
N=${1:-7}
{
echo "set jit=off; set max_parallel_workers_per_gather=0; \\timing on"
for r in $(seq $N); do
echo "set gpu_reduce.bulk_scan=off;"
echo "\\echo @n row_sum_d"; echo "select sum(d) from f4;"
echo "\\echo @g row_sum_d"; echo "select gpu_sum(d) from f4;"
echo "set gpu_reduce.bulk_scan=on;"
echo "\\echo @n bulk_sum_d"; echo "select sum(d) from f4;"
echo "\\echo @g bulk_sum_d"; echo "select gpu_sum(d) from f4;"
done
} | ${PSQL:-psql} -At 2>&1 | python3 "$(dirname "$0")/../ab_medians.py"
