// SPDX-License-Identifier: MIT
/*
 * A classic provider as Windows code writes one: RegisterTraceGuids with a
 * control callback, TraceEvent (and TraceEventInstance) once a controller
 * has enabled it, only <nttrace/evntrace.h> and Windows' names and types.
 *
 *   classic_sample [--events N] [--wait SECONDS]
 *
 * registers, then waits (at most SECONDS, default 30) for a controller
 * (`nttrace enable SESSION 3f0c9a4e-...`, or EnableTrace) to enable it,
 * writes N events (default 5) to the session that enabled it, and
 * unregisters. While disabled it writes nothing and makes no system call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nttrace/evntrace.h>

/* {3f0c9a4e-5d21-4b8a-a6e3-1c7d9b2f4e60}: the provider's control GUID. */
static const GUID control_guid = {
	0x3f0c9a4e, 0x5d21, 0x4b8a, { 0xa6, 0xe3, 0x1c, 0x7d, 0x9b, 0x2f, 0x4e, 0x60 }
};
/* {3f0c9a4e-5d21-4b8a-a6e3-1c7d9b2f4e61}: its one event class. */
static const GUID class_guid = {
	0x3f0c9a4e, 0x5d21, 0x4b8a, { 0xa6, 0xe3, 0x1c, 0x7d, 0x9b, 0x2f, 0x4e, 0x61 }
};

/* What the control callback learns; read by the main thread. */
static volatile TRACEHANDLE logger;
static volatile ULONG enable_flags;
static volatile UCHAR enable_level;
static volatile int enabled;

static ULONG WINAPI control_callback(WMIDPREQUESTCODE code, PVOID context,
				     ULONG *size, PVOID buffer)
{
	(void)context;
	(void)size;
	switch (code) {
	case WMI_ENABLE_EVENTS:
		logger = GetTraceLoggerHandle(buffer);
		enable_flags = GetTraceEnableFlags(logger);
		enable_level = GetTraceEnableLevel(logger);
		enabled = 1;
		printf("classic_sample: enabled by logger %u, flags 0x%x, level %u\n",
		       (unsigned int)(logger & 0xFFFF), enable_flags, enable_level);
		break;
	case WMI_DISABLE_EVENTS:
		enabled = 0;
		printf("classic_sample: disabled\n");
		break;
	default:
		return ERROR_INVALID_PARAMETER;
	}
	fflush(stdout);
	return ERROR_SUCCESS;
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Event type 10 of the class: its index and a string, as two MOF fields. */
static ULONG trace_one(ULONG index)
{
	struct {
		EVENT_TRACE_HEADER Header;
		MOF_FIELD Mof[2];
	} ev;
	static const char text[] = "classic event";

	memset(&ev, 0, sizeof(ev));
	ev.Header.Size = sizeof(ev);
	ev.Header.Flags = WNODE_FLAG_TRACED_GUID | WNODE_FLAG_USE_MOF_PTR;
	ev.Header.Guid = class_guid;
	ev.Header.Class.Type = 10;
	ev.Header.Class.Level = 4;
	ev.Header.Class.Version = 1;
	ev.Mof[0].DataPtr = (ULONG64)(uintptr_t)&index;
	ev.Mof[0].Length = sizeof(index);
	ev.Mof[1].DataPtr = (ULONG64)(uintptr_t)text;
	ev.Mof[1].Length = sizeof(text);
	return TraceEvent(logger, &ev.Header);
}

/* An instance event (type 11) with its own instance ID. */
static ULONG trace_instance(HANDLE reg, ULONG index)
{
	struct {
		EVENT_INSTANCE_HEADER Header;
		ULONG Index;
	} ev;
	EVENT_INSTANCE_INFO inst;
	ULONG err = CreateTraceInstanceId(reg, &inst);

	if (err != ERROR_SUCCESS)
		return err;
	memset(&ev, 0, sizeof(ev));
	ev.Header.Size = sizeof(ev);
	ev.Header.Flags = WNODE_FLAG_TRACED_GUID;
	ev.Header.Class.Type = 11;
	ev.Header.Class.Level = 4;
	ev.Index = index;
	return TraceEventInstance(logger, &ev.Header, &inst, NULL);
}

int main(int argc, char **argv)
{
	TRACE_GUID_REGISTRATION reg = { &class_guid, NULL };
	unsigned int events = 5, wait_s = 30, i, written = 0, waited;
	TRACEHANDLE handle;
	ULONG err;

	for (i = 1; i + 1 < (unsigned int)argc; i += 2) {
		if (!strcmp(argv[i], "--events"))
			events = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--wait"))
			wait_s = strtoul(argv[i + 1], NULL, 0);
	}
	err = RegisterTraceGuidsA(control_callback, NULL, &control_guid, 1, &reg,
				  NULL, NULL, &handle);
	if (err != ERROR_SUCCESS) {
		fprintf(stderr, "classic_sample: RegisterTraceGuids: error %u\n", err);
		return 1;
	}
	printf("classic_sample: registered, waiting to be enabled\n");
	fflush(stdout);
	for (waited = 0; !enabled && waited < wait_s * 10; waited++)
		pause_ms(100);
	for (i = 0; enabled && i < events; i++) {
		err = trace_one(i);
		if (err == ERROR_SUCCESS)
			err = trace_instance(reg.RegHandle, i);
		if (err != ERROR_SUCCESS)
			fprintf(stderr, "classic_sample: event %u: error %u\n", i, err);
		else
			written++;
		pause_ms(50);
	}
	printf("classic_sample: %u events and %u instance events written\n", written, written);
	UnregisterTraceGuids(handle);
	return enabled || written ? 0 : 1;
}
