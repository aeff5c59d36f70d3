/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: the Windows base types the other headers use, with
 * Windows' sizes. Windows spreads them over windef.h, basetsd.h, winnt.h and
 * guiddef.h; here they are in one place.
 *
 * ULONG is 32 bits, WCHAR is 16 bits (UTF-16, u"..." literals), HANDLE and
 * ULONG_PTR are pointer-sized, and 64-bit members are 8-byte aligned in
 * 32-bit builds too, as MSVC lays them out, so that structs have one
 * layout (at Windows' offsets) for 32- and 64-bit callers alike.
 */
#ifndef NTTRACE_WINNT_H
#define NTTRACE_WINNT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef WINAPI
#define WINAPI
#endif
#ifndef WMIAPI
#define WMIAPI
#endif

#ifndef VOID
#define VOID void
#endif
/* The declared length of a struct's trailing array that holds more. */
#ifndef ANYSIZE_ARRAY
#define ANYSIZE_ARRAY 1
#endif
typedef void *HANDLE;
typedef void *PVOID;
typedef uint32_t ULONG;
typedef uint8_t UCHAR, BOOLEAN, BYTE;
typedef uint16_t USHORT;
/*
 * WCHAR is a UTF-16 unit. Compiled with a 16-bit wchar_t (-fshort-wchar,
 * as nttrace-windows.pc compiles Windows sources), it is wchar_t itself,
 * so that L"..." is a WCHAR string in C++ too, as on Windows; otherwise an
 * unsigned short (Linux's wchar_t is 32 bits) written with u"...". Either
 * way it has 16 bits: the library's ABI is the same for both.
 * NTTRACE_WTEXT("...") is a WCHAR string literal in either.
 */
#if defined(__SIZEOF_WCHAR_T__) && __SIZEOF_WCHAR_T__ == 2
#define NTTRACE_WCHAR_IS_WCHAR_T 1
typedef wchar_t WCHAR;
#define NTTRACE_WTEXT(s)	L##s
#elif defined(__cplusplus)
typedef uint16_t WCHAR;
#define NTTRACE_WTEXT(s)	((const WCHAR *)u##s)
#else
typedef uint16_t WCHAR;
#define NTTRACE_WTEXT(s)	u##s
#endif
typedef int32_t LONG;
typedef int BOOL;
#ifndef TRUE
#define TRUE	1
#define FALSE	0
#endif
/* The fixed-width and pointer-width names (basetsd.h, windef.h). */
typedef int8_t INT8;
typedef uint8_t UINT8;
typedef int16_t INT16, SHORT;
typedef uint16_t UINT16, WORD;
typedef int32_t INT32, INT, LONG32;
typedef uint32_t UINT32, UINT, ULONG32, DWORD32;
/*
 * Values, not structure members in nttrace's headers: no aligned(8) as
 * ULONGLONG has (C++ templates would drop it, and say so).
 */
typedef int64_t INT64, LONG64;
typedef uint64_t UINT64, DWORD64;
typedef char CHAR;
typedef float FLOAT;
typedef intptr_t INT_PTR, LONG_PTR;
typedef uintptr_t UINT_PTR;
typedef uint64_t ULONG64 __attribute__((aligned(8)));
typedef uint64_t ULONGLONG __attribute__((aligned(8)));
typedef int64_t LONGLONG __attribute__((aligned(8)));
typedef uintptr_t ULONG_PTR;
typedef size_t SIZE_T;
typedef ULONG *PULONG;
typedef USHORT *PUSHORT;
typedef BYTE *PBYTE;
typedef BOOLEAN *PBOOLEAN;
typedef const void *LPCVOID;
typedef char *LPSTR;
typedef const char *LPCSTR;
typedef WCHAR *LPWSTR, *PWSTR, *PWCHAR;
typedef const WCHAR *LPCWSTR;

/* The declared length of a variable-length array at a struct's end. */
#ifndef ANYSIZE_ARRAY
#define ANYSIZE_ARRAY	1
#endif

typedef union _LARGE_INTEGER {
	struct {
		ULONG LowPart;
		LONG HighPart;
	};
	LONGLONG QuadPart;
} LARGE_INTEGER, *PLARGE_INTEGER;

#ifndef GUID_DEFINED
#define GUID_DEFINED
typedef struct _GUID {
	ULONG Data1;
	USHORT Data2;
	USHORT Data3;
	UCHAR Data4[8];
} GUID;
#endif
typedef GUID *LPGUID;
typedef const GUID *LPCGUID;

/* As guiddef.h has it in C: nonzero when the GUIDs are the same. */
/* A security identifier (winnt.h): 8 bytes, then 4 per sub-authority. */
#define SID_REVISION	1
typedef struct _SID_IDENTIFIER_AUTHORITY {
	BYTE Value[6];
} SID_IDENTIFIER_AUTHORITY, *PSID_IDENTIFIER_AUTHORITY;
typedef struct _SID {
	BYTE Revision;
	BYTE SubAuthorityCount;
	SID_IDENTIFIER_AUTHORITY IdentifierAuthority;
	ULONG SubAuthority[ANYSIZE_ARRAY];
} SID, *PISID;
typedef PVOID PSID;

#ifndef IsEqualGUID
#define IsEqualGUID(a, b)	(!memcmp((a), (b), sizeof(GUID)))
#endif

#endif /* NTTRACE_WINNT_H */
