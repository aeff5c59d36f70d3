// SPDX-License-Identifier: MIT
/*
 * A Windows trace controller in the SDK samples' idiom (_tmain, TCHAR,
 * strsafe.h, EVENT_TRACE_PROPERTIES with the names after it), built
 * unchanged for Windows (mingw-w64) and for Linux with nttrace-windows.pc,
 * as C and as C++.
 *
 *   controller start FILE   a session writing FILE, the three test
 *                           providers enabled (guids.h)
 *   controller stop         the session stopped; prints what it lost
 */
#include <windows.h>
#include <tchar.h>
#include <strsafe.h>
#include <wmistr.h>
#include <evntrace.h>
#include <stdio.h>

#include <initguid.h>
#include "guids.h"

#define PROPERTIES_SIZE \
	(sizeof(EVENT_TRACE_PROPERTIES) + sizeof(WINTEST_SESSION) + MAX_PATH * sizeof(TCHAR))

static PEVENT_TRACE_PROPERTIES NewProperties(void)
{
	PEVENT_TRACE_PROPERTIES props = (PEVENT_TRACE_PROPERTIES)malloc(PROPERTIES_SIZE);

	if (props == NULL)
		return NULL;
	ZeroMemory(props, PROPERTIES_SIZE);
	props->Wnode.BufferSize = (ULONG)PROPERTIES_SIZE;
	props->Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	props->Wnode.ClientContext = 1;	/* QueryPerformanceCounter */
	props->LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
	props->LogFileNameOffset = sizeof(EVENT_TRACE_PROPERTIES) + sizeof(WINTEST_SESSION);
	return props;
}

static int Start(_In_z_ LPCTSTR file)
{
	PEVENT_TRACE_PROPERTIES props = NewProperties();
	TRACEHANDLE session = 0;
	ULONG status;
	HRESULT hr;

	if (props == NULL)
		return 1;
	props->LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
	props->BufferSize = 64;
	hr = StringCbCopy((LPTSTR)((char *)props + props->LogFileNameOffset),
			  MAX_PATH * sizeof(TCHAR), file);
	if (FAILED(hr)) {
		_tprintf(_T("StringCbCopy failed: 0x%08lX\n"), (unsigned long)hr);
		return 1;
	}
	status = StartTrace(&session, WINTEST_SESSION, props);
	if (status != ERROR_SUCCESS) {
		_tprintf(_T("StartTrace failed with %lu\n"), (unsigned long)status);
		return 1;
	}
	status = EnableTraceEx2(session, &ManifestProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
				TRACE_LEVEL_VERBOSE, 0, 0, 0, NULL);
	if (status == ERROR_SUCCESS)
		status = EnableTraceEx2(session, &TraceLoggingProvider,
					EVENT_CONTROL_CODE_ENABLE_PROVIDER, TRACE_LEVEL_VERBOSE,
					0, 0, 0, NULL);
	if (status == ERROR_SUCCESS)
		status = EnableTrace(TRUE, 0, TRACE_LEVEL_VERBOSE, &ClassicProvider, session);
	if (status != ERROR_SUCCESS) {
		_tprintf(_T("enabling the providers failed with %lu\n"), (unsigned long)status);
		return 1;
	}
	_tprintf(_T("session %s started, writing %s\n"), WINTEST_SESSION, file);
	free(props);
	return 0;
}

static int Stop(void)
{
	PEVENT_TRACE_PROPERTIES props = NewProperties();
	ULONG status, lost;

	if (props == NULL)
		return 1;
	status = ControlTrace(0, WINTEST_SESSION, props, EVENT_TRACE_CONTROL_STOP);
	if (status != ERROR_SUCCESS) {
		_tprintf(_T("ControlTrace(STOP) failed with %lu\n"), (unsigned long)status);
		return 1;
	}
	_tprintf(_T("session %s stopped: %lu buffers written, %lu events lost\n"),
		 (LPCTSTR)((char *)props + props->LoggerNameOffset),
		 (unsigned long)props->BuffersWritten, (unsigned long)props->EventsLost);
	lost = props->EventsLost;
	free(props);
	return lost != 0;
}

int _tmain(int argc, _TCHAR *argv[])
{
	if (argc == 3 && _tcscmp(argv[1], _T("start")) == 0)
		return Start(argv[2]);
	if (argc == 2 && _tcscmp(argv[1], _T("stop")) == 0)
		return Stop();
	_ftprintf(stderr, _T("usage: %s start FILE | stop\n"), argv[0]);
	return 2;
}
