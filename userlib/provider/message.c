// SPDX-License-Identifier: LGPL-2.1
/*
 * TraceMessage and TraceMessageVa, and the NTDLL layer beneath them,
 * EtwTraceMessage and EtwTraceMessageVa, with Windows' MESSAGE_TRACE_USER
 * and TraceMessageVa's checks.
 *
 * The variable arguments are read once into a pair list on the stack
 * (no heap allocation per event), which becomes MESSAGE_TRACE_USER.Data
 * for NtTraceEvent, or goes to the process's user-mode logger when the
 * handle has TRACE_USER_MODE_LOGGER_BIT. The checks, in order:
 *   - logger ID (the handle's low 16 bits) 0 or 0xFFFF: ERROR_INVALID_HANDLE
 *     (TraceMessageVa's first check), before anything else is read;
 *   - 0x30 + the arguments' bytes > 8 KB: ERROR_BUFFER_OVERFLOW, as ADVAPI32
 *     sizes its packet, though no packet is built here;
 *   - more than NTTRACE_MESSAGE_MAX_ARGS pairs: ERROR_INVALID_PARAMETER
 *     (the kernel's limit too, so both paths agree);
 *   - an unreadable MessageGuid: ERROR_NOACCESS.
 * A size is read as size_t, the type Windows callers pass (sizeof).
 */
#include <stdarg.h>
#include <string.h>

#include "provider_internal.h"

/* ADVAPI32's packet: 0x30 bytes of header, then the arguments. */
#define MESSAGE_PACKET_HEADER	0x30

static ULONG read_args(struct nttrace_msg *m, va_list *ap)
{
	uint32_t n = 0, sum = 0;

	for (;;) {
		void *ptr = va_arg(*ap, void *);
		size_t size;

		if (!ptr)
			break;
		size = va_arg(*ap, size_t);
		if (size > TRACE_MESSAGE_MAXIMUM_SIZE ||
		    MESSAGE_PACKET_HEADER + sum + size > TRACE_MESSAGE_MAXIMUM_SIZE)
			return ERROR_BUFFER_OVERFLOW;
		if (n == NTTRACE_MESSAGE_MAX_ARGS)
			return ERROR_INVALID_PARAMETER;
		m->list[2 * n] = (uintptr_t)ptr;
		m->list[2 * n + 1] = size;
		sum += size;
		n++;
	}
	m->list[2 * n] = 0;
	m->nargs = n;
	m->data_size = sum;
	return ERROR_SUCCESS;
}

static ULONG trace_kernel(TRACEHANDLE handle, const struct nttrace_msg *m)
{
	struct nttrace_message_trace_user u;

	memset(&u, 0, sizeof(u));
	u.message_number = m->number;
	memcpy(u.message_guid, m->guid, sizeof(u.message_guid));
	u.message_flags = m->flags;
	u.data_size = (2 * m->nargs + 1) * sizeof(uintptr_t);
	u.data = (uintptr_t)m->list;
	return RtlNtStatusToDosError(NtTraceEvent((HANDLE)(uintptr_t)handle,
						  NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE,
						  sizeof(u), &u));
}

/*
 * @ap by address: TraceMessage's own va_list is read in place, not copied
 * (a copy of the va_list its caller has just written stalls on the store
 * buffer: perf put 8 % of TraceMessage's time on that copy).
 */
static ULONG trace_message(TRACEHANDLE handle, ULONG flags, LPCGUID guid,
			   USHORT number, va_list *ap)
{
	struct nttrace_msg m;
	size_t guid_len = 0;
	ULONG err;

	if (!(handle & TRACE_USER_MODE_LOGGER_BIT) &&
	    ((handle & 0xFFFF) == 0 || (handle & 0xFFFF) == 0xFFFF))
		return ERROR_INVALID_HANDLE;
	err = read_args(&m, ap);
	if (err)
		return err;
	m.flags = flags & TRACE_MESSAGE_FLAG_MASK;
	m.number = number;
	memset(m.guid, 0, sizeof(m.guid));
	/* COMPONENTID wins over GUID; with neither, MessageGuid is unused. */
	if (flags & TRACE_MESSAGE_COMPONENTID)
		guid_len = 4;
	else if (flags & TRACE_MESSAGE_GUID)
		guid_len = 16;
	if (guid_len && nttrace_safe_copy(m.guid, guid, guid_len))
		return ERROR_NOACCESS;
	if (handle & TRACE_USER_MODE_LOGGER_BIT)
		return nttrace_um_trace(handle, &m);
	return trace_kernel(handle, &m);
}

ULONG EtwTraceMessageVa(TRACEHANDLE LoggerHandle, ULONG MessageFlags,
			LPCGUID MessageGuid, USHORT MessageNumber,
			va_list MessageArgList)
{
	va_list ap;
	ULONG err;

	va_copy(ap, MessageArgList);
	err = trace_message(LoggerHandle, MessageFlags, MessageGuid,
			    MessageNumber, &ap);
	va_end(ap);
	SetLastError(err);
	return err;
}

ULONG EtwTraceMessage(TRACEHANDLE LoggerHandle, ULONG MessageFlags,
		      LPCGUID MessageGuid, USHORT MessageNumber, ...)
{
	va_list ap;
	ULONG err;

	va_start(ap, MessageNumber);
	err = trace_message(LoggerHandle, MessageFlags, MessageGuid,
			    MessageNumber, &ap);
	va_end(ap);
	SetLastError(err);
	return err;
}

ULONG TraceMessageVa(TRACEHANDLE LoggerHandle, ULONG MessageFlags,
		     LPCGUID MessageGuid, USHORT MessageNumber,
		     va_list MessageArgList)
{
	return EtwTraceMessageVa(LoggerHandle, MessageFlags, MessageGuid,
				 MessageNumber, MessageArgList);
}

ULONG TraceMessage(TRACEHANDLE LoggerHandle, ULONG MessageFlags,
		   LPCGUID MessageGuid, USHORT MessageNumber, ...)
{
	va_list ap;
	ULONG err;

	va_start(ap, MessageNumber);
	err = trace_message(LoggerHandle, MessageFlags, MessageGuid,
			    MessageNumber, &ap);
	va_end(ap);
	SetLastError(err);
	return err;
}
