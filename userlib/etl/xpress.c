// SPDX-License-Identifier: LGPL-2.1
/*
 * The decompressor of the buffers of EVENT_TRACE_COMPRESSED_MODE files:
 * Microsoft's "Plain LZ77" (XPRESS), specified in [MS-XCA] section 2.3
 * and 2.4 (the format and the decompression algorithm). Which of the
 * [MS-XCA] formats ETW uses is not documented; Plain LZ77 is what the
 * public reader dissect.etl applies to buffers flagged 0x0040 (its
 * lzxpress module), and it decodes the compressed buffers of the
 * Windows-written files we checked to the exact size their headers give.
 *
 * Written here from the specification: Debian packages no library with
 * Plain LZ77 (wimlib and libmspack have the Huffman and LZX variants).
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
		nflags--;
		if (!(flags >> nflags & 1)) {
			if (ip == in_len) {
				*out_len = op;
				return 0;
			}
			if (op == out_cap)
				return -1;
			out[op++] = in[ip++];
			continue;
		}
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
		/* Byte by byte: a match may overlap what it writes. */
		while (len--) {
			out[op] = out[op - dist];
			op++;
		}
	}
}
