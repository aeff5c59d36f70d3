// SPDX-License-Identifier: GPL-2.0
/*
 * Providers (uapi "Providers"): registration and enabling, by
 * the raw ioctls and by RegisterTraceGuids / EnableTrace, 64-bit and
 * 32-bit, in the VM as root.
 *
 * - the ioctls' errors, each provoked;
 * - the enable info the kernel keeps in the registering process: written
 *   before REGISTER returns (an enable made before), updated at every
 *   enable, disable and session stop, under its sequence count; the
 *   aggregate over sessions (count, level, keywords, logger bits) and the
 *   classic provider's session (the latest enable; the one before when it
 *   goes);
 * - the notifications (poll EPOLLPRI, NOTIFICATION, the bounded queue);
 * - LIST_PROVIDERS; a closed file drops its registrations;
 * - the limits: per file (-EMFILE), per user (-EDQUOT), per session
 *   (-ENOSPC);
 * - the library: a provider process and a controller process (fork), the
 *   callback's WMI_ENABLE_EVENTS with the logger handle, flags and level,
 *   WMI_DISABLE_EVENTS on disable and on session stop, enable before
 *   register (the callback inside RegisterTraceGuids, its value returned),
 *   the enable info read with no system call (counted with ptrace), the
 *   fork child (a provider of its own, enabled as the parent), UnregisterTraceGuids racing a callback and from
 *   inside one, EnableTrace's errors (an unprivileged caller too), the
 *   user-mode logger's private enable;
 * - no page of the process stays pinned by a registration: fork shares
 *   the enable info's page; updates still reach the registering process,
 *   not the child.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <signal.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/evntrace.h>
#include <nttrace/session.h>

#include "../../userlib/internal.h"
#include "emit.h"
#include "params.h"
#include "props.h"
#include "state.h"
#include "tasks.h"
#include "syscalls.h"

#define BITS ((int)sizeof(void *) * 8)

static const GUID guid_a = { 0x6e7a0001, 0x1111, 0x4222, { 0x83, 0, 0, 0, 0, 0, 0, 1 } };
static const GUID guid_b = { 0x6e7a0002, 0x1111, 0x4222, { 0x83, 0, 0, 0, 0, 0, 0, 2 } };
static const GUID guid_c = { 0x6e7a0003, 0x1111, 0x4222, { 0x83, 0, 0, 0, 0, 0, 0, 3 } };
static const GUID guid_d = { 0x6e7a0004, 0x1111, 0x4222, { 0x83, 0, 0, 0, 0, 0, 0, 5 } };
static const GUID class_a = { 0x6e7a1001, 0x1111, 0x4222, { 0x83, 0, 0, 0, 0, 0, 0, 4 } };

static int open_dev(void)
{
	return open(NTTRACE_DEVICE, O_RDWR | O_CLOEXEC);
}

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

static int reg(int fd, const GUID *g, uint32_t type, void *info, uint64_t ctx,
	       uint64_t *handle)
{
	struct nttrace_register r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.type = type;
	memcpy(r.guid, g, 16);
	r.enable_info = (uintptr_t)info;
	r.context = ctx;
	ret = xioctl(fd, NTTRACE_IOC_REGISTER, &r);
	if (!ret && handle)
		*handle = r.handle;
	return ret;
}

static int unreg(int fd, uint64_t handle, uint32_t pad)
{
	struct nttrace_unregister u = { .size = sizeof(u), .pad = pad, .handle = handle };

	return xioctl(fd, NTTRACE_IOC_UNREGISTER, &u);
}

static int enable(uint32_t id, const GUID *g, uint32_t control, uint32_t level,
		  uint32_t flags, uint64_t any, uint64_t all, uint32_t *notified)
{
	struct nttrace_enable e;
	int ret;

	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.logger_id = id;
	memcpy(e.guid, g, 16);
	e.control = control;
	e.level = level;
	e.enable_flags = flags;
	e.match_any_keyword = any;
	e.match_all_keyword = all;
	ret = xioctl(nttrace_device_fd(), NTTRACE_IOC_ENABLE, &e);
	if (notified)
		*notified = e.registrations;
	return ret;
}

static int notification(int fd, struct nttrace_notification *n)
{
	memset(n, 0, sizeof(*n));
	n->size = sizeof(*n);
	return xioctl(fd, NTTRACE_IOC_NOTIFICATION, n);
}

static int pri_ready(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLPRI };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLPRI);
}

/* The enable info as the uapi says to read it. */
static void read_info(const struct nttrace_enable_info *src,
		      struct nttrace_enable_info *out)
{
	uint32_t s;

	do {
		s = __atomic_load_n(&src->sequence, __ATOMIC_ACQUIRE);
		if (s & 1)
			continue;
		memcpy(out, (const void *)src, sizeof(*out));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((s & 1) || __atomic_load_n(&src->sequence, __ATOMIC_RELAXED) != s);
}

static uint32_t start(const char *name)
{
	struct nttrace_logger_info info;

	if (start_session(name, 4, 2, 0, &info)) {
		printf("# could not start %s\n", name);
		return 0;
	}
	return info.logger_id;
}

/* struct nttrace_enable_info in a page of its own, at @off. */
static struct nttrace_enable_info *info_at(size_t off)
{
	uint8_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : (void *)(p + off);
}

TEST_F(nttrace, errors)
{
	struct nttrace_enable_info *info = info_at(64);
	struct nttrace_notification n;
	uint64_t h;
	uint32_t s = start("prov-errors");
	int fd = open_dev();
	void *gone = info_at(0);

	munmap(gone, 4096);
	tap_eq(reg(fd, &guid_a, 0, info, 0, &h), -EINVAL, "%d-bit: REGISTER type 0 -> EINVAL", BITS);
	tap_eq(reg(fd, &guid_a, 3, info, 0, &h), -EINVAL, "%d-bit: REGISTER type 3 -> EINVAL", BITS);
	tap_eq(reg(fd, &guid_a, NTTRACE_REG_CLASSIC, (uint8_t *)info + 4, 0, &h), -EINVAL,
	       "%d-bit: REGISTER enable info not 8-byte aligned -> EINVAL", BITS);
	tap_eq(reg(fd, &guid_a, NTTRACE_REG_CLASSIC, (uint8_t *)info - 64 + 4096 - 40, 0, &h),
	       -EINVAL, "%d-bit: REGISTER enable info across a page -> EINVAL", BITS);
	tap_eq(reg(fd, &guid_a, NTTRACE_REG_CLASSIC, gone, 0, &h), -EFAULT,
	       "%d-bit: REGISTER enable info unmapped -> EFAULT", BITS);
	tap_eq(unreg(fd, 12345, 0), -ENOENT, "%d-bit: UNREGISTER unknown handle -> ENOENT", BITS);
	tap_eq(reg(fd, &guid_a, NTTRACE_REG_CLASSIC, info, 0, &h), 0, "%d-bit: REGISTER", BITS);
	tap_ok(h != 0, "%d-bit: REGISTER handle is not 0", BITS);
	tap_eq(unreg(fd, h, 1), -EINVAL, "%d-bit: UNREGISTER pad not 0 -> EINVAL", BITS);
	tap_eq(notification(fd, &n), -EAGAIN, "%d-bit: NOTIFICATION with none -> EAGAIN", BITS);
	tap_eq(unreg(fd, h, 0), 0, "%d-bit: UNREGISTER", BITS);
	tap_eq(unreg(fd, h, 0), -ENOENT, "%d-bit: UNREGISTER twice -> ENOENT", BITS);
	tap_eq(enable(s, &guid_a, 3, 0, 0, 0, 0, NULL), -EINVAL,
	       "%d-bit: ENABLE control 3 -> EINVAL", BITS);
	tap_eq(enable(s, &guid_a, 1, 256, 0, 0, 0, NULL), -EINVAL,
	       "%d-bit: ENABLE level 256 -> EINVAL", BITS);
	tap_eq(enable(0, &guid_a, 1, 1, 0, 0, 0, NULL), -ENOENT,
	       "%d-bit: ENABLE logger 0 -> ENOENT", BITS);
	tap_eq(enable(NTTRACE_MAX_LOGGERS + 1, &guid_a, 1, 1, 0, 0, 0, NULL), -ENOENT,
	       "%d-bit: ENABLE logger 65 -> ENOENT", BITS);
	tap_eq(enable(s, &guid_a, 0, 0, 0, 0, 0, NULL), -ENOENT,
	       "%d-bit: DISABLE of a GUID not enabled -> ENOENT", BITS);
	tap_eq(enable(s, &guid_a, 2, 0, 0, 0, 0, NULL), -ENOENT,
	       "%d-bit: CAPTURE_STATE of a GUID not enabled -> ENOENT", BITS);
	stop_session(s);
	tap_eq(enable(s, &guid_a, 1, 1, 0, 0, 0, NULL), -ENOENT,
	       "%d-bit: ENABLE for a stopped session -> ENOENT", BITS);
	close(fd);
}

static int check_info(const struct nttrace_enable_info *mem, uint32_t sessions,
		      uint64_t handle, uint8_t level, uint64_t any, uint64_t all,
		      uint64_t loggers, const char *what)
{
	struct nttrace_enable_info v;
	int ok;

	read_info(mem, &v);
	ok = v.sessions == sessions && v.logger_handle == handle && v.level == level &&
	     v.match_any_keyword == any && v.match_all_keyword == all &&
	     v.loggers == loggers && !(v.sequence & 1);
	if (!ok)
		printf("# sessions %u handle 0x%llx level %u any 0x%llx all 0x%llx loggers 0x%llx\n",
		       v.sessions, (unsigned long long)v.logger_handle, v.level,
		       (unsigned long long)v.match_any_keyword,
		       (unsigned long long)v.match_all_keyword,
		       (unsigned long long)v.loggers);
	return tap_ok(ok, "%d-bit: enable info: %s", BITS, what);
}

static int check_note(int fd, uint32_t control, uint64_t handle, uint64_t ctx,
		      uint32_t id, uint32_t level, uint32_t flags, const char *what)
{
	struct nttrace_notification n;
	int ret = notification(fd, &n), ok;

	ok = !ret && n.control == control && n.handle == handle && n.context == ctx &&
	     n.logger_id == id && n.level == level && n.enable_flags == flags &&
	     n.logger_handle == NTTRACE_HANDLE(id, level, 0, flags) && !n.dropped;
	if (!ok)
		printf("# ret %d control %u handle %llu ctx %llu logger %u level %u flags 0x%x lh 0x%llx\n",
		       ret, n.control, (unsigned long long)n.handle,
		       (unsigned long long)n.context, n.logger_id, n.level, n.enable_flags,
		       (unsigned long long)n.logger_handle);
	return tap_ok(ok, "%d-bit: notification: %s", BITS, what);
}

#define BIT(id) (1ULL << ((id) - 1))

TEST_F(nttrace, table)
{
	struct nttrace_enable_info *info = info_at(8), *ev = info_at(4096 - 48);
	struct nttrace_notification n;
	uint32_t s1 = start("prov-one"), s2 = start("prov-two"), notified = 99;
	uint64_t h, he;
	int fd = open_dev();

	/* Enabled before anything registers. */
	tap_eq(enable(s1, &guid_b, 1, 4, 0x11, 0xF0, 0x30, &notified), 0,
	       "%d-bit: ENABLE before any registration", BITS);
	tap_eq(notified, 0, "%d-bit: ... notifies no registration", BITS);
	memset(info, 0xEE, sizeof(*info));
	info->sequence = 0;
	tap_eq(reg(fd, &guid_b, NTTRACE_REG_CLASSIC, info, 77, &h), 0,
	       "%d-bit: REGISTER after the enable", BITS);
	check_info(info, 1, NTTRACE_HANDLE(s1, 4, 0, 0x11), 4, 0xF0, 0x30, BIT(s1),
		   "written before REGISTER returns, with the earlier enable");
	tap_ok(info->pad[0] == 0 && info->pad[6] == 0, "%d-bit: enable info padding zeroed", BITS);
	tap_ok(pri_ready(fd), "%d-bit: poll: EPOLLPRI with a notification waiting", BITS);
	check_note(fd, EVENT_CONTROL_CODE_ENABLE_PROVIDER, h, 77, s1, 4, 0x11,
		   "ENABLE for the enable made before registering");
	tap_ok(!pri_ready(fd), "%d-bit: poll: no EPOLLPRI once taken", BITS);
	tap_eq(notification(fd, &n), -EAGAIN, "%d-bit: then NOTIFICATION -> EAGAIN", BITS);

	/* An EVENT registration of the same GUID hears of every session. */
	tap_eq(reg(fd, &guid_b, NTTRACE_REG_EVENT, ev, 88, &he), 0,
	       "%d-bit: REGISTER an EVENT registration at the end of a page", BITS);
	check_note(fd, EVENT_CONTROL_CODE_ENABLE_PROVIDER, he, 88, s1, 4, 0x11,
		   "EVENT registration: ENABLE for the earlier enable");

	/* A second session: the classic provider moves to it. */
	tap_eq(enable(s2, &guid_b, 1, 2, 0x2, 0x0F, 0x31, &notified), 0,
	       "%d-bit: ENABLE by a second session", BITS);
	tap_eq(notified, 2, "%d-bit: ... notifies both registrations", BITS);
	check_info(info, 2, NTTRACE_HANDLE(s2, 2, 0, 0x2), 4, 0xFF, 0x30,
		   BIT(s1) | BIT(s2), "two sessions: the latest's handle, highest level, "
		   "keywords' union and intersection");
	check_info(ev, 2, NTTRACE_HANDLE(s2, 2, 0, 0x2), 4, 0xFF, 0x30,
		   BIT(s1) | BIT(s2), "the EVENT registration's is the same");
	check_note(fd, EVENT_CONTROL_CODE_ENABLE_PROVIDER, h, 77, s2, 2, 0x2,
		   "classic: ENABLE for the second session");
	check_note(fd, EVENT_CONTROL_CODE_ENABLE_PROVIDER, he, 88, s2, 2, 0x2,
		   "EVENT: ENABLE for the second session");

	/* The first session changes its enable: it is the latest again. */
	tap_eq(enable(s1, &guid_b, 1, 5, 0x13, 0xF0, 0x30, NULL), 0,
	       "%d-bit: ENABLE again changes the first session's enable", BITS);
	check_note(fd, EVENT_CONTROL_CODE_ENABLE_PROVIDER, h, 77, s1, 5, 0x13,
		   "classic: ENABLE for the changed enable");
	check_note(fd, EVENT_CONTROL_CODE_ENABLE_PROVIDER, he, 88, s1, 5, 0x13,
		   "EVENT: ENABLE for the changed enable");
	tap_eq(enable(s1, &guid_b, 2, 0, 0, 0, 0, &notified), 0,
	       "%d-bit: CAPTURE_STATE", BITS);
	tap_eq(notified, 1, "%d-bit: ... notifies the EVENT registration only", BITS);
	check_note(fd, EVENT_CONTROL_CODE_CAPTURE_STATE, he, 88, s1, 5, 0x13,
		   "EVENT: CAPTURE_STATE");

	/* The first session disables: the classic one falls back to the second. */
	tap_eq(enable(s1, &guid_b, 0, 0, 0, 0, 0, NULL), 0, "%d-bit: DISABLE", BITS);
	check_info(info, 1, NTTRACE_HANDLE(s2, 2, 0, 0x2), 2, 0x0F, 0x31, BIT(s2),
		   "after the latest disables: the one before");
	check_note(fd, EVENT_CONTROL_CODE_ENABLE_PROVIDER, h, 77, s2, 2, 0x2,
		   "classic: ENABLE for the session still enabling");
	check_note(fd, EVENT_CONTROL_CODE_DISABLE_PROVIDER, he, 88, s1, 5, 0x13,
		   "EVENT: DISABLE of the first session");

	/* The second session stops: disabled. */
	stop_session(s2);
	check_info(info, 0, 0, 0, 0, 0, 0, "session stopped: not enabled");
	check_note(fd, EVENT_CONTROL_CODE_DISABLE_PROVIDER, h, 77, s2, 2, 0x2,
		   "classic: DISABLE when the session stops");
	check_note(fd, EVENT_CONTROL_CODE_DISABLE_PROVIDER, he, 88, s2, 2, 0x2,
		   "EVENT: DISABLE when the session stops");
	tap_eq(notification(fd, &n), -EAGAIN, "%d-bit: nothing more", BITS);

	/* Unregistering forgets what is queued for the registration. */
	tap_eq(enable(s1, &guid_b, 1, 1, 1, 0, 0, NULL), 0, "%d-bit: ENABLE again", BITS);
	tap_eq(unreg(fd, h, 0), 0, "%d-bit: UNREGISTER with a notification queued", BITS);
	check_note(fd, EVENT_CONTROL_CODE_ENABLE_PROVIDER, he, 88, s1, 1, 1,
		   "only the other registration's remains");
	tap_eq(notification(fd, &n), -EAGAIN, "%d-bit: and nothing for the gone one", BITS);
	stop_session(s1);
	tap_eq(notification(fd, &n), 0, "%d-bit: DISABLE on stop", BITS);
	close(fd);
}

static int find_rows(const GUID *g, uint32_t *regs, uint32_t *enables,
		     struct nttrace_provider_row *last_enable, uint32_t *pid)
{
	struct nttrace_provider_row rows[512];
	struct nttrace_provider_list l = {
		.size = sizeof(l), .count = 512, .rows = (uintptr_t)rows,
	};
	uint32_t i;
	int ret = xioctl(nttrace_device_fd(), NTTRACE_IOC_LIST_PROVIDERS, &l);

	*regs = *enables = 0;
	for (i = 0; !ret && i < l.count && i < 512; i++) {
		if (memcmp(rows[i].guid, g, 16))
			continue;
		if (rows[i].logger_id) {
			++*enables;
			if (last_enable)
				*last_enable = rows[i];
		} else {
			++*regs;
			if (pid)
				*pid = rows[i].pid;
		}
	}
	return ret;
}

TEST_F(nttrace, list_and_close)
{
	struct nttrace_enable_info *info = info_at(0);
	struct nttrace_provider_row row, rows[2];
	struct nttrace_provider_list l = {
		.size = sizeof(l), .count = 0, .rows = 0,
	};
	uint32_t s = start("prov-list"), regs, enables, pid = 0, i;
	int fd = open_dev();

	tap_eq(reg(fd, &guid_c, NTTRACE_REG_CLASSIC, info, 0, NULL), 0, "%d-bit: REGISTER", BITS);
	tap_eq(enable(s, &guid_c, 1, 3, 0x55, 0x55, 0, NULL), 0, "%d-bit: ENABLE", BITS);
	tap_eq(find_rows(&guid_c, &regs, &enables, &row, &pid), 0, "%d-bit: LIST_PROVIDERS", BITS);
	tap_ok(regs == 1 && enables == 1, "%d-bit: LIST: one registration and one enable row",
	       BITS);
	tap_eq(pid, (uint32_t)getpid(), "%d-bit: LIST: the registering process", BITS);
	tap_ok(row.logger_id == s && row.level == 3 && row.enable_flags == 0x55 &&
	       row.match_any_keyword == 0x55 && row.pid == 0,
	       "%d-bit: LIST: the enable row", BITS);
	tap_eq(row.flags, NTTRACE_PROVIDER_ROW_LATEST,
	       "%d-bit: LIST: the only enable is the latest (NTTRACE_PROVIDER_ROW_LATEST)", BITS);
	tap_eq(xioctl(nttrace_device_fd(), NTTRACE_IOC_LIST_PROVIDERS, &l), 0,
	       "%d-bit: LIST with no room", BITS);
	tap_ok(l.count >= 2, "%d-bit: ... counts the rows there are", BITS);
	l.count = 2;
	l.rows = (uintptr_t)rows;
	memset(rows, 0xEE, sizeof(rows));
	tap_eq(xioctl(nttrace_device_fd(), NTTRACE_IOC_LIST_PROVIDERS, &l), 0,
	       "%d-bit: LIST with room for two", BITS);
	for (i = 0; i < 2; i++)
		tap_ok(rows[i].logger_id ? !(rows[i].flags & ~NTTRACE_PROVIDER_ROW_LATEST) :
					   rows[i].flags == 0,
		       "%d-bit: LIST row %u's flags: none unknown, none in a registration row",
		       BITS, i);
	l.rows = 8;
	tap_eq(xioctl(nttrace_device_fd(), NTTRACE_IOC_LIST_PROVIDERS, &l), -EFAULT,
	       "%d-bit: LIST to an unmapped array -> EFAULT", BITS);
	close(fd);
	find_rows(&guid_c, &regs, &enables, NULL, NULL);
	tap_ok(regs == 0 && enables == 1,
	       "%d-bit: closing the file drops its registration, not the enable", BITS);
	stop_session(s);
	find_rows(&guid_c, &regs, &enables, NULL, NULL);
	tap_ok(regs == 0 && enables == 0, "%d-bit: stopping the session drops the enable", BITS);
}

TEST_F(nttrace, limits)
{
	struct nttrace_enable_info *info = info_at(0);
	struct nttrace_notification n;
	uint32_t s = start("prov-limits"), i, last = 0;
	long old;
	GUID g = guid_a;
	int fd = open_dev(), fd2 = open_dev(), ret = 0;

	old = set_param("max_user_registrations", 3000);
	for (i = 0; i < NTTRACE_MAX_REGISTRATIONS && !ret; i++)
		ret = reg(fd, &guid_a, NTTRACE_REG_CLASSIC, info, i, NULL);
	tap_eq(ret, 0, "%d-bit: %u registrations on one file", BITS, NTTRACE_MAX_REGISTRATIONS);
	tap_eq(reg(fd, &guid_a, NTTRACE_REG_CLASSIC, info, 0, NULL), -EMFILE,
	       "%d-bit: one more -> EMFILE", BITS);
	tap_eq(reg(fd2, &guid_a, NTTRACE_REG_CLASSIC, info, 0, NULL), 0,
	       "%d-bit: another file may register", BITS);
	/* Each registration queues one notification; more drop the oldest. */
	tap_eq(enable(s, &guid_a, 1, 1, 1, 0, 0, &i), 0, "%d-bit: ENABLE", BITS);
	tap_eq(i, NTTRACE_MAX_REGISTRATIONS + 1, "%d-bit: ... notifies every registration",
	       BITS);
	tap_eq(notification(fd, &n), 0, "%d-bit: NOTIFICATION after an overflow", BITS);
	tap_eq(n.dropped, NTTRACE_MAX_REGISTRATIONS - NTTRACE_MAX_NOTIFICATIONS,
	       "%d-bit: ... counts the dropped ones", BITS);
	tap_eq(n.context, NTTRACE_MAX_REGISTRATIONS - NTTRACE_MAX_NOTIFICATIONS,
	       "%d-bit: ... and is the oldest kept", BITS);
	for (i = 1; notification(fd, &n) == 0; i++)
		last = n.dropped;
	tap_eq(i, NTTRACE_MAX_NOTIFICATIONS, "%d-bit: %u kept", BITS, NTTRACE_MAX_NOTIFICATIONS);
	tap_eq(last, 0, "%d-bit: dropped counted once", BITS);
	close(fd);
	close(fd2);

	/* Per user: root's registrations. */
	set_param("max_user_registrations", 2);
	fd = open_dev();
	tap_eq(reg(fd, &guid_a, NTTRACE_REG_CLASSIC, info, 0, NULL), 0, "%d-bit: 1 of 2", BITS);
	tap_eq(reg(fd, &guid_b, NTTRACE_REG_CLASSIC, info, 0, NULL), 0, "%d-bit: 2 of 2", BITS);
	tap_eq(reg(fd, &guid_c, NTTRACE_REG_CLASSIC, info, 0, NULL), -EDQUOT,
	       "%d-bit: past max_user_registrations -> EDQUOT", BITS);
	close(fd);
	fd = open_dev();
	tap_eq(reg(fd, &guid_c, NTTRACE_REG_CLASSIC, info, 0, NULL), 0,
	       "%d-bit: a closed file gives its registrations back", BITS);
	close(fd);
	set_param("max_user_registrations", old);

	/* Per session. */
	enable(s, &guid_a, 0, 0, 0, 0, 0, NULL);
	ret = 0;
	for (i = 0; i < NTTRACE_MAX_ENABLES && !ret; i++) {
		g.Data1 = 0x6e7b0000 + i;
		ret = enable(s, &g, 1, 1, 0, 0, 0, NULL);
	}
	tap_eq(ret, 0, "%d-bit: %u GUIDs enabled for one session", BITS, NTTRACE_MAX_ENABLES);
	g.Data1 = 0x6e7bFFFF;
	tap_eq(enable(s, &g, 1, 1, 0, 0, 0, NULL), -ENOSPC, "%d-bit: one more -> ENOSPC", BITS);
	g.Data1 = 0x6e7b0000;
	tap_eq(enable(s, &g, 1, 2, 0, 0, 0, NULL), 0,
	       "%d-bit: changing one already enabled is no more", BITS);
	tap_eq(EnableTrace(1, 0, 0, &guid_b, s), ERROR_NO_SYSTEM_RESOURCES,
	       "%d-bit: EnableTrace past the limit -> ERROR_NO_SYSTEM_RESOURCES", BITS);
	stop_session(s);
}

/* ---- the library ---- */

/* What the provider's callbacks saw, in memory shared with the parent. */
struct seen {
	volatile uint32_t count;
	volatile uint32_t in, out;
	struct {
		uint32_t code;
		uint64_t handle, logger, flags_level;
		uint32_t buffer_size;
		uint64_t info_handle;
	} c[32];
	volatile uint32_t ready, stop, result;
};

static struct seen *seen;
static TRACEHANDLE my_reg;
static ULONG callback_ret;
static int slow_callback;

static ULONG WINAPI callback(WMIDPREQUESTCODE code, PVOID ctx, ULONG *size, PVOID buf)
{
	struct nttrace_enable_info v;
	uint32_t i = seen->count;

	(void)ctx;
	if (i < 32) {
		seen->c[i].code = code;
		seen->c[i].handle = ((WNODE_HEADER *)buf)->HistoricalContext;
		seen->c[i].logger = GetTraceLoggerHandle(buf);
		seen->c[i].flags_level = (uint64_t)GetTraceEnableFlags(seen->c[i].logger) << 8 |
					 GetTraceEnableLevel(seen->c[i].logger);
		seen->c[i].buffer_size = size ? *size : 0;
		seen->c[i].info_handle = 0;
		if (my_reg && nttrace_trace_guids_enabled(my_reg, &v, NULL) == ERROR_SUCCESS)
			seen->c[i].info_handle = v.logger_handle;
	}
	if (slow_callback) {
		seen->in = 1;
		usleep(300000);
		seen->out = 1;
	}
	__atomic_store_n(&seen->count, i + 1, __ATOMIC_RELEASE);
	return callback_ret;
}

/*
 * Wait for the @n-th callback however long it takes (one that never comes
 * hangs the test; vm-run's timeout reports it); 1 if there are @n, not more.
 */
static int wait_count(uint32_t n)
{
	while (__atomic_load_n(&seen->count, __ATOMIC_ACQUIRE) < n)
		usleep(10000);	/* a pace for the poll, not a limit */
	return seen->count == n;
}

static void check_cb(uint32_t i, uint32_t code, uint64_t handle, const char *what)
{
	uint32_t flags = NTTRACE_HANDLE_FLAGS(handle), level = NTTRACE_HANDLE_LEVEL(handle);
	int ok = seen->c[i].code == code && seen->c[i].handle == handle &&
		 seen->c[i].logger == handle &&
		 seen->c[i].flags_level == ((uint64_t)flags << 8 | level) &&
		 seen->c[i].buffer_size == sizeof(WNODE_HEADER);

	if (!ok)
		printf("# callback %u: code %u handle 0x%llx logger 0x%llx fl 0x%llx size %u\n", i,
		       seen->c[i].code, (unsigned long long)seen->c[i].handle,
		       (unsigned long long)seen->c[i].logger,
		       (unsigned long long)seen->c[i].flags_level, seen->c[i].buffer_size);
	tap_ok(ok, "%d-bit: callback: %s", BITS, what);
}

/* The provider process: registers, then lets its callbacks run. */
static void provider_child(void)
{
	TRACE_GUID_REGISTRATION cls = { &class_a, NULL };
	ULONG err;

	callback_ret = 4321;
	err = RegisterTraceGuidsA(callback, NULL, &guid_a, 1, &cls, NULL, NULL, &my_reg);
	seen->result = err;
	__atomic_store_n(&seen->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&seen->stop, __ATOMIC_ACQUIRE))
		usleep(10000);
	_exit(0);
}

TEST_F(nttrace, two_processes)
{
	uint32_t s = start("prov-lib"), regs, enables;
	uint64_t h1 = NTTRACE_HANDLE(s, 3, 0, 0x5), h2 = NTTRACE_HANDLE(s, 5, 0, 0x7);
	int status;
	pid_t pid;

	memset((void *)seen, 0, sizeof(*seen));
	tap_eq(EnableTrace(1, 0x5, 3, &guid_a, s), ERROR_SUCCESS,
	       "%d-bit: EnableTrace before the provider registers", BITS);
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		provider_child();
	while (!__atomic_load_n(&seen->ready, __ATOMIC_ACQUIRE))
		usleep(10000);
	tap_eq(seen->result, 4321,
	       "%d-bit: RegisterTraceGuids returns the callback's value (enabled before)", BITS);
	tap_ok(wait_count(1), "%d-bit: one callback, inside RegisterTraceGuids", BITS);
	check_cb(0, WMI_ENABLE_EVENTS, h1, "WMI_ENABLE_EVENTS, handle with flags and level");
	tap_eq(seen->c[0].info_handle, h1, "%d-bit: the enable info agrees in the callback", BITS);
	usleep(100000);
	tap_eq(seen->count, 1, "%d-bit: the queued ENABLE does not run it twice", BITS);

	tap_eq(EnableTrace(1, 0x7, 5, &guid_a, s), ERROR_SUCCESS,
	       "%d-bit: EnableTrace with new flags and level", BITS);
	tap_ok(wait_count(2), "%d-bit: a second callback", BITS);
	check_cb(1, WMI_ENABLE_EVENTS, h2, "WMI_ENABLE_EVENTS with the new flags and level");
	tap_eq(EnableTrace(0, 0, 0, &guid_a, s), ERROR_SUCCESS, "%d-bit: EnableTrace(FALSE)",
	       BITS);
	tap_ok(wait_count(3), "%d-bit: a third callback", BITS);
	check_cb(2, WMI_DISABLE_EVENTS, h2, "WMI_DISABLE_EVENTS on disable");
	tap_eq(seen->c[2].info_handle, 0, "%d-bit: the enable info says disabled", BITS);
	tap_eq(EnableTrace(0, 0, 0, &guid_a, s), ERROR_WMI_GUID_NOT_FOUND,
	       "%d-bit: EnableTrace(FALSE) again -> ERROR_WMI_GUID_NOT_FOUND", BITS);
	tap_eq(EnableTrace(1, 0x5, 3, &guid_a, s), ERROR_SUCCESS, "%d-bit: EnableTrace again",
	       BITS);
	tap_ok(wait_count(4), "%d-bit: a fourth callback", BITS);
	check_cb(3, WMI_ENABLE_EVENTS, h1, "WMI_ENABLE_EVENTS again");
	stop_session(s);
	tap_ok(wait_count(5), "%d-bit: a fifth callback", BITS);
	check_cb(4, WMI_DISABLE_EVENTS, h1, "WMI_DISABLE_EVENTS when the session stops");

	find_rows(&guid_a, &regs, &enables, NULL, NULL);
	tap_eq(regs, 1, "%d-bit: the provider process's registration is listed", BITS);
	__atomic_store_n(&seen->stop, 1, __ATOMIC_RELEASE);
	waitpid(pid, &status, 0);
	find_rows(&guid_a, &regs, &enables, NULL, NULL);
	tap_eq(regs, 0, "%d-bit: gone when the provider process exits", BITS);
}

TEST_F(nttrace, one_process)
{
	uint32_t s = start("prov-self"), s2 = start("prov-self2");
	TRACE_GUID_REGISTRATION cls[2] = { { &class_a, NULL }, { &guid_c, NULL } };
	struct nttrace_enable_info v;
	struct nttrace_enable_info *gr_info;
	struct nttrace_guid_reg *gr;
	TRACEHANDLE h = 0, priv = 1;
	uint32_t seq;
	int status;
	pid_t pid;

	memset((void *)seen, 0, sizeof(*seen));
	callback_ret = ERROR_SUCCESS;
	tap_eq(RegisterTraceGuidsA(NULL, NULL, &guid_b, 0, NULL, NULL, NULL, &h),
	       ERROR_INVALID_PARAMETER, "%d-bit: RegisterTraceGuids no callback -> "
	       "ERROR_INVALID_PARAMETER", BITS);
	tap_eq(GetLastError(), ERROR_INVALID_PARAMETER, "%d-bit: ... and the last error", BITS);
	tap_eq(RegisterTraceGuidsA(callback, NULL, NULL, 0, NULL, NULL, NULL, &h),
	       ERROR_INVALID_PARAMETER, "%d-bit: no ControlGuid -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(RegisterTraceGuidsA(callback, NULL, &guid_b, 0, NULL, NULL, NULL, NULL),
	       ERROR_INVALID_PARAMETER, "%d-bit: no RegistrationHandle -> ERROR_INVALID_PARAMETER",
	       BITS);
	tap_eq(RegisterTraceGuidsA(callback, NULL, &guid_b, 1, NULL, NULL, NULL, &h),
	       ERROR_INVALID_PARAMETER, "%d-bit: GuidCount, no TraceGuidReg -> "
	       "ERROR_INVALID_PARAMETER", BITS);
	tap_eq(UnregisterTraceGuids(0x1234), ERROR_INVALID_HANDLE,
	       "%d-bit: UnregisterTraceGuids of nothing -> ERROR_INVALID_HANDLE", BITS);

	tap_eq(RegisterTraceGuidsW(callback, NULL, &guid_b, 2, cls, NULL, NULL, &my_reg),
	       ERROR_SUCCESS, "%d-bit: RegisterTraceGuidsW, not enabled", BITS);
	tap_eq(seen->count, 0, "%d-bit: no callback when nothing enables it", BITS);
	gr = nttrace_class_of(cls[1].RegHandle);
	tap_ok(gr && !memcmp(&gr->guid, &guid_c, 16) && cls[0].RegHandle != cls[1].RegHandle &&
	       nttrace_class_of(cls[0].RegHandle),
	       "%d-bit: each class's RegHandle is a class of its own in the table", BITS);

	tap_eq(EnableTrace(1, 0xA0, 4, &guid_b, s), ERROR_SUCCESS, "%d-bit: EnableTrace", BITS);
	tap_ok(wait_count(1), "%d-bit: the callback runs", BITS);
	check_cb(0, WMI_ENABLE_EVENTS, NTTRACE_HANDLE(s, 4, 0, 0xA0), "in-process enable");
	tap_eq(EnableTrace(1, 0xB0, 2, &guid_b, s2), ERROR_SUCCESS,
	       "%d-bit: EnableTrace by a second session", BITS);
	tap_ok(wait_count(2), "%d-bit: the callback runs for it", BITS);
	check_cb(1, WMI_ENABLE_EVENTS, NTTRACE_HANDLE(s2, 2, 0, 0xB0),
		 "the classic provider moves to the latest session");

	nttrace_trace_guids_enabled(my_reg, &v, &priv);
	tap_ok(v.sessions == 2 && v.logger_handle == NTTRACE_HANDLE(s2, 2, 0, 0xB0) &&
	       v.level == 4 && v.match_any_keyword == 0xB0 &&
	       v.loggers == (BIT(s) | BIT(s2)) && priv == 0,
	       "%d-bit: the enable info: both sessions, the latest's handle", BITS);

	/*
	 * fork: the child is a provider too (registered again for itself),
	 * enabled as the parent; its callback is not told again what the
	 * parent's was (the count is in shared memory).
	 */
	fflush(stdout);
	/*
	 * As a fork racing the kernel's update copies it: the sequence odd
	 * in the child's copy (restored in the parent at once). The child's
	 * read must return (alarm() ends it if it spins).
	 */
	gr_info = &((struct nttrace_event_reg *)nttrace_reg_slots[my_reg &
		    NTTRACE_REG_INDEX_MASK].reg)->info;
	seq = __atomic_load_n(&gr_info->sequence, __ATOMIC_RELAXED);
	__atomic_store_n(&gr_info->sequence, seq | 1, __ATOMIC_RELAXED);
	pid = fork();
	if (pid == 0) {
		struct nttrace_enable_info v;
		int bad = 0;

		alarm(30);
		bad |= nttrace_trace_guids_enabled(my_reg, &v, NULL) != ERROR_SUCCESS;
		bad |= v.sessions != 2 || v.logger_handle != NTTRACE_HANDLE(s2, 2, 0, 0xB0);
		usleep(100000);
		bad |= (seen->count != 2) << 1;
		bad |= (UnregisterTraceGuids(my_reg) != ERROR_SUCCESS) << 2;
		_exit(bad);
	}
	__atomic_store_n(&gr_info->sequence, seq, __ATOMIC_RELAXED);
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "%d-bit: fork mid-update: the child's registration reads enabled as the parent's, no "
	       "callback repeated, unregisters (status %#x)", BITS, status);
	tap_eq(EnableTrace(0, 0, 0, &guid_b, s2), ERROR_SUCCESS,
	       "%d-bit: the parent still gets callbacks after the child", BITS);
	tap_ok(wait_count(3), "%d-bit: ... one", BITS);
	check_cb(2, WMI_ENABLE_EVENTS, NTTRACE_HANDLE(s, 4, 0, 0xA0),
		 "the second session disables: back to the first");

	/* UnregisterTraceGuids waits for a callback running on another thread. */
	slow_callback = 1;
	tap_eq(EnableTrace(1, 1, 1, &guid_b, s), ERROR_SUCCESS, "%d-bit: EnableTrace", BITS);
	while (!seen->in)
		usleep(1000);
	tap_eq(UnregisterTraceGuids(my_reg), ERROR_SUCCESS,
	       "%d-bit: UnregisterTraceGuids during a callback", BITS);
	tap_ok(seen->out, "%d-bit: ... returns after the callback has", BITS);
	slow_callback = 0;
	tap_eq(UnregisterTraceGuids(my_reg), ERROR_INVALID_HANDLE,
	       "%d-bit: UnregisterTraceGuids twice -> ERROR_INVALID_HANDLE", BITS);
	my_reg = 0;
	stop_session(s);
	stop_session(s2);
	usleep(100000);
	tap_eq(seen->count, 4, "%d-bit: no callback after UnregisterTraceGuids", BITS);
}

/*
 * No system call to know whether it is enabled: a provider child traced
 * with PTRACE_SYSCALL reads its enable info between two getppid() calls;
 * the parent counts the system calls between them (only that thread is
 * traced: the library's notification thread is not).
 */
TEST_F(nttrace, no_syscall)
{
	uint32_t s = start("prov-nosys");
	pid_t pid;

	memset((void *)seen, 0, sizeof(*seen));
	tap_eq(EnableTrace(1, 0x42, 3, &guid_c, s), ERROR_SUCCESS, "%d-bit: EnableTrace", BITS);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct nttrace_enable_info v;
		TRACEHANDLE h = 0, priv = 1;
		ULONG err;

		if (RegisterTraceGuidsA(callback, NULL, &guid_c, 0, NULL, NULL, NULL, &h))
			_exit(2);
		if (traced_child_start())
			_exit(3);
		getppid();
		err = nttrace_trace_guids_enabled(h, &v, &priv);
		getppid();
		seen->result = err;
		seen->c[0].info_handle = v.logger_handle;
		seen->c[0].flags_level = v.sessions | (uint64_t)v.level << 8 | priv << 16;
		_exit(0);
	}
	tap_eq(syscalls_between_getppid(pid), 0,
	       "%d-bit: nttrace_trace_guids_enabled makes no system call", BITS);
	tap_eq(seen->result, ERROR_SUCCESS, "%d-bit: ... and succeeds", BITS);
	tap_eq(seen->c[0].info_handle, NTTRACE_HANDLE(s, 3, 0, 0x42),
	       "%d-bit: ... with the session's logger handle", BITS);
	tap_eq(seen->c[0].flags_level, 1 | 3 << 8, "%d-bit: ... one session, level 3, "
	       "no private enable", BITS);
	stop_session(s);
}

static TRACEHANDLE self_reg;
static volatile int self_done;

static ULONG WINAPI unregistering_callback(WMIDPREQUESTCODE code, PVOID ctx, ULONG *size,
					   PVOID buf)
{
	(void)code; (void)ctx; (void)size; (void)buf;
	self_done = UnregisterTraceGuids(self_reg) == ERROR_SUCCESS ? 1 : 2;
	return 0;
}

TEST_F(nttrace, unregister_in_callback)
{
	uint32_t s = start("prov-selfunreg");

	tap_eq(RegisterTraceGuidsA(unregistering_callback, NULL, &guid_c, 0, NULL, NULL, NULL,
				   &self_reg), ERROR_SUCCESS, "%d-bit: register", BITS);
	tap_eq(EnableTrace(1, 1, 1, &guid_c, s), ERROR_SUCCESS, "%d-bit: enable", BITS);
	while (!self_done)
		usleep(10000);
	tap_eq(self_done, 1, "%d-bit: UnregisterTraceGuids from its own callback", BITS);
	stop_session(s);
}

static int op_enable_unprivileged(uint32_t id)
{
	if (setgid(65534) || setuid(65534))
		return -1;
	return (int)EnableTrace(1, 1, 1, &guid_a, id);
}

TEST_F(nttrace, enabletrace_errors)
{
	uint32_t s = start("prov-enerr");
	int status;
	pid_t pid;

	tap_eq(EnableTrace(1, 0, 0, NULL, s), ERROR_INVALID_PARAMETER,
	       "%d-bit: EnableTrace no GUID -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(GetLastError(), ERROR_INVALID_PARAMETER, "%d-bit: ... and the last error", BITS);
	tap_eq(EnableTrace(1, 0, 0, &guid_a, 0), ERROR_INVALID_PARAMETER,
	       "%d-bit: EnableTrace handle 0 -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EnableTrace(1, 0, 256, &guid_a, s), ERROR_INVALID_PARAMETER,
	       "%d-bit: EnableTrace level 256 -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EnableTrace(1, 0, 0, &guid_a, 0xFFFF), ERROR_INVALID_HANDLE,
	       "%d-bit: EnableTrace handle 0xFFFF -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(EnableTrace(1, 0, 0, &guid_a, 0x10005), ERROR_INVALID_HANDLE,
	       "%d-bit: EnableTrace handle above 16 bits -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(EnableTrace(1, 0, 0, &guid_a, 60), ERROR_INVALID_HANDLE,
	       "%d-bit: EnableTrace of a session not running -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(EnableTrace(1, 0, 0, &guid_a, TRACE_USER_MODE_LOGGER_BIT | 7),
	       ERROR_INVALID_HANDLE,
	       "%d-bit: EnableTrace of a user-mode logger not running -> ERROR_INVALID_HANDLE",
	       BITS);
	tap_eq(EnableTrace(0, 0, 0, &guid_a, s), ERROR_WMI_GUID_NOT_FOUND,
	       "%d-bit: EnableTrace(FALSE) of a GUID not enabled -> ERROR_WMI_GUID_NOT_FOUND",
	       BITS);
	GetTraceEnableFlags(0);
	tap_eq(GetLastError(), ERROR_INVALID_HANDLE,
	       "%d-bit: GetTraceEnableFlags(0) -> ERROR_INVALID_HANDLE", BITS);
	SetLastError(ERROR_SUCCESS);
	tap_eq(GetTraceEnableLevel(NTTRACE_HANDLE(3, 0, 0, 0)), 0, "%d-bit: level 0", BITS);
	tap_eq(GetLastError(), ERROR_SUCCESS, "%d-bit: ... leaves the last error", BITS);
	tap_eq(GetTraceLoggerHandle(NULL), (TRACEHANDLE)(intptr_t)-1,
	       "%d-bit: GetTraceLoggerHandle(NULL) -> INVALID_HANDLE_VALUE", BITS);
	tap_eq(GetLastError(), ERROR_INVALID_PARAMETER, "%d-bit: ... ERROR_INVALID_PARAMETER",
	       BITS);

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(op_enable_unprivileged(s) == ERROR_ACCESS_DENIED ? 0 : 1);
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "%d-bit: EnableTrace by an unprivileged user -> ERROR_ACCESS_DENIED", BITS);
	stop_session(s);
}

TEST_F(nttrace, private)
{
	struct props pr;
	TRACEHANDLE um = 0, reg_h = 0, priv = 0;
	struct nttrace_enable_info v;
	char path[64];
	uint64_t want;

	snprintf(path, sizeof(path), "/tmp/prov-um-%d.etl", BITS);
	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (StartTraceA(&um, "prov-um", &pr.p) != ERROR_SUCCESS) {
		tap_ok(0, "%d-bit: user-mode logger started", BITS);
		return;
	}
	memset((void *)seen, 0, sizeof(*seen));
	my_reg = 0;
	tap_eq(RegisterTraceGuidsA(callback, NULL, &guid_a, 0, NULL, NULL, NULL, &reg_h),
	       ERROR_SUCCESS, "%d-bit: register", BITS);
	tap_eq(EnableTrace(1, 0x3, 2, &guid_a, um), ERROR_SUCCESS,
	       "%d-bit: EnableTrace with the user-mode logger's handle", BITS);
	want = NTTRACE_HANDLE(um & 0xFFFF, 2, NTTRACE_TRACE_ENABLE_INTERNAL_PRIVATE, 0x3);
	tap_eq(seen->count, 1, "%d-bit: ... runs the callback at once", BITS);
	check_cb(0, WMI_ENABLE_EVENTS, want, "private enable: TRACE_ENABLE_INTERNAL_PRIVATE");
	tap_ok((want & TRACE_USER_MODE_LOGGER_BIT) != 0,
	       "%d-bit: ... the handle has TRACE_USER_MODE_LOGGER_BIT", BITS);
	nttrace_trace_guids_enabled(reg_h, &v, &priv);
	tap_ok(priv == want && v.sessions == 0, "%d-bit: ... kept beside the kernel's enable",
	       BITS);
	tap_eq(EnableTrace(0, 0, 0, &guid_a, um), ERROR_SUCCESS, "%d-bit: private disable",
	       BITS);
	tap_eq(seen->count, 2, "%d-bit: ... callback", BITS);
	tap_eq(seen->c[1].code, WMI_DISABLE_EVENTS, "%d-bit: ... WMI_DISABLE_EVENTS", BITS);
	tap_eq(EnableTrace(0, 0, 0, &guid_a, um), ERROR_WMI_GUID_NOT_FOUND,
	       "%d-bit: private disable again -> ERROR_WMI_GUID_NOT_FOUND", BITS);
	UnregisterTraceGuids(reg_h);
	ControlTraceA(um, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP);
	unlink(path);
}

/* The page frame of @addr here (/proc/self/pagemap, as root); 0: not present. */
static uint64_t pfn_of(const void *addr)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &e, 8, (off_t)((uintptr_t)addr / 4096) * 8) != 8)
		e = 0;
	close(fd);
	return e >> 63 ? e & ((1ULL << 55) - 1) : 0;
}

/*
 * A provider's thread: given its registration's notification, it reads
 * the enable info (the others' are skipped).
 */
static struct {
	int fd;
	uint64_t handle;
	struct nttrace_enable_info *info;
	int woken;
	uint32_t sessions;
	pid_t tid;		/* the thread's (atomic) */
} waker;

/* Thread @tid of this process sleeps (in a system call that waits). */
static int thread_sleeps(pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	return task_sleeps(path);
}

static void *wake_and_read(void *arg)
{
	struct pollfd p = { .fd = waker.fd, .events = POLLPRI };
	struct nttrace_notification n;

	(void)arg;
	__atomic_store_n(&waker.tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	while (!waker.woken) {
		if (poll(&p, 1, -1) != 1)
			continue;
		while (!notification(waker.fd, &n)) {
			if (n.handle != waker.handle)
				continue;
			waker.sessions = __atomic_load_n(&waker.info->sessions,
							 __ATOMIC_ACQUIRE);
			waker.woken = 1;
			break;
		}
	}
	return NULL;
}

/*
 * A registration keeps no page of the process pinned
 * (the kernel pins it for the moment of each write). Seen from user space
 * through fork: an anonymous page someone holds pinned is copied for the
 * child at once, so the child's frame differs from the parent's; a page
 * nobody pins is shared until either side writes it. Then an update still
 * reaches the parent's page (its write breaks the sharing), never the
 * child's copy; and a registration whose page was unmapped troubles no
 * update.
 */
TEST_F(nttrace, no_pin)
{
	struct nttrace_enable_info *info = info_at(128), *gone = info_at(0), v;
	void *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t s = start("prov-nopin");
	int fd = open_dev(), status, p2c[2], c2p[2];
	uint64_t h = 0, h2 = 0, pfn;
	int have_thread;
	pthread_t t;
	pid_t pid;
	char c;

	tap_eq(reg(fd, &guid_d, NTTRACE_REG_EVENT, ro, 0, &h), -EFAULT,
	       "%d-bit: REGISTER read-only memory -> EFAULT", BITS);
	tap_eq(reg(fd, &guid_d, NTTRACE_REG_EVENT, info, 0, &h), 0, "%d-bit: REGISTER", BITS);
	tap_eq(reg(fd, &guid_d, NTTRACE_REG_EVENT, gone, 0, &h2), 0,
	       "%d-bit: REGISTER, enable info in a page then unmapped", BITS);
	munmap(gone, 4096);
	pfn = pfn_of(info);
	tap_ok(pfn != 0, "%d-bit: the enable info's page is present", BITS);
	if (pipe(p2c) || pipe(c2p))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int bad = pfn_of(info) != pfn;

		if (write(c2p[1], "x", 1) != 1 || read(p2c[0], &c, 1) != 1)
			bad |= 4;
		bad |= (__atomic_load_n(&info->sessions, __ATOMIC_RELAXED) != 0) << 1;
		_exit(bad);
	}
	if (read(c2p[0], &c, 1) != 1)
		c = 0;
	/*
	 * The page is shared copy-on-write with the child: the update waits
	 * for the fault work, and so must the notification, which a thread
	 * of the provider reads the info on.
	 */
	waker.fd = fd;
	waker.handle = h;
	waker.info = info;
	waker.woken = 0;
	waker.tid = 0;
	have_thread = !pthread_create(&t, NULL, wake_and_read, NULL);
	/* The thread waits in poll() before the ENABLE. */
	while (have_thread && (!__atomic_load_n(&waker.tid, __ATOMIC_ACQUIRE) ||
			       !thread_sleeps(waker.tid)))
		sched_yield();
	tap_eq(enable(s, &guid_d, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL), 0,
	       "%d-bit: ENABLE while a child shares the page", BITS);
	if (have_thread)
		pthread_join(t, NULL);
	read_info(info, &v);
	tap_ok(v.sessions == 1 && v.loggers == BIT(s) && v.level == 5,
	       "%d-bit: ... the parent's enable info is written", BITS);
	tap_ok(waker.woken && waker.sessions == 1,
	       "%d-bit: ... before the notification wakes the provider (woken %d, sessions %u)",
	       BITS, waker.woken, waker.sessions);
	if (write(p2c[1], "x", 1) != 1)
		c = 0;
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "%d-bit: fork shares the page (the registration pins none), the child's copy "
	       "is not written (status %#x)", BITS, status);
	tap_eq(unreg(fd, h, 0), 0, "%d-bit: UNREGISTER", BITS);
	tap_eq(unreg(fd, h2, 0), 0, "%d-bit: UNREGISTER of the unmapped one", BITS);
	close(p2c[0]);
	close(p2c[1]);
	close(c2p[0]);
	close(c2p[1]);
	close(fd);
	munmap(ro, 4096);
	munmap((uint8_t *)info - 128, 4096);
	stop_session(s);
}

int main(int argc, char **argv)
{
	seen = mmap(NULL, sizeof(*seen), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		    -1, 0);
	if (nttrace_device_fd() < 0) {
		printf("1..0 # SKIP no %s\n", NTTRACE_DEVICE);
		return 0;
	}
	return harness_run(argc, argv);
}
