// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the file consumer (userlib/consumer/opentrace.c:
 * OpenTraceA/W, ProcessTrace, CloseTrace) over the ETL reader.
 *
 * Input: the bytes of an ETL file, as they would be on disk, written to a
 * memfd that OpenTrace opens by its /proc/self/fd path. Each input is read
 * the ways a consumer can read a file:
 *
 *  1. EventRecordCallback (PROCESS_TRACE_MODE_EVENT_RECORD) and a
 *     BufferCallback that goes on, then ProcessTrace again on the same
 *     handle (the file read a second time), which must deliver the same
 *     events;
 *  2. the older EventCallback (EVENT_TRACE), through OpenTraceW;
 *  3. PROCESS_TRACE_MODE_RAW_TIMESTAMP, with a BufferCallback that stops
 *     after one to four buffers (ERROR_CANCELLED);
 *  4. two handles of the file in one ProcessTrace (one of each callback
 *     style), with StartTime and EndTime around the middle third of the
 *     events pass 1 saw, and the second handle closed from a callback
 *     (ERROR_CTX_CLOSE_PENDING; ProcessTrace of it meanwhile: ERROR_BUSY);
 *  5. a file that changes under an open handle: after OpenTrace it is the
 *     input shifted by 8 bytes, and before a second ProcessTrace (which
 *     opens it again) it is the part of the input after the marker
 *     "NTFZ-2ND" (a second file, of another buffer size say), or the
 *     first half of the input when there is none.
 *
 * Every field of every EVENT_RECORD is read, its UserData and each
 * ExtendedData item's bytes too (EVENT_TRACE: its MofData), so that
 * AddressSanitizer sees a pointer out of its buffer; what the API
 * promises is checked (abort() when not): the documented return values
 * and last errors, UserContext, the EXTENDED_INFO flag and the Linkage
 * of the items, StartTime/EndTime, the same events on a second read.
 *
 * Build and run: scripts/fuzz-lib (FUZZ_TARGETS=opentrace_fuzz for this
 * one only); seeds in tests/fuzz/corpus/opentrace_fuzz/
 * (tests/fuzz/mkcorpus.c), crashes kept in
 * tests/fuzz/regressions/opentrace_fuzz/ and replayed before every run.
 */
#include <string.h>

#include <nttrace/etl.h>
#include <nttrace/evntcons.h>
#include <nttrace/evntrace.h>
#include <nttrace/tdh.h>
#include "fuzz_file.h"

#define SECOND_FILE	"NTFZ-2ND"
#define CONTEXT		((PVOID)(uintptr_t)0x5eed)

static struct fuzz_file file, changing;
static volatile uint8_t sink;

/* What the callbacks of the current ProcessTrace do and saw. */
static struct {
	unsigned int events, buffers;
	unsigned int stop_at_buffer;	/* BufferCallback FALSE at this one; 0: never */
	unsigned int close_after;	/* CloseTrace(close_handle) after this event */
	TRACEHANDLE close_handle;
	int filtered;			/* StartTime/EndTime: check the times */
	uint64_t start, end;
	unsigned int headers;		/* header events before the file's own */
	uint64_t first, last;		/* the FILETIMEs seen */
} run;

static void touch(const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		sink ^= b[i];
}

static void touch_wstr(const WCHAR *w)
{
	if (w)
		while (*w)
			sink ^= (uint8_t)*w++;
}

/* After the header events, delivered events are within StartTime..EndTime. */
static void check_time(uint64_t t)
{
	run.events++;
	if (run.events <= run.headers || !t)
		return;
	if (!run.first || t < run.first)
		run.first = t;
	if (t > run.last)
		run.last = t;
	if (run.filtered && (t < run.start || t > run.end))
		abort();
}

static void maybe_close(void)
{
	ULONG err;

	if (!run.close_after || run.events != run.close_after)
		return;
	if (ProcessTrace(&run.close_handle, 1, NULL, NULL) != ERROR_BUSY)
		abort();
	err = CloseTrace(run.close_handle);
	if (err != ERROR_CTX_CLOSE_PENDING || GetLastError() != err)
		abort();
}

/*
 * What `nttrace dump` does with an event it delivers: TDH describes it
 * (a TraceLogging schema item from the file, or a kernel MOF class) and
 * formats its fields in turn, each from where the last one ended.
 */
static void decode(PEVENT_RECORD er)
{
	ULONG size = 0, i, psz = er->EventHeader.Flags & EVENT_HEADER_FLAG_32_BIT_HEADER ? 4 : 8;
	TRACE_EVENT_INFO *t;
	uint32_t at = 0;

	if (TdhGetEventInformation(er, 0, NULL, NULL, &size) != ERROR_INSUFFICIENT_BUFFER)
		return;
	t = malloc(size);
	if (!t || TdhGetEventInformation(er, 0, NULL, t, &size) != ERROR_SUCCESS)
		abort();
	for (i = 0; i < t->TopLevelPropertyCount; i++) {
		const EVENT_PROPERTY_INFO *p = &t->EventPropertyInfoArray[i];
		WCHAR buf[256];
		ULONG bs = sizeof(buf);
		USHORT used = 0;

		if (p->Flags & PropertyStruct)
			break;
		if (TdhFormatProperty(t, NULL, psz, p->nonStructType.InType,
				      p->nonStructType.OutType, p->length,
				      (USHORT)(er->UserDataLength - at),
				      (PBYTE)er->UserData + at, &bs, buf, &used))
			break;
		if (used > er->UserDataLength - at)
			abort();
		at += used;
	}
	free(t);
}

static void WINAPI on_record(PEVENT_RECORD er)
{
	USHORT i;

	touch(er, sizeof(*er));
	if (er->UserContext != CONTEXT)
		abort();
	if (er->UserDataLength)
		touch(er->UserData, er->UserDataLength);
	if (!!er->ExtendedDataCount !=
	    !!(er->EventHeader.Flags & EVENT_HEADER_FLAG_EXTENDED_INFO))
		abort();
	for (i = 0; i < er->ExtendedDataCount; i++) {
		const EVENT_HEADER_EXTENDED_DATA_ITEM *it = &er->ExtendedData[i];

		touch(it, sizeof(*it));
		if (it->Linkage != (i + 1 < er->ExtendedDataCount))
			abort();
		if (it->DataSize)
			touch((const void *)(uintptr_t)it->DataPtr, it->DataSize);
	}
	check_time(er->EventHeader.TimeStamp.QuadPart);
	decode(er);
	maybe_close();
}

static void WINAPI on_trace(PEVENT_TRACE et)
{
	touch(et, sizeof(*et));
	if (et->MofLength)
		touch(et->MofData, et->MofLength);
	check_time(et->Header.TimeStamp.QuadPart);
	maybe_close();
}

static ULONG WINAPI on_buffer_a(PEVENT_TRACE_LOGFILEA lf)
{
	run.buffers++;
	touch(&lf->CurrentEvent, sizeof(lf->CurrentEvent));
	touch_wstr(lf->LogfileHeader.LoggerName);
	if (!lf->BuffersRead)
		abort();
	return !(run.stop_at_buffer && run.buffers == run.stop_at_buffer);
}

static ULONG WINAPI on_buffer_w(PEVENT_TRACE_LOGFILEW lf)
{
	run.buffers++;
	touch(&lf->CurrentEvent, sizeof(lf->CurrentEvent));
	touch_wstr(lf->LogfileHeader.LogFileName);
	return TRUE;
}

static void logfile_a(EVENT_TRACE_LOGFILEA *lf, const char *path, ULONG mode)
{
	memset(lf, 0, sizeof(*lf));
	lf->LogFileName = (LPSTR)path;
	lf->ProcessTraceMode = mode;
	if (mode & PROCESS_TRACE_MODE_EVENT_RECORD)
		lf->EventRecordCallback = on_record;
	else
		lf->EventCallback = on_trace;
	lf->BufferCallback = on_buffer_a;
	lf->Context = CONTEXT;
}

static void reset(void)
{
	memset(&run, 0, sizeof(run));
}

/* OpenTrace's failure on a file that is there: it is not one to read. */
static TRACEHANDLE open_a(EVENT_TRACE_LOGFILEA *lf)
{
	TRACEHANDLE h = OpenTraceA(lf);

	if (h == INVALID_PROCESSTRACE_HANDLE) {
		if (GetLastError() != ERROR_FILE_CORRUPT &&
		    GetLastError() != ERROR_NOT_ENOUGH_MEMORY)
			abort();
		return h;
	}
	if (!h || GetLastError() != ERROR_SUCCESS)
		abort();
	touch(&lf->LogfileHeader, sizeof(lf->LogfileHeader));
	touch_wstr(lf->LogfileHeader.LoggerName);
	touch_wstr(lf->LogfileHeader.LogFileName);
	touch(&lf->CurrentEvent, sizeof(lf->CurrentEvent));
	return h;
}

static void close_ok(TRACEHANDLE h)
{
	if (CloseTrace(h) != ERROR_SUCCESS || CloseTrace(h) != ERROR_INVALID_HANDLE)
		abort();
}

static ULONG process(TRACEHANDLE *hs, ULONG n, LPFILETIME start, LPFILETIME end)
{
	ULONG err = ProcessTrace(hs, n, start, end);

	if (GetLastError() != err)
		abort();
	return err;
}

/* 1: EVENT_RECORD twice on one handle; 0 when the file does not open. */
static int pass_event_record(uint64_t *first, uint64_t *last)
{
	EVENT_TRACE_LOGFILEA lf;
	unsigned int events;
	TRACEHANDLE h;

	logfile_a(&lf, file.path, PROCESS_TRACE_MODE_EVENT_RECORD);
	h = open_a(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE)
		return 0;
	reset();
	run.headers = 1;
	if (process(&h, 1, NULL, NULL) != ERROR_SUCCESS || !run.events)
		abort();
	events = run.events;
	*first = run.first;
	*last = run.last;
	reset();
	run.headers = 1;
	if (process(&h, 1, NULL, NULL) != ERROR_SUCCESS || run.events != events)
		abort();
	close_ok(h);
	return 1;
}

/* 2: EventCallback, through OpenTraceW. */
static void pass_event_trace(void)
{
	EVENT_TRACE_LOGFILEW lf;
	WCHAR path[sizeof(file.path)];
	TRACEHANDLE h;
	size_t i;

	for (i = 0; i < sizeof(file.path); i++)
		path[i] = (unsigned char)file.path[i];
	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = path;
	lf.EventCallback = on_trace;
	lf.BufferCallback = on_buffer_w;
	lf.Context = CONTEXT;
	h = OpenTraceW(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE)
		abort();	/* pass 1 opened it */
	reset();
	run.headers = 1;
	if (process(&h, 1, NULL, NULL) != ERROR_SUCCESS)
		abort();
	close_ok(h);
}

/* 3: raw time stamps; BufferCallback stops after @stop buffers. */
static void pass_raw_stop(unsigned int stop)
{
	EVENT_TRACE_LOGFILEA lf;
	TRACEHANDLE h;
	ULONG err;

	logfile_a(&lf, file.path, PROCESS_TRACE_MODE_EVENT_RECORD |
		  PROCESS_TRACE_MODE_RAW_TIMESTAMP);
	h = open_a(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE)
		abort();
	reset();
	run.headers = 1;
	run.stop_at_buffer = stop;
	err = process(&h, 1, NULL, NULL);
	if (err != ERROR_SUCCESS && err != ERROR_CANCELLED)
		abort();
	if (err == ERROR_CANCELLED && run.buffers != stop)
		abort();
	close_ok(h);
}

static void filetime(FILETIME *f, uint64_t t)
{
	f->dwLowDateTime = (DWORD)t;
	f->dwHighDateTime = (DWORD)(t >> 32);
}

/*
 * 4: two handles in one ProcessTrace, StartTime/EndTime from pass 1's
 * times, the second handle closed after @close_after events.
 */
static void pass_two(uint64_t first, uint64_t last, unsigned int close_after)
{
	EVENT_TRACE_LOGFILEA a, b;
	TRACEHANDLE hs[2];
	FILETIME s, e;
	ULONG err;

	logfile_a(&a, file.path, PROCESS_TRACE_MODE_EVENT_RECORD);
	logfile_a(&b, file.path, 0);
	a.BufferCallback = NULL;
	b.BufferCallback = NULL;
	hs[0] = open_a(&a);
	hs[1] = open_a(&b);
	if (hs[0] == INVALID_PROCESSTRACE_HANDLE || hs[1] == INVALID_PROCESSTRACE_HANDLE ||
	    hs[0] == hs[1])
		abort();
	reset();
	run.headers = 2;
	run.filtered = first && last > first;
	run.start = first + (last - first) / 3;
	run.end = last - (last - first) / 3;
	filetime(&s, run.start);
	filetime(&e, run.end);
	run.close_after = close_after;
	run.close_handle = hs[1];
	err = process(hs, 2, run.filtered ? &s : NULL, run.filtered ? &e : NULL);
	if (err != ERROR_SUCCESS)
		abort();
	close_ok(hs[0]);
	if (run.events >= close_after) {
		if (CloseTrace(hs[1]) != ERROR_INVALID_HANDLE)
			abort();
	} else {
		close_ok(hs[1]);
	}
}

/* Rewrite the memfd of @f with @size bytes at @data. */
static void rewrite(struct fuzz_file *f, const uint8_t *data, size_t size)
{
	fuzz_file_set(f, "opentrace_fuzz2", data, size);
}

/* 5: the file changes after OpenTrace and between two ProcessTraces. */
static void pass_changing(const uint8_t *data, size_t size)
{
	const uint8_t *second = memmem(data, size, SECOND_FILE, strlen(SECOND_FILE));
	EVENT_TRACE_LOGFILEA lf;
	TRACEHANDLE h;
	ULONG err;

	rewrite(&changing, data, size);
	logfile_a(&lf, changing.path, PROCESS_TRACE_MODE_EVENT_RECORD);
	h = open_a(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE)
		abort();
	if (size > 8)
		rewrite(&changing, data + 8, size - 8);
	reset();
	run.headers = 1;
	if (process(&h, 1, NULL, NULL) != ERROR_SUCCESS)
		abort();
	if (second) {
		second += strlen(SECOND_FILE);
		rewrite(&changing, second, data + size - second);
	} else {
		rewrite(&changing, data, size / 2);
	}
	reset();
	run.headers = 1;
	err = process(&h, 1, NULL, NULL);
	if (err != ERROR_SUCCESS && err != ERROR_FILE_CORRUPT)
		abort();
	close_ok(h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t first = 0, last = 0;
	uint8_t knob = size ? data[size - 1] : 0;

	fuzz_file_set(&file, "opentrace_fuzz", data, size);
	if (!pass_event_record(&first, &last))
		return 0;
	pass_event_trace();
	pass_raw_stop(1 + knob % 4);
	pass_two(first, last, 1 + (knob >> 2) % 8);
	pass_changing(data, size);
	return 0;
}
