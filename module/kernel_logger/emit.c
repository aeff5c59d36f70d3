// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel logger's emitter: how a source's event becomes a record in
 * the system loggers that want its group (see ksource.h). nt_kevent()
 * builds the SYSTEM_TRACE_HEADER or PERFINFO header around a payload
 * class of common/sysrec.c; nt_sys_emit() finds the system loggers
 * (module/session.c: nt_system_slots(), nt_system_slot_wants()) and
 * writes the record into each by the write path's reservation
 * (nt_reserve_rules(), NT_WRITE_KERNEL), checking once reserved that the
 * slot's session is still a system logger wanting the group.
 */
#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/siphash.h>

#include "ksource.h"
#include "session.h"
#include "sysrec.h"
#include "trace.h"
#include "write.h"

/* Kernel events larger than a system logger's buffers (nt_sys_emit()). */
static atomic64_t nt_sys_dropped = ATOMIC64_INIT(0);

void nt_sys_emit_to(int kaddr, unsigned int word, u32 bit, u32 only, u32 len,
		    nt_sys_fill_t fill, void *ctx)
{
	u64 slots = nt_system_slots();
	struct nttrace_reservation res;

	/* An event of no group (@bit 0) goes only where it is sent. */
	if (!bit && !only)
		return;
	if (only)
		slots &= BIT_ULL(only - 1);
	while (slots) {
		u32 id = __ffs64(slots) + 1;
		void *rec;

		slots &= slots - 1;
		if (!nt_system_slot_wants(id, word, bit, kaddr))
			continue;
		rec = nt_reserve_rules(id, len, &res, NT_WRITE_KERNEL);
		if (IS_ERR(rec)) {
			/* A full ring has counted it lost; too large is ours to count. */
			if (PTR_ERR(rec) == -EMSGSIZE &&
			    atomic64_inc_return(&nt_sys_dropped) == 1)
				pr_warn("nttrace: a kernel event of %u bytes fits no buffer of system logger %u: dropped, and counted in nt_sys_dropped\n",
					len, id);
			continue;
		}
		/*
		 * The slot may have been taken by another session since the
		 * check: the reservation holds off its stop (RCU-sched), so
		 * the session it found is the one to ask.
		 */
		if (!res.session->system ||
		    (bit && !(READ_ONCE(res.session->group_mask[word]) & bit)) ||
		    (kaddr >= 0 && res.session->kaddr != kaddr)) {
			nttrace_discard(&res);
			continue;
		}
		fill(rec, len, res.time_stamp, ctx);
		if (trace_nttrace_write_enabled())
			nt_write_trace_kernel(res.session, rec, len);
		nttrace_commit(&res);
	}
}
EXPORT_SYMBOL_IF_KUNIT(nt_sys_emit_to);

void nt_sys_emit(unsigned int word, u32 bit, u32 only, u32 len,
		 nt_sys_fill_t fill, void *ctx)
{
	nt_sys_emit_to(-1, word, bit, only, len, fill, ctx);
}
EXPORT_SYMBOL_IF_KUNIT(nt_sys_emit);

static siphash_key_t nt_ptr_key;

u64 nt_kernel_key(const void *ptr)
{
	return siphash_1u64((u64)(uintptr_t)ptr, &nt_ptr_key);
}
EXPORT_SYMBOL_IF_KUNIT(nt_kernel_key);

void nt_kernel_key_init(void)
{
	get_random_bytes(&nt_ptr_key, sizeof(nt_ptr_key));
}

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

void nt_kevent_to(int kaddr, const struct ntr_sr_event *e, u32 tid, u32 pid, u32 only,
		  nt_ksize_t size, nt_kwrite_t write, const void *obj)
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
	nt_sys_emit_to(kaddr, 0, e->enable_flag, only, len, nt_kev_fill, &k);
}

void nt_kevent(const struct ntr_sr_event *e, u32 tid, u32 pid, u32 only, nt_ksize_t size,
	       nt_kwrite_t write, const void *obj)
{
	nt_kevent_to(-1, e, tid, pid, only, size, write, obj);
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
