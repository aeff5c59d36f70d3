/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The Windows layer's common part (nttrace-windows.pc): how its headers
 * bind a Windows or C runtime name to libnttrace's implementation.
 *
 * The layer's programs are compiled with -fshort-wchar: wchar_t, and so
 * L"..." and WCHAR, are 16-bit UTF-16 as on Windows (README, "The Windows
 * around ETW"). glibc's wide functions take a 32-bit wchar_t, so each C
 * runtime name such a program calls (wcslen, wprintf, and printf for
 * MSVC's %S and %I64d) is declared here, before glibc declares it, with
 * the assembler name of libnttrace's 16-bit version, nttrace_win_<name>:
 * the program calls libnttrace's, every other library keeps glibc's. The
 * Windows API functions are bound the same way, so that libnttrace
 * exports no name of Windows' own outside ETW's.
 *
 * This header is not Windows': nothing includes it but the layer's own.
 */
#ifndef NTTRACE_WIN_H
#define NTTRACE_WIN_H

#if !defined(__SIZEOF_WCHAR_T__) || __SIZEOF_WCHAR_T__ != 2
#error "nttrace's Windows headers need a 16-bit wchar_t: compile with `pkg-config --cflags nttrace-windows` (-fshort-wchar)"
#endif

#include <features.h>

/*
 * In C, a call to a function nothing declared is an error, as in C++:
 * a Windows function this layer does not have must not compile into a
 * call the linker resolves to something else, or to nothing.
 */
#ifndef __cplusplus
#pragma GCC diagnostic error "-Wimplicit-function-declaration"
#endif

#define NTTRACE_WIN_STR2(x)	#x
#define NTTRACE_WIN_STR(x)	NTTRACE_WIN_STR2(x)
/* The assembler name of libnttrace's function for Windows' @name. */
#define NTTRACE_WIN(name) \
	__asm__(NTTRACE_WIN_STR(__USER_LABEL_PREFIX__) "nttrace_win_" #name)

/*
 * The same, for a function glibc declares __THROW (<sys/cdefs.h>, from
 * <features.h> above: noexcept in C++, an attribute in C): its exception
 * specification must match glibc's, and
 * goes before the assembler name in C++, after it in C.
 */
#ifdef __cplusplus
#define NTTRACE_WIN_NTH(name)	__THROW NTTRACE_WIN(name)
#else
#define NTTRACE_WIN_NTH(name)	NTTRACE_WIN(name) __THROW
#endif

#ifdef __cplusplus
#define NTTRACE_WIN_BEGIN	extern "C" {
#define NTTRACE_WIN_END		}
#else
#define NTTRACE_WIN_BEGIN
#define NTTRACE_WIN_END
#endif

/* What a call to a 32-bit wchar_t function of glibc's says. */
#define NTTRACE_WIN_NOT_HERE \
	__attribute__((__unavailable__("glibc's function for a 32-bit wchar_t; not in nttrace's Windows layer (16-bit wchar_t)")))

/* MSVC's errno_t and the _s functions' "truncate" count. */
typedef int errno_t;
#ifndef _TRUNCATE
#define _TRUNCATE	((size_t)-1)
#endif

#endif /* NTTRACE_WIN_H */
