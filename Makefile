# gpu_reduce: PGXS build.  `make` builds a CPU-only library when no nvcc is
# found (or WITH_CUDA=no); otherwise the CUDA kernels are linked in statically
# with the CUDA runtime, so the library still loads where there is no driver.

EXTENSION = gpu_reduce
MODULE_big = gpu_reduce
DATA = gpu_reduce--1.0.sql
OBJS = src/gpu_reduce.o src/agg.o src/batch.o src/partial.o \
	src/cpu_reduce.o src/serial.o src/stats.o src/xsum.o src/gpu_client.o

REGRESS = $(sort $(basename $(notdir $(wildcard sql/*.sql))))
REGRESS_OPTS = --inputdir=. --load-extension=gpu_reduce

# Debian's PGXS would want LLVM bitcode of every object, .cu ones included.
override with_llvm = no

PG_CONFIG ?= pg_config
PG_CPPFLAGS = -I$(srcdir)/src

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
