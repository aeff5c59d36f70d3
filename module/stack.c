// SPDX-License-Identifier: GPL-2.0
/*
 * Call stacks (see stack.h). The kernel's part comes from the kernel's own
 * unwinder; the user part from the program's frame pointers, as perf's
 * default `perf record -g` takes it (perf's frame walker is not exported
 * to modules: this is the same walk, small and bounded). DWARF unwinding
 * of programs without frame pointers (perf's --call-graph dwarf copies a
 * slice of the user stack for a later unwind) is not done: a StackWalk
 * event has no room for stack bytes.
 */
#include <linux/compat.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "stack.h"

/* Task, softirq, hard interrupt: a buffer each, per CPU. */
#define NT_STACK_CONTEXTS	3

static DEFINE_PER_CPU(struct nt_stack, nt_stack_bufs[NT_STACK_CONTEXTS]);

struct nt_stack *nt_stack_get(void)
{
	unsigned int ctx;

	if (in_nmi())
		return NULL;
	ctx = in_hardirq() ? 2 : in_serving_softirq() ? 1 : 0;
	return this_cpu_ptr(&nt_stack_bufs[ctx]);
}

/*
 * The kernel's frames into @out. With @regs (kernel mode), from the
 * interrupted instruction on: the frames of the interrupt and of this
 * module before it are dropped (or, when the unwinder did not pass
 * through it, the interrupted instruction alone). Without, from the first
 * frame outside this module; with @probe (a tracepoint's probe called us),
 * less the one after it, the tracepoint's iterator, and less every frame
 * of this module the guess unwinder reports (see below); without @probe
 * (a kernel-mode writer of an event), its own frames stay.
 */
static unsigned int nt_stack_kernel(unsigned long *out, unsigned int room,
				    struct pt_regs *regs, bool probe)
{
	unsigned int n, i = 0;

	n = stack_trace_save(out, room, 0);
	if (regs) {
		while (i < n && out[i] != instruction_pointer(regs))
			i++;
		if (i == n) {
			out[0] = instruction_pointer(regs);
			return 1;
		}
	} else {
		while (i < n && within_module(out[i], THIS_MODULE))
			i++;
		if (probe && i < n)
			i++;
	}
	memmove(out, out + i, (n - i) * sizeof(*out));
	n -= i;
#ifdef CONFIG_UNWINDER_GUESS
	/*
	 * The guess unwinder reports every text address it finds on the
	 * stack, stale ones of this module's probe included: below a
	 * tracepoint's probe, none of them is the event's.
	 */
	if (!regs && probe) {
		unsigned int k = 0;

		for (i = 0; i < n; i++)
			if (!within_module(out[i], THIS_MODULE))
				out[k++] = out[i];
		n = k;
	}
#endif
	return n;
}

#ifdef CONFIG_X86_64
/* A user frame: the saved frame pointer, then the return address. */
static unsigned int nt_stack_user(unsigned long *out, unsigned int room,
				  struct pt_regs *regs)
{
	bool compat = !user_64bit_mode(regs);
	unsigned long fp = regs->bp, size = compat ? 4 : 8;
	unsigned int n = 0;

	if (!room)
		return 0;
	out[n++] = regs->ip;
	while (n < room && fp && !(fp & (size - 1))) {
		unsigned long next, ret;

		if (compat) {
			u32 f[2];

			if (copy_from_user_nofault(f, (const void __user *)fp, sizeof(f)))
				break;
			next = f[0];
			ret = f[1];
		} else {
			u64 f[2];

			if (copy_from_user_nofault(f, (const void __user *)fp, sizeof(f)))
				break;
			next = f[0];
			ret = f[1];
		}
		if (!ret)
			break;
		out[n++] = ret;
		/* Frames go up the stack: a pointer that does not is no frame. */
		if (next <= fp)
			break;
		fp = next;
	}
	return n;
}
#else
/* Elsewhere the instruction pointer alone: the frame layout is x86-64's. */
static unsigned int nt_stack_user(unsigned long *out, unsigned int room,
				  struct pt_regs *regs)
{
	if (!room)
		return 0;
	out[0] = instruction_pointer(regs);
	return 1;
}
#endif

void nt_stack_capture(struct nt_stack *st, struct pt_regs *regs)
{
	struct task_struct *t = current;
	struct pt_regs *uregs = NULL;

	st->pid = t->tgid;
	st->tid = t->pid;
	st->nr_kernel = 0;
	if (regs && user_mode(regs))
		uregs = regs;
	else
		st->nr_kernel = nt_stack_kernel(st->frames, NT_STACK_MAX, regs, true);
	if (!uregs && t->mm && !(t->flags & PF_KTHREAD))
		uregs = task_pt_regs(t);
	st->nr = st->nr_kernel;
	if (uregs)
		st->nr += nt_stack_user(st->frames + st->nr, NT_STACK_MAX - st->nr, uregs);
}

void nt_stack_capture_writer(struct nt_stack *st, bool kernel)
{
	struct task_struct *t = current;

	st->pid = t->tgid;
	st->tid = t->pid;
	st->nr_kernel = kernel ? nt_stack_kernel(st->frames, NT_STACK_MAX, NULL, false) : 0;
	st->nr = st->nr_kernel;
	/* An interrupt's writer has no user frames of its own. */
	if (!in_interrupt() && t->mm && !(t->flags & PF_KTHREAD))
		st->nr += nt_stack_user(st->frames + st->nr, NT_STACK_MAX - st->nr,
					task_pt_regs(t));
}
