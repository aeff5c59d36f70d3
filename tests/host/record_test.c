// SPDX-License-Identifier: GPL-2.0
/*
 * The record encoders (common/record.c) as the library builds them, 64-
 * and 32-bit: the cases of tests/kunit/record_cases.h, which the KUnit
 * suite tests/kunit/record_test.c runs on nttrace.ko's build. TAP.
 */
#include <stdio.h>
#include <string.h>

#include "../vm/tap.h"

struct rc_ctx {
	int unused;
};

#define rc_eq(ctx, got, want, what) tap_eq(got, want, "%s", what)

static void rc_mem(struct rc_ctx *ctx, const void *got, const void *want,
		   unsigned int len, const char *what)
{
	const unsigned char *g = got, *w = want;
	unsigned int i;

	for (i = 0; i < len && g[i] == w[i]; i++)
		;
	if (i < len)
		printf("# byte 0x%x: got 0x%02x, want 0x%02x\n", i, g[i], w[i]);
	tap_ok(i == len, "%s", what);
}

#include "../kunit/record_cases.h"

int main(void)
{
	struct rc_ctx ctx = { 0 };

	rc_message_sizes(&ctx);
	rc_message_all_items(&ctx);
	rc_message_some_items(&ctx);
	rc_classic_types(&ctx);
	rc_classic(&ctx);
	rc_event(&ctx);
	rc_event_items(&ctx);
	rc_event_stack(&ctx);
	rc_event_metadata(&ctx);
	rc_buffer(&ctx);
	return tap_done();
}
