/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel logger: the kernel's own events (the NT Kernel Logger's) for
 * the system loggers, from Linux tracepoints. What the rest of the module
 * calls; the sources' own interface is ksource.h. The session layer tells
 * it of system loggers' starts, updates and stops through struct
 * nt_session_hooks (module/session.h), set by module/main.c.
 */
#ifndef NTTRACE_KERNEL_LOGGER_H
#define NTTRACE_KERNEL_LOGGER_H

#include <linux/types.h>
#include <nttrace/uapi.h>

/**
 * nt_kernel_logger_update() - hook the sources the system loggers want
 *
 * The running system loggers' groups changed (a start, an update, a
 * stop): hook the sources some system logger wants, unhook the others.
 * May sleep. Takes nt_klog_lock, and under it tracepoints_mutex and
 * nt_loggers_lock (nt_system_groups()): called under a session's ctl_lock
 * or with no lock of nttrace held (the lock order is in module/session.h).
 */
void nt_kernel_logger_update(void);

/**
 * nt_kernel_logger_rundown() - write a system logger's rundown
 * @slot: the system logger's slot of the logger table
 * @mask: its group mask (NTTRACE_GROUP_MASKS words), or the groups it
 *	gained
 * @start: true at its start or when it gained groups, false at its stop
 *
 * Writes the rundown (DCStart or DCEnd events of what exists) of each
 * source @mask wants into that system logger alone. Called under the
 * session's ctl_lock, so that @slot stays the session's. May sleep.
 */
void nt_kernel_logger_rundown(u32 slot, const u32 *mask, bool start);

/**
 * nt_kernel_logger_flags() - the group_mask[0] bits some source writes
 *
 * Return: those bits, for NTTRACE_IOC_VERSION's system_flags.
 */
u32 nt_kernel_logger_flags(void);

/**
 * nt_kernel_logger_profile() - read or set the profile interval
 * @p: NTTRACE_IOC_PROFILE's struct, its size checked; its outputs are set
 *
 * What uapi/nttrace.h's "The sampling profile" says: setting needs
 * nt_privileged_system() and reaches the running sampling at once. May
 * sleep.
 *
 * Return: 0, -EINVAL (a flag, source or interval out of range) or -EPERM.
 */
int nt_kernel_logger_profile(struct nttrace_profile *p);

/**
 * nt_kernel_logger_init() - module load: the key and the sources' memory
 *
 * Draws nt_kernel_key()'s key and calls each source's init callback.
 *
 * Return: 0, or the first source's error (those before it are undone).
 */
int nt_kernel_logger_init(void);

/**
 * nt_kernel_logger_exit() - module unload, after every session stopped
 *
 * Unhooks whatever is still hooked, waits until no probe of ours runs,
 * then calls each source's exit callback.
 */
void nt_kernel_logger_exit(void);

#endif /* NTTRACE_KERNEL_LOGGER_H */
