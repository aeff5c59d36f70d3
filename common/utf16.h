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

/**
 * ntr_utf8_next() - reads one UTF-8 sequence
 * @s: the sequence
 * @n: the bytes left at @s, at least 1
 * @cp: its code point
 *
 * A byte that begins no valid sequence (RFC 3629: no overlong form, no
 * surrogate, nothing past U+10FFFF, no sequence cut by the end) is taken
 * alone as U+FFFD, the replacement character: invalid UTF-8 becomes one
 * U+FFFD per bad byte.
 *
 * Return: the bytes the sequence takes.
 */
__u32 ntr_utf8_next(const __u8 *s, __u32 n, __u32 *cp);

/**
 * ntr_utf8_to_utf16() - converts UTF-8 to UTF-16LE
 * @out: where, or NULL to count only
 * @max_units: the most 16-bit units to write, without a terminator
 * @s: the UTF-8 text
 * @n: its bytes, ending early at a NUL byte
 *
 * A character that would not fit whole (a surrogate pair needs two) ends
 * the text there.
 *
 * Return: the units written (or counted).
 */
__u32 ntr_utf8_to_utf16(__u8 *out, __u32 max_units, const char *s, __u32 n);

#endif /* NTTRACE_COMMON_UTF16_H */
