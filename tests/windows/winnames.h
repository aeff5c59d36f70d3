// SPDX-License-Identifier: MIT
/*
 * A provider's GUID, handle and descriptor as mc.exe's generated headers
 * define them (EXTERN_C __declspec(selectany) ... = ...), in a header that
 * both of winnames' translation units include: each defines them, and
 * the program has one of each.
 */
#pragma once

#include <windows.h>
#include <evntprov.h>

/*
 * mingw-w64's GCC warns of an initialised extern, which mc.exe's form is
 * (C: any object; C++: one not const), with no option to silence it:
 * there, the forms it takes without. nttrace's __declspec(selectany) takes
 * the extern itself (<windows.h>), so mc.exe's form compiles as it is.
 */
#if defined(__MINGW32__) && defined(__cplusplus)
#define WINNAMES_CONST_SELECTANY	EXTERN_C __declspec(selectany)
#define WINNAMES_SELECTANY		__declspec(selectany)
#elif defined(__MINGW32__)
#define WINNAMES_CONST_SELECTANY	__declspec(selectany)
#define WINNAMES_SELECTANY		__declspec(selectany)
#else
#define WINNAMES_CONST_SELECTANY	EXTERN_C __declspec(selectany)
#define WINNAMES_SELECTANY		EXTERN_C __declspec(selectany)
#endif

/* {5f0c8a52-7d1e-4b7a-9a39-2c4e6b8d1f05} */
WINNAMES_CONST_SELECTANY const GUID WinNamesProvider =
	{ 0x5f0c8a52, 0x7d1e, 0x4b7a, { 0x9a, 0x39, 0x2c, 0x4e, 0x6b, 0x8d, 0x1f, 0x05 } };
WINNAMES_CONST_SELECTANY const EVENT_DESCRIPTOR WinNamesEvent =
	{ 0x1, 0x0, 0x0, 0x4, 0x0, 0x0, 0x8000000000000000 };
WINNAMES_SELECTANY REGHANDLE WinNamesHandle = (REGHANDLE)0;

/* winnames_guid.c's: its unit's view of them. */
EXTERN_C const GUID *WinNamesProviderThere(void);
EXTERN_C REGHANDLE *WinNamesHandleThere(void);
EXTERN_C const EVENT_DESCRIPTOR *WinNamesEventThere(void);
