/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <windows.h> for Windows sources (nttrace-windows.pc): what ETW programs
 * use of Windows around their ETW calls, and no more (README, "The Windows
 * around ETW", lists it). A name that is not here is a compile error (C
 * too: nttrace-windows.pc makes an undeclared function one), never a
 * program that quietly does something else.
 *
 * The base types, with Windows' sizes (<nttrace/winnt.h>; WCHAR is the
 * 16-bit wchar_t this layer compiles with), the Win32 errors
 * (<winerror.h>), HRESULT, the SAL annotations, the memory, time and
 * process functions below, and, as Windows' brings them, the C runtime's
 * <stdio.h>, <stdlib.h>, <string.h> and <wchar.h> (with MSVC's wide and
 * printf semantics: see this directory's <wchar.h>), <limits.h> (with
 * Windows' long limits: below) and <objbase.h>'s StringFromGUID2.
 *
 * Installed in $(includedir)/nttrace/windows, which
 * `pkg-config --cflags nttrace-windows` puts on the include path, so
 * that Windows sources compile unchanged.
 */
#ifndef NTTRACE_WINDOWS_WINDOWS_H
#define NTTRACE_WINDOWS_WINDOWS_H

#include "nttrace_win.h"
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <nttrace/winnt.h>
#include "sal.h"
#include "winerror.h"

/*
 * long. Windows is LLP64: its long is 32 bits. Here long is the
 * compiler's, 64 bits in a 64-bit program (32 in a 32-bit one): the C
 * library's functions and structs take that long, and no header can
 * change it. The Windows types keep Windows' sizes all the same: LONG,
 * ULONG and DWORD are 32 bits (<nttrace/winnt.h>).
 *
 * <limits.h> comes with <windows.h>, as the SDK's headers bring it, with
 * LONG_MAX, LONG_MIN and ULONG_MAX made Windows' values, the limits of
 * LONG and ULONG: Windows code compares its 32-bit ULONGs and DWORDs with
 * ULONG_MAX (TDH's whole-array index, a "none" result), which a 64-bit
 * ULONG_MAX would never equal (-Wtype-limits says so). The price, in a
 * 64-bit program: they are no longer the limits of long and unsigned
 * long, so code that tests those against them (strtoul's overflow,
 * (unsigned long)-1 == ULONG_MAX) misses, and a header included after
 * this one that tells long's size from them (zlib's zconf.h) takes long
 * for 32 bits. Such a program defines NTTRACE_WIN_LINUX_LIMITS before
 * including <windows.h> and keeps <limits.h>'s values. LONG_BIT and the
 * other values <limits.h> derives from them are <limits.h>'s.
 */
#ifndef NTTRACE_WIN_LINUX_LIMITS
#undef LONG_MAX
#define LONG_MAX		2147483647L
#undef LONG_MIN
#define LONG_MIN		(-LONG_MAX - 1L)
#undef ULONG_MAX
#define ULONG_MAX		0xffffffffUL
#endif
/* winnt.h's limits of its types. */
#define MAXCHAR			0x7f
#define MAXSHORT		0x7fff
#define MAXBYTE			0xff
#define MAXWORD			0xffff
#define MAXDWORD		0xffffffff
#define MAXLONG			0x7fffffff
#define MINLONG			0x80000000
#define MAXLONGLONG		0x7fffffffffffffffLL

/* Calling conventions and parameter words: one convention on Linux. */
#ifndef __stdcall
#define __stdcall
#endif
#ifndef __cdecl
#define __cdecl
#endif
#ifndef _cdecl
#define _cdecl
#endif
#ifndef __fastcall
#define __fastcall
#endif
#define CALLBACK
#define APIENTRY
#define WINAPIV
#define WINBASEAPI
#define NTSYSAPI
#ifndef NTAPI
#define NTAPI
#endif
#define CONST		const
#define IN
#define OUT
#define OPTIONAL
#define UNALIGNED

/*
 * MSVC's __declspec(x) as GCC's attributes, as Wine's winelib maps it:
 * each x the layer knows is NTTRACE_WIN_DECLSPEC_x below; any other
 * (uuid, property, ...) is an undeclared name, a compile error.
 *   selectany  a global defined in several translation units (a header's
 *              GUID, an mc.exe header's descriptors and handles) is one
 *              object, the linker keeping one definition: a weak
 *              definition. mc.exe's headers and Microsoft's samples write
 *              EXTERN_C __declspec(selectany) const T x = v; in C that is
 *              extern with an initialiser, which GCC's C compiler warns
 *              about (mingw-w64's too), with no option to turn it off.
 *              So in C the attribute comes after a declaration of its
 *              own that takes the extern (of a function never defined
 *              nor called), and x is a weak definition with the external
 *              linkage a C file-scope object has. C++ warns the same of
 *              a non-const object (a const one needs the extern for its
 *              external linkage): there, from C++17, the declaration of
 *              its own is followed by inline, which makes x one object
 *              with external linkage however many units define it (const
 *              or not), what selectany means; before C++17, a weak
 *              definition (and the warning, as with mingw-w64). It must
 *              begin the declaration or follow extern (EXTERN_C), as
 *              they write it: after a qualifier, const
 *              __declspec(selectany), the qualifier goes to that
 *              function (GCC says so with -Wextra).
 *   thread     thread-local storage; dllimport, novtable: nothing here;
 *   dllexport  visible outside a shared object; noinline, noreturn,
 *              nothrow, align(n): the attributes of those names.
 */
#ifndef __declspec
#define __declspec(x)			NTTRACE_WIN_DECLSPEC_##x
#endif
#define NTTRACE_WIN_CONCAT2(a, b)	a##b
#define NTTRACE_WIN_CONCAT(a, b)	NTTRACE_WIN_CONCAT2(a, b)
#if defined(__cplusplus) && __cplusplus >= 201703L
#define NTTRACE_WIN_DECLSPEC_selectany						\
	void NTTRACE_WIN_CONCAT(nttrace_win_selectany_, __COUNTER__)(); inline
#define NTTRACE_WIN_DECLSPEC_thread	thread_local
#elif defined(__cplusplus)
#define NTTRACE_WIN_DECLSPEC_selectany	__attribute__((__weak__))
#define NTTRACE_WIN_DECLSPEC_thread	thread_local
#else
#define NTTRACE_WIN_DECLSPEC_selectany						\
	void NTTRACE_WIN_CONCAT(nttrace_win_selectany_, __COUNTER__)(void);	\
	__attribute__((__weak__))
#define NTTRACE_WIN_DECLSPEC_thread	_Thread_local
#endif
#define NTTRACE_WIN_DECLSPEC_dllimport
#define NTTRACE_WIN_DECLSPEC_dllexport	__attribute__((__visibility__("default")))
#define NTTRACE_WIN_DECLSPEC_novtable
#define NTTRACE_WIN_DECLSPEC_noinline	__attribute__((__noinline__))
#define NTTRACE_WIN_DECLSPEC_noreturn	__attribute__((__noreturn__))
#define NTTRACE_WIN_DECLSPEC_nothrow	__attribute__((__nothrow__))
#define NTTRACE_WIN_DECLSPEC_align(n)	__attribute__((__aligned__(n)))
#define DECLSPEC_NOINLINE	__declspec(noinline)
#define DECLSPEC_ALIGN(n)	__declspec(align(n))
#define DECLSPEC_SELECTANY	__declspec(selectany)
#define DECLSPEC_NORETURN	__declspec(noreturn)
#define DECLSPEC_IMPORT		__declspec(dllimport)
#define DECLSPEC_EXPORT		__declspec(dllexport)
#define DECLSPEC_NOVTABLE	__declspec(novtable)
/* As mingw-w64 has it: inlined, never emitted on its own. */
#define FORCEINLINE	extern __inline__ __attribute__((__always_inline__, __gnu_inline__))
#ifdef __cplusplus
#define EXTERN_C	extern "C"
#define EXTERN_C_START	extern "C" {
#define EXTERN_C_END	}
#else
#define EXTERN_C	extern
#define EXTERN_C_START
#define EXTERN_C_END
#endif

/* MSVC's sized integer keywords and byte-swap intrinsics. */
#define __int8		char
#define __int16		short
#define __int32		int
#define __int64		long long
#define _byteswap_ushort(x)	__builtin_bswap16(x)
#define _byteswap_ulong(x)	__builtin_bswap32(x)
#define _byteswap_uint64(x)	__builtin_bswap64(x)

/* The types nttrace's own headers do not need. */
typedef void *LPVOID;
typedef char *PCHAR, *PSTR, *PCH, *LPCH;
typedef const char *PCSTR, *PCCH, *LPCCH;
typedef WCHAR *PWCH, *LPWCH, *PZZWSTR;
typedef const WCHAR *PCWSTR, *PCWCH, *LPCWCH;
typedef DWORD *PDWORD, *LPDWORD;
typedef uint64_t DWORDLONG, *PDWORDLONG;
typedef uintptr_t DWORD_PTR, *PDWORD_PTR;
typedef LONG *PLONG, *LPLONG;
typedef INT *PINT, *LPINT;
typedef UINT *PUINT;
typedef SHORT *PSHORT;
typedef WORD *PWORD, *LPWORD;
typedef UCHAR *PUCHAR;
typedef LONGLONG *PLONGLONG;
typedef ULONGLONG *PULONGLONG;
typedef ULONG64 *PULONG64;
typedef LONG64 *PLONG64;
typedef ULONG_PTR *PULONG_PTR;
typedef LONG_PTR *PLONG_PTR;
typedef SIZE_T *PSIZE_T;
typedef LONG_PTR SSIZE_T, *PSSIZE_T;
typedef BOOL *PBOOL, *LPBOOL;
typedef BYTE *LPBYTE;
typedef const BYTE *LPCBYTE;
typedef HANDLE *PHANDLE, *LPHANDLE;
typedef HANDLE HMODULE, HINSTANCE, HLOCAL, HGLOBAL;
typedef UINT_PTR WPARAM;
typedef LONG_PTR LPARAM, LRESULT;

/* TCHAR: WCHAR with UNICODE, char without (winnt.h). */
#ifdef UNICODE
typedef WCHAR TCHAR, *PTCHAR, TBYTE, *PTBYTE;
typedef LPWSTR LPTSTR, PTSTR;
typedef LPCWSTR LPCTSTR, PCTSTR;
#define __TEXT(s)	L##s
#else
typedef char TCHAR, *PTCHAR;
typedef unsigned char TBYTE, *PTBYTE;
typedef LPSTR LPTSTR, PTSTR;
typedef LPCSTR LPCTSTR, PCTSTR;
#define __TEXT(s)	s
#endif
#define TEXT(s)		__TEXT(s)

/* HRESULT and its values (winerror.h). */
typedef LONG HRESULT;
#ifndef S_OK
#define S_OK			((HRESULT)0)
#endif
#define S_FALSE			((HRESULT)1)
#define E_NOTIMPL		((HRESULT)0x80004001L)
#define E_POINTER		((HRESULT)0x80004003L)
#define E_ABORT			((HRESULT)0x80004004L)
#define E_FAIL			((HRESULT)0x80004005L)
#define E_UNEXPECTED		((HRESULT)0x8000FFFFL)
#define E_ACCESSDENIED		((HRESULT)0x80070005L)
#define E_HANDLE		((HRESULT)0x80070006L)
#define E_OUTOFMEMORY		((HRESULT)0x8007000EL)
#define E_INVALIDARG		((HRESULT)0x80070057L)
#ifndef SUCCEEDED
#define SUCCEEDED(hr)		((HRESULT)(hr) >= 0)
#define FAILED(hr)		((HRESULT)(hr) < 0)
#endif
#define IS_ERROR(hr)		((unsigned long)(hr) >> 31 == 1)
#define FACILITY_WIN32		7
#define SEVERITY_SUCCESS	0
#define SEVERITY_ERROR		1
#define HRESULT_CODE(hr)	((hr) & 0xFFFF)
#define HRESULT_FACILITY(hr)	(((hr) >> 16) & 0x1FFF)
#define HRESULT_SEVERITY(hr)	(((hr) >> 31) & 0x1)
#define MAKE_HRESULT(sev, fac, code) \
	((HRESULT)(((unsigned long)(sev) << 31) | ((unsigned long)(fac) << 16) | \
		   ((unsigned long)(code))))
#ifndef HRESULT_FROM_WIN32
#define HRESULT_FROM_WIN32(x)							\
	((HRESULT)(x) <= 0 ? (HRESULT)(x) : (HRESULT)(((x) & 0x0000FFFF) | 0x80070000))
#endif

/* Sizes, words and bytes. */
#define MAX_PATH		260
#define INFINITE		0xFFFFFFFF
#define INVALID_HANDLE_VALUE	((HANDLE)(LONG_PTR)-1)
#define LOBYTE(w)		((BYTE)(((DWORD_PTR)(w)) & 0xff))
#define HIBYTE(w)		((BYTE)((((DWORD_PTR)(w)) >> 8) & 0xff))
#define LOWORD(l)		((WORD)(((DWORD_PTR)(l)) & 0xffff))
#define HIWORD(l)		((WORD)((((DWORD_PTR)(l)) >> 16) & 0xffff))
#define MAKEWORD(a, b)		((WORD)(((BYTE)(a)) | ((WORD)((BYTE)(b))) << 8))
#define MAKELONG(a, b)		((LONG)(((WORD)(a)) | ((DWORD)((WORD)(b))) << 16))
/*
 * min and max as Windows defines them, in C only: libstdc++'s headers,
 * which a C++ program includes after this one, call std::min and std::max.
 */
#if !defined(NOMINMAX) && !defined(__cplusplus)
#ifndef max
#define max(a, b)		(((a) > (b)) ? (a) : (b))
#endif
#ifndef min
#define min(a, b)		(((a) < (b)) ? (a) : (b))
#endif
#endif

#define UNREFERENCED_PARAMETER(p)	((void)(p))
#define DBG_UNREFERENCED_PARAMETER(p)	((void)(p))
#define UNREFERENCED_LOCAL_VARIABLE(v)	((void)(v))
#define ARRAYSIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define RTL_NUMBER_OF(a)	ARRAYSIZE(a)
#define FIELD_OFFSET(type, field)	((LONG)offsetof(type, field))
#define RTL_FIELD_SIZE(type, field)	(sizeof(((type *)0)->field))
#define CONTAINING_RECORD(address, type, field) \
	((type *)((char *)(address) - offsetof(type, field)))

#define RtlZeroMemory(d, n)	memset((d), 0, (n))
#define RtlFillMemory(d, n, c)	memset((d), (c), (n))
#define RtlCopyMemory(d, s, n)	memcpy((d), (s), (n))
#define RtlMoveMemory(d, s, n)	memmove((d), (s), (n))
#define RtlEqualMemory(a, b, n)	(!memcmp((a), (b), (n)))
#define ZeroMemory		RtlZeroMemory
#define FillMemory		RtlFillMemory
#define CopyMemory		RtlCopyMemory
#define MoveMemory		RtlMoveMemory
#define EqualMemory		RtlEqualMemory
/* Not optimised away, as Windows promises of SecureZeroMemory. */
#define SecureZeroMemory(d, n)	explicit_bzero((d), (n))

/* The guiddef.h and objbase.h parts (GUID helpers, StringFromGUID2). */
#include "guiddef.h"
#ifndef WIN32_LEAN_AND_MEAN
#include "objbase.h"
#endif

/* FILETIME, SYSTEMTIME, TIME_ZONE_INFORMATION: <nttrace/evntrace.h>'s. */
#include <nttrace/evntrace.h>

/*
 * Well-known SIDs (winnt.h's WELL_KNOWN_SID_TYPE, Windows' values), for
 * CreateWellKnownSid (securitybaseapi.h). It makes those of a fixed form
 * (the null, world, local, creator and NT authority SIDs, the system and
 * service accounts, the BUILTIN domain and its groups); one that needs a
 * domain or logon SID, or a type past these, is refused:
 * ERROR_INVALID_PARAMETER. Too small a buffer: ERROR_INSUFFICIENT_BUFFER
 * and *size set to the size needed.
 */
typedef enum {
	WinNullSid = 0, WinWorldSid = 1, WinLocalSid = 2, WinCreatorOwnerSid = 3,
	WinCreatorGroupSid = 4, WinCreatorOwnerServerSid = 5, WinCreatorGroupServerSid = 6,
	WinNtAuthoritySid = 7, WinDialupSid = 8, WinNetworkSid = 9, WinBatchSid = 10,
	WinInteractiveSid = 11, WinServiceSid = 12, WinAnonymousSid = 13, WinProxySid = 14,
	WinEnterpriseControllersSid = 15, WinSelfSid = 16, WinAuthenticatedUserSid = 17,
	WinRestrictedCodeSid = 18, WinTerminalServerSid = 19, WinRemoteLogonIdSid = 20,
	WinLogonIdsSid = 21, WinLocalSystemSid = 22, WinLocalServiceSid = 23,
	WinNetworkServiceSid = 24, WinBuiltinDomainSid = 25, WinBuiltinAdministratorsSid = 26,
	WinBuiltinUsersSid = 27, WinBuiltinGuestsSid = 28, WinBuiltinPowerUsersSid = 29,
	WinBuiltinAccountOperatorsSid = 30, WinBuiltinSystemOperatorsSid = 31,
	WinBuiltinPrintOperatorsSid = 32, WinBuiltinBackupOperatorsSid = 33,
	WinBuiltinReplicatorSid = 34,
} WELL_KNOWN_SID_TYPE;

/* A SID of 15 sub-authorities, the most there are: 68 bytes. */
#define SECURITY_MAX_SID_SIZE	(8 + 15 * 4)

NTTRACE_WIN_BEGIN
BOOL CreateWellKnownSid(WELL_KNOWN_SID_TYPE type, PSID domain, PSID sid, DWORD *size)
	NTTRACE_WIN(CreateWellKnownSid);

/* Processes, threads and waiting (processthreadsapi.h, synchapi.h). */
DWORD GetCurrentProcessId(void) NTTRACE_WIN(GetCurrentProcessId);
DWORD GetCurrentThreadId(void) NTTRACE_WIN(GetCurrentThreadId);
void Sleep(DWORD milliseconds) NTTRACE_WIN(Sleep);

/*
 * Time (sysinfoapi.h, timezoneapi.h, profileapi.h). Local time is the
 * process's time zone (TZ, /etc/localtime), as the C library sees it; a
 * TIME_ZONE_INFORMATION other than NULL is refused (ERROR_NOT_SUPPORTED).
 */
DWORD GetTickCount(void) NTTRACE_WIN(GetTickCount);
ULONGLONG GetTickCount64(void) NTTRACE_WIN(GetTickCount64);
void GetSystemTimeAsFileTime(LPFILETIME time) NTTRACE_WIN(GetSystemTimeAsFileTime);
void GetSystemTime(PSYSTEMTIME time) NTTRACE_WIN(GetSystemTime);
void GetLocalTime(PSYSTEMTIME time) NTTRACE_WIN(GetLocalTime);
BOOL FileTimeToSystemTime(const FILETIME *file_time, PSYSTEMTIME system_time)
	NTTRACE_WIN(FileTimeToSystemTime);
BOOL SystemTimeToFileTime(const SYSTEMTIME *system_time, LPFILETIME file_time)
	NTTRACE_WIN(SystemTimeToFileTime);
BOOL FileTimeToLocalFileTime(const FILETIME *file_time, LPFILETIME local)
	NTTRACE_WIN(FileTimeToLocalFileTime);
BOOL SystemTimeToTzSpecificLocalTime(const TIME_ZONE_INFORMATION *zone,
				     const SYSTEMTIME *universal, PSYSTEMTIME local)
	NTTRACE_WIN(SystemTimeToTzSpecificLocalTime);
BOOL QueryPerformanceCounter(LARGE_INTEGER *count) NTTRACE_WIN(QueryPerformanceCounter);
BOOL QueryPerformanceFrequency(LARGE_INTEGER *frequency) NTTRACE_WIN(QueryPerformanceFrequency);

/* Memory (winbase.h's local heap, heapapi.h): the C library's malloc. */
#define LMEM_FIXED		0x0000
#define LMEM_ZEROINIT		0x0040
#define LPTR			(LMEM_FIXED | LMEM_ZEROINIT)
#define HEAP_ZERO_MEMORY	0x00000008
HLOCAL LocalAlloc(UINT flags, SIZE_T bytes) NTTRACE_WIN(LocalAlloc);
HLOCAL LocalFree(HLOCAL mem) NTTRACE_WIN(LocalFree);
HANDLE GetProcessHeap(void) NTTRACE_WIN(GetProcessHeap);
LPVOID HeapAlloc(HANDLE heap, DWORD flags, SIZE_T bytes) NTTRACE_WIN(HeapAlloc);
LPVOID HeapReAlloc(HANDLE heap, DWORD flags, LPVOID mem, SIZE_T bytes) NTTRACE_WIN(HeapReAlloc);
BOOL HeapFree(HANDLE heap, DWORD flags, LPVOID mem) NTTRACE_WIN(HeapFree);
#define GMEM_FIXED		0x0000
#define GMEM_ZEROINIT		0x0040
#define GPTR			(GMEM_FIXED | GMEM_ZEROINIT)
HGLOBAL GlobalAlloc(UINT flags, SIZE_T bytes) NTTRACE_WIN(GlobalAlloc);
HGLOBAL GlobalFree(HGLOBAL mem) NTTRACE_WIN(GlobalFree);
/* Only HeapEnableTerminationOnCorruption, which malloc does already. */
typedef enum _HEAP_INFORMATION_CLASS {
	HeapCompatibilityInformation = 0,
	HeapEnableTerminationOnCorruption = 1,
} HEAP_INFORMATION_CLASS;
BOOL HeapSetInformation(HANDLE heap, HEAP_INFORMATION_CLASS info_class, PVOID info,
			SIZE_T size) NTTRACE_WIN(HeapSetInformation);

/*
 * The command line (processenv.h) as one string, rebuilt from the
 * program's arguments so that shellapi.h's CommandLineToArgvW splits it
 * back into them.
 */
LPWSTR GetCommandLineW(void) NTTRACE_WIN(GetCommandLineW);
LPSTR GetCommandLineA(void) NTTRACE_WIN(GetCommandLineA);
#ifdef UNICODE
#define GetCommandLine	GetCommandLineW
#else
#define GetCommandLine	GetCommandLineA
#endif

/*
 * UTF-16 and multibyte text (stringapiset.h). Linux's text is UTF-8: the
 * code pages are CP_UTF8 and CP_ACP, which is UTF-8 too; others are
 * refused (ERROR_INVALID_PARAMETER). Invalid input becomes U+FFFD, or
 * with the ERR_INVALID_CHARS flag fails (ERROR_NO_UNICODE_TRANSLATION).
 */
#define CP_ACP			0
#define CP_UTF8			65001
#define MB_PRECOMPOSED		0x00000001
#define MB_ERR_INVALID_CHARS	0x00000008
#define WC_ERR_INVALID_CHARS	0x00000080
int MultiByteToWideChar(UINT code_page, DWORD flags, LPCCH in, int in_bytes, LPWSTR out,
			int out_chars) NTTRACE_WIN(MultiByteToWideChar);
int WideCharToMultiByte(UINT code_page, DWORD flags, LPCWCH in, int in_chars, LPSTR out,
			int out_bytes, LPCCH default_char, LPBOOL used_default)
	NTTRACE_WIN(WideCharToMultiByte);

/*
 * The program's entry: a program that defines wmain (or _tmain with
 * _UNICODE) and no main gets one from nttrace-windows.pc's libraries,
 * which passes it the arguments in UTF-16. In C++, MSVC gives wmain C
 * linkage; so does this declaration of its usual form (winmain.c finds
 * the others).
 */
#ifdef __cplusplus
int wmain(int argc, wchar_t **argv);
#endif
NTTRACE_WIN_END

#endif /* NTTRACE_WINDOWS_WINDOWS_H */
