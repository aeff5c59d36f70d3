// SPDX-License-Identifier: GPL-2.0
/*
 * Every TraceLogging field macro, written and read back: one
 * event per macro, each with one field named "v", written by a provider
 * into the user-mode logger's file (no module needed), read back with
 * OpenTrace/ProcessTrace and described by TDH; for each, the field's
 * TDH in-type must be the macro's, and TdhGetProperty must give back the
 * bytes the macro was handed (for counted forms, the count or length and
 * then the bytes); each EVENT_RECORD's HeaderType 0 and its 32/64-bit
 * header flag the writer's. 64- and 32-bit builds. TAP.
 *
 *   tl_roundtrip [DIR]     (the file's directory; default /tmp)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/evntcons.h>
#include <nttrace/evntrace.h>
#include <nttrace/tdh.h>
#include <nttrace/traceloggingprovider.h>
#include "../vm/props.h"
#include "../vm/tap.h"

#define BITS ((int)sizeof(void *) * 8)

/* {6e747472-0028-4c54-8000-00000000002a} */
TRACELOGGING_DEFINE_PROVIDER(rt_provider, "nttrace.roundtrip",
			     (0x6e747472, 0x0028, 0x4c54, 0x80, 0, 0, 0, 0, 0, 0, 0x2a));
static const GUID rt_guid = { 0x6e747472, 0x0028, 0x4c54, { 0x80, 0, 0, 0, 0, 0, 0, 0x2a } };

/* What each event must read back as: its name, the in-type, the bytes. */
struct want {
	const char *event;
	USHORT in;
	uint8_t bytes[64];
	unsigned int size;
	unsigned int seen, good;
};

static struct want wants[64];
static unsigned int nwants;

static void expect(const char *event, USHORT in, const void *bytes, unsigned int size)
{
	struct want *w = &wants[nwants++];

	w->event = event;
	w->in = in;
	memcpy(w->bytes, bytes, size);
	w->size = size;
}

/* @n bytes of a count (UINT16) followed by @size bytes at @p. */
static void expect_counted(const char *event, USHORT in, uint16_t n, const void *p,
			   unsigned int size)
{
	uint8_t b[64];

	memcpy(b, &n, 2);
	memcpy(b + 2, p, size);
	expect(event, in, b, size + 2);
}

static char *narrow(const WCHAR *w)
{
	static char out[128];
	size_t i;

	for (i = 0; w[i] && i + 1 < sizeof(out); i++)
		out[i] = (char)w[i];
	out[i] = 0;
	return out;
}

static unsigned int bad_header;

static void WINAPI on_record(PEVENT_RECORD er)
{
	PROPERTY_DATA_DESCRIPTOR pd = { 0 };
	static const WCHAR v[] = { 'v', 0 };
	TRACE_EVENT_INFO *t;
	uint8_t got[256];
	ULONG size = 0, psize = 0;
	char name[128];
	unsigned int i;

	if (memcmp(&er->EventHeader.ProviderId, &rt_guid, sizeof(rt_guid)))
		return;
	/* As Windows' ProcessTrace gives an EVENT_HEADER record's. */
	if (er->EventHeader.HeaderType ||
	    (er->EventHeader.Flags & (EVENT_HEADER_FLAG_32_BIT_HEADER |
				      EVENT_HEADER_FLAG_64_BIT_HEADER)) !=
	    (BITS == 32 ? EVENT_HEADER_FLAG_32_BIT_HEADER : EVENT_HEADER_FLAG_64_BIT_HEADER))
		bad_header++;
	if (TdhGetEventInformation(er, 0, NULL, NULL, &size) != ERROR_INSUFFICIENT_BUFFER)
		return;
	t = malloc(size);
	if (!t || TdhGetEventInformation(er, 0, NULL, t, &size)) {
		free(t);
		return;
	}
	/* narrow()'s buffer is reused below: keep the name. */
	snprintf(name, sizeof(name), "%s", narrow((const WCHAR *)((const char *)t +
							  t->EventNameOffset)));
	for (i = 0; i < nwants; i++) {
		struct want *w = &wants[i];
		const EVENT_PROPERTY_INFO *p;
		USHORT k;

		if (strcmp(w->event, name))
			continue;
		w->seen++;
		/* The field "v": the last top-level property (a count comes before). */
		k = (USHORT)(t->TopLevelPropertyCount - 1);
		p = &t->EventPropertyInfoArray[k];
		pd.PropertyName = (ULONGLONG)(uintptr_t)v;
		pd.ArrayIndex = 0xFFFFFFFF;
		if (p->nonStructType.InType != w->in ||
		    strcmp(narrow((const WCHAR *)((const char *)t + p->NameOffset)), "v")) {
			printf("# %s: in-type %u, want %u\n", name, p->nonStructType.InType, w->in);
			continue;
		}
		/* Counted forms: the count or length property's bytes come first. */
		if (k) {
			PROPERTY_DATA_DESCRIPTOR c = { 0 };

			c.PropertyName = (ULONGLONG)(uintptr_t)((const char *)t +
							t->EventPropertyInfoArray[0].NameOffset);
			c.ArrayIndex = 0xFFFFFFFF;
			if (TdhGetPropertySize(er, 0, NULL, 1, &c, &psize) || psize != 2 ||
			    TdhGetProperty(er, 0, NULL, 1, &c, 2, got))
				continue;
		} else {
			psize = 0;
		}
		size = 0;
		if (TdhGetPropertySize(er, 0, NULL, 1, &pd, &size) ||
		    psize + size > sizeof(got) ||
		    TdhGetProperty(er, 0, NULL, 1, &pd, size, got + psize)) {
			printf("# %s: TdhGetProperty failed\n", name);
			continue;
		}
		if (psize + size == w->size && !memcmp(got, w->bytes, w->size))
			w->good++;
		else
			printf("# %s: %u bytes back, want %u\n", name, psize + size, w->size);
	}
	free(t);
}

static void write_events(void)
{
	static const char str[] = "text";
	static const WCHAR wstr[] = { 'w', 'i', 0 };
	static const uint8_t bin[] = { 9, 8, 7 };
	static const int32_t arr[] = { 1, -2, 3 };
	static const uint16_t farr[] = { 5, 6 };
	FILETIME ft = { 0x11223344, 0x01d7a58b };
	SYSTEMTIME st = { 2021, 9, 4, 9, 14, 59, 35, 799 };
	int8_t i8 = -8;
	uint8_t u8 = 200, b8 = 1;
	int16_t i16 = -1600;
	uint16_t u16 = 60000, port = 0x5000;
	int32_t i32 = -32, hr = (int32_t)0x80070005;
	uint32_t u32 = 4000000000U, pid = 1234, ip4 = 0x0100007f, err = 5, st32 = 0xC0000005;
	int64_t i64 = -64;
	uint64_t u64 = 0x123456789abcdefULL;
	float f = 1.5f;
	double d = -2.25;
	int32_t b32 = 1;
	char c = 'c';
	WCHAR wc = 0x263a;
	const void *ptr = (const void *)(uintptr_t)0x1234;

#define W(name, in, val, macro)	do {						\
		expect(name, in, &(val), sizeof(val));				\
		TraceLoggingWrite(rt_provider, name, macro(val, "v"));		\
	} while (0)
	W("Int8", TDH_INTYPE_INT8, i8, TraceLoggingInt8);
	W("UInt8", TDH_INTYPE_UINT8, u8, TraceLoggingUInt8);
	W("Int16", TDH_INTYPE_INT16, i16, TraceLoggingInt16);
	W("UInt16", TDH_INTYPE_UINT16, u16, TraceLoggingUInt16);
	W("Int32", TDH_INTYPE_INT32, i32, TraceLoggingInt32);
	W("UInt32", TDH_INTYPE_UINT32, u32, TraceLoggingUInt32);
	W("Int64", TDH_INTYPE_INT64, i64, TraceLoggingInt64);
	W("UInt64", TDH_INTYPE_UINT64, u64, TraceLoggingUInt64);
	W("HexInt8", TDH_INTYPE_UINT8, u8, TraceLoggingHexUInt8);
	W("HexInt16", TDH_INTYPE_UINT16, u16, TraceLoggingHexUInt16);
	W("HexInt32", TDH_INTYPE_HEXINT32, u32, TraceLoggingHexUInt32);
	W("HexInt64", TDH_INTYPE_HEXINT64, u64, TraceLoggingHexUInt64);
	W("Float32", TDH_INTYPE_FLOAT, f, TraceLoggingFloat32);
	W("Float64", TDH_INTYPE_DOUBLE, d, TraceLoggingFloat64);
	W("Boolean", TDH_INTYPE_UINT8, b8, TraceLoggingBoolean);
	W("Bool", TDH_INTYPE_BOOLEAN, b32, TraceLoggingBool);
	W("Char", TDH_INTYPE_UINT8, c, TraceLoggingChar);
	W("WChar", TDH_INTYPE_UINT16, wc, TraceLoggingWChar);
	W("Pid", TDH_INTYPE_UINT32, pid, TraceLoggingPid);
	W("Tid", TDH_INTYPE_UINT32, pid, TraceLoggingTid);
	W("Port", TDH_INTYPE_UINT16, port, TraceLoggingPort);
	W("IPv4Address", TDH_INTYPE_UINT32, ip4, TraceLoggingIPv4Address);
	W("WinError", TDH_INTYPE_UINT32, err, TraceLoggingWinError);
	W("NTStatus", TDH_INTYPE_UINT32, st32, TraceLoggingNTStatus);
	W("HResult", TDH_INTYPE_INT32, hr, TraceLoggingHResult);
	W("Guid", TDH_INTYPE_GUID, rt_guid, TraceLoggingGuid);
	W("FileTime", TDH_INTYPE_FILETIME, ft, TraceLoggingFileTime);
	W("SystemTime", TDH_INTYPE_SYSTEMTIME, st, TraceLoggingSystemTime);
	W("Pointer", BITS == 64 ? TDH_INTYPE_HEXINT64 : TDH_INTYPE_HEXINT32, ptr,
	  TraceLoggingPointer);
#undef W
	expect("String", TDH_INTYPE_ANSISTRING, str, sizeof(str));
	TraceLoggingWrite(rt_provider, "String", TraceLoggingString(str, "v"));
	expect("Utf8String", TDH_INTYPE_ANSISTRING, str, sizeof(str));
	TraceLoggingWrite(rt_provider, "Utf8String", TraceLoggingUtf8String(str, "v"));
	expect("WideString", TDH_INTYPE_UNICODESTRING, wstr, sizeof(wstr));
	TraceLoggingWrite(rt_provider, "WideString", TraceLoggingWideString(wstr, "v"));
	expect_counted("CountedString", TDH_INTYPE_MANIFEST_COUNTEDANSISTRING, 4, str, 4);
	TraceLoggingWrite(rt_provider, "CountedString", TraceLoggingCountedString(str, 4, "v"));
	expect_counted("CountedWideString", TDH_INTYPE_MANIFEST_COUNTEDSTRING, 4, wstr, 4);
	TraceLoggingWrite(rt_provider, "CountedWideString",
			  TraceLoggingCountedWideString(wstr, 2, "v"));
	expect_counted("Binary", TDH_INTYPE_BINARY, 3, bin, 3);
	TraceLoggingWrite(rt_provider, "Binary", TraceLoggingBinary(bin, 3, "v"));
	expect_counted("Int32Array", TDH_INTYPE_INT32, 3, arr, sizeof(arr));
	TraceLoggingWrite(rt_provider, "Int32Array", TraceLoggingInt32Array(arr, 3, "v"));
	expect("UInt16FixedArray", TDH_INTYPE_UINT16, farr, sizeof(farr));
	TraceLoggingWrite(rt_provider, "UInt16FixedArray",
			  TraceLoggingUInt16FixedArray(farr, 2, "v"));
}

int main(int argc, char **argv)
{
	EVENT_TRACE_LOGFILEA lf;
	unsigned int i, seen = 0, good = 0;
	TRACEHANDLE h = 0, r;
	struct props pr;
	char path[200];

	if (argc > 2) {
		fprintf(stderr, "usage: tl_roundtrip [DIR]\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/tl-roundtrip-%d-%d.etl", argc > 1 ? argv[1] : "/tmp",
		 BITS, (int)getpid());
	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (!tap_eq(StartTraceA(&h, "tl-roundtrip", &pr.p), ERROR_SUCCESS,
		    "%d-bit: user-mode logger", BITS))
		return tap_done();
	tap_eq(TraceLoggingRegister(rt_provider), 0, "%d-bit: TraceLoggingRegister", BITS);
	tap_eq(EnableTraceEx2(h, &rt_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
	       ERROR_SUCCESS, "%d-bit: enabled", BITS);
	write_events();
	tap_eq(ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS,
	       "%d-bit: stop", BITS);
	TraceLoggingUnregister(rt_provider);

	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_record;
	r = OpenTraceA(&lf);
	if (tap_ok(r != INVALID_PROCESSTRACE_HANDLE, "%d-bit: OpenTrace", BITS)) {
		tap_eq(ProcessTrace(&r, 1, NULL, NULL), ERROR_SUCCESS, "%d-bit: ProcessTrace",
		       BITS);
		CloseTrace(r);
	}
	for (i = 0; i < nwants; i++) {
		seen += wants[i].seen == 1;
		good += wants[i].good == 1;
		if (wants[i].good != 1)
			printf("# not read back: %s\n", wants[i].event);
	}
	tap_eq(seen, nwants, "%d-bit: each of the %u macros' events read back once", BITS,
	       nwants);
	tap_eq(good, nwants, "%d-bit: each field's TDH in-type and bytes as written", BITS);
	tap_eq(bad_header, 0, "%d-bit: each EVENT_RECORD with HeaderType 0 and the %d-bit "
	       "header flag", BITS, BITS);
	unlink(path);
	return tap_done();
}
