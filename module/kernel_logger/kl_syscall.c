// SPDX-License-Identifier: GPL-2.0
/*
 * System calls for the system loggers (EVENT_TRACE_FLAG_SYSTEMCALL):
 * PerfInfo SysClEnter and SysClExit (common/sysrec.h), from the
 * raw_syscalls tracepoints sys_enter and sys_exit. Under a PERFINFO
 * header, as Windows writes its per-CPU PerfInfo events: the thread is
 * the one the CPU runs (a reader knows it from the context switches).
 *
 * Linux in Windows' terms (ours, where Windows' fields have no twin):
 * - SysCallAddress: Windows' is the address of the kernel routine that
 *   serves the call. Linux's table of handlers is not visible to modules,
 *   and its addresses would need a reader who may see kernel addresses:
 *   it is the call's number instead, in the caller's ABI (x86-64's; x32's
 *   with its own 0x40000000 bit, as Linux numbers them; a 32-bit caller's
 *   i386 number with 0x80000000), which a reader names with that ABI's
 *   table.
 * - SysCallNtStatus: the low 32 bits of the call's return value: 0 or a
 *   count for success, -errno (0xFFFFFFxx, an error severity) for failure.
 *
 * While SYSTEMCALL is wanted every system call takes the kernel's
 * syscall-tracepoint path (as for IMAGE_LOAD, which hooks sys_exit too).
 */
#include <linux/compat.h>
#include <linux/sched.h>
#include <asm/syscall.h>
#include <trace/events/syscalls.h>

#include "ksource.h"

NT_KCLASS(syscall)

/* The number as SysCallAddress says it (see the top). */
static u64 nt_syscall_number(struct pt_regs *regs)
{
	u64 nr = (u32)syscall_get_nr(current, regs);

#ifdef CONFIG_IA32_EMULATION
	if (in_ia32_syscall())
		nr |= 0x80000000U;
#endif
	return nr;
}

static void nt_probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct ntr_sr_syscall s = { .value = nt_syscall_number(regs) };

	NT_KEVENT(NTR_SR_SYSCALL_ENTER, 0, 0, 0, syscall, &s);
}

static void nt_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct ntr_sr_syscall s = { .value = (u32)ret, .exit = true };

	NT_KEVENT(NTR_SR_SYSCALL_EXIT, 0, 0, 0, syscall, &s);
}

static const struct nt_khook nt_syscall_hooks[] = {
	NT_KHOOK(sys_enter, nt_probe_sys_enter),
	NT_KHOOK(sys_exit, nt_probe_sys_exit),
};

const struct nt_ksource nt_ks_syscall = {
	.name = "SYSTEMCALL",
	.flag = NTTRACE_EVENT_TRACE_FLAG_SYSTEMCALL,
	.hooks = nt_syscall_hooks,
	.nr_hooks = ARRAY_SIZE(nt_syscall_hooks),
};
