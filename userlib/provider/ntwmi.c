// SPDX-License-Identifier: LGPL-2.1
/*
 * NTDLL's ETW calls of <nttrace/ntwmi.h>: EtwEventWriteNoRegistration,
 * EtwRegisterSecurityProvider, EtwWriteUMSecurityEvent. The two writes
 * build Windows' 0x78-byte block (struct nttrace_event_write_user) with
 * EventWrite's builder (eventprov.c) and call NtTraceEvent once; the
 * kernel's rules are in uapi/nttrace.h ("Events without a registration,
 * and the security log").
 *
 * Chosen where Windows is silent: EventDescriptor NULL is
 * ERROR_INVALID_PARAMETER, found here (Windows would fault), as
 * EventWrite's; a count with no array likewise; ProviderId NULL goes to
 * the kernel as TraceHandle 0, which answers STATUS_INVALID_PARAMETER; the
 * event carries the thread's activity ID (EventActivityIdControl's), as
 * EventWrite's does.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include <nttrace/ntwmi.h>

#include "provider_internal.h"

static ULONG write_block(uint64_t trace_handle, ULONG type, PCEVENT_DESCRIPTOR d,
			 USHORT property, ULONG count, PEVENT_DATA_DESCRIPTOR data)
{
	struct nttrace_event_write_user f;

	if (!d || (count && !data))
		return ERROR_INVALID_PARAMETER;
	/* The thread's activity ID, as EventWrite's when none is given. */
	nttrace_event_block(&f, d, NULL, NULL, 0, 0, property, count, data);
	return RtlNtStatusToDosError(NtTraceEvent((HANDLE)(uintptr_t)trace_handle, type,
						  sizeof(f), &f));
}

ULONG NTAPI EtwEventWriteNoRegistration(LPCGUID ProviderId, PCEVENT_DESCRIPTOR EventDescriptor,
					ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData)
{
	return write_block((uintptr_t)ProviderId, NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG,
			   EventDescriptor, 0, UserDataCount, UserData);
}

ULONG NTAPI EtwWriteUMSecurityEvent(PCEVENT_DESCRIPTOR EventDescriptor, USHORT EventProperty,
				    ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData)
{
	/* TraceHandle NULL, as Windows passes it. */
	return write_block(0, NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY, EventDescriptor,
			   EventProperty, UserDataCount, UserData);
}

ULONG NTAPI EtwRegisterSecurityProvider(void)
{
	struct nttrace_security_register r = { .size = sizeof(r) };
	int fd = nttrace_device_fd();
	ULONG err;

	if (fd < 0)
		err = nttrace_errno_to_win32(fd);
	else if (ioctl(fd, NTTRACE_IOC_REGISTER_SECURITY, &r))
		err = nttrace_errno_to_win32(-errno);
	else
		err = ERROR_SUCCESS;
	SetLastError(err);
	return err;
}
