// SPDX-License-Identifier: GPL-2.0
/*
 * The in-process user-mode logger (StartTrace with
 * EVENT_TRACE_PRIVATE_LOGGER_MODE): its handle, its errors, its records
 * byte for byte against the test's own encoder (expect.h) as read back from
 * the log file, no system call on the event path (counted with ptrace),
 * threads, FlushTrace, and loss that is
 * always counted (also with QueryTrace and StopTrace called while threads
 * trace); fork (a child starts clean, even with the parent's
 * threads tracing), a call nested in TraceMessage by a signal handler
 * (refused, never a hang), and a process that exits without StopTrace (its
 * file finished all the same). Needs no /dev/nttrace: runs in the VM and on
 * the host, 64-bit and 32-bit.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/ptrace.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include <nttrace/evntrace.h>
#include "../../userlib/internal.h"
#include "expect.h"
#include "files.h"
#include "harness.h"
#include "props.h"

#define BITS ((int)sizeof(void *) * 8)
#define BUF_KB 4
#define BUF_SIZE (BUF_KB * 1024)

static const uint8_t guid[16] = {
	0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
};
static char path[64];
static uint8_t big[9000];

/* EVENT_TRACE_PROPERTIES with room for both names after it. */
/* A user-mode logger of @nbuf buffers of @kb KB writing @log_file. */
static void um_props(struct props *pr, const char *log_file, uint32_t kb,
		     uint32_t nbuf)
{
	props_init(pr, log_file, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	pr->p.BufferSize = kb;
	pr->p.MaximumBuffers = nbuf;
}

static ULONG start(TRACEHANDLE *h, const char *log_file, uint32_t kb, uint32_t nbuf)
{
	struct props pr;

	um_props(&pr, log_file, kb, nbuf);
	return StartTraceA(h, "um-test", &pr.p);
}

static ULONG stop(TRACEHANDLE h, struct props *out)
{
	struct props pr;

	um_props(&pr, NULL, 0, 0);
	pr.p.LogFileMode = 0;
	if (!out)
		out = &pr;
	else
		*out = pr;
	return StopTraceA(h, NULL, &out->p);
}

static ULONG flush(TRACEHANDLE h)
{
	struct props pr;

	um_props(&pr, NULL, 0, 0);
	pr.p.LogFileMode = 0;
	return FlushTraceA(h, NULL, &pr.p);
}

/* One more in a count another thread reads while it grows. */
static void count(unsigned int *n)
{
	__atomic_store_n(n, *n + 1, __ATOMIC_RELAXED);
}

/* Walk every buffer of a file; -1 if a buffer is not whole. */
static int walk_file(const uint8_t *file, size_t len, expect_record_fn fn, void *ctx)
{
	size_t off;
	int n = 0;

	/* Buffer 0 is the ETL header buffer (BufferType 4 at 0x36). */
	if (len % BUF_SIZE || len < BUF_SIZE || get_le(file + 0x36, 2) != 4)
		return -1;
	for (off = BUF_SIZE; off < len; off += BUF_SIZE) {
		const uint8_t *b = file + off;
		uint32_t end = get_le(b + 0x04, 4), i;
		int k;

		if (get_le(b, 4) != BUF_SIZE || end < 0x48 || end > BUF_SIZE)
			return -1;
		for (i = end; i < BUF_SIZE; i++)
			if (b[i] != 0xFF)
				return -1;
		k = expect_walk(b, fn, ctx);
		if (k < 0)
			return -1;
		n += k;
	}
	return n;
}

/* ---- start, stop and their errors ---- */

TEST(control)
{
	TRACEHANDLE h = 0, h2 = 0;
	struct props pr, q;
	char bad[64];

	um_props(&pr, NULL, BUF_KB, 8);
	tap_eq(StartTraceA(&h, "um-test", &pr.p), ERROR_INVALID_PARAMETER,
	       "%d-bit: private logger without a log file -> ERROR_INVALID_PARAMETER", BITS);
	um_props(&pr, path, BUF_KB, 8);
	pr.p.Wnode.BufferSize = sizeof(EVENT_TRACE_PROPERTIES) - 1;
	tap_eq(StartTraceA(&h, "um-test", &pr.p), ERROR_BAD_LENGTH,
	       "%d-bit: Wnode.BufferSize too small -> ERROR_BAD_LENGTH", BITS);
	um_props(&pr, path, BUF_KB, 8);
	tap_eq(StartTraceA(NULL, "um-test", &pr.p), ERROR_INVALID_PARAMETER,
	       "%d-bit: NULL SessionHandle -> ERROR_INVALID_PARAMETER", BITS);
	snprintf(bad, sizeof(bad), "/nonexistent-%d/x.etl", getpid());
	um_props(&pr, bad, BUF_KB, 8);
	tap_eq(StartTraceA(&h, "um-test", &pr.p), ERROR_PATH_NOT_FOUND,
	       "%d-bit: log file in a missing directory -> ERROR_PATH_NOT_FOUND", BITS);
	tap_eq(GetLastError(), ERROR_PATH_NOT_FOUND, "%d-bit: ... also the last error", BITS);

	um_props(&pr, path, BUF_KB, 8);
	tap_eq(StartTraceA(&h, "um-test", &pr.p), ERROR_SUCCESS, "%d-bit: start", BITS);
	tap_ok(h & TRACE_USER_MODE_LOGGER_BIT, "%d-bit: the handle has 0x01000000", BITS);
	tap_ok(!strcmp(pr.logger_name, "um-test"), "%d-bit: LoggerName copied out", BITS);
	tap_eq(pr.p.Wnode.HistoricalContext, h, "%d-bit: Wnode.HistoricalContext = handle", BITS);
	um_props(&q, path, BUF_KB, 8);
	tap_eq(StartTraceA(&h2, "um-other", &q.p), ERROR_ALREADY_EXISTS,
	       "%d-bit: a second user-mode logger -> ERROR_ALREADY_EXISTS", BITS);

	um_props(&q, NULL, 0, 0);
	q.p.LogFileMode = 0;
	tap_eq(QueryTraceA(0, "UM-TEST", &q.p), ERROR_SUCCESS,
	       "%d-bit: QueryTrace by name (case-insensitive)", BITS);
	tap_eq(q.p.BufferSize, BUF_KB, "%d-bit: ... BufferSize", BITS);
	tap_eq(q.p.MaximumBuffers, 8, "%d-bit: ... MaximumBuffers", BITS);
	tap_eq(q.p.Wnode.HistoricalContext, h, "%d-bit: ... the handle", BITS);
	tap_ok(q.p.LoggerThreadId != NULL, "%d-bit: ... LoggerThreadId set", BITS);

	tap_eq(stop(h, NULL), ERROR_SUCCESS, "%d-bit: stop", BITS);
	tap_eq(TraceMessage(h, 0, NULL, 1, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: TraceMessage after stop -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(stop(h, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: stopping it again -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(start(&h2, path, BUF_KB, 8), ERROR_SUCCESS, "%d-bit: start again", BITS);
	tap_ok(h2 != h, "%d-bit: ... with a new handle", BITS);
	tap_eq(TraceMessage(h, 0, NULL, 1, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: the old handle stays invalid", BITS);
	tap_eq(stop(h2, NULL), ERROR_SUCCESS, "%d-bit: stop", BITS);
}

/* ---- the file modes: NEWFILE, PREALLOCATE, APPEND ---- */

/* The events of @file (its header event excluded), or -1 if it does not read. */
static long file_events(const char *file)
{
	struct nttrace_etl_reader *r;
	const struct nttrace_etl_event *ev;
	long n = 0;

	if (nttrace_etl_open(&r, file, NULL, NULL))
		return -1;
	while ((ev = nttrace_etl_next_ref(r)))
		n++;
	nttrace_etl_close(r);
	return n;
}

static long file_size(const char *file)
{
	struct stat st;

	return stat(file, &st) ? -1 : (long)st.st_size;
}

/* Start a logger of @mode (besides PRIVATE_LOGGER_MODE), @max_mb, on @file. */
static ULONG start_mode(TRACEHANDLE *h, const char *file, uint32_t mode, uint32_t max_mb)
{
	struct props pr;

	um_props(&pr, file, BUF_KB, 8);
	pr.p.LogFileMode |= mode;
	pr.p.MaximumFileSize = max_mb;
	return StartTraceA(h, "um-test", &pr.p);
}

/*
 * @n events of @size bytes, each written: one that finds no free buffer
 * is traced again after a flush, which waits for the writer, so that the
 * count does not depend on how fast the writer is. The events written.
 */
static long write_sized(TRACEHANDLE h, long n, size_t size)
{
	long ok = 0, tries = 0;

	while (ok < n && tries++ < 100 * n) {
		if (TraceMessage(h, TRACE_MESSAGE_SEQUENCE, (LPCGUID)guid, 1, big, size,
				 NULL) == ERROR_SUCCESS)
			ok++;
		else
			flush(h);
	}
	return ok;
}

static long write_events(TRACEHANDLE h, long n)
{
	return write_sized(h, n, 900);
}

TEST(file_modes)
{
	char pattern[80], one[80], two[80], three[80];
	TRACEHANDLE h = 0;
	long ok, got;

	snprintf(pattern, sizeof(pattern), "/tmp/um-newfile-%d-%%d.etl", getpid());
	snprintf(one, sizeof(one), pattern, 1);
	snprintf(two, sizeof(two), pattern, 2);
	snprintf(three, sizeof(three), pattern, 3);
	tap_eq(start_mode(&h, pattern, EVENT_TRACE_FILE_MODE_NEWFILE, 0), ERROR_INVALID_PARAMETER,
	       "%d-bit: NEWFILE without MaximumFileSize -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(start_mode(&h, pattern, EVENT_TRACE_FILE_MODE_NEWFILE |
			  EVENT_TRACE_FILE_MODE_CIRCULAR, 1), ERROR_INVALID_PARAMETER,
	       "%d-bit: NEWFILE|CIRCULAR -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(start_mode(&h, path, EVENT_TRACE_FILE_MODE_APPEND |
			  EVENT_TRACE_FILE_MODE_CIRCULAR, 1), ERROR_INVALID_PARAMETER,
	       "%d-bit: APPEND|CIRCULAR -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(start_mode(&h, pattern, EVENT_TRACE_FILE_MODE_NEWFILE |
			  EVENT_TRACE_FILE_MODE_PREALLOCATE, 1), ERROR_SUCCESS,
	       "%d-bit: NEWFILE|PREALLOCATE, 1 MB files", BITS);
	tap_eq(file_size(one), 1 << 20, "%d-bit: ... the first file takes its 1 MB at once", BITS);
	ok = write_events(h, 1600);
	tap_eq(ok, 1600, "%d-bit: ... 1600 events of 900 bytes written", BITS);
	tap_eq(stop(h, NULL), ERROR_SUCCESS, "%d-bit: ... stop", BITS);
	tap_ok(file_size(one) > 0 && file_size(one) <= 1 << 20 && file_size(two) > 0 &&
	       file_size(two) < 1 << 20 && file_size(three) < 0,
	       "%d-bit: ... two files of at most 1 MB, the last cut back (%ld, %ld)", BITS,
	       file_size(one), file_size(two));
	got = file_events(one) + file_events(two);
	tap_eq(got, ok, "%d-bit: ... every event in them, each file read alone", BITS);
	unlink(one);
	unlink(two);

	tap_eq(start(&h, path, BUF_KB, 8), ERROR_SUCCESS, "%d-bit: a file, then APPEND to it", BITS);
	ok = write_events(h, 100);
	stop(h, NULL);
	tap_eq(start_mode(&h, path, EVENT_TRACE_FILE_MODE_APPEND, 0), ERROR_SUCCESS,
	       "%d-bit: ... APPEND", BITS);
	ok += write_events(h, 120);
	tap_eq(stop(h, NULL), ERROR_SUCCESS, "%d-bit: ... stop", BITS);
	tap_eq(file_events(path), ok, "%d-bit: ... the file holds both sessions' events", BITS);
}

/* ---- EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING: one stream for all ---- */

static TRACEHANDLE np_handle;

/* 400 events of 200 bytes, each written (write_sized()). */
static void *np_thread(void *arg)
{
	(void)arg;
	return (void *)write_sized(np_handle, 400, 200);
}

TEST(no_per_processor)
{
	const struct nttrace_etl_event *ev;
	struct nttrace_etl_reader *r;
	pthread_t th[4];
	long ok = 0, n = 0, other_cpu = 0, out_of_order = 0;
	uint32_t last = 0;
	unsigned int t;
	void *got;

	tap_eq(start_mode(&np_handle, path, EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING, 0),
	       ERROR_SUCCESS, "%d-bit: NO_PER_PROCESSOR_BUFFERING", BITS);
	for (t = 0; t < 4; t++)
		pthread_create(&th[t], NULL, np_thread, NULL);
	for (t = 0; t < 4; t++) {
		pthread_join(th[t], &got);
		ok += (long)got;
	}
	tap_eq(ok, 1600, "%d-bit: ... four threads wrote 400 events each", BITS);
	tap_eq(stop(np_handle, NULL), ERROR_SUCCESS, "%d-bit: ... stop", BITS);
	if (!tap_eq(nttrace_etl_open(&r, path, NULL, NULL), 0, "%d-bit: ... the file opens", BITS))
		return;
	while ((ev = nttrace_etl_next_ref(r))) {
		if (!ev->message)
			continue;
		n++;
		other_cpu += ev->cpu != 0;
		out_of_order += ev->sequence != last + 1;
		last = ev->sequence;
	}
	nttrace_etl_close(r);
	tap_eq(n, 1600, "%d-bit: ... every event in the file", BITS);
	tap_eq(other_cpu, 0, "%d-bit: ... all in one stream of buffers (processor 0)", BITS);
	tap_eq(out_of_order, 0, "%d-bit: ... in the order they were written (sequence 1 to 1600)",
	       BITS);
	/* The next session, per thread again, is unaffected. */
	tap_eq(start(&np_handle, path, BUF_KB, 8), ERROR_SUCCESS, "%d-bit: a session per slot "
	       "after it", BITS);
	tap_eq(TraceMessage(np_handle, 0, (LPCGUID)guid, 3, NULL), ERROR_SUCCESS,
	       "%d-bit: ... writes", BITS);
	tap_eq(stop(np_handle, NULL), ERROR_SUCCESS, "%d-bit: ... stop", BITS);
}

/* ---- every flag combination, byte for byte, from the file ---- */

static const uint32_t set_sizes[4][6] = {
	{ 0 }, { 1, 1 }, { 3, 3, 0, 5 }, { 5, 7, 13, 2, 31, 1 },
};

#define NPLANNED (64 * 4 + 8)

struct planned {
	uint32_t flags;
	uint64_t before, after;
	uint8_t data[64];
	uint32_t len;
};

static struct planned plan[NPLANNED];
static unsigned int nplan, nread, mismatches, last_seq;

static void check_record(void *ctx, const uint8_t *rec, uint32_t size)
{
	struct planned *pl;
	struct expect e;
	struct expect_layout l;
	uint8_t want[128];
	uint32_t wsize;

	if (nread >= nplan) {
		mismatches++;
		return;
	}
	pl = &plan[nread++];
	l = expect_layout(pl->flags);
	memset(&e, 0, sizeof(e));
	e.number = nread;
	e.flags = pl->flags;
	e.ptr32 = BITS == 32;
	e.guid = guid;
	e.data = pl->data;
	e.len = pl->len;
	e.tid = syscall(SYS_gettid);
	e.pid = getpid();
	if (l.seq >= 0)
		e.seq = ++last_seq;
	if (l.ts >= 0 && (pl->flags & TRACE_MESSAGE_TIMESTAMP)) {
		e.ts = get_le(rec + l.ts, 8);
		if (e.ts < pl->before || e.ts > pl->after) {
			printf("# record %u: time stamp outside its call\n", nread);
			mismatches++;
		}
	}
	wsize = expect_encode(&e, want);
	if (wsize != size || memcmp(want, rec, size)) {
		printf("# record %u (flags 0x%x, %u bytes): differs\n", nread,
		       pl->flags, pl->len);
		mismatches++;
	}
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static ULONG trace_set(TRACEHANDLE h, uint32_t flags, uint16_t number, int set,
		       struct planned *pl)
{
	static uint8_t bytes[72];
	const uint32_t *sz = set_sizes[set];
	const uint8_t *p[6];
	unsigned int i, off = 1;

	for (i = 0; i < sizeof(bytes); i++)
		bytes[i] = (uint8_t)(i * 37 + number * 11 + 1);
	pl->len = 0;
	for (i = 0; i < sz[0]; i++) {
		p[i] = bytes + off;
		memcpy(pl->data + pl->len, p[i], sz[1 + i]);
		pl->len += sz[1 + i];
		off += sz[1 + i] + 1;
	}
	switch (sz[0]) {
	case 0:
		return TraceMessage(h, flags, (LPCGUID)guid, number, NULL);
	case 1:
		return TraceMessage(h, flags, (LPCGUID)guid, number, p[0], (size_t)sz[1], NULL);
	case 3:
		return TraceMessage(h, flags, (LPCGUID)guid, number, p[0], (size_t)sz[1],
				    p[1], (size_t)sz[2], p[2], (size_t)sz[3], NULL);
	default:
		return TraceMessage(h, flags, (LPCGUID)guid, number, p[0], (size_t)sz[1],
				    p[1], (size_t)sz[2], p[2], (size_t)sz[3],
				    p[3], (size_t)sz[4], p[4], (size_t)sz[5], NULL);
	}
}

/* Traced from the encoding test's thread: a bad argument, mid-list. */
static ULONG trace_bad(TRACEHANDLE h, uint16_t number, const void *bad)
{
	return TraceMessage(h, 0, NULL, number, "ok", (size_t)2, bad, (size_t)4, NULL);
}

TEST(encoding)
{
	long pg = getpagesize();
	uint8_t *page = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TRACEHANDLE h;
	unsigned int f, set, errors = 0, before_flush = 0;
	struct props st;
	uint8_t *file;
	size_t len, flushed = 0;
	struct stat sb;

	mprotect(page + pg, pg, PROT_NONE);
	if (!tap_eq(start(&h, path, BUF_KB, 8), ERROR_SUCCESS, "%d-bit: start", BITS))
		return;
	nplan = nread = mismatches = last_seq = 0;
	for (f = 0; f < 64; f++) {
		for (set = 0; set < 4; set++) {
			struct planned *pl = &plan[nplan];

			pl->flags = f;
			pl->before = mono_ns();
			if (trace_set(h, f, nplan + 1, set, pl))
				errors++;
			pl->after = mono_ns();
			nplan++;
		}
		/* Failed calls between good ones leave nothing behind. */
		if (f % 8 == 0) {
			errors += trace_bad(h, 999, page + pg) != ERROR_NOACCESS;
			errors += trace_bad(h, 999, page + pg - 2) != ERROR_NOACCESS;
			errors += TraceMessage(h, TRACE_MESSAGE_GUID, (LPCGUID)(page + pg),
					       999, NULL) != ERROR_NOACCESS;
		}
		if (f == 31) {
			before_flush = nplan;
			memset(&st, 0, sizeof(st));
			tap_eq(FlushTraceA(h, NULL, &st.p), ERROR_BAD_LENGTH,
			       "%d-bit: FlushTrace with unset properties -> ERROR_BAD_LENGTH",
			       BITS);
			um_props(&st, NULL, 0, 0);
			tap_eq(FlushTraceA(h, NULL, &st.p), ERROR_SUCCESS,
			       "%d-bit: FlushTrace", BITS);
			flushed = stat(path, &sb) ? 0 : sb.st_size;
		}
	}
	tap_eq(errors, 0, "%d-bit: 256 events traced, each bad argument -> ERROR_NOACCESS",
	       BITS);
	tap_eq(TraceMessage(h, 0, NULL, 1, big, (size_t)(8192 - 0x30 - 100),
			    big, (size_t)101, NULL), ERROR_BUFFER_OVERFLOW,
	       "%d-bit: 0x30 + 8145 bytes -> ERROR_BUFFER_OVERFLOW", BITS);
	tap_eq(TraceMessage(h, 0, NULL, 1, big, (size_t)5000, NULL), ERROR_MORE_DATA,
	       "%d-bit: larger than a 4 KB buffer -> ERROR_MORE_DATA", BITS);
	tap_eq(GetLastError(), ERROR_MORE_DATA, "%d-bit: ... also the last error", BITS);
	tap_eq(stop(h, &st), ERROR_SUCCESS, "%d-bit: stop", BITS);
	tap_eq(st.p.EventsLost, 0, "%d-bit: no event lost", BITS);

	file = slurp(path, &len);
	tap_ok(flushed > 0 && flushed % BUF_SIZE == 0,
	       "%d-bit: after FlushTrace the file holds whole buffers (%zu bytes)",
	       BITS, flushed);
	tap_eq(len / BUF_SIZE - 1, st.p.BuffersWritten,
	       "%d-bit: BuffersWritten = the file's buffers after the header",
	       BITS);
	tap_eq(walk_file(file, len, check_record, NULL), nplan,
	       "%d-bit: the file holds %u records in whole buffers", BITS, nplan);
	tap_eq(mismatches, 0, "%d-bit: every record byte for byte as encoded", BITS);
	if (flushed) {
		nread = 0;
		last_seq = 0;
		tap_eq(walk_file(file, flushed, check_record, NULL), before_flush,
		       "%d-bit: the flushed part holds every event traced before the flush",
		       BITS);
	}
	free(file);
	munmap(page, 2 * pg);
}

/*
 * ---- no system call ----
 * A child traced with PTRACE_SYSCALL starts its own logger and traces 100
 * events between two getppid() markers; the parent lists every system call
 * the child's thread entered between them. The only one allowed is the
 * clock (clock_gettime is a vDSO call, which falls back to a real system
 * call when the clock source cannot be read from user space, as in some
 * VMs): it is the time stamp's, not the logger's.
 */
#define NO_SYSCALL_EVENTS 100
#define SYSCALL_INFO_ENTRY 1	/* PTRACE_SYSCALL_INFO_ENTRY */

/* The start of struct ptrace_syscall_info (linux/ptrace.h, not glibc's). */
struct syscall_entry_info {
	uint8_t op;
	uint8_t pad[3];
	uint32_t arch;
	uint64_t instruction_pointer, stack_pointer;
	uint64_t nr, args[6];
};

static int traced_child(void)
{
	TRACEHANDLE h;
	unsigned int i, ok = 0;

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) || raise(SIGSTOP))
		return 2;
	if (start(&h, path, BUF_KB, 8))
		return 3;
	/* The first event of a thread learns its IDs (gettid, getpid). */
	TraceMessage(h, TRACE_MESSAGE_SYSTEMINFO, NULL, 7, &i, sizeof(i), NULL);
	syscall(SYS_getppid);
	for (i = 0; i < NO_SYSCALL_EVENTS; i++)
		ok += TraceMessage(h, TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_TIMESTAMP |
				   TRACE_MESSAGE_SYSTEMINFO, NULL, 7, &i, sizeof(i),
				   NULL) == ERROR_SUCCESS;
	syscall(SYS_getppid);
	if (stop(h, NULL) || ok != NO_SYSCALL_EVENTS)
		return 4;
	return 0;
}

static int is_clock(unsigned long nr)
{
#ifdef SYS_clock_gettime64
	if (nr == SYS_clock_gettime64)
		return 1;
#endif
	return nr == SYS_clock_gettime;
}

static unsigned int counted;

static void count_record(void *ctx, const uint8_t *rec, uint32_t size)
{
	counted++;
}

TEST(no_syscall)
{
	struct syscall_entry_info info;
	unsigned int markers = 0, calls = 0, clock = 0, other = 0;
	unsigned long last_other = 0;
	int status;
	uint8_t *file;
	size_t len;
	pid_t pid = fork();

	if (pid == 0)
		_exit(traced_child());
	waitpid(pid, &status, 0);	/* its SIGSTOP */
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(uintptr_t)PTRACE_O_TRACESYSGOOD);
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, NULL) || waitpid(pid, &status, 0) != pid ||
		    !WIFSTOPPED(status))
			break;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80))
			continue;
		memset(&info, 0, sizeof(info));
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info), &info) <= 0 ||
		    info.op != SYSCALL_INFO_ENTRY)
			continue;
		if (info.nr == SYS_getppid) {
			markers++;
			continue;
		}
		if (markers != 1)
			continue;
		calls++;
		if (is_clock(info.nr)) {
			clock++;
		} else {
			other++;
			last_other = info.nr;
		}
	}
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 && markers == 2,
	       "%d-bit: a traced child traces %u events to its own logger", BITS,
	       NO_SYSCALL_EVENTS);
	printf("# %u system calls in %u events: %u clock, %u other\n", calls,
	       NO_SYSCALL_EVENTS, clock, other);
	tap_eq(other, 0, "%d-bit: ... making no system call but the clock's%s", BITS,
	       other ? " (see the number below)" : "");
	if (other)
		printf("# last other system call: %lu\n", last_other);
	file = slurp(path, &len);
	counted = 0;
	tap_eq(walk_file(file, len, count_record, NULL), NO_SYSCALL_EVENTS + 1,
	       "%d-bit: ... and the events are in the file", BITS);
	free(file);
}

/* ---- threads, and loss ---- */

/*
 * 4 threads, each in a slot of its own; MAX_THREADS, more than the
 * logger's 64 slots, makes threads share slots (the sharers' way in)
 * while another thread flushes (a visitor of every slot).
 */
#define NTHREADS 4
#define MAX_THREADS 80
#define PER_THREAD 3000

static unsigned int nthreads = NTHREADS;

struct producer {
	pthread_t th;
	TRACEHANDLE h;
	unsigned int index, ok, nomem, other;
	uint32_t tid;
	uint8_t done[PER_THREAD];
};

static struct producer prod[MAX_THREADS];
static uint8_t seen[MAX_THREADS][PER_THREAD];
static uint8_t *seq_seen;
static unsigned int bad, dups;

static void *produce(void *arg)
{
	struct producer *p = arg;
	uint32_t i, payload[16];

	p->tid = syscall(SYS_gettid);
	memset(payload, 0, sizeof(payload));
	for (i = 0; i < PER_THREAD; i++) {
		ULONG err;

		payload[0] = p->index << 16 | i;
		err = TraceMessage(p->h, TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_SYSTEMINFO,
				   NULL, 9, payload, sizeof(payload), NULL);
		if (!err) {
			p->ok++;
			p->done[i] = 1;
		} else if (err == ERROR_NOT_ENOUGH_MEMORY) {
			p->nomem++;
		} else {
			p->other++;
		}
	}
	return NULL;
}

static void thread_record(void *ctx, const uint8_t *rec, uint32_t size)
{
	uint32_t seq = get_le(rec + 8, 4), tid = get_le(rec + 12, 4);
	uint32_t id = get_le(rec + 20, 4), t = id >> 16, i = id & 0xFFFF;

	if (size != 20 + 64 || t >= nthreads || i >= PER_THREAD || !seq ||
	    seq > nthreads * PER_THREAD || tid != prod[t].tid ||
	    get_le(rec + 16, 4) != (uint32_t)getpid()) {
		bad++;
		return;
	}
	if (seen[t][i]++ || seq_seen[seq]++)
		dups++;
}

/* FlushTrace over and over while the producers run (flush_now = 1). */
static int flush_now;
static unsigned int flushes, flush_errors;

static void *flusher(void *arg)
{
	TRACEHANDLE h = *(TRACEHANDLE *)arg;

	while (__atomic_load_n(&flush_now, __ATOMIC_ACQUIRE)) {
		flush_errors += flush(h) != ERROR_SUCCESS;
		flushes++;
	}
	return NULL;
}

/* Start, run the producers, stop; returns EventsLost. */
static uint32_t run_producers(const char *log_file, uint32_t nbuf, int (*during_stop)(void))
{
	pthread_t flush_thread;
	struct props st;
	TRACEHANDLE h;
	unsigned int t;

	memset(prod, 0, sizeof(prod));
	memset(seen, 0, sizeof(seen));
	bad = dups = 0;
	if (!tap_eq(start(&h, log_file, BUF_KB, nbuf), ERROR_SUCCESS, "%d-bit: start", BITS))
		return 0;
	if (flush_now)
		pthread_create(&flush_thread, NULL, flusher, &h);
	for (t = 0; t < nthreads; t++) {
		prod[t].h = h;
		prod[t].index = t;
		pthread_create(&prod[t].th, NULL, produce, &prod[t]);
	}
	for (t = 0; t < nthreads; t++)
		pthread_join(prod[t].th, NULL);
	if (flush_now) {
		__atomic_store_n(&flush_now, 0, __ATOMIC_RELEASE);
		pthread_join(flush_thread, NULL);
	}
	if (during_stop)
		during_stop();
	tap_eq(stop(h, &st), ERROR_SUCCESS, "%d-bit: stop", BITS);
	return st.p.EventsLost;
}

/* Every event that succeeded was read, every other was counted lost. */
static void check_threads(const char *what, const uint8_t *file, size_t len, uint32_t lost)
{
	unsigned int t, i, ok = 0, nomem = 0, other = 0, unmarked = 0, read = 0;

	seq_seen = calloc(nthreads * PER_THREAD + 1, 1);
	tap_ok(walk_file(file, len, thread_record, NULL) >= 0,
	       "%d-bit: %s: whole buffers", BITS, what);
	for (t = 0; t < nthreads; t++) {
		ok += prod[t].ok;
		nomem += prod[t].nomem;
		other += prod[t].other;
		for (i = 0; i < PER_THREAD; i++) {
			read += seen[t][i] != 0;
			unmarked += prod[t].done[i] && !seen[t][i];
		}
	}
	printf("# %s: %u written, %u refused (no free buffer), %u lost\n", what, ok, nomem, lost);
	tap_eq(other, 0, "%d-bit: %s: only success or ERROR_NOT_ENOUGH_MEMORY", BITS, what);
	tap_eq(bad + dups, 0, "%d-bit: %s: records whole, own thread ID, sequence unique",
	       BITS, what);
	tap_eq(unmarked, 0, "%d-bit: %s: every event reported written is in the file",
	       BITS, what);
	tap_eq(read, ok, "%d-bit: %s: and nothing else", BITS, what);
	tap_eq(nomem, lost, "%d-bit: %s: EventsLost = the refused events", BITS, what);
	free(seq_seen);
}

TEST(threads)
{
	uint8_t *file;
	size_t len;
	uint32_t lost = run_producers(path, 16, NULL);

	file = slurp(path, &len);
	check_threads("4 threads", file, len, lost);
	free(file);

	/* 80 threads in 64 slots, a flush running all along. */
	nthreads = MAX_THREADS;
	flush_now = 1;
	flushes = flush_errors = 0;
	lost = run_producers(path, 64, NULL);
	file = slurp(path, &len);
	printf("# %u flushes during the run\n", flushes);
	tap_eq(flush_errors, 0, "%d-bit: 80 threads: FlushTrace meanwhile succeeds (%u times)",
	       BITS, flushes);
	check_threads("80 threads, 64 slots, flushing", file, len, lost);
	nthreads = NTHREADS;
	free(file);
}

/*
 * Loss on purpose: the log file is a FIFO nobody reads until the producers
 * are done, so the writer blocks and the buffers run out.
 */
static char fifo[64];
static int fifo_fd;
static uint8_t *fifo_data;
static size_t fifo_len;
static pthread_t fifo_reader;

static void *read_fifo(void *arg)
{
	size_t room = 1 << 20;
	ssize_t n;

	fifo_data = malloc(room);
	fcntl(fifo_fd, F_SETFL, 0);	/* blocking from now on */
	while ((n = read(fifo_fd, fifo_data + fifo_len, room - fifo_len)) > 0) {
		fifo_len += n;
		if (fifo_len == room)
			fifo_data = realloc(fifo_data, room *= 2);
	}
	return arg;
}

/*
 * A FIFO at fifo[], open for reading without blocking (so that the
 * logger's open for writing finds a reader): 0, or -1 (reported). Its pipe
 * holds one buffer (one page), not the system's default (16 pages, more
 * with large pages): unread, it stops the writer at its second buffer.
 */
static int make_fifo(void)
{
	snprintf(fifo, sizeof(fifo), "/tmp/um-fifo-%d", getpid());
	unlink(fifo);
	if (!tap_ok(mkfifo(fifo, 0600) == 0, "%d-bit: mkfifo", BITS))
		return -1;
	fifo_fd = open(fifo, O_RDONLY | O_NONBLOCK);
	if (!tap_ok(fifo_fd >= 0 && fcntl(fifo_fd, F_SETPIPE_SZ, BUF_SIZE) >= BUF_SIZE,
		    "%d-bit: a FIFO of one buffer", BITS))
		return -1;
	return 0;
}

/* The running logger's counts (QueryTrace): 0, or its error. */
static ULONG query(TRACEHANDLE h, struct props *q)
{
	um_props(q, NULL, 0, 0);
	q->p.LogFileMode = 0;
	return QueryTraceA(h, NULL, &q->p);
}

static int start_reading(void)
{
	return pthread_create(&fifo_reader, NULL, read_fifo, NULL);
}

TEST(loss)
{
	uint32_t lost;

	if (make_fifo())
		return;
	lost = run_producers(fifo, 4, start_reading);
	pthread_join(fifo_reader, NULL);
	close(fifo_fd);
	unlink(fifo);
	tap_ok(lost > 0, "%d-bit: a log file that does not keep up: events lost (%u)",
	       BITS, lost);
	check_threads("writer blocked", fifo_data, fifo_len, lost);
	free(fifo_data);
}

/*
 * FlushTrace while another thread goes on tracing into a log file that
 * drains only as the test lets it: the FIFO is read one buffer at a time,
 * and only after the producer found no free buffer again, so the writer's
 * queue never empties. FlushTrace waits for the buffers traced before it,
 * not for an empty queue (it used to, and returned only when the producer
 * stopped, or never: what the producer queued since woke no writer). The
 * test reads on until the flush returns; one that waits for an empty
 * queue never does, and vm-run's timeout reports it.
 */
#define FLUSH_NBUF 16

static TRACEHANDLE slow_handle;
static int slow_tracing = 1;	/* the producer goes on while set */
static unsigned int slow_refused;	/* its calls that found no free buffer (atomic) */
static int flush_returned;	/* atomic */
static ULONG flush_err;

static void *trace_until_told(void *arg)
{
	while (__atomic_load_n(&slow_tracing, __ATOMIC_ACQUIRE))
		if (TraceMessage(slow_handle, TRACE_MESSAGE_SEQUENCE, NULL, 5, big, (size_t)64,
				 NULL) == ERROR_NOT_ENOUGH_MEMORY)
			count(&slow_refused);
	return arg;
}

/* Wait until the producer finds no free buffer after @since refusals. */
static unsigned int wait_refused(unsigned int since)
{
	unsigned int n;

	while ((n = __atomic_load_n(&slow_refused, __ATOMIC_RELAXED)) == since)
		sched_yield();
	return n;
}

static void *flush_in_thread(void *arg)
{
	flush_err = flush(slow_handle);
	__atomic_store_n(&flush_returned, 1, __ATOMIC_RELEASE);
	return arg;
}

TEST(flush_under_load)
{
	pthread_t producer, flusher_th;
	static uint8_t chunk[BUF_SIZE];
	unsigned int reads, refused;
	size_t slow_read = 0;
	int tracing;
	ssize_t n;

	if (make_fifo())
		return;
	if (!tap_eq(start(&slow_handle, fifo, BUF_KB, FLUSH_NBUF), ERROR_SUCCESS,
		    "%d-bit: start (flush under load)", BITS))
		goto out;
	fcntl(fifo_fd, F_SETFL, 0);	/* blocking reads */
	pthread_create(&producer, NULL, trace_until_told, NULL);
	refused = wait_refused(0);	/* the queue is full */
	pthread_create(&flusher_th, NULL, flush_in_thread, NULL);
	for (reads = 0; !__atomic_load_n(&flush_returned, __ATOMIC_ACQUIRE); reads++) {
		refused = wait_refused(refused);
		n = read(fifo_fd, chunk, sizeof(chunk));
		if (n <= 0)
			break;
		slow_read += n;
	}
	pthread_join(flusher_th, NULL);
	/* The producer traced all along: it stops only now. */
	tracing = __atomic_load_n(&slow_tracing, __ATOMIC_ACQUIRE);
	__atomic_store_n(&slow_tracing, 0, __ATOMIC_RELEASE);
	pthread_join(producer, NULL);
	tap_eq(flush_err, ERROR_SUCCESS, "%d-bit: FlushTrace while a thread traces into a slow "
	       "file", BITS);
	tap_ok(tracing, "%d-bit: ... returns while the thread goes on, the queue never empty "
	       "(%u buffers read meanwhile)", BITS, reads);
	fifo_len = 0;
	start_reading();
	tap_eq(stop(slow_handle, NULL), ERROR_SUCCESS, "%d-bit: stop", BITS);
	pthread_join(fifo_reader, NULL);
	slow_read += fifo_len;
	free(fifo_data);
	tap_ok(slow_read > BUF_SIZE && slow_read % BUF_SIZE == 0,
	       "%d-bit: ... the file holds whole buffers (%zu bytes)", BITS, slow_read);
out:
	close(fifo_fd);
	unlink(fifo);
}

/* ---- fork ---- */

TEST(fork)
{
	TRACEHANDLE h;
	int status = -1;
	pid_t pid;

	if (!tap_eq(start(&h, path, BUF_KB, 8), ERROR_SUCCESS, "%d-bit: start", BITS))
		return;
	pid = fork();
	if (pid == 0)
		_exit(TraceMessage(h, 0, NULL, 1, NULL) == ERROR_INVALID_HANDLE ? 0 : 1);
	waitpid(pid, &status, 0);
	tap_eq(status, 0, "%d-bit: a forked child has no logger: ERROR_INVALID_HANDLE", BITS);
	tap_eq(TraceMessage(h, 0, NULL, 1, NULL), ERROR_SUCCESS,
	       "%d-bit: the parent's logger still runs", BITS);
	tap_eq(stop(h, NULL), ERROR_SUCCESS, "%d-bit: stop", BITS);
}

/* Threads that come and go: each leaves its buffer for the living. */
static TRACEHANDLE churn_handle;

static void *trace_once(void *arg)
{
	*(ULONG *)arg = TraceMessage(churn_handle, TRACE_MESSAGE_SEQUENCE, NULL, 7,
				     big, (size_t)16, NULL);
	return NULL;
}

/*
 * On a busy machine the writer can lag behind 100 thread starts: wait
 * until it has written half the buffers back. Each thread's exit queues
 * its buffer, and half the pool out is more than the writer's wake-up
 * mark, so the writer has been woken and the wait ends. A buffer a dead
 * thread kept never comes back this way (a query does not collect the
 * slots' buffers, as a flush would): that defect hangs the test here, and
 * vm-run's timeout reports it.
 */
static void wait_for_writer(TRACEHANDLE h, uint32_t want_free)
{
	struct props q;

	while (!query(h, &q) && q.p.FreeBuffers < want_free)
		sched_yield();
}

TEST(thread_churn)
{
	unsigned int i, failed = 0;
	uint8_t *file;
	size_t len;

	if (!tap_eq(start(&churn_handle, path, 4, 16), 0, "%d-bit: start for 100 threads",
		    BITS))
		return;
	for (i = 0; i < 100; i++) {
		pthread_t t;
		ULONG err = 1;

		wait_for_writer(churn_handle, 8);
		pthread_create(&t, NULL, trace_once, &err);
		pthread_join(t, NULL);
		failed += err != ERROR_SUCCESS;
	}
	tap_eq(failed, 0, "%d-bit: 100 threads one after another, 16 buffers: none "
	       "refused (an exiting thread gives its buffer back)", BITS);
	stop(churn_handle, NULL);
	file = slurp(path, &len);
	counted = 0;
	walk_file(file, len, count_record, NULL);
	tap_eq(counted, 100, "%d-bit: ... and all 100 events are in the file", BITS);
	free(file);
}

/*
 * An event that faults as the first of a buffer leaves it empty; the stop
 * must take it back, or the next session's first event lands in freed
 * memory.
 */
TEST(restart_after_fault)
{
	TRACEHANDLE h;
	uint8_t *file;
	size_t len;
	ULONG err;

	if (!tap_eq(start(&h, path, 4, 16), 0, "%d-bit: start (fault then stop)", BITS))
		return;
	err = TraceMessage(h, 0, NULL, 1, (void *)16, (size_t)8, NULL);
	tap_eq(err, ERROR_NOACCESS, "%d-bit: a bad pointer as a buffer's first event", BITS);
	stop(h, NULL);
	if (!tap_eq(start(&h, path, 4, 16), 0, "%d-bit: start again", BITS))
		return;
	err = TraceMessage(h, 0, NULL, 2, big, (size_t)8, NULL);
	stop(h, NULL);
	file = slurp(path, &len);
	counted = 0;
	walk_file(file, len, count_record, NULL);
	tap_ok(err == ERROR_SUCCESS && counted == 1,
	       "%d-bit: the next session's event is in its file (%u)", BITS, counted);
	free(file);
}

/* ---- children that must not hang: fork, signals, exit ---- */

/*
 * waitpid with a deadline: a child still running after @seconds is killed
 * and -1 returned, so that a hang fails the test instead of the suite.
 */
static int wait_child(pid_t pid, unsigned int seconds)
{
	unsigned int i;
	int status;

	for (i = 0; i < seconds * 100; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		if (r < 0)
			return -1;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

static const char *child_status(int status)
{
	static char text[48];

	if (status == -1)
		return "hung, killed";
	if (WIFSIGNALED(status))
		snprintf(text, sizeof(text), "killed by signal %d", WTERMSIG(status));
	else
		snprintf(text, sizeof(text), "exit %d", WEXITSTATUS(status));
	return text;
}

/* Counters a child shares with its parent (MAP_SHARED). */
static void *shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * An ETL file through the library's reader: its header in *@info, each
 * event to @fn. The number of events, or -1 if the file cannot be read;
 * the reader's problems are counted in etl_problems.
 */
typedef void (*etl_event_fn)(void *ctx, const struct nttrace_etl_event *ev);
static unsigned int etl_problems;

static void on_etl_problem(void *ctx, uint64_t offset, const char *what)
{
	etl_problems++;
	printf("# problem at %llu: %s\n", (unsigned long long)offset, what);
}

static int read_etl(const char *file, struct nttrace_etl_info *info, etl_event_fn fn,
		    void *ctx)
{
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	int n = 0;

	memset(info, 0, sizeof(*info));
	if (nttrace_etl_open(&r, file, on_etl_problem, NULL))
		return -1;
	*info = *nttrace_etl_info(r);
	while (nttrace_etl_next(r, &ev)) {
		fn(ctx, &ev);
		n++;
	}
	nttrace_etl_close(r);
	return n;
}

/* A finished file: EndTime set, BuffersWritten = its buffers, header included. */
static int finished(const struct nttrace_etl_info *info)
{
	return info->has_header && info->end_time && info->file_buffers >= 2 &&
	       info->buffers_written == info->file_buffers;
}

/*
 * The events of one file by origin: an event's 4-byte payload is
 * origin << 24 | index (message number @number), its sequence number
 * unique.
 */
#define ORIGINS 8
#define MAX_SEQ (1 << 22)

struct tally {
	uint16_t number;
	pid_t pid;		/* SYSTEMINFO events: the process to expect */
	unsigned int count[ORIGINS], bad, dups;
	uint8_t *seq_seen;	/* MAX_SEQ + 1 */
};

static void tally_event(void *ctx, const struct nttrace_etl_event *ev)
{
	struct tally *t = ctx;
	uint32_t id, origin;

	if (!ev->message || ev->number != t->number || ev->data_len != 4 ||
	    !(ev->flags & TRACE_MESSAGE_SEQUENCE) || !ev->sequence ||
	    ev->sequence > MAX_SEQ ||
	    (t->pid && (!(ev->flags & TRACE_MESSAGE_SYSTEMINFO) ||
			ev->pid != (uint32_t)t->pid))) {
		t->bad++;
		return;
	}
	memcpy(&id, ev->data, 4);
	origin = id >> 24;
	if (origin >= ORIGINS) {
		t->bad++;
		return;
	}
	t->count[origin]++;
	if (t->seq_seen[ev->sequence]++)
		t->dups++;
}

static int tally_file(const char *file, struct tally *t, uint16_t number, pid_t pid,
		      struct nttrace_etl_info *info)
{
	int n;

	memset(t, 0, sizeof(*t));
	t->number = number;
	t->pid = pid;
	t->seq_seen = calloc(MAX_SEQ + 1, 1);
	etl_problems = 0;
	n = read_etl(file, info, tally_event, t);
	free(t->seq_seen);
	t->seq_seen = NULL;
	return n;
}

static ULONG trace_id(TRACEHANDLE h, ULONG flags, uint16_t number, uint32_t id)
{
	return TraceMessage(h, TRACE_MESSAGE_SEQUENCE | flags, NULL, number, &id,
			    sizeof(id), NULL);
}

/*
 * ---- fork while other threads trace ----
 * The parent's producers hold slot locks and buffers of its pool at any
 * moment; a child must have none of it. Children of three kinds: one
 * starts its own logger, traces from two threads and stops it; one does
 * the same but leaves by exit() without StopTrace (its file must be
 * finished at exit); one starts nothing and calls exit() (the parent's
 * logger must not be stopped or written by the child's exit). The parent's
 * file must hold exactly its own events.
 */
#define FORK_PRODUCERS 3
#define FORK_ROUNDS 5
#define FORK_BURST 16
#define BUSY_CAP 200000		/* events per producer, to bound the file */
#define CHILD_EVENTS 400
#define PARENT_NUMBER 21
#define CHILD_NUMBER 22

enum { CHILD_STOPS, CHILD_EXITS, CHILD_NO_LOGGER, CHILD_KINDS };

static const char *const kind_name[CHILD_KINDS] = {
	"started, traced and stopped its own logger",
	"started its own logger, traced, exit() without StopTrace",
	"started none and called exit()",
};

struct busy_producer {
	pthread_t th;
	TRACEHANDLE h;
	uint32_t origin;
	/* Read by the main thread while the producer runs (atomic). */
	unsigned int attempted, ok, nomem, invalid, other;
	int finished;
};

static int busy_done;

/* Trace in bursts until busy_done (or BUSY_CAP events). */
static void *busy_produce(void *arg)
{
	struct busy_producer *b = arg;
	struct timespec pause = { 0, 20000 };

	while (!__atomic_load_n(&busy_done, __ATOMIC_RELAXED) && b->attempted < BUSY_CAP) {
		unsigned int i;

		for (i = 0; i < FORK_BURST; i++) {
			ULONG err = trace_id(b->h, 0, PARENT_NUMBER, b->origin << 24 | b->attempted);

			count(&b->attempted);
			if (!err)
				count(&b->ok);
			else if (err == ERROR_NOT_ENOUGH_MEMORY)
				count(&b->nomem);
			else if (err == ERROR_INVALID_HANDLE)
				count(&b->invalid);	/* after the stop */
			else
				count(&b->other);
		}
		nanosleep(&pause, NULL);
	}
	__atomic_store_n(&b->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Wait until every producer has made @calls more calls than @since[] (or
 * has finished), then note where each is in @since[]. Not a time: the
 * producers' own progress.
 */
static void wait_busy_calls(struct busy_producer *prods, unsigned int *since,
			    unsigned int calls)
{
	unsigned int t;

	for (t = 0; t < FORK_PRODUCERS; t++) {
		while (__atomic_load_n(&prods[t].attempted, __ATOMIC_RELAXED) - since[t] < calls &&
		       !__atomic_load_n(&prods[t].finished, __ATOMIC_ACQUIRE))
			sched_yield();
		since[t] = __atomic_load_n(&prods[t].attempted, __ATOMIC_RELAXED);
	}
}

/* Wait until every producer has seen the stop (or has finished). */
static void wait_busy_stopped(struct busy_producer *prods)
{
	unsigned int t;

	for (t = 0; t < FORK_PRODUCERS; t++)
		while (!__atomic_load_n(&prods[t].invalid, __ATOMIC_RELAXED) &&
		       !__atomic_load_n(&prods[t].finished, __ATOMIC_ACQUIRE))
			sched_yield();
}

/* FORK_PRODUCERS threads tracing to @h until stop_busy(). */
static void start_busy(struct busy_producer *prods, TRACEHANDLE h)
{
	unsigned int t;

	__atomic_store_n(&busy_done, 0, __ATOMIC_RELAXED);
	memset(prods, 0, FORK_PRODUCERS * sizeof(*prods));
	for (t = 0; t < FORK_PRODUCERS; t++) {
		prods[t].h = h;
		prods[t].origin = t;
		pthread_create(&prods[t].th, NULL, busy_produce, &prods[t]);
	}
}

static void stop_busy(struct busy_producer *prods)
{
	unsigned int t;

	__atomic_store_n(&busy_done, 1, __ATOMIC_RELAXED);
	for (t = 0; t < FORK_PRODUCERS; t++)
		pthread_join(prods[t].th, NULL);
}

struct child_tracer {
	TRACEHANDLE h;
	uint32_t origin, n, ok;
};

static void *child_trace(void *arg)
{
	struct child_tracer *c = arg;
	uint32_t i;

	for (i = 0; i < c->n; i++)
		c->ok += trace_id(c->h, TRACE_MESSAGE_SYSTEMINFO, CHILD_NUMBER,
				  c->origin << 24 | i) == ERROR_SUCCESS;
	return NULL;
}

/* The forked child: its exit status says what went wrong. */
static int forked_child(TRACEHANDLE parent, int kind, const char *file)
{
	struct child_tracer main_part, thread_part;
	struct props st;
	TRACEHANDLE h;
	pthread_t t;

	if (TraceMessage(parent, 0, NULL, 1, NULL) != ERROR_INVALID_HANDLE)
		return 10;
	if (kind == CHILD_NO_LOGGER)
		exit(0);	/* the exit handlers run: the parent's logger is not ours */
	if (start(&h, file, BUF_KB, 8))
		return 11;
	if (h == parent || TraceMessage(parent, 0, NULL, 1, NULL) != ERROR_INVALID_HANDLE)
		return 12;
	main_part = (struct child_tracer){ h, 0, CHILD_EVENTS / 2, 0 };
	thread_part = (struct child_tracer){ h, 1, CHILD_EVENTS - CHILD_EVENTS / 2, 0 };
	if (pthread_create(&t, NULL, child_trace, &thread_part))
		return 13;
	child_trace(&main_part);
	pthread_join(t, NULL);
	if (main_part.ok + thread_part.ok != CHILD_EVENTS)
		return 14;
	if (kind == CHILD_EXITS)
		exit(0);
	if (stop(h, &st) || st.p.EventsLost)
		return 15;
	return 0;
}

/*
 * ---- queries and a stop while threads trace ----
 * The log file is a FIFO nobody reads at first: the buffers run out and
 * the producers' events are refused while QueryTrace reads the counts;
 * then the FIFO is read and the logger stopped with the producers still
 * tracing. Every event reported written is in the file and nothing else,
 * every refused one is in EventsLost, and after the stop the calls fail
 * with ERROR_INVALID_HANDLE.
 */
#define LOAD_QUERIES 200

TEST(stop_under_load)
{
	struct busy_producer prods[FORK_PRODUCERS];
	unsigned int t, q, ok = 0, nomem = 0, other = 0, count_bad = 0, backwards = 0;
	uint64_t last_lost = 0;
	struct nttrace_etl_info info;
	struct tally tl;
	struct props st;
	TRACEHANDLE h;
	int n;

	if (make_fifo())
		return;
	fifo_len = 0;
	if (!tap_eq(start(&h, fifo, BUF_KB, 4), ERROR_SUCCESS, "%d-bit: start (stop under load)",
		    BITS))
		return;
	start_busy(prods, h);
	/*
	 * At least LOAD_QUERIES queries, and on until an event was refused:
	 * nobody reads the FIFO, so the writer blocks and the producers use
	 * up the pool, however fast or slow either side runs.
	 */
	for (q = 0; q < LOAD_QUERIES || (!last_lost && !backwards); q++) {
		struct props qp;

		if (query(h, &qp) != ERROR_SUCCESS || qp.p.EventsLost < last_lost)
			backwards++;
		last_lost = qp.p.EventsLost;
		sched_yield();
	}
	tap_eq(backwards, 0, "%d-bit: %u queries while 3 threads trace: EventsLost never goes "
	       "back", BITS, q);
	start_reading();
	tap_eq(stop(h, &st), ERROR_SUCCESS, "%d-bit: stop while they trace", BITS);
	/* Each producer's next call sees the stop: ERROR_INVALID_HANDLE. */
	wait_busy_stopped(prods);
	stop_busy(prods);
	pthread_join(fifo_reader, NULL);
	close(fifo_fd);
	spew(path, fifo_data, fifo_len);
	free(fifo_data);
	unlink(fifo);
	n = tally_file(path, &tl, PARENT_NUMBER, 0, &info);
	for (t = 0; t < FORK_PRODUCERS; t++) {
		ok += prods[t].ok;
		nomem += prods[t].nomem;
		other += prods[t].other;
		count_bad += tl.count[t] != prods[t].ok;
	}
	printf("# %u traced, %u refused (no free buffer), %d read back, %u lost\n", ok, nomem,
	       n, (unsigned int)st.p.EventsLost);
	tap_ok(nomem > 0 && other == 0, "%d-bit: ... events refused, no error but "
	       "ERROR_NOT_ENOUGH_MEMORY and, after the stop, ERROR_INVALID_HANDLE", BITS);
	tap_ok(n >= 0 && (unsigned int)n == ok && !count_bad && !tl.bad && !tl.dups &&
	       !etl_problems, "%d-bit: ... the file holds exactly the %u events written", BITS,
	       ok);
	tap_eq(st.p.EventsLost, nomem, "%d-bit: ... and EventsLost = the refused events", BITS);
	unlink(path);
}

TEST(fork_busy)
{
	struct busy_producer prods[FORK_PRODUCERS];
	unsigned int failed[CHILD_KINDS] = { 0 }, files_bad[CHILD_KINDS] = { 0 };
	unsigned int round, kind, t, attempted = 0, ok = 0, nomem = 0, other = 0;
	unsigned int count_bad = 0, since[FORK_PRODUCERS] = { 0 };
	struct nttrace_etl_info info;
	struct tally tl;
	struct props st;
	TRACEHANDLE h;
	int n;

	if (!tap_eq(start(&h, path, BUF_KB, 16), ERROR_SUCCESS, "%d-bit: start (fork under load)",
		    BITS))
		return;
	start_busy(prods, h);
	for (round = 0; round < FORK_ROUNDS; round++) {
		for (kind = 0; kind < CHILD_KINDS; kind++) {
			char file[64];
			int status;
			pid_t pid;

			/*
			 * The producers are going (slots locked, buffers half
			 * full): each has made a burst of calls since the last
			 * fork.
			 */
			wait_busy_calls(prods, since, FORK_BURST);
			fflush(stdout);
			pid = fork();
			if (pid == 0) {
				snprintf(file, sizeof(file), "/tmp/um-child-%d.bin", getpid());
				_exit(forked_child(h, kind, file));
			}
			snprintf(file, sizeof(file), "/tmp/um-child-%d.bin", pid);
			status = wait_child(pid, 60);
			if (status != 0) {
				failed[kind]++;
				printf("# round %u, child that %s: %s\n", round, kind_name[kind],
				       child_status(status));
			} else if (kind != CHILD_NO_LOGGER) {
				/* Its own events, its own process ID, the file finished. */
				n = tally_file(file, &tl, CHILD_NUMBER, pid, &info);
				if (n != CHILD_EVENTS || tl.bad || tl.dups || etl_problems ||
				    tl.count[0] != CHILD_EVENTS / 2 || !finished(&info) ||
				    info.events_lost) {
					files_bad[kind]++;
					printf("# round %u, child that %s: %d events (%u bad, "
					       "%u dups), end time %llu, %u of %llu buffers\n",
					       round, kind_name[kind], n, tl.bad, tl.dups,
					       (unsigned long long)info.end_time,
					       info.buffers_written,
					       (unsigned long long)info.file_buffers);
				}
			}
			unlink(file);
		}
	}
	stop_busy(prods);
	for (kind = 0; kind < CHILD_KINDS; kind++) {
		tap_eq(failed[kind], 0, "%d-bit: fork while 3 threads trace: %u children %s, "
		       "none hung or failed", BITS, FORK_ROUNDS, kind_name[kind]);
		if (kind != CHILD_NO_LOGGER)
			tap_eq(files_bad[kind], 0, "%d-bit: ... each file holds the child's %u "
			       "events, finished", BITS, CHILD_EVENTS);
	}
	tap_eq(stop(h, &st), ERROR_SUCCESS, "%d-bit: the parent's logger stops", BITS);
	n = tally_file(path, &tl, PARENT_NUMBER, 0, &info);
	for (t = 0; t < FORK_PRODUCERS; t++) {
		attempted += prods[t].attempted;
		ok += prods[t].ok;
		nomem += prods[t].nomem;
		other += prods[t].other + prods[t].invalid;
		count_bad += tl.count[t] != prods[t].ok;
	}
	printf("# parent: %u traced, %u refused (no free buffer), %u read back\n", ok, nomem,
	       n);
	tap_ok(other == 0 && n >= 0 && !tl.bad && !tl.dups && !etl_problems && !count_bad &&
	       (unsigned int)n == ok && finished(&info),
	       "%d-bit: the parent's file holds exactly its own %u events, finished", BITS, ok);
	tap_eq(st.p.EventsLost, nomem, "%d-bit: ... and EventsLost = the refused events", BITS);
	unlink(path);
}

/*
 * ---- a signal handler that traces, interrupting TraceMessage ----
 * A child traces in a loop while a 100 us interval timer's SIGALRM handler
 * traces too, on the same thread: some of the handler's calls land inside
 * the loop's call. Those must fail at once (ERROR_BUSY), be counted in
 * EventsLost, and never hang; the rest are written. A child hanging is
 * killed by the parent's deadline.
 */
#define NEST_OUTER 11
#define NEST_INNER 12
#define NEST_WANT_BUSY 200
#define NEST_MAX_EVENTS 300000

struct nest_result {
	unsigned int attempted, ok, nomem, other;		/* the loop's calls */
	unsigned int sig_attempted, sig_ok, sig_busy, sig_nomem, sig_other;
	unsigned int start_err, stop_err, lost, done;
};

static struct nest_result *nest;
static TRACEHANDLE nest_handle;

static void nest_on_alarm(int sig)
{
	int saved = errno;
	ULONG err = trace_id(nest_handle, 0, NEST_INNER, 1u << 24 | nest->sig_attempted++);

	if (!err)
		nest->sig_ok++;
	else if (err == ERROR_BUSY)
		nest->sig_busy++;
	else if (err == ERROR_NOT_ENOUGH_MEMORY)
		nest->sig_nomem++;
	else
		nest->sig_other++;
	errno = saved;
}

static void nest_child(void)
{
	struct itimerval fast = { { 0, 100 }, { 0, 100 } }, off;
	uint64_t deadline = mono_ns() + 5000000000ull;
	struct sigaction sa;
	struct props st;

	nest->start_err = start(&nest_handle, path, BUF_KB, 16);
	if (nest->start_err)
		_exit(1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = nest_on_alarm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &fast, NULL);
	while (nest->sig_busy < NEST_WANT_BUSY && nest->attempted < NEST_MAX_EVENTS &&
	       mono_ns() < deadline) {
		ULONG err = trace_id(nest_handle, 0, NEST_OUTER, nest->attempted++);

		if (!err)
			nest->ok++;
		else if (err == ERROR_NOT_ENOUGH_MEMORY)
			nest->nomem++;
		else
			nest->other++;
	}
	memset(&off, 0, sizeof(off));
	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_IGN);
	nest->stop_err = stop(nest_handle, &st);
	nest->lost = st.p.EventsLost;
	nest->done = 1;
	_exit(0);
}

/*
 * The same nesting, made certain: TraceMessage's data is a page of a file
 * cut short under its mapping, which the library's map shows readable, so
 * the copy faults (SIGBUS) inside TraceMessage with the slot's lock held.
 * The handler's TraceMessage must fail at once with ERROR_BUSY; it ends
 * the child from the handler (the outer call cannot go on).
 */
static volatile ULONG *fault_inner;

static void nest_on_sigbus(int sig)
{
	*fault_inner = trace_id(nest_handle, 0, NEST_INNER, 1u << 24);
	_exit(0);
}

static void nest_fault_child(void)
{
	struct nttrace_safe_copy_stats st;
	char file[64];
	struct sigaction sa;
	unsigned long kernel;
	uint8_t out[8];
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *p;
	int fd;

	snprintf(file, sizeof(file), "/tmp/um-sigbus-%d", getpid());
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	unlink(file);
	if (fd < 0 || ftruncate(fd, pg))
		_exit(1);
	p = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		_exit(1);
	/*
	 * Until the library's map has the page: a copy from it that the
	 * kernel did not make. A miss reads the map again once its rate
	 * limit allows: wait that long, as the library says.
	 */
	do {
		struct timespec wait;

		nttrace_safe_copy_stats(&st);
		wait.tv_sec = st.reread_wait_ns / 1000000000;
		wait.tv_nsec = st.reread_wait_ns % 1000000000;
		nanosleep(&wait, NULL);
		nttrace_safe_copy_stats(&st);
		kernel = st.kernel_copies;
		if (nttrace_safe_copy(out, p, sizeof(out)))
			_exit(1);
		nttrace_safe_copy_stats(&st);
	} while (st.kernel_copies != kernel);
	if (ftruncate(fd, 0))
		_exit(1);
	snprintf(file, sizeof(file), "/tmp/um-sigbus-%d.bin", getpid());
	if (start(&nest_handle, file, BUF_KB, 16))
		_exit(1);
	unlink(file);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = nest_on_sigbus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	TraceMessage(nest_handle, TRACE_MESSAGE_SEQUENCE, NULL, NEST_OUTER, p, (size_t)64, NULL);
	_exit(2);	/* no fault */
}

TEST(nested_fault)
{
	int status;
	pid_t pid;

	fault_inner = shared_alloc(sizeof(*fault_inner));
	if (!tap_ok(fault_inner != NULL, "%d-bit: shared memory for the fault test", BITS))
		return;
	*fault_inner = ~0U;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		nest_fault_child();
	status = wait_child(pid, 60);
	tap_ok(status == 0 && *fault_inner == ERROR_BUSY,
	       "%d-bit: TraceMessage from a SIGBUS handler, the fault inside TraceMessage: "
	       "ERROR_BUSY at once (%s, %u)", BITS, child_status(status), (unsigned int)*fault_inner);
	munmap((void *)fault_inner, sizeof(*fault_inner));
}

TEST(nested)
{
	unsigned int attempted, read, problems_seen;
	struct nttrace_etl_info info;
	struct tally tl, inner;
	int status, n;
	pid_t pid;

	nest = shared_alloc(sizeof(*nest));
	if (!tap_ok(nest != NULL, "%d-bit: shared memory for the signal test", BITS))
		return;
	memset(nest, 0, sizeof(*nest));
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		nest_child();
	status = wait_child(pid, 60);
	tap_ok(status == 0 && nest->done && !nest->start_err && !nest->stop_err,
	       "%d-bit: TraceMessage from a signal handler that interrupted TraceMessage: "
	       "no hang (%s)", BITS, child_status(status));
	printf("# loop: %u traced, %u refused; handler: %u traced, %u busy, %u refused, "
	       "%u other\n", nest->ok, nest->nomem, nest->sig_ok, nest->sig_busy,
	       nest->sig_nomem, nest->sig_other);
	/*
	 * How many of the handler's calls land inside the loop's is the
	 * timer's luck: test_nested_fault() makes one certain. Here every
	 * outcome must be accounted for.
	 */
	printf("# %u of the handler's %u calls were nested (ERROR_BUSY)\n", nest->sig_busy,
	       nest->sig_attempted);
	tap_eq(nest->other + nest->sig_other, 0,
	       "%d-bit: ... no other error (the loop's calls never ERROR_BUSY)", BITS);
	/* Each number read on its own: the other's events count as bad. */
	n = tally_file(path, &tl, NEST_OUTER, 0, &info);
	problems_seen = etl_problems;
	tally_file(path, &inner, NEST_INNER, 0, &info);
	read = tl.count[0] + inner.count[1];
	tap_ok(n >= 0 && tl.count[0] == nest->ok && inner.count[1] == nest->sig_ok &&
	       tl.bad + inner.bad == (unsigned int)n && !tl.dups && !inner.dups &&
	       !problems_seen && !etl_problems,
	       "%d-bit: ... every call that succeeded is in the file (%u + %u)", BITS,
	       tl.count[0], inner.count[1]);
	tap_eq(nest->lost, nest->sig_busy + nest->sig_nomem + nest->nomem,
	       "%d-bit: ... EventsLost = the nested calls refused + those with no buffer", BITS);
	attempted = nest->attempted + nest->sig_attempted;
	tap_eq(read + nest->lost, attempted,
	       "%d-bit: ... events read back + EventsLost = events attempted (%u)", BITS,
	       attempted);
	munmap(nest, sizeof(*nest));
	unlink(path);
}

/*
 * ---- exit without StopTrace ----
 * The process's buffered events reach the file and its header is finished,
 * as NTDLL does for a private logger when the process ends: once from
 * main's thread alone, once from a thread while three others trace (each
 * call in flight at the exit may or may not be in the file).
 */
#define EXIT_EVENTS 100
#define EXIT_THREADS 4
#define EXIT_AFTER 2000
#define EXIT_NUMBER 31

struct exit_counts {
	unsigned int attempted, ok, nomem, other;
} __attribute__((aligned(64)));

static struct exit_counts *exit_counts;
static TRACEHANDLE exit_handle;

static void *exit_produce(void *arg)
{
	uint32_t origin = (uintptr_t)arg;
	struct exit_counts *c = &exit_counts[origin];

	for (;;) {
		ULONG err;

		__atomic_store_n(&c->attempted, c->attempted + 1, __ATOMIC_RELAXED);
		err = trace_id(exit_handle, 0, EXIT_NUMBER, origin << 24 | (c->attempted - 1));
		if (!err)
			__atomic_store_n(&c->ok, c->ok + 1, __ATOMIC_RELAXED);
		else if (err == ERROR_NOT_ENOUGH_MEMORY)
			__atomic_store_n(&c->nomem, c->nomem + 1, __ATOMIC_RELAXED);
		else
			__atomic_store_n(&c->other, c->other + 1, __ATOMIC_RELAXED);
		/* The first thread ends the process while the others trace. */
		if (origin == 0 && c->ok == EXIT_AFTER)
			exit(0);
	}
	return NULL;
}

static void exit_child(int threads)
{
	pthread_t t;
	unsigned int i;

	if (start(&exit_handle, path, BUF_KB, 16))
		_exit(1);
	if (!threads) {
		for (i = 0; i < EXIT_EVENTS; i++)
			if (trace_id(exit_handle, 0, EXIT_NUMBER, i))
				_exit(2);
		exit(0);
	}
	for (i = 1; i < EXIT_THREADS; i++)
		if (pthread_create(&t, NULL, exit_produce, (void *)(uintptr_t)i))
			_exit(3);
	exit_produce((void *)0);
}

TEST(exit)
{
	unsigned int i, ok = 0, nomem = 0, attempted = 0, in_range = 1, other = 0;
	struct nttrace_etl_info info;
	struct tally tl;
	int status, n;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		exit_child(0);
	status = wait_child(pid, 60);
	tap_ok(status == 0, "%d-bit: a child traces %u events and calls exit() without "
	       "StopTrace (%s)", BITS, EXIT_EVENTS, child_status(status));
	n = tally_file(path, &tl, EXIT_NUMBER, 0, &info);
	tap_ok(n == EXIT_EVENTS && tl.count[0] == EXIT_EVENTS && !tl.bad && !tl.dups &&
	       !etl_problems, "%d-bit: ... all %u events are in its file (%d)", BITS,
	       EXIT_EVENTS, n);
	tap_ok(finished(&info) && !info.events_lost,
	       "%d-bit: ... and the header is finished: EndTime %llu, BuffersWritten %u "
	       "of %llu", BITS, (unsigned long long)info.end_time, info.buffers_written,
	       (unsigned long long)info.file_buffers);
	unlink(path);

	exit_counts = shared_alloc(EXIT_THREADS * sizeof(*exit_counts));
	if (!tap_ok(exit_counts != NULL, "%d-bit: shared memory for the exit test", BITS))
		return;
	memset(exit_counts, 0, EXIT_THREADS * sizeof(*exit_counts));
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		exit_child(1);
	status = wait_child(pid, 60);
	tap_ok(status == 0, "%d-bit: exit() from a thread while %u others trace: no hang (%s)",
	       BITS, EXIT_THREADS - 1, child_status(status));
	n = tally_file(path, &tl, EXIT_NUMBER, 0, &info);
	for (i = 0; i < EXIT_THREADS; i++) {
		struct exit_counts *c = &exit_counts[i];

		/* A call in flight when the process ended may be in the file. */
		in_range &= tl.count[i] >= c->ok && tl.count[i] <= c->ok + 1;
		ok += c->ok;
		nomem += c->nomem;
		attempted += c->attempted;
		other += c->other;
	}
	printf("# %u attempted, %u traced, %u refused, %u after the stop; %d read back, "
	       "%u lost\n", attempted, ok, nomem, other, n, info.events_lost);
	tap_ok(n >= 0 && in_range && !tl.bad && !tl.dups && !etl_problems,
	       "%d-bit: ... every event traced before the exit is in the file", BITS);
	tap_ok(finished(&info) && info.events_lost >= nomem &&
	       (unsigned int)n + info.events_lost <= attempted,
	       "%d-bit: ... the header is finished, its EventsLost counts the refused", BITS);
	munmap(exit_counts, EXIT_THREADS * sizeof(*exit_counts));
	unlink(path);
}

int main(int argc, char **argv)
{
	int ret;

	snprintf(path, sizeof(path), "/tmp/um-test-%d.bin", getpid());
	memset(big, 0x42, sizeof(big));
	ret = harness_run(argc, argv);
	unlink(path);
	return ret;
}
