// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite nttrace_session: the life cycle of logger sessions
 * (module/session.c) as StartTrace and ControlTrace drive it: start with
 * defaults and with explicit sizes and what START fills in, query, update
 * of the flush timer, flush, stop, references that outlive the stop,
 * names, IDs, the global sequence, and the module parameters' limits.
 * KUnit's thread runs with full capabilities, as root with CAP_PERFMON.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kref.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "kunit_util.h"
#include "write.h"

#define FILETIME_2020	132223104000000000ULL	/* 2020-01-01 as a FILETIME */

/* The smallest session: 4 KB buffers, 2 per CPU. */
static struct ntk_session *start_small(struct kunit *test, const char *name, u32 mode)
{
	struct nttrace_logger_info info;

	ntk_info(&info, name);
	info.buffer_size_kb = 4;
	info.max_buffers = 2;
	info.log_file_mode = mode;
	return ntk_start(test, &info);
}

/* One 16-byte record through the kernel API: its size, then @tag. */
static u32 put_event(u32 id, u16 tag)
{
	struct nttrace_reservation res;
	u32 status = 0;
	u16 *rec;

	rec = nttrace_reserve(id, 16, &res, &status);
	if (!rec)
		return status;
	memset(rec, 0, 16);
	rec[0] = 16;
	rec[1] = tag;
	nttrace_commit(&res);
	return NTTRACE_STATUS_SUCCESS;
}

static u16 record_tag(const struct ntk_record *r)
{
	return ((const u16 *)r->data)[1];
}

/* The memory START reserves for a session (uapi: heads, acks, rings). */
static size_t session_bytes(u32 bufsize, u32 nbuf)
{
	return PAGE_ALIGN(sizeof(struct nttrace_session_head) +
			  nr_cpu_ids * sizeof(struct nttrace_ring_head)) +
	       NTTRACE_MAX_CONSUMERS *
	       PAGE_ALIGN(nr_cpu_ids * sizeof(struct nttrace_ring_ack)) +
	       (size_t)nr_cpu_ids * nbuf * bufsize;
}

static bool listed(u32 id)
{
	u32 ids[NTTRACE_MAX_LOGGERS], count, i;

	nt_session_list(ids, ARRAY_SIZE(ids), &count);
	for (i = 0; i < count; i++)
		if (ids[i] == id)
			return true;
	return false;
}

static u32 running(void)
{
	u32 ids[NTTRACE_MAX_LOGGERS], count;

	nt_session_list(ids, ARRAY_SIZE(ids), &count);
	return count;
}

/* ---- Start ---- */

static void start_defaults_test(struct kunit *test)
{
	u64 t0 = nt_clock_now(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
	struct nttrace_logger_info info, q;
	struct ntk_session *k;
	struct nt_session *s;
	unsigned int cpu;

	ntk_info(&info, "nttrace-kunit-defaults");
	k = ntk_start(test, &info);
	s = k->s;
	KUNIT_EXPECT_EQ(test, info.size, sizeof(info));
	KUNIT_EXPECT_GE(test, info.logger_id, 1);
	KUNIT_EXPECT_LE(test, info.logger_id, NTTRACE_MAX_LOGGERS);
	KUNIT_EXPECT_EQ(test, info.control, 0);
	KUNIT_EXPECT_EQ(test, info.buffer_size_kb, NTTRACE_DEFAULT_BUFFER_KB);
	KUNIT_EXPECT_EQ(test, info.min_buffers, NTTRACE_MIN_BUFFERS);
	/* The default buffers fit the default max_session_mb (64) up to 32 CPUs. */
	if (nr_cpu_ids <= 32)
		KUNIT_EXPECT_EQ(test, info.max_buffers, NTTRACE_DEFAULT_BUFFERS);
	KUNIT_EXPECT_GE(test, info.max_buffers, info.min_buffers);
	KUNIT_EXPECT_EQ(test, info.log_file_mode, 0);
	KUNIT_EXPECT_EQ(test, info.flush_timer, 0);
	KUNIT_EXPECT_EQ(test, info.clock_type, NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
	KUNIT_EXPECT_EQ(test, info.nr_cpus, nr_cpu_ids);
	KUNIT_EXPECT_EQ(test, info.number_of_buffers, nr_cpu_ids * info.max_buffers);
	KUNIT_EXPECT_EQ(test, info.free_buffers, info.number_of_buffers);
	KUNIT_EXPECT_EQ(test, info.buffers_written, 0);
	KUNIT_EXPECT_EQ(test, info.log_buffers_lost, 0);
	KUNIT_EXPECT_EQ(test, info.real_time_buffers_lost, 0);
	KUNIT_EXPECT_EQ(test, info.owner_uid, 0);
	KUNIT_EXPECT_EQ(test, info.owner_pid, task_tgid_vnr(current));
	KUNIT_EXPECT_EQ(test, info.control_flags, 0);
	KUNIT_EXPECT_EQ(test, info.events_lost, 0);
	KUNIT_EXPECT_EQ(test, info.events_written, 0);
	KUNIT_EXPECT_EQ(test, info.events_overwritten, 0);
	KUNIT_EXPECT_EQ(test, info.clock_frequency, NSEC_PER_SEC);
	KUNIT_EXPECT_GE(test, info.start_time, t0);
	KUNIT_EXPECT_LE(test, info.start_time, nt_clock_now(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER));
	KUNIT_EXPECT_STREQ(test, (char *)info.name, "nttrace-kunit-defaults");

	/* What the session is. */
	KUNIT_EXPECT_EQ(test, s->id, info.logger_id);
	KUNIT_EXPECT_EQ(test, s->heads->state, NTTRACE_SESSION_RUNNING);
	KUNIT_EXPECT_EQ(test, s->heads->logger_id, info.logger_id);
	KUNIT_EXPECT_EQ(test, s->conf.bufsize, NTTRACE_DEFAULT_BUFFER_KB * 1024);
	KUNIT_EXPECT_EQ(test, s->conf.nbuf, info.max_buffers);
	KUNIT_EXPECT_FALSE(test, s->conf.overwrite);
	KUNIT_EXPECT_EQ(test, s->data_size, (size_t)nr_cpu_ids * s->conf.nbuf * s->conf.bufsize);
	KUNIT_EXPECT_EQ(test, s->mem_reserved, session_bytes(s->conf.bufsize, s->conf.nbuf));
	KUNIT_EXPECT_EQ(test, kref_read(&s->ref), 2);	/* the table's and ours */
	/* Every event writes its CPU's ring and the sequence: no line shared. */
	for (cpu = 0; cpu < s->nr_rings; cpu++)
		KUNIT_EXPECT_EQ(test, (uintptr_t)&s->rings[cpu] % SMP_CACHE_BYTES, 0);
	KUNIT_EXPECT_EQ(test, (uintptr_t)&s->local_seq % SMP_CACHE_BYTES, 0);

	/* A query says the same; the list has it. */
	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, info.logger_id, &q),
			0);
	KUNIT_EXPECT_MEMEQ(test, &q, &info, sizeof(info));
	KUNIT_EXPECT_TRUE(test, listed(info.logger_id));
}

static void start_sizes_test(struct kunit *test)
{
	struct nttrace_logger_info info;
	struct ntk_session *k;

	/* Sizes round up to whole pages; modes and the timer come back. */
	ntk_info(&info, "nttrace-kunit-sizes");
	info.buffer_size_kb = PAGE_SIZE / 1024 + 1;
	info.min_buffers = 3;
	info.max_buffers = 5;
	info.log_file_mode = NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR |
			     NTTRACE_EVENT_TRACE_REAL_TIME_MODE;
	info.flush_timer = 30;
	info.clock_type = NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME;
	k = ntk_start(test, &info);
	KUNIT_EXPECT_EQ(test, info.buffer_size_kb, 2 * PAGE_SIZE / 1024);
	KUNIT_EXPECT_EQ(test, info.min_buffers, 3);
	KUNIT_EXPECT_EQ(test, info.max_buffers, 5);
	KUNIT_EXPECT_EQ(test, info.number_of_buffers, 5 * nr_cpu_ids);
	KUNIT_EXPECT_EQ(test, info.log_file_mode,
			NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR |
				NTTRACE_EVENT_TRACE_REAL_TIME_MODE);
	KUNIT_EXPECT_EQ(test, info.flush_timer, 30);
	KUNIT_EXPECT_EQ(test, info.clock_type, NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME);
	KUNIT_EXPECT_EQ(test, info.clock_frequency, 10000000);
	KUNIT_EXPECT_GT(test, info.start_time, FILETIME_2020);
	KUNIT_EXPECT_EQ(test, k->s->conf.bufsize, 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, k->s->conf.nbuf, 5);
	KUNIT_EXPECT_TRUE(test, k->s->conf.overwrite);	/* circular */
	ntk_put(k);

	/* A real-time session without a flush timer gets one second. */
	ntk_info(&info, "nttrace-kunit-rt-timer");
	info.log_file_mode = NTTRACE_EVENT_TRACE_REAL_TIME_MODE;
	k = ntk_start(test, &info);
	KUNIT_EXPECT_EQ(test, info.flush_timer, 1);

	/* The smallest; buffering mode overwrites too. */
	ntk_info(&info, "nttrace-kunit-smallest");
	info.buffer_size_kb = NTTRACE_MIN_BUFFER_KB;
	info.max_buffers = NTTRACE_MIN_BUFFERS;
	info.log_file_mode = NTTRACE_EVENT_TRACE_BUFFERING_MODE;
	k = ntk_start(test, &info);
	KUNIT_EXPECT_EQ(test, info.buffer_size_kb, max_t(u32, NTTRACE_MIN_BUFFER_KB,
							 PAGE_SIZE / 1024));
	KUNIT_EXPECT_EQ(test, info.min_buffers, NTTRACE_MIN_BUFFERS);
	KUNIT_EXPECT_EQ(test, info.max_buffers, NTTRACE_MIN_BUFFERS);
	KUNIT_EXPECT_TRUE(test, k->s->conf.overwrite);

	/* The largest buffers, and (where it fits 64 MB) the most of them. */
	ntk_info(&info, "nttrace-kunit-largest");
	info.buffer_size_kb = NTTRACE_MAX_BUFFER_KB;
	info.max_buffers = 2;
	k = ntk_start(test, &info);
	KUNIT_EXPECT_EQ(test, k->s->conf.bufsize, NTTRACE_MAX_BUFFER_KB * 1024);
	if (session_bytes(PAGE_SIZE, NTTRACE_MAX_BUFFERS) <= (64 << 20)) {
		ntk_info(&info, "nttrace-kunit-most");
		info.buffer_size_kb = PAGE_SIZE / 1024;
		info.max_buffers = NTTRACE_MAX_BUFFERS;
		k = ntk_start(test, &info);
		KUNIT_EXPECT_EQ(test, info.max_buffers, NTTRACE_MAX_BUFFERS);
	}

	/* The cycle counter, where its frequency is known. */
	ntk_info(&info, "nttrace-kunit-cycles");
	info.buffer_size_kb = 4;
	info.clock_type = NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE;
	if (nt_clock_frequency(NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE)) {
		k = ntk_start(test, &info);
		KUNIT_EXPECT_EQ(test, info.clock_frequency,
				nt_clock_frequency(NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE));
	} else {
		KUNIT_EXPECT_EQ(test, ntk_start_error(&info), -EINVAL);
	}
}

struct bad_start {
	const char *what;
	u32 control, control_flags, kb, min, max, mode, clock;
	int err;
};

static const struct bad_start bad_starts[] = {
	{ "control", .control = NTTRACE_EVENT_TRACE_CONTROL_STOP, .err = -EINVAL },
	{ "control flags", .control_flags = NTTRACE_CONTROL_WAIT_CONSUMER, .err = -EINVAL },
	{ "buffer too small", .kb = NTTRACE_MIN_BUFFER_KB - 1, .err = -EINVAL },
	{ "buffer too large", .kb = NTTRACE_MAX_BUFFER_KB + 1, .err = -EINVAL },
	{ "min too few", .min = NTTRACE_MIN_BUFFERS - 1, .err = -EINVAL },
	{ "min too many", .min = NTTRACE_MAX_BUFFERS + 1, .err = -EINVAL },
	{ "max too many", .max = NTTRACE_MAX_BUFFERS + 1, .err = -EINVAL },
	{ "max below min", .min = 5, .max = 4, .err = -EINVAL },
	{ "clock", .clock = NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE + 1, .err = -EINVAL },
	{ "clock ~0", .clock = ~0U, .err = -EINVAL },
	{ "private mode", .mode = NTTRACE_EVENT_TRACE_PRIVATE_LOGGER_MODE, .err = -EINVAL },
	{ "in-proc mode", .mode = NTTRACE_EVENT_TRACE_PRIVATE_IN_PROC, .err = -EINVAL },
	{ "nonstoppable mode", .mode = NTTRACE_EVENT_TRACE_NONSTOPPABLE_MODE, .err = -EINVAL },
	{ "unknown mode", .mode = 0x80000000, .err = -EINVAL },
	{ "newfile and sequential", .err = -EINVAL,
	  .mode = NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE |
		  NTTRACE_EVENT_TRACE_FILE_MODE_SEQUENTIAL },
	{ "newfile and circular", .err = -EINVAL,
	  .mode = NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE |
		  NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR },
	{ "append and circular", .err = -EINVAL,
	  .mode = NTTRACE_EVENT_TRACE_FILE_MODE_APPEND |
		  NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR },
	{ "append and newfile", .err = -EINVAL,
	  .mode = NTTRACE_EVENT_TRACE_FILE_MODE_APPEND |
		  NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE },
	{ "append and real time", .err = -EINVAL,
	  .mode = NTTRACE_EVENT_TRACE_FILE_MODE_APPEND |
		  NTTRACE_EVENT_TRACE_REAL_TIME_MODE },
	{ "sequential and circular", .err = -EINVAL,
	  .mode = NTTRACE_EVENT_TRACE_FILE_MODE_SEQUENTIAL |
		  NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR },
	{ "global and local", .err = -EINVAL,
	  .mode = NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE |
		  NTTRACE_EVENT_TRACE_USE_LOCAL_SEQUENCE },
	/* Past max_session_mb (64 by default), after every other check. */
	{ "too big", .kb = NTTRACE_MAX_BUFFER_KB, .max = NTTRACE_MAX_BUFFERS, .err = -E2BIG },
	{ "too big, bad clock", .kb = NTTRACE_MAX_BUFFER_KB, .max = NTTRACE_MAX_BUFFERS, .clock = 9,
	  .err = -EINVAL },
};

static const struct {
	const char *what;
	char name[NTTRACE_NAME_MAX];
} bad_names[] = {
	{ "empty", "" },
	{ "control character", "nttrace\x1f" },
	{ "DEL", "nttrace\x7f" },
	{ "not ASCII", "nttrace-\xc3\xa9" },
	{ "bytes after the NUL", "nttrace\0x" },
};

static void start_invalid_test(struct kunit *test)
{
	struct nttrace_logger_info info;
	u32 before = running();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad_starts); i++) {
		const struct bad_start *b = &bad_starts[i];

		ntk_info(&info, "nttrace-kunit-bad");
		info.control = b->control;
		info.control_flags = b->control_flags;
		info.buffer_size_kb = b->kb;
		info.min_buffers = b->min;
		info.max_buffers = b->max;
		info.log_file_mode = b->mode;
		info.clock_type = b->clock;
		KUNIT_EXPECT_EQ_MSG(test, ntk_start_error(&info), b->err, "%s", b->what);
	}
	for (i = 0; i < ARRAY_SIZE(bad_names); i++) {
		ntk_info(&info, "");
		memcpy(info.name, bad_names[i].name, NTTRACE_NAME_MAX);
		KUNIT_EXPECT_EQ_MSG(test, ntk_start_error(&info), -EINVAL, "%s",
				    bad_names[i].what);
	}
	/* 64 characters leave no room for the NUL. */
	ntk_info(&info, "");
	memset(info.name, 'n', NTTRACE_NAME_MAX);
	KUNIT_EXPECT_EQ(test, ntk_start_error(&info), -EINVAL);

	KUNIT_EXPECT_EQ(test, running(), before);
	KUNIT_EXPECT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, 0, &info), -ENOENT);
}

/* ---- Control ---- */

static void query_test(struct kunit *test)
{
	struct ntk_session *k = start_small(test, "nttrace-kunit-Query", 0);
	struct nttrace_logger_info info;
	u32 number, i;

	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, k->id, &info), 0);
	KUNIT_EXPECT_STREQ(test, (char *)info.name, "nttrace-kunit-Query");
	number = info.number_of_buffers;

	/* By name (logger ID 0), in any case. */
	ntk_info(&info, "NTTRACE-KUNIT-query");
	info.control = NTTRACE_EVENT_TRACE_CONTROL_QUERY;
	KUNIT_EXPECT_EQ(test, nt_session_control(&info), 0);
	KUNIT_EXPECT_EQ(test, info.logger_id, k->id);
	KUNIT_EXPECT_STREQ(test, (char *)info.name, "nttrace-kunit-Query");

	/* No such session. */
	ntk_info(&info, "nttrace-kunit-nosuch");
	KUNIT_EXPECT_EQ(test, nt_session_control(&info), -ENOENT);
	KUNIT_EXPECT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, 0, &info), -ENOENT);
	KUNIT_EXPECT_EQ(test,
			ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, NTTRACE_MAX_LOGGERS + 1,
				    &info),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, ~0U, &info), -ENOENT);
	/* Bad requests. */
	KUNIT_EXPECT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_FLUSH + 1, k->id, &info),
			-EINVAL);
	ntk_info(&info, "");
	info.logger_id = k->id;
	info.control_flags = NTTRACE_CONTROL_WAIT_CONSUMER;	/* only with STOP */
	KUNIT_EXPECT_EQ(test, nt_session_control(&info), -EINVAL);
	info.control = NTTRACE_EVENT_TRACE_CONTROL_STOP;
	info.control_flags = 0x2;
	KUNIT_EXPECT_EQ(test, nt_session_control(&info), -EINVAL);
	KUNIT_EXPECT_TRUE(test, listed(k->id));

	/* The counters: written, then published, then read. */
	preempt_disable();
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, put_event(k->id, i), NTTRACE_STATUS_SUCCESS);
	preempt_enable();
	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, k->id, &info), 0);
	KUNIT_EXPECT_EQ(test, info.events_written, 3);
	KUNIT_EXPECT_EQ(test, info.buffers_written, 0);
	KUNIT_EXPECT_EQ(test, info.free_buffers, number);
	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_FLUSH, k->id, &info), 0);
	KUNIT_EXPECT_EQ(test, info.buffers_written, 1);
	KUNIT_EXPECT_EQ(test, info.free_buffers, number - 1);
	KUNIT_EXPECT_EQ(test, info.events_written, 3);
}

static int update(u32 id, const char *name, struct nttrace_logger_info *info)
{
	info->size = sizeof(*info);
	info->control = NTTRACE_EVENT_TRACE_CONTROL_UPDATE;
	info->logger_id = id;
	if (name)
		strscpy((char *)info->name, name, sizeof(info->name));
	return nt_session_control(info);
}

/*
 * The buffers the session has published; with @wait, once it has
 * published @n, however long the timer takes (one that never fires is
 * ended by KUnit's timeout for the case). The sleep paces the look.
 */
static u32 wait_buffers(u32 id, u32 n, bool wait)
{
	struct nttrace_logger_info info;

	for (;;) {
		if (ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, id, &info))
			return 0;
		if (info.buffers_written >= n || !wait)
			return info.buffers_written;
		msleep(50);
	}
}


static u32 timer(struct ntk_session *k)
{
	return READ_ONCE(k->s->flush_timer);
}

/* Is any ring's flush timer armed? */
static bool timer_armed(struct ntk_session *k)
{
	unsigned int cpu;

	for (cpu = 0; cpu < k->s->nr_rings; cpu++)
		if (timer_pending(&k->s->rings[cpu].flush_timer))
			return true;
	return false;
}

/* Wait until the timer that published a buffer is no longer armed. */
static void wait_timer_idle(struct ntk_session *k)
{
	while (timer_armed(k))
		msleep(20);
}

static void update_test(struct kunit *test)
{
	struct ntk_session *k = start_small(test, "nttrace-kunit-update", 0);
	struct nttrace_logger_info info = {};

	info.flush_timer = 1;
	KUNIT_ASSERT_EQ(test, update(k->id, NULL, &info), 0);
	KUNIT_EXPECT_EQ(test, info.flush_timer, 1);
	KUNIT_EXPECT_EQ(test, timer(k), 1);
	/* The other members may be given unchanged, not changed. */
	memset(&info, 0, sizeof(info));
	info.flush_timer = 1;
	info.buffer_size_kb = 4;
	info.max_buffers = 2;
	KUNIT_EXPECT_EQ(test, update(k->id, NULL, &info), 0);
	memset(&info, 0, sizeof(info));
	info.buffer_size_kb = 8;
	KUNIT_EXPECT_EQ(test, update(k->id, NULL, &info), -EINVAL);
	memset(&info, 0, sizeof(info));
	info.min_buffers = 3;
	KUNIT_EXPECT_EQ(test, update(k->id, NULL, &info), -EINVAL);
	memset(&info, 0, sizeof(info));
	info.max_buffers = 3;
	KUNIT_EXPECT_EQ(test, update(k->id, NULL, &info), -EINVAL);
	memset(&info, 0, sizeof(info));
	info.log_file_mode = NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR;
	KUNIT_EXPECT_EQ(test, update(k->id, NULL, &info), -EINVAL);
	memset(&info, 0, sizeof(info));
	info.clock_type = NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME;
	KUNIT_EXPECT_EQ(test, update(k->id, NULL, &info), -EINVAL);
	/* A refused update changes nothing. */
	KUNIT_EXPECT_EQ(test, timer(k), 1);

	/* The timer publishes a partly filled buffer by itself... */
	KUNIT_EXPECT_EQ(test, put_event(k->id, 1), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, wait_buffers(k->id, 1, true), 1);
	/* ... and is not armed again until a buffer is started. */
	wait_timer_idle(k);
	KUNIT_EXPECT_EQ(test, put_event(k->id, 3), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_TRUE(test, timer_armed(k));

	/*
	 * Timer off (by name this time): the armed one goes, and nothing is
	 * published any more.
	 */
	memset(&info, 0, sizeof(info));
	KUNIT_ASSERT_EQ(test, update(0, "NTTRACE-KUNIT-UPDATE", &info), 0);
	KUNIT_EXPECT_EQ(test, info.flush_timer, 0);
	KUNIT_EXPECT_EQ(test, info.logger_id, k->id);
	KUNIT_EXPECT_FALSE(test, timer_armed(k));
	KUNIT_EXPECT_EQ(test, put_event(k->id, 2), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_FALSE(test, timer_armed(k));
	msleep(2500);
	KUNIT_EXPECT_EQ(test, wait_buffers(k->id, 2, false), 1);
}

/*
 * The flush timer is the ring's own: armed on the CPU an event started a
 * buffer on, and on no other (a CPU that writes nothing is not woken, nor
 * called by another: the session-wide work it replaces sent an IPI every
 * period to each CPU with a partly filled buffer). It publishes the buffer
 * there, and a stop waits for it.
 */
static void timer_per_cpu_test(struct kunit *test)
{
	struct ntk_session *k = start_small(test, "nttrace-kunit-timer", 0);
	struct nttrace_logger_info info = {};
	const struct nttrace_wmi_buffer_header *h;
	unsigned int cpu, other;

	info.flush_timer = 1;
	KUNIT_ASSERT_EQ(test, update(k->id, NULL, &info), 0);
	KUNIT_EXPECT_FALSE(test, timer_armed(k));

	preempt_disable();
	cpu = smp_processor_id();
	KUNIT_EXPECT_EQ(test, put_event(k->id, 1), NTTRACE_STATUS_SUCCESS);
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, timer_pending(&k->s->rings[cpu].flush_timer));
	KUNIT_EXPECT_EQ(test, k->s->rings[cpu].flush_timer.flags & TIMER_CPUMASK, cpu);
	KUNIT_EXPECT_TRUE(test, k->s->rings[cpu].flush_timer.flags & TIMER_PINNED);
	for (other = 0; other < k->s->nr_rings; other++)
		if (other != cpu)
			KUNIT_EXPECT_FALSE_MSG(test,
					       timer_pending(&k->s->rings[other].flush_timer),
					       "CPU %u wrote nothing but its timer is armed",
					       other);

	KUNIT_EXPECT_EQ(test, wait_buffers(k->id, 1, true), 1);
	h = (const void *)(k->s->data + (size_t)cpu * k->s->conf.nbuf * k->s->conf.bufsize);
	KUNIT_EXPECT_EQ(test, h->processor_index, cpu);
	KUNIT_EXPECT_EQ(test, h->saved_offset, NTTRACE_WMI_BUFFER_HEADER_SIZE + 16);
	wait_timer_idle(k);

	/* Stopped with a timer armed: the stop takes it (no run after). */
	KUNIT_EXPECT_EQ(test, put_event(k->id, 2), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_TRUE(test, timer_armed(k));
	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_STOP, k->id, &info), 0);
	KUNIT_EXPECT_EQ(test, info.buffers_written, 2);
	KUNIT_EXPECT_FALSE(test, timer_armed(k));
}

static void flush_test(struct kunit *test)
{
	struct ntk_session *k = start_small(test, "nttrace-kunit-flush", 0);
	const struct nttrace_wmi_buffer_header *h;
	struct nttrace_logger_info info;
	struct ntk_record *recs;
	unsigned int cpu;

	/* Nothing to flush. */
	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_FLUSH, k->id, &info), 0);
	KUNIT_EXPECT_EQ(test, info.buffers_written, 0);

	preempt_disable();
	cpu = smp_processor_id();
	KUNIT_EXPECT_EQ(test, put_event(k->id, 1), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, put_event(k->id, 2), NTTRACE_STATUS_SUCCESS);
	preempt_enable();
	KUNIT_EXPECT_FALSE(test, nt_session_has_unread(k->s, NT_LOGGER_SLOT));

	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_FLUSH, k->id, &info), 0);
	KUNIT_EXPECT_EQ(test, info.buffers_written, 1);
	KUNIT_EXPECT_EQ(test, info.events_written, 2);
	KUNIT_EXPECT_EQ(test, info.free_buffers, info.number_of_buffers - 1);
	KUNIT_EXPECT_TRUE(test, nt_session_has_unread(k->s, NT_LOGGER_SLOT));
	/* No new record since: nothing more. */
	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_FLUSH, k->id, &info), 0);
	KUNIT_EXPECT_EQ(test, info.buffers_written, 1);

	/* The buffer, on the CPU the events were written on. */
	h = (const void *)(k->s->data + (size_t)cpu * k->s->conf.nbuf * k->s->conf.bufsize);
	KUNIT_EXPECT_EQ(test, h->buffer_size, k->s->conf.bufsize);
	KUNIT_EXPECT_EQ(test, h->saved_offset, NTTRACE_WMI_BUFFER_HEADER_SIZE + 32);
	KUNIT_EXPECT_EQ(test, h->logger_id, k->id);
	KUNIT_EXPECT_EQ(test, h->processor_index, cpu);
	KUNIT_EXPECT_EQ(test, h->sequence_number, 0);
	KUNIT_EXPECT_TRUE(test, h->buffer_flag & NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER);
	KUNIT_ASSERT_EQ(test, ntk_collect(test, k, &recs), 2);
	KUNIT_EXPECT_EQ(test, recs[0].cpu, cpu);
	KUNIT_EXPECT_EQ(test, record_tag(&recs[0]), 1);
	KUNIT_EXPECT_EQ(test, record_tag(&recs[1]), 2);

	/* Read and acknowledged: the buffer is free again. */
	KUNIT_EXPECT_FALSE(test, nt_session_has_unread(k->s, NT_LOGGER_SLOT));
	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, k->id, &info), 0);
	KUNIT_EXPECT_EQ(test, info.free_buffers, info.number_of_buffers);

	/* By name. */
	ntk_info(&info, "nttrace-kunit-FLUSH");
	info.control = NTTRACE_EVENT_TRACE_CONTROL_FLUSH;
	KUNIT_EXPECT_EQ(test, nt_session_control(&info), 0);
}

/*
 * Stop publishes what is left and takes the session out of the table: its
 * ID and name are free, events to it are refused. A reference keeps its
 * memory readable until it is put.
 */
static void stop_test(struct kunit *test)
{
	struct ntk_session *k = start_small(test, "nttrace-kunit-stop", 0), *again;
	struct nttrace_logger_info info;
	struct nttrace_reservation res;
	struct ntk_record *recs;
	struct nt_session *s;
	u32 id = k->id, status = 0;

	s = nt_session_get_consumable(id);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_EXPECT_PTR_EQ(test, s, k->s);
	KUNIT_EXPECT_EQ(test, kref_read(&s->ref), 3);
	nt_session_put(s);
	KUNIT_EXPECT_EQ(test, kref_read(&s->ref), 2);
	KUNIT_EXPECT_PTR_EQ(test, nt_session_get_consumable(0), ERR_PTR(-ENOENT));
	KUNIT_EXPECT_PTR_EQ(test, nt_session_get_consumable(NTTRACE_MAX_LOGGERS + 1),
			    ERR_PTR(-ENOENT));

	KUNIT_EXPECT_EQ(test, put_event(id, 7), NTTRACE_STATUS_SUCCESS);
	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_STOP, id, &info), 0);
	KUNIT_EXPECT_EQ(test, info.logger_id, id);
	KUNIT_EXPECT_EQ(test, info.events_written, 1);
	KUNIT_EXPECT_EQ(test, info.buffers_written, 1);	/* the stop flushed */
	KUNIT_EXPECT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, id, &info), -ENOENT);

	/* Stopped, published, and only our reference left. */
	KUNIT_EXPECT_TRUE(test, s->stopped);
	/* Pairs with the store-release in nt_session_stop(). */
	KUNIT_EXPECT_EQ(test, smp_load_acquire(&s->heads->state), NTTRACE_SESSION_STOPPED);
	KUNIT_EXPECT_EQ(test, kref_read(&s->ref), 1);
	KUNIT_EXPECT_FALSE(test, listed(id));

	/* Nothing reaches it any more. */
	KUNIT_EXPECT_NULL(test, nttrace_reserve(id, 16, &res, &status));
	KUNIT_EXPECT_EQ(test, status, NTTRACE_STATUS_INVALID_HANDLE);
	KUNIT_EXPECT_EQ(test, put_event(id, 8), NTTRACE_STATUS_INVALID_HANDLE);
	KUNIT_EXPECT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_STOP, id, &info), -ENOENT);
	KUNIT_EXPECT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_FLUSH, id, &info), -ENOENT);
	KUNIT_EXPECT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_UPDATE, id, &info), -ENOENT);
	KUNIT_EXPECT_PTR_EQ(test, nt_session_get_consumable(id), ERR_PTR(-ENOENT));
	nt_session_flush(s);	/* a stopped session's flush does nothing */

	/* Its memory is still there, with the last event. */
	KUNIT_ASSERT_EQ(test, ntk_collect(test, k, &recs), 1);
	KUNIT_EXPECT_EQ(test, record_tag(&recs[0]), 7);

	/* The name is free at once, though the memory is not yet. */
	again = start_small(test, "NTTRACE-KUNIT-STOP", 0);
	KUNIT_EXPECT_EQ(test, put_event(again->id, 9), NTTRACE_STATUS_SUCCESS);
	ntk_put(k);		/* the last reference: the session is freed */
	KUNIT_EXPECT_EQ(test, put_event(again->id, 10), NTTRACE_STATUS_SUCCESS);
	KUNIT_ASSERT_EQ(test, ntk_collect(test, again, &recs), 2);
}

static void duplicate_names_test(struct kunit *test)
{
	struct ntk_session *a = start_small(test, "nttrace-kunit-Dup", 0);
	static const char *const same[] = {
		"nttrace-kunit-Dup", "NTTRACE-KUNIT-DUP", "nttrace-kunit-dup",
	};
	char longest[NTTRACE_NAME_MAX];
	struct nttrace_logger_info info;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(same); i++) {
		ntk_info(&info, same[i]);
		info.buffer_size_kb = 4;
		KUNIT_EXPECT_EQ_MSG(test, ntk_start_error(&info), -EEXIST, "%s", same[i]);
	}
	/* Checks on the input come before the name's. */
	ntk_info(&info, "nttrace-kunit-dup");
	info.buffer_size_kb = 1;
	KUNIT_EXPECT_EQ(test, ntk_start_error(&info), -EINVAL);
	info.buffer_size_kb = NTTRACE_MAX_BUFFER_KB;
	info.max_buffers = NTTRACE_MAX_BUFFERS;
	KUNIT_EXPECT_EQ(test, ntk_start_error(&info), -E2BIG);

	/* Other names are other sessions. */
	start_small(test, "nttrace-kunit-dup ", 0);
	start_small(test, "nttrace-kunit-dup2", 0);
	memset(longest, 'd', sizeof(longest) - 1);
	longest[sizeof(longest) - 1] = '\0';
	start_small(test, longest, 0);
	longest[0] = 'D';
	ntk_info(&info, longest);
	KUNIT_EXPECT_EQ(test, ntk_start_error(&info), -EEXIST);

	/* Stopped by its name, in other letters, the name is free again. */
	ntk_info(&info, "NTTRACE-kunit-dup");
	info.control = NTTRACE_EVENT_TRACE_CONTROL_STOP;
	KUNIT_EXPECT_EQ(test, nt_session_control(&info), 0);
	KUNIT_EXPECT_EQ(test, info.logger_id, a->id);
	KUNIT_EXPECT_TRUE(test, a->s->stopped);
	start_small(test, "NTTRACE-KUNIT-DUP", 0);
}

/*
 * Eight sessions (the default max_user_sessions) for one user, over and
 * over: an ID is the lowest free one, and a stopped session's ID is
 * taken again.
 */
#define MANY	8

static void many_sessions_test(struct kunit *test)
{
	struct ntk_session *k[MANY];
	struct nttrace_logger_info info;
	u32 ids[NTTRACE_MAX_LOGGERS], count, round, i;
	char name[32];

	if (running())
		kunit_skip(test, "other sessions are running");
	for (round = 0; round < 4; round++) {
		for (i = 0; i < MANY; i++) {
			snprintf(name, sizeof(name), "nttrace-kunit-many-%u", i);
			k[i] = start_small(test, name, 0);
			KUNIT_EXPECT_EQ(test, k[i]->id, i + 1);
		}
		nt_session_list(ids, ARRAY_SIZE(ids), &count);
		KUNIT_ASSERT_EQ(test, count, MANY);
		for (i = 0; i < MANY; i++)
			KUNIT_EXPECT_EQ(test, ids[i], k[i]->id);
		ntk_info(&info, "nttrace-kunit-many-more");
		KUNIT_EXPECT_EQ(test, ntk_start_error(&info), -EDQUOT);

		/* A stopped session's ID goes to the next start. */
		KUNIT_EXPECT_EQ(test, ntk_stop(k[round + 2]), 0);
		k[round + 2] = start_small(test, "nttrace-kunit-many-more", 0);
		KUNIT_EXPECT_EQ(test, k[round + 2]->id, round + 3);
		KUNIT_EXPECT_EQ(test, put_event(k[round + 2]->id, 1), NTTRACE_STATUS_SUCCESS);

		for (i = 0; i < MANY; i++) {
			KUNIT_EXPECT_EQ(test, ntk_stop(k[i]), 0);
			ntk_put(k[i]);
		}
		KUNIT_EXPECT_EQ(test, running(), 0);
	}
}

/* A SEQUENCE message with no arguments to session @id. */
static u32 sequenced(u32 id, u16 number)
{
	struct nttrace_message_trace_user m = {
		.message_number = number,
		.message_flags = NTTRACE_TRACE_MESSAGE_SEQUENCE,
	};
	struct nttrace_call call = {
		.trace_handle = id,
		.flags = NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE,
		.field_size = NTTRACE_MESSAGE_TRACE_USER_SIZE,
	};

	return ntk_message(&call, &m);
}

/* The sequence numbers of a session's messages, by message number. */
static void read_sequence(struct kunit *test, struct ntk_session *k, u32 *seq, u32 n)
{
	struct ntk_record *recs;
	u32 got, i;

	got = ntk_collect(test, k, &recs);
	KUNIT_ASSERT_EQ(test, got, n);
	for (i = 0; i < got; i++) {
		const struct nttrace_message_trace_header *h = (const void *)recs[i].data;

		KUNIT_ASSERT_LT(test, h->message_number, n);
		memcpy(&seq[h->message_number], h + 1, 4);
	}
}

/*
 * NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE sessions share one counter; the others
 * count from 1 on their own.
 */
static void global_sequence_test(struct kunit *test)
{
	struct ntk_session *a, *b, *c, *d, *e;
	u32 sa[3], sb[2], sc[2], sd[1], se[1], g;

	a = start_small(test, "nttrace-kunit-global-a", NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE);
	b = start_small(test, "nttrace-kunit-global-b", NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE);
	c = start_small(test, "nttrace-kunit-local", NTTRACE_EVENT_TRACE_USE_LOCAL_SEQUENCE);
	d = start_small(test, "nttrace-kunit-default", 0);
	KUNIT_EXPECT_EQ(test, sequenced(a->id, 0), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, sequenced(b->id, 0), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, sequenced(a->id, 1), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, sequenced(c->id, 0), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, sequenced(b->id, 1), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, sequenced(d->id, 0), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, sequenced(a->id, 2), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, sequenced(c->id, 1), NTTRACE_STATUS_SUCCESS);
	/* A global session started later goes on from the shared counter. */
	e = start_small(test, "nttrace-kunit-global-e", NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE);
	KUNIT_EXPECT_EQ(test, sequenced(e->id, 0), NTTRACE_STATUS_SUCCESS);

	read_sequence(test, a, sa, 3);
	read_sequence(test, b, sb, 2);
	read_sequence(test, c, sc, 2);
	read_sequence(test, d, sd, 1);
	read_sequence(test, e, se, 1);
	g = sa[0];
	KUNIT_EXPECT_EQ(test, sb[0], g + 1);
	KUNIT_EXPECT_EQ(test, sa[1], g + 2);
	KUNIT_EXPECT_EQ(test, sb[1], g + 3);
	KUNIT_EXPECT_EQ(test, sa[2], g + 4);
	KUNIT_EXPECT_EQ(test, se[0], g + 5);
	KUNIT_EXPECT_EQ(test, sc[0], 1);
	KUNIT_EXPECT_EQ(test, sc[1], 2);
	KUNIT_EXPECT_EQ(test, sd[0], 1);
}

/* The kernel API's refusals, and a full ring. */
static void reserve_test(struct kunit *test)
{
	struct ntk_session *k = start_small(test, "nttrace-kunit-reserve", 0);
	u32 max = nt_ring_max_record(&k->s->conf), status, i;
	struct nttrace_reservation res;
	struct nttrace_logger_info info;
	struct ntk_record *recs;
	void *p;

	status = 0;
	KUNIT_EXPECT_NULL(test, nttrace_reserve(0, 16, &res, &status));
	KUNIT_EXPECT_EQ(test, status, NTTRACE_STATUS_INVALID_HANDLE);
	status = 0;
	KUNIT_EXPECT_NULL(test, nttrace_reserve(NTTRACE_MAX_LOGGERS + 1, 16, &res, &status));
	KUNIT_EXPECT_EQ(test, status, NTTRACE_STATUS_INVALID_HANDLE);
	status = 0;
	KUNIT_EXPECT_NULL(test, nttrace_reserve(k->id, 0, &res, &status));
	KUNIT_EXPECT_EQ(test, status, NTTRACE_STATUS_BUFFER_OVERFLOW);
	status = 0;
	KUNIT_EXPECT_NULL(test, nttrace_reserve(k->id, max + 1, &res, &status));
	KUNIT_EXPECT_EQ(test, status, NTTRACE_STATUS_BUFFER_OVERFLOW);
	p = nttrace_reserve(k->id, max, &res, &status);
	KUNIT_ASSERT_NOT_NULL(test, p);
	nttrace_discard(&res);

	/* Two CPU buffers: the third record finds no room, and is counted. */
	preempt_disable();
	for (i = 0; i < 3; i++) {
		u16 *rec = nttrace_reserve(k->id, max, &res, &status);

		if (!rec)
			break;
		memset(rec, 0, max);
		rec[0] = max;
		rec[1] = i;
		nttrace_commit(&res);
	}
	preempt_enable();
	KUNIT_EXPECT_EQ(test, i, 2);
	KUNIT_EXPECT_EQ(test, status, NTTRACE_STATUS_NO_MEMORY);
	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, k->id, &info), 0);
	KUNIT_EXPECT_EQ(test, info.events_written, 2);
	KUNIT_EXPECT_EQ(test, info.events_lost, 1);
	KUNIT_ASSERT_EQ(test, ntk_collect(test, k, &recs), 2);
	KUNIT_EXPECT_EQ(test, record_tag(&recs[0]), 0);
	KUNIT_EXPECT_EQ(test, record_tag(&recs[1]), 1);
	/* Read: room again. */
	KUNIT_EXPECT_EQ(test, put_event(k->id, 3), NTTRACE_STATUS_SUCCESS);
}

/* ---- The module parameters' limits (module/policy.c) ---- */

static void user_limit_test(struct kunit *test)
{
	struct nttrace_logger_info info;
	char name[32];
	u32 i;

	if (running())
		kunit_skip(test, "other sessions are running");
	if (!ntk_set_param(test, "max_user_sessions", 2))
		kunit_skip(test, "no /sys/module/nttrace/parameters");
	start_small(test, "nttrace-kunit-user-0", 0);
	start_small(test, "nttrace-kunit-user-1", 0);
	ntk_info(&info, "nttrace-kunit-user-2");
	KUNIT_EXPECT_EQ(test, ntk_start_error(&info), -EDQUOT);

	/* With no limit per user, the table itself is the limit. */
	KUNIT_ASSERT_TRUE(test, ntk_set_param(test, "max_user_sessions", 1000));
	for (i = 2; i < NTTRACE_MAX_LOGGERS; i++) {
		snprintf(name, sizeof(name), "nttrace-kunit-user-%u", i);
		start_small(test, name, 0);
	}
	KUNIT_EXPECT_EQ(test, running(), NTTRACE_MAX_LOGGERS);
	ntk_info(&info, "nttrace-kunit-user-more");
	KUNIT_EXPECT_EQ(test, ntk_start_error(&info), -EMFILE);
}

static void session_limit_test(struct kunit *test)
{
	struct nttrace_logger_info info;
	u32 bufsize = NTTRACE_DEFAULT_BUFFER_KB * 1024;

	if (!ntk_set_param(test, "max_session_mb", 1))
		kunit_skip(test, "no /sys/module/nttrace/parameters");
	/* The default buffers are fewer: as many as fit, not below the minimum. */
	ntk_info(&info, "nttrace-kunit-cap");
	if (session_bytes(bufsize, NTTRACE_MIN_BUFFERS) <= (1 << 20)) {
		ntk_start(test, &info);
		KUNIT_EXPECT_LT(test, info.max_buffers, NTTRACE_DEFAULT_BUFFERS);
		KUNIT_EXPECT_GE(test, info.max_buffers, NTTRACE_MIN_BUFFERS);
		KUNIT_EXPECT_LE(test, session_bytes(bufsize, info.max_buffers), 1 << 20);
		KUNIT_EXPECT_GT(test, session_bytes(bufsize, info.max_buffers + 1), 1 << 20);
	}
	ntk_info(&info, "nttrace-kunit-cap-2");
	info.max_buffers = NTTRACE_DEFAULT_BUFFERS;
	KUNIT_EXPECT_EQ(test, ntk_start_error(&info), -E2BIG);
	ntk_info(&info, "nttrace-kunit-cap-2");
	info.min_buffers = NTTRACE_DEFAULT_BUFFERS;
	KUNIT_EXPECT_EQ(test, ntk_start_error(&info), -E2BIG);
	KUNIT_ASSERT_TRUE(test, ntk_set_param(test, "max_session_mb", 0));
	ntk_info(&info, "nttrace-kunit-cap-2");
	KUNIT_EXPECT_EQ(test, ntk_start_error(&info), -E2BIG);
}

/*
 * All sessions' memory within max_total_mb; a stopped session's memory is
 * given back only at its last reference's put.
 */
static void total_limit_test(struct kunit *test)
{
	u32 bufsize = 64 * 1024, nbuf = (768 * 1024 / nr_cpu_ids) / bufsize;
	struct nttrace_logger_info info;
	struct ntk_session *a;
	size_t bytes = session_bytes(bufsize, nbuf);

	/* One session of between half and all of 1 MB. */
	if (nbuf < NTTRACE_MIN_BUFFERS || 2 * bytes <= (1 << 20) || bytes > (1 << 20))
		kunit_skip(test, "no session size fits 1 MB once but not twice");
	if (running())
		kunit_skip(test, "other sessions are running");
	if (!ntk_set_param(test, "max_total_mb", 1))
		kunit_skip(test, "no /sys/module/nttrace/parameters");

	ntk_info(&info, "nttrace-kunit-total-a");
	info.buffer_size_kb = bufsize / 1024;
	info.max_buffers = nbuf;
	a = ntk_start(test, &info);
	ntk_info(&info, "nttrace-kunit-total-b");
	info.buffer_size_kb = bufsize / 1024;
	info.max_buffers = nbuf;
	KUNIT_EXPECT_EQ(test, ntk_start_error(&info), -ENOBUFS);

	/* Stopped, but our reference keeps its memory. */
	KUNIT_EXPECT_EQ(test, ntk_stop(a), 0);
	KUNIT_EXPECT_EQ(test, ntk_start_error(&info), -ENOBUFS);
	ntk_put(a);
	ntk_start(test, &info);
}

/*
 * Consumer slots: one logger (ntk_start() attached it), then real-time
 * consumers up to NTTRACE_MAX_CONSUMERS in all; a slot given back is
 * taken again, and the rings learn each change.
 */
static void consumer_slots_test(struct kunit *test)
{
	struct ntk_session *k = start_small(test, "nttrace-kunit-slots", 0);
	int slot, i;

	KUNIT_EXPECT_EQ(test, nt_session_attach(k->s, false), -EBUSY);
	for (i = 1; i < NTTRACE_MAX_CONSUMERS; i++)
		KUNIT_EXPECT_EQ(test, nt_session_attach(k->s, true), i);
	KUNIT_EXPECT_EQ(test, nt_session_attach(k->s, true), -EBUSY);
	KUNIT_EXPECT_EQ(test, k->s->rings[0].rd.realtime,
			GENMASK(NTTRACE_MAX_CONSUMERS - 1, 1));
	KUNIT_EXPECT_EQ(test, k->s->rings[0].rd.holders, BIT(NT_LOGGER_SLOT));
	nt_session_detach(k->s, 3);
	slot = nt_session_attach(k->s, true);
	KUNIT_EXPECT_EQ(test, slot, 3);

	/* Without the logger, the real-time consumers hold the buffers. */
	nt_session_detach(k->s, NT_LOGGER_SLOT);
	KUNIT_EXPECT_EQ(test, k->s->rings[0].rd.holders,
			GENMASK(NTTRACE_MAX_CONSUMERS - 1, 1));
	KUNIT_EXPECT_EQ(test, nt_session_attach(k->s, false), NT_LOGGER_SLOT);
	for (i = 1; i < NTTRACE_MAX_CONSUMERS; i++)
		nt_session_detach(k->s, i);
	KUNIT_EXPECT_EQ(test, k->s->rings[0].rd.readers, BIT(NT_LOGGER_SLOT));
}

static struct kunit_case nttrace_session_cases[] = {
	KUNIT_CASE(start_defaults_test),
	KUNIT_CASE(start_sizes_test),
	KUNIT_CASE(start_invalid_test),
	KUNIT_CASE(query_test),
	KUNIT_CASE_SLOW(update_test),
	KUNIT_CASE_SLOW(timer_per_cpu_test),
	KUNIT_CASE(flush_test),
	KUNIT_CASE(stop_test),
	KUNIT_CASE(duplicate_names_test),
	KUNIT_CASE(many_sessions_test),
	KUNIT_CASE(global_sequence_test),
	KUNIT_CASE(reserve_test),
	KUNIT_CASE(user_limit_test),
	KUNIT_CASE(session_limit_test),
	KUNIT_CASE(total_limit_test),
	KUNIT_CASE(consumer_slots_test),
	{}
};

static struct kunit_suite nttrace_session_suite = {
	.name = "nttrace_session",
	.test_cases = nttrace_session_cases,
};

kunit_test_suite(nttrace_session_suite);
