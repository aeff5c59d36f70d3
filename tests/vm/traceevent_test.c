// SPDX-License-Identifier: GPL-2.0
/*
 * The classic provider's events: TraceEvent, TraceEventInstance and
 * CreateTraceInstanceId (provider/event.c), to the in-process user-mode
 * logger (read back from its file with the ETL reader) and to a kernel
 * session (read back through the consumer), every record compared byte for
 * byte with the test's own encoder below (written from Windows' record
 * layout, not from the library's structs); every Win32 error of the
 * three functions provoked, with the last error; nothing written by a
 * refused call; `nttrace dump` and `--json` on the user-mode logger's file.
 *
 * The user-mode-logger part needs no module: without /dev/nttrace (the
 * host) the kernel part is skipped, as it is when the loaded module has no
 * handler for NTTRACE_ETW_NT_FLAGS_TRACE_HEADER / TRACE_INSTANCE yet. RegHandles
 * are classes added to the library's table (nttrace_class_add) as
 * RegisterTraceGuids adds them, so that no module is needed. Runs 64-bit
 * and 32-bit.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include <nttrace/evntrace.h>
#include <nttrace/session.h>
#include "../../userlib/internal.h"
#include "emit.h"
#include "expect.h"
#include "files.h"
#include "props.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define PTR32 (sizeof(void *) == 4)
#define UM_KB 64
#define MAXV 64		/* Class.Version tells the test's events apart */

static const uint8_t class_guid[16] = {
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x01,
};
static const uint8_t parent_guid[16] = {
	0xa0, 0xa1, 0xa2, 0xa3, 0xb0, 0xb1, 0xc0, 0xc1,
	0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7,
};
static const uint8_t ptr_guid[16] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
};
static const uint8_t zero_guid[16];
static const GUID control_guid = { 0x7e57c1a5, 0x0e14, 0x4c1a, { 1, 2, 3, 4, 5, 6, 7, 8 } };
static const GUID reg_guids[2] = {
	{ 0x7e57c1a5, 0x0e14, 0x4c1a, { 0xa, 1, 2, 3, 4, 5, 6, 7 } },
	{ 0x7e57c1a5, 0x0e14, 0x4c1a, { 0xb, 1, 2, 3, 4, 5, 6, 7 } },
};
/* RegisterTraceGuids' classes (with /dev/nttrace only), else NULL. */
static TRACE_GUID_REGISTRATION regs[2];

static char tool[PATH_MAX];	/* the nttrace tool beside this program's dir */
static uint8_t bytes[70000];	/* event data: bytes[i] = i * 7 + 3 */
static uint8_t *noaccess;	/* a PROT_NONE page after a readable one */
static long pg;

/* ---- the test's own encoder of classic records ---- */

struct cexp {
	int used, instance;
	uint8_t type, level;
	uint16_t version;
	uint32_t tid, pid;
	uint64_t ts, t0, t1;	/* ts exact (USE_TIMESTAMP), else within [t0, t1] */
	int exact_ts;
	const uint8_t *guid, *pguid;
	uint32_t inst, parent;
	uint8_t data[1024];
	uint32_t len;
};
static struct cexp want[MAXV];

/* The record for @e (time stamp @ts) into @out; returns its Size. */
static uint32_t cexp_encode(const struct cexp *e, uint64_t ts, uint8_t *out)
{
	uint32_t hsize = e->instance ? 0x48 : 0x30, size = hsize + e->len;
	uint8_t *p = out;

	memset(out, 0, hsize);
	p = put_le(p, size, 2);
	*p++ = e->instance ? (PTR32 ? 0x0B : 0x15) : (PTR32 ? 0x0A : 0x14);
	*p++ = 0xC0;
	*p++ = e->type;
	*p++ = e->level;
	p = put_le(p, e->version, 2);
	p = put_le(p, e->tid, 4);
	p = put_le(p, e->pid, 4);
	p = put_le(p, ts, 8);
	memcpy(p, e->guid, 16);
	p += 16;
	p = put_le(p, 0, 8);		/* KernelTime, UserTime */
	if (e->instance) {
		p = put_le(p, e->inst, 4);
		p = put_le(p, e->parent, 4);
		memcpy(p, e->pguid ? e->pguid : zero_guid, 16);
		p += 16;
	}
	memcpy(p, e->data, e->len);
	return size;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- records read back, by Class.Version ---- */

static struct {
	uint8_t *bytes;
	uint32_t size;
	unsigned int count;
} got[MAXV];
static unsigned int strays;	/* records that are none of the test's */

static void forget(void)
{
	unsigned int i;

	for (i = 0; i < MAXV; i++) {
		free(got[i].bytes);
		got[i].bytes = NULL;
		got[i].count = 0;
	}
	strays = 0;
	memset(want, 0, sizeof(want));
}

static void collect(void *ctx, const uint8_t *rec, uint32_t size)
{
	uint16_t v = get_le(rec + 6, 2);

	if (rec[3] != 0xC0 || size < 0x30 || v >= MAXV || !want[v].used) {
		strays++;
		return;
	}
	if (!got[v].count++) {
		got[v].bytes = malloc(size);
		memcpy(got[v].bytes, rec, size);
		got[v].size = size;
	}
}

/* Every expected event read once, byte for byte; nothing else. */
static void check_records(const char *where)
{
	unsigned int v, missing = 0, twice = 0, wrong = 0, late = 0;
	static uint8_t rec[0x48 + 1024];

	for (v = 0; v < MAXV; v++) {
		const struct cexp *e = &want[v];
		uint64_t ts;
		uint32_t size;

		if (!e->used)
			continue;
		if (!got[v].count) {
			printf("# %s: event %u missing\n", where, v);
			missing++;
			continue;
		}
		twice += got[v].count > 1;
		ts = got[v].size >= 0x18 ? get_le(got[v].bytes + 0x10, 8) : 0;
		if (e->exact_ts) {
			ts = e->ts;
		} else if (ts < e->t0 || ts > e->t1) {
			printf("# %s: event %u time stamp %llu not in [%llu, %llu]\n", where, v,
			       (unsigned long long)ts, (unsigned long long)e->t0,
			       (unsigned long long)e->t1);
			late++;
		}
		size = cexp_encode(e, ts, rec);
		if (size != got[v].size || memcmp(rec, got[v].bytes, size)) {
			unsigned int i;

			printf("# %s: event %u: got %u bytes, want %u; first difference at ",
			       where, v, got[v].size, size);
			for (i = 0; i < size && i < got[v].size && rec[i] == got[v].bytes[i]; i++)
				;
			printf("0x%x\n", i);
			wrong++;
		}
	}
	tap_eq(missing, 0, "%d-bit: %s: every event succeeded is read back", BITS, where);
	tap_eq(twice + strays, 0, "%d-bit: %s: each once, and nothing from refused calls",
	       BITS, where);
	tap_eq(late, 0, "%d-bit: %s: time stamps taken during the call (logger's clock)",
	       BITS, where);
	tap_eq(wrong, 0, "%d-bit: %s: every record byte for byte as encoded", BITS, where);
}

/* ---- the events ---- */

struct ev_inline {
	EVENT_TRACE_HEADER h;
	uint8_t data[1024];
};
struct ev_mof {
	EVENT_TRACE_HEADER h;
	MOF_FIELD mof[MAX_MOF_FIELDS + 1];
};
struct inst_inline {
	EVENT_INSTANCE_HEADER h;
	uint8_t data[1024];
};
struct inst_mof {
	EVENT_INSTANCE_HEADER h;
	MOF_FIELD mof[MAX_MOF_FIELDS + 1];
};

static HANDLE reg_class, reg_parent, reg_bad;

/* Fresh classes (their counters at 0), and a handle of one removed since. */
static void make_regs(void)
{
	if (reg_class) {
		nttrace_class_remove(reg_class);
		nttrace_class_remove(reg_parent);
	}
	if (nttrace_class_add((const GUID *)class_guid, &reg_class) ||
	    nttrace_class_add((const GUID *)parent_guid, &reg_parent) ||
	    nttrace_class_add((const GUID *)class_guid, &reg_bad))
		printf("# nttrace_class_add failed\n");
	nttrace_class_remove(reg_bad);
}

static struct cexp *expect_event(uint16_t v, int instance, uint8_t type, uint8_t level)
{
	struct cexp *e = &want[v];

	memset(e, 0, sizeof(*e));
	e->used = 1;
	e->instance = instance;
	e->version = v;
	e->type = type;
	e->level = level;
	e->tid = syscall(SYS_gettid);
	e->pid = getpid();
	e->guid = class_guid;
	return e;
}

/* Append @len bytes of bytes[@at...] to @e's data; returns their address. */
static const uint8_t *add_data(struct cexp *e, uint32_t at, uint32_t len)
{
	memcpy(e->data + e->len, bytes + at, len);
	e->len += len;
	return bytes + at;
}

static void init_header(EVENT_TRACE_HEADER *h, uint16_t size, uint16_t v,
			uint8_t type, uint8_t level, ULONG flags)
{
	memset(h, 0, sizeof(*h));
	h->Size = size;
	h->Class.Type = type;
	h->Class.Level = level;
	h->Class.Version = v;
	h->Flags = WNODE_FLAG_TRACED_GUID | flags;
	memcpy(&h->Guid, class_guid, 16);
	/* What the logger must overwrite. */
	h->HeaderType = 0x77;
	h->MarkerFlags = 0x55;
	h->ThreadId = 0xdeadbeef;
	h->ProcessId = 0xfeedface;
}

static void init_inst(EVENT_INSTANCE_HEADER *h, uint16_t size, uint16_t v,
		      uint8_t type, uint8_t level, ULONG flags)
{
	memset(h, 0, sizeof(*h));
	h->Size = size;
	h->Class.Type = type;
	h->Class.Level = level;
	h->Class.Version = v;
	h->Flags = WNODE_FLAG_TRACED_GUID | flags;
	h->HeaderType = 0x77;
	h->ThreadId = 0xdeadbeef;
	/* Not read: the EVENT_INSTANCE_INFO arguments win. */
	h->RegHandle = 0x1234;
	h->InstanceId = 0x5555;
	h->ParentInstanceId = 0x6666;
	h->ParentRegHandle = 0x7777;
}

/* One call, bracketed in time; checked to succeed with the last error. */
#define CALL(e, what, call)						\
	({								\
		ULONG _err;						\
		SetLastError(0xabcd);					\
		(e)->t0 = mono_ns();					\
		_err = (call);						\
		(e)->t1 = mono_ns();					\
		if (_err)						\
			(e)->used = 0;					\
		tap_ok(!_err && GetLastError() == 0, "%d-bit: %s: %s", BITS, where, what) || \
			printf("# error %u, last error %u\n", _err, GetLastError()); \
	})

/* The events both loggers get; @h is the logger handle. */
static void trace_all(TRACEHANDLE h, const char *where)
{
	static struct ev_inline ei;
	static struct ev_mof em;
	static struct inst_inline ii;
	static struct inst_mof im;
	EVENT_INSTANCE_INFO inst, inst2, par;
	struct cexp *e;
	unsigned int i;

	/* 1: inline data of an odd size */
	e = expect_event(1, 0, EVENT_TRACE_TYPE_START, 4);
	init_header(&ei.h, 0x30 + 13, 1, EVENT_TRACE_TYPE_START, 4, 0);
	memcpy(ei.data, add_data(e, 5, 13), 13);
	CALL(e, "TraceEvent, 13 bytes inline", TraceEvent(h, &ei.h));

	/* 2: no data at all */
	e = expect_event(2, 0, EVENT_TRACE_TYPE_END, 0);
	init_header(&ei.h, 0x30, 2, EVENT_TRACE_TYPE_END, 0, 0);
	CALL(e, "TraceEvent, header only", TraceEvent(h, &ei.h));

	/* 3: MOF items, one empty, and the GUID through GuidPtr */
	e = expect_event(3, 0, EVENT_TRACE_TYPE_INFO, 255);
	e->guid = ptr_guid;
	init_header(&em.h, 0x30 + 3 * 16, 3, 0, 255,
		    WNODE_FLAG_USE_MOF_PTR | WNODE_FLAG_USE_GUID_PTR);
	em.h.GuidPtr = (uintptr_t)ptr_guid;
	DEFINE_TRACE_MOF_FIELD(&em.mof[0], add_data(e, 100, 5), 5, 0);
	DEFINE_TRACE_MOF_FIELD(&em.mof[1], bytes + 7, 0, 0);
	DEFINE_TRACE_MOF_FIELD(&em.mof[2], add_data(e, 201, 11), 11, 99);
	CALL(e, "TraceEvent, 3 MOF_FIELDs (one empty), USE_GUID_PTR", TraceEvent(h, &em.h));

	/* 4: the caller's time stamp */
	e = expect_event(4, 0, EVENT_TRACE_TYPE_CHECKPOINT, 1);
	e->exact_ts = 1;
	e->ts = 0x1122334455667788ULL;
	init_header(&ei.h, 0x30 + 8, 4, EVENT_TRACE_TYPE_CHECKPOINT, 1,
		    WNODE_FLAG_USE_TIMESTAMP);
	ei.h.TimeStamp.QuadPart = e->ts;
	memcpy(ei.data, add_data(e, 300, 8), 8);
	CALL(e, "TraceEvent, USE_TIMESTAMP kept", TraceEvent(h, &ei.h));

	/* 5: MAX_MOF_FIELDS items */
	e = expect_event(5, 0, 0x42, 2);
	init_header(&em.h, 0x30 + MAX_MOF_FIELDS * 16, 5, 0x42, 2, WNODE_FLAG_USE_MOF_PTR);
	for (i = 0; i < MAX_MOF_FIELDS; i++)
		DEFINE_TRACE_MOF_FIELD(&em.mof[i], add_data(e, 400 + 3 * i, i + 1), i + 1, 0);
	CALL(e, "TraceEvent, MAX_MOF_FIELDS items", TraceEvent(h, &em.h));

	/* 6: a partial MOF_FIELD after two whole ones is not an item */
	e = expect_event(6, 0, 0x43, 3);
	init_header(&em.h, 0x30 + 2 * 16 + 8, 6, 0x43, 3, WNODE_FLAG_USE_MOF_PTR);
	DEFINE_TRACE_MOF_FIELD(&em.mof[0], add_data(e, 600, 4), 4, 0);
	DEFINE_TRACE_MOF_FIELD(&em.mof[1], add_data(e, 610, 6), 6, 0);
	DEFINE_TRACE_MOF_FIELD(&em.mof[2], noaccess, 100, 0);
	CALL(e, "TraceEvent, bytes after the last whole MOF_FIELD ignored",
	     TraceEvent(h, &em.h));

	/* 7: the handle as a provider gets it: enable level and flags beside */
	e = expect_event(7, 0, 0x44, 5);
	init_header(&ei.h, 0x30 + 3, 7, 0x44, 5, 0);
	memcpy(ei.data, add_data(e, 700, 3), 3);
	CALL(e, "TraceEvent, handle with enable level and flags",
	     TraceEvent(h | 5ULL << 16 | 0xF00DULL << 32, &ei.h));

	/* Instances of the class and of the parent class. */
	make_regs();
	tap_ok(!CreateTraceInstanceId(reg_class, &inst) && inst.RegHandle == reg_class &&
	       inst.InstanceId == 1, "%d-bit: %s: CreateTraceInstanceId: the class's first is 1",
	       BITS, where);
	tap_ok(!CreateTraceInstanceId(reg_class, &inst2) && inst2.InstanceId == 2,
	       "%d-bit: %s: ... then 2", BITS, where);
	tap_ok(!CreateTraceInstanceId(reg_parent, &par) && par.InstanceId == 1 &&
	       par.RegHandle == reg_parent, "%d-bit: %s: ... each class its own counter",
	       BITS, where);

	/* 8: instance, inline data, no parent */
	e = expect_event(8, 1, EVENT_TRACE_TYPE_START, 6);
	e->inst = 1;
	init_inst(&ii.h, 0x38 + 7, 8, EVENT_TRACE_TYPE_START, 6, 0);
	memcpy(ii.data, add_data(e, 800, 7), 7);
	CALL(e, "TraceEventInstance, inline data, no parent",
	     TraceEventInstance(h, &ii.h, &inst, NULL));

	/* 9: instance with its parent, MOF items */
	e = expect_event(9, 1, EVENT_TRACE_TYPE_REPLY, 7);
	e->inst = 2;
	e->parent = 1;
	e->pguid = parent_guid;
	init_inst(&im.h, 0x38 + 2 * 16, 9, EVENT_TRACE_TYPE_REPLY, 7, WNODE_FLAG_USE_MOF_PTR);
	DEFINE_TRACE_MOF_FIELD(&im.mof[0], add_data(e, 900, 9), 9, 0);
	DEFINE_TRACE_MOF_FIELD(&im.mof[1], add_data(e, 950, 17), 17, 0);
	CALL(e, "TraceEventInstance, parent, MOF_FIELDs",
	     TraceEventInstance(h, &im.h, &inst2, &par));

	/* 10: instance, USE_TIMESTAMP kept, USE_GUID_PTR means nothing */
	e = expect_event(10, 1, EVENT_TRACE_TYPE_END, 8);
	e->inst = 1;
	e->parent = 1;
	e->pguid = parent_guid;
	e->exact_ts = 1;
	e->ts = 42;
	init_inst(&ii.h, 0x38, 10, EVENT_TRACE_TYPE_END, 8,
		  WNODE_FLAG_USE_TIMESTAMP | WNODE_FLAG_USE_GUID_PTR);
	ii.h.TimeStamp.QuadPart = 42;
	CALL(e, "TraceEventInstance, USE_TIMESTAMP, no data",
	     TraceEventInstance(h, &ii.h, &inst, &par));

	/* 11: a parent of the same class, larger data */
	e = expect_event(11, 1, 0x50, 9);
	e->inst = 2;
	e->parent = 1;
	e->pguid = class_guid;
	init_inst(&ii.h, 0x38 + 1000, 11, 0x50, 9, 0);
	memcpy(ii.data, add_data(e, 1100, 1000), 1000);
	CALL(e, "TraceEventInstance, 1000 bytes, parent of the same class",
	     TraceEventInstance(h, &ii.h, &inst2, &inst));

	/* 12: classes of a RegisterTraceGuids registration */
	if (regs[0].RegHandle) {
		EVENT_INSTANCE_INFO a, b;

		tap_ok(!CreateTraceInstanceId(regs[0].RegHandle, &a) &&
		       !CreateTraceInstanceId(regs[1].RegHandle, &b) &&
		       !CreateTraceInstanceId(regs[1].RegHandle, &b) &&
		       a.RegHandle == regs[0].RegHandle, "%d-bit: %s: CreateTraceInstanceId "
		       "on RegisterTraceGuids' RegHandles", BITS, where);
		e = expect_event(12, 1, 0x51, 10);
		e->guid = (const uint8_t *)&reg_guids[1];
		e->pguid = (const uint8_t *)&reg_guids[0];
		e->inst = b.InstanceId;
		e->parent = a.InstanceId;
		init_inst(&ii.h, 0x38 + 5, 12, 0x51, 10, 0);
		memcpy(ii.data, add_data(e, 1300, 5), 5);
		CALL(e, "TraceEventInstance, RegisterTraceGuids' classes",
		     TraceEventInstance(h, &ii.h, &b, &a));
	}
}

/* ---- errors: each with its last error; nothing written ---- */

#define ERR(want_err, what, call)					\
	({								\
		ULONG _err;						\
		SetLastError(0xabcd);					\
		_err = (call);						\
		if (_err != (want_err) || GetLastError() != (want_err))	\
			printf("# got %u, last error %u\n", _err, GetLastError()); \
		tap_ok(_err == (want_err) && GetLastError() == (want_err), \
		       "%d-bit: %s: %s -> %s", BITS, where, what, #want_err); \
	})

/* The errors every logger gives the same; @h a running logger's handle. */
static void errors_common(TRACEHANDLE h, const char *where)
{
	static struct ev_inline ei;
	static struct ev_mof em;
	static struct inst_inline ii;
	EVENT_INSTANCE_INFO inst, par, null_reg = { NULL, 1 }, bad, misaligned;
	EVENT_INSTANCE_INFO unreadable = { noaccess, 1 };
	EVENT_INSTANCE_INFO random = { (HANDLE)(uintptr_t)0x5a5a1234, 1 };
	uint8_t *edge = noaccess - 0x30;	/* a header right before the hole */

	make_regs();
	inst = (EVENT_INSTANCE_INFO){ reg_class, 3 };
	par = (EVENT_INSTANCE_INFO){ reg_parent, 1 };
	bad = (EVENT_INSTANCE_INFO){ reg_bad, 1 };
	misaligned = (EVENT_INSTANCE_INFO){ (uint8_t *)reg_class + 1, 1 };
	init_header(&ei.h, 0x30 + 4, 60, 1, 1, 0);
	ERR(ERROR_INVALID_PARAMETER, "TraceEvent, handle 0", TraceEvent(0, &ei.h));
	ERR(ERROR_INVALID_PARAMETER, "TraceEvent, EventTrace NULL", TraceEvent(h, NULL));
	ERR(ERROR_INVALID_HANDLE, "TraceEvent, logger 0xFFFF (NT Kernel Logger)",
	    TraceEvent(0xFFFF, &ei.h));
	ERR(ERROR_INVALID_HANDLE, "TraceEvent, logger ID 0 with level and flags",
	    TraceEvent(5ULL << 16 | 1ULL << 32, &ei.h));
	ERR(ERROR_NOACCESS, "TraceEvent, EventTrace unreadable",
	    TraceEvent(h, (PEVENT_TRACE_HEADER)noaccess));
	ei.h.Flags = WNODE_FLAG_USE_MOF_PTR;
	ERR(ERROR_INVALID_FLAG_NUMBER, "TraceEvent, no WNODE_FLAG_TRACED_GUID",
	    TraceEvent(h, &ei.h));
	init_header(&ei.h, 0x2F, 60, 1, 1, 0);
	ERR(ERROR_INVALID_PARAMETER, "TraceEvent, Size 0x2F", TraceEvent(h, &ei.h));
	init_header(&em.h, 0x30 + 17 * 16, 60, 1, 1, WNODE_FLAG_USE_MOF_PTR);
	ERR(ERROR_INVALID_PARAMETER, "TraceEvent, 17 MOF_FIELDs", TraceEvent(h, &em.h));
	init_header(&em.h, 0x30 + 16, 60, 1, 1, WNODE_FLAG_USE_MOF_PTR);
	DEFINE_TRACE_MOF_FIELD(&em.mof[0], noaccess, 8, 0);
	ERR(ERROR_NOACCESS, "TraceEvent, a MOF item unreadable", TraceEvent(h, &em.h));
	DEFINE_TRACE_MOF_FIELD(&em.mof[0], bytes, 8, 0);
	em.h.Flags |= WNODE_FLAG_USE_GUID_PTR;
	em.h.GuidPtr = (uintptr_t)noaccess;
	ERR(ERROR_NOACCESS, "TraceEvent, GuidPtr unreadable", TraceEvent(h, &em.h));
	/* A header at the end of a page, its MOF_FIELD array in the hole. */
	init_header((EVENT_TRACE_HEADER *)edge, 0x30 + 16, 60, 1, 1, WNODE_FLAG_USE_MOF_PTR);
	ERR(ERROR_NOACCESS, "TraceEvent, the MOF_FIELD array unreadable",
	    TraceEvent(h, (PEVENT_TRACE_HEADER)edge));
	init_header((EVENT_TRACE_HEADER *)edge, 0x30 + 16, 60, 1, 1, 0);
	ERR(ERROR_NOACCESS, "TraceEvent, inline data unreadable",
	    TraceEvent(h, (PEVENT_TRACE_HEADER)edge));

	init_inst(&ii.h, 0x38 + 4, 61, 1, 1, 0);
	ERR(ERROR_INVALID_PARAMETER, "TraceEventInstance, handle 0",
	    TraceEventInstance(0, &ii.h, &inst, NULL));
	ERR(ERROR_INVALID_PARAMETER, "TraceEventInstance, EventTrace NULL",
	    TraceEventInstance(h, NULL, &inst, NULL));
	ERR(ERROR_INVALID_PARAMETER, "TraceEventInstance, InstInfo NULL",
	    TraceEventInstance(h, &ii.h, NULL, NULL));
	ERR(ERROR_INVALID_PARAMETER, "TraceEventInstance, InstInfo->RegHandle NULL",
	    TraceEventInstance(h, &ii.h, &null_reg, NULL));
	ERR(ERROR_INVALID_PARAMETER, "TraceEventInstance, ParentInstInfo->RegHandle NULL",
	    TraceEventInstance(h, &ii.h, &inst, &null_reg));
	ERR(ERROR_INVALID_HANDLE, "TraceEventInstance, logger 0xFFFF",
	    TraceEventInstance(0xFFFF, &ii.h, &inst, NULL));
	ERR(ERROR_INVALID_HANDLE, "TraceEventInstance, RegHandle of a class since unregistered",
	    TraceEventInstance(h, &ii.h, &bad, NULL));
	ERR(ERROR_INVALID_HANDLE, "TraceEventInstance, RegHandle unreadable",
	    TraceEventInstance(h, &ii.h, &unreadable, NULL));
	ERR(ERROR_INVALID_HANDLE, "TraceEventInstance, RegHandle misaligned",
	    TraceEventInstance(h, &ii.h, &misaligned, NULL));
	ERR(ERROR_INVALID_HANDLE, "TraceEventInstance, RegHandle a random value",
	    TraceEventInstance(h, &ii.h, &random, NULL));
	ERR(ERROR_INVALID_HANDLE, "TraceEventInstance, parent's RegHandle not registered",
	    TraceEventInstance(h, &ii.h, &inst, &bad));
	ERR(ERROR_NOACCESS, "TraceEventInstance, EventTrace unreadable",
	    TraceEventInstance(h, (PEVENT_INSTANCE_HEADER)noaccess, &inst, NULL));
	ERR(ERROR_NOACCESS, "TraceEventInstance, InstInfo unreadable",
	    TraceEventInstance(h, &ii.h, (PEVENT_INSTANCE_INFO)noaccess, NULL));
	ERR(ERROR_NOACCESS, "TraceEventInstance, ParentInstInfo unreadable",
	    TraceEventInstance(h, &ii.h, &inst, (PEVENT_INSTANCE_INFO)noaccess));
	ii.h.Flags = 0;
	ERR(ERROR_INVALID_FLAGS, "TraceEventInstance, no WNODE_FLAG_TRACED_GUID",
	    TraceEventInstance(h, &ii.h, &inst, &par));
	init_inst(&ii.h, 0x37, 61, 1, 1, 0);
	ERR(ERROR_INVALID_PARAMETER, "TraceEventInstance, Size 0x37",
	    TraceEventInstance(h, &ii.h, &inst, NULL));
	init_inst(&ii.h, 0x38 + 17 * 16, 61, 1, 1, WNODE_FLAG_USE_MOF_PTR);
	ERR(ERROR_INVALID_PARAMETER, "TraceEventInstance, 17 MOF_FIELDs",
	    TraceEventInstance(h, &ii.h, &inst, NULL));
	init_inst((EVENT_INSTANCE_HEADER *)(noaccess - 0x38), 0x38 + 16, 61, 1, 1,
		  WNODE_FLAG_USE_MOF_PTR);
	ERR(ERROR_NOACCESS, "TraceEventInstance, the MOF_FIELD array unreadable",
	    TraceEventInstance(h, (PEVENT_INSTANCE_HEADER)(noaccess - 0x38), &inst, NULL));
	init_inst((EVENT_INSTANCE_HEADER *)(noaccess - 0x38), 0x38 + 16, 61, 1, 1, 0);
	ERR(ERROR_NOACCESS, "TraceEventInstance, inline data unreadable",
	    TraceEventInstance(h, (PEVENT_INSTANCE_HEADER)(noaccess - 0x38), &inst, NULL));
}

/* An event larger than a buffer; one over 0xFFFF bytes. */
static void errors_size(TRACEHANDLE h, const char *where, uint32_t buffer_size)
{
	static struct ev_mof em;
	static struct inst_mof im;
	EVENT_INSTANCE_INFO inst = { reg_class, 3 };

	init_header(&em.h, 0x30 + 16, 62, 1, 1, WNODE_FLAG_USE_MOF_PTR);
	DEFINE_TRACE_MOF_FIELD(&em.mof[0], bytes, buffer_size, 0);
	ERR(ERROR_MORE_DATA, "TraceEvent, larger than a buffer", TraceEvent(h, &em.h));
	init_header(&em.h, 0x30 + 2 * 16, 62, 1, 1, WNODE_FLAG_USE_MOF_PTR);
	DEFINE_TRACE_MOF_FIELD(&em.mof[0], bytes, 0x8000, 0);
	DEFINE_TRACE_MOF_FIELD(&em.mof[1], bytes, 0x8000, 0);
	ERR(ERROR_MORE_DATA, "TraceEvent, 0x30 + 0x10000 bytes (Size is 16 bits)",
	    TraceEvent(h, &em.h));
	init_inst(&im.h, 0x38 + 16, 63, 1, 1, WNODE_FLAG_USE_MOF_PTR);
	DEFINE_TRACE_MOF_FIELD(&im.mof[0], bytes, 0xFFFF - 0x47, 0);
	ERR(ERROR_MORE_DATA, "TraceEventInstance, 0x48 + 0xFFB8 bytes",
	    TraceEventInstance(h, &im.h, &inst, NULL));
}

static ULONG WINAPI control(WMIDPREQUESTCODE code, PVOID ctx, ULONG *size, PVOID buf)
{
	return ERROR_SUCCESS;
}

/* A registration with two classes; NULL RegHandles when it fails. */
static void register_classes(TRACEHANDLE *rh)
{
	regs[0].Guid = &reg_guids[0];
	regs[1].Guid = &reg_guids[1];
	if (!tap_eq(RegisterTraceGuidsA(control, NULL, &control_guid, 2, regs, NULL, NULL, rh),
		    ERROR_SUCCESS, "%d-bit: RegisterTraceGuids, two classes", BITS))
		regs[0].RegHandle = regs[1].RegHandle = NULL;
}

/* After UnregisterTraceGuids its RegHandles are handles no more. */
static void unregister_classes(TRACEHANDLE rh)
{
	const char *where = "unregistered";
	EVENT_INSTANCE_INFO info, gone = { regs[0].RegHandle, 1 };
	static struct inst_inline ii;
	TRACEHANDLE h;
	struct props pr;

	tap_eq(UnregisterTraceGuids(rh), ERROR_SUCCESS, "%d-bit: UnregisterTraceGuids", BITS);
	ERR(ERROR_INVALID_HANDLE, "CreateTraceInstanceId",
	    CreateTraceInstanceId(regs[0].RegHandle, &info));
	props_init(&pr, "/tmp/traceevent-unreg.etl", EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (StartTraceA(&h, "te-unreg", &pr.p))
		return (void)tap_ok(0, "%d-bit: start te-unreg", BITS);
	init_inst(&ii.h, 0x38, 61, 1, 1, 0);
	ERR(ERROR_INVALID_HANDLE, "TraceEventInstance",
	    TraceEventInstance(h, &ii.h, &gone, NULL));
	props_init(&pr, NULL, 0);
	StopTraceA(h, NULL, &pr.p);
	unlink("/tmp/traceevent-unreg.etl");
}

static void test_instance_ids(void)
{
	const char *where = "CreateTraceInstanceId";
	EVENT_INSTANCE_INFO info;
	uint8_t *ro = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	make_regs();
	nttrace_class_of(reg_class)->next_instance = 0xFFFFFFFE;
	tap_ok(!CreateTraceInstanceId(reg_class, &info) && info.InstanceId == 0xFFFFFFFF,
	       "%d-bit: %s: up to 0xFFFFFFFF", BITS, where);
	tap_ok(!CreateTraceInstanceId(reg_class, &info) && info.InstanceId == 1,
	       "%d-bit: %s: then starts over at 1 (0 skipped)", BITS, where);
	ERR(ERROR_INVALID_PARAMETER, "RegHandle NULL", CreateTraceInstanceId(NULL, &info));
	ERR(ERROR_INVALID_PARAMETER, "InstInfo NULL", CreateTraceInstanceId(reg_class, NULL));
	ERR(ERROR_INVALID_HANDLE, "RegHandle not registered",
	    CreateTraceInstanceId(reg_bad, &info));
	ERR(ERROR_INVALID_HANDLE, "RegHandle unreadable", CreateTraceInstanceId(noaccess, &info));
	ERR(ERROR_NOACCESS, "InstInfo not writable",
	    CreateTraceInstanceId(reg_class, (PEVENT_INSTANCE_INFO)ro));
	SetLastError(7);
	tap_ok(!CreateTraceInstanceId(reg_class, &info) && GetLastError() == 0,
	       "%d-bit: %s: success sets the last error to ERROR_SUCCESS", BITS, where);
	munmap(ro, pg);
}

/* ---- the user-mode logger ---- */

static void um_props(struct props *pr, const char *file, uint32_t kb, uint32_t nbuf)
{
	props_init(pr, file, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	pr->p.BufferSize = kb;
	pr->p.MaximumBuffers = nbuf;
}

static ULONG um_stop(TRACEHANDLE h, uint32_t *lost)
{
	struct props pr;
	ULONG err;

	props_init(&pr, NULL, 0);
	err = StopTraceA(h, NULL, &pr.p);
	if (lost)
		*lost = pr.p.EventsLost;
	return err;
}

static void read_file(const char *file)
{
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	int ret = nttrace_etl_open(&r, file, NULL, NULL);

	if (!tap_eq(ret, 0, "%d-bit: the ETL reader opens %s", BITS, file))
		return;
	while (nttrace_etl_next(r, &ev)) {
		if (ev.classic)
			collect(NULL, ev.rec, ev.size);
		else
			strays++;
	}
	nttrace_etl_close(r);
}

/* The output of `nttrace dump [--json] @file`, NUL-terminated, or NULL. */
static char *dump(const char *opt, const char *file)
{
	char cmd[PATH_MAX * 2 + 64], *out = NULL;
	size_t len = 0, room = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s dump %s %s 2>&1", tool, opt, file);
	f = popen(cmd, "r");
	if (!f)
		return NULL;
	for (;;) {
		size_t n;

		if (room - len < 4096) {
			room = room ? 2 * room : 65536;
			out = realloc(out, room);
		}
		n = fread(out + len, 1, room - len - 1, f);
		if (!n)
			break;
		len += n;
	}
	out[len] = 0;
	if (pclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

static void guid_str(const uint8_t *g, char *s)
{
	sprintf(s, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6],
		g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
}

/* What `nttrace dump` must print for each event, text and JSON. */
static void test_dump(const char *file)
{
	char *text = dump("", file), *js = dump("--json", file);
	unsigned int v, bad_text = 0, bad_json = 0;

	if (!tap_ok(text && js, "%d-bit: nttrace dump and dump --json exit 0", BITS)) {
		free(text);
		free(js);
		return;
	}
	for (v = 0; v < MAXV; v++) {
		const struct cexp *e = &want[v];
		char s[512], hex[2 * 1024 + 1], g[40], pg_[40];
		size_t n = 0;
		uint32_t i;

		if (!e->used)
			continue;
		guid_str(e->guid, g);
		guid_str(e->pguid ? e->pguid : zero_guid, pg_);
		/* Text: the fields, then up to 32 bytes of hex. */
		n = snprintf(s, sizeof(s), " %s {%s} type %u level %u version %u",
			     e->instance ? "instance" : "event", g, e->type, e->level, v);
		if (e->instance)
			n += snprintf(s + n, sizeof(s) - n, " id %u parent %u {%s}",
				      e->inst, e->parent, pg_);
		n += snprintf(s + n, sizeof(s) - n, " tid %u pid %u %s [%u bytes]", e->tid,
			      e->pid, PTR32 ? "ptr32" : "ptr64", e->len);
		for (i = 0; i < e->len && i < 32; i++)
			n += snprintf(s + n, sizeof(s) - n, " %02x", e->data[i]);
		snprintf(s + n, sizeof(s) - n, "%s\n", e->len > 32 ? " ..." : "");
		if (!strstr(text, s)) {
			printf("# text: no \"%s\"\n", s);
			bad_text++;
		}
		for (i = 0; i < e->len; i++)
			sprintf(hex + 2 * i, "%02x", e->data[i]);
		hex[2 * e->len] = 0;
		n = snprintf(s, sizeof(s), "\"record\":\"%s\",\"size\":%u,\"pointer_size\":%d,"
			     "\"guid\":\"%s\",\"type\":%u,\"level\":%u,\"version\":%u,"
			     "\"tid\":%u,\"pid\":%u", e->instance ? "instance" : "event",
			     (e->instance ? 0x48 : 0x30) + e->len, PTR32 ? 4 : 8, g, e->type,
			     e->level, v, e->tid, e->pid);
		if (e->instance)
			snprintf(s + n, sizeof(s) - n, ",\"instance_id\":%u,"
				 "\"parent_instance_id\":%u,\"parent_guid\":\"%s\"",
				 e->inst, e->parent, pg_);
		{
			char *at = strstr(js, s);
			char *end = at ? strchr(at, '\n') : NULL;
			char *data = at ? strstr(at, ",\"data\":\"") : NULL;

			if (!at || !end || !data || data > end ||
			    strncmp(data + 9, hex, 2 * e->len) || data[9 + 2 * e->len] != '"') {
				printf("# json: no %s with data %.40s...\n", s, hex);
				bad_json++;
			}
		}
	}
	tap_eq(bad_text, 0, "%d-bit: dump: every event with GUID, class, IDs, instance "
	       "and parent, data", BITS);
	tap_eq(bad_json, 0, "%d-bit: dump --json: the same, all the data as hex", BITS);
	free(text);
	free(js);
}

/* The FIFO the small user-mode logger writes, read to its end by a thread. */
static int fifo_fd = -1;

static void *drain_fifo(void *arg)
{
	static char chunk[4096];

	fcntl(fifo_fd, F_SETFL, 0);	/* blocking: to the writer's close */
	while (read(fifo_fd, chunk, sizeof(chunk)) > 0)
		;
	return arg;
}

static void test_um(void)
{
	const char *where = "user-mode logger";
	char file[64], full[64];
	struct props pr;
	TRACEHANDLE h, old;
	unsigned int i, nomem = 0, other = 0;
	uint32_t lost = 0;
	pthread_t drainer;
	int drained;

	snprintf(file, sizeof(file), "/tmp/traceevent-um-%d.etl", BITS);
	forget();
	um_props(&pr, file, UM_KB, 16);
	if (!tap_eq(StartTraceA(&h, "te-um", &pr.p), ERROR_SUCCESS, "%d-bit: %s: start",
		    BITS, where))
		return;
	trace_all(h, where);
	errors_common(h, where);
	errors_size(h, where, UM_KB * 1024);
	old = h;
	tap_eq(um_stop(h, NULL), ERROR_SUCCESS, "%d-bit: %s: stop", BITS, where);
	{
		static struct ev_inline ei;
		static struct inst_inline ii;
		EVENT_INSTANCE_INFO inst = { reg_class, 1 };

		init_header(&ei.h, 0x30, 60, 1, 1, 0);
		init_inst(&ii.h, 0x38, 61, 1, 1, 0);
		ERR(ERROR_INVALID_HANDLE, "TraceEvent, the logger stopped", TraceEvent(old, &ei.h));
		ERR(ERROR_INVALID_HANDLE, "TraceEventInstance, the logger stopped",
		    TraceEventInstance(old, &ii.h, &inst, NULL));
	}
	read_file(file);
	check_records(where);
	test_dump(file);

	/*
	 * Two buffers of 4 KB writing into a FIFO of one page nobody reads
	 * until the producer is done: the writer blocks, and whatever the
	 * speed of either side, some events find no free buffer.
	 */
	snprintf(full, sizeof(full), "/tmp/traceevent-full-%d", BITS);
	unlink(full);
	fifo_fd = mkfifo(full, 0600) ? -1 : open(full, O_RDONLY | O_NONBLOCK);
	if (!tap_ok(fifo_fd >= 0 && fcntl(fifo_fd, F_SETPIPE_SZ, 4096) >= 4096,
		    "%d-bit: %s: a FIFO of one page as the log file", BITS, where))
		return;
	um_props(&pr, full, 4, 2);
	if (!tap_eq(StartTraceA(&h, "te-um-full", &pr.p), ERROR_SUCCESS,
		    "%d-bit: %s: start a small one", BITS, where)) {
		close(fifo_fd);
		unlink(full);
		return;
	}
	for (i = 0; i < 20000; i++) {
		static struct ev_inline ei;
		ULONG err;

		init_header(&ei.h, 0x30 + 1000, 1, 1, 1, 0);
		err = i % 2 ? TraceEvent(h, &ei.h) : ({
			static struct inst_inline ii;
			EVENT_INSTANCE_INFO inst = { reg_class, 1 };

			init_inst(&ii.h, 0x38 + 1000, 1, 1, 1, 0);
			TraceEventInstance(h, &ii.h, &inst, NULL);
		});
		if (err == ERROR_NOT_ENOUGH_MEMORY && GetLastError() == err)
			nomem++;
		else if (err)
			other++;
	}
	/* Now read it, while the stop writes the rest. */
	drained = !pthread_create(&drainer, NULL, drain_fifo, NULL);
	if (!drained)
		close(fifo_fd);	/* the writer's buffers fail (EPIPE): the stop ends */
	um_stop(h, &lost);
	if (drained) {
		pthread_join(drainer, NULL);
		close(fifo_fd);
	}
	unlink(full);
	tap_ok(nomem > 0 && other == 0, "%d-bit: %s: no free buffer -> ERROR_NOT_ENOUGH_MEMORY "
	       "(%u of 20000)", BITS, where, nomem);
	tap_eq(lost, nomem, "%d-bit: %s: ... each one counted in EventsLost", BITS, where);
}

/* ---- a kernel session ---- */

static int on_buffer(void *ctx, const void *buf, uint32_t size, unsigned int cpu)
{
	if (expect_walk(buf, collect, ctx) < 0)
		strays++;
	return 0;
}

static int kernel_has_classic(void)
{
	struct nttrace_version v = { .size = sizeof(v) };
	int fd = nttrace_device_fd();

	if (fd < 0 || ioctl(fd, NTTRACE_IOC_VERSION, &v) < 0)
		return 0;
	return (v.types & NTTRACE_TYPE_BIT(NTTRACE_ETW_NT_FLAGS_TRACE_HEADER)) &&
	       (v.types & NTTRACE_TYPE_BIT(NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE));
}

static void test_kernel(void)
{
	const char *where = "kernel session";
	struct nttrace_logger_info info, full;
	struct nttrace_consumer *c;
	unsigned int i, nomem = 0, other = 0;

	forget();
	if (!tap_eq(start_session("te-kernel", 4, 16, 0, &info), 0,
		    "%d-bit: %s: start (4 KB buffers)", BITS, where))
		return;
	if (!tap_eq(nttrace_consumer_open(&c, info.logger_id), 0,
		    "%d-bit: %s: attach", BITS, where)) {
		stop_session(info.logger_id);
		return;
	}
	trace_all(info.logger_id, where);
	errors_common(info.logger_id, where);
	errors_size(info.logger_id, where, 4096);
	flush_drain(c, info.logger_id, on_buffer, NULL);
	check_records(where);
	nttrace_consumer_close(c);
	stop_session(info.logger_id);
	{
		static struct ev_inline ei;
		static struct inst_inline ii;
		EVENT_INSTANCE_INFO inst = { reg_class, 1 };

		init_header(&ei.h, 0x30, 60, 1, 1, 0);
		init_inst(&ii.h, 0x38, 61, 1, 1, 0);
		ERR(ERROR_INVALID_HANDLE, "TraceEvent, the session stopped",
		    TraceEvent(info.logger_id, &ei.h));
		ERR(ERROR_INVALID_HANDLE, "TraceEventInstance, the session stopped",
		    TraceEventInstance(info.logger_id, &ii.h, &inst, NULL));
	}

	/* 2 buffers of 4 KB per CPU, no consumer: the ring fills up. */
	if (!tap_eq(start_session("te-full", 4, 2, 0, &full), 0, "%d-bit: %s: start te-full",
		    BITS, where))
		return;
	for (i = 0; i < 400; i++) {
		static struct ev_inline ei;
		ULONG err;

		init_header(&ei.h, 0x30 + 100, 1, 1, 1, 0);
		err = TraceEvent(full.logger_id, &ei.h);
		if (err == ERROR_NOT_ENOUGH_MEMORY && GetLastError() == err)
			nomem++;
		else if (err)
			other++;
	}
	tap_ok(nomem > 0 && other == 0, "%d-bit: %s: a full ring -> ERROR_NOT_ENOUGH_MEMORY "
	       "(%u of 400)", BITS, where, nomem);
	nttrace_control(&full, EVENT_TRACE_CONTROL_QUERY);
	tap_eq(full.events_lost, nomem, "%d-bit: %s: ... each one counted lost", BITS, where);
	stop_session(full.logger_id);
}

TEST(instance_ids)
{
	test_instance_ids();
}

/* The classes registered, the user-mode logger's events, then a kernel session's. */
TEST_F(nttrace, classes)
{
	TRACEHANDLE rh = 0;

	if (access("/dev/nttrace", F_OK)) {
		printf("# no /dev/nttrace: RegisterTraceGuids and kernel sessions not "
		       "tested here\n");
		test_um();
		return;
	}
	register_classes(&rh);
	test_um();
	if (!kernel_has_classic())
		printf("# the module has no TRACE_HEADER/TRACE_INSTANCE handler yet: "
		       "kernel sessions not tested\n");
	else
		test_kernel();
	if (regs[0].RegHandle)
		unregister_classes(rh);
}

int main(int argc, char **argv)
{
	char self[PATH_MAX];
	unsigned int i;
	uint8_t *two;

	pg = sysconf(_SC_PAGESIZE);
	for (i = 0; i < sizeof(bytes); i++)
		bytes[i] = (uint8_t)(i * 7 + 3);
	two = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(two + pg, pg, PROT_NONE);
	noaccess = two + pg;
	/* The tool: u64/tests/traceevent_test -> u64/nttrace. */
	snprintf(self, sizeof(self), "%s", argv[0]);
	snprintf(tool, sizeof(tool), "%s/nttrace", dirname(dirname(self)));
	return harness_run(argc, argv);
}
