// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the NT Kernel Logger's record encoders (common/sysrec.c,
 * common/sysconfig.c, common/utf16.c) as nttrace.ko builds them; the cases are
 * tests/kunit/sysrec_cases.h, which tests/host/sysrec_test.c runs on the
 * library's build.
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

#include "sysrec_cases.h"

#define RS_CASE(name)					\
	static void name##_test(struct kunit *test)	\
	{						\
		struct rc_ctx ctx = { .test = test };	\
							\
		name(&ctx);				\
	}
RS_CASE(rs_headers)
RS_CASE(rs_sids)
RS_CASE(rs_utf16)
RS_CASE(rs_process)
RS_CASE(rs_process_long)
RS_CASE(rs_thread)
RS_CASE(rs_image)
RS_CASE(rs_cswitch)
RS_CASE(rs_disk)
RS_CASE(rs_tcp)
RS_CASE(rs_profile)
RS_CASE(rs_pagefault)
RS_CASE(rs_perfctr)
RS_CASE(rs_fileio)
RS_CASE(rs_filename)
RS_CASE(rs_mark)
RS_CASE(rs_sysconfig)
RS_CASE(rs_table)

static struct kunit_case nttrace_sysrec_cases[] = {
	KUNIT_CASE(rs_headers_test),
	KUNIT_CASE(rs_sids_test),
	KUNIT_CASE(rs_utf16_test),
	KUNIT_CASE(rs_process_test),
	KUNIT_CASE(rs_process_long_test),
	KUNIT_CASE(rs_thread_test),
	KUNIT_CASE(rs_image_test),
	KUNIT_CASE(rs_cswitch_test),
	KUNIT_CASE(rs_disk_test),
	KUNIT_CASE(rs_tcp_test),
	KUNIT_CASE(rs_profile_test),
	KUNIT_CASE(rs_pagefault_test),
	KUNIT_CASE(rs_perfctr_test),
	KUNIT_CASE(rs_fileio_test),
	KUNIT_CASE(rs_filename_test),
	KUNIT_CASE(rs_mark_test),
	KUNIT_CASE(rs_sysconfig_test),
	KUNIT_CASE(rs_table_test),
	{}
};

static struct kunit_suite nttrace_sysrec_suite = {
	.name = "nttrace_sysrec",
	.test_cases = nttrace_sysrec_cases,
};
kunit_test_suite(nttrace_sysrec_suite);
