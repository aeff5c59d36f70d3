// SPDX-License-Identifier: GPL-2.0
/*
 * The longest interrupts-off window an unprivileged caller can cause:
 * the largest message (NTTRACE_MESSAGE_MAX_ARGS arguments filling 64 KB)
 * into a session of the largest buffers, written by uid 65534 while the
 * kernel's irqsoff tracer watches. Prints the window (and the tracer's
 * own baseline over the same time without nttrace) for README; asserts no
 * timing, only that the measurement was made and every event is
 * accounted for. Needs the debug kernel's CONFIG_IRQSOFF_TRACER; skips
 * elsewhere.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emit.h"
#include "files.h"
#include "params.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define TRACING "/sys/kernel/tracing/"
#define EVENTS 400

static void put_file(const char *name, const char *text)
{
	char path[128];

	snprintf(path, sizeof(path), TRACING "%s", name);
	spew(path, text, strlen(text));
}

static long max_latency_us(void)
{
	return read_number(TRACING "tracing_max_latency");
}

/* The worst message: 256 arguments, 64 KB in all, from a 32/64-bit caller. */
static uint32_t worst_message(uint32_t logger, const uint8_t *data)
{
	static uintptr_t list[2 * NTTRACE_MESSAGE_MAX_ARGS + 1];
	struct nttrace_message_trace_user m;
	unsigned int i, each = (0xFFFF - 0x40) / NTTRACE_MESSAGE_MAX_ARGS;

	for (i = 0; i < NTTRACE_MESSAGE_MAX_ARGS; i++) {
		list[2 * i] = (uintptr_t)(data + i * each);
		list[2 * i + 1] = each;
	}
	list[2 * i] = 0;
	memset(&m, 0, sizeof(m));
	m.message_flags = NTTRACE_TRACE_MESSAGE_SEQUENCE | NTTRACE_TRACE_MESSAGE_GUID |
			  NTTRACE_TRACE_MESSAGE_TIMESTAMP | NTTRACE_TRACE_MESSAGE_SYSTEMINFO;
	m.data = (uintptr_t)list;
	m.data_size = sizeof(list);
	return (uint32_t)NtTraceEvent((HANDLE)(uintptr_t)logger,
				      NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, sizeof(m), &m);
}

/* Run @writes worst messages as uid 65534 (0: just sleep as long). */
static int writer(uint32_t logger, int writes)
{
	int status = -1, i, bad = 0;
	pid_t pid = fork();

	if (pid == 0) {
		uint8_t *data = malloc(0x10000);

		if (!data || setgid(65534) || setuid(65534))
			_exit(1);
		memset(data, 0x5A, 0x10000);
		for (i = 0; i < writes; i++) {
			uint32_t st = worst_message(logger, data);

			bad += st != STATUS_SUCCESS && st != STATUS_NO_MEMORY;
		}
		if (!writes)
			usleep(200000);
		_exit(bad ? 2 : 0);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}

/*
 * The irqsoff tracer on: whatever became of the case, the tracer is nop
 * again after it, and the session it left running stopped.
 */
FIXTURE(irqsoff) {
	struct running sessions;
};

FIXTURE_SETUP(irqsoff)
{
	running_note(&self->sessions);
}

FIXTURE_TEARDOWN(irqsoff)
{
	put_file("current_tracer", "nop\n");
	running_stop_new(&self->sessions);
}

TEST_F(irqsoff, worst_messages)
{
	struct nttrace_logger_info info;
	struct nttrace_consumer *c;
	struct nttrace_counts n;
	long base, worst;

	tap_eq(start_session("irqsoff", NTTRACE_MAX_BUFFER_KB, 2, 0, &info), 0,
	       "%d-bit: a session of %d KB buffers", BITS, NTTRACE_MAX_BUFFER_KB);
	tap_eq(nttrace_consumer_open(&c, info.logger_id), 0, "%d-bit: attach", BITS);

	put_file("current_tracer", "irqsoff\n");
	put_file("tracing_max_latency", "0\n");
	writer(info.logger_id, 0);
	base = max_latency_us();
	put_file("tracing_max_latency", "0\n");
	tap_eq(writer(info.logger_id, EVENTS), 0,
	       "%d-bit: uid 65534 writes %d worst-case messages", BITS, EVENTS);
	worst = max_latency_us();
	/* Where the longest window began and ended (nttrace's or not). */
	(void)!system("grep -E '=> (started|ended) at:' " TRACING "trace | sed 's/^/# /'");
	put_file("current_tracer", "nop\n");
	printf("# longest interrupts-off window: %ld us with nttrace's worst "
	       "messages, %ld us without (debug kernel under TCG)\n", worst, base);
	tap_ok(worst >= 0 && base >= 0, "%d-bit: the irqsoff tracer measured", BITS);

	stop_session(info.logger_id);
	nttrace_consumer_counts(c, &n);
	tap_eq(n.events_written + n.events_lost, EVENTS,
	       "%d-bit: every event written or counted lost", BITS);
	nttrace_consumer_close(c);
}

int main(int argc, char **argv)
{
	if (!tap_ok(nttrace_device_fd() >= 0, "%d-bit: open %s", BITS, NTTRACE_DEVICE))
		return tap_done();
	if (getuid() != 0 || access(TRACING "current_tracer", W_OK) ||
	    system("grep -qw irqsoff " TRACING "available_tracers")) {
		tap_ok(1, "# SKIP needs root and the irqsoff tracer");
		return tap_done();
	}
	return harness_run(argc, argv);
}
