/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: the Windows evntcons.h subset a consumer of
 * EventWrite records needs: EVENT_HEADER (0x50 bytes, one layout for 32-
 * and 64-bit: it is how a record begins in a buffer), its flags and
 * properties, and the extended data items, with the SDK's names and values.
 */
#ifndef NTTRACE_EVNTCONS_H
#define NTTRACE_EVNTCONS_H

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>

#ifdef __cplusplus
extern "C" {
#endif

/* EVENT_HEADER.Flags: the uapi's NTTRACE_EVENT_HEADER_FLAG_*. */
#define EVENT_HEADER_FLAG_EXTENDED_INFO		NTTRACE_EVENT_HEADER_FLAG_EXTENDED_INFO
#define EVENT_HEADER_FLAG_PRIVATE_SESSION	NTTRACE_EVENT_HEADER_FLAG_PRIVATE_SESSION
#define EVENT_HEADER_FLAG_STRING_ONLY		NTTRACE_EVENT_HEADER_FLAG_STRING_ONLY
#define EVENT_HEADER_FLAG_TRACE_MESSAGE		NTTRACE_EVENT_HEADER_FLAG_TRACE_MESSAGE
#define EVENT_HEADER_FLAG_NO_CPUTIME		NTTRACE_EVENT_HEADER_FLAG_NO_CPUTIME
#define EVENT_HEADER_FLAG_32_BIT_HEADER		NTTRACE_EVENT_HEADER_FLAG_32_BIT_HEADER
#define EVENT_HEADER_FLAG_64_BIT_HEADER		NTTRACE_EVENT_HEADER_FLAG_64_BIT_HEADER
#define EVENT_HEADER_FLAG_CLASSIC_HEADER	NTTRACE_EVENT_HEADER_FLAG_CLASSIC_HEADER
#define EVENT_HEADER_FLAG_PROCESSOR_INDEX	NTTRACE_EVENT_HEADER_FLAG_PROCESSOR_INDEX

#define EVENT_HEADER_PROPERTY_XML		0x0001
#define EVENT_HEADER_PROPERTY_FORWARDED_XML	0x0002
#define EVENT_HEADER_PROPERTY_LEGACY_EVENTLOG	0x0004
#define EVENT_HEADER_PROPERTY_RELOGGABLE	0x0008

#define EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID NTTRACE_EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID
#define EVENT_HEADER_EXT_TYPE_SID		0x0002
#define EVENT_HEADER_EXT_TYPE_TS_ID		0x0003
#define EVENT_HEADER_EXT_TYPE_INSTANCE_INFO	0x0004
#define EVENT_HEADER_EXT_TYPE_STACK_TRACE32	0x0005
#define EVENT_HEADER_EXT_TYPE_STACK_TRACE64	0x0006
#define EVENT_HEADER_EXT_TYPE_PEBS_INDEX	0x0007
#define EVENT_HEADER_EXT_TYPE_PMC_COUNTERS	0x0008
#define EVENT_HEADER_EXT_TYPE_PSM_KEY		0x0009
#define EVENT_HEADER_EXT_TYPE_EVENT_KEY		0x000A
#define EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL	NTTRACE_EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL
#define EVENT_HEADER_EXT_TYPE_PROV_TRAITS	NTTRACE_EVENT_HEADER_EXT_TYPE_PROV_TRAITS
#define EVENT_HEADER_EXT_TYPE_PROCESS_START_KEY	0x000D
#define EVENT_HEADER_EXT_TYPE_CONTROL_GUID	0x000E
#define EVENT_HEADER_EXT_TYPE_QPC_DELTA		0x000F
#define EVENT_HEADER_EXT_TYPE_CONTAINER_ID	0x0010
#define EVENT_HEADER_EXT_TYPE_MAX		0x0011

/*
 * An extended data item as a consumer is handed it (the item in a buffer
 * is struct nttrace_event_extended_item_header and its data: see the uapi).
 */
typedef struct _EVENT_HEADER_EXTENDED_DATA_ITEM {
	USHORT Reserved1;
	USHORT ExtType;		/* EVENT_HEADER_EXT_TYPE_* */
	struct {
		USHORT Linkage : 1;	/* another item follows */
		USHORT Reserved2 : 15;
	};
	USHORT DataSize;
	ULONGLONG DataPtr;
} EVENT_HEADER_EXTENDED_DATA_ITEM, *PEVENT_HEADER_EXTENDED_DATA_ITEM;

typedef struct _EVENT_EXTENDED_ITEM_RELATED_ACTIVITYID {
	GUID RelatedActivityId;
} EVENT_EXTENDED_ITEM_RELATED_ACTIVITYID, *PEVENT_EXTENDED_ITEM_RELATED_ACTIVITYID;

typedef struct _EVENT_HEADER {
	USHORT Size;		/* the record, before padding */
	USHORT HeaderType;	/* 0xC012 (32-bit caller) or 0xC013 (64-bit) */
	USHORT Flags;		/* EVENT_HEADER_FLAG_* */
	USHORT EventProperty;	/* EVENT_HEADER_PROPERTY_* */
	ULONG ThreadId;
	ULONG ProcessId;
	LARGE_INTEGER TimeStamp;
	GUID ProviderId;
	EVENT_DESCRIPTOR EventDescriptor;
	union {
		struct {
			ULONG KernelTime;
			ULONG UserTime;
		};
		ULONG64 ProcessorTime;	/* 0: EVENT_HEADER_FLAG_NO_CPUTIME */
	};
	GUID ActivityId;
} EVENT_HEADER, *PEVENT_HEADER;

/* EVENT_HEADER_EXT_TYPE_INSTANCE_INFO's data: a classic instance event's. */
typedef struct _EVENT_EXTENDED_ITEM_INSTANCE {
	ULONG InstanceId;
	ULONG ParentInstanceId;
	GUID ParentGuid;
} EVENT_EXTENDED_ITEM_INSTANCE, *PEVENT_EXTENDED_ITEM_INSTANCE;

/*
 * The data of the other extended items, as evntcons.h lays them out (one
 * layout for 32- and 64-bit callers). nttrace writes none of them yet; a
 * consumer of a Windows ETL file may meet them all.
 */
/* EVENT_HEADER_EXT_TYPE_TS_ID: the writer's terminal session. */
typedef struct _EVENT_EXTENDED_ITEM_TS_ID {
	ULONG SessionId;
} EVENT_EXTENDED_ITEM_TS_ID, *PEVENT_EXTENDED_ITEM_TS_ID;

/*
 * EVENT_HEADER_EXT_TYPE_STACK_TRACE32 and _64: the call stack, its
 * addresses filling the rest of the item (DataSize - 8 bytes of them).
 * MatchId ties a kernel stack to the user stack that follows it.
 */
typedef struct _EVENT_EXTENDED_ITEM_STACK_TRACE32 {
	ULONG64 MatchId;
	ULONG Address[ANYSIZE_ARRAY];
} EVENT_EXTENDED_ITEM_STACK_TRACE32, *PEVENT_EXTENDED_ITEM_STACK_TRACE32;

typedef struct _EVENT_EXTENDED_ITEM_STACK_TRACE64 {
	ULONG64 MatchId;
	ULONG64 Address[ANYSIZE_ARRAY];
} EVENT_EXTENDED_ITEM_STACK_TRACE64, *PEVENT_EXTENDED_ITEM_STACK_TRACE64;

/* EVENT_HEADER_EXT_TYPE_PEBS_INDEX. */
typedef struct _EVENT_EXTENDED_ITEM_PEBS_INDEX {
	ULONG64 PebsIndex;
} EVENT_EXTENDED_ITEM_PEBS_INDEX, *PEVENT_EXTENDED_ITEM_PEBS_INDEX;

/* EVENT_HEADER_EXT_TYPE_PMC_COUNTERS: one value per configured counter. */
typedef struct _EVENT_EXTENDED_ITEM_PMC_COUNTERS {
	ULONG64 Counter[ANYSIZE_ARRAY];
} EVENT_EXTENDED_ITEM_PMC_COUNTERS, *PEVENT_EXTENDED_ITEM_PMC_COUNTERS;

/* EVENT_HEADER_EXT_TYPE_PROCESS_START_KEY: the writer's process, unique per boot. */
typedef struct _EVENT_EXTENDED_ITEM_PROCESS_START_KEY {
	ULONG64 ProcessStartKey;
} EVENT_EXTENDED_ITEM_PROCESS_START_KEY, *PEVENT_EXTENDED_ITEM_PROCESS_START_KEY;

/* EVENT_HEADER_EXT_TYPE_EVENT_KEY: the event's key (provider and event). */
typedef struct _EVENT_EXTENDED_ITEM_EVENT_KEY {
	ULONG64 Key;
} EVENT_EXTENDED_ITEM_EVENT_KEY, *PEVENT_EXTENDED_ITEM_EVENT_KEY;

#define PROCESS_TRACE_MODE_REAL_TIME		0x00000100
#define PROCESS_TRACE_MODE_RAW_TIMESTAMP	0x00001000
#define PROCESS_TRACE_MODE_EVENT_RECORD		0x10000000


/*
 * An event as ProcessTrace hands it to EventRecordCallback (0x70 bytes for
 * a 64-bit caller, 0x68 for 32-bit). Everything it points to lives until
 * the callback returns. consumer/opentrace.c's top comment says how each
 * kind of record in a file becomes one.
 */
typedef struct _EVENT_RECORD {
	EVENT_HEADER EventHeader;
	ETW_BUFFER_CONTEXT BufferContext;
	USHORT ExtendedDataCount;
	USHORT UserDataLength;
	PEVENT_HEADER_EXTENDED_DATA_ITEM ExtendedData;
	PVOID UserData;
	PVOID UserContext;	/* EVENT_TRACE_LOGFILE.Context */
} EVENT_RECORD, *PEVENT_RECORD;
typedef const EVENT_RECORD *PCEVENT_RECORD;

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_EVNTCONS_H */
