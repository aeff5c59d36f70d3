// SPDX-License-Identifier: GPL-2.0
/*
 * Makes the seed corpus of the libFuzzer harnesses (tests/fuzz/corpus/),
 * with the library itself: `scripts/fuzz-lib --make-corpus` builds this
 * against build/u64/libnttrace.a and runs it as `mkcorpus DIR`, DIR
 * holding one directory per target. It writes:
 *
 *   etl_fuzz/umlogger.etl        the user-mode logger (4 KB buffers, the
 *                                smallest it takes): WPP-style messages of
 *                                every argument type, TraceMessage
 *                                with a component ID and no flags, and
 *                                TraceEvent full-header records (inline
 *                                data; MOF items, GuidPtr, a time stamp)
 *   etl_fuzz/two-cpus.etl        nttrace_logfile_* with 1 KB buffers: two
 *                                CPUs' streams to merge, a buffer flagged
 *                                EVENTS_LOST, QPC clock, 64-bit header
 *   etl_fuzz/systime-ptr32.etl   the same with the system clock and the
 *                                32-bit header layout
 *   etl_fuzz/no-header.etl       128-byte data buffers, no header buffer
 *   etl_fuzz/eventwrite.etl      nttrace_logfile_* with 1 KB buffers: EventWrite
 *                                (EVENT_HEADER) records on three CPUs, 32-
 *                                and 64-bit, 0 to 3 extended items (the
 *                                related activity ID first), EventWriteString
 *                                text, one malformed item chain
 *   tmf_load_fuzz/formats.tmf    this program's formats as `nttrace
 *                                formats` writes them, a quoted path, an
 *                                old unquoted Windows path, a comment
 *   tmf_render_fuzz/event-N      each message of umlogger.etl with its
 *                                format, as tmf_render_fuzz.c reads them
 *   opentrace_fuzz/*.etl         the etl_fuzz files above, and
 *                                instance.etl: the user-mode logger's
 *                                TraceEventInstance records (with and
 *                                without a parent), a TraceEvent and
 *                                EventWrite/EventWriteTransfer records
 *   etl_fuzz/win-*.etl,          the files laid out as Windows writes
 *   opentrace_fuzz/win-*.etl     them (winetl.h: kernel records of every
 *                                header type, 32-bit, compressed, circular,
 *                                the three clocks)
 *   xpress_fuzz/buffer-N         the compressed buffers of win-compressed.etl
 *                                (room, then data; xpress_fuzz.c), and
 *   xpress_fuzz/lengths-N        each length encoding's edge
 *   opentrace_fuzz/changes.etl   umlogger.etl (4 KB buffers), "NTFZ-2ND",
 *                                then two-cpus.etl (1 KB): the second
 *                                file is what opentrace_fuzz.c turns the
 *                                first into between two ProcessTraces
 *
 * The ELF seeds (tmf_load_fuzz/wpp64.o, wpp32.o) are this file compiled
 * with -c, 64- and 32-bit, cut down to its "nttrace_wpp" section by
 * objcopy: scripts/fuzz-lib does that part.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/etl.h>
#include <nttrace/tmf.h>
#include <nttrace/wpp.h>
#include "../../userlib/internal.h"
#include "expect.h"
#include "files.h"
#include "winetl.h"

struct props {
	EVENT_TRACE_PROPERTIES p;
	char logger_name[64];
	char log_file[256];
};

static const char *dir;

static void path_of(char *out, size_t size, const char *name)
{
	snprintf(out, size, "%s/%s", dir, name);
}

/* TraceEvent's full-header records: inline data, then MOF items. */
static void classic_events(TRACEHANDLE h)
{
	static const GUID g = { 0x1234abcd, 0x1, 0x2, { 3, 4, 5, 6, 7, 8, 9, 10 } };
	struct {
		EVENT_TRACE_HEADER h;
		uint32_t data[3];
	} in;
	struct {
		EVENT_TRACE_HEADER h;
		MOF_FIELD mof[2];
	} mof;
	static const char text[] = "mof item";
	uint64_t n = 7;

	memset(&in, 0, sizeof(in));
	in.h.Size = sizeof(in);
	in.h.Flags = WNODE_FLAG_TRACED_GUID;
	in.h.Guid = g;
	in.h.Class.Type = 1;
	in.h.Class.Level = 4;
	in.data[0] = 0xdeadbeef;
	TraceEvent(h, &in.h);

	memset(&mof, 0, sizeof(mof));
	mof.h.Size = sizeof(mof);
	mof.h.Flags = WNODE_FLAG_TRACED_GUID | WNODE_FLAG_USE_MOF_PTR |
		      WNODE_FLAG_USE_GUID_PTR | WNODE_FLAG_USE_TIMESTAMP;
	mof.h.GuidPtr = (ULONGLONG)(uintptr_t)&g;
	mof.h.TimeStamp.QuadPart = 12345;
	mof.h.Class.Type = 2;
	mof.mof[0].DataPtr = (ULONGLONG)(uintptr_t)&n;
	mof.mof[0].Length = sizeof(n);
	mof.mof[1].DataPtr = (ULONGLONG)(uintptr_t)text;
	mof.mof[1].Length = sizeof(text);
	TraceEvent(h, &mof.h);
}

static int umlogger_file(const char *etl)
{
	struct props pr, st;
	TRACEHANDLE h;
	const char *name = "fuzz";
	double d = -1.25e-3;
	long long ll = -(1LL << 40);
	unsigned short us = 65535;
	void *p = &pr;
	int i;

	memset(&pr, 0, sizeof(pr));
	pr.p.Wnode.BufferSize = sizeof(pr);
	pr.p.LogFileMode = EVENT_TRACE_PRIVATE_LOGGER_MODE;
	pr.p.BufferSize = 4;
	pr.p.MaximumBuffers = 2;
	pr.p.LoggerNameOffset = offsetof(struct props, logger_name);
	pr.p.LogFileNameOffset = offsetof(struct props, log_file);
	snprintf(pr.log_file, sizeof(pr.log_file), "%s", etl);
	if (StartTraceA(&h, "nttrace-mkcorpus", &pr.p)) {
		fprintf(stderr, "mkcorpus: StartTrace failed\n");
		return -1;
	}
	DoTraceMessage(h, "started %s, pid %d", name, (int)getpid());
	DoTraceMessage(h, "[%*d] [%-*.*s] [%.*f]", 5, 42, 8, 3, name, 2, d);
	DoTraceMessage(h, "%lld %llx %hu %c%c", ll, (unsigned long long)ll, us, 'o', 'k');
	DoTraceMessage(h, "%p %#o %e %g %%", p, 8, d, 0.5f);
	for (i = 0; i < 3; i++)
		DoTraceMessage(h, "step %u of %zu: %5.1f%%", i, (size_t)3, 100.0 * i / 3);
	TraceMessage(h, TRACE_MESSAGE_COMPONENTID | TRACE_MESSAGE_SEQUENCE, NULL, 7,
		     "component", (size_t)10, NULL);
	TraceMessage(h, 0, NULL, 8, NULL);
	classic_events(h);
	memset(&st, 0, sizeof(st));
	st.p.Wnode.BufferSize = sizeof(st);
	st.p.LoggerNameOffset = offsetof(struct props, logger_name);
	return StopTraceA(h, NULL, &st.p) ? -1 : 0;
}

/* A data buffer of @size: @n message records with time stamps from @ts. */
static void data_buffer(uint8_t *b, uint32_t size, unsigned int cpu, uint64_t seq,
			uint64_t ctf, uint16_t flags, unsigned int n, uint64_t ts)
{
	uint8_t payload[24];
	uint32_t at = 0x48, i;

	memset(b, 0xFF, size);
	memset(b, 0, 0x48);
	for (i = 0; i < n; i++) {
		struct expect e;
		uint32_t len;

		memset(&e, 0, sizeof(e));
		e.number = 10 + i;
		e.flags = TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_TIMESTAMP |
			  TRACE_MESSAGE_SYSTEMINFO;
		e.seq = seq * 100 + i;
		e.ts = ts + i * 1000;
		e.tid = 100 + cpu;
		e.pid = 100;
		memset(payload, 'a' + i, sizeof(payload));
		payload[i % sizeof(payload)] = 0;
		e.data = payload;
		e.len = 4 + i % 20;
		if (at + 64 > size)
			break;
		len = expect_encode(&e, b + at);
		memset(b + at + len, 0, ((len + 7) & ~7u) - len);
		at += (len + 7) & ~7u;
	}
	expect_buffer_header(b, size, at, ts, seq, ctf, cpu, flags);
}

/* Buffers of two CPUs through the library's log file writer. */
static int logfile(const char *path, uint32_t clock, uint32_t psz)
{
	struct nttrace_etl_session s;
	struct nttrace_logfile lf;
	uint64_t start = clock == NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME ?
			 NTTRACE_FILETIME_UNIX_EPOCH + 10000000ULL * 1700000000 : 5000;
	uint64_t freq = clock == NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME ? 10000000 : 1000000000;
	uint8_t b[1024];
	unsigned int k;

	memset(&s, 0, sizeof(s));
	s.buffer_size = sizeof(b);
	s.nr_cpus = 2;
	s.pointer_size = psz;
	s.clock_type = clock;
	s.frequency = freq;
	s.start_clock = start;
	s.start_time = NTTRACE_FILETIME_UNIX_EPOCH + 10000000ULL * 1700000000;
	s.boot_time = s.start_time - 10000000ULL * 3600;
	strcpy(s.name, "two-cpus");
	if (nttrace_logfile_open(&lf, path, &s))
		return -1;
	for (k = 0; k < 4; k++) {
		data_buffer(b, sizeof(b), k & 1, k + 1, freq << 3 | clock,
			    NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER |
				    (k == 2 ? NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST : 0),
			    3 + k, start + k * 10000);
		put_le(b + 0x38, start, 8);
		if (nttrace_logfile_buffer(&lf, b, sizeof(b), k & 1))
			return -1;
	}
	return nttrace_logfile_close(&lf, 5, 1);
}

static void no_header(const char *path)
{
	uint8_t b[4 * 128];
	unsigned int k;

	for (k = 0; k < 4; k++)
		data_buffer(b + 128 * k, 128, k % 3, k, 1, NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER, 1,
			    k * 10);
	spew(path, b, sizeof(b));
}

/*
 * One EventWrite record (EVENT_HEADER, uapi/nttrace.h) at @out, byte by
 * byte: 32- or 64-bit header type and flag, the provider GUID ending in
 * @n, a descriptor from @n, an activity ID, @nitems extended items (the
 * related activity ID first), then @len bytes of @data. @bad: the last
 * item's Linkage says another follows (a malformed chain). Returns the
 * record's size.
 */
static uint32_t event_header_record(uint8_t *out, unsigned int n, int ptr32, uint64_t ts,
				    unsigned int nitems, int bad, uint16_t flags,
				    const uint8_t *data, uint32_t len)
{
	static const uint8_t items[3][12] = {
		{ 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab },
		{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 },
		{ 0x55, 0x66, 0x77 },
	};
	static const uint16_t types[3] = { 1, 0x0B, 0x0D }, sizes[3] = { 16, 12, 3 };
	uint32_t at = 0x50, i;

	memset(out, 0, 0x50);
	out[2] = ptr32 ? 0x12 : 0x13;
	out[3] = 0xC0;
	put_le(out + 0x04, flags | (ptr32 ? 0x20 : 0x40) | 0x10 | (nitems ? 1 : 0), 2);
	put_le(out + 0x08, 1000 + n, 4);
	put_le(out + 0x0C, 77, 4);
	put_le(out + 0x10, ts, 8);
	memset(out + 0x18, 0x3c, 16);
	out[0x18 + 15] = (uint8_t)n;
	put_le(out + 0x28, 100 + n, 2);		/* Id */
	out[0x2A] = 1;				/* Version */
	out[0x2B] = 16;				/* Channel */
	out[0x2C] = (uint8_t)(1 + n % 5);	/* Level */
	out[0x2D] = (uint8_t)(n % 3);		/* Opcode */
	put_le(out + 0x2E, 9, 2);		/* Task */
	put_le(out + 0x30, 1ULL << (n % 64), 8);	/* Keyword */
	memset(out + 0x40, n % 2 ? 0xac : 0, 16);	/* ActivityId */
	for (i = 0; i < nitems && i < 3; i++) {
		uint32_t pad = (sizes[i] + 7) & ~7u;

		put_le(out + at, 8 + pad, 2);
		put_le(out + at + 2, types[i], 2);
		put_le(out + at + 4, i + 1 < nitems || bad, 2);
		put_le(out + at + 6, sizes[i], 2);
		memset(out + at + 8, 0, pad);
		memcpy(out + at + 8, items[i], sizes[i] > 12 ? 12 : sizes[i]);
		at += 8 + pad;
	}
	memcpy(out + at, data, len);
	at += len;
	put_le(out, at, 2);
	return at;
}

/*
 * EventWrite records in three CPUs' 1 KB buffers, through the library's
 * log file writer: 32- and 64-bit headers, 0 to 3 extended items,
 * EventWriteString's UTF-16 text, and one malformed item chain.
 */
static int eventwrite_file(const char *path)
{
	static const uint8_t wstr[] = { 'h', 0, 'i', 0, 0xE9, 0, 0x3D, 0xD8, 0x00, 0xDE, 0, 0 };
	static const uint8_t bytes[24] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
					   16, 17, 18, 19, 20, 21, 22, 23, 24 };
	struct nttrace_etl_session s;
	struct nttrace_logfile lf;
	uint8_t b[1024];
	unsigned int k, i;

	memset(&s, 0, sizeof(s));
	s.buffer_size = sizeof(b);
	s.nr_cpus = 3;
	s.pointer_size = 8;
	s.clock_type = NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER;
	s.frequency = 1000000000;
	s.start_clock = 5000;
	s.start_time = NTTRACE_FILETIME_UNIX_EPOCH + 10000000ULL * 1700000000;
	s.boot_time = s.start_time - 10000000ULL * 3600;
	strcpy(s.name, "eventwrite");
	if (nttrace_logfile_open(&lf, path, &s))
		return -1;
	for (k = 0; k < 3; k++) {
		uint32_t at = 0x48;

		memset(b, 0xFF, sizeof(b));
		memset(b, 0, 0x48);
		for (i = 0; i < 4; i++) {
			unsigned int n = k * 4 + i;
			int str = n % 4 == 1;
			uint32_t len;

			memset(b + at, 0, 0x100);
			len = event_header_record(b + at, n, n % 2, 5000 + 1000 * i + 10 * k,
						  n % 4, n == 7, str ? 0x0004 : 0,
						  str ? wstr : bytes, str ? sizeof(wstr) : n % 24);
			at += (len + 7) & ~7u;
		}
		expect_buffer_header(b, sizeof(b), at, 5000, k + 1, 1000000000ULL << 3 | 1, k,
				     NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER);
		put_le(b + 0x38, 5000, 8);
		if (nttrace_logfile_buffer(&lf, b, sizeof(b), k))
			return -1;
	}
	return nttrace_logfile_close(&lf, 0, 0);
}

static int format_file(const char *path)
{
	struct nttrace_tmf t = { 0 };
	char line[1024];
	size_t i;
	FILE *f;

	if (nttrace_tmf_load(&t, "/proc/self/exe", NULL, NULL) <= 0)
		return -1;
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# nttrace message formats: GUID NUMBER POINTER_SIZE TYPES FILE:LINE "
		"\"FORMAT\"\n");
	for (i = 0; i < t.n; i++) {
		nttrace_tmf_line(&t.v[i], line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	fprintf(f, "6a1b7c2d-3e4f-4a5b-8c9d-0e1f2a3b4c5d 12 4 sip \"my dir/a b.c\":40 "
		"\"%%s %%d at %%p\\n\"\n");
	fprintf(f, "6a1b7c2d-3e4f-4a5b-8c9d-0e1f2a3b4c5d 13 8 - C:\\src\\old.c:7 "
		"\"tab\\there \\x41\\\\ \\\"q\\\"\"\n");
	fclose(f);
	nttrace_tmf_free(&t);
	return 0;
}

/* Each message of @etl with its format, as tmf_render_fuzz.c takes them. */
static int render_inputs(const char *etl)
{
	struct nttrace_tmf t = { 0 };
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	unsigned int n = 0;
	uint8_t *in;

	if (nttrace_tmf_load(&t, "/proc/self/exe", NULL, NULL) <= 0 ||
	    nttrace_etl_open(&r, etl, NULL, NULL))
		return -1;
	in = malloc(65536);
	while (nttrace_etl_next(r, &ev)) {
		const struct nttrace_tmf_format *f;
		char path[512], name[32];
		size_t len = 3, k;

		if (!ev.message || ev.guid_len != 16)
			continue;
		f = nttrace_tmf_find(&t, ev.guid, ev.number, 8);
		if (!f)
			continue;
		/* Event pointer size 8 (2), format's 8 (1); 4096 bytes, or 40. */
		in[0] = 2 | 1 << 2;
		put_le(in + 1, n % 3 == 2 ? 40 : 4096, 2);
		k = strlen(f->types) + 1;
		memcpy(in + len, f->types, k);
		len += k;
		k = strlen(f->file) + 1;
		memcpy(in + len, f->file, k);
		len += k;
		k = strlen(f->format) + 1;
		memcpy(in + len, f->format, k);
		len += k;
		memcpy(in + len, ev.data, ev.data_len);
		len += ev.data_len;
		snprintf(name, sizeof(name), "tmf_render_fuzz/event-%u", n++);
		path_of(path, sizeof(path), name);
		spew(path, in, len);
	}
	free(in);
	nttrace_etl_close(r);
	nttrace_tmf_free(&t);
	return n ? 0 : -1;
}

/*
 * The user-mode logger's instance records (TraceEventInstance: one with a
 * parent, one without), a full-header record, and EventWrite records (one
 * with a related activity ID item) in 4 KB buffers.
 */
static int instance_file(const char *etl)
{
	static const GUID cls = { 0x0e7c0002, 0x3333, 0x4444, { 8, 7, 6, 5, 4, 3, 2, 1 } };
	static const GUID parent = { 0x0e7c0003, 0x5555, 0x6666, { 9, 9, 9, 9, 9, 9, 9, 9 } };
	static const GUID prov = { 0x0e7c0004, 0x7777, 0x8888, { 10, 11, 12, 13, 1, 2, 3, 4 } };
	static const EVENT_DESCRIPTOR desc = { 42, 3, 16, 4, 11, 300, 0x5 };
	static const uint8_t bytes[] = { 0x10, 0x20, 0x30, 0x40, 0x50 };
	HANDLE reg_cls, reg_parent;
	EVENT_INSTANCE_INFO inst, par;
	EVENT_DATA_DESCRIPTOR dd[2];
	struct {
		EVENT_INSTANCE_HEADER h;
		uint8_t data[3];
	} ie;
	struct props pr, st;
	TRACEHANDLE h;
	REGHANDLE rh = 0;
	GUID act, rel;
	int i;

	memset(&pr, 0, sizeof(pr));
	pr.p.Wnode.BufferSize = sizeof(pr);
	pr.p.LogFileMode = EVENT_TRACE_PRIVATE_LOGGER_MODE;
	pr.p.BufferSize = 4;
	pr.p.MaximumBuffers = 2;
	pr.p.LoggerNameOffset = offsetof(struct props, logger_name);
	pr.p.LogFileNameOffset = offsetof(struct props, log_file);
	snprintf(pr.log_file, sizeof(pr.log_file), "%s", etl);
	if (StartTraceA(&h, "nttrace-mkcorpus-inst", &pr.p))
		return -1;
	if (nttrace_class_add(&cls, &reg_cls) || nttrace_class_add(&parent, &reg_parent) ||
	    CreateTraceInstanceId(reg_cls, &inst) || CreateTraceInstanceId(reg_parent, &par))
		return -1;
	for (i = 0; i < 2; i++) {
		memset(&ie, 0, sizeof(ie));
		ie.h.Size = sizeof(ie);
		ie.h.Flags = WNODE_FLAG_TRACED_GUID;
		ie.h.Class.Type = i ? EVENT_TRACE_TYPE_END : EVENT_TRACE_TYPE_START;
		ie.h.Class.Level = 2;
		ie.h.Class.Version = 0x0107;
		memset(ie.data, 0xAA + i, sizeof(ie.data));
		if (TraceEventInstance(h, &ie.h, &inst, i ? &par : NULL))
			return -1;
	}
	classic_events(h);
	if (EventRegister(&prov, NULL, NULL, &rh) ||
	    EnableTraceEx2(h, &prov, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0xFF, 0, 0, NULL))
		return -1;
	EventDataDescCreate(&dd[0], bytes, 3);
	EventDataDescCreate(&dd[1], bytes + 3, 2);
	EventWrite(rh, &desc, 2, dd);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &act);
	EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &rel);
	EventWriteTransfer(rh, &desc, &act, &rel, 1, dd);
	memset(&st, 0, sizeof(st));
	st.p.Wnode.BufferSize = sizeof(st);
	st.p.LoggerNameOffset = offsetof(struct props, logger_name);
	if (StopTraceA(h, NULL, &st.p))
		return -1;
	EventUnregister(rh);
	return 0;
}

/* The opentrace_fuzz seeds: the ETL seeds, instance.etl, changes.etl. */
static int opentrace_inputs(void)
{
	static const char *const etl[] = { "umlogger.etl", "two-cpus.etl",
					   "systime-ptr32.etl", "no-header.etl",
					   "eventwrite.etl" };
	char from[512], to[512], name[64];
	uint8_t *a, *b, *c;
	size_t i, na, nb;

	for (i = 0; i < sizeof(etl) / sizeof(etl[0]); i++) {
		snprintf(name, sizeof(name), "etl_fuzz/%s", etl[i]);
		path_of(from, sizeof(from), name);
		snprintf(name, sizeof(name), "opentrace_fuzz/%s", etl[i]);
		path_of(to, sizeof(to), name);
		a = slurp(from, &na);
		if (!a || !na)
			return -1;
		spew(to, a, na);
		free(a);
	}
	path_of(to, sizeof(to), "opentrace_fuzz/instance.etl");
	if (instance_file(to))
		return -1;
	path_of(from, sizeof(from), "etl_fuzz/umlogger.etl");
	a = slurp(from, &na);
	path_of(from, sizeof(from), "etl_fuzz/two-cpus.etl");
	b = slurp(from, &nb);
	c = malloc(na + 8 + nb);
	if (!a || !b || !c)
		return -1;
	memcpy(c, a, na);
	memcpy(c + na, "NTFZ-2ND", 8);
	memcpy(c + na + 8, b, nb);
	path_of(to, sizeof(to), "opentrace_fuzz/changes.etl");
	spew(to, c, na + 8 + nb);
	free(a);
	free(b);
	free(c);
	return 0;
}

/*
 * The Windows-layout files of winetl.h, into etl_fuzz/ and opentrace_fuzz/
 * (win-KIND.etl), and each compressed buffer of the compressed one into
 * xpress_fuzz/ (its room, two bytes, then its data), with the length
 * encodings' edge cases: a nibble pair, a byte, a 16-bit and a 32-bit
 * length, an empty input.
 */
static void windows_files(void)
{
	static const uint8_t edges[][16] = {
		/* room 64; flags: 1 literal then matches; "a", match 7+15+... */
		{ 64, 0, 0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0xFF, 0x07, 0x00 },
		{ 255, 0, 0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x0F, 200 },
		{ 0, 1, 0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x0F, 255, 0x00, 0x01 },
		{ 0, 2, 0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x0F, 255, 0, 0, 0x00, 0x02, 0, },
		{ 16, 0 },
	};
	static const size_t edge_len[] = { 12, 11, 13, 16, 2 };
	char path[512], name[64];
	struct wfile w;
	unsigned int k, i, n = 0;

	for (k = 0; k < WF_KINDS; k++) {
		wf_build(&w, k);
		snprintf(name, sizeof(name), "etl_fuzz/win-%s.etl", wkind_name[k]);
		path_of(path, sizeof(path), name);
		spew(path, w.b, w.len);
		snprintf(name, sizeof(name), "opentrace_fuzz/win-%s.etl", wkind_name[k]);
		path_of(path, sizeof(path), name);
		spew(path, w.b, w.len);
		for (i = 0x400; k == WF_COMPRESSED && i + 0x48 <= w.len; i += get_le(w.b + i, 4)) {
			uint32_t disk = get_le(w.b + i, 4);
			uint8_t *z;

			if (!(get_le(w.b + i + 0x34, 2) & 0x40))
				continue;
			z = malloc(disk - 0x48 + 2);
			put_le(z, get_le(w.b + i + 4, 4) - 0x48, 2);
			memcpy(z + 2, w.b + i + 0x48, disk - 0x48);
			snprintf(name, sizeof(name), "xpress_fuzz/buffer-%u", n++);
			path_of(path, sizeof(path), name);
			spew(path, z, disk - 0x48 + 2);
			free(z);
		}
		free(w.b);
	}
	for (k = 0; k < sizeof(edge_len) / sizeof(edge_len[0]); k++) {
		snprintf(name, sizeof(name), "xpress_fuzz/lengths-%u", k);
		path_of(path, sizeof(path), name);
		spew(path, edges[k], edge_len[k]);
	}
}

int main(int argc, char **argv)
{
	char etl[512], path[512];

	if (argc != 2) {
		fprintf(stderr, "usage: mkcorpus DIR\n");
		return 2;
	}
	dir = argv[1];
	path_of(etl, sizeof(etl), "etl_fuzz/umlogger.etl");
	if (umlogger_file(etl))
		return 1;
	path_of(path, sizeof(path), "etl_fuzz/two-cpus.etl");
	if (logfile(path, NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER, 8))
		return 1;
	path_of(path, sizeof(path), "etl_fuzz/systime-ptr32.etl");
	if (logfile(path, NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME, 4))
		return 1;
	path_of(path, sizeof(path), "etl_fuzz/no-header.etl");
	no_header(path);
	path_of(path, sizeof(path), "etl_fuzz/eventwrite.etl");
	if (eventwrite_file(path))
		return 1;
	path_of(path, sizeof(path), "tmf_load_fuzz/formats.tmf");
	if (format_file(path) || render_inputs(etl))
		return 1;
	if (opentrace_inputs())
		return 1;
	windows_files();
	return 0;
}
