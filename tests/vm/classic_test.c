// SPDX-License-Identifier: GPL-2.0
/*
 * NTTRACE_ETW_NT_FLAGS_TRACE_HEADER and NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE end to end
 * through the kernel, with raw NtTraceEvent calls (the library's TraceEvent
 * is not used, so this test stands alone): the input headers and the
 * records expected back are built here byte by byte from Windows' record
 * layouts (offsets, not the uapi structs), and each record read back
 * through the consumer is compared whole. Inline data and MOF_FIELD
 * gathering, GuidPtr, the caller's time stamp, 64-bit and 32-bit header
 * types (the WOW64_CALL flag too), every status code a user-mode caller can
 * provoke, a secure session refusing TRACE_INSTANCE even from its owner,
 * unprivileged callers, and a MOF item unmapped mid-call committing
 * nothing. Runs in the VM, 64-bit and 32-bit.
 */
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
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

/* Windows' type numbers, header sizes and WNODE flag bits: the numbers encoded from. */
#define T_HEADER	0x0100
#define T_INSTANCE	0x0800
#define NT_WOW64	0x80000000U
#define HDR_SIZE	0x30
#define INST_SIZE	0x48
#define F_TIMESTAMP	0x00000200U
#define F_TRACED_GUID	0x00020000U
#define F_GUID_PTR	0x00080000U
#define F_MOF_PTR	0x00100000U
#define MOF_MAX		16

#define S_SUCCESS		0x00000000U
#define S_MISALIGNMENT		0x80000002U
#define S_BUFFER_OVERFLOW	0x80000005U
#define S_ACCESS_VIOLATION	0xC0000005U
#define S_INVALID_HANDLE	0xC0000008U
#define S_INVALID_PARAMETER	0xC000000DU
#define S_NO_MEMORY		0xC0000017U
#define S_ACCESS_DENIED		0xC0000022U
#define S_ARRAY_BOUNDS		0xC000008CU
#define S_INTEGER_OVERFLOW	0xC0000095U

static const uint8_t guid1[16] = {
	0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
};
static const uint8_t guid2[16] = {	/* ParentGuid */
	0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
};
static const uint8_t guid3[16] = {	/* at GuidPtr */
	0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a,
	0x3b, 0x3c, 0x3d, 0x3e, 0x3f, 0x40, 0x41, 0x42,
};

/* Fields: the header and what follows it (up to the 16-bit Size). */
static uint64_t fields_buf[(0x10000 + 0x200) / 8];
static uint8_t pool[8192];	/* what MOF items point at */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint32_t hdr_len(uint32_t type)
{
	return type == T_INSTANCE ? INST_SIZE : HDR_SIZE;
}

/* One call as a test describes it. */
struct ev {
	uint32_t type;		/* T_HEADER or T_INSTANCE */
	uint32_t nt_extra;	/* more NtTraceEvent Flags: NT_WOW64 */
	uint32_t wflags;	/* the header's Flags */
	uint16_t number;	/* Class.Version: which record is which */
	uint32_t size;		/* the header's Size; 0: header + extra_len */
	const uint8_t *extra;	/* after the header: data or MOF_FIELDs */
	uint32_t extra_len;
	const void *guid_ptr;	/* with F_GUID_PTR */
	uint64_t ts;		/* the caller's TimeStamp */
};

/* The caller's header at @p, byte by byte; ignored bytes hold junk. */
static void encode_input(const struct ev *e, uint8_t *p)
{
	uint32_t len = hdr_len(e->type);

	memset(p, 0xEE, len);
	put_le(p, e->size ? e->size : len + e->extra_len, 2);
	p[2] = 0x77;				/* FieldTypeFlags: ignored */
	p[3] = 0x66;				/* MarkerFlags: ignored */
	p[4] = 0x21;				/* Class.Type */
	p[5] = 0x05;				/* Class.Level */
	put_le(p + 6, e->number, 2);		/* Class.Version */
	put_le(p + 0x10, e->ts, 8);
	if (e->wflags & F_GUID_PTR)
		put_le(p + 0x18, (uintptr_t)e->guid_ptr, 8);
	else
		memcpy(p + 0x18, guid1, 16);
	put_le(p + 0x28, 0xC1C2C3C4, 4);	/* ClientContext: ignored */
	put_le(p + 0x2C, e->wflags, 4);
	if (e->type == T_INSTANCE) {
		put_le(p + 0x30, 0x11223344 + e->number, 4);
		put_le(p + 0x34, 0x55667788, 4);
		memcpy(p + 0x38, guid2, 16);
	}
}

/* A MOF_FIELD: DataPtr (64 bits for every caller), Length, DataType. */
static void put_mof(uint8_t *p, const void *ptr, uint32_t len)
{
	put_le(p, (uintptr_t)ptr, 8);
	put_le(p + 8, len, 4);
	put_le(p + 12, 0xD7D7D7D7, 4);
}

/* NtTraceEvent on @fields (the header is written there first). */
static uint32_t raw_at(uint64_t handle, const struct ev *e, uint8_t *fields)
{
	encode_input(e, fields);
	if (e->extra_len)
		memcpy(fields + hdr_len(e->type), e->extra, e->extra_len);
	/* FieldSize is ignored in favour of Size: give a wrong one. */
	return (uint32_t)NtTraceEvent((HANDLE)(uintptr_t)handle, e->type | e->nt_extra,
				      3, fields);
}

static uint32_t raw(uint64_t handle, const struct ev *e)
{
	return raw_at(handle, e, (uint8_t *)fields_buf);
}

/*
 * The record @e must become: @data (@len bytes) after the header, the IDs
 * and time stamp given. Returns the size before padding.
 */
static uint32_t encode_record(const struct ev *e, int ptr32, uint32_t tid, uint32_t pid,
			      uint64_t ts, const uint8_t *data, uint32_t len, uint8_t *out)
{
	uint32_t hl = hdr_len(e->type), total = hl + len;

	memset(out, 0, (total + 7) & ~7u);
	put_le(out, total, 2);
	if (e->type == T_INSTANCE)
		out[2] = ptr32 ? 0x0B : 0x15;
	else
		out[2] = ptr32 ? 0x0A : 0x14;
	out[3] = 0xC0;
	out[4] = 0x21;
	out[5] = 0x05;
	put_le(out + 6, e->number, 2);
	put_le(out + 8, tid, 4);
	put_le(out + 12, pid, 4);
	put_le(out + 0x10, ts, 8);
	memcpy(out + 0x18, (e->wflags & F_GUID_PTR) ? guid3 : guid1, 16);
	/* 0x28: KernelTime, 0x2C: UserTime, both 0. */
	if (e->type == T_INSTANCE) {
		put_le(out + 0x30, 0x11223344 + e->number, 4);
		put_le(out + 0x34, 0x55667788, 4);
		memcpy(out + 0x38, guid2, 16);
	}
	memcpy(out + hl, data, len);
	return total;
}

/* ---- collecting records, by Class.Version ---- */

#define MAXNUM 4096
static struct {
	uint8_t *bytes;
	uint32_t size;
	unsigned int count;
} seen[MAXNUM];
static unsigned int bad_buffers, foreign;

static void collect(void *ctx, const uint8_t *rec, uint32_t size)
{
	uint16_t n = get_le(rec + 6, 2);

	if ((rec[3] != 0xC0) || n >= MAXNUM) {
		foreign++;
		return;
	}
	if (!seen[n].count++) {
		seen[n].bytes = malloc(size);
		memcpy(seen[n].bytes, rec, size);
		seen[n].size = size;
	}
}

static int on_buffer(void *ctx, const void *buf, uint32_t size, unsigned int cpu)
{
	if (expect_walk(buf, collect, ctx) < 0)
		bad_buffers++;
	return 0;
}

static void forget(void)
{
	unsigned int i;

	for (i = 0; i < MAXNUM; i++) {
		free(seen[i].bytes);
		seen[i].bytes = NULL;
		seen[i].count = 0;
	}
	bad_buffers = 0;
	foreign = 0;
}

/* ---- every flag combination, byte for byte ---- */

#define NSETS 5
static const uint32_t set_sizes[NSETS][MOF_MAX + 1] = {
	{ 0 }, { 1, 1 }, { 3, 3, 0, 5 }, { 5, 7, 13, 2, 31, 1 },
	{ 16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
};

struct planned {
	struct ev e;
	int ptr32;
	uint64_t before, after;
	uint8_t data[256];
	uint32_t len;
	uint32_t status;
};

static void test_encoding(uint32_t logger, struct nttrace_consumer *c)
{
	static struct planned plan[2 * 2 * 8 * NSETS];
	static const uint32_t types[2] = { T_HEADER, T_INSTANCE };
	uint32_t tid = syscall(SYS_gettid), pid = getpid();
	unsigned int n = 0, i, wrong = 0, missing = 0, failed = 0, t, w, f, s;
	uint8_t mof[MOF_MAX * 16], *want = malloc(0x10000);
	uint16_t number = 1;

	forget();
	for (t = 0; t < 2; t++)
		for (w = 0; w < 2; w++)
			for (f = 0; f < 8; f++)
				for (s = 0; s < NSETS; s++, n++) {
					struct planned *pl = &plan[n];
					const uint32_t *sz = set_sizes[s];
					uint32_t k, off = 1;

					pl->e.type = types[t];
					pl->e.nt_extra = w ? NT_WOW64 : 0;
					pl->e.wflags = F_TRACED_GUID |
						       ((f & 1) ? F_MOF_PTR : 0) |
						       ((f & 2) ? F_GUID_PTR : 0) |
						       ((f & 4) ? F_TIMESTAMP : 0);
					pl->e.number = number++;
					pl->e.guid_ptr = guid3;
					pl->e.ts = 0x0102030405060708ULL * pl->e.number;
					pl->ptr32 = BITS == 32 || w;
					/* Bytes that differ per event, at odd places. */
					for (k = 0; k < sizeof(pool); k++)
						pool[k] = (uint8_t)(k * 37 + pl->e.number * 11 + 1);
					pl->len = 0;
					for (k = 0; k < sz[0]; k++) {
						memcpy(pl->data + pl->len, pool + off, sz[1 + k]);
						put_mof(mof + 16 * k, pool + off, sz[1 + k]);
						pl->len += sz[1 + k];
						off += sz[1 + k] * 2 + 3;
					}
					if (f & 1) {
						pl->e.extra = mof;
						pl->e.extra_len = 16 * sz[0];
					} else {
						pl->e.extra = pl->data;
						pl->e.extra_len = pl->len;
					}
					pl->before = mono_ns();
					pl->status = raw(logger, &pl->e);
					pl->after = mono_ns();
					if (pl->status)
						failed++;
				}
	tap_eq(failed, 0, "%d-bit: %u events (both types, WOW64 flag, MOF, GuidPtr, "
	       "TimeStamp, 5 data sets) -> STATUS_SUCCESS", BITS, n);
	flush_drain(c, logger, on_buffer, NULL);
	tap_eq(bad_buffers, 0, "%d-bit: every buffer walks cleanly, zero padding", BITS);
	for (i = 0; i < n; i++) {
		struct planned *pl = &plan[i];
		uint16_t num = pl->e.number;
		uint64_t ts;
		uint32_t size;

		if (seen[num].count != 1) {
			missing++;
			continue;
		}
		ts = get_le(seen[num].bytes + 0x10, 8);
		if (pl->e.wflags & F_TIMESTAMP) {
			if (ts != pl->e.ts)
				wrong++;
		} else if (ts < pl->before || ts > pl->after) {
			wrong++;
		}
		size = encode_record(&pl->e, pl->ptr32, tid, pid, ts, pl->data, pl->len, want);
		if (size != seen[num].size || memcmp(want, seen[num].bytes, size)) {
			if (!wrong)
				printf("# first wrong record: type %#x flags %#x number %u\n",
				       pl->e.type, pl->e.wflags, num);
			wrong++;
		}
	}
	tap_eq(missing, 0, "%d-bit: each event once in the buffers", BITS);
	tap_eq(wrong, 0, "%d-bit: each record byte for byte as encoded here "
	       "(0x%02x/0x%02x, 0x%02x/0x%02x with WOW64_CALL)", BITS,
	       BITS == 64 ? 0x14 : 0x0A, BITS == 64 ? 0x15 : 0x0B, 0x0A, 0x0B);
	forget();
	free(want);
}

/* ---- status codes ---- */

/* Expect @want from @e, and (afterwards) no record numbered e->number. */
static void expect_status(uint64_t handle, const struct ev *e, uint32_t want,
			  const char *what)
{
	tap_eq(raw(handle, e), want, "%d-bit: %s %s", BITS,
	       e->type == T_INSTANCE ? "TRACE_INSTANCE" : "TRACE_HEADER", what);
}

static void test_errors(uint32_t logger, uint32_t stopped, struct nttrace_consumer *c)
{
	static const uint32_t types[2] = { T_HEADER, T_INSTANCE };
	long pg = getpagesize();
	uint8_t *edge, *gone, mof[MOF_MAX * 16 + 32];
	unsigned int t, i, recs = 0;
	uint16_t number = 2000;

	/* Two pages, the second unmapped: edge is where readable memory ends. */
	edge = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(edge + pg, pg);
	edge += pg;
	gone = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(gone, pg);

	forget();
	for (t = 0; t < 2; t++) {
		uint32_t hl = hdr_len(types[t]);
		struct ev e = { .type = types[t], .wflags = F_TRACED_GUID, .number = number++ };
		uint8_t *at;

		expect_status(0, &e, S_INVALID_HANDLE, "handle 0 -> STATUS_INVALID_HANDLE");
		expect_status(0xFFFF, &e, S_INVALID_HANDLE,
			      "handle 0xFFFF -> STATUS_INVALID_HANDLE");
		expect_status(0x12340000 | 0xFFFF, &e, S_INVALID_HANDLE,
			      "handle ...FFFF -> STATUS_INVALID_HANDLE");
		expect_status(stopped, &e, S_INVALID_HANDLE,
			      "a stopped logger -> STATUS_INVALID_HANDLE");
		e.size = 4;
		expect_status(stopped, &e, S_INVALID_HANDLE,
			      "a stopped logger, bad Size -> STATUS_INVALID_HANDLE first");
		e.size = hl - 1;
		expect_status(logger, &e, S_INVALID_PARAMETER,
			      "Size below the header -> STATUS_INVALID_PARAMETER");
		e.size = 0;
		e.wflags = F_MOF_PTR | F_GUID_PTR;
		expect_status(logger, &e, S_INVALID_PARAMETER,
			      "no WNODE_FLAG_TRACED_GUID -> STATUS_INVALID_PARAMETER");

		/* The front door's defences. */
		e.wflags = F_TRACED_GUID;
		tap_eq(raw_at(logger, &e, (uint8_t *)fields_buf + 2), S_MISALIGNMENT,
		       "%d-bit: %s Fields misaligned -> STATUS_DATATYPE_MISALIGNMENT", BITS,
		       t ? "TRACE_INSTANCE" : "TRACE_HEADER");
		tap_eq((uint32_t)NtTraceEvent((HANDLE)(uintptr_t)logger, types[t], hl, NULL),
		       S_ACCESS_VIOLATION, "%d-bit: %s Fields NULL -> STATUS_ACCESS_VIOLATION",
		       BITS, t ? "TRACE_INSTANCE" : "TRACE_HEADER");
		/* Inline data running off readable memory. */
		at = edge - hl - 32;
		e.size = hl + 40;
		tap_eq(raw_at(logger, &e, at), S_ACCESS_VIOLATION,
		       "%d-bit: %s inline data past readable memory -> STATUS_ACCESS_VIOLATION",
		       BITS, t ? "TRACE_INSTANCE" : "TRACE_HEADER");

		/* MOF_FIELD arrays. */
		e.wflags = F_TRACED_GUID | F_MOF_PTR;
		e.extra = mof;
		for (i = 0; i < MOF_MAX + 2; i++)
			put_mof(mof + 16 * i, pool + i, 1);
		e.size = hl + 0x110;
		expect_status(logger, &e, S_ARRAY_BOUNDS,
			      "MOF array of 0x110 bytes -> STATUS_ARRAY_BOUNDS_EXCEEDED");
		e.size = hl + 0x101;
		expect_status(logger, &e, S_ARRAY_BOUNDS,
			      "MOF array of 0x101 bytes -> STATUS_ARRAY_BOUNDS_EXCEEDED");
		e.size = 0;
		put_mof(mof, pool, 0xFFFFFFFF);
		put_mof(mof + 16, pool, 2);
		e.extra_len = 32;
		expect_status(logger, &e, S_BUFFER_OVERFLOW,
			      "header + items past 32 bits -> STATUS_BUFFER_OVERFLOW");
		put_mof(mof, pool, 0x10000 - hl);
		e.extra_len = 16;
		expect_status(logger, &e, S_INTEGER_OVERFLOW,
			      "header + items past 16 bits -> STATUS_INTEGER_OVERFLOW");
		put_mof(mof, pool, 0xFFFF - hl);
		expect_status(logger, &e, S_BUFFER_OVERFLOW,
			      "a record larger than a buffer -> STATUS_BUFFER_OVERFLOW");
		/* A MOF item unmapped, in the middle: nothing committed. */
		put_mof(mof, pool, 5);
		put_mof(mof + 16, gone + 8, 4);
		put_mof(mof + 32, pool + 5, 5);
		e.extra_len = 48;
		expect_status(logger, &e, S_ACCESS_VIOLATION,
			      "middle MOF item unmapped -> STATUS_ACCESS_VIOLATION");
		put_mof(mof + 16, edge - 2, 4);
		expect_status(logger, &e, S_ACCESS_VIOLATION,
			      "MOF item running off readable memory -> STATUS_ACCESS_VIOLATION");
		/* The MOF_FIELD array itself running off readable memory. */
		put_mof(mof + 16, pool + 10, 4);
		e.extra_len = 0;
		e.size = hl + 48;
		at = edge - hl - 32;
		memcpy(edge - 32, mof, 32);
		tap_eq(raw_at(logger, &e, at), S_ACCESS_VIOLATION,
		       "%d-bit: %s MOF array past readable memory -> STATUS_ACCESS_VIOLATION",
		       BITS, t ? "TRACE_INSTANCE" : "TRACE_HEADER");
		e.size = 0;
		/* GuidPtr unreadable. */
		e.wflags = F_TRACED_GUID | F_GUID_PTR;
		e.guid_ptr = gone;
		expect_status(logger, &e, S_ACCESS_VIOLATION,
			      "GuidPtr unmapped -> STATUS_ACCESS_VIOLATION");
	}
	flush_drain(c, logger, on_buffer, NULL);
	for (i = 2000; i < number; i++)
		recs += seen[i].count;
	tap_eq(recs, 0, "%d-bit: no refused event reached a buffer", BITS);
	forget();
	munmap(edge - pg, pg);
}

/* A full ring: STATUS_NO_MEMORY, each counted lost. */
static void test_ring_full(void)
{
	static const uint32_t types[2] = { T_HEADER, T_INSTANCE };
	struct nttrace_logger_info info;
	unsigned int t, i, nomem, other;

	for (t = 0; t < 2; t++) {
		struct ev e = { .type = types[t], .wflags = F_TRACED_GUID, .size = 2000 };

		if (start_session("cls-full", 4, 2, 0, &info)) {
			tap_ok(0, "%d-bit: start cls-full", BITS);
			return;
		}
		for (i = 0, nomem = 0, other = 0; i < 200; i++) {
			uint32_t st = raw(info.logger_id, &e);

			if (st == S_NO_MEMORY)
				nomem++;
			else if (st)
				other++;
		}
		tap_ok(nomem > 0 && other == 0, "%d-bit: %s into a full ring -> STATUS_NO_MEMORY "
		       "(%u of 200)", BITS, t ? "TRACE_INSTANCE" : "TRACE_HEADER", nomem);
		nttrace_control(&info, NTTRACE_EVENT_TRACE_CONTROL_QUERY);
		tap_eq(info.events_lost, nomem, "%d-bit: ... each one counted lost", BITS);
		stop_session(info.logger_id);
	}
}

/* ---- who may write ---- */

static int *shared;

/* @e to @logger as uid/gid 65534 with no capability; its status. */
static uint32_t as_stranger(uint32_t logger, const struct ev *e)
{
	int status;
	pid_t pid;

	*shared = -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(1);
		*shared = (int)raw(logger, e);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		printf("# the child failed to drop its privileges\n");
	return (uint32_t)*shared;
}

static void test_who(void)
{
	static const uint32_t types[2] = { T_HEADER, T_INSTANCE };
	static const char *const names[2] = { "TRACE_HEADER", "TRACE_INSTANCE" };
	struct nttrace_logger_info open_s, secure, paged;
	struct nttrace_consumer *c;
	struct nttrace_counts n;
	uint8_t data[4] = { 1, 2, 3, 4 };
	unsigned int t, written = 0;

	if (getuid() != 0) {
		SKIP(return, "# SKIP secure sessions and strangers need root");
	}
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (start_session("cls-open", 4, 4, 0, &open_s) ||
	    start_session("cls-secure", 4, 4, NTTRACE_EVENT_TRACE_SECURE_MODE, &secure) ||
	    start_session("cls-paged", 4, 4, NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY, &paged)) {
		tap_ok(0, "%d-bit: start cls-open, cls-secure, cls-paged", BITS);
		return;
	}
	tap_eq(nttrace_consumer_open(&c, secure.logger_id), 0, "%d-bit: attach cls-secure",
	       BITS);
	for (t = 0; t < 2; t++) {
		struct ev e = { .type = types[t], .wflags = F_TRACED_GUID, .number = 7,
				.extra = data, .extra_len = 4 };
		uint32_t want = t ? S_ACCESS_DENIED : S_SUCCESS;

		tap_eq(as_stranger(open_s.logger_id, &e), S_SUCCESS,
		       "%d-bit: %s to a session that is not secure, unprivileged -> "
		       "STATUS_SUCCESS", BITS, names[t]);
		tap_eq(raw(secure.logger_id, &e), want,
		       "%d-bit: %s to a secure session by its owner -> %s", BITS, names[t],
		       t ? "STATUS_ACCESS_DENIED" : "STATUS_SUCCESS");
		written += !t;
		tap_eq(as_stranger(secure.logger_id, &e), S_ACCESS_DENIED,
		       "%d-bit: %s to a secure session, unprivileged -> STATUS_ACCESS_DENIED",
		       BITS, names[t]);
		/* Refused before the Size is looked at. */
		e.size = 1;
		tap_eq(as_stranger(secure.logger_id, &e), S_ACCESS_DENIED,
		       "%d-bit: %s to a secure session, unprivileged, bad Size -> "
		       "STATUS_ACCESS_DENIED", BITS, names[t]);
		e.size = 0;
		/* Paged memory matters only to kernel-mode callers. */
		tap_eq(raw(paged.logger_id, &e), S_SUCCESS,
		       "%d-bit: %s to a USE_PAGED_MEMORY session from user mode -> "
		       "STATUS_SUCCESS", BITS, names[t]);
	}
	nttrace_consumer_counts(c, &n);
	tap_eq(n.events_written, written, "%d-bit: the secure session wrote what it took",
	       BITS);
	tap_eq(n.events_lost, 0, "%d-bit: refused events are not counted lost", BITS);
	nttrace_consumer_close(c);
	stop_session(open_s.logger_id);
	stop_session(secure.logger_id);
	stop_session(paged.logger_id);
	munmap(shared, 4096);
}

/* ---- a MOF item unmapped while the call runs ---- */

#define RACE_CALLS 20000
static volatile int race_stop;
static uint8_t *unmap_page;
static int unmap_fd;
static unsigned int race_bad, race_records;
static uint32_t race_hl;

static void check_race_record(void *ctx, const uint8_t *rec, uint32_t size)
{
	uint32_t i;

	race_records++;
	if (size != race_hl + 5 + 24 + 5) {
		race_bad++;
		return;
	}
	for (i = 0; i < 5; i++)
		if (rec[race_hl + i] != 0x11 || rec[race_hl + 29 + i] != 0x22)
			race_bad++;
	for (i = 0; i < 24; i++)
		if (rec[race_hl + 5 + i] != 0xA5)
			race_bad++;
}

static int race_buffer(void *ctx, const void *buf, uint32_t size, unsigned int cpu)
{
	if (expect_walk(buf, check_race_record, NULL) < 0)
		race_bad++;
	return 0;
}

static void *unmapper(void *unused)
{
	long pg = getpagesize();

	while (!race_stop) {
		munmap(unmap_page, pg);
		mmap(unmap_page, pg, PROT_READ, MAP_SHARED | MAP_FIXED, unmap_fd, 0);
	}
	return NULL;
}

static void test_unmap_race(uint32_t logger, struct nttrace_consumer *c)
{
	static const uint32_t types[2] = { T_HEADER, T_INSTANCE };
	static uint8_t one[5], two[5];
	long pg = getpagesize();
	uint8_t *fill = malloc(pg), mof[48];
	unsigned int t, i;

	memset(one, 0x11, 5);
	memset(two, 0x22, 5);
	/* A memfd page: whenever it is mapped, it holds 0xA5 throughout. */
	unmap_fd = memfd_create("mof", 0);
	memset(fill, 0xA5, pg);
	if (unmap_fd < 0 || write(unmap_fd, fill, pg) != pg) {
		tap_ok(0, "%d-bit: memfd for the unmap race", BITS);
		return;
	}
	flush_drain(c, logger, race_buffer, NULL);	/* nothing of before */
	for (t = 0; t < 2; t++) {
		struct ev e = { .type = types[t], .wflags = F_TRACED_GUID | F_MOF_PTR,
				.extra = mof, .extra_len = 48 };
		unsigned int ok = 0, noaccess = 0, other = 0;
		pthread_t th;

		race_hl = hdr_len(types[t]);
		race_bad = race_records = 0;
		unmap_page = mmap(NULL, pg, PROT_READ, MAP_SHARED, unmap_fd, 0);
		put_mof(mof, one, 5);
		put_mof(mof + 16, unmap_page + 100, 24);
		put_mof(mof + 32, two, 5);
		race_stop = 0;
		pthread_create(&th, NULL, unmapper, NULL);
		for (i = 0; i < RACE_CALLS; i++) {
			uint32_t st = raw(logger, &e);

			if (st == S_SUCCESS)
				ok++;
			else if (st == S_ACCESS_VIOLATION)
				noaccess++;
			else
				other++;
			if (i % 1000 == 999)
				nttrace_consumer_drain(c, race_buffer, NULL);
		}
		race_stop = 1;
		pthread_join(th, NULL);
		flush_drain(c, logger, race_buffer, NULL);
		printf("# %s unmap race: %u written, %u STATUS_ACCESS_VIOLATION\n",
		       t ? "TRACE_INSTANCE" : "TRACE_HEADER", ok, noaccess);
		tap_eq(other, 0, "%d-bit: %s MOF item unmapped mid-call: only success or "
		       "STATUS_ACCESS_VIOLATION", BITS, t ? "TRACE_INSTANCE" : "TRACE_HEADER");
		tap_eq(race_bad, 0, "%d-bit: ... every record whole", BITS);
		tap_eq(race_records, ok, "%d-bit: ... one record per success, none for a "
		       "failure", BITS);
		munmap(unmap_page, pg);
	}
	close(unmap_fd);
	free(fill);
}

/* A session and its consumer, shared by the encoding, error and race tests. */
TEST_F(nttrace, one_session)
{
	struct nttrace_logger_info info, gone;
	struct nttrace_consumer *c;

	if (!tap_ok(start_session("cls", 16, 16, 0, &info) == 0, "%d-bit: start cls", BITS) ||
	    !tap_ok(nttrace_consumer_open(&c, info.logger_id) == 0, "%d-bit: attach", BITS))
		return;
	/* A logger ID that was running and is no more. */
	if (!tap_ok(start_session("cls-gone", 4, 2, 0, &gone) == 0, "%d-bit: start cls-gone",
		    BITS))
		return;
	stop_session(gone.logger_id);

	test_encoding(info.logger_id, c);
	test_errors(info.logger_id, gone.logger_id, c);
	test_unmap_race(info.logger_id, c);
	nttrace_consumer_close(c);
	stop_session(info.logger_id);
}

TEST_F(nttrace, ring_full)
{
	test_ring_full();
}

TEST_F(nttrace, who)
{
	test_who();
}

int main(int argc, char **argv)
{
	return harness_run(argc, argv);
}
