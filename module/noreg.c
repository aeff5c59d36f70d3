// SPDX-License-Identifier: GPL-2.0
/*
 * NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG: EtwEventWriteNoRegistration, an
 * event for a provider GUID with no registration (Windows 7 and later).
 * Fields is EventWrite's 0x78-byte block, written by EventWrite's path
 * (module/eventwrite.c) for the GUID held by nt_provider_hold(): the
 * sessions are the GUID's enables, each taking the event by its level,
 * keywords and event-ID filter, the record an EVENT_HEADER whose
 * ProviderId is the GUID.
 *
 * Facts (from phnt's ntwmi.h and Geoff Chappell's
 * EtwEventWriteNoRegistration page): TraceHandle is the
 * address of the 16-byte GUID, NULL is STATUS_INVALID_PARAMETER; no
 * session enabling the GUID is STATUS_WMI_ALREADY_DISABLED. Chosen where
 * they are silent:
 * - The order: the block's checks (FieldSize, flags, the descriptor count
 *   and address, as EventWrite), TraceHandle NULL, the GUID unreadable
 *   (STATUS_ACCESS_VIOLATION, as any unreadable argument), no session
 *   enables it, then EventWrite's checks from the descriptors on.
 * - "Enables" means any session's enable of the GUID, whatever its level
 *   and keywords: a GUID enabled but not for this event's level is
 *   STATUS_SUCCESS with nothing written, as EventWrite's disabled event.
 * - A kernel-mode caller must be in process context (the GUID table is
 *   under a mutex); from interrupt context: STATUS_NOT_SUPPORTED.
 */
#include <kunit/visibility.h>
#include <linux/err.h>
#include <linux/preempt.h>

#include "eventwrite.h"
#include "noreg.h"
#include "provider.h"

u32 nt_trace_noreg(const struct nttrace_type *type,
		   const struct nttrace_call *call,
		   const struct nttrace_flags *flags, const void *fixed)
{
	u8 guid[16];
	struct nt_reg *r;
	u32 status;

	status = nt_event_fields_check(call, fixed);
	if (status)
		return status;
	if (!call->trace_handle)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	if (call->kernel_mode && !in_task())
		return NTTRACE_STATUS_NOT_SUPPORTED;
	if (nt_copy_in(call, guid, call->trace_handle, sizeof(guid)))
		return NTTRACE_STATUS_ACCESS_VIOLATION;
	r = nt_provider_hold(guid);
	if (IS_ERR(r))
		return NTTRACE_STATUS_NO_MEMORY;
	if (!r)
		return NTTRACE_STATUS_WMI_ALREADY_DISABLED;
	status = nt_event_write_reg(call, flags, fixed, r);
	nt_provider_unhold(r);
	return status;
}
EXPORT_SYMBOL_IF_KUNIT(nt_trace_noreg);
