/* SPDX-License-Identifier: LGPL-2.1 */
/* The Plain LZ77 ([MS-XCA]) compressor and decompressor of compressed ETL buffers. */
#ifndef NTTRACE_XPRESS_H
#define NTTRACE_XPRESS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decompress the @in_len bytes at @in into @out (at most @out_cap bytes):
 * 0 and *@out_len the bytes written, or -1 when the input is malformed
 * (a match before the start of the output, a field cut short) or would
 * write more than @out_cap bytes; *@out_len is then 0. Reads nothing
 * outside @in, writes nothing outside @out (the bytes past *@out_len may
 * have been written too).
 */
int nttrace_xpress_decompress(const uint8_t *in, size_t in_len, uint8_t *out,
			      size_t out_cap, size_t *out_len);

/*
 * Compress the @in_len bytes at @in into @out (at most @out_cap bytes):
 * 0 and *@out_len the bytes written, which nttrace_xpress_decompress()
 * turns back into @in; -1 when they do not fit in @out_cap, or there is no
 * memory for its 64 KB of match tables (*@out_len is then 0). Reads
 * nothing outside @in, writes nothing outside @out.
 */
int nttrace_xpress_compress(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap,
			    size_t *out_len);

#endif /* NTTRACE_XPRESS_H */
