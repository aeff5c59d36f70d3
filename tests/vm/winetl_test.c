// SPDX-License-Identifier: GPL-2.0
/*
 * Files laid out as Windows writes them (tests/fuzz/winetl.h builds them
 * byte by byte from the documented layouts), read back through OpenTrace
 * and ProcessTrace and compared field by field with what the builder
 * noted: the kernel's full, compact and perfinfo records (group GUID,
 * opcode, version, IDs, CPU times, PEBS and PMC items), buffer 0's records
 * after the header event, 64- and 32-bit files, compressed files, a
 * circular file, the three clocks' times (FILETIME as Windows' consumers
 * compute it, the raw value with PROCESS_TRACE_MODE_RAW_TIMESTAMP,
 * StartTime and EndTime filtering by it), and what ProcessTrace cannot
 * deliver counted and said (nttrace_trace_counts). Runs on the host (64-bit)
 * and in the VM (64- and 32-bit): both pointer sizes of consumer read both
 * pointer sizes of file. `winetl_test --write KIND PATH` writes the file of
 * a kind (winetl.h's names) for tests/vm/show_test.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/consumer.h>
#include <nttrace/evntcons.h>
#include <nttrace/evntrace.h>
#include "../fuzz/winetl.h"
#include "files.h"
#include "harness.h"

#define BITS ((int)(8 * sizeof(void *)))
#define MAXGOT 64

struct got {
	EVENT_HEADER eh;
	uint16_t cpu;
	uint32_t len;
	uint8_t data[1300];
	unsigned int nitems;
	uint16_t type[2], size[2];
	uint64_t item[2][2];
};

static struct got got[MAXGOT];
static unsigned int ngot, nheader, problems;
static WCHAR name0;
static char path[64];

static void WINAPI on_event(PEVENT_RECORD er)
{
	struct got *g;
	unsigned int i;

	if (IsEqualGUID(&er->EventHeader.ProviderId, &EventTraceGuid) &&
	    er->EventHeader.EventDescriptor.Opcode == EVENT_TRACE_TYPE_INFO &&
	    !nttrace_current_record()) {
		nheader++;
		return;
	}
	if (ngot == MAXGOT)
		return;
	g = &got[ngot++];
	memset(g, 0, sizeof(*g));
	g->eh = er->EventHeader;
	g->cpu = er->BufferContext.ProcessorIndex;
	g->len = er->UserDataLength;
	if (g->len <= sizeof(g->data))
		memcpy(g->data, er->UserData, g->len);
	g->nitems = er->ExtendedDataCount;
	for (i = 0; i < er->ExtendedDataCount && i < 2; i++) {
		const EVENT_HEADER_EXTENDED_DATA_ITEM *it = &er->ExtendedData[i];

		g->type[i] = it->ExtType;
		g->size[i] = it->DataSize;
		memcpy(g->item[i], (const void *)(uintptr_t)it->DataPtr,
		       it->DataSize < 16 ? it->DataSize : 16);
	}
}

static void on_problem(void *ctx, uint64_t offset, const char *what)
{
	problems++;
	printf("# problem at %llu: %s\n", (unsigned long long)offset, what);
}

/* The FILETIME Windows' consumers give time stamp @ts of a file of @kind. */
static uint64_t want_filetime(enum wkind kind, uint64_t ts)
{
	if (kind == WF_SYSTIME)
		return ts;
	if (kind == WF_CYCLES)
		return WF_START + (ts - WF_HTS) * 10 / WF_MHZ;
	return WF_START + (ts - WF_HTS);	/* QPC at 10 MHz: 100 ns a tick */
}

/* Read @path with @mode and the time window; ProcessTrace's result. */
static ULONG read_file(ULONG mode, FILETIME *start, FILETIME *end,
		       EVENT_TRACE_LOGFILEA *lf, struct nttrace_trace_counts *counts)
{
	TRACEHANDLE h;
	ULONG err;

	ngot = nheader = problems = 0;
	memset(lf, 0, sizeof(*lf));
	lf->LogFileName = path;
	lf->ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD | mode;
	lf->EventRecordCallback = on_event;
	h = OpenTraceA(lf);
	if (h == INVALID_PROCESSTRACE_HANDLE)
		return GetLastError();
	nttrace_trace_problems(h, on_problem, NULL);
	/* The names live until CloseTrace. */
	name0 = lf->LogfileHeader.LoggerName ? lf->LogfileHeader.LoggerName[0] : 0;
	err = ProcessTrace(&h, 1, start, end);
	memset(counts, 0, sizeof(*counts));
	nttrace_trace_counts(h, counts);
	CloseTrace(h);
	return err;
}

/* Every field of event @i as the builder noted it; 1 when all match. */
static int same(const struct wfile *w, const struct wexp *e, const struct got *g, int raw)
{
	const EVENT_HEADER *eh = &g->eh;
	uint64_t ts = raw ? e->ts : want_filetime(w->kind, e->ts);
	unsigned int i, k = 0;
	int ok = 1;

#define CHECK(cond) do { if (!(cond)) { printf("# %s\n", #cond); ok = 0; } } while (0)
	CHECK(!memcmp(&eh->ProviderId, &e->provider, 16));
	CHECK(eh->Flags == (e->flags | EVENT_HEADER_FLAG_PROCESSOR_INDEX));
	CHECK(eh->EventDescriptor.Id == e->id);
	CHECK(eh->EventDescriptor.Opcode == e->opcode);
	CHECK(eh->EventDescriptor.Version == e->version);
	CHECK(eh->EventDescriptor.Level == e->level);
	CHECK(eh->ThreadId == e->tid);
	CHECK(eh->ProcessId == e->pid);
	CHECK((uint64_t)eh->TimeStamp.QuadPart == ts);
	CHECK(g->cpu == e->cpu);
	CHECK(g->len == e->data_len);
	for (i = 0; e->seed && i < e->data_len && i < sizeof(g->data); i++)
		if (g->data[i] != (uint8_t)(e->seed + i))
			break;
	CHECK(!e->seed || i == e->data_len);
	if (!(e->flags & EVENT_HEADER_FLAG_NO_CPUTIME) && e->flags & EVENT_HEADER_FLAG_CLASSIC_HEADER) {
		CHECK(eh->KernelTime == e->ktime);
		CHECK(eh->UserTime == e->utime);
	}
	CHECK(g->nitems == (unsigned int)(!!e->pebs + !!e->npmc));
	if (e->pebs) {
		CHECK(g->type[k] == EVENT_HEADER_EXT_TYPE_PEBS_INDEX && g->size[k] == 8 &&
		      g->item[k][0] == e->pebs_value);
		k++;
	}
	if (e->npmc) {
		CHECK(g->type[k] == EVENT_HEADER_EXT_TYPE_PMC_COUNTERS &&
		      g->size[k] == 8 * e->npmc && g->item[k][0] == e->pmc[0] &&
		      (e->npmc < 2 || g->item[k][1] == e->pmc[1]));
	}
#undef CHECK
	return ok;
}

static void test_kind(enum wkind kind)
{
	const char *name = wkind_name[kind];
	struct nttrace_trace_counts n;
	EVENT_TRACE_LOGFILEA lf;
	FILETIME from, to;
	struct wfile w;
	unsigned int i, bad = 0, first = 0;
	uint64_t t0, t1;
	ULONG err;
	int raw;

	wf_build(&w, kind);
	spew(path, w.b, w.len);
	for (raw = 0; raw < 2; raw++) {
		err = read_file(raw ? PROCESS_TRACE_MODE_RAW_TIMESTAMP : 0, NULL, NULL, &lf, &n);
		tap_eq(err, ERROR_SUCCESS, "%d-bit %s%s: ProcessTrace", BITS, name,
		       raw ? " (raw time stamps)" : "");
		tap_ok(ngot == w.nexp && nheader == 1,
		       "%d-bit %s: the header event, then every event (%u of %u)", BITS, name,
		       ngot, w.nexp);
		for (i = 0; i < ngot && i < w.nexp; i++) {
			if (!same(&w, &w.exp[i], &got[i], raw)) {
				printf("# event %u differs\n", i);
				bad++;
			}
		}
		tap_ok(!bad && ngot == w.nexp,
		       "%d-bit %s: each event's fields%s as written (%u differ)", BITS, name,
		       raw ? ", with the raw time stamp," : " and FILETIME", bad);
		tap_ok(n.events == w.nexp + 1 && n.not_delivered == w.undelivered &&
		       !n.buffers_skipped && !n.bytes_skipped && problems == w.undelivered,
		       "%d-bit %s: counts: %llu events, %llu not delivered (%u expected), "
		       "%llu buffers and %llu bytes skipped, %u problems", BITS, name,
		       (unsigned long long)n.events, (unsigned long long)n.not_delivered,
		       w.undelivered, (unsigned long long)n.buffers_skipped,
		       (unsigned long long)n.bytes_skipped, problems);
	}
	tap_ok(lf.LogfileHeader.PointerSize == w.psz &&
	       (uint64_t)lf.LogfileHeader.StartTime.QuadPart == WF_START &&
	       lf.LogfileHeader.PerfFreq.QuadPart == 10000000 &&
	       lf.LogfileHeader.ReservedFlags == w.clock &&
	       lf.LogfileHeader.CpuSpeedInMHz == WF_MHZ &&
	       lf.LogfileHeader.BufferSize == WF_BUF &&
	       lf.LogfileHeader.BuffersWritten == (kind == WF_CIRCULAR ? 10U : 4U) &&
	       name0 == 'N',
	       "%d-bit %s: LogfileHeader in this consumer's layout, from the file's", BITS, name);

	/* StartTime and EndTime: the second to the last but one event. */
	if (w.nexp >= 4) {
		t0 = want_filetime(kind, w.exp[1].ts);
		t1 = want_filetime(kind, w.exp[w.nexp - 2].ts);
		from.dwLowDateTime = (uint32_t)t0;
		from.dwHighDateTime = t0 >> 32;
		to.dwLowDateTime = (uint32_t)t1;
		to.dwHighDateTime = t1 >> 32;
		err = read_file(0, &from, &to, &lf, &n);
		first = ngot ? (uint64_t)got[0].eh.TimeStamp.QuadPart == t0 : 0;
		tap_ok(!err && ngot == w.nexp - 2 && first &&
		       (uint64_t)got[ngot - 1].eh.TimeStamp.QuadPart == t1,
		       "%d-bit %s: StartTime and EndTime select by FILETIME (%u events)", BITS,
		       name, ngot);
	}
	free(w.b);
}

/*
 * A compressed buffer whose data does not decompress: skipped whole,
 * counted and said; the other buffers read.
 */
static void test_bad_compressed(void)
{
	struct nttrace_trace_counts n;
	EVENT_TRACE_LOGFILEA lf;
	struct wfile w;
	size_t at = 0x400, first;
	ULONG err;

	wf_build(&w, WF_COMPRESSED);
	/* The first data buffer: a match before the start of its output. */
	first = get_le(w.b + at, 4);
	w.b[at + 0x48] = 0xFF;
	w.b[at + 0x49] = 0xFF;
	w.b[at + 0x4A] = 0xFF;
	w.b[at + 0x4B] = 0xFF;
	put_le(w.b + at + 0x4C, 0xFFF8, 2);
	spew(path, w.b, w.len);
	err = read_file(0, NULL, NULL, &lf, &n);
	tap_ok(!err && n.buffers_skipped == 1 && problems == 1 && ngot == 4 && first > 0x48,
	       "%d-bit: a compressed buffer that does not decompress: skipped, counted, said "
	       "(%llu skipped, %u problems, %u events)", BITS,
	       (unsigned long long)n.buffers_skipped, problems, ngot);
	free(w.b);
}

/* --write KIND PATH: the file of @kind, for the shell tests (show_test.sh). */
static int write_kind(const char *kind, const char *out)
{
	struct wfile w;
	int k;

	for (k = 0; k < WF_KINDS && strcmp(kind, wkind_name[k]); k++)
		;
	if (k == WF_KINDS)
		return 2;
	wf_build(&w, k);
	spew(out, w.b, w.len);
	free(w.b);
	return 0;
}

/* Each kind of file Windows writes, one after the other into @path. */
TEST(kinds)
{
	int k;

	for (k = 0; k < WF_KINDS; k++)
		test_kind(k);
}

TEST(bad_compressed)
{
	test_bad_compressed();
}

int main(int argc, char **argv)
{
	int ret;

	if (argc == 4 && !strcmp(argv[1], "--write"))
		return write_kind(argv[2], argv[3]);

	snprintf(path, sizeof(path), "/tmp/winetl-%d-%d.etl", BITS, (int)getpid());
	ret = harness_run(argc, argv);
	unlink(path);
	return ret;
}
