/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system calls that map and unmap memory, in every ABI a process may
 * call them with, for the sources that watch them at raw_syscalls'
 * sys_enter and sys_exit (Linux has no tracepoint of a mapping's making):
 * the images (kl_process.c) and private memory (kl_valloc.c, which also
 * watches brk()).
 */
#ifndef NTTRACE_KL_MMCALL_H
#define NTTRACE_KL_MMCALL_H

#include <linux/compat.h>
#include <linux/mm.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

enum nt_mm_call {
	NT_MM_OTHER,
	NT_MM_MMAP,		/* mmap(addr, len, prot, flags, fd, off), mmap2() */
	NT_MM_MMAP_STRUCT,	/* old_mmap(args): the same six, in memory */
	NT_MM_MPROTECT,		/* mprotect(addr, len, prot), pkey_mprotect() */
	NT_MM_MUNMAP,		/* munmap(addr, len) */
	NT_MM_BRK,		/* brk(end) */
};

/*
 * What system call @nr of the current task is: a 32-bit process's mmap2
 * and old_mmap, x32's calls (the 64-bit numbers with __X32_SYSCALL_BIT).
 */
static inline enum nt_mm_call nt_mm_call_of(long nr)
{
#ifdef CONFIG_IA32_EMULATION
	if (in_ia32_syscall()) {
		switch (nr) {
		case __NR_ia32_mmap2:
			return NT_MM_MMAP;
		case __NR_ia32_mmap:
			return NT_MM_MMAP_STRUCT;
		case __NR_ia32_mprotect:
		case __NR_ia32_pkey_mprotect:
			return NT_MM_MPROTECT;
		case __NR_ia32_munmap:
			return NT_MM_MUNMAP;
		case __NR_ia32_brk:
			return NT_MM_BRK;
		}
		return NT_MM_OTHER;
	}
#endif
#ifdef __X32_SYSCALL_BIT
	nr &= ~(long)__X32_SYSCALL_BIT;
#endif
	switch (nr) {
	case __NR_mmap:
		return NT_MM_MMAP;
	case __NR_mprotect:
	case __NR_pkey_mprotect:
		return NT_MM_MPROTECT;
	case __NR_munmap:
		return NT_MM_MUNMAP;
	case __NR_brk:
		return NT_MM_BRK;
	}
	return NT_MM_OTHER;
}

/*
 * At raw_syscalls' sys_enter of system call @id: whether it is a munmap()
 * that munmap() itself would take (a page-aligned start, a length that is
 * not 0 and does not wrap), and then its range, [*@start, *@end) in whole
 * pages.
 */
static inline bool nt_mm_munmap_range(struct pt_regs *regs, long id, unsigned long *start,
				      unsigned long *end)
{
	unsigned long args[6];

	if (nt_mm_call_of(id) != NT_MM_MUNMAP)
		return false;
	syscall_get_arguments(current, regs, args);
	*start = args[0];
	*end = args[0] + PAGE_ALIGN(args[1]);
	return args[1] && !offset_in_page(args[0]) && *end > args[0];
}

#endif /* NTTRACE_KL_MMCALL_H */
