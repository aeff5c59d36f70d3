// SPDX-License-Identifier: GPL-2.0
/*
 * The NT Kernel Logger's memory events, 64- and 32-bit callers (the
 * records are the 64-bit kernel's either way); root.
 *
 * VIRTUAL_ALLOC: a private anonymous mmap() of 3 pages and 100 bytes is a
 * PageFault/VirtualAlloc of its base, 4 pages, this process and
 * MEM_COMMIT | MEM_RESERVE; its munmap() a VirtualFree of the same with
 * MEM_RELEASE; a 32-bit caller's old_mmap() (its arguments in memory) an
 * allocation too. A private file mapping, a shared anonymous one, and
 * their munmap() are none; each record is PERFINFO64, version 2, of its
 * size. The drains wait on nothing: every event is written by the call
 * itself, before it returns.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <nttrace/session.h>

#include "emit.h"
#include "expect.h"
#include "klog.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define HOOK_VALLOC 0x0262
#define HOOK_VFREE 0x0263
#define MEM_COMMIT 0x1000
#define MEM_RESERVE 0x2000
#define MEM_RELEASE 0x8000

/* The mappings made, and what the drains found of each. */
enum { M_ANON, M_FILE, M_SHARED, M_OLD, M_COUNT };

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
	m.base[M_ANON] = a == MAP_FAILED ? 0 : (uintptr_t)a;
	m.base[M_FILE] = f == MAP_FAILED ? 0 : (uintptr_t)f;
	m.base[M_SHARED] = s == MAP_FAILED ? 0 : (uintptr_t)s;
	m.base[M_OLD] = o == MAP_FAILED ? 0 : (uintptr_t)o;
	tap_ok(m.base[M_ANON] && m.base[M_FILE] && m.base[M_SHARED],
	       "%d-bit: the three mappings made", BITS);
	for (i = 0; i < M_COUNT; i++) {
		if (!m.base[i])
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
	tap_eq(m.bad, 0, "%d-bit: every record PERFINFO64, version 2, 0x28 bytes", BITS);
}

int main(int argc, char **argv)
{
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return 0;
	}
	return harness_run(argc, argv);
}
