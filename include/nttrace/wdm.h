/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nttrace's kernel-mode API, for other modules: the calls a Windows driver
 * traces with (wdm.h declares WmiTraceMessage and WmiTraceMessageVa,
 * zwapi.h ZwTraceEvent), with Windows' names and argument conventions and
 * Linux types: an NTSTATUS is a u32 (the NTTRACE_STATUS_* values of the
 * uapi, <nttrace/uapi.h>), a TRACEHANDLE a u64 (its low 16 bits the
 * logger ID), a GUID a guid_t.
 *
 * The module exports each function under an nttrace_ name in the symbol
 * namespace NTTRACE; the Windows names below are macros for them. A module
 * that calls them says NTTRACE_IMPORT_NS(); once, beside its MODULE_LICENSE
 * (which must be GPL-compatible).
 *
 * Every call may be made from process context, softirq or hardirq (not
 * NMI), with or without locks held: none sleeps. Kernel-mode callers are
 * trusted as Windows trusts them (no probing of Fields' alignment), but a
 * pointer that cannot be read still gives NTTRACE_STATUS_ACCESS_VIOLATION
 * and writes nothing. A session with NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY
 * refuses kernel-mode events with NTTRACE_STATUS_NOT_SUPPORTED (as
 * <nttrace/uapi.h> says of USE_PAGED_MEMORY).
 */
#ifndef _NTTRACE_WDM_H
#define _NTTRACE_WDM_H

#include <linux/stdarg.h>
#include <linux/types.h>
#include <linux/uuid.h>
#include <linux/version.h>
#include <nttrace/uapi.h>

/*
 * The exports' symbol namespace: an identifier for EXPORT_SYMBOL_NS_GPL and
 * MODULE_IMPORT_NS up to 6.12, a string from 6.13 on.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define NTTRACE_NS		"NTTRACE"
#else
#define NTTRACE_NS		NTTRACE
#endif
#define NTTRACE_IMPORT_NS()	MODULE_IMPORT_NS(NTTRACE_NS)

/*
 * NtTraceEvent for kernel-mode callers: @fields and every address in it
 * (a message's argument list, MOF_FIELD items, GuidPtr) are kernel
 * addresses. The types and their status codes are those of the user-mode
 * call (README's type table).
 */
u32 nttrace_zw_trace_event(u64 trace_handle, u32 flags, u32 field_size, const void *fields);

/*
 * A message event: @message_flags are
 * NTTRACE_TRACE_MESSAGE_* bits, @message_guid the GUID (or, with
 * NTTRACE_TRACE_MESSAGE_COMPONENTID, a component ID in its first 4 bytes;
 * only those are read). The variable arguments are pairs (const void *data,
 * size_t size) ending with a NULL data pointer, at most
 * NTTRACE_MESSAGE_MAX_ARGS pairs. Returns NTTRACE_STATUS_SUCCESS or the
 * status of a message call (README), and NTTRACE_STATUS_INVALID_PARAMETER
 * for a NULL @message_guid that the flags need, NTTRACE_STATUS_NO_MEMORY
 * when more than a few pairs need memory and there is none.
 */
u32 nttrace_wmi_trace_message(u64 logger_handle, u32 message_flags, const guid_t *message_guid,
			      u16 message_number, ...);
u32 nttrace_wmi_trace_message_va(u64 logger_handle, u32 message_flags, const guid_t *message_guid,
				 u16 message_number, va_list message_args);

/*
 * Manifest-based providers for drivers (wdm.h's EtwRegister family): a
 * REGHANDLE is a u64, never 0 for a registration, and not an address. One
 * unregistered, or never given, is refused with
 * NTTRACE_STATUS_INVALID_HANDLE (false from the Enabled calls) and no memory
 * is read through it; a write
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
 * session GUIDs), @control_code an NTTRACE_EVENT_CONTROL_CODE_*, @level and the
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

/*
 * NTTRACE_STATUS_SUCCESS and *@reg_handle, NTTRACE_STATUS_INVALID_PARAMETER,
 * NTTRACE_STATUS_NO_MEMORY.
 */
u32 nttrace_etw_register(const guid_t *provider_id, etw_enable_callback_t enable_callback,
			 void *callback_context, u64 *reg_handle);
/*
 * NTTRACE_STATUS_SUCCESS, NTTRACE_STATUS_INVALID_HANDLE. No callback runs
 * once it returns (except the caller, if it is the callback).
 */
u32 nttrace_etw_unregister(u64 reg_handle);
/* Does some session want this event (level and keywords)? A few loads. */
bool nttrace_etw_event_enabled(u64 reg_handle, const struct nttrace_event_descriptor *descriptor);
bool nttrace_etw_provider_enabled(u64 reg_handle, u8 level, u64 keyword);
/*
 * One event to every session that wants it: an EVENT_HEADER record (the
 * user-mode EventWrite's, 64-bit), @activity_id (NULL: zeros) in its
 * header, @user_data_count descriptors' bytes (kernel addresses) after
 * it. NTTRACE_STATUS_SUCCESS (also when no session wants it), or the
 * status of NTTRACE_ETW_NT_FLAGS_TRACE_EVENT (README).
 */
u32 nttrace_etw_write(u64 reg_handle, const struct nttrace_event_descriptor *descriptor,
		      const guid_t *activity_id, u32 user_data_count,
		      const struct nttrace_event_data_descriptor *user_data);
u32 nttrace_etw_write_transfer(u64 reg_handle, const struct nttrace_event_descriptor *descriptor,
			       const guid_t *activity_id, const guid_t *related_activity_id,
			       u32 user_data_count,
			       const struct nttrace_event_data_descriptor *user_data);

/*
 * EtwWriteNoRegistration: an event of provider @provider_id with no
 * registration (ntdll's EtwEventWriteNoRegistration for modules; Windows'
 * kernel documents no such export, the name is nttrace's). Each session
 * whose enable of the GUID takes the event by its level and keywords
 * gets it. Process context only (may sleep: the GUID's enables are found
 * under a mutex; from interrupt context NTTRACE_STATUS_NOT_SUPPORTED).
 * @provider_id NULL: NTTRACE_STATUS_INVALID_PARAMETER; no session enables
 * it: NTTRACE_STATUS_WMI_ALREADY_DISABLED; else as EtwWrite.
 */
u32 nttrace_etw_write_no_registration(const guid_t *provider_id,
				      const struct nttrace_event_descriptor *descriptor,
				      u32 user_data_count,
				      const struct nttrace_event_data_descriptor *user_data);

/*
 * EtwSetInformation's classes (evntprov.h's EVENT_INFO_CLASS values) and
 * what each does: SET_TRAITS takes provider traits (TraceLogging's
 * provider metadata: a 16-bit size equal to @information_length, a
 * NUL-ended name, traits) and makes the registration's writes honour the
 * data descriptors' Type (NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_*: metadata
 * written as the records' PROV_TRAITS and EVENT_SCHEMA_TL items);
 * USE_DESCRIPTOR_TYPE takes one byte, non-zero to honour the Type, zero
 * not to; BINARY_TRACK_INFO is accepted and does nothing.
 * NTTRACE_STATUS_SUCCESS, NTTRACE_STATUS_INVALID_HANDLE,
 * NTTRACE_STATUS_INVALID_PARAMETER (bad traits or length),
 * NTTRACE_STATUS_NOT_SUPPORTED (another class).
 */
#define NTTRACE_EVENT_PROVIDER_BINARY_TRACK_INFO	0
#define NTTRACE_EVENT_PROVIDER_SET_TRAITS		2
#define NTTRACE_EVENT_PROVIDER_USE_DESCRIPTOR_TYPE	3
u32 nttrace_etw_set_information(u64 reg_handle, u32 information_class, void *information,
				u32 information_length);

/* The Windows names, for driver code written against wdm.h. */
#define ZwTraceEvent		nttrace_zw_trace_event
#define WmiTraceMessage		nttrace_wmi_trace_message
#define WmiTraceMessageVa	nttrace_wmi_trace_message_va
#define EtwRegister		nttrace_etw_register
#define EtwUnregister		nttrace_etw_unregister
#define EtwEventEnabled		nttrace_etw_event_enabled
#define EtwProviderEnabled	nttrace_etw_provider_enabled
#define EtwWrite		nttrace_etw_write
#define EtwWriteTransfer	nttrace_etw_write_transfer
#define EtwWriteNoRegistration	nttrace_etw_write_no_registration
#define EtwSetInformation	nttrace_etw_set_information
#define EventProviderBinaryTrackInfo	NTTRACE_EVENT_PROVIDER_BINARY_TRACK_INFO
#define EventProviderSetTraits		NTTRACE_EVENT_PROVIDER_SET_TRAITS
#define EventProviderUseDescriptorType	NTTRACE_EVENT_PROVIDER_USE_DESCRIPTOR_TYPE
#define EVENT_DATA_DESCRIPTOR_TYPE_NONE		NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_NONE
#define EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA \
	NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA
#define EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA \
	NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA

#endif /* _NTTRACE_WDM_H */
