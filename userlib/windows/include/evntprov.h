/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <evntprov.h> under its Windows name: nttrace's <nttrace/evntprov.h>
 * (EventRegister, EventWrite and friends, EVENT_DESCRIPTOR,
 * EVENT_DATA_DESCRIPTOR).
 *
 * Installed in $(includedir)/nttrace/windows, which
 * `pkg-config --cflags nttrace-windows` puts on the include path, so
 * that Windows sources compile unchanged.
 */
#ifndef NTTRACE_WINDOWS_EVNTPROV_H
#define NTTRACE_WINDOWS_EVNTPROV_H

#include "windows.h"
#include <nttrace/evntprov.h>

#endif /* NTTRACE_WINDOWS_EVNTPROV_H */
