// SPDX-License-Identifier: LGPL-2.1
/*
 * Classic providers: RegisterTraceGuids, UnregisterTraceGuids,
 * GetTraceLoggerHandle, GetTraceEnableFlags, GetTraceEnableLevel.
 *
 * Per registration the library keeps what seed 004 says NTDLL keeps in an
 * ETW_REGISTRATION_ENTRY: the provider GUID, the callback and its context,
 * the kernel's registration handle, the registration's Type (here
 * NTTRACE_REG_CLASSIC), and the enable information, which the kernel
 * writes into this very memory (struct nttrace_enable_info, under the
 * uapi's sequence count) so that "is this provider enabled, for which
 * logger, with which flags and level" costs no system call
 * (nttrace_trace_guids_enabled). The private enables (the process's
 * user-mode logger, seed 004's "private registrations") are kept beside it
 * and made with no system call at all (controller/enable.c).
 *
 * Notifications. The process's registrations live on one /dev/nttrace file
 * of their own; a thread, started with the first registration, polls it
 * (EPOLLPRI), takes the kernel's notifications one at a time and runs the
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
 * - fork: the child is not a registered provider (Windows has no fork; a
 *   new process has no registrations). The kernel keeps updating the
 *   parent's pinned page, and the child's copy of it is cleared, so the
 *   child's providers read as disabled and no callback runs there; its
 *   UnregisterTraceGuids frees the copies and succeeds. The notification
 *   file is the parent's (the child's descriptor is closed).
 * - Last error: the Register/Unregister calls set it always, as this
 *   library's functions do; GetTraceEnableFlags and GetTraceEnableLevel set
 *   it only on failure, so Microsoft's documented test (clear it, call,
 *   look) works.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <nttrace/evntrace.h>
#include <nttrace/nt.h>

#include "../internal.h"


#define ENTRY_MAGIC	0x52656745U	/* "EgeR" */

struct reg_entry {
	/* First, in a 64-byte aligned block: never across a page. */
	struct nttrace_enable_info info;	/* written by the kernel */
	uint32_t magic;
	uint32_t type;				/* NTTRACE_REG_CLASSIC */
	GUID guid;				/* the control GUID */
	WMIDPREQUEST callback;
	void *context;
	uint64_t kernel_handle;
	struct nttrace_guid_reg *classes;	/* the TRACE_GUID_REGISTRATIONs' */
	ULONG nr_classes;
	/* Under reg_lock: */
	uint64_t private_handle;	/* the user-mode logger's enable; 0: none */
	uint64_t delivered;		/* the kernel enable the callback has */
	unsigned int pass;		/* resync and private enables: done */
	unsigned int skip;		/* ENABLEs already delivered by Register */
	unsigned int busy;		/* callbacks running */
	int dead;			/* unregistered while busy: the last frees */
	int orphan;			/* inherited across fork */
	struct reg_entry *next;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t reg_idle = PTHREAD_COND_INITIALIZER;
static struct reg_entry *entries;
static int notify_fd = -1;
static int thread_running;
static unsigned int pass_counter;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
/* The entry whose callback this thread is running, if any. */
static __thread struct reg_entry *in_callback;

static ULONG set_error(ULONG error)
{
	SetLastError(error);
	return error;
}

static struct reg_entry *find_entry(uint64_t handle)
{
	struct reg_entry *e;

	for (e = entries; e; e = e->next)
		if ((uintptr_t)e == handle && e->magic == ENTRY_MAGIC)
			return e;
	return NULL;
}

static struct reg_entry *find_kernel(uint64_t kernel_handle)
{
	struct reg_entry *e;

	for (e = entries; e; e = e->next)
		if (e->kernel_handle == kernel_handle && !e->orphan)
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

static void free_entry(struct reg_entry *e)
{
	ULONG i;

	for (i = 0; i < e->nr_classes; i++)
		e->classes[i].magic = 0;
	free(e->classes);
	e->magic = 0;
	free(e);
}

/*
 * The kernel's enable info, read under its sequence count (uapi: the
 * kernel's first write barrier pairs with our final acquire fence, its
 * second with our load-acquire of the sequence).
 */
static void read_info(const struct reg_entry *e, struct nttrace_enable_info *out)
{
	uint32_t s;

	for (;;) {
		s = __atomic_load_n(&e->info.sequence, __ATOMIC_ACQUIRE);
		if (s & 1)
			continue;
		out->sessions = __atomic_load_n(&e->info.sessions, __ATOMIC_RELAXED);
		out->logger_handle = __atomic_load_n(&e->info.logger_handle,
						     __ATOMIC_RELAXED);
		out->level = __atomic_load_n(&e->info.level, __ATOMIC_RELAXED);
		out->match_any_keyword = __atomic_load_n(&e->info.match_any_keyword,
							 __ATOMIC_RELAXED);
		out->match_all_keyword = __atomic_load_n(&e->info.match_all_keyword,
							 __ATOMIC_RELAXED);
		out->loggers = __atomic_load_n(&e->info.loggers, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&e->info.sequence, __ATOMIC_RELAXED) == s)
			break;
	}
	out->sequence = s;
	memset(out->pad, 0, sizeof(out->pad));
}

/* Run @e's callback; reg_lock held on entry and on return, not during. */
static ULONG run_callback(struct reg_entry *e, WMIDPREQUESTCODE code,
			  uint64_t logger_handle)
{
	struct reg_entry *outer = in_callback;
	WNODE_HEADER w;
	ULONG size = sizeof(w), ret;

	memset(&w, 0, sizeof(w));
	w.BufferSize = sizeof(w);
	w.HistoricalContext = logger_handle;
	w.Guid = e->guid;
	w.Flags = WNODE_FLAG_TRACED_GUID;
	e->busy++;
	pthread_mutex_unlock(&reg_lock);
	in_callback = e;
	ret = e->callback(code, e->context, &size, &w);
	in_callback = outer;
	pthread_mutex_lock(&reg_lock);
	if (!--e->busy) {
		if (e->dead)
			free_entry(e);
		pthread_cond_broadcast(&reg_idle);
	}
	return ret;
}

/* A kernel enable or disable for @e, remembered for resync(). */
static void deliver(struct reg_entry *e, WMIDPREQUESTCODE code, uint64_t handle)
{
	e->delivered = code == WMI_ENABLE_EVENTS ? handle : 0;
	run_callback(e, code, handle);
}

/*
 * Notifications were dropped (the queue overflowed): what the callbacks
 * last saw may be stale. The enable info is always current: tell each
 * provider whose callback saw something else what it now says. Callbacks
 * run unlocked and the list may change meanwhile: one entry per walk.
 */
static void resync(void)
{
	unsigned int pass = ++pass_counter;
	struct nttrace_enable_info v;
	struct reg_entry *e;

	for (e = entries; e; e = e->next)
		e->skip = 0;
again:
	for (e = entries; e; e = e->next) {
		if (e->orphan || e->dead || e->pass == pass)
			continue;
		e->pass = pass;
		read_info(e, &v);
		if (v.logger_handle == e->delivered)
			continue;
		if (v.logger_handle)
			deliver(e, WMI_ENABLE_EVENTS, v.logger_handle);
		else
			deliver(e, WMI_DISABLE_EVENTS, e->delivered);
		goto again;
	}
}

static void *notify_thread(void *arg)
{
	int fd = (int)(intptr_t)arg;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLPRI };
		struct nttrace_notification n;
		struct reg_entry *e;

		if (poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p.revents & (POLLERR | POLLNVAL))
			break;
		pthread_mutex_lock(&reg_lock);
		for (;;) {
			memset(&n, 0, sizeof(n));
			n.size = sizeof(n);
			if (ioctl(fd, NTTRACE_IOC_NOTIFICATION, &n) < 0)
				break;
			if (n.dropped)
				resync();
			e = find_kernel(n.handle);
			if (!e || e->dead)
				continue;
			if (n.control == EVENT_CONTROL_CODE_ENABLE_PROVIDER) {
				if (e->skip) {
					e->skip--;
					continue;
				}
				deliver(e, WMI_ENABLE_EVENTS, n.logger_handle);
			} else if (n.control == EVENT_CONTROL_CODE_DISABLE_PROVIDER) {
				deliver(e, WMI_DISABLE_EVENTS, n.logger_handle);
			}
		}
		pthread_mutex_unlock(&reg_lock);
	}
	return NULL;
}

static void atfork_prepare(void)
{
	pthread_mutex_lock(&reg_lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&reg_lock);
}

/* The child is no provider: see the top of the file. */
static void atfork_child(void)
{
	struct reg_entry *e;

	for (e = entries; e; e = e->next) {
		e->orphan = 1;
		e->busy = 0;
		e->skip = 0;
		e->private_handle = 0;
		/* Our own copy of the page now: cleared, sequence kept even. */
		e->info.sessions = 0;
		e->info.logger_handle = 0;
		e->info.level = 0;
		e->info.match_any_keyword = 0;
		e->info.match_all_keyword = 0;
		e->info.loggers = 0;
	}
	if (notify_fd >= 0)
		close(notify_fd);
	notify_fd = -1;
	thread_running = 0;
	pthread_mutex_init(&reg_lock, NULL);
	pthread_cond_init(&reg_idle, NULL);
}

static void install_atfork(void)
{
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
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
 * Its thread, once the file has a registration (before, the file's poll
 * would report an error); under reg_lock. 0 or -errno.
 */
static int start_thread(void)
{
	pthread_attr_t attr;
	pthread_t t;
	int err;

	if (thread_running)
		return 0;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&t, &attr, notify_thread, (void *)(intptr_t)notify_fd);
	pthread_attr_destroy(&attr);
	if (err)
		return -err;
	thread_running = 1;
	return 0;
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

static ULONG register_guids(WMIDPREQUEST RequestAddress, PVOID RequestContext,
			    LPCGUID ControlGuid, ULONG GuidCount,
			    PTRACE_GUID_REGISTRATION TraceGuidReg,
			    PTRACEHANDLE RegistrationHandle)
{
	struct nttrace_register r;
	struct nttrace_enable_info v;
	struct reg_entry *e;
	void *mem;
	ULONG i, ret;
	int err;

	if (!RequestAddress || !ControlGuid || !RegistrationHandle ||
	    (GuidCount && !TraceGuidReg))
		return set_error(ERROR_INVALID_PARAMETER);
	for (i = 0; i < GuidCount; i++)
		if (!TraceGuidReg[i].Guid)
			return set_error(ERROR_INVALID_PARAMETER);
	pthread_once(&atfork_once, install_atfork);

	if (posix_memalign(&mem, 64, sizeof(*e)))
		return set_error(ERROR_NOT_ENOUGH_MEMORY);
	e = mem;
	memset(e, 0, sizeof(*e));
	e->classes = GuidCount ? calloc(GuidCount, sizeof(*e->classes)) : NULL;
	if (GuidCount && !e->classes) {
		free(e);
		return set_error(ERROR_NOT_ENOUGH_MEMORY);
	}
	e->nr_classes = GuidCount;
	for (i = 0; i < GuidCount; i++) {
		e->classes[i].guid = *TraceGuidReg[i].Guid;
		e->classes[i].owner = e;
	}
	e->type = NTTRACE_REG_CLASSIC;
	e->guid = *ControlGuid;
	e->callback = RequestAddress;
	e->context = RequestContext;

	pthread_mutex_lock(&reg_lock);
	err = open_notifications();
	if (!err) {
		memset(&r, 0, sizeof(r));
		r.size = sizeof(r);
		r.type = NTTRACE_REG_CLASSIC;
		memcpy(r.guid, ControlGuid, 16);
		r.enable_info = (uintptr_t)&e->info;
		r.context = (uintptr_t)e;
		if (ioctl(notify_fd, NTTRACE_IOC_REGISTER, &r) < 0)
			err = -errno;
		else if ((err = start_thread()) != 0)
			unregister_kernel(r.handle);
	}
	if (err) {
		pthread_mutex_unlock(&reg_lock);
		free(e->classes);
		free(e);
		return set_error(nttrace_errno_to_win32(err));
	}
	e->kernel_handle = r.handle;
	e->magic = ENTRY_MAGIC;
	for (i = 0; i < GuidCount; i++) {
		e->classes[i].magic = NTTRACE_GUID_REG_MAGIC;
		TraceGuidReg[i].RegHandle = &e->classes[i];
	}
	*RegistrationHandle = (uintptr_t)e;
	e->next = entries;
	entries = e;

	/*
	 * Enabled before it registered: the kernel wrote the enable info
	 * before REGISTER returned, and queued an ENABLE that the thread
	 * will skip, since the callback runs here.
	 */
	ret = ERROR_SUCCESS;
	read_info(e, &v);
	if (v.logger_handle) {
		e->skip++;
		e->delivered = v.logger_handle;
		ret = run_callback(e, WMI_ENABLE_EVENTS, v.logger_handle);
	}
	pthread_mutex_unlock(&reg_lock);
	return set_error(ret);
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
	e = find_entry(RegistrationHandle);
	if (!e || e->dead) {
		pthread_mutex_unlock(&reg_lock);
		return set_error(ERROR_INVALID_HANDLE);
	}
	unlink_entry(e);
	e->magic = 0;
	if (!e->orphan)
		unregister_kernel(e->kernel_handle);
	if (e->busy && in_callback == e) {
		/* Its own callback, on this thread: freed when it returns. */
		e->dead = 1;
	} else {
		/* Another thread's callback: wait for it to return. */
		while (e->busy)
			pthread_cond_wait(&reg_idle, &reg_lock);
		free_entry(e);
	}
	pthread_mutex_unlock(&reg_lock);
	return set_error(ERROR_SUCCESS);
}

/* The handle bits of a logger that is no session: 0 and 0xFFFF. */
static int bad_logger(TRACEHANDLE h)
{
	uint32_t id = NTTRACE_HANDLE_LOGGER_ID(h);

	/* The user-mode logger's: its low bits are a generation, any value. */
	if (NTTRACE_HANDLE_INTERNAL(h) & TRACE_ENABLE_INTERNAL_PRIVATE)
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
	struct reg_entry *e = (struct reg_entry *)(uintptr_t)RegistrationHandle;

	/*
	 * No lock and no search: this is the fast path. The handle must be
	 * one RegisterTraceGuids gave and not yet unregistered.
	 */
	if (!e || e->magic != ENTRY_MAGIC)
		return set_error(ERROR_INVALID_HANDLE);
	read_info(e, Info);
	if (PrivateHandle)
		*PrivateHandle = __atomic_load_n(&e->private_handle, __ATOMIC_ACQUIRE);
	return ERROR_SUCCESS;
}

/* See internal.h. */
unsigned int nttrace_private_enable(const GUID *guid, int enable,
				    TRACEHANDLE handle)
{
	unsigned int n = 0, pass;
	struct reg_entry *e;

	pthread_mutex_lock(&reg_lock);
	pass = ++pass_counter;
	/* Callbacks run unlocked and the list may change: one per walk. */
again:
	for (e = entries; e; e = e->next) {
		if (e->orphan || e->dead || e->pass == pass ||
		    memcmp(&e->guid, guid, sizeof(*guid)))
			continue;
		e->pass = pass;
		if (!enable && !e->private_handle)
			continue;
		__atomic_store_n(&e->private_handle, enable ? handle : 0,
				 __ATOMIC_RELEASE);
		n++;
		run_callback(e, enable ? WMI_ENABLE_EVENTS : WMI_DISABLE_EVENTS,
			     handle);
		goto again;
	}
	pthread_mutex_unlock(&reg_lock);
	return n;
}
