// SPDX-License-Identifier: GPL-2.0
/*
 * `nttrace convert --to ctf` read back by babeltrace2, with no
 * module. Two files: the user-mode logger's (a message, a classic and an
 * instance event, EventWrite of a provider no manifest describes, the
 * test manifest's event, EventWriteString, TraceLogging events of
 * integers, text, a structure and arrays) and one of kernel records
 * (Process/Start, Thread/Start, CSwitch, a PerfInfo mark) that the
 * kernel's encoders (common/) put in a buffer. Each is converted and
 * babeltrace2 prints the trace; every event must be one that ProcessTrace
 * gives, with its time to the nanosecond, CPU, provider, process, thread
 * and descriptor, and its fields as TDH decodes them (TdhGetEventInformation
 * and TdhFormatProperty, walked here on their own): integers TDH writes in
 * decimal as numbers, other values as TDH's text, structures and arrays as
 * `nttrace dump` writes them; an event TDH does not describe, its data's
 * bytes. The two lists are compared sorted: babeltrace2 may order events
 * of one time on two CPUs either way. TAP.
 *
 *   ctf_test NTTRACE DIR MANIFEST
 *
 * babeltrace2 (Debian's, which scripts/deps installs) missing: a SKIP.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/consumer.h>
#include <nttrace/etl.h>
#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/tdh.h>
#include <nttrace/tmf.h>
#include <nttrace/traceloggingprovider.h>
#include "../../userlib/internal.h"
#include "record.h"
#include "sysrec.h"
#include "../vm/props.h"
#include "../vm/tap.h"

#define MAX_EVENTS	64
#define LINE		8192

/* {6e747472-0031-4c54-8000-000000000c7f} */
TRACELOGGING_DEFINE_PROVIDER(ctf_provider, "nttrace.ctf",
			     (0x6e747472, 0x0031, 0x4c54, 0x80, 0, 0, 0, 0, 0, 0x0c, 0x7f));
static const GUID tl_guid = { 0x6e747472, 0x0031, 0x4c54, { 0x80, 0, 0, 0, 0, 0, 0x0c, 0x7f } };
/* tests/host/tdh_manifest_test.man's provider; and one no manifest describes. */
static const GUID man_guid = { 0x3b6f6b0e, 0x5c55, 0x4f64,
			       { 0x9d, 0x5b, 0x2a, 0x8c, 0x7a, 0x1e, 0x0f, 0x11 } };
static const GUID raw_guid = { 0x6e747472, 0x0031, 0x4c54, { 0x80, 0, 0, 0, 0, 0, 0x0c, 0x80 } };
static const GUID msg_guid = { 0x6e747472, 0x0031, 0x4c54, { 0x80, 0, 0, 0, 0, 0, 0x0c, 0x81 } };
static const GUID cls_guid = { 0x6e747472, 0x0031, 0x4c54, { 0x80, 0, 0, 0, 0, 0, 0x0c, 0x82 } };

static char *want[MAX_EVENTS], *got[MAX_EVENTS];
static unsigned int n_want, n_got;

/* ---- the files ---- */

static void user_file(const char *path)
{
	EVENT_DESCRIPTOR empty = { .Id = 3, .Level = 2, .Opcode = 1 };
	EVENT_DESCRIPTOR rawd = { .Id = 7, .Version = 1, .Level = 4, .Opcode = 12, .Task = 9,
				  .Keyword = 0x8000000000000001ULL };
	static const WCHAR wide[] = { 'w', 'i', 'd', 'e', 0 };
	static const WCHAR text[] = { 'h', 'e', 'l', 'l', 'o', 0 };
	static const int32_t a[] = { 7, 8, 9 };
	static const UINT8 c[] = { 1, 2 }, bin[] = { 1, 2, 3 };
	static const uint8_t raw[] = { 0xde, 0xad, 0x00, 0x01 };
	struct {
		EVENT_TRACE_HEADER h;
		uint8_t data[5];
	} ce;
	struct {
		EVENT_INSTANCE_HEADER h;
		uint8_t data[2];
	} ie;
	EVENT_INSTANCE_INFO inst;
	EVENT_DATA_DESCRIPTOR dd;
	HANDLE reg_class = NULL;
	REGHANDLE man = 0, rh = 0;
	TRACEHANDLE h = 0;
	uint32_t arg = 0x11223344;
	struct props pr;

	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (!tap_eq(StartTraceA(&h, "ctf-test", &pr.p), ERROR_SUCCESS, "user-mode logger"))
		return;
	tap_eq(TraceMessage(h, TRACE_MESSAGE_GUID | TRACE_MESSAGE_TIMESTAMP |
			    TRACE_MESSAGE_SYSTEMINFO, &msg_guid, 17, &arg, sizeof(arg), NULL),
	       ERROR_SUCCESS, "a message");
	memset(&ce, 0, sizeof(ce));
	ce.h.Size = sizeof(ce.h) + sizeof(ce.data);
	ce.h.Flags = WNODE_FLAG_TRACED_GUID;
	ce.h.Guid = cls_guid;
	ce.h.Class.Type = EVENT_TRACE_TYPE_START;
	ce.h.Class.Level = 4;
	ce.h.Class.Version = 3;
	memcpy(ce.data, "abcde", 5);
	tap_eq(TraceEvent(h, &ce.h), ERROR_SUCCESS, "a classic event");
	memset(&ie, 0, sizeof(ie));
	ie.h.Size = sizeof(ie.h) + sizeof(ie.data);
	ie.h.Flags = WNODE_FLAG_TRACED_GUID;
	ie.h.Class.Type = EVENT_TRACE_TYPE_END;
	ie.h.Class.Level = 2;
	ie.data[0] = 0x5a;
	tap_ok(!nttrace_class_add(&cls_guid, &reg_class) &&
	       !CreateTraceInstanceId(reg_class, &inst) &&
	       !TraceEventInstance(h, &ie.h, &inst, NULL), "an instance event");
	tap_eq(EventRegister(&raw_guid, NULL, NULL, &rh), ERROR_SUCCESS, "a provider");
	tap_eq(EnableTraceEx2(h, &raw_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, ~0ULL, 0, 0,
			      NULL),
	       ERROR_SUCCESS, "... enabled");
	EventDataDescCreate(&dd, raw, sizeof(raw));
	tap_eq(EventWrite(rh, &rawd, 1, &dd), ERROR_SUCCESS, "... EventWrite");
	tap_eq(EventWriteString(rh, 4, 0, text), ERROR_SUCCESS, "... EventWriteString");
	tap_eq(EventRegister(&man_guid, NULL, NULL, &man), ERROR_SUCCESS, "the manifest's provider");
	tap_eq(EnableTraceEx2(h, &man_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
	       ERROR_SUCCESS, "... enabled");
	tap_eq(EventWrite(man, &empty, 0, NULL), ERROR_SUCCESS, "... its event 3");
	tap_eq(TraceLoggingRegister(ctf_provider), 0, "TraceLoggingRegister");
	tap_eq(EnableTraceEx2(h, &tl_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
	       ERROR_SUCCESS, "... enabled");
	TraceLoggingWrite(ctf_provider, "Numbers", TraceLoggingInt32(-2, "n"),
			  TraceLoggingUInt64(10000000000ULL, "u"), TraceLoggingInt8(-5, "small"),
			  TraceLoggingHexInt32(42, "h"), TraceLoggingFloat64(1.5, "f"),
			  TraceLoggingBool(1, "b"));
	TraceLoggingWrite(ctf_provider, "Texts", TraceLoggingUtf8String("caf\xc3\xa9", "s"),
			  TraceLoggingWideString(wide, "w"), TraceLoggingGuid(tl_guid, "g"),
			  TraceLoggingString("odd name", "a field, named oddly"),
			  TraceLoggingInt32(1, "s"));
	TraceLoggingWrite(ctf_provider, "Shapes",
			  TraceLoggingStruct(2, "pt"), TraceLoggingInt32(3, "x"),
			  TraceLoggingInt32(4, "y"), TraceLoggingInt32Array(a, 3, "a"),
			  TraceLoggingUInt8FixedArray(c, 2, "c"), TraceLoggingBinary(bin, 3, "bin"),
			  TraceLoggingInt32(5, "x"));
	TraceLoggingUnregister(ctf_provider);
	EventUnregister(man);
	EventUnregister(rh);
	tap_eq(ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS, "stop");
}

static uint8_t kbuf[8192];

/* A kernel record with @payload at @at in kbuf, 8-byte aligned; the next @at. */
static uint32_t kput(uint32_t at, const struct ntr_sr_header *h, const void *payload, uint32_t n)
{
	uint32_t size = ntr_sr_record_size(h->kind, n);

	ntr_sr_header_write(kbuf + at, size, h);
	memcpy(kbuf + at + ntr_sr_header_size(h->kind), payload, n);
	return at + ((size + 7) & ~7U);
}

#define RS_STR(lit) { .s = (lit), .len = sizeof(lit) - 1 }

/* The NT Kernel Logger's file: a header buffer and one of records (64-bit). */
static int kernel_file(const char *path)
{
	struct nttrace_etl_session s = {
		.buffer_size = sizeof(kbuf), .nr_cpus = 2, .pointer_size = 8,
		.clock_type = 1, .frequency = 1000000000, .start_clock = 0,
		/* 2026-01-02 03:04:05 UTC */
		.start_time = 1767322800ULL * 10000000 + 2645ULL * 10000000 +
			      NTTRACE_FILETIME_UNIX_EPOCH,
		.boot_time = NTTRACE_FILETIME_UNIX_EPOCH, .logger_pid = 1, .logger_tid = 1,
		.name = "NT Kernel Logger",
	};
	struct ntr_buffer_conf conf = {
		.buffer_size = sizeof(kbuf), .clock_type = 1, .frequency = 1000000000,
		.logger_id = 0xFFFF,
	};
	struct ntr_sr_process p = {
		.process_id = 100, .parent_id = 1, .image_file_name = RS_STR("init"),
		.command_line = RS_STR("/sbin/init splash"),
	};
	struct ntr_sr_thread t = { .process_id = 100, .thread_id = 101, .name = RS_STR("t") };
	struct ntr_sr_cswitch cs = { .new_thread_id = 101, .old_thread_id = 0 };
	struct ntr_sr_header hp = { .hook_id = NTR_SR_PROCESS_START, .version = 4,
				    .kind = NTR_SR_FULL, .thread_id = 1, .process_id = 1,
				    .time_stamp = 1000 };
	struct ntr_sr_header ht = { .hook_id = NTR_SR_THREAD_START, .version = 3,
				    .kind = NTR_SR_COMPACT, .thread_id = 100, .process_id = 100,
				    .time_stamp = 1500 };
	struct ntr_sr_header hc = { .hook_id = NTR_SR_CSWITCH, .version = 2,
				    .kind = NTR_SR_PERFINFO, .time_stamp = 2700 };
	struct ntr_sr_header hm = { .hook_id = NTR_SR_PERFINFO_MARK, .version = 0,
				    .kind = NTR_SR_FULL, .thread_id = 7, .process_id = 8,
				    .time_stamp = 3123 };
	static const uint8_t mark[4] = { 'm', 0, 'k', 0 };
	uint8_t sid[NTR_SR_SID_MAX], payload[512], *hdr;
	uint32_t at = NTTRACE_WMI_BUFFER_HEADER_SIZE, n;
	FILE *f;
	int ok;

	p.sid = sid;
	p.sid_size = ntr_sr_sid_local_system(sid);
	ntr_buffer_open(kbuf, &conf, 1);
	n = ntr_sr_process_write(payload, sizeof(payload), &p, false);
	at = kput(at, &hp, payload, n);
	n = ntr_sr_thread_write(payload, sizeof(payload), &t, false);
	at = kput(at, &ht, payload, n);
	n = ntr_sr_cswitch_write(payload, sizeof(payload), &cs, false);
	at = kput(at, &hc, payload, n);
	n = ntr_sr_mark_write(payload, sizeof(payload), mark, sizeof(mark));
	at = kput(at, &hm, payload, n);
	ntr_buffer_seal(kbuf, at, 4000, 1, 0);
	hdr = calloc(1, sizeof(kbuf));
	f = fopen(path, "wb");
	if (!hdr || !f) {
		free(hdr);
		if (f)
			fclose(f);
		return tap_ok(0, "kernel file: made");
	}
	nttrace_etl_header(hdr, &s, path, s.start_time + 100, 2, 0, 0);
	ok = fwrite(hdr, sizeof(kbuf), 1, f) == 1 && fwrite(kbuf, sizeof(kbuf), 1, f) == 1;
	ok = !fclose(f) && ok;
	free(hdr);
	return tap_ok(ok, "kernel file: made");
}

/* ---- what TDH says of each event ---- */

struct walk {
	const TRACE_EVENT_INFO *info;
	const uint8_t *data;
	uint32_t len, at, psz;
	uint64_t values[64];
	FILE *out;
};

static char *name_at(const TRACE_EVENT_INFO *info, ULONG off)
{
	const uint8_t *p = (const uint8_t *)info + off;
	char *s = calloc(1, 256);
	size_t i;

	for (i = 0; s && off && i < 255 && (p[2 * i] || p[2 * i + 1]); i++)
		s[i] = (char)p[2 * i];	/* the test's names are ASCII */
	return s;
}

/* UTF-16 as UTF-8 (the test's texts are in the BMP). */
static void put_utf8(FILE *f, const WCHAR *w)
{
	char b[4];

	for (; *w; w++)
		fwrite(b, 1, nttrace_utf8_put(b, *w), f);
}

/* TdhFormatProperty's text for the value at the walk's place, as UTF-8. */
static int value(struct walk *w, const EVENT_PROPERTY_INFO *p, USHORT length)
{
	WCHAR buf[512];
	ULONG size = sizeof(buf);
	USHORT used = 0;

	if (TdhFormatProperty((PTRACE_EVENT_INFO)w->info, NULL, w->psz, p->nonStructType.InType,
			      p->nonStructType.OutType, length, (USHORT)(w->len - w->at),
			      (PBYTE)w->data + w->at, &size, buf, &used))
		return 0;
	put_utf8(w->out, buf);
	if (length <= 8 && p->Flags == 0) {
		uint64_t v = 0;

		memcpy(&v, w->data + w->at, used < 8 ? used : 8);
		w->values[p - w->info->EventPropertyInfoArray] = v;
	}
	w->at += used;
	return 1;
}

static int members(struct walk *w, USHORT first, USHORT count);

static int prop(struct walk *w, USHORT i)
{
	const EVENT_PROPERTY_INFO *p = &w->info->EventPropertyInfoArray[i];
	uint64_t n = p->Flags & PropertyParamCount ? w->values[p->countPropertyIndex] : p->count;
	USHORT length = p->Flags & PropertyParamLength ? (USHORT)w->values[p->lengthPropertyIndex] :
			p->length;
	int array = (p->Flags & (PropertyParamCount | PropertyParamFixedCount)) || p->count != 1;
	uint64_t k;

	if (array)
		fputc('[', w->out);
	for (k = 0; k < n; k++) {
		if (k)
			fputc(',', w->out);
		if (p->Flags & PropertyStruct) {
			fputc('{', w->out);
			if (!members(w, p->structType.StructStartIndex,
				     p->structType.NumOfStructMembers))
				return 0;
			fputc('}', w->out);
		} else if (!value(w, p, length)) {
			return 0;
		}
	}
	if (array)
		fputc(']', w->out);
	return 1;
}

static int members(struct walk *w, USHORT first, USHORT count)
{
	USHORT i;

	for (i = 0; i < count; i++) {
		char *name = name_at(w->info, w->info->EventPropertyInfoArray[first + i].NameOffset);

		fprintf(w->out, "%s%s=", i ? " " : "", name);
		free(name);
		if (!prop(w, first + i))
			return 0;
	}
	return 1;
}

/* Decimal by TDH: a CTF integer (babeltrace2 prints it bare). */
static int plain_integer(const EVENT_PROPERTY_INFO *p)
{
	USHORT in = p->nonStructType.InType;

	return !(p->Flags & ~PropertyParamLength) && p->count == 1 &&
	       in >= TDH_INTYPE_INT8 && in <= TDH_INTYPE_UINT64 &&
	       p->nonStructType.OutType == TDH_OUTTYPE_NULL;
}

/* @name made a CTF identifier, as babeltrace2 shows it. */
static void ident(FILE *f, const char *name)
{
	for (; *name; name++)
		fputc((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
		      (*name >= '0' && *name <= '9') ? *name : '_', f);
}

static void bytes(FILE *f, const char *name, const uint8_t *d, uint32_t n)
{
	uint32_t i;

	fprintf(f, " %s_size=%u", name, n);
	if (!n)
		return;	/* babeltrace2 shows an empty array as "[ ]": see parse() */
	fprintf(f, " %s=[", name);
	for (i = 0; i < n; i++)
		fprintf(f, "%s0x%X", i ? "," : "", d[i]);
	fputc(']', f);
}

/* The fields of an event TDH describes; 0 if it does not. */
static int tdh_fields(FILE *f, const EVENT_RECORD *er, char **name)
{
	TRACE_EVENT_INFO *info;
	ULONG size = 0;
	struct walk w = { 0 };
	char *prov, *ev, *task, *op, *text = NULL;
	size_t len = 0;
	USHORT i, j;

	if (TdhGetEventInformation((PEVENT_RECORD)er, 0, NULL, NULL, &size) !=
	    ERROR_INSUFFICIENT_BUFFER)
		return 0;
	info = malloc(size);
	if (!info || TdhGetEventInformation((PEVENT_RECORD)er, 0, NULL, info, &size)) {
		free(info);
		return 0;
	}
	prov = name_at(info, info->ProviderNameOffset);
	ev = info->DecodingSource != DecodingSourceWbem ? name_at(info, info->EventNameOffset) :
	     NULL;
	task = name_at(info, info->TaskNameOffset);
	op = name_at(info, info->OpcodeNameOffset);
	*name = malloc(1024);
	/* The event's own name, else its task's and opcode's (render_tdh.c). */
	if (ev && *ev)
		snprintf(*name, 1024, "%s/%s", prov, ev);
	else
		snprintf(*name, 1024, "%s/%s%s%s", prov, task, *task && *op ? "/" : "", op);
	w.info = info;
	w.data = er->UserData;
	w.len = er->UserDataLength;
	w.psz = er->EventHeader.Flags & EVENT_HEADER_FLAG_32_BIT_HEADER ? 4 : 8;
	for (i = 0; i < info->TopLevelPropertyCount; i++) {
		const EVENT_PROPERTY_INFO *p = &info->EventPropertyInfoArray[i];
		char *pn = name_at(info, p->NameOffset);

		w.out = open_memstream(&text, &len);
		prop(&w, i);
		fclose(w.out);
		fputc(' ', f);
		ident(f, pn);
		/* A name met before in the event: the second is NAME_2 (CTF's are unique). */
		for (j = 0; j < i; j++) {
			char *pj = name_at(info, info->EventPropertyInfoArray[j].NameOffset);
			int dup = !strcmp(pj, pn);

			free(pj);
			if (dup) {
				fputs("_2", f);
				break;
			}
		}
		fprintf(f, plain_integer(p) ? "=%s" : "=\"%s\"", text);
		free(text);
		free(pn);
		text = NULL;
	}
	if (w.at < w.len)
		bytes(f, "undecoded", w.data + w.at, w.len - w.at);
	free(prov);
	free(ev);
	free(task);
	free(op);
	free(info);
	return 1;
}

static void WINAPI on_event(PEVENT_RECORD er)
{
	const struct nttrace_etl_event *rec = nttrace_current_record();
	const EVENT_HEADER *eh = &er->EventHeader;
	const EVENT_DESCRIPTOR *d = &eh->EventDescriptor;
	uint64_t ns = (eh->TimeStamp.QuadPart - NTTRACE_FILETIME_UNIX_EPOCH) * 100;
	char guid[NTTRACE_GUID_STRING], *line = NULL, *body = NULL, *name = NULL;
	size_t len = 0, blen = 0;
	FILE *f, *b;

	if (!rec || n_want == MAX_EVENTS)	/* the file's header event */
		return;
	b = open_memstream(&body, &blen);
	if (eh->Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE) {
		name = strdup("TraceMessage");
		bytes(b, "data", er->UserData, er->UserDataLength);
	} else if (tdh_fields(b, er, &name)) {
		;
	} else if (eh->Flags & EVENT_HEADER_FLAG_STRING_ONLY) {
		name = strdup("EventWriteString");
		fputs(" text=\"hello\"", b);
	} else {
		const struct nttrace_kernel_group *g = rec->system ?
						       nttrace_kernel_group(rec->hook_id) : NULL;

		name = malloc(64);
		snprintf(name, 64, "%s%s", rec->system ? "Kernel/" : "",
			 rec->system ? g->name : eh->Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER ?
			 "TraceEvent" : "EventWrite");
		bytes(b, "data", er->UserData, er->UserDataLength);
	}
	fclose(b);
	nttrace_guid_string((const uint8_t *)&eh->ProviderId, guid);
	f = open_memstream(&line, &len);
	fprintf(f, "%" PRIu64 ".%09" PRIu64 " cpu_id=%u %s: provider=\"%s\" pid=%u tid=%u id=%u"
		" version=%u channel=%u level=%u opcode=%u task=%u keyword=0x%" PRIX64
		" lost_before=%u |%s", ns / 1000000000, ns % 1000000000,
		er->BufferContext.ProcessorIndex, name, guid, eh->ProcessId, eh->ThreadId, d->Id,
		d->Version, d->Channel, d->Level, d->Opcode, d->Task, (uint64_t)d->Keyword,
		rec->lost ? 1 : 0, body);
	fclose(f);
	want[n_want++] = line;
	free(body);
	free(name);
}

static int read_file(const char *path)
{
	EVENT_TRACE_LOGFILEA lf;
	TRACEHANDLE h;
	ULONG err;

	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_event;
	h = OpenTraceA(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE)
		return 0;
	err = ProcessTrace(&h, 1, NULL, NULL);
	CloseTrace(h);
	return err == ERROR_SUCCESS;
}

/* ---- what babeltrace2 prints ---- */

/*
 * One value of babeltrace2's text at *@p into @f, in the form the
 * expected lines have: strings quoted as printed, numbers bare, arrays
 * "[ [0] = 1, [1] = 2 ]" as "[1,2]".
 */
static void parse_value(const char **p, FILE *f)
{
	const char *s = *p;

	if (*s == '"') {
		fputc(*s++, f);
		while (*s && *s != '"') {
			if (*s == '\\' && s[1])
				fputc(*s++, f);
			fputc(*s++, f);
		}
		if (*s)
			fputc(*s++, f);
	} else if (*s == '[') {
		int first = 1;

		fputc('[', f);
		s++;
		while (*s == ' ' || *s == ',')
			s++;
		while (*s == '[') {
			s = strstr(s, "= ");
			if (!s)
				break;
			s += 2;
			if (!first)
				fputc(',', f);
			first = 0;
			parse_value(&s, f);
			while (*s == ' ' || *s == ',')
				s++;
		}
		if (s && *s == ']')
			s++;
		fputc(']', f);
	} else {
		while (*s && *s != ',' && *s != ' ' && *s != '}')
			fputc(*s++, f);
	}
	*p = s;
}

/* "{ a = 1, b = "x" }" at *@p as " a=1 b="x"" (an empty array's size only). */
static int parse_group(const char **p, FILE *f)
{
	const char *s = *p;

	while (*s == ' ' || *s == ',')
		s++;
	if (*s != '{')
		return 0;
	s++;
	for (;;) {
		const char *eq;

		while (*s == ' ' || *s == ',')
			s++;
		if (*s == '}' || !*s)
			break;
		eq = strstr(s, " = ");
		if (!eq)
			return 0;
		if (!strncmp(eq + 3, "[ ]", 3)) {
			s = eq + 6;	/* as bytes() writes an empty array: not at all */
			continue;
		}
		fputc(' ', f);
		fwrite(s, 1, eq - s, f);
		fputc('=', f);
		s = eq + 3;
		parse_value(&s, f);
	}
	*p = *s ? s + 1 : s;
	return 1;
}

static int parse_line(const char *l, char **out)
{
	const char *s = l, *name_end;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (*s++ != '[')
		return 0;
	f = open_memstream(&text, &len);
	while (*s && *s != ']')
		fputc(*s++, f);
	s = strstr(s, ") ");
	name_end = s ? strstr(s, ": {") : NULL;
	if (!name_end) {
		fclose(f);
		free(text);
		return 0;
	}
	s += 2;
	/* "{ cpu_id = N }", then the context's group, then the fields' (if any). */
	{
		const char *g = name_end + 1;
		char *cpu = NULL, *name = strndup(s, name_end - s);
		size_t cl = 0;
		FILE *c = open_memstream(&cpu, &cl);

		parse_group(&g, c);
		fclose(c);
		fprintf(f, " %s %s:", cpu + 1, name);
		free(cpu);
		free(name);
		parse_group(&g, f);
		fputs(" |", f);
		parse_group(&g, f);
	}
	fclose(f);
	*out = text;
	return 1;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check(const char *tool, const char *dir, const char *file, const char *opts,
		  const char *what)
{
	char cmd[LINE], line[LINE], err[LINE];
	unsigned int i, same = 0, n_err = 0;
	FILE *p, *e;
	int st;

	n_want = n_got = 0;
	tap_ok(read_file(file), "%s: ProcessTrace reads it", what);
	snprintf(cmd, sizeof(cmd), "rm -rf %s && %s convert --to ctf %s %s %s 2>&1", dir, tool, opts,
		 dir, file);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p))
		printf("# %s", line);
	st = p ? pclose(p) : -1;
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: nttrace convert --to ctf", what);
	snprintf(cmd, sizeof(cmd), "babeltrace2 --clock-seconds %s 2>%s.err", dir, dir);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p) && n_got < MAX_EVENTS) {
		line[strcspn(line, "\n")] = 0;
		if (!parse_line(line, &got[n_got])) {
			printf("# babeltrace2: %s\n", line);
			continue;
		}
		n_got++;
	}
	st = p ? pclose(p) : -1;
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: babeltrace2 reads it", what);
	snprintf(err, sizeof(err), "%s.err", dir);
	e = fopen(err, "r");
	while (e && fgets(line, sizeof(line), e)) {
		printf("# babeltrace2 said: %s", line);
		n_err++;
	}
	if (e)
		fclose(e);
	tap_eq(n_err, 0, "%s: babeltrace2 says nothing on stderr", what);
	tap_eq(n_got, n_want, "%s: every event (%u)", what, n_want);
	qsort(want, n_want, sizeof(*want), by_text);
	qsort(got, n_got, sizeof(*got), by_text);
	for (i = 0; i < n_want && i < n_got; i++) {
		if (!strcmp(want[i], got[i])) {
			same++;
			continue;
		}
		printf("# want %s\n#  got %s\n", want[i], got[i]);
	}
	tap_eq(same, n_want, "%s: each event's time, CPU, context and fields as TDH decodes them",
	       what);
	for (i = 0; i < n_want; i++)
		free(want[i]);
	for (i = 0; i < n_got; i++)
		free(got[i]);
}

/*
 * MANY TraceLogging event names, each written twice (all of them, then all
 * again), so that convert's table of classes grows several times and every
 * second lookup must find a class made before a growth: MANY classes.
 */
#define MANY	5000

static void many_classes(const char *tool, const char *dir, const char *file)
{
	EVENT_DESCRIPTOR d = { .Level = 5, .Channel = 11 };
	char cmd[3 * 4200 + 64], line[LINE];
	unsigned int i, events = 0, classes = 0;
	TRACEHANDLE h = 0;
	struct props pr;
	FILE *p;
	int st;

	props_init(&pr, file, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (!tap_eq(StartTraceA(&h, "ctf-many", &pr.p), ERROR_SUCCESS, "many classes: a logger"))
		return;
	tap_eq(TraceLoggingRegister(ctf_provider), 0, "... TraceLoggingRegister");
	tap_eq(EnableTraceEx2(h, &tl_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
	       ERROR_SUCCESS, "... enabled");
	for (i = 0; i < 2 * MANY; i++) {
		/* The event's metadata: size, no tags, "eN", then field "v", INT32. */
		uint8_t meta[32];
		int32_t v = (int32_t)i;
		EVENT_DATA_DESCRIPTOR dd[3];
		int n = snprintf((char *)meta + 3, sizeof(meta) - 3, "e%u", i % MANY) + 1;

		meta[2] = 0;
		memcpy(meta + 3 + n, "v", 2);
		meta[3 + n + 2] = 7;	/* TlgInINT32 */
		n += 3 + 3;
		meta[0] = (uint8_t)n;
		meta[1] = (uint8_t)(n >> 8);
		nttrace_tl_desc_typed(&dd[1], meta, n, EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA);
		EventDataDescCreate(&dd[2], &v, sizeof(v));
		if (nttrace_tl_write(ctf_provider, &d, NULL, NULL, 3, dd) != ERROR_SUCCESS)
			break;
	}
	tap_eq(i, 2 * MANY, "... %u events written", 2 * MANY);
	TraceLoggingUnregister(ctf_provider);
	tap_eq(ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS, "... stop");
	snprintf(cmd, sizeof(cmd), "rm -rf %s && %s convert --to ctf %s %s 2>&1", dir, tool, dir,
		 file);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p))
		if (sscanf(line, "nttrace: %u events in %u classes", &events, &classes) != 2)
			printf("# %s", line);
	st = p ? pclose(p) : -1;
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "... nttrace convert --to ctf");
	tap_eq(events, 2 * MANY, "... every event converted");
	tap_eq(classes, MANY, "... one class a name, found again after the table grew");
}

/* @path's mode bits, or -1 (lstat: a link is not followed). */
static int mode_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) ? -1 : (int)(st.st_mode & 07777);
}

/*
 * The trace's directory 0700 and its files 0600, whatever the umask; a
 * symbolic link at DIR refused, nothing written where it points.
 */
static void check_modes(const char *tool, const char *dir, const char *file)
{
	char cmd[6 * 4200 + LINE], path[4200 + 16], link[4200], target[4200];
	mode_t old = umask(0);
	int st;

	snprintf(cmd, sizeof(cmd), "rm -rf %s && %s convert --to ctf %s %s >/dev/null 2>&1", dir,
		 tool, dir, file);
	st = system(cmd);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "convert with umask 0");
	tap_eq(mode_of(dir), 0700, "... its directory is 0700");
	snprintf(path, sizeof(path), "%s/metadata", dir);
	tap_eq(mode_of(path), 0600, "... its metadata 0600");
	for (st = 0; st < 4; st++) {
		snprintf(path, sizeof(path), "%s/channel0_%d", dir, st);
		if (mode_of(path) != -1)
			break;
	}
	tap_eq(mode_of(path), 0600, "... its streams 0600");
	umask(old);
	snprintf(link, sizeof(link), "%s-link", dir);
	snprintf(target, sizeof(target), "%s-target", dir);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s && mkdir %s && ln -s %s %s && "
		 "%s convert --to ctf %s %s 2>&1 | grep -q 'a symbolic link'", link, target, target,
		 target, link, tool, link, file);
	st = system(cmd);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "convert into a symbolic link: refused, said");
	snprintf(path, sizeof(path), "%s/metadata", target);
	tap_eq(mode_of(path), -1, "... nothing written where it points");
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", link, target);
	if (system(cmd))
		tap_ok(0, "%s", cmd);
}

int main(int argc, char **argv)
{
	char file[200], kfile[200], dir[4096], opts[4096];
	int st;

	if (argc != 4) {
		fprintf(stderr, "usage: ctf_test NTTRACE DIR MANIFEST\n");
		return 2;
	}
	st = system("babeltrace2 --version >/dev/null 2>&1");
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("1..0 # SKIP babeltrace2 is not installed (scripts/deps installs it)\n");
		return 0;
	}
	snprintf(file, sizeof(file), "%s/ctf-user.etl", argv[2]);
	snprintf(kfile, sizeof(kfile), "%s/ctf-kernel.etl", argv[2]);
	user_file(file);
	kernel_file(kfile);
	/* TDH here knows the manifest too, as convert does with --manifest. */
	{
		WCHAR w[4096];
		size_t i;

		for (i = 0; argv[3][i] && i < 4095; i++)
			w[i] = (WCHAR)argv[3][i];
		w[i] = 0;
		tap_eq(TdhLoadManifest(w), ERROR_SUCCESS, "TdhLoadManifest");
	}
	snprintf(dir, sizeof(dir), "%s/ctf-user", argv[2]);
	snprintf(opts, sizeof(opts), "--manifest %s", argv[3]);
	check(argv[1], dir, file, opts, "user-mode logger's file");
	snprintf(dir, sizeof(dir), "%s/ctf-kernel", argv[2]);
	check(argv[1], dir, kfile, "", "kernel records' file");
	check_modes(argv[1], dir, kfile);
	snprintf(file, sizeof(file), "%s/ctf-many.etl", argv[2]);
	snprintf(dir, sizeof(dir), "%s/ctf-many", argv[2]);
	many_classes(argv[1], dir, file);
	return tap_done();
}
