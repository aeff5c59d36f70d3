// SPDX-License-Identifier: GPL-2.0
/*
 * NTTRACE_TRACE_MESSAGE end to end through the kernel: TraceMessage (the library)
 * and raw NtTraceEvent calls for every combination of the six MessageFlags
 * and several argument lists of odd sizes, each record compared byte for
 * byte with the test's own encoder (expect.h); each error through both
 * layers; a thread rewriting the argument list, and one unmapping an
 * argument, while another traces; threads on both vCPUs. Runs in the VM,
 * 64-bit and 32-bit.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/evntrace.h>
#include <nttrace/session.h>
#include "expect.h"
#include "emit.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define NSETS 4
#define NPATHS 3	/* library, raw NtTraceEvent, raw with WOW64_CALL (64-bit) */

static const uint8_t guid[16] = {
	0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
};
static const uint32_t set_sizes[NSETS][6] = {
	{ 0 }, { 1, 1 }, { 3, 3, 0, 5 }, { 5, 7, 13, 2, 31, 1 },
};
static uint8_t arg_bytes[64 + 8];

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- collecting records, by message number ---- */

#define MAXNUM 4096
static struct {
	uint8_t *bytes;
	uint32_t size;
	unsigned int count;
} seen[MAXNUM];
static unsigned int bad_buffers;

static void collect(void *ctx, const uint8_t *rec, uint32_t size)
{
	uint16_t n = get_le(rec + 4, 2);

	if (n >= MAXNUM)
		return;
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
}

/* ---- raw calls, built here without the library's message code ---- */

static uint32_t raw_call(uint32_t logger, uint32_t nt_flags, uint32_t flags,
			 uint16_t number, const void *id, const void *list,
			 uint32_t list_size)
{
	struct nttrace_message_trace_user m;

	memset(&m, 0, sizeof(m));
	m.message_number = number;
	memcpy(m.message_guid, id, 16);
	m.message_flags = flags;
	m.data = (uintptr_t)list;
	m.data_size = list_size;
	return (uint32_t)NtTraceEvent((HANDLE)(uintptr_t)logger, nt_flags,
				      sizeof(m), &m);
}

/* Trace one event of argument set @set by @path; returns a Win32 error. */
static uint32_t trace_set(uint32_t logger, int path, uint32_t flags,
			  uint16_t number, int set, uint8_t *data, uint32_t *len)
{
	const uint32_t *sz = set_sizes[set];
	uintptr_t list[2 * 6 + 1];
	uint32_t list32[2 * 6 + 1];
	const uint8_t *p[6];
	unsigned int i, n = sz[0], off = 1;

	/* Odd addresses, bytes that differ per event. */
	for (i = 0; i < sizeof(arg_bytes); i++)
		arg_bytes[i] = (uint8_t)(i * 37 + number * 11 + 1);
	*len = 0;
	for (i = 0; i < n; i++) {
		p[i] = arg_bytes + off;
		memcpy(data + *len, p[i], sz[1 + i]);
		*len += sz[1 + i];
		off += sz[1 + i] + 1;
	}
	if (path == 0) {
		switch (n) {
		case 0:
			return TraceMessage(logger, flags, (LPCGUID)guid, number, NULL);
		case 1:
			return TraceMessage(logger, flags, (LPCGUID)guid, number,
					    p[0], (size_t)sz[1], NULL);
		case 3:
			return TraceMessage(logger, flags, (LPCGUID)guid, number,
					    p[0], (size_t)sz[1], p[1], (size_t)sz[2],
					    p[2], (size_t)sz[3], NULL);
		default:
			return TraceMessage(logger, flags, (LPCGUID)guid, number,
					    p[0], (size_t)sz[1], p[1], (size_t)sz[2],
					    p[2], (size_t)sz[3], p[3], (size_t)sz[4],
					    p[4], (size_t)sz[5], NULL);
		}
	}
	for (i = 0; i < n; i++) {
		list[2 * i] = (uintptr_t)p[i];
		list[2 * i + 1] = sz[1 + i];
		list32[2 * i] = (uint32_t)(uintptr_t)p[i];
		list32[2 * i + 1] = sz[1 + i];
	}
	list[2 * n] = 0;
	list32[2 * n] = 0;
	if (path == 1)
		return RtlNtStatusToDosError(raw_call(logger, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE,
				flags, number, guid, list, (2 * n + 1) * sizeof(uintptr_t)));
	return RtlNtStatusToDosError(raw_call(logger, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE |
				NTTRACE_ETW_NT_FLAGS_WOW64_CALL, flags, number, guid, list32,
				(2 * n + 1) * 4));
}

/* ---- every flag combination, byte for byte ---- */

struct planned {
	uint32_t flags;
	int ptr32;
	uint64_t before, after;
	uint8_t data[64];
	uint32_t len;
};

static void test_encoding(uint32_t logger, struct nttrace_consumer *c)
{
	static struct planned plan[64 * NSETS * NPATHS];
	unsigned int wrong[NPATHS] = { 0 }, missing = 0, order = 0, n = 0;
	int npaths = BITS == 64 && (uintptr_t)arg_bytes < (1ULL << 32) ? 3 : 2;
	uint32_t flags, last_seq = 0, tid = syscall(SYS_gettid), pid = getpid();
	unsigned int i;
	int set, path;

	forget();
	for (flags = 0; flags < 64; flags++) {
		for (set = 0; set < NSETS; set++) {
			for (path = 0; path < npaths; path++, n++) {
				struct planned *pl = &plan[n];
				uint32_t err;

				pl->flags = flags;
				pl->ptr32 = BITS == 32 || path == 2;
				pl->before = mono_ns();
				err = trace_set(logger, path, flags, n, set, pl->data, &pl->len);
				pl->after = mono_ns();
				if (err) {
					printf("# flags 0x%x set %d path %d: error %u\n",
					       flags, set, path, err);
					wrong[path]++;
				}
			}
		}
	}
	flush_drain(c, logger, on_buffer, NULL);
	tap_eq(bad_buffers, 0, "%d-bit: every buffer walks cleanly (sizes, zero padding)", BITS);

	for (i = 0; i < n; i++) {
		struct planned *pl = &plan[i];
		struct expect_layout l = expect_layout(pl->flags);
		struct expect e = {
			.number = i, .flags = pl->flags, .ptr32 = pl->ptr32,
			.guid = guid, .tid = tid, .pid = pid,
			.data = pl->data, .len = pl->len,
		};
		uint8_t want[256];
		uint32_t size;
		const uint8_t *got = seen[i].bytes;

		if (seen[i].count != 1) {
			missing++;
			continue;
		}
		if (l.seq >= 0) {
			e.seq = get_le(got + l.seq, 4);
			if (e.seq <= last_seq)
				order++;
			last_seq = e.seq;
		}
		if (l.ts >= 0 && (pl->flags & TRACE_MESSAGE_TIMESTAMP)) {
			e.ts = get_le(got + l.ts, 8);
			if (e.ts < pl->before || e.ts > pl->after)
				order++;
		}
		size = expect_encode(&e, want);
		if (size != seen[i].size || memcmp(want, got, size)) {
			if (wrong[i % npaths]++ < 3)
				printf("# event %u (flags 0x%x) differs from the encoder\n",
				       i, pl->flags);
		}
	}
	tap_eq(missing, 0, "%d-bit: each of %u events is in the buffers exactly once", BITS, n);
	tap_eq(order, 0, "%d-bit: sequence numbers rise in call order; time stamps "
	       "within the call", BITS);
	tap_eq(wrong[0], 0, "%d-bit: TraceMessage: 64 flag sets x %d argument lists "
	       "match the encoder byte for byte", BITS, NSETS);
	tap_eq(wrong[1], 0, "%d-bit: raw NtTraceEvent: 64 flag sets x %d argument lists "
	       "match the encoder byte for byte", BITS, NSETS);
	if (npaths == 3)
		tap_eq(wrong[2], 0, "%d-bit: raw NtTraceEvent with WOW64_CALL (4+4-byte "
		       "pairs): POINTER32 records match byte for byte", BITS);
	forget();
}

/* ---- errors, through the library and raw ---- */

static uint8_t big[16384];

static void test_errors(uint32_t logger, uint32_t small_logger)
{
	long pg = getpagesize();
	uint8_t *page = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *none = page + pg;
	uintptr_t list[5];
	uint32_t id4 = 0x01020304;
	uint32_t err;

	mprotect(none, pg, PROT_NONE);

	SetLastError(12345);
	tap_eq(TraceMessage(logger, 0, NULL, 1, NULL), ERROR_SUCCESS,
	       "%d-bit: TraceMessage succeeds", BITS);
	tap_eq(GetLastError(), ERROR_SUCCESS, "%d-bit: ... and sets the last error to 0", BITS);

	tap_eq(TraceMessage(0, 0, NULL, 1, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: TraceMessage to logger 0 -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(GetLastError(), ERROR_INVALID_HANDLE, "%d-bit: ... also the last error", BITS);
	tap_eq(TraceMessage(0xFFFF, 0, NULL, 1, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: TraceMessage to logger 0xFFFF -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(TraceMessage(0x10000, 0, NULL, 1, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: TraceMessage to 0x10000 (logger ID 0) -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(TraceMessage(NTTRACE_MAX_LOGGERS, 0, NULL, 1, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: TraceMessage to a logger not running -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(emit(0, 0, 1, "x", 1), STATUS_INVALID_HANDLE,
	       "%d-bit: raw logger 0 -> STATUS_INVALID_HANDLE", BITS);
	tap_eq(emit(0xFFFF, 0, 1, "x", 1), STATUS_INVALID_HANDLE,
	       "%d-bit: raw logger 0xFFFF -> STATUS_INVALID_HANDLE", BITS);
	tap_eq(emit(NTTRACE_MAX_LOGGERS, 0, 1, "x", 1), STATUS_INVALID_HANDLE,
	       "%d-bit: raw, logger not running -> STATUS_INVALID_HANDLE", BITS);

	/* 0x30 + arguments: exactly 8 KB is allowed, one byte more is not. */
	tap_eq(TraceMessage(logger, 0, NULL, 2, big, (size_t)(8192 - 0x30), NULL),
	       ERROR_SUCCESS, "%d-bit: 0x30 + 8144 bytes = 8 KB -> success", BITS);
	tap_eq(TraceMessage(logger, 0, NULL, 2, big, (size_t)(8192 - 0x30 - 100),
			    big, (size_t)101, NULL),
	       ERROR_BUFFER_OVERFLOW, "%d-bit: 0x30 + 8145 bytes -> ERROR_BUFFER_OVERFLOW", BITS);
	tap_eq(GetLastError(), ERROR_BUFFER_OVERFLOW, "%d-bit: ... also the last error", BITS);
	tap_eq(TraceMessage(logger, 0, NULL, 2, big, (size_t)-1, NULL),
	       ERROR_BUFFER_OVERFLOW, "%d-bit: a size of SIZE_MAX -> ERROR_BUFFER_OVERFLOW", BITS);
	tap_eq(TraceMessage(small_logger, 0, NULL, 2, big, (size_t)5000, NULL),
	       ERROR_MORE_DATA, "%d-bit: larger than a 4 KB buffer -> ERROR_MORE_DATA "
	       "(STATUS_BUFFER_OVERFLOW)", BITS);
	tap_eq(emit(small_logger, 0, 2, big, 5000), STATUS_BUFFER_OVERFLOW,
	       "%d-bit: raw, larger than a buffer -> STATUS_BUFFER_OVERFLOW", BITS);
	list[0] = (uintptr_t)big;
	list[1] = 40000;
	list[2] = (uintptr_t)big;
	list[3] = 40000;
	list[4] = 0;
	tap_eq(raw_call(logger, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, 0, 2, guid, list, sizeof(list)),
	       STATUS_INTEGER_OVERFLOW, "%d-bit: raw, 80000 bytes -> STATUS_INTEGER_OVERFLOW", BITS);

	/* Bad addresses. */
	tap_eq(TraceMessage(logger, 0, NULL, 3, (void *)16, (size_t)4, NULL), ERROR_NOACCESS,
	       "%d-bit: an unreadable argument -> ERROR_NOACCESS", BITS);
	tap_eq(GetLastError(), ERROR_NOACCESS, "%d-bit: ... also the last error", BITS);
	tap_eq(TraceMessage(logger, 0, NULL, 3, none - 2, (size_t)4, NULL), ERROR_NOACCESS,
	       "%d-bit: an argument running into an unmapped page -> ERROR_NOACCESS", BITS);
	tap_eq(emit(logger, 0, 3, none, 1), STATUS_ACCESS_VIOLATION,
	       "%d-bit: raw, unreadable argument -> STATUS_ACCESS_VIOLATION", BITS);
	tap_eq(TraceMessage(logger, TRACE_MESSAGE_GUID, (LPCGUID)none, 3, NULL), ERROR_NOACCESS,
	       "%d-bit: an unreadable MessageGuid -> ERROR_NOACCESS", BITS);
	tap_eq(TraceMessage(logger, TRACE_MESSAGE_GUID, NULL, 3, NULL), ERROR_NOACCESS,
	       "%d-bit: a NULL MessageGuid with TRACE_MESSAGE_GUID -> ERROR_NOACCESS", BITS);
	memcpy(none - 4, &id4, 4);
	tap_eq(TraceMessage(logger, TRACE_MESSAGE_COMPONENTID | TRACE_MESSAGE_GUID,
			    (LPCGUID)(none - 4), 3, NULL), ERROR_SUCCESS,
	       "%d-bit: COMPONENTID reads only the 4 bytes of the ID", BITS);
	tap_eq(TraceMessage(logger, 0, (LPCGUID)none, 3, NULL), ERROR_SUCCESS,
	       "%d-bit: without GUID or COMPONENTID, MessageGuid is not read", BITS);
	tap_eq(raw_call(logger, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, 0, 3, guid, (void *)none,
			sizeof(list)), STATUS_ACCESS_VIOLATION,
	       "%d-bit: raw, unreadable argument list -> STATUS_ACCESS_VIOLATION", BITS);
	tap_eq(raw_call(logger, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, 0, 3, guid,
			(uint8_t *)list + 2, 3 * sizeof(uintptr_t)),
	       STATUS_DATATYPE_MISALIGNMENT,
	       "%d-bit: raw, misaligned argument list -> STATUS_DATATYPE_MISALIGNMENT", BITS);
	list[0] = (uintptr_t)big;
	list[1] = 1;
	tap_eq(raw_call(logger, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, 0, 3, guid, list,
			2 * sizeof(uintptr_t)), STATUS_INVALID_PARAMETER,
	       "%d-bit: raw, DataSize ends before the NULL -> STATUS_INVALID_PARAMETER", BITS);

	/* Too many arguments: 257 pairs. */
	{
		static uintptr_t many[2 * 257 + 1];
		unsigned int i;

		for (i = 0; i < 257; i++) {
			many[2 * i] = (uintptr_t)big;
			many[2 * i + 1] = 1;
		}
		tap_eq(raw_call(logger, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, 0, 3, guid, many,
				sizeof(many)), STATUS_INVALID_PARAMETER,
		       "%d-bit: raw, 257 arguments -> STATUS_INVALID_PARAMETER", BITS);
		many[2 * 256] = 0;
		tap_eq(raw_call(logger, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, 0, 3, guid, many,
				(2 * 256 + 1) * sizeof(uintptr_t)), STATUS_SUCCESS,
		       "%d-bit: raw, 256 arguments -> success", BITS);
	}
#define P8 big, (size_t)1, big, (size_t)1, big, (size_t)1, big, (size_t)1, \
	   big, (size_t)1, big, (size_t)1, big, (size_t)1, big, (size_t)1
#define P64 P8, P8, P8, P8, P8, P8, P8, P8
	err = TraceMessage(logger, 0, NULL, 3, P64, P64, P64, P64, big, (size_t)1, NULL);
	tap_eq(err, ERROR_INVALID_PARAMETER,
	       "%d-bit: TraceMessage with 257 arguments -> ERROR_INVALID_PARAMETER", BITS);
	err = TraceMessage(logger, 0, NULL, 3, P64, P64, P64, P64, NULL);
	tap_eq(err, ERROR_SUCCESS, "%d-bit: TraceMessage with 256 arguments -> success", BITS);

	tap_eq(RtlNtStatusToDosError(STATUS_DATATYPE_MISALIGNMENT), ERROR_NOACCESS,
	       "%d-bit: STATUS_DATATYPE_MISALIGNMENT maps to ERROR_NOACCESS", BITS);
	tap_eq(RtlNtStatusToDosError(0xC0001234), ERROR_MR_MID_NOT_FOUND,
	       "%d-bit: an unknown status maps to ERROR_MR_MID_NOT_FOUND", BITS);
	munmap(page, 2 * pg);
}

static void test_ring_full(void)
{
	struct nttrace_logger_info info;
	unsigned int i, nomem = 0, other = 0;

	/* 2 buffers of 4 KB per CPU, no consumer: the ring fills up. */
	if (start_session("msg-full", 4, 2, 0, &info))
		return (void)tap_ok(0, "%d-bit: start msg-full", BITS);
	for (i = 0; i < 400; i++) {
		uint32_t err = TraceMessage(info.logger_id, 0, NULL, 1, big, (size_t)100, NULL);

		if (err == ERROR_NOT_ENOUGH_MEMORY && GetLastError() == err)
			nomem++;
		else if (err)
			other++;
	}
	tap_ok(nomem > 0 && other == 0, "%d-bit: a full ring -> ERROR_NOT_ENOUGH_MEMORY "
	       "(%u of 400)", BITS, nomem);
	nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY);
	tap_eq(info.events_lost, nomem, "%d-bit: ... each one counted lost", BITS);
	stop_session(info.logger_id);
}

/* ---- races ---- */

#define RACE_CALLS 20000
static volatile int race_stop;

/* Two arguments whose bytes say which they are: 0xA5... and 0x5A.... */
static uint8_t arg_a[64], arg_b[64];
static uintptr_t race_list[5];

static void *rewriter(void *unused)
{
	unsigned int i = 0;

	while (!race_stop) {
		i++;
		__atomic_store_n(&race_list[1], (i & 1) ? 8 : 24, __ATOMIC_RELAXED);
		__atomic_store_n(&race_list[3], (i & 2) ? 16 : 40, __ATOMIC_RELAXED);
		/* Sometimes no argument at all, sometimes an end past DataSize. */
		__atomic_store_n(&race_list[0], (i & 12) == 12 ? 0 : (uintptr_t)arg_a,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&race_list[4], (i & 48) == 48 ? (uintptr_t)arg_a : 0,
				 __ATOMIC_RELAXED);
	}
	return NULL;
}

static unsigned int race_bad;

static void check_race_record(void *ctx, const uint8_t *rec, uint32_t size)
{
	uint32_t data = size - 8, a, i;

	/* Flags 0: the data follows the 8-byte header. */
	if (size > 8 + 24 + 40) {
		race_bad++;
		return;
	}
	for (a = 0; a < data && rec[8 + a] == 0xA5; a++)
		;
	for (i = a; i < data && rec[8 + i] == 0x5A; i++)
		;
	if (i != data || !((data == 0) || ((a == 8 || a == 24) &&
		(data - a == 16 || data - a == 40))))
		race_bad++;
}

static int race_buffer(void *ctx, const void *buf, uint32_t size, unsigned int cpu)
{
	if (expect_walk(buf, check_race_record, NULL) < 0)
		race_bad++;
	return 0;
}

static void test_rewrite_race(uint32_t logger, struct nttrace_consumer *c)
{
	unsigned int i, ok = 0, refused = 0, other = 0;
	pthread_t th;

	memset(arg_a, 0xA5, sizeof(arg_a));
	memset(arg_b, 0x5A, sizeof(arg_b));
	race_list[0] = (uintptr_t)arg_a;
	race_list[1] = 8;
	race_list[2] = (uintptr_t)arg_b;
	race_list[3] = 16;
	race_list[4] = 0;
	race_stop = 0;
	race_bad = 0;
	pthread_create(&th, NULL, rewriter, NULL);
	for (i = 0; i < RACE_CALLS; i++) {
		/* DataSize covers two pairs and the NULL. */
		uint32_t st = raw_call(logger, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, 0, 7, guid,
				       race_list, sizeof(race_list));

		if (st == STATUS_SUCCESS)
			ok++;
		else if (st == STATUS_INVALID_PARAMETER)
			refused++;
		else
			other++;
		if (i % 1000 == 999)
			nttrace_consumer_drain(c, race_buffer, NULL);
	}
	race_stop = 1;
	pthread_join(th, NULL);
	flush_drain(c, logger, race_buffer, NULL);
	printf("# rewrite race: %u written, %u refused (no NULL within DataSize)\n",
	       ok, refused);
	tap_eq(other, 0, "%d-bit: list rewritten mid-call: only success or "
	       "STATUS_INVALID_PARAMETER", BITS);
	tap_eq(race_bad, 0, "%d-bit: list rewritten mid-call: no torn, oversized or "
	       "out-of-bounds record", BITS);
}

static uint8_t *unmap_page;
static int unmap_fd;

static void check_unmap_record(void *ctx, const uint8_t *rec, uint32_t size)
{
	uint32_t i;

	if (size != 8 + 24) {
		race_bad++;
		return;
	}
	for (i = 8; i < size; i++)
		if (rec[i] != 0xA5)
			race_bad++;
}

static int unmap_buffer(void *ctx, const void *buf, uint32_t size, unsigned int cpu)
{
	if (expect_walk(buf, check_unmap_record, NULL) < 0)
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
	unsigned int i, ok = 0, noaccess = 0, other = 0;
	long pg = getpagesize();
	uint8_t *fill = malloc(pg);
	pthread_t th;

	/* A memfd page: whenever it is mapped, it holds 0xA5 throughout. */
	unmap_fd = memfd_create("arg", 0);
	memset(fill, 0xA5, pg);
	if (unmap_fd < 0 || write(unmap_fd, fill, pg) != pg) {
		tap_ok(0, "%d-bit: memfd for the unmap race", BITS);
		return;
	}
	unmap_page = mmap(NULL, pg, PROT_READ, MAP_SHARED, unmap_fd, 0);
	race_stop = 0;
	race_bad = 0;
	pthread_create(&th, NULL, unmapper, NULL);
	for (i = 0; i < RACE_CALLS; i++) {
		uint32_t err = TraceMessage(logger, 0, NULL, 8, unmap_page, (size_t)24, NULL);

		if (err == ERROR_SUCCESS)
			ok++;
		else if (err == ERROR_NOACCESS)
			noaccess++;
		else
			other++;
		if (i % 1000 == 999)
			nttrace_consumer_drain(c, unmap_buffer, NULL);
	}
	race_stop = 1;
	pthread_join(th, NULL);
	flush_drain(c, logger, unmap_buffer, NULL);
	printf("# unmap race: %u written, %u ERROR_NOACCESS\n", ok, noaccess);
	tap_eq(other, 0, "%d-bit: argument unmapped mid-call: only success or "
	       "ERROR_NOACCESS", BITS);
	tap_eq(race_bad, 0, "%d-bit: argument unmapped mid-call: every record whole", BITS);
	munmap(unmap_page, pg);
	tap_eq(TraceMessage(logger, 0, NULL, 8, unmap_page, (size_t)24, NULL), ERROR_NOACCESS,
	       "%d-bit: argument unmapped before the call -> ERROR_NOACCESS", BITS);
	close(unmap_fd);
	free(fill);
}

/* ---- both vCPUs ---- */

#define PER_THREAD 5000

static unsigned int producers_done;

struct producer {
	pthread_t th;
	int cpu;
	uint32_t logger;
	unsigned int ok, nomem, other;
	uint8_t *done;		/* per event: 1 if TraceMessage succeeded */
};

static void *produce(void *arg)
{
	struct producer *p = arg;
	cpu_set_t set;
	unsigned int i;

	CPU_ZERO(&set);
	CPU_SET(p->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = 0; i < PER_THREAD; i++) {
		uint32_t id = p->cpu << 16 | i;
		uint32_t err = TraceMessage(p->logger, TRACE_MESSAGE_SEQUENCE |
					    TRACE_MESSAGE_SYSTEMINFO, NULL, 9,
					    &id, sizeof(id), NULL);

		if (!err) {
			p->ok++;
			p->done[i] = 1;
		} else if (err == ERROR_NOT_ENOUGH_MEMORY) {
			p->nomem++;
		} else {
			p->other++;
		}
	}
	__atomic_add_fetch(&producers_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static uint8_t *conc_seen[2];
static uint8_t *seqs;
static unsigned int conc_dup, conc_bad;

static void conc_record(void *ctx, const uint8_t *rec, uint32_t size)
{
	uint32_t seq = get_le(rec + 8, 4), id = get_le(rec + 20, 4);
	unsigned int cpu = id >> 16, i = id & 0xFFFF;

	if (size != 24 || cpu > 1 || i >= PER_THREAD || seq == 0 || seq > 2 * PER_THREAD + 100000) {
		conc_bad++;
		return;
	}
	if (conc_seen[cpu][i]++ || seqs[seq]++)
		conc_dup++;
}

static int conc_buffer(void *ctx, const void *buf, uint32_t size, unsigned int cpu)
{
	if (expect_walk(buf, conc_record, NULL) < 0)
		conc_bad++;
	return 0;
}

static void test_both_cpus(void)
{
	struct nttrace_logger_info info;
	struct nttrace_consumer *c;
	struct nttrace_counts counts;
	struct producer p[2];
	unsigned int t, i, unmarked = 0, seen_total = 0;

	if (start_session("msg-smp", 4, 4, 0, &info) ||
	    nttrace_consumer_open(&c, info.logger_id)) {
		tap_ok(0, "%d-bit: start and attach msg-smp", BITS);
		return;
	}
	seqs = calloc(2 * PER_THREAD + 100001, 1);
	for (t = 0; t < 2; t++) {
		memset(&p[t], 0, sizeof(p[t]));
		p[t].cpu = t;
		p[t].logger = info.logger_id;
		p[t].done = calloc(PER_THREAD, 1);
		conc_seen[t] = calloc(PER_THREAD, 1);
		pthread_create(&p[t].th, NULL, produce, &p[t]);
	}
	for (;;) {
		int busy = __atomic_load_n(&producers_done, __ATOMIC_ACQUIRE) < 2;

		nttrace_consumer_drain(c, conc_buffer, NULL);
		if (!busy)
			break;
		nttrace_consumer_wait(c, 10);
	}
	for (t = 0; t < 2; t++)
		pthread_join(p[t].th, NULL);
	stop_session(info.logger_id);
	nttrace_consumer_drain(c, conc_buffer, NULL);
	nttrace_consumer_counts(c, &counts);
	for (t = 0; t < 2; t++)
		for (i = 0; i < PER_THREAD; i++) {
			seen_total += conc_seen[t][i] ? 1 : 0;
			if (p[t].done[i] && !conc_seen[t][i])
				unmarked++;
		}
	printf("# both vCPUs: %u + %u written, %u + %u refused (ring full)\n",
	       p[0].ok, p[1].ok, p[0].nomem, p[1].nomem);
	tap_eq(p[0].other + p[1].other, 0, "%d-bit: two CPUs: only success or "
	       "ERROR_NOT_ENOUGH_MEMORY", BITS);
	tap_eq(conc_bad + conc_dup, 0, "%d-bit: two CPUs: records whole, sequence "
	       "numbers unique, no event twice", BITS);
	tap_eq(unmarked, 0, "%d-bit: two CPUs: every event reported written was read", BITS);
	tap_eq(seen_total + counts.events_lost, 2 * PER_THREAD,
	       "%d-bit: two CPUs: read + counted lost = traced (nothing lost unmarked)", BITS);
	nttrace_consumer_close(c);
	for (t = 0; t < 2; t++) {
		free(p[t].done);
		free(conc_seen[t]);
	}
	free(seqs);
}

/* ---- NtTraceEvent's descriptor per thread ---- */

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

#define FD_THREADS 70

static pthread_barrier_t fd_traced, fd_counted;
static uint32_t fd_logger;
static unsigned int fd_errors;

static void *trace_and_wait(void *unused)
{
	uint32_t id = 7;

	if (TraceMessage(fd_logger, 0, NULL, 3, &id, sizeof(id), NULL) != ERROR_SUCCESS)
		__atomic_add_fetch(&fd_errors, 1, __ATOMIC_RELAXED);
	pthread_barrier_wait(&fd_traced);
	pthread_barrier_wait(&fd_counted);
	return unused;
}

/*
 * Threads get a descriptor of the library's for their events
 * (userlib/nt/nt.c), one each for the first 64 at a time; a thread that
 * exits leaves it open for the next (the library never closes a
 * descriptor behind the program: process_test).
 */
static void test_thread_fds(uint32_t logger)
{
	pthread_t th[FD_THREADS];
	unsigned int nthreads[3] = { 3, FD_THREADS, 3 }, k, t;
	uint32_t id = 1;
	int before, during;

	fd_logger = logger;
	/* This thread's own, before counting. */
	TraceMessage(logger, 0, NULL, 3, &id, sizeof(id), NULL);
	for (k = 0; k < 3; k++) {
		before = open_fds();
		fd_errors = 0;
		pthread_barrier_init(&fd_traced, NULL, nthreads[k] + 1);
		pthread_barrier_init(&fd_counted, NULL, nthreads[k] + 1);
		for (t = 0; t < nthreads[k]; t++)
			pthread_create(&th[t], NULL, trace_and_wait, NULL);
		pthread_barrier_wait(&fd_traced);
		during = open_fds();
		pthread_barrier_wait(&fd_counted);
		for (t = 0; t < nthreads[k]; t++)
			pthread_join(th[t], NULL);
		tap_eq(fd_errors, 0, "%d-bit: %u threads trace", BITS, nthreads[k]);
		if (k == 0)
			tap_eq(during - before, 3, "%d-bit: 3 threads: a descriptor each", BITS);
		else if (k == 1)
			tap_ok(during - before >= 1 && during - before <= 63 - 3,
			       "%d-bit: 70 threads: at most 64 descriptors in all, the 3 left "
			       "open reused, the rest share (%d more)", BITS, during - before);
		else
			tap_eq(during - before, 0, "%d-bit: 3 threads again: the descriptors "
			       "left open serve them", BITS);
		tap_eq(open_fds(), during, "%d-bit: %u threads: their descriptors left open "
		       "when they exit", BITS, nthreads[k]);
		pthread_barrier_destroy(&fd_traced);
		pthread_barrier_destroy(&fd_counted);
	}
}

/* Two sessions and a consumer, shared by the encoding, error and race tests. */
TEST_F(nttrace, two_sessions)
{
	struct nttrace_logger_info info, small;
	struct nttrace_consumer *c;

	if (!tap_ok(start_session("msg", 16, 16, 0, &info) == 0, "%d-bit: start msg", BITS) ||
	    !tap_ok(start_session("msg-small", 4, 2, 0, &small) == 0,
		    "%d-bit: start msg-small", BITS) ||
	    !tap_ok(nttrace_consumer_open(&c, info.logger_id) == 0, "%d-bit: attach", BITS))
		return;
	test_encoding(info.logger_id, c);
	test_errors(info.logger_id, small.logger_id);
	flush_drain(c, info.logger_id, on_buffer, NULL);
	forget();
	test_rewrite_race(info.logger_id, c);
	test_unmap_race(info.logger_id, c);
	test_thread_fds(info.logger_id);
	nttrace_consumer_close(c);
	stop_session(info.logger_id);
	stop_session(small.logger_id);
}

TEST_F(nttrace, ring_full)
{
	test_ring_full();
}

TEST_F(nttrace, both_cpus)
{
	test_both_cpus();
}

int main(int argc, char **argv)
{
	memset(big, 0x42, sizeof(big));
	return harness_run(argc, argv);
}
