/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal TAP producer for the user-space tests that run in the VM.
 * Each check prints "ok N - what" or "not ok N - what"; tap_done() prints
 * the plan and returns the exit status. scripts/check counts the lines and
 * holds a program that dies early (plan missing) as failed.
 *
 * The counts are reached through tap_counts, so that harness.h can move
 * them into memory its test cases' processes share with the program.
 */
#ifndef NTTRACE_TAP_H
#define NTTRACE_TAP_H

#include <stdarg.h>
#include <stdio.h>

struct tap_counts {
	unsigned int n;		/* checks reported */
	unsigned int failed;	/* of which failed */
};

static struct tap_counts tap_own_counts, *tap_counts = &tap_own_counts;

__attribute__((format(printf, 2, 3)))
static int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %u - ", cond ? "" : "not ", ++tap_counts->n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!cond)
		tap_counts->failed++;
	return cond;
}

/* Compare two unsigned values and say both when they differ. */
#define tap_eq(got, want, ...)						\
	({								\
		unsigned long long _g = (got), _w = (want);		\
		if (_g != _w)						\
			printf("# got 0x%llx, want 0x%llx\n", _g, _w);	\
		tap_ok(_g == _w, __VA_ARGS__);				\
	})

static int tap_done(void)
{
	printf("1..%u\n", tap_counts->n);
	return tap_counts->failed ? 1 : 0;
}

#endif /* NTTRACE_TAP_H */
