// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace_safe_copy() of 64 bytes from each kind of memory a caller may
 * pass, in ns a copy, and what a bad pointer costs; then a whole event
 * into the user-mode logger with its argument in a thread's malloc arena.
 * Uses only the library's copy, so that it links with any version of it
 * (make safecopy-bench; the numbers are in userlib/nt/safecopy.c).
 * Each figure is the best of ROUNDS rounds: the machine is shared.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/evntrace.h>
#include "../../userlib/internal.h"
#include "../vm/props.h"

#define LEN	64
#define ROUNDS	7

static uint8_t data_seg[LEN] = { 1 };
static volatile int sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ns a copy of @src, best of ROUNDS rounds of @n. */
static double time_copy(const void *src, unsigned int n)
{
	uint8_t dst[LEN];
	double best = 1e30;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		uint64_t t0 = now_ns();
		unsigned int i;

		for (i = 0; i < n; i++) {
			sink += nttrace_safe_copy(dst, src, LEN);
			__asm__ volatile("" : : "r"(dst) : "memory");
		}
		t0 = now_ns() - t0;
		if ((double)t0 / n < best)
			best = (double)t0 / n;
	}
	return best;
}

/* Bad pointers, one page after another of a PROT_NONE reservation. */
static double time_bad_stream(uint8_t *none, unsigned int pages, unsigned int n)
{
	long pg = getpagesize();
	uint8_t dst[LEN];
	uint64_t t0 = now_ns();
	unsigned int i;

	for (i = 0; i < n; i++)
		sink += nttrace_safe_copy(dst, none + (i % pages) * pg, LEN);
	return (double)(now_ns() - t0) / n;
}

/* Not in libraries before the cache of the map: then NULL. */
extern void nttrace_safe_copy_stats(struct nttrace_safe_copy_stats *st) __attribute__((weak));

static unsigned long rereads(void)
{
	struct nttrace_safe_copy_stats st;

	if (!nttrace_safe_copy_stats)
		return 0;
	nttrace_safe_copy_stats(&st);
	return st.rereads;
}

/* Waits until a miss may read the map again (20 ms without the cache). */
static void wait_reread(void)
{
	struct nttrace_safe_copy_stats st = { .reread_wait_ns = 20 * 1000 * 1000 };
	struct timespec pause = { 0, 0 };

	if (nttrace_safe_copy_stats)
		nttrace_safe_copy_stats(&st);
	pause.tv_sec = st.reread_wait_ns / 1000000000;
	pause.tv_nsec = st.reread_wait_ns % 1000000000 + 1000;
	nanosleep(&pause, NULL);
}

/*
 * The first copy from a mapping made after the map was read (a miss: the
 * map is read again), the median of @n, each after the wait that lets a
 * re-read happen; its page touched first, so that no page fault counts.
 * (Without the cache: a copy through the kernel, with cold caches.)
 */
static double time_first_copy(unsigned int n)
{
	double t[64];
	uint8_t dst[LEN], *maps[64];
	unsigned int i, j;

	for (i = 0; i < n && i < 64; i++) {
		uint8_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				  -1, 0);
		unsigned long before;
		uint64_t t0;

		memset(p, 1, LEN);
		wait_reread();
		before = rereads();
		t0 = now_ns();
		sink += nttrace_safe_copy(dst, p, LEN);
		t[i] = (double)(now_ns() - t0);
		if (nttrace_safe_copy_stats && rereads() != before + 1)
			printf("  (copy %u did not read the map)\n", i);
		/* Kept: the next mapping is then at a new address, not in the map read. */
		maps[i] = p;
	}
	for (i = 0; i < n && i < 64; i++)
		munmap(maps[i], 4096);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (t[j] < t[i]) {
				double x = t[i];

				t[i] = t[j];
				t[j] = x;
			}
	return t[n / 2];
}

struct arena_run {
	double copy_ns, event_ns;
	unsigned long calls, traced;
	TRACEHANDLE h;
};

/* In a thread: its own malloc arena (glibc: mmap'd, not the brk heap). */
static void *arena_thread(void *arg)
{
	struct arena_run *run = arg;
	uint8_t *block = malloc(LEN);
	double best = 1e30;
	int r;

	memset(block, 0x5a, LEN);
	run->copy_ns = time_copy(block, 2000000);
	/* Rounds that fit in the buffers, with a pause for the writer. */
	for (r = 0; r < ROUNDS && run->h; r++) {
		struct timespec pause = { 0, 100 * 1000 * 1000 };
		unsigned int i, n = 50000;
		uint64_t t0;

		nanosleep(&pause, NULL);
		t0 = now_ns();
		for (i = 0; i < n; i++)
			run->traced += TraceMessage(run->h, TRACE_MESSAGE_SEQUENCE, NULL, 1,
						    block, (size_t)LEN, NULL) == ERROR_SUCCESS;
		t0 = now_ns() - t0;
		run->calls += n;
		if ((double)t0 / n < best)
			best = (double)t0 / n;
	}
	run->event_ns = best;
	free(block);
	return NULL;
}

int main(void)
{
	long pg = getpagesize();
	uint8_t stack[LEN], *heap = malloc(LEN), *big = malloc(1 << 20);
	uint8_t *map = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0);
	uint8_t *none = mmap(NULL, 64 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *many[2048];
	struct arena_run run = { 0 };
	char path[64];
	struct props pr;
	unsigned long before;
	pthread_t t;
	unsigned int i;

	memset(stack, 1, LEN);
	memset(heap, 2, LEN);
	memset(big, 3, 1 << 20);
	memset(map, 4, 1 << 16);
	printf("%d-bit, ns a %d-byte copy (best of %d rounds)\n", (int)sizeof(void *) * 8, LEN,
	       ROUNDS);
	printf("  stack            %8.1f\n", time_copy(stack, 2000000));
	printf("  static           %8.1f\n", time_copy(data_seg, 2000000));
	printf("  brk heap         %8.1f\n", time_copy(heap, 2000000));
	printf("  mmap'd           %8.1f\n", time_copy(map + 100, 2000000));
	printf("  large malloc     %8.1f\n", time_copy(big + 4000, 2000000));
	pthread_create(&t, NULL, arena_thread, &run);
	pthread_join(t, NULL);
	printf("  thread arena     %8.1f\n", run.copy_ns);
	before = rereads();
	printf("  bad: PROT_NONE   %8.1f\n", time_copy(none, 200000));
	printf("  bad: NULL        %8.1f\n", time_copy(NULL, 200000));
	printf("  (the map read %lu times for those %u copies)\n", rereads() - before,
	       2 * ROUNDS * 200000);
	wait_reread();
	before = rereads();
	printf("  bad: 64 pages in turn %8.1f\n", time_bad_stream(none, 64, 200000));
	printf("  (the map read %lu times for those 200000 copies)\n", rereads() - before);
	printf("  first copy from a new mapping (median) %8.1f\n", time_first_copy(15));

	/* A larger map: 2048 more mappings, none merged with the next. */
	for (i = 0; i < 2048; i++) {
		many[i] = mmap(NULL, pg, i % 2 ? PROT_READ : PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (many[i] == MAP_FAILED)
			many[i] = NULL;
	}
	printf("with 2048 more mappings:\n");
	printf("  mmap'd           %8.1f\n", time_copy(map + 100, 2000000));
	printf("  one of them      %8.1f\n", time_copy(many[1000] ? many[1000] + 100 : map, 2000000));
	printf("  first copy from a new mapping (median) %8.1f\n", time_first_copy(15));
	for (i = 0; i < 2048; i++)
		if (many[i])
			munmap(many[i], pg);

	/* A whole event into the user-mode logger, from a thread's arena. */
	snprintf(path, sizeof(path), "/tmp/safecopy-bench-%d.etl", getpid());
	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	pr.p.BufferSize = 1024;
	pr.p.MaximumBuffers = 16;
	if (StartTraceA(&run.h, "safecopy-bench", &pr.p) == ERROR_SUCCESS) {
		pthread_create(&t, NULL, arena_thread, &run);
		pthread_join(t, NULL);
		printf("TraceMessage, a %d-byte argument in a thread's arena: %.1f ns an event "
		       "(%lu of %lu traced)\n", LEN, run.event_ns, run.traced, run.calls);
		props_init(&pr, NULL, 0);
		StopTraceA(run.h, NULL, &pr.p);
	}
	unlink(path);
	return 0;
}
