// SPDX-License-Identifier: GPL-2.0
/*
 * The file consumer: OpenTraceA/W, ProcessTrace, CloseTrace
 * (consumer/opentrace.c) over ETL files this test writes with the library
 * itself, through the in-process user-mode logger (no module needed):
 * message records (TraceMessage), classic full-header and instance records
 * (TraceEvent, TraceEventInstance) and EVENT_HEADER records (EventWrite,
 * EventWriteTransfer), read back and compared field by field with what was
 * written, in both callback styles; the header event and LogfileHeader;
 * BufferCallback (and its FALSE); PROCESS_TRACE_MODE_RAW_TIMESTAMP; two
 * files written at once by two processes merged in time order;
 * StartTime/EndTime; CloseTrace from a callback; every documented error,
 * bad handles and damaged files without a crash; and, when the other
 * bitness's build of this test can run, a file of the other pointer size.
 *
 * `opentrace_test --write PATH` only writes the file of every record type
 * (what the other bitness reads).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include <nttrace/evntcons.h>
#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include "../../userlib/internal.h"
#include "expect.h"
#include "files.h"
#include "props.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define MAXREC 4096

static const GUID msg_guid = { 0x0e7c0001, 0x1111, 0x2222, { 1, 2, 3, 4, 5, 6, 7, 8 } };
static const GUID class_guid = { 0x0e7c0002, 0x3333, 0x4444, { 8, 7, 6, 5, 4, 3, 2, 1 } };
static const GUID parent_guid = { 0x0e7c0003, 0x5555, 0x6666, { 9, 9, 9, 9, 9, 9, 9, 9 } };
static const GUID prov_guid = { 0x0e7c0004, 0x7777, 0x8888, { 0xa, 0xb, 0xc, 0xd, 1, 2, 3, 4 } };
static const uint32_t comp_id = 0xC0FFEE01;
static const EVENT_DESCRIPTOR desc = { 42, 3, 16, 4, 11, 300, 0x5 };

static const uint8_t msg_args[] = { 'h', 'i', 0, 0x78, 0x56, 0x34, 0x12 };
static const uint8_t classic_data[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
static const uint8_t inst_data[] = { 0xAA, 0xBB, 0xCC };
static const uint8_t ew1[] = { 0x10, 0x20, 0x30 }, ew2[] = { 0x40, 0x50 };

/* ---- writing ---- */

static HANDLE reg_class, reg_parent;
static uint32_t w_tid, w_pid;
static GUID act_id, rel_id;

static ULONG stop(TRACEHANDLE h)
{
	struct props pr;

	props_init(&pr, NULL, 0);
	return StopTraceA(h, NULL, &pr.p);
}

struct cls {
	EVENT_TRACE_HEADER h;
	uint8_t data[sizeof(classic_data)];
};
struct ins {
	EVENT_INSTANCE_HEADER h;
	uint8_t data[sizeof(inst_data)];
};

/* The file of every record type, in this order; 0 or the failing step. */
static int write_all(const char *path)
{
	EVENT_INSTANCE_INFO inst, par;
	EVENT_DATA_DESCRIPTOR dd[2];
	TRACEHANDLE h = 0;
	REGHANDLE rh = 0;
	struct props pr;
	struct cls ce;
	struct ins ie;

	w_tid = syscall(SYS_gettid);
	w_pid = getpid();
	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	pr.p.BufferSize = 8;
	if (StartTraceA(&h, "ot-um", &pr.p))
		return 1;
	/* 1: a message with every item */
	if (TraceMessage(h, TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID | TRACE_MESSAGE_TIMESTAMP |
			 TRACE_MESSAGE_SYSTEMINFO, &msg_guid, 17, msg_args, (size_t)3,
			 msg_args + 3, (size_t)4, NULL))
		return 2;
	/* 2: a message with a component ID and no items else */
	if (TraceMessage(h, TRACE_MESSAGE_COMPONENTID, (LPCGUID)&comp_id, 18, msg_args,
			 (size_t)1, NULL))
		return 3;
	/* 3: a classic full-header event */
	memset(&ce, 0, sizeof(ce));
	ce.h.Size = offsetof(struct cls, data) + sizeof(classic_data);
	ce.h.Flags = WNODE_FLAG_TRACED_GUID;
	ce.h.Guid = class_guid;
	ce.h.Class.Type = EVENT_TRACE_TYPE_START;
	ce.h.Class.Level = 4;
	ce.h.Class.Version = 0x1234;
	memcpy(ce.data, classic_data, sizeof(classic_data));
	if (TraceEvent(h, &ce.h))
		return 4;
	/* 4: an instance event with its parent */
	/* The classes, as RegisterTraceGuids registers them (no module needed). */
	if (nttrace_class_add(&class_guid, &reg_class) ||
	    nttrace_class_add(&parent_guid, &reg_parent))
		return 5;
	if (CreateTraceInstanceId(reg_class, &inst) || CreateTraceInstanceId(reg_parent, &par) ||
	    CreateTraceInstanceId(reg_parent, &par))
		return 5;
	memset(&ie, 0, sizeof(ie));
	ie.h.Size = offsetof(struct ins, data) + sizeof(inst_data);
	ie.h.Flags = WNODE_FLAG_TRACED_GUID;
	ie.h.Class.Type = EVENT_TRACE_TYPE_END;
	ie.h.Class.Level = 2;
	ie.h.Class.Version = 7;
	memcpy(ie.data, inst_data, sizeof(inst_data));
	if (TraceEventInstance(h, &ie.h, &inst, &par))
		return 6;
	/* 5, 6: EventWrite, EventWriteTransfer (a related activity item) */
	if (EventRegister(&prov_guid, NULL, NULL, &rh) ||
	    EnableTraceEx2(h, &prov_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0xFF, 0, 0,
			   NULL))
		return 7;
	EventDataDescCreate(&dd[0], ew1, sizeof(ew1));
	EventDataDescCreate(&dd[1], ew2, sizeof(ew2));
	if (EventWrite(rh, &desc, 2, dd))
		return 8;
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &act_id);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &rel_id);
	if (EventWriteTransfer(rh, &desc, &act_id, &rel_id, 1, dd))
		return 9;
	if (stop(h))
		return 10;
	EventUnregister(rh);
	return 0;
}

/* ---- what the callbacks got ---- */

struct rec {
	EVENT_RECORD er;
	EVENT_TRACE et;
	uint8_t data[1024];
	EVENT_HEADER_EXTENDED_DATA_ITEM ext[4];
	uint8_t ext_data[4][32];
	ULONG handle_mark;
};
static struct rec *recs;
static unsigned int nrec;
static int stop_after = -1;	/* CloseTrace after this many events */
static TRACEHANDLE close_handle;
static ULONG close_result, busy_result;
static unsigned int buffer_calls, buffer_false_at;
static ULONG last_buffers_read;

static void WINAPI on_record(PEVENT_RECORD er)
{
	struct rec *r;
	USHORT i;

	if (nrec >= MAXREC)
		return;
	r = &recs[nrec++];
	memset(r, 0, sizeof(*r));
	r->er = *er;
	memcpy(r->data, er->UserData, er->UserDataLength < 1024 ? er->UserDataLength : 1024);
	for (i = 0; i < er->ExtendedDataCount && i < 4; i++) {
		r->ext[i] = er->ExtendedData[i];
		memcpy(r->ext_data[i], (void *)(uintptr_t)er->ExtendedData[i].DataPtr,
		       er->ExtendedData[i].DataSize < 32 ? er->ExtendedData[i].DataSize : 32);
	}
	if (stop_after >= 0 && nrec == (unsigned int)stop_after) {
		busy_result = ProcessTrace(&close_handle, 1, NULL, NULL);
		close_result = CloseTrace(close_handle);
	}
}

static void WINAPI on_trace(PEVENT_TRACE et)
{
	struct rec *r;

	if (nrec >= MAXREC)
		return;
	r = &recs[nrec++];
	memset(r, 0, sizeof(*r));
	r->et = *et;
	memcpy(r->data, et->MofData, et->MofLength < 1024 ? et->MofLength : 1024);
}

static ULONG WINAPI on_buffer(PEVENT_TRACE_LOGFILEA lf)
{
	buffer_calls++;
	last_buffers_read = lf->BuffersRead;
	return !(buffer_false_at && buffer_calls == buffer_false_at);
}

static void reset(void)
{
	nrec = 0;
	stop_after = -1;
	buffer_calls = 0;
	buffer_false_at = 0;
}

static void logfile_init(EVENT_TRACE_LOGFILEA *lf, const char *path, ULONG mode)
{
	memset(lf, 0, sizeof(*lf));
	lf->LogFileName = (LPSTR)path;
	lf->ProcessTraceMode = mode;
	if (mode & PROCESS_TRACE_MODE_EVENT_RECORD)
		lf->EventRecordCallback = on_record;
	else
		lf->EventCallback = on_trace;
	lf->Context = (PVOID)0x5eed;
}

static int guid_eq(const GUID *a, const GUID *b)
{
	return !memcmp(a, b, sizeof(*a));
}

static uint64_t now_filetime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return NTTRACE_FILETIME_UNIX_EPOCH + (uint64_t)ts.tv_sec * 10000000 + ts.tv_nsec / 100;
}

/* Read @path whole into recs; the ProcessTrace result. */
static ULONG read_file(const char *path, ULONG mode, EVENT_TRACE_LOGFILEA *lf,
		       TRACEHANDLE *hp)
{
	TRACEHANDLE h;
	ULONG err;

	reset();
	logfile_init(lf, path, mode);
	h = OpenTraceA(lf);
	if (hp)
		*hp = h;
	if (h == INVALID_PROCESSTRACE_HANDLE)
		return GetLastError() | 0x80000000;
	err = ProcessTrace(&h, 1, NULL, NULL);
	if (!hp)
		CloseTrace(h);
	return err;
}

/* ---- checks of the file of every record type ---- */

/*
 * The records of write_all() in @recs (EVENT_RECORD style), from a writer
 * of @psz-byte pointers; @same: written by this process (IDs known).
 */
static void check_records(const char *where, uint32_t psz, int same, uint64_t t0, uint64_t t1)
{
	USHORT bits = psz == 4 ? EVENT_HEADER_FLAG_32_BIT_HEADER : EVENT_HEADER_FLAG_64_BIT_HEADER;
	const EVENT_HEADER *eh;
	const struct rec *r;
	unsigned int i;

	if (!tap_eq(nrec, 7, "%d-bit: %s: the header event and 6 events", BITS, where))
		return;
	/* The header event. */
	r = &recs[0];
	eh = &r->er.EventHeader;
	tap_ok(guid_eq(&eh->ProviderId, &EventTraceGuid), "%d-bit: %s: header event first, "
	       "EventTraceGuid", BITS, where);
	tap_eq(eh->Flags & ~EVENT_HEADER_FLAG_PROCESSOR_INDEX,
	       EVENT_HEADER_FLAG_CLASSIC_HEADER | bits, "%d-bit: %s: ... classic, %u-bit", BITS,
	       where, psz * 8);
	tap_eq(eh->EventDescriptor.Opcode, EVENT_TRACE_TYPE_INFO, "%d-bit: %s: ... type INFO",
	       BITS, where);
	tap_ok(r->er.UserDataLength >= NTTRACE_ETL_LF_SIZE(psz) &&
	       get_le(r->data + NTTRACE_ETL_LF_POINTER_SIZE, 4) == psz &&
	       get_le(r->data + NTTRACE_ETL_LF_BUFFER_SIZE, 4) == 8192,
	       "%d-bit: %s: ... data: the file's TRACE_LOGFILE_HEADER (PointerSize %u)", BITS,
	       where, psz);
	tap_ok(r->er.UserContext == (PVOID)0x5eed, "%d-bit: %s: ... UserContext", BITS, where);

	/* 1: the message with every item */
	r = &recs[1];
	eh = &r->er.EventHeader;
	tap_ok(guid_eq(&eh->ProviderId, &msg_guid), "%d-bit: %s: message: ProviderId is the "
	       "message GUID", BITS, where);
	tap_eq(eh->Flags, EVENT_HEADER_FLAG_TRACE_MESSAGE | EVENT_HEADER_FLAG_NO_CPUTIME |
	       EVENT_HEADER_FLAG_PROCESSOR_INDEX | bits, "%d-bit: %s: ... flags", BITS, where);
	tap_eq(eh->EventDescriptor.Id, 17, "%d-bit: %s: ... Id = MessageNumber", BITS, where);
	if (same)
		tap_ok(eh->ThreadId == w_tid && eh->ProcessId == w_pid,
		       "%d-bit: %s: ... thread and process IDs", BITS, where);
	tap_ok(r->er.UserDataLength == sizeof(msg_args) &&
	       !memcmp(r->data, msg_args, sizeof(msg_args)),
	       "%d-bit: %s: ... UserData the arguments", BITS, where);
	tap_ok(!r->er.ExtendedDataCount && !r->er.ExtendedData,
	       "%d-bit: %s: ... no extended data", BITS, where);
	tap_ok(r->er.BufferContext.ProcessorIndex < 4096 &&
	       r->er.BufferContext.ProcessorNumber == (r->er.BufferContext.ProcessorIndex & 0xFF),
	       "%d-bit: %s: ... BufferContext processor", BITS, where);
	if (t1)
		tap_ok(eh->TimeStamp.QuadPart >= (LONGLONG)t0 &&
		       eh->TimeStamp.QuadPart <= (LONGLONG)t1,
		       "%d-bit: %s: ... TimeStamp a FILETIME within the writing", BITS, where);

	/* 2: component ID */
	r = &recs[2];
	eh = &r->er.EventHeader;
	tap_ok(eh->ProviderId.Data1 == comp_id && !eh->ProviderId.Data2 &&
	       eh->EventDescriptor.Id == 18 && r->er.UserDataLength == 1 && r->data[0] == 'h' &&
	       !eh->ThreadId, "%d-bit: %s: message with a component ID: Data1, Id, data, "
	       "no IDs", BITS, where);

	/* 3: classic */
	r = &recs[3];
	eh = &r->er.EventHeader;
	tap_ok(guid_eq(&eh->ProviderId, &class_guid), "%d-bit: %s: classic: ProviderId", BITS,
	       where);
	tap_eq(eh->Flags, EVENT_HEADER_FLAG_CLASSIC_HEADER | EVENT_HEADER_FLAG_PROCESSOR_INDEX |
	       bits, "%d-bit: %s: ... flags", BITS, where);
	tap_ok(eh->EventDescriptor.Opcode == EVENT_TRACE_TYPE_START &&
	       eh->EventDescriptor.Level == 4 && eh->EventDescriptor.Version == 0x34 &&
	       !eh->EventDescriptor.Id, "%d-bit: %s: ... Opcode, Level, Version (low 8 bits)",
	       BITS, where);
	if (same)
		tap_ok(eh->ThreadId == w_tid && eh->ProcessId == w_pid,
		       "%d-bit: %s: ... thread and process IDs", BITS, where);
	tap_ok(r->er.UserDataLength == sizeof(classic_data) &&
	       !memcmp(r->data, classic_data, sizeof(classic_data)) && !r->er.ExtendedDataCount,
	       "%d-bit: %s: ... data, no extended data", BITS, where);
	tap_ok(eh->TimeStamp.QuadPart >= recs[1].er.EventHeader.TimeStamp.QuadPart,
	       "%d-bit: %s: ... in time order", BITS, where);

	/* 4: instance */
	r = &recs[4];
	eh = &r->er.EventHeader;
	tap_ok(guid_eq(&eh->ProviderId, &class_guid) &&
	       eh->EventDescriptor.Opcode == EVENT_TRACE_TYPE_END &&
	       eh->EventDescriptor.Level == 2 && eh->EventDescriptor.Version == 7 &&
	       (eh->Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER) &&
	       (eh->Flags & EVENT_HEADER_FLAG_EXTENDED_INFO),
	       "%d-bit: %s: instance: ProviderId, class, CLASSIC|EXTENDED_INFO", BITS, where);
	if (tap_eq(r->er.ExtendedDataCount, 1, "%d-bit: %s: ... one extended item", BITS, where)) {
		EVENT_EXTENDED_ITEM_INSTANCE in;

		memcpy(&in, r->ext_data[0], sizeof(in));
		tap_ok(r->ext[0].ExtType == EVENT_HEADER_EXT_TYPE_INSTANCE_INFO &&
		       r->ext[0].DataSize == sizeof(in) && in.InstanceId == 1 &&
		       in.ParentInstanceId == 2 && guid_eq(&in.ParentGuid, &parent_guid),
		       "%d-bit: %s: ... INSTANCE_INFO: instance 1, parent 2 of the parent class",
		       BITS, where);
	}
	tap_ok(r->er.UserDataLength == sizeof(inst_data) &&
	       !memcmp(r->data, inst_data, sizeof(inst_data)), "%d-bit: %s: ... data", BITS,
	       where);

	/* 5: EventWrite */
	r = &recs[5];
	eh = &r->er.EventHeader;
	tap_ok(guid_eq(&eh->ProviderId, &prov_guid) &&
	       !memcmp(&eh->EventDescriptor, &desc, sizeof(desc)),
	       "%d-bit: %s: EventWrite: ProviderId, descriptor as written", BITS, where);
	tap_ok(!(eh->Flags & (EVENT_HEADER_FLAG_CLASSIC_HEADER | EVENT_HEADER_FLAG_TRACE_MESSAGE)) &&
	       (eh->Flags & (EVENT_HEADER_FLAG_32_BIT_HEADER |
			     EVENT_HEADER_FLAG_64_BIT_HEADER)) == bits &&
	       (eh->Flags & EVENT_HEADER_FLAG_PROCESSOR_INDEX) && !eh->HeaderType,
	       "%d-bit: %s: ... flags (0x%x), HeaderType 0 (0x%x)", BITS, where, eh->Flags,
	       eh->HeaderType);
	tap_ok(r->er.UserDataLength == 5 && !memcmp(r->data, ew1, 3) &&
	       !memcmp(r->data + 3, ew2, 2), "%d-bit: %s: ... UserData both descriptors", BITS,
	       where);
	if (same)
		tap_ok(eh->ThreadId == w_tid && eh->ProcessId == w_pid,
		       "%d-bit: %s: ... thread and process IDs", BITS, where);

	/* 6: EventWriteTransfer */
	r = &recs[6];
	eh = &r->er.EventHeader;
	if (same)
		tap_ok(guid_eq(&eh->ActivityId, &act_id), "%d-bit: %s: transfer: ActivityId",
		       BITS, where);
	tap_ok(r->er.ExtendedDataCount >= 1 && (eh->Flags & EVENT_HEADER_FLAG_EXTENDED_INFO),
	       "%d-bit: %s: transfer: extended data, EXTENDED_INFO", BITS, where);
	for (i = 0; i < r->er.ExtendedDataCount && i < 4; i++)
		if (r->ext[i].ExtType == EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID)
			break;
	tap_ok(i < r->er.ExtendedDataCount && r->ext[i].DataSize == 16 &&
	       (!same || !memcmp(r->ext_data[i], &rel_id, 16)) &&
	       r->ext[r->er.ExtendedDataCount - 1].Linkage == 0,
	       "%d-bit: %s: ... RELATED_ACTIVITYID item, the last without Linkage", BITS, where);
	tap_ok(r->er.UserDataLength == 3 && !memcmp(r->data, ew1, 3),
	       "%d-bit: %s: ... UserData after the items", BITS, where);
}

static char path_all[128], path_many[128], path_a[128], path_b[128], path_bad[128];
static char self[PATH_MAX];

static void test_every_type(void)
{
	EVENT_TRACE_LOGFILEA lf;
	uint64_t t0, t1;
	TRACEHANDLE h;
	ULONG err;
	int step;

	t0 = now_filetime();
	step = write_all(path_all);
	t1 = now_filetime();
	if (!tap_eq(step, 0, "%d-bit: the file of every record type written", BITS))
		return;

	err = read_file(path_all, PROCESS_TRACE_MODE_EVENT_RECORD, &lf, &h);
	tap_eq(err, ERROR_SUCCESS, "%d-bit: ProcessTrace -> ERROR_SUCCESS", BITS);
	check_records("EVENT_RECORD", sizeof(void *), 1, t0, t1);

	/* The LogfileHeader, filled on open. */
	tap_ok(lf.LogfileHeader.BufferSize == 8192 && lf.BufferSize == 8192 &&
	       lf.LogfileHeader.PointerSize == sizeof(void *) &&
	       lf.LogfileHeader.NumberOfProcessors > 0 &&
	       lf.LogfileHeader.Version == NTTRACE_ETL_VERSION,
	       "%d-bit: LogfileHeader: BufferSize, PointerSize, processors, version", BITS);
	tap_ok(lf.LogfileHeader.StartTime.QuadPart >= (LONGLONG)t0 - 10000000 &&
	       lf.LogfileHeader.StartTime.QuadPart <= (LONGLONG)t1 &&
	       lf.LogfileHeader.EndTime.QuadPart >= lf.LogfileHeader.StartTime.QuadPart &&
	       lf.LogfileHeader.EndTime.QuadPart <= (LONGLONG)t1 + 10000000,
	       "%d-bit: ... StartTime and EndTime around the writing", BITS);
	tap_ok(lf.LogfileHeader.LoggerName && lf.LogfileHeader.LoggerName[0] == 'o' &&
	       lf.LogfileHeader.LoggerName[1] == 't' && lf.LogfileHeader.LoggerName[5] == 0,
	       "%d-bit: ... LoggerName \"ot-um\" (UTF-16)", BITS);
	tap_ok(lf.LogfileHeader.LogFileName != NULL, "%d-bit: ... LogFileName", BITS);
	tap_ok(guid_eq(&lf.CurrentEvent.Header.Guid, &EventTraceGuid),
	       "%d-bit: ... CurrentEvent the header event", BITS);
	tap_ok(lf.CurrentTime == recs[6].er.EventHeader.TimeStamp.QuadPart,
	       "%d-bit: ... CurrentTime the last event's", BITS);
	tap_eq(CloseTrace(h), ERROR_SUCCESS, "%d-bit: CloseTrace", BITS);
	tap_eq(CloseTrace(h), ERROR_INVALID_HANDLE, "%d-bit: CloseTrace again -> "
	       "ERROR_INVALID_HANDLE", BITS);
	tap_eq(ProcessTrace(&h, 1, NULL, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: ProcessTrace of a closed handle -> ERROR_INVALID_HANDLE", BITS);

	/* Read twice through one handle: the file again from the start. */
	reset();
	logfile_init(&lf, path_all, PROCESS_TRACE_MODE_EVENT_RECORD);
	h = OpenTraceA(&lf);
	ProcessTrace(&h, 1, NULL, NULL);
	reset();
	tap_ok(!ProcessTrace(&h, 1, NULL, NULL) && nrec == 7,
	       "%d-bit: a second ProcessTrace reads the file again", BITS);
	CloseTrace(h);

	/* The old callback: EVENT_TRACE. */
	err = read_file(path_all, 0, &lf, NULL);
	tap_eq(err, ERROR_SUCCESS, "%d-bit: EventCallback: ProcessTrace", BITS);
	if (tap_eq(nrec, 7, "%d-bit: ... 7 events", BITS)) {
		EVENT_TRACE *et = &recs[0].et;

		tap_ok(guid_eq(&et->Header.Guid, &EventTraceGuid) &&
		       et->Header.Class.Type == EVENT_TRACE_TYPE_INFO &&
		       get_le(recs[0].data + NTTRACE_ETL_LF_POINTER_SIZE, 4) == sizeof(void *),
		       "%d-bit: ... the header event, its MofData the logfile header", BITS);
		et = &recs[3].et;
		tap_ok(guid_eq(&et->Header.Guid, &class_guid) &&
		       et->Header.Class.Type == EVENT_TRACE_TYPE_START &&
		       et->Header.Class.Level == 4 && et->Header.Class.Version == 0x1234 &&
		       et->Header.HeaderType == (sizeof(void *) == 4 ? 0x0A : 0x14) &&
		       et->Header.MarkerFlags == 0xC0 && et->Header.ThreadId == w_tid &&
		       et->MofLength == sizeof(classic_data) &&
		       !memcmp(recs[3].data, classic_data, sizeof(classic_data)) &&
		       et->Header.Size == 0x30 + sizeof(classic_data),
		       "%d-bit: ... classic: GUID, class (16-bit version), header type, data",
		       BITS);
		et = &recs[4].et;
		tap_ok(et->InstanceId == 1 && et->ParentInstanceId == 2 &&
		       guid_eq(&et->ParentGuid, &parent_guid) && et->Header.Class.Version == 7 &&
		       et->MofLength == sizeof(inst_data),
		       "%d-bit: ... instance: InstanceId, ParentInstanceId, ParentGuid", BITS);
		et = &recs[1].et;
		tap_ok(guid_eq(&et->Header.Guid, &msg_guid) && et->MofLength == sizeof(msg_args),
		       "%d-bit: ... message: GUID and arguments", BITS);
		et = &recs[5].et;
		tap_ok(guid_eq(&et->Header.Guid, &prov_guid) && et->Header.Class.Type == 11 &&
		       et->Header.Class.Level == 4 && et->Header.Class.Version == 3 &&
		       et->MofLength == 5, "%d-bit: ... EventWrite: GUID, opcode, level, version",
		       BITS);
	}

	/* RAW_TIMESTAMP: the clock as written, which converts to the FILETIMEs. */
	{
		static struct rec ft[7];

		memcpy(ft, recs, 0);
		read_file(path_all, PROCESS_TRACE_MODE_EVENT_RECORD, &lf, NULL);
		memcpy(ft, recs, sizeof(ft));
		err = read_file(path_all, PROCESS_TRACE_MODE_EVENT_RECORD |
				PROCESS_TRACE_MODE_RAW_TIMESTAMP, &lf, NULL);
		if (tap_ok(!err && nrec == 7, "%d-bit: RAW_TIMESTAMP: ProcessTrace", BITS)) {
			uint64_t freq = lf.LogfileHeader.PerfFreq.QuadPart;
			uint64_t raw0 = recs[0].er.EventHeader.TimeStamp.QuadPart;
			uint64_t raw = recs[3].er.EventHeader.TimeStamp.QuadPart;
			uint64_t ft3 = ft[3].er.EventHeader.TimeStamp.QuadPart;
			double want = (double)(ft3 - lf.LogfileHeader.StartTime.QuadPart);
			double got = freq ? (double)(raw - raw0) * 1e7 / (double)freq : -1;

			tap_ok(raw != ft3 && raw >= raw0,
			       "%d-bit: ... time stamps are not FILETIMEs", BITS);
			tap_ok(got >= want - 10 && got <= want + 10,
			       "%d-bit: ... raw ticks since the start / PerfFreq = the FILETIME "
			       "offset (%.0f vs %.0f)", BITS, got, want);
		}
	}
}

/* ---- OpenTraceW ---- */

static void test_wide(void)
{
	EVENT_TRACE_LOGFILEW lf;
	WCHAR wpath[128], bad[4] = { 'x', 0xD800, 'y', 0 };
	TRACEHANDLE h;
	size_t i;

	for (i = 0; path_all[i]; i++)
		wpath[i] = (unsigned char)path_all[i];
	wpath[i] = 0;
	reset();
	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = wpath;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_record;
	lf.Context = (PVOID)0x5eed;
	h = OpenTraceW(&lf);
	if (!tap_ok(h != INVALID_PROCESSTRACE_HANDLE, "%d-bit: OpenTraceW", BITS))
		return;
	tap_ok(lf.LogfileHeader.BufferSize == 8192 && lf.LogfileHeader.LoggerName[0] == 'o',
	       "%d-bit: ... LogfileHeader filled", BITS);
	tap_eq(ProcessTrace(&h, 1, NULL, NULL), ERROR_SUCCESS, "%d-bit: ... ProcessTrace", BITS);
	check_records("OpenTraceW", sizeof(void *), 1, 0, 0);
	CloseTrace(h);
	lf.LogFileName = bad;
	tap_ok(OpenTraceW(&lf) == INVALID_PROCESSTRACE_HANDLE &&
	       GetLastError() == ERROR_BAD_PATHNAME,
	       "%d-bit: OpenTraceW, a lone surrogate -> ERROR_BAD_PATHNAME", BITS);
}

/* ---- many buffers: BufferCallback ---- */

static void test_buffers(void)
{
	EVENT_TRACE_LOGFILEA lf;
	TRACEHANDLE h = 0;
	struct props pr;
	uint32_t i, total;
	ULONG err;

	props_init(&pr, path_many, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	pr.p.BufferSize = 4;
	pr.p.MaximumBuffers = 64;
	if (!tap_eq(StartTraceA(&h, "ot-many", &pr.p), ERROR_SUCCESS,
		    "%d-bit: many: start", BITS))
		return;
	for (i = 0; i < 2000; i++)
		TraceMessage(h, TRACE_MESSAGE_GUID | TRACE_MESSAGE_TIMESTAMP, &msg_guid, 1, &i,
			     sizeof(i), NULL);
	stop(h);

	reset();
	logfile_init(&lf, path_many, PROCESS_TRACE_MODE_EVENT_RECORD);
	lf.BufferCallback = on_buffer;
	h = OpenTraceA(&lf);
	err = ProcessTrace(&h, 1, NULL, NULL);
	total = nrec;
	/* The logger may drop some (counted); every one kept must come. */
	tap_ok(!err && total == 2001 - lf.LogfileHeader.EventsLost && total > 100,
	       "%d-bit: many: 2000 events less %u lost, and the header (%u)", BITS,
	       lf.LogfileHeader.EventsLost, total);
	for (i = 2; i < total; i++)
		if (get_le(recs[i].data, 4) <= get_le(recs[i - 1].data, 4))
			break;
	tap_ok(i == total && get_le(recs[1].data, 4) == 0, "%d-bit: ... in the order written",
	       BITS);
	tap_ok(buffer_calls > 3 && last_buffers_read == buffer_calls &&
	       lf.BuffersRead == buffer_calls,
	       "%d-bit: ... BufferCallback after each buffer (%u), BuffersRead counts them",
	       BITS, buffer_calls);
	tap_ok(lf.Filled > NTTRACE_WMI_BUFFER_HEADER_SIZE && lf.Filled <= 4096 &&
		       lf.BufferSize == 4096,
	       "%d-bit: ... Filled and BufferSize", BITS);

	reset();
	buffer_false_at = 3;
	err = ProcessTrace(&h, 1, NULL, NULL);
	tap_eq(err, ERROR_CANCELLED, "%d-bit: BufferCallback FALSE -> ERROR_CANCELLED", BITS);
	tap_ok(buffer_calls == 3 && nrec > 1 && nrec < total,
	       "%d-bit: ... nothing after it (%u events)", BITS, nrec);
	reset();
	buffer_false_at = 1;
	tap_eq(ProcessTrace(&h, 1, NULL, NULL), ERROR_CANCELLED,
	       "%d-bit: FALSE after the header buffer -> ERROR_CANCELLED", BITS);
	tap_eq(nrec, 1, "%d-bit: ... only the header event", BITS);

	/* CloseTrace from a callback. */
	reset();
	lf.BufferCallback = NULL;
	stop_after = 10;
	close_handle = h;
	close_result = 0;
	err = ProcessTrace(&h, 1, NULL, NULL);
	tap_eq(busy_result, ERROR_BUSY,
	       "%d-bit: ProcessTrace of a handle being processed -> ERROR_BUSY", BITS);
	tap_eq(close_result, ERROR_CTX_CLOSE_PENDING,
	       "%d-bit: CloseTrace in a callback -> ERROR_CTX_CLOSE_PENDING", BITS);
	tap_ok(!err && nrec == 10, "%d-bit: ... ProcessTrace ends after that event (%u)", BITS,
	       nrec);
	tap_eq(CloseTrace(h), ERROR_INVALID_HANDLE, "%d-bit: ... and the handle is gone", BITS);
}

/* ---- two files at once: merged in time order ---- */

static void writer(const char *path, uint32_t first, int rd, int wr, const char *name)
{
	TRACEHANDLE h = 0;
	struct props pr;
	uint32_t i;
	char c = 0;

	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (StartTraceA(&h, name, &pr.p))
		_exit(1);
	for (i = 0; i < 20; i++) {
		if ((i % 2) != first && read(rd, &c, 1) != 1)
			break;
		if ((i % 2) == first) {
			TraceMessage(h, TRACE_MESSAGE_GUID | TRACE_MESSAGE_TIMESTAMP, &msg_guid, 2,
				     &i, sizeof(i), NULL);
			if (write(wr, &c, 1) != 1)
				break;
		}
	}
	stop(h);
}

static void test_merge(void)
{
	EVENT_TRACE_LOGFILEA la, lb;
	TRACEHANDLE hs[2], two[2];
	int ab[2], ba[2], st = 0, ok = 1;
	FILETIME s, e;
	uint64_t t5, t12;
	pid_t pid;
	unsigned int i, k;

	if (pipe(ab) || pipe(ba))
		return;
	pid = fork();
	if (!pid) {
		writer(path_b, 1, ab[0], ba[1], "ot-b");
		_exit(0);
	}
	writer(path_a, 0, ba[0], ab[1], "ot-a");
	waitpid(pid, &st, 0);
	close(ab[0]); close(ab[1]); close(ba[0]); close(ba[1]);
	if (!tap_ok(WIFEXITED(st) && !WEXITSTATUS(st), "%d-bit: two files written at once", BITS))
		return;
	reset();
	logfile_init(&la, path_a, PROCESS_TRACE_MODE_EVENT_RECORD);
	logfile_init(&lb, path_b, PROCESS_TRACE_MODE_EVENT_RECORD);
	lb.Context = (PVOID)0xb;
	hs[0] = OpenTraceA(&la);
	hs[1] = OpenTraceA(&lb);
	tap_eq(ProcessTrace(hs, 2, NULL, NULL), ERROR_SUCCESS, "%d-bit: ProcessTrace of two",
	       BITS);
	if (!tap_eq(nrec, 22, "%d-bit: ... two header events and 20 events", BITS))
		goto out;
	tap_ok(guid_eq(&recs[0].er.EventHeader.ProviderId, &EventTraceGuid) &&
	       guid_eq(&recs[1].er.EventHeader.ProviderId, &EventTraceGuid) &&
	       recs[0].er.UserContext == (PVOID)0x5eed && recs[1].er.UserContext == (PVOID)0xb,
	       "%d-bit: ... each file's header event first, in the array's order", BITS);
	for (i = 2; i < 22; i++) {
		k = get_le(recs[i].data, 4);
		if (k != i - 2 || recs[i].er.UserContext != (PVOID)(uintptr_t)(k % 2 ? 0xb : 0x5eed))
			ok = 0;
	}
	tap_ok(ok, "%d-bit: ... the events of both merged in time order", BITS);

	/* StartTime, EndTime: events 5 to 12 only. */
	t5 = recs[2 + 5].er.EventHeader.TimeStamp.QuadPart;
	t12 = recs[2 + 12].er.EventHeader.TimeStamp.QuadPart;
	s.dwLowDateTime = (uint32_t)t5;
	s.dwHighDateTime = t5 >> 32;
	e.dwLowDateTime = (uint32_t)t12;
	e.dwHighDateTime = t12 >> 32;
	reset();
	tap_eq(ProcessTrace(hs, 2, &s, &e), ERROR_SUCCESS,
	       "%d-bit: ProcessTrace with StartTime and EndTime", BITS);
	ok = nrec == 10;
	for (i = 2; ok && i < nrec; i++)
		ok = get_le(recs[i].data, 4) == i - 2 + 5;
	tap_ok(ok, "%d-bit: ... the headers and events 5 to 12 (%u)", BITS, nrec);
	reset();
	tap_eq(ProcessTrace(hs, 2, &e, &s), ERROR_INVALID_TIME,
	       "%d-bit: EndTime before StartTime -> ERROR_INVALID_TIME", BITS);
	tap_eq(nrec, 0, "%d-bit: ... nothing delivered", BITS);
	two[0] = two[1] = hs[0];
	tap_eq(ProcessTrace(two, 2, NULL, NULL), ERROR_INVALID_PARAMETER,
	       "%d-bit: a handle twice -> ERROR_INVALID_PARAMETER", BITS);
out:
	CloseTrace(hs[0]);
	CloseTrace(hs[1]);
}

/* ---- errors, damaged files ---- */

static int write_bytes(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int ok = fd >= 0 && write(fd, p, n) == (ssize_t)n;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

static void open_fails(const char *path, ULONG mode, ULONG want, const char *what)
{
	EVENT_TRACE_LOGFILEA lf;
	TRACEHANDLE h;

	logfile_init(&lf, path, mode);
	SetLastError(0);
	h = OpenTraceA(&lf);
	tap_ok(h == INVALID_PROCESSTRACE_HANDLE && GetLastError() == want,
	       "%d-bit: OpenTrace, %s -> INVALID_PROCESSTRACE_HANDLE, %u (%u)", BITS, what,
	       want, GetLastError());
}

static void test_errors(void)
{
	TRACEHANDLE hs[65], h, bad = 0x12345;
	EVENT_TRACE_LOGFILEA lf;
	static uint8_t junk[65536];
	uint8_t *file;
	size_t i, n;
	int fd;

	tap_eq(INVALID_PROCESSTRACE_HANDLE, (TRACEHANDLE)(uintptr_t)-1,
	       "%d-bit: INVALID_PROCESSTRACE_HANDLE is (UINT64)UINTPTR_MAX", BITS);
	SetLastError(0);
	tap_ok(OpenTraceA(NULL) == INVALID_PROCESSTRACE_HANDLE &&
	       GetLastError() == ERROR_INVALID_PARAMETER,
	       "%d-bit: OpenTrace(NULL) -> ERROR_INVALID_PARAMETER", BITS);
	open_fails(NULL, 0, ERROR_BAD_PATHNAME, "no LogFileName");
	open_fails("", 0, ERROR_BAD_PATHNAME, "an empty LogFileName");
	/* Real time names a session in LoggerName, not a file. */
	open_fails(path_all, PROCESS_TRACE_MODE_REAL_TIME, ERROR_INVALID_PARAMETER,
		   "REAL_TIME without a LoggerName");
	open_fails("/tmp/opentrace-no-such-file.etl", 0, ERROR_FILE_NOT_FOUND, "no such file");
	open_fails("/dev/null/x.etl", 0, ERROR_PATH_NOT_FOUND, "a path through a file");
	open_fails("/tmp", 0, ERROR_ACCESS_DENIED, "a directory");
	write_bytes(path_bad, "", 0);
	open_fails(path_bad, 0, ERROR_FILE_CORRUPT, "an empty file");
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = i * 131 + 7;
	write_bytes(path_bad, junk, sizeof(junk));
	open_fails(path_bad, 0, ERROR_FILE_CORRUPT, "not an ETL file");

	tap_eq(ProcessTrace(NULL, 1, NULL, NULL), ERROR_INVALID_PARAMETER,
	       "%d-bit: ProcessTrace(NULL) -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(GetLastError(), ERROR_INVALID_PARAMETER, "%d-bit: ... the last error", BITS);
	tap_eq(ProcessTrace(&bad, 0, NULL, NULL), ERROR_BAD_LENGTH,
	       "%d-bit: HandleCount 0 -> ERROR_BAD_LENGTH", BITS);
	tap_eq(ProcessTrace(hs, 65, NULL, NULL), ERROR_BAD_LENGTH,
	       "%d-bit: HandleCount 65 -> ERROR_BAD_LENGTH", BITS);
	tap_eq(ProcessTrace(&bad, 1, NULL, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: a made-up handle -> ERROR_INVALID_HANDLE", BITS);
	h = INVALID_PROCESSTRACE_HANDLE;
	tap_eq(ProcessTrace(&h, 1, NULL, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: INVALID_PROCESSTRACE_HANDLE -> ERROR_INVALID_HANDLE", BITS);
	h = 0;
	tap_eq(ProcessTrace(&h, 1, NULL, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: handle 0 -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(CloseTrace(bad), ERROR_INVALID_HANDLE, "%d-bit: CloseTrace(made up) -> "
	       "ERROR_INVALID_HANDLE", BITS);
	tap_eq(CloseTrace(INVALID_PROCESSTRACE_HANDLE), ERROR_INVALID_HANDLE,
	       "%d-bit: CloseTrace(INVALID_PROCESSTRACE_HANDLE) -> ERROR_INVALID_HANDLE", BITS);

	/* Damaged copies of the file of every record type: no crash. */
	fd = open(path_all, O_RDONLY);
	file = malloc(1 << 20);
	n = fd >= 0 ? read(fd, file, 1 << 20) : 0;
	if (fd >= 0)
		close(fd);
	if (!tap_ok(n >= 2 * 8192, "%d-bit: damaged files: the original read", BITS)) {
		free(file);
		return;
	}
	{
		struct { size_t at, len; uint8_t v; const char *what; } d[] = {
			{ 8192 + 0x48, 0x60, 0xFF, "the first records overwritten" },
			{ 8192 + 0x48 + 2, 2, 0xFF, "a record's size 0xFFFF" },
			{ 8192 + 0x50, 16, 0x00, "zeros in a record" },
			{ 8192, 0x48, 0xA5, "a buffer header overwritten" },
			{ 0x48 + 0x20 + NTTRACE_ETL_LF_POINTER_SIZE, 4, 0x07, "a bad PointerSize" },
		};
		unsigned int k;

		for (k = 0; k < sizeof(d) / sizeof(d[0]); k++) {
			uint8_t *copy = malloc(n);
			TRACEHANDLE hh;
			ULONG err;

			memcpy(copy, file, n);
			memset(copy + d[k].at, d[k].v, d[k].len);
			write_bytes(path_bad, copy, n);
			free(copy);
			reset();
			logfile_init(&lf, path_bad, PROCESS_TRACE_MODE_EVENT_RECORD);
			hh = OpenTraceA(&lf);
			if (hh == INVALID_PROCESSTRACE_HANDLE) {
				tap_ok(GetLastError() == ERROR_FILE_CORRUPT,
				       "%d-bit: damaged (%s): OpenTrace -> ERROR_FILE_CORRUPT",
				       BITS, d[k].what);
				continue;
			}
			err = ProcessTrace(&hh, 1, NULL, NULL);
			tap_ok(!err && nrec >= 1 && nrec <= 7,
			       "%d-bit: damaged (%s): ProcessTrace ERROR_SUCCESS, %u events",
			       BITS, d[k].what, nrec);
			CloseTrace(hh);
		}
		/* Cut in the middle of the data buffer. */
		write_bytes(path_bad, file, 8192 + 100);
		reset();
		tap_ok(read_file(path_bad, PROCESS_TRACE_MODE_EVENT_RECORD, &lf, NULL) ==
		       ERROR_SUCCESS && nrec == 1,
		       "%d-bit: a file cut in its data buffer: the header event only", BITS);
		/* Only the header buffer, cut. */
		write_bytes(path_bad, file, 0x100);
		open_fails(path_bad, 0, ERROR_FILE_CORRUPT, "a header buffer cut short");
	}
	free(file);
}

/* ---- the other pointer size ---- */

/*
 * The file of @n bytes at @f as a writer of @to-byte pointers would have
 * written it: the header's TRACE_LOGFILE_HEADER in that layout, and the
 * records' header types and 32/64-bit flags. (The records' layouts are
 * the same for both: only these say the writer's pointer size.) 0 if done.
 */
static int convert_bits(uint8_t *f, size_t n, uint32_t to)
{
	uint8_t *rec = f + NTTRACE_WMI_BUFFER_HEADER_SIZE,
		*lf = rec + NTTRACE_ETL_SYSTEM_HEADER_SIZE;
	uint32_t bs = get_le(f, 4), from = get_le(lf + NTTRACE_ETL_LF_POINTER_SIZE, 4);
	uint32_t len = get_le(rec + 4, 2), names, nlen, end, off;
	uint8_t tmp[4096];
	size_t b;

	if (from == to || len > sizeof(tmp) || bs > n)
		return -1;
	names = len - NTTRACE_ETL_SYSTEM_HEADER_SIZE - NTTRACE_ETL_LF_SIZE(from);
	memset(tmp, 0, sizeof(tmp));
	memcpy(tmp, lf, NTTRACE_ETL_LF_LOGGER_NAME);
	memcpy(tmp + NTTRACE_ETL_LF_TIME_ZONE(to), lf + NTTRACE_ETL_LF_TIME_ZONE(from),
	       NTTRACE_ETL_TIME_ZONE_SIZE);
	memcpy(tmp + NTTRACE_ETL_LF_BOOT_TIME(to), lf + NTTRACE_ETL_LF_BOOT_TIME(from), 0x20);
	memcpy(tmp + NTTRACE_ETL_LF_SIZE(to), lf + NTTRACE_ETL_LF_SIZE(from), names);
	put_le(tmp + NTTRACE_ETL_LF_POINTER_SIZE, to, 4);
	nlen = NTTRACE_ETL_SYSTEM_HEADER_SIZE + NTTRACE_ETL_LF_SIZE(to) + names;
	memset(lf, 0xFF, bs - NTTRACE_WMI_BUFFER_HEADER_SIZE - NTTRACE_ETL_SYSTEM_HEADER_SIZE);
	memcpy(lf, tmp, nlen - NTTRACE_ETL_SYSTEM_HEADER_SIZE);
	put_le(rec + 4, nlen, 2);
	end = NTTRACE_WMI_BUFFER_HEADER_SIZE + ((nlen + 7) & ~7u);
	put_le(f + 0x04, end, 4);
	put_le(f + 0x08, end, 4);
	put_le(f + 0x30, end, 4);
	for (b = bs; b + bs <= n; b += bs) {
		uint8_t *buf = f + b;

		end = get_le(buf + 4, 4);
		for (off = NTTRACE_WMI_BUFFER_HEADER_SIZE; off + 8 <= end && off + 8 <= bs;) {
			uint8_t *r = buf + off;
			uint32_t size = get_le(r, 2);

			if (size < 8)
				break;
			/* A message says its writer's pointer size in its flags. */
			if (r[3] == NTTRACE_MESSAGE_TRACE_MARKER_BYTE)
				put_le(r + 6, (get_le(r + 6, 2) & ~(TRACE_MESSAGE_POINTER32 |
								   TRACE_MESSAGE_POINTER64)) |
				       (to == 4 ? TRACE_MESSAGE_POINTER32 : TRACE_MESSAGE_POINTER64), 2);
			if (r[3] == NTTRACE_TRACE_HEADER_MARKER_BYTE) {
				switch (r[2]) {
				case NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER32:
				case NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER64:
					r[2] = to == 4 ? NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER32 :
							 NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER64;
					break;
				case NTTRACE_TRACE_HEADER_TYPE_INSTANCE32:
				case NTTRACE_TRACE_HEADER_TYPE_INSTANCE64:
					r[2] = to == 4 ? NTTRACE_TRACE_HEADER_TYPE_INSTANCE32 :
							 NTTRACE_TRACE_HEADER_TYPE_INSTANCE64;
					break;
				case NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER32:
				case NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER64:
					r[2] = to == 4 ? NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER32 :
							 NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER64;
					put_le(r + 4, (get_le(r + 4, 2) &
						       ~(EVENT_HEADER_FLAG_32_BIT_HEADER |
							 EVENT_HEADER_FLAG_64_BIT_HEADER)) |
					       (to == 4 ? EVENT_HEADER_FLAG_32_BIT_HEADER :
							  EVENT_HEADER_FLAG_64_BIT_HEADER), 2);
					break;
				}
			}
			off += (size + 7) & ~7u;
		}
	}
	return 0;
}

/* This process's file of every record type made the other pointer size's. */
static void test_converted(void)
{
	uint32_t to = sizeof(void *) == 8 ? 4 : 8;
	EVENT_TRACE_LOGFILEA lf;
	TRACEHANDLE h = 0;
	char where[40];
	uint8_t *f;
	size_t n;

	if (write_all(path_all))
		return;
	f = slurp(path_all, &n);
	if (!tap_ok(f && !convert_bits(f, n, to), "%d-bit: the file made %u-bit", BITS, to * 8)) {
		free(f);
		return;
	}
	spew(path_bad, f, n);
	free(f);
	tap_eq(read_file(path_bad, PROCESS_TRACE_MODE_EVENT_RECORD, &lf, &h), ERROR_SUCCESS,
	       "%d-bit: a %u-bit file: ProcessTrace", BITS, to * 8);
	snprintf(where, sizeof(where), "%u-bit file", to * 8);
	check_records(where, to, 1, 0, 0);
	tap_ok(lf.LogfileHeader.PointerSize == to && lf.LogfileHeader.BufferSize == 8192 &&
	       lf.LogfileHeader.LoggerName[0] == 'o' && lf.LogfileHeader.StartTime.QuadPart,
	       "%d-bit: ... its LogfileHeader in this caller's layout", BITS);
	CloseTrace(h);
}

static void test_other_bits(void)
{
	char other[PATH_MAX + 16], opath[128], *p;
	EVENT_TRACE_LOGFILEA lf;
	const char *mine = BITS == 64 ? "/u64/" : "/u32/";
	int st = -1;
	pid_t pid;

	snprintf(other, sizeof(other), "%s", self);
	p = strstr(other, mine);
	if (p)
		memcpy(p, BITS == 64 ? "/u32/" : "/u64/", 5);
	if (!p || access(other, X_OK)) {
		printf("# the other bitness's build not found: skipped\n");
		return;
	}
	snprintf(opath, sizeof(opath), "/tmp/opentrace-other-%d-%d.etl", BITS, (int)getpid());
	pid = fork();
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execl(other, other, "--write", opath, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("# %s cannot run here (status 0x%x): skipped\n", other, st);
		unlink(opath);
		return;
	}
	tap_eq(read_file(opath, PROCESS_TRACE_MODE_EVENT_RECORD, &lf, NULL), ERROR_SUCCESS,
	       "%d-bit: a %d-bit writer's file: ProcessTrace", BITS, 96 - BITS);
	check_records(BITS == 64 ? "32-bit file" : "64-bit file", BITS == 64 ? 4 : 8, 0, 0, 0);
	unlink(opath);
}

/* ---- bad handles and damaged files ---- */

#include <sys/resource.h>

#define MAX_TEST_HANDLES 1025	/* one past opentrace.c's table */

static EVENT_TRACE_LOGFILEA bad_lfs[MAX_TEST_HANDLES];

/*
 * The calls' results as Microsoft documents them, and nttrace's choices
 * where it does not (said at each):
 *
 * ProcessTrace: ERROR_INVALID_PARAMETER for a NULL HandleArray,
 * ERROR_BAD_LENGTH for a HandleCount of 0 or above 64, ERROR_INVALID_HANDLE
 * when an element is not a handle OpenTrace returned (0,
 * INVALID_PROCESSTRACE_HANDLE, a closed one), ERROR_SUCCESS at the end
 * of the files. CloseTrace: ERROR_INVALID_HANDLE for 0,
 * INVALID_PROCESSTRACE_HANDLE and any other handle that is not open. Each
 * also as the thread's last error (ours: Microsoft documents only the
 * return value; nttrace sets both).
 *
 * Ours: a closed handle stays invalid after its slot is reused (the
 * generation in the handle); an array with one bad handle is refused
 * whole, before any callback; OpenTrace of a file that is not an ETL file
 * (empty, zeros, cut before its header buffer ends, a header buffer whose
 * size or type is damaged) gives ERROR_FILE_CORRUPT; no file descriptor
 * left: ERROR_TOO_MANY_OPEN_FILES (CreateFile's error for it); more than
 * 1024 open handles: ERROR_NOT_ENOUGH_MEMORY. ProcessTrace opens a file
 * again when its handle has been processed before: a file changed in
 * between is read as it is now (its buffer size may differ), and one
 * gone gives what OpenTrace would (ERROR_FILE_NOT_FOUND).
 */
static void bad_handle(TRACEHANDLE *hs, ULONG n, ULONG want, const char *what)
{
	ULONG err;

	reset();
	SetLastError(0);
	err = ProcessTrace(hs, n, NULL, NULL);
	tap_ok(err == want && GetLastError() == want && nrec == 0,
	       "%d-bit: ProcessTrace, %s -> %u, last error %u, no callback (%u, %u, %u)",
	       BITS, what, want, want, err, GetLastError(), nrec);
}

static void bad_close(TRACEHANDLE h, const char *what)
{
	ULONG err;

	SetLastError(0);
	err = CloseTrace(h);
	tap_ok(err == ERROR_INVALID_HANDLE && GetLastError() == ERROR_INVALID_HANDLE,
	       "%d-bit: CloseTrace, %s -> ERROR_INVALID_HANDLE, both ways (%u, %u)", BITS,
	       what, err, GetLastError());
}

static TRACEHANDLE open_all(EVENT_TRACE_LOGFILEA *lf, const char *path)
{
	logfile_init(lf, path, PROCESS_TRACE_MODE_EVENT_RECORD);
	return OpenTraceA(lf);
}

/* A file of the user-mode logger's 4 KB buffers (path_all has 8 KB). */
static int write_small(const char *path)
{
	TRACEHANDLE h = 0;
	struct props pr;
	int i;

	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	pr.p.BufferSize = 4;
	if (StartTraceA(&h, "ot-small", &pr.p))
		return -1;
	for (i = 0; i < 3; i++)
		TraceMessage(h, TRACE_MESSAGE_GUID | TRACE_MESSAGE_TIMESTAMP, &msg_guid, 30 + i,
			     msg_args, (size_t)3, NULL);
	return stop(h) ? -1 : 0;
}

static void test_bad_handles_and_files(void)
{
	static TRACEHANDLE hs[MAX_TEST_HANDLES];
	EVENT_TRACE_LOGFILEA lf, lf2;
	EVENT_TRACE_LOGFILEW lw;
	TRACEHANDLE h1, h2, forged, pair[2];
	unsigned int per_file, n, i, ok;
	uint16_t logger_id;
	uint8_t *file;
	size_t len;
	ULONG err;
	WCHAR wpath[64];
	struct rlimit rl, old;

	/* The file of every record type, read whole: its events. */
	if (!tap_eq(read_file(path_all, PROCESS_TRACE_MODE_EVENT_RECORD, &lf, NULL),
		    ERROR_SUCCESS, "%d-bit: bad handles: the file reads", BITS))
		return;
	per_file = nrec;

	/* A handle whose slot was reused: the generation tells them apart. */
	h1 = open_all(&lf, path_all);
	tap_eq(CloseTrace(h1), ERROR_SUCCESS, "%d-bit: open and close a handle", BITS);
	h2 = open_all(&lf2, path_all);
	tap_ok(h2 != INVALID_PROCESSTRACE_HANDLE && h2 != h1 && (uint32_t)h2 == (uint32_t)h1,
	       "%d-bit: the next OpenTrace reuses the slot, another handle (0x%llx, 0x%llx)",
	       BITS, (unsigned long long)h1, (unsigned long long)h2);
	bad_handle(&h1, 1, ERROR_INVALID_HANDLE, "the closed handle of a reused slot");
	bad_close(h1, "the closed handle of a reused slot");
	forged = h2 + (1ULL << 32);
	bad_handle(&forged, 1, ERROR_INVALID_HANDLE, "the slot with the next generation");
	bad_close(forged, "the slot with the next generation");
	forged = (uint32_t)h2;
	bad_handle(&forged, 1, ERROR_INVALID_HANDLE, "the slot without its generation");
	pair[0] = h2;
	pair[1] = h1;
	bad_handle(pair, 2, ERROR_INVALID_HANDLE, "a good handle and a closed one");
	pair[1] = 0;
	bad_handle(pair, 2, ERROR_INVALID_HANDLE, "a good handle and 0");
	pair[1] = INVALID_PROCESSTRACE_HANDLE;
	bad_handle(pair, 2, ERROR_INVALID_HANDLE, "a good handle and INVALID_PROCESSTRACE_HANDLE");
	bad_close(0, "0");
	reset();
	tap_ok(ProcessTrace(&h2, 1, NULL, NULL) == ERROR_SUCCESS && nrec == per_file,
	       "%d-bit: ... the good handle, not left busy, reads whole (%u events)", BITS,
	       nrec);
	tap_eq(CloseTrace(h2), ERROR_SUCCESS, "%d-bit: ... and closes", BITS);

	/* 64 handles at once (Windows' most), of one file: all of it 64 times. */
	for (n = 0; n < 65; n++) {
		hs[n] = open_all(&bad_lfs[n], path_all);
		if (hs[n] == INVALID_PROCESSTRACE_HANDLE)
			break;
	}
	if (tap_eq(n, 65, "%d-bit: 65 handles of one file open", BITS)) {
		reset();
		err = ProcessTrace(hs, 64, NULL, NULL);
		tap_ok(err == ERROR_SUCCESS && nrec == 64 * per_file,
		       "%d-bit: ProcessTrace of 64 handles -> ERROR_SUCCESS, %u events (%u)",
		       BITS, 64 * per_file, nrec);
		bad_handle(hs, 65, ERROR_BAD_LENGTH, "65 handles");
		bad_handle(hs, 0x80000000U, ERROR_BAD_LENGTH, "HandleCount 0x80000000");
		bad_handle(hs, 0, ERROR_BAD_LENGTH, "HandleCount 0");
	}
	while (n)
		CloseTrace(hs[--n]);

	/* The table of handles full (ours: 1024): then no memory for another. */
	getrlimit(RLIMIT_NOFILE, &old);
	rl = old;
	if (rl.rlim_cur < MAX_TEST_HANDLES + 64)
		rl.rlim_cur = rl.rlim_max < MAX_TEST_HANDLES + 64 ? rl.rlim_max :
			      MAX_TEST_HANDLES + 64;
	setrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur >= MAX_TEST_HANDLES + 64) {
		for (n = 0; n < MAX_TEST_HANDLES; n++) {
			hs[n] = open_all(&bad_lfs[n], path_all);
			if (hs[n] == INVALID_PROCESSTRACE_HANDLE)
				break;
		}
		err = GetLastError();
		tap_ok(n == 1024 && err == ERROR_NOT_ENOUGH_MEMORY,
		       "%d-bit: the 1025th open handle -> ERROR_NOT_ENOUGH_MEMORY (%u, %u)",
		       BITS, n, err);
		while (n)
			CloseTrace(hs[--n]);
	} else {
		tap_ok(1, "%d-bit: # SKIP the handle table full: only %lu files", BITS,
		       (unsigned long)rl.rlim_cur);
	}
	/* No file descriptor left: the limit a few above the lowest free one. */
	{
		int fd = open("/dev/null", O_RDONLY);

		if (fd >= 0)
			close(fd);
		rl = old;
		rl.rlim_cur = fd >= 0 ? (rlim_t)fd + 4 : old.rlim_cur;
	}
	setrlimit(RLIMIT_NOFILE, &rl);
	for (n = 0; n < MAX_TEST_HANDLES; n++) {
		hs[n] = open_all(&bad_lfs[n], path_all);
		if (hs[n] == INVALID_PROCESSTRACE_HANDLE)
			break;
	}
	err = GetLastError();
	while (n)
		CloseTrace(hs[--n]);
	setrlimit(RLIMIT_NOFILE, &old);
	tap_eq(err, ERROR_TOO_MANY_OPEN_FILES,
	       "%d-bit: OpenTrace with no file descriptor left -> ERROR_TOO_MANY_OPEN_FILES",
	       BITS);

	/* OpenTraceW's path errors too. */
	for (i = 0; i < 63 && "/tmp/opentrace-no-such-file.etl"[i]; i++)
		wpath[i] = "/tmp/opentrace-no-such-file.etl"[i];
	wpath[i] = 0;
	memset(&lw, 0, sizeof(lw));
	lw.LogFileName = wpath;
	lw.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lw.EventRecordCallback = on_record;
	SetLastError(0);
	tap_ok(OpenTraceW(&lw) == INVALID_PROCESSTRACE_HANDLE &&
	       GetLastError() == ERROR_FILE_NOT_FOUND,
	       "%d-bit: OpenTraceW, a missing file -> ERROR_FILE_NOT_FOUND", BITS);
	wpath[0] = '/';
	wpath[1] = 0;
	SetLastError(0);
	tap_ok(OpenTraceW(&lw) == INVALID_PROCESSTRACE_HANDLE &&
	       GetLastError() == ERROR_ACCESS_DENIED,
	       "%d-bit: OpenTraceW, a directory -> ERROR_ACCESS_DENIED", BITS);

	/* Damaged files. */
	file = slurp(path_all, &len);
	if (!tap_ok(file && len >= 2 * 8192, "%d-bit: damaged files: the original", BITS)) {
		free(file);
		return;
	}
	{
		static uint8_t zeros[65536];

		write_bytes(path_bad, zeros, sizeof(zeros));
		open_fails(path_bad, 0, ERROR_FILE_CORRUPT, "64 KB of zeros");
		write_bytes(path_bad, file, 0x47);
		open_fails(path_bad, 0, ERROR_FILE_CORRUPT, "cut inside its first buffer header");
		write_bytes(path_bad, file, 8192 - 8);
		open_fails(path_bad, 0, ERROR_FILE_CORRUPT,
			   "cut 8 bytes short of its header buffer");
	}
	{
		struct { size_t at; uint32_t v; int bytes; const char *what; } d[] = {
			{ 0, 0, 4, "the header buffer's size 0" },
			{ 0, 8192 + 4, 4, "the header buffer's size not a multiple of 8" },
			{ 0, 0x7FFFFFF8, 4, "the header buffer's size 2 GB" },
			{ 0x36, 0xFFFF, 2, "the header buffer's type" },
			{ 0x48, 0, 4, "the header event's marker" },
			{ 0x48 + 4, 0xFFFF, 2, "the header event's size 0xFFFF" },
			{ 0x48 + 4, 0x20, 2, "the header event's size 0x20" },
		};
		unsigned int k;

		for (k = 0; k < sizeof(d) / sizeof(d[0]); k++) {
			uint8_t *copy = malloc(len);

			memcpy(copy, file, len);
			put_le(copy + d[k].at, d[k].v, d[k].bytes);
			write_bytes(path_bad, copy, len);
			free(copy);
			open_fails(path_bad, 0, ERROR_FILE_CORRUPT, d[k].what);
		}
	}
	/* Only the header buffer: the header event, nothing else. */
	write_bytes(path_bad, file, 8192);
	tap_ok(read_file(path_bad, PROCESS_TRACE_MODE_EVENT_RECORD, &lf, NULL) == ERROR_SUCCESS &&
	       nrec == 1, "%d-bit: only the header buffer: the header event alone (%u)", BITS,
	       nrec);
	/* Each data buffer's header damaged: the header event, nothing else. */
	{
		uint8_t *copy = malloc(len);
		size_t at;

		memcpy(copy, file, len);
		for (at = 8192; at + 8192 <= len; at += 8192)
			memset(copy + at, 0x5A, 0x48);
		write_bytes(path_bad, copy, len);
		free(copy);
		tap_ok(read_file(path_bad, PROCESS_TRACE_MODE_EVENT_RECORD, &lf, NULL) ==
		       ERROR_SUCCESS && nrec == 1,
		       "%d-bit: every data buffer's header damaged: the header event alone (%u)",
		       BITS, nrec);
	}

	/*
	 * The file changes between two ProcessTraces of one handle: 8 KB
	 * buffers, then 4 KB ones. The second read is of the file as it is
	 * now, each event with its own buffer's LoggerId (the buffer found
	 * with the new size, not the old).
	 */
	if (!tap_eq(write_small(path_many), 0, "%d-bit: a file of 4 KB buffers", BITS))
		goto out;
	write_bytes(path_bad, file, len);
	h1 = open_all(&lf, path_bad);
	reset();
	tap_ok(ProcessTrace(&h1, 1, NULL, NULL) == ERROR_SUCCESS && nrec == per_file,
	       "%d-bit: a file read once (%u events)", BITS, nrec);
	{
		/* Its data buffers' LoggerId made one the test knows. */
		size_t slen, at;
		uint8_t *small = slurp(path_many, &slen);

		logger_id = 0x7A5B;
		for (at = 4096; small && at + 4096 <= slen; at += 4096)
			put_le(small + at + 0x2A, logger_id, 2);
		write_bytes(path_bad, small, small ? slen : 0);
		free(small);
	}
	reset();
	err = ProcessTrace(&h1, 1, NULL, NULL);
	for (ok = 1, i = 1; i < nrec; i++)
		ok &= recs[i].er.BufferContext.LoggerId == logger_id;
	/* The header event (kept from OpenTrace) and the 3 messages. */
	tap_ok(err == ERROR_SUCCESS && nrec == 4 && ok,
	       "%d-bit: ... changed to 4 KB buffers, read again: 4 events, each with its "
	       "buffer's LoggerId (%u, %u events, %s)", BITS, err, nrec, ok ? "yes" : "no");
	unlink(path_bad);
	reset();
	SetLastError(0);
	err = ProcessTrace(&h1, 1, NULL, NULL);
	tap_ok(err == ERROR_FILE_NOT_FOUND && GetLastError() == err && nrec == 0,
	       "%d-bit: ... removed, read again -> ERROR_FILE_NOT_FOUND (%u)", BITS, err);
	tap_eq(CloseTrace(h1), ERROR_SUCCESS, "%d-bit: ... and the handle closes", BITS);
out:
	free(file);
}

/*
 * The files written and read back: the later tests read the file of every
 * record type the first writes, and its writer's IDs, so they are one case.
 */
TEST_F(nttrace, files)
{
	test_every_type();
	test_wide();
	test_buffers();
	test_merge();
	test_errors();
	test_converted();
	test_other_bits();
	test_bad_handles_and_files();
}

int main(int argc, char **argv)
{
	ssize_t n;
	int ret;

	if (argc == 3 && !strcmp(argv[1], "--write"))
		return write_all(argv[2]);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = 0;
	recs = calloc(MAXREC, sizeof(*recs));
	if (!recs)
		return 1;
	snprintf(path_all, sizeof(path_all), "/tmp/opentrace-all-%d-%d.etl", BITS, (int)getpid());
	snprintf(path_many, sizeof(path_many), "/tmp/opentrace-many-%d-%d.etl", BITS,
		 (int)getpid());
	snprintf(path_a, sizeof(path_a), "/tmp/opentrace-a-%d-%d.etl", BITS, (int)getpid());
	snprintf(path_b, sizeof(path_b), "/tmp/opentrace-b-%d-%d.etl", BITS, (int)getpid());
	snprintf(path_bad, sizeof(path_bad), "/tmp/opentrace-bad-%d-%d.etl", BITS, (int)getpid());

	/* Windows' sizes and offsets for this pointer size. */
	tap_eq(sizeof(EVENT_RECORD), BITS == 64 ? 0x70 : 0x68, "%d-bit: sizeof(EVENT_RECORD)",
	       BITS);
	tap_eq(sizeof(TRACE_LOGFILE_HEADER), NTTRACE_ETL_LF_SIZE(sizeof(void *)),
	       "%d-bit: sizeof(TRACE_LOGFILE_HEADER) as in a file of this pointer size", BITS);
	tap_eq(offsetof(TRACE_LOGFILE_HEADER, BootTime), NTTRACE_ETL_LF_BOOT_TIME(sizeof(void *)),
	       "%d-bit: ... BootTime's offset", BITS);
	tap_eq(sizeof(EVENT_TRACE), 0x58, "%d-bit: sizeof(EVENT_TRACE)", BITS);
	tap_eq(sizeof(EVENT_TRACE_LOGFILEA), BITS == 64 ? 0x1C0 : 0x1A0,
	       "%d-bit: sizeof(EVENT_TRACE_LOGFILE)", BITS);
	tap_eq(offsetof(EVENT_TRACE_LOGFILEW, Context), BITS == 64 ? 0x1B8 : 0x198,
	       "%d-bit: ... Context's offset", BITS);
	tap_eq(sizeof(ETW_BUFFER_CONTEXT), 4, "%d-bit: sizeof(ETW_BUFFER_CONTEXT)", BITS);
	tap_eq(sizeof(EVENT_HEADER_EXTENDED_DATA_ITEM), 16,
	       "%d-bit: sizeof(EVENT_HEADER_EXTENDED_DATA_ITEM)", BITS);
	ret = harness_run(argc, argv);
	unlink(path_all);
	unlink(path_many);
	unlink(path_a);
	unlink(path_b);
	unlink(path_bad);
	free(recs);
	return ret;
}
