// SPDX-License-Identifier: GPL-2.0
/*
 * The permission model (README, "Who may do what"):
 *
 * - Anyone who can open /dev/nttrace may write events to a session that is
 *   not secure, query a session and list sessions: as on Windows, where any
 *   process may call NtTraceEvent for a non-secure logger.
 * - Starting, stopping, updating and flushing a session, and attaching to
 *   it as its consumer, need nt_privileged(): Windows gives these to
 *   Administrators and "Performance Log Users"; here CAP_PERFMON (or
 *   CAP_SYS_ADMIN, as perf_event_open accepts) or the group control_gid.
 * - Enabling a provider GUID for a session (NTTRACE_IOC_ENABLE, EnableTrace)
 *   is controlling it: nt_privileged(). Registering a provider and listing
 *   providers are open to anyone, as any Windows process may register.
 * - A session started with NTTRACE_EVENT_TRACE_SECURE_MODE takes events only from
 *   its owner (the effective UID that started it) or a privileged caller;
 *   anyone else gets NTTRACE_STATUS_ACCESS_DENIED.
 * - A system logger (the NT Kernel Logger and EVENT_TRACE_SYSTEM_LOGGER_MODE
 *   sessions) sees every process: starting one and consuming one need
 *   nt_privileged_system(), CAP_PERFMON in the initial namespaces, as
 *   perf asks for system-wide tracing; the group is not enough.
 *
 * The limits keep a privileged but careless user (or a member of the
 * group) from taking the machine's memory: one session's rings at most
 * max_session_mb, all sessions' at most max_total_mb, each user at most
 * max_user_sessions running sessions, each user at most
 * max_user_registrations provider registrations (each a registration's
 * memory and an update to write at every enable change). A user is
 * counted as nt_quota_uid() says: the UIDs of the user namespaces it
 * owns count as its own. Ring memory, and the counts' memory, are also
 * charged to the caller's memory cgroup (module/area.c).
 */
#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/hashtable.h>
#include <linux/moduleparam.h>
#include <linux/pid_namespace.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/user_namespace.h>
#include <nttrace/uapi.h>

#include "policy.h"

static int control_gid = -1;
module_param(control_gid, int, 0644);
MODULE_PARM_DESC(control_gid,
		 "Group whose members may control sessions, as Windows' Performance Log Users (-1: none)");

static unsigned int max_session_mb = 64;
module_param(max_session_mb, uint, 0644);
MODULE_PARM_DESC(max_session_mb, "Most memory one session's rings may take, in MiB");

static unsigned int max_total_mb = 256;
module_param(max_total_mb, uint, 0644);
MODULE_PARM_DESC(max_total_mb, "Most memory all sessions' rings may take together, in MiB");

static unsigned int max_user_sessions = 8;
module_param(max_user_sessions, uint, 0644);
MODULE_PARM_DESC(max_user_sessions, "Most sessions one user may have running");

/*
 * A registration costs kernel memory and a write into its process at
 * every change of its GUID's enables (module/provider.c; no page stays
 * pinned): each user may hold this many, as max_user_sessions bounds
 * sessions.
 */
static unsigned int max_user_registrations = 1024;
module_param(max_user_registrations, uint, 0644);
MODULE_PARM_DESC(max_user_registrations,
		 "Most provider registrations one user may hold");

static atomic_long_t nt_mem_pages = ATOMIC_LONG_INIT(0);

bool nt_privileged(void)
{
	int gid = READ_ONCE(control_gid);

	if (perfmon_capable())
		return true;
	return gid >= 0 && in_group_p(make_kgid(&init_user_ns, gid));
}

bool nt_privileged_system(void)
{
	/*
	 * perfmon_capable() checks the initial user namespace: a system
	 * logger sees every process, so a container's root may not start
	 * one, nor may the control group (Linux asks the same of perf's
	 * system-wide tracing: CAP_PERFMON).
	 */
	return perfmon_capable() && task_active_pid_ns(current) == &init_pid_ns;
}

const u8 nt_security_guid[16] = NTTRACE_SECURITY_PROVIDER_GUID_BYTES;
EXPORT_SYMBOL_IF_KUNIT(nt_security_guid);

bool nt_security_reader(void)
{
	return capable(CAP_AUDIT_READ) || capable(CAP_SYS_ADMIN);
}

bool nt_kernel_address_reader(void)
{
	return ns_capable_noaudit(&init_user_ns, CAP_SYSLOG);
}

kuid_t nt_quota_uid(void)
{
	const struct user_namespace *ns = current_user_ns();

	if (ns == &init_user_ns)
		return current_euid();
	while (ns->parent != &init_user_ns)
		ns = ns->parent;
	return ns->owner;
}
EXPORT_SYMBOL_IF_KUNIT(nt_quota_uid);

size_t nt_max_session_bytes(void)
{
	return (size_t)READ_ONCE(max_session_mb) << 20;
}

unsigned int nt_max_user_sessions(void)
{
	return READ_ONCE(max_user_sessions);
}

int nt_mem_reserve(size_t bytes)
{
	long cap = (long)READ_ONCE(max_total_mb) << (20 - PAGE_SHIFT);
	long pages = DIV_ROUND_UP(bytes, PAGE_SIZE);
	long old = atomic_long_read(&nt_mem_pages);

	do {
		if (pages > cap - old)
			return -ENOBUFS;
	} while (!atomic_long_try_cmpxchg(&nt_mem_pages, &old, old + pages));
	return 0;
}

void nt_mem_unreserve(size_t bytes)
{
	atomic_long_sub(DIV_ROUND_UP(bytes, PAGE_SIZE), &nt_mem_pages);
}

/* Registrations per user (nt_quota_uid()): a count per user that has any. */
struct nt_reg_user {
	struct hlist_node node;
	kuid_t uid;
	unsigned int count;
};

static DEFINE_SPINLOCK(nt_reg_users_lock);
static DEFINE_HASHTABLE(nt_reg_users, 6);

static struct nt_reg_user *nt_reg_user_find(kuid_t uid)
{
	struct nt_reg_user *u;

	lockdep_assert_held(&nt_reg_users_lock);
	hash_for_each_possible(nt_reg_users, u, node, __kuid_val(uid))
		if (uid_eq(u->uid, uid))
			return u;
	return NULL;
}

int nt_user_reg_charge(kuid_t uid)
{
	struct nt_reg_user *u, *fresh = kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
	unsigned int max = READ_ONCE(max_user_registrations);
	int ret = 0;

	spin_lock(&nt_reg_users_lock);
	u = nt_reg_user_find(uid);
	if (!u && max) {
		if (!fresh) {
			spin_unlock(&nt_reg_users_lock);
			return -ENOMEM;
		}
		u = fresh;
		fresh = NULL;
		u->uid = uid;
		hash_add(nt_reg_users, &u->node, __kuid_val(uid));
	}
	if (!u || u->count >= max)
		ret = -EDQUOT;
	else
		u->count++;
	spin_unlock(&nt_reg_users_lock);
	kfree(fresh);
	return ret;
}

void nt_user_reg_uncharge(kuid_t uid)
{
	struct nt_reg_user *u;

	spin_lock(&nt_reg_users_lock);
	u = nt_reg_user_find(uid);
	if (!WARN_ON_ONCE(!u || !u->count) && !--u->count) {
		hash_del(&u->node);
		kfree(u);
	}
	spin_unlock(&nt_reg_users_lock);
}
