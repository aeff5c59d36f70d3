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
#include <nttrace.h>

/* The provider state of one open /dev/nttrace (part of struct nt_file). */
struct nt_prov_file {
	/* The notification queue: a ring of NTTRACE_MAX_NOTIFICATIONS. */
	spinlock_t lock;
	wait_queue_head_t wq;			/* poll() waits here */
	struct nttrace_notification *queue;	/* NULL until the first REGISTER */
	unsigned int head, count;		/* under lock */
	u32 dropped;				/* under lock; since the last taken */
	/* Under nt_provider_lock (provider.c). */
	struct list_head regs;
	unsigned int nr_regs;			/* registered or being registered */
};

/* Module init and exit: the enable info's fault work (provider.c). */
int nt_provider_init(void);
void nt_provider_exit(void);

void nt_prov_file_init(struct nt_prov_file *pf);
/* The file is going: every registration ends (as UNREGISTER). */
void nt_prov_file_release(struct nt_prov_file *pf);
/*
 * Whether the file ever registered (then poll() waits for notifications),
 * and EPOLLPRI while one is waiting.
 */
bool nt_prov_file_active(struct nt_prov_file *pf);
__poll_t nt_prov_file_poll(struct file *file, struct nt_prov_file *pf,
			   poll_table *wait);

/* The ioctls; @r, @e, @n are the kernel's copies of the caller's structs. */
int nt_provider_register(struct nt_prov_file *pf, struct nttrace_register *r);
int nt_provider_unregister(struct nt_prov_file *pf, u64 handle);
/* ENABLE; with NTTRACE_ENABLE_FILTER_EVENT_ID, e->event_ids is read once. */
int nt_provider_enable(struct nttrace_enable *e);
/* The same with the event IDs in kernel memory, @ids (KUnit). */
int nt_provider_enable_ids(struct nttrace_enable *e, const u16 *ids);
int nt_provider_notification(struct nt_prov_file *pf,
			     struct nttrace_notification *n);
int nt_provider_list(struct nttrace_provider_list *l);

/*
 * A registration whose enable info is kernel memory (KUnit): as
 * nt_provider_register(), but @info is written instead of a user page.
 */
int nt_provider_register_kinfo(struct nt_prov_file *pf,
			       struct nttrace_register *r,
			       struct nttrace_enable_info *info);
/* The rows LIST_PROVIDERS reports, into kernel memory (KUnit). */
u32 nt_provider_rows(struct nttrace_provider_row *rows, u32 room);
/*
 * Wait for every enable info write queued, those waiting for a process's
 * mmap_lock too (KUnit: ENABLE does not wait for those).
 */
void nt_provider_fault_flush_all(void);

/*
 * Session @logger_id started: ENABLE takes it from now on. module/session.c
 * calls it under nt_start_lock, before the session is in the logger table.
 */
void nt_provider_session_started(u32 logger_id);
/*
 * Session @logger_id stopped: ENABLE refuses it from now on, its enables
 * are dropped and the registrations of their GUIDs notified (kernel
 * registrations' callbacks run before it returns, but see
 * nt_provider_register_kernel()). Called with no nttrace lock held, once
 * the session is off the logger table and before its logger ID may be
 * given to a new session; may sleep.
 */
void nt_provider_session_stopped(u32 logger_id);

/*
 * ---- For the hot path (module/eventwrite.c): no lock, any context ----
 *
 * A registration. Handles (NTTRACE_IOC_REGISTER's) are unique across all
 * files, so a process may write through any open /dev/nttrace.
 */
struct nt_reg;

/*
 * Under rcu_read_lock(): the NTTRACE_REG_EVENT registration @handle made
 * by the calling process, or NULL (no such handle, a classic registration,
 * another process's). Valid until rcu_read_unlock().
 */
struct nt_reg *nt_reg_lookup_rcu(u64 handle);

/* The registration's provider GUID (16 bytes), for its life. */
const u8 *nt_reg_guid(const struct nt_reg *r);

/*
 * Under rcu_read_lock(): the sessions enabling @r's GUID that want an
 * event of ID @id, @level and @keyword by NTTRACE_LEVEL_KEYWORD_ENABLED
 * and their event-ID filter (NTTRACE_ENABLE_FILTER_EVENT_ID), as a mask
 * of bit (logger ID - 1), from the GUID's RCU-published snapshot. A
 * session's stop takes it out of the snapshot before its logger ID can
 * be reused (see the recheck in module/eventwrite.c, nt_write_wanted()).
 */
u64 nt_reg_wanted_rcu(const struct nt_reg *r, u16 id, u8 level, u64 keyword);

/*
 * ---- Kernel registrations (EtwRegister) ----
 *
 * nt_provider_register_kernel(): register @guid for a kernel module, as
 * EventRegister does for a process (an EVENT registration: every session's
 * enables). Process context, may sleep. Returns the registration or
 * ERR_PTR(-ENOMEM). @cb (may be NULL) is called with @ctx on every change
 * of a session's enable of @guid, as a process's notifications are: ENABLE
 * (also once per enable made before the registration, before this
 * returns), DISABLE (disabled, or its session stopped), CAPTURE_STATE;
 * with that session's level, keywords and logger ID.
 *
 * The callback runs in process context with no nttrace lock held (see
 * module/session.h, "Locking"), in the thread that made the change (ENABLE, a
 * session's stop, this registration), after the change is complete: the
 * snapshot nt_provider_kernel_enabled() reads has it. It may sleep, write
 * events, register and unregister providers, its own registration
 * included, and make changes (which call it again after it returns, not
 * inside it). A registration's callbacks run one at a time, in the order
 * of the changes: when another thread is running them already, that
 * thread runs the new one after its own, and the change may return before
 * it has run.
 *
 * nt_provider_unregister_kernel(): process context, may sleep; after it
 * returns no callback of @r runs. It waits for one running on another
 * thread, so it must not be called with a lock held that the callback
 * takes, nor by a callback of a registration whose own unregister a
 * callback of @r may be making (each would wait for the other). Called
 * from @r's own callback it returns at once, and no callback follows the
 * one running. The caller must not write with @r once it is called (nor
 * concurrently, outside an RCU read-side section that found @r before
 * the call); @r is freed after an RCU grace period.
 *
 * nt_provider_kernel_enabled(): whether some session wants an event of
 * @level and @keyword (the per-session rule, not the aggregate; as
 * EventEnabled, no event-ID filter is asked: EtwWrite applies it). Any
 * context but NMI; no lock, no system call; a load of the snapshot and a
 * loop over its sessions.
 */
typedef void (*nt_provider_cb_t)(void *ctx, u32 control, u8 level, u64 any,
				 u64 all, u32 logger_id);

struct nt_reg *nt_provider_register_kernel(const u8 *guid, nt_provider_cb_t cb, void *ctx);
void nt_provider_unregister_kernel(struct nt_reg *r);
bool nt_provider_kernel_enabled(const struct nt_reg *r, u8 level, u64 keyword);

/*
 * ---- Writes without a registration (module/noreg.c, module/security.c) ----
 *
 * nt_provider_hold(): an anonymous registration of @guid for one write,
 * which the write path (nt_event_write_reg()) takes as any other: its
 * sessions are the GUID's enables, per session as for EventWrite. NULL
 * when no session enables @guid (enabled before any registration counts:
 * enables are kept per GUID); ERR_PTR(-ENOMEM). Process context, may
 * sleep (nt_provider_lock). nt_provider_unhold() ends it (may sleep).
 */
struct nt_reg *nt_provider_hold(const u8 *guid);
void nt_provider_unhold(struct nt_reg *r);

#endif /* NTTRACE_PROVIDER_H */
