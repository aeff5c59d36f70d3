// SPDX-License-Identifier: GPL-2.0
/*
 * NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG (EtwEventWriteNoRegistration) and
 * NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY (EtwWriteUMSecurityEvent, with the
 * security-provider registration) end to end, as root, 64-bit and 32-bit:
 * raw NtTraceEvent calls with Windows' 0x78-byte block built here byte by
 * byte at Windows' offsets, and the library's <nttrace/ntwmi.h> calls. The
 * records read back from a session are checked byte by byte against
 * EVENT_HEADER's offsets (evntcons.h); every status code the two types
 * return is provoked; the registration's rules: one at a time, ended by the
 * close of its file and by its process's exit, not inherited by a forked
 * child.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/ntwmi.h>
#include <nttrace/session.h>
#include "emit.h"
#include "expect.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)

#define T_SECURITY	0x0500
#define T_NOREG		0x0700
#define NT_WOW64	0x80000000U
#define FIELDS_SIZE	0x78
#define EH_SIZE		0x50

#define S_SUCCESS		0x00000000U
#define S_MISALIGNMENT		0x80000002U
#define S_BUFFER_OVERFLOW	0x80000005U
#define S_ACCESS_VIOLATION	0xC0000005U
#define S_INVALID_PARAMETER	0xC000000DU
#define S_ACCESS_DENIED		0xC0000022U
#define S_INTEGER_OVERFLOW	0xC0000095U
#define S_WMI_ALREADY_DISABLED	0xC0000302U

/* A GUID nobody registers; the security provider's, as bytes. */
static const uint8_t nr_guid[16] = {
	0x6f, 0x72, 0x65, 0x67, 0x01, 0x02, 0x03, 0x04,
	0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x29,
};
static const uint8_t sec_guid[16] = {
	0x25, 0x96, 0x84, 0x54, 0x78, 0x54, 0x94, 0x49,
	0xa5, 0xba, 0x3e, 0x3b, 0x03, 0x28, 0xc3, 0x0d,
};

static uint64_t fields_mem[16];
static uint8_t desc_mem[16 * 130] __attribute__((aligned(8)));
static uint8_t payload[0x9000];
static uint32_t logger;
static struct nttrace_consumer *cons;

/* One call. */
struct call {
	uint32_t type;
	uint32_t nt_extra;	/* NT_WOW64 */
	const void *handle;	/* TraceHandle */
	uint16_t id;
	uint8_t level;
	uint16_t property;
	uint32_t count;		/* descriptors, each of @size bytes */
	uint32_t size;
	int null_data;		/* the array's address 0 */
	const void *data;	/* the array; NULL: desc_mem */
	uint32_t flags;		/* the block's +0x70 */
	uint32_t field_size;	/* 0: 0x78 */
};

static uint32_t raw_at(const struct call *c, void *fields)
{
	uint8_t *p = fields;
	uint32_t i;

	memset(p, 0xE5, EH_SIZE);		/* the kernel's members: junk */
	memset(p + EH_SIZE, 0, FIELDS_SIZE - EH_SIZE);
	put_le(p + 4, 0, 2);
	put_le(p + 6, c->property, 2);
	put_le(p + 0x28, c->id, 2);
	p[0x2a] = 1;
	p[0x2b] = 0;
	p[0x2c] = c->level;
	p[0x2d] = 0;
	put_le(p + 0x2e, 0, 2);
	put_le(p + 0x30, 0, 8);
	memset(p + 0x40, 0xAC, 16);		/* ActivityId */
	put_le(p + 0x54, c->count, 4);
	put_le(p + 0x58, c->null_data ? 0 : (uintptr_t)(c->data ? c->data : desc_mem), 8);
	put_le(p + 0x70, c->flags, 4);
	for (i = 0; i < c->count && i < 130; i++) {
		put_le(desc_mem + 16 * i, (uintptr_t)(payload + 16 * i), 8);
		put_le(desc_mem + 16 * i + 8, c->size, 4);
		put_le(desc_mem + 16 * i + 12, 0, 4);
	}
	return (uint32_t)NtTraceEvent((HANDLE)(uintptr_t)c->handle, c->type | c->nt_extra,
				      c->field_size ? c->field_size : FIELDS_SIZE, fields);
}

static uint32_t raw(const struct call *c)
{
	return raw_at(c, fields_mem);
}

/* ---- the records of the session ---- */

struct seen {
	unsigned int n, bad;
	uint8_t rec[0x200];
	uint32_t size;
};

static void collect(void *ctx, const uint8_t *rec, uint32_t size)
{
	struct seen *s = ctx;

	if (!s->n++ && size <= sizeof(s->rec)) {
		memcpy(s->rec, rec, size);
		s->size = size;
	}
}

static int on_buffer(void *ctx, const void *buf, uint32_t size, unsigned int cpu)
{
	struct seen *s = ctx;

	if (expect_walk(buf, collect, s) < 0)
		s->bad++;
	return 0;
}

static unsigned int drain(struct seen *s)
{
	memset(s, 0, sizeof(*s));
	flush_drain(cons, logger, on_buffer, s);
	return s->n + s->bad;
}

/* The one record of @c's event with @guid, by EVENT_HEADER's offsets. */
static void check_record(const struct call *c, const uint8_t *guid, int ptr32, const char *what)
{
	uint8_t want[0x200];
	struct seen s;
	uint32_t total = EH_SIZE + c->count * c->size, i;

	if (!tap_eq(drain(&s), 1, "%d-bit: %s: one record", BITS, what))
		return;
	memset(want, 0, sizeof(want));
	put_le(want, total, 2);
	want[2] = ptr32 ? 0x12 : 0x13;
	want[3] = 0xC0;
	put_le(want + 4, 0x10 | (ptr32 ? 0x20 : 0x40), 2);
	put_le(want + 6, c->property, 2);
	put_le(want + 8, syscall(SYS_gettid), 4);
	put_le(want + 12, getpid(), 4);
	memcpy(want + 0x10, s.rec + 0x10, 8);	/* the time stamp: the session's */
	memcpy(want + 0x18, guid, 16);
	put_le(want + 0x28, c->id, 2);
	want[0x2a] = 1;
	want[0x2c] = c->level;
	memset(want + 0x40, 0xAC, 16);
	for (i = 0; i < c->count; i++)
		memcpy(want + EH_SIZE + i * c->size, payload + 16 * i, c->size);
	tap_ok(s.size == total && !memcmp(s.rec, want, total),
	       "%d-bit: %s: the record byte for byte (size %u, want %u)", BITS, what, s.size,
	       total);
}

/* The block's checks and the write path's, for @type with @handle. */
static void test_block(uint32_t type, const void *handle, const char *name)
{
	struct call c = { .type = type, .handle = handle, .id = 3, .level = 4, .count = 1,
			  .size = 8 };
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *map = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0);
	uint8_t *gone = map + pg;
	struct seen s;

	munmap(gone, pg);
	c.field_size = 0x48;
	tap_eq(raw(&c), S_INVALID_PARAMETER, "%d-bit: %s: FieldSize 0x48 -> INVALID_PARAMETER",
	       BITS, name);
	c.field_size = 0;
	c.flags = 0x8;
	tap_eq(raw(&c), S_INVALID_PARAMETER, "%d-bit: %s: unknown flag -> INVALID_PARAMETER",
	       BITS, name);
	c.flags = 0;
	c.count = 129;
	tap_eq(raw(&c), S_INVALID_PARAMETER, "%d-bit: %s: 129 descriptors -> INVALID_PARAMETER",
	       BITS, name);
	c.count = 1;
	c.null_data = 1;
	tap_eq(raw(&c), S_INVALID_PARAMETER,
	       "%d-bit: %s: a count with no array -> INVALID_PARAMETER", BITS, name);
	c.null_data = 0;
	c.count = 0;
	tap_eq(raw(&c), S_INVALID_PARAMETER,
	       "%d-bit: %s: an array with no count -> INVALID_PARAMETER", BITS, name);
	c.count = 1;
	tap_eq(raw_at(&c, (uint8_t *)fields_mem + 2), S_MISALIGNMENT,
	       "%d-bit: %s: Fields misaligned -> DATATYPE_MISALIGNMENT", BITS, name);
	tap_eq((uint32_t)NtTraceEvent((HANDLE)(uintptr_t)handle, type, FIELDS_SIZE, gone),
	       S_ACCESS_VIOLATION, "%d-bit: %s: Fields unmapped -> ACCESS_VIOLATION", BITS, name);
	c.data = gone;
	tap_eq(raw(&c), S_ACCESS_VIOLATION,
	       "%d-bit: %s: descriptor array unmapped -> ACCESS_VIOLATION", BITS, name);
	c.data = NULL;
	c.size = 0x10000;
	tap_eq(raw(&c), S_BUFFER_OVERFLOW,
	       "%d-bit: %s: a descriptor over 0xFFFF -> BUFFER_OVERFLOW (dropped)", BITS, name);
	c.count = 2;
	c.size = 0x8000;
	tap_eq(raw(&c), S_INTEGER_OVERFLOW,
	       "%d-bit: %s: the sum past 16 bits -> INTEGER_OVERFLOW", BITS, name);
	/* 0x4800 bytes: fits 16 bits, not a 16 KB buffer of the session. */
	c.count = 1;
	c.size = 0x4800;
	tap_eq(raw(&c), S_BUFFER_OVERFLOW,
	       "%d-bit: %s: a record no buffer holds -> BUFFER_OVERFLOW", BITS, name);
	tap_eq(drain(&s), 0, "%d-bit: %s: no failed call wrote anything", BITS, name);
	munmap(map, pg);
}

/* ---- TRACE_EVENT_NOREG ---- */

static int enable(const uint8_t *guid, uint32_t control, uint32_t level)
{
	struct nttrace_enable e;

	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.logger_id = logger;
	memcpy(e.guid, guid, 16);
	e.control = control;
	e.level = level;
	return ioctl(nttrace_device_fd(), NTTRACE_IOC_ENABLE, &e) < 0 ? -errno : 0;
}

static void test_noreg(void)
{
	struct call c = { .type = T_NOREG, .handle = nr_guid, .id = 7, .level = 4, .count = 2,
			  .size = 5 };
	EVENT_DESCRIPTOR d = { .Id = 8, .Version = 1, .Level = 4 };
	EVENT_DATA_DESCRIPTOR data;
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *none = mmap(NULL, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct seen s;

	tap_eq(raw(&c), S_WMI_ALREADY_DISABLED,
	       "%d-bit: NOREG: a GUID no session enables -> WMI_ALREADY_DISABLED", BITS);
	EventDataDescCreate(&data, payload, 5);
	tap_eq(EtwEventWriteNoRegistration((LPCGUID)nr_guid, &d, 1, &data),
	       ERROR_WMI_ALREADY_DISABLED,
	       "%d-bit: EtwEventWriteNoRegistration, not enabled -> ERROR_WMI_ALREADY_DISABLED",
	       BITS);
	/* Enabled with no registration at all: enables are kept per GUID. */
	tap_eq(enable(nr_guid, 1, 4), 0, "%d-bit: NOREG: enable the unregistered GUID", BITS);
	tap_eq(raw(&c), S_SUCCESS, "%d-bit: NOREG -> SUCCESS", BITS);
	check_record(&c, nr_guid, BITS == 32, "NOREG");
	c.nt_extra = NT_WOW64;
	c.property = 0x0001;
	tap_eq(raw(&c), S_SUCCESS, "%d-bit: NOREG, WOW64_CALL -> SUCCESS", BITS);
	check_record(&c, nr_guid, 1, "NOREG, WOW64_CALL (32-bit header)");
	c.nt_extra = 0;
	c.property = 0;
	tap_eq(EtwEventWriteNoRegistration((LPCGUID)nr_guid, &d, 1, &data), ERROR_SUCCESS,
	       "%d-bit: EtwEventWriteNoRegistration -> ERROR_SUCCESS", BITS);
	{
		struct call lib = { .id = 8, .level = 4, .count = 1, .size = 5 };

		check_record(&lib, nr_guid, BITS == 32, "EtwEventWriteNoRegistration");
	}
	c.level = 5;
	tap_eq(raw(&c), S_SUCCESS, "%d-bit: NOREG, a level no session takes -> SUCCESS", BITS);
	tap_eq(drain(&s), 0, "%d-bit: ... nothing written", BITS);
	c.level = 4;
	c.handle = NULL;
	tap_eq(raw(&c), S_INVALID_PARAMETER, "%d-bit: NOREG, TraceHandle NULL -> INVALID_PARAMETER",
	       BITS);
	tap_eq(EtwEventWriteNoRegistration(NULL, &d, 1, &data), ERROR_INVALID_PARAMETER,
	       "%d-bit: EtwEventWriteNoRegistration(NULL) -> ERROR_INVALID_PARAMETER", BITS);
	c.handle = none;
	tap_eq(raw(&c), S_ACCESS_VIOLATION, "%d-bit: NOREG, the GUID unreadable -> ACCESS_VIOLATION",
	       BITS);
	c.handle = none - 8;
	tap_eq(raw(&c), S_ACCESS_VIOLATION,
	       "%d-bit: NOREG, the GUID running out -> ACCESS_VIOLATION", BITS);
	c.handle = nr_guid;
	test_block(T_NOREG, nr_guid, "NOREG");
	tap_eq(enable(nr_guid, 0, 0), 0, "%d-bit: NOREG: disable", BITS);
	tap_eq(raw(&c), S_WMI_ALREADY_DISABLED,
	       "%d-bit: NOREG: disabled again -> WMI_ALREADY_DISABLED", BITS);
	munmap(none, pg);
}

/*
 * An enable at level 5 with MatchAnyKeyword 0 takes an event of any
 * keyword, as on Windows (MatchAllKeyword is then unused): an event with
 * keywords is written, not dropped while the call says success.
 */
static void test_noreg_any_zero(void)
{
	static const uint64_t keywords[] = { 0, 0x10, 0x8000000000000001ULL };
	EVENT_DESCRIPTOR d = { .Id = 9, .Version = 1, .Level = 5 };
	EVENT_DATA_DESCRIPTOR data;
	struct seen s;
	unsigned int i;

	tap_eq(enable(nr_guid, 1, 5), 0,
	       "%d-bit: NOREG: enable the GUID at level 5, MatchAnyKeyword 0", BITS);
	EventDataDescCreate(&data, payload, 5);
	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		d.Keyword = keywords[i];
		tap_eq(EtwEventWriteNoRegistration((LPCGUID)nr_guid, &d, 1, &data), ERROR_SUCCESS,
		       "%d-bit: EtwEventWriteNoRegistration, keyword 0x%llx -> ERROR_SUCCESS", BITS,
		       (unsigned long long)keywords[i]);
		tap_eq(drain(&s), 1, "%d-bit: ... and the event is in the session", BITS);
		tap_ok(s.size >= 0x50 && get_le(s.rec + 0x30, 8) == keywords[i],
		       "%d-bit: ... with its keyword", BITS);
	}
	tap_eq(enable(nr_guid, 0, 0), 0, "%d-bit: NOREG: disable", BITS);
}

/* ---- TRACE_SECURITY ---- */

static int register_on(int fd)
{
	struct nttrace_security_register r = { .size = sizeof(r) };

	return ioctl(fd, NTTRACE_IOC_REGISTER_SECURITY, &r) < 0 ? -errno : 0;
}

/* In a child: @op's result as the exit code. */
static int in_child(int (*op)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(op());
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

/* A child registering on its own file, then exiting without closing it. */
static int child_registers(void)
{
	int fd = open(NTTRACE_DEVICE, O_RDWR);

	return register_on(fd) ? 1 : 0;
}

/* The same, its file kept open by a grandchild that outlives it. */
static int child_registers_keeps(void)
{
	int fd = open(NTTRACE_DEVICE, O_RDWR);
	pid_t pid;

	if (register_on(fd))
		return 1;
	pid = fork();
	if (pid == 0) {
		sleep(30);
		_exit(0);
	}
	return pid > 0 ? 0 : 1;
}

static int child_writes(void)
{
	EVENT_DESCRIPTOR d = { .Id = 1 };

	return EtwWriteUMSecurityEvent(&d, 0, 0, NULL) == ERROR_ACCESS_DENIED ? 0 : 1;
}

static void test_security(void)
{
	struct call c = { .type = T_SECURITY, .id = 5, .level = 2, .property = 0x0002,
			  .count = 1, .size = 12 };
	EVENT_DESCRIPTOR d = { .Id = 6, .Version = 1, .Level = 2 };
	EVENT_DATA_DESCRIPTOR data;
	struct seen s;
	int fd1 = open(NTTRACE_DEVICE, O_RDWR), fd2 = open(NTTRACE_DEVICE, O_RDWR);
	struct nttrace_security_register bad = { .size = sizeof(bad), .flags = 1 };

	EventDataDescCreate(&data, payload, 12);
	tap_eq(raw(&c), S_ACCESS_DENIED, "%d-bit: SECURITY, not registered -> ACCESS_DENIED", BITS);
	c.field_size = 0x48;
	tap_eq(raw(&c), S_ACCESS_DENIED,
	       "%d-bit: SECURITY, not registered, a bad block -> ACCESS_DENIED first", BITS);
	c.field_size = 0;
	tap_eq(EtwWriteUMSecurityEvent(&d, 2, 1, &data), ERROR_ACCESS_DENIED,
	       "%d-bit: EtwWriteUMSecurityEvent, not registered -> ERROR_ACCESS_DENIED", BITS);
	tap_eq(ioctl(fd1, NTTRACE_IOC_REGISTER_SECURITY, &bad) < 0 ? -errno : 0, -EINVAL,
	       "%d-bit: REGISTER_SECURITY with flags -> EINVAL", BITS);
	/* One at a time; the close of its file ends it. */
	tap_eq(register_on(fd1), 0, "%d-bit: REGISTER_SECURITY -> 0", BITS);
	tap_eq(register_on(fd2), -EBUSY, "%d-bit: a second, on another file -> EBUSY", BITS);
	tap_eq(register_on(fd1), -EBUSY, "%d-bit: again on the same file -> EBUSY", BITS);
	tap_eq(raw(&c), S_SUCCESS, "%d-bit: SECURITY, registered, nobody enables it -> SUCCESS",
	       BITS);
	tap_eq(drain(&s), 0, "%d-bit: ... nothing written", BITS);
	tap_eq(in_child(child_writes), 0,
	       "%d-bit: a forked child (the file inherited) -> ERROR_ACCESS_DENIED", BITS);
	close(fd1);
	tap_eq(raw(&c), S_ACCESS_DENIED, "%d-bit: its file closed: SECURITY -> ACCESS_DENIED", BITS);
	/* Its process's exit ends it too. */
	tap_eq(in_child(child_registers), 0, "%d-bit: a child registers, then exits", BITS);
	tap_eq(register_on(fd2), 0, "%d-bit: ... then the registration is free again", BITS);
	close(fd2);
	/*
	 * A gone process's file kept open by its child keeps nobody out
	 * (ours opened after the fork: the grandchild must not hold it).
	 */
	tap_eq(in_child(child_registers_keeps), 0,
	       "%d-bit: a child registers, leaves its file to a grandchild, exits", BITS);
	fd2 = open(NTTRACE_DEVICE, O_RDWR);
	tap_eq(register_on(fd2), 0, "%d-bit: ... the registration is free again", BITS);
	close(fd2);
	/* The library's: on its own descriptor, for the process's life. */
	tap_eq(EtwRegisterSecurityProvider(), ERROR_SUCCESS,
	       "%d-bit: EtwRegisterSecurityProvider -> ERROR_SUCCESS", BITS);
	tap_eq(EtwRegisterSecurityProvider(), ERROR_BUSY,
	       "%d-bit: EtwRegisterSecurityProvider again -> ERROR_BUSY", BITS);
	tap_eq(enable(sec_guid, 1, 0), 0, "%d-bit: root enables the security provider", BITS);
	tap_eq(raw(&c), S_SUCCESS, "%d-bit: SECURITY -> SUCCESS", BITS);
	check_record(&c, sec_guid, BITS == 32, "SECURITY");
	c.nt_extra = NT_WOW64;
	tap_eq(raw(&c), S_SUCCESS, "%d-bit: SECURITY, WOW64_CALL -> SUCCESS", BITS);
	check_record(&c, sec_guid, 1, "SECURITY, WOW64_CALL (32-bit header)");
	c.nt_extra = 0;
	tap_eq(EtwWriteUMSecurityEvent(&d, 2, 1, &data), ERROR_SUCCESS,
	       "%d-bit: EtwWriteUMSecurityEvent -> ERROR_SUCCESS", BITS);
	{
		struct call lib = { .id = 6, .level = 2, .property = 2, .count = 1, .size = 12 };

		check_record(&lib, sec_guid, BITS == 32, "EtwWriteUMSecurityEvent");
	}
	test_block(T_SECURITY, NULL, "SECURITY");
	tap_eq(enable(sec_guid, 0, 0), 0, "%d-bit: disable the security provider", BITS);
}

/* One session and its consumer, shared by the three tests. */
TEST_F(nttrace, one_session)
{
	struct nttrace_logger_info info;
	GUID activity;

	/* The library's writes carry the thread's activity ID: the raw calls' one. */
	memset(&activity, 0xAC, sizeof(activity));
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &activity);
	if (!tap_eq(start_session("noreg", 16, 8, 0, &info), 0, "%d-bit: start", BITS) ||
	    !tap_eq(nttrace_consumer_open(&cons, info.logger_id), 0, "%d-bit: attach", BITS))
		return;
	logger = info.logger_id;
	test_noreg();
	test_noreg_any_zero();
	test_security();
	nttrace_consumer_close(cons);
	stop_session(logger);
}

int main(int argc, char **argv)
{
	unsigned int i;

	if (!tap_ok(nttrace_device_fd() >= 0, "%d-bit: open", BITS))
		return tap_done();
	if (getuid() != 0) {
		tap_ok(1, "# SKIP needs root");
		return tap_done();
	}
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 7 + 1);
	return harness_run(argc, argv);
}
