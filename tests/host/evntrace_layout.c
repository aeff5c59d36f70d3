// SPDX-License-Identifier: GPL-2.0
/*
 * <nttrace/evntrace.h> lays its structures out as Windows' headers do, for
 * 64-bit and for 32-bit callers: each offset below is Windows' own (from
 * evntrace.h and wmistr.h as Windows SDKs ship them, the numbers written
 * out here by hand). Compiled with -m64 and with -m32 by scripts/check; a
 * wrong offset fails the compile.
 */
#include <stddef.h>

#include <nttrace/evntrace.h>

#define AT(type, member, off64, off32)					\
	_Static_assert(offsetof(type, member) ==			\
		       (sizeof(void *) == 8 ? (off64) : (off32)),	\
		       #type "." #member " at its Windows offset")
#define SIZE(type, size64, size32)					\
	_Static_assert(sizeof(type) ==					\
		       (sizeof(void *) == 8 ? (size64) : (size32)),	\
		       "sizeof(" #type ") as Windows has it")

SIZE(GUID, 16, 16);
SIZE(TRACEHANDLE, 8, 8);
SIZE(ULONG, 4, 4);
SIZE(USHORT, 2, 2);
SIZE(HANDLE, 8, 4);

SIZE(WNODE_HEADER, 0x30, 0x30);
AT(WNODE_HEADER, BufferSize, 0x00, 0x00);
AT(WNODE_HEADER, ProviderId, 0x04, 0x04);
AT(WNODE_HEADER, HistoricalContext, 0x08, 0x08);
AT(WNODE_HEADER, Version, 0x08, 0x08);
AT(WNODE_HEADER, Linkage, 0x0C, 0x0C);
AT(WNODE_HEADER, KernelHandle, 0x10, 0x10);
AT(WNODE_HEADER, TimeStamp, 0x10, 0x10);
AT(WNODE_HEADER, Guid, 0x18, 0x18);
AT(WNODE_HEADER, ClientContext, 0x28, 0x28);
AT(WNODE_HEADER, Flags, 0x2C, 0x2C);

SIZE(EVENT_TRACE_PROPERTIES, 0x78, 0x78);
AT(EVENT_TRACE_PROPERTIES, Wnode, 0x00, 0x00);
AT(EVENT_TRACE_PROPERTIES, BufferSize, 0x30, 0x30);
AT(EVENT_TRACE_PROPERTIES, MinimumBuffers, 0x34, 0x34);
AT(EVENT_TRACE_PROPERTIES, MaximumBuffers, 0x38, 0x38);
AT(EVENT_TRACE_PROPERTIES, MaximumFileSize, 0x3C, 0x3C);
AT(EVENT_TRACE_PROPERTIES, LogFileMode, 0x40, 0x40);
AT(EVENT_TRACE_PROPERTIES, FlushTimer, 0x44, 0x44);
AT(EVENT_TRACE_PROPERTIES, EnableFlags, 0x48, 0x48);
AT(EVENT_TRACE_PROPERTIES, AgeLimit, 0x4C, 0x4C);
AT(EVENT_TRACE_PROPERTIES, FlushThreshold, 0x4C, 0x4C);
AT(EVENT_TRACE_PROPERTIES, NumberOfBuffers, 0x50, 0x50);
AT(EVENT_TRACE_PROPERTIES, FreeBuffers, 0x54, 0x54);
AT(EVENT_TRACE_PROPERTIES, EventsLost, 0x58, 0x58);
AT(EVENT_TRACE_PROPERTIES, BuffersWritten, 0x5C, 0x5C);
AT(EVENT_TRACE_PROPERTIES, LogBuffersLost, 0x60, 0x60);
AT(EVENT_TRACE_PROPERTIES, RealTimeBuffersLost, 0x64, 0x64);
AT(EVENT_TRACE_PROPERTIES, LoggerThreadId, 0x68, 0x68);
AT(EVENT_TRACE_PROPERTIES, LogFileNameOffset, 0x70, 0x6C);
AT(EVENT_TRACE_PROPERTIES, LoggerNameOffset, 0x74, 0x70);

/* The constants a TraceMessage caller uses. */
_Static_assert(TRACE_MESSAGE_SEQUENCE == 1 && TRACE_MESSAGE_GUID == 2 &&
	       TRACE_MESSAGE_COMPONENTID == 4 && TRACE_MESSAGE_TIMESTAMP == 8 &&
	       TRACE_MESSAGE_PERFORMANCE_TIMESTAMP == 16 &&
	       TRACE_MESSAGE_SYSTEMINFO == 32, "TRACE_MESSAGE_* flags");
_Static_assert(TRACE_MESSAGE_MAXIMUM_SIZE == 8192, "TRACE_MESSAGE_MAXIMUM_SIZE");
_Static_assert(EVENT_TRACE_PRIVATE_LOGGER_MODE == 0x800 &&
	       EVENT_TRACE_PRIVATE_IN_PROC == 0x20000 &&
	       EVENT_TRACE_FILE_MODE_SEQUENTIAL == 1 &&
	       EVENT_TRACE_CONTROL_QUERY == 0 && EVENT_TRACE_CONTROL_STOP == 1 &&
	       EVENT_TRACE_CONTROL_UPDATE == 2 && EVENT_TRACE_CONTROL_FLUSH == 3,
	       "EVENT_TRACE_* constants");
_Static_assert(ERROR_INVALID_HANDLE == 6 && ERROR_NOT_ENOUGH_MEMORY == 8 &&
	       ERROR_INVALID_PARAMETER == 87 && ERROR_BUFFER_OVERFLOW == 111 &&
	       ERROR_MORE_DATA == 234 && ERROR_NOACCESS == 998 &&
	       ERROR_ALREADY_EXISTS == 183 && ERROR_WMI_INSTANCE_NOT_FOUND == 4201,
	       "Win32 error codes");

/* Classic events (evntrace.h): one layout for both, but EVENT_INSTANCE_INFO. */
SIZE(EVENT_TRACE_HEADER, 0x30, 0x30);
AT(EVENT_TRACE_HEADER, Size, 0x00, 0x00);
AT(EVENT_TRACE_HEADER, FieldTypeFlags, 0x02, 0x02);
AT(EVENT_TRACE_HEADER, HeaderType, 0x02, 0x02);
AT(EVENT_TRACE_HEADER, MarkerFlags, 0x03, 0x03);
AT(EVENT_TRACE_HEADER, Version, 0x04, 0x04);
AT(EVENT_TRACE_HEADER, Class.Type, 0x04, 0x04);
AT(EVENT_TRACE_HEADER, Class.Level, 0x05, 0x05);
AT(EVENT_TRACE_HEADER, Class.Version, 0x06, 0x06);
AT(EVENT_TRACE_HEADER, ThreadId, 0x08, 0x08);
AT(EVENT_TRACE_HEADER, ProcessId, 0x0C, 0x0C);
AT(EVENT_TRACE_HEADER, TimeStamp, 0x10, 0x10);
AT(EVENT_TRACE_HEADER, Guid, 0x18, 0x18);
AT(EVENT_TRACE_HEADER, GuidPtr, 0x18, 0x18);
AT(EVENT_TRACE_HEADER, KernelTime, 0x28, 0x28);
AT(EVENT_TRACE_HEADER, UserTime, 0x2C, 0x2C);
AT(EVENT_TRACE_HEADER, ProcessorTime, 0x28, 0x28);
AT(EVENT_TRACE_HEADER, ClientContext, 0x28, 0x28);
AT(EVENT_TRACE_HEADER, Flags, 0x2C, 0x2C);

SIZE(EVENT_INSTANCE_HEADER, 0x38, 0x38);
AT(EVENT_INSTANCE_HEADER, Size, 0x00, 0x00);
AT(EVENT_INSTANCE_HEADER, FieldTypeFlags, 0x02, 0x02);
AT(EVENT_INSTANCE_HEADER, HeaderType, 0x02, 0x02);
AT(EVENT_INSTANCE_HEADER, MarkerFlags, 0x03, 0x03);
AT(EVENT_INSTANCE_HEADER, Version, 0x04, 0x04);
AT(EVENT_INSTANCE_HEADER, Class.Type, 0x04, 0x04);
AT(EVENT_INSTANCE_HEADER, Class.Level, 0x05, 0x05);
AT(EVENT_INSTANCE_HEADER, Class.Version, 0x06, 0x06);
AT(EVENT_INSTANCE_HEADER, ThreadId, 0x08, 0x08);
AT(EVENT_INSTANCE_HEADER, ProcessId, 0x0C, 0x0C);
AT(EVENT_INSTANCE_HEADER, TimeStamp, 0x10, 0x10);
AT(EVENT_INSTANCE_HEADER, RegHandle, 0x18, 0x18);
AT(EVENT_INSTANCE_HEADER, InstanceId, 0x20, 0x20);
AT(EVENT_INSTANCE_HEADER, ParentInstanceId, 0x24, 0x24);
AT(EVENT_INSTANCE_HEADER, KernelTime, 0x28, 0x28);
AT(EVENT_INSTANCE_HEADER, UserTime, 0x2C, 0x2C);
AT(EVENT_INSTANCE_HEADER, ProcessorTime, 0x28, 0x28);
AT(EVENT_INSTANCE_HEADER, EventId, 0x28, 0x28);
AT(EVENT_INSTANCE_HEADER, Flags, 0x2C, 0x2C);
AT(EVENT_INSTANCE_HEADER, ParentRegHandle, 0x30, 0x30);

SIZE(EVENT_INSTANCE_INFO, 0x10, 0x08);
AT(EVENT_INSTANCE_INFO, RegHandle, 0x00, 0x00);
AT(EVENT_INSTANCE_INFO, InstanceId, 0x08, 0x04);

SIZE(MOF_FIELD, 0x10, 0x10);
AT(MOF_FIELD, DataPtr, 0x00, 0x00);
AT(MOF_FIELD, Length, 0x08, 0x08);
AT(MOF_FIELD, DataType, 0x0C, 0x0C);

_Static_assert(MAX_MOF_FIELDS == 16, "MAX_MOF_FIELDS");
_Static_assert(EVENT_TRACE_TYPE_INFO == 0 && EVENT_TRACE_TYPE_START == 1 &&
	       EVENT_TRACE_TYPE_END == 2 && EVENT_TRACE_TYPE_STOP == 2 &&
	       EVENT_TRACE_TYPE_DC_START == 3 && EVENT_TRACE_TYPE_DC_END == 4 &&
	       EVENT_TRACE_TYPE_EXTENSION == 5 && EVENT_TRACE_TYPE_REPLY == 6 &&
	       EVENT_TRACE_TYPE_DEQUEUE == 7 && EVENT_TRACE_TYPE_RESUME == 7 &&
	       EVENT_TRACE_TYPE_CHECKPOINT == 8 && EVENT_TRACE_TYPE_SUSPEND == 8 &&
	       EVENT_TRACE_TYPE_WINEVT_SEND == 9 &&
	       EVENT_TRACE_TYPE_WINEVT_RECEIVE == 0xF0, "EVENT_TRACE_TYPE_*");
_Static_assert(WNODE_FLAG_TRACED_GUID == 0x20000 && WNODE_FLAG_USE_TIMESTAMP == 0x200 &&
	       WNODE_FLAG_USE_GUID_PTR == 0x80000 && WNODE_FLAG_USE_MOF_PTR == 0x100000,
	       "WNODE_FLAG_* of classic events");
_Static_assert(ERROR_OUTOFMEMORY == 14 && ERROR_INVALID_FLAG_NUMBER == 186 &&
	       ERROR_INVALID_FLAGS == 1004, "classic events' Win32 errors");

int nttrace_evntrace_layout_checked;
