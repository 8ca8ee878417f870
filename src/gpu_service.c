/*
 * gpu_service.c
 *	  The GPU service: the one process that calls CUDA.
 *
 * It opens the GPUs once, allocates their scratch once, pins the slot area of
 * shared memory, and then loops: it starts every SUBMITTED slot on an idle
 * stream (copy in, reduce, copy the result out, all asynchronous), and marks
 * slots DONE or FAILED as their streams finish, waking the owning backend.
 * Backends never wait for a context to start, and parallel workers share the
 * same service.
 */
#include "state.h"
#include "gpu_shared.h"
#include "page_job.h"

#include <signal.h>

#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/bufmgr.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
#include "utils/varlena.h"

/* One stream of one GPU and the slot it is reducing, if any. */
typedef struct Stream
{
	GrCudaContext *ctx;
	int			device;			/* CUDA device number */
	int			entry;			/* its index in gr_shared->devices */
	int			order;			/* stream number within the device */
	int			slot;			/* -1 when idle */
	int			phase;			/* of a page job: 1 decoding, 2 reducing */
} Stream;

static Stream *streams;
static int	nstreams;

/* Wake the backend that owns a slot. */
static void
wake_owner(GrSlot *slot)
{
	if (slot->owner_procno >= 0 && slot->owner_procno < ProcGlobal->allProcCount)
		SetLatch(&ProcGlobal->allProcs[slot->owner_procno].procLatch);
}

/* A slot's reduction is over: publish the outcome, or free an abandoned one. */
static void
finish_slot(int i, bool ok, const char *error)
{
	GrSlot	   *slot = gr_slot(i);
	uint32		expected = GR_SLOT_RUNNING;

	if (!ok)
		strlcpy(slot->error, error, sizeof(slot->error));
	pg_write_barrier();
	if (pg_atomic_compare_exchange_u32(&slot->state, &expected,
									   ok ? GR_SLOT_DONE : GR_SLOT_FAILED))
		wake_owner(slot);
	else if (expected == GR_SLOT_ABANDONED)
		pg_atomic_write_u32(&slot->state, GR_SLOT_FREE);
}

/* qsort comparator: first streams of every device, then second ones, ... */
static int
stream_cmp(const void *a, const void *b)
{
	const Stream *x = a;
	const Stream *y = b;

	if (x->order != y->order)
		return x->order - y->order;
	return x->entry - y->entry;
}

/* Whether 'device' is named in gpu_reduce.devices (empty: every device). */
static bool
device_wanted(int device)
{
	char	   *copy;
	List	   *names;
	ListCell   *lc;
	bool		wanted = false;

	if (gr_devices == NULL || gr_devices[0] == '\0')
		return true;
	copy = pstrdup(gr_devices);
	if (!SplitIdentifierString(copy, ',', &names))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid list syntax in gpu_reduce.devices")));
	foreach(lc, names)
		if (atoi((char *) lfirst(lc)) == device)
			wanted = true;
	return wanted;
}

/*
 * Open every wanted GPU, with gpu_reduce.streams_per_device streams each.
 * Returns the number of devices opened; logs why when it is zero.
 */
static int
open_devices(void)
{
	int			count = 0;
	int			opened = 0;
	int64		stage_values = gr_shared->slot_bytes / sizeof(int64);
	/* top-k sorts a whole slot: as many values as int2 ones fit */
	int64		topk_values = gr_shared->slot_bytes / sizeof(int16);

	if (gr_cuda_device_count(&count) != GR_CUDA_OK || count == 0)
	{
		ereport(LOG,
				(errmsg("gpu_reduce service found no usable GPU; aggregates reduce on the CPU"),
				 errdetail("%s", count == 0 ? "No CUDA device or driver." : gr_cuda_last_error())));
		return 0;
	}
	streams = palloc0(sizeof(Stream) * count * gr_streams_per_device);
	for (int d = 0; d < count && gr_shared->ndevices < GR_MAX_DEVICES; d++)
	{
		GrCudaDeviceInfo info;
		GrDeviceEntry *entry;
		int			made = 0;

		if (!device_wanted(d) || gr_cuda_device_info(d, &info) != GR_CUDA_OK)
			continue;
		for (int s = 0; s < gr_streams_per_device; s++)
		{
			GrCudaContext *ctx;

			if (gr_cuda_context_create(d, stage_values, topk_values, &ctx) != GR_CUDA_OK)
			{
				ereport(LOG,
						(errmsg("gpu_reduce service could not set up GPU %d: %s",
								d, gr_cuda_last_error())));
				break;
			}
			streams[nstreams].ctx = ctx;
			streams[nstreams].device = d;
			streams[nstreams].entry = gr_shared->ndevices;
			streams[nstreams].order = s;
			streams[nstreams].slot = -1;
			nstreams++;
			made++;
		}
		if (made == 0)
			continue;
		entry = &gr_shared->devices[gr_shared->ndevices++];
		entry->ordinal = d;
		strlcpy(entry->name, info.name, sizeof(entry->name));
		entry->sm_count = info.sm_count;
		entry->memory_mb = info.total_memory / (1024 * 1024);
		pg_atomic_init_u64(&entry->batches, 0);
		pg_atomic_init_u64(&entry->rows, 0);
		opened++;
		ereport(LOG,
				(errmsg("gpu_reduce service uses GPU %d (%s, %d SMs) with %d streams",
						d, info.name, info.sm_count, made)));
	}
	/* interleave the devices, so that round robin alternates between them */
	qsort(streams, nstreams, sizeof(Stream), stream_cmp);
	return opened;
}

/* Slots a previous service left RUNNING will never finish: fail them. */
static void
recover_slots(void)
{
	for (int i = 0; i < gr_shared->nslots; i++)
	{
		GrSlot	   *slot = gr_slot(i);
		uint32		st = pg_atomic_read_u32(&slot->state);

		if (st == GR_SLOT_RUNNING)
			finish_slot(i, false, "the GPU service restarted");
		else if (st == GR_SLOT_ABANDONED)
			pg_atomic_write_u32(&slot->state, GR_SLOT_FREE);
	}
}

/*
 * A page job that folds into its scan's table on the GPU failed once it
 * had started: rows of it may be in the table, so the table refuses its
 * collect (the scan raises an ERROR rather than count them twice).
 */
static void
poison_scan_table(int i)
{
	GrPageJob  *job = (GrPageJob *) gr_slot_values(i);

	if (job->scan_id != 0 && !(job->flags & GR_PAGE_JOB_COLLECT))
		gr_cuda_scan_table_poison(job->scan_id, gr_slot(i)->device);
}

/* Drop what processes that have gone own: owners lists them, drop frees a pid's. */
static void
drop_gone(int (*owners) (uint32_t *pids, int max), void (*drop) (uint32_t pid, uint64_t keep))
{
	uint32		pids[64];
	int			n = owners(pids, lengthof(pids));

	for (int j = 0; j < n; j++)
		if (kill((pid_t) pids[j], 0) != 0 && errno == ESRCH)
			drop(pids[j], 0);
}

/*
 * Free the scans' group tables and the joins' images whose processes have
 * gone (a scan that ended in an ERROR, then its session): looked at once a
 * second.
 */
static void
drop_orphan_tables(void)
{
	static TimestampTz last = 0;
	TimestampTz now = GetCurrentTimestamp();

	if (!TimestampDifferenceExceeds(last, now, 1000))
		return;
	last = now;
	drop_gone(gr_cuda_scan_tables_owners, gr_cuda_scan_tables_drop);
	drop_gone(gr_cuda_join_images_owners, gr_cuda_join_images_drop);
}

/* Start one submitted slot on an idle stream. */
static void
start_slot(Stream *stream, int i)
{
	GrSlot	   *slot = gr_slot(i);
	int			rc;

	pg_read_barrier();
	slot->device = stream->device;
	if (slot->inject_failure)
	{
		finish_slot(i, false, "failure injected by gpu_reduce.debug_fail_gpu");
		return;
	}
	if (slot->op == GR_SLOT_OP_PAGES)
	{
		if (pg_atomic_read_u32(&gr_shared->pool_state) != GR_POOL_REGISTERED)
		{
			finish_slot(i, false, "the buffer pool is not registered");
			return;
		}
		rc = gr_cuda_pages_extract(stream->ctx, gr_shared->pool_addr,
								   (GrPageJob *) gr_slot_values(i));
		/* a join's job that found no images ran nothing: the host decodes it */
		if (rc != GR_CUDA_OK && rc != GR_CUDA_ENOIMAGE)
			poison_scan_table(i);
	}
	else
		rc = gr_cuda_reduce_host(stream->ctx, slot->type, slot->op, slot->k,
								 gr_slot_values(i), slot->n, &slot->result,
								 gr_slot_topk(i));
	if (rc != GR_CUDA_OK)
	{
		finish_slot(i, false, gr_cuda_last_error());
		return;
	}
	stream->slot = i;
	stream->phase = slot->op == GR_SLOT_OP_PAGES ? 1 : 0;
}

/*
 * A page job's pages are decoded and its counts are back: queue each
 * output's reduction.  True when they are queued (the stream stays busy);
 * false when the slot has been finished (failed) instead.
 */
static bool
page_job_reduce(Stream *stream)
{
	int			i = stream->slot;
	GrPageJob  *job = (GrPageJob *) gr_slot_values(i);
	const char *error = NULL;

	/* an undecodable tuple is never skipped: the backend decodes the pages */
	if (job->counts[GR_PAGE_COUNT_BAD(job->ncols)] > 0)
		error = "a tuple the GPU could not decode";
	else if (gr_cuda_pages_reduce(stream->ctx, job) != GR_CUDA_OK)
		error = gr_cuda_last_error();
	if (error != NULL)
	{
		poison_scan_table(i);
		finish_slot(i, false, error);
		stream->slot = -1;
		stream->phase = 0;
		return false;
	}
	stream->phase = 2;
	return true;
}

/* Check the busy streams; returns how many are still busy. */
static int
poll_streams(void)
{
	int			busy = 0;

	for (int s = 0; s < nstreams; s++)
	{
		int			done = 0;
		int			rc;

		if (streams[s].slot < 0)
			continue;
		rc = gr_cuda_poll(streams[s].ctx, &done);
		if (rc != GR_CUDA_OK)
		{
			finish_slot(streams[s].slot, false, gr_cuda_last_error());
			streams[s].slot = -1;
			streams[s].phase = 0;
			/* a faulted device is unusable: let the postmaster restart us */
			ereport(LOG,
					(errmsg("gpu_reduce service: GPU %d failed, restarting: %s",
							streams[s].device, gr_cuda_last_error())));
			proc_exit(1);
		}
		if (done && streams[s].phase == 1)
		{
			/* decoded: queue the reductions, or it has failed */
			if (page_job_reduce(&streams[s]))
				busy++;
			continue;
		}
		if (done)
		{
			GrDeviceEntry *entry = &gr_shared->devices[streams[s].entry];
			GrSlot	   *slot = gr_slot(streams[s].slot);
			int64		rows = slot->n;

			if (slot->op == GR_SLOT_OP_PAGES)
			{
				GrPageJob  *job = (GrPageJob *) gr_slot_values(streams[s].slot);

				rows = job->counts[GR_PAGE_COUNT_ROWS(job->ncols)];
			}
			pg_atomic_add_fetch_u64(&entry->batches, 1);
			pg_atomic_add_fetch_u64(&entry->rows, rows);
			finish_slot(streams[s].slot, true, NULL);
			streams[s].slot = -1;
			streams[s].phase = 0;
		}
		else
			busy++;
	}
	return busy;
}

/*
 * Hand submitted slots to idle streams, round robin over all of them.
 * True when a submitted slot is left waiting for a stream.
 */
static bool
dispatch_slots(void)
{
	static int	next_stream = 0;
	bool		waiting = false;

	for (int i = 0; i < gr_shared->nslots; i++)
	{
		GrSlot	   *slot = gr_slot(i);
		uint32		expected = GR_SLOT_SUBMITTED;
		int			s;
		int			tries;

		if (pg_atomic_read_u32(&slot->state) != GR_SLOT_SUBMITTED)
			continue;
		for (tries = 0, s = next_stream; tries < nstreams;
			 tries++, s = (s + 1) % nstreams)
			if (streams[s].slot < 0 &&
				(slot->want_device < 0 || streams[s].device == slot->want_device))
				break;
		if (tries == nstreams)
		{
			/* every stream busy (or every one of the GPU this slot needs) */
			waiting = true;
			if (slot->want_device < 0)
				return true;
			continue;
		}
		if (!pg_atomic_compare_exchange_u32(&slot->state, &expected, GR_SLOT_RUNNING))
			continue;			/* taken back by its owner */
		start_slot(&streams[s], i);
		next_stream = (s + 1) % nstreams;
	}
	return waiting;
}

/* Before exit: no backend may wait on a slot this process will not finish. */
static void
service_exit(int code, Datum arg)
{
	pg_atomic_write_u32(&gr_shared->ready, GR_SERVICE_STARTING);
	gr_shared->service_pid = 0;
	for (int s = 0; s < nstreams; s++)
		if (streams[s].slot >= 0)
			finish_slot(streams[s].slot, false, "the GPU service stopped");
}

/*
 * Register the buffer pool with the GPUs, so that page jobs read shared
 * buffers in place; the mapping was made by the postmaster before it forked
 * every backend, so it lies at the same address in all of them.  Each
 * context gets device room for a job's columns.  A refusal is logged once
 * and leaves the bulk scan decoding on the CPU.
 */
static void
register_pool(void)
{
	const char *why = NULL;

	if (!gr_register_buffers)
		why = "gpu_reduce.register_buffers is off";
	else if (BLCKSZ != GR_PAGE_SIZE)
		why = "the block size is not 8 kB";
	else if (gr_cuda_pool_register(BufferBlocks, (size_t) NBuffers * BLCKSZ) != GR_CUDA_OK)
		why = gr_cuda_last_error();
	else
	{
		for (int s = 0; s < nstreams && why == NULL; s++)
			if (gr_cuda_context_enable_pages(streams[s].ctx,
											 (int64) GR_PAGE_JOB_MAX_PAGES * GR_PAGE_MAX_TUPLES *
											 GR_PAGE_STORE_COLS) != GR_CUDA_OK)
				why = gr_cuda_last_error();
		if (why != NULL)
			(void) gr_cuda_host_unregister(BufferBlocks);
	}
	gr_shared->pool_addr = BufferBlocks;
	if (why == NULL)
	{
		ereport(LOG,
				(errmsg("gpu_reduce service registered the buffer pool (%lld MB) with the GPUs for the page path",
						(long long) ((int64) NBuffers * BLCKSZ / (1024 * 1024)))));
		pg_atomic_write_u32(&gr_shared->pool_state, GR_POOL_REGISTERED);
	}
	else
	{
		strlcpy(gr_shared->pool_error, why, sizeof(gr_shared->pool_error));
		ereport(LOG,
				(errmsg("gpu_reduce service did not register the buffer pool; the bulk scan decodes pages on the CPU"),
				 errdetail("%s", why)));
		pg_atomic_write_u32(&gr_shared->pool_state, GR_POOL_FAILED);
	}
}

/* Background worker entry point. */
void
gr_service_main(Datum arg)
{
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, SignalHandlerForShutdownRequest);
	BackgroundWorkerUnblockSignals();

	gr_shared->service_procno = MyProcNumber;
	gr_shared->service_pid = MyProcPid;
	gr_shared->ndevices = 0;
	pg_atomic_write_u32(&gr_shared->pool_state, GR_POOL_UNKNOWN);
	before_shmem_exit(service_exit, (Datum) 0);
	recover_slots();

	if (gr_shared->nslots == 0)
		ereport(LOG,
				(errmsg("gpu_reduce service found no usable GPU; aggregates reduce on the CPU"),
				 errdetail("No NVIDIA device node (/dev/nvidiactl) at server start: no slot memory was reserved.")));
	else if (open_devices() > 0)
	{
		if (gr_cuda_host_register((char *) gr_shared + gr_shared->area_offset,
								  gr_shared->area_bytes) != GR_CUDA_OK)
			ereport(LOG,
					(errmsg("gpu_reduce service could not pin the slot memory: %s",
							gr_cuda_last_error())));
		else
		{
			register_pool();
			pg_atomic_write_u32(&gr_shared->ready, GR_SERVICE_READY);
		}
	}
	if (pg_atomic_read_u32(&gr_shared->ready) != GR_SERVICE_READY)
		pg_atomic_write_u32(&gr_shared->ready, GR_SERVICE_NO_GPU);

	while (!ShutdownRequestPending)
	{
		int			busy;
		bool		waiting;

		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
		}
		if (pg_atomic_read_u32(&gr_shared->ready) != GR_SERVICE_READY)
		{
			/* no GPU: stay, so that the postmaster does not restart us */
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 60000L, PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
			continue;
		}
		ResetLatch(MyLatch);
		drop_orphan_tables();
		(void) poll_streams();
		waiting = dispatch_slots();
		busy = poll_streams();

		/*
		 * While batches are on a GPU, poll without sleeping: a backend may
		 * be waiting for the result, and a sleep's timer slack alone would
		 * be longer than the GPU work.  Idle, sleep until a submit; but not
		 * while submitted slots wait for a stream: their submits' wake-ups
		 * were consumed by the ResetLatch above, and the streams that were
		 * busy may have finished in the last poll.
		 */
		if (busy == 0 && !waiting)
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 1000L, PG_WAIT_EXTENSION);
		else
			CHECK_FOR_INTERRUPTS();
	}
	/*
	 * Exit code 1, not 0: a background worker that exits with 0 is never
	 * restarted, and a service stopped on its own (pg_terminate_backend)
	 * must come back.  At server shutdown the postmaster restarts nothing.
	 */
	proc_exit(1);
}
