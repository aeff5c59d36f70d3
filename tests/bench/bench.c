// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace_bench: the cost of one 64-byte event through nttrace and through
 * what a Linux user would use instead, measured side by side in one run
 * (scripts/bench runs it in the bench kernel's VM and on the host, and
 * tests/bench/report.awk makes the table). Times under QEMU TCG mean
 * little on their own: compare the paths with each other.
 *
 *   nttrace_bench vm      in the guest: paths 1-5 below, 1 and 2 threads
 *   nttrace_bench host    on the host: path 5 and LTTng-UST (when built
 *                         with -DNTTRACE_BENCH_LTTNG)
 *
 * Paths (64 bytes of message data each):
 *   tm_kernel     TraceMessage to a kernel session, SEQUENCE | TIMESTAMP |
 *                 SYSTEMINFO, `nttrace record` draining it
 *   tm_kernel_noseq  the same without SEQUENCE (the logger-wide counter)
 *   user_events   a registered, enabled user_event written with writev
 *   trace_marker  a write to tracefs' trace_marker, tracing on
 *   ioctl_noop    NTTRACE_IOC_VERSION on /dev/nttrace: an ioctl that copies
 *                 a size-first struct in and out and traces nothing
 *   getppid       the cheapest system call
 *   tm_umlogger   TraceMessage to the in-process user-mode logger, its
 *                 default buffers (tm_umlogger_256buf: 256 of them)
 *   lttng_ust     an LTTng-UST tracepoint, a session recording it
 *   ew_kernel     EventWrite (one 64-byte data descriptor) of a provider a
 *                 kernel session enables, the recorder draining it
 *   ew_umlogger   EventWrite of a provider the user-mode logger enables
 *   ew_disabled   EventWrite of a registered provider no session enables
 *   ee_disabled   EventEnabled for it
 *   ue_disabled   the check of a registered user_event that is not
 *                 enabled (its enable word, a load and a branch)
 *   lttng_disabled  an LTTng-UST tracepoint no session enables
 *
 * Real-time delivery (issue 16), in the VM: events handed live to a
 * reader in the same process, measured end to end, from the first write
 * to the last event in the reader's hands ("Real-time delivery" below):
 *   rt_consumer   TraceMessage (as tm_kernel) to a kernel session in
 *                 EVENT_TRACE_REAL_TIME_MODE without a file, OpenTraceA and
 *                 ProcessTrace on a thread counting in EventRecordCallback
 *   rt_trace_pipe a write to trace_marker, a thread reading trace_pipe
 *   rt_ue_pipe    a user_events writev, a thread reading trace_pipe
 * `perf trace` would be the third Linux peer; the VM image (a busybox
 * initramfs, scripts/vm-run) has no perf, which the run says.
 *
 * The environment: BENCH_REPS repeats (11), BENCH_SCALE percent of the
 * event counts (100), BENCH_ONLY a name prefix: only those paths (for a
 * quick look at some; `make bench` runs all).
 *
 * Output, one a line: "R PATH THREADS REP NS_PER_EVENT" for each repeat
 * (with 2 threads: wall time over all events, so throughput; for the rt_
 * paths, per event delivered), "D PATH THREADS REP WRITTEN DELIVERED LOST"
 * for each repeat of an rt_ path, "I PATH KEY VALUE" for facts (events
 * lost), "# ..." for comments.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nttrace.h>
#include <nttrace/evntcons.h>
#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/session.h>

#ifdef NTTRACE_BENCH_LTTNG
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "lttng_tp.h"
#endif

#define PAYLOAD 64
#define TRACING "/sys/kernel/tracing"

static unsigned int reps = 11;
static long n_syscall = 200000, n_user = 2000000;
static uint8_t payload[PAYLOAD];

/* ---- timing ---- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* One path: @fn(ctx, n) makes n events and returns how many failed. */
typedef long (*path_fn)(void *ctx, long n);

struct worker {
	path_fn fn;
	void *ctx;
	long n, failed;
	int cpu;
	pthread_barrier_t *go;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_barrier_wait(w->go);
	w->failed = w->fn(w->ctx, w->n);
	return NULL;
}

/* @threads workers, each running @fn(@ctx, @n) on a CPU of its own. */
struct crew {
	struct worker w[2];
	pthread_t t[2];
	pthread_barrier_t go;
	int threads;
};

/* Starts them all at once; the time they start. */
static uint64_t crew_start(struct crew *cr, path_fn fn, void *ctx, long n, int threads)
{
	int i;

	cr->threads = threads;
	pthread_barrier_init(&cr->go, NULL, threads + 1);
	for (i = 0; i < threads; i++) {
		cr->w[i] = (struct worker){ fn, ctx, n, 0, i, &cr->go };
		pthread_create(&cr->t[i], NULL, work, &cr->w[i]);
	}
	pthread_barrier_wait(&cr->go);
	return now_ns();
}

/* Waits for them; how many of their events failed. */
static long crew_join(struct crew *cr)
{
	long failed = 0;
	int i;

	for (i = 0; i < cr->threads; i++) {
		pthread_join(cr->t[i], NULL);
		failed += cr->w[i].failed;
	}
	pthread_barrier_destroy(&cr->go);
	return failed;
}

/*
 * The cases are run interleaved: repeat r of every case, then repeat r+1,
 * so that whatever the emulator's host does meanwhile falls on all paths
 * alike, and the ratios of medians compare like with like.
 */
struct bench_case {
	const char *name;
	path_fn fn;
	void *ctx;
	long n;
	int threads;
	long failed;
	/* Instead of run_once (the rt_ paths): ns per event, < 0 if none. */
	double (*once)(struct bench_case *c, unsigned int rep);
};

#define MAX_CASES 32
static struct bench_case cases[MAX_CASES];
static int ncases;

/* BENCH_ONLY=PREFIX: only the paths whose names start with it. */
static const char *only;

static int wanted(const char *name)
{
	return ncases < MAX_CASES && (!only || !strncmp(name, only, strlen(only)));
}

static void add_case(const char *name, path_fn fn, void *ctx, long n, int threads)
{
	if (wanted(name))
		cases[ncases++] = (struct bench_case){ name, fn, ctx, n, threads, 0, NULL };
}

/* One run of @c: @n events on each of @threads CPUs; ns per event. */
static double run_once(struct bench_case *c)
{
	struct crew cr;
	uint64_t t0 = crew_start(&cr, c->fn, c->ctx, c->n, c->threads);

	c->failed += crew_join(&cr);
	return (double)(now_ns() - t0) / ((double)c->n * c->threads);
}

static void run_cases(void)
{
	unsigned int r;
	double ns;
	int k;

	/* Warm up: caches, first-time paths (the rt_ paths' setup is per run). */
	for (k = 0; k < ncases; k++)
		if (!cases[k].once)
			cases[k].fn(cases[k].ctx, cases[k].n / 10 + 1);
	for (r = 0; r < reps; r++) {
		for (k = 0; k < ncases; k++) {
			ns = cases[k].once ? cases[k].once(&cases[k], r) : run_once(&cases[k]);
			if (ns >= 0)
				printf("R %s %d %u %.1f\n", cases[k].name, cases[k].threads, r,
				       ns);
			fflush(stdout);
		}
	}
	for (k = 0; k < ncases; k++)
		if (cases[k].failed)
			printf("I %s failed_%dt %ld\n", cases[k].name, cases[k].threads,
			       cases[k].failed);
	ncases = 0;
}

/* ---- the paths ---- */

struct tm_ctx {
	TRACEHANDLE h;
	ULONG flags;
};

static long path_trace_message(void *arg, long n)
{
	struct tm_ctx *c = arg;
	long i, failed = 0;

	for (i = 0; i < n; i++)
		failed += TraceMessage(c->h, c->flags, NULL, 1, payload, (size_t)PAYLOAD,
				       NULL) != ERROR_SUCCESS;
	return failed;
}

static long path_getppid(void *arg, long n)
{
	long i;

	for (i = 0; i < n; i++)
		getppid();
	return 0;
}

static long path_ioctl(void *arg, long n)
{
	int fd = *(int *)arg;
	long i, failed = 0;

	for (i = 0; i < n; i++) {
		struct nttrace_version v = { .size = sizeof(v) };

		failed += ioctl(fd, NTTRACE_IOC_VERSION, &v) != 0;
	}
	return failed;
}

static long path_write(void *arg, long n)
{
	int fd = *(int *)arg;
	long i, failed = 0;

	for (i = 0; i < n; i++)
		failed += write(fd, payload, PAYLOAD) != PAYLOAD;
	return failed;
}

/* user_events (include/uapi/linux/user_events.h, 6.4 and later). */
struct ue_reg {
	uint32_t size;
	uint8_t enable_bit, enable_size;
	uint16_t flags;
	uint64_t enable_addr, name_args;
	uint32_t write_index;
} __attribute__((packed));
#define UE_IOCSREG _IOWR('*', 0, struct ue_reg *)

struct ue_ctx {
	int fd;
	uint32_t index;
	uint32_t enabled;	/* bit 0 set by the kernel when enabled */
};

static long path_user_events(void *arg, long n)
{
	struct ue_ctx *c = arg;
	struct iovec iov[2] = {
		{ &c->index, sizeof(c->index) }, { payload, PAYLOAD },
	};
	long i, failed = 0;

	for (i = 0; i < n; i++)
		if (__atomic_load_n(&c->enabled, __ATOMIC_RELAXED) & 1)
			failed += writev(c->fd, iov, 2) != sizeof(c->index) + PAYLOAD;
		else
			failed++;
	return failed;
}

/*
 * Paths that make no system call when nothing is enabled: many more
 * events, so that a nanosecond shows.
 */
static long n_fast = 20000000;

/* An EventWrite provider: its registration, an event, its 64 bytes. */
struct ew_ctx {
	REGHANDLE h;
	EVENT_DESCRIPTOR d;
	EVENT_DATA_DESCRIPTOR data;
};

static long path_event_write(void *arg, long n)
{
	struct ew_ctx *c = arg;
	long i, failed = 0;

	for (i = 0; i < n; i++)
		failed += EventWrite(c->h, &c->d, 1, &c->data) != ERROR_SUCCESS;
	return failed;
}

/* Counts as failed every time the answer is "enabled": it must not be. */
static long path_event_enabled(void *arg, long n)
{
	struct ew_ctx *c = arg;
	long i, on = 0;

	for (i = 0; i < n; i++)
		on += EventEnabled(c->h, &c->d);
	return on;
}

static long path_ue_check(void *arg, long n)
{
	struct ue_ctx *c = arg;
	long i, on = 0;

	for (i = 0; i < n; i++)
		if (__atomic_load_n(&c->enabled, __ATOMIC_RELAXED) & 1)
			on++;
	return on;
}

/* ---- setting up ---- */

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	int ok = fd >= 0 && write(fd, s, strlen(s)) == (ssize_t)strlen(s);

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

struct props {
	EVENT_TRACE_PROPERTIES p;
	char logger_name[64];
	char log_file[64];
};

static void props_init(struct props *pr, const char *log_file, ULONG mode)
{
	memset(pr, 0, sizeof(*pr));
	pr->p.Wnode.BufferSize = sizeof(*pr);
	pr->p.LogFileMode = mode;
	pr->p.LoggerNameOffset = offsetof(struct props, logger_name);
	if (log_file) {
		pr->p.LogFileNameOffset = offsetof(struct props, log_file);
		snprintf(pr->log_file, sizeof(pr->log_file), "%s", log_file);
	}
}

/* Paths 1: a kernel session with default buffers, `nttrace record` on it. */
static struct tm_ctx kernel_seq, kernel_noseq;
static pid_t recorder;

static void setup_kernel_session(const char *tool)
{
	struct props pr;

	props_init(&pr, NULL, 0);
	if (StartTraceA(&kernel_seq.h, "bench", &pr.p) != ERROR_SUCCESS) {
		printf("# kernel session: StartTrace failed: %u\n", (unsigned)GetLastError());
		return;
	}
	printf("# kernel session: %u KB buffers, %u of them\n", (unsigned)pr.p.BufferSize,
	       (unsigned)pr.p.NumberOfBuffers);
	recorder = fork();
	if (recorder == 0) {
		execl(tool, tool, "record", "bench", "-o", "/dev/null", "--quiet", (char *)NULL);
		_exit(127);
	}
	usleep(300000);		/* the recorder attaches */
	kernel_seq.flags = TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_TIMESTAMP |
			   TRACE_MESSAGE_SYSTEMINFO;
	kernel_noseq.h = kernel_seq.h;
	kernel_noseq.flags = TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_SYSTEMINFO;
	add_case("tm_kernel", path_trace_message, &kernel_seq, n_syscall, 1);
	add_case("tm_kernel", path_trace_message, &kernel_seq, n_syscall, 2);
	add_case("tm_kernel_noseq", path_trace_message, &kernel_noseq, n_syscall, 1);
	add_case("tm_kernel_noseq", path_trace_message, &kernel_noseq, n_syscall, 2);
}

/* Whether the logger kept up: its counters over all the runs. */
static void stop_kernel_session(void)
{
	struct nttrace_logger_info info;
	struct props pr;

	if (!recorder)
		return;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	nttrace_set_name(&info, "bench");
	if (!nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY))
		printf("I tm_kernel logger %llu %llu %llu\n",
		       (unsigned long long)info.events_written,
		       (unsigned long long)info.events_lost,
		       (unsigned long long)info.events_overwritten);
	props_init(&pr, NULL, 0);
	ControlTraceA(kernel_seq.h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP);
	waitpid(recorder, NULL, 0);
}

static struct ue_ctx user_events = { -1, 0, 0 };

static void setup_user_events(void)
{
	struct ue_ctx *c = &user_events;
	struct ue_reg reg;

	c->fd = open(TRACING "/user_events_data", O_RDWR);
	memset(&reg, 0, sizeof(reg));
	reg.size = sizeof(reg);
	reg.enable_bit = 0;
	reg.enable_size = sizeof(c->enabled);
	reg.enable_addr = (uintptr_t)&c->enabled;
	reg.name_args = (uintptr_t)"nttrace_bench char[64] data";
	if (c->fd < 0 || ioctl(c->fd, UE_IOCSREG, &reg) < 0) {
		printf("# user_events: not available (%s)\n", strerror(errno));
		return;
	}
	c->index = reg.write_index;
	if (write_file(TRACING "/events/user_events/nttrace_bench/enable", "1") ||
	    !(c->enabled & 1)) {
		printf("# user_events: cannot enable the event\n");
		return;
	}
	add_case("user_events", path_user_events, c, n_syscall, 1);
	add_case("user_events", path_user_events, c, n_syscall, 2);
}

/* A second user_event, registered and never enabled: its check alone. */
static struct ue_ctx ue_off = { -1, 0, 0 };

static void setup_ue_disabled(void)
{
	struct ue_reg reg;

	ue_off.fd = open(TRACING "/user_events_data", O_RDWR);
	memset(&reg, 0, sizeof(reg));
	reg.size = sizeof(reg);
	reg.enable_size = sizeof(ue_off.enabled);
	reg.enable_addr = (uintptr_t)&ue_off.enabled;
	reg.name_args = (uintptr_t)"nttrace_bench_off char[64] data";
	if (ue_off.fd < 0 || ioctl(ue_off.fd, UE_IOCSREG, &reg) < 0) {
		printf("# ue_disabled: user_events not available\n");
		return;
	}
	add_case("ue_disabled", path_ue_check, &ue_off, n_fast, 1);
}

/* {7d3b2a10-5c4e-4f6a-9b8c-1d2e3f405060} and the two after it. */
static GUID bench_guid(unsigned char last)
{
	GUID g = { 0x7d3b2a10, 0x5c4e, 0x4f6a,
		   { 0x9b, 0x8c, 0x1d, 0x2e, 0x3f, 0x40, 0x50, last } };

	return g;
}

static int ew_register(struct ew_ctx *c, const char *name, unsigned char last)
{
	GUID g = bench_guid(last);
	ULONG err = EventRegister(&g, NULL, NULL, &c->h);

	if (err != ERROR_SUCCESS) {
		printf("# %s: EventRegister failed: %u\n", name, (unsigned)err);
		return -1;
	}
	memset(&c->d, 0, sizeof(c->d));
	c->d.Id = 1;
	c->d.Level = 4;
	c->d.Keyword = 1;
	EventDataDescCreate(&c->data, payload, PAYLOAD);
	return 0;
}

/* @name's provider enabled by the session @session, then its path. */
static void setup_event_write(struct ew_ctx *c, const char *name, unsigned char last,
			      TRACEHANDLE session, long n)
{
	GUID g = bench_guid(last);
	ULONG err;

	if (ew_register(c, name, last))
		return;
	err = EnableTraceEx2(session, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, ~0ULL, 0, 0,
			     NULL);
	if (err != ERROR_SUCCESS || !EventEnabled(c->h, &c->d)) {
		printf("# %s: could not enable the provider (%u)\n", name, (unsigned)err);
		return;
	}
	add_case(name, path_event_write, c, n, 1);
}

static struct ew_ctx ew_off, ew_kernel, ew_um;

static void setup_disabled(void)
{
	if (ew_register(&ew_off, "ew_disabled", 0x60))
		return;
	add_case("ew_disabled", path_event_write, &ew_off, n_fast, 1);
	add_case("ee_disabled", path_event_enabled, &ew_off, n_fast, 1);
}

static int marker_fd = -1, device_fd = -1;

static void setup_trace_marker(void)
{
	marker_fd = open(TRACING "/trace_marker", O_WRONLY);
	if (marker_fd < 0 || write_file(TRACING "/tracing_on", "1")) {
		printf("# trace_marker: not available\n");
		return;
	}
	add_case("trace_marker", path_write, &marker_fd, n_syscall, 1);
}

static void setup_floor(void)
{
	device_fd = open("/dev/nttrace", O_RDWR);
	if (device_fd >= 0)
		add_case("ioctl_noop", path_ioctl, &device_fd, n_syscall, 1);
	add_case("getppid", path_getppid, NULL, n_syscall, 1);
}

/*
 * Path 5: the in-process user-mode logger (one a process), writing to
 * /dev/null, with its default buffers (@nbuf 0) or @nbuf of them.
 */
static struct tm_ctx umlogger;
static const char *umlogger_name;

static void setup_umlogger(const char *name, ULONG nbuf)
{
	struct props pr;

	props_init(&pr, "/dev/null", EVENT_TRACE_PRIVATE_LOGGER_MODE);
	pr.p.MaximumBuffers = nbuf;
	if (StartTraceA(&umlogger.h, "bench-um", &pr.p) != ERROR_SUCCESS) {
		printf("# user-mode logger: StartTrace failed: %u\n", (unsigned)GetLastError());
		return;
	}
	printf("# %s: the user-mode logger with %u buffers of %u KB\n", name,
	       (unsigned)pr.p.NumberOfBuffers, (unsigned)pr.p.BufferSize);
	umlogger.flags = TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_TIMESTAMP |
			 TRACE_MESSAGE_SYSTEMINFO;
	umlogger_name = name;
	add_case(name, path_trace_message, &umlogger, n_user, 1);
}

static void stop_umlogger(void)
{
	struct props pr;

	if (!umlogger_name)
		return;
	props_init(&pr, NULL, 0);
	ControlTraceA(umlogger.h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP);
	printf("I %s lost %lu\n", umlogger_name, (unsigned long)pr.p.EventsLost);
	umlogger_name = NULL;
}

/* ---- real-time delivery ---- */

/*
 * Each repeat of an rt_ path sets its reader up (untimed), starts the
 * writers, and once they are done makes the reader finish: nttrace's
 * session is stopped (its last buffers then go to the consumer, and
 * ProcessTrace returns when all is delivered); trace_pipe's reader gets an
 * end marker, written after all events and so read after them (trace_pipe
 * merges the CPUs in time order). The time is from the writers' start to
 * the reader's end; the figure is ns per event delivered. Losses are
 * allowed (a writer that outruns its reader loses events on both sides:
 * nttrace refuses them when the ring is full or takes buffers back from a
 * slow consumer; ftrace overwrites the oldest) but each D line says them,
 * and delivered + lost = written is checked.
 */
static long n_rt = 100000;

/* 64 bytes of text ending in '~', so that a reader knows its lines. */
static char rt_text[PAYLOAD];	/* for trace_marker: ends in "~\n" */
static char rt_ue_text[PAYLOAD];	/* for user_events' char[64]: "~\0" */
#define RT_END "nttrace-bench-end\n"

static void rt_report(struct bench_case *c, unsigned int rep, uint64_t written,
		      uint64_t delivered, uint64_t lost, const char *more)
{
	printf("D %s %d %u %llu %llu %llu%s\n", c->name, c->threads, rep,
	       (unsigned long long)written, (unsigned long long)delivered,
	       (unsigned long long)lost, more);
	if (delivered + lost != written)
		printf("# %s, %d thread(s), repeat %u: delivered %llu + lost %llu != written "
		       "%llu\n", c->name, c->threads, rep, (unsigned long long)delivered,
		       (unsigned long long)lost, (unsigned long long)written);
}

/* nttrace: a real-time session, its consumer on a thread of this process. */
struct rt_nt {
	EVENT_TRACE_LOGFILEA lf;
	TRACEHANDLE h;
	ULONG result;
	uint64_t got;
	pthread_t thread;
};

static void WINAPI rt_count(PEVENT_RECORD er)
{
	struct rt_nt *rt = er->UserContext;

	rt->got += er->UserDataLength == PAYLOAD;
}

static void *rt_process(void *arg)
{
	struct rt_nt *rt = arg;

	rt->result = ProcessTrace(&rt->h, 1, NULL, NULL);
	return NULL;
}

static double rt_nttrace_once(struct bench_case *c, unsigned int rep)
{
	static struct tm_ctx tm;
	struct rt_nt rt;
	struct props pr;
	struct crew cr;
	uint64_t t0, t1, t_stop, written = (uint64_t)c->n * c->threads;
	char more[96];
	long refused;

	/* The session's defaults, as tm_kernel's: 64 KB buffers, 16 a CPU. */
	props_init(&pr, NULL, EVENT_TRACE_REAL_TIME_MODE);
	if (StartTraceA(&tm.h, "bench-rt", &pr.p) != ERROR_SUCCESS) {
		printf("# %s: StartTrace failed: %u\n", c->name, (unsigned)GetLastError());
		return -1;
	}
	if (rep == 0 && c->threads == 1)
		printf("# %s: a real-time session of %u KB buffers, %u of them, flushed every "
		       "%u s\n", c->name, (unsigned)pr.p.BufferSize, (unsigned)pr.p.NumberOfBuffers,
		       (unsigned)pr.p.FlushTimer);
	memset(&rt, 0, sizeof(rt));
	rt.lf.LoggerName = (LPSTR)"bench-rt";
	rt.lf.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
	rt.lf.EventRecordCallback = rt_count;
	rt.lf.Context = &rt;
	rt.h = OpenTraceA(&rt.lf);
	if (rt.h == INVALID_PROCESSTRACE_HANDLE) {
		printf("# %s: OpenTrace failed: %u\n", c->name, (unsigned)GetLastError());
		props_init(&pr, NULL, 0);
		ControlTraceA(tm.h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP);
		return -1;
	}
	pthread_create(&rt.thread, NULL, rt_process, &rt);
	tm.flags = TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_SYSTEMINFO;

	t0 = crew_start(&cr, path_trace_message, &tm, c->n, c->threads);
	refused = crew_join(&cr);
	props_init(&pr, NULL, 0);
	ControlTraceA(tm.h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP);
	t_stop = now_ns();
	pthread_join(rt.thread, NULL);
	t1 = now_ns();

	if (rt.result != ERROR_SUCCESS)
		printf("# %s: ProcessTrace returned %u\n", c->name, (unsigned)rt.result);
	/* EventsLost is this consumer's: refused, overwritten, buffers taken. */
	/*
	 * How long ProcessTrace took to return once the session had stopped:
	 * the stop wakes it, so this is the last buffers' delivery, not a wait.
	 */
	snprintf(more, sizeof(more), " refused %ld rt_buffers_lost %u stop_to_end_us %llu",
		 refused, (unsigned)pr.p.RealTimeBuffersLost,
		 (unsigned long long)(t1 - t_stop) / 1000);
	rt_report(c, rep, written, rt.got, rt.lf.EventsLost, more);
	CloseTrace(rt.h);
	return rt.got ? (double)(t1 - t0) / rt.got : -1;
}

/* trace_pipe: a thread reading it, counting the writers' lines. */
struct rt_pipe {
	int fd;
	uint64_t got, lost, other;
	int ended, unknown_loss;
	char buf[65536];
};

/* One line of trace_pipe (without its '\n'). */
static void rt_pipe_line(struct rt_pipe *p, char *line, size_t len)
{
	char *lost;

	if (len && line[len - 1] == '~') {
		p->got++;
		return;
	}
	line[len] = 0;
	/* ftrace's note of overwritten events: "CPU:N [LOST M EVENTS]". */
	lost = strstr(line, "[LOST ");
	if (lost) {
		if (lost[6] >= '0' && lost[6] <= '9')
			p->lost += strtoull(lost + 6, NULL, 10);
		else
			p->unknown_loss = 1;
	} else if (strstr(line, "nttrace-bench-end")) {
		p->ended = 1;
	} else {
		p->other++;
	}
}

static void *rt_pipe_read(void *arg)
{
	struct rt_pipe *p = arg;
	size_t have = 0, start, i;
	ssize_t r;

	while (!p->ended) {
		/* A line longer than the buffer cannot be ours: drop it. */
		if (have == sizeof(p->buf) - 1)
			have = 0;
		r = read(p->fd, p->buf + have, sizeof(p->buf) - 1 - have);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		have += r;
		for (start = 0, i = 0; i < have && !p->ended; i++)
			if (p->buf[i] == '\n') {
				rt_pipe_line(p, p->buf + start, i - start);
				start = i + 1;
			}
		memmove(p->buf, p->buf + start, have - start);
		have -= start;
	}
	return NULL;
}

static struct rt_text_ctx {
	int fd;
} rt_marker = { -1 };

static long path_marker_text(void *arg, long n)
{
	int fd = ((struct rt_text_ctx *)arg)->fd;
	long i, failed = 0;

	for (i = 0; i < n; i++)
		failed += write(fd, rt_text, PAYLOAD) != PAYLOAD;
	return failed;
}

static long path_ue_text(void *arg, long n)
{
	struct ue_ctx *c = arg;
	struct iovec iov[2] = {
		{ &c->index, sizeof(c->index) }, { rt_ue_text, PAYLOAD },
	};
	long i, failed = 0;

	for (i = 0; i < n; i++)
		failed += writev(c->fd, iov, 2) != sizeof(c->index) + PAYLOAD;
	return failed;
}

static double rt_pipe_once(struct bench_case *c, unsigned int rep)
{
	static struct rt_pipe p;
	struct crew cr;
	struct timespec limit;
	pthread_t reader;
	uint64_t t0, t1, written = (uint64_t)c->n * c->threads;
	long failed;
	char more[64];

	/* An empty ring: what earlier paths left there is not read. */
	if (write_file(TRACING "/trace", "")) {
		printf("# %s: cannot clear the trace\n", c->name);
		return -1;
	}
	memset(&p, 0, sizeof(p));
	p.fd = open(TRACING "/trace_pipe", O_RDONLY);
	if (p.fd < 0) {
		printf("# %s: trace_pipe: %s\n", c->name, strerror(errno));
		return -1;
	}
	pthread_create(&reader, NULL, rt_pipe_read, &p);

	t0 = crew_start(&cr, c->fn, c->ctx, c->n, c->threads);
	failed = crew_join(&cr);
	if (write(rt_marker.fd, RT_END, strlen(RT_END)) != (ssize_t)strlen(RT_END))
		printf("# %s: the end marker could not be written\n", c->name);
	/* A reader that never sees the end must not hang the benchmark. */
	clock_gettime(CLOCK_REALTIME, &limit);
	limit.tv_sec += 120;
	if (pthread_timedjoin_np(reader, NULL, &limit)) {
		printf("# %s: the reader did not see the end marker in 120 s\n", c->name);
		pthread_cancel(reader);
		pthread_join(reader, NULL);
	}
	t1 = now_ns();
	close(p.fd);

	if (p.unknown_loss)
		printf("# %s: ftrace lost events it could not count\n", c->name);
	snprintf(more, sizeof(more), " failed %ld other_lines %llu", failed,
		 (unsigned long long)p.other);
	rt_report(c, rep, written, p.got, p.lost + failed, more);
	return p.got && p.ended ? (double)(t1 - t0) / p.got : -1;
}

static void add_rt_case(const char *name, path_fn fn, void *ctx, int threads,
			double (*once)(struct bench_case *c, unsigned int rep))
{
	if (wanted(name))
		cases[ncases++] = (struct bench_case){ name, fn, ctx, n_rt, threads, 0, once };
}

/* Whether @name is an executable in $PATH. */
static int in_path(const char *name)
{
	const char *path = getenv("PATH");
	char dir[512], file[1024];
	size_t len;

	while (path && *path) {
		len = strcspn(path, ":");
		if (len && len < sizeof(dir)) {
			memcpy(dir, path, len);
			dir[len] = 0;
			snprintf(file, sizeof(file), "%s/%s", dir, name);
			if (!access(file, X_OK))
				return 1;
		}
		path += len + (path[len] == ':');
	}
	return 0;
}

static void setup_realtime(void)
{
	char kb[32] = "?";
	int fd, i;

	for (i = 0; i < PAYLOAD - 2; i++)
		rt_text[i] = rt_ue_text[i] = 'a' + i % 26;
	rt_text[PAYLOAD - 2] = rt_ue_text[PAYLOAD - 2] = '~';
	rt_text[PAYLOAD - 1] = '\n';
	rt_ue_text[PAYLOAD - 1] = 0;

	add_rt_case("rt_consumer", NULL, NULL, 1, rt_nttrace_once);
	add_rt_case("rt_consumer", NULL, NULL, 2, rt_nttrace_once);

	rt_marker.fd = open(TRACING "/trace_marker", O_WRONLY);
	if (rt_marker.fd < 0 || write_file(TRACING "/tracing_on", "1")) {
		printf("# rt_trace_pipe, rt_ue_pipe: no trace_marker\n");
		return;
	}
	fd = open(TRACING "/buffer_size_kb", O_RDONLY);
	if (fd >= 0) {
		ssize_t r = read(fd, kb, sizeof(kb) - 1);

		kb[r > 0 ? r : 0] = 0;
		kb[strcspn(kb, "\n")] = 0;
		close(fd);
	}
	printf("# rt_trace_pipe, rt_ue_pipe: ftrace's ring, %s KB a CPU, overwriting\n", kb);
	add_rt_case("rt_trace_pipe", path_marker_text, &rt_marker, 1, rt_pipe_once);
	add_rt_case("rt_trace_pipe", path_marker_text, &rt_marker, 2, rt_pipe_once);
	if (user_events.enabled & 1) {
		add_rt_case("rt_ue_pipe", path_ue_text, &user_events, 1, rt_pipe_once);
		add_rt_case("rt_ue_pipe", path_ue_text, &user_events, 2, rt_pipe_once);
	} else {
		printf("# rt_ue_pipe: user_events not enabled: skipped\n");
	}
	if (!in_path("perf"))
		printf("# rt_perf_trace: no perf in the VM image (a busybox initramfs): "
		       "skipped\n");
	else
		printf("# rt_perf_trace: perf is there but not measured yet\n");
}

#ifdef NTTRACE_BENCH_LTTNG
static long path_lttng(void *arg, long n)
{
	long i;

	for (i = 0; i < n; i++)
		lttng_ust_tracepoint(nttrace_bench, msg, (const char *)payload);
	return 0;
}

/* nttrace_bench:off: no session enables it (scripts/bench). */
static long path_lttng_off(void *arg, long n)
{
	long i;

	for (i = 0; i < n; i++)
		lttng_ust_tracepoint(nttrace_bench, off, (const char *)payload);
	return 0;
}
#endif

int main(int argc, char **argv)
{
	const char *tool = getenv("NTTRACE_TOOL");
	int i;

	for (i = 0; i < PAYLOAD; i++)
		payload[i] = (uint8_t)i;
	only = getenv("BENCH_ONLY");
	if (getenv("BENCH_REPS"))
		reps = atoi(getenv("BENCH_REPS"));
	if (getenv("BENCH_SCALE")) {
		n_syscall = n_syscall * atoi(getenv("BENCH_SCALE")) / 100;
		n_user = n_user * atoi(getenv("BENCH_SCALE")) / 100;
		n_fast = n_fast * atoi(getenv("BENCH_SCALE")) / 100;
		n_rt = n_rt * atoi(getenv("BENCH_SCALE")) / 100;
	}
	if (argc != 2 || (strcmp(argv[1], "vm") && strcmp(argv[1], "host"))) {
		fprintf(stderr, "usage: nttrace_bench vm|host\n");
		return 2;
	}
	printf("# nttrace_bench %s: %u repeats, %ld events a repeat (%ld without a "
	       "system call, %ld a thread for real-time delivery), %d-byte payload\n",
	       argv[1], reps, n_syscall, n_user, n_rt, PAYLOAD);
	if (!strcmp(argv[1], "vm")) {
		setup_floor();
		setup_kernel_session(tool ? tool : "u64/nttrace");
		setup_event_write(&ew_kernel, "ew_kernel", 0x61, kernel_seq.h, n_syscall);
		setup_user_events();
		setup_ue_disabled();
		setup_trace_marker();
		setup_umlogger("tm_umlogger", 0);
		setup_event_write(&ew_um, "ew_umlogger", 0x62, umlogger.h, n_user);
		setup_disabled();
		setup_realtime();
		run_cases();
		stop_umlogger();
		stop_kernel_session();
		write_file(TRACING "/events/user_events/nttrace_bench/enable", "0");
		return 0;
	}
	/* The user-mode logger is one a process: two rounds, LTTng in both. */
	setup_umlogger("tm_umlogger", 0);
	setup_event_write(&ew_um, "ew_umlogger", 0x62, umlogger.h, n_user);
	setup_disabled();
#ifdef NTTRACE_BENCH_LTTNG
	add_case("lttng_ust", path_lttng, NULL, n_user, 1);
	add_case("lttng_disabled", path_lttng_off, NULL, n_fast, 1);
#else
	printf("# lttng_ust: not built in\n");
#endif
	run_cases();
	stop_umlogger();
	setup_umlogger("tm_umlogger_256buf", 256);
#ifdef NTTRACE_BENCH_LTTNG
	add_case("lttng_ust", path_lttng, NULL, n_user, 1);
#endif
	run_cases();
	stop_umlogger();
	return 0;
}
