/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <string.h> for Windows sources (nttrace-windows.pc): glibc's, with the
 * Microsoft C runtime's names for three of its functions (_stricmp,
 * _strnicmp, _strdup: the C library's strcasecmp, strncasecmp and strdup,
 * which fold ASCII letters as MSVC's do in the "C" locale).
 */
#ifndef NTTRACE_WINDOWS_STRING_H
#define NTTRACE_WINDOWS_STRING_H

#include_next <string.h>
#include <strings.h>

#define _stricmp	strcasecmp
#define _strnicmp	strncasecmp
#define _strdup		strdup

#endif /* NTTRACE_WINDOWS_STRING_H */
