/*
 * guc.c
 *	  The GUCs: their variables and their definitions.
 */
#include "state.h"
#include "gpu_shared.h"

#include <limits.h>

#include "miscadmin.h"
#include "utils/guc.h"

bool		gr_enabled = true;
int			gr_batch_rows = 65536;
int			gr_min_gpu_rows = 65536;
int			gr_buffer_memory_kb = 64 * 1024;
bool		gr_fallback = true;
bool		gr_debug_fail_gpu = false;
bool		gr_debug_page_read_only = false;
int			gr_debug_job_groups = 0;
int			gr_debug_scan_groups = 0;
int			gr_debug_error_page = 0;
int			gr_debug_wait_page = 0;
bool		gr_debug_buffer_manager_pins = false;
int			gr_debug_quotient_scale = -1;
int			gr_group_table_memory = 1024;
int			gr_group_memory_kb = -1;
int			gr_slot_size_kb = 8 * 1024;
int			gr_slots = 64;
int			gr_streams_per_device = 4;
char	   *gr_devices = NULL;
bool		gr_register_buffers = true;
int			gr_page_path = GR_PAGE_PATH_ON;
int			gr_page_pins = 8192;
bool		gr_buffer_hints = true;
int			gr_debug_buffer_hints = GR_BUF_HINTS_AUTO;

static const struct config_enum_entry buffer_hints_options[] = {
	{"auto", GR_BUF_HINTS_AUTO, false},
	{"always", GR_BUF_HINTS_ALWAYS, false},
	{"guess", GR_BUF_HINTS_GUESS, false},
	{"stale", GR_BUF_HINTS_STALE, false},
	{NULL, 0, false}
};

static const struct config_enum_entry page_path_options[] = {
	{"on", GR_PAGE_PATH_ON, false},
	{"off", GR_PAGE_PATH_OFF, false},
	{"cpu", GR_PAGE_PATH_CPU, false},
	{"true", GR_PAGE_PATH_ON, true},
	{"false", GR_PAGE_PATH_OFF, true},
	{"yes", GR_PAGE_PATH_ON, true},
	{"no", GR_PAGE_PATH_OFF, true},
	{"1", GR_PAGE_PATH_ON, true},
	{"0", GR_PAGE_PATH_OFF, true},
	{NULL, 0, false}
};

/*
 * Define the GUCs (_PG_init).  The GPU service's own settings only when
 * loaded by shared_preload_libraries.
 */
void
gr_guc_define(void)
{
	DefineCustomBoolVariable("gpu_reduce.enabled",
							 "Lets gpu_reduce aggregates send batches to the GPU.",
							 "When off, every batch is reduced on the CPU; answers are the same.",
							 &gr_enabled, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpu_reduce.batch_rows",
							"Values an aggregate collects before reducing them as one batch.",
							NULL,
							&gr_batch_rows, 65536, 1, 64 * 1024 * 1024,
							PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpu_reduce.min_gpu_rows",
							"Batches with fewer values than this are reduced on the CPU.",
							NULL,
							&gr_min_gpu_rows, 65536, 1, INT_MAX,
							PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpu_reduce.buffer_memory",
							"Upper bound on the batch-buffer memory of one backend, all groups together.",
							"Counts CPU batch buffers and each batching state's extension; past it, "
							"aggregates reduce their batches early instead of growing them, or fold values one by one.",
							&gr_buffer_memory_kb, 64 * 1024, 8, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpu_reduce.fallback",
							 "Reduces a batch on the CPU when its GPU reduction fails.",
							 "When off, a GPU failure is an ERROR.",
							 &gr_fallback, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpu_reduce.debug_fail_gpu",
							 "For tests: the GPU service reports this session's batches as failed.",
							 "Exercises the fallback path without a broken GPU.",
							 &gr_debug_fail_gpu, false,
							 PGC_SUSET, GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpu_reduce.debug_page_read_only",
							 "For benchmarks: the page path's kernel reads the pages and decodes nothing.",
							 "The zero-copy floor probe of bench/: the scan's answers are empty.",
							 &gr_debug_page_read_only, false,
							 PGC_SUSET, GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
	DefineCustomIntVariable("gpu_reduce.group_table_memory",
							"Most GPU memory one scanning process's GROUP BY table may take on each GPU.",
							"The table holds four times the planner's estimate of groups (up to 64 times a large one, "
							"as far as the table has rows), at least 65536, "
							"within this; rows of groups past its room go to the CPU.",
							&gr_group_table_memory, 1024, 1, INT_MAX / 1024,
							PGC_USERSET, GUC_UNIT_MB, NULL, NULL, NULL);
	DefineCustomIntVariable("gpu_reduce.group_memory",
							"Most memory the GpuReduce node's groups may take where it returns a GROUP BY's final rows itself.",
							"-1: PostgreSQL's hash memory (work_mem times hash_mem_multiplier), at least 256MB. "
							"The planner offers that mode only where its estimate of the groups fits; where more come, "
							"the node reads the table again in passes, each keeping a share of the groups.",
							&gr_group_memory_kb, -1, -1, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomIntVariable("gpu_reduce.debug_job_groups",
							"For tests: the most groups one grouping page job, and a scan's GROUP BY table, holds (0: as many as there is room for).",
							"A job that meets more groups is decoded by the CPU as a whole; "
							"a row that finds a scan's table full is handed to the CPU.",
							&gr_debug_job_groups, 0, 0, 16384,
							PGC_USERSET, GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);

	DefineCustomIntVariable("gpu_reduce.debug_scan_groups",
							"For tests: the groups a scan's GROUP BY table is made for (0: from the planner's estimate).",
							"The table grows as its groups come, as far as gpu_reduce.group_table_memory holds.",
							&gr_debug_scan_groups, 0, 0, 1 << 20,
							PGC_USERSET, GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);

	DefineCustomIntVariable("gpu_reduce.debug_error_page",
							"For tests: a bulk scan raises an ERROR as it comes to this page of its table (0: never).",
							"The page is the table's block number plus one; the page path's jobs before it "
							"are still in flight, their pages pinned.",
							&gr_debug_error_page, 0, 0, INT_MAX,
							PGC_USERSET, GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);

	DefineCustomIntVariable("gpu_reduce.debug_wait_page",
							"For tests: a bulk scan coming to this page of its table waits for the advisory lock on the table's OID (0: never).",
							"It takes pg_advisory_lock_shared(oid) and releases it at once, so a session holding "
							"pg_advisory_lock(oid) stops it there, the page path's jobs before it in flight.",
							&gr_debug_wait_page, 0, 0, INT_MAX,
							PGC_USERSET, GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpu_reduce.debug_buffer_manager_pins",
							 "For benchmarks: the page path keeps its pins through the buffer manager, not as held pins.",
							 "What held pins save, measured beside them; same answers.",
							 &gr_debug_buffer_manager_pins, false,
							 PGC_USERSET, GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);

	DefineCustomIntVariable("gpu_reduce.debug_quotient_scale",
							"For tests: the scale the node computes a numeric quotient in an aggregate's argument at (-1: planned).",
							"numeric / numeric takes the scale of its quotient's magnitude; the node computes "
							"the one planned from the operands' statistics, or this one, and hands every other "
							"row to PostgreSQL.",
							&gr_debug_quotient_scale, -1, -1, 30,
							PGC_USERSET, GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);

	DefineCustomEnumVariable("gpu_reduce.page_path",
							 "Lets the bulk scan hand pinned pages to the GPU, which reads and decodes them itself.",
							 "on: where the GPU service registered the buffer pool; off: the CPU decodes "
							 "every page; cpu: the page path with the backend decoding each job of "
							 "pinned pages itself (for tests without a GPU).",
							 &gr_page_path, GR_PAGE_PATH_ON, page_path_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpu_reduce.page_pins",
							"Most shared buffers one scanning process keeps pinned for the page path.",
							"Also bounded by shared_buffers divided by the number of backends.",
							&gr_page_pins, 8192, 4, INT_MAX / 2,
							PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpu_reduce.buffer_hints",
							 "Lets a serial bulk scan of a large table find its pages by one pass over shared_buffers.",
							 "For tables of 1/16 to 2 times shared_buffers: each page is pinned in the buffer "
							 "after the previous page's, or where one pass over the buffers saw it once such "
							 "guesses keep failing, checked by its tag, instead of being looked up in the "
							 "buffer mapping table.",
							 &gr_buffer_hints, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomEnumVariable("gpu_reduce.debug_buffer_hints",
							 "For tests: which serial bulk scans make buffer hints (with gpu_reduce.buffer_hints on).",
							 "auto: tables of 1/16 to 2 times shared_buffers, guessing first; always: every "
							 "table, the pass over the buffers first; guess: every table, guessing first; "
							 "stale: every table, every guess and hint pointing at the wrong buffer, so "
							 "that every page falls back to the buffer mapping table.",
							 &gr_debug_buffer_hints, GR_BUF_HINTS_AUTO, buffer_hints_options,
							 PGC_USERSET, GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);

	/*
	 * The service's sizes exist only where the service can: a library loaded
	 * after startup may not define PGC_POSTMASTER settings.
	 */
	if (process_shared_preload_libraries_in_progress)
	{
		DefineCustomIntVariable("gpu_reduce.slot_size",
								"Size of one shared-memory batch slot sent to the GPU.",
								NULL,
								&gr_slot_size_kb, 8 * 1024, 64, 1024 * 1024,
								PGC_POSTMASTER, GUC_UNIT_KB, NULL, NULL, NULL);
		DefineCustomIntVariable("gpu_reduce.slots",
								"Number of shared-memory batch slots.",
								NULL,
								&gr_slots, 64, 1, 4096,
								PGC_POSTMASTER, 0, NULL, NULL, NULL);
		DefineCustomIntVariable("gpu_reduce.streams_per_device",
								"Batches the GPU service keeps in flight on each GPU.",
								NULL,
								&gr_streams_per_device, 4, 1, 64,
								PGC_POSTMASTER, 0, NULL, NULL, NULL);
		DefineCustomStringVariable("gpu_reduce.devices",
								   "Comma-separated CUDA device numbers the GPU service uses; empty for all.",
								   NULL,
								   &gr_devices, "",
								   PGC_POSTMASTER, 0, NULL, NULL, NULL);
		DefineCustomBoolVariable("gpu_reduce.register_buffers",
								 "Registers the shared buffer pool with the GPUs at start, for the page path.",
								 "Pins shared_buffers in host memory for as long as the server runs.",
								 &gr_register_buffers, true,
								 PGC_POSTMASTER, 0, NULL, NULL, NULL);
	}
}

/*
 * gpu_reduce.group_memory in bytes: as set, or with -1 the memory a hash
 * aggregate of PostgreSQL's may take, and at least 256MB (which holds TPC-H
 * Q18's groups at SF1): a session that gives PostgreSQL's hash tables more
 * gives the node's groups as much.
 */
Size
gr_group_memory_bytes(void)
{
	if (gr_group_memory_kb >= 0)
		return (Size) gr_group_memory_kb * 1024;
	return Max(get_hash_memory_limit(), (Size) 256 * 1024 * 1024);
}
