// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the record encoders (common/record.c) as nttrace.ko
 * builds them; the cases are tests/kunit/record_cases.h, which
 * tests/host/record_test.c runs on the library's build.
 */
#include <kunit/test.h>
#include <linux/string.h>

struct rc_ctx {
	struct kunit *test;
};

#define rc_eq(ctx, got, want, what) \
	KUNIT_EXPECT_EQ_MSG((ctx)->test, (u64)(got), (u64)(want), "%s", what)
#define rc_mem(ctx, got, want, len, what) \
	KUNIT_EXPECT_MEMEQ_MSG((ctx)->test, got, want, len, "%s", what)

#include "record_cases.h"

#define RC_CASE(name)					\
	static void name##_test(struct kunit *test)	\
	{						\
		struct rc_ctx ctx = { .test = test };	\
							\
		name(&ctx);				\
	}
RC_CASE(rc_message_sizes)
RC_CASE(rc_message_all_items)
RC_CASE(rc_message_some_items)
RC_CASE(rc_classic_types)
RC_CASE(rc_classic)
RC_CASE(rc_event)
RC_CASE(rc_event_items)
RC_CASE(rc_event_stack)
RC_CASE(rc_event_metadata)
RC_CASE(rc_buffer)

static struct kunit_case nttrace_record_cases[] = {
	KUNIT_CASE(rc_message_sizes_test),
	KUNIT_CASE(rc_message_all_items_test),
	KUNIT_CASE(rc_message_some_items_test),
	KUNIT_CASE(rc_classic_types_test),
	KUNIT_CASE(rc_classic_test),
	KUNIT_CASE(rc_event_test),
	KUNIT_CASE(rc_event_items_test),
	KUNIT_CASE(rc_event_stack_test),
	KUNIT_CASE(rc_event_metadata_test),
	KUNIT_CASE(rc_buffer_test),
	{}
};

static struct kunit_suite nttrace_record_suite = {
	.name = "nttrace_record",
	.test_cases = nttrace_record_cases,
};
kunit_test_suite(nttrace_record_suite);
