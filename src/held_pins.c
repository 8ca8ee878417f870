/*
 * held_pins.c
 *	  The page path's pins, kept in the buffer headers alone.
 *
 * A pin taken through the buffer manager is counted three times: in the
 * buffer header's shared reference count, which is what keeps the buffer
 * from being evicted or reused, and in the backend's private reference
 * count and its resource owner, which find the backend's own pins again.
 * Those two keep a few entries in arrays; past them every pin and every
 * unpin is a hash insert or delete.  The page path holds thousands of pins
 * while the GPU reads their pages (gpu_reduce.page_pins), so for a serial
 * scan of a table in shared_buffers that bookkeeping was more than half of
 * the CPU's work per page (bench/floor's gr_pin_walk, variant 2 against 4).
 *
 * So once the scan has checked a page and handed it to the page path, its
 * pin is handed over to a held pin: one more count in the shared reference
 * count, added while the buffer manager's pin still holds the buffer, then
 * the buffer manager's pin released.  A held pin keeps the buffer as any
 * pin does: eviction, InvalidateBuffer and cleanup locks look at the shared
 * count.  Adding and dropping one follows PinBuffer and UnpinBuffer: never
 * while the header is locked, and dropping the pin a cleanup lock waits for
 * wakes the waiter.  The buffer manager does not know of them, so the page
 * path drops every one it holds: when its job is done, and on abort when
 * its memory goes (page_path.c); a transaction that ends with one still
 * held drops it there with a WARNING.
 *
 * The buffer manager's own-pin checks do not see held pins: a backend that
 * took a cleanup lock (LockBufferForCleanup) on a page it holds would wait
 * for itself.  Nothing the scan runs while it holds pins takes one
 * (heap_page_prune_opt only tries, ConditionalLockBufferForCleanup).
 */
#include "postgres.h"

#include "pg_compat.h"

#include "storage/buf_internals.h"
#include "storage/bufmgr.h"
#include "storage/proc.h"
#include "storage/s_lock.h"

#include "held_pins.h"

/* held pins this process has, for the check at the end of a transaction */
static int64 held;

/* Add DELTA (1 or -1) to BUF's shared reference count, once its header is not locked. */
static void
add_shared_pin(BufferDesc *desc, int delta)
{
	GrBufState	old = gr_buf_state_read(desc);
	GrBufState	now;

	for (;;)
	{
		if (old & BM_LOCKED)
		{
			SpinDelayStatus delay;

			init_local_spin_delay(&delay);
			while ((old = gr_buf_state_read(desc)) & BM_LOCKED)
				perform_spin_delay(&delay);
			finish_spin_delay(&delay);
		}
		now = old + (GrBufState) delta * BUF_REFCOUNT_ONE;
		if (gr_buf_state_cas(desc, &old, now))
			break;
	}
	/* as UnpinBuffer: the last pin but a cleanup lock waiter's wakes it */
	if (delta < 0 && (now & BM_PIN_COUNT_WAITER))
	{
		now = LockBufHdr(desc);
		if ((now & BM_PIN_COUNT_WAITER) && BUF_STATE_GET_REFCOUNT(now) == 1)
		{
			int			waiter = desc->wait_backend_pgprocno;

			gr_unlock_buf_hdr_clear(desc, now, BM_PIN_COUNT_WAITER);
			ProcSendSignal(waiter);
		}
		else
			gr_unlock_buf_hdr_clear(desc, now, 0);
	}
}

/* Hand this process's pin of shared buffer BUF over to a held pin. */
void
gr_pin_hold(Buffer buf)
{
	Assert(BufferIsValid(buf) && !BufferIsLocal(buf));
	add_shared_pin(GetBufferDescriptor(buf - 1), 1);
	held++;
	ReleaseBuffer(buf);
}

/* Drop a held pin of BUF. */
void
gr_pin_drop(Buffer buf)
{
	Assert(held > 0);
	held--;
	add_shared_pin(GetBufferDescriptor(buf - 1), -1);
}

/*
 * The block a held pin's buffer holds.  BufferGetBlockNumber asserts the
 * buffer manager's pin; so do IncrBufferRefCount, LockBuffer and
 * ExecStoreBufferHeapTuple, none of which a held page may go through.
 */
BlockNumber
gr_pin_block(Buffer buf)
{
	return GR_BUFTAG_BLOCK(GetBufferDescriptor(buf - 1)->tag);
}

/* Held pins this process has. */
int64
gr_pins_held(void)
{
	return held;
}
