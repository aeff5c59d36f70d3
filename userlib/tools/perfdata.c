// SPDX-License-Identifier: LGPL-2.1
/*
 * `nttrace convert --to perf-data OUT FILE.etl`: a kernel trace's CPU
 * samples as a perf.data file (perf's own format, "PERFILE2", as
 * tools/perf/Documentation/perf.data-file-format.txt describes it), so
 * that `perf report`, `perf script` and hotspot read them as they read
 * `perf record -g`'s:
 *
 * - one event, a software cpu-clock (what nttrace samples with), its
 *   sample_type IP, TID, TIME, CPU, PERIOD and CALLCHAIN, sample_id_all
 *   set; its frequency and each sample's period from the trace's
 *   CollectionStart (the profile interval; 1 ms when the trace has none);
 * - a COMM record per thread the trace names (its process's
 *   ImageFileName), an MMAP2 record per image (Image/Load and the
 *   rundown: the file mapped from its offset 0 at ImageBase, ImageSize
 *   long), with its ELF build ID: the trace's (nttrace merge's ImageId
 *   events), else the file's where it is there to read (libelf's, in the
 *   64-bit tool); for a trace of this boot read by a user who may see
 *   kernel addresses, an MMAP of the kernel's text and of each module
 *   (as perf record writes them), so that perf names kernel frames by
 *   /proc/kallsyms; all at time 0;
 * - a SAMPLE per SampledProfile: the instruction pointer, the thread and
 *   its process, the time in nanoseconds from the trace's start, the CPU,
 *   and the StackWalk's frames as the callchain (PERF_CONTEXT_KERNEL
 *   before kernel addresses, PERF_CONTEXT_USER before the program's),
 *   or the instruction pointer alone.
 *
 * No feature section is written: perf reads the file without them (it
 * then takes the event's name from its type, "cpu-clock").
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <nttrace/etl.h>

#include "buildid.h"
#include "cli.h"
#include "kallsyms.h"
#include "samples.h"

#define PERF_MAGIC	0x32454c4946524550ULL	/* "PERFILE2" */

struct pd_section {
	uint64_t offset, size;
};

struct pd_header {
	uint64_t magic, size, attr_size;
	struct pd_section attrs, data, event_types;
	uint64_t features[4];
};

struct pd_file_attr {
	struct perf_event_attr attr;
	struct pd_section ids;
};

/* The sample_id every non-sample record ends with (sample_id_all). */
struct pd_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
};

#define PD_SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

struct pd_out {
	FILE *f;
	uint64_t bytes;
	int failed;
};

static void pd_put(struct pd_out *o, const void *p, size_t n)
{
	if (!o->failed && fwrite(p, 1, n, o->f) != n)
		o->failed = errno ? errno : EIO;
	o->bytes += n;
}

static void pd_zeros(struct pd_out *o, size_t n)
{
	static const uint8_t z[8];

	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);

		pd_put(o, z, k);
		n -= k;
	}
}

/* A string, NUL-ended and padded to 8 bytes: its bytes in the record. */
static size_t pd_str_size(const char *s)
{
	return (strlen(s) + 1 + 7) & ~(size_t)7;
}

static void pd_str(struct pd_out *o, const char *s)
{
	size_t n = strlen(s);

	pd_put(o, s, n);
	pd_zeros(o, pd_str_size(s) - n);
}

static void pd_record_header(struct pd_out *o, uint32_t type, uint16_t misc, size_t size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = (uint16_t)size };

	pd_put(o, &h, sizeof(h));
}

static void pd_comm(struct pd_out *o, uint32_t pid, uint32_t tid, const char *name)
{
	struct pd_sample_id id = { .pid = pid, .tid = tid };
	uint32_t ids[2] = { pid, tid };

	pd_record_header(o, PERF_RECORD_COMM, 0,
			 sizeof(struct perf_event_header) + 8 + pd_str_size(name) + sizeof(id));
	pd_put(o, ids, sizeof(ids));
	pd_str(o, name);
	pd_put(o, &id, sizeof(id));
}

/*
 * A kernel PERF_RECORD_MMAP (pid -1), as perf record writes the kernel's
 * and its modules': perf report then names kernel addresses by the
 * machine's /proc/kallsyms, which is why these are written only for a
 * trace of this boot (kallsyms.h).
 */
static void pd_kernel_mmap(struct pd_out *o, const char *name, uint64_t start, uint64_t len,
			   uint64_t pgoff)
{
	struct pd_sample_id id = { .pid = UINT32_MAX, .tid = 0 };
	struct {
		uint32_t pid, tid;
		uint64_t addr, len, pgoff;
	} m = { UINT32_MAX, 0, start, len, pgoff };

	pd_record_header(o, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL,
			 sizeof(struct perf_event_header) + sizeof(m) + pd_str_size(name) +
			 sizeof(id));
	pd_put(o, &m, sizeof(m));
	pd_str(o, name);
	pd_put(o, &id, sizeof(id));
}

static void pd_module_mmap(void *ctx, const char *name, uint64_t addr, uint64_t size)
{
	char bracketed[80];

	snprintf(bracketed, sizeof(bracketed), "[%s]", name);
	pd_kernel_mmap(ctx, bracketed, addr, size, 0);
}

static void pd_mmap2(struct pd_out *o, const struct prof_image *im)
{
	struct pd_sample_id id = { .pid = im->pid, .tid = im->pid };
	struct {
		uint32_t pid, tid;
		uint64_t addr, len, pgoff;
		uint8_t build_id_size, res1;
		uint16_t res2;
		uint8_t build_id[20];
		uint32_t prot, flags;
	} m;
	uint16_t misc = PERF_RECORD_MISC_USER;

	memset(&m, 0, sizeof(m));
	m.pid = im->pid;
	m.tid = im->pid;
	m.addr = im->base;
	m.len = im->size;
	m.pgoff = 0;
	/* The trace's own (nttrace merge wrote it), else the file's here. */
	if (im->build_id_size) {
		m.build_id_size = im->build_id_size;
		memcpy(m.build_id, im->build_id, sizeof(m.build_id));
	} else {
		m.build_id_size = (uint8_t)tool_build_id(im->path, m.build_id);
	}
	if (m.build_id_size)
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	m.prot = PROT_READ | PROT_EXEC;
	m.flags = MAP_PRIVATE;
	pd_record_header(o, PERF_RECORD_MMAP2, misc, sizeof(struct perf_event_header) +
			 sizeof(m) + pd_str_size(im->path) + sizeof(id));
	pd_put(o, &m, sizeof(m));
	pd_str(o, im->path);
	pd_put(o, &id, sizeof(id));
}

/* Nanoseconds from the trace's start to time stamp @ts (0 before it). */
static uint64_t pd_time(const struct prof_trace *t, uint64_t ts)
{
	double rel = 0;

	if (!nttrace_etl_filetime(&t->info, ts, &rel) || rel < 0)
		return 0;
	return (uint64_t)(rel * 1e9);
}

static void pd_sample(struct pd_out *o, const struct prof_trace *t, const struct prof_sample *s,
		      uint64_t period)
{
	uint64_t chain[2 + PROF_MAX_FRAMES + 2], head[2];
	uint32_t ids[2] = { s->pid, s->tid }, cpu[2] = { s->cpu, 0 };
	uint32_t i, n = 0;
	int ctx = 0;	/* 1: kernel, 2: user, the context of the last frame */
	uint64_t ip = s->frames[0], time = pd_time(t, s->ts);

	for (i = 0; i < s->nr; i++) {
		int want = s->frames[i] >= PROF_KERNEL_START ? 1 : 2;

		if (want != ctx) {
			chain[n++] = want == 1 ? (uint64_t)PERF_CONTEXT_KERNEL :
						 (uint64_t)PERF_CONTEXT_USER;
			ctx = want;
		}
		chain[n++] = s->frames[i];
	}
	head[0] = ip;
	pd_record_header(o, PERF_RECORD_SAMPLE,
			 ip >= PROF_KERNEL_START ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
			 sizeof(struct perf_event_header) + 8 + 8 + 8 + 8 + 8 + 8 + n * 8);
	pd_put(o, &head[0], 8);			/* IP */
	pd_put(o, ids, sizeof(ids));		/* TID */
	pd_put(o, &time, 8);			/* TIME */
	pd_put(o, cpu, sizeof(cpu));		/* CPU */
	pd_put(o, &period, 8);			/* PERIOD */
	head[1] = n;
	pd_put(o, &head[1], 8);			/* CALLCHAIN */
	pd_put(o, chain, n * 8);
}

/* The name COMM records give process @pid: its ImageFileName. */
static const char *pd_comm_name(struct prof_trace *t, uint32_t pid)
{
	struct prof_proc *p = prof_proc_of(t, pid, 0);

	if (!pid)
		return "swapper";
	return p && p->name[0] ? p->name : "[unknown]";
}

int perfdata_convert(const char *out_path, const char *etl)
{
	static struct prof_trace t;
	struct pd_file_attr fa;
	struct pd_header h;
	struct pd_out o = { 0 };
	uint64_t interval_ns, written = 0;
	uint32_t *seen = NULL;
	size_t i, cap_seen = 0, threads, images;
	const char *why;
	int fd;

	if (prof_load(&t, etl))
		return 1;
	fd = nttrace_trace_file_create(out_path);
	if (fd < 0) {
		fprintf(stderr, "nttrace: %s: %s\n", out_path, strerror(-fd));
		prof_free(&t);
		return 1;
	}
	o.f = fdopen(fd, "wb");
	if (!o.f) {
		close(fd);
		fprintf(stderr, "nttrace: %s: %s\n", out_path, strerror(errno));
		prof_free(&t);
		return 1;
	}
	interval_ns = t.interval ? (uint64_t)t.interval * 100 : 1000000;

	memset(&h, 0, sizeof(h));
	memset(&fa, 0, sizeof(fa));
	fa.attr.type = PERF_TYPE_SOFTWARE;
	fa.attr.size = sizeof(fa.attr);
	fa.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	fa.attr.freq = 1;
	/* At least 1 Hz: a file's interval (32 bits of 100 ns) may be longer. */
	fa.attr.sample_freq = 1000000000ULL / interval_ns ? 1000000000ULL / interval_ns : 1;
	fa.attr.sample_type = PD_SAMPLE_TYPE;
	fa.attr.sample_id_all = 1;
	fa.attr.mmap = 1;
	fa.attr.comm = 1;
	fa.attr.mmap2 = 1;
	h.magic = PERF_MAGIC;
	h.size = sizeof(h);
	h.attr_size = sizeof(fa);
	h.attrs.offset = sizeof(h);
	h.attrs.size = sizeof(fa);
	h.data.offset = sizeof(h) + sizeof(fa);
	pd_put(&o, &h, sizeof(h));
	pd_put(&o, &fa, sizeof(fa));

	/* Names first: each thread, and each process seen only in samples. */
	for (i = 0; i < t.nr_threads; i++)
		pd_comm(&o, t.threads[i].pid, t.threads[i].tid, pd_comm_name(&t, t.threads[i].pid));
	for (i = 0; i < t.nr_samples; i++) {
		uint32_t pid = t.samples[i].pid;

		if (pid < (1U << 22)) {
			seen = prof_grow(seen, &cap_seen, pid + 1, sizeof(*seen));
			if (seen[pid]++)
				continue;
			if (prof_proc_of(&t, pid, 0))
				pd_comm(&o, pid, pid, pd_comm_name(&t, pid));
		}
	}
	free(seen);
	for (i = 0; i < t.nr_images; i++)
		pd_mmap2(&o, &t.images[i]);
	/* The kernel's text and modules, where this boot's kallsyms names them. */
	if (ksyms_load(t.info.boot_time, &why) && ksyms_text()) {
		uint64_t text = ksyms_text();

		pd_kernel_mmap(&o, "[kernel.kallsyms]_text", text, UINT64_MAX - text, text);
		ksyms_modules(pd_module_mmap, &o);
	}
	ksyms_free();
	for (i = 0; i < t.nr_samples; i++, written++)
		pd_sample(&o, &t, &t.samples[i], interval_ns);

	threads = t.nr_threads;
	images = t.nr_images;
	/* The data's size, now known, into the header. */
	h.data.size = o.bytes - h.data.offset;
	if (!o.failed && (fflush(o.f) || fseek(o.f, 0, SEEK_SET)))
		o.failed = errno;
	pd_put(&o, &h, sizeof(h));
	if (fclose(o.f) && !o.failed)
		o.failed = errno;
	prof_free(&t);
	if (o.failed) {
		fprintf(stderr, "nttrace: %s: %s\n", out_path, strerror(o.failed));
		return 1;
	}
	fprintf(stderr, "nttrace: %" PRIu64 " samples, %zu threads, %zu images written to %s\n",
		written, threads, images, out_path);
	return 0;
}
