/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <guiddef.h> for Windows sources (nttrace-windows.pc): GUID (with
 * <nttrace/winnt.h>'s layout), IID and CLSID, the REF* parameter types,
 * IsEqualGUID and, in C++, == and != on GUIDs, and DEFINE_GUID: a
 * declaration, or with INITGUID defined first (<initguid.h>) the GUID's
 * one definition, weak as MSVC's selectany makes it, so that every file
 * may define it.
 */
#ifndef NTTRACE_WINDOWS_GUIDDEF_H
#define NTTRACE_WINDOWS_GUIDDEF_H

#include <nttrace/winnt.h>

typedef GUID IID, CLSID, FMTID;
typedef IID *LPIID;
typedef CLSID *LPCLSID;
#ifdef __cplusplus
#define REFGUID		const GUID &
#define REFIID		const IID &
#define REFCLSID	const IID &
#define REFFMTID	const IID &
#else
#define REFGUID		const GUID *
#define REFIID		const IID *
#define REFCLSID	const IID *
#define REFFMTID	const IID *
#endif

/*
 * IsEqualGUID takes pointers in C (<nttrace/winnt.h>'s macro) and, as
 * REFGUID says, references in C++.
 */
#ifdef __cplusplus
#undef IsEqualGUID
inline int IsEqualGUID(const GUID &a, const GUID &b)
{
	return !memcmp(&a, &b, sizeof(GUID));
}
#endif
#define InlineIsEqualGUID(a, b)	IsEqualGUID(a, b)
#define IsEqualIID(a, b)	IsEqualGUID(a, b)
#define IsEqualCLSID(a, b)	IsEqualGUID(a, b)

#ifdef __cplusplus
inline bool operator==(const GUID &a, const GUID &b)
{
	return IsEqualGUID(a, b);
}

inline bool operator!=(const GUID &a, const GUID &b)
{
	return !(a == b);
}
#endif

/* C++ gives a namespace-scope const internal linkage: not the GUID's. */
#ifdef __cplusplus
#define NTTRACE_WIN_GUID_DEF	extern "C"
#define NTTRACE_WIN_GUID_DECL	extern "C"
#else
#define NTTRACE_WIN_GUID_DEF
#define NTTRACE_WIN_GUID_DECL	extern
#endif
#endif /* NTTRACE_WINDOWS_GUIDDEF_H */

/* Outside the guard: <initguid.h> includes this again after INITGUID. */
#undef DEFINE_GUID
#ifdef INITGUID
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)		\
	NTTRACE_WIN_GUID_DECL const GUID name __attribute__((__weak__));	\
	NTTRACE_WIN_GUID_DEF const GUID name __attribute__((__weak__)) =	\
		{ l, w1, w2, { b1, b2, b3, b4, b5, b6, b7, b8 } }
#else
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)		\
	NTTRACE_WIN_GUID_DECL const GUID name
#endif
