/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who may do what, and how much: the permission model and the limits that
 * make nttrace safe to load on a machine other people use.
 */
#ifndef NTTRACE_POLICY_H
#define NTTRACE_POLICY_H

#include <linux/types.h>
#include <linux/uidgid.h>

/**
 * nt_privileged() - may the caller control sessions?
 *
 * Controlling sessions (start, stop, update, flush, attach as consumer),
 * enabling a provider, and writing to another user's secure session need
 * this: CAP_PERFMON, CAP_SYS_ADMIN, or membership of the module's
 * control_gid group (the "Performance Log Users" of this system). May
 * sleep (audit); call with interrupts on.
 *
 * Return: true if the caller may.
 */
bool nt_privileged(void);

/**
 * nt_privileged_system() - may the caller use a system logger?
 *
 * Starting a system logger (uapi/nttrace.h, "System loggers"), which sees
 * every process, and any other operation on one: CAP_PERFMON or
 * CAP_SYS_ADMIN in the initial user namespace, from the initial PID
 * namespace; the control group is not enough. May sleep (audit).
 *
 * Return: true if the caller may.
 */
bool nt_privileged_system(void);

/* The security provider's GUID: {54849625-5478-4994-A5BA-3E3B0328C30D}. */
extern const u8 nt_security_guid[16];

/**
 * nt_security_reader() - may the caller read security events?
 *
 * Enabling the security provider's GUID (nt_security_guid) into a
 * session, and attaching to a session it was ever enabled into, need
 * CAP_AUDIT_READ (Linux's right to read the audit log) or CAP_SYS_ADMIN.
 * May sleep (audit).
 *
 * Return: true if the caller may.
 */
bool nt_security_reader(void);

/**
 * nt_kernel_address_reader() - may the caller see kernel addresses?
 *
 * Kernel addresses (the interrupted kernel code of a CPU sample, kernel
 * stack frames) are written into a system logger only if it was started
 * with PROFILE by a caller who may see them, and such a session is read
 * only by readers who may too:
 * CAP_SYSLOG in the initial user namespace, what /proc/kallsyms asks
 * under kptr_restrict=1. (The kernel's own test, kallsyms_show_value(),
 * also lets everyone see them when kptr_restrict is 0 and
 * perf_event_paranoid at most 1, and nobody when kptr_restrict is 2; a
 * module can read neither setting, so this asks the capability alone.)
 * No audit record: a caller without it is not refused anything.
 *
 * Return: true if the caller may.
 */
bool nt_kernel_address_reader(void);

/**
 * nt_quota_uid() - the user the per-user limits charge for the caller
 *
 * Its effective UID in the initial user namespace; inside a user
 * namespace, the owner of the outermost namespace below the initial one,
 * whatever the caller's UID in it. A user who maps a range of subordinate
 * UIDs into namespaces of its own gets one quota, not one per UID of the
 * range: kernel/ucount.c charges a namespace's counts to its owner up the
 * chain of parents in the same spirit.
 *
 * Return: the UID to charge (max_user_sessions, max_user_registrations).
 */
kuid_t nt_quota_uid(void);

/**
 * nt_max_session_bytes() - the max_session_mb parameter, read once
 *
 * Return: the most bytes one session's rings may take.
 */
size_t nt_max_session_bytes(void);

/**
 * nt_max_user_sessions() - the max_user_sessions parameter, read once
 *
 * Return: the most sessions one user (nt_quota_uid()) may have running.
 */
unsigned int nt_max_user_sessions(void);

/**
 * nt_user_reg_charge() - count one more provider registration of a user
 * @uid: the user, nt_quota_uid() of the registering caller
 *
 * Called before registering; nt_user_reg_uncharge() at the registration's
 * end. Takes a spinlock (a leaf of the lock order, module/session.h).
 *
 * Return: 0; -EDQUOT past max_user_registrations; -ENOMEM.
 */
int nt_user_reg_charge(kuid_t uid);

/**
 * nt_user_reg_uncharge() - a registration charged to @uid ended
 * @uid: the user nt_user_reg_charge() charged
 */
void nt_user_reg_uncharge(kuid_t uid);

/**
 * nt_mem_reserve() - reserve ring memory within max_total_mb
 * @bytes: the memory a session's rings are about to take
 *
 * All sessions' ring memory together stays within max_total_mb: reserve
 * before allocating, give back with nt_mem_unreserve() at release.
 *
 * Return: 0, or -ENOBUFS past the cap.
 */
int nt_mem_reserve(size_t bytes);

/**
 * nt_mem_unreserve() - give back what nt_mem_reserve() took
 * @bytes: the same size as reserved
 */
void nt_mem_unreserve(size_t bytes);

#endif /* NTTRACE_POLICY_H */
