/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <stdlib.h> for Windows sources (nttrace-windows.pc): glibc's, with its
 * functions that convert to and from a 32-bit wchar_t made compile errors
 * (<wchar.h> declares them so), MSVC's _countof, _fullpath and _wfullpath.
 */
#ifndef NTTRACE_WINDOWS_STDLIB_H
#define NTTRACE_WINDOWS_STDLIB_H

#include "nttrace_win.h"
#include_next <stdlib.h>

#ifndef _countof
#define _countof(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#endif /* NTTRACE_WINDOWS_STDLIB_H */
#include <wchar.h>

#ifndef NTTRACE_WINDOWS_STDLIB_FULLPATH
#define NTTRACE_WINDOWS_STDLIB_FULLPATH
/*
 * A path made absolute, "." and ".." taken out, the file not looked at
 * (Linux's '/' separates); @out NULL: malloc'd.
 */
NTTRACE_WIN_BEGIN
extern char *_fullpath(char *out, const char *rel, size_t max) NTTRACE_WIN(_fullpath);
extern wchar_t *_wfullpath(wchar_t *out, const wchar_t *rel, size_t max)
	NTTRACE_WIN(_wfullpath);
NTTRACE_WIN_END
#endif
