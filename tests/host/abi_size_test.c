// SPDX-License-Identifier: GPL-2.0
/*
 * The library and a caller built against other headers: the library
 * writes no byte past the struct the caller's build gave it, and hands the
 * kernel the caller's size, not its own. Prints TAP.
 * Needs no module: /dev/nttrace is played by this program, which defines
 * open() and ioctl() for the library (linked statically into it) and
 * answers as the module does (module/main.c: it reads and writes back at
 * most the size the struct says), a newer module that knows a longer
 * struct nttrace_logger_info than these headers.
 *
 * 1. A program built against 0.17.0's <nttrace/session.h>, whose struct
 *    nttrace_consumer embedded a struct nttrace_attach without @flags
 *    (NTTRACE_ATTACH_SIZE_VER0), calls nttrace_consumer_attach() with the
 *    struct it allocated. Before: the library cleared sizeof() of its own,
 *    longer, struct nttrace_consumer: the 8 bytes after the caller's
 *    (not ok 1). After: the consumer is the library's own allocation; the
 *    call only stores a pointer in the caller's first bytes.
 * 2. nttrace_start_opts() and nttrace_control_opts() pass the caller's
 *    size to the kernel and refuse one below the first version's;
 *    nttrace_start() and nttrace_control() pass sizeof as the caller was
 *    compiled. A caller with a longer struct (newer headers) has it all
 *    read and written back; one with this one has nothing past it touched.
 */
/* This program defines open() and ioctl(): not the fortified inline ones. */
#undef _FORTIFY_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <nttrace/session.h>
#include "../vm/tap.h"

#define CANARY	0x5AA5C33C0FF0E11EULL

/* ---- /dev/nttrace, played here ---- */

static int fake_fd = -1;
static uint32_t seen_size;	/* the size member of the last logger ioctl */
static unsigned int logger_calls;

/*
 * The struct nttrace_logger_info a newer module knows: these headers' and
 * one member more, which it fills in.
 */
struct newer_logger_info {
	struct nttrace_logger_info i;
	uint64_t newer;
};

int open(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = flags & (O_CREAT | O_TMPFILE) ? va_arg(ap, int) : 0;
	va_end(ap);
	if (!strcmp(path, NTTRACE_DEVICE)) {
		fake_fd = (int)syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDWR | O_CLOEXEC);
		return fake_fd;
	}
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

int ioctl(int fd, unsigned long cmd, ...)
{
	struct newer_logger_info k;
	uint8_t *arg;
	uint32_t usize;
	va_list ap;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd != fake_fd ||
	    (cmd != NTTRACE_IOC_START_TRACE && cmd != NTTRACE_IOC_CONTROL_TRACE)) {
		errno = ENOTTY;
		return -1;
	}
	/* As nttrace_read_args() and nttrace_write_args(). */
	memcpy(&usize, arg, sizeof(usize));
	logger_calls++;
	seen_size = usize;
	if (usize < NTTRACE_LOGGER_INFO_SIZE_VER0 || usize > 4096) {
		errno = EINVAL;
		return -1;
	}
	memset(&k, 0, sizeof(k));
	memcpy(&k, arg, usize < sizeof(k) ? usize : sizeof(k));
	k.i.logger_id = 7;
	k.i.nr_cpus = 2;
	k.newer = 0x1234;
	memcpy(arg, &k, usize < sizeof(k) ? usize : sizeof(k));
	return 0;
}

/* ---- 1. A consumer of the old layout ---- */

/* 0.17.0's struct nttrace_consumer, as its callers were compiled. */
struct consumer_0_17 {
	int fd;
	uint8_t attach[NTTRACE_ATTACH_SIZE_VER0];
	uint8_t *heads, *acks, *data;
	uint8_t *copy;
	uint64_t buffers;
	uint64_t overwritten;
};

static void test_old_consumer(void)
{
	struct {
		struct consumer_0_17 c;
		uint64_t canary;
	} old;
	/* The symbol as the old program calls it: its own struct's address. */
	int (*attach)(void *, uint32_t, uint32_t) =
		(int (*)(void *, uint32_t, uint32_t))(void (*)(void))nttrace_consumer_attach;
	int ret;

	memset(&old, 0xEE, sizeof(old));
	old.canary = CANARY;
	ret = attach(&old.c, 1, 0);
	tap_eq(old.canary, CANARY,
	       "an older caller's consumer: nothing written past it (attach: %d)", ret);
}

/* ---- 2. Logger infos, sized by the caller ---- */

static void test_logger_info(void)
{
	struct {
		struct nttrace_logger_info i;
		uint64_t canary;
	} cur;
	struct {
		struct newer_logger_info n;
		uint64_t canary;
	} newer;

	memset(&cur, 0, sizeof(cur));
	cur.canary = CANARY;
	nttrace_set_name(&cur.i, "abi");
	tap_eq(nttrace_start(&cur.i), 0, "nttrace_start");
	tap_eq(seen_size, sizeof(cur.i), "nttrace_start: the caller's sizeof to the kernel");
	tap_eq(cur.i.size, sizeof(cur.i), "nttrace_start: size as given");
	tap_eq(cur.i.logger_id, 7, "nttrace_start: written back");
	tap_eq(cur.canary, CANARY, "nttrace_start: nothing past the caller's struct");

	cur.canary = CANARY;
	tap_eq(nttrace_control(&cur.i, NTTRACE_EVENT_TRACE_CONTROL_QUERY), 0, "nttrace_control");
	tap_eq(seen_size, sizeof(cur.i), "nttrace_control: the caller's sizeof");
	tap_eq(cur.i.control, NTTRACE_EVENT_TRACE_CONTROL_QUERY, "nttrace_control: the code");
	tap_eq(cur.canary, CANARY, "nttrace_control: nothing past the caller's struct");

	/* A caller built against newer headers: all of it goes through. */
	memset(&newer, 0, sizeof(newer));
	newer.canary = CANARY;
	nttrace_set_name(&newer.n.i, "abi");
	tap_eq(nttrace_start_opts(&newer.n.i, sizeof(newer.n)), 0, "a longer struct");
	tap_eq(seen_size, sizeof(newer.n), "a longer struct: its size to the kernel");
	tap_eq(newer.n.newer, 0x1234, "a longer struct: its new member written back");
	tap_eq(newer.canary, CANARY, "a longer struct: nothing past it");

	logger_calls = 0;
	tap_eq(nttrace_start_opts(&cur.i, NTTRACE_LOGGER_INFO_SIZE_VER0 - 8), -EINVAL,
	       "a size below the first version's: -EINVAL");
	tap_eq(nttrace_control_opts(&cur.i, 4, NTTRACE_EVENT_TRACE_CONTROL_QUERY), -EINVAL,
	       "nttrace_control_opts: the same");
	tap_eq(logger_calls, 0, "neither reached the kernel");
}

int main(void)
{
	test_old_consumer();
	test_logger_info();
	return tap_done();
}
