// SPDX-License-Identifier: GPL-2.0
/*
 * CPU samples for the system loggers (EVENT_TRACE_FLAG_PROFILE): a
 * PerfInfo SampledProfile event (common/sysrec.h) each profile interval
 * on every online CPU, saying which instruction and which thread the CPU
 * was running, user code, kernel code or the idle loop (thread 0, as
 * Windows' idle threads are).
 *
 * The clock is the kernel's own sampling machinery: one perf event per
 * CPU of the software cpu-clock (the hrtimer perf itself uses for
 * `perf record -e cpu-clock`), created with
 * perf_event_create_kernel_counter() and an overflow handler of ours
 * that writes the sample where perf would write its own. Its handler runs
 * in the hrtimer's hard interrupt, with the interrupted registers: where
 * nt_sys_emit() may write (any context but NMI). The hardware counters'
 * overflows come in NMI, where the rings may not be written: they are no
 * source here.
 *
 * The events exist while some system logger wants PROFILE: a CPU-hotplug
 * state (CPUHP_AP_ONLINE_DYN), set up when the first one wants it and
 * removed when the last one stops, creates each online CPU's event and
 * releases it when the CPU goes offline.
 *
 * The interval is the machine's one setting (NTTRACE_IOC_PROFILE), in
 * 100 ns units; a change reaches the running events by perf_event_period()
 * and is said by a SetInterval event. CollectionStart and CollectionEnd
 * open and close each system logger's sampling, as Windows writes them,
 * from its start and stop (the rundown of this source).
 *
 * Kernel addresses: a sample that interrupted the kernel carries its
 * kernel instruction pointer into the system loggers whose readers may
 * see kernel addresses (struct nt_session's kaddr), and 0 into the
 * others (nt_sys_emit_to()).
 *
 * What Linux fills where Windows' fields have no twin: Count is 1 (each
 * event one sample); the flags say ISR for a sample that interrupted a
 * hard interrupt handler and DPC for one in a softirq (Linux's deferred
 * work, as a DPC is Windows'), and carry the thread's priority
 * (nt_win_priority()).
 */
#include <linux/cpuhotplug.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sched.h>

#include "kernel_logger.h"
#include "ksource.h"
#include "policy.h"

NT_KCLASS(sample)
NT_KCLASS(profile_interval)

/* The one source, and its name in the interval events. */
static const char nt_timer_name[] = "Timer";

static DEFINE_PER_CPU(struct perf_event *, nt_profile_event);
/* Guards nt_profile_state and the interval's changes. */
static DEFINE_MUTEX(nt_profile_lock);
/* The dynamic CPU-hotplug state while sampling runs, else 0. */
static int nt_profile_state;
/* In 100 ns units; read without the lock by the hotplug callbacks. */
static u32 nt_profile_interval = NTTRACE_PROFILE_INTERVAL_DEFAULT;

/* SampledProfile's table entry, looked up once. */
static const struct ntr_sr_event *nt_sample_event;

static void nt_profile_overflow(struct perf_event *event, struct perf_sample_data *data,
				struct pt_regs *regs)
{
	const struct ntr_sr_event *e = READ_ONCE(nt_sample_event);
	struct task_struct *t = current;
	struct ntr_sr_sample s = {
		.instruction_pointer = instruction_pointer(regs),
		.thread_id = t->pid,
		.count = 1,
		.flags = nt_win_priority(t) << NTR_SR_SAMPLE_PRIORITY_SHIFT,
	};

	/*
	 * The handler runs in the timer's hard interrupt: one level of hard
	 * interrupt is ours, a second the code the timer interrupted.
	 */
	if (hardirq_count() > HARDIRQ_OFFSET)
		s.flags |= NTR_SR_SAMPLE_ISR;
	else if (in_serving_softirq())
		s.flags |= NTR_SR_SAMPLE_DPC;
	if (unlikely(!e)) {
		e = ntr_sr_event(NTR_SR_SAMPLED_PROFILE);
		WRITE_ONCE(nt_sample_event, e);
	}
	if (user_mode(regs)) {
		nt_kevent_regs(-1, e, 0, 0, 0, nt_ksize_sample, nt_kwrite_sample, &s, regs);
		return;
	}
	nt_kevent_regs(1, e, 0, 0, 0, nt_ksize_sample, nt_kwrite_sample, &s, regs);
	s.instruction_pointer = 0;
	nt_kevent_regs(0, e, 0, 0, 0, nt_ksize_sample, nt_kwrite_sample, &s, regs);
}

static u64 nt_profile_period_ns(u32 interval)
{
	return (u64)interval * 100;
}

static int nt_profile_cpu_online(unsigned int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr),
		.sample_period = nt_profile_period_ns(READ_ONCE(nt_profile_interval)),
		.pinned = 1,
	};
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&attr, cpu, NULL, nt_profile_overflow, NULL);
	if (IS_ERR(ev)) {
		/* The CPU comes up all the same, unsampled, and it is said. */
		pr_warn("nttrace: no cpu-clock perf event on CPU %u (error %ld): its samples are not written\n",
			cpu, PTR_ERR(ev));
		return 0;
	}
	per_cpu(nt_profile_event, cpu) = ev;
	return 0;
}

static int nt_profile_cpu_offline(unsigned int cpu)
{
	struct perf_event *ev = per_cpu(nt_profile_event, cpu);

	if (ev) {
		per_cpu(nt_profile_event, cpu) = NULL;
		/* Removes it from its CPU: no overflow of it runs after. */
		perf_event_release_kernel(ev);
	}
	return 0;
}

static void nt_profile_hooked(bool on)
{
	int state;

	mutex_lock(&nt_profile_lock);
	if (on && !nt_profile_state) {
		state = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "nttrace/profile:online",
					  nt_profile_cpu_online, nt_profile_cpu_offline);
		if (state < 0)
			pr_warn("nttrace: no CPU-hotplug state for sampling (error %d): no CPU samples are written\n",
				state);
		else
			nt_profile_state = state;
	} else if (!on && nt_profile_state) {
		cpuhp_remove_state(nt_profile_state);
		nt_profile_state = 0;
	}
	mutex_unlock(&nt_profile_lock);
}

/* CollectionStart (or End) of source 0 into the system logger of @slot. */
static void nt_profile_rundown(u32 slot, bool start)
{
	u32 interval = READ_ONCE(nt_profile_interval);
	struct ntr_sr_profile_interval p = {
		.source = NTTRACE_PROFILE_SOURCE_TIMER,
		.new_interval = interval,
		.old_interval = interval,
		.source_name = { nt_timer_name, sizeof(nt_timer_name) - 1 },
	};

	NT_KEVENT_OF(start ? NTR_SR_PROFILE_COLLECTION_START : NTR_SR_PROFILE_COLLECTION_END,
		     current->pid, current->tgid, slot, profile_interval, &p);
}

int nt_kernel_logger_profile(struct nttrace_profile *p)
{
	struct ntr_sr_profile_interval ev = {
		.source = NTTRACE_PROFILE_SOURCE_TIMER,
		.source_name = { nt_timer_name, sizeof(nt_timer_name) - 1 },
	};
	unsigned int cpu;

	if ((p->flags & ~NTTRACE_PROFILE_SET) || p->source != NTTRACE_PROFILE_SOURCE_TIMER)
		return -EINVAL;
	p->min_interval = NTTRACE_PROFILE_INTERVAL_MIN;
	p->max_interval = NTTRACE_PROFILE_INTERVAL_MAX;
	if (!(p->flags & NTTRACE_PROFILE_SET)) {
		p->interval = READ_ONCE(nt_profile_interval);
		return 0;
	}
	if (p->interval < NTTRACE_PROFILE_INTERVAL_MIN ||
	    p->interval > NTTRACE_PROFILE_INTERVAL_MAX)
		return -EINVAL;
	if (!nt_privileged_system())
		return -EPERM;
	mutex_lock(&nt_profile_lock);
	ev.old_interval = nt_profile_interval;
	ev.new_interval = p->interval;
	WRITE_ONCE(nt_profile_interval, p->interval);
	if (nt_profile_state) {
		/* No CPU comes or goes meanwhile: each event is there or not. */
		cpus_read_lock();
		for_each_online_cpu(cpu) {
			struct perf_event *e = per_cpu(nt_profile_event, cpu);

			if (e)
				perf_event_period(e, nt_profile_period_ns(p->interval));
		}
		cpus_read_unlock();
	}
	mutex_unlock(&nt_profile_lock);
	NT_KEVENT(NTR_SR_PROFILE_SET_INTERVAL, current->pid, current->tgid, 0,
		  profile_interval, &ev);
	return 0;
}

const struct nt_ksource nt_ks_profile = {
	.name = "PROFILE",
	.flag = NTTRACE_EVENT_TRACE_FLAG_PROFILE,
	.rundown = nt_profile_rundown,
	.hooked = nt_profile_hooked,
};
