// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the Plain LZ77 decompressor and compressor of
 * compressed ETL buffers (userlib/etl/xpress.c).
 *
 * Input: two bytes that choose the output's room (0 to 65535 bytes: a
 * buffer's records never need more than its size), then the compressed
 * data. The output goes into a heap block of exactly that room, so that
 * AddressSanitizer sees a byte written past it; a match that reaches
 * before the output's start would read before the block. What the
 * function promises is checked (abort() when not): success writes at most
 * the room and says how much; failure says 0. Decompressing the same input
 * twice gives the same bytes. The compressor round-trips: the input
 * (after its two bytes), compressed into as much room as [MS-XCA]'s
 * worst case needs (a flag word each 32 literals), decompresses to itself;
 * into less room than that it either fits, and round-trips, or fails
 * saying 0.
 *
 * Seeds: tests/fuzz/corpus/xpress_fuzz/ (tests/fuzz/mkcorpus.c: the
 * compressed buffers of its Windows-layout files, and the edge cases of
 * the length encoding).
 */
#include <stdlib.h>
#include <string.h>

#include "../../userlib/etl/xpress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t room, got, again;
	uint8_t *out, *out2;
	int ret;

	if (size < 2)
		return 0;
	room = data[0] | (size_t)data[1] << 8;
	out = malloc(room ? room : 1);
	out2 = malloc(room ? room : 1);
	if (!out || !out2)
		abort();
	ret = nttrace_xpress_decompress(data + 2, size - 2, out, room, &got);
	if (ret && got)
		abort();
	if (!ret && got > room)
		abort();
	if (nttrace_xpress_decompress(data + 2, size - 2, out2, room, &again) != ret ||
	    again != got || memcmp(out, out2, got))
		abort();
	free(out);
	free(out2);

	{
		size_t n = size - 2, worst = n + 4 * (n / 32 + 2), zn, bn;
		uint8_t *z = malloc(worst), *back = malloc(n ? n : 1);

		if (!z || !back)
			abort();
		if (nttrace_xpress_compress(data + 2, n, z, worst, &zn) ||
		    nttrace_xpress_decompress(z, zn, back, n, &bn) || bn != n ||
		    memcmp(back, data + 2, n))
			abort();
		/* Less room: @room's share of the worst case. */
		ret = nttrace_xpress_compress(data + 2, n, z, worst * room / 65536, &zn);
		if (ret ? zn != 0 : (nttrace_xpress_decompress(z, zn, back, n, &bn) || bn != n ||
				     memcmp(back, data + 2, n)))
			abort();
		free(z);
		free(back);
	}
	return 0;
}
