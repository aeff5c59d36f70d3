// SPDX-License-Identifier: GPL-2.0
/*
 * Logger sessions. The table maps logger IDs 1..NTTRACE_MAX_LOGGERS to
 * running sessions; control operations take nt_loggers_lock, producers find
 * a session with preemption off (an RCU read-side section to their commit),
 * and stopping a session waits for them with synchronize_rcu() before the
 * final flush.
 * Who may do what, and the limits, are in module/policy.c.
 *
 * Lock order: module/session.h, "Locking".
 *
 * Choices where ETW differs or is silent:
 * - Rings are mapped into the consumer, so they cannot grow: every CPU gets
 *   max_buffers buffers at start; min_buffers is checked and reported.
 *   Left at 0, max_buffers is NTTRACE_DEFAULT_BUFFERS, or fewer (not below
 *   min_buffers) when that would not fit max_session_mb: so the defaults
 *   start a session on a machine with many possible CPUs.
 * - buffer_size_kb is rounded up to whole pages, as ETW rounds sizes.
 * - Session names compare without regard to ASCII case, as in Windows.
 * - NTTRACE_TRACE_MESSAGE_SEQUENCE numbers come from one counter for all sessions
 *   in NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE mode, else from the session's own
 *   (NTTRACE_EVENT_TRACE_USE_LOCAL_SEQUENCE, and the default: Windows leaves the
 *   number unspecified there; counting per session is the useful choice).
 */
#include <kunit/visibility.h>
#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/cred.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <nttrace/wdm.h>

#include "policy.h"
#include "session.h"
#include "sysrec.h"
#include "trace.h"

/* Starts are serialized: a name and ID found free stay free until used. */
static DEFINE_MUTEX(nt_start_lock);
static DEFINE_MUTEX(nt_loggers_lock);
static struct nt_session __rcu *nt_loggers[NTTRACE_MAX_LOGGERS + 1];
/*
 * Logger IDs of sessions off the table whose providers are being told
 * (nt_session_unlisted()): not free yet. Under nt_loggers_lock.
 */
static DECLARE_BITMAP(nt_ids_stopping, NTTRACE_MAX_LOGGERS + 1);
static atomic_t nt_global_seq = ATOMIC_INIT(0);
/*
 * The slot of the NT Kernel Logger (0: not running), which callers name
 * NTTRACE_KERNEL_LOGGER_ID; and the slots of all system loggers (bit
 * slot - 1), for nt_system_slots(). Written under nt_loggers_lock.
 */
static u32 nt_kernel_slot;
static u64 nt_sys_slots;

/* What the layers above are told of sessions: set once, at module load. */
static const struct nt_session_hooks *nt_hooks;

void nt_session_set_hooks(const struct nt_session_hooks *hooks)
{
	WRITE_ONCE(nt_hooks, hooks);
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_set_hooks);

const struct nt_session_hooks *nt_session_get_hooks(void)
{
	return READ_ONCE(nt_hooks);
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_get_hooks);

static void nt_hook_started(u32 logger_id)
{
	const struct nt_session_hooks *h = READ_ONCE(nt_hooks);

	if (h && h->started)
		h->started(logger_id);
}

static void nt_hook_stopped(u32 logger_id)
{
	const struct nt_session_hooks *h = READ_ONCE(nt_hooks);

	if (h && h->stopped)
		h->stopped(logger_id);
}

static void nt_hook_groups(void)
{
	const struct nt_session_hooks *h = READ_ONCE(nt_hooks);

	if (h && h->groups_changed)
		h->groups_changed();
}

static void nt_hook_rundown(u32 slot, const u32 *mask, bool start)
{
	const struct nt_session_hooks *h = READ_ONCE(nt_hooks);

	if (h && h->rundown)
		h->rundown(slot, mask, start);
}

/*
 * -EOPNOTSUPP if the system logger group mask @mask asks for a group no
 * kernel source writes (NO_SYSCONFIG asks for less, and is always
 * taken): a group taken and never written would look like a machine
 * where nothing happened. Else 0.
 */
static int nt_groups_built(const u32 *mask)
{
	const struct nt_session_hooks *h = READ_ONCE(nt_hooks);
	unsigned int i;
	u32 built;

	if (!h || !h->groups_built)
		return 0;
	built = h->groups_built() | NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG;
	if (mask[0] & ~built)
		return -EOPNOTSUPP;
	for (i = 1; i < NTTRACE_GROUP_MASKS; i++)
		if (mask[i])
			return -EOPNOTSUPP;
	return 0;
}

/* A logger ID as callers give it, as a slot of the table (0: none). */
static u32 nt_slot_of(u32 id)
{
	return id == NTTRACE_KERNEL_LOGGER_ID ? READ_ONCE(nt_kernel_slot) : id;
}

static bool nt_is_kernel_logger_name(const u8 *name)
{
	return !strncasecmp(name, NTTRACE_KERNEL_LOGGER_NAME, NTTRACE_NAME_MAX);
}

static void nt_session_release(struct kref *ref)
{
	struct nt_session *s = container_of(ref, struct nt_session, ref);
	unsigned int cpu;

	if (s->rings)
		for (cpu = 0; cpu < s->nr_rings; cpu++)
			nt_ring_destroy(&s->rings[cpu]);
	kfree(s->rings);
	if (s->pid_ns)
		put_pid_ns(s->pid_ns);
	put_pid(s->owner_pid);
	nt_area_free(&s->heads_area);
	nt_area_free(&s->acks_area);
	nt_area_free(&s->data_area);
	nt_mem_unreserve(s->mem_reserved);
	/* No writer holds it: the session's last reference is gone. */
	kfree(rcu_access_pointer(s->stacks));
	kfree(s);
}

void nt_session_put(struct nt_session *s)
{
	kref_put(&s->ref, nt_session_release);
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_put);

static void nt_session_wake(struct irq_work *work)
{
	struct nt_session *s = container_of(work, struct nt_session, wake_work);

	wake_up_all(&s->wq);
}

/*
 * A ring's CPU is offline or going down, or the session stopped: no
 * producer runs on it. A shared ring is held as its writers hold it.
 */
static void nt_flush_here(struct nt_ring *r)
{
	unsigned long irq;

	local_irq_save(irq);
	if (r->conf->shared)
		nt_ring_lock(r->conf->shared);
	nt_ring_flush(r);
	if (r->conf->shared)
		nt_ring_unlock(r->conf->shared);
	local_irq_restore(irq);
}

struct nt_ring_call {
	void (*fn)(struct nt_ring *r, void *arg);
	struct nt_ring *ring;
	void *arg;
};

static void nt_ring_call_here(void *info)
{
	struct nt_ring_call *call = info;

	call->fn(call->ring, call->arg);
}

/*
 * Run @fn(ring, @arg) on each ring of @s (those for which @want, when not
 * NULL, is true) with interrupts off, where no producer of the ring can
 * run meanwhile. A ring's producer state belongs to its CPU, where
 * producers change it with interrupts off: an online CPU's ring is changed
 * there, in an IPI handler (which may find a producer between its
 * reservation and its commit: see nt_ring_flush()). An offline CPU has no producer, and cannot
 * come up while we hold the hotplug lock; a stopped session has none.
 */
static void nt_session_each_ring(struct nt_session *s,
				 void (*fn)(struct nt_ring *r, void *arg),
				 void *arg, bool (*want)(struct nt_ring *r))
{
	struct nt_ring_call call = { .fn = fn, .arg = arg };
	unsigned int cpu;
	unsigned long irq;

	/* The caller holds the hotplug lock too (not exported to check). */
	lockdep_assert_held(&s->rings_lock);
	for (cpu = 0; cpu < s->nr_rings; cpu++) {
		call.ring = &s->rings[cpu];
		if (want && !want(call.ring))
			continue;
		if (s->shared) {
			/* Every CPU writes it, each holding its lock: so do we. */
			local_irq_save(irq);
			nt_ring_lock(&s->shared_lock);
			fn(call.ring, arg);
			nt_ring_unlock(&s->shared_lock);
			local_irq_restore(irq);
		} else if (!s->stopped && cpu_online(cpu)) {
			smp_call_function_single(cpu, nt_ring_call_here, &call, 1);
		} else {
			local_irq_save(irq);
			fn(call.ring, arg);
			local_irq_restore(irq);
		}
	}
}

static void nt_ring_flush_fn(struct nt_ring *r, void *arg)
{
	nt_ring_flush(r);
}

void nt_session_flush(struct nt_session *s)
{
	cpus_read_lock();
	mutex_lock(&s->rings_lock);
	/* Only rings with a partly filled buffer: no IPI for nothing. */
	if (!s->stopped)
		nt_session_each_ring(s, nt_ring_flush_fn, NULL, nt_ring_has_partial);
	mutex_unlock(&s->rings_lock);
	cpus_read_unlock();
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_flush);

bool nt_session_has_unread(struct nt_session *s, unsigned int slot)
{
	unsigned int cpu;

	for (cpu = 0; cpu < s->nr_rings; cpu++)
		if (nt_ring_unread(&s->rings[cpu], BIT(slot)))
			return true;
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_has_unread);

/* Names: 1..63 printable ASCII characters, NUL, then zeros. */
static int nt_check_name(const u8 *name)
{
	size_t len = strnlen(name, NTTRACE_NAME_MAX), i;

	if (len == 0 || len == NTTRACE_NAME_MAX)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (name[i] < 0x20 || name[i] > 0x7E)
			return -EINVAL;
	for (; i < NTTRACE_NAME_MAX; i++)
		if (name[i])
			return -EINVAL;
	return 0;
}

static int nt_check_mode(u32 mode)
{
	if (mode & ~NTTRACE_KERNEL_LOG_MODES)
		return -EINVAL;
	if ((mode & NTTRACE_EVENT_TRACE_FILE_MODE_SEQUENTIAL) &&
	    (mode & NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR))
		return -EINVAL;
	/* A new file each maximum size is neither one file nor a wrapping one. */
	if ((mode & NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE) &&
	    (mode & (NTTRACE_EVENT_TRACE_FILE_MODE_SEQUENTIAL |
		     NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR)))
		return -EINVAL;
	/* Appending is to one sequential file, which no live reader shares. */
	if ((mode & NTTRACE_EVENT_TRACE_FILE_MODE_APPEND) &&
	    (mode & (NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR |
		     NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE |
		     NTTRACE_EVENT_TRACE_REAL_TIME_MODE)))
		return -EINVAL;
	if ((mode & NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE) &&
	    (mode & NTTRACE_EVENT_TRACE_USE_LOCAL_SEQUENCE))
		return -EINVAL;
	/* Compressed buffers have sizes of their own: one sequential file. */
	if ((mode & NTTRACE_EVENT_TRACE_COMPRESSED_MODE) &&
	    (mode & (NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR |
		     NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE |
		     NTTRACE_EVENT_TRACE_FILE_MODE_APPEND |
		     NTTRACE_EVENT_TRACE_FILE_MODE_PREALLOCATE)))
		return -EINVAL;
	return 0;
}

/* A session's rings: one per possible CPU, or one that all share. */
static unsigned int nt_mode_rings(u32 mode)
{
	return mode & NTTRACE_EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING ? 1 : nr_cpu_ids;
}

/* The sizes of a session's three regions (see struct nttrace_attach). */
static size_t nt_heads_size(unsigned int rings)
{
	return PAGE_ALIGN(sizeof(struct nttrace_session_head) + rings * NT_HEAD_STRIDE);
}

/* One consumer's acks; the session has NTTRACE_MAX_CONSUMERS of them. */
static size_t nt_acks_size(unsigned int rings)
{
	return PAGE_ALIGN(rings * NT_ACK_STRIDE);
}

static size_t nt_data_size(u32 bufsize, u32 nbuf, unsigned int rings)
{
	return (size_t)rings * nbuf * bufsize;
}

/* The memory a session's three regions take. */
static size_t nt_session_bytes(u32 bufsize, u32 nbuf, unsigned int rings)
{
	return nt_heads_size(rings) + NTTRACE_MAX_CONSUMERS * nt_acks_size(rings) +
	       nt_data_size(bufsize, nbuf, rings);
}

/*
 * Apply defaults and limits to START's input; fills the sizes back in.
 * Everything is checked here, before anything is allocated.
 */
static int nt_check_start(struct nttrace_logger_info *in)
{
	size_t cap = nt_max_session_bytes();
	u32 kb, bufsize, fit;
	unsigned int rings;
	int ret;

	if (in->control || in->control_flags)
		return -EINVAL;
	ret = nt_check_name(in->name);
	if (ret)
		return ret;
	/* The NT Kernel Logger is a system logger, and says so. */
	if (nt_is_kernel_logger_name(in->name))
		in->log_file_mode |= NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE;
	ret = nt_check_mode(in->log_file_mode);
	if (ret)
		return ret;
	if (in->log_file_mode & NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE) {
		/* Kernel-mode writers cannot use paged-memory sessions. */
		if (in->log_file_mode & NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY)
			return -EINVAL;
		ret = nt_groups_built(in->group_mask);
		if (ret)
			return ret;
	} else if (memchr_inv(in->group_mask, 0, sizeof(in->group_mask))) {
		return -EINVAL;
	}

	kb = in->buffer_size_kb ?: NTTRACE_DEFAULT_BUFFER_KB;
	if (kb < NTTRACE_MIN_BUFFER_KB || kb > NTTRACE_MAX_BUFFER_KB)
		return -EINVAL;
	in->buffer_size_kb = ALIGN(kb, PAGE_SIZE / 1024);
	bufsize = in->buffer_size_kb * 1024;

	if (!in->min_buffers)
		in->min_buffers = NTTRACE_MIN_BUFFERS;
	if (in->min_buffers < NTTRACE_MIN_BUFFERS ||
	    in->min_buffers > NTTRACE_MAX_BUFFERS ||
	    in->max_buffers > NTTRACE_MAX_BUFFERS)
		return -EINVAL;
	rings = nt_mode_rings(in->log_file_mode);
	if (!in->max_buffers) {
		size_t fixed = nt_session_bytes(bufsize, 0, rings);

		fit = cap > fixed ? min_t(size_t, (cap - fixed) / rings / bufsize,
					  NTTRACE_MAX_BUFFERS) : 0;
		in->max_buffers = clamp_t(u32, fit, in->min_buffers,
					  max_t(u32, NTTRACE_DEFAULT_BUFFERS,
						in->min_buffers));
	}
	if (in->min_buffers > in->max_buffers)
		return -EINVAL;
	/*
	 * A live consumer should see an event within a second or so, as
	 * tracefmt -rt users expect: a real-time session without a flush
	 * timer gets one of a second (ours; Windows leaves it to the caller).
	 */
	if ((in->log_file_mode & NTTRACE_EVENT_TRACE_REAL_TIME_MODE) && !in->flush_timer)
		in->flush_timer = 1;

	if (!in->clock_type)
		in->clock_type = NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER;
	if (in->clock_type > NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE ||
	    !nt_clock_frequency(in->clock_type))
		return -EINVAL;

	if (nt_session_bytes(bufsize, in->max_buffers, rings) > cap)
		return -E2BIG;
	return 0;
}

static struct nt_session *nt_session_alloc(const struct nttrace_logger_info *in)
{
	size_t bytes;
	struct nt_session *s;
	unsigned int cpu;

	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s)
		return ERR_PTR(-ENOMEM);
	kref_init(&s->ref);
	memcpy(s->name, in->name, NTTRACE_NAME_MAX);
	s->log_file_mode = in->log_file_mode;
	s->secure = !!(in->log_file_mode & NTTRACE_EVENT_TRACE_SECURE_MODE);
	s->system = !!(in->log_file_mode & NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE);
	s->kernel_logger = nt_is_kernel_logger_name(in->name);
	memcpy(s->group_mask, in->group_mask, sizeof(s->group_mask));
	s->min_buffers = in->min_buffers;
	s->flush_timer = in->flush_timer;
	s->owner_uid = current_euid();
	s->quota_uid = nt_quota_uid();
	s->owner_pid = get_task_pid(current, PIDTYPE_TGID);
	s->pid_ns = get_pid_ns(task_active_pid_ns(current));
	s->event_seq = (in->log_file_mode & NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE) ?
		       &nt_global_seq : &s->local_seq;
	init_irq_work(&s->wake_work, nt_session_wake);
	init_waitqueue_head(&s->wq);
	mutex_init(&s->rings_lock);
	mutex_init(&s->ctl_lock);

	s->conf.nbuf = in->max_buffers;
	s->conf.bufsize = in->buffer_size_kb * 1024;
	s->conf.overwrite = !!(in->log_file_mode & (NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR |
						    NTTRACE_EVENT_TRACE_BUFFERING_MODE));
	s->conf.clock_type = in->clock_type;
	s->conf.start_time = nt_clock_now(in->clock_type);
	s->conf.start_perf = nt_clock_now(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
	s->conf.wake = &s->wake_work;
	s->conf.flush_jiffies = (unsigned long)in->flush_timer * HZ;
	s->nr_rings = nt_mode_rings(in->log_file_mode);
	s->shared = !!(in->log_file_mode & NTTRACE_EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING);
	nt_ring_lock_init(&s->shared_lock);
	s->conf.ack_stride = nt_acks_size(s->nr_rings);
	s->conf.shared = s->shared ? &s->shared_lock : NULL;

	s->heads_size = nt_heads_size(s->nr_rings);
	s->acks_size = nt_acks_size(s->nr_rings);
	s->data_size = nt_data_size(s->conf.bufsize, s->conf.nbuf, s->nr_rings);

	/* Reserved first: the release below gives it back on failure. */
	bytes = nt_session_bytes(s->conf.bufsize, s->conf.nbuf, s->nr_rings);
	if (nt_mem_reserve(bytes)) {
		nt_session_put(s);
		return ERR_PTR(-ENOBUFS);
	}
	s->mem_reserved = bytes;
	if (nt_area_alloc(&s->heads_area, s->heads_size) ||
	    nt_area_alloc(&s->acks_area, NTTRACE_MAX_CONSUMERS * s->acks_size) ||
	    nt_area_alloc(&s->data_area, s->data_size))
		goto fail;
	s->heads = s->heads_area.addr;
	s->acks = s->acks_area.addr;
	s->data = s->data_area.addr;
	/*
	 * Each ring on a cache line of its own: sizeof is a multiple of the
	 * line, and kmalloc aligns to the largest power of two dividing the size.
	 */
	s->rings = kcalloc(s->nr_rings, sizeof(*s->rings), GFP_KERNEL_ACCOUNT);
	if (!s->rings)
		goto fail;
	for (cpu = 0; cpu < s->nr_rings; cpu++) {
		struct nttrace_ring_head *head = (void *)((u8 *)s->heads +
			sizeof(struct nttrace_session_head) + cpu * NT_HEAD_STRIDE);

		if (nt_ring_init(&s->rings[cpu], &s->conf, cpu, head,
				 &s->acks[cpu],
				 s->data + (size_t)cpu * s->conf.nbuf * s->conf.bufsize))
			goto fail;
	}
	s->heads->state = NTTRACE_SESSION_RUNNING;
	return s;

fail:
	nt_session_put(s);
	return ERR_PTR(-ENOMEM);
}

static void nt_session_fill_info(struct nt_session *s,
				 struct nttrace_logger_info *out)
{
	unsigned int cpu, i;
	u32 unread = 0;

	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	out->logger_id = nt_session_public_id(s);
	out->buffer_size_kb = s->conf.bufsize / 1024;
	out->min_buffers = s->min_buffers;
	out->max_buffers = s->conf.nbuf;
	out->log_file_mode = s->log_file_mode;
	out->flush_timer = READ_ONCE(s->flush_timer);
	out->clock_type = s->conf.clock_type;
	out->nr_cpus = s->nr_rings;
	out->number_of_buffers = s->nr_rings * s->conf.nbuf;
	/* As the reader's namespaces see them (0 or overflowuid if not). */
	out->owner_uid = from_kuid_munged(current_user_ns(), s->owner_uid);
	out->owner_pid = pid_vnr(s->owner_pid);
	out->clock_frequency = nt_clock_frequency(s->conf.clock_type);
	out->start_time = s->conf.start_time;
	memcpy(out->name, s->name, NTTRACE_NAME_MAX);
	for (i = 0; i < NTTRACE_GROUP_MASKS; i++)
		out->group_mask[i] = READ_ONCE(s->group_mask[i]);
	for (cpu = 0; cpu < s->nr_rings; cpu++) {
		struct nt_ring *r = &s->rings[cpu];

		unread += nt_ring_unread(r, nt_holders(READ_ONCE(s->readers)));
		out->real_time_buffers_lost +=
			READ_ONCE(r->head->real_time_buffers_lost);
		out->buffers_written += READ_ONCE(r->head->produced);
		out->log_buffers_lost += READ_ONCE(r->head->buffers_overwritten);
		out->events_lost += READ_ONCE(r->head->events_lost);
		out->events_written += READ_ONCE(r->head->events_written);
		out->events_overwritten += READ_ONCE(r->head->events_overwritten);
	}
	out->free_buffers = out->number_of_buffers - unread;
}

/*
 * What START checks in the table before allocating: the name is free, an
 * ID is free, the user (nt_quota_uid()) has fewer than max_user_sessions.
 * A system logger takes an ID below NTTRACE_MAX_LOGGERS, as Windows'
 * logger IDs are below 64: TRACE_SYSTEM names no system logger with 64
 * (module/system.c). Under both locks.
 */
static int nt_check_table(const u8 *name, kuid_t uid, bool system, u32 *free_id)
{
	unsigned int id, mine = 0, systems = 0;

	lockdep_assert_held(&nt_start_lock);
	lockdep_assert_held(&nt_loggers_lock);
	*free_id = 0;
	for (id = 1; id <= NTTRACE_MAX_LOGGERS; id++) {
		struct nt_session *o = rcu_dereference_protected(nt_loggers[id],
				lockdep_is_held(&nt_loggers_lock));

		if (!o) {
			if (!test_bit(id, nt_ids_stopping) &&
			    (!system || id < NTTRACE_MAX_LOGGERS))
				*free_id = *free_id ?: id;
			continue;
		}
		if (!strncasecmp(o->name, name, NTTRACE_NAME_MAX))
			return -EEXIST;
		if (uid_eq(o->quota_uid, uid))
			mine++;
		systems += o->system;
	}
	if (!*free_id || (system && systems >= NTTRACE_MAX_SYSTEM_LOGGERS))
		return -EMFILE;
	return mine >= nt_max_user_sessions() ? -EDQUOT : 0;
}

int nt_session_start(struct nttrace_logger_info *info)
{
	struct nt_session *s;
	bool system, kaddr;
	u32 id;
	int ret;

	if (!nt_privileged())
		return -EPERM;
	ret = nt_check_start(info);
	if (ret)
		return ret;
	system = info->log_file_mode & NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE;
	if (system && !nt_privileged_system())
		return -EPERM;
	/*
	 * Kernel addresses (and the rule that only readers who may see them
	 * attach) for a system logger started to sample (PROFILE) by a
	 * caller who may see them: other system loggers stay readable by
	 * every CAP_PERFMON reader, as before samples were written.
	 */
	kaddr = system && (info->group_mask[0] & NTTRACE_EVENT_TRACE_FLAG_PROFILE) &&
		nt_kernel_address_reader();
	if (mutex_lock_killable(&nt_start_lock))
		return -EINTR;
	mutex_lock(&nt_loggers_lock);
	ret = nt_check_table(info->name, nt_quota_uid(), system, &id);
	mutex_unlock(&nt_loggers_lock);
	if (ret)
		goto out;

	s = nt_session_alloc(info);
	if (IS_ERR(s)) {
		ret = PTR_ERR(s);
		goto out;
	}
	s->kaddr = kaddr;
	/* Before anyone can find it to stop it. */
	nt_hook_started(id);
	/* Its slot stays its own until the rundown is written. */
	mutex_lock(&s->ctl_lock);
	mutex_lock(&nt_loggers_lock);
	s->id = id;
	s->conf.logger_id = nt_session_public_id(s);
	s->heads->logger_id = nt_session_public_id(s);
	if (s->kernel_logger)
		WRITE_ONCE(nt_kernel_slot, id);
	if (s->system)
		WRITE_ONCE(nt_sys_slots, nt_sys_slots | BIT_ULL(id - 1));
	rcu_assign_pointer(nt_loggers[id], s);
	/* Ours until the rundown is written: a STOP may come at once. */
	kref_get(&s->ref);
	mutex_unlock(&nt_loggers_lock);
	/*
	 * The name and ID are taken: other starts may go on while the
	 * rundown reads every process (a STOP or UPDATE of this one waits
	 * for it on ctl_lock).
	 */
	mutex_unlock(&nt_start_lock);
	if (s->system) {
		/* Hooked first: nothing starting during the rundown is missed. */
		nt_hook_groups();
		nt_hook_rundown(id, s->group_mask, true);
	}
	mutex_unlock(&s->ctl_lock);
	mutex_lock(&nt_loggers_lock);
	nt_session_fill_info(s, info);
	mutex_unlock(&nt_loggers_lock);
	trace_nttrace_session_start(s->conf.logger_id, s->name, s->log_file_mode,
				    s->conf.bufsize);
	nt_session_put(s);
	return 0;
out:
	mutex_unlock(&nt_start_lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_start);

/*
 * The HookIds some running system logger wants stacks for: the union of
 * their lists, rebuilt under nt_loggers_lock when one changes or its
 * session stops, read without a lock (nt_stack_hook_wanted()). Built in
 * nt_stack_next, then copied a word at a time: a reader never sees a
 * HookId both lists have as wanted by none.
 */
static DECLARE_BITMAP(nt_stack_union, 1 << 16);
static DECLARE_BITMAP(nt_stack_next, 1 << 16);

static void nt_stack_union_rebuild(void)
{
	unsigned int id, i;

	lockdep_assert_held(&nt_loggers_lock);
	bitmap_zero(nt_stack_next, 1 << 16);
	for (id = 1; id <= NTTRACE_MAX_LOGGERS; id++) {
		struct nt_session *s = rcu_dereference_protected(nt_loggers[id],
				lockdep_is_held(&nt_loggers_lock));
		const struct nt_stack_list *l;

		if (!s)
			continue;
		l = rcu_dereference_protected(s->stacks, lockdep_is_held(&nt_loggers_lock));
		for (i = 0; l && i < l->nr; i++)
			__set_bit(l->hooks[i], nt_stack_next);
	}
	for (i = 0; i < BITS_TO_LONGS(1 << 16); i++)
		WRITE_ONCE(nt_stack_union[i], nt_stack_next[i]);
}

bool nt_stack_hook_wanted(u16 hook)
{
	return test_bit(hook, nt_stack_union);
}

bool nt_session_stack_wanted(const struct nt_session *s, u16 hook)
{
	const struct nt_stack_list *l = rcu_dereference_sched(s->stacks);
	u32 lo = 0, hi = l ? l->nr : 0;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (l->hooks[mid] == hook)
			return true;
		if (l->hooks[mid] < hook)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int nt_u16_cmp(const void *a, const void *b)
{
	return (int)*(const u16 *)a - (int)*(const u16 *)b;
}

/* Find by ID, or by name when the ID is 0. Under nt_loggers_lock. */
static struct nt_session *nt_session_find(u32 id, const u8 *name)
{
	unsigned int i;

	lockdep_assert_held(&nt_loggers_lock);
	if (id) {
		id = nt_slot_of(id);
		if (!id || id > NTTRACE_MAX_LOGGERS)
			return NULL;
		id = array_index_nospec(id, NTTRACE_MAX_LOGGERS + 1);
		return rcu_dereference_protected(nt_loggers[id],
				lockdep_is_held(&nt_loggers_lock));
	}
	if (nt_check_name(name))
		return NULL;
	for (i = 1; i <= NTTRACE_MAX_LOGGERS; i++) {
		struct nt_session *s = rcu_dereference_protected(nt_loggers[i],
				lockdep_is_held(&nt_loggers_lock));

		if (s && !strncasecmp(s->name, name, NTTRACE_NAME_MAX))
			return s;
	}
	return NULL;
}

/*
 * May the caller act on @s (stop, update, flush, consume, enable a
 * provider for it)? A system logger sees every process: the caller must
 * be nt_privileged_system(), as to start one; any other session asks
 * nt_privileged(). Decided on the session the lookup found, under
 * nt_loggers_lock (a mutex: the audit may sleep).
 */
static bool nt_may_control(const struct nt_session *s)
{
	lockdep_assert_held(&nt_loggers_lock);
	return s->system ? nt_privileged_system() : nt_privileged();
}

/*
 * A reference to the running session of that ID or name that the caller
 * may control, or an ERR_PTR: -ENOENT, -EPERM (nt_may_control()).
 */
static struct nt_session *nt_session_hold_ctl(u32 id, const u8 *name)
{
	struct nt_session *s;

	mutex_lock(&nt_loggers_lock);
	s = nt_session_find(id, name);
	if (!s)
		s = ERR_PTR(-ENOENT);
	else if (!nt_may_control(s))
		s = ERR_PTR(-EPERM);
	else
		kref_get(&s->ref);
	mutex_unlock(&nt_loggers_lock);
	return s;
}

/* A reference to the running session of that ID or name, or NULL. */
static struct nt_session *nt_session_hold(u32 id, const u8 *name)
{
	struct nt_session *s;

	mutex_lock(&nt_loggers_lock);
	s = nt_session_find(id, name);
	if (s)
		kref_get(&s->ref);
	mutex_unlock(&nt_loggers_lock);
	return s;
}

/*
 * Take @s off the table (its ID marked stopping until nt_session_unlisted())
 * and off the system loggers. Under nt_loggers_lock.
 */
static void nt_session_unlist(struct nt_session *s)
{
	lockdep_assert_held(&nt_loggers_lock);
	RCU_INIT_POINTER(nt_loggers[s->id], NULL);
	s->unlisted = true;
	__set_bit(s->id, nt_ids_stopping);
	if (s->system)
		WRITE_ONCE(nt_sys_slots, nt_sys_slots & ~BIT_ULL(s->id - 1));
	if (s->kernel_logger)
		WRITE_ONCE(nt_kernel_slot, 0);
	if (rcu_access_pointer(s->stacks))
		nt_stack_union_rebuild();
}

/*
 * @s was taken off the table and its ID marked stopping, under
 * nt_loggers_lock: tell the providers, with no lock of ours held (kernel
 * providers' callbacks run there, and may call in), then free the ID. It
 * is kept until then so that no new session takes it, and no enable for
 * the new session is made, before the old session's enables are dropped
 * and the writers' snapshots no longer name it.
 */
static void nt_session_unlisted(struct nt_session *s)
{
	nt_hook_stopped(s->id);
	mutex_lock(&nt_loggers_lock);
	__clear_bit(s->id, nt_ids_stopping);
	mutex_unlock(&nt_loggers_lock);
}

/* Everything but the final put: no producer remains, all is published. */
static void nt_session_stop(struct nt_session *s)
{
	unsigned int cpu;

	/* Producers hold preemption off while they use the session. */
	synchronize_rcu();
	mutex_lock(&s->rings_lock);
	for (cpu = 0; cpu < s->nr_rings; cpu++) {
		/* The ring's own flush may run on its CPU until this. */
		nt_ring_stop_timer(&s->rings[cpu]);
		nt_flush_here(&s->rings[cpu]);
	}
	s->stopped = true;
	/* Pairs with the consumer's load-acquire of state: all is published. */
	smp_store_release(&s->heads->state, NTTRACE_SESSION_STOPPED);
	mutex_unlock(&s->rings_lock);
	irq_work_sync(&s->wake_work);
	wake_up_all(&s->wq);
	if (trace_nttrace_session_stop_enabled()) {
		struct nttrace_logger_info info = {};

		nt_session_fill_info(s, &info);
		trace_nttrace_session_stop(s->conf.logger_id, s->name, info.events_lost,
					   info.buffers_written);
	}
}

/*
 * UPDATE may change the flush timer, and a system logger's groups; anything
 * else must stay as it is. A system logger's groups stay as they are when
 * UPDATE gives none (a group mask of zeros), as a flush timer of 0 would
 * not do: Windows' ControlTrace(UPDATE) of the NT Kernel Logger without
 * EnableFlags changes its other properties only. @added: the groups that
 * are new, for their rundown.
 */
static int nt_session_update(struct nt_session *s,
			     const struct nttrace_logger_info *in,
			     u32 added[NTTRACE_GROUP_MASKS])
{
	if ((in->buffer_size_kb && in->buffer_size_kb != s->conf.bufsize / 1024) ||
	    (in->min_buffers && in->min_buffers != s->min_buffers) ||
	    (in->max_buffers && in->max_buffers != s->conf.nbuf) ||
	    (in->log_file_mode && in->log_file_mode != s->log_file_mode) ||
	    (in->clock_type && in->clock_type != s->conf.clock_type) ||
	    (!s->system && memchr_inv(in->group_mask, 0, sizeof(in->group_mask))))
		return -EINVAL;
	if (s->system && memchr_inv(in->group_mask, 0, sizeof(in->group_mask))) {
		unsigned int i;

		if (nt_groups_built(in->group_mask))
			return -EOPNOTSUPP;

		for (i = 0; i < NTTRACE_GROUP_MASKS; i++) {
			added[i] = in->group_mask[i] & ~s->group_mask[i];
			WRITE_ONCE(s->group_mask[i], in->group_mask[i]);
		}
	}
	WRITE_ONCE(s->flush_timer, in->flush_timer);
	/*
	 * Each ring reads it when it starts a buffer: a new period holds
	 * from the next one, a timer already pending keeps its time. Turned
	 * off, the pending ones go too (no IPI: a timer is deleted from any
	 * CPU). A buffer started on another CPU at this very moment may still
	 * arm its timer with the old period: that only publishes it early.
	 */
	WRITE_ONCE(s->conf.flush_jiffies, (unsigned long)in->flush_timer * HZ);
	if (!in->flush_timer) {
		unsigned int cpu;

		for (cpu = 0; cpu < s->nr_rings; cpu++)
			timer_delete(&s->rings[cpu].flush_timer);
	}
	return 0;
}

int nt_session_control(struct nttrace_logger_info *info)
{
	u32 added[NTTRACE_GROUP_MASKS] = {};
	bool serial, stop;
	struct nt_session *s;
	int ret = 0;

	if (info->control > NTTRACE_EVENT_TRACE_CONTROL_FLUSH ||
	    (info->control_flags & ~NTTRACE_CONTROL_FLAGS) ||
	    (info->control_flags && info->control != NTTRACE_EVENT_TRACE_CONTROL_STOP))
		return -EINVAL;
	if (info->control == NTTRACE_EVENT_TRACE_CONTROL_QUERY) {
		s = nt_session_hold(info->logger_id, info->name);
		if (!s)
			return -ENOENT;
		nt_session_fill_info(s, info);
		nt_session_put(s);
		return 0;
	}
	if (!nt_privileged())
		return -EPERM;
	s = nt_session_hold_ctl(info->logger_id, info->name);
	if (IS_ERR(s))
		return PTR_ERR(s);
	stop = info->control == NTTRACE_EVENT_TRACE_CONTROL_STOP;
	serial = stop || info->control == NTTRACE_EVENT_TRACE_CONTROL_UPDATE;
	/*
	 * A STOP or an UPDATE holds ctl_lock: the session keeps its slot
	 * until it lets go, so the rundowns written by slot are its own.
	 */
	if (serial && mutex_lock_killable(&s->ctl_lock)) {
		nt_session_put(s);
		return -EINTR;
	}
	if (serial && s->unlisted) {
		/* Stopped by another caller meanwhile. */
		mutex_unlock(&s->ctl_lock);
		nt_session_put(s);
		return -ENOENT;
	}
	/* A system logger's file ends with what still runs, as Windows' does. */
	if (stop && s->system)
		nt_hook_rundown(s->id, s->group_mask, false);

	mutex_lock(&nt_loggers_lock);
	if (s->unlisted)
		ret = -ENOENT;	/* a FLUSH of a session stopped meanwhile */
	else if (stop)
		nt_session_unlist(s);
	else if (info->control == NTTRACE_EVENT_TRACE_CONTROL_UPDATE)
		ret = nt_session_update(s, info, added);
	mutex_unlock(&nt_loggers_lock);
	if (info->control == NTTRACE_EVENT_TRACE_CONTROL_UPDATE && !ret && s->system) {
		/* Hooked first, as at the start: then the new groups' rundown. */
		nt_hook_groups();
		if (memchr_inv(added, 0, sizeof(added))) {
			/* Their DCStart, not the system configuration again. */
			added[0] |= NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG;
			nt_hook_rundown(s->id, added, true);
		}
	}
	if (serial)
		mutex_unlock(&s->ctl_lock);

	if (ret == -ENOENT) {
		nt_session_put(s);
		return ret;
	}
	if (stop) {
		/* Off the table: its providers are told before the flush. */
		nt_session_unlisted(s);
		if (s->system)
			nt_hook_groups();
		nt_session_stop(s);
		nt_session_put(s);	/* the table's reference */
		/* Pairs with the wake_up_all() in nt_session_detach(). */
		if (info->control_flags & NTTRACE_CONTROL_WAIT_CONSUMER)
			wait_event_killable(s->wq, !(READ_ONCE(s->readers) &
						     BIT(NT_LOGGER_SLOT)));
	} else if (info->control == NTTRACE_EVENT_TRACE_CONTROL_FLUSH) {
		nt_session_flush(s);
	}
	if (!ret)
		nt_session_fill_info(s, info);
	nt_session_put(s);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_control);

int nt_session_stacks(struct nttrace_stacks *st, u16 *hooks)
{
	struct nt_stack_list *l = NULL, *old;
	struct nt_session *s;
	u32 i, n = 0;
	int ret = 0;

	if (st->flags & ~NTTRACE_STACKS_SET)
		return -EINVAL;
	if (st->flags & NTTRACE_STACKS_SET) {
		if (st->count > NTTRACE_STACKS_MAX)
			return -EINVAL;
		sort(hooks, st->count, sizeof(*hooks), nt_u16_cmp, NULL);
		for (i = 0; i < st->count; i++) {
			if (!ntr_sr_event(hooks[i]) || hooks[i] == NTR_SR_STACKWALK)
				return -EOPNOTSUPP;
			if (!n || hooks[n - 1] != hooks[i])
				hooks[n++] = hooks[i];
		}
		if (n) {
			l = kmalloc(struct_size(l, hooks, n), GFP_KERNEL_ACCOUNT);
			if (!l)
				return -ENOMEM;
			l->nr = n;
			memcpy(l->hooks, hooks, n * sizeof(*hooks));
		}
	}
	/* Reading is QUERY's: anyone's; setting, the session's controllers'. */
	if (st->flags & NTTRACE_STACKS_SET)
		s = nt_session_hold_ctl(st->logger_id, NULL);
	else
		s = nt_session_hold(st->logger_id, NULL) ?: ERR_PTR(-ENOENT);
	if (IS_ERR(s)) {
		kfree(l);
		return PTR_ERR(s);
	}
	mutex_lock(&nt_loggers_lock);
	old = rcu_dereference_protected(s->stacks, lockdep_is_held(&nt_loggers_lock));
	if (s->unlisted) {
		ret = -ENOENT;
	} else if (!s->system) {
		/* Its events carry no stack: an empty list is what is. */
		ret = l ? -EINVAL : 0;
		st->count = 0;
	} else if (st->flags & NTTRACE_STACKS_SET) {
		rcu_assign_pointer(s->stacks, l);
		l = old;
		nt_stack_union_rebuild();
		st->count = n;
	} else {
		st->count = old ? old->nr : 0;
		if (old)
			memcpy(hooks, old->hooks, old->nr * sizeof(*hooks));
	}
	mutex_unlock(&nt_loggers_lock);
	/* The list replaced (or not taken): freed once no writer reads it. */
	if (l)
		kfree_rcu(l, rcu);
	nt_session_put(s);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_stacks);

int nt_session_list(u32 *ids, u32 room, u32 *count)
{
	unsigned int id, n = 0;

	mutex_lock(&nt_loggers_lock);
	for (id = 1; id <= NTTRACE_MAX_LOGGERS; id++) {
		struct nt_session *s = rcu_dereference_protected(nt_loggers[id],
				lockdep_is_held(&nt_loggers_lock));

		if (!s)
			continue;
		if (n < room)
			ids[n] = nt_session_public_id(s);
		n++;
	}
	mutex_unlock(&nt_loggers_lock);
	*count = n;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_list);

struct nt_session *nt_session_get_consumable(u32 id)
{
	struct nt_session *s;

	if (!nt_privileged())
		return ERR_PTR(-EPERM);
	mutex_lock(&nt_loggers_lock);
	s = id ? nt_session_find(id, NULL) : NULL;
	if (!s)
		s = ERR_PTR(-ENOENT);
	else if (!nt_may_control(s))
		/* A system logger: every process's events, as much as starting it. */
		s = ERR_PTR(-EPERM);
	else if (s->pid_ns != task_active_pid_ns(current))
		/* Its events carry IDs another namespace would misread. */
		s = ERR_PTR(-EXDEV);
	else
		kref_get(&s->ref);
	mutex_unlock(&nt_loggers_lock);
	return s;
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_get_consumable);

static void nt_ring_set_readers_fn(struct nt_ring *r, void *rd)
{
	nt_ring_set_readers(r, rd);
}

/* Tell every ring that the consumers are now s->readers, @join new. */
static void nt_session_set_readers(struct nt_session *s, int join)
{
	u32 readers = s->readers;
	struct nt_ring_readers rd = {
		.readers = readers,
		.holders = nt_holders(readers),
		.realtime = readers & ~BIT(NT_LOGGER_SLOT),
		.join = join,
	};

	nt_session_each_ring(s, nt_ring_set_readers_fn, &rd, NULL);
}

int nt_session_attach(struct nt_session *s, bool realtime)
{
	/* May sleep (audit): before the locks. */
	bool secret_ok = nt_security_reader();
	bool kaddr_ok = nt_kernel_address_reader();
	int slot;

	cpus_read_lock();
	mutex_lock(&s->rings_lock);
	if ((s->security && !secret_ok) || (s->kaddr && !kaddr_ok))
		slot = -EPERM;
	else if (!realtime)
		slot = s->readers & BIT(NT_LOGGER_SLOT) ? -EBUSY : NT_LOGGER_SLOT;
	else
		slot = ffz(s->readers | BIT(NT_LOGGER_SLOT));
	if (slot >= NTTRACE_MAX_CONSUMERS)
		slot = -EBUSY;
	if (slot >= 0) {
		WRITE_ONCE(s->readers, s->readers | BIT(slot));
		if (!secret_ok)
			s->plain_readers |= BIT(slot);
		nt_session_set_readers(s, slot);
	}
	mutex_unlock(&s->rings_lock);
	cpus_read_unlock();
	return slot;
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_attach);

struct nt_session *nt_session_get_enable(u32 logger_id, bool security)
{
	struct nt_session *s;

	s = nt_session_hold_ctl(logger_id, NULL);
	if (IS_ERR(s))
		return s;
	if (s->kernel_logger) {
		/* It takes the kernel's events only (uapi/nttrace.h), by any ID. */
		nt_session_put(s);
		return ERR_PTR(-EINVAL);
	}
	if (!security)
		return s;
	mutex_lock(&s->rings_lock);
	if (s->plain_readers) {
		mutex_unlock(&s->rings_lock);
		nt_session_put(s);
		return ERR_PTR(-EBUSY);
	}
	s->security = true;
	mutex_unlock(&s->rings_lock);
	return s;
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_get_enable);

bool nt_session_listed(const struct nt_session *s)
{
	/*
	 * A stop takes the session off the table before it drops its
	 * enables under nt_provider_lock, which our caller holds: if that
	 * happened, we see the table without it. The reference we hold
	 * keeps another session from having its address.
	 */
	return rcu_access_pointer(nt_loggers[s->id]) == s;
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_listed);

void nt_session_detach(struct nt_session *s, unsigned int slot)
{
	cpus_read_lock();
	mutex_lock(&s->rings_lock);
	WRITE_ONCE(s->readers, s->readers & ~BIT(slot));
	s->plain_readers &= ~BIT(slot);
	nt_session_set_readers(s, -1);
	mutex_unlock(&s->rings_lock);
	cpus_read_unlock();
	/* A STOP with NTTRACE_CONTROL_WAIT_CONSUMER may be waiting. */
	wake_up_all(&s->wq);
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_detach);

/*
 * A reservation ends: a shared ring's hold with it, and interrupts as the
 * reservation found them.
 */
static void nt_reservation_end(struct nttrace_reservation *res, unsigned long irq)
{
	if (res->session->shared) {
		nt_ring_unlock(&res->session->shared_lock);
		irq = res->irq_flags;
	}
	local_irq_restore(irq);
	preempt_enable();
}

void nttrace_commit(struct nttrace_reservation *res)
{
	unsigned long irq;

	local_irq_save(irq);
	nt_ring_commit(res->ring);
	nt_reservation_end(res, irq);
}
EXPORT_SYMBOL_NS_GPL(nttrace_commit, NTTRACE_NS);

void nttrace_discard(struct nttrace_reservation *res)
{
	unsigned long irq;

	local_irq_save(irq);
	nt_ring_discard(res->ring, res->rec, res->len);
	nt_reservation_end(res, irq);
}
EXPORT_SYMBOL_NS_GPL(nttrace_discard, NTTRACE_NS);

void nt_sessions_stop_all(void)
{
	struct nt_session *s;
	unsigned int id;

	for (id = 1; id <= NTTRACE_MAX_LOGGERS; id++) {
		mutex_lock(&nt_loggers_lock);
		s = rcu_dereference_protected(nt_loggers[id],
					      lockdep_is_held(&nt_loggers_lock));
		if (s)
			nt_session_unlist(s);
		mutex_unlock(&nt_loggers_lock);
		if (s) {
			nt_session_unlisted(s);
			if (s->system)
				nt_hook_groups();
			nt_session_stop(s);
			nt_session_put(s);
		}
	}
}

void nt_sessions_cpu_offline(unsigned int cpu)
{
	struct nt_session *live[NTTRACE_MAX_LOGGERS];
	unsigned int id, n = 0, i;

	mutex_lock(&nt_loggers_lock);
	for (id = 1; id <= NTTRACE_MAX_LOGGERS; id++) {
		struct nt_session *s = rcu_dereference_protected(nt_loggers[id],
				lockdep_is_held(&nt_loggers_lock));

		if (s) {
			kref_get(&s->ref);
			live[n++] = s;
		}
	}
	mutex_unlock(&nt_loggers_lock);

	for (i = 0; i < n; i++) {
		struct nt_session *s = live[i];

		mutex_lock(&s->rings_lock);
		/* A shared ring belongs to no CPU: its flush timer runs anywhere. */
		if (!s->stopped && !s->shared && cpu < s->nr_rings)
			nt_flush_here(&s->rings[cpu]);
		mutex_unlock(&s->rings_lock);
		/* The irq_work may not run on a CPU going down: wake here. */
		wake_up_all(&s->wq);
		nt_session_put(s);
	}
}

/*
 * ---- Writers and their rules ----
 *
 * nt_writer_check() and nt_reserve_rules() (under nttrace_reserve() and
 * module/write.c) apply the NT_WRITE_* rules to the running session
 * @logger_id before anything is reserved, so that a refused event is
 * neither written nor counted lost. The order is TRACE_INSTANCE's in
 * Windows: not running, then secure, then paged memory.
 */
static struct nt_session *nt_session_lookup_sched(u32 logger_id)
{
	logger_id = nt_slot_of(logger_id);
	if (!logger_id || logger_id > NTTRACE_MAX_LOGGERS)
		return NULL;
	logger_id = array_index_nospec(logger_id, NTTRACE_MAX_LOGGERS + 1);
	return rcu_dereference_sched(nt_loggers[logger_id]);
}

static int nt_writer_rules(const struct nt_session *s, unsigned int rules)
{
	if (!s)
		return -EBADF;
	if ((rules & NT_WRITE_SYSTEM_ONLY) && !s->system)
		return -EINVAL;
	if (s->secure && (rules & NT_WRITE_NO_SECURE))
		return -EACCES;
	if (s->secure && (rules & NT_WRITE_USER) && !(rules & NT_WRITE_PRIVILEGED) &&
	    !uid_eq(current_euid(), s->owner_uid))
		return -EACCES;
	if (s->system && (rules & NT_WRITE_FORGE) && !(rules & NT_WRITE_SYSTEM))
		return -EPERM;
	if ((rules & NT_WRITE_KERNEL) && (s->log_file_mode & NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY))
		return -EOPNOTSUPP;
	return 0;
}

int nt_writer_check(u32 logger_id, unsigned int rules)
{
	int err;

	/* The RCU-sched read side nt_reserve_rules() also uses: see nt_session_stop. */
	rcu_read_lock_sched();
	err = nt_writer_rules(nt_session_lookup_sched(logger_id), rules);
	rcu_read_unlock_sched();
	return err;
}

void *nt_reserve_rules(u32 logger_id, u32 len, struct nttrace_reservation *res,
		       unsigned int rules)
{
	struct nt_session *s;
	unsigned long irq;
	void *rec;
	int err;

	/*
	 * Preemption off until the commit: this CPU's ring is ours, and the
	 * whole write is an RCU read-side section, so a session being
	 * stopped waits in synchronize_rcu() until we are done. Interrupts
	 * are off only for the reservation here and for the commit.
	 */
	preempt_disable();
	local_irq_save(irq);
	s = nt_session_lookup_sched(logger_id);
	err = nt_writer_rules(s, rules);
	if (err)
		goto fail;
	if (!len || len > nt_ring_max_record(&s->conf)) {
		err = -EMSGSIZE;
		goto fail;
	}
	res->session = s;
	if (s->shared) {
		/* Held until the commit, interrupts off: see nttrace_commit(). */
		nt_ring_lock(&s->shared_lock);
		res->ring = &s->rings[0];
	} else {
		res->ring = &s->rings[smp_processor_id()];
	}
	rec = nt_ring_reserve(res->ring, len);
	if (!rec) {
		if (s->shared)
			nt_ring_unlock(&s->shared_lock);
		err = -ENOSPC;
		goto fail;
	}
	/*
	 * Stamped in the reservation's own section: on one CPU (or in the
	 * shared ring, under its lock), records lie in the order of their
	 * time stamps, interrupts' too.
	 */
	res->time_stamp = nt_clock_now(s->conf.clock_type);
	if (s->shared) {
		/*
		 * The fast clock may step back a little across CPUs while
		 * the kernel adjusts its rate: a stream's time never does.
		 */
		res->time_stamp = max(res->time_stamp, s->shared_last_ts);
		s->shared_last_ts = res->time_stamp;
		res->irq_flags = irq;
	} else {
		local_irq_restore(irq);
	}
	res->rec = rec;
	res->len = len;
	return rec;
fail:
	local_irq_restore(irq);
	preempt_enable();
	return ERR_PTR(err);
}

/* ---- System loggers ---- */

u64 nt_system_slots(void)
{
	return READ_ONCE(nt_sys_slots);
}

bool nt_system_slot_wants(u32 slot, unsigned int word, u32 bit, int kaddr)
{
	struct nt_session *s;
	bool want;

	rcu_read_lock_sched();
	s = rcu_dereference_sched(nt_loggers[slot]);
	want = s && s->system && (!bit || READ_ONCE(s->group_mask[word]) & bit) &&
	       (kaddr < 0 || s->kaddr == kaddr);
	rcu_read_unlock_sched();
	return want;
}

void nt_system_groups(u32 mask[NTTRACE_GROUP_MASKS])
{
	unsigned int id, i;

	memset(mask, 0, NTTRACE_GROUP_MASKS * sizeof(*mask));
	mutex_lock(&nt_loggers_lock);
	for (id = 1; id <= NTTRACE_MAX_LOGGERS; id++) {
		struct nt_session *s = rcu_dereference_protected(nt_loggers[id],
				lockdep_is_held(&nt_loggers_lock));

		if (s && s->system)
			for (i = 0; i < NTTRACE_GROUP_MASKS; i++)
				mask[i] |= READ_ONCE(s->group_mask[i]);
	}
	mutex_unlock(&nt_loggers_lock);
}

int nt_session_is_system(u32 logger_id)
{
	struct nt_session *s;
	int ret;

	rcu_read_lock_sched();
	s = nt_session_lookup_sched(logger_id);
	ret = s ? s->system : -EBADF;
	rcu_read_unlock_sched();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(nt_session_is_system);

void nt_session_flush_id(u32 logger_id)
{
	struct nt_session *s;

	s = nt_session_hold(logger_id, NULL);
	if (s) {
		nt_session_flush(s);
		nt_session_put(s);
	}
}
