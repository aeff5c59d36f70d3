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

#define WNODE_FLAG_TRACED_GUID		0x00020000U

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
