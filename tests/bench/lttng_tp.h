/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LTTng-UST tracepoint nttrace_bench compares itself with: one event
 * carrying the same 64 bytes as the nttrace paths (lttng-ust 2.13 API),
 * and its twin that stays disabled.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER nttrace_bench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./lttng_tp.h"

#if !defined(NTTRACE_BENCH_LTTNG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define NTTRACE_BENCH_LTTNG_TP_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(nttrace_bench, msg,
	LTTNG_UST_TP_ARGS(const char *, data),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_array(char, data, data, 64))
)

/* The same event under another name, which no session enables. */
LTTNG_UST_TRACEPOINT_EVENT(nttrace_bench, off,
	LTTNG_UST_TP_ARGS(const char *, data),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_array(char, data, data, 64))
)

/*
 * The size sweep: the same bytes as a sequence of @len, so that
 * one event serves every payload size; its length field is part of what
 * LTTng records, as nttrace's records carry their size.
 */
LTTNG_UST_TRACEPOINT_EVENT(nttrace_bench, sized,
	LTTNG_UST_TP_ARGS(const char *, data, unsigned int, len),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_sequence(char, data, data, unsigned int, len))
)

#endif /* NTTRACE_BENCH_LTTNG_TP_H */

#include <lttng/tracepoint-event.h>
