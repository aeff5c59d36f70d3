/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: C++'s TraceLoggingValue(value, ...), the field
 * whose type follows the value's (<nttrace/traceloggingprovider.h>, which
 * includes this in C++). The SDK's table (Microsoft's TraceLoggingValue
 * documentation): bool Boolean, char Char, char16_t Char16, wchar_t WChar,
 * the integer types IntNN/UIntNN of their size, float Float32, double
 * Float64, GUID Guid, FILETIME FileTime, SYSTEMTIME SystemTime, void *
 * Pointer, char * String, char16_t * String16, WCHAR * (PWSTR, PCWSTR)
 * WideString. A type not in the table
 * does not compile (nttrace_tl_value<T> has no definition). Not here:
 * wchar_t * (UTF-32 on Linux) and SID *.
 *
 * nttrace_tl_value<T>: in and out, the field's InType and OutType; store,
 * what is kept until the write; get, the value to keep; fill, its data.
 */
#ifndef NTTRACE_TRACELOGGING_VALUE_H
#define NTTRACE_TRACELOGGING_VALUE_H

/* Its types and helpers (which include this file back: guarded). */
#include <nttrace/traceloggingprovider.h>

#ifdef __cplusplus

#define TraceLoggingValue(v, ...)						\
	NTTRACE_TL_FIELD(auto, NTTRACE_TL_VT(v)::in, NTTRACE_TL_VT(v)::out, 0, 1, ~, v, ~, #v,	\
			 __VA_ARGS__)

/* A value kept as type S, its bytes the data. */
template <class T, class S, unsigned In, unsigned Out> struct nttrace_tl_scalar {
	static constexpr unsigned in = In;
	static constexpr unsigned out = Out;
	typedef S store;
	static S get(const T &v)
	{
		return (S)v;
	}
	static void fill(PEVENT_DATA_DESCRIPTOR d, const S &v)
	{
		EventDataDescCreate(d, &v, sizeof(S));
	}
};

/* An integer: IntNN or UIntNN of its size. */
template <class T> struct nttrace_tl_int
	: nttrace_tl_scalar<T, T,
			    sizeof(T) == 1 ? (std::is_signed<T>::value ? TlgInINT8 : TlgInUINT8) :
			    sizeof(T) == 2 ? (std::is_signed<T>::value ? TlgInINT16 : TlgInUINT16) :
			    sizeof(T) == 4 ? (std::is_signed<T>::value ? TlgInINT32 : TlgInUINT32) :
			    (std::is_signed<T>::value ? TlgInINT64 : TlgInUINT64), 0> {};

/* A nul-terminated string, kept as its pointer. */
template <class C, unsigned In> struct nttrace_tl_sz {
	static constexpr unsigned in = In;
	static constexpr unsigned out = 0;
	typedef const C *store;
	static const C *get(const C *v)
	{
		return v;
	}
	static void fill(PEVENT_DATA_DESCRIPTOR d, const C *v)
	{
		if (sizeof(C) == 1)
			nttrace_tl_sz8(d, (const char *)v);
		else
			nttrace_tl_sz16(d, (const WCHAR *)v);
	}
};

template <class T> struct nttrace_tl_value;
template <> struct nttrace_tl_value<bool>
	: nttrace_tl_scalar<bool, UINT8, TlgInUINT8, TlgOutBOOLEAN> {};
template <> struct nttrace_tl_value<char>
	: nttrace_tl_scalar<char, char, TlgInUINT8, TlgOutSTRING> {};
template <> struct nttrace_tl_value<char16_t>
	: nttrace_tl_scalar<char16_t, UINT16, TlgInUINT16, TlgOutSTRING> {};
template <> struct nttrace_tl_value<wchar_t>
	: nttrace_tl_scalar<wchar_t, UINT16, TlgInUINT16, TlgOutSTRING> {};
template <> struct nttrace_tl_value<signed char> : nttrace_tl_int<signed char> {};
template <> struct nttrace_tl_value<unsigned char> : nttrace_tl_int<unsigned char> {};
template <> struct nttrace_tl_value<short> : nttrace_tl_int<short> {};
template <> struct nttrace_tl_value<unsigned short> : nttrace_tl_int<unsigned short> {};
template <> struct nttrace_tl_value<int> : nttrace_tl_int<int> {};
template <> struct nttrace_tl_value<unsigned int> : nttrace_tl_int<unsigned int> {};
template <> struct nttrace_tl_value<long> : nttrace_tl_int<long> {};
template <> struct nttrace_tl_value<unsigned long> : nttrace_tl_int<unsigned long> {};
template <> struct nttrace_tl_value<long long> : nttrace_tl_int<long long> {};
template <> struct nttrace_tl_value<unsigned long long> : nttrace_tl_int<unsigned long long> {};
template <> struct nttrace_tl_value<float>
	: nttrace_tl_scalar<float, float, TlgInFLOAT, 0> {};
template <> struct nttrace_tl_value<double>
	: nttrace_tl_scalar<double, double, TlgInDOUBLE, 0> {};
template <> struct nttrace_tl_value<GUID> : nttrace_tl_scalar<GUID, GUID, TlgInGUID, 0> {};
template <> struct nttrace_tl_value<FILETIME>
	: nttrace_tl_scalar<FILETIME, FILETIME, TlgInFILETIME, 0> {};
template <> struct nttrace_tl_value<SYSTEMTIME>
	: nttrace_tl_scalar<SYSTEMTIME, SYSTEMTIME, TlgInSYSTEMTIME, 0> {};
template <> struct nttrace_tl_value<void *>
	: nttrace_tl_scalar<void *, uintptr_t, TlgInPOINTER, 0> {};
template <> struct nttrace_tl_value<const void *>
	: nttrace_tl_scalar<const void *, uintptr_t, TlgInPOINTER, 0> {};
template <> struct nttrace_tl_value<char *> : nttrace_tl_sz<char, TlgInANSISTRING> {};
template <> struct nttrace_tl_value<const char *> : nttrace_tl_sz<char, TlgInANSISTRING> {};
template <> struct nttrace_tl_value<char16_t *>
	: nttrace_tl_sz<char16_t, TlgInUNICODESTRING> {};
template <> struct nttrace_tl_value<const char16_t *>
	: nttrace_tl_sz<char16_t, TlgInUNICODESTRING> {};
/*
 * WCHAR is unsigned short here (UTF-16: Linux's wchar_t is 32 bits), so a
 * pointer to it is a PWSTR/PCWSTR, a wide string as on Windows.
 */
template <> struct nttrace_tl_value<WCHAR *> : nttrace_tl_sz<WCHAR, TlgInUNICODESTRING> {};
template <> struct nttrace_tl_value<const WCHAR *>
	: nttrace_tl_sz<WCHAR, TlgInUNICODESTRING> {};

#endif /* __cplusplus */

#endif /* NTTRACE_TRACELOGGING_VALUE_H */
