# C25: row-path gpu_min/gpu_max(timestamptz) against native at 0222542, 15 runs, serial and 8 workers
nvidia-smi --query-gpu=name --format=csv,noheader
md5sum .gpubuild/gpu_reduce.so
bash .gpubuild/bench.sh 570 tz15-0222542 --runs 15 --cases 'max_timestamptz,min_timestamptz'
