// SPDX-License-Identifier: MIT
/*
 * A TraceMessage provider as Windows code writes one: only
 * <nttrace/evntrace.h> (and <nttrace/wpp.h> for WPP-style messages), the
 * Windows names and types, Win32 error results.
 *
 *   trace_sample --session NAME     trace into a running kernel session
 *   trace_sample --file FILE        start a kernel session that writes
 *                                   FILE, trace, stop (the file is whole
 *                                   when StopTrace returns)
 *   trace_sample --private FILE     the same with the in-process
 *                                   user-mode logger (no system call per
 *                                   event)
 */
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/evntrace.h>
#include <nttrace/wpp.h>

/* This program's message GUID (a WPP control GUID would go here). */
static const GUID sample_guid = {
	0x6a1b7c2d, 0x3e4f, 0x4a5b, { 0x8c, 0x9d, 0x0e, 0x1f, 0x2a, 0x3b, 0x4c, 0x5d }
};

#define SAMPLE_FLAGS (TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID | \
		      TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_SYSTEMINFO)

struct props {
	EVENT_TRACE_PROPERTIES p;
	char logger_name[64];
	char log_file[256];
};

static void props_init(struct props *pr, const char *log_file, ULONG mode)
{
	memset(pr, 0, sizeof(*pr));
	pr->p.Wnode.BufferSize = sizeof(*pr);
	pr->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	pr->p.LogFileMode = mode;
	pr->p.BufferSize = 4;
	pr->p.LoggerNameOffset = offsetof(struct props, logger_name);
	if (log_file) {
		pr->p.LogFileNameOffset = offsetof(struct props, log_file);
		snprintf(pr->log_file, sizeof(pr->log_file), "%s", log_file);
	}
}

/*
 * Messages as a program would trace them: one with TraceMessage itself
 * (its data is a string, shown as such), then WPP-style ones, whose
 * formats this binary carries for `nttrace dump --formats` to render.
 */
static ULONG trace_some(TRACEHANDLE h)
{
	const char *who = sizeof(void *) == 8 ? "64-bit" : "32-bit";
	char text[64];
	ULONG err;
	int i;

	snprintf(text, sizeof(text), "hello from a %s program", who);
	err = TraceMessage(h, SAMPLE_FLAGS, &sample_guid, 1,
			   text, strlen(text) + 1, NULL);
	if (err)
		return err;
	DoTraceMessage(h, "%s sample started, pid %d", who, (int)getpid());
	for (i = 1; i <= 3; i++) {
		double share = i / 3.0;

		DoTraceMessage(h, "step %d of %d: %.1f%% done, state at %p", i, 3,
			       100 * share, (void *)&share);
		if (GetLastError())
			return GetLastError();
	}
	DoTraceMessage(h, "done: %zu bytes of greeting", strlen(text) + 1);
	return GetLastError();
}

static int report(const char *what, ULONG err)
{
	if (err)
		fprintf(stderr, "trace_sample: %s: Win32 error %lu\n", what,
			(unsigned long)err);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct props pr;
	TRACEHANDLE h;
	ULONG err;

	if (argc != 3) {
		fprintf(stderr, "usage: trace_sample --session NAME | --file FILE | "
				"--private FILE\n");
		return 2;
	}
	if (!strcmp(argv[1], "--session")) {
		props_init(&pr, NULL, 0);
		err = QueryTraceA(0, argv[2], &pr.p);
		if (report("QueryTrace", err))
			return 1;
		h = pr.p.Wnode.HistoricalContext;
		return report("TraceMessage", trace_some(h));
	}
	if (strcmp(argv[1], "--file") && strcmp(argv[1], "--private"))
		return report("unknown option", ERROR_INVALID_PARAMETER);

	props_init(&pr, argv[2], !strcmp(argv[1], "--private") ?
		   EVENT_TRACE_PRIVATE_LOGGER_MODE : 0);
	err = StartTraceA(&h, sizeof(void *) == 8 ? "sample-64" : "sample-32", &pr.p);
	if (report("StartTrace", err))
		return 1;
	err = trace_some(h);
	report("TraceMessage", err);
	props_init(&pr, NULL, 0);
	if (report("StopTrace", StopTraceA(h, NULL, &pr.p)) || err)
		return 1;
	printf("trace_sample: session %s (handle 0x%llx): %lu buffers written, "
	       "%lu events lost\n", pr.logger_name, (unsigned long long)h,
	       (unsigned long)pr.p.BuffersWritten, (unsigned long)pr.p.EventsLost);
	return 0;
}
