// SPDX-License-Identifier: LGPL-2.1
/*
 * TraceLogging's run time (<nttrace/traceloggingprovider.h>): a
 * TRACELOGGING_DEFINE_PROVIDER provider registers through EventRegister
 * and writes through EventWriteTransfer, with its metadata in the first
 * two data descriptors. Only the evntprov.h API is called, so that the
 * host test (tests/host/tracelogging_test.c) can stand in for it.
 *
 * The provider's state (LevelPlus1, KeywordAny, KeywordAll), which
 * TraceLoggingWrite tests inline, is kept by tl_enable: EventRegister's
 * callback tells of each session's enable, and of the union of those left
 * when one lets go (register.c). The state widens with each enable (the
 * highest level, the keywords' union for Any and intersection for All)
 * and clears when no session is left: never narrower than what some
 * session wants (a narrower state would lose its events), sometimes wider
 * after a session went (the write then finds no session and writes
 * nothing, as EventWriteTransfer filters each session by its own level and
 * keywords).
 */
/*
 * The evntprov.h functions are called as they are (their own tests), not
 * through the header's inline ones: the host test plays them.
 */
#define NTTRACE_NO_INLINE_EVENTS
#include <string.h>

#include <nttrace/traceloggingprovider.h>

static struct nttrace_tl_provider *mine(TraceLoggingHProvider h)
{
	/* The storage is a static, writable struct; the handle says const. */
	return (struct nttrace_tl_provider *)h;
}

static void NTAPI tl_enable(LPCGUID source, ULONG code, UCHAR level, ULONGLONG any,
			    ULONGLONG all, PEVENT_FILTER_DESCRIPTOR filter, PVOID context)
{
	struct nttrace_tl_provider *p = context;
	ULONG plus1 = level ? (ULONG)level + 1 : 256;
	ULONG was = __atomic_load_n(&p->LevelPlus1, __ATOMIC_RELAXED);
	ULONGLONG new_any = any, new_all = all;

	if (code == EVENT_CONTROL_CODE_ENABLE_PROVIDER) {
		if (was) {
			new_any |= p->KeywordAny;
			new_all &= p->KeywordAll;
			if (plus1 < was)
				plus1 = was;
		}
		__atomic_store_n(&p->KeywordAny, new_any, __ATOMIC_RELAXED);
		__atomic_store_n(&p->KeywordAll, new_all, __ATOMIC_RELAXED);
		__atomic_store_n(&p->LevelPlus1, plus1, __ATOMIC_RELEASE);
	} else if (code == EVENT_CONTROL_CODE_DISABLE_PROVIDER) {
		__atomic_store_n(&p->LevelPlus1, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&p->KeywordAny, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&p->KeywordAll, 0, __ATOMIC_RELAXED);
	}
	if (p->Callback)
		p->Callback(source, code, level, any, all, filter, p->CallbackContext);
}

TLG_STATUS TraceLoggingRegisterEx(TraceLoggingHProvider hProvider,
				  TLG_PENABLECALLBACK pEnableCallback, PVOID pCallbackContext)
{
	struct nttrace_tl_provider *p = mine(hProvider);
	UINT16 size;
	REGHANDLE reg;
	ULONG err;

	if (!p || p->RegHandle)
		return HRESULT_FROM_WIN32(ERROR_INVALID_PARAMETER);
	p->Callback = pEnableCallback;
	p->CallbackContext = pCallbackContext;
	p->LevelPlus1 = 0;
	p->KeywordAny = 0;
	p->KeywordAll = 0;
	/* Enables made before run tl_enable here, before RegHandle is set. */
	err = EventRegister(&p->ProviderId, tl_enable, p, &reg);
	if (err != ERROR_SUCCESS)
		return HRESULT_FROM_WIN32(err);
	__atomic_store_n(&p->RegHandle, reg, __ATOMIC_RELEASE);
	/*
	 * The provider's traits (its name first), as TraceLoggingRegisterEx
	 * does on Windows; its failure (ERROR_NOT_SUPPORTED where the
	 * library takes no traits) leaves the registration standing, as a
	 * Windows without EventSetInformation does.
	 */
	memcpy(&size, p->Metadata, sizeof(size));
	EventSetInformation(reg, EventProviderSetTraits, (PVOID)p->Metadata, size);
	return S_OK;
}

TLG_STATUS TraceLoggingRegister(TraceLoggingHProvider hProvider)
{
	return TraceLoggingRegisterEx(hProvider, NULL, NULL);
}

void TraceLoggingUnregister(TraceLoggingHProvider hProvider)
{
	struct nttrace_tl_provider *p = mine(hProvider);
	REGHANDLE reg;

	if (!p)
		return;
	reg = __atomic_exchange_n(&p->RegHandle, 0, __ATOMIC_ACQ_REL);
	if (!reg)
		return;
	/* No callback runs once EventUnregister returns: then clear. */
	EventUnregister(reg);
	__atomic_store_n(&p->LevelPlus1, 0, __ATOMIC_RELEASE);
	p->KeywordAny = 0;
	p->KeywordAll = 0;
}

TLG_STATUS TraceLoggingSetInformation(TraceLoggingHProvider hProvider,
				      EVENT_INFO_CLASS informationClass, PVOID pvInformation,
				      ULONG cbInformation)
{
	REGHANDLE reg = hProvider ? __atomic_load_n(&hProvider->RegHandle, __ATOMIC_ACQUIRE) : 0;

	return HRESULT_FROM_WIN32(EventSetInformation(reg, informationClass, pvInformation,
						      cbInformation));
}

ULONG nttrace_tl_write(TraceLoggingHProvider hProvider, PCEVENT_DESCRIPTOR EventDescriptor,
		       LPCGUID ActivityId, LPCGUID RelatedActivityId, ULONG UserDataCount,
		       PEVENT_DATA_DESCRIPTOR UserData)
{
	REGHANDLE reg = __atomic_load_n(&hProvider->RegHandle, __ATOMIC_ACQUIRE);
	UINT16 size;

	/* Enabled from inside EventRegister: not registered yet. */
	if (!reg)
		return ERROR_INVALID_HANDLE;
	memcpy(&size, hProvider->Metadata, sizeof(size));
	EventDataDescCreate(&UserData[0], hProvider->Metadata, size);
	UserData[0].Type = EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA;
	return EventWriteTransfer(reg, EventDescriptor, ActivityId, RelatedActivityId,
				  UserDataCount, UserData);
}
