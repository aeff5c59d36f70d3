// SPDX-License-Identifier: GPL-2.0
/*
 * <nttrace/traceloggingprovider.h> in C++: TraceLoggingValue chooses each
 * type as Microsoft's table says (bool Boolean, char Char, char16_t
 * Char16, wchar_t WChar, the integers IntNN/UIntNN by size, float, double,
 * GUID, FILETIME, SYSTEMTIME, void * Pointer, char * String, char16_t *
 * String16), checked against the encoder of tracelogging_fake.h; and the
 * C wrapper macros, options and arrays compile and encode in C++ too.
 * Built with userlib/provider/tracelogging.c and the played evntprov.h
 * calls, as tracelogging_test.c is.
 */
#include "tracelogging_fake.h"

TRACELOGGING_DECLARE_PROVIDER(g_cpp);
TRACELOGGING_DEFINE_PROVIDER(g_cpp, "Nttrace.Test.Cpp",
	(0x0badcafe, 0x1, 0x2, 3, 4, 5, 6, 7, 8, 9, 10),
	TraceLoggingOptionGroup(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));

int main()
{
	bool b = true;
	char c = 'x';
	char16_t c16 = u'\u263a';
	wchar_t wc = L'w';
	signed char i8 = -8;
	unsigned char u8 = 8;
	short i16 = -16;
	unsigned short u16 = 16;
	int i32 = -32;
	unsigned int u32 = 32;
	long l = -64;
	unsigned long ul = 64;
	long long ll = -65;
	unsigned long long ull = 65;
	float f = 0.5f;
	double d = 0.25;
	GUID g = { 0x01020304, 0x0506, 0x0708, { 9, 10, 11, 12, 13, 14, 15, 16 } };
	FILETIME ft = { 1, 2 };
	SYSTEMTIME st = { 2024, 1, 2, 3, 4, 5, 6, 7 };
	void *p = &i32;
	const char *s = "str";
	const char16_t *s16 = u"w16";
	unsigned int longsize = sizeof(long) == 8 ? 9 : 7;
	struct enc e;
	uint16_t w16 = 0x263a, wcw = 'w';
	uintptr_t pv = (uintptr_t)p;

	tap_eq(TraceLoggingRegister(g_cpp), S_OK, "TraceLoggingRegister");
	session(EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, ~0ULL, 0);
	TraceLoggingWrite(g_cpp, "Values", TraceLoggingValue(b), TraceLoggingValue(c),
			  TraceLoggingValue(c16), TraceLoggingValue(wc), TraceLoggingValue(i8),
			  TraceLoggingValue(u8), TraceLoggingValue(i16), TraceLoggingValue(u16),
			  TraceLoggingValue(i32), TraceLoggingValue(u32), TraceLoggingValue(l),
			  TraceLoggingValue(ul), TraceLoggingValue(ll), TraceLoggingValue(ull),
			  TraceLoggingValue(f), TraceLoggingValue(d), TraceLoggingValue(g),
			  TraceLoggingValue(ft), TraceLoggingValue(st), TraceLoggingValue(p),
			  TraceLoggingValue(s, "named", "desc", 0x0FE00000), TraceLoggingValue(s16),
			  TraceLoggingValue("literal"), TraceLoggingValue(i32 + 1));
	ev_begin(&e, "Values", 0);
	field(&e, "b", 4, 3, 0, 0);
	field(&e, "c", 4, 2, 0, 0);
	field(&e, "c16", 6, 2, 0, 0);
	field(&e, "wc", 6, 2, 0, 0);
	field(&e, "i8", 3, 0, 0, 0);
	field(&e, "u8", 4, 0, 0, 0);
	field(&e, "i16", 5, 0, 0, 0);
	field(&e, "u16", 6, 0, 0, 0);
	field(&e, "i32", 7, 0, 0, 0);
	field(&e, "u32", 8, 0, 0, 0);
	field(&e, "l", longsize, 0, 0, 0);
	field(&e, "ul", longsize + 1, 0, 0, 0);
	field(&e, "ll", 9, 0, 0, 0);
	field(&e, "ull", 10, 0, 0, 0);
	field(&e, "f", 11, 0, 0, 0);
	field(&e, "d", 12, 0, 0, 0);
	field(&e, "g", 15, 0, 0, 0);
	field(&e, "ft", 17, 0, 0, 0);
	field(&e, "st", 18, 0, 0, 0);
	field(&e, "p", sizeof(void *) == 8 ? 21 : 20, 0, 0, 0);
	field(&e, "named", 2, 0, 0x0FE00000, 0);
	field(&e, "s16", 1, 0, 0, 0);
	field(&e, "\"literal\"", 2, 0, 0, 0);
	field(&e, "i32 + 1", 7, 0, 0, 0);
	end(&e);
	tap_eq(writes, 1, "Values written");
	same(last_bytes[1], last_d[1].Size, &e, "TraceLoggingValue: the types of Microsoft's table");
	data_is(2, "\x01", 1, "bool: one byte");
	data_is(4, &w16, 2, "char16_t");
	data_is(5, &wcw, 2, "wchar_t: as UTF-16");
	data_is(12, &l, sizeof(l), "long: its size");
	data_is(18, &g, 16, "GUID");
	data_is(20, &st, 16, "SYSTEMTIME");
	data_is(21, &pv, sizeof(pv), "void *: its value");
	data_is(22, "str", 4, "char *: the string");
	data_is(23, u"w16", 8, "char16_t *: UTF-16 with its nul");
	data_is(24, "literal", 8, "a literal");
	data_is(25, "\xe1\xff\xff\xff", 4, "an expression's value (i32 + 1)");
	tap_eq(last_n, 26, "26 descriptors");

	/* The C macros in C++. */
	int32_t arr[2] = { 7, 8 };
	uint8_t ab[2] = { 1, 2 };
	TraceLoggingWrite(g_cpp, "Macros", TraceLoggingLevel(WINEVENT_LEVEL_ERROR),
			  TraceLoggingStruct(2, "s"), TraceLoggingHexInt32(i32, "h"),
			  TraceLoggingWideString(u"wide", "w"), TraceLoggingInt32Array(arr, 2, "a"),
			  TraceLoggingUInt8FixedArray(ab, 2, "f"), TraceLoggingGuid(g, "g"));
	ev_begin(&e, "Macros", 0);
	field(&e, "s", 24, 2, 0, 0);
	field(&e, "h", 20, 0, 0, 0);
	field(&e, "w", 1, 0, 0, 0);
	field(&e, "a", 7 | 0x40, 0, 0, 0);
	field(&e, "f", 4 | 0x20, 0, 0, 2);
	field(&e, "g", 15, 0, 0, 0);
	end(&e);
	tap_eq(writes, 2, "Macros written");
	tap_eq(last_ed.Level, 2, "level from TraceLoggingLevel");
	same(last_bytes[1], last_d[1].Size, &e, "C wrapper macros in C++");
	TraceLoggingUnregister(g_cpp);
	return tap_done();
}
