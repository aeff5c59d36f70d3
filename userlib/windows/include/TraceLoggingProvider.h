/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <TraceLoggingProvider.h> under its Windows name: nttrace's <nttrace/traceloggingprovider.h>
 * (TraceLogging's providers and TraceLoggingWrite).
 *
 * Installed in $(includedir)/nttrace/windows, which
 * `pkg-config --cflags nttrace-windows` puts on the include path, so
 * that Windows sources compile unchanged.
 */
#ifndef NTTRACE_WINDOWS_TRACELOGGINGPROVIDER_H
#define NTTRACE_WINDOWS_TRACELOGGINGPROVIDER_H

#include "windows.h"
#include <nttrace/traceloggingprovider.h>

#endif /* NTTRACE_WINDOWS_TRACELOGGINGPROVIDER_H */
