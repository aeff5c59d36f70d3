/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <wchar.h> for Windows sources (nttrace-windows.pc): glibc's, with every
 * function a Windows program calls on wide strings bound to libnttrace's
 * 16-bit version (nttrace_win.h says how), the Microsoft C runtime's wide
 * functions beside them (_wcsicmp, wcscpy_s, _snwprintf, _wfopen, ...),
 * and glibc's other wide functions, which would take the program's 16-bit
 * strings for 32-bit ones, made compile errors.
 *
 * Format strings follow MSVC: in the wide printf functions %s and %c take
 * wide arguments and %S and %C narrow ones; %hs is narrow and %ls and %ws
 * wide everywhere; I64, I32 and I size arguments; %n is refused. Wide
 * text is written as UTF-8.
 */
#ifndef NTTRACE_WINDOWS_WCHAR_H
#define NTTRACE_WINDOWS_WCHAR_H

#include "nttrace_win.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <bits/types/wint_t.h>

struct tm;

NTTRACE_WIN_BEGIN
/* glibc declares these too: the same declarations, bound to libnttrace. */
extern size_t wcslen(const wchar_t *s) NTTRACE_WIN_NTH(wcslen);
extern size_t wcsnlen(const wchar_t *s, size_t max) NTTRACE_WIN_NTH(wcsnlen);
extern wchar_t *wcscpy(wchar_t *__restrict d, const wchar_t *__restrict s) NTTRACE_WIN_NTH(wcscpy);
extern wchar_t *wcsncpy(wchar_t *__restrict d, const wchar_t *__restrict s, size_t n) NTTRACE_WIN_NTH(wcsncpy);
extern wchar_t *wcscat(wchar_t *__restrict d, const wchar_t *__restrict s) NTTRACE_WIN_NTH(wcscat);
extern wchar_t *wcsncat(wchar_t *__restrict d, const wchar_t *__restrict s, size_t n) NTTRACE_WIN_NTH(wcsncat);
extern int wcscmp(const wchar_t *a, const wchar_t *b) NTTRACE_WIN_NTH(wcscmp);
extern int wcsncmp(const wchar_t *a, const wchar_t *b, size_t n) NTTRACE_WIN_NTH(wcsncmp);
extern wchar_t *wcsdup(const wchar_t *s) NTTRACE_WIN_NTH(_wcsdup);
extern wchar_t *wcschr(const wchar_t *s, wchar_t c) NTTRACE_WIN_NTH(wcschr);
extern wchar_t *wcsrchr(const wchar_t *s, wchar_t c) NTTRACE_WIN_NTH(wcsrchr);
extern size_t wcscspn(const wchar_t *s, const wchar_t *reject) NTTRACE_WIN_NTH(wcscspn);
extern size_t wcsspn(const wchar_t *s, const wchar_t *accept) NTTRACE_WIN_NTH(wcsspn);
extern wchar_t *wcspbrk(const wchar_t *s, const wchar_t *accept) NTTRACE_WIN_NTH(wcspbrk);
extern wchar_t *wcsstr(const wchar_t *s, const wchar_t *needle) NTTRACE_WIN_NTH(wcsstr);
extern wchar_t *wmemchr(const wchar_t *s, wchar_t c, size_t n) NTTRACE_WIN_NTH(wmemchr);
extern int wmemcmp(const wchar_t *a, const wchar_t *b, size_t n) NTTRACE_WIN_NTH(wmemcmp);
extern wchar_t *wmemcpy(wchar_t *__restrict d, const wchar_t *__restrict s, size_t n) NTTRACE_WIN_NTH(wmemcpy);
extern wchar_t *wmemmove(wchar_t *d, const wchar_t *s, size_t n) NTTRACE_WIN_NTH(wmemmove);
extern wchar_t *wmemset(wchar_t *d, wchar_t c, size_t n) NTTRACE_WIN_NTH(wmemset);
extern double wcstod(const wchar_t *__restrict s, wchar_t **__restrict end) NTTRACE_WIN_NTH(wcstod);
extern long wcstol(const wchar_t *__restrict s, wchar_t **__restrict end, int base) NTTRACE_WIN_NTH(wcstol);
extern unsigned long wcstoul(const wchar_t *__restrict s, wchar_t **__restrict end, int base)
	NTTRACE_WIN_NTH(wcstoul);
extern long long wcstoll(const wchar_t *__restrict s, wchar_t **__restrict end, int base)
	NTTRACE_WIN_NTH(wcstoll);
extern unsigned long long wcstoull(const wchar_t *__restrict s, wchar_t **__restrict end,
				   int base) NTTRACE_WIN_NTH(wcstoull);
extern int fwprintf(FILE *__restrict f, const wchar_t *__restrict fmt, ...) NTTRACE_WIN(fwprintf);
extern int wprintf(const wchar_t *__restrict fmt, ...) NTTRACE_WIN(wprintf);
extern int swprintf(wchar_t *__restrict buf, size_t n, const wchar_t *__restrict fmt, ...)
	NTTRACE_WIN_NTH(swprintf);
extern int vfwprintf(FILE *__restrict f, const wchar_t *__restrict fmt, va_list ap)
	NTTRACE_WIN(vfwprintf);
extern int vwprintf(const wchar_t *__restrict fmt, va_list ap) NTTRACE_WIN(vwprintf);
extern int vswprintf(wchar_t *__restrict buf, size_t n, const wchar_t *__restrict fmt,
		     va_list ap) NTTRACE_WIN_NTH(vswprintf);
extern wint_t fputwc(wchar_t c, FILE *f) NTTRACE_WIN(fputwc);
extern wint_t putwc(wchar_t c, FILE *f) NTTRACE_WIN(fputwc);
extern wint_t putwchar(wchar_t c) NTTRACE_WIN(putwchar);
extern wchar_t *fgetws(wchar_t *__restrict s, int n, FILE *__restrict f) NTTRACE_WIN(fgetws);
extern int fputws(const wchar_t *__restrict s, FILE *__restrict f) NTTRACE_WIN(fputws);
NTTRACE_WIN_END

/*
 * glibc's <wchar.h> itself, without its fortified inline versions (they
 * would call glibc's 32-bit functions) and, in C++, without its
 * const-overloaded wcschr & co. under glibc's own assembler names:
 * libstdc++'s <cwchar> adds those overloads over the functions above.
 * (__GNUC_PREREQ is consulted once in glibc's wchar.h, for them; the
 * headers it includes that ask it too are included before.)
 */
#pragma push_macro("__USE_FORTIFY_LEVEL")
#pragma push_macro("__GNUC_PREREQ")
#undef __USE_FORTIFY_LEVEL
#define __USE_FORTIFY_LEVEL 0
#undef __GNUC_PREREQ
#define __GNUC_PREREQ(maj, min) 0
#include_next <wchar.h>
#pragma pop_macro("__GNUC_PREREQ")
#pragma pop_macro("__USE_FORTIFY_LEVEL")

NTTRACE_WIN_BEGIN
/* The Microsoft C runtime's own (string.h, stdlib.h, stdio.h on Windows). */
extern wchar_t *_wcsdup(const wchar_t *s) NTTRACE_WIN(_wcsdup);
extern int _wcsicmp(const wchar_t *a, const wchar_t *b) NTTRACE_WIN(_wcsicmp);
extern int _wcsnicmp(const wchar_t *a, const wchar_t *b, size_t n) NTTRACE_WIN(_wcsnicmp);
extern wchar_t *_wcslwr(wchar_t *s) NTTRACE_WIN(_wcslwr);
extern wchar_t *_wcsupr(wchar_t *s) NTTRACE_WIN(_wcsupr);
extern long long _wcstoi64(const wchar_t *s, wchar_t **end, int base) NTTRACE_WIN(_wcstoi64);
extern unsigned long long _wcstoui64(const wchar_t *s, wchar_t **end, int base)
	NTTRACE_WIN(_wcstoui64);
extern int _wtoi(const wchar_t *s) NTTRACE_WIN(_wtoi);
extern long _wtol(const wchar_t *s) NTTRACE_WIN(_wtol);
extern long long _wtoi64(const wchar_t *s) NTTRACE_WIN(_wtoi64);
extern double _wtof(const wchar_t *s) NTTRACE_WIN(_wtof);
extern errno_t wcscpy_s(wchar_t *d, size_t n, const wchar_t *s) NTTRACE_WIN(wcscpy_s);
extern errno_t wcsncpy_s(wchar_t *d, size_t n, const wchar_t *s, size_t count)
	NTTRACE_WIN(wcsncpy_s);
extern errno_t wcscat_s(wchar_t *d, size_t n, const wchar_t *s) NTTRACE_WIN(wcscat_s);
extern int _snwprintf(wchar_t *buf, size_t n, const wchar_t *fmt, ...) NTTRACE_WIN(_snwprintf);
extern int _vsnwprintf(wchar_t *buf, size_t n, const wchar_t *fmt, va_list ap)
	NTTRACE_WIN(_vsnwprintf);
extern int swprintf_s(wchar_t *buf, size_t n, const wchar_t *fmt, ...) NTTRACE_WIN(swprintf_s);
extern int vswprintf_s(wchar_t *buf, size_t n, const wchar_t *fmt, va_list ap)
	NTTRACE_WIN(vswprintf_s);
extern int _scwprintf(const wchar_t *fmt, ...) NTTRACE_WIN(_scwprintf);
extern int _vscwprintf(const wchar_t *fmt, va_list ap) NTTRACE_WIN(_vscwprintf);
extern int _putws(const wchar_t *s) NTTRACE_WIN(_putws);
extern FILE *_wfopen(const wchar_t *path, const wchar_t *mode) NTTRACE_WIN(_wfopen);
extern int _wremove(const wchar_t *path) NTTRACE_WIN(_wremove);
extern errno_t _wfopen_s(FILE **f, const wchar_t *path, const wchar_t *mode)
	NTTRACE_WIN(_wfopen_s);

/* glibc's that are not here: each a compile error where it is called. */
extern int wcscasecmp(const wchar_t *a, const wchar_t *b) __THROW NTTRACE_WIN_NOT_HERE;
extern int wcsncasecmp(const wchar_t *a, const wchar_t *b, size_t n) __THROW
	NTTRACE_WIN_NOT_HERE;
extern int wcscoll(const wchar_t *a, const wchar_t *b) __THROW NTTRACE_WIN_NOT_HERE;
extern size_t wcsxfrm(wchar_t *__restrict d, const wchar_t *__restrict s, size_t n) __THROW
	NTTRACE_WIN_NOT_HERE;
extern wchar_t *wcstok(wchar_t *__restrict s, const wchar_t *__restrict delim,
		       wchar_t **__restrict save) __THROW NTTRACE_WIN_NOT_HERE;
extern size_t mbrtowc(wchar_t *__restrict pwc, const char *__restrict s, size_t n,
		      mbstate_t *__restrict ps) __THROW NTTRACE_WIN_NOT_HERE;
extern size_t wcrtomb(char *__restrict s, wchar_t wc, mbstate_t *__restrict ps) __THROW
	NTTRACE_WIN_NOT_HERE;
extern size_t mbsrtowcs(wchar_t *__restrict d, const char **__restrict s, size_t n,
			mbstate_t *__restrict ps) __THROW NTTRACE_WIN_NOT_HERE;
extern size_t wcsrtombs(char *__restrict d, const wchar_t **__restrict s, size_t n,
			mbstate_t *__restrict ps) __THROW NTTRACE_WIN_NOT_HERE;
extern float wcstof(const wchar_t *__restrict s, wchar_t **__restrict end) __THROW
	NTTRACE_WIN_NOT_HERE;
extern long double wcstold(const wchar_t *__restrict s, wchar_t **__restrict end) __THROW
	NTTRACE_WIN_NOT_HERE;
extern int fwscanf(FILE *__restrict f, const wchar_t *__restrict fmt, ...) NTTRACE_WIN_NOT_HERE;
extern int wscanf(const wchar_t *__restrict fmt, ...) NTTRACE_WIN_NOT_HERE;
extern int swscanf(const wchar_t *__restrict s, const wchar_t *__restrict fmt, ...) __THROW
	NTTRACE_WIN_NOT_HERE;
extern wint_t fgetwc(FILE *f) NTTRACE_WIN_NOT_HERE;
extern wint_t getwc(FILE *f) NTTRACE_WIN_NOT_HERE;
extern wint_t getwchar(void) NTTRACE_WIN_NOT_HERE;
extern wint_t ungetwc(wint_t c, FILE *f) NTTRACE_WIN_NOT_HERE;
extern size_t wcsftime(wchar_t *__restrict s, size_t max, const wchar_t *__restrict fmt,
		       const struct tm *__restrict tp) __THROW NTTRACE_WIN_NOT_HERE;
extern size_t mbstowcs(wchar_t *__restrict d, const char *__restrict s, size_t n) __THROW
	NTTRACE_WIN_NOT_HERE;
extern size_t wcstombs(char *__restrict d, const wchar_t *__restrict s, size_t n) __THROW
	NTTRACE_WIN_NOT_HERE;
extern int mbtowc(wchar_t *__restrict pwc, const char *__restrict s, size_t n) __THROW
	NTTRACE_WIN_NOT_HERE;
extern int wctomb(char *s, wchar_t wc) __THROW NTTRACE_WIN_NOT_HERE;
NTTRACE_WIN_END

#endif /* NTTRACE_WINDOWS_WCHAR_H */
