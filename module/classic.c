// SPDX-License-Identifier: GPL-2.0
/*
 * What ETW_NT_FLAGS_TRACE_HEADER and ETW_NT_FLAGS_TRACE_INSTANCE share (seed
 * 003, ../shared/notes/record-formats.md): the header the front door
 * captured, its data (inline, or gathered from a MOF_FIELD array), and the
 * record written as Windows writes it: the header with the logger's fields
 * filled in, then the data, 8-byte aligned.
 *
 * Every user value is read once: the header by the front door, the
 * MOF_FIELD array and the GUID at GuidPtr here into kernel memory, and the
 * data bytes straight into the reserved record. That last copy runs with
 * interrupts off and page faults disabled; if it faults, the reservation is
 * discarded (nothing partial is ever committed) and the bytes are read
 * again with faults allowed into a staging buffer, which is then committed
 * (as module/message.c does). A kernel-mode caller's memory never faults
 * in, so for it a failed copy is STATUS_ACCESS_VIOLATION at once, and it
 * never allocates nor sleeps (it may call from any context but NMI).
 *
 * The order of checks, and the status each gives (the seed names the codes
 * for TRACE_INSTANCE; issue 14 applies its rules to TRACE_HEADER too):
 *  1. logger ID (the low 16 bits of TraceHandle) 0 or 0xFFFF:
 *     STATUS_INVALID_HANDLE.
 *  2. the session, before anything else is read or reserved (so that a
 *     refused event is neither written nor counted lost): not running,
 *     STATUS_INVALID_HANDLE; secure, STATUS_ACCESS_DENIED (TRACE_INSTANCE:
 *     from everyone, owner and kernel-mode callers included; TRACE_HEADER:
 *     as messages, from all but the owner and privileged callers, and
 *     kernel-mode callers are let in); a kernel-mode caller into an
 *     EVENT_TRACE_USE_PAGED_MEMORY session, STATUS_NOT_SUPPORTED (both
 *     types: Windows' kernel-mode writers never write paged buffers).
 *  3. Size (the header's; FieldSize is ignored) less than the header:
 *     STATUS_INVALID_PARAMETER, which the library reports as
 *     ERROR_INVALID_PARAMETER, the error Microsoft documents for TraceEvent
 *     and TraceEventInstance with an incorrect Size.
 *  4. WNODE_FLAG_TRACED_GUID not in Flags: STATUS_INVALID_PARAMETER. Our
 *     choice, for both types: the documented ERROR_INVALID_FLAG_NUMBER and
 *     ERROR_INVALID_FLAGS come from the user library's own checks (no
 *     NTSTATUS maps to them); the kernel still refuses a record that would
 *     claim a GUID it was not given.
 *  5. WNODE_FLAG_USE_MOF_PTR: the bytes after the header up to Size are a
 *     MOF_FIELD array. More than 0x100 bytes (MAX_MOF_FIELDS):
 *     STATUS_ARRAY_BOUNDS_EXCEEDED. Only whole MOF_FIELDs count: a
 *     trailing part of one is ignored, neither read nor written (the seed
 *     counts "whole MOF_FIELD structures"). The array unreadable:
 *     STATUS_ACCESS_VIOLATION. Header plus items past 32 bits:
 *     STATUS_BUFFER_OVERFLOW.
 *  6. WNODE_FLAG_USE_GUID_PTR: the GUID is read from GuidPtr (a 64-bit
 *     address for every caller, as the SDK's ULONGLONG GuidPtr is);
 *     unreadable: STATUS_ACCESS_VIOLATION.
 *  7. The three codes the seed lets us choose between, as module/message.c
 *     chose: a record past 16 bits (its Size is a USHORT; only MOF items
 *     can get there): STATUS_INTEGER_OVERFLOW; one that fits 16 bits but
 *     not a buffer of the session: STATUS_BUFFER_OVERFLOW; the ring full
 *     (the event is counted lost): STATUS_NO_MEMORY (ERROR_NOT_ENOUGH_MEMORY,
 *     as Microsoft documents for a session out of buffers).
 *  8. The data unreadable (inline or an item): STATUS_ACCESS_VIOLATION,
 *     nothing written.
 *
 * Other choices where the seed is silent:
 * - USE_GUID_PTR works for TRACE_INSTANCE too (EVENT_INSTANCE_GUID_HEADER
 *   has the same union); its ParentGuid, InstanceId and ParentInstanceId
 *   are copied as they come.
 * - WNODE_FLAG_USE_TIMESTAMP keeps the caller's TimeStamp; otherwise the
 *   logger stamps the event with the session's clock when it is written.
 * - The other WNODE_FLAG_* bits, ClientContext and MOF_FIELD.DataType are
 *   ignored; KernelTime and UserTime are written as 0 (no per-thread CPU
 *   time is kept), so the caller's Flags do not reach the buffer.
 * - Thread and process IDs are those of the PID namespace of the process
 *   that started the session, 0 for a caller outside it, as for messages.
 *   A kernel-mode caller in interrupt context gets the interrupted task's,
 *   as Windows records the current thread.
 * - The header type is by the caller's pointer size: 32-bit for compat
 *   callers and for ETW_NT_FLAGS_WOW64_CALL; kernel-mode callers are
 *   64-bit.
 */
#include <kunit/visibility.h>
#include <linux/kernel.h>
#include <linux/slab.h>

#include "classic.h"
#include "policy.h"
#include "session.h"

struct nt_classic {
	const struct nt_classic_kind *kind;
	const struct nttrace_call *call;
	u32 logger_id;
	unsigned int rules;	/* NT_WRITE_* */
	u32 total;		/* the record's Size */
	/*
	 * The pieces of the data, in order: the MOF items with bytes, or the
	 * inline data as one piece. The MOF_FIELD array is read straight
	 * into it, to keep the stack small: a kernel-mode caller may be in
	 * hardirq context.
	 */
	unsigned int npieces;
	struct mof_field pieces[MAX_MOF_FIELDS];
	bool keep_time_stamp;
	/* The header as written, but for the IDs and (maybe) the time stamp. */
	union {
		struct event_trace_header h;
		struct event_instance_guid_header ih;
	} out;
};

#define NT_RETRY_STAGED	((u32)-EFAULT)

/* The header and the logger's fields, once the data is in place. */
static void nt_classic_write_header(const struct nt_session *s,
				    const struct nt_classic *ev, u8 *rec)
{
	struct event_trace_header h = ev->out.h;

	nt_session_ids(s, &h.thread_id, &h.process_id);
	if (!ev->keep_time_stamp)
		h.time_stamp = nt_clock_now(s->conf.clock_type);
	memcpy(rec, &h, sizeof(h));
	/* The instance header's tail (IDs, ParentGuid) as it came. */
	memcpy(rec + sizeof(h), (const u8 *)&ev->out + sizeof(h),
	       ev->kind->header_size - sizeof(h));
}

/*
 * Reserve, fill and commit with interrupts off. @staged holds the data
 * already copied in, or is NULL to copy it from the caller without
 * faulting. Returns an NTSTATUS, or NT_RETRY_STAGED.
 */
static u32 nt_classic_emit(const struct nt_classic *ev, const u8 *staged)
{
	u32 off = ev->kind->header_size, status;
	struct nttrace_reservation res;
	unsigned int i;
	u8 *rec;

	rec = nt_reserve_checked(ev->logger_id, ev->total, &res, &status, ev->rules);
	if (!rec)
		return status;
	if (staged) {
		memcpy(rec + off, staged, ev->total - off);
	} else {
		for (i = 0; i < ev->npieces; off += ev->pieces[i].length, i++) {
			if (nt_copy_in_nofault(ev->call, rec + off, ev->pieces[i].data_ptr,
					       ev->pieces[i].length)) {
				nttrace_discard(&res);
				/* Kernel memory does not fault in: it is bad. */
				return ev->call->kernel_mode ? STATUS_ACCESS_VIOLATION :
				       NT_RETRY_STAGED;
			}
		}
	}
	nt_classic_write_header(res.session, ev, rec);
	nttrace_commit(&res);
	return STATUS_SUCCESS;
}

/* Only user-mode callers get here: their system call may sleep. */
static u32 nt_classic_emit_staged(const struct nt_classic *ev)
{
	u32 len = ev->total - ev->kind->header_size, off = 0, status;
	u8 *staged = kvmalloc(max(len, 1U), GFP_KERNEL);
	unsigned int i;

	if (!staged)
		return STATUS_NO_MEMORY;
	for (i = 0; i < ev->npieces; off += ev->pieces[i].length, i++) {
		if (nt_copy_in(ev->call, staged + off, ev->pieces[i].data_ptr,
			       ev->pieces[i].length)) {
			kvfree(staged);
			return STATUS_ACCESS_VIOLATION;
		}
	}
	status = nt_classic_emit(ev, staged);
	kvfree(staged);
	return status;
}

/*
 * The MOF_FIELD array of @bytes bytes after the header, read once; its
 * items become the pieces. Returns an NTSTATUS.
 */
static u32 nt_classic_read_mof(struct nt_classic *ev, u32 bytes)
{
	struct mof_field *mof = ev->pieces;
	unsigned int n, i;
	u64 total;

	if (bytes > sizeof(ev->pieces))
		return STATUS_ARRAY_BOUNDS_EXCEEDED;
	n = bytes / MOF_FIELD_SIZE;		/* whole MOF_FIELDs only */
	if (n && nt_copy_in(ev->call, mof, ev->call->fields + ev->kind->header_size,
			    n * MOF_FIELD_SIZE))
		return STATUS_ACCESS_VIOLATION;
	/*
	 * At most 16 lengths of 32 bits: a u64 sum cannot wrap. Items of no
	 * bytes are dropped, in place (the kept one is never ahead).
	 */
	total = ev->kind->header_size;
	for (i = 0; i < n; i++) {
		total += mof[i].length;
		if (mof[i].length)
			mof[ev->npieces++] = mof[i];
	}
	if (total > U32_MAX)
		return STATUS_BUFFER_OVERFLOW;
	if (total > U16_MAX)
		return STATUS_INTEGER_OVERFLOW;
	ev->total = total;
	return STATUS_SUCCESS;
}

/* The session's rules for this caller, checked before anything is read. */
static u32 nt_classic_check_session(struct nt_classic *ev)
{
	u32 status = nt_writer_check(ev->logger_id, ev->rules);

	/*
	 * A secure session took a user-mode caller for a stranger: check
	 * privilege (which may sleep, so not with interrupts off) and ask
	 * again. TRACE_INSTANCE is refused whatever the privilege.
	 */
	if (status == STATUS_ACCESS_DENIED && (ev->rules & NT_WRITE_USER) &&
	    !(ev->rules & (NT_WRITE_PRIVILEGED | NT_WRITE_NO_SECURE)) &&
	    nt_privileged()) {
		ev->rules |= NT_WRITE_PRIVILEGED;
		status = nt_writer_check(ev->logger_id, ev->rules);
	}
	return status;
}

u32 nt_classic_event(const struct nt_classic_kind *kind,
		     const struct nttrace_call *call,
		     const struct nttrace_flags *flags, const void *fixed)
{
	const struct event_trace_header *in = fixed;
	bool ptr32 = !call->kernel_mode && (call->compat || flags->wow64);
	struct nt_classic ev = {
		.kind = kind,
		.call = call,
		.logger_id = call->trace_handle & 0xFFFF,
	};
	struct event_trace_header *h = &ev.out.h;
	u32 wflags = in->flags, size = in->size, status;

	if (!ev.logger_id || ev.logger_id == 0xFFFF)
		return STATUS_INVALID_HANDLE;
	ev.rules = call->kernel_mode ? NT_WRITE_KERNEL : NT_WRITE_USER;
	if (kind->secure_refused)
		ev.rules |= NT_WRITE_NO_SECURE;
	status = nt_classic_check_session(&ev);
	if (status != STATUS_SUCCESS)
		return status;

	if (size < kind->header_size)
		return STATUS_INVALID_PARAMETER;
	if (!(wflags & WNODE_FLAG_TRACED_GUID))
		return STATUS_INVALID_PARAMETER;

	if (wflags & WNODE_FLAG_USE_MOF_PTR) {
		status = nt_classic_read_mof(&ev, size - kind->header_size);
		if (status != STATUS_SUCCESS)
			return status;
	} else {
		/* Size is 16 bits: the record is as large and no larger. */
		ev.total = size;
		if (size > kind->header_size) {
			ev.pieces[0].data_ptr = call->fields + kind->header_size;
			ev.pieces[0].length = size - kind->header_size;
			ev.npieces = 1;
		}
	}

	memcpy(&ev.out, fixed, kind->header_size);
	if (wflags & WNODE_FLAG_USE_GUID_PTR) {
		if (nt_copy_in(call, h->guid, in->guid_ptr, sizeof(h->guid)))
			return STATUS_ACCESS_VIOLATION;
	}
	h->size = ev.total;
	h->header_type = ptr32 ? kind->type32 : kind->type64;
	h->marker_flags = TRACE_HEADER_MARKER_BYTE;
	h->thread_id = 0;
	h->process_id = 0;
	h->kernel_time = 0;
	h->user_time = 0;
	ev.keep_time_stamp = wflags & WNODE_FLAG_USE_TIMESTAMP;

	status = nt_classic_emit(&ev, NULL);
	/*
	 * The session changed since it was checked (stopped, its ID taken
	 * by a secure one): a privileged caller may still write to it.
	 */
	if (status == STATUS_ACCESS_DENIED && nt_classic_check_session(&ev) ==
	    STATUS_SUCCESS)
		status = nt_classic_emit(&ev, NULL);
	if (status == NT_RETRY_STAGED)
		status = nt_classic_emit_staged(&ev);
	return status;
}
EXPORT_SYMBOL_IF_KUNIT(nt_classic_event);
