/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the suites of nttrace_test.ko share: sessions started for one test
 * and stopped when it ends, their records read back from the rings as a
 * consumer reads them, one NTTRACE_TRACE_MESSAGE call, user memory, and the
 * module's parameters.
 */
#ifndef NTTRACE_KUNIT_UTIL_H
#define NTTRACE_KUNIT_UTIL_H

#include <kunit/test.h>

#include "ntevent.h"
#include "session.h"

/* A session started for one test; at the test's end it is stopped and put. */
struct ntk_session {
	struct nt_session *s;	/* our reference: s->data outlives the stop */
	u32 id;
	u64 *read;		/* per ring: buffers read and acknowledged */
	u64 *end;		/* per ring: where ntk_collect() stops */
};

/* One record read back from a ring: a copy, its padding to 8 bytes too. */
struct ntk_record {
	const u8 *data;
	u32 size;		/* the record's Size (kernel headers: at +4) */
	unsigned int cpu;
};

/* START's input: zeros (the defaults) and @name. */
void ntk_info(struct nttrace_logger_info *info, const char *name);

/* nt_session_start(@info), which must succeed, and a reference to it. */
struct ntk_session *ntk_start(struct kunit *test, struct nttrace_logger_info *info);
struct mm_struct;
/* The same, @busy's mmap lock held (for writing) across the start alone. */
struct ntk_session *ntk_start_busy(struct kunit *test, struct nttrace_logger_info *info,
				   struct mm_struct *busy);

/*
 * nt_session_start(@info) where it should fail: returns its error. A
 * session it starts all the same is stopped at once, so that a failing
 * test leaves none running for the next.
 */
int ntk_start_error(struct nttrace_logger_info *info);

/* ControlTrace by logger ID: @control, @out filled in. */
int ntk_control(u32 control, u32 id, struct nttrace_logger_info *out);
int ntk_stop(struct ntk_session *k);

/* Give our reference back before the test ends (the session is stopped). */
void ntk_put(struct ntk_session *k);

/*
 * Flush, then read every buffer published since the last call, on every
 * CPU, and acknowledge it as a consumer does. Returns the number of
 * records; *@recs is test-managed.
 */
unsigned int ntk_collect(struct kunit *test, struct ntk_session *k,
			 struct ntk_record **recs);

/* One NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE call, @m already captured. */
u32 ntk_message(const struct nttrace_call *call,
		const struct nttrace_message_trace_user *m);

/* Anonymous user memory of the test's mm; at @addr exactly unless 0. */
unsigned long ntk_user(struct kunit *test, unsigned long addr, size_t len,
		       unsigned long prot);

/*
 * Set nttrace.ko's parameter @name (through sysfs, as root would) until
 * the test ends. False when sysfs is not there to do it.
 */
bool ntk_set_param(struct kunit *test, const char *name, unsigned long value);

/* Little-endian values of @bytes bytes, as records hold them. */
static inline void ntk_put_le(u8 *p, u64 v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		p[i] = (u8)(v >> (8 * i));
}

static inline u64 ntk_get_le(const u8 *p, int bytes)
{
	u64 v = 0;
	int i;

	for (i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

#endif /* NTTRACE_KUNIT_UTIL_H */
