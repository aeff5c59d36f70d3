/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who may do what, and how much: the permission model and the limits that
 * make nttrace safe to load on a machine other people use.
 */
#ifndef NTTRACE_POLICY_H
#define NTTRACE_POLICY_H

#include <linux/types.h>
#include <linux/uidgid.h>

/*
 * Controlling sessions (start, stop, update, flush, attach as consumer)
 * and writing to another user's secure session need this: CAP_PERFMON,
 * CAP_SYS_ADMIN, or membership of the module's control_gid group (the
 * "Performance Log Users" of this system). May sleep (audit); call with
 * interrupts on.
 */
bool nt_privileged(void);

/*
 * Starting a system logger (uapi/nttrace.h, "System loggers"), which sees
 * every process: CAP_PERFMON or CAP_SYS_ADMIN in the initial user
 * namespace, from the initial PID namespace; the control group is not
 * enough. May sleep (audit).
 */
bool nt_privileged_system(void);

/*
 * The user the per-user limits (max_user_sessions, max_user_registrations)
 * charge for the caller: its effective UID in the initial user namespace;
 * inside a user namespace, the owner of the outermost namespace below the
 * initial one, whatever the caller's UID in it. A user who maps a range
 * of subordinate UIDs into namespaces of its own gets one quota, not one
 * per UID of the range: kernel/ucount.c charges a namespace's counts to
 * its owner up the chain of parents in the same spirit.
 */
kuid_t nt_quota_uid(void);

/* Limits; each is a module parameter, read once per check. */
size_t nt_max_session_bytes(void);
unsigned int nt_max_user_sessions(void);

/*
 * Provider registrations per user (nt_quota_uid()), at most max_user_registrations:
 * charge before registering (-EDQUOT past it, -ENOMEM), uncharge at its end.
 */
int nt_user_reg_charge(kuid_t uid);
void nt_user_reg_uncharge(kuid_t uid);

/*
 * All sessions' ring memory together stays within max_total_mb: reserve
 * before allocating (-ENOBUFS past the cap), give back at release.
 */
int nt_mem_reserve(size_t bytes);
void nt_mem_unreserve(size_t bytes);

#endif /* NTTRACE_POLICY_H */
