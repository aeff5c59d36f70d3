// SPDX-License-Identifier: GPL-2.0
/*
 * The /dev/nttrace ABI and NtTraceEvent's front door, seen from user space.
 * Built twice, 64-bit and static 32-bit, and run in the test VM by
 * scripts/check. Expectations come from uapi/nttrace.h, not from the
 * module's code.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <nttrace/nt.h>
#include "harness.h"

#define BITS ((int)sizeof(void *) * 8)

static int fd;

/* The valid types and the fixed part of Fields each reads. */
static const struct {
	uint32_t type;
	uint32_t fixed;
} valid[] = {
	{ NTTRACE_ETW_NT_FLAGS_TRACE_HEADER, 0x30 },	/* EVENT_TRACE_HEADER */
	{ NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, 0x28 },	/* MESSAGE_TRACE_USER */
	/* Windows' 0x78-byte block */
	{ NTTRACE_ETW_NT_FLAGS_TRACE_EVENT, 0x78 },
	{ NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM, 4 },
	{ NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY, 0x78 },
	{ NTTRACE_ETW_NT_FLAGS_TRACE_MARK, 4 },
	{ NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG, 0x78 },
	{ NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE, 0x48 },	/* EVENT_INSTANCE_GUID_HEADER */
	{ NTTRACE_ETW_NT_FLAGS_TRACE_RAW, 4 },
};
#define NVALID (sizeof(valid) / sizeof(valid[0]))

static int is_valid(uint32_t type)
{
	unsigned int i;

	for (i = 0; i < NVALID; i++)
		if (valid[i].type == type)
			return 1;
	return 0;
}

/* One raw call through the ioctl; returns the NTSTATUS, or ~0 on errno. */
static uint32_t trace(uint32_t flags, uint64_t fields, uint32_t field_size)
{
	struct nttrace_trace_event a = {
		.size = sizeof(a), .flags = flags, .trace_handle = 1,
		.fields = fields, .field_size = field_size,
		.status = 0xDEADBEEF,	/* must be overwritten */
	};

	if (ioctl(fd, NTTRACE_IOC_TRACE_EVENT, &a) < 0)
		return ~0U;
	return a.status;
}

static uint64_t addr(const void *p)
{
	return (uintptr_t)p;
}

/* The EnableFlags README's "The NT Kernel Logger" says have a source. */
#define FLAGS_WITH_EVENTS (NTTRACE_EVENT_TRACE_FLAG_PROCESS | NTTRACE_EVENT_TRACE_FLAG_THREAD | \
	NTTRACE_EVENT_TRACE_FLAG_IMAGE_LOAD | NTTRACE_EVENT_TRACE_FLAG_CSWITCH | \
	NTTRACE_EVENT_TRACE_FLAG_DISPATCHER | NTTRACE_EVENT_TRACE_FLAG_DISK_IO | \
	NTTRACE_EVENT_TRACE_FLAG_DISK_IO_INIT | NTTRACE_EVENT_TRACE_FLAG_NETWORK_TCPIP | \
	NTTRACE_EVENT_TRACE_FLAG_SYSTEMCALL | NTTRACE_EVENT_TRACE_FLAG_PROFILE | \
	NTTRACE_EVENT_TRACE_FLAG_VIRTUAL_ALLOC | NTTRACE_EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS | \
	NTTRACE_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS | NTTRACE_EVENT_TRACE_FLAG_PROCESS_COUNTERS | \
	NTTRACE_EVENT_TRACE_FLAG_FILE_IO | NTTRACE_EVENT_TRACE_FLAG_FILE_IO_INIT | \
	NTTRACE_EVENT_TRACE_FLAG_DISK_FILE_IO)

static void test_version(uint64_t *types)
{
	struct nttrace_version v;
	uint64_t valid_bits = 0;
	uint32_t flags = 0;
	unsigned int i;

	memset(&v, 0xA5, sizeof(v));
	v.size = sizeof(v);
	v.pad0 = 0;
	tap_eq(ioctl(fd, NTTRACE_IOC_VERSION, &v), 0, "%d-bit: VERSION succeeds", BITS);
	tap_eq(v.size, sizeof(v), "%d-bit: VERSION keeps size", BITS);
	tap_eq(sizeof(v), NTTRACE_VERSION_SIZE_VER1, "%d-bit: VERSION's size is 32", BITS);
	tap_eq(v.abi_version, NTTRACE_ABI_VERSION, "%d-bit: ABI version", BITS);
	tap_eq(v.features, NTTRACE_FEAT_SYSTEM_FLAGS | NTTRACE_FEAT_ENABLE_TIMEOUT,
	       "%d-bit: features: system_flags and the enable's timeout", BITS);
	for (i = 0; i < NVALID; i++)
		valid_bits |= NTTRACE_TYPE_BIT(valid[i].type);
	tap_eq(v.types & ~valid_bits, 0, "%d-bit: only valid types are implemented", BITS);
	tap_eq(v.system_flags, FLAGS_WITH_EVENTS,
	       "%d-bit: system_flags: the kernel flags with a source (0x%x)", BITS,
	       v.system_flags);
	tap_ok(nttrace_system_flags(&flags) == 0 && flags == v.system_flags,
	       "%d-bit: ... nttrace_system_flags() says the same", BITS);
	tap_eq(v.pad0, 0, "%d-bit: ... pad0 stays zero", BITS);
	*types = v.types;

	/* A caller of the first version: nothing past its 24 bytes is written. */
	memset(&v, 0xA5, sizeof(v));
	v.size = NTTRACE_VERSION_SIZE_VER0;
	tap_ok(ioctl(fd, NTTRACE_IOC_VERSION, &v) == 0 && v.abi_version == NTTRACE_ABI_VERSION &&
	       v.system_flags == 0xA5A5A5A5 && v.pad0 == 0xA5A5A5A5,
	       "%d-bit: VERSION of 24 bytes: answered, system_flags untouched", BITS);

	memset(&v, 0, sizeof(v));
	v.size = sizeof(v);
	v.pad0 = 1;
	errno = 0;
	tap_ok(ioctl(fd, NTTRACE_IOC_VERSION, &v) < 0 && errno == EINVAL,
	       "%d-bit: VERSION with pad0 not zero -> EINVAL", BITS);
}

static void test_ioctl_decoding(void)
{
	struct {
		struct nttrace_trace_event a;
		uint64_t tail[2];
	} big;
	struct nttrace_version v = { .size = sizeof(v) };
	char buf[64] = { 0 };
	uint32_t tiny = 8;

	/* Unknown commands. */
	errno = 0;
	tap_ok(ioctl(fd, _IOWR('x', 0, struct nttrace_version), &v) < 0 &&
	       errno == ENOTTY, "%d-bit: other magic -> ENOTTY", BITS);
	errno = 0;
	tap_ok(ioctl(fd, _IOWR(NTTRACE_IOC_MAGIC, 0x7F, struct nttrace_version), &v) < 0 &&
	       errno == ENOTTY, "%d-bit: unknown number -> ENOTTY", BITS);
	errno = 0;
	tap_ok(ioctl(fd, _IOR(NTTRACE_IOC_MAGIC, 0x00, struct nttrace_version), &v) < 0 &&
	       errno == ENOTTY, "%d-bit: VERSION as _IOR -> ENOTTY", BITS);
	errno = 0;
	tap_ok(ioctl(fd, _IO(NTTRACE_IOC_MAGIC, 0x01), 0) < 0 && errno == ENOTTY,
	       "%d-bit: TRACE_EVENT as _IO -> ENOTTY", BITS);

	/* Sizes: too small, too large, a longer struct with zero or non-zero tail. */
	errno = 0;
	tap_ok(ioctl(fd, NTTRACE_IOC_VERSION, &tiny) < 0 && errno == EINVAL,
	       "%d-bit: size 8 -> EINVAL", BITS);
	memset(buf, 0, sizeof(buf));
	errno = 0;
	tap_ok(ioctl(fd, NTTRACE_IOC_TRACE_EVENT, buf) < 0 && errno == EINVAL,
	       "%d-bit: size 0 -> EINVAL", BITS);
	*(uint32_t *)buf = 4097;
	errno = 0;
	tap_ok(ioctl(fd, NTTRACE_IOC_TRACE_EVENT, buf) < 0 && errno == EINVAL,
	       "%d-bit: size 4097 -> EINVAL", BITS);

	memset(&big, 0, sizeof(big));
	big.a.size = sizeof(big);
	big.a.flags = 0xA00;	/* invalid type */
	tap_ok(ioctl(fd, NTTRACE_IOC_TRACE_EVENT, &big) == 0 &&
	       big.a.status == STATUS_INVALID_PARAMETER,
	       "%d-bit: longer struct with zero tail is accepted", BITS);
	big.tail[1] = 1;
	errno = 0;
	tap_ok(ioctl(fd, NTTRACE_IOC_TRACE_EVENT, &big) < 0 && errno == E2BIG,
	       "%d-bit: longer struct with non-zero tail -> E2BIG", BITS);

	/* The size encoded in the command is not what counts. */
	memset(&big, 0, sizeof(big));
	big.a.size = sizeof(big.a);
	big.a.flags = 0xA00;
	tap_ok(ioctl(fd, _IOWR(NTTRACE_IOC_MAGIC, 0x01, char[48]), &big) == 0 &&
	       big.a.status == STATUS_INVALID_PARAMETER,
	       "%d-bit: command matched by number, not encoded size", BITS);

	/* Unreadable argument structs. */
	errno = 0;
	tap_ok(ioctl(fd, NTTRACE_IOC_TRACE_EVENT, NULL) < 0 && errno == EFAULT,
	       "%d-bit: NULL argument -> EFAULT", BITS);
	errno = 0;
	tap_ok(ioctl(fd, NTTRACE_IOC_VERSION, (void *)16) < 0 && errno == EFAULT,
	       "%d-bit: bad argument pointer -> EFAULT", BITS);
}

static void test_invalid_types(void *good)
{
	unsigned int bad_type = 0, bad_misaligned = 0, n = 0;
	uint32_t type;

	for (type = 0; type <= 0xFF00; type += 0x100) {
		if (is_valid(type))
			continue;
		n++;
		if (trace(type, addr(good), 0x28) != STATUS_INVALID_PARAMETER)
			bad_type++;
		/* The type is judged before the defences. */
		if (trace(type | NTTRACE_ETW_NT_FLAGS_WOW64_CALL, addr(good) + 1, 0x28) !=
		    STATUS_INVALID_PARAMETER ||
		    trace(type, 0, 0) != STATUS_INVALID_PARAMETER)
			bad_misaligned++;
	}
	tap_eq(n, 256 - NVALID, "%d-bit: %u invalid types tried", BITS, 256 - (unsigned int)NVALID);
	tap_eq(bad_type, 0, "%d-bit: each invalid type -> STATUS_INVALID_PARAMETER", BITS);
	tap_eq(bad_misaligned, 0,
	       "%d-bit: invalid type wins over misaligned or NULL Fields", BITS);
}

/* Every combination of the modifier fields leaves the type's answer alone. */
static void test_valid_types(void *good, uint64_t implemented)
{
	static const uint32_t wow64[] = { 0, NTTRACE_ETW_NT_FLAGS_WOW64_CALL };
	static const uint32_t native[] = { 0, NTTRACE_ETW_NT_FLAGS_USE_NATIVE_HEADER };
	static const uint32_t frames[] = { 0, 0x00010000, 0x000F0000 };
	static const uint32_t version[] = { 0, 0x01, 0xFF };
	unsigned int i, a, b, c, d;

	for (i = 0; i < NVALID; i++) {
		uint32_t t = valid[i].type;
		unsigned int wrong = 0, combos = 0;
		uint32_t want = STATUS_NOT_IMPLEMENTED;

		if (implemented & NTTRACE_TYPE_BIT(t))
			continue;	/* handlers are tested on their own */
		for (a = 0; a < 2; a++)
			for (b = 0; b < 2; b++)
				for (c = 0; c < 3; c++)
					for (d = 0; d < 3; d++) {
						uint32_t f = t | wow64[a] | native[b] |
							     frames[c] | version[d];

						combos++;
						if (trace(f, addr(good), 0x28) != want)
							wrong++;
					}
		tap_eq(wrong, 0, "%d-bit: %s x %u modifier combinations -> STATUS_NOT_IMPLEMENTED",
		       BITS, nttrace_type_name(t), combos);
	}
}

static void test_defences(char *page, char *none, uint64_t implemented)
{
	static const uint64_t kernel_addr = 0xFFFF888000000000ULL;
	char *end = page + 2 * getpagesize();	/* followed by an unmapped page */
	unsigned int i, off;

	for (i = 0; i < NVALID; i++) {
		uint32_t t = valid[i].type;
		const char *name = nttrace_type_name(t);
		int unimplemented = !(implemented & NTTRACE_TYPE_BIT(t));
		unsigned int wrong = 0;

		for (off = 1; off < 4; off++)
			if (trace(t, addr(page) + off, 0x28) != STATUS_DATATYPE_MISALIGNMENT ||
			    trace(t | NTTRACE_ETW_NT_FLAGS_WOW64_CALL |
					  NTTRACE_ETW_NT_FLAGS_USE_NATIVE_HEADER,
				  addr(page) + 4 * off + off, 0x28) != STATUS_DATATYPE_MISALIGNMENT)
				wrong++;
		tap_eq(wrong, 0, "%d-bit: %s misaligned Fields -> STATUS_DATATYPE_MISALIGNMENT",
		       BITS, name);
		tap_eq(trace(t, addr(none) + 1, 0x28), STATUS_DATATYPE_MISALIGNMENT,
		       "%d-bit: %s misaligned and unreadable -> misalignment first",
		       BITS, name);
		/*
		 * TRACE_RAW reads nothing before its handler, which checks
		 * Fields itself (module/raw.c): NULL is its
		 * STATUS_INVALID_PARAMETER, as Windows answers.
		 */
		if (t == NTTRACE_ETW_NT_FLAGS_TRACE_RAW) {
			tap_eq(trace(t, 0, 0x28), STATUS_INVALID_PARAMETER,
			       "%d-bit: %s NULL Fields -> STATUS_INVALID_PARAMETER", BITS, name);
			continue;
		}
		tap_eq(trace(t, 0, 0x28), STATUS_ACCESS_VIOLATION,
		       "%d-bit: %s NULL Fields -> STATUS_ACCESS_VIOLATION", BITS, name);
		tap_eq(trace(t, addr(none), 0x28), STATUS_ACCESS_VIOLATION,
		       "%d-bit: %s PROT_NONE Fields -> STATUS_ACCESS_VIOLATION", BITS, name);
		tap_eq(trace(t, addr(end), 0x28), STATUS_ACCESS_VIOLATION,
		       "%d-bit: %s unmapped Fields -> STATUS_ACCESS_VIOLATION", BITS, name);
		tap_eq(trace(t, kernel_addr, 0x28), STATUS_ACCESS_VIOLATION,
		       "%d-bit: %s kernel-address Fields -> STATUS_ACCESS_VIOLATION", BITS, name);
		/* Answers past the defences belong to a type's own handler. */
		if (unimplemented) {
			tap_eq(trace(t, addr(page) + 4, 0x28), STATUS_NOT_IMPLEMENTED,
			       "%d-bit: %s 4-byte (not 8-byte) aligned Fields is aligned enough",
			       BITS, name);
			tap_eq(trace(t, addr(end - valid[i].fixed), 0x28),
			       STATUS_NOT_IMPLEMENTED,
			       "%d-bit: %s fixed part just inside mapped memory -> readable",
			       BITS, name);
			tap_eq(trace(t, addr(end - valid[i].fixed + 4), 0x28),
			       STATUS_ACCESS_VIOLATION,
			       "%d-bit: %s fixed part running into unmapped page -> STATUS_ACCESS_VIOLATION",
			       BITS, name);
		} else {
			/* The front door reads the whole fixed part, before the handler. */
			tap_eq(trace(t, addr(end - valid[i].fixed + 4), 0x28),
			       STATUS_ACCESS_VIOLATION,
			       "%d-bit: %s fixed part (0x%X) running into unmapped page -> "
			       "STATUS_ACCESS_VIOLATION", BITS, name, valid[i].fixed);
		}
	}
}

/* The library's NtTraceEvent gives the kernel's answers. */
static void test_library(void *good)
{
	tap_eq((uint32_t)NtTraceEvent((HANDLE)1, 0xA00, 0x28, good),
	       STATUS_INVALID_PARAMETER, "%d-bit: NtTraceEvent invalid type", BITS);
	tap_eq((uint32_t)NtTraceEvent((HANDLE)1, NTTRACE_ETW_NT_FLAGS_TRACE_RAW, 4,
				      (char *)good + 2),
	       STATUS_DATATYPE_MISALIGNMENT, "%d-bit: NtTraceEvent misaligned", BITS);
	tap_eq((uint32_t)NtTraceEvent((HANDLE)1, NTTRACE_ETW_NT_FLAGS_TRACE_HEADER, 4, NULL),
	       STATUS_ACCESS_VIOLATION, "%d-bit: NtTraceEvent NULL Fields", BITS);
	tap_ok(!NT_SUCCESS(STATUS_ACCESS_VIOLATION) && NT_SUCCESS(STATUS_SUCCESS),
	       "%d-bit: NT_SUCCESS", BITS);
}

/* The types the module implements, as VERSION says (0 if it does not). */
static uint64_t implemented(void)
{
	struct nttrace_version v;

	memset(&v, 0, sizeof(v));
	v.size = sizeof(v);
	return ioctl(fd, NTTRACE_IOC_VERSION, &v) ? 0 : v.types;
}

/*
 * Two readable pages, then an unmapped one; and a PROT_NONE page. Made in
 * @page and @none; 0, or -1 (and nothing left mapped) if they could not be.
 */
static int test_memory(char **page, char **none)
{
	long pg = getpagesize();

	*page = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	*none = mmap(NULL, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*page != MAP_FAILED && *none != MAP_FAILED && !munmap(*page + 2 * pg, pg))
		return 0;
	if (*page != MAP_FAILED)
		munmap(*page, 3 * pg);
	if (*none != MAP_FAILED)
		munmap(*none, pg);
	*page = NULL;
	*none = NULL;
	return -1;
}

/*
 * The test memory, made in the case's own process: the unmapped page must
 * stay unmapped, and the harness maps pages of its own between the cases.
 */
FIXTURE(memory) {
	char *page, *none;
};

FIXTURE_SETUP(memory)
{
	if (test_memory(&self->page, &self->none))
		tap_ok(0, "%d-bit: test memory in the case's process", BITS);
}

FIXTURE_TEARDOWN(memory)
{
	long pg = getpagesize();

	if (self->page)
		munmap(self->page, 2 * pg);
	if (self->none)
		munmap(self->none, pg);
}

TEST(version)
{
	uint64_t types;

	test_version(&types);
}

TEST(ioctl_decoding)
{
	test_ioctl_decoding();
}

TEST_F(memory, invalid_types)
{
	test_invalid_types(self->page);
}

TEST_F(memory, valid_types)
{
	test_valid_types(self->page, implemented());
}

TEST_F(memory, defences)
{
	test_defences(self->page, self->none, implemented());
}

TEST_F(memory, library)
{
	test_library(self->page);
}

int main(int argc, char **argv)
{
	long pg = getpagesize();
	char *page, *none;

	fd = open(NTTRACE_DEVICE, O_RDWR | O_CLOEXEC);
	if (!tap_ok(fd >= 0, "%d-bit: open %s", BITS, NTTRACE_DEVICE))
		return tap_done();
	/* That it can be made; each case makes its own. */
	if (!tap_ok(!test_memory(&page, &none), "%d-bit: test memory", BITS))
		return tap_done();
	munmap(page, 2 * pg);
	munmap(none, pg);
	return harness_run(argc, argv);
}
