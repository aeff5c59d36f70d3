// SPDX-License-Identifier: GPL-2.0
/*
 * Private memory for the system loggers (EVENT_TRACE_FLAG_VIRTUAL_ALLOC):
 * PageFault VirtualAlloc and VirtualFree (common/sysrec.h), from the
 * raw_syscalls tracepoints, Linux's only stable ones around mmap() and
 * munmap() (no mm tracepoint says a mapping was made or removed).
 *
 * Linux in Windows' terms (ours, where Windows says nothing of Linux):
 * - VirtualAlloc is a private anonymous mapping made by mmap() (mmap2
 *   and old_mmap of a 32-bit process, x32's mmap), written at sys_exit
 *   once the call succeeded: BaseAddress the mapping, RegionSize its
 *   length rounded up to pages, Flags MEM_COMMIT | MEM_RESERVE (Linux
 *   reserves and commits in one call, the pages coming at first touch).
 *   A file mapping is no VirtualAlloc (Windows' MapViewOfFile is not
 *   either); nor is a shared anonymous one (a section on Windows).
 * - VirtualFree is munmap() of a range whose first mapping is private and
 *   anonymous, Flags MEM_RELEASE, written at sys_enter: at sys_exit the
 *   mapping is gone and with it what it was. It is looked up with
 *   mmap_read_trylock(): when the lock is taken, or the range is not
 *   page-aligned (munmap() refuses it), no event, and a busy lock is
 *   counted in nttrace.kl_vfree_missed.
 * - brk() that moves the heap's end across a page: a VirtualAlloc of the
 *   pages it added (MEM_COMMIT | MEM_RESERVE) or a VirtualFree of those
 *   it removed (MEM_RELEASE), written at sys_exit. The old end is read at
 *   sys_enter (mm->brk, without the lock: two threads of a process in
 *   brk() at once may see each other's) and kept in a tag table keyed by
 *   the thread until then; a full table (more than 512 threads in brk()
 *   at once) loses the event, counted in nttrace.kl_brk_tags_full.
 * - mremap() is not written: it is neither an allocation nor a free.
 * - ProcessId is the caller's (its TGID).
 *
 * While VIRTUAL_ALLOC is wanted every system call takes the kernel's
 * syscall-tracepoint path, as for SYSTEMCALL.
 */
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <asm/syscall.h>
#include <trace/events/syscalls.h>

#include "kl_mmcall.h"
#include "kl_tags.h"
#include "ksource.h"

NT_KCLASS(valloc)

static atomic_long_t nt_kl_vfree_missed = ATOMIC_LONG_INIT(0);

NT_KCOUNTER(kl_vfree_missed, nt_kl_vfree_missed,
	    "munmap() calls not written as VirtualFree: the memory map was busy");

/* brk()'s old end, from sys_enter to sys_exit, in the entry's time field (no time to live). */
NT_KTAGS(nt_brk_tags, 6, 0);

NT_KCOUNTER(kl_brk_tags_full, nt_brk_tags.full,
	    "brk() calls not written: the table of calls in flight was full");

static void nt_va_event(u16 hook, unsigned long base, unsigned long len, u32 flags)
{
	struct ntr_sr_valloc v = {
		.base = base,
		.size = PAGE_ALIGN(len),
		.process_id = current->tgid,
		.flags = flags,
	};

	if (hook == NTR_SR_VIRTUAL_ALLOC)
		NT_KEVENT(NTR_SR_VIRTUAL_ALLOC, 0, 0, 0, valloc, &v);
	else
		NT_KEVENT(NTR_SR_VIRTUAL_FREE, 0, 0, 0, valloc, &v);
}

/* A private anonymous mapping of @flags (MAP_*). */
static bool nt_va_private_anon(unsigned long flags)
{
	return (flags & MAP_ANONYMOUS) && (flags & MAP_TYPE) == MAP_PRIVATE;
}

/* brk() ended, returning @ret, the heap's end it left (the old one if it failed). */
static void nt_va_brk(unsigned long ret)
{
	unsigned long now = PAGE_ALIGN(ret), old;
	u64 then;
	u32 id;

	if (!nt_ktags_get(&nt_brk_tags, current, 0, true, &id, &then))
		return;
	old = PAGE_ALIGN((unsigned long)then);
	if (now > old)
		nt_va_event(NTR_SR_VIRTUAL_ALLOC, old, now - old,
			    NTR_SR_MEM_COMMIT | NTR_SR_MEM_RESERVE);
	else if (now < old)
		nt_va_event(NTR_SR_VIRTUAL_FREE, now, old - now, NTR_SR_MEM_RELEASE);
}

static void nt_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	unsigned long args[6];
	u32 old[6];

	if (IS_ERR_VALUE(ret) || !current->mm)
		return;
	switch (nt_mm_call_of(syscall_get_nr(current, regs))) {
	case NT_MM_BRK:
		nt_va_brk(ret);
		break;
	case NT_MM_MMAP:
		syscall_get_arguments(current, regs, args);
		if (nt_va_private_anon(args[3]) && args[1])
			nt_va_event(NTR_SR_VIRTUAL_ALLOC, ret, args[1],
				    NTR_SR_MEM_COMMIT | NTR_SR_MEM_RESERVE);
		break;
	case NT_MM_MMAP_STRUCT:
		/* The caller's struct, read again: what it holds now. */
		syscall_get_arguments(current, regs, args);
		if (!copy_from_user_nofault(old, (const void __user *)args[0], sizeof(old)) &&
		    nt_va_private_anon(old[3]) && old[1])
			nt_va_event(NTR_SR_VIRTUAL_ALLOC, ret, old[1],
				    NTR_SR_MEM_COMMIT | NTR_SR_MEM_RESERVE);
		break;
	default:
		break;
	}
}

static void nt_probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned long start, end;
	bool anon;

	if (mm && nt_mm_call_of(id) == NT_MM_BRK) {
		nt_ktags_put(&nt_brk_tags, current, 0, 0, READ_ONCE(mm->brk), 0);
		return;
	}
	if (!mm || !nt_mm_munmap_range(regs, id, &start, &end))
		return;
	if (!mmap_read_trylock(mm)) {
		atomic_long_inc(&nt_kl_vfree_missed);
		return;
	}
	vma = find_vma(mm, start);
	anon = vma && vma->vm_start < end && vma_is_anonymous(vma) &&
	       !(vma->vm_flags & VM_SHARED);
	mmap_read_unlock(mm);
	if (anon)
		nt_va_event(NTR_SR_VIRTUAL_FREE, start, end - start, NTR_SR_MEM_RELEASE);
}

static void nt_valloc_hooked(bool on)
{
	nt_ktags_reset(&nt_brk_tags);
}

static const struct nt_khook nt_valloc_hooks[] = {
	NT_KHOOK(sys_enter, nt_probe_sys_enter),
	NT_KHOOK(sys_exit, nt_probe_sys_exit),
};

const struct nt_ksource nt_ks_valloc = {
	.name = "VIRTUAL_ALLOC",
	.flag = NTTRACE_EVENT_TRACE_FLAG_VIRTUAL_ALLOC,
	.hooks = nt_valloc_hooks,
	.nr_hooks = ARRAY_SIZE(nt_valloc_hooks),
	.hooked = nt_valloc_hooked,
};
