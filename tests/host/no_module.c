// SPDX-License-Identifier: GPL-2.0
/*
 * With the module not loaded (no /dev/nttrace, as on the host), the library
 * and the tool say so: StartTrace and ControlTrace fail with
 * ERROR_SERVICE_NOT_ACTIVE, not ERROR_WMI_INSTANCE_NOT_FOUND ("no such
 * session"), the session functions with -ENODEV, and `nttrace` prints that
 * the module is not loaded. The user-mode logger needs no module and still
 * starts. Prints TAP.
 *
 *   no_module [PATH-OF-nttrace]
 *
 * With /dev/nttrace present the checks are skipped.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <nttrace/evntrace.h>
#include <nttrace/nt.h>
#include <nttrace/session.h>
#include "../vm/props.h"
#include "../vm/tap.h"

#define NOT_LOADED \
	"nttrace: the nttrace kernel module is not loaded (/dev/nttrace not found)\n"

/* The tool's stderr and stdout for @args, and its exit status. */
static int tool(const char *path, const char *args, char *out, size_t size)
{
	char cmd[512];
	size_t n;
	FILE *f;
	int st;

	snprintf(cmd, sizeof(cmd), "'%s' %s 2>&1", path, args);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fread(out, 1, size - 1, f);
	out[n] = 0;
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The controllers' queries: the module's state needs the module, constants do not. */
static void queries(void)
{
	PEVENT_TRACE_PROPERTIES array[1];
	PTRACE_GUID_PROPERTIES guids[1];
	TRACE_GUID_PROPERTIES gp;
	struct props pr;
	ULONG n = 7, value = 0, len = 0;

	props_init(&pr, NULL, 0);
	array[0] = &pr.p;
	tap_eq(QueryAllTracesA(array, 1, &n), ERROR_SERVICE_NOT_ACTIVE,
	       "QueryAllTraces: ERROR_SERVICE_NOT_ACTIVE");
	tap_eq(GetLastError(), ERROR_SERVICE_NOT_ACTIVE, "... and its last error");
	tap_eq(n, 7, "... LoggerCount untouched");
	guids[0] = &gp;
	tap_eq(EnumerateTraceGuids(guids, 1, &n), ERROR_SERVICE_NOT_ACTIVE,
	       "EnumerateTraceGuids: ERROR_SERVICE_NOT_ACTIVE");
	tap_eq(EnumerateTraceGuidsEx(TraceGuidQueryList, NULL, 0, NULL, 0, &len),
	       ERROR_SERVICE_NOT_ACTIVE, "EnumerateTraceGuidsEx(TraceGuidQueryList): the same");
	tap_eq(EnumerateTraceGuidsEx(TraceMaxLoggersQuery, NULL, 0, &value, sizeof(value), &len),
	       ERROR_SUCCESS, "EnumerateTraceGuidsEx(TraceMaxLoggersQuery) needs no module");
	tap_ok(value == 64 && len == sizeof(value), "... 64 sessions, a ULONG");
	value = 0;
	tap_eq(TraceQueryInformation(1, TraceMaxLoggersQuery, &value, sizeof(value), &len),
	       ERROR_SUCCESS, "TraceQueryInformation(TraceMaxLoggersQuery): the same");
	tap_eq(value, 64, "... 64");
	tap_eq(TraceQueryInformation(1, TraceStreamCount, &value, sizeof(value), &len),
	       ERROR_SERVICE_NOT_ACTIVE, "TraceQueryInformation(TraceStreamCount) of a "
	       "kernel session: ERROR_SERVICE_NOT_ACTIVE");
	tap_eq(TraceSetInformation(1, TraceStackTracingInfo, NULL, 0), ERROR_SERVICE_NOT_ACTIVE,
	       "TraceSetInformation(TraceStackTracingInfo, none): the same");
}

int main(int argc, char **argv)
{
	static const char *const cmds[] = {
		"list", "query x", "stop x", "flush x", "start x", "query --id 1",
		"record x -o /nonexistent/x.etl", "version", "call 0x200",
	};
	struct nttrace_logger_info info;
	struct nttrace_consumer *c;
	struct props pr;
	TRACEHANDLE h = 0;
	char out[1024], file[64], private_file[64];
	unsigned int i;
	ULONG err;

	if (access(NTTRACE_DEVICE, F_OK) == 0) {
		tap_ok(1, "# SKIP %s exists: the module is loaded", NTTRACE_DEVICE);
		return tap_done();
	}
	snprintf(file, sizeof(file), "/tmp/no-module-%d.etl", (int)getpid());
	snprintf(private_file, sizeof(private_file), "/tmp/no-module-private-%d.etl",
		 (int)getpid());
	tap_eq(ERROR_SERVICE_NOT_ACTIVE, 1062, "ERROR_SERVICE_NOT_ACTIVE is 1062");

	tap_eq(-nttrace_device_fd(), ENODEV, "nttrace_device_fd: -ENODEV");
	memset(&info, 0, sizeof(info));
	nttrace_set_name(&info, "x");
	tap_eq(-nttrace_start(&info), ENODEV, "nttrace_start: -ENODEV");
	tap_eq(-nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY), ENODEV,
	       "nttrace_control: -ENODEV");
	tap_eq(-nttrace_consumer_open(&c, 1), ENODEV, "nttrace_consumer_open: -ENODEV");

	props_init(&pr, NULL, 0);
	pr.p.BufferSize = 4;
	SetLastError(0);
	err = StartTraceA(&h, "no-module", &pr.p);
	tap_eq(err, ERROR_SERVICE_NOT_ACTIVE, "StartTrace: ERROR_SERVICE_NOT_ACTIVE");
	tap_eq(GetLastError(), ERROR_SERVICE_NOT_ACTIVE, "... and its last error");
	tap_eq(h, 0, "... and no handle");

	props_init(&pr, file, EVENT_TRACE_FILE_MODE_SEQUENTIAL);
	pr.p.BufferSize = 4;
	tap_eq(StartTraceA(&h, "no-module", &pr.p), ERROR_SERVICE_NOT_ACTIVE,
	       "StartTrace with a log file: ERROR_SERVICE_NOT_ACTIVE");
	tap_ok(access(file, F_OK) != 0, "... and no file made");

	props_init(&pr, NULL, 0);
	tap_eq(ControlTraceA(0, "no-module", &pr.p, EVENT_TRACE_CONTROL_QUERY),
	       ERROR_SERVICE_NOT_ACTIVE, "ControlTrace QUERY by name");
	tap_eq(QueryTraceA(1, NULL, &pr.p), ERROR_SERVICE_NOT_ACTIVE,
	       "QueryTrace by handle");
	tap_eq(StopTraceA(1, NULL, &pr.p), ERROR_SERVICE_NOT_ACTIVE,
	       "StopTrace by handle");
	tap_eq(GetLastError(), ERROR_SERVICE_NOT_ACTIVE, "... and its last error");

	/* The user-mode logger lives in the process: it needs no module. */
	props_init(&pr, private_file, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	pr.p.BufferSize = 4;
	if (tap_eq(StartTraceA(&h, "no-module-private", &pr.p), ERROR_SUCCESS,
		   "StartTrace of a private logger works without the module")) {
		ULONG streams = 0;

		tap_eq(TraceQueryInformation(h, TraceStreamCount, &streams, sizeof(streams),
					     NULL), ERROR_SUCCESS,
		       "TraceQueryInformation(TraceStreamCount) of the private logger");
		tap_eq(streams, 64, "... its 64 writer slots");
		props_init(&pr, NULL, 0);
		tap_eq(StopTraceA(h, NULL, &pr.p), ERROR_SUCCESS, "... and stops");
	}
	unlink(private_file);

	queries();
	if (argc < 2)
		return tap_done();
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		int st = tool(argv[1], cmds[i], out, sizeof(out));

		if (!tap_ok(st == 1 && !strcmp(out, NOT_LOADED),
			    "nttrace %s: the module is not loaded", cmds[i]))
			printf("# exit %d: %s", st, out);
	}
	return tap_done();
}
