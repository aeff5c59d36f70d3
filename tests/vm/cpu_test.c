// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU behaviour of the rings: a CPU going offline publishes its partly
 * filled buffer and wakes the consumer; a CPU coming back traces into its
 * ring again; a flush sends no IPI to a CPU with nothing to publish
 * (counted in /proc/interrupts' CAL line). Runs in the VM as root, 64-bit
 * and 32-bit, on two vCPUs.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit.h"
#include "files.h"
#include "params.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define CPU1_ONLINE "/sys/devices/system/cpu/cpu1/online"

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static int set_online(int on)
{
	spew(CPU1_ONLINE, on ? "1\n" : "0\n", 2);
	return access("/sys/devices/system/cpu/cpu1", F_OK);
}

static int cpu1_online(void)
{
	return read_number(CPU1_ONLINE) == 1;
}

/* Function-call IPIs CPU 1 has taken, from /proc/interrupts. */
static long cpu1_call_ipis(void)
{
	char line[512];
	long c0, c1 = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, " CAL: %ld %ld", &c0, &c1) == 2)
			break;
	if (f)
		fclose(f);
	return c1;
}

TEST_F(nttrace, flush_ipis)
{
	struct nttrace_logger_info info, q;
	long before, after;
	int i, bad = 0;

	tap_eq(start_session("ipis", 4, 4, 0, &info), 0, "%d-bit: start", BITS);
	pin(0);
	before = cpu1_call_ipis();
	for (i = 0; i < 200; i++) {
		memset(&q, 0, sizeof(q));
		q.logger_id = info.logger_id;
		emit(info.logger_id, 0, 1, "cpu0", 4);
		bad += nttrace_control(&q, NTTRACE_EVENT_TRACE_CONTROL_FLUSH) != 0;
	}
	after = cpu1_call_ipis();
	tap_eq(bad, 0, "%d-bit: 200 flushes", BITS);
	tap_ok(before >= 0 && after - before < 50,
	       "%d-bit: flushing CPU 0's buffer sent CPU 1 %ld IPIs (< 50)", BITS,
	       after - before);
	stop_session(info.logger_id);
}

/*
 * CPU 1 taken offline and back: whatever became of the case, CPU 1 is
 * online after it, and the sessions it left running are stopped.
 */
FIXTURE(hotplug) {
	struct running sessions;
};

FIXTURE_SETUP(hotplug)
{
	running_note(&self->sessions);
}

FIXTURE_TEARDOWN(hotplug)
{
	if (!cpu1_online()) {
		printf("# CPU 1 left offline: brought back\n");
		set_online(1);
	}
	running_stop_new(&self->sessions);
}

TEST_F(hotplug, hotplug)
{
	struct nttrace_logger_info info;
	struct nttrace_consumer *c;
	struct nttrace_counts n;
	int i;

	tap_eq(start_session("hotplug", 4, 4, 0, &info), 0, "%d-bit: start", BITS);
	tap_eq(nttrace_consumer_open(&c, info.logger_id), 0, "%d-bit: attach", BITS);
	tap_eq(pin(1), 0, "%d-bit: run on CPU 1", BITS);
	for (i = 0; i < 3; i++)
		emit(info.logger_id, NTTRACE_TRACE_MESSAGE_SEQUENCE, 1, "cpu1", 4);
	pin(0);
	tap_eq(nttrace_consumer_head(c, 1)->produced, 0,
	       "%d-bit: CPU 1's buffer is partly filled, not published", BITS);

	set_online(0);
	tap_ok(!cpu1_online(), "%d-bit: CPU 1 offline", BITS);
	tap_eq(nttrace_consumer_head(c, 1)->produced, 1,
	       "%d-bit: going offline published CPU 1's buffer", BITS);
	tap_eq(nttrace_consumer_wait(c, 2000), 1, "%d-bit: the consumer is woken", BITS);
	/* A flush now finds the offline CPU's ring empty and sends nothing. */
	tap_eq(nttrace_control(&(struct nttrace_logger_info){ .logger_id = info.logger_id },
			       NTTRACE_EVENT_TRACE_CONTROL_FLUSH), 0,
	       "%d-bit: flush with CPU 1 offline", BITS);

	set_online(1);
	tap_ok(cpu1_online(), "%d-bit: CPU 1 online again", BITS);
	tap_eq(pin(1), 0, "%d-bit: run on CPU 1 again", BITS);
	tap_eq(emit(info.logger_id, NTTRACE_TRACE_MESSAGE_SEQUENCE, 1, "back", 4), STATUS_SUCCESS,
	       "%d-bit: trace on the CPU that came back", BITS);
	pin(0);
	stop_session(info.logger_id);
	tap_eq(nttrace_consumer_head(c, 1)->produced, 2,
	       "%d-bit: its event went into CPU 1's ring", BITS);
	nttrace_consumer_counts(c, &n);
	tap_eq(n.events_written, 4, "%d-bit: 4 events written", BITS);
	tap_eq(n.events_lost, 0, "%d-bit: none lost", BITS);
	nttrace_consumer_close(c);
}

int main(int argc, char **argv)
{
	if (!tap_ok(nttrace_device_fd() >= 0, "%d-bit: open %s", BITS, NTTRACE_DEVICE))
		return tap_done();
	if (getuid() != 0 || sysconf(_SC_NPROCESSORS_CONF) < 2 ||
	    access(CPU1_ONLINE, W_OK)) {
		tap_ok(1, "# SKIP needs root, two CPUs and CPU hotplug");
		return tap_done();
	}
	return harness_run(argc, argv);
}
