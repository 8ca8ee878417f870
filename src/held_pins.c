/*
 * held_pins.c
 *	  The page path's pins, kept in the buffer headers alone.
 *
 * A pin the page path holds while the GPU reads its page is one more count in
 * the buffer header's shared reference count, without the buffer manager's
 * private reference count and resource owner entries.  The buffer manager
 * does not know of them: the page path drops every one itself (page_path.c),
 * and its own-pin checks do not see them, so nothing run while they are held
 * may wait for a cleanup lock on such a page.  Why and how: doc/architecture.md,
 * "Scan and page path" (Held pins).
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
