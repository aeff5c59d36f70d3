/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: the Windows evntrace.h subset for message tracing,
 * with Windows' names, types and layouts, so that C code written for
 * TraceMessage and StartTrace/ControlTrace compiles unchanged.
 *
 * Types keep their Windows sizes (<nttrace/winnt.h>), so that
 * EVENT_TRACE_PROPERTIES is 0x78 bytes for 32- and 64-bit callers.
 *
 * Every function returns a Win32 error (ERROR_SUCCESS is 0) and also
 * stores it as the thread's last error (GetLastError).
 */
#ifndef NTTRACE_EVNTRACE_H
#define NTTRACE_EVNTRACE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <nttrace/nt.h>
#include <nttrace/wmistr.h>
#include <nttrace/winerror.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef ULONG64 TRACEHANDLE, *PTRACEHANDLE;
#define INVALID_TRACEHANDLE	((TRACEHANDLE)0)

/*
 * The largest message TraceMessage takes: 0x30 bytes of MESSAGE_TRACE_USER
 * as ADVAPI32 builds it, plus the arguments (seed 002). More fails with
 * ERROR_BUFFER_OVERFLOW.
 */
#define TRACE_MESSAGE_MAXIMUM_SIZE	8192

/* The handle bit of the in-process user-mode (private) logger. */
#define TRACE_USER_MODE_LOGGER_BIT	0x01000000U

/*
 * The session properties: this fixed part, then the session and log file
 * names at LoggerNameOffset and LogFileNameOffset from its start, all
 * within Wnode.BufferSize bytes.
 */
typedef struct _EVENT_TRACE_PROPERTIES {
	WNODE_HEADER Wnode;
	ULONG BufferSize;	/* KB per buffer */
	ULONG MinimumBuffers;
	ULONG MaximumBuffers;	/* per CPU (kernel), in all (user-mode logger) */
	ULONG MaximumFileSize;	/* MB; kept for the log file */
	ULONG LogFileMode;	/* EVENT_TRACE_* mode bits */
	ULONG FlushTimer;	/* seconds */
	ULONG EnableFlags;
	union {
		LONG AgeLimit;
		LONG FlushThreshold;
	};
	ULONG NumberOfBuffers;
	ULONG FreeBuffers;
	ULONG EventsLost;
	ULONG BuffersWritten;
	ULONG LogBuffersLost;
	ULONG RealTimeBuffersLost;
	HANDLE LoggerThreadId;	/* the logger's process ID, for a file */
	ULONG LogFileNameOffset;
	ULONG LoggerNameOffset;
} EVENT_TRACE_PROPERTIES, *PEVENT_TRACE_PROPERTIES;

/*
 * Message tracing (seed 002). MessageFlags are the TRACE_MESSAGE_* bits;
 * the variable arguments are pairs (PVOID address, size_t size) ending with
 * a NULL address. Returns ERROR_SUCCESS, or:
 *   ERROR_INVALID_HANDLE       logger 0 or 0xFFFF, or a session not running
 *   ERROR_INVALID_PARAMETER    more than NTTRACE_MESSAGE_MAX_ARGS arguments
 *   ERROR_BUFFER_OVERFLOW      0x30 + the arguments' bytes > 8 KB
 *   ERROR_MORE_DATA            the event is larger than the session's buffers
 *   ERROR_NOT_ENOUGH_MEMORY    no free buffer: the event is counted lost
 *   ERROR_NOACCESS             an unreadable argument or MessageGuid
 *   ERROR_NOT_SUPPORTED        /dev/nttrace missing (module not loaded)
 * MessageFlags bits above TRACE_MESSAGE_SYSTEMINFO are ignored, as the
 * kernel ignores them. No heap memory is allocated per event.
 *
 * TraceMessage and TraceMessageVa are EtwTraceMessage and EtwTraceMessageVa
 * (the NTDLL layer, which does the work and calls NtTraceEvent), as
 * ADVAPI32 forwards them in Windows 5.2 and higher.
 */
ULONG WMIAPI EtwTraceMessage(TRACEHANDLE LoggerHandle, ULONG MessageFlags,
			     LPCGUID MessageGuid, USHORT MessageNumber, ...);
ULONG WMIAPI EtwTraceMessageVa(TRACEHANDLE LoggerHandle, ULONG MessageFlags,
			       LPCGUID MessageGuid, USHORT MessageNumber,
			       va_list MessageArgList);
ULONG WMIAPI TraceMessage(TRACEHANDLE LoggerHandle, ULONG MessageFlags,
			  LPCGUID MessageGuid, USHORT MessageNumber, ...);
ULONG WMIAPI TraceMessageVa(TRACEHANDLE LoggerHandle, ULONG MessageFlags,
			    LPCGUID MessageGuid, USHORT MessageNumber,
			    va_list MessageArgList);

/*
 * Sessions. The A functions take char names, the W functions UTF-16 names;
 * without UNICODE the plain names are the A functions, as in Windows.
 * StartTrace copies SessionName to LoggerNameOffset (when that is non-zero)
 * and starts:
 *   - with EVENT_TRACE_PRIVATE_LOGGER_MODE (or PRIVATE_IN_PROC): the
 *     process's user-mode logger, whose buffers live in this process; one
 *     at a time (else ERROR_ALREADY_EXISTS), and a log file is required.
 *     Its handle has TRACE_USER_MODE_LOGGER_BIT set.
 *   - otherwise a kernel session; the handle is its 16-bit logger ID. With
 *     a log file name, a logger process is started that writes every
 *     buffer to the file; the file is complete when the stop returns.
 * ControlTrace(Handle or, when it is 0, SessionName) QUERY/STOP/UPDATE/FLUSH
 * fills in Properties (and the names, when their offsets are set and there
 * is room: else ERROR_MORE_DATA after doing the work).
 */
ULONG WMIAPI StartTraceA(PTRACEHANDLE SessionHandle, LPCSTR SessionName,
			 PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI StartTraceW(PTRACEHANDLE SessionHandle, LPCWSTR SessionName,
			 PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI ControlTraceA(TRACEHANDLE SessionHandle, LPCSTR SessionName,
			   PEVENT_TRACE_PROPERTIES Properties, ULONG ControlCode);
ULONG WMIAPI ControlTraceW(TRACEHANDLE SessionHandle, LPCWSTR SessionName,
			   PEVENT_TRACE_PROPERTIES Properties, ULONG ControlCode);
ULONG WMIAPI StopTraceA(TRACEHANDLE SessionHandle, LPCSTR SessionName,
			PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI StopTraceW(TRACEHANDLE SessionHandle, LPCWSTR SessionName,
			PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI QueryTraceA(TRACEHANDLE SessionHandle, LPCSTR SessionName,
			 PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI QueryTraceW(TRACEHANDLE SessionHandle, LPCWSTR SessionName,
			 PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI FlushTraceA(TRACEHANDLE SessionHandle, LPCSTR SessionName,
			 PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI FlushTraceW(TRACEHANDLE SessionHandle, LPCWSTR SessionName,
			 PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI UpdateTraceA(TRACEHANDLE SessionHandle, LPCSTR SessionName,
			  PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI UpdateTraceW(TRACEHANDLE SessionHandle, LPCWSTR SessionName,
			  PEVENT_TRACE_PROPERTIES Properties);

/* ---- Classic events: TraceEvent, TraceEventInstance (provider/event.c) ---- */

/* ---- Classic providers: RegisterTraceGuids (provider/register.c) ---- */

/* ---- Controllers: EnableTrace (controller/enable.c) ---- */

#ifdef UNICODE
#define StartTrace	StartTraceW
#define ControlTrace	ControlTraceW
#define StopTrace	StopTraceW
#define QueryTrace	QueryTraceW
#define FlushTrace	FlushTraceW
#define UpdateTrace	UpdateTraceW
#else
#define StartTrace	StartTraceA
#define ControlTrace	ControlTraceA
#define StopTrace	StopTraceA
#define QueryTrace	QueryTraceA
#define FlushTrace	FlushTraceA
#define UpdateTrace	UpdateTraceA
#endif

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_EVNTRACE_H */
