// SPDX-License-Identifier: MIT
/*
 * A Windows TraceLogging provider in the documentation's idiom
 * (TRACELOGGING_DEFINE_PROVIDER, TraceLoggingWrite with a wide string),
 * built unchanged with nttrace-windows.pc, as C and as C++. (mingw-w64 10
 * has no TraceLoggingProvider.h: the Windows SDK's build is not checked.)
 *
 *   tlprovider N   TraceLoggingRegister, N x TraceLoggingWrite
 */
#include <windows.h>
#include <stdio.h>
#include <evntrace.h>
#include <TraceLoggingProvider.h>

#include "guids.h"

TRACELOGGING_DEFINE_PROVIDER(g_hTraceLogging, "NtWindowsTest.TraceLogging",
	(0x5f0c8a52, 0x7d1e, 0x4b7a, 0x9a, 0x39, 0x2c, 0x4e, 0x6b, 0x8d, 0x1f, 0x04));

static int TraceLogging(ULONG count)
{
	HRESULT hr = TraceLoggingRegister(g_hTraceLogging);
	ULONG i;

	if (FAILED(hr)) {
		wprintf(L"TraceLoggingRegister failed: 0x%08lX\n", (unsigned long)hr);
		return 1;
	}
	for (i = 0; i < count; i++)
		TraceLoggingWrite(g_hTraceLogging, "Greeting",
				  TraceLoggingLevel(TRACE_LEVEL_INFORMATION),
				  TraceLoggingWideString(WINTEST_GREETING, "Text"),
				  TraceLoggingUInt32(i, "Count"));
	TraceLoggingUnregister(g_hTraceLogging);
	wprintf(L"tracelogging: %lu events\n", (unsigned long)i);
	return 0;
}

int wmain(int argc, wchar_t *argv[])
{
	if (argc != 2) {
		fwprintf(stderr, L"usage: %s COUNT\n", argv[0]);
		return 2;
	}
	return TraceLogging(wcstoul(argv[1], NULL, 10));
}
