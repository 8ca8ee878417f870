/*
 * gr_topk.cu
 *	  Top-k for large k: the k largest order keys of a device array,
 *	  descending, as int64.
 *
 * Keys are written once (32-bit for int2/int4/float4, 64-bit otherwise, so
 * the radix sort moves as few bytes as it can), sorted descending by CUB's
 * radix sort into the context's scratch, and the first k widened to int64.
 * k <= 2 never comes here: the top-2 kernel answers it in one pass.
 */
#include <cub/device/device_radix_sort.cuh>

#include "gr_internal.h"
#include "gr_device.cuh"

/* Order keys of all values (grid-stride; plain loads, one pass). */
template <typename T>
__global__ void
gr_topk_keys_kernel(const T *p, int64_t n, typename GrKeyOf<T>::K *keys)
{
	for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
		keys[i] = GrKeyOf<T>::of(p[i]);
}

/* Widen the first m sorted keys to int64 and write the result header. */
template <typename K>
__global__ void
gr_topk_finish_kernel(const K *sorted, int64_t m, int64_t n, long long *out,
					  GrCudaResult *result)
{
	for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < m;
		 i += (int64_t) gridDim.x * blockDim.x)
		out[i] = (long long) sorted[i];
	if (blockIdx.x == 0 && threadIdx.x == 0)
	{
		result->count = n;
		result->op = GR_CUDA_TOPK;
		result->nkeys = (int32_t) m;
		result->sum_lo = result->sum_hi = 0;
		result->key[0] = result->key[1] = 0;
	}
}

/* Keys, sort, widen: three launches on the stream, no host sync. */
template <typename T>
static cudaError_t
gr_topk_typed(const GrScratch *s, const void *values, int64_t n, int64_t k,
			  cudaStream_t stream)
{
	typedef typename GrKeyOf<T>::K K;
	K		   *keys = static_cast<K *>(s->keys_a);
	K		   *sorted = static_cast<K *>(s->keys_b);
	int64_t		m = k < n ? k : n;
	int			grid = s->sm_count * GR_MAX_BLOCKS_PER_SM;
	size_t		temp = s->sort_temp_bytes;
	cudaError_t err;

	if (n > 0)
	{
		gr_topk_keys_kernel<T><<<grid, 256, 0, stream>>>(static_cast<const T *>(values),
														 n, keys);
		if ((err = cudaGetLastError()) != cudaSuccess)
			return err;
		err = cub::DeviceRadixSort::SortKeysDescending(s->sort_temp, temp, keys, sorted,
													   (int) n, 0, (int) sizeof(K) * 8,
													   stream);
		if (err != cudaSuccess)
			return err;
	}
	/* keys_a is free again: it takes the widened answer */
	gr_topk_finish_kernel<K><<<grid, 256, 0, stream>>>(sorted, m, n,
													   static_cast<long long *>(s->keys_a),
													   s->result);
	return cudaGetLastError();
}

/* Dispatch on the value type. */
cudaError_t
gr_launch_topk(const GrScratch *s, GrCudaType type, const void *values,
			   int64_t n, int64_t k, cudaStream_t stream)
{
	switch (type)
	{
		case GR_CUDA_INT2:
			return gr_topk_typed<int16_t>(s, values, n, k, stream);
		case GR_CUDA_INT4:
			return gr_topk_typed<int32_t>(s, values, n, k, stream);
		case GR_CUDA_INT8:
			return gr_topk_typed<long long>(s, values, n, k, stream);
		case GR_CUDA_FLOAT4:
			return gr_topk_typed<float>(s, values, n, k, stream);
		case GR_CUDA_FLOAT8:
			return gr_topk_typed<double>(s, values, n, k, stream);
	}
	return cudaErrorInvalidValue;
}

/* The larger of the 32- and 64-bit key sorts' temporary storage for n keys. */
cudaError_t
gr_topk_temp_bytes(int64_t n, size_t *bytes)
{
	size_t		b32 = 0,
				b64 = 0;
	cudaError_t err;

	err = cub::DeviceRadixSort::SortKeysDescending(nullptr, b32, (int32_t *) nullptr,
												   (int32_t *) nullptr, (int) n);
	if (err == cudaSuccess)
		err = cub::DeviceRadixSort::SortKeysDescending(nullptr, b64, (long long *) nullptr,
													   (long long *) nullptr, (int) n);
	*bytes = b32 > b64 ? b32 : b64;
	return err;
}
