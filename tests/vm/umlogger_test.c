// SPDX-License-Identifier: GPL-2.0
/*
 * The in-process user-mode logger (StartTrace with
 * EVENT_TRACE_PRIVATE_LOGGER_MODE): its handle, its errors, its records
 * byte for byte against the test's own encoder (expect.h) as read back from
 * the log file, no system call on the event path (counted with ptrace),
 * threads, FlushTrace, and loss that is
 * always counted. Needs no /dev/nttrace: runs in the VM and on the host,
 * 64-bit and 32-bit.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/ptrace.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/evntrace.h>
#include "expect.h"
#include "files.h"
#include "tap.h"

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
struct props {
	EVENT_TRACE_PROPERTIES p;
	char logger_name[64];
	char log_file[128];
};

static void props_init(struct props *pr, const char *log_file, uint32_t kb,
		       uint32_t nbuf)
{
	memset(pr, 0, sizeof(*pr));
	pr->p.Wnode.BufferSize = sizeof(*pr);
	pr->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	pr->p.LogFileMode = EVENT_TRACE_PRIVATE_LOGGER_MODE;
	pr->p.BufferSize = kb;
	pr->p.MaximumBuffers = nbuf;
	pr->p.LoggerNameOffset = offsetof(struct props, logger_name);
	if (log_file) {
		pr->p.LogFileNameOffset = offsetof(struct props, log_file);
		strcpy(pr->log_file, log_file);
	}
}

static ULONG start(TRACEHANDLE *h, const char *log_file, uint32_t kb, uint32_t nbuf)
{
	struct props pr;

	props_init(&pr, log_file, kb, nbuf);
	return StartTraceA(h, "um-test", &pr.p);
}

static ULONG stop(TRACEHANDLE h, struct props *out)
{
	struct props pr;

	props_init(&pr, NULL, 0, 0);
	pr.p.LogFileMode = 0;
	if (!out)
		out = &pr;
	else
		*out = pr;
	return StopTraceA(h, NULL, &out->p);
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

static void test_control(void)
{
	TRACEHANDLE h = 0, h2 = 0;
	struct props pr, q;
	char bad[64];

	props_init(&pr, NULL, BUF_KB, 8);
	tap_eq(StartTraceA(&h, "um-test", &pr.p), ERROR_INVALID_PARAMETER,
	       "%d-bit: private logger without a log file -> ERROR_INVALID_PARAMETER", BITS);
	props_init(&pr, path, BUF_KB, 8);
	pr.p.Wnode.BufferSize = sizeof(EVENT_TRACE_PROPERTIES) - 1;
	tap_eq(StartTraceA(&h, "um-test", &pr.p), ERROR_BAD_LENGTH,
	       "%d-bit: Wnode.BufferSize too small -> ERROR_BAD_LENGTH", BITS);
	props_init(&pr, path, BUF_KB, 8);
	tap_eq(StartTraceA(NULL, "um-test", &pr.p), ERROR_INVALID_PARAMETER,
	       "%d-bit: NULL SessionHandle -> ERROR_INVALID_PARAMETER", BITS);
	snprintf(bad, sizeof(bad), "/nonexistent-%d/x.etl", getpid());
	props_init(&pr, bad, BUF_KB, 8);
	tap_eq(StartTraceA(&h, "um-test", &pr.p), ERROR_PATH_NOT_FOUND,
	       "%d-bit: log file in a missing directory -> ERROR_PATH_NOT_FOUND", BITS);
	tap_eq(GetLastError(), ERROR_PATH_NOT_FOUND, "%d-bit: ... also the last error", BITS);

	props_init(&pr, path, BUF_KB, 8);
	tap_eq(StartTraceA(&h, "um-test", &pr.p), ERROR_SUCCESS, "%d-bit: start", BITS);
	tap_ok(h & TRACE_USER_MODE_LOGGER_BIT, "%d-bit: the handle has 0x01000000", BITS);
	tap_ok(!strcmp(pr.logger_name, "um-test"), "%d-bit: LoggerName copied out", BITS);
	tap_eq(pr.p.Wnode.HistoricalContext, h, "%d-bit: Wnode.HistoricalContext = handle", BITS);
	props_init(&q, path, BUF_KB, 8);
	tap_eq(StartTraceA(&h2, "um-other", &q.p), ERROR_ALREADY_EXISTS,
	       "%d-bit: a second user-mode logger -> ERROR_ALREADY_EXISTS", BITS);

	props_init(&q, NULL, 0, 0);
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

static void test_encoding(void)
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
			props_init(&st, NULL, 0, 0);
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

static void test_no_syscall(void)
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

#define NTHREADS 4
#define PER_THREAD 3000

struct producer {
	pthread_t th;
	TRACEHANDLE h;
	unsigned int index, ok, nomem, other;
	uint32_t tid;
	uint8_t done[PER_THREAD];
};

static struct producer prod[NTHREADS];
static uint8_t seen[NTHREADS][PER_THREAD];
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

	if (size != 20 + 64 || t >= NTHREADS || i >= PER_THREAD || !seq ||
	    seq > NTHREADS * PER_THREAD || tid != prod[t].tid ||
	    get_le(rec + 16, 4) != (uint32_t)getpid()) {
		bad++;
		return;
	}
	if (seen[t][i]++ || seq_seen[seq]++)
		dups++;
}

/* Start, run the producers, stop; returns EventsLost. */
static uint32_t run_producers(const char *log_file, uint32_t nbuf, int (*during_stop)(void))
{
	struct props st;
	TRACEHANDLE h;
	unsigned int t;

	memset(prod, 0, sizeof(prod));
	memset(seen, 0, sizeof(seen));
	bad = dups = 0;
	if (!tap_eq(start(&h, log_file, BUF_KB, nbuf), ERROR_SUCCESS, "%d-bit: start", BITS))
		return 0;
	for (t = 0; t < NTHREADS; t++) {
		prod[t].h = h;
		prod[t].index = t;
		pthread_create(&prod[t].th, NULL, produce, &prod[t]);
	}
	for (t = 0; t < NTHREADS; t++)
		pthread_join(prod[t].th, NULL);
	if (during_stop)
		during_stop();
	tap_eq(stop(h, &st), ERROR_SUCCESS, "%d-bit: stop", BITS);
	return st.p.EventsLost;
}

/* Every event that succeeded was read, every other was counted lost. */
static void check_threads(const char *what, const uint8_t *file, size_t len, uint32_t lost)
{
	unsigned int t, i, ok = 0, nomem = 0, other = 0, unmarked = 0, read = 0;

	seq_seen = calloc(NTHREADS * PER_THREAD + 1, 1);
	tap_ok(walk_file(file, len, thread_record, NULL) >= 0,
	       "%d-bit: %s: whole buffers", BITS, what);
	for (t = 0; t < NTHREADS; t++) {
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

static void test_threads(void)
{
	uint8_t *file;
	size_t len;
	uint32_t lost = run_producers(path, 16, NULL);

	file = slurp(path, &len);
	check_threads("4 threads", file, len, lost);
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

static int start_reading(void)
{
	return pthread_create(&fifo_reader, NULL, read_fifo, NULL);
}

static void test_loss(void)
{
	uint32_t lost;

	snprintf(fifo, sizeof(fifo), "/tmp/um-fifo-%d", getpid());
	unlink(fifo);
	if (!tap_ok(mkfifo(fifo, 0600) == 0, "%d-bit: mkfifo", BITS))
		return;
	fifo_fd = open(fifo, O_RDONLY | O_NONBLOCK);
	lost = run_producers(fifo, 4, start_reading);
	pthread_join(fifo_reader, NULL);
	close(fifo_fd);
	unlink(fifo);
	tap_ok(lost > 0, "%d-bit: a log file that does not keep up: events lost (%u)",
	       BITS, lost);
	check_threads("writer blocked", fifo_data, fifo_len, lost);
	free(fifo_data);
}

/* ---- fork ---- */

static void test_fork(void)
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

static void test_thread_churn(void)
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
static void test_restart_after_fault(void)
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

int main(void)
{
	snprintf(path, sizeof(path), "/tmp/um-test-%d.bin", getpid());
	memset(big, 0x42, sizeof(big));
	test_control();
	test_encoding();
	test_no_syscall();
	test_threads();
	test_thread_churn();
	test_restart_after_fault();
	test_loss();
	test_fork();
	unlink(path);
	return tap_done();
}
