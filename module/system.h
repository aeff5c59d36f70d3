/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NtTraceEvent types that write into a session by its logger ID with
 * the kernel's own headers or the caller's: TRACE_SYSTEM
 * (module/system.c), TRACE_MARK (module/mark.c), TRACE_RAW
 * (module/raw.c).
 */
#ifndef NTTRACE_SYSTEM_H
#define NTTRACE_SYSTEM_H

#include "ntevent.h"

/*
 * The logger IDs TRACE_SYSTEM may name, as on Windows: below 64. A system
 * logger never takes a higher one (module/session.c).
 */
#define NT_SYSTEM_LOGGER_IDS	64

/* A SYSTEM_TRACE_HEADER's size (common/sysrec.h, NTR_SR_FULL). */
#define NT_SYSTEM_HEADER_SIZE	0x20

/* The Fields each captures before its handler (module/ntevent.c). */
#define NT_SYSTEM_FIXED_SIZE	0x20	/* SYSTEM_TRACE_HEADER */
#define NT_MARK_FIXED_SIZE	4	/* ETW_SET_MARK_INFORMATION.Flag */
#define NT_RAW_FIXED_SIZE	0	/* the handler reads it all */

/**
 * nt_trace_system() - the handler of NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM
 * @type: the type's entry in the front door's table (module/ntevent.c)
 * @call: the NtTraceEvent call
 * @flags: its Flags, decoded
 * @fixed: the SYSTEM_TRACE_HEADER the front door captured
 *
 * Return: an NTSTATUS.
 */
u32 nt_trace_system(const struct nttrace_type *type, const struct nttrace_call *call,
		    const struct nttrace_flags *flags, const void *fixed);

/**
 * nt_trace_mark() - the handler of NTTRACE_ETW_NT_FLAGS_TRACE_MARK
 * @type: the type's entry in the front door's table (module/ntevent.c)
 * @call: the NtTraceEvent call
 * @flags: its Flags, decoded
 * @fixed: ETW_SET_MARK_INFORMATION.Flag, as the front door captured it
 *
 * Return: an NTSTATUS.
 */
u32 nt_trace_mark(const struct nttrace_type *type, const struct nttrace_call *call,
		  const struct nttrace_flags *flags, const void *fixed);

/**
 * nt_trace_raw() - the handler of NTTRACE_ETW_NT_FLAGS_TRACE_RAW
 * @type: the type's entry in the front door's table (module/ntevent.c)
 * @call: the NtTraceEvent call
 * @flags: its Flags, decoded
 * @fixed: nothing (the handler reads the record itself)
 *
 * Return: an NTSTATUS.
 */
u32 nt_trace_raw(const struct nttrace_type *type, const struct nttrace_call *call,
		 const struct nttrace_flags *flags, const void *fixed);

/**
 * nt_system_target() - is @id a running system logger?
 * @id: a logger ID, NTTRACE_KERNEL_LOGGER_ID included
 *
 * Return: NTTRACE_STATUS_SUCCESS, or NTTRACE_STATUS_INVALID_HANDLE (none
 * runs) or NTTRACE_STATUS_INVALID_PARAMETER (it is no system logger).
 */
u32 nt_system_target(u32 id);

/**
 * nt_system_logger_id() - the session a TRACE_SYSTEM or TRACE_MARK handle names
 * @trace_handle: the call's TraceHandle
 *
 * Its low 16 bits; 0 and 0xFFFF name the NT Kernel Logger.
 *
 * Return: the logger ID (NTTRACE_KERNEL_LOGGER_ID for the NT Kernel
 * Logger), or 0 if it can name no session (over NTTRACE_MAX_LOGGERS).
 */
static inline u32 nt_system_logger_id(u64 trace_handle)
{
	u32 id = trace_handle & 0xFFFF;

	if (!id || id == NTTRACE_KERNEL_LOGGER_ID)
		return NTTRACE_KERNEL_LOGGER_ID;
	return id <= NTTRACE_MAX_LOGGERS ? id : 0;
}

#endif /* NTTRACE_SYSTEM_H */
