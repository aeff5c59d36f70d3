// SPDX-License-Identifier: MIT
/*
 * A program to profile: it burns CPU in work() called through outer() and
 * middle(), until it has used --cpu-ms milliseconds of CPU time (its own,
 * so that a slow machine gives as many samples as a fast one), then
 * exits. Built with frame pointers, so that the stacks of its samples name
 * its callers:
 *
 *   nttrace record --kernel profile,process,thread,img --stacks profile \
 *       -o spin.etl -- spin_sample --cpu-ms 500
 *   nttrace profile spin.etl
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long work_done;

/* CPU time used so far, in milliseconds. */
static long cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* The hot function: where the samples should be. */
__attribute__((noinline)) static void work(long until)
{
	unsigned long i;

	/* The clock is a system call: read it seldom. */
	while (cpu_ms() < until)
		for (i = 0; i < 5000000; i++)
			work_done++;
}

__attribute__((noinline)) static void middle(long until)
{
	work(until);
	work_done++;
}

__attribute__((noinline)) static void outer(long until)
{
	middle(until);
	work_done++;
}

int main(int argc, char **argv)
{
	long ms = 500;

	if (argc == 3 && !strcmp(argv[1], "--cpu-ms"))
		ms = strtol(argv[2], NULL, 10);
	else if (argc != 1) {
		fprintf(stderr, "usage: spin_sample [--cpu-ms MS]\n");
		return 2;
	}
	outer(cpu_ms() + ms);
	printf("spin_sample: %ld ms of CPU\n", ms);
	return 0;
}
