// SPDX-License-Identifier: MIT
/*
 * A manifest-based provider as Windows code writes one: EventRegister with
 * an enable callback, EventWrite of a few events of different levels and
 * keywords once a controller has enabled it, only <nttrace/evntprov.h>
 * and Windows' names and types.
 *
 *   event_sample [--events N] [--wait SECONDS] [--until-disabled]
 *
 * registers, then waits (at most SECONDS, default 30) for a controller
 * (`nttrace enable SESSION 8a1d5c3e-...`, or EnableTraceEx2) to enable it,
 * writes N rounds (default 5) of its three events, and unregisters; with
 * --until-disabled, only once it is disabled again (at most SECONDS more).
 * Each session gets the events its level and keywords take. While
 * disabled, EventWrite returns at once, with no system call. Asked for its
 * state (EnableTraceEx2's CAPTURE_STATE, WPR's CaptureStateOnSave), it
 * writes it from the callback, as Windows providers do: one string event
 * at the level asked, with no keyword (so that every session enabling the
 * provider at that level takes it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>

/* {8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70}: the provider's GUID. */
static const GUID provider_guid = {
	0x8a1d5c3e, 0x7b42, 0x4e19, { 0x9c, 0x0d, 0x2f, 0x6a, 0x8e, 0x4b, 0x1d, 0x70 }
};

/* Id, Version, Channel, Level, Opcode, Task, Keyword. */
static const EVENT_DESCRIPTOR ev_start = { 1, 0, 0, TRACE_LEVEL_INFORMATION, 1, 1, 0x1 };
static const EVENT_DESCRIPTOR ev_work = { 2, 0, 0, TRACE_LEVEL_VERBOSE, 0, 2, 0x2 };
static const EVENT_DESCRIPTOR ev_error = { 3, 0, 0, TRACE_LEVEL_ERROR, 0, 3, 0x1 | 0x4 };

static volatile int enabled;
static REGHANDLE reg;

static void NTAPI enable_callback(LPCGUID source, ULONG is_enabled, UCHAR level,
				  ULONGLONG any, ULONGLONG all,
				  PEVENT_FILTER_DESCRIPTOR filter, PVOID context)
{
	(void)source;
	(void)filter;
	(void)context;
	if (is_enabled == EVENT_CONTROL_CODE_CAPTURE_STATE) {
		printf("event_sample: capture state, level %u, any 0x%llx\n", level,
		       (unsigned long long)any);
		EventWriteString(reg, level, 0, u"event_sample's state");
	} else {
		enabled = is_enabled == EVENT_CONTROL_CODE_ENABLE_PROVIDER;
		printf("event_sample: %s, level %u, any 0x%llx, all 0x%llx\n",
		       enabled ? "enabled" : "disabled", level, (unsigned long long)any,
		       (unsigned long long)all);
	}
	fflush(stdout);
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	unsigned int events = 5, wait_s = 30, i, waited, written = 0, until_disabled = 0;
	static const char text[] = "event sample";
	EVENT_DATA_DESCRIPTOR data[2];
	GUID activity;
	ULONG err;

	for (i = 1; i < (unsigned int)argc; i++) {
		if (!strcmp(argv[i], "--until-disabled"))
			until_disabled = 1;
		else if (!strcmp(argv[i], "--events") && i + 1 < (unsigned int)argc)
			events = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--wait") && i + 1 < (unsigned int)argc)
			wait_s = strtoul(argv[++i], NULL, 0);
	}
	err = EventRegister(&provider_guid, enable_callback, NULL, &reg);
	if (err != ERROR_SUCCESS) {
		fprintf(stderr, "event_sample: EventRegister: error %u\n", err);
		return 1;
	}
	for (waited = 0; !enabled && waited < wait_s * 10; waited++)
		pause_ms(100);
	if (!enabled)
		printf("event_sample: not enabled after %u s\n", wait_s);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_SET_ID, &activity);
	for (i = 0; i < events && enabled; i++) {
		EventDataDescCreate(&data[0], &i, sizeof(i));
		EventDataDescCreate(&data[1], text, sizeof(text));
		if (EventEnabled(reg, &ev_start) &&
		    EventWrite(reg, &ev_start, 2, data) == ERROR_SUCCESS)
			written++;
		if (EventWrite(reg, &ev_work, 1, data) == ERROR_SUCCESS &&
		    EventEnabled(reg, &ev_work))
			written++;
		if (EventWriteString(reg, TRACE_LEVEL_ERROR, ev_error.Keyword,
				     u"an error string") == ERROR_SUCCESS &&
		    EventEnabled(reg, &ev_error))
			written++;
		pause_ms(10);
	}
	printf("event_sample: %u events written\n", written);
	fflush(stdout);
	for (waited = 0; until_disabled && enabled && waited < wait_s * 10; waited++)
		pause_ms(100);
	EventUnregister(reg);
	return 0;
}
