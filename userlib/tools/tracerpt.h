/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * `nttrace tracerpt -export`: the instrumentation manifest of the
 * providers whose events a log holds (tracerpt_export.c).
 */
#ifndef NTTRACE_TRACERPT_H
#define NTTRACE_TRACERPT_H

#include <stdio.h>

#include <nttrace/evntcons.h>
#include <nttrace/tdh.h>

/*
 * One event of the log, in ProcessTrace's order, with TDH's description
 * of it (@t, NULL when TDH has none). Kept once per distinct event; 0, or
 * -1 when out of memory.
 */
int tracerpt_export_record(const EVENT_RECORD *er, const TRACE_EVENT_INFO *t);
/*
 * The manifest of what was kept, to @f; @base names the provider's
 * resource and message files. The providers that could not be written are
 * named on stderr, one line each, and counted. 0, or -1 when out of memory.
 */
int tracerpt_export_write(FILE *f, const char *base);
void tracerpt_export_free(void);

#endif /* NTTRACE_TRACERPT_H */
