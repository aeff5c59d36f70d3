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
typedef uint16_t USHORT, WCHAR;
typedef int32_t LONG;
typedef int BOOL;
#ifndef TRUE
#define TRUE	1
#define FALSE	0
#endif
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
#ifndef IsEqualGUID
#define IsEqualGUID(a, b)	(!memcmp((a), (b), sizeof(GUID)))
#endif

#endif /* NTTRACE_WINNT_H */
