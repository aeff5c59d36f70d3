// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's GUID as text (objbase.h's StringFromGUID2 and
 * StringFromCLSID), as Windows writes it: braces, upper-case hex digits,
 * 38 characters; and the COM task allocator StringFromCLSID's text is
 * freed with.
 */
#include <stdio.h>
#include <stdlib.h>

#include "win.h"

int nttrace_win_StringFromGUID2(const GUID *guid, WCHAR *out, int max)
{
	char text[40];
	int i, n;

	n = snprintf(text, sizeof(text),
		     "{%08X-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X}",
		     guid->Data1, guid->Data2, guid->Data3, guid->Data4[0],
		     guid->Data4[1], guid->Data4[2], guid->Data4[3], guid->Data4[4],
		     guid->Data4[5], guid->Data4[6], guid->Data4[7]);
	/* Windows: 0 when the buffer cannot take it all, with its NUL. */
	if (!out || max < n + 1)
		return 0;
	for (i = 0; i <= n; i++)
		out[i] = (unsigned char)text[i];
	return n + 1;
}

void *nttrace_win_CoTaskMemAlloc(SIZE_T bytes)
{
	return malloc(bytes ? bytes : 1);
}

void nttrace_win_CoTaskMemFree(void *mem)
{
	free(mem);
}

/* E_OUTOFMEMORY (winerror.h), StringFromCLSID's one failure. */
#define E_OUTOFMEMORY	((HRESULT)0x8007000EL)

HRESULT nttrace_win_StringFromCLSID(const GUID *clsid, WCHAR **text)
{
	*text = nttrace_win_CoTaskMemAlloc(39 * sizeof(WCHAR));
	if (!*text)
		return E_OUTOFMEMORY;
	nttrace_win_StringFromGUID2(clsid, *text, 39);
	return 0;
}
