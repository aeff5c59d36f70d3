// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace merge: ETL files from several sessions or machines as one ETL
 * file in time order, as Windows' relogger makes it. Each input is read
 * with the reader (<nttrace/etl.h>), which dates every event from its
 * file's header (QPC, system time or CPU cycles, whatever the clock); the
 * output is written with the writer, on the system-time clock, so that
 * each record's time stamp becomes its UTC FILETIME. Like the relogger,
 * nothing corrects the skew between machines' wall clocks: --offset
 * shifts one input by what the user knows of it.
 *
 * What is kept and what is changed:
 *  - A record's bytes are copied whole but for its time stamp, rewritten
 *    where its kind keeps it (ts_offset()). A record with no time stamp of
 *    its own (a message without TRACE_MESSAGE_TIMESTAMP, a kind the reader
 *    does not decode) takes the last one of its CPU's stream, in the
 *    output as in the input, because each input CPU's stream is carried
 *    over whole and in order into one output CPU's stream (below).
 *  - Where an event came from is its output CPU: CPU 0 holds the merge's
 *    own events, one per input (source_event()); input k's CPU c is
 *    output CPU first_k + c, the CPUs of each input one after the other
 *    in the order given. So every output buffer holds one input's events,
 *    each output stream is one input stream in its own order (which is
 *    what makes the time stamps of records without one come out right),
 *    and the file costs no more buffers than its inputs. Keeping the CPU
 *    numbers instead would put several inputs in one stream, which a
 *    reader takes in buffer order: ordering it would need a buffer closed
 *    at every switch of input, a whole buffer per event where inputs
 *    interleave. The original CPU is the output CPU minus the input's
 *    first, which its source event gives (FirstCpu, CpuCount); the
 *    header's NumberOfProcessors is 1 plus the inputs' CPUs.
 *  - The source events: TraceLogging events (provider "nttrace-merge",
 *    event "MergeInput"), so that TDH, nttrace's or Windows', names their
 *    fields with no manifest: the input's number, path, logger name,
 *    pointer size, clock, start time, the offset applied, its output
 *    CPUs, its events and what its header says was lost. They are the
 *    first events, at the output's start: the earliest of the inputs'
 *    start times and events.
 *  - PointerSize: the inputs' when they agree, else 8. EventWrite,
 *    classic and kernel records say their own in their header type, and
 *    messages may in their TRACE_MESSAGE_POINTER32/64 flags (consumers
 *    take the file's PointerSize only when neither is set); a 32-bit
 *    input's messages without them, in an 8-byte output, are read with
 *    the wrong pointer size: said on stderr, with their count.
 *  - Losses: EventsLost and BuffersLost are the inputs' sums; an event
 *    the reader says follows a loss (its buffer's flag) starts an output
 *    buffer carrying the same flag, so the loss stays just before it.
 *  - Damage: what the reader reports in an input (with its offset) is
 *    said on stderr, what it skipped counted, the output written with the
 *    rest, and the exit status is 1.
 *
 * The inputs are read twice: once to check that each is an ETL file
 * whose events can all be dated, and to count its CPUs and events and
 * find the output's start, before anything is written; then merged, one
 * event per input in memory. The output is written to a temporary file
 * beside it and renamed at the end: a failed merge leaves nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include <nttrace/evntrace.h>
#include "record.h"
#include "buildid.h"
#include "cli.h"
#include "imageid.h"
#include "samples.h"

#define UNITS_PER_SECOND	10000000LL	/* FILETIME's 100 ns */
/* Room for the source events whatever the inputs' buffer size. */
#define MIN_BUFFER		8192U
#define PATH_MAX_SHOWN		1024

struct input {
	const char *path;
	int64_t offset;			/* --offset, in 100 ns units */
	struct nttrace_etl_info info;
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;	/* the next event, when @have */
	int have;
	uint32_t ncpus, first_cpu;	/* its CPUs, and its first in the output */
	uint64_t events, messages, problems;	/* @messages: without a pointer size */
	uint64_t first, last;		/* FILETIMEs, offset applied */
};

/* One output CPU's buffer being filled. */
struct out_cpu {
	uint8_t *buf;
	uint32_t end;			/* records end here */
	uint16_t lost;			/* loss flags for the buffer */
	uint64_t last_ts;
	int dated;			/* a record with a time stamp written */
};

static struct {
	struct input *in;
	unsigned int n;
	struct out_cpu *cpu;
	uint32_t ncpus, buffer_size;
	struct ntr_buffer_conf conf;
	struct nttrace_logfile lf;
	uint64_t seq, start, end_time, undated;
	int image_ids;			/* ImageId events (not --no-image-ids) */
	uint64_t images_named, images_unnamed;
} m;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace merge -o OUT.etl [--offset N=SECONDS]... [--no-image-ids] FILE...\n\n"
		"Merge ETL files (of several sessions or machines) into OUT.etl, one ETL\n"
		"file whose events are in time order, as Windows' relogger does. Each\n"
		"input's time stamps are converted to UTC by its own header (QPC, system\n"
		"time or CPU-cycle clock) and written as FILETIMEs (the output's clock is\n"
		"system time); the records are otherwise copied byte for byte. Nothing\n"
		"corrects the skew between machines' clocks: --offset N=SECONDS shifts\n"
		"input N (1 for the first FILE) by SECONDS (negative, fractional: -1.5).\n\n"
		"What names each image's symbols: after each Image event (Load and the\n"
		"rundown's), an ImageId event (TraceLogging, provider nttrace-merge) with\n"
		"the process, base, size, file name and ELF build ID of the file, read\n"
		"on this machine, as Windows' merge adds ImageID and DbgID_RSDS events:\n"
		"merge on the machine traced, or give --no-image-ids.\n\n"
		"Where each event came from: the output's first events, one per input\n"
		"(TraceLogging, provider nttrace-merge, event MergeInput), give the\n"
		"input's number, path, logger, pointer size, clock, start time and\n"
		"offset, and its CPUs in the output: input N's CPU c is output CPU\n"
		"FirstCpu + c (CPU 0 holds the MergeInput events). A damaged part of an\n"
		"input is said and skipped, the rest merged, and the exit status is 1; an\n"
		"input that cannot be read or dated is an error, and no OUT is written.\n");
}

/* The reader's problems in an input, on stderr with its path (pass 1). */
static void problem(void *ctx, uint64_t offset, const char *what)
{
	struct input *in = ctx;

	in->problems++;
	fprintf(stderr, "nttrace merge: %s: offset %" PRIu64 ": %s\n", in->path, offset, what);
}

/* --offset N=SECONDS, N from 1 to @n; CLI_USAGE on a bad value. */
static int parse_offset(const char *arg, unsigned int n)
{
	const char *eq = strchr(arg, '=');
	char num[16], *end;
	uint64_t k;
	double s;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(num)) {
		fprintf(stderr, "nttrace merge: --offset %s: not N=SECONDS\n", arg);
		return CLI_USAGE;
	}
	memcpy(num, arg, eq - arg);
	num[eq - arg] = 0;
	if (cli_uint("--offset's N", num, 1, n, 0, &k))
		return CLI_USAGE;
	errno = 0;
	s = strtod(eq + 1, &end);
	/* 10^9 s (30 years): far beyond any skew, and it keeps 100 ns exact. */
	if (!eq[1] || *end || errno || !(s >= -1e9 && s <= 1e9)) {
		fprintf(stderr, "nttrace merge: --offset %s: SECONDS is not a number of "
			"seconds (at most 1e9 either way)\n", arg);
		return CLI_USAGE;
	}
	/* To the nearest 100 ns (no libm: the tool links none). */
	s *= UNITS_PER_SECOND;
	m.in[k - 1].offset = (int64_t)(s < 0 ? s - 0.5 : s + 0.5);
	return 0;
}

/* @ft shifted by the input's offset; 0 when it leaves FILETIME's range. */
static uint64_t shifted(const struct input *in, uint64_t ft)
{
	if (!ft)
		return 0;
	if (in->offset < 0)
		return (uint64_t)-in->offset >= ft ? 0 : ft - (uint64_t)-in->offset;
	return ft > INT64_MAX - (uint64_t)in->offset ? 0 : ft + (uint64_t)in->offset;
}

static int open_input(struct input *in, int report)
{
	int ret = nttrace_etl_open(&in->r, in->path, report ? problem : NULL, in);

	if (ret) {
		fprintf(stderr, "nttrace merge: %s: %s\n", in->path,
			ret == -EINVAL ? "not an ETL file" : strerror(-ret));
		in->r = NULL;
		return 1;
	}
	in->info = *nttrace_etl_info(in->r);
	if (!in->info.has_header) {
		fprintf(stderr, "nttrace merge: %s: no logfile header: its events cannot be "
			"dated\n", in->path);
		return 1;
	}
	return 0;
}

/*
 * Pass 1: the input is an ETL file, every event of it has a FILETIME
 * (its header gives a clock rate and a start), and its CPUs, events and
 * first and last times are known.
 */
static int scan(struct input *in)
{
	struct nttrace_etl_event ev;
	uint32_t max_cpu = 0;

	if (open_input(in, 1))
		return 1;
	in->first = UINT64_MAX;
	while (nttrace_etl_next(in->r, &ev)) {
		uint64_t ft = shifted(in, ev.filetime);

		if (!ft) {
			fprintf(stderr, "nttrace merge: %s: offset %" PRIu64 ": the event cannot "
				"be dated (%s)\n", in->path, ev.offset, ev.filetime ?
				"the offset takes it out of FILETIME's range" :
				"the header gives no clock rate or start time");
			return 1;
		}
		if (ev.cpu > max_cpu)
			max_cpu = ev.cpu;
		if (ft < in->first)
			in->first = ft;
		if (ft > in->last)
			in->last = ft;
		in->events++;
		/* Messages whose pointer size is the file's: they lose it here. */
		in->messages += ev.message &&
				!(ev.flags & (TRACE_MESSAGE_POINTER32 | TRACE_MESSAGE_POINTER64));
	}
	in->ncpus = in->events ? max_cpu + 1 : 0;
	nttrace_etl_close(in->r);
	in->r = NULL;
	return 0;
}

/* Where the record's own time stamp is, or -1 when it has none. */
static int ts_offset(const struct nttrace_etl_event *ev)
{
	if (ev->message) {
		if (!(ev->flags & TRACE_MESSAGE_TIMESTAMP))
			return -1;
		/* After the header (8), the sequence and the GUID or component ID. */
		return 8 + (ev->flags & TRACE_MESSAGE_SEQUENCE ? 4 : 0) + ev->guid_len;
	}
	if (!ev->has_timestamp)
		return -1;
	/* PERFINFO_TRACE_HEADER: right after the marker and size; others at 0x10. */
	return ev->system == NTTRACE_ETL_PERFINFO_HEADER_SIZE ? 8 : 0x10;
}

/* Seal and write the CPU's buffer (if it has records); 0 or 1. */
static int flush(uint32_t cpu)
{
	struct out_cpu *o = &m.cpu[cpu];

	if (!o->buf || o->end <= NTTRACE_WMI_BUFFER_HEADER_SIZE)
		return 0;
	ntr_buffer_seal(o->buf, o->end, o->last_ts, ++m.seq, o->lost);
	nttrace_logfile_buffer(&m.lf, o->buf, m.buffer_size, cpu);
	if (m.lf.error) {
		fprintf(stderr, "nttrace merge: writing: %s\n", strerror(m.lf.error));
		return 1;
	}
	o->lost = 0;
	ntr_buffer_open(o->buf, &m.conf, cpu);
	o->end = NTTRACE_WMI_BUFFER_HEADER_SIZE;
	return 0;
}

/*
 * Room for @size bytes of record in CPU @cpu's buffer, a new one when it
 * is full or when @lost (the loss must be just before this record):
 * where to put them, or NULL on an error (said).
 */
static uint8_t *room(uint32_t cpu, uint32_t size, uint16_t lost)
{
	struct out_cpu *o = &m.cpu[cpu];
	uint32_t padded = (size + 7) & ~7u;
	uint8_t *p;

	if (!o->buf) {
		o->buf = malloc(m.buffer_size);
		if (!o->buf) {
			fprintf(stderr, "nttrace merge: out of memory\n");
			return NULL;
		}
		ntr_buffer_open(o->buf, &m.conf, cpu);
		o->end = NTTRACE_WMI_BUFFER_HEADER_SIZE;
	}
	if ((lost || padded > m.buffer_size - o->end) && flush(cpu))
		return NULL;
	o->lost |= lost;
	p = o->buf + o->end;
	memset(p + size, 0, padded - size);
	o->end += padded;
	return p;
}

/* A NUL-ended UTF-8 string, cut at @max bytes, at @p; the bytes taken. */
static uint32_t put_str(uint8_t *p, const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n > max)
		n = max;
	memcpy(p, s, n);
	p[n] = 0;
	return n + 1;
}

static const char *clock_name(uint32_t clock)
{
	switch (clock) {
	case NTTRACE_ETL_CLOCK_QPC: return "QPC";
	case NTTRACE_ETL_CLOCK_SYSTEM: return "system time";
	case NTTRACE_ETL_CLOCK_CYCLE: return "CPU cycles";
	default: return "other (PerfFreq)";
	}
}

/* TraceLogging metadata: a field's name and InType, with an OutType if @out. */
static uint32_t tl_field(uint8_t *p, const char *name, uint8_t in, uint8_t out)
{
	uint32_t n = put_str(p, name, 64);

	p[n++] = in | (out ? 0x80 : 0);
	if (out)
		p[n++] = out;
	return n;
}

/* TraceLogging's InTypes (TDH_INTYPE_* of the same numbers) and OutType. */
#define TL_ANSISTRING	2
#define TL_INT64	9
#define TL_UINT32	8
#define TL_UINT64	10
#define TL_FILETIME	17
#define TL_OUT_HEX	4
#define TL_OUT_UTF8	0x23

/*
 * An EventWrite record of provider nttrace-merge, event @name with the
 * TraceLogging fields @fields (tl_field()'s, @nf bytes) and the data @data
 * (@nd bytes), by this process, at time @ts on output CPU @cpu; 0, or 1
 * on an error (said).
 */
static int tl_event(uint32_t cpu, uint64_t ts, uint32_t psz, const char *name,
		    const uint8_t *fields, uint32_t nf, const uint8_t *data, uint32_t nd)
{
	static const struct nttrace_event_descriptor desc = {
		.level = 4,		/* information */
		.channel = 11,		/* TraceLogging's */
	};
	static const uint8_t no_activity[16];
	uint8_t meta[512], traits[32];
	uint32_t nm = 2, nt = 2;
	struct ntr_event e = { 0 };
	struct ntr_event_layout l;
	uint8_t *rec;

	nt += put_str(traits + nt, "nttrace-merge", 32);
	ntr_put_le(traits, nt, 2);
	meta[nm++] = 0;		/* no event tags */
	nm += put_str(meta + nm, name, 32);
	memcpy(meta + nm, fields, nf);
	nm += nf;
	ntr_put_le(meta, nm, 2);

	e.ptr32 = psz == 4;
	e.descriptor = &desc;
	e.provider_id = merge_provider;
	e.activity_id = no_activity;
	e.traits_size = nt;
	e.schema_size = nm;
	e.time_stamp = ts;
	e.thread_id = syscall(SYS_gettid);
	e.process_id = getpid();
	ntr_event_layout(&e, &l);
	e.size = l.data + nd;
	rec = room(cpu, e.size, 0);
	if (!rec)
		return 1;
	memcpy(rec + l.traits, traits, nt);
	memcpy(rec + l.schema, meta, nm);
	memcpy(rec + l.data, data, nd);
	ntr_event_encode(rec, &e);
	m.cpu[cpu].last_ts = ts;
	m.cpu[cpu].dated = 1;
	return 0;
}

/*
 * The event that says where input @in's events are and what it was, at
 * the output's start on CPU 0.
 */
static int source_event(struct input *in, unsigned int k, uint32_t psz)
{
	uint8_t meta[400], data[PATH_MAX_SHOWN + NTTRACE_NAME_MAX + 128];
	uint32_t nm = 0, nd = 0;

	nm += tl_field(meta + nm, "Input", TL_UINT32, 0);
	nm += tl_field(meta + nm, "Path", TL_ANSISTRING, TL_OUT_UTF8);
	nm += tl_field(meta + nm, "LoggerName", TL_ANSISTRING, TL_OUT_UTF8);
	nm += tl_field(meta + nm, "PointerSize", TL_UINT32, 0);
	nm += tl_field(meta + nm, "ClockType", TL_UINT32, 0);
	nm += tl_field(meta + nm, "Clock", TL_ANSISTRING, 0);
	nm += tl_field(meta + nm, "PerfFreq", TL_UINT64, 0);
	nm += tl_field(meta + nm, "StartTime", TL_FILETIME, 0);
	nm += tl_field(meta + nm, "Offset100ns", TL_INT64, 0);
	nm += tl_field(meta + nm, "FirstCpu", TL_UINT32, 0);
	nm += tl_field(meta + nm, "CpuCount", TL_UINT32, 0);
	nm += tl_field(meta + nm, "Events", TL_UINT64, 0);
	nm += tl_field(meta + nm, "EventsLost", TL_UINT32, 0);
	nm += tl_field(meta + nm, "BuffersLost", TL_UINT32, 0);

	ntr_put_le(data + nd, k + 1, 4);
	nd += 4;
	nd += put_str(data + nd, in->path, PATH_MAX_SHOWN);
	nd += put_str(data + nd, in->info.logger_name, NTTRACE_NAME_MAX);
	ntr_put_le(data + nd, in->info.pointer_size, 4);
	ntr_put_le(data + nd + 4, in->info.clock, 4);
	nd += 8;
	nd += put_str(data + nd, clock_name(in->info.clock), 32);
	ntr_put_le(data + nd, in->info.perf_freq, 8);
	ntr_put_le(data + nd + 8, in->info.start_time, 8);	/* as its header says */
	ntr_put_le(data + nd + 16, (uint64_t)in->offset, 8);
	ntr_put_le(data + nd + 24, in->first_cpu, 4);
	ntr_put_le(data + nd + 28, in->ncpus, 4);
	ntr_put_le(data + nd + 32, in->events, 8);
	ntr_put_le(data + nd + 40, in->info.events_lost, 4);
	ntr_put_le(data + nd + 44, in->info.buffers_lost, 4);
	nd += 48;
	return tl_event(0, m.start, psz, "MergeInput", meta, nm, data, nd);
}

/*
 * After an image's event (Image/Load, DCStart, DCEnd), what names its
 * file's debugging information, as Windows' merge writes KernelTraceControl's
 * ImageID and DbgID_RSDS events after each image: an ImageId event with
 * the image's process, base, size, file name and the file's ELF build ID
 * (hex), read from the file on this machine. Nothing when the file cannot
 * be read or has no build ID (counted in m.images_unnamed). No Windows
 * event holds a build ID (DbgID_RSDS holds a PDB's GUID and age, which it
 * is not), so this is a TraceLogging event of the merge's own provider,
 * whose fields every reader, TDH included, can name.
 */
static int image_id_event(const struct input *in, uint64_t ft, uint32_t cpu, uint32_t psz)
{
	const struct nttrace_etl_event *ev = &in->ev;
	const struct nttrace_kernel_class *cls;
	struct nttrace_kernel_value v;
	uint8_t meta[160], data[PATH_MAX_SHOWN + 96], id[TOOL_BUILD_ID_MAX];
	char path[PATH_MAX_SHOWN], hex[2 * TOOL_BUILD_ID_MAX + 1];
	uint64_t base, size;
	uint32_t nm = 0, nd = 0, pid, len = ev->data_len;
	unsigned int n, psize;
	uint8_t type;

	if (!m.image_ids || !ev->system ||
	    (ev->hook_id != 0x140A && ev->hook_id != 0x1403 && ev->hook_id != 0x1404))
		return 0;
	cls = nttrace_kernel_class(ev->hook_id, ev->rec[0]);
	/* The header's type says the pointer size: SYSTEM, COMPACT, PERFINFO 64. */
	type = ev->rec[2];
	psize = type == 0x02 || type == 0x04 || type == 0x11 ? 8 : 4;
	if (!cls || !prof_field(cls, ev->data, len, psize, "ProcessId", &v))
		return 0;
	pid = (uint32_t)v.u;
	if (!prof_field(cls, ev->data, len, psize, "ImageBase", &v))
		return 0;
	base = v.u;
	if (!prof_field(cls, ev->data, len, psize, "ImageSize", &v))
		return 0;
	size = v.u;
	if (!prof_field(cls, ev->data, len, psize, "FileName", &v))
		return 0;
	prof_text(&v, path, sizeof(path));
	n = path[0] == '/' ? tool_build_id(path, id) : 0;
	if (!n) {
		m.images_unnamed++;
		return 0;
	}
	tool_build_id_hex(id, n, hex);
	nm += tl_field(meta + nm, "ProcessId", TL_UINT32, 0);
	nm += tl_field(meta + nm, "ImageBase", TL_UINT64, TL_OUT_HEX);
	nm += tl_field(meta + nm, "ImageSize", TL_UINT64, TL_OUT_HEX);
	nm += tl_field(meta + nm, "BuildId", TL_ANSISTRING, 0);
	nm += tl_field(meta + nm, "FileName", TL_ANSISTRING, TL_OUT_UTF8);
	ntr_put_le(data, pid, 4);
	ntr_put_le(data + 4, base, 8);
	ntr_put_le(data + 12, size, 8);
	nd = 20;
	nd += put_str(data + nd, hex, sizeof(hex) - 1);
	nd += put_str(data + nd, path, PATH_MAX_SHOWN - 1);
	m.images_named++;
	return tl_event(cpu, ft, psz, MERGE_IMAGE_ID, meta, nm, data, nd);
}

/*
 * The input whose next event is the earliest; ties: the first given. This
 * orders the buffers in the file; what a reader sees of ties is set by
 * the CPUs (each input's are above the one's before it, and nttrace's
 * reader takes the lowest CPU of a tie first), and comes out the same.
 */
static struct input *earliest(void)
{
	struct input *best = NULL;
	unsigned int k;

	for (k = 0; k < m.n; k++) {
		struct input *in = &m.in[k];

		if (!in->have && in->r)
			in->have = nttrace_etl_next(in->r, &in->ev);
		if (in->have && (!best || shifted(in, in->ev.filetime) <
					  shifted(best, best->ev.filetime)))
			best = in;
	}
	return best;
}

/* Copy @in's current event to its output CPU, its time stamp its FILETIME. */
static int copy_event(struct input *in)
{
	const struct nttrace_etl_event *ev = &in->ev;
	uint64_t ft = shifted(in, ev->filetime);
	int at = ts_offset(ev);
	uint32_t cpu = in->first_cpu + ev->cpu;
	uint8_t *rec;

	/* The file changed since pass 1: its CPUs or dates are not those counted. */
	if (ev->cpu >= in->ncpus || !ft) {
		fprintf(stderr, "nttrace merge: %s: changed while being merged\n", in->path);
		return 1;
	}
	rec = room(cpu, ev->size, ev->lost);
	if (!rec)
		return 1;
	memcpy(rec, ev->rec, ev->size);
	if (at >= 0) {
		ntr_put_le(rec + at, ft, 8);
		m.cpu[cpu].dated = 1;
	} else if (!m.cpu[cpu].dated) {
		/* Nothing before it in its stream to take a time from. */
		m.undated++;
	}
	m.cpu[cpu].last_ts = ft;
	in->have = 0;
	return 0;
}

/* The header's final counts and EndTime, then the file closed; 0 or 1. */
static int finish(uint64_t events_lost, uint64_t buffers_lost)
{
	uint8_t *hdr = malloc(m.buffer_size);
	uint32_t cpu;
	int ret = 0;

	for (cpu = 0; cpu < m.ncpus; cpu++)
		if (flush(cpu))
			ret = 1;
	/*
	 * nttrace_logfile_close() would date the end now; the merged trace
	 * ends at its last event (or the latest input's EndTime).
	 */
	if (!hdr) {
		fprintf(stderr, "nttrace merge: out of memory\n");
		ret = 1;
	} else if (!ret) {
		nttrace_etl_header(hdr, &m.lf.s, m.lf.path, m.end_time,
				   m.lf.buffers + 1 > UINT32_MAX ? UINT32_MAX : m.lf.buffers + 1,
				   events_lost > UINT32_MAX ? UINT32_MAX : events_lost,
				   buffers_lost > UINT32_MAX ? UINT32_MAX : buffers_lost);
		if (pwrite(m.lf.fd, hdr, m.buffer_size, 0) != (ssize_t)m.buffer_size ||
		    fsync(m.lf.fd)) {
			fprintf(stderr, "nttrace merge: writing the header: %s\n",
				strerror(errno ? errno : EIO));
			ret = 1;
		}
	}
	free(hdr);
	if (close(m.lf.fd) && !ret) {
		fprintf(stderr, "nttrace merge: closing: %s\n", strerror(errno));
		ret = 1;
	}
	m.lf.fd = -1;
	return ret;
}

/* Is @out one of the inputs (the same file, by any name)? */
static int is_input(const char *out)
{
	struct stat so, si;
	unsigned int k;

	if (stat(out, &so))
		return 0;
	for (k = 0; k < m.n; k++)
		if (!stat(m.in[k].path, &si) && si.st_dev == so.st_dev &&
		    si.st_ino == so.st_ino)
			return 1;
	return 0;
}

/* Pass 2: the output, written to @fd (named @out in its header); 0, or 1. */
static int write_merged(int fd, const char *out, uint32_t psz, uint64_t *skipped)
{
	struct nttrace_etl_session s = { 0 };
	uint64_t events_lost = 0, buffers_lost = 0;
	struct input *in;
	unsigned int k;
	int ret;

	s.buffer_size = m.buffer_size;
	s.nr_cpus = m.ncpus;
	s.pointer_size = psz;
	s.log_file_mode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
	s.clock_type = NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME;
	s.frequency = UNITS_PER_SECOND;
	/* On the system clock the header event's time stamp is StartTime. */
	s.start_clock = m.start;
	s.start_time = m.start;
	/* The machines' boot times differ: the first input's, shifted as it is. */
	s.boot_time = shifted(&m.in[0], m.in[0].info.boot_time);
	s.logger_pid = getpid();
	s.logger_tid = syscall(SYS_gettid);
	snprintf(s.name, sizeof(s.name), "nttrace-merge");
	m.conf.buffer_size = m.buffer_size;
	m.conf.clock_type = NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME;
	m.conf.frequency = UNITS_PER_SECOND;
	m.conf.start_time = m.start;
	m.conf.start_perf_clock = m.start;
	ret = nttrace_logfile_init(&m.lf, fd, out, &s);
	if (ret) {
		fprintf(stderr, "nttrace merge: %s: %s\n", out, strerror(-ret));
		close(fd);
		return 1;
	}
	for (k = 0; k < m.n; k++) {
		in = &m.in[k];
		events_lost += in->info.events_lost;
		buffers_lost += in->info.buffers_lost;
		if (source_event(in, k, psz) || open_input(in, 0))
			goto fail;
	}
	while ((in = earliest())) {
		uint32_t cpu = in->first_cpu + in->ev.cpu;

		/* copy_event() leaves in->ev as it was until the next earliest(). */
		if (copy_event(in) || image_id_event(in, shifted(in, in->ev.filetime), cpu, psz))
			goto fail;
	}
	for (k = 0; k < m.n; k++) {
		struct nttrace_etl_counts c;

		nttrace_etl_counts(m.in[k].r, &c);
		if (c.records != m.in[k].events) {
			fprintf(stderr, "nttrace merge: %s: changed while being merged\n",
				m.in[k].path);
			goto fail;
		}
		if (c.records_skipped || c.buffers_skipped || c.bytes_skipped)
			fprintf(stderr, "nttrace merge: %s: damaged, not merged: %" PRIu64
				" records, %" PRIu64 " buffers, %" PRIu64 " bytes of records\n",
				m.in[k].path, c.records_skipped, c.buffers_skipped,
				c.bytes_skipped);
		*skipped += c.records_skipped + c.buffers_skipped + c.bytes_skipped;
	}
	if (m.images_unnamed)
		fprintf(stderr, "nttrace merge: %" PRIu64 " image%s no ImageId: %s file is not "
			"on this machine or has no ELF build ID\n", m.images_unnamed,
			m.images_unnamed == 1 ? " has" : "s have",
			m.images_unnamed == 1 ? "its" : "their");
	return finish(events_lost, buffers_lost);
fail:
	close(m.lf.fd);
	m.lf.fd = -1;
	return 1;
}

static int run(const char *out)
{
	uint64_t skipped = 0, problems = 0;
	uint32_t psz = 0, cpu;
	unsigned int k;
	char *tmp;
	struct stat st;
	int fd, ret = 1;

	m.start = UINT64_MAX;
	m.ncpus = 1;			/* CPU 0: the source events */
	m.buffer_size = MIN_BUFFER;
	for (k = 0; k < m.n; k++) {
		struct input *in = &m.in[k];
		uint64_t st;

		if (scan(in))
			return 1;
		problems += in->problems;
		st = shifted(in, in->info.start_time);
		if (st && st < m.start)
			m.start = st;
		if (in->events && in->first < m.start)
			m.start = in->first;
		if (in->last > m.end_time)
			m.end_time = in->last;
		if (shifted(in, in->info.end_time) > m.end_time)
			m.end_time = shifted(in, in->info.end_time);
		if (in->info.buffer_size > m.buffer_size)
			m.buffer_size = in->info.buffer_size;
		psz = !k || psz == in->info.pointer_size ? in->info.pointer_size : 8;
		if ((uint64_t)m.ncpus + in->ncpus > UINT16_MAX + 1ULL) {
			fprintf(stderr, "nttrace merge: more than %u CPUs in all\n",
				UINT16_MAX + 1);
			return 1;
		}
		in->first_cpu = m.ncpus;
		m.ncpus += in->ncpus;
	}
	if (m.start == UINT64_MAX) {
		fprintf(stderr, "nttrace merge: no input has a start time or an event\n");
		return 1;
	}
	if (m.end_time < m.start)
		m.end_time = m.start;
	for (k = 0; k < m.n; k++)
		if (psz == 8 && m.in[k].info.pointer_size == 4 && m.in[k].messages)
			fprintf(stderr, "nttrace merge: %s: its %" PRIu64 " messages say no "
				"pointer size of their own and are read with the output's, 8 "
				"(the input's was 4)\n", m.in[k].path, m.in[k].messages);
	m.cpu = calloc(m.ncpus, sizeof(*m.cpu));
	tmp = malloc(strlen(out) + 8);
	if (!m.cpu || !tmp) {
		fprintf(stderr, "nttrace merge: out of memory\n");
		goto out;
	}
	/*
	 * Written beside @out, then renamed over it: mkostemp's file is new
	 * (O_EXCL) and 0600, as every trace the tool writes (its events are
	 * other users' command lines, paths and addresses). A symbolic link
	 * at @out, which rename() would replace, is refused as the other
	 * commands refuse it.
	 */
	if (!lstat(out, &st) && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "nttrace merge: %s: %s\n", out, S_ISLNK(st.st_mode) ?
			cli_create_error(-ELOOP) : "not a regular file: not replaced");
		goto out;
	}
	sprintf(tmp, "%s.XXXXXX", out);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "nttrace merge: %s: %s\n", out, strerror(errno));
		goto out;
	}
	if (write_merged(fd, out, psz, &skipped) || rename(tmp, out)) {
		fprintf(stderr, "nttrace merge: %s: not written\n", out);
		unlink(tmp);
		goto out;
	}
	if (m.undated)
		fprintf(stderr, "nttrace merge: %" PRIu64 " records without a time stamp of "
			"their own begin a CPU's stream: dated 0 in %s\n", m.undated, out);
	ret = problems || skipped ? 1 : 0;
out:
	for (k = 0; k < m.n; k++)
		nttrace_etl_close(m.in[k].r);
	for (cpu = 0; m.cpu && cpu < m.ncpus; cpu++)
		free(m.cpu[cpu].buf);
	free(m.cpu);
	free(tmp);
	return ret;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "offset", required_argument, NULL, 'O' },
		{ "no-image-ids", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *out = NULL, **offsets;
	unsigned int noffsets = 0, k;
	int opt, ret;

	offsets = calloc(argc, sizeof(*offsets));
	if (!offsets)
		return 1;
	while ((opt = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'O':
			offsets[noffsets++] = optarg;
			break;
		case 'N':
			m.image_ids = -1;
			break;
		case 'h':
			usage(stdout);
			free(offsets);
			return 0;
		default:
			usage(stderr);
			free(offsets);
			return CLI_USAGE;
		}
	}
	if (!out || optind >= argc) {
		usage(stderr);
		free(offsets);
		return CLI_USAGE;
	}
	m.image_ids = m.image_ids >= 0;
	m.n = argc - optind;
	m.in = calloc(m.n, sizeof(*m.in));
	if (!m.in) {
		free(offsets);
		return 1;
	}
	for (k = 0; k < m.n; k++) {
		m.in[k].path = argv[optind + k];
		if (!strcmp(m.in[k].path, out)) {
			fprintf(stderr, "nttrace merge: the output %s is also an input\n", out);
			ret = CLI_USAGE;
			goto done;
		}
	}
	ret = 0;
	for (k = 0; k < noffsets && !ret; k++)
		ret = parse_offset(offsets[k], m.n);
	if (ret)
		goto done;
	if (is_input(out)) {
		fprintf(stderr, "nttrace merge: the output %s is also an input\n", out);
		ret = CLI_USAGE;
		goto done;
	}
	ret = run(out);
done:
	free(offsets);
	free(m.in);
	return ret;
}
