/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <evntcons.h> under its Windows name: nttrace's <nttrace/evntcons.h>
 * (EVENT_RECORD, EVENT_HEADER and the extended data items a consumer
 * reads).
 *
 * Installed in $(includedir)/nttrace/windows, which
 * `pkg-config --cflags nttrace-windows` puts on the include path, so
 * that Windows sources compile unchanged.
 */
#ifndef NTTRACE_WINDOWS_EVNTCONS_H
#define NTTRACE_WINDOWS_EVNTCONS_H

#include "windows.h"
#include <nttrace/evntcons.h>

#endif /* NTTRACE_WINDOWS_EVNTCONS_H */
