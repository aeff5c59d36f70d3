/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A TraceLogging encoder for tests: event metadata, provider traits and
 * payload bytes as TraceLogging lays them out (microsoft/tracelogging,
 * TraceLoggingDynamic.h's metadata builders; userlib/tdh/tdh_tlg.c
 * says the format), and an EVENT_RECORD that carries them as ProcessTrace
 * would: the EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL and _PROV_TRAITS items.
 * For tests/host/tdh_test.c and the seeds of tests/fuzz/tdh_fuzz.c.
 */
#ifndef NTTRACE_TLG_ENCODE_H
#define NTTRACE_TLG_ENCODE_H

#include <string.h>

#include <nttrace/tdh.h>

/* TraceLogging's InType and OutType bits. */
#define TLG_CCOUNT	0x20
#define TLG_VCOUNT	0x40
#define TLG_CUSTOM	0x60
#define TLG_CHAIN	0x80

struct tlg_buf {
	uint8_t b[8192];
	size_t n;
};

static void tlg_u8(struct tlg_buf *m, uint8_t v)
{
	if (m->n < sizeof(m->b))
		m->b[m->n++] = v;
}

static void tlg_u16(struct tlg_buf *m, uint16_t v)
{
	tlg_u8(m, v & 0xFF);
	tlg_u8(m, v >> 8);
}

static void tlg_u32(struct tlg_buf *m, uint32_t v)
{
	tlg_u16(m, v & 0xFFFF);
	tlg_u16(m, v >> 16);
}

static void tlg_u64(struct tlg_buf *m, uint64_t v)
{
	tlg_u32(m, (uint32_t)v);
	tlg_u32(m, v >> 32);
}

static void tlg_bytes(struct tlg_buf *m, const void *p, size_t n)
{
	const uint8_t *s = p;

	while (n--)
		tlg_u8(m, *s++);
}

/* A string with its NUL, as UTF-8 (names, ANSI fields) or UTF-16 (@wide). */
static void tlg_str(struct tlg_buf *m, const char *s, int wide)
{
	do {
		if (wide)
			tlg_u16(m, (unsigned char)*s);
		else
			tlg_u8(m, *s);
	} while (*s++);
}

/* 28 bits of tags in 7-bit groups, the most significant first. */
static void tlg_tags(struct tlg_buf *m, uint32_t tags)
{
	for (;;) {
		uint8_t v = tags >> 21 & 0x7F;

		if (!(tags & 0x1FFFFF)) {
			tlg_u8(m, v);
			return;
		}
		tlg_u8(m, v | 0x80);
		tags <<= 7;
	}
}

/* The event: size (patched by tlg_end), tags, name. */
static void tlg_begin(struct tlg_buf *m, const char *name, uint32_t tags)
{
	m->n = 0;
	tlg_u16(m, 0);
	tlg_tags(m, tags);
	tlg_str(m, name, 0);
}

/* A field: @in with its count bits; an OutType byte when @out or @tags. */
static void tlg_field(struct tlg_buf *m, const char *name, uint8_t in, uint8_t out, uint32_t tags)
{
	tlg_str(m, name, 0);
	if (!out && !tags) {
		tlg_u8(m, in);
		return;
	}
	tlg_u8(m, in | TLG_CHAIN);
	tlg_u8(m, out | (tags ? TLG_CHAIN : 0));
	if (tags)
		tlg_tags(m, tags);
}

static void tlg_end(struct tlg_buf *m)
{
	m->b[0] = m->n & 0xFF;
	m->b[1] = m->n >> 8;
}

/* Provider traits: size, name, no traits. */
static void tlg_provider(struct tlg_buf *m, const char *name)
{
	m->n = 0;
	tlg_u16(m, 0);
	tlg_str(m, name, 0);
	tlg_end(m);
}

struct tlg_event {
	EVENT_RECORD er;
	EVENT_HEADER_EXTENDED_DATA_ITEM x[2];
};

/* @meta and @traits (either may be NULL) and @data, in @e. */
static void tlg_event(struct tlg_event *e, const struct tlg_buf *meta, const struct tlg_buf *traits,
		      const struct tlg_buf *data, int ptr32)
{
	static const GUID provider = { 0x3970f9cf, 0x2c0c, 0x4f11,
				       { 0xb1, 0xcc, 0xe3, 0xa1, 0xe9, 0x95, 0x88, 0x33 } };
	USHORT n = 0;

	memset(e, 0, sizeof(*e));
	e->er.EventHeader.Size = sizeof(EVENT_HEADER);
	e->er.EventHeader.Flags = EVENT_HEADER_FLAG_EXTENDED_INFO |
		(ptr32 ? EVENT_HEADER_FLAG_32_BIT_HEADER : EVENT_HEADER_FLAG_64_BIT_HEADER);
	e->er.EventHeader.ProviderId = provider;
	e->er.EventHeader.EventDescriptor.Level = 5;
	e->er.EventHeader.EventDescriptor.Channel = 11;	/* TraceLogging's */
	if (meta) {
		e->x[n].ExtType = EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL;
		e->x[n].DataSize = meta->n;
		e->x[n++].DataPtr = (uintptr_t)meta->b;
	}
	if (traits) {
		e->x[n].ExtType = EVENT_HEADER_EXT_TYPE_PROV_TRAITS;
		e->x[n].DataSize = traits->n;
		e->x[n++].DataPtr = (uintptr_t)traits->b;
	}
	e->er.ExtendedDataCount = n;
	e->er.ExtendedData = n ? e->x : NULL;
	e->er.UserData = data ? (void *)data->b : NULL;
	e->er.UserDataLength = data ? data->n : 0;
}

#endif /* NTTRACE_TLG_ENCODE_H */
