/*
 * kernel_test.cu
 *	  Correctness test of the CUDA kernels through the C interface
 *	  (cuda/gr_cuda.h): every type and op on many sizes, unaligned starts and
 *	  adversarial data, against the CPU references of gr_ref.c.
 *
 * Usage: kernel_test [--quick]   (--quick: small sizes, for compute-sanitizer)
 * Exits non-zero if any case fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "../cuda/gr_cuda.h"
#include "gr_data.cuh"
#include "gr_ref.h"

#define CK(x) do { int rc_ = (x); if (rc_ != GR_CUDA_OK) { \
	fprintf(stderr, "%s:%d: %s -> %d: %s\n", __FILE__, __LINE__, #x, rc_, gr_cuda_last_error()); exit(2); } } while (0)
#define CKR(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(2); } } while (0)

static const char *const type_name[] = {"", "int2", "int4", "int8", "float4", "float8"};
static const char *const op_name[] = {"", "sum", "min", "max", "", "topk", "top2", "sumsq"};

static int	failures = 0;
static int	cases = 0;

/* shared state of one test run */
struct TestEnv
{
	GrCudaContext *ctx;
	char	   *d_base;			/* device buffer, room for max n + 64 bytes */
	char	   *h_pinned;		/* pinned host copy, same size */
	GrCudaResult *res;			/* pinned */
	int64_t    *topk;			/* pinned, room for max n keys */
	std::vector<int64_t> ref_keys;
};

/*
 * A device exact sum against its CPU reference: the same value and counts,
 * limbs within the result contract, and the same bits once rounded.  On a
 * mismatch, false and the reason in why.
 */
static bool
xsum_matches(GrCudaType type, int64_t n, const char *what, const GrXsum *got,
			 const GrXsum *ref, char *why, size_t whylen)
{
	GrXsum		a = *ref,
				b = *got;
	double		da,
				db;
	GrXsumStatus sa,
				sb;

	if (!ref_xsum_limbs_bounded(got))
	{
		snprintf(why, whylen, "%s: limb out of bounds", what);
		return false;
	}
	if (!ref_xsum_equal(ref, got))
	{
		snprintf(why, whylen, "%s differs (nan %lld/%lld pinf %lld/%lld ninf %lld/%lld negzero %lld/%lld)",
				 what, (long long) got->nan, (long long) ref->nan, (long long) got->pinf,
				 (long long) ref->pinf, (long long) got->ninf, (long long) ref->ninf,
				 (long long) got->negzero, (long long) ref->negzero);
		return false;
	}
	if (type == GR_CUDA_FLOAT4)
	{
		float		fa,
					fb;

		sa = gr_xsum_to_float(&a, n, &fa);
		sb = gr_xsum_to_float(&b, n, &fb);
		da = fa;
		db = fb;
	}
	else
	{
		sa = gr_xsum_to_double(&a, n, &da);
		sb = gr_xsum_to_double(&b, n, &db);
	}
	if (sa != sb || memcmp(&da, &db, 8) != 0)
	{
		snprintf(why, whylen, "%s rounded %a vs %a", what, db, da);
		return false;
	}
	return true;
}

/* Run one case and compare; prints only failures. */
static void
run_case(TestEnv &env, GrCudaType type, GrCudaOp op, int64_t k, int pat,
		 int64_t n, int offset, bool via_host, uint64_t seed)
{
	int			size = ref_type_bytes(type);
	char	   *d_values = env.d_base + (size_t) offset * size;
	char	   *h_values = env.h_pinned + (size_t) offset * size;
	GrCudaResult *r = env.res;
	bool		ok = true;
	char		why[256] = "";

	cases++;
	CKR(gr_fill(d_values, type, pat, n, seed));
	CKR(cudaMemcpy(h_values, d_values, (size_t) n * size, cudaMemcpyDeviceToHost));
	memset(r, 0xA5, sizeof(*r));
	if (op == GR_CUDA_TOPK)
		memset(env.topk, 0xA5, (size_t) (k < n ? k : n) * 8 + 8);
	if (via_host)
		CK(gr_cuda_reduce_host(env.ctx, type, op, k, h_values, n, r, env.topk));
	else
		CK(gr_cuda_reduce_device(env.ctx, type, op, k, d_values, n, r, env.topk));
	CK(gr_cuda_sync(env.ctx));

	if (r->count != n || r->op != (int) op)
	{
		ok = false;
		snprintf(why, sizeof(why), "count %lld op %d", (long long) r->count, r->op);
	}
	else if ((op == GR_CUDA_SUM || op == GR_CUDA_SUMSQ) &&
			 (type == GR_CUDA_FLOAT4 || type == GR_CUDA_FLOAT8))
	{
		GrXsum		ref;

		ref_xsum(type, h_values, n, &ref);
		ok = xsum_matches(type, n, "exact sum", &r->xsum, &ref, why, sizeof(why));
		if (ok && op == GR_CUDA_SUMSQ)
		{
			ref_xsum_squares(type, h_values, n, &ref);
			ok = xsum_matches(type, n, "exact sum of squares", &r->xsum2, &ref, why,
							  sizeof(why));
		}
	}
	else if (op == GR_CUDA_SUMSQ)
	{
		int64_t		lo, hi;
		uint64_t	sq[3];

		ref_sumsq_int(type, h_values, n, &lo, &hi, sq);
		if (lo != r->sum_lo || hi != r->sum_hi || sq[0] != r->sq[0] || sq[1] != r->sq[1] ||
			sq[2] != r->sq[2])
		{
			ok = false;
			snprintf(why, sizeof(why),
					 "sum %llx:%016llx sq %llx:%016llx:%016llx vs ref %llx:%016llx sq %llx:%016llx:%016llx",
					 (long long) r->sum_hi, (long long) r->sum_lo, (unsigned long long) r->sq[2],
					 (unsigned long long) r->sq[1], (unsigned long long) r->sq[0],
					 (long long) hi, (long long) lo, (unsigned long long) sq[2],
					 (unsigned long long) sq[1], (unsigned long long) sq[0]);
		}
	}
	else if (op == GR_CUDA_SUM)
	{
		int64_t		lo, hi;

		ref_sum_int(type, h_values, n, &lo, &hi);
		if (lo != r->sum_lo || hi != r->sum_hi)
		{
			ok = false;
			snprintf(why, sizeof(why), "sum %llx:%016llx vs ref %llx:%016llx",
					 (long long) r->sum_hi, (long long) r->sum_lo, (long long) hi, (long long) lo);
		}
	}
	else if (op == GR_CUDA_MIN || op == GR_CUDA_MAX)
	{
		int64_t		ref = ref_minmax(type, h_values, n, op == GR_CUDA_MAX);

		if (r->nkeys != (n > 0) || (n > 0 && r->key[0] != ref))
		{
			ok = false;
			snprintf(why, sizeof(why), "nkeys %d key %llx vs ref %llx", r->nkeys,
					 (long long) r->key[0], (long long) ref);
		}
	}
	else if (op == GR_CUDA_TOP2)
	{
		int64_t		ref[2];
		int			m = ref_top2(type, h_values, n, ref);

		if (r->nkeys != m || (m > 0 && r->key[0] != ref[0]) || (m > 1 && r->key[1] != ref[1]))
		{
			ok = false;
			snprintf(why, sizeof(why), "nkeys %d keys %llx %llx vs ref %llx %llx", r->nkeys,
					 (long long) r->key[0], (long long) r->key[1], (long long) ref[0],
					 (long long) ref[1]);
		}
	}
	else
	{
		int64_t		m;

		env.ref_keys.resize(n > 0 ? n : 1);
		m = ref_topk(type, h_values, n, k, env.ref_keys.data());
		if (r->nkeys != m)
		{
			ok = false;
			snprintf(why, sizeof(why), "nkeys %d vs %lld", r->nkeys, (long long) m);
		}
		for (int64_t i = 0; ok && i < m; i++)
			if (env.topk[i] != env.ref_keys[i])
			{
				ok = false;
				snprintf(why, sizeof(why), "topk[%lld] %llx vs ref %llx", (long long) i,
						 (long long) env.topk[i], (long long) env.ref_keys[i]);
			}
	}
	if (!ok)
	{
		failures++;
		printf("FAIL %s %-6s k=%lld %-8s n=%lld off=%d %s: %s\n", op_name[op], type_name[type],
			   (long long) k, gr_pattern_name[pat], (long long) n, offset,
			   via_host ? "host" : "device", why);
	}
}

/*
 * Several contexts in flight at once, each on its own stream and scratch;
 * odd contexts take the sum of squares, so both result sizes come back.
 */
static void
run_streams(TestEnv &env, int64_t n)
{
	const int	NCTX = 4;
	GrCudaContext *ctx[NCTX];
	GrCudaResult *res;
	double	   *h;
	double	   *d;
	GrXsum		ref;

	CK(gr_cuda_host_alloc(sizeof(GrCudaResult) * NCTX, (void **) &res));
	CK(gr_cuda_host_alloc((size_t) n * 8 * NCTX, (void **) &h));
	CKR(cudaMalloc(&d, (size_t) n * 8 * NCTX));
	for (int c = 0; c < NCTX; c++)
	{
		CK(gr_cuda_context_create(0, n, 0, &ctx[c]));
		CKR(gr_fill(d + (size_t) c * n, GR_CUDA_FLOAT8, c % 2 ? PAT_WIDE : PAT_RANDOM, n, 77 + c));
	}
	CKR(cudaMemcpy(h, d, (size_t) n * 8 * NCTX, cudaMemcpyDeviceToHost));
	for (int rep = 0; rep < 3; rep++)
	{
		memset(res, 0xA5, sizeof(GrCudaResult) * NCTX);
		for (int c = 0; c < NCTX; c++)
			CK(gr_cuda_reduce_host(ctx[c], GR_CUDA_FLOAT8, c % 2 ? GR_CUDA_SUMSQ : GR_CUDA_SUM, 0,
								   h + (size_t) c * n, n, &res[c], NULL));
		for (int c = 0; c < NCTX; c++)
		{
			int			done = 0;

			while (!done)
				CK(gr_cuda_poll(ctx[c], &done));
			bool		ok;

			cases++;
			ref_xsum(GR_CUDA_FLOAT8, h + (size_t) c * n, n, &ref);
			ok = ref_xsum_equal(&ref, &res[c].xsum);
			if (c % 2)
			{
				ref_xsum_squares(GR_CUDA_FLOAT8, h + (size_t) c * n, n, &ref);
				ok = ok && ref_xsum_equal(&ref, &res[c].xsum2);
			}
			if (!ok)
			{
				failures++;
				printf("FAIL streams: context %d rep %d\n", c, rep);
			}
		}
	}
	for (int c = 0; c < NCTX; c++)
		gr_cuda_context_destroy(ctx[c]);
	CKR(cudaFree(d));
	gr_cuda_host_free(h);
	gr_cuda_host_free(res);
}

int
main(int argc, char **argv)
{
	bool		quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
	std::vector<int64_t> sizes = {0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
		255, 256, 257, 1000, 1023, 1024, 1025, 4095, 4096, 4097, 65539};
	const std::vector<int64_t> quick_sizes = {0, 1, 2, 17, 33, 1000, 4097, 65539};
	const GrCudaType types[] = {GR_CUDA_INT2, GR_CUDA_INT4, GR_CUDA_INT8, GR_CUDA_FLOAT4,
		GR_CUDA_FLOAT8};
	const GrCudaOp ops[] = {GR_CUDA_SUM, GR_CUDA_MIN, GR_CUDA_MAX, GR_CUDA_TOP2, GR_CUDA_SUMSQ};
	const int	int_pats[] = {PAT_RANDOM, PAT_SMALLINT, PAT_EQUAL, PAT_NEGZERO, PAT_HUGE};
	/* the first five are the quick set */
	const int	float_pats[] = {PAT_RANDOM, PAT_SPECIAL, PAT_BITS, PAT_CANCEL, PAT_WIDE,
		PAT_SMALLINT, PAT_EQUAL, PAT_NEGZERO, PAT_TINY, PAT_HUGE, PAT_SQEDGE};
	int64_t		max_n = quick ? 1 << 17 : 3000017;
	int64_t		topk_n = quick ? 1 << 17 : 3000017;
	TestEnv		env;
	GrCudaDeviceInfo info;
	uint64_t	seed = 1;

	if (quick)
		sizes = quick_sizes;
	else
	{
		sizes.push_back((1 << 20) + 7);
		sizes.push_back(3000017);
	}
	CK(gr_cuda_device_info(0, &info));
	printf("device: %s, %d SMs\n", info.name, info.sm_count);
	CK(gr_cuda_context_create(0, max_n + 8, topk_n + 8, &env.ctx));
	printf("context scratch: %lld bytes\n", (long long) gr_cuda_context_scratch_bytes(env.ctx));
	CKR(cudaMalloc(&env.d_base, (size_t) (max_n + 16) * 8));
	CK(gr_cuda_host_alloc((size_t) (max_n + 16) * 8, (void **) &env.h_pinned));
	CK(gr_cuda_host_alloc(sizeof(GrCudaResult), (void **) &env.res));
	CK(gr_cuda_host_alloc((size_t) (topk_n + 16) * 8, (void **) &env.topk));

	for (GrCudaType type : types)
	{
		bool		is_float = type == GR_CUDA_FLOAT4 || type == GR_CUDA_FLOAT8;
		const int  *pats = is_float ? float_pats : int_pats;
		int			npats = quick ? (is_float ? 5 : 2) :
			(is_float ? (int) (sizeof(float_pats) / sizeof(float_pats[0])) :
			 (int) (sizeof(int_pats) / sizeof(int_pats[0])));

		for (GrCudaOp op : ops)
			for (int pi = 0; pi < npats; pi++)
				for (int64_t n : sizes)
				{
					int			noff = quick ? 2 : n <= 4097 ? 4 : (n < 100000 ? 2 : 1);

					for (int off = 0; off < noff; off++)
						run_case(env, type, op, 0, pats[pi], n, off * 3 % 7, (n + off) % 5 == 0,
								 seed++);
				}
		/* top-k with large and small k */
		for (int64_t k : {1, 2, 3, 1000, 100000})
			for (int64_t n : {0, 1, 2, 5, 999, 1000, 1001, 65539, 100000, 3000017})
			{
				if (n > topk_n || (quick && (k == 100000 || n > 70000)))
					continue;
				for (int pi : {PAT_RANDOM, PAT_SMALLINT})
					run_case(env, type, GR_CUDA_TOPK, k, pi, n, n % 3, n % 2 == 1, seed++);
				if (is_float)
					run_case(env, type, GR_CUDA_TOPK, k, PAT_SPECIAL, n, 1, false, seed++);
			}
		printf("%-6s done, %d cases so far, %d failures\n", type_name[type], cases, failures);
		fflush(stdout);
	}
	run_streams(env, quick ? 5000 : 1 << 20);

	/* bad arguments are refused, not crashed on */
	cases++;
	if (gr_cuda_reduce_device(env.ctx, GR_CUDA_FLOAT8, GR_CUDA_SUM, 0, env.d_base + 1, 10,
							  env.res, NULL) != GR_CUDA_EINVAL ||
		gr_cuda_reduce_device(env.ctx, (GrCudaType) 9, GR_CUDA_SUM, 0, env.d_base, 10,
							  env.res, NULL) != GR_CUDA_EINVAL ||
		gr_cuda_reduce_device(env.ctx, GR_CUDA_INT4, GR_CUDA_TOPK, 5, env.d_base,
							  topk_n + 100, env.res, env.topk) != GR_CUDA_EINVAL ||
		gr_cuda_reduce_device(env.ctx, GR_CUDA_INT4, (GrCudaOp) 4, 0, env.d_base, 10,
							  env.res, NULL) != GR_CUDA_EINVAL ||
		gr_cuda_reduce_device(env.ctx, GR_CUDA_FLOAT8, (GrCudaOp) 8, 0, env.d_base, 10,
							  env.res, NULL) != GR_CUDA_EINVAL)
	{
		failures++;
		printf("FAIL bad arguments were accepted\n");
	}

	gr_cuda_context_destroy(env.ctx);
	printf("kernel_test: %d cases, %d failures: %s\n", cases, failures, failures ? "FAIL" : "OK");
	return failures ? 1 : 0;
}
