# C26: issue 14's targets at 0222542 (the final code's page path): pgb_narrow, 5 runs, serial and 8 workers, and the floor probe
nvidia-smi --query-gpu=name --format=csv,noheader
md5sum .gpubuild/gpu_reduce.so
bash .gpubuild/bench.sh 575 narrow-0222542 --runs 5 --cases 'bulk_floor_page_narrow_sum_int8,bulk_narrow_*'
