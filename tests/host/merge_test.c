// SPDX-License-Identifier: GPL-2.0
/*
 * `nttrace merge` over files built here record by record, so that their
 * clocks, time stamps and pointer sizes are known, with no module. TAP.
 *
 * Three inputs whose times overlap, in 1 KB buffers (several a CPU):
 *   A: QPC at 3579545 Hz (not a whole number of 100 ns), pointer size 8,
 *      CPUs 0 and 1; messages with and without their own time stamp,
 *      EventWrite and classic records; a buffer flagged "events lost".
 *   B: system time, pointer size 4 (32-bit EventWrite and classic
 *      headers), CPUs 0 and 2 (a CPU with no events between), messages.
 *   C: CPU cycles at 2 GHz, pointer size 8, one CPU, kernel records (a
 *      full system header and a perfinfo one, time stamps at 0x10 and
 *      0x08); its events fall at the very FILETIMEs of B's: ties.
 * The output is read with the reader and checked event by event against
 * the inputs, read with it too: the count, time order (ties: the first
 * input given first), each event's FILETIME (its input's, plus any
 * offset), its bytes but for the time stamp (which holds the FILETIME),
 * its loss flag, and where it came from (the MergeInput events' CPUs).
 * Then --offset, the errors (missing, non-ETL input: exit 1 and no file
 * left; a damaged input: said, the rest merged, exit 1), the usage errors
 * (exit 2), and `nttrace dump` of the output.
 *
 *   merge_test NTTRACE DIR
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include <nttrace/evntrace.h>
#include "record.h"
#include "sysrec.h"
#include "../vm/tap.h"

#define NIN		3
#define NREC		90	/* records an input */
#define MAX_CPU		4
#define BUFSZ		1024
#define T0		133500000000000000ULL	/* 2024-01-20, a FILETIME */
#define MERGE_GUID	"87c85384-c738-5c78-b255-d07d90d83caf"

/* What the test wrote: each record's time stamp offset, per CPU in order. */
struct written {
	int ts_at[MAX_CPU][NREC];
	unsigned int n[MAX_CPU];
};

/* An input event as the reader gives it. */
struct in_event {
	unsigned int cpu;
	uint64_t filetime;
	uint16_t lost;
	uint32_t size;
	int ts_at;
	uint8_t *rec;
};

struct input {
	char path[512];
	struct written w;
	struct in_event *ev[MAX_CPU];	/* per CPU, in stream order */
	unsigned int nev[MAX_CPU], total;
	uint32_t events_lost;
};

static struct input in[NIN];

static void put(uint8_t *p, uint64_t v, int bytes)
{
	while (bytes--) {
		*p++ = (uint8_t)v;
		v >>= 8;
	}
}

static uint64_t get(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = v << 8 | p[bytes];
	return v;
}

/* A file being built: one buffer per CPU, sealed when full. */
struct builder {
	struct nttrace_logfile lf;
	struct ntr_buffer_conf conf;
	uint8_t buf[MAX_CPU][BUFSZ];
	uint32_t end[MAX_CPU];
	unsigned int sealed[MAX_CPU];
	uint64_t seq, last_ts[MAX_CPU];
	int lost_cpu;			/* its second buffer says "events lost" */
};

static void seal(struct builder *b, unsigned int cpu)
{
	uint16_t lost = (int)cpu == b->lost_cpu && b->sealed[cpu] == 1 ?
			NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST : 0;

	if (b->end[cpu] <= NTTRACE_WMI_BUFFER_HEADER_SIZE)
		return;
	ntr_buffer_seal(b->buf[cpu], b->end[cpu], b->last_ts[cpu], ++b->seq, lost);
	nttrace_logfile_buffer(&b->lf, b->buf[cpu], BUFSZ, cpu);
	b->sealed[cpu]++;
	ntr_buffer_open(b->buf[cpu], &b->conf, cpu);
	b->end[cpu] = NTTRACE_WMI_BUFFER_HEADER_SIZE;
}

static uint8_t *reserve(struct builder *b, unsigned int cpu, uint32_t size)
{
	uint32_t padded = (size + 7) & ~7u;
	uint8_t *p;

	if (padded > BUFSZ - b->end[cpu])
		seal(b, cpu);
	p = b->buf[cpu] + b->end[cpu];
	memset(p, 0, padded);
	b->end[cpu] += padded;
	return p;
}

enum kind { MSG_TS, EVENT, CLASSIC, MSG_NO_TS, SYSTEM, PERFINFO };

/* One record of @kind on @cpu at session clock @ts; its payload says @tag. */
static void record(struct builder *b, struct written *w, unsigned int cpu, enum kind kind,
		   uint64_t ts, int ptr32, uint64_t tag)
{
	static const uint8_t guid[16] = { 0x72, 0x74, 0x74, 0x6e, 0x31, 0, 0x54, 0x4c,
					  0x80, 0, 0, 0, 0, 0, 0, 0x0c };
	uint8_t *p;
	int at;

	switch (kind) {
	case MSG_TS:
	case MSG_NO_TS: {
		struct ntr_message msg = {
			.number = 7,
			.option_flags = kind == MSG_TS ?
				TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID |
				TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_SYSTEMINFO :
				TRACE_MESSAGE_COMPONENTID | TRACE_MESSAGE_SYSTEMINFO,
			.sequence = (uint32_t)tag,
			.guid = guid,
			.time_stamp = ts,
			.thread_id = 100 + cpu,
			.process_id = 42,
		};
		uint32_t hs = ntr_message_items_size(msg.option_flags);

		p = reserve(b, cpu, hs + 8);
		ntr_message_encode(p, hs + 8, &msg);
		put(p + hs, tag, 8);
		at = kind == MSG_TS ? 8 + 4 + 16 : -1;
		break;
	}
	case EVENT: {
		struct nttrace_event_descriptor d = { .id = 5, .level = 4 };
		struct ntr_event e = {
			.size = NTTRACE_EVENT_HEADER_SIZE + 8, .ptr32 = ptr32,
			.descriptor = &d, .provider_id = guid, .activity_id = guid,
			.time_stamp = ts, .thread_id = 200 + cpu, .process_id = 42,
		};

		p = reserve(b, cpu, e.size);
		ntr_event_encode(p, &e);
		put(p + NTTRACE_EVENT_HEADER_SIZE, tag, 8);
		at = 0x10;
		break;
	}
	case CLASSIC:
		p = reserve(b, cpu, NTTRACE_EVENT_TRACE_HEADER_SIZE + 8);
		put(p, NTTRACE_EVENT_TRACE_HEADER_SIZE + 8, 2);
		p[2] = ptr32 ? NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER32 :
			       NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER64;
		p[3] = NTTRACE_TRACE_HEADER_MARKER_BYTE;
		p[4] = 1;	/* Class.Type */
		p[5] = 4;	/* Class.Level */
		put(p + 0x08, 300 + cpu, 4);
		put(p + 0x0C, 42, 4);
		put(p + 0x10, ts, 8);
		memcpy(p + 0x18, guid, 16);
		put(p + NTTRACE_EVENT_TRACE_HEADER_SIZE, tag, 8);
		at = 0x10;
		break;
	case SYSTEM:
		/* Version 2 of a HookId no group has: shown as bytes. */
		p = reserve(b, cpu, NTTRACE_ETL_SYSTEM_HEADER_SIZE + 8);
		put(p, 0xC0000002U | NTTRACE_TRACE_HEADER_TYPE_SYSTEM64 << 16, 4);
		put(p + 4, NTTRACE_ETL_SYSTEM_HEADER_SIZE + 8, 2);
		put(p + 6, 0xEE01, 2);
		put(p + 0x08, 400 + cpu, 4);
		put(p + 0x0C, 42, 4);
		put(p + 0x10, ts, 8);
		put(p + NTTRACE_ETL_SYSTEM_HEADER_SIZE, tag, 8);
		at = 0x10;
		break;
	default:	/* PERFINFO */
		p = reserve(b, cpu, NTTRACE_ETL_PERFINFO_HEADER_SIZE + 8);
		put(p, 0xC0000002U | NTTRACE_TRACE_HEADER_TYPE_PERFINFO64 << 16, 4);
		put(p + 4, NTTRACE_ETL_PERFINFO_HEADER_SIZE + 8, 2);
		put(p + 6, 0xEE02, 2);
		put(p + 8, ts, 8);
		put(p + NTTRACE_ETL_PERFINFO_HEADER_SIZE, tag, 8);
		at = 8;
		break;
	}
	w->ts_at[cpu][w->n[cpu]++] = at;
	if (at >= 0)
		b->last_ts[cpu] = ts;
}

/*
 * Input @k: its clock and records (see the top). Times are in 100 ns
 * units from T0; each input's events come every few ms, overlapping.
 */
static int write_input(unsigned int k, const char *dir)
{
	struct nttrace_etl_session s = { 0 };
	struct builder *b = calloc(1, sizeof(*b));
	unsigned int j, cpu;
	int ret;

	snprintf(in[k].path, sizeof(in[k].path), "%s/merge-in%u.etl", dir, k + 1);
	s.buffer_size = BUFSZ;
	s.log_file_mode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
	s.nr_cpus = k == 2 ? 1 : k == 1 ? 3 : 2;
	s.pointer_size = k == 1 ? 4 : 8;
	snprintf(s.name, sizeof(s.name), "merge-input-%u", k + 1);
	if (k == 0) {
		s.clock_type = NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER;
		s.frequency = 3579545;
		s.start_clock = 1000000;
		s.start_time = T0;
	} else if (k == 1) {
		s.clock_type = NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME;
		s.frequency = 10000000;
		s.start_clock = T0 + 1000000;
		s.start_time = T0 + 1000000;
	} else {
		s.clock_type = NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE;
		s.frequency = 2000000000;
		s.start_clock = 1000000000000ULL;
		s.start_time = T0 - 2000000;
	}
	s.boot_time = T0 - 36000000000ULL;
	b->conf.buffer_size = BUFSZ;
	b->conf.clock_type = s.clock_type;
	b->conf.frequency = s.frequency;
	b->conf.start_time = s.start_clock;
	b->conf.start_perf_clock = s.start_clock;
	b->lost_cpu = k == 0 ? 1 : -1;
	ret = nttrace_logfile_open(&b->lf, in[k].path, &s);
	if (ret) {
		free(b);
		return ret;
	}
	for (cpu = 0; cpu < MAX_CPU; cpu++) {
		ntr_buffer_open(b->buf[cpu], &b->conf, cpu);
		b->end[cpu] = NTTRACE_WMI_BUFFER_HEADER_SIZE;
	}
	for (j = 0; j < NREC; j++) {
		uint64_t tag = (uint64_t)(k + 1) << 32 | j, ts;

		if (k == 0) {
			/* Every 2 ms from 0.1 s, in QPC ticks. */
			ts = s.start_clock + (1000000 + j * 20000ULL) * 3579545 / 10000000;
			record(b, &in[k].w, j % 2, (enum kind)(j % 4), ts, 0, tag);
		} else if (k == 1) {
			/* Every 3 ms from 0.15 s, CPUs 0 and 2. */
			ts = T0 + 1500000 + j * 30000ULL;
			record(b, &in[k].w, (j % 2) * 2, (enum kind)(j % 4), ts, 1, tag);
		} else {
			/* B's FILETIMEs, in 2 GHz cycles from 0.2 s before T0. */
			ts = s.start_clock + (2000000 + 1500000 + j * 30000ULL) * 200;
			record(b, &in[k].w, 0, j % 2 ? PERFINFO : SYSTEM, ts, 0, tag);
		}
	}
	for (cpu = 0; cpu < MAX_CPU; cpu++)
		seal(b, cpu);
	in[k].events_lost = 5 + k;
	ret = nttrace_logfile_close(&b->lf, in[k].events_lost, k);
	free(b);
	return ret;
}

/* Read input @k back: its events per CPU, as the reader dates them. */
static int read_input(unsigned int k)
{
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;

	if (nttrace_etl_open(&r, in[k].path, NULL, NULL))
		return -1;
	while (nttrace_etl_next(r, &ev)) {
		struct in_event *e;
		unsigned int c = ev.cpu;

		if (c >= MAX_CPU || in[k].nev[c] >= in[k].w.n[c])
			break;
		if (!in[k].ev[c])
			in[k].ev[c] = calloc(NREC, sizeof(*e));
		e = &in[k].ev[c][in[k].nev[c]];
		e->cpu = c;
		e->filetime = ev.filetime;
		e->lost = ev.lost;
		e->size = ev.size;
		e->ts_at = in[k].w.ts_at[c][in[k].nev[c]];
		e->rec = malloc(ev.size);
		memcpy(e->rec, ev.rec, ev.size);
		in[k].nev[c]++;
		in[k].total++;
	}
	nttrace_etl_close(r);
	return 0;
}

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A shell command's exit status (-1 when it did not exit). */
static int run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* What a MergeInput event says (its payload: see userlib/tools/merge.c). */
struct source {
	uint32_t input, psz, clock, first_cpu, ncpus;
	int64_t offset;
	uint64_t events, start_time;
	char path[512];
};

static int parse_source(const struct nttrace_etl_event *ev, struct source *s)
{
	const uint8_t *d = ev->data, *end = ev->data + ev->data_len;
	size_t n;

	if (!d || ev->data_len < 4 + 3 + 8 + 48)
		return -1;
	s->input = get(d, 4);
	d += 4;
	n = strnlen((const char *)d, end - d);
	snprintf(s->path, sizeof(s->path), "%.*s", (int)n, d);
	d += n + 1;
	d += strnlen((const char *)d, end - d) + 1;	/* LoggerName */
	if (end - d < 8)
		return -1;
	s->psz = get(d, 4);
	s->clock = get(d + 4, 4);
	d += 8;
	d += strnlen((const char *)d, end - d) + 1;	/* Clock */
	if (end - d != 48)
		return -1;
	s->start_time = get(d + 8, 8);
	s->offset = (int64_t)get(d + 16, 8);
	s->first_cpu = get(d + 24, 4);
	s->ncpus = get(d + 28, 4);
	s->events = get(d + 32, 8);
	return 0;
}

static int is_merge_event(const struct nttrace_etl_event *ev)
{
	static const uint8_t g[16] = { 0x84, 0x53, 0xc8, 0x87, 0x38, 0xc7, 0x78, 0x5c,
				       0xb2, 0x55, 0xd0, 0x7d, 0x90, 0xd8, 0x3c, 0xaf };

	return ev->event_header && ev->guid && !memcmp(ev->guid, g, 16);
}

/*
 * The merged file @path against the inputs, input @shifted by @offset
 * (100 ns units; -1: none).
 */
static void check_output(const char *path, int shifted, int64_t offset, const char *what)
{
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	const struct nttrace_etl_info *info;
	struct source src[NIN];
	unsigned int next[NIN][MAX_CPU] = { { 0 } };
	unsigned int k, nsrc = 0, total = 0, bad_time = 0, bad_bytes = 0, bad_order = 0;
	unsigned int bad_src = 0, bad_lost = 0, bad_ties = 0, lost_seen = 0, expected = 0;
	uint64_t last = 0;
	int last_input = -1;

	if (!tap_ok(!nttrace_etl_open(&r, path, NULL, NULL), "%s: the output opens", what))
		return;
	info = nttrace_etl_info(r);
	tap_eq(info->clock, NTTRACE_ETL_CLOCK_SYSTEM, "%s: its clock is system time", what);
	tap_eq(info->pointer_size, 8, "%s: pointer size 8 (the inputs' differ)", what);
	tap_eq(info->events_lost, 5 + 6 + 7, "%s: EventsLost, the inputs' sum", what);
	tap_eq(info->buffers_lost, 0 + 1 + 2, "%s: BuffersLost, the inputs' sum", what);
	tap_eq(info->nr_cpus, 1 + 2 + 3 + 1, "%s: CPUs: the merge's and each input's", what);
	for (k = 0; k < NIN; k++)
		expected += in[k].total;
	while (nttrace_etl_next(r, &ev)) {
		struct in_event *e;
		struct source *s = NULL;
		int tie = ev.filetime == last;
		uint64_t want;
		unsigned int c;

		if (ev.filetime < last)
			bad_order++;
		last = ev.filetime;
		if (is_merge_event(&ev)) {
			/* The first events, all of them, before any input's. */
			if (total || nsrc >= NIN || parse_source(&ev, &src[nsrc]) ||
			    src[nsrc].input != nsrc + 1 || ev.cpu) {
				bad_src++;
				continue;
			}
			nsrc++;
			continue;
		}
		total++;
		for (k = 0; k < nsrc; k++)
			if (ev.cpu >= src[k].first_cpu && ev.cpu < src[k].first_cpu + src[k].ncpus)
				s = &src[k];
		if (!s) {
			bad_src++;
			continue;
		}
		k = s->input - 1;
		c = ev.cpu - s->first_cpu;
		if (c >= MAX_CPU || next[k][c] >= in[k].nev[c]) {
			bad_src++;
			continue;
		}
		/* Ties: the earlier input given first. */
		if (tie && (int)k < last_input)
			bad_ties++;
		last_input = (int)k;
		e = &in[k].ev[c][next[k][c]++];
		want = e->filetime + ((int)k == shifted ? offset : 0);
		if (ev.filetime != want)
			bad_time++;
		if (ev.size != e->size ||
		    (e->ts_at >= 0 && get(ev.rec + e->ts_at, 8) != want) ||
		    (e->ts_at >= 0 && memcmp(ev.rec, e->rec, e->ts_at)) ||
		    (e->ts_at >= 0 && memcmp(ev.rec + e->ts_at + 8, e->rec + e->ts_at + 8,
					     e->size - e->ts_at - 8)) ||
		    (e->ts_at < 0 && memcmp(ev.rec, e->rec, e->size)))
			bad_bytes++;
		if (ev.lost != e->lost)
			bad_lost++;
		lost_seen += !!e->lost;
	}
	nttrace_etl_close(r);
	tap_eq(nsrc, NIN, "%s: a MergeInput event per input, first, on CPU 0", what);
	for (k = 0; k < nsrc; k++) {
		tap_ok(!strcmp(src[k].path, in[k].path) && src[k].events == in[k].total &&
		       src[k].offset == ((int)k == shifted ? offset : 0) &&
		       src[k].psz == (k == 1 ? 4u : 8u) && src[k].clock == k + 1,
		       "%s: input %u's MergeInput: path, events, offset, pointer size, clock",
		       what, k + 1);
	}
	tap_eq(total, expected, "%s: every input event, once (%u)", what, expected);
	tap_eq(bad_src, 0, "%s: each event's input and CPU recovered from its CPU", what);
	tap_eq(bad_order, 0, "%s: in time order", what);
	tap_eq(bad_ties, 0, "%s: ties in the order the inputs were given", what);
	tap_eq(bad_time, 0, "%s: each event's FILETIME its input's%s", what,
	       shifted >= 0 ? ", plus the offset" : "");
	tap_eq(bad_bytes, 0, "%s: each record's bytes its input's, its time stamp the FILETIME",
	       what);
	tap_ok(lost_seen && !bad_lost, "%s: the loss flag on the event it preceded (%u)", what,
	       lost_seen);
}

/* No file in @dir whose name starts with @prefix (the output, its temp). */
static int none_left(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int found = 0;

	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix)))
			found = 1;
	if (d)
		closedir(d);
	return !found;
}

/* Is @path a regular file of mode 0600 (not a link)? */
static int mode_0600(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return 0;
	if (!S_ISREG(st.st_mode) || (st.st_mode & 0777) != 0600)
		printf("# %s: mode %o\n", path, (unsigned int)st.st_mode);
	return S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600;
}

/* Does @path hold exactly @text? */
static int holds(const char *path, const char *text)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	return n == strlen(text) && !memcmp(buf, text, n);
}

/*
 * Trace files are 0600 whatever the umask (the caller sets 0), and a
 * symbolic link where one is to be written is refused, its target left
 * as it was: the library's creator, and merge's output.
 */
static void check_modes(const char *tool, const char *dir, const char *out)
{
	char link[600], target[600], fifo[600];
	FILE *f;
	int fd;

	tap_ok(mode_0600(in[0].path), "the user-mode logger's file is 0600 with umask 0");
	tap_ok(mode_0600(out), "merge's output is 0600 with umask 0");
	snprintf(link, sizeof(link), "%s/merge-link.etl", dir);
	snprintf(target, sizeof(target), "%s/merge-target", dir);
	unlink(link);
	f = fopen(target, "w");
	if (f) {
		fputs("keep", f);
		fclose(f);
	}
	tap_eq(symlink("merge-target", link), 0, "a symbolic link to a file");
	fd = nttrace_trace_file_create(link);
	tap_eq(fd, -ELOOP, "nttrace_trace_file_create(): refused");
	if (fd >= 0)
		close(fd);
	tap_ok(holds(target, "keep"), "... its target untouched");
	fd = nttrace_trace_file_create(dir);
	tap_eq(fd, -EISDIR, "nttrace_trace_file_create(a directory): refused");
	if (fd >= 0)
		close(fd);
	/* A FIFO of one's own (the user-mode logger's tests write into one). */
	snprintf(fifo, sizeof(fifo), "%s/merge-fifo", dir);
	unlink(fifo);
	tap_eq(mkfifo(fifo, 0640), 0, "a FIFO");
	fd = nttrace_trace_file_create(fifo);
	tap_ok(fd >= 0, "nttrace_trace_file_create(one's FIFO): written as it is");
	if (fd >= 0)
		close(fd);
	unlink(fifo);
	fd = nttrace_trace_file_create("/dev/null");
	tap_ok(fd >= 0, "nttrace_trace_file_create(/dev/null): a device, written as it is");
	if (fd >= 0)
		close(fd);
	tap_eq(run("%s merge -o %s %s 2>%s/merge-stderr.txt", tool, link, in[0].path, dir), 1,
	       "merge -o a symbolic link: exit 1");
	tap_eq(run("grep -q 'merge-link.etl: a symbolic link' %s/merge-stderr.txt", dir), 0,
	       "... said");
	tap_ok(holds(target, "keep"), "... its target untouched");
	tap_ok(none_left(dir, "merge-link.etl."), "... and no temporary file left");
	unlink(link);
	unlink(target);
}

/* ---- ImageId: each image's build ID, after its event ---- */

/* An Image event (Load: a full header; DCStart: PERFINFO) of @path at @base. */
static void image_record(struct builder *b, uint16_t hook, uint64_t ts, const char *path,
			 uint64_t base)
{
	struct ntr_sr_image img = {
		.image_base = base, .image_size = 0x20000, .process_id = 4242,
		.file_name = { path, (uint32_t)strlen(path) },
	};
	uint8_t kind = hook == 0x140A ? NTR_SR_FULL : NTR_SR_PERFINFO;
	struct ntr_sr_header h = {
		.hook_id = hook, .version = 3, .kind = kind, .thread_id = 4243,
		.process_id = 4242, .time_stamp = ts,
	};
	uint32_t n = ntr_sr_image_size(&img, false), size = ntr_sr_record_size(kind, n);
	uint8_t *p = reserve(b, 0, size);

	ntr_sr_header_write(p, (uint16_t)size, &h);
	ntr_sr_image_write(p + ntr_sr_header_size(kind), n, &img, false);
	b->last_ts[0] = ts;
}

/* The field data of an ImageId event: 1 if it parses. */
struct image_id {
	uint32_t pid;
	uint64_t base, size;
	char build_id[64], file[512];
};

static int parse_image_id(const struct nttrace_etl_event *ev, struct image_id *id)
{
	const uint8_t *d = ev->data, *end = ev->data + ev->data_len;
	size_t n;

	if (ev->data_len < 22)
		return 0;
	id->pid = (uint32_t)get(d, 4);
	id->base = get(d + 4, 8);
	id->size = get(d + 12, 8);
	d += 20;
	n = strnlen((const char *)d, end - d);
	if (d + n >= end || n >= sizeof(id->build_id))
		return 0;
	memcpy(id->build_id, d, n + 1);
	d += n + 1;
	n = strnlen((const char *)d, end - d);
	if (d + n >= end || n >= sizeof(id->file))
		return 0;
	memcpy(id->file, d, n + 1);
	return 1;
}

/*
 * Does the perf.data file @path hold an MMAP2 record of a file named
 * @name whose build ID is @hex? (The record: header, pid, tid, addr,
 * len, pgoff, build ID size and 3 bytes, 20 bytes of ID, prot, flags,
 * then the file name.)
 */
static int holds_bytes(const char *path, const char *hex, const char *name)
{
	uint8_t id[20], *buf;
	unsigned int i, n = (unsigned int)strlen(hex) / 2;
	long size;
	int found = 0;
	FILE *f = fopen(path, "rb");

	if (!f || n > 20)
		return 0;
	for (i = 0; i < n; i++)
		if (sscanf(hex + 2 * i, "%2hhx", &id[i]) != 1)
			return 0;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc(size > 0 ? size : 1);
	if (buf && fread(buf, 1, size, f) == (size_t)size) {
		long at;

		for (at = 0; at + 8 + 40 + 4 + 20 + 8 < size && !found; at++) {
			const uint8_t *r = buf + at;

			/* PERF_RECORD_MMAP2 (10), then the ID at 48 after its size byte. */
			uint32_t len = (uint32_t)get(r + 6, 2);

			if (get(r, 4) != 10 || r[8 + 32] != n || memcmp(r + 8 + 36, id, n) ||
			    len < 72 || at + len > size)
				continue;
			/* The name within this record. */
			found = memmem(r + 72, len - 72, name, strlen(name)) != NULL;
		}
	}
	free(buf);
	fclose(f);
	return found;
}

static void check_image_ids(const char *tool, const char *dir)
{
	struct nttrace_etl_session s = { 0 };
	struct builder *b = calloc(1, sizeof(*b));
	char path[600], out[600], exe[4096], want[64] = "", cmd[4200], line[256], copy[600];
	char perf[640];
	unsigned int ids = 0, after_image = 0, right = 0, others = 0;
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	uint16_t prev_hook = 0;
	uint64_t prev_base = 0;
	struct image_id id;
	FILE *f;

	if (!b || !realpath(tool, exe)) {
		tap_ok(0, "image ids: the tool's path");
		free(b);
		return;
	}
	/* The build ID binutils reads from the tool: what ImageId must say. */
	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", exe);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, " Build ID: %63s", want) == 1)
			break;
	if (f)
		pclose(f);
	snprintf(path, sizeof(path), "%s/merge-images.etl", dir);
	snprintf(out, sizeof(out), "%s/merge-images-out.etl", dir);
	s.buffer_size = BUFSZ;
	s.log_file_mode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
	s.nr_cpus = 1;
	s.pointer_size = 8;
	s.clock_type = NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME;
	s.frequency = 10000000;
	s.start_clock = T0;
	s.start_time = T0;
	s.boot_time = T0 - 36000000000ULL;
	snprintf(s.name, sizeof(s.name), "NT Kernel Logger");
	b->conf.buffer_size = BUFSZ;
	b->conf.clock_type = s.clock_type;
	b->conf.frequency = s.frequency;
	b->conf.start_time = T0;
	b->conf.start_perf_clock = T0;
	b->lost_cpu = -1;
	if (!tap_eq(nttrace_logfile_open(&b->lf, path, &s), 0, "image ids: a kernel trace written")) {
		free(b);
		return;
	}
	ntr_buffer_open(b->buf[0], &b->conf, 0);
	b->end[0] = NTTRACE_WMI_BUFFER_HEADER_SIZE;
	image_record(b, 0x1403, T0 + 10, exe, 0x400000);		/* DCStart */
	image_record(b, 0x140A, T0 + 20, "/no/such/lib.so", 0x7f0000000000ULL);
	image_record(b, 0x140A, T0 + 30, exe, 0x7f1000000000ULL);	/* Load */
	/* A copy, gone before the perf.data conversion: its ImageId must do. */
	snprintf(copy, sizeof(copy), "%s/merge-exe-copy", dir);
	run("cp '%s' '%s'", exe, copy);
	image_record(b, 0x140A, T0 + 40, copy, 0x7f2000000000ULL);
	seal(b, 0);
	tap_eq(nttrace_logfile_close(&b->lf, 0, 0), 0, "image ids: ... closed");
	free(b);

	unlink(out);
	tap_eq(run("%s merge -o %s %s 2>%s/merge-stderr.txt", tool, out, path, dir), 0,
	       "image ids: merge, exit 0");
	tap_eq(run("grep -q '1 image has no ImageId' %s/merge-stderr.txt", dir), 0,
	       "image ids: the image whose file is not here said and counted");
	if (!tap_eq(nttrace_etl_open(&r, out, NULL, NULL), 0, "image ids: the output opens"))
		return;
	while (nttrace_etl_next(r, &ev)) {
		if (is_merge_event(&ev) && parse_image_id(&ev, &id) && id.file[0] == '/' &&
		    strstr(id.file, exe)) {
			ids++;
			after_image += (prev_hook == 0x1403 || prev_hook == 0x140A) &&
				       prev_base == id.base;
			right += id.pid == 4242 && id.size == 0x20000 && want[0] &&
				 !strcmp(id.build_id, want) && !strcmp(id.file, exe);
		} else if (is_merge_event(&ev) && parse_image_id(&ev, &id) &&
			   strstr(id.file, "merge-exe-copy")) {
			ids++;
			after_image += prev_hook == 0x140A && prev_base == id.base;
		} else if (is_merge_event(&ev) && parse_image_id(&ev, &id) &&
			   strstr(id.file, "no/such")) {
			others++;
		}
		prev_hook = ev.system ? ev.hook_id : 0;
		prev_base = ev.system && ev.data_len >= 8 ? get(ev.data, 8) : 0;
	}
	nttrace_etl_close(r);
	tap_eq(ids, 3, "image ids: an ImageId for the DCStart and the Loads of files here");
	tap_eq(after_image, 3, "image ids: ... each right after its image's event");
	tap_eq(right, 2, "image ids: ... its process, size, file and readelf's build ID %s", want);
	/* perf.data's MMAP2 of the copy: the trace's build ID, the file gone. */
	unlink(copy);
	snprintf(perf, sizeof(perf), "%s/merge-images.perf", dir);
	tap_eq(run("%s convert --to perf-data %s %s 2>/dev/null", tool, perf, out), 0,
	       "image ids: convert --to perf-data of the merged file");
	tap_ok(holds_bytes(perf, want, "merge-exe-copy"),
	       "image ids: ... its MMAP2 of a file gone has the build ID the trace kept");
	unlink(perf);
	tap_eq(others, 0, "image ids: none for a file not here");
	tap_eq(run("%s dump %s | grep -q 'nttrace-merge/ImageId ProcessId=4242 "
		   "ImageBase=0x400000 ImageSize=0x20000 BuildId=%s'", tool, out, want), 0,
	       "image ids: dump names its fields (TDH)");
	unlink(out);
	tap_eq(run("%s merge --no-image-ids -o %s %s 2>/dev/null", tool, out, path), 0,
	       "image ids: --no-image-ids, exit 0");
	tap_eq(run("%s dump %s | grep -c ImageId | grep -qx 0", tool, out), 0,
	       "image ids: ... and none written");
	unlink(out);
	unlink(path);
}

int main(int argc, char **argv)
{
	const char *tool, *dir;
	char out[600], junk[600];
	unsigned int k, sum;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: merge_test NTTRACE DIR\n");
		return 2;
	}
	tool = argv[1];
	dir = argv[2];
	/* Whatever the umask, trace files are 0600: check_modes(). */
	umask(0);
	for (k = 0; k < NIN; k++) {
		tap_eq(write_input(k, dir), 0, "input %u written", k + 1);
		tap_eq(read_input(k), 0, "input %u read back", k + 1);
	}
	sum = in[0].total + in[1].total + in[2].total;
	tap_eq(sum, NIN * NREC, "the inputs hold their %u events", NIN * NREC);
	tap_ok(in[0].ev[1] && in[0].ev[1][0].filetime < in[1].ev[0][0].filetime &&
	       in[1].ev[0][0].filetime < in[0].ev[0][NREC / 2 - 1].filetime,
	       "inputs 1 and 2 overlap in time");

	snprintf(out, sizeof(out), "%s/merge-out.etl", dir);
	unlink(out);
	tap_eq(run("%s merge -o %s %s %s %s 2>%s/merge-stderr.txt", tool, out, in[0].path,
		   in[1].path, in[2].path, dir), 0, "merge: exit 0");
	tap_eq(run("grep -q 'merge-in2.etl: its 45 messages say no pointer size' "
		   "%s/merge-stderr.txt", dir), 0,
	       "merge: says that input 2's messages lose their pointer size");
	check_output(out, -1, 0, "merge");
	check_modes(tool, dir, out);
	tap_eq(run("%s dump %s >%s/merge-dump.txt", tool, out, dir), 0, "dump of the output: exit 0");
	tap_eq(run("grep -q 'nttrace-merge/MergeInput Input=2 Path=%s .*PointerSize=4 "
		   "ClockType=2 Clock=system time' %s/merge-dump.txt", in[1].path, dir), 0,
	       "dump names the MergeInput event and its fields (TDH)");

	/* Input 2 1.5 s earlier: its events before input 1's where they overlapped. */
	unlink(out);
	tap_eq(run("%s merge --offset 2=-1.5 -o %s %s %s %s 2>/dev/null", tool, out, in[0].path,
		   in[1].path, in[2].path), 0, "merge --offset 2=-1.5: exit 0");
	check_output(out, 1, -15000000, "--offset");

	/* Errors: nothing written, nothing left. */
	unlink(out);
	tap_eq(run("%s merge -o %s %s %s/no-such.etl 2>/dev/null", tool, out, in[0].path, dir), 1,
	       "a missing input: exit 1");
	tap_ok(none_left(dir, "merge-out.etl"), "... and no output, nor a temporary file");
	snprintf(junk, sizeof(junk), "%s/merge-junk.etl", dir);
	f = fopen(junk, "w");
	if (f) {
		fputs("not an ETL file at all\n", f);
		fclose(f);
	}
	tap_eq(run("%s merge -o %s %s %s 2>%s/merge-stderr.txt", tool, out, in[0].path, junk,
		   dir), 1, "an input that is not ETL: exit 1");
	tap_eq(run("grep -q 'merge-junk.etl' %s/merge-stderr.txt", dir), 0,
	       "... named in the message");
	tap_ok(none_left(dir, "merge-out.etl"), "... and no output, nor a temporary file");

	/*
	 * A damaged input: input 1 with its third buffer's first record
	 * marker zeroed. The rest is merged, the damage said, exit 1.
	 */
	tap_eq(run("cp %s %s && printf '\\0\\0\\0\\0' | dd of=%s bs=1 seek=%d conv=notrunc "
		   "2>/dev/null", in[0].path, junk, junk, 2 * BUFSZ + NTTRACE_WMI_BUFFER_HEADER_SIZE),
	       0, "a damaged copy of input 1");
	tap_eq(run("%s merge -o %s %s %s 2>%s/merge-stderr.txt", tool, out, junk, in[2].path, dir),
	       1, "a damaged input: exit 1");
	tap_eq(run("grep -q 'merge-junk.etl: damaged, not merged: 0 records, 0 buffers, [1-9]' "
		   "%s/merge-stderr.txt", dir), 0, "... the damage said and counted");
	tap_eq(run("%s dump %s >/dev/null", tool, out), 0, "... the rest merged, readable");
	unlink(out);

	check_image_ids(tool, dir);

	/* Usage. */
	tap_eq(run("%s merge %s 2>/dev/null", tool, in[0].path), 2, "no -o: exit 2");
	tap_eq(run("%s merge -o %s 2>/dev/null", tool, out), 2, "no input: exit 2");
	tap_eq(run("%s merge --offset 4=1 -o %s %s 2>/dev/null", tool, out, in[0].path), 2,
	       "--offset of an input not given: exit 2");
	tap_eq(run("%s merge --offset 1=x -o %s %s 2>/dev/null", tool, out, in[0].path), 2,
	       "--offset with no number: exit 2");
	tap_eq(run("%s merge -o %s %s %s 2>/dev/null", tool, in[1].path, in[0].path, in[1].path),
	       2, "the output one of the inputs: exit 2");
	tap_eq(run("%s dump %s >/dev/null 2>&1", tool, in[1].path), 0,
	       "... which is left as it was");
	tap_eq(run("%s merge --help >/dev/null", tool), 0, "--help: exit 0");
	return tap_done();
}
