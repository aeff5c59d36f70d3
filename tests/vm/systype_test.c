// SPDX-License-Identifier: GPL-2.0
/*
 * NtTraceEvent's TRACE_SYSTEM, TRACE_MARK and TRACE_RAW (module/system.c,
 * mark.c, raw.c): every status their handlers give, provoked, and the
 * records they write read back byte for byte from the rings. 64- and
 * 32-bit; the callers without privilege are uid 65534.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/userfaultfd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/nt.h>
#include <nttrace/session.h>
#include "emit.h"
#include "expect.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define T_SYSTEM	NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM
#define T_MARK		NTTRACE_ETW_NT_FLAGS_TRACE_MARK
#define T_RAW		NTTRACE_ETW_NT_FLAGS_TRACE_RAW
#define KL		NTTRACE_KERNEL_LOGGER_ID

static uint32_t trace(uint64_t handle, uint32_t flags, uint32_t size, const void *fields)
{
	return (uint32_t)NtTraceEvent((HANDLE)(uintptr_t)handle, flags, size, (PVOID)fields);
}

/* The last record a drain met that matches @hook (system) or @size (raw). */
struct seen {
	uint16_t hook;
	uint32_t want_size;
	uint8_t rec[512];
	uint32_t size;
	int count;
};

static int on_buffer(void *ctx, const void *buf, uint32_t bsize, unsigned int cpu)
{
	struct seen *s = ctx;
	const uint8_t *b = buf;
	uint32_t end = get_le(b + 0x04, 4), off = 0x48;

	(void)bsize;
	(void)cpu;
	while (off + 8 <= end) {
		const uint8_t *p = b + off;
		uint32_t size = record_size(p);
		int hit;

		if (size < 8)
			break;
		/* A SYSTEM or PERFINFO header (the kernel's rundowns): HookId at +6. */
		hit = s->hook ? ((p[2] <= 2 || p[2] == 16 || p[2] == 17) &&
				 get_le(p + 6, 2) == s->hook) :
			      size == s->want_size;
		if (hit && size <= sizeof(s->rec)) {
			memcpy(s->rec, p, size);
			s->size = size;
		}
		s->count += hit;
		off += (size + 7) & ~7u;
	}
	return 0;
}

static struct nttrace_consumer *kc;	/* the NT Kernel Logger's logger slot */

static int drain_hook(uint16_t hook, struct seen *s)
{
	memset(s, 0, sizeof(*s));
	s->hook = hook;
	flush_drain(kc, KL, on_buffer, s);
	return s->count;
}

/* Run @fn as uid 65534; its exit status (0 means it saw what it wanted). */
static int as_nobody(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(100);
		_exit(fn(arg));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

struct sys_fields {
	uint8_t header[0x20];
	uint8_t payload[64];
};

static void sys_fields(struct sys_fields *f, uint16_t hook)
{
	unsigned int i;

	memset(f, 0, sizeof(*f));
	memcpy(f->header + 6, &hook, 2);
	for (i = 0; i < sizeof(f->payload); i++)
		f->payload[i] = (uint8_t)(i * 7 + 1);
}

static int nobody_system(void *arg)
{
	struct sys_fields f;
	uint32_t want = *(uint32_t *)arg;

	sys_fields(&f, (uint16_t)(want >> 16));
	return trace(KL, T_SYSTEM, 12, &f) == (want & 0xFFFF ? STATUS_ACCESS_DENIED : 0) ? 0 : 1;
}

static void test_system(uint32_t plain)
{
	struct sys_fields f;
	struct seen s;
	uint8_t want[0x20 + 12];
	uint32_t arg;
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *map;

	sys_fields(&f, 0x1021);
	tap_eq(trace(KL, T_SYSTEM | 3, 12, &f), STATUS_SUCCESS,
	       "%d-bit: TRACE_SYSTEM, a Heap event into the NT Kernel Logger", BITS);
	if (tap_eq(drain_hook(0x1021, &s), 1, "%d-bit: ... one record", BITS)) {
		memset(want, 0, sizeof(want));
		want[0] = 3;
		want[2] = BITS == 32 ? 1 : 2;
		want[3] = 0xC0;
		put_le(want + 4, sizeof(want), 2);
		put_le(want + 6, 0x1021, 2);
		put_le(want + 8, syscall(SYS_gettid), 4);
		put_le(want + 12, getpid(), 4);
		memcpy(want + 0x20, f.payload, 12);
		/* The time stamp and the times are the kernel's. */
		memcpy(want + 0x10, s.rec + 0x10, 16);
		tap_ok(s.size == sizeof(want) && !memcmp(s.rec, want, sizeof(want)),
		       "%d-bit: ... a SYSTEM_TRACE_HEADER (%s, version 3, the caller's IDs) and the payload",
		       BITS, BITS == 32 ? "SYSTEM32 for a 32-bit caller" : "SYSTEM64");
		tap_ok(get_le(s.rec + 0x10, 8) != 0, "%d-bit: ... time-stamped", BITS);
	}
	tap_eq(trace(0, T_SYSTEM | NTTRACE_ETW_NT_FLAGS_USE_NATIVE_HEADER, 4, &f), STATUS_SUCCESS,
	       "%d-bit: ... handle 0 is the NT Kernel Logger too", BITS);
	if (drain_hook(0x1021, &s) == 1)
		tap_eq(s.rec[2], 2, "%d-bit: ... USE_NATIVE_HEADER: SYSTEM64", BITS);
	sys_fields(&f, 0x0301);
	tap_eq(trace(KL, T_SYSTEM, 0, &f), STATUS_SUCCESS,
	       "%d-bit: ... root may write a kernel group's HookId, no payload", BITS);
	tap_eq(trace(65, T_SYSTEM, 4, &f), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... logger ID 65 -> STATUS_INVALID_PARAMETER", BITS);
	tap_eq(trace(64, T_SYSTEM, 4, &f), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... logger ID 64 -> STATUS_INVALID_PARAMETER (Windows: 64 or more)", BITS);
	tap_eq(trace(KL, T_SYSTEM, 0xFFE0, &f), STATUS_INTEGER_OVERFLOW,
	       "%d-bit: ... FieldSize 0xFFE0 -> STATUS_INTEGER_OVERFLOW", BITS);
	tap_eq(trace(60, T_SYSTEM, 4, &f), STATUS_INVALID_HANDLE,
	       "%d-bit: ... a logger that does not run -> STATUS_INVALID_HANDLE", BITS);
	tap_eq(trace(plain, T_SYSTEM, 4, &f), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... a session that is no system logger -> STATUS_INVALID_PARAMETER", BITS);
	arg = 0x03010001;
	tap_eq(as_nobody(nobody_system, &arg), 0,
	       "%d-bit: ... uid 65534, a Process HookId -> STATUS_ACCESS_DENIED", BITS);
	arg = 0x17010000;
	tap_eq(as_nobody(nobody_system, &arg), 0,
	       "%d-bit: ... uid 65534, a CritSec HookId -> STATUS_SUCCESS", BITS);

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map != MAP_FAILED) {
		munmap(map + page, page);
		memset(map, 0, page);
		map[page - 0x20 + 6] = 0x21;
		map[page - 0x20 + 7] = 0x10;
		tap_eq(trace(KL, T_SYSTEM, 8, map + page - 0x20), STATUS_ACCESS_VIOLATION,
		       "%d-bit: ... a payload in no mapping -> STATUS_ACCESS_VIOLATION", BITS);
		munmap(map, page);
	}
	map = calloc(1, 0x20 + 0xF000);
	if (map) {
		map[7] = 0x10;
		tap_eq(trace(KL, T_SYSTEM, 0xF000, map), STATUS_BUFFER_OVERFLOW,
		       "%d-bit: ... larger than the session's buffers -> STATUS_BUFFER_OVERFLOW",
		       BITS);
		free(map);
	}
}

static int control_kl(uint32_t code, uint32_t mask0, struct nttrace_logger_info *info)
{
	memset(info, 0, sizeof(*info));
	info->logger_id = KL;
	info->group_mask[0] = mask0;
	return nttrace_control(info, code);
}

/*
 * ControlTrace(UPDATE) of the NT Kernel Logger: a group it adds gets its
 * DCStart rundown, as at a start; an UPDATE without groups keeps them.
 */
static void test_update(void)
{
	struct nttrace_logger_info info;
	struct seen s;
	int n;

	drain_hook(0x0303, &s);
	tap_eq(control_kl(NTTRACE_EVENT_TRACE_CONTROL_UPDATE, NTTRACE_EVENT_TRACE_FLAG_PROCESS,
			  &info), 0, "%d-bit: UPDATE the NT Kernel Logger: Process added", BITS);
	n = drain_hook(0x0303, &s);
	tap_ok(n >= 1, "%d-bit: ... the processes' DCStart rundown is written (%d records)", BITS,
	       n);
	tap_eq(control_kl(NTTRACE_EVENT_TRACE_CONTROL_UPDATE, 0, &info), 0,
	       "%d-bit: UPDATE without groups", BITS);
	tap_eq(info.group_mask[0], NTTRACE_EVENT_TRACE_FLAG_PROCESS,
	       "%d-bit: ... keeps the groups it had", BITS);
	control_kl(NTTRACE_EVENT_TRACE_CONTROL_QUERY, 0, &info);
	tap_eq(info.group_mask[0], NTTRACE_EVENT_TRACE_FLAG_PROCESS,
	       "%d-bit: ... and a query says so", BITS);
	tap_eq(drain_hook(0x0303, &s), 0, "%d-bit: ... and writes no rundown", BITS);
}

/* A small system logger nobody reads: a full ring, events counted lost. */
static void test_system_lost(void)
{
	struct nttrace_logger_info info;
	struct sys_fields f;
	unsigned int i, bad = 0;
	char name[32];

	snprintf(name, sizeof(name), "sys-lost-%d", BITS);
	/* No SysConfig events at its start: the count is of ours alone. */
	memset(&info, 0, sizeof(info));
	nttrace_set_name(&info, name);
	info.buffer_size_kb = 4;
	info.max_buffers = 2;
	info.log_file_mode = NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE;
	info.group_mask[0] = NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG;
	if (!tap_eq(nttrace_start(&info), 0,
		    "%d-bit: a system logger of two 4 KB buffers per CPU, no SysConfig", BITS))
		return;
	sys_fields(&f, 0x1C01);
	for (i = 0; i < 2000; i++)
		bad += trace(info.logger_id, T_SYSTEM, 60, &f) != STATUS_SUCCESS;
	tap_eq(bad, 0, "%d-bit: ... 2000 events: each call succeeds", BITS);
	nttrace_control(&info, NTTRACE_EVENT_TRACE_CONTROL_QUERY);
	tap_ok(info.events_lost > 0 && info.events_lost + info.events_written == 2000,
	       "%d-bit: ... those that did not fit are counted lost (%llu lost, %llu written)",
	       BITS, (unsigned long long)info.events_lost,
	       (unsigned long long)info.events_written);
	stop_session(info.logger_id);
}

struct mark_fields {
	uint32_t flag;
	uint16_t mark[8];
};

static int nobody_mark(void *arg)
{
	struct mark_fields m = { 1, { 'n', 'o', 'b' } };

	(void)arg;
	return trace(KL, T_MARK, 4 + 6, &m) == STATUS_SUCCESS ? 0 : 1;
}

static void test_mark(uint32_t plain)
{
	struct mark_fields m = { 1, { 'h', 'e', 'l', 'l', 'o' } };
	uint8_t want[0x20 + 12];
	struct seen s;

	tap_eq(trace(KL, T_MARK, 4 + 10, &m), STATUS_SUCCESS,
	       "%d-bit: TRACE_MARK \"hello\" with ETW_SET_MARK_WITH_FLUSH", BITS);
	if (tap_eq(drain_hook(0x0F22, &s), 1, "%d-bit: ... one PerfInfo mark record", BITS)) {
		memset(want, 0, sizeof(want));
		want[2] = 2;
		want[3] = 0xC0;
		put_le(want + 4, sizeof(want), 2);
		put_le(want + 6, 0x0F22, 2);
		put_le(want + 8, syscall(SYS_gettid), 4);
		put_le(want + 12, getpid(), 4);
		memcpy(want + 0x10, s.rec + 0x10, 16);
		memcpy(want + 0x20, m.mark, 10);
		tap_ok(s.size == sizeof(want) && !memcmp(s.rec, want, sizeof(want)),
		       "%d-bit: ... SYSTEM64, version 0, HookId 0x0F22, the mark and a NUL", BITS);
	}
	tap_eq(trace(KL, T_MARK, 4, &m), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... FieldSize 4 -> STATUS_INVALID_PARAMETER", BITS);
	tap_eq(trace(KL, T_MARK, 0xFFDE, &m), STATUS_INTEGER_OVERFLOW,
	       "%d-bit: ... FieldSize 0xFFDE -> STATUS_INTEGER_OVERFLOW", BITS);
	tap_eq(trace(65, T_MARK, 6, &m), STATUS_INVALID_HANDLE,
	       "%d-bit: ... logger ID 65 -> STATUS_INVALID_HANDLE", BITS);
	tap_eq(trace(60, T_MARK, 6, &m), STATUS_INVALID_HANDLE,
	       "%d-bit: ... a logger that does not run -> STATUS_INVALID_HANDLE", BITS);
	tap_eq(trace(plain, T_MARK, 6, &m), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... a session that is no system logger -> STATUS_INVALID_PARAMETER", BITS);
	tap_eq(as_nobody(nobody_mark, NULL), 0, "%d-bit: ... uid 65534 may set a mark", BITS);
	tap_eq(drain_hook(0x0F22, &s), 1, "%d-bit: ... and it is there", BITS);
}

/* A raw SYSTEM64 record of @size bytes, HookId 0x0F01. */
static void raw_system(uint8_t *r, uint32_t size)
{
	memset(r, 0, size);
	r[2] = 2;
	r[3] = 0xC0;
	put_le(r + 4, size, 2);
	put_le(r + 6, 0x0F01, 2);
	put_le(r + 0x10, 0x1122334455667788ULL, 8);
	if (size > 0x20)
		memset(r + 0x20, 0x5A, size - 0x20);
}

/* A raw EVENT_HEADER record with one related-activity item and 4 bytes. */
static uint32_t raw_event(uint8_t *r)
{
	uint32_t size = 0x50 + 8 + 16 + 4;

	memset(r, 0, size);
	put_le(r, size, 2);
	r[2] = 0x13;
	r[3] = 0xC0;
	put_le(r + 4, 0x0001, 2);		/* EXTENDED_INFO */
	memset(r + 0x18, 0x33, 16);		/* ProviderId */
	put_le(r + 0x50, 8 + 16, 2);
	put_le(r + 0x52, 1, 2);			/* RELATED_ACTIVITYID */
	put_le(r + 0x56, 16, 2);
	memset(r + 0x58, 0x44, 16);
	memcpy(r + 0x68, "data", 4);
	return size;
}

static int nobody_raw(void *arg)
{
	uint8_t r[0x28];
	uint32_t logger = *(uint32_t *)arg;

	raw_system(r, sizeof(r));
	return trace(logger, T_RAW, sizeof(r), r) ==
	       (logger == KL ? STATUS_ACCESS_DENIED : STATUS_SUCCESS) ? 0 : 1;
}

static void test_raw(uint32_t plain)
{
	uint8_t r[0x100], saved[0x100];
	struct nttrace_logger_info sec;
	long page = sysconf(_SC_PAGESIZE);
	uint32_t size, arg;
	struct seen s;
	void *none;
	char name[32];

	raw_system(r, 0x28);
	tap_eq(trace(KL, T_RAW, 0x28, r), STATUS_SUCCESS,
	       "%d-bit: TRACE_RAW, a SYSTEM64 record into the NT Kernel Logger", BITS);
	memcpy(saved, r, 0x28);
	if (tap_eq(drain_hook(0x0F01, &s), 1, "%d-bit: ... one record", BITS))
		tap_ok(s.size == 0x28 && !memcmp(s.rec, saved, 0x28),
		       "%d-bit: ... exactly as given, its time stamp too", BITS);
	size = raw_event(r);
	memcpy(saved, r, size);
	tap_eq(trace(KL, T_RAW, size, r), STATUS_SUCCESS,
	       "%d-bit: ... an EVENT_HEADER record with an extended item", BITS);
	memset(&s, 0, sizeof(s));
	s.want_size = size;
	flush_drain(kc, KL, on_buffer, &s);
	tap_ok(s.count == 1 && !memcmp(s.rec, saved, size), "%d-bit: ... read back as given", BITS);

	tap_eq(trace(KL, T_RAW | NTTRACE_ETW_NT_FLAGS_WOW64_CALL, size, r),
	       STATUS_INVALID_PARAMETER, "%d-bit: ... Flags not exactly 0x0900 -> STATUS_INVALID_PARAMETER",
	       BITS);
	tap_eq(trace(KL, T_RAW, 0, r), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... FieldSize 0 -> STATUS_INVALID_PARAMETER", BITS);
	tap_eq(trace(KL, T_RAW, size, NULL), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... NULL Fields -> STATUS_INVALID_PARAMETER", BITS);
	tap_eq(trace(60, T_RAW, size, r), STATUS_INVALID_HANDLE,
	       "%d-bit: ... a logger that does not run -> STATUS_INVALID_HANDLE", BITS);
	tap_eq(trace(KL, T_RAW, 0x10000, r), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... FieldSize 0x10000 -> STATUS_INVALID_PARAMETER", BITS);
	none = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tap_eq(trace(KL, T_RAW, 0x28, none), STATUS_ACCESS_VIOLATION,
	       "%d-bit: ... unreadable Fields -> STATUS_ACCESS_VIOLATION", BITS);
	munmap(none, page);

	/* Records that do not describe themselves. */
	raw_system(r, 0x28);
	tap_eq(trace(KL, T_RAW, 0x30, r), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... a Size field other than FieldSize -> STATUS_INVALID_PARAMETER", BITS);
	r[2] = 7;
	tap_eq(trace(KL, T_RAW, 0x28, r), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... a header type no reader knows -> STATUS_INVALID_PARAMETER", BITS);
	raw_system(r, 0x28);
	r[3] = 0x40;
	tap_eq(trace(KL, T_RAW, 0x28, r), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... no TRACE_HEADER_FLAG in the marker -> STATUS_INVALID_PARAMETER", BITS);
	raw_system(r, 0x18);
	tap_eq(trace(KL, T_RAW, 0x18, r), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... a SYSTEM64 record shorter than its header -> STATUS_INVALID_PARAMETER",
	       BITS);
	raw_system(r, 0x28);
	r[1] = 0x02;	/* two PMC counters: 16 bytes more than the record has */
	tap_eq(trace(KL, T_RAW, 0x28, r), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... PMC items past the record -> STATUS_INVALID_PARAMETER", BITS);
	size = raw_event(r);
	put_le(r + 0x50, 8, 2);		/* the item's Size says less than its data */
	tap_eq(trace(KL, T_RAW, size, r), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... an extended item that lies about its size -> STATUS_INVALID_PARAMETER",
	       BITS);
	size = raw_event(r);
	put_le(r + 0x54, 1, 2);		/* "another item follows", past the record */
	tap_eq(trace(KL, T_RAW, size, r), STATUS_INVALID_PARAMETER,
	       "%d-bit: ... an item chain running past the record -> STATUS_INVALID_PARAMETER",
	       BITS);

	arg = KL;
	tap_eq(as_nobody(nobody_raw, &arg), 0,
	       "%d-bit: ... uid 65534 into a system logger -> STATUS_ACCESS_DENIED", BITS);
	arg = plain;
	tap_eq(as_nobody(nobody_raw, &arg), 0,
	       "%d-bit: ... uid 65534 into a plain session -> STATUS_SUCCESS", BITS);
	snprintf(name, sizeof(name), "raw-secure-%d", BITS);
	if (start_session(name, 8, 2, NTTRACE_EVENT_TRACE_SECURE_MODE, &sec) == 0) {
		raw_system(r, 0x28);
		tap_eq(trace(sec.logger_id, T_RAW, 0x28, r), STATUS_ACCESS_DENIED,
		       "%d-bit: ... a secure session, even from its owner -> STATUS_ACCESS_DENIED",
		       BITS);
		stop_session(sec.logger_id);
	}
	raw_system(r, 0x100);
	{
		uint8_t *big = calloc(1, 0x3000);

		if (big) {
			raw_system(big, 0x3000);
			tap_eq(trace(KL, T_RAW, 0x3000, big), STATUS_BUFFER_OVERFLOW,
			       "%d-bit: ... larger than the session's buffers -> STATUS_BUFFER_OVERFLOW",
			       BITS);
			free(big);
		}
	}
}

/*
 * TRACE_RAW decides "is this a system logger?" on the session its write
 * reserves in, not before its copy of Fields, which may sleep. Made
 * deterministic with userfaultfd: uid 65534's Fields lie on a page that
 * faults to a handler, so its copy waits while root stops the plain
 * session it named and starts a system logger, which takes the freed
 * logger ID; then the page is filled with a SYSTEM64 record and the copy
 * goes on. Needs CONFIG_USERFAULTFD (Debian's kernel has it).
 */
static void test_raw_reuse(void)
{
	struct nttrace_logger_info plain, sys;
	struct nttrace_consumer *c;
	long page = sysconf(_SC_PAGESIZE);
	int faulted[2], go[2], status;
	uint32_t *result;
	char name[32], ch;
	struct seen s;
	pid_t writer;

	result = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (result == MAP_FAILED || pipe(faulted) || pipe(go))
		return;
	snprintf(name, sizeof(name), "raw-reuse-%d", BITS);
	if (!tap_eq(start_session(name, 8, 2, 0, &plain), 0, "%d-bit: a plain session", BITS))
		return;
	*result = 0;
	fflush(stdout);
	writer = fork();
	if (writer == 0) {
		struct uffdio_api api = { .api = UFFD_API };
		struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
		int uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
		uint8_t *fields = mmap(NULL, page, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		reg.range.start = (uintptr_t)fields;
		reg.range.len = page;
		if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api) ||
		    ioctl(uffd, UFFDIO_REGISTER, &reg))
			_exit(77);
		if (fork() == 0) {
			/* The handler: tell root of the fault, fill the page when told. */
			struct uffd_msg msg;
			struct uffdio_copy copy;
			uint8_t *src = malloc(page);

			if (!src || read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
			    msg.event != UFFD_EVENT_PAGEFAULT || write(faulted[1], "f", 1) != 1 ||
			    read(go[0], &ch, 1) != 1)
				_exit(1);
			memset(src, 0, page);
			raw_system(src, 0x28);
			copy.dst = (uintptr_t)fields;
			copy.src = (uintptr_t)src;
			copy.len = page;
			copy.mode = 0;
			_exit(ioctl(uffd, UFFDIO_COPY, &copy) ? 1 : 0);
		}
		close(uffd);
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(1);
		*result = trace(plain.logger_id, T_RAW, 0x28, fields);
		wait(NULL);
		_exit(0);
	}
	/* Wait for the fault, or the writer's end (no userfaultfd). */
	close(faulted[1]);
	if (read(faulted[0], &ch, 1) != 1) {
		waitpid(writer, &status, 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
			tap_ok(1, "# SKIP %d-bit: TRACE_RAW and a logger ID reused: no userfaultfd",
			       BITS);
		else
			tap_ok(0, "%d-bit: TRACE_RAW's copy did not fault", BITS);
		stop_session(plain.logger_id);
		return;
	}
	tap_eq(stop_session(plain.logger_id), 0,
	       "%d-bit: while uid 65534's TRACE_RAW copy waits, its session stops", BITS);
	memset(&sys, 0, sizeof(sys));
	snprintf(name, sizeof(name), "raw-sys-%d", BITS);
	nttrace_set_name(&sys, name);
	sys.buffer_size_kb = 8;
	sys.max_buffers = 2;
	sys.log_file_mode = NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE;
	sys.group_mask[0] = NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG;
	tap_eq(nttrace_start(&sys), 0, "%d-bit: ... a system logger starts", BITS);
	tap_eq(sys.logger_id, plain.logger_id, "%d-bit: ... and takes its logger ID", BITS);
	tap_eq(nttrace_consumer_open(&c, sys.logger_id), 0, "%d-bit: ... root attaches to it", BITS);
	if (write(go[1], "g", 1) != 1)
		tap_ok(0, "%d-bit: tell the handler", BITS);
	waitpid(writer, &status, 0);
	tap_eq(*result, STATUS_ACCESS_DENIED,
	       "%d-bit: ... the copy done, TRACE_RAW into the system logger -> STATUS_ACCESS_DENIED",
	       BITS);
	memset(&s, 0, sizeof(s));
	s.hook = 0x0F01;
	flush_drain(c, sys.logger_id, on_buffer, &s);
	tap_eq(s.count, 0, "%d-bit: ... and the system logger holds no such record", BITS);
	nttrace_consumer_close(c);
	stop_session(sys.logger_id);
	close(faulted[0]);
	close(go[0]);
	close(go[1]);
	munmap(result, 4096);
}

/* The NT Kernel Logger and a plain session, its logger attached throughout. */
TEST_F(nttrace, kernel_logger)
{
	struct nttrace_logger_info kl, plain;
	char name[32];

	memset(&kl, 0, sizeof(kl));
	nttrace_set_name(&kl, NTTRACE_KERNEL_LOGGER_NAME);
	kl.buffer_size_kb = 8;
	kl.max_buffers = 8;
	if (!tap_eq(nttrace_start(&kl), 0, "%d-bit: the NT Kernel Logger, no groups", BITS))
		return;
	snprintf(name, sizeof(name), "plain-%d", BITS);
	start_session(name, 8, 2, 0, &plain);
	if (tap_eq(nttrace_consumer_open(&kc, KL), 0, "%d-bit: its logger attached", BITS)) {
		test_system(plain.logger_id);
		test_mark(plain.logger_id);
		test_raw(plain.logger_id);
		test_update();
		nttrace_consumer_close(kc);
	}
	stop_session(plain.logger_id);
	stop_session(KL);
}

TEST_F(nttrace, system_lost)
{
	test_system_lost();
}

TEST_F(nttrace, raw_reuse)
{
	test_raw_reuse();
}

int main(int argc, char **argv)
{
	return harness_run(argc, argv);
}
