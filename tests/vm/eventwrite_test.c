// SPDX-License-Identifier: GPL-2.0
/*
 * NTTRACE_ETW_NT_FLAGS_TRACE_EVENT (EventWrite's system call) end to end through
 * the kernel with raw calls (the library's EventRegister and EventWrite
 * are not used, so this test stands alone): NTTRACE_IOC_REGISTER of an
 * NTTRACE_REG_EVENT registration on one open /dev/nttrace,
 * NTTRACE_IOC_ENABLE as root, and NtTraceEvent(handle, 0x0300, 0x78,
 * &Fields) through the library's own fd. The Fields (Windows' 0x78-byte
 * block) and the records expected back are built here byte by byte from the
 * block's offsets and EVENT_HEADER's (evntcons.h), not from the uapi
 * structs; the header members the kernel owns carry junk it must not copy.
 * Two sessions with different levels and keywords each get exactly their
 * events; the filter; related activity items; STRING_ONLY; the 32-bit
 * header (also through NTTRACE_ETW_NT_FLAGS_WOW64_CALL); every status code a
 * user-mode caller can provoke; a handle used by a forked child refused;
 * a data descriptor unmapped mid-call committing nothing in any session.
 * Runs in the VM, 64-bit and 32-bit.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/nt.h>
#include <nttrace/session.h>
#include "emit.h"
#include "expect.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)

#define T_EVENT		0x0300
#define NT_WOW64	0x80000000U
#define FIELDS_SIZE	0x78
#define EH_SIZE		0x50
#define ITEM_SIZE	24
/* The test's own bits: the related activity byte, the header's STRING_ONLY. */
#define WF_RELATED	0x40000000
#define WF_STRING	0x20000000
/* The block's flags (+0x70). */
#define WF_TYPES	0x00010000	/* the descriptors' Type is honoured */
#define WF_FILTER64	0x00020000	/* the 64-bit filter in ProcessorTime */
#define EV_PROPERTY	0x0004		/* EventProperty: written as given */
#define MAX_DESC	128

#define S_SUCCESS		0x00000000U
#define S_MISALIGNMENT		0x80000002U
#define S_BUFFER_OVERFLOW	0x80000005U
#define S_ACCESS_VIOLATION	0xC0000005U
#define S_INVALID_HANDLE	0xC0000008U
#define S_INVALID_PARAMETER	0xC000000DU
#define S_NO_MEMORY		0xC0000017U
#define S_ACCESS_DENIED		0xC0000022U
#define S_INTEGER_OVERFLOW	0xC0000095U

static const uint8_t prov[16] = {
	0x5e, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0x15,
};
static const uint8_t act[16] = {
	0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
	0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf, 0xb0,
};
static const uint8_t rel[16] = {
	0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8,
	0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xd0,
};

static uint64_t info_mem[16] __attribute__((aligned(128)));
static uint64_t info_classic[8] __attribute__((aligned(64)));
static uint8_t pool[0x12000];
static uint64_t fields_mem[16];
static uint8_t desc_mem[16 * (MAX_DESC + 1)] __attribute__((aligned(8)));

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

static int reg(int fd, uint32_t type, void *info, uint64_t *handle)
{
	struct nttrace_register r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.type = type;
	memcpy(r.guid, prov, 16);
	r.enable_info = (uintptr_t)info;
	ret = xioctl(fd, NTTRACE_IOC_REGISTER, &r);
	if (!ret)
		*handle = r.handle;
	return ret;
}

static int enable(uint32_t id, uint32_t control, uint32_t level, uint64_t any, uint64_t all)
{
	struct nttrace_enable e;

	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.logger_id = id;
	memcpy(e.guid, prov, 16);
	e.control = control;
	e.level = level;
	e.match_any_keyword = any;
	e.match_all_keyword = all;
	return xioctl(nttrace_device_fd(), NTTRACE_IOC_ENABLE, &e);
}

/*
 * The rule, from its text: level 0 or at most the session's; keyword 0, or
 * some of any and all of all.
 */
static int wants(uint32_t level, uint64_t any, uint64_t all, uint8_t ev_level, uint64_t kw)
{
	if (level != 0 && ev_level > level)
		return 0;
	if (kw == 0)
		return 1;
	return (kw & any) != 0 && (kw & all) == all;
}

/* One data descriptor. */
struct item {
	const void *ptr;
	uint32_t size;
	uint8_t type;	/* 1: event metadata, 2: provider metadata */
};

/* One call as a test describes it. */
struct ev {
	uint16_t id;		/* the descriptor's Id: which record is which */
	uint8_t level;
	uint64_t keyword;
	uint32_t wflags;
	uint32_t nt_extra;	/* NT_WOW64 */
	uint64_t filter;
	int wide;		/* the filter as 64 bits, not the USHORT */
	unsigned int n;
	const struct item *items;
	uint32_t count;		/* DataCount; 0: n */
	const void *data;	/* the array; NULL: desc_mem (none with no count) */
	int null_data;		/* the array's address 0 whatever the count */
	uint32_t field_size;	/* 0: 0x78 */
};

static void encode_fields(const struct ev *e, uint8_t *p)
{
	unsigned int i;

	uint32_t count = e->count ? e->count : e->n;
	uintptr_t data = (uintptr_t)(e->data ? e->data : count ? desc_mem : NULL);
	uint32_t flags = e->wflags & ~(WF_RELATED | WF_STRING);

	memset(p, 0xE5, EH_SIZE);		/* the kernel's members: junk */
	memset(p + EH_SIZE, 0, FIELDS_SIZE - EH_SIZE);
	/* Flags: the kernel's own bits ignored, STRING_ONLY kept. */
	put_le(p + 4, 0x0361 | ((e->wflags & WF_STRING) ? 0x4 : 0), 2);
	put_le(p + 6, EV_PROPERTY, 2);
	put_le(p + 0x28, e->id, 2);
	p[0x2a] = 7;				/* Version */
	p[0x2b] = 0x11;				/* Channel */
	p[0x2c] = e->level;
	p[0x2d] = 0x22;				/* Opcode */
	put_le(p + 0x2e, 0x3344, 2);		/* Task */
	put_le(p + 0x30, e->keyword, 8);
	memcpy(p + 0x40, act, 16);
	p[0x50] = (e->wflags & WF_RELATED) ? 1 : 0;
	p[0x51] = 0xE5;				/* padding: not looked at */
	if (e->wide) {
		flags |= WF_FILTER64;
		put_le(p + 0x38, e->filter, 8);
	} else {
		put_le(p + 0x52, e->filter, 2);
	}
	put_le(p + 0x54, count, 4);
	put_le(p + 0x58, e->null_data ? 0 : data, 8);
	memcpy(p + 0x60, rel, 16);
	put_le(p + 0x70, flags, 4);
	put_le(p + 0x74, 0xE5E5E5E5, 4);	/* padding: not looked at */
	for (i = 0; i < e->n; i++) {
		put_le(desc_mem + 16 * i, (uintptr_t)e->items[i].ptr, 8);
		put_le(desc_mem + 16 * i + 8, e->items[i].size, 4);
		/* Reserved: garbage, or the Type under Reserved1/2's garbage */
		put_le(desc_mem + 16 * i + 12,
		       (e->wflags & WF_TYPES) || e->items[i].type ?
		       0xD7D7D700 | e->items[i].type : 0xD7D7D7D7, 4);
	}
}

static uint32_t raw_at(uint64_t handle, const struct ev *e, void *fields)
{
	encode_fields(e, fields);
	return (uint32_t)NtTraceEvent((HANDLE)(uintptr_t)handle, T_EVENT | e->nt_extra,
				      e->field_size ? e->field_size : FIELDS_SIZE, fields);
}

static uint32_t raw(uint64_t handle, const struct ev *e)
{
	return raw_at(handle, e, fields_mem);
}

/* One extended item's header at @p; returns its bytes (to 8). */
static uint32_t put_item(uint8_t *p, uint16_t type, uint16_t size, int more)
{
	uint32_t all = (8 + size + 7) & ~7u;

	put_le(p, all, 2);
	put_le(p + 2, type, 2);
	put_le(p + 4, more, 2);
	put_le(p + 6, size, 2);
	return all;
}

/* The item @e's descriptors make of Type @type: its index, or -1. */
static int typed(const struct ev *e, uint8_t type)
{
	unsigned int i;

	for (i = 0; (e->wflags & WF_TYPES) && i < e->n; i++)
		if (e->items[i].type == type && e->items[i].size)
			return i;
	return -1;
}

/*
 * The record @e must become; returns its size before padding. The items
 * in Windows' files' order: related activity ID, PROV_TRAITS (12),
 * EVENT_SCHEMA_TL (11); each 8-byte header, data, zeros to 8.
 */
static uint32_t encode_record(const struct ev *e, int ptr32, uint32_t tid, uint32_t pid,
			      uint64_t ts, uint8_t *out)
{
	int related = e->wflags & WF_RELATED;
	int traits = typed(e, 2), schema = typed(e, 1);
	uint32_t total = EH_SIZE, off, flags, i;

	memset(out, 0, 0x10000);
	off = EH_SIZE;
	if (related) {
		off += put_item(out + off, 1, 16, traits >= 0 || schema >= 0);
		memcpy(out + off - ITEM_SIZE + 8, rel, 16);
	}
	if (traits >= 0) {
		memcpy(out + off + 8, e->items[traits].ptr, e->items[traits].size);
		off += put_item(out + off, 12, e->items[traits].size, schema >= 0);
	}
	if (schema >= 0) {
		memcpy(out + off + 8, e->items[schema].ptr, e->items[schema].size);
		off += put_item(out + off, 11, e->items[schema].size, 0);
	}
	for (i = 0; i < e->n; i++) {
		if ((int)i == traits || (int)i == schema)
			continue;
		memcpy(out + off, e->items[i].ptr, e->items[i].size);
		off += e->items[i].size;
	}
	total = off;
	put_le(out, total, 2);
	out[2] = ptr32 ? 0x12 : 0x13;
	out[3] = 0xC0;
	flags = 0x10 | (ptr32 ? 0x20 : 0x40) |
		((related || traits >= 0 || schema >= 0) ? 0x1 : 0) |
		((e->wflags & WF_STRING) ? 0x4 : 0);
	put_le(out + 4, flags, 2);
	put_le(out + 6, EV_PROPERTY, 2);
	put_le(out + 8, tid, 4);
	put_le(out + 12, pid, 4);
	put_le(out + 0x10, ts, 8);
	memcpy(out + 0x18, prov, 16);
	put_le(out + 0x28, e->id, 2);
	out[0x2a] = 7;
	out[0x2b] = 0x11;
	out[0x2c] = e->level;
	out[0x2d] = 0x22;
	put_le(out + 0x2e, 0x3344, 2);
	put_le(out + 0x30, e->keyword, 8);
	memcpy(out + 0x40, act, 16);
	return total;
}

/* ---- collecting records, by the descriptor's Id, per session ---- */

#define MAXNUM 2048
struct seen {
	uint8_t *bytes[MAXNUM];
	uint32_t size[MAXNUM];
	unsigned int count[MAXNUM];
	unsigned int bad_buffers, foreign;
};
static struct seen seen[2];

static void collect(void *ctx, const uint8_t *rec, uint32_t size)
{
	struct seen *s = ctx;
	uint16_t n;

	if (size < EH_SIZE || rec[3] != 0xC0 || (rec[2] != 0x12 && rec[2] != 0x13) ||
	    memcmp(rec + 0x18, prov, 16)) {
		s->foreign++;
		return;
	}
	n = get_le(rec + 0x28, 2);
	if (n >= MAXNUM) {
		s->foreign++;
		return;
	}
	if (!s->count[n]++) {
		s->bytes[n] = malloc(size);
		memcpy(s->bytes[n], rec, size);
		s->size[n] = size;
	}
}

static int on_buffer(void *ctx, const void *buf, uint32_t size, unsigned int cpu)
{
	struct seen *s = ctx;

	if (expect_walk(buf, collect, s) < 0)
		s->bad_buffers++;
	return 0;
}

static void forget(struct seen *s)
{
	unsigned int i;

	for (i = 0; i < MAXNUM; i++) {
		free(s->bytes[i]);
		s->bytes[i] = NULL;
		s->count[i] = 0;
	}
	s->bad_buffers = 0;
	s->foreign = 0;
}

static unsigned int total_seen(const struct seen *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < MAXNUM; i++)
		n += s->count[i];
	return n;
}

/* The sessions and their enables. */
struct sess {
	struct nttrace_logger_info info;
	struct nttrace_consumer *c;
	uint32_t level;
	uint64_t any, all;
};
static struct sess ss[2];

/* ---- two sessions, every kind of event, byte for byte ---- */

struct planned {
	struct ev e;
	struct item items[4];
	int ptr32;
	uint64_t before, after;
	uint32_t status;
};

static void test_records(uint64_t handle)
{
	static struct planned plan[MAXNUM];
	static const uint8_t levels[] = { 0, 1, 2, 3, 5, 6, 255 };
	static const uint64_t kws[] = { 0, 0x1, 0x2, 0x4, 0x6, 0x3, 0x8000000000000000ULL };
	static const uint32_t sizes[4][4] = { { 0 }, { 1, 1 }, { 3, 5, 0, 7 }, { 2, 300, 9 } };
	uint32_t tid = syscall(SYS_gettid), pid = getpid();
	unsigned int n = 0, i, s, l, k, f, d, wrong = 0, missing = 0, extra = 0, failed = 0;
	uint8_t *want = malloc(0x10000);
	uint32_t off = 1;

	for (i = 0; i < sizeof(pool); i++)
		pool[i] = (uint8_t)(i * 37 + i / 253 + 1);
	forget(&seen[0]);
	forget(&seen[1]);
	for (l = 0; l < sizeof(levels); l++)
		for (k = 0; k < sizeof(kws) / sizeof(kws[0]); k++)
			for (f = 0; f < 8; f++)
				for (d = 0; d < 4; d++, n++) {
					struct planned *pl = &plan[n];
					uint32_t j;

					pl->e.id = n + 1;
					pl->e.level = levels[l];
					pl->e.keyword = kws[k];
					pl->e.wflags = ((f & 1) ? WF_RELATED : 0) |
						       ((f & 2) ? WF_STRING : 0);
					pl->e.nt_extra = (f & 4) ? NT_WOW64 : 0;
					pl->e.n = sizes[d][0];
					for (j = 0; j < sizes[d][0]; j++) {
						off = (off + 131) % (sizeof(pool) - 512);
						pl->items[j].ptr = pool + off;
						pl->items[j].size = sizes[d][1 + j];
					}
					pl->e.items = pl->items;
					/*
					 * Every fifth: the filter leaves session A
					 * out, as the USHORT or (every tenth) the
					 * 64 bits in ProcessorTime.
					 */
					if (n % 5 == 4)
						pl->e.filter = 1ULL << (ss[0].info.logger_id - 1);
					pl->e.wide = n % 10 == 9;
					pl->ptr32 = BITS == 32 || (f & 4);
					pl->before = mono_ns();
					pl->status = raw(handle, &pl->e);
					pl->after = mono_ns();
					if (pl->status)
						failed++;
				}
	tap_eq(failed, 0, "%d-bit: %u events (levels, keywords, related, string, WOW64, "
	       "data sets, filter) -> STATUS_SUCCESS", BITS, n);
	for (s = 0; s < 2; s++) {
		unsigned int expected = 0;

		flush_drain(ss[s].c, ss[s].info.logger_id, on_buffer, &seen[s]);
		tap_eq(seen[s].bad_buffers + seen[s].foreign, 0,
		       "%d-bit: session %c: buffers walk cleanly, nothing foreign", BITS, 'A' + s);
		wrong = missing = extra = 0;
		for (i = 0; i < n; i++) {
			struct planned *pl = &plan[i];
			int w = wants(ss[s].level, ss[s].any, ss[s].all, pl->e.level,
				      pl->e.keyword) &&
				!(pl->e.filter & (1ULL << (ss[s].info.logger_id - 1)));
			uint16_t num = pl->e.id;
			uint32_t size;
			uint64_t ts;

			expected += w;
			if (!w) {
				extra += seen[s].count[num] != 0;
				continue;
			}
			if (seen[s].count[num] != 1) {
				missing++;
				continue;
			}
			ts = get_le(seen[s].bytes[num] + 0x10, 8);
			size = encode_record(&pl->e, pl->ptr32, tid, pid, ts, want);
			if (ts < pl->before || ts > pl->after || size != seen[s].size[num] ||
			    memcmp(want, seen[s].bytes[num], size)) {
				if (!wrong)
					printf("# session %c: first wrong record: id %u\n",
					       'A' + s, num);
				wrong++;
			}
		}
		tap_ok(expected > 20 && expected < n, "%d-bit: session %c wants %u of %u",
		       BITS, 'A' + s, expected, n);
		tap_eq(missing, 0, "%d-bit: session %c: every wanted event once", BITS, 'A' + s);
		tap_eq(extra, 0, "%d-bit: session %c: no other event", BITS, 'A' + s);
		tap_eq(wrong, 0, "%d-bit: session %c: records byte for byte", BITS, 'A' + s);
	}
	free(want);
}

/* ---- status codes ---- */

static unsigned int drain_both(void)
{
	unsigned int s, n = 0;

	for (s = 0; s < 2; s++) {
		forget(&seen[s]);
		flush_drain(ss[s].c, ss[s].info.logger_id, on_buffer, &seen[s]);
		n += total_seen(&seen[s]);
	}
	return n;
}

/* ---- TraceLogging's metadata: descriptor Types into extended items ---- */

/*
 * Events whose descriptors carry Types (NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES):
 * provider metadata becomes a PROV_TRAITS item, event metadata an
 * EVENT_SCHEMA_TL item, byte for byte, after the related activity item,
 * whatever the descriptors' order; without the flag they are data; bad
 * Types and metadata twice are refused with nothing written.
 */
static void test_metadata(uint64_t handle)
{
	static const uint8_t traits[15] = { 15, 0, 'n', 't', 't', 'r', 'a', 'c', 'e', '-',
					    't', 'e', 's', 't', 0 };
	static uint8_t schema[300], big[0x10000];
	struct item it[5];
	struct ev e = { .level = 1, .items = it };
	uint32_t tid = syscall(SYS_gettid), pid = getpid();
	uint8_t *want = malloc(0x10000);
	unsigned int c, wrong = 0, missing = 0;
	/* schema size, order (0: traits first), related, data pieces */
	static const struct { uint32_t schema; int swap, related, data; } cases[] = {
		{ 182, 0, 0, 2 }, { 1, 1, 1, 1 }, { 8, 0, 1, 0 }, { 300, 1, 0, 3 },
		{ 0, 0, 0, 2 },		/* an empty schema descriptor: no item */
	};

	for (c = 0; c < sizeof(schema); c++)
		schema[c] = (uint8_t)(c * 7 + 3);
	drain_both();
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		unsigned int t = cases[c].swap, m = !t, j;

		memset(it, 0, sizeof(it));
		it[t] = (struct item) { .ptr = traits, .size = sizeof(traits), .type = 2 };
		it[m] = (struct item) { .ptr = schema, .size = cases[c].schema, .type = 1 };
		for (j = 0; j < (unsigned int)cases[c].data; j++)
			it[2 + j] = (struct item) { .ptr = pool + 100 * j, .size = 5 + j };
		e.id = 1000 + c;
		e.n = 2 + cases[c].data;
		e.wflags = WF_TYPES | (cases[c].related ? WF_RELATED : 0);
		tap_eq(raw(handle, &e), S_SUCCESS, "%d-bit: metadata case %u -> SUCCESS", BITS, c);
	}
	/* The same descriptors without the flag: every one of them data. */
	e.id = 1100;
	e.wflags = 0;
	e.n = 4;
	tap_eq(raw(handle, &e), S_SUCCESS, "%d-bit: Types without the flag -> SUCCESS", BITS);
	forget(&seen[0]);
	forget(&seen[1]);
	flush_drain(ss[0].c, ss[0].info.logger_id, on_buffer, &seen[0]);
	for (c = 0; c <= sizeof(cases) / sizeof(cases[0]); c++) {
		uint16_t num = c < sizeof(cases) / sizeof(cases[0]) ? 1000 + c : 1100;
		unsigned int t, m, j;
		uint32_t size;

		if (seen[0].count[num] != 1) {
			missing++;
			continue;
		}
		/* Rebuild case @c's descriptors as they were sent. */
		if (num == 1100) {
			e.wflags = 0;
			e.n = 4;
		} else {
			t = cases[c].swap;
			m = !t;
			memset(it, 0, sizeof(it));
			it[t] = (struct item) { .ptr = traits, .size = sizeof(traits), .type = 2 };
			it[m] = (struct item) { .ptr = schema, .size = cases[c].schema, .type = 1 };
			for (j = 0; j < (unsigned int)cases[c].data; j++)
				it[2 + j] = (struct item) { .ptr = pool + 100 * j, .size = 5 + j };
			e.n = 2 + cases[c].data;
			e.wflags = WF_TYPES | (cases[c].related ? WF_RELATED : 0);
		}
		e.id = num;
		size = encode_record(&e, BITS == 32, tid, pid,
				     get_le(seen[0].bytes[num] + 0x10, 8), want);
		if (size != seen[0].size[num] || memcmp(want, seen[0].bytes[num], size)) {
			printf("# metadata record %u: size %u, want %u\n", num,
			       seen[0].size[num], size);
			wrong++;
		}
	}
	tap_eq(missing, 0, "%d-bit: every metadata event recorded once", BITS);
	tap_eq(wrong, 0, "%d-bit: PROV_TRAITS and EVENT_SCHEMA_TL items byte for byte", BITS);

	/* Refusals: nothing written. */
	drain_both();
	memset(it, 0, sizeof(it));
	it[0] = (struct item) { .ptr = schema, .size = 4, .type = 1 };
	it[1] = (struct item) { .ptr = schema, .size = 4, .type = 1 };
	e = (struct ev) { .id = 1200, .level = 1, .items = it, .n = 2, .wflags = WF_TYPES };
	tap_eq(raw(handle, &e), S_INVALID_PARAMETER,
	       "%d-bit: event metadata twice -> INVALID_PARAMETER", BITS);
	it[1].type = 2;
	it[0].type = 3;
	tap_eq(raw(handle, &e), S_INVALID_PARAMETER,
	       "%d-bit: Type 3 (TIMESTAMP_OVERRIDE) -> INVALID_PARAMETER", BITS);
	it[0] = (struct item) { .ptr = big, .size = sizeof(big), .type = 1 };
	tap_eq(raw(handle, &e), S_BUFFER_OVERFLOW,
	       "%d-bit: 64 KB of event metadata (a descriptor over 0xFFFF) -> BUFFER_OVERFLOW",
	       BITS);
	/* header, a 16-byte traits item, this one's 8-byte header: 1 byte over */
	it[0] = (struct item) { .ptr = big, .size = 0xFFFF - EH_SIZE - 16 - 8 + 1, .type = 1 };
	tap_eq(raw(handle, &e), S_INTEGER_OVERFLOW,
	       "%d-bit: metadata items past 0xFFFF bytes -> INTEGER_OVERFLOW", BITS);
	tap_eq(drain_both(), 0, "%d-bit: ... nothing written", BITS);
	free(want);
}

static void test_errors(uint64_t handle, uint64_t classic)
{
	struct item items[MAX_DESC + 1], three[3];
	struct ev e = { .id = 1, .level = 1, .n = 1, .items = items };
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *map = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *none = map + pg, *gone = map + 2 * pg;
	unsigned int i;

	for (i = 0; i <= MAX_DESC; i++) {
		items[i].ptr = pool + i;
		items[i].size = 1;
	}
	mprotect(none, pg, PROT_NONE);
	munmap(gone, pg);
	drain_both();

	e.field_size = 0x48;
	tap_eq(raw(handle, &e), S_INVALID_PARAMETER,
	       "%d-bit: FieldSize 0x48 (the old layout's) -> INVALID_PARAMETER", BITS);
	e.field_size = 0x80;
	tap_eq(raw(handle, &e), S_INVALID_PARAMETER, "%d-bit: FieldSize 0x80 -> INVALID_PARAMETER",
	       BITS);
	e.field_size = 0;
	e.wflags = 0x8;
	tap_eq(raw(handle, &e), S_INVALID_PARAMETER, "%d-bit: unknown flag -> INVALID_PARAMETER",
	       BITS);
	e.wflags = 0x3;		/* EVENT_WRITE_FLAG_NO_FAULTING | _INPRIVATE */
	tap_eq(raw(handle, &e), S_SUCCESS, "%d-bit: Windows' EventWriteEx flags -> SUCCESS", BITS);
	tap_eq(drain_both(), 2, "%d-bit: ... one record in each session (keyword 0)", BITS);
	e.wflags = 0;
	e.null_data = 1;
	tap_eq(raw(handle, &e), S_INVALID_PARAMETER,
	       "%d-bit: a count with no array -> INVALID_PARAMETER", BITS);
	e.null_data = 0;
	e.n = 0;
	e.data = desc_mem;
	tap_eq(raw(handle, &e), S_INVALID_PARAMETER,
	       "%d-bit: an array with no count -> INVALID_PARAMETER", BITS);
	e.data = NULL;
	e.n = 1;
	e.n = MAX_DESC + 1;
	tap_eq(raw(handle, &e), S_INVALID_PARAMETER, "%d-bit: 129 descriptors -> INVALID_PARAMETER",
	       BITS);
	e.n = MAX_DESC;
	tap_eq(raw(handle, &e), S_SUCCESS, "%d-bit: 128 descriptors -> SUCCESS", BITS);
	tap_eq(drain_both(), 2, "%d-bit: ... one record in each session (keyword 0)", BITS);
	e.n = 1;
	tap_eq(raw(0, &e), S_INVALID_HANDLE, "%d-bit: handle 0 -> INVALID_HANDLE", BITS);
	tap_eq(raw(0x7FFFFFF0, &e), S_INVALID_HANDLE, "%d-bit: unknown handle -> INVALID_HANDLE",
	       BITS);
	tap_eq(raw(classic, &e), S_INVALID_HANDLE,
	       "%d-bit: a classic registration's handle -> INVALID_HANDLE", BITS);
	/* A 32-bit caller's HANDLE has no high bits to set. */
	if (BITS == 64)
		tap_eq(raw(handle | 1ULL << 40, &e), S_INVALID_HANDLE,
		       "%d-bit: handle with high bits -> INVALID_HANDLE", BITS);
	/* The front door: Fields misaligned, unreadable. */
	tap_eq(raw_at(handle, &e, (uint8_t *)fields_mem + 2), S_MISALIGNMENT,
	       "%d-bit: Fields misaligned -> DATATYPE_MISALIGNMENT", BITS);
	tap_eq((uint32_t)NtTraceEvent((HANDLE)(uintptr_t)handle, T_EVENT, FIELDS_SIZE, gone),
	       S_ACCESS_VIOLATION, "%d-bit: Fields unmapped -> ACCESS_VIOLATION", BITS);
	tap_eq((uint32_t)NtTraceEvent((HANDLE)(uintptr_t)handle, T_EVENT, FIELDS_SIZE,
				      none - 0x40),
	       S_ACCESS_VIOLATION, "%d-bit: Fields running out -> ACCESS_VIOLATION", BITS);
	/* Nobody wants it: SUCCESS, nothing read. */
	e.level = 200;
	e.data = gone;
	tap_eq(raw(handle, &e), S_SUCCESS,
	       "%d-bit: an event no session wants -> SUCCESS, its array unread", BITS);
	e.level = 1;
	tap_eq(raw(handle, &e), S_ACCESS_VIOLATION,
	       "%d-bit: descriptor array unmapped -> ACCESS_VIOLATION", BITS);
	e.data = none - 16;
	e.n = 0;
	e.count = 2;
	tap_eq(raw(handle, &e), S_ACCESS_VIOLATION,
	       "%d-bit: descriptor array running into PROT_NONE -> ACCESS_VIOLATION", BITS);
	e.data = NULL;
	e.count = 0;
	/* A middle item unreadable: neither session gets anything. */
	three[0] = (struct item){ .ptr = pool, .size = 8 };
	three[1] = (struct item){ .ptr = gone + 100, .size = 8 };
	three[2] = (struct item){ .ptr = pool + 8, .size = 8 };
	e.items = three;
	e.n = 3;
	tap_eq(raw(handle, &e), S_ACCESS_VIOLATION, "%d-bit: middle item unmapped -> "
	       "ACCESS_VIOLATION", BITS);
	three[1].ptr = none;
	tap_eq(raw(handle, &e), S_ACCESS_VIOLATION, "%d-bit: middle item PROT_NONE -> "
	       "ACCESS_VIOLATION", BITS);
	three[1].ptr = none - 4;
	tap_eq(raw(handle, &e), S_ACCESS_VIOLATION, "%d-bit: middle item running out -> "
	       "ACCESS_VIOLATION", BITS);
	three[1].ptr = (void *)(uintptr_t)0xFFFFF000UL;
	tap_eq(raw(handle, &e), S_ACCESS_VIOLATION, "%d-bit: middle item at an unmapped high "
	       "address -> ACCESS_VIOLATION", BITS);
	/* Sizes. */
	three[1].ptr = pool;
	three[1].size = 0x10000 - EH_SIZE - 16;
	tap_eq(raw(handle, &e), S_INTEGER_OVERFLOW, "%d-bit: record of 0x10000 -> "
	       "INTEGER_OVERFLOW", BITS);
	three[0].size = 0xFFFFFFFF;
	three[1].size = 0xFFFFFFFF;
	tap_eq(raw(handle, &e), S_BUFFER_OVERFLOW, "%d-bit: descriptor sizes past 16 bits -> "
	       "BUFFER_OVERFLOW (the event dropped)", BITS);
	three[0].size = 8;
	three[1].size = 0x10000;
	tap_eq(raw(handle, &e), S_BUFFER_OVERFLOW, "%d-bit: a descriptor of 0x10000 -> "
	       "BUFFER_OVERFLOW", BITS);
	three[0].size = 0x8000;
	three[1].size = 0x8000;
	tap_eq(raw(handle, &e), S_INTEGER_OVERFLOW, "%d-bit: two of 0x8000: the sum past 16 bits "
	       "-> INTEGER_OVERFLOW", BITS);
	three[0].size = 8;
	three[1].size = 0xFFFF - EH_SIZE - 16;
	tap_eq(raw(handle, &e), S_BUFFER_OVERFLOW, "%d-bit: record of 0xFFFF, 16 KB buffers -> "
	       "BUFFER_OVERFLOW", BITS);
	tap_eq(drain_both(), 0, "%d-bit: no failed call wrote anything", BITS);
	three[1].size = 8;
	tap_eq(raw(handle, &e), S_SUCCESS, "%d-bit: the same, readable -> SUCCESS", BITS);
	tap_eq(drain_both(), 2, "%d-bit: ... one record in each session (keyword 0)", BITS);
	munmap(map, 2 * pg);
}

/* A handle used from a forked child: another process's. */
static void test_fork(uint64_t handle)
{
	struct ev e = { .id = 2, .level = 1 };
	int status = -1;
	pid_t pid;

	drain_both();
	pid = fork();
	if (pid == 0)
		_exit(raw(handle, &e) == S_INVALID_HANDLE ? 0 : 1);
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "%d-bit: the parent's handle in a forked child -> INVALID_HANDLE", BITS);
	tap_eq(raw(handle, &e), S_SUCCESS, "%d-bit: ... still the parent's", BITS);
	tap_eq(drain_both(), 2, "%d-bit: ... the parent's, in each session", BITS);
}

/* The ring full: NO_MEMORY, the event counted lost. */
static void test_full(int fd, uint64_t handle)
{
	struct nttrace_logger_info info, q;
	struct item one = { .ptr = pool, .size = 3000 };
	struct ev e = { .id = 3, .level = 1, .n = 1, .items = &one };
	uint32_t status = 0;
	unsigned int i;

	if (!tap_ok(start_session("ew-full", 4, 2, 0, &info) == 0, "%d-bit: start ew-full", BITS))
		return;
	tap_eq(enable(info.logger_id, 1, 0, 0, 0), 0, "%d-bit: enable ew-full", BITS);
	/* Filter the two others out. */
	e.filter = 1ULL << (ss[0].info.logger_id - 1) | 1ULL << (ss[1].info.logger_id - 1);
	for (i = 0; i < 4096 && status == S_SUCCESS; i++)
		status = raw(handle, &e);
	tap_eq(status, S_NO_MEMORY, "%d-bit: ring full -> NO_MEMORY", BITS);
	memset(&q, 0, sizeof(q));
	q.logger_id = info.logger_id;
	nttrace_control(&q, NTTRACE_EVENT_TRACE_CONTROL_QUERY);
	tap_ok(q.events_lost >= 1, "%d-bit: ... counted lost (%llu)", BITS,
	       (unsigned long long)q.events_lost);
	stop_session(info.logger_id);
	(void)fd;
}

/* Unregistered: the handle is refused. */
static void test_unregistered(int fd)
{
	struct nttrace_unregister u = { .size = sizeof(u) };
	struct ev e = { .id = 4, .level = 1 };
	uint64_t h;

	if (!tap_eq(reg(fd, NTTRACE_REG_EVENT, info_mem + 8, &h), 0, "%d-bit: REGISTER again",
		    BITS))
		return;
	tap_eq(raw(h, &e), S_SUCCESS, "%d-bit: the new handle writes", BITS);
	u.handle = h;
	tap_eq(xioctl(fd, NTTRACE_IOC_UNREGISTER, &u), 0, "%d-bit: UNREGISTER", BITS);
	tap_eq(raw(h, &e), S_INVALID_HANDLE, "%d-bit: after UNREGISTER -> INVALID_HANDLE", BITS);
	drain_both();
}

/* A secure session and a stranger: ACCESS_DENIED, the other session still gets it. */
static void test_secure(uint64_t handle)
{
	struct nttrace_logger_info info;
	struct ev e = { .id = 5, .level = 1 };
	int status = -1;
	pid_t pid;

	if (!tap_ok(start_session("ew-secure", 16, 4, NTTRACE_EVENT_TRACE_SECURE_MODE, &info) == 0,
		    "%d-bit: start ew-secure", BITS))
		return;
	tap_eq(enable(info.logger_id, 1, 0, 0, 0), 0, "%d-bit: enable ew-secure", BITS);
	tap_eq(raw(handle, &e), S_SUCCESS, "%d-bit: the owner writes to a secure session", BITS);
	drain_both();
	/* A stranger: a child that drops root registers and writes. */
	pid = fork();
	if (pid == 0) {
		int fd2 = open(NTTRACE_DEVICE, O_RDWR);
		uint64_t h2;
		uint32_t st;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		if (fd2 < 0 || reg(fd2, NTTRACE_REG_EVENT, info_mem + 8, &h2))
			_exit(3);
		st = raw(h2, &e);
		_exit(st == S_ACCESS_DENIED ? 0 : 4);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "%d-bit: a stranger -> ACCESS_DENIED from the secure session (exit %d)", BITS,
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tap_eq(drain_both(), 2, "%d-bit: ... sessions A and B got it all the same", BITS);
	stop_session(info.logger_id);
}

/* Two sessions and the providers they enable, shared by every test. */
TEST_F(nttrace, two_sessions)
{
	uint64_t handle = 0, classic = 0;
	unsigned int s;
	int fd = open(NTTRACE_DEVICE, O_RDWR | O_CLOEXEC);

	if (!tap_ok(fd >= 0, "%d-bit: open", BITS))
		return;
	/* A: level 2, any 0x1; B: level 5, any 0x6, all 0x2. */
	ss[0].level = 2;
	ss[0].any = 0x1;
	ss[1].level = 5;
	ss[1].any = 0x6;
	ss[1].all = 0x2;
	for (s = 0; s < 2; s++) {
		if (!tap_ok(start_session(s ? "ew-b" : "ew-a", 16, 16, 0, &ss[s].info) == 0,
			    "%d-bit: start session %c", BITS, 'A' + s) ||
		    !tap_ok(nttrace_consumer_open(&ss[s].c, ss[s].info.logger_id) == 0,
			    "%d-bit: attach %c", BITS, 'A' + s))
			return;
	}
	if (!tap_eq(reg(fd, NTTRACE_REG_EVENT, info_mem, &handle), 0, "%d-bit: REGISTER EVENT",
		    BITS) ||
	    !tap_eq(reg(fd, NTTRACE_REG_CLASSIC, info_classic, &classic), 0,
		    "%d-bit: REGISTER CLASSIC", BITS))
		return;
	{
		struct ev e = { .id = 9, .level = 1 };

		tap_eq(raw(handle, &e), S_SUCCESS, "%d-bit: not enabled -> SUCCESS", BITS);
		tap_eq(drain_both(), 0, "%d-bit: ... nothing written", BITS);
	}
	for (s = 0; s < 2; s++)
		tap_eq(enable(ss[s].info.logger_id, 1, ss[s].level, ss[s].any, ss[s].all), 0,
		       "%d-bit: enable %c", BITS, 'A' + s);
	test_records(handle);
	test_metadata(handle);
	test_errors(handle, classic);
	test_fork(handle);
	test_unregistered(fd);
	test_secure(handle);
	test_full(fd, handle);
	for (s = 0; s < 2; s++) {
		nttrace_consumer_close(ss[s].c);
		stop_session(ss[s].info.logger_id);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	return harness_run(argc, argv);
}
