/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <tdh.h> under its Windows name: nttrace's <nttrace/tdh.h> (the Trace
 * Data Helper: TdhGetEventInformation, TdhGetProperty, TdhFormatProperty
 * and their structures).
 *
 * Installed in $(includedir)/nttrace/windows, which
 * `pkg-config --cflags nttrace-windows` puts on the include path, so
 * that Windows sources compile unchanged.
 */
#ifndef NTTRACE_WINDOWS_TDH_H
#define NTTRACE_WINDOWS_TDH_H

#include "windows.h"
#include <nttrace/tdh.h>

#endif /* NTTRACE_WINDOWS_TDH_H */
