// SPDX-License-Identifier: GPL-2.0
/*
 * The security log: one process at a time holds the
 * security-provider registration, and only it writes
 * NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY events, which go through the
 * security provider's GUID into the sessions that enable it, by the
 * EventWrite path (module/eventwrite.c).
 *
 * Facts (from phnt's ntwmi.h and Geoff Chappell's
 * EtwWriteUMSecurityEvent page): Fields is the 0x78-byte block,
 * TraceHandle NULL, a caller other than the registered process gets
 * STATUS_ACCESS_DENIED, the provider is
 * {54849625-5478-4994-A5BA-3E3B0328C30D}. Chosen where they are silent:
 * - Who may register: CAP_AUDIT_WRITE or CAP_SYS_ADMIN. Windows gives the
 *   registration to LSASS, which holds SeAuditPrivilege, the right to
 *   generate security audits; CAP_AUDIT_WRITE is Linux's right to write
 *   the kernel's audit log, the nearest there is.
 * - One process at a time (Windows keeps a single security provider): a
 *   second registration while one stands is -EBUSY. It ends when the open
 *   file it was made on is released, or when its process has exited (a
 *   child that inherited the file keeps it open, but is not the provider:
 *   the next registration takes the place of a process that is gone). The
 *   process is remembered by its struct pid, never reused while we hold
 *   it.
 * - The order: not the provider (kernel-mode callers never are: Windows'
 *   kernel writes its own with another call): STATUS_ACCESS_DENIED, before
 *   anything of Fields is looked at, so a stranger learns nothing of the
 *   checks; then the block's checks and the write as EventWrite's. No
 *   session enabling the provider: STATUS_SUCCESS (as a disabled
 *   EventWrite; the note gives no status for it). TraceHandle is ignored.
 * - Enabling the GUID needs CAP_AUDIT_READ (Linux's right to read the
 *   audit log) or CAP_SYS_ADMIN, checked in module/provider.c's ENABLE,
 *   where on Windows only the logger "Eventlog-Security" enables it.
 *   Reading them needs the same right: once the GUID is enabled into a
 *   session (for good: its buffers may hold such events), only a reader
 *   of security events may attach to it, and the enable is refused
 *   (-EBUSY) while a consumer without that right is attached
 *   (nt_session_get_enable(), module/session.c).
 */
#include <kunit/visibility.h>
#include <linux/capability.h>
#include <linux/err.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#include "eventwrite.h"
#include "policy.h"
#include "provider.h"
#include "security.h"

static DEFINE_SPINLOCK(nt_security_lock);
static struct file *nt_security_file;	/* under the lock; NULL: none */
static struct pid *nt_security_pid;	/* its process, a reference held */

int nt_security_register(struct file *file)
{
	struct pid *pid;
	int ret = 0;

	if (!capable(CAP_AUDIT_WRITE) && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	pid = get_pid(task_tgid(current));
	spin_lock(&nt_security_lock);
	/* A holder whose thread group is gone holds it no more. */
	if (nt_security_file && pid_has_task(nt_security_pid, PIDTYPE_TGID)) {
		ret = -EBUSY;
	} else {
		nt_security_file = file;
		swap(pid, nt_security_pid);
	}
	spin_unlock(&nt_security_lock);
	/* Ours when refused; else the gone holder's, or NULL. */
	put_pid(pid);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(nt_security_register);

void nt_security_release(struct file *file)
{
	struct pid *pid = NULL;

	spin_lock(&nt_security_lock);
	if (nt_security_file == file) {
		nt_security_file = NULL;
		pid = nt_security_pid;
		nt_security_pid = NULL;
	}
	spin_unlock(&nt_security_lock);
	put_pid(pid);
}
EXPORT_SYMBOL_IF_KUNIT(nt_security_release);

bool nt_security_caller(void)
{
	bool ours;

	spin_lock(&nt_security_lock);
	ours = nt_security_pid && nt_security_pid == task_tgid(current);
	spin_unlock(&nt_security_lock);
	return ours;
}
EXPORT_SYMBOL_IF_KUNIT(nt_security_caller);

u32 nt_trace_security(const struct nttrace_type *type,
		      const struct nttrace_call *call,
		      const struct nttrace_flags *flags, const void *fixed)
{
	struct nt_reg *r;
	u32 status;

	if (call->kernel_mode || !nt_security_caller())
		return NTTRACE_STATUS_ACCESS_DENIED;
	status = nt_event_fields_check(call, fixed);
	if (status)
		return status;
	r = nt_provider_hold(nt_security_guid);
	if (IS_ERR(r))
		return NTTRACE_STATUS_NO_MEMORY;
	if (!r)
		return NTTRACE_STATUS_SUCCESS;
	status = nt_event_write_reg(call, flags, fixed, r);
	nt_provider_unhold(r);
	return status;
}
EXPORT_SYMBOL_IF_KUNIT(nt_trace_security);
