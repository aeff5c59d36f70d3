// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own events for the system loggers: which sources are
 * hooked, and their rundowns (see kernel_logger.h and ksource.h).
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
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "kernel_logger.h"
#include "ksource.h"
#include "session.h"

/*
 * The rundowns run in this order: the counters' PerfCtrRundown before the
 * Process rundown's DCEnd, as Windows writes them.
 */
static const struct nt_ksource *const nt_ksources[] = {
	&nt_ks_counters,
	&nt_ks_process,
	&nt_ks_thread,
	&nt_ks_image,
	&nt_ks_cswitch,
	&nt_ks_dispatcher,
	&nt_ks_config,
	&nt_ks_disk_io,
	&nt_ks_disk_io_init,
	&nt_ks_tcpip,
	&nt_ks_profile,
	&nt_ks_syscall,
	&nt_ks_valloc,
	&nt_ks_fault,
	&nt_ks_fileio,
	&nt_ks_filename,
};

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

		/* Hooked: its tracepoints, or what its hooked() callback makes. */
		if (!src || (!src->nr_hooks && !src->hooked))
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

/* The exit callbacks of the first @n sources, in the reverse order. */
static void nt_ksources_exit(unsigned int n)
{
	while (n--)
		if (nt_ksources[n] && nt_ksources[n]->exit)
			nt_ksources[n]->exit();
}

int nt_kernel_logger_init(void)
{
	unsigned int i;
	int err;

	nt_kernel_key_init();
	for (i = 0; i < ARRAY_SIZE(nt_ksources); i++) {
		if (!nt_ksources[i] || !nt_ksources[i]->init)
			continue;
		err = nt_ksources[i]->init();
		if (err) {
			nt_ksources_exit(i);
			return err;
		}
	}
	return 0;
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
	nt_ksources_exit(ARRAY_SIZE(nt_ksources));
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
