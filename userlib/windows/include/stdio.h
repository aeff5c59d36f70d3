/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <stdio.h> for Windows sources (nttrace-windows.pc): glibc's, with the
 * printf functions bound to libnttrace's, which read formats as MSVC does
 * (%S and %ls a wide string, %I64d, %Iu, %p as 16 hex digits; %n refused:
 * <wchar.h> says more), and the Microsoft C runtime's own beside them
 * (_snprintf, sprintf_s, _scprintf). A Windows program's printf("%S", w)
 * then prints its UTF-16 string, where glibc's would read 32-bit units.
 */
#ifndef NTTRACE_WINDOWS_STDIO_H
#define NTTRACE_WINDOWS_STDIO_H

#include "nttrace_win.h"
#include <stdarg.h>
#include <stddef.h>
#include <bits/types/FILE.h>

NTTRACE_WIN_BEGIN
extern int printf(const char *__restrict fmt, ...) NTTRACE_WIN(printf);
extern int vprintf(const char *__restrict fmt, va_list ap) NTTRACE_WIN(vprintf);
extern int fprintf(FILE *__restrict f, const char *__restrict fmt, ...) NTTRACE_WIN(fprintf);
extern int vfprintf(FILE *__restrict f, const char *__restrict fmt, va_list ap)
	NTTRACE_WIN(vfprintf);
extern int sprintf(char *__restrict buf, const char *__restrict fmt, ...) NTTRACE_WIN_NTH(sprintf);
extern int vsprintf(char *__restrict buf, const char *__restrict fmt, va_list ap) NTTRACE_WIN_NTH(vsprintf);
extern int snprintf(char *__restrict buf, size_t n, const char *__restrict fmt, ...) NTTRACE_WIN_NTH(snprintf);
extern int vsnprintf(char *__restrict buf, size_t n, const char *__restrict fmt, va_list ap)
	NTTRACE_WIN_NTH(vsnprintf);
NTTRACE_WIN_END

/* glibc's <stdio.h>, without its fortified inline printf functions. */
#pragma push_macro("__USE_FORTIFY_LEVEL")
#undef __USE_FORTIFY_LEVEL
#define __USE_FORTIFY_LEVEL 0
#include_next <stdio.h>
#pragma pop_macro("__USE_FORTIFY_LEVEL")

NTTRACE_WIN_BEGIN
extern int _snprintf(char *buf, size_t n, const char *fmt, ...) NTTRACE_WIN(_snprintf);
extern int _vsnprintf(char *buf, size_t n, const char *fmt, va_list ap) NTTRACE_WIN(_vsnprintf);
extern int sprintf_s(char *buf, size_t n, const char *fmt, ...) NTTRACE_WIN(sprintf_s);
extern int vsprintf_s(char *buf, size_t n, const char *fmt, va_list ap) NTTRACE_WIN(vsprintf_s);
extern int _scprintf(const char *fmt, ...) NTTRACE_WIN(_scprintf);
extern int _vscprintf(const char *fmt, va_list ap) NTTRACE_WIN(_vscprintf);
NTTRACE_WIN_END

#endif /* NTTRACE_WINDOWS_STDIO_H */
