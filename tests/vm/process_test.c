// SPDX-License-Identifier: GPL-2.0
/*
 * What the library may not do to the process that links it:
 *  - take SIGSEGV or SIGBUS: a program's own handlers stay installed and
 *    are never called for a bad address the library refuses
 *    (ERROR_NOACCESS), and SIG_DFL stays SIG_DFL; nttrace_safe_copy()
 *    copies every kind of memory a caller may pass and refuses every bad
 *    range. Its cache of the map: memory mapped readable (mmap'd, another
 *    thread's arena) is copied without a system call (counted with
 *    ptrace), a mapping made later is found by reading the map again,
 *    a bad pointer passed in a loop does not have the map read each time,
 *    and one unmapped and mapped PROT_NONE is refused once the map was
 *    read again, as is a guard region (MADV_GUARD_INSTALL) that the map
 *    does not show; copies stay right while other threads read it again.
 *  - close a descriptor the program owns: the descriptor a thread's
 *    NtTraceEvent went through, closed by the program and its number
 *    reused, stays the program's when the thread exits.
 *  - run on in a copy of the program: a kernel session's logger process is
 *    the nttrace tool, exec'd (its /proc/PID/exe), not a fork of the
 *    caller running library code (no fork handler of the program runs).
 *  - keep a thread running for nothing: the notification thread of the
 *    registrations ends when the last registration goes (and is started
 *    again by the next one).
 * And no handle is read through as a pointer: a stale handle,
 * or any value the library did not give, is refused without reading the
 * memory it would point to, even unmapped memory; handles carry no
 * address bits.
 * Runs in the VM and on the host (the parts that need /dev/nttrace are
 * skipped without it), 64-bit and 32-bit.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/nt.h>
#include "../../userlib/internal.h"
#include "props.h"
#include "state.h"
#include "syscalls.h"
#include "tasks.h"

#define BITS ((int)sizeof(void *) * 8)

static char path[64];

static ULONG um_start(TRACEHANDLE *h)
{
	struct props pr;

	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	pr.p.BufferSize = 4;
	pr.p.MaximumBuffers = 8;
	return StartTraceA(h, "process-test", &pr.p);
}

static ULONG um_stop(TRACEHANDLE h)
{
	struct props pr;

	props_init(&pr, NULL, 0);
	return StopTraceA(h, NULL, &pr.p);
}

/* ---- no signal handler ---- */

static sigjmp_buf fault_jump;
static volatile sig_atomic_t faults;

/* The program's own handler: counts, and leaves the faulting call. */
static void program_handler(int sig, siginfo_t *info, void *uc)
{
	faults++;
	siglongjmp(fault_jump, 1);
}

static int handler_is(int sig, void (*want)(int, siginfo_t *, void *))
{
	struct sigaction sa;

	return !sigaction(sig, NULL, &sa) && (sa.sa_flags & SA_SIGINFO) &&
	       sa.sa_sigaction == want;
}

/* A page readable, then one that is not: bad addresses at and across it. */
static uint8_t *guarded_page(void)
{
	long pg = getpagesize();
	uint8_t *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0x5a, pg);
	mprotect(p + pg, pg, PROT_NONE);
	return p;
}

/* One TraceMessage of a bad argument (@guid: as the GUID); a fault: ~0. */
static ULONG trace_one(TRACEHANDLE h, const void *bad, int guid)
{
	if (sigsetjmp(fault_jump, 1))
		return ~0U;
	if (guid)
		return TraceMessage(h, TRACE_MESSAGE_GUID, (LPCGUID)bad, 1, NULL);
	return TraceMessage(h, 0, NULL, 1, "ok", (size_t)2, bad, (size_t)4, NULL);
}

/* TraceMessage with each bad address; how many did not give ERROR_NOACCESS. */
static unsigned int trace_bad(TRACEHANDLE h, const uint8_t *page)
{
	long pg = getpagesize();
	const void *bad[] = { page + pg, page + pg - 2, (void *)16, (void *)(uintptr_t)-8 };
	unsigned int i, wrong = 0;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		wrong += trace_one(h, bad[i], 0) != ERROR_NOACCESS;
	wrong += trace_one(h, page + pg, 1) != ERROR_NOACCESS;
	return wrong;
}

TEST(own_handlers)
{
	struct sigaction sa;
	uint8_t *page = guarded_page();
	TRACEHANDLE h;
	unsigned int wrong;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = program_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	if (!tap_ok(page && um_start(&h) == ERROR_SUCCESS, "%d-bit: a user-mode logger",
		    BITS))
		return;
	faults = 0;
	wrong = trace_bad(h, page);
	tap_eq(wrong, 0, "%d-bit: with the program's SIGSEGV handler: each bad address "
	       "-> ERROR_NOACCESS", BITS);
	tap_eq(faults, 0, "%d-bit: ... and the program's handler never ran", BITS);
	tap_ok(handler_is(SIGSEGV, program_handler) && handler_is(SIGBUS, program_handler),
	       "%d-bit: ... and is still the one installed, for SIGSEGV and SIGBUS", BITS);
	um_stop(h);
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	munmap(page, 2 * getpagesize());
}

/* In a child: SIG_DFL, bad addresses; 0 if refused and still SIG_DFL. */
static int default_child(void)
{
	uint8_t *page = guarded_page();
	struct sigaction sa;
	TRACEHANDLE h;
	int wrong;

	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	if (!page || um_start(&h))
		return 2;
	wrong = trace_bad(h, page);
	um_stop(h);
	if (wrong)
		return 3;
	if (sigaction(SIGSEGV, NULL, &sa) || sa.sa_handler != SIG_DFL ||
	    sigaction(SIGBUS, NULL, &sa) || sa.sa_handler != SIG_DFL)
		return 4;
	return 0;
}

TEST(default_action)
{
	int status = -1;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(default_child());
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		printf("# child killed by signal %d\n", WTERMSIG(status));
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "%d-bit: with SIG_DFL: bad addresses -> ERROR_NOACCESS, SIG_DFL left as it "
	       "was (status 0x%x)", BITS, status);
}

/* ---- nttrace_safe_copy() on each kind of memory ---- */

static const uint8_t rodata[40] = "constant bytes in the program's image...";
static uint8_t bss[40];

/* Copies @len bytes of @src and compares; 1 if both agree. */
static int copies(const void *src, size_t len)
{
	uint8_t dst[256];

	memset(dst, 0xee, sizeof(dst));
	return !nttrace_safe_copy(dst, src, len) && !memcmp(dst, src, len);
}

static void *thread_copies(void *arg)
{
	uint8_t local[32];

	memset(local, 0x33, sizeof(local));
	/* Its own stack, and the main thread's. */
	return (void *)(uintptr_t)(copies(local, sizeof(local)) && copies(arg, 32));
}

static volatile int alt_ok;

static void on_usr1(int sig)
{
	uint8_t local[32];

	memset(local, 0x44, sizeof(local));
	alt_ok = copies(local, sizeof(local)) && copies(rodata, sizeof(rodata));
}

/* A check of the list below: a TAP line, or (in a child) a count. */
static int report_checks;
static unsigned int check_failures;

static void check(int cond, const char *what)
{
	if (report_checks) {
		tap_ok(cond, "%d-bit: %s", BITS, what);
	} else if (!cond) {
		/* A TAP comment, so that a child's failure says which check. */
		printf("# failed in the child: %s\n", what);
		fflush(stdout);
		check_failures++;
	}
}

static void safe_copy_checks(void)
{
	long pg = getpagesize();
	uint8_t stack[64], *page = guarded_page(), *heap = malloc(48);
	uint8_t *big = malloc(1 << 20), *ro, out[8];
	struct sigaction sa;
	stack_t ss;
	pthread_t t;
	void *ret = NULL;

	memset(stack, 0x11, sizeof(stack));
	memset(heap, 0x22, 48);
	memset(big, 0x55, 1 << 20);
	memset(bss, 0x66, sizeof(bss));
	check(copies(rodata, sizeof(rodata)) && copies(bss, sizeof(bss)),
	      "nttrace_safe_copy: the program's constants and globals");
	check(copies(stack, sizeof(stack)), "... the caller's stack");
	check(copies(heap, 48) && copies(big + 12345, 200),
	      "... malloc'd memory, small and large (mmap'd)");
	check(page && copies(page + pg - 100, 100), "... a page's last bytes");
	check(!pthread_create(&t, NULL, thread_copies, stack) && !pthread_join(t, &ret) && ret,
	      "... another thread's stack, and from another thread");

	/* A handler on an alternate stack (not the thread's stack). */
	ss.ss_sp = malloc(1 << 16);
	ss.ss_size = 1 << 16;
	ss.ss_flags = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaltstack(&ss, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	alt_ok = 0;
	raise(SIGUSR1);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	signal(SIGUSR1, SIG_DFL);
	check(alt_ok, "... from a signal handler on an alternate stack");

	check(page && nttrace_safe_copy(out, page + pg, 1) == -EFAULT &&
	      nttrace_safe_copy(out, page + pg - 4, 8) == -EFAULT &&
	      nttrace_safe_copy(out, NULL, 1) == -EFAULT &&
	      nttrace_safe_copy(out, (void *)(uintptr_t)-4, 8) == -EFAULT,
	      "... -EFAULT: unreadable, across the end of readable memory, NULL, wrapping "
	      "around");
	munmap(page + pg, pg);
	check(nttrace_safe_copy(out, page + pg, 8) == -EFAULT, "... -EFAULT: unmapped");

	ro = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(out, 0x77, sizeof(out));
	check(ro != MAP_FAILED && nttrace_safe_store(ro, out, 8) == -EFAULT &&
	      nttrace_safe_store(big + 100, out, 8) == 0 && !memcmp(big + 100, out, 8) &&
	      nttrace_safe_store(stack, out, 8) == 0 && !memcmp(stack, out, 8),
	      "nttrace_safe_store: -EFAULT into read-only memory; into the heap and the stack");
	munmap(ro, pg);
	munmap(page, pg);
	free(ss.ss_sp);
	free(big);
	free(heap);
}

/*
 * Refuses process_vm_readv and process_vm_writev with ENOSYS, as a kernel
 * without CONFIG_CROSS_MEMORY_ATTACH does. 0, or -1 without seccomp.
 */
static int refuse_vm_readv(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_readv, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_writev, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0))
		return -1;
	return 0;
}

TEST(safe_copy)
{
	int status = -1;
	pid_t pid;

	report_checks = 1;
	safe_copy_checks();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		report_checks = 0;
		if (refuse_vm_readv())
			_exit(100);
		safe_copy_checks();
		_exit(check_failures ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 100)
		SKIP(, "# SKIP no seccomp to refuse process_vm_readv with");
	else
		tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		       "%d-bit: ... all of it again with process_vm_readv refused (ENOSYS: "
		       "through a pipe) (status 0x%x)", BITS, status);
}

/* ---- nttrace_safe_copy()'s cache of the map ---- */

static unsigned long stat_rereads(void)
{
	struct nttrace_safe_copy_stats st;

	nttrace_safe_copy_stats(&st);
	return st.rereads;
}

static unsigned long stat_kernel_copies(void)
{
	struct nttrace_safe_copy_stats st;

	nttrace_safe_copy_stats(&st);
	return st.kernel_copies;
}

/* Waits until a miss may read the map again (the re-reads' rate limit). */
static void reread_allowed(void)
{
	struct nttrace_safe_copy_stats st;
	struct timespec ts;

	nttrace_safe_copy_stats(&st);
	ts.tv_sec = st.reread_wait_ns / 1000000000;
	ts.tv_nsec = st.reread_wait_ns % 1000000000 + 1000;
	nanosleep(&ts, NULL);
}

/*
 * A page never mapped and never to be: the kernel's half (64-bit), the
 * pages under vm.mmap_min_addr (32-bit); another each call, so that the
 * re-reads' memory of bad pages (8 of them) does not know it.
 */
static void *never_mapped(void)
{
	static unsigned int k;

	k++;
	if (BITS == 64)
		return (void *)(uintptr_t)(0xffffffff80000000ULL + ((uint64_t)k << 12));
	return (void *)(uintptr_t)(4096 * (1 + k % 15));
}

/*
 * Has the map read now (a miss at a page never mapped); 1 if it was. A
 * range the program unmapped since the last re-read is then no longer in
 * the cache, nor one it mapped at an address free at that re-read.
 */
static int map_read_now(void)
{
	uint8_t out[8];
	unsigned long before;
	int i;

	for (i = 0; i < 4; i++) {
		reread_allowed();
		before = stat_rereads();
		if (nttrace_safe_copy(out, never_mapped(), sizeof(out)) != -EFAULT)
			return 0;
		if (stat_rereads() == before + 1)
			return 1;
	}
	return 0;
}

/*
 * @pages pages of @pattern at an address this process never used before
 * (one that it unmapped could still be in the cache, or among the pages
 * that missed after a re-read): above the usual mappings, one megabyte
 * on from the last one.
 */
static uint8_t *filled_map(size_t pages, int pattern)
{
	static uintptr_t next = BITS == 64 ? (uintptr_t)0x3e0000000000ULL : 0x50000000;
	size_t len = pages * getpagesize();
	int tries;

	for (tries = 0; tries < 64; tries++) {
		void *want = (void *)next;
		uint8_t *p;

		next += 1 << 20;
		p = mmap(want, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		if ((void *)p == want) {
			memset(p, pattern, len);
			return p;
		}
		munmap(p, len);
	}
	return NULL;
}

static void *arena_block(void *arg)
{
	uint8_t *b = malloc(200);

	if (b)
		memset(b, 0x99, 200);
	return b;	/* freed by the main thread: it stays in the thread's arena */
}

/*
 * In a child traced by the parent: copies from memory mapped before the
 * map was read take no system call: an mmap'd region, a block of another
 * thread's malloc arena, a large (mmap'd) malloc block, the stack, the
 * program's data. *@ok set if every copy was right.
 */
static int no_syscall_child(volatile int *ok)
{
	uint8_t stack[64], *map = filled_map(4, 0x12), *big = malloc(1 << 20), *arena = NULL;
	pthread_t t;

	memset(stack, 0x34, sizeof(stack));
	if (!map || !big || pthread_create(&t, NULL, arena_block, NULL) ||
	    pthread_join(t, (void **)&arena) || !arena)
		return 2;
	memset(big, 0x56, 1 << 20);
	if (traced_child_start())
		return 3;
	/* The map read once they all exist. */
	if (!map_read_now())
		return 4;
	syscall(SYS_getppid);
	*ok = copies(map + 4000, 200) && copies(arena, 200) && copies(big + 70000, 256) &&
	      copies(stack, sizeof(stack)) && copies(rodata, sizeof(rodata));
	syscall(SYS_getppid);
	free(arena);
	return 0;
}

/* Copies from every kind of memory in a loop, while the map is read again. */
struct copier {
	const uint8_t *src[3];
	volatile int *stop;
	unsigned long copies, wrong;
};

static void *copy_loop(void *arg)
{
	struct copier *c = arg;
	uint8_t local[100], dst[100];
	unsigned int i;

	memset(local, 0x77, sizeof(local));
	c->src[2] = local;
	while (!*c->stop)
		for (i = 0; i < 3; i++) {
			memset(dst, 0, sizeof(dst));
			c->copies++;
			if (nttrace_safe_copy(dst, c->src[i], sizeof(dst)) ||
			    memcmp(dst, c->src[i], sizeof(dst)))
				c->wrong++;
		}
	return NULL;
}

TEST(map_cache)
{
	long pg = getpagesize();
	uint8_t *r, *hole, *n, *two, *many[600], out[16];
	unsigned long before, kbefore, most;
	struct timespec t0, t1;
	volatile int stop = 0;
	struct copier c[2];
	unsigned int i, ok, wrong = 0;
	volatile int *shared;
	pthread_t t[2];
	int calls;
	pid_t pid;

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	*shared = 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(no_syscall_child(shared));
	/* It reaps the child: what the child saw comes back in *shared. */
	calls = syscalls_between_getppid(pid);
	if (calls < 0)
		SKIP(, "# SKIP cannot trace a child, or it failed before the copies");
	else
		tap_ok(calls == 0 && *shared,
		       "%d-bit: nttrace_safe_copy from mmap'd memory, another thread's malloc "
		       "arena, a large malloc block, the stack, the program: no system call "
		       "(%d; copies right: %d)", BITS, calls, *shared);
	munmap((void *)shared, sizeof(*shared));

	/* Mapped after the map was read: found by reading it again, then cached. */
	ok = map_read_now();
	reread_allowed();
	n = filled_map(1, 0x21);
	before = stat_rereads();
	kbefore = stat_kernel_copies();
	ok = ok && n && copies(n + 10, 100);
	tap_ok(ok && stat_rereads() == before + 1 && stat_kernel_copies() == kbefore,
	       "%d-bit: a region mapped after the map was read: the map read again, copied "
	       "without the kernel (%lu re-reads)", BITS, stat_rereads() - before);
	ok = n && copies(n + 200, 100) && copies(n + pg - 256, 256);
	tap_ok(ok && stat_rereads() == before + 1 && stat_kernel_copies() == kbefore,
	       "%d-bit: ... and from then on found in the cache", BITS);

	/* Never mapped: a hole between two readable pages, a kernel address. */
	hole = filled_map(3, 0x43);
	if (hole)
		munmap(hole + pg, pg);
	ok = hole && map_read_now() && nttrace_safe_copy(out, hole + pg + 8, 8) == -EFAULT &&
	     nttrace_safe_copy(out, hole + pg - 4, 8) == -EFAULT &&
	     nttrace_safe_copy(out, hole + 2 * pg - 4, 8) == -EFAULT &&
	     copies(hole + 2 * pg, 8) && copies(hole + pg - 8, 8);
	tap_ok(ok, "%d-bit: -EFAULT: a hole between two readable pages, into and out of it",
	       BITS);
	kbefore = stat_kernel_copies();
	ok = nttrace_safe_copy(out, (void *)(uintptr_t)(BITS == 64 ? 0xffffffff81000000ULL :
							0xfffff000UL), 8) == -EFAULT &&
	     nttrace_safe_copy(out, (void *)(uintptr_t)4096, 8) == -EFAULT &&
	     nttrace_safe_copy(out, NULL, 8) == -EFAULT;
	tap_ok(ok && stat_kernel_copies() == kbefore + 3,
	       "%d-bit: -EFAULT: a kernel address, a small integer, NULL (the kernel said so)",
	       BITS);

	/* The same bad pointer in a loop: the map is not read each time. */
	reread_allowed();
	before = stat_rereads();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0, ok = !!hole; i < 1000 && ok; i++)
		ok = nttrace_safe_copy(out, hole + pg + 100, 8) == -EFAULT;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/*
	 * One re-read, for the first; or none, if the page is one of those
	 * that missed after a re-read within BAD_MS; one more for each BAD_MS
	 * (a second) the loop lasted (it takes ~2 ms, but a busy host under
	 * emulation may stretch it: the bound follows the time it took).
	 */
	most = 2 + (unsigned long)(t1.tv_sec - t0.tv_sec);
	tap_ok(ok && stat_rereads() - before <= most,
	       "%d-bit: the same bad pointer 1000 times: -EFAULT, the map read again %lu "
	       "times in all (at most %lu)", BITS, stat_rereads() - before, most);

	/* Adjoining ranges, one read-only: a copy across, a store refused. */
	two = filled_map(2, 0x65);
	if (two)
		mprotect(two + pg, pg, PROT_READ);
	ok = two && map_read_now();
	kbefore = stat_kernel_copies();
	ok = ok && copies(two + pg - 100, 200);
	memset(out, 0x11, sizeof(out));
	tap_ok(ok && stat_kernel_copies() == kbefore &&
	       nttrace_safe_store(two + pg - 8, out, 16) == -EFAULT &&
	       nttrace_safe_store(two + pg - 16, out, 16) == 0 && !memcmp(two + pg - 16, out, 16),
	       "%d-bit: across a writable and a read-only mapping: copied without the "
	       "kernel; a store across refused, one before the boundary made", BITS);

	/*
	 * Unmapped once cached, and mapped again PROT_NONE at the same
	 * address: the next re-read (any miss makes one) finds it
	 * unreadable. Before that re-read a copy from it would be the
	 * program's dangling pointer (it faults, as the program's own read
	 * would: safecopy.c's trade), which is not tested.
	 */
	r = filled_map(2, 0x76);
	ok = r && map_read_now();
	kbefore = stat_kernel_copies();
	ok = ok && copies(r, 64) && stat_kernel_copies() == kbefore;
	if (r) {
		munmap(r, 2 * pg);
		ok &= mmap(r, 2 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
			   0) == r;
	}
	tap_ok(ok && map_read_now() && nttrace_safe_copy(out, r, 8) == -EFAULT &&
	       nttrace_safe_copy(out, r + pg + 8, 8) == -EFAULT,
	       "%d-bit: cached, unmapped, mapped PROT_NONE at the same address: -EFAULT "
	       "once the map was read again", BITS);
	if (r)
		munmap(r, 2 * pg);

	/*
	 * Two threads copy while the map is read again and again, growing
	 * past the first buffer's room (600 mappings, none merged with the
	 * next): every copy right.
	 */
	for (i = 0; i < 2; i++) {
		c[i].src[0] = rodata;
		c[i].src[1] = two;
		c[i].stop = &stop;
		c[i].copies = c[i].wrong = 0;
		pthread_create(&t[i], NULL, copy_loop, &c[i]);
	}
	for (i = 0; i < 600; i++) {
		many[i] = mmap(NULL, pg, i % 2 ? PROT_READ : PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (many[i] == MAP_FAILED)
			many[i] = NULL;
		if (i % 20 == 19) {
			reread_allowed();
			if (!many[i] || !copies(many[i], 64))
				wrong++;
		}
	}
	stop = 1;
	for (i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		wrong += c[i].wrong;
	}
	if (n)
		munmap(n, pg);
	tap_ok(!wrong && c[0].copies && c[1].copies,
	       "%d-bit: two threads copying while the map was read again and grew: every "
	       "copy right (%lu and %lu copies)", BITS, c[0].copies, c[1].copies);
	for (i = 0; i < 600; i++)
		if (many[i])
			munmap(many[i], pg);
	if (two)
		munmap(two, 2 * pg);
	if (hole) {
		munmap(hole, pg);
		munmap(hole + 2 * pg, pg);
	}
}

/*
 * A guard region (MADV_GUARD_INSTALL, Linux 6.13; glibc 2.42 guards
 * thread stacks so) inside a readable mapping, which /proc/self/maps does
 * not show: refused once the map was read again. In a child, which a
 * SIGSEGV would kill (before the library scanned for guard regions).
 */
#define GUARD_INSTALL 102	/* MADV_GUARD_INSTALL */

static int guard_child(void)
{
	long pg = getpagesize();
	uint8_t *g = filled_map(3, 0x5b), out[8];
	struct nttrace_safe_copy_stats st;

	if (!g)
		return 2;
	if (madvise(g + pg, pg, GUARD_INSTALL))
		return 100;
	if (!map_read_now())
		return 3;
	nttrace_safe_copy_stats(&st);
	if (!st.guard_scan)
		return 101;
	return nttrace_safe_copy(out, g + pg + 8, 8) == -EFAULT &&
	       nttrace_safe_copy(out, g + pg - 4, 8) == -EFAULT &&
	       nttrace_safe_copy(out, g + 2 * pg - 4, 8) == -EFAULT &&
	       copies(g + pg - 64, 64) && copies(g + 2 * pg, 64) ? 0 : 1;
}

TEST(guard_region)
{
	int status = -1;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(guard_child());
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 100)
		SKIP(, "# SKIP no MADV_GUARD_INSTALL (Linux 6.13)");
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 101)
		SKIP(, "# SKIP the kernel does not list guard regions (PAGEMAP_SCAN's "
		     "PAGE_IS_GUARD, Linux 6.15)");
	else
		tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		       "%d-bit: -EFAULT: a guard region (MADV_GUARD_INSTALL) inside a readable "
		       "mapping, into and out of it; its neighbours copied (status 0x%x)",
		       BITS, status);
}

/* ---- descriptors ---- */

#define MAX_FD 1024

/* Marks in @open the descriptors of /dev/nttrace; the first not in @old. */
static int nttrace_fds(char *open, const char *old)
{
	char link[64], target[PATH_MAX];
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	int found = -1;

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		int fd = atoi(d->d_name);
		ssize_t n;

		if (d->d_name[0] == '.' || fd < 0 || fd >= MAX_FD)
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		if (strcmp(target, NTTRACE_DEVICE))
			continue;
		if (open)
			open[fd] = 1;
		if (old && !old[fd] && found < 0)
			found = fd;
	}
	closedir(dir);
	return found;
}

static pthread_barrier_t traced, reused;
static char fds_before[MAX_FD];
static int thread_fd = -1;

static void *trace_then_exit(void *arg)
{
	/* No such session: it fails, through a descriptor of its own. */
	NtTraceEvent((HANDLE)(uintptr_t)0xFFFE, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, 0, NULL);
	thread_fd = nttrace_fds(NULL, fds_before);
	pthread_barrier_wait(&traced);
	pthread_barrier_wait(&reused);
	return arg;
}

TEST(descriptors)
{
	int shared = nttrace_device_fd(), p[2] = { -1, -1 }, ok;
	struct stat st;
	char c = 0;
	pthread_t t;

	if (shared < 0) {
		SKIP(return, "# SKIP the descriptors need /dev/nttrace");
	}
	/* Those open already (the process's, this thread's) are not the thread's. */
	NtTraceEvent((HANDLE)(uintptr_t)0xFFFE, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, 0, NULL);
	memset(fds_before, 0, sizeof(fds_before));
	nttrace_fds(fds_before, NULL);
	pthread_barrier_init(&traced, NULL, 2);
	pthread_barrier_init(&reused, NULL, 2);
	pthread_create(&t, NULL, trace_then_exit, NULL);
	pthread_barrier_wait(&traced);
	tap_ok(thread_fd >= 0, "%d-bit: a thread's NtTraceEvent opened descriptor %d", BITS,
	       thread_fd);
	/* The program closes it (as closefrom() would) and takes the number. */
	ok = thread_fd >= 0 && !pipe(p) && !close(thread_fd) && dup2(p[0], thread_fd) == thread_fd;
	pthread_barrier_wait(&reused);
	pthread_join(t, NULL);
	ok = ok && !fstat(thread_fd, &st) && S_ISFIFO(st.st_mode) && write(p[1], "x", 1) == 1 &&
	     read(thread_fd, &c, 1) == 1 && c == 'x';
	tap_ok(ok, "%d-bit: ... which the program then closed and reused: still the "
	       "program's when the thread has exited", BITS);
	if (p[0] >= 0) {
		close(p[0]);
		close(p[1]);
	}
	pthread_barrier_destroy(&traced);
	pthread_barrier_destroy(&reused);
}

/* ---- the notification thread ---- */

static ULONG WINAPI classic_cb(WMIDPREQUESTCODE code, PVOID ctx, ULONG *size, PVOID buf)
{
	return ERROR_SUCCESS;
}

static const GUID guid_a = { 0x6c1a1a01, 0x27, 0x4e11, { 0x90, 0x1d, 0, 0, 0, 0, 0, 1 } };
static const GUID guid_b = { 0x6c1a1a01, 0x27, 0x4e11, { 0x90, 0x1d, 0, 0, 0, 0, 0, 2 } };

TEST(notification_thread)
{
	TRACEHANDLE reg;
	REGHANDLE a = 0, b = 0;
	int base, ok = 1, i, two;

	if (nttrace_device_fd() < 0) {
		SKIP(return, "# SKIP the notification thread needs /dev/nttrace");
	}
	base = tasks_settled();
	tap_ok(RegisterTraceGuidsA(classic_cb, NULL, &guid_a, 0, NULL, NULL, NULL, &reg) ==
	       ERROR_SUCCESS && count_tasks() == base + 1,
	       "%d-bit: RegisterTraceGuids starts the notification thread", BITS);
	tap_ok(UnregisterTraceGuids(reg) == ERROR_SUCCESS && tasks_become(base),
	       "%d-bit: ... which ends when it is unregistered", BITS);
	two = EventRegister(&guid_a, NULL, NULL, &a) == ERROR_SUCCESS &&
	      EventRegister(&guid_b, NULL, NULL, &b) == ERROR_SUCCESS &&
	      count_tasks() == base + 1;
	/* Unregistered whatever the count: the table's limit is tested later. */
	two = EventUnregister(a) == ERROR_SUCCESS && two;
	tap_ok(two && count_tasks() == base + 1,
	       "%d-bit: EventRegister twice: one thread, still there after one unregisters",
	       BITS);
	tap_ok(EventUnregister(b) == ERROR_SUCCESS && tasks_become(base),
	       "%d-bit: ... and gone after the last", BITS);
	for (i = 0; i < 20 && ok; i++)
		ok = RegisterTraceGuidsA(classic_cb, NULL, &guid_a, 0, NULL, NULL, NULL, &reg) ==
		     ERROR_SUCCESS && UnregisterTraceGuids(reg) == ERROR_SUCCESS;
	tap_ok(ok && tasks_become(base),
	       "%d-bit: 20 registrations one after another leave no thread behind", BITS);
}

/* ---- the logger process ---- */

static volatile int *forked;	/* shared: fork handlers run in children */

static void count_fork(void)
{
	__atomic_add_fetch(forked, 1, __ATOMIC_RELAXED);
}

TEST_F(nttrace, file_logger)
{
	char file[64], link[64], exe[PATH_MAX];
	struct props pr;
	struct stat st;
	TRACEHANDLE h;
	pid_t logger;
	ssize_t n;
	ULONG err;

	if (nttrace_device_fd() < 0) {
		SKIP(return, "# SKIP the logger process needs /dev/nttrace");
	}
	forked = mmap(NULL, sizeof(*forked), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	if (forked == MAP_FAILED)
		return;
	*forked = 0;
	pthread_atfork(NULL, NULL, count_fork);
	snprintf(file, sizeof(file), "/tmp/process-file-%d.etl", getpid());
	props_init(&pr, file, 0);
	pr.p.BufferSize = 4;
	pr.p.MaximumBuffers = 8;
	err = StartTraceA(&h, "process-file", &pr.p);
	if (!tap_eq(err, ERROR_SUCCESS, "%d-bit: a kernel session with a log file", BITS))
		return;
	logger = (pid_t)(uintptr_t)pr.p.LoggerThreadId;
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)logger);
	n = readlink(link, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	tap_ok(n > 0 && !strcmp(strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe, "nttrace"),
	       "%d-bit: its logger process %d runs the nttrace tool (%s)", BITS, (int)logger,
	       exe);
	tap_eq(*forked, 0, "%d-bit: ... started without fork's handlers running in a copy "
	       "of this program", BITS);
	tap_ok(waitpid(logger, NULL, WNOHANG) < 0 && errno == ECHILD,
	       "%d-bit: ... and is no child of ours to reap", BITS);
	TraceMessage(h, 0, NULL, 1, "x", (size_t)1, NULL);
	props_init(&pr, NULL, 0);
	tap_ok(StopTraceA(h, NULL, &pr.p) == ERROR_SUCCESS && !stat(file, &st) &&
	       st.st_size >= 2 * 4096 && st.st_size % 4096 == 0,
	       "%d-bit: stopped: the file is whole (%lld bytes)", BITS, (long long)st.st_size);
	unlink(file);
	/* @forked stays mapped: count_fork stays registered. */
}

/* ---- handles ---- */

TEST(handles)
{
	long pg = getpagesize();
	EVENT_DESCRIPTOR d = { .Id = 1, .Level = 4, .Keyword = 1 };
	struct nttrace_enable_info info;
	EVENT_INSTANCE_INFO ii;
	uint8_t *gone = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			     -1, 0);
	uint64_t bad[10];
	REGHANDLE h, h2, many[NTTRACE_MAX_REGISTRATIONS];
	HANDLE cls;
	unsigned int i, n, wrong = 0;
	ULONG err;

	h = 0;
	err = EventRegister(&guid_a, NULL, NULL, &h);
	tap_ok(err == ERROR_SUCCESS && h && !(h >> 32),
	       "%d-bit: a REGHANDLE carries no address (0x%llx)", BITS, (unsigned long long)h);
	EventUnregister(h);
	tap_eq(EventWrite(h, &d, 0, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: EventWrite with an unregistered handle -> ERROR_INVALID_HANDLE", BITS);
	tap_ok(!EventEnabled(h, &d) && !EventProviderEnabled(h, 0, 0) &&
	       EventUnregister(h) == ERROR_INVALID_HANDLE &&
	       EventWriteString(h, 0, 0, u"x") == ERROR_INVALID_HANDLE &&
	       EventSetInformation(h, EventProviderBinaryTrackInfo, NULL, 0) ==
	       ERROR_INVALID_PARAMETER,
	       "%d-bit: ... EventEnabled FALSE, EventUnregister and EventWriteString "
	       "ERROR_INVALID_HANDLE, EventSetInformation ERROR_INVALID_PARAMETER", BITS);
	tap_ok(EventRegister(&guid_b, NULL, NULL, &h2) == ERROR_SUCCESS && h2 != h &&
	       EventWrite(h, &d, 0, NULL) == ERROR_INVALID_HANDLE &&
	       EventWrite(h2, &d, 0, NULL) == ERROR_SUCCESS,
	       "%d-bit: its slot reused: the old handle still refused, the new one good",
	       BITS);

	/* What a handle would have pointed to, gone: a read through it faults. */
	munmap(gone, pg);
	bad[0] = (uintptr_t)gone;
	bad[1] = (uintptr_t)gone + 64;
	bad[2] = 1;
	bad[3] = ~0ULL;
	bad[4] = 0x0001000000000000ULL | (uintptr_t)gone;	/* "generation" bits 48-63 */
	bad[5] = h2 ^ 1;
	bad[6] = h2 + 1;
	bad[7] = h2 ^ (1ULL << 40);
	bad[8] = (uint32_t)h2 | 1ULL << 63;
	bad[9] = h;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		wrong += EventWrite(bad[i], &d, 0, NULL) != ERROR_INVALID_HANDLE;
		wrong += EventEnabled(bad[i], &d) != FALSE;
		wrong += EventUnregister(bad[i]) != ERROR_INVALID_HANDLE;
		wrong += nttrace_trace_guids_enabled(bad[i], &info, NULL) != ERROR_INVALID_HANDLE;
		wrong += UnregisterTraceGuids(bad[i]) != ERROR_INVALID_HANDLE;
		wrong += CreateTraceInstanceId((HANDLE)(uintptr_t)bad[i], &ii) !=
			 ERROR_INVALID_HANDLE;
	}
	tap_eq(wrong, 0, "%d-bit: handles never given (unmapped addresses, neighbours of a "
	       "good one, high bits): refused, not read through", BITS);
	EventUnregister(h2);

	tap_ok(nttrace_class_add(&guid_a, &cls) == ERROR_SUCCESS &&
	       CreateTraceInstanceId(cls, &ii) == ERROR_SUCCESS && ii.InstanceId == 1,
	       "%d-bit: a class's RegHandle", BITS);
	nttrace_class_remove(cls);
	tap_eq(CreateTraceInstanceId(cls, &ii), ERROR_INVALID_HANDLE,
	       "%d-bit: ... once unregistered: ERROR_INVALID_HANDLE", BITS);

	/* The table is the process's limit, NTTRACE_MAX_REGISTRATIONS. */
	for (n = 0; n < NTTRACE_MAX_REGISTRATIONS; n++)
		if (EventRegister(&guid_a, NULL, NULL, &many[n]) != ERROR_SUCCESS)
			break;
	err = EventRegister(&guid_a, NULL, NULL, &h);
	if (err == ERROR_SUCCESS)
		EventUnregister(h);
	tap_ok(n == NTTRACE_MAX_REGISTRATIONS && err == ERROR_NO_SYSTEM_RESOURCES,
	       "%d-bit: %u registrations, then ERROR_NO_SYSTEM_RESOURCES (%u, %u)", BITS,
	       NTTRACE_MAX_REGISTRATIONS, n, (unsigned int)err);
	for (i = 0; i < n; i++)
		EventUnregister(many[i]);
}

/*
 * A process that forks inside a provider's enable callback: the child
 * returns from the callback too, and must give back the callback's busy
 * count it inherited, no more (a count reset to 0 at fork would go below
 * it when the callback returned, and the child's EventUnregister would
 * wait for ever for a callback that was not running).
 */
static const GUID guid_fork = { 0x6c1a1a01, 0x27, 0x4e11, { 0x90, 0x1d, 0, 0, 0, 0, 0, 3 } };
static pid_t fork_cb_pid = -1;

static void WINAPI fork_cb(LPCGUID source, ULONG control, UCHAR level, ULONGLONG any,
			   ULONGLONG all, PEVENT_FILTER_DESCRIPTOR filter, PVOID ctx)
{
	(void)source; (void)level; (void)any; (void)all; (void)filter; (void)ctx;
	if (control == EVENT_CONTROL_CODE_ENABLE_PROVIDER && fork_cb_pid < 0)
		fork_cb_pid = fork();
}

TEST(fork_in_callback)
{
	TRACEHANDLE um;
	REGHANDLE h;
	int st = -1;

	if (um_start(&um) != ERROR_SUCCESS ||
	    EventRegister(&guid_fork, fork_cb, NULL, &h) != ERROR_SUCCESS) {
		tap_ok(0, "%d-bit: fork in a callback: setup", BITS);
		return;
	}
	EnableTraceEx2(um, &guid_fork, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 4, 0, 0, 0, NULL);
	if (fork_cb_pid == 0) {
		/* The child, out of the callback it forked in; a hang's guard. */
		alarm(60);
		_exit(EventUnregister(h) == ERROR_SUCCESS ? 0 : 1);
	}
	if (fork_cb_pid > 0)
		waitpid(fork_cb_pid, &st, 0);
	tap_ok(fork_cb_pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "%d-bit: a child forked inside an enable callback unregisters the provider "
	       "once out of it (status %#x)", BITS, st);
	tap_eq(EventUnregister(h), ERROR_SUCCESS, "%d-bit: ... and so does the parent", BITS);
	um_stop(um);
}

int main(int argc, char **argv)
{
	int ret;

	snprintf(path, sizeof(path), "/tmp/process-test-%d.etl", getpid());
	ret = harness_run(argc, argv);
	unlink(path);
	return ret;
}
