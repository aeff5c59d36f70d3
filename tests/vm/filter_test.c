// SPDX-License-Identifier: GPL-2.0
/*
 * EnableTraceEx2's event filters, 64-bit and 32-bit.
 *
 * Without the module (also run on the host), the user-mode logger, whose
 * filters the library applies:
 * - every malformed descriptor's error (ERROR_INVALID_PARAMETER), a type
 *   not applied (ERROR_NOT_SUPPORTED);
 * - EVENT_FILTER_TYPE_EVENT_ID in (only 2 and 4 of events 1 to 5 in the
 *   file), replaced by a later enable (out: all but 2);
 * - EVENT_FILTER_TYPE_EVENT_NAME over TraceLogging events (only "B");
 * - EVENT_FILTER_TYPE_PAYLOAD from TdhCreatePayloadFilter and
 *   TdhAggregatePayloadFilters over TraceLogging events (n > 5 only).
 * With the module (VM):
 * - two kernel sessions with different event-ID filters, each getting
 *   exactly its events; the filters replaced by later enables (one
 *   without a filter: everything);
 * - a name or payload filter for a kernel session: ERROR_NOT_SUPPORTED;
 * - NTTRACE_IOC_ENABLE itself: a caller of the old size, the filter
 *   members' errors (-EINVAL, -EFAULT);
 * - an unprivileged caller's enable, with a filter or not:
 *   ERROR_ACCESS_DENIED, as before.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/evntcons.h>
#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/session.h>
#include <nttrace/tdh.h>
#include <nttrace/traceloggingprovider.h>

#include "emit.h"
#include "expect.h"
#include "props.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)

static const GUID prov = { 0x6e7b0f11, 0x2222, 0x4333, { 0x84, 1, 2, 3, 4, 5, 6, 0x11 } };

/* {6e747472-0029-4c54-8000-000000000029} */
TRACELOGGING_DEFINE_PROVIDER(tl_provider, "nttrace.flt",
			     (0x6e747472, 0x0029, 0x4c54, 0x80, 0, 0, 0, 0, 0, 0, 0x29));
static const GUID tl_guid = { 0x6e747472, 0x0029, 0x4c54,
			      { 0x80, 0, 0, 0, 0, 0, 0, 0x29 } };

/* An EVENT_FILTER_EVENT_ID of up to 8 IDs. */
struct ids {
	EVENT_FILTER_EVENT_ID f;
	USHORT more[7];
};

static void set_ids(struct ids *s, EVENT_FILTER_DESCRIPTOR *d, int in, int n, ...)
{
	va_list ap;
	int i;

	memset(s, 0, sizeof(*s));
	s->f.FilterIn = (BOOLEAN)in;
	s->f.Count = (USHORT)n;
	va_start(ap, n);
	for (i = 0; i < n; i++)
		(&s->f.Events[0])[i] = (USHORT)va_arg(ap, int);
	va_end(ap);
	d->Ptr = (uintptr_t)s;
	d->Size = 4 + 2 * n;
	d->Type = EVENT_FILTER_TYPE_EVENT_ID;
}

static void params(ENABLE_TRACE_PARAMETERS *p, EVENT_FILTER_DESCRIPTOR *d, ULONG n)
{
	memset(p, 0, sizeof(*p));
	p->Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
	p->EnableFilterDesc = d;
	p->FilterDescCount = n;
}

/* Events of IDs 1 to 5, level 4, keyword 1. */
static void write_ids(REGHANDLE h)
{
	static const uint8_t payload[] = "x";
	EVENT_DATA_DESCRIPTOR dd;
	int id;

	EventDataDescCreate(&dd, payload, sizeof(payload));
	for (id = 1; id <= 5; id++) {
		EVENT_DESCRIPTOR d = { .Id = id, .Level = 4, .Keyword = 1 };

		EventWrite(h, &d, 1, &dd);
	}
}

/* What a file held: events by ID (prov) and by keyword (the TL provider), n values. */
static struct {
	unsigned int by_id[8], by_kw[16], n;
	int nval[8];
	unsigned int nvals;
} seen;

static void WINAPI on_record(PEVENT_RECORD r)
{
	const EVENT_DESCRIPTOR *d = &r->EventHeader.EventDescriptor;

	if (!memcmp(&r->EventHeader.ProviderId, &prov, 16)) {
		if (d->Id < 8)
			seen.by_id[d->Id]++;
		seen.n++;
	} else if (!memcmp(&r->EventHeader.ProviderId, &tl_guid, 16)) {
		if (d->Keyword < 16)
			seen.by_kw[d->Keyword]++;
		if (d->Keyword == 8 && r->UserDataLength >= 4 && seen.nvals < 8)
			memcpy(&seen.nval[seen.nvals++], r->UserData, 4);
		seen.n++;
	}
}

static void read_back(const char *path)
{
	EVENT_TRACE_LOGFILEA lf;
	TRACEHANDLE h;

	memset(&seen, 0, sizeof(seen));
	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_record;
	h = OpenTraceA(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE) {
		printf("# cannot open %s\n", path);
		return;
	}
	ProcessTrace(&h, 1, NULL, NULL);
	CloseTrace(h);
}

/* The descriptors' errors, for session @s (user-mode logger or kernel). */
static void test_errors(TRACEHANDLE s, const GUID *g, const char *what)
{
	EVENT_FILTER_DESCRIPTOR d[MAX_EVENT_FILTERS_COUNT + 1];
	ENABLE_TRACE_PARAMETERS p;
	struct ids a, b;
	static const char name_bad[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
					 0, 0, 1, 0, 'a', 'b' };	/* "ab" not ended */
	uint32_t pids[2] = { 1, 2 };
	uint8_t junk[64];
	int i;

	set_ids(&a, &d[0], 1, 2, 2, 4);
	set_ids(&b, &d[1], 0, 1, 3);
	params(&p, d, 2);
	tap_eq(EnableTraceEx2(s, g, 1, 4, 1, 0, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: %s: EVENT_ID twice -> ERROR_INVALID_PARAMETER", BITS, what);
	for (i = 0; i <= MAX_EVENT_FILTERS_COUNT; i++)
		d[i] = d[0];
	params(&p, d, MAX_EVENT_FILTERS_COUNT + 1);
	tap_eq(EnableTraceEx2(s, g, 1, 4, 1, 0, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: %s: FilterDescCount 14 -> ERROR_INVALID_PARAMETER", BITS, what);
	params(&p, NULL, 1);
	tap_eq(EnableTraceEx2(s, g, 1, 4, 1, 0, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: %s: FilterDescCount 1, EnableFilterDesc NULL", BITS, what);
	params(&p, d, 1);
	a.f.Count = 0;
	tap_eq(EnableTraceEx2(s, g, 1, 4, 1, 0, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: %s: Count 0 -> ERROR_INVALID_PARAMETER", BITS, what);
	a.f.Count = MAX_EVENT_FILTER_EVENT_ID_COUNT + 1;
	d[0].Size = MAX_EVENT_FILTER_DATA_SIZE;
	tap_eq(EnableTraceEx2(s, g, 1, 4, 1, 0, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: %s: Count 65 -> ERROR_INVALID_PARAMETER", BITS, what);
	a.f.Count = 2;
	d[0].Size = 4 + 2 * 2 - 1;
	tap_eq(EnableTraceEx2(s, g, 1, 4, 1, 0, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: %s: Size one short of Count -> ERROR_INVALID_PARAMETER", BITS, what);
	d[0].Size = MAX_EVENT_FILTER_DATA_SIZE + 1;
	tap_eq(EnableTraceEx2(s, g, 1, 4, 1, 0, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: %s: Size past MAX_EVENT_FILTER_DATA_SIZE -> ERROR_INVALID_PARAMETER",
	       BITS, what);
	d[0].Size = 8;
	d[0].Ptr = 0;
	tap_eq(EnableTraceEx2(s, g, 1, 4, 1, 0, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: %s: Ptr NULL -> ERROR_INVALID_PARAMETER", BITS, what);
	d[0].Ptr = (uintptr_t)pids;
	d[0].Type = EVENT_FILTER_TYPE_PID;
	tap_eq(EnableTraceEx2(s, g, 1, 4, 1, 0, 0, &p), ERROR_NOT_SUPPORTED,
	       "%d-bit: %s: EVENT_FILTER_TYPE_PID -> ERROR_NOT_SUPPORTED", BITS, what);
	d[0].Ptr = (uintptr_t)name_bad;
	d[0].Size = sizeof(name_bad);
	d[0].Type = EVENT_FILTER_TYPE_EVENT_NAME;
	tap_eq(EnableTraceEx2(s, g, 1, 4, 1, 0, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: %s: a name not ended -> ERROR_INVALID_PARAMETER", BITS, what);
	memset(junk, 0x5A, sizeof(junk));
	d[0].Ptr = (uintptr_t)junk;
	d[0].Size = sizeof(junk);
	d[0].Type = EVENT_FILTER_TYPE_PAYLOAD;
	tap_eq(EnableTraceEx2(s, g, 1, 4, 1, 0, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: %s: a payload filter TDH did not make -> ERROR_INVALID_PARAMETER",
	       BITS, what);
}

/* A payload filter: @field > @value, any predicate, for @g's event 0. */
static EVENT_FILTER_DESCRIPTOR payload_gt(const GUID *g, const char *field, const char *value)
{
	static WCHAR wf[16], wv[16];
	EVENT_DESCRIPTOR ev = { 0 };
	PAYLOAD_FILTER_PREDICATE pr;
	EVENT_FILTER_DESCRIPTOR d;
	PVOID one = NULL;
	BOOLEAN all = FALSE;
	int i;

	for (i = 0; i < 15 && field[i]; i++)
		wf[i] = field[i];
	wf[i] = 0;
	for (i = 0; i < 15 && value[i]; i++)
		wv[i] = value[i];
	wv[i] = 0;
	pr.FieldName = wf;
	pr.CompareOp = PAYLOADFIELD_GT;
	pr.Value = wv;
	memset(&d, 0, sizeof(d));
	if (TdhCreatePayloadFilter(g, &ev, FALSE, 1, &pr, &one) ||
	    TdhAggregatePayloadFilters(1, &one, &all, &d))
		printf("# payload filter not made\n");
	TdhDeletePayloadFilter(&one);
	return d;
}

static void tl_events(void)
{
	int n;

	TraceLoggingWrite(tl_provider, "A", TraceLoggingLevel(4), TraceLoggingKeyword(1),
			  TraceLoggingInt32(1, "n"));
	TraceLoggingWrite(tl_provider, "B", TraceLoggingLevel(4), TraceLoggingKeyword(2),
			  TraceLoggingInt32(2, "n"));
	TraceLoggingWrite(tl_provider, "C", TraceLoggingLevel(4), TraceLoggingKeyword(4),
			  TraceLoggingInt32(3, "n"));
	for (n = 3; n <= 9; n += 2)	/* 3 5 7 9 */
		TraceLoggingWrite(tl_provider, "P", TraceLoggingLevel(4), TraceLoggingKeyword(8),
				  TraceLoggingInt32(n, "n"));
	/* No field n: the predicate is false. */
	TraceLoggingWrite(tl_provider, "Q", TraceLoggingLevel(4), TraceLoggingKeyword(8),
			  TraceLoggingInt32(100, "m"));
}

TEST(private)
{
	static const char names[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				      0, 1, 1, 0, 'B', 0 };	/* FilterIn, one name */
	EVENT_FILTER_DESCRIPTOR d[2];
	ENABLE_TRACE_PARAMETERS p;
	TRACEHANDLE um = 0;
	REGHANDLE h = 0;
	struct props pr;
	struct ids a;
	char path[64];

	snprintf(path, sizeof(path), "/tmp/filter-um-%d-%d.etl", BITS, (int)getpid());
	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (!tap_eq(StartTraceA(&um, "filter-um", &pr.p), ERROR_SUCCESS,
		    "%d-bit: user-mode logger started", BITS))
		return;
	tap_eq(EventRegister(&prov, NULL, NULL, &h), ERROR_SUCCESS, "%d-bit: EventRegister",
	       BITS);
	tap_eq(TraceLoggingRegister(tl_provider), 0, "%d-bit: TraceLoggingRegister", BITS);
	test_errors(um, &prov, "user-mode logger");
	d[0] = payload_gt(&prov, "n", "5");
	params(&p, d, 1);
	tap_eq(EnableTraceEx2(um, &tl_guid, 1, 4, 1, 0, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: a payload filter of another provider -> ERROR_INVALID_PARAMETER", BITS);
	TdhCleanupPayloadEventFilterDescriptor(&d[0]);

	/* Event IDs in: 2 and 4; then, replaced, out: 2. */
	set_ids(&a, &d[0], 1, 2, 4, 2);
	params(&p, d, 1);
	tap_eq(EnableTraceEx2(um, &prov, 1, 4, 1, 0, 0, &p), ERROR_SUCCESS,
	       "%d-bit: EVENT_ID in {4, 2}", BITS);
	write_ids(h);
	set_ids(&a, &d[0], 0, 1, 2);
	tap_eq(EnableTraceEx2(um, &prov, 1, 4, 1, 0, 0, &p), ERROR_SUCCESS,
	       "%d-bit: replaced by EVENT_ID out {2}", BITS);
	write_ids(h);

	/* Names: B only (of A, B, C; P and Q too are not B). */
	d[0].Ptr = (uintptr_t)names;
	d[0].Size = sizeof(names);
	d[0].Type = EVENT_FILTER_TYPE_EVENT_NAME;
	tap_eq(EnableTraceEx2(um, &tl_guid, 1, 4, 0xF, 0, 0, &p), ERROR_SUCCESS,
	       "%d-bit: EVENT_NAME in {B}", BITS);
	tl_events();
	/* Payload: n > 5 (of P's 3, 5, 7, 9; Q has no n; A, B, C are Id 0 too). */
	d[0] = payload_gt(&tl_guid, "n", "5");
	tap_eq(d[0].Type, EVENT_FILTER_TYPE_PAYLOAD, "%d-bit: TdhAggregatePayloadFilters", BITS);
	tap_eq(EnableTraceEx2(um, &tl_guid, 1, 4, 0x8, 0, 0, &p), ERROR_SUCCESS,
	       "%d-bit: PAYLOAD n > 5", BITS);
	tl_events();
	tap_eq(TdhCleanupPayloadEventFilterDescriptor(&d[0]), ERROR_SUCCESS,
	       "%d-bit: TdhCleanupPayloadEventFilterDescriptor", BITS);
	tap_eq(ControlTraceA(um, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS,
	       "%d-bit: stop", BITS);
	read_back(path);
	tap_ok(seen.by_id[1] == 1 && seen.by_id[2] == 1 && seen.by_id[3] == 1 &&
	       seen.by_id[4] == 2 && seen.by_id[5] == 1,
	       "%d-bit: EVENT_ID: 2, 4, then 1, 3, 4, 5 (got %u %u %u %u %u)", BITS,
	       seen.by_id[1], seen.by_id[2], seen.by_id[3], seen.by_id[4], seen.by_id[5]);
	tap_ok(seen.by_kw[1] == 0 && seen.by_kw[2] == 1 && seen.by_kw[4] == 0,
	       "%d-bit: EVENT_NAME: B only of A, B, C (got %u %u %u)", BITS, seen.by_kw[1],
	       seen.by_kw[2], seen.by_kw[4]);
	tap_ok(seen.by_kw[8] == 2 && seen.nvals == 2 && seen.nval[0] == 7 && seen.nval[1] == 9,
	       "%d-bit: PAYLOAD: n 7 and 9 only, not Q (got %u: %d %d)", BITS, seen.by_kw[8],
	       seen.nval[0], seen.nval[1]);
	TraceLoggingUnregister(tl_provider);
	EventUnregister(h);
	unlink(path);
}

/* ---- the module ---- */

static uint32_t start(const char *name)
{
	struct nttrace_logger_info info;

	if (start_session(name, 4, 4, 0, &info)) {
		printf("# could not start %s\n", name);
		return 0;
	}
	return info.logger_id;
}

static unsigned int kseen[8];

static void collect(void *ctx, const uint8_t *rec, uint32_t size)
{
	uint16_t id;

	if (rec[3] != 0xC0 || (rec[2] != 0x12 && rec[2] != 0x13) || size < 0x50 ||
	    memcmp(rec + 0x18, &prov, 16))
		return;
	memcpy(&id, rec + 0x28, 2);
	if (id < 8)
		kseen[id]++;
}

static int on_buffer(void *ctx, const void *buf, uint32_t size, unsigned int cpu)
{
	expect_walk(buf, collect, ctx);
	return 0;
}

/* Session @s's events since the last call, as "12345"-style ID counts. */
static void consume(uint32_t s, struct nttrace_consumer *c, char out[8])
{
	int i;

	memset(kseen, 0, sizeof(kseen));
	flush_drain(c, s, on_buffer, NULL);
	for (i = 1; i <= 5; i++)
		out[i - 1] = (char)('0' + kseen[i]);
	out[5] = 0;
}

/* Events 1 to 5 written once; what each session got of them since the last time. */
static void write_and_consume(REGHANDLE h, uint32_t s1, struct nttrace_consumer *c1,
			      char got1[8], uint32_t s2, struct nttrace_consumer *c2,
			      char got2[8])
{
	write_ids(h);
	consume(s1, c1, got1);
	consume(s2, c2, got2);
}

static void test_kernel(void)
{
	uint32_t s1 = start("flt-1"), s2 = start("flt-2");
	struct nttrace_consumer *c1 = NULL, *c2 = NULL;
	EVENT_FILTER_DESCRIPTOR d[1];
	ENABLE_TRACE_PARAMETERS p;
	struct nttrace_enable e;
	char got1[8], got2[8];
	struct ids a, b;
	REGHANDLE h = 0;
	int fd, status;
	pid_t pid;

	if (!tap_ok(s1 && s2 && !nttrace_consumer_open(&c1, s1) &&
		    !nttrace_consumer_open(&c2, s2), "%d-bit: two sessions and consumers", BITS))
		return;
	tap_eq(EventRegister(&prov, NULL, NULL, &h), ERROR_SUCCESS, "%d-bit: EventRegister",
	       BITS);
	test_errors(s1, &prov, "kernel session");

	/* s1 takes 2 and 4; s2 all but 2. */
	set_ids(&a, &d[0], 1, 2, 4, 2);
	params(&p, d, 1);
	tap_eq(EnableTraceEx2(s1, &prov, 1, 4, 1, 0, 0, &p), ERROR_SUCCESS,
	       "%d-bit: session 1: EVENT_ID in {4, 2}", BITS);
	set_ids(&b, &d[0], 0, 1, 2);
	tap_eq(EnableTraceEx2(s2, &prov, 1, 4, 1, 0, 0, &p), ERROR_SUCCESS,
	       "%d-bit: session 2: EVENT_ID out {2}", BITS);
	/* The enable reaches the provider on its notification thread. */
	while (!EventProviderEnabled(h, 4, 1))
		usleep(10000);	/* a pace for the poll, not a limit */
	write_and_consume(h, s1, c1, got1, s2, c2, got2);
	tap_ok(!strcmp(got1, "01010"), "%d-bit: session 1 got exactly 2 and 4 (%s)", BITS, got1);
	tap_ok(!strcmp(got2, "10111"), "%d-bit: session 2 got exactly 1, 3, 4, 5 (%s)", BITS,
	       got2);

	/* Replaced: s1 without a filter, s2 in {5}. */
	tap_eq(EnableTraceEx2(s1, &prov, 1, 4, 1, 0, 0, NULL), ERROR_SUCCESS,
	       "%d-bit: session 1 enabled again without a filter", BITS);
	set_ids(&b, &d[0], 1, 1, 5);
	tap_eq(EnableTraceEx2(s2, &prov, 1, 4, 1, 0, 0, &p), ERROR_SUCCESS,
	       "%d-bit: session 2 enabled again: in {5}", BITS);
	write_and_consume(h, s1, c1, got1, s2, c2, got2);
	tap_ok(!strcmp(got1, "11111"), "%d-bit: session 1 now gets all five (%s)", BITS, got1);
	tap_ok(!strcmp(got2, "00001"), "%d-bit: session 2 now gets 5 only (%s)", BITS, got2);

	/* Name and payload filters are the user-mode logger's only. */
	{
		static const char names[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
					      0, 1, 1, 0, 'B', 0 };

		d[0].Ptr = (uintptr_t)names;
		d[0].Size = sizeof(names);
		d[0].Type = EVENT_FILTER_TYPE_EVENT_NAME;
		tap_eq(EnableTraceEx2(s1, &prov, 1, 4, 1, 0, 0, &p), ERROR_NOT_SUPPORTED,
		       "%d-bit: EVENT_NAME for a kernel session -> ERROR_NOT_SUPPORTED", BITS);
		d[0] = payload_gt(&prov, "n", "5");
		tap_eq(EnableTraceEx2(s1, &prov, 1, 4, 1, 0, 0, &p), ERROR_NOT_SUPPORTED,
		       "%d-bit: PAYLOAD for a kernel session -> ERROR_NOT_SUPPORTED", BITS);
		TdhCleanupPayloadEventFilterDescriptor(&d[0]);
	}
	/* Refused enables changed nothing: session 1 still gets everything. */
	write_and_consume(h, s1, c1, got1, s2, c2, got2);
	tap_ok(!strcmp(got1, "11111") && !strcmp(got2, "00001"),
	       "%d-bit: ... both sessions' enables unchanged (%s, %s)", BITS, got1, got2);

	/* The ioctl itself. */
	fd = nttrace_device_fd();
	memset(&e, 0, sizeof(e));
	e.size = NTTRACE_ENABLE_SIZE_VER0;
	e.logger_id = s2;
	memcpy(e.guid, &prov, 16);
	e.control = NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER;
	e.level = 4;
	e.match_any_keyword = 1;
	e.filter_flags = 0xFF;	/* past the old size: not read */
	tap_eq(ioctl(fd, NTTRACE_IOC_ENABLE, &e), 0,
	       "%d-bit: ENABLE of the old size (56) still works", BITS);
	write_and_consume(h, s1, c1, got1, s2, c2, got2);
	tap_ok(!strcmp(got2, "11111"), "%d-bit: ... and leaves no filter (%s)", BITS, got2);
	e.size = sizeof(e);
	tap_ok(ioctl(fd, NTTRACE_IOC_ENABLE, &e) == -1 && errno == EINVAL,
	       "%d-bit: ENABLE unknown filter_flags -> EINVAL", BITS);
	e.filter_flags = NTTRACE_ENABLE_FILTER_EVENT_ID;
	e.event_id_count = NTTRACE_MAX_FILTER_EVENT_IDS + 1;
	e.event_ids = (uintptr_t)&a.f.Events[0];
	tap_ok(ioctl(fd, NTTRACE_IOC_ENABLE, &e) == -1 && errno == EINVAL,
	       "%d-bit: ENABLE 65 event IDs -> EINVAL", BITS);
	e.event_id_count = 1;
	e.event_ids = 8;
	tap_ok(ioctl(fd, NTTRACE_IOC_ENABLE, &e) == -1 && errno == EFAULT,
	       "%d-bit: ENABLE unreadable event IDs -> EFAULT", BITS);
	e.control = NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER;
	e.event_ids = (uintptr_t)&a.f.Events[0];
	tap_ok(ioctl(fd, NTTRACE_IOC_ENABLE, &e) == -1 && errno == EINVAL,
	       "%d-bit: DISABLE with a filter -> EINVAL", BITS);

	/* An unprivileged caller: refused, with a filter or without. */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		ULONG e1, e2;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		set_ids(&a, &d[0], 1, 1, 3);
		params(&p, d, 1);
		e1 = EnableTraceEx2(s1, &prov, 1, 4, 1, 0, 0, &p);
		e2 = EnableTraceEx2(s1, &prov, 1, 4, 1, 0, 0, NULL);
		_exit(e1 == ERROR_ACCESS_DENIED && e2 == ERROR_ACCESS_DENIED ? 0 : 3);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "%d-bit: unprivileged: ERROR_ACCESS_DENIED with and without a filter (exit %d)",
	       BITS, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	write_and_consume(h, s1, c1, got1, s2, c2, got2);
	tap_ok(!strcmp(got1, "11111"), "%d-bit: ... session 1's enable unchanged (%s)", BITS,
	       got1);

	EventUnregister(h);
	nttrace_consumer_close(c1);
	nttrace_consumer_close(c2);
	stop_session(s1);
	stop_session(s2);
}

/* The module's case: it does not run where there is no /dev/nttrace (the host). */
TEST_F(nttrace, kernel)
{
	if (nttrace_device_fd() >= 0)
		test_kernel();
}

int main(int argc, char **argv)
{
	if (nttrace_device_fd() < 0)
		printf("# no %s: the module's tests skipped\n", NTTRACE_DEVICE);
	return harness_run(argc, argv);
}
