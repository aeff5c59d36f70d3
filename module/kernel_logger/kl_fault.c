// SPDX-License-Identifier: GPL-2.0
/*
 * Page faults for the system loggers: EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS
 * (PageFault_TypeGroup1: TransitionFault, DemandZeroFault, CopyOnWrite,
 * HardPageFault, AccessViolation) and EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS
 * (PageFault_HardFault); common/sysrec.h has their layouts. One source
 * for both flags: they share what they hook.
 *
 * Where the faults come from:
 * - The end of each fault the kernel resolved: the software perf events
 *   PERF_COUNT_SW_PAGE_FAULTS_MIN and _MAJ, which handle_mm_fault()
 *   raises in the faulting thread once the fault is done (not for one
 *   that failed, nor for one get_user_pages() took for a system call), with
 *   the fault's registers and address. One of each per online CPU, made
 *   with perf_event_create_kernel_counter(), period 1, an overflow handler
 *   of ours; a CPU-hotplug state makes and releases them, as for the CPU
 *   samples (kl_profile.c). A handler of a software event runs in the
 *   faulting thread with preemption off.
 * - The start of each fault: x86's exceptions:page_fault_user and
 *   page_fault_kernel tracepoints (a fault on a user address taken in
 *   user mode, or in kernel mode by a copy to or from user memory), with
 *   the hardware's error code. The start keeps (error code, time) in a tag
 *   table keyed by the thread (kl_tags.h), taken back at the end. A
 *   kernel without these tracepoints (not x86) has no starts: said once in
 *   the kernel log when the source is hooked.
 * - A fault the kernel could not resolve, which ends in SIGSEGV: the
 *   signal:signal_generate tracepoint, for a SIGSEGV the kernel raised for
 *   a bad address (SEGV_MAPERR, SEGV_ACCERR, SEGV_PKUERR) in the thread
 *   that faulted.
 *
 * Linux in Windows' terms (ours; Windows says nothing of Linux):
 * - HardPageFault (14): a major fault, one that waited for a read (of a
 *   file's page, or of swap). Also a HardFault (32) with HARD_FAULTS.
 * - CopyOnWrite (12): a minor fault that was a write to a present page of
 *   a private mapping (the hardware said write and protection).
 * - DemandZeroFault (11): any other minor fault in anonymous memory: a
 *   first touch, which maps a new zeroed page or the zero page. (A page
 *   found in the swap cache is among them: Linux does not say so here.)
 * - TransitionFault (10): any other minor fault in a file mapping: the
 *   page was in the page cache, as Windows' transition pages are in
 *   memory but not in the working set; also a write to a present page of
 *   a shared mapping (Linux tracking dirty pages).
 * - AccessViolation (15): the SIGSEGV of a bad address.
 * - GuardPageFault (13) is not written: Linux has no guard pages in
 *   Windows' sense (its stack guard gap ends in SIGSEGV, an
 *   AccessViolation).
 * - VirtualAddress: the address that faulted (the signal's si_addr for an
 *   AccessViolation); ProgramCounter: the instruction that faulted, a
 *   kernel one for a fault taken in kernel mode, which only the system
 *   loggers whose readers may see kernel addresses get (the others get 0).
 * - HardFault: InitialTime, when the fault started (its end without a
 *   start: the record's time); ReadOffset, the offset in the mapped file
 *   of the faulting page; FileObject, nt_kernel_key() of the mapping's
 *   struct file (the same for every fault through one open of the file;
 *   0 for anonymous memory read back from swap, whose ReadOffset is 0
 *   too); TThreadId, the faulting thread; ByteCount, the page's bytes:
 *   what the fault waited for (the read-ahead around it appears in the
 *   DiskIo events).
 *
 * Telling anonymous memory from a file mapping needs the fault's mapping,
 * looked up at the end under mmap_read_trylock(). When the lock is taken
 * by a writer, a minor fault is not written and a major one's HardFault
 * has FileObject and ReadOffset 0: both counted in
 * nttrace.kl_fault_busy. A fault whose start was not seen (the source was
 * hooked meanwhile, the tag table was full, or the kernel has no start
 * tracepoints) is counted in nttrace.kl_fault_unmatched: without its
 * error code it is never a CopyOnWrite.
 *
 * Cost: while either flag is wanted, every page fault of the machine
 * takes a tag (a raw spinlock of its set) and, at its end, the perf
 * handler and the memory map's read lock for an instant. With no system
 * logger wanting them, nothing is hooked.
 */
#include <linux/cpuhotplug.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/timekeeping.h>
#include <trace/events/signal.h>
#ifdef CONFIG_X86
#include <asm/trace/exceptions.h>
#include <asm/traps.h>
#endif

#include "kl_tags.h"
#include "ksource.h"

NT_KCLASS(fault)
NT_KCLASS(hardfault)

NT_KTAGS(nt_fault_tags, 8, 60 * NSEC_PER_SEC);

static atomic_long_t nt_fault_busy = ATOMIC_LONG_INIT(0);
static atomic_long_t nt_fault_unmatched = ATOMIC_LONG_INIT(0);

NT_KCOUNTER(kl_fault_busy, nt_fault_busy,
	    "Page faults whose mapping was not looked up, the memory map busy: minor ones not written, hard ones without file");
NT_KCOUNTER(kl_fault_unmatched, nt_fault_unmatched,
	    "Page faults whose start was not seen: no access kind (never CopyOnWrite), no InitialTime");
NT_KCOUNTER(kl_fault_tags_full, nt_fault_tags.full,
	    "Page-fault starts not kept: the table full");

/* The error-code bits of x86's page faults (arch/x86's X86_PF_*). */
#define NT_PF_PROT	0x1U
#define NT_PF_WRITE	0x2U

static DEFINE_PER_CPU(struct perf_event *, nt_fault_min);
static DEFINE_PER_CPU(struct perf_event *, nt_fault_maj);
/* Guards nt_fault_state. */
static DEFINE_MUTEX(nt_fault_lock);
/* The dynamic CPU-hotplug state while the perf events exist, else 0. */
static int nt_fault_state;

/* What the fault's mapping says, looked up at its end. */
struct nt_fault_map {
	bool found;
	bool anon;		/* anonymous memory */
	bool shared;		/* VM_SHARED */
	u64 file_object;	/* nt_kernel_key() of its file, or 0 */
	u64 offset;		/* the page's offset in the file */
};

/* The mapping of @addr in the current process; false: the lock was busy. */
static bool nt_fault_lookup(unsigned long addr, struct nt_fault_map *m)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;

	*m = (struct nt_fault_map) { };
	if (!mm)
		return true;
	if (!mmap_read_trylock(mm))
		return false;
	vma = vma_lookup(mm, addr);
	if (vma) {
		m->found = true;
		m->anon = vma_is_anonymous(vma);
		m->shared = vma->vm_flags & VM_SHARED;
		if (vma->vm_file) {
			m->file_object = nt_kernel_key(vma->vm_file);
			m->offset = (u64)(((addr - vma->vm_start) >> PAGE_SHIFT) + vma->vm_pgoff)
				    << PAGE_SHIFT;
		}
	}
	mmap_read_unlock(mm);
	return true;
}

/* The instruction that faulted, as the sessions of @kaddr may see it. */
static void nt_fault_event(u16 hook, unsigned long addr, struct pt_regs *regs)
{
	struct ntr_sr_fault f = {
		.virtual_address = addr,
		.program_counter = instruction_pointer(regs),
	};
	const struct ntr_sr_event *e = ntr_sr_event(hook);

	if (user_mode(regs)) {
		nt_kevent_regs(-1, e, 0, 0, 0, nt_ksize_fault, nt_kwrite_fault, &f, regs);
		return;
	}
	nt_kevent_regs(1, e, 0, 0, 0, nt_ksize_fault, nt_kwrite_fault, &f, regs);
	f.program_counter = 0;
	nt_kevent_regs(0, e, 0, 0, 0, nt_ksize_fault, nt_kwrite_fault, &f, regs);
}

/* The fault's start, taken back: its error code and time; false: unseen. */
static bool nt_fault_start(u32 *error_code, u64 *time)
{
	if (nt_ktags_get(&nt_fault_tags, current, 0, true, error_code, time))
		return true;
	atomic_long_inc(&nt_fault_unmatched);
	return false;
}

static void nt_fault_minor(struct perf_event *event, struct perf_sample_data *data,
			   struct pt_regs *regs)
{
	unsigned long addr = data->addr;
	struct nt_fault_map m;
	u32 err = 0;
	u64 start;
	u16 hook;

	nt_fault_start(&err, &start);
	if (!nt_sys_wanted(0, NTTRACE_EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS))
		return;
	if (!nt_fault_lookup(addr, &m)) {
		atomic_long_inc(&nt_fault_busy);
		return;
	}
	if ((err & (NT_PF_WRITE | NT_PF_PROT)) == (NT_PF_WRITE | NT_PF_PROT) && !m.shared)
		hook = NTR_SR_COPY_ON_WRITE;
	else if (m.found && !m.anon)
		hook = NTR_SR_TRANSITION_FAULT;
	else
		hook = NTR_SR_DEMAND_ZERO_FAULT;
	nt_fault_event(hook, addr, regs);
}

static void nt_fault_major(struct perf_event *event, struct perf_sample_data *data,
			   struct pt_regs *regs)
{
	unsigned long addr = data->addr;
	struct ntr_sr_hardfault h = {
		.virtual_address = addr,
		.thread_id = current->pid,
		.byte_count = PAGE_SIZE,
	};
	struct nt_fault_map m;
	u32 err;

	/* In the clock of ktime_get_mono_fast_ns(): emit.c converts it. */
	if (!nt_fault_start(&err, &h.initial_time))
		h.initial_time = ktime_get_mono_fast_ns();
	nt_fault_event(NTR_SR_HARD_PAGE_FAULT, addr, regs);
	if (!nt_sys_wanted(0, NTTRACE_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS))
		return;
	if (nt_fault_lookup(addr, &m)) {
		h.file_object = m.file_object;
		h.read_offset = m.offset;
	} else {
		atomic_long_inc(&nt_fault_busy);
	}
	NT_KEVENT(NTR_SR_HARD_FAULT, 0, 0, 0, hardfault, &h);
}

#ifdef CONFIG_X86
static void nt_fault_enter(unsigned long address, unsigned long error_code)
{
	/* Faults on kernel addresses never reach handle_mm_fault(). */
	if (address >= TASK_SIZE_MAX)
		return;
	nt_ktags_put(&nt_fault_tags, current, 0, (u32)error_code, ktime_get_mono_fast_ns(), 0);
}

static void nt_probe_fault_user(void *data, unsigned long address, struct pt_regs *regs,
				unsigned long error_code)
{
	nt_fault_enter(address, error_code);
}

static void nt_probe_fault_kernel(void *data, unsigned long address, struct pt_regs *regs,
				  unsigned long error_code)
{
	nt_fault_enter(address, error_code);
}
#endif

static void nt_probe_signal(void *data, int sig, struct kernel_siginfo *info,
			    struct task_struct *task, int group, int result)
{
	u32 err;
	u64 start;

	/* SEND_SIG_NOINFO and SEND_SIG_PRIV are no siginfo. */
	if (sig != SIGSEGV || task != current || info == SEND_SIG_NOINFO || info == SEND_SIG_PRIV)
		return;
	if (info->si_code != SEGV_MAPERR && info->si_code != SEGV_ACCERR &&
	    info->si_code != SEGV_PKUERR)
		return;
	/* Its start is done with: it has no end. */
	nt_ktags_get(&nt_fault_tags, current, 0, true, &err, &start);
	nt_fault_event(NTR_SR_ACCESS_VIOLATION, (unsigned long)info->si_addr,
		       task_pt_regs(current));
}

static struct perf_event *nt_fault_counter(unsigned int cpu, u64 config,
					   perf_overflow_handler_t handler)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = config,
		.size = sizeof(attr),
		.sample_period = 1,
		.pinned = 1,
	};
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&attr, cpu, NULL, handler, NULL);
	if (IS_ERR(ev)) {
		/* The CPU comes up all the same, without these events, and it is said. */
		pr_warn("nttrace: no page-fault perf event on CPU %u (error %ld): its page faults are not written\n",
			cpu, PTR_ERR(ev));
		return NULL;
	}
	return ev;
}

static int nt_fault_cpu_online(unsigned int cpu)
{
	per_cpu(nt_fault_min, cpu) = nt_fault_counter(cpu, PERF_COUNT_SW_PAGE_FAULTS_MIN,
						      nt_fault_minor);
	per_cpu(nt_fault_maj, cpu) = nt_fault_counter(cpu, PERF_COUNT_SW_PAGE_FAULTS_MAJ,
						      nt_fault_major);
	return 0;
}

static void nt_fault_release(struct perf_event **slot)
{
	struct perf_event *ev = *slot;

	if (ev) {
		*slot = NULL;
		/* Removes it from its CPU: no overflow of it runs after. */
		perf_event_release_kernel(ev);
	}
}

static int nt_fault_cpu_offline(unsigned int cpu)
{
	nt_fault_release(per_cpu_ptr(&nt_fault_min, cpu));
	nt_fault_release(per_cpu_ptr(&nt_fault_maj, cpu));
	return 0;
}

/*
 * On: before the tracepoints are hooked, so the table is empty and the
 * first ends may find no start (counted). Off: after they are unhooked
 * and no probe of theirs runs; the perf events go first, then the table
 * is emptied.
 */
static void nt_fault_hooked(bool on)
{
	int state;

	mutex_lock(&nt_fault_lock);
	if (on && !nt_fault_state) {
		nt_ktags_reset(&nt_fault_tags);
		state = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "nttrace/fault:online",
					  nt_fault_cpu_online, nt_fault_cpu_offline);
		if (state < 0)
			pr_warn("nttrace: no CPU-hotplug state for page faults (error %d): no page faults are written\n",
				state);
		else
			nt_fault_state = state;
	} else if (!on && nt_fault_state) {
		cpuhp_remove_state(nt_fault_state);
		nt_fault_state = 0;
		nt_ktags_reset(&nt_fault_tags);
	}
	mutex_unlock(&nt_fault_lock);
}

static const struct nt_khook nt_fault_hooks[] = {
#ifdef CONFIG_X86
	NT_KHOOK(page_fault_user, nt_probe_fault_user),
	NT_KHOOK(page_fault_kernel, nt_probe_fault_kernel),
#endif
	NT_KHOOK(signal_generate, nt_probe_signal),
};

const struct nt_ksource nt_ks_fault = {
	.name = "PageFault",
	.flag = NTTRACE_EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS |
		NTTRACE_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS,
	.hooks = nt_fault_hooks,
	.nr_hooks = ARRAY_SIZE(nt_fault_hooks),
	.hooked = nt_fault_hooked,
};
