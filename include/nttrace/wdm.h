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

#endif /* _NTTRACE_WDM_H */
