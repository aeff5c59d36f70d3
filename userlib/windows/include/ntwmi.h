/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <ntwmi.h> under the name of the header NTDLL's ETW declarations come
 * from (the Windows 10 1511 WDK's, phnt's): nttrace's <nttrace/ntwmi.h>.
 * EtwEventWriteNoRegistration and the security provider's calls, and
 * NtQuerySystemInformation and NtSetSystemInformation for
 * SystemPerformanceTraceInformation with EVENT_TRACE_INFORMATION_CLASS and
 * its structures (group masks, the profile interval and sources, stack
 * tracing; the classes nttrace has nothing for say STATUS_NOT_SUPPORTED).
 * No SDK header declares these: a program that declares them itself
 * does not include this one.
 *
 * Installed in $(includedir)/nttrace/windows, which
 * `pkg-config --cflags nttrace-windows` puts on the include path, so
 * that Windows sources compile unchanged.
 */
#ifndef NTTRACE_WINDOWS_NTWMI_H
#define NTTRACE_WINDOWS_NTWMI_H

#include "windows.h"
#include <nttrace/ntwmi.h>

#endif /* NTTRACE_WINDOWS_NTWMI_H */
