// SPDX-License-Identifier: GPL-2.0
/*
 * TraceLogging end to end: a provider written with
 * <TraceLoggingProvider.h> as a Windows developer writes one, enabled by a
 * kernel session writing a file and by the user-mode logger; each file read
 * back with OpenTrace and ProcessTrace. Each event must arrive with its
 * PROV_TRAITS item (the provider's name), then its EVENT_SCHEMA_TL item
 * (the event's metadata, spelt out here byte by byte from the format, not
 * taken from the header), and exactly the fields' bytes as its data; the
 * channel 11, level and keyword the options gave; and a disabled level or
 * keyword gives no event. The metadata encoder itself is checked in full
 * by tests/host/tracelogging_test.c; this is the path through the kernel
 * and the user-mode logger into a file.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/evntcons.h>
#include <nttrace/evntrace.h>
#include <nttrace/traceloggingprovider.h>
#include "props.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)

/* {6e747472-0028-4c54-8000-000000000028} */
TRACELOGGING_DEFINE_PROVIDER(tl_provider, "nttrace.tl",
			     (0x6e747472, 0x0028, 0x4c54, 0x80, 0, 0, 0, 0, 0, 0, 0x28));
static const GUID tl_guid = { 0x6e747472, 0x0028, 0x4c54,
			      { 0x80, 0, 0, 0, 0, 0, 0, 0x28 } };

/* The provider metadata: size, the name. */
static const uint8_t traits[] = { 13, 0, 'n', 't', 't', 'r', 'a', 'c', 'e', '.', 't', 'l', 0 };

/*
 * Event "Ev": no tags; fields n (Int32: in-type 7), s (String: 2), b
 * (Boolean: UInt8 4, chained to out-type Boolean 3), a (UInt16 variable
 * array: 6 | 0x40).
 */
static const uint8_t schema_ev[] = {
	19, 0, 0, 'E', 'v', 0,
	'n', 0, 7,
	's', 0, 2,
	'b', 0, 4 | 0x80, 3,
	'a', 0, 6 | 0x40,
};

/* Its data for n = -2, s = "hi", b = 1, a = { 7, 8 }. */
static const uint8_t data_ev[] = {
	0xfe, 0xff, 0xff, 0xff, 'h', 'i', 0, 1, 2, 0, 7, 0, 8, 0,
};

struct got {
	unsigned int n, good, foreign;
	UCHAR level, channel;
	ULONGLONG keyword;
};

static int item_is(const EVENT_HEADER_EXTENDED_DATA_ITEM *it, USHORT type, const void *data,
		   size_t size)
{
	return it->ExtType == type && it->DataSize == size &&
	       !memcmp((const void *)(uintptr_t)it->DataPtr, data, size);
}

static void WINAPI on_record(PEVENT_RECORD er)
{
	struct got *g = er->UserContext;
	const EVENT_HEADER *eh = &er->EventHeader;

	if (memcmp(&eh->ProviderId, &tl_guid, sizeof(tl_guid))) {
		g->foreign++;
		return;
	}
	g->n++;
	g->level = eh->EventDescriptor.Level;
	g->channel = eh->EventDescriptor.Channel;
	g->keyword = eh->EventDescriptor.Keyword;
	if (er->ExtendedDataCount == 2 && (eh->Flags & EVENT_HEADER_FLAG_EXTENDED_INFO) &&
	    item_is(&er->ExtendedData[0], EVENT_HEADER_EXT_TYPE_PROV_TRAITS, traits,
		    sizeof(traits)) &&
	    item_is(&er->ExtendedData[1], EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL, schema_ev,
		    sizeof(schema_ev)) &&
	    er->UserDataLength == sizeof(data_ev) &&
	    !memcmp(er->UserData, data_ev, sizeof(data_ev)))
		g->good++;
	else
		printf("# record %u: %u items, %u bytes of data\n", g->n, er->ExtendedDataCount,
		       er->UserDataLength);
}

static void read_back(const char *path, struct got *g)
{
	EVENT_TRACE_LOGFILEA lf;
	TRACEHANDLE h;

	memset(g, 0, sizeof(*g));
	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_record;
	lf.Context = g;
	h = OpenTraceA(&lf);
	if (!tap_ok(h != INVALID_PROCESSTRACE_HANDLE, "%d-bit: OpenTrace %s", BITS, path))
		return;
	tap_eq(ProcessTrace(&h, 1, NULL, NULL), ERROR_SUCCESS, "%d-bit: ProcessTrace", BITS);
	CloseTrace(h);
}

static void write_events(void)
{
	static const UINT16 a[] = { 7, 8 };
	int n = -2;

	/* Level 3 and keyword 0x10: taken by an enable of level 4, any 0x30. */
	TraceLoggingWrite(tl_provider, "Ev", TraceLoggingLevel(3), TraceLoggingKeyword(0x10),
			  TraceLoggingInt32(n, "n"), TraceLoggingString("hi", "s"),
			  TraceLoggingBoolean(1, "b"), TraceLoggingUInt16Array(a, 2, "a"));
	/* Not taken: level 5; keyword 0x40. */
	TraceLoggingWrite(tl_provider, "Ev", TraceLoggingLevel(5), TraceLoggingKeyword(0x10),
			  TraceLoggingInt32(n, "n"), TraceLoggingString("hi", "s"),
			  TraceLoggingBoolean(1, "b"), TraceLoggingUInt16Array(a, 2, "a"));
	TraceLoggingWrite(tl_provider, "Ev", TraceLoggingLevel(3), TraceLoggingKeyword(0x40),
			  TraceLoggingInt32(n, "n"), TraceLoggingString("hi", "s"),
			  TraceLoggingBoolean(1, "b"), TraceLoggingUInt16Array(a, 2, "a"));
}

/* One session (@mode 0: a kernel session; else the user-mode logger). */
static void test_session(ULONG mode, const char *what)
{
	TRACEHANDLE h = 0;
	struct props pr;
	char path[96];
	struct got g;

	snprintf(path, sizeof(path), "/tmp/tl-%s-%d-%d.etl", what, BITS, (int)getpid());
	props_init(&pr, path, mode);
	if (!tap_eq(StartTraceA(&h, what, &pr.p), ERROR_SUCCESS, "%d-bit: %s: StartTrace", BITS,
		    what))
		return;
	tap_eq(EnableTraceEx2(h, &tl_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 4, 0x30, 0, 0,
			      NULL), ERROR_SUCCESS, "%d-bit: %s: enable level 4, any 0x30", BITS,
	       what);
	/*
	 * A kernel session's enable reaches the provider's callback on the
	 * library's notification thread, after EnableTraceEx2 returns (as
	 * Windows tells providers): wait for it, however long it takes (one
	 * that never comes hangs the test; vm-run's timeout reports it).
	 */
	while (!TraceLoggingProviderEnabled(tl_provider, 4, 0x10))
		usleep(10000);	/* a pace for the poll, not a limit */
	tap_ok(TraceLoggingProviderEnabled(tl_provider, 4, 0x10), "%d-bit: %s: enabled", BITS,
	       what);
	write_events();
	tap_eq(ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS,
	       "%d-bit: %s: stop", BITS, what);
	read_back(path, &g);
	tap_eq(g.n, 1, "%d-bit: %s: one event (level and keyword filtered)", BITS, what);
	tap_eq(g.good, 1, "%d-bit: %s: PROV_TRAITS, EVENT_SCHEMA_TL and data byte for byte",
	       BITS, what);
	tap_eq(g.level, 3, "%d-bit: %s: TraceLoggingLevel", BITS, what);
	tap_eq(g.channel, 11, "%d-bit: %s: channel 11 (TraceLogging)", BITS, what);
	tap_eq(g.keyword, 0x10, "%d-bit: %s: TraceLoggingKeyword", BITS, what);
	unlink(path);
}

/* The provider registered once, enabled by each kind of session in turn. */
TEST_F(nttrace, provider)
{
	int kernel = access("/dev/nttrace", F_OK) == 0;

	if (!tap_eq(TraceLoggingRegister(tl_provider), 0, "%d-bit: TraceLoggingRegister", BITS))
		return;
	tap_ok(!TraceLoggingProviderEnabled(tl_provider, 0, 0),
	       "%d-bit: not enabled before a session", BITS);
	if (kernel)
		test_session(0, "tl-kernel");
	test_session(EVENT_TRACE_PRIVATE_LOGGER_MODE, "tl-um");
	TraceLoggingUnregister(tl_provider);
}

int main(int argc, char **argv)
{
	return harness_run(argc, argv);
}
