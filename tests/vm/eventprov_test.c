// SPDX-License-Identifier: GPL-2.0
/*
 * Manifest-based providers: EventRegister, EventEnabled,
 * EventWrite* and EnableTraceEx2, 64-bit and 32-bit.
 *
 * Without the module (also run on the host):
 * - the API's errors and last errors, activity IDs, EventSetInformation;
 * - a disabled EventWrite is ERROR_SUCCESS;
 * - the user-mode logger (EVENT_TRACE_PRIVATE_LOGGER_MODE) enabling a
 *   provider of this process with EnableTraceEx2: the callback's
 *   arguments (SourceId, IsEnabled, Level, keywords, FilterData, context),
 *   every EventEnabled rule, CAPTURE_STATE, disable, the logger's stop
 *   (DISABLE_PROVIDER), EnableTraceEx2's parameter errors; an enable info
 *   whose sequence stays odd read as no session, not waited for; the records
 *   read back from the log file with the ETL reader and compared byte for
 *   byte with the test's own encoder (written from the uapi's description
 *   of EVENT_HEADER, not from the library's code).
 * With the module (VM):
 * - a provider process and a controller process: two sessions of
 *   different levels enabled before the provider registers (the callback
 *   runs inside EventRegister, once per session), each session gets
 *   exactly its events, byte for byte;
 * - every EventEnabled rule from the kernel's enable info;
 * - a session's stop disables the provider (callback);
 * - a disabled EventEnabled/EventWrite makes no system call (ptrace);
 * - EnableTraceEx2's kernel errors;
 * - EnableTraceEx2's Timeout: a callback that has not returned makes an
 *   enable with a timeout ERROR_TIMEOUT (the enable made all the same) and
 *   one without return at once; INFINITE returns after the callback ran;
 * - fork: a provider registered and enabled before
 *   fork keeps writing in the child, its events recorded with the child's
 *   process ID, also when fork copied its enable info mid-update (an odd
 *   sequence count, set by the test): the child's EventEnabled returns.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include <nttrace/evntcons.h>
#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/session.h>

#include "../../userlib/internal.h"
#include "emit.h"
#include "expect.h"
#include "props.h"
#include "state.h"
#include "syscalls.h"

#define BITS ((int)sizeof(void *) * 8)

static const GUID prov_a = { 0x6e7b0001, 0x2222, 0x4333, { 0x84, 1, 2, 3, 4, 5, 6, 7 } };
static const GUID prov_b = { 0x6e7b0002, 0x2222, 0x4333, { 0x84, 1, 2, 3, 4, 5, 6, 8 } };
static const GUID prov_c = { 0x6e7b0003, 0x2222, 0x4333, { 0x84, 1, 2, 3, 4, 5, 6, 9 } };
static const GUID prov_t = { 0x6e7b0004, 0x2222, 0x4333, { 0x84, 1, 2, 3, 4, 5, 6, 10 } };
static const GUID source = { 0x50c0e1d0, 0x1111, 0x2222, { 9, 8, 7, 6, 5, 4, 3, 2 } };
static const GUID null_guid;

/* /dev/nttrace is there: the module's cases run (not on the host). */
static int have_module;

/* ---- callbacks, recorded in shared memory (a child's too) ---- */

struct cb {
	GUID source;
	uint32_t is_enabled;
	uint32_t level;
	uint64_t any, all;
	int filter_null;
	void *ctx;
};

static struct shared {
	volatile int count;
	struct cb c[32];
	volatile int in_register;	/* callbacks seen inside EventRegister */
	uint32_t tid, pid;
	uint64_t ts_before, ts_after;
	uint32_t result[16];
} *sh;

static void NTAPI callback(LPCGUID SourceId, ULONG IsEnabled, UCHAR Level,
			   ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword,
			   PEVENT_FILTER_DESCRIPTOR FilterData, PVOID CallbackContext)
{
	int n = sh->count;

	if (n < 32) {
		sh->c[n].source = *SourceId;
		sh->c[n].is_enabled = IsEnabled;
		sh->c[n].level = Level;
		sh->c[n].any = MatchAnyKeyword;
		sh->c[n].all = MatchAllKeyword;
		sh->c[n].filter_null = FilterData == NULL;
		sh->c[n].ctx = CallbackContext;
	}
	__atomic_store_n(&sh->count, n + 1, __ATOMIC_RELEASE);
}

/*
 * Wait for the @n-th callback, however long its delivery takes (one that
 * never comes hangs the test; vm-run's timeout reports it): 1.
 */
static int wait_count(int n)
{
	while (__atomic_load_n(&sh->count, __ATOMIC_ACQUIRE) < n)
		usleep(1000);	/* a pace for the poll, not a limit */
	return 1;
}

static void check_cb(int i, const GUID *src, uint32_t is_enabled, uint32_t level,
		     uint64_t any, uint64_t all, void *ctx, const char *what)
{
	const struct cb *c = &sh->c[i];

	tap_ok(!memcmp(&c->source, src, 16) && c->is_enabled == is_enabled &&
	       c->level == level && c->any == any && c->all == all && c->filter_null &&
	       c->ctx == ctx,
	       "%d-bit: %s: callback (%u, level %u, any 0x%llx, all 0x%llx)", BITS, what,
	       c->is_enabled, c->level, (unsigned long long)c->any,
	       (unsigned long long)c->all);
}

/* ---- the test's own EVENT_HEADER encoder ---- */

static uint32_t encode(uint8_t *out, int priv, uint32_t tid, uint32_t pid, uint64_t ts,
		       const GUID *provider, uint16_t id, uint8_t version, uint8_t channel,
		       uint8_t level, uint8_t opcode, uint16_t task, uint64_t keyword,
		       const GUID *activity, const GUID *related, int string_only,
		       const uint8_t *data, uint32_t len)
{
	uint32_t size = 0x50 + (related ? 24 : 0) + len;
	uint16_t flags = 0x10 | (BITS == 32 ? 0x20 : 0x40) | (priv ? 0x02 : 0) |
			 (related ? 0x01 : 0) | (string_only ? 0x04 : 0);
	uint8_t *p = out;

	memset(out, 0, (size + 7) & ~7u);
	p = put_le(p, size, 2);
	*p++ = BITS == 32 ? 0x12 : 0x13;
	*p++ = 0xC0;
	p = put_le(p, flags, 2);
	p = put_le(p, 0, 2);			/* EventProperty */
	p = put_le(p, tid, 4);
	p = put_le(p, pid, 4);
	p = put_le(p, ts, 8);
	memcpy(p, provider, 16);		/* GUIDs are stored as in memory */
	p += 16;
	p = put_le(p, id, 2);
	*p++ = version;
	*p++ = channel;
	*p++ = level;
	*p++ = opcode;
	p = put_le(p, task, 2);
	p = put_le(p, keyword, 8);
	p = put_le(p, 0, 8);			/* ProcessorTime */
	memcpy(p, activity, 16);
	p += 16;
	if (related) {
		p = put_le(p, 24, 2);		/* the item's size */
		p = put_le(p, 1, 2);		/* RELATED_ACTIVITYID */
		p = put_le(p, 0, 2);		/* linkage: the last */
		p = put_le(p, 16, 2);
		memcpy(p, related, 16);
		p += 16;
	}
	memcpy(p, data, len);
	return size;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/* ---- no module: the API ---- */

TEST(api)
{
	EVENT_DESCRIPTOR d = { .Id = 1, .Level = 4, .Keyword = 1 };
	REGHANDLE h = 77, stale;
	GUID a, b, c;
	int i;

	SetLastError(0);
	tap_eq(EventRegister(NULL, NULL, NULL, &h), ERROR_INVALID_PARAMETER,
	       "%d-bit: EventRegister no ProviderId -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(GetLastError(), ERROR_INVALID_PARAMETER, "%d-bit: ... and the last error", BITS);
	tap_eq(h, 0, "%d-bit: ... *RegHandle 0", BITS);
	tap_eq(EventRegister(&prov_a, NULL, NULL, NULL), ERROR_INVALID_PARAMETER,
	       "%d-bit: EventRegister no RegHandle -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EventUnregister(0), ERROR_INVALID_HANDLE,
	       "%d-bit: EventUnregister(0) -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(EventWrite(0, &d, 0, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: EventWrite(0) -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(EventEnabled(0, &d), FALSE, "%d-bit: EventEnabled(0) -> FALSE", BITS);

	tap_eq(EventRegister(&prov_a, NULL, NULL, &h), ERROR_SUCCESS,
	       "%d-bit: EventRegister without a callback", BITS);
	tap_ok(h != 0, "%d-bit: ... a RegHandle", BITS);
	tap_eq(EventWrite(h, NULL, 0, NULL), ERROR_INVALID_PARAMETER,
	       "%d-bit: EventWrite no descriptor -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EventEnabled(h, &d), FALSE, "%d-bit: not enabled: EventEnabled FALSE", BITS);
	tap_eq(EventProviderEnabled(h, 0, 0), FALSE,
	       "%d-bit: ... EventProviderEnabled FALSE", BITS);
	tap_eq(EventWrite(h, &d, 0, NULL), ERROR_SUCCESS,
	       "%d-bit: a disabled EventWrite -> ERROR_SUCCESS", BITS);
	tap_eq(EventWriteString(h, 1, 0, u"x"), ERROR_SUCCESS,
	       "%d-bit: a disabled EventWriteString -> ERROR_SUCCESS", BITS);
	tap_eq(EventWriteEx(h, &d, 0, 4, NULL, NULL, 0, NULL), ERROR_INVALID_PARAMETER,
	       "%d-bit: EventWriteEx Flags 4 -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EventWriteEx(h, &d, 0, EVENT_WRITE_FLAG_NO_FAULTING | EVENT_WRITE_FLAG_INPRIVATE,
			    NULL, NULL, 0, NULL), ERROR_SUCCESS,
	       "%d-bit: EventWriteEx NO_FAULTING|INPRIVATE accepted", BITS);
	tap_eq(EventSetInformation(h, EventProviderBinaryTrackInfo, NULL, 0), ERROR_SUCCESS,
	       "%d-bit: EventSetInformation BinaryTrackInfo -> ERROR_SUCCESS", BITS);
	tap_eq(EventSetInformation(h, EventProviderSetTraits, &d, 4), ERROR_INVALID_PARAMETER,
	       "%d-bit: EventSetInformation SetTraits, not traits -> ERROR_INVALID_PARAMETER",
	       BITS);
	tap_eq(EventSetInformation(h, MaxEventInfo, NULL, 0), ERROR_NOT_SUPPORTED,
	       "%d-bit: EventSetInformation unknown class -> ERROR_NOT_SUPPORTED", BITS);
	tap_eq(EventSetInformation(h, EventProviderBinaryTrackInfo, NULL, 4),
	       ERROR_INVALID_PARAMETER,
	       "%d-bit: EventSetInformation NULL with a length -> ERROR_INVALID_PARAMETER",
	       BITS);
	tap_eq(EventSetInformation(0, EventProviderBinaryTrackInfo, NULL, 0),
	       ERROR_INVALID_PARAMETER,
	       "%d-bit: EventSetInformation bad handle -> ERROR_INVALID_PARAMETER", BITS);
	stale = h;
	tap_eq(EventUnregister(h), ERROR_SUCCESS, "%d-bit: EventUnregister", BITS);
	tap_eq(EventUnregister(stale), ERROR_INVALID_HANDLE,
	       "%d-bit: EventUnregister twice -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(EventEnabled(stale, &d), FALSE, "%d-bit: EventEnabled stale -> FALSE", BITS);
	tap_eq(EventRegister(&prov_b, NULL, NULL, &h), ERROR_SUCCESS,
	       "%d-bit: EventRegister again (the entry is reused)", BITS);
	tap_ok(h != stale, "%d-bit: ... with another handle (generation)", BITS);
	tap_eq(EventUnregister(stale), ERROR_INVALID_HANDLE,
	       "%d-bit: the stale handle is still refused", BITS);
	EventUnregister(h);

	/* Activity IDs. */
	memset(&a, 0, sizeof(a));
	tap_eq(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, NULL), ERROR_INVALID_PARAMETER,
	       "%d-bit: EventActivityIdControl NULL -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EventActivityIdControl(6, &a), ERROR_INVALID_PARAMETER,
	       "%d-bit: EventActivityIdControl code 6 -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EventActivityIdControl(0, &a), ERROR_INVALID_PARAMETER,
	       "%d-bit: EventActivityIdControl code 0 -> ERROR_INVALID_PARAMETER", BITS);
	memset(&a, 0xAA, sizeof(a));
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &a);
	tap_ok(!memcmp(&a, &null_guid, 16), "%d-bit: a thread's activity ID starts NULL", BITS);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &a);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &b);
	tap_ok(memcmp(&a, &b, 16) && memcmp(&a, &null_guid, 16),
	       "%d-bit: CREATE_ID gives new IDs", BITS);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &c);
	tap_ok(!memcmp(&c, &null_guid, 16), "%d-bit: ... and leaves the thread's", BITS);
	c = a;
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &c);
	memset(&c, 0, sizeof(c));
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &c);
	tap_ok(!memcmp(&c, &a, 16), "%d-bit: SET_ID then GET_ID", BITS);
	c = b;
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_SET_ID, &c);
	tap_ok(!memcmp(&c, &a, 16), "%d-bit: GET_SET_ID returns the previous", BITS);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &c);
	tap_ok(!memcmp(&c, &b, 16), "%d-bit: ... and sets the new", BITS);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_SET_ID, &c);
	tap_ok(!memcmp(&c, &b, 16), "%d-bit: CREATE_SET_ID returns the previous", BITS);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &a);
	tap_ok(memcmp(&a, &b, 16) && memcmp(&a, &null_guid, 16) &&
	       (a.Data3 & 0xF000) == 0x4000,
	       "%d-bit: ... and sets a new one", BITS);
	memset(&a, 0, sizeof(a));
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &a);
	for (i = 0; i < 0; i++)
		;
}

/* ---- EventEnabled's rules, for an enable of @level, @any, @all ---- */

struct rule {
	uint8_t level;
	uint64_t keyword;
};

static int expected(uint8_t el, uint64_t any, uint64_t all, uint8_t level, uint64_t kw)
{
	/* Written out from Microsoft's description, not from the uapi macro. */
	int level_ok = el == 0 || level == 0 || level <= el;
	int kw_ok = kw == 0 || ((kw & any) != 0 && (kw & all) == all);

	return level_ok && kw_ok;
}

static void check_rules(REGHANDLE h, uint8_t el, uint64_t any, uint64_t all, const char *what)
{
	static const uint8_t levels[] = { 0, 1, 2, 3, 4, 5, 255 };
	static const uint64_t kws[] = { 0, 1, 2, 4, 5, 6, 0xC, 0x8000000000000000ULL, ~0ULL };
	unsigned int i, j, wrong = 0;

	for (i = 0; i < sizeof(levels); i++)
		for (j = 0; j < sizeof(kws) / sizeof(kws[0]); j++) {
			EVENT_DESCRIPTOR d = { .Level = levels[i], .Keyword = kws[j] };
			int want = expected(el, any, all, levels[i], kws[j]);

			if (!!EventEnabled(h, &d) != want ||
			    !!EventProviderEnabled(h, levels[i], kws[j]) != want) {
				if (wrong++ < 4)
					printf("# %s: level %u keyword 0x%llx: want %d\n", what,
					       levels[i], (unsigned long long)kws[j], want);
			}
		}
	tap_eq(wrong, 0, "%d-bit: %s: EventEnabled/EventProviderEnabled, %zu cases", BITS, what,
	       sizeof(levels) * sizeof(kws) / sizeof(kws[0]));
}

/* ---- no module: the user-mode logger ---- */

#define NREC 8
static struct {
	uint8_t bytes[NREC][512];
	uint32_t size[NREC];
	unsigned int n;
	unsigned int other;
} got;

static void read_file(const char *path)
{
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;

	memset(&got, 0, sizeof(got));
	if (nttrace_etl_open(&r, path, NULL, NULL)) {
		printf("# cannot read %s\n", path);
		return;
	}
	while (nttrace_etl_next(r, &ev)) {
		if (!ev.event_header) {
			got.other++;
			continue;
		}
		if (got.n < NREC && ev.size <= 512) {
			memcpy(got.bytes[got.n], ev.rec, ev.size);
			got.size[got.n] = ev.size;
		}
		got.n++;
	}
	nttrace_etl_close(r);
}

/* Record @i against the encoder; its time stamp is taken from it. */
static void check_rec(unsigned int i, uint8_t *want, uint32_t size, const char *what)
{
	uint64_t ts;

	if (i >= got.n || got.size[i] != size) {
		tap_ok(0, "%d-bit: %s: record %u (size %u, want %u)", BITS, what, i,
		       i < got.n ? got.size[i] : 0, size);
		return;
	}
	ts = get_le(got.bytes[i] + 0x10, 8);
	put_le(want + 0x10, ts, 8);
	tap_ok(!memcmp(got.bytes[i], want, size) && ts != 0,
	       "%d-bit: %s: byte for byte", BITS, what);
}

TEST(private)
{
	static const uint8_t one[] = { 1, 2, 3 }, two[] = { 0xA, 0xB, 0xC, 0xD, 0xE };
	EVENT_DESCRIPTOR d2 = { 7, 1, 16, 2, 10, 300, 0x4 | 0x1 };
	EVENT_DESCRIPTOR d5 = { 8, 0, 0, 5, 0, 0, 0x4 | 0x1 };
	ENABLE_TRACE_PARAMETERS p;
	EVENT_DATA_DESCRIPTOR dd[2];
	EVENT_FILTER_DESCRIPTOR fd;
	uint8_t want[512], data[8];
	uint32_t tid = syscall(SYS_gettid), pid = getpid(), size;
	GUID act, rel, thread_act;
	TRACEHANDLE um = 0;
	REGHANDLE h = 0;
	struct props pr;
	char path[64];
	int ctx_mark;

	snprintf(path, sizeof(path), "/tmp/eventprov-um-%d-%d.etl", BITS, (int)getpid());
	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (StartTraceA(&um, "eventprov-um", &pr.p) != ERROR_SUCCESS) {
		tap_ok(0, "%d-bit: user-mode logger started", BITS);
		return;
	}
	memset(sh, 0, sizeof(*sh));
	tap_eq(EventRegister(&prov_c, callback, &ctx_mark, &h), ERROR_SUCCESS,
	       "%d-bit: EventRegister with a callback", BITS);
	tap_eq(sh->count, 0, "%d-bit: ... no callback when nothing enables it", BITS);

	/* EnableTraceEx2's parameter errors. */
	memset(&p, 0, sizeof(p));
	p.Version = 3;
	tap_eq(EnableTraceEx2(um, &prov_c, 1, 3, 5, 4, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: EnableTraceEx2 Version 3 -> ERROR_INVALID_PARAMETER", BITS);
	p.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
	p.ControlFlags = 1;
	tap_eq(EnableTraceEx2(um, &prov_c, 1, 3, 5, 4, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: EnableTraceEx2 ControlFlags -> ERROR_INVALID_PARAMETER", BITS);
	p.ControlFlags = 0;
	p.EnableProperty = EVENT_ENABLE_PROPERTY_STACK_TRACE;
	tap_eq(EnableTraceEx2(um, &prov_c, 1, 3, 5, 4, 0, &p), ERROR_NOT_SUPPORTED,
	       "%d-bit: EnableTraceEx2 STACK_TRACE -> ERROR_NOT_SUPPORTED", BITS);
	p.EnableProperty = EVENT_ENABLE_PROPERTY_IGNORE_KEYWORD_0;
	tap_eq(EnableTraceEx2(um, &prov_c, 1, 3, 5, 4, 0, &p), ERROR_NOT_SUPPORTED,
	       "%d-bit: EnableTraceEx2 IGNORE_KEYWORD_0 -> ERROR_NOT_SUPPORTED", BITS);
	p.EnableProperty = 0;
	/* A filter type nttrace does not apply (tests/vm/filter_test.c: those it does). */
	memset(&fd, 0, sizeof(fd));
	fd.Ptr = (uintptr_t)&tid;
	fd.Size = sizeof(tid);
	fd.Type = EVENT_FILTER_TYPE_PID;
	p.EnableFilterDesc = &fd;
	p.FilterDescCount = 1;
	tap_eq(EnableTraceEx2(um, &prov_c, 1, 3, 5, 4, 0, &p), ERROR_NOT_SUPPORTED,
	       "%d-bit: EnableTraceEx2 a PID filter -> ERROR_NOT_SUPPORTED", BITS);
	tap_eq(EnableTraceEx(&prov_c, NULL, um, 1, 3, 5, 4, 0, &fd), ERROR_NOT_SUPPORTED,
	       "%d-bit: EnableTraceEx a PID filter -> ERROR_NOT_SUPPORTED", BITS);
	p.EnableFilterDesc = NULL;
	p.FilterDescCount = 0;
	tap_eq(EnableTraceEx2(um, &prov_c, 3, 3, 5, 4, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: EnableTraceEx2 ControlCode 3 -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EnableTraceEx2(um, NULL, 1, 3, 5, 4, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: EnableTraceEx2 no ProviderId -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EnableTraceEx2(0, &prov_c, 1, 3, 5, 4, 0, &p), ERROR_INVALID_PARAMETER,
	       "%d-bit: EnableTraceEx2 handle 0 -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EnableTraceEx2(um + 1, &prov_c, 1, 3, 5, 4, 0, &p), ERROR_INVALID_HANDLE,
	       "%d-bit: EnableTraceEx2 a stale user-mode handle -> ERROR_INVALID_HANDLE",
	       BITS);
	tap_eq(EnableTraceEx2(um, &prov_c, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0,
			      NULL), ERROR_WMI_GUID_NOT_FOUND,
	       "%d-bit: DISABLE of a provider not enabled -> ERROR_WMI_GUID_NOT_FOUND", BITS);
	tap_eq(EnableTraceEx2(um, &prov_c, EVENT_CONTROL_CODE_CAPTURE_STATE, 0, 0, 0, 0,
			      NULL), ERROR_WMI_GUID_NOT_FOUND,
	       "%d-bit: CAPTURE_STATE of a provider not enabled -> ERROR_WMI_GUID_NOT_FOUND",
	       BITS);
	tap_eq(sh->count, 0, "%d-bit: ... and no callback for any of them", BITS);

	/* Enable: the callback at once, on this thread. */
	p.SourceId = source;
	p.EnableProperty = EVENT_ENABLE_PROPERTY_ENABLE_KEYWORD_0;
	tap_eq(EnableTraceEx2(um, &prov_c, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 3, 0x5, 0x4, 0,
			      &p), ERROR_SUCCESS,
	       "%d-bit: EnableTraceEx2 with the user-mode logger's handle", BITS);
	tap_eq(sh->count, 1, "%d-bit: ... runs the callback at once", BITS);
	check_cb(0, &source, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 3, 5, 4, &ctx_mark,
		 "private enable");
	check_rules(h, 3, 0x5, 0x4, "level 3, any 0x5, all 0x4");
	tap_eq(EnableTraceEx2(um, &prov_c, EVENT_CONTROL_CODE_CAPTURE_STATE, 0, 0, 0, 0, NULL),
	       ERROR_SUCCESS, "%d-bit: CAPTURE_STATE", BITS);
	check_cb(1, &null_guid, EVENT_CONTROL_CODE_CAPTURE_STATE, 3, 5, 4, &ctx_mark,
		 "capture state: the enable's values");

	/* Events: two descriptors; a transfer; a string; one filtered out. */
	EventDataDescCreate(&dd[0], one, sizeof(one));
	EventDataDescCreate(&dd[1], two, sizeof(two));
	sh->ts_before = now_ns();
	tap_eq(EventWrite(h, &d2, 2, dd), ERROR_SUCCESS, "%d-bit: EventWrite", BITS);
	tap_eq(EventWrite(h, &d5, 2, dd), ERROR_SUCCESS,
	       "%d-bit: EventWrite level 5 (not enabled) -> ERROR_SUCCESS", BITS);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &act);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &rel);
	tap_eq(EventWriteTransfer(h, &d2, &act, &rel, 1, dd), ERROR_SUCCESS,
	       "%d-bit: EventWriteTransfer", BITS);
	tap_eq(EventWriteString(h, 1, 0, u"hi"), ERROR_SUCCESS, "%d-bit: EventWriteString",
	       BITS);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &thread_act);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &thread_act);
	tap_eq(EventWrite(h, &d2, 0, NULL), ERROR_SUCCESS,
	       "%d-bit: EventWrite with the thread's activity ID", BITS);
	memset(&act, 0, sizeof(act));
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &act);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &act);
	{
		static uint8_t big[0x10000];

		EventDataDescCreate(&dd[1], big, sizeof(big) - 0x50 + 1);
		tap_eq(EventWrite(h, &d2, 2, dd), ERROR_ARITHMETIC_OVERFLOW,
		       "%d-bit: a record over 0xFFFF bytes -> ERROR_ARITHMETIC_OVERFLOW", BITS);
		EventDataDescCreate(&dd[1], big, sizeof(big));
		tap_eq(EventWrite(h, &d2, 2, dd), ERROR_MORE_DATA,
		       "%d-bit: a descriptor over 0xFFFF bytes -> ERROR_MORE_DATA, as the kernel's",
		       BITS);
		EventDataDescCreate(&dd[1], (void *)(uintptr_t)8, 4);
		tap_eq(EventWrite(h, &d2, 2, dd), ERROR_NOACCESS,
		       "%d-bit: unreadable data -> ERROR_NOACCESS", BITS);
		EventDataDescCreate(&dd[1], two, sizeof(two));
	}
	tap_eq(EventWrite(h, &d2, MAX_EVENT_DATA_DESCRIPTORS + 1, dd), ERROR_INVALID_PARAMETER,
	       "%d-bit: 129 descriptors -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EventWrite(h, &d2, 1, NULL), ERROR_INVALID_PARAMETER,
	       "%d-bit: a count without descriptors -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EventWriteString(h, 1, 0, NULL), ERROR_INVALID_PARAMETER,
	       "%d-bit: EventWriteString NULL -> ERROR_INVALID_PARAMETER", BITS);

	/* Enable again: level 0 and keyword 0. */
	tap_eq(EnableTraceEx2(um, &prov_c, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
	       ERROR_SUCCESS, "%d-bit: enable again, level 0, keywords 0", BITS);
	check_cb(2, &null_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, &ctx_mark,
		 "enable again");
	check_rules(h, 0, 0, 0, "level 0, any 0, all 0");
	tap_eq(EnableTraceEx(&prov_c, &source, um, 1, 2, 0x6, 0, 0, NULL), ERROR_SUCCESS,
	       "%d-bit: EnableTraceEx", BITS);
	check_cb(3, &source, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 2, 6, 0, &ctx_mark,
		 "EnableTraceEx");
	check_rules(h, 2, 0x6, 0, "level 2, any 0x6, all 0");
	tap_eq(EnableTraceEx2(um, &prov_c, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0, NULL),
	       ERROR_SUCCESS, "%d-bit: disable", BITS);
	check_cb(4, &null_guid, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, &ctx_mark,
		 "disable");
	tap_eq(EventProviderEnabled(h, 0, 0), FALSE, "%d-bit: ... EventEnabled FALSE", BITS);
	tap_eq(EnableTraceEx2(um, &prov_c, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 4, 1, 0, 0, NULL),
	       ERROR_SUCCESS, "%d-bit: enable before the stop", BITS);
	sh->ts_after = now_ns();
	tap_eq(ControlTraceA(um, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS,
	       "%d-bit: stop the user-mode logger", BITS);
	tap_eq(sh->count, 7, "%d-bit: ... its stop runs the callback", BITS);
	check_cb(6, &null_guid, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, &ctx_mark,
		 "logger stopped");
	tap_eq(EventProviderEnabled(h, 0, 0), FALSE, "%d-bit: ... disabled", BITS);
	tap_eq(EventUnregister(h), ERROR_SUCCESS, "%d-bit: EventUnregister", BITS);

	read_file(path);
	tap_eq(got.n, 4, "%d-bit: four EventWrite records in the file", BITS);
	memcpy(data, one, 3);
	memcpy(data + 3, two, 5);
	size = encode(want, 1, tid, pid, 0, &prov_c, 7, 1, 16, 2, 10, 300, 5, &null_guid,
		      NULL, 0, data, 8);
	check_rec(0, want, size, "EventWrite, two descriptors");
	size = encode(want, 1, tid, pid, 0, &prov_c, 7, 1, 16, 2, 10, 300, 5,
		      (const GUID *)&act, &rel, 0, one, 3);
	/* act was recreated above: take the record's own activity ID. */
	if (got.n > 1)
		memcpy(want + 0x40, got.bytes[1] + 0x40, 16);
	check_rec(1, want, size, "EventWriteTransfer: activity and related item");
	size = encode(want, 1, tid, pid, 0, &prov_c, 0, 0, 0, 1, 0, 0, 0, &null_guid, NULL, 1,
		      (const uint8_t *)u"hi", 6);
	check_rec(2, want, size, "EventWriteString: STRING_ONLY");
	size = encode(want, 1, tid, pid, 0, &prov_c, 7, 1, 16, 2, 10, 300, 5, &thread_act,
		      NULL, 0, NULL, 0);
	check_rec(3, want, size, "EventWrite: the thread's activity ID");
	unlink(path);
}

/*
 * TraceLogging's metadata through the user-mode logger: EventSetInformation
 * (SetTraits, UseDescriptorType) and its errors; then the descriptors'
 * Types make PROV_TRAITS and EVENT_SCHEMA_TL items, byte for byte as the
 * kernel writes them (tests/vm/eventwrite_test.c), and only once asked.
 */
TEST(private_metadata)
{
	static const uint8_t traits[15] = "\x0f\x00nttrace-test";
	static const uint8_t schema[10] = { 10, 0, 0, 'e', 0, 'f', 0, 4, 0x11, 0x22 };
	static const uint8_t one[] = { 1, 2, 3 };
	EVENT_DESCRIPTOR d = { 3, 0, 11, 2, 0, 0, 0x1 };
	uint8_t want[512], data[64], bad[15], *p = data;
	uint32_t tid = syscall(SYS_gettid), pid = getpid(), size;
	EVENT_DATA_DESCRIPTOR dd[3];
	BOOLEAN on = TRUE, off = FALSE;
	TRACEHANDLE um = 0;
	REGHANDLE h = 0;
	struct props pr;
	char path[64];

	snprintf(path, sizeof(path), "/tmp/eventprov-tl-%d-%d.etl", BITS, (int)getpid());
	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (!tap_eq(StartTraceA(&um, "eventprov-tl", &pr.p), ERROR_SUCCESS,
		    "%d-bit: metadata: user-mode logger started", BITS))
		return;
	tap_eq(EventRegister(&prov_c, NULL, NULL, &h), ERROR_SUCCESS, "%d-bit: EventRegister",
	       BITS);
	tap_eq(EnableTraceEx2(um, &prov_c, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0x1, 0, 0, NULL),
	       ERROR_SUCCESS, "%d-bit: enabled", BITS);

	/* Traits that lie: each refused. */
	memcpy(bad, traits, sizeof(bad));
	bad[0] = 14;
	tap_eq(EventSetInformation(h, EventProviderSetTraits, bad, sizeof(bad)),
	       ERROR_INVALID_PARAMETER, "%d-bit: traits, size not the length -> INVALID_PARAMETER",
	       BITS);
	memcpy(bad, traits, sizeof(bad));
	bad[14] = 'x';
	tap_eq(EventSetInformation(h, EventProviderSetTraits, bad, sizeof(bad)),
	       ERROR_INVALID_PARAMETER, "%d-bit: traits, name not ended -> INVALID_PARAMETER",
	       BITS);
	memcpy(bad, "\x0f\x00n\x00\x0c\x00\x01", 7);	/* a trait of 12 in 11 bytes */
	tap_eq(EventSetInformation(h, EventProviderSetTraits, bad, sizeof(bad)),
	       ERROR_INVALID_PARAMETER, "%d-bit: traits, a trait past the end -> INVALID_PARAMETER",
	       BITS);
	tap_eq(EventSetInformation(h, EventProviderUseDescriptorType, &on, 4),
	       ERROR_INVALID_PARAMETER, "%d-bit: UseDescriptorType, 4 bytes -> INVALID_PARAMETER",
	       BITS);

	/* Before asking: the Types are ignored, the metadata is data. */
	EventDataDescCreate(&dd[0], traits, sizeof(traits));
	dd[0].Type = EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA;
	EventDataDescCreate(&dd[1], schema, sizeof(schema));
	dd[1].Type = EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA;
	EventDataDescCreate(&dd[2], one, sizeof(one));
	tap_eq(EventWrite(h, &d, 3, dd), ERROR_SUCCESS, "%d-bit: typed, not asked for", BITS);
	tap_eq(EventSetInformation(h, EventProviderSetTraits, (void *)traits, sizeof(traits)),
	       ERROR_SUCCESS, "%d-bit: EventSetInformation SetTraits", BITS);
	tap_eq(EventWrite(h, &d, 3, dd), ERROR_SUCCESS, "%d-bit: typed, after SetTraits", BITS);
	tap_eq(EventSetInformation(h, EventProviderUseDescriptorType, &off, sizeof(off)),
	       ERROR_SUCCESS, "%d-bit: UseDescriptorType FALSE", BITS);
	tap_eq(EventWrite(h, &d, 3, dd), ERROR_SUCCESS, "%d-bit: typed, Types off again", BITS);
	tap_eq(EventSetInformation(h, EventProviderUseDescriptorType, &on, sizeof(on)),
	       ERROR_SUCCESS, "%d-bit: UseDescriptorType TRUE", BITS);
	dd[0].Type = 3;
	tap_eq(EventWrite(h, &d, 3, dd), ERROR_INVALID_PARAMETER,
	       "%d-bit: TIMESTAMP_OVERRIDE -> ERROR_INVALID_PARAMETER", BITS);
	dd[0].Type = EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA;
	tap_eq(EventWrite(h, &d, 3, dd), ERROR_INVALID_PARAMETER,
	       "%d-bit: event metadata twice -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(ControlTraceA(um, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS,
	       "%d-bit: stop", BITS);
	EventUnregister(h);

	read_file(path);
	tap_eq(got.n, 3, "%d-bit: three records in the file", BITS);
	memcpy(data, traits, 15);
	memcpy(data + 15, schema, 10);
	memcpy(data + 25, one, 3);
	size = encode(want, 1, tid, pid, 0, &prov_c, 3, 0, 11, 2, 0, 0, 1, &null_guid, NULL, 0,
		      data, 28);
	check_rec(0, want, size, "Types not asked for: all data");
	check_rec(2, want, size, "Types turned off: all data");
	/* Items: 8-byte header (size to 8, type, linkage, data size), data, zeros. */
	memset(data, 0, sizeof(data));
	memcpy(p, "\x18\x00\x0c\x00\x01\x00\x0f\x00", 8);
	memcpy(p + 8, traits, 15);
	p += 24;
	memcpy(p, "\x18\x00\x0b\x00\x00\x00\x0a\x00", 8);
	memcpy(p + 8, schema, 10);
	p += 24;
	memcpy(p, one, 3);
	size = encode(want, 1, tid, pid, 0, &prov_c, 3, 0, 11, 2, 0, 0, 1, &null_guid, NULL, 0,
		      data, 51);
	want[4] |= 0x01;	/* EXTENDED_INFO */
	check_rec(1, want, size, "SetTraits: PROV_TRAITS and EVENT_SCHEMA_TL items");
	unlink(path);
}

/*
 * An enable info whose sequence stays odd (copied mid-update and never
 * written again): the reader gives up and reads "no session" instead of
 * spinning for ever (alarm() ends the child if it does).
 */
TEST(stuck_sequence)
{
	static struct nttrace_enable_info stuck = { .sequence = 3, .sessions = 1,
						     .level = 5, .loggers = 1 };
	struct nttrace_enable_info v;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(30);
		nttrace_read_enable_info(&stuck, &v);
		_exit(v.sessions || v.loggers || v.level ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "%d-bit: an odd sequence that stays odd: the read returns, no session "
	       "(status %#x)", BITS, status);
}

/* ---- the module ---- */

static uint32_t start(const char *name)
{
	struct nttrace_logger_info info;

	if (start_session(name, 4, 4, 0, &info)) {
		printf("# could not start %s\n", name);
		return 0;
	}
	return info.logger_id;
}

#define MAXEV 64
static struct {
	uint8_t bytes[MAXEV][256];
	uint32_t size[MAXEV];
	unsigned int count[MAXEV];
	unsigned int n;
} kgot;

static void collect(void *ctx, const uint8_t *rec, uint32_t size)
{
	uint16_t id;

	if (rec[3] != 0xC0 || (rec[2] != 0x12 && rec[2] != 0x13) || size < 0x50)
		return;
	if (memcmp(rec + 0x18, &prov_a, 16))
		return;
	id = get_le(rec + 0x28, 2);
	kgot.n++;
	if (id < MAXEV && !kgot.count[id]++ && size <= 256) {
		memcpy(kgot.bytes[id], rec, size);
		kgot.size[id] = size;
	}
}

static int on_buffer(void *ctx, const void *buf, uint32_t size, unsigned int cpu)
{
	expect_walk(buf, collect, ctx);
	return 0;
}

static void consume(uint32_t logger, struct nttrace_consumer *c)
{
	struct nttrace_logger_info info;

	memset(&kgot, 0, sizeof(kgot));
	memset(&info, 0, sizeof(info));
	info.logger_id = logger;
	nttrace_control(&info, EVENT_TRACE_CONTROL_FLUSH);
	nttrace_consumer_drain(c, on_buffer, NULL);
}

/*
 * A controller (this process) enables prov_a in two sessions, at levels 2
 * and 4, before a provider process registers it; the provider writes one
 * event per level 1..5 (its Id is its level).
 */
static void test_two_sessions(void)
{
	uint32_t s1 = start("evp-low"), s2 = start("evp-high");
	struct nttrace_consumer *c1, *c2;
	uint8_t want[256];
	unsigned int i, wrong;
	int status, ok1, ok2;
	uint32_t size;
	pid_t pid;

	ok1 = !nttrace_consumer_open(&c1, s1);
	ok2 = !nttrace_consumer_open(&c2, s2);
	tap_ok(s1 && s2 && ok1 && ok2, "%d-bit: two sessions and their consumers", BITS);
	tap_eq(EnableTraceEx2(s1, &prov_a, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 2, 0xF, 0, 0,
			      NULL), ERROR_SUCCESS, "%d-bit: EnableTraceEx2 level 2", BITS);
	tap_eq(EnableTraceEx2(s2, &prov_a, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 4, 0x3, 0x1, 0,
			      NULL), ERROR_SUCCESS, "%d-bit: EnableTraceEx2 level 4", BITS);
	memset(sh, 0, sizeof(*sh));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		static const uint8_t payload[] = "payload";
		EVENT_DATA_DESCRIPTOR dd;
		REGHANDLE h = 0;
		int lv;

		if (EventRegister(&prov_a, callback, sh, &h))
			_exit(2);
		sh->in_register = sh->count;
		sh->tid = syscall(SYS_gettid);
		sh->pid = getpid();
		EventDataDescCreate(&dd, payload, sizeof(payload));
		for (lv = 1; lv <= 5; lv++) {
			EVENT_DESCRIPTOR d = { .Id = lv, .Level = lv, .Keyword = 0x1 };

			sh->result[lv] = EventWrite(h, &d, 1, &dd);
		}
		EventUnregister(h);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%d-bit: the provider process",
	       BITS);
	tap_eq(sh->in_register, 2, "%d-bit: enabled before: two callbacks inside EventRegister",
	       BITS);
	tap_ok((sh->c[0].level == 2 && sh->c[1].level == 4) ||
	       (sh->c[0].level == 4 && sh->c[1].level == 2),
	       "%d-bit: ... each with its session's level", BITS);
	tap_ok(sh->c[0].is_enabled == 1 && sh->c[1].is_enabled == 1 &&
	       !memcmp(&sh->c[0].source, &null_guid, 16) && sh->c[0].ctx == sh,
	       "%d-bit: ... ENABLE_PROVIDER, SourceId GUID_NULL, the context", BITS);
	for (i = 1, wrong = 0; i <= 5; i++)
		wrong += sh->result[i] != ERROR_SUCCESS;
	tap_eq(wrong, 0, "%d-bit: EventWrite -> ERROR_SUCCESS at every level", BITS);
	if (ok1) {
		consume(s1, c1);
		tap_ok(kgot.count[1] == 1 && kgot.count[2] == 1 && kgot.n == 2,
		       "%d-bit: the level-2 session got exactly levels 1 and 2 (%u events)",
		       BITS, kgot.n);
		size = encode(want, 0, sh->tid, sh->pid, 0, &prov_a, 2, 0, 0, 2, 0, 0, 1,
			      &null_guid, NULL, 0, (const uint8_t *)"payload", 8);
		if (kgot.count[2]) {
			put_le(want + 0x10, get_le(kgot.bytes[2] + 0x10, 8), 8);
			tap_ok(kgot.size[2] == size && !memcmp(kgot.bytes[2], want, size),
			       "%d-bit: ... byte for byte", BITS);
		} else {
			tap_ok(0, "%d-bit: ... byte for byte", BITS);
		}
	}
	if (ok2) {
		consume(s2, c2);
		tap_ok(kgot.count[1] == 1 && kgot.count[2] == 1 && kgot.count[3] == 1 &&
		       kgot.count[4] == 1 && kgot.n == 4,
		       "%d-bit: the level-4 session got exactly levels 1 to 4 (%u events)",
		       BITS, kgot.n);
	}
	if (ok1)
		nttrace_consumer_close(c1);
	if (ok2)
		nttrace_consumer_close(c2);
	stop_session(s1);
	stop_session(s2);
}

/* In this process: the kernel's enable info, capture state, session stop. */
static void test_kernel_enable(void)
{
	uint32_t s1 = start("evp-rules"), s2 = start("evp-rules2");
	REGHANDLE h = 0;
	int n;

	memset(sh, 0, sizeof(*sh));
	tap_eq(EventRegister(&prov_b, callback, NULL, &h), ERROR_SUCCESS,
	       "%d-bit: EventRegister (kernel)", BITS);
	tap_eq(EnableTraceEx2(s1, &prov_b, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 3, 0x5, 0x4, 0,
			      NULL), ERROR_SUCCESS, "%d-bit: EnableTraceEx2", BITS);
	tap_ok(wait_count(1), "%d-bit: ... the callback runs", BITS);
	check_cb(0, &null_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 3, 5, 4, NULL,
		 "kernel enable");
	check_rules(h, 3, 0x5, 0x4, "kernel: level 3, any 0x5, all 0x4");
	tap_eq(EnableTraceEx2(s2, &prov_b, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0x2, 0, 0,
			      NULL), ERROR_SUCCESS, "%d-bit: a second session, level 0", BITS);
	tap_ok(wait_count(2), "%d-bit: ... the callback runs", BITS);
	/* The union: level 0 (every level), any 0x7, all 0x4 & 0 = 0. */
	check_rules(h, 0, 0x7, 0, "kernel: the union of two sessions");
	tap_eq(EnableTraceEx2(s1, &prov_b, EVENT_CONTROL_CODE_CAPTURE_STATE, 0, 0, 0, 0, NULL),
	       ERROR_SUCCESS, "%d-bit: CAPTURE_STATE", BITS);
	tap_ok(wait_count(3), "%d-bit: ... the callback runs", BITS);
	check_cb(2, &null_guid, EVENT_CONTROL_CODE_CAPTURE_STATE, 3, 5, 4, NULL,
		 "kernel capture state");
	tap_eq(EnableTraceEx2(s1, &prov_b, EVENT_CONTROL_CODE_CAPTURE_STATE, 4, 0x10, 0, 0, NULL),
	       ERROR_SUCCESS, "%d-bit: CAPTURE_STATE of level 4, keywords 0x10", BITS);
	tap_ok(wait_count(4), "%d-bit: ... the callback runs", BITS);
	check_cb(3, &null_guid, EVENT_CONTROL_CODE_CAPTURE_STATE, 4, 0x10, 0, NULL,
		 "kernel capture state: the request's level and keywords");
	check_rules(h, 0, 0x7, 0, "kernel: ... the enables unchanged by it");
	tap_eq(EnableTraceEx2(s2, &prov_b, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0, NULL),
	       ERROR_SUCCESS, "%d-bit: disable one of two", BITS);
	tap_ok(wait_count(5), "%d-bit: ... the callback runs", BITS);
	check_cb(4, &null_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 3, 5, 4, NULL,
		 "one still enables: ENABLE with what remains");
	tap_eq(EnableTraceEx2(s2, &prov_b, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0, NULL),
	       ERROR_WMI_GUID_NOT_FOUND,
	       "%d-bit: disable again -> ERROR_WMI_GUID_NOT_FOUND", BITS);
	tap_eq(EnableTraceEx2(s2, &prov_b, EVENT_CONTROL_CODE_CAPTURE_STATE, 0, 0, 0, 0, NULL),
	       ERROR_WMI_GUID_NOT_FOUND,
	       "%d-bit: CAPTURE_STATE not enabled -> ERROR_WMI_GUID_NOT_FOUND", BITS);
	tap_eq(EnableTraceEx2(0xFFFF, &prov_b, 1, 0, 0, 0, 0, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: EnableTraceEx2 logger 0xFFFF -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(EnableTraceEx2(NTTRACE_MAX_LOGGERS, &prov_b, 1, 0, 0, 0, 0, NULL) ==
	       ERROR_INVALID_HANDLE || NTTRACE_MAX_LOGGERS == s1 || NTTRACE_MAX_LOGGERS == s2, 1,
	       "%d-bit: EnableTraceEx2 no such session -> ERROR_INVALID_HANDLE", BITS);
	n = sh->count;
	stop_session(s1);
	tap_ok(wait_count(n + 1), "%d-bit: the session's stop runs the callback", BITS);
	check_cb(n, &null_guid, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, NULL,
		 "session stopped");
	tap_eq(EventProviderEnabled(h, 0, 0), FALSE, "%d-bit: ... disabled", BITS);
	tap_eq(EventUnregister(h), ERROR_SUCCESS, "%d-bit: EventUnregister", BITS);
	stop_session(s2);
}

/* test_fork's callback: counts the parent's (result[8]) and the child's (result[9]). */
static void NTAPI fork_cb(LPCGUID SourceId, ULONG IsEnabled, UCHAR Level,
			  ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword,
			  PEVENT_FILTER_DESCRIPTOR FilterData, PVOID CallbackContext)
{
	(void)SourceId, (void)IsEnabled, (void)Level, (void)MatchAnyKeyword;
	(void)MatchAllKeyword, (void)FilterData, (void)CallbackContext;
	__atomic_add_fetch(&sh->result[(uint32_t)getpid() == sh->pid ? 9 : 8], 1,
			   __ATOMIC_RELEASE);
}

/*
 * A provider that registers, enabled by a session, then forks: the child
 * writes with the parent's REGHANDLE and the session records its events
 * with its process ID. The parent's copy of the enable info is made odd
 * (mid-update) across the fork, as a fork racing a kernel update copies
 * it: the child must not spin in EventEnabled (alarm() ends it if it does).
 * And the child's callback runs for a change made after the fork.
 */
static void test_fork(void)
{
	static const uint8_t payload[] = "forked";
	uint32_t s = start("evp-fork");
	EVENT_DESCRIPTOR d7 = { .Id = 7, .Level = 2, .Keyword = 1 };
	EVENT_DESCRIPTOR d8 = { .Id = 8, .Level = 2, .Keyword = 1 };
	struct nttrace_event_reg *r;
	struct nttrace_consumer *c = NULL;
	EVENT_DATA_DESCRIPTOR dd;
	REGHANDLE h = 0;
	int status, ok;
	uint32_t seq;
	pid_t pid;

	ok = s && !nttrace_consumer_open(&c, s);
	tap_ok(ok, "%d-bit: fork: a session and its consumer", BITS);
	if (!ok)
		return;
	tap_eq(EnableTraceEx2(s, &prov_a, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 4, 1, 0, 0,
			      NULL), ERROR_SUCCESS, "%d-bit: fork: EnableTraceEx2", BITS);
	tap_eq(EventRegister(&prov_a, fork_cb, NULL, &h), ERROR_SUCCESS,
	       "%d-bit: fork: EventRegister in the parent", BITS);
	EventDataDescCreate(&dd, payload, sizeof(payload));
	r = nttrace_event_reg_of(h);
	memset(sh, 0, sizeof(*sh));
	fflush(stdout);
	seq = __atomic_load_n(&r->info.sequence, __ATOMIC_RELAXED);
	__atomic_store_n(&r->info.sequence, seq | 1, __ATOMIC_RELAXED);
	pid = fork();
	if (pid == 0) {
		alarm(30);
		sh->pid = getpid();
		sh->result[0] = EventEnabled(h, &d7);
		sh->result[1] = EventWrite(h, &d7, 1, &dd);
		alarm(0);	/* they returned: what follows waits on the parent */
		__atomic_store_n(&sh->in_register, 1, __ATOMIC_RELEASE);
		/* Until the callback of the parent's CAPTURE_STATE has run here. */
		while (!__atomic_load_n(&sh->result[9], __ATOMIC_ACQUIRE))
			usleep(10000);
		sh->result[2] = EventUnregister(h);
		_exit(0);
	}
	__atomic_store_n(&r->info.sequence, seq, __ATOMIC_RELAXED);
	while (!__atomic_load_n(&sh->in_register, __ATOMIC_ACQUIRE))
		usleep(10000);
	tap_eq(EnableTraceEx2(s, &prov_a, EVENT_CONTROL_CODE_CAPTURE_STATE, 0, 0, 0, 0, NULL),
	       ERROR_SUCCESS, "%d-bit: fork: CAPTURE_STATE", BITS);
	waitpid(pid, &status, 0);
	tap_ok(sh->result[9] >= 1, "%d-bit: fork: ... the child's callback runs (%u)", BITS,
	       sh->result[9]);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "%d-bit: fork mid-update: the child's EventEnabled returns (status %#x)", BITS,
	       status);
	tap_ok(sh->result[0] == TRUE && sh->result[1] == ERROR_SUCCESS &&
	       sh->result[2] == ERROR_SUCCESS,
	       "%d-bit: fork: the child's provider is enabled, writes, unregisters "
	       "(%u %u %u)", BITS, sh->result[0], sh->result[1], sh->result[2]);
	tap_eq(EventWrite(h, &d8, 1, &dd), ERROR_SUCCESS,
	       "%d-bit: fork: the parent still writes", BITS);
	consume(s, c);
	tap_ok(kgot.count[7] == 1 && get_le(kgot.bytes[7] + 0x0C, 4) == (uint32_t)pid,
	       "%d-bit: fork: the session has the child's event, with its PID (%u events)",
	       BITS, kgot.count[7]);
	tap_ok(kgot.count[8] == 1 && get_le(kgot.bytes[8] + 0x0C, 4) == (uint32_t)getpid(),
	       "%d-bit: fork: ... and the parent's, with the parent's PID", BITS);
	tap_eq(EventUnregister(h), ERROR_SUCCESS, "%d-bit: fork: the parent unregisters", BITS);
	nttrace_consumer_close(c);
	stop_session(s);
}

/* A disabled EventEnabled and EventWrite make no system call. */
static void test_no_syscall(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		EVENT_DESCRIPTOR d = { .Id = 1, .Level = 1, .Keyword = 1 };
		REGHANDLE h = 0;

		if (EventRegister(&prov_c, NULL, NULL, &h))
			_exit(2);
		if (traced_child_start())
			_exit(3);
		getppid();
		sh->result[0] = EventEnabled(h, &d);
		sh->result[1] = EventWrite(h, &d, 0, NULL);
		sh->result[2] = EventWriteString(h, 1, 1, u"x");
		getppid();
		_exit(0);
	}
	tap_eq(syscalls_between_getppid(pid), 0,
	       "%d-bit: a disabled EventEnabled, EventWrite, EventWriteString: no system call",
	       BITS);
	tap_ok(sh->result[0] == FALSE && sh->result[1] == ERROR_SUCCESS &&
	       sh->result[2] == ERROR_SUCCESS, "%d-bit: ... FALSE, ERROR_SUCCESS", BITS);
}

/*
 * EnableTraceEx2's Timeout. The callback of prov_t, on the library's
 * notification thread, blocks (while slow.block) until the test writes a
 * byte to slow.pipe, so that whether it has returned is the test's doing,
 * not the machine's speed.
 */
static struct {
	int pipe[2];
	int block, entered, done;
} slow;

static void NTAPI slow_callback(LPCGUID SourceId, ULONG IsEnabled, UCHAR Level,
				ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword,
				PEVENT_FILTER_DESCRIPTOR FilterData, PVOID CallbackContext)
{
	char c;

	__atomic_add_fetch(&slow.entered, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&slow.block, __ATOMIC_ACQUIRE) &&
	    read(slow.pipe[0], &c, 1) != 1)
		printf("# the callback's pipe failed\n");
	__atomic_add_fetch(&slow.done, 1, __ATOMIC_SEQ_CST);
}

static void test_timeout(void)
{
	uint32_t s = start("ep-timeout");
	REGHANDLE h = 0;
	char c = 0;

	if (!s || pipe(slow.pipe))
		return;
	tap_eq(EventRegister(&prov_t, slow_callback, NULL, &h), ERROR_SUCCESS,
	       "%d-bit: timeout: EventRegister", BITS);
	slow.block = 1;
	tap_eq(EnableTraceEx2(s, &prov_t, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 4, 0, 0, 200, NULL),
	       ERROR_TIMEOUT, "%d-bit: ... a callback that has not returned: ERROR_TIMEOUT", BITS);
	tap_ok(EventProviderEnabled(h, 4, 0), "%d-bit: ... the enable stands all the same",
	       BITS);
	tap_eq(__atomic_load_n(&slow.done, __ATOMIC_SEQ_CST), 0,
	       "%d-bit: ... and the callback is still running", BITS);
	tap_eq(EnableTraceEx2(s, &prov_t, EVENT_CONTROL_CODE_CAPTURE_STATE, 0, 0, 0, 0, NULL),
	       ERROR_SUCCESS, "%d-bit: ... Timeout 0 returns at once, the callback still "
	       "running", BITS);
	/* Both callbacks go on: the one running, then the capture's. */
	__atomic_store_n(&slow.block, 0, __ATOMIC_RELEASE);
	tap_eq(write(slow.pipe[1], &c, 1), 1, "%d-bit: ... the callback let go", BITS);
	while (__atomic_load_n(&slow.done, __ATOMIC_SEQ_CST) < 2)
		usleep(1000);	/* a pace for the poll, not a limit */
	tap_eq(EnableTraceEx2(s, &prov_t, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0xFFFFFFFF,
			      NULL), ERROR_SUCCESS, "%d-bit: ... INFINITE (0xFFFFFFFF), a callback that returns",
	       BITS);
	tap_eq(__atomic_load_n(&slow.done, __ATOMIC_SEQ_CST), 3,
	       "%d-bit: ... it has run when EnableTraceEx2 returns", BITS);
	tap_eq(EnableTraceEx2(s, &prov_t, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 60000,
			      NULL), ERROR_SUCCESS, "%d-bit: ... a disable with a timeout", BITS);
	tap_eq(__atomic_load_n(&slow.done, __ATOMIC_SEQ_CST), 4,
	       "%d-bit: ... its callback has run too", BITS);
	EventUnregister(h);
	stop_session(s);
	close(slow.pipe[0]);
	close(slow.pipe[1]);
}

/* The module's cases: none runs where there is no /dev/nttrace (the host). */
TEST_F(nttrace, two_sessions)
{
	if (have_module)
		test_two_sessions();
}

TEST_F(nttrace, kernel_enable)
{
	if (have_module)
		test_kernel_enable();
}

TEST_F(nttrace, no_syscall)
{
	if (have_module)
		test_no_syscall();
}

TEST_F(nttrace, timeout)
{
	if (have_module)
		test_timeout();
}

TEST_F(nttrace, fork)
{
	if (have_module)
		test_fork();
}

int main(int argc, char **argv)
{
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	have_module = nttrace_device_fd() >= 0;
	if (!have_module)
		printf("# no %s: the module's tests skipped\n", NTTRACE_DEVICE);
	return harness_run(argc, argv);
}
