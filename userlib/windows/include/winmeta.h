/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <winmeta.h> under its Windows name: nttrace's <nttrace/winmeta.h>
 * (the WINEVENT_ levels, channels, opcodes and keywords).
 *
 * Installed in $(includedir)/nttrace/windows, which
 * `pkg-config --cflags nttrace-windows` puts on the include path, so
 * that Windows sources compile unchanged.
 */
#ifndef NTTRACE_WINDOWS_WINMETA_H
#define NTTRACE_WINDOWS_WINMETA_H

#include "windows.h"
#include <nttrace/winmeta.h>

#endif /* NTTRACE_WINDOWS_WINMETA_H */
