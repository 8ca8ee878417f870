/*
 * kernel_bench.cu
 *	  Benchmark of the CUDA kernels against CUB's DeviceReduce on the same
 *	  device-resident data in the same run, every answer checked on the CPU.
 *
 * 2^28 values per type (fewer with --n=), random data made on the device.
 * Each line: our GB/s, CUB's GB/s, the ratio, and the check.  Times are the
 * median of --reps CUDA-event timings after warm-up; GB/s counts the input
 * bytes read once.  The sum of squares (sumsq, xsumsq) is timed against the
 * same CUB Sum: its ratio is its cost over a plain sum's floor.  --only=xsum:
 * just the exact sums; --only=sumsq: just the sums and sums of squares.
 * Exits non-zero if any check fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <functional>
#include <vector>

#include <cub/device/device_reduce.cuh>

#include "../cuda/gr_cuda.h"
#include "gr_data.cuh"
#include "gr_ref.h"

#define CK(x) do { int rc_ = (x); if (rc_ != GR_CUDA_OK) { \
	fprintf(stderr, "%s:%d: %s -> %d: %s\n", __FILE__, __LINE__, #x, rc_, gr_cuda_last_error()); exit(2); } } while (0)
#define CKR(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(2); } } while (0)

static int	reps = 21;
static bool only_xsum = false;	/* --only=xsum: just the exact sums */
static bool only_sumsq = false; /* --only=sumsq: sums and sums of squares */
static int	failures = 0;
static cudaStream_t stream;

/* Median milliseconds of fn() on 'stream', after 3 warm-up runs. */
static double
time_ms(const std::function<void()> &fn)
{
	std::vector<float> t(reps);
	cudaEvent_t a, b;

	CKR(cudaEventCreate(&a));
	CKR(cudaEventCreate(&b));
	for (int i = 0; i < 3; i++)
		fn();
	CKR(cudaStreamSynchronize(stream));
	for (int i = 0; i < reps; i++)
	{
		CKR(cudaEventRecord(a, stream));
		fn();
		CKR(cudaEventRecord(b, stream));
		CKR(cudaEventSynchronize(b));
		CKR(cudaEventElapsedTime(&t[i], a, b));
	}
	CKR(cudaGetLastError());
	CKR(cudaEventDestroy(a));
	CKR(cudaEventDestroy(b));
	std::sort(t.begin(), t.end());
	return t[reps / 2];
}

/* CUB temporary storage, grown as needed. */
static void *cub_temp = NULL;
static size_t cub_temp_bytes = 0;

/* Make sure CUB's temporary storage holds 'bytes'. */
static void
cub_reserve(size_t bytes)
{
	if (bytes <= cub_temp_bytes)
		return;
	if (cub_temp)
		CKR(cudaFree(cub_temp));
	CKR(cudaMalloc(&cub_temp, bytes));
	cub_temp_bytes = bytes;
}

/* time of cub::DeviceReduce::{Sum,Min,Max} of n values of In into Out */
template <typename In, typename Out>
static double
cub_time(int which, const void *d_in, int64_t n, void *d_out)
{
	size_t		bytes = 0;
	const In   *in = (const In *) d_in;
	Out		   *out = (Out *) d_out;
	auto		call = [&](void *tmp, size_t &b) {
		if (which == 0)
			return cub::DeviceReduce::Sum(tmp, b, in, out, n, stream);
		if (which == 1)
			return cub::DeviceReduce::Min(tmp, b, in, out, n, stream);
		return cub::DeviceReduce::Max(tmp, b, in, out, n, stream);
	};

	CKR(call(NULL, bytes));
	cub_reserve(bytes);
	return time_ms([&]() { size_t b = cub_temp_bytes; CKR(call(cub_temp, b)); });
}

/* CUB baseline for a type and op: Sum (ints into int64), Min, Max. */
static double
cub_baseline(GrCudaType type, int which, const void *d_in, int64_t n, void *d_out)
{
	switch (type)
	{
		case GR_CUDA_INT2:
			return which == 0 ? cub_time<int16_t, long long>(0, d_in, n, d_out)
				: cub_time<int16_t, int16_t>(which, d_in, n, d_out);
		case GR_CUDA_INT4:
			return which == 0 ? cub_time<int32_t, long long>(0, d_in, n, d_out)
				: cub_time<int32_t, int32_t>(which, d_in, n, d_out);
		case GR_CUDA_INT8:
			return cub_time<long long, long long>(which, d_in, n, d_out);
		case GR_CUDA_FLOAT4:
			return cub_time<float, float>(which, d_in, n, d_out);
		case GR_CUDA_FLOAT8:
			return cub_time<double, double>(which, d_in, n, d_out);
	}
	return 0;
}

static const char *const type_name[] = {"", "int2", "int4", "int8", "float4", "float8"};

/* Check one result against the CPU; true if it matches. */
static bool
check(GrCudaType type, GrCudaOp op, int64_t k, const void *h, int64_t n,
	  const GrCudaResult *r, const int64_t *topk)
{
	if (r->count != n || r->op != (int) op)
		return false;
	if ((op == GR_CUDA_SUM || op == GR_CUDA_SUMSQ) &&
		(type == GR_CUDA_FLOAT4 || type == GR_CUDA_FLOAT8))
	{
		GrXsum		ref, a, b;
		double		da, db;

		ref_xsum(type, h, n, &ref);
		if (!ref_xsum_limbs_bounded(&r->xsum) || !ref_xsum_equal(&ref, &r->xsum))
			return false;
		a = ref;
		b = r->xsum;
		if (gr_xsum_to_double(&a, n, &da) != gr_xsum_to_double(&b, n, &db))
			return false;
		if (memcmp(&da, &db, 8) != 0)
			return false;
		if (op == GR_CUDA_SUM)
			return true;
		ref_xsum_squares(type, h, n, &ref);
		return ref_xsum_limbs_bounded(&r->xsum2) && ref_xsum_equal(&ref, &r->xsum2);
	}
	if (op == GR_CUDA_SUMSQ)
	{
		int64_t		lo, hi;
		uint64_t	sq[3];

		ref_sumsq_int(type, h, n, &lo, &hi, sq);
		return lo == r->sum_lo && hi == r->sum_hi && sq[0] == r->sq[0] && sq[1] == r->sq[1] &&
			sq[2] == r->sq[2];
	}
	if (op == GR_CUDA_SUM)
	{
		int64_t		lo, hi;

		ref_sum_int(type, h, n, &lo, &hi);
		return lo == r->sum_lo && hi == r->sum_hi;
	}
	if (op == GR_CUDA_MIN || op == GR_CUDA_MAX)
		return r->nkeys == 1 && r->key[0] == ref_minmax(type, h, n, op == GR_CUDA_MAX);
	if (op == GR_CUDA_TOP2)
	{
		int64_t		ref[2];

		return ref_top2(type, h, n, ref) == r->nkeys && r->key[0] == ref[0] &&
			r->key[1] == ref[1];
	}
	{
		std::vector<int64_t> keys(n);
		int64_t		m = ref_topk(type, h, n, k, keys.data());

		if (r->nkeys != m)
			return false;
		for (int64_t i = 0; i < m; i++)
			if (topk[i] != keys[i])
				return false;
		return true;
	}
}

/* Time our op and its CUB baseline, check, and print one line. */
static void
bench_one(GrCudaContext *ctx, const char *label, GrCudaType type, GrCudaOp op,
		  int cub_which, const void *d, const void *h, int64_t n, void *d_cub_out,
		  GrCudaResult *res, bool cub_too)
{
	double		bytes = (double) n * ref_type_bytes(type);
	double		ours,
				cub = 0;
	bool		ok;

	ours = time_ms([&]() {
		CK(gr_cuda_reduce_device(ctx, type, op, 0, d, n, NULL, NULL));
	});
	if (cub_too)
		cub = cub_baseline(type, cub_which, d, n, d_cub_out);
	memset(res, 0xA5, sizeof(*res));
	CK(gr_cuda_reduce_device(ctx, type, op, 0, d, n, res, NULL));
	CK(gr_cuda_sync(ctx));
	ok = check(type, op, 0, h, n, res, NULL);
	if (!ok)
		failures++;
	if (cub_too)
		printf("%-22s: %7.1f GB/s  CUB %7.1f GB/s  ratio %.3f  check %s\n", label,
			   bytes / ours / 1e6, bytes / cub / 1e6, cub / ours, ok ? "OK" : "FAIL");
	else
		printf("%-22s: %7.1f GB/s  %-28s check %s\n", label, bytes / ours / 1e6, "",
			   ok ? "OK" : "FAIL");
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	int64_t		n = (int64_t) 1 << 28;
	const GrCudaType types[] = {GR_CUDA_INT2, GR_CUDA_INT4, GR_CUDA_INT8, GR_CUDA_FLOAT4,
		GR_CUDA_FLOAT8};
	GrCudaDeviceInfo info;
	GrCudaContext *ctx;
	GrCudaResult *res;
	void	   *d_cub_out;
	void	   *d;
	void	   *h;
	char		label[64];
	int64_t		topk_n = 1 << 22;

	for (int i = 1; i < argc; i++)
	{
		if (strncmp(argv[i], "--n=", 4) == 0)
			n = atoll(argv[i] + 4);
		else if (strncmp(argv[i], "--reps=", 7) == 0)
			reps = atoi(argv[i] + 7);
		else if (strcmp(argv[i], "--only=xsum") == 0)
			only_xsum = true;
		else if (strcmp(argv[i], "--only=sumsq") == 0)
			only_sumsq = true;
	}
	CK(gr_cuda_device_info(0, &info));
	printf("device: %s, %d SMs, %.1f GiB; n = %lld values per type, median of %d runs\n",
		   info.name, info.sm_count, info.total_memory / 1073741824.0, (long long) n, reps);
	CK(gr_cuda_context_create(0, 0, topk_n, &ctx));
	CK(gr_cuda_host_alloc(sizeof(GrCudaResult), (void **) &res));
	stream = (cudaStream_t) gr_cuda_context_stream(ctx);	/* ours and CUB's alike */
	CKR(cudaMalloc(&d_cub_out, 64));
	CKR(cudaMalloc(&d, (size_t) n * 8));
	h = malloc((size_t) n * 8);
	if (h == NULL)
	{
		fprintf(stderr, "out of host memory\n");
		return 2;
	}

	for (GrCudaType type : types)
	{
		bool		is_float = type == GR_CUDA_FLOAT4 || type == GR_CUDA_FLOAT8;
		size_t		bytes = (size_t) n * ref_type_bytes(type);

		if (only_xsum && !is_float)
			continue;

		CKR(gr_fill(d, type, PAT_RANDOM, n, 1234 + type));
		CKR(cudaDeviceSynchronize());
		CKR(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
		if (!is_float && !only_xsum)
		{
			snprintf(label, sizeof(label), "sum %s", type_name[type]);
			bench_one(ctx, label, type, GR_CUDA_SUM, 0, d, h, n, d_cub_out, res, true);
			snprintf(label, sizeof(label), "sumsq %s", type_name[type]);
			bench_one(ctx, label, type, GR_CUDA_SUMSQ, 0, d, h, n, d_cub_out, res, true);
		}
		if (!only_xsum && !only_sumsq)
		{
			snprintf(label, sizeof(label), "min %s", type_name[type]);
			bench_one(ctx, label, type, GR_CUDA_MIN, 1, d, h, n, d_cub_out, res, true);
			snprintf(label, sizeof(label), "max %s", type_name[type]);
			bench_one(ctx, label, type, GR_CUDA_MAX, 2, d, h, n, d_cub_out, res, true);
			snprintf(label, sizeof(label), "top2 %s", type_name[type]);
			bench_one(ctx, label, type, GR_CUDA_TOP2, 2, d, h, n, d_cub_out, res, true);
		}
		if (is_float)
		{
			const int	pats[] = {PAT_RANDOM, PAT_WIDE, PAT_SPECIAL, PAT_CANCEL, PAT_EQUAL,
				PAT_TINY, PAT_BITS};

			for (int pat : pats)
			{
				if (only_sumsq && pat != PAT_RANDOM && pat != PAT_WIDE && pat != PAT_SPECIAL)
					continue;
				if (pat != PAT_RANDOM)
				{
					CKR(gr_fill(d, type, pat, n, 99 + type + pat));
					CKR(cudaDeviceSynchronize());
					CKR(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
				}
				snprintf(label, sizeof(label), "xsum %s %s", type_name[type], gr_pattern_name[pat]);
				bench_one(ctx, label, type, GR_CUDA_SUM, 0, d, h, n, d_cub_out, res, true);
				if (only_xsum)
					continue;
				snprintf(label, sizeof(label), "xsumsq %s %s", type_name[type],
						 gr_pattern_name[pat]);
				bench_one(ctx, label, type, GR_CUDA_SUMSQ, 0, d, h, n, d_cub_out, res, true);
			}
		}
	}

	/* top-k for large k on a few million values */
	for (GrCudaType type : {GR_CUDA_INT4, GR_CUDA_FLOAT8})
		for (int64_t k : {1000, 100000})
		{
			int64_t    *topk;
			double		ms;
			bool		ok;

			if (only_xsum || only_sumsq)
				continue;

			CK(gr_cuda_host_alloc((size_t) k * 8, (void **) &topk));
			CKR(gr_fill(d, type, PAT_RANDOM, topk_n, 5 + k));
			CKR(cudaDeviceSynchronize());
			CKR(cudaMemcpy(h, d, (size_t) topk_n * ref_type_bytes(type), cudaMemcpyDeviceToHost));
			ms = time_ms([&]() {
				CK(gr_cuda_reduce_device(ctx, type, GR_CUDA_TOPK, k, d, topk_n, res, topk));
			});
			CK(gr_cuda_reduce_device(ctx, type, GR_CUDA_TOPK, k, d, topk_n, res, topk));
			CK(gr_cuda_sync(ctx));
			ok = check(type, GR_CUDA_TOPK, k, h, topk_n, res, topk);
			failures += !ok;
			snprintf(label, sizeof(label), "topk %s k=%lld", type_name[type], (long long) k);
			printf("%-22s: %7.1f GB/s  (%lld values, %.3f ms incl. copy out) check %s\n", label,
				   topk_n * ref_type_bytes(type) / ms / 1e6, (long long) topk_n, ms,
				   ok ? "OK" : "FAIL");
			gr_cuda_host_free(topk);
		}

	/* the service's path: 8 MiB pinned slots, copy in + exact sum + copy out, 4 streams */
	if (!only_xsum && !only_sumsq)
	{
		const int	NCTX = 4,
					BATCHES = 64;
		int64_t		slot = (8 << 20) / 8;
		GrCudaContext *sc[NCTX];
		double	   *slots;
		GrCudaResult *sres;
		cudaEvent_t t0, t1;
		float		ms;

		CK(gr_cuda_host_alloc((size_t) slot * 8 * NCTX, (void **) &slots));
		CK(gr_cuda_host_alloc(sizeof(GrCudaResult) * NCTX, (void **) &sres));
		CKR(gr_fill(d, GR_CUDA_FLOAT8, PAT_RANDOM, slot * NCTX, 4242));
		CKR(cudaMemcpy(slots, d, (size_t) slot * 8 * NCTX, cudaMemcpyDeviceToHost));
		for (int c = 0; c < NCTX; c++)
			CK(gr_cuda_context_create(0, slot, 0, &sc[c]));
		CKR(cudaEventCreate(&t0));
		CKR(cudaEventCreate(&t1));
		for (int rep = 0; rep < 2; rep++)	/* first round warms up */
		{
			CKR(cudaDeviceSynchronize());
			CKR(cudaEventRecord(t0, 0));
			for (int b = 0; b < BATCHES; b++)
				CK(gr_cuda_reduce_host(sc[b % NCTX], GR_CUDA_FLOAT8, GR_CUDA_SUM, 0,
									   slots + (size_t) (b % NCTX) * slot, slot,
									   &sres[b % NCTX], NULL));
			for (int c = 0; c < NCTX; c++)
				CK(gr_cuda_sync(sc[c]));
			CKR(cudaEventRecord(t1, 0));
			CKR(cudaEventSynchronize(t1));
		}
		CKR(cudaEventElapsedTime(&ms, t0, t1));
		printf("%-22s: %7.1f GB/s  (%d x 8 MiB float8 batches, H2D + xsum + D2H, %d streams)\n",
			   "service path", BATCHES * 8.0 * 1048576 / ms / 1e6, BATCHES, NCTX);
		for (int c = 0; c < NCTX; c++)
			gr_cuda_context_destroy(sc[c]);
		gr_cuda_host_free(slots);
		gr_cuda_host_free(sres);
	}

	printf("kernel_bench: %s\n", failures ? "FAIL" : "all checks OK");
	gr_cuda_context_destroy(ctx);
	return failures ? 1 : 0;
}
