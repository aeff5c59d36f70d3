// SPDX-License-Identifier: GPL-2.0
/*
 * A TraceLogging (or .NET EventSource) provider's GUID from its name, as
 * WPR's `*Name`, logman's and xperf's providers may give it: ETW's
 * name hash, which Microsoft's TraceLoggingProvider.h documentation
 * describes. SHA-1 over a fixed 16-byte namespace followed by the name in
 * upper case as UTF-16 big-endian; the GUID is the digest's first 16
 * bytes, as a GUID lies in memory, with the version nibble (the high half
 * of byte 7) set to 5. "MyCompany.MyComponent" gives
 * {ce5fa4ea-ab00-5402-8b76-9f76ac858fb5}, the documentation's example.
 *
 * SHA-1 (FIPS 180-4) is written here rather than taken from libcrypto:
 * the 32-bit tool is linked statically and Debian has no i386 libcrypto
 * installed with the project's packages, and hashing a name is all it
 * is used for (no secret depends on it).
 *
 * Upper case: ASCII letters only. .NET upper-cases with the invariant
 * culture, which changes other letters too; a name with letters outside
 * ASCII may hash differently here (providers are named in ASCII in
 * practice).
 */
#include <string.h>

#include "cli.h"

struct sha1 {
	uint32_t h[5];
	uint8_t block[64];
	uint64_t bytes;
};

static uint32_t rol(uint32_t v, int n)
{
	return v << n | v >> (32 - n);
}

static void sha1_block(struct sha1 *s)
{
	uint32_t w[80], a, b, c, d, e, f, k, t;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)s->block[4 * i] << 24 | s->block[4 * i + 1] << 16 |
		       s->block[4 * i + 2] << 8 | s->block[4 * i + 3];
	for (; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	a = s->h[0];
	b = s->h[1];
	c = s->h[2];
	d = s->h[3];
	e = s->h[4];
	for (i = 0; i < 80; i++) {
		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5A827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ED9EBA1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8F1BBCDC;
		} else {
			f = b ^ c ^ d;
			k = 0xCA62C1D6;
		}
		t = rol(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol(b, 30);
		b = a;
		a = t;
	}
	s->h[0] += a;
	s->h[1] += b;
	s->h[2] += c;
	s->h[3] += d;
	s->h[4] += e;
}

static void sha1_byte(struct sha1 *s, uint8_t v)
{
	s->block[s->bytes++ % 64] = v;
	if (s->bytes % 64 == 0)
		sha1_block(s);
}

static void sha1_end(struct sha1 *s, uint8_t out[20])
{
	uint64_t bits = s->bytes * 8;
	int i;

	sha1_byte(s, 0x80);
	while (s->bytes % 64 != 56)
		sha1_byte(s, 0);
	for (i = 7; i >= 0; i--)
		sha1_byte(s, bits >> (8 * i));
	for (i = 0; i < 20; i++)
		out[i] = s->h[i / 4] >> (24 - 8 * (i % 4));
}

/* The next code point of UTF-8 @*p (a bad byte as itself), @*p past it. */
static uint32_t next_char(const char **p)
{
	const uint8_t *s = (const uint8_t *)*p;
	uint32_t c = s[0];
	int n = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0, i;

	if (n)
		c &= 0x3F >> n;
	for (i = 1; i <= n; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*p += 1;
			return s[0];
		}
		c = c << 6 | (s[i] & 0x3F);
	}
	*p += n + 1;
	return c;
}

void cli_provider_name_guid(const char *name, uint8_t guid[16])
{
	static const uint8_t ns[16] = {
		0x48, 0x2C, 0x2D, 0xB2, 0xC3, 0x90, 0x47, 0xC8,
		0x87, 0xF8, 0x1A, 0x15, 0xBF, 0xC1, 0x30, 0xFB,
	};
	static const uint32_t h0[5] = {
		0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0,
	};
	uint8_t digest[20];
	struct sha1 s;
	unsigned int i;

	memset(&s, 0, sizeof(s));
	memcpy(s.h, h0, sizeof(h0));

	for (i = 0; i < sizeof(ns); i++)
		sha1_byte(&s, ns[i]);
	while (*name) {
		uint32_t c = next_char(&name);

		if (c >= 'a' && c <= 'z')
			c -= 'a' - 'A';
		if (c >= 0x10000) {
			/* A surrogate pair, each half big-endian. */
			uint32_t hi = 0xD800 + ((c - 0x10000) >> 10), lo = 0xDC00 + (c & 0x3FF);

			sha1_byte(&s, hi >> 8);
			sha1_byte(&s, hi);
			sha1_byte(&s, lo >> 8);
			sha1_byte(&s, lo);
		} else {
			sha1_byte(&s, c >> 8);
			sha1_byte(&s, c);
		}
	}
	sha1_end(&s, digest);
	memcpy(guid, digest, 16);
	guid[7] = (guid[7] & 0x0F) | 0x50;
}
