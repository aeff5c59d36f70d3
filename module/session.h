/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Logger sessions: the table of running loggers, their properties, rings
 * and life cycle (StartTrace / ControlTrace semantics).
 */
#ifndef NTTRACE_SESSION_H
#define NTTRACE_SESSION_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "ring.h"

struct nt_session {
	struct kref ref;
	u32 id;
	char name[NTTRACE_NAME_MAX];
	u32 log_file_mode;
	u32 min_buffers;
	u32 flush_timer;	/* seconds; under nt_loggers_lock */
	kuid_t owner_uid;
	pid_t owner_pid;
	struct pid_namespace *pid_ns;	/* the IDs events carry are from here */

	struct nt_ring_conf conf;
	struct nt_ring *rings;		/* one per possible CPU */
	unsigned int nr_rings;
	atomic_t event_seq;		/* TRACE_MESSAGE_SEQUENCE numbers */

	/* The three mapped regions (see struct nttrace_attach). */
	struct nttrace_session_head *heads;
	size_t heads_size;
	struct nttrace_ring_ack *acks;
	size_t acks_size;
	u8 *data;
	size_t data_size;

	struct irq_work wake_work;	/* a buffer was published */
	wait_queue_head_t wq;		/* consumers poll here */
	struct delayed_work flush_work;	/* the flush timer */
	struct mutex flush_lock;	/* one flush at a time; guards stopped */
	bool stopped;
	bool consumer_attached;		/* under nt_loggers_lock */
};

#define NT_HEAD_STRIDE	sizeof(struct nttrace_ring_head)
#define NT_ACK_STRIDE	sizeof(struct nttrace_ring_ack)

int nt_session_start(struct nttrace_logger_info *info);
int nt_session_control(struct nttrace_logger_info *info);
int nt_session_list(u32 *ids, u32 room, u32 *count);
void nt_sessions_stop_all(void);

/* A reference to a session the caller may control, or an ERR_PTR. */
struct nt_session *nt_session_get_controlled(u32 id);
void nt_session_put(struct nt_session *s);

/* Consumer attachment, one at a time: 0 or -EBUSY. */
int nt_session_attach(struct nt_session *s);
void nt_session_detach(struct nt_session *s);

/*
 * The running session with logger ID @id, or NULL. Call with interrupts
 * off: the session lives at least until they are enabled again.
 */
struct nt_session *nt_session_lookup_irqsoff(u32 id);

void nt_session_flush(struct nt_session *s);
bool nt_session_has_unread(struct nt_session *s);

#endif /* NTTRACE_SESSION_H */
