/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <winerror.h> under its Windows name: nttrace's <nttrace/winerror.h>
 * (ERROR_* with Windows' values, GetLastError, SetLastError).
 *
 * Installed in $(includedir)/nttrace/windows, which
 * `pkg-config --cflags nttrace-windows` puts on the include path, so
 * that Windows sources compile unchanged.
 */
#ifndef NTTRACE_WINDOWS_WINERROR_H
#define NTTRACE_WINDOWS_WINERROR_H

#include <nttrace/winerror.h>

#endif /* NTTRACE_WINDOWS_WINERROR_H */
