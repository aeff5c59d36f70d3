// SPDX-License-Identifier: GPL-2.0
/*
 * <nttrace/traceloggingprovider.h> and userlib/provider/tracelogging.c on
 * the host, 64- and 32-bit: the metadata TraceLoggingWrite builds,
 * against an encoder written here from the format (TraceLoggingDynamic.h's
 * description: see tracelogging_meta.h), byte for byte; the data
 * descriptors; and the enable test (no call when no session wants the
 * event, its arguments not evaluated).
 *
 * This program is built with tracelogging.c and not the library: it
 * defines EventRegister, EventUnregister, EventSetInformation and
 * EventWriteTransfer itself, the only calls tracelogging.c makes, and so
 * sees exactly what a TraceLoggingWrite hands the library, and plays the
 * sessions by calling the enable callback EventRegister was given.
 */
#include "tracelogging_fake.h"

/* ---- the provider ---- */

TRACELOGGING_DEFINE_PROVIDER(g_tl, "Nttrace.Test.TraceLogging",
	(0x12345678, 0x9abc, 0xdef0, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08),
	TraceLoggingOptionGroup(0xfaaf2f61, 0x9b26, 0x4591, 0x9b, 0xb1, 0xb9, 0xb8, 0xba, 0xe2,
				0xd3, 0x4c));

TRACELOGGING_DEFINE_PROVIDER(g_plain, "Plain", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));

static unsigned int evaluated;

static int side_effect(void)
{
	evaluated++;
	return 7;
}

static void check_provider(void)
{
	static const uint8_t group[16] = { 0x61, 0x2f, 0xaf, 0xfa, 0x26, 0x9b, 0x91, 0x45,
					   0x9b, 0xb1, 0xb9, 0xb8, 0xba, 0xe2, 0xd3, 0x4c };
	struct enc e;
	GUID id = TraceLoggingProviderId(g_tl);

	e.n = 2;
	put(&e, "Nttrace.Test.TraceLogging", 26);
	put16(&e, 19);		/* the trait's size, counting itself */
	put8(&e, 1);		/* provider group */
	put(&e, group, 16);
	end(&e);
	same(g_tl->Metadata, *(const uint16_t *)g_tl->Metadata, &e,
	     "provider metadata: name, group trait");
	e.n = 2;
	put(&e, "Plain", 6);
	end(&e);
	same(g_plain->Metadata, *(const uint16_t *)g_plain->Metadata, &e,
	     "provider metadata: name only");
	tap_ok(id.Data1 == 0x12345678 && id.Data2 == 0x9abc && id.Data4[7] == 0x08,
	       "TraceLoggingProviderId");
}

static void check_enable(void)
{
	unsigned int before;

	TraceLoggingWrite(g_tl, "Unregistered", TraceLoggingInt32(side_effect(), "x"));
	tap_eq(writes, 0, "not registered: no write");
	tap_eq(evaluated, 0, "not registered: arguments not evaluated");
	tap_eq(TraceLoggingRegister(g_tl), S_OK, "TraceLoggingRegister: S_OK");
	tap_ok(registered, "... through EventRegister");
	tap_ok(set_info_class == EventProviderSetTraits && set_info_ptr == g_tl->Metadata &&
	       set_info_len == *(const uint16_t *)g_tl->Metadata,
	       "... and EventSetInformation(EventProviderSetTraits, the provider metadata)");
	tap_eq(TraceLoggingRegister(g_tl), HRESULT_FROM_WIN32(ERROR_INVALID_PARAMETER),
	       "registering twice is refused");
	TraceLoggingWrite(g_tl, "NoSession", TraceLoggingInt32(side_effect(), "x"));
	tap_ok(writes == 0 && evaluated == 0, "no session: no write, arguments not evaluated");

	session(EVENT_CONTROL_CODE_ENABLE_PROVIDER, 3, 0x1, 0);
	TraceLoggingWrite(g_tl, "Verbose", TraceLoggingInt32(side_effect(), "x"));
	tap_ok(writes == 0 && evaluated == 0, "level 3 session: a level 5 event is not written");
	TraceLoggingWrite(g_tl, "Warning", TraceLoggingLevel(3), TraceLoggingKeyword(0x1),
			  TraceLoggingInt32(side_effect(), "x"));
	tap_ok(writes == 1 && evaluated == 1, "level 3, keyword 0x1: written once");
	TraceLoggingWrite(g_tl, "OtherKeyword", TraceLoggingLevel(3), TraceLoggingKeyword(0x2));
	tap_eq(writes, 1, "keyword 0x2 against MatchAnyKeyword 0x1: not written");
	TraceLoggingWrite(g_tl, "NoKeyword", TraceLoggingLevel(2));
	tap_eq(writes, 2, "keyword 0: written whatever the keywords");
	tap_ok(TraceLoggingProviderEnabled(g_tl, 3, 0x1) && !TraceLoggingProviderEnabled(g_tl, 4, 0) &&
	       !TraceLoggingProviderEnabled(g_tl, 1, 0x2) && TraceLoggingProviderEnabled(g_tl, 0, 0),
	       "TraceLoggingProviderEnabled follows the session");

	/*
	 * A second session widens the state: the highest level, the union
	 * of MatchAnyKeyword, the intersection of MatchAllKeyword (the first
	 * session's 0 requires nothing).
	 */
	session(EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0x6, 0x2);
	tap_ok(TraceLoggingProviderEnabled(g_tl, 200, 0x2) && TraceLoggingProviderEnabled(g_tl, 4, 0x1) &&
	       TraceLoggingProviderEnabled(g_tl, 1, 0x4) && !TraceLoggingProviderEnabled(g_tl, 1, 0x8),
	       "a second session (level 0, 0x6): every level, keywords 0x7");
	session(EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0);
	before = writes;
	TraceLoggingWrite(g_tl, "Disabled", TraceLoggingLevel(1), TraceLoggingInt32(side_effect()));
	tap_ok(writes == before && evaluated == 1, "disabled: no write, arguments not evaluated");
	session(EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, ~0ULL, 0);
}

static void check_all_fields(void)
{
	const char *s = "ansi";
	static const WCHAR ws[] = { 'w', 'i', 0 };
	static const WCHAR wcnt[] = { 'a', 'b', 'c' };
	GUID g = { 0x11223344, 0x5566, 0x7788, { 1, 2, 3, 4, 5, 6, 7, 8 } };
	FILETIME ft = { 0x01020304, 0x05060708 };
	SYSTEMTIME st = { 2024, 5, 1, 2, 3, 4, 5, 6 };
	int32_t a32[3] = { 1, -2, 3 };
	uint8_t ip6[16] = { 0xfe, 0x80 };
	uint8_t sid[16] = { 1, 2, 0, 0, 0, 0, 0, 5, 0x20, 0, 0, 0, 0x21, 2, 0, 0 };
	GUID act = { 9, 0, 0, { 0 } }, rel = { 10, 0, 0, { 0 } };
	int v = 5;
	struct enc e;
	unsigned int i;

	writes = 0;
	TraceLoggingWriteActivity(g_tl, "AllFields", &act, &rel,
		TraceLoggingLevel(4), TraceLoggingOpcode(WINEVENT_OPCODE_START),
		TraceLoggingKeyword(0x10), TraceLoggingKeyword(0x100000000000ULL),
		TraceLoggingChannel(12), TraceLoggingChannel(WINEVENT_CHANNEL_TRACELOGGING),
		TraceLoggingEventTag(0x0FE00000), TraceLoggingEventTag(0x4000),
		TraceLoggingDescription("ignored"), TraceLoggingCustomAttribute("k", "v"),
		TraceLoggingInt8(-1), TraceLoggingUInt8(2, "u8"), TraceLoggingInt16(-3, "i16"),
		TraceLoggingUInt16(4, "u16"), TraceLoggingInt32(v, "i32", "desc"),
		TraceLoggingUInt32(6, "u32", "desc", 0x0FE00000), TraceLoggingInt64(-7, "i64"),
		TraceLoggingUInt64(8, "u64"), TraceLoggingIntPtr(-9, "iptr"),
		TraceLoggingUIntPtr(10, "uptr"), TraceLoggingLong(-11, "long"),
		TraceLoggingULong(12, "ulong"), TraceLoggingHexInt8(13, "h8"),
		TraceLoggingHexUInt8(14, "hu8"), TraceLoggingHexInt16(15, "h16"),
		TraceLoggingHexUInt16(16, "hu16"), TraceLoggingHexInt32(17, "h32"),
		TraceLoggingHexUInt32(18, "hu32"), TraceLoggingHexInt64(19, "h64"),
		TraceLoggingHexUInt64(20, "hu64"), TraceLoggingHexLong(21, "hl"),
		TraceLoggingHexULong(22, "hul"), TraceLoggingFloat32(1.5f, "f32"),
		TraceLoggingFloat64(2.5, "f64"), TraceLoggingBoolean(1, "boolean"),
		TraceLoggingBool(1, "bool"), TraceLoggingChar('c', "char"),
		TraceLoggingWChar(0x263a, "wchar"), TraceLoggingPointer(&v, "ptr"),
		TraceLoggingCodePointer(&v, "code"), TraceLoggingPid(100, "pid"),
		TraceLoggingTid(101, "tid"), TraceLoggingPort(0x5000, "port"),
		TraceLoggingIPv4Address(0x0100007f, "ipv4"), TraceLoggingIPv6Address(ip6, "ipv6"),
		TraceLoggingSocketAddress(ip6, 8, "sa"), TraceLoggingWinError(5, "err"),
		TraceLoggingNTStatus(0xC0000005, "status"), TraceLoggingHResult(0x80070005, "hr"),
		TraceLoggingGuid(g, "guid"), TraceLoggingFileTime(ft, "ft"),
		TraceLoggingFileTimeUtc(ft, "ftu"), TraceLoggingSystemTime(st, "st"),
		TraceLoggingSystemTimeUtc(st, "stu"), TraceLoggingSid(sid, "sid"),
		TraceLoggingString(s, "str"), TraceLoggingString(NULL, "null"),
		TraceLoggingUtf8String("\xc3\xa9", "utf8"), TraceLoggingWideString(ws, "wide"),
		TraceLoggingCountedString("abcdef", 3, "cstr"),
		TraceLoggingCountedUtf8String("xy", 2, "cutf8"),
		TraceLoggingCountedWideString(wcnt, 3, "cwide"),
		TraceLoggingBinary("\x01\x02\x03", 3, "bin"),
		TraceLoggingBinaryEx("\x30", 1, TlgOutPKCS7_WITH_TYPE_INFO, "binex"),
		TraceLoggingStruct(2, "pair", "desc", 0x0FFFC000),
		TraceLoggingInt32FixedArray(a32, 3, "fixed"),
		TraceLoggingInt32Array(a32, 2, "var", "desc", 0x0FFFFF80),
		TraceLoggingGuidFixedArray(&g, 1, "guids"),
		TraceLoggingUInt16Array(NULL, 0, "empty", "", 0x5));

	tap_eq(writes, 1, "AllFields written once");
	tap_ok(last_ed.Id == 0 && last_ed.Version == 0 && last_ed.Task == 0,
	       "event descriptor: Id, Version, Task 0");
	tap_eq(last_ed.Level, 4, "Level: the last given");
	tap_eq(last_ed.Opcode, 1, "Opcode: WINEVENT_OPCODE_START");
	tap_eq(last_ed.Channel, 11, "Channel: the last given");
	tap_eq(last_ed.Keyword, 0x100000000010ULL, "Keyword: OR of the keywords");
	tap_ok(last_act == &act && last_rel == &rel, "activity IDs passed through");

	ev_begin(&e, "AllFields", 0x0FE04000);
	field(&e, "-1", 3, 0, 0, 0);
	field(&e, "u8", 4, 0, 0, 0);
	field(&e, "i16", 5, 0, 0, 0);
	field(&e, "u16", 6, 0, 0, 0);
	field(&e, "i32", 7, 0, 0, 0);
	field(&e, "u32", 8, 0, 0x0FE00000, 0);
	field(&e, "i64", 9, 0, 0, 0);
	field(&e, "u64", 10, 0, 0, 0);
	field(&e, "iptr", sizeof(void *) == 8 ? 9 : 7, 0, 0, 0);
	field(&e, "uptr", sizeof(void *) == 8 ? 10 : 8, 0, 0, 0);
	field(&e, "long", 7, 0, 0, 0);
	field(&e, "ulong", 8, 0, 0, 0);
	field(&e, "h8", 4, 4, 0, 0);
	field(&e, "hu8", 4, 4, 0, 0);
	field(&e, "h16", 6, 4, 0, 0);
	field(&e, "hu16", 6, 4, 0, 0);
	field(&e, "h32", 20, 0, 0, 0);
	field(&e, "hu32", 20, 0, 0, 0);
	field(&e, "h64", 21, 0, 0, 0);
	field(&e, "hu64", 21, 0, 0, 0);
	field(&e, "hl", 20, 0, 0, 0);
	field(&e, "hul", 20, 0, 0, 0);
	field(&e, "f32", 11, 0, 0, 0);
	field(&e, "f64", 12, 0, 0, 0);
	field(&e, "boolean", 4, 3, 0, 0);
	field(&e, "bool", 13, 0, 0, 0);
	field(&e, "char", 4, 2, 0, 0);
	field(&e, "wchar", 6, 2, 0, 0);
	field(&e, "ptr", sizeof(void *) == 8 ? 21 : 20, 0, 0, 0);
	field(&e, "code", sizeof(void *) == 8 ? 21 : 20, 37, 0, 0);
	field(&e, "pid", 8, 5, 0, 0);
	field(&e, "tid", 8, 6, 0, 0);
	field(&e, "port", 6, 7, 0, 0);
	field(&e, "ipv4", 8, 8, 0, 0);
	field(&e, "ipv6", 14, 9, 0, 0);
	field(&e, "sa", 14, 10, 0, 0);
	field(&e, "err", 8, 13, 0, 0);
	field(&e, "status", 8, 14, 0, 0);
	field(&e, "hr", 7, 15, 0, 0);
	field(&e, "guid", 15, 0, 0, 0);
	field(&e, "ft", 17, 0, 0, 0);
	field(&e, "ftu", 17, 38, 0, 0);
	field(&e, "st", 18, 0, 0, 0);
	field(&e, "stu", 18, 38, 0, 0);
	field(&e, "sid", 19, 0, 0, 0);
	field(&e, "str", 2, 0, 0, 0);
	field(&e, "null", 2, 0, 0, 0);
	field(&e, "utf8", 2, 35, 0, 0);
	field(&e, "wide", 1, 0, 0, 0);
	field(&e, "cstr", 23, 0, 0, 0);
	field(&e, "cutf8", 23, 35, 0, 0);
	field(&e, "cwide", 22, 0, 0, 0);
	field(&e, "bin", 14, 0, 0, 0);
	field(&e, "binex", 14, 36, 0, 0);
	field(&e, "pair", 24, 2, 0x0FFFC000, 0);
	field(&e, "fixed", 7 | 0x20, 0, 0, 3);
	field(&e, "var", 7 | 0x40, 0, 0x0FFFFF80, 0);
	field(&e, "guids", 15 | 0x20, 0, 0, 1);
	field(&e, "empty", 6 | 0x40, 0, 0x5, 0);
	end(&e);
	tap_ok(last_n >= 2 && last_d[0].Type == EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA &&
	       last_d[0].Ptr == (uintptr_t)g_tl->Metadata &&
	       last_d[0].Size == *(const uint16_t *)g_tl->Metadata,
	       "descriptor 0: the provider metadata, type 2");
	tap_ok(last_n >= 2 && last_d[1].Type == EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA,
	       "descriptor 1: the event metadata, type 1");
	same(last_bytes[1], last_d[1].Size, &e, "event metadata: every field macro, tags");

	{
		int8_t i8 = -1;
		int32_t i32 = 5, hr = (int32_t)0x80070005;
		uint64_t u64 = 8;
		uint16_t port = 0x5000, n3 = 3, n6 = 6, n2 = 2, n16 = 16, n8 = 8, n1 = 1;
		uintptr_t p = (uintptr_t)&v;
		float f = 1.5f;
		double d = 2.5;
		uint8_t cstr[] = { 3, 0, 'a', 'b', 'c' };

		(void)cstr;
		i = 2;
		data_is(i++, &i8, 1, "Int8");
		i += 3;
		data_is(i++, &i32, 4, "Int32 from a variable");
		i += 2;
		data_is(i++, &u64, 8, "UInt64");
		i += 14;
		data_is(i++, &f, 4, "Float32");
		data_is(i++, &d, 8, "Float64");
		data_is(i++, "\x01", 1, "Boolean");
		data_is(i++, "\x01\0\0\0", 4, "Bool");
		data_is(i++, "c", 1, "Char");
		data_is(i++, "\x3a\x26", 2, "WChar");
		data_is(i++, &p, sizeof(p), "Pointer: its value");
		i += 3;
		data_is(i++, &port, 2, "Port: as given");
		i++;
		data_is(i++, &n16, 2, "IPv6Address: count 16");
		data_is(i++, ip6, 16, "... and its bytes");
		data_is(i++, &n8, 2, "SocketAddress: its byte count");
		i += 3;
		data_is(i++, &hr, 4, "HResult");
		data_is(i++, &g, 16, "Guid");
		data_is(i++, &ft, 8, "FileTime");
		i++;
		data_is(i++, &st, 16, "SystemTime");
		i++;
		data_is(i++, sid, 16, "Sid: 8 + 4 x 2 subauthorities");
		data_is(i++, "ansi", 5, "String: with its nul");
		data_is(i++, "", 1, "String NULL: an empty string");
		data_is(i++, "\xc3\xa9", 3, "Utf8String");
		data_is(i++, ws, 6, "WideString: UTF-16 with its nul");
		data_is(i++, &n3, 2, "CountedString: byte count 3");
		data_is(i++, "abc", 3, "... and 3 characters");
		i += 2;
		data_is(i++, &n6, 2, "CountedWideString: byte count 6");
		data_is(i++, wcnt, 6, "... and 3 UTF-16 units");
		data_is(i++, &n3, 2, "Binary: byte count");
		data_is(i++, "\x01\x02\x03", 3, "... and bytes");
		i += 2;
		data_is(i++, a32, 12, "FixedArray: the elements only");
		data_is(i++, &n2, 2, "Array: element count");
		data_is(i++, a32, 8, "... and the elements");
		data_is(i++, &g, 16, "GuidFixedArray");
		data_is(i++, "\0", 2, "empty Array: count 0");
		tap_ok(i + 1 == last_n && last_d[i].Size == 0, "... no elements; %u descriptors",
		       last_n);
		(void)n1;
	}
}

/* Tags of each length, and an event without fields. */
static void check_tags(void)
{
	struct enc e;

	TraceLoggingWrite(g_tl, "Tags", TraceLoggingEventTag(0x0FFFFFFF),
			  TraceLoggingInt8(1, "t1", "", 0x0FE00000),
			  TraceLoggingInt8(2, "t2", "", 0x0FFFC000),
			  TraceLoggingInt8(3, "t3", "", 0x0FFFFF80),
			  TraceLoggingInt8(4, "t4", "", 0x1FFFFFFF),
			  TraceLoggingInt8(5, "t0", "", 0));
	ev_begin(&e, "Tags", 0x0FFFFFFF);
	field(&e, "t1", 3, 0, 0x0FE00000, 0);
	field(&e, "t2", 3, 0, 0x0FFFC000, 0);
	field(&e, "t3", 3, 0, 0x0FFFFF80, 0);
	field(&e, "t4", 3, 0, 0x0FFFFFFF, 0);
	field(&e, "t0", 3, 0, 0, 0);
	end(&e);
	same(last_bytes[1], last_d[1].Size, &e, "tags of 1 to 4 bytes, the 29th bit dropped");

	TraceLoggingWrite(g_tl, "Empty");
	ev_begin(&e, "Empty", 0);
	end(&e);
	same(last_bytes[1], last_d[1].Size, &e, "an event without fields or tags");
	tap_ok(last_n == 2 && last_ed.Level == 5 && last_ed.Channel == 11 && last_ed.Opcode == 0 &&
	       last_ed.Keyword == 0, "... level 5, channel 11, opcode 0, keyword 0, 2 descriptors");
}

int main(void)
{
	check_provider();
	check_enable();
	check_all_fields();
	check_tags();
	TraceLoggingUnregister(g_tl);
	tap_ok(!registered && !TraceLoggingProviderEnabled(g_tl, 0, 0),
	       "TraceLoggingUnregister: EventUnregister, disabled");
	TraceLoggingUnregister(g_tl);
	tap_ok(1, "unregistering again: a no-op");
	return tap_done();
}
