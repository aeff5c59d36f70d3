// SPDX-License-Identifier: GPL-2.0
/*
 * NTTRACE_ETW_NT_FLAGS_TRACE_RAW: a record the caller built, header and
 * all, copied into one session as it is (type 0x0900, TRACE_RAW, in
 * phnt's ntwmi.h: Windows 10 1511 and later; no public user-mode
 * caller is known). Since a torn or lying record would break every
 * consumer of the session, the record must describe itself
 * (ntr_record_check(), common/record.h): a marker and header type the
 * reader knows, its own Size field equal to FieldSize, its fixed parts
 * and items within it. It is read once, into kernel memory, checked
 * there and written from there.
 *
 * The checks, in order, and their status:
 *  1. Flags other than exactly 0x0900, FieldSize 0, or Fields NULL:
 *     NTTRACE_STATUS_INVALID_PARAMETER (Windows; so the front door reads
 *     nothing of Fields for this type).
 *  2. TraceHandle's logger ID not a running session:
 *     NTTRACE_STATUS_INVALID_HANDLE (Windows).
 *  3. A secure session: NTTRACE_STATUS_ACCESS_DENIED (Windows), from
 *     anyone.
 *  4. A system logger, from a user-mode caller without
 *     nt_privileged_system(): NTTRACE_STATUS_ACCESS_DENIED (ours: Windows
 *     asks for the right to log to the session; a raw record could forge a
 *     process event, and a system logger's consumers need CAP_PERFMON, so
 *     its writers of raw records do too). Decided again on the session the
 *     write reserves in (NT_WRITE_FORGE): the copy of step 5 may sleep, and
 *     a logger ID freed meanwhile may be a system logger's by the write.
 *  5. FieldSize over 0xFFFF (no record's Size can say it):
 *     NTTRACE_STATUS_INVALID_PARAMETER; no memory for the copy:
 *     NTTRACE_STATUS_NO_MEMORY; Fields unreadable:
 *     NTTRACE_STATUS_ACCESS_VIOLATION; the record not describing itself:
 *     NTTRACE_STATUS_INVALID_PARAMETER (ours, as the issue asks).
 *  6. The write path's: a kernel-mode caller into a paged-memory session
 *     (NTTRACE_STATUS_NOT_SUPPORTED, Windows), a record larger than the
 *     session's buffers, a full ring (counted lost).
 * The record keeps the caller's time stamp and IDs: it is the caller's.
 */
#include <kunit/visibility.h>
#include <linux/slab.h>

#include "policy.h"
#include "record.h"
#include "system.h"
#include "write.h"

u32 nt_trace_raw(const struct nttrace_type *type, const struct nttrace_call *call,
		 const struct nttrace_flags *flags, const void *fixed)
{
	struct nt_write w = {};
	u32 id = call->trace_handle & 0xFFFF, status;
	int err;
	u8 *rec;

	if (call->flags != NTTRACE_ETW_NT_FLAGS_TRACE_RAW || !call->field_size ||
	    !call->fields)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	w.call = call;
	w.rules = (call->kernel_mode ? NT_WRITE_KERNEL : NT_WRITE_USER | NT_WRITE_FORGE) |
		  NT_WRITE_NO_SECURE;
	/* NT_WRITE_SYSTEM joins the rules for a caller who may. */
	err = nt_write_check(&w, id);
	if (err)
		return nt_write_status(err);
	if (call->field_size > 0xFFFF)
		return NTTRACE_STATUS_INVALID_PARAMETER;

	rec = kmalloc(call->field_size, nt_gfp(call));
	if (!rec)
		return NTTRACE_STATUS_NO_MEMORY;
	if (nt_copy_in(call, rec, call->fields, call->field_size)) {
		status = NTTRACE_STATUS_ACCESS_VIOLATION;
	} else if (ntr_record_check(rec, call->field_size)) {
		status = NTTRACE_STATUS_INVALID_PARAMETER;
	} else {
		w.kind = NT_RECORD_RAW;
		w.total = call->field_size;
		w.staged = rec;		/* freed by nt_write_release() */
		rec = NULL;
		status = nt_write_session(&w, id);
		nt_write_release(&w);
	}
	kfree(rec);
	return status;
}
EXPORT_SYMBOL_IF_KUNIT(nt_trace_raw);
