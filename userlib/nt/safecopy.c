// SPDX-License-Identifier: LGPL-2.1
/*
 * Copies from caller-supplied addresses that turn a bad address into an
 * error instead of a crash, as Windows' user-mode ETW code does under its
 * exception handling (TraceMessageVa's work, for one, is all subject to
 * exception handling).
 *
 * No signal handler: a library must not take SIGSEGV or SIGBUS from the
 * program that links it. The signal dispositions are the
 * process's, shared with the program and every other library in it, and a
 * handler installed here either replaces the program's or is replaced by
 * it. So the library reads with memcpy only what it knows to be mapped
 * readable, and has the kernel copy anything else: process_vm_readv() on
 * our own process returns EFAULT for an unmapped, unreadable or truncated
 * range and raises nothing (same thread group: no ptrace permission, nor
 * Yama, is consulted). That system call costs 1.3 us for 64 bytes, against
 * 4.4 ns for memcpy and tens of ns for a whole event into the user-mode
 * logger, which makes no system call by design; so it must stay the
 * exception, for bad pointers, not the way heap data is read.
 *
 * What is mapped readable comes from a cache of /proc/self/maps: its
 * readable ranges ('r'; with 'w' too, for nttrace_safe_store), adjoining
 * ones of the same kind merged, sorted, in a snapshot that readers find
 * through one pointer (a load-acquire, a check of this thread's last
 * range or a binary search, a sequence check: no lock, no system call,
 * async-signal-safe). A range that the snapshot holds, in one range or
 * across adjoining ones, is copied with memcpy. A miss reads the map
 * again, once the re-read lock is had (a try-lock: a caller that finds it
 * taken, a signal handler that interrupted a re-read among them, does not
 * wait), and looks again; still a miss, and the kernel copies (EFAULT:
 * ERROR_NOACCESS). The re-read makes only async-signal-safe calls (open,
 * read, ioctl, mmap, the clock), so a handler may make it too.
 *
 * What this trades: the snapshot is the map as it was when the library
 * last read it. Memory that the program unmaps, or makes unreadable,
 * after that is, if the program then passes a pointer into it, copied as
 * memcpy would copy it: it faults as the program's own read of it would
 * (SIGSEGV, to the program's disposition). That is the contract of any
 * library function given a dangling pointer (memcpy, strlen, fwrite).
 * The next re-read, which any miss makes, corrects it. Pointers that were
 * never mapped readable when the map was read, NULL, small integers,
 * kernel addresses, the holes between mappings, PROT_NONE pages (guard
 * pages, reserved arenas), still give ERROR_NOACCESS, as does anything
 * the snapshot lacks; so do guard regions made with MADV_GUARD_INSTALL
 * inside a readable mapping, which the re-read finds in the page tables
 * (see scan_guards). Neither can a map show what only a fault reveals: a
 * file mapping's pages past the end of its file, or a hugetlb page that
 * cannot be had, raise SIGBUS as the program's own read would. [vvar],
 * readable in the map, has pages that raise SIGBUS and holds no caller's
 * data: it is left out. A fork()ed child keeps its parent's snapshot,
 * less the MADV_DONTFORK ranges it never had: the same trade.
 *
 * Re-reads are bounded, because a program may pass the same bad pointer
 * in a loop, or a stream of them: an address whose page missed after a
 * re-read does not cause another for BAD_MS (the last BAD_PAGES such pages
 * are kept), and after a re-read that took t no other starts for 49 t
 * (then at most 2% of the time goes to re-reading, whatever the program
 * does; a miss in between takes the system call, correct but slow).
 *
 * Memory: two snapshot buffers, written alternately (the one not
 * published). A reader that loaded the pointer to the other one before
 * the swap may still be in it when it is rewritten: a sequence number,
 * odd while it is written, makes it look again. Buffers are never
 * unmapped, since such a reader could be anywhere in them; one that
 * becomes too small is replaced by one twice its size and abandoned, so
 * that all of them, abandoned too, take less than four times the largest
 * map seen. A range takes 16 bytes (8 for 32-bit): a large process's 4096
 * ranges make 64 KB a buffer, 256 KB at most in all; vm.max_map_count's
 * default of 65530, 1 MB a buffer, 4 MB at most.
 *
 * Measured (tests/bench/safecopy.c, make safecopy-bench: 64 bytes, ns a
 * copy, best of several runs on a shared 2-core x86-64 VM; 64-bit and
 * 32-bit), before the cache (memcpy for the stack, the program and the
 * brk heap only) and with it:
 *                          64-bit          32-bit
 *   stack                 3.3 ->  5.4    12.3 -> 15.0
 *   program's data        4.9 ->  5.4    13.6 -> 15.0
 *   brk heap              6.3 ->  5.7    15.5 -> 15.0
 *   mmap'd             1348   ->  5.4    1173 -> 15.0
 *   large malloc       1359   ->  5.7    1183 -> 15.0
 *   thread's arena     1330   ->  5.5    1172 -> 14.9
 *   bad: PROT_NONE     1056   -> 1085     866 ->  897
 *   bad: NULL          1008   -> 1037     815 ->  868
 *   bad: 64 pages in turn 1060 -> 1116    887 ->  939 (the map read
 *                                         every ~0.7 ms: the 2% bound)
 * The same bad pointer 2.8 million times read the map 4 times (once a
 * second). A re-read costs 30 us for this 40-line map and 1.3 ms with
 * 2048 more mappings (the map 16 us and 810 us of that: the kernel's
 * formatting, ~0.4 us a line; the rest the guard scan, which also takes
 * ~1 us a megabyte resident: 0.9 ms for a 1 GB heap); the search stays
 * 5.5 ns there. The stack's 2 ns more are the snapshot's loads and
 * checks where a thread-local range was compared before. A TraceMessage
 * into the user-mode logger with a 64-byte argument in a thread's arena:
 * 1457 -> 25 ns (64-bit), 1307 -> 47 ns (32-bit).
 *
 * A kernel or sandbox without process_vm_readv (ENOSYS, or EPERM from a
 * seccomp filter) has the kernel's copies go through a pipe instead.
 * No Debian library keeps such a cache to build on: those that check an
 * address without a handler (libunwind's memory validation, gnulib's
 * stackvma) make a system call (mincore, msync, a pipe write) or read the
 * map on every check.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "nt_internal.h"

/* ---- the snapshot ---- */

/*
 * A readable range [lo & ~RANGE_W, hi); RANGE_W set in lo when it is
 * writable too (lo is page-aligned: its low bits are free). Adjoining
 * ranges of the same writability are one.
 */
struct range {
	uintptr_t lo, hi;
};

#define RANGE_W		((uintptr_t)1)

struct snapshot {
	unsigned long seq;	/* odd while it is being written */
	unsigned int n;		/* ranges in r[] */
	unsigned int cap;	/* r[]'s room, fixed for the buffer's life */
	struct range r[];
};

/* The snapshot readers use; NULL until the map was first read. */
static struct snapshot *published;

/*
 * Relaxed atomic loads: a reader may be in a buffer while the writer
 * rewrites it (it then looks again, see cached()), and a plain load racing
 * with a store would be a data race.
 */
#define LOAD(p)		__atomic_load_n(p, __ATOMIC_RELAXED)
#define STORE(p, v)	__atomic_store_n(p, v, __ATOMIC_RELAXED)

/*
 * The range of this thread's last hit, where the next search starts: the
 * same few ranges (its stack, its arena, the program's data) hold most of
 * a thread's arguments. Any value is safe, since it is checked against
 * the snapshot read now; and it is one word, so that a signal handler's
 * copy in the middle of ours can only change where ours starts next time.
 */
static __thread unsigned int hint;

/*
 * Whether [@a, @end) lies in @s's ranges, all writable if @write: the last
 * range starting at or below @a, then the ranges that adjoin it. Whatever
 * a concurrent writer leaves in @s, this reads nothing outside r[0, cap).
 */
static int covered(struct snapshot *s, uintptr_t a, uintptr_t end, int write)
{
	unsigned int n = LOAD(&s->n), lo = hint, hi, i;

	if (n > s->cap)
		n = s->cap;
	if (lo < n && (LOAD(&s->r[lo].lo) & ~RANGE_W) <= a && a < LOAD(&s->r[lo].hi)) {
		lo++;
	} else {
		for (lo = 0, hi = n; lo < hi;) {
			unsigned int mid = lo + (hi - lo) / 2;

			if ((LOAD(&s->r[mid].lo) & ~RANGE_W) <= a)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo)
			return 0;
		hint = lo - 1;
	}
	for (i = lo - 1;; i++) {
		uintptr_t stop = LOAD(&s->r[i].hi);

		if (write && !(LOAD(&s->r[i].lo) & RANGE_W))
			return 0;
		if (end <= stop)
			return a < stop;
		if (i + 1 >= n || (LOAD(&s->r[i + 1].lo) & ~RANGE_W) != stop)
			return 0;
	}
}

/*
 * Whether the published snapshot holds [@a, @end). A buffer that was
 * rewritten while we searched it (its sequence changed) is looked at
 * again through the pointer; after a few tries it is a miss, which the
 * caller's slower way settles.
 */
static int cached(uintptr_t a, uintptr_t end, int write)
{
	int tries;

	for (tries = 0; tries < 4; tries++) {
		struct snapshot *s = __atomic_load_n(&published, __ATOMIC_ACQUIRE);
		unsigned long seq;
		int in;

		if (!s)
			return 0;
		seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		if (seq & 1)
			continue;
		in = covered(s, a, end, write);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (LOAD(&s->seq) == seq)
			return in;
	}
	return 0;
}

/* ---- reading the map again (one thread at a time) ---- */

#define BAD_MS		1000	/* a page that missed after a re-read: none for it */
#define BAD_PAGES	8
#define GAP_FACTOR	49	/* after a re-read of t: none for 49 t (2%) */

/*
 * The re-read lock: 0, or the PID of the process one of whose threads
 * holds it. A child forked while another thread of its parent held it
 * finds its parent's PID there, a holder it does not have, and takes it.
 */
static int reread_owner;

/*
 * Times in microseconds, in an unsigned long (32-bit: it wraps every 71
 * minutes, and is compared as a difference).
 */
static unsigned long next_reread;
static struct {
	uintptr_t page;		/* its number + 1; 0: none */
	unsigned long us;
} bad[BAD_PAGES];
/* Under the lock. */
static unsigned int next_bad;
static struct snapshot *slots[2];
/* Not on the stack: the callers' may be a small signal stack. */
static char maps_buf[4096];

/* Counters for the tests (nttrace_safe_copy_stats). */
static unsigned long rereads, kernel_copies;

static int reread_lock(void)
{
	int pid = getpid(), held = 0;

	if (__atomic_compare_exchange_n(&reread_owner, &held, pid, 0, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return 1;
	return held != pid &&
	       __atomic_compare_exchange_n(&reread_owner, &held, pid, 0, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static void reread_unlock(void)
{
	__atomic_store_n(&reread_owner, 0, __ATOMIC_RELEASE);
}

static unsigned long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000000 + (unsigned long)ts.tv_nsec / 1000;
}

/* A buffer for @cap ranges (rounded up to whole pages), being written. */
static struct snapshot *snapshot_new(size_t cap)
{
	size_t pg = (size_t)getpagesize(), size;
	struct snapshot *s;

	size = offsetof(struct snapshot, r) + cap * sizeof(struct range);
	size = (size + pg - 1) / pg * pg;
	s = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return NULL;
	s->seq = 1;
	s->cap = (size - offsetof(struct snapshot, r)) / sizeof(struct range);
	return s;
}

/* The map read into the buffer being written. */
struct builder {
	struct snapshot *s;
	int slot;
	unsigned int n;
	uintptr_t last;		/* the end of the last line's range */
	size_t guard;		/* the first guard region not behind us */
};

static int add_range(struct builder *b, uintptr_t lo, uintptr_t hi, uintptr_t w)
{
	struct snapshot *s = b->s;

	/*
	 * The map is read a page at a time, each read under the kernel's
	 * lock: between two, mappings may change, and a line may overlap
	 * the one before. Keep the ranges sorted and disjoint.
	 */
	if (lo < b->last)
		lo = b->last;
	if (hi > b->last)
		b->last = hi;
	if (lo >= hi)
		return 0;
	if (b->n && LOAD(&s->r[b->n - 1].hi) == lo &&
	    (LOAD(&s->r[b->n - 1].lo) & RANGE_W) == w) {
		STORE(&s->r[b->n - 1].hi, hi);
		return 0;
	}
	if (b->n == s->cap) {
		/*
		 * Outgrown: a new buffer, twice the size; the old one is
		 * left as it is (odd: a reader still in it looks again),
		 * never unmapped.
		 */
		struct snapshot *t = snapshot_new(2 * (size_t)s->cap);

		if (!t)
			return -1;
		memcpy(t->r, s->r, b->n * sizeof(struct range));
		slots[b->slot] = b->s = s = t;
	}
	STORE(&s->r[b->n].lo, lo | w);
	STORE(&s->r[b->n].hi, hi);
	b->n++;
	return 0;
}

/*
 * ---- guard regions ----
 * Pages made to fault with MADV_GUARD_INSTALL (Linux 6.13; glibc 2.42
 * guards thread stacks so) lie inside a readable mapping: the map does not
 * show them, only the page tables do. PAGEMAP_SCAN lists them (Linux 6.15
 * reports PAGE_IS_GUARD); the re-read cuts them out of the ranges. The
 * scan walks the page tables, ~1 us a megabyte resident, which the
 * re-reads' time bound covers. Kernels without it (EINVAL, ENOTTY), or a
 * sandbox refusing it, are not asked again; on 6.13 and 6.14 guard
 * regions stay unseen (and a pointer into one faults).
 */

/* <linux/fs.h> since Linux 6.7 and 6.15; Debian 12's headers are older. */
struct pm_region {
	uint64_t start, end, categories;
};

struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};

#define PM_SCAN		_IOWR('f', 16, struct pm_scan_arg)
#define PM_IS_GUARD	(1 << 8)
/* The top of user space (x86-64 with 4-level page tables; i386 under it). */
#define USER_END	(sizeof(void *) == 8 ? 0x7ffffffff000ULL : 0xfffff000ULL)

/* Under the lock: the last scan's guard regions, sorted; only the writer's. */
static struct pm_region *guards;
static size_t nguards, guards_cap;
static int no_guard_scan;

static int guards_grow(void)
{
	size_t cap = guards_cap ? 2 * guards_cap : 4096 / sizeof(*guards);
	struct pm_region *g = mmap(NULL, cap * sizeof(*g), PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *old = guards;
	size_t old_cap = guards_cap;

	if (g == MAP_FAILED)
		return -1;
	if (old)
		memcpy(g, old, nguards * sizeof(*g));
	/* The new one in place first: a child forked here finds it, or the old one. */
	guards = g;
	guards_cap = cap;
	if (old)
		munmap(old, old_cap * sizeof(*g));
	return 0;
}

/* The guard regions into guards[]; -1 if they could not all be had. */
static int scan_guards(void)
{
	uint64_t start = 0;
	int fd, ret = 0;

	nguards = 0;
	if (no_guard_scan)
		return 0;
	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		STORE(&no_guard_scan, 1);
		return 0;
	}
	for (;;) {
		struct pm_scan_arg arg = {
			.size = sizeof(arg),
			.start = start,
			.end = USER_END,
			.category_mask = PM_IS_GUARD,
			.return_mask = PM_IS_GUARD,
		};
		long n;

		if (nguards == guards_cap && guards_grow()) {
			ret = -1;
			break;
		}
		arg.vec = (uintptr_t)(guards + nguards);
		arg.vec_len = guards_cap - nguards;
		n = ioctl(fd, PM_SCAN, &arg);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			/* Not this kernel's, or refused; a lack of memory may pass. */
			if (errno == ENOMEM)
				ret = -1;
			else
				STORE(&no_guard_scan, 1);
			nguards = 0;
			break;
		}
		nguards += n;
		/* Stopped early only when vec was full. */
		if (arg.walk_end >= arg.end || !n)
			break;
		start = arg.walk_end;
	}
	close(fd);
	return ret;
}

/* [@lo, @hi) less the guard regions in it. */
static int add_unguarded(struct builder *b, uintptr_t lo, uintptr_t hi, uintptr_t w)
{
	size_t i;

	while (b->guard < nguards && guards[b->guard].end <= lo)
		b->guard++;
	for (i = b->guard; i < nguards && guards[i].start < hi; i++) {
		if (guards[i].start > lo && add_range(b, lo, guards[i].start, w))
			return -1;
		if (guards[i].end >= hi)
			return 0;
		if (guards[i].end > lo)
			lo = guards[i].end;
	}
	return add_range(b, lo, hi, w);
}

static int parse_hex(const char **p, const char *end, uintptr_t *v)
{
	const char *s = *p;
	uintptr_t x = 0;
	int d;

	for (; s < end; s++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else
			break;
		x = x << 4 | d;
	}
	if (s == *p)
		return -1;
	*p = s;
	*v = x;
	return 0;
}

/*
 * One line of the map: "lo-hi perms offset dev inode   name", of which
 * the head (range, permissions) and the name's last characters count.
 */
static int add_line(struct builder *b, const char *head, size_t hlen, const char *tail,
		    size_t tlen)
{
	const char *p = head, *end = head + hlen;
	uintptr_t lo, hi;

	if (parse_hex(&p, end, &lo) || p == end || *p++ != '-' ||
	    parse_hex(&p, end, &hi) || end - p < 3 || *p++ != ' ')
		return 0;
	if (p[0] != 'r') {
		if (hi > b->last)
			b->last = hi;
		return 0;
	}
	/* [vvar] (and [vvar_vclock]): readable, but some pages raise SIGBUS. */
	if ((tlen >= 6 && !memcmp(tail + tlen - 6, "[vvar]", 6)) ||
	    (tlen >= 13 && !memcmp(tail + tlen - 13, "[vvar_vclock]", 13))) {
		if (hi > b->last)
			b->last = hi;
		return 0;
	}
	return add_unguarded(b, lo, hi, p[1] == 'w' ? RANGE_W : 0);
}

/*
 * Reads /proc/self/maps into the buffer not published and publishes it.
 * Lines are seen whole by add_line (head and tail), however read() cuts
 * them: a line's head is kept up to its first 63 characters, and its last
 * 15.
 */
static int reread_map(void)
{
	struct snapshot *cur = __atomic_load_n(&published, __ATOMIC_RELAXED);
	struct builder b = { .slot = cur == slots[0] };
	char head[64], tail[16];
	size_t hlen = 0, tlen = 0;
	int fd, ret = 0;
	unsigned long seq;

	if (!slots[b.slot])
		slots[b.slot] = snapshot_new(1);
	b.s = slots[b.slot];
	if (!b.s)
		return -1;
	/* Odd: readers still in it from before the last swap look again. */
	seq = b.s->seq;
	__atomic_store_n(&b.s->seq, seq + (seq & 1 ? 2 : 1), __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);

	/* First: a guard installed between the two is one made after the read. */
	if (scan_guards())
		return -1;
	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(fd, maps_buf, sizeof(maps_buf));
		const char *p = maps_buf, *end = maps_buf + (n > 0 ? n : 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = -1;
		if (n <= 0)
			break;
		while (p < end && !ret) {
			const char *nl = memchr(p, '\n', end - p);
			const char *stop = nl ? nl : end;
			size_t len = stop - p, k;

			k = len < sizeof(head) - 1 - hlen ? len : sizeof(head) - 1 - hlen;
			memcpy(head + hlen, p, k);
			hlen += k;
			if (len >= sizeof(tail)) {
				memcpy(tail, stop - sizeof(tail), sizeof(tail));
				tlen = sizeof(tail);
			} else {
				if (tlen + len > sizeof(tail)) {
					memmove(tail, tail + tlen + len - sizeof(tail),
						sizeof(tail) - len);
					tlen = sizeof(tail) - len;
				}
				memcpy(tail + tlen, p, len);
				tlen += len;
			}
			p = stop;
			if (!nl)
				break;
			p++;
			ret = add_line(&b, head, hlen, tail, tlen);
			hlen = tlen = 0;
		}
		if (ret)
			break;
	}
	close(fd);
	if (ret)
		return -1;	/* left odd, unpublished: the next re-read takes it up */
	__atomic_store_n(&b.s->n, b.n, __ATOMIC_RELAXED);
	__atomic_store_n(&b.s->seq, b.s->seq + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&published, b.s, __ATOMIC_RELEASE);
	return 0;
}

/*
 * Whether a miss at @page may read the map again at @now: not when the
 * page missed after a re-read less than BAD_MS ago, nor before
 * next_reread. Asked before the lock too (relaxed loads: the answer only
 * spares the lock and getpid() on the bad-pointer path), and again under
 * it.
 */
static int reread_due(uintptr_t page, unsigned long now)
{
	unsigned int i;

	unsigned long next = LOAD(&next_reread);

	for (i = 0; i < BAD_PAGES; i++)
		if (LOAD(&bad[i].page) == page &&
		    now - LOAD(&bad[i].us) < BAD_MS * 1000UL)
			return 0;
	/*
	 * 0: never read yet. The microseconds wrap (a 32-bit long: every 72
	 * minutes), so only differences are compared; against a next_reread
	 * of 0, half of the time's values would read as "before" it.
	 */
	return !next || (long)(now - next) >= 0;
}

/*
 * On a miss: whether [@a, @end) is in the map once read again. 0 without
 * reading it when reread_due() says not yet, or when another thread (or
 * the call this one interrupted) is reading it.
 */
static int cached_after_reread(uintptr_t a, uintptr_t end, int write)
{
	uintptr_t page = a / 4096 + 1;	/* 0: an empty slot of bad[] */
	unsigned long now = now_us(), t;
	int in = 0, saved = errno;

	if (!reread_due(page, now) || !reread_lock())
		return 0;
	if (!reread_due(page, now))
		goto out;
	if (!reread_map()) {
		STORE(&rereads, rereads + 1);
		in = cached(a, end, write);
	}
	/* Bounded: one slowed by preemption makes the next wait no longer. */
	t = now_us() - now;
	if (t > BAD_MS * 1000UL / GAP_FACTOR)
		t = BAD_MS * 1000UL / GAP_FACTOR;
	STORE(&next_reread, now + t + GAP_FACTOR * t);
	if (!in) {
		STORE(&bad[next_bad].page, page);
		STORE(&bad[next_bad].us, now);
		next_bad = (next_bad + 1) % BAD_PAGES;
	}
out:
	reread_unlock();
	errno = saved;		/* the caller's, as memcpy would leave it */
	return in;
}

void nttrace_safe_copy_stats(struct nttrace_safe_copy_stats *st)
{
	unsigned long next = LOAD(&next_reread), wait = next - now_us();

	st->rereads = LOAD(&rereads);
	st->kernel_copies = LOAD(&kernel_copies);
	st->reread_wait_ns = next && (long)wait > 0 ? (uint64_t)wait * 1000 : 0;
	st->guard_scan = !LOAD(&no_guard_scan);
}

/* ---- the kernel's copy ---- */

/*
 * Through a pipe of its own: write() reads @src, read() writes @dst, and
 * either fails with EFAULT where its side is bad. For kernels without
 * process_vm_readv (CONFIG_CROSS_MEMORY_ATTACH off, as in the tiny test
 * kernels; or a seccomp filter refusing it): five system calls a copy
 * instead of one. A pipe made for the call, not kept: a kept one would be
 * shared with a child after fork (and take one of the program's numbers).
 * Without a descriptor to spare the copy fails: -ENFILE or -EMFILE, which
 * the callers report as a bad address (ERROR_NOACCESS) all the same.
 */
static int pipe_copy(void *dst, const void *src, size_t len)
{
	const uint8_t *from = src;
	uint8_t *to = dst;
	int p[2], ret = 0;

	if (pipe2(p, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	while (len && !ret) {
		/* Within PIPE_BUF: the pipe always has room for it. */
		size_t n = len < 4096 ? len : 4096;

		if (write(p[1], from, n) != (ssize_t)n || read(p[0], to, n) != (ssize_t)n)
			ret = -EFAULT;
		from += n;
		to += n;
		len -= n;
	}
	close(p[0]);
	close(p[1]);
	return ret;
}

/* 0 while process_vm_readv works; 1 once it was refused (ENOSYS, EPERM). */
static int no_vm_readv;

static int kernel_copy(void *dst, const void *src, size_t len, int store)
{
	struct iovec mine = { dst, len }, theirs = { (void *)src, len };
	int saved = errno, ret = 0;
	ssize_t n;

	__atomic_fetch_add(&kernel_copies, 1, __ATOMIC_RELAXED);
	if (__atomic_load_n(&no_vm_readv, __ATOMIC_RELAXED)) {
		ret = pipe_copy(dst, src, len);
		errno = saved;
		return ret;
	}
	/*
	 * The caller's side is the "remote" one, whose faults the kernel
	 * reports; ours is written or read as any system call's buffer.
	 * getpid() each time, not cached: a cached one would, in a child
	 * that another clone() made, read its parent's memory.
	 */
	if (store) {
		mine.iov_base = (void *)src;
		theirs.iov_base = dst;
		n = process_vm_writev(getpid(), &mine, 1, &theirs, 1, 0);
	} else {
		n = process_vm_readv(getpid(), &mine, 1, &theirs, 1, 0);
	}
	if (n < 0 && (errno == ENOSYS || errno == EPERM)) {
		__atomic_store_n(&no_vm_readv, 1, __ATOMIC_RELAXED);
		ret = pipe_copy(dst, src, len);
	} else if (n != (ssize_t)len) {
		ret = -EFAULT;
	}
	errno = saved;
	return ret;
}

/* Whether [@a, @a + @len) may be copied with memcpy (@write: into). */
static int mapped(uintptr_t a, size_t len, int write)
{
	return cached(a, a + len, write) || cached_after_reread(a, a + len, write);
}

/* Both directions: the caller's side is @src to read (@write 0), @dst to write. */
static int safe_move(void *dst, const void *src, size_t len, int write)
{
	uintptr_t a = write ? (uintptr_t)dst : (uintptr_t)src;

	if (!len)
		return 0;
	if (a + len < a)
		return -EFAULT;
	if (mapped(a, len, write)) {
		memcpy(dst, src, len);
		return 0;
	}
	return kernel_copy(dst, src, len, write);
}

int nttrace_safe_copy(void *dst, const void *src, size_t len)
{
	return safe_move(dst, src, len, 0);
}

int nttrace_safe_store(void *dst, const void *src, size_t len)
{
	return safe_move(dst, src, len, 1);
}
