/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <windows.h> under its Windows name: what nttrace has of it, the base
 * types (ULONG, HANDLE, GUID, LARGE_INTEGER, ...: <nttrace/winnt.h>) and
 * the Win32 error codes with GetLastError and SetLastError
 * (<nttrace/winerror.h>). Nothing else of the Windows API is here: a
 * program that needs more does not compile, rather than compile into
 * something that behaves differently.
 *
 * Installed in $(includedir)/nttrace/windows, which
 * `pkg-config --cflags nttrace-windows` puts on the include path, so
 * that Windows sources compile unchanged.
 */
#ifndef NTTRACE_WINDOWS_WINDOWS_H
#define NTTRACE_WINDOWS_WINDOWS_H

#include <nttrace/winnt.h>
#include <nttrace/winerror.h>

#endif /* NTTRACE_WINDOWS_WINDOWS_H */
