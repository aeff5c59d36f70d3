/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Providers: the table of provider GUIDs, their registrations
 * and the sessions that enable them; each open file's registrations and
 * notification queue. The ABI is in uapi/nttrace.h, "Providers".
 *
 * Locking: nt_provider_lock (provider.c) guards the provider table; its
 * place in the module's lock order is in module/session.h, "Locking".
 * provider.c calls the session layer in ENABLE only:
 * nt_session_get_enable() before it takes nt_provider_lock,
 * nt_session_listed() (no lock) under it, nt_session_put() after. The
 * session layer tells provider.c of a session's start and stop through
 * struct nt_session_hooks: nt_provider_session_started() and
 * nt_provider_session_stopped() below.
 */
#ifndef NTTRACE_PROVIDER_H
#define NTTRACE_PROVIDER_H

#include <linux/fs.h>
#include <linux/list.h>
#include <linux/poll.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <nttrace/uapi.h>

/* The provider state of one open /dev/nttrace (part of struct nt_file). */
struct nt_wait;

struct nt_prov_file {
	/* The notification queue: a ring of NTTRACE_MAX_NOTIFICATIONS. */
	spinlock_t lock;
	wait_queue_head_t wq;			/* poll() waits here */
	struct nttrace_notification *queue;	/* NULL until the first REGISTER */
	unsigned int head, count;		/* under lock */
	u32 dropped;				/* under lock; since the last taken */
	/*
	 * Under lock: the ENABLE waiting for each queued notification (by
	 * the queue's index; NULL: none), and for the one last taken.
	 */
	struct nt_wait **waits;
	struct nt_wait *taken;
	/* Under nt_provider_lock (provider.c). */
	struct list_head regs;
	unsigned int nr_regs;			/* registered or being registered */
};

/**
 * nt_provider_init() - module load: the enable info's fault work
 *
 * Return: 0 or -ENOMEM.
 */
int nt_provider_init(void);

/**
 * nt_provider_exit() - module unload, after every file is released
 */
void nt_provider_exit(void);

/**
 * nt_prov_file_init() - an open /dev/nttrace's provider state
 * @pf: the state, part of the file's
 */
void nt_prov_file_init(struct nt_prov_file *pf);

/**
 * nt_prov_file_release() - the file is going
 * @pf: its provider state
 *
 * Every registration of the file ends, as UNREGISTER would end it.
 */
void nt_prov_file_release(struct nt_prov_file *pf);

/**
 * nt_prov_file_active() - did the file ever register?
 * @pf: its provider state
 *
 * Return: true if it did: then poll() waits for notifications.
 */
bool nt_prov_file_active(struct nt_prov_file *pf);

/**
 * nt_prov_file_poll() - poll() for the file's notifications
 * @file: the file
 * @pf: its provider state
 * @wait: the poll table
 *
 * Return: EPOLLPRI while a notification is waiting, else 0.
 */
__poll_t nt_prov_file_poll(struct file *file, struct nt_prov_file *pf,
			   poll_table *wait);

/*
 * The ioctls: @r, @e, @n and @l are the kernel's copies of the caller's
 * structs. Their errors are in uapi/nttrace.h, "Providers".
 */

/**
 * nt_provider_register() - NTTRACE_IOC_REGISTER
 * @pf: the file registering
 * @r: the request; its handle filled in
 *
 * Charged to the caller's user (nt_user_reg_charge()). May sleep.
 *
 * Return: 0 or an errno.
 */
int nt_provider_register(struct nt_prov_file *pf, struct nttrace_register *r);

/**
 * nt_provider_unregister() - NTTRACE_IOC_UNREGISTER
 * @pf: the file that registered
 * @handle: the registration's handle
 *
 * May sleep.
 *
 * Return: 0 or an errno (-ENOENT: no such registration of @pf).
 */
int nt_provider_unregister(struct nt_prov_file *pf, u64 handle);

/**
 * nt_provider_enable() - NTTRACE_IOC_ENABLE (EnableTraceEx2)
 * @e: the request
 *
 * Needs nt_privileged() (the security provider: nt_security_reader()
 * too). With NTTRACE_ENABLE_FILTER_EVENT_ID, @e->event_ids is read once.
 * Registrations of the GUID are notified before it returns (kernel
 * registrations' callbacks run after nt_provider_lock is dropped). May
 * sleep.
 *
 * Return: 0 or an errno.
 */
int nt_provider_enable(struct nttrace_enable *e);

/**
 * nt_provider_enable_ids() - nt_provider_enable() with kernel event IDs
 * @e: the request
 * @ids: its event IDs, in kernel memory (KUnit)
 *
 * Return: as nt_provider_enable().
 */
int nt_provider_enable_ids(struct nttrace_enable *e, const u16 *ids);

/**
 * nt_provider_notification() - NTTRACE_IOC_NOTIFICATION: take the oldest
 * @pf: the file
 * @n: filled in (its size kept as the caller gave it)
 *
 * Return: 0, or -EAGAIN when none is waiting.
 */
int nt_provider_notification(struct nt_prov_file *pf,
			     struct nttrace_notification *n);

/**
 * nt_provider_list() - NTTRACE_IOC_LIST_PROVIDERS
 * @l: the request; its rows written to the caller's buffer
 *
 * Return: 0 or an errno (-ENOMEM, -EFAULT).
 */
int nt_provider_list(struct nttrace_provider_list *l);

/**
 * nt_provider_register_kinfo() - a registration with a kernel enable info
 * @pf: the file registering
 * @r: the request
 * @info: written instead of a user page (KUnit)
 *
 * Return: as nt_provider_register().
 */
int nt_provider_register_kinfo(struct nt_prov_file *pf,
			       struct nttrace_register *r,
			       struct nttrace_enable_info *info);

/**
 * nt_provider_rows() - the rows LIST_PROVIDERS reports, into kernel memory
 * @rows: where to put them (KUnit), or NULL
 * @room: how many @rows holds
 *
 * Return: how many rows there are (may be more than @room).
 */
u32 nt_provider_rows(struct nttrace_provider_row *rows, u32 room);

/**
 * nt_provider_fault_flush_all() - wait for every enable info write queued
 *
 * Those waiting for a process's mmap_lock too (KUnit: ENABLE does not
 * wait for those).
 */
void nt_provider_fault_flush_all(void);

/**
 * nt_provider_session_started() - a session started
 * @logger_id: its slot
 *
 * ENABLE takes it from now on. The session layer calls it through
 * struct nt_session_hooks, under nt_start_lock, before the session is in
 * the logger table.
 */
void nt_provider_session_started(u32 logger_id);

/**
 * nt_provider_session_stopped() - a session stopped
 * @logger_id: its slot
 *
 * ENABLE refuses it from now on, its enables are dropped and the
 * registrations of their GUIDs notified (kernel registrations' callbacks
 * run before it returns, but see nt_provider_register_kernel()). The
 * session layer calls it through struct nt_session_hooks, with no nttrace
 * lock held, once the session is off the logger table and before its
 * logger ID may be given to a new session. May sleep.
 */
void nt_provider_session_stopped(u32 logger_id);

/*
 * ---- For the hot path (module/eventwrite.c): no lock, any context ----
 *
 * A registration. Handles (NTTRACE_IOC_REGISTER's) are unique across all
 * files, so a process may write through any open /dev/nttrace.
 */
struct nt_reg;

/**
 * nt_reg_lookup_rcu() - the calling process's EVENT registration of a handle
 * @handle: NTTRACE_IOC_REGISTER's handle
 *
 * Under rcu_read_lock().
 *
 * Return: the NTTRACE_REG_EVENT registration @handle made by the calling
 * process, valid until rcu_read_unlock(); or NULL (no such handle, a
 * classic registration, another process's).
 */
struct nt_reg *nt_reg_lookup_rcu(u64 handle);

/**
 * nt_reg_guid() - a registration's provider GUID
 * @r: the registration
 *
 * Return: its 16 bytes, for the registration's life.
 */
const u8 *nt_reg_guid(const struct nt_reg *r);

/**
 * nt_reg_wanted_rcu() - the sessions that want an event of a registration
 * @r: the registration
 * @id: the event's ID
 * @level: its level
 * @keyword: its keyword
 * @stacks: unless NULL, set to the sessions whose enable of the GUID has
 *	NTTRACE_ENABLE_PROPERTY_STACK_TRACE, wanting the event or not, from
 *	the same snapshot
 *
 * Under rcu_read_lock(). From the GUID's RCU-published snapshot of its
 * enables, by NTTRACE_LEVEL_KEYWORD_ENABLED and each session's event-ID
 * filter (NTTRACE_ENABLE_FILTER_EVENT_ID). A session's stop takes it out
 * of the snapshot before its logger ID can be reused (see the recheck in
 * module/eventwrite.c, nt_write_wanted()).
 *
 * Return: the sessions, as a mask of bit (logger ID - 1).
 */
u64 nt_reg_wanted_rcu(const struct nt_reg *r, u16 id, u8 level, u64 keyword, u64 *stacks);

/*
 * ---- Kernel registrations (EtwRegister) ----
 *
 * A kernel module registers a GUID as EventRegister does for a process
 * (an EVENT registration: every session's enables). Its callback is
 * called on every change of a session's enable of the GUID, as a
 * process's notifications are: ENABLE (also once per enable made before
 * the registration, before nt_provider_register_kernel() returns),
 * DISABLE (disabled, or its session stopped), CAPTURE_STATE; with that
 * session's level, keywords and logger ID.
 *
 * The callback runs in process context with no nttrace lock held (see
 * module/session.h, "Locking"), in the thread that made the change
 * (ENABLE, a session's stop, this registration), after the change is
 * complete: the snapshot nt_provider_kernel_enabled() reads has it. It may
 * sleep, write events, register and unregister providers, its own
 * registration included, and make changes (which call it again after it
 * returns, not inside it). A registration's callbacks run one at a time,
 * in the order of the changes: when another thread is running them
 * already, that thread runs the new one after its own, and the change may
 * return before it has run.
 */
typedef void (*nt_provider_cb_t)(void *ctx, u32 control, u8 level, u64 any,
				 u64 all, u32 logger_id);

/**
 * nt_provider_register_kernel() - register a GUID for a kernel module
 * @guid: the provider's GUID (16 bytes)
 * @cb: called on every change of a session's enable of @guid, or NULL
 * @ctx: for @cb
 *
 * Process context, may sleep.
 *
 * Return: the registration, or ERR_PTR(-ENOMEM).
 */
struct nt_reg *nt_provider_register_kernel(const u8 *guid, nt_provider_cb_t cb, void *ctx);

/**
 * nt_provider_unregister_kernel() - end a kernel registration
 * @r: the registration
 *
 * Process context, may sleep; after it returns no callback of @r runs. It
 * waits for one running on another thread, so it must not be called with
 * a lock held that the callback takes, nor by a callback of a registration
 * whose own unregister a callback of @r may be making (each would wait for
 * the other). Called from @r's own callback it returns at once, and no
 * callback follows the one running. The caller must not write with @r once
 * it is called (nor concurrently, outside an RCU read-side section that
 * found @r before the call); @r is freed after an RCU grace period.
 */
void nt_provider_unregister_kernel(struct nt_reg *r);

/**
 * nt_provider_kernel_enabled() - does some session want such an event?
 * @r: a kernel registration
 * @level: the event's level
 * @keyword: its keyword
 *
 * The per-session rule, not the aggregate; as EventEnabled, no event-ID
 * filter is asked (EtwWrite applies it). Any context but NMI; no lock, no
 * system call: a load of the snapshot and a loop over its sessions.
 *
 * Return: true if one does.
 */
bool nt_provider_kernel_enabled(const struct nt_reg *r, u8 level, u64 keyword);

/*
 * ---- Writes without a registration (module/noreg.c, module/security.c) ----
 */

/**
 * nt_provider_hold() - an anonymous registration of a GUID for one write
 * @guid: the provider's GUID (16 bytes)
 *
 * The write path (nt_event_write_reg()) takes it as any other: its
 * sessions are the GUID's enables, per session as for EventWrite (enabled
 * before any registration counts: enables are kept per GUID). Process
 * context, may sleep (nt_provider_lock). nt_provider_unhold() ends it.
 *
 * Return: the registration; NULL when no session enables @guid;
 * ERR_PTR(-ENOMEM).
 */
struct nt_reg *nt_provider_hold(const u8 *guid);

/**
 * nt_provider_unhold() - end what nt_provider_hold() made
 * @r: the registration
 *
 * May sleep.
 */
void nt_provider_unhold(struct nt_reg *r);

#endif /* NTTRACE_PROVIDER_H */
