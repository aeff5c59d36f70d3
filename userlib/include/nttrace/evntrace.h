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
 * evntrace.h's names for the values the kernel's ABI has under the uapi's
 * NTTRACE_ prefix: message flags, log file modes, ControlTrace codes, the
 * enable callbacks' control codes.
 */
#define TRACE_MESSAGE_SEQUENCE			NTTRACE_TRACE_MESSAGE_SEQUENCE
#define TRACE_MESSAGE_GUID			NTTRACE_TRACE_MESSAGE_GUID
#define TRACE_MESSAGE_COMPONENTID		NTTRACE_TRACE_MESSAGE_COMPONENTID
#define TRACE_MESSAGE_TIMESTAMP			NTTRACE_TRACE_MESSAGE_TIMESTAMP
#define TRACE_MESSAGE_PERFORMANCE_TIMESTAMP	NTTRACE_TRACE_MESSAGE_PERFORMANCE_TIMESTAMP
#define TRACE_MESSAGE_SYSTEMINFO		NTTRACE_TRACE_MESSAGE_SYSTEMINFO
#define TRACE_MESSAGE_POINTER32			NTTRACE_TRACE_MESSAGE_POINTER32
#define TRACE_MESSAGE_POINTER64			NTTRACE_TRACE_MESSAGE_POINTER64
#define TRACE_MESSAGE_FLAG_MASK			NTTRACE_TRACE_MESSAGE_FLAG_MASK

#define EVENT_TRACE_FILE_MODE_NONE		NTTRACE_EVENT_TRACE_FILE_MODE_NONE
#define EVENT_TRACE_FILE_MODE_SEQUENTIAL	NTTRACE_EVENT_TRACE_FILE_MODE_SEQUENTIAL
#define EVENT_TRACE_FILE_MODE_CIRCULAR		NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR
#define EVENT_TRACE_FILE_MODE_APPEND		NTTRACE_EVENT_TRACE_FILE_MODE_APPEND
#define EVENT_TRACE_FILE_MODE_NEWFILE		NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE
#define EVENT_TRACE_FILE_MODE_PREALLOCATE	NTTRACE_EVENT_TRACE_FILE_MODE_PREALLOCATE
#define EVENT_TRACE_NONSTOPPABLE_MODE		NTTRACE_EVENT_TRACE_NONSTOPPABLE_MODE
#define EVENT_TRACE_SECURE_MODE			NTTRACE_EVENT_TRACE_SECURE_MODE
#define EVENT_TRACE_REAL_TIME_MODE		NTTRACE_EVENT_TRACE_REAL_TIME_MODE
#define EVENT_TRACE_DELAY_OPEN_FILE_MODE	NTTRACE_EVENT_TRACE_DELAY_OPEN_FILE_MODE
#define EVENT_TRACE_BUFFERING_MODE		NTTRACE_EVENT_TRACE_BUFFERING_MODE
#define EVENT_TRACE_PRIVATE_LOGGER_MODE		NTTRACE_EVENT_TRACE_PRIVATE_LOGGER_MODE
#define EVENT_TRACE_ADD_HEADER_MODE		NTTRACE_EVENT_TRACE_ADD_HEADER_MODE
#define EVENT_TRACE_USE_KBYTES_FOR_SIZE		NTTRACE_EVENT_TRACE_USE_KBYTES_FOR_SIZE
#define EVENT_TRACE_USE_GLOBAL_SEQUENCE		NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE
#define EVENT_TRACE_USE_LOCAL_SEQUENCE		NTTRACE_EVENT_TRACE_USE_LOCAL_SEQUENCE
#define EVENT_TRACE_RELOG_MODE			NTTRACE_EVENT_TRACE_RELOG_MODE
#define EVENT_TRACE_PRIVATE_IN_PROC		NTTRACE_EVENT_TRACE_PRIVATE_IN_PROC
#define EVENT_TRACE_USE_PAGED_MEMORY		NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY
#define EVENT_TRACE_SYSTEM_LOGGER_MODE		NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE
#define EVENT_TRACE_INDEPENDENT_SESSION_MODE	NTTRACE_EVENT_TRACE_INDEPENDENT_SESSION_MODE
#define EVENT_TRACE_COMPRESSED_MODE		NTTRACE_EVENT_TRACE_COMPRESSED_MODE
/*
 * One buffer for every CPU, events in the order they were written. The
 * in-process logger (PRIVATE_LOGGER_MODE) does it: every thread writes to
 * one stream of buffers, under one lock. A kernel session's rings are per
 * CPU, so StartTrace refuses the mode for one (ERROR_INVALID_PARAMETER),
 * as it does any mode it does not honour.
 */
#define EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING	0x10000000U

/*
 * The NT Kernel Logger and the system loggers (uapi/nttrace.h, "System
 * loggers"). KERNEL_LOGGER_NAMEW is a UTF-16 literal (char16_t, the
 * 16-bit WCHAR of this library); KERNEL_LOGGER_NAME follows UNICODE.
 */
#define KERNEL_LOGGER_NAMEA	NTTRACE_KERNEL_LOGGER_NAME
#define KERNEL_LOGGER_NAMEW	NTTRACE_WTEXT("NT Kernel Logger")
#ifdef UNICODE
#define KERNEL_LOGGER_NAME	KERNEL_LOGGER_NAMEW
#else
#define KERNEL_LOGGER_NAME	KERNEL_LOGGER_NAMEA
#endif
/* The NT Kernel Logger's handle (ntwmi.h's KERNEL_LOGGER_ID, phnt). */
#define KERNEL_LOGGER_ID	NTTRACE_KERNEL_LOGGER_ID

#define EVENT_TRACE_FLAG_PROCESS		NTTRACE_EVENT_TRACE_FLAG_PROCESS
#define EVENT_TRACE_FLAG_THREAD			NTTRACE_EVENT_TRACE_FLAG_THREAD
#define EVENT_TRACE_FLAG_IMAGE_LOAD		NTTRACE_EVENT_TRACE_FLAG_IMAGE_LOAD
#define EVENT_TRACE_FLAG_PROCESS_COUNTERS	NTTRACE_EVENT_TRACE_FLAG_PROCESS_COUNTERS
#define EVENT_TRACE_FLAG_CSWITCH		NTTRACE_EVENT_TRACE_FLAG_CSWITCH
#define EVENT_TRACE_FLAG_DPC			NTTRACE_EVENT_TRACE_FLAG_DPC
#define EVENT_TRACE_FLAG_INTERRUPT		NTTRACE_EVENT_TRACE_FLAG_INTERRUPT
#define EVENT_TRACE_FLAG_SYSTEMCALL		NTTRACE_EVENT_TRACE_FLAG_SYSTEMCALL
#define EVENT_TRACE_FLAG_DISK_IO		NTTRACE_EVENT_TRACE_FLAG_DISK_IO
#define EVENT_TRACE_FLAG_DISK_FILE_IO		NTTRACE_EVENT_TRACE_FLAG_DISK_FILE_IO
#define EVENT_TRACE_FLAG_DISK_IO_INIT		NTTRACE_EVENT_TRACE_FLAG_DISK_IO_INIT
#define EVENT_TRACE_FLAG_DISPATCHER		NTTRACE_EVENT_TRACE_FLAG_DISPATCHER
#define EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS	NTTRACE_EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS
#define EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS	NTTRACE_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS
#define EVENT_TRACE_FLAG_VIRTUAL_ALLOC		NTTRACE_EVENT_TRACE_FLAG_VIRTUAL_ALLOC
#define EVENT_TRACE_FLAG_VAMAP			NTTRACE_EVENT_TRACE_FLAG_VAMAP
#define EVENT_TRACE_FLAG_NETWORK_TCPIP		NTTRACE_EVENT_TRACE_FLAG_NETWORK_TCPIP
#define EVENT_TRACE_FLAG_REGISTRY		NTTRACE_EVENT_TRACE_FLAG_REGISTRY
#define EVENT_TRACE_FLAG_DBGPRINT		NTTRACE_EVENT_TRACE_FLAG_DBGPRINT
#define EVENT_TRACE_FLAG_JOB			NTTRACE_EVENT_TRACE_FLAG_JOB
#define EVENT_TRACE_FLAG_ALPC			NTTRACE_EVENT_TRACE_FLAG_ALPC
#define EVENT_TRACE_FLAG_SPLIT_IO		NTTRACE_EVENT_TRACE_FLAG_SPLIT_IO
#define EVENT_TRACE_FLAG_DEBUG_EVENTS		NTTRACE_EVENT_TRACE_FLAG_DEBUG_EVENTS
/*
 * Drivers' I/O request packets: Linux has no IRPs, so the module writes
 * no events of the group, and a system logger asking for it is refused
 * (ERROR_NOT_SUPPORTED: uapi/nttrace.h, "System loggers").
 */
#define EVENT_TRACE_FLAG_DRIVER			0x00800000U
#define EVENT_TRACE_FLAG_PROFILE		NTTRACE_EVENT_TRACE_FLAG_PROFILE
#define EVENT_TRACE_FLAG_FILE_IO		NTTRACE_EVENT_TRACE_FLAG_FILE_IO
#define EVENT_TRACE_FLAG_FILE_IO_INIT		NTTRACE_EVENT_TRACE_FLAG_FILE_IO_INIT
#define EVENT_TRACE_FLAG_NO_SYSCONFIG		NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG
/* Flags that change how EnableFlags is read (evntrace.h). */
#define EVENT_TRACE_FLAG_ENABLE_RESERVE		0x20000000U
#define EVENT_TRACE_FLAG_FORWARD_WMI		0x40000000U
#define EVENT_TRACE_FLAG_EXTENSION		0x80000000U

#define EVENT_TRACE_CONTROL_QUERY	NTTRACE_EVENT_TRACE_CONTROL_QUERY
#define EVENT_TRACE_CONTROL_STOP	NTTRACE_EVENT_TRACE_CONTROL_STOP
#define EVENT_TRACE_CONTROL_UPDATE	NTTRACE_EVENT_TRACE_CONTROL_UPDATE
#define EVENT_TRACE_CONTROL_FLUSH	NTTRACE_EVENT_TRACE_CONTROL_FLUSH

#define MAX_MOF_FIELDS	NTTRACE_MAX_MOF_FIELDS

#define EVENT_CONTROL_CODE_DISABLE_PROVIDER	NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER
#define EVENT_CONTROL_CODE_ENABLE_PROVIDER	NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER
#define EVENT_CONTROL_CODE_CAPTURE_STATE	NTTRACE_EVENT_CONTROL_CODE_CAPTURE_STATE

/*
 * The largest message TraceMessage takes: 0x30 bytes of MESSAGE_TRACE_USER
 * as ADVAPI32 builds it, plus the arguments. More fails with
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
 * Message tracing (TraceMessage, TraceMessageVa). MessageFlags are the TRACE_MESSAGE_* bits;
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
 *     buffer to the file (the nttrace tool: $NTTRACE_TOOL, else the
 *     installed one); the file is complete when the stop returns.
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

/*
 * EVENT_TRACE_HEADER.Class.Type: what the event marks (evntrace.h). A
 * provider may define its own values above these.
 */
#define EVENT_TRACE_TYPE_INFO		0x00
#define EVENT_TRACE_TYPE_START		0x01
#define EVENT_TRACE_TYPE_END		0x02
#define EVENT_TRACE_TYPE_STOP		0x02
#define EVENT_TRACE_TYPE_DC_START	0x03
#define EVENT_TRACE_TYPE_DC_END		0x04
#define EVENT_TRACE_TYPE_EXTENSION	0x05
#define EVENT_TRACE_TYPE_REPLY		0x06
#define EVENT_TRACE_TYPE_DEQUEUE	0x07
#define EVENT_TRACE_TYPE_RESUME		0x07
#define EVENT_TRACE_TYPE_CHECKPOINT	0x08
#define EVENT_TRACE_TYPE_SUSPEND	0x08
#define EVENT_TRACE_TYPE_WINEVT_SEND	0x09
#define EVENT_TRACE_TYPE_WINEVT_RECEIVE	0xF0
/*
 * The kernel's event classes' own types (evntrace.h: image load, disk
 * and file I/O, page faults, TCP/IP, the registry, system configuration,
 * ...): the Opcode of their events, as the NT Kernel Logger writes them.
 */
#define EVENT_TRACE_TYPE_LOAD		0x0A
#define EVENT_TRACE_TYPE_TERMINATE	0x0B
#define EVENT_TRACE_TYPE_IO_READ	0x0A
#define EVENT_TRACE_TYPE_IO_WRITE	0x0B
#define EVENT_TRACE_TYPE_IO_READ_INIT	0x0C
#define EVENT_TRACE_TYPE_IO_WRITE_INIT	0x0D
#define EVENT_TRACE_TYPE_IO_FLUSH	0x0E
#define EVENT_TRACE_TYPE_IO_FLUSH_INIT	0x0F
#define EVENT_TRACE_TYPE_MM_TF		0x0A
#define EVENT_TRACE_TYPE_MM_DZF		0x0B
#define EVENT_TRACE_TYPE_MM_COW		0x0C
#define EVENT_TRACE_TYPE_MM_GPF		0x0D
#define EVENT_TRACE_TYPE_MM_HPF		0x0E
#define EVENT_TRACE_TYPE_MM_AV		0x0F
#define EVENT_TRACE_TYPE_SEND		0x0A
#define EVENT_TRACE_TYPE_RECEIVE	0x0B
#define EVENT_TRACE_TYPE_CONNECT	0x0C
#define EVENT_TRACE_TYPE_DISCONNECT	0x0D
#define EVENT_TRACE_TYPE_RETRANSMIT	0x0E
#define EVENT_TRACE_TYPE_ACCEPT		0x0F
#define EVENT_TRACE_TYPE_RECONNECT	0x10
#define EVENT_TRACE_TYPE_CONNFAIL	0x11
#define EVENT_TRACE_TYPE_COPY_TCP	0x12
#define EVENT_TRACE_TYPE_COPY_ARP	0x13
#define EVENT_TRACE_TYPE_ACKFULL	0x14
#define EVENT_TRACE_TYPE_ACKPART	0x15
#define EVENT_TRACE_TYPE_ACKDUP		0x16
#define EVENT_TRACE_TYPE_GUIDMAP	0x0A
#define EVENT_TRACE_TYPE_CONFIG		0x0B
#define EVENT_TRACE_TYPE_SIDINFO	0x0C
#define EVENT_TRACE_TYPE_SECURITY	0x0D
#define EVENT_TRACE_TYPE_DBGID_RSDS	0x40
#define EVENT_TRACE_TYPE_REGCREATE	0x0A
#define EVENT_TRACE_TYPE_REGOPEN	0x0B
#define EVENT_TRACE_TYPE_REGDELETE	0x0C
#define EVENT_TRACE_TYPE_REGQUERY	0x0D
#define EVENT_TRACE_TYPE_REGSETVALUE	0x0E
#define EVENT_TRACE_TYPE_REGDELETEVALUE	0x0F
#define EVENT_TRACE_TYPE_REGQUERYVALUE	0x10
#define EVENT_TRACE_TYPE_REGENUMERATEKEY	0x11
#define EVENT_TRACE_TYPE_REGENUMERATEVALUEKEY	0x12
#define EVENT_TRACE_TYPE_REGQUERYMULTIPLEVALUE	0x13
#define EVENT_TRACE_TYPE_REGSETINFORMATION	0x14
#define EVENT_TRACE_TYPE_REGFLUSH	0x15
#define EVENT_TRACE_TYPE_REGKCBCREATE	0x16
#define EVENT_TRACE_TYPE_REGKCBDELETE	0x17
#define EVENT_TRACE_TYPE_REGKCBRUNDOWNBEGIN	0x18
#define EVENT_TRACE_TYPE_REGKCBRUNDOWNEND	0x19
#define EVENT_TRACE_TYPE_REGVIRTUALIZE	0x1A
#define EVENT_TRACE_TYPE_REGCLOSE	0x1B
#define EVENT_TRACE_TYPE_REGSETSECURITY	0x1C
#define EVENT_TRACE_TYPE_REGQUERYSECURITY	0x1D
#define EVENT_TRACE_TYPE_REGCOMMIT	0x1E
#define EVENT_TRACE_TYPE_REGPREPARE	0x1F
#define EVENT_TRACE_TYPE_REGROLLBACK	0x20
#define EVENT_TRACE_TYPE_REGMOUNTHIVE	0x21
#define EVENT_TRACE_TYPE_CONFIG_CPU	0x0A
#define EVENT_TRACE_TYPE_CONFIG_PHYSICALDISK	0x0B
#define EVENT_TRACE_TYPE_CONFIG_LOGICALDISK	0x0C
#define EVENT_TRACE_TYPE_CONFIG_NIC	0x0D
#define EVENT_TRACE_TYPE_CONFIG_VIDEO	0x0E
#define EVENT_TRACE_TYPE_CONFIG_SERVICES	0x0F
#define EVENT_TRACE_TYPE_CONFIG_POWER	0x10
#define EVENT_TRACE_TYPE_CONFIG_NETINFO	0x11
#define EVENT_TRACE_TYPE_CONFIG_OPTICALMEDIA	0x12
#define EVENT_TRACE_TYPE_CONFIG_IRQ	0x15
#define EVENT_TRACE_TYPE_CONFIG_PNP	0x16
#define EVENT_TRACE_TYPE_CONFIG_IDECHANNEL	0x17
#define EVENT_TRACE_TYPE_CONFIG_NUMANODE	0x18
#define EVENT_TRACE_TYPE_CONFIG_PLATFORM	0x19
#define EVENT_TRACE_TYPE_CONFIG_PROCESSORGROUP	0x1A
#define EVENT_TRACE_TYPE_CONFIG_PROCESSORNUMBER	0x1B
#define EVENT_TRACE_TYPE_CONFIG_DPI	0x1C
#define EVENT_TRACE_TYPE_CONFIG_CI_INFO	0x1D
#define EVENT_TRACE_TYPE_CONFIG_MACHINEID	0x1E
#define EVENT_TRACE_TYPE_CONFIG_DEFRAG	0x1F
#define EVENT_TRACE_TYPE_CONFIG_MOBILEPLATFORM	0x20
#define EVENT_TRACE_TYPE_CONFIG_DEVICEFAMILY	0x21
#define EVENT_TRACE_TYPE_CONFIG_FLIGHTID	0x22
#define EVENT_TRACE_TYPE_CONFIG_PROCESSOR	0x23
#define EVENT_TRACE_TYPE_OPTICAL_IO_READ	0x37
#define EVENT_TRACE_TYPE_OPTICAL_IO_WRITE	0x38
#define EVENT_TRACE_TYPE_OPTICAL_IO_FLUSH	0x39
#define EVENT_TRACE_TYPE_OPTICAL_IO_READ_INIT	0x3A
#define EVENT_TRACE_TYPE_OPTICAL_IO_WRITE_INIT	0x3B
#define EVENT_TRACE_TYPE_OPTICAL_IO_FLUSH_INIT	0x3C
#define EVENT_TRACE_TYPE_FLT_PREOP_INIT	0x60
#define EVENT_TRACE_TYPE_FLT_POSTOP_INIT	0x61
#define EVENT_TRACE_TYPE_FLT_PREOP_COMPLETION	0x62
#define EVENT_TRACE_TYPE_FLT_POSTOP_COMPLETION	0x63
#define EVENT_TRACE_TYPE_FLT_PREOP_FAILURE	0x64
#define EVENT_TRACE_TYPE_FLT_POSTOP_FAILURE	0x65

/*
 * The header of a TraceEvent event (0x30 bytes for 32- and 64-bit callers),
 * followed by its data, or with WNODE_FLAG_USE_MOF_PTR by an array of
 * MOF_FIELD (at most MAX_MOF_FIELDS) whose items are the data. The caller
 * sets Size (header and what follows it), Flags (WNODE_FLAG_TRACED_GUID,
 * and WNODE_FLAG_USE_GUID_PTR, WNODE_FLAG_USE_MOF_PTR,
 * WNODE_FLAG_USE_TIMESTAMP as needed), Guid or GuidPtr, and Class. The
 * logger fills in HeaderType, MarkerFlags, ThreadId, ProcessId, TimeStamp
 * (kept with WNODE_FLAG_USE_TIMESTAMP) in the record it writes, where
 * KernelTime and UserTime are zero (no per-thread CPU time is counted).
 */
typedef struct _EVENT_TRACE_HEADER {
	USHORT Size;
	union {
		USHORT FieldTypeFlags;
		struct {
			UCHAR HeaderType;
			UCHAR MarkerFlags;
		};
	};
	union {
		ULONG Version;	/* Class as one value: Type, Level, Version */
		struct {
			UCHAR Type;	/* EVENT_TRACE_TYPE_* or the provider's */
			UCHAR Level;
			USHORT Version;
		} Class;
	};
	ULONG ThreadId;
	ULONG ProcessId;
	LARGE_INTEGER TimeStamp;
	union {
		GUID Guid;		/* the event trace class */
		ULONGLONG GuidPtr;	/* with WNODE_FLAG_USE_GUID_PTR */
	};
	union {
		struct {
			ULONG KernelTime;
			ULONG UserTime;
		};
		ULONG64 ProcessorTime;
		struct {
			ULONG ClientContext;
			ULONG Flags;	/* WNODE_FLAG_* */
		};
	};
} EVENT_TRACE_HEADER, *PEVENT_TRACE_HEADER;

/*
 * The header of a TraceEventInstance event (0x38 bytes for 32- and 64-bit
 * callers), followed by its data or MOF_FIELD array as for
 * EVENT_TRACE_HEADER. The class and parent come from the EVENT_INSTANCE_INFO
 * arguments; RegHandle, InstanceId, ParentInstanceId and ParentRegHandle
 * here are not read (the arguments win, as the documentation has callers
 * pass the same values in both).
 */
typedef struct _EVENT_INSTANCE_HEADER {
	USHORT Size;
	union {
		USHORT FieldTypeFlags;
		struct {
			UCHAR HeaderType;
			UCHAR MarkerFlags;
		};
	};
	union {
		ULONG Version;
		struct {
			UCHAR Type;
			UCHAR Level;
			USHORT Version;
		} Class;
	};
	ULONG ThreadId;
	ULONG ProcessId;
	LARGE_INTEGER TimeStamp;
	ULONGLONG RegHandle;
	ULONG InstanceId;
	ULONG ParentInstanceId;
	union {
		struct {
			ULONG KernelTime;
			ULONG UserTime;
		};
		ULONG64 ProcessorTime;
		struct {
			ULONG EventId;
			ULONG Flags;	/* WNODE_FLAG_* */
		};
	};
	ULONGLONG ParentRegHandle;
} EVENT_INSTANCE_HEADER, *PEVENT_INSTANCE_HEADER;

/* A class registration (RegisterTraceGuids' RegHandle) and an instance. */
typedef struct EVENT_INSTANCE_INFO {
	HANDLE RegHandle;
	ULONG InstanceId;
} EVENT_INSTANCE_INFO, *PEVENT_INSTANCE_INFO;

/* One item of event data, with WNODE_FLAG_USE_MOF_PTR (16 bytes). */
typedef struct _MOF_FIELD {
	ULONG64 DataPtr;	/* the item's address */
	ULONG Length;		/* its bytes */
	ULONG DataType;		/* reserved: not read */
} MOF_FIELD, *PMOF_FIELD;

#define DEFINE_TRACE_MOF_FIELD(M, P, LEN, TYP) \
	((M)->DataPtr = (ULONG64)(ULONG_PTR)(P), (M)->Length = (ULONG)(LEN), \
	 (M)->DataType = (ULONG)(TYP))

/*
 * TraceEvent: one event to the session TraceHandle names (a logger handle
 * as GetTraceLoggerHandle gives it: the low 16 bits are the logger ID), or
 * to the process's user-mode logger (TRACE_USER_MODE_LOGGER_BIT), which
 * writes the same record without a system call. Returns ERROR_SUCCESS, or:
 *   ERROR_INVALID_PARAMETER    TraceHandle 0, EventTrace NULL, Size below
 *                              0x30, or with WNODE_FLAG_USE_MOF_PTR more
 *                              than MAX_MOF_FIELDS items
 *   ERROR_INVALID_HANDLE       logger 0 or 0xFFFF (the NT Kernel Logger),
 *                              a session or user-mode logger not running
 *   ERROR_INVALID_FLAG_NUMBER  Flags without WNODE_FLAG_TRACED_GUID
 *   ERROR_NOACCESS             EventTrace, GuidPtr, the MOF_FIELD array or
 *                              an item unreadable
 *   ERROR_MORE_DATA            the record (0x30 + data) is over 0xFFFF
 *                              bytes or does not fit in one buffer
 *   ERROR_NOT_ENOUGH_MEMORY    no free buffer: the event is counted lost
 *   ERROR_ACCESS_DENIED        a secure session the caller may not write
 *   ERROR_NOT_SUPPORTED        /dev/nttrace missing (module not loaded)
 * ERROR_OUTOFMEMORY, which Windows gives when it cannot grow a session's
 * buffer pool, is never returned: buffers are allocated when the session
 * starts. Nothing is allocated per event. The error is also the thread's
 * last error.
 */
ULONG WMIAPI TraceEvent(TRACEHANDLE TraceHandle, PEVENT_TRACE_HEADER EventTrace);

/*
 * TraceEventInstance: as TraceEvent, an instance event: the record is an
 * EVENT_INSTANCE_GUID_HEADER (0x48 bytes) whose Guid is the class of
 * InstInfo->RegHandle and InstanceId InstInfo->InstanceId, with
 * ParentInstInfo (may be NULL) its parent's GUID and instance ID. Returns
 * ERROR_SUCCESS, or:
 *   ERROR_INVALID_PARAMETER    TraceHandle 0, EventTrace or InstInfo NULL,
 *                              InstInfo->RegHandle or
 *                              ParentInstInfo->RegHandle NULL, Size below
 *                              0x38, more than MAX_MOF_FIELDS items
 *   ERROR_INVALID_FLAGS        Flags without WNODE_FLAG_TRACED_GUID
 *   ERROR_INVALID_HANDLE       logger 0 or 0xFFFF, a session or user-mode
 *                              logger not running, or a RegHandle that is
 *                              not a registered class (RegisterTraceGuids)
 *   ERROR_NOACCESS             EventTrace, InstInfo, ParentInstInfo, the
 *                              MOF_FIELD array or an item unreadable
 *   ERROR_MORE_DATA, ERROR_NOT_ENOUGH_MEMORY, ERROR_ACCESS_DENIED,
 *   ERROR_NOT_SUPPORTED        as for TraceEvent (the record is 0x48 + data)
 * The caller's data is not copied before it reaches the logger.
 */
ULONG WMIAPI TraceEventInstance(TRACEHANDLE TraceHandle,
				PEVENT_INSTANCE_HEADER EventTrace,
				PEVENT_INSTANCE_INFO InstInfo,
				PEVENT_INSTANCE_INFO ParentInstInfo);

/*
 * CreateTraceInstanceId: the next instance ID of a registered class (a
 * counter per class in this process, from 1, starting over at 1 after
 * 0xFFFFFFFF) into InstInfo->InstanceId, and RegHandle into
 * InstInfo->RegHandle. Returns ERROR_SUCCESS, or:
 *   ERROR_INVALID_PARAMETER    RegHandle or InstInfo NULL
 *   ERROR_INVALID_HANDLE       RegHandle not a registered class
 *   ERROR_NOACCESS             InstInfo not writable
 */
ULONG WMIAPI CreateTraceInstanceId(HANDLE RegHandle, PEVENT_INSTANCE_INFO InstInfo);

/* ---- Classic providers: RegisterTraceGuids (provider/register.c) ---- */

/*
 * A classic provider's ControlCallback: RequestCode WMI_ENABLE_EVENTS (an
 * enable, or new flags or level) or WMI_DISABLE_EVENTS; Buffer points to a
 * WNODE_HEADER whose HistoricalContext is the logger handle (pass it to
 * GetTraceLoggerHandle); *BufferSize is its size. The return value is
 * ignored except for an enable made before the provider registered: that
 * callback runs inside RegisterTraceGuids, which returns its value.
 */
typedef ULONG (WINAPI *WMIDPREQUEST)(WMIDPREQUESTCODE RequestCode,
				     PVOID RequestContext, ULONG *BufferSize,
				     PVOID Buffer);

/* An event class of a registration: Guid in, RegHandle out. */
typedef struct _TRACE_GUID_REGISTRATION {
	LPCGUID Guid;
	HANDLE RegHandle;	/* for EVENT_INSTANCE_HEADER.RegHandle */
} TRACE_GUID_REGISTRATION, *PTRACE_GUID_REGISTRATION;

/*
 * RegisterTraceGuids registers the provider ControlGuid (anyone may); its
 * callback runs on a thread of the library, or on the caller's thread
 * for an enable made before (see WMIDPREQUEST). TraceGuidReg may be NULL
 * when GuidCount is 0; each element's RegHandle is set, valid until
 * UnregisterTraceGuids. The MOF names are ignored (as on Windows).
 * Returns ERROR_SUCCESS (or the callback's value, above), or:
 *   ERROR_INVALID_PARAMETER    RequestAddress, ControlGuid or
 *                              RegistrationHandle NULL; GuidCount with no
 *                              TraceGuidReg; an element's Guid NULL
 *   ERROR_NOT_ENOUGH_MEMORY    no memory for the registration
 *   ERROR_NO_SYSTEM_RESOURCES  too many registrations: this process's
 *                              (NTTRACE_MAX_REGISTRATIONS) or this user's
 *                              (the module's max_user_registrations)
 *   ERROR_SERVICE_NOT_ACTIVE   /dev/nttrace missing (module not loaded)
 * UnregisterTraceGuids: ERROR_SUCCESS, or ERROR_INVALID_HANDLE (not a
 * registration of this process, or already unregistered). It waits for a
 * callback of the registration running on another thread; from inside its
 * own callback it returns at once.
 * In a child of fork the parent's registrations are disabled copies that
 * receive nothing; UnregisterTraceGuids frees them.
 */
ULONG WMIAPI RegisterTraceGuidsA(WMIDPREQUEST RequestAddress,
				 PVOID RequestContext, LPCGUID ControlGuid,
				 ULONG GuidCount,
				 PTRACE_GUID_REGISTRATION TraceGuidReg,
				 LPCSTR MofImagePath, LPCSTR MofResourceName,
				 PTRACEHANDLE RegistrationHandle);
ULONG WMIAPI RegisterTraceGuidsW(WMIDPREQUEST RequestAddress,
				 PVOID RequestContext, LPCGUID ControlGuid,
				 ULONG GuidCount,
				 PTRACE_GUID_REGISTRATION TraceGuidReg,
				 LPCWSTR MofImagePath, LPCWSTR MofResourceName,
				 PTRACEHANDLE RegistrationHandle);
ULONG WMIAPI UnregisterTraceGuids(TRACEHANDLE RegistrationHandle);

/*
 * From the callback's Buffer: the logger handle (TRACE_ENABLE_CONTEXT:
 * logger ID, level, flags), for TraceEvent and the two below. No system
 * call. Fails with (TRACEHANDLE)INVALID_HANDLE_VALUE (all ones) and the
 * last error ERROR_INVALID_PARAMETER (Buffer NULL) or ERROR_INVALID_HANDLE
 * (logger 0 or 0xFFFF).
 */
TRACEHANDLE WMIAPI GetTraceLoggerHandle(PVOID Buffer);
/*
 * The EnableFlag and EnableLevel of EnableTrace, from the handle, with no
 * system call. On a bad handle (logger 0 or 0xFFFF) 0 and the last error
 * ERROR_INVALID_HANDLE; on success the last error is left as it was, so
 * that a caller may clear it first to tell a 0 apart, as Microsoft's
 * documentation says.
 */
ULONG WMIAPI GetTraceEnableFlags(TRACEHANDLE TraceHandle);
UCHAR WMIAPI GetTraceEnableLevel(TRACEHANDLE TraceHandle);

/*
 * nttrace's own: whether a registration is enabled, read from the enable
 * info the kernel keeps in this process (no system call): *Info as the
 * uapi's struct nttrace_enable_info (sessions, logger_handle: the session
 * a classic provider writes to, level, keywords), and *PrivateHandle
 * (may be NULL) the user-mode logger's enable of it (0: none). Returns
 * ERROR_SUCCESS or ERROR_INVALID_HANDLE.
 */
ULONG nttrace_trace_guids_enabled(TRACEHANDLE RegistrationHandle,
				  struct nttrace_enable_info *Info,
				  TRACEHANDLE *PrivateHandle);

#ifdef UNICODE
#define RegisterTraceGuids	RegisterTraceGuidsW
#else
#define RegisterTraceGuids	RegisterTraceGuidsA
#endif

/* ---- Controllers: EnableTrace (controller/enable.c) ---- */

#ifndef TRACE_LEVEL_NONE
#define TRACE_LEVEL_NONE		0
#define TRACE_LEVEL_CRITICAL		1
#define TRACE_LEVEL_FATAL		1
#define TRACE_LEVEL_ERROR		2
#define TRACE_LEVEL_WARNING		3
#define TRACE_LEVEL_INFORMATION		4
#define TRACE_LEVEL_VERBOSE		5
#endif

/*
 * EnableTrace enables (Enable non-zero) or disables the provider
 * ControlGuid for the session SessionHandle, whether or not the provider
 * has registered yet: one that registers later is enabled then. Enabling
 * again changes the flags and level. The providers' callbacks get
 * WMI_ENABLE_EVENTS (WMI_DISABLE_EVENTS) with the logger handle
 * (SessionHandle's logger ID, EnableLevel, EnableFlag); EnableFlag is
 * also the enable's MatchAnyKeyword. A classic provider writes to one
 * session: the one that enabled it last (and, when that one disables it,
 * the latest still enabling it). The enable lasts until disabled or until
 * the session stops (which disables the provider), whatever becomes of the
 * calling process.
 * With the user-mode logger's handle (TRACE_USER_MODE_LOGGER_BIT) only
 * this process's registrations of ControlGuid are enabled, without a
 * system call; their callbacks' handles have NTTRACE_TRACE_ENABLE_INTERNAL_PRIVATE.
 * Returns ERROR_SUCCESS, or:
 *   ERROR_INVALID_PARAMETER    ControlGuid NULL, SessionHandle 0,
 *                              EnableLevel above 255
 *   ERROR_INVALID_HANDLE       SessionHandle is no running session (nor the
 *                              running user-mode logger of this process)
 *   ERROR_ACCESS_DENIED        the caller may not control sessions (the
 *                              permission model: CAP_PERFMON, CAP_SYS_ADMIN
 *                              or the module's control_gid)
 *   ERROR_NO_SYSTEM_RESOURCES  the session already enables
 *                              NTTRACE_MAX_ENABLES providers
 *   ERROR_WMI_GUID_NOT_FOUND   disabling a provider the session does not
 *                              enable
 *   ERROR_NOT_ENOUGH_MEMORY    no memory
 *   ERROR_SERVICE_NOT_ACTIVE   /dev/nttrace missing (module not loaded)
 */
ULONG WMIAPI EnableTrace(ULONG Enable, ULONG EnableFlag, ULONG EnableLevel,
			 LPCGUID ControlGuid, TRACEHANDLE SessionHandle);

/* ---- Controllers: EnableTraceEx2 (controller/enable.c) ---- */

/* EVENT_CONTROL_CODE_* come from the uapi (<nttrace/uapi.h>): 0, 1, 2. */

#ifndef DEFINED_PEVENT_FILTER_DESC
#define DEFINED_PEVENT_FILTER_DESC
typedef struct _EVENT_FILTER_DESCRIPTOR {
	ULONGLONG Ptr;
	ULONG Size;
	ULONG Type;
} EVENT_FILTER_DESCRIPTOR, *PEVENT_FILTER_DESCRIPTOR;
#endif

#define ENABLE_TRACE_PARAMETERS_VERSION		1
#define ENABLE_TRACE_PARAMETERS_VERSION_2	2

/* ENABLE_TRACE_PARAMETERS.EnableProperty (and EnableTraceEx's), SDK values. */
#define EVENT_ENABLE_PROPERTY_SID			0x00000001
#define EVENT_ENABLE_PROPERTY_TS_ID			0x00000002
#define EVENT_ENABLE_PROPERTY_STACK_TRACE		0x00000004
#define EVENT_ENABLE_PROPERTY_PSM_KEY			0x00000008
#define EVENT_ENABLE_PROPERTY_IGNORE_KEYWORD_0		0x00000010
#define EVENT_ENABLE_PROPERTY_PROVIDER_GROUP		0x00000020
#define EVENT_ENABLE_PROPERTY_ENABLE_KEYWORD_0		0x00000040
#define EVENT_ENABLE_PROPERTY_PROCESS_START_KEY		0x00000080
#define EVENT_ENABLE_PROPERTY_EVENT_KEY			0x00000100
#define EVENT_ENABLE_PROPERTY_EXCLUDE_INPRIVATE		0x00000200
#define EVENT_ENABLE_PROPERTY_ENABLE_SILOS		0x00000400
#define EVENT_ENABLE_PROPERTY_SOURCE_CONTAINER_TRACKING	0x00000800

typedef struct _ENABLE_TRACE_PARAMETERS_V1 {
	ULONG Version;
	ULONG EnableProperty;
	ULONG ControlFlags;
	GUID SourceId;
	PEVENT_FILTER_DESCRIPTOR EnableFilterDesc;
} ENABLE_TRACE_PARAMETERS_V1, *PENABLE_TRACE_PARAMETERS_V1;

typedef struct _ENABLE_TRACE_PARAMETERS {
	ULONG Version;		/* ENABLE_TRACE_PARAMETERS_VERSION or _2 */
	ULONG EnableProperty;	/* EVENT_ENABLE_PROPERTY_* */
	ULONG ControlFlags;	/* reserved: 0 */
	GUID SourceId;
	PEVENT_FILTER_DESCRIPTOR EnableFilterDesc;
	ULONG FilterDescCount;	/* version 2 */
} ENABLE_TRACE_PARAMETERS, *PENABLE_TRACE_PARAMETERS;

/*
 * EnableTraceEx2 enables (EVENT_CONTROL_CODE_ENABLE_PROVIDER), disables
 * (DISABLE_PROVIDER) or asks for the state of (CAPTURE_STATE) the provider
 * ProviderId for the session TraceHandle, with the session's own Level,
 * MatchAnyKeyword and MatchAllKeyword (a session enabling it again
 * replaces them; each session keeps its own). Enabling a provider that has
 * not registered succeeds: it is enabled when it registers. A classic
 * provider sees the low 32 bits of MatchAnyKeyword as its enable flags.
 * The call completes before it returns (Timeout is not needed and is
 * ignored); the enable lasts until disabled or until the session stops.
 * With the user-mode logger's handle (TRACE_USER_MODE_LOGGER_BIT), only this
 * process's registrations of ProviderId, with no system call.
 * EnableParameters (may be NULL): Version 1 or 2; SourceId is passed to
 * the callbacks of the user-mode logger's enables (a kernel session's
 * enable does not carry it: GUID_NULL); EnableProperty 0,
 * EVENT_ENABLE_PROPERTY_ENABLE_KEYWORD_0 (events of keyword 0 are always
 * delivered here) and, for a kernel session,
 * EVENT_ENABLE_PROPERTY_STACK_TRACE (each EventWrite record the session
 * gets carries the writer's call stack: an EVENT_HEADER_EXT_TYPE_STACK_TRACE64
 * item, or _STACK_TRACE32 from a 32-bit process); ControlFlags 0. Filters (EnableFilterDesc,
 * FilterDescCount): EVENT_FILTER_TYPE_EVENT_ID for any session;
 * EVENT_FILTER_TYPE_EVENT_NAME and EVENT_FILTER_TYPE_PAYLOAD
 * (TdhAggregatePayloadFilters') for the user-mode logger only; each
 * ENABLE replaces the session's filters of the provider.
 * Returns ERROR_SUCCESS, or:
 *   ERROR_INVALID_PARAMETER    ProviderId NULL, TraceHandle 0, an unknown
 *                              ControlCode; EnableParameters with another
 *                              Version or non-zero ControlFlags; a
 *                              malformed filter (userlib/provider/
 *                              evfilter.c), a filter Type twice, more
 *                              than MAX_EVENT_FILTERS_COUNT
 *   ERROR_NOT_SUPPORTED        EnableParameters with any other
 *                              EnableProperty bit (STACK_TRACE for the
 *                              user-mode logger); another filter Type;
 *                              an event-name or payload filter for a
 *                              kernel session
 *   ERROR_NOACCESS             a filter's memory unreadable
 *   ERROR_INVALID_HANDLE       TraceHandle is no running session (nor the
 *                              running user-mode logger of this process)
 *   ERROR_ACCESS_DENIED        the caller may not control sessions
 *   ERROR_NO_SYSTEM_RESOURCES  the session already enables
 *                              NTTRACE_MAX_ENABLES providers
 *   ERROR_WMI_GUID_NOT_FOUND   DISABLE_PROVIDER or CAPTURE_STATE of a
 *                              provider the session does not enable
 *   ERROR_NOT_ENOUGH_MEMORY    no memory
 *   ERROR_SERVICE_NOT_ACTIVE   /dev/nttrace missing (module not loaded)
 */
ULONG WMIAPI EnableTraceEx2(TRACEHANDLE TraceHandle, LPCGUID ProviderId, ULONG ControlCode,
			    UCHAR Level, ULONGLONG MatchAnyKeyword,
			    ULONGLONG MatchAllKeyword, ULONG Timeout,
			    PENABLE_TRACE_PARAMETERS EnableParameters);

/*
 * EnableTraceEx: EnableTraceEx2 with IsEnabled as its ControlCode, and
 * SourceId (may be NULL), EnableProperty and EnableFilterDesc as
 * ENABLE_TRACE_PARAMETERS would carry them. Its errors; ProviderId NULL
 * is ERROR_INVALID_PARAMETER.
 */
ULONG WMIAPI EnableTraceEx(LPCGUID ProviderId, LPCGUID SourceId, TRACEHANDLE TraceHandle,
			   ULONG IsEnabled, UCHAR Level, ULONGLONG MatchAnyKeyword,
			   ULONGLONG MatchAllKeyword, ULONG EnableProperty,
			   PEVENT_FILTER_DESCRIPTOR EnableFilterDesc);

/* ---- Controllers: QueryAllTraces (controller/queryall.c) ---- */

/*
 * QueryAllTraces: every running kernel session, in logger-ID order, into
 * the structures PropertyArray points to, each filled as
 * ControlTrace(EVENT_TRACE_CONTROL_QUERY) fills one: properties, counters,
 * Wnode.HistoricalContext the session's handle, its name at
 * LoggerNameOffset (when set; char for A, UTF-16 for W), the string at
 * LogFileNameOffset left as it is (the kernel keeps no file name). Set
 * Wnode.BufferSize and the offsets, the rest 0, as Microsoft documents.
 * The user-mode logger, a private session, is not listed (nor on Windows).
 * Who sees what: anyone who may open /dev/nttrace may query any session
 * (README, "Who may do what"), so every caller sees every session.
 * *LoggerCount: the sessions written; with ERROR_MORE_DATA because there
 * are more than PropertyArrayCount, how many there are. Every element is
 * checked before any is written. Returns ERROR_SUCCESS, or:
 *   ERROR_INVALID_PARAMETER    PropertyArray or LoggerCount NULL,
 *                              PropertyArrayCount 0 or above
 *                              MAXIMUM_LOGGERS, an element NULL or with a
 *                              name offset inside the fixed part or past
 *                              its Wnode.BufferSize
 *   ERROR_BAD_LENGTH           an element's Wnode.BufferSize below
 *                              sizeof(EVENT_TRACE_PROPERTIES)
 *   ERROR_MORE_DATA            more sessions than PropertyArrayCount (the
 *                              first PropertyArrayCount are written), or a
 *                              name that did not fit (the rest written)
 *   ERROR_SERVICE_NOT_ACTIVE   /dev/nttrace missing (module not loaded)
 */
/*
 * Spelled as the number, not as NTTRACE_MAX_LOGGERS (which it equals:
 * queryall.c checks), so that a Windows program's own identical
 * definition (tracelog.c has one) is no redefinition.
 */
#define MAXIMUM_LOGGERS		64
ULONG WMIAPI QueryAllTracesA(PEVENT_TRACE_PROPERTIES *PropertyArray, ULONG PropertyArrayCount,
			     PULONG LoggerCount);
ULONG WMIAPI QueryAllTracesW(PEVENT_TRACE_PROPERTIES *PropertyArray, ULONG PropertyArrayCount,
			     PULONG LoggerCount);

/* ---- Controllers: the providers (controller/guids.c) ---- */

/* One registered provider, as EnumerateTraceGuids returns it (36 bytes). */
typedef struct _TRACE_GUID_PROPERTIES {
	GUID Guid;		/* its control GUID */
	ULONG GuidType;		/* not used: 0 */
	ULONG LoggerId;		/* with IsEnable: the session it writes to */
	ULONG EnableLevel;	/* that session's enable */
	ULONG EnableFlags;
	BOOLEAN IsEnable;	/* FALSE: the three above are 0 */
} TRACE_GUID_PROPERTIES, *PTRACE_GUID_PROPERTIES;

/*
 * EnumerateTraceGuids: one TRACE_GUID_PROPERTIES per provider GUID that
 * some process registered (RegisterTraceGuids or EventRegister; anyone may
 * read the module's list of them), in GUID byte order, into the
 * structures GuidPropertiesArray points to. With IsEnable, LoggerId is
 * the session a classic provider of the GUID writes to (the latest enable
 * still standing), EnableLevel and EnableFlags its enable. A GUID that
 * sessions enable but nobody registered is not listed (Microsoft: the
 * providers that registered); EnumerateTraceGuidsEx's TraceGuidQueryList
 * lists it. Neither lists the user-mode logger's enables, which only its
 * process knows. *GuidCount: the GUIDs written; with ERROR_MORE_DATA, how
 * many there are. Returns ERROR_SUCCESS, or:
 *   ERROR_INVALID_PARAMETER    GuidPropertiesArray or GuidCount NULL,
 *                              PropertyArrayCount 0, an element NULL
 *   ERROR_MORE_DATA            more GUIDs than PropertyArrayCount (the
 *                              first PropertyArrayCount are written)
 *   ERROR_NOT_ENOUGH_MEMORY    no memory
 *   ERROR_SERVICE_NOT_ACTIVE   /dev/nttrace missing (module not loaded)
 */
ULONG WMIAPI EnumerateTraceGuids(PTRACE_GUID_PROPERTIES *GuidPropertiesArray,
				 ULONG PropertyArrayCount, PULONG GuidCount);

/*
 * The classes of EnumerateTraceGuidsEx, TraceQueryInformation and
 * TraceSetInformation, with the current SDK's values (15 was
 * TraceCompressionInfo in older SDKs). Which class each function takes,
 * and what it does here, is said at each function.
 */
typedef enum _TRACE_QUERY_INFO_CLASS {
	TraceGuidQueryList = 0,
	TraceGuidQueryInfo = 1,
	TraceGuidQueryProcess = 2,
	TraceStackTracingInfo = 3,
	TraceSystemTraceEnableFlagsInfo = 4,
	TraceSampledProfileIntervalInfo = 5,
	TraceProfileSourceConfigInfo = 6,
	TraceProfileSourceListInfo = 7,
	TracePmcEventListInfo = 8,
	TracePmcCounterListInfo = 9,
	TraceSetDisallowList = 10,
	TraceVersionInfo = 11,
	TraceGroupQueryList = 12,
	TraceGroupQueryInfo = 13,
	TraceDisallowListQuery = 14,
	TraceInfoReserved15 = 15,
	TracePeriodicCaptureStateListInfo = 16,
	TracePeriodicCaptureStateInfo = 17,
	TraceProviderBinaryTracking = 18,
	TraceMaxLoggersQuery = 19,
	TraceLbrConfigurationInfo = 20,
	TraceLbrEventListInfo = 21,
	TraceMaxPmcCounterQuery = 22,
	TraceStreamCount = 23,
	TraceStackCachingInfo = 24,
	TracePmcCounterOwners = 25,
	TraceUnifiedStackCachingInfo = 26,
	TracePmcSessionInformation = 27,
	TraceContextRegisterInfo = 28,
	MaxTraceSetInfoClass = 29
} TRACE_QUERY_INFO_CLASS, TRACE_INFO_CLASS;
#define TraceCompressionInfo	TraceInfoReserved15

/*
 * TraceGuidQueryInfo's answer: a TRACE_GUID_INFO, then InstanceCount
 * blocks, each a TRACE_PROVIDER_INSTANCE_INFO followed by EnableCount
 * TRACE_ENABLE_INFO; NextOffset leads from a block's start to the next
 * (0 in the last).
 */
#define TRACE_PROVIDER_FLAG_LEGACY	0x00000001	/* RegisterTraceGuids */
#define TRACE_PROVIDER_FLAG_PRE_ENABLE	0x00000002	/* enabled, not registered */

typedef struct _TRACE_ENABLE_INFO {
	ULONG IsEnabled;
	UCHAR Level;
	UCHAR Reserved1;
	USHORT LoggerId;
	ULONG EnableProperty;	/* EVENT_ENABLE_PROPERTY_* */
	ULONG Reserved2;
	ULONGLONG MatchAnyKeyword;
	ULONGLONG MatchAllKeyword;
} TRACE_ENABLE_INFO, *PTRACE_ENABLE_INFO;

typedef struct _TRACE_PROVIDER_INSTANCE_INFO {
	ULONG NextOffset;
	ULONG EnableCount;
	ULONG Pid;		/* the registering process */
	ULONG Flags;		/* TRACE_PROVIDER_FLAG_* */
} TRACE_PROVIDER_INSTANCE_INFO, *PTRACE_PROVIDER_INSTANCE_INFO;

typedef struct _TRACE_GUID_INFO {
	ULONG InstanceCount;
	ULONG Reserved;
} TRACE_GUID_INFO, *PTRACE_GUID_INFO;

/* The data of classes nttrace does not serve, for programs that name them. */
typedef struct _CLASSIC_EVENT_ID {
	GUID EventGuid;
	UCHAR Type;
	UCHAR Reserved[7];
} CLASSIC_EVENT_ID, *PCLASSIC_EVENT_ID;

typedef struct _TRACE_PROFILE_INTERVAL {
	ULONG Source;
	ULONG Interval;
} TRACE_PROFILE_INTERVAL, *PTRACE_PROFILE_INTERVAL;

/* TraceProfileSourceListInfo's entries, chained by NextEntryOffset (0: the last). */
typedef struct _PROFILE_SOURCE_INFO {
	ULONG NextEntryOffset;
	ULONG Source;
	ULONG MinInterval;
	ULONG MaxInterval;
	ULONG64 Reserved;
	WCHAR Description[ANYSIZE_ARRAY];
} PROFILE_SOURCE_INFO, *PPROFILE_SOURCE_INFO;

typedef struct _TRACE_VERSION_INFO {
	ULONG EtwTraceProcessingVersion;
	ULONG Reserved;
} TRACE_VERSION_INFO, *PTRACE_VERSION_INFO;

typedef struct _TRACE_PERIODIC_CAPTURE_STATE_INFO {
	ULONG CaptureStateFrequencyInSeconds;
	USHORT ProviderCount;
	USHORT Reserved;
} TRACE_PERIODIC_CAPTURE_STATE_INFO, *PTRACE_PERIODIC_CAPTURE_STATE_INFO;

/*
 * EnumerateTraceGuidsEx: what TraceQueryInfoClass asks, into OutBuffer:
 *   TraceGuidQueryList     the GUIDs the module knows, registered or only
 *                          enabled (their TraceGuidQueryInfo says
 *                          TRACE_PROVIDER_FLAG_PRE_ENABLE), as a GUID array
 *                          in GUID byte order
 *   TraceGuidQueryInfo     InBuffer one GUID (InBufferSize sizeof(GUID)):
 *                          a block per registration (Pid as this process's
 *                          PID namespace sees it, 0 when not visible;
 *                          TRACE_PROVIDER_FLAG_LEGACY for RegisterTraceGuids),
 *                          each with one TRACE_ENABLE_INFO per session
 *                          enabling the GUID (nttrace's enables are the
 *                          GUID's: every registration has the same ones;
 *                          EnableProperty EVENT_ENABLE_PROPERTY_STACK_TRACE
 *                          or 0, the one property kept); a
 *                          GUID only enabled: one PRE_ENABLE block of Pid 0
 *   TraceGuidQueryProcess  the GUIDs this process registered, each once
 *   TraceMaxLoggersQuery   a ULONG: MAXIMUM_LOGGERS, the sessions the module
 *                          can run at once (no module needed)
 *   TraceGroupQueryList    no provider group is ever active here (group
 *                          enables are not supported): an empty list
 *   TraceGroupQueryInfo    InBuffer a GUID: ERROR_WMI_GUID_NOT_FOUND
 * Every other class is ERROR_NOT_SUPPORTED (a session's setting, or an
 * enumeration of something nttrace does not have); one at or above
 * MaxTraceSetInfoClass ERROR_INVALID_PARAMETER. InBuffer is read only for
 * the *QueryInfo classes. *ReturnLength: the bytes written, or, with
 * ERROR_INSUFFICIENT_BUFFER, the bytes needed (nothing is written then):
 * an OutBufferSize of 0 asks for the size. Returns ERROR_SUCCESS, or:
 *   ERROR_INVALID_PARAMETER    ReturnLength NULL; OutBuffer NULL with an
 *                              OutBufferSize; a *QueryInfo class without
 *                              a GUID in InBuffer
 *   ERROR_INSUFFICIENT_BUFFER  OutBufferSize too small
 *   ERROR_WMI_GUID_NOT_FOUND   TraceGuidQueryInfo of a GUID the module does
 *                              not know (neither registered nor enabled)
 *   ERROR_NOT_ENOUGH_MEMORY    no memory
 *   ERROR_SERVICE_NOT_ACTIVE   /dev/nttrace missing (module not loaded)
 */
ULONG WMIAPI EnumerateTraceGuidsEx(TRACE_QUERY_INFO_CLASS TraceQueryInfoClass, PVOID InBuffer,
				   ULONG InBufferSize, PVOID OutBuffer, ULONG OutBufferSize,
				   PULONG ReturnLength);

/* ---- Controllers: a session's settings (controller/traceinfo.c) ---- */

/*
 * TraceQueryInformation: the setting InformationClass of the session
 * SessionHandle (a kernel session's, or this process's user-mode
 * logger's), into TraceInformation:
 *   TraceStreamCount       a ULONG: the session's streams of buffers, one
 *                          per possible CPU (a kernel session) or per
 *                          writer slot (the user-mode logger's 64)
 *   TraceStackTracingInfo  the CLASSIC_EVENT_IDs whose events carry stacks:
 *                          none (nttrace records no stacks), 0 bytes
 *   TraceSystemTraceEnableFlagsInfo  a system logger's eight group-mask
 *                          ULONGs (32 bytes)
 *   TraceSampledProfileIntervalInfo  a TRACE_PROFILE_INTERVAL: the
 *                          Interval (100 ns units) of the Source the
 *                          caller put in it (0, the timer, alone; else
 *                          ERROR_INVALID_PARAMETER); the machine's one
 *                          setting: the handle is not looked at
 *   TraceProfileSourceListInfo  PROFILE_SOURCE_INFO entries: the timer
 *                          (Source 0, "Timer", 1221 to 10000000)
 *   TraceMaxLoggersQuery   a ULONG, MAXIMUM_LOGGERS, as EnumerateTraceGuidsEx
 *                          gives it (the handle is not looked at)
 * Every other class is ERROR_NOT_SUPPORTED: TraceVersionInfo too (Microsoft
 * documents no value of the version for nttrace to give), and
 * EnumerateTraceGuidsEx's classes; one at or above MaxTraceSetInfoClass
 * ERROR_INVALID_PARAMETER. *ReturnLength (ReturnLength may be NULL): the
 * bytes written, or with ERROR_BAD_LENGTH the bytes needed. Returns
 * ERROR_SUCCESS, or:
 *   ERROR_INVALID_PARAMETER    TraceInformation NULL with an
 *                              InformationLength
 *   ERROR_BAD_LENGTH           InformationLength below the class's size
 *   ERROR_INVALID_HANDLE       SessionHandle is no running session (nor the
 *                              running user-mode logger of this process)
 *   ERROR_SERVICE_NOT_ACTIVE   /dev/nttrace missing (module not loaded)
 */
ULONG WMIAPI TraceQueryInformation(TRACEHANDLE SessionHandle, TRACE_INFO_CLASS InformationClass,
				   PVOID TraceInformation, ULONG InformationLength,
				   PULONG ReturnLength);

/*
 * TraceSetInformation: of the settings it makes, nttrace has
 *   TraceSystemTraceEnableFlagsInfo  a system logger's group mask, 4 to
 *                          32 bytes (ERROR_NOT_SUPPORTED for a group the
 *                          module writes no events for)
 *   TraceSampledProfileIntervalInfo  a TRACE_PROFILE_INTERVAL: the
 *                          sampling interval of Source 0 (the timer), 1221
 *                          to 10000000 in 100 ns units, for the machine
 *                          (the handle is not looked at); it needs what
 *                          starting a system logger needs
 *                          (ERROR_ACCESS_DENIED)
 *   TraceProfileSourceConfigInfo  the sources to sample, ULONGs: the
 *                          timer (0) alone; another: ERROR_NOT_SUPPORTED
 *   TraceStackTracingInfo  with InformationLength 0 (no stacks for any
 *                          event), for a running session
 * Every other class is ERROR_NOT_SUPPORTED (stacks for events, PMC
 * sources, LBR, provider groups' disallow lists, periodic capture state,
 * binary tracking). Its other errors:
 *   ERROR_INVALID_PARAMETER    an InformationClass at or above
 *                              MaxTraceSetInfoClass; TraceInformation NULL
 *                              with an InformationLength; a value out of
 *                              range
 *   ERROR_BAD_LENGTH           InformationLength wrong for the class
 *   ERROR_INVALID_HANDLE       SessionHandle is no running session (the
 *                              classes that look at it)
 *   ERROR_SERVICE_NOT_ACTIVE   module not loaded
 */
ULONG WMIAPI TraceSetInformation(TRACEHANDLE SessionHandle, TRACE_INFO_CLASS InformationClass,
				 PVOID TraceInformation, ULONG InformationLength);

/* ---- Consumers: OpenTrace, ProcessTrace, CloseTrace (consumer/opentrace.c) ---- */

/*
 * OpenTrace's failure: (TRACEHANDLE)INVALID_HANDLE_VALUE, that is
 * (UINT64)UINTPTR_MAX: 0xFFFFFFFF for a 32-bit caller, all ones for 64-bit.
 */
#define INVALID_PROCESSTRACE_HANDLE	((TRACEHANDLE)(ULONG_PTR)-1)
typedef TRACEHANDLE PROCESSTRACE_HANDLE;

/* The header event's class: the TRACE_LOGFILE_HEADER is its data. */
#define EVENT_TRACE_GUID_INIT \
	{ 0x68fdd900, 0x4a3e, 0x11d1, { 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3 } }
extern const GUID EventTraceGuid;
/* The NT Kernel Logger's control GUID (evntrace.h). */
#define SYSTEM_TRACE_CONTROL_GUID_INIT \
	{ 0x9e814aad, 0x3204, 0x11d2, { 0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8, 0x69, 0x39 } }
extern const GUID SystemTraceControlGuid;

typedef struct _FILETIME {
	ULONG dwLowDateTime;
	ULONG dwHighDateTime;
} FILETIME, *PFILETIME, *LPFILETIME;

typedef struct _SYSTEMTIME {
	USHORT wYear, wMonth, wDayOfWeek, wDay;
	USHORT wHour, wMinute, wSecond, wMilliseconds;
} SYSTEMTIME, *PSYSTEMTIME;

/* 0xAC bytes, as in every TRACE_LOGFILE_HEADER. */
typedef struct _TIME_ZONE_INFORMATION {
	LONG Bias;
	WCHAR StandardName[32];
	SYSTEMTIME StandardDate;
	LONG StandardBias;
	WCHAR DaylightName[32];
	SYSTEMTIME DaylightDate;
	LONG DaylightBias;
} TIME_ZONE_INFORMATION, *PTIME_ZONE_INFORMATION;

/*
 * What a log file says of its session: the header event's data. In the
 * file it has the writer's pointer size (PointerSize: 0x118 bytes for 8,
 * 0x110 for 4, followed by the session and file names in UTF-16); this
 * struct is the caller's. OpenTrace fills it in EVENT_TRACE_LOGFILE, with
 * LoggerName and LogFileName pointing to UTF-16 copies of the names that
 * live until CloseTrace (in the file they are 0).
 */
typedef struct _TRACE_LOGFILE_HEADER {
	ULONG BufferSize;
	union {
		ULONG Version;
		struct {
			UCHAR MajorVersion;
			UCHAR MinorVersion;
			UCHAR SubVersion;
			UCHAR SubMinorVersion;
		} VersionDetail;
	};
	ULONG ProviderVersion;
	ULONG NumberOfProcessors;
	LARGE_INTEGER EndTime;		/* FILETIME */
	ULONG TimerResolution;		/* 100 ns units */
	ULONG MaximumFileSize;		/* MB */
	ULONG LogFileMode;
	ULONG BuffersWritten;
	union {
		GUID LogInstanceGuid;
		struct {
			ULONG StartBuffers;
			ULONG PointerSize;
			ULONG EventsLost;
			ULONG CpuSpeedInMHz;
		};
	};
	LPWSTR LoggerName;
	LPWSTR LogFileName;
	TIME_ZONE_INFORMATION TimeZone;
	LARGE_INTEGER BootTime;		/* FILETIME */
	LARGE_INTEGER PerfFreq;		/* the time stamps' ticks per second */
	LARGE_INTEGER StartTime;	/* FILETIME */
	ULONG ReservedFlags;		/* the clock: 1 QPC, 2 system time, 3 cycles */
	ULONG BuffersLost;
} TRACE_LOGFILE_HEADER, *PTRACE_LOGFILE_HEADER;

/* Where an event was: its buffer's processor and session. */
typedef struct _ETW_BUFFER_CONTEXT {
	union {
		struct {
			UCHAR ProcessorNumber;	/* the low 8 bits */
			UCHAR Alignment;
		};
		USHORT ProcessorIndex;	/* the whole CPU number */
	};
	USHORT LoggerId;
} ETW_BUFFER_CONTEXT, *PETW_BUFFER_CONTEXT;

/*
 * An event as EventCallback gets it: a classic header, the instance
 * fields, and the data (MofData, MofLength bytes).
 */
typedef struct _EVENT_TRACE {
	EVENT_TRACE_HEADER Header;
	ULONG InstanceId;
	ULONG ParentInstanceId;
	GUID ParentGuid;
	PVOID MofData;
	ULONG MofLength;
	union {
		ULONG ClientContext;
		ETW_BUFFER_CONTEXT BufferContext;
	};
} EVENT_TRACE, *PEVENT_TRACE;

struct _EVENT_RECORD;
typedef struct _EVENT_TRACE_LOGFILEA EVENT_TRACE_LOGFILEA, *PEVENT_TRACE_LOGFILEA;
typedef struct _EVENT_TRACE_LOGFILEW EVENT_TRACE_LOGFILEW, *PEVENT_TRACE_LOGFILEW;
/* After each buffer: return FALSE to stop ProcessTrace (ERROR_CANCELLED). */
typedef ULONG (WINAPI *PEVENT_TRACE_BUFFER_CALLBACKA)(PEVENT_TRACE_LOGFILEA Logfile);
typedef ULONG (WINAPI *PEVENT_TRACE_BUFFER_CALLBACKW)(PEVENT_TRACE_LOGFILEW Logfile);
typedef void (WINAPI *PEVENT_CALLBACK)(PEVENT_TRACE pEvent);
typedef void (WINAPI *PEVENT_RECORD_CALLBACK)(struct _EVENT_RECORD *EventRecord);

/*
 * What to read and how. The caller sets LogFileName (a file) or, later,
 * LoggerName with PROCESS_TRACE_MODE_REAL_TIME (a live session: not yet,
 * see OpenTrace), ProcessTraceMode, the callbacks and Context; OpenTrace
 * fills in LogfileHeader, CurrentEvent (the header event), BufferSize and
 * EventsLost, and ProcessTrace keeps CurrentTime, BuffersRead and Filled
 * up to date for BufferCallback.
 */
struct _EVENT_TRACE_LOGFILEA {
	LPSTR LogFileName;
	LPSTR LoggerName;
	LONGLONG CurrentTime;	/* the last event's time stamp */
	ULONG BuffersRead;
	union {
		ULONG LogFileMode;
		ULONG ProcessTraceMode;	/* PROCESS_TRACE_MODE_* (evntcons.h) */
	};
	EVENT_TRACE CurrentEvent;
	TRACE_LOGFILE_HEADER LogfileHeader;
	PEVENT_TRACE_BUFFER_CALLBACKA BufferCallback;	/* may be NULL */
	ULONG BufferSize;	/* bytes per buffer */
	ULONG Filled;		/* bytes used in the last buffer */
	ULONG EventsLost;
	union {
		PEVENT_CALLBACK EventCallback;
		PEVENT_RECORD_CALLBACK EventRecordCallback;	/* MODE_EVENT_RECORD */
	};
	ULONG IsKernelTrace;
	PVOID Context;		/* EVENT_RECORD.UserContext */
};

struct _EVENT_TRACE_LOGFILEW {
	LPWSTR LogFileName;
	LPWSTR LoggerName;
	LONGLONG CurrentTime;
	ULONG BuffersRead;
	union {
		ULONG LogFileMode;
		ULONG ProcessTraceMode;
	};
	EVENT_TRACE CurrentEvent;
	TRACE_LOGFILE_HEADER LogfileHeader;
	PEVENT_TRACE_BUFFER_CALLBACKW BufferCallback;
	ULONG BufferSize;
	ULONG Filled;
	ULONG EventsLost;
	union {
		PEVENT_CALLBACK EventCallback;
		PEVENT_RECORD_CALLBACK EventRecordCallback;
	};
	ULONG IsKernelTrace;
	PVOID Context;
};

/*
 * OpenTrace: a processing handle for the log file Logfile->LogFileName
 * (char for A, UTF-16 for W), its header read and LogfileHeader filled in;
 * the file is read by ProcessTrace. Logfile must stay valid until
 * CloseTrace (ProcessTrace updates it and passes it to BufferCallback).
 * Returns the handle, or INVALID_PROCESSTRACE_HANDLE with the last error:
 *   ERROR_INVALID_PARAMETER    Logfile NULL
 *   ERROR_BAD_PATHNAME         no LogFileName (and no real-time LoggerName),
 *                              or an empty one, or a W name that is not
 *                              valid UTF-16
 *   ERROR_NOT_SUPPORTED        PROCESS_TRACE_MODE_REAL_TIME (not yet)
 *   ERROR_FILE_NOT_FOUND       no such file
 *   ERROR_PATH_NOT_FOUND       a directory of the path missing
 *   ERROR_ACCESS_DENIED        the file may not be read
 *   ERROR_FILE_CORRUPT         not an ETL file (no plausible buffer size),
 *                              or its header buffer has no logfile header
 *   ERROR_NOT_ENOUGH_MEMORY    no memory, or no free handle (1024 open)
 */
TRACEHANDLE WMIAPI OpenTraceA(PEVENT_TRACE_LOGFILEA Logfile);
TRACEHANDLE WMIAPI OpenTraceW(PEVENT_TRACE_LOGFILEW Logfile);

/*
 * ProcessTrace: every event of the files HandleArray names, each file's
 * header event first (in the array's order), then all events merged in
 * time order across the files, to each handle's EventRecordCallback
 * (PROCESS_TRACE_MODE_EVENT_RECORD) or EventCallback, and BufferCallback
 * after each buffer. StartTime and EndTime (may be NULL; FILETIME, UTC)
 * leave out the events before and after them. Time stamps are FILETIME,
 * or as written with PROCESS_TRACE_MODE_RAW_TIMESTAMP. Returns once every
 * file is read, BufferCallback returned FALSE, or every handle was closed
 * by CloseTrace; ERROR_SUCCESS, or:
 *   ERROR_INVALID_PARAMETER    HandleArray NULL, or a handle twice
 *   ERROR_BAD_LENGTH           HandleCount 0 or above 64
 *   ERROR_INVALID_HANDLE       a handle OpenTrace did not give, or closed
 *   ERROR_BUSY                 a handle already in a ProcessTrace
 *   ERROR_INVALID_TIME         EndTime before StartTime
 *   ERROR_CANCELLED            a BufferCallback returned FALSE
 *   ERROR_FILE_CORRUPT         a file can no longer be opened as ETL
 *   ERROR_NOT_ENOUGH_MEMORY    no memory
 * Damaged buffers and records inside a file are skipped (as the ETL reader
 * does) and do not fail the call. Callbacks run on the calling thread.
 */
ULONG WMIAPI ProcessTrace(PTRACEHANDLE HandleArray, ULONG HandleCount,
			  LPFILETIME StartTime, LPFILETIME EndTime);

/*
 * CloseTrace: the handle's resources freed. From a callback (or another
 * thread) while ProcessTrace reads it, the handle delivers no more events
 * and is freed when ProcessTrace returns: ERROR_CTX_CLOSE_PENDING, as
 * Windows says it. Else ERROR_SUCCESS, or ERROR_INVALID_HANDLE (not a
 * handle OpenTrace gave, or closed already).
 */
ULONG WMIAPI CloseTrace(TRACEHANDLE TraceHandle);

#ifdef UNICODE
#define OpenTrace			OpenTraceW
#define EVENT_TRACE_LOGFILE		EVENT_TRACE_LOGFILEW
#define PEVENT_TRACE_LOGFILE		PEVENT_TRACE_LOGFILEW
#define PEVENT_TRACE_BUFFER_CALLBACK	PEVENT_TRACE_BUFFER_CALLBACKW
#else
#define OpenTrace			OpenTraceA
#define EVENT_TRACE_LOGFILE		EVENT_TRACE_LOGFILEA
#define PEVENT_TRACE_LOGFILE		PEVENT_TRACE_LOGFILEA
#define PEVENT_TRACE_BUFFER_CALLBACK	PEVENT_TRACE_BUFFER_CALLBACKA
#endif


#ifdef UNICODE
#define StartTrace	StartTraceW
#define ControlTrace	ControlTraceW
#define StopTrace	StopTraceW
#define QueryTrace	QueryTraceW
#define FlushTrace	FlushTraceW
#define UpdateTrace	UpdateTraceW
#define QueryAllTraces	QueryAllTracesW
#else
#define StartTrace	StartTraceA
#define ControlTrace	ControlTraceA
#define StopTrace	StopTraceA
#define QueryTrace	QueryTraceA
#define FlushTrace	FlushTraceA
#define UpdateTrace	UpdateTraceA
#define QueryAllTraces	QueryAllTracesA
#endif

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_EVNTRACE_H */
