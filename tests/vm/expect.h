/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tests' own encoder of message events, written from Windows' record
 * layouts without the library's or the kernel's code or structs: a record
 * is built byte by byte, little-endian, and compared whole with what was
 * traced. Also a walker over buffers (the WMI_BUFFER_HEADER fields it needs
 * are read at Windows' offsets).
 */
#ifndef NTTRACE_TEST_EXPECT_H
#define NTTRACE_TEST_EXPECT_H

#include <stdint.h>
#include <string.h>

struct expect {
	uint16_t number;
	uint32_t flags;		/* the caller's MessageFlags (low 6 bits kept) */
	int ptr32;		/* 32-bit caller: POINTER32, else POINTER64 */
	const uint8_t *guid;	/* 16 bytes (GUID) or 4 (component ID) */
	uint32_t seq;		/* the values the event must carry */
	uint64_t ts;
	uint32_t tid, pid;
	const uint8_t *data;
	uint32_t len;
};

static inline uint8_t *put_le(uint8_t *p, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		*p++ = (uint8_t)(v >> (8 * i));
	return p;
}

static inline uint64_t get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/*
 * A record's size, as a buffer's walk needs it: a kernel header's
 * (SYSTEM32/64, COMPACT32/64, PERFINFO32/64: marker flags 0xC0) at offset
 * 4, any other record's first 16 bits.
 */
static inline uint32_t record_size(const uint8_t *p)
{
	switch (p[3] == 0xC0 ? p[2] : 0) {
	case 1: case 2: case 3: case 4: case 16: case 17:
		return get_le(p + 4, 2);
	}
	return get_le(p, 2);
}

/* Offsets of the items in a record with these flags; -1 when absent. */
struct expect_layout {
	int seq, id, id_len, ts, ids, data;
};

static inline struct expect_layout expect_layout(uint32_t flags)
{
	struct expect_layout l = { -1, -1, 0, -1, -1, 0 };
	int at = 8;

	if (flags & 0x01) {		/* SEQUENCE */
		l.seq = at;
		at += 4;
	}
	if (flags & 0x04) {		/* COMPONENTID, which wins over GUID */
		l.id = at;
		l.id_len = 4;
	} else if (flags & 0x02) {	/* GUID */
		l.id = at;
		l.id_len = 16;
	}
	at += l.id_len;
	if (flags & (0x08 | 0x10)) {	/* TIMESTAMP, PERFORMANCE_TIMESTAMP */
		l.ts = at;
		at += 8;
	}
	if (flags & 0x20) {		/* SYSTEMINFO */
		l.ids = at;
		at += 8;
	}
	l.data = at;
	return l;
}

/* Encode @e into @out; returns the record's size (before padding). */
static inline uint32_t expect_encode(const struct expect *e, uint8_t *out)
{
	uint32_t f = e->flags & 0x3F;
	struct expect_layout l = expect_layout(f);
	uint32_t size = l.data + e->len;
	uint8_t *p = out;

	p = put_le(p, size, 2);
	*p++ = 0;			/* Reserved */
	*p++ = 0x90;			/* NTTRACE_TRACE_HEADER_FLAG | NTTRACE_TRACE_MESSAGE */
	p = put_le(p, e->number, 2);
	p = put_le(p, f | (e->ptr32 ? 0x40 : 0x80), 2);
	if (l.seq >= 0)
		p = put_le(p, e->seq, 4);
	if (l.id >= 0) {
		memcpy(p, e->guid, l.id_len);
		p += l.id_len;
	}
	if (l.ts >= 0)
		p = put_le(p, (f & 0x08) ? e->ts : 0, 8);
	if (l.ids >= 0) {
		p = put_le(p, e->tid, 4);
		p = put_le(p, e->pid, 4);
	}
	memcpy(p, e->data, e->len);
	return size;
}

/*
 * Call @fn for each record of a buffer, by the 16-bit sizes, up to the
 * header's SavedOffset (0x04); returns the count, or -1 if a record runs
 * past it or the padding after a record is not zero.
 */
typedef void (*expect_record_fn)(void *ctx, const uint8_t *rec, uint32_t size);

static inline int expect_walk(const uint8_t *buf, expect_record_fn fn, void *ctx)
{
	uint32_t end = get_le(buf + 0x04, 4), off = 0x48;
	int n = 0;

	while (off < end) {
		uint32_t size = get_le(buf + off, 2), alen = (size + 7) & ~7u, i;

		if (size < 8 || off + alen > end)
			return -1;
		for (i = size; i < alen; i++)
			if (buf[off + i])
				return -1;
		fn(ctx, buf + off, size);
		off += alen;
		n++;
	}
	return n;
}

/*
 * The WMI_BUFFER_HEADER fields a hand-made buffer of @size bytes needs,
 * at their offsets: records end at @end (SavedOffset, CurrentOffset,
 * Offset), TimeStamp @ts, SequenceNumber @seq, ClockType/Frequency word
 * @ctf, ProcessorNumber @cpu, BufferFlag @flags. The rest is left as is.
 */
static inline void expect_buffer_header(uint8_t *b, uint32_t size, uint32_t end,
					uint64_t ts, uint64_t seq, uint64_t ctf,
					unsigned int cpu, uint16_t flags)
{
	put_le(b + 0x00, size, 4);
	put_le(b + 0x04, end, 4);
	put_le(b + 0x08, end, 4);
	put_le(b + 0x10, ts, 8);
	put_le(b + 0x18, seq, 8);
	put_le(b + 0x20, ctf, 8);
	b[0x28] = (uint8_t)cpu;
	put_le(b + 0x30, end, 4);
	put_le(b + 0x34, flags, 2);
}

#endif /* NTTRACE_TEST_EXPECT_H */
