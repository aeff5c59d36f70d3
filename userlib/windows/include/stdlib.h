/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <stdlib.h> for Windows sources (nttrace-windows.pc): glibc's, with its
 * functions that convert to and from a 32-bit wchar_t made compile errors
 * (<wchar.h> declares them so), and MSVC's _countof.
 */
#ifndef NTTRACE_WINDOWS_STDLIB_H
#define NTTRACE_WINDOWS_STDLIB_H

#include_next <stdlib.h>

#ifndef _countof
#define _countof(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#endif /* NTTRACE_WINDOWS_STDLIB_H */
#include <wchar.h>
