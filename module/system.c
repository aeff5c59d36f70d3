// SPDX-License-Identifier: GPL-2.0
/*
 * NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM: a system event from user mode into a
 * system logger (on Windows, NTDLL's heap, critical-section and
 * thread-pool events). Fields is a SYSTEM_TRACE_HEADER (0x20 bytes) of
 * which only HookId (+6) is read, then FieldSize bytes of payload; the
 * record is a whole SYSTEM_TRACE_HEADER and the payload
 * (type 0x0400, TRACE_SYSTEM, in phnt's ntwmi.h and Geoff Chappell's
 * studies).
 *
 * The checks, in order, and their status:
 *  1. A kernel-mode caller: NTTRACE_STATUS_NOT_SUPPORTED (Windows).
 *  2. TraceHandle's logger ID 64 or more (0 and 0xFFFF name the NT Kernel
 *     Logger): NTTRACE_STATUS_INVALID_PARAMETER (Windows; a system logger
 *     never takes ID 64, module/session.c).
 *  3. FieldSize over 0xFFDF (the record's 16-bit Size):
 *     NTTRACE_STATUS_INTEGER_OVERFLOW (Windows).
 *  4. No such running session: NTTRACE_STATUS_INVALID_HANDLE; one that is
 *     no system logger: NTTRACE_STATUS_INVALID_PARAMETER (ours: Windows is
 *     silent; these follow TRACE_MARK's rules).
 *  5. A secure session's rules (module/write.h): a stranger without
 *     nt_privileged(): NTTRACE_STATUS_ACCESS_DENIED.
 *  6. A HookId of a group the kernel writes itself (anything but Heap
 *     0x10, CritSec 0x17 and ThreadPool 0x1C, the user-mode groups), from
 *     a caller who is not nt_privileged_system():
 *     NTTRACE_STATUS_ACCESS_DENIED (ours: a system logger's consumers trust
 *     its process and disk events to be the kernel's, so forging one asks
 *     what starting or consuming the logger asks; the control group is not
 *     enough). The user-mode groups stay open to every caller, as NTDLL
 *     writes them from any process on Windows: their records carry the
 *     writer's own IDs, which the kernel stamps.
 *  7. The write path's: a record larger than the session's buffers
 *     (NTTRACE_STATUS_BUFFER_OVERFLOW), an unreadable payload
 *     (NTTRACE_STATUS_ACCESS_VIOLATION). A full ring counts the event lost
 *     and the call succeeds, as Windows' does.
 * Checks 4 to 6 are made on the session found, then again on the session
 * the write reserves in (NT_WRITE_SYSTEM_ONLY, NT_WRITE_FORGE): a logger ID
 * given to another session between the two is judged as that session.
 *
 * The marker: the version byte of Flags; HeaderType SYSTEM32 (0xC0010000 |
 * version) for a 32-bit caller (compat, or ETW_NT_FLAGS_WOW64_CALL)
 * unless ETW_NT_FLAGS_USE_NATIVE_HEADER, else SYSTEM64. The frames to skip
 * mean nothing here: no stack is recorded. Thread and process IDs are the
 * caller's (a system logger runs in the initial PID namespace).
 */
#include <kunit/visibility.h>

#include "policy.h"
#include "system.h"
#include "write.h"

#define NT_SYSTEM_MAX_PAYLOAD	(0xFFFF - NT_SYSTEM_HEADER_SIZE)

/* The groups NTDLL writes on Windows: any process may. */
static bool nt_user_group(u16 hook_id)
{
	switch (hook_id >> 8) {
	case 0x10:	/* Heap */
	case 0x17:	/* CritSec */
	case 0x1C:	/* ThreadPool */
		return true;
	}
	return false;
}

u32 nt_system_target(u32 id)
{
	int sys = nt_session_is_system(id);

	if (sys < 0)
		return NTTRACE_STATUS_INVALID_HANDLE;
	return sys ? NTTRACE_STATUS_SUCCESS : NTTRACE_STATUS_INVALID_PARAMETER;
}
EXPORT_SYMBOL_IF_KUNIT(nt_system_target);

u32 nt_trace_system(const struct nttrace_type *type, const struct nttrace_call *call,
		    const struct nttrace_flags *flags, const void *fixed)
{
	const u8 *header = fixed;
	struct nttrace_event_data_descriptor piece;
	struct nt_write w = {};
	u32 id;
	u16 hook_id;
	int err;

	if (call->kernel_mode)
		return NTTRACE_STATUS_NOT_SUPPORTED;
	id = nt_system_logger_id(call->trace_handle);
	if (!id || (id != NTTRACE_KERNEL_LOGGER_ID && id >= NT_SYSTEM_LOGGER_IDS))
		return NTTRACE_STATUS_INVALID_PARAMETER;
	if (call->field_size > NT_SYSTEM_MAX_PAYLOAD)
		return NTTRACE_STATUS_INTEGER_OVERFLOW;
	memcpy(&hook_id, header + 6, sizeof(hook_id));

	w.call = call;
	w.rules = NT_WRITE_USER | NT_WRITE_SYSTEM_ONLY;
	if (!nt_user_group(hook_id))
		w.rules |= NT_WRITE_FORGE;
	err = nt_write_check(&w, id);
	if (err)
		return nt_write_status(err);

	piece.ptr = call->fields + NT_SYSTEM_HEADER_SIZE;
	piece.size = call->field_size;
	piece.reserved = 0;
	w.kind = NT_RECORD_SYSTEM;
	w.data_off = NT_SYSTEM_HEADER_SIZE;
	w.total = NT_SYSTEM_HEADER_SIZE + call->field_size;
	w.pieces = &piece;
	w.npieces = call->field_size ? 1 : 0;
	w.system.hook_id = hook_id;
	w.system.version = flags->version;
	w.system.ptr32 = (call->compat || flags->wow64) && !flags->native_header;
	err = nt_write_session_err(&w, id);
	nt_write_release(&w);
	/* Lost, and counted so: Windows reports success. */
	return err == -ENOSPC ? NTTRACE_STATUS_SUCCESS : nt_write_status(err);
}
EXPORT_SYMBOL_IF_KUNIT(nt_trace_system);
