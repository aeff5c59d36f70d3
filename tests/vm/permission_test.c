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
 *   nsroot   group's identity, then root of a user namespace of its own:
 *            every capability there, none in the initial namespace (a
 *            container's root); skipped where the kernel has no user
 *            namespaces
 *
 * System loggers (the NT Kernel Logger, EVENT_TRACE_SYSTEM_LOGGER_MODE)
 * have one rule for every operation: CAP_PERFMON (or CAP_SYS_ADMIN) in
 * the initial namespaces; the case system_cells tries each.
 */
#include <errno.h>
#include <grp.h>
#include <sched.h>
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
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/nt.h>
#include <nttrace/ntwmi.h>

#include "emit.h"
#include "params.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#define CONTROL_GID 4242

enum role { ROOT, PERFMON, GROUP, USER, OWNER, NSROOT, NROLES };
static const char *const role_names[] = {
	"root", "perfmon", "group", "user", "owner", "root in a user namespace",
};

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ok = f && fputs(text, f) >= 0;

	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}

static int become(enum role r);

/* The group's identity, then root of a new user namespace: its own UID is 0 there. */
static int become_nsroot(void)
{
	/* Dumpable again after the ID change, so that /proc/self is its own. */
	if (become(GROUP) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) || unshare(CLONE_NEWUSER) ||
	    write_file("/proc/self/setgroups", "deny") ||
	    write_file("/proc/self/uid_map", "0 65533 1") ||
	    write_file("/proc/self/gid_map", "0 65534 1"))
		return -1;
	return 0;
}

static int have_userns;	/* the kernel has user namespaces */

static int become(enum role r)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct caps[2];
	gid_t group = CONTROL_GID;
	uid_t uid = r == GROUP ? 65533 : r == OWNER ? 1000 : 65534;

	if (r == ROOT)
		return 0;
	if (r == NSROOT)
		return become_nsroot();
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

/* ---- system loggers: one rule, CAP_PERFMON in the initial namespaces ---- */

static uint32_t sys_target;	/* a system logger started by root */

static int start_system(const char *name, struct nttrace_logger_info *info)
{
	memset(info, 0, sizeof(*info));
	nttrace_set_name(info, name);
	info->buffer_size_kb = 4;
	info->max_buffers = 2;
	info->log_file_mode = EVENT_TRACE_SYSTEM_LOGGER_MODE;
	info->group_mask[0] = EVENT_TRACE_FLAG_NO_SYSCONFIG;
	return nttrace_start(info);
}

static int op_start_system(uint32_t unused)
{
	struct nttrace_logger_info info;
	int ret = start_system("perm-sys-new", &info);

	if (!ret)
		stop_session(info.logger_id);
	return ret;
}

static void restart_sys_target(void)
{
	struct nttrace_logger_info info;

	stop_session(sys_target);
	start_system("perm-sys", &info);
	sys_target = info.logger_id;
}

/* TRACE_SYSTEM of HookId @arg >> 8 into logger @arg & 0xFF. */
static int op_trace_system(uint32_t arg)
{
	uint8_t f[0x20 + 8];

	memset(f, 0, sizeof(f));
	f[6] = (uint8_t)(arg >> 8);
	f[7] = (uint8_t)(arg >> 16);
	return (int)NtTraceEvent((HANDLE)(uintptr_t)(arg & 0xFF),
				 NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM, 8, f);
}

/* TRACE_MARK "m" with ETW_SET_MARK_WITH_FLUSH (1) into @id. */
static int op_mark_flush(uint32_t id)
{
	/* Fields 4-byte aligned, as the front door asks. */
	struct {
		uint32_t flag;
		uint16_t mark[2];
	} f = { 1, { 'm', 0 } };

	return (int)NtTraceEvent((HANDLE)(uintptr_t)id, NTTRACE_ETW_NT_FLAGS_TRACE_MARK,
				 4 + 2, &f);
}

/* @id's buffers written, as its query says; 0 when it cannot be queried. */
static uint32_t buffers_written(uint32_t id)
{
	struct nttrace_logger_info info;

	memset(&info, 0, sizeof(info));
	info.logger_id = id;
	return nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY) ? 0 : info.buffers_written;
}

/* TRACE_RAW of a SYSTEM64 record, HookId 0x0301 (Process/Start), into @id. */
static int op_trace_raw(uint32_t id)
{
	uint8_t r[0x28];

	memset(r, 0, sizeof(r));
	r[2] = 2;
	r[3] = 0xC0;
	r[4] = sizeof(r);
	r[6] = 0x01;
	r[7] = 0x03;
	return (int)NtTraceEvent((HANDLE)(uintptr_t)id, NTTRACE_ETW_NT_FLAGS_TRACE_RAW,
				 sizeof(r), r);
}

static int op_enable_plain(uint32_t id);

/* ---- the security log ---- */

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

/* Each kind of caller this build can be: nsroot needs user namespaces. */
static int role_ok(enum role r)
{
	if (r != NSROOT || have_userns)
		return 1;
	SKIP(return 0, "# SKIP %d-bit: %s: the kernel has no user namespaces", BITS,
	     role_names[r]);
}

static const enum role callers[] = { ROOT, PERFMON, GROUP, USER, NSROOT };
#define NCALLERS ((int)(sizeof(callers) / sizeof(callers[0])))

/* The logger ID of the session named perm-target; 0 when none runs. */
static uint32_t find_target(void)
{
	struct nttrace_logger_info info;

	memset(&info, 0, sizeof(info));
	nttrace_set_name(&info, "perm-target");
	return nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY) ? 0 : info.logger_id;
}

/*
 * The cells of a session root started: each case finds "perm-target"
 * running (main() starts the first), its logger ID in target. What a
 * case leaves running, perm-target too, is stopped after it.
 */
FIXTURE(target) {
	struct running sessions;
};

FIXTURE_SETUP(target)
{
	struct nttrace_logger_info info;

	target = find_target();
	if (!target && !start_session("perm-target", 4, 2, 0, &info))
		target = info.logger_id;
	running_note(&self->sessions);
}

FIXTURE_TEARDOWN(target)
{
	if (find_target())
		stop_session(find_target());
	running_stop_new(&self->sessions);
}

static void restart_target(void)
{
	struct nttrace_logger_info info;

	stop_session(target);
	start_session("perm-target", 4, 2, 0, &info);
	target = info.logger_id;
}

TEST_F(target, control_cells)
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
	int k;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		for (k = 0; k < NCALLERS; k++) {
			int want;

			r = callers[k];
			want = r == USER ? -EPERM : 0;
			if (!role_ok(r))
				continue;
			tap_eq(as(r, ops[i].op, target), want, "%d-bit: %s by %s -> %s",
			       BITS, ops[i].name, role_names[r], want ? "EPERM" : "done");
			if (ops[i].op == op_stop)
				restart_target();
		}
	}
	for (k = 0; k < NCALLERS; k++) {
		r = callers[k];
		if (!role_ok(r))
			continue;
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
TEST_F(target, secure_cells)
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

		if (!role_ok(r))
			continue;
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

/*
 * Only CAP_AUDIT_WRITE or CAP_SYS_ADMIN registers the security provider,
 * and only CAP_AUDIT_READ or CAP_SYS_ADMIN enables its GUID (the
 * controller's right is not enough: perfmon and group may enable another
 * GUID, not this one); nobody else writes security events; anyone writes
 * events with no registration, as EventWrite.
 */
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

TEST_F(target, security_cells)
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

/*
 * The security provider's enable marks the session it was asked for, and
 * only that one: ENABLE reads its event-ID filter after the mark and
 * before the enable, so a fault there (a userfaultfd page, answered only
 * once root has stopped the session and started another in its logger ID)
 * makes the window deterministic. The enable must not land in the new
 * session, which was never marked (its consumers need not be readers of
 * security events). Needs CONFIG_USERFAULTFD.
 */
TEST_F(target, security_mark_reuse)
{
	long page = sysconf(_SC_PAGESIZE);
	struct nttrace_logger_info info;
	int faulted[2], go[2], status;
	uint32_t old = target;
	pid_t pid;
	char ch;

	if (pipe(faulted) || pipe(go))
		return;
	shared[1] = 0x7FFFFFFF;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct uffdio_api api = { .api = UFFD_API };
		struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
		int uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
		uint16_t *ids = mmap(NULL, page, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct nttrace_enable e;

		reg.range.start = (uintptr_t)ids;
		reg.range.len = page;
		if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api) || ioctl(uffd, UFFDIO_REGISTER, &reg))
			_exit(77);
		if (fork() == 0) {
			struct uffd_msg msg;
			struct uffdio_copy copy;
			uint16_t *src = calloc(1, page);

			if (!src || read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
			    write(faulted[1], "f", 1) != 1 || read(go[0], &ch, 1) != 1)
				_exit(1);
			src[0] = 1;
			copy.dst = (uintptr_t)ids;
			copy.src = (uintptr_t)src;
			copy.len = page;
			copy.mode = 0;
			_exit(ioctl(uffd, UFFDIO_COPY, &copy) ? 1 : 0);
		}
		close(uffd);
		memset(&e, 0, sizeof(e));
		e.size = sizeof(e);
		e.logger_id = old;
		memcpy(e.guid, sec_guid, 16);
		e.control = 1;
		e.filter_flags = NTTRACE_ENABLE_FILTER_EVENT_ID | NTTRACE_ENABLE_FILTER_EVENT_ID_IN;
		e.event_id_count = 1;
		e.event_ids = (uintptr_t)ids;
		shared[1] = ioctl(nttrace_device_fd(), NTTRACE_IOC_ENABLE, &e) < 0 ? -errno : 0;
		wait(NULL);
		_exit(0);
	}
	close(faulted[1]);
	if (read(faulted[0], &ch, 1) != 1) {
		waitpid(pid, &status, 0);
		tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 77,
		       "# SKIP %d-bit: the security mark and a logger ID reused: no userfaultfd", BITS);
		close(faulted[0]);
		close(go[0]);
		close(go[1]);
		return;
	}
	stop_session(old);
	start_session("perm-target", 4, 2, 0, &info);
	target = info.logger_id;
	tap_eq(target, old, "%d-bit: while root's enable of the security provider reads its "
	       "filter, the session stops and another takes its logger ID", BITS);
	if (write(go[1], "g", 1) != 1)
		tap_ok(0, "%d-bit: tell the handler", BITS);
	waitpid(pid, &status, 0);
	tap_eq(shared[1], -ENOENT,
	       "%d-bit: ... the enable, for the session that stopped -> ENOENT", BITS);
	tap_eq(as(PERFMON, op_attach, target), 0,
	       "%d-bit: ... the new session holds no security events: perfmon attaches", BITS);
	tap_eq(enable_guid(target, sec_guid, 0), -ENOENT,
	       "%d-bit: ... and the security provider is not enabled for it", BITS);
	close(faulted[0]);
	close(go[0]);
	close(go[1]);
}

TEST_F(nttrace, system_cells)
{
	static const struct {
		const char *name;
		int (*op)(uint32_t);
	} ops[] = {
		{ "start a system logger", op_start_system }, { "stop", op_stop },
		{ "update", op_update }, { "flush", op_flush }, { "attach", op_attach },
		{ "enable a provider for", op_enable_plain },
	};
	struct nttrace_logger_info info;
	uint32_t kl_slot = 0, id;
	unsigned int i;
	int k;

	if (!tap_eq(start_system("perm-sys", &info), 0, "%d-bit: root starts a system logger",
		    BITS))
		return;
	sys_target = info.logger_id;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		for (k = 0; k < NCALLERS; k++) {
			enum role r = callers[k];
			int want = r == ROOT || r == PERFMON ? 0 : -EPERM;

			if (!role_ok(r))
				continue;
			tap_eq(as(r, ops[i].op, sys_target), want, "%d-bit: %s a system logger by %s -> %s",
			       BITS, ops[i].name, role_names[r], want ? "EPERM" : "done");
			if (ops[i].op == op_stop)
				restart_sys_target();
		}
	}
	for (k = 0; k < NCALLERS; k++) {
		enum role r = callers[k];
		int priv = r == ROOT || r == PERFMON;
		uint32_t want = priv ? STATUS_SUCCESS : STATUS_ACCESS_DENIED;

		if (!role_ok(r))
			continue;
		tap_eq(as(r, op_query, sys_target), 0, "%d-bit: query a system logger by %s -> done",
		       BITS, role_names[r]);
		tap_eq((uint32_t)as(r, op_trace_system, 0x030100 | sys_target), want,
		       "%d-bit: TRACE_SYSTEM, a kernel group's HookId (Process/Start), by %s -> %s",
		       BITS, role_names[r], priv ? "STATUS_SUCCESS" : "STATUS_ACCESS_DENIED");
		tap_eq((uint32_t)as(r, op_trace_system, 0x102100 | sys_target), STATUS_SUCCESS,
		       "%d-bit: TRACE_SYSTEM, a user-mode group's HookId (Heap), by %s -> STATUS_SUCCESS",
		       BITS, role_names[r]);
		tap_eq((uint32_t)as(r, op_trace_raw, sys_target), want,
		       "%d-bit: TRACE_RAW into a system logger by %s -> %s", BITS, role_names[r],
		       priv ? "STATUS_SUCCESS" : "STATUS_ACCESS_DENIED");
	}
	stop_session(sys_target);

	/*
	 * A mark with ETW_SET_MARK_WITH_FLUSH is written for anyone; the
	 * flush is a system logger's FLUSH. Each into a system logger of its
	 * own, whose only record is the mark: flushed, its buffer is the one
	 * written.
	 */
	for (k = 0; k < NCALLERS; k++) {
		enum role r = callers[k];
		int priv = r == ROOT || r == PERFMON;
		uint32_t n;

		if (!role_ok(r) ||
		    !tap_eq(start_system("perm-mark", &info), 0,
			    "%d-bit: root starts a system logger for %s's mark", BITS,
			    role_names[r]))
			continue;
		id = info.logger_id;
		tap_eq((uint32_t)as(r, op_mark_flush, id), STATUS_SUCCESS,
		       "%d-bit: TRACE_MARK with flush into a system logger by %s -> STATUS_SUCCESS",
		       BITS, role_names[r]);
		n = buffers_written(id);
		tap_ok(priv ? n >= 1 : n == 0, "%d-bit: ... the mark's buffer %s (%u written)", BITS,
		       priv ? "flushed" : "not flushed: no FLUSH right", n);
		stop_session(id);
	}

	/* The NT Kernel Logger, named by its slot rather than 0xFFFF. */
	memset(&info, 0, sizeof(info));
	nttrace_set_name(&info, NTTRACE_KERNEL_LOGGER_NAME);
	info.buffer_size_kb = 4;
	info.max_buffers = 2;
	info.group_mask[0] = EVENT_TRACE_FLAG_NO_SYSCONFIG;
	if (!tap_eq(nttrace_start(&info), 0, "%d-bit: root starts the NT Kernel Logger", BITS))
		return;
	for (id = 1; id < NTTRACE_MAX_LOGGERS && !kl_slot; id++) {
		memset(&info, 0, sizeof(info));
		info.logger_id = id;
		if (!nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY) &&
		    info.logger_id == NTTRACE_KERNEL_LOGGER_ID)
			kl_slot = id;
	}
	if (tap_ok(kl_slot, "%d-bit: ... its slot is %u", BITS, kl_slot)) {
		for (k = 0; k < NCALLERS; k++) {
			enum role r = callers[k];
			int want = r == ROOT || r == PERFMON ? 0 : -EPERM;

			if (!role_ok(r))
				continue;
			tap_eq(as(r, op_enable_plain, kl_slot), want ? want : -EINVAL,
			       "%d-bit: enable a provider for the NT Kernel Logger by its slot, by %s -> %s",
			       BITS, role_names[r], want ? "EPERM" : "EINVAL (it takes none)");
			tap_eq(as(r, op_flush, NTTRACE_KERNEL_LOGGER_ID), want,
			       "%d-bit: flush the NT Kernel Logger by %s -> %s", BITS, role_names[r],
			       want ? "EPERM" : "done");
		}
	}
	stop_session(NTTRACE_KERNEL_LOGGER_ID);
}

/*
 * max_user_sessions and max_user_registrations count a user's sessions and
 * registrations with those of the UIDs of the user namespaces it owns: uid
 * 65533 (in the control group) owns a namespace mapping 16 UIDs of a
 * subordinate range; at most 2 of each in all, not 2 per UID.
 */

/*
 * In the namespace, its UIDs 0, 1, 2, each a process of its own holding one
 * provider registration while the next registers: the answers in
 * shared[4..6]. The processes end with this call.
 */
static void register_as_nsuids(void)
{
	GUID g = { 0x7175ab00, 0x1, 0x2, { 3, 4, 5, 6, 7, 8, 9, 10 } };
	int done[2], hold[2];
	pid_t pids[3];
	uid_t i;
	char c;

	if (pipe(done) || pipe(hold))
		return;
	for (i = 0; i < 3; i++) {
		shared[4 + i] = -1000;
		pids[i] = fork();
		if (pids[i] == 0) {
			REGHANDLE h;

			close(hold[1]);
			if (setresuid(i, i, i) == 0) {
				g.Data1 = 0x7175ab00 + i;
				shared[4 + i] = (int)EventRegister(&g, NULL, NULL, &h);
			}
			/* Held until the last one has registered. */
			if (write(done[1], "r", 1) != 1 || read(hold[0], &c, 1) < 0)
				_exit(1);
			_exit(0);
		}
		if (pids[i] < 0 || read(done[0], &c, 1) != 1)
			break;
	}
	close(hold[1]);
	while (wait(NULL) > 0)
		;
	close(done[0]);
	close(done[1]);
	close(hold[0]);
}

static int start_as_nsuid(uid_t nsuid, const char *name)
{
	struct nttrace_logger_info info;

	if (setresuid(nsuid, nsuid, nsuid))
		return -1000;
	return start_session(name, 4, 2, 0, &info);
}

TEST_F(nttrace, quota_userns)
{
	int ready[2], go[2], status, k;
	long old_max, old_regs;
	char path[64], c = 0;
	pid_t pid;

	if (!have_userns) {
		SKIP(return, "# SKIP %d-bit: user namespaces' quota: the kernel has none", BITS);
	}
	if (pipe(ready) || pipe(go))
		return;
	old_max = set_param("max_user_sessions", 2);
	old_regs = set_param("max_user_registrations", 2);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int i;

		/* In the control group, then in a namespace of its own. */
		if (become(GROUP) || unshare(CLONE_NEWUSER) || write(ready[1], "u", 1) != 1 ||
		    read(go[0], &c, 1) != 1)
			_exit(1);
		if (fork() == 0) {
			register_as_nsuids();
			_exit(0);
		}
		wait(NULL);
		for (i = 0; i < 3; i++) {
			char name[32];
			pid_t one;

			snprintf(name, sizeof(name), "perm-quota-%d", i);
			one = fork();
			if (one == 0)
				_exit(start_as_nsuid(i, name) == 0 ? 0 : 1);
			if (waitpid(one, &status, 0) != one || !WIFEXITED(status))
				_exit(10);
			shared[i] = WEXITSTATUS(status);
		}
		_exit(0);
	}
	if (read(ready[0], &c, 1) != 1) {
		tap_ok(0, "%d-bit: the namespace's owner is ready", BITS);
		waitpid(pid, NULL, 0);
		set_param("max_user_sessions", old_max);
		set_param("max_user_registrations", old_regs);
		return;
	}
	/* Root maps a subordinate range: ns UIDs 0..15 are 300000..300015. */
	snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
	write_file(path, "0 300000 16");
	snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)pid);
	write_file(path, "0 300000 16");
	for (k = 0; k < 7; k++)
		shared[k] = 99;
	if (write(go[1], "g", 1) != 1)
		tap_ok(0, "%d-bit: tell the owner", BITS);
	waitpid(pid, &status, 0);
	tap_eq(shared[0], 0, "%d-bit: ns uid 0 of uid 65533's namespace starts a session", BITS);
	tap_eq(shared[1], 0, "%d-bit: ... ns uid 1 another", BITS);
	tap_eq(shared[2], 1, "%d-bit: ... ns uid 2 a third: refused (max_user_sessions 2, "
	       "charged to the namespace's owner)", BITS);
	tap_eq(as(GROUP, op_start, 0), -EDQUOT,
	       "%d-bit: ... and the owner, uid 65533, outside it: -EDQUOT", BITS);
	tap_eq(shared[4], ERROR_SUCCESS, "%d-bit: ns uid 0 registers a provider", BITS);
	tap_eq(shared[5], ERROR_SUCCESS, "%d-bit: ... ns uid 1 another", BITS);
	tap_eq(shared[6], ERROR_NO_SYSTEM_RESOURCES,
	       "%d-bit: ... ns uid 2 a third: ERROR_NO_SYSTEM_RESOURCES (max_user_registrations 2)",
	       BITS);
	for (k = 0; k < 3; k++) {
		struct nttrace_logger_info info;
		char name[32];

		snprintf(name, sizeof(name), "perm-quota-%d", k);
		memset(&info, 0, sizeof(info));
		nttrace_set_name(&info, name);
		nttrace_control(&info, EVENT_TRACE_CONTROL_STOP);
	}
	set_param("max_user_sessions", old_max);
	set_param("max_user_registrations", old_regs);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
}

int main(int argc, char **argv)
{
	struct nttrace_logger_info info;
	long old_gid;
	int ret;

	if (!tap_ok(nttrace_device_fd() >= 0, "%d-bit: open %s", BITS, NTTRACE_DEVICE))
		return tap_done();
	if (getuid() != 0) {
		tap_ok(1, "# SKIP the permission cells need root");
		return tap_done();
	}
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	old_gid = set_param("control_gid", CONTROL_GID);
	{
		pid_t pid = fork();
		int status = 1;

		if (pid == 0)
			_exit(unshare(CLONE_NEWUSER) ? 1 : 0);
		waitpid(pid, &status, 0);
		have_userns = WIFEXITED(status) && !WEXITSTATUS(status);
	}
	tap_eq(start_session("perm-target", 4, 2, 0, &info), 0, "%d-bit: root starts a session", BITS);
	ret = harness_run(argc, argv);
	if (find_target())
		stop_session(find_target());
	set_param("control_gid", old_gid);
	return ret;
}
