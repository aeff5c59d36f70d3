// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own events for the system loggers: which sources are
 * hooked, and their rundowns (see module/kernel_logger.h).
 *
 * A source is hooked while the union of the running system loggers' group
 * masks has its bit, and only then: with no system logger, no tracepoint
 * of Linux has a probe of ours, and costs what a disabled tracepoint costs
 * (a static branch). The tracepoints are found by name
 * (for_each_kernel_tracepoint()) and hooked with
 * tracepoint_probe_register(), as lttng-modules does: the core kernel
 * exports few of them by symbol (register_trace_NAME() needs the
 * tracepoint's symbol). Each probe's prototype is checked against its
 * tracepoint's when the module is built (NT_KHOOK()), so that a kernel
 * whose tracepoint changed its arguments fails to build instead of
 * calling the probe with the wrong ones. A tracepoint this kernel lacks
 * leaves its source without those events, said once in the kernel log
 * when the source is hooked.
 */
#include <kunit/visibility.h>
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/siphash.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "kernel_logger.h"
#include "session.h"
#include "sysrec.h"

static const struct nt_ksource *const nt_ksources[] = {
	&nt_ks_process,
	&nt_ks_thread,
	&nt_ks_image,
	&nt_ks_cswitch,
	&nt_ks_dispatcher,
	&nt_ks_config,
	&nt_ks_disk_io,
	&nt_ks_disk_io_init,
	&nt_ks_tcpip,
};

static siphash_key_t nt_ptr_key;

u64 nt_kernel_key(const void *ptr)
{
	return siphash_1u64((u64)(uintptr_t)ptr, &nt_ptr_key);
}
EXPORT_SYMBOL_IF_KUNIT(nt_kernel_key);

struct nt_kev {
	const struct ntr_sr_event *e;
	struct ntr_sr_header h;
	nt_kwrite_t write;
	const void *obj;
	u32 payload;
};

static void nt_kev_fill(void *rec, u32 len, u64 time_stamp, void *ctx)
{
	struct nt_kev *k = ctx;

	k->h.time_stamp = time_stamp;
	ntr_sr_header_write(rec, len, &k->h);
	k->write((u8 *)rec + ntr_sr_header_size(k->e->kind), k->payload, k->obj);
}

void nt_kevent(const struct ntr_sr_event *e, u32 tid, u32 pid, u32 only, nt_ksize_t size,
	       nt_kwrite_t write, const void *obj)
{
	struct nt_kev k;
	u32 len;

	if (WARN_ON_ONCE(!e))
		return;
	k.payload = size(obj);
	len = ntr_sr_record_size(e->kind, k.payload);
	/* Too big for any record: nt_sys_emit() counts and says it. */
	if (!k.payload || !len)
		len = U32_MAX;
	k.e = e;
	k.write = write;
	k.obj = obj;
	k.h = (struct ntr_sr_header) {
		.hook_id = e->hook_id,
		.version = e->version,
		.kind = e->kind,
		.thread_id = tid,
		.process_id = pid,
	};
	/* The thread's times in ticks, as SYSTEM_TRACE_HEADER counts them. */
	if (e->kind == NTR_SR_FULL) {
		k.h.kernel_time = (u32)nsecs_to_jiffies64(READ_ONCE(current->stime));
		k.h.user_time = (u32)nsecs_to_jiffies64(READ_ONCE(current->utime));
	}
	nt_sys_emit(0, e->enable_flag, only, len, nt_kev_fill, &k);
}

s8 nt_win_priority(const struct task_struct *t)
{
	int prio = READ_ONCE(t->prio);

	if (!t->pid)
		return 0;
	if (prio < MAX_RT_PRIO)
		return 16 + (MAX_RT_PRIO - 1 - prio) * 15 / (MAX_RT_PRIO - 1);
	prio = clamp(prio - MAX_RT_PRIO, 0, NICE_WIDTH - 1);
	return 15 - prio * 14 / (NICE_WIDTH - 1);
}

/* Guards nt_hooked: one update at a time. */
static DEFINE_MUTEX(nt_klog_lock);
static DECLARE_BITMAP(nt_hooked, ARRAY_SIZE(nt_ksources));

struct nt_tp_find {
	const char *name;
	struct tracepoint *tp;
};

static void nt_tp_match(struct tracepoint *tp, void *priv)
{
	struct nt_tp_find *f = priv;

	if (!f->tp && !strcmp(tp->name, f->name))
		f->tp = tp;
}

static struct tracepoint *nt_tp_find(const char *name)
{
	struct nt_tp_find f = { .name = name };

	for_each_kernel_tracepoint(nt_tp_match, &f);
	return f.tp;
}

static void nt_ksource_hook(const struct nt_ksource *src, bool on)
{
	unsigned int i;

	if (on && src->hooked)
		src->hooked(true);
	for (i = 0; i < src->nr_hooks; i++) {
		const struct nt_khook *h = &src->hooks[i];
		struct tracepoint *tp = nt_tp_find(h->tracepoint);
		int err;

		if (!tp) {
			if (on)
				pr_info("nttrace: no tracepoint %s in this kernel: the %s events it gives are not written\n",
					h->tracepoint, src->name);
			continue;
		}
		if (on)
			err = tracepoint_probe_register(tp, h->probe, (void *)src);
		else
			err = tracepoint_probe_unregister(tp, h->probe, (void *)src);
		if (err)
			pr_warn("nttrace: %s the probe of %s: error %d\n",
				on ? "cannot register" : "cannot unregister",
				h->tracepoint, err);
	}
	if (!on && src->hooked) {
		/* Its probes may still run on other CPUs until this returns. */
		tracepoint_synchronize_unregister();
		src->hooked(false);
	}
}

void nt_kernel_logger_update(void)
{
	u32 mask[NTTRACE_GROUP_MASKS];
	unsigned int i;

	mutex_lock(&nt_klog_lock);
	nt_system_groups(mask);
	for (i = 0; i < ARRAY_SIZE(nt_ksources); i++) {
		const struct nt_ksource *src = nt_ksources[i];
		bool want;

		if (!src || !src->nr_hooks)
			continue;
		want = mask[src->word] & src->flag;
		if (want == test_bit(i, nt_hooked))
			continue;
		nt_ksource_hook(src, want);
		__assign_bit(i, nt_hooked, want);
	}
	mutex_unlock(&nt_klog_lock);
}

void nt_kernel_logger_rundown(u32 slot, const u32 *mask, bool start)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(nt_ksources); i++) {
		const struct nt_ksource *src = nt_ksources[i];

		if (!src || !src->rundown)
			continue;
		if (src->flag ? READ_ONCE(mask[src->word]) & src->flag :
		    start && !(READ_ONCE(mask[0]) & NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG))
			src->rundown(slot, start);
	}
}

int nt_kernel_logger_init(void)
{
	get_random_bytes(&nt_ptr_key, sizeof(nt_ptr_key));
	return nt_kl_process_init();
}

void nt_kernel_logger_exit(void)
{
	unsigned int i;

	mutex_lock(&nt_klog_lock);
	for (i = 0; i < ARRAY_SIZE(nt_ksources); i++) {
		if (test_bit(i, nt_hooked)) {
			nt_ksource_hook(nt_ksources[i], false);
			__clear_bit(i, nt_hooked);
		}
	}
	mutex_unlock(&nt_klog_lock);
	/* No probe of ours runs once this returns: the module may go. */
	tracepoint_synchronize_unregister();
	nt_kl_process_exit();
}

/* The group_mask[0] bits some source writes (NTTRACE_IOC_VERSION: system_flags). */
u32 nt_kernel_logger_flags(void)
{
	u32 flags = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(nt_ksources); i++)
		if (nt_ksources[i] && !nt_ksources[i]->word)
			flags |= nt_ksources[i]->flag;
	return flags;
}
EXPORT_SYMBOL_IF_KUNIT(nt_kernel_logger_flags);
