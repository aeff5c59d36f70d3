/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <tchar.h> for Windows sources (nttrace-windows.pc): the C runtime's
 * generic-text names. With _UNICODE, _TCHAR is wchar_t, _T("x") is
 * L"x", _tmain is wmain and _tprintf is wprintf; without it, char, "x",
 * main and printf. (UNICODE, without the underscore, selects the Win32
 * A and W functions and TCHAR: <windows.h>.) The names here are those
 * whose two functions this layer has; _MBCS's are not.
 */
#ifndef NTTRACE_WINDOWS_TCHAR_H
#define NTTRACE_WINDOWS_TCHAR_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#ifdef _UNICODE
typedef wchar_t _TCHAR, _TSCHAR, _TUCHAR, _TXCHAR;
typedef wint_t _TINT;
#define __T(x)		L##x
#define _tmain		wmain
#define _tprintf	wprintf
#define _vtprintf	vwprintf
#define _ftprintf	fwprintf
#define _vftprintf	vfwprintf
#define _stprintf	swprintf
#define _stprintf_s	swprintf_s
#define _vstprintf_s	vswprintf_s
#define _sntprintf	_snwprintf
#define _vsntprintf	_vsnwprintf
#define _sctprintf	_scwprintf
#define _tcslen		wcslen
#define _tcsnlen	wcsnlen
#define _tcscpy		wcscpy
#define _tcscpy_s	wcscpy_s
#define _tcsncpy	wcsncpy
#define _tcsncpy_s	wcsncpy_s
#define _tcscat		wcscat
#define _tcscat_s	wcscat_s
#define _tcsncat	wcsncat
#define _tcscmp		wcscmp
#define _tcsncmp	wcsncmp
#define _tcsicmp	_wcsicmp
#define _tcsnicmp	_wcsnicmp
#define _tcschr		wcschr
#define _tcsrchr	wcsrchr
#define _tcsstr		wcsstr
#define _tcspbrk	wcspbrk
#define _tcsspn		wcsspn
#define _tcscspn	wcscspn
#define _tcsdup		_wcsdup
#define _tcslwr		_wcslwr
#define _tcsupr		_wcsupr
#define _tcstol		wcstol
#define _tcstoul	wcstoul
#define _tcstoi64	_wcstoi64
#define _tcstoui64	_wcstoui64
#define _tcstod		wcstod
#define _ttoi		_wtoi
#define _ttol		_wtol
#define _ttoi64		_wtoi64
#define _tstoi		_wtoi
#define _tfopen		_wfopen
#define _tfopen_s	_wfopen_s
#define _fgetts		fgetws
#define _fputts		fputws
#define _fputtc		fputwc
#define _puttchar	putwchar
#define _putts		_putws
#define _tfullpath	_wfullpath
#else
typedef char _TCHAR, _TSCHAR;
typedef unsigned char _TUCHAR;
typedef char _TXCHAR;
typedef int _TINT;
#define __T(x)		x
#define _tmain		main
#define _tprintf	printf
#define _vtprintf	vprintf
#define _ftprintf	fprintf
#define _vftprintf	vfprintf
#define _stprintf	sprintf
#define _stprintf_s	sprintf_s
#define _vstprintf_s	vsprintf_s
#define _sntprintf	_snprintf
#define _vsntprintf	_vsnprintf
#define _sctprintf	_scprintf
#define _tcslen		strlen
#define _tcsnlen	strnlen
#define _tcscpy		strcpy
#define _tcsncpy	strncpy
#define _tcscat		strcat
#define _tcsncat	strncat
#define _tcscmp		strcmp
#define _tcsncmp	strncmp
#define _tcsicmp	_stricmp
#define _tcsnicmp	_strnicmp
#define _tcschr		strchr
#define _tcsrchr	strrchr
#define _tcsstr		strstr
#define _tcspbrk	strpbrk
#define _tcsspn		strspn
#define _tcscspn	strcspn
#define _tcsdup		_strdup
#define _tcstol		strtol
#define _tcstoul	strtoul
#define _tcstoi64	strtoll
#define _tcstoui64	strtoull
#define _tcstod		strtod
#define _ttoi		atoi
#define _ttol		atol
#define _ttoi64		atoll
#define _tstoi		atoi
#define _tfopen		fopen
#define _fgetts		fgets
#define _fputts		fputs
#define _fputtc		fputc
#define _puttchar	putchar
#define _putts		puts
#define _tfullpath	_fullpath
#endif
#define _T(x)		__T(x)
#define _TEXT(x)	__T(x)

#endif /* NTTRACE_WINDOWS_TCHAR_H */
