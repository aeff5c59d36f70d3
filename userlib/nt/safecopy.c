// SPDX-License-Identifier: LGPL-2.1
/*
 * Copies from caller-supplied addresses that turn a bad address into an
 * error instead of a crash, as Windows' user-mode ETW code does under its
 * exception handling (seed 002: "All the function's work is subject to
 * exception handling").
 *
 * No signal handler: a library must not take SIGSEGV or SIGBUS from the
 * program that links it (issue 27). The signal dispositions are the
 * process's, shared with the program and every other library in it, and a
 * handler installed here either replaces the program's or is replaced by
 * it. So the only reads that may fault are made by the kernel: an address
 * not known to be mapped is copied with process_vm_readv() on our own
 * process, which returns EFAULT for an unmapped, unreadable or truncated
 * range and raises nothing. Same thread group, so no ptrace permission
 * (nor Yama) is consulted, and no descriptor is kept that a fork would
 * share (a /proc/self/mem or pipe descriptor would).
 *
 * That system call costs over a microsecond (it pins the pages: 1.25 us
 * for 64 bytes here, against 4.5 ns for memcpy and 60-80 ns for a whole
 * event into the user-mode logger, which makes no system call by design).
 * So memory that cannot be unmapped under a caller that is still using it
 * is copied with memcpy, without asking the kernel:
 *  - the calling thread's own stack, where the caller's locals are: its
 *    bounds read once per thread from /proc/self/maps (with open and read,
 *    so that the first copy may be made from a signal handler); a thread's
 *    stack stays mapped while it runs, and the main thread's only grows;
 *  - the main program's loaded segments (string literals, globals: the
 *    program is never unloaded), from the auxiliary vector;
 *  - the brk heap, from its start (/proc/self/stat) to the current break,
 *    where malloc puts the main thread's small blocks.
 * Anything else (mmap'd memory, other threads' arenas, shared libraries,
 * which dlclose may unmap) takes the system call. A range that one of
 * these holds but that the program itself unmapped or mprotect'ed to
 * PROT_NONE (inside its own stack or heap) still faults, as plain C would;
 * so does one unmapped by another thread during the call, a race of the
 * program's. A kernel or sandbox without process_vm_readv (ENOSYS, or
 * EPERM from a seccomp filter) has the copy go through a pipe instead.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../internal.h"

struct range {
	uintptr_t lo, hi;		/* [lo, hi) */
};

static int in_range(const struct range *r, uintptr_t a, size_t len)
{
	return a >= r->lo && a < r->hi && len <= r->hi - a;
}

/* ---- /proc, read without stdio or malloc (async-signal-safe) ---- */

static int parse_hex(const char **p, uintptr_t *v)
{
	const char *s = *p;
	uintptr_t x = 0;
	int d, n = 0;

	for (;; s++, n++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else
			break;
		x = x << 4 | d;
	}
	*p = s;
	*v = x;
	return n ? 0 : -1;
}

/*
 * The mapping of /proc/self/maps holding @addr, readable, into @r; whether
 * it is the main thread's "[stack]" into *@stack. 0, or -1 if none. Of
 * each line only its head (range, permissions) and its last characters
 * (the name) matter.
 */
static int find_mapping(uintptr_t addr, struct range *r, int *stack)
{
	static const char name[] = "[stack]";
	char buf[1024], head[64], tail[sizeof(name) - 1];
	size_t hlen = 0, tlen = 0;
	int fd, found = -1, more = 1;

	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (more && found < 0) {
		ssize_t n = read(fd, buf, sizeof(buf));
		ssize_t i;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			more = 0;
			n = 0;
			buf[n++] = '\n';	/* the last line, if unterminated */
		}
		for (i = 0; i < n && found < 0; i++) {
			const char *p = head;
			struct range m;

			if (buf[i] != '\n') {
				if (hlen < sizeof(head) - 1)
					head[hlen++] = buf[i];
				if (tlen == sizeof(tail))
					memmove(tail, tail + 1, --tlen);
				tail[tlen++] = buf[i];
				continue;
			}
			head[hlen] = 0;
			*stack = tlen == sizeof(tail) && !memcmp(tail, name, sizeof(tail));
			hlen = tlen = 0;
			if (parse_hex(&p, &m.lo) || *p++ != '-' || parse_hex(&p, &m.hi) ||
			    *p++ != ' ' || *p != 'r' || addr < m.lo || addr >= m.hi)
				continue;
			*r = m;
			found = 0;
		}
	}
	close(fd);
	return found;
}

/* Field @field (1-based) of /proc/self/stat as a number; 0 if unknown. */
static uintptr_t stat_field(int field)
{
	char buf[1024], *p;
	uintptr_t v = 0;
	ssize_t n;
	int fd, f;

	fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* The command name (field 2) may hold spaces and ')': after its last ')'. */
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	for (f = 2; f < field && *p; p++)
		if (*p == ' ')
			f++;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uintptr_t)(*p - '0');
	return v;
}

/* ---- the ranges that cannot be unmapped under a running caller ---- */

/* Each thread's stack: 0 not looked up yet, 1 being looked up, 2 known, -1 none. */
static __thread int stack_state;
static __thread struct range stack_range;

static void find_stack(void)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	uintptr_t self = (uintptr_t)pthread_self();
	struct range r;
	int main_stack;

	stack_state = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (find_mapping(sp, &r, &main_stack)) {
		stack_state = -1;
		return;
	}
	/*
	 * A thread's stack mapping (glibc, musl) ends with its thread
	 * descriptor, which pthread_self() points into: whatever mapping
	 * the kernel merged in above it is not the thread's and may go.
	 * The main thread's "[stack]" ends with argv and the environment.
	 */
	if (!main_stack && self > r.lo && self < r.hi)
		r.hi = self;
	stack_range = r;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	stack_state = 2;
}

#define IMAGE_MAX	8
static struct range image[IMAGE_MAX];
static unsigned int nimage;
static uintptr_t brk_start;
/* 0 not looked up yet, 1 being looked up, 2 known (atomic). */
static int process_state;

/* The main program's loaded segments, from its program headers. */
static void find_image(void)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	unsigned long i, n = getauxval(AT_PHNUM);
	uintptr_t bias = 0;
	int biased = 0;

	if (!ph)
		return;
	for (i = 0; i < n; i++)
		if (ph[i].p_type == PT_PHDR) {
			bias = (uintptr_t)ph - ph[i].p_vaddr;
			biased = 1;
		}
	/*
	 * Without PT_PHDR (a static, non-PIE program): loaded where it was
	 * linked, if its headers lie in one of its segments at bias 0.
	 */
	for (i = 0; i < n && !biased; i++)
		if (ph[i].p_type == PT_LOAD && (uintptr_t)ph >= ph[i].p_vaddr &&
		    (uintptr_t)ph - ph[i].p_vaddr < ph[i].p_filesz)
			biased = 1;
	if (!biased)
		return;
	for (i = 0; i < n && nimage < IMAGE_MAX; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_R) && ph[i].p_memsz) {
			image[nimage].lo = bias + ph[i].p_vaddr;
			image[nimage].hi = bias + ph[i].p_vaddr + ph[i].p_memsz;
			nimage++;
		}
}

static int process_known(void)
{
	int state = __atomic_load_n(&process_state, __ATOMIC_ACQUIRE), zero = 0;

	if (state == 2)
		return 1;
	/* Another thread (or a handler that interrupted us) looks them up. */
	if (state || !__atomic_compare_exchange_n(&process_state, &zero, 1, 0,
						  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return 0;
	find_image();
	brk_start = stat_field(47);	/* start_brk */
	__atomic_store_n(&process_state, 2, __ATOMIC_RELEASE);
	return 1;
}

/* Whether [@a, @a + @len) is readable and stays mapped while the caller runs. */
static int known_mapped(uintptr_t a, size_t len)
{
	unsigned int i;

	if (!stack_state)
		find_stack();
	if (stack_state == 2 && in_range(&stack_range, a, len))
		return 1;
	if (!process_known())
		return 0;
	for (i = 0; i < nimage; i++)
		if (in_range(&image[i], a, len))
			return 1;
	if (brk_start && a >= brk_start) {
		struct range heap = { brk_start, (uintptr_t)sbrk(0) };

		return in_range(&heap, a, len);
	}
	return 0;
}

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

int nttrace_safe_copy(void *dst, const void *src, size_t len)
{
	uintptr_t a = (uintptr_t)src;

	if (!len)
		return 0;
	if (a + len < a)
		return -EFAULT;
	if (known_mapped(a, len)) {
		memcpy(dst, src, len);
		return 0;
	}
	return kernel_copy(dst, src, len, 0);
}

int nttrace_safe_store(void *dst, const void *src, size_t len)
{
	uintptr_t a = (uintptr_t)dst;

	if (!len)
		return 0;
	if (a + len < a)
		return -EFAULT;
	/* Only the stack is known writable (segments and pages may be read-only). */
	if (!stack_state)
		find_stack();
	if (stack_state == 2 && in_range(&stack_range, a, len)) {
		memcpy(dst, src, len);
		return 0;
	}
	return kernel_copy(dst, src, len, 1);
}
