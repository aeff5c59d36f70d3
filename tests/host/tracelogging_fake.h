/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For tests/host/tracelogging_test.c and tracelogging_cpp_test.cpp: the
 * evntprov.h calls tracelogging.c makes, played (they record what they
 * are given), and an encoder of TraceLogging's metadata written from the
 * format (TraceLoggingDynamic.h's description), not from the macros.
 * Included once, by the test's one source file.
 */
#ifndef NTTRACE_TRACELOGGING_FAKE_H
#define NTTRACE_TRACELOGGING_FAKE_H

/* The functions are played here: calls to them, not the header's inline tests. */
#define NTTRACE_NO_INLINE_EVENTS

#include <string.h>

#include <nttrace/traceloggingprovider.h>

#include "../vm/tap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the evntprov.h calls, played ---- */

#define REG	0x1234
static PENABLECALLBACK reg_cb;
static PVOID reg_ctx;
static int registered, set_info_class = -1;
static const void *set_info_ptr;
static ULONG set_info_len;

static unsigned int writes;
static EVENT_DESCRIPTOR last_ed;
static const GUID *last_act, *last_rel;
static ULONG last_n;
static EVENT_DATA_DESCRIPTOR last_d[MAX_EVENT_DATA_DESCRIPTORS];
static uint8_t last_bytes[MAX_EVENT_DATA_DESCRIPTORS][512];

ULONG EventRegister(LPCGUID ProviderId, PENABLECALLBACK EnableCallback, PVOID CallbackContext,
		    PREGHANDLE RegHandle)
{
	reg_cb = EnableCallback;
	reg_ctx = CallbackContext;
	registered = 1;
	*RegHandle = REG;
	return ERROR_SUCCESS;
}

ULONG EventUnregister(REGHANDLE RegHandle)
{
	registered = 0;
	return RegHandle == REG ? ERROR_SUCCESS : ERROR_INVALID_HANDLE;
}

ULONG EventSetInformation(REGHANDLE RegHandle, EVENT_INFO_CLASS InformationClass,
			  PVOID EventInformation, ULONG InformationLength)
{
	set_info_class = InformationClass;
	set_info_ptr = EventInformation;
	set_info_len = InformationLength;
	return ERROR_NOT_SUPPORTED;	/* as the library says today */
}

ULONG EventWriteTransfer(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
			 LPCGUID ActivityId, LPCGUID RelatedActivityId, ULONG UserDataCount,
			 PEVENT_DATA_DESCRIPTOR UserData)
{
	ULONG i;

	writes++;
	last_ed = *EventDescriptor;
	last_act = ActivityId;
	last_rel = RelatedActivityId;
	last_n = UserDataCount;
	for (i = 0; i < UserDataCount && i < MAX_EVENT_DATA_DESCRIPTORS; i++) {
		last_d[i] = UserData[i];
		memset(last_bytes[i], 0, sizeof(last_bytes[i]));
		if (UserData[i].Size && UserData[i].Size <= sizeof(last_bytes[i]))
			memcpy(last_bytes[i], (const void *)(uintptr_t)UserData[i].Ptr,
			       UserData[i].Size);
	}
	return RegHandle == REG ? ERROR_SUCCESS : ERROR_INVALID_HANDLE;
}

static void session(ULONG code, UCHAR level, ULONGLONG any, ULONGLONG all)
{
	reg_cb(NULL, code, level, any, all, NULL, reg_ctx);
}

#ifdef __cplusplus
}
#endif

/* ---- the format, encoded here ---- */

struct enc {
	uint8_t b[1024];
	unsigned int n;
};

static void put(struct enc *e, const void *p, unsigned int n)
{
	memcpy(e->b + e->n, p, n);
	e->n += n;
}

static void put8(struct enc *e, unsigned int v)
{
	e->b[e->n++] = (uint8_t)v;
}

static void put16(struct enc *e, unsigned int v)
{
	put8(e, v & 0xFF);
	put8(e, v >> 8);
}

/* 28 bits, 7 a byte from the top, 0x80 on all but the last: as few as hold them. */
static void put_tags(struct enc *e, uint32_t t)
{
	int bytes;

	/* n bytes leave the low 28 - 7n bits out: the fewest that lose none. */
	for (bytes = 4; bytes > 1; bytes--)
		if (t & ((1u << (7 * (5 - bytes))) - 1))
			break;
	for (int i = 0; i < bytes; i++)
		put8(e, ((t >> (21 - 7 * i)) & 0x7F) | (i + 1 < bytes ? 0x80 : 0));
}

static void ev_begin(struct enc *e, const char *name, uint32_t tags)
{
	e->n = 2;
	put_tags(e, tags);
	put(e, name, strlen(name) + 1);
}

static void field(struct enc *e, const char *name, unsigned int in, unsigned int out,
		  uint32_t tags, int ccount)
{
	put(e, name, strlen(name) + 1);
	if (out || tags) {
		put8(e, in | 0x80);
		put8(e, out | (tags ? 0x80 : 0));
		if (tags)
			put_tags(e, tags);
	} else {
		put8(e, in);
	}
	if ((in & 0x60) == 0x20)
		put16(e, ccount);
}

static void end(struct enc *e)
{
	e->b[0] = e->n & 0xFF;
	e->b[1] = e->n >> 8;
}

static int same(const void *got, unsigned int got_n, const struct enc *want, const char *what)
{
	unsigned int i;

	if (got_n == want->n && !memcmp(got, want->b, got_n))
		return tap_ok(1, "%s: %u bytes as encoded here", what, got_n);
	printf("# got %u bytes, want %u\n# got: ", got_n, want->n);
	for (i = 0; i < got_n; i++)
		printf("%02x ", ((const uint8_t *)got)[i]);
	printf("\n# want:");
	for (i = 0; i < want->n; i++)
		printf(" %02x", want->b[i]);
	printf("\n");
	return tap_ok(0, "%s", what);
}

static int data_is(unsigned int i, const void *want, unsigned int n, const char *what)
{
	int ok = i < last_n && last_d[i].Size == n && !memcmp(last_bytes[i], want, n) &&
		 last_d[i].Type == 0;

	if (!ok && i < last_n)
		printf("# descriptor %u: %u bytes, type %u\n", i, last_d[i].Size, last_d[i].Type);
	return tap_ok(ok, "descriptor %u: %s (%u bytes)", i, what, n);
}

#endif /* NTTRACE_TRACELOGGING_FAKE_H */
