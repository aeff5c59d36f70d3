// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the system loggers' internals. ntr_record_check() (TRACE_RAW's
 * test of a record), the kernel-mode answers of TRACE_SYSTEM, TRACE_MARK
 * and TRACE_RAW, and nt_sys_emit(): a kernel event goes to the system
 * loggers whose group mask wants it, and only there. The rules of system
 * loggers decided on the session a lookup found: a writer's
 * (NT_WRITE_FORGE, NT_WRITE_SYSTEM_ONLY) at its reservation, an enable's
 * on the session it holds.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <nttrace/wdm.h>

#include "kernel_logger/kernel_logger.h"
#include "kernel_logger/ksource.h"
#include "kunit_util.h"
#include "record.h"
#include "session.h"
#include "write.h"

/* A SYSTEM64 record of @size bytes, HookId 0x0F01. */
static void sys_record(u8 *r, u32 size, u8 header_type)
{
	memset(r, 0, size);
	r[2] = header_type;
	r[3] = NTTRACE_TRACE_HEADER_MARKER_BYTE;
	ntk_put_le(r + 4, size, 2);
	ntk_put_le(r + 6, 0x0F01, 2);
}

static void record_check_test(struct kunit *test)
{
	u8 r[0x100];

	sys_record(r, 0x28, NTTRACE_TRACE_HEADER_TYPE_SYSTEM64);
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x28), 0);
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x30), -1);	/* Size lies */
	sys_record(r, 0x18, NTTRACE_TRACE_HEADER_TYPE_COMPACT64);
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x18), 0);
	sys_record(r, 0x10, NTTRACE_TRACE_HEADER_TYPE_PERFINFO64);
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x10), 0);
	r[1] = 0x01;	/* one PMC counter: 8 bytes the record lacks */
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x10), -1);
	sys_record(r, 0x18, NTTRACE_TRACE_HEADER_TYPE_SYSTEM32);
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x18), -1);	/* short */
	sys_record(r, 0x20, 0x07);
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x20), -1);	/* unknown type */
	sys_record(r, 0x20, NTTRACE_TRACE_HEADER_TYPE_SYSTEM64);
	r[3] = 0x40;
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x20), -1);	/* no header flag */

	/* Classic: the size at +0. */
	memset(r, 0, sizeof(r));
	ntk_put_le(r, 0x38, 2);
	r[2] = NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER64;
	r[3] = NTTRACE_TRACE_HEADER_MARKER_BYTE;
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x38), 0);
	ntk_put_le(r, 0x20, 2);
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x20), -1);	/* under 0x30 */
	r[2] = NTTRACE_TRACE_HEADER_TYPE_INSTANCE32;
	ntk_put_le(r, 0x40, 2);
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x40), -1);	/* under 0x48 */

	/* A message: its items by its flags. */
	memset(r, 0, sizeof(r));
	ntk_put_le(r, 0x10, 2);
	r[3] = NTTRACE_MESSAGE_TRACE_MARKER_BYTE;
	ntk_put_le(r + 6, NTTRACE_TRACE_MESSAGE_SEQUENCE, 2);
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x10), 0);
	ntk_put_le(r + 6, NTTRACE_TRACE_MESSAGE_GUID | NTTRACE_TRACE_MESSAGE_TIMESTAMP, 2);
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x10), -1);

	/* EventWrite: the item chain. */
	memset(r, 0, sizeof(r));
	ntk_put_le(r, 0x50 + 24, 2);
	r[2] = NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER64;
	r[3] = NTTRACE_TRACE_HEADER_MARKER_BYTE;
	ntk_put_le(r + 4, NTTRACE_EVENT_HEADER_FLAG_EXTENDED_INFO, 2);
	ntk_put_le(r + 0x50, 24, 2);
	ntk_put_le(r + 0x56, 16, 2);
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x50 + 24), 0);
	ntk_put_le(r + 0x54, 1, 2);	/* another item, past the end */
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x50 + 24), -1);
	ntk_put_le(r + 0x54, 0, 2);
	ntk_put_le(r + 0x56, 17, 2);	/* data no longer within Size */
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x50 + 24), -1);
	ntk_put_le(r + 0x50, 0, 2);	/* Size 0 would never move */
	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 0x50 + 24), -1);

	KUNIT_EXPECT_EQ(test, ntr_record_check(r, 4), -1);
}

/*
 * The NT Kernel Logger with @mask in group-mask word @word, and no
 * SysConfig events at its start: its records are the test's alone.
 */
static struct ntk_session *start_kernel_logger(struct kunit *test, unsigned int word, u32 mask)
{
	struct nttrace_logger_info info;

	ntk_info(&info, NTTRACE_KERNEL_LOGGER_NAME);
	info.group_mask[0] = NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG;
	info.group_mask[word] |= mask;
	return ntk_start(test, &info);
}

/* Kernel-mode callers: TRACE_SYSTEM refused, TRACE_MARK and TRACE_RAW taken. */
static void kernel_mode_test(struct kunit *test)
{
	struct ntk_session *k = start_kernel_logger(test, 0, 0);
	struct {
		u32 flag;
		u16 mark[4];
	} mark = { 0, { 'k', 'm' } };
	struct ntk_record *recs;
	u8 sys[0x28], raw[0x28];

	KUNIT_EXPECT_EQ(test, k->id, NTTRACE_KERNEL_LOGGER_ID);
	sys_record(sys, sizeof(sys), NTTRACE_TRACE_HEADER_TYPE_SYSTEM64);
	KUNIT_EXPECT_EQ(test, ZwTraceEvent(k->id, NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM, 8, sys),
			NTTRACE_STATUS_NOT_SUPPORTED);
	KUNIT_EXPECT_EQ(test, ZwTraceEvent(k->id, NTTRACE_ETW_NT_FLAGS_TRACE_MARK, 8, &mark),
			NTTRACE_STATUS_SUCCESS);
	sys_record(raw, sizeof(raw), NTTRACE_TRACE_HEADER_TYPE_SYSTEM64);
	KUNIT_EXPECT_EQ(test, ZwTraceEvent(k->id, NTTRACE_ETW_NT_FLAGS_TRACE_RAW, sizeof(raw),
					   raw),
			NTTRACE_STATUS_SUCCESS);
	raw[4] = 0x30;
	KUNIT_EXPECT_EQ(test, ZwTraceEvent(k->id, NTTRACE_ETW_NT_FLAGS_TRACE_RAW, sizeof(raw),
					   raw),
			NTTRACE_STATUS_INVALID_PARAMETER);
	raw[4] = 0x28;
	KUNIT_ASSERT_EQ(test, ntk_collect(test, k, &recs), 2);
	/* The mark: 0x20, 4 bytes of mark, 2 of NUL. */
	KUNIT_EXPECT_EQ(test, recs[0].size, 0x26);
	KUNIT_EXPECT_EQ(test, *(u16 *)(recs[0].data + 6), 0x0F22);
	KUNIT_EXPECT_EQ(test, memcmp(recs[0].data + 0x20, "k\0m\0\0\0", 6), 0);
	KUNIT_EXPECT_EQ(test, memcmp(recs[1].data, raw, sizeof(raw)), 0);
}

struct emit_ctx {
	u32 calls;
};

static void fill(void *rec, u32 len, u64 time_stamp, u32 clock_type, void *ctx)
{
	struct emit_ctx *c = ctx;

	sys_record(rec, len, NTTRACE_TRACE_HEADER_TYPE_SYSTEM64);
	memcpy((u8 *)rec + 0x10, &time_stamp, 8);
	c->calls++;
}

/*
 * Word 1 of the group mask, which no source writes: the events here are
 * the test's alone. The session layer refuses a group no source writes
 * (struct nt_session_hooks' groups_built): for this test, hooks that
 * take every group stand in for the module's.
 */
#define W	1
#define A	0x1U
#define B	0x2U
#define C	0x4U

static const struct nt_session_hooks *saved_hooks;
static struct nt_session_hooks any_groups_hooks;

static void restore_hooks(void *unused)
{
	nt_session_set_hooks(saved_hooks);
}

static void take_any_groups(struct kunit *test)
{
	saved_hooks = nt_session_get_hooks();
	if (saved_hooks)
		any_groups_hooks = *saved_hooks;
	any_groups_hooks.groups_built = NULL;
	nt_session_set_hooks(&any_groups_hooks);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, restore_hooks, NULL), 0);
}

static void sys_emit_test(struct kunit *test)
{
	struct nttrace_logger_info info, plain_info;
	struct ntk_session *k, *other, *plain;
	struct emit_ctx c = {};
	struct ntk_record *recs;

	take_any_groups(test);
	k = start_kernel_logger(test, W, A);

	ntk_info(&info, "kunit-sys");
	info.log_file_mode = NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE;
	info.group_mask[0] = NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG;
	info.group_mask[W] = B;
	other = ntk_start(test, &info);
	ntk_info(&plain_info, "kunit-plain");
	plain = ntk_start(test, &plain_info);

	nt_sys_emit(W, A, 0, 0x28, fill, &c);
	KUNIT_EXPECT_EQ(test, c.calls, 1);
	nt_sys_emit(W, B, 0, 0x30, fill, &c);
	KUNIT_EXPECT_EQ(test, c.calls, 2);
	nt_sys_emit(W, C, 0, 0x30, fill, &c);
	KUNIT_EXPECT_EQ(test, c.calls, 2);	/* nobody wants it */
	/* A rundown for one session: the other does not get it. */
	nt_sys_emit(W, B, other->s->id, 0x38, fill, &c);
	nt_sys_emit(W, B, k->s->id, 0x38, fill, &c);
	KUNIT_EXPECT_EQ(test, c.calls, 3);

	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 1);
	KUNIT_EXPECT_EQ(test, recs[0].size, 0x28);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, other, &recs), 2);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, plain, &recs), 0);

	/* UPDATE changes what it wants at once. */
	ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, k->id, &info);
	info.control = NTTRACE_EVENT_TRACE_CONTROL_UPDATE;
	info.group_mask[W] = C;
	KUNIT_EXPECT_EQ(test, nt_session_control(&info), 0);
	nt_sys_emit(W, A, 0, 0x28, fill, &c);
	nt_sys_emit(W, C, 0, 0x28, fill, &c);
	KUNIT_EXPECT_EQ(test, c.calls, 4);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 1);

	/* Stopped, it gets nothing more. */
	ntk_stop(k);
	nt_sys_emit(W, C, 0, 0x28, fill, &c);
	KUNIT_EXPECT_EQ(test, c.calls, 4);
}

/* SysConfig at a system logger's start, unless EVENT_TRACE_FLAG_NO_SYSCONFIG. */
static void sysconfig_test(struct kunit *test)
{
	struct nttrace_logger_info info;
	struct ntk_session *k;
	struct ntk_record *recs;
	unsigned int n, i, cpu = 0;

	ntk_info(&info, NTTRACE_KERNEL_LOGGER_NAME);
	k = ntk_start(test, &info);
	n = ntk_collect(test, k, &recs);
	for (i = 0; i < n; i++)
		cpu += *(u16 *)(recs[i].data + 6) == 0x0B0A;
	KUNIT_EXPECT_EQ(test, cpu, 1);
	/* Its processors, at +4 of the payload after a full header. */
	for (i = 0; i < n; i++)
		if (*(u16 *)(recs[i].data + 6) == 0x0B0A)
			KUNIT_EXPECT_EQ(test, *(u32 *)(recs[i].data + 0x20 + 4), num_online_cpus());
	ntk_stop(k);
	ntk_put(k);

	k = start_kernel_logger(test, 0, 0);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 0);
}

/*
 * The flags the module writes events for (NTTRACE_IOC_VERSION's
 * system_flags): those README's "The NT Kernel Logger" lists, and no more.
 */
static void flags_built_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, nt_kernel_logger_flags(),
			NTTRACE_EVENT_TRACE_FLAG_PROCESS | NTTRACE_EVENT_TRACE_FLAG_THREAD |
			NTTRACE_EVENT_TRACE_FLAG_IMAGE_LOAD | NTTRACE_EVENT_TRACE_FLAG_CSWITCH |
			NTTRACE_EVENT_TRACE_FLAG_DISPATCHER | NTTRACE_EVENT_TRACE_FLAG_DISK_IO |
			NTTRACE_EVENT_TRACE_FLAG_DISK_IO_INIT |
			NTTRACE_EVENT_TRACE_FLAG_NETWORK_TCPIP | NTTRACE_EVENT_TRACE_FLAG_PROFILE |
			NTTRACE_EVENT_TRACE_FLAG_SYSTEMCALL | NTTRACE_EVENT_TRACE_FLAG_VIRTUAL_ALLOC |
			NTTRACE_EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS |
			NTTRACE_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS |
			NTTRACE_EVENT_TRACE_FLAG_PROCESS_COUNTERS |
			NTTRACE_EVENT_TRACE_FLAG_FILE_IO | NTTRACE_EVENT_TRACE_FLAG_FILE_IO_INIT |
			NTTRACE_EVENT_TRACE_FLAG_DISK_FILE_IO);
}

/* The test's thread without capabilities (nt_privileged_system() false), until undone. */
static const struct cred *drop_caps(struct kunit *test)
{
	struct cred *c = prepare_creds();
	const struct cred *old;

	KUNIT_ASSERT_NOT_NULL(test, c);
	cap_clear(c->cap_effective);
	old = override_creds(c);
	put_cred(c);
	return old;
}

static unsigned int count_hook(struct kunit *test, struct ntk_session *k, u16 hook)
{
	struct ntk_record *recs;
	unsigned int n = ntk_collect(test, k, &recs), i, hits = 0;

	for (i = 0; i < n; i++)
		hits += recs[i].size >= 8 && *(u16 *)(recs[i].data + 6) == hook;
	return hits;
}

/*
 * A raw record checked against a plain session, written after its logger
 * ID went to a system logger (TRACE_RAW's copy sleeps between the two):
 * the write is judged on the system logger, and refused to a caller who
 * is not nt_privileged_system().
 */
static void forge_rule_test(struct kunit *test)
{
	struct nttrace_call call = { .kernel_mode = true };
	struct nttrace_logger_info info;
	struct ntk_session *plain, *sys;
	struct nt_write w = {}, only = {};
	const struct cred *old;
	u32 id;

	ntk_info(&info, "kunit-forge-plain");
	plain = ntk_start(test, &info);
	id = plain->id;
	w.call = &call;
	w.rules = NT_WRITE_USER | NT_WRITE_FORGE | NT_WRITE_NO_SECURE;
	w.kind = NT_RECORD_RAW;
	w.total = 0x28;
	only.call = &call;
	only.rules = NT_WRITE_USER | NT_WRITE_SYSTEM_ONLY;

	old = drop_caps(test);
	KUNIT_EXPECT_EQ(test, nt_write_check(&w, id), 0);
	KUNIT_EXPECT_EQ(test, nt_write_check(&only, id), -EINVAL);
	revert_creds(old);

	ntk_stop(plain);
	ntk_info(&info, "kunit-forge-sys");
	info.log_file_mode = NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE;
	info.group_mask[0] = NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG;
	sys = ntk_start(test, &info);
	KUNIT_ASSERT_EQ(test, sys->id, id);

	w.staged = kmalloc(0x28, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w.staged);
	sys_record(w.staged, 0x28, NTTRACE_TRACE_HEADER_TYPE_SYSTEM64);
	old = drop_caps(test);
	KUNIT_EXPECT_EQ(test, nt_write_session(&w, id), NTTRACE_STATUS_ACCESS_DENIED);
	KUNIT_EXPECT_FALSE(test, w.rules & NT_WRITE_SYSTEM);
	KUNIT_EXPECT_EQ(test, nt_write_check(&only, id), 0);
	revert_creds(old);
	KUNIT_EXPECT_EQ(test, count_hook(test, sys, 0x0F01), 0);

	/* With CAP_PERFMON (the test's thread has every capability): written. */
	KUNIT_EXPECT_EQ(test, nt_write_session(&w, id), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_TRUE(test, w.rules & NT_WRITE_SYSTEM);
	KUNIT_EXPECT_EQ(test, count_hook(test, sys, 0x0F01), 1);
	nt_write_release(&w);
}

/*
 * An enable holds the session it checked (and marked, for the security
 * provider): once that session stops, nt_session_listed() says so, even
 * when a new session has its logger ID, which stays unmarked.
 */
static void enable_hold_test(struct kunit *test)
{
	struct nttrace_logger_info info;
	struct ntk_session *a, *b, *sys;
	const struct cred *old;
	struct nt_session *s;

	ntk_info(&info, "kunit-enable-a");
	a = ntk_start(test, &info);
	s = nt_session_get_enable(a->id, true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_EXPECT_TRUE(test, s->security);
	KUNIT_EXPECT_TRUE(test, nt_session_listed(s));
	ntk_stop(a);
	KUNIT_EXPECT_FALSE(test, nt_session_listed(s));
	ntk_info(&info, "kunit-enable-b");
	b = ntk_start(test, &info);
	KUNIT_EXPECT_EQ(test, b->id, a->id);
	KUNIT_EXPECT_FALSE(test, nt_session_listed(s));
	KUNIT_EXPECT_FALSE(test, b->s->security);
	nt_session_put(s);

	/* A system logger: only for nt_privileged_system(). */
	ntk_info(&info, "kunit-enable-sys");
	info.log_file_mode = NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE;
	info.group_mask[0] = NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG;
	sys = ntk_start(test, &info);
	old = drop_caps(test);
	KUNIT_EXPECT_EQ(test, PTR_ERR(nt_session_get_enable(sys->id, false)), -EPERM);
	revert_creds(old);
	s = nt_session_get_enable(sys->id, false);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	nt_session_put(s);
}

static struct kunit_case nttrace_system_cases[] = {
	KUNIT_CASE(record_check_test),
	KUNIT_CASE(kernel_mode_test),
	KUNIT_CASE(sys_emit_test),
	KUNIT_CASE(sysconfig_test),
	KUNIT_CASE(flags_built_test),
	KUNIT_CASE(forge_rule_test),
	KUNIT_CASE(enable_hold_test),
	{}
};

static struct kunit_suite nttrace_system_suite = {
	.name = "nttrace_system",
	.test_cases = nttrace_system_cases,
};
kunit_test_suite(nttrace_system_suite);
