// SPDX-License-Identifier: GPL-2.0
/*
 * TDH's DecodingSourceWPP (userlib/tdh/tdh_wpp*.c): message events
 * built here by hand, their formats from a format file this test writes,
 * from a search path, and from this program's own nttrace_wpp section;
 * decoded through a decoding handle (TdhGetWppMessage, TdhGetWppProperty)
 * and through contexts (TdhGetEventInformation, TdhGetPropertySize,
 * TdhGetProperty). Each of the ten WPP properties is checked against what
 * the format and the header say, the message text to the last character,
 * SystemTime in UTC and in a fixed local zone; then every bad input: NULL
 * arguments, a handle not open or closed, unknown context types, a
 * context twice, a TMF that is not there or does not load, an event with
 * no format, sizes too small. 64- and 32-bit builds. TAP.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <nttrace/evntcons.h>
#include <nttrace/tdh.h>
#include <nttrace/wpp.h>
#include "../vm/tap.h"

#define BITS ((int)sizeof(void *) * 8)

/* 2024-02-29 13:45:30.1234567 UTC, a Thursday, as a FILETIME. */
#define STAMP 133536879301234567LL

static const GUID msg_guid = { 0x6a1b7c2d, 0x3e4f, 0x4a5b,
			       { 0x8c, 0x9d, 0x0e, 0x1f, 0x2a, 0x3b, 0x4c, 0x5d } };
static const char *const fmt_lines =
	"# the test's formats\n"
	"6a1b7c2d-3e4f-4a5b-8c9d-0e1f2a3b4c5d 10 8 sip src/dir/sample.c:40 \"%s %d at %p\"\n"
	"6a1b7c2d-3e4f-4a5b-8c9d-0e1f2a3b4c5d 10 4 sip src/dir/sample.c:40 \"%s %d at %p (32)\"\n"
	"6a1b7c2d-3e4f-4a5b-8c9d-0e1f2a3b4c5d 11 8 - other.c:7 \"caf\\xc3\\xa9, 100%%\"\n";

static char dir[64], fmt_path[128], search_dir[128];
static uint8_t data[256];
static uint32_t len;

static void put(const void *p, uint32_t n)
{
	memcpy(data + len, p, n);
	len += n;
}

static void put_le(uint64_t v, uint32_t n)
{
	while (n--) {
		data[len++] = (uint8_t)v;
		v >>= 8;
	}
}

/* ASCII as UTF-16, in one of a few rotating buffers. */
static WCHAR *W(const char *s)
{
	static WCHAR buf[8][256];
	static unsigned int k;
	WCHAR *w = buf[k++ % 8];
	size_t i;

	for (i = 0; s[i] && i < 255; i++)
		w[i] = (unsigned char)s[i];
	w[i] = 0;
	return w;
}

/* UTF-16 (of @n bytes, with its NUL) as text: \u escapes past ASCII. */
static const char *A(const void *p, ULONG n)
{
	static char out[1024];
	const uint8_t *b = p;
	size_t o = 0;
	ULONG i;

	for (i = 0; i + 1 < n && o + 8 < sizeof(out); i += 2) {
		unsigned int c = b[i] | b[i + 1] << 8;

		if (!c)
			break;
		if (c < 0x80)
			out[o++] = (char)c;
		else
			o += snprintf(out + o, sizeof(out) - o, "\\u%04x", c);
	}
	out[o] = 0;
	return out;
}

/* The bytes hold a NUL-terminated UTF-16 string of exactly that size. */
static int whole_string(const uint8_t *b, ULONG n)
{
	return n >= 2 && !(n & 1) && !b[n - 2] && !b[n - 1] && strlen(A(b, n)) * 2 + 2 >= n;
}

static void make_event(EVENT_RECORD *er, USHORT number, int ptr32)
{
	memset(er, 0, sizeof(*er));
	er->EventHeader.Flags = EVENT_HEADER_FLAG_TRACE_MESSAGE | EVENT_HEADER_FLAG_NO_CPUTIME |
				(ptr32 ? EVENT_HEADER_FLAG_32_BIT_HEADER :
					 EVENT_HEADER_FLAG_64_BIT_HEADER);
	er->EventHeader.ProviderId = msg_guid;
	er->EventHeader.EventDescriptor.Id = number;
	er->EventHeader.TimeStamp.QuadPart = STAMP;
	er->UserData = data;
	er->UserDataLength = (USHORT)len;
}

/* Message 10's arguments: "hello", 42, a pointer. */
static void message10(EVENT_RECORD *er, int ptr32)
{
	len = 0;
	put("hello", 6);
	put_le(42, 4);
	put_le(ptr32 ? 0xbeef0010 : 0x7ffd12345678ULL, ptr32 ? 4 : 8);
	make_event(er, 10, ptr32);
}

static void write_file(const char *path, const void *text, size_t n)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(text, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(2);
	}
}

static void setup(void)
{
	static const uint8_t binary[] = { 'x', 0, 1, 2, '\n' };
	char p[192];

	strcpy(dir, "/tmp/tdh_wpp_test.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(2);
	}
	snprintf(fmt_path, sizeof(fmt_path), "%s/sample.fmt", dir);
	write_file(fmt_path, fmt_lines, strlen(fmt_lines));
	snprintf(p, sizeof(p), "%s/garbage.bin", dir);
	write_file(p, binary, sizeof(binary));
	snprintf(search_dir, sizeof(search_dir), "%s/search", dir);
	mkdir(search_dir, 0700);
	snprintf(p, sizeof(p), "%s/a-not-formats.txt", search_dir);
	write_file(p, "hello world\n", 12);
	snprintf(p, sizeof(p), "%s/b.fmt", search_dir);
	write_file(p, fmt_lines, strlen(fmt_lines));
	snprintf(p, sizeof(p), "%s/subdir", search_dir);
	mkdir(p, 0700);
}

static void cleanup(void)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
}

static ULONG set(TDH_HANDLE h, TDH_CONTEXT_TYPE type, ULONGLONG value)
{
	TDH_CONTEXT c = { value, type, 0 };

	return TdhSetDecodingParameter(h, &c);
}

/* A context's string: its own buffer, for as long as the program runs. */
static ULONGLONG wstr(const char *s)
{
	static WCHAR pool[64][256];
	static unsigned int k;
	size_t i;

	if (k == 64) {
		printf("Bail out! wstr's pool is used up\n");
		exit(2);
	}
	for (i = 0; s[i] && i < 255; i++)
		pool[k][i] = (unsigned char)s[i];
	pool[k][i] = 0;
	return (uintptr_t)pool[k++];
}

/* The message by the handle, as text; its error in *@err. */
static const char *wpp_message(TDH_HANDLE h, EVENT_RECORD *er, ULONG *err)
{
	static uint8_t buf[2048];
	ULONG size = sizeof(buf);

	*err = TdhGetWppMessage(h, er, &size, buf);
	return *err ? "" : A(buf, size);
}

/* ---- the values the format and the header say ---- */

struct want {
	const char *message, *guid_type;
	int hour;		/* SystemTime's, local or UTC */
};

/* Property @name's bytes, got by TdhGetWppProperty (@h) or by TdhGetProperty (contexts). */
static ULONG get_prop(TDH_HANDLE h, ULONG nctx, TDH_CONTEXT *ctx, EVENT_RECORD *er,
		      const char *name, uint8_t *buf, ULONG *size)
{
	PROPERTY_DATA_DESCRIPTOR pd = { (uintptr_t)W(name), 0xFFFFFFFF, 0 };
	ULONG want = 0, err;

	if (h)
		return TdhGetWppProperty(h, er, W(name), size, buf);
	err = TdhGetPropertySize(er, nctx, ctx, 1, &pd, &want);
	if (err)
		return err;
	if (want > *size)
		return ERROR_INSUFFICIENT_BUFFER;
	err = TdhGetProperty(er, nctx, ctx, 1, &pd, *size, buf);
	*size = want;
	return err;
}

static void check_props(const char *how, TDH_HANDLE h, ULONG nctx, TDH_CONTEXT *ctx,
			EVENT_RECORD *er, const struct want *w)
{
	static const char *const empty[] = { "FunctionName", "ComponentName", "SubComponentName",
					      "FlagsName", "LevelName" };
	uint8_t buf[1024];
	SYSTEMTIME st;
	ULONG size, err;
	unsigned int i;

	size = sizeof(buf);
	err = get_prop(h, nctx, ctx, er, "FormattedString", buf, &size);
	tap_ok(!err && whole_string(buf, size) && !strcmp(A(buf, size), w->message),
	       "%d-bit %s: FormattedString \"%s\"", BITS, how, err ? "?" : A(buf, size));
	size = sizeof(buf);
	err = get_prop(h, nctx, ctx, er, "SequenceNum", buf, &size);
	tap_ok(!err && size == 4 && !memcmp(buf, "\0\0\0\0", 4),
	       "%d-bit %s: SequenceNum a UINT32 of 0 (EVENT_RECORD carries none)", BITS, how);
	for (i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
		size = sizeof(buf);
		err = get_prop(h, nctx, ctx, er, empty[i], buf, &size);
		tap_ok(!err && size == 2 && !buf[0] && !buf[1], "%d-bit %s: %s empty", BITS, how,
		       empty[i]);
	}
	size = sizeof(buf);
	err = get_prop(h, nctx, ctx, er, "TraceGuid", buf, &size);
	tap_ok(!err && size == 16 && !memcmp(buf, &msg_guid, 16),
	       "%d-bit %s: TraceGuid the message GUID", BITS, how);
	size = sizeof(buf);
	err = get_prop(h, nctx, ctx, er, "GuidTypeName", buf, &size);
	tap_ok(!err && whole_string(buf, size) && !strcmp(A(buf, size), w->guid_type),
	       "%d-bit %s: GuidTypeName \"%s\"", BITS, how, err ? "?" : A(buf, size));
	size = sizeof(buf);
	err = get_prop(h, nctx, ctx, er, "SystemTime", buf, &size);
	memcpy(&st, buf, sizeof(st));
	tap_ok(!err && size == 16 && st.wYear == 2024 && st.wMonth == 2 && st.wDayOfWeek == 4 &&
	       st.wDay == 29 && st.wHour == w->hour && st.wMinute == 45 && st.wSecond == 30 &&
	       st.wMilliseconds == 123,
	       "%d-bit %s: SystemTime 2024-02-29 (Thursday) %02u:%02u:%02u.%03u, want hour %d",
	       BITS, how, st.wHour, st.wMinute, st.wSecond, st.wMilliseconds, w->hour);
	size = sizeof(buf);
	tap_eq(get_prop(h, nctx, ctx, er, "formattedString", buf, &size), ERROR_NOT_FOUND,
	       "%d-bit %s: names are case-sensitive", BITS, how);
	size = sizeof(buf);
	tap_eq(get_prop(h, nctx, ctx, er, "Nothing", buf, &size), ERROR_NOT_FOUND,
	       "%d-bit %s: an unknown name ERROR_NOT_FOUND", BITS, how);
}

/* ---- a decoding handle ---- */

static void test_handle(void)
{
	static const struct want w64 = { "hello 42 at 0x7ffd12345678", "sample.c:40", 13 };
	static const struct want w32 = { "hello 42 at 0xbeef0010 (32)", "sample.c:40", 15 };
	TDH_HANDLE h = NULL, h2;
	TDH_CONTEXT c;
	EVENT_RECORD er;
	uint8_t buf[256];
	ULONG size, err;

	tap_eq(TdhOpenDecodingHandle(NULL), ERROR_INVALID_PARAMETER,
	       "%d-bit: TdhOpenDecodingHandle(NULL)", BITS);
	tap_eq(TdhOpenDecodingHandle(&h), ERROR_SUCCESS, "%d-bit: a handle opened", BITS);
	tap_ok(h != NULL, "... not NULL");
	message10(&er, 0);

	/* Nothing set yet: no formats. */
	tap_eq(TdhGetWppMessage(h, &er, &(ULONG){ sizeof(buf) }, buf), ERROR_NOT_FOUND,
	       "%d-bit: a handle without formats finds none", BITS);
	c = (TDH_CONTEXT){ 0, TDH_CONTEXT_WPP_GMT, 0 };
	tap_eq(TdhGetDecodingParameter(h, &c), ERROR_INVALID_PARAMETER,
	       "%d-bit: a parameter not set does not exist", BITS);

	/* Bad parameters. */
	tap_eq(TdhSetDecodingParameter(h, NULL), ERROR_INVALID_PARAMETER,
	       "%d-bit: set with no context", BITS);
	tap_eq(set(h, (TDH_CONTEXT_TYPE)99, 1), ERROR_INVALID_PARAMETER,
	       "%d-bit: set an unknown context type", BITS);
	tap_eq(set(h, TDH_CONTEXT_MAXIMUM, 1), ERROR_INVALID_PARAMETER,
	       "%d-bit: set TDH_CONTEXT_MAXIMUM", BITS);
	tap_eq(set(h, TDH_CONTEXT_POINTERSIZE, 5), ERROR_INVALID_PARAMETER,
	       "%d-bit: a pointer size of 5", BITS);
	tap_eq(set(h, TDH_CONTEXT_PDB_PATH, wstr("x.pdb")), ERROR_NOT_SUPPORTED,
	       "%d-bit: no PDBs", BITS);
	tap_eq(set(h, TDH_CONTEXT_WPP_TMFFILE, 0), ERROR_INVALID_PARAMETER,
	       "%d-bit: a NULL TMF path", BITS);
	tap_eq(set(h, TDH_CONTEXT_WPP_TMFFILE, wstr("")), ERROR_INVALID_PARAMETER,
	       "%d-bit: an empty TMF path", BITS);
	tap_eq(set(NULL, TDH_CONTEXT_WPP_GMT, 1), ERROR_INVALID_PARAMETER,
	       "%d-bit: set on a NULL handle", BITS);
	tap_eq(set((TDH_HANDLE)(uintptr_t)0x12340077, TDH_CONTEXT_WPP_GMT, 1),
	       ERROR_INVALID_PARAMETER, "%d-bit: set on a handle never opened", BITS);

	/* The format file, with local time 2 hours east of UTC. */
	tap_eq(set(h, TDH_CONTEXT_WPP_TMFFILE, wstr(fmt_path)), ERROR_SUCCESS,
	       "%d-bit: TMFFILE set to the format file", BITS);
	c = (TDH_CONTEXT){ 0, TDH_CONTEXT_WPP_TMFFILE, 0 };
	tap_ok(!TdhGetDecodingParameter(h, &c) && c.ParameterValue &&
	       !strcmp(A((const void *)(uintptr_t)c.ParameterValue, 512), fmt_path),
	       "%d-bit: ... and read back", BITS);
	check_props("handle, local time", h, 0, NULL, &er, &(struct want){ w64.message,
		    w64.guid_type, 15 });
	tap_eq(set(h, TDH_CONTEXT_WPP_GMT, 0x101), ERROR_SUCCESS,
	       "%d-bit: GMT set (its low byte: 1)", BITS);
	c = (TDH_CONTEXT){ 0, TDH_CONTEXT_WPP_GMT, 0 };
	tap_ok(!TdhGetDecodingParameter(h, &c) && c.ParameterValue == 1,
	       "%d-bit: ... and read back as 1", BITS);
	check_props("handle, UTC", h, 0, NULL, &er, &w64);
	message10(&er, 1);
	check_props("handle, 32-bit event", h, 0, NULL, &er, &(struct want){ w32.message,
		    w32.guid_type, 13 });

	/* The message by TdhGetWppMessage, its sizes and errors. */
	message10(&er, 0);
	size = 0;
	err = TdhGetWppMessage(h, &er, &size, NULL);
	tap_ok(err == ERROR_INSUFFICIENT_BUFFER && size == 2 * (strlen(w64.message) + 1),
	       "%d-bit: TdhGetWppMessage's size asked with no buffer (%lu)", BITS,
	       (unsigned long)size);
	size--;
	tap_eq(TdhGetWppMessage(h, &er, &size, buf), ERROR_INSUFFICIENT_BUFFER,
	       "%d-bit: ... a byte short", BITS);
	tap_eq(size, 2 * (strlen(w64.message) + 1), "... and the size again");
	tap_ok(!strcmp(wpp_message(h, &er, &err), w64.message) && !err,
	       "%d-bit: TdhGetWppMessage \"%s\"", BITS, w64.message);
	size = 8;
	tap_eq(TdhGetWppMessage(h, &er, &size, NULL), ERROR_INVALID_PARAMETER,
	       "%d-bit: a NULL buffer of 8 bytes", BITS);
	tap_eq(TdhGetWppMessage(h, &er, NULL, buf), ERROR_INVALID_PARAMETER,
	       "%d-bit: a NULL size", BITS);
	tap_eq(TdhGetWppMessage(h, NULL, &size, buf), ERROR_INVALID_PARAMETER,
	       "%d-bit: a NULL event", BITS);
	tap_eq(TdhGetWppMessage(NULL, &er, &size, buf), ERROR_INVALID_PARAMETER,
	       "%d-bit: a NULL handle", BITS);
	size = sizeof(buf);
	tap_eq(TdhGetWppProperty(h, &er, NULL, &size, buf), ERROR_INVALID_PARAMETER,
	       "%d-bit: a NULL property name", BITS);
	size = 0;
	tap_eq(TdhGetWppProperty(h, &er, W("TraceGuid"), &size, NULL), ERROR_INSUFFICIENT_BUFFER,
	       "%d-bit: TdhGetWppProperty's size asked", BITS);
	tap_eq(size, 16, "... 16 for a GUID");

	/* A message with another format: UTF-8 and %%. */
	len = 0;
	make_event(&er, 11, 0);
	tap_ok(!strcmp(wpp_message(h, &er, &err), "caf\\u00e9, 100%") && !err,
	       "%d-bit: message 11 \"%s\"", BITS, wpp_message(h, &er, &err));
	/* No format, no message. */
	make_event(&er, 99, 0);
	tap_eq(TdhGetWppMessage(h, &er, &(ULONG){ sizeof(buf) }, buf), ERROR_NOT_FOUND,
	       "%d-bit: a message without a format ERROR_NOT_FOUND", BITS);
	tap_eq(TdhGetWppProperty(h, &er, W("TraceGuid"), &(ULONG){ sizeof(buf) }, buf),
	       ERROR_NOT_FOUND, "%d-bit: ... its properties too", BITS);
	message10(&er, 0);
	er.EventHeader.Flags &= ~EVENT_HEADER_FLAG_TRACE_MESSAGE;
	tap_eq(TdhGetWppMessage(h, &er, &(ULONG){ sizeof(buf) }, buf), ERROR_NOT_FOUND,
	       "%d-bit: an event that is no message ERROR_NOT_FOUND", BITS);

	/* A TMF that is not there, or does not load: the handle keeps its formats. */
	message10(&er, 0);
	tap_eq(set(h, TDH_CONTEXT_WPP_TMFFILE, wstr("/nonexistent/x.fmt")),
	       ERROR_INVALID_PARAMETER, "%d-bit: a TMF that is not there", BITS);
	snprintf((char *)buf, sizeof(buf), "%s/garbage.bin", dir);
	tap_eq(set(h, TDH_CONTEXT_WPP_TMFFILE, wstr((char *)buf)), ERROR_INVALID_PARAMETER,
	       "%d-bit: a TMF that does not load", BITS);
	tap_eq(set(h, TDH_CONTEXT_WPP_TMFFILE, wstr(dir)), ERROR_INVALID_PARAMETER,
	       "%d-bit: a directory as TMF", BITS);
	tap_eq(set(h, TDH_CONTEXT_WPP_TMFFILE, wstr("not-anywhere.fmt")),
	       ERROR_INVALID_PARAMETER, "%d-bit: a name found nowhere", BITS);
	tap_ok(!strcmp(wpp_message(h, &er, &err), w64.message),
	       "%d-bit: ... the handle kept its formats", BITS);

	/* A second handle: its own parameters, a search path only. */
	tap_eq(TdhOpenDecodingHandle(&h2), ERROR_SUCCESS, "%d-bit: a second handle", BITS);
	tap_ok(h2 != h, "... another value");
	tap_eq(set(h2, TDH_CONTEXT_WPP_TMFSEARCHPATH, wstr("/nonexistent;/nonexistent2")),
	       ERROR_INVALID_PARAMETER, "%d-bit: a search path of no directory", BITS);
	snprintf((char *)buf, sizeof(buf), "/nonexistent;;%s", search_dir);
	tap_eq(set(h2, TDH_CONTEXT_WPP_TMFSEARCHPATH, wstr((char *)buf)), ERROR_SUCCESS,
	       "%d-bit: a search path", BITS);
	tap_ok(!strcmp(wpp_message(h2, &er, &err), "hello 42 at 0x7ffd12345678"),
	       "%d-bit: ... its directory's files loaded (\"%s\")", BITS,
	       wpp_message(h2, &er, &err));
	/* A bare name looked for in the search path. */
	tap_eq(set(h2, TDH_CONTEXT_WPP_TMFFILE, wstr("b.fmt")), ERROR_SUCCESS,
	       "%d-bit: TMFFILE b.fmt found in the search path", BITS);
	tap_ok(!strcmp(wpp_message(h2, &er, &err), "hello 42 at 0x7ffd12345678"),
	       "%d-bit: ... and decodes", BITS);
	/* A header without a pointer size: the handle's POINTERSIZE picks the format. */
	tap_eq(set(h2, TDH_CONTEXT_POINTERSIZE, 4), ERROR_SUCCESS, "%d-bit: POINTERSIZE 4", BITS);
	c = (TDH_CONTEXT){ 0, TDH_CONTEXT_POINTERSIZE, 0 };
	tap_ok(!TdhGetDecodingParameter(h2, &c) && c.ParameterValue == 4,
	       "%d-bit: ... and read back", BITS);
	message10(&er, 1);
	er.EventHeader.Flags &= ~EVENT_HEADER_FLAG_32_BIT_HEADER;
	tap_ok(!strcmp(wpp_message(h2, &er, &err), w32.message),
	       "%d-bit: ... decodes a header without one as 32-bit (\"%s\")", BITS,
	       wpp_message(h2, &er, &err));
	message10(&er, 0);
	/* ... and in TRACE_FORMAT_SEARCH_PATH. */
	setenv("TRACE_FORMAT_SEARCH_PATH", dir, 1);
	tap_eq(set(h2, TDH_CONTEXT_WPP_TMFFILE, wstr("sample.fmt")), ERROR_SUCCESS,
	       "%d-bit: TMFFILE sample.fmt found in TRACE_FORMAT_SEARCH_PATH", BITS);
	unsetenv("TRACE_FORMAT_SEARCH_PATH");

	/* Closed: not open any more. */
	tap_eq(TdhCloseDecodingHandle(h), ERROR_SUCCESS, "%d-bit: handle closed", BITS);
	tap_eq(TdhCloseDecodingHandle(h), ERROR_INVALID_PARAMETER,
	       "%d-bit: closed twice ERROR_INVALID_PARAMETER", BITS);
	tap_eq(TdhGetWppMessage(h, &er, &(ULONG){ sizeof(buf) }, buf), ERROR_INVALID_PARAMETER,
	       "%d-bit: a closed handle ERROR_INVALID_PARAMETER", BITS);
	c = (TDH_CONTEXT){ 0, TDH_CONTEXT_WPP_TMFFILE, 0 };
	tap_eq(TdhGetDecodingParameter(h, &c), ERROR_INVALID_PARAMETER,
	       "%d-bit: ... for TdhGetDecodingParameter too", BITS);
	tap_eq(TdhOpenDecodingHandle(&h), ERROR_SUCCESS, "%d-bit: a handle opened again", BITS);
	tap_eq(TdhGetWppMessage(h, &er, &(ULONG){ sizeof(buf) }, buf), ERROR_NOT_FOUND,
	       "%d-bit: ... in the old slot, with none of the old formats", BITS);
	tap_eq(TdhCloseDecodingHandle(h), ERROR_SUCCESS, "%d-bit: closed", BITS);
	tap_eq(TdhCloseDecodingHandle(h2), ERROR_SUCCESS, "%d-bit: the second closed", BITS);
}

/* ---- contexts ---- */

static void test_contexts(void)
{
	static const char *const names[] = { "FormattedString", "SequenceNum", "FunctionName",
					     "ComponentName", "SubComponentName", "TraceGuid",
					     "GuidTypeName", "SystemTime", "FlagsName",
					     "LevelName" };
	static const USHORT types[] = { TDH_INTYPE_UNICODESTRING, TDH_INTYPE_UINT32,
					TDH_INTYPE_UNICODESTRING, TDH_INTYPE_UNICODESTRING,
					TDH_INTYPE_UNICODESTRING, TDH_INTYPE_GUID,
					TDH_INTYPE_UNICODESTRING, TDH_INTYPE_SYSTEMTIME,
					TDH_INTYPE_UNICODESTRING, TDH_INTYPE_UNICODESTRING };
	TDH_CONTEXT ctx[3] = {
		{ wstr(fmt_path), TDH_CONTEXT_WPP_TMFFILE, 0 },
		{ 1, TDH_CONTEXT_WPP_GMT, 0 },
	};
	PROPERTY_DATA_DESCRIPTOR pd[2];
	TRACE_EVENT_INFO *t;
	EVENT_RECORD er;
	uint8_t buf[256];
	char bad[160];
	ULONG size = 0, err, i;
	int good;

	message10(&er, 0);
	tap_eq(TdhGetEventInformation(&er, 0, NULL, NULL, &size), ERROR_NOT_FOUND,
	       "%d-bit: a message without WPP contexts ERROR_NOT_FOUND", BITS);
	ctx[1].ParameterType = TDH_CONTEXT_POINTERSIZE;
	ctx[1].ParameterValue = 8;
	tap_eq(TdhGetEventInformation(&er, 1, ctx + 1, NULL, &size), ERROR_NOT_FOUND,
	       "%d-bit: ... nor with POINTERSIZE alone", BITS);
	ctx[1] = (TDH_CONTEXT){ 1, TDH_CONTEXT_WPP_GMT, 0 };

	size = 0;
	err = TdhGetEventInformation(&er, 2, ctx, NULL, &size);
	if (!tap_eq(err, ERROR_INSUFFICIENT_BUFFER, "%d-bit: TRACE_EVENT_INFO's size", BITS))
		return;
	t = malloc(size);
	err = TdhGetEventInformation(&er, 2, ctx, t, &size);
	tap_eq(err, ERROR_SUCCESS, "%d-bit: TdhGetEventInformation with a TMFFILE context", BITS);
	tap_eq(t->DecodingSource, DecodingSourceWPP, "... DecodingSourceWPP");
	tap_ok(!memcmp(&t->ProviderGuid, &msg_guid, 16) && !memcmp(&t->EventGuid, &msg_guid, 16),
	       "... ProviderGuid and EventGuid the message GUID");
	tap_eq(t->EventDescriptor.Id, 10, "... Id the message number");
	tap_ok(t->ProviderNameOffset &&
	       !strcmp(A((uint8_t *)t + t->ProviderNameOffset, size - t->ProviderNameOffset),
		       "sample.c"), "... ProviderName the file");
	tap_ok(t->EventNameOffset &&
	       !strcmp(A((uint8_t *)t + t->EventNameOffset, size - t->EventNameOffset),
		       "sample.c:40"), "... EventName FILE:LINE");
	tap_ok(t->PropertyCount == 10 && t->TopLevelPropertyCount == 10,
	       "... ten properties");
	for (i = 0, good = 1; i < 10 && t->PropertyCount == 10; i++) {
		const EVENT_PROPERTY_INFO *p = &t->EventPropertyInfoArray[i];

		if (strcmp(A((uint8_t *)t + p->NameOffset, size - p->NameOffset), names[i]) ||
		    p->nonStructType.InType != types[i] || p->count != 1 || p->Flags) {
			printf("# property %lu: %s, type %u\n", (unsigned long)i,
			       A((uint8_t *)t + p->NameOffset, size - p->NameOffset),
			       p->nonStructType.InType);
			good = 0;
		}
	}
	tap_ok(good, "... named and typed as PROPERTY_DATA_DESCRIPTOR's WPP table");
	free(t);
	check_props("contexts", NULL, 2, ctx, &er, &(struct want){ "hello 42 at 0x7ffd12345678",
		    "sample.c:40", 13 });

	/* TdhGetProperty's own errors. */
	pd[0] = (PROPERTY_DATA_DESCRIPTOR){ wstr("TraceGuid"), 1, 0 };
	tap_eq(TdhGetProperty(&er, 2, ctx, 1, pd, sizeof(buf), buf), ERROR_INVALID_PARAMETER,
	       "%d-bit: ArrayIndex 1 of a scalar", BITS);
	pd[0].ArrayIndex = 0;
	tap_eq(TdhGetProperty(&er, 2, ctx, 1, pd, sizeof(buf), buf), ERROR_SUCCESS,
	       "%d-bit: ArrayIndex 0 of a scalar", BITS);
	pd[1] = pd[0];
	tap_eq(TdhGetProperty(&er, 2, ctx, 2, pd, sizeof(buf), buf), ERROR_INVALID_PARAMETER,
	       "%d-bit: a path of two steps", BITS);
	tap_eq(TdhGetProperty(&er, 2, ctx, 1, pd, 15, buf), ERROR_INSUFFICIENT_BUFFER,
	       "%d-bit: a GUID into 15 bytes", BITS);

	/* Bad contexts. */
	ctx[1] = ctx[0];
	tap_eq(TdhGetEventInformation(&er, 2, ctx, NULL, &size), ERROR_INVALID_PARAMETER,
	       "%d-bit: a context twice", BITS);
	ctx[1] = (TDH_CONTEXT){ 0, (TDH_CONTEXT_TYPE)7, 0 };
	tap_eq(TdhGetEventInformation(&er, 2, ctx, NULL, &size), ERROR_INVALID_PARAMETER,
	       "%d-bit: an unknown context type", BITS);
	snprintf(bad, sizeof(bad), "%s/garbage.bin", dir);
	ctx[0].ParameterValue = wstr(bad);
	tap_eq(TdhGetEventInformation(&er, 1, ctx, NULL, &size), ERROR_INVALID_PARAMETER,
	       "%d-bit: a TMF that does not load", BITS);
	pd[0] = (PROPERTY_DATA_DESCRIPTOR){ wstr("TraceGuid"), 0xFFFFFFFF, 0 };
	tap_eq(TdhGetProperty(&er, 1, ctx, 1, pd, sizeof(buf), buf), ERROR_INVALID_PARAMETER,
	       "%d-bit: ... TdhGetProperty too", BITS);
	ctx[0].ParameterValue = wstr("/nonexistent.fmt");
	tap_eq(TdhGetEventInformation(&er, 1, ctx, NULL, &size), ERROR_INVALID_PARAMETER,
	       "%d-bit: a TMF that is not there", BITS);
	ctx[0].ParameterValue = 0;
	tap_eq(TdhGetEventInformation(&er, 1, ctx, NULL, &size), ERROR_INVALID_PARAMETER,
	       "%d-bit: a NULL TMF path", BITS);

	/* A search path context; an event with no format; one that is no message. */
	ctx[0] = (TDH_CONTEXT){ wstr(search_dir), TDH_CONTEXT_WPP_TMFSEARCHPATH, 0 };
	size = 0;
	tap_eq(TdhGetEventInformation(&er, 1, ctx, NULL, &size), ERROR_INSUFFICIENT_BUFFER,
	       "%d-bit: a TMFSEARCHPATH context finds the format", BITS);
	make_event(&er, 12, 0);
	tap_eq(TdhGetEventInformation(&er, 1, ctx, NULL, &size), ERROR_NOT_FOUND,
	       "%d-bit: a message without a format ERROR_NOT_FOUND", BITS);
	tap_eq(TdhGetPropertySize(&er, 1, ctx, 1, pd, &size), ERROR_NOT_FOUND,
	       "%d-bit: ... TdhGetPropertySize too", BITS);
	message10(&er, 0);
	er.EventHeader.Flags = EVENT_HEADER_FLAG_CLASSIC_HEADER;
	tap_eq(TdhGetEventInformation(&er, 1, ctx, NULL, &size), ERROR_NOT_FOUND,
	       "%d-bit: an event that is no message: contexts ignored, no schema", BITS);
}

/* SystemTime (UTC) across the calendar: leap days, centuries, 2038. */
static void test_calendar(void)
{
	static const struct {
		long long ft;
		USHORT v[8];	/* year, month, weekday, day, h, m, s, ms */
	} cases[] = {
		{ 0, { 1601, 1, 1, 1, 0, 0, 0, 0 } },
		{ 31556092280000000LL, { 1700, 12, 5, 31, 6, 7, 8, 0 } },
		{ 116444735999990000LL, { 1969, 12, 3, 31, 23, 59, 59, 999 } },
		{ 125963423999990000LL, { 2000, 2, 2, 29, 23, 59, 59, 999 } },
		{ 138850416000000000LL, { 2040, 12, 1, 31, 12, 0, 0, 0 } },
		{ 157520160010000000LL, { 2100, 3, 1, 1, 0, 0, 1, 0 } },
	};
	TDH_CONTEXT ctx[2] = {
		{ wstr(fmt_path), TDH_CONTEXT_WPP_TMFFILE, 0 },
		{ 1, TDH_CONTEXT_WPP_GMT, 0 },
	};
	PROPERTY_DATA_DESCRIPTOR pd = { wstr("SystemTime"), 0xFFFFFFFF, 0 };
	EVENT_RECORD er;
	SYSTEMTIME st;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const USHORT *v = cases[i].v;
		ULONG err;

		message10(&er, 0);
		er.EventHeader.TimeStamp.QuadPart = cases[i].ft;
		memset(&st, 0xFF, sizeof(st));
		err = TdhGetProperty(&er, 2, ctx, 1, &pd, sizeof(st), (PBYTE)&st);
		tap_ok(!err && st.wYear == v[0] && st.wMonth == v[1] && st.wDayOfWeek == v[2] &&
		       st.wDay == v[3] && st.wHour == v[4] && st.wMinute == v[5] &&
		       st.wSecond == v[6] && st.wMilliseconds == v[7],
		       "%d-bit: FILETIME %lld is %04u-%02u-%02u (weekday %u) %02u:%02u:%02u.%03u",
		       BITS, cases[i].ft, v[0], v[1], v[3], v[2], v[4], v[5], v[6], v[7]);
	}
}

/* ---- this program's own formats (its nttrace_wpp section) ---- */

enum { ELF_COUNTER = __COUNTER__ };
enum { ELF_LINE = __LINE__ + 4 };

static void never_called(TRACEHANDLE h)
{
	DoTraceMessage(h, "from the ELF: %d and %s", 7, "seven");
}

static void test_elf(void)
{
	char want[64];
	TDH_HANDLE h;
	EVENT_RECORD er;
	GUID g;
	ULONG err;

	len = 0;
	put_le(7, 4);
	put("seven", 6);
	make_event(&er, ELF_COUNTER + 1 + NTTRACE_WPP_FIRST_NUMBER, 0);
	nttrace_wpp_file_guid(__FILE__, &g);
	er.EventHeader.ProviderId = g;
	if (sizeof(void *) == 4)
		er.EventHeader.Flags ^= EVENT_HEADER_FLAG_64_BIT_HEADER |
					EVENT_HEADER_FLAG_32_BIT_HEADER;
	TdhOpenDecodingHandle(&h);
	tap_eq(set(h, TDH_CONTEXT_WPP_TMFFILE, wstr("/proc/self/exe")), ERROR_SUCCESS,
	       "%d-bit: this program as TMF (its nttrace_wpp section)", BITS);
	tap_ok(!strcmp(wpp_message(h, &er, &err), "from the ELF: 7 and seven"),
	       "%d-bit: ... decodes its message (\"%s\")", BITS, wpp_message(h, &er, &err));
	snprintf(want, sizeof(want), "tdh_wpp_test.c:%d", ELF_LINE);
	{
		uint8_t buf[128];
		ULONG size = sizeof(buf);

		err = TdhGetWppProperty(h, &er, W("GuidTypeName"), &size, buf);
		tap_ok(!err && !strcmp(A(buf, size), want), "%d-bit: ... GuidTypeName %s", BITS,
		       want);
	}
	TdhCloseDecodingHandle(h);
	if (getpid() == 0)	/* never: the call is there for its section entry */
		never_called(0);
}

int main(void)
{
	/* Local time 2 hours east of UTC, whatever the host's zone. */
	setenv("TZ", "XXX-2", 1);
	tzset();
	setup();
	test_handle();
	test_contexts();
	test_calendar();
	test_elf();
	cleanup();
	return tap_done();
}
