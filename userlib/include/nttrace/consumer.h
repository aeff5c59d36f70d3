/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace's own additions to the consumer API of <nttrace/evntcons.h>,
 * for tools that show a file as it is (`nttrace dump`): what the ETL
 * reader (<nttrace/etl.h>) knows of an event beyond its EVENT_RECORD, and
 * the problems it meets in a file. Windows has no such calls; a portable
 * consumer does not need them.
 */
#ifndef NTTRACE_CONSUMER_H
#define NTTRACE_CONSUMER_H

#include <nttrace/etl.h>
#include <nttrace/evntcons.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The record behind the EVENT_RECORD (or EVENT_TRACE) the calling thread's
 * callback is being given: its byte offset, sequence number, loss flags,
 * raw bytes, malformed extended items (see struct nttrace_etl_event). NULL
 * outside a callback, and for a file's header event.
 */
const struct nttrace_etl_event *nttrace_current_record(void);

/*
 * From the next ProcessTrace of @handle on, tell @fn (with @ctx) of every
 * problem the reader meets in its file, with its byte offset: a damaged
 * buffer or record, which ProcessTrace skips. ERROR_SUCCESS, or
 * ERROR_INVALID_HANDLE, or ERROR_BUSY (in a ProcessTrace); @fn NULL stops
 * the reports.
 */
ULONG nttrace_trace_problems(TRACEHANDLE handle, nttrace_etl_problem_fn fn, void *ctx);

/*
 * What the last ProcessTrace of @handle delivered and could not deliver,
 * so that nothing a file holds is dropped unsaid: @events the events its
 * callbacks were given (the header event included); @not_delivered the
 * records it met and did not deliver (damaged, or of a kind ProcessTrace
 * does not present: the first NTTRACE_ETL_MAX_PROBLEMS of them also told
 * to the problem function); the buffers it skipped whole (damaged,
 * unreadable, not decompressible) and the bytes of records it could not
 * read in the buffers it read (each such place told too). Events left out
 * by ProcessTrace's StartTime and EndTime are in none of them. @buffers:
 * the buffers the file holds, header included, as its reader found them
 * (a compressed file's are not all of BufferSize bytes); known from
 * OpenTrace on, 0 for a live session. ERROR_SUCCESS,
 * ERROR_INVALID_PARAMETER (@counts NULL), ERROR_INVALID_HANDLE, or
 * ERROR_BUSY (in a ProcessTrace).
 */
struct nttrace_trace_counts {
	uint64_t events, not_delivered, buffers_skipped, bytes_skipped, buffers;
};
ULONG nttrace_trace_counts(TRACEHANDLE handle, struct nttrace_trace_counts *counts);

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_CONSUMER_H */
