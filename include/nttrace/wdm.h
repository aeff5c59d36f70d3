/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nttrace's kernel-mode API, for other modules: the calls a Windows driver
 * traces with (wdm.h declares WmiTraceMessage and WmiTraceMessageVa,
 * zwapi.h ZwTraceEvent), with Windows' names and argument conventions and
 * Linux types: an NTSTATUS is a u32 (the STATUS_* values of nttrace.h), a
 * TRACEHANDLE a u64 (its low 16 bits the logger ID), a GUID a guid_t.
 *
 * Every call may be made from process context, softirq or hardirq (not
 * NMI), with or without locks held: none sleeps. Kernel-mode callers are
 * trusted as Windows trusts them (no probing of Fields' alignment), but a
 * pointer that cannot be read still gives STATUS_ACCESS_VIOLATION and
 * writes nothing. A session with EVENT_TRACE_USE_PAGED_MEMORY refuses
 * kernel-mode events with STATUS_NOT_SUPPORTED (seed 003).
 */
#ifndef _NTTRACE_WDM_H
#define _NTTRACE_WDM_H

#include <linux/stdarg.h>
#include <linux/types.h>
#include <linux/uuid.h>
#include <nttrace.h>

/*
 * NtTraceEvent for kernel-mode callers: @fields and every address in it
 * (a message's argument list, MOF_FIELD items, GuidPtr) are kernel
 * addresses. The types and their status codes are those of the user-mode
 * call (README's type table), with seed 003's kernel-mode rules.
 */
u32 ZwTraceEvent(u64 trace_handle, u32 flags, u32 field_size, const void *fields);

/*
 * A message event (seeds 001, 002): @message_flags are TRACE_MESSAGE_*
 * bits, @message_guid the GUID (or, with TRACE_MESSAGE_COMPONENTID, a
 * component ID in its first 4 bytes; only those are read). The variable
 * arguments are pairs (const void *data, size_t size) ending with a NULL
 * data pointer, at most NTTRACE_MESSAGE_MAX_ARGS pairs. Returns
 * STATUS_SUCCESS or the status of a TRACE_MESSAGE call (README), and
 * STATUS_INVALID_PARAMETER for a NULL @message_guid that the flags need,
 * STATUS_NO_MEMORY when more than a few pairs need memory and there is
 * none.
 */
u32 WmiTraceMessage(u64 logger_handle, u32 message_flags,
		    const guid_t *message_guid, u16 message_number, ...);
u32 WmiTraceMessageVa(u64 logger_handle, u32 message_flags,
		      const guid_t *message_guid, u16 message_number,
		      va_list message_args);

/*
 * Manifest-based providers for drivers (wdm.h's EtwRegister family): a
 * REGHANDLE is a u64, never 0 for a registration, and not an address. One
 * unregistered, or never given, is refused with STATUS_INVALID_HANDLE
 * (false from the Enabled calls) and no memory is read through it; a write
 * racing with EtwUnregister either writes or is refused. EtwRegister and
 * EtwUnregister may sleep (process context); the rest may be called from
 * any context but NMI.
 *
 * The enable callback (PETWENABLECALLBACK) runs in process context with
 * no nttrace lock held, in the thread that made the change, after the
 * change is made (EtwEventEnabled already reflects it): for every enable,
 * disable and capture-state of a session for the provider's GUID, and,
 * before EtwRegister returns, for each enable made before it registered
 * (*@reg_handle is not set yet then). @source_id is NULL (nttrace has no
 * session GUIDs), @control_code an EVENT_CONTROL_CODE_*, @level and the
 * keywords the session's; @filter_data is NULL. A registration's callbacks
 * run one at a time and in order; one whose change comes while another
 * thread is running them runs in that thread, after them. The callback may
 * sleep, write events, and call EtwRegister and EtwUnregister, for its own
 * registration too: then no callback follows the one running.
 * EtwUnregister waits for a callback running on another thread: do not
 * call it holding a lock the callback takes, nor from the callback of a
 * registration whose EtwUnregister that callback may be making.
 */
typedef void (*etw_enable_callback_t)(const guid_t *source_id, u32 control_code,
				      u8 level, u64 match_any_keyword,
				      u64 match_all_keyword, void *filter_data,
				      void *callback_context);

/* STATUS_SUCCESS and *@reg_handle, STATUS_INVALID_PARAMETER, STATUS_NO_MEMORY. */
u32 EtwRegister(const guid_t *provider_id, etw_enable_callback_t enable_callback,
		void *callback_context, u64 *reg_handle);
/*
 * STATUS_SUCCESS, STATUS_INVALID_HANDLE. No callback runs once it returns
 * (except the caller, if it is the callback).
 */
u32 EtwUnregister(u64 reg_handle);
/* Does some session want this event (level and keywords)? A few loads. */
bool EtwEventEnabled(u64 reg_handle, const struct event_descriptor *descriptor);
bool EtwProviderEnabled(u64 reg_handle, u8 level, u64 keyword);
/*
 * One event to every session that wants it: an EVENT_HEADER record (the
 * user-mode EventWrite's, 64-bit), @activity_id (NULL: zeros) in its
 * header, @user_data_count descriptors' bytes (kernel addresses) after
 * it. STATUS_SUCCESS (also when no session wants it), or the status of
 * ETW_NT_FLAGS_TRACE_EVENT (README).
 */
u32 EtwWrite(u64 reg_handle, const struct event_descriptor *descriptor,
	     const guid_t *activity_id, u32 user_data_count,
	     const struct event_data_descriptor *user_data);
u32 EtwWriteTransfer(u64 reg_handle, const struct event_descriptor *descriptor,
		     const guid_t *activity_id, const guid_t *related_activity_id,
		     u32 user_data_count, const struct event_data_descriptor *user_data);

#endif /* _NTTRACE_WDM_H */
