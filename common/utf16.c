// SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1
/*
 * The UTF-8 to UTF-16LE writer of common/utf16.h. Built into nttrace.ko
 * (Kbuild) and libnttrace (Makefile).
 */
#ifdef __KERNEL__
#include <kunit/visibility.h>
#include <linux/export.h>
#else
#define EXPORT_SYMBOL_IF_KUNIT(sym) _Static_assert(1, #sym)
#endif

#include "utf16.h"

#define NTR_REPLACEMENT	0xFFFD

__u32 ntr_utf8_next(const __u8 *s, __u32 n, __u32 *cp)
{
	static const __u32 min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	__u32 len, i, c;

	*cp = NTR_REPLACEMENT;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		len = 2;
		c = s[0] & 0x1F;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		len = 3;
		c = s[0] & 0x0F;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 1;
	}
	if (len > n)
		return 1;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 1;
		c = c << 6 | (s[i] & 0x3F);
	}
	if (c < min[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 1;
	*cp = c;
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_utf8_next);

static void put16(__u8 *out, __u32 at, __u32 u)
{
	out[2 * at] = (__u8)u;
	out[2 * at + 1] = (__u8)(u >> 8);
}

__u32 ntr_utf8_to_utf16(__u8 *out, __u32 max_units, const char *s, __u32 n)
{
	const __u8 *p = (const __u8 *)s;
	__u32 units = 0, cp, len;

	while (n && *p) {
		len = ntr_utf8_next(p, n, &cp);
		if (cp >= 0x10000) {
			if (max_units - units < 2)
				break;
			if (out) {
				cp -= 0x10000;
				put16(out, units, 0xD800 | cp >> 10);
				put16(out, units + 1, 0xDC00 | (cp & 0x3FF));
			}
			units += 2;
		} else {
			if (units == max_units)
				break;
			if (out)
				put16(out, units, cp);
			units++;
		}
		p += len;
		n -= len;
	}
	return units;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_utf8_to_utf16);
