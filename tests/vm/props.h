/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EVENT_TRACE_PROPERTIES as the tests pass it to StartTrace and
 * ControlTrace: the struct, then room for the session and log file names.
 */
#ifndef NTTRACE_TEST_PROPS_H
#define NTTRACE_TEST_PROPS_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <nttrace/evntrace.h>

struct props {
	EVENT_TRACE_PROPERTIES p;
	char logger_name[128];
	char log_file[256];
};

/* A session in @mode writing @log_file (NULL: none); sizes left at 0. */
static inline void props_init(struct props *pr, const char *log_file, ULONG mode)
{
	memset(pr, 0, sizeof(*pr));
	pr->p.Wnode.BufferSize = sizeof(*pr);
	pr->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	pr->p.LogFileMode = mode;
	pr->p.LoggerNameOffset = offsetof(struct props, logger_name);
	if (log_file) {
		pr->p.LogFileNameOffset = offsetof(struct props, log_file);
		snprintf(pr->log_file, sizeof(pr->log_file), "%s", log_file);
	}
}

#endif /* NTTRACE_TEST_PROPS_H */
