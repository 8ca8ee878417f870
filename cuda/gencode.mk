# cuda/gencode.mk: the GPUs the kernels are compiled for, one list for
# cuda/Makefile and bench/Makefile (the top-level Makefile passes a GENCODE
# given to it on).
#
# Machine code for compute capability 7.5 (T4, RTX 20), 8.0 (A100, A30),
# 8.6 (A10, A40, RTX 30), 8.9 (L4, L40S, RTX 40) and 9.0 (H100, H200), plus
# compute_90 PTX, which the driver compiles once at load on a newer GPU.
# CUDA 13 builds nothing below 7.5.  No kernel uses an sm_90a-only feature
# (wgmma, setmaxnreg), so Hopper gets plain sm_90.  One target instead of
# five builds about five times faster, e.g. for an H100 only:
#   make GENCODE="-gencode=arch=compute_90,code=sm_90"
GENCODE ?= -gencode=arch=compute_75,code=sm_75 \
	-gencode=arch=compute_80,code=sm_80 \
	-gencode=arch=compute_86,code=sm_86 \
	-gencode=arch=compute_89,code=sm_89 \
	-gencode=arch=compute_90,code=sm_90 \
	-gencode=arch=compute_90,code=compute_90
