/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The lowest layer of the library (nt/), shared by every folder above it:
 * reading little-endian fields, writing UTF-8, copying the caller's
 * memory safely, FILETIME to SYSTEMTIME. Not installed.
 */
#ifndef NTTRACE_NT_INTERNAL_H
#define NTTRACE_NT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <nttrace/evntrace.h>

/*
 * The little-endian unsigned integer of @bytes bytes (1 to 8) at @p, which
 * need not be aligned: what files and records hold. One load on a
 * little-endian machine (the ETL reader reads a few for every event).
 */
static inline uint64_t nttrace_get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&v, p, bytes);
#else
	while (bytes--)
		v = v << 8 | p[bytes];
#endif
	return v;
}

/*
 * Code point @c (at most U+10FFFF, no surrogate) as UTF-8 at @out: 1 to 4
 * bytes; their count.
 */
static inline unsigned int nttrace_utf8_put(char *out, uint32_t c)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3F));
	out[2] = (char)(0x80 | (c >> 6 & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

/*
 * memcpy that returns -EFAULT for an unreadable @src, the caller's memory
 * (@dst is the library's own); no signal handler (safecopy.c).
 */
int nttrace_safe_copy(void *dst, const void *src, size_t len);
/* The same into the caller's @dst: -EFAULT if it is not writable. */
int nttrace_safe_store(void *dst, const void *src, size_t len);
/* What the copies did so far, for the tests. */
struct nttrace_safe_copy_stats {
	unsigned long rereads;		/* /proc/self/maps read again */
	unsigned long kernel_copies;	/* copies the kernel made (a bad address among them) */
	uint64_t reread_wait_ns;	/* until a miss may read the map again; 0: now */
	int guard_scan;			/* re-reads find MADV_GUARD_INSTALL regions */
};
void nttrace_safe_copy_stats(struct nttrace_safe_copy_stats *st);

/*
 * FILETIME @ft (100 ns units since 1601-01-01 UTC) as a SYSTEMTIME in
 * *@st: UTC if @utc, else local time (systemtime.c).
 */
void nttrace_systemtime(uint64_t ft, int utc, SYSTEMTIME *st);

#endif /* NTTRACE_NT_INTERNAL_H */
