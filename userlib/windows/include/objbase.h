/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <objbase.h> for Windows sources (nttrace-windows.pc): of COM, only
 * StringFromGUID2 and StringFromCLSID, which ETW programs call to print a
 * GUID, and the task allocator they free its text with. The rest of
 * COM, and WMI, are not part of nttrace's Windows layer (README, "The
 * Windows around ETW"): CoInitialize and the like do not compile.
 */
#ifndef NTTRACE_WINDOWS_OBJBASE_H
#define NTTRACE_WINDOWS_OBJBASE_H

#include "nttrace_win.h"
#include "guiddef.h"
#include "winerror.h"

typedef LONG HRESULT;

typedef WCHAR OLECHAR, *LPOLESTR;
typedef const WCHAR *LPCOLESTR;

NTTRACE_WIN_BEGIN
/*
 * @guid as "{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}" (upper case, 39
 * characters with the NUL) at @out; returns 39, or 0 when @max is less.
 */
int StringFromGUID2(REFGUID guid, LPOLESTR out, int max) NTTRACE_WIN(StringFromGUID2);
/*
 * The same text in memory for CoTaskMemFree (which is free here, as
 * CoTaskMemAlloc is malloc): S_OK, or E_OUTOFMEMORY.
 */
HRESULT StringFromCLSID(REFCLSID clsid, LPOLESTR *text) NTTRACE_WIN(StringFromCLSID);
HRESULT StringFromIID(REFIID iid, LPOLESTR *text) NTTRACE_WIN(StringFromCLSID);
void *CoTaskMemAlloc(SIZE_T bytes) NTTRACE_WIN(CoTaskMemAlloc);
void CoTaskMemFree(void *mem) NTTRACE_WIN(CoTaskMemFree);
NTTRACE_WIN_END

#endif /* NTTRACE_WINDOWS_OBJBASE_H */
