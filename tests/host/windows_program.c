// SPDX-License-Identifier: MIT
/*
 * A Windows tracing program as a Windows developer writes one, with only
 * the Windows SDK's headers and names: it compiles unchanged against the
 * Windows SDK (and mingw-w64) and, on Linux, against nttrace with nothing
 * but `pkg-config --cflags --libs nttrace-windows`. scripts/check-install
 * compiles and links it against an installed nttrace (and checks it with
 * mingw-w64's headers); run against the module, it exits 0 when every
 * step worked and says what it did.
 *
 *   windows_program [LOGFILE]     (default windows_program.etl)
 *
 * As a controller it starts a session writing LOGFILE (StartTrace) and
 * enables two providers for it (EnableTrace, EnableTraceEx2); as the
 * providers it registers a classic one (RegisterTraceGuids: enabled
 * already, so its control callback runs inside the call and hands it the
 * logger handle) that writes messages with TraceMessage, and a
 * manifest-based one (EventRegister) that writes events with EventWrite;
 * it stops the session (ControlTrace), and as a consumer reads the file
 * back (OpenTrace, ProcessTrace, CloseTrace), checking that every event
 * arrived with its number and data.
 *
 * Its strings are char: it calls the A functions by name, as an ANSI
 * program in a Unicode project (nttrace-windows.pc defines UNICODE, as
 * Visual Studio does) must. tests/windows/ has the wide programs.
 */
#include <windows.h>
#include <wmistr.h>
#include <evntrace.h>
#include <evntprov.h>
#include <evntcons.h>
#include <winerror.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SESSION_NAME	"WindowsProgramSession"
#define EVENTS		3
#define MESSAGE_NUMBER	10
#define EVENT_ID	1

/* {6a1f0c3e-2b7d-4e59-9c84-0d3f5a7b9e10}: the classic provider's control GUID. */
static const GUID ClassicProviderGuid = {
	0x6a1f0c3e, 0x2b7d, 0x4e59, { 0x9c, 0x84, 0x0d, 0x3f, 0x5a, 0x7b, 0x9e, 0x10 }
};
/* {6a1f0c3e-2b7d-4e59-9c84-0d3f5a7b9e11}: its event class (registration). */
static const GUID ClassicEventClassGuid = {
	0x6a1f0c3e, 0x2b7d, 0x4e59, { 0x9c, 0x84, 0x0d, 0x3f, 0x5a, 0x7b, 0x9e, 0x11 }
};
/* {6a1f0c3e-2b7d-4e59-9c84-0d3f5a7b9e12}: the GUID of its messages. */
static const GUID MessageGuid = {
	0x6a1f0c3e, 0x2b7d, 0x4e59, { 0x9c, 0x84, 0x0d, 0x3f, 0x5a, 0x7b, 0x9e, 0x12 }
};
/* {6a1f0c3e-2b7d-4e59-9c84-0d3f5a7b9e13}: the manifest-based provider. */
static const GUID ManifestProviderGuid = {
	0x6a1f0c3e, 0x2b7d, 0x4e59, { 0x9c, 0x84, 0x0d, 0x3f, 0x5a, 0x7b, 0x9e, 0x13 }
};

/* What the classic provider's control callback was told. */
static TRACEHANDLE ClassicLogger;
static int ClassicEnabled;

/* What the consumer found, by kind, and whether the data was right. */
static unsigned int MessagesSeen, EventsSeen, OtherSeen, BadData;
static int MessageValueSeen[EVENTS], EventValueSeen[EVENTS];

static int SameGuid(const GUID *a, const GUID *b)
{
	return memcmp(a, b, sizeof(GUID)) == 0;
}

static ULONG WINAPI ClassicControlCallback(WMIDPREQUESTCODE RequestCode, PVOID Context,
					   ULONG *BufferSize, PVOID Buffer)
{
	(void)Context;
	(void)BufferSize;
	switch (RequestCode) {
	case WMI_ENABLE_EVENTS:
		ClassicLogger = GetTraceLoggerHandle(Buffer);
		ClassicEnabled = 1;
		printf("provider: classic provider enabled (flags 0x%x, level %u)\n",
		       (unsigned int)GetTraceEnableFlags(ClassicLogger),
		       (unsigned int)GetTraceEnableLevel(ClassicLogger));
		break;
	case WMI_DISABLE_EVENTS:
		ClassicEnabled = 0;
		ClassicLogger = 0;
		break;
	default:
		return ERROR_INVALID_PARAMETER;
	}
	return ERROR_SUCCESS;
}

/* The first 4 bytes of an event's data, a number this program wrote. */
static int DataValue(PEVENT_RECORD Record, ULONG *Value)
{
	if (Record->UserDataLength < sizeof(*Value) || !Record->UserData)
		return 0;
	memcpy(Value, Record->UserData, sizeof(*Value));
	return *Value < EVENTS;
}

static void WINAPI ConsumeEvent(PEVENT_RECORD Record)
{
	const EVENT_HEADER *h = &Record->EventHeader;
	ULONG value;

	if ((h->Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE) &&
	    SameGuid(&h->ProviderId, &MessageGuid)) {
		MessagesSeen++;
		if (h->EventDescriptor.Id == MESSAGE_NUMBER && DataValue(Record, &value))
			MessageValueSeen[value]++;
		else
			BadData++;
	} else if (SameGuid(&h->ProviderId, &ManifestProviderGuid)) {
		EventsSeen++;
		if (h->EventDescriptor.Id == EVENT_ID && h->EventDescriptor.Level ==
		    TRACE_LEVEL_INFORMATION && DataValue(Record, &value))
			EventValueSeen[value]++;
		else
			BadData++;
	} else {
		OtherSeen++;	/* the file's header event */
	}
}

/* EVENT_TRACE_PROPERTIES with room for the session and file names after it. */
struct SessionProperties {
	EVENT_TRACE_PROPERTIES Properties;
	char LoggerName[64];
	char LogFileName[1024];
};

static void InitProperties(struct SessionProperties *sp, const char *LogFile)
{
	memset(sp, 0, sizeof(*sp));
	sp->Properties.Wnode.BufferSize = sizeof(*sp);
	sp->Properties.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	sp->Properties.Wnode.ClientContext = 1;	/* QueryPerformanceCounter time */
	sp->Properties.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
	sp->Properties.LoggerNameOffset = offsetof(struct SessionProperties, LoggerName);
	sp->Properties.LogFileNameOffset = offsetof(struct SessionProperties, LogFileName);
	strncpy(sp->LogFileName, LogFile, sizeof(sp->LogFileName) - 1);
}

static int Fail(const char *What, ULONG Error)
{
	printf("FAILED: %s: error %u\n", What, (unsigned int)Error);
	return 1;
}

int main(int argc, char **argv)
{
	const char *logFile = argc > 1 ? argv[1] : "windows_program.etl";
	struct SessionProperties sp;
	TRACE_GUID_REGISTRATION classReg;
	TRACEHANDLE session = 0, classicReg = 0, trace;
	EVENT_TRACE_LOGFILEA logfile;
	EVENT_DESCRIPTOR descriptor;
	EVENT_DATA_DESCRIPTOR data[2];
	REGHANDLE manifestReg = 0;
	static const char text[] = "hello from a Windows program";
	ULONG err, i;
	int ok = 1;

	if (strlen(logFile) >= sizeof(sp.LogFileName))
		return Fail("log file name too long", ERROR_INVALID_PARAMETER);

	/* ---- controller: a session writing the log file ---- */
	InitProperties(&sp, logFile);
	err = StartTraceA(&session, SESSION_NAME, &sp.Properties);
	if (err == ERROR_ALREADY_EXISTS) {
		/* Left over from an earlier run: stop it and start afresh. */
		InitProperties(&sp, logFile);
		ControlTraceA(0, SESSION_NAME, &sp.Properties, EVENT_TRACE_CONTROL_STOP);
		InitProperties(&sp, logFile);
		err = StartTraceA(&session, SESSION_NAME, &sp.Properties);
	}
	if (err != ERROR_SUCCESS)
		return Fail("StartTrace", err);
	printf("controller: started session %s writing %s\n", SESSION_NAME, logFile);

	/*
	 * Enable both providers before they register: each hears of it when
	 * it registers (the classic one's callback runs inside
	 * RegisterTraceGuids).
	 */
	err = EnableTrace(TRUE, 0x1, TRACE_LEVEL_INFORMATION, &ClassicProviderGuid, session);
	if (err != ERROR_SUCCESS) {
		ok = !Fail("EnableTrace", err);
		goto stop;
	}
	err = EnableTraceEx2(session, &ManifestProviderGuid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
			     TRACE_LEVEL_VERBOSE, 0, 0, 0, NULL);
	if (err != ERROR_SUCCESS) {
		ok = !Fail("EnableTraceEx2", err);
		goto stop;
	}
	printf("controller: enabled the classic and the manifest-based provider\n");

	/* ---- a classic provider: RegisterTraceGuids, TraceMessage ---- */
	classReg.Guid = &ClassicEventClassGuid;
	classReg.RegHandle = NULL;
	err = RegisterTraceGuids(ClassicControlCallback, NULL, &ClassicProviderGuid, 1,
				 &classReg, NULL, NULL, &classicReg);
	if (err != ERROR_SUCCESS) {
		ok = !Fail("RegisterTraceGuids", err);
		goto stop;
	}
	if (!ClassicEnabled) {
		ok = !Fail("RegisterTraceGuids: the provider was not enabled", ERROR_SUCCESS);
		goto unregister;
	}
	for (i = 0; i < EVENTS; i++) {
		err = TraceMessage(ClassicLogger, TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID |
				   TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_SYSTEMINFO,
				   &MessageGuid, MESSAGE_NUMBER,
				   &i, sizeof(i), text, sizeof(text), NULL);
		if (err != ERROR_SUCCESS) {
			ok = !Fail("TraceMessage", err);
			goto unregister;
		}
	}
	printf("provider: wrote %u messages with TraceMessage\n", (unsigned int)EVENTS);

	/* ---- a manifest-based provider: EventRegister, EventWrite ---- */
	err = EventRegister(&ManifestProviderGuid, NULL, NULL, &manifestReg);
	if (err != ERROR_SUCCESS) {
		ok = !Fail("EventRegister", err);
		goto unregister;
	}
	EventDescCreate(&descriptor, EVENT_ID, 0, 0, TRACE_LEVEL_INFORMATION, 0, 0, 0);
	if (!EventEnabled(manifestReg, &descriptor)) {
		ok = !Fail("EventEnabled: the provider was not enabled", ERROR_SUCCESS);
		goto unregister;
	}
	for (i = 0; i < EVENTS; i++) {
		EventDataDescCreate(&data[0], &i, sizeof(i));
		EventDataDescCreate(&data[1], text, sizeof(text));
		err = EventWrite(manifestReg, &descriptor, 2, data);
		if (err != ERROR_SUCCESS) {
			ok = !Fail("EventWrite", err);
			goto unregister;
		}
	}
	printf("provider: wrote %u events with EventWrite\n", (unsigned int)EVENTS);

unregister:
	if (manifestReg)
		EventUnregister(manifestReg);
	if (classicReg)
		UnregisterTraceGuids(classicReg);
stop:
	InitProperties(&sp, logFile);
	err = ControlTraceA(session, NULL, &sp.Properties, EVENT_TRACE_CONTROL_STOP);
	if (err != ERROR_SUCCESS)
		return Fail("ControlTraceA(STOP)", err);
	printf("controller: stopped the session: %u events lost, %u buffers written\n",
	       (unsigned int)sp.Properties.EventsLost,
	       (unsigned int)sp.Properties.BuffersWritten);
	if (!ok)
		return 1;

	/* ---- consumer: read the file back ---- */
	memset(&logfile, 0, sizeof(logfile));
	logfile.LogFileName = (LPSTR)logFile;
	logfile.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	logfile.EventRecordCallback = ConsumeEvent;
	trace = OpenTraceA(&logfile);
	if (trace == INVALID_PROCESSTRACE_HANDLE)
		return Fail("OpenTrace", GetLastError());
	err = ProcessTrace(&trace, 1, NULL, NULL);
	CloseTrace(trace);
	if (err != ERROR_SUCCESS)
		return Fail("ProcessTrace", err);
	printf("consumer: read %u messages, %u events and %u other records from %s\n",
	       MessagesSeen, EventsSeen, OtherSeen, logFile);

	for (i = 0; i < EVENTS; i++)
		if (MessageValueSeen[i] != 1 || EventValueSeen[i] != 1)
			ok = 0;
	if (!ok || BadData || MessagesSeen != EVENTS || EventsSeen != EVENTS) {
		printf("FAILED: expected %u messages and %u events, each once and intact"
		       " (%u with wrong data)\n", (unsigned int)EVENTS, (unsigned int)EVENTS,
		       BadData);
		return 1;
	}
	printf("windows_program: OK\n");
	return 0;
}
