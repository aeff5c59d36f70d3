// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's UTF-16 <-> UTF-8 steps, which its printf, stdio and
 * MultiByteToWideChar share (crt.h). They stand on the library's own
 * converters (common/utf16.c, nttrace_utf8_put) rather than iconv, whose
 * conversions depend on the locale and, in a static program, on gconv
 * modules found at run time.
 */
#include <string.h>

#include "../nt/nt_internal.h"
#include "crt.h"
#include "utf16.h"

/* The code point at @s (@n units, at least 1); an unpaired surrogate is U+FFFD. */
size_t nttrace_win_utf16_next(const WCHAR *s, size_t n, uint32_t *cp)
{
	if (s[0] >= 0xD800 && s[0] <= 0xDBFF && n > 1 &&
	    s[1] >= 0xDC00 && s[1] <= 0xDFFF) {
		*cp = 0x10000 + ((s[0] - 0xD800) << 10) + (s[1] - 0xDC00);
		return 2;
	}
	*cp = s[0] >= 0xD800 && s[0] <= 0xDFFF ? 0xFFFD : s[0];
	return 1;
}

/*
 * @n bytes of UTF-8 at @s as UTF-16 at @out (NULL: counts only), at most
 * @max units, a pair whole or not at all; returns the units. A NUL the
 * text holds (%c of 0) is a unit too.
 */
size_t nttrace_win_utf8_to_16(WCHAR *out, size_t max, const char *s, size_t n)
{
	size_t units = 0, seg, full, got;

	while (n && units < max) {
		seg = strnlen(s, n);
		if (!seg) {
			if (out)
				out[units] = 0;
			units++;
			seg = 1;
		} else {
			/* The output's ints keep @seg and @max within 32 bits. */
			full = ntr_utf8_to_utf16(NULL, UINT32_MAX, s, seg);
			got = max - units < full ? max - units : full;
			if (out)
				got = ntr_utf8_to_utf16((__u8 *)(out + units), got, s, seg);
			units += got;
			if (got < full)
				break;
		}
		s += seg;
		n -= seg;
	}
	return units;
}
