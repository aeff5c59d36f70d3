/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Logger sessions: the table of running loggers, their properties, rings
 * and life cycle (StartTrace / ControlTrace semantics).
 *
 * ---- Locking: nttrace's lock order, stated here only ----
 *
 * A lock is taken only with locks above it in this list held:
 *
 *   a consumer file's attach lock (struct nt_file.lock, module/consumer.c)
 *   nt_start_lock (module/session.c): one session start at a time, up to
 *     the session's place in the table; not held for a system logger's
 *     rundown, which follows
 *   a session's ctl_lock (struct nt_session below): its STOP, UPDATE, or
 *     its start until the rundown is written (the rundowns and the
 *     hooking of the kernel's sources run under it)
 *   nt_klog_lock (module/kernel_logger/kernel_logger.c): which kernel
 *     sources are hooked; taken with no lock of nttrace held but a
 *     ctl_lock
 *   nt_profile_lock (module/kernel_logger/kl_profile.c): the sampling's
 *     perf events and interval; cpuhp_setup_state() and
 *     perf_event_period() take cpu_hotplug_lock under it
 *   tracepoints_mutex (the kernel's, in tracepoint_probe_register() and
 *     _unregister(), under nt_klog_lock)
 *   cpu_hotplug_lock (cpus_read_lock(), around a session's ring flushes
 *     and its readers' changes; the kernel takes it under tracepoints_mutex
 *     to switch a tracepoint's static key, and holds it for writing around
 *     the CPU hotplug callbacks, which take nt_loggers_lock)
 *   nt_provider_lock (module/provider.c): the provider table
 *   nt_loggers_lock (module/session.c): the logger table
 *   a session's rings_lock (struct nt_session below)
 *   leaves, spinlocks: a file's notification queue lock
 *     (struct nt_prov_file.lock, module/provider.h), nt_reg_users_lock
 *     (module/policy.c), nt_security_lock (module/security.c), a tag
 *     table's set locks (module/kernel_logger/kl_tags.c, raw, taken by
 *     the kernel sources' probes in any context)
 *
 * nt_provider_lock and nt_loggers_lock are in fact never held together:
 * a session's start tells the providers (struct nt_session_hooks'
 * started, which takes nt_provider_lock) under nt_start_lock with
 * nt_loggers_lock not held, its stop (stopped) with no lock held, and
 * ENABLE takes nt_loggers_lock (nt_session_get_enable()) before
 * nt_provider_lock and not under it.
 *
 * A process's mmap_lock is in no chain of these: under nt_provider_lock
 * it is only tried (mmap_read_trylock(): provider.c writing an enable
 * info), and the enable info's fault work and the kernel sources (their
 * rundowns, a task's image work) take it with no lock of nttrace held.
 * The rundowns take no mmap_lock but by mmap_read_trylock() either.
 *
 * A kernel registration's callback (nt_provider_register_kernel()) runs
 * with none of these held. lockdep checks the order in the debug kernel's
 * runs (Documentation/testing.md).
 */
#ifndef NTTRACE_SESSION_H
#define NTTRACE_SESSION_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "area.h"
#include "ring.h"

/* A system logger's HookIds with stacks, ascending, for a binary search. */
struct nt_stack_list {
	struct rcu_head rcu;
	u32 nr;
	u16 hooks[];
};

struct nt_session {
	struct kref ref;
	u32 id;
	char name[NTTRACE_NAME_MAX];
	u32 log_file_mode;
	u32 min_buffers;
	u32 flush_timer;	/* seconds (each ring's timer: conf.flush_jiffies) */
	bool secure;		/* NTTRACE_EVENT_TRACE_SECURE_MODE: see nt_writer_rules() */
	bool system;		/* a system logger (uapi/nttrace.h, "System loggers") */
	bool kernel_logger;	/* the NT Kernel Logger: its ID is NTTRACE_KERNEL_LOGGER_ID */
	/*
	 * A system logger started with PROFILE by a caller who may see kernel
	 * addresses (nt_kernel_address_reader()): its records may hold them,
	 * and only readers who may see them too attach. Set before it is
	 * listed.
	 */
	bool kaddr;
	/*
	 * A system logger's events with stacks (NTTRACE_IOC_STACKS), or
	 * NULL: replaced under nt_loggers_lock, read under RCU-sched by the
	 * kernel logger's emitter (nt_session_stack_wanted()).
	 */
	struct nt_stack_list __rcu *stacks;
	/*
	 * A system logger's groups: written under nt_loggers_lock, read
	 * with READ_ONCE() by the kernel's event sources (nt_sys_emit()).
	 */
	u32 group_mask[NTTRACE_GROUP_MASKS];
	kuid_t owner_uid;
	kuid_t quota_uid;		/* charged for it: nt_quota_uid() */
	struct pid *owner_pid;		/* reported in the reader's namespace */
	struct pid_namespace *pid_ns;	/* the IDs events carry are from here */
	size_t mem_reserved;		/* nt_mem_reserve()d, given back at release */

	struct nt_ring_conf conf;
	struct nt_ring *rings;		/* one per possible CPU, or the shared one */
	unsigned int nr_rings;
	/*
	 * NTTRACE_EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING: one ring that every
	 * CPU writes, its producer side held through @shared_lock (from each
	 * reservation to its commit, interrupts off), so that the records of
	 * all CPUs lie in one stream in time-stamp order.
	 */
	bool shared;
	struct nt_ring_lock shared_lock;
	u64 shared_last_ts;	/* the shared ring's last time stamp, under its lock */
	atomic_t *event_seq; /* NTTRACE_TRACE_MESSAGE_SEQUENCE numbers: local or global */
	/*
	 * This session's sequence, written by every event with SEQUENCE on
	 * every CPU: a cache line of its own, so that the fields above, which
	 * every event reads, are not taken from the CPUs with it.
	 */
	atomic_t local_seq ____cacheline_aligned_in_smp;

	/* The three mapped regions (see struct nttrace_attach). */
	struct nt_area heads_area ____cacheline_aligned_in_smp;
	struct nt_area acks_area, data_area;
	struct nttrace_session_head *heads;
	size_t heads_size;
	struct nttrace_ring_ack *acks;	/* slot 0's; each slot's acks_size bytes */
	size_t acks_size;		/* one consumer's */
	u8 *data;
	size_t data_size;

	struct irq_work wake_work;	/* a buffer was published */
	wait_queue_head_t wq;		/* consumers poll here */
	/*
	 * Ring state changed from outside its CPU (flushes, consumers), one
	 * change at a time; guards stopped, and readers' changes.
	 */
	struct mutex rings_lock;
	bool stopped;
	u32 readers;			/* consumer slots attached */
	/*
	 * The security provider was enabled into it (for good: its buffers
	 * may hold those events): only a reader of security events may
	 * attach; and the slots attached by consumers who are not such
	 * readers, which keep the provider from being enabled into it.
	 */
	bool security;
	u32 plain_readers;
	/*
	 * STOP and UPDATE, one at a time, and the start until its rundown is
	 * written: while it is held the session keeps its slot, so that a
	 * rundown written by slot reaches this session and no other.
	 * unlisted: taken off the table, under this and nt_loggers_lock
	 * (under nt_loggers_lock alone at module unload, when no call runs).
	 */
	struct mutex ctl_lock;
	bool unlisted;
};

/* The logger's consumer slot; real-time consumers take the others. */
#define NT_LOGGER_SLOT	0

/**
 * nt_holders() - the consumers that hold buffers until they have read them
 * @readers: the consumer slots attached (bit per slot)
 *
 * Return: the logger's slot if it is attached, else every real-time
 * consumer's (see uapi/nttrace.h).
 */
static inline u32 nt_holders(u32 readers)
{
	return readers & BIT(NT_LOGGER_SLOT) ? BIT(NT_LOGGER_SLOT) : readers;
}

#define NT_HEAD_STRIDE	sizeof(struct nttrace_ring_head)
#define NT_ACK_STRIDE	sizeof(struct nttrace_ring_ack)

/**
 * nt_session_ids() - the current thread's and process's IDs for an event
 * @s: the session the event is for
 * @tid: the thread ID
 * @pid: the process ID
 *
 * Those of the PID namespace the session was started in (0 for a caller
 * outside it). The initial namespace's IDs are the task's own: no lookup.
 */
static inline void nt_session_ids(const struct nt_session *s, u32 *tid, u32 *pid)
{
	if (s->pid_ns == &init_pid_ns) {
		*tid = current->pid;
		*pid = current->tgid;
	} else {
		*tid = task_pid_nr_ns(current, s->pid_ns);
		*pid = task_tgid_nr_ns(current, s->pid_ns);
	}
}

/**
 * nt_session_public_id() - the logger ID callers see
 * @s: the session
 *
 * Return: its slot, or NTTRACE_KERNEL_LOGGER_ID for the NT Kernel Logger.
 */
static inline u32 nt_session_public_id(const struct nt_session *s)
{
	return s->kernel_logger ? NTTRACE_KERNEL_LOGGER_ID : s->id;
}

/**
 * struct nt_session_hooks - what the layers above hear of sessions
 * @started: session @logger_id (its slot) is starting: ENABLE takes it
 *	from now on. Called under nt_start_lock, before the session is on
 *	the logger table.
 * @stopped: session @logger_id is off the logger table: ENABLE refuses it
 *	from now on and its enables are dropped. Called with no lock of
 *	session.c held (kernel providers' callbacks run there and may call
 *	in), before the logger ID may be given to a new session. May sleep.
 * @groups_changed: the union of the running system loggers' group masks
 *	may have changed (a start, an update, a stop): hook the kernel's
 *	event sources some system logger wants, unhook the others. Called
 *	under the session's ctl_lock or with no lock of session.c held.
 *	May sleep.
 * @rundown: system logger @slot started (@start) or is stopping, or its
 *	groups grew: write the rundown of the groups in @mask into it alone.
 *	Called under the session's ctl_lock. May sleep.
 * @groups_built: the group_mask[0] bits some kernel source writes events
 *	for; a system logger's START or UPDATE asking for another group (or
 *	any bit of the other words) is refused with -EOPNOTSUPP. Any
 *	context; NULL: every group is taken.
 *
 * The session layer calls no file above it: the providers (provider.c)
 * and the kernel logger (kernel_logger/) are told through these, which
 * module/main.c sets once at load, before /dev/nttrace exists. Any of
 * them may be NULL.
 */
struct nt_session_hooks {
	void (*started)(u32 logger_id);
	void (*stopped)(u32 logger_id);
	void (*groups_changed)(void);
	void (*rundown)(u32 slot, const u32 *mask, bool start);
	u32 (*groups_built)(void);
};

/**
 * nt_session_set_hooks() - set what sessions' starts and stops call
 * @hooks: the hooks, alive until the module is unloaded
 *
 * Called once at module load, before any session can start.
 */
void nt_session_set_hooks(const struct nt_session_hooks *hooks);

/**
 * nt_session_get_hooks() - the hooks nt_session_set_hooks() set
 *
 * For KUnit tests that stand in for the layers above a while (and put
 * them back).
 *
 * Return: the hooks, or NULL.
 */
const struct nt_session_hooks *nt_session_get_hooks(void);

/**
 * nt_session_start() - NTTRACE_IOC_START (StartTrace)
 * @info: the caller's properties; filled in with the session's
 *
 * Needs nt_privileged() (a system logger: nt_privileged_system()). A
 * system logger's rundown is written before this returns. May sleep.
 *
 * Return: 0, or an errno (uapi/nttrace.h, "Sessions").
 */
int nt_session_start(struct nttrace_logger_info *info);

/**
 * nt_session_control() - NTTRACE_IOC_CONTROL (ControlTrace)
 * @info: the caller's request (its control code and session); filled in
 *	with the session's properties
 *
 * QUERY, STOP, UPDATE and FLUSH. May sleep.
 *
 * Return: 0, or an errno (uapi/nttrace.h, "Sessions").
 */
int nt_session_control(struct nttrace_logger_info *info);

/**
 * nt_session_list() - the logger IDs of the running sessions
 * @ids: where to put them
 * @room: how many @ids holds
 * @count: how many sessions run (may be more than @room)
 *
 * Return: 0.
 */
int nt_session_list(u32 *ids, u32 room, u32 *count);

/**
 * nt_sessions_stop_all() - module unload: stop every session
 *
 * Called once no call can come in (the device is gone).
 */
void nt_sessions_stop_all(void);

/**
 * nt_session_get_consumable() - a session the caller may consume
 * @id: its logger ID
 *
 * Return: a reference (nt_session_put() gives it back), or an ERR_PTR():
 * -EPERM (not privileged, or a system logger and not
 * nt_privileged_system()), -ENOENT (none runs), -EXDEV (started in another
 * PID namespace).
 */
struct nt_session *nt_session_get_consumable(u32 id);

/**
 * nt_session_put() - drop a reference to a session
 * @s: the session; freed with the last reference
 */
void nt_session_put(struct nt_session *s);

/**
 * nt_sessions_cpu_offline() - CPU hotplug: @cpu is going down
 * @cpu: the CPU
 *
 * Publish what every session's ring of @cpu holds.
 */
void nt_sessions_cpu_offline(unsigned int cpu);

/**
 * nt_session_attach() - a consumer attaches
 * @s: the session, held
 * @realtime: a real-time consumer; false: the logger
 *
 * nt_session_detach() gives the slot back. May sleep.
 *
 * Return: its slot, or -EBUSY (a logger already, or no slot free), or
 * -EPERM (the security provider's events are in it and the caller may not
 * read them: nt_session_get_enable(); or its records may hold kernel
 * addresses and the caller may not see them: nt_kernel_address_reader()).
 */
int nt_session_attach(struct nt_session *s, bool realtime);

/**
 * nt_session_get_enable() - the session an ENABLE of a provider names
 * @logger_id: a slot, 1 to NTTRACE_MAX_LOGGERS
 * @security: the security provider is about to be enabled into it
 *
 * For module/provider.c. With @security, from now on only readers of
 * security events (nt_security_reader()) may attach to the session. The
 * enable must then check nt_session_listed() under nt_provider_lock: the
 * slot may have been given to another session meanwhile. Takes
 * nt_loggers_lock and rings_lock; may sleep.
 *
 * Return: a reference to the running session, or an ERR_PTR(): -ENOENT
 * (none runs), -EPERM (a system logger, and the caller is not
 * nt_privileged_system(): the rule of every operation on one), -EINVAL
 * (the NT Kernel Logger, named by its slot: it takes no provider),
 * -EBUSY (@security, and a consumer who is no reader of security events
 * is attached).
 */
struct nt_session *nt_session_get_enable(u32 logger_id, bool security);

/**
 * nt_session_listed() - is a held session still on the logger table?
 * @s: the session, held
 *
 * Under nt_provider_lock, true means its stop has not yet dropped its
 * enables (it will, after the caller). Takes no lock.
 *
 * Return: true if it is listed.
 */
bool nt_session_listed(const struct nt_session *s);

/**
 * nt_session_detach() - a consumer gives its slot back
 * @s: the session, held
 * @slot: the slot nt_session_attach() gave
 *
 * Wakes a STOP waiting for its consumers. May sleep.
 */
void nt_session_detach(struct nt_session *s, unsigned int slot);

/*
 * One record reserved in a session, from any context but NMI:
 * nt_reserve_rules() (or nttrace_reserve(), module/write.h) finds the
 * running session, turns preemption off and reserves the record on this
 * CPU's ring (interrupts off for the reservation only); the caller fills
 * the record, with interrupts as it had them; then exactly one of
 * nttrace_commit() or nttrace_discard() must follow, without sleeping, and
 * turns preemption back on. Writers interrupted on one CPU end in the
 * reverse order of their reservations, as interrupts nest. In a session
 * with one shared ring, the reservation holds the ring's lock and keeps
 * interrupts off until the commit or discard (@irq_flags: as they were).
 */
struct nttrace_reservation {
	struct nt_session *session;
	struct nt_ring *ring;
	void *rec;
	u32 len;
	u64 time_stamp;		/* the session's clock at the reservation */
	unsigned long irq_flags;
};

/**
 * nttrace_commit() - the reserved record is written
 * @res: the reservation
 *
 * Turns preemption back on.
 */
void nttrace_commit(struct nttrace_reservation *res);

/**
 * nttrace_discard() - the reserved record is given back, unwritten
 * @res: the reservation
 *
 * Turns preemption back on.
 */
void nttrace_discard(struct nttrace_reservation *res);

/**
 * nt_session_flush() - publish every ring's partly filled buffer
 * @s: the session, held
 *
 * Takes cpu_hotplug_lock and rings_lock; may sleep.
 */
void nt_session_flush(struct nt_session *s);

/**
 * nt_session_has_unread() - is there a buffer a consumer has not read?
 * @s: the session
 * @slot: the consumer's slot
 *
 * Return: true if a buffer was published that @slot has not read.
 */
bool nt_session_has_unread(struct nt_session *s, unsigned int slot);

/*
 * The rules of a writer, for nt_writer_check() and nt_reserve_rules()
 * (nttrace_reserve() is NT_WRITE_KERNEL):
 * NT_WRITE_USER:       a user-mode caller: a secure session takes it only
 *                      from its owner or with NT_WRITE_PRIVILEGED (the
 *                      caller checked nt_privileged(), which may sleep)
 * NT_WRITE_NO_SECURE:  a secure session refuses it from anyone
 *                      (TRACE_INSTANCE, as Windows')
 * NT_WRITE_KERNEL:     a kernel-mode caller: an NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY
 *                      session refuses it
 * NT_WRITE_FORGE:      the record could pass for one the kernel wrote (a raw
 *                      record, a TRACE_SYSTEM HookId of a kernel group): a
 *                      system logger refuses it (-EPERM) unless
 * NT_WRITE_SYSTEM:     the caller checked nt_privileged_system() (which may
 *                      sleep), as starting a system logger asks
 * NT_WRITE_SYSTEM_ONLY: a session that is no system logger refuses it
 *                      (-EINVAL: TRACE_SYSTEM)
 * Decided on the session the reservation finds: a slot given to another
 * session since an earlier check is judged as that session.
 */
#define NT_WRITE_USER		0x1U
#define NT_WRITE_PRIVILEGED	0x2U
#define NT_WRITE_NO_SECURE	0x4U
#define NT_WRITE_KERNEL		0x8U
#define NT_WRITE_FORGE		0x10U
#define NT_WRITE_SYSTEM		0x20U
#define NT_WRITE_SYSTEM_ONLY	0x40U

/**
 * nt_writer_check() - would a session take an event under these rules?
 * @logger_id: the session
 * @rules: NT_WRITE_*
 *
 * Any context but NMI. The answer may change before nt_reserve_rules(),
 * which checks again.
 *
 * Return: 0, or -EBADF (not running), -EINVAL (no system logger,
 * NT_WRITE_SYSTEM_ONLY), -EACCES (secure), -EPERM (a system logger,
 * NT_WRITE_FORGE without NT_WRITE_SYSTEM), -EOPNOTSUPP (paged memory,
 * kernel-mode caller).
 */
int nt_writer_check(u32 logger_id, unsigned int rules);

/**
 * nt_reserve_rules() - nttrace_reserve() under writer rules, in errno
 * @logger_id: the session
 * @len: the record's size
 * @res: filled in, for nttrace_commit() or nttrace_discard()
 * @rules: NT_WRITE_*
 *
 * The same contract as nttrace_reserve() (commit or discard must follow).
 * The rules are checked before anything is reserved.
 *
 * Return: the record, or an ERR_PTR() (module/write.h lists the errors):
 * the rules' error as nt_writer_check() gives it, -EMSGSIZE (@len never
 * fits a buffer), -ENOSPC (the ring is full; the event is counted lost).
 */
void *nt_reserve_rules(u32 logger_id, u32 len, struct nttrace_reservation *res,
		       unsigned int rules);

/*
 * ---- System loggers ----
 *
 * The kernel logger (module/kernel_logger/) writes the kernel's own events
 * into the system loggers that want their group; these tell it which.
 */

/**
 * nt_system_slots() - the slots of the running system loggers
 *
 * Any context but NMI; no lock. A slot may have been given to another
 * session by the time the caller reserves in it: nt_reserve_rules() finds
 * the session that holds it then.
 *
 * Return: bit (slot - 1) for each running system logger.
 */
u64 nt_system_slots(void);

/**
 * nt_system_slot_wants() - does the session in a slot want a group?
 * @slot: a slot of the logger table, 1 to NTTRACE_MAX_LOGGERS
 * @word: the group_mask word of the group
 * @bit: the group's bit in it; 0: any system logger
 * @kaddr: -1; else only a system logger whose kaddr (struct nt_session)
 *	is @kaddr
 *
 * Any context but NMI (an RCU-sched read side).
 *
 * Return: true if a system logger runs in @slot, its group mask has @bit
 * of @word (or @bit is 0), and its kaddr is @kaddr (or @kaddr is -1).
 */
bool nt_system_slot_wants(u32 slot, unsigned int word, u32 bit, int kaddr);

/**
 * nt_session_is_system() - is a running session a system logger?
 * @logger_id: the session (NTTRACE_KERNEL_LOGGER_ID too)
 *
 * Any context but NMI; the answer may be stale by the time the caller
 * writes.
 *
 * Return: 1 or 0, or -EBADF: none runs.
 */
int nt_session_is_system(u32 logger_id);

/**
 * nt_session_flush_id() - flush a running session, if there is one
 * @logger_id: the session
 *
 * May sleep.
 */
void nt_session_flush_id(u32 logger_id);

/**
 * nt_session_stacks() - NTTRACE_IOC_STACKS: a system logger's events with stacks
 * @st: the ioctl's struct, its size and flags checked; @count set on return
 * @hooks: the HookIds: read from (set: @st->count of them, copied in by the
 *	caller) or written to (read: room for NTTRACE_STACKS_MAX)
 *
 * As uapi/nttrace.h's "Stacks of kernel events" says. May sleep.
 *
 * Return: 0, -ENOENT, -EPERM, -EINVAL, -EOPNOTSUPP (a HookId the module
 * never writes) or -ENOMEM.
 */
int nt_session_stacks(struct nttrace_stacks *st, u16 *hooks);

/**
 * nt_stack_hook_wanted() - does some system logger want stacks for @hook?
 * @hook: a HookId
 *
 * Any context; no lock: a quick test before taking a stack, which
 * nt_session_stack_wanted() then asks of each session.
 *
 * Return: true if some running system logger's list has @hook.
 */
bool nt_stack_hook_wanted(u16 hook);

/**
 * nt_session_stack_wanted() - does @s want a stack after @hook's events?
 * @s: a system logger, held by a reservation (RCU-sched)
 * @hook: a HookId
 *
 * Return: true if its list has @hook.
 */
bool nt_session_stack_wanted(const struct nt_session *s, u16 hook);

/**
 * nt_system_groups() - the union of the running system loggers' groups
 * @mask: filled in, NTTRACE_GROUP_MASKS words
 *
 * For the kernel logger to know which tracepoints to hook. Takes
 * nt_loggers_lock.
 */
void nt_system_groups(u32 mask[NTTRACE_GROUP_MASKS]);

#endif /* NTTRACE_SESSION_H */
