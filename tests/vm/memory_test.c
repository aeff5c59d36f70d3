// SPDX-License-Identifier: GPL-2.0
/*
 * The NT Kernel Logger's memory events, 64- and 32-bit callers (the
 * records are the 64-bit kernel's either way); root.
 *
 * VIRTUAL_ALLOC: a private anonymous mmap() of 3 pages and 100 bytes is a
 * PageFault/VirtualAlloc of its base, 4 pages, this process and
 * MEM_COMMIT | MEM_RESERVE; its munmap() a VirtualFree of the same with
 * MEM_RELEASE; a 32-bit caller's old_mmap() (its arguments in memory) an
 * allocation too; brk() raising the heap's end by 4 pages a VirtualAlloc
 * of them, and lowering it again a VirtualFree. A private file mapping, a shared anonymous one, and
 * their munmap() are none; each record is PERFINFO64, version 2, of its
 * size. The drains wait on nothing: every event is written by the call
 * itself, before it returns.
 *
 * PAGE_FAULTS and HARD_FAULTS, each fault at an address no other process
 * touches and by an instruction of this program's (or the kernel's):
 * - the first write to each of 4 anonymous pages: 4 DemandZeroFaults;
 * - a read of another anonymous page (Linux maps its zero page), then a
 *   write to it: a DemandZeroFault, then a CopyOnWrite;
 * - a read of a private mapping of this program's file (in the page
 *   cache): a TransitionFault; a write to that page: a CopyOnWrite;
 * - a read() from /dev/zero into a fresh anonymous page: a DemandZero
 *   fault taken by the kernel's copy, its ProgramCounter a kernel address
 *   or 0, never this program's;
 * - a child's read of a PROT_NONE page: an AccessViolation;
 * - a read of a page of the null_blk disk's device file, its page cache
 *   dropped first: a HardPageFault, and a HardFault of the same address
 *   with the page's offset, this thread, 4096 bytes, a FileObject, and an
 *   InitialTime before its own time stamp.
 * Every fault record is PERFINFO64, version 2, of its class's size.
 *
 * PROCESS_COUNTERS: two children, each with 64 dirtied pages of its own
 * and 5 more file descriptors, blocked on a pipe. One is let go while the
 * logger runs: its Process/PerfCtr has its descriptors, at least the
 * faults /proc read before, and wait4()'s ru_maxrss as its peak working
 * set.
 * The other is alive when the logger stops: its PerfCtrRundown has
 * exactly what /proc/PID/stat and status say of it (faults; VmPeak,
 * VmSize, VmHWM, VmRSS, RssAnon + VmSwap), and its descriptors.
 */
#include <fcntl.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include <nttrace/evntrace.h>
#include <nttrace/session.h>

#include "emit.h"
#include "expect.h"
#include "klog.h"
#include "props.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define HOOK_VALLOC 0x0262
#define HOOK_VFREE 0x0263
#define MEM_COMMIT 0x1000
#define MEM_RESERVE 0x2000
#define MEM_RELEASE 0x8000

/* The mappings made, and what the drains found of each. */
enum { M_ANON, M_FILE, M_SHARED, M_OLD, M_BRK, M_COUNT };

struct mem {
	uint64_t base[M_COUNT];
	uint32_t pid;
	unsigned int alloc[M_COUNT], alloc_ok[M_COUNT];
	unsigned int free[M_COUNT], free_ok[M_COUNT];
	unsigned int bad;
};

static void on_record(void *ctx, const uint8_t *p, uint32_t size, unsigned int cpu)
{
	struct mem *m = ctx;
	uint16_t hook = get_le(p + 6, 2);
	const uint8_t *d = p + 0x10;
	unsigned int i;

	(void)cpu;
	if (hook != HOOK_VALLOC && hook != HOOK_VFREE)
		return;
	if (p[2] != 0x11 || p[0] != 2 || size != 0x10 + 24) {
		m->bad++;
		return;
	}
	if (get_le(d + 16, 4) != m->pid)
		return;
	for (i = 0; i < M_COUNT; i++) {
		if (!m->base[i] || get_le(d, 8) != m->base[i])
			continue;
		if (hook == HOOK_VALLOC) {
			m->alloc[i]++;
			m->alloc_ok[i] += get_le(d + 8, 8) == 4 * 4096 &&
					  get_le(d + 20, 4) == (MEM_COMMIT | MEM_RESERVE);
		} else {
			m->free[i]++;
			m->free_ok[i] += get_le(d + 8, 8) == 4 * 4096 &&
					 get_le(d + 20, 4) == MEM_RELEASE;
		}
	}
}

/* A 32-bit process's old_mmap(): its six arguments in memory. */
static void *old_mmap(size_t len)
{
#if defined(__i386__)
	uint32_t args[6] = { 0, (uint32_t)len, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, (uint32_t)-1, 0 };

	return (void *)syscall(SYS_mmap, args);
#else
	(void)len;
	return MAP_FAILED;
#endif
}

/*
 * The heap's end moved up by 4 pages from the page boundary above it, and
 * back, by brk() itself (not sbrk(): its cache would not see the move);
 * then a file mapping holds that boundary, so that malloc()'s own brk()
 * calls cannot grow the heap there and be counted. Return: the boundary.
 */
static uint64_t brk_up_down(int fd)
{
	uintptr_t cur = (uintptr_t)syscall(SYS_brk, 0), base = (cur + 4095) & ~(uintptr_t)4095;
	int ok;

	ok = (uintptr_t)syscall(SYS_brk, base + 4 * 4096) == base + 4 * 4096;
	ok = ok && (uintptr_t)syscall(SYS_brk, cur) == cur;
	mmap((void *)base, 4096, PROT_NONE, MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0);
	return ok ? base : 0;
}

TEST_F(nttrace, virtual_alloc)
{
	const size_t len = 3 * 4096 + 100;
	struct nttrace_consumer *kc;
	struct mem m;
	void *a, *f, *s, *o;
	unsigned int i;
	int fd;

	memset(&m, 0, sizeof(m));
	m.pid = (uint32_t)getpid();
	if (!tap_eq(klog_start(NTTRACE_EVENT_TRACE_FLAG_VIRTUAL_ALLOC), 0,
		    "%d-bit: the NT Kernel Logger, VIRTUAL_ALLOC", BITS))
		return;
	if (!tap_eq(nttrace_consumer_open(&kc, KL), 0, "%d-bit: its logger attached", BITS)) {
		stop_session(KL);
		return;
	}
	fd = open("/proc/self/exe", O_RDONLY);
	a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	f = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	s = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	o = old_mmap(len);
	m.base[M_BRK] = brk_up_down(fd);
	m.base[M_ANON] = a == MAP_FAILED ? 0 : (uintptr_t)a;
	m.base[M_FILE] = f == MAP_FAILED ? 0 : (uintptr_t)f;
	m.base[M_SHARED] = s == MAP_FAILED ? 0 : (uintptr_t)s;
	m.base[M_OLD] = o == MAP_FAILED ? 0 : (uintptr_t)o;
	tap_ok(m.base[M_ANON] && m.base[M_FILE] && m.base[M_SHARED],
	       "%d-bit: the three mappings made", BITS);
	for (i = 0; i < M_COUNT; i++) {
		if (!m.base[i] || i == M_BRK)
			continue;
		munmap((void *)(uintptr_t)m.base[i], 4 * 4096);
		/*
		 * A file mapping (no event) holds the address, so that the
		 * drain's own allocations cannot take it and be counted.
		 */
		mmap((void *)(uintptr_t)m.base[i], 4096, PROT_NONE,
		     MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0);
	}
	if (fd >= 0)
		close(fd);
	klog_drain(kc, on_record, &m);
	nttrace_consumer_close(kc);
	stop_session(KL);

	tap_ok(m.alloc[M_ANON] == 1 && m.alloc_ok[M_ANON] == 1,
	       "%d-bit: a private anonymous mmap(): one VirtualAlloc, 4 pages, "
	       "MEM_COMMIT | MEM_RESERVE (%u, %u right)", BITS, m.alloc[M_ANON],
	       m.alloc_ok[M_ANON]);
	tap_ok(m.free[M_ANON] == 1 && m.free_ok[M_ANON] == 1,
	       "%d-bit: its munmap(): one VirtualFree, 4 pages, MEM_RELEASE (%u, %u right)",
	       BITS, m.free[M_ANON], m.free_ok[M_ANON]);
	tap_ok(!m.alloc[M_FILE] && !m.free[M_FILE], "%d-bit: a file mapping: none (%u, %u)",
	       BITS, m.alloc[M_FILE], m.free[M_FILE]);
	tap_ok(!m.alloc[M_SHARED] && !m.free[M_SHARED],
	       "%d-bit: a shared anonymous mapping: none (%u, %u)", BITS, m.alloc[M_SHARED],
	       m.free[M_SHARED]);
	if (BITS == 32)
		tap_ok(m.base[M_OLD] && m.alloc_ok[M_OLD] == 1 && m.free_ok[M_OLD] == 1,
		       "32-bit: old_mmap(): VirtualAlloc and VirtualFree (%u, %u)",
		       m.alloc_ok[M_OLD], m.free_ok[M_OLD]);
	tap_ok(m.base[M_BRK] && m.alloc[M_BRK] == 1 && m.alloc_ok[M_BRK] == 1 &&
	       m.free[M_BRK] == 1 && m.free_ok[M_BRK] == 1,
	       "%d-bit: brk() up 4 pages and back: a VirtualAlloc and a VirtualFree of them "
	       "(%u, %u)", BITS, m.alloc_ok[M_BRK], m.free_ok[M_BRK]);
	tap_eq(m.bad, 0, "%d-bit: every record PERFINFO64, version 2, 0x28 bytes", BITS);
}

/* ---- page faults ---- */

#define HOOK_TRANSITION 0x020A
#define HOOK_DEMAND_ZERO 0x020B
#define HOOK_COW 0x020C
#define HOOK_HARD_PAGE 0x020E
#define HOOK_ACCESS 0x020F
#define HOOK_HARD_FAULT 0x0220
#define FAULT_DISK "/dev/nullb0"

/* The faults made, by address: what each should give. */
enum { F_ZERO0, F_ZERO1, F_ZERO2, F_ZERO3, F_READ_THEN_WRITE, F_FILE, F_KERNEL, F_AV,
       F_HARD, F_COUNT };

struct faults {
	uint64_t va[F_COUNT];
	uint32_t tid;
	/* Per address, the hooks seen in order (at most 4). */
	uint16_t seen[F_COUNT][4];
	unsigned int nseen[F_COUNT];
	uint64_t pc[F_COUNT][4];
	unsigned int hard, hard_ok, bad;
	uint64_t hard_offset;
};

/* The code of this program that touches the pages: the ProgramCounters. */
__attribute__((noinline)) static void touch_write(volatile char *p)
{
	*p = 1;
}

__attribute__((noinline)) static char touch_read(volatile char *p)
{
	return *p;
}

static int pc_ours(uint64_t pc)
{
	return (pc >= (uintptr_t)touch_write && pc < (uintptr_t)touch_write + 64) ||
	       (pc >= (uintptr_t)touch_read && pc < (uintptr_t)touch_read + 64);
}

static void on_fault(void *ctx, const uint8_t *p, uint32_t size, unsigned int cpu)
{
	struct faults *f = ctx;
	uint16_t hook = get_le(p + 6, 2);
	const uint8_t *d = p + 0x10;
	unsigned int i;

	(void)cpu;
	if (hook >> 8 != 0x02 || (hook & 0xFF) < 10 || ((hook & 0xFF) > 15 && hook != HOOK_HARD_FAULT))
		return;
	if (p[2] != 0x11 || p[0] != 2 ||
	    size != 0x10 + (hook == HOOK_HARD_FAULT ? 40u : 16u)) {
		f->bad++;
		return;
	}
	if (hook == HOOK_HARD_FAULT) {
		if (!f->va[F_HARD] || get_le(d + 16, 8) != f->va[F_HARD])
			return;
		f->hard++;
		f->hard_ok += get_le(d + 8, 8) == f->hard_offset && get_le(d + 24, 8) != 0 &&
			      get_le(d + 32, 4) == f->tid && get_le(d + 36, 4) == 4096 &&
			      get_le(d, 8) != 0 && get_le(d, 8) <= get_le(p + 8, 8);
		return;
	}
	for (i = 0; i < F_COUNT; i++) {
		if (!f->va[i] || get_le(d, 8) != f->va[i] || f->nseen[i] >= 4)
			continue;
		f->pc[i][f->nseen[i]] = get_le(d + 8, 8);
		f->seen[i][f->nseen[i]++] = hook;
	}
}

/* The page of @f's address @i gave exactly @n faults @h0, @h1 from our code. */
static void check_faults(const struct faults *f, unsigned int i, const char *what,
			 unsigned int n, uint16_t h0, uint16_t h1)
{
	int ok = f->nseen[i] == n && f->seen[i][0] == h0 && (n < 2 || f->seen[i][1] == h1) &&
		 pc_ours(f->pc[i][0]) && (n < 2 || pc_ours(f->pc[i][1]));

	tap_ok(ok, "%d-bit: %s (%u faults: %#x %#x, pc %#llx)", BITS, what, f->nseen[i],
	       f->seen[i][0], f->seen[i][1], (unsigned long long)f->pc[i][0]);
}

/* A child reads a PROT_NONE page and dies of it; 0 when it did. */
static int access_violation(volatile char *p)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		touch_read(p);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV ? 0 : -1;
}

/* A page of the disk's device file, its cache dropped: mapped, or NULL. */
static char *hard_page(int *fd, uint64_t offset)
{
	char *m;

	*fd = open(FAULT_DISK, O_RDONLY);
	if (*fd < 0)
		return NULL;
	fdatasync(*fd);
	posix_fadvise(*fd, 0, 0, POSIX_FADV_DONTNEED);
	m = mmap(NULL, offset + 4096, PROT_READ, MAP_SHARED, *fd, 0);
	return m == MAP_FAILED ? NULL : m;
}

TEST_F(nttrace, page_faults)
{
	struct nttrace_consumer *kc;
	struct faults f;
	char *anon, *file, *none, *kbuf, *disk;
	int fd, zero, dfd = -1;
	unsigned int i;

	memset(&f, 0, sizeof(f));
	f.tid = (uint32_t)syscall(SYS_gettid);
	f.hard_offset = 3 * 4096;
	anon = mmap(NULL, 5 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	kbuf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fd = open("/proc/self/exe", O_RDONLY);
	file = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	zero = open("/dev/zero", O_RDONLY);
	if (!tap_ok(anon != MAP_FAILED && kbuf != MAP_FAILED && none != MAP_FAILED &&
		    file != MAP_FAILED && zero >= 0, "%d-bit: the mappings made", BITS))
		return;
	/* The file's page is in the page cache: it was just executed. */
	disk = hard_page(&dfd, f.hard_offset);
	if (!tap_eq(klog_start(NTTRACE_EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS |
			       NTTRACE_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS), 0,
		    "%d-bit: the NT Kernel Logger, PAGE_FAULTS and HARD_FAULTS", BITS))
		return;
	if (!tap_eq(nttrace_consumer_open(&kc, KL), 0, "%d-bit: its logger attached", BITS)) {
		stop_session(KL);
		return;
	}
	for (i = 0; i < 4; i++) {
		f.va[F_ZERO0 + i] = (uintptr_t)anon + i * 4096 + 0x10 + i;
		touch_write(anon + i * 4096 + 0x10 + i);
	}
	f.va[F_READ_THEN_WRITE] = (uintptr_t)anon + 4 * 4096 + 0x20;
	touch_read(anon + 4 * 4096 + 0x20);
	touch_write(anon + 4 * 4096 + 0x20);
	f.va[F_FILE] = (uintptr_t)file + 0x30;
	touch_read(file + 0x30);
	touch_write(file + 0x30);
	f.va[F_KERNEL] = (uintptr_t)kbuf + 0x40;
	tap_eq(read(zero, kbuf + 0x40, 16), 16, "%d-bit: read() from /dev/zero", BITS);
	f.va[F_AV] = (uintptr_t)none + 0x50;
	tap_eq(access_violation(none + 0x50), 0, "%d-bit: the child died of SIGSEGV", BITS);
	if (disk) {
		f.va[F_HARD] = (uintptr_t)disk + f.hard_offset + 0x60;
		touch_read(disk + f.hard_offset + 0x60);
	}
	klog_drain(kc, on_fault, &f);
	nttrace_consumer_close(kc);
	stop_session(KL);

	for (i = 0; i < 4; i++)
		check_faults(&f, F_ZERO0 + i, "a first write to an anonymous page: DemandZeroFault",
			     1, HOOK_DEMAND_ZERO, 0);
	check_faults(&f, F_READ_THEN_WRITE,
		     "a read, then a write, of an anonymous page: DemandZeroFault, CopyOnWrite",
		     2, HOOK_DEMAND_ZERO, HOOK_COW);
	check_faults(&f, F_FILE,
		     "a read, then a write, of a private file mapping: TransitionFault, CopyOnWrite",
		     2, HOOK_TRANSITION, HOOK_COW);
	tap_ok(f.nseen[F_KERNEL] == 1 && f.seen[F_KERNEL][0] == HOOK_DEMAND_ZERO &&
	       !pc_ours(f.pc[F_KERNEL][0]) &&
	       (f.pc[F_KERNEL][0] == 0 || f.pc[F_KERNEL][0] >= 0xffff800000000000ULL),
	       "%d-bit: the kernel's copy into a fresh page: DemandZeroFault, kernel pc (%u, %#llx)",
	       BITS, f.nseen[F_KERNEL], (unsigned long long)f.pc[F_KERNEL][0]);
	check_faults(&f, F_AV, "a read of a PROT_NONE page: AccessViolation", 1, HOOK_ACCESS, 0);
	if (disk) {
		check_faults(&f, F_HARD, "a read of an uncached page of a disk: HardPageFault", 1,
			     HOOK_HARD_PAGE, 0);
		tap_ok(f.hard == 1 && f.hard_ok == 1,
		       "%d-bit: and one HardFault: offset, thread, 4096 bytes, FileObject, InitialTime (%u, %u right)",
		       BITS, f.hard, f.hard_ok);
	} else {
		SKIP(, "%d-bit: no %s: no hard fault", BITS, FAULT_DISK);
	}
	tap_eq(f.bad, 0, "%d-bit: every fault record PERFINFO64, version 2, of its size", BITS);
	if (dfd >= 0)
		close(dfd);
	close(zero);
	if (fd >= 0)
		close(fd);
}

/* ---- process counters ---- */

#define HOOK_PERFCTR 0x0320
#define HOOK_PERFCTR_RUNDOWN 0x0321

/* A child blocked on a pipe, and what /proc says of it. */
struct child {
	pid_t pid;
	int go;				/* write end: closed, the child exits */
	uint32_t fds;			/* its open descriptors, its own count */
	uint64_t faults;		/* /proc/PID/stat: minflt + majflt */
	uint64_t vm_peak, vm_size, vm_hwm, vm_rss, private_kb;	/* status, kB */
	unsigned int seen;
	uint8_t rec[104];		/* its counters' payload */
};

static uint32_t count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	uint32_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* not the directory's own */
}

/* Fork a child that dirties 64 pages, opens 5 files, says its count, waits. */
static int child_start(struct child *c)
{
	int ready[2], go[2];
	uint32_t n;

	memset(c, 0, sizeof(*c));
	if (pipe(ready) || pipe(go))
		return -1;
	c->pid = fork();
	if (c->pid == 0) {
		char *m = mmap(NULL, 64 * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		char b;
		int i;

		close(ready[0]);
		close(go[1]);
		for (i = 0; m != MAP_FAILED && i < 64; i++)
			m[i * 4096] = 1;
		for (i = 0; i < 5; i++)
			open("/dev/null", O_RDONLY);
		n = count_fds();
		if (write(ready[1], &n, sizeof(n)) != sizeof(n) || read(go[0], &b, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(ready[1]);
	close(go[0]);
	c->go = go[1];
	if (c->pid < 0 || read(ready[0], &n, sizeof(n)) != sizeof(n))
		n = 0;
	close(ready[0]);
	c->fds = n;
	return n ? 0 : -1;
}

/* What /proc says of the (blocked) child. */
static void child_proc(struct child *c)
{
	char path[64], line[256];
	unsigned long long v, minflt = 0, majflt = 0, anon = 0, swap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)c->pid);
	f = fopen(path, "r");
	if (f) {
		/* Fields 10 and 12, after the ")" that ends the name. */
		if (fgets(line, sizeof(line), f) && strrchr(line, ')'))
			sscanf(strrchr(line, ')') + 2, "%*c %*d %*d %*d %*d %*d %*u %llu %*u %llu",
			       &minflt, &majflt);
		fclose(f);
	}
	c->faults = minflt + majflt;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)c->pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "VmPeak: %llu", &v) == 1)
			c->vm_peak = v;
		else if (sscanf(line, "VmSize: %llu", &v) == 1)
			c->vm_size = v;
		else if (sscanf(line, "VmHWM: %llu", &v) == 1)
			c->vm_hwm = v;
		else if (sscanf(line, "VmRSS: %llu", &v) == 1)
			c->vm_rss = v;
		else if (sscanf(line, "RssAnon: %llu", &v) == 1)
			anon = v;
		else if (sscanf(line, "VmSwap: %llu", &v) == 1)
			swap = v;
	}
	fclose(f);
	c->private_kb = anon + swap;
}

struct counters {
	struct child *ended, *alive;
	unsigned int bad;
};

static void on_counters(struct counters *k, const struct nttrace_etl_event *ev)
{
	struct child *c;

	if (!ev->system ||
	    (ev->hook_id != HOOK_PERFCTR && ev->hook_id != HOOK_PERFCTR_RUNDOWN))
		return;
	if (ev->rec[2] != 0x11 || ev->rec[0] != 2 || ev->data_len != 104) {
		k->bad++;
		return;
	}
	c = ev->hook_id == HOOK_PERFCTR ? k->ended : k->alive;
	if (get_le(ev->data, 4) != (uint32_t)c->pid)
		return;
	c->seen++;
	memcpy(c->rec, ev->data, sizeof(c->rec));
}

/* Field @i of the eleven sizes, in kB. */
static uint64_t size_kb(const struct child *c, unsigned int i)
{
	return get_le(c->rec + 16 + 8 * i, 8) / 1024;
}

TEST_F(nttrace, process_counters)
{
	struct child ended, alive;
	struct counters k = { &ended, &alive, 0 };
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	struct props pr;
	struct rusage ru;
	TRACEHANDLE h;
	char path[64];
	int status;

	memset(&ru, 0, sizeof(ru));
	/* A file: the stop's rundown is read back from it. */
	snprintf(path, sizeof(path), "/tmp/counters-%d.etl", BITS);
	props_init(&pr, path, EVENT_TRACE_FILE_MODE_SEQUENTIAL);
	pr.p.Wnode.Guid = SystemTraceControlGuid;
	pr.p.EnableFlags = EVENT_TRACE_FLAG_PROCESS_COUNTERS | EVENT_TRACE_FLAG_NO_SYSCONFIG;
	if (!tap_eq(StartTraceA(&h, KERNEL_LOGGER_NAMEA, &pr.p), ERROR_SUCCESS,
		    "%d-bit: StartTrace(NT Kernel Logger, PROCESS_COUNTERS)", BITS))
		return;
	/* One after the other: a child holds the pipes open when it was forked. */
	tap_ok(!child_start(&ended), "%d-bit: a child ready", BITS);
	child_proc(&ended);
	close(ended.go);
	wait4(ended.pid, &status, 0, &ru);
	tap_ok(!child_start(&alive), "%d-bit: another child ready", BITS);
	child_proc(&alive);
	props_init(&pr, NULL, 0);
	tap_eq(ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS,
	       "%d-bit: StopTrace", BITS);
	close(alive.go);
	waitpid(alive.pid, &status, 0);
	if (!tap_eq(nttrace_etl_open(&r, path, NULL, NULL), 0, "%d-bit: the file opens", BITS))
		return;
	while (nttrace_etl_next(r, &ev))
		on_counters(&k, &ev);
	nttrace_etl_close(r);
	unlink(path);

	tap_ok(ended.seen == 1 && get_le(ended.rec + 8, 4) == ended.fds &&
	       get_le(ended.rec + 4, 4) >= ended.faults && ended.faults >= 64 &&
	       size_kb(&ended, 1) == (uint64_t)ru.ru_maxrss && ru.ru_maxrss >= 256 &&
	       size_kb(&ended, 5) == 0 && size_kb(&ended, 6) == 0,
	       "%d-bit: a process's end: PerfCtr with its %u descriptors, >= %llu faults, "
	       "peak working set ru_maxrss %ld kB, no address space (%u: %llu, %llu, %llu kB, %llu kB)",
	       BITS, ended.fds, (unsigned long long)ended.faults, (long)ru.ru_maxrss, ended.seen,
	       (unsigned long long)get_le(ended.rec + 8, 4),
	       (unsigned long long)get_le(ended.rec + 4, 4), (unsigned long long)size_kb(&ended, 1),
	       (unsigned long long)size_kb(&ended, 5));
	tap_ok(alive.seen == 1 && get_le(alive.rec + 8, 4) == alive.fds &&
	       get_le(alive.rec + 4, 4) == alive.faults,
	       "%d-bit: the stop's PerfCtrRundown: %u descriptors, %llu faults (%u: %llu, %llu)",
	       BITS, alive.fds, (unsigned long long)alive.faults, alive.seen,
	       (unsigned long long)get_le(alive.rec + 8, 4),
	       (unsigned long long)get_le(alive.rec + 4, 4));
	tap_ok(size_kb(&alive, 0) == alive.vm_peak && size_kb(&alive, 5) == alive.vm_size &&
	       size_kb(&alive, 1) == alive.vm_hwm && size_kb(&alive, 6) == alive.vm_rss &&
	       size_kb(&alive, 7) == alive.private_kb && size_kb(&alive, 10) == alive.private_kb &&
	       alive.private_kb >= 256,
	       "%d-bit: and /proc's VmPeak %llu, VmSize %llu, VmHWM %llu, VmRSS %llu, private %llu kB "
	       "(%llu, %llu, %llu, %llu, %llu, %llu)", BITS,
	       (unsigned long long)alive.vm_peak, (unsigned long long)alive.vm_size,
	       (unsigned long long)alive.vm_hwm, (unsigned long long)alive.vm_rss,
	       (unsigned long long)alive.private_kb, (unsigned long long)size_kb(&alive, 0),
	       (unsigned long long)size_kb(&alive, 5), (unsigned long long)size_kb(&alive, 1),
	       (unsigned long long)size_kb(&alive, 6), (unsigned long long)size_kb(&alive, 7),
	       (unsigned long long)size_kb(&alive, 10));
	tap_ok(get_le(alive.rec + 12, 4) == 0 && size_kb(&alive, 3) == 0 && size_kb(&alive, 4) == 0 &&
	       size_kb(&alive, 8) == 0 && size_kb(&alive, 9) == 0,
	       "%d-bit: Reserved and the pool quotas 0", BITS);
	tap_eq(k.bad, 0, "%d-bit: every counters record PERFINFO64, version 2, 0x78 bytes", BITS);
}

int main(int argc, char **argv)
{
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return 0;
	}
	return harness_run(argc, argv);
}
