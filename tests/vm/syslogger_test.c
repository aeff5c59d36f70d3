// SPDX-License-Identifier: GPL-2.0
/*
 * System loggers and the NT Kernel Logger as a controller sees them:
 * StartTrace with KERNEL_LOGGER_NAME and EnableFlags, the handle
 * KERNEL_LOGGER_ID, EVENT_TRACE_SYSTEM_LOGGER_MODE sessions and their
 * limit, the group mask through ControlTrace(UPDATE) and
 * TraceSet/QueryInformation(TraceSystemTraceEnableFlagsInfo), the
 * errors, and who may start or consume one (uapi/nttrace.h, "System
 * loggers"). The events themselves: kernel_logger_test. 64- and 32-bit.
 */
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/evntrace.h>
#include <nttrace/session.h>
#include "props.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)

static ULONG start_kernel_logger(TRACEHANDLE *h, ULONG flags)
{
	struct props pr;

	props_init(&pr, NULL, EVENT_TRACE_REAL_TIME_MODE);
	pr.p.Wnode.Guid = SystemTraceControlGuid;
	pr.p.EnableFlags = flags;
	return StartTraceA(h, KERNEL_LOGGER_NAMEA, &pr.p);
}

static ULONG stop(TRACEHANDLE h, const char *name)
{
	struct props pr;

	props_init(&pr, NULL, 0);
	return ControlTraceA(h, name, &pr.p, EVENT_TRACE_CONTROL_STOP);
}

TEST_F(nttrace, kernel_logger)
{
	TRACEHANDLE h = 0, h2;
	struct props q;
	ULONG mask[8], len = 0;
	WCHAR wname[32];
	unsigned int i;

	/* A group no source of the module writes: refused, not taken and left empty. */
	tap_eq(start_kernel_logger(&h, EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_REGISTRY),
	       ERROR_NOT_SUPPORTED,
	       "%d-bit: StartTrace(KERNEL_LOGGER_NAME), EVENT_TRACE_FLAG_REGISTRY -> ERROR_NOT_SUPPORTED",
	       BITS);
	if (!tap_eq(start_kernel_logger(&h, EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_CSWITCH),
		    ERROR_SUCCESS, "%d-bit: StartTrace(KERNEL_LOGGER_NAME)", BITS))
		return;
	tap_eq(h, KERNEL_LOGGER_ID, "%d-bit: ... its handle is KERNEL_LOGGER_ID (0xFFFF)", BITS);
	tap_eq(start_kernel_logger(&h2, 0), ERROR_ALREADY_EXISTS,
	       "%d-bit: a second NT Kernel Logger -> ERROR_ALREADY_EXISTS", BITS);

	props_init(&q, NULL, 0);
	tap_eq(QueryTraceA(h, NULL, &q.p), ERROR_SUCCESS, "%d-bit: QueryTrace(0xFFFF)", BITS);
	tap_eq(q.p.EnableFlags, EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_CSWITCH,
	       "%d-bit: ... EnableFlags as started", BITS);
	tap_ok(q.p.LogFileMode & EVENT_TRACE_SYSTEM_LOGGER_MODE,
	       "%d-bit: ... LogFileMode says it is a system logger", BITS);
	tap_ok(!strcmp(q.logger_name, KERNEL_LOGGER_NAMEA), "%d-bit: ... its name", BITS);
	for (i = 0; KERNEL_LOGGER_NAMEW[i]; i++)
		wname[i] = KERNEL_LOGGER_NAMEW[i];
	wname[i] = 0;
	props_init(&q, NULL, 0);
	tap_eq(QueryTraceW(0, wname, &q.p), ERROR_SUCCESS,
	       "%d-bit: QueryTraceW(KERNEL_LOGGER_NAMEW)", BITS);

	props_init(&q, NULL, 0);
	q.p.EnableFlags = EVENT_TRACE_FLAG_THREAD;
	tap_eq(ControlTraceA(h, NULL, &q.p, EVENT_TRACE_CONTROL_UPDATE), ERROR_SUCCESS,
	       "%d-bit: ControlTrace(UPDATE) with EnableFlags", BITS);
	tap_eq(q.p.EnableFlags, EVENT_TRACE_FLAG_THREAD, "%d-bit: ... EnableFlags now THREAD", BITS);
	props_init(&q, NULL, 0);
	q.p.EnableFlags = EVENT_TRACE_FLAG_EXTENSION | 1;
	tap_eq(ControlTraceA(h, NULL, &q.p, EVENT_TRACE_CONTROL_UPDATE), ERROR_NOT_SUPPORTED,
	       "%d-bit: ... EVENT_TRACE_FLAG_EXTENSION -> ERROR_NOT_SUPPORTED", BITS);

	/* Groups no source writes are refused, and change nothing. */
	memset(mask, 0, sizeof(mask));
	mask[0] = EVENT_TRACE_FLAG_DISK_IO;
	mask[3] = 0x40;
	tap_eq(TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, mask, sizeof(mask)),
	       ERROR_NOT_SUPPORTED,
	       "%d-bit: TraceSetInformation(TraceSystemTraceEnableFlagsInfo), a group of word 3 -> ERROR_NOT_SUPPORTED",
	       BITS);
	mask[3] = 0;
	mask[0] = EVENT_TRACE_FLAG_DISK_IO | EVENT_TRACE_FLAG_REGISTRY;
	tap_eq(TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, mask, sizeof(mask)),
	       ERROR_NOT_SUPPORTED, "%d-bit: ... EVENT_TRACE_FLAG_REGISTRY -> ERROR_NOT_SUPPORTED",
	       BITS);
	props_init(&q, NULL, 0);
	tap_ok(QueryTraceA(h, NULL, &q.p) == ERROR_SUCCESS &&
	       q.p.EnableFlags == EVENT_TRACE_FLAG_THREAD,
	       "%d-bit: ... EnableFlags still THREAD", BITS);
	mask[0] = EVENT_TRACE_FLAG_DISK_IO;
	tap_eq(TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, mask, sizeof(mask)),
	       ERROR_SUCCESS, "%d-bit: TraceSetInformation(TraceSystemTraceEnableFlagsInfo)",
	       BITS);
	memset(mask, 0xAA, sizeof(mask));
	tap_eq(TraceQueryInformation(h, TraceSystemTraceEnableFlagsInfo, mask, sizeof(mask), &len),
	       ERROR_SUCCESS, "%d-bit: TraceQueryInformation(TraceSystemTraceEnableFlagsInfo)",
	       BITS);
	tap_ok(len == 32 && mask[0] == EVENT_TRACE_FLAG_DISK_IO && mask[3] == 0 && !mask[7],
	       "%d-bit: ... the eight words as set (len %lu, %#lx %#lx)", BITS,
	       (unsigned long)len, (unsigned long)mask[0], (unsigned long)mask[3]);
	tap_eq(TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, mask, 6),
	       ERROR_BAD_LENGTH, "%d-bit: ... 6 bytes -> ERROR_BAD_LENGTH", BITS);
	tap_eq(TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, mask, 36),
	       ERROR_BAD_LENGTH, "%d-bit: ... 36 bytes -> ERROR_BAD_LENGTH", BITS);
	tap_eq(TraceQueryInformation(h, TraceSystemTraceEnableFlagsInfo, mask, 16, &len),
	       ERROR_BAD_LENGTH, "%d-bit: ... a query into 16 bytes -> ERROR_BAD_LENGTH", BITS);
	tap_eq(TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, mask, 4), ERROR_SUCCESS,
	       "%d-bit: ... 4 bytes: EnableFlags alone", BITS);
	TraceQueryInformation(h, TraceSystemTraceEnableFlagsInfo, mask, sizeof(mask), &len);
	tap_ok(mask[3] == 0, "%d-bit: ... and the other words are 0", BITS);

	tap_eq(EnableTraceEx2(h, &SystemTraceControlGuid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
			      TRACE_LEVEL_VERBOSE, 0, 0, 0, NULL),
	       ERROR_INVALID_HANDLE,
	       "%d-bit: no provider can be enabled into the NT Kernel Logger (ERROR_INVALID_HANDLE)",
	       BITS);

	tap_eq(stop(0, KERNEL_LOGGER_NAMEA), ERROR_SUCCESS, "%d-bit: stopped by name", BITS);
	props_init(&q, NULL, 0);
	tap_eq(QueryTraceA(KERNEL_LOGGER_ID, NULL, &q.p), ERROR_WMI_INSTANCE_NOT_FOUND,
	       "%d-bit: ... and gone", BITS);
}

TEST_F(nttrace, system_loggers)
{
	TRACEHANDLE h[NTTRACE_MAX_SYSTEM_LOGGERS + 1], kh = 0, plain = 0;
	struct nttrace_logger_info info;
	struct props pr;
	char name[32];
	ULONG mask[8] = { EVENT_TRACE_FLAG_PROCESS };
	int i, started = 0;

	tap_eq(start_kernel_logger(&kh, EVENT_TRACE_FLAG_PROCESS), ERROR_SUCCESS,
	       "%d-bit: the NT Kernel Logger, one of the eight", BITS);
	for (i = 0; i < NTTRACE_MAX_SYSTEM_LOGGERS; i++) {
		ULONG err;

		snprintf(name, sizeof(name), "sys-%d-%d", BITS, i);
		props_init(&pr, NULL, EVENT_TRACE_SYSTEM_LOGGER_MODE | EVENT_TRACE_REAL_TIME_MODE);
		pr.p.EnableFlags = EVENT_TRACE_FLAG_THREAD;
		err = StartTraceA(&h[i], name, &pr.p);
		if (i < NTTRACE_MAX_SYSTEM_LOGGERS - 1) {
			started += err == ERROR_SUCCESS;
			continue;
		}
		tap_eq(started, NTTRACE_MAX_SYSTEM_LOGGERS - 1,
		       "%d-bit: seven more system loggers start", BITS);
		tap_eq(err, ERROR_NO_SYSTEM_RESOURCES,
		       "%d-bit: a ninth -> ERROR_NO_SYSTEM_RESOURCES", BITS);
	}
	memset(&info, 0, sizeof(info));
	snprintf((char *)info.name, sizeof(info.name), "sys-%d-9", BITS);
	info.log_file_mode = EVENT_TRACE_SYSTEM_LOGGER_MODE;
	tap_eq(nttrace_start(&info), -EMFILE, "%d-bit: ... from -EMFILE", BITS);
	for (i = 0; i < NTTRACE_MAX_SYSTEM_LOGGERS - 1; i++) {
		snprintf(name, sizeof(name), "sys-%d-%d", BITS, i);
		stop(0, name);
	}
	props_init(&pr, NULL, EVENT_TRACE_REAL_TIME_MODE);
	snprintf(name, sizeof(name), "plain-%d", BITS);
	tap_eq(StartTraceA(&plain, name, &pr.p), ERROR_SUCCESS,
	       "%d-bit: ... other sessions still start", BITS);
	tap_eq(TraceSetInformation(plain, TraceSystemTraceEnableFlagsInfo, mask, 4),
	       ERROR_INVALID_PARAMETER,
	       "%d-bit: a group mask for a session that is no system logger -> ERROR_INVALID_PARAMETER",
	       BITS);
	memset(&info, 0, sizeof(info));
	info.logger_id = (uint32_t)plain;
	tap_eq(nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY), 0, "%d-bit: query it", BITS);
	info.group_mask[1] = 1;
	tap_eq(nttrace_control(&info, EVENT_TRACE_CONTROL_UPDATE), -EINVAL,
	       "%d-bit: ... UPDATE with a group mask -> -EINVAL", BITS);
	memset(&info, 0, sizeof(info));
	snprintf((char *)info.name, sizeof(info.name), "masked-%d", BITS);
	info.group_mask[0] = 1;
	tap_eq(nttrace_start(&info), -EINVAL,
	       "%d-bit: START of a session that is no system logger with a group mask -> -EINVAL",
	       BITS);
	stop(plain, NULL);
	stop(kh, NULL);

	props_init(&pr, NULL, EVENT_TRACE_SYSTEM_LOGGER_MODE | EVENT_TRACE_USE_PAGED_MEMORY);
	tap_eq(StartTraceA(&h[0], "sys-paged", &pr.p), ERROR_INVALID_PARAMETER,
	       "%d-bit: a system logger in paged memory -> ERROR_INVALID_PARAMETER", BITS);
}

/* Run @fn in a child with uid 65534 and its status (exit code). */
static int as_nobody(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(100);
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int nobody_start(void)
{
	TRACEHANDLE h;

	return start_kernel_logger(&h, EVENT_TRACE_FLAG_PROCESS) == ERROR_ACCESS_DENIED ? 0 : 1;
}

static int nobody_consume(void)
{
	struct nttrace_consumer *c = NULL;
	int ret = nttrace_consumer_attach(&c, KERNEL_LOGGER_ID, NTTRACE_ATTACH_REAL_TIME);

	if (c)
		nttrace_consumer_close(c);
	return ret == -EPERM ? 0 : 1;
}

/* Root, but in a new PID namespace: a system logger would see outside it. */
static int pidns_start(void)
{
	int status;
	pid_t pid;

	if (unshare(CLONE_NEWPID))
		return 2;
	pid = fork();
	if (pid == 0) {
		TRACEHANDLE h;

		_exit(start_kernel_logger(&h, EVENT_TRACE_FLAG_PROCESS) == ERROR_ACCESS_DENIED ?
		      0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 3;
	return WEXITSTATUS(status);
}

TEST_F(nttrace, permissions)
{
	TRACEHANDLE h;
	int status;
	pid_t pid;

	tap_eq(as_nobody(nobody_start), 0,
	       "%d-bit: uid 65534 cannot start the NT Kernel Logger (ERROR_ACCESS_DENIED)", BITS);
	if (!tap_eq(start_kernel_logger(&h, EVENT_TRACE_FLAG_PROCESS), ERROR_SUCCESS,
		    "%d-bit: root starts it", BITS))
		return;
	tap_eq(as_nobody(nobody_consume), 0, "%d-bit: uid 65534 cannot consume it (-EPERM)", BITS);
	stop(h, NULL);

	pid = fork();
	if (pid == 0)
		_exit(pidns_start());
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "%d-bit: root in a child PID namespace cannot start one (status %d)", BITS,
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int main(int argc, char **argv)
{
	return harness_run(argc, argv);
}
