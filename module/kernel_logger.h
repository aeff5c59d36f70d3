/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own events for the system loggers (the NT Kernel Logger's
 * events): each source (module/kl_*.c) hooks Linux tracepoints while a
 * running system logger wants its group, and writes its records with
 * nt_sys_emit() (module/session.h).
 */
#ifndef NTTRACE_KERNEL_LOGGER_H
#define NTTRACE_KERNEL_LOGGER_H

#include <linux/types.h>
#include <nttrace.h>

/* A tracepoint and the probe that writes its events. */
struct nt_khook {
	const char *tracepoint;
	void *probe;
};

/*
 * One source of kernel events: the group-mask bit that wants it, the
 * tracepoints it hooks while wanted, and the rundown (the DCStart and
 * DCEnd events of what exists) it writes into a system logger that starts
 * or stops wanting it. The hooks' probes receive the source as their data.
 */
struct nt_ksource {
	const char *name;		/* for the kernel log */
	unsigned int word;		/* the group_mask word ... */
	u32 flag;			/* ... and bit that want it */
	const struct nt_khook *hooks;
	unsigned int nr_hooks;
	/* Write the rundown into the system logger of slot @slot; may sleep. */
	void (*rundown)(u32 slot, bool start);
};

/*
 * The running system loggers' groups changed (a start, an update, a
 * stop): hook the sources some system logger wants, unhook the others.
 * May sleep; call with no lock of module/session.c held.
 */
void nt_kernel_logger_update(void);

/*
 * System logger @slot started (@start) or is stopping with groups @mask:
 * write the rundown of each source it wants into it alone. May sleep.
 */
void nt_kernel_logger_rundown(u32 slot, const u32 *mask, bool start);

/* The group_mask[0] bits some source writes (NTTRACE_SYSTEM_FLAGS_BUILT). */
u32 nt_kernel_logger_flags(void);

/* Module unload, after every session stopped: nothing stays hooked. */
void nt_kernel_logger_exit(void);

#endif /* NTTRACE_KERNEL_LOGGER_H */
