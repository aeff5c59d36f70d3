/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The Windows layer's C runtime: the wide (UTF-16) string and stdio
 * functions, and printf with Microsoft's format semantics, for programs
 * built with -fshort-wchar against nttrace-windows.pc. Its headers bind
 * each CRT name to nttrace_win_<name> here (wcslen to nttrace_win_wcslen,
 * _snwprintf to nttrace_win__snwprintf), since glibc's wide functions take
 * 32-bit wide characters. The library itself is built without -fshort-wchar: a
 * wide string is a WCHAR (16-bit) string here, and errno_t is int.
 */
#ifndef NTTRACE_WINDOWS_CRT_H
#define NTTRACE_WINDOWS_CRT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <nttrace/winnt.h>

/* _TRUNCATE for wcsncpy_s, and its STRUNCATE result, as in MSVC. */
#define NTTRACE_WIN_TRUNCATE	((size_t)-1)
#define NTTRACE_WIN_STRUNCATE	80
/* MSVC's WEOF (wint_t is 16 bits there): fputwc's and putwchar's failure. */
#define NTTRACE_WIN_WEOF	0xFFFFu

/* Wide strings, lengths in 16-bit units (userlib/windows/wcs.c). */
size_t nttrace_win_wcslen(const WCHAR *s);
size_t nttrace_win_wcsnlen(const WCHAR *s, size_t max);
WCHAR *nttrace_win_wcscpy(WCHAR *dst, const WCHAR *src);
WCHAR *nttrace_win_wcsncpy(WCHAR *dst, const WCHAR *src, size_t n);
WCHAR *nttrace_win_wcscat(WCHAR *dst, const WCHAR *src);
WCHAR *nttrace_win_wcsncat(WCHAR *dst, const WCHAR *src, size_t n);
int nttrace_win_wcscmp(const WCHAR *a, const WCHAR *b);
int nttrace_win_wcsncmp(const WCHAR *a, const WCHAR *b, size_t n);
WCHAR *nttrace_win_wcschr(const WCHAR *s, WCHAR c);
WCHAR *nttrace_win_wcsrchr(const WCHAR *s, WCHAR c);
WCHAR *nttrace_win_wcsstr(const WCHAR *s, const WCHAR *sub);
WCHAR *nttrace_win_wcspbrk(const WCHAR *s, const WCHAR *set);
size_t nttrace_win_wcsspn(const WCHAR *s, const WCHAR *set);
size_t nttrace_win_wcscspn(const WCHAR *s, const WCHAR *set);
WCHAR *nttrace_win__wcsdup(const WCHAR *s);

/* Case: each unit folded by towlower() or towupper() (the C locale's). */
int nttrace_win__wcsicmp(const WCHAR *a, const WCHAR *b);
int nttrace_win__wcsnicmp(const WCHAR *a, const WCHAR *b, size_t n);
WCHAR *nttrace_win__wcslwr(WCHAR *s);
WCHAR *nttrace_win__wcsupr(WCHAR *s);

/* Arrays of units. */
WCHAR *nttrace_win_wmemcpy(WCHAR *dst, const WCHAR *src, size_t n);
WCHAR *nttrace_win_wmemmove(WCHAR *dst, const WCHAR *src, size_t n);
WCHAR *nttrace_win_wmemset(WCHAR *dst, WCHAR c, size_t n);
int nttrace_win_wmemcmp(const WCHAR *a, const WCHAR *b, size_t n);
WCHAR *nttrace_win_wmemchr(const WCHAR *s, WCHAR c, size_t n);

/* Numbers: the C library's parsers over the text's leading ASCII. */
long nttrace_win_wcstol(const WCHAR *s, WCHAR **end, int base);
unsigned long nttrace_win_wcstoul(const WCHAR *s, WCHAR **end, int base);
long long nttrace_win_wcstoll(const WCHAR *s, WCHAR **end, int base);
unsigned long long nttrace_win_wcstoull(const WCHAR *s, WCHAR **end, int base);
long long nttrace_win__wcstoi64(const WCHAR *s, WCHAR **end, int base);
unsigned long long nttrace_win__wcstoui64(const WCHAR *s, WCHAR **end, int base);
double nttrace_win_wcstod(const WCHAR *s, WCHAR **end);
int nttrace_win__wtoi(const WCHAR *s);
long nttrace_win__wtol(const WCHAR *s);
long long nttrace_win__wtoi64(const WCHAR *s);
double nttrace_win__wtof(const WCHAR *s);

/* The bounds-checked copies: 0, EINVAL, ERANGE or STRUNCATE (errno_t). */
int nttrace_win_wcscpy_s(WCHAR *dst, size_t size, const WCHAR *src);
int nttrace_win_wcsncpy_s(WCHAR *dst, size_t size, const WCHAR *src, size_t count);
int nttrace_win_wcscat_s(WCHAR *dst, size_t size, const WCHAR *src);

/*
 * printf with MSVC's formats (userlib/windows/wprintf.c): in the wide
 * functions %s and %c take a WCHAR string and character, %S and %C a
 * narrow one; the other way round in the narrow ones. The wide functions
 * count UTF-16 units, the narrow ones bytes (UTF-8).
 */
int nttrace_win_wprintf(const WCHAR *fmt, ...);
int nttrace_win_vwprintf(const WCHAR *fmt, va_list ap);
int nttrace_win_fwprintf(FILE *f, const WCHAR *fmt, ...);
int nttrace_win_vfwprintf(FILE *f, const WCHAR *fmt, va_list ap);
int nttrace_win_swprintf(WCHAR *buf, size_t count, const WCHAR *fmt, ...);
int nttrace_win_vswprintf(WCHAR *buf, size_t count, const WCHAR *fmt, va_list ap);
int nttrace_win__snwprintf(WCHAR *buf, size_t count, const WCHAR *fmt, ...);
int nttrace_win__vsnwprintf(WCHAR *buf, size_t count, const WCHAR *fmt, va_list ap);
int nttrace_win_swprintf_s(WCHAR *buf, size_t count, const WCHAR *fmt, ...);
int nttrace_win_vswprintf_s(WCHAR *buf, size_t count, const WCHAR *fmt, va_list ap);
int nttrace_win__scwprintf(const WCHAR *fmt, ...);
int nttrace_win__vscwprintf(const WCHAR *fmt, va_list ap);

int nttrace_win_printf(const char *fmt, ...);
int nttrace_win_vprintf(const char *fmt, va_list ap);
int nttrace_win_fprintf(FILE *f, const char *fmt, ...);
int nttrace_win_vfprintf(FILE *f, const char *fmt, va_list ap);
int nttrace_win_sprintf(char *buf, const char *fmt, ...);
int nttrace_win_vsprintf(char *buf, const char *fmt, va_list ap);
int nttrace_win_snprintf(char *buf, size_t count, const char *fmt, ...);
int nttrace_win_vsnprintf(char *buf, size_t count, const char *fmt, va_list ap);
int nttrace_win__snprintf(char *buf, size_t count, const char *fmt, ...);
int nttrace_win__vsnprintf(char *buf, size_t count, const char *fmt, va_list ap);
int nttrace_win_sprintf_s(char *buf, size_t count, const char *fmt, ...);
int nttrace_win_vsprintf_s(char *buf, size_t count, const char *fmt, va_list ap);
int nttrace_win__scprintf(const char *fmt, ...);
int nttrace_win__vscprintf(const char *fmt, va_list ap);

/* Wide text on byte streams, as UTF-8; wide file names, as UTF-8. */
int nttrace_win_fputws(const WCHAR *s, FILE *f);
unsigned int nttrace_win_fputwc(WCHAR c, FILE *f);
unsigned int nttrace_win_putwchar(WCHAR c);
int nttrace_win__putws(const WCHAR *s);
WCHAR *nttrace_win_fgetws(WCHAR *buf, int n, FILE *f);
FILE *nttrace_win__wfopen(const WCHAR *path, const WCHAR *mode);
int nttrace_win__wfopen_s(FILE **f, const WCHAR *path, const WCHAR *mode);
int nttrace_win__wremove(const WCHAR *path);

/* stdlib.h's paths (path.c). */
char *nttrace_win__fullpath(char *out, const char *rel, size_t max);
WCHAR *nttrace_win__wfullpath(WCHAR *out, const WCHAR *rel, size_t max);

/*
 * The library's own (utf.c, not exported): a code point from UTF-16, and
 * UTF-8 to UTF-16.
 */
size_t nttrace_win_utf16_next(const WCHAR *s, size_t n, uint32_t *cp);
size_t nttrace_win_utf8_to_16(WCHAR *out, size_t max, const char *s, size_t n);

#endif /* NTTRACE_WINDOWS_CRT_H */
