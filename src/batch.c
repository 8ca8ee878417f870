/*
 * batch.c
 *	  The transition state: creating it, folding values one by one, appending
 *	  them to its batch, handing full batches to a reducer, and keeping batch
 *	  buffers within gpu_reduce.buffer_memory.
 *
 * A state is small until it has had gpu_reduce.min_gpu_rows values: it folds
 * them one by one into its partial result, as native aggregates do, so a
 * GROUP BY of many small groups holds no buffers at all (their cache misses
 * cost more than the folds).  A large state batches: in a GPU slot in shared
 * memory when the GPU service is up and a slot is free, else in a palloc'd
 * buffer that starts small and doubles up to a CPU batch (at most
 * GR_CPU_BATCH_ROWS values, fewer if gpu_reduce.batch_rows is lower).  All
 * buffers of a backend share one budget, gpu_reduce.buffer_memory, with the
 * extension (GrStateExt) each state makes when it first takes a buffer or a
 * slot, counted as palloc takes them; a state that cannot get them within
 * it folds values one by one.  The state itself is the aggregate's, as a
 * native aggregate's is: hash aggregation bounds the states it holds by
 * work_mem, from the planner's estimate of a state's size (agg_space.c).
 */
#include "batch.h"

/* first capacity of a batch buffer, in values */
#define GR_FIRST_BATCH_ROWS 64

/*
 * Largest CPU batch, in values.  Many groups' buffers are written in turn,
 * row by row, so they must stay in cache: 1000 groups of 8 kB are 8 MB.
 */
#define GR_CPU_BATCH_ROWS 1024

/* bytes a state's extension takes, counted in the budget */
#define GR_EXT_BYTES ((int64) gr_palloc_bytes(sizeof(GrStateExt)))

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

/* Whether 'bytes' more fit gpu_reduce.buffer_memory. */
static bool
within_budget(int64 bytes)
{
	return gr_stats.buffer_bytes + bytes <= (int64) gr_buffer_memory_kb * 1024;
}

/* Bytes a palloc'd batch buffer of cap values takes, counted in the budget. */
static int64
buffer_bytes(GrState *st, int32 cap)
{
	return cap > 0 ? (int64) gr_palloc_bytes((Size) cap * gr_type_size(st->type)) : 0;
}

/* What making the state's extension would add to the budget. */
static int64
ext_cost(GrState *st)
{
	return st->ext == NULL ? GR_EXT_BYTES : 0;
}

/* An empty batch: that of every state without an extension. */
static GrBatch no_batch;

/* The state's batch, empty if it has none. */
static inline GrBatch *
state_batch(GrState *st)
{
	return st->ext != NULL ? &st->ext->batch : &no_batch;
}

/* Give back a palloc'd batch buffer (not a slot) and its budget. */
static void
free_buffer(GrState *st)
{
	GrBatch    *b;

	if (st->ext == NULL)
		return;
	b = &st->ext->batch;
	if (b->values != NULL && gr_state_slot(st) < 0)
	{
		pfree(b->values);
		account_buffer(-buffer_bytes(st, b->cap));
	}
	b->values = NULL;
	b->cap = 0;
	b->n = 0;
}

/*
 * Memory context callback: the state's memory is going away (end of query,
 * error, window frame restart).  Return the budget of its buffer and its
 * extension, and any GPU slots.
 */
static void
release_callback(void *arg)
{
	GrState    *st = (GrState *) arg;
	GrBatch    *b = &st->ext->batch;

	gr_gpu_release(st);
	if (gr_state_slot(st) < 0)
		account_buffer(-buffer_bytes(st, b->cap));
	account_buffer(-GR_EXT_BYTES);
	b->values = NULL;
	b->cap = 0;
	b->n = 0;
}

/*
 * The state's extension, made when it first takes a buffer or a slot (the
 * caller checked the budget: ext_cost), with release_callback registered.
 * It lives as long as the aggregate context, and its bytes count in the
 * budget as long.
 */
static GrStateExt *
state_ext(GrState *st)
{
	if (st->ext == NULL)
	{
		MemoryContext mcxt = gr_state_mcxt(st);
		GrStateExt *ext = MemoryContextAllocZero(mcxt, sizeof(GrStateExt));

		ext->slot = -1;
		ext->release_cb.func = release_callback;
		ext->release_cb.arg = st;
		MemoryContextRegisterResetCallback(mcxt, &ext->release_cb);
		st->ext = ext;
		account_buffer(GR_EXT_BYTES);
	}
	return st->ext;
}

StaticAssertDecl(offsetof(GrState, partial) + sizeof(GrPartial) <= 64,
				 "every state must fit palloc's 64-byte size class");

/*
 * A new, empty state in the aggregate context mcxt, as big as its operation
 * needs.  A GROUP BY with a million groups touches one state per row, most
 * of them cache misses, so size counts: every state takes at most palloc's
 * 64-byte size class, as native sum(int8)'s state does.  (A 128-byte-aligned
 * arena of states was tried and measured slower than palloc.)
 */
GrState *
gr_state_create(MemoryContext mcxt, GrOp op, GrType type, int32 k)
{
	GrAccId		id = gr_kind_acc_id(op, type);
	const GrAccum *acc = &gr_accums[id];
	GrState    *st;

	if (id == GR_ACC_NONE)
		elog(ERROR, "gpu_reduce: no %s of type %s", gr_kind(op)->name,
			 gr_type_info(type)->name);
	st = MemoryContextAllocZero(mcxt, offsetof(GrState, partial) + acc->size);
	st->op = op;
	st->type = type;
	st->acc = id;
	if (acc->init != NULL)
		acc->init(&st->partial, k);
	/* small until it has had min_gpu_rows values: fold them one by one */
	st->direct_left = gr_min_gpu_rows - 1;
	/* a value that is not batched (numeric) goes to gr_state_add_slow */
	if (!acc->batches)
		st->direct_left = 0;
	return st;
}

/*
 * Try to resize the palloc'd batch buffer to 'cap' values within the budget
 * (with the state's extension, if it has none yet).  Returns false,
 * changing nothing, if the budget does not allow it.
 */
static bool
resize_buffer(GrState *st, int32 cap)
{
	int			size = gr_type_size(st->type);
	int64		growth = buffer_bytes(st, cap) - buffer_bytes(st, state_batch(st)->cap);
	GrBatch    *b;

	Assert(gr_state_slot(st) < 0);
	if ((growth > 0 || st->ext == NULL) && !within_budget(ext_cost(st) + growth))
		return false;

	b = &state_ext(st)->batch;
	if (b->values == NULL)
		b->values = MemoryContextAlloc(gr_state_mcxt(st), (Size) cap * size);
	else
		b->values = repalloc(b->values, (Size) cap * size);
	b->cap = cap;
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
	GrBatch    *b = state_batch(st);

	if (b->n == 0)
		return;
	if (gr_state_slot(st) >= 0 && gr_enabled && b->n >= gr_min_gpu_rows)
	{
		gr_gpu_submit(st);
		return;
	}
	gr_cpu_reduce(st, b->values, b->n);
	b->n = 0;
}

/*
 * Move a state with an empty batch into a free GPU slot, giving back its
 * palloc'd buffer.  False if no slot is free, or the budget cannot take the
 * state's extension (which it keeps, made, when only the slot was missing).
 */
static bool
move_to_slot(GrState *st)
{
	GrBatch    *b;
	void	   *old;
	int32		old_cap;

	Assert(state_batch(st)->n == 0 && gr_state_slot(st) < 0);
	if (!within_budget(ext_cost(st)))
		return false;
	b = &state_ext(st)->batch;
	old = b->values;
	old_cap = b->cap;
	if (!gr_gpu_take_slot(st))
		return false;
	if (old != NULL)
	{
		pfree(old);
		account_buffer(-buffer_bytes(st, old_cap));
	}
	return true;
}

/*
 * Whether the state should fill GPU slots: the GPU service is ready and the
 * state has had gpu_reduce.min_gpu_rows values (counting the one being
 * added), so a group that large is likely to fill a GPU batch.
 */
static bool
gpu_bound(GrState *st)
{
	return gr_state_slot(st) < 0 && gr_batch_rows >= gr_min_gpu_rows &&
		st->partial.count + state_batch(st)->n + 1 >= gr_min_gpu_rows &&
		gr_gpu_wanted(st);
}

/*
 * Make room for one more value.  A GPU-bound state moves to a slot when one
 * is free.  Otherwise its palloc'd buffer doubles up to the CPU batch size
 * while the budget allows; a full batch is reduced (or submitted, which
 * leaves the state without a buffer).  Returns false if the state has no
 * buffer and cannot get one.
 */
static bool
make_room(GrState *st)
{
	GrBatch    *b;
	int32		limit = Min(Max(gr_batch_rows, 1), GR_CPU_BATCH_ROWS);

	if (gpu_bound(st))
	{
		flush_batch(st);
		if (move_to_slot(st))
			return true;
	}
	b = state_batch(st);
	if (gr_state_slot(st) < 0 && b->cap < limit &&
		resize_buffer(st, b->cap == 0 ? Min(GR_FIRST_BATCH_ROWS, limit)
					  : Min(b->cap * 2, limit)))
		return true;
	flush_batch(st);
	b = state_batch(st);
	if (b->cap > 0)
	{
		/* batch_rows may have been lowered since the buffer grew */
		if (gr_state_slot(st) < 0 && b->cap > limit)
			resize_buffer(st, limit);
		return true;
	}
	/* no buffer: the slot went to the GPU, or the budget is spent */
	if (gpu_bound(st) && move_to_slot(st))
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
	if (!gr_state_accum(st)->batches)
	{
		gr_numeric_fold(st, gr_state_accum(st)->fold_datum, &value, 1);
		return;
	}
	if (!make_room(st))
	{
		st->direct_left = GR_RETRY_BUFFER_ROWS - 1;
		gr_fold_one(st, st->op, value);
		return;
	}
	gr_store_value(st->type, st->ext->batch.values, st->ext->batch.n++, value);
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
	Assert(state_batch(st)->n == 0);
	if (gr_state_slot(st) >= 0)
		gr_gpu_release(st);
	else
		free_buffer(st);
}
