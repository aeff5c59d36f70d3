// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite nttrace_kapi: the kernel-mode API (module/kapi.c,
 * include/nttrace/wdm.h) into a real session: WmiTraceMessage's argument
 * pairs on the stack and, past a few, in memory; the GUID rules; kernel
 * memory that cannot be read (nothing committed); Fields not aligned (no
 * user-mode defence); a paged-memory session refusing kernel-mode events.
 * The sample driver tests the three contexts in the VM (tests/vm/kapi_test.c).
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <nttrace/wdm.h>

#include "kunit_util.h"

static const guid_t kapi_guid = GUID_INIT(0x01234567, 0x89ab, 0xcdef, 0x01, 0x23,
					  0x45, 0x67, 0x89, 0xab, 0xcd, 0xef);

static struct ntk_session *kapi_start(struct kunit *test, u32 mode)
{
	struct nttrace_logger_info info;

	ntk_info(&info, "kunit-kapi");
	info.buffer_size_kb = 16;
	info.log_file_mode = mode;
	return ntk_start(test, &info);
}

/* The only record since the last collect, which must be a message. */
static const u8 *kapi_one(struct kunit *test, struct ntk_session *k, u32 *size)
{
	struct ntk_record *recs;

	KUNIT_ASSERT_EQ(test, ntk_collect(test, k, &recs), 1);
	KUNIT_EXPECT_EQ(test, recs[0].data[3], MESSAGE_TRACE_MARKER_BYTE);
	*size = recs[0].size;
	return recs[0].data;
}

static void pairs_test(struct kunit *test)
{
	struct ntk_session *k = kapi_start(test, 0);
	u8 a[12], b[12], want[24];
	const u8 *rec;
	u32 size, i;

	for (i = 0; i < sizeof(a); i++) {
		a[i] = i;
		b[i] = 0x80 + i;
	}
	/* No argument at all. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, 0, NULL, 7, NULL), STATUS_SUCCESS);
	rec = kapi_one(test, k, &size);
	KUNIT_EXPECT_EQ(test, size, 8);
	KUNIT_EXPECT_EQ(test, *(u16 *)(rec + 4), 7);
	KUNIT_EXPECT_EQ(test, *(u16 *)(rec + 6), TRACE_MESSAGE_POINTER64);

	/* Two pairs: on the stack. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, TRACE_MESSAGE_GUID, &kapi_guid, 8,
					      a, sizeof(a), b, (size_t)5, NULL),
			STATUS_SUCCESS);
	rec = kapi_one(test, k, &size);
	KUNIT_EXPECT_EQ(test, size, 8 + 16 + 12 + 5);
	KUNIT_EXPECT_MEMEQ(test, rec + 8, &kapi_guid, 16);
	memcpy(want, a, 12);
	memcpy(want + 12, b, 5);
	KUNIT_EXPECT_MEMEQ(test, rec + 24, want, 17);

	/* Twelve pairs: past the stack's eight, so in memory. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, 0, NULL, 9,
					      a + 0, (size_t)2, a + 2, (size_t)2,
					      a + 4, (size_t)2, a + 6, (size_t)2,
					      a + 8, (size_t)2, a + 10, (size_t)2,
					      b + 0, (size_t)2, b + 2, (size_t)2,
					      b + 4, (size_t)2, b + 6, (size_t)2,
					      b + 8, (size_t)2, b + 10, (size_t)2, NULL),
			STATUS_SUCCESS);
	rec = kapi_one(test, k, &size);
	KUNIT_EXPECT_EQ(test, size, 8 + 24);
	memcpy(want, a, 12);
	memcpy(want + 12, b, 12);
	KUNIT_EXPECT_MEMEQ(test, rec + 8, want, 24);
}

static void guid_test(struct kunit *test)
{
	struct ntk_session *k = kapi_start(test, 0);
	struct ntk_record *recs;
	u32 component = 0x11223344;
	const u8 *rec;
	u32 size;

	/* The flags need a GUID and there is none. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, TRACE_MESSAGE_GUID, NULL, 1, NULL),
			STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, TRACE_MESSAGE_COMPONENTID, NULL, 1, NULL),
			STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 0);

	/* A component ID: only its 4 bytes are read. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, TRACE_MESSAGE_COMPONENTID,
					      (const guid_t *)&component, 2, NULL),
			STATUS_SUCCESS);
	rec = kapi_one(test, k, &size);
	KUNIT_EXPECT_EQ(test, size, 12);
	KUNIT_EXPECT_EQ(test, *(u32 *)(rec + 8), component);
}

static void bad_memory_test(struct kunit *test)
{
	struct ntk_session *k = kapi_start(test, 0);
	struct nttrace_logger_info out;
	struct ntk_record *recs;
	u8 ok[4] = { 1, 2, 3, 4 };

	/* A pointer no kernel memory is at: nothing committed, nothing lost. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, 0, NULL, 3, ok, sizeof(ok),
					      (const void *)16, (size_t)4, NULL),
			STATUS_ACCESS_VIOLATION);
	KUNIT_EXPECT_EQ(test, ZwTraceEvent(k->id, ETW_NT_FLAGS_TRACE_MESSAGE,
					   MESSAGE_TRACE_USER_SIZE, (const void *)16),
			STATUS_ACCESS_VIOLATION);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 0);
	KUNIT_ASSERT_EQ(test, ntk_control(EVENT_TRACE_CONTROL_QUERY, k->id, &out), 0);
	KUNIT_EXPECT_EQ(test, out.events_lost, 0);
}

static void misaligned_test(struct kunit *test)
{
	struct ntk_session *k = kapi_start(test, 0);
	struct message_trace_user m = { .message_number = 4 };
	u8 *buf = kunit_kzalloc(test, sizeof(m) + 1, GFP_KERNEL);
	struct ntk_record *recs;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* User-mode callers get STATUS_DATATYPE_MISALIGNMENT; the kernel is trusted. */
	memcpy(buf + 1, &m, sizeof(m));
	KUNIT_EXPECT_EQ(test, ZwTraceEvent(k->id, ETW_NT_FLAGS_TRACE_MESSAGE,
					   MESSAGE_TRACE_USER_SIZE, buf + 1),
			STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 1);
	/* An invalid type is refused first, as for user mode. */
	KUNIT_EXPECT_EQ(test, ZwTraceEvent(k->id, 0x0A00, 0, buf), STATUS_INVALID_PARAMETER);
}

static void paged_test(struct kunit *test)
{
	struct ntk_session *k = kapi_start(test, EVENT_TRACE_USE_PAGED_MEMORY);
	struct nttrace_logger_info out;
	struct ntk_record *recs;

	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, 0, NULL, 5, NULL), STATUS_NOT_SUPPORTED);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 0);
	KUNIT_ASSERT_EQ(test, ntk_control(EVENT_TRACE_CONTROL_QUERY, k->id, &out), 0);
	KUNIT_EXPECT_EQ(test, out.events_lost, 0);
	/* The handle's other bits (level, flags) are not the logger ID. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(NTTRACE_HANDLE(0, 4, 0, 1), 0, NULL, 5, NULL),
			STATUS_INVALID_HANDLE);
}

static struct kunit_case nttrace_kapi_cases[] = {
	KUNIT_CASE(pairs_test),
	KUNIT_CASE(guid_test),
	KUNIT_CASE(bad_memory_test),
	KUNIT_CASE(misaligned_test),
	KUNIT_CASE(paged_test),
	{}
};

static struct kunit_suite nttrace_kapi_suite = {
	.name = "nttrace_kapi",
	.test_cases = nttrace_kapi_cases,
};

kunit_test_suite(nttrace_kapi_suite);
