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
 *   tm_kernel_nots   the same without TIMESTAMP (no clock read)
 *   tm_kernel_buffering  the same as tm_kernel into a second session in
 *                 EVENT_TRACE_BUFFERING_MODE that nobody reads (its rings
 *                 overwrite), as user_events and trace_marker run here:
 *                 with 2 threads on 2 vCPUs, tm_kernel's recorder takes
 *                 CPU time from the producers that theirs do not
 *   user_events   a registered, enabled user_event written with writev
 *   trace_marker  a write to tracefs' trace_marker, tracing on
 *   ioctl_noop    NTTRACE_IOC_VERSION on /dev/nttrace: an ioctl that copies
 *                 a size-first struct in and out and traces nothing
 *                 (ioctl_noop_own_fd: each thread through its own open file)
 *   getppid       the cheapest system call (with 2 threads: how far any
 *                 system call scales on this machine)
 *   tm_umlogger   TraceMessage to the in-process user-mode logger, its
 *                 default buffers, the file on tmpfs (tm_umlogger_disk: on
 *                 disk, 1, 2 and 4 threads; _noseq: without SEQUENCE)
 *   lttng_ust     an LTTng-UST tracepoint, a session recording it
 *   ew_kernel     EventWrite (one 64-byte data descriptor) of a provider a
 *                 kernel session enables, the recorder draining it
 *   ew_umlogger   EventWrite of a provider the user-mode logger enables
 *   ew_disabled   EventWrite of a registered provider no session enables
 *   tl_disabled, tl_kernel, tl_umlogger  TraceLoggingWrite of one 64-byte
 *                 Binary field: disabled (the header's inline test), into
 *                 the kernel session, into the user-mode logger
 *   ewt_disabled, ewx_disabled  EventWriteTransfer and EventWriteEx of it
 *   ee_disabled   EventEnabled for it
 *   mc_disabled   EventWriteX of a header `nttrace mc` generated, its
 *                 provider registered and not enabled (tests/bench/bench.man)
 *   ue_disabled   the check of a registered user_event that is not
 *                 enabled (its enable word, a load and a branch)
 *   lttng_disabled  an LTTng-UST tracepoint no session enables
 *
 * Real-time delivery, in the VM: events handed live to a
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
 * How cost grows with the payload, after the paths above ("The size sweep"
 * below): ns per event for payloads of 8, 64, 512, 4096 and 8192 bytes,
 * in the VM for tm_kernel, ew_kernel, user_events, trace_marker and
 * ioctl_noop (which carries no payload: the floor), on the host for
 * tm_umlogger, ew_umlogger and lttng_ust; then the memory of each
 * session and the bytes each event costs beyond its payload, measured.
 *
 * The environment: BENCH_REPS repeats (11), BENCH_SCALE percent of the
 * event counts (100), BENCH_ONLY name prefixes, comma-separated: only those
 * paths (for a quick look at some; `make bench` runs all; "sweep" for the sweep alone,
 * "none" for none of the paths above), BENCH_SWEEP_REPS the sweep's
 * repeats (5), BENCH_TMP a directory for the overhead measurement's files
 * (/tmp).
 *
 * Output, one a line: "R PATH THREADS REP NS_PER_EVENT" for each repeat
 * (with 2 threads: wall time over all events, so throughput; for the rt_
 * paths, per event delivered), "D PATH THREADS REP WRITTEN DELIVERED LOST"
 * for each repeat of an rt_ path, "I PATH KEY VALUE" for facts (events
 * lost), "# ..." for comments; for the sweep, "S PATH SIZE REP NS_PER_EVENT",
 * "U PATH SIZE WHY..." for a size a path cannot take, "M KEY VALUE..." for
 * memory and overhead (see sweep_facts()).
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
#include <ftw.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/uapi.h>
#include <nttrace/evntcons.h>
#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/etl.h>
#include <nttrace/session.h>
#include <nttrace/traceloggingprovider.h>

/* `nttrace mc` of tests/bench/bench.man, made at build time. */
#include "bench_events.h"

#ifdef NTTRACE_BENCH_LTTNG
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "lttng_tp.h"
#endif

#define PAYLOAD 64
#define TRACING "/sys/kernel/tracing"

/* The size sweep's largest payload (of 8, 64, 512, 4096, 8192). */
#define MAX_PAYLOAD 8192

static unsigned int reps = 11;
static long n_syscall = 200000, n_user = 2000000;
static uint8_t payload[MAX_PAYLOAD];

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
	uint64_t t0, t1;	/* when its events began and ended */
};

static void *work(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_barrier_wait(w->go);
	w->t0 = now_ns();
	w->failed = w->fn(w->ctx, w->n);
	w->t1 = now_ns();
	return NULL;
}

/*
 * @threads workers (at most MAX_THREADS), each running @fn(@ctx, @n),
 * worker i pinned to CPU i modulo the CPUs there are: with more threads
 * than CPUs (4 on the 2-CPU host) they share them, as a program would.
 */
#define MAX_THREADS 4
static int ncpus = 1;

struct crew {
	struct worker w[MAX_THREADS];
	pthread_t t[MAX_THREADS];
	pthread_barrier_t go;
	int threads;
};

/* Starts them all at once. */
static void crew_start(struct crew *cr, path_fn fn, void *ctx, long n, int threads)
{
	int i;

	cr->threads = threads;
	pthread_barrier_init(&cr->go, NULL, threads + 1);
	for (i = 0; i < threads; i++) {
		cr->w[i] = (struct worker){ fn, ctx, n, 0, i % ncpus, &cr->go, 0, 0 };
		pthread_create(&cr->t[i], NULL, work, &cr->w[i]);
	}
	pthread_barrier_wait(&cr->go);
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

/* When the first worker began. */
static uint64_t crew_first(const struct crew *cr)
{
	uint64_t t0 = cr->w[0].t0;
	int i;

	for (i = 1; i < cr->threads; i++)
		t0 = cr->w[i].t0 < t0 ? cr->w[i].t0 : t0;
	return t0;
}

/*
 * From the first worker's first event to the last one's last, as the
 * workers saw them: a clock read by the starting thread after the barrier
 * could come after a worker's whole run when the CPUs are oversubscribed.
 */
static uint64_t crew_span(const struct crew *cr)
{
	uint64_t t1 = cr->w[0].t1;
	int i;

	for (i = 1; i < cr->threads; i++)
		t1 = cr->w[i].t1 > t1 ? cr->w[i].t1 : t1;
	return t1 - crew_first(cr);
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

/* BENCH_ONLY=PREFIX[,PREFIX...]: only the paths whose names start with one. */
static const char *only;

static int wanted(const char *name)
{
	const char *p = only;

	if (ncases >= MAX_CASES)
		return 0;
	if (!p)
		return 1;
	for (;;) {
		size_t len = strcspn(p, ",");

		if (len && !strncmp(name, p, len))
			return 1;
		if (!p[len])
			return 0;
		p += len + 1;
	}
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

	crew_start(&cr, c->fn, c->ctx, c->n, c->threads);
	c->failed += crew_join(&cr);
	return (double)crew_span(&cr) / ((double)c->n * c->threads);
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

/*
 * The same through a descriptor of the thread's own: with threads sharing
 * one open file, every system call on it takes and drops a reference to
 * that one struct file (an atomic each way, on a cache line all threads
 * write).
 */
static long path_ioctl_own_fd(void *arg, long n)
{
	int fd = open("/dev/nttrace", O_RDWR | O_CLOEXEC);
	long failed;

	(void)arg;
	if (fd < 0)
		return n;
	failed = path_ioctl(&fd, n);
	close(fd);
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

static long path_event_write_transfer(void *arg, long n)
{
	struct ew_ctx *c = arg;
	long i, failed = 0;

	for (i = 0; i < n; i++)
		failed += EventWriteTransfer(c->h, &c->d, NULL, NULL, 1, &c->data) !=
			  ERROR_SUCCESS;
	return failed;
}

static long path_event_write_ex(void *arg, long n)
{
	struct ew_ctx *c = arg;
	long i, failed = 0;

	for (i = 0; i < n; i++)
		failed += EventWriteEx(c->h, &c->d, 0, 0, NULL, NULL, 1, &c->data) !=
			  ERROR_SUCCESS;
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

/*
 * The EventWriteBenchEvent macro `nttrace mc` generates, its provider
 * registered and no session enabling it: the header's inline test of the
 * enable bits, as mc.exe's headers make it. Counts a write that happened.
 */
static long path_mc_disabled(void *arg, long n)
{
	long i, wrote = 0;

	(void)arg;
	for (i = 0; i < n; i++)
		wrote += EventWriteBenchEvent(payload) != 0;
	return wrote;
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
	char log_file[256];
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
static struct tm_ctx kernel_seq, kernel_noseq, kernel_nots, kernel_buffering;
static pid_t recorder;

/* tm_kernel_buffering's session: the defaults, no reader, overwriting. */
static void setup_buffering_session(void)
{
	struct props pr;

	props_init(&pr, NULL, EVENT_TRACE_BUFFERING_MODE);
	if (StartTraceA(&kernel_buffering.h, "bench-buffering", &pr.p) != ERROR_SUCCESS) {
		printf("# buffering session: StartTrace failed: %u\n",
		       (unsigned)GetLastError());
		kernel_buffering.h = 0;
		return;
	}
	kernel_buffering.flags = TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_TIMESTAMP |
				 TRACE_MESSAGE_SYSTEMINFO;
	add_case("tm_kernel_buffering", path_trace_message, &kernel_buffering, n_syscall, 1);
	add_case("tm_kernel_buffering", path_trace_message, &kernel_buffering, n_syscall, 2);
}

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
	/* M mem_kernel_session BUFFERS_IN_ALL KB CPUS (the defaults) */
	printf("M mem_kernel_session %u %u %ld\n", (unsigned)pr.p.NumberOfBuffers,
	       (unsigned)pr.p.BufferSize, sysconf(_SC_NPROCESSORS_ONLN));
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
	/* What the time stamp costs, and whether it limits two threads. */
	kernel_nots.h = kernel_seq.h;
	kernel_nots.flags = TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_SYSTEMINFO;
	add_case("tm_kernel_nots", path_trace_message, &kernel_nots, n_syscall, 1);
	add_case("tm_kernel_nots", path_trace_message, &kernel_nots, n_syscall, 2);
	setup_buffering_session();
}

/*
 * Whether the logger kept up: its counters over all the runs of the paths
 * above, taken before the sweep (whose 4 and 8 KB events may fill it).
 */
static void query_kernel_session(void)
{
	struct nttrace_logger_info info;

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
}

static void stop_kernel_session(void)
{
	struct props pr;

	if (kernel_buffering.h) {
		props_init(&pr, NULL, 0);
		ControlTraceA(kernel_buffering.h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP);
		kernel_buffering.h = 0;
	}
	if (!recorder)
		return;
	props_init(&pr, NULL, 0);
	ControlTraceA(kernel_seq.h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP);
	waitpid(recorder, NULL, 0);
}

/*
 * Register the user_event @name_args on a user_events_data descriptor of
 * @c's own, its enable bit 0 in c->enabled; 0, or -1 with errno set.
 */
static int ue_register(struct ue_ctx *c, const char *name_args)
{
	struct ue_reg reg;

	c->fd = open(TRACING "/user_events_data", O_RDWR);
	memset(&reg, 0, sizeof(reg));
	reg.size = sizeof(reg);
	reg.enable_bit = 0;
	reg.enable_size = sizeof(c->enabled);
	reg.enable_addr = (uintptr_t)&c->enabled;
	reg.name_args = (uintptr_t)name_args;
	if (c->fd < 0 || ioctl(c->fd, UE_IOCSREG, &reg) < 0)
		return -1;
	c->index = reg.write_index;
	return 0;
}

static struct ue_ctx user_events = { -1, 0, 0 };

static void setup_user_events(void)
{
	struct ue_ctx *c = &user_events;

	if (ue_register(c, "nttrace_bench char[64] data")) {
		printf("# user_events: not available (%s)\n", strerror(errno));
		return;
	}
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
	if (ue_register(&ue_off, "nttrace_bench_off char[64] data")) {
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
	add_case("ewt_disabled", path_event_write_transfer, &ew_off, n_fast, 1);
	add_case("ewx_disabled", path_event_write_ex, &ew_off, n_fast, 1);
	add_case("ee_disabled", path_event_enabled, &ew_off, n_fast, 1);
	if (EventRegisternttrace_bench_mc() != ERROR_SUCCESS)
		printf("# mc_disabled: EventRegister failed\n");
	else
		add_case("mc_disabled", path_mc_disabled, NULL, n_fast, 1);
}

/*
 * TraceLogging: the same 64 bytes as one Binary field, the
 * metadata built by the compiler. tl_disabled is the inline level and
 * keyword test <TraceLoggingProvider.h> makes (no call: compare it with
 * lttng_disabled); tl_kernel and tl_umlogger beside ew_kernel and
 * ew_umlogger (two more descriptors: the provider and event metadata).
 */
TRACELOGGING_DEFINE_PROVIDER(tl_off, "nttrace.bench.off",
			     (0x7d3b2a10, 0x5c4e, 0x4f6a, 0x9b, 0x8c, 0x1d, 0x2e, 0x3f, 0x40, 0x50,
			      0x63));
TRACELOGGING_DEFINE_PROVIDER(tl_kernel, "nttrace.bench.kernel",
			     (0x7d3b2a10, 0x5c4e, 0x4f6a, 0x9b, 0x8c, 0x1d, 0x2e, 0x3f, 0x40, 0x50,
			      0x64));
TRACELOGGING_DEFINE_PROVIDER(tl_um, "nttrace.bench.um",
			     (0x7d3b2a10, 0x5c4e, 0x4f6a, 0x9b, 0x8c, 0x1d, 0x2e, 0x3f, 0x40, 0x50,
			      0x65));

static long path_tracelogging(void *arg, long n)
{
	TraceLoggingHProvider p = arg;
	long i;

	for (i = 0; i < n; i++)
		TraceLoggingWrite(p, "Bench", TraceLoggingLevel(4), TraceLoggingKeyword(1),
				  TraceLoggingBinary(payload, PAYLOAD, "payload"));
	return 0;
}

/* @p registered and enabled by @session (0: by none), then its path. */
static void setup_tracelogging(TraceLoggingHProvider p, const char *name, unsigned char last,
			       TRACEHANDLE session, long n)
{
	GUID g = bench_guid(last);
	int i;

	if (TraceLoggingRegister(p) != S_OK) {
		printf("# %s: TraceLoggingRegister failed\n", name);
		return;
	}
	if (session && EnableTraceEx2(session, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5,
				      ~0ULL, 0, 0, NULL) != ERROR_SUCCESS) {
		printf("# %s: could not enable the provider\n", name);
		return;
	}
	/* A kernel session's enable reaches the provider a moment later. */
	for (i = 0; session && i < 500 && !TraceLoggingProviderEnabled(p, 4, 1); i++)
		usleep(10000);
	if (!session != !TraceLoggingProviderEnabled(p, 4, 1)) {
		printf("# %s: the provider's state is not the session's\n", name);
		return;
	}
	add_case(name, path_tracelogging, (void *)p, n, 1);
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
	if (device_fd >= 0) {
		add_case("ioctl_noop", path_ioctl, &device_fd, n_syscall, 1);
		add_case("ioctl_noop", path_ioctl, &device_fd, n_syscall, 2);
		add_case("ioctl_noop_own_fd", path_ioctl_own_fd, NULL, n_syscall, 2);
	}
	/* With 2 threads: how far any system call scales here (TCG, 2 vCPUs). */
	add_case("getppid", path_getppid, NULL, n_syscall, 1);
	add_case("getppid", path_getppid, NULL, n_syscall, 2);
}

/* Path 5: the in-process user-mode logger (one a process). */
static struct tm_ctx umlogger, umlogger_noseq;
static const char *umlogger_name;
static ULONG umlogger_bufs, umlogger_kb;	/* as StartTrace said */
static char umlogger_file[256];

/*
 * The user-mode logger with its defaults, writing a circular file of
 * 256 MB in @dir (a long run wraps instead of filling a disk or RAM), or
 * /dev/null (@dir NULL). Its paths: @name with 1 thread, @name_noseq
 * without SEQUENCE, both also with 2 and 4 threads when @scaling.
 */
static void setup_umlogger(const char *name, const char *dir, int scaling)
{
	struct props pr;
	char noseq[64];

	if (dir)
		snprintf(umlogger_file, sizeof(umlogger_file), "%s/nttrace-bench-um.etl", dir);
	else
		snprintf(umlogger_file, sizeof(umlogger_file), "/dev/null");
	props_init(&pr, umlogger_file, EVENT_TRACE_PRIVATE_LOGGER_MODE |
		   (dir ? EVENT_TRACE_FILE_MODE_CIRCULAR : 0));
	pr.p.MaximumFileSize = dir ? 256 : 0;
	if (StartTraceA(&umlogger.h, "bench-um", &pr.p) != ERROR_SUCCESS) {
		printf("# user-mode logger: StartTrace failed: %u\n", (unsigned)GetLastError());
		return;
	}
	printf("# %s: the user-mode logger with %u buffers of %u KB, writing %s%s\n", name,
	       (unsigned)pr.p.NumberOfBuffers, (unsigned)pr.p.BufferSize, umlogger_file,
	       dir ? " (circular, 256 MB)" : "");
	umlogger_bufs = pr.p.NumberOfBuffers;
	umlogger_kb = pr.p.BufferSize;
	umlogger.flags = TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_TIMESTAMP |
			 TRACE_MESSAGE_SYSTEMINFO;
	umlogger_noseq.h = umlogger.h;
	umlogger_noseq.flags = TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_SYSTEMINFO;
	umlogger_name = name;
	add_case(name, path_trace_message, &umlogger, n_user, 1);
	snprintf(noseq, sizeof(noseq), "%s_noseq", name);
	add_case(strdup(noseq), path_trace_message, &umlogger_noseq, n_user, 1);
	if (scaling) {
		add_case(name, path_trace_message, &umlogger, n_user, 2);
		add_case(name, path_trace_message, &umlogger, n_user, 4);
		add_case(strdup(noseq), path_trace_message, &umlogger_noseq, n_user, 2);
		add_case(strdup(noseq), path_trace_message, &umlogger_noseq, n_user, 4);
	}
}

/* The CPU time thread @tid of this process has run, in ns; 0 if unknown. */
static unsigned long long thread_run_ns(pid_t tid)
{
	char path[64];
	unsigned long long ns = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)tid);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &ns) != 1)
			ns = 0;
		fclose(f);
	}
	return ns;
}

static void stop_umlogger(void)
{
	struct props pr;
	unsigned long long writer_ns;

	if (!umlogger_name)
		return;
	/* The writer's CPU time, read while it lives: it ends with the stop. */
	props_init(&pr, NULL, 0);
	ControlTraceA(umlogger.h, NULL, &pr.p, EVENT_TRACE_CONTROL_QUERY);
	writer_ns = thread_run_ns((pid_t)(uintptr_t)pr.p.LoggerThreadId);
	props_init(&pr, NULL, 0);
	ControlTraceA(umlogger.h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP);
	printf("I %s lost %lu\n", umlogger_name, (unsigned long)pr.p.EventsLost);
	/* I NAME writer_us_per_buffer US (all buffers written so far) */
	if (writer_ns && pr.p.BuffersWritten)
		printf("I %s writer_us_per_buffer %.2f\n", umlogger_name,
		       writer_ns / 1e3 / pr.p.BuffersWritten);
	umlogger_name = NULL;
	if (strcmp(umlogger_file, "/dev/null"))
		unlink(umlogger_file);
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

	crew_start(&cr, path_trace_message, &tm, c->n, c->threads);
	refused = crew_join(&cr);
	t0 = crew_first(&cr);
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

	crew_start(&cr, c->fn, c->ctx, c->n, c->threads);
	failed = crew_join(&cr);
	t0 = crew_first(&cr);
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

/* ---- the size sweep: how cost grows with the payload ---- */

static const size_t sweep_sizes[] = { 8, 64, 512, 4096, 8192 };
#define NSIZES (sizeof(sweep_sizes) / sizeof(sweep_sizes[0]))
static unsigned int sweep_reps = 5;
/* Fewer events than the paths above: 5 sizes, and 8 KB copies under TCG. */
static long n_sweep_sys = 50000, n_sweep_user = 200000;

/* A sized path's context: the path's own, and the payload's size. */
struct sz_ctx {
	void *base;
	size_t size;
};

/* Why the last event of a sized path failed, for the probe's report. */
static char sz_why[256];

static long sz_trace_message(void *arg, long n)
{
	struct sz_ctx *z = arg;
	struct tm_ctx *c = z->base;
	long i, failed = 0;
	ULONG err;

	for (i = 0; i < n; i++) {
		err = TraceMessage(c->h, c->flags, NULL, 1, payload, z->size, NULL);
		if (err != ERROR_SUCCESS) {
			failed++;
			snprintf(sz_why, sizeof(sz_why), "TraceMessage returned %u%s", (unsigned)err,
				 err == ERROR_BUFFER_OVERFLOW ? " (ERROR_BUFFER_OVERFLOW: past "
				 "TRACE_MESSAGE_MAXIMUM_SIZE, 8192 bytes with the 48-byte packet "
				 "header)" : "");
		}
	}
	return failed;
}

static long sz_event_write(void *arg, long n)
{
	struct sz_ctx *z = arg;
	struct ew_ctx *c = z->base;
	EVENT_DATA_DESCRIPTOR d;
	long i, failed = 0;
	ULONG err;

	EventDataDescCreate(&d, payload, (ULONG)z->size);
	for (i = 0; i < n; i++) {
		err = EventWrite(c->h, &c->d, 1, &d);
		if (err != ERROR_SUCCESS) {
			failed++;
			snprintf(sz_why, sizeof(sz_why), "EventWrite returned %u", (unsigned)err);
		}
	}
	return failed;
}

static long sz_write(void *arg, long n)
{
	struct sz_ctx *z = arg;
	int fd = *(int *)z->base;
	long i, failed = 0;
	ssize_t r;

	for (i = 0; i < n; i++) {
		r = write(fd, payload, z->size);
		if (r != (ssize_t)z->size) {
			failed++;
			if (r >= 0)
				snprintf(sz_why, sizeof(sz_why), "write returned %zd of %zu bytes "
					 "(truncated by the kernel)", r, z->size);
			else
				snprintf(sz_why, sizeof(sz_why), "write failed: %s",
					 strerror(errno));
		}
	}
	return failed;
}

static long sz_ioctl(void *arg, long n)
{
	return path_ioctl(((struct sz_ctx *)arg)->base, n);
}

/*
 * user_events with a dynamic array ("__rel_loc char[] data": a u32 of
 * length << 16 and offset from the end of the field, 0, then the bytes),
 * the one way to give it 4 and 8 KB (a fixed array is at most 1024); a
 * char array must end in a NUL, which its validator checks: zeroes.
 */
static struct ue_ctx ue_sized = { -1, 0, 0 };
static uint8_t zeroes[MAX_PAYLOAD];

static long sz_user_events(void *arg, long n)
{
	struct sz_ctx *z = arg;
	struct ue_ctx *c = z->base;
	uint32_t loc = (uint32_t)z->size << 16;
	struct iovec iov[3] = {
		{ &c->index, sizeof(c->index) }, { &loc, sizeof(loc) }, { zeroes, z->size },
	};
	size_t want = sizeof(c->index) + sizeof(loc) + z->size;
	long i, failed = 0;
	ssize_t r;

	for (i = 0; i < n; i++) {
		r = writev(c->fd, iov, 3);
		if (r != (ssize_t)want) {
			failed++;
			snprintf(sz_why, sizeof(sz_why), "writev: %s",
				 r < 0 ? strerror(errno) : "short");
		}
	}
	return failed;
}

#ifdef NTTRACE_BENCH_LTTNG
static long sz_lttng(void *arg, long n)
{
	struct sz_ctx *z = arg;
	long i;

	for (i = 0; i < n; i++)
		lttng_ust_tracepoint(nttrace_bench, sized, (const char *)payload,
				     (unsigned int)z->size);
	return 0;
}
#endif

/* ftrace's entries now, all CPUs (per_cpu/cpuN/stats); -1 if unreadable. */
static long ftrace_entries(void)
{
	char path[96], buf[512], *e;
	long sum = -1;
	ssize_t r;
	int cpu, fd;

	for (cpu = 0; cpu < 256; cpu++) {
		snprintf(path, sizeof(path), TRACING "/per_cpu/cpu%d/stats", cpu);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			break;
		r = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[r > 0 ? r : 0] = 0;
		e = strstr(buf, "entries: ");
		if (e)
			sum = (sum < 0 ? 0 : sum) + strtol(e + 9, NULL, 10);
	}
	return sum;
}

struct sweep_path {
	const char *name;
	path_fn fn;
	void *base;
	long n;
	int ftrace;		/* its events go to ftrace's ring: check they land */
	/* Events its session lost so far, or -1 if it cannot say (or NULL) */
	long long (*lost)(void);
	long long lost_sum[NSIZES];	/* over the repeats; -1: unknown */
	int ok[NSIZES];		/* the probe's verdict for each size */
	struct sz_ctx z[NSIZES];
};

#define MAX_SWEEP 8
static struct sweep_path sweep[MAX_SWEEP];
static int nsweep;

static void add_sweep(const char *name, path_fn fn, void *base, long n, int ftrace,
		      long long (*lost)(void))
{
	struct sweep_path *p = &sweep[nsweep];

	if (nsweep == MAX_SWEEP)
		return;
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->fn = fn;
	p->base = base;
	p->n = n;
	p->ftrace = ftrace;
	p->lost = lost;
	nsweep++;
}

/*
 * One event of each size, untimed: a size the path refuses, truncates,
 * or accepts and drops (ftrace drops an event larger than its ring
 * buffer's pages without a word to the writer) is reported as a U line
 * and not timed, so that the table says it rather than leaving a hole.
 */
static void sweep_probe(struct sweep_path *p, unsigned int k)
{
	long before = 0, after;

	p->z[k] = (struct sz_ctx){ p->base, sweep_sizes[k] };
	sz_why[0] = 0;
	if (p->ftrace) {
		write_file(TRACING "/trace", "");	/* empties the ring */
		before = ftrace_entries();
	}
	if (p->fn(&p->z[k], 1)) {
		printf("U %s %zu %s\n", p->name, sweep_sizes[k], sz_why);
		return;
	}
	if (p->ftrace) {
		after = ftrace_entries();
		if (before >= 0 && after >= 0 && after <= before) {
			printf("U %s %zu accepted but not recorded: larger than an event of "
			       "ftrace's ring buffer can be (its page less headers)\n", p->name,
			       sweep_sizes[k]);
			return;
		}
	}
	p->ok[k] = 1;
}

static void run_sweep(void)
{
	struct crew cr;
	unsigned int r, k;
	long long lost0, lost1;
	double ns;
	int i;

	printf("# sweep: %u repeats, %ld events a repeat (%ld without a system call), "
	       "payloads of 8, 64, 512, 4096 and 8192 bytes\n", sweep_reps, n_sweep_sys,
	       n_sweep_user);
	for (i = 0; i < nsweep; i++)
		for (k = 0; k < NSIZES; k++)
			sweep_probe(&sweep[i], k);
	/* Interleaved as run_cases() does: repeat r of every path and size. */
	for (r = 0; r < sweep_reps; r++)
		for (i = 0; i < nsweep; i++)
			for (k = 0; k < NSIZES; k++) {
				if (!sweep[i].ok[k])
					continue;
				lost0 = sweep[i].lost ? sweep[i].lost() : -1;
				crew_start(&cr, sweep[i].fn, &sweep[i].z[k], sweep[i].n, 1);
				crew_join(&cr);
				ns = (double)crew_span(&cr) / sweep[i].n;
				lost1 = sweep[i].lost ? sweep[i].lost() : -1;
				if (lost0 < 0 || lost1 < 0 || sweep[i].lost_sum[k] < 0)
					sweep[i].lost_sum[k] = -1;
				else
					sweep[i].lost_sum[k] += lost1 - lost0;
				printf("S %s %zu %u %.1f\n", sweep[i].name, sweep_sizes[k], r, ns);
				fflush(stdout);
			}
	/* L PATH SIZE LOST WRITTEN: the events its session lost, all repeats */
	for (i = 0; i < nsweep; i++)
		for (k = 0; k < NSIZES; k++)
			if (sweep[i].ok[k] && sweep[i].lost && sweep[i].lost_sum[k] >= 0)
				printf("L %s %zu %lld %lld\n", sweep[i].name, sweep_sizes[k],
				       sweep[i].lost_sum[k], (long long)sweep[i].n * sweep_reps);
	nsweep = 0;
}

static int sweep_wanted(void)
{
	return !only || !strcmp(only, "sweep");
}

/* user_events' sized event, registered and enabled; 0 if it can be used. */
static int setup_ue_sized(void)
{
	if (ue_register(&ue_sized, "nttrace_bench_sized __rel_loc char[] data")) {
		printf("# sweep: user_events: not available (%s)\n", strerror(errno));
		return -1;
	}
	if (write_file(TRACING "/events/user_events/nttrace_bench_sized/enable", "1") ||
	    !(ue_sized.enabled & 1)) {
		printf("# sweep: user_events: cannot enable the sized event\n");
		return -1;
	}
	return 0;
}

/*
 * Bytes an event costs beyond its payload, measured from a file: @n events
 * of 64 bytes (TraceMessage with SEQUENCE | TIMESTAMP | SYSTEMINFO, or
 * EventWrite with one data descriptor: @ew) written into a session that
 * writes @file, then the file read back with nttrace's ETL reader: each
 * record's size less its data (the record header, padding included), and
 * the file's size over the events it holds less the payload (record
 * headers, buffer headers, the unused tails of buffers: what the disk
 * pays). The writer pauses every 1000 events so that nothing is lost.
 */
static struct ew_ctx ew_ovh;

static void overhead_one(const char *what, TRACEHANDLE h, int ew, long n, const char *file)
{
	struct nttrace_etl_reader *rd;
	struct nttrace_etl_event ev;
	unsigned long long recs = 0, hdr_min = ~0ULL, hdr_max = 0, fsize = 0;
	struct tm_ctx tm = { h, TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_TIMESTAMP |
				TRACE_MESSAGE_SYSTEMINFO };
	struct props pr;
	long i, failed = 0;
	FILE *f;

	for (i = 0; i < n; i++) {
		failed += ew ? path_event_write(&ew_ovh, 1) : path_trace_message(&tm, 1);
		if (i % 1000 == 999)
			usleep(2000);
	}
	props_init(&pr, NULL, 0);
	ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP);
	if (recorder)
		waitpid(recorder, NULL, 0);
	recorder = 0;
	if (nttrace_etl_open(&rd, file, NULL, NULL)) {
		printf("# overhead %s: cannot read %s\n", what, file);
		return;
	}
	while (nttrace_etl_next(rd, &ev) == 1) {
		if (ev.data_len != PAYLOAD || (ew ? !ev.event_header : !ev.message))
			continue;	/* the file's own header events */
		recs++;
		hdr_min = ev.size - ev.data_len < hdr_min ? ev.size - ev.data_len : hdr_min;
		hdr_max = ev.size - ev.data_len > hdr_max ? ev.size - ev.data_len : hdr_max;
	}
	nttrace_etl_close(rd);
	f = fopen(file, "rb");
	if (f && !fseek(f, 0, SEEK_END))
		fsize = (unsigned long long)ftell(f);
	if (f)
		fclose(f);
	unlink(file);
	if (!recs) {
		printf("# overhead %s: no event of %d bytes in %s\n", what, PAYLOAD, file);
		return;
	}
	/* M KEY events file_bytes header_min header_max lost failed buffer_kb */
	printf("M overhead_%s %llu %llu %llu %llu %lu %ld %u\n", what, recs, fsize, hdr_min,
	       hdr_max, (unsigned long)pr.p.EventsLost, failed, (unsigned)pr.p.BufferSize);
}

static const char *ovh_dir(void)
{
	return getenv("BENCH_TMP") ? getenv("BENCH_TMP") : "/tmp";
}

/* A kernel session recorded to a file by `nttrace record`. */
static void overhead_kernel(const char *tool, int ew, long n)
{
	struct props pr;
	TRACEHANDLE h;
	char file[256];
	GUID g = bench_guid(0x63);

	snprintf(file, sizeof(file), "%s/nttrace-bench-ovh.etl", ovh_dir());
	props_init(&pr, NULL, 0);
	if (StartTraceA(&h, "bench-ovh", &pr.p) != ERROR_SUCCESS) {
		printf("# overhead: StartTrace failed: %u\n", (unsigned)GetLastError());
		return;
	}
	if (ew && (EnableTraceEx2(h, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, ~0ULL, 0, 0,
				  NULL) != ERROR_SUCCESS || !EventEnabled(ew_ovh.h, &ew_ovh.d)))
		printf("# overhead: the provider is not enabled\n");
	recorder = fork();
	if (recorder == 0) {
		execl(tool, tool, "record", "bench-ovh", "-o", file, "--quiet", (char *)NULL);
		_exit(127);
	}
	usleep(300000);
	overhead_one(ew ? "ew_kernel" : "tm_kernel", h, ew, n, file);
}

/* The user-mode logger writing the file itself. */
static void overhead_umlogger(int ew, long n)
{
	struct props pr;
	TRACEHANDLE h;
	GUID g = bench_guid(0x63);

	props_init(&pr, NULL, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	snprintf(pr.log_file, sizeof(pr.log_file), "%s/nttrace-bench-um.etl", ovh_dir());
	pr.p.LogFileNameOffset = offsetof(struct props, log_file);
	if (StartTraceA(&h, "bench-um-ovh", &pr.p) != ERROR_SUCCESS) {
		printf("# overhead: user-mode logger: StartTrace failed: %u\n",
		       (unsigned)GetLastError());
		return;
	}
	if (ew && (EnableTraceEx2(h, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, ~0ULL, 0, 0,
				  NULL) != ERROR_SUCCESS || !EventEnabled(ew_ovh.h, &ew_ovh.d)))
		printf("# overhead: the provider is not enabled\n");
	overhead_one(ew ? "ew_umlogger" : "tm_umlogger", h, ew, n, pr.log_file);
}

/* The user-mode logger's EventsLost so far (QUERY). */
static long long umlogger_lost(void)
{
	struct props pr;

	props_init(&pr, NULL, 0);
	if (ControlTraceA(umlogger.h, NULL, &pr.p, EVENT_TRACE_CONTROL_QUERY) != ERROR_SUCCESS)
		return -1;
	return pr.p.EventsLost;
}

/* The kernel session's events lost and overwritten so far (QUERY). */
static long long kernel_lost(void)
{
	struct nttrace_logger_info info;

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	nttrace_set_name(&info, "bench");
	if (nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY))
		return -1;
	return (long long)(info.events_lost + info.events_overwritten);
}

/*
 * The events LTTng discarded in the trace under @dir, read as babeltrace2
 * reads them: each stream's packets carry a running count of the events
 * its ring buffer discarded (the packet context's events_discarded), and
 * the session's index files repeat it (index/CHANNEL_CPU.idx, the CTF
 * packet index: a big-endian header of magic 0xC1F1DCC1, major and minor
 * version and entry size, then an entry a packet, of big-endian 64-bit
 * fields whose sixth is that count). A stream's last entry holds its
 * count, and the trace's is their sum. `lttng list` and `lttng stop` have
 * printed this sum with bit 63 set after runs of 4 threads on 2 CPUs, so
 * they are not asked. -1 if a file cannot be read, or there is none.
 */
static long long discarded_sum;
static unsigned int discarded_files;

static int add_index(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	uint8_t h[16], e[48];
	uint32_t entry;
	off_t last;
	uint64_t n = 0;
	int fd, i;

	(void)ftw;
	if (type != FTW_F || strlen(path) < 4 || strcmp(path + strlen(path) - 4, ".idx") ||
	    !strstr(path, "/index/"))
		return 0;
	fd = open(path, O_RDONLY);
	if (fd < 0 || pread(fd, h, sizeof(h), 0) != sizeof(h) ||
	    ((uint32_t)h[0] << 24 | h[1] << 16 | h[2] << 8 | h[3]) != 0xC1F1DCC1u) {
		if (fd >= 0)
			close(fd);
		discarded_sum = -1;
		return 1;
	}
	entry = (uint32_t)h[12] << 24 | h[13] << 16 | h[14] << 8 | h[15];
	last = st->st_size - (st->st_size - (off_t)sizeof(h)) % (entry ? entry : 1) - entry;
	if (entry >= sizeof(e) && last >= (off_t)sizeof(h)) {
		if (pread(fd, e, sizeof(e), last) != sizeof(e)) {
			close(fd);
			discarded_sum = -1;
			return 1;
		}
		for (i = 40; i < 48; i++)
			n = n << 8 | e[i];
	}
	close(fd);
	discarded_sum += n;
	discarded_files++;
	return 0;
}

static long long lttng_discarded(const char *dir)
{
	discarded_sum = 0;
	discarded_files = 0;
	if (nftw(dir, add_index, 16, FTW_PHYS) || !discarded_files)
		return -1;
	return discarded_sum;
}

/*
 * nttrace_bench burst SESSION N: N TraceMessage events of PAYLOAD bytes
 * (SEQUENCE, time stamp, system information) into the running kernel
 * session SESSION, split over one thread a CPU, as fast as they go, for
 * scripts/bench-relay; prints "burst WRITTEN FAILED NS" (the writes' span).
 */
static int burst(const char *session, long n)
{
	struct props pr;
	struct tm_ctx ctx;
	struct crew cr;
	long failed;
	ULONG err;

	props_init(&pr, NULL, 0);
	err = QueryTraceA(0, session, &pr.p);
	if (err != ERROR_SUCCESS) {
		fprintf(stderr, "burst: %s: QueryTrace failed: %lu\n", session, (unsigned long)err);
		return 1;
	}
	ctx.h = pr.p.Wnode.HistoricalContext;
	ctx.flags = TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_SYSTEMINFO;
	crew_start(&cr, path_trace_message, &ctx, n / ncpus, ncpus);
	failed = crew_join(&cr);
	printf("burst %ld %ld %llu\n", n / ncpus * ncpus, failed,
	       (unsigned long long)crew_span(&cr));
	return 0;
}

#ifdef NTTRACE_BENCH_LTTNG
/*
 * LTTng's discarded events so far in the session scripts/bench made (named
 * in BENCH_LTTNG_SESSION, its trace in BENCH_LTTNG_DIR), untimed: `lttng
 * stop` writes every packet out (the counts of the last ones with them),
 * then the index files are read, and the session started again.
 */
static long long lttng_lost(void)
{
	const char *session = getenv("BENCH_LTTNG_SESSION");
	const char *dir = getenv("BENCH_LTTNG_DIR");
	char cmd[512];
	long long n;

	if (!session || !dir)
		return -1;
	snprintf(cmd, sizeof(cmd), "lttng stop '%s' > /dev/null 2>&1", session);
	if (system(cmd))
		return -1;
	n = lttng_discarded(dir);
	snprintf(cmd, sizeof(cmd), "lttng start '%s' > /dev/null 2>&1", session);
	if (system(cmd))
		return -1;
	return n;
}

/*
 * nttrace_bench_lttng lttng-burst N: N LTTng-UST events of PAYLOAD bytes
 * (the msg tracepoint), one thread a CPU, as fast as they go, for
 * scripts/bench-relay (burst's peer).
 */
static int lttng_burst(long n)
{
	struct crew cr;

	crew_start(&cr, path_lttng, NULL, n / ncpus, ncpus);
	crew_join(&cr);
	printf("burst %ld 0 %llu\n", n / ncpus * ncpus, (unsigned long long)crew_span(&cr));
	return 0;
}

/* nttrace_bench lttng-overhead N: N 64-byte events, paced (scripts/bench). */
static void lttng_overhead(long n)
{
	long i;

	for (i = 0; i < n; i++) {
		lttng_ust_tracepoint(nttrace_bench, msg, (const char *)payload);
		if (i % 1000 == 999)
			usleep(2000);
	}
}

/*
 * nttrace_bench lttng-trace N LEN (scripts/bench-read): a trace of N
 * nttrace_bench:sized events carrying LEN bytes (the payload of
 * tests/bench/read.c's file, for babeltrace2 to read beside nttrace's
 * readers), one thread on each CPU so that the trace has a stream per CPU
 * to merge, as the file has. Unpaced: the script's channel blocks
 * (LTTNG_UST_ALLOW_BLOCKING), so that none is discarded.
 */
static const char read_text[] = "abcdefghijklmnop";

static long path_lttng_text(void *arg, long n)
{
	unsigned int len = *(unsigned int *)arg;
	long i;

	for (i = 0; i < n; i++)
		lttng_ust_tracepoint(nttrace_bench, sized, read_text, len);
	return 0;
}

static int lttng_trace(long n, unsigned int len)
{
	struct crew cr;

	if (len > sizeof(read_text) - 1) {
		fprintf(stderr, "lttng-trace: at most %zu bytes\n", sizeof(read_text) - 1);
		return 2;
	}
	crew_start(&cr, path_lttng_text, &len, n / ncpus, ncpus);
	crew_join(&cr);
	/* What the even split left over. */
	path_lttng_text(&len, n % ncpus);
	return 0;
}
#endif

/*
 * The sweep's host paths: the user-mode logger with its defaults (as a
 * new user has it), LTTng-UST's sized event (scripts/bench's session
 * records it), then the user-mode logger's overhead per event.
 */
static void sweep_host(void)
{
	GUID g = bench_guid(0x62);

	setup_umlogger("sweep_umlogger", NULL, 0);
	ncases = 0;		/* its 64-byte case is not run again */
	if (umlogger_name) {
		printf("M mem_umlogger %u %u 1\n", (unsigned)umlogger_bufs,
		       (unsigned)umlogger_kb);
		add_sweep("tm_umlogger", sz_trace_message, &umlogger, n_sweep_user, 0,
			  umlogger_lost);
		if (EnableTraceEx2(umlogger.h, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, ~0ULL,
				   0, 0, NULL) == ERROR_SUCCESS && EventEnabled(ew_um.h, &ew_um.d))
			add_sweep("ew_umlogger", sz_event_write, &ew_um, n_sweep_user, 0,
				  umlogger_lost);
	}
#ifdef NTTRACE_BENCH_LTTNG
	/* The paths above' discards, apart from the sweep's (report.awk). */
	if (lttng_lost() >= 0)
		printf("I lttng_ust discarded_before_sweep %lld\n", lttng_lost());
	add_sweep("lttng_ust", sz_lttng, NULL, n_sweep_user, 0, lttng_lost);
#endif
	run_sweep();
	stop_umlogger();
	if (ew_register(&ew_ovh, "overhead", 0x63))
		return;
	overhead_umlogger(0, n_user / 20);
	overhead_umlogger(1, n_user / 20);
}

/* The sweep's VM paths (run_sweep()), then the VM's memory and overhead. */
static void sweep_vm(void)
{
	if (!sweep_wanted())
		return;
	if (recorder)
		add_sweep("tm_kernel", sz_trace_message, &kernel_seq, n_sweep_sys, 0,
			  kernel_lost);
	if (recorder && EventEnabled(ew_kernel.h, &ew_kernel.d))
		add_sweep("ew_kernel", sz_event_write, &ew_kernel, n_sweep_sys, 0,
			  kernel_lost);
	if (!setup_ue_sized())
		add_sweep("user_events", sz_user_events, &ue_sized, n_sweep_sys, 1, NULL);
	if (marker_fd >= 0)
		add_sweep("trace_marker", sz_write, &marker_fd, n_sweep_sys, 1, NULL);
	if (device_fd >= 0)
		add_sweep("ioctl_noop", sz_ioctl, &device_fd, n_sweep_sys, 0, NULL);
	run_sweep();
	write_file(TRACING "/events/user_events/nttrace_bench_sized/enable", "0");
}

static void overhead_vm(const char *tool)
{
	char kb[32] = "";
	int fd;

	if (!sweep_wanted())
		return;
	fd = open(TRACING "/buffer_size_kb", O_RDONLY);
	if (fd >= 0) {
		ssize_t r = read(fd, kb, sizeof(kb) - 1);

		kb[r > 0 ? r : 0] = 0;
		kb[strcspn(kb, " \n")] = 0;
		close(fd);
		/* M mem_ftrace KB_A_CPU CPUS: trace_marker's and user_events' ring */
		printf("M mem_ftrace %s %ld\n", kb, sysconf(_SC_NPROCESSORS_ONLN));
	}
	if (ew_register(&ew_ovh, "overhead", 0x63))
		return;
	overhead_kernel(tool, 0, n_syscall / 2);
	overhead_kernel(tool, 1, n_syscall / 2);
}

int main(int argc, char **argv)
{
	const char *tool = getenv("NTTRACE_TOOL");
	int i;

	for (i = 0; i < PAYLOAD; i++)
		payload[i] = (uint8_t)i;
	only = getenv("BENCH_ONLY");
	ncpus = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
	if (getenv("BENCH_REPS"))
		reps = atoi(getenv("BENCH_REPS"));
	if (getenv("BENCH_SWEEP_REPS"))
		sweep_reps = atoi(getenv("BENCH_SWEEP_REPS"));
	if (getenv("BENCH_SCALE")) {
		n_sweep_sys = n_sweep_sys * atoi(getenv("BENCH_SCALE")) / 100 + 1;
		n_sweep_user = n_sweep_user * atoi(getenv("BENCH_SCALE")) / 100 + 1;
		n_syscall = n_syscall * atoi(getenv("BENCH_SCALE")) / 100;
		n_user = n_user * atoi(getenv("BENCH_SCALE")) / 100;
		n_fast = n_fast * atoi(getenv("BENCH_SCALE")) / 100;
		n_rt = n_rt * atoi(getenv("BENCH_SCALE")) / 100;
	}
	if (argc == 4 && !strcmp(argv[1], "burst"))
		return burst(argv[2], atol(argv[3]));
	if (argc == 2 && !strcmp(argv[1], "now")) {
		/* CLOCK_MONOTONIC in ns, for a shell's timing (scripts/bench-relay). */
		printf("%llu\n", (unsigned long long)now_ns());
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "lttng-discarded")) {
		long long n = lttng_discarded(argv[2]);

		if (n < 0) {
			fprintf(stderr, "lttng-discarded: no CTF index read under %s\n", argv[2]);
			return 1;
		}
		printf("%lld\n", n);
		return 0;
	}
#ifdef NTTRACE_BENCH_LTTNG
	if (argc == 3 && !strcmp(argv[1], "lttng-overhead")) {
		lttng_overhead(atol(argv[2]));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "lttng-burst"))
		return lttng_burst(atol(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "lttng-trace"))
		return lttng_trace(atol(argv[2]), atoi(argv[3]));
#endif
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
		setup_umlogger("tm_umlogger", NULL, 0);
		setup_event_write(&ew_um, "ew_umlogger", 0x62, umlogger.h, n_user);
		setup_disabled();
		setup_tracelogging(tl_off, "tl_disabled", 0x63, 0, n_fast);
		setup_tracelogging(tl_kernel, "tl_kernel", 0x64, kernel_seq.h, n_syscall);
		setup_tracelogging(tl_um, "tl_umlogger", 0x65, umlogger.h, n_user);
		setup_realtime();
		run_cases();
		query_kernel_session();
		sweep_vm();
		stop_umlogger();
		stop_kernel_session();
		recorder = 0;
		write_file(TRACING "/events/user_events/nttrace_bench/enable", "0");
		overhead_vm(tool ? tool : "u64/nttrace");
		return 0;
	}
	printf("I cpus online %d\n", ncpus);
	/*
	 * The user-mode logger is one a process: a round for each file it
	 * writes, LTTng-UST (its session on disk, scripts/bench) in both.
	 * On tmpfs: the costs, and the default configuration's losses at one
	 * thread's full rate (the target: none). On disk: 1, 2 and 4 threads
	 * beside LTTng-UST's per-CPU buffers, and both one's losses.
	 */
	setup_umlogger("tm_umlogger", "/dev/shm", 0);
	setup_event_write(&ew_um, "ew_umlogger", 0x62, umlogger.h, n_user);
	setup_disabled();
	setup_tracelogging(tl_off, "tl_disabled", 0x63, 0, n_fast);
	setup_tracelogging(tl_um, "tl_umlogger", 0x65, umlogger.h, n_user);
#ifdef NTTRACE_BENCH_LTTNG
	add_case("lttng_ust", path_lttng, NULL, n_user, 1);
	add_case("lttng_disabled", path_lttng_off, NULL, n_fast, 1);
#else
	printf("# lttng_ust: not built in\n");
#endif
	run_cases();
	stop_umlogger();
#ifdef NTTRACE_BENCH_LTTNG
	printf("I lttng_ust discarded_tmpfs_round %lld\n", lttng_lost());
#endif
	setup_umlogger("tm_umlogger_disk", getenv("BENCH_TMP") ? getenv("BENCH_TMP") : "/tmp",
		       1);
#ifdef NTTRACE_BENCH_LTTNG
	add_case("lttng_ust", path_lttng, NULL, n_user, 1);
	add_case("lttng_ust", path_lttng, NULL, n_user, 2);
	add_case("lttng_ust", path_lttng, NULL, n_user, 4);
#endif
	run_cases();
	stop_umlogger();
#ifdef NTTRACE_BENCH_LTTNG
	printf("I lttng_ust discarded_disk_round %lld\n", lttng_lost());
#endif
	if (sweep_wanted())
		sweep_host();
	return 0;
}
