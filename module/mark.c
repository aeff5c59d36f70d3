// SPDX-License-Identifier: GPL-2.0
/*
 * NTTRACE_ETW_NT_FLAGS_TRACE_MARK: EtwSetMark's mark, a string a program
 * puts into a system logger's trace (type 0x0600, TRACE_MARK, and
 * ETW_SET_MARK_INFORMATION in phnt's ntwmi.h).
 * Fields is { ULONG Flag; WCHAR Mark[]; } of FieldSize bytes; the record
 * is a SYSTEM_TRACE_HEADER of version 0 and HookId 0x0F22 (PerfInfo, type
 * 0x22: consumers see PerfInfo opcode 34), then the mark's bytes and two
 * zero bytes, so that a mark without its NUL still ends in one.
 *
 * The checks, in order, and their status (Windows'):
 *  1. FieldSize 4 or less: NTTRACE_STATUS_INVALID_PARAMETER; over 0xFFDD:
 *     NTTRACE_STATUS_INTEGER_OVERFLOW.
 *  2. TraceHandle's logger ID (0 and 0xFFFF: the NT Kernel Logger, the
 *     default system logger, as the note infers) over
 *     NTTRACE_MAX_LOGGERS, or no such running session:
 *     NTTRACE_STATUS_INVALID_HANDLE; a session that is no system logger:
 *     NTTRACE_STATUS_INVALID_PARAMETER.
 *  3. The write path's (module/write.h).
 *
 * Choices where Windows is silent: any caller may set a mark (it names
 * nothing but itself); the header is SYSTEM64 whatever the caller, as the
 * kernel writes it; ETW_SET_MARK_WITH_FLUSH flushes the session after the
 * mark only for a caller who may flush it (nt_privileged_system(), as
 * ControlTrace's FLUSH of a system logger), since a flush per mark from
 * anyone would let a stranger cut the session's buffers short; others'
 * marks are written and not flushed. The mark's bytes are not checked for
 * UTF-16.
 */
#include <kunit/visibility.h>

#include "policy.h"
#include "system.h"
#include "write.h"

#define NT_MARK_HOOK_ID		0x0F22	/* PerfInfo (0x0F), type 0x22 */
#define NT_MARK_MAX_FIELDS	0xFFDD
#define NT_MARK_WITH_FLUSH	0x1	/* ETW_SET_MARK_WITH_FLUSH */

u32 nt_trace_mark(const struct nttrace_type *type, const struct nttrace_call *call,
		  const struct nttrace_flags *flags, const void *fixed)
{
	struct nttrace_event_data_descriptor piece;
	struct nt_write w = {};
	u32 id, status, flag;

	if (call->field_size <= NT_MARK_FIXED_SIZE)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	if (call->field_size > NT_MARK_MAX_FIELDS)
		return NTTRACE_STATUS_INTEGER_OVERFLOW;
	id = nt_system_logger_id(call->trace_handle);
	if (!id)
		return NTTRACE_STATUS_INVALID_HANDLE;
	status = nt_system_target(id);
	if (status)
		return status;
	memcpy(&flag, fixed, sizeof(flag));

	piece.ptr = call->fields + NT_MARK_FIXED_SIZE;
	piece.size = call->field_size - NT_MARK_FIXED_SIZE;
	piece.reserved = 0;
	w.call = call;
	w.rules = call->kernel_mode ? NT_WRITE_KERNEL : NT_WRITE_USER;
	w.kind = NT_RECORD_SYSTEM;
	w.data_off = NT_SYSTEM_HEADER_SIZE;
	w.system.tail = 2;
	w.total = NT_SYSTEM_HEADER_SIZE + piece.size + w.system.tail;
	w.pieces = &piece;
	w.npieces = 1;
	w.system.hook_id = NT_MARK_HOOK_ID;
	status = nt_write_session(&w, id);
	nt_write_release(&w);
	if (!status && (flag & NT_MARK_WITH_FLUSH) && !call->kernel_mode &&
	    nt_privileged_system())
		nt_session_flush_id(id);
	return status;
}
EXPORT_SYMBOL_IF_KUNIT(nt_trace_mark);
