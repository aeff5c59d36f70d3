/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * UTF-8 to UTF-16LE, bounded, for the records that carry Windows' WCHAR
 * strings (common/sysrec.c: file names and command lines the kernel has in
 * UTF-8). One copy, built into nttrace.ko and libnttrace: no allocation,
 * no locale.
 */
#ifndef NTTRACE_COMMON_UTF16_H
#define NTTRACE_COMMON_UTF16_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <linux/types.h>
#endif

/*
 * The code point of the UTF-8 sequence at @s (@n bytes left, at least 1)
 * in *@cp, and the bytes it takes. A byte that begins no valid sequence
 * (RFC 3629: no overlong form, no surrogate, nothing past U+10FFFF, no
 * sequence cut by the end) is taken alone as U+FFFD, the replacement
 * character: invalid UTF-8 becomes one U+FFFD per bad byte.
 */
__u32 ntr_utf8_next(const __u8 *s, __u32 n, __u32 *cp);

/*
 * @s (@n bytes of UTF-8, ending early at a NUL byte) as UTF-16LE at @out,
 * at most @max_units 16-bit units, without a terminator; returns the
 * units. A character that would not fit whole (a surrogate pair needs
 * two) ends the text there. @out NULL: only counts.
 */
__u32 ntr_utf8_to_utf16(__u8 *out, __u32 max_units, const char *s, __u32 n);

#endif /* NTTRACE_COMMON_UTF16_H */
