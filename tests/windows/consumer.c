// SPDX-License-Identifier: MIT
/*
 * A Windows trace consumer in the SDK samples' idiom (wmain, OpenTrace and
 * ProcessTrace with an EventRecordCallback, TDH's TdhGetEventInformation
 * and TdhFormatProperty, StringFromGUID2, FileTimeToSystemTime), built
 * unchanged for Windows (mingw-w64) and for Linux with nttrace-windows.pc,
 * as C and as C++.
 *
 *   consumer FILE N   reads FILE; exits 0 when it holds what the three
 *                     providers (provider.c) wrote with N each, every
 *                     TraceLogging field decoded by TDH as written
 */
#include <windows.h>
#include <stdio.h>
#include <wmistr.h>
#include <evntrace.h>
#include <evntcons.h>
#include <tdh.h>
#include <strsafe.h>

#include <initguid.h>
#include "guids.h"

/* REFGUID is a pointer in C and a reference in C++ (guiddef.h). */
#ifdef __cplusplus
#define REF(guid)	(guid)
#else
#define REF(guid)	(&(guid))
#endif

static ULONG g_Manifest, g_TraceLogging, g_Classic, g_Bad;
static BOOL g_Printed;

static void PrintFirst(_In_ PEVENT_RECORD record)
{
	WCHAR guid[40];
	FILETIME ft;
	SYSTEMTIME utc, local;

	if (g_Printed)
		return;
	g_Printed = TRUE;
	StringFromGUID2(REF(record->EventHeader.ProviderId), guid, ARRAYSIZE(guid));
	ft.dwLowDateTime = record->EventHeader.TimeStamp.LowPart;
	ft.dwHighDateTime = (DWORD)record->EventHeader.TimeStamp.HighPart;
	if (!FileTimeToSystemTime(&ft, &utc) ||
	    !SystemTimeToTzSpecificLocalTime(NULL, &utc, &local)) {
		g_Bad++;
		return;
	}
	wprintf(L"first event: provider %s, %04u-%02u-%02u %02u:%02u:%02u.%03u local time\n",
		guid, local.wYear, local.wMonth, local.wDay, local.wHour, local.wMinute,
		local.wSecond, local.wMilliseconds);
}

/* The TraceLogging event's fields through TdhFormatProperty, checked. */
static BOOL CheckTraceLogging(_In_ PEVENT_RECORD record)
{
	PTRACE_EVENT_INFO info = NULL;
	ULONG size = 0, i, status;
	PBYTE data = (PBYTE)record->UserData;
	USHORT left = record->UserDataLength;
	WCHAR text[128];
	BOOL ok = TRUE;

	status = TdhGetEventInformation(record, 0, NULL, info, &size);
	if (status == ERROR_INSUFFICIENT_BUFFER) {
		info = (PTRACE_EVENT_INFO)malloc(size);
		if (info == NULL)
			return FALSE;
		status = TdhGetEventInformation(record, 0, NULL, info, &size);
	}
	if (status != ERROR_SUCCESS || info->TopLevelPropertyCount != 2) {
		free(info);
		return FALSE;
	}
	for (i = 0; i < info->TopLevelPropertyCount && ok; i++) {
		EVENT_PROPERTY_INFO *prop = &info->EventPropertyInfoArray[i];
		LPCWSTR name = (LPCWSTR)((PBYTE)info + prop->NameOffset);
		ULONG textSize = sizeof(text);
		USHORT used = 0;

		status = TdhFormatProperty(info, NULL,
					   (record->EventHeader.Flags & EVENT_HEADER_FLAG_32_BIT_HEADER)
						? 4 : 8,
					   prop->nonStructType.InType, prop->nonStructType.OutType,
					   prop->length, left, data, &textSize, text, &used);
		if (status != ERROR_SUCCESS) {
			wprintf(L"TdhFormatProperty(%s) failed with %lu\n", name,
				(unsigned long)status);
			ok = FALSE;
			break;
		}
		if (g_TraceLogging == 0)
			wprintf(L"  %s = %s\n", name, text);
		if (wcscmp(name, L"Text") == 0)
			ok = wcscmp(text, WINTEST_GREETING) == 0;
		else if (wcscmp(name, L"Count") == 0)
			ok = _wtoi(text) == (int)g_TraceLogging;
		else
			ok = FALSE;
		data += used;
		left -= used;
	}
	free(info);
	return ok;
}

static VOID WINAPI EventRecordCallback(_In_ PEVENT_RECORD record)
{
	const EVENT_HEADER *h = &record->EventHeader;

	if (IsEqualGUID(REF(h->ProviderId), REF(EventTraceGuid)))
		return;	/* the file's header */
	PrintFirst(record);
	if (IsEqualGUID(REF(h->ProviderId), REF(ManifestProvider))) {
		if (h->EventDescriptor.Id != WINTEST_MANIFEST_EVENT_ID ||
		    record->UserDataLength != sizeof(WINTEST_GREETING) + sizeof(ULONG) ||
		    memcmp(record->UserData, WINTEST_GREETING, sizeof(WINTEST_GREETING)) != 0)
			g_Bad++;
		g_Manifest++;
	} else if (IsEqualGUID(REF(h->ProviderId), REF(TraceLoggingProvider))) {
		if (!CheckTraceLogging(record))
			g_Bad++;
		g_TraceLogging++;
	} else if (IsEqualGUID(REF(h->ProviderId), REF(ClassicEventClass))) {
		g_Classic++;
	} else {
		WCHAR guid[40];

		StringFromGUID2(REF(h->ProviderId), guid, ARRAYSIZE(guid));
		wprintf(L"unexpected provider %s\n", guid);
		g_Bad++;
	}
}

int wmain(int argc, wchar_t *argv[])
{
	EVENT_TRACE_LOGFILEW logfile;
	TRACEHANDLE trace;
	ULONG status, expected;

	if (argc != 3) {
		fwprintf(stderr, L"usage: %s FILE COUNT\n", argv[0]);
		return 2;
	}
	expected = wcstoul(argv[2], NULL, 10);
	ZeroMemory(&logfile, sizeof(logfile));
	logfile.LogFileName = argv[1];
	logfile.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	logfile.EventRecordCallback = EventRecordCallback;
	trace = OpenTraceW(&logfile);
	if (trace == INVALID_PROCESSTRACE_HANDLE) {
		wprintf(L"OpenTrace(%s) failed with %lu\n", argv[1], (unsigned long)GetLastError());
		return 1;
	}
	status = ProcessTrace(&trace, 1, NULL, NULL);
	CloseTrace(trace);
	wprintf(L"%s: status %lu; manifest %lu, TraceLogging %lu, classic %lu, bad %lu\n",
		argv[1], (unsigned long)status, (unsigned long)g_Manifest,
		(unsigned long)g_TraceLogging, (unsigned long)g_Classic, (unsigned long)g_Bad);
	return status != ERROR_SUCCESS || g_Bad || g_Manifest != expected ||
	       g_TraceLogging != expected || g_Classic != 2 * expected;
}
