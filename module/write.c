// SPDX-License-Identifier: GPL-2.0
/*
 * The one write path of every NtTraceEvent type (see module/write.h).
 *
 * As the bpf ring buffer is used: interrupts off to reserve, on while the
 * data is copied and the header filled (preemption off throughout: the
 * record is in this CPU's ring), off to commit. So the longest
 * interrupts-off window an event causes no longer grows with its size (up
 * to 64 KB of a caller's data). The copy runs with page faults disabled: a
 * user page that is not resident gives -EFAULT, the reservation is
 * discarded, and the caller copies the data once more with faults allowed
 * (nt_write_stage()) before writing from that copy. A kernel-mode caller's
 * memory does not fault in, so for it -EFAULT means bad memory, and it
 * never stages (it may be in any context but NMI).
 */
#include <kunit/visibility.h>
#include <linux/build_bug.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <nttrace/wdm.h>

#include "policy.h"
#include "session.h"
#include "sysrec.h"
#include "trace.h"
#include "write.h"

/* A classic event's MOF_FIELDs are written as data descriptors. */
static_assert(sizeof(struct nttrace_mof_field) == sizeof(struct nttrace_event_data_descriptor));
static_assert(offsetof(struct nttrace_mof_field, data_ptr) ==
	      offsetof(struct nttrace_event_data_descriptor, ptr));
static_assert(offsetof(struct nttrace_mof_field, length) ==
	      offsetof(struct nttrace_event_data_descriptor, size));

/*
 * Where piece @i goes, from @w->data_off: after the one before it, or
 * (@w->placed) where the handler put it.
 */
static u32 nt_piece_off(const struct nt_write *w, unsigned int i, u32 next)
{
	return w->placed ? w->pieces[i].reserved : next;
}

/* The data into the record, from the staging buffer or the caller. */
static int nt_write_data(const struct nt_write *w, u8 *rec)
{
	u32 off = 0;
	unsigned int i;

	if (w->staged) {
		memcpy(rec + w->data_off, w->staged, w->total - w->data_off);
		return 0;
	}
	for (i = 0; i < w->npieces; i++) {
		off = nt_piece_off(w, i, off);
		if (nt_copy_in_nofault(w->call, rec + w->data_off + off, w->pieces[i].ptr,
				       w->pieces[i].size))
			return -EFAULT;
		off += w->pieces[i].size;
	}
	return 0;
}

/*
 * A SYSTEM_TRACE_HEADER: the caller's IDs and its kernel and user times in
 * ticks of the log file header's TimerResolution (the kernel's tick: see
 * userlib/etl/etl.c), as Windows counts a thread's times in clock ticks.
 */
static void nt_write_system_header(const struct nt_write *w, const struct nt_session *s,
				   u8 *rec, u64 now)
{
	const struct nt_write_system *sys = &w->system;
	struct ntr_sr_header h = {
		.hook_id = sys->hook_id,
		.version = sys->version,
		.kind = NTR_SR_FULL,
		.ptr32 = sys->ptr32,
		.time_stamp = now,
		.kernel_time = (u32)nsecs_to_jiffies64(READ_ONCE(current->stime)),
		.user_time = (u32)nsecs_to_jiffies64(READ_ONCE(current->utime)),
	};

	nt_session_ids(s, &h.thread_id, &h.process_id);
	ntr_sr_header_write(rec, w->total, &h);
	memset(rec + w->total - sys->tail, 0, sys->tail);
}

/*
 * The header, with the values of this session and moment: the time stamp
 * taken at the reservation (records of one CPU lie in time order).
 */
static void nt_write_header(struct nt_write *w, const struct nt_session *s, u8 *rec,
			    u64 now)
{
	u32 tid, pid;

	switch (w->kind) {
	case NT_RECORD_MESSAGE: {
		struct ntr_message *m = &w->message;
		u16 f = m->option_flags;

		/*
		 * Taken once the data is in, with nothing left that can
		 * fail: a gap in the numbers is a lost event.
		 */
		if (f & NTTRACE_TRACE_MESSAGE_SEQUENCE)
			m->sequence = atomic_inc_return(s->event_seq);
		if (f & NTTRACE_TRACE_MESSAGE_TIMESTAMP)
			m->time_stamp = now;
		if (f & NTTRACE_TRACE_MESSAGE_SYSTEMINFO)
			nt_session_ids(s, &m->thread_id, &m->process_id);
		ntr_message_encode(rec, w->total, m);
		break;
	}
	case NT_RECORD_CLASSIC: {
		const struct nt_write_classic *c = &w->classic;

		nt_session_ids(s, &tid, &pid);
		ntr_classic_encode(rec, c->header, c->header_size, w->total,
				   c->header_type, c->keep_time_stamp,
				   now, tid, pid);
		break;
	}
	case NT_RECORD_EVENT: {
		struct ntr_event *e = &w->event.header;

		e->size = w->total;
		e->time_stamp = now;
		nt_session_ids(s, &e->thread_id, &e->process_id);
		ntr_event_encode(rec, e);
		break;
	}
	case NT_RECORD_SYSTEM:
		nt_write_system_header(w, s, rec, now);
		break;
	case NT_RECORD_RAW:
		/* The caller's own header, checked (module/raw.c). */
		break;
	}
}

/*
 * The nttrace_write tracepoint (module/trace.h), for the record at @rec
 * before its commit into @s: what the handler described of it, and its
 * data as written, but for a secure session's records and the security
 * provider's events, whose data the tracepoint withholds: their readers
 * are chosen (the session's owner, readers of security events), and a
 * tracepoint's are not. Only while the tracepoint is enabled.
 */
static void nt_write_trace(const struct nt_write *w, const struct nt_session *s,
			   u32 logger_id, const u8 *rec)
{
	struct nt_tp_write e = {
		.kind = w->kind,
		.logger_id = logger_id,
		.pid = task_tgid_nr(current),
		.tid = task_pid_nr(current),
		.size = w->total - w->data_off,
		.payload = rec + w->data_off,
		.withheld = s->secure,
	};

	switch (w->kind) {
	case NT_RECORD_MESSAGE:
		e.id = w->message.number;
		e.guid = w->message.option_flags & NTTRACE_TRACE_MESSAGE_GUID ?
			 w->message.guid : NULL;
		break;
	case NT_RECORD_CLASSIC: {
		/* The Guid of a TRACE_HEADER and an instance's GUID header alike. */
		const struct nttrace_event_trace_header *h = w->classic.header;

		e.guid = h->guid;
		e.level = h->class_level;
		e.opcode = h->class_type;
		break;
	}
	case NT_RECORD_EVENT: {
		const struct nttrace_event_descriptor *d = w->event.header.descriptor;

		e.guid = w->event.header.provider_id;
		e.withheld |= !memcmp(e.guid, nt_security_guid, sizeof(nt_security_guid));
		e.id = d->id;
		e.level = d->level;
		e.opcode = d->opcode;
		e.keyword = d->keyword;
		break;
	}
	case NT_RECORD_SYSTEM:
		e.id = w->system.hook_id;
		e.opcode = w->system.hook_id & 0xFF;
		break;
	case NT_RECORD_RAW:
		break;
	}
	trace_nttrace_write(&e);
}

void nt_write_trace_kernel(const struct nt_session *s, const u8 *rec, u32 len)
{
	struct nt_tp_write e = {
		.kind = NT_RECORD_SYSTEM,
		.logger_id = s->conf.logger_id,
		.pid = task_tgid_nr(current),
		.tid = task_pid_nr(current),
		.size = len,
		.payload = rec,
		.withheld = s->secure,
	};
	__le16 hook_id;

	/* Every kernel header kind has its HookId at bytes 6 and 7. */
	memcpy(&hook_id, rec + 6, sizeof(hook_id));
	e.id = le16_to_cpu(hook_id);
	e.opcode = e.id & 0xFF;
	trace_nttrace_write(&e);
}

u8 *nt_write_reserve(struct nt_write *w, u32 logger_id, struct nttrace_reservation *res)
{
	return nt_reserve_rules(logger_id, w->total, res, w->rules);
}

int nt_write_commit(struct nt_write *w, u32 logger_id, struct nttrace_reservation *res, u8 *rec)
{
	int err;

	err = nt_write_data(w, rec);
	if (err) {
		nttrace_discard(res);
		return err;
	}
	nt_write_header(w, res->session, rec, res->time_stamp);
	if (trace_nttrace_write_enabled())
		nt_write_trace(w, res->session, logger_id, rec);
	nttrace_commit(res);
	return 0;
}

int nt_write_one(struct nt_write *w, u32 logger_id)
{
	struct nttrace_reservation res;
	u8 *rec;

	rec = nt_write_reserve(w, logger_id, &res);
	if (IS_ERR(rec))
		return PTR_ERR(rec);
	return nt_write_commit(w, logger_id, &res, rec);
}
EXPORT_SYMBOL_IF_KUNIT(nt_write_one);

int nt_write_stage(struct nt_write *w)
{
	u32 len = w->total - w->data_off, off = 0;
	unsigned int i;
	u8 *buf;

	if (WARN_ON_ONCE(w->call->kernel_mode))
		return -EFAULT;
	/* Zeroed: placed pieces leave gaps (item headers, padding). */
	buf = kvzalloc(max(len, 1U), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < w->npieces; i++) {
		off = nt_piece_off(w, i, off);
		if (nt_copy_in(w->call, buf + off, w->pieces[i].ptr, w->pieces[i].size)) {
			kvfree(buf);
			return -EFAULT;
		}
		off += w->pieces[i].size;
	}
	w->staged = buf;
	return 0;
}

void nt_write_release(struct nt_write *w)
{
	kvfree(w->staged);
	w->staged = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(nt_write_release);

bool nt_write_privilege(struct nt_write *w)
{
	if (!(w->rules & NT_WRITE_USER) ||
	    (w->rules & (NT_WRITE_PRIVILEGED | NT_WRITE_NO_SECURE)))
		return false;
	/* May sleep (audit): never with interrupts off. */
	if (!nt_privileged())
		return false;
	w->rules |= NT_WRITE_PRIVILEGED;
	return true;
}

bool nt_write_system_privilege(struct nt_write *w)
{
	if ((w->rules & (NT_WRITE_FORGE | NT_WRITE_SYSTEM)) != NT_WRITE_FORGE)
		return false;
	/* May sleep (audit): never with interrupts off. */
	if (!nt_privileged_system())
		return false;
	w->rules |= NT_WRITE_SYSTEM;
	return true;
}

int nt_write_check(struct nt_write *w, u32 logger_id)
{
	int err = nt_writer_check(logger_id, w->rules);

	if (err == -EACCES && nt_write_privilege(w))
		err = nt_writer_check(logger_id, w->rules);
	if (err == -EPERM && nt_write_system_privilege(w))
		err = nt_writer_check(logger_id, w->rules);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(nt_write_check);

int nt_write_session_err(struct nt_write *w, u32 logger_id)
{
	int err = nt_write_one(w, logger_id);

	if (err == -EACCES && nt_write_privilege(w))
		err = nt_write_one(w, logger_id);
	if (err == -EPERM && nt_write_system_privilege(w))
		err = nt_write_one(w, logger_id);
	if (err == -EFAULT && !w->call->kernel_mode && !w->staged) {
		err = nt_write_stage(w);
		if (!err)
			err = nt_write_one(w, logger_id);
	}
	return err;
}

u32 nt_write_session(struct nt_write *w, u32 logger_id)
{
	return nt_write_status(nt_write_session_err(w, logger_id));
}
EXPORT_SYMBOL_IF_KUNIT(nt_write_session);

/*
 * The codes Windows names or leaves to us (module/message.c,
 * module/classic.c and module/eventwrite.c say which and why): a record
 * that fits 16 bits but no buffer is NTTRACE_STATUS_BUFFER_OVERFLOW; a full ring
 * is NTTRACE_STATUS_NO_MEMORY, which the library turns into
 * ERROR_NOT_ENOUGH_MEMORY as ETW does for a session out of buffers.
 */
u32 nt_write_status(int err)
{
	switch (err) {
	case 0:
		return NTTRACE_STATUS_SUCCESS;
	case -EBADF:
		return NTTRACE_STATUS_INVALID_HANDLE;
	case -EACCES:
	case -EPERM:
		return NTTRACE_STATUS_ACCESS_DENIED;
	case -EINVAL:
		return NTTRACE_STATUS_INVALID_PARAMETER;
	case -EOPNOTSUPP:
		return NTTRACE_STATUS_NOT_SUPPORTED;
	case -EMSGSIZE:
		return NTTRACE_STATUS_BUFFER_OVERFLOW;
	case -ENOSPC:
	case -ENOMEM:
		return NTTRACE_STATUS_NO_MEMORY;
	case -EFAULT:
		return NTTRACE_STATUS_ACCESS_VIOLATION;
	default:
		/* No other error leaves the path: a bug, said once. */
		WARN_ONCE(1, "nttrace: write path error %d", err);
		return NTTRACE_STATUS_INVALID_PARAMETER;
	}
}
EXPORT_SYMBOL_IF_KUNIT(nt_write_status);

void *nttrace_reserve(u32 logger_id, u32 len, struct nttrace_reservation *res,
		      u32 *status)
{
	void *rec = nt_reserve_rules(logger_id, len, res, NT_WRITE_KERNEL);

	if (IS_ERR(rec)) {
		*status = nt_write_status(PTR_ERR(rec));
		return NULL;
	}
	return rec;
}
EXPORT_SYMBOL_NS_GPL(nttrace_reserve, NTTRACE_NS);
