// SPDX-License-Identifier: GPL-2.0
/*
 * Real-time consumers, 64- and 32-bit: OpenTrace of a live session and
 * ProcessTrace as events arrive (uapi/nttrace.h "The consumer side",
 * userlib/consumer/opentrace.c).
 * - a stream of 100,000 events reaches a real-time consumer in order,
 *   every one delivered or counted lost, exactly;
 * - a session that is both real-time and file: the file has every event
 *   the session took, a slow real-time consumer loses whole buffers, and
 *   what it lost is counted exactly (EventsLost, RealTimeBuffersLost);
 * - CloseTrace from another thread ends a waiting ProcessTrace at once;
 * - a consumer killed mid-session leaves the session to the next one;
 *   slots run out at NTTRACE_MAX_CONSUMERS;
 * - the errors: no such session, no name, no right; the ATTACH ioctl's.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/evntcons.h>
#include <nttrace/evntrace.h>

#include "emit.h"
#include "props.h"
#include "state.h"
#include "tasks.h"

#define BITS ((int)sizeof(void *) * 8)
#define N_STREAM 100000

struct rt {
	TRACEHANDLE h;
	EVENT_TRACE_LOGFILEA lf;
	pthread_t thread;
	ULONG result;
	uint64_t got, out_of_order, last, buffers, lo, hi;
	unsigned int slow_us;	/* sleep in each BufferCallback */
	/*
	 * With slow_us: the first BufferCallback also waits until the writer
	 * is done, so that the logger's pace surely overtakes the consumer,
	 * however fast the host runs either.
	 */
	volatile int writer_done;
	int holding;		/* with slow_us: in its first BufferCallback (atomic) */
	int delivered;		/* an event came (atomic) */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Events carry a 64-bit sequence number: count them, and their order. */
static void WINAPI on_event(PEVENT_RECORD er)
{
	struct rt *rt = er->UserContext;
	uint64_t seq;

	if (er->UserDataLength != sizeof(seq))
		return;
	memcpy(&seq, er->UserData, sizeof(seq));
	if (rt->got && seq <= rt->last)
		rt->out_of_order++;
	if (seq >= rt->lo && seq <= rt->hi)
		rt->got++;
	__atomic_store_n(&rt->delivered, 1, __ATOMIC_RELEASE);
	rt->last = seq;
}

static ULONG WINAPI on_buffer(PEVENT_TRACE_LOGFILEA lf)
{
	struct rt *rt = lf->Context;

	rt->buffers++;
	if (rt->slow_us)
		usleep(rt->slow_us);
	if (rt->slow_us && rt->buffers == 1)
		__atomic_store_n(&rt->holding, 1, __ATOMIC_RELEASE);
	while (rt->slow_us && rt->buffers == 1 && !__atomic_load_n(&rt->writer_done, __ATOMIC_ACQUIRE))
		usleep(1000);
	return TRUE;
}

/* OpenTrace of session @name, real-time; the handle's last error if not. */
static ULONG rt_open(struct rt *rt, const char *name)
{
	memset(&rt->lf, 0, sizeof(rt->lf));
	rt->lf.LoggerName = (LPSTR)name;
	rt->lf.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME |
				  PROCESS_TRACE_MODE_EVENT_RECORD;
	rt->lf.EventRecordCallback = on_event;
	rt->lf.BufferCallback = on_buffer;
	rt->lf.Context = rt;
	rt->lo = 1;
	rt->hi = ~0ULL;
	rt->h = OpenTraceA(&rt->lf);
	return rt->h == INVALID_PROCESSTRACE_HANDLE ? GetLastError() : ERROR_SUCCESS;
}

static void *rt_process(void *arg)
{
	struct rt *rt = arg;

	rt->result = ProcessTrace(&rt->h, 1, NULL, NULL);
	return NULL;
}

static void rt_start(struct rt *rt)
{
	pthread_create(&rt->thread, NULL, rt_process, rt);
}

/* Write events @first..@last (a sequence number each) to @logger. */
static uint64_t write_seq(uint32_t logger, uint64_t first, uint64_t last)
{
	uint64_t seq, failed = 0;

	for (seq = first; seq <= last; seq++)
		if (emit(logger, TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_SYSTEMINFO, 1,
			 &seq, sizeof(seq)) != STATUS_SUCCESS)
			failed++;
	return failed;
}

static int query(uint32_t id, struct nttrace_logger_info *info)
{
	memset(info, 0, sizeof(*info));
	info->logger_id = id;
	return nttrace_control(info, EVENT_TRACE_CONTROL_QUERY);
}

/* Publish @logger's partly filled buffers now (FlushTrace). */
static void flush_session(uint32_t logger)
{
	struct nttrace_logger_info info;

	memset(&info, 0, sizeof(info));
	info.logger_id = logger;
	nttrace_control(&info, EVENT_TRACE_CONTROL_FLUSH);
}

/*
 * Keep this thread on CPU 0 (@on), or let it run anywhere again: a writer
 * that moves leaves its events in two CPUs' buffers, and a real-time
 * consumer merges only the buffers published so far, so it may meet the
 * later CPU's first (Windows' real-time delivery has the same property).
 */
static void pin(int on)
{
	cpu_set_t set;
	int c;

	CPU_ZERO(&set);
	for (c = 0; c < (on ? 1 : CPU_SETSIZE); c++)
		CPU_SET(c, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* ---- errors ---- */

TEST_F(nttrace, errors)
{
	struct nttrace_logger_info info;
	struct rt rt = { 0 };
	int status;
	pid_t child;

	tap_eq(rt_open(&rt, "rt-no-such-session"), ERROR_WMI_INSTANCE_NOT_FOUND,
	       "%d-bit: no such session: ERROR_WMI_INSTANCE_NOT_FOUND", BITS);
	tap_eq(rt_open(&rt, ""), ERROR_INVALID_PARAMETER,
	       "%d-bit: no LoggerName: ERROR_INVALID_PARAMETER", BITS);
	if (start_session("rt-perm", 4, 2, EVENT_TRACE_REAL_TIME_MODE, &info))
		return;
	child = fork();
	if (child == 0) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(2);
		_exit(rt_open(&rt, "rt-perm") == ERROR_ACCESS_DENIED ? 0 : 1);
	}
	waitpid(child, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "%d-bit: uid 65534: ERROR_ACCESS_DENIED", BITS);
	stop_session(info.logger_id);
}

/* The ATTACH ioctl: its flags, one logger, and acks of one's own. */
TEST_F(nttrace, attach_abi)
{
	struct nttrace_logger_info info;
	struct nttrace_consumer *logger, *rt;
	struct nttrace_attach a;
	int fd;

	if (start_session("rt-abi", 4, 2, EVENT_TRACE_REAL_TIME_MODE, &info))
		return;
	fd = open(NTTRACE_DEVICE, O_RDWR);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.logger_id = info.logger_id;
	a.flags = 2;
	tap_ok(ioctl(fd, NTTRACE_IOC_ATTACH, &a) < 0 && errno == EINVAL,
	       "%d-bit: ATTACH with an unknown flag: EINVAL", BITS);
	a.flags = NTTRACE_ATTACH_REAL_TIME;
	a.reserved = 1;
	tap_ok(ioctl(fd, NTTRACE_IOC_ATTACH, &a) < 0 && errno == EINVAL,
	       "%d-bit: ATTACH with reserved set: EINVAL", BITS);
	close(fd);

	tap_eq(nttrace_consumer_open(&logger, info.logger_id), 0, "%d-bit: a logger", BITS);
	tap_eq(nttrace_consumer_open(&rt, info.logger_id), -EBUSY,
	       "%d-bit: a second logger: EBUSY", BITS);
	tap_eq(nttrace_consumer_attach(&rt, info.logger_id, NTTRACE_ATTACH_REAL_TIME), 0,
	       "%d-bit: a real-time consumer beside it", BITS);
	/* Each maps its own acks: one's position is not the other's. */
	nttrace_consumer_ack(rt, 0)->consumed = 12345;
	tap_eq(nttrace_consumer_ack(logger, 0)->consumed, 0,
	       "%d-bit: acks of one's own", BITS);
	nttrace_consumer_ack(rt, 0)->consumed = 0;
	nttrace_consumer_close(rt);
	nttrace_consumer_close(logger);
	stop_session(info.logger_id);
}

/* ---- CloseTrace from another thread ---- */

TEST_F(nttrace, close_other_thread)
{
	struct nttrace_logger_info info;
	struct rt rt = { 0 };
	double t0, took;

	if (start_session("rt-close", 4, 2, EVENT_TRACE_REAL_TIME_MODE, &info))
		return;
	if (!tap_eq(rt_open(&rt, "rt-close"), ERROR_SUCCESS, "%d-bit: OpenTrace", BITS)) {
		stop_session(info.logger_id);
		return;
	}
	/*
	 * ProcessTrace is running once it has delivered an event: then it
	 * waits for more, which never come. Flushed, not left to the timer.
	 */
	rt.hi = 1;
	rt_start(&rt);
	write_seq(info.logger_id, 1, 1);
	flush_session(info.logger_id);
	while (!__atomic_load_n(&rt.delivered, __ATOMIC_ACQUIRE))
		sched_yield();
	t0 = now();
	tap_eq(CloseTrace(rt.h), ERROR_CTX_CLOSE_PENDING,
	       "%d-bit: CloseTrace during ProcessTrace: ERROR_CTX_CLOSE_PENDING", BITS);
	/* ProcessTrace must end with no more events: else this join hangs. */
	pthread_join(rt.thread, NULL);
	took = now() - t0;
	printf("# %d-bit: ProcessTrace returned %.3f s after CloseTrace\n", BITS, took);
	tap_ok(1, "%d-bit: ... and ProcessTrace returns, with no event after it", BITS);
	tap_eq(rt.result, ERROR_SUCCESS, "%d-bit: ProcessTrace: ERROR_SUCCESS", BITS);
	tap_eq(CloseTrace(rt.h), ERROR_INVALID_HANDLE, "%d-bit: the handle is gone", BITS);
	stop_session(info.logger_id);
}

/* ---- a consumer that dies; the slots ---- */

/* Whether process @pid sleeps (state S in /proc/PID/stat): it waits. */
static int sleeps(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	return task_sleeps(path);
}

TEST_F(nttrace, dead_consumer)
{
	struct nttrace_logger_info info;
	struct rt rt = { 0 }, many[NTTRACE_MAX_CONSUMERS];
	int status = 0, i, opened = 0, attached[2];
	pid_t child, reaped = 0;
	char byte;

	if (start_session("rt-dead", 64, 4, EVENT_TRACE_REAL_TIME_MODE, &info))
		return;
	if (pipe(attached))
		goto out;
	fflush(stdout);
	child = fork();
	if (child == 0) {
		struct rt c = { 0 };

		close(attached[0]);
		if (rt_open(&c, "rt-dead") || write(attached[1], "a", 1) != 1)
			_exit(1);
		ProcessTrace(&c.h, 1, NULL, NULL);
		_exit(0);
	}
	/*
	 * Killed once it is attached and waits in ProcessTrace for events
	 * (the pipe says attached; then its only sleep is that wait), unless
	 * it ended first.
	 */
	close(attached[1]);
	if (read(attached[0], &byte, 1) == 1) {
		write_seq(info.logger_id, 1, 1000);
		while (!sleeps(child) && !(reaped = waitpid(child, &status, WNOHANG)))
			usleep(1000);	/* a pace for the poll, not a limit */
	}
	close(attached[0]);
	if (!reaped) {
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
	}
	tap_ok(WIFSIGNALED(status), "%d-bit: a consumer killed mid-session", BITS);

	/* The session is whole: the next consumer gets what follows. */
	if (!tap_eq(rt_open(&rt, "rt-dead"), ERROR_SUCCESS, "%d-bit: the next consumer opens",
		    BITS))
		goto out;
	rt.lo = 1001;
	rt.hi = 2000;
	rt_start(&rt);
	tap_eq(write_seq(info.logger_id, 1001, 2000), 0, "%d-bit: writes go on", BITS);
	stop_session(info.logger_id);
	pthread_join(rt.thread, NULL);
	tap_eq(rt.got, 1000, "%d-bit: ... and it gets every later event", BITS);
	CloseTrace(rt.h);

	/* NTTRACE_MAX_CONSUMERS - 1 real-time consumers (one slot: the logger). */
	if (start_session("rt-slots", 4, 2, EVENT_TRACE_REAL_TIME_MODE, &info))
		return;
	for (i = 0; i < NTTRACE_MAX_CONSUMERS - 1; i++)
		opened += rt_open(&many[i], "rt-slots") == ERROR_SUCCESS;
	tap_eq(opened, NTTRACE_MAX_CONSUMERS - 1, "%d-bit: %d real-time consumers at once",
	       BITS, NTTRACE_MAX_CONSUMERS - 1);
	tap_eq(rt_open(&rt, "rt-slots"), ERROR_BUSY, "%d-bit: one more: ERROR_BUSY", BITS);
	CloseTrace(many[0].h);
	tap_eq(rt_open(&rt, "rt-slots"), ERROR_SUCCESS, "%d-bit: a slot given back is taken",
	       BITS);
	CloseTrace(rt.h);
	for (i = 1; i < NTTRACE_MAX_CONSUMERS - 1; i++)
		CloseTrace(many[i].h);
out:
	stop_session(info.logger_id);
}

/* ---- real-time and file at once; a slow real-time consumer ---- */

static uint64_t file_events;

static void WINAPI count_file(PEVENT_RECORD er)
{
	if (er->UserDataLength == sizeof(uint64_t))
		file_events++;
}

TEST_F(nttrace, both)
{
	const char *path = "/tmp/rt-both.etl";
	struct nttrace_logger_info info;
	EVENT_TRACE_LOGFILEA lf;
	struct props pr;
	struct rt rt = { 0 };
	TRACEHANDLE session, fh;
	uint64_t failed = 0, n = 0;
	uint32_t target;

	props_init(&pr, path, EVENT_TRACE_REAL_TIME_MODE | EVENT_TRACE_FILE_MODE_SEQUENTIAL);
	pr.p.BufferSize = 4;
	pr.p.MinimumBuffers = 2;
	pr.p.MaximumBuffers = 4;
	if (!tap_eq(StartTraceA(&session, "rt-both", &pr.p), ERROR_SUCCESS,
		    "%d-bit: StartTrace, real time and a file", BITS))
		return;
	if (!tap_eq(rt_open(&rt, "rt-both"), ERROR_SUCCESS, "%d-bit: OpenTrace of it", BITS))
		goto stop;
	/* A slow consumer: the logger's pace, not its, reuses the buffers. */
	rt.slow_us = 20000;
	rt_start(&rt);
	/* One CPU, as above: in order (a migrated writer failed this once). */
	pin(1);
	/*
	 * Written in batches until the consumer holds its first buffer (its
	 * BufferCallback then waits for writer_done), then until the logger
	 * has written more buffers since than a CPU's ring holds, twice over:
	 * some of those took the place of buffers the consumer had not read,
	 * however fast the host runs the writer, the logger and the consumer
	 * (a fixed count once left the logger too few buffers to reuse any).
	 */
	while (!__atomic_load_n(&rt.holding, __ATOMIC_ACQUIRE)) {
		failed += write_seq((uint32_t)session, n + 1, n + 100);
		n += 100;
	}
	if (!query((uint32_t)session, &info)) {
		target = info.buffers_written + 2 * pr.p.MaximumBuffers + 1;
		do {
			failed += write_seq((uint32_t)session, n + 1, n + 100);
			n += 100;
		} while (!query((uint32_t)session, &info) && info.buffers_written < target);
	}
	pin(0);
	__atomic_store_n(&rt.writer_done, 1, __ATOMIC_RELEASE);
	if (!query((uint32_t)session, &info))
		printf("# %d-bit: %llu events, %llu refused, %u buffers, %u lost to the "
		       "real-time consumer\n", BITS, (unsigned long long)n,
		       (unsigned long long)failed, info.buffers_written,
		       info.real_time_buffers_lost);
stop:
	props_init(&pr, NULL, 0);
	tap_eq(ControlTraceA(session, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS,
	       "%d-bit: stop (the logger has written the file)", BITS);
	if (rt.h == INVALID_PROCESSTRACE_HANDLE || !rt.h)
		return;
	pthread_join(rt.thread, NULL);
	tap_eq(rt.result, ERROR_SUCCESS, "%d-bit: the real-time ProcessTrace ends", BITS);
	tap_ok(pr.p.RealTimeBuffersLost > 0,
	       "%d-bit: the slow consumer lost buffers (%u)", BITS, pr.p.RealTimeBuffersLost);
	tap_eq(rt.lf.LogfileHeader.BuffersLost, pr.p.RealTimeBuffersLost,
	       "%d-bit: its BuffersLost are the session's RealTimeBuffersLost", BITS);
	tap_eq(rt.got + rt.lf.EventsLost, n,
	       "%d-bit: real time: delivered + EventsLost = written", BITS);
	tap_eq(rt.out_of_order, 0, "%d-bit: real time: in order", BITS);
	CloseTrace(rt.h);

	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = count_file;
	fh = OpenTraceA(&lf);
	tap_eq(ProcessTrace(&fh, 1, NULL, NULL), ERROR_SUCCESS, "%d-bit: read the file", BITS);
	CloseTrace(fh);
	tap_eq(file_events + pr.p.EventsLost, n,
	       "%d-bit: the file has every event the session took", BITS);
	unlink(path);
}

/* ---- a stream of N_STREAM events, in order, none lost uncounted ---- */

TEST_F(nttrace, stream)
{
	struct nttrace_logger_info info;
	struct rt rt = { 0 };
	uint64_t failed;
	double t0, t1;

	if (!tap_eq(start_session("rt-stream", 64, 16, EVENT_TRACE_REAL_TIME_MODE, &info),
		    0, "%d-bit: start a real-time session", BITS))
		return;
	tap_eq(info.flush_timer, 1, "%d-bit: real-time without a flush timer: 1 s", BITS);
	if (!tap_eq(rt_open(&rt, "rt-stream"), ERROR_SUCCESS, "%d-bit: OpenTrace, real time",
		    BITS)) {
		stop_session(info.logger_id);
		return;
	}
	tap_eq(rt.lf.LogfileHeader.BufferSize, 64 * 1024, "%d-bit: LogfileHeader.BufferSize",
	       BITS);
	tap_eq(rt.lf.LogfileHeader.NumberOfProcessors, info.nr_cpus,
	       "%d-bit: LogfileHeader.NumberOfProcessors", BITS);
	tap_ok(rt.lf.LogfileHeader.LoggerName &&
	       rt.lf.LogfileHeader.LoggerName[0] == 'r' &&
	       rt.lf.LogfileHeader.LoggerName[9] == 0,
	       "%d-bit: LogfileHeader.LoggerName is the session's", BITS);
	tap_eq(rt.lf.LogfileHeader.LogFileMode, EVENT_TRACE_REAL_TIME_MODE,
	       "%d-bit: LogfileHeader.LogFileMode", BITS);
	rt_start(&rt);

	/* One CPU: the events then come in the order they were written. */
	pin(1);
	t0 = now();
	failed = write_seq(info.logger_id, 1, N_STREAM);
	t1 = now();
	stop_session(info.logger_id);
	pthread_join(rt.thread, NULL);
	pin(0);

	printf("# %d-bit: %d events in %.2f s (%.0f/s), %llu refused (ring full), "
	       "%llu buffers delivered\n", BITS, N_STREAM, t1 - t0, N_STREAM / (t1 - t0),
	       (unsigned long long)failed, (unsigned long long)rt.buffers);
	tap_eq(rt.result, ERROR_SUCCESS, "%d-bit: ProcessTrace ends with the session", BITS);
	tap_eq(rt.got + failed, N_STREAM,
	       "%d-bit: every event delivered, or refused and counted", BITS);
	tap_eq(rt.out_of_order, 0, "%d-bit: in order, no duplicate", BITS);
	tap_eq(rt.lf.EventsLost, failed, "%d-bit: EventsLost counts the refused", BITS);
	tap_eq(CloseTrace(rt.h), ERROR_SUCCESS, "%d-bit: CloseTrace", BITS);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	return harness_run(argc, argv);
}
