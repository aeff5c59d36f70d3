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
#include <linux/string.h>

#include "ksource.h"
#include "ring.h"
#include "session.h"
#include "stack.h"
#include "sysrec.h"
#include "trace.h"
#include "write.h"

/* Kernel events larger than a system logger's buffers (nt_sys_emit()). */
static atomic64_t nt_sys_dropped = ATOMIC64_INIT(0);

/* The StackWalk event's record, for nt_sys_stack(). */
static void nt_stack_fill(void *rec, u32 len, u64 time_stamp, u32 clock_type, void *ctx)
{
	const struct ntr_sr_header h = {
		.hook_id = NTR_SR_STACKWALK,
		.version = 2,
		.kind = NTR_SR_PERFINFO,
		.time_stamp = time_stamp,
	};

	ntr_sr_header_write(rec, len, &h);
	ntr_sr_stack_write((u8 *)rec + ntr_sr_header_size(NTR_SR_PERFINFO), len - 0x10, ctx,
			   false);
}

/*
 * The StackWalk event of the event of @hook just written into slot @id
 * with time stamp @ts: @st's frames, the kernel's only if the session
 * may hold kernel addresses. Preemption is off (the caller's): the same
 * ring, right after the event but for an interrupt's events between.
 */
static void nt_sys_stack(u32 id, u16 hook, u64 ts, const struct nt_stack *st)
{
	struct nttrace_reservation res;
	struct ntr_sr_stack s = {
		.event_time_stamp = ts,
		.stack_process = st->pid,
		.stack_thread = st->tid,
	};
	bool kaddr = nt_system_slot_wants(id, 0, 0, 1);
	void *rec;
	u32 len;

	s.frames = st->frames + (kaddr ? 0 : st->nr_kernel);
	s.nr = st->nr - (kaddr ? 0 : st->nr_kernel);
	len = ntr_sr_record_size(NTR_SR_PERFINFO, ntr_sr_stack_size(&s, false));
	rec = nt_reserve_rules(id, len, &res, NT_WRITE_KERNEL);
	if (IS_ERR(rec))
		return;
	/* The session the reservation found is the one to ask. */
	if (!res.session->system || res.session->kaddr != kaddr ||
	    !nt_session_stack_wanted(res.session, hook)) {
		nttrace_discard(&res);
		return;
	}
	nt_stack_fill(rec, len, res.time_stamp, res.ring->conf->clock_type, &s);
	if (trace_nttrace_write_enabled())
		nt_write_trace_kernel(res.session, rec, len);
	nttrace_commit(&res);
}

void nt_sys_emit_stack(int kaddr, unsigned int word, u32 bit, u32 only, u32 len,
		       nt_sys_fill_t fill, void *ctx, u16 hook, const struct nt_stack *st)
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
		bool stack;
		void *rec;
		u64 ts;

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
		fill(rec, len, res.time_stamp, res.ring->conf->clock_type, ctx);
		if (trace_nttrace_write_enabled())
			nt_write_trace_kernel(res.session, rec, len);
		stack = st && nt_session_stack_wanted(res.session, hook);
		ts = res.time_stamp;
		nttrace_commit(&res);
		if (stack)
			nt_sys_stack(id, hook, ts, st);
	}
}

bool nt_sys_wanted(unsigned int word, u32 bit)
{
	u64 slots = nt_system_slots();

	while (slots) {
		u32 id = __ffs64(slots) + 1;

		slots &= slots - 1;
		if (nt_system_slot_wants(id, word, bit, -1))
			return true;
	}
	return false;
}

void nt_sys_emit_to(int kaddr, unsigned int word, u32 bit, u32 only, u32 len,
		    nt_sys_fill_t fill, void *ctx)
{
	nt_sys_emit_stack(kaddr, word, bit, only, len, fill, ctx, 0, NULL);
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

/*
 * Where a payload holds a time of its own (HardFault's InitialTime, when
 * the fault began), its source writes it in ktime_get_mono_fast_ns()'s
 * nanoseconds and each session gets it in its clock: the payload's
 * offset of that 64-bit field, or -1.
 */
static int nt_kev_time_at(u16 hook_id)
{
	return hook_id == NTR_SR_HARD_FAULT ? NTR_SR_HARDFAULT_INITIAL_TIME : -1;
}

static void nt_kev_fill(void *rec, u32 len, u64 time_stamp, u32 clock_type, void *ctx)
{
	struct nt_kev *k = ctx;
	u8 *payload = (u8 *)rec + ntr_sr_header_size(k->e->kind);
	int at = nt_kev_time_at(k->e->hook_id);

	k->h.time_stamp = time_stamp;
	ntr_sr_header_write(rec, len, &k->h);
	k->write(payload, k->payload, k->obj);
	if (at >= 0 && at + sizeof(u64) <= k->payload) {
		__le64 t;

		memcpy(&t, payload + at, sizeof(t));
		t = cpu_to_le64(nt_clock_at(clock_type, time_stamp, le64_to_cpu(t)));
		memcpy(payload + at, &t, sizeof(t));
	}
}

void nt_kevent_regs(int kaddr, const struct ntr_sr_event *e, u32 tid, u32 pid, u32 only,
		    nt_ksize_t size, nt_kwrite_t write, const void *obj, struct pt_regs *regs)
{
	struct nt_stack *st = NULL;
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
	if (!nt_stack_hook_wanted(e->hook_id)) {
		nt_sys_emit_to(kaddr, 0, e->enable_flag, only, len, nt_kev_fill, &k);
		return;
	}
	/* The stack is taken once, on this CPU, for every session. */
	preempt_disable();
	st = nt_stack_get();
	if (st)
		nt_stack_capture(st, regs);
	nt_sys_emit_stack(kaddr, 0, e->enable_flag, only, len, nt_kev_fill, &k, e->hook_id, st);
	preempt_enable();
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
