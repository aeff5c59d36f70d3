// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler's events for the system loggers: CSwitch
 * (EVENT_TRACE_FLAG_CSWITCH) from the sched_switch tracepoint, ReadyThread
 * (EVENT_TRACE_FLAG_DISPATCHER) from sched_wakeup and sched_wakeup_new.
 * Both are Thread_V2 classes (Microsoft's "CSwitch class" and
 * "ReadyThread class" pages) with a PERFINFO_TRACE_HEADER, as Windows
 * writes them (common/sysrec.h).
 *
 * The probes run where the scheduler calls them: interrupts off and the
 * runqueue locked. They read only the task structs the tracepoint passes
 * and write through nt_kevent(), which neither sleeps nor allocates.
 *
 * Linux's scheduler in Windows' terms (ours: Windows' states and wait
 * reasons have no exact Linux match):
 * - priority: Windows' 0-31. A real-time task (prio 0-99) is 16-31 by its
 *   rt_priority order, a normal one 1-15 with nice 0 at 8 (Windows'
 *   normal base priority), nice -20 at 15, nice 19 at 1; the idle task 0.
 * - the old thread's state: still runnable (preempted) is Ready (1) with
 *   WaitReason WrPreempted (32); sleeping interruptibly is Waiting (5),
 *   UserRequest (6), UserMode (1): what a user wait looks like;
 *   uninterruptibly, Waiting, Executive (0), KernelMode (0); exiting,
 *   Terminated (4), WrTerminated (22).
 * - OldThreadWaitIdealProcessor: the CPU; PreviousCState,
 *   NewThreadWaitTime: 0 (not measured).
 * - ReadyThread: AdjustReason 0 (Ignore), no increment, Flag 0.
 */
#include <linux/mm_types.h>	/* struct folio, for <trace/events/sched.h> */
#include <linux/sched.h>
#include <linux/smp.h>
#include <trace/events/sched.h>

#include "ksource.h"

NT_KCLASS(cswitch)
NT_KCLASS(ready)

static void nt_probe_switch(void *data, bool preempt, struct task_struct *prev,
			    struct task_struct *next, unsigned int prev_state)
{
	struct ntr_sr_cswitch cs = {
		.new_thread_id = next->pid,
		.old_thread_id = prev->pid,
		.new_thread_priority = nt_win_priority(next),
		.old_thread_priority = nt_win_priority(prev),
		.old_thread_wait_ideal_processor = smp_processor_id(),
	};

	if (preempt || !prev_state) {
		cs.old_thread_state = 1;		/* Ready */
		cs.old_thread_wait_reason = 32;		/* WrPreempted */
	} else if (prev_state & TASK_DEAD) {
		cs.old_thread_state = 4;		/* Terminated */
		cs.old_thread_wait_reason = 22;		/* WrTerminated */
	} else if (prev_state & TASK_INTERRUPTIBLE) {
		cs.old_thread_state = 5;		/* Waiting */
		cs.old_thread_wait_reason = 6;		/* UserRequest */
		cs.old_thread_wait_mode = 1;		/* UserMode */
	} else {
		cs.old_thread_state = 5;		/* Waiting, Executive */
	}
	NT_KEVENT(NTR_SR_CSWITCH, 0, 0, 0, cswitch, &cs);
}

static void nt_probe_wakeup(void *data, struct task_struct *p)
{
	struct ntr_sr_ready r = { .thread_id = p->pid };

	NT_KEVENT(NTR_SR_READY_THREAD, 0, 0, 0, ready, &r);
}

static const struct nt_khook nt_cswitch_hooks[] = {
	NT_KHOOK(sched_switch, nt_probe_switch),
};

static const struct nt_khook nt_dispatcher_hooks[] = {
	NT_KHOOK(sched_wakeup, nt_probe_wakeup),
	NT_KHOOK(sched_wakeup_new, nt_probe_wakeup),
};

const struct nt_ksource nt_ks_cswitch = {
	.name = "CSWITCH",
	.flag = NTTRACE_EVENT_TRACE_FLAG_CSWITCH,
	.hooks = nt_cswitch_hooks,
	.nr_hooks = ARRAY_SIZE(nt_cswitch_hooks),
};

const struct nt_ksource nt_ks_dispatcher = {
	.name = "DISPATCHER",
	.flag = NTTRACE_EVENT_TRACE_FLAG_DISPATCHER,
	.hooks = nt_dispatcher_hooks,
	.nr_hooks = ARRAY_SIZE(nt_dispatcher_hooks),
};
