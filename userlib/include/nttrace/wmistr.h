/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: the Windows wmistr.h names nttrace uses, with
 * Windows' values and layouts. WNODE_HEADER begins EVENT_TRACE_PROPERTIES
 * and the buffers a control callback receives.
 */
#ifndef NTTRACE_WMISTR_H
#define NTTRACE_WMISTR_H

#include <nttrace/winnt.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * WNODE_HEADER.Flags. The tracing ones (TRACED_GUID, USE_TIMESTAMP,
 * LOG_WNODE, USE_GUID_PTR, USE_MOF_PTR, NO_HEADER) are also in
 * uapi/nttrace.h, spelled the same, for EVENT_TRACE_HEADER.Flags.
 */
#define WNODE_FLAG_ALL_DATA		0x00000001U
#define WNODE_FLAG_SINGLE_INSTANCE	0x00000002U
#define WNODE_FLAG_SINGLE_ITEM		0x00000004U
#define WNODE_FLAG_EVENT_ITEM		0x00000008U
#define WNODE_FLAG_FIXED_INSTANCE_SIZE	0x00000010U
#define WNODE_FLAG_TOO_SMALL		0x00000020U
#define WNODE_FLAG_INSTANCES_SAME	0x00000040U
#define WNODE_FLAG_STATIC_INSTANCE_NAMES 0x00000080U
#define WNODE_FLAG_INTERNAL		0x00000100U
#define WNODE_FLAG_USE_TIMESTAMP	0x00000200U
#define WNODE_FLAG_PERSIST_EVENT	0x00000400U
#define WNODE_FLAG_EVENT_REFERENCE	0x00002000U
#define WNODE_FLAG_ANSI_INSTANCENAMES	0x00004000U
#define WNODE_FLAG_METHOD_ITEM		0x00008000U
#define WNODE_FLAG_PDO_INSTANCE_NAMES	0x00010000U
#define WNODE_FLAG_TRACED_GUID		0x00020000U
#define WNODE_FLAG_LOG_WNODE		0x00040000U
#define WNODE_FLAG_USE_GUID_PTR		0x00080000U
#define WNODE_FLAG_USE_MOF_PTR		0x00100000U
#define WNODE_FLAG_NO_HEADER		0x00200000U
#define WNODE_FLAG_SEND_DATA_BLOCK	0x00400000U
#define WNODE_FLAG_VERSIONED_PROPERTIES	0x00800000U
#define WNODE_FLAG_SEVERITY_MASK	0xFF000000U

/*
 * What a WMI data provider's request callback (WMIDPREQUEST, evntrace.h) is
 * asked. A classic trace provider's ControlCallback gets WMI_ENABLE_EVENTS
 * and WMI_DISABLE_EVENTS only.
 */
typedef enum {
	WMI_GET_ALL_DATA = 0,
	WMI_GET_SINGLE_INSTANCE = 1,
	WMI_SET_SINGLE_INSTANCE = 2,
	WMI_SET_SINGLE_ITEM = 3,
	WMI_ENABLE_EVENTS = 4,
	WMI_DISABLE_EVENTS = 5,
	WMI_ENABLE_COLLECTION = 6,
	WMI_DISABLE_COLLECTION = 7,
	WMI_REGINFO = 8,
	WMI_EXECUTE_METHOD = 9,
	WMI_CAPTURE_STATE = 10
} WMIDPREQUESTCODE;

typedef struct _WNODE_HEADER {
	ULONG BufferSize;	/* bytes of the whole block the header begins */
	ULONG ProviderId;
	union {
		ULONG64 HistoricalContext;	/* a session or logger handle */
		struct {
			ULONG Version;
			ULONG Linkage;
		};
	};
	union {
		ULONG CountLost;
		HANDLE KernelHandle;
		LARGE_INTEGER TimeStamp;
	};
	GUID Guid;		/* EVENT_TRACE_PROPERTIES: the session's, kept */
	ULONG ClientContext;	/* sessions: the clock, EVENT_TRACE_CLOCK_* */
	ULONG Flags;		/* WNODE_FLAG_* */
} WNODE_HEADER, *PWNODE_HEADER;

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_WMISTR_H */
