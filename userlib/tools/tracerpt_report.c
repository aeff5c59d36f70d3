// SPDX-License-Identifier: GPL-2.0
/*
 * `nttrace tracerpt -report`: what a trace says about where time went.
 *
 * Windows' tracerpt writes a report of a kernel trace whose layout is not
 * documented beyond its look: an XML file of sections and tables (the
 * shape Performance Logs and Alerts reports share: Report, Section,
 * Table, Item, Data name=...), or the same as HTML with -f HTML. nttrace
 * writes that shape, with tables of its own choosing, each a fact the
 * trace holds:
 *
 *   Trace      each file: its session, span, CPUs, buffers, events, losses
 *   Events     events by provider, and by provider, event ID and opcode
 *   Processes  (when the trace has the kernel's process events) each
 *              process seen: its image, CPU samples (PerfInfo
 *              SampledProfile), CPU time and context switches (Thread
 *              CSwitch: a thread's time runs from its switch in to its
 *              switch out, on that CPU), disk reads and writes (DiskIo),
 *              file reads and writes (FileIo) and network bytes (TcpIp),
 *              by the thread's process (Thread Start and its rundown name
 *              it; an event of a thread no event names counts for its
 *              header's process, or for none)
 *
 * Nothing in the trace is trusted: the tables grow with the processes and
 * threads it names (hash tables, linear in the events), and every text is
 * escaped for XML and HTML alike.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/etl.h>

#include "tracerpt.h"

/*
 * The NT Kernel Logger's event groups the report reads, by their HookIds'
 * high byte: the library's table of groups (nttrace_kernel_group()) gives
 * each its GUID, the event's ProviderId.
 */
#define GROUP_DISKIO	0x01
#define GROUP_PROCESS	0x03
#define GROUP_FILEIO	0x04
#define GROUP_THREAD	0x05
#define GROUP_TCPIP	0x06
#define GROUP_PERFINFO	0x0F

#define OP_START	1
#define OP_DCSTART	3
#define OP_CSWITCH	36
#define OP_SAMPLE	46
#define OP_DISK_READ	10
#define OP_DISK_WRITE	11
#define OP_FILE_READ	67
#define OP_FILE_WRITE	68
#define OP_TCP_SEND	10
#define OP_TCP_RECV	11
#define MAX_CPUS	4096	/* the CPUs whose switches are followed */
#define NO_PID		UINT32_MAX

enum { IO_DISK, IO_FILE, IO_NET, IO_KINDS };
enum { IO_IN, IO_OUT };	/* read or received, written or sent */

/*
 * The I/O the report counts: @in and @out, the opcodes of the two
 * directions; the process by thread field @thread, or (NULL) by field PID;
 * the bytes in field @bytes.
 */
static const struct io_kind {
	unsigned int group;
	UCHAR in, out;
	const char *thread, *bytes;
} io_kinds[IO_KINDS] = {
	[IO_DISK] = { GROUP_DISKIO, OP_DISK_READ, OP_DISK_WRITE, "IssuingThreadId",
		      "TransferSize" },
	[IO_FILE] = { GROUP_FILEIO, OP_FILE_READ, OP_FILE_WRITE, "TTID", "IoSize" },
	[IO_NET] = { GROUP_TCPIP, OP_TCP_RECV, OP_TCP_SEND, NULL, "size" },
};

/* Whether @er is an event of the kernel's group @group. */
static int of_group(const EVENT_RECORD *er, unsigned int group)
{
	const struct nttrace_kernel_group *k = nttrace_kernel_group((uint16_t)(group << 8));

	return k && !memcmp(&er->EventHeader.ProviderId, &k->guid, sizeof(GUID));
}

struct proc {
	uint32_t pid;
	char image[64];
	uint64_t samples, switches, cpu_time;	/* cpu_time: 100 ns units */
	uint64_t ops[IO_KINDS][2], bytes[IO_KINDS][2];
};

/* A thread's process: a hash of TID to PID, open addressing. */
struct tmap {
	uint32_t *tid, *pid;
	size_t cap, n;
};

static struct {
	struct proc *procs;
	size_t nprocs, capprocs;
	uint32_t *slot;		/* the processes' hash: index + 1 */
	size_t capslot;
	struct tmap threads;
	/* Per CPU: the thread switched in last, and when (0: none yet). */
	uint32_t *cpu_tid;
	uint64_t *cpu_since;
	int kernel;		/* the trace has the kernel's process events */
	int oom;
} R;

static uint32_t hash32(uint32_t v)
{
	v ^= v >> 16;
	v *= 0x7feb352dU;
	v ^= v >> 15;
	v *= 0x846ca68bU;
	return v ^ (v >> 16);
}

static int tmap_put(struct tmap *m, uint32_t tid, uint32_t pid)
{
	size_t at, i;

	if (pid == NO_PID)
		return 0;	/* the empty slot's mark: no process has that ID */
	if (2 * (m->n + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256;
		uint32_t *t = malloc(cap * sizeof(*t)), *p = malloc(cap * sizeof(*p));

		if (!t || !p) {
			free(t);
			free(p);
			return -1;
		}
		memset(p, 0xff, cap * sizeof(*p));
		for (i = 0; i < m->cap; i++) {
			if (m->pid[i] == NO_PID)
				continue;
			for (at = hash32(m->tid[i]) & (cap - 1); p[at] != NO_PID; at = (at + 1) & (cap - 1))
				;
			t[at] = m->tid[i];
			p[at] = m->pid[i];
		}
		free(m->tid);
		free(m->pid);
		m->tid = t;
		m->pid = p;
		m->cap = cap;
	}
	for (at = hash32(tid) & (m->cap - 1); m->pid[at] != NO_PID; at = (at + 1) & (m->cap - 1))
		if (m->tid[at] == tid) {
			m->pid[at] = pid;	/* a TID used again */
			return 0;
		}
	m->tid[at] = tid;
	m->pid[at] = pid;
	m->n++;
	return 0;
}

static uint32_t tmap_get(const struct tmap *m, uint32_t tid)
{
	size_t at;

	if (!m->cap)
		return NO_PID;
	for (at = hash32(tid) & (m->cap - 1); m->pid[at] != NO_PID; at = (at + 1) & (m->cap - 1))
		if (m->tid[at] == tid)
			return m->pid[at];
	return NO_PID;
}

/* Process @pid's row, made when new; NULL when out of memory (said in R.oom). */
static struct proc *proc_of(uint32_t pid)
{
	size_t at, i;

	if (2 * (R.nprocs + 1) > R.capslot) {
		size_t cap = R.capslot ? 2 * R.capslot : 64;
		uint32_t *s = calloc(cap, sizeof(*s));

		if (!s) {
			R.oom = 1;
			return NULL;
		}
		for (i = 0; i < R.nprocs; i++) {
			for (at = hash32(R.procs[i].pid) & (cap - 1); s[at]; at = (at + 1) & (cap - 1))
				;
			s[at] = (uint32_t)i + 1;
		}
		free(R.slot);
		R.slot = s;
		R.capslot = cap;
	}
	for (at = hash32(pid) & (R.capslot - 1); R.slot[at]; at = (at + 1) & (R.capslot - 1))
		if (R.procs[R.slot[at] - 1].pid == pid)
			return &R.procs[R.slot[at] - 1];
	if (R.nprocs == R.capprocs) {
		size_t cap = R.capprocs ? 2 * R.capprocs : 64;
		struct proc *p = realloc(R.procs, cap * sizeof(*p));

		if (!p) {
			R.oom = 1;
			return NULL;
		}
		R.procs = p;
		R.capprocs = cap;
	}
	memset(&R.procs[R.nprocs], 0, sizeof(R.procs[0]));
	R.procs[R.nprocs].pid = pid;
	if (!pid)
		snprintf(R.procs[R.nprocs].image, sizeof(R.procs[0].image), "Idle");
	R.slot[at] = (uint32_t)++R.nprocs;
	return &R.procs[R.nprocs - 1];
}

/*
 * Field @name of @er's fields @v as a number, into *@out: an integer's
 * value, or a pointer's (TTID and IssuingThreadId are pointer-sized) read
 * from the data where TDH found it. 0 when it has no such field.
 */
static int field(const EVENT_RECORD *er, const struct render_fields *v, const char *name,
		 uint64_t *out)
{
	const struct render_field *f;
	unsigned int i;

	for (i = 0; i < v->n; i++) {
		f = &v->v[i];
		if (!f->name || strcmp(f->name, name) || !f->single)
			continue;
		if (f->bits) {
			*out = f->value;
			return 1;
		}
		if ((f->size == 4 || f->size == 8) && f->off <= er->UserDataLength &&
		    f->size <= er->UserDataLength - f->off) {
			const uint8_t *d = (const uint8_t *)er->UserData + f->off;
			unsigned int k;

			for (*out = 0, k = 0; k < f->size; k++)
				*out |= (uint64_t)d[k] << (8 * k);
			return 1;
		}
		return 0;
	}
	return 0;
}

static const char *field_text(const struct render_fields *v, const char *name)
{
	unsigned int i;

	for (i = 0; i < v->n; i++)
		if (v->v[i].name && !strcmp(v->v[i].name, name))
			return v->v[i].text;
	return NULL;
}

/* The process of thread @tid, else of the event's header; NULL for none. */
static struct proc *proc_of_thread(const EVENT_RECORD *er, uint64_t tid)
{
	uint32_t pid = tmap_get(&R.threads, (uint32_t)tid);

	if (pid == NO_PID)
		pid = er->EventHeader.ProcessId;
	if (pid == NO_PID)
		return NULL;
	return proc_of(pid);
}

static void on_cswitch(const EVENT_RECORD *er, const struct render_fields *v)
{
	unsigned int cpu = er->BufferContext.ProcessorIndex;
	uint64_t now = (uint64_t)er->EventHeader.TimeStamp.QuadPart, old, new;
	struct proc *p;

	if (!field(er, v, "NewThreadId", &new) || !field(er, v, "OldThreadId", &old))
		return;
	if (cpu < MAX_CPUS) {
		if (!R.cpu_tid) {
			R.cpu_tid = calloc(MAX_CPUS, sizeof(*R.cpu_tid));
			R.cpu_since = calloc(MAX_CPUS, sizeof(*R.cpu_since));
			if (!R.cpu_tid || !R.cpu_since) {
				R.oom = 1;
				return;
			}
		}
		/* The old thread ran from its own switch in, on this CPU. */
		if (R.cpu_since[cpu] && R.cpu_tid[cpu] == old && now > R.cpu_since[cpu]) {
			p = proc_of_thread(er, old);
			if (p)
				p->cpu_time += now - R.cpu_since[cpu];
		}
		R.cpu_tid[cpu] = (uint32_t)new;
		R.cpu_since[cpu] = now;
	}
	p = proc_of_thread(er, new);
	if (p)
		p->switches++;
}

static void on_io(const EVENT_RECORD *er, const struct render_fields *v)
{
	UCHAR op = er->EventHeader.EventDescriptor.Opcode;
	uint64_t who, bytes = 0;
	unsigned int k, dir;
	struct proc *p;

	for (k = 0; k < IO_KINDS; k++)
		if (of_group(er, io_kinds[k].group) &&
		    (op == io_kinds[k].in || op == io_kinds[k].out))
			break;
	if (k == IO_KINDS)
		return;
	dir = op == io_kinds[k].in ? IO_IN : IO_OUT;
	if (io_kinds[k].thread) {
		if (!field(er, v, io_kinds[k].thread, &who) || !(p = proc_of_thread(er, who)))
			return;
	} else if (!field(er, v, "PID", &who) || !(p = proc_of((uint32_t)who))) {
		return;
	}
	field(er, v, io_kinds[k].bytes, &bytes);
	p->ops[k][dir]++;
	p->bytes[k][dir] += bytes;
}

void tracerpt_report_event(const EVENT_RECORD *er, const struct render_fields *v, int decoded)
{
	UCHAR op = er->EventHeader.EventDescriptor.Opcode;
	uint64_t a, b;
	struct proc *p;
	const char *image;

	if (!decoded || R.oom)
		return;
	if (of_group(er, GROUP_PROCESS) && (op == OP_START || op == OP_DCSTART)) {
		R.kernel = 1;
		if (!field(er, v, "ProcessId", &a) || !(p = proc_of((uint32_t)a)))
			return;
		image = field_text(v, "ImageFileName");
		if (image && *image)
			snprintf(p->image, sizeof(p->image), "%s", image);
	} else if (of_group(er, GROUP_THREAD)) {
		if ((op == OP_START || op == OP_DCSTART) && field(er, v, "TThreadId", &a) &&
		    field(er, v, "ProcessId", &b) && tmap_put(&R.threads, (uint32_t)a, (uint32_t)b))
			R.oom = 1;
		else if (op == OP_CSWITCH)
			on_cswitch(er, v);
		return;
	} else if (of_group(er, GROUP_PERFINFO) && op == OP_SAMPLE) {
		if (field(er, v, "ThreadId", &a) && (p = proc_of_thread(er, a)))
			p->samples++;
	} else {
		on_io(er, v);
	}
}

/* ---- writing: one table model, as XML or as HTML ---- */

struct out {
	FILE *f;
	int html;
};

static void cell_text(FILE *f, const char *s)
{
	tracerpt_xml_text(f, s);
}

static void table_open(const struct out *o, const char *name, const char *const *cols,
		       unsigned int ncols)
{
	unsigned int i;

	if (!o->html) {
		fputs("\t\t<Table name=\"", o->f);
		cell_text(o->f, name);
		fputs("\">\n", o->f);
		return;
	}
	fputs("<h3>", o->f);
	cell_text(o->f, name);
	fputs("</h3>\n<table>\n<tr>", o->f);
	for (i = 0; i < ncols; i++) {
		fputs("<th>", o->f);
		cell_text(o->f, cols[i]);
		fputs("</th>", o->f);
	}
	fputs("</tr>\n", o->f);
}

static void table_close(const struct out *o)
{
	fputs(o->html ? "</table>\n" : "\t\t</Table>\n", o->f);
}

/* One row: @vals[i] under column @cols[i]. */
static void row(const struct out *o, const char *const *cols, const char *const *vals,
		unsigned int n)
{
	unsigned int i;

	fputs(o->html ? "<tr>" : "\t\t\t<Item>\n", o->f);
	for (i = 0; i < n; i++) {
		if (o->html) {
			fputs("<td>", o->f);
			cell_text(o->f, vals[i]);
			fputs("</td>", o->f);
		} else {
			fputs("\t\t\t\t<Data name=\"", o->f);
			cell_text(o->f, cols[i]);
			fputs("\">", o->f);
			cell_text(o->f, vals[i]);
			fputs("</Data>\n", o->f);
		}
	}
	fputs(o->html ? "</tr>\n" : "\t\t\t</Item>\n", o->f);
}

static void section_open(const struct out *o, const char *name)
{
	if (o->html) {
		fputs("<h2>", o->f);
		cell_text(o->f, name);
		fputs("</h2>\n", o->f);
	} else {
		fputs("\t<Section name=\"", o->f);
		cell_text(o->f, name);
		fputs("\">\n", o->f);
	}
}

static void section_close(const struct out *o)
{
	if (!o->html)
		fputs("\t</Section>\n", o->f);
}

#define NUM(buf, v)	(snprintf(buf, sizeof(buf), "%" PRIu64, (uint64_t)(v)), buf)

static void trace_section(const struct out *o, const struct tracerpt_file *files,
			  unsigned int nfiles, uint64_t events)
{
	static const char *const cols[] = {
		"file", "session", "start", "end", "duration_ms", "processors", "pointer_size",
		"buffer_size", "buffers", "events_lost", "buffers_lost",
	};
	char t0[48], t1[48], n[5][24], dur[24], psz[24];
	unsigned int k;

	section_open(o, "Trace");
	table_open(o, "Files", cols, 11);
	for (k = 0; k < nfiles; k++) {
		const TRACE_LOGFILE_HEADER *h = &files[k].header;
		uint64_t s = (uint64_t)h->StartTime.QuadPart, e = (uint64_t)h->EndTime.QuadPart;
		const char *vals[11];

		tracerpt_time_text(t0, sizeof(t0), s);
		tracerpt_time_text(t1, sizeof(t1), e);
		vals[0] = files[k].path;
		vals[1] = files[k].session ? files[k].session : "";
		vals[2] = t0;
		vals[3] = t1;
		vals[4] = NUM(dur, e > s ? (e - s) / 10000 : 0);
		vals[5] = NUM(n[0], h->NumberOfProcessors);
		vals[6] = NUM(psz, h->PointerSize);
		vals[7] = NUM(n[1], h->BufferSize);
		vals[8] = NUM(n[2], h->BuffersWritten);
		vals[9] = NUM(n[3], h->EventsLost);
		vals[10] = NUM(n[4], h->BuffersLost);
		row(o, cols, vals, 11);
	}
	table_close(o);
	{
		static const char *const tcols[] = { "events" };
		const char *vals[1];

		table_open(o, "Totals", tcols, 1);
		vals[0] = NUM(n[0], events);
		row(o, tcols, vals, 1);
		table_close(o);
	}
	section_close(o);
}

static void events_section(const struct out *o, const struct tracerpt_count *c, size_t n)
{
	static const char *const pcols[] = { "provider", "guid", "events" };
	static const char *const ecols[] = {
		"provider", "event", "event_id", "opcode", "version", "events",
	};
	char g[40], num[4][24];
	size_t i, j;

	section_open(o, "Events");
	/* @c is sorted by GUID: a provider's rows follow each other. */
	table_open(o, "Providers", pcols, 3);
	for (i = 0; i < n; i = j) {
		uint64_t total = 0;
		const char *vals[3];

		for (j = i; j < n && !memcmp(&c[j].guid, &c[i].guid, sizeof(GUID)); j++)
			total += c[j].n;
		tracerpt_guid_text(g, sizeof(g), &c[i].guid);
		vals[0] = c[i].provider ? c[i].provider : "";
		vals[1] = g;
		vals[2] = NUM(num[0], total);
		row(o, pcols, vals, 3);
	}
	table_close(o);
	table_open(o, "Event types", ecols, 6);
	for (i = 0; i < n; i++) {
		const char *vals[6];

		vals[0] = c[i].provider ? c[i].provider : "";
		vals[1] = c[i].event ? c[i].event : "";
		vals[2] = NUM(num[0], c[i].id);
		vals[3] = NUM(num[1], c[i].opcode);
		vals[4] = NUM(num[2], c[i].version);
		vals[5] = NUM(num[3], c[i].n);
		row(o, ecols, vals, 6);
	}
	table_close(o);
	section_close(o);
}

/* By CPU time, then samples, then PID: where the time went, first. */
static int by_time(const void *a, const void *b)
{
	const struct proc *x = a, *y = b;

	if (x->cpu_time != y->cpu_time)
		return x->cpu_time > y->cpu_time ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static void process_section(const struct out *o)
{
	static const char *const cols[] = {
		"image", "pid", "cpu_samples", "cpu_time_ms", "context_switches",
		"disk_reads", "disk_read_bytes", "disk_writes", "disk_write_bytes",
		"file_reads", "file_read_bytes", "file_writes", "file_write_bytes",
		"net_send_bytes", "net_recv_bytes",
	};
	char num[14][24];
	size_t i;

	if (!R.kernel)
		return;
	/*
	 * The hash's indexes are stale once sorted: nothing looks up after
	 * this. A process event without a ProcessId marks the trace as the
	 * kernel's yet allocates no table, and qsort() takes no null array.
	 */
	if (R.nprocs)
		qsort(R.procs, R.nprocs, sizeof(*R.procs), by_time);
	section_open(o, "Processes");
	table_open(o, "Processes", cols, 15);
	for (i = 0; i < R.nprocs; i++) {
		const struct proc *p = &R.procs[i];
		const char *vals[15];

		vals[0] = p->image;
		vals[1] = NUM(num[0], p->pid);
		vals[2] = NUM(num[1], p->samples);
		vals[3] = NUM(num[2], p->cpu_time / 10000);
		vals[4] = NUM(num[3], p->switches);
		vals[5] = NUM(num[4], p->ops[IO_DISK][IO_IN]);
		vals[6] = NUM(num[5], p->bytes[IO_DISK][IO_IN]);
		vals[7] = NUM(num[6], p->ops[IO_DISK][IO_OUT]);
		vals[8] = NUM(num[7], p->bytes[IO_DISK][IO_OUT]);
		vals[9] = NUM(num[8], p->ops[IO_FILE][IO_IN]);
		vals[10] = NUM(num[9], p->bytes[IO_FILE][IO_IN]);
		vals[11] = NUM(num[10], p->ops[IO_FILE][IO_OUT]);
		vals[12] = NUM(num[11], p->bytes[IO_FILE][IO_OUT]);
		vals[13] = NUM(num[12], p->bytes[IO_NET][IO_OUT]);
		vals[14] = NUM(num[13], p->bytes[IO_NET][IO_IN]);
		row(o, cols, vals, 15);
	}
	table_close(o);
	section_close(o);
}

int tracerpt_report_write(FILE *f, int html, const struct tracerpt_file *files,
			  unsigned int nfiles, uint64_t events, const struct tracerpt_count *counts,
			  size_t ncounts)
{
	struct out o = { .f = f, .html = html };

	if (R.oom)
		return -1;
	if (html)
		fputs("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
		      "<title>Trace Report</title>\n</head>\n<body>\n<h1>Trace Report</h1>\n", f);
	else
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Report name=\"Trace Report\">\n",
		      f);
	trace_section(&o, files, nfiles, events);
	events_section(&o, counts, ncounts);
	process_section(&o);
	fputs(html ? "</body>\n</html>\n" : "</Report>\n", f);
	return 0;
}

void tracerpt_report_free(void)
{
	free(R.procs);
	free(R.slot);
	free(R.threads.tid);
	free(R.threads.pid);
	free(R.cpu_tid);
	free(R.cpu_since);
	memset(&R, 0, sizeof(R));
}
