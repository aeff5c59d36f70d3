// SPDX-License-Identifier: GPL-2.0
/*
 * TDH over manifest-based events (userlib/tdh/tdh_man*.c): the test's
 * own manifest (tests/host/tdh_manifest_test.man, compiled in as a string
 * by the Makefile, and added to this program's ELF file as the section
 * .nttrace.manifest with objcopy) loaded from a file, from memory and from
 * this binary; events built here for it decoded field by field
 * (TdhGetEventInformation, TdhGetProperty, TdhFormatProperty with the maps
 * of TdhGetEventMapInformation); the providers, fields and events TDH lists
 * from it; references counted by load and unload; a second culture's
 * messages; and each kind of bad input with its error. And the growth of
 * the work a manifest takes: manifests of n and 2n names and references
 * (strings, tasks, opcodes, keywords, templates, maps, counts naming a
 * field, structures) counted in the library's own steps of lookups, which
 * must grow as n log n, not n^2, whatever the host's speed. TAP; 64- and
 * 32-bit.
 *
 *   tdh_manifest_test                 the tests
 *   tdh_manifest_test --corpus DIR    tests/fuzz/tdh_manifest_fuzz.c's seeds
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/tdh.h>

#include "../vm/tap.h"

/* userlib/tdh/tdh_man.h's count of lookup steps (the library's, not its API). */
extern unsigned long nttrace_man_steps;

static const char manifest[] =
#include "tdh_manifest_test.inc"
	;

#define ALL	0xFFFFFFFFU

/* {3B6F6B0E-5C55-4F64-9D5B-2A8C7A1E0F11}, the manifest's provider. */
static GUID prov = { 0x3B6F6B0E, 0x5C55, 0x4F64,
		     { 0x9D, 0x5B, 0x2A, 0x8C, 0x7A, 0x1E, 0x0F, 0x11 } };

static EVENT_RECORD er;
static uint8_t data[1024];
static size_t len;
static char path[64];

/* UTF-16 of an ASCII string, in one of a few static buffers. */
static WCHAR *w(const char *s)
{
	static WCHAR b[4][4096];
	static int k;
	WCHAR *o = b[k++ % 4];
	size_t i;

	for (i = 0; s[i] && i < 4095; i++)
		o[i] = (unsigned char)s[i];
	o[i] = 0;
	return o;
}

/* A UTF-16 string at @off of @base as ASCII ('?' else). */
static const char *ascii(const void *base, ULONG off)
{
	static char s[8][256];
	static int k;
	const uint8_t *p = (const uint8_t *)base + off;
	char *o = s[k++ % 8];
	size_t i;

	if (!off)
		return "(none)";
	for (i = 0; i < 255 && (p[2 * i] || p[2 * i + 1]); i++)
		o[i] = p[2 * i + 1] || p[2 * i] > 0x7E ? '?' : p[2 * i];
	o[i] = 0;
	return o;
}

static void event(uint16_t id, uint8_t version)
{
	memset(&er, 0, sizeof(er));
	er.EventHeader.ProviderId = prov;
	er.EventHeader.EventDescriptor.Id = id;
	er.EventHeader.EventDescriptor.Version = version;
	er.EventHeader.Flags = EVENT_HEADER_FLAG_64_BIT_HEADER;
	er.UserData = data;
	er.UserDataLength = (USHORT)len;
}

static void put(const void *p, size_t n)
{
	memcpy(data + len, p, n);
	len += n;
}

#define PUT(type, v)	do { type _v = (v); put(&_v, sizeof(_v)); } while (0)

static void put_w(const char *s, int nul)
{
	size_t i;

	for (i = 0; s[i]; i++)
		PUT(uint16_t, (unsigned char)s[i]);
	if (nul)
		PUT(uint16_t, 0);
}

static ULONG info(TRACE_EVENT_INFO **out)
{
	ULONG size = 0, err = TdhGetEventInformation(&er, 0, NULL, NULL, &size);

	*out = NULL;
	if (err != ERROR_INSUFFICIENT_BUFFER)
		return err;
	*out = malloc(size);
	err = TdhGetEventInformation(&er, 0, NULL, *out, &size);
	if (err) {
		free(*out);
		*out = NULL;
	}
	return err;
}

static EVENT_MAP_INFO *map_of(TRACE_EVENT_INFO *tei, const EVENT_PROPERTY_INFO *p)
{
	EVENT_MAP_INFO *mi;
	ULONG size = 0;

	if (!p->nonStructType.MapNameOffset)
		return NULL;
	if (TdhGetEventMapInformation(&er, TEI_MAP_NAME(tei, (EVENT_PROPERTY_INFO *)p), NULL,
				      &size) != ERROR_INSUFFICIENT_BUFFER)
		return NULL;
	mi = malloc(size);
	if (TdhGetEventMapInformation(&er, TEI_MAP_NAME(tei, (EVENT_PROPERTY_INFO *)p), mi,
				      &size)) {
		free(mi);
		return NULL;
	}
	return mi;
}

static const char *format(TRACE_EVENT_INFO *tei, EVENT_MAP_INFO *mi, USHORT in, USHORT out,
			  USHORT length, const uint8_t *d, size_t n, USHORT *used, ULONG *err)
{
	static char s[512];
	WCHAR buf[512];
	ULONG size = sizeof(buf), i;

	*err = TdhFormatProperty(tei, mi, 8, in, out, length, (USHORT)n, (PBYTE)d, &size, buf,
				 used);
	if (*err)
		return "(error)";
	for (i = 0; i < size / 2 && buf[i]; i++)
		s[i] = buf[i] < 0x7F ? buf[i] : '?';
	s[i] = 0;
	return s;
}

static int find(const TRACE_EVENT_INFO *tei, const char *name)
{
	ULONG i;

	for (i = 0; i < tei->PropertyCount; i++)
		if (!strcmp(ascii(tei, tei->EventPropertyInfoArray[i].NameOffset), name))
			return i;
	return -1;
}

/* Event 1 (template AllTypes), every value; its texts in @want. */
static const char *const all_want[] = {
	"hello", "ansi", "-5", "0xAB", "-300", "8080", "-70000", "Tuesday",
	"-5000000000", "18446744073709551615", "1.5", "0.25", "true",
	"{3B6F6B0E-5C55-4F64-9D5B-2A8C7A1E0F11}", "0x1234", "1601-01-01T00:00:00.0000000Z",
	"2024-02-29T13:14:15.016", "S-1-5-32-544", "Read|Exec", "0xFEDCBA9876543210",
	"0xDEADBEEF", "cu", "ca", "0x0102", "192.168.0.1", "5", "7", NULL,
};

static void all_data(void)
{
	static const uint8_t st[16] = { 0xE8, 0x07, 2, 0, 4, 0, 29, 0, 13, 0, 14, 0, 15, 0, 16, 0 };
	static const uint8_t sid[16] = { 1, 2, 0, 0, 0, 0, 0, 5, 32, 0, 0, 0, 0x20, 2, 0, 0 };

	len = 0;
	put_w("hello", 1);
	put("ansi", 5);
	PUT(int8_t, -5);
	PUT(uint8_t, 0xAB);
	PUT(int16_t, -300);
	PUT(uint16_t, 0x901F);		/* 8080 in network order */
	PUT(int32_t, -70000);
	PUT(uint32_t, 2);
	PUT(int64_t, -5000000000LL);
	PUT(uint64_t, UINT64_MAX);
	PUT(float, 1.5f);
	PUT(double, 0.25);
	PUT(int32_t, 1);
	put(&prov, 16);
	PUT(uint64_t, 0x1234);
	PUT(uint64_t, 0);
	put(st, 16);
	put(sid, 16);
	PUT(uint32_t, 5);
	PUT(uint64_t, 0xFEDCBA9876543210ULL);
	PUT(uint32_t, 0xEFBEADDE);
	PUT(uint16_t, 4);
	put_w("cu", 0);
	PUT(uint16_t, 2);
	put("ca", 2);
	PUT(uint16_t, 2);
	put("\x01\x02", 2);
	put("\xC0\xA8\x00\x01", 4);
	PUT(uint32_t, 5);
	PUT(uint32_t, 7);
	event(1, 0);
}

static void all_types(void)
{
	static const USHORT in[] = {
		TDH_INTYPE_UNICODESTRING, TDH_INTYPE_ANSISTRING, TDH_INTYPE_INT8, TDH_INTYPE_UINT8,
		TDH_INTYPE_INT16, TDH_INTYPE_UINT16, TDH_INTYPE_INT32, TDH_INTYPE_UINT32,
		TDH_INTYPE_INT64, TDH_INTYPE_UINT64, TDH_INTYPE_FLOAT, TDH_INTYPE_DOUBLE,
		TDH_INTYPE_BOOLEAN, TDH_INTYPE_GUID, TDH_INTYPE_POINTER, TDH_INTYPE_FILETIME,
		TDH_INTYPE_SYSTEMTIME, TDH_INTYPE_SID, TDH_INTYPE_HEXINT32, TDH_INTYPE_HEXINT64,
		TDH_INTYPE_BINARY, TDH_INTYPE_MANIFEST_COUNTEDSTRING,
		TDH_INTYPE_MANIFEST_COUNTEDANSISTRING, TDH_INTYPE_MANIFEST_COUNTEDBINARY,
		TDH_INTYPE_UINT32, TDH_INTYPE_UINT32, TDH_INTYPE_UINT32,
	};
	TRACE_EVENT_INFO *tei;
	const uint8_t *d = data, *end;
	const char *kw;
	ULONG err, i;
	USHORT used;
	uint8_t buf[16];

	all_data();
	end = data + len;
	err = info(&tei);
	if (!tap_eq(err, ERROR_SUCCESS, "event 1: TdhGetEventInformation"))
		return;
	tap_eq(tei->DecodingSource, DecodingSourceXMLFile, "event 1: DecodingSourceXMLFile");
	tap_ok(!memcmp(&tei->ProviderGuid, &prov, 16), "event 1: the provider's GUID");
	tap_eq(tei->EventDescriptor.Id, 1, "event 1: its descriptor");
	tap_ok(!strcmp(ascii(tei, tei->ProviderNameOffset), "Nttrace-Test-Manifest"),
	       "event 1: provider name");
	tap_ok(!strcmp(ascii(tei, tei->ProviderMessageOffset), "nttrace's test provider"),
	       "event 1: provider message, from the en-US string table");
	tap_ok(!strcmp(ascii(tei, tei->LevelNameOffset), "Information"),
	       "event 1: win:Informational is \"Information\"");
	tap_ok(!strcmp(ascii(tei, tei->ChannelNameOffset), "Operational channel"),
	       "event 1: its channel's message");
	tap_ok(!strcmp(ascii(tei, tei->TaskNameOffset), "Connecting"), "event 1: task message");
	tap_ok(!strcmp(ascii(tei, tei->OpcodeNameOffset), "Shaking hands"),
	       "event 1: the task's own opcode");
	tap_ok(!strcmp(ascii(tei, tei->EventMessageOffset), "All types: %1 and %2"),
	       "event 1: message, its inserts as written");
	tap_ok(!strcmp(ascii(tei, tei->EventNameOffset), "AllTypes"), "event 1: name");
	kw = (const char *)tei + tei->KeywordsNameOffset;
	tap_ok(tei->KeywordsNameOffset && !strcmp(ascii(tei, tei->KeywordsNameOffset),
						 "Network keyword") &&
	       !strcmp(ascii(kw, 2 * 16), "Storage") && !kw[2 * 24] && !kw[2 * 24 + 1],
	       "event 1: keywords Network (message) and Storage (name), then an empty string");
	tap_eq(tei->PropertyCount, 27, "event 1: 27 properties");
	tap_eq(tei->TopLevelPropertyCount, 27, "event 1: all top-level");
	for (i = 0; i < 27 && i < tei->PropertyCount; i++)
		if (tei->EventPropertyInfoArray[i].nonStructType.InType != in[i])
			break;
	tap_eq(i, 27, "event 1: each inType as TDH_INTYPE");
	tap_eq(tei->EventPropertyInfoArray[3].nonStructType.OutType, TDH_OUTTYPE_HEXINT8,
	       "event 1: outType win:HexInt8");
	tap_eq(tei->EventPropertyInfoArray[5].nonStructType.OutType, TDH_OUTTYPE_PORT,
	       "event 1: outType win:Port");
	tap_eq(tei->EventPropertyInfoArray[26].nonStructType.OutType, TDH_OUTTYPE_NULL,
	       "event 1: an unknown outType is TDH_OUTTYPE_NULL");
	tap_eq(tei->EventPropertyInfoArray[6].length, 4, "event 1: Int32's length is 4");
	tap_eq(tei->EventPropertyInfoArray[14].length, 8, "event 1: a pointer's is the event's");
	tap_ok(tei->EventPropertyInfoArray[20].length == 4 &&
	       tei->EventPropertyInfoArray[20].Flags == PropertyParamFixedLength,
	       "event 1: Binary length=\"4\" is PropertyParamFixedLength 4");
	tap_ok(!strcmp(ascii(tei, tei->EventPropertyInfoArray[7].nonStructType.MapNameOffset),
		       "DayMap"), "event 1: Day's map name");
	tap_eq(tei->EventPropertyInfoArray[0].nonStructType.MapNameOffset, 0,
	       "event 1: no map, offset 0");
	for (i = 0; i < tei->TopLevelPropertyCount && all_want[i]; i++) {
		EVENT_PROPERTY_INFO *p = &tei->EventPropertyInfoArray[i];
		EVENT_MAP_INFO *mi = map_of(tei, p);
		const char *s = format(tei, mi, p->nonStructType.InType, p->nonStructType.OutType,
				       p->length, d, end - d, &used, &err);

		if (!tap_ok(!err && !strcmp(s, all_want[i]), "event 1: %s reads \"%s\"",
			    ascii(tei, p->NameOffset), all_want[i]))
			printf("# got \"%s\" (error %u)\n", s, err);
		free(mi);
		if (err)
			break;
		d += used;
	}
	tap_eq(end - d, 0, "event 1: the values use up the data");
	err = TdhGetProperty(&er, 0, NULL, 1,
			     &(PROPERTY_DATA_DESCRIPTOR){ (uintptr_t)w("I32"), ALL, 0 },
			     sizeof(buf), buf);
	tap_ok(!err && *(int32_t *)buf == -70000, "event 1: TdhGetProperty(I32)");
	err = TdhGetProperty(&er, 0, NULL, 1,
			     &(PROPERTY_DATA_DESCRIPTOR){ (uintptr_t)w("Bin"), ALL, 0 },
			     sizeof(buf), buf);
	tap_ok(!err && !memcmp(buf, "\xDE\xAD\xBE\xEF", 4), "event 1: TdhGetProperty(Bin)");
	tap_eq(TdhGetProperty(&er, 0, NULL, 1,
			      &(PROPERTY_DATA_DESCRIPTOR){ (uintptr_t)w("Nope"), ALL, 0 },
			      sizeof(buf), buf), ERROR_NOT_FOUND,
	       "event 1: a name the template has not: ERROR_NOT_FOUND");
	er.UserDataLength = (USHORT)(len - 6);
	tap_eq(TdhGetProperty(&er, 0, NULL, 1,
			      &(PROPERTY_DATA_DESCRIPTOR){ (uintptr_t)w("Err"), ALL, 0 },
			      sizeof(buf), buf), ERROR_EVT_INVALID_EVENT_DATA,
	       "event 1: data shorter than the template: ERROR_EVT_INVALID_EVENT_DATA");
	free(tei);
}

static void sized_data(void)
{
	len = 0;
	PUT(uint16_t, 2);
	PUT(uint32_t, 100);
	PUT(uint32_t, 200);
	PUT(uint16_t, 3);
	put("xyz", 3);
	put_w("abc", 0);
	put("\x07\x08", 2);
	PUT(int32_t, -1);
	PUT(uint16_t, 2);
	put("p1", 2);
	PUT(int32_t, 42);
	PUT(uint16_t, 3);
	put("two", 3);
	put_w("end", 1);
	event(2, 1);
}

static ULONG get(const char *n1, ULONG i1, const char *n2, uint8_t *buf, ULONG room, ULONG *size)
{
	PROPERTY_DATA_DESCRIPTOR pd[2] = { { (uintptr_t)w(n1), i1, 0 },
					   { (uintptr_t)(n2 ? w(n2) : NULL), ALL, 0 } };
	ULONG err = TdhGetPropertySize(&er, 0, NULL, n2 ? 2 : 1, pd, size);

	return err ? err : TdhGetProperty(&er, 0, NULL, n2 ? 2 : 1, pd, room, buf);
}

static void sized(void)
{
	TRACE_EVENT_INFO *tei;
	EVENT_PROPERTY_INFO *p;
	uint8_t buf[64];
	ULONG err, size;
	int i;

	sized_data();
	err = info(&tei);
	if (!tap_eq(err, ERROR_SUCCESS, "event 2: TdhGetEventInformation"))
		return;
	tap_eq(tei->PropertyCount, 11, "event 2: 8 top-level properties and 3 members");
	tap_eq(tei->TopLevelPropertyCount, 8, "event 2: 8 top-level");
	tap_ok(!strcmp(ascii(tei, tei->LevelNameOffset), "Chatty level") &&
	       !strcmp(ascii(tei, tei->TaskNameOffset), "Disk") &&
	       !strcmp(ascii(tei, tei->OpcodeNameOffset), "Trying again") &&
	       !strcmp(ascii(tei, tei->ChannelNameOffset), "System") &&
	       !strcmp(ascii(tei, tei->KeywordsNameOffset), "ResponseTime"),
	       "event 2: own level, task without message, provider opcode, imported channel, "
	       "winmeta keyword");
	p = tei->EventPropertyInfoArray;
	tap_ok(p[1].Flags == PropertyParamCount && p[1].countPropertyIndex == 0,
	       "event 2: count=\"Count\" is PropertyParamCount of property 0");
	tap_ok(p[3].Flags == PropertyParamLength && p[3].lengthPropertyIndex == 2,
	       "event 2: length=\"Size\" is PropertyParamLength of property 2");
	tap_ok(p[4].Flags == PropertyParamFixedLength && p[4].length == 3,
	       "event 2: length=\"3\" is a fixed length");
	tap_ok(p[5].Flags == PropertyParamFixedCount && p[5].count == 2,
	       "event 2: count=\"2\" is a fixed count");
	tap_ok(p[6].Flags == (PropertyStruct | PropertyParamCount) &&
	       p[6].structType.StructStartIndex == 8 && p[6].structType.NumOfStructMembers == 3 &&
	       p[6].countPropertyIndex == 0, "event 2: the struct, its members after the top level");
	i = find(tei, "Name");
	tap_ok(i == 10 && p[10].Flags == PropertyParamLength && p[10].lengthPropertyIndex == 9,
	       "event 2: a member's length names a member before it");
	err = get("Values", 1, NULL, buf, sizeof(buf), &size);
	tap_ok(!err && size == 4 && *(uint32_t *)buf == 200, "event 2: Values[1] is 200");
	err = get("Blob", ALL, NULL, buf, sizeof(buf), &size);
	tap_ok(!err && size == 3 && !memcmp(buf, "xyz", 3), "event 2: Blob of Size bytes");
	err = get("Fixed", ALL, NULL, buf, sizeof(buf), &size);
	tap_ok(!err && size == 6, "event 2: UnicodeString of length 3: 6 bytes");
	err = get("Points", 1, "Name", buf, sizeof(buf), &size);
	tap_ok(!err && size == 3 && !memcmp(buf, "two", 3), "event 2: Points[1].Name");
	err = get("Points", 1, "X", buf, sizeof(buf), &size);
	tap_ok(!err && *(int32_t *)buf == 42, "event 2: Points[1].X");
	err = get("Tail", ALL, NULL, buf, sizeof(buf), &size);
	tap_ok(!err && size == 8, "event 2: Tail after the structures");
	err = get("Points", 2, NULL, buf, sizeof(buf), &size);
	tap_eq(err, ERROR_INVALID_PARAMETER, "event 2: Points[2] is past Count");
	er.UserDataLength = 13;
	err = get("Blob", ALL, NULL, buf, sizeof(buf), &size);
	tap_eq(err, ERROR_EVT_INVALID_EVENT_DATA, "event 2: data ending in Blob's Size bytes");
	er.UserDataLength = 5;
	err = get("Points", 0, "X", buf, sizeof(buf), &size);
	tap_eq(err, ERROR_EVT_INVALID_EVENT_DATA, "event 2: data cut in the counted array");
	free(tei);
}

static void others(void)
{
	TRACE_EVENT_INFO *tei;
	ULONG err;

	len = 0;
	event(3, 0);
	err = info(&tei);
	tap_ok(!err && tei->PropertyCount == 0 && !tei->TaskNameOffset &&
	       !strcmp(ascii(tei, tei->LevelNameOffset), "Error") &&
	       !strcmp(ascii(tei, tei->OpcodeNameOffset), "Start") && !tei->EventMessageOffset,
	       "event 3: no template, winmeta's level and opcode, no task or message");
	free(tei);
	event(2, 0);
	tap_eq(info(&tei), ERROR_NOT_FOUND, "event 2 of version 0: ERROR_NOT_FOUND");
	event(99, 0);
	tap_eq(info(&tei), ERROR_NOT_FOUND, "an event not in the manifest: ERROR_NOT_FOUND");
	event(1, 0);
	er.EventHeader.ProviderId.Data1 ^= 1;
	tap_eq(info(&tei), ERROR_NOT_FOUND, "another provider: ERROR_NOT_FOUND");
}

static void maps(void)
{
	TRACE_EVENT_INFO tei = { 0 };
	EVENT_MAP_INFO *mi;
	ULONG size = 0, err;
	USHORT used;
	uint32_t v;
	const char *s;

	event(1, 0);
	err = TdhGetEventMapInformation(&er, w("DayMap"), NULL, &size);
	mi = malloc(size);
	err = err == ERROR_INSUFFICIENT_BUFFER ? TdhGetEventMapInformation(&er, w("DayMap"), mi,
									   &size) : err;
	if (!tap_eq(err, ERROR_SUCCESS, "TdhGetEventMapInformation(DayMap)"))
		return;
	tap_ok(mi->Flag == EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP && mi->EntryCount == 3 &&
	       mi->MapEntryValueType == EVENTMAP_ENTRY_VALUETYPE_ULONG &&
	       !strcmp(ascii(mi, mi->NameOffset), "DayMap"), "DayMap: a value map of 3 entries");
	tap_ok(mi->MapEntryArray[1].Value == 1 &&
	       !strcmp(ascii(mi, mi->MapEntryArray[1].OutputOffset), "Monday "),
	       "DayMap: 1 is \"Monday \" (a space at the end, as Windows hands it out)");
	v = 7;
	s = format(&tei, mi, TDH_INTYPE_UINT32, 0, 4, (uint8_t *)&v, 4, &used, &err);
	tap_ok(!err && !strcmp(s, "7"), "DayMap: a value it has not reads as the number");
	free(mi);
	size = 0;
	err = TdhGetEventMapInformation(&er, w("FlagMap"), NULL, &size);
	mi = malloc(size);
	err = TdhGetEventMapInformation(&er, w("FlagMap"), mi, &size);
	tap_ok(!err && mi->Flag == EVENTMAP_INFO_FLAG_MANIFEST_BITMAP && mi->EntryCount == 3,
	       "FlagMap: a bit map");
	v = 0x13;
	s = format(&tei, mi, TDH_INTYPE_HEXINT32, 0, 4, (uint8_t *)&v, 4, &used, &err);
	tap_ok(!err && !strcmp(s, "Read|Write|0x10"), "FlagMap: 0x13 is Read|Write|0x10");
	v = 0;
	s = format(&tei, mi, TDH_INTYPE_HEXINT32, 0, 4, (uint8_t *)&v, 4, &used, &err);
	tap_ok(!err && !strcmp(s, "0"), "FlagMap: 0 is 0");
	free(mi);
	size = 0;
	tap_eq(TdhGetEventMapInformation(&er, w("NoMap"), NULL, &size), ERROR_NOT_FOUND,
	       "a map the provider has not: ERROR_NOT_FOUND");
	tap_eq(TdhGetEventMapInformation(&er, NULL, NULL, &size), ERROR_INVALID_PARAMETER,
	       "no map name: ERROR_INVALID_PARAMETER");
}

/* TdhEnumerateProviderFieldInformation / Query as "name=value" lines. */
static const char *fields(int query, ULONGLONG v, EVENT_FIELD_TYPE type, ULONG *err)
{
	static char s[512];
	PROVIDER_FIELD_INFOARRAY *fa;
	ULONG size = 0, i;

	s[0] = 0;
	*err = query ? TdhQueryProviderFieldInformation(&prov, v, type, NULL, &size) :
		       TdhEnumerateProviderFieldInformation(&prov, type, NULL, &size);
	if (*err != ERROR_INSUFFICIENT_BUFFER)
		return s;
	fa = malloc(size);
	*err = query ? TdhQueryProviderFieldInformation(&prov, v, type, fa, &size) :
		       TdhEnumerateProviderFieldInformation(&prov, type, fa, &size);
	for (i = 0; !*err && i < fa->NumberOfElements; i++) {
		PROVIDER_FIELD_INFO *f = &fa->FieldInfoArray[i];

		snprintf(s + strlen(s), sizeof(s) - strlen(s), "%s%s=0x%llx(%s)", i ? " " : "",
			 ascii(fa, f->NameOffset), (unsigned long long)f->Value,
			 ascii(fa, f->DescriptionOffset));
	}
	free(fa);
	return s;
}

static void providers(void)
{
	PROVIDER_ENUMERATION_INFO *pe;
	PROVIDER_EVENT_INFO *ev;
	TRACE_EVENT_INFO *tei;
	EVENT_DESCRIPTOR d = { 0 };
	ULONG size = 0, err;
	const char *s;

	err = TdhEnumerateProviders(NULL, &size);
	pe = malloc(size);
	err = err == ERROR_INSUFFICIENT_BUFFER ? TdhEnumerateProviders(pe, &size) : err;
	tap_ok(!err && pe->NumberOfProviders == 1 &&
	       !memcmp(&pe->TraceProviderInfoArray[0].ProviderGuid, &prov, 16) &&
	       pe->TraceProviderInfoArray[0].SchemaSource == 0 &&
	       !strcmp(ascii(pe, pe->TraceProviderInfoArray[0].ProviderNameOffset),
		       "Nttrace-Test-Manifest"), "TdhEnumerateProviders: the manifest's provider");
	free(pe);
	size = 0;
	err = TdhEnumerateProvidersForDecodingSource(DecodingSourceXMLFile, NULL, 0, &size);
	pe = malloc(size);
	tap_ok(err == ERROR_INSUFFICIENT_BUFFER &&
	       !TdhEnumerateProvidersForDecodingSource(DecodingSourceXMLFile, pe, size, &size) &&
	       pe->NumberOfProviders == 1, "TdhEnumerateProvidersForDecodingSource(XMLFile)");
	tap_ok(!TdhEnumerateProvidersForDecodingSource(DecodingSourceTlg, pe, size, &size) &&
	       pe->NumberOfProviders == 0, "... (Tlg): none");
	free(pe);
	tap_eq(TdhEnumerateProvidersForDecodingSource(DecodingSourceMax, NULL, 0, &size),
	       ERROR_INVALID_PARAMETER, "... (DecodingSourceMax): ERROR_INVALID_PARAMETER");
	s = fields(0, 0, EventLevelInformation, &err);
	tap_ok(!err && !strcmp(s, "Chatty=0x10(Chatty level) win:Error=0x2(Error) "
			       "win:Informational=0x4(Information)"),
	       "levels: its own, then winmeta's its events use");
	if (err || strcmp(s, "Chatty=0x10(Chatty level) win:Error=0x2(Error) "
			     "win:Informational=0x4(Information)"))
		printf("# %s (%u)\n", s, err);
	s = fields(0, 0, EventKeywordInformation, &err);
	tap_ok(!err && !strcmp(s, "Network=0x1(Network keyword) Storage=0x2((none)) "
			       "Unused=0x8((none)) win:ResponseTime=0x1000000000000(ResponseTime)"),
	       "keywords");
	s = fields(1, 3, EventKeywordInformation, &err);
	tap_ok(!err && !strcmp(s, "Network=0x1(Network keyword) Storage=0x2((none))"),
	       "query keywords 0x3: each keyword in the mask");
	s = fields(1, 1 | 10 << 16, EventOpcodeInformation, &err);
	tap_ok(!err && !strcmp(s, "Handshake=0xa0001(Shaking hands)"),
	       "query opcode 10 of task 1: the task's own opcode");
	s = fields(1, 11 << 16, EventOpcodeInformation, &err);
	tap_ok(!err && !strcmp(s, "Retry=0xb(Trying again)"), "query opcode 11");
	s = fields(0, 0, EventChannelInformation, &err);
	tap_ok(!err && !strcmp(s, "Nttrace-Test-Manifest/Operational=0x10(Operational channel) "
			       "System=0x8((none))"),
	       "channels: a value of 16 for the first without one, System imported as 8");
	s = fields(0, 0, EventTaskInformation, &err);
	tap_ok(!err && !strcmp(s, "Connect=0x1(Connecting) Disk=0x2((none))"), "tasks");
	fields(1, 99, EventLevelInformation, &err);
	tap_eq(err, ERROR_NOT_FOUND, "query a level it has not: ERROR_NOT_FOUND");
	fields(0, 0, EventInformationMax, &err);
	tap_eq(err, ERROR_NOT_SUPPORTED, "EventInformationMax: ERROR_NOT_SUPPORTED");
	size = 0;
	err = TdhEnumerateManifestProviderEvents(&prov, NULL, &size);
	ev = malloc(size);
	err = err == ERROR_INSUFFICIENT_BUFFER ? TdhEnumerateManifestProviderEvents(&prov, ev,
										    &size) : err;
	tap_ok(!err && ev->NumberOfEvents == 3 && ev->EventDescriptorsArray[1].Id == 2 &&
	       ev->EventDescriptorsArray[1].Version == 1 &&
	       ev->EventDescriptorsArray[1].Level == 16 &&
	       ev->EventDescriptorsArray[1].Task == 2 &&
	       ev->EventDescriptorsArray[1].Opcode == 11 &&
	       ev->EventDescriptorsArray[1].Channel == 8 &&
	       ev->EventDescriptorsArray[1].Keyword == 0x0001000000000000ULL,
	       "TdhEnumerateManifestProviderEvents: the descriptors");
	free(ev);
	d.Id = 1;
	size = 0;
	err = TdhGetManifestEventInformation(&prov, &d, NULL, &size);
	tei = malloc(size);
	err = err == ERROR_INSUFFICIENT_BUFFER ? TdhGetManifestEventInformation(&prov, &d, tei,
										&size) : err;
	tap_ok(!err && tei->PropertyCount == 27 && tei->EventDescriptor.Keyword == 3 &&
	       tei->EventDescriptor.Channel == 16 && tei->EventDescriptor.Opcode == 10,
	       "TdhGetManifestEventInformation: event 1 with the manifest's descriptor");
	free(tei);
}

static ULONG nprovs(void)
{
	PROVIDER_ENUMERATION_INFO *pe;
	ULONG size = 0, n = 0xBAD;

	if (TdhEnumerateProviders(NULL, &size) != ERROR_INSUFFICIENT_BUFFER)
		return 0xBAD;
	pe = malloc(size);
	if (!TdhEnumerateProviders(pe, &size))
		n = pe->NumberOfProviders;
	free(pe);
	return n;
}

static int decodes(void)
{
	TRACE_EVENT_INFO *tei;
	ULONG err;

	len = 0;
	event(3, 0);
	err = info(&tei);
	free(tei);
	return !err;
}

static ULONG load_text(const char *text)
{
	return TdhLoadManifestFromMemory(text, strlen(text));
}

static const char bad_head[] = "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/"
	"win/2004/08/events\"><instrumentation><events><provider name=\"P\" "
	"guid=\"{3B6F6B0E-5C55-4F64-9D5B-2A8C7A1E0F12}\">";
static const char bad_tail[] = "</provider></events></instrumentation></instrumentationManifest>";

static ULONG load_provider(const char *body, const char *guid)
{
	static char text[2048];

	snprintf(text, sizeof(text), "%s%s%s", guid ? "" : bad_head, body, bad_tail);
	if (guid)
		snprintf(text, sizeof(text), "<instrumentationManifest><instrumentation><events>"
			 "<provider name=\"P\" guid=\"%s\">%s%s", guid, body, bad_tail);
	return load_text(text);
}

static void bad_inputs(void)
{
	char missing[] = "/nonexistent/nttrace.man";

	tap_eq(load_text("<instrumentationManifest><unclosed>"), ERROR_XML_PARSE_ERROR,
	       "XML that does not parse: ERROR_XML_PARSE_ERROR");
	tap_eq(GetLastError(), ERROR_XML_PARSE_ERROR, "... and the thread's last error");
	tap_eq(load_provider("<templates><template tid=\"T\"><data name=\"a\" "
			     "inType=\"win:Int128\"/></template></templates>", NULL),
	       ERROR_XML_PARSE_ERROR, "an unknown inType: ERROR_XML_PARSE_ERROR");
	tap_eq(load_provider("<events><event value=\"1\" template=\"Nope\"/></events>", NULL),
	       ERROR_XML_PARSE_ERROR, "an event's template that is not there");
	tap_eq(load_provider("<events><event value=\"1\" level=\"win:Loud\"/></events>", NULL),
	       ERROR_XML_PARSE_ERROR, "a level that is not there");
	tap_eq(load_provider("<events><event value=\"1\" message=\"$(string.Nope)\"/></events>",
			     NULL), ERROR_XML_PARSE_ERROR, "a string the table has not");
	tap_eq(load_provider("<templates><template tid=\"T\"><data name=\"a\" inType=\"win:UInt8\" "
			     "count=\"b\"/><data name=\"b\" inType=\"win:UInt8\"/></template>"
			     "</templates>", NULL), ERROR_XML_PARSE_ERROR,
	       "a count naming a later field");
	tap_eq(load_provider("<templates><template tid=\"T\"><struct name=\"s\"><struct name=\"t\"/>"
			     "</struct></template></templates>", NULL), ERROR_XML_PARSE_ERROR,
	       "a struct in a struct");
	tap_eq(load_provider("", "{not-a-guid}"), ERROR_XML_PARSE_ERROR, "a provider's bad GUID");
	tap_eq(load_provider("<events><event value=\"65536\"/></events>", NULL),
	       ERROR_XML_PARSE_ERROR, "an event Id past 16 bits");
	tap_eq(nprovs(), 1, "failed loads leave nothing loaded");
	tap_eq(TdhLoadManifest(w(missing)), ERROR_FILE_NOT_FOUND,
	       "a missing file: ERROR_FILE_NOT_FOUND");
	tap_eq(TdhLoadManifest(w("/")), ERROR_FILE_NOT_FOUND, "a directory: ERROR_FILE_NOT_FOUND");
	tap_eq(TdhLoadManifest(NULL), ERROR_INVALID_PARAMETER, "NULL: ERROR_INVALID_PARAMETER");
	tap_eq(TdhLoadManifest(w("")), ERROR_INVALID_PARAMETER, "\"\": ERROR_INVALID_PARAMETER");
	tap_eq(TdhLoadManifestFromMemory(NULL, 5), ERROR_INVALID_PARAMETER,
	       "FromMemory(NULL): ERROR_INVALID_PARAMETER");
	tap_eq(TdhLoadManifestFromMemory("x", 0), ERROR_INVALID_PARAMETER,
	       "FromMemory of 0 bytes: ERROR_INVALID_PARAMETER");
	tap_eq(TdhLoadManifestFromBinary(w(path)), ERROR_RESOURCE_NOT_FOUND,
	       "FromBinary of a file that is no ELF: ERROR_RESOURCE_NOT_FOUND");
	tap_eq(TdhLoadManifestFromBinary(w(missing)), ERROR_FILE_NOT_FOUND,
	       "FromBinary of a missing file: ERROR_FILE_NOT_FOUND");
	tap_eq(TdhUnloadManifest(w(missing)), ERROR_FILE_NOT_FOUND,
	       "unload of what was never loaded: ERROR_FILE_NOT_FOUND");
	tap_eq(TdhUnloadManifestFromMemory("<x/>", 4), ERROR_FILE_NOT_FOUND,
	       "unload from memory of what was never loaded: ERROR_FILE_NOT_FOUND");
}

/* Loads and unloads: references counted, each source its own. */
static void loads(void)
{
	char self[] = "/proc/self/exe";

	tap_eq(nprovs(), 0, "nothing loaded at first");
	tap_ok(!decodes(), "no manifest, no decoding");
	tap_eq(TdhLoadManifest(w(path)), ERROR_SUCCESS, "TdhLoadManifest");
	tap_eq(TdhLoadManifest(w(path)), ERROR_SUCCESS, "TdhLoadManifest again: a reference");
	tap_eq(nprovs(), 1, "one provider listed");
	tap_eq(TdhUnloadManifest(w(path)), ERROR_SUCCESS, "the first unload");
	tap_ok(decodes(), "... leaves it loaded");
	tap_eq(TdhUnloadManifest(w(path)), ERROR_SUCCESS, "the second unload");
	tap_ok(!decodes() && nprovs() == 0, "... unloads it");
	tap_eq(TdhUnloadManifest(w(path)), ERROR_FILE_NOT_FOUND, "a third: ERROR_FILE_NOT_FOUND");
	tap_eq(load_text(manifest), ERROR_SUCCESS, "TdhLoadManifestFromMemory");
	tap_ok(decodes(), "... decodes");
	tap_eq(TdhUnloadManifestFromMemory(manifest, strlen(manifest)), ERROR_SUCCESS,
	       "TdhUnloadManifestFromMemory");
	tap_ok(!decodes(), "... unloads it");
	tap_eq(TdhLoadManifestFromBinary(w(self)), ERROR_SUCCESS,
	       "TdhLoadManifestFromBinary(this program, its .nttrace.manifest section)");
	tap_ok(decodes(), "... decodes");
	tap_eq(TdhUnloadManifest(w(self)), ERROR_SUCCESS, "TdhUnloadManifest of the binary");
	tap_ok(!decodes(), "... unloads it");
}

static void culture(void)
{
	TRACE_EVENT_INFO *tei = NULL;
	EVENT_MAP_INFO *mi;
	ULONG size = 0;

	setenv("LANG", "de_DE.UTF-8", 1);
	tap_eq(TdhLoadManifest(w(path)), ERROR_SUCCESS, "loaded with LANG=de_DE.UTF-8");
	setenv("LANG", "C", 1);
	all_data();
	info(&tei);
	tap_ok(tei && !strcmp(ascii(tei, tei->EventMessageOffset), "Alle Typen: %1 und %2") &&
	       !strcmp(ascii(tei, tei->ProviderMessageOffset), "nttraces Testanbieter"),
	       "de-DE's messages");
	tap_ok(tei && !strcmp(ascii(tei, tei->TaskNameOffset), "Connecting"),
	       "a string de-DE has not: en-US's");
	TdhGetEventMapInformation(&er, w("DayMap"), NULL, &size);
	mi = malloc(size);
	tap_ok(!TdhGetEventMapInformation(&er, w("DayMap"), mi, &size) &&
	       !strcmp(ascii(mi, mi->MapEntryArray[2].OutputOffset), "Dienstag "),
	       "de-DE's map text");
	free(mi);
	free(tei);
	TdhUnloadManifest(w(path));
}

static int corpus(const char *dir)
{
	static const struct { uint16_t id; uint8_t version; void (*fill)(void); } seeds[] = {
		{ 1, 0, all_data }, { 2, 1, sized_data }, { 3, 0, NULL },
	};
	char name[512];
	size_t i, n = strlen(manifest);
	FILE *f;

	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		len = 0;
		if (seeds[i].fill)
			seeds[i].fill();
		snprintf(name, sizeof(name), "%s/manifest-event%u", dir, seeds[i].id);
		f = fopen(name, "wb");
		if (!f)
			return 1;
		/* tests/fuzz/tdh_manifest_fuzz.c's input. */
		fputc(0, f);
		fputc(n & 0xFF, f);
		fputc(n >> 8, f);
		fwrite(manifest, 1, n, f);
		fputc(seeds[i].id & 0xFF, f);
		fputc(seeds[i].id >> 8, f);
		fputc(seeds[i].version, f);
		fwrite(data, 1, len, f);
		if (fclose(f))
			return 1;
	}
	return 0;
}

/* A manifest of @n of each kind of name, each named by a reference; its size. */
static char *big_manifest(unsigned int n, size_t *size)
{
	char *text = NULL;
	unsigned int k;
	FILE *f = open_memstream(&text, size);

	if (!f)
		return NULL;
	fprintf(f, "<instrumentationManifest><instrumentation><events><provider name=\"Big\" "
		"guid=\"{3B6F6B0E-5C55-4F64-9D5B-2A8C7A1E0F13}\"><tasks>");
	for (k = 0; k < n; k++)
		fprintf(f, "<task name=\"T%u\" value=\"%u\"/>", k, k + 1);
	fprintf(f, "</tasks><opcodes>");
	for (k = 0; k < n; k++)
		fprintf(f, "<opcode name=\"O%u\" value=\"%u\"/>", k, 11 + k % 200);
	fprintf(f, "</opcodes><keywords>");
	/* All of one mask: an event of K0 has every one of them. */
	for (k = 0; k < n; k++)
		fprintf(f, "<keyword name=\"K%u\" mask=\"0x1\"/>", k);
	fprintf(f, "</keywords><maps>");
	for (k = 0; k < n; k++)
		fprintf(f, "<valueMap name=\"m%u\"><map value=\"0\" message=\"$(string.s%u)\"/>"
			"</valueMap>", k, k);
	fprintf(f, "</maps><templates>");
	for (k = 0; k < n; k++)
		fprintf(f, "<template tid=\"tpl%u\"><data name=\"a\" inType=\"win:UInt8\" "
			"map=\"m%u\"/></template>", k, k);
	/* The first field counts every structure's member, the furthest name back. */
	fprintf(f, "<template tid=\"big\"><data name=\"c0\" inType=\"win:UInt8\"/>");
	for (k = 0; k < n; k++)
		fprintf(f, "<struct name=\"s%u\"><data name=\"x\" inType=\"win:UInt8\" "
			"count=\"c0\"/></struct>", k);
	fprintf(f, "</template></templates><events>");
	for (k = 0; k < n; k++)
		fprintf(f, "<event value=\"%u\" task=\"T%u\" opcode=\"O%u\" "
			"template=\"tpl%u\" message=\"$(string.s%u)\"/>", k + 1, k, k, k, k);
	fprintf(f, "<event value=\"%u\" keywords=\"K0\" template=\"big\"/></events>"
		"</provider></events></instrumentation><localization><resources culture=\"en-US\">"
		"<stringTable>", n + 1);
	for (k = 0; k < n; k++)
		fprintf(f, "<string id=\"s%u\" value=\"v%u\"/>", k, k);
	fprintf(f, "</stringTable></resources></localization></instrumentationManifest>");
	if (fclose(f))
		return NULL;
	return text;
}

/*
 * Load a manifest of @n, describe its events n / 2 (a template, a map, a
 * message, a task and opcode) and n + 1 (n structures, n keywords), then
 * every one (each found by its Id): the steps it took, 0 on failure.
 */
static unsigned long big_steps(unsigned int n)
{
	static GUID big = { 0x3B6F6B0E, 0x5C55, 0x4F64,
			    { 0x9D, 0x5B, 0x2A, 0x8C, 0x7A, 0x1E, 0x0F, 0x13 } };
	size_t size = 0;
	char *text = big_manifest(n, &size), want[32];
	TRACE_EVENT_INFO *tei = NULL;
	unsigned long steps = 0;
	const EVENT_PROPERTY_INFO *p;
	const char *kw;
	unsigned int k;
	int ok;

	if (!tap_ok(text != NULL, "a manifest of %u of each", n))
		return 0;
	nttrace_man_steps = 0;
	if (!tap_eq(TdhLoadManifestFromMemory(text, size), ERROR_SUCCESS, "... loads"))
		goto out;
	prov = big;
	len = 0;
	event(n / 2 + 1, 0);
	if (tap_eq(info(&tei), ERROR_SUCCESS, "... its event %u described", n / 2 + 1)) {
		snprintf(want, sizeof(want), "v%u", n / 2);
		tap_ok(!strcmp(ascii(tei, tei->EventMessageOffset), want),
		       "... its message, a string of the table");
		snprintf(want, sizeof(want), "T%u", n / 2);
		tap_ok(!strcmp(ascii(tei, tei->TaskNameOffset), want), "... its task");
		snprintf(want, sizeof(want), "m%u", n / 2);
		tap_ok(tei->PropertyCount == 1 &&
		       !strcmp(ascii(tei, tei->EventPropertyInfoArray[0].nonStructType.MapNameOffset),
			       want), "... its field's map");
	}
	free(tei);
	tei = NULL;
	event(n + 1, 0);
	if (tap_eq(info(&tei), ERROR_SUCCESS, "... its event %u described", n + 1)) {
		tap_ok(tei->TopLevelPropertyCount == n + 1 && tei->PropertyCount == 2 * n + 1,
		       "... its %u structures and their members", n);
		p = &tei->EventPropertyInfoArray[n];
		tap_ok((p->Flags & PropertyStruct) && p->structType.StructStartIndex == 2 * n &&
		       p->structType.NumOfStructMembers == 1, "... the last structure's member");
		p = &tei->EventPropertyInfoArray[2 * n];
		tap_ok((p->Flags & PropertyParamCount) && p->countPropertyIndex == 0,
		       "... counted by the first field");
		kw = (const char *)tei + tei->KeywordsNameOffset;
		for (k = 0; tei->KeywordsNameOffset && (kw[0] || kw[1]); k++) {
			while (kw[0] || kw[1])
				kw += 2;
			kw += 2;
		}
		tap_eq(k, n, "... its keywords, every one");
	}
	free(tei);
	for (k = 1, ok = 1; k <= n + 1; k++) {
		ULONG need = 0;

		event(k, 0);
		ok &= TdhGetEventInformation(&er, 0, NULL, NULL, &need) == ERROR_INSUFFICIENT_BUFFER;
	}
	tap_ok(ok, "... every event found");
	steps = nttrace_man_steps;
	tap_eq(TdhUnloadManifestFromMemory(text, size), ERROR_SUCCESS, "... unloads");
out:
	free(text);
	return steps;
}

/* Twice the names, about twice the steps: n log n, where n^2 would be 4 times. */
static void growth(void)
{
	GUID saved = prov;
	unsigned long a = big_steps(1000), b = big_steps(2000);

	prov = saved;
	printf("# lookup steps: %lu for n = 1000, %lu for n = 2000\n", a, b);
	tap_ok(a && b && b <= a * 5 / 2, "twice the names, at most 2.5 times the steps");
}

int main(int argc, char **argv)
{
	int fd;

	if (argc == 3 && !strcmp(argv[1], "--corpus"))
		return corpus(argv[2]);
	unsetenv("LC_ALL");
	unsetenv("LC_MESSAGES");
	setenv("LANG", "C", 1);
#ifdef NTTRACE_NO_EXPAT
	tap_eq(TdhLoadManifestFromMemory(manifest, strlen(manifest)), ERROR_NOT_SUPPORTED,
	       "built without expat: TdhLoadManifestFromMemory says ERROR_NOT_SUPPORTED");
	tap_eq(TdhLoadManifest(w("/proc/self/exe")), ERROR_NOT_SUPPORTED,
	       "... and TdhLoadManifest too");
	tap_ok(1, "# SKIP manifest decoding: this %d-bit library was built without expat "
	       "(no libexpat.a for gcc -m%d, nor one from scripts/deps-i386-expat; "
	       "see the Makefile)", (int)sizeof(void *) * 8, (int)sizeof(void *) * 8);
	return tap_done();
#endif
	snprintf(path, sizeof(path), "/tmp/nttrace-manifest-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, manifest, strlen(manifest)) != (ssize_t)strlen(manifest)) {
		perror("tdh_manifest_test: a temporary file");
		return 2;
	}
	close(fd);
	loads();
	tap_eq(TdhLoadManifest(w(path)), ERROR_SUCCESS, "loaded for the decoding tests");
	all_types();
	sized();
	others();
	maps();
	providers();
	bad_inputs();
	TdhUnloadManifest(w(path));
	culture();
	growth();
	tap_eq(nprovs(), 0, "everything unloaded at the end");
	unlink(path);
	return tap_done();
}
