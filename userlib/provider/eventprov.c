// SPDX-License-Identifier: LGPL-2.1
/*
 * Manifest-based providers: EventRegister, EventUnregister, EventEnabled,
 * EventProviderEnabled, EventWrite, EventWriteTransfer, EventWriteEx,
 * EventWriteString, EventActivityIdControl, EventSetInformation.
 *
 * Registration is provider/register.c's machinery (the entry, the
 * notification thread, the callbacks, fork): nttrace_event_register. The
 * REGHANDLE is an index into register.c's table of registrations with a
 * generation (provider_internal.h): a load of its slot and a compare, no lock,
 * stand between a call and the entry's enable information: the kernel's
 * (struct nttrace_enable_info, the union over kernel sessions) and the
 * user-mode logger's private enable, both read under their sequence
 * counts.
 *
 * The fast path: a disabled provider costs the slot's load and compare,
 * then two loads (the kernel's session count and the private one, ORed)
 * and one branch: no system call, no lock, no atomic read-modify-write. An enabled one
 * checks the event against each enable with NTTRACE_LEVEL_KEYWORD_ENABLED
 * (McGenLevelKeywordEnabled's rule); kernel sessions get it through
 * NtTraceEvent(NTTRACE_ETW_NT_FLAGS_TRACE_EVENT) with Windows' 0x78-byte
 * block (struct nttrace_event_write_user) built on the stack (the kernel
 * applies each session's own level and keywords), the user-mode logger
 * straight into its buffers.
 *
 * Choices where Microsoft is silent:
 * - EventWrite* neither read nor set the last error (NTDLL's EtwEventWrite,
 *   which they are on Windows, returns its error only); EventRegister,
 *   EventUnregister, EventActivityIdControl and EventSetInformation set it
 *   as this library's other functions do.
 * - A RegHandle of 0, a stale one (after EventUnregister) and any value
 *   EventRegister did not give are ERROR_INVALID_HANDLE (EventWrite*,
 *   EventUnregister), FALSE (EventEnabled, EventProviderEnabled) or
 *   ERROR_INVALID_PARAMETER (EventSetInformation), found so by the table,
 *   without reading memory through the value (on Windows such a value is
 *   undefined).
 * - EventDescriptor NULL: ERROR_INVALID_PARAMETER (Windows would fault).
 * - The activity ID EventActivityIdControl creates is locally unique: a
 *   per-process random base (one getrandom, at the first CREATE) and a
 *   counter, in GUID form with the version nibble 4 and variant bits 10.
 */
/* The functions themselves are defined here: not the header's inline tests. */
#define NTTRACE_NO_INLINE_EVENTS
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/nt.h>

#include "provider_internal.h"
#include "record.h"

static ULONG set_error(ULONG error)
{
	SetLastError(error);
	return error;
}

/* The thread's activity ID (EventActivityIdControl). */
static __thread GUID thread_activity;

ULONG EVNTAPI EventRegister(LPCGUID ProviderId, PENABLECALLBACK EnableCallback,
			    PVOID CallbackContext, PREGHANDLE RegHandle)
{
	uint64_t h = 0;
	ULONG err;

	if (RegHandle)
		*RegHandle = 0;
	if (!ProviderId || !RegHandle)
		return set_error(ERROR_INVALID_PARAMETER);
	err = nttrace_event_register(ProviderId, EnableCallback, CallbackContext, &h);
	if (err == ERROR_SUCCESS)
		*RegHandle = h;
	return set_error(err);
}

ULONG EVNTAPI EventUnregister(REGHANDLE RegHandle)
{
	return set_error(nttrace_event_unregister(RegHandle));
}

/* Whether an enable (kernel aggregate or private) takes @level, @keyword. */
static int takes(const struct nttrace_enable_info *v, UCHAR level, ULONGLONG keyword)
{
	return v->sessions &&
	       NTTRACE_LEVEL_KEYWORD_ENABLED(v->level, v->match_any_keyword,
					     v->match_all_keyword, level, keyword);
}

/* Past the fast path: the whole rule. */
static __attribute__((noinline)) BOOLEAN enabled_slow(const struct nttrace_event_reg *r,
						      REGHANDLE h, UCHAR level,
						      ULONGLONG keyword)
{
	struct nttrace_enable_info k, p;

	if (!nttrace_event_reg_live(r, h))
		return FALSE;
	nttrace_read_enable_info(&r->info, &k);
	if (takes(&k, level, keyword))
		return TRUE;
	nttrace_read_enable_info(&r->priv, &p);
	return takes(&p, level, keyword);
}

/* No session at all: the load-and-branch every disabled call costs. */
static inline int none_enabled(const struct nttrace_event_reg *r)
{
	return !(__atomic_load_n(&r->info.sessions, __ATOMIC_RELAXED) |
		 __atomic_load_n(&r->priv.sessions, __ATOMIC_RELAXED));
}

BOOLEAN EVNTAPI EventProviderEnabled(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword)
{
	const struct nttrace_event_reg *r = nttrace_event_reg_of(RegHandle);

	if (__builtin_expect(!r || none_enabled(r), 1))
		return FALSE;
	return enabled_slow(r, RegHandle, Level, Keyword);
}

BOOLEAN EVNTAPI EventEnabled(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor)
{
	const struct nttrace_event_reg *r = nttrace_event_reg_of(RegHandle);

	if (__builtin_expect(!r || none_enabled(r), 1) || !EventDescriptor)
		return FALSE;
	return enabled_slow(r, RegHandle, EventDescriptor->Level, EventDescriptor->Keyword);
}

/*
 * Whether the user-mode logger's enable's filters (EnableTraceEx2's) let
 * the event through: read-locked, and only when there are some (a
 * filter set meanwhile may miss the events written meanwhile, as a
 * changing enable may). An event they keep out is not wanted: not lost.
 */
static int private_filters_pass(const struct nttrace_event_reg *r, const EVENT_DESCRIPTOR *d,
				const EVENT_DATA_DESCRIPTOR *data, ULONG count, uint32_t wflags)
{
	const struct nttrace_filters *f;
	int pass = 1;

	if (!__atomic_load_n(&r->priv_filters, __ATOMIC_RELAXED))
		return 1;
	pthread_rwlock_rdlock(&nttrace_filters_lock);
	f = r->priv_filters;
	if (f)
		pass = nttrace_filters_pass(f, &r->guid, (const struct nttrace_event_descriptor *)d,
					    (const struct nttrace_event_data_descriptor *)data,
					    count, wflags);
	pthread_rwlock_unlock(&nttrace_filters_lock);
	return pass;
}

/**
 * nttrace_event_block() - Windows' 0x78-byte block of an event for NtTraceEvent
 * @f: the block, filled in whole
 * @d: the event's descriptor
 * @activity: its activity ID; NULL: the calling thread's
 * @related: its related activity ID, or NULL
 * @wflags: the write flags (NTTRACE_EVENT_WRITE_FLAG_*, NTTRACE_WFLAG_STRING_ONLY)
 * @filter: EventWriteEx's Filter: bit (logger ID - 1) leaves that session out
 * @property: the header's EventProperty
 * @count: how many data descriptors
 * @data: the descriptors
 *
 * What EventWrite* and NTDLL's writes (ntwmi.c) pass the kernel: the
 * header's members the caller fills, the related activity, the filter as
 * the USHORT of 16 loggers and, since nttrace has 64, whole in the
 * header's ProcessorTime with NTTRACE_EVENT_WRITE_FLAG_FILTER64.
 */
void nttrace_event_block(struct nttrace_event_write_user *f, const EVENT_DESCRIPTOR *d,
			 const GUID *activity, const GUID *related, uint32_t wflags,
			 uint64_t filter, uint16_t property, ULONG count,
			 const EVENT_DATA_DESCRIPTOR *data)
{
	if (!activity)
		activity = &thread_activity;
	memset(f, 0, sizeof(*f));
	memcpy(&f->header.descriptor, d, sizeof(f->header.descriptor));
	memcpy(f->header.activity_id, activity, 16);
	f->header.event_property = property;
	if (wflags & NTTRACE_WFLAG_STRING_ONLY)
		f->header.flags = NTTRACE_EVENT_HEADER_FLAG_STRING_ONLY;
	if (related) {
		f->related_activity = 1;
		memcpy(f->related_activity_id, related, 16);
	}
	f->flags = wflags & (NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES |
			     NTTRACE_EVENT_WRITE_FLAG_NO_FAULTING |
			     NTTRACE_EVENT_WRITE_FLAG_INPRIVATE);
	f->filter = (uint16_t)filter;
	if (filter >> 16) {
		f->flags |= NTTRACE_EVENT_WRITE_FLAG_FILTER64;
		f->header.processor_time = filter;
	}
	f->data_count = count;
	f->data = count ? (uintptr_t)data : 0;
}

/*
 * An event some enable may want: each enable's own check, then the
 * kernel's sessions (one NtTraceEvent) and the user-mode logger.
 */
static __attribute__((noinline)) ULONG write_slow(const struct nttrace_event_reg *r,
						  REGHANDLE h, const EVENT_DESCRIPTOR *d,
						  ULONG64 filter, const GUID *activity,
						  const GUID *related, uint32_t wflags,
						  ULONG count, const EVENT_DATA_DESCRIPTOR *data)
{
	struct nttrace_enable_info k, p;
	struct nttrace_event_write_user f;
	ULONG err = ERROR_SUCCESS, err2;

	if (!nttrace_event_reg_live(r, h))
		return ERROR_INVALID_HANDLE;
	if (count > MAX_EVENT_DATA_DESCRIPTORS || (count && !data))
		return ERROR_INVALID_PARAMETER;
	if (!activity)
		activity = &thread_activity;
	wflags |= __atomic_load_n(&r->write_flags, __ATOMIC_RELAXED);
	nttrace_read_enable_info(&r->info, &k);
	nttrace_read_enable_info(&r->priv, &p);
	/* EventWriteEx's Filter: bit (logger ID - 1) leaves that session out. */
	if (takes(&k, d->Level, d->Keyword) && (k.loggers & ~filter) && r->kernel_handle) {
		nttrace_event_block(&f, d, activity, related, wflags, filter, 0, count, data);
		err = RtlNtStatusToDosError(NtTraceEvent((HANDLE)(uintptr_t)r->kernel_handle,
							 NTTRACE_ETW_NT_FLAGS_TRACE_EVENT,
							 NTTRACE_EVENT_WRITE_USER_SIZE, &f));
	}
	if (takes(&p, d->Level, d->Keyword) && private_filters_pass(r, d, data, count, wflags)) {
		err2 = nttrace_um_event_write(p.logger_handle, &r->guid,
					      (const struct nttrace_event_descriptor *)d,
					      (const uint8_t *)activity, (const uint8_t *)related,
					      wflags, (const struct nttrace_event_data_descriptor *)data,
					      count);
		if (err == ERROR_SUCCESS)
			err = err2;
	}
	return err;
}

static inline ULONG write_event(REGHANDLE h, const EVENT_DESCRIPTOR *d, ULONG64 filter,
				const GUID *activity, const GUID *related, uint32_t wflags,
				ULONG count, const EVENT_DATA_DESCRIPTOR *data)
{
	const struct nttrace_event_reg *r = nttrace_event_reg_of(h);

	if (!r)
		return ERROR_INVALID_HANDLE;
	if (!d)
		return ERROR_INVALID_PARAMETER;
	if (__builtin_expect(none_enabled(r), 1))
		return ERROR_SUCCESS;
	return write_slow(r, h, d, filter, activity, related, wflags, count, data);
}

ULONG EVNTAPI EventWrite(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
			 ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData)
{
	return write_event(RegHandle, EventDescriptor, 0, NULL, NULL, 0, UserDataCount,
			   UserData);
}

ULONG EVNTAPI EventWriteTransfer(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
				 LPCGUID ActivityId, LPCGUID RelatedActivityId,
				 ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData)
{
	return write_event(RegHandle, EventDescriptor, 0, ActivityId, RelatedActivityId, 0,
			   UserDataCount, UserData);
}

ULONG EVNTAPI EventWriteEx(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
			   ULONG64 Filter, ULONG Flags, LPCGUID ActivityId,
			   LPCGUID RelatedActivityId, ULONG UserDataCount,
			   PEVENT_DATA_DESCRIPTOR UserData)
{
	if (Flags & ~(ULONG)(EVENT_WRITE_FLAG_NO_FAULTING | EVENT_WRITE_FLAG_INPRIVATE))
		return ERROR_INVALID_PARAMETER;
	/* Flags go to the kernel as the block's, as Windows' do. */
	return write_event(RegHandle, EventDescriptor, Filter, ActivityId, RelatedActivityId,
			   Flags, UserDataCount, UserData);
}

ULONG EVNTAPI EventWriteString(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword,
			       PCWSTR String)
{
	EVENT_DESCRIPTOR d = { .Level = Level, .Keyword = Keyword };
	const struct nttrace_event_reg *r = nttrace_event_reg_of(RegHandle);
	EVENT_DATA_DESCRIPTOR data;
	size_t n = 0;

	if (!r)
		return ERROR_INVALID_HANDLE;
	if (__builtin_expect(none_enabled(r), 1))
		return ERROR_SUCCESS;
	if (!String)
		return ERROR_INVALID_PARAMETER;
	/* The NUL too; a string past 64 KB is refused by the size check. */
	while (String[n] && n < 0x10000)
		n++;
	EventDataDescCreate(&data, String, (ULONG)((n + 1) * sizeof(WCHAR)));
	return write_slow(r, RegHandle, &d, 0, NULL, NULL, NTTRACE_WFLAG_STRING_ONLY, 1,
			  &data);
}

/* ---- activity IDs ---- */

static uint8_t activity_base[16];
static uint64_t activity_counter;	/* atomic */
static pthread_once_t activity_once = PTHREAD_ONCE_INIT;

static void activity_init(void)
{
	struct timespec ts;
	ssize_t got;

	got = getrandom(activity_base, sizeof(activity_base), GRND_NONBLOCK);
	if (got != (ssize_t)sizeof(activity_base)) {
		/* No entropy yet: time and PID still make it unlikely to meet. */
		clock_gettime(CLOCK_REALTIME, &ts);
		memcpy(activity_base, &ts, sizeof(ts) < 16 ? sizeof(ts) : 16);
		activity_base[15] ^= (uint8_t)getpid();
		activity_base[14] ^= (uint8_t)(getpid() >> 8);
	}
}

static void new_activity(GUID *g)
{
	uint64_t n = __atomic_add_fetch(&activity_counter, 1, __ATOMIC_RELAXED);
	uint8_t b[16];
	int i;

	pthread_once(&activity_once, activity_init);
	memcpy(b, activity_base, 16);
	/* The counter into the last 8 bytes: unique within the process. */
	for (i = 0; i < 8; i++)
		b[8 + i] ^= (uint8_t)(n >> (8 * i));
	memcpy(g, b, 16);
	g->Data3 = (USHORT)((g->Data3 & 0x0FFF) | 0x4000);
	g->Data4[0] = (UCHAR)((g->Data4[0] & 0x3F) | 0x80);
}

ULONG EVNTAPI EventActivityIdControl(ULONG ControlCode, LPGUID ActivityId)
{
	GUID prev;

	if (!ActivityId)
		return set_error(ERROR_INVALID_PARAMETER);
	switch (ControlCode) {
	case EVENT_ACTIVITY_CTRL_GET_ID:
		*ActivityId = thread_activity;
		break;
	case EVENT_ACTIVITY_CTRL_SET_ID:
		thread_activity = *ActivityId;
		break;
	case EVENT_ACTIVITY_CTRL_CREATE_ID:
		new_activity(ActivityId);
		break;
	case EVENT_ACTIVITY_CTRL_GET_SET_ID:
		prev = thread_activity;
		thread_activity = *ActivityId;
		*ActivityId = prev;
		break;
	case EVENT_ACTIVITY_CTRL_CREATE_SET_ID:
		prev = thread_activity;
		new_activity(&thread_activity);
		*ActivityId = prev;
		break;
	default:
		return set_error(ERROR_INVALID_PARAMETER);
	}
	return set_error(ERROR_SUCCESS);
}

ULONG EVNTAPI EventSetInformation(REGHANDLE RegHandle, EVENT_INFO_CLASS InformationClass,
				  PVOID EventInformation, ULONG InformationLength)
{
	struct nttrace_event_reg *r = nttrace_event_reg_of(RegHandle);
	const uint32_t types = NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES;

	if (!r || !nttrace_event_reg_live(r, RegHandle) ||
	    (!EventInformation && InformationLength))
		return set_error(ERROR_INVALID_PARAMETER);
	switch (InformationClass) {
	case EventProviderBinaryTrackInfo:
		/* Nothing to track: no binary image is recorded here. */
		return set_error(ERROR_SUCCESS);
	case EventProviderSetTraits:
		/*
		 * Windows keeps the traits and from now on honours the
		 * descriptors' Type. Here the traits reach a trace only as
		 * each event's PROVIDER_METADATA descriptor, as TraceLogging
		 * sends them: they are checked, not kept.
		 */
		if (!ntr_traits_valid(EventInformation, InformationLength))
			return set_error(ERROR_INVALID_PARAMETER);
		__atomic_or_fetch(&r->write_flags, types, __ATOMIC_RELAXED);
		return set_error(ERROR_SUCCESS);
	case EventProviderUseDescriptorType:
		/* A BOOLEAN: TRUE honours the Type, FALSE stops doing so. */
		if (InformationLength != sizeof(BOOLEAN))
			return set_error(ERROR_INVALID_PARAMETER);
		if (*(const BOOLEAN *)EventInformation)
			__atomic_or_fetch(&r->write_flags, types, __ATOMIC_RELAXED);
		else
			__atomic_and_fetch(&r->write_flags, ~types, __ATOMIC_RELAXED);
		return set_error(ERROR_SUCCESS);
	default:
		return set_error(ERROR_NOT_SUPPORTED);
	}
}
