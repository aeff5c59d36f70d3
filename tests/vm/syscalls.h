/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Proof that a code path makes no system call, for the tests of the
 * providers' enable checks: a child calls traced_child_start() (it stops
 * for the parent to trace it), then getppid(), the code under test,
 * getppid(), and exits. The parent calls syscalls_between_getppid(): it
 * follows the child with PTRACE_SYSCALL and counts the system calls
 * between the two getppid() calls. Only that thread is traced (a
 * library's helper threads are not).
 */
#ifndef NTTRACE_TEST_SYSCALLS_H
#define NTTRACE_TEST_SYSCALLS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __x86_64__
#define SYSCALLS_ORIG_AX offsetof(struct user, regs.orig_rax)
#else
#define SYSCALLS_ORIG_AX offsetof(struct user, regs.orig_eax)
#endif

/* In the child: 0, or -1 if it cannot be traced. */
static inline int traced_child_start(void)
{
	if (ptrace(PTRACE_TRACEME, 0, 0, 0))
		return -1;
	raise(SIGSTOP);
	return 0;
}

/*
 * In the parent: the system calls child @pid made between its two
 * getppid() calls (0: none), or -1 when the child did not stop for
 * tracing or the two calls were not seen. Reaps the child.
 */
static inline int syscalls_between_getppid(pid_t pid)
{
	int status, n = 0, i, first = -1, second = -1, sig;
	long calls[64];

	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return -1;
	ptrace(PTRACE_SETOPTIONS, pid, 0, (void *)PTRACE_O_TRACESYSGOOD);
	/* Every system-call stop, entry and exit alternately. */
	for (sig = 0;;) {
		if (ptrace(PTRACE_SYSCALL, pid, 0, (void *)(intptr_t)sig))
			break;
		sig = 0;
		if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
			break;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(status);
			continue;
		}
		if (n < 64)
			calls[n++] = ptrace(PTRACE_PEEKUSER, pid, (void *)SYSCALLS_ORIG_AX, 0);
	}
	for (i = 0; i < n; i++) {
		if (calls[i] != SYS_getppid)
			continue;
		if (first < 0)
			first = i;
		else if (second < 0 && i > first + 1)
			second = i;
	}
	/* getppid's entry and exit, a stop pair per call, the next getppid. */
	return second < 0 ? -1 : (second - first - 2) / 2;
}

#endif /* NTTRACE_TEST_SYSCALLS_H */
