// SPDX-License-Identifier: LGPL-2.1
/*
 * EnableTraceEx2's event filters (ENABLE_TRACE_PARAMETERS.EnableFilterDesc,
 * FilterDescCount): checked here for every session, and applied here for
 * the process's user-mode logger, whose enables live in the library
 * (provider/register.c keeps each EventRegister registration's filters
 * beside its private enable; provider/eventprov.c asks them before the
 * logger gets an event). A kernel session's event-ID filter is the
 * kernel's to apply (NTTRACE_IOC_ENABLE, uapi/nttrace.h); its other
 * filters are refused (controller/enable.c).
 *
 * What Microsoft documents and is followed (EnableTraceEx2,
 * ENABLE_TRACE_PARAMETERS, EVENT_FILTER_DESCRIPTOR, EVENT_FILTER_EVENT_ID,
 * EVENT_FILTER_EVENT_NAME pages; limits as evntprov.h has them):
 * - at most MAX_EVENT_FILTERS_COUNT descriptors, each Type at most once;
 * - EVENT_FILTER_TYPE_EVENT_ID: an EVENT_FILTER_EVENT_ID of 1 to
 *   MAX_EVENT_FILTER_EVENT_ID_COUNT IDs; FilterIn TRUE: only those IDs
 *   reach the session, FALSE: all others;
 * - EVENT_FILTER_TYPE_EVENT_NAME (TraceLogging events): an
 *   EVENT_FILTER_EVENT_NAME, NameCount NUL-terminated UTF-8 names, at most
 *   MAX_EVENT_FILTER_EVENT_NAME_SIZE bytes in all; it applies only to
 *   events the enable's own level and keywords take, and of those to the
 *   ones its own Level, MatchAnyKeyword and MatchAllKeyword describe;
 * - EVENT_FILTER_TYPE_PAYLOAD: what TdhAggregatePayloadFilters made, at
 *   most MAX_EVENT_FILTER_PAYLOAD_SIZE bytes (tdh_filter.c).
 *
 * Choices where Microsoft is silent:
 * - Every malformed descriptor is ERROR_INVALID_PARAMETER: Ptr NULL or
 *   Size 0, a Size smaller than its Count or NameCount needs or above the
 *   type's limit, Count or NameCount 0 or above the limit, a name not
 *   ended within Size, a payload filter not the library's or for another
 *   provider, a Type twice, more than MAX_EVENT_FILTERS_COUNT. A Size
 *   larger than needed (but within the limit) is accepted. A Type nttrace
 *   does not apply (PID, EXECUTABLE_NAME, SCHEMATIZED, STACKWALK, ...):
 *   ERROR_NOT_SUPPORTED.
 * - FilterDescCount 0 means no filter, whatever EnableFilterDesc holds;
 *   a version 1 ENABLE_TRACE_PARAMETERS (no count) has one descriptor
 *   when EnableFilterDesc is not NULL.
 * - The filters are the enable's: the next ENABLE replaces them (one
 *   without filters leaves none), DISABLE drops them. DISABLE and
 *   CAPTURE_STATE check them but do not use them.
 * - An event the name filter describes but that has no name (not a
 *   TraceLogging event: no EVENT_METADATA descriptor) matches no name.
 * - An event a filter keeps from a session is not wanted by it: it is
 *   not counted lost, and EventWrite returns ERROR_SUCCESS for it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>

#include "filter_internal.h"

pthread_rwlock_t nttrace_filters_lock = PTHREAD_RWLOCK_INITIALIZER;

/* EVENT_FILTER_EVENT_ID up to its Events; EVENT_FILTER_EVENT_NAME up to its Names. */
#define EVENT_ID_HEAD	4
#define EVENT_NAME_HEAD	20

static int u16_cmp(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

static ULONG parse_event_id(const EVENT_FILTER_DESCRIPTOR *d, struct nttrace_filters *f)
{
	EVENT_FILTER_EVENT_ID head;
	uint16_t ids[MAX_EVENT_FILTER_EVENT_ID_COUNT];
	unsigned int i, kept = 0;

	if (d->Size < EVENT_ID_HEAD || d->Size > MAX_EVENT_FILTER_DATA_SIZE)
		return ERROR_INVALID_PARAMETER;
	if (nttrace_safe_copy(&head, (const void *)(uintptr_t)d->Ptr, EVENT_ID_HEAD))
		return ERROR_NOACCESS;
	if (!head.Count || head.Count > MAX_EVENT_FILTER_EVENT_ID_COUNT ||
	    d->Size < EVENT_ID_HEAD + head.Count * sizeof(USHORT))
		return ERROR_INVALID_PARAMETER;
	if (nttrace_safe_copy(ids, (const uint8_t *)(uintptr_t)d->Ptr + EVENT_ID_HEAD,
			      head.Count * sizeof(USHORT)))
		return ERROR_NOACCESS;
	qsort(ids, head.Count, sizeof(ids[0]), u16_cmp);
	for (i = 0; i < head.Count; i++)
		if (!kept || f->ids[kept - 1] != ids[i])
			f->ids[kept++] = ids[i];
	f->nids = (uint16_t)kept;
	f->ids_in = head.FilterIn != 0;
	f->has_ids = 1;
	return ERROR_SUCCESS;
}

static ULONG parse_event_name(const EVENT_FILTER_DESCRIPTOR *d, struct nttrace_filters *f)
{
	EVENT_FILTER_EVENT_NAME head;
	const char *p, *end;
	unsigned int i;
	char *copy;

	if (d->Size < EVENT_NAME_HEAD || d->Size > MAX_EVENT_FILTER_EVENT_NAME_SIZE)
		return ERROR_INVALID_PARAMETER;
	copy = malloc(d->Size);
	if (!copy)
		return ERROR_NOT_ENOUGH_MEMORY;
	if (nttrace_safe_copy(copy, (const void *)(uintptr_t)d->Ptr, d->Size)) {
		free(copy);
		return ERROR_NOACCESS;
	}
	memcpy(&head, copy, EVENT_NAME_HEAD);
	/* NameCount names, each ended within Size. */
	p = copy + EVENT_NAME_HEAD;
	end = copy + d->Size;
	for (i = 0; i < head.NameCount && p < end; i++) {
		const char *nul = memchr(p, 0, (size_t)(end - p));

		if (!nul)
			break;
		p = nul + 1;
	}
	if (!head.NameCount || i != head.NameCount) {
		free(copy);
		return ERROR_INVALID_PARAMETER;
	}
	f->names = copy;
	f->names_end = (uint32_t)(p - copy);
	f->nnames = head.NameCount;
	f->names_any = head.MatchAnyKeyword;
	f->names_all = head.MatchAllKeyword;
	f->names_level = head.Level;
	f->names_in = head.FilterIn != 0;
	f->has_names = 1;
	return ERROR_SUCCESS;
}

static ULONG parse_payload(const EVENT_FILTER_DESCRIPTOR *d, const GUID *provider,
			   struct nttrace_filters *f)
{
	void *copy;
	ULONG err;

	if (d->Size > MAX_EVENT_FILTER_PAYLOAD_SIZE)
		return ERROR_INVALID_PARAMETER;
	copy = malloc(d->Size);
	if (!copy)
		return ERROR_NOT_ENOUGH_MEMORY;
	if (nttrace_safe_copy(copy, (const void *)(uintptr_t)d->Ptr, d->Size)) {
		free(copy);
		return ERROR_NOACCESS;
	}
	err = nttrace_payload_check(copy, d->Size, provider);
	if (err) {
		free(copy);
		return err;
	}
	f->payload = copy;
	f->payload_size = d->Size;
	return ERROR_SUCCESS;
}

void nttrace_filters_free(struct nttrace_filters *f)
{
	if (!f)
		return;
	free(f->names);
	free(f->payload);
	free(f);
}

struct nttrace_filters *nttrace_filters_dup(const struct nttrace_filters *f)
{
	struct nttrace_filters *c;

	if (!f)
		return NULL;
	c = malloc(sizeof(*c));
	if (!c)
		return NULL;
	*c = *f;
	c->names = NULL;
	c->payload = NULL;
	if (f->names) {
		c->names = malloc(f->names_end);
		if (!c->names)
			goto fail;
		memcpy(c->names, f->names, f->names_end);
	}
	if (f->payload) {
		c->payload = malloc(f->payload_size);
		if (!c->payload)
			goto fail;
		memcpy(c->payload, f->payload, f->payload_size);
	}
	return c;
fail:
	nttrace_filters_free(c);
	return NULL;
}

ULONG nttrace_filters_parse(const ENABLE_TRACE_PARAMETERS *p, const GUID *provider,
			    int kernel, struct nttrace_filters **out)
{
	const EVENT_FILTER_DESCRIPTOR *descs;
	EVENT_FILTER_DESCRIPTOR d;
	struct nttrace_filters *f;
	ULONG count, i, j, err = ERROR_SUCCESS;

	*out = NULL;
	if (!p)
		return ERROR_SUCCESS;
	descs = p->EnableFilterDesc;
	count = p->Version == ENABLE_TRACE_PARAMETERS_VERSION ? (descs ? 1 : 0) :
		p->FilterDescCount;
	if (!count)
		return ERROR_SUCCESS;
	if (count > MAX_EVENT_FILTERS_COUNT || !descs)
		return ERROR_INVALID_PARAMETER;
	f = calloc(1, sizeof(*f));
	if (!f)
		return ERROR_NOT_ENOUGH_MEMORY;
	for (i = 0; i < count && !err; i++) {
		EVENT_FILTER_DESCRIPTOR other;

		if (nttrace_safe_copy(&d, &descs[i], sizeof(d))) {
			err = ERROR_NOACCESS;
			break;
		}
		for (j = 0; j < i; j++) {
			if (nttrace_safe_copy(&other, &descs[j], sizeof(other)))
				other.Type = 0;
			if (other.Type == d.Type)
				err = ERROR_INVALID_PARAMETER;
		}
		if (err)
			break;
		if (!d.Ptr || !d.Size || d.Ptr > UINTPTR_MAX) {
			err = ERROR_INVALID_PARAMETER;
			break;
		}
		switch (d.Type) {
		case EVENT_FILTER_TYPE_EVENT_ID:
			err = parse_event_id(&d, f);
			break;
		case EVENT_FILTER_TYPE_EVENT_NAME:
			err = parse_event_name(&d, f);
			/* Checked, but the kernel does not read event names. */
			if (!err && kernel)
				err = ERROR_NOT_SUPPORTED;
			break;
		case EVENT_FILTER_TYPE_PAYLOAD:
			err = parse_payload(&d, provider, f);
			/* Checked, but the kernel cannot decode payloads. */
			if (!err && kernel)
				err = ERROR_NOT_SUPPORTED;
			break;
		default:
			err = ERROR_NOT_SUPPORTED;
			break;
		}
	}
	if (err) {
		nttrace_filters_free(f);
		return err;
	}
	*out = f;
	return ERROR_SUCCESS;
}

static int id_in(const struct nttrace_filters *f, uint16_t id)
{
	unsigned int lo = 0, hi = f->nids;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (f->ids[mid] == id)
			return 1;
		if (f->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Longest event name any filter can name, and the metadata before it. */
#define NAME_MAX_LEN	MAX_EVENT_FILTER_EVENT_NAME_SIZE
#define META_HEAD_MAX	(2 + 4)

/*
 * Whether the event's name (its EVENT_METADATA descriptor: UINT16 size,
 * 1 to 4 tag bytes, the NUL-terminated name; TraceLogging's format, see
 * tdh/tdh_tlg.c) is among @f's. An unreadable or malformed one, or
 * none, is no name.
 */
static int name_in(const struct nttrace_filters *f,
		   const struct nttrace_event_data_descriptor *data, uint32_t count,
		   uint32_t wflags)
{
	uint8_t buf[META_HEAD_MAX + NAME_MAX_LEN + 1];
	const uint8_t *name, *nul, *end;
	const char *p;
	uint32_t i, len;
	unsigned int t;

	if (!(wflags & NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES))
		return 0;
	for (i = 0; i < count; i++)
		if ((data[i].reserved & 0xFF) == NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA)
			break;
	if (i == count || data[i].ptr > UINTPTR_MAX || data[i].size < 4)
		return 0;
	len = data[i].size < sizeof(buf) ? data[i].size : sizeof(buf);
	if (nttrace_safe_copy(buf, (const void *)(uintptr_t)data[i].ptr, len))
		return 0;
	end = buf + len;
	/* The tags: bytes while the high bit says another follows, at most 4. */
	for (t = 0, name = buf + 2; t < 4 && name < end; t++)
		if (!(*name++ & 0x80))
			break;
	if (name >= end)
		return 0;
	nul = memchr(name, 0, (size_t)(end - name));
	if (!nul)
		return 0;
	for (p = f->names + EVENT_NAME_HEAD; p < f->names + f->names_end; p += strlen(p) + 1)
		if (!strcmp(p, (const char *)name))
			return 1;
	return 0;
}

/*
 * Whether the name filter's Level, MatchAnyKeyword and MatchAllKeyword
 * describe the event: McGenLevelKeywordEnabled's rule, but (as the
 * EVENT_FILTER_EVENT_NAME page says MatchAllKeyword is not used then)
 * MatchAnyKeyword 0 describes every keyword.
 */
static int names_describe(const struct nttrace_filters *f, const struct nttrace_event_descriptor *d)
{
	if (f->names_level && d->level > f->names_level)
		return 0;
	return !f->names_any || !d->keyword ||
	       ((d->keyword & f->names_any) && (d->keyword & f->names_all) == f->names_all);
}

int nttrace_filters_pass(const struct nttrace_filters *f, const GUID *provider,
			 const struct nttrace_event_descriptor *d,
			 const struct nttrace_event_data_descriptor *data, uint32_t count,
			 uint32_t wflags)
{
	if (f->has_ids && id_in(f, d->id) != f->ids_in)
		return 0;
	if (f->has_names && names_describe(f, d) &&
	    name_in(f, data, count, wflags) != f->names_in)
		return 0;
	if (f->payload && !nttrace_payload_pass(f->payload, provider, d, data, count, wflags))
		return 0;
	return 1;
}
