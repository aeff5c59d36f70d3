// SPDX-License-Identifier: GPL-2.0
/*
 * A process's counters for the system loggers
 * (EVENT_TRACE_FLAG_PROCESS_COUNTERS): Process/PerfCtrRundown for each
 * process when a system logger stops (before the Process rundown's
 * DCEnds, as Windows writes them), and Process/PerfCtr when a process ends
 * (the sched_process_exit of its last thread). The layout is
 * common/sysrec.h's struct ntr_sr_perfctr.
 *
 * Linux's counters in Windows' fields (ours, where Windows says nothing
 * of Linux):
 * - PageFaultCount: the faults of all the process's threads, minor and
 *   major, living and gone (what getrusage(RUSAGE_SELF) adds up).
 * - HandleCount: its open file descriptors (its files table's).
 * - PeakVirtualSize, VirtualSize: the mappings' size (the high-water
 *   mark, and now: total_vm).
 * - PeakWorkingSetSize, WorkingSetSize: the resident size (the high-water
 *   mark, and now: RSS).
 * - PagefileUsage and PrivatePageCount: private memory, anonymous pages
 *   resident or swapped out, as Windows' both count the private bytes.
 *   PeakPagefileUsage: Linux keeps no high-water mark of it, so it is the
 *   value now (a lower bound).
 * - The four pool quotas and Reserved: 0; Linux does not charge its
 *   kernel memory to processes so.
 * The sizes are summed as /proc/PID/status sums them, so that the two
 * agree. At a process's end Linux's exit tracepoint fires after its
 * address space is gone: PerfCtr then has PageFaultCount, HandleCount
 * (the files are closed after) and PeakWorkingSetSize (Linux's maxrss,
 * kept past the address space: getrusage()'s ru_maxrss), and the other
 * sizes 0.
 *
 * A system logger's start writes no counters: the Windows-written files
 * have them only with the DCEnd rundown.
 */
#include <linux/bitmap.h>
#include <linux/fdtable.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/percpu_counter.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/version.h>
#include <trace/events/sched.h>

#include "kl_tasks.h"
#include "ksource.h"

NT_KCLASS(perfctr)

/* The open file descriptors of @p. */
static u32 nt_counters_files(struct task_struct *p)
{
	struct files_struct *files;
	u32 n = 0;

	/* The task lock holds off exit_files(): the table stays. */
	task_lock(p);
	files = p->files;
	if (files) {
		struct fdtable *fdt;

		rcu_read_lock();
		fdt = files_fdtable(files);
		n = bitmap_weight(fdt->open_fds, fdt->max_fds);
		rcu_read_unlock();
	}
	task_unlock(p);
	return n;
}

/*
 * Pages of @mm's counter @member, summed exactly as /proc/PID/status sums
 * them (the per-CPU counters' cached total may be off by their batches).
 */
static u64 nt_counters_pages(struct mm_struct *mm, int member)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
	return percpu_counter_sum_positive(&mm->rss_stat[member]);
#else
	return get_mm_counter(mm, member);
#endif
}

/* The counters of process @p (a group leader), its memory @mm or NULL. */
static void nt_counters_of(struct task_struct *p, struct mm_struct *mm,
			   struct ntr_sr_perfctr *c)
{
	struct signal_struct *sig = p->signal;
	unsigned long faults;
	struct task_struct *t;

	*c = (struct ntr_sr_perfctr) { .process_id = p->tgid };
	rcu_read_lock();
	faults = READ_ONCE(sig->min_flt) + READ_ONCE(sig->maj_flt);
	for_each_thread(p, t)
		faults += READ_ONCE(t->min_flt) + READ_ONCE(t->maj_flt);
	rcu_read_unlock();
	c->page_fault_count = min_t(unsigned long, faults, U32_MAX);
	c->handle_count = nt_counters_files(p);
	c->peak_working_set_size = (u64)READ_ONCE(sig->maxrss) << PAGE_SHIFT;
	if (mm) {
		u64 anon = nt_counters_pages(mm, MM_ANONPAGES);
		u64 rss = anon + nt_counters_pages(mm, MM_FILEPAGES) +
			  nt_counters_pages(mm, MM_SHMEMPAGES);
		u64 vm = READ_ONCE(mm->total_vm);

		/* As /proc: the high-water marks are kept only when lowered. */
		c->peak_virtual_size = max_t(u64, vm, READ_ONCE(mm->hiwater_vm)) << PAGE_SHIFT;
		c->peak_working_set_size = max3(c->peak_working_set_size,
						rss << PAGE_SHIFT,
						(u64)READ_ONCE(mm->hiwater_rss) << PAGE_SHIFT);
		c->virtual_size = vm << PAGE_SHIFT;
		c->working_set_size = rss << PAGE_SHIFT;
		c->pagefile_usage = (anon + nt_counters_pages(mm, MM_SWAPENTS)) << PAGE_SHIFT;
		c->peak_pagefile_usage = c->pagefile_usage;
		c->private_page_count = c->pagefile_usage;
	}
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
static void nt_probe_exit(void *data, struct task_struct *p, bool group_dead)
#else
static void nt_probe_exit(void *data, struct task_struct *p)
#endif
{
	struct ntr_sr_perfctr c;

	/* The last thread of the group: the process ends. */
	if (atomic_read(&p->signal->live))
		return;
	nt_counters_of(p, NULL, &c);
	NT_KEVENT(NTR_SR_PROCESS_PERFCTR, 0, 0, 0, perfctr, &c);
}

static void nt_counters_rundown(u32 slot, bool start)
{
	struct task_struct **tasks;
	unsigned int n, i;

	if (start)
		return;
	tasks = nt_kl_tasks(false, &n);
	if (!tasks)
		return;
	for (i = 0; i < n; i++) {
		struct mm_struct *mm = get_task_mm(tasks[i]);
		struct ntr_sr_perfctr c;

		nt_counters_of(tasks[i], mm, &c);
		/* The last user's teardown must not run in a controller's call. */
		if (mm)
			mmput_async(mm);
		NT_KEVENT(NTR_SR_PROCESS_PERFCTR_RUNDOWN, 0, 0, slot, perfctr, &c);
		cond_resched();
	}
	nt_kl_put_tasks(tasks, n);
}

static const struct nt_khook nt_counters_hooks[] = {
	NT_KHOOK(sched_process_exit, nt_probe_exit),
};

const struct nt_ksource nt_ks_counters = {
	.name = "PROCESS_COUNTERS",
	.flag = NTTRACE_EVENT_TRACE_FLAG_PROCESS_COUNTERS,
	.hooks = nt_counters_hooks,
	.nr_hooks = ARRAY_SIZE(nt_counters_hooks),
	.rundown = nt_counters_rundown,
};
