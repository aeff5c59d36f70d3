// SPDX-License-Identifier: MIT
/*
 * Windows trace providers of each kind in the SDK samples' idiom (wmain,
 * L"..." strings, SAL, DEFINE_GUID), built unchanged for Windows
 * (mingw-w64) and for Linux with nttrace-windows.pc, as C and as C++.
 *
 *   provider manifest N       EventRegister, N x EventWrite (a string, a count)
 *   provider classic N        RegisterTraceGuids, N x TraceEvent and N x TraceMessage
 *
 * (The TraceLogging provider is tlprovider.c: mingw-w64 10 has no
 * TraceLoggingProvider.h to check it against.)
 */
#include <windows.h>
#include <stdio.h>
#include <wmistr.h>
#include <evntrace.h>
#include <evntprov.h>

#include <initguid.h>
#include "guids.h"

static int Manifest(ULONG count)
{
	EVENT_DESCRIPTOR descriptor;
	EVENT_DATA_DESCRIPTOR data[2];
	REGHANDLE handle = 0;
	ULONG status, i;

	status = EventRegister(&ManifestProvider, NULL, NULL, &handle);
	if (status != ERROR_SUCCESS) {
		wprintf(L"EventRegister failed with %lu\n", (unsigned long)status);
		return 1;
	}
	EventDescCreate(&descriptor, WINTEST_MANIFEST_EVENT_ID, 0, 0, TRACE_LEVEL_INFORMATION,
			0, 0, 0);
	for (i = 0; i < count && status == ERROR_SUCCESS; i++) {
		EventDataDescCreate(&data[0], WINTEST_GREETING, sizeof(WINTEST_GREETING));
		EventDataDescCreate(&data[1], &i, sizeof(i));
		status = EventWrite(handle, &descriptor, ARRAYSIZE(data), data);
	}
	EventUnregister(handle);
	wprintf(L"manifest: %lu events, status %lu\n", (unsigned long)i, (unsigned long)status);
	return status != ERROR_SUCCESS;
}

static TRACEHANDLE g_Logger;
static BOOL g_Enabled;

static ULONG WINAPI ControlCallback(_In_ WMIDPREQUESTCODE RequestCode, _In_ PVOID Context,
				    _Inout_ ULONG *Reserved, _In_ PVOID Buffer)
{
	UNREFERENCED_PARAMETER(Context);
	UNREFERENCED_PARAMETER(Reserved);
	if (RequestCode == WMI_ENABLE_EVENTS) {
		g_Logger = GetTraceLoggerHandle(Buffer);
		g_Enabled = TRUE;
	} else if (RequestCode == WMI_DISABLE_EVENTS) {
		g_Enabled = FALSE;
	}
	return ERROR_SUCCESS;
}

typedef struct _CLASSIC_EVENT {
	EVENT_TRACE_HEADER Header;
	ULONG Count;
} CLASSIC_EVENT;

static int Classic(ULONG count)
{
	TRACE_GUID_REGISTRATION registration = { (LPGUID)&ClassicEventClass, NULL };
	TRACEHANDLE handle = 0;
	CLASSIC_EVENT event;
	ULONG status, i;

	status = RegisterTraceGuids(ControlCallback, NULL, &ClassicProvider, 1, &registration,
				    NULL, NULL, &handle);
	if (status != ERROR_SUCCESS) {
		wprintf(L"RegisterTraceGuids failed with %lu\n", (unsigned long)status);
		return 1;
	}
	if (!g_Enabled) {
		wprintf(L"classic: the provider is not enabled\n");
		UnregisterTraceGuids(handle);
		return 1;
	}
	for (i = 0; i < count && status == ERROR_SUCCESS; i++) {
		ZeroMemory(&event, sizeof(event));
		event.Header.Size = sizeof(event);
		event.Header.Flags = WNODE_FLAG_TRACED_GUID;
		event.Header.Guid = ClassicEventClass;
		event.Header.Class.Type = EVENT_TRACE_TYPE_INFO;
		event.Count = i;
		status = TraceEvent(g_Logger, &event.Header);
		if (status == ERROR_SUCCESS)
			status = TraceMessage(g_Logger, TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID,
					      &ClassicEventClass, WINTEST_MESSAGE_NUMBER,
					      &i, sizeof(i), NULL, 0);
	}
	UnregisterTraceGuids(handle);
	wprintf(L"classic: %lu events and messages, status %lu\n", (unsigned long)i,
		(unsigned long)status);
	return status != ERROR_SUCCESS;
}

int wmain(int argc, wchar_t *argv[])
{
	ULONG count = argc == 3 ? wcstoul(argv[2], NULL, 10) : 0;

	if (argc == 3 && _wcsicmp(argv[1], L"manifest") == 0)
		return Manifest(count);
	if (argc == 3 && _wcsicmp(argv[1], L"classic") == 0)
		return Classic(count);
	fwprintf(stderr, L"usage: %s manifest|classic COUNT\n", argv[0]);
	return 2;
}
