// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: TDH over a TraceLogging event made of the input
 * (userlib/tdh/tdh*.c): TdhGetEventInformation on its schema, then,
 * for every property, TdhGetPropertySize and TdhGetProperty (the
 * top-level ones, and each member of a top-level structure), and
 * TdhFormatProperty as a consumer runs it through the data, with a buffer
 * too small first.
 *
 * With bit 2 of the first byte, the input is a message event instead,
 * decoded by the harness's own formats (DecodingSourceWPP, userlib/
 * tdh/tdh_wpp*.c): TdhGetWppMessage and TdhGetWppProperty through a
 * decoding handle, TdhGetEventInformation, TdhGetPropertySize and
 * TdhGetProperty through a TMFFILE context, for each WPP property; see
 * wpp() for its input.
 *
 * Input, in order:
 *   1 byte   bit 0: the event's header says 32-bit (else 64-bit);
 *            bit 1: a provider-traits item follows the schema
 *   2 bytes  the schema item's size, little-endian (cut to what is left)
 *   the schema item (TraceLogging event metadata)
 *   [1 byte, the traits item's size, and the item]
 *   the rest: the event's data
 * Each part is copied into an allocation of its own size, so that a read
 * past one is AddressSanitizer's to see. Besides crashes, the harness
 * aborts on a TRACE_EVENT_INFO whose offsets, counts or strings leave its
 * size, and on sizes that disagree between calls.
 *
 * Build and run: scripts/fuzz-lib (build/fuzz/tdh_fuzz); seeds in
 * tests/fuzz/corpus/tdh_fuzz/ (events of tests/host/tdh_test.c's encoder:
 * tdh_test --corpus DIR), crashes kept in tests/fuzz/regressions/tdh_fuzz/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/tdh.h>

#include "tl_event.h"

static volatile uint8_t sink;

static void *copy(const uint8_t *p, size_t n)
{
	void *d = malloc(n ? n : 1);

	if (!d)
		abort();
	memcpy(d, p, n);
	return d;
}

/* Every offset and string of @tei inside its @size bytes. */
static void check_info(const TRACE_EVENT_INFO *tei, ULONG size)
{
	const ULONG offs[] = { tei->ProviderNameOffset, tei->EventNameOffset,
			       tei->TaskNameOffset };
	size_t fixed = offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) +
		       (size_t)tei->PropertyCount * sizeof(EVENT_PROPERTY_INFO);
	const uint8_t *b = (const uint8_t *)tei;
	ULONG i, o;

	if (fixed > size || tei->TopLevelPropertyCount > tei->PropertyCount ||
	    (tei->DecodingSource != DecodingSourceTlg && tei->DecodingSource != DecodingSourceWPP))
		abort();
	for (i = 0; i < tei->PropertyCount + 3; i++) {
		const EVENT_PROPERTY_INFO *p = &tei->EventPropertyInfoArray[i < 3 ? 0 : i - 3];

		o = i < 3 ? offs[i] : p->NameOffset;
		if (i >= 3 && (p->Flags & PropertyStruct) &&
		    p->structType.StructStartIndex + p->structType.NumOfStructMembers >
		    tei->PropertyCount)
			abort();
		if (!o)
			continue;
		if (o < fixed || o >= size || (o & 1))
			abort();
		while (o + 1 < size && (b[o] || b[o + 1]))
			o += 2;
		if (o + 1 >= size)
			abort();	/* no NUL inside */
	}
}

static void property(PEVENT_RECORD er, PROPERTY_DATA_DESCRIPTOR *pd, ULONG n)
{
	ULONG size = 0, err = TdhGetPropertySize(er, 0, NULL, n, pd, &size);
	uint8_t *buf;

	if (err)
		return;
	if (size > er->UserDataLength)
		abort();
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	if (size && TdhGetProperty(er, 0, NULL, n, pd, size - 1, buf) != ERROR_INSUFFICIENT_BUFFER)
		abort();
	if (TdhGetProperty(er, 0, NULL, n, pd, size, buf))
		abort();
	if (size)
		sink = buf[size - 1];
	free(buf);
}

/* The top-level scalars in turn, as a consumer formats them. */
static void format_all(TRACE_EVENT_INFO *tei, PEVENT_RECORD er, ULONG psz)
{
	const uint8_t *d = er->UserData;
	USHORT left = er->UserDataLength, used;
	ULONG i;

	for (i = 0; i < tei->TopLevelPropertyCount; i++) {
		EVENT_PROPERTY_INFO *p = &tei->EventPropertyInfoArray[i];
		ULONG size = 2, need, err;
		WCHAR *w;

		if (p->Flags & PropertyStruct)
			return;
		err = TdhFormatProperty(tei, NULL, psz, p->nonStructType.InType,
					p->nonStructType.OutType, p->length, left, (PBYTE)d,
					&size, NULL, &used);
		if (err == ERROR_SUCCESS)
			abort();	/* no buffer: never enough */
		if (err != ERROR_INSUFFICIENT_BUFFER)
			return;
		need = size;
		w = malloc(need);
		if (!w)
			abort();
		err = TdhFormatProperty(tei, NULL, psz, p->nonStructType.InType,
					p->nonStructType.OutType, p->length, left, (PBYTE)d,
					&size, w, &used);
		if (err || size != need || used > left || w[need / 2 - 1])
			abort();
		free(w);
		d += used;
		left -= used;
	}
}

/* ---- message events (WPP) ---- */

static const GUID wpp_guid = { 0x6a1b7c2d, 0x3e4f, 0x4a5b,
			       { 0x8c, 0x9d, 0x0e, 0x1f, 0x2a, 0x3b, 0x4c, 0x5d } };
#define WPP_GUID "6a1b7c2d-3e4f-4a5b-8c9d-0e1f2a3b4c5d "
/* Every argument type, conversions that fit and some that do not. */
static const char wpp_formats[] =
	WPP_GUID "0 8 sip a/b.c:1 \"%s %d at %p\"\n"
	WPP_GUID "0 4 sip a/b.c:1 \"%s %d at %p (32)\"\n"
	WPP_GUID "1 8 bBhHiIqQfdps c.c:2 \"%hhd %hhu %hd %hu %d %u %lld %llu %f %g %p %s\"\n"
	WPP_GUID "2 8 - d.c:3 \"no arguments, 100%%\"\n"
	WPP_GUID "3 8 ss e.c:4 \"%.3s|%-10s|%*d\"\n"
	WPP_GUID "4 8 IIs f.c:5 \"%*.*s %x %c %lc\"\n";
static const char *const wpp_names[] = {
	"FormattedString", "SequenceNum", "FunctionName", "ComponentName", "SubComponentName",
	"TraceGuid", "GuidTypeName", "SystemTime", "FlagsName", "LevelName",
};
static WCHAR wpp_path[64], wpp_wnames[10][20];
static TDH_HANDLE wpp_handle;

static void wide(WCHAR *w, const char *s)
{
	while ((*w++ = (unsigned char)*s++))
		;
}

/* The formats into a file of their own, and a handle that reads them: once. */
static void wpp_setup(void)
{
	char path[] = "/tmp/tdh_fuzz_wpp.XXXXXX";
	TDH_CONTEXT c = { (uintptr_t)wpp_path, TDH_CONTEXT_WPP_TMFFILE, 0 };
	EVENT_RECORD er = { 0 };
	int fd = mkstemp(path);
	ULONG n = 0;
	size_t i;

	if (fd < 0 || write(fd, wpp_formats, sizeof(wpp_formats) - 1) !=
		      (ssize_t)sizeof(wpp_formats) - 1 || close(fd))
		abort();
	wide(wpp_path, path);
	for (i = 0; i < 10; i++)
		wide(wpp_wnames[i], wpp_names[i]);
	if (TdhOpenDecodingHandle(&wpp_handle) || TdhSetDecodingParameter(wpp_handle, &c))
		abort();
	/* Message 2 has no arguments: its description loads the context's formats. */
	er.EventHeader.Flags = EVENT_HEADER_FLAG_TRACE_MESSAGE;
	er.EventHeader.ProviderId = wpp_guid;
	er.EventHeader.EventDescriptor.Id = 2;
	if (TdhGetEventInformation(&er, 1, &c, NULL, &n) != ERROR_INSUFFICIENT_BUFFER)
		abort();
	unlink(path);	/* loaded: the handle and the contexts' cache keep it */
}

/* A size-query, a byte short, then the whole value: sizes must agree. */
static void wpp_value(PEVENT_RECORD er, const WCHAR *name)
{
	ULONG size = 0, need, err;
	uint8_t *buf;

	err = name ? TdhGetWppProperty(wpp_handle, er, (PWSTR)name, &size, NULL) :
		     TdhGetWppMessage(wpp_handle, er, &size, NULL);
	if (err == ERROR_NOT_FOUND)
		return;
	if (err != ERROR_INSUFFICIENT_BUFFER || !size)
		abort();
	need = size;
	buf = malloc(need);
	if (!buf)
		abort();
	size = need - 1;
	err = name ? TdhGetWppProperty(wpp_handle, er, (PWSTR)name, &size, buf) :
		     TdhGetWppMessage(wpp_handle, er, &size, buf);
	if (err != ERROR_INSUFFICIENT_BUFFER || size != need)
		abort();
	err = name ? TdhGetWppProperty(wpp_handle, er, (PWSTR)name, &size, buf) :
		     TdhGetWppMessage(wpp_handle, er, &size, buf);
	if (err || size != need)
		abort();
	sink = buf[need - 1];
	free(buf);
}

/*
 * Input: byte 0 (bit 0: 32-bit header; bit 3: GMT), bytes 1-2 the message
 * number, bytes 3-10 the time stamp, the rest the event's data.
 */
static void wpp(const uint8_t *data, size_t size)
{
	TDH_CONTEXT ctx[2] = { { (uintptr_t)wpp_path, TDH_CONTEXT_WPP_TMFFILE, 0 },
			       { 1, TDH_CONTEXT_WPP_GMT, 0 } };
	EVENT_RECORD er = { 0 };
	TRACE_EVENT_INFO *tei;
	ULONG tei_size = 0, size2, i, nctx = data[0] & 8 ? 2 : 1;
	size_t n;
	void *ud;

	if (!wpp_handle)
		wpp_setup();
	if (size < 11)
		return;
	er.EventHeader.Flags = EVENT_HEADER_FLAG_TRACE_MESSAGE |
			       (data[0] & 1 ? EVENT_HEADER_FLAG_32_BIT_HEADER :
					      EVENT_HEADER_FLAG_64_BIT_HEADER);
	er.EventHeader.ProviderId = wpp_guid;
	er.EventHeader.EventDescriptor.Id = (USHORT)(data[1] | data[2] << 8);
	memcpy(&er.EventHeader.TimeStamp, data + 3, 8);
	n = size - 11 > 0xFFFF ? 0xFFFF : size - 11;
	ud = copy(data + 11, n);
	er.UserData = ud;
	er.UserDataLength = (USHORT)n;

	wpp_value(&er, NULL);
	for (i = 0; i < 10; i++)
		wpp_value(&er, wpp_wnames[i]);
	if (TdhGetEventInformation(&er, nctx, ctx, NULL, &tei_size) != ERROR_INSUFFICIENT_BUFFER)
		goto out;
	tei = malloc(tei_size);
	if (!tei)
		abort();
	size2 = tei_size;
	if (TdhGetEventInformation(&er, nctx, ctx, tei, &size2) || size2 != tei_size ||
	    tei->DecodingSource != DecodingSourceWPP)
		abort();
	check_info(tei, tei_size);
	for (i = 0; i < tei->TopLevelPropertyCount; i++) {
		PROPERTY_DATA_DESCRIPTOR pd = {
			(uintptr_t)((uint8_t *)tei + tei->EventPropertyInfoArray[i].NameOffset),
			0xFFFFFFFF, 0
		};
		ULONG psize = 0;
		uint8_t *buf;

		if (TdhGetPropertySize(&er, nctx, ctx, 1, &pd, &psize) || !psize)
			abort();
		buf = malloc(psize);
		if (!buf)
			abort();
		if (TdhGetProperty(&er, nctx, ctx, 1, &pd, psize - 1, buf) !=
		    ERROR_INSUFFICIENT_BUFFER || TdhGetProperty(&er, nctx, ctx, 1, &pd, psize, buf))
			abort();
		sink = buf[psize - 1];
		free(buf);
	}
	free(tei);
out:
	free(ud);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tl_event t;
	PEVENT_RECORD er = &t.er;
	TRACE_EVENT_INFO *tei;
	ULONG tei_size = 0, size2, i, psz;

	if (size && (data[0] & 4)) {
		wpp(data, size);
		return 0;
	}
	if (size < 3)
		return 0;
	tl_event_build(&t, data, size, copy);
	psz = data[0] & 1 ? 4 : 8;

	if (TdhGetEventInformation(er, 0, NULL, NULL, &tei_size) != ERROR_INSUFFICIENT_BUFFER)
		goto out;
	tei = malloc(tei_size);
	if (!tei)
		abort();
	size2 = tei_size;
	if (TdhGetEventInformation(er, 0, NULL, tei, &size2) || size2 != tei_size)
		abort();
	check_info(tei, tei_size);
	for (i = 0; i < tei->TopLevelPropertyCount; i++) {
		EVENT_PROPERTY_INFO *e = &tei->EventPropertyInfoArray[i];
		PROPERTY_DATA_DESCRIPTOR pd[2] = {
			{ (uintptr_t)((uint8_t *)tei + e->NameOffset), 0xFFFFFFFF, 0 },
		};
		ULONG m;

		property(er, pd, 1);
		pd[0].ArrayIndex = 0;
		property(er, pd, 1);
		if (!(e->Flags & PropertyStruct))
			continue;
		for (m = 0; m < e->structType.NumOfStructMembers; m++) {
			EVENT_PROPERTY_INFO *f =
				&tei->EventPropertyInfoArray[e->structType.StructStartIndex + m];

			pd[1].PropertyName = (uintptr_t)((uint8_t *)tei + f->NameOffset);
			pd[1].ArrayIndex = 0xFFFFFFFF;
			property(er, pd, 2);
		}
	}
	format_all(tei, er, psz);
	free(tei);
out:
	tl_event_free(&t);
	return 0;
}
