/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <shellapi.h> for Windows sources (nttrace-windows.pc): of the shell, only
 * CommandLineToArgvW, with which console programs split GetCommandLineW's
 * string (Microsoft's rules for quotes and backslashes). The array and
 * its strings are one block for LocalFree.
 */
#ifndef NTTRACE_WINDOWS_SHELLAPI_H
#define NTTRACE_WINDOWS_SHELLAPI_H

#include "windows.h"

NTTRACE_WIN_BEGIN
LPWSTR *CommandLineToArgvW(LPCWSTR line, int *count) NTTRACE_WIN(CommandLineToArgvW);
NTTRACE_WIN_END

#endif /* NTTRACE_WINDOWS_SHELLAPI_H */
