/*
 * batch.c
 *	  The transition state: appending values to its batch, handing full
 *	  batches to a reducer, and keeping batch buffers within
 *	  gpu_reduce.buffer_memory.
 *
 * A buffer starts small and doubles up to gpu_reduce.batch_rows, so that a
 * GROUP BY with many small groups does not reserve a full batch per group.
 * All buffers of a backend share one budget; a state that cannot grow its
 * buffer within it reduces what it holds instead, and a state that cannot get
 * a buffer at all folds each value straight into its partial result.
 */
#include "gpu_reduce.h"

/* first capacity of a batch buffer, in values */
#define GR_FIRST_BATCH_ROWS 64

/* Size in bytes of one value of the type. */
int
gr_type_size(GrType type)
{
	switch (type)
	{
		case GR_INT2:
			return sizeof(int16);
		case GR_INT4:
		case GR_FLOAT4:
			return sizeof(int32);
		case GR_INT8:
		case GR_FLOAT8:
			return sizeof(int64);
	}
	elog(ERROR, "gpu_reduce: unknown type %d", (int) type);
	return 0;
}

/* Budget bookkeeping: 'bytes' more (or fewer, if negative) held. */
static void
account_buffer(int64 bytes)
{
	gr_stats.buffer_bytes += bytes;
	if (gr_stats.buffer_bytes < 0)
		gr_stats.buffer_bytes = 0;
	if (gr_stats.buffer_bytes > gr_stats.buffer_peak_bytes)
		gr_stats.buffer_peak_bytes = gr_stats.buffer_bytes;
}

/* Give back a palloc'd batch buffer (not a slot) and its budget. */
static void
free_buffer(GrState *st)
{
	GrBatch    *b = &st->batch;

	if (b->values != NULL && b->slot < 0)
	{
		pfree(b->values);
		account_buffer(-(int64) b->cap * gr_type_size(st->type));
	}
	b->values = NULL;
	b->cap = 0;
	b->n = 0;
}

/*
 * Memory context callback: the state's memory is going away (end of query,
 * error, window frame restart).  Return the budget and any GPU slots.
 */
static void
release_callback(void *arg)
{
	GrState    *st = (GrState *) arg;

	gr_gpu_release(st);
	if (st->batch.slot < 0)
		account_buffer(-(int64) st->batch.cap * gr_type_size(st->type));
	st->batch.values = NULL;
	st->batch.cap = 0;
	st->batch.n = 0;
}

/* Register release_callback once per state. */
static void
watch_state(GrState *st)
{
	if (st->release_cb == NULL)
	{
		st->release_cb = MemoryContextAlloc(st->mcxt, sizeof(MemoryContextCallback));
		st->release_cb->func = release_callback;
		st->release_cb->arg = st;
		MemoryContextRegisterResetCallback(st->mcxt, st->release_cb);
	}
}

/* A new, empty state in the aggregate context. */
GrState *
gr_state_create(MemoryContext mcxt, GrOp op, GrType type, int32 k)
{
	GrState    *st = MemoryContextAllocZero(mcxt, sizeof(GrState));

	st->op = op;
	st->type = type;
	st->mcxt = mcxt;
	st->batch.slot = -1;
	gr_partial_init(&st->partial, mcxt, op, type, k);
	return st;
}

/*
 * Try to resize the palloc'd batch buffer to 'cap' values within the budget.
 * Returns false, changing nothing, if the budget does not allow it.
 */
static bool
resize_buffer(GrState *st, int32 cap)
{
	int			size = gr_type_size(st->type);
	int64		growth = (int64) (cap - st->batch.cap) * size;

	Assert(st->batch.slot < 0);
	if (growth > 0 &&
		gr_stats.buffer_bytes + growth > (int64) gr_buffer_memory_kb * 1024)
		return false;

	watch_state(st);
	if (st->batch.values == NULL)
		st->batch.values = MemoryContextAlloc(st->mcxt, (Size) cap * size);
	else
		st->batch.values = repalloc(st->batch.values, (Size) cap * size);
	st->batch.cap = cap;
	account_buffer(growth);
	return true;
}

/*
 * Hand the values in the batch to a reducer; the batch is empty afterwards.
 * A slot big enough for the GPU is submitted, which leaves the state with no
 * buffer; anything else is reduced on the CPU where it lies.
 */
static void
flush_batch(GrState *st)
{
	GrBatch    *b = &st->batch;

	if (b->n == 0)
		return;
	if (b->slot >= 0 && gr_enabled && b->n >= gr_min_gpu_rows)
	{
		gr_gpu_submit(st);
		return;
	}
	gr_cpu_reduce(st, b->values, b->n);
	b->n = 0;
}

/*
 * Move a state with an empty batch into a free GPU slot, giving back its
 * palloc'd buffer.  False, changing nothing, if no slot is free.
 */
static bool
move_to_slot(GrState *st)
{
	GrBatch    *b = &st->batch;
	void	   *old = b->values;
	int32		old_cap = b->cap;

	Assert(b->n == 0 && b->slot < 0);
	watch_state(st);
	if (!gr_gpu_take_slot(st))
		return false;
	if (old != NULL)
	{
		pfree(old);
		account_buffer(-(int64) old_cap * gr_type_size(st->type));
	}
	return true;
}

/*
 * Make room for one more value.  A palloc'd buffer doubles up to batch_rows
 * while the budget allows, until it would be big enough for the GPU: then
 * the state moves to a GPU slot if one is free.  A full batch is reduced
 * (or submitted, which leaves the state without a buffer).  Returns false if
 * the state has no buffer and cannot get one.
 */
static bool
make_room(GrState *st)
{
	GrBatch    *b = &st->batch;
	int32		limit = Max(gr_batch_rows, 1);
	int32		next = b->cap == 0 ? Min(GR_FIRST_BATCH_ROWS, limit)
		: (int32) Min((int64) b->cap * 2, (int64) limit);

	if (b->slot < 0 && next > b->cap)
	{
		if (next >= gr_min_gpu_rows && gr_gpu_wanted(st))
		{
			flush_batch(st);
			if (move_to_slot(st))
				return true;
		}
		if (resize_buffer(st, next))
			return true;
	}
	flush_batch(st);
	if (b->slot < 0 && b->cap >= gr_min_gpu_rows && gr_gpu_wanted(st) &&
		move_to_slot(st))
		return true;
	if (b->cap > 0)
	{
		/* batch_rows may have been lowered since the buffer grew */
		if (b->slot < 0 && b->cap > limit)
			resize_buffer(st, limit);
		return true;
	}
	/* no buffer: the slot went to the GPU, or the budget is spent */
	if (limit >= gr_min_gpu_rows && gr_gpu_wanted(st) && move_to_slot(st))
		return true;
	return resize_buffer(st, Min(GR_FIRST_BATCH_ROWS, limit));
}

/*
 * Values a state without a buffer folds one by one before it asks for a
 * buffer again; asking on every row would cost more than the fold.
 */
#define GR_RETRY_BUFFER_ROWS 4096

/* Add one value to a state whose batch is full (gr_state_add's slow path). */
void
gr_state_add_slow(GrState *st, Datum value)
{
	if (st->partial.count < st->retry_buffer_at || !make_room(st))
	{
		/* no buffer within the budget: a batch of one */
		union
		{
			int64		i8;
			float8		f8;
		}			one;

		if (st->partial.count >= st->retry_buffer_at)
			st->retry_buffer_at = st->partial.count + GR_RETRY_BUFFER_ROWS;
		gr_store_value(st->type, &one, 0, value);
		gr_cpu_reduce(st, &one, 1);
		return;
	}
	gr_store_value(st->type, st->batch.values, st->batch.n++, value);
}

/*
 * Bring the partial result up to date: reduce the batch and wait for any
 * batch still being reduced elsewhere.  The buffer stays for more values.
 */
void
gr_state_settle(GrState *st)
{
	flush_batch(st);
	gr_gpu_wait(st);
}

/* Give the batch buffer back once no more values are expected. */
void
gr_state_release_buffer(GrState *st)
{
	Assert(st->batch.n == 0);
	if (st->batch.slot >= 0)
		gr_gpu_release(st);
	else
		free_buffer(st);
}
