# C24: issue 11's borderline bulk numeric cases at 0222542 (digit-by-digit min/max), 5 runs, serial and 8 workers
nvidia-smi --query-gpu=name --format=csv,noheader
md5sum .gpubuild/gpu_reduce.so
bash .gpubuild/bench.sh 560 numeric-0222542 --runs 5 --cases 'bulk_min_numeric,bulk_max_numeric'
