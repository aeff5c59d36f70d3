/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <wmistr.h> under its Windows name: nttrace's <nttrace/wmistr.h>
 * (WNODE_HEADER, WNODE_FLAG_*, WMIDPREQUESTCODE).
 *
 * Installed in $(includedir)/nttrace/windows, which
 * `pkg-config --cflags nttrace-windows` puts on the include path, so
 * that Windows sources compile unchanged.
 */
#ifndef NTTRACE_WINDOWS_WMISTR_H
#define NTTRACE_WINDOWS_WMISTR_H

#include "windows.h"
#include <nttrace/wmistr.h>

#endif /* NTTRACE_WINDOWS_WMISTR_H */
