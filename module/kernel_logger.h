/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own events for the system loggers (the NT Kernel Logger's
 * events): each source (module/kl_*.c) hooks Linux tracepoints while a
 * running system logger wants its group, and writes its records with
 * nt_sys_emit() (module/session.h).
 */
#ifndef NTTRACE_KERNEL_LOGGER_H
#define NTTRACE_KERNEL_LOGGER_H

#include <linux/sched.h>
#include <linux/types.h>
#include <nttrace/uapi.h>

#include "sysrec.h"

/* A tracepoint and the probe that writes its events. */
struct nt_khook {
	const char *tracepoint;
	void *probe;
};

/*
 * The hook of tracepoint @tp by probe @fn, for a source's table. The
 * tracepoints are registered by name (module/kernel_logger.c), which takes
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
 * One source of kernel events: the group-mask bit that wants it, the
 * tracepoints it hooks while wanted, and the rundown (the DCStart and
 * DCEnd events of what exists) it writes into a system logger that starts
 * or stops wanting it. The hooks' probes receive the source as their data.
 * A source of no bit (@flag 0) has only a rundown, at a system logger's
 * start, unless its mask has EVENT_TRACE_FLAG_NO_SYSCONFIG: the SysConfig
 * events.
 */
struct nt_ksource {
	const char *name;		/* for the kernel log */
	unsigned int word;		/* the group_mask word ... */
	u32 flag;			/* ... and bit that want it */
	const struct nt_khook *hooks;
	unsigned int nr_hooks;
	/* Write the rundown into the system logger of slot @slot; may sleep. */
	void (*rundown)(u32 slot, bool start);
	/*
	 * Optional: called before the hooks are registered (@on), and after
	 * they are unregistered and no probe of theirs runs any more (!@on),
	 * so that a source's own state (a table) starts and ends empty.
	 * May sleep.
	 */
	void (*hooked)(bool on);
};

/* The sources (module/kl_*.c), in module/kernel_logger.c's table. */
extern const struct nt_ksource nt_ks_process, nt_ks_thread, nt_ks_image;
extern const struct nt_ksource nt_ks_cswitch, nt_ks_dispatcher, nt_ks_config;
extern const struct nt_ksource nt_ks_disk_io, nt_ks_disk_io_init, nt_ks_tcpip;

/* module/kl_process.c's scratch memory, at load and unload. */
int nt_kl_process_init(void);
void nt_kl_process_exit(void);

/*
 * A task's priority in Windows' terms (0-31), for the thread and context
 * switch events: see module/kl_sched.c.
 */
s8 nt_win_priority(const struct task_struct *t);

/*
 * Write one kernel event @e (common/sysrec.h, ntr_sr_event() of an NTR_SR_*
 * HookId) into the system loggers that want its group (or, @only
 * non-zero, into the system logger of slot @only alone: a rundown; an
 * event of no group, @e->enable_flag 0, goes only so). @size and @write
 * are the payload's ntr_sr_X_size() and _write() bound to @obj (NT_KCLASS
 * below); @tid and @pid go in a full header (a PERFINFO header has none).
 * Any context but NMI. A payload no record can hold (its strings too long)
 * is not written: counted with nt_sys_emit()'s too-large events.
 */
typedef u32 (*nt_ksize_t)(const void *obj);
typedef u32 (*nt_kwrite_t)(void *buf, u32 room, const void *obj);

void nt_kevent(const struct ntr_sr_event *e, u32 tid, u32 pid, u32 only, nt_ksize_t size,
	       nt_kwrite_t write, const void *obj);

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

/*
 * A kernel object's identity as the records may show it: a keyed hash
 * (siphash, a key drawn at load) of its address, so that the events of one
 * object (a disk request's, a connection's) can be tied together without
 * writing a kernel address into a file that others read.
 */
u64 nt_kernel_key(const void *ptr);

/*
 * The running system loggers' groups changed (a start, an update, a
 * stop): hook the sources some system logger wants, unhook the others.
 * May sleep; call with no lock of module/session.c held.
 */
void nt_kernel_logger_update(void);

/*
 * System logger @slot started (@start) or is stopping with groups @mask:
 * write the rundown of each source it wants into it alone. May sleep.
 */
void nt_kernel_logger_rundown(u32 slot, const u32 *mask, bool start);

/* The group_mask[0] bits some source writes (NTTRACE_IOC_VERSION: system_flags). */
u32 nt_kernel_logger_flags(void);

/* Module load: the key of nt_kernel_key(), the sources' memory. */
int nt_kernel_logger_init(void);

/* Module unload, after every session stopped: nothing stays hooked. */
void nt_kernel_logger_exit(void);

#endif /* NTTRACE_KERNEL_LOGGER_H */
