/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <evntrace.h> under its Windows name: nttrace's <nttrace/evntrace.h>
 * (TraceMessage, RegisterTraceGuids, TraceEvent, StartTrace,
 * ControlTrace, EnableTrace, OpenTrace, ProcessTrace and their types).
 *
 * Installed in $(includedir)/nttrace/windows, which
 * `pkg-config --cflags nttrace-windows` puts on the include path, so
 * that Windows sources compile unchanged.
 */
#ifndef NTTRACE_WINDOWS_EVNTRACE_H
#define NTTRACE_WINDOWS_EVNTRACE_H

#include "windows.h"
#include <nttrace/evntrace.h>

#endif /* NTTRACE_WINDOWS_EVNTRACE_H */
