/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: the Windows evntprov.h subset for manifest-based
 * providers (EventRegister, EventEnabled, EventWrite, ...), with Windows'
 * names, types, values and layouts (one layout for 32- and 64-bit callers:
 * Ptr members are ULONGLONG there too).
 *
 * A REGHANDLE stands for the library's registration entry (NTDLL's
 * ETW_REGISTRATION_ENTRY): the kernel writes the provider's enable
 * information into it, so that EventEnabled, EventProviderEnabled and a
 * disabled EventWrite make no system call and take no lock. It is no
 * address: a value the library checks in its table of registrations, so
 * that a stale or made-up one is refused, never read through.
 *
 * Functions returning ULONG return a Win32 error (ERROR_SUCCESS is 0) and
 * also store it as the thread's last error, as this library's functions
 * do; EventEnabled and EventProviderEnabled leave the last error alone.
 */
#ifndef NTTRACE_EVNTPROV_H
#define NTTRACE_EVNTPROV_H

#include <stdint.h>

#include <nttrace/nt.h>
#include <nttrace/winerror.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef EVNTAPI
#define EVNTAPI
#endif
#ifndef NTAPI
#define NTAPI
#endif

typedef const WCHAR *PCWSTR;

#define EVENT_MIN_LEVEL			(0)
#define EVENT_MAX_LEVEL			(0xff)

#define EVENT_ACTIVITY_CTRL_GET_ID	(1)
#define EVENT_ACTIVITY_CTRL_SET_ID	(2)
#define EVENT_ACTIVITY_CTRL_CREATE_ID	(3)
#define EVENT_ACTIVITY_CTRL_GET_SET_ID	(4)
#define EVENT_ACTIVITY_CTRL_CREATE_SET_ID (5)

/*
 * EVENT_FILTER_DESCRIPTOR.Type: what a filter of EnableTraceEx2 holds,
 * with the values of Microsoft's EVENT_FILTER_DESCRIPTOR documentation
 * (CONTAINER, which it does not list, with the current SDK's). Which of
 * them EnableTraceEx2 takes is said there (controller/enable.c).
 */
#define EVENT_FILTER_TYPE_NONE			(0x00000000)
#define EVENT_FILTER_TYPE_SCHEMATIZED		(0x80000000)
#define EVENT_FILTER_TYPE_SYSTEM_FLAGS		(0x80000001)
#define EVENT_FILTER_TYPE_TRACEHANDLE		(0x80000002)
#define EVENT_FILTER_TYPE_PID			(0x80000004)	/* ULONG array */
#define EVENT_FILTER_TYPE_EXECUTABLE_NAME	(0x80000008)
#define EVENT_FILTER_TYPE_PACKAGE_ID		(0x80000010)
#define EVENT_FILTER_TYPE_PACKAGE_APP_ID	(0x80000020)
#define EVENT_FILTER_TYPE_PAYLOAD		(0x80000100)
#define EVENT_FILTER_TYPE_EVENT_ID		(0x80000200)	/* EVENT_FILTER_EVENT_ID */
#define EVENT_FILTER_TYPE_EVENT_NAME		(0x80000400)	/* EVENT_FILTER_EVENT_NAME */
#define EVENT_FILTER_TYPE_STACKWALK		(0x80001000)	/* EVENT_FILTER_EVENT_ID */
#define EVENT_FILTER_TYPE_STACKWALK_NAME	(0x80002000)	/* EVENT_FILTER_EVENT_NAME */
#define EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW	(0x80004000)	/* EVENT_FILTER_LEVEL_KW */
#define EVENT_FILTER_TYPE_CONTAINER		(0x80008000)

/* The filters' limits, as the SDK's evntprov.h has them. */
#define MAX_EVENT_FILTER_DATA_SIZE	(1024)
#define MAX_EVENT_FILTER_PAYLOAD_SIZE	(4096)
#define MAX_EVENT_FILTER_EVENT_NAME_SIZE (4096)
#define MAX_EVENT_FILTERS_COUNT		(13)	/* descriptors per enable */
#define MAX_EVENT_FILTER_PID_COUNT	(8)
#define MAX_EVENT_FILTER_EVENT_ID_COUNT	(64)
#define MAX_EVENT_DATA_DESCRIPTORS	NTTRACE_MAX_EVENT_DATA_DESCRIPTORS

/* As evntrace.h has them too (the same definitions). */
#define EVENT_CONTROL_CODE_DISABLE_PROVIDER	NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER
#define EVENT_CONTROL_CODE_ENABLE_PROVIDER	NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER
#define EVENT_CONTROL_CODE_CAPTURE_STATE	NTTRACE_EVENT_CONTROL_CODE_CAPTURE_STATE

/* EventWriteEx's Flags. */
#define EVENT_WRITE_FLAG_NO_FAULTING	0x00000001
#define EVENT_WRITE_FLAG_INPRIVATE	0x00000002

typedef ULONGLONG REGHANDLE, *PREGHANDLE;

/*
 * What a data descriptor holds (its Type). Honoured only for a provider
 * that asked for it with EventSetInformation (EventProviderSetTraits, or
 * EventProviderUseDescriptorType TRUE); otherwise every descriptor is
 * data, as Windows does for providers that leave Reserved uninitialised.
 * EVENT_METADATA becomes the record's EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL
 * item, PROVIDER_METADATA its EVENT_HEADER_EXT_TYPE_PROV_TRAITS item
 * (TraceLogging's two blobs). TIMESTAMP_OVERRIDE is not taken here:
 * ERROR_INVALID_PARAMETER, as for any other Type.
 */
#define EVENT_DATA_DESCRIPTOR_TYPE_NONE			NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_NONE
#define EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA	NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA
#define EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA	\
	NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA
#define EVENT_DATA_DESCRIPTOR_TYPE_TIMESTAMP_OVERRIDE	3

typedef struct _EVENT_DATA_DESCRIPTOR {
	ULONGLONG Ptr;		/* the data's address */
	ULONG Size;		/* its bytes */
	union {
		ULONG Reserved;	/* 0 for plain data (EventDataDescCreate) */
		struct {
			UCHAR Type;	/* EVENT_DATA_DESCRIPTOR_TYPE_* */
			UCHAR Reserved1;
			USHORT Reserved2;
		};
	};
} EVENT_DATA_DESCRIPTOR, *PEVENT_DATA_DESCRIPTOR;

#ifndef EVENT_DESCRIPTOR_DEF
#define EVENT_DESCRIPTOR_DEF
typedef struct _EVENT_DESCRIPTOR {
	USHORT Id;
	UCHAR Version;
	UCHAR Channel;
	UCHAR Level;
	UCHAR Opcode;
	USHORT Task;
	ULONGLONG Keyword;
} EVENT_DESCRIPTOR, *PEVENT_DESCRIPTOR;
typedef const EVENT_DESCRIPTOR *PCEVENT_DESCRIPTOR;
#endif

#ifndef DEFINED_PEVENT_FILTER_DESC
#define DEFINED_PEVENT_FILTER_DESC
typedef struct _EVENT_FILTER_DESCRIPTOR {
	ULONGLONG Ptr;
	ULONG Size;
	ULONG Type;		/* EVENT_FILTER_TYPE_* */
} EVENT_FILTER_DESCRIPTOR, *PEVENT_FILTER_DESCRIPTOR;
#endif

typedef struct _EVENT_FILTER_HEADER {
	USHORT Id;
	UCHAR Version;
	UCHAR Reserved[5];
	ULONGLONG InstanceId;
	ULONG Size;
	ULONG NextOffset;
} EVENT_FILTER_HEADER, *PEVENT_FILTER_HEADER;

/*
 * The data of an EVENT_FILTER_TYPE_EVENT_ID or _STACKWALK filter: Count
 * event IDs (at most MAX_EVENT_FILTER_EVENT_ID_COUNT) that FilterIn
 * (TRUE) lets through or (FALSE) keeps out. 6 bytes with one ID, for 32-
 * and 64-bit callers alike.
 */
typedef struct _EVENT_FILTER_EVENT_ID {
	BOOLEAN FilterIn;
	UCHAR Reserved;
	USHORT Count;
	USHORT Events[ANYSIZE_ARRAY];
} EVENT_FILTER_EVENT_ID, *PEVENT_FILTER_EVENT_ID;

/*
 * The data of an EVENT_FILTER_TYPE_EVENT_NAME or _STACKWALK_NAME filter
 * (TraceLogging events, by name): the level and keywords it applies to,
 * FilterIn, and NameCount NUL-terminated UTF-8 names one after the other
 * from Names.
 */
typedef struct _EVENT_FILTER_EVENT_NAME {
	ULONGLONG MatchAnyKeyword;
	ULONGLONG MatchAllKeyword;
	UCHAR Level;
	BOOLEAN FilterIn;
	USHORT NameCount;
	UCHAR Names[ANYSIZE_ARRAY];
} EVENT_FILTER_EVENT_NAME, *PEVENT_FILTER_EVENT_NAME;

/* The data of an EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW filter. */
typedef struct _EVENT_FILTER_LEVEL_KW {
	ULONGLONG MatchAnyKeyword;
	ULONGLONG MatchAllKeyword;
	UCHAR Level;
	BOOLEAN FilterIn;
} EVENT_FILTER_LEVEL_KW, *PEVENT_FILTER_LEVEL_KW;

/* EventSetInformation's classes, with the current SDK's values. */
typedef enum _EVENT_INFO_CLASS {
	EventProviderBinaryTrackInfo,
	EventProviderSetReserved1,
	EventProviderSetTraits,
	EventProviderUseDescriptorType,
	MaxEventInfo
} EVENT_INFO_CLASS;

/*
 * A provider's enable callback. It runs on the library's notification
 * thread, or inside EventRegister (for enables made before the provider
 * registered), or inside EnableTraceEx2/EnableTrace (the process's
 * user-mode logger enabling it), never concurrently with itself for one
 * registration from one source.
 *   SourceId:   the enabling controller's SourceId (ENABLE_TRACE_PARAMETERS,
 *               EnableTraceEx) for the user-mode logger; GUID_NULL for a
 *               kernel session (its enables do not carry one) and, as
 *               Microsoft documents, for an enable made before the
 *               provider registered and for a session stopping
 *   IsEnabled:  EVENT_CONTROL_CODE_ENABLE_PROVIDER (a session enabled it,
 *               or one disabled it while others still do: then Level and
 *               the keywords are the remaining sessions' union),
 *               EVENT_CONTROL_CODE_DISABLE_PROVIDER (no session enables
 *               it any more; Level and keywords 0),
 *               EVENT_CONTROL_CODE_CAPTURE_STATE (a session asks for state)
 *   Level, MatchAnyKeyword, MatchAllKeyword: that session's enable
 *   FilterData: NULL (no filters are supported)
 */
typedef void (NTAPI *PENABLECALLBACK)(LPCGUID SourceId, ULONG IsEnabled, UCHAR Level,
				      ULONGLONG MatchAnyKeyword,
				      ULONGLONG MatchAllKeyword,
				      PEVENT_FILTER_DESCRIPTOR FilterData,
				      PVOID CallbackContext);

/*
 * EventRegister registers ProviderId (anyone may) and sets *RegHandle. An
 * enable made before (by any session) runs EnableCallback on the calling
 * thread before EventRegister returns, once per enabling session. Without
 * /dev/nttrace (no module) it still succeeds: such a provider can be
 * enabled only by this process's user-mode logger.
 * Returns ERROR_SUCCESS, or:
 *   ERROR_INVALID_PARAMETER    ProviderId or RegHandle NULL
 *   ERROR_NOT_ENOUGH_MEMORY    no memory for the registration
 *   ERROR_NO_SYSTEM_RESOURCES  too many registrations: this process's
 *                              (NTTRACE_MAX_REGISTRATIONS) or this user's
 *                              (the module's max_user_registrations)
 * (*RegHandle is 0 on failure.)
 */
ULONG EVNTAPI EventRegister(LPCGUID ProviderId, PENABLECALLBACK EnableCallback,
			    PVOID CallbackContext, PREGHANDLE RegHandle);

/*
 * EventUnregister ends the registration: no callback starts after it
 * returns (one running on another thread is waited for; from inside its own
 * callback it returns at once). Returns ERROR_SUCCESS, or
 * ERROR_INVALID_HANDLE (0, or not a live registration of this process).
 */
ULONG EVNTAPI EventUnregister(REGHANDLE RegHandle);

/*
 * Whether some session (a kernel session or this process's user-mode
 * logger) may want an event of this descriptor's Level and Keyword: the
 * rule of McGenLevelKeywordEnabled against the union of the enables
 * (level: the highest, 0 meaning every level; MatchAnyKeyword: the union;
 * MatchAllKeyword: the intersection): the level passes when the event's
 * Level is 0 or at most the enable's (or the enable's is 0), the keyword
 * when the event's Keyword is 0 or has a bit of MatchAnyKeyword and every
 * bit of MatchAllKeyword (a MatchAnyKeyword of 0 passes no non-zero
 * keyword). Read from memory: no system call, no lock; a disabled provider
 * costs a load and a branch. FALSE for a RegHandle of 0 or one no longer
 * registered; EventDescriptor NULL: FALSE.
 */
BOOLEAN EVNTAPI EventEnabled(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor);
/* The same for a Level and Keyword. */
BOOLEAN EVNTAPI EventProviderEnabled(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword);

/*
 * EventWrite writes an event with the thread's activity ID to each session
 * that wants it (by its own level and keywords): kernel sessions through
 * NtTraceEvent(NTTRACE_ETW_NT_FLAGS_TRACE_EVENT), the process's user-mode logger
 * into its buffers (no system call; the record has
 * EVENT_HEADER_FLAG_PRIVATE_SESSION). An event no session wants is not
 * written and ERROR_SUCCESS returned, with no system call.
 * Returns ERROR_SUCCESS, or:
 *   ERROR_INVALID_HANDLE       RegHandle 0, or not a live registration
 *   ERROR_INVALID_PARAMETER    EventDescriptor NULL; UserDataCount above
 *                              MAX_EVENT_DATA_DESCRIPTORS; UserData NULL
 *                              with UserDataCount
 *   ERROR_ARITHMETIC_OVERFLOW  the record would pass 0xFFFF bytes
 *   ERROR_MORE_DATA            larger than a session's buffer
 *   ERROR_NOT_ENOUGH_MEMORY    no free buffer: the event is counted lost
 *   ERROR_NOACCESS             a data descriptor's bytes unreadable
 *   ERROR_BUSY                 the user-mode logger was interrupted on this
 *                              thread (a signal handler): see umlogger.c
 * When both a kernel session and the user-mode logger want the event, both
 * get it and the first failure (kernel first) is returned.
 */
ULONG EVNTAPI EventWrite(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
			 ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData);
/*
 * EventWriteTransfer: EventWrite with ActivityId (NULL: the thread's) and
 * RelatedActivityId (NULL: none; else an
 * EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID extended item). Its errors.
 */
ULONG EVNTAPI EventWriteTransfer(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
				 LPCGUID ActivityId, LPCGUID RelatedActivityId,
				 ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData);
/*
 * EventWriteEx: EventWriteTransfer with Filter (bit (logger ID - 1) set:
 * that kernel session does not get the event; the user-mode logger has no
 * bit) and Flags (EVENT_WRITE_FLAG_NO_FAULTING, EVENT_WRITE_FLAG_INPRIVATE:
 * accepted, and without effect here: the library never faults on the
 * caller's data, and no session excludes in-private events). Its errors,
 * and ERROR_INVALID_PARAMETER for other Flags.
 */
ULONG EVNTAPI EventWriteEx(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
			   ULONG64 Filter, ULONG Flags, LPCGUID ActivityId,
			   LPCGUID RelatedActivityId, ULONG UserDataCount,
			   PEVENT_DATA_DESCRIPTOR UserData);
/*
 * EventWriteString: an event of descriptor { Id 0, Level, Keyword } whose
 * data is String (UTF-16, its NUL included), with
 * EVENT_HEADER_FLAG_STRING_ONLY. EventWrite's errors, and
 * ERROR_INVALID_PARAMETER for String NULL.
 */
ULONG EVNTAPI EventWriteString(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword,
			       PCWSTR String);

/*
 * The calling thread's activity ID (initially GUID_NULL), which EventWrite
 * writes: GET_ID copies it to *ActivityId; SET_ID sets it from
 * *ActivityId; CREATE_ID puts a new locally unique ID in *ActivityId (the
 * thread's unchanged); GET_SET_ID sets it from *ActivityId and returns the
 * previous one there; CREATE_SET_ID sets a new one and returns the
 * previous one in *ActivityId. No system call.
 * Returns ERROR_SUCCESS, or ERROR_INVALID_PARAMETER (ActivityId NULL, or
 * an unknown ControlCode).
 */
ULONG EVNTAPI EventActivityIdControl(ULONG ControlCode, LPGUID ActivityId);

/*
 * EventSetInformation: EventProviderBinaryTrackInfo is accepted and does
 * nothing (there is no binary to track here); EventProviderSetTraits and
 * EventProviderUseDescriptorType are ERROR_NOT_SUPPORTED (traits are not
 * written into records; descriptor types are not interpreted).
 * Returns ERROR_SUCCESS, or:
 *   ERROR_INVALID_PARAMETER    RegHandle not a live registration;
 *                              EventInformation NULL with InformationLength
 *   ERROR_NOT_SUPPORTED        any other InformationClass
 */
ULONG EVNTAPI EventSetInformation(REGHANDLE RegHandle, EVENT_INFO_CLASS InformationClass,
				  PVOID EventInformation, ULONG InformationLength);

static inline void EventDataDescCreate(PEVENT_DATA_DESCRIPTOR EventDataDescriptor,
				       const void *DataPtr, ULONG DataSize)
{
	EventDataDescriptor->Ptr = (ULONGLONG)(uintptr_t)DataPtr;
	EventDataDescriptor->Size = DataSize;
	EventDataDescriptor->Reserved = 0;
}

static inline void EventDescCreate(PEVENT_DESCRIPTOR EventDescriptor, USHORT Id,
				   UCHAR Version, UCHAR Channel, UCHAR Level, USHORT Task,
				   UCHAR Opcode, ULONGLONG Keyword)
{
	EventDescriptor->Id = Id;
	EventDescriptor->Version = Version;
	EventDescriptor->Channel = Channel;
	EventDescriptor->Level = Level;
	EventDescriptor->Task = Task;
	EventDescriptor->Opcode = Opcode;
	EventDescriptor->Keyword = Keyword;
}

/*
 * The registrations' table (the library's), as the inline tests below read
 * it: slot (handle & NTTRACE_INLINE_REG_INDEX_MASK) holds the live handle
 * of its registration, and the registration begins with the kernel's
 * enable info and the in-process logger's (both written under their
 * sequence counts; a test reads only @sessions, a word).
 */
#define NTTRACE_INLINE_REG_INDEX_MASK	(NTTRACE_MAX_REGISTRATIONS - 1)
#define NTTRACE_INLINE_REG_EVENT_BIT	((uint32_t)NTTRACE_MAX_REGISTRATIONS)
struct nttrace_event_reg;
struct nttrace_event_reg_head {
	struct nttrace_enable_info info;	/* the kernel's sessions */
	struct nttrace_enable_info priv;	/* the in-process logger's */
};
struct nttrace_reg_slot {
	uint32_t key;			/* its live handle; 0: free */
	struct nttrace_event_reg *reg;	/* made at the slot's first use, kept */
};
extern struct nttrace_reg_slot nttrace_reg_slots[NTTRACE_MAX_REGISTRATIONS];

/*
 * A live EventRegister handle whose provider no session enables: what a
 * disabled call tests, in the caller (as mc's and TraceLogging's headers
 * test their providers), before it calls the library. The load of the
 * slot's key pairs with the library's store-release of it, made once the
 * registration is whole. 0 for any other handle: the library then says
 * what it is.
 */
static inline int nttrace_event_off(REGHANDLE RegHandle)
{
	const struct nttrace_reg_slot *s =
		&nttrace_reg_slots[RegHandle & NTTRACE_INLINE_REG_INDEX_MASK];
	const struct nttrace_event_reg_head *r;

	if (!(RegHandle & NTTRACE_INLINE_REG_EVENT_BIT) ||
	    __atomic_load_n(&s->key, __ATOMIC_ACQUIRE) != RegHandle)
		return 0;
	r = (const struct nttrace_event_reg_head *)(const void *)s->reg;
	return !(__atomic_load_n(&r->info.sessions, __ATOMIC_RELAXED) |
		 __atomic_load_n(&r->priv.sessions, __ATOMIC_RELAXED));
}

/*
 * EventWrite, EventWriteTransfer, EventWriteEx, EventEnabled and
 * EventProviderEnabled, as a caller compiles them: the test above, then
 * the library's function only when a session may want the event, or the
 * arguments are for it to refuse (a handle not live, no descriptor,
 * EventWriteEx's unknown flags). The same results as the functions'; a
 * disabled call costs a load of the slot, of the registration's two
 * words and a branch (about 1 ns where the call cost 1.5 to 2.7). Define
 * NTTRACE_NO_INLINE_EVENTS before including this header for calls alone.
 */
static inline ULONG nttrace_inline_EventWrite(REGHANDLE RegHandle,
					      PCEVENT_DESCRIPTOR EventDescriptor,
					      ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData)
{
	if (EventDescriptor && nttrace_event_off(RegHandle))
		return ERROR_SUCCESS;
	return EventWrite(RegHandle, EventDescriptor, UserDataCount, UserData);
}

static inline ULONG nttrace_inline_EventWriteTransfer(REGHANDLE RegHandle,
						      PCEVENT_DESCRIPTOR EventDescriptor,
						      LPCGUID ActivityId,
						      LPCGUID RelatedActivityId,
						      ULONG UserDataCount,
						      PEVENT_DATA_DESCRIPTOR UserData)
{
	if (EventDescriptor && nttrace_event_off(RegHandle))
		return ERROR_SUCCESS;
	return EventWriteTransfer(RegHandle, EventDescriptor, ActivityId, RelatedActivityId,
				  UserDataCount, UserData);
}

static inline ULONG nttrace_inline_EventWriteEx(REGHANDLE RegHandle,
						PCEVENT_DESCRIPTOR EventDescriptor,
						ULONG64 Filter, ULONG Flags, LPCGUID ActivityId,
						LPCGUID RelatedActivityId, ULONG UserDataCount,
						PEVENT_DATA_DESCRIPTOR UserData)
{
	if (!(Flags & ~(ULONG)(EVENT_WRITE_FLAG_NO_FAULTING | EVENT_WRITE_FLAG_INPRIVATE)) &&
	    EventDescriptor && nttrace_event_off(RegHandle))
		return ERROR_SUCCESS;
	return EventWriteEx(RegHandle, EventDescriptor, Filter, Flags, ActivityId,
			    RelatedActivityId, UserDataCount, UserData);
}

static inline BOOLEAN nttrace_inline_EventEnabled(REGHANDLE RegHandle,
						  PCEVENT_DESCRIPTOR EventDescriptor)
{
	if (nttrace_event_off(RegHandle))
		return FALSE;
	return EventEnabled(RegHandle, EventDescriptor);
}

static inline BOOLEAN nttrace_inline_EventProviderEnabled(REGHANDLE RegHandle, UCHAR Level,
							  ULONGLONG Keyword)
{
	if (nttrace_event_off(RegHandle))
		return FALSE;
	return EventProviderEnabled(RegHandle, Level, Keyword);
}

#ifndef NTTRACE_NO_INLINE_EVENTS
#define EventWrite		nttrace_inline_EventWrite
#define EventWriteTransfer	nttrace_inline_EventWriteTransfer
#define EventWriteEx		nttrace_inline_EventWriteEx
#define EventEnabled		nttrace_inline_EventEnabled
#define EventProviderEnabled	nttrace_inline_EventProviderEnabled
#endif

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_EVNTPROV_H */
