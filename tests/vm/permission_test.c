// SPDX-License-Identifier: GPL-2.0
/*
 * The permission model (README, "Who may do what"), cell by cell: each
 * operation is tried by each kind of caller, in a child that takes that
 * identity, and must give the result the table says. Runs in the VM as
 * root (64-bit and 32-bit); the callers are made with setuid, setgroups
 * and capset.
 *
 *   root     uid 0, every capability
 *   perfmon  uid 65534 with only CAP_PERFMON
 *   group    uid 65533 in the module's control_gid group, no capability
 *   user     uid 65534, nothing
 *   owner    uid 1000, the owner of a secure session (started while in the
 *            group), now without the group
 */
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <sys/ioctl.h>

#include <nttrace/evntrace.h>
#include <nttrace/ntwmi.h>

#include "emit.h"
#include "params.h"
#include "tap.h"

#define BITS ((int)sizeof(void *) * 8)
#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#define CONTROL_GID 4242

enum role { ROOT, PERFMON, GROUP, USER, OWNER, NROLES };
static const char *const role_names[] = { "root", "perfmon", "group", "user", "owner" };

static int become(enum role r)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct caps[2];
	gid_t group = CONTROL_GID;
	uid_t uid = r == GROUP ? 65533 : r == OWNER ? 1000 : 65534;

	if (r == ROOT)
		return 0;
	if (prctl(PR_SET_KEEPCAPS, r == PERFMON, 0, 0, 0) ||
	    setgroups(r == GROUP, &group) || setgid(65534) || setuid(uid))
		return -1;
	memset(caps, 0, sizeof(caps));
	if (r == PERFMON) {
		caps[CAP_PERFMON / 32].effective = 1U << (CAP_PERFMON % 32);
		caps[CAP_PERFMON / 32].permitted = 1U << (CAP_PERFMON % 32);
	}
	return syscall(SYS_capset, &hdr, caps);
}

/* Run @op as @r in a child; its int result comes back through @shared. */
static int *shared;

static int as(enum role r, int (*op)(uint32_t), uint32_t arg)
{
	int status;
	pid_t pid;

	*shared = 0x7FFFFFFF;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (become(r))
			_exit(1);
		*shared = op(arg);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		printf("# %s: child failed to take its identity\n", role_names[r]);
	return *shared;
}

static int op_start(uint32_t unused)
{
	struct nttrace_logger_info info;
	int ret = start_session("perm-new", 4, 2, 0, &info);

	if (!ret)
		stop_session(info.logger_id);
	return ret;
}

static int op_stop(uint32_t id)
{
	return stop_session(id);
}

static int op_control(uint32_t id, uint32_t code)
{
	struct nttrace_logger_info info;

	memset(&info, 0, sizeof(info));
	info.logger_id = id;
	return nttrace_control(&info, code);
}

static int op_query(uint32_t id) { return op_control(id, EVENT_TRACE_CONTROL_QUERY); }
static int op_update(uint32_t id) { return op_control(id, EVENT_TRACE_CONTROL_UPDATE); }
static int op_flush(uint32_t id) { return op_control(id, EVENT_TRACE_CONTROL_FLUSH); }

static int op_list(uint32_t id)
{
	uint32_t ids[NTTRACE_MAX_LOGGERS], n = 0, i;
	int ret = nttrace_list(ids, NTTRACE_MAX_LOGGERS, &n);

	for (i = 0; !ret && i < n; i++)
		if (ids[i] == id)
			return 0;
	return ret ? ret : -ENOENT;
}

static int op_attach(uint32_t id)
{
	struct nttrace_consumer *c;
	int ret = nttrace_consumer_open(&c, id);

	if (!ret)
		nttrace_consumer_close(c);
	return ret;
}

static int op_write(uint32_t id)
{
	return (int)emit(id, TRACE_MESSAGE_SEQUENCE, 7, "perm", 4);
}

/* The library's view: TraceMessage's Win32 error. */
static int op_trace_message(uint32_t id)
{
	static const GUID guid = { 0x1, 0x2, 0x3, { 4, 5, 6, 7, 8, 9, 10, 11 } };

	return (int)TraceMessage(id, TRACE_MESSAGE_SEQUENCE, &guid, 9, "x", 1, NULL);
}

static uint32_t target;	/* a running session started by root */

/* ---- the security log (issue 29) ---- */

static const uint8_t sec_guid[16] = {
	0x25, 0x96, 0x84, 0x54, 0x78, 0x54, 0x94, 0x49,
	0xa5, 0xba, 0x3e, 0x3b, 0x03, 0x28, 0xc3, 0x0d,
};
static const uint8_t plain_guid[16] = { 0x70, 0x65, 0x72, 0x6d, [15] = 0x29 };

/* REGISTER_SECURITY on a file of its own, which the child's exit closes. */
static int op_register_security(uint32_t unused)
{
	struct nttrace_security_register r = { .size = sizeof(r) };
	int fd = open(NTTRACE_DEVICE, O_RDWR);

	return ioctl(fd, NTTRACE_IOC_REGISTER_SECURITY, &r) < 0 ? -errno : 0;
}

static int enable_guid(uint32_t id, const uint8_t *guid, uint32_t control)
{
	struct nttrace_enable e;

	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.logger_id = id;
	memcpy(e.guid, guid, 16);
	e.control = control;
	return ioctl(nttrace_device_fd(), NTTRACE_IOC_ENABLE, &e) < 0 ? -errno : 0;
}

/* Enable, then disable, the security provider's GUID for @id. */
static int op_enable_security(uint32_t id)
{
	int ret = enable_guid(id, sec_guid, 1);

	return ret ? ret : enable_guid(id, sec_guid, 0);
}

static int op_enable_plain(uint32_t id)
{
	int ret = enable_guid(id, plain_guid, 1);

	return ret ? ret : enable_guid(id, plain_guid, 0);
}

static int op_security_event(uint32_t unused)
{
	EVENT_DESCRIPTOR d = { .Id = 1 };

	return (int)EtwWriteUMSecurityEvent(&d, 0, 0, NULL);
}

static int op_noreg_event(uint32_t unused)
{
	EVENT_DESCRIPTOR d = { .Id = 1 };

	return (int)EtwEventWriteNoRegistration((LPCGUID)plain_guid, &d, 0, NULL);
}

/*
 * Only CAP_AUDIT_WRITE or CAP_SYS_ADMIN registers the security provider,
 * and only CAP_AUDIT_READ or CAP_SYS_ADMIN enables its GUID (the
 * controller's right is not enough: perfmon and group may enable another
 * GUID, not this one); nobody else writes security events; anyone writes
 * events with no registration, as EventWrite.
 */
static void restart_target(void);

/*
 * A perfmon consumer attached to @id (held by a child until told), root
 * enables the security provider: its answer.
 */
static int plain_attached_then_secure(uint32_t id)
{
	int ready[2], go[2], ret;
	char c = 0;
	pid_t pid;

	if (pipe(ready) || pipe(go))
		return -EIO;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct nttrace_consumer *cons;

		if (become(PERFMON) || nttrace_consumer_attach(&cons, id, NTTRACE_ATTACH_REAL_TIME))
			c = 1;
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	if (read(ready[0], &c, 1) != 1 || c)
		ret = -ECHILD;
	else
		ret = enable_guid(id, sec_guid, 1);
	if (write(go[1], &c, 1) != 1)
		ret = -EIO;
	waitpid(pid, NULL, 0);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	return ret;
}

static void test_security_cells(void)
{
	enum role r;

	for (r = ROOT; r <= USER; r++) {
		int priv = r == ROOT;

		tap_eq(as(r, op_register_security, 0), priv ? 0 : -EPERM,
		       "%d-bit: REGISTER_SECURITY by %s -> %s", BITS, role_names[r],
		       priv ? "done" : "EPERM");
		tap_eq(as(r, op_enable_security, target), priv ? 0 : -EPERM,
		       "%d-bit: enable the security provider by %s -> %s", BITS, role_names[r],
		       priv ? "done" : "EPERM");
		tap_eq(as(r, op_enable_plain, target), r == USER ? -EPERM : 0,
		       "%d-bit: enable another GUID by %s -> %s", BITS, role_names[r],
		       r == USER ? "EPERM" : "done");
		tap_eq(as(r, op_security_event, 0), ERROR_ACCESS_DENIED,
		       "%d-bit: EtwWriteUMSecurityEvent by %s, not the provider -> "
		       "ERROR_ACCESS_DENIED", BITS, role_names[r]);
	}
	/* The security provider was in the session: its readers only may attach. */
	for (r = ROOT; r <= GROUP; r++)
		tap_eq(as(r, op_attach, target), r == ROOT ? 0 : -EPERM,
		       "%d-bit: attach by %s to a session the security provider was enabled into -> %s",
		       BITS, role_names[r], r == ROOT ? "done" : "EPERM");
	restart_target();
	tap_eq(plain_attached_then_secure(target), -EBUSY,
	       "%d-bit: enabling the security provider while perfmon is attached -> EBUSY", BITS);
	tap_eq(enable_guid(target, plain_guid, 1), 0, "%d-bit: root enables a GUID nobody registers",
	       BITS);
	for (r = ROOT; r <= USER; r++)
		tap_eq(as(r, op_noreg_event, 0), ERROR_SUCCESS,
		       "%d-bit: EtwEventWriteNoRegistration by %s -> ERROR_SUCCESS", BITS,
		       role_names[r]);
	enable_guid(target, plain_guid, 0);
}

static void restart_target(void)
{
	struct nttrace_logger_info info;

	stop_session(target);
	start_session("perm-target", 4, 2, 0, &info);
	target = info.logger_id;
}

static void test_control_cells(void)
{
	static const struct {
		const char *name;
		int (*op)(uint32_t);
	} ops[] = {
		{ "start", op_start }, { "stop", op_stop }, { "update", op_update },
		{ "flush", op_flush }, { "attach", op_attach },
	};
	enum role r;
	unsigned int i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		for (r = ROOT; r <= USER; r++) {
			int want = r == USER ? -EPERM : 0;

			tap_eq(as(r, ops[i].op, target), want, "%d-bit: %s by %s -> %s",
			       BITS, ops[i].name, role_names[r], want ? "EPERM" : "done");
			if (ops[i].op == op_stop)
				restart_target();
		}
	}
	for (r = ROOT; r <= USER; r++) {
		tap_eq(as(r, op_query, target), 0, "%d-bit: query by %s -> done",
		       BITS, role_names[r]);
		tap_eq(as(r, op_list, target), 0, "%d-bit: list by %s -> done",
		       BITS, role_names[r]);
		tap_eq((uint32_t)as(r, op_write, target), STATUS_SUCCESS,
		       "%d-bit: write to a non-secure session by %s -> STATUS_SUCCESS",
		       BITS, role_names[r]);
	}
}

/* A secure session takes events from its owner and privileged callers. */
static void test_secure_cells(void)
{
	struct nttrace_logger_info info;
	struct nttrace_counts counts;
	struct nttrace_consumer *c;
	uint32_t written;
	int status = -1;
	enum role r;
	pid_t pid;

	/* uid 1000 starts it while in the group, then leaves the group. */
	*shared = 0;
	pid = fork();
	if (pid == 0) {
		gid_t group = CONTROL_GID;

		if (setgroups(1, &group) || setgid(65534) || setuid(1000))
			_exit(1);
		*shared = start_session("perm-secure", 4, 2, EVENT_TRACE_SECURE_MODE, &info) ?
			  0 : (int)info.logger_id;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	info.logger_id = *shared;
	if (!tap_ok(info.logger_id, "%d-bit: uid 1000 in the group starts a secure session", BITS))
		return;
	tap_eq(nttrace_consumer_open(&c, info.logger_id), 0, "%d-bit: root attaches", BITS);

	written = 0;
	for (r = ROOT; r < NROLES; r++) {
		uint32_t want = r == USER ? STATUS_ACCESS_DENIED : STATUS_SUCCESS;

		tap_eq((uint32_t)as(r, op_write, info.logger_id), want,
		       "%d-bit: write to a secure session by %s -> %s", BITS,
		       role_names[r], r == USER ? "STATUS_ACCESS_DENIED" : "STATUS_SUCCESS");
		written += r != USER;
		tap_eq(as(r, op_trace_message, info.logger_id),
		       r == USER ? ERROR_ACCESS_DENIED : ERROR_SUCCESS,
		       "%d-bit: TraceMessage to a secure session by %s -> %s", BITS,
		       role_names[r], r == USER ? "ERROR_ACCESS_DENIED" : "ERROR_SUCCESS");
		written += r != USER;
	}
	nttrace_consumer_counts(c, &counts);
	tap_eq(counts.events_written, written,
	       "%d-bit: refused writes are neither written nor counted lost", BITS);
	tap_eq(counts.events_lost, 0, "%d-bit: no event counted lost", BITS);
	tap_eq(as(OWNER, op_stop, info.logger_id), -EPERM,
	       "%d-bit: its owner, no longer in the group, may not stop it", BITS);
	nttrace_consumer_close(c);
	stop_session(info.logger_id);
}

int main(void)
{
	struct nttrace_logger_info info;
	long old_gid;

	if (!tap_ok(nttrace_device_fd() >= 0, "%d-bit: open %s", BITS, NTTRACE_DEVICE))
		return tap_done();
	if (getuid() != 0) {
		tap_ok(1, "# SKIP the permission cells need root");
		return tap_done();
	}
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	old_gid = set_param("control_gid", CONTROL_GID);
	tap_eq(start_session("perm-target", 4, 2, 0, &info), 0, "%d-bit: root starts a session", BITS);
	target = info.logger_id;
	test_control_cells();
	test_secure_cells();
	test_security_cells();
	stop_session(target);
	set_param("control_gid", old_gid);
	return tap_done();
}
