/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CPU's ring of trace buffers. The producer side runs only on the
 * ring's CPU, each of its steps with interrupts off (or while no producer
 * can run, at stop), so it needs no lock and (but to take a buffer from a real-time consumer)
 * no atomic operation; the consumers are user space, reading through the
 * mapping and acknowledging through their ack->consumed (see the protocols
 * in uapi/nttrace.h). A session without per-CPU buffering has one ring
 * that every CPU writes: its producer side is then held through a struct
 * nt_ring_lock instead, and is otherwise the same.
 */
#ifndef NTTRACE_RING_H
#define NTTRACE_RING_H

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <nttrace/uapi.h>

/*
 * The lock of a ring that every CPU writes. A writer holds it, with
 * interrupts off, from its reservation to its commit, so that the ring
 * has one writer at a time, as a CPU's own ring has; so does a flush. A
 * write nested in the holder's on the same CPU (a tracepoint its copy
 * hits, such as a page fault's) goes on under that hold, as an
 * interrupt's writer does on a CPU's own ring: it reserves after the
 * holder and ends before it.
 */
struct nt_ring_lock {
	raw_spinlock_t lock;
	int owner;		/* the CPU holding it, or -1 */
	unsigned int depth;	/* the holds of that CPU */
};

/**
 * nt_ring_lock_init() - an unheld ring lock
 * @l: the lock
 */
void nt_ring_lock_init(struct nt_ring_lock *l);

/**
 * nt_ring_lock() - hold a shared ring's producer side
 * @l: the lock
 *
 * Interrupts off, any context but NMI; spins while another CPU holds it.
 */
void nt_ring_lock(struct nt_ring_lock *l);

/**
 * nt_ring_unlock() - end the hold nt_ring_lock() took
 * @l: the lock
 *
 * Interrupts off, on the CPU that took it.
 */
void nt_ring_unlock(struct nt_ring_lock *l);

/* What all rings of one session share. */
struct nt_ring_conf {
	u32 nbuf;		/* buffers per ring */
	u32 bufsize;		/* bytes per buffer, a multiple of PAGE_SIZE */
	bool overwrite;		/* full ring: overwrite oldest (else drop new) */
	u16 logger_id;
	u32 clock_type;		/* EVENT_TRACE_CLOCK_* */
	u64 start_time;		/* session clock at start */
	u64 start_perf;		/* performance counter at start */
	atomic64_t buffer_seq;	/* next WMI_BUFFER_HEADER SequenceNumber */
	struct irq_work *wake;	/* queued when a buffer is published; may be NULL */
	/*
	 * A partly filled buffer is published at most this long after it was
	 * started (the session's FlushTimer); 0: never by time. Read once
	 * per buffer; the session changes it with WRITE_ONCE().
	 */
	unsigned long flush_jiffies;
	u32 ack_stride;		/* bytes from a consumer slot's acks to the next's */
	struct nt_ring_lock *shared;	/* one ring that every CPU writes; else NULL */
};

/*
 * A ring's consumers, by slot (bit k: slot k, whose ack is nt_ring_ack(r,
 * k)): @readers are attached; @holders, among them, keep buffers until
 * they have read them; @realtime, among them, use the real-time protocol:
 * a buffer they have not read may be taken from them. @join: a slot that
 * has just attached, to start at the oldest buffer not yet released; -1
 * for none.
 */
struct nt_ring_readers {
	u32 readers;
	u32 holders;
	u32 realtime;
	int join;
};

struct nt_ring {
	struct nt_ring_conf *conf;
	unsigned int cpu;
	struct nttrace_ring_head *head;	/* mapped read-only */
	struct nttrace_ring_ack *ack;	/* slot 0's, mapped read-write */
	u8 *data;			/* nbuf buffers, mapped read-only */
	u32 *slot_events;		/* events in the buffer in each slot */

	/* Producer state. */
	u64 produced;		/* our copy of head->produced */
	u64 oldest;		/* our copy of head->oldest */
	u64 released;		/* buffers below are read by every holder */
	struct nt_ring_readers rd;	/* its consumers (join unused) */
	u8 *cur;		/* the current buffer (slot of produced) */
	u32 offset;		/* next free byte of the current buffer */
	u32 cur_events;		/* events in the current buffer */
	/*
	 * Reservations not yet committed or discarded: a writer copies its
	 * data with interrupts on, and an interrupt's writer may reserve
	 * after it (its own is always ended first).
	 */
	u32 nest;
	u16 lost_flags;		/* WMI_BUFFER_FLAG_*_LOST for the next buffer */
	u16 lost_next;		/* ... for the one after (lost while current) */
	bool cur_valid;		/* a current buffer is being filled */
	/* Publishes a partly filled buffer after conf->flush_jiffies. */
	struct timer_list flush_timer;
	/*
	 * Every event writes offset, nest and cur_events: the rings of a
	 * session sit in one array, so each starts a cache line of its own
	 * (else two CPUs' events take the line from each other).
	 */
} ____cacheline_aligned_in_smp;

/**
 * nt_ring_ack() - a consumer slot's acknowledgement for this ring
 * @r: the ring
 * @slot: the consumer slot
 *
 * Return: the slot's struct nttrace_ring_ack, in the mapped acks.
 */
static inline struct nttrace_ring_ack *nt_ring_ack(struct nt_ring *r,
						   unsigned int slot)
{
	return (void *)((u8 *)r->ack + (size_t)slot * r->conf->ack_stride);
}

/**
 * nt_clock_now() - a session's clock, now
 * @clock_type: its NTTRACE_EVENT_TRACE_CLOCK_*
 *
 * Any context, NMI included (the fast clock accessors).
 *
 * Return: FILETIME for SYSTEMTIME, the cycle counter for CPUCYCLE, else
 * CLOCK_MONOTONIC in nanoseconds.
 */
u64 nt_clock_now(u32 clock_type);

/**
 * nt_clock_at() - an earlier instant in a session's clock
 * @clock_type: its NTTRACE_EVENT_TRACE_CLOCK_*
 * @now: the session's clock now (a reservation's time stamp)
 * @mono_ns: the instant, in ktime_get_mono_fast_ns()'s nanoseconds, not
 *	after @now
 *
 * For a record that says when something it ends began. Any context but
 * NMI.
 *
 * Return: the instant in the session's clock: @mono_ns itself for the
 * default clock, else @now less the time since @mono_ns in the clock's
 * units.
 */
u64 nt_clock_at(u32 clock_type, u64 now, u64 mono_ns);

/**
 * nt_clock_frequency() - the ticks per second of a session's clock
 * @clock_type: its NTTRACE_EVENT_TRACE_CLOCK_*
 *
 * Return: the frequency, or 0 for a cycle counter of unknown frequency
 * (the clock is then refused).
 */
u64 nt_clock_frequency(u32 clock_type);

/**
 * nt_ring_max_record() - the largest record a buffer can take
 * @conf: the session's ring configuration
 *
 * Return: the size, before the 8-byte padding.
 */
static inline u32 nt_ring_max_record(const struct nt_ring_conf *conf)
{
	return conf->bufsize - NTTRACE_WMI_BUFFER_HEADER_SIZE;
}

/**
 * nt_ring_init() - set up one CPU's ring of a session
 * @r: the ring
 * @conf: the session's ring configuration, which outlives the ring
 * @cpu: the ring's CPU (its flush timer is pinned there)
 * @head: the ring's head in the mapped heads
 * @ack: slot 0's acknowledgement for it in the mapped acks
 * @data: its buffers in the mapped data
 *
 * May sleep.
 *
 * Return: 0 or -ENOMEM.
 */
int nt_ring_init(struct nt_ring *r, struct nt_ring_conf *conf,
		 unsigned int cpu, struct nttrace_ring_head *head,
		 struct nttrace_ring_ack *ack, u8 *data);

/**
 * nt_ring_destroy() - free what nt_ring_init() took
 * @r: the ring, which no producer uses any more
 */
void nt_ring_destroy(struct nt_ring *r);

/*
 * Producer side, on the ring's CPU: each call with interrupts off, and
 * preemption off from the reservation to its end, as the bpf ring buffer
 * is used: reserve, fill with interrupts on, commit. After
 * nt_ring_reserve(), exactly one of nt_ring_commit() (the record is
 * written) or nt_ring_discard() (as if never reserved) must follow, last
 * reserved first ended (as interrupts nest).
 */

/**
 * nt_ring_reserve() - reserve a record in this CPU's ring
 * @r: the ring of the current CPU
 * @len: the record's size, 1 to nt_ring_max_record()
 *
 * Interrupts off.
 *
 * Return: room for @len bytes in the current buffer, 8-byte aligned, its
 * padding already zero; or NULL when the ring is full and drops events, or
 * the buffer is full while an interrupted writer of this CPU still fills a
 * record in it (the event is counted as lost).
 */
void *nt_ring_reserve(struct nt_ring *r, u32 len);

/**
 * nt_ring_commit() - the last reserved record is written
 * @r: the ring it was reserved in
 *
 * Interrupts off.
 */
void nt_ring_commit(struct nt_ring *r);

/**
 * nt_ring_discard() - give back the last reserved record
 * @r: the ring it was reserved in
 * @rec: the record, as nt_ring_reserve() returned it
 * @len: its size, as reserved
 *
 * Interrupts off. As if it had never been reserved.
 */
void nt_ring_discard(struct nt_ring *r, void *rec, u32 len);

/**
 * nt_ring_flush() - publish the current buffer if it holds a record
 * @r: the ring
 *
 * Interrupts off, on the ring's CPU or while no producer can run on it
 * (CPU offline, session stopped).
 *
 * Return: true if a buffer was published; false if none holds a record,
 * or a writer of this CPU in the middle of a record (which we interrupted)
 * holds it back: it is published a jiffy later, by the ring's timer.
 */
bool nt_ring_flush(struct nt_ring *r);

/**
 * nt_ring_stop_timer() - stop the flush timer for good
 * @r: the ring
 *
 * Waits for a run in progress. Called once no producer can run on the
 * ring (session stopped, after the grace period producers are waited
 * for), before the ring is flushed from elsewhere.
 */
void nt_ring_stop_timer(struct nt_ring *r);

/**
 * nt_ring_has_partial() - does the ring hold a partly filled buffer?
 * @r: the ring
 *
 * From any CPU.
 *
 * Return: true if there is something to flush.
 */
bool nt_ring_has_partial(struct nt_ring *r);

/**
 * nt_ring_set_readers() - the ring's consumers change
 * @r: the ring
 * @rd: the consumers now
 *
 * On the ring's CPU with interrupts off, or while no producer can run on
 * it.
 */
void nt_ring_set_readers(struct nt_ring *r, const struct nt_ring_readers *rd);

/**
 * nt_ring_unread() - buffers some consumer has not read
 * @r: the ring
 * @slots: the consumer slots to ask about (bit per slot), or 0
 *
 * From any CPU.
 *
 * Return: buffers published that one of the consumers in @slots has not
 * read (nor lost); with @slots 0, buffers not yet released.
 */
u32 nt_ring_unread(struct nt_ring *r, u32 slots);

#endif /* NTTRACE_RING_H */
