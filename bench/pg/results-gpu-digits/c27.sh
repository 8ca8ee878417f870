# C27: the two narrow cases under 15x serially in C26 (sum float8 14.45, top2 float8 13.82), once more with 9 runs, serial, plus sum int8 beside them
nvidia-smi --query-gpu=name --format=csv,noheader
md5sum .gpubuild/gpu_reduce.so
bash .gpubuild/bench.sh 575 narrow9-0222542 --runs 9 --modes serial --cases 'bulk_narrow_sum_float8,bulk_narrow_top2_float8,bulk_narrow_sum_int8'
