// SPDX-License-Identifier: LGPL-2.1
/*
 * UTF-16 text for the TDH functions: the names in a TRACE_EVENT_INFO and
 * TdhFormatProperty's output are WCHAR strings, from UTF-8 (TraceLogging's
 * names, UTF-8 and ANSI fields) or built here. The library's other UTF-8
 * and UTF-16 conversions are small functions of their own too (no iconv:
 * its conversions depend on the locale and, in a static program, on
 * gconv modules found at run time).
 */
#include <stdlib.h>
#include <string.h>

#include "../nt/nt_internal.h"
#include "tdh_internal.h"
#include "utf16.h"

void nttrace_tdh_put(struct nttrace_tdh_text *t, uint32_t cp)
{
	WCHAR u[2];
	size_t n = 1, i;

	if (cp >= 0x10000 && cp <= 0x10FFFF) {
		cp -= 0x10000;
		u[0] = 0xD800 | cp >> 10;
		u[1] = 0xDC00 | (cp & 0x3FF);
		n = 2;
	} else {
		u[0] = cp > 0xFFFF ? 0xFFFD : cp;
	}
	for (i = 0; i < n; i++, t->n++)
		if (t->buf && t->n < t->cap)	/* the caller's buffer: any alignment */
			memcpy(t->buf + t->n, &u[i], sizeof(u[i]));
}

void nttrace_tdh_puts(struct nttrace_tdh_text *t, const char *ascii)
{
	while (*ascii)
		nttrace_tdh_put(t, (unsigned char)*ascii++);
}

void nttrace_tdh_put_utf8(struct nttrace_tdh_text *t, const uint8_t *s, size_t n, int latin1)
{
	while (n) {
		uint32_t cp;
		unsigned int len = ntr_utf8_next(s, n, &cp);

		/* Not UTF-8 (RFC 3629): U+FFFD, or the byte as Latin-1. */
		if (len == 1 && s[0] >= 0x80 && latin1)
			cp = s[0];
		nttrace_tdh_put(t, cp);
		s += len;
		n -= len;
	}
}

uint64_t nttrace_tdh_le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

ULONG nttrace_tdh_utf8(const WCHAR *w, size_t max, char **out)
{
	size_t n = 0, i, o = 0;
	char *s;

	if (!w || !w[0])
		return ERROR_INVALID_PARAMETER;
	while (w[n] && n < max)
		n++;
	if (n >= max)
		return ERROR_INVALID_PARAMETER;
	s = malloc(3 * n + 1);	/* a unit makes at most 3 bytes, a pair 4 */
	if (!s)
		return ERROR_NOT_ENOUGH_MEMORY;
	for (i = 0; i < n; i++) {
		uint32_t c = w[i];

		if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && w[i + 1] >= 0xDC00 &&
		    w[i + 1] <= 0xDFFF)
			c = 0x10000 + ((c - 0xD800) << 10) + (w[++i] - 0xDC00);
		else if (c >= 0xD800 && c <= 0xDFFF)
			c = 0xFFFD;
		o += nttrace_utf8_put(s + o, c);
	}
	s[o] = 0;
	*out = s;
	return ERROR_SUCCESS;
}
