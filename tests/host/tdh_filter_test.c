// SPDX-License-Identifier: GPL-2.0
/*
 * Payload filters (userlib/filter/tdh_filter.c), 64- and 32-bit, no
 * module: TdhCreatePayloadFilter's, TdhAggregatePayloadFilters',
 * TdhDeletePayloadFilter's and TdhCleanupPayloadEventFilterDescriptor's
 * errors and results as Microsoft documents them; the aggregate checked
 * as EnableTraceEx2 checks it (nttrace_payload_check); and its
 * evaluation over TraceLogging events built by hand (tlg_encode.h): each
 * operator, EventMatchANY, EventMatchALLFlags, other events, absent
 * fields, strings ignoring case, GUIDs in braces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/evntprov.h>
#include <nttrace/tdh.h>

#include "../../userlib/internal.h"
#include "../vm/tap.h"
#include "tlg_encode.h"

#define BITS ((int)sizeof(void *) * 8)

static const GUID prov = { 0x3970f9cf, 0x2c0c, 0x4f11,
			   { 0xb1, 0xcc, 0xe3, 0xa1, 0xe9, 0x95, 0x88, 0x33 } };
static const GUID other = { 0x3970f9cf, 0x2c0c, 0x4f11,
			    { 0xb1, 0xcc, 0xe3, 0xa1, 0xe9, 0x95, 0x88, 0x34 } };

/* Wide copies of ASCII strings, a few at a time. */
static WCHAR *w(const char *s)
{
	static WCHAR pool[16][80];
	static unsigned int next;
	WCHAR *p = pool[next++ % 16];
	unsigned int i;

	for (i = 0; s[i] && i < 79; i++)
		p[i] = (unsigned char)s[i];
	p[i] = 0;
	return p;
}

static PVOID one(const GUID *g, USHORT id, BOOLEAN any, const char *field, USHORT op,
		 const char *value)
{
	EVENT_DESCRIPTOR d = { .Id = id };
	PAYLOAD_FILTER_PREDICATE p = { w(field), op, w(value) };
	PVOID f = NULL;

	if (TdhCreatePayloadFilter(g, &d, any, 1, &p, &f))
		printf("# %s %u %s: not made\n", field, op, value);
	return f;
}

/* An event "E" (Id @id): n Int32, s String, u UInt8, g Guid. */
static struct tlg_buf meta, data;
static struct nttrace_event_data_descriptor dd[2];

static void event(int32_t n, const char *s, uint8_t u)
{
	static const GUID g = { 0x01020304, 0x0506, 0x0708, { 9, 10, 11, 12, 13, 14, 15, 16 } };

	tlg_begin(&meta, "E", 0);
	tlg_field(&meta, "n", 7, 0, 0);
	tlg_field(&meta, "s", 2, 0, 0);
	tlg_field(&meta, "u", 4, 0, 0);
	tlg_field(&meta, "g", 15, 0, 0);
	tlg_end(&meta);
	data.n = 0;
	tlg_u32(&data, (uint32_t)n);
	tlg_str(&data, s, 0);
	tlg_u8(&data, u);
	tlg_bytes(&data, &g, 16);
	memset(dd, 0, sizeof(dd));
	dd[0].ptr = (uintptr_t)meta.b;
	dd[0].size = meta.n;
	dd[0].reserved = NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA;
	dd[1].ptr = (uintptr_t)data.b;
	dd[1].size = data.n;
}

/* Aggregate @n filters (@all: EventMatchALLFlags, may be NULL), and pass? */
static int passes(PVOID *f, unsigned int n, BOOLEAN *all, USHORT id)
{
	struct nttrace_event_descriptor d = { .id = id, .level = 4 };
	EVENT_FILTER_DESCRIPTOR fd;
	int r;

	if (TdhAggregatePayloadFilters(n, f, all, &fd))
		return -1;
	if (nttrace_payload_check((void *)(uintptr_t)fd.Ptr, fd.Size, &prov))
		r = -2;
	else
		r = nttrace_payload_pass((void *)(uintptr_t)fd.Ptr, &prov, &d, dd, 2,
					 NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES);
	TdhCleanupPayloadEventFilterDescriptor(&fd);
	return r;
}

static int check1(USHORT op, const char *field, const char *value)
{
	PVOID f = one(&prov, 1, FALSE, field, op, value);
	int r = passes(&f, 1, NULL, 1);

	TdhDeletePayloadFilter(&f);
	return r;
}

static void test_create(void)
{
	EVENT_DESCRIPTOR d = { .Id = 1 };
	PAYLOAD_FILTER_PREDICATE p[MAX_PAYLOAD_PREDICATES + 1];
	EVENT_FILTER_DESCRIPTOR fd;
	PVOID f = (PVOID)1, fs[2];
	BOOLEAN all[2] = { FALSE, FALSE };
	unsigned int i;
	uint32_t *blob;

	for (i = 0; i <= MAX_PAYLOAD_PREDICATES; i++) {
		p[i].FieldName = w("n");
		p[i].CompareOp = PAYLOADFIELD_EQ;
		p[i].Value = w("1");
	}
	tap_eq(TdhCreatePayloadFilter(NULL, &d, 0, 1, p, &f), ERROR_INVALID_PARAMETER,
	       "%d-bit: Create: ProviderGuid NULL", BITS);
	tap_ok(f == NULL, "%d-bit: ... *PayloadFilter NULL", BITS);
	tap_eq(TdhCreatePayloadFilter(&prov, NULL, 0, 1, p, &f), ERROR_INVALID_PARAMETER,
	       "%d-bit: Create: EventDescriptor NULL", BITS);
	tap_eq(TdhCreatePayloadFilter(&prov, &d, 0, 0, p, &f), ERROR_INVALID_PARAMETER,
	       "%d-bit: Create: no predicate", BITS);
	tap_eq(TdhCreatePayloadFilter(&prov, &d, 0, MAX_PAYLOAD_PREDICATES + 1, p, &f),
	       ERROR_INVALID_PARAMETER, "%d-bit: Create: 9 predicates", BITS);
	tap_eq(GetLastError(), ERROR_INVALID_PARAMETER, "%d-bit: ... the last error", BITS);
	tap_eq(TdhCreatePayloadFilter(&prov, &d, 0, MAX_PAYLOAD_PREDICATES, p, &f),
	       ERROR_SUCCESS, "%d-bit: Create: 8 predicates", BITS);
	tap_eq(TdhDeletePayloadFilter(&f), ERROR_SUCCESS, "%d-bit: Delete", BITS);
	tap_ok(f == NULL, "%d-bit: ... sets it NULL", BITS);
	p[0].CompareOp = 9;
	tap_eq(TdhCreatePayloadFilter(&prov, &d, 0, 1, p, &f), ERROR_INVALID_PARAMETER,
	       "%d-bit: Create: unknown operator", BITS);
	p[0].CompareOp = PAYLOADFIELD_EQ;
	p[0].Value = w("abc");
	tap_eq(TdhCreatePayloadFilter(&prov, &d, 0, 1, p, &f), ERROR_INVALID_PARAMETER,
	       "%d-bit: Create: EQ of no number", BITS);
	p[0].CompareOp = PAYLOADFIELD_BETWEEN;
	p[0].Value = w("1");
	tap_eq(TdhCreatePayloadFilter(&prov, &d, 0, 1, p, &f), ERROR_INVALID_PARAMETER,
	       "%d-bit: Create: BETWEEN of one number", BITS);
	p[0].Value = w("1,0x10");
	tap_eq(TdhCreatePayloadFilter(&prov, &d, 0, 1, p, &f), ERROR_SUCCESS,
	       "%d-bit: Create: BETWEEN 1,0x10", BITS);
	TdhDeletePayloadFilter(&f);
	p[0].FieldName = w("");
	tap_eq(TdhCreatePayloadFilter(&prov, &d, 0, 1, p, &f), ERROR_INVALID_PARAMETER,
	       "%d-bit: Create: empty field name", BITS);
	p[0].FieldName = NULL;
	tap_eq(TdhCreatePayloadFilter(&prov, &d, 0, 1, p, &f), ERROR_INVALID_PARAMETER,
	       "%d-bit: Create: NULL field name", BITS);

	/* Aggregate: one provider; the descriptor; its size bound. */
	fs[0] = one(&prov, 1, 0, "n", PAYLOADFIELD_EQ, "1");
	fs[1] = one(&other, 1, 0, "n", PAYLOADFIELD_EQ, "1");
	tap_eq(TdhAggregatePayloadFilters(2, fs, all, &fd), ERROR_INVALID_PARAMETER,
	       "%d-bit: Aggregate: two providers", BITS);
	tap_eq(TdhAggregatePayloadFilters(0, fs, all, &fd), ERROR_INVALID_PARAMETER,
	       "%d-bit: Aggregate: no filter", BITS);
	tap_eq(TdhAggregatePayloadFilters(1, fs, NULL, &fd), ERROR_SUCCESS,
	       "%d-bit: Aggregate: EventMatchALLFlags NULL", BITS);
	tap_ok(fd.Type == EVENT_FILTER_TYPE_PAYLOAD && fd.Ptr && fd.Size >= 16 &&
	       fd.Size <= MAX_EVENT_FILTER_PAYLOAD_SIZE,
	       "%d-bit: ... an EVENT_FILTER_TYPE_PAYLOAD descriptor (%u bytes)", BITS, fd.Size);
	tap_eq(nttrace_payload_check((void *)(uintptr_t)fd.Ptr, fd.Size, &prov), ERROR_SUCCESS,
	       "%d-bit: ... EnableTraceEx2 takes it for its provider", BITS);
	tap_eq(nttrace_payload_check((void *)(uintptr_t)fd.Ptr, fd.Size, &other),
	       ERROR_INVALID_PARAMETER, "%d-bit: ... not for another", BITS);
	tap_eq(nttrace_payload_check((void *)(uintptr_t)fd.Ptr, fd.Size - 8, &prov),
	       ERROR_INVALID_PARAMETER, "%d-bit: ... nor cut short", BITS);
	blob = (uint32_t *)(uintptr_t)fd.Ptr;
	blob[2]++;
	tap_eq(nttrace_payload_check(blob, fd.Size, &prov), ERROR_INVALID_PARAMETER,
	       "%d-bit: ... nor with a count that lies", BITS);
	blob[2]--;
	tap_eq(TdhCleanupPayloadEventFilterDescriptor(&fd), ERROR_SUCCESS,
	       "%d-bit: Cleanup", BITS);
	tap_ok(!fd.Ptr && !fd.Size && fd.Type == EVENT_FILTER_TYPE_NONE,
	       "%d-bit: ... the descriptor emptied", BITS);
	{
		/* 4096 bytes at most: 8 predicates of long values, many filters. */
		PAYLOAD_FILTER_PREDICATE big[MAX_PAYLOAD_PREDICATES];
		PVOID many[8];
		char v[70];

		memset(v, 'x', sizeof(v) - 1);
		v[sizeof(v) - 1] = 0;
		for (i = 0; i < MAX_PAYLOAD_PREDICATES; i++) {
			big[i].FieldName = w("s");
			big[i].CompareOp = PAYLOADFIELD_IS;
			big[i].Value = w(v);
		}
		for (i = 0; i < 8; i++)
			TdhCreatePayloadFilter(&prov, &d, 0, MAX_PAYLOAD_PREDICATES, big, &many[i]);
		tap_eq(TdhAggregatePayloadFilters(8, many, NULL, &fd), ERROR_INVALID_PARAMETER,
		       "%d-bit: Aggregate: past MAX_EVENT_FILTER_PAYLOAD_SIZE", BITS);
		for (i = 0; i < 8; i++)
			TdhDeletePayloadFilter(&many[i]);
	}
	TdhDeletePayloadFilter(&fs[0]);
	TdhDeletePayloadFilter(&fs[1]);
}

static void test_eval(void)
{
	PVOID f[3];
	BOOLEAN all[3];

	event(-3, "Hello World", 200);
	tap_eq(check1(PAYLOADFIELD_EQ, "n", "-3"), 1, "%d-bit: EQ -3", BITS);
	tap_eq(check1(PAYLOADFIELD_NE, "n", "-3"), 0, "%d-bit: NE -3 fails", BITS);
	tap_eq(check1(PAYLOADFIELD_LT, "n", "0"), 1, "%d-bit: LT 0 (signed)", BITS);
	tap_eq(check1(PAYLOADFIELD_GT, "u", "199"), 1, "%d-bit: GT 199 (UInt8 200)", BITS);
	tap_eq(check1(PAYLOADFIELD_LE, "u", "199"), 0, "%d-bit: LE 199 fails", BITS);
	tap_eq(check1(PAYLOADFIELD_GE, "u", "0xC8"), 1, "%d-bit: GE 0xC8", BITS);
	tap_eq(check1(PAYLOADFIELD_BETWEEN, "n", "-3,5"), 1, "%d-bit: BETWEEN -3,5 (closed)",
	       BITS);
	tap_eq(check1(PAYLOADFIELD_NOTBETWEEN, "n", "-2,5"), 1, "%d-bit: NOTBETWEEN -2,5", BITS);
	tap_eq(check1(PAYLOADFIELD_MODULO, "u", "8"), 1, "%d-bit: MODULO 8 (200 = 25 * 8)", BITS);
	tap_eq(check1(PAYLOADFIELD_MODULO, "u", "7,4"), 1, "%d-bit: MODULO 7,4 (200 %% 7 = 4)",
	       BITS);
	tap_eq(check1(PAYLOADFIELD_CONTAINS, "s", "WORLD"), 1,
	       "%d-bit: CONTAINS ignores case", BITS);
	tap_eq(check1(PAYLOADFIELD_DOESNTCONTAIN, "s", "xyz"), 1, "%d-bit: DOESNTCONTAIN", BITS);
	tap_eq(check1(PAYLOADFIELD_IS, "s", "hello world"), 1, "%d-bit: IS ignores case", BITS);
	tap_eq(check1(PAYLOADFIELD_ISNOT, "s", "hello"), 1, "%d-bit: ISNOT", BITS);
	tap_eq(check1(PAYLOADFIELD_IS, "g", "{01020304-0506-0708-090A-0B0C0D0E0F10}"), 1,
	       "%d-bit: IS of a GUID in braces", BITS);
	tap_eq(check1(PAYLOADFIELD_CONTAINS, "n", "3"), 0,
	       "%d-bit: CONTAINS of an integer: false", BITS);
	tap_eq(check1(PAYLOADFIELD_EQ, "missing", "1"), 0, "%d-bit: a field the event lacks",
	       BITS);

	/* Another event ID: no filter names it, it passes. */
	f[0] = one(&prov, 1, FALSE, "n", PAYLOADFIELD_EQ, "99");
	tap_eq(passes(f, 1, NULL, 2), 1, "%d-bit: an event no filter names passes", BITS);
	tap_eq(passes(f, 1, NULL, 1), 0, "%d-bit: ... the one it names, failing, does not",
	       BITS);
	/* Unflagged: any one holding; flagged: all must hold. */
	f[1] = one(&prov, 1, FALSE, "n", PAYLOADFIELD_EQ, "-3");
	all[0] = all[1] = FALSE;
	tap_eq(passes(f, 2, all, 1), 1, "%d-bit: unflagged: one of two holding suffices", BITS);
	all[0] = all[1] = TRUE;
	tap_eq(passes(f, 2, all, 1), 0, "%d-bit: flagged: one of two failing fails", BITS);
	TdhDeletePayloadFilter(&f[0]);
	f[0] = one(&prov, 1, FALSE, "u", PAYLOADFIELD_EQ, "200");
	tap_eq(passes(f, 2, all, 1), 1, "%d-bit: flagged: both holding", BITS);
	TdhDeletePayloadFilter(&f[0]);
	TdhDeletePayloadFilter(&f[1]);
	{
		/* EventMatchANY: any predicate of one filter. */
		EVENT_DESCRIPTOR d = { .Id = 1 };
		PAYLOAD_FILTER_PREDICATE p[2] = {
			{ w("n"), PAYLOADFIELD_EQ, w("7") },
			{ w("u"), PAYLOADFIELD_EQ, w("200") },
		};

		TdhCreatePayloadFilter(&prov, &d, TRUE, 2, p, &f[2]);
		tap_eq(passes(&f[2], 1, NULL, 1), 1, "%d-bit: EventMatchANY: one of two", BITS);
		TdhDeletePayloadFilter(&f[2]);
		TdhCreatePayloadFilter(&prov, &d, FALSE, 2, p, &f[2]);
		tap_eq(passes(&f[2], 1, NULL, 1), 0, "%d-bit: not EventMatchANY: both needed",
		       BITS);
		TdhDeletePayloadFilter(&f[2]);
	}
}

int main(void)
{
	/* The encoder's other helpers, unused here. */
	(void)tlg_event;
	(void)tlg_provider;
	(void)tlg_u64;
	test_create();
	test_eval();
	return tap_done();
}
