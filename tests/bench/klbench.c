// SPDX-License-Identifier: GPL-2.0
/*
 * What the NT Kernel Logger costs the machine it watches, run in
 * the bench kernel by scripts/bench-kernel-logger:
 *
 *   klbench cswitch N   N round trips between two threads on one CPU
 *                       through two pipes (2 N context switches); prints
 *                       "R cswitch NS" (nanoseconds a switch)
 *   klbench process N   N times fork, exec of a static program that exits
 *                       at once (/bin/busybox true) and wait; prints
 *                       "R process NS" (nanoseconds a process)
 *   klbench spin N      N units of CPU work (a million increments each) in
 *                       spin_work(), called through spin_middle(), both
 *                       with frame pointers, as a profiled program's hot
 *                       path; prints "R spin NS" (nanoseconds a unit)
 *   klbench start FLAGS start the NT Kernel Logger with group_mask[0]
 *                       FLAGS (a number), in BUFFERING mode (its rings
 *                       overwrite: no consumer is needed, nothing blocks)
 *   klbench stop        stop it; prints "I kernel_logger events_written N
 *                       events_lost N"
 *
 * The script measures each under no tracing, the NT Kernel Logger, ftrace's
 * events of the same tracepoints and `perf record` of them, in one boot.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/session.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

struct pingpong {
	int to_peer[2], to_main[2];
	long n;
};

static void *peer(void *arg)
{
	struct pingpong *p = arg;
	char c;
	long i;

	pin(0);
	for (i = 0; i < p->n; i++) {
		if (read(p->to_peer[0], &c, 1) != 1 || write(p->to_main[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

static int cswitch(long n)
{
	struct pingpong p = { .n = n };
	pthread_t th;
	uint64_t t0;
	char c = 'x';
	long i;

	if (pipe(p.to_peer) || pipe(p.to_main))
		return 1;
	pin(0);
	if (pthread_create(&th, NULL, peer, &p))
		return 1;
	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (write(p.to_peer[1], &c, 1) != 1 || read(p.to_main[0], &c, 1) != 1)
			return 1;
	printf("R cswitch %.1f\n", (double)(now_ns() - t0) / (2.0 * n));
	pthread_join(th, NULL);
	return 0;
}

static int process(long n)
{
	char *argv[] = { "true", NULL };
	uint64_t t0 = now_ns();
	long i;
	int status;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			execv("/bin/busybox", argv);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || status)
			return 1;
	}
	printf("R process %.0f\n", (double)(now_ns() - t0) / n);
	return 0;
}

static volatile unsigned long spun;

__attribute__((noinline)) static void spin_work(long n)
{
	long i;

	for (i = 0; i < n; i++)
		spun++;
}

/* Work after the call: no tail call, so the frame stays on the stack. */
__attribute__((noinline)) static void spin_middle(long n)
{
	spin_work(n);
	spun++;
}

static int spin(long n)
{
	uint64_t t0 = now_ns();
	long i;

	if (n <= 0)
		return 1;
	for (i = 0; i < n; i++)
		spin_middle(1000000);
	printf("R spin %.0f\n", (double)(now_ns() - t0) / n);
	return 0;
}

static int control(const char *what, uint32_t flags)
{
	struct nttrace_logger_info info;
	int ret;

	memset(&info, 0, sizeof(info));
	nttrace_set_name(&info, NTTRACE_KERNEL_LOGGER_NAME);
	if (!strcmp(what, "start")) {
		info.log_file_mode = NTTRACE_EVENT_TRACE_BUFFERING_MODE;
		info.buffer_size_kb = 256;
		info.max_buffers = 8;
		info.group_mask[0] = flags;
		ret = nttrace_start(&info);
	} else {
		ret = nttrace_control(&info, NTTRACE_EVENT_TRACE_CONTROL_STOP);
		if (!ret)
			printf("I kernel_logger events_written %llu events_lost %llu\n",
			       (unsigned long long)info.events_written,
			       (unsigned long long)info.events_lost);
	}
	if (ret)
		fprintf(stderr, "klbench: %s: %s\n", what, strerror(-ret));
	return !!ret;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "cswitch"))
		return cswitch(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "process"))
		return process(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "spin"))
		return spin(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "start"))
		return control("start", strtoul(argv[2], NULL, 0));
	if (argc == 2 && !strcmp(argv[1], "stop"))
		return control("stop", 0);
	fprintf(stderr, "usage: klbench cswitch N | process N | spin N | start FLAGS | stop\n");
	return 2;
}
