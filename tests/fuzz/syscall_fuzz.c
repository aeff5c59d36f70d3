// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace_fuzz: a system-call fuzzer for /dev/nttrace. scripts/fuzz-kernel
 * runs it, 64-bit and 32-bit, in the debug test kernel (KASAN, UBSAN,
 * lockdep), where the console is the judge: this program asserts nothing
 * about what a call returns (the permission model and the NTSTATUS choices
 * may change under it). It only drives calls, counts them, and tallies the
 * results so that a run shows which paths it reached.
 *
 *   nttrace_fuzz [--seed S] [--calls N] [--time SECONDS] [--procs P]
 *                [--threads T] [--hotplug] [--no-cleanup] [--trace]
 *                [--device PATH]
 *
 * It stops after N calls or SECONDS, whichever comes first (default 4
 * processes of 4 threads; a "# progress" line every 5 minutes), stops the sessions left running (unless
 * --no-cleanup), prints what the calls returned, one "# " line per
 * operation, and then, last, "fuzz: N calls" (N: the calls made into the
 * device, every ioctl, open, close, dup, mmap, munmap, mprotect, poll, ...
 * counted once). It exits 0 unless it could not run or a worker died of
 * something it did not send (a fuzzer bug, or the OOM killer).
 * --hotplug: a CPU other than 0 goes offline for a moment every few
 * seconds. --trace: every call on stderr (with --procs 1 --threads 1).
 * --device: another file, to try the fuzzer itself on a host.
 *
 * Shape of a run:
 * - The supervisor (this process, never fuzzing itself) forks P workers,
 *   each with T fuzzing threads spread over the CPUs, a racer thread, its
 *   own table of /dev/nttrace files and of their mappings. Every 0.4 to
 *   1.6 seconds it SIGKILLs a worker, whatever it is doing, and
 *   forks a new one in its place; a thread stuck for WATCHDOG_SECS (STOP's
 *   WAIT_CONSUMER waiting on a consumer of its own worker) gets its worker
 *   killed the same way. Workers take turns at being: root, uid/gid 65534,
 *   65534 keeping only CAP_PERFMON, 65534 with supplementary groups 0 and
 *   1000 (scripts/fuzz-kernel makes 1000 the module's control_gid), and
 *   that last one as root of a user namespace of its own.
 * - Fuzzing threads pick operations: every ioctl with boundary-valued and
 *   random structs (sizes 0, 3, 4, min-1, exact, +8 zero tail, +8 non-zero
 *   tail, 4096, 4097, huge; structs at the end of a page before a guard
 *   page, in read-only memory, in a page the racer rewrites, at bad
 *   addresses), NtTraceEvent with hostile MESSAGE_TRACE_USER and argument
 *   lists, unknown commands, start/stop/update/flush/query, attach, mmap and
 *   its abuse (partial munmap, mprotect, mremap, writes through
 *   /proc/self/mem), reading and acknowledging the rings, poll and epoll,
 *   open/close/dup, fork with the mappings and files inherited, a process
 *   exiting with calls in flight; providers: REGISTER (the enable info in
 *   good, read-only, racing, misaligned, page-crossing and bad memory),
 *   UNREGISTER, ENABLE/DISABLE/CAPTURE_STATE of a few GUIDs for the
 *   sessions seen running, NOTIFICATION and LIST_PROVIDERS, racing the
 *   sessions' stops and the files' closes; every operation on a system
 *   logger aimed at one (op_syslog()), reported by kind of worker, and the
 *   file and heap calls the kernel logger's FileIo and VirtualAlloc sources
 *   watch (fz_file_calls(): files in /tmp, a few names a worker, left
 *   behind by a worker killed meanwhile; not counted as calls).
 * - The racer thread remaps, unmaps, re-protects and refills the pages
 *   that argument lists and argument data point into, so that the kernel's
 *   copies race with the pages going away; it also rewrites a "scribble"
 *   page that ioctl structs sometimes live in (the size read twice).
 *
 * Determinism: each thread's generator is seeded from the seed, the worker
 * slot, the worker's generation and the thread, and the supervisor's kill
 * schedule from the seed, so the choices are fixed by the seed. How the
 * threads and processes interleave, and so the results, is the scheduler's,
 * and a few choices follow earlier results (the logger IDs seen running,
 * which files are consumers), so a run is not repeated call for call. To
 * replay a report closely: the same seed with --procs 1 --threads 1.
 *
 * Memory: sessions are bounded so that a run fits the 1 GB VM whatever the
 * module's limits: a session whose rings would exceed 256 KB is started
 * under one of 8 pool names (4 MB at most), and one above 4 MB only under
 * the single "big" name, so at most one session of up to the module's
 * 64 MB limit exists at a time; the 100 small names and the bad ones that
 * happen to be valid take 256 KB each at most.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <linux/capability.h>

#include <nttrace/uapi.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define BITS ((int)sizeof(void *) * 8)
#define MAX_PROCS 16
#define MAX_THREADS 8
#define NFD 8			/* files per worker */
#define NMAP 16			/* mappings per worker */
#define ARENA_PAGES 48		/* per thread; a guard page follows */
#define RACE_PAGES 16		/* per worker, the racer's */
#define WATCHDOG_SECS 10	/* a thread stuck this long: kill its worker */
#define KILL_MIN_MS 400		/* the supervisor's kills, every 0.4-1.6 s */
#define KILL_SPAN_MS 1200

/* Arena layout, in pages: ioctl structs, fields, argument lists, data. */
#define PG_STRUCT 0		/* 2 pages */
#define PG_FIELDS 2
#define PG_LIST 3		/* 3 pages */
#define PG_DATA 6		/* 17 pages: any 16-bit size fits */
#define DATA_BYTES (17 * 4096)
#define PG_EDGE (ARENA_PAGES - 1)	/* the page before the guard */

/* ---- what is counted ---- */

enum op {
	OP_VERSION, OP_TRACE, OP_START, OP_CONTROL, OP_LIST, OP_ATTACH,
	OP_MMAP, OP_MAPABUSE, OP_TOUCH, OP_POLL, OP_OPEN, OP_CLOSE, OP_BADCMD,
	OP_FORK, OP_AFFINITY, OP_PROVIDER, OP_SYSLOG, NOPS
};

static const char *const op_names[NOPS] = {
	"version", "trace", "start", "control", "list", "attach", "mmap",
	"map-abuse", "touch", "poll", "open/dup", "close", "bad-cmd", "fork",
	"affinity", "provider", "system-logger",
};

/* Out of 10000; OP_TOUCH and OP_AFFINITY make no counted call. */
static const unsigned int op_weight[NOPS] = {
	[OP_VERSION] = 350, [OP_TRACE] = 3100, [OP_START] = 380,
	[OP_CONTROL] = 1150, [OP_LIST] = 300, [OP_ATTACH] = 450,
	[OP_MMAP] = 500, [OP_MAPABUSE] = 350, [OP_TOUCH] = 600,
	[OP_POLL] = 550, [OP_OPEN] = 300, [OP_CLOSE] = 100, [OP_BADCMD] = 750,
	[OP_FORK] = 20, [OP_AFFINITY] = 200, [OP_PROVIDER] = 600, [OP_SYSLOG] = 300,
};

/* Who a worker is (mode_names[]). */
#define NMODES 5

/* The operations on a system logger (op_syslog()), tallied by worker kind. */
enum sysop {
	SY_START, SY_STOP, SY_UPDATE, SY_FLUSH, SY_QUERY, SY_ATTACH, SY_ENABLE,
	SY_SYSTEM_KERNEL, SY_SYSTEM_USER, SY_RAW, SY_PROFILE, SY_STACKS, SY_FILES, NSYSOP
};

static const char *const sysop_names[NSYSOP] = {
	"start", "stop", "update", "flush", "query", "attach", "enable",
	"TRACE_SYSTEM(kernel group)", "TRACE_SYSTEM(user group)", "TRACE_RAW", "profile",
	"stacks", "file calls",
};

static const int err_list[] = {
	0, EINVAL, EFAULT, E2BIG, ENOENT, EPERM, EACCES, EBUSY, EEXIST, EMFILE,
	ENOTTY, ENOMEM, EBADF, ENODEV, EINTR, EAGAIN, EOVERFLOW, ENOSYS, EDQUOT,
	ENOBUFS, EXDEV, EIO, ESPIPE,
};
#define NERR ((int)(sizeof(err_list) / sizeof(err_list[0])) + 1)

static const uint32_t status_list[] = {
	NTTRACE_STATUS_SUCCESS,
	NTTRACE_STATUS_DATATYPE_MISALIGNMENT,
	NTTRACE_STATUS_BUFFER_OVERFLOW,
	NTTRACE_STATUS_NOT_IMPLEMENTED,
	NTTRACE_STATUS_ACCESS_VIOLATION,
	NTTRACE_STATUS_INVALID_HANDLE,
	NTTRACE_STATUS_INVALID_PARAMETER,
	NTTRACE_STATUS_NO_MEMORY,
	NTTRACE_STATUS_ACCESS_DENIED,
	NTTRACE_STATUS_BUFFER_TOO_SMALL,
	NTTRACE_STATUS_ARRAY_BOUNDS_EXCEEDED,
	NTTRACE_STATUS_INTEGER_OVERFLOW,
	NTTRACE_STATUS_NOT_SUPPORTED,
	NTTRACE_STATUS_INVALID_BUFFER_SIZE,
	NTTRACE_STATUS_WMI_ALREADY_DISABLED,
};
static const char *const status_names[] = {
	"SUCCESS", "DATATYPE_MISALIGNMENT", "BUFFER_OVERFLOW", "NOT_IMPLEMENTED",
	"ACCESS_VIOLATION", "INVALID_HANDLE", "INVALID_PARAMETER", "NO_MEMORY",
	"ACCESS_DENIED", "BUFFER_TOO_SMALL", "ARRAY_BOUNDS_EXCEEDED",
	"INTEGER_OVERFLOW", "NOT_SUPPORTED", "INVALID_BUFFER_SIZE",
	"WMI_ALREADY_DISABLED",
};
/*
 * The types tallied apart (tblock): those that pass Windows' 0x78-byte
 * block, and those that write into a logger by ID with the kernel's
 * headers or the caller's (trace_kernel_types()).
 */
static const char *const block_names[] = {
	"TRACE_EVENT", "TRACE_EVENT_NOREG", "TRACE_SECURITY",
	"TRACE_SYSTEM", "TRACE_MARK", "TRACE_RAW",
};
#define NBLOCK 6
#define NSTAT ((int)(sizeof(status_list) / sizeof(status_list[0])))
/* tstat[NSTAT]: another NTSTATUS; tstat[NSTAT + 1]: the ioctl failed. */

/*
 * Per thread, in memory shared with the supervisor, so that the counts of
 * a worker killed mid-call survive it; a worker forked in its place adds
 * to the same slot. Atomic adds: a forked grandchild shares its thread's.
 */
struct fz_slot {
	uint64_t calls;
	uint64_t beat;		/* moves with every operation */
	uint64_t res[NOPS][NERR];
	uint64_t tstat[NSTAT + 2];
	uint64_t tblock[NBLOCK][NSTAT + 2];	/* as tstat, per block type */
	uint64_t surprise;	/* a write into a read-only region worked */
	/* START and ATTACH by the worker's kind (modes[]): worked, -EPERM */
	uint64_t priv[NMODES][2];
	/* op_syslog()'s operations by the worker's kind: worked, refused */
	uint64_t sysop[NMODES][NSYSOP][2];
	/* Each kind of operation's time in microseconds, and how many ran */
	uint64_t op_us[NOPS], op_n[NOPS];
};

struct fz_shared {
	uint64_t target;	/* calls to make; 0: until the time limit */
	uint64_t issued;	/* calls taken from the budget */
	int stop;
	/*
	 * Bit n: logger ID n was seen running lately (a START, QUERY or
	 * ATTACH worked), cleared when a STOP works or an event finds no
	 * session. A hint to aim at, shared by all workers.
	 */
	uint64_t live[2];
	/*
	 * System loggers' logger IDs, for op_syslog(): those of its named
	 * ones seen started (0: none), and the NT Kernel Logger's slot, seen
	 * by a QUERY of a slot that answered for it.
	 */
	uint32_t sys_ids[4];
	uint32_t kl_slot;
	struct fz_slot slot[MAX_PROCS][MAX_THREADS];
};

static struct fz_shared *sh;
static int opt_procs = 4, opt_threads = 4, opt_trace, opt_cleanup = 1;
static const char *opt_device = NTTRACE_DEVICE;
static long page;
static int ncpus;

/* ---- the generator: splitmix64 ---- */

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static uint32_t below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rnd(r) % n) : 0;
}

static int chance(struct rng *r, unsigned int pct)
{
	return below(r, 100) < pct;
}

static uint64_t derive(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
	struct rng r = { seed ^ (a * 0xA24BAED4963EE407ULL) ^
			 (b * 0x9FB21C651E98DF25ULL) ^ (c * 0xD6E8FEB86659FD93ULL) };

	return rnd(&r);
}

#define PICK(r, arr) ((arr)[below((r), sizeof(arr) / sizeof((arr)[0]))])

static const uint32_t u32_edges[] = {
	0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 0x3F, 0x40, 0x7F, 0x80, 0xFF, 0x100,
	0xFFF, 0x1000, 0x1001, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x10001,
	0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF,
};

static uint32_t pick_u32(struct rng *r)
{
	switch (below(r, 4)) {
	case 0:
		return (uint32_t)rnd(r);
	case 1:
		return below(r, 300);
	default:
		return PICK(r, u32_edges);
	}
}

static uint64_t pick_u64(struct rng *r)
{
	static const uint64_t edges[] = {
		0, 1, 0xFFFFFFFFULL, 0x100000000ULL, 0x7FFFFFFFFFFFFFFFULL,
		0x8000000000000000ULL, ~0ULL, ~0ULL - 1,
	};

	switch (below(r, 3)) {
	case 0:
		return rnd(r);
	case 1:
		return PICK(r, edges);
	default:
		return pick_u32(r);
	}
}

/* ---- per worker and per thread state ---- */

struct fdslot {
	int fd;			/* -1: empty; exchanged atomically */
	unsigned int gen;	/* bumped at each open into the slot */
	int att_valid;		/* the last ATTACH through it worked */
	struct nttrace_attach att;
};

enum region { RG_HEADS, RG_ACKS, RG_DATA, RG_UNKNOWN };

struct mapslot {
	uint8_t *addr;		/* NULL: empty */
	size_t len;
	int region, writable, fdslot;
	int prot, flags;		/* as mapped (mprotect may change prot) */
	unsigned int gen;
	uint32_t nr_cpus, stride;	/* heads/acks: CPUs and stride */
};

/*
 * Who a worker is: root, or uid/gid 65534 as below; the last, that of the
 * one before, then root of a user namespace of its own (every capability
 * there, none in the initial one). Without user namespaces in the kernel
 * such a worker stays as the one before and is counted so.
 */
static const char *const mode_names[NMODES] = {
	"root", "nobody", "nobody+CAP_PERFMON", "nobody+groups 0,1000",
	"root in a user namespace (nobody+groups 0,1000)",
};

struct worker {
	int pslot;
	int mode;			/* index into mode_names */
	pthread_mutex_t fdlock;		/* attach info */
	struct fdslot fds[NFD];
	/* Writers: whoever unmaps or moves; readers: whoever touches. */
	pthread_rwlock_t maplock;
	struct mapslot maps[NMAP];
	uint8_t *race;			/* RACE_PAGES pages, the racer's */
	int race_dead[RACE_PAGES];	/* lost to another mapping */
	uint8_t *scribble;		/* one page, rewritten by the racer */
	int procmem;			/* /proc/self/mem, or -1 */
	uint64_t handles[16];		/* REGISTER's answers, for UNREGISTER */
	int in_grandchild;
};

static struct worker W;

struct arena {
	uint8_t *rw;		/* ARENA_PAGES pages, then a PROT_NONE guard */
	uint8_t *guard;
};

struct thr {
	struct rng r;
	int idx;
	struct fz_slot *slot;
	struct arena lo, hi;	/* lo below 4 GB; hi == lo on 32-bit */
	uint8_t *w, *ro;	/* two pages, and a read-only view of them */
	int epfd;
	int stopping;
};

static __thread sigjmp_buf *fz_catch;

static void fz_fault(int sig, siginfo_t *si, void *uc)
{
#ifdef __x86_64__
	unsigned long ip = ((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#else
	unsigned long ip = ((ucontext_t *)uc)->uc_mcontext.gregs[REG_EIP];
#endif
	char msg[96];
	int n;

	if (fz_catch)
		siglongjmp(*fz_catch, sig);
	/* Outside a guarded touch: a fuzzer bug. Say where, and die of it. */
	n = snprintf(msg, sizeof(msg), "fuzz: signal %d at address %p, instruction %#lx\n",
		     sig, si->si_addr, ip);
	if (n > 0 && write(2, msg, (size_t)n) < 0)
		n = 0;
	signal(sig, SIG_DFL);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static uint64_t uptr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static void *ptr_of(uint64_t v)
{
	return (void *)(uintptr_t)v;
}

/* ---- counting and calling ---- */

/* Take one call from the budget; false once the run is over. */
static int take_call(struct thr *t)
{
	uint64_t n;

	if (t->stopping || __atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
		t->stopping = 1;
		return 0;
	}
	n = __atomic_fetch_add(&sh->issued, 1, __ATOMIC_RELAXED);
	if (sh->target && n >= sh->target) {
		__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
		t->stopping = 1;
		return 0;
	}
	__atomic_fetch_add(&t->slot->calls, 1, __ATOMIC_RELAXED);
	return 1;
}

static int err_class(int e)
{
	int i;

	for (i = 0; i < NERR - 1; i++)
		if (err_list[i] == e)
			return i;
	return NERR - 1;
}

static void tally(struct thr *t, enum op op, long ret)
{
	int c = ret < 0 ? err_class(errno) : 0;

	__atomic_fetch_add(&t->slot->res[op][c], 1, __ATOMIC_RELAXED);
}

/* A call only a privileged caller may make: count it by worker kind. */
static void tally_priv(struct thr *t, long ret)
{
	if (ret == 0 || (ret == -1 && errno == EPERM))
		__atomic_fetch_add(&t->slot->priv[W.mode][ret != 0], 1, __ATOMIC_RELAXED);
}

static void tlog(struct thr *t, const char *what, uint64_t a, uint64_t b, long ret)
{
	if (opt_trace)
		fprintf(stderr, "fz %d.%d %s 0x%llx 0x%llx -> %ld (%d)\n", getpid(),
			t->idx, what, (unsigned long long)a, (unsigned long long)b,
			ret, ret < 0 ? errno : 0);
}

/* A counted ioctl; -1 with errno, or -2 when the budget is spent. */
static long fz_ioctl(struct thr *t, enum op op, int fd, unsigned long cmd,
		     uint64_t arg)
{
	long ret;

	if (!take_call(t))
		return -2;
	ret = ioctl(fd, cmd, (unsigned long)arg);
	tally(t, op, ret);
	tlog(t, "ioctl", cmd, arg, ret);
	return ret;
}

/* Any other counted system call, already made: tally its result. */
#define COUNTED(t, op, expr)						\
	({								\
		long _r = -2;						\
		if (take_call(t)) {					\
			_r = (long)(expr);				\
			tally((t), (op), _r);				\
			tlog((t), #expr, 0, 0, _r);			\
		}							\
		_r;							\
	})

/* A counted call that returns an address (mmap, mremap). */
static void *fz_mapcall(struct thr *t, enum op op, void *ret)
{
	tally(t, op, ret == MAP_FAILED ? -1 : 0);
	tlog(t, "map", uptr(ret), 0, ret == MAP_FAILED ? -1 : 0);
	return ret;
}

/* ---- memory: arenas, the read-only view, hostile addresses ---- */

static int arena_init(struct arena *a, int low)
{
	size_t len = (size_t)(ARENA_PAGES + 1) * page;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	uint8_t *p;
	size_t i;

#ifdef __x86_64__
	if (low)
		flags |= MAP_32BIT;
#endif
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	a->rw = p;
	a->guard = p + (size_t)ARENA_PAGES * page;
	if (mprotect(a->guard, page, PROT_NONE))
		return -1;
	/* Argument data: a recognisable pattern, then noise. */
	for (i = 0; i < DATA_BYTES; i++)
		p[(size_t)PG_DATA * page + i] = (uint8_t)(i * 7 + 1);
	return 0;
}

/* Two pages written through t->w and seen read-only through t->ro. */
static void ro_view_init(struct thr *t)
{
	size_t len = 2 * (size_t)page;
	int fd = memfd_create("fz-ro", 0);

	t->w = t->ro = NULL;
	if (fd >= 0 && ftruncate(fd, (off_t)len) == 0) {
		t->w = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		t->ro = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		if (t->w == MAP_FAILED || t->ro == MAP_FAILED)
			t->w = t->ro = NULL;
	}
	if (fd >= 0)
		close(fd);
}

static const char rodata_text[] = "read-only: the kernel must not write here";

/* An address no caller owns, or one it may not write. */
static uint64_t bad_addr(struct thr *t)
{
	static const uint64_t addrs64[] = {
		0, 1, 8, 0xFFF, 0x1000, 0x10000,
		0x00007FFFFFFFF000ULL, 0x00007FFFFFFFFFF8ULL,	/* top of user space */
		0x0000800000000000ULL, 0x8000000000000000ULL,	/* non-canonical */
		0xFFFF888000000000ULL,	/* the direct map */
		0xFFFFC90000000000ULL,	/* vmalloc */
		0xFFFFFFFF81000000ULL,	/* kernel text */
		0xFFFFFFFFFFFFF000ULL, ~0ULL,
		0xFFFFFFFFULL, 0xFFFFF000ULL, 0xC0000000ULL,	/* 32-bit tops */
		0x100000000ULL,
	};

	switch (below(&t->r, 6)) {
	case 0:
		return uptr(t->lo.guard) + below(&t->r, (uint32_t)page);
	case 1:
		return uptr(rodata_text);
	case 2:
		return uptr((const void *)bad_addr);	/* text */
	case 3:
		/* High bits over a good low address: a 32-bit caller's trap. */
		return uptr(t->lo.rw) | ((uint64_t)(1 + below(&t->r, 0xFFFF)) << 32);
	default:
		if (BITS == 32 && chance(&t->r, 50))
			return PICK(&t->r, addrs64) & 0xFFFFFFFFULL;
		return PICK(&t->r, addrs64);
	}
}

/*
 * Size of an ioctl struct as the caller states it. *tail: 1 if the bytes
 * past the kernel's struct should be non-zero.
 */
static uint32_t pick_size(struct thr *t, uint32_t min, uint32_t ksize, int *tail)
{
	*tail = 0;
	switch (below(&t->r, 16)) {
	case 0: return 0;
	case 1: return 3;
	case 2: return 4;
	case 3: return min - 1;
	case 4: return min;
	case 5: return ksize + 8;
	case 6: *tail = 1; return ksize + 8;
	case 7: return 4096;
	case 8: *tail = chance(&t->r, 50); return 4096;
	case 9: return 4097;
	case 10: return chance(&t->r, 50) ? 0xFFFFFFFFU : 0x80000000U;
	case 11: *tail = chance(&t->r, 50); return ksize + 1 + below(&t->r, 4096);
	default: return ksize;
	}
}

/*
 * Put an ioctl struct (ksize bytes of k) somewhere and state its size.
 * Returns the address to pass; *out points where the kernel's answer can
 * be read back, or is NULL. @start: the struct is a START's.
 */
static uint64_t place_ex(struct thr *t, void *k, uint32_t ksize, uint32_t min,
			 int exact, uint8_t **out, int start)
{
	struct arena *a = (BITS == 64 && chance(&t->r, 50)) ? &t->hi : &t->lo;
	uint32_t usize, room, n;
	int tail = 0;
	uint8_t *dst;

	usize = exact ? ksize : pick_size(t, min, ksize, &tail);
	memcpy(k, &usize, 4);
	*out = NULL;

	switch (exact ? 0 : below(&t->r, 20)) {
	case 10: case 11:	/* ends at the guard page: short reads fault */
		room = chance(&t->r, 50) ? ksize :
		       chance(&t->r, 50) ? 1 + below(&t->r, ksize + 8) :
		       (usize <= 4096 ? usize : ksize);
		if (room > (uint32_t)page)
			room = (uint32_t)page;
		dst = a->guard - room;
		n = room < ksize ? room : ksize;
		memcpy(dst, k, n);
		if (room > ksize)
			memset(dst + ksize, 0, room - ksize);
		if (tail && room > ksize)
			dst[ksize + below(&t->r, room - ksize)] = 0x5A;
		*out = dst;
		return uptr(dst);
	case 12: case 13:	/* read-only memory */
		if (!t->w)
			break;
		room = 2 * (uint32_t)page;
		n = chance(&t->r, 50) ? 0 : (uint32_t)page - ksize + below(&t->r, 8) * 4;
		memset(t->w + n, 0, room - n);
		memcpy(t->w + n, k, ksize);
		if (tail && usize > ksize && usize - ksize < room - n - ksize)
			t->w[n + ksize + below(&t->r, usize - ksize)] = 0x5A;
		return uptr(t->ro + n);
	case 14:		/* the page the racer rewrites */
		/*
		 * Not for START: with the racer's sizes, and a name the
		 * kernel wrote back there, it could take any memory.
		 */
		if (start)
			break;
		memcpy(W.scribble, k, ksize < 112 ? ksize : 112);
		return uptr(W.scribble);
	case 15: case 16:
		return bad_addr(t);
	case 17:		/* misaligned, otherwise good */
		dst = a->rw + (size_t)PG_STRUCT * page + 1 + below(&t->r, 7);
		memset(dst, 0, 4200);
		memcpy(dst, k, ksize);
		*out = dst;
		return uptr(dst);
	}
	dst = a->rw + (size_t)PG_STRUCT * page;
	room = 2 * (uint32_t)page;
	n = usize > ksize ? (usize < room ? usize : room) : ksize;
	memset(dst, 0, n);
	memcpy(dst, k, ksize);
	if (tail && n > ksize)
		dst[ksize + below(&t->r, n - ksize)] = 0x5A;
	*out = dst;
	return uptr(dst);
}

static uint64_t place(struct thr *t, void *k, uint32_t ksize, uint32_t min,
		      int exact, uint8_t **out)
{
	return place_ex(t, k, ksize, min, exact, out, 0);
}

/*
 * A file of this worker (maybe closed meanwhile: an open one is looked for
 * twice), or a bad descriptor.
 */
static int pick_fd(struct thr *t, int *slot)
{
	int i = (int)below(&t->r, NFD), fd;

	*slot = i;
	switch (below(&t->r, 40)) {
	case 0:
		return -1;
	case 1:
		return 1023;
	default:
		fd = __atomic_load_n(&W.fds[i].fd, __ATOMIC_RELAXED);
		if (fd < 0) {
			*slot = i = (int)below(&t->r, NFD);
			fd = __atomic_load_n(&W.fds[i].fd, __ATOMIC_RELAXED);
		}
		return fd;
	}
}

/* ---- session names ---- */

enum name_class { NM_TINY, NM_POOL, NM_BIG, NM_BAD };

static void gen_name(struct thr *t, uint8_t name[NTTRACE_NAME_MAX], enum name_class c)
{
	char buf[NTTRACE_NAME_MAX + 1];
	unsigned int i, n;

	memset(name, 0, NTTRACE_NAME_MAX);
	switch (c) {
	case NM_TINY:
		snprintf(buf, sizeof(buf), "fzt%u", below(&t->r, 100));
		break;
	case NM_POOL:
		snprintf(buf, sizeof(buf), chance(&t->r, 20) ? "FZ%u" : "fz%u",
			 below(&t->r, 8));
		break;
	case NM_BIG:
		snprintf(buf, sizeof(buf), chance(&t->r, 20) ? "FzBig" : "fzbig");
		break;
	default:
		switch (below(&t->r, 9)) {
		case 0:		/* empty */
			return;
		case 1:		/* 63 characters: the longest */
			memset(name, 'a' + below(&t->r, 26), NTTRACE_NAME_MAX - 1);
			return;
		case 2:		/* 64: no NUL */
			memset(name, 'b', NTTRACE_NAME_MAX);
			return;
		case 3:		/* a control character, DEL, a high byte */
			memcpy(name, "fz0", 3);
			name[below(&t->r, 3)] = (uint8_t)PICK(&t->r, u32_edges);
			name[1] = chance(&t->r, 50) ? 0x7F : 0x80 + below(&t->r, 128);
			return;
		case 4:		/* garbage after the NUL */
			memcpy(name, "fz1", 3);
			name[4 + below(&t->r, NTTRACE_NAME_MAX - 4)] = 1 + below(&t->r, 255);
			return;
		case 5:		/* spaces and the printable edges */
			memcpy(name, " ~ ", 3);
			return;
		default:
			n = 1 + below(&t->r, NTTRACE_NAME_MAX);
			for (i = 0; i < n; i++)
				name[i] = (uint8_t)rnd(&t->r);
			return;
		}
	}
	memcpy(name, buf, strlen(buf));
}

/* ---- the ioctls ---- */

/* A __u32 of the kernel's answer, wherever the struct was put. */
static uint32_t out_u32(const uint8_t *out, size_t off)
{
	uint32_t v;

	memcpy(&v, out + off, 4);
	return v;
}

static void live_mark(uint32_t id, int on)
{
	if (!id || id > NTTRACE_MAX_LOGGERS)
		return;
	if (on)
		__atomic_fetch_or(&sh->live[id / 64], 1ULL << (id % 64), __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&sh->live[id / 64], ~(1ULL << (id % 64)), __ATOMIC_RELAXED);
}

/* One of the IDs seen running, or 0 if none is. */
static uint32_t live_pick(struct thr *t)
{
	uint32_t ids[NTTRACE_MAX_LOGGERS + 1], n = 0, id;

	for (id = 1; id <= NTTRACE_MAX_LOGGERS; id++)
		if (__atomic_load_n(&sh->live[id / 64], __ATOMIC_RELAXED) & (1ULL << (id % 64)))
			ids[n++] = id;
	return n ? ids[below(&t->r, n)] : 0;
}


static void op_version(struct thr *t)
{
	struct nttrace_version v;
	uint8_t *out;
	uint64_t arg;
	int slot, fd = pick_fd(t, &slot);

	memset(&v, 0, sizeof(v));
	if (chance(&t->r, 20)) {
		v.abi_version = pick_u32(&t->r);
		v.features = pick_u64(&t->r);
		v.types = pick_u64(&t->r);
	}
	arg = place(t, &v, sizeof(v), NTTRACE_VERSION_SIZE_VER0, chance(&t->r, 40), &out);
	fz_ioctl(t, OP_VERSION, fd, NTTRACE_IOC_VERSION, arg);
}

/*
 * The rings' memory a START would allocate, in KB, as the module computes
 * it; 0 if it would refuse the values anyway.
 */
static uint64_t session_kb(const struct nttrace_logger_info *in)
{
	uint64_t kb = in->buffer_size_kb ? in->buffer_size_kb : NTTRACE_DEFAULT_BUFFER_KB;
	uint64_t minb = in->min_buffers ? in->min_buffers : NTTRACE_MIN_BUFFERS;
	uint64_t maxb = in->max_buffers ? in->max_buffers :
			(minb > NTTRACE_DEFAULT_BUFFERS ? minb : NTTRACE_DEFAULT_BUFFERS);

	if (kb < NTTRACE_MIN_BUFFER_KB || kb > NTTRACE_MAX_BUFFER_KB)
		return 0;
	if (minb < NTTRACE_MIN_BUFFERS || maxb > NTTRACE_MAX_BUFFERS || minb > maxb)
		return 0;
	kb = (kb + page / 1024 - 1) / (page / 1024) * (page / 1024);
	return kb * maxb * (uint64_t)ncpus;
}

/* The module's system_flags (NTTRACE_IOC_VERSION), asked at the start. */
static uint32_t system_flags;

/* A group mask: the flags sources write, or any bits, in any word. */
static void gen_group_mask(struct thr *t, uint32_t *mask)
{
	unsigned int i;

	mask[0] = chance(&t->r, 70) ? (uint32_t)rnd(&t->r) & system_flags :
		  pick_u32(&t->r);
	for (i = 1; i < NTTRACE_GROUP_MASKS; i++)
		mask[i] = chance(&t->r, 80) ? 0 : pick_u32(&t->r);
}

static void gen_start(struct thr *t, struct nttrace_logger_info *in)
{
	static const uint32_t kbs[] = {
		0, 1, 3, 4, 5, 8, 12, 16, 63, 64, 65, 1023, 1024, 1025, 0xFFFF,
		0x10000, 0xFFFFFFFF,
	};
	static const uint32_t nbufs[] = {
		0, 1, 2, 3, 4, 16, 17, 1023, 1024, 1025, 0xFFFF, 0xFFFFFFFF,
	};
	enum name_class nc;
	uint64_t kb, limit;

	memset(in, 0, sizeof(*in));
	if (chance(&t->r, 10)) {	/* "out" members hold garbage */
		in->nr_cpus = pick_u32(&t->r);
		in->number_of_buffers = pick_u32(&t->r);
		in->owner_uid = pick_u32(&t->r);
		in->events_lost = pick_u64(&t->r);
		in->start_time = pick_u64(&t->r);
		in->logger_id = pick_u32(&t->r);
	}
	if (chance(&t->r, 70)) {	/* small: these succeed */
		in->buffer_size_kb = chance(&t->r, 50) ? 4 : 4 + below(&t->r, 13);
		in->max_buffers = 2 + below(&t->r, 7);
		in->min_buffers = chance(&t->r, 50) ? 0 : 2;
	} else {
		in->buffer_size_kb = chance(&t->r, 80) ? PICK(&t->r, kbs) : pick_u32(&t->r);
		in->min_buffers = chance(&t->r, 80) ? PICK(&t->r, nbufs) : pick_u32(&t->r);
		in->max_buffers = chance(&t->r, 80) ? PICK(&t->r, nbufs) : pick_u32(&t->r);
	}
	switch (below(&t->r, 6)) {
	case 0: case 1:
		in->log_file_mode = 0;
		break;
	case 2:			/* valid bits */
		in->log_file_mode = (uint32_t)rnd(&t->r) & NTTRACE_KERNEL_LOG_MODES &
				    ~(chance(&t->r, 70) ? NTTRACE_EVENT_TRACE_FILE_MODE_SEQUENTIAL |
				      NTTRACE_EVENT_TRACE_USE_LOCAL_SEQUENCE : 0);
		break;
	case 3:			/* one bit, any */
		in->log_file_mode = 1U << below(&t->r, 32);
		break;
	case 4:
		in->log_file_mode = chance(&t->r, 50) ? NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR |
								NTTRACE_EVENT_TRACE_BUFFERING_MODE :
							NTTRACE_EVENT_TRACE_PRIVATE_LOGGER_MODE;
		break;
	default:
		in->log_file_mode = pick_u32(&t->r);
	}
	/*
	 * A system logger now and then (its group mask hooks the kernel's
	 * tracepoints while it runs), and group masks where they are refused.
	 */
	if (chance(&t->r, 8))
		in->log_file_mode |= NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE;
	if (chance(&t->r, 12))
		gen_group_mask(t, in->group_mask);
	in->flush_timer = chance(&t->r, 75) ? 0 : chance(&t->r, 60) ? 1 + below(&t->r, 2) :
			  pick_u32(&t->r);
	in->clock_type = chance(&t->r, 85) ? below(&t->r, 4) : pick_u32(&t->r);
	in->control = chance(&t->r, 93) ? 0 : pick_u32(&t->r);
	in->control_flags = chance(&t->r, 93) ? 0 : pick_u32(&t->r);

	/* The name, chosen so that a run's memory stays bounded. */
	nc = chance(&t->r, 8) ? NM_BAD : chance(&t->r, 50) ? NM_TINY :
	     chance(&t->r, 85) ? NM_POOL : NM_BIG;
	kb = session_kb(in);
	limit = nc == NM_BIG ? 64 * 1024 : nc == NM_POOL ? 4 * 1024 : 256;
	if (kb > limit) {
		if (kb <= 64 * 1024 && chance(&t->r, 50)) {
			nc = NM_BIG;
		} else if (kb <= 64 * 1024 || chance(&t->r, 50)) {
			/* Over the module's limit is refused: keep some. */
			in->buffer_size_kb = 4;
			in->max_buffers = 2;
			in->min_buffers = 0;
		}
	}
	if (session_kb(in) > 64 * 1024)
		nc = NM_TINY;		/* refused (E2BIG): a name that fits */
	gen_name(t, in->name, nc);
	/* The NT Kernel Logger: one name, so mostly refused as taken. */
	if (chance(&t->r, 5)) {
		memset(in->name, 0, sizeof(in->name));
		snprintf((char *)in->name, sizeof(in->name), "%s",
			 chance(&t->r, 80) ? NTTRACE_KERNEL_LOGGER_NAME : "nt kernel LOGGER");
	}
}

static void op_start(struct thr *t)
{
	struct nttrace_logger_info in;
	uint8_t *out;
	uint64_t arg;
	int slot, fd = pick_fd(t, &slot);
	unsigned int n = 1, i, base = below(&t->r, 100);
	long ret;

	/*
	 * Now and then a burst of small sessions under names in a row, so
	 * that all the logger IDs get used and the limits (-EDQUOT, -EMFILE,
	 * -ENOBUFS) are met.
	 */
	if (chance(&t->r, 3))
		n = 2 + below(&t->r, NTTRACE_MAX_LOGGERS);
	for (i = 0; i < n && !t->stopping; i++) {
		gen_start(t, &in);
		if (n > 1) {
			memset(in.name, 0, sizeof(in.name));
			snprintf((char *)in.name, sizeof(in.name), "fzt%u", (base + i) % 100);
			in.buffer_size_kb = 4;
			in.max_buffers = 2;
			in.min_buffers = 0;
		}
		arg = place_ex(t, &in, sizeof(in), NTTRACE_LOGGER_INFO_SIZE_VER0,
			       n > 1 || chance(&t->r, 60), &out, 1);
		ret = fz_ioctl(t, OP_START, fd, NTTRACE_IOC_START_TRACE, arg);
		tally_priv(t, ret);
		if (ret == 0 && out)
			live_mark(out_u32(out, offsetof(struct nttrace_logger_info,
							 logger_id)), 1);
	}
}

/*
 * A logger ID: often one seen running, else mostly one of the first few
 * (the lowest free ID is handed out first), else the edges.
 */
static uint32_t pick_id(struct thr *t)
{
	uint32_t id;

	if (chance(&t->r, 50) && (id = live_pick(t)))
		return id;
	switch (below(&t->r, 10)) {
	case 0:
		return 0;
	case 1:
		return 1 + below(&t->r, NTTRACE_MAX_LOGGERS + 1);	/* to 65 */
	case 2:
		return chance(&t->r, 50) ? 0xFFFF : pick_u32(&t->r);
	default:
		return 1 + below(&t->r, 8);
	}
}

static void op_control(struct thr *t)
{
	struct nttrace_logger_info in;
	uint8_t *out;
	uint64_t arg;
	int slot, fd = pick_fd(t, &slot);
	uint32_t c = below(&t->r, 100);
	long ret;

	memset(&in, 0, sizeof(in));
	in.logger_id = pick_id(t);
	in.control = c < 35 ? NTTRACE_EVENT_TRACE_CONTROL_QUERY :
		     c < 50 ? NTTRACE_EVENT_TRACE_CONTROL_STOP :
		     c < 65 ? NTTRACE_EVENT_TRACE_CONTROL_UPDATE :
		     c < 92 ? NTTRACE_EVENT_TRACE_CONTROL_FLUSH :
			      pick_u32(&t->r);
	if (in.logger_id == 0 || chance(&t->r, 10))
		gen_name(t, in.name, chance(&t->r, 85) ? (enum name_class)below(&t->r, 3) : NM_BAD);
	/*
	 * WAIT_CONSUMER can wait on a consumer of this very worker for good
	 * (a killable wait): rarely, and never in a forked grandchild.
	 */
	if (in.control == NTTRACE_EVENT_TRACE_CONTROL_STOP && !W.in_grandchild && chance(&t->r, 3))
		in.control_flags = NTTRACE_CONTROL_WAIT_CONSUMER;
	else if (chance(&t->r, 5))
		in.control_flags = chance(&t->r, 50) ? 2 : pick_u32(&t->r);
	if (in.control_flags & NTTRACE_CONTROL_WAIT_CONSUMER && W.in_grandchild)
		in.control_flags &= ~NTTRACE_CONTROL_WAIT_CONSUMER;
	if (in.control == NTTRACE_EVENT_TRACE_CONTROL_UPDATE || chance(&t->r, 10)) {
		in.flush_timer = chance(&t->r, 50) ? below(&t->r, 3) : pick_u32(&t->r);
		if (chance(&t->r, 30)) {
			in.buffer_size_kb = PICK(&t->r, u32_edges);
			in.min_buffers = chance(&t->r, 50) ? 0 : pick_u32(&t->r);
			in.max_buffers = chance(&t->r, 50) ? 0 : pick_u32(&t->r);
			in.log_file_mode = chance(&t->r, 50) ? 0 : pick_u32(&t->r);
			in.clock_type = chance(&t->r, 50) ? 0 : below(&t->r, 5);
		}
	}
	if (chance(&t->r, 10)) {
		in.events_written = pick_u64(&t->r);
		in.owner_pid = pick_u32(&t->r);
	}
	/* A system logger's groups change on UPDATE; others refuse a mask. */
	if (in.control == NTTRACE_EVENT_TRACE_CONTROL_UPDATE && chance(&t->r, 50))
		gen_group_mask(t, in.group_mask);
	arg = place(t, &in, sizeof(in), NTTRACE_LOGGER_INFO_SIZE_VER0,
		    chance(&t->r, 60), &out);
	ret = fz_ioctl(t, OP_CONTROL, fd, NTTRACE_IOC_CONTROL_TRACE, arg);
	if (ret == 0 && out)
		live_mark(out_u32(out, offsetof(struct nttrace_logger_info, logger_id)),
			  in.control != NTTRACE_EVENT_TRACE_CONTROL_STOP);
	else if (ret == -1 && errno == ENOENT)
		live_mark(in.logger_id, 0);
}

static void op_list(struct thr *t)
{
	static const uint32_t counts[] = { 0, 1, 2, 8, 63, 64, 65, 1024, 0xFFFFFFFF };
	struct nttrace_logger_list l;
	struct arena *a = &t->lo;
	uint8_t *out;
	uint64_t arg;
	int slot, fd = pick_fd(t, &slot);

	memset(&l, 0, sizeof(l));
	l.count = chance(&t->r, 70) ? PICK(&t->r, counts) : pick_u32(&t->r);
	switch (below(&t->r, 8)) {
	case 0:		/* room for fewer IDs than the count says, then the guard */
		l.ids = uptr(a->guard - 4 * below(&t->r, 9));
		break;
	case 1:
		l.ids = t->ro ? uptr(t->ro) : bad_addr(t);
		break;
	case 2:
		l.ids = bad_addr(t);
		break;
	case 3:
		l.ids = uptr(W.scribble) + below(&t->r, 64);
		break;
	case 4:		/* misaligned */
		l.ids = uptr(a->rw + (size_t)PG_LIST * page + 1 + below(&t->r, 3));
		break;
	default:
		l.ids = uptr(a->rw + (size_t)PG_LIST * page);
	}
	arg = place(t, &l, sizeof(l), NTTRACE_LOGGER_LIST_SIZE_VER0, chance(&t->r, 50), &out);
	fz_ioctl(t, OP_LIST, fd, NTTRACE_IOC_LIST_TRACES, arg);
}

static void op_attach(struct thr *t)
{
	struct nttrace_attach at;
	uint8_t *out;
	uint64_t arg;
	int slot, fd = pick_fd(t, &slot), exact = chance(&t->r, 70);
	unsigned int gen = W.fds[slot].gen;
	long ret;

	memset(&at, 0, sizeof(at));
	at.logger_id = pick_id(t);
	/* The logger, or a real-time consumer; now and then a bad flag. */
	if (chance(&t->r, 50))
		at.flags = NTTRACE_ATTACH_REAL_TIME;
	if (chance(&t->r, 5))
		at.flags = pick_u32(&t->r);
	if (chance(&t->r, 3))
		at.reserved = pick_u32(&t->r);
	if (chance(&t->r, 10)) {
		at.nr_cpus = pick_u32(&t->r);
		at.data_offset = pick_u64(&t->r);
		at.ring_stride = pick_u64(&t->r);
	}
	arg = place(t, &at, sizeof(at), NTTRACE_ATTACH_SIZE_VER0, exact, &out);
	ret = fz_ioctl(t, OP_ATTACH, fd, NTTRACE_IOC_ATTACH, arg);
	tally_priv(t, ret);
	if (ret == -1 && errno == ENOENT)
		live_mark(at.logger_id, 0);
	if (ret == 0)
		live_mark(at.logger_id, 1);
	if (ret == 0 && out && fd == W.fds[slot].fd) {
		pthread_mutex_lock(&W.fdlock);
		if (W.fds[slot].gen == gen) {
			/*
			 * Only what every size the struct was placed with
			 * holds: a shorter one may end at an unmapped page.
			 */
			memset(&W.fds[slot].att, 0, sizeof(at));
			memcpy(&W.fds[slot].att, out, NTTRACE_ATTACH_SIZE_VER0);
			W.fds[slot].att_valid = 1;
		}
		pthread_mutex_unlock(&W.fdlock);
	}
}

/* ---- NtTraceEvent ---- */

/* Write one pointer-sized word of an argument list. */
static void put_word(uint8_t *p, unsigned int psz, uint64_t v)
{
	uint32_t v32 = (uint32_t)v;

	if (psz == 4)
		memcpy(p, &v32, 4);
	else
		memcpy(p, &v, 8);
}

/* Where an argument's bytes are; a 4-byte word holds a low address. */
static uint64_t arg_ptr(struct thr *t, uint32_t size, int good, unsigned int psz)
{
	struct arena *a = (psz == 8 && chance(&t->r, 50)) ? &t->hi : &t->lo;
	uint32_t off;

	if (good || chance(&t->r, 55)) {
		off = size < DATA_BYTES ? below(&t->r, DATA_BYTES - size + 1) : 0;
		return uptr(a->rw + (size_t)PG_DATA * page + off);
	}
	switch (below(&t->r, 8)) {
	case 0: case 1: case 2:	/* the racer's pages: going away under us */
		return uptr(W.race + below(&t->r, RACE_PAGES * (uint32_t)page));
	case 3:		/* running into the guard page */
		return uptr(a->guard - 1 - below(&t->r, size ? size : 1));
	case 4:
		return t->ro ? uptr(t->ro) + below(&t->r, 2 * (uint32_t)page) : bad_addr(t);
	case 5:
		return uptr(W.scribble) + below(&t->r, (uint32_t)page);
	default:
		return bad_addr(t);
	}
}

static uint32_t arg_size(struct thr *t, unsigned int psz, uint64_t *word)
{
	uint32_t s;

	switch (below(&t->r, 12)) {
	case 0:
		s = 0;
		break;
	case 1:
		s = PICK(&t->r, u32_edges);
		break;
	case 2:
		s = 0xFFFF - below(&t->r, 8);
		break;
	case 3:
		s = 0x10000 + below(&t->r, 2);
		break;
	case 4:
		s = below(&t->r, 4097);
		break;
	default:
		s = below(&t->r, 65);
	}
	*word = s;
	/* A 64-bit size word with high bits: a size the kernel must refuse. */
	if (psz == 8 && chance(&t->r, 3))
		*word |= (uint64_t)(1 + below(&t->r, 0xFF)) << 32;
	return s;
}

/*
 * Build an argument list at @list (room bytes): pairs of (pointer, size)
 * in @psz-byte words, usually ending with a NULL pointer. Returns the
 * DataSize to state.
 */
static uint32_t gen_list(struct thr *t, uint8_t *list, uint32_t room,
			 unsigned int psz, int good)
{
	static const unsigned int edge_n[] = { 15, 16, 17, 255, 256, 257 };
	unsigned int n, i, max = (room - psz) / (2 * psz);
	uint32_t used, total = 0;
	uint64_t sw;

	switch (good ? 1 : below(&t->r, 10)) {
	case 0:
		n = 0;
		break;
	case 1: case 2: case 3: case 4:
		n = 1 + below(&t->r, 4);
		break;
	case 5: case 6:
		n = 5 + below(&t->r, 12);
		break;
	case 7:
		n = PICK(&t->r, edge_n);
		break;
	default:
		n = below(&t->r, 301);
	}
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		uint32_t s = arg_size(t, psz, &sw);

		if (good) {
			s = below(&t->r, total < 512 ? 129 : 9);
			sw = s;
		}
		total += s;
		put_word(list + 2 * i * psz, psz, arg_ptr(t, s, good, psz));
		put_word(list + (2 * i + 1) * psz, psz, sw);
	}
	put_word(list + 2 * n * psz, psz, 0);
	used = (2 * n + 1) * psz;
	if (good)
		return used;
	/* Words after the NULL, never read. */
	for (i = used; i + psz <= room && i < used + 64; i += psz)
		put_word(list + i, psz, rnd(&t->r));

	switch (below(&t->r, 12)) {
	case 0:		/* no terminator: DataSize ends on a size word */
		return used - psz;
	case 1:		/* the last word a pointer, with no size after it */
		if (!n)
			return psz;
		put_word(list + 2 * (n - 1) * psz, psz, arg_ptr(t, 1, 1, psz));
		return used - 2 * psz;
	case 2:
		return used + 1 + below(&t->r, psz - 1);	/* not whole words */
	case 3:
		return chance(&t->r, 50) ? 0xFFFFFFFFU : 0x80000000U;
	case 4:
		return pick_u32(&t->r);
	case 5:		/* an early NULL */
		if (n > 1)
			put_word(list + 2 * below(&t->r, n) * psz, psz, 0);
		return used;
	case 6:
		return used + psz * below(&t->r, 9);
	default:
		return used;
	}
}

static uint32_t pick_flags(struct thr *t, int good)
{
	static const uint32_t types[] = {
		0x0000, 0x0100, 0x0300, 0x0400, 0x0500, 0x0600, 0x0700, 0x0800,
		0x0900, 0x0A00, 0x0B00, 0x1000, 0x8000, 0xFF00,
	};
	uint32_t f = NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE;

	if (!good && chance(&t->r, 35))
		f = chance(&t->r, 80) ? PICK(&t->r, types) : (uint32_t)rnd(&t->r) & 0xFF00;
	if (chance(&t->r, 30))
		f |= below(&t->r, 256);			/* version byte */
	if (chance(&t->r, 20))
		f |= below(&t->r, 16) << NTTRACE_ETW_USER_FRAMES_TO_SKIP_SHIFT;
	if (chance(&t->r, 15))
		f |= NTTRACE_ETW_NT_FLAGS_USE_NATIVE_HEADER;
	if (BITS == 64 ? chance(&t->r, 25) : chance(&t->r, 10))
		f |= NTTRACE_ETW_NT_FLAGS_WOW64_CALL;
	if (!good && chance(&t->r, 10))
		f |= (uint32_t)rnd(&t->r) & 0x3FF00000;	/* bits no one defines */
	return f;
}

/*
 * Count a TRACE_EVENT ioctl's NTSTATUS (read back when the struct was
 * placed whole in our memory) in @row; the status, or ~0 when not known.
 */
static uint32_t tally_status(uint64_t *row, long ret, const uint8_t *out, uint64_t arg)
{
	uint32_t st = ~0U;
	unsigned int i;

	if (ret == 0 && out && ptr_of(arg) == out) {
		memcpy(&st, out + offsetof(struct nttrace_trace_event, status), 4);
		for (i = 0; i < (unsigned int)NSTAT; i++)
			if (status_list[i] == st)
				break;
		__atomic_fetch_add(&row[i], 1, __ATOMIC_RELAXED);
	} else if (ret == -1) {
		__atomic_fetch_add(&row[NSTAT + 1], 1, __ATOMIC_RELAXED);
	}
	return st;
}

/*
 * TRACE_SYSTEM, TRACE_MARK and TRACE_RAW: a logger by ID (the NT Kernel
 * Logger's 0 and 0xFFFF often), Fields at the edges (its fixed part cut by
 * the guard page, in the racer's pages, bad), FieldSize at the limits
 * (0xFFDF, 0xFFDD, 0xFFFF and one over), any HookId and version, raw
 * records that describe themselves and records that lie (their Size,
 * header type, marker, PMC count, extended items).
 */
static void trace_kernel_types(struct thr *t, int fd)
{
	static const uint32_t types[] = {
		NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM, NTTRACE_ETW_NT_FLAGS_TRACE_MARK,
		NTTRACE_ETW_NT_FLAGS_TRACE_RAW,
	};
	static const uint32_t sizes[] = {
		0, 1, 4, 5, 8, 0x18, 0x20, 0x28, 0x50, 0x78, 0xFFDD, 0xFFDE, 0xFFDF, 0xFFE0,
		0xFFFF, 0x10000, 0xFFFFFFFF,
	};
	static const uint8_t htypes[] = { 1, 2, 3, 4, 0x0A, 0x0B, 0x12, 0x13, 0x14, 0x15, 0x10,
					  0x11, 0, 7 };
	struct arena *a = (BITS == 64 && chance(&t->r, 50)) ? &t->hi : &t->lo;
	uint8_t *fields = a->rw + (size_t)PG_FIELDS * page, *out;
	uint32_t type = PICK(&t->r, types), size, i, room = 2 * (uint32_t)page;
	struct nttrace_trace_event ev;
	int good = chance(&t->r, 50);
	uint64_t arg;

	memset(&ev, 0, sizeof(ev));
	ev.flags = type;
	if (!good && chance(&t->r, 30))
		ev.flags |= (uint32_t)rnd(&t->r) & 0xC00F00FF;
	else if (type == NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM)
		ev.flags |= below(&t->r, 4);
	ev.trace_handle = chance(&t->r, 40) ? (chance(&t->r, 50) ? 0xFFFF : 0) : pick_id(t);
	size = good ? (type == NTTRACE_ETW_NT_FLAGS_TRACE_RAW ? 0x20 + 8 * below(&t->r, 8) :
		       4 + 2 * below(&t->r, 64)) : PICK(&t->r, sizes);
	for (i = 0; i < 0x100 && i < room; i++)
		fields[i] = (uint8_t)rnd(&t->r);
	if (type == NTTRACE_ETW_NT_FLAGS_TRACE_RAW && size >= 8 && size <= 0xFFFF) {
		/* A record: its marker, header type and Size, maybe lying. */
		fields[2] = good ? (chance(&t->r, 70) ? 2 : 0x13) : PICK(&t->r, htypes);
		fields[3] = good || chance(&t->r, 80) ? 0xC0 : (uint8_t)rnd(&t->r);
		if (good || chance(&t->r, 50))
			fields[1] = 0;		/* no PMC counters */
		put_word(fields + (fields[2] <= 4 || fields[2] >= 0x10 ? 4 : 0), 2,
			 good || chance(&t->r, 70) ? size : (uint32_t)rnd(&t->r));
		if (fields[2] == 0x13 && chance(&t->r, 50))
			put_word(fields + 4, 2, 1);	/* EXTENDED_INFO: items from 0x50 */
		else if (fields[2] == 0x13)
			put_word(fields + 4, 2, 0);
	}
	switch (good ? 0 : below(&t->r, 6)) {
	case 1:			/* cut by the guard page */
		ev.fields = uptr(a->guard - 4 * (1 + below(&t->r, 16)));
		break;
	case 2:
		ev.fields = bad_addr(t);
		break;
	case 3:
		ev.fields = uptr(W.race) + 8 * below(&t->r, (uint32_t)page / 8 - 16);
		break;
	case 4:			/* misaligned */
		ev.fields = uptr(fields) + 1 + below(&t->r, 3);
		break;
	default:
		ev.fields = uptr(fields);
		/* Past the page's bytes the kernel reads the guard: an error. */
		if (size > room && size <= 0xFFFF && chance(&t->r, 80))
			size = room;
	}
	ev.field_size = size;
	arg = place(t, &ev, sizeof(ev), NTTRACE_TRACE_EVENT_SIZE_VER0,
		    good || chance(&t->r, 70), &out);
	tally_status(t->slot->tblock[type == NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM ? 3 :
				     type == NTTRACE_ETW_NT_FLAGS_TRACE_MARK ? 4 : 5],
		     fz_ioctl(t, OP_TRACE, fd, NTTRACE_IOC_TRACE_EVENT, arg), out, arg);
}

static void op_trace(struct thr *t)
{
	struct nttrace_trace_event ev;
	struct nttrace_message_trace_user m;
	struct arena *a = (BITS == 64 && chance(&t->r, 50)) ? &t->hi : &t->lo;
	int good = chance(&t->r, 45), slot, fd = pick_fd(t, &slot);
	unsigned int psz, i;
	uint8_t *list, *fields, *out;
	uint32_t room, r;
	uint64_t arg;
	long ret;

	if (chance(&t->r, 12)) {
		trace_kernel_types(t, fd);
		return;
	}
	memset(&ev, 0, sizeof(ev));
	memset(&m, 0, sizeof(m));
	ev.flags = pick_flags(t, good);
	/* The kernel reads 32-bit words from a 32-bit or WOW64 caller. */
	psz = (BITS == 32 || (ev.flags & NTTRACE_ETW_NT_FLAGS_WOW64_CALL)) ? 4 : 8;
	if (!good && chance(&t->r, 10))
		psz = 12 - psz;
	if (psz == 4)
		a = &t->lo;

	ev.trace_handle = pick_id(t);
	if (chance(&t->r, 10))	/* only the low 16 bits name the logger */
		ev.trace_handle |= pick_u64(&t->r) << 16;
	ev.field_size = good || chance(&t->r, 75) ? NTTRACE_MESSAGE_TRACE_USER_SIZE :
			chance(&t->r, 60) ? PICK(&t->r, u32_edges) :
			NTTRACE_MESSAGE_TRACE_USER_SIZE + below(&t->r, 0x50) - 0x28;
	ev.status = (uint32_t)rnd(&t->r);

	/* MESSAGE_TRACE_USER */
	m.marker = (uint32_t)rnd(&t->r);
	m.message_number = (uint16_t)rnd(&t->r);
	m.option_flags = (uint16_t)rnd(&t->r);
	for (i = 0; i < sizeof(m.message_guid); i++)
		m.message_guid[i] = (uint8_t)rnd(&t->r);
	if (good || chance(&t->r, 60))
		m.message_flags = (uint32_t)rnd(&t->r) & NTTRACE_TRACE_MESSAGE_FLAG_MASK;
	else
		m.message_flags = chance(&t->r, 50) ? (uint32_t)rnd(&t->r) & 0xFFFF :
				  pick_u32(&t->r);

	/* The argument list. */
	r = good ? 0 : below(&t->r, 20);
	if (r == 0 || r > 9) {
		list = a->rw + (size_t)PG_LIST * page;
		room = 3 * (uint32_t)page;
		m.data_size = gen_list(t, list, room, psz, good);
		m.data = uptr(list);
	} else if (r <= 3) {	/* ending at the guard page */
		room = 16 * (1 + below(&t->r, 40));
		list = a->guard - room;
		m.data_size = gen_list(t, list, room, psz, 0);
		if (chance(&t->r, 50))
			m.data_size += psz * (1 + below(&t->r, 4));
		m.data = uptr(list);
	} else if (r <= 5) {	/* misaligned for its word size */
		list = a->rw + (size_t)PG_LIST * page + 1 + below(&t->r, psz - 1);
		m.data_size = gen_list(t, list, 2 * (uint32_t)page, psz, 0);
		m.data = uptr(list);
	} else if (r == 6 && t->w) {	/* read-only: fine for a list */
		m.data_size = gen_list(t, t->w, 2 * (uint32_t)page, psz, 0);
		m.data = uptr(t->ro);
	} else if (r == 7) {	/* in the racer's pages, which it fills with lists */
		m.data = uptr(W.race) + (uint64_t)below(&t->r, RACE_PAGES) * page +
			 (psz == 8 && BITS == 64 ? page / 2 : 0);
		m.data_size = psz * (1 + 2 * below(&t->r, 40));
	} else if (r == 8) {
		m.data = uptr(W.scribble);
		m.data_size = psz * (1 + 2 * below(&t->r, 20));
	} else {
		m.data = bad_addr(t);
		m.data_size = chance(&t->r, 50) ? psz * 3 : pick_u32(&t->r);
	}
	if (psz == 8 && BITS == 32 && chance(&t->r, 50))
		m.data |= (uint64_t)below(&t->r, 3) << 32;

	/* Where Fields (the MESSAGE_TRACE_USER) is. */
	r = good ? 0 : below(&t->r, 14);
	switch (r) {
	case 1:			/* misaligned */
		fields = a->rw + (size_t)PG_FIELDS * page + 1 + below(&t->r, 7);
		memcpy(fields, &m, sizeof(m));
		ev.fields = uptr(fields);
		break;
	case 2:			/* cut by the guard page */
		fields = a->guard - 4 * (1 + below(&t->r, 10));
		memcpy(fields, &m, (size_t)(a->guard - fields));
		ev.fields = uptr(fields);
		break;
	case 3:
		if (t->w) {
			memcpy(t->w + 2 * page - 0x30, &m, sizeof(m));
			ev.fields = uptr(t->ro + 2 * page - 0x30);
			break;
		}
		/* fall through */
	case 4:
		ev.fields = bad_addr(t);
		break;
	case 5:			/* the racer's pages: the list pattern as a header */
		ev.fields = uptr(W.race) + (uint64_t)below(&t->r, RACE_PAGES) * page +
			    4 * below(&t->r, 16);
		break;
	case 6:
		ev.fields = uptr(W.scribble) + 4 * below(&t->r, 8);
		break;
	default:
		fields = a->rw + (size_t)PG_FIELDS * page;
		memcpy(fields, &m, sizeof(m));
		ev.fields = uptr(fields);
	}
	arg = place(t, &ev, sizeof(ev), NTTRACE_TRACE_EVENT_SIZE_VER0,
		    good || chance(&t->r, 70), &out);
	ret = fz_ioctl(t, OP_TRACE, fd, NTTRACE_IOC_TRACE_EVENT, arg);
	if (tally_status(t->slot->tstat, ret, out, arg) == NTTRACE_STATUS_INVALID_HANDLE)
		live_mark(ev.trace_handle & 0xFFFF, 0);
}

/* ---- unknown commands, other file operations ---- */

static void op_badcmd(struct thr *t)
{
	static const unsigned int known[] = {
		0x00, 0x01, 0x10, 0x11, 0x12, 0x13, 0x20, 0x21, 0x22, 0x23, 0x24,
	};
	static const unsigned long generic[] = {
		FIONREAD, FIONBIO, FIOCLEX, FIONCLEX, FIOASYNC, 0x5401 /* TCGETS */,
		0, ~0UL,
	};
	struct arena *a = &t->lo;
	uint8_t *buf = a->rw + (size_t)PG_STRUCT * page;
	unsigned long cmd;
	unsigned int dir, type, nr, size;
	uint64_t arg;
	uint32_t sz;
	int slot, fd = pick_fd(t, &slot), i;

	/* An argument: random bytes with a plausible size first. */
	for (i = 0; i < 64; i++)
		buf[i] = (uint8_t)rnd(&t->r);
	sz = chance(&t->r, 60) ? PICK(&t->r, u32_edges) : 16 + 8 * below(&t->r, 30);
	memcpy(buf, &sz, 4);
	memset(buf + 64, 0, 4096);
	arg = chance(&t->r, 75) ? uptr(buf) : bad_addr(t);

	switch (below(&t->r, 10)) {
	case 0: case 1: case 2:	/* a known number, another direction or size */
		dir = below(&t->r, 4);
		nr = PICK(&t->r, known);
		size = chance(&t->r, 50) ? below(&t->r, 0x4000) : 24 + 8 * below(&t->r, 30);
		cmd = _IOC(dir, NTTRACE_IOC_MAGIC, nr, size);
		break;
	case 3: case 4:		/* our magic, unknown numbers */
		nr = chance(&t->r, 50) ? 2 + below(&t->r, 0x20) : below(&t->r, 256);
		cmd = _IOC(_IOC_READ | _IOC_WRITE, NTTRACE_IOC_MAGIC, nr, below(&t->r, 0x4000));
		break;
	case 5:			/* another magic, our numbers */
		type = chance(&t->r, 50) ? NTTRACE_IOC_MAGIC ^ (1U << below(&t->r, 8)) :
		       below(&t->r, 256);
		cmd = _IOC(_IOC_READ | _IOC_WRITE, type, PICK(&t->r, known),
			   below(&t->r, 0x4000));
		break;
	case 6:
		cmd = PICK(&t->r, generic);
		break;
	case 7:			/* read, write and seek: the device has none */
		switch (below(&t->r, 3)) {
		case 0:
			COUNTED(t, OP_BADCMD, read(fd, buf, below(&t->r, 64)));
			break;
		case 1:
			COUNTED(t, OP_BADCMD, write(fd, buf, below(&t->r, 64)));
			break;
		default:
			COUNTED(t, OP_BADCMD, lseek(fd, (off_t)pick_u32(&t->r), below(&t->r, 5)));
		}
		return;
	default:
		cmd = (unsigned long)rnd(&t->r);
	}
	fz_ioctl(t, OP_BADCMD, fd, cmd, arg);
}

/* ---- files ---- */

static void op_open(struct thr *t)
{
	static const int modes[] = {
		O_RDWR, O_RDWR, O_RDWR, O_RDONLY, O_WRONLY, O_RDWR | O_NONBLOCK,
		O_RDWR | O_CLOEXEC,
	};
	int i = (int)below(&t->r, NFD), fd, old, src;

	if (chance(&t->r, 25)) {
		src = __atomic_load_n(&W.fds[below(&t->r, NFD)].fd, __ATOMIC_RELAXED);
		fd = (int)COUNTED(t, OP_OPEN, dup(src));
	} else {
		fd = (int)COUNTED(t, OP_OPEN, open(opt_device, PICK(&t->r, modes)));
	}
	if (fd < 0)
		return;
	pthread_mutex_lock(&W.fdlock);
	old = __atomic_exchange_n(&W.fds[i].fd, fd, __ATOMIC_ACQ_REL);
	W.fds[i].gen++;
	W.fds[i].att_valid = 0;
	pthread_mutex_unlock(&W.fdlock);
	if (old >= 0)
		COUNTED(t, OP_CLOSE, close(old));
}

static void op_close(struct thr *t)
{
	int i = (int)below(&t->r, NFD), fd;

	pthread_mutex_lock(&W.fdlock);
	fd = __atomic_exchange_n(&W.fds[i].fd, -1, __ATOMIC_ACQ_REL);
	W.fds[i].att_valid = 0;
	pthread_mutex_unlock(&W.fdlock);
	if (fd >= 0)
		COUNTED(t, OP_CLOSE, close(fd));
}

static void op_poll(struct thr *t)
{
	struct pollfd p[4];
	struct epoll_event ev, evs[4];
	unsigned int n = 1 + below(&t->r, 4), i;
	int slot, fd, tmo = chance(&t->r, 70) ? 0 : 1 + below(&t->r, 3);
	fd_set rd, wr;
	struct timeval tv = { 0, 1000 * below(&t->r, 3) };

	switch (below(&t->r, 6)) {
	case 0: case 1: case 2:
		for (i = 0; i < n; i++) {
			p[i].fd = pick_fd(t, &slot);
			p[i].events = chance(&t->r, 70) ? POLLIN : (short)rnd(&t->r);
			p[i].revents = (short)rnd(&t->r);
		}
		COUNTED(t, OP_POLL, poll(p, n, tmo));
		return;
	case 3:
		FD_ZERO(&rd);
		FD_ZERO(&wr);
		for (i = 0; i < n; i++) {
			fd = pick_fd(t, &slot);
			if (fd >= 0 && fd < FD_SETSIZE) {
				FD_SET(fd, &rd);
				if (chance(&t->r, 30))
					FD_SET(fd, &wr);
			}
		}
		COUNTED(t, OP_POLL, select(FD_SETSIZE, &rd, &wr, NULL, &tv));
		return;
	}
	/* epoll: the interest outlives a close of the file in another thread */
	if (t->epfd < 0 || chance(&t->r, 2)) {
		if (t->epfd >= 0)
			COUNTED(t, OP_POLL, close(t->epfd));
		t->epfd = (int)COUNTED(t, OP_POLL, epoll_create1(EPOLL_CLOEXEC));
		if (t->epfd < 0)
			return;
	}
	fd = pick_fd(t, &slot);
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN | (chance(&t->r, 30) ? EPOLLET : 0) |
		    (chance(&t->r, 10) ? EPOLLONESHOT : 0) | (chance(&t->r, 20) ? EPOLLHUP : 0);
	if (chance(&t->r, 5))
		ev.events = (uint32_t)rnd(&t->r);
	ev.data.u64 = rnd(&t->r);
	switch (below(&t->r, 4)) {
	case 0:
		COUNTED(t, OP_POLL, epoll_ctl(t->epfd, EPOLL_CTL_ADD, fd, &ev));
		break;
	case 1:
		COUNTED(t, OP_POLL, epoll_ctl(t->epfd, chance(&t->r, 50) ? EPOLL_CTL_MOD :
					      EPOLL_CTL_DEL, fd, &ev));
		break;
	default:
		COUNTED(t, OP_POLL, epoll_wait(t->epfd, evs, 4, tmo));
	}
}

/* ---- mappings ---- */

/* Which region a mapping at file offset @off starts in, by ATTACH's answer. */
static int region_of(const struct nttrace_attach *a, int valid, uint64_t off)
{
	if (!valid)
		return RG_UNKNOWN;
	if (off >= a->heads_offset && off - a->heads_offset < a->heads_size)
		return RG_HEADS;
	if (off >= a->acks_offset && off - a->acks_offset < a->acks_size)
		return RG_ACKS;
	if (off >= a->data_offset && off - a->data_offset < a->data_size)
		return RG_DATA;
	return RG_UNKNOWN;
}

static void op_mmap(struct thr *t)
{
	static const int prots[] = {
		PROT_READ, PROT_READ, PROT_READ, PROT_READ | PROT_WRITE,
		PROT_READ | PROT_WRITE, PROT_WRITE, PROT_READ | PROT_EXEC, PROT_EXEC,
		PROT_NONE,
	};
	struct nttrace_attach at;
	int slot, fd = pick_fd(t, &slot), valid, prot, flags, region = RG_UNKNOWN, i;
	unsigned int gen;
	uint64_t off, size;
	size_t len;
	uint8_t *p;

	/* Mostly a file that is a consumer, if this worker has one. */
	if (chance(&t->r, 80)) {
		for (i = 0; i < NFD; i++) {
			int j = (slot + i) % NFD;

			if (W.fds[j].att_valid) {
				slot = j;
				fd = __atomic_load_n(&W.fds[j].fd, __ATOMIC_RELAXED);
				break;
			}
		}
	}
	pthread_mutex_lock(&W.fdlock);
	valid = W.fds[slot].att_valid;
	at = W.fds[slot].att;
	gen = W.fds[slot].gen;
	pthread_mutex_unlock(&W.fdlock);

	if (valid && chance(&t->r, 85)) {
		region = (int)below(&t->r, 3);
		off = region == RG_HEADS ? at.heads_offset :
		      region == RG_ACKS ? at.acks_offset : at.data_offset;
		size = region == RG_HEADS ? at.heads_size :
		       region == RG_ACKS ? at.acks_size : at.data_size;
	} else {
		off = chance(&t->r, 50) ? (uint64_t)page * below(&t->r, 8) : pick_u64(&t->r);
		size = chance(&t->r, 50) ? (uint64_t)page * (1 + below(&t->r, 8)) : pick_u64(&t->r);
	}
	switch (below(&t->r, 16)) {
	case 0:			/* one page in */
		off += page;
		if (size > (uint64_t)page)
			size -= page;
		break;
	case 1:			/* one page more than the region */
		size += page;
		break;
	case 2:			/* only the last page */
		if (size >= (uint64_t)page)
			off += size - page;
		size = page;
		break;
	case 3:
		off += 1 + below(&t->r, (uint32_t)page - 1);	/* unaligned */
		break;
	case 4:
		size = chance(&t->r, 50) ? 0 : pick_u64(&t->r);
		break;
	}
	len = (size_t)size;
	if ((uint64_t)len != size || len > ((size_t)1 << (BITS == 64 ? 36 : 29)))
		len = (size_t)page;	/* not even worth the attempt */
	prot = region == RG_ACKS && chance(&t->r, 60) ? PROT_READ | PROT_WRITE :
	       PICK(&t->r, prots);
	flags = chance(&t->r, 80) ? MAP_SHARED : MAP_PRIVATE;
	if (chance(&t->r, 10))
		flags |= MAP_POPULATE;
#ifdef __x86_64__
	if (chance(&t->r, 10))
		flags |= MAP_32BIT;
#endif
	if (!take_call(t))
		return;
	p = fz_mapcall(t, OP_MMAP, mmap(NULL, len, prot, flags, fd, (off_t)off));
	if (p == MAP_FAILED)
		return;
	if (W.in_grandchild) {
		COUNTED(t, OP_MAPABUSE, munmap(p, len));
		return;
	}
	pthread_rwlock_wrlock(&W.maplock);
	for (i = 0; i < NMAP; i++) {
		if (W.maps[i].addr)
			continue;
		W.maps[i].addr = p;
		W.maps[i].len = len;
		W.maps[i].region = region_of(&at, valid, off);
		W.maps[i].writable = !!(prot & PROT_WRITE);
		W.maps[i].prot = prot;
		W.maps[i].flags = flags;
		W.maps[i].fdslot = slot;
		W.maps[i].gen = gen;
		W.maps[i].nr_cpus = at.nr_cpus;
		W.maps[i].stride = W.maps[i].region == RG_HEADS ? at.head_stride : at.ack_stride;
		break;
	}
	pthread_rwlock_unlock(&W.maplock);
	if (i == NMAP)
		COUNTED(t, OP_MAPABUSE, munmap(p, len));
}

/* What a process may do to a mapping of the device, allowed or not. */
static void op_mapabuse(struct thr *t)
{
	static const int prots[] = {
		PROT_READ | PROT_WRITE, PROT_READ, PROT_NONE, PROT_READ | PROT_EXEC,
	};
	struct mapslot *m;
	uint8_t *np;
	size_t newlen;
	int i = (int)below(&t->r, NMAP), prot;

	pthread_rwlock_wrlock(&W.maplock);
	m = &W.maps[i];
	if (!m->addr)
		goto out;
	switch (below(&t->r, 12)) {
	case 0: case 1: case 2: case 3:
		COUNTED(t, OP_MAPABUSE, munmap(m->addr, m->len));
		m->addr = NULL;
		break;
	case 4:			/* split: drop the first page */
		if (m->len <= (size_t)page)
			break;
		if (COUNTED(t, OP_MAPABUSE, munmap(m->addr, page)) == 0) {
			m->addr += page;
			m->len -= page;
			m->region = RG_UNKNOWN;
		}
		break;
	case 5:			/* split: drop the last page */
		if (m->len <= (size_t)page)
			break;
		if (COUNTED(t, OP_MAPABUSE, munmap(m->addr + m->len - page, page)) == 0)
			m->len -= page;
		break;
	case 6:
		prot = PICK(&t->r, prots);
		if (COUNTED(t, OP_MAPABUSE, mprotect(m->addr, m->len, prot)) == 0) {
			m->writable = 0;	/* to be safe: touch reads only */
			m->prot = prot;
		}
		break;
	case 7:			/* grow (refused: DONTEXPAND) or shrink */
		newlen = chance(&t->r, 50) ? m->len + page :
			 m->len > (size_t)page ? m->len - page : m->len;
		if (!take_call(t))
			break;
		np = fz_mapcall(t, OP_MAPABUSE, mremap(m->addr, m->len, newlen,
				chance(&t->r, 50) ? MREMAP_MAYMOVE : 0));
		if (np != MAP_FAILED) {
			m->addr = np;
			m->len = newlen;
		}
		break;
	case 8:
		COUNTED(t, OP_MAPABUSE, msync(m->addr, m->len, chance(&t->r, 50) ? MS_SYNC :
					       MS_ASYNC | MS_INVALIDATE));
		break;
	case 9:
		if (COUNTED(t, OP_MAPABUSE, mlock(m->addr, m->len)) == 0)
			COUNTED(t, OP_MAPABUSE, munlock(m->addr, m->len));
		break;
	default:		/* a debugger's write: heads and data must refuse it */
		if (W.procmem >= 0) {
			uint64_t v = rnd(&t->r);
			size_t at = m->len > 8 ? below(&t->r, (uint32_t)(m->len - 8)) & ~7UL : 0;

			if (COUNTED(t, OP_MAPABUSE, pwrite(W.procmem, &v, 8,
					(off_t)(uintptr_t)(m->addr + at))) == 8 &&
			    (m->region == RG_HEADS || m->region == RG_DATA)) {
				__atomic_fetch_add(&t->slot->surprise, 1, __ATOMIC_RELAXED);
				fprintf(stderr, "fuzz: a write through /proc/self/mem into a %s "
					"mapping (prot %d, flags 0x%x, at +0x%zx of 0x%zx) worked\n",
					m->region == RG_HEADS ? "heads" : "data", m->prot,
					m->flags, at, m->len);
			}
		}
	}
out:
	pthread_rwlock_unlock(&W.maplock);
}

/* Under the map lock's read side, with faults caught by the caller. */
static void __attribute__((noinline))
touch_mapping(struct thr *t, const struct mapslot *m, const struct mapslot *h)
{
	volatile uint64_t sum = 0;
	uint64_t v, prod;
	unsigned int c, j;
	size_t off, hoff;

	if (m->region != RG_ACKS || !m->writable) {
		for (j = 0; j < 8; j++)
			sum += m->addr[below(&t->r, (uint32_t)(m->len < 0xFFFFFFFF ?
							       m->len : 0xFFFFFFFF))];
		return;
	}
	for (c = 0; c < m->nr_cpus && c < 64; c++) {
		off = (size_t)c * m->stride;
		if (off + 8 > m->len)
			break;
		hoff = sizeof(struct nttrace_session_head) + (size_t)c * (h ? h->stride : 0);
		prod = h && hoff + 8 <= h->len ?
		       __atomic_load_n((uint64_t *)(h->addr + hoff), __ATOMIC_ACQUIRE) : 0;
		switch (below(&t->r, 8)) {
		case 0: v = 0; break;
		case 1: v = prod + 1 + below(&t->r, 3); break;
		case 2: v = prod ? prod - 1 : 0; break;
		case 3: v = pick_u64(&t->r); break;
		default: v = prod;
		}
		__atomic_store_n((uint64_t *)(m->addr + off), v, __ATOMIC_RELEASE);
	}
}

static void guarded_touch(struct thr *t, const struct mapslot *m,
			  const struct mapslot *h)
{
	sigjmp_buf jb;

	if (sigsetjmp(jb, 1) == 0) {
		fz_catch = &jb;
		touch_mapping(t, m, h);
	}
	fz_catch = NULL;
}

/* Read the rings and acknowledge, as a consumer does, or lie in the acks. */
static void op_touch(struct thr *t)
{
	struct mapslot *m, *h = NULL;
	unsigned int j, i = below(&t->r, NMAP);

	pthread_rwlock_rdlock(&W.maplock);
	m = &W.maps[i];
	if (m->addr) {
		/* A heads mapping of the same file, to acknowledge what it says. */
		for (j = 0; j < NMAP; j++)
			if (W.maps[j].addr && W.maps[j].region == RG_HEADS &&
			    W.maps[j].fdslot == m->fdslot && W.maps[j].gen == m->gen)
				h = &W.maps[j];
		guarded_touch(t, m, h);
	}
	pthread_rwlock_unlock(&W.maplock);
}

/* ---- processes and CPUs ---- */

static void op_affinity(struct thr *t)
{
	cpu_set_t set;
	int c = (int)below(&t->r, (uint32_t)ncpus + 1);

	CPU_ZERO(&set);
	if (c == ncpus) {
		for (c = 0; c < ncpus; c++)
			CPU_SET(c, &set);
	} else {
		CPU_SET(c, &set);
	}
	sched_setaffinity(0, sizeof(set), &set);
}

/* ---- providers ---- */

/* A few GUIDs, so that registrations and enables meet. */
static void pick_guid(struct thr *t, uint8_t guid[16])
{
	uint32_t i;

	static const uint8_t security[16] = NTTRACE_SECURITY_PROVIDER_GUID_BYTES;

	memset(guid, 0, 16);
	/* The security provider's: its enables need more privilege. */
	if (chance(&t->r, 8)) {
		memcpy(guid, security, 16);
		return;
	}
	if (chance(&t->r, 10)) {
		for (i = 0; i < 16; i++)
			guid[i] = (uint8_t)rnd(&t->r);
		return;
	}
	guid[0] = 0x6e;
	guid[15] = (uint8_t)below(&t->r, 4);
}

/* Where a registration's enable info goes. */
static uint64_t enable_info_addr(struct thr *t)
{
	struct arena *a = (BITS == 64 && chance(&t->r, 50)) ? &t->hi : &t->lo;

	switch (below(&t->r, 12)) {
	case 0:			/* the racer's pages: pinned, then unmapped */
		return uptr(W.race) + 8 * below(&t->r, RACE_PAGES * (uint32_t)page / 8 - 6);
	case 1:
		return uptr(W.scribble) + 8 * below(&t->r, 8);
	case 2:			/* read-only: FOLL_WRITE fails */
		return t->ro ? uptr(t->ro) + 8 * below(&t->r, 8) : bad_addr(t);
	case 3:
		return bad_addr(t);
	case 4:			/* misaligned */
		return uptr(a->rw + (size_t)PG_DATA * page) + 1 + below(&t->r, 7);
	case 5:			/* across a page, or just fitting */
		return uptr(a->guard) - 48 + 8 * below(&t->r, 3) - (chance(&t->r, 50) ? page : 0);
	default:
		return uptr(a->rw + (size_t)PG_DATA * page) + 8 * below(&t->r, 64);
	}
}

/*
 * NtTraceEvent with Windows' 0x78-byte block: NTTRACE_ETW_NT_FLAGS_TRACE_EVENT
 * (EventWrite) with a handle from REGISTER (any process's, any type) or
 * junk; TRACE_EVENT_NOREG with TraceHandle a GUID's address (one the
 * enables use, junk, in the guard or racer's pages, bad, NULL);
 * TRACE_SECURITY (from a process that may hold the security registration,
 * or not). Hostile Fields: flags, the header's junk, descriptor counts
 * past 128 and counts without arrays, arrays running into the guard page
 * or in the racer's pages, items with edge sizes (over 0xFFFF) and bad
 * pointers, filters of 16 and 64 bits.
 */
static void trace_event_write(struct thr *t, int fd)
{
	static const uint32_t counts[] = { 0, 1, 2, 127, 128, 129, 0xFFFFFFFF };
	struct arena *a = (BITS == 64 && chance(&t->r, 50)) ? &t->hi : &t->lo;
	struct nttrace_trace_event ev;
	struct nttrace_event_write_user f;
	uint8_t *descs = a->rw + (size_t)PG_LIST * page, *fields, *out;
	unsigned int n, i, max = 3 * (uint32_t)page / NTTRACE_EVENT_DATA_DESCRIPTOR_SIZE;
	int good = chance(&t->r, 50);
	uint64_t arg, sw;

	static const uint32_t types[] = {
		NTTRACE_ETW_NT_FLAGS_TRACE_EVENT, NTTRACE_ETW_NT_FLAGS_TRACE_EVENT,
		NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG, NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY,
	};
	uint32_t type = PICK(&t->r, types);
	uint8_t *guid;

	memset(&ev, 0, sizeof(ev));
	memset(&f, 0, sizeof(f));
	/* The header's members the kernel owns: zeros, or junk it must ignore. */
	if (!good && chance(&t->r, 30))
		for (i = 0; i < sizeof(f.header); i++)
			((uint8_t *)&f.header)[i] = (uint8_t)rnd(&t->r);
	f.header.descriptor.id = (uint16_t)rnd(&t->r);
	f.header.descriptor.level = chance(&t->r, 70) ? below(&t->r, 6) : (uint8_t)rnd(&t->r);
	f.header.descriptor.keyword = chance(&t->r, 50) ? 0 : pick_u64(&t->r);
	if (chance(&t->r, 20))
		f.header.flags = NTTRACE_EVENT_HEADER_FLAG_STRING_ONLY;
	f.related_activity = chance(&t->r, 30);
	/* Windows' two, DESCRIPTOR_TYPES and FILTER64 (TraceLogging's items too). */
	f.flags = good || chance(&t->r, 70) ?
		  (below(&t->r, 4) | (below(&t->r, 4) << 16)) : pick_u32(&t->r);
	f.filter = chance(&t->r, 80) ? 0 : (uint16_t)rnd(&t->r);
	if (f.flags & NTTRACE_EVENT_WRITE_FLAG_FILTER64)
		f.header.processor_time = chance(&t->r, 50) ? 0 : pick_u64(&t->r);
	n = good || chance(&t->r, 60) ? below(&t->r, 9) : PICK(&t->r, counts);
	f.data_count = n;
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		uint32_t sz = arg_size(t, 8, &sw);

		if (good)
			sz = below(&t->r, 129);
		else if (chance(&t->r, 5))
			sz = 0x10000 + below(&t->r, 2);	/* one over 16 bits */
		put_word(descs + 16 * i, 8, arg_ptr(t, sz, good, 8));
		put_word(descs + 16 * i + 8, 4, sz);
		/* Reserved: mostly a Type (0-2, each once or twice), else noise. */
		put_word(descs + 16 * i + 12, 4, chance(&t->r, 70) ? below(&t->r, 3) : rnd(&t->r));
	}
	switch (good ? 0 : below(&t->r, 6)) {
	case 1:			/* the array running into the guard page */
		f.data = uptr(a->guard - 16 * below(&t->r, 4));
		break;
	case 2:
		f.data = uptr(W.race) + below(&t->r, RACE_PAGES * (uint32_t)page);
		break;
	case 3:
		f.data = bad_addr(t);
		break;
	case 4:			/* a count with no array */
		f.data = 0;
		break;
	default:
		f.data = f.data_count || chance(&t->r, 10) ? uptr(descs) : 0;
	}
	ev.trace_handle = chance(&t->r, 85) ?
			  __atomic_load_n(&W.handles[below(&t->r, 16)], __ATOMIC_RELAXED) :
			  pick_u64(&t->r);
	if (type == NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG) {
		/* The GUID after the Fields' page's first 0x80 bytes. */
		guid = a->rw + (size_t)PG_FIELDS * page + 0x80;
		pick_guid(t, guid);
		switch (good ? 0 : below(&t->r, 6)) {
		case 1:
			ev.trace_handle = 0;
			break;
		case 2:
			ev.trace_handle = bad_addr(t);
			break;
		case 3:		/* cut by the guard page */
			ev.trace_handle = uptr(a->guard - 8);
			break;
		case 4:
			ev.trace_handle = uptr(W.race) + 8 * below(&t->r, (uint32_t)page / 8 - 2);
			break;
		default:
			ev.trace_handle = uptr(guid);
		}
	} else if (type == NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY && chance(&t->r, 80)) {
		ev.trace_handle = 0;
	}
	ev.flags = type;
	if (chance(&t->r, 20))
		ev.flags |= NTTRACE_ETW_NT_FLAGS_WOW64_CALL;
	ev.field_size = good || chance(&t->r, 80) ? NTTRACE_EVENT_WRITE_USER_SIZE : pick_u32(&t->r);
	switch (good ? 0 : below(&t->r, 8)) {
	case 1:			/* cut by the guard page */
		fields = a->guard - 8 * (1 + below(&t->r, 8));
		memcpy(fields, &f, (size_t)(a->guard - fields));
		ev.fields = uptr(fields);
		break;
	case 2:
		ev.fields = bad_addr(t);
		break;
	case 3:
		ev.fields = uptr(W.race) + 8 * below(&t->r, (uint32_t)page / 8 - 16);
		break;
	default:
		fields = a->rw + (size_t)PG_FIELDS * page;
		memcpy(fields, &f, sizeof(f));
		ev.fields = uptr(fields);
	}
	arg = place(t, &ev, sizeof(ev), NTTRACE_TRACE_EVENT_SIZE_VER0,
		    good || chance(&t->r, 70), &out);
	tally_status(t->slot->tblock[type == NTTRACE_ETW_NT_FLAGS_TRACE_EVENT ? 0 :
				     type == NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG ? 1 : 2],
		     fz_ioctl(t, OP_TRACE, fd, NTTRACE_IOC_TRACE_EVENT, arg), out, arg);
}

static void op_provider(struct thr *t)
{
	static const uint32_t counts[] = { 0, 1, 2, 7, 64, 1024, 0xFFFFFFFF };
	struct arena *a = &t->lo;
	union {
		struct nttrace_register r;
		struct nttrace_unregister u;
		struct nttrace_enable e;
		struct nttrace_notification n;
		struct nttrace_provider_list l;
		struct nttrace_security_register s;
	} k;
	uint8_t *out;
	uint64_t arg;
	int slot, fd = pick_fd(t, &slot), exact = chance(&t->r, 70);
	long ret;

	memset(&k, 0, sizeof(k));
	switch (below(&t->r, 14)) {
	case 10: case 11: case 12:
		trace_event_write(t, fd);
		return;
	case 13:		/* the security provider: privileged, one at a time */
		k.s.flags = chance(&t->r, 90) ? 0 : pick_u32(&t->r);
		arg = place(t, &k.s, sizeof(k.s), NTTRACE_SECURITY_REGISTER_SIZE_VER0, exact, &out);
		fz_ioctl(t, OP_PROVIDER, fd, NTTRACE_IOC_REGISTER_SECURITY, arg);
		return;
	case 0: case 1: case 2:
		k.r.type = chance(&t->r, 90) ? 1 + below(&t->r, 2) : pick_u32(&t->r);
		pick_guid(t, k.r.guid);
		k.r.enable_info = enable_info_addr(t);
		k.r.context = pick_u64(&t->r);
		if (chance(&t->r, 5))
			k.r.handle = pick_u64(&t->r);
		arg = place(t, &k.r, sizeof(k.r), NTTRACE_REGISTER_SIZE_VER0, exact, &out);
		ret = fz_ioctl(t, OP_PROVIDER, fd, NTTRACE_IOC_REGISTER, arg);
		/* An exact placement is whole and ours: the handle can be read. */
		if (ret == 0 && out && exact) {
			uint64_t h;

			memcpy(&h, out + offsetof(struct nttrace_register, handle), 8);
			__atomic_store_n(&W.handles[below(&t->r, 16)], h, __ATOMIC_RELAXED);
		}
		return;
	case 3:
		k.u.handle = chance(&t->r, 80) ?
			     __atomic_load_n(&W.handles[below(&t->r, 16)], __ATOMIC_RELAXED) :
			     pick_u64(&t->r);
		if (chance(&t->r, 5))
			k.u.pad = pick_u32(&t->r);
		arg = place(t, &k.u, sizeof(k.u), NTTRACE_UNREGISTER_SIZE_VER0, exact, &out);
		fz_ioctl(t, OP_PROVIDER, fd, NTTRACE_IOC_UNREGISTER, arg);
		return;
	case 4: case 5: case 6:
		k.e.logger_id = pick_id(t);
		pick_guid(t, k.e.guid);
		k.e.control = chance(&t->r, 95) ? below(&t->r, 3) : pick_u32(&t->r);
		k.e.level = chance(&t->r, 90) ? below(&t->r, 256) : pick_u32(&t->r);
		k.e.enable_flags = pick_u32(&t->r);
		k.e.match_any_keyword = pick_u64(&t->r);
		k.e.match_all_keyword = pick_u64(&t->r);
		/* Stacks with the provider's events, so that writes take them. */
		if (chance(&t->r, 30))
			k.e.enable_property = chance(&t->r, 90) ? NTTRACE_ENABLE_PROPERTY_STACK_TRACE :
								 pick_u32(&t->r);
		/* A short wait for the callbacks: the notifications taken here, or not. */
		if (chance(&t->r, 5))
			k.e.timeout_ms = 1 + below(&t->r, 20);
		arg = place(t, &k.e, sizeof(k.e), NTTRACE_ENABLE_SIZE_VER0, exact, &out);
		fz_ioctl(t, OP_PROVIDER, fd, NTTRACE_IOC_ENABLE, arg);
		return;
	case 7: case 8:
		if (chance(&t->r, 10))
			k.n.handle = pick_u64(&t->r);
		arg = place(t, &k.n, sizeof(k.n), NTTRACE_NOTIFICATION_SIZE_VER0, exact, &out);
		fz_ioctl(t, OP_PROVIDER, fd, NTTRACE_IOC_NOTIFICATION, arg);
		return;
	default:
		k.l.count = chance(&t->r, 70) ? PICK(&t->r, counts) : pick_u32(&t->r);
		switch (below(&t->r, 6)) {
		case 0:		/* room for fewer rows than the count says, then the guard */
			k.l.rows = uptr(a->guard - NTTRACE_PROVIDER_ROW_SIZE * below(&t->r, 9));
			break;
		case 1:
			k.l.rows = t->ro ? uptr(t->ro) : bad_addr(t);
			break;
		case 2:
			k.l.rows = bad_addr(t);
			break;
		case 3:
			k.l.rows = uptr(W.race) + below(&t->r, (uint32_t)page);
			break;
		default:	/* 3 pages: 219 rows */
			k.l.rows = uptr(a->rw + (size_t)PG_LIST * page);
			if (k.l.count > 219 && chance(&t->r, 80))
				k.l.count = 219;
		}
		arg = place(t, &k.l, sizeof(k.l), NTTRACE_PROVIDER_LIST_SIZE_VER0, exact, &out);
		fz_ioctl(t, OP_PROVIDER, fd, NTTRACE_IOC_LIST_PROVIDERS, arg);
	}
}

static void run_op(struct thr *t, enum op op);

/*
 * A child with this worker's files and mappings (its own copies of the
 * tables), a few calls, then gone: the mappings go with its address
 * space. It takes no lock another thread may have held at the fork.
 */
static void sysop_tally(struct thr *t, enum sysop op, int worked)
{
	__atomic_fetch_add(&t->slot->sysop[W.mode][op][!worked], 1, __ATOMIC_RELAXED);
}

/* A logger ID of a system logger: 0xFFFF, the NT Kernel Logger's slot, a named one's. */
static uint32_t sys_pick(struct thr *t, int by_slot)
{
	uint32_t id;

	if (!by_slot && chance(&t->r, 40))
		return NTTRACE_KERNEL_LOGGER_ID;
	if (chance(&t->r, 40) && (id = __atomic_load_n(&sh->kl_slot, __ATOMIC_RELAXED)))
		return id;
	id = __atomic_load_n(&sh->sys_ids[below(&t->r, 4)], __ATOMIC_RELAXED);
	return id ? id : 1 + below(&t->r, NTTRACE_MAX_LOGGERS - 1);
}

/*
 * Every operation on a system logger, aimed at one, by whatever kind of
 * worker this is: START of the NT Kernel Logger or of a named system
 * logger, STOP, UPDATE, FLUSH, QUERY (by slot too, which finds the NT
 * Kernel Logger's), ATTACH (the file closed after), ENABLE of a GUID by
 * logger ID (the NT Kernel Logger's slot included), TRACE_SYSTEM with a
 * kernel and a user-mode group's HookId, TRACE_RAW. Each is tallied by the
 * worker's kind and whether it worked, so that the report shows each
 * reached as each kind of caller (README, "Who may do what").
 */
/*
 * A path argument for the file calls: one of a few names of this thread's
 * in /tmp (absolute, or relative to /tmp through a directory descriptor),
 * or, now and then, a pointer the kernel must not read (NULL, unmapped,
 * a kernel address), which the FileIo probes read without faulting.
 */
static const char *fz_path(struct thr *t, char *buf, size_t room)
{
	static const uintptr_t bad[] = { 0, 1, 0xFFFFFFFFFFFFF000ULL & UINTPTR_MAX, 4096 };

	if (chance(&t->r, 3))
		return (const char *)PICK(&t->r, bad);
	snprintf(buf, room, "/tmp/fzf%d-%u", (int)getpid(), below(&t->r, 4));
	return buf;
}

/*
 * The calls the NT Kernel Logger's file sources watch (FILE_IO_INIT,
 * FILE_IO, DISK_FILE_IO at sys_enter and sys_exit), made while some
 * system logger may want them: opens by absolute and relative paths,
 * reads and writes at offsets, a flush, closes that end a file and ones
 * that do not (a dup), renames, unlinks, directories made and removed.
 * Not calls into the device: not counted among the fuzz's calls. Return:
 * 0 when the last call worked.
 */
static long fz_file_calls(struct thr *t)
{
	char a[64], b[64], buf[256];
	const char *pa = fz_path(t, a, sizeof(a)), *pb;
	long ret = -1;
	int fd, dfd, dup_fd;

	switch (below(&t->r, 6)) {
	case 0:
		fd = open(pa, O_CREAT | O_RDWR | (chance(&t->r, 30) ? O_TRUNC : 0) |
			  (chance(&t->r, 10) ? O_APPEND : 0), 0600);
		if (fd < 0)
			break;
		ret = write(fd, buf, below(&t->r, sizeof(buf)));
		ret = pread(fd, buf, below(&t->r, sizeof(buf)), (off_t)below(&t->r, 8192));
		if (chance(&t->r, 20))
			ret = fsync(fd);
		/* A dup: its close is a Cleanup, not the file's end. */
		dup_fd = chance(&t->r, 30) ? dup(fd) : -1;
		ret = close(fd);
		if (dup_fd >= 0)
			close(dup_fd);
		break;
	case 1:
		dfd = open("/tmp", O_RDONLY | O_DIRECTORY);
		if (dfd < 0)
			break;
		fd = openat(dfd, pa && pa == a ? a + 5 : pa, O_RDONLY);
		if (fd >= 0)
			ret = close(fd);
		close(dfd);
		break;
	case 2:
		pb = fz_path(t, b, sizeof(b));
		ret = rename(pa, pb);
		break;
	case 3:
		ret = unlink(pa);
		break;
	case 4:
		ret = mkdir(pa, 0700);
		if (!ret)
			ret = rmdir(pa);
		break;
	default:
		/* Heap growth and trim (the main arena's brk()), a private mapping's. */
		{
			void *m = malloc(1 + below(&t->r, 200000));

			free(m);
			ret = 0;
		}
		break;
	}
	return ret < 0 ? -1 : 0;
}

static void op_syslog(struct thr *t)
{
	enum sysop op = (enum sysop)below(&t->r, NSYSOP);
	struct nttrace_logger_info in;
	struct nttrace_trace_event ev;
	struct nttrace_attach at;
	struct nttrace_enable en;
	struct nttrace_profile pr;
	struct nttrace_stacks stk;
	static const uint16_t stack_hooks[3] = { 0x0F2E, 0x0524, 0x0301 };
	uint16_t hooks[8];
	uint8_t rec[0x28];
	int slot, fd = pick_fd(t, &slot), afd;
	unsigned int k;
	long ret;

	memset(&in, 0, sizeof(in));
	in.size = sizeof(in);
	switch (op) {
	case SY_START:
		k = below(&t->r, 5);
		snprintf((char *)in.name, sizeof(in.name), k == 4 ? NTTRACE_KERNEL_LOGGER_NAME :
			 "fzsys%u", k);
		in.buffer_size_kb = 4;
		in.max_buffers = 2;
		in.log_file_mode = k == 4 ? 0 : NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE;
		in.group_mask[0] = chance(&t->r, 50) ? NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG :
				   (uint32_t)rnd(&t->r) & system_flags;
		ret = fz_ioctl(t, OP_SYSLOG, fd, NTTRACE_IOC_START_TRACE, uptr(&in));
		if (ret == 0 && k < 4)
			__atomic_store_n(&sh->sys_ids[k], in.logger_id, __ATOMIC_RELAXED);
		break;
	case SY_STOP:
	case SY_UPDATE:
	case SY_FLUSH:
	case SY_QUERY:
		in.logger_id = sys_pick(t, op == SY_QUERY && chance(&t->r, 50));
		in.control = op == SY_STOP ? NTTRACE_EVENT_TRACE_CONTROL_STOP :
			     op == SY_UPDATE ? NTTRACE_EVENT_TRACE_CONTROL_UPDATE :
			     op == SY_FLUSH ? NTTRACE_EVENT_TRACE_CONTROL_FLUSH :
					      NTTRACE_EVENT_TRACE_CONTROL_QUERY;
		if (op == SY_UPDATE && chance(&t->r, 70))
			in.group_mask[0] = (uint32_t)rnd(&t->r) & system_flags;
		k = in.logger_id;
		ret = fz_ioctl(t, OP_SYSLOG, fd, NTTRACE_IOC_CONTROL_TRACE, uptr(&in));
		if (ret == 0 && op == SY_QUERY && k != NTTRACE_KERNEL_LOGGER_ID &&
		    in.logger_id == NTTRACE_KERNEL_LOGGER_ID)
			__atomic_store_n(&sh->kl_slot, k, __ATOMIC_RELAXED);
		break;
	case SY_ATTACH:
		afd = (int)COUNTED(t, OP_SYSLOG, open(opt_device, O_RDWR | O_CLOEXEC));
		if (afd < 0)
			return;
		memset(&at, 0, sizeof(at));
		at.size = sizeof(at);
		at.logger_id = sys_pick(t, 0);
		if (chance(&t->r, 50))
			at.flags = NTTRACE_ATTACH_REAL_TIME;
		ret = fz_ioctl(t, OP_SYSLOG, afd, NTTRACE_IOC_ATTACH, uptr(&at));
		COUNTED(t, OP_SYSLOG, close(afd));
		break;
	case SY_PROFILE:
		/*
		 * The sampling interval, read or set, in range or out of it.
		 * In range: now and then a limit, else 1 to 5 ms. Under TCG
		 * with KASAN, sampling both CPUs every 122 us (with stacks)
		 * leaves the guest little time for anything else, and a
		 * setting lasts until the next: the fuzz would spend its
		 * hour taking samples.
		 */
		memset(&pr, 0, sizeof(pr));
		pr.size = sizeof(pr);
		pr.flags = chance(&t->r, 50) ? NTTRACE_PROFILE_SET : (uint32_t)below(&t->r, 4);
		pr.source = chance(&t->r, 90) ? NTTRACE_PROFILE_SOURCE_TIMER : (uint32_t)rnd(&t->r);
		if (!chance(&t->r, 80))
			pr.interval = (uint32_t)rnd(&t->r);
		else if (chance(&t->r, 5))
			pr.interval = chance(&t->r, 50) ? NTTRACE_PROFILE_INTERVAL_MIN :
							  NTTRACE_PROFILE_INTERVAL_MAX;
		else
			pr.interval = NTTRACE_PROFILE_INTERVAL_DEFAULT +
				      (uint32_t)below(&t->r, 40001);
		ret = fz_ioctl(t, OP_SYSLOG, fd, NTTRACE_IOC_PROFILE, uptr(&pr));
		break;
	case SY_STACKS:
		/*
		 * A system logger's events with stacks: the ones written
		 * (SampledProfile, CSwitch, Process/Start), any HookId, or
		 * none; or the list read back into a random room.
		 */
		memset(&stk, 0, sizeof(stk));
		stk.size = sizeof(stk);
		stk.logger_id = sys_pick(t, 0);
		stk.flags = chance(&t->r, 60) ? NTTRACE_STACKS_SET : (uint32_t)below(&t->r, 3);
		stk.count = (uint32_t)below(&t->r, chance(&t->r, 95) ? 4 : 300);
		for (k = 0; k < sizeof(hooks) / sizeof(hooks[0]); k++)
			hooks[k] = chance(&t->r, 80) ? stack_hooks[below(&t->r, 3)] :
				   (uint16_t)rnd(&t->r);
		stk.hooks = chance(&t->r, 95) ? uptr(hooks) : (uint64_t)rnd(&t->r);
		if (stk.count > sizeof(hooks) / sizeof(hooks[0]) && stk.hooks == uptr(hooks))
			stk.count = sizeof(hooks) / sizeof(hooks[0]);
		ret = fz_ioctl(t, OP_SYSLOG, fd, NTTRACE_IOC_STACKS, uptr(&stk));
		break;
	case SY_ENABLE:
		memset(&en, 0, sizeof(en));
		en.size = sizeof(en);
		en.logger_id = sys_pick(t, 1);
		en.guid[0] = 0x5F;
		en.guid[15] = (uint8_t)below(&t->r, 4);
		en.control = chance(&t->r, 70) ? NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER :
			     below(&t->r, 3);
		en.level = 5;
		ret = fz_ioctl(t, OP_SYSLOG, fd, NTTRACE_IOC_ENABLE, uptr(&en));
		break;
	case SY_FILES:
		ret = fz_file_calls(t);
		break;
	default:
		memset(rec, 0, sizeof(rec));
		memset(&ev, 0, sizeof(ev));
		ev.size = sizeof(ev);
		ev.trace_handle = sys_pick(t, 0);
		ev.fields = uptr(rec);
		if (op == SY_RAW) {
			/* A SYSTEM64 Process/Start record that describes itself. */
			rec[2] = 2;
			rec[3] = 0xC0;
			put_word(rec + 4, 2, sizeof(rec));
			put_word(rec + 6, 2, 0x0301);
			ev.flags = NTTRACE_ETW_NT_FLAGS_TRACE_RAW;
			ev.field_size = sizeof(rec);
		} else {
			put_word(rec + 6, 2, op == SY_SYSTEM_KERNEL ? 0x0301 : 0x1021);
			ev.flags = NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM;
			ev.field_size = 8;
		}
		ret = fz_ioctl(t, OP_SYSLOG, fd, NTTRACE_IOC_TRACE_EVENT, uptr(&ev));
		if (ret == 0)
			ret = ev.status ? -1 : 0;
		break;
	}
	if (ret != -2)
		sysop_tally(t, op, ret == 0);
}

static void op_fork(struct thr *t)
{
	static const enum op ops[] = {
		OP_TRACE, OP_TRACE, OP_VERSION, OP_CONTROL, OP_ATTACH, OP_POLL,
		OP_MMAP, OP_CLOSE, OP_BADCMD, OP_PROVIDER,
	};
	unsigned int n, i;
	pid_t pid;

	if (W.in_grandchild)
		return;
	pid = (pid_t)COUNTED(t, OP_FORK, fork());
	if (pid != 0)
		return;
	W.in_grandchild = 1;
	alarm(5);
	/* Only this thread came along: locks others held are free again. */
	pthread_mutex_init(&W.fdlock, NULL);
	pthread_rwlock_init(&W.maplock, NULL);
	t->epfd = -1;
	n = 1 + below(&t->r, 30);
	for (i = 0; i < n && !t->stopping; i++)
		run_op(t, PICK(&t->r, ops));
	_exit(0);
}

static void run_op_timed(struct thr *t, enum op op);

/*
 * Each operation timed (CLOCK_MONOTONIC, a vDSO read), so that the
 * report says where a run's time went and a slow run can be told why.
 */
static void run_op(struct thr *t, enum op op)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	run_op_timed(t, op);
	clock_gettime(CLOCK_MONOTONIC, &b);
	__atomic_fetch_add(&t->slot->op_us[op], (uint64_t)((b.tv_sec - a.tv_sec) * 1000000 +
			   (b.tv_nsec - a.tv_nsec) / 1000), __ATOMIC_RELAXED);
	__atomic_fetch_add(&t->slot->op_n[op], 1, __ATOMIC_RELAXED);
}

static void run_op_timed(struct thr *t, enum op op)
{
	switch (op) {
	case OP_VERSION: op_version(t); break;
	case OP_TRACE: op_trace(t); break;
	case OP_START: op_start(t); break;
	case OP_CONTROL: op_control(t); break;
	case OP_LIST: op_list(t); break;
	case OP_ATTACH: op_attach(t); break;
	case OP_MMAP: op_mmap(t); break;
	case OP_MAPABUSE: op_mapabuse(t); break;
	case OP_TOUCH: op_touch(t); break;
	case OP_POLL: op_poll(t); break;
	case OP_OPEN: op_open(t); break;
	case OP_CLOSE: op_close(t); break;
	case OP_BADCMD: op_badcmd(t); break;
	case OP_FORK: op_fork(t); break;
	case OP_AFFINITY: op_affinity(t); break;
	case OP_PROVIDER: op_provider(t); break;
	case OP_SYSLOG: op_syslog(t); break;
	default: break;
	}
	__atomic_fetch_add(&t->slot->beat, 1, __ATOMIC_RELAXED);
}

static enum op pick_op(struct thr *t)
{
	uint32_t x = below(&t->r, 10000);
	int op;

	for (op = 0; op < NOPS; op++) {
		if (x < op_weight[op])
			return (enum op)op;
		x -= op_weight[op];
	}
	return OP_TRACE;
}

struct thr_arg {
	uint64_t seed;
	int idx;
};

static void *fuzz_thread(void *p)
{
	struct thr_arg *ta = p;
	struct thr t;

	memset(&t, 0, sizeof(t));
	t.r.s = ta->seed;
	t.idx = ta->idx;
	t.slot = &sh->slot[W.pslot][ta->idx];
	t.epfd = -1;
	if (arena_init(&t.lo, 1) ||
	    (BITS == 64 ? arena_init(&t.hi, 0) : (t.hi = t.lo, 0))) {
		fprintf(stderr, "fuzz: arena: %s\n", strerror(errno));
		_exit(3);
	}
	ro_view_init(&t);
	if (ncpus > 1)	/* spread the threads over the CPUs to start with */
		op_affinity(&t);
	while (!t.stopping && !__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
		run_op(&t, pick_op(&t));
		/* A process exiting with calls in flight in its other threads. */
		if (below(&t.r, 40000) == 0)
			_exit(0);
	}
	return NULL;
}

/* ---- the racer ---- */

/* Fill a racer page with an argument list pattern pointing into the pages. */
static void race_fill(struct rng *r, uint8_t *p)
{
	unsigned int i, half = (unsigned int)page / 2;
	uint64_t base = uptr(W.race), v;

	/* First half: 32-bit words; second half: 64-bit ones. */
	for (i = 0; i + 8 <= half; i += 8) {
		v = chance(r, 3) ? 0 : base + below(r, RACE_PAGES * (uint32_t)page - 64);
		put_word(p + i, 4, v);
		put_word(p + i + 4, 4, below(r, 64));
	}
	for (i = half; i + 16 <= (unsigned int)page; i += 16) {
		v = chance(r, 3) ? 0 : base + below(r, RACE_PAGES * (uint32_t)page - 64);
		put_word(p + i, 8, v);
		put_word(p + i + 8, 8, below(r, 64));
	}
}

static int race_stop;

static void *racer_thread(void *p)
{
	struct rng r = { *(uint64_t *)p };
	unsigned int i, j;
	uint8_t *pg;
	uint32_t w;
	void *q;

	while (!__atomic_load_n(&race_stop, __ATOMIC_RELAXED)) {
		i = below(&r, RACE_PAGES);
		pg = W.race + (size_t)i * page;
		if (W.race_dead[i]) {
			sched_yield();
			continue;
		}
		switch (below(&r, 6)) {
		case 0:		/* really unmapped, then back */
			munmap(pg, page);
			q = mmap(pg, page, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
			if (q != pg) {
				/* Someone else's now: leave it to them. */
				if (q != MAP_FAILED)
					munmap(q, page);
				W.race_dead[i] = 1;
				break;
			}
			race_fill(&r, pg);
			break;
		case 1:		/* inaccessible for a moment */
			mprotect(pg, page, PROT_NONE);
			sched_yield();
			mprotect(pg, page, PROT_READ | PROT_WRITE);
			break;
		case 2:		/* fresh pages, not present: a no-fault copy fails */
			mmap(pg, page, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			if (chance(&r, 50))
				race_fill(&r, pg);
			break;
		case 3:
			mprotect(pg, page, PROT_READ);
			mprotect(pg, page, PROT_READ | PROT_WRITE);
			break;
		default:	/* rewrite the scribble page's first words */
			for (j = 0; j < 28; j++) {
				w = chance(&r, 50) ? PICK(&r, u32_edges) : (uint32_t)rnd(&r);
				if (j == 0)
					w = chance(&r, 70) ? 16 + 8 * below(&r, 22) : w;
				/* Never a valid session name: bytes 112-175 stay 0. */
				memcpy(W.scribble + 4 * j, &w, 4);
			}
		}
		if (chance(&r, 30))
			sched_yield();
	}
	return NULL;
}

/* ---- a worker process ---- */

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

/* Mode 4 after mode 3: a user namespace whose root is this worker. */
static int enter_userns(void)
{
	if (unshare(CLONE_NEWUSER))
		return -1;
	if (write_text("/proc/self/setgroups", "deny") ||
	    write_text("/proc/self/uid_map", "0 65534 1") ||
	    write_text("/proc/self/gid_map", "0 65534 1")) {
		fprintf(stderr, "fuzz: the user namespace's maps: %s\n", strerror(errno));
		_exit(3);
	}
	return 0;
}

/* Returns the mode taken: 3 for 4 where the kernel has no user namespaces. */
static int drop_privileges(int mode)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	gid_t groups[] = { 0, 1000 };
	int ok = 1;

	if (mode == 0 || geteuid() != 0)
		return mode;
	if (mode == 2)
		ok &= prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) == 0;
	ok &= (mode >= 3 ? setgroups(2, groups) : setgroups(0, NULL)) == 0;
	ok &= setgid(65534) == 0;
	ok &= setuid(65534) == 0;
	if (mode == 2) {
		memset(data, 0, sizeof(data));
		data[CAP_PERFMON / 32].effective = 1U << (CAP_PERFMON % 32);
		data[CAP_PERFMON / 32].permitted = 1U << (CAP_PERFMON % 32);
		ok &= syscall(SYS_capset, &hdr, data) == 0;
	}
	/* /proc/self/mem of a process that changed its IDs is root's. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	if (!ok) {
		fprintf(stderr, "fuzz: dropping privileges (mode %d): %s\n", mode,
			strerror(errno));
		_exit(3);
	}
	if (mode == 4 && enter_userns())
		mode = 3;
	/* In the namespace too: its root may have made it not dumpable. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	return mode;
}

static void worker_main(int pslot, uint64_t seed, int mode)
{
	pthread_t th[MAX_THREADS], racer;
	struct thr_arg ta[MAX_THREADS];
	struct sigaction sa;
	uint64_t rseed = derive(seed, 0xACE, 0, 0);
	int i;

	setpgid(0, 0);
	signal(SIGCHLD, SIG_IGN);	/* grandchildren reap themselves */
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fz_fault;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);

	mode = drop_privileges(mode);
	/* After the ID change, which clears it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() == 1)
		_exit(0);
	memset(&W, 0, sizeof(W));
	W.pslot = pslot;
	W.mode = mode;
	pthread_mutex_init(&W.fdlock, NULL);
	pthread_rwlock_init(&W.maplock, NULL);
	for (i = 0; i < NFD; i++)
		W.fds[i].fd = i < NFD - 2 ? open(opt_device, O_RDWR) : -1;
	W.procmem = open("/proc/self/mem", O_RDWR);
	W.race = mmap(NULL, (size_t)RACE_PAGES * page, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS
#ifdef __x86_64__
		      | MAP_32BIT
#endif
		      , -1, 0);
	W.scribble = mmap(NULL, page, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (W.race == MAP_FAILED || W.scribble == MAP_FAILED) {
		fprintf(stderr, "fuzz: worker memory: %s\n", strerror(errno));
		_exit(3);
	}
	{
		struct rng r = { rseed };

		for (i = 0; i < RACE_PAGES; i++)
			race_fill(&r, W.race + (size_t)i * page);
	}
	pthread_create(&racer, NULL, racer_thread, &rseed);
	for (i = 0; i < opt_threads; i++) {
		ta[i].seed = derive(seed, 0x7E, (uint64_t)i, 0);
		ta[i].idx = i;
		if (pthread_create(&th[i], NULL, fuzz_thread, &ta[i])) {
			fprintf(stderr, "fuzz: pthread_create failed\n");
			_exit(3);
		}
	}
	for (i = 0; i < opt_threads; i++)
		pthread_join(th[i], NULL);
	__atomic_store_n(&race_stop, 1, __ATOMIC_RELAXED);
	pthread_join(racer, NULL);
	/* Files, mappings, consumers: the exit lets go of them all. */
	_exit(0);
}

/* ---- the supervisor ---- */

struct child {
	pid_t pid;
	unsigned int gen;
	int killed;		/* we sent the SIGKILL */
	uint64_t beat[MAX_THREADS];
	uint64_t beat_ms[MAX_THREADS];	/* when each thread last moved */
};

static struct child kids[MAX_PROCS];
static uint64_t seed;
static unsigned int unexpected, wd_kills, kills, spawns;

static void spawn(int pslot)
{
	struct child *k = &kids[pslot];
	uint64_t s = derive(seed, 0x5107, (uint64_t)pslot, k->gen);
	int mode = (int)((pslot + k->gen) % NMODES), i;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "fuzz: fork: %s\n", strerror(errno));
		k->pid = 0;
		return;
	}
	if (pid == 0)
		worker_main(pslot, s, mode);
	setpgid(pid, pid);
	k->pid = pid;
	k->gen++;
	k->killed = 0;
	memset(k->beat, 0, sizeof(k->beat));
	for (i = 0; i < MAX_THREADS; i++)
		k->beat_ms[i] = now_ms();
	spawns++;
}

static void kill_kid(struct child *k)
{
	if (k->pid <= 0)
		return;
	k->killed = 1;
	if (kill(-k->pid, SIGKILL))
		kill(k->pid, SIGKILL);
}

/* Reap what has ended; respawn unless the run is over. */
static void reap(int respawn)
{
	int st, i;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (i = 0; i < opt_procs; i++)
			if (kids[i].pid == pid)
				break;
		if (i == opt_procs)
			continue;
		if (WIFSIGNALED(st) && !(WTERMSIG(st) == SIGKILL && kids[i].killed)) {
			fprintf(stderr, "fuzz: worker %d (pid %d) died of signal %d\n",
				i, pid, WTERMSIG(st));
			unexpected++;
		} else if (WIFEXITED(st) && WEXITSTATUS(st)) {
			fprintf(stderr, "fuzz: worker %d (pid %d) exited %d\n", i, pid,
				WEXITSTATUS(st));
			unexpected++;
		}
		/* Whatever it left in its process group goes with it. */
		kill(-pid, SIGKILL);
		kids[i].pid = 0;
		if (respawn)
			spawn(i);
	}
}

/* A worker with a thread that has not moved for a while: kill it. */
static void watchdog(void)
{
	uint64_t t = now_ms(), b;
	int i, j;

	for (i = 0; i < opt_procs; i++) {
		struct child *k = &kids[i];

		if (k->pid <= 0 || k->killed)
			continue;
		for (j = 0; j < opt_threads; j++) {
			b = __atomic_load_n(&sh->slot[i][j].beat, __ATOMIC_RELAXED);
			if (b != k->beat[j]) {
				k->beat[j] = b;
				k->beat_ms[j] = t;
			} else if (t - k->beat_ms[j] > WATCHDOG_SECS * 1000) {
				wd_kills++;
				kill_kid(k);
				break;
			}
		}
	}
}

/*
 * Every PROGRESS_SECS, a "# progress" line with the calls made so far, so
 * that a run slower than it was sized for shows early rather than at its
 * end. The counts are read without a lock: a line may be a call or two
 * behind, which is all it claims.
 */
#define PROGRESS_SECS 300

static uint64_t calls_so_far(void)
{
	uint64_t n = 0;
	int p, th;

	for (p = 0; p < MAX_PROCS; p++)
		for (th = 0; th < MAX_THREADS; th++)
			n += __atomic_load_n(&sh->slot[p][th].calls, __ATOMIC_RELAXED);
	return n;
}

static void progress(uint64_t start, uint64_t t)
{
	uint64_t n = calls_so_far(), secs = (t - start) / 1000;

	printf("# progress: %llu calls in %llu s (%llu a second)\n",
	       (unsigned long long)n, (unsigned long long)secs,
	       (unsigned long long)(secs ? n / secs : 0));
	fflush(stdout);
}

/* As root, stop every session the run left behind. */
static void cleanup_sessions(void)
{
	struct nttrace_logger_list l;
	struct nttrace_logger_info in;
	uint32_t ids[NTTRACE_MAX_LOGGERS];
	unsigned int i, stopped = 0;
	int fd = open(opt_device, O_RDWR);

	if (fd < 0)
		return;
	memset(&l, 0, sizeof(l));
	l.size = sizeof(l);
	l.count = NTTRACE_MAX_LOGGERS;
	l.ids = uptr(ids);
	if (ioctl(fd, NTTRACE_IOC_LIST_TRACES, &l) == 0) {
		for (i = 0; i < l.count && i < NTTRACE_MAX_LOGGERS; i++) {
			memset(&in, 0, sizeof(in));
			in.size = sizeof(in);
			in.logger_id = ids[i];
			in.control = NTTRACE_EVENT_TRACE_CONTROL_STOP;
			if (ioctl(fd, NTTRACE_IOC_CONTROL_TRACE, &in) == 0)
				stopped++;
		}
		printf("# %u sessions left running, %u stopped\n", l.count, stopped);
	}
	close(fd);
}

static void report(void)
{
	uint64_t res[NOPS][NERR], tstat[NSTAT + 2], tblock[NBLOCK][NSTAT + 2];
	uint64_t calls = 0, surprise = 0;
	int b;
	uint64_t priv[NMODES][2], sysop[NMODES][NSYSOP][2];
	uint64_t op_us[NOPS], op_n[NOPS], all_us = 0;
	int p, th, o, e, y;
	char line[1024];
	size_t n;

	memset(op_us, 0, sizeof(op_us));
	memset(op_n, 0, sizeof(op_n));
	memset(res, 0, sizeof(res));
	memset(tstat, 0, sizeof(tstat));
	memset(tblock, 0, sizeof(tblock));
	memset(priv, 0, sizeof(priv));
	memset(sysop, 0, sizeof(sysop));
	for (p = 0; p < MAX_PROCS; p++) {
		for (th = 0; th < MAX_THREADS; th++) {
			struct fz_slot *s = &sh->slot[p][th];

			calls += s->calls;
			surprise += s->surprise;
			for (o = 0; o < NOPS; o++) {
				op_us[o] += s->op_us[o];
				op_n[o] += s->op_n[o];
				all_us += s->op_us[o];
			}
			for (o = 0; o < NOPS; o++)
				for (e = 0; e < NERR; e++)
					res[o][e] += s->res[o][e];
			for (e = 0; e < NSTAT + 2; e++)
				tstat[e] += s->tstat[e];
			for (b = 0; b < NBLOCK; b++)
				for (e = 0; e < NSTAT + 2; e++)
					tblock[b][e] += s->tblock[b][e];
			for (e = 0; e < NMODES; e++) {
				priv[e][0] += s->priv[e][0];
				priv[e][1] += s->priv[e][1];
				for (y = 0; y < NSYSOP; y++) {
					sysop[e][y][0] += s->sysop[e][y][0];
					sysop[e][y][1] += s->sysop[e][y][1];
				}
			}
		}
	}
	printf("# workers forked %u, killed by us %u (watchdog %u), died otherwise %u\n",
	       spawns, kills + wd_kills, wd_kills, unexpected);
	/* Where the threads' time went: each kind's share, and its mean. */
	n = (size_t)snprintf(line, sizeof(line), "# time by operation:");
	for (o = 0; o < NOPS && n < sizeof(line) - 48; o++)
		if (op_n[o])
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %.0f%% %llu us,",
					      op_names[o], all_us ? 100.0 * op_us[o] / all_us : 0,
					      (unsigned long long)(op_us[o] / op_n[o]));
	puts(line);
	for (o = 0; o < NOPS; o++) {
		uint64_t sum = 0;

		for (e = 0; e < NERR; e++)
			sum += res[o][e];
		if (!sum)
			continue;
		n = (size_t)snprintf(line, sizeof(line), "# %-9s %9llu:", op_names[o],
				     (unsigned long long)sum);
		for (e = 0; e < NERR && n < sizeof(line) - 40; e++) {
			if (!res[o][e])
				continue;
			if (e == 0)
				n += (size_t)snprintf(line + n, sizeof(line) - n, " ok %llu",
						      (unsigned long long)res[o][e]);
			else if (e < NERR - 1)
				n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %llu",
						      strerrorname_np(err_list[e]),
						      (unsigned long long)res[o][e]);
			else
				n += (size_t)snprintf(line + n, sizeof(line) - n, " other %llu",
						      (unsigned long long)res[o][e]);
		}
		puts(line);
	}
	n = (size_t)snprintf(line, sizeof(line), "# NtTraceEvent:");
	for (e = 0; e < NSTAT + 2 && n < sizeof(line) - 48; e++)
		if (tstat[e])
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %llu",
					      e < NSTAT ? status_names[e] :
					      e == NSTAT ? "other" : "ioctl-failed",
					      (unsigned long long)tstat[e]);
	puts(line);
	/* The three types of the 0x78-byte block, each on its own. */
	for (b = 0; b < NBLOCK; b++) {
		n = (size_t)snprintf(line, sizeof(line), "# %s:", block_names[b]);
		for (e = 0; e < NSTAT + 2 && n < sizeof(line) - 48; e++)
			if (tblock[b][e])
				n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %llu",
						      e < NSTAT ? status_names[e] :
						      e == NSTAT ? "other" : "ioctl-failed",
						      (unsigned long long)tblock[b][e]);
		puts(line);
	}
	printf("# start/attach worked/EPERM:");
	for (e = 0; e < NMODES; e++)
		printf("%s %s %llu/%llu", e ? "," : "", mode_names[e],
		       (unsigned long long)priv[e][0], (unsigned long long)priv[e][1]);
	printf("\n");
	/* Each operation on a system logger, as each kind of worker. */
	for (e = 0; e < NMODES; e++) {
		printf("# system loggers, worked/refused, %s:", mode_names[e]);
		for (y = 0; y < NSYSOP; y++)
			printf("%s %s %llu/%llu", y ? "," : "", sysop_names[y],
			       (unsigned long long)sysop[e][y][0],
			       (unsigned long long)sysop[e][y][1]);
		printf("\n");
	}
	if (surprise)
		printf("# WRITES INTO READ-ONLY REGIONS THROUGH /proc/self/mem: %llu\n",
		       (unsigned long long)surprise);
	printf("fuzz: %llu calls\n", (unsigned long long)calls);
}

/*
 * --hotplug: a CPU other than 0 goes offline for a moment every few
 * seconds, under the sessions' rings and the workers pinned to it.
 */
static int hotplug_stop;
static unsigned int hotplug_cycles;

static int cpu_online(int cpu, int on)
{
	char path[64];
	int fd, ok;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

static void *hotplug_thread(void *p)
{
	struct rng r = { derive(seed, 0x407, 0, 0) };
	int cpu;

	(void)p;
	while (!__atomic_load_n(&hotplug_stop, __ATOMIC_RELAXED)) {
		sleep_ms(1000 + below(&r, 3000));
		cpu = 1 + (int)below(&r, (uint32_t)ncpus - 1);
		if (cpu_online(cpu, 0) == 0) {
			hotplug_cycles++;
			sleep_ms(50 + below(&r, 500));
			while (cpu_online(cpu, 1) && errno == EBUSY)
				sleep_ms(10);
		}
	}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: nttrace_fuzz [--seed S] [--calls N] [--time SECONDS] "
		"[--procs P] [--threads T] [--hotplug] [--no-cleanup] [--trace] "
		"[--device PATH]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint64_t calls = 0, start, next_kill, next_progress, t;
	unsigned int secs = 0;
	struct rng sup;
	int i, fd, have_seed = 0, hotplug = 0;
	pthread_t hp;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--no-cleanup")) {
			opt_cleanup = 0;
			continue;
		}
		if (!strcmp(a, "--trace")) {
			opt_trace = 1;
			continue;
		}
		if (!strcmp(a, "--hotplug")) {
			hotplug = 1;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--seed")) {
			seed = strtoull(v, NULL, 0);
			have_seed = 1;
		} else if (!strcmp(a, "--calls")) {
			calls = strtoull(v, NULL, 0);
		} else if (!strcmp(a, "--time")) {
			secs = (unsigned int)strtoul(v, NULL, 0);
		} else if (!strcmp(a, "--procs")) {
			opt_procs = atoi(v);
		} else if (!strcmp(a, "--threads")) {
			opt_threads = atoi(v);
		} else if (!strcmp(a, "--device")) {
			opt_device = v;
		} else {
			usage();
		}
	}
	if (opt_procs < 1 || opt_procs > MAX_PROCS || opt_threads < 1 ||
	    opt_threads > MAX_THREADS || (!calls && !secs))
		usage();
	if (!have_seed)
		seed = (uint64_t)time(NULL) * 1000003ULL ^ (uint64_t)getpid();
	page = sysconf(_SC_PAGESIZE);
	ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (ncpus < 1)
		ncpus = 1;
	if (ncpus > 64)
		ncpus = 64;

	fd = open(opt_device, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "fuzz: %s: %s\n", opt_device, strerror(errno));
		return 2;
	}
	/* The flags the module writes events for: most group masks use them. */
	{
		struct nttrace_version v = { .size = sizeof(v) };

		if (!ioctl(fd, NTTRACE_IOC_VERSION, &v))
			system_flags = v.system_flags;
	}
	close(fd);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("fuzz: mmap");
		return 2;
	}
	sh->target = calls;
	printf("fuzz: seed 0x%llx, %d-bit, %d processes x %d threads, %llu calls, %u s, %d CPUs\n",
	       (unsigned long long)seed, BITS, opt_procs, opt_threads,
	       (unsigned long long)calls, secs, ncpus);
	fflush(stdout);

	sup.s = derive(seed, 0x50, 0, 0);
	for (i = 0; i < opt_procs; i++)
		spawn(i);
	/* It takes no lock that a worker forked later could inherit held. */
	hotplug = hotplug && ncpus > 1 &&
		  pthread_create(&hp, NULL, hotplug_thread, NULL) == 0;
	start = now_ms();
	next_kill = start + KILL_MIN_MS + below(&sup, KILL_SPAN_MS);
	next_progress = start + PROGRESS_SECS * 1000;
	for (;;) {
		sleep_ms(20);
		reap(!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED));
		t = now_ms();
		if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED))
			break;
		if (secs && t - start >= (uint64_t)secs * 1000) {
			__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
			break;
		}
		if (t >= next_kill) {
			struct child *k = &kids[below(&sup, (uint32_t)opt_procs)];

			if (k->pid > 0 && !k->killed) {
				kill_kid(k);
				kills++;
			}
			next_kill = t + KILL_MIN_MS + below(&sup, KILL_SPAN_MS);
		}
		watchdog();
		if (t >= next_progress) {
			progress(start, t);
			next_progress += PROGRESS_SECS * 1000;
		}
	}

	/* The end: let the workers finish their calls, then make sure. */
	t = now_ms();
	for (;;) {
		int alive = 0;

		reap(0);
		for (i = 0; i < opt_procs; i++)
			alive += kids[i].pid > 0;
		if (!alive)
			break;
		/* STOP's WAIT_CONSUMER waits until killed. */
		if (now_ms() - t > 3000) {
			for (i = 0; i < opt_procs; i++)
				kill_kid(&kids[i]);
		}
		sleep_ms(20);
	}
	if (hotplug) {
		__atomic_store_n(&hotplug_stop, 1, __ATOMIC_RELAXED);
		pthread_join(hp, NULL);
		printf("# CPU hotplug: %u offline/online cycles\n", hotplug_cycles);
	}
	printf("# %.1f s\n", (now_ms() - start) / 1000.0);
	if (opt_cleanup && geteuid() == 0)
		cleanup_sessions();
	report();
	return unexpected ? 1 : 0;
}
