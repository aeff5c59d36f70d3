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
 * - A session started with EVENT_TRACE_SECURE_MODE takes events only from
 *   its owner (the effective UID that started it) or a privileged caller;
 *   anyone else gets STATUS_ACCESS_DENIED.
 *
 * The limits keep a privileged but careless user (or a member of the
 * group) from taking the machine's memory: one session's rings at most
 * max_session_mb, all sessions' at most max_total_mb, each user at most
 * max_user_sessions running sessions. Ring memory is also charged to the
 * starter's memory cgroup (module/area.c).
 */
#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/moduleparam.h>

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

static atomic_long_t nt_mem_pages = ATOMIC_LONG_INIT(0);

bool nt_privileged(void)
{
	int gid = READ_ONCE(control_gid);

	if (perfmon_capable())
		return true;
	return gid >= 0 && in_group_p(make_kgid(&init_user_ns, gid));
}

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
