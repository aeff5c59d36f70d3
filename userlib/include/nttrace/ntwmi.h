/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: NTDLL's ETW calls that no public SDK header
 * declares. Microsoft declared them once, in the NTWMI.H of the Windows 10
 * 1511 WDK, from which phnt's ntwmi.h descends; this header is named after
 * it and gives the prototypes phnt and Geoff Chappell's studies of NTDLL
 * give (facts only). evntprov.h has no EventWriteNoRegistration: Windows
 * exports the call only from NTDLL, as EtwEventWriteNoRegistration.
 *
 * Each returns a Win32 error (ERROR_SUCCESS is 0), as NTDLL's EtwEvent*
 * calls do; EtwRegisterSecurityProvider also stores it as the thread's
 * last error (as NTDLL's does), the two writes leave the last error alone
 * (as EventWrite does).
 */
#ifndef NTTRACE_NTWMI_H
#define NTTRACE_NTWMI_H

#include <nttrace/evntprov.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * An event of provider @ProviderId, which need not be registered
 * (NtTraceEvent's TRACE_EVENT_NOREG): each session whose enable of the
 * GUID takes the event's level and keywords gets it. No session enables
 * the GUID: ERROR_WMI_ALREADY_DISABLED; @ProviderId or @EventDescriptor
 * NULL: ERROR_INVALID_PARAMETER; else as EventWrite.
 */
ULONG NTAPI EtwEventWriteNoRegistration(LPCGUID ProviderId, PCEVENT_DESCRIPTOR EventDescriptor,
					ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData);

/*
 * Make the calling process the security provider (Windows:
 * NtTraceControl code 24; here NTTRACE_IOC_REGISTER_SECURITY on the
 * library's descriptor of /dev/nttrace, so it lasts until the process
 * exits or execs). Needs CAP_AUDIT_WRITE or CAP_SYS_ADMIN
 * (ERROR_ACCESS_DENIED); one process at a time (ERROR_BUSY while another,
 * or this one, holds it); no module: ERROR_SERVICE_NOT_ACTIVE.
 */
ULONG NTAPI EtwRegisterSecurityProvider(void);

/*
 * A security event (NtTraceEvent's TRACE_SECURITY) of the security
 * provider {54849625-5478-4994-A5BA-3E3B0328C30D}, with @EventProperty in
 * its header, into the sessions that enable that GUID. A process that is
 * not the security provider: ERROR_ACCESS_DENIED; @EventDescriptor NULL:
 * ERROR_INVALID_PARAMETER; else as EventWrite.
 */
ULONG NTAPI EtwWriteUMSecurityEvent(PCEVENT_DESCRIPTOR EventDescriptor, USHORT EventProperty,
				    ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData);

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_NTWMI_H */
