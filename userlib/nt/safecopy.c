// SPDX-License-Identifier: LGPL-2.1
/*
 * Copies from caller-supplied addresses that turn a bad address into an
 * error instead of a crash, as Windows' user-mode ETW code does under its
 * exception handling (seed 002: "All the function's work is subject to
 * exception handling").
 *
 * On the first use, handlers for SIGSEGV and SIGBUS are installed (with
 * SA_NODEFER, so that jumping out of one leaves the signal mask as it was).
 * A fault inside nttrace_safe_copy() jumps back to it; any other fault goes
 * to the handler that was there before, or, if that was the default, the
 * default is put back and the faulting instruction runs again to die as it
 * would have. A program that installs its own handler later replaces ours:
 * then a bad address crashes, as it would in plain C.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "../internal.h"

static __thread sigjmp_buf *fault_jump;
static struct sigaction old_segv, old_bus;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static void on_fault(int sig, siginfo_t *info, void *uc)
{
	struct sigaction *old = sig == SIGSEGV ? &old_segv : &old_bus;
	sigjmp_buf *jump = fault_jump;

	if (jump) {
		fault_jump = NULL;
		siglongjmp(*jump, 1);
	}
	if (old->sa_flags & SA_SIGINFO) {
		old->sa_sigaction(sig, info, uc);
	} else if (old->sa_handler == SIG_DFL || old->sa_handler == SIG_IGN) {
		/* Returning re-runs the instruction, which now kills us. */
		signal(sig, SIG_DFL);
	} else {
		old->sa_handler(sig);
	}
}

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
}

int nttrace_safe_copy(void *dst, const void *src, size_t len)
{
	sigjmp_buf jump, *outer;

	if (!len)
		return 0;
	pthread_once(&install_once, install);
	/*
	 * A copy made by a signal handler that interrupted another copy on
	 * this thread hands the outer copy's jump back when it is done, so
	 * that a fault in the rest of the outer copy still returns an error.
	 */
	outer = fault_jump;
	if (sigsetjmp(jump, 0)) {
		fault_jump = outer;
		return -EFAULT;
	}
	/*
	 * Only this thread's signal handler reads fault_jump: compiler
	 * barriers keep the copy between setting and clearing it.
	 */
	fault_jump = &jump;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	memcpy(dst, src, len);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	fault_jump = outer;
	return 0;
}
