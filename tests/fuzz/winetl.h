/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ETL files laid out as Windows writes them, built byte by byte from
 * Windows' layouts of the file's buffers and records without the library's
 * writer: the fixtures that tests/vm/winetl_test.c reads back through
 * OpenTrace/ProcessTrace and compares field by field, and seeds of the
 * libFuzzer corpus (tests/fuzz/mkcorpus.c).
 *
 * A file is built in memory (struct wfile): the header buffer, then data
 * buffers, each record appended to the open buffer. As each event is added
 * it is also noted (struct wexp) as ProcessTrace must deliver it, so that
 * a reader of the file knows what to expect. The kinds:
 *
 *   WF_KERNEL64    PointerSize 8, QPC at 10 MHz: the header event, an
 *                  EventTrace record after it in buffer 0, then on two CPUs
 *                  full, compact and perfinfo kernel records (one with a
 *                  PEBS index and two PMC counters), an EventWrite, a
 *                  TraceMessage and a TraceEvent record, and one record of
 *                  a header type ProcessTrace does not present
 *                  (WNODE_HEADER, 0x0E), counted and not delivered
 *   WF_KERNEL32    PointerSize 4, the 32-bit header event (0xC0010002) and
 *                  TRACE_LOGFILE_HEADER, and the 32-bit header types
 *   WF_COMPRESSED  EVENT_TRACE_COMPRESSED_MODE: buffer 0 of 0x400 bytes,
 *                  the data buffers compressed (Plain LZ77, each its own
 *                  size on disk), one of them stored plain
 *   WF_CIRCULAR    a circular file: the buffers out of sequence order in
 *                  the file, and BuffersWritten saying more than are there
 *   WF_SYSTIME     the system-time clock (ReservedFlags 2)
 *   WF_CYCLES      the CPU-cycle clock (ReservedFlags 3, CpuSpeedInMHz)
 */
#ifndef NTTRACE_TEST_WINETL_H
#define NTTRACE_TEST_WINETL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../vm/expect.h"

enum wkind { WF_KERNEL64, WF_KERNEL32, WF_COMPRESSED, WF_CIRCULAR, WF_SYSTIME, WF_CYCLES,
	     WF_KINDS };

static const char *const wkind_name[WF_KINDS] = {
	"kernel64", "kernel32", "compressed", "circular", "systime", "cycles",
};

#define WF_BUF		4096	/* the logger's buffer size */
#define WF_MAX_EXP	64
#define WF_START	133000000000000000ULL	/* StartTime: 2022-06-19 */
#define WF_HTS		5000000ULL		/* the header event's time stamp */
#define WF_MHZ		3000

/* The GUIDs of the groups used, as Windows defines them (Data1 first). */
#define WG_EVENTTRACE	0x68fdd900, 0x4a3e, 0x11d1, { 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3 }
#define WG_PROCESS	0x3d6fa8d0, 0xfe05, 0x11d0, { 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c }
#define WG_THREAD	0x3d6fa8d1, 0xfe05, 0x11d0, { 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c }
#define WG_PERFINFO	0xce1dbfb4, 0x137e, 0x4da6, { 0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc }
#define WG_IMAGELOAD	0x2cb15d1d, 0x5fc1, 0x11d2, { 0xab, 0xe1, 0x00, 0xa0, 0xc9, 0x11, 0xf5, 0x18 }

/* A GUID as Windows lays it out in memory and in files. */
struct wguid {
	uint32_t d1;
	uint16_t d2, d3;
	uint8_t d4[8];
};

/* An event as ProcessTrace must deliver it. */
struct wexp {
	struct wguid provider;
	uint16_t id, flags;	/* EVENT_HEADER_FLAG_* but PROCESSOR_INDEX */
	uint8_t opcode, version, level;
	uint32_t tid, pid, ktime, utime;
	uint64_t ts;		/* raw */
	uint16_t cpu;
	uint32_t data_len;
	uint8_t seed;		/* data byte i is seed + i; 0: not checked */
	int pebs, npmc;		/* extended items: PEBS index, PMC counters */
	uint64_t pebs_value, pmc[2];
};

struct wfile {
	enum wkind kind;
	uint8_t *b;
	size_t len, cap;
	uint32_t psz, clock;
	size_t open_at;		/* the open buffer's offset, or (size_t)-1 */
	uint32_t used;		/* bytes used in it */
	uint16_t open_cpu;
	int open_z;		/* it is to be compressed */
	uint64_t seq;
	struct wexp exp[WF_MAX_EXP];
	unsigned int nexp, undelivered, buffers;
	uint64_t ts;		/* the next event's time stamp */
};

static inline void wf_room(struct wfile *w, size_t need)
{
	if (w->len + need <= w->cap)
		return;
	w->cap = 2 * (w->len + need);
	w->b = realloc(w->b, w->cap);
	if (!w->b)
		abort();
}

static inline void wf_payload(uint8_t *p, uint32_t len, uint8_t seed)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i);
}

/*
 * WMI_BUFFER_HEADER (0x48 bytes) at @h: @disk bytes on disk, records up
 * to @end, CPU @cpu, @flags, @type.
 */
static inline void wf_buffer_header(uint8_t *h, uint32_t disk, uint32_t end, uint64_t seq,
				    uint16_t cpu, uint16_t flags, uint16_t type, uint64_t ts)
{
	memset(h, 0, 0x48);
	expect_buffer_header(h, disk, end, ts, seq, 0, 0, flags);
	put_le(h + 0x28, cpu, 2);		/* ProcessorIndex (PROC_INDEX) */
	put_le(h + 0x2A, 0x20, 2);		/* LoggerId */
	put_le(h + 0x36, type, 2);
}

/*
 * A Plain LZ77 encoder ([MS-XCA] 2.3), greedy, for the fixtures only:
 * matches of 3 bytes and more within 8 KB, every length encoding (the
 * 3-bit field, the shared nibble, the byte, the 16-bit word). @out must
 * have room for @len * 9 / 8 + 8 bytes. Returns the compressed size.
 */
static inline size_t wf_compress(const uint8_t *in, size_t len, uint8_t *out)
{
	size_t ip = 0, op = 4, flag_at = 0, nibble_at = 0;
	uint32_t flags = 0;
	int nflags = 0;

	while (ip < len) {
		size_t best = 0, dist = 0, d;

		for (d = 1; d <= 8192 && d <= ip; d++) {
			size_t n = 0;

			while (ip + n < len && in[ip + n] == in[ip + n - d] && n < 65535 + 3)
				n++;
			if (n > best) {
				best = n;
				dist = d;
			}
		}
		flags <<= 1;
		if (best < 3) {
			out[op++] = in[ip++];
		} else {
			size_t l = best - 3;

			flags |= 1;
			put_le(out + op, (dist - 1) << 3 | (l < 7 ? l : 7), 2);
			op += 2;
			if (l >= 7) {
				size_t n = l - 7 < 15 ? l - 7 : 15;

				if (!nibble_at) {
					nibble_at = op;
					out[op++] = (uint8_t)n;
				} else {
					out[nibble_at] |= (uint8_t)(n << 4);
					nibble_at = 0;
				}
				if (l - 7 >= 15) {
					if (l - 22 < 255) {
						out[op++] = (uint8_t)(l - 22);
					} else {
						out[op++] = 255;
						put_le(out + op, l, 2);
						op += 2;
					}
				}
			}
			ip += best;
		}
		if (++nflags == 32) {
			put_le(out + flag_at, flags, 4);
			flag_at = op;
			op += 4;
			nflags = 0;
			flags = 0;
		}
	}
	/* The end: a match flag where the input is used up, the rest 1s. */
	flags = (flags << 1 | 1) << (31 - nflags) | ((1u << (31 - nflags)) - 1);
	put_le(out + flag_at, flags, 4);
	return op;
}

/* Close the open buffer: fill, or compress, and count it. */
static inline void wf_end_buffer(struct wfile *w)
{
	uint8_t *h;

	if (w->open_at == (size_t)-1)
		return;
	h = w->b + w->open_at;
	memset(h + w->used, 0xFF, WF_BUF - w->used);
	wf_buffer_header(h, WF_BUF, w->used, w->seq++, w->open_cpu, 0x20, 0, w->ts);
	if (w->open_z) {
		uint8_t *z = malloc(WF_BUF * 2);
		size_t zl;

		if (!z)
			abort();
		zl = wf_compress(h + 0x48, w->used - 0x48, z);
		memcpy(h + 0x48, z, zl);
		free(z);
		put_le(h, 0x48 + zl, 4);
		put_le(h + 0x34, 0x20 | 0x40, 2);	/* PROC_INDEX | COMPRESSED */
		w->len = w->open_at + 0x48 + zl;
	}
	w->open_at = (size_t)-1;
	w->buffers++;
}

static inline void wf_begin_buffer(struct wfile *w, uint16_t cpu, int compress)
{
	wf_end_buffer(w);
	w->open_z = compress;
	wf_room(w, WF_BUF);
	w->open_at = w->len;
	w->len += WF_BUF;
	w->used = 0x48;
	w->open_cpu = cpu;
}

/* Room for a record of @size bytes in the open buffer: where it goes. */
static inline uint8_t *wf_record(struct wfile *w, uint32_t size)
{
	uint8_t *p = w->b + w->open_at + w->used;

	if (w->used + ((size + 7) & ~7u) > WF_BUF)
		abort();
	memset(p, 0, (size + 7) & ~7u);
	w->used += (size + 7) & ~7u;
	return p;
}

static inline struct wexp *wf_expect(struct wfile *w, struct wguid g, uint16_t flags)
{
	struct wexp *e = &w->exp[w->nexp++];

	if (w->nexp > WF_MAX_EXP)
		abort();
	memset(e, 0, sizeof(*e));
	e->provider = g;
	e->flags = flags;
	e->cpu = w->open_cpu;
	e->ts = w->ts;
	return e;
}

/*
 * A kernel record: header type @type (1/2 full system, 3/4 compact,
 * 0x10/0x11 perfinfo), @hook (group << 8 | type), @len bytes of payload;
 * a perfinfo record with @pebs and @npmc items.
 */
static inline void wf_kernel(struct wfile *w, uint8_t type, uint8_t version, uint16_t hook,
			     struct wguid g, uint32_t len, int pebs, int npmc)
{
	uint32_t hsize = type <= 2 ? 0x20 : type <= 4 ? 0x18 : 0x10;
	uint32_t items = 8 * ((pebs ? 1 : 0) + npmc), size = hsize + items + len;
	int is32 = type == 1 || type == 3 || type == 0x10;
	uint8_t *p = wf_record(w, size);
	struct wexp *e;
	int i;

	e = wf_expect(w, g, 0x100 | (is32 ? 0x20 : 0x40) |
		      (hsize == 0x20 ? 0 : 0x10) | (items ? 1 : 0));
	put_le(p, version | (npmc << 8) | (pebs ? 0x8000 : 0), 2);
	p[2] = type;
	p[3] = 0xC0;
	put_le(p + 4, size, 2);
	put_le(p + 6, hook, 2);
	e->opcode = hook & 0xFF;
	e->version = version;
	e->seed = (uint8_t)(w->nexp * 7);
	e->data_len = len;
	if (hsize == 0x10) {
		put_le(p + 8, w->ts, 8);
		e->tid = e->pid = 0xFFFFFFFF;
	} else {
		e->tid = 100 + w->nexp;
		e->pid = 4 + w->nexp;
		put_le(p + 8, e->tid, 4);
		put_le(p + 0x0C, e->pid, 4);
		put_le(p + 0x10, w->ts, 8);
		if (hsize == 0x20) {
			e->ktime = 11 * w->nexp;
			e->utime = 13 * w->nexp;
			put_le(p + 0x18, e->ktime, 4);
			put_le(p + 0x1C, e->utime, 4);
		}
	}
	if (pebs) {
		e->pebs = 1;
		e->pebs_value = 0xABCDEF0000000000ULL | w->nexp;
		put_le(p + hsize, e->pebs_value, 8);
	}
	for (i = 0; i < npmc; i++) {
		e->npmc++;
		e->pmc[i] = 1000000ULL * (i + 1) + w->nexp;
		put_le(p + hsize + (pebs ? 8 : 0) + 8 * i, e->pmc[i], 8);
	}
	wf_payload(p + hsize + items, len, e->seed);
	w->ts += 1234;
}

/* An EventWrite record (EVENT_HEADER, 0x50 bytes), no extended items. */
static inline void wf_event_header(struct wfile *w, uint32_t len)
{
	static const struct wguid g = { 0x11223344, 0x5566, 0x7788,
					{ 1, 2, 3, 4, 5, 6, 7, 8 } };
	uint8_t *p = wf_record(w, 0x50 + len);
	struct wexp *e = wf_expect(w, g, w->psz == 4 ? 0x20 : 0x40);

	put_le(p, 0x50 + len, 2);
	put_le(p + 2, w->psz == 4 ? 0xC012 : 0xC013, 2);
	put_le(p + 4, e->flags, 2);
	e->tid = 700 + w->nexp;
	e->pid = 70;
	put_le(p + 8, e->tid, 4);
	put_le(p + 0x0C, e->pid, 4);
	put_le(p + 0x10, w->ts, 8);
	memcpy(p + 0x18, &g, 16);
	e->id = 42;
	e->version = 1;
	e->level = 4;
	e->opcode = 9;
	put_le(p + 0x28, e->id, 2);
	p[0x2A] = e->version;
	p[0x2C] = e->level;
	p[0x2D] = e->opcode;
	e->seed = 0x61;
	e->data_len = len;
	wf_payload(p + 0x50, len, e->seed);
	w->ts += 1234;
}

/* A record of a header type ProcessTrace does not present (WNODE_HEADER). */
static inline void wf_unknown(struct wfile *w)
{
	uint8_t *p = wf_record(w, 0x30);

	put_le(p, 0x30, 2);
	p[2] = 0x0E;
	p[3] = 0xC0;
	put_le(p + 0x10, w->ts, 8);
	w->undelivered++;
}

/*
 * The header buffer: the header event (marker for @w->psz, HookId 0,
 * time stamp WF_HTS), its TRACE_LOGFILE_HEADER in that layout with
 * @buffers_written, the names, then an EventTrace record (type 80, as
 * Windows puts one there). In a compressed file buffer 0 is 0x200 bytes.
 */
static inline void wf_header(struct wfile *w, uint32_t mode, uint32_t buffers_written)
{
	uint32_t psz = w->psz, bt = psz == 8 ? 0xF8 : 0xF0, lfsize = bt + 0x20;
	uint32_t disk = w->kind == WF_COMPRESSED ? 0x400 : WF_BUF, len, i;
	uint64_t hts = w->clock == 2 ? WF_START : WF_HTS;
	static const char name[] = "NT Kernel Logger", file[] = "C:\\w.etl";
	uint8_t *b, *rec, *lf;

	wf_room(w, disk);
	b = w->b + w->len;
	memset(b, 0xFF, disk);
	rec = b + 0x48;
	lf = rec + 0x20;
	len = 0x20 + lfsize + 2 * (sizeof(name) + sizeof(file));
	memset(rec, 0, len);
	put_le(rec, psz == 8 ? 0xC0020002 : 0xC0010002, 4);
	put_le(rec + 4, len, 2);
	put_le(rec + 8, 1234, 4);
	put_le(rec + 0x0C, 4, 4);
	put_le(rec + 0x10, hts, 8);
	put_le(lf + 0x00, WF_BUF, 4);
	put_le(lf + 0x04, 0x0A00000A, 4);	/* 10.0 */
	put_le(lf + 0x08, 19045, 4);
	put_le(lf + 0x0C, 2, 4);
	put_le(lf + 0x10, WF_START + 600000000ULL, 8);
	put_le(lf + 0x18, 156250, 4);
	put_le(lf + 0x20, mode, 4);
	put_le(lf + 0x24, buffers_written, 4);
	put_le(lf + 0x28, 1, 4);
	put_le(lf + 0x2C, psz, 4);
	put_le(lf + 0x34, WF_MHZ, 4);
	put_le(lf + bt, WF_START - 36000000000ULL, 8);	/* BootTime */
	put_le(lf + bt + 0x08, 10000000, 8);		/* PerfFreq */
	put_le(lf + bt + 0x10, WF_START, 8);
	put_le(lf + bt + 0x18, w->clock, 4);
	for (i = 0; i < sizeof(name); i++)
		put_le(lf + lfsize + 2 * i, (uint8_t)name[i], 2);
	for (i = 0; i < sizeof(file); i++)
		put_le(lf + lfsize + 2 * (sizeof(name) + i), (uint8_t)file[i], 2);
	w->open_at = w->len;
	w->open_cpu = 0;
	w->used = 0x48 + ((len + 7) & ~7u);
	w->len += disk;
	w->ts = hts;
	/* An EventTrace record after the header event, as Windows writes. */
	wf_kernel(w, psz == 8 ? 2 : 1, 2, 0x0050, (struct wguid){ WG_EVENTTRACE }, 0x30, 0, 0);
	wf_buffer_header(b, disk, w->used, 0, 0, 0x01, 4, 0);
	w->open_at = (size_t)-1;
	w->seq = 1;
	w->buffers = 1;
}

/* The time stamp of the first data event, and the gap between them. */
static inline uint64_t wf_first_ts(enum wkind kind)
{
	/* System time: FILETIMEs; the others: ticks after the header's. */
	return kind == WF_SYSTIME ? WF_START + 50000 : WF_HTS + 50000;
}

/* Build the file of @kind into @w (free @w->b when done). */
static inline void wf_build(struct wfile *w, enum wkind kind)
{
	int z = kind == WF_COMPRESSED, k;

	memset(w, 0, sizeof(*w));
	w->kind = kind;
	w->psz = kind == WF_KERNEL32 ? 4 : 8;
	w->clock = kind == WF_SYSTIME ? 2 : kind == WF_CYCLES ? 3 : 1;
	w->open_at = (size_t)-1;
	/* BuffersWritten: 4 are there; a circular file says more. */
	wf_header(w, kind == WF_CIRCULAR ? 0x02 : z ? 0x04000001 : 0x01,
		  kind == WF_CIRCULAR ? 10 : 4);
	w->ts = wf_first_ts(kind);
	if (kind == WF_CIRCULAR) {
		/*
		 * One CPU's buffers as a circular file holds them after a wrap:
		 * sequence 3, then 1 and 2 (the oldest first is the reader's job).
		 */
		size_t at[3];
		uint8_t *tmp = malloc(3 * WF_BUF);

		for (k = 0; k < 3; k++) {
			at[k] = w->len;
			wf_begin_buffer(w, 1, 0);
			wf_kernel(w, 2, 3, 0x0301, (struct wguid){ WG_PROCESS }, 40 + k, 0, 0);
			wf_kernel(w, 2, 3, 0x0501, (struct wguid){ WG_THREAD }, 20, 0, 0);
		}
		wf_end_buffer(w);
		if (!tmp)
			abort();
		memcpy(tmp, w->b + at[0], 3 * WF_BUF);
		memcpy(w->b + at[0], tmp + 2 * WF_BUF, WF_BUF);
		memcpy(w->b + at[0] + WF_BUF, tmp, 2 * WF_BUF);
		free(tmp);
		return;
	}
	wf_begin_buffer(w, 1, z);
	wf_kernel(w, w->psz == 8 ? 2 : 1, 4, 0x0303, (struct wguid){ WG_PROCESS }, 75, 0, 0);
	wf_kernel(w, w->psz == 8 ? 4 : 3, 2, 0x0524, (struct wguid){ WG_THREAD }, 24, 0, 0);
	wf_event_header(w, 10);
	wf_unknown(w);
	wf_kernel(w, w->psz == 8 ? 0x11 : 0x10, 2, 0x0F2E, (struct wguid){ WG_PERFINFO }, 16,
		  1, 2);
	/* Runs of a byte: every length encoding of the compressor. */
	wf_kernel(w, w->psz == 8 ? 2 : 1, 2, 0x140A, (struct wguid){ WG_IMAGELOAD }, 1200, 0, 0);
	memset(w->b + w->open_at + w->used - ((1200 + 0x20 + 7) & ~7u) + 0x20 + 100, 0x5A, 1000);
	wf_payload(w->b + w->open_at + w->used - ((1200 + 0x20 + 7) & ~7u) + 0x20, 100,
		   w->exp[w->nexp - 1].seed);
	w->exp[w->nexp - 1].seed = 0;	/* data checked by length only */
	wf_begin_buffer(w, 0, z);
	wf_kernel(w, w->psz == 8 ? 0x11 : 0x10, 2, 0x0F2F, (struct wguid){ WG_PERFINFO }, 8,
		  0, 1);
	wf_kernel(w, w->psz == 8 ? 2 : 1, 3, 0x0502, (struct wguid){ WG_THREAD }, 40, 0, 0);
	/* In a compressed file, one buffer stored plain (Windows may). */
	wf_begin_buffer(w, 1, 0);
	wf_kernel(w, w->psz == 8 ? 2 : 1, 4, 0x0304, (struct wguid){ WG_PROCESS }, 80, 0, 0);
	wf_end_buffer(w);
}

#endif /* NTTRACE_TEST_WINETL_H */
