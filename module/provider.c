// SPDX-License-Identifier: GPL-2.0
/*
 * Providers (uapi/nttrace.h, "Providers"). One table, keyed by
 * provider GUID, holds two independent things: the registrations of the
 * GUID (which open file, which process, which context, where its enable
 * info lives) and the sessions that enable it (logger ID, level, flags,
 * keywords). An enable needs no registration, so one made before the
 * provider registers is found when it does. The sessions that may enable
 * are those module/session.c said started and not yet stopped (through
 * struct nt_session_hooks: nt_provider_session_started(),
 * nt_provider_session_stopped()); a stop
 * drops the session's enables. A GUID's node goes when it has neither.
 *
 * The enable info. Each registration's struct nttrace_enable_info lives in
 * the registering process, at an address of its mm (kept with mmgrab()).
 * No page of it stays pinned (a long-term write pin
 * of any address a user names is the pin-versus-writeback problem on a
 * shared file page, and is charged to no one): as user_events
 * (kernel/trace/trace_events_user.c) writes its enable bit, each update
 * pins the page for the moment of the write, with
 * pin_user_pages_remote(FOLL_WRITE | FOLL_NOFAULT) under the mm's read
 * lock, writes it through kmap_local_page() and unpins it at once, so
 * that a write to a file page is an ordinary write of a dirtied page.
 * Updates run under nt_provider_lock, where no fault may be taken (a
 * fault may wait on I/O or on another process, userfaultfd), nor a wait
 * for the process's mmap_lock (which the process holds as long as it
 * likes: a thread of it in mmap() of a slow file, a reader of its memory
 * stuck in a fault): the lock is only tried (mmap_read_trylock()). A page
 * that is not present and writable, or an mm whose lock is taken, is left
 * to a work item (fixup_user_fault(), no lock of ours held), which then
 * writes the info as it stands by then. REGISTER faults the page in
 * itself first, and waits for that work if it is still needed, so that
 * the info is written before it returns; ENABLE and a session's stop wait
 * for the work they queued (flush_workqueue() of nt_fault_wq). That work
 * never waits for an mm's lock either: finding it taken, it leaves the
 * job to a second work item on a second workqueue, nt_fault_slow_wq, which
 * nobody flushes but the module's exit, and which waits for the lock; so
 * a process stalling its own mmap_lock
 * delays only its own enable info, written once the lock is free.
 * Meanwhile the registration's notifications are held back
 * (nt_notify_or_hold()): a provider's thread woken by one reads the info
 * it describes.
 * Consequences, documented in the uapi: after munmap nothing is written
 * (the fault-in fails; the next update tries again); once the process has
 * exited or exec'd (its mm has no user) nothing is written; after fork
 * the registration writes the parent's memory only (its write breaks the
 * copy-on-write sharing), and the child's copy is the child's: the
 * library registers the child's providers again (userlib/provider/register.c).
 *
 * Classic registrations (NTTRACE_REG_CLASSIC) act on one session at a
 * time, as RegisterTraceGuids providers do on Windows (ETW lets a second
 * session take a classic provider over): the enable made last. When that
 * session disables it, the provider falls back to the latest enable still
 * standing (Windows' behaviour here is not documented; falling back keeps
 * every session's enable meaningful) and is notified with ENABLE for it;
 * DISABLE comes only when no session enables the GUID. EventRegister
 * registrations (NTTRACE_REG_EVENT) are notified of every session's
 * changes.
 *
 * Locking: nt_provider_lock (a mutex) guards the table, every
 * registration and enable, the running sessions and each file's list of
 * registrations; under it, a file's queue spinlock. Where it sits in the
 * module's lock order: module/session.h, "Locking". Nothing touches user
 * memory under nt_provider_lock except through pinned pages, so a caller
 * cannot stall it with a fault, and no code outside this file runs under
 * it but nt_session_listed() (no lock) and policy.c's registration counts
 * (a spinlock): a kernel registration's callbacks are queued under it and
 * run after it is dropped (see "Kernel registrations" below).
 *
 * The hot path (EventWrite, module/eventwrite.c) takes no lock: it runs
 * under rcu_read_lock(), possibly with interrupts off, and sees
 *  - the registrations by handle in nt_reg_handles, a global xarray, so
 *    that handles are unique across files (a process writes through an fd
 *    other than the one it registered on). Handles are allocated
 *    cyclically, so a stale handle does not soon name a new registration;
 *    the registering process is checked at every write anyway.
 *  - each GUID's sessions as an RCU-published snapshot (struct nt_snap:
 *    logger ID, level, keywords, event-ID filter), rebuilt under
 *    nt_provider_lock on every change of its enables and freed with
 *    kfree_rcu(); a replaced or dropped filter likewise.
 * So a registration and a GUID node are freed only after a grace period
 * (kfree_rcu(): no callback of ours outlives the module).
 *
 * Kernel registrations (nt_provider_register_kernel(), for EtwRegister)
 * are EVENT registrations with a callback instead of a file, a page and a
 * handle: not in nt_reg_handles, not charged to a user. A change of
 * enables queues the callbacks (struct nt_kcall, their arguments copied)
 * on each registration it concerns and puts the registration, with a
 * reference, on the changing thread's "todo" list; having dropped
 * nt_provider_lock, that thread runs them (nt_kcalls_run()), as notifier
 * chains run outside their registration lock. So a callback may take any
 * lock of ours: register, unregister, enable. One thread at a time runs a
 * registration's callbacks (r->runner) and it runs them until none is
 * queued, so they come one at a time and in the order of the changes; a
 * thread that finds another running them leaves its own to that one. An
 * unregister drops what is queued and waits for a callback running on
 * another thread; from the callback's own thread (its runner) it cannot
 * wait, and need not: the runner calls nothing more once the queue is
 * empty. The last reference frees the registration.
 */
#include <kunit/visibility.h>
#include <linux/cred.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/pid.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/version.h>
#include <linux/uaccess.h>
#include <linux/uuid.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "policy.h"
#include "provider.h"
#include "session.h"

/*
 * A session's event-ID filter (NTTRACE_ENABLE_FILTER_EVENT_ID): the IDs
 * sorted, without repeats, for a binary search. Made before the enable it
 * belongs to is published and never changed; the next ENABLE replaces it
 * and a DISABLE drops it, each freeing it with kfree_rcu() after the
 * snapshot that pointed to it is replaced.
 */
struct nt_id_filter {
	struct rcu_head rcu;
	bool in;			/* only the IDs pass; else all but them */
	u16 count;
	u16 ids[] __counted_by(count);
};

/* What the hot path sees of a GUID's enables: one entry per session. */
struct nt_snap_entry {
	u64 any, all;
	const struct nt_id_filter *ids;	/* NULL: no event-ID filter */
	u32 logger_id;
	u8 level;
	bool stack;			/* NTTRACE_ENABLE_PROPERTY_STACK_TRACE */
};

struct nt_snap {
	struct rcu_head rcu;
	unsigned int count;
	struct nt_snap_entry e[] __counted_by(count);
};

struct nt_guid {
	struct rb_node node;		/* in nt_guids, ordered by memcmp */
	u8 guid[16];
	struct list_head regs;		/* struct nt_reg.guid_node */
	struct list_head enables;	/* struct nt_enable, by logger ID */
	struct nt_enable *acting;	/* the latest enable; NULL: none */
	/* Rebuilt under nt_provider_lock; NULL: no session enables it. */
	struct nt_snap __rcu *snap;
	/* Writes without a registration holding it (nt_provider_hold()). */
	unsigned int holds;
	struct rcu_head rcu;
};

struct nt_enable {
	struct list_head node;
	u32 logger_id;
	u32 level;
	u32 flags;
	u64 any, all;
	u64 stamp;			/* when enabled: the latest acts */
	struct nt_id_filter *ids;	/* NULL: none */
	u32 property;			/* NTTRACE_ENABLE_PROPERTY_* */
};

/* A notification held until its registration's enable info is written. */
struct nt_held {
	struct list_head node;
	struct nttrace_notification n;
	struct nt_wait *w;	/* the ENABLE waiting for it, or NULL */
};

/*
 * An ENABLE that waits for the callbacks it causes (@timeout_ms): one
 * reference for the waiter and one for each notification it queued,
 * given back with @pending when that notification is done with (see
 * struct nttrace_enable's @timeout_ms).
 */
struct nt_wait {
	refcount_t ref;
	atomic_t pending;
	wait_queue_head_t wq;
};

/* A kernel registration's callback, queued: its arguments. */
struct nt_kcall {
	struct list_head node;		/* in struct nt_reg.kcalls */
	u64 any, all;
	u32 control, logger_id;
	u8 level;
};

struct nt_reg {
	struct list_head guid_node;
	struct list_head file_node;	/* not for kernel registrations */
	struct nt_guid *g;		/* for the registration's life */
	struct nt_prov_file *pf;	/* NULL: a kernel registration */
	/* A kernel registration's; the lists and runner under nt_provider_lock. */
	nt_provider_cb_t cb;
	void *cb_ctx;
	refcount_t ref;			/* its own, and a todo list's */
	struct list_head kcalls;	/* struct nt_kcall, oldest first */
	struct list_head todo_node;	/* on a thread's todo list, or empty */
	struct task_struct *runner;	/* running its callbacks, or NULL */
	struct rcu_head rcu;
	u64 handle;			/* in nt_reg_handles; 0: kernel */
	u64 context;
	u32 type;
	u32 seq;			/* the enable info's sequence, ours */
	/* A process's: where its enable info is; NULL mm for the others. */
	struct mm_struct *mm;		/* mmgrab()bed for the registration's life */
	unsigned long uaddr;
	/* Faulting the page in (see the top); under nt_provider_lock. */
	struct work_struct fault_work;
	struct work_struct fault_slow_work;	/* the same, on nt_fault_slow_wq */
	bool fault_queued;
	u8 fault_tries;			/* fault-ins in a row not followed by a write */
	/* Notifications held while fault_queued (struct nt_held), oldest first. */
	struct list_head held;
	unsigned int nr_held;
	u32 held_dropped;
	bool gone;			/* unlinked: @g may be freed */
	struct nttrace_enable_info *kinfo;	/* KUnit's */
	struct pid *pid;		/* NULL: a kernel registration */
	kuid_t uid;			/* charged max_user_registrations */
};

static DEFINE_MUTEX(nt_provider_lock);
static DEFINE_XARRAY_ALLOC1(nt_reg_handles);
static u32 nt_next_handle;		/* under nt_provider_lock */
static struct rb_root nt_guids = RB_ROOT;
static u64 nt_enable_stamp;
static u16 nt_enables_per_logger[NTTRACE_MAX_LOGGERS + 1];
/* The sessions that may enable: started and not yet stopped. */
static DECLARE_BITMAP(nt_running, NTTRACE_MAX_LOGGERS + 1);
/* A kernel registration's runner is done (see nt_provider_unregister_kernel). */
static DECLARE_WAIT_QUEUE_HEAD(nt_kcall_wq);
/*
 * The fault-ins of enable info pages, and those waiting for an mm's lock
 * (see the top); drained at module exit.
 */
static struct workqueue_struct *nt_fault_wq, *nt_fault_slow_wq;

/* ---- the notification queue of a file ---- */

void nt_prov_file_init(struct nt_prov_file *pf)
{
	spin_lock_init(&pf->lock);
	init_waitqueue_head(&pf->wq);
	pf->queue = NULL;
	pf->head = 0;
	pf->count = 0;
	pf->dropped = 0;
	pf->waits = NULL;
	pf->taken = NULL;
	INIT_LIST_HEAD(&pf->regs);
	pf->nr_regs = 0;
}
EXPORT_SYMBOL_IF_KUNIT(nt_prov_file_init);

bool nt_prov_file_active(struct nt_prov_file *pf)
{
	/* Pairs with the smp_store_release() in nt_prov_file_queue(). */
	return smp_load_acquire(&pf->queue);
}
EXPORT_SYMBOL_IF_KUNIT(nt_prov_file_active);

__poll_t nt_prov_file_poll(struct file *file, struct nt_prov_file *pf,
			   poll_table *wait)
{
	__poll_t mask = 0;

	poll_wait(file, &pf->wq, wait);
	spin_lock(&pf->lock);
	if (pf->count)
		mask = EPOLLPRI;
	spin_unlock(&pf->lock);
	return mask;
}

/* The queue, made at the file's first REGISTER and kept until release. */
static int nt_prov_file_queue(struct nt_prov_file *pf)
{
	struct nttrace_notification *q;
	struct nt_wait **w;

	if (nt_prov_file_active(pf))
		return 0;
	q = kvcalloc(NTTRACE_MAX_NOTIFICATIONS, sizeof(*q), GFP_KERNEL_ACCOUNT);
	w = kvcalloc(NTTRACE_MAX_NOTIFICATIONS, sizeof(*w), GFP_KERNEL_ACCOUNT);
	if (!q || !w) {
		kvfree(q);
		kvfree(w);
		return -ENOMEM;
	}
	spin_lock(&pf->lock);
	if (!pf->queue) {
		pf->waits = w;
		/* Pairs with the smp_load_acquire() in nt_prov_file_active(). */
		smp_store_release(&pf->queue, q);
		q = NULL;
		w = NULL;
	}
	spin_unlock(&pf->lock);
	kvfree(q);
	kvfree(w);
	return 0;
}

/* ---- waiting ENABLEs ---- */

/*
 * Under nt_provider_lock: the ENABLE whose changes are being notified, if
 * it waits for them; each notification it queues joins it.
 */
static struct nt_wait *nt_cur_wait;

static void nt_wait_put(struct nt_wait *w)
{
	if (w && refcount_dec_and_test(&w->ref))
		kfree(w);
}

/* A notification for the current ENABLE: its wait, referenced; or NULL. */
static struct nt_wait *nt_wait_join(void)
{
	struct nt_wait *w = nt_cur_wait;

	lockdep_assert_held(&nt_provider_lock);
	if (w) {
		refcount_inc(&w->ref);
		atomic_inc(&w->pending);
	}
	return w;
}

/* A notification of @w's is done with: the waiter is woken at the last. */
static void nt_wait_done(struct nt_wait *w)
{
	if (!w)
		return;
	if (atomic_dec_and_test(&w->pending))
		wake_up_all(&w->wq);
	nt_wait_put(w);
}

/*
 * Queue @n on its registration's file, for the waiting ENABLE @w (or
 * NULL); past the bound, drop the oldest.
 */
static void nt_notify(struct nt_reg *r, const struct nttrace_notification *n,
		      struct nt_wait *w)
{
	struct nt_prov_file *pf = r->pf;
	unsigned int at;

	spin_lock(&pf->lock);
	if (pf->count == NTTRACE_MAX_NOTIFICATIONS) {
		nt_wait_done(pf->waits[pf->head]);
		pf->waits[pf->head] = NULL;
		pf->head = (pf->head + 1) % NTTRACE_MAX_NOTIFICATIONS;
		pf->count--;
		pf->dropped++;
	}
	at = (pf->head + pf->count) % NTTRACE_MAX_NOTIFICATIONS;
	pf->queue[at] = *n;
	pf->waits[at] = w;
	pf->count++;
	spin_unlock(&pf->lock);
	wake_up_all(&pf->wq);
}

/* Forget what is queued for @handle: none is delivered after UNREGISTER. */
static void nt_notify_purge(struct nt_prov_file *pf, u64 handle)
{
	unsigned int i, kept = 0;

	spin_lock(&pf->lock);
	for (i = 0; i < pf->count; i++) {
		unsigned int at = (pf->head + i) % NTTRACE_MAX_NOTIFICATIONS;
		unsigned int to = (pf->head + kept) % NTTRACE_MAX_NOTIFICATIONS;

		if (pf->queue[at].handle == handle) {
			nt_wait_done(pf->waits[at]);
			pf->waits[at] = NULL;
			continue;
		}
		if (kept != i) {
			pf->queue[to] = pf->queue[at];
			pf->waits[to] = pf->waits[at];
			pf->waits[at] = NULL;
		}
		kept++;
	}
	pf->count = kept;
	spin_unlock(&pf->lock);
}

/*
 * Queue @n for @r, or, while @r's enable info waits for its page to be
 * faulted in (nt_reg_fault_fn()), hold it until the info is written: a
 * provider woken by a notification reads the info it describes. Past
 * NTTRACE_MAX_NOTIFICATIONS held the oldest is dropped, counted as the
 * file's queue counts its own. Under nt_provider_lock.
 */
static void nt_notify_or_hold(struct nt_reg *r, const struct nttrace_notification *n)
{
	struct nt_wait *w = nt_wait_join();
	struct nt_held *h;

	if (!r->fault_queued) {
		nt_notify(r, n, w);
		return;
	}
	if (r->nr_held == NTTRACE_MAX_NOTIFICATIONS) {
		h = list_first_entry(&r->held, struct nt_held, node);
		list_del(&h->node);
		r->nr_held--;
		r->held_dropped++;
		nt_wait_done(h->w);
	} else {
		/* A change of enables cannot fail: nor may this (it is small). */
		h = kmalloc(sizeof(*h), GFP_KERNEL | __GFP_NOFAIL);
	}
	h->n = *n;
	h->w = w;
	list_add_tail(&h->node, &r->held);
	r->nr_held++;
}

/* The held notifications: to the file (@deliver), or dropped. */
static void nt_held_release(struct nt_reg *r, bool deliver)
{
	struct nt_held *h, *tmp;

	if (deliver && r->held_dropped) {
		spin_lock(&r->pf->lock);
		r->pf->dropped += r->held_dropped;
		spin_unlock(&r->pf->lock);
	}
	r->held_dropped = 0;
	list_for_each_entry_safe(h, tmp, &r->held, node) {
		list_del(&h->node);
		if (deliver)
			nt_notify(r, &h->n, h->w);
		else
			nt_wait_done(h->w);
		kfree(h);
	}
	r->nr_held = 0;
}

int nt_provider_notification(struct nt_prov_file *pf,
			     struct nttrace_notification *n)
{
	u32 size = n->size;
	int ret = -EAGAIN;

	if (!nt_prov_file_active(pf))
		return -EAGAIN;
	spin_lock(&pf->lock);
	/* The one taken before is done with: its callback has returned. */
	nt_wait_done(pf->taken);
	pf->taken = NULL;
	if (pf->count) {
		*n = pf->queue[pf->head];
		n->dropped = pf->dropped;
		pf->dropped = 0;
		pf->taken = pf->waits[pf->head];
		pf->waits[pf->head] = NULL;
		pf->head = (pf->head + 1) % NTTRACE_MAX_NOTIFICATIONS;
		pf->count--;
		ret = 0;
	}
	spin_unlock(&pf->lock);
	n->size = size;
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(nt_provider_notification);

/* ---- the GUID table ---- */

static int nt_guid_cmp(const u8 *a, const struct rb_node *node)
{
	return memcmp(a, rb_entry(node, struct nt_guid, node)->guid, 16);
}

static struct nt_guid *nt_guid_find(const u8 *guid)
{
	struct rb_node *node = nt_guids.rb_node;

	lockdep_assert_held(&nt_provider_lock);
	while (node) {
		int c = nt_guid_cmp(guid, node);

		if (!c)
			return rb_entry(node, struct nt_guid, node);
		node = c < 0 ? node->rb_left : node->rb_right;
	}
	return NULL;
}

/* Find @guid, or insert *@fresh for it (and take it from the caller). */
static struct nt_guid *nt_guid_get(const u8 *guid, struct nt_guid **fresh)
{
	struct rb_node **link = &nt_guids.rb_node, *parent = NULL;
	struct nt_guid *g;

	lockdep_assert_held(&nt_provider_lock);
	while (*link) {
		int c = nt_guid_cmp(guid, *link);

		if (!c)
			return rb_entry(*link, struct nt_guid, node);
		parent = *link;
		link = c < 0 ? &parent->rb_left : &parent->rb_right;
	}
	g = *fresh;
	*fresh = NULL;
	memcpy(g->guid, guid, 16);
	INIT_LIST_HEAD(&g->regs);
	INIT_LIST_HEAD(&g->enables);
	g->acting = NULL;
	g->holds = 0;
	RCU_INIT_POINTER(g->snap, NULL);
	rb_link_node(&g->node, parent, link);
	rb_insert_color(&g->node, &nt_guids);
	return g;
}

static void nt_guid_put_if_unused(struct nt_guid *g)
{
	lockdep_assert_held(&nt_provider_lock);
	if (!list_empty(&g->regs) || !list_empty(&g->enables) || g->holds)
		return;
	rb_erase(&g->node, &nt_guids);
	/* No enables: its snapshot is gone already. A writer may still look. */
	WARN_ON_ONCE(rcu_access_pointer(g->snap));
	kfree_rcu(g, rcu);
}

static struct nt_enable *nt_enable_find(struct nt_guid *g, u32 logger_id)
{
	struct nt_enable *e;

	list_for_each_entry(e, &g->enables, node)
		if (e->logger_id == logger_id)
			return e;
	return NULL;
}

/* The latest enable still standing: what a classic provider acts on. */
static struct nt_enable *nt_guid_latest(struct nt_guid *g)
{
	struct nt_enable *e, *best = NULL;

	list_for_each_entry(e, &g->enables, node)
		if (!best || e->stamp > best->stamp)
			best = e;
	return best;
}

/*
 * An enable's MatchAnyKeyword of 0 takes every keyword, its MatchAllKeyword
 * then unused, as on Windows (EVENT_FILTER_LEVEL_KW: "not used if
 * MatchAnyKeyword is zero"): the keywords it asks for, as
 * NTTRACE_LEVEL_KEYWORD_ENABLED reads them.
 */
static u64 nt_keyword_any(u64 any)
{
	return any ?: U64_MAX;
}

static u64 nt_keyword_all(u64 any, u64 all)
{
	return any ? all : 0;
}

static u64 nt_enable_handle(const struct nt_enable *e)
{
	return NTTRACE_HANDLE(e->logger_id, e->level, 0, e->flags);
}

/* The enable info of every registration of @g (all see the same). */
static void nt_guid_info(struct nt_guid *g, struct nttrace_enable_info *v)
{
	struct nt_enable *e;

	memset(v, 0, sizeof(*v));
	list_for_each_entry(e, &g->enables, node) {
		u64 all = nt_keyword_all(e->any, e->all);

		v->match_all_keyword = v->sessions ? v->match_all_keyword & all : all;
		v->sessions++;
		v->loggers |= 1ULL << (e->logger_id - 1);
		/* Level 0 enables every level: it counts as the highest. */
		v->level = max_t(u8, v->level, e->level ? e->level : 0xFF);
		v->match_any_keyword |= nt_keyword_any(e->any);
	}
	if (g->acting)
		v->logger_handle = nt_enable_handle(g->acting);
}

/*
 * Store @v at @dst under the uapi's sequence count. The sequence is ours
 * (r->seq): what the process wrote there is ignored.
 */
static void nt_info_store(struct nt_reg *r, struct nttrace_enable_info *dst,
			  const struct nttrace_enable_info *v)
{
	r->seq++;		/* odd: an update is under way */
	WRITE_ONCE(dst->sequence, r->seq);
	/* Pairs with the reader's read barrier before its final recheck. */
	smp_wmb();
	WRITE_ONCE(dst->sessions, v->sessions);
	WRITE_ONCE(dst->logger_handle, v->logger_handle);
	WRITE_ONCE(dst->level, v->level);
	memset(dst->pad, 0, sizeof(dst->pad));
	WRITE_ONCE(dst->match_any_keyword, v->match_any_keyword);
	WRITE_ONCE(dst->match_all_keyword, v->match_all_keyword);
	WRITE_ONCE(dst->loggers, v->loggers);
	/* Pairs with the reader's load-acquire of the sequence. */
	smp_wmb();
	r->seq++;		/* even: consistent */
	WRITE_ONCE(dst->sequence, r->seq);
}

static long nt_pin_nofault(struct mm_struct *mm, unsigned long addr, struct page **page)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
	return pin_user_pages_remote(mm, addr, 1, FOLL_WRITE | FOLL_NOFAULT, page,
				     NULL, NULL);
#else
	return pin_user_pages_remote(mm, addr, 1, FOLL_WRITE | FOLL_NOFAULT, page, NULL);
#endif
}

/* Write @v into the enable info in @page, pinned, and unpin it. */
static void nt_reg_write_page(struct nt_reg *r, struct page *page,
			      const struct nttrace_enable_info *v)
{
	void *base = kmap_local_page(page);

	nt_info_store(r, base + offset_in_page(r->uaddr), v);
	flush_dcache_page(page);
	kunmap_local(base);
	unpin_user_pages_dirty_lock(&page, 1, true);
}

/*
 * Write @v into the process's enable info, the page pinned for the moment
 * of the write. 0: written, or nothing to write to (the process exited or
 * exec'd); -EAGAIN: the page is not present and writable, or the mm's
 * lock is taken, and the fault work must do it (nt_reg_fault_fn()).
 */
static int nt_reg_write_user(struct nt_reg *r, const struct nttrace_enable_info *v)
{
	struct page *page;
	long got = -EAGAIN;

	lockdep_assert_held(&nt_provider_lock);
	if (!mmget_not_zero(r->mm))
		return 0;
	/* Never waited for under nt_provider_lock (see the top). */
	if (mmap_read_trylock(r->mm)) {
		got = nt_pin_nofault(r->mm, r->uaddr & PAGE_MASK, &page);
		mmap_read_unlock(r->mm);
	}
	if (got == 1)
		nt_reg_write_page(r, page, v);
	/* Not the last user's exit_mmap() here, under nt_provider_lock. */
	mmput_async(r->mm);
	return got == 1 ? 0 : -EAGAIN;
}

/*
 * Tries of the fault-in before it gives up until the next update: a
 * mapping the fault handler takes but GUP refuses (VM_IO, VM_PFNMAP) would
 * otherwise queue it for ever.
 */
#define NT_FAULT_TRIES	3

static void nt_reg_fault_queue(struct nt_reg *r)
{
	lockdep_assert_held(&nt_provider_lock);
	if (r->fault_queued || r->gone || r->fault_tries >= NT_FAULT_TRIES)
		return;
	r->fault_tries++;
	r->fault_queued = true;
	refcount_inc(&r->ref);
	queue_work(nt_fault_wq, &r->fault_work);
}

static void nt_reg_put(struct nt_reg *r);

/*
 * Fault the enable info's page in for writing and pin it, with no lock of
 * ours held, then write the info as it stands now (it may have changed
 * since the update that queued us). On nt_fault_wq (@slow false) this
 * waits for no mm's lock: finding it taken, it leaves the work to
 * fault_slow_work on nt_fault_slow_wq (see the top), with its reference
 * to @r, which waits for it. Two work items, so that lockdep tells the
 * one that waits for an mm's lock from the one ENABLE waits for.
 */
static void nt_reg_fault(struct nt_reg *r, bool slow)
{
	struct mm_struct *mm = r->mm;
	struct nttrace_enable_info v;
	struct page *page = NULL;
	long got = 0;
	int ret = -ESRCH;

	if (mmget_not_zero(mm)) {
		if (slow) {
			mmap_read_lock(mm);
		} else if (!mmap_read_trylock(mm)) {
			queue_work(nt_fault_slow_wq, &r->fault_slow_work);
			/* @r is the slow work's now: not touched again. */
			mmput_async(mm);
			return;
		}
		ret = fixup_user_fault(mm, r->uaddr, FAULT_FLAG_WRITE | FAULT_FLAG_REMOTE, NULL);
		if (!ret)
			got = nt_pin_nofault(mm, r->uaddr & PAGE_MASK, &page);
		mmap_read_unlock(mm);
		/*
		 * Not the last user's exit_mmap() here: it takes the mm's lock
		 * and would wait for it in the work ENABLE flushes (lockdep
		 * sees that as the flush waiting for an mm's lock).
		 */
		mmput_async(mm);
	}
	mutex_lock(&nt_provider_lock);
	r->fault_queued = false;
	if (got == 1) {
		if (!r->gone) {
			nt_guid_info(r->g, &v);
			nt_reg_write_page(r, page, &v);
		} else {
			unpin_user_page(page);
		}
	} else if (!r->gone && !ret) {
		/* Faulted in, and gone again before the pin: once more. */
		nt_reg_fault_queue(r);
	}
	/* Unmapped, not writable (ret): nothing until the next update. */
	/* Written, or given up on: what was held goes out (not if requeued). */
	if (!r->fault_queued)
		nt_held_release(r, !r->gone);
	mutex_unlock(&nt_provider_lock);
	nt_reg_put(r);
}

static void nt_reg_fault_fn(struct work_struct *work)
{
	nt_reg_fault(container_of(work, struct nt_reg, fault_work), false);
}

static void nt_reg_fault_slow_fn(struct work_struct *work)
{
	nt_reg_fault(container_of(work, struct nt_reg, fault_slow_work), true);
}

/*
 * Wait for the fault work queued so far, but for that waiting for an mm's
 * lock (see the top): what ENABLE and a session's stop wait for.
 */
static void nt_provider_fault_flush(void)
{
	flush_workqueue(nt_fault_wq);
}

#if IS_ENABLED(CONFIG_KUNIT)
/* All fault work, that waiting for an mm's lock too (KUnit). */
void nt_provider_fault_flush_all(void)
{
	flush_workqueue(nt_fault_wq);
	flush_workqueue(nt_fault_slow_wq);
}
EXPORT_SYMBOL_IF_KUNIT(nt_provider_fault_flush_all);
#endif

/* Write @v into @r's enable info, wherever it lives. */
static void nt_reg_publish(struct nt_reg *r, const struct nttrace_enable_info *v)
{
	lockdep_assert_held(&nt_provider_lock);
	if (r->kinfo) {
		nt_info_store(r, r->kinfo, v);
	} else if (r->mm) {
		r->fault_tries = 0;
		if (nt_reg_write_user(r, v))
			nt_reg_fault_queue(r);
	}
	/* A kernel registration asks the snapshot. */
}

/*
 * Queue @r's callback for @control and @e (its arguments copied: @e may be
 * freed before it runs) and put @r on @todo, the list of kernel
 * registrations the caller runs once it has dropped nt_provider_lock,
 * unless it is on one already: whoever put it there runs this one too. A
 * change of enables has no way to fail, so neither may this allocation
 * (it is small, as the snapshot's is).
 */
static void nt_kcall_queue(struct nt_reg *r, u32 control, const struct nt_enable *e,
			   struct list_head *todo)
{
	struct nt_kcall *k = kmalloc(sizeof(*k), GFP_KERNEL | __GFP_NOFAIL);

	lockdep_assert_held(&nt_provider_lock);
	k->control = control;
	k->level = e->level;
	k->any = e->any;
	k->all = e->all;
	k->logger_id = e->logger_id;
	list_add_tail(&k->node, &r->kcalls);
	if (list_empty(&r->todo_node)) {
		refcount_inc(&r->ref);
		list_add_tail(&r->todo_node, todo);
	}
}

/*
 * Tell @r of @control for @e: a file's registration by its queue, a kernel
 * one by a callback queued for @todo (which only a file's may leave NULL).
 */
static void nt_reg_notify(struct nt_reg *r, u32 control, const struct nt_enable *e,
			  struct list_head *todo)
{
	struct nttrace_notification n = {
		.size = sizeof(n),
		.control = control,
		.handle = r->handle,
		.context = r->context,
		.logger_handle = nt_enable_handle(e),
		.level = e->level,
		.enable_flags = e->flags,
		.match_any_keyword = e->any,
		.match_all_keyword = e->all,
		.logger_id = e->logger_id,
	};

	if (!r->pf) {
		if (r->cb)
			nt_kcall_queue(r, control, e, todo);
		return;
	}
	nt_notify_or_hold(r, &n);
}

/*
 * Publish @g's sessions for the hot path. The snapshot is small (one entry
 * per session, at most NTTRACE_MAX_LOGGERS) and a change of enables (a
 * session's stop among them) has no way to fail, so the allocation may
 * not fail either.
 */
static void nt_guid_snapshot(struct nt_guid *g)
{
	struct nt_snap *old, *snap = NULL;
	struct nt_enable *e;
	unsigned int n = 0;

	lockdep_assert_held(&nt_provider_lock);
	list_for_each_entry(e, &g->enables, node)
		n++;
	if (n) {
		snap = kzalloc(struct_size(snap, e, n), GFP_KERNEL | __GFP_NOFAIL);
		snap->count = n;
		n = 0;
		list_for_each_entry(e, &g->enables, node) {
			snap->e[n].logger_id = e->logger_id;
			snap->e[n].level = e->level;
			snap->e[n].any = e->any;
			snap->e[n].all = e->all;
			snap->e[n].stack = e->property & NTTRACE_ENABLE_PROPERTY_STACK_TRACE;
			/* Whole before this store: see nt_reg_wanted_rcu(). */
			snap->e[n].ids = e->ids;
			n++;
		}
	}
	old = rcu_replace_pointer(g->snap, snap, lockdep_is_held(&nt_provider_lock));
	/*
	 * rcu_replace_pointer() publishes with release semantics; it pairs
	 * with the rcu_dereference() of nt_reg_wanted_rcu() and, through the
	 * locks a stopped session's logger ID passes through before a new
	 * session takes it (module/session.c keeps it until
	 * nt_provider_session_stopped() returns) and that session's
	 * rcu_assign_pointer() into the logger table, with the smp_rmb() of
	 * nt_write_wanted() (module/eventwrite.c), which rechecks the snapshot
	 * after reserving in a logger ID that a stop may have freed for a
	 * new session.
	 */
	if (old)
		kfree_rcu(old, rcu);
}

/*
 * Session @e->logger_id's enable of @g changed (@control; for DISABLE @e
 * is already off the list, not yet freed). Publish the new info and
 * notify: every EVENT registration of the change; a CLASSIC one when the
 * enable it acts on changes or is enabled again, or when none is left.
 * Kernel registrations' callbacks are queued for @todo. Returns the
 * registrations notified.
 */
static u32 nt_guid_changed(struct nt_guid *g, u32 control,
			   const struct nt_enable *e, struct list_head *todo)
{
	struct nt_enable *was = g->acting;
	struct nttrace_enable_info v;
	struct nt_reg *r;
	u32 notified = 0;

	if (control != NTTRACE_EVENT_CONTROL_CODE_CAPTURE_STATE) {
		g->acting = nt_guid_latest(g);
		nt_guid_snapshot(g);
	}
	nt_guid_info(g, &v);
	list_for_each_entry(r, &g->regs, guid_node) {
		nt_reg_publish(r, &v);
		if (r->type == NTTRACE_REG_EVENT) {
			/* Kernel registrations are EVENT ones too. */
			nt_reg_notify(r, control, e, todo);
			notified++;
		} else if (control == NTTRACE_EVENT_CONTROL_CODE_CAPTURE_STATE) {
			continue;
		} else if (g->acting && (g->acting != was || g->acting == e)) {
			nt_reg_notify(r, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, g->acting,
				      todo);
			notified++;
		} else if (!g->acting && was) {
			nt_reg_notify(r, NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER, e, todo);
			notified++;
		}
	}
	return notified;
}

/* Take @e off @g, tell the registrations, free it (and @g if unused). */
static u32 nt_enable_drop(struct nt_guid *g, struct nt_enable *e,
			  struct list_head *todo)
{
	u32 notified;

	list_del(&e->node);
	nt_enables_per_logger[e->logger_id]--;
	notified = nt_guid_changed(g, NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER, e, todo);
	/* The snapshot without @e is published: readers of the old may remain. */
	if (e->ids)
		kfree_rcu(e->ids, rcu);
	kfree(e);
	nt_guid_put_if_unused(g);
	return notified;
}

/* ---- REGISTER, UNREGISTER ---- */

/*
 * The hot path may still hold @r (found before it left nt_reg_handles):
 * kfree_rcu(), which calls no code of ours, so that module unload need not
 * wait. The pid may go at once: a writer compares r->pid with its own
 * process's, which was alive, as this one was, when it found @r, so the
 * two pointers are equal only if the objects are.
 */
static void nt_reg_free(struct nt_reg *r)
{
	if (r->pf)
		nt_user_reg_uncharge(r->uid);
	if (r->mm)
		mmdrop(r->mm);
	put_pid(r->pid);
	kfree_rcu(r, rcu);
}

static int nt_register(struct nt_prov_file *pf, struct nttrace_register *in,
		       struct nttrace_enable_info *kinfo)
{
	struct nt_guid *fresh = NULL, *g;
	struct nttrace_enable_info v;
	struct nt_reg *r = NULL;
	struct nt_enable *e;
	u32 id;
	int ret;

	if (in->type != NTTRACE_REG_CLASSIC && in->type != NTTRACE_REG_EVENT)
		return -EINVAL;
	if (!kinfo && (in->enable_info % 8 ||
		       (in->enable_info & ~PAGE_MASK) + sizeof(v) > PAGE_SIZE))
		return -EINVAL;
	ret = nt_prov_file_queue(pf);
	if (ret)
		return ret;

	/* Reserve the file's slot first, so that racing REGISTERs count. */
	mutex_lock(&nt_provider_lock);
	if (pf->nr_regs >= NTTRACE_MAX_REGISTRATIONS) {
		mutex_unlock(&nt_provider_lock);
		return -EMFILE;
	}
	pf->nr_regs++;
	mutex_unlock(&nt_provider_lock);

	ret = nt_user_reg_charge(nt_quota_uid());
	if (ret)
		goto unreserve;
	ret = -ENOMEM;
	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
	if (!r || !fresh)
		goto uncharge;
	r->uid = nt_quota_uid();
	r->type = in->type;
	r->context = in->context;
	r->pf = pf;
	r->kinfo = kinfo;
	refcount_set(&r->ref, 1);
	INIT_WORK(&r->fault_work, nt_reg_fault_fn);
	INIT_WORK(&r->fault_slow_work, nt_reg_fault_slow_fn);
	INIT_LIST_HEAD(&r->held);
	if (!kinfo) {
		unsigned long addr = (unsigned long)in->enable_info;
		struct page *page;

		if (in->enable_info != addr || !current->mm) {
			ret = -EFAULT;
			goto uncharge;
		}
		/*
		 * Writable memory of ours, faulted in now, in our own
		 * context, so that the write under nt_provider_lock below
		 * finds it present; unpinned at once.
		 */
		ret = pin_user_pages_fast(addr & PAGE_MASK, 1, FOLL_WRITE, &page);
		if (ret != 1) {
			ret = ret == -ENOMEM ? ret : -EFAULT;
			goto uncharge;
		}
		unpin_user_page(page);
		r->uaddr = addr;
		r->mm = current->mm;
		mmgrab(r->mm);
	}
	r->pid = get_pid(task_tgid(current));

	mutex_lock(&nt_provider_lock);
	g = nt_guid_get(in->guid, &fresh);
	r->g = g;
	/* Stored with release semantics: a lookup sees @r whole. */
	ret = xa_alloc_cyclic(&nt_reg_handles, &id, r, xa_limit_32b,
			      &nt_next_handle, GFP_KERNEL);
	if (ret < 0) {
		nt_guid_put_if_unused(g);
		mutex_unlock(&nt_provider_lock);
		ret = ret == -EBUSY ? -EMFILE : ret;
		goto uncharge;
	}
	r->handle = id;
	list_add_tail(&r->guid_node, &g->regs);
	list_add_tail(&r->file_node, &pf->regs);
	nt_guid_info(g, &v);
	nt_reg_publish(r, &v);
	/* The enables made before: ENABLE notifications, as for new ones. */
	if (r->type == NTTRACE_REG_EVENT) {
		list_for_each_entry(e, &g->enables, node)
			nt_reg_notify(r, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, e, NULL);
	} else if (g->acting) {
		nt_reg_notify(r, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, g->acting, NULL);
	}
	in->handle = r->handle;
	/*
	 * If the page went (reclaimed) since we faulted it in, the fault
	 * work writes the info: REGISTER waits for it, holding a reference
	 * (once the handle is in nt_reg_handles an UNREGISTER may race).
	 */
	refcount_inc(&r->ref);
	mutex_unlock(&nt_provider_lock);
	flush_work(&r->fault_work);
	nt_reg_put(r);
	kfree(fresh);
	return 0;

uncharge:
	kfree(fresh);
	if (r && r->mm)
		mmdrop(r->mm);
	if (r)
		put_pid(r->pid);
	kfree(r);
	nt_user_reg_uncharge(nt_quota_uid());
unreserve:
	mutex_lock(&nt_provider_lock);
	pf->nr_regs--;
	mutex_unlock(&nt_provider_lock);
	return ret;
}

int nt_provider_register(struct nt_prov_file *pf, struct nttrace_register *r)
{
	return nt_register(pf, r, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(nt_provider_register);

int nt_provider_register_kinfo(struct nt_prov_file *pf,
			       struct nttrace_register *r,
			       struct nttrace_enable_info *info)
{
	return nt_register(pf, r, info);
}
EXPORT_SYMBOL_IF_KUNIT(nt_provider_register_kinfo);

/* Off the table and the file's list; the caller frees it unlocked. */
static void nt_reg_unlink(struct nt_reg *r)
{
	lockdep_assert_held(&nt_provider_lock);
	r->gone = true;
	if (r->handle)
		xa_erase(&nt_reg_handles, r->handle);
	list_del(&r->guid_node);
	if (r->pf) {
		list_del(&r->file_node);
		r->pf->nr_regs--;
	}
	nt_guid_put_if_unused(r->g);
}

int nt_provider_unregister(struct nt_prov_file *pf, u64 handle)
{
	struct nt_reg *r, *found = NULL;

	if (!handle || handle > U32_MAX)
		return -ENOENT;
	mutex_lock(&nt_provider_lock);
	r = xa_load(&nt_reg_handles, handle);
	if (r && r->pf == pf) {
		found = r;
		nt_reg_unlink(r);
	}
	mutex_unlock(&nt_provider_lock);
	if (!found)
		return -ENOENT;
	nt_notify_purge(pf, handle);
	nt_reg_put(found);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nt_provider_unregister);

void nt_prov_file_release(struct nt_prov_file *pf)
{
	struct nt_reg *r, *tmp;
	LIST_HEAD(gone);

	mutex_lock(&nt_provider_lock);
	list_for_each_entry_safe(r, tmp, &pf->regs, file_node) {
		nt_reg_unlink(r);
		list_add_tail(&r->file_node, &gone);
	}
	mutex_unlock(&nt_provider_lock);
	list_for_each_entry_safe(r, tmp, &gone, file_node)
		nt_reg_put(r);
	/* Nothing queues here any more: what waited is done with. */
	if (pf->queue) {
		unsigned int i;

		nt_wait_done(pf->taken);
		pf->taken = NULL;
		for (i = 0; i < NTTRACE_MAX_NOTIFICATIONS; i++)
			nt_wait_done(pf->waits[i]);
	}
	kvfree(pf->waits);
	pf->waits = NULL;
	kvfree(pf->queue);
	pf->queue = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(nt_prov_file_release);

/* ---- ENABLE, and the sessions that may ---- */

static void nt_kcalls_run(struct list_head *todo);

/*
 * The filter and property members of @in: consistent (the uapi's rules),
 * or -EINVAL.
 */
static int nt_enable_filter_check(const struct nttrace_enable *in)
{
	if (in->enable_property & ~NTTRACE_ENABLE_PROPERTY_STACK_TRACE)
		return -EINVAL;
	if (in->enable_property && in->control != NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER)
		return -EINVAL;
	if (in->filter_flags & ~(NTTRACE_ENABLE_FILTER_EVENT_ID |
				 NTTRACE_ENABLE_FILTER_EVENT_ID_IN))
		return -EINVAL;
	if (in->filter_flags && in->control != NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER)
		return -EINVAL;
	if (!(in->filter_flags & NTTRACE_ENABLE_FILTER_EVENT_ID))
		return in->filter_flags || in->event_id_count || in->event_ids ? -EINVAL : 0;
	if (!in->event_id_count || in->event_id_count > NTTRACE_MAX_FILTER_EVENT_IDS)
		return -EINVAL;
	return 0;
}

static int nt_u16_cmp(const void *a, const void *b)
{
	return (int)*(const u16 *)a - (int)*(const u16 *)b;
}

/*
 * The event-ID filter of a checked @in, or NULL for none: its IDs from
 * @kids (kernel memory) or, if NULL, read once from the caller's
 * @in->event_ids. Sorted, and repeats dropped.
 */
static struct nt_id_filter *nt_id_filter_make(const struct nttrace_enable *in,
					      const u16 *kids)
{
	u32 n = in->event_id_count, i, kept = 0;
	struct nt_id_filter *f;

	if (!(in->filter_flags & NTTRACE_ENABLE_FILTER_EVENT_ID))
		return NULL;
	/* n is at most NTTRACE_MAX_FILTER_EVENT_IDS (checked): no overflow. */
	f = kzalloc(struct_size(f, ids, n), GFP_KERNEL_ACCOUNT);
	if (!f)
		return ERR_PTR(-ENOMEM);
	f->count = n;
	if (kids) {
		memcpy(f->ids, kids, n * sizeof(f->ids[0]));
	} else if (copy_from_user(f->ids, u64_to_user_ptr(in->event_ids),
				  n * sizeof(f->ids[0]))) {
		kfree(f);
		return ERR_PTR(-EFAULT);
	}
	sort(f->ids, n, sizeof(f->ids[0]), nt_u16_cmp, NULL);
	for (i = 0; i < n; i++)
		if (!kept || f->ids[kept - 1] != f->ids[i])
			f->ids[kept++] = f->ids[i];
	f->count = kept;
	f->in = in->filter_flags & NTTRACE_ENABLE_FILTER_EVENT_ID_IN;
	return f;
}

/* Whether filter @f (NULL: none) lets an event of ID @id through. */
static bool nt_id_filter_passes(const struct nt_id_filter *f, u16 id)
{
	unsigned int lo = 0, hi;
	bool found = false;

	if (!f)
		return true;
	hi = f->count;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (f->ids[mid] == id) {
			found = true;
			break;
		}
		if (f->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return found == f->in;
}

static int nt_enable(struct nttrace_enable *in, const u16 *kids)
{
	struct nt_enable *e, *fresh_e = NULL, *pos;
	struct nt_guid *g, *fresh_g = NULL;
	struct nt_id_filter *ids = NULL;
	struct nt_wait *w = NULL;
	struct nt_session *s;
	LIST_HEAD(todo);
	int ret = 0;

	if (!nt_privileged())
		return -EPERM;
	if (!memcmp(in->guid, nt_security_guid, sizeof(in->guid)) &&
	    !nt_security_reader())
		return -EPERM;
	if (in->control > NTTRACE_EVENT_CONTROL_CODE_CAPTURE_STATE || in->level > 0xFF)
		return -EINVAL;
	ret = nt_enable_filter_check(in);
	if (ret)
		return ret;
	in->registrations = 0;
	if (!in->logger_id || in->logger_id > NTTRACE_MAX_LOGGERS)
		return -ENOENT;
	/*
	 * The session itself, held: a system logger asks more of the caller
	 * (nt_session_get_enable()); and the security provider marks it
	 * before the enable, for good: from now on only readers of security
	 * events may consume it; none other may be attached.
	 */
	s = nt_session_get_enable(in->logger_id,
				  in->control == NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER &&
				  !memcmp(in->guid, nt_security_guid, sizeof(in->guid)));
	if (IS_ERR(s))
		return PTR_ERR(s);
	if (in->control == NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER) {
		/* Read before nt_provider_lock: a fault may take its time. */
		ids = nt_id_filter_make(in, kids);
		if (IS_ERR(ids)) {
			ret = PTR_ERR(ids);
			ids = NULL;
			goto out_free;
		}
		fresh_e = kzalloc(sizeof(*fresh_e), GFP_KERNEL_ACCOUNT);
		fresh_g = kzalloc(sizeof(*fresh_g), GFP_KERNEL_ACCOUNT);
		if (!fresh_e || !fresh_g) {
			ret = -ENOMEM;
			goto out_free;
		}
	}
	if (in->timeout_ms) {
		w = kzalloc(sizeof(*w), GFP_KERNEL);
		if (!w) {
			ret = -ENOMEM;
			goto out_free;
		}
		refcount_set(&w->ref, 1);
		init_waitqueue_head(&w->wq);
	}

	mutex_lock(&nt_provider_lock);
	nt_cur_wait = w;
	/*
	 * Checked under nt_provider_lock, as a session's stop drops its
	 * enables: an enable either sees the session gone or is dropped.
	 * The session checked and marked above, not another that took its
	 * slot since.
	 */
	if (!test_bit(in->logger_id, nt_running) || !nt_session_listed(s)) {
		ret = -ENOENT;
		goto out;
	}
	g = nt_guid_find(in->guid);
	e = g ? nt_enable_find(g, in->logger_id) : NULL;
	switch (in->control) {
	case NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER:
		if (!e) {
			ret = -ENOENT;
			break;
		}
		in->registrations = nt_enable_drop(g, e, &todo);
		break;
	case NTTRACE_EVENT_CONTROL_CODE_CAPTURE_STATE:
		if (!e) {
			ret = -ENOENT;
			break;
		}
		/*
		 * The providers are told the level and keywords the request
		 * gives, the state it wants logged, as Windows tells them
		 * (WPR's CaptureStateOnSave keywords); a request with none of
		 * the three, the session's. The copy is read at once (the
		 * notifications hold values, not it).
		 */
		if (in->level || in->match_any_keyword || in->match_all_keyword) {
			struct nt_enable cap = *e;

			cap.level = in->level;
			cap.any = in->match_any_keyword;
			cap.all = in->match_all_keyword;
			in->registrations = nt_guid_changed(g, in->control, &cap, &todo);
		} else {
			in->registrations = nt_guid_changed(g, in->control, e, &todo);
		}
		break;
	default:
		if (!e && nt_enables_per_logger[in->logger_id] >= NTTRACE_MAX_ENABLES) {
			ret = -ENOSPC;
			break;
		}
		if (!e) {
			g = nt_guid_get(in->guid, &fresh_g);
			e = fresh_e;
			fresh_e = NULL;
			e->logger_id = in->logger_id;
			/* Kept in logger-ID order, as LIST_PROVIDERS reports. */
			list_for_each_entry(pos, &g->enables, node)
				if (pos->logger_id > e->logger_id)
					break;
			list_add_tail(&e->node, &pos->node);
			nt_enables_per_logger[in->logger_id]++;
		}
		e->level = in->level;
		e->flags = in->enable_flags;
		e->any = in->match_any_keyword;
		e->all = in->match_all_keyword;
		e->property = in->enable_property;
		e->stamp = ++nt_enable_stamp;
		/* The old filter goes once the snapshot without it is out. */
		swap(e->ids, ids);
		in->registrations = nt_guid_changed(g, in->control, e, &todo);
		break;
	}
out:
	nt_cur_wait = NULL;
	mutex_unlock(&nt_provider_lock);
	nt_kcalls_run(&todo);
	/*
	 * Pages that had to be faulted in: written before ENABLE returns,
	 * but where the process holds its mm's lock (see the top).
	 */
	nt_provider_fault_flush();
	if (w && !ret) {
		/* Past the time, the change stands all the same, as on Windows. */
		long left = wait_event_killable_timeout(w->wq, !atomic_read(&w->pending),
							msecs_to_jiffies(in->timeout_ms));

		if (!left)
			ret = -ETIMEDOUT;
		else if (left < 0)
			ret = left;
	}
out_free:
	nt_wait_put(w);
	/* The replaced filter (readers of the old snapshot may hold it), or ours unused. */
	if (ids)
		kfree_rcu(ids, rcu);
	kfree(fresh_e);
	kfree(fresh_g);
	nt_session_put(s);
	return ret;
}

int nt_provider_enable(struct nttrace_enable *in)
{
	return nt_enable(in, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(nt_provider_enable);

int nt_provider_enable_ids(struct nttrace_enable *in, const u16 *ids)
{
	return nt_enable(in, ids);
}
EXPORT_SYMBOL_IF_KUNIT(nt_provider_enable_ids);

void nt_provider_session_started(u32 logger_id)
{
	mutex_lock(&nt_provider_lock);
	__set_bit(logger_id, nt_running);
	mutex_unlock(&nt_provider_lock);
}

void nt_provider_session_stopped(u32 logger_id)
{
	struct rb_node *node, *next;
	LIST_HEAD(todo);

	might_sleep();
	mutex_lock(&nt_provider_lock);
	__clear_bit(logger_id, nt_running);
	for (node = rb_first(&nt_guids); node; node = next) {
		struct nt_guid *g = rb_entry(node, struct nt_guid, node);
		struct nt_enable *e = nt_enable_find(g, logger_id);

		/* Dropping the enable may free @g: step on first. */
		next = rb_next(node);
		if (e)
			nt_enable_drop(g, e, &todo);
	}
	mutex_unlock(&nt_provider_lock);
	nt_kcalls_run(&todo);
	nt_provider_fault_flush();
}

/* ---- LIST_PROVIDERS ---- */

u32 nt_provider_rows(struct nttrace_provider_row *rows, u32 room)
{
	struct rb_node *node;
	u32 n = 0;

	mutex_lock(&nt_provider_lock);
	for (node = rb_first(&nt_guids); node; node = rb_next(node)) {
		struct nt_guid *g = rb_entry(node, struct nt_guid, node);
		struct nt_enable *e;
		struct nt_reg *r;

		list_for_each_entry(r, &g->regs, guid_node) {
			if (n < room) {
				memset(&rows[n], 0, sizeof(rows[n]));
				memcpy(rows[n].guid, g->guid, 16);
				rows[n].pid = pid_vnr(r->pid);
				rows[n].type = r->type;
			}
			n++;
		}
		list_for_each_entry(e, &g->enables, node) {
			if (n < room) {
				memset(&rows[n], 0, sizeof(rows[n]));
				memcpy(rows[n].guid, g->guid, 16);
				rows[n].logger_id = e->logger_id;
				rows[n].level = e->level;
				rows[n].enable_flags = e->flags;
				rows[n].match_any_keyword = e->any;
				rows[n].match_all_keyword = e->all;
				if (e == g->acting)
					rows[n].flags = NTTRACE_PROVIDER_ROW_LATEST;
				if (e->property & NTTRACE_ENABLE_PROPERTY_STACK_TRACE)
					rows[n].flags |= NTTRACE_PROVIDER_ROW_STACK_TRACE;
			}
			n++;
		}
	}
	mutex_unlock(&nt_provider_lock);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(nt_provider_rows);

/*
 * Rows are gathered into kernel memory under the lock and copied out after
 * it, so that a caller's page fault never holds the table. The room is
 * bounded by the rows there are, counted first.
 */
int nt_provider_list(struct nttrace_provider_list *l)
{
	struct nttrace_provider_row *rows = NULL;
	u32 room, total;
	size_t bytes;
	int ret = 0;

	total = nt_provider_rows(NULL, 0);
	room = min(l->count, total);
	if (room) {
		rows = kvmalloc_array(room, sizeof(*rows), GFP_KERNEL_ACCOUNT);
		if (!rows)
			return -ENOMEM;
	}
	total = nt_provider_rows(rows, room);
	room = min(room, total);
	if (check_mul_overflow((size_t)room, sizeof(*rows), &bytes))
		ret = -EINVAL;
	else if (room && copy_to_user(u64_to_user_ptr(l->rows), rows, bytes))
		ret = -EFAULT;
	kvfree(rows);
	l->count = total;
	return ret;
}

/* ---- the hot path and kernel registrations ---- */

struct nt_reg *nt_reg_lookup_rcu(u64 handle)
{
	struct nt_reg *r;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "a registration outside RCU");
	if (!handle || handle > U32_MAX)
		return NULL;
	r = xa_load(&nt_reg_handles, handle);
	/* Only the registering process writes with its handle (see nt_reg_free). */
	if (!r || r->type != NTTRACE_REG_EVENT || r->pid != task_tgid(current))
		return NULL;
	return r;
}
EXPORT_SYMBOL_IF_KUNIT(nt_reg_lookup_rcu);

const u8 *nt_reg_guid(const struct nt_reg *r)
{
	return r->g->guid;
}
EXPORT_SYMBOL_IF_KUNIT(nt_reg_guid);

/*
 * The sessions of @r's snapshot that take @level and @keyword and, with
 * @by_id, whose event-ID filter lets @id through; into @stacks (unless
 * NULL), from the same snapshot, those whose enable asks for stacks.
 */
static u64 nt_snap_wanted(const struct nt_reg *r, bool by_id, u16 id, u8 level,
			  u64 keyword, u64 *stacks)
{
	/*
	 * Pairs with the release of rcu_replace_pointer() in
	 * nt_guid_snapshot(): the entries, and the filters they point to
	 * (made whole before the snapshot was), are read through this
	 * pointer, so they are seen as they were published. A filter is
	 * freed only after a grace period from the publication of the
	 * snapshot that no longer holds it.
	 */
	const struct nt_snap *snap = rcu_dereference(r->g->snap);
	u64 want = 0;
	unsigned int i;

	if (stacks)
		*stacks = 0;
	if (!snap)
		return 0;
	for (i = 0; i < snap->count; i++) {
		const struct nt_snap_entry *e = &snap->e[i];

		if (stacks && e->stack)
			*stacks |= 1ULL << (e->logger_id - 1);
		if (NTTRACE_LEVEL_KEYWORD_ENABLED(e->level, nt_keyword_any(e->any),
						  nt_keyword_all(e->any, e->all), level, keyword) &&
		    (!by_id || nt_id_filter_passes(e->ids, id)))
			want |= 1ULL << (e->logger_id - 1);
	}
	return want;
}

u64 nt_reg_wanted_rcu(const struct nt_reg *r, u16 id, u8 level, u64 keyword, u64 *stacks)
{
	return nt_snap_wanted(r, true, id, level, keyword, stacks);
}
EXPORT_SYMBOL_IF_KUNIT(nt_reg_wanted_rcu);

bool nt_provider_kernel_enabled(const struct nt_reg *r, u8 level, u64 keyword)
{
	bool on;

	/* EventEnabled's question: level and keywords, no event-ID filter. */
	rcu_read_lock();
	on = nt_snap_wanted(r, false, 0, level, keyword, NULL) != 0;
	rcu_read_unlock();
	return on;
}
EXPORT_SYMBOL_IF_KUNIT(nt_provider_kernel_enabled);

static void nt_reg_put(struct nt_reg *r)
{
	if (refcount_dec_and_test(&r->ref))
		nt_reg_free(r);
}

int nt_provider_init(void)
{
	nt_fault_wq = alloc_workqueue("nttrace_fault", WQ_UNBOUND, 0);
	if (!nt_fault_wq)
		return -ENOMEM;
	nt_fault_slow_wq = alloc_workqueue("nttrace_fault_slow", WQ_UNBOUND, 0);
	if (!nt_fault_slow_wq) {
		destroy_workqueue(nt_fault_wq);
		return -ENOMEM;
	}
	return 0;
}

void nt_provider_exit(void)
{
	/*
	 * Every file is closed: what is queued only finds registrations
	 * gone. A work on nt_fault_wq may move to nt_fault_slow_wq: that
	 * one is drained after.
	 */
	destroy_workqueue(nt_fault_wq);
	destroy_workqueue(nt_fault_slow_wq);
}


/*
 * Run @r's queued callbacks, @r's runner being the caller: until none is
 * queued, so that one queued while a callback ran (by another thread,
 * which left it to us, or by the callback itself) runs after it.
 */
static void nt_reg_run(struct nt_reg *r)
{
	struct nt_kcall *k;

	mutex_lock(&nt_provider_lock);
	while ((k = list_first_entry_or_null(&r->kcalls, struct nt_kcall, node))) {
		list_del(&k->node);
		mutex_unlock(&nt_provider_lock);
		r->cb(r->cb_ctx, k->control, k->level, k->any, k->all, k->logger_id);
		kfree(k);
		mutex_lock(&nt_provider_lock);
	}
	WRITE_ONCE(r->runner, NULL);
	mutex_unlock(&nt_provider_lock);
	/* An unregister on another thread may wait for us. */
	wake_up_all(&nt_kcall_wq);
}

/*
 * The caller queued callbacks for @todo under nt_provider_lock and has
 * dropped it: run them, registration by registration, and drop the
 * references the list held. A registration another thread is running
 * callbacks of already (or this one, from a callback further up) is left
 * to that thread, which runs ours after its own.
 */
static void nt_kcalls_run(struct list_head *todo)
{
	struct nt_reg *r;
	bool run;

	for (;;) {
		mutex_lock(&nt_provider_lock);
		r = list_first_entry_or_null(todo, struct nt_reg, todo_node);
		if (!r) {
			mutex_unlock(&nt_provider_lock);
			return;
		}
		list_del_init(&r->todo_node);
		run = !r->runner;
		if (run)
			WRITE_ONCE(r->runner, current);
		mutex_unlock(&nt_provider_lock);
		if (run)
			nt_reg_run(r);
		nt_reg_put(r);
	}
}

struct nt_reg *nt_provider_register_kernel(const u8 *guid, nt_provider_cb_t cb, void *ctx)
{
	struct nt_guid *fresh, *g;
	struct nt_enable *e;
	struct nt_reg *r;
	LIST_HEAD(todo);

	might_sleep();
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!r || !fresh) {
		kfree(r);
		kfree(fresh);
		return ERR_PTR(-ENOMEM);
	}
	r->type = NTTRACE_REG_EVENT;
	r->cb = cb;
	r->cb_ctx = ctx;
	refcount_set(&r->ref, 1);
	INIT_LIST_HEAD(&r->kcalls);
	INIT_LIST_HEAD(&r->todo_node);
	mutex_lock(&nt_provider_lock);
	g = nt_guid_get(guid, &fresh);
	r->g = g;
	list_add_tail(&r->guid_node, &g->regs);
	/*
	 * The enables made before: ENABLE callbacks, as for new ones. @r is
	 * on our list first, so we run them, and any change queues after
	 * them, before we return.
	 */
	list_for_each_entry(e, &g->enables, node)
		nt_reg_notify(r, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, e, &todo);
	mutex_unlock(&nt_provider_lock);
	kfree(fresh);
	nt_kcalls_run(&todo);
	return r;
}
EXPORT_SYMBOL_IF_KUNIT(nt_provider_register_kernel);

void nt_provider_unregister_kernel(struct nt_reg *r)
{
	struct nt_kcall *k, *tmp;
	bool wait;

	if (IS_ERR_OR_NULL(r))
		return;
	might_sleep();
	mutex_lock(&nt_provider_lock);
	/* Off the GUID: nothing more is queued. What is queued is dropped. */
	nt_reg_unlink(r);
	list_for_each_entry_safe(k, tmp, &r->kcalls, node) {
		list_del(&k->node);
		kfree(k);
	}
	/* From a callback of @r (its runner, further up): nothing to wait for. */
	wait = r->runner && r->runner != current;
	mutex_unlock(&nt_provider_lock);
	/*
	 * A runner on another thread may be in a callback: wait for it to
	 * return. Any runner after it finds nothing queued and calls nothing.
	 */
	if (wait)
		wait_event(nt_kcall_wq, !READ_ONCE(r->runner));
	nt_reg_put(r);
}
EXPORT_SYMBOL_IF_KUNIT(nt_provider_unregister_kernel);

/*
 * TRACE_EVENT_NOREG and TRACE_SECURITY write for a GUID, not through a
 * registration: a registration of no one (on no list, no handle, no
 * file), pointing at the GUID's node, which the hold keeps in the table.
 * The node exists while a session enables the GUID (enables are kept per
 * GUID, registered or not: see nt_enable()), so a GUID no session
 * enables is answered without allocating.
 */
struct nt_reg *nt_provider_hold(const u8 *guid)
{
	struct nt_reg *r;
	struct nt_guid *g;

	might_sleep();
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&nt_provider_lock);
	g = nt_guid_find(guid);
	if (!g || list_empty(&g->enables)) {
		mutex_unlock(&nt_provider_lock);
		kfree(r);
		return NULL;
	}
	g->holds++;
	r->g = g;
	r->type = NTTRACE_REG_EVENT;
	mutex_unlock(&nt_provider_lock);
	return r;
}
EXPORT_SYMBOL_IF_KUNIT(nt_provider_hold);

void nt_provider_unhold(struct nt_reg *r)
{
	mutex_lock(&nt_provider_lock);
	r->g->holds--;
	nt_guid_put_if_unused(r->g);
	mutex_unlock(&nt_provider_lock);
	/* Never published: no reader but the writer that held it. */
	kfree(r);
}
EXPORT_SYMBOL_IF_KUNIT(nt_provider_unhold);
