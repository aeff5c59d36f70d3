/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Providers (seed 004): the table of provider GUIDs, their registrations
 * and the sessions that enable them; each open file's registrations and
 * notification queue. The ABI is in uapi/nttrace.h, "Providers".
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
	u64 next_handle;
};

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
int nt_provider_enable(struct nttrace_enable *e);
int nt_provider_notification(struct nt_prov_file *pf,
			     struct nttrace_notification *n);
int nt_provider_list(struct nttrace_provider_list *l);

/*
 * A registration whose enable info is kernel memory (KUnit): as
 * nt_provider_register(), but @info is written instead of a user page.
 */
int nt_provider_register_kernel(struct nt_prov_file *pf,
				struct nttrace_register *r,
				struct nttrace_enable_info *info);
/* The rows LIST_PROVIDERS reports, into kernel memory (KUnit). */
u32 nt_provider_rows(struct nttrace_provider_row *rows, u32 room);

/*
 * Session @logger_id stopped (module/session.c, nt_session_stop): its
 * enables are dropped and the registrations of their GUIDs notified.
 * Called with no nttrace lock held; may sleep.
 */
void nt_provider_session_stopped(u32 logger_id);

#endif /* NTTRACE_PROVIDER_H */
