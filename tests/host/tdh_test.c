// SPDX-License-Identifier: GPL-2.0
/*
 * TDH over TraceLogging events built here (tests/host/tlg_encode.h): every
 * InType, OutTypes, nested structures, fixed and variable arrays, tags,
 * custom schemas, TdhGetProperty's paths, TdhFormatProperty's text, and
 * each kind of bad input with the error it must give (and no crash: run it
 * under -fsanitize=address,undefined too). TAP; 64- and 32-bit.
 *
 *   tdh_test                 the tests
 *   tdh_test --corpus DIR    write tests/fuzz/tdh_fuzz.c's seeds into DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/tdh.h>

#include "../vm/tap.h"
#include "tlg_encode.h"

/* PROPERTY_DATA_DESCRIPTOR.ArrayIndex for a whole property (ULONG_MAX). */
#define NTTRACE_ALL	0xFFFFFFFFU

static struct tlg_buf meta, traits, data;
static struct tlg_event ev;

/* A UTF-16 string of a TRACE_EVENT_INFO as ASCII ('?' else). */
static const char *ascii(const TRACE_EVENT_INFO *tei, ULONG off)
{
	static char s[8][256];
	static int k;
	const uint8_t *w = (const uint8_t *)tei + off;
	char *o = s[k++ % 8];
	size_t i;

	if (!off)
		return "(none)";
	for (i = 0; i < 255 && (w[2 * i] || w[2 * i + 1]); i++)
		o[i] = w[2 * i + 1] || w[2 * i] > 0x7E ? '?' : w[2 * i];
	o[i] = 0;
	return o;
}

/* TdhGetEventInformation's size protocol, then the description (free it). */
static ULONG info(TRACE_EVENT_INFO **out)
{
	ULONG size = 0, size2, err = TdhGetEventInformation(&ev.er, 0, NULL, NULL, &size);
	TRACE_EVENT_INFO *tei;

	*out = NULL;
	if (err != ERROR_INSUFFICIENT_BUFFER)
		return err;
	tei = malloc(size);
	size2 = size - 1;
	if (TdhGetEventInformation(&ev.er, 0, NULL, tei, &size2) != ERROR_INSUFFICIENT_BUFFER ||
	    size2 != size) {
		free(tei);
		return 0xBAD;
	}
	err = TdhGetEventInformation(&ev.er, 0, NULL, tei, &size);
	if (err || GetLastError() != ERROR_SUCCESS) {
		free(tei);
		return err ? err : 0xBAD;
	}
	*out = tei;
	return ERROR_SUCCESS;
}

static int find(const TRACE_EVENT_INFO *tei, const char *name)
{
	ULONG i;

	for (i = 0; i < tei->PropertyCount; i++)
		if (!strcmp(ascii(tei, tei->EventPropertyInfoArray[i].NameOffset), name))
			return i;
	return -1;
}

/* TdhFormatProperty of one value, as ASCII; its bytes in *used. */
static const char *format(TRACE_EVENT_INFO *tei, USHORT in, USHORT out, USHORT len,
			  const uint8_t *d, size_t n, USHORT *used, ULONG *err)
{
	static char s[1024];
	WCHAR w[1024];
	ULONG size = 0, i;

	*err = TdhFormatProperty(tei, NULL, ev.er.EventHeader.Flags &
				 EVENT_HEADER_FLAG_32_BIT_HEADER ? 4 : 8, in, out, len, n,
				 (PBYTE)d, &size, NULL, used);
	if (*err != ERROR_INSUFFICIENT_BUFFER)
		return "(error)";
	if (size > sizeof(w)) {
		*err = 0xBAD;
		return "(too long)";
	}
	*err = TdhFormatProperty(tei, NULL, ev.er.EventHeader.Flags &
				 EVENT_HEADER_FLAG_32_BIT_HEADER ? 4 : 8, in, out, len, n,
				 (PBYTE)d, &size, w, used);
	for (i = 0; i < size / 2 && w[i]; i++)
		s[i] = w[i] < 0x7F ? w[i] : '?';
	s[i] = 0;
	if (!*err && (size / 2 - 1 != i))
		*err = 0xBAD;	/* the NUL where the size says */
	return *err ? "(error)" : s;
}

/*
 * The top-level scalars in turn, as a consumer formats them: each value's
 * text is checked against @want, and the data must be used up exactly.
 */
static void walk(TRACE_EVENT_INFO *tei, const char *const *want, const char *what)
{
	const uint8_t *d = ev.er.UserData, *end = d + ev.er.UserDataLength;
	ULONG i, err;
	USHORT used, len;
	uint16_t lengths[64] = { 0 };

	for (i = 0; i < tei->TopLevelPropertyCount && want[i]; i++) {
		EVENT_PROPERTY_INFO *p = &tei->EventPropertyInfoArray[i];
		const char *s;

		len = p->Flags & PropertyParamLength ? lengths[p->lengthPropertyIndex] : p->length;
		s = format(tei, p->nonStructType.InType, p->nonStructType.OutType, len, d,
			   end - d, &used, &err);
		if (!tap_ok(!err && !strcmp(s, want[i]), "%s: %s is \"%s\"", what,
			    ascii(tei, p->NameOffset), want[i]))
			printf("# got \"%s\" (error %u)\n", s, err);
		if (err)
			return;
		if (p->nonStructType.InType == TDH_INTYPE_UINT16 && i < 64)
			lengths[i] = d[0] | d[1] << 8;
		d += used;
	}
	tap_eq(end - d, 0, "%s: the values use up the data", what);
}

static ULONG get(const char *n1, ULONG i1, const char *n2, ULONG i2, uint8_t *buf, ULONG room,
		 ULONG *size)
{
	WCHAR w1[64], w2[64];
	PROPERTY_DATA_DESCRIPTOR pd[2] = { { (uintptr_t)w1, i1, 0 }, { (uintptr_t)w2, i2, 0 } };
	ULONG err, k;

	for (k = 0; k < 64; k++) {
		w1[k] = n1[k];
		if (!n1[k])
			break;
	}
	for (k = 0; n2 && k < 64; k++) {
		w2[k] = n2[k];
		if (!n2[k])
			break;
	}
	err = TdhGetPropertySize(&ev.er, 0, NULL, n2 ? 2 : 1, pd, size);
	if (err)
		return err;
	return TdhGetProperty(&ev.er, 0, NULL, n2 ? 2 : 1, pd, room, buf);
}

/* Every InType a TraceLogging field may have, and how each reads. */
static void all_types(void)
{
	static const uint8_t guid[16] = { 0x78, 0x56, 0x34, 0x12, 0x34, 0x12, 0x78, 0x56,
					  0x9a, 0xbc, 0xde, 0xf0, 0x11, 0x22, 0x33, 0x44 };
	static const uint8_t sid[] = { 1, 2, 0, 0, 0, 0, 0, 5, 32, 0, 0, 0, 0x20, 2, 0, 0 };
	static const char *const want[] = {
		"hello", "abc", "-5", "200", "-300", "60000", "-70000", "4000000000",
		"-5000000000", "10000000000000000000", "1.5", "0.1", "true", "3",
		"0x010203", "{12345678-1234-5678-9ABC-DEF011223344}", "0xFEDCBA9876543210",
		"2021-09-09T14:59:35.8001567Z", "2021-09-09T14:59:35.800",
		"S-1-5-32-544", "0xBEEF", "0x1122334455667788", "hi", "yo", "0xAABB", NULL
	};
	static const USHORT in[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 6, 14, 15, 16,
				     17, 18, 19, 20, 21, 22, 23, 25 };
	/* bin's is lengthPropertyIndex (the same USHORT): 13. */
	static const USHORT length[] = { 0, 0, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 4, 2, 13, 16, 8,
					 8, 16, 0, 4, 8, 0, 0, 0 };
	TRACE_EVENT_INFO *tei;
	double dbl = 0.1;
	float flt = 1.5f;
	uint8_t buf[64];
	ULONG size, i, err;
	int ok = 1;

	tlg_begin(&meta, "AllTypes", 0);
	tlg_field(&meta, "u", 1, 0, 0);
	tlg_field(&meta, "a", 2, 0, 0);
	for (i = 3; i <= 13; i++) {
		char name[4] = { 't', '0' + i / 10, '0' + i % 10, 0 };

		tlg_field(&meta, name, i, 0, 0);
	}
	tlg_field(&meta, "bin", 14, 0, 0);
	tlg_field(&meta, "g", 15, 0, 0);
	tlg_field(&meta, "p", 16, 0, 0);
	tlg_field(&meta, "ft", 17, 0, 0);
	tlg_field(&meta, "st", 18, 0, 0);
	tlg_field(&meta, "sid", 19, 0, 0);
	tlg_field(&meta, "h32", 20, 0, 0);
	tlg_field(&meta, "h64", 21, 0, 0);
	tlg_field(&meta, "cs", 22, 0, 0);
	tlg_field(&meta, "cas", 23, 0, 0);
	tlg_field(&meta, "cb", 25, 0, 0);
	tlg_end(&meta);
	tlg_provider(&traits, "Test.Provider");
	data.n = 0;
	tlg_str(&data, "hello", 1);
	tlg_str(&data, "abc", 0);
	tlg_u8(&data, -5);
	tlg_u8(&data, 200);
	tlg_u16(&data, -300);
	tlg_u16(&data, 60000);
	tlg_u32(&data, -70000);
	tlg_u32(&data, 4000000000U);
	tlg_u64(&data, -5000000000LL);
	tlg_u64(&data, 10000000000000000000ULL);
	tlg_bytes(&data, &flt, 4);
	tlg_bytes(&data, &dbl, 8);
	tlg_u32(&data, 1);
	tlg_u16(&data, 3);
	tlg_bytes(&data, "\1\2\3", 3);
	tlg_bytes(&data, guid, 16);
	tlg_u64(&data, 0xFEDCBA9876543210ULL);
	tlg_u64(&data, 132756731758001567ULL);	/* 2021-09-09 14:59:35.8001567 */
	tlg_u16(&data, 2021);
	tlg_u16(&data, 9);
	tlg_u16(&data, 4);
	tlg_u16(&data, 9);
	tlg_u16(&data, 14);
	tlg_u16(&data, 59);
	tlg_u16(&data, 35);
	tlg_u16(&data, 800);
	tlg_bytes(&data, sid, sizeof(sid));
	tlg_u32(&data, 0xBEEF);
	tlg_u64(&data, 0x1122334455667788ULL);
	tlg_u16(&data, 4);
	tlg_bytes(&data, "h\0i\0", 4);
	tlg_u16(&data, 2);
	tlg_bytes(&data, "yo", 2);
	tlg_u16(&data, 2);
	tlg_bytes(&data, "\xAA\xBB", 2);
	tlg_event(&ev, &meta, &traits, &data, 0);

	err = info(&tei);
	if (!tap_eq(err, ERROR_SUCCESS, "all types: TdhGetEventInformation"))
		return;
	tap_eq(tei->DecodingSource, DecodingSourceTlg, "all types: DecodingSourceTlg");
	tap_ok(!strcmp(ascii(tei, tei->ProviderNameOffset), "Test.Provider") &&
	       !strcmp(ascii(tei, tei->EventNameOffset), "AllTypes") &&
	       tei->TaskNameOffset == tei->EventNameOffset, "all types: provider and event names");
	tap_ok(IsEqualGUID(&tei->ProviderGuid, &ev.er.EventHeader.ProviderId) &&
	       tei->EventDescriptor.Channel == 11, "all types: the provider's GUID, the descriptor");
	tap_eq(tei->PropertyCount, 25, "all types: 24 fields and bin.Length");
	tap_eq(tei->TopLevelPropertyCount, 25, "all types: all top-level");
	for (i = 0; i < 25 && i < tei->PropertyCount; i++) {
		EVENT_PROPERTY_INFO *p = &tei->EventPropertyInfoArray[i];

		if (p->nonStructType.InType != in[i] || p->length != length[i] || p->count != 1) {
			printf("# property %u: in %u length %u count %u\n", i,
			       p->nonStructType.InType, p->length, p->count);
			ok = 0;
		}
	}
	tap_ok(ok, "all types: InType, length and count of each property");
	i = find(tei, "bin");
	tap_ok(i == 14 && tei->EventPropertyInfoArray[i].Flags == PropertyParamLength &&
	       tei->EventPropertyInfoArray[i].lengthPropertyIndex == 13 &&
	       !strcmp(ascii(tei, tei->EventPropertyInfoArray[13].NameOffset), "bin.Length"),
	       "all types: Binary has its synthesized Name.Length before it");
	walk(tei, want, "all types");

	tap_ok(!get("t07", NTTRACE_ALL, NULL, 0, buf, sizeof(buf), &size) && size == 4 &&
	       !memcmp(buf, "\x90\xEE\xFE\xFF", 4), "TdhGetProperty: an INT32");
	tap_ok(!get("bin", NTTRACE_ALL, NULL, 0, buf, sizeof(buf), &size) && size == 3 &&
	       !memcmp(buf, "\1\2\3", 3), "TdhGetProperty: Binary, its bytes");
	tap_ok(!get("bin.Length", 0, NULL, 0, buf, sizeof(buf), &size) && size == 2 &&
	       buf[0] == 3, "TdhGetProperty: the synthesized length");
	tap_ok(!get("cs", NTTRACE_ALL, NULL, 0, buf, sizeof(buf), &size) && size == 6,
	       "TdhGetProperty: a counted string with its count");
	tap_ok(!get("u", NTTRACE_ALL, NULL, 0, buf, sizeof(buf), &size) && size == 12,
	       "TdhGetProperty: a UTF-16 string with its NUL");
	tap_eq(get("t07", NTTRACE_ALL, NULL, 0, buf, 3, &size), ERROR_INSUFFICIENT_BUFFER,
	       "TdhGetProperty: a buffer too small");
	tap_eq(get("nope", NTTRACE_ALL, NULL, 0, buf, sizeof(buf), &size), ERROR_NOT_FOUND,
	       "TdhGetProperty: a name the event has not");
	tap_eq(get("t07", 1, NULL, 0, buf, sizeof(buf), &size), ERROR_INVALID_PARAMETER,
	       "TdhGetProperty: element 1 of a scalar");
	tap_eq(get("t07", 0, "x", 0, buf, sizeof(buf), &size), ERROR_INVALID_PARAMETER,
	       "TdhGetProperty: a path below a field that is no structure");
	tap_eq(TdhGetEventMapInformation(&ev.er, (PWSTR)u"m", NULL, &size), ERROR_NOT_FOUND,
	       "TdhGetEventMapInformation: TraceLogging has no maps");
	/* The event's pointer size: 4 with the 32-bit header flag. */
	ev.er.EventHeader.Flags ^= EVENT_HEADER_FLAG_32_BIT_HEADER |
				   EVENT_HEADER_FLAG_64_BIT_HEADER;
	free(tei);
	if (!info(&tei))
		tap_eq(tei->EventPropertyInfoArray[16].length, 4,
		       "all types: a pointer is 4 bytes in a 32-bit event");
	free(tei);
}

/* OutTypes: TraceLogging's numbers as TDH's, and the text of each. */
static void out_types(void)
{
	static const char *const want[] = {
		"0xC8", "8080", "192.168.1.2", "5", "0xC0000005", "0x80070005", "16", "::1", "1234",
		"?", "Z", "true", "2021-09-09T14:59:35.8001567Z", "2021-09-09T14:59:35.800Z",
		"-1", NULL
	};
	/* ip6.Length, the synthesized length, is the 7th: OutType 0. */
	static const USHORT out[] = { 16, 22, 23, 30, 31, 32, 0, 24, 20, 35, 1, 13, 38, 38, 5 };
	TRACE_EVENT_INFO *tei;
	ULONG i;
	int ok = 1;

	tlg_begin(&meta, "OutTypes", 0);
	tlg_field(&meta, "hex8", 4, 4, 0);
	tlg_field(&meta, "port", 6, 7, 0);
	tlg_field(&meta, "ip4", 8, 8, 0);
	tlg_field(&meta, "w32", 8, 13, 0);
	tlg_field(&meta, "nts", 8, 14, 0);
	tlg_field(&meta, "hr", 7, 15, 0);
	tlg_field(&meta, "ip6", 14, 9, 0);
	tlg_field(&meta, "pid", 8, 5, 0);
	tlg_field(&meta, "utf8", 2, 0x23, 0);
	tlg_field(&meta, "c16", 6, 2, 0);
	tlg_field(&meta, "b8", 4, 3, 0);
	tlg_field(&meta, "ftu", 17, 0x26, 0);
	tlg_field(&meta, "stu", 18, 0x26, 0);
	tlg_field(&meta, "i16", 5, 17, 0);
	tlg_end(&meta);
	data.n = 0;
	tlg_u8(&data, 200);
	tlg_bytes(&data, "\x1F\x90", 2);
	tlg_bytes(&data, "\xC0\xA8\x01\x02", 4);
	tlg_u32(&data, 5);
	tlg_u32(&data, 0xC0000005);
	tlg_u32(&data, 0x80070005);
	tlg_u16(&data, 16);
	tlg_bytes(&data, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\1", 16);
	tlg_u32(&data, 1234);
	tlg_bytes(&data, "\xC3\xA9", 3);	/* e acute, and the NUL */
	tlg_u16(&data, 'Z');
	tlg_u8(&data, 7);
	tlg_u64(&data, 132756731758001567ULL);
	tlg_bytes(&data, "\xE5\x07\x09\0\4\0\x09\0\x0E\0\x3B\0\x23\0\x20\x03", 16);
	tlg_u16(&data, 0xFFFF);
	tlg_event(&ev, &meta, NULL, &data, 0);
	if (!tap_eq(info(&tei), ERROR_SUCCESS, "out types: TdhGetEventInformation"))
		return;
	tap_eq(tei->ProviderNameOffset, 0, "out types: no traits item, no provider name");
	for (i = 0; i < 15 && i < tei->PropertyCount; i++) {
		if (tei->EventPropertyInfoArray[i].nonStructType.OutType != out[i]) {
			printf("# property %u: out %u\n", i,
			       tei->EventPropertyInfoArray[i].nonStructType.OutType);
			ok = 0;
		}
	}
	tap_ok(ok, "out types: each TraceLogging OutType as its TDH_OUTTYPE");
	walk(tei, want, "out types");
	free(tei);
}

/* Structures in structures, tags; the layout level by level. */
static void structs(void)
{
	TRACE_EVENT_INFO *tei;
	EVENT_PROPERTY_INFO *p;
	uint8_t buf[16];
	ULONG size, raw;

	tlg_begin(&meta, "Nested", 0xABCDEF1);
	tlg_field(&meta, "a", 8, 0, 0);
	tlg_field(&meta, "s", 24, 2, 0x5);
	tlg_field(&meta, "x", 8, 0, 0);
	tlg_field(&meta, "t", 24, 1, 0);
	tlg_field(&meta, "y", 6, 0, 0xFFFFFFF);
	tlg_field(&meta, "b", 4, 0, 0);
	tlg_end(&meta);
	data.n = 0;
	tlg_u32(&data, 1);
	tlg_u32(&data, 2);
	tlg_u16(&data, 3);
	tlg_u8(&data, 4);
	tlg_event(&ev, &meta, NULL, &data, 0);
	if (!tap_eq(info(&tei), ERROR_SUCCESS, "structs: TdhGetEventInformation"))
		return;
	tap_ok(tei->PropertyCount == 6 && tei->TopLevelPropertyCount == 3,
	       "structs: 6 properties, 3 top-level");
	p = tei->EventPropertyInfoArray;
	tap_ok(!strcmp(ascii(tei, p[0].NameOffset), "a") && !strcmp(ascii(tei, p[1].NameOffset), "s") &&
	       !strcmp(ascii(tei, p[2].NameOffset), "b") && !strcmp(ascii(tei, p[3].NameOffset), "x") &&
	       !strcmp(ascii(tei, p[4].NameOffset), "t") && !strcmp(ascii(tei, p[5].NameOffset), "y"),
	       "structs: top level first, then each level's members");
	tap_ok(p[1].Flags == (PropertyStruct | PropertyHasTags) && p[1].Tags == 5 &&
	       p[1].structType.StructStartIndex == 3 && p[1].structType.NumOfStructMembers == 2 &&
	       (p[4].Flags & PropertyStruct) && p[4].structType.StructStartIndex == 5 &&
	       p[4].structType.NumOfStructMembers == 1, "structs: StructStartIndex, NumOfStructMembers");
	tap_ok(p[5].Flags == PropertyHasTags && p[5].Tags == 0xFFFFFFF, "structs: 28 bits of field tags");
	memcpy(&raw, &tei->Flags, 4);
	tap_ok(tei->Tags == 0xABCDEF1 && raw == 0xABCDEF1U << 4,
	       "structs: event tags in Tags, the top 28 bits of Flags");
	tap_ok(!get("s", NTTRACE_ALL, "t", NTTRACE_ALL, buf, sizeof(buf), &size) && size == 2,
	       "TdhGetProperty: [s, t] (a structure in a structure)");
	tap_ok(!get("s", 0, "x", NTTRACE_ALL, buf, sizeof(buf), &size) && size == 4 && buf[0] == 2,
	       "TdhGetProperty: [s, x]");
	tap_ok(!get("s", NTTRACE_ALL, NULL, 0, buf, sizeof(buf), &size) && size == 6,
	       "TdhGetProperty: a whole structure");
	tap_ok(!get("b", NTTRACE_ALL, NULL, 0, buf, sizeof(buf), &size) && size == 1 && buf[0] == 4,
	       "TdhGetProperty: the field after the structure");
	tap_eq(get("x", NTTRACE_ALL, NULL, 0, buf, sizeof(buf), &size), ERROR_NOT_FOUND,
	       "TdhGetProperty: a member is not top-level");
	free(tei);
}

/* Constant and variable counts, of values and of structures. */
static void arrays(void)
{
	TRACE_EVENT_INFO *tei;
	EVENT_PROPERTY_INFO *p;
	uint8_t buf[32];
	ULONG size;
	int i;

	tlg_begin(&meta, "Arrays", 0);
	tlg_field(&meta, "c", 8 | TLG_CCOUNT, 0, 0);
	tlg_u16(&meta, 3);
	tlg_field(&meta, "v", 6 | TLG_VCOUNT, 0, 0);
	tlg_field(&meta, "sv", 24 | TLG_VCOUNT, 2, 0);
	tlg_field(&meta, "m", 4, 0, 0);
	tlg_field(&meta, "n", 2, 0, 0);
	tlg_field(&meta, "bins", 14 | TLG_CCOUNT, 0, 0);
	tlg_u16(&meta, 2);
	tlg_end(&meta);
	data.n = 0;
	for (i = 1; i <= 3; i++)
		tlg_u32(&data, i);
	tlg_u16(&data, 2);
	tlg_u16(&data, 7);
	tlg_u16(&data, 8);
	tlg_u16(&data, 2);
	tlg_u8(&data, 9);
	tlg_str(&data, "x", 0);
	tlg_u8(&data, 10);
	tlg_str(&data, "yz", 0);
	tlg_u16(&data, 1);
	tlg_u8(&data, 0xEE);
	tlg_u16(&data, 0);
	tlg_event(&ev, &meta, NULL, &data, 0);
	if (!tap_eq(info(&tei), ERROR_SUCCESS, "arrays: TdhGetEventInformation"))
		return;
	p = tei->EventPropertyInfoArray;
	tap_eq(tei->TopLevelPropertyCount, 6, "arrays: c, v.Count, v, sv.Count, sv, bins");
	tap_ok(p[0].Flags == PropertyParamFixedCount && p[0].count == 3,
	       "arrays: a constant count is PropertyParamFixedCount");
	tap_ok(!strcmp(ascii(tei, p[1].NameOffset), "v.Count") && p[2].Flags == PropertyParamCount &&
	       p[2].countPropertyIndex == 1, "arrays: a variable count is Name.Count and PropertyParamCount");
	tap_ok(p[4].Flags == (PropertyStruct | PropertyParamCount) && p[4].countPropertyIndex == 3,
	       "arrays: an array of structures");
	tap_ok(p[5].nonStructType.InType == TDH_INTYPE_MANIFEST_COUNTEDBINARY && p[5].count == 2,
	       "arrays: an array of Binary is one of counted binary");
	tap_ok(!get("c", 1, NULL, 0, buf, sizeof(buf), &size) && size == 4 && buf[0] == 2,
	       "TdhGetProperty: element 1 of a constant-count array");
	tap_ok(!get("c", NTTRACE_ALL, NULL, 0, buf, sizeof(buf), &size) && size == 12,
	       "TdhGetProperty: all of it");
	tap_eq(get("c", 3, NULL, 0, buf, sizeof(buf), &size), ERROR_INVALID_PARAMETER,
	       "TdhGetProperty: an index past the array");
	tap_ok(!get("v", 1, NULL, 0, buf, sizeof(buf), &size) && size == 2 && buf[0] == 8,
	       "TdhGetProperty: element 1 of a variable-count array");
	tap_ok(!get("sv", 1, "n", NTTRACE_ALL, buf, sizeof(buf), &size) && size == 3 &&
	       !memcmp(buf, "yz", 3), "TdhGetProperty: a member of structure 1 of an array");
	tap_ok(!get("bins", 1, NULL, 0, buf, sizeof(buf), &size) && size == 2 && !buf[0],
	       "TdhGetProperty: an empty counted binary after one of 1 byte");
	/* The data claims more elements than it has. */
	data.b[12] = 200;
	tlg_event(&ev, &meta, NULL, &data, 0);
	tap_eq(get("bins", NTTRACE_ALL, NULL, 0, buf, sizeof(buf), &size),
	       ERROR_EVT_INVALID_EVENT_DATA, "TdhGetProperty: a count past the data");
	data.b[12] = 2;
	free(tei);
}

static void custom(void)
{
	TRACE_EVENT_INFO *tei;
	EVENT_PROPERTY_INFO *p;
	const uint8_t *c;

	tlg_begin(&meta, "Custom", 0);
	tlg_field(&meta, "bond", 5 | TLG_CUSTOM, 0, 0);
	tlg_u16(&meta, 3);
	tlg_bytes(&meta, "SCH", 3);
	tlg_end(&meta);
	data.n = 0;
	tlg_u16(&data, 1);
	tlg_u8(&data, 0x42);
	tlg_event(&ev, &meta, NULL, &data, 0);
	if (!tap_eq(info(&tei), ERROR_SUCCESS, "custom: TdhGetEventInformation"))
		return;
	p = tei->EventPropertyInfoArray;
	c = (const uint8_t *)tei + p->customSchemaType.CustomSchemaOffset;
	tap_ok(p->Flags == PropertyHasCustomSchema &&
	       p->customSchemaType.InType == TDH_INTYPE_MANIFEST_COUNTEDBINARY &&
	       c[0] == 5 && c[1] == 0 && c[2] == 3 && c[3] == 0 && !memcmp(c + 4, "SCH", 3),
	       "custom: protocol, length and schema at CustomSchemaOffset");
	free(tei);
}

/* A schema of @n bytes from @b (its size field left as given). */
static ULONG raw_schema(const void *b, size_t n)
{
	TRACE_EVENT_INFO *tei;
	ULONG err;

	memcpy(meta.b, b, n);
	meta.n = n;
	tlg_event(&ev, &meta, NULL, NULL, 0);
	err = info(&tei);
	free(tei);
	return err;
}

static ULONG schema_err(void)
{
	TRACE_EVENT_INFO *tei;
	ULONG err;

	tlg_event(&ev, &meta, NULL, &data, 0);
	err = info(&tei);
	free(tei);
	return err;
}

static void bad_schemas(void)
{
	int i;

	tap_eq(raw_schema("\x05", 1), ERROR_INVALID_DATA, "bad: a schema of 1 byte");
	tap_eq(raw_schema("\x06\0\0E\0", 5), ERROR_INVALID_DATA, "bad: its size past the item");
	tap_eq(raw_schema("\x01\0\0E\0", 5), ERROR_INVALID_DATA, "bad: a size below 2");
	tap_eq(raw_schema("\x05\0\0E\0", 5), ERROR_SUCCESS, "good: an event with no field");
	tap_eq(raw_schema("\x05\0\0EE\0", 6), ERROR_INVALID_DATA,
	       "bad: the event's name past its size");
	tap_eq(raw_schema("\x04\0\x80", 3), ERROR_INVALID_DATA, "bad: the event's tags cut short");
	tap_eq(raw_schema("\x09\0\x81\x81\x81\x81\x01E\0", 9), ERROR_INVALID_DATA,
	       "bad: tags of 5 bytes");
	tap_eq(raw_schema("\x07\0\0E\0f\0", 7), ERROR_INVALID_DATA, "bad: a field with no InType");
	tap_eq(raw_schema("\x07\0\0E\0fg", 7), ERROR_INVALID_DATA, "bad: a field name with no NUL");
	tap_eq(raw_schema("\x08\0\0E\0f\0\x88", 8), ERROR_INVALID_DATA,
	       "bad: a chained InType with no OutType");
	tap_eq(raw_schema("\x09\0\0E\0f\0\x88\x80", 9), ERROR_INVALID_DATA,
	       "bad: field tags promised, none there");
	tap_eq(raw_schema("\x09\0\0E\0f\0\x28\3", 9), ERROR_INVALID_DATA,
	       "bad: a constant count of 1 byte");
	tap_eq(raw_schema("\x0B\0\0E\0f\0\x65\4\0SC", 11), ERROR_INVALID_DATA,
	       "bad: a custom schema past the end");
	tap_eq(raw_schema("\x08\0\0E\0f\0\x00", 8), ERROR_INVALID_DATA, "bad: InType 0");
	tap_eq(raw_schema("\x08\0\0E\0f\0\x1A", 8), ERROR_INVALID_DATA, "bad: InType 26");
	tap_eq(raw_schema("\x08\0\0E\0f\0\x1F", 8), ERROR_INVALID_DATA, "bad: InType 31");
	tap_eq(raw_schema("\x08\0\0E\0f\0\x18", 8), ERROR_INVALID_DATA,
	       "bad: a structure with no member count");
	tap_eq(raw_schema("\x0C\0\0E\0s\0\x98\3g\0\x08", 12), ERROR_INVALID_DATA,
	       "bad: a structure of 3 members, 1 there");
	tap_eq(raw_schema("\x06\0\0\0\0\x08", 6), ERROR_SUCCESS, "good: empty names");
	/* Nested 16 deep: the limit; 17: refused. */
	for (i = 16; i <= 17; i++) {
		int k;

		tlg_begin(&meta, "Deep", 0);
		for (k = 0; k < i; k++)
			tlg_field(&meta, "s", 24, 1, 0);
		tlg_field(&meta, "leaf", 8, 0, 0);
		tlg_end(&meta);
		data.n = 0;
		tlg_u32(&data, 1);
		tap_eq(schema_err(), i == 16 ? ERROR_SUCCESS : ERROR_INVALID_DATA,
		       "structures nested %d deep", i);
	}
}

static void bad_calls(void)
{
	TDH_CONTEXT ctx[2] = { { 8, TDH_CONTEXT_POINTERSIZE, 0 }, { 8, TDH_CONTEXT_POINTERSIZE, 0 } };
	ULONG size = 0;
	USHORT used;
	WCHAR w[8];
	uint8_t d[8] = { 0 };
	TRACE_EVENT_INFO tei = { 0 };

	tlg_begin(&meta, "E", 0);
	tlg_field(&meta, "f", 8, 0, 0);
	tlg_end(&meta);
	data.n = 0;
	tlg_u16(&data, 1);	/* 2 bytes of a 4-byte field */
	tlg_event(&ev, &meta, NULL, &data, 0);
	tap_eq(TdhGetEventInformation(NULL, 0, NULL, NULL, &size), ERROR_INVALID_PARAMETER,
	       "TdhGetEventInformation: no event");
	tap_eq(TdhGetEventInformation(&ev.er, 0, NULL, NULL, NULL), ERROR_INVALID_PARAMETER,
	       "TdhGetEventInformation: no size");
	tap_eq(TdhGetEventInformation(&ev.er, 1, NULL, NULL, &size), ERROR_INVALID_PARAMETER,
	       "TdhGetEventInformation: a context count, no contexts");
	tap_eq(TdhGetEventInformation(&ev.er, 2, ctx, NULL, &size), ERROR_INVALID_PARAMETER,
	       "TdhGetEventInformation: a context type twice");
	ctx[0].ParameterType = TDH_CONTEXT_MAXIMUM;
	tap_eq(TdhGetEventInformation(&ev.er, 1, ctx, NULL, &size), ERROR_INVALID_PARAMETER,
	       "TdhGetEventInformation: an unknown context type");
	ctx[1].ParameterValue = 3;
	tap_eq(TdhGetEventInformation(&ev.er, 1, ctx + 1, NULL, &size), ERROR_INVALID_PARAMETER,
	       "TdhGetEventInformation: a pointer size of 3");
	ctx[1].ParameterValue = 4;
	tap_eq(TdhGetEventInformation(&ev.er, 1, ctx + 1, NULL, &size), ERROR_INSUFFICIENT_BUFFER,
	       "TdhGetEventInformation: a good context, no buffer");
	tap_eq(GetLastError(), ERROR_INSUFFICIENT_BUFFER, "... also the last error");
	tap_eq(get("f", NTTRACE_ALL, NULL, 0, d, sizeof(d), &size), ERROR_EVT_INVALID_EVENT_DATA,
	       "TdhGetProperty: a field past the data's end");
	tap_eq(TdhGetPropertySize(&ev.er, 0, NULL, 0, NULL, &size), ERROR_INVALID_PARAMETER,
	       "TdhGetPropertySize: no path");
	{
		PROPERTY_DATA_DESCRIPTOR pd = { 0, NTTRACE_ALL, 0 };

		tap_eq(TdhGetPropertySize(&ev.er, 0, NULL, 1, &pd, &size), ERROR_INVALID_PARAMETER,
		       "TdhGetPropertySize: no name");
	}
	ev.er.ExtendedData = NULL;
	tap_eq(TdhGetEventInformation(&ev.er, 0, NULL, NULL, &size), ERROR_INVALID_PARAMETER,
	       "TdhGetEventInformation: items counted, none there");
	tlg_event(&ev, NULL, NULL, &data, 0);
	tap_eq(TdhGetEventInformation(&ev.er, 0, NULL, NULL, &size), ERROR_NOT_FOUND,
	       "TdhGetEventInformation: no schema item");
	tap_eq(get("f", NTTRACE_ALL, NULL, 0, d, sizeof(d), &size), ERROR_NOT_FOUND,
	       "TdhGetProperty: no schema item");

	size = sizeof(w);
	tap_eq(TdhFormatProperty(&tei, NULL, 8, TDH_INTYPE_UINT32, 0, 0, 2, d, &size, w, &used),
	       ERROR_EVT_INVALID_EVENT_DATA, "TdhFormatProperty: data shorter than the type");
	tap_eq(TdhFormatProperty(&tei, NULL, 8, TDH_INTYPE_NULL, 0, 0, 8, d, &size, w, &used),
	       ERROR_INVALID_PARAMETER, "TdhFormatProperty: InType 0");
	tap_eq(TdhFormatProperty(&tei, NULL, 8, 24, 0, 0, 8, d, &size, w, &used),
	       ERROR_INVALID_PARAMETER, "TdhFormatProperty: InType 24");
	tap_eq(TdhFormatProperty(&tei, NULL, 8, 999, 0, 0, 8, d, &size, w, &used),
	       ERROR_INVALID_PARAMETER, "TdhFormatProperty: InType 999");
	tap_eq(TdhFormatProperty(&tei, NULL, 5, TDH_INTYPE_POINTER, 0, 0, 8, d, &size, w, &used),
	       ERROR_INVALID_PARAMETER, "TdhFormatProperty: a pointer size of 5");
	tap_eq(TdhFormatProperty(&tei, NULL, 8, TDH_INTYPE_UINT32, 0, 0, 8, d, &size, w, NULL),
	       ERROR_INVALID_PARAMETER, "TdhFormatProperty: no UserDataConsumed");
	tap_eq(TdhFormatProperty(NULL, NULL, 8, TDH_INTYPE_UINT32, 0, 0, 8, d, &size, w, &used),
	       ERROR_INVALID_PARAMETER, "TdhFormatProperty: no EventInfo");
	size = 2;
	tap_ok(TdhFormatProperty(&tei, NULL, 8, TDH_INTYPE_UINT32, 0, 0, 8, d, &size, w, &used) ==
	       ERROR_INSUFFICIENT_BUFFER && size == 4, "TdhFormatProperty: \"0\" needs 4 bytes");
	size = 4;
	tap_ok(!TdhFormatProperty(&tei, NULL, 8, TDH_INTYPE_UINT32, 0, 0, 8, d, &size, w, &used) &&
	       size == 4 && used == 4 && w[0] == '0' && !w[1], "TdhFormatProperty: ... and gives it");
	size = 0;
	tap_ok(TdhEnumerateProviders(NULL, &size) == ERROR_INSUFFICIENT_BUFFER &&
	       size >= offsetof(PROVIDER_ENUMERATION_INFO, TraceProviderInfoArray),
	       "TdhEnumerateProviders: no buffer asks for the size (%u)", (unsigned int)size);
}

/* The seeds of tests/fuzz/tdh_fuzz.c: flags, schema size, schema, data. */
static int corpus(const char *dir)
{
	static void (*const events[])(void) = { all_types, out_types, structs, arrays, custom };
	unsigned int i;

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		char path[4096];
		FILE *f;

		events[i]();
		snprintf(path, sizeof(path), "%s/tlg%u", dir, i);
		f = fopen(path, "wb");
		if (!f)
			return 1;
		fputc(0, f);
		fputc(meta.n & 0xFF, f);
		fputc(meta.n >> 8, f);
		fwrite(meta.b, 1, meta.n, f);
		fwrite(data.b, 1, data.n, f);
		if (fclose(f))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--corpus")) {
		freopen("/dev/null", "w", stdout);
		return corpus(argv[2]);
	}
	all_types();
	out_types();
	structs();
	arrays();
	custom();
	bad_schemas();
	bad_calls();
	return tap_done();
}
