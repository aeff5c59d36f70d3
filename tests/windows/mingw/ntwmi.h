// SPDX-License-Identifier: MIT
/*
 * For mingw-w64 only (scripts/check's -Itests/windows/mingw): what a
 * Windows program gets from phnt's or the WDK's headers and winnames.c
 * uses, which neither the Windows SDK nor mingw-w64 declares: the
 * SystemPerformanceTraceInformation class, NtSetSystemInformation,
 * EVENT_TRACE_INFORMATION_CLASS and the structures of the classes
 * winnames.c asks for, with the values and layouts phnt's ntexapi.h
 * gives, and the statuses mingw-w64 has only in <ntstatus.h>.
 * nttrace's <ntwmi.h> declares them all.
 */
#pragma once

#include <windows.h>
#include <winternl.h>
#include <evntrace.h>

#define SystemPerformanceTraceInformation	((SYSTEM_INFORMATION_CLASS)0x1F)

#ifndef STATUS_INVALID_INFO_CLASS
#define STATUS_INVALID_INFO_CLASS	((NTSTATUS)0xC0000003L)
#endif
#ifndef STATUS_INFO_LENGTH_MISMATCH
#define STATUS_INFO_LENGTH_MISMATCH	((NTSTATUS)0xC0000004L)
#endif
#ifndef STATUS_INVALID_HANDLE
#define STATUS_INVALID_HANDLE		((NTSTATUS)0xC0000008L)
#endif
#ifndef STATUS_BUFFER_TOO_SMALL
#define STATUS_BUFFER_TOO_SMALL		((NTSTATUS)0xC0000023L)
#endif
#ifndef STATUS_NOT_SUPPORTED
#define STATUS_NOT_SUPPORTED		((NTSTATUS)0xC00000BBL)
#endif

typedef enum _EVENT_TRACE_INFORMATION_CLASS {
	EventTraceKernelVersionInformation,
	EventTraceGroupMaskInformation,
	EventTracePerformanceInformation,
	EventTraceTimeProfileInformation,
	EventTraceSessionSecurityInformation,
	EventTraceSpinlockInformation,
	EventTraceStackTracingInformation,
	EventTraceExecutiveResourceInformation,
	EventTraceHeapTracingInformation,
	EventTraceHeapSummaryTracingInformation,
	EventTracePoolTagFilterInformation,
	EventTracePebsTracingInformation,
	EventTraceProfileConfigInformation,
	EventTraceProfileSourceListInformation,
	EventTraceProfileEventListInformation,
	EventTraceProfileCounterListInformation,
	EventTraceStackCachingInformation,
	EventTraceObjectTypeFilterInformation,
	EventTraceSoftRestartInformation,
	EventTraceLastBranchConfigurationInformation,
	EventTraceLastBranchEventListInformation,
	EventTraceProfileSourceAddInformation,
	EventTraceProfileSourceRemoveInformation,
	EventTraceProcessorTraceConfigurationInformation,
	EventTraceProcessorTraceEventListInformation,
	EventTraceCoverageSamplerInformation,
	EventTraceUnifiedStackCachingInformation,
	EventTraceContextRegisterTraceInformation,
	MaxEventTraceInfoClass
} EVENT_TRACE_INFORMATION_CLASS;

typedef struct _EVENT_TRACE_VERSION_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	ULONG EventTraceKernelVersion;
} EVENT_TRACE_VERSION_INFORMATION, *PEVENT_TRACE_VERSION_INFORMATION;

typedef struct _EVENT_TRACE_GROUPMASK_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	TRACEHANDLE TraceHandle;
	ULONG EventTraceGroupMasks[8];
} EVENT_TRACE_GROUPMASK_INFORMATION, *PEVENT_TRACE_GROUPMASK_INFORMATION;

typedef struct _EVENT_TRACE_TIME_PROFILE_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	ULONG ProfileInterval;
} EVENT_TRACE_TIME_PROFILE_INFORMATION, *PEVENT_TRACE_TIME_PROFILE_INFORMATION;

typedef struct _EVENT_TRACE_SPINLOCK_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	ULONG SpinLockSpinThreshold;
	ULONG SpinLockAcquireSampleRate;
	ULONG SpinLockContentionSampleRate;
	ULONG SpinLockHoldThreshold;
} EVENT_TRACE_SPINLOCK_INFORMATION, *PEVENT_TRACE_SPINLOCK_INFORMATION;

typedef struct _EVENT_TRACE_SYSTEM_EVENT_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	TRACEHANDLE TraceHandle;
	ULONG HookId[1];
} EVENT_TRACE_SYSTEM_EVENT_INFORMATION, *PEVENT_TRACE_SYSTEM_EVENT_INFORMATION;
typedef EVENT_TRACE_SYSTEM_EVENT_INFORMATION EVENT_TRACE_STACK_TRACING_INFORMATION,
	*PEVENT_TRACE_STACK_TRACING_INFORMATION;

typedef struct _EVENT_TRACE_PROFILE_LIST_INFORMATION {
	EVENT_TRACE_INFORMATION_CLASS EventTraceInformationClass;
	ULONG Spare;
	PPROFILE_SOURCE_INFO Profile[1];
} EVENT_TRACE_PROFILE_LIST_INFORMATION, *PEVENT_TRACE_PROFILE_LIST_INFORMATION;

#ifdef __cplusplus
extern "C" {
#endif
NTSTATUS NTAPI NtSetSystemInformation(SYSTEM_INFORMATION_CLASS SystemInformationClass,
				      PVOID SystemInformation, ULONG SystemInformationLength);
#ifdef __cplusplus
}
#endif
