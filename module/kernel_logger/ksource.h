/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel logger's sources and what they call: each source (kl_*.c,
 * one per kernel subsystem) hooks Linux tracepoints while a running system
 * logger wants its group, and writes its records with nt_kevent() or
 * nt_sys_emit() (emit.c). kernel_logger.c holds the table of sources and
 * calls their hooks, rundowns and init and exit callbacks; the rest of the
 * module sees only kernel_logger.h.
 */
#ifndef NTTRACE_KSOURCE_H
#define NTTRACE_KSOURCE_H

#include <linux/sched.h>
#include <linux/types.h>
#include <nttrace/uapi.h>

#include "sysrec.h"

struct nt_stack;
struct pt_regs;

/* A tracepoint and the probe that writes its events. */
struct nt_khook {
	const char *tracepoint;
	void *probe;
};

/*
 * The hook of tracepoint @tp by probe @fn, for a source's table. The
 * tracepoints are registered by name (kernel_logger.c), which takes
 * any function: so @fn's prototype is checked here against the one the
 * tracepoint's header (<trace/events/...>, included by the source) gives
 * check_trace_callback_type_@tp(), and a kernel whose tracepoint passes
 * other arguments fails to build rather than call the probe through a
 * pointer of the wrong type (a trap under kCFI or FineIBT, wrong
 * arguments without). The check is in sizeof, so it is never run.
 */
#define NT_KHOOK(tp, fn)						\
	{								\
		.tracepoint = #tp,					\
		.probe = __builtin_choose_expr(				\
			sizeof((check_trace_callback_type_##tp(fn), 0)), \
			(void *)(fn), NULL),				\
	}

/*
 * One source of kernel events: the group-mask bits that want it, the
 * tracepoints it hooks while wanted, and the rundown (the DCStart and
 * DCEnd events of what exists) it writes into a system logger that starts
 * or stops wanting it. The hooks' probes receive the source as their data.
 * A source of no bit (@flag 0) has only a rundown, at a system logger's
 * start, unless its mask has EVENT_TRACE_FLAG_NO_SYSCONFIG: the SysConfig
 * events. kernel_logger.c calls every source's @init at module load, in
 * the table's order, and @exit at unload, in the reverse order, once no
 * probe runs.
 */
struct nt_ksource {
	const char *name;		/* for the kernel log */
	unsigned int word;		/* the group_mask word ... */
	u32 flag;			/* ... and bits that want it (any of them) */
	const struct nt_khook *hooks;
	unsigned int nr_hooks;
	/* Write the rundown into the system logger of slot @slot; may sleep. */
	void (*rundown)(u32 slot, bool start);
	/*
	 * Optional: called before the hooks are registered (@on), and after
	 * they are unregistered and no probe of theirs runs any more (!@on),
	 * so that a source's own state (a table) starts and ends empty.
	 * A source with no tracepoints (sampling: kl_profile.c) makes and
	 * unmakes its event source here. May sleep.
	 */
	void (*hooked)(bool on);
	/* Optional: the source's memory, at module load; 0 or an errno. */
	int (*init)(void);
	/* Optional: at module unload, after every hook is gone. */
	void (*exit)(void);
};

/* The sources (kl_*.c), in kernel_logger.c's table. */
extern const struct nt_ksource nt_ks_process, nt_ks_thread, nt_ks_image;
extern const struct nt_ksource nt_ks_cswitch, nt_ks_dispatcher, nt_ks_config;
extern const struct nt_ksource nt_ks_disk_io, nt_ks_disk_io_init, nt_ks_tcpip;
extern const struct nt_ksource nt_ks_profile, nt_ks_syscall, nt_ks_valloc, nt_ks_fault;
extern const struct nt_ksource nt_ks_counters, nt_ks_fileio, nt_ks_filename;

/**
 * nt_win_priority() - a task's priority in Windows' terms
 * @t: the task
 *
 * For the thread and context switch events (kl_process.c, kl_sched.c):
 * real-time priorities map onto 16-31, nice values onto 1-15, the idle
 * task is 0.
 *
 * Return: 0 to 31.
 */
s8 nt_win_priority(const struct task_struct *t);

/**
 * typedef nt_sys_fill_t - writes one kernel record for nt_sys_emit()
 * @rec: the reserved record
 * @len: its size
 * @time_stamp: the reservation's time stamp, to write in the header
 * @clock_type: the session's clock (NTTRACE_EVENT_TRACE_CLOCK_*), for a
 *	payload that holds another time (nt_clock_at())
 * @ctx: nt_sys_emit()'s @ctx
 *
 * Writes the whole record, header and payload, with preemption off: it
 * must not sleep or fail.
 */
typedef void (*nt_sys_fill_t)(void *rec, u32 len, u64 time_stamp, u32 clock_type, void *ctx);

/**
 * nt_sys_emit() - write one kernel event into the system loggers
 * @word: the group_mask word of the event's group
 * @bit: the group's bit in @word; 0: an event of no group, written only
 *	with @only
 * @only: 0, or the slot of the one system logger to write into (a rundown
 *	for the session starting or stopping)
 * @len: the record's size
 * @fill: writes the record
 * @ctx: for @fill
 *
 * Writes into every system logger whose group mask has bit @bit of word
 * @word, or into the system logger of slot @only alone. Any context but
 * NMI (the sched_switch tracepoint included: interrupts off, the runqueue
 * locked). A full ring counts the event lost, as for any writer; a record
 * larger than the session's buffers is counted in nt_sys_dropped, and
 * said once in the kernel log.
 */
void nt_sys_emit(unsigned int word, u32 bit, u32 only, u32 len,
		 nt_sys_fill_t fill, void *ctx);

/**
 * nt_sys_wanted() - does a running system logger want a group?
 * @word: the group_mask word of the group
 * @bit: the group's bit in @word
 *
 * For a source with more than one group, to skip the work of an event
 * none wants. Any context but NMI.
 *
 * Return: true if one does (it may stop before the event is written).
 */
bool nt_sys_wanted(unsigned int word, u32 bit);

/**
 * nt_sys_emit_to() - nt_sys_emit() into some of the system loggers
 * @kaddr: -1: every one, as nt_sys_emit(); 1: only those whose records
 *	may hold kernel addresses (struct nt_session's kaddr); 0: only the
 *	others
 * @word: as nt_sys_emit()'s
 * @bit: likewise
 * @only: likewise
 * @len: likewise
 * @fill: likewise
 * @ctx: likewise
 *
 * For an event that holds a kernel address: written twice, with it for
 * kaddr 1 and without it for kaddr 0.
 */
void nt_sys_emit_to(int kaddr, unsigned int word, u32 bit, u32 only, u32 len,
		    nt_sys_fill_t fill, void *ctx);

typedef u32 (*nt_ksize_t)(const void *obj);
typedef u32 (*nt_kwrite_t)(void *buf, u32 room, const void *obj);

/**
 * nt_kevent_regs() - write one kernel event with a header of its kind
 * @kaddr: which system loggers, as nt_sys_emit_to()'s
 * @e: the event (common/sysrec.h, ntr_sr_event() of an NTR_SR_* HookId)
 * @tid: the thread ID, for a full header (a PERFINFO header has none)
 * @pid: the process ID, likewise
 * @only: 0, or the slot of the one system logger to write into (a
 *	rundown; an event of no group, @e->enable_flag 0, goes only so)
 * @size: the payload's ntr_sr_X_size() bound to @obj (NT_KCLASS below)
 * @write: the payload's ntr_sr_X_write(), likewise
 * @obj: the payload's object
 * @regs: the interrupted registers (a CPU sample's), or NULL: the
 *	caller's context
 *
 * Into the system loggers that want @e's group, by nt_sys_emit(). Any
 * context but NMI. A payload no record can hold (its strings too long) is
 * not written: counted with nt_sys_emit()'s too-large events.
 *
 * A system logger that wants stacks for @e's HookId (NTTRACE_IOC_STACKS)
 * gets a StackWalk event after it: the stack of the code @regs
 * interrupted, or of the tracepoint's caller (module/stack.h).
 */
void nt_kevent_regs(int kaddr, const struct ntr_sr_event *e, u32 tid, u32 pid, u32 only,
		    nt_ksize_t size, nt_kwrite_t write, const void *obj, struct pt_regs *regs);

/*
 * nt_kevent_regs() in the caller's context: nt_kevent_to() into some of
 * the system loggers (@kaddr), nt_kevent() into all. Inline: a context
 * switch's event should not pay two more calls.
 */
static inline void nt_kevent_to(int kaddr, const struct ntr_sr_event *e, u32 tid, u32 pid,
				u32 only, nt_ksize_t size, nt_kwrite_t write,
				const void *obj)
{
	nt_kevent_regs(kaddr, e, tid, pid, only, size, write, obj, NULL);
}

static inline void nt_kevent(const struct ntr_sr_event *e, u32 tid, u32 pid, u32 only,
			     nt_ksize_t size, nt_kwrite_t write, const void *obj)
{
	nt_kevent_regs(-1, e, tid, pid, only, size, write, obj, NULL);
}

/**
 * nt_sys_emit_stack() - nt_sys_emit_to(), then each session's StackWalk
 * @kaddr: as nt_sys_emit_to()'s
 * @word: likewise
 * @bit: likewise
 * @only: likewise
 * @len: likewise
 * @fill: likewise
 * @ctx: likewise
 * @hook: the event's HookId
 * @st: its stack, or NULL
 *
 * Each system logger that got the event and wants stacks for @hook
 * (nt_session_stack_wanted()) gets a StackWalk event of @st after it.
 * Preemption off when @st is given (it is a per-CPU buffer).
 */
void nt_sys_emit_stack(int kaddr, unsigned int word, u32 bit, u32 only, u32 len,
		       nt_sys_fill_t fill, void *ctx, u16 hook, const struct nt_stack *st);

/*
 * The size and write functions of payload class @name (ntr_sr_@name_size
 * and _write), for nt_kevent(): the records are a 64-bit kernel's.
 */
#define NT_KCLASS(name)							\
static inline u32 nt_ksize_##name(const void *obj)			\
{									\
	return ntr_sr_##name##_size(obj, false);			\
}									\
static inline u32 nt_kwrite_##name(void *buf, u32 room, const void *obj) \
{									\
	return ntr_sr_##name##_write(buf, room, obj, false);		\
}

/*
 * nt_kevent() of the constant HookId @hook, its table entry looked up once
 * per call site (the table is searched, and a context switch should not
 * search); NT_KEVENT_OF() for a HookId that varies, looked up each time.
 */
#define NT_KEVENT(hook, tid, pid, only, name, obj)			\
do {									\
	static const struct ntr_sr_event *nt_e_;			\
	const struct ntr_sr_event *e_ = READ_ONCE(nt_e_);		\
									\
	if (unlikely(!e_)) {						\
		e_ = ntr_sr_event(hook);				\
		WRITE_ONCE(nt_e_, e_);					\
	}								\
	nt_kevent(e_, tid, pid, only, nt_ksize_##name, nt_kwrite_##name, obj); \
} while (0)

#define NT_KEVENT_OF(hook, tid, pid, only, name, obj)			\
	nt_kevent(ntr_sr_event(hook), tid, pid, only, nt_ksize_##name,	\
		  nt_kwrite_##name, obj)

/**
 * nt_kernel_key() - a kernel object's identity as the records may show it
 * @ptr: the object's address
 *
 * A keyed hash (siphash, a key drawn at load by nt_kernel_key_init()) of
 * its address, so that the events of one object (a disk request's, a
 * connection's) can be tied together without writing a kernel address
 * into a file that others read.
 *
 * Return: the key.
 */
u64 nt_kernel_key(const void *ptr);

/**
 * nt_kernel_key_init() - draw nt_kernel_key()'s key, at module load
 */
void nt_kernel_key_init(void);

#endif /* NTTRACE_KSOURCE_H */
