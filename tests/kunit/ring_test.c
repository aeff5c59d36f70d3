// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for the per-CPU rings (module/ring.c): reservation, wrap,
 * discard vs circular, flush of a partial buffer, the consumer's
 * acknowledgement, the accounting invariant, and two CPUs producing at once
 * while a consumer drains.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "ring.h"

#define HDR	NTTRACE_WMI_BUFFER_HEADER_SIZE

/* A logger in slot 0: the one ack holds buffers until it has read them. */
static void set_logger(struct nt_ring *r)
{
	static const struct nt_ring_readers logger = {
		.readers = 1, .holders = 1, .realtime = 0, .join = 0,
	};
	unsigned long irq;

	local_irq_save(irq);
	nt_ring_set_readers(r, &logger);
	local_irq_restore(irq);
}

struct ring_fixture {
	struct nt_ring_conf conf;
	struct nttrace_ring_head head;
	struct nttrace_ring_ack ack;	/* slot 0: the logger */
	struct nttrace_ring_ack rt;	/* slot 1: a real-time consumer */
	struct nt_ring ring;
	u8 *data;
};

static struct ring_fixture *make_ring(struct kunit *test, u32 nbuf, u32 bufsize,
				      bool overwrite)
{
	struct ring_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->data = kunit_kzalloc(test, (size_t)nbuf * bufsize, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->data);
	f->conf.nbuf = nbuf;
	f->conf.bufsize = bufsize;
	f->conf.overwrite = overwrite;
	f->conf.logger_id = 7;
	f->conf.clock_type = NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER;
	/* The slots' acks follow each other, as in a session's region. */
	BUILD_BUG_ON(offsetof(struct ring_fixture, rt) !=
		     offsetof(struct ring_fixture, ack) + sizeof(f->ack));
	f->conf.ack_stride = sizeof(f->ack);
	atomic64_set(&f->conf.buffer_seq, 0);
	KUNIT_ASSERT_EQ(test, nt_ring_init(&f->ring, &f->conf, 1, &f->head,
					   &f->ack, f->data), 0);
	set_logger(&f->ring);
	return f;
}

static void free_ring(struct ring_fixture *f)
{
	nt_ring_destroy(&f->ring);
}

/* Write one record of @len bytes whose bytes are all @fill; true if written. */
static bool put(struct ring_fixture *f, u32 len, u8 fill)
{
	unsigned long irq;
	u8 *p;

	local_irq_save(irq);
	p = nt_ring_reserve(&f->ring, len);
	if (p) {
		memset(p, fill, len);
		nt_ring_commit(&f->ring);
	}
	local_irq_restore(irq);
	return p;
}

static bool flush(struct ring_fixture *f)
{
	unsigned long irq;
	bool ret;

	local_irq_save(irq);
	ret = nt_ring_flush(&f->ring);
	local_irq_restore(irq);
	return ret;
}

static struct nttrace_wmi_buffer_header *buf(struct ring_fixture *f, u64 idx)
{
	return (void *)(f->data + (idx % f->conf.nbuf) * f->conf.bufsize);
}

static void reserve_test(struct kunit *test)
{
	struct ring_fixture *f = make_ring(test, 4, PAGE_SIZE, false);
	struct nttrace_wmi_buffer_header *h = buf(f, 0);
	u8 *rec = (u8 *)h + HDR;
	unsigned long irq;
	u8 *p;

	KUNIT_EXPECT_TRUE(test, put(f, 13, 0xAB));
	KUNIT_EXPECT_TRUE(test, put(f, 8, 0xCD));
	/* Records start at the header's end, 8-byte aligned, padding zero. */
	KUNIT_EXPECT_EQ(test, rec[0], 0xAB);
	KUNIT_EXPECT_EQ(test, rec[12], 0xAB);
	KUNIT_EXPECT_EQ(test, rec[13], 0);
	KUNIT_EXPECT_EQ(test, rec[15], 0);
	KUNIT_EXPECT_EQ(test, rec[16], 0xCD);
	KUNIT_EXPECT_EQ(test, f->head.events_written, 2);
	/* Nothing is visible before the buffer is published. */
	KUNIT_EXPECT_EQ(test, f->head.produced, 0);

	/* A discarded reservation leaves no trace. */
	local_irq_save(irq);
	p = nt_ring_reserve(&f->ring, 40);
	nt_ring_discard(&f->ring, p, 40);
	local_irq_restore(irq);
	KUNIT_EXPECT_PTR_EQ(test, p, rec + 24);
	KUNIT_EXPECT_TRUE(test, put(f, 1, 0xEE));
	KUNIT_EXPECT_EQ(test, rec[24], 0xEE);
	KUNIT_EXPECT_EQ(test, f->head.events_written, 3);

	/* The header describes the buffer. */
	KUNIT_EXPECT_EQ(test, h->buffer_size, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, h->processor_number, 1);
	KUNIT_EXPECT_EQ(test, h->logger_id, 7);
	KUNIT_EXPECT_EQ(test, h->clock_type_frequency & 7, NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
	KUNIT_EXPECT_EQ(test, h->clock_type_frequency >> 3, NSEC_PER_SEC);
	free_ring(f);
}

/* Flush publishes a partial buffer: sealed, 0xFF-filled, sequence numbered. */
static void flush_partial_test(struct kunit *test)
{
	struct ring_fixture *f = make_ring(test, 4, PAGE_SIZE, false);
	struct nttrace_wmi_buffer_header *h = buf(f, 0);
	u32 i;

	KUNIT_EXPECT_FALSE(test, flush(f));	/* nothing to flush */
	KUNIT_EXPECT_TRUE(test, put(f, 20, 1));
	KUNIT_EXPECT_TRUE(test, flush(f));
	KUNIT_EXPECT_FALSE(test, flush(f));	/* no new record since */
	KUNIT_EXPECT_EQ(test, f->head.produced, 1);
	KUNIT_EXPECT_EQ(test, h->saved_offset, HDR + 24);
	KUNIT_EXPECT_EQ(test, h->current_offset, HDR + 24);
	KUNIT_EXPECT_EQ(test, h->offset, HDR + 24);
	KUNIT_EXPECT_EQ(test, h->sequence_number, 0);
	KUNIT_EXPECT_EQ(test, h->buffer_flag,
			NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER | NTTRACE_WMI_BUFFER_FLAG_PROC_INDEX);
	for (i = HDR + 24; i < PAGE_SIZE; i++)
		if (((u8 *)h)[i] != NTTRACE_WMI_BUFFER_FILL)
			break;
	KUNIT_EXPECT_EQ(test, i, PAGE_SIZE);

	/* The next record starts the next buffer, with the next sequence. */
	KUNIT_EXPECT_TRUE(test, put(f, 8, 2));
	KUNIT_EXPECT_TRUE(test, flush(f));
	KUNIT_EXPECT_EQ(test, buf(f, 1)->sequence_number, 1);
	KUNIT_EXPECT_EQ(test, f->head.produced, 2);
	free_ring(f);
}

/* A record that does not fit the current buffer starts the next one. */
static void wrap_test(struct kunit *test)
{
	struct ring_fixture *f = make_ring(test, 4, PAGE_SIZE, false);
	u32 per_buf = (PAGE_SIZE - HDR) / 64, i;

	for (i = 0; i < per_buf; i++)
		KUNIT_ASSERT_TRUE(test, put(f, 64, i));
	KUNIT_EXPECT_EQ(test, f->head.produced, 0);
	KUNIT_EXPECT_TRUE(test, put(f, 64, 0x77));
	KUNIT_EXPECT_EQ(test, f->head.produced, 1);
	KUNIT_EXPECT_EQ(test, buf(f, 0)->saved_offset, HDR + per_buf * 64);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf(f, 1))[HDR], 0x77);
	/* The largest record fits an empty buffer; one byte more never does. */
	KUNIT_EXPECT_TRUE(test, put(f, nt_ring_max_record(&f->conf), 3));
	free_ring(f);
}

/* Discard mode: a full ring drops new events and counts them. */
static void discard_test(struct kunit *test)
{
	struct ring_fixture *f = make_ring(test, 2, PAGE_SIZE, false);
	u32 big = nt_ring_max_record(&f->conf);

	KUNIT_EXPECT_TRUE(test, put(f, big, 1));	/* buffer 0 */
	KUNIT_EXPECT_TRUE(test, put(f, big, 2));	/* buffer 1; 0 published */
	KUNIT_EXPECT_FALSE(test, put(f, big, 3));	/* 1 published, no room */
	KUNIT_EXPECT_FALSE(test, put(f, 8, 4));
	KUNIT_EXPECT_EQ(test, f->head.produced, 2);
	KUNIT_EXPECT_EQ(test, f->head.events_lost, 2);
	KUNIT_EXPECT_EQ(test, f->head.events_written, 2);
	KUNIT_EXPECT_EQ(test, f->head.oldest, 0);
	/* What was published is intact. */
	KUNIT_EXPECT_EQ(test, ((u8 *)buf(f, 0))[HDR], 1);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf(f, 1))[HDR], 2);

	/* The consumer frees buffer 0: writing resumes in its slot. */
	f->ack.consumed = 1;
	KUNIT_EXPECT_TRUE(test, put(f, 8, 5));
	KUNIT_EXPECT_EQ(test, ((u8 *)buf(f, 2))[HDR], 5);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf(f, 1))[HDR], 2);

	/* The loss is marked on the buffer after it, and only there. */
	KUNIT_EXPECT_EQ(test, buf(f, 1)->buffer_flag & NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST, 0);
	KUNIT_EXPECT_TRUE(test, flush(f));
	KUNIT_EXPECT_EQ(test, buf(f, 2)->buffer_flag,
			NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER | NTTRACE_WMI_BUFFER_FLAG_PROC_INDEX |
			NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST);
	f->ack.consumed = 3;
	KUNIT_EXPECT_TRUE(test, put(f, 8, 6));
	KUNIT_EXPECT_TRUE(test, flush(f));
	KUNIT_EXPECT_EQ(test, buf(f, 3)->buffer_flag,
			NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER | NTTRACE_WMI_BUFFER_FLAG_PROC_INDEX);
	free_ring(f);
}

/* Circular mode: the oldest unread buffer is overwritten and counted. */
static void circular_test(struct kunit *test)
{
	struct ring_fixture *f = make_ring(test, 3, PAGE_SIZE, true);
	u32 big = nt_ring_max_record(&f->conf), i;

	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_TRUE(test, put(f, big, i));	/* 0, 1 published */
	KUNIT_EXPECT_EQ(test, f->head.oldest, 0);
	KUNIT_EXPECT_TRUE(test, put(f, 8, 10));	/* 2 published; reuse 0's slot */
	KUNIT_EXPECT_TRUE(test, put(f, 8, 11));	/* same buffer */
	KUNIT_EXPECT_EQ(test, f->head.oldest, 1);
	KUNIT_EXPECT_EQ(test, f->head.buffers_overwritten, 1);
	KUNIT_EXPECT_EQ(test, f->head.events_overwritten, 1);
	KUNIT_EXPECT_EQ(test, f->head.events_lost, 0);
	KUNIT_EXPECT_EQ(test, f->head.events_written, 5);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf(f, 3))[HDR], 10);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf(f, 3))[HDR + 8], 11);
	/* Buffer 2 came before the overwrite; buffer 3 after it. */
	KUNIT_EXPECT_EQ(test, buf(f, 2)->buffer_flag & NTTRACE_WMI_BUFFER_FLAG_BUFFER_LOST, 0);
	KUNIT_EXPECT_TRUE(test, flush(f));
	KUNIT_EXPECT_EQ(test, buf(f, 3)->buffer_flag & NTTRACE_WMI_BUFFER_FLAG_BUFFER_LOST,
			NTTRACE_WMI_BUFFER_FLAG_BUFFER_LOST);

	/* A consumer that keeps up stops the overwriting. */
	f->ack.consumed = 4;
	KUNIT_EXPECT_TRUE(test, put(f, 8, 12));	/* buffer 4 in slot 1: free */
	KUNIT_EXPECT_EQ(test, f->head.buffers_overwritten, 1);
	KUNIT_EXPECT_TRUE(test, flush(f));
	KUNIT_EXPECT_EQ(test, buf(f, 4)->buffer_flag & NTTRACE_WMI_BUFFER_FLAG_BUFFER_LOST, 0);
	free_ring(f);
}

/* The kernel believes ack->consumed only within its bounds. */
static void bad_ack_test(struct kunit *test)
{
	struct ring_fixture *f = make_ring(test, 2, PAGE_SIZE, false);
	u32 big = nt_ring_max_record(&f->conf);

	KUNIT_EXPECT_TRUE(test, put(f, big, 1));
	KUNIT_EXPECT_TRUE(test, put(f, big, 2));
	f->ack.consumed = ~0ULL;		/* beyond produced: ignored */
	KUNIT_EXPECT_FALSE(test, put(f, big, 3));
	KUNIT_EXPECT_EQ(test, ((u8 *)buf(f, 0))[HDR], 1);
	f->ack.consumed = 1;
	KUNIT_EXPECT_TRUE(test, put(f, big, 4));	/* buffer 2, in slot 0 */
	KUNIT_EXPECT_FALSE(test, put(f, big, 5));	/* 2 published; no room */
	f->ack.consumed = 0;			/* going back: ignored */
	KUNIT_EXPECT_FALSE(test, put(f, big, 6));
	KUNIT_EXPECT_EQ(test, f->head.events_lost, 3);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf(f, 1))[HDR], 2);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf(f, 2))[HDR], 4);
	free_ring(f);
}

/*
 * The accounting invariant over a long run with a slow consumer:
 * written = read + overwritten + still unread, per ring, in both modes.
 */
static u32 count_records(struct nttrace_wmi_buffer_header *h)
{
	u32 off = HDR, n = 0;

	while (off < h->saved_offset) {
		off += ALIGN(((u8 *)h)[off], 8);	/* size in the first byte */
		n++;
	}
	return n;
}

static void accounting_run(struct kunit *test, bool overwrite)
{
	struct ring_fixture *f = make_ring(test, 3, PAGE_SIZE, overwrite);
	u64 read = 0, i, pos = 0;
	u32 rounds;

	for (rounds = 0; rounds < 2000; rounds++) {
		u8 len = 8 + (rounds * 37) % 200;

		put(f, len, len);
		if (rounds % 97 == 0) {	/* the consumer wakes now and then */
			u64 p = f->head.produced;

			pos = max(pos, f->head.oldest);
			for (i = pos; i < p; i++)
				read += count_records(buf(f, i));
			f->ack.consumed = p;
			pos = p;
		}
	}
	flush(f);
	pos = max(pos, f->head.oldest);
	for (i = pos; i < f->head.produced; i++)
		read += count_records(buf(f, i));
	KUNIT_EXPECT_EQ(test, f->head.events_written,
			read + f->head.events_overwritten);
	KUNIT_EXPECT_EQ(test, f->head.events_written + f->head.events_lost, 2000);
	if (overwrite)
		KUNIT_EXPECT_GT(test, f->head.events_overwritten, 0);
	else
		KUNIT_EXPECT_GT(test, f->head.events_lost, 0);
	free_ring(f);
}

static void accounting_discard_test(struct kunit *test)
{
	accounting_run(test, false);
}

static void accounting_circular_test(struct kunit *test)
{
	accounting_run(test, true);
}

/*
 * Two producers, one bound to each CPU, write numbered records into their
 * own ring (or, shared, both into ring 0 under its lock) while a consumer
 * thread drains the rings; every record is seen exactly once, each
 * producer's in order, or counted lost.
 */
#define N_EVENTS	20000

struct mp_ctx {
	struct nt_ring_conf conf;
	struct nt_ring_lock lock;
	struct nttrace_ring_head head[2];
	struct nttrace_ring_ack ack[2];
	struct nt_ring ring[2];
	u8 *data[2];
	atomic_t producers_done;
	u64 seen[2], next[2], bad;
	u32 order;		/* shared: taken under the lock, for each record */
	u32 last_order;		/* the drain's: the last record's, plus one */
};

struct mp_producer {
	struct mp_ctx *ctx;
	unsigned int cpu;
	struct completion done;
};

static int mp_produce(void *arg)
{
	struct mp_producer *p = arg;
	struct nt_ring_lock *shared = p->ctx->conf.shared;
	struct nt_ring *r = &p->ctx->ring[shared ? 0 : p->cpu];
	u32 n;

	for (n = 0; n < N_EVENTS; n++) {
		unsigned long irq;
		u32 *rec;

		local_irq_save(irq);
		WARN_ON_ONCE(smp_processor_id() != p->cpu);
		if (shared)
			nt_ring_lock(shared);
		rec = nt_ring_reserve(r, 16);
		if (rec) {
			rec[0] = 16;	/* size, as count_records reads it */
			rec[1] = p->cpu;
			rec[2] = n;
			rec[3] = shared ? p->ctx->order++ : 0;
			nt_ring_commit(r);
		}
		if (shared)
			nt_ring_unlock(shared);
		local_irq_restore(irq);
		if (n % 64 == 0)
			cond_resched();
	}
	local_irq_disable();
	if (shared)
		nt_ring_lock(shared);
	nt_ring_flush(r);
	if (shared)
		nt_ring_unlock(shared);
	local_irq_enable();
	atomic_inc(&p->ctx->producers_done);
	complete(&p->done);
	return 0;
}

static void mp_drain(struct mp_ctx *ctx, unsigned int c)
{
	/* Pairs with the store-release in nt_ring_publish(). */
	u64 p = smp_load_acquire(&ctx->head[c].produced), i;
	u32 bufsize = ctx->conf.bufsize;

	for (i = ctx->ack[c].consumed; i < p; i++) {
		u8 *b = ctx->data[c] + (i % ctx->conf.nbuf) * bufsize;
		struct nttrace_wmi_buffer_header *h = (void *)b;
		u32 off = HDR;

		while (off < h->saved_offset) {
			u32 *rec = (u32 *)(b + off), who = rec[1];

			/* Shared: in the ring in the order the lock gave. */
			if (who > 1 || (!ctx->conf.shared && who != c) ||
			    rec[2] < ctx->next[who] ||
			    (ctx->conf.shared && rec[3] < ctx->last_order)) {
				ctx->bad++;
			} else {
				ctx->next[who] = rec[2] + 1;
				ctx->seen[who]++;
				ctx->last_order = rec[3] + 1;
			}
			off += 16;
		}
	}
	/* Pairs with the load-acquire in nt_ring_release(). */
	smp_store_release(&ctx->ack[c].consumed, p);
}

static void mp_run(struct kunit *test, bool shared)
{
	struct mp_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	struct mp_producer prod[2];
	unsigned int c, rings = shared ? 1 : 2;

	if (num_online_cpus() < 2 || !cpu_online(0) || !cpu_online(1))
		kunit_skip(test, "needs CPUs 0 and 1");
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->conf.nbuf = 4;
	ctx->conf.bufsize = PAGE_SIZE;
	ctx->conf.clock_type = NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER;
	nt_ring_lock_init(&ctx->lock);
	ctx->conf.shared = shared ? &ctx->lock : NULL;
	for (c = 0; c < rings; c++) {
		ctx->data[c] = kunit_kzalloc(test, 4 * PAGE_SIZE, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ctx->data[c]);
		KUNIT_ASSERT_EQ(test, nt_ring_init(&ctx->ring[c], &ctx->conf, c,
						   &ctx->head[c], &ctx->ack[c],
						   ctx->data[c]), 0);
		set_logger(&ctx->ring[c]);
	}
	for (c = 0; c < 2; c++) {
		struct task_struct *t;

		prod[c].ctx = ctx;
		prod[c].cpu = c;
		init_completion(&prod[c].done);
		t = kthread_create(mp_produce, &prod[c], "nttrace-mp/%u", c);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		kthread_bind(t, c);
		wake_up_process(t);
	}
	/* The consumer: this thread, on whichever CPU it runs. */
	while (atomic_read(&ctx->producers_done) < 2) {
		for (c = 0; c < rings; c++)
			mp_drain(ctx, c);
		usleep_range(50, 100);
	}
	for (c = 0; c < 2; c++)
		wait_for_completion(&prod[c].done);
	for (c = 0; c < rings; c++)
		mp_drain(ctx, c);
	KUNIT_EXPECT_EQ(test, ctx->bad, 0);
	if (shared) {
		KUNIT_EXPECT_EQ(test, ctx->seen[0] + ctx->seen[1], ctx->head[0].events_written);
		KUNIT_EXPECT_EQ(test, ctx->seen[0] + ctx->seen[1] + ctx->head[0].events_lost,
				2 * N_EVENTS);
		/* Both wrote, or the test showed nothing about sharing. */
		KUNIT_EXPECT_GT(test, ctx->seen[0], 0);
		KUNIT_EXPECT_GT(test, ctx->seen[1], 0);
	} else {
		for (c = 0; c < 2; c++) {
			KUNIT_EXPECT_EQ(test, ctx->seen[c], ctx->head[c].events_written);
			KUNIT_EXPECT_EQ(test, ctx->seen[c] + ctx->head[c].events_lost,
					N_EVENTS);
		}
	}
	for (c = 0; c < 2; c++)
		kunit_info(test, "producer %u: %llu seen\n", c, ctx->seen[c]);
	for (c = 0; c < rings; c++)
		nt_ring_destroy(&ctx->ring[c]);
}

static void two_cpus_test(struct kunit *test)
{
	mp_run(test, false);
}

/* One ring that both CPUs write: one stream, in the order of the writes. */
static void shared_ring_test(struct kunit *test)
{
	mp_run(test, true);
}

/*
 * The shared ring's lock, taken again on the CPU that holds it (a write
 * nested in the holder's), goes on under the first hold, which alone
 * releases it.
 */
static void shared_lock_nested_test(struct kunit *test)
{
	struct nt_ring_lock l;
	unsigned long irq;

	nt_ring_lock_init(&l);
	local_irq_save(irq);
	nt_ring_lock(&l);
	KUNIT_EXPECT_TRUE(test, raw_spin_is_locked(&l.lock));
	KUNIT_EXPECT_EQ(test, l.owner, (int)smp_processor_id());
	nt_ring_lock(&l);
	KUNIT_EXPECT_EQ(test, l.depth, 2);
	nt_ring_unlock(&l);
	KUNIT_EXPECT_TRUE(test, raw_spin_is_locked(&l.lock));
	nt_ring_unlock(&l);
	KUNIT_EXPECT_FALSE(test, raw_spin_is_locked(&l.lock));
	KUNIT_EXPECT_EQ(test, l.owner, -1);
	local_irq_restore(irq);
}

/* The consumers become @readers, with @holders and @realtime; @join new. */
static void set_readers(struct ring_fixture *f, u32 readers, u32 holders,
			u32 realtime, int join)
{
	struct nt_ring_readers rd = {
		.readers = readers, .holders = holders,
		.realtime = realtime, .join = join,
	};
	unsigned long irq;

	local_irq_save(irq);
	nt_ring_set_readers(&f->ring, &rd);
	local_irq_restore(irq);
}

/* A real-time consumer's claim of buffer @i, as user space makes it. */
static bool rt_claim(struct ring_fixture *f, u64 i)
{
	u64 old = i;

	return try_cmpxchg(&f->rt.consumed, &old, i + 1);
}

/*
 * A logger sets the pace: the slot of a buffer it has read is reused even
 * if the real-time consumer has not read it, which loses it, counted.
 */
static void realtime_taken_test(struct kunit *test)
{
	struct ring_fixture *f = make_ring(test, 2, PAGE_SIZE, false);
	u32 big = nt_ring_max_record(&f->conf), i;

	f->rt.buffers_lost = 99;	/* a joining slot starts at zero */
	set_readers(f, 3, 1, 2, 1);
	KUNIT_EXPECT_EQ(test, f->rt.consumed, 0);
	KUNIT_EXPECT_EQ(test, f->rt.buffers_lost, 0);
	for (i = 0; i < 5; i++) {
		f->ack.consumed = f->head.produced;	/* the logger keeps up */
		KUNIT_ASSERT_TRUE(test, put(f, big, i));
	}
	/* Buffers 2, 3 and 4 took the slots of 0, 1 and 2. */
	KUNIT_EXPECT_EQ(test, f->rt.consumed, 3);
	KUNIT_EXPECT_EQ(test, f->rt.buffers_lost, 3);
	KUNIT_EXPECT_EQ(test, f->rt.events_lost, 3);
	KUNIT_EXPECT_EQ(test, f->head.real_time_buffers_lost, 3);
	KUNIT_EXPECT_EQ(test, f->head.events_lost, 0);
	KUNIT_EXPECT_EQ(test, f->head.buffers_overwritten, 0);
	KUNIT_EXPECT_EQ(test, f->head.oldest, 3);
	/* A claim of a taken buffer fails; of the next one, it holds. */
	KUNIT_EXPECT_FALSE(test, rt_claim(f, 2));
	KUNIT_EXPECT_TRUE(test, rt_claim(f, 3));
	f->ack.consumed = f->head.produced;
	KUNIT_ASSERT_TRUE(test, put(f, big, 5));	/* reuses 3's slot: read */
	KUNIT_EXPECT_EQ(test, f->rt.buffers_lost, 3);
	KUNIT_EXPECT_EQ(test, f->rt.consumed, 4);
	free_ring(f);
}

/* Without a logger, real-time consumers hold buffers as a logger does. */
static void realtime_holds_test(struct kunit *test)
{
	struct ring_fixture *f = make_ring(test, 2, PAGE_SIZE, false);
	u32 big = nt_ring_max_record(&f->conf);

	set_readers(f, 2, 2, 2, 1);
	KUNIT_EXPECT_TRUE(test, put(f, big, 1));
	KUNIT_EXPECT_TRUE(test, put(f, big, 2));
	KUNIT_EXPECT_FALSE(test, put(f, big, 3));	/* full: dropped, not taken */
	KUNIT_EXPECT_EQ(test, f->head.events_lost, 1);
	KUNIT_EXPECT_EQ(test, f->rt.buffers_lost, 0);
	KUNIT_EXPECT_TRUE(test, rt_claim(f, 0));
	KUNIT_EXPECT_TRUE(test, put(f, big, 4));	/* 0's slot, read */
	KUNIT_EXPECT_EQ(test, f->rt.buffers_lost, 0);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf(f, 2))[HDR], 4);

	/* The logger comes: from then on it sets the pace. */
	set_readers(f, 3, 1, 2, 0);
	KUNIT_EXPECT_EQ(test, f->ack.consumed, 1);	/* the oldest unreleased */
	f->ack.consumed = 2;
	KUNIT_EXPECT_TRUE(test, put(f, big, 5));	/* 1's slot: rt had not read it */
	KUNIT_EXPECT_EQ(test, f->rt.buffers_lost, 1);
	KUNIT_EXPECT_EQ(test, f->rt.consumed, 2);
	free_ring(f);
}

/*
 * A slow real-time consumer beside a logger that keeps up, a producer
 * writing on another CPU: every event is read by it once, in order, or
 * counted in its events_lost, exactly.
 */
struct rt_race {
	struct ring_fixture *f;
	struct completion done;
	u32 n;
};

static int rt_race_produce(void *arg)
{
	struct rt_race *r = arg;
	u32 n;

	for (n = 0; n < r->n; n++) {
		unsigned long irq;
		u32 *rec;

		local_irq_save(irq);
		rec = nt_ring_reserve(&r->f->ring, 16);
		if (rec) {
			rec[0] = 16;
			rec[1] = n;
			nt_ring_commit(&r->f->ring);
		}
		local_irq_restore(irq);
		if (n % 64 == 0)
			cond_resched();
	}
	local_irq_disable();
	nt_ring_flush(&r->f->ring);
	local_irq_enable();
	complete(&r->done);
	return 0;
}

static void realtime_race_test(struct kunit *test)
{
	struct ring_fixture *f;
	struct rt_race r = { .n = 20000 };
	struct task_struct *t;
	u64 seen = 0, next = 0, bad = 0, i;
	u8 *copy;
	bool done = false;

	if (num_online_cpus() < 2 || !cpu_online(1))
		kunit_skip(test, "needs CPU 1 and another");
	f = make_ring(test, 4, PAGE_SIZE, false);
	copy = kunit_kmalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	set_readers(f, 3, 1, 2, 1);
	r.f = f;
	init_completion(&r.done);
	t = kthread_create(rt_race_produce, &r, "nttrace-rt");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, 1);	/* the ring's CPU, as make_ring() says */
	wake_up_process(t);
	while (!done) {
		/* The producer's last flush is before complete(). */
		bool last = completion_done(&r.done);
		/* Pairs with the store-release in nt_ring_publish(). */
		u64 p = smp_load_acquire(&f->head.produced);

		done = last;
		smp_store_release(&f->ack.consumed, p);	/* the logger */
		i = READ_ONCE(f->rt.consumed);
		while (i < p) {
			struct nttrace_wmi_buffer_header *h = (void *)copy;
			u32 off = HDR;

			memcpy(copy, buf(f, i), PAGE_SIZE);
			udelay(20);	/* slow: let the producer take some */
			if (!try_cmpxchg(&f->rt.consumed, &i, i + 1))
				continue;	/* taken: i is where to go on */
			i++;
			while (off < h->saved_offset && off < PAGE_SIZE) {
				u32 *rec = (u32 *)(copy + off);

				if (rec[1] < next)
					bad++;
				next = rec[1] + 1;
				seen++;
				off += 16;
			}
		}
		usleep_range(20, 50);
	}
	wait_for_completion(&r.done);
	kunit_info(test, "%llu seen, %llu lost to the real-time consumer, %llu buffers\n",
		   seen, f->rt.events_lost, f->rt.buffers_lost);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, seen + f->rt.events_lost, f->head.events_written);
	KUNIT_EXPECT_EQ(test, f->head.events_written + f->head.events_lost, r.n);
	KUNIT_EXPECT_EQ(test, f->rt.buffers_lost, f->head.real_time_buffers_lost);
	free_ring(f);
}

static void clock_test(struct kunit *test)
{
	u64 a = nt_clock_now(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
	u64 b = nt_clock_now(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
	u64 ft = nt_clock_now(NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME);

	KUNIT_EXPECT_LE(test, a, b);
	/* FILETIME after 2020-01-01 (132223104000000000). */
	KUNIT_EXPECT_GT(test, ft, 132223104000000000ULL);
	KUNIT_EXPECT_EQ(test, nt_clock_frequency(NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME), 10000000);
	KUNIT_EXPECT_EQ(test, nt_clock_frequency(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER),
			NSEC_PER_SEC);
}

/*
 * nt_clock_at(): an instant 1 ms ago in each clock. The default clock
 * gives the instant itself; system time and cycles count back from the
 * "now" given, by the time since the instant: at least the 1 ms, and at
 * most the time measured after the call (however slow the machine, or
 * long the vCPU was away).
 */
static void clock_at_test(struct kunit *test)
{
	u64 then = ktime_get_mono_fast_ns() - NSEC_PER_MSEC;
	u64 ft = nt_clock_now(NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME);
	u64 ago = ft - nt_clock_at(NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME, ft, then);
	u64 spent = ktime_get_mono_fast_ns() - then;

	KUNIT_EXPECT_EQ(test, nt_clock_at(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER, 123, then),
			then);
	KUNIT_EXPECT_GE(test, ago, 10000ULL);		/* 1 ms in 100 ns */
	KUNIT_EXPECT_LE(test, ago, div_u64(spent, 100) + 10);	/* 1 us of rounding */
	/* An instant not before now counts back nothing. */
	KUNIT_EXPECT_EQ(test, nt_clock_at(NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME, ft,
					  ktime_get_mono_fast_ns() + NSEC_PER_SEC), ft);
	if (nt_clock_frequency(NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE)) {
		u64 c = nt_clock_now(NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE);
		u64 back = c - nt_clock_at(NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE, c, then);
		u64 hz = nt_clock_frequency(NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE);
		u64 khz = div_u64(hz, 1000);

		spent = ktime_get_mono_fast_ns() - then;
		KUNIT_EXPECT_GE(test, back, khz - div_u64(hz, 100000));
		/* The cycles of the time measured, and 10 us of rounding. */
		KUNIT_EXPECT_LE(test, back, mul_u64_u32_div(spent, (u32)khz, 1000000) +
				div_u64(hz, 100000));
	}
}

/* Reserve @len bytes as a writer does: interrupts off for the reservation only. */
static u8 *reserve_open(struct ring_fixture *f, u32 len)
{
	unsigned long irq;
	u8 *p;

	local_irq_save(irq);
	p = nt_ring_reserve(&f->ring, len);
	local_irq_restore(irq);
	return p;
}

static void end_open(struct ring_fixture *f, u8 *p, u32 len, bool commit)
{
	unsigned long irq;

	local_irq_save(irq);
	if (commit)
		nt_ring_commit(&f->ring);
	else
		nt_ring_discard(&f->ring, p, len);
	local_irq_restore(irq);
}

/*
 * A writer copies its data with interrupts on: an interrupt's writer may
 * reserve, write and commit after it on the same ring before it ends.
 * Committed, both are in the buffer in reservation order; discarded, the
 * interrupt's records move down over the outer one (no hole).
 */
static void nested_test(struct kunit *test)
{
	struct ring_fixture *f = make_ring(test, 2, PAGE_SIZE, false);
	struct nttrace_wmi_buffer_header *h = buf(f, 0);
	u8 *rec = (u8 *)h + HDR, *outer;

	/* Each record's bytes are its length (count_records() reads one). */
	preempt_disable();
	outer = reserve_open(f, 40);
	KUNIT_ASSERT_PTR_EQ(test, outer, rec);
	memset(outer, 40, 40);
	KUNIT_EXPECT_TRUE(test, put(f, 16, 16));	/* the interrupt's */
	end_open(f, outer, 40, true);

	outer = reserve_open(f, 24);
	KUNIT_ASSERT_PTR_EQ(test, outer, rec + 56);
	memset(outer, 24, 24);
	KUNIT_EXPECT_TRUE(test, put(f, 16, 16));
	KUNIT_EXPECT_TRUE(test, put(f, 8, 8));
	end_open(f, outer, 24, false);
	preempt_enable();

	KUNIT_EXPECT_EQ(test, f->head.events_written, 4);
	KUNIT_EXPECT_TRUE(test, flush(f));
	KUNIT_EXPECT_EQ(test, h->saved_offset, HDR + 40 + 16 + 16 + 8);
	KUNIT_EXPECT_EQ(test, count_records(h), 4);
	KUNIT_EXPECT_EQ(test, rec[0], 40);
	KUNIT_EXPECT_EQ(test, rec[39], 40);
	KUNIT_EXPECT_EQ(test, rec[40], 16);
	/* The discarded outer record's place: the interrupt's, moved down. */
	KUNIT_EXPECT_EQ(test, rec[56], 16);
	KUNIT_EXPECT_EQ(test, rec[71], 16);
	KUNIT_EXPECT_EQ(test, rec[72], 8);
	KUNIT_EXPECT_EQ(test, rec[80], NTTRACE_WMI_BUFFER_FILL);
	free_ring(f);
}

/*
 * The buffer fills while a writer of its CPU is in the middle of a record:
 * an interrupt's event that needs the next buffer is lost, and counted
 * (the buffer cannot be published under the open record); a flush then
 * holds the buffer back, for the ring's timer to publish a jiffy later.
 */
static void nested_full_test(struct kunit *test)
{
	struct ring_fixture *f = make_ring(test, 2, PAGE_SIZE, false);
	u32 room = PAGE_SIZE - HDR;
	u8 *outer;

	preempt_disable();
	KUNIT_EXPECT_TRUE(test, put(f, room - 64, 0x66));
	outer = reserve_open(f, 56);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	memset(outer, 0x77, 56);
	KUNIT_EXPECT_FALSE(test, put(f, 16, 0x88));
	KUNIT_EXPECT_EQ(test, f->head.events_lost, 1);
	KUNIT_EXPECT_EQ(test, f->head.produced, 0);

	KUNIT_EXPECT_FALSE(test, flush(f));
	KUNIT_EXPECT_TRUE(test, timer_pending(&f->ring.flush_timer));
	/* Not here: the fixture's ring is on no real CPU of its own. */
	timer_delete_sync(&f->ring.flush_timer);
	KUNIT_EXPECT_EQ(test, f->head.produced, 0);
	end_open(f, outer, 56, true);
	preempt_enable();

	KUNIT_EXPECT_TRUE(test, flush(f));
	KUNIT_EXPECT_EQ(test, f->head.produced, 1);
	KUNIT_EXPECT_EQ(test, buf(f, 0)->saved_offset, PAGE_SIZE - 8);
	KUNIT_EXPECT_EQ(test, f->head.events_written, 2);
	/* The loss is marked on the next buffer. */
	KUNIT_EXPECT_TRUE(test, put(f, 16, 0x99));
	KUNIT_EXPECT_TRUE(test, flush(f));
	KUNIT_EXPECT_TRUE(test, buf(f, 1)->buffer_flag & NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST);
	free_ring(f);
}

static struct kunit_case nttrace_ring_cases[] = {
	KUNIT_CASE(reserve_test),
	KUNIT_CASE(flush_partial_test),
	KUNIT_CASE(wrap_test),
	KUNIT_CASE(discard_test),
	KUNIT_CASE(nested_test),
	KUNIT_CASE(nested_full_test),
	KUNIT_CASE(circular_test),
	KUNIT_CASE(bad_ack_test),
	KUNIT_CASE(accounting_discard_test),
	KUNIT_CASE(accounting_circular_test),
	KUNIT_CASE(two_cpus_test),
	KUNIT_CASE(shared_ring_test),
	KUNIT_CASE(shared_lock_nested_test),
	KUNIT_CASE(realtime_taken_test),
	KUNIT_CASE(realtime_holds_test),
	KUNIT_CASE(realtime_race_test),
	KUNIT_CASE(clock_test),
	KUNIT_CASE(clock_at_test),
	{}
};

static struct kunit_suite nttrace_ring_suite = {
	.name = "nttrace_ring",
	.test_cases = nttrace_ring_cases,
};

kunit_test_suite(nttrace_ring_suite);
