/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Call stacks for the events that carry one (a system logger's StackWalk
 * events, module/kernel_logger/emit.c; EventWrite's stack items,
 * module/eventwrite.c): the kernel's frames, then the
 * user program's, innermost first, as Windows' StackWalk event lists
 * them. Any context but NMI. Calls no other file of the module.
 */
#ifndef NTTRACE_STACK_H
#define NTTRACE_STACK_H

#include <linux/ptrace.h>
#include <linux/types.h>

/* The most frames of a stack: Windows' StackWalk event has Stack1 to Stack192. */
#define NT_STACK_MAX	192

/**
 * struct nt_stack - a captured call stack
 * @nr: the frames in @frames
 * @nr_kernel: of them, the first that are kernel addresses
 * @pid: the process it was taken in (its TGID; 0 for the idle task)
 * @tid: the thread (its PID)
 * @frames: return addresses, innermost first: the kernel's, then the user
 *	program's
 */
struct nt_stack {
	u32 nr;
	u32 nr_kernel;
	u32 pid;
	u32 tid;
	unsigned long frames[NT_STACK_MAX];
};

/**
 * nt_stack_get() - this CPU's stack buffer for the running context
 *
 * One per CPU and context (task, softirq, hard interrupt), so that an
 * interrupt taking a stack does not overwrite the one its CPU was taking.
 * Call with preemption off and keep it off while the buffer is used.
 *
 * Return: the buffer, or NULL in NMI (no stacks are taken there).
 */
struct nt_stack *nt_stack_get(void);

/**
 * nt_stack_capture() - take the current task's call stack
 * @st: where (nt_stack_get())
 * @regs: the registers of the code an interrupt stopped (a CPU sample),
 *	or NULL: the stack of the caller's caller outside this module (a
 *	tracepoint's probe: its frames and the tracepoint's are left out)
 *
 * The kernel's frames by the kernel's unwinder (stack_trace_save()); the
 * user program's by its frame pointers, read with
 * copy_from_user_nofault(): the chain of saved frame pointers from the
 * user registers, each frame's return address beside it, until a frame
 * pointer that is 0, misaligned, not above the last one, or unreadable.
 * A program built without frame pointers (Debian's libraries are) gives
 * its instruction pointer and what its frame pointer register happens to
 * lead to: the walk stops at the first frame that does not look like one.
 * A kernel thread has no user frames. With preemption off.
 */
void nt_stack_capture(struct nt_stack *st, struct pt_regs *regs);

/**
 * nt_stack_capture_writer() - take the stack of a writer of an event
 * @st: where (any memory)
 * @kernel: the writer is in the kernel (a kernel-mode provider): its
 *	kernel frames first, from the first outside this module
 *
 * For an EventWrite record's stack item: the writing thread's user frames
 * as nt_stack_capture() takes them, unless the writer is an interrupt
 * (which has none of its own); a user-mode writer's kernel frames (this
 * module's system call) are not taken. Any context but NMI.
 */
void nt_stack_capture_writer(struct nt_stack *st, bool kernel);

#endif /* NTTRACE_STACK_H */
