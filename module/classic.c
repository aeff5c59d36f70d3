// SPDX-License-Identifier: GPL-2.0
/*
 * What NTTRACE_ETW_NT_FLAGS_TRACE_HEADER and NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE
 * share (the record formats are in common/record.h): the header the front door
 * captured, its data (inline, or gathered from a MOF_FIELD array), and the
 * record written as Windows writes it: the header with the logger's fields
 * filled in, then the data, 8-byte aligned.
 *
 * Every user value is read once: the header by the front door, the
 * MOF_FIELD array and the GUID at GuidPtr here into kernel memory, and the
 * data bytes by the write path (module/write.c) straight into the reserved
 * record. A kernel-mode caller's memory never faults in, so for it a failed
 * copy is NTTRACE_STATUS_ACCESS_VIOLATION at once, and it never allocates nor
 * sleeps (it may call from any context but NMI).
 *
 * The order of checks, and the status each gives (Windows names the codes
 * for TRACE_INSTANCE; TRACE_HEADER follows the same rules):
 *  1. logger ID (the low 16 bits of TraceHandle) 0 or 0xFFFF:
 *     NTTRACE_STATUS_INVALID_HANDLE.
 *  2. the session, before anything else is read or reserved (so that a
 *     refused event is neither written nor counted lost): not running,
 *     NTTRACE_STATUS_INVALID_HANDLE; secure, NTTRACE_STATUS_ACCESS_DENIED (TRACE_INSTANCE:
 *     from everyone, owner and kernel-mode callers included; TRACE_HEADER:
 *     as messages, from all but the owner and privileged callers, and
 *     kernel-mode callers are let in); a kernel-mode caller into an
 *     NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY session, NTTRACE_STATUS_NOT_SUPPORTED (both
 *     types: Windows' kernel-mode writers never write paged buffers).
 *  3. Size (the header's; FieldSize is ignored) less than the header:
 *     NTTRACE_STATUS_INVALID_PARAMETER, which the library reports as
 *     ERROR_INVALID_PARAMETER, the error Microsoft documents for TraceEvent
 *     and TraceEventInstance with an incorrect Size.
 *  4. NTTRACE_WNODE_FLAG_TRACED_GUID not in Flags: NTTRACE_STATUS_INVALID_PARAMETER. Our
 *     choice, for both types: the documented ERROR_INVALID_FLAG_NUMBER and
 *     ERROR_INVALID_FLAGS come from the user library's own checks (no
 *     NTSTATUS maps to them); the kernel still refuses a record that would
 *     claim a GUID it was not given.
 *  5. NTTRACE_WNODE_FLAG_USE_MOF_PTR: the bytes after the header up to Size are a
 *     MOF_FIELD array. More than 0x100 bytes (NTTRACE_MAX_MOF_FIELDS):
 *     NTTRACE_STATUS_ARRAY_BOUNDS_EXCEEDED. Only whole MOF_FIELDs count: a
 *     trailing part of one is ignored, neither read nor written (Windows
 *     counts "whole MOF_FIELD structures"). The array unreadable:
 *     NTTRACE_STATUS_ACCESS_VIOLATION. Header plus items past 32 bits:
 *     NTTRACE_STATUS_BUFFER_OVERFLOW.
 *  6. NTTRACE_WNODE_FLAG_USE_GUID_PTR: the GUID is read from GuidPtr (a 64-bit
 *     address for every caller, as the SDK's ULONGLONG GuidPtr is);
 *     unreadable: NTTRACE_STATUS_ACCESS_VIOLATION.
 *  7. The three codes Windows leaves us to choose between, as module/message.c
 *     chose: a record past 16 bits (its Size is a USHORT; only MOF items
 *     can get there): NTTRACE_STATUS_INTEGER_OVERFLOW; one that fits 16 bits but
 *     not a buffer of the session: NTTRACE_STATUS_BUFFER_OVERFLOW; the ring full
 *     (the event is counted lost): NTTRACE_STATUS_NO_MEMORY (ERROR_NOT_ENOUGH_MEMORY,
 *     as Microsoft documents for a session out of buffers).
 *  8. The data unreadable (inline or an item): NTTRACE_STATUS_ACCESS_VIOLATION,
 *     nothing written.
 *
 * Other choices where Windows' documented interface is silent:
 * - USE_GUID_PTR works for TRACE_INSTANCE too (EVENT_INSTANCE_GUID_HEADER
 *   has the same union); its ParentGuid, InstanceId and ParentInstanceId
 *   are copied as they come.
 * - NTTRACE_WNODE_FLAG_USE_TIMESTAMP keeps the caller's TimeStamp; otherwise the
 *   logger stamps the event with the session's clock when it is written.
 * - The other WNODE_FLAG_* bits, ClientContext and MOF_FIELD.DataType are
 *   ignored; KernelTime and UserTime are written as 0 (no per-thread CPU
 *   time is kept), so the caller's Flags do not reach the buffer.
 * - Thread and process IDs are those of the PID namespace of the process
 *   that started the session, 0 for a caller outside it, as for messages.
 *   A kernel-mode caller in interrupt context gets the interrupted task's,
 *   as Windows records the current thread.
 * - The header type is by the caller's pointer size: 32-bit for compat
 *   callers and for NTTRACE_ETW_NT_FLAGS_WOW64_CALL; kernel-mode callers are
 *   64-bit.
 */
#include <kunit/visibility.h>
#include <linux/kernel.h>

#include "classic.h"
#include "write.h"

struct nt_classic {
	const struct nt_classic_kind *kind;
	const struct nttrace_call *call;
	u32 logger_id;
	struct nt_write w;
	/*
	 * The pieces of the data, in order: the MOF items with bytes, or the
	 * inline data as one piece. The MOF_FIELD array is read straight
	 * into it (the layouts are the same, see module/write.c), to keep the
	 * stack small: a kernel-mode caller may be in hardirq context.
	 */
	struct nttrace_event_data_descriptor pieces[NTTRACE_MAX_MOF_FIELDS];
	/* The header as the caller gave it, its GUID read from GuidPtr. */
	union {
		struct nttrace_event_trace_header h;
		struct nttrace_event_instance_guid_header ih;
	} out;
};

/*
 * The MOF_FIELD array of @bytes bytes after the header, read once; its
 * items become the pieces. Returns an NTSTATUS.
 */
static u32 nt_classic_read_mof(struct nt_classic *ev, u32 bytes)
{
	struct nttrace_event_data_descriptor *mof = ev->pieces;
	unsigned int n, i, kept = 0;
	u64 total;

	if (bytes > sizeof(ev->pieces))
		return NTTRACE_STATUS_ARRAY_BOUNDS_EXCEEDED;
	n = bytes / NTTRACE_MOF_FIELD_SIZE;		/* whole MOF_FIELDs only */
	if (n && nt_copy_in(ev->call, mof, ev->call->fields + ev->kind->header_size,
			    n * NTTRACE_MOF_FIELD_SIZE))
		return NTTRACE_STATUS_ACCESS_VIOLATION;
	/*
	 * At most 16 lengths of 32 bits: a u64 sum cannot wrap. Items of no
	 * bytes are dropped, in place (the kept one is never ahead).
	 */
	total = ev->kind->header_size;
	for (i = 0; i < n; i++) {
		total += mof[i].size;
		if (mof[i].size)
			mof[kept++] = mof[i];
	}
	if (total > U32_MAX)
		return NTTRACE_STATUS_BUFFER_OVERFLOW;
	if (total > U16_MAX)
		return NTTRACE_STATUS_INTEGER_OVERFLOW;
	ev->w.total = total;
	ev->w.npieces = kept;
	return NTTRACE_STATUS_SUCCESS;
}

u32 nt_classic_event(const struct nt_classic_kind *kind,
		     const struct nttrace_call *call,
		     const struct nttrace_flags *flags, const void *fixed)
{
	const struct nttrace_event_trace_header *in = fixed;
	bool ptr32 = !call->kernel_mode && (call->compat || flags->wow64);
	struct nt_classic ev = {
		.kind = kind,
		.call = call,
		.logger_id = call->trace_handle & 0xFFFF,
	};
	struct nt_write *w = &ev.w;
	u32 wflags = in->flags, size = in->size, status;
	int err;

	if (!ev.logger_id || ev.logger_id == 0xFFFF)
		return NTTRACE_STATUS_INVALID_HANDLE;
	w->call = call;
	w->rules = call->kernel_mode ? NT_WRITE_KERNEL : NT_WRITE_USER;
	if (kind->secure_refused)
		w->rules |= NT_WRITE_NO_SECURE;
	/* The session's rules for this caller, before anything is read. */
	err = nt_write_check(w, ev.logger_id);
	if (err)
		return nt_write_status(err);

	if (size < kind->header_size)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	if (!(wflags & NTTRACE_WNODE_FLAG_TRACED_GUID))
		return NTTRACE_STATUS_INVALID_PARAMETER;

	w->pieces = ev.pieces;
	if (wflags & NTTRACE_WNODE_FLAG_USE_MOF_PTR) {
		status = nt_classic_read_mof(&ev, size - kind->header_size);
		if (status != NTTRACE_STATUS_SUCCESS)
			return status;
	} else {
		/* Size is 16 bits: the record is as large and no larger. */
		w->total = size;
		if (size > kind->header_size) {
			ev.pieces[0].ptr = call->fields + kind->header_size;
			ev.pieces[0].size = size - kind->header_size;
			w->npieces = 1;
		}
	}

	memcpy(&ev.out, fixed, kind->header_size);
	if (wflags & NTTRACE_WNODE_FLAG_USE_GUID_PTR) {
		if (nt_copy_in(call, ev.out.h.guid, in->guid_ptr, sizeof(ev.out.h.guid)))
			return NTTRACE_STATUS_ACCESS_VIOLATION;
	}
	w->kind = NT_RECORD_CLASSIC;
	w->data_off = kind->header_size;
	w->classic.header = &ev.out;
	w->classic.header_size = kind->header_size;
	w->classic.header_type = ntr_classic_header_type(
		kind->header_size == NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE, ptr32);
	w->classic.keep_time_stamp = wflags & NTTRACE_WNODE_FLAG_USE_TIMESTAMP;

	status = nt_write_session(w, ev.logger_id);
	nt_write_release(w);
	return status;
}
EXPORT_SYMBOL_IF_KUNIT(nt_classic_event);
