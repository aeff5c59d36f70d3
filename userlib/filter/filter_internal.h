/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * EnableTraceEx2's filters (evfilter.c) and the payload filters
 * (tdh_filter.c): checked by the controller, kept by the provider's
 * registrations, applied by the provider to the user-mode logger's
 * events. Not installed.
 */
#ifndef NTTRACE_FILTER_INTERNAL_H
#define NTTRACE_FILTER_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include <nttrace/evntrace.h>

#include "../nt/nt_internal.h"

#include <pthread.h>

/* One enable's filters, checked; its copies of the caller's data. */
struct nttrace_filters {
	/* EVENT_FILTER_TYPE_EVENT_ID: the IDs sorted, no repeats */
	uint8_t has_ids, ids_in;
	uint16_t nids;
	uint16_t ids[64];		/* MAX_EVENT_FILTER_EVENT_ID_COUNT */
	/* EVENT_FILTER_TYPE_EVENT_NAME: its EVENT_FILTER_EVENT_NAME, copied */
	uint8_t has_names, names_in, names_level;
	uint16_t nnames;
	uint32_t names_end;		/* the end of its last name */
	uint64_t names_any, names_all;
	char *names;
	/* EVENT_FILTER_TYPE_PAYLOAD: TdhAggregatePayloadFilters' blob, copied */
	void *payload;
	uint32_t payload_size;
};

/*
 * EnableTraceEx2's filters of @p (NULL: none) for @provider: checked and
 * copied into *@out (NULL when there are none), or a Win32 error (see
 * evfilter.c). @kernel: for a kernel session, which applies the event-ID
 * filter only (the others: ERROR_NOT_SUPPORTED, once checked).
 */
ULONG nttrace_filters_parse(const ENABLE_TRACE_PARAMETERS *p, const GUID *provider,
			    int kernel, struct nttrace_filters **out);
/* A copy of @f (NULL: NULL, as on failure). */
struct nttrace_filters *nttrace_filters_dup(const struct nttrace_filters *f);
void nttrace_filters_free(struct nttrace_filters *f);
/* Whether @f lets an event of @provider through (the user-mode logger's). */
int nttrace_filters_pass(const struct nttrace_filters *f, const GUID *provider,
			 const struct nttrace_event_descriptor *d,
			 const struct nttrace_event_data_descriptor *data, uint32_t count,
			 uint32_t wflags);
/* Guards struct nttrace_event_reg.priv_filters (see there). */
extern pthread_rwlock_t nttrace_filters_lock;

/*
 * Payload filters (tdh_filter.c). nttrace_payload_check():
 * whether @blob, @size bytes, is an aggregate TdhAggregatePayloadFilters
 * made for @provider (ERROR_SUCCESS), else ERROR_INVALID_PARAMETER.
 * nttrace_payload_pass(): whether a checked @blob lets the event through:
 * events it names no filter for pass; a TraceLogging event's fields are
 * found with TDH from its metadata (@wflags, @data as EventWrite got
 * them); an event TDH cannot decode, or with a named field it lacks,
 * fails the predicate.
 */
ULONG nttrace_payload_check(const void *blob, uint32_t size, const GUID *provider);
int nttrace_payload_pass(const void *blob, const GUID *provider,
			 const struct nttrace_event_descriptor *d,
			 const struct nttrace_event_data_descriptor *data, uint32_t count,
			 uint32_t wflags);

#endif /* NTTRACE_FILTER_INTERNAL_H */
