/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <strsafe.h> for Windows sources (nttrace-windows.pc): the bounded string
 * functions, W (UTF-16) and A, and their TCHAR names (W with UNICODE).
 * Cch counts characters, Cb bytes. Each returns S_OK;
 * STRSAFE_E_INSUFFICIENT_BUFFER when the result was cut to fit (the
 * destination then holds what fitted, terminated); or
 * STRSAFE_E_INVALID_PARAMETER for a size of 0 or over STRSAFE_MAX_CCH
 * (the destination untouched). The Printf functions format as MSVC's
 * (this directory's <wchar.h>). The Ex forms are not here.
 */
#ifndef NTTRACE_WINDOWS_STRSAFE_H
#define NTTRACE_WINDOWS_STRSAFE_H

#include "windows.h"

#define STRSAFE_MAX_CCH			2147483647
#define STRSAFE_E_INSUFFICIENT_BUFFER	((HRESULT)0x8007007AL)
#define STRSAFE_E_INVALID_PARAMETER	((HRESULT)0x80070057L)
#define STRSAFE_E_END_OF_FILE		((HRESULT)0x80070026L)
typedef char *STRSAFE_LPSTR;
typedef const char *STRSAFE_LPCSTR;
typedef wchar_t *STRSAFE_LPWSTR;
typedef const wchar_t *STRSAFE_LPCWSTR;

NTTRACE_WIN_BEGIN
HRESULT StringCchCopyW(LPWSTR d, size_t cch, LPCWSTR s) NTTRACE_WIN(StringCchCopyW);
HRESULT StringCchCopyA(LPSTR d, size_t cch, LPCSTR s) NTTRACE_WIN(StringCchCopyA);
HRESULT StringCbCopyW(LPWSTR d, size_t cb, LPCWSTR s) NTTRACE_WIN(StringCbCopyW);
HRESULT StringCbCopyA(LPSTR d, size_t cb, LPCSTR s) NTTRACE_WIN(StringCbCopyA);
HRESULT StringCchCopyNW(LPWSTR d, size_t cch, LPCWSTR s, size_t n) NTTRACE_WIN(StringCchCopyNW);
HRESULT StringCchCopyNA(LPSTR d, size_t cch, LPCSTR s, size_t n) NTTRACE_WIN(StringCchCopyNA);
HRESULT StringCbCopyNW(LPWSTR d, size_t cb, LPCWSTR s, size_t n) NTTRACE_WIN(StringCbCopyNW);
HRESULT StringCbCopyNA(LPSTR d, size_t cb, LPCSTR s, size_t n) NTTRACE_WIN(StringCbCopyNA);
HRESULT StringCchCatW(LPWSTR d, size_t cch, LPCWSTR s) NTTRACE_WIN(StringCchCatW);
HRESULT StringCchCatA(LPSTR d, size_t cch, LPCSTR s) NTTRACE_WIN(StringCchCatA);
HRESULT StringCbCatW(LPWSTR d, size_t cb, LPCWSTR s) NTTRACE_WIN(StringCbCatW);
HRESULT StringCbCatA(LPSTR d, size_t cb, LPCSTR s) NTTRACE_WIN(StringCbCatA);
HRESULT StringCchLengthW(LPCWSTR s, size_t max, size_t *len) NTTRACE_WIN(StringCchLengthW);
HRESULT StringCchLengthA(LPCSTR s, size_t max, size_t *len) NTTRACE_WIN(StringCchLengthA);
HRESULT StringCbLengthW(LPCWSTR s, size_t max, size_t *len) NTTRACE_WIN(StringCbLengthW);
HRESULT StringCbLengthA(LPCSTR s, size_t max, size_t *len) NTTRACE_WIN(StringCbLengthA);
HRESULT StringCchPrintfW(LPWSTR d, size_t cch, LPCWSTR fmt, ...) NTTRACE_WIN(StringCchPrintfW);
HRESULT StringCchPrintfA(LPSTR d, size_t cch, LPCSTR fmt, ...) NTTRACE_WIN(StringCchPrintfA);
HRESULT StringCbPrintfW(LPWSTR d, size_t cb, LPCWSTR fmt, ...) NTTRACE_WIN(StringCbPrintfW);
HRESULT StringCbPrintfA(LPSTR d, size_t cb, LPCSTR fmt, ...) NTTRACE_WIN(StringCbPrintfA);
HRESULT StringCchVPrintfW(LPWSTR d, size_t cch, LPCWSTR fmt, va_list ap)
	NTTRACE_WIN(StringCchVPrintfW);
HRESULT StringCchVPrintfA(LPSTR d, size_t cch, LPCSTR fmt, va_list ap)
	NTTRACE_WIN(StringCchVPrintfA);
HRESULT StringCbVPrintfW(LPWSTR d, size_t cb, LPCWSTR fmt, va_list ap)
	NTTRACE_WIN(StringCbVPrintfW);
HRESULT StringCbVPrintfA(LPSTR d, size_t cb, LPCSTR fmt, va_list ap)
	NTTRACE_WIN(StringCbVPrintfA);
NTTRACE_WIN_END

#ifdef UNICODE
#define StringCchCopy		StringCchCopyW
#define StringCbCopy		StringCbCopyW
#define StringCchCopyN		StringCchCopyNW
#define StringCbCopyN		StringCbCopyNW
#define StringCchCat		StringCchCatW
#define StringCbCat		StringCbCatW
#define StringCchLength		StringCchLengthW
#define StringCbLength		StringCbLengthW
#define StringCchPrintf		StringCchPrintfW
#define StringCbPrintf		StringCbPrintfW
#define StringCchVPrintf	StringCchVPrintfW
#define StringCbVPrintf		StringCbVPrintfW
#else
#define StringCchCopy		StringCchCopyA
#define StringCbCopy		StringCbCopyA
#define StringCchCopyN		StringCchCopyNA
#define StringCbCopyN		StringCbCopyNA
#define StringCchCat		StringCchCatA
#define StringCbCat		StringCbCatA
#define StringCchLength		StringCchLengthA
#define StringCbLength		StringCbLengthA
#define StringCchPrintf		StringCchPrintfA
#define StringCbPrintf		StringCbPrintfA
#define StringCchVPrintf	StringCchVPrintfA
#define StringCbVPrintf		StringCbVPrintfA
#endif

#endif /* NTTRACE_WINDOWS_STRSAFE_H */
