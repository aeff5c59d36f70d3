// SPDX-License-Identifier: LGPL-2.1
/*
 * TdhFormatProperty: one value of a property as text (UTF-16, NUL-
 * terminated), by its InType and OutType, with how many bytes of the data
 * it took. Sizes and errors as Microsoft documents the function
 * (learn.microsoft.com, tdh.h): *BufferSize in bytes, NUL included;
 * ERROR_INSUFFICIENT_BUFFER with the size needed when the buffer is short
 * or absent; ERROR_EVT_INVALID_EVENT_DATA when the data ends before the
 * value; ERROR_INVALID_PARAMETER for an InType with no size (NULL, 24,
 * unknown) or a pointer size other than 4 or 8 for a pointer-sized one.
 *
 * What each type reads as follows the SDK's tdh.h (its comments on the
 * InTypes and OutTypes). The text is nttrace's choice where Windows'
 * depends on the user's locale or on message tables this library has not:
 *  - integers in decimal; hexadecimal ones (HEXINT*, OutType HEXINT*,
 *    pointers, CODE_POINTER) as 0x and upper-case digits, no padding;
 *  - NTSTATUS, HRESULT and ERRORCODE as 0x and 8 digits, Win32 errors in
 *    decimal: no message text;
 *  - FILETIME as ISO 8601 UTC with 100 ns: 2021-09-09T14:59:35.8001567Z;
 *    SYSTEMTIME likewise with milliseconds, Z only for DATETIME_UTC (a
 *    SYSTEMTIME says nothing of its zone);
 *  - floating point in the fewest digits that read back the same (%g);
 *  - Booleans as true and false; GUIDs as {XXXXXXXX-XXXX-...} (upper
 *    case); SIDs as S-1-5-...; IPv6 addresses by inet_ntop (RFC 5952);
 *    binary as 0x and two upper-case digits a byte (nothing when empty);
 *  - ANSI strings as UTF-8 where they are, a byte that is not being read
 *    as Latin-1 (the provider's code page is unknown); with OutType UTF8
 *    or JSON strictly as UTF-8 (U+FFFD for bad bytes). Strings stop at a
 *    NUL.
 * A manifest's value map or bit map (MapInfo, as TdhGetEventMapInformation
 * gives it) shows an integer as the map's text (tdh_man_map.c says how);
 * any other MapInfo is not applied.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tdh_man.h"
#include "tdh_wpp.h"

/* The socket address families as Windows numbers them (ws2def.h). */
#define WIN_AF_INET	2
#define WIN_AF_INET6	23

struct value {
	const uint8_t *d;	/* the value's bytes */
	uint32_t size;
	USHORT in, out;
	const EVENT_MAP_INFO *map;	/* NULL: none */
};

static void putf(struct nttrace_tdh_text *t, const char *fmt, unsigned long long v)
{
	char s[32];

	snprintf(s, sizeof(s), fmt, v);
	nttrace_tdh_puts(t, s);
}

static void put_signed(struct nttrace_tdh_text *t, const struct value *v)
{
	uint64_t u = nttrace_tdh_le(v->d, v->size);
	unsigned int shift = 64 - 8 * v->size;
	char s[32];

	/* Sign-extended from its size: two's complement as stored. */
	snprintf(s, sizeof(s), "%lld", (long long)(u << shift) >> shift);
	nttrace_tdh_puts(t, s);
}

static void put_real(struct nttrace_tdh_text *t, const struct value *v)
{
	char s[40];
	int digits;

	if (v->size == 4) {
		float f;

		memcpy(&f, v->d, 4);
		for (digits = 1; digits < 9; digits++) {
			snprintf(s, sizeof(s), "%.*g", digits, f);
			if (strtof(s, NULL) == f)
				break;
		}
		snprintf(s, sizeof(s), "%.*g", digits, f);
	} else {
		double f;

		memcpy(&f, v->d, 8);
		for (digits = 1; digits < 17; digits++) {
			snprintf(s, sizeof(s), "%.*g", digits, f);
			if (strtod(s, NULL) == f)
				break;
		}
		snprintf(s, sizeof(s), "%.*g", digits, f);
	}
	nttrace_tdh_puts(t, s);
}

static void put_guid(struct nttrace_tdh_text *t, const uint8_t *d)
{
	char s[40];

	snprintf(s, sizeof(s), "{%08X-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X}",
		 (unsigned int)nttrace_tdh_le(d, 4), (unsigned int)nttrace_tdh_le(d + 4, 2),
		 (unsigned int)nttrace_tdh_le(d + 6, 2), d[8], d[9], d[10], d[11], d[12],
		 d[13], d[14], d[15]);
	nttrace_tdh_puts(t, s);
}

static void put_filetime(struct nttrace_tdh_text *t, uint64_t ft)
{
	SYSTEMTIME st;
	char s[48];

	nttrace_systemtime(ft, 1, &st);
	snprintf(s, sizeof(s), "%04u-%02u-%02uT%02u:%02u:%02u.%07uZ", st.wYear, st.wMonth,
		 st.wDay, st.wHour, st.wMinute, st.wSecond, (unsigned int)(ft % 10000000));
	nttrace_tdh_puts(t, s);
}

/* wYear, wMonth, wDayOfWeek, wDay, wHour, wMinute, wSecond, wMilliseconds. */
static void put_systemtime(struct nttrace_tdh_text *t, const uint8_t *d, int utc)
{
	unsigned int w[8], i;
	char s[64];

	for (i = 0; i < 8; i++)
		w[i] = (unsigned int)nttrace_tdh_le(d + 2 * i, 2);
	snprintf(s, sizeof(s), "%04u-%02u-%02uT%02u:%02u:%02u.%03u%s", w[0], w[1], w[3], w[4],
		 w[5], w[6], w[7], utc ? "Z" : "");
	nttrace_tdh_puts(t, s);
}

/* S-Revision-Authority-Sub-Sub-... (the form ConvertSidToStringSid gives). */
static void put_sid(struct nttrace_tdh_text *t, const uint8_t *d)
{
	uint64_t auth = 0;
	unsigned int i;

	for (i = 2; i < 8; i++)
		auth = auth << 8 | d[i];
	putf(t, "S-%llu-", d[0]);
	putf(t, auth >> 32 ? "0x%012llX" : "%llu", auth);
	for (i = 0; i < d[1]; i++)
		putf(t, "-%llu", nttrace_tdh_le(d + 8 + 4 * i, 4));
}

static void put_hex_bytes(struct nttrace_tdh_text *t, const uint8_t *d, uint32_t n)
{
	uint32_t i;

	if (n)
		nttrace_tdh_puts(t, "0x");
	for (i = 0; i < n; i++)
		putf(t, "%02llX", d[i]);
}

static void put_ipv6(struct nttrace_tdh_text *t, const uint8_t *a)
{
	char s[INET6_ADDRSTRLEN];

	if (inet_ntop(AF_INET6, a, s, sizeof(s)))
		nttrace_tdh_puts(t, s);
}

static void put_binary(struct nttrace_tdh_text *t, const struct value *v, const uint8_t *d,
		       uint32_t n)
{
	if (v->out == TDH_OUTTYPE_IPV6 && n == 16) {
		put_ipv6(t, d);
	} else if (v->out == TDH_OUTTYPE_SOCKETADDRESS && n >= 8 &&
		   nttrace_tdh_le(d, 2) == WIN_AF_INET) {
		putf(t, "%llu.", d[4]);
		putf(t, "%llu.", d[5]);
		putf(t, "%llu.", d[6]);
		putf(t, "%llu:", d[7]);
		putf(t, "%llu", d[2] << 8 | d[3]);
	} else if (v->out == TDH_OUTTYPE_SOCKETADDRESS && n >= 24 &&
		   nttrace_tdh_le(d, 2) == WIN_AF_INET6) {
		nttrace_tdh_put(t, '[');
		put_ipv6(t, d + 8);
		putf(t, "]:%llu", d[2] << 8 | d[3]);
	} else {
		put_hex_bytes(t, d, n);
	}
}

/* UTF-16 units to the first NUL. */
static void put_utf16(struct nttrace_tdh_text *t, const uint8_t *d, uint32_t n)
{
	uint32_t i;

	for (i = 0; i + 1 < n; i += 2) {
		uint32_t u = (uint32_t)nttrace_tdh_le(d + i, 2);

		if (!u)
			break;
		nttrace_tdh_put(t, u);
	}
}

static void put_ansi(struct nttrace_tdh_text *t, const struct value *v, const uint8_t *d,
		     uint32_t n)
{
	const uint8_t *nul = n ? memchr(d, 0, n) : NULL;

	nttrace_tdh_put_utf8(t, d, nul ? (uint32_t)(nul - d) : n,
			     v->out != TDH_OUTTYPE_UTF8 && v->out != TDH_OUTTYPE_JSON);
}

/* Integers of 1 to 8 bytes, by OutType. */
static void put_integer(struct nttrace_tdh_text *t, const struct value *v, int is_signed,
			int hex)
{
	uint64_t u = nttrace_tdh_le(v->d, v->size);

	switch (v->out) {
	case TDH_OUTTYPE_STRING:
		if (v->size == 2)
			nttrace_tdh_put(t, u);		/* a UTF-16 unit */
		else if (v->size == 1 && u)
			nttrace_tdh_put(t, u);		/* a CHAR, as Latin-1 */
		else if (v->size != 1)
			break;
		return;
	case TDH_OUTTYPE_BOOLEAN:
		nttrace_tdh_puts(t, u ? "true" : "false");
		return;
	case TDH_OUTTYPE_HEXINT8: case TDH_OUTTYPE_HEXINT16: case TDH_OUTTYPE_HEXINT32:
	case TDH_OUTTYPE_HEXINT64: case TDH_OUTTYPE_CODE_POINTER: case TDH_OUTTYPE_ERRORCODE:
		hex = 1;
		break;
	case TDH_OUTTYPE_NTSTATUS: case TDH_OUTTYPE_HRESULT:
		putf(t, "0x%08llX", u);
		return;
	case TDH_OUTTYPE_WIN32ERROR: case TDH_OUTTYPE_PID: case TDH_OUTTYPE_TID:
	case TDH_OUTTYPE_UNSIGNEDBYTE: case TDH_OUTTYPE_UNSIGNEDSHORT:
	case TDH_OUTTYPE_UNSIGNEDINT: case TDH_OUTTYPE_UNSIGNEDLONG:
		is_signed = 0;
		hex = 0;
		break;
	case TDH_OUTTYPE_BYTE: case TDH_OUTTYPE_SHORT: case TDH_OUTTYPE_INT: case TDH_OUTTYPE_LONG:
		is_signed = 1;
		hex = 0;
		break;
	case TDH_OUTTYPE_PORT:
		if (v->size == 2) {
			putf(t, "%llu", (u & 0xFF) << 8 | u >> 8);	/* network order */
			return;
		}
		break;
	case TDH_OUTTYPE_IPV4:
		if (v->size == 4) {
			putf(t, "%llu.", v->d[0]);
			putf(t, "%llu.", v->d[1]);
			putf(t, "%llu.", v->d[2]);
			putf(t, "%llu", v->d[3]);
			return;
		}
		break;
	case TDH_OUTTYPE_DATETIME: case TDH_OUTTYPE_DATETIME_UTC:
	case TDH_OUTTYPE_CULTURE_INSENSITIVE_DATETIME:
		if (v->size == 8) {
			put_filetime(t, u);
			return;
		}
		break;
	}
	if (hex)
		putf(t, "0x%llX", u);
	else if (is_signed)
		put_signed(t, v);
	else
		putf(t, "%llu", u);
}

static int is_integer(USHORT in)
{
	switch (in) {
	case TDH_INTYPE_INT8: case TDH_INTYPE_UINT8: case TDH_INTYPE_INT16:
	case TDH_INTYPE_UINT16: case TDH_INTYPE_INT32: case TDH_INTYPE_UINT32:
	case TDH_INTYPE_INT64: case TDH_INTYPE_UINT64: case TDH_INTYPE_HEXINT32:
	case TDH_INTYPE_HEXINT64:
		return 1;
	}
	return 0;
}

static void put_value(struct nttrace_tdh_text *t, const struct value *v, uint32_t psz)
{
	const uint8_t *d = v->d;
	uint32_t n = v->size;

	if (v->map && is_integer(v->in) &&
	    nttrace_tdh_put_map(t, v->map, nttrace_tdh_le(d, n)))
		return;
	switch (v->in) {
	case TDH_INTYPE_INT8: case TDH_INTYPE_INT16: case TDH_INTYPE_INT32: case TDH_INTYPE_INT64:
		put_integer(t, v, 1, 0);
		break;
	case TDH_INTYPE_UINT8: case TDH_INTYPE_UINT16: case TDH_INTYPE_UINT32:
	case TDH_INTYPE_UINT64:
		put_integer(t, v, 0, 0);
		break;
	case TDH_INTYPE_HEXINT32: case TDH_INTYPE_HEXINT64: case TDH_INTYPE_POINTER:
	case TDH_INTYPE_SIZET:
		put_integer(t, v, 0, 1);
		break;
	case TDH_INTYPE_BOOLEAN:
		nttrace_tdh_puts(t, nttrace_tdh_le(d, 4) ? "true" : "false");
		break;
	case TDH_INTYPE_FLOAT: case TDH_INTYPE_DOUBLE:
		put_real(t, v);
		break;
	case TDH_INTYPE_GUID:
		put_guid(t, d);
		break;
	case TDH_INTYPE_FILETIME:
		put_filetime(t, nttrace_tdh_le(d, 8));
		break;
	case TDH_INTYPE_SYSTEMTIME:
		put_systemtime(t, d, v->out == TDH_OUTTYPE_DATETIME_UTC);
		break;
	case TDH_INTYPE_SID:
		put_sid(t, d);
		break;
	case TDH_INTYPE_WBEMSID:
		put_sid(t, d + 2 * psz);
		break;
	case TDH_INTYPE_UNICODESTRING: case TDH_INTYPE_NONNULLTERMINATEDSTRING:
	case TDH_INTYPE_UNICODECHAR:
		put_utf16(t, d, n);
		break;
	case TDH_INTYPE_MANIFEST_COUNTEDSTRING: case TDH_INTYPE_COUNTEDSTRING:
	case TDH_INTYPE_REVERSEDCOUNTEDSTRING:
		put_utf16(t, d + 2, n - 2);
		break;
	case TDH_INTYPE_ANSISTRING: case TDH_INTYPE_NONNULLTERMINATEDANSISTRING:
		put_ansi(t, v, d, n);
		break;
	case TDH_INTYPE_ANSICHAR:
		nttrace_tdh_put(t, d[0]);
		break;
	case TDH_INTYPE_MANIFEST_COUNTEDANSISTRING: case TDH_INTYPE_COUNTEDANSISTRING:
	case TDH_INTYPE_REVERSEDCOUNTEDANSISTRING:
		put_ansi(t, v, d + 2, n - 2);
		break;
	case TDH_INTYPE_BINARY:
		put_binary(t, v, d, n);
		break;
	case TDH_INTYPE_MANIFEST_COUNTEDBINARY:
		put_binary(t, v, d + 2, n - 2);
		break;
	case TDH_INTYPE_HEXDUMP:
		put_hex_bytes(t, d + 4, n - 4);
		break;
	}
}

TDHSTATUS WINAPI TdhFormatProperty(PTRACE_EVENT_INFO EventInfo, PEVENT_MAP_INFO MapInfo,
				   ULONG PointerSize, USHORT PropertyInType,
				   USHORT PropertyOutType, USHORT PropertyLength,
				   USHORT UserDataLength, PBYTE UserData, PULONG BufferSize,
				   PWCHAR Buffer, PUSHORT UserDataConsumed)
{
	/* No data: an empty buffer of its own, never a null pointer. */
	struct value v = { UserData ? UserData : (PBYTE)"", 0, PropertyInType, PropertyOutType,
			   MapInfo };
	struct nttrace_tdh_text t = { NULL, 0, 0 };
	ULONG err = ERROR_INVALID_PARAMETER;
	ULONG need;

	if (!EventInfo || !BufferSize || !UserDataConsumed || (UserDataLength && !UserData))
		goto out;
	switch (PropertyInType) {
	case TDH_INTYPE_POINTER: case TDH_INTYPE_SIZET: case TDH_INTYPE_WBEMSID:
		if (PointerSize != 4 && PointerSize != 8)
			goto out;
	}
	err = nttrace_tdh_item_size(PropertyInType, PropertyOutType, PropertyLength, v.d,
				    UserDataLength, PointerSize, &v.size);
	if (err)
		goto out;
	put_value(&t, &v, PointerSize);		/* its length... */
	need = 2 * (t.n + 1);
	*UserDataConsumed = v.size;
	if (!Buffer || *BufferSize < need) {
		err = ERROR_INSUFFICIENT_BUFFER;
	} else {
		t.buf = Buffer;		/* ...then the text itself */
		t.cap = *BufferSize / 2;
		t.n = 0;
		put_value(&t, &v, PointerSize);
		nttrace_tdh_put(&t, 0);
	}
	*BufferSize = need;
out:
	SetLastError(err);
	return err;
}
