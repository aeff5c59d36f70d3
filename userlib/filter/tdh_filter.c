// SPDX-License-Identifier: LGPL-2.1
/*
 * Payload filters: TdhCreatePayloadFilter, TdhDeletePayloadFilter,
 * TdhAggregatePayloadFilters, TdhCleanupPayloadEventFilterDescriptor,
 * and their evaluation for the user-mode logger (nttrace_payload_pass,
 * called by evfilter.c for EnableTraceEx2's
 * EVENT_FILTER_TYPE_PAYLOAD).
 *
 * What Microsoft documents (the four functions' pages, PAYLOAD_FILTER_PREDICATE,
 * tdh.h's PAYLOAD_OPERATOR, MAX_PAYLOAD_PREDICATES and evntprov.h's
 * MAX_EVENT_FILTER_PAYLOAD_SIZE):
 * - a single filter names a provider, an event descriptor, whether any
 *   (EventMatchANY TRUE) or all of its predicates must hold, and up to
 *   MAX_PAYLOAD_PREDICATES predicates (field name, operator, value
 *   string);
 * - the integer operators EQ, NE, LE, GT, LT, GE take one number,
 *   BETWEEN and NOTBETWEEN two separated by a comma, a closed interval;
 *   CONTAINS and DOESNTCONTAIN are for strings, IS and ISNOT for strings
 *   and other values (a GUID, written in braces); every string comparison
 *   ignores case; floating point, binary, pointer, SID and SYSTEMTIME
 *   fields cannot be compared;
 * - aggregating: the filters of one provider; EventMatchALLFlags (may be
 *   NULL: all FALSE) says per filter how several filters of one event
 *   combine: the event passes if all its flagged (TRUE) filters hold, or
 *   if any of its unflagged ones holds; the descriptor made is an
 *   EVENT_FILTER_TYPE_PAYLOAD one whose memory
 *   TdhCleanupPayloadEventFilterDescriptor frees.
 *
 * The layouts are nttrace's: Windows' single filter and aggregate are
 * opaque (PVOID and the descriptor's Ptr). A single filter is one record;
 * the aggregate, a header and the records one after the other, each
 * 8-byte aligned, checked whole before EnableTraceEx2 uses them
 * (nttrace_payload_check):
 *   aggregate: u32 magic PF_AGG, u32 size, u32 count, u32 0
 *   record:    u32 magic PF_REC, u32 size, GUID provider, EVENT_DESCRIPTOR,
 *              u8 EventMatchANY, u8 EventMatchALLFlag, u16 predicates, u32 0
 *   predicate: u16 operator, u16 name WCHARs, u16 value WCHARs, u16 0,
 *              then the name and value, each with its NUL, padded to 8
 *
 * Choices where Microsoft is silent:
 * - Without a manifest the schema is the event's own: field names and
 *   types are not checked when the filter is made, but when an event is
 *   (TraceLogging events, by TDH from their metadata: DecodingSourceTlg).
 *   A field the event lacks, one inside a structure, an array, an event
 *   TDH cannot decode, or an operator the field's type does not take:
 *   the predicate is false.
 * - An event no filter of the aggregate names (by Id and Version) passes.
 *   An event with both flagged and unflagged filters passes when both
 *   rules hold.
 * - A value is a decimal or 0x-prefixed hexadecimal number, signed for
 *   signed fields; MODULO takes "m" (the field is a multiple of m) or
 *   "m,r" (the field modulo m is r), m not 0.
 * - Case is ignored for ASCII letters; an ANSI string's bytes compare as
 *   Latin-1 characters.
 * - Errors: a NULL argument, a predicate count of 0 or past
 *   MAX_PAYLOAD_PREDICATES, a NULL or empty field name, a NULL value, an
 *   unknown operator, a value its operator cannot read, an aggregate of
 *   filters of several providers, of something not made by
 *   TdhCreatePayloadFilter or over MAX_EVENT_FILTER_PAYLOAD_SIZE: all
 *   ERROR_INVALID_PARAMETER; no memory, ERROR_NOT_ENOUGH_MEMORY. Each sets
 *   the last error too, as tdh_stub.c's functions do.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/tdh.h>

#include "filter_internal.h"

#define PF_REC		0x52465054U	/* "TPFR" */
#define PF_AGG		0x41465054U	/* "TPFA" */
#define REC_HEAD	48
#define AGG_HEAD	16
#define PRED_HEAD	8
#define NAME_MAX_WCHARS	1024

struct rec {
	uint32_t magic, size;
	GUID provider;
	EVENT_DESCRIPTOR event;
	uint8_t match_any, match_all;
	uint16_t npred;
	uint32_t pad;
};

struct pred {
	uint16_t op, name_len, value_len, pad;
};

_Static_assert(sizeof(struct rec) == REC_HEAD, "record header");
_Static_assert(sizeof(struct pred) == PRED_HEAD, "predicate header");

static TDHSTATUS fail(TDHSTATUS err)
{
	SetLastError(err);
	return err;
}

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static size_t wlen(const WCHAR *s)
{
	size_t n = 0;

	while (s[n] && n <= NAME_MAX_WCHARS)
		n++;
	return n;
}

/* @s (@n WCHARs) as ASCII into @buf, or -1 (not ASCII, too long). */
static int ascii_of(const WCHAR *s, size_t n, char *buf, size_t room)
{
	size_t i;

	if (n >= room)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] > 0x7F)
			return -1;
		buf[i] = (char)s[i];
	}
	buf[n] = 0;
	return 0;
}

/* One number of a value: decimal or 0x hexadecimal, optionally signed. */
static int number(const char *s, const char **end, int64_t *v)
{
	char *e;

	while (*s == ' ')
		s++;
	errno = 0;
	if (*s == '-')
		*v = strtoll(s, &e, 0);
	else
		*v = (int64_t)strtoull(s, &e, 0);
	if (e == s || errno)
		return -1;
	while (*e == ' ')
		e++;
	*end = e;
	return 0;
}

/* The numbers of @value (ASCII): 1 or 2 of them, else -1. */
static int numbers(const char *value, int64_t v[2])
{
	const char *p;

	if (number(value, &p, &v[0]))
		return -1;
	if (!*p)
		return 1;
	if (*p != ',' || number(p + 1, &p, &v[1]) || *p)
		return -1;
	return 2;
}

/* Whether @op and @value (@n WCHARs) go together. */
static int pred_valid(USHORT op, const WCHAR *value, size_t n)
{
	char buf[64];
	int64_t v[2];
	int got;

	switch (op) {
	case PAYLOADFIELD_CONTAINS:
	case PAYLOADFIELD_DOESNTCONTAIN:
	case PAYLOADFIELD_IS:
	case PAYLOADFIELD_ISNOT:
		return 1;
	case PAYLOADFIELD_EQ:
	case PAYLOADFIELD_NE:
	case PAYLOADFIELD_LE:
	case PAYLOADFIELD_GT:
	case PAYLOADFIELD_LT:
	case PAYLOADFIELD_GE:
	case PAYLOADFIELD_BETWEEN:
	case PAYLOADFIELD_NOTBETWEEN:
	case PAYLOADFIELD_MODULO:
		if (ascii_of(value, n, buf, sizeof(buf)))
			return 0;
		got = numbers(buf, v);
		if (op == PAYLOADFIELD_BETWEEN || op == PAYLOADFIELD_NOTBETWEEN)
			return got == 2;
		if (op == PAYLOADFIELD_MODULO)
			return got >= 1 && v[0] != 0;
		return got == 1;
	default:
		return 0;
	}
}

TDHSTATUS WINAPI TdhCreatePayloadFilter(LPCGUID ProviderGuid,
					PCEVENT_DESCRIPTOR EventDescriptor,
					BOOLEAN EventMatchANY, ULONG PayloadPredicateCount,
					PPAYLOAD_FILTER_PREDICATE PayloadPredicates,
					PVOID *PayloadFilter)
{
	size_t size = REC_HEAD, at;
	struct rec *r;
	ULONG i;

	if (PayloadFilter)
		*PayloadFilter = NULL;
	if (!ProviderGuid || !EventDescriptor || !PayloadFilter || !PayloadPredicates ||
	    !PayloadPredicateCount || PayloadPredicateCount > MAX_PAYLOAD_PREDICATES)
		return fail(ERROR_INVALID_PARAMETER);
	for (i = 0; i < PayloadPredicateCount; i++) {
		const PAYLOAD_FILTER_PREDICATE *p = &PayloadPredicates[i];
		size_t n, v;

		if (!p->FieldName || !p->Value)
			return fail(ERROR_INVALID_PARAMETER);
		n = wlen(p->FieldName);
		v = wlen(p->Value);
		if (!n || n > NAME_MAX_WCHARS || v > NAME_MAX_WCHARS ||
		    !pred_valid(p->CompareOp, p->Value, v))
			return fail(ERROR_INVALID_PARAMETER);
		size += align8(PRED_HEAD + (n + 1 + v + 1) * sizeof(WCHAR));
	}
	r = calloc(1, size);
	if (!r)
		return fail(ERROR_NOT_ENOUGH_MEMORY);
	r->magic = PF_REC;
	r->size = (uint32_t)size;
	r->provider = *ProviderGuid;
	r->event = *EventDescriptor;
	r->match_any = EventMatchANY ? 1 : 0;
	r->npred = (uint16_t)PayloadPredicateCount;
	at = REC_HEAD;
	for (i = 0; i < PayloadPredicateCount; i++) {
		const PAYLOAD_FILTER_PREDICATE *p = &PayloadPredicates[i];
		struct pred h = { .op = p->CompareOp };
		WCHAR *w;

		h.name_len = (uint16_t)(wlen(p->FieldName) + 1);
		h.value_len = (uint16_t)(wlen(p->Value) + 1);
		memcpy((uint8_t *)r + at, &h, sizeof(h));
		w = (WCHAR *)((uint8_t *)r + at + PRED_HEAD);
		memcpy(w, p->FieldName, h.name_len * sizeof(WCHAR));
		memcpy(w + h.name_len, p->Value, h.value_len * sizeof(WCHAR));
		at += align8(PRED_HEAD + (h.name_len + h.value_len) * sizeof(WCHAR));
	}
	*PayloadFilter = r;
	SetLastError(ERROR_SUCCESS);
	return ERROR_SUCCESS;
}

TDHSTATUS WINAPI TdhDeletePayloadFilter(PVOID *PayloadFilter)
{
	struct rec *r;

	if (!PayloadFilter)
		return fail(ERROR_INVALID_PARAMETER);
	r = *PayloadFilter;
	if (r && r->magic != PF_REC)
		return fail(ERROR_INVALID_PARAMETER);
	if (r)
		r->magic = 0;
	free(r);
	*PayloadFilter = NULL;
	SetLastError(ERROR_SUCCESS);
	return ERROR_SUCCESS;
}

/*
 * Whether the @size bytes at @p hold one whole record (of @provider, if
 * not NULL): its header, and its predicates within its size.
 */
static int rec_valid(const uint8_t *p, size_t size, const GUID *provider)
{
	struct rec r;
	size_t at;
	unsigned int i;

	if (size < REC_HEAD)
		return 0;
	memcpy(&r, p, REC_HEAD);
	if (r.magic != PF_REC || r.size < REC_HEAD || r.size > size || r.size % 8 ||
	    !r.npred || r.npred > MAX_PAYLOAD_PREDICATES || r.match_any > 1 ||
	    r.match_all > 1 || r.pad ||
	    (provider && memcmp(&r.provider, provider, sizeof(GUID))))
		return 0;
	for (i = 0, at = REC_HEAD; i < r.npred; i++) {
		struct pred h;
		const WCHAR *w;
		size_t len;

		if (at + PRED_HEAD > r.size)
			return 0;
		memcpy(&h, p + at, PRED_HEAD);
		len = align8(PRED_HEAD + ((size_t)h.name_len + h.value_len) * sizeof(WCHAR));
		if (h.name_len < 2 || !h.value_len || h.pad || at + len > r.size)
			return 0;
		w = (const WCHAR *)(p + at + PRED_HEAD);
		if (w[h.name_len - 1] || w[h.name_len + h.value_len - 1] ||
		    !pred_valid(h.op, w + h.name_len, h.value_len - 1u))
			return 0;
		at += len;
	}
	return at == r.size;
}

TDHSTATUS WINAPI TdhAggregatePayloadFilters(ULONG PayloadFilterCount, PVOID *PayloadFilterPtrs,
					    PBOOLEAN EventMatchALLFlags,
					    PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor)
{
	uint32_t head[4] = { PF_AGG, 0, 0, 0 };
	const struct rec *first;
	size_t size = AGG_HEAD, at;
	uint8_t *blob;
	ULONG i;

	if (!PayloadFilterCount || !PayloadFilterPtrs || !EventFilterDescriptor ||
	    !PayloadFilterPtrs[0])
		return fail(ERROR_INVALID_PARAMETER);
	first = PayloadFilterPtrs[0];
	for (i = 0; i < PayloadFilterCount; i++) {
		const struct rec *r = PayloadFilterPtrs[i];

		/* A record's size is in its header: read that first. */
		if (!r || r->magic != PF_REC ||
		    !rec_valid((const uint8_t *)r, r->size, &first->provider))
			return fail(ERROR_INVALID_PARAMETER);
		size += r->size;
		if (size > MAX_EVENT_FILTER_PAYLOAD_SIZE)
			return fail(ERROR_INVALID_PARAMETER);
	}
	blob = calloc(1, size);
	if (!blob)
		return fail(ERROR_NOT_ENOUGH_MEMORY);
	head[1] = (uint32_t)size;
	head[2] = PayloadFilterCount;
	memcpy(blob, head, sizeof(head));
	for (i = 0, at = AGG_HEAD; i < PayloadFilterCount; i++) {
		const struct rec *r = PayloadFilterPtrs[i];

		memcpy(blob + at, r, r->size);
		/* EventMatchALLFlags: this filter's (offset of match_all). */
		blob[at + offsetof(struct rec, match_all)] =
			EventMatchALLFlags && EventMatchALLFlags[i] ? 1 : 0;
		at += r->size;
	}
	EventFilterDescriptor->Ptr = (uintptr_t)blob;
	EventFilterDescriptor->Size = (ULONG)size;
	EventFilterDescriptor->Type = EVENT_FILTER_TYPE_PAYLOAD;
	SetLastError(ERROR_SUCCESS);
	return ERROR_SUCCESS;
}

TDHSTATUS WINAPI TdhCleanupPayloadEventFilterDescriptor(PEVENT_FILTER_DESCRIPTOR
							EventFilterDescriptor)
{
	uint32_t *blob;

	if (!EventFilterDescriptor || EventFilterDescriptor->Type != EVENT_FILTER_TYPE_PAYLOAD)
		return fail(ERROR_INVALID_PARAMETER);
	blob = (uint32_t *)(uintptr_t)EventFilterDescriptor->Ptr;
	if (blob && blob[0] != PF_AGG)
		return fail(ERROR_INVALID_PARAMETER);
	if (blob)
		blob[0] = 0;
	free(blob);
	EventFilterDescriptor->Ptr = 0;
	EventFilterDescriptor->Size = 0;
	EventFilterDescriptor->Type = EVENT_FILTER_TYPE_NONE;
	SetLastError(ERROR_SUCCESS);
	return ERROR_SUCCESS;
}

ULONG nttrace_payload_check(const void *blob, uint32_t size, const GUID *provider)
{
	const uint8_t *b = blob;
	uint32_t head[4], i, at;

	if (size < AGG_HEAD || size % 8)
		return ERROR_INVALID_PARAMETER;
	memcpy(head, b, sizeof(head));
	if (head[0] != PF_AGG || head[1] != size || !head[2] || head[3])
		return ERROR_INVALID_PARAMETER;
	for (i = 0, at = AGG_HEAD; i < head[2]; i++) {
		struct rec r;

		if (!rec_valid(b + at, size - at, provider))
			return ERROR_INVALID_PARAMETER;
		memcpy(&r, b + at, REC_HEAD);
		at += r.size;
	}
	return at == size ? ERROR_SUCCESS : ERROR_INVALID_PARAMETER;
}

/* ---- evaluation ---- */

/* The event as TDH takes it: a record with its metadata items and its data. */
struct pf_event {
	EVENT_RECORD er;
	EVENT_HEADER_EXTENDED_DATA_ITEM x[2];
	uint8_t *copy;			/* the descriptors' bytes */
	TRACE_EVENT_INFO *tei;
	int state;			/* 0: not built, 1: built, -1: cannot */
};

/* A descriptor's Type, when the provider asked for Types. */
static uint32_t desc_type(const struct nttrace_event_data_descriptor *dd, uint32_t wflags)
{
	return wflags & NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES ? dd->reserved & 0xFF : 0;
}

/*
 * Copy the event's bytes (the caller's memory, read once here) and ask
 * TDH for its TRACE_EVENT_INFO: 1, or -1 (unreadable, no memory, TDH
 * cannot decode it). The data descriptors' bytes one after the other as
 * UserData, the metadata ones as the items ProcessTrace would give.
 */
static int pf_build(struct pf_event *ev, const GUID *provider,
		    const struct nttrace_event_descriptor *d,
		    const struct nttrace_event_data_descriptor *data, uint32_t count,
		    uint32_t wflags)
{
	uint32_t i, total = 0, at = 0, n = 0, type, pass;
	ULONG size = 0;

	/* EventWrite's callers bound them: at most 128 of 32 bits each. */
	for (i = 0; i < count; i++)
		total += data[i].size;
	if (total > 0xFFFF * 3)
		return -1;
	ev->copy = malloc(total ? total : 1);
	if (!ev->copy)
		return -1;
	/* The data first (pass 0), then the metadata (pass 1). */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < count; i++) {
			type = desc_type(&data[i], wflags);
			if ((type != 0) != (pass == 1))
				continue;
			if (data[i].ptr > UINTPTR_MAX ||
			    nttrace_safe_copy(ev->copy + at, (const void *)(uintptr_t)data[i].ptr,
					      data[i].size))
				return -1;
			if (type && n < 2 && data[i].size <= 0xFFFF) {
				ev->x[n].ExtType =
					type == NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA ?
					EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL :
					EVENT_HEADER_EXT_TYPE_PROV_TRAITS;
				ev->x[n].DataSize = (USHORT)data[i].size;
				ev->x[n++].DataPtr = (uintptr_t)(ev->copy + at);
			}
			at += data[i].size;
		}
		if (!pass) {
			if (at > 0xFFFF)
				return -1;
			ev->er.UserData = ev->copy;
			ev->er.UserDataLength = (USHORT)at;
		}
	}
	ev->er.EventHeader.Size = sizeof(EVENT_HEADER);
	ev->er.EventHeader.Flags = (n ? EVENT_HEADER_FLAG_EXTENDED_INFO : 0) |
				   (sizeof(void *) == 4 ? EVENT_HEADER_FLAG_32_BIT_HEADER :
							  EVENT_HEADER_FLAG_64_BIT_HEADER);
	ev->er.EventHeader.ProviderId = *provider;
	memcpy(&ev->er.EventHeader.EventDescriptor, d, sizeof(*d));
	ev->er.ExtendedDataCount = (USHORT)n;
	ev->er.ExtendedData = n ? ev->x : NULL;
	if (TdhGetEventInformation(&ev->er, 0, NULL, NULL, &size) != ERROR_INSUFFICIENT_BUFFER)
		return -1;
	ev->tei = malloc(size);
	if (!ev->tei || TdhGetEventInformation(&ev->er, 0, NULL, ev->tei, &size))
		return -1;
	return 1;
}

static int wfold(WCHAR c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static int wcase_eq(const WCHAR *a, size_t n, const WCHAR *b, size_t m)
{
	size_t i;

	if (n != m)
		return 0;
	for (i = 0; i < n; i++)
		if (wfold(a[i]) != wfold(b[i]))
			return 0;
	return 1;
}

static int wcase_contains(const WCHAR *hay, size_t n, const WCHAR *needle, size_t m)
{
	size_t i;

	for (i = 0; i + m <= n; i++)
		if (wcase_eq(hay + i, m, needle, m))
			return 1;
	return 0;
}

static int is_signed(USHORT in)
{
	return in == TDH_INTYPE_INT8 || in == TDH_INTYPE_INT16 || in == TDH_INTYPE_INT32 ||
	       in == TDH_INTYPE_INT64;
}

static int is_integer(USHORT in)
{
	switch (in) {
	case TDH_INTYPE_INT8: case TDH_INTYPE_UINT8: case TDH_INTYPE_INT16:
	case TDH_INTYPE_UINT16: case TDH_INTYPE_INT32: case TDH_INTYPE_UINT32:
	case TDH_INTYPE_INT64: case TDH_INTYPE_UINT64: case TDH_INTYPE_BOOLEAN:
	case TDH_INTYPE_FILETIME: case TDH_INTYPE_HEXINT32: case TDH_INTYPE_HEXINT64:
		return 1;
	default:
		return 0;
	}
}

static int cmp_int(USHORT in, uint64_t field, int64_t v)
{
	if (is_signed(in))
		return (int64_t)field < v ? -1 : (int64_t)field > v;
	return field < (uint64_t)v ? -1 : field > (uint64_t)v;
}

static int int_pred(USHORT op, USHORT in, const uint8_t *b, ULONG len, const WCHAR *value,
		    size_t vlen)
{
	uint64_t field;
	char buf[64];
	int64_t v[2] = { 0, 0 };
	int got;

	if (!len || len > 8 || ascii_of(value, vlen, buf, sizeof(buf)))
		return 0;
	field = nttrace_get_le(b, (int)len);
	if (is_signed(in) && len < 8 && (field >> (len * 8 - 1)) & 1)
		field |= ~0ULL << (len * 8);
	got = numbers(buf, v);
	switch (op) {
	case PAYLOADFIELD_EQ: return cmp_int(in, field, v[0]) == 0;
	case PAYLOADFIELD_NE: return cmp_int(in, field, v[0]) != 0;
	case PAYLOADFIELD_LE: return cmp_int(in, field, v[0]) <= 0;
	case PAYLOADFIELD_GT: return cmp_int(in, field, v[0]) > 0;
	case PAYLOADFIELD_LT: return cmp_int(in, field, v[0]) < 0;
	case PAYLOADFIELD_GE: return cmp_int(in, field, v[0]) >= 0;
	case PAYLOADFIELD_BETWEEN:
		return cmp_int(in, field, v[0]) >= 0 && cmp_int(in, field, v[1]) <= 0;
	case PAYLOADFIELD_NOTBETWEEN:
		return !(cmp_int(in, field, v[0]) >= 0 && cmp_int(in, field, v[1]) <= 0);
	case PAYLOADFIELD_MODULO:
		if (!v[0])
			return 0;
		if (is_signed(in))
			return (int64_t)field % v[0] == (got == 2 ? v[1] : 0);
		return field % (uint64_t)v[0] == (uint64_t)(got == 2 ? v[1] : 0);
	case PAYLOADFIELD_IS: return cmp_int(in, field, v[0]) == 0;
	case PAYLOADFIELD_ISNOT: return cmp_int(in, field, v[0]) != 0;
	default: return 0;
	}
}

static int str_pred(USHORT op, USHORT in, const uint8_t *b, ULONG len, const WCHAR *value,
		    size_t vlen)
{
	WCHAR *s;
	size_t n, i;
	int r;

	if (in == TDH_INTYPE_UNICODESTRING) {
		n = len / 2;
		s = malloc((n + 1) * sizeof(WCHAR));
		if (!s)
			return 0;
		memcpy(s, b, n * sizeof(WCHAR));
	} else {
		n = len;
		s = malloc((n + 1) * sizeof(WCHAR));
		if (!s)
			return 0;
		for (i = 0; i < n; i++)
			s[i] = b[i];	/* Latin-1 */
	}
	while (n && !s[n - 1])	/* the NUL TDH counts */
		n--;
	switch (op) {
	case PAYLOADFIELD_CONTAINS: r = wcase_contains(s, n, value, vlen); break;
	case PAYLOADFIELD_DOESNTCONTAIN: r = !wcase_contains(s, n, value, vlen); break;
	case PAYLOADFIELD_IS: r = wcase_eq(s, n, value, vlen); break;
	case PAYLOADFIELD_ISNOT: r = !wcase_eq(s, n, value, vlen); break;
	default: r = 0; break;
	}
	free(s);
	return r;
}

static int guid_pred(USHORT op, const uint8_t *b, ULONG len, const WCHAR *value, size_t vlen)
{
	WCHAR w[39];
	char a[39];
	GUID g;
	int i, eq;

	if (len != 16 || (op != PAYLOADFIELD_IS && op != PAYLOADFIELD_ISNOT))
		return 0;
	memcpy(&g, b, 16);
	snprintf(a, sizeof(a), "{%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}",
		 g.Data1, g.Data2, g.Data3, g.Data4[0], g.Data4[1], g.Data4[2], g.Data4[3],
		 g.Data4[4], g.Data4[5], g.Data4[6], g.Data4[7]);
	for (i = 0; i < 38; i++)
		w[i] = (WCHAR)a[i];
	eq = wcase_eq(w, 38, value, vlen);
	return op == PAYLOADFIELD_IS ? eq : !eq;
}

/* One predicate over the built event. */
static int pred_holds(struct pf_event *ev, const struct pred *h, const WCHAR *name,
		      const WCHAR *value)
{
	const TRACE_EVENT_INFO *tei = ev->tei;
	PROPERTY_DATA_DESCRIPTOR pd;
	const EVENT_PROPERTY_INFO *p = NULL;
	uint8_t *buf;
	ULONG i, size = 0;
	USHORT in;
	int r;

	for (i = 0; i < tei->TopLevelPropertyCount; i++) {
		const WCHAR *pn = (const WCHAR *)((const uint8_t *)tei +
						  tei->EventPropertyInfoArray[i].NameOffset);

		if (wcase_eq(pn, wlen(pn), name, h->name_len - 1u)) {
			p = &tei->EventPropertyInfoArray[i];
			break;
		}
	}
	if (!p || (p->Flags & (PropertyStruct | PropertyParamCount | PropertyParamFixedCount)) ||
	    p->count > 1)
		return 0;
	in = p->nonStructType.InType;
	memset(&pd, 0, sizeof(pd));
	pd.PropertyName = (uintptr_t)((const uint8_t *)tei + p->NameOffset);
	pd.ArrayIndex = 0xFFFFFFFFU;	/* not an array element */
	if (TdhGetPropertySize(&ev->er, 0, NULL, 1, &pd, &size) || size > 0xFFFF)
		return 0;
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	if (TdhGetProperty(&ev->er, 0, NULL, 1, &pd, size, buf)) {
		free(buf);
		return 0;
	}
	if (is_integer(in))
		r = int_pred(h->op, in, buf, size, value, h->value_len - 1u);
	else if (in == TDH_INTYPE_UNICODESTRING || in == TDH_INTYPE_ANSISTRING)
		r = str_pred(h->op, in, buf, size, value, h->value_len - 1u);
	else if (in == TDH_INTYPE_GUID)
		r = guid_pred(h->op, buf, size, value, h->value_len - 1u);
	else
		r = 0;
	free(buf);
	return r;
}

/* One record over the event: any or all of its predicates. */
static int rec_holds(struct pf_event *ev, const uint8_t *p, const struct rec *r)
{
	size_t at = REC_HEAD;
	unsigned int i;

	for (i = 0; i < r->npred; i++) {
		struct pred h;
		const WCHAR *w;
		int ok;

		memcpy(&h, p + at, PRED_HEAD);
		w = (const WCHAR *)(p + at + PRED_HEAD);
		ok = ev->state > 0 && pred_holds(ev, &h, w, w + h.name_len);
		if (r->match_any && ok)
			return 1;
		if (!r->match_any && !ok)
			return 0;
		at += align8(PRED_HEAD + ((size_t)h.name_len + h.value_len) * sizeof(WCHAR));
	}
	return !r->match_any;
}

int nttrace_payload_pass(const void *blob, const GUID *provider,
			 const struct nttrace_event_descriptor *d,
			 const struct nttrace_event_data_descriptor *data, uint32_t count,
			 uint32_t wflags)
{
	const uint8_t *b = blob;
	struct pf_event ev;
	uint32_t head[4], i, at;
	int flagged = 0, flagged_ok = 1, unflagged = 0, unflagged_ok = 0;

	memset(&ev, 0, sizeof(ev));
	memcpy(head, b, sizeof(head));
	for (i = 0, at = AGG_HEAD; i < head[2]; i++) {
		struct rec r;
		int ok;

		memcpy(&r, b + at, REC_HEAD);
		if (r.event.Id == d->id && r.event.Version == d->version) {
			if (!ev.state)
				ev.state = pf_build(&ev, provider, d, data, count, wflags);
			ok = rec_holds(&ev, b + at, &r);
			if (r.match_all) {
				flagged = 1;
				flagged_ok &= ok;
			} else {
				unflagged = 1;
				unflagged_ok |= ok;
			}
		}
		at += r.size;
	}
	free(ev.copy);
	free(ev.tei);
	return (!flagged || flagged_ok) && (!unflagged || unflagged_ok);
}
