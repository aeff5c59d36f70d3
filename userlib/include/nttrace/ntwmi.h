/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: NTDLL's ETW calls that no public SDK header
 * declares. Microsoft declared them once, in the NTWMI.H of the Windows 10
 * 1511 WDK, from which phnt's ntwmi.h descends; this header is named after
 * it and gives the prototypes phnt and Geoff Chappell's studies of NTDLL
 * give (facts only). evntprov.h has no EventWriteNoRegistration: Windows
 * exports the call only from NTDLL, as EtwEventWriteNoRegistration.
 *
 * The Etw* calls each return a Win32 error (ERROR_SUCCESS is 0), as
 * NTDLL's EtwEvent* calls do; EtwRegisterSecurityProvider also stores it
 * as the thread's last error (as NTDLL's does), the two writes leave the
 * last error alone (as EventWrite does). NtQuerySystemInformation and
 * NtSetSystemInformation (for ETW's SystemPerformanceTraceInformation,
 * below) return an NTSTATUS and leave the last error alone, as NTDLL's.
 */
#ifndef NTTRACE_NTWMI_H
#define NTTRACE_NTWMI_H

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>

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

/*
 * ---- NtQuerySystemInformation, NtSetSystemInformation ----
 *
 * The kernel's ETW settings as NTDLL reaches them (and ADVAPI's
 * TraceQueryInformation and TraceSetInformation do on Windows): the system
 * information class SystemPerformanceTraceInformation, whose buffer
 * begins with an EVENT_TRACE_INFORMATION_CLASS saying which structure
 * follows. Values and layouts are Windows' (phnt's ntexapi.h and Geoff
 * Chappell's studies of the kernel give them; no SDK header declares
 * them), the same for 32- and 64-bit callers.
 *
 * SYSTEM_INFORMATION_CLASS names only that class: any other is
 * STATUS_INVALID_INFO_CLASS, as a class Windows does not know is there.
 */
typedef enum _SYSTEM_INFORMATION_CLASS {
	SystemPerformanceTraceInformation = 31
} SYSTEM_INFORMATION_CLASS;

typedef enum _EVENT_TRACE_INFORMATION_CLASS {
	EventTraceKernelVersionInformation = 0,
	EventTraceGroupMaskInformation = 1,
	EventTracePerformanceInformation = 2,
	EventTraceTimeProfileInformation = 3,
	EventTraceSessionSecurityInformation = 4,
	EventTraceSpinlockInformation = 5,
	EventTraceStackTracingInformation = 6,
	EventTraceExecutiveResourceInformation = 7,
	EventTraceHeapTracingInformation = 8,
	EventTraceHeapSummaryTracingInformation = 9,
	EventTracePoolTagFilterInformation = 10,
	EventTracePebsTracingInformation = 11,
	EventTraceProfileConfigInformation = 12,
	EventTraceProfileSourceListInformation = 13,
	EventTraceProfileEventListInformation = 14,
	EventTraceProfileCounterListInformation = 15,
	EventTraceStackCachingInformation = 16,
	EventTraceObjectTypeFilterInformation = 17,
	EventTraceSoftRestartInformation = 18,
	EventTraceLastBranchConfigurationInformation = 19,
	EventTraceLastBranchEventListInformation = 20,
	EventTraceProfileSourceAddInformation = 21,
	EventTraceProfileSourceRemoveInformation = 22,
	EventTraceProcessorTraceConfigurationInformation = 23,
	EventTraceProcessorTraceEventListInformation = 24,
	EventTraceCoverageSamplerInformation = 25,
	EventTraceUnifiedStackCachingInformation = 26,
	EventTraceContextRegisterTraceInformation = 27,
	MaxEventTraceInfoClass = 28
} EVENT_TRACE_INFORMATION_CLASS;

/* The kernel's ETW version (EventTraceKernelVersionInformation): 8 bytes. */
typedef struct _EVENT_TRACE_VERSION_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	ULONG EventTraceKernelVersion;
} EVENT_TRACE_VERSION_INFORMATION, *PEVENT_TRACE_VERSION_INFORMATION;

/* A system logger's group mask, PERFINFO_GROUPMASK's eight ULONGs: 48 bytes. */
typedef struct _EVENT_TRACE_GROUPMASK_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	TRACEHANDLE TraceHandle;
	ULONG EventTraceGroupMasks[8];
} EVENT_TRACE_GROUPMASK_INFORMATION, *PEVENT_TRACE_GROUPMASK_INFORMATION;

typedef struct _EVENT_TRACE_PERFORMANCE_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	LARGE_INTEGER LogfileBytesWritten;
} EVENT_TRACE_PERFORMANCE_INFORMATION, *PEVENT_TRACE_PERFORMANCE_INFORMATION;

/* The profile timer's interval, 100 ns units: 8 bytes. */
typedef struct _EVENT_TRACE_TIME_PROFILE_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	ULONG ProfileInterval;
} EVENT_TRACE_TIME_PROFILE_INFORMATION, *PEVENT_TRACE_TIME_PROFILE_INFORMATION;

typedef struct _EVENT_TRACE_SESSION_SECURITY_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	ULONG SecurityInformation;
	TRACEHANDLE TraceHandle;
	UCHAR SecurityDescriptor[ANYSIZE_ARRAY];
} EVENT_TRACE_SESSION_SECURITY_INFORMATION, *PEVENT_TRACE_SESSION_SECURITY_INFORMATION;

typedef struct _EVENT_TRACE_SPINLOCK_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	ULONG SpinLockSpinThreshold;
	ULONG SpinLockAcquireSampleRate;
	ULONG SpinLockContentionSampleRate;
	ULONG SpinLockHoldThreshold;
} EVENT_TRACE_SPINLOCK_INFORMATION, *PEVENT_TRACE_SPINLOCK_INFORMATION;

/*
 * A system logger's list of kernel events by HookId (group << 8 | type,
 * as the ETL file's system events carry it): 16 bytes, then the HookIds.
 */
typedef struct _EVENT_TRACE_SYSTEM_EVENT_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	TRACEHANDLE TraceHandle;
	ULONG HookId[ANYSIZE_ARRAY];
} EVENT_TRACE_SYSTEM_EVENT_INFORMATION, *PEVENT_TRACE_SYSTEM_EVENT_INFORMATION;
typedef EVENT_TRACE_SYSTEM_EVENT_INFORMATION EVENT_TRACE_STACK_TRACING_INFORMATION,
	*PEVENT_TRACE_STACK_TRACING_INFORMATION;
typedef EVENT_TRACE_SYSTEM_EVENT_INFORMATION EVENT_TRACE_PEBS_TRACING_INFORMATION,
	*PEVENT_TRACE_PEBS_TRACING_INFORMATION;
typedef EVENT_TRACE_SYSTEM_EVENT_INFORMATION EVENT_TRACE_PROFILE_EVENT_INFORMATION,
	*PEVENT_TRACE_PROFILE_EVENT_INFORMATION;

typedef struct _EVENT_TRACE_EXECUTIVE_RESOURCE_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	ULONG ReleaseSamplingRate;
	ULONG ContentionSamplingRate;
	ULONG NumberOfExcessiveTimeouts;
} EVENT_TRACE_EXECUTIVE_RESOURCE_INFORMATION, *PEVENT_TRACE_EXECUTIVE_RESOURCE_INFORMATION;

typedef struct _EVENT_TRACE_HEAP_TRACING_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	ULONG ProcessId[ANYSIZE_ARRAY];
} EVENT_TRACE_HEAP_TRACING_INFORMATION, *PEVENT_TRACE_HEAP_TRACING_INFORMATION;

typedef struct _EVENT_TRACE_TAG_FILTER_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	TRACEHANDLE TraceHandle;
	ULONG Filter[ANYSIZE_ARRAY];
} EVENT_TRACE_TAG_FILTER_INFORMATION, *PEVENT_TRACE_TAG_FILTER_INFORMATION;
typedef EVENT_TRACE_TAG_FILTER_INFORMATION EVENT_TRACE_POOLTAG_FILTER_INFORMATION,
	*PEVENT_TRACE_POOLTAG_FILTER_INFORMATION;
typedef EVENT_TRACE_TAG_FILTER_INFORMATION EVENT_TRACE_OBJECT_TYPE_FILTER_INFORMATION,
	*PEVENT_TRACE_OBJECT_TYPE_FILTER_INFORMATION;

/* The profile sources to sample (KPROFILE_SOURCE values): 16 bytes, then them. */
typedef struct _EVENT_TRACE_PROFILE_COUNTER_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	TRACEHANDLE TraceHandle;
	ULONG ProfileSource[ANYSIZE_ARRAY];
} EVENT_TRACE_PROFILE_COUNTER_INFORMATION, *PEVENT_TRACE_PROFILE_COUNTER_INFORMATION;
typedef EVENT_TRACE_PROFILE_COUNTER_INFORMATION EVENT_TRACE_PROFILE_CONFIG_INFORMATION,
	*PEVENT_TRACE_PROFILE_CONFIG_INFORMATION;

/*
 * The profile sources there are: 8 bytes, then from Profile on the
 * PROFILE_SOURCE_INFO entries (<nttrace/evntrace.h>) chained by
 * NextEntryOffset, as TraceProfileSourceListInfo gives them. Profile is
 * declared as phnt declares it, an array of pointers; nothing public says
 * more of what Windows puts there, and nttrace puts the entries
 * themselves, each 8-byte aligned.
 */
typedef struct _EVENT_TRACE_PROFILE_LIST_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	ULONG Spare;
	PPROFILE_SOURCE_INFO Profile[ANYSIZE_ARRAY];
} EVENT_TRACE_PROFILE_LIST_INFORMATION, *PEVENT_TRACE_PROFILE_LIST_INFORMATION;

typedef struct _EVENT_TRACE_STACK_CACHING_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	TRACEHANDLE TraceHandle;
	BOOLEAN Enabled;
	UCHAR Reserved[3];
	ULONG CacheSize;
	ULONG BucketCount;
} EVENT_TRACE_STACK_CACHING_INFORMATION, *PEVENT_TRACE_STACK_CACHING_INFORMATION;

/*
 * NtQuerySystemInformation(SystemPerformanceTraceInformation): the
 * setting the buffer's EventTraceInformationClass names, read through
 * TraceQueryInformation's (<nttrace/evntrace.h> says what each is here):
 *   EventTraceGroupMaskInformation  TraceHandle's group mask (a system
 *       logger's; TraceSystemTraceEnableFlagsInfo), 48 bytes exactly
 *   EventTraceTimeProfileInformation  the profile interval (the
 *       machine's; TraceSampledProfileIntervalInfo), 8 bytes exactly
 *   EventTraceStackTracingInformation  TraceHandle's events with stacks
 *       (TraceStackTracingInfo), their HookIds after the 16 bytes; a
 *       buffer too small for them: STATUS_BUFFER_TOO_SMALL
 *   EventTraceProfileSourceListInformation  the sources there are
 *       (TraceProfileSourceListInfo: the timer), after the 8 bytes; a
 *       buffer too small: STATUS_BUFFER_TOO_SMALL
 * *ReturnLength (ReturnLength may be NULL): the bytes written, or the
 * bytes needed with STATUS_BUFFER_TOO_SMALL or STATUS_INFO_LENGTH_MISMATCH.
 * NtSetSystemInformation(SystemPerformanceTraceInformation) sets them
 * through TraceSetInformation's:
 *   EventTraceGroupMaskInformation  TraceHandle's group mask, 48 bytes
 *   EventTraceTimeProfileInformation  the profile interval, 8 bytes
 *   EventTraceStackTracingInformation  TraceHandle's events with stacks:
 *       16 bytes and the HookIds (none: no stacks)
 *   EventTraceProfileConfigInformation  the sources to sample: 16 bytes
 *       and 1 to 4 sources, the timer (0) alone
 * Each class that is neither nttrace has nothing for: the kernel's event
 * version (EventTraceKernelVersionInformation: no value of Windows' means
 * what nttrace's events are, and a made-up one could gate a caller
 * wrongly), spinlocks, executive resources, heaps, pool tags, PEBS, PMC
 * counters, LBR, stack caching, object type filters, session security,
 * soft restart: STATUS_NOT_SUPPORTED, the buffer untouched. Both return
 * STATUS_SUCCESS, or:
 *   STATUS_INVALID_INFO_CLASS    SystemInformationClass is not
 *                                SystemPerformanceTraceInformation, or the
 *                                class is MaxEventTraceInfoClass or above
 *   STATUS_INFO_LENGTH_MISMATCH  SystemInformation NULL or shorter than its
 *                                class, or a length the class does not take
 *   STATUS_INVALID_HANDLE        TraceHandle is no running session
 *   STATUS_INVALID_PARAMETER     the session is no system logger (group
 *                                masks), a value out of range, a HookId
 *                                over 0xFFFF
 *   STATUS_NOT_SUPPORTED         the classes above; a group or event the
 *                                module writes nothing for, a source other
 *                                than the timer; the module not loaded
 *   STATUS_ACCESS_DENIED         the caller may not change the setting
 */
NTSTATUS NTAPI NtQuerySystemInformation(SYSTEM_INFORMATION_CLASS SystemInformationClass,
					PVOID SystemInformation, ULONG SystemInformationLength,
					PULONG ReturnLength);
NTSTATUS NTAPI NtSetSystemInformation(SYSTEM_INFORMATION_CLASS SystemInformationClass,
				      PVOID SystemInformation, ULONG SystemInformationLength);

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_NTWMI_H */
