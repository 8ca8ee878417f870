/*
 * gpu_client.c
 *	  The GPU reducer as a backend sees it: taking slots, submitting them to
 *	  the GPU service, and folding their results.
 *
 * A backend never calls CUDA.  It fills a shared-memory slot in place, marks
 * it SUBMITTED and goes on scanning into another slot while the service
 * reduces the first; it waits only when a state must be final (finalize,
 * serialize, combine) or has GR_MAX_INFLIGHT batches out.  A result is folded
 * with gr_state_combine_partial, the same code that combines any two partial
 * results, so a GPU batch gives the same bits as a CPU one.  Whatever goes
 * wrong on the GPU, the values are still in the slot and the CPU reduces
 * them.
 */
#include "kinds.h"
#include "gpu_shared.h"

#include <signal.h>

#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

PG_FUNCTION_INFO_V1(gpu_reduce_devices);
PG_FUNCTION_INFO_V1(gpu_reduce_slots);

/* how long one wait for a GPU result sleeps before checking interrupts */
#define GR_WAIT_MS 10

static bool exit_hook_set = false;
static bool fallback_warned = false;

/*
 * Slots this backend freed last, most recent on top.  Taking one of them
 * again writes into memory that is still in this CPU's cache, where a slot
 * from the other end of the pool would miss on every value.
 */
#define GR_RECENT_SLOTS 8
static int32 recent_slots[GR_RECENT_SLOTS];
static int	nrecent = 0;

/* The kernel operation for a state, or -1 if the GPU cannot do it. */
static int
cuda_op(GrState *st)
{
	const GrAccum *acc = gr_state_accum(st);

	return acc->gpu_op == NULL ? -1 : acc->gpu_op(st->partial.k);
}

/* Whether the state's batches may go to the GPU at all. */
bool
gr_gpu_wanted(GrState *st)
{
	return gr_enabled && gr_shared != NULL &&
		pg_atomic_read_u32(&gr_shared->ready) == GR_SERVICE_READY && cuda_op(st) >= 0;
}

/* Whether the GPU service process is alive. */
static bool
service_alive(void)
{
	pid_t		pid = gr_shared->service_pid;

	return pid != 0 && kill(pid, 0) == 0;
}

/* On backend exit, no slot may stay owned by this backend. */
static void
release_all_slots(int code, Datum arg)
{
	for (int i = 0; i < gr_shared->nslots; i++)
	{
		GrSlot	   *slot = gr_slot(i);
		uint32		st;

		if (slot->owner_procno != MyProcNumber)
			continue;
		st = pg_atomic_read_u32(&slot->state);
		if (st == GR_SLOT_RUNNING &&
			pg_atomic_compare_exchange_u32(&slot->state, &st, GR_SLOT_ABANDONED))
			continue;
		if (st == GR_SLOT_FILLING || st == GR_SLOT_SUBMITTED ||
			st == GR_SLOT_DONE || st == GR_SLOT_FAILED)
			pg_atomic_compare_exchange_u32(&slot->state, &st, GR_SLOT_FREE);
	}
}

/*
 * Claim a free slot for this backend (FREE -> FILLING): with recent, one of
 * the slots it freed last first, then the pool from a rotating start.  The
 * slot's index, or -1 when none is free.
 */
static int
claim_slot(bool recent)
{
	int			nslots = gr_shared->nslots;
	uint32		start = 0;
	int			i = -1;

	while (recent && nrecent > 0 && i < 0)
	{
		int			candidate = recent_slots[--nrecent];
		uint32		expected = GR_SLOT_FREE;

		if (candidate < nslots &&
			pg_atomic_compare_exchange_u32(&gr_slot(candidate)->state,
										   &expected, GR_SLOT_FILLING))
			i = candidate;
	}
	if (i < 0)
		start = pg_atomic_fetch_add_u32(&gr_shared->next_slot, 1);
	for (int j = 0; j < nslots && i < 0; j++)
	{
		int			candidate = (start + j) % nslots;
		uint32		expected = GR_SLOT_FREE;

		if (pg_atomic_read_u32(&gr_slot(candidate)->state) == GR_SLOT_FREE &&
			pg_atomic_compare_exchange_u32(&gr_slot(candidate)->state,
										   &expected, GR_SLOT_FILLING))
			i = candidate;
	}
	if (i < 0)
		return -1;
	if (!exit_hook_set)
	{
		before_shmem_exit(release_all_slots, (Datum) 0);
		exit_hook_set = true;
	}
	gr_slot(i)->owner_procno = MyProcNumber;
	return i;
}

/*
 * Take a free slot as the state's batch buffer.  False, changing nothing,
 * when none is free: the caller then stays on the CPU rather than wait.
 */
bool
gr_gpu_take_slot(GrState *st)
{
	int			i = claim_slot(true);

	if (i < 0)
		return false;
	st->ext->slot = i;
	st->ext->batch.values = gr_slot_values(i);
	st->ext->batch.cap = (int32) Min((int64) Max(gr_batch_rows, 1),
									 gr_shared->slot_bytes / gr_type_size(st->type));
	st->ext->batch.n = 0;
	return true;
}

/* Put a slot back in the pool, remembering it for this backend's reuse. */
static void
free_slot(int i)
{
	pg_atomic_write_u32(&gr_slot(i)->state, GR_SLOT_FREE);
	if (nrecent == GR_RECENT_SLOTS)
	{
		memmove(recent_slots, recent_slots + 1, sizeof(int32) * (GR_RECENT_SLOTS - 1));
		nrecent--;
	}
	recent_slots[nrecent++] = i;
}

/*
 * Give up a slot this backend submitted and no longer wants.  The service
 * frees a RUNNING one when its GPU work ends.
 */
static void
abandon_slot(int i)
{
	GrSlot	   *slot = gr_slot(i);

	for (;;)
	{
		uint32		st = pg_atomic_read_u32(&slot->state);
		uint32		to = st == GR_SLOT_RUNNING ? GR_SLOT_ABANDONED : GR_SLOT_FREE;

		if (pg_atomic_compare_exchange_u32(&slot->state, &st, to))
			return;
	}
}

/* Wait until a submitted slot is DONE or FAILED; returns which. */
static uint32
wait_slot(int i)
{
	GrSlot	   *slot = gr_slot(i);

	for (;;)
	{
		uint32		st = pg_atomic_read_u32(&slot->state);

		if (st == GR_SLOT_DONE || st == GR_SLOT_FAILED)
		{
			pg_read_barrier();
			return st;
		}
		if (!service_alive())
		{
			/* nobody will finish it: the CPU takes it back */
			if ((st == GR_SLOT_SUBMITTED || st == GR_SLOT_RUNNING) &&
				pg_atomic_compare_exchange_u32(&slot->state, &st, GR_SLOT_FAILED))
				strlcpy(slot->error, "the GPU service is not running",
						sizeof(slot->error));
			continue;
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 GR_WAIT_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Fold the result of n values the GPU reduced with cuda_op into the state:
 * the accumulator reads what the kernel wrote (keys in the result or in
 * topk) into a partial result, which is combined like any other.
 */
void
gr_gpu_fold_result(GrState *st, int cuda_op, const GrCudaResult *r, int64 n,
				   int64 *topk)
{
	GrPartial	p;

	memset(&p, 0, sizeof(p));
	p.count = n;
	gr_state_accum(st)->from_gpu(&p, r, cuda_op, topk);
	gr_state_combine_partial(st, &p);
}

/*
 * Slot i failed on the GPU: an ERROR when gpu_reduce.fallback is off (the
 * slot freed first if free_it), else a WARNING once per session, and the
 * caller does the work on the CPU.  what/doing/hint name that work.
 */
static void
gpu_failed(int i, bool free_it, const char *what, const char *doing, const char *hint)
{
	GrSlot	   *slot = gr_slot(i);

	gr_stats.gpu_fallbacks++;
	if (!gr_fallback)
	{
		char		error[sizeof(slot->error)];

		strlcpy(error, slot->error, sizeof(error));
		if (free_it)
			free_slot(i);
		ereport(ERROR,
				(errcode(ERRCODE_SYSTEM_ERROR),
				 errmsg("GPU %s failed: %s", what, error),
				 errhint("Set gpu_reduce.fallback to on to %s on the CPU.", hint)));
	}
	if (!fallback_warned)
	{
		ereport(WARNING,
				(errmsg("GPU %s failed, %s on the CPU: %s", what, doing, slot->error),
				 errdetail("This warning is given once per session; gpu_reduce_stats() counts every fallback.")));
		fallback_warned = true;
	}
}

/* Fold a finished slot into the state and free it. */
static void
fold_slot(GrState *st, int i, uint32 outcome)
{
	GrSlot	   *slot = gr_slot(i);

	if (outcome == GR_SLOT_DONE)
	{
		gr_gpu_fold_result(st, slot->op, &slot->result, slot->n, gr_slot_topk(i));
		gr_stats.gpu_batches++;
		gr_stats.gpu_rows += slot->n;
		gr_stats.gpu_bytes += slot->n * gr_type_size(st->type);
		free_slot(i);
		return;
	}

	gpu_failed(i, true, "reduction", "reducing", "reduce such batches");
	gr_cpu_reduce(st, gr_slot_values(i), (int32) slot->n);
	free_slot(i);
}

/* Fold the oldest in-flight slot of the state, waiting for it if need be. */
static void
fold_oldest(GrState *st)
{
	GrStateExt *ext = st->ext;
	int			i = ext->inflight[0];
	uint32		outcome = wait_slot(i);

	/* off the list first, so an error while folding cannot fold it twice */
	ext->ninflight--;
	memmove(ext->inflight, ext->inflight + 1, sizeof(int32) * ext->ninflight);
	fold_slot(st, i, outcome);
}

/*
 * Submit the state's full slot to the service.  The state is left without a
 * batch buffer; the caller takes another slot or goes on on the CPU.
 */
void
gr_gpu_submit(GrState *st)
{
	GrStateExt *ext = st->ext;
	GrBatch    *b = &ext->batch;
	GrSlot	   *slot = gr_slot(ext->slot);

	/* fold whatever has finished, and make room in the in-flight list */
	while (ext->ninflight > 0 &&
		   (ext->ninflight == GR_MAX_INFLIGHT ||
			pg_atomic_read_u32(&gr_slot(ext->inflight[0])->state) >= GR_SLOT_DONE))
		fold_oldest(st);

	slot->op = cuda_op(st);
	slot->want_device = -1;
	slot->type = gr_type_info(st->type)->storage;
	slot->k = st->partial.k;
	slot->n = b->n;
	slot->inject_failure = gr_debug_fail_gpu;
	pg_write_barrier();
	pg_atomic_write_u32(&slot->state, GR_SLOT_SUBMITTED);
	SetLatch(&ProcGlobal->allProcs[gr_shared->service_procno].procLatch);

	ext->inflight[ext->ninflight++] = ext->slot;
	ext->slot = -1;
	b->values = NULL;
	b->cap = 0;
	b->n = 0;
}

/* Wait for the state's slots still on the GPU and fold their results. */
void
gr_gpu_wait(GrState *st)
{
	while (st->ext != NULL && st->ext->ninflight > 0)
		fold_oldest(st);
}

/*
 * Give back every slot the state holds: its batch slot (values already
 * reduced or no longer wanted) and, on abort, its batches in flight.
 */
void
gr_gpu_release(GrState *st)
{
	GrStateExt *ext = st->ext;

	if (gr_shared == NULL || ext == NULL)
		return;
	for (int j = 0; j < ext->ninflight; j++)
		abandon_slot(ext->inflight[j]);
	ext->ninflight = 0;
	if (ext->slot >= 0)
	{
		free_slot(ext->slot);
		ext->slot = -1;
		ext->batch.values = NULL;
		ext->batch.cap = 0;
		ext->batch.n = 0;
	}
}

/*
 * Why the page path cannot run in this backend, or NULL when it can: the
 * service reduces on a GPU and has registered this very buffer pool.
 */
const char *
gr_gpu_pages_unavailable(void)
{
	if (gr_shared == NULL)
#ifdef GR_WITH_CUDA
		return "the GPU service is not running";
#else
		return "gpu_reduce was built without CUDA";
#endif
	if (pg_atomic_read_u32(&gr_shared->ready) != GR_SERVICE_READY)
		return "the GPU service has no GPU";
	if (pg_atomic_read_u32(&gr_shared->pool_state) != GR_POOL_REGISTERED)
		return "the buffer pool is not registered with the GPU";
	if (gr_shared->pool_addr != (void *) BufferBlocks)
		return "the buffer pool is mapped elsewhere in this process";
	return NULL;
}

/* The GPUs the service runs on: a join's images go to each (0: no service). */
int
gr_gpu_count(void)
{
	return gr_shared == NULL ? 0 : gr_shared->ndevices;
}

/* Take a free slot for a page job: its index, or -1 when none is free. */
int
gr_gpu_take_job_slot(void)
{
	return claim_slot(false);
}

/*
 * Submit a page job built in slot i's data area, to GPU 'device' (the one
 * that holds its scan's table) or, with -1, to any.
 */
void
gr_gpu_submit_job_slot(int i, int64 npages, int device)
{
	GrSlot	   *slot = gr_slot(i);

	slot->op = GR_SLOT_OP_PAGES;
	slot->type = 0;
	slot->k = 0;
	slot->n = npages;
	slot->want_device = device;
	/* a collect fails only where the GPU does: nothing to inject there */
	slot->inject_failure = gr_debug_fail_gpu && device < 0;
	pg_write_barrier();
	pg_atomic_write_u32(&slot->state, GR_SLOT_SUBMITTED);
	SetLatch(&ProcGlobal->allProcs[gr_shared->service_procno].procLatch);
}

/*
 * Wait for a submitted page job: true when the GPU did it, false (with the
 * reason in *error) when the CPU must, or ERROR when gpu_reduce.fallback is
 * off.  The slot stays the caller's until gr_gpu_end_job_slot.
 */
bool
gr_gpu_wait_job_slot(int i, const char **error)
{
	GrSlot	   *slot = gr_slot(i);

	if (wait_slot(i) == GR_SLOT_DONE)
		return true;
	/* the slot stays the caller's: on ERROR its abort gives it back */
	gpu_failed(i, false, "page decoding", "decoding", "decode such pages");
	*error = slot->error;
	return false;
}

/*
 * Wait for a collect job (a scan's groups out of its table on a GPU), or
 * a marks job (a marked join's marks): what it brings ('lost' names it) is
 * part of the scan's answer and no CPU has it, so a failure is an ERROR
 * whatever gpu_reduce.fallback says.  The slot stays the caller's
 * (FILLING again, to submit the next), and on that ERROR too, for its
 * abort to give back.
 */
void
gr_gpu_collect_job_slot(int i, const char *lost)
{
	GrSlot	   *slot = gr_slot(i);
	char		error[sizeof(slot->error)];

	if (wait_slot(i) == GR_SLOT_DONE)
	{
		pg_atomic_write_u32(&slot->state, GR_SLOT_FILLING);
		return;
	}
	strlcpy(error, slot->error, sizeof(error));
	ereport(ERROR,
			(errcode(ERRCODE_SYSTEM_ERROR),
			 errmsg("GPU lost %s: %s", lost, error),
			 errhint("Set gpu_reduce.page_path to off to run such scans on the CPU.")));
}

/* The GPU that ran a page job (once it is done). */
int
gr_gpu_job_slot_device(int i)
{
	return gr_slot(i)->device;
}

/* Give back a page job's slot: done with, or (abort) no longer wanted. */
void
gr_gpu_end_job_slot(int i, bool abandon)
{
	if (abandon)
		abandon_slot(i);
	else
		free_slot(i);
}

#ifdef GR_WITH_CUDA
/* The buffer pool's registration, as gpu_reduce_devices() shows it. */
static const char *
pool_text(void)
{
	switch (pg_atomic_read_u32(&gr_shared->pool_state))
	{
		case GR_POOL_REGISTERED:
			return "buffer pool registered";
		case GR_POOL_FAILED:
			return psprintf("off: %s", gr_shared->pool_error);
	}
	return "off: not registered yet";
}
#endif

/* gpu_reduce_devices(): the GPUs the service reduces on. */
Datum
gpu_reduce_devices(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	(void) rsinfo;
#ifndef GR_WITH_CUDA
	ereport(NOTICE,
			(errmsg("gpu_reduce was built without CUDA; every batch is reduced on the CPU"),
			 errhint("Rebuild with nvcc on the PATH to use a GPU.")));
#else
	if (gr_shared == NULL)
		ereport(NOTICE,
				(errmsg("the gpu_reduce GPU service is not running; every batch is reduced on the CPU"),
				 errhint("Add gpu_reduce to shared_preload_libraries and restart the server to use the GPU.")));
	else if (pg_atomic_read_u32(&gr_shared->ready) == GR_SERVICE_STARTING)
		ereport(NOTICE,
				(errmsg("the gpu_reduce GPU service is starting; until it is ready, batches are reduced on the CPU")));
	else if (pg_atomic_read_u32(&gr_shared->ready) == GR_SERVICE_NO_GPU)
		ereport(NOTICE,
				(errmsg("the gpu_reduce GPU service found no usable GPU; every batch is reduced on the CPU"),
				 errhint("The server log says why.")));
	else
	{
		for (int d = 0; d < gr_shared->ndevices; d++)
		{
			GrDeviceEntry *entry = &gr_shared->devices[d];
			Datum		values[7];
			bool		nulls[7] = {0};

			values[0] = Int32GetDatum(entry->ordinal);
			values[1] = CStringGetTextDatum(entry->name);
			values[2] = Int32GetDatum(entry->sm_count);
			values[3] = Int64GetDatum(entry->memory_mb);
			values[4] = Int64GetDatum((int64) pg_atomic_read_u64(&entry->batches));
			values[5] = Int64GetDatum((int64) pg_atomic_read_u64(&entry->rows));
			/* the page path's column exists from 1.2 on */
			values[6] = CStringGetTextDatum(pool_text());
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		}
	}
#endif
	return (Datum) 0;
}

/* gpu_reduce_slots(): how many batch slots are in each state, server-wide. */
Datum
gpu_reduce_slots(PG_FUNCTION_ARGS)
{
	static const char *const names[] = {"free", "filling", "submitted",
	"running", "done", "failed", "abandoned"};
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int			counts[lengthof(names)] = {0};

	InitMaterializedSRF(fcinfo, 0);
	if (gr_shared == NULL)
		return (Datum) 0;
	for (int i = 0; i < gr_shared->nslots; i++)
	{
		uint32		st = pg_atomic_read_u32(&gr_slot(i)->state);

		if (st < lengthof(names))
			counts[st]++;
	}
	for (int s = 0; s < lengthof(names); s++)
	{
		Datum		values[2];
		bool		nulls[2] = {0};

		values[0] = CStringGetTextDatum(names[s]);
		values[1] = Int32GetDatum(counts[s]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
