// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's MultiByteToWideChar and WideCharToMultiByte
 * (stringapiset.h). Linux's text is UTF-8, so CP_ACP, the "ANSI" code
 * page, is UTF-8 here as CP_UTF8 is; other code pages are refused. As
 * Windows does: a length of -1 takes the string with its NUL, an output
 * size of 0 asks for the size needed, a result that does not fit is 0
 * with ERROR_INSUFFICIENT_BUFFER, and invalid input becomes U+FFFD unless
 * the ERR_INVALID_CHARS flag asks for ERROR_NO_UNICODE_TRANSLATION.
 */
#include <string.h>

#include "../nt/nt_internal.h"
#include "crt.h"
#include "utf16.h"
#include "win.h"

#define MB_PRECOMPOSED		0x00000001
#define MB_ERR_INVALID_CHARS	0x00000008
#define WC_ERR_INVALID_CHARS	0x00000080

static int fail(DWORD error)
{
	SetLastError(error);
	return 0;
}

/* Whether @n bytes at @s are valid UTF-8 (common/utf16.c's rules). */
static int utf8_valid(const char *s, size_t n)
{
	const uint8_t *p = (const uint8_t *)s;
	uint32_t cp;
	size_t at, len;

	for (at = 0; at < n; at += len) {
		len = ntr_utf8_next(p + at, (__u32)(n - at < 4 ? n - at : 4), &cp);
		/* U+FFFD of one byte stands for an invalid byte. */
		if (cp == 0xFFFD && len == 1)
			return 0;
	}
	return 1;
}

int nttrace_win_MultiByteToWideChar(UINT code_page, DWORD flags, const char *in,
				    int in_bytes, WCHAR *out, int out_chars)
{
	size_t n, need;

	if ((code_page != CP_ACP && code_page != CP_UTF8) || !in || !in_bytes ||
	    in_bytes < -1 || out_chars < 0 || (out_chars && !out) ||
	    (flags & ~(DWORD)(MB_PRECOMPOSED | MB_ERR_INVALID_CHARS)))
		return fail(ERROR_INVALID_PARAMETER);
	n = in_bytes == -1 ? strlen(in) + 1 : (size_t)in_bytes;
	if ((flags & MB_ERR_INVALID_CHARS) && !utf8_valid(in, n))
		return fail(ERROR_NO_UNICODE_TRANSLATION);
	need = nttrace_win_utf8_to_16(NULL, SIZE_MAX, in, n);
	if (need > INT32_MAX)
		return fail(ERROR_INVALID_PARAMETER);
	if (!out_chars)
		return (int)need;
	if (need > (size_t)out_chars)
		return fail(ERROR_INSUFFICIENT_BUFFER);
	return (int)nttrace_win_utf8_to_16(out, need, in, n);
}

int nttrace_win_WideCharToMultiByte(UINT code_page, DWORD flags, const WCHAR *in,
				    int in_chars, char *out, int out_bytes,
				    const char *default_char, BOOL *used_default)
{
	size_t n, at, len, need = 0;
	uint32_t cp;
	char u[4];

	/* Windows refuses a default character for UTF-8: every one converts. */
	if ((code_page != CP_ACP && code_page != CP_UTF8) || !in || !in_chars ||
	    in_chars < -1 || out_bytes < 0 || (out_bytes && !out) || default_char ||
	    used_default || (flags & ~(DWORD)WC_ERR_INVALID_CHARS))
		return fail(ERROR_INVALID_PARAMETER);
	if (in_chars == -1) {
		for (n = 0; in[n]; n++)
			;
		n++;
	} else {
		n = (size_t)in_chars;
	}
	for (at = 0; at < n; at += len) {
		size_t bytes;

		len = nttrace_win_utf16_next(in + at, n - at, &cp);
		if (cp == 0xFFFD && in[at] != 0xFFFD && (flags & WC_ERR_INVALID_CHARS))
			return fail(ERROR_NO_UNICODE_TRANSLATION);
		bytes = nttrace_utf8_put(u, cp);
		if (out_bytes) {
			if (need + bytes > (size_t)out_bytes)
				return fail(ERROR_INSUFFICIENT_BUFFER);
			memcpy(out + need, u, bytes);
		}
		need += bytes;
		if (need > INT32_MAX)
			return fail(ERROR_INVALID_PARAMETER);
	}
	return (int)need;
}
