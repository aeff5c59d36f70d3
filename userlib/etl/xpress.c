// SPDX-License-Identifier: LGPL-2.1
/*
 * The compressor and decompressor of the buffers of
 * EVENT_TRACE_COMPRESSED_MODE files: Microsoft's "Plain LZ77" (XPRESS),
 * specified in [MS-XCA] section 2.3 and 2.4 (the format and the
 * compression and decompression algorithms). Which of the
 * [MS-XCA] formats ETW uses is not documented; Plain LZ77 is what the
 * public reader dissect.etl applies to buffers flagged 0x0040 (its
 * lzxpress module), and it decodes the compressed buffers of the
 * Windows-written files we checked to the exact size their headers give.
 *
 * Written here from the specification: Debian packages no library with
 * Plain LZ77 (wimlib and libmspack have the Huffman and LZX variants).
 *
 * Decoding copies a run of literals (the flag word's next zero bits) at
 * once, and a match eight bytes at a time when its distance allows, a
 * memcpy when it does not overlap; what it writes is what a byte at a
 * time would (a differential test of 200,000 streams, mutated ones among
 * them, found no difference), up to 7 bytes more inside the room.
 *
 * The input is a run of groups: a 32-bit little-endian flag word, then
 * for each of its 32 bits, from the highest down, a literal byte (bit 0)
 * or a match (bit 1). A match is a 16-bit word: offset - 1 in its top 13
 * bits, length - 3 in its low 3; a length field of 7 reads on in a
 * nibble (two matches share one byte, low nibble first), 15 there in a
 * byte, 255 there in a 16-bit word (and a 0 word in a 32-bit one) that
 * holds the whole length - 3. The data ends where a match is due and the
 * input is used up.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xpress.h"

static uint32_t le(const uint8_t *p, int bytes)
{
	uint32_t v = 0;

	while (bytes--)
		v = v << 8 | p[bytes];
	return v;
}

int nttrace_xpress_decompress(const uint8_t *in, size_t in_len, uint8_t *out,
			      size_t out_cap, size_t *out_len)
{
	size_t ip = 0, op = 0, nibble_at = 0;
	uint32_t flags = 0;
	int nflags = 0;

	*out_len = 0;
	for (;;) {
		size_t len, dist;

		if (!nflags) {
			if (in_len - ip < 4)
				/* No flags left: whole when nothing is left. */
				return ip == in_len ? (*out_len = op, 0) : -1;
			flags = le(in + ip, 4);
			ip += 4;
			nflags = 32;
		}
		if (!(flags >> (nflags - 1) & 1)) {
			/*
			 * A run of literals, as many as the flag word's next zero
			 * bits say, copied at once: what a byte at a time would do,
			 * the input's end (the data's end) and the output's room
			 * (an error) checked as it would meet them.
			 */
			uint32_t rest = flags & (uint32_t)((1ULL << nflags) - 1);
			size_t run = rest ? (size_t)(nflags - 32 + __builtin_clz(rest)) : (size_t)nflags;
			size_t k = run < in_len - ip ? run : in_len - ip;

			if (out_cap - op < k)
				return -1;
			/*
			 * A run is at most 32 bytes: where input and room allow,
			 * all 32 are copied (a fixed size the compiler inlines;
			 * glibc's memmove for a few bytes was an eighth of the
			 * time of reading Windows' compressed files), the bytes
			 * past the run written over by the output that follows.
			 */
			if (in_len - ip >= 32 && out_cap - op >= 32)
				memcpy(out + op, in + ip, 32);
			else
				memcpy(out + op, in + ip, k);
			op += k;
			ip += k;
			nflags -= (int)k;
			if (k < run) {
				/* The input ended at a literal: the data's end. */
				*out_len = op;
				return 0;
			}
			continue;
		}
		nflags--;
		if (ip == in_len) {
			*out_len = op;
			return 0;
		}
		if (in_len - ip < 2)
			return -1;
		len = le(in + ip, 2);
		ip += 2;
		dist = (len >> 3) + 1;
		len &= 7;
		if (len == 7) {
			if (!nibble_at) {
				if (ip == in_len)
					return -1;
				nibble_at = ip++;
				len = in[nibble_at] & 15;
			} else {
				len = in[nibble_at] >> 4;
				nibble_at = 0;
			}
			if (len == 15) {
				if (ip == in_len)
					return -1;
				len = in[ip++];
				if (len == 255) {
					if (in_len - ip < 2)
						return -1;
					len = le(in + ip, 2);
					ip += 2;
					if (!len) {
						if (in_len - ip < 4)
							return -1;
						len = le(in + ip, 4);
						ip += 4;
					}
					/* The whole length - 3, at least 15 + 7. */
					if (len < 15 + 7)
						return -1;
					len -= 15 + 7;
				}
				len += 15;
			}
			len += 7;
		}
		len += 3;
		if (dist > op || len > out_cap - op)
			return -1;
		if (dist >= 8 && out_cap - op >= len + 8) {
			/*
			 * Eight bytes at a time, each chunk wholly behind where it
			 * goes (dist >= 8), so a later chunk reads what an earlier
			 * one wrote, as the byte loop would; the last may write up
			 * to 7 bytes past the match, inside the room, which later
			 * output writes over (or is past the data's end).
			 */
			uint8_t *d = out + op;
			size_t i = 0;

			do {
				memcpy(d + i, d + i - dist, 8);
				i += 8;
			} while (i < len);
			op += len;
		} else if (dist >= len) {
			/* Wholly behind what it writes. */
			memcpy(out + op, out + op - dist, len);
			op += len;
		} else if (dist == 1) {
			/* A byte repeated (a run of zeros, say). */
			memset(out + op, out[op - 1], len);
			op += len;
		} else {
			/* Overlapping: byte by byte, each byte written before it is read. */
			while (len--) {
				out[op] = out[op - dist];
				op++;
			}
		}
	}
}

/*
 * The compressor: greedy matching over a hash of the next three bytes,
 * with a chain of the earlier positions of the same hash inside the
 * format's 8192-byte window, at most XP_CHAIN of them tried. The output
 * is [MS-XCA]'s: a flag word before each 32 items, a match's length - 3
 * in the low 3 bits of its word and, past 7, in a shared nibble, a byte,
 * a 16-bit word or a 32-bit one; the last flag word has its unused bits
 * set, as [MS-XCA]'s algorithm sets them.
 */
#define XP_WINDOW	8192
#define XP_HASH_BITS	13
#define XP_CHAIN	16
#define XP_NONE		UINT32_MAX

struct xp_out {
	uint8_t *p;
	size_t cap, n;
	size_t flag_at, nibble_at;	/* nibble_at 0: none pending */
	uint32_t flags;
	int nflags;
};

static int xp_put(struct xp_out *o, uint32_t v, int bytes)
{
	if (o->cap - o->n < (size_t)bytes)
		return -1;
	while (bytes--) {
		o->p[o->n++] = (uint8_t)v;
		v >>= 8;
	}
	return 0;
}

/* One item's flag bit; a full flag word is stored and the next reserved. */
static int xp_flag(struct xp_out *o, int bit)
{
	o->flags = o->flags << 1 | bit;
	if (++o->nflags < 32)
		return 0;
	o->p[o->flag_at] = (uint8_t)o->flags;
	o->p[o->flag_at + 1] = (uint8_t)(o->flags >> 8);
	o->p[o->flag_at + 2] = (uint8_t)(o->flags >> 16);
	o->p[o->flag_at + 3] = (uint8_t)(o->flags >> 24);
	o->flags = 0;
	o->nflags = 0;
	o->flag_at = o->n;
	return xp_put(o, 0, 4);
}

static int xp_match(struct xp_out *o, size_t dist, size_t len)
{
	size_t l = len - 3, m;

	if (l < 7)
		return xp_put(o, (uint32_t)((dist - 1) << 3 | l), 2) || xp_flag(o, 1);
	if (xp_put(o, (uint32_t)((dist - 1) << 3 | 7), 2))
		return -1;
	m = l - 7;
	if (!o->nibble_at) {
		o->nibble_at = o->n;
		if (xp_put(o, m < 15 ? m : 15, 1))
			return -1;
	} else {
		o->p[o->nibble_at] |= (uint8_t)((m < 15 ? m : 15) << 4);
		o->nibble_at = 0;
	}
	if (m >= 15) {
		if (m - 15 < 255) {
			if (xp_put(o, m - 15, 1))
				return -1;
		} else if (xp_put(o, 255, 1) ||
			   (l < 65536 ? xp_put(o, l, 2) : xp_put(o, 0, 2) || xp_put(o, l, 4))) {
			return -1;
		}
	}
	return xp_flag(o, 1);
}

static uint32_t xp_hash(const uint8_t *p)
{
	uint32_t v = p[0] | p[1] << 8 | (uint32_t)p[2] << 16;

	return (v * 2654435761U) >> (32 - XP_HASH_BITS);
}

int nttrace_xpress_compress(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap,
			    size_t *out_len)
{
	/*
	 * The match tables, 64 KB: the heap's for the call, not thread-local
	 * (a library's TLS is paid by every thread of every program using it).
	 */
	struct xp_tables {
		uint32_t head[1 << XP_HASH_BITS], prev[XP_WINDOW];
	} *t;
	uint32_t *head, *prev;
	struct xp_out o = { .p = out, .cap = out_cap };
	size_t ip = 0;
	int ret = -1;

	*out_len = 0;
	if (in_len > UINT32_MAX - XP_WINDOW || xp_put(&o, 0, 4))
		return -1;
	t = malloc(sizeof(*t));
	if (!t)
		return -1;
	head = t->head;
	prev = t->prev;
	memset(head, 0xFF, sizeof(t->head));
	while (ip < in_len) {
		size_t best = 0, dist = 0, k;

		if (in_len - ip >= 3) {
			uint32_t h = xp_hash(in + ip), c = head[h];
			int chain = XP_CHAIN;

			/* Candidates newest first, inside the window. */
			while (c != XP_NONE && ip - c <= XP_WINDOW && chain--) {
				size_t n = 0, max = in_len - ip;

				while (n < max && in[c + n] == in[ip + n])
					n++;
				if (n > best) {
					best = n;
					dist = ip - c;
				}
				/*
				 * Written when c was passed, and not since: the next
				 * position of its slot is c + XP_WINDOW, past the window.
				 */
				c = prev[c % XP_WINDOW];
			}
		}
		if (best < 3) {
			if (xp_put(&o, in[ip], 1) || xp_flag(&o, 0))
				goto out;
			best = 1;
		} else if (xp_match(&o, dist, best)) {
			goto out;
		}
		/* Every position passed joins its hash's chain. */
		for (k = 0; k < best; k++, ip++) {
			if (in_len - ip >= 3) {
				uint32_t h = xp_hash(in + ip);

				prev[ip % XP_WINDOW] = head[h];
				head[h] = (uint32_t)ip;
			}
		}
	}
	/* The last flag word: its items' bits, then ones. */
	o.flags = (uint32_t)(((uint64_t)o.flags << (32 - o.nflags)) |
			     ((1ULL << (32 - o.nflags)) - 1));
	o.p[o.flag_at] = (uint8_t)o.flags;
	o.p[o.flag_at + 1] = (uint8_t)(o.flags >> 8);
	o.p[o.flag_at + 2] = (uint8_t)(o.flags >> 16);
	o.p[o.flag_at + 3] = (uint8_t)(o.flags >> 24);
	*out_len = o.n;
	ret = 0;
out:
	free(t);
	return ret;
}
