// SPDX-License-Identifier: GPL-2.0
/*
 * The order in which the ETL reader (userlib/etl/etlread.c) merges its
 * CPU streams, against a reference written here the plainest way: at each
 * step, look at every CPU in index order and take the next event with the
 * lowest time stamp, the lowest CPU among equal ones. TAP.
 *
 * Each case is a set of CPU streams of EventWrite records (their time
 * stamps chosen by the case; the payload names the CPU and the record's
 * place in its stream), in 1 KB buffers of at most 10 records, so that
 * the merge crosses buffers often. A buffer's records are read through
 * the event the reader returns, before the next call: a stream peeked
 * (its buffer reloaded) too early would show another record there.
 *
 *   ties       4 CPUs, every time stamp held by each of them, twice
 *   many       37 CPUs: streams of 0 to 60 records, one CPU with no
 *              buffer, one whose buffers hold no record, streams that end
 *              after one record, time that goes back within a stream,
 *              and time stamps of all ones
 *   one        a single CPU
 *   cpus256    256 CPUs (the most the reader takes), short streams, ties;
 *              its file in 8 KB buffers, so that the streams' buffers
 *              (2 MB) are the reader's one mapping, not the heap
 *
 * Each is written as a file (the library's writer, the CPUs' buffers in
 * reverse order, so that nothing follows from the file's order) and read
 * with nttrace_etl_open(); and given to a live reader
 * (nttrace_etl_open_live()) whose buffers come in phases: a CPU's buffer
 * of a later phase is "none now" until the reader has returned 0 for the
 * phases before (the reference then looks at the CPUs it has), so that
 * streams join the merge after it started.
 *
 *   etl_order_test [DIR]	(the files' directory; default /tmp)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/uapi.h>
#include <nttrace/evntcons.h>
#include <nttrace/evntrace.h>
#include <nttrace/etl.h>

#include "../vm/tap.h"

#define MAX_CPUS	256
#define MAX_EVENTS	64	/* a stream's */
#define BUFSZ		1024
#define MAX_FILE_BUFSZ	8192	/* a file's buffers may be larger, records as in BUFSZ */
#define PAYLOAD		8	/* the CPU and the place in its stream */
#define REC_SIZE	(NTTRACE_EVENT_HEADER_SIZE + PAYLOAD)
#define PER_BUFFER	10	/* records a buffer, of the (1024 - 72) / 88 that fit */
/* A stream's buffers: its records', and up to two that hold none. */
#define MAX_BUFFERS	((MAX_EVENTS + PER_BUFFER - 1) / PER_BUFFER + 2)

/* One case: each CPU's time stamps, and the phase of each of its buffers. */
struct streams {
	const char *name;
	unsigned int ncpu;
	unsigned int file_bufsz;	/* the file's buffer size, BUFSZ or more */
	unsigned int n[MAX_CPUS];
	uint64_t ts[MAX_CPUS][MAX_EVENTS];
	int no_buffer[MAX_CPUS];	/* the CPU has no buffer in the file */
	int empty_buffers[MAX_CPUS];	/* buffers with no record, before its records */
	unsigned int phase[MAX_CPUS][MAX_BUFFERS];
};

/* A returned event as the reference has it. */
struct step {
	unsigned int cpu, index;
	uint64_t ts;
};

static struct streams cs;
static struct step want[MAX_CPUS * MAX_EVENTS], got[MAX_CPUS * MAX_EVENTS + 1];
static uint8_t live_buf[MAX_CPUS][MAX_BUFFERS][BUFSZ];
static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint32_t rnd(uint32_t below)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32) % below;
}

/* Buffers CPU @c fills: its empty ones, then its records' (PER_BUFFER each). */
static unsigned int nbuffers(unsigned int c)
{
	if (cs.no_buffer[c])
		return 0;
	return cs.empty_buffers[c] + (cs.n[c] + PER_BUFFER - 1) / PER_BUFFER;
}

/* CPU @c's buffer @b, whole (@size bytes, the rest fill), into @buf. */
static void fill_buffer(uint8_t *buf, uint32_t size, unsigned int c, unsigned int b,
			uint64_t seq)
{
	struct nttrace_wmi_buffer_header *h = (void *)buf;
	uint32_t at = NTTRACE_WMI_BUFFER_HEADER_SIZE, i, first, count = 0;

	memset(buf, NTTRACE_WMI_BUFFER_FILL, size);
	if (b >= (unsigned int)cs.empty_buffers[c]) {
		first = (b - cs.empty_buffers[c]) * PER_BUFFER;
		count = cs.n[c] - first < PER_BUFFER ? cs.n[c] - first : PER_BUFFER;
	}
	for (i = 0; i < count; i++, at += REC_SIZE) {
		struct nttrace_event_header *e = (void *)(buf + at);
		uint32_t id[2] = { c, first + i };

		memset(e, 0, NTTRACE_EVENT_HEADER_SIZE);
		e->size = REC_SIZE;
		e->header_type = NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER64;
		e->marker_flags = NTTRACE_TRACE_HEADER_MARKER_BYTE;
		e->flags = EVENT_HEADER_FLAG_NO_CPUTIME | EVENT_HEADER_FLAG_64_BIT_HEADER;
		e->thread_id = 1000 + c;
		e->process_id = 100;
		e->time_stamp = cs.ts[c][first + i];
		memcpy(e->provider_id, "nttrace-ordertst", 16);
		e->descriptor.id = 1;
		memcpy(buf + at + NTTRACE_EVENT_HEADER_SIZE, id, PAYLOAD);
	}
	memset(h, 0, NTTRACE_WMI_BUFFER_HEADER_SIZE);
	h->buffer_size = size;
	h->saved_offset = h->current_offset = h->offset = at;
	h->sequence_number = seq;
	h->clock_type_frequency = (1000000000ULL << 3) | NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER;
	h->processor_index = c;
	h->logger_id = 1;
	h->buffer_flag = NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER | NTTRACE_WMI_BUFFER_FLAG_PROC_INDEX;
	h->buffer_type = NTTRACE_WMI_BUFFER_TYPE_GENERIC;
}

/*
 * The reference: events in the order a scan of the CPUs gives, up to
 * phase @phase (buffers of later phases not there yet), from @pos on;
 * the count written at @out.
 */
static unsigned int reference(unsigned int *pos, unsigned int phase, struct step *out)
{
	unsigned int k = 0, c;

	for (;;) {
		int best = -1;

		for (c = 0; c < cs.ncpu; c++) {
			unsigned int b = cs.empty_buffers[c] + pos[c] / PER_BUFFER;

			if (pos[c] >= cs.n[c] || cs.no_buffer[c] || cs.phase[c][b] > phase)
				continue;
			if (best < 0 || cs.ts[c][pos[c]] < cs.ts[best][pos[best]])
				best = c;
		}
		if (best < 0)
			return k;
		out[k].cpu = best;
		out[k].index = pos[best];
		out[k++].ts = cs.ts[best][pos[best]++];
	}
}

static unsigned int problems;

static void count_problem(void *ctx, uint64_t offset, const char *what)
{
	problems++;
	printf("# problem at %llu: %s\n", (unsigned long long)offset, what);
}

/* Read @r until it returns 0, into @out from @k on; the new count. */
static unsigned int drain(struct nttrace_etl_reader *r, struct step *out, unsigned int k,
			  unsigned int cap)
{
	struct nttrace_etl_event ev;
	uint32_t id[2];

	while (k < cap && nttrace_etl_next(r, &ev)) {
		/* The payload now, before the next call may reload the buffer. */
		if (ev.data_len != PAYLOAD) {
			id[0] = id[1] = UINT32_MAX;
		} else {
			memcpy(id, ev.data, PAYLOAD);
			if (id[0] != ev.cpu)
				id[0] = UINT32_MAX - 1;
		}
		out[k].cpu = id[0];
		out[k].index = id[1];
		out[k++].ts = ev.timestamp;
	}
	return k;
}

/* Compare @n steps read with @m the reference gave; one TAP line each. */
static void check(const char *how, unsigned int n, unsigned int m)
{
	unsigned int i;

	for (i = 0; i < n && i < m; i++)
		if (got[i].cpu != want[i].cpu || got[i].index != want[i].index ||
		    got[i].ts != want[i].ts)
			break;
	if (i < n && i < m)
		printf("# event %u: got CPU %u record %u at %llu, want CPU %u record %u at %llu\n",
		       i, got[i].cpu, got[i].index, (unsigned long long)got[i].ts, want[i].cpu,
		       want[i].index, (unsigned long long)want[i].ts);
	tap_eq(n, m, "%s %s: every event", cs.name, how);
	tap_ok(i == n && i == m, "%s %s: the scan's order, each event's own record", cs.name,
	       how);
}

/* The case as a file, written by the library's writer, read back whole. */
static void from_file(const char *dir)
{
	struct nttrace_etl_session s;
	struct nttrace_logfile lf;
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	static uint8_t buf[MAX_FILE_BUFSZ];
	unsigned int pos[MAX_CPUS] = { 0 }, b, m, n;
	uint64_t seq = 0;
	char path[512];
	int c, ret;

	memset(&s, 0, sizeof(s));
	s.buffer_size = cs.file_bufsz;
	s.nr_cpus = cs.ncpu;
	s.pointer_size = 8;
	s.log_file_mode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
	s.clock_type = NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER;
	s.frequency = 1000000000;
	snprintf(s.name, sizeof(s.name), "etl-order");
	nttrace_etl_times(&s);
	snprintf(path, sizeof(path), "%s/etl-order-%d-%s.etl", dir, (int)getpid(), cs.name);
	ret = nttrace_logfile_open(&lf, path, &s);
	if (!tap_ok(!ret, "%s file: written (%s)", cs.name, path))
		return;
	/* Buffer b of every CPU, the CPUs from the last: sequence numbers rise. */
	for (b = 0; b < MAX_BUFFERS; b++)
		for (c = cs.ncpu - 1; c >= 0; c--)
			if (b < nbuffers(c)) {
				fill_buffer(buf, cs.file_bufsz, c, b, ++seq);
				ret |= nttrace_logfile_buffer(&lf, buf, cs.file_bufsz, c);
			}
	ret |= nttrace_logfile_close(&lf, 0, 0);
	tap_ok(!ret, "%s file: %llu buffers written", cs.name, (unsigned long long)seq);

	problems = 0;
	ret = nttrace_etl_open(&r, path, count_problem, NULL);
	if (!tap_ok(!ret, "%s file: opened", cs.name)) {
		unlink(path);
		return;
	}
	m = reference(pos, 0, want);
	n = drain(r, got, 0, MAX_CPUS * MAX_EVENTS + 1);
	check("file", n, m);
	tap_ok(!nttrace_etl_next(r, &ev), "%s file: still the end when asked again", cs.name);
	tap_eq(problems, 0, "%s file: no problem reported", cs.name);
	nttrace_etl_close(r);
	unlink(path);
}

/* The live reader's buffers: given in order, each once its phase has come. */
static unsigned int live_phase, live_next[MAX_CPUS];

static int live_load(void *ctx, unsigned int cpu, uint8_t *buf)
{
	unsigned int b = live_next[cpu];

	if (b >= nbuffers(cpu) || cs.phase[cpu][b] > live_phase)
		return 0;
	memcpy(buf, live_buf[cpu][b], BUFSZ);
	live_next[cpu]++;
	return 1;
}

/* The case from a live reader, phase by phase; phases up to @phases. */
static void from_live(unsigned int phases)
{
	struct nttrace_etl_info info;
	struct nttrace_etl_reader *r;
	unsigned int pos[MAX_CPUS] = { 0 }, c, b, m = 0, n = 0;
	uint64_t seq = 0;

	for (c = 0; c < cs.ncpu; c++)
		for (b = 0; b < nbuffers(c); b++)
			fill_buffer(live_buf[c][b], BUFSZ, c, b, ++seq);
	memset(live_next, 0, sizeof(live_next));
	memset(&info, 0, sizeof(info));
	info.buffer_size = BUFSZ;
	info.nr_cpus = cs.ncpu;
	info.pointer_size = 8;
	info.clock = NTTRACE_ETL_CLOCK_QPC;
	info.perf_freq = 1000000000;
	if (!tap_ok(!nttrace_etl_open_live(&r, &info, live_load, NULL), "%s live: opened",
		    cs.name))
		return;
	for (live_phase = 0; live_phase <= phases; live_phase++) {
		m += reference(pos, live_phase, want + m);
		n = drain(r, got, n, MAX_CPUS * MAX_EVENTS + 1);
	}
	check(phases ? "live, in phases" : "live", n, m);
	nttrace_etl_close(r);
}

static void reset(const char *name, unsigned int ncpu)
{
	memset(&cs, 0, sizeof(cs));
	cs.name = name;
	cs.ncpu = ncpu;
	cs.file_bufsz = BUFSZ;
}

/* Buffers come in phases 0 to 2, each CPU's in order, at random. */
static void random_phases(void)
{
	unsigned int c, b, p;

	for (c = 0; c < cs.ncpu; c++)
		for (b = 0, p = 0; b < MAX_BUFFERS; b++) {
			p += rnd(4) == 0;
			cs.phase[c][b] = p < 2 ? p : 2;
		}
}

static void run(const char *dir)
{
	from_file(dir);
	from_live(0);
	random_phases();
	from_live(2);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	unsigned int c, i;
	uint64_t t;

	/* ties: each time stamp twice in every stream. */
	reset("ties", 4);
	for (c = 0; c < 4; c++)
		for (cs.n[c] = 25, i = 0; i < 25; i++)
			cs.ts[c][i] = 1000 + 10 * (i / 2);
	run(dir);

	/* many: every shape of stream at once. */
	reset("many", 37);
	for (c = 0; c < 37; c++) {
		cs.n[c] = rnd(61);
		for (t = rnd(50), i = 0; i < cs.n[c]; i++) {
			/* Ties within and across streams, and now and then a step back. */
			uint32_t d = rnd(10);

			t = d == 0 && t > 3 ? t - 3 : t + (d < 4 ? 0 : d - 3);
			cs.ts[c][i] = t;
		}
	}
	cs.no_buffer[5] = 1;
	cs.n[6] = 0;
	cs.empty_buffers[6] = 2;
	cs.empty_buffers[7] = 1;
	cs.n[0] = 1;
	cs.ts[0][0] = 0;
	cs.n[11] = 1;
	cs.ts[11][0] = 40;
	cs.n[36] = 3;
	cs.ts[36][0] = 2;
	cs.ts[36][1] = UINT64_MAX;
	cs.ts[36][2] = UINT64_MAX;
	cs.n[20] = 2;
	cs.ts[20][0] = UINT64_MAX - 1;
	cs.ts[20][1] = UINT64_MAX;
	run(dir);

	/* one: a single stream. */
	reset("one", 1);
	for (cs.n[0] = 35, i = 0; i < 35; i++)
		cs.ts[0][i] = 500 + i / 3;
	run(dir);

	/* cpus256: the most CPUs, short streams over a few time stamps. */
	reset("cpus256", MAX_CPUS);
	cs.file_bufsz = MAX_FILE_BUFSZ;
	for (c = 0; c < MAX_CPUS; c++)
		for (cs.n[c] = rnd(13), t = rnd(20), i = 0; i < cs.n[c]; i++)
			cs.ts[c][i] = t += rnd(3);
	run(dir);
	return tap_done();
}
