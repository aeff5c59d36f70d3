// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU rings of trace buffers. Every buffer is a WMI_BUFFER_HEADER and
 * 8-byte-aligned records; a published buffer has its unused tail filled
 * with NTTRACE_WMI_BUFFER_FILL, so it can go into an ETL file as it is.
 *
 * Accounting, per ring: every committed event is in a buffer that is
 * either still unread, or released by the holders (read), or counted in
 * head->events_overwritten; an event that finds no room is counted in
 * head->events_lost and never written. For each real-time consumer, every
 * buffer is read by it or counted in its ack's buffers_lost (and its
 * events in events_lost).
 */
#include <kunit/visibility.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/timex.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#include "record.h"
#include "ring.h"
#include "trace.h"

/* 100 ns intervals from 1601-01-01 to 1970-01-01. */
#define NTTRACE_FILETIME_UNIX_EPOCH	116444736000000000ULL

u64 nt_clock_now(u32 clock_type)
{
	switch (clock_type) {
	case NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME:
		return div_u64(ktime_get_real_fast_ns(), 100) + NTTRACE_FILETIME_UNIX_EPOCH;
	case NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE:
		return get_cycles();
	default:
		return ktime_get_mono_fast_ns();
	}
}
EXPORT_SYMBOL_IF_KUNIT(nt_clock_now);

u64 nt_clock_at(u32 clock_type, u64 now, u64 mono_ns)
{
	u64 mono_now = ktime_get_mono_fast_ns();
	u64 ago = mono_now > mono_ns ? mono_now - mono_ns : 0;

	switch (clock_type) {
	case NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME:
		ago = div_u64(ago, 100);
		break;
	case NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE:
		/* ns * kHz / 10^6; a clock of unknown frequency was refused. */
		ago = mul_u64_u32_div(ago, (u32)div_u64(nt_clock_frequency(clock_type), 1000),
				      1000000);
		break;
	default:
		return mono_ns;
	}
	return now > ago ? now - ago : 0;
}
EXPORT_SYMBOL_IF_KUNIT(nt_clock_at);

u64 nt_clock_frequency(u32 clock_type)
{
	switch (clock_type) {
	case NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME:
		return 10000000;
	case NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE:
#ifdef CONFIG_X86
		return (u64)tsc_khz * 1000;
#else
		/* No known cycle-counter frequency: the clock is refused. */
		return 0;
#endif
	default:
		return NSEC_PER_SEC;
	}
}
EXPORT_SYMBOL_IF_KUNIT(nt_clock_frequency);

static struct nttrace_wmi_buffer_header *nt_ring_buffer(struct nt_ring *r, u64 idx)
{
	return (struct nttrace_wmi_buffer_header *)
		(r->data + (size_t)(idx % r->conf->nbuf) * r->conf->bufsize);
}

/*
 * The flush timer: one per ring, pinned to the ring's CPU, armed when a
 * buffer is started (and not already pending), so that it publishes the
 * ring's partly filled buffer on its own CPU, with interrupts off as a
 * producer would, no later than FlushTimer after its first event. No CPU
 * is called by another (as a session-wide work item would, with an IPI
 * every period to each CPU with a partly filled buffer), and a CPU that
 * writes nothing is never woken. lttng-modules keeps a timer
 * per CPU the same way; unlike its deferrable one, ours may wake an idle
 * CPU, once per buffer it started, since FlushTimer is the latency
 * real-time consumers are promised.
 */
static void nt_ring_flush_timer(struct timer_list *t)
{
	struct nt_ring *r = from_timer(r, t, flush_timer);
	struct nt_ring_lock *shared = r->conf->shared;
	unsigned long irq;

	local_irq_save(irq);
	if (shared) {
		/* A shared ring is armed by any CPU, and flushed from any. */
		nt_ring_lock(shared);
		nt_ring_flush(r);
		nt_ring_unlock(shared);
	} else if (smp_processor_id() == r->cpu) {
		/*
		 * A timer of a CPU going down is moved to another one: the
		 * ring's buffer was published when its CPU went
		 * (nt_sessions_cpu_offline), and its producer state is not
		 * ours to touch from here.
		 */
		nt_ring_flush(r);
	}
	local_irq_restore(irq);
}

void nt_ring_lock_init(struct nt_ring_lock *l)
{
	raw_spin_lock_init(&l->lock);
	l->owner = -1;
	l->depth = 0;
}
EXPORT_SYMBOL_IF_KUNIT(nt_ring_lock_init);

void nt_ring_lock(struct nt_ring_lock *l)
{
	int cpu = smp_processor_id();

	lockdep_assert_irqs_disabled();
	/*
	 * Only this CPU writes its own number here, and only while it holds
	 * the lock, with interrupts off: seeing it, we are nested in that
	 * hold (a tracepoint hit while the holder copies) and go on under it.
	 */
	if (READ_ONCE(l->owner) != cpu) {
		raw_spin_lock(&l->lock);
		WRITE_ONCE(l->owner, cpu);
	}
	l->depth++;
}
EXPORT_SYMBOL_IF_KUNIT(nt_ring_lock);

void nt_ring_unlock(struct nt_ring_lock *l)
{
	lockdep_assert_irqs_disabled();
	if (--l->depth)
		return;
	WRITE_ONCE(l->owner, -1);
	raw_spin_unlock(&l->lock);
}
EXPORT_SYMBOL_IF_KUNIT(nt_ring_unlock);

/* On the ring's CPU (or holding the shared ring), interrupts off: a buffer was just started. */
static void nt_ring_arm_timer(struct nt_ring *r)
{
	unsigned long period = READ_ONCE(r->conf->flush_jiffies);

	if (period && !timer_pending(&r->flush_timer))
		mod_timer(&r->flush_timer, jiffies + period);
}

/* No producer runs any more: none can arm the timer again. */
void nt_ring_stop_timer(struct nt_ring *r)
{
	timer_delete_sync(&r->flush_timer);
}
EXPORT_SYMBOL_IF_KUNIT(nt_ring_stop_timer);

int nt_ring_init(struct nt_ring *r, struct nt_ring_conf *conf,
		 unsigned int cpu, struct nttrace_ring_head *head,
		 struct nttrace_ring_ack *ack, u8 *data)
{
	memset(r, 0, sizeof(*r));
	timer_setup(&r->flush_timer, nt_ring_flush_timer, TIMER_PINNED);
	r->slot_events = kcalloc(conf->nbuf, sizeof(*r->slot_events), GFP_KERNEL);
	if (!r->slot_events)
		return -ENOMEM;
	r->conf = conf;
	r->cpu = cpu;
	r->head = head;
	r->ack = ack;
	r->data = data;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nt_ring_init);

void nt_ring_destroy(struct nt_ring *r)
{
	nt_ring_stop_timer(r);
	kfree(r->slot_events);
	r->slot_events = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(nt_ring_destroy);

/*
 * Advance released to where every holder has read, believing an ack only
 * within [released, produced]; with no holder, nothing more is released:
 * the ring keeps what it holds for the next consumer.
 */
static u64 nt_ring_release(struct nt_ring *r)
{
	unsigned long holders = r->rd.holders;
	u64 low = r->produced;
	unsigned int k;

	if (!holders)
		return r->released;
	for_each_set_bit(k, &holders, NTTRACE_MAX_CONSUMERS) {
		/*
		 * Pairs with the consumer's store-release (logger) or
		 * compare-and-swap (real-time) of ack->consumed: its reads of
		 * the buffers it acknowledges are done before we reuse them.
		 */
		u64 c = smp_load_acquire(&nt_ring_ack(r, k)->consumed);

		if (c < r->released || c > r->produced)
			c = r->released;
		low = min(low, c);
	}
	WRITE_ONCE(r->released, max(r->released, low));
	return r->released;
}

static void nt_ring_count(u64 *counter, u64 n)
{
	WRITE_ONCE(*counter, *counter + n);
}

/*
 * Buffer @victim's slot is about to be reused: take it from every
 * real-time consumer that has not read it, counting it lost for each.
 */
static void nt_ring_take(struct nt_ring *r, u64 victim)
{
	unsigned long realtime = r->rd.realtime;
	u32 events = r->slot_events[victim % r->conf->nbuf];
	unsigned int k;

	for_each_set_bit(k, &realtime, NTTRACE_MAX_CONSUMERS) {
		struct nttrace_ring_ack *ack = nt_ring_ack(r, k);
		/*
		 * Pairs with the consumer's compare-and-swap of consumed
		 * past @victim: if we see it, its copy was done before we
		 * write into the buffer.
		 */
		u64 c = smp_load_acquire(&ack->consumed);
		/*
		 * A consumer swaps only from the position it read, one
		 * buffer (a copy of it) at a time, so an honest one fails a
		 * swap of ours once, rarely twice. One that rewrites the
		 * word as fast as we try could hold us here
		 * with interrupts off: after a few tries the buffer counts as
		 * lost to it all the same (only such a consumer can then
		 * read a torn copy).
		 */
		unsigned int tries = 4;

		/*
		 * Fully ordered: a consumer's swap from @victim, after its
		 * copy, fails once we are here, and our writes into the
		 * buffer come after it.
		 */
		while (c <= victim && tries-- &&
		       !try_cmpxchg(&ack->consumed, &c, victim + 1))
			;
		if (c > victim)
			continue;
		nt_ring_count(&ack->buffers_lost, 1);
		nt_ring_count(&ack->events_lost, events);
		nt_ring_count(&r->head->real_time_buffers_lost, 1);
		trace_nttrace_buffers_lost(r->conf->logger_id, r->cpu, events);
	}
}

/* A fresh buffer's header (common/record.c). */
static void nt_ring_open_buffer(struct nt_ring *r, void *buf)
{
	const struct nt_ring_conf *conf = r->conf;
	const struct ntr_buffer_conf c = {
		.buffer_size = conf->bufsize,
		.clock_type = conf->clock_type,
		.frequency = nt_clock_frequency(conf->clock_type),
		.logger_id = conf->logger_id,
		.start_time = conf->start_time,
		.start_perf_clock = conf->start_perf,
	};

	ntr_buffer_open(buf, &c, r->cpu);
}

/* Take the next slot as the current buffer; false if the ring is full. */
static bool nt_ring_start(struct nt_ring *r)
{
	const struct nt_ring_conf *conf = r->conf;
	u64 idx = r->produced;

	if (idx - nt_ring_release(r) >= conf->nbuf) {
		u64 victim = idx - conf->nbuf;	/* == released: the oldest unread */

		if (!conf->overwrite)
			return false;
		nt_ring_count(&r->head->events_overwritten,
			      r->slot_events[victim % conf->nbuf]);
		nt_ring_count(&r->head->buffers_overwritten, 1);
		r->lost_flags |= NTTRACE_WMI_BUFFER_FLAG_BUFFER_LOST;
		WRITE_ONCE(r->released, victim + 1);
	}
	if (idx >= conf->nbuf) {
		u64 victim = idx - conf->nbuf;

		nt_ring_take(r, victim);
		r->oldest = victim + 1;
		WRITE_ONCE(r->head->oldest, r->oldest);
		/*
		 * Pairs with the read barrier a logger issues after copying a
		 * buffer and before rereading head->oldest: if it saw any byte
		 * we write below, it sees the new oldest and drops its copy.
		 */
		smp_wmb();
	}

	r->cur = (u8 *)nt_ring_buffer(r, idx);
	nt_ring_open_buffer(r, r->cur);
	nt_ring_arm_timer(r);
	WRITE_ONCE(r->offset, NTTRACE_WMI_BUFFER_HEADER_SIZE);
	r->cur_events = 0;
	/* nt_ring_has_partial() reads these two from other CPUs. */
	WRITE_ONCE(r->cur_valid, true);
	return true;
}

/* Seal the current buffer and hand it to the consumer. */
static void nt_ring_publish(struct nt_ring *r)
{
	struct nt_ring_conf *conf = r->conf;

	/*
	 * A loss is marked on the buffer that follows it in this CPU's
	 * stream: an event lost while no buffer is current on the one that
	 * starts next, one lost while this buffer was current (an
	 * interrupt's, see nt_ring_reserve()) on the one after it; a buffer
	 * overwritten is older than the one taking its slot.
	 */
	ntr_buffer_seal(r->cur, r->offset, nt_clock_now(conf->clock_type),
			atomic64_inc_return(&conf->buffer_seq) - 1, r->lost_flags);
	r->lost_flags = r->lost_next;
	r->lost_next = 0;
	r->slot_events[r->produced % conf->nbuf] = r->cur_events;
	WRITE_ONCE(r->cur_valid, false);
	r->produced++;
	/*
	 * Pairs with the consumer's load-acquire of head->produced: the whole
	 * buffer is written before it can be seen as published.
	 */
	smp_store_release(&r->head->produced, r->produced);
	if (conf->wake)
		irq_work_queue(conf->wake);
}

void *nt_ring_reserve(struct nt_ring *r, u32 len)
{
	u32 alen = ALIGN(len, 8);
	u8 *p;

	lockdep_assert_irqs_disabled();
	if (WARN_ON_ONCE(!len || len > nt_ring_max_record(r->conf)))
		return NULL;
	if (r->cur_valid && r->offset + alen > r->conf->bufsize) {
		/*
		 * The buffer is full, but the record an interrupted writer
		 * of this CPU is copying is in it: it cannot be published
		 * yet, nor a second one started. Rare (an interrupt's event
		 * at the end of a buffer, in the copy of another): lost, and
		 * counted as such.
		 */
		if (r->nest)
			goto lost;
		nt_ring_publish(r);
	}
	if (!r->cur_valid && !nt_ring_start(r))
		goto lost;
	p = r->cur + r->offset;
	WRITE_ONCE(r->offset, r->offset + alen);
	r->nest++;
	/* Zero the padding; the caller writes the first len bytes. */
	memset(p + alen - 8, 0, 8);
	return p;
lost:
	nt_ring_count(&r->head->events_lost, 1);
	trace_nttrace_events_lost(r->conf->logger_id, r->cpu, len);
	/* Marked on the buffer after the loss: the next one to start. */
	if (r->cur_valid)
		r->lost_next |= NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST;
	else
		r->lost_flags |= NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(nt_ring_reserve);

void nt_ring_commit(struct nt_ring *r)
{
	lockdep_assert_irqs_disabled();
	r->nest--;
	r->cur_events++;
	nt_ring_count(&r->head->events_written, 1);
}
EXPORT_SYMBOL_IF_KUNIT(nt_ring_commit);

void nt_ring_discard(struct nt_ring *r, void *rec, u32 len)
{
	u32 start = (u8 *)rec - r->cur, end = start + ALIGN(len, 8);

	lockdep_assert_irqs_disabled();
	/*
	 * Records written after it by interrupts of this CPU, all committed
	 * (an interrupt's writer ends before the interrupted one goes on),
	 * move down over it: the buffer is not published, nobody reads it
	 * yet, and a record never leaves a hole a reader would have to skip.
	 */
	if (end < r->offset)
		memmove(r->cur + start, r->cur + end, r->offset - end);
	WRITE_ONCE(r->offset, r->offset - (end - start));
	r->nest--;
}
EXPORT_SYMBOL_IF_KUNIT(nt_ring_discard);

bool nt_ring_flush(struct nt_ring *r)
{
	lockdep_assert_irqs_disabled();
	if (!r->cur_valid || r->offset == NTTRACE_WMI_BUFFER_HEADER_SIZE)
		return false;
	/*
	 * We interrupted a writer of this CPU between its reservation and
	 * its commit: the buffer goes as soon as its record is in, by the
	 * ring's timer a jiffy from now (its handler flushes whatever the
	 * FlushTimer is, and comes back while the writer is still at it).
	 */
	if (r->nest) {
		mod_timer(&r->flush_timer, jiffies + 1);
		return false;
	}
	nt_ring_publish(r);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(nt_ring_flush);

bool nt_ring_has_partial(struct nt_ring *r)
{
	/*
	 * Racy by design, from another CPU: an event committed before the
	 * caller asked for a flush is seen (program order on its CPU, or
	 * the caller's own synchronization with the writer); one being
	 * written now may be missed, as it may be by any flush.
	 */
	return READ_ONCE(r->cur_valid) &&
	       READ_ONCE(r->offset) > NTTRACE_WMI_BUFFER_HEADER_SIZE;
}

void nt_ring_set_readers(struct nt_ring *r, const struct nt_ring_readers *rd)
{
	lockdep_assert_irqs_disabled();
	if (rd->join >= 0) {
		struct nttrace_ring_ack *ack = nt_ring_ack(r, rd->join);

		WRITE_ONCE(ack->buffers_lost, 0);
		WRITE_ONCE(ack->events_lost, 0);
		WRITE_ONCE(ack->consumed, max(r->released, r->oldest));
	}
	r->rd = *rd;
	r->rd.join = -1;
}
EXPORT_SYMBOL_IF_KUNIT(nt_ring_set_readers);

u32 nt_ring_unread(struct nt_ring *r, u32 slots)
{
	unsigned long mask = slots;
	u64 produced = READ_ONCE(r->head->produced);
	u64 floor = max(READ_ONCE(r->released), READ_ONCE(r->head->oldest));
	u64 low = mask ? produced : floor;
	unsigned int k;

	/* As nt_ring_release() reads the acks, but without moving anything. */
	for_each_set_bit(k, &mask, NTTRACE_MAX_CONSUMERS) {
		u64 c = READ_ONCE(nt_ring_ack(r, k)->consumed);

		low = min(low, c > produced ? floor : max(c, floor));
	}
	return low < produced ? min_t(u64, produced - low, r->conf->nbuf) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(nt_ring_unread);
