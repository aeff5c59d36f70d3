// SPDX-License-Identifier: LGPL-2.1
/*
 * Classic providers: RegisterTraceGuids, UnregisterTraceGuids,
 * GetTraceLoggerHandle, GetTraceEnableFlags, GetTraceEnableLevel; and the
 * registration machinery EventRegister shares with them (eventprov.c calls
 * nttrace_event_register and nttrace_event_unregister): one entry type, one
 * notification file and thread, one callback runner, one fork handling.
 *
 * Per registration the library keeps what NTDLL keeps in its
 * ETW_REGISTRATION_ENTRY: the provider GUID, the callback and its context,
 * the kernel's registration handle, the registration's Type (here
 * NTTRACE_REG_CLASSIC), and the enable information, which the kernel
 * writes into this very memory (struct nttrace_enable_info, under the
 * uapi's sequence count) so that "is this provider enabled, for which
 * logger, with which flags and level" costs no system call
 * (nttrace_trace_guids_enabled). The private enables (the process's
 * user-mode logger, NTDLL's "private registrations") are kept beside it
 * and made with no system call at all (controller/enable.c).
 *
 * Notifications. The process's registrations live on one /dev/nttrace file
 * of their own; a thread, started with the first registration and ended
 * with the last (below), polls it (EPOLLPRI), takes the kernel's
 * notifications one at a time and runs the
 * callbacks: WMI_ENABLE_EVENTS with a WNODE_HEADER whose HistoricalContext
 * is the logger handle (TRACE_ENABLE_CONTEXT: logger ID, level, flags),
 * WMI_DISABLE_EVENTS when the session disables the provider or stops. The
 * kernel tells a classic registration only about the one session it acts
 * on (the latest enable; module/provider.c).
 *
 * Choices where Windows is silent or differs:
 * - An enable made before the registration: the callback runs on the
 *   registering thread before RegisterTraceGuids returns, and
 *   RegisterTraceGuids returns what the callback returned (Microsoft's
 *   ControlCallback documentation: the callback's return value is ignored
 *   except in that case, when RegisterTraceGuids returns it). The
 *   registration stands whatever the callback returns, and
 *   *RegistrationHandle and the RegHandles are set before it runs.
 * - UnregisterTraceGuids racing a callback: no callback starts after the
 *   registration is off the table; one already running is waited for,
 *   except on the thread running it (a callback may unregister its own
 *   provider), where the entry is freed when the callback returns.
 * - fork: the child keeps its providers, enabled as the parent's were,
 *   as user_events keeps a forked child's enablers (Windows
 *   has no fork). The kernel's registrations belong to the
 *   registering process (EventWrite with another process's handle is
 *   STATUS_INVALID_HANDLE, module/eventwrite.c), so the child's atfork
 *   handler registers each of them again on a file of its own, with the
 *   enable info at the same address in its copy of the memory; the
 *   library's handles stay as they were (the table maps them to the new
 *   kernel handles), and the child's events carry its own process ID.
 *   REGISTER rewrites the enable info whole, so a copy fork took while
 *   the kernel was updating it (its sequence odd) is replaced before
 *   fork returns. The callbacks, told by the parent until fork, are then
 *   told by the child's own thread what changed since (resync()). A
 *   registration the kernel refuses in the child (a limit) stays in the
 *   child only, disabled, its UnregisterTraceGuids succeeding. The
 *   user-mode logger is the parent's: the child has no private enable.
 *   A process forking often pays one REGISTER per provider per fork
 *   (posix_spawn and vfork run no atfork handler, and pay nothing).
 * - Last error: the Register/Unregister calls set it always, as this
 *   library's functions do; GetTraceEnableFlags and GetTraceEnableLevel set
 *   it only on failure, so Microsoft's documented test (clear it, call,
 *   look) works.
 * - EventRegister entries (NTTRACE_REG_EVENT) hear of every session: their
 *   callback gets each session's enable, disable and capture state (see
 *   <nttrace/evntprov.h>), and their private enable is kept as a second
 *   struct nttrace_enable_info beside the kernel's, written under the
 *   same sequence protocol, so that EventEnabled reads both without a lock.
 *   Entries of both kinds are never freed, only reused, and handles are
 *   looked up in a table (see provider_internal.h); without the module they
 *   register in this process only.
 * - The user-mode logger's stop ends its private enables: the callbacks
 *   hear WMI_DISABLE_EVENTS / EVENT_CONTROL_CODE_DISABLE_PROVIDER, as a
 *   kernel session's stop disables its providers.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/evntrace.h>
#include <nttrace/nt.h>

#include "provider_internal.h"


struct reg_entry {
	/*
	 * First, in a 64-byte aligned block: never across a page. pub.info is
	 * written by the kernel. Its handle: its slot's key (provider_internal.h).
	 */
	struct nttrace_event_reg pub;
	uint32_t type;				/* NTTRACE_REG_* */
	WMIDPREQUEST callback;			/* classic */
	PENABLECALLBACK enable_cb;		/* EventRegister; may be NULL */
	void *context;
	HANDLE *classes;			/* the TRACE_GUID_REGISTRATIONs' */
	ULONG nr_classes;
	/* Under reg_lock: */
	uint64_t private_handle;	/* the user-mode logger's enable; 0: none */
	uint64_t delivered;		/* the kernel enable the callback has */
	unsigned int pass;		/* resync and private enables: done */
	unsigned int skip;		/* ENABLEs already delivered by Register */
	unsigned int busy;		/* callbacks running */
	int dead;			/* unregistered while busy: the last frees */
	int orphan;			/* not registered again after fork */
	uint64_t cb_loggers;		/* EventRegister: sessions its callback saw */
	struct reg_entry *next;
};

/* One callback's arguments: classic (code, handle) or EventRegister's. */
struct cb_args {
	WMIDPREQUESTCODE code;
	uint64_t handle;
	ULONG control;			/* EVENT_CONTROL_CODE_* */
	UCHAR level;
	uint64_t any, all;
	const GUID *source;		/* NULL: GUID_NULL */
	const struct nttrace_filters *filters;	/* a private ENABLE's; NULL: none */
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
/* The classes' table (below); taken after reg_lock, when both are. */
static pthread_mutex_t class_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t reg_idle = PTHREAD_COND_INITIALIZER;
/*
 * EventRegisters taking their enables on their own threads (under
 * reg_lock), and what the notification thread waits on meanwhile: see
 * nttrace_event_register().
 */
static unsigned int registering;
static pthread_cond_t reg_registered = PTHREAD_COND_INITIALIZER;
static struct reg_entry *entries;
/*
 * The table of handles (provider_internal.h). Entries are made as slots are first
 * used and kept: one unregistered goes on the free list for the next
 * registration, with a new generation.
 */
struct nttrace_reg_slot nttrace_reg_slots[NTTRACE_MAX_REGISTRATIONS];
static unsigned int nr_slots;		/* slots ever used */
static struct reg_entry *free_entries;
static int notify_fd = -1;
/*
 * The notification thread (under reg_lock): running while the file has a
 * registration of ours, stopped and joined when the last one goes and when
 * the library is unloaded, so that no thread of ours outlives it (issue
 * 27: a detached thread ran on in the code dlclose had unmapped). It
 * waits on the file and on an eventfd of its own that asks it to stop.
 */
struct notifier {
	pthread_t thread;
	int fd;				/* notify_fd when it started */
	int wake;			/* eventfd: stop */
	struct notifier *next;		/* on the retired list */
};
static struct notifier *notifier;	/* the running one */
static struct notifier *retired;	/* asked to stop, not joined yet */
static unsigned int nr_kernel;		/* registrations on notify_fd */
static unsigned int pass_counter;
/* A forked child's callbacks are not yet told what changed (atfork_child). */
static int fork_resync;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
/*
 * The callbacks this thread is running, innermost first (a callback may
 * enable another provider of the process, whose callback then runs inside
 * it): in a forked child they are the only ones running, and each still
 * has its busy count to give back.
 */
struct cb_frame {
	struct reg_entry *e;
	struct cb_frame *outer;
};
static __thread struct cb_frame *cb_frames;

/* Is this thread inside one of @e's callbacks? */
static int in_callback_of(const struct reg_entry *e)
{
	const struct cb_frame *f;

	for (f = cb_frames; f; f = f->outer)
		if (f->e == e)
			return 1;
	return 0;
}

static ULONG set_error(ULONG error)
{
	SetLastError(error);
	return error;
}

/* The live entry of this process with this handle (classic or EventRegister). */
static struct reg_entry *find_entry(uint64_t handle, int event)
{
	return (struct reg_entry *)nttrace_reg_of(handle, event);
}

static struct reg_entry *find_kernel(uint64_t kernel_handle)
{
	struct reg_entry *e;

	for (e = entries; e; e = e->next)
		if (e->pub.kernel_handle == kernel_handle && !e->orphan)
			return e;
	return NULL;
}

static void unlink_entry(struct reg_entry *e)
{
	struct reg_entry **p;

	for (p = &entries; *p; p = &(*p)->next)
		if (*p == e) {
			*p = e->next;
			return;
		}
}

/*
 * Write @v as @e's private enable, under the uapi's sequence protocol
 * (reg_lock held: one writer). The release fence after the odd count pairs
 * with the reader's acquire fence before its recheck; the release store of
 * the even count with its load-acquire.
 */
static void priv_publish(struct reg_entry *e, const struct nttrace_enable_info *v)
{
	struct nttrace_enable_info *p = &e->pub.priv;
	uint32_t seq = p->sequence;

	__atomic_store_n(&p->sequence, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&p->sessions, v->sessions, __ATOMIC_RELAXED);
	__atomic_store_n(&p->logger_handle, v->logger_handle, __ATOMIC_RELAXED);
	__atomic_store_n(&p->level, v->level, __ATOMIC_RELAXED);
	__atomic_store_n(&p->match_any_keyword, v->match_any_keyword, __ATOMIC_RELAXED);
	__atomic_store_n(&p->match_all_keyword, v->match_all_keyword, __ATOMIC_RELAXED);
	__atomic_store_n(&p->loggers, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&p->sequence, seq + 2, __ATOMIC_RELEASE);
}

/*
 * Replace @e's private filters by @f (taken over; NULL: none). The
 * write lock waits for writers reading the old ones (eventprov.c).
 */
static void priv_filters_set(struct reg_entry *e, struct nttrace_filters *f)
{
	struct nttrace_filters *old;

	pthread_rwlock_wrlock(&nttrace_filters_lock);
	old = e->pub.priv_filters;
	/* Atomic: eventprov.c peeks at it unlocked (NULL: no lock needed). */
	__atomic_store_n(&e->pub.priv_filters, f, __ATOMIC_RELAXED);
	pthread_rwlock_unlock(&nttrace_filters_lock);
	nttrace_filters_free(old);
}

static void priv_clear(struct reg_entry *e)
{
	struct nttrace_enable_info v;

	memset(&v, 0, sizeof(v));
	priv_publish(e, &v);
}

/*
 * Its classes unregistered, and the entry back on the free list for the
 * next registration (its slot's key already cleared): never freed, so
 * that a lookup racing with the unregistration reads this entry, closed.
 */
static void free_entry(struct reg_entry *e)
{
	ULONG i;

	priv_filters_set(e, NULL);
	for (i = 0; i < e->nr_classes; i++)
		nttrace_class_remove(e->classes[i]);
	free(e->classes);
	e->classes = NULL;
	e->nr_classes = 0;
	__atomic_store_n(&e->pub.info.sessions, 0, __ATOMIC_RELAXED);
	priv_clear(e);
	e->next = free_entries;
	free_entries = e;
}

/*
 * A new slot's first generation: mixed from its index and an address of
 * this run, so that neighbouring slots' handles differ in more than their
 * index (a handle off by one is another slot's with another generation,
 * refused) and handles differ between runs.
 */
static uint32_t first_gen(uint32_t index, const void *where)
{
	return (index * 0x9E3779B1U) ^ (uint32_t)((uintptr_t)where >> 12);
}

/*
 * An entry for a new registration of @type, with its next handle's
 * generation in pub.gen; reg_lock held. NULL with *@err: the table is full
 * (-EMFILE, ERROR_NO_SYSTEM_RESOURCES) or no memory.
 */
static struct reg_entry *new_entry(uint32_t type, int *err)
{
	struct reg_entry *e = free_entries;
	uint32_t gen = 0, index;
	void *mem;

	if (e) {
		free_entries = e->next;
		gen = e->pub.gen;
		index = e->pub.index;
	} else {
		if (nr_slots == NTTRACE_MAX_REGISTRATIONS) {
			*err = -EMFILE;
			return NULL;
		}
		if (posix_memalign(&mem, 64, sizeof(*e))) {
			*err = -ENOMEM;
			return NULL;
		}
		e = mem;
		index = nr_slots++;
		__atomic_store_n(&nttrace_reg_slots[index].reg, &e->pub, __ATOMIC_RELEASE);
	}
	memset(e, 0, sizeof(*e));
	e->pub.index = index;
	if (!gen)
		gen = first_gen(index, e);
	/* The generation's bits above the index and kind; never 0. */
	gen = (gen + 1) & (UINT32_MAX >> NTTRACE_REG_GEN_SHIFT);
	e->pub.gen = gen ? gen : 1;
	e->type = type;
	return e;
}

/* Its handle: index, kind, generation. */
static uint32_t entry_key(const struct reg_entry *e)
{
	return e->pub.index | (e->type == NTTRACE_REG_EVENT ? NTTRACE_REG_EVENT_BIT : 0) |
	       e->pub.gen << NTTRACE_REG_GEN_SHIFT;
}

/* Registered: its handle now finds it. */
static void publish_entry(struct reg_entry *e)
{
	__atomic_store_n(&nttrace_reg_slots[e->pub.index].key, entry_key(e), __ATOMIC_RELEASE);
}

/* An entry that never registered, back on the free list; reg_lock held. */
static void drop_entry(struct reg_entry *e)
{
	e->next = free_entries;
	free_entries = e;
}

/* The kernel's enable info (see nttrace_read_enable_info). */
static void read_info(const struct reg_entry *e, struct nttrace_enable_info *out)
{
	nttrace_read_enable_info(&e->pub.info, out);
}

/* Run @e's callback; reg_lock held on entry and on return, not during. */
static ULONG run_callback(struct reg_entry *e, const struct cb_args *a)
{
	static const GUID null_guid;
	struct cb_frame frame = { .e = e, .outer = cb_frames };
	WNODE_HEADER w;
	ULONG size = sizeof(w), ret = ERROR_SUCCESS;

	if (e->type == NTTRACE_REG_EVENT && !e->enable_cb)
		return ERROR_SUCCESS;
	memset(&w, 0, sizeof(w));
	w.BufferSize = sizeof(w);
	w.HistoricalContext = a->handle;
	w.Guid = e->pub.guid;
	w.Flags = WNODE_FLAG_TRACED_GUID;
	e->busy++;
	pthread_mutex_unlock(&reg_lock);
	cb_frames = &frame;
	if (e->type == NTTRACE_REG_EVENT)
		e->enable_cb(a->source ? a->source : &null_guid, a->control, a->level,
			     a->any, a->all, NULL, e->context);
	else
		ret = e->callback(a->code, e->context, &size, &w);
	cb_frames = frame.outer;
	pthread_mutex_lock(&reg_lock);
	if (!--e->busy) {
		if (e->dead)
			free_entry(e);
		pthread_cond_broadcast(&reg_idle);
	}
	return ret;
}

static ULONG run_classic(struct reg_entry *e, WMIDPREQUESTCODE code, uint64_t handle)
{
	struct cb_args a = { .code = code, .handle = handle };

	return run_callback(e, &a);
}

/* A kernel enable or disable for @e, remembered for resync(). */
static void deliver(struct reg_entry *e, WMIDPREQUESTCODE code, uint64_t handle)
{
	e->delivered = code == WMI_ENABLE_EVENTS ? handle : 0;
	run_classic(e, code, handle);
}

/*
 * What an EventRegister provider's callback is told when a session lets
 * go of it: ENABLE with the union of what still enables it (the kernel's
 * aggregate and the private enable), as Microsoft documents for a provider
 * another session still enables, else DISABLE with zeros.
 */
static void event_remaining(struct reg_entry *e, struct cb_args *a)
{
	struct nttrace_enable_info k, p;
	int have = 0;

	read_info(e, &k);
	nttrace_read_enable_info(&e->pub.priv, &p);
	memset(a, 0, sizeof(*a));
	a->control = EVENT_CONTROL_CODE_DISABLE_PROVIDER;
	if (k.sessions) {
		a->level = k.level;
		a->any = k.match_any_keyword;
		a->all = k.match_all_keyword;
		have = 1;
	}
	if (p.sessions) {
		/* Level 0 is every level: it wins any maximum. */
		if (!have)
			a->level = p.level;
		else if (!a->level || !p.level)
			a->level = 0;
		else if (p.level > a->level)
			a->level = p.level;
		a->any = have ? a->any | p.match_any_keyword : p.match_any_keyword;
		a->all = have ? a->all & p.match_all_keyword : p.match_all_keyword;
		have = 1;
	}
	if (have)
		a->control = EVENT_CONTROL_CODE_ENABLE_PROVIDER;
}

/* A kernel notification for an EventRegister entry. */
static void deliver_event(struct reg_entry *e, const struct nttrace_notification *n)
{
	struct cb_args a;

	memset(&a, 0, sizeof(a));
	if (n->control == EVENT_CONTROL_CODE_DISABLE_PROVIDER) {
		if (n->logger_id >= 1 && n->logger_id <= 64)
			e->cb_loggers &= ~(1ULL << (n->logger_id - 1));
		event_remaining(e, &a);
	} else {
		if (n->control == EVENT_CONTROL_CODE_ENABLE_PROVIDER &&
		    n->logger_id >= 1 && n->logger_id <= 64)
			e->cb_loggers |= 1ULL << (n->logger_id - 1);
		a.control = n->control;
		a.level = (UCHAR)n->level;
		a.any = n->match_any_keyword;
		a.all = n->match_all_keyword;
	}
	a.handle = n->logger_handle;
	run_callback(e, &a);
}

/*
 * Notifications were dropped (the queue overflowed): what the callbacks
 * last saw may be stale. The enable info is always current: tell each
 * provider whose callback saw something else what it now says. Callbacks
 * run unlocked and the list may change meanwhile: one entry per walk.
 * An EventRegister provider whose sessions changed is told the union of
 * what enables it now (the per-session values of the dropped ones are
 * gone).
 */
static void resync(void)
{
	unsigned int pass = ++pass_counter;
	struct nttrace_enable_info v;
	struct reg_entry *e;
	struct cb_args a;

	for (e = entries; e; e = e->next)
		e->skip = 0;
again:
	for (e = entries; e; e = e->next) {
		if (e->orphan || e->dead || e->pass == pass)
			continue;
		e->pass = pass;
		read_info(e, &v);
		if (e->type == NTTRACE_REG_EVENT) {
			if (v.loggers == e->cb_loggers)
				continue;
			e->cb_loggers = v.loggers;
			event_remaining(e, &a);
			run_callback(e, &a);
			goto again;
		}
		if (v.logger_handle == e->delivered)
			continue;
		if (v.logger_handle)
			deliver(e, WMI_ENABLE_EVENTS, v.logger_handle);
		else
			deliver(e, WMI_DISABLE_EVENTS, e->delivered);
		goto again;
	}
}

/*
 * A forked child's first pass (reg_lock held): its callbacks were the
 * parent's until fork; tell them what changed since (see atfork_child).
 */
static void fork_catch_up(void)
{
	if (!fork_resync)
		return;
	fork_resync = 0;
	resync();
}

/*
 * Take and deliver every notification waiting on @fd; reg_lock held. The
 * notification thread calls it (@thread) when poll says one waits,
 * EventRegister to run the callbacks of the enables made before it on its
 * own thread.
 */
static void take_notifications(int fd, int thread)
{
	struct nttrace_notification n;
	struct reg_entry *e;

	fork_catch_up();
	for (;;) {
		/* An EventRegister's enables are its own thread's to deliver. */
		while (thread && registering)
			pthread_cond_wait(&reg_registered, &reg_lock);
		memset(&n, 0, sizeof(n));
		n.size = sizeof(n);
		if (ioctl(fd, NTTRACE_IOC_NOTIFICATION, &n) < 0)
			break;
		if (n.dropped)
			resync();
		e = find_kernel(n.handle);
		if (!e || e->dead)
			continue;
		if (e->type == NTTRACE_REG_EVENT) {
			deliver_event(e, &n);
		} else if (n.control == EVENT_CONTROL_CODE_ENABLE_PROVIDER) {
			if (e->skip) {
				e->skip--;
				continue;
			}
			deliver(e, WMI_ENABLE_EVENTS, n.logger_handle);
		} else if (n.control == EVENT_CONTROL_CODE_DISABLE_PROVIDER) {
			deliver(e, WMI_DISABLE_EVENTS, n.logger_handle);
		}
	}
}

static void *notify_thread(void *arg)
{
	struct notifier *me = arg;
	int fd = me->fd;

	pthread_mutex_lock(&reg_lock);
	fork_catch_up();
	pthread_mutex_unlock(&reg_lock);
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = fd, .events = POLLPRI },
			{ .fd = me->wake, .events = POLLIN },
		};

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		/* Asked to stop: whatever waits is for no registration of ours. */
		if (p[1].revents || (p[0].revents & (POLLERR | POLLNVAL)))
			break;
		pthread_mutex_lock(&reg_lock);
		take_notifications(fd, 1);
		pthread_mutex_unlock(&reg_lock);
	}
	return NULL;
}

/* Ask the running thread to stop (reg_lock held); reap() joins it. */
static void stop_thread(void)
{
	uint64_t one = 1;

	if (!notifier)
		return;
	if (write(notifier->wake, &one, sizeof(one)) != sizeof(one)) {
		/* An eventfd takes a write until its count is near 2^64. */
	}
	notifier->next = retired;
	retired = notifier;
	notifier = NULL;
}

/*
 * Join the stopped threads that have ended; reg_lock not held. With
 * @timeout_ms (at unload), wait that long for each, then leave one still
 * running detached; without, take only those already gone, never waiting:
 * an unregistering thread may hold a lock of the program's that a
 * callback on the notification thread is waiting for. The calling thread,
 * if it is one of them (a callback unregistered the last provider), is
 * left for a later call.
 */
static void reap(int timeout_ms)
{
	struct notifier *list, *n, *keep = NULL;
	int err;

	pthread_mutex_lock(&reg_lock);
	list = retired;
	retired = NULL;
	pthread_mutex_unlock(&reg_lock);
	while ((n = list)) {
		list = n->next;
		if (pthread_equal(n->thread, pthread_self())) {
			err = EDEADLK;
		} else if (timeout_ms) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += timeout_ms / 1000;
			ts.tv_nsec += (timeout_ms % 1000) * 1000000L;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			err = pthread_timedjoin_np(n->thread, NULL, &ts);
			if (err) {
				pthread_detach(n->thread);
				continue;	/* its eventfd and memory stay with it */
			}
		} else {
			err = pthread_tryjoin_np(n->thread, NULL);
		}
		if (err) {
			n->next = keep;
			keep = n;
			continue;
		}
		close(n->wake);
		free(n);
	}
	if (keep) {
		pthread_mutex_lock(&reg_lock);
		for (n = keep; n->next; n = n->next)
			;
		n->next = retired;
		retired = keep;
		pthread_mutex_unlock(&reg_lock);
	}
}

/*
 * The library's unloading (dlclose of the shared build; also the exit of
 * the process): the thread must not run on in unmapped code. One idle in
 * poll stops at once; one in a callback is waited for a while, not for
 * ever: at exit, a callback may be waiting for a lock the exiting thread
 * holds. The lock is only tried, for the same reason.
 */
__attribute__((destructor)) static void stop_at_unload(void)
{
	if (pthread_mutex_trylock(&reg_lock))
		return;
	stop_thread();
	pthread_mutex_unlock(&reg_lock);
	reap(1000);
}

/* The registrations' file; under reg_lock. 0 or -errno. */
static int open_notifications(void)
{
	int fd;

	if (notify_fd >= 0)
		return 0;
	fd = open(NTTRACE_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENXIO || errno == ENODEV ?
		       -ENODEV : -errno;
	notify_fd = fd;
	return 0;
}

/*
 * Its thread, once the file has a registration (on a file without one,
 * poll would report an error); under reg_lock. 0 or -errno.
 */
static int start_thread(void)
{
	struct notifier *n;
	int err;

	if (notifier)
		return 0;
	n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	n->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (n->wake < 0) {
		err = -errno;
		free(n);
		return err;
	}
	n->fd = notify_fd;
	err = pthread_create(&n->thread, NULL, notify_thread, n);
	if (err) {
		close(n->wake);
		free(n);
		return -err;
	}
	notifier = n;
	return 0;
}

static void atfork_prepare(void)
{
	pthread_mutex_lock(&reg_lock);
	pthread_mutex_lock(&class_lock);
	pthread_rwlock_wrlock(&nttrace_filters_lock);
}

static void atfork_parent(void)
{
	pthread_rwlock_unlock(&nttrace_filters_lock);
	pthread_mutex_unlock(&class_lock);
	pthread_mutex_unlock(&reg_lock);
}

/*
 * Clear @e's copy of the kernel's enable info: no session, the sequence
 * even (fork may have copied it mid-update, odd).
 */
static void info_clear(struct reg_entry *e)
{
	struct nttrace_enable_info *v = &e->pub.info;
	uint32_t seq = v->sequence;

	memset(v, 0, sizeof(*v));
	v->sequence = (seq + 1) & ~1U;
}

/*
 * In the child: register @e again with the kernel, on the child's own
 * file, its enable info at the same address (the child's copy of the
 * page). REGISTER writes the info whole before it returns, the enables
 * made already included, so a copy fork took mid-update is replaced too.
 * On failure the entry is left registered in this process only, and
 * reads as disabled.
 */
static void fork_register(struct reg_entry *e)
{
	struct nttrace_register r;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.type = e->type;
	memcpy(r.guid, &e->pub.guid, 16);
	r.enable_info = (uintptr_t)&e->pub.info;
	r.context = (uintptr_t)e;
	if (notify_fd >= 0 && !ioctl(notify_fd, NTTRACE_IOC_REGISTER, &r)) {
		e->pub.kernel_handle = r.handle;
		nr_kernel++;
		return;
	}
	e->orphan = 1;
	e->pub.kernel_handle = 0;
	info_clear(e);
}

/*
 * The child keeps its providers (see the top of the file), as user_events
 * keeps a forked child's enablers: each entry registered by the parent is
 * registered again for the child, on a file of its own, and keeps its
 * handle. What the kernel queued for the new registrations (an ENABLE per
 * enable made before) is what the parent's callbacks were told already:
 * it is dropped, and the notification thread's first pass tells each
 * callback only what differs from what the parent's last saw (resync()).
 */
static void atfork_child(void)
{
	struct nttrace_notification n;
	struct reg_entry *e;
	struct cb_frame *f;

	/*
	 * The locks first: held by the forking thread (atfork_prepare), and
	 * the thread started below takes reg_lock at once; a mutex must not
	 * be initialized under a waiter.
	 */
	pthread_mutex_init(&reg_lock, NULL);
	pthread_mutex_init(&class_lock, NULL);
	pthread_rwlock_init(&nttrace_filters_lock, NULL);
	pthread_cond_init(&reg_idle, NULL);
	pthread_cond_init(&reg_registered, NULL);
	registering = 0;
	if (notify_fd >= 0)
		close(notify_fd);
	notify_fd = -1;
	nr_kernel = 0;
	/* The threads were the parent's: only their memory and eventfds are here. */
	if (notifier) {
		notifier->next = retired;
		retired = notifier;
		notifier = NULL;
	}
	while (retired) {
		struct notifier *t = retired;

		retired = t->next;
		close(t->wake);
		free(t);
	}
	for (e = entries; e; e = e->next) {
		/* The parent's other threads' callbacks do not run here. */
		e->busy = 0;
		e->skip = 0;
		/* The user-mode logger is the parent's: no private enable here. */
		e->private_handle = 0;
		e->pub.priv.sessions = 0;
		e->pub.priv.logger_handle = 0;
		nttrace_filters_free(e->pub.priv_filters);
		e->pub.priv_filters = NULL;
		/* Not the kernel's (no module), or lost at an earlier fork. */
		if (!e->pub.kernel_handle)
			continue;
		if (notify_fd < 0)
			open_notifications();
		fork_register(e);
	}
	/*
	 * This thread's callbacks, if it forked inside some, return here
	 * (an entry unregistered meanwhile by another thread of the parent,
	 * left for its last callback to free, is in no list: reset it too).
	 */
	for (f = cb_frames; f; f = f->outer)
		f->e->busy = 0;
	for (f = cb_frames; f; f = f->outer)
		f->e->busy++;
	if (nr_kernel) {
		for (;;) {
			memset(&n, 0, sizeof(n));
			n.size = sizeof(n);
			if (ioctl(notify_fd, NTTRACE_IOC_NOTIFICATION, &n) < 0)
				break;
		}
		fork_resync = 1;
		/* Last: it takes reg_lock. Failing, the next registration starts it. */
		start_thread();
	}
}

static void install_atfork(void)
{
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

static void unregister_kernel(uint64_t handle)
{
	struct nttrace_unregister u;

	/* After it returns the kernel queues nothing more for it. */
	memset(&u, 0, sizeof(u));
	u.size = sizeof(u);
	u.handle = handle;
	ioctl(notify_fd, NTTRACE_IOC_UNREGISTER, &u);
}

/*
 * What RegisterTraceGuids and EventRegister share: a new entry of @type
 * for @guid, with its callback and context, registered with the kernel on
 * the registrations' file, the notification thread started, and on the
 * list, in *@out; not yet published (its handle does not find it yet).
 * Returns with reg_lock held on success (0), unlocked on failure
 * (-errno). With @local_ok, a missing module is no failure: the entry is
 * registered in this process only (kernel handle 0), for the user-mode
 * logger.
 */
static int add_entry(uint32_t type, const GUID *guid, WMIDPREQUEST callback,
		     PENABLECALLBACK enable_cb, void *context, int local_ok,
		     struct reg_entry **out)
{
	struct nttrace_register r;
	struct reg_entry *e;
	int err;

	pthread_once(&atfork_once, install_atfork);
	reap(0);
	pthread_mutex_lock(&reg_lock);
	/*
	 * A forked child's catch-up with its inherited registrations first,
	 * before this one exists: run later (by EventRegister's own
	 * take_notifications()), its resync would give the new registration
	 * the enables made before it as one callback, and the ENABLEs the
	 * kernel queues for it would then be taken as delivered, where each
	 * session's must run inside EventRegister. The notification thread
	 * started at the fork may or may not have taken the lock first: the
	 * result depended on which.
	 */
	fork_catch_up();
	e = new_entry(type, &err);
	if (!e) {
		pthread_mutex_unlock(&reg_lock);
		return err;
	}
	e->pub.guid = *guid;
	e->callback = callback;
	e->enable_cb = enable_cb;
	e->context = context;
	memset(&r, 0, sizeof(r));
	err = open_notifications();
	if (!err) {
		r.size = sizeof(r);
		r.type = e->type;
		memcpy(r.guid, &e->pub.guid, 16);
		r.enable_info = (uintptr_t)&e->pub.info;
		r.context = (uintptr_t)e;
		if (ioctl(notify_fd, NTTRACE_IOC_REGISTER, &r) < 0)
			err = -errno;
		else if ((err = start_thread()) != 0)
			unregister_kernel(r.handle);
		else
			nr_kernel++;
	} else if (err == -ENODEV && local_ok) {
		err = 0;
	}
	if (err) {
		drop_entry(e);
		pthread_mutex_unlock(&reg_lock);
		return err;
	}
	e->pub.kernel_handle = r.handle;
	e->next = entries;
	entries = e;
	*out = e;
	return 0;
}

/*
 * Its handle refused from now on, off the list and out of the kernel, then
 * freed once no callback runs.
 */
static void remove_entry(struct reg_entry *e)
{
	__atomic_store_n(&nttrace_reg_slots[e->pub.index].key, 0, __ATOMIC_RELEASE);
	unlink_entry(e);
	if (!e->orphan && e->pub.kernel_handle) {
		unregister_kernel(e->pub.kernel_handle);
		if (!--nr_kernel)
			stop_thread();
	}
	if (e->busy && in_callback_of(e)) {
		/* Its own callback, on this thread: freed when it returns. */
		e->dead = 1;
	} else {
		/* Another thread's callback: wait for it to return. */
		while (e->busy)
			pthread_cond_wait(&reg_idle, &reg_lock);
		free_entry(e);
	}
}

static ULONG register_guids(WMIDPREQUEST RequestAddress, PVOID RequestContext,
			    LPCGUID ControlGuid, ULONG GuidCount,
			    PTRACE_GUID_REGISTRATION TraceGuidReg,
			    PTRACEHANDLE RegistrationHandle)
{
	struct nttrace_enable_info v;
	struct reg_entry *e;
	HANDLE *classes = NULL;
	ULONG i, ret = ERROR_SUCCESS;
	int err;

	if (!RequestAddress || !ControlGuid || !RegistrationHandle ||
	    (GuidCount && !TraceGuidReg))
		return set_error(ERROR_INVALID_PARAMETER);
	for (i = 0; i < GuidCount; i++)
		if (!TraceGuidReg[i].Guid)
			return set_error(ERROR_INVALID_PARAMETER);

	if (GuidCount) {
		classes = calloc(GuidCount, sizeof(*classes));
		if (!classes)
			return set_error(ERROR_NOT_ENOUGH_MEMORY);
	}
	for (i = 0; i < GuidCount && !ret; i++)
		ret = nttrace_class_add(TraceGuidReg[i].Guid, &classes[i]);
	if (!ret) {
		err = add_entry(NTTRACE_REG_CLASSIC, ControlGuid, RequestAddress, NULL,
				RequestContext, 0, &e);
		ret = err ? nttrace_errno_to_win32(err) : ERROR_SUCCESS;
	}
	if (ret) {
		while (i--)
			nttrace_class_remove(classes[i]);
		free(classes);
		return set_error(ret);
	}
	e->classes = classes;
	e->nr_classes = GuidCount;
	publish_entry(e);
	for (i = 0; i < GuidCount; i++)
		TraceGuidReg[i].RegHandle = classes[i];
	*RegistrationHandle = entry_key(e);

	/*
	 * Enabled before it registered: the kernel wrote the enable info
	 * before REGISTER returned, and queued an ENABLE that the thread
	 * will skip, since the callback runs here.
	 */
	read_info(e, &v);
	if (v.logger_handle) {
		e->skip++;
		e->delivered = v.logger_handle;
		ret = run_classic(e, WMI_ENABLE_EVENTS, v.logger_handle);
	}
	pthread_mutex_unlock(&reg_lock);
	return set_error(ret);
}

/*
 * EventRegister (provider/eventprov.c). Enables made before: the kernel
 * queued one ENABLE per session on the registrations' file before
 * REGISTER returned; they are taken here, on the caller's thread, so that
 * the callback runs before EventRegister returns, as on Windows (the
 * notifications of other registrations waiting at that moment are
 * delivered here too, in order).
 */
ULONG nttrace_event_register(LPCGUID guid, PENABLECALLBACK cb, void *ctx,
			     uint64_t *reghandle)
{
	struct reg_entry *e;
	int err;

	err = add_entry(NTTRACE_REG_EVENT, guid, NULL, cb, ctx, 1, &e);
	if (err)
		return nttrace_errno_to_win32(err);
	publish_entry(e);
	*reghandle = entry_key(e);
	/*
	 * Each callback runs without reg_lock, and the notification thread,
	 * woken by the same notifications, would otherwise take the next one
	 * meanwhile and run its callback after EventRegister returned (a
	 * provider enabled by two sessions then saw one callback inside
	 * EventRegister, now and then: eventprov_test). It waits until the
	 * enables made before are delivered here.
	 */
	if (e->pub.kernel_handle) {
		registering++;
		take_notifications(notify_fd, 0);
		if (!--registering)
			pthread_cond_broadcast(&reg_registered);
	}
	pthread_mutex_unlock(&reg_lock);
	return ERROR_SUCCESS;
}

ULONG nttrace_event_unregister(uint64_t reghandle)
{
	struct reg_entry *e;

	pthread_mutex_lock(&reg_lock);
	e = find_entry(reghandle, 1);
	if (!e || e->dead) {
		pthread_mutex_unlock(&reg_lock);
		return ERROR_INVALID_HANDLE;
	}
	remove_entry(e);
	pthread_mutex_unlock(&reg_lock);
	reap(0);
	return ERROR_SUCCESS;
}

ULONG WMIAPI RegisterTraceGuidsA(WMIDPREQUEST RequestAddress,
				 PVOID RequestContext, LPCGUID ControlGuid,
				 ULONG GuidCount,
				 PTRACE_GUID_REGISTRATION TraceGuidReg,
				 LPCSTR MofImagePath, LPCSTR MofResourceName,
				 PTRACEHANDLE RegistrationHandle)
{
	/* The MOF names are not used, as on Windows since XP SP2. */
	(void)MofImagePath;
	(void)MofResourceName;
	return register_guids(RequestAddress, RequestContext, ControlGuid,
			      GuidCount, TraceGuidReg, RegistrationHandle);
}

ULONG WMIAPI RegisterTraceGuidsW(WMIDPREQUEST RequestAddress,
				 PVOID RequestContext, LPCGUID ControlGuid,
				 ULONG GuidCount,
				 PTRACE_GUID_REGISTRATION TraceGuidReg,
				 LPCWSTR MofImagePath, LPCWSTR MofResourceName,
				 PTRACEHANDLE RegistrationHandle)
{
	(void)MofImagePath;
	(void)MofResourceName;
	return register_guids(RequestAddress, RequestContext, ControlGuid,
			      GuidCount, TraceGuidReg, RegistrationHandle);
}

ULONG WMIAPI UnregisterTraceGuids(TRACEHANDLE RegistrationHandle)
{
	struct reg_entry *e;

	pthread_mutex_lock(&reg_lock);
	e = find_entry(RegistrationHandle, 0);
	if (!e || e->dead) {
		pthread_mutex_unlock(&reg_lock);
		return set_error(ERROR_INVALID_HANDLE);
	}
	remove_entry(e);
	pthread_mutex_unlock(&reg_lock);
	reap(0);
	return set_error(ERROR_SUCCESS);
}

/* ---- the classes' table (provider_internal.h) ---- */

/*
 * Chunks of CLASS_CHUNK entries, made as they are needed and kept; a
 * class's handle is its index (16 bits) with a generation above.
 */
#define CLASS_CHUNK	256
#define CLASS_CHUNKS	256
static struct nttrace_guid_reg *class_chunks[CLASS_CHUNKS];
static unsigned int nr_class_slots;	/* ever used */
static uint32_t free_classes;		/* index + 1; 0: none */

static struct nttrace_guid_reg *class_at(uint32_t index)
{
	struct nttrace_guid_reg *chunk =
		__atomic_load_n(&class_chunks[index / CLASS_CHUNK], __ATOMIC_ACQUIRE);

	return chunk ? &chunk[index % CLASS_CHUNK] : NULL;
}

ULONG nttrace_class_add(const GUID *guid, HANDLE *handle)
{
	struct nttrace_guid_reg *c;
	uint32_t index, gen;

	pthread_mutex_lock(&class_lock);
	if (free_classes) {
		index = free_classes - 1;
		c = class_at(index);
		free_classes = c->next_free;
	} else {
		/* Index 0xFFFF is left out: 65535 classes at most. */
		if (nr_class_slots == CLASS_CHUNK * CLASS_CHUNKS - 1) {
			pthread_mutex_unlock(&class_lock);
			return ERROR_NO_SYSTEM_RESOURCES;
		}
		index = nr_class_slots;
		if (!class_chunks[index / CLASS_CHUNK]) {
			c = calloc(CLASS_CHUNK, sizeof(*c));
			if (!c) {
				pthread_mutex_unlock(&class_lock);
				return ERROR_NOT_ENOUGH_MEMORY;
			}
			__atomic_store_n(&class_chunks[index / CLASS_CHUNK], c, __ATOMIC_RELEASE);
		}
		nr_class_slots++;
		c = class_at(index);
		c->gen = first_gen(index, c);
	}
	gen = (c->gen + 1) & 0xFFFF;
	c->gen = gen ? gen : 1;
	c->guid = *guid;
	__atomic_store_n(&c->next_instance, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&c->key, index | c->gen << 16, __ATOMIC_RELEASE);
	*handle = (HANDLE)(uintptr_t)c->key;
	pthread_mutex_unlock(&class_lock);
	return ERROR_SUCCESS;
}

void nttrace_class_remove(HANDLE handle)
{
	struct nttrace_guid_reg *c = nttrace_class_of(handle);

	if (!c)
		return;
	pthread_mutex_lock(&class_lock);
	if (c->key == (uintptr_t)handle) {
		__atomic_store_n(&c->key, 0, __ATOMIC_RELEASE);
		c->next_free = free_classes;
		free_classes = (uint32_t)((uintptr_t)handle & 0xFFFF) + 1;
	}
	pthread_mutex_unlock(&class_lock);
}

struct nttrace_guid_reg *nttrace_class_of(HANDLE handle)
{
	uintptr_t h = (uintptr_t)handle;
	struct nttrace_guid_reg *c;

	if (!h || h > UINT32_MAX)
		return NULL;
	c = class_at(h & 0xFFFF);
	if (!c || __atomic_load_n(&c->key, __ATOMIC_ACQUIRE) != h)
		return NULL;
	return c;
}

/* The handle bits of a logger that is no session: 0 and 0xFFFF. */
static int bad_logger(TRACEHANDLE h)
{
	uint32_t id = NTTRACE_HANDLE_LOGGER_ID(h);

	/* The user-mode logger's: its low bits are a generation, any value. */
	if (NTTRACE_HANDLE_INTERNAL(h) & NTTRACE_TRACE_ENABLE_INTERNAL_PRIVATE)
		return 0;
	return id == 0 || id == 0xFFFF;
}

TRACEHANDLE WMIAPI GetTraceLoggerHandle(PVOID Buffer)
{
	TRACEHANDLE h;

	if (!Buffer) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return (TRACEHANDLE)(intptr_t)-1;	/* INVALID_HANDLE_VALUE */
	}
	h = ((const WNODE_HEADER *)Buffer)->HistoricalContext;
	if (bad_logger(h)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return (TRACEHANDLE)(intptr_t)-1;
	}
	return h;
}

ULONG WMIAPI GetTraceEnableFlags(TRACEHANDLE TraceHandle)
{
	if (bad_logger(TraceHandle)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return 0;
	}
	return NTTRACE_HANDLE_FLAGS(TraceHandle);
}

UCHAR WMIAPI GetTraceEnableLevel(TRACEHANDLE TraceHandle)
{
	if (bad_logger(TraceHandle)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return 0;
	}
	return (UCHAR)NTTRACE_HANDLE_LEVEL(TraceHandle);
}

ULONG nttrace_trace_guids_enabled(TRACEHANDLE RegistrationHandle,
				  struct nttrace_enable_info *Info,
				  TRACEHANDLE *PrivateHandle)
{
	struct reg_entry *e = find_entry(RegistrationHandle, 0);

	/*
	 * No lock and no search: this is the fast path. The handle must be
	 * one RegisterTraceGuids gave and not yet unregistered.
	 */
	if (!e)
		return set_error(ERROR_INVALID_HANDLE);
	read_info(e, Info);
	if (PrivateHandle)
		*PrivateHandle = __atomic_load_n(&e->private_handle, __ATOMIC_ACQUIRE);
	return ERROR_SUCCESS;
}

/* One private change for @e; reg_lock held. 1 if it concerned @e. */
static int private_one(struct reg_entry *e, uint32_t control, TRACEHANDLE handle,
		       const struct cb_args *in)
{
	struct nttrace_enable_info v, p;
	struct cb_args a;

	if (e->type == NTTRACE_REG_CLASSIC) {
		if (control == EVENT_CONTROL_CODE_CAPTURE_STATE)
			return 0;
		if (control == EVENT_CONTROL_CODE_DISABLE_PROVIDER && !e->private_handle)
			return 0;
		__atomic_store_n(&e->private_handle,
				 control == EVENT_CONTROL_CODE_ENABLE_PROVIDER ? handle : 0,
				 __ATOMIC_RELEASE);
		run_classic(e, control == EVENT_CONTROL_CODE_ENABLE_PROVIDER ?
			    WMI_ENABLE_EVENTS : WMI_DISABLE_EVENTS, handle);
		return 1;
	}
	nttrace_read_enable_info(&e->pub.priv, &p);
	if (control != EVENT_CONTROL_CODE_ENABLE_PROVIDER && !p.sessions)
		return 0;
	a = *in;
	a.control = control;
	a.handle = handle;
	if (control == EVENT_CONTROL_CODE_ENABLE_PROVIDER) {
		/*
		 * The filters first, then the enable they go with. No memory
		 * for a copy: no filter (the enable still stands).
		 */
		priv_filters_set(e, nttrace_filters_dup(in->filters));
		memset(&v, 0, sizeof(v));
		v.sessions = 1;
		v.logger_handle = handle;
		v.level = in->level;
		v.match_any_keyword = in->any;
		v.match_all_keyword = in->all;
		priv_publish(e, &v);
	} else if (control == EVENT_CONTROL_CODE_DISABLE_PROVIDER) {
		priv_clear(e);
		priv_filters_set(e, NULL);
		event_remaining(e, &a);
		a.source = in->source;
		a.handle = handle;
	} else {
		a.level = p.level;
		a.any = p.match_any_keyword;
		a.all = p.match_all_keyword;
	}
	run_callback(e, &a);
	return 1;
}

/* See provider_internal.h. */
unsigned int nttrace_private_enable_ex(const GUID *guid, uint32_t control,
				       TRACEHANDLE handle, uint8_t level, uint64_t any,
				       uint64_t all, const GUID *source,
				       const struct nttrace_filters *filters)
{
	struct cb_args in = { .level = level, .any = any, .all = all, .source = source,
			      .filters = filters };
	unsigned int n = 0, pass;
	struct reg_entry *e;

	pthread_mutex_lock(&reg_lock);
	pass = ++pass_counter;
	/* Callbacks run unlocked and the list may change: one per walk. */
again:
	for (e = entries; e; e = e->next) {
		if (e->orphan || e->dead || e->pass == pass ||
		    memcmp(&e->pub.guid, guid, sizeof(*guid)))
			continue;
		e->pass = pass;
		if (private_one(e, control, handle, &in)) {
			n++;
			goto again;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	return n;
}

/*
 * See provider_internal.h. The stop is the session's (SourceId GUID_NULL, as
 * Microsoft documents for a stopping session).
 */
void nttrace_private_stop(void)
{
	struct cb_args in = { .source = NULL };
	struct nttrace_enable_info p;
	unsigned int pass;
	struct reg_entry *e;

	pthread_mutex_lock(&reg_lock);
	pass = ++pass_counter;
again:
	for (e = entries; e; e = e->next) {
		if (e->orphan || e->dead || e->pass == pass)
			continue;
		e->pass = pass;
		if (e->type == NTTRACE_REG_CLASSIC) {
			if (!e->private_handle)
				continue;
			private_one(e, EVENT_CONTROL_CODE_DISABLE_PROVIDER, e->private_handle,
				    &in);
			goto again;
		}
		nttrace_read_enable_info(&e->pub.priv, &p);
		if (!p.sessions)
			continue;
		private_one(e, EVENT_CONTROL_CODE_DISABLE_PROVIDER, p.logger_handle, &in);
		goto again;
	}
	pthread_mutex_unlock(&reg_lock);
}
