/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: the Windows SDK's TraceLoggingProvider.h, for
 * self-describing ETW events, with the SDK's names, macros and encoding,
 * in C (C11 with GNU's __VA_OPT__ and packed structs: gcc, clang) and C++
 * (C++11 and later); and, as the SDK's serves drivers too, in kernel
 * mode (one text for both: <nttrace/tracelogging_kernel.h> is what differs
 * in the kernel).
 *
 *   TRACELOGGING_DEFINE_PROVIDER(g_hProvider, "MyProvider",
 *	(0xb3864c38, 0x4273, 0x58c5, 0x54, 0x5b, 0x8b, 0x36, 0x08, 0x34, 0x34, 0x71));
 *   TraceLoggingRegister(g_hProvider);
 *   TraceLoggingWrite(g_hProvider, "MyEvent", TraceLoggingLevel(WINEVENT_LEVEL_INFO),
 *		       TraceLoggingInt32(argc), TraceLoggingString(argv[0], "arg0"));
 *   TraceLoggingUnregister(g_hProvider);
 *
 * Each event is an EventWriteTransfer of the provider's registration with
 * descriptor 0 the provider's metadata (EVENT_DATA_DESCRIPTOR_TYPE_
 * PROVIDER_METADATA), descriptor 1 the event's (EVENT_METADATA), both
 * built by the compiler as static data, and then the fields' data, packed:
 * the records carry them as EVENT_HEADER_EXT_TYPE_PROV_TRAITS and
 * EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL items, as Windows writes them.
 * The event descriptor: Id 0, Version 0, Task 0, Level 5, Opcode 0,
 * Keyword 0 and Channel 11 (WINEVENT_CHANNEL_TRACELOGGING) unless the
 * arguments say otherwise. A write no session wants costs an inline test
 * of the provider's level and keywords (updated by its enable callback),
 * and its arguments are not evaluated.
 *
 * The metadata's format, the wrapper macros' types and defaults are from
 * Microsoft's documentation of TraceLoggingProvider.h and its public
 * tracelogging repository (TraceLoggingDynamic.h's format description);
 * the machinery is in <nttrace/tracelogging_meta.h>.
 *
 * Linux differences: WCHAR is 16 bits (u"..." literals), wchar_t 32:
 * TraceLoggingWideString, TraceLoggingCountedWideString and
 * TraceLoggingWChar take WCHAR (UTF-16), and C++'s TraceLoggingValue
 * takes no wchar_t string (a wchar_t character is written as UTF-16, a
 * character past U+FFFF truncated). TraceLoggingSid takes any pointer to a
 * SID's bytes. Descriptions and custom attributes are accepted and
 * dropped (the SDK keeps them in the PDB only). Not here:
 * TraceLoggingWriteEx, TraceLoggingAnsiString and TraceLoggingUnicodeString
 * (no STRING types), the Packed and Custom macros, TraceLoggingSid in
 * TraceLoggingValue, and the TLG_EVENT_* overrides.
 */
#ifndef NTTRACE_TRACELOGGINGPROVIDER_H
#define NTTRACE_TRACELOGGINGPROVIDER_H

/*
 * This file serves both modes; what differs between them is a small shim
 * chosen by __KERNEL__ (which Kbuild defines for a module): the user
 * mode's below, the kernel's <nttrace/tracelogging_kernel.h>. Each gives
 *   struct nttrace_tl_provider, its members in this order whatever their
 *	names (TRACELOGGING_DEFINE_PROVIDER initialises them by position):
 *	level + 1, keyword any, keyword all, registration, metadata, the
 *	GUID, the caller's enable callback and its context;
 *   TraceLoggingHProvider (a pointer to a const one), TLG_STATUS and the
 *	registration calls under the SDK's names;
 *   nttrace_tl_enabled(h, level, keyword), the inline enable test, and
 *	nttrace_tl_write(h, descriptor, activity, related, count, data), the
 *	write with descriptor 0 still to fill with the provider's metadata;
 *   the types: NTTRACE_TL_ED (an event descriptor: Id, Version, Channel,
 *	Level, Opcode, Task, Keyword, in this order), NTTRACE_TL_DD (a data
 *	descriptor), NTTRACE_TL_GUID_T, NTTRACE_TL_WCHAR (16 bits),
 *	NTTRACE_TL_INTPTR; NTTRACE_TL_GUID(11 parts), a GUID's initialiser;
 *	nttrace_tl_desc(d, p, size) and nttrace_tl_desc_typed(d, p, size,
 *	type), which fill a data descriptor.
 * The rest, the encoding of the metadata and every wrapper macro, is
 * shared: this file's and tracelogging_meta.h's.
 */
#ifdef __KERNEL__
#include <nttrace/tracelogging_kernel.h>
#else /* !__KERNEL__ */

#include <stdint.h>
#include <string.h>

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/winmeta.h>

#ifdef __cplusplus
#include <type_traits>
#endif

/* HRESULT, which the user-mode registration returns (winerror.h's). */
typedef LONG HRESULT;
#ifndef S_OK
#define S_OK			((HRESULT)0)
#endif
#ifndef SUCCEEDED
#define SUCCEEDED(hr)		((HRESULT)(hr) >= 0)
#define FAILED(hr)		((HRESULT)(hr) < 0)
#endif
#ifndef HRESULT_FROM_WIN32
#define HRESULT_FROM_WIN32(x)							\
	((HRESULT)(x) <= 0 ? (HRESULT)(x) : (HRESULT)(((x) & 0x0000FFFF) | 0x80070000))
#endif

typedef HRESULT TLG_STATUS;
typedef PENABLECALLBACK TLG_PENABLECALLBACK;

/*
 * A provider: its state (what its sessions enable, kept by the library's
 * enable callback; LevelPlus1 0: none), its registration and its static
 * metadata. TRACELOGGING_DEFINE_PROVIDER makes one; its members are the
 * library's and the macros'.
 */
struct nttrace_tl_provider {
	ULONG LevelPlus1;		/* highest level enabled + 1; 256: every level */
	ULONGLONG KeywordAny;
	ULONGLONG KeywordAll;
	REGHANDLE RegHandle;		/* 0: not registered */
	const void *Metadata;		/* UINT16 size, name, traits */
	GUID ProviderId;
	TLG_PENABLECALLBACK Callback;	/* TraceLoggingRegisterEx's */
	PVOID CallbackContext;
};
typedef const struct nttrace_tl_provider *TraceLoggingHProvider;

#define NTTRACE_TL_ED		EVENT_DESCRIPTOR
#define NTTRACE_TL_DD		EVENT_DATA_DESCRIPTOR
#define NTTRACE_TL_GUID_T	GUID
#define NTTRACE_TL_WCHAR	WCHAR
#define NTTRACE_TL_INTPTR	intptr_t
#define NTTRACE_TL_GUID(g1, g2, g3, g4, g5, g6, g7, g8, g9, g10, g11)		\
	{ g1, g2, g3, { g4, g5, g6, g7, g8, g9, g10, g11 } }

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Registers the provider (EventRegister with the library's own enable
 * callback, which keeps the provider's state and then calls
 * @EnableCallback, if any, with @CallbackContext), then gives ETW its
 * metadata (EventSetInformation, EventProviderSetTraits). S_OK, or
 * HRESULT_FROM_WIN32 of EventRegister's error; HRESULT_FROM_WIN32
 * (ERROR_INVALID_PARAMETER) for a provider already registered. A provider
 * that fails to register writes nothing, and unregisters as a no-op.
 */
TLG_STATUS TraceLoggingRegister(TraceLoggingHProvider hProvider);
TLG_STATUS TraceLoggingRegisterEx(TraceLoggingHProvider hProvider,
				  TLG_PENABLECALLBACK pEnableCallback, PVOID pCallbackContext);
/* Ends the registration (a no-op for one not registered); it may register again. */
void TraceLoggingUnregister(TraceLoggingHProvider hProvider);
/* EventSetInformation for the provider's registration, as an HRESULT. */
TLG_STATUS TraceLoggingSetInformation(TraceLoggingHProvider hProvider,
				      EVENT_INFO_CLASS informationClass, PVOID pvInformation,
				      ULONG cbInformation);
/*
 * TraceLoggingWrite's call: descriptor 0 set to the provider's metadata,
 * then EventWriteTransfer. @UserData[1] is the event's metadata.
 */
ULONG nttrace_tl_write(TraceLoggingHProvider hProvider, PCEVENT_DESCRIPTOR EventDescriptor,
		       LPCGUID ActivityId, LPCGUID RelatedActivityId, ULONG UserDataCount,
		       PEVENT_DATA_DESCRIPTOR UserData);

#ifdef __cplusplus
}
#endif

/*
 * Does a session want events of @level and @keyword? Level: below
 * LevelPlus1 (0 asks for any level); keyword: 0, or one of KeywordAny's
 * bits and all of KeywordAll's (McGenLevelKeywordEnabled's rule, which the
 * SDK's TraceLogging uses too). A few loads, no call.
 */
static inline BOOLEAN nttrace_tl_enabled(TraceLoggingHProvider p, UCHAR level, ULONGLONG keyword)
{
	ULONGLONG all;

	if (level >= __atomic_load_n(&p->LevelPlus1, __ATOMIC_RELAXED))
		return 0;
	if (!keyword)
		return 1;
	all = __atomic_load_n(&p->KeywordAll, __ATOMIC_RELAXED);
	return (keyword & __atomic_load_n(&p->KeywordAny, __ATOMIC_RELAXED)) &&
	       (keyword & all) == all;
}

static inline BOOLEAN TraceLoggingProviderEnabled(TraceLoggingHProvider hProvider,
						  UCHAR eventLevel, ULONGLONG eventKeyword)
{
	return nttrace_tl_enabled(hProvider, eventLevel, eventKeyword);
}

static inline GUID TraceLoggingProviderId(TraceLoggingHProvider hProvider)
{
	return hProvider->ProviderId;
}

static inline void nttrace_tl_desc(PEVENT_DATA_DESCRIPTOR d, const void *p, uint32_t size)
{
	EventDataDescCreate(d, p, size);
}

static inline void nttrace_tl_desc_typed(PEVENT_DATA_DESCRIPTOR d, const void *p, uint32_t size,
					 uint8_t type)
{
	EventDataDescCreate(d, p, size);
	d->Type = type;
}

#endif /* !__KERNEL__ */

/* ---- both modes ---- */

/*
 * The handle's definition: C++ gives a const at namespace scope internal
 * linkage unless it is extern "C"; C gives it external linkage as it is
 * (and warns of an extern with an initialiser). The const follows the
 * type, so that it makes the handle const whether TraceLoggingHProvider
 * is a typedef (user mode) or a macro (kernel mode).
 */
#ifdef __cplusplus
#define NTTRACE_TL_EXTERN_C		extern "C"
#define NTTRACE_TL_EXTERN_C_DEF		extern "C"
#else
#define NTTRACE_TL_EXTERN_C		extern
#define NTTRACE_TL_EXTERN_C_DEF
#endif

/*
 * The field types: InType (bits 0-4, with the count bits) and OutType, as
 * the SDK names them; BinaryEx takes a TlgOut_t.
 */
enum TlgIn_t {
	TlgInNULL, TlgInUNICODESTRING, TlgInANSISTRING, TlgInINT8, TlgInUINT8,
	TlgInINT16, TlgInUINT16, TlgInINT32, TlgInUINT32, TlgInINT64, TlgInUINT64,
	TlgInFLOAT, TlgInDOUBLE, TlgInBOOL32, TlgInBINARY, TlgInGUID,
	_TlgInPOINTER_unsupported, TlgInFILETIME, TlgInSYSTEMTIME, TlgInSID,
	TlgInHEXINT32, TlgInHEXINT64, TlgInCOUNTEDSTRING, TlgInCOUNTEDANSISTRING,
	_TlgInSTRUCT, TlgInCOUNTEDBINARY,
	TlgInINTPTR = sizeof(void *) == 8 ? TlgInINT64 : TlgInINT32,
	TlgInUINTPTR = sizeof(void *) == 8 ? TlgInUINT64 : TlgInUINT32,
	TlgInPOINTER = sizeof(void *) == 8 ? TlgInHEXINT64 : TlgInHEXINT32,
	TlgInLONG = TlgInINT32,		/* Windows' LONG is 32 bits */
	TlgInULONG = TlgInUINT32,
	TlgInHEXLONG = TlgInHEXINT32,
	_TlgInCcount = 0x20,
	TlgInVcount = 0x40,
};
enum TlgOut_t {
	TlgOutNULL, TlgOutNOPRINT, TlgOutSTRING, TlgOutBOOLEAN, TlgOutHEX, TlgOutPID,
	TlgOutTID, TlgOutPORT, TlgOutIPV4, TlgOutIPV6, TlgOutSOCKETADDRESS, TlgOutXML,
	TlgOutJSON, TlgOutWIN32ERROR, TlgOutNTSTATUS, TlgOutHRESULT, TlgOutFILETIME,
	TlgOutSIGNED, TlgOutUNSIGNED,
	TlgOutUTF8 = 35, TlgOutPKCS7_WITH_TYPE_INFO, TlgOutCODE_POINTER, TlgOutDATETIME_UTC,
};

/*
 * Provider options: a trait of @type (1: the provider group) whose data
 * is a @ctype initialised by the parenthesised @value.
 */
#define TraceLoggingOptionTrait(type, ctype, value)	(type, ctype, value)
#define TraceLoggingOptionGroup(g1, g2, g3, g4, g5, g6, g7, g8, g9, g10, g11)	\
	TraceLoggingOptionTrait(1, NTTRACE_TL_GUID_T,				\
				(NTTRACE_TL_GUID(g1, g2, g3, g4, g5, g6, g7, g8, g9, g10, g11)))
/*
 * Provider metadata (TraceLoggingDynamic.h's ProviderMetadata): UINT16
 * size counting itself, the name (nul-terminated), then each trait: UINT16
 * size counting itself, UINT8 type, data.
 */
#define NTTRACE_TL_PROVIDER(storage, name, id, ...)				\
	static const struct {							\
		uint16_t size;							\
		char name_[sizeof(name)];					\
		NTTRACE_TL_FOR(NTTRACE_TL_TRAIT_DO, MB, __VA_ARGS__)		\
	} NTTRACE_TL_PACKED storage##_nttrace_tl_meta = {			\
		sizeof(storage##_nttrace_tl_meta), name				\
		NTTRACE_TL_FOR(NTTRACE_TL_TRAIT_DO, IN, __VA_ARGS__)		\
	};									\
	static struct nttrace_tl_provider storage = {				\
		0, 0, 0, 0, &storage##_nttrace_tl_meta,				\
		NTTRACE_TL_GUID id, NULL, NULL }
#define NTTRACE_TL_TRAIT_DO(c, k, j, t)	NTTRACE_TL_TRAIT_##c##_(k, NTTRACE_TL_UNPAREN(t))
#define NTTRACE_TL_TRAIT_MB_K(k, type, ctype, value)				\
	uint16_t tsize##k; uint8_t ttype##k; ctype tvalue##k;
#define NTTRACE_TL_TRAIT_IN_K(k, type, ctype, value)				\
	, (uint16_t)(3 + sizeof(ctype)), type, NTTRACE_TL_UNPAREN(value)
#define NTTRACE_TL_TRAIT_MB_(k, ...)	NTTRACE_TL_TRAIT_MB_K(k, __VA_ARGS__)
#define NTTRACE_TL_TRAIT_IN_(k, ...)	NTTRACE_TL_TRAIT_IN_K(k, __VA_ARGS__)

/*
 * TRACELOGGING_DEFINE_PROVIDER(handle, "Name", (11 GUID parts), [options]):
 * the provider's storage and metadata, and the handle (a const global).
 * TRACELOGGING_DEFINE_PROVIDER_STORAGE(storage, ...): the storage only, a
 * static struct the caller takes the address of.
 */
#define TRACELOGGING_DECLARE_PROVIDER(handle)					\
	NTTRACE_TL_EXTERN_C TraceLoggingHProvider const handle
#define TRACELOGGING_DEFINE_PROVIDER(handle, name, id, ...)			\
	NTTRACE_TL_PROVIDER(handle##_nttrace_tl_storage, name, id, __VA_ARGS__);	\
	NTTRACE_TL_EXTERN_C_DEF TraceLoggingHProvider const handle =		\
		&handle##_nttrace_tl_storage
#define TRACELOGGING_DEFINE_PROVIDER_STORAGE(storage, name, id, ...)		\
	NTTRACE_TL_PROVIDER(storage, name, id, __VA_ARGS__)

/* The data of a nul-terminated string, its nul included; NULL is "". */
static inline void nttrace_tl_sz8(NTTRACE_TL_DD *d, const char *s)
{
	if (!s)
		s = "";
	nttrace_tl_desc(d, s, (uint32_t)strlen(s) + 1);
}

static inline void nttrace_tl_sz16(NTTRACE_TL_DD *d, const NTTRACE_TL_WCHAR *s)
{
	static const NTTRACE_TL_WCHAR empty = 0;
	uint32_t n = 0;

	if (!s)
		s = &empty;
	while (s[n])
		n++;
	nttrace_tl_desc(d, s, (n + 1) * sizeof(NTTRACE_TL_WCHAR));
}

/* A SID's bytes: 8, and 4 for each subauthority (its count at byte 1). */
static inline void nttrace_tl_sid(NTTRACE_TL_DD *d, const void *sid)
{
	const uint8_t *p = (const uint8_t *)sid;

	nttrace_tl_desc(d, p, 8 + 4 * (uint32_t)p[1]);
}

#ifdef __cplusplus
static inline void nttrace_tl_sz16(NTTRACE_TL_DD *d, const char16_t *s)
{
	nttrace_tl_sz16(d, (const NTTRACE_TL_WCHAR *)s);
}
#endif

#include <nttrace/tracelogging_meta.h>

/* ---- events ---- */

#define TraceLoggingWrite(hProvider, eventName, ...)				\
	NTTRACE_TL_WRITE(hProvider, eventName, NULL, NULL, __VA_ARGS__)
#define TraceLoggingWriteActivity(hProvider, eventName, pActivityId, pRelatedActivityId, ...) \
	NTTRACE_TL_WRITE(hProvider, eventName, pActivityId, pRelatedActivityId, __VA_ARGS__)

/* Options: the last level, opcode and channel win; keywords and tags OR. */
#define TraceLoggingLevel(eventLevel)		NTTRACE_TL_OPT(1, eventLevel, 0, 0, 0, 0, 0, 0)
#define TraceLoggingOpcode(eventOpcode)		NTTRACE_TL_OPT(0, 0, 1, eventOpcode, 0, 0, 0, 0)
#define TraceLoggingChannel(eventChannel)	NTTRACE_TL_OPT(0, 0, 0, 0, 1, eventChannel, 0, 0)
#define TraceLoggingKeyword(eventKeyword)	NTTRACE_TL_OPT(0, 0, 0, 0, 0, 0, eventKeyword, 0)
#define TraceLoggingEventTag(eventTag)						\
	NTTRACE_TL_OPT(0, 0, 0, 0, 0, 0, 0, ((uint32_t)(eventTag) & 0x0FFFFFFF))
#define TraceLoggingDescription(description)	NTTRACE_TL_OPT(0, 0, 0, 0, 0, 0, 0, 0)
#define TraceLoggingCustomAttribute(key, value)	NTTRACE_TL_OPT(0, 0, 0, 0, 0, 0, 0, 0)

/* A struct: the next @fieldCount fields are its members (InType 24, OutType the count). */
#define TraceLoggingStruct(fieldCount, name, ...)				\
	NTTRACE_TL_FIELD(none, _TlgInSTRUCT, fieldCount, 0, 0, ~, ~, ~, name, name, __VA_ARGS__)

/* ---- fields: (value[, "name"[, "description"[, tags]]]) ---- */

/* A scalar by value: C type, value, InType, OutType. */
#define NTTRACE_TL_VAL(ctype, v, sv, i, o, ...)					\
	NTTRACE_TL_FIELD(val, i, o, 0, 1, ctype, v, ~, sv, __VA_ARGS__)
/* By reference (GUID, FILETIME, SYSTEMTIME): @v is an lvalue. */
#define NTTRACE_TL_REF(ctype, v, sv, i, o, ...)					\
	NTTRACE_TL_FIELD(ref, i, o, 0, 1, ctype, v, ~, sv, __VA_ARGS__)

#define TraceLoggingInt8(v, ...)	NTTRACE_TL_VAL(int8_t, v, #v, TlgInINT8, 0, __VA_ARGS__)
#define TraceLoggingUInt8(v, ...)	NTTRACE_TL_VAL(uint8_t, v, #v, TlgInUINT8, 0, __VA_ARGS__)
#define TraceLoggingInt16(v, ...)	NTTRACE_TL_VAL(int16_t, v, #v, TlgInINT16, 0, __VA_ARGS__)
#define TraceLoggingUInt16(v, ...)	NTTRACE_TL_VAL(uint16_t, v, #v, TlgInUINT16, 0, __VA_ARGS__)
#define TraceLoggingInt32(v, ...)	NTTRACE_TL_VAL(int32_t, v, #v, TlgInINT32, 0, __VA_ARGS__)
#define TraceLoggingUInt32(v, ...)	NTTRACE_TL_VAL(uint32_t, v, #v, TlgInUINT32, 0, __VA_ARGS__)
#define TraceLoggingInt64(v, ...)	NTTRACE_TL_VAL(int64_t, v, #v, TlgInINT64, 0, __VA_ARGS__)
#define TraceLoggingUInt64(v, ...)	NTTRACE_TL_VAL(uint64_t, v, #v, TlgInUINT64, 0, __VA_ARGS__)
#define TraceLoggingIntPtr(v, ...)	NTTRACE_TL_VAL(NTTRACE_TL_INTPTR, v, #v, TlgInINTPTR, 0, __VA_ARGS__)
#define TraceLoggingUIntPtr(v, ...)	NTTRACE_TL_VAL(uintptr_t, v, #v, TlgInUINTPTR, 0, __VA_ARGS__)
#define TraceLoggingLong(v, ...)	NTTRACE_TL_VAL(int32_t, v, #v, TlgInLONG, 0, __VA_ARGS__)
#define TraceLoggingULong(v, ...)	NTTRACE_TL_VAL(uint32_t, v, #v, TlgInULONG, 0, __VA_ARGS__)
#define TraceLoggingHexInt8(v, ...)						\
	NTTRACE_TL_VAL(int8_t, v, #v, TlgInUINT8, TlgOutHEX, __VA_ARGS__)
#define TraceLoggingHexUInt8(v, ...)						\
	NTTRACE_TL_VAL(uint8_t, v, #v, TlgInUINT8, TlgOutHEX, __VA_ARGS__)
#define TraceLoggingHexInt16(v, ...)						\
	NTTRACE_TL_VAL(int16_t, v, #v, TlgInUINT16, TlgOutHEX, __VA_ARGS__)
#define TraceLoggingHexUInt16(v, ...)						\
	NTTRACE_TL_VAL(uint16_t, v, #v, TlgInUINT16, TlgOutHEX, __VA_ARGS__)
#define TraceLoggingHexInt32(v, ...)	NTTRACE_TL_VAL(int32_t, v, #v, TlgInHEXINT32, 0, __VA_ARGS__)
#define TraceLoggingHexUInt32(v, ...)	NTTRACE_TL_VAL(uint32_t, v, #v, TlgInHEXINT32, 0, __VA_ARGS__)
#define TraceLoggingHexInt64(v, ...)	NTTRACE_TL_VAL(int64_t, v, #v, TlgInHEXINT64, 0, __VA_ARGS__)
#define TraceLoggingHexUInt64(v, ...)	NTTRACE_TL_VAL(uint64_t, v, #v, TlgInHEXINT64, 0, __VA_ARGS__)
#define TraceLoggingHexIntPtr(v, ...)	NTTRACE_TL_VAL(NTTRACE_TL_INTPTR, v, #v, TlgInPOINTER, 0, __VA_ARGS__)
#define TraceLoggingHexUIntPtr(v, ...)	NTTRACE_TL_VAL(uintptr_t, v, #v, TlgInPOINTER, 0, __VA_ARGS__)
#define TraceLoggingHexLong(v, ...)	NTTRACE_TL_VAL(int32_t, v, #v, TlgInHEXLONG, 0, __VA_ARGS__)
#define TraceLoggingHexULong(v, ...)	NTTRACE_TL_VAL(uint32_t, v, #v, TlgInHEXLONG, 0, __VA_ARGS__)
#ifndef __KERNEL__
/* Not in kernel mode: a module's code may not touch the FPU's registers. */
#define TraceLoggingFloat32(v, ...)	NTTRACE_TL_VAL(float, v, #v, TlgInFLOAT, 0, __VA_ARGS__)
#define TraceLoggingFloat64(v, ...)	NTTRACE_TL_VAL(double, v, #v, TlgInDOUBLE, 0, __VA_ARGS__)
#endif
/* Boolean: 8 bits; Bool: 32 (BOOL). */
#define TraceLoggingBoolean(v, ...)						\
	NTTRACE_TL_VAL(uint8_t, v, #v, TlgInUINT8, TlgOutBOOLEAN, __VA_ARGS__)
#define TraceLoggingBool(v, ...)	NTTRACE_TL_VAL(int32_t, v, #v, TlgInBOOL32, 0, __VA_ARGS__)
#define TraceLoggingChar(v, ...)						\
	NTTRACE_TL_VAL(char, v, #v, TlgInUINT8, TlgOutSTRING, __VA_ARGS__)
#define TraceLoggingChar16(v, ...)						\
	NTTRACE_TL_VAL(uint16_t, v, #v, TlgInUINT16, TlgOutSTRING, __VA_ARGS__)
#define TraceLoggingWChar(v, ...)						\
	NTTRACE_TL_VAL(NTTRACE_TL_WCHAR, v, #v, TlgInUINT16, TlgOutSTRING, __VA_ARGS__)
/* Pointers: their value, hexadecimal, pointer-sized. */
#define TraceLoggingPointer(v, ...)						\
	NTTRACE_TL_VAL(uintptr_t, (uintptr_t)(v), #v, TlgInPOINTER, 0, __VA_ARGS__)
#define TraceLoggingCodePointer(v, ...)						\
	NTTRACE_TL_VAL(uintptr_t, (uintptr_t)(v), #v, TlgInPOINTER, TlgOutCODE_POINTER,	\
		       __VA_ARGS__)
#define TraceLoggingPid(v, ...)							\
	NTTRACE_TL_VAL(uint32_t, v, #v, TlgInUINT32, TlgOutPID, __VA_ARGS__)
#define TraceLoggingTid(v, ...)							\
	NTTRACE_TL_VAL(uint32_t, v, #v, TlgInUINT32, TlgOutTID, __VA_ARGS__)
/* A port as sockaddr_in holds it (network order: the SDK writes it as given). */
#define TraceLoggingPort(v, ...)						\
	NTTRACE_TL_VAL(uint16_t, v, #v, TlgInUINT16, TlgOutPORT, __VA_ARGS__)
#define TraceLoggingWinError(v, ...)						\
	NTTRACE_TL_VAL(uint32_t, v, #v, TlgInUINT32, TlgOutWIN32ERROR, __VA_ARGS__)
#define TraceLoggingNTStatus(v, ...)						\
	NTTRACE_TL_VAL(int32_t, v, #v, TlgInUINT32, TlgOutNTSTATUS, __VA_ARGS__)
#define TraceLoggingHResult(v, ...)						\
	NTTRACE_TL_VAL(int32_t, v, #v, TlgInINT32, TlgOutHRESULT, __VA_ARGS__)
/* An IPv4 address as sin_addr.s_addr holds it. */
#define TraceLoggingIPv4Address(v, ...)						\
	NTTRACE_TL_VAL(uint32_t, v, #v, TlgInUINT32, TlgOutIPV4, __VA_ARGS__)
#ifndef __KERNEL__
/* Not in kernel mode: the kernel has no FILETIME or SYSTEMTIME. */
#define TraceLoggingFileTime(v, ...)	NTTRACE_TL_REF(FILETIME, v, #v, TlgInFILETIME, 0, __VA_ARGS__)
#define TraceLoggingFileTimeUtc(v, ...)						\
	NTTRACE_TL_REF(FILETIME, v, #v, TlgInFILETIME, TlgOutDATETIME_UTC, __VA_ARGS__)
#define TraceLoggingSystemTime(v, ...)						\
	NTTRACE_TL_REF(SYSTEMTIME, v, #v, TlgInSYSTEMTIME, 0, __VA_ARGS__)
#define TraceLoggingSystemTimeUtc(v, ...)					\
	NTTRACE_TL_REF(SYSTEMTIME, v, #v, TlgInSYSTEMTIME, TlgOutDATETIME_UTC, __VA_ARGS__)
#endif
#define TraceLoggingGuid(v, ...)						\
	NTTRACE_TL_REF(NTTRACE_TL_GUID_T, v, #v, TlgInGUID, 0, __VA_ARGS__)
#define TraceLoggingSid(p, ...)							\
	NTTRACE_TL_FIELD(sid, TlgInSID, 0, 0, 1, ~, p, ~, #p, __VA_ARGS__)

/* Strings: nul-terminated (NULL is ""), or counted in characters. */
#define TraceLoggingString(s, ...)						\
	NTTRACE_TL_FIELD(sz8, TlgInANSISTRING, 0, 0, 1, ~, s, ~, #s, __VA_ARGS__)
#define TraceLoggingUtf8String(s, ...)						\
	NTTRACE_TL_FIELD(sz8, TlgInANSISTRING, TlgOutUTF8, 0, 1, ~, s, ~, #s, __VA_ARGS__)
#define TraceLoggingWideString(s, ...)						\
	NTTRACE_TL_FIELD(sz16, TlgInUNICODESTRING, 0, 0, 1, ~, s, ~, #s, __VA_ARGS__)
#define TraceLoggingString16(s, ...)	TraceLoggingWideString(s, __VA_ARGS__)
#define TraceLoggingCountedString(p, n, ...)					\
	NTTRACE_TL_FIELD(cnt, TlgInCOUNTEDANSISTRING, 0, 0, 2, char, p, n, #p, __VA_ARGS__)
#define TraceLoggingCountedUtf8String(p, n, ...)				\
	NTTRACE_TL_FIELD(cnt, TlgInCOUNTEDANSISTRING, TlgOutUTF8, 0, 2, char, p, n, #p,	\
			 __VA_ARGS__)
#define TraceLoggingCountedWideString(p, n, ...)				\
	NTTRACE_TL_FIELD(cnt, TlgInCOUNTEDSTRING, 0, 0, 2, NTTRACE_TL_WCHAR, p, n, #p,	\
			 __VA_ARGS__)
#define TraceLoggingCountedString16(p, n, ...)	TraceLoggingCountedWideString(p, n, __VA_ARGS__)

/* Binary: a UINT16 byte count, then the bytes. */
#define TraceLoggingBinary(p, cb, ...)						\
	NTTRACE_TL_FIELD(bin, TlgInBINARY, 0, 0, 2, ~, p, cb, #p, __VA_ARGS__)
#define TraceLoggingBinaryEx(p, cb, outType, ...)				\
	NTTRACE_TL_FIELD(bin, TlgInBINARY, outType, 0, 2, ~, p, cb, #p, __VA_ARGS__)
#define TraceLoggingSocketAddress(p, cb, ...)					\
	NTTRACE_TL_FIELD(bin, TlgInBINARY, TlgOutSOCKETADDRESS, 0, 2, ~, p, cb, #p, __VA_ARGS__)
#define TraceLoggingIPv6Address(p, ...)						\
	NTTRACE_TL_FIELD(bin, TlgInBINARY, TlgOutIPV6, 0, 2, ~, p, 16, #p, __VA_ARGS__)

/*
 * Arrays of @n elements at @p: Fixed (@n a constant, in the metadata) and
 * variable (a UINT16 count before the elements, in the data).
 */
#define NTTRACE_TL_FARR(ctype, p, n, sp, i, o, ...)				\
	NTTRACE_TL_FIELD(farr, (i) | _TlgInCcount, o, n, 1, ctype, p, n, sp, __VA_ARGS__)
#define NTTRACE_TL_ARR(ctype, p, n, sp, i, o, ...)				\
	NTTRACE_TL_FIELD(arr, (i) | TlgInVcount, o, 0, 2, ctype, p, n, sp, __VA_ARGS__)
#include <nttrace/tracelogging_arrays.h>

#ifdef __cplusplus
#include <nttrace/tracelogging_value.h>
#endif

#endif /* NTTRACE_TRACELOGGINGPROVIDER_H */
