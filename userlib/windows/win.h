/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: the Windows layer's functions as the library
 * defines them (the .c files of userlib/windows), with its 16-bit WCHAR. The layer's
 * headers (userlib/windows/include, nttrace-windows.pc) declare each under
 * its Windows name with a 16-bit wchar_t, bound to these symbols
 * (nttrace_win.h); nothing else declares them. crt.h has the C runtime's.
 */
#ifndef NTTRACE_USERLIB_WINDOWS_WIN_H
#define NTTRACE_USERLIB_WINDOWS_WIN_H

#include <stdarg.h>
#include <stddef.h>
#include <nttrace/winnt.h>
#include <nttrace/winerror.h>
#include <nttrace/evntrace.h>

typedef LONG HRESULT;

/* objbase.h */
int nttrace_win_StringFromGUID2(const GUID *guid, WCHAR *out, int max);
HRESULT nttrace_win_StringFromCLSID(const GUID *clsid, WCHAR **text);
void *nttrace_win_CoTaskMemAlloc(SIZE_T bytes);
void nttrace_win_CoTaskMemFree(void *mem);

/* sddl.h, winnt.h: SIDs */
BOOL nttrace_win_ConvertSidToStringSidW(PSID sid, WCHAR **text);
BOOL nttrace_win_ConvertSidToStringSidA(PSID sid, char **text);
BOOL nttrace_win_IsValidSid(PSID sid);
DWORD nttrace_win_GetLengthSid(PSID sid);
BOOL nttrace_win_CreateWellKnownSid(int type, PSID domain, PSID sid, DWORD *size);

/* processthreadsapi.h, synchapi.h, sysinfoapi.h, timezoneapi.h, profileapi.h */
DWORD nttrace_win_GetCurrentProcessId(void);
DWORD nttrace_win_GetCurrentThreadId(void);
void nttrace_win_Sleep(DWORD milliseconds);
DWORD nttrace_win_GetTickCount(void);
ULONGLONG nttrace_win_GetTickCount64(void);
void nttrace_win_GetSystemTimeAsFileTime(FILETIME *time);
void nttrace_win_GetSystemTime(SYSTEMTIME *time);
void nttrace_win_GetLocalTime(SYSTEMTIME *time);
BOOL nttrace_win_FileTimeToSystemTime(const FILETIME *file_time, SYSTEMTIME *system_time);
BOOL nttrace_win_SystemTimeToFileTime(const SYSTEMTIME *system_time, FILETIME *file_time);
BOOL nttrace_win_FileTimeToLocalFileTime(const FILETIME *file_time, FILETIME *local);
BOOL nttrace_win_SystemTimeToTzSpecificLocalTime(const TIME_ZONE_INFORMATION *zone,
						 const SYSTEMTIME *universal,
						 SYSTEMTIME *local);
BOOL nttrace_win_QueryPerformanceCounter(LARGE_INTEGER *count);
BOOL nttrace_win_QueryPerformanceFrequency(LARGE_INTEGER *frequency);

/* winbase.h, heapapi.h */
void *nttrace_win_LocalAlloc(UINT flags, SIZE_T bytes);
void *nttrace_win_LocalFree(void *mem);
HANDLE nttrace_win_GetProcessHeap(void);
void *nttrace_win_HeapAlloc(HANDLE heap, DWORD flags, SIZE_T bytes);
void *nttrace_win_HeapReAlloc(HANDLE heap, DWORD flags, void *mem, SIZE_T bytes);
BOOL nttrace_win_HeapFree(HANDLE heap, DWORD flags, void *mem);

void *nttrace_win_GlobalAlloc(UINT flags, SIZE_T bytes);
void *nttrace_win_GlobalFree(void *mem);
BOOL nttrace_win_HeapSetInformation(HANDLE heap, int info_class, void *info, SIZE_T size);

/* processenv.h, shellapi.h */
WCHAR *nttrace_win_GetCommandLineW(void);
char *nttrace_win_GetCommandLineA(void);
WCHAR **nttrace_win_CommandLineToArgvW(const WCHAR *line, int *count);

/* stringapiset.h: the code pages taken (both UTF-8 here) */
#define CP_ACP		0
#define CP_UTF8		65001
int nttrace_win_MultiByteToWideChar(UINT code_page, DWORD flags, const char *in,
				    int in_bytes, WCHAR *out, int out_chars);
int nttrace_win_WideCharToMultiByte(UINT code_page, DWORD flags, const WCHAR *in,
				    int in_chars, char *out, int out_bytes,
				    const char *default_char, BOOL *used_default);

/* conio.h */
int nttrace_win__getch(void);
int nttrace_win__getche(void);
int nttrace_win__kbhit(void);

/* strsafe.h */
HRESULT nttrace_win_StringCchCopyW(WCHAR *d, size_t cch, const WCHAR *s);
HRESULT nttrace_win_StringCchCopyA(char *d, size_t cch, const char *s);
HRESULT nttrace_win_StringCbCopyW(WCHAR *d, size_t cb, const WCHAR *s);
HRESULT nttrace_win_StringCbCopyA(char *d, size_t cb, const char *s);
HRESULT nttrace_win_StringCchCopyNW(WCHAR *d, size_t cch, const WCHAR *s, size_t n);
HRESULT nttrace_win_StringCchCopyNA(char *d, size_t cch, const char *s, size_t n);
HRESULT nttrace_win_StringCbCopyNW(WCHAR *d, size_t cb, const WCHAR *s, size_t n);
HRESULT nttrace_win_StringCbCopyNA(char *d, size_t cb, const char *s, size_t n);
HRESULT nttrace_win_StringCchCatW(WCHAR *d, size_t cch, const WCHAR *s);
HRESULT nttrace_win_StringCchCatA(char *d, size_t cch, const char *s);
HRESULT nttrace_win_StringCbCatW(WCHAR *d, size_t cb, const WCHAR *s);
HRESULT nttrace_win_StringCbCatA(char *d, size_t cb, const char *s);
HRESULT nttrace_win_StringCchLengthW(const WCHAR *s, size_t max, size_t *len);
HRESULT nttrace_win_StringCchLengthA(const char *s, size_t max, size_t *len);
HRESULT nttrace_win_StringCbLengthW(const WCHAR *s, size_t max, size_t *len);
HRESULT nttrace_win_StringCbLengthA(const char *s, size_t max, size_t *len);
HRESULT nttrace_win_StringCchPrintfW(WCHAR *d, size_t cch, const WCHAR *fmt, ...);
HRESULT nttrace_win_StringCchPrintfA(char *d, size_t cch, const char *fmt, ...);
HRESULT nttrace_win_StringCbPrintfW(WCHAR *d, size_t cb, const WCHAR *fmt, ...);
HRESULT nttrace_win_StringCbPrintfA(char *d, size_t cb, const char *fmt, ...);
HRESULT nttrace_win_StringCchVPrintfW(WCHAR *d, size_t cch, const WCHAR *fmt, va_list ap);
HRESULT nttrace_win_StringCchVPrintfA(char *d, size_t cch, const char *fmt, va_list ap);
HRESULT nttrace_win_StringCbVPrintfW(WCHAR *d, size_t cb, const WCHAR *fmt, va_list ap);
HRESULT nttrace_win_StringCbVPrintfA(char *d, size_t cb, const char *fmt, va_list ap);

/*
 * ws2tcpip.h, ip2string.h: addresses as text (inet.c). @family is
 * Windows' (AF_INET 2, AF_INET6 23); an address is its 4 or 16 bytes in
 * network order (IN_ADDR, IN6_ADDR); a port is in network order.
 */
#define NTTRACE_WIN_AF_INET	2
#define NTTRACE_WIN_AF_INET6	23
const char *nttrace_win_inet_ntop(INT family, const void *addr, char *buf, size_t size);
INT nttrace_win_inet_pton(INT family, const char *text, void *addr);
const WCHAR *nttrace_win_InetNtopW(INT family, const void *addr, WCHAR *buf, size_t size);
INT nttrace_win_InetPtonW(INT family, const WCHAR *text, void *addr);
char *nttrace_win_RtlIpv4AddressToStringA(const void *addr, char *s);
WCHAR *nttrace_win_RtlIpv4AddressToStringW(const void *addr, WCHAR *s);
char *nttrace_win_RtlIpv6AddressToStringA(const void *addr, char *s);
WCHAR *nttrace_win_RtlIpv6AddressToStringW(const void *addr, WCHAR *s);
NTSTATUS nttrace_win_RtlIpv4AddressToStringExA(const void *addr, USHORT port, char *s,
					       ULONG *len);
NTSTATUS nttrace_win_RtlIpv4AddressToStringExW(const void *addr, USHORT port, WCHAR *s,
					       ULONG *len);
NTSTATUS nttrace_win_RtlIpv6AddressToStringExA(const void *addr, ULONG scope, USHORT port,
					       char *s, ULONG *len);
NTSTATUS nttrace_win_RtlIpv6AddressToStringExW(const void *addr, ULONG scope, USHORT port,
					       WCHAR *s, ULONG *len);

#endif /* NTTRACE_USERLIB_WINDOWS_WIN_H */
