// SPDX-License-Identifier: LGPL-2.1
/*
 * Reading ETL files (<nttrace/etl.h>): the header buffer, then every
 * record in time order across the CPUs.
 *
 * Opening indexes the file: each buffer's header (0x48 bytes) is read and
 * kept as (offset, CPU, sequence number); nothing else is loaded. Each
 * CPU's buffers, sorted by sequence number (which also orders a circular
 * file), form one time-ordered stream; reading merges the streams by time
 * stamp with one buffer in memory per CPU, so a file of any size streams.
 * The merge is a tournament (loser) tree over the streams, so that an
 * event costs log2(CPUs) comparisons, not a look at every CPU.
 * A record without a time stamp takes the last one of its stream.
 * Message, full-header, instance and EventWrite (EVENT_HEADER) records are
 * decoded into struct nttrace_etl_event; others are delivered whole.
 *
 * Nothing in the file is trusted: a bad buffer header, a record that runs
 * past its buffer or has no known marker is reported with its byte offset
 * to the caller's problem function, and reading goes on with the next
 * whole buffer. Nor is the index: a buffer's header is read again with the
 * buffer (the file may have changed since), and only it bounds the records.
 * What a file can cost is capped (<nttrace/etl.h>, NTTRACE_ETL_MAX_*):
 * problem reports, buffers indexed, and memory that follows the bytes the
 * file holds (holes are skipped, buffers held only up to their records' end).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include "etl_internal.h"
#include "record.h"
#include "xpress.h"

#define MAX_BUFFER	(16U << 20)	/* Windows' largest buffer size */
#define EXT_ITEM_HEADER	8	/* struct nttrace_event_extended_item_header */
#define HUGE_PAGE	(2UL << 20)	/* x86-64's and arm64's (4 KB granule) */
#define MAX_ARENA	(1UL << 30)

static inline uint64_t get(const uint8_t *p, int bytes)
{
	return nttrace_get_le(p, bytes);
}

struct buf_ref {
	uint64_t offset, seq;
	uint32_t cpu, disk;	/* @disk: its bytes in the file */
};

/*
 * A file's clock, as TRACE_LOGFILE_HEADER gives it, ready for each event:
 * its rate (@freq ticks a second, 0: the file cannot be dated), and for
 * the usual clocks the whole ticks a 100 ns unit holds (@div: Windows'
 * QPC of 10 MHz has 1, nttrace's 1 GHz 100) or the units a tick holds
 * (@mul), so that an event costs one division or none.
 */
struct etl_clock {
	uint64_t freq, div, mul, start, ref;
	double inv;		/* seconds a tick */
};

struct stream {
	struct buf_ref *refs;	/* this CPU's buffers, by sequence */
	size_t n, next;		/* next buffer to load */
	uint8_t *buf;		/* the current one, up to its records' end */
	uint32_t buf_cap;	/* bytes allocated at @buf */
	uint64_t buf_offset;
	uint32_t pos, end;	/* next record, end of records */
	uint16_t lost;		/* the current buffer's loss flags, until used */
	uint64_t last_ts, ref_clock, frequency;
	int have;		/* @ev holds this stream's next event */
	uint64_t live_seq;	/* live: buffers loaded */
	struct nttrace_etl_event ev;
};

/*
 * A stream's place in the merge: its next event's time stamp and its
 * index, so that the tree's comparisons read the tree alone. The order is
 * the time stamp, then the index: among equal time stamps the lowest CPU
 * comes first, as a scan of the CPUs in order would have it. A stream
 * with no event has the key NO_EVENT, after every other.
 */
struct merge_key {
	uint64_t ts;
	uint32_t stream;
};

static const struct merge_key NO_EVENT = { UINT64_MAX, UINT32_MAX };

struct nttrace_etl_reader {
	int fd;			/* -1 when live */
	nttrace_etl_load_fn load;	/* live: where buffers come from */
	void *load_ctx;
	struct nttrace_etl_info info;
	nttrace_etl_problem_fn problem;
	void *ctx;
	struct buf_ref *refs;	/* every good buffer; the streams point in */
	struct stream *streams;
	unsigned int nstreams;
	/*
	 * The merge (nttrace_etl_next()), a tournament tree of @nstreams
	 * leaves: @tree[nstreams + i] is stream i's key; each node p from 1
	 * to nstreams - 1 (children 2p and 2p + 1, leaves included) holds
	 * the loser of the match between its children's winners, and
	 * @tree[0] the winner of all, the next event's stream.
	 * @taken: that stream's event was returned, and the stream is peeked
	 * again only at the next call (the event points into its buffer until
	 * then). @primed: every stream was peeked once; a file's stream that
	 * then holds no event has none left, a live one is asked at every call.
	 */
	struct merge_key *tree;
	int taken, primed;
	/* Problems reported, and those past NTTRACE_ETL_MAX_PROBLEMS not. */
	unsigned int reported;
	uint64_t suppressed, first_suppressed;
	struct nttrace_etl_counts counts;
	struct etl_clock clock;	/* @info's, ready (clock_init()) */
	uint8_t *zbuf;		/* a compressed buffer as it is on disk */
	uint32_t zcap;
	/*
	 * The streams' buffers, one after another (stream i's at i times the
	 * buffer size), when there are enough of them to fill a huge page
	 * (buffers_arena()); a buffer that outgrows its place moves to the
	 * heap. NULL: each stream's buffer is on the heap.
	 */
	uint8_t *arena;
	size_t arena_len;
};

static void clock_init(struct etl_clock *c, const struct nttrace_etl_info *in)
{
	memset(c, 0, sizeof(*c));
	c->freq = in->clock == NTTRACE_ETL_CLOCK_SYSTEM ? 10000000 :
		  in->clock == NTTRACE_ETL_CLOCK_CYCLE ? (uint64_t)in->cpu_mhz * 1000000 :
		  in->perf_freq;
	c->start = in->start_time;
	c->ref = in->ref_clock;
	if (!c->freq || !c->start) {
		c->freq = 0;
		return;
	}
	c->inv = 1.0 / (double)c->freq;
	if (c->freq % 10000000 == 0)
		c->div = c->freq / 10000000;
	else if (10000000 % c->freq == 0)
		c->mul = 10000000 / c->freq;
}

/* @ticks of @c in 100 ns units; UINT64_MAX past 64 bits. */
static uint64_t ticks_to_units(const struct etl_clock *c, uint64_t ticks)
{
	uint64_t freq = c->freq, secs;

	if (c->div)
		return ticks / c->div;
	if (c->mul)
		return ticks > UINT64_MAX / c->mul ? UINT64_MAX : ticks * c->mul;
	secs = ticks / freq;
	if (secs > UINT64_MAX / 10000000 - 1)
		return UINT64_MAX;
	/*
	 * The fraction of a second, truncated: exact in integers for any clock
	 * up to 1.8 THz; above, (ticks % freq) / freq is in [0, 1), so its
	 * product with 1e7 fits, and no value read from the file reaches a
	 * float-to-integer conversion out of range (undefined behaviour).
	 */
	if (freq <= UINT64_MAX / 10000000)
		return secs * 10000000 + ticks % freq * 10000000 / freq;
	return secs * 10000000 + (uint64_t)((double)(ticks % freq) / (double)freq * 1e7);
}

/* nttrace_etl_filetime() by a clock made ready. */
static uint64_t clock_filetime(const struct etl_clock *c, uint64_t ts, double *relative)
{
	uint64_t units;

	if (!c->freq) {
		*relative = 0;
		return 0;
	}
	if (ts >= c->ref) {
		units = ticks_to_units(c, ts - c->ref);
		*relative = (double)(ts - c->ref) * c->inv;
		return units > UINT64_MAX - c->start ? 0 : c->start + units;
	}
	units = ticks_to_units(c, c->ref - ts);
	*relative = -(double)(c->ref - ts) * c->inv;
	return units >= c->start ? 0 : c->start - units;
}

uint64_t nttrace_etl_filetime(const struct nttrace_etl_info *info, uint64_t ts,
			      double *relative)
{
	struct etl_clock c;
	double rel;

	clock_init(&c, info);
	ts = clock_filetime(&c, ts, &rel);
	if (relative)
		*relative = rel;
	return ts;
}

static void problem(struct nttrace_etl_reader *r, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void problem(struct nttrace_etl_reader *r, uint64_t offset, const char *fmt, ...)
{
	char what[200];
	va_list ap;

	/* A file of millions of bad buffers must not print millions of lines. */
	if (r->reported >= NTTRACE_ETL_MAX_PROBLEMS) {
		if (!r->suppressed++)
			r->first_suppressed = offset;
		return;
	}
	r->reported++;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (r->problem)
		r->problem(r->ctx, offset, what);
}

/* The one report that counts the problems not reported, once reading ends. */
static void problem_summary(struct nttrace_etl_reader *r)
{
	char what[80];

	if (!r->suppressed)
		return;
	snprintf(what, sizeof(what), "%llu more problem%s not reported",
		 (unsigned long long)r->suppressed, r->suppressed == 1 ? "" : "s");
	r->suppressed = 0;
	if (r->problem)
		r->problem(r->ctx, r->first_suppressed, what);
}

static int read_at(int fd, void *buf, size_t len, uint64_t at)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
		at += n;
	}
	return 0;
}

/* UTF-16LE at @p (at most @room bytes) to ASCII in @out ('?' otherwise). */
static uint32_t get_utf16(const uint8_t *p, uint32_t room, char *out, size_t out_room)
{
	uint32_t i = 0;
	size_t o = 0;

	for (; i + 2 <= room; i += 2) {
		uint16_t c = get(p + i, 2);

		if (!c) {
			i += 2;
			break;
		}
		if (o + 1 < out_room)
			out[o++] = c < 0x80 && c >= 0x20 ? (char)c : '?';
	}
	out[o] = 0;
	return i;
}

/* Buffer 0: the logfile header event. */
static void read_header(struct nttrace_etl_reader *r, const uint8_t *b, uint32_t size)
{
	struct nttrace_etl_info *in = &r->info;
	const uint8_t *rec = b + NTTRACE_WMI_BUFFER_HEADER_SIZE,
		      *lf = rec + NTTRACE_ETL_SYSTEM_HEADER_SIZE;
	uint32_t len, psz, names;

	if (get(b + 0x36, 2) != NTTRACE_WMI_BUFFER_TYPE_HEADER ||
	    (get(rec, 4) != NTTRACE_ETL_SYSTEM_HEADER_MARKER &&
	     get(rec, 4) != NTTRACE_ETL_SYSTEM_HEADER_MARKER32)) {
		problem(r, 0, "no logfile header event in buffer 0");
		return;
	}
	/*
	 * PointerSize, which tells the rest of the layout, is at 0x94 of the
	 * buffer: nothing past the marker is read from a buffer too small for
	 * the shorter (32-bit) header.
	 */
	if (size < NTTRACE_WMI_BUFFER_HEADER_SIZE + NTTRACE_ETL_SYSTEM_HEADER_SIZE +
			   NTTRACE_ETL_LF_SIZE(4)) {
		problem(r, 0, "buffer 0 (%u bytes) is too small for a logfile header", size);
		return;
	}
	len = get(rec + 4, 2);
	psz = get(lf + NTTRACE_ETL_LF_POINTER_SIZE, 4);
	/* HookId 0: the logfile header (group EventTrace, type 0). */
	if ((psz != 4 && psz != 8) || get(rec + 6, 2) ||
	    len < NTTRACE_ETL_SYSTEM_HEADER_SIZE + NTTRACE_ETL_LF_SIZE(psz) ||
	    NTTRACE_WMI_BUFFER_HEADER_SIZE + len > size) {
		problem(r, NTTRACE_WMI_BUFFER_HEADER_SIZE, "logfile header event malformed");
		return;
	}
	in->has_header = 1;
	in->buffer_size = get(lf + NTTRACE_ETL_LF_BUFFER_SIZE, 4);
	in->ref_clock = get(rec + 0x10, 8);
	in->version = get(lf + NTTRACE_ETL_LF_VERSION, 4);
	in->provider_version = get(lf + NTTRACE_ETL_LF_PROVIDER_VERSION, 4);
	in->nr_cpus = get(lf + NTTRACE_ETL_LF_NUMBER_OF_PROCESSORS, 4);
	in->end_time = get(lf + NTTRACE_ETL_LF_END_TIME, 8);
	in->timer_resolution = get(lf + NTTRACE_ETL_LF_TIMER_RESOLUTION, 4);
	in->max_file_mb = get(lf + NTTRACE_ETL_LF_MAXIMUM_FILE_SIZE, 4);
	in->log_file_mode = get(lf + NTTRACE_ETL_LF_LOG_FILE_MODE, 4);
	in->buffers_written = get(lf + NTTRACE_ETL_LF_BUFFERS_WRITTEN, 4);
	in->pointer_size = psz;
	in->events_lost = get(lf + NTTRACE_ETL_LF_EVENTS_LOST, 4);
	in->cpu_mhz = get(lf + NTTRACE_ETL_LF_CPU_SPEED, 4);
	in->boot_time = get(lf + NTTRACE_ETL_LF_BOOT_TIME(psz), 8);
	in->perf_freq = get(lf + NTTRACE_ETL_LF_PERF_FREQ(psz), 8);
	in->start_time = get(lf + NTTRACE_ETL_LF_START_TIME(psz), 8);
	in->clock = get(lf + NTTRACE_ETL_LF_RESERVED_FLAGS(psz), 4);
	in->buffers_lost = get(lf + NTTRACE_ETL_LF_BUFFERS_LOST(psz), 4);
	names = len - NTTRACE_ETL_SYSTEM_HEADER_SIZE - NTTRACE_ETL_LF_SIZE(psz);
	lf += NTTRACE_ETL_LF_SIZE(psz);
	len = get_utf16(lf, names, in->logger_name, sizeof(in->logger_name));
	get_utf16(lf + len, names - len, in->log_file_name, sizeof(in->log_file_name));
}

static int by_cpu_seq(const void *a, const void *b)
{
	const struct buf_ref *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * The data region at or after @off: [*start, *end). -1 when there is
 * none (the rest of the file is a hole). A file system without SEEK_DATA
 * has the whole file as data.
 */
static int data_at(int fd, uint64_t off, uint64_t file_size, uint64_t *start,
		   uint64_t *end)
{
	off_t d = lseek(fd, (off_t)off, SEEK_DATA), h;

	if (d < 0) {
		if (errno == ENXIO)
			return -1;
		*start = off;
		*end = file_size;
		return 0;
	}
	h = lseek(fd, d, SEEK_HOLE);
	*start = d;
	*end = h <= d || (uint64_t)h > file_size ? file_size : (uint64_t)h;
	return 0;
}

/*
 * The end of the records of the buffer whose header is @h: Offset (what
 * Windows' readers go by: in buffer 0 it may cover records past
 * SavedOffset), else SavedOffset when Offset is not within @size.
 */
static uint32_t records_end(const uint8_t *h, uint32_t size)
{
	uint32_t end = get(h + 0x30, 4);

	if (end < NTTRACE_WMI_BUFFER_HEADER_SIZE || end > size)
		end = get(h + 4, 4);
	return end;
}

/*
 * The size on disk of the buffer whose header is @h, at @off; 0 if the
 * header is not valid. A plain buffer has the file's buffer size; a
 * compressed one its own, at most that.
 */
static uint32_t buffer_disk_size(const struct nttrace_etl_reader *r, const uint8_t *h,
				 uint64_t off)
{
	uint32_t size = r->info.buffer_size, disk = get(h, 4);
	uint32_t end = records_end(h, size);

	if (end < NTTRACE_WMI_BUFFER_HEADER_SIZE || end > size)
		return 0;
	if (get(h + 0x36, 2) == NTTRACE_WMI_BUFFER_TYPE_HEADER && (off || !r->info.has_header))
		return 0;	/* a second header buffer */
	if (get(h + 0x34, 2) & NTTRACE_WMI_BUFFER_FLAG_COMPRESSED)
		return disk > NTTRACE_WMI_BUFFER_HEADER_SIZE && disk <= size ? disk : 0;
	if (off == 0 && r->info.packed)
		return disk;	/* buffer 0 of a packed file: checked by open */
	return disk == size ? disk : 0;
}

/*
 * Many streams' buffers in one mapping that the kernel is asked to back
 * with huge pages. The merge reads a record of a different stream at
 * nearly every event, each in a buffer of its own: 256 streams of 64 KB
 * buffers are 4,096 small pages, more than the TLB holds, so that each
 * event missed it; in 2 MB pages they are 8. Measured with
 * `nttrace_bench_read next` over 256 streams: 34 ns an event on the
 * heap, 27 here (2 streams: 19 either way). A handful of streams fit the
 * TLB anyway, and are left on the heap (a huge page for 128 KB of
 * buffers would hold 2 MB of memory). The mapping is only reserved here;
 * a stream's place takes memory when its first buffer is read into it.
 * Without it (too large, or refused), the streams use the heap.
 */
static void buffers_arena(struct nttrace_etl_reader *r, uint32_t size)
{
	size_t len = (size_t)r->nstreams * size, head;
	void *a;
	unsigned int i;

	if (len < HUGE_PAGE || len > MAX_ARENA)
		return;
	len = (len + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	/* A huge page must start at a multiple of its size: map more, trim. */
	a = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		return;
	head = -(uintptr_t)a & (HUGE_PAGE - 1);
	if (head)
		munmap(a, head);
	a = (uint8_t *)a + head;
	munmap((uint8_t *)a + len, HUGE_PAGE - head);
	/* Advice only: where the kernel has no huge pages, small ones serve. */
	madvise(a, len, MADV_HUGEPAGE);
	r->arena = a;
	r->arena_len = len;
	for (i = 0; i < r->nstreams; i++) {
		r->streams[i].buf = r->arena + (size_t)i * size;
		r->streams[i].buf_cap = size;
	}
}

static int in_arena(const struct nttrace_etl_reader *r, const uint8_t *p)
{
	return r->arena && p >= r->arena && p < r->arena + r->arena_len;
}

/*
 * One pass over the buffer headers: the per-CPU streams. The index grows
 * with the valid buffers found (not with the file's apparent size), up to
 * NTTRACE_ETL_MAX_BUFFERS, and holes are stepped over, not read. Buffer 0
 * is indexed too when it is the header buffer (its records after the
 * header event).
 */
static int index_buffers(struct nttrace_etl_reader *r, uint64_t file_size)
{
	uint32_t size = r->info.buffer_size;
	uint64_t off = 0, good = 0, cap = 0, dstart = 0, dend = 0, n = 0;
	struct buf_ref *refs = NULL;
	unsigned int max_cpu = 0;
	uint8_t h[NTTRACE_WMI_BUFFER_HEADER_SIZE];

	if (!r->info.packed && file_size % size)
		problem(r, file_size - file_size % size,
			"%llu bytes after the last whole buffer ignored",
			(unsigned long long)(file_size % size));
	if (!r->info.packed)
		file_size -= file_size % size;
	while (off < file_size) {
		uint32_t disk;

		if (off >= dend) {
			if (data_at(r->fd, off, file_size, &dstart, &dend)) {
				problem(r, off, "the rest of the file (%llu bytes) is a hole; "
					"not read", (unsigned long long)(file_size - off));
				break;
			}
			if (dstart > off) {
				/* The first buffer that starts in data. */
				uint64_t next = (dstart + size - 1) / size * size;

				problem(r, off, "a hole of %llu bytes; not read",
					(unsigned long long)(dstart - off));
				if (r->info.packed)
					break;	/* no way to find the next buffer */
				off = next;
				continue;
			}
		}
		if (file_size - off < sizeof(h) || read_at(r->fd, h, sizeof(h), off)) {
			problem(r, off, "cannot read the buffer header");
			r->counts.buffers_skipped++;
			if (r->info.packed)
				break;
			off += size;
			continue;
		}
		disk = buffer_disk_size(r, h, off);
		if (!disk || disk > file_size - off) {
			r->counts.buffers_skipped++;
			if (r->info.packed) {
				problem(r, off, "not a valid buffer header: the rest of the "
					"file (%llu bytes) is not read",
					(unsigned long long)(file_size - off));
				break;
			}
			problem(r, off, "not a valid buffer header; buffer skipped");
			off += size;
			continue;
		}
		n++;
		if (off + (disk < size ? disk : records_end(h, size)) > dend) {
			/* Zeros, and memory for them: not records. */
			problem(r, off, "the buffer's records run into a hole; buffer skipped");
			r->counts.buffers_skipped++;
			off += disk;
			continue;
		}
		if (good == cap) {
			size_t ncap = cap ? 2 * cap : 256;
			struct buf_ref *v;

			if (good >= NTTRACE_ETL_MAX_BUFFERS) {
				problem(r, off, "more than %u buffers: the rest of the file is "
					"not read", NTTRACE_ETL_MAX_BUFFERS);
				break;
			}
			if (ncap > NTTRACE_ETL_MAX_BUFFERS)
				ncap = NTTRACE_ETL_MAX_BUFFERS;
			v = realloc(refs, ncap * sizeof(*refs));
			if (!v) {
				free(refs);
				return -ENOMEM;
			}
			refs = v;
			cap = ncap;
		}
		refs[good].offset = off;
		refs[good].disk = disk;
		refs[good].seq = get(h + 0x18, 8);
		/* ProcessorIndex (16 bits) where the flag says so, else ProcessorNumber. */
		refs[good].cpu = get(h + 0x34, 2) & NTTRACE_WMI_BUFFER_FLAG_PROC_INDEX ?
				 get(h + 0x28, 2) : h[0x28];
		if (refs[good].cpu > max_cpu)
			max_cpu = refs[good].cpu;
		good++;
		off += disk;
	}
	/* A packed file's buffers as found; else every whole buffer's place. */
	r->info.file_buffers = r->info.packed ? n : file_size / size;
	if (good)
		qsort(refs, good, sizeof(*refs), by_cpu_seq);
	r->nstreams = good ? max_cpu + 1 : 0;
	r->streams = calloc(r->nstreams ? r->nstreams : 1, sizeof(*r->streams));
	r->tree = calloc(r->nstreams ? r->nstreams : 1, 2 * sizeof(*r->tree));
	if (!r->streams || !r->tree) {
		free(refs);
		return -ENOMEM;
	}
	for (off = 0; off < good; off++) {
		struct stream *s = &r->streams[refs[off].cpu];

		if (!s->refs)
			s->refs = &refs[off];
		s->n++;
	}
	r->refs = refs;
	buffers_arena(r, size);
	return 0;
}

int nttrace_etl_open(struct nttrace_etl_reader **rp, const char *path,
		     nttrace_etl_problem_fn fn, void *ctx)
{
	struct nttrace_etl_reader *r = calloc(1, sizeof(*r));
	uint8_t *b0 = NULL;
	struct stat st;
	uint32_t size, lf_size;
	int ret = -EINVAL;

	if (!r)
		return -ENOMEM;
	r->problem = fn;
	r->ctx = ctx;
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0 || fstat(r->fd, &st)) {
		ret = -errno;
		goto fail;
	}
	b0 = malloc(NTTRACE_WMI_BUFFER_HEADER_SIZE);
	if (!b0 || read_at(r->fd, b0, NTTRACE_WMI_BUFFER_HEADER_SIZE, 0)) {
		problem(r, 0, "shorter than a buffer header: not an ETL file");
		goto fail;
	}
	size = get(b0, 4);
	if (size < NTTRACE_WMI_BUFFER_HEADER_SIZE + 8 || size > MAX_BUFFER || size % 8) {
		problem(r, 0, "buffer size %u is not plausible: not an ETL file", size);
		goto fail;
	}
	free(b0);
	b0 = malloc(size);
	if (!b0) {
		ret = -ENOMEM;
		goto fail;
	}
	r->info.buffer_size = size;
	if (!read_at(r->fd, b0, size, 0))
		read_header(r, b0, size);
	lf_size = r->info.buffer_size;
	r->info.buffer_size = size;
	/*
	 * A header buffer smaller than the logger's buffers: a packed file
	 * (Windows writes its compressed files so), whose buffers are each
	 * as long as their own BufferSize says.
	 */
	if (r->info.has_header && lf_size != size && lf_size > size &&
	    lf_size <= MAX_BUFFER && !(lf_size % 8)) {
		r->info.buffer_size = lf_size;
		r->info.packed = 1;
	} else if (r->info.has_header && lf_size != size) {
		problem(r, NTTRACE_WMI_BUFFER_HEADER_SIZE + NTTRACE_ETL_SYSTEM_HEADER_SIZE,
			"header's BufferSize differs from buffer 0's; buffer 0's used");
	}
	free(b0);
	b0 = NULL;
	clock_init(&r->clock, &r->info);
	ret = index_buffers(r, st.st_size);
	if (ret)
		goto fail;
	*rp = r;
	return 0;
fail:
	problem_summary(r);
	free(b0);
	free(r->streams);
	free(r->tree);
	if (r->fd >= 0)
		close(r->fd);
	free(r);
	return ret;
}

const struct nttrace_etl_info *nttrace_etl_info(const struct nttrace_etl_reader *r)
{
	return &r->info;
}

void nttrace_etl_counts(const struct nttrace_etl_reader *r, struct nttrace_etl_counts *c)
{
	*c = r->counts;
}

/* The cursor's position in a buffer whose header is at @s->buf. */
static void start_buffer(struct stream *s, uint64_t offset, uint32_t end)
{
	s->buf_offset = offset;
	s->pos = NTTRACE_WMI_BUFFER_HEADER_SIZE;
	s->end = end;
	s->lost = get(s->buf + 0x34, 2) &
		  (NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST | NTTRACE_WMI_BUFFER_FLAG_BUFFER_LOST);
	s->frequency = get(s->buf + 0x20, 8) >> 3;
	s->ref_clock = get(s->buf + 0x38, 8);
}

/*
 * A live stream's next buffer, checked as a file's: its offset is where
 * it would be in a file of the stream's buffers alone.
 */
static int load_live(struct nttrace_etl_reader *r, struct stream *s)
{
	uint32_t size = r->info.buffer_size, end;
	unsigned int cpu = s - r->streams;

	while (r->load(r->load_ctx, cpu, s->buf) > 0) {
		uint64_t offset = s->live_seq++ * size;

		end = get(s->buf + 4, 4);
		if (get(s->buf, 4) != size || end < NTTRACE_WMI_BUFFER_HEADER_SIZE || end > size) {
			problem(r, offset, "buffer header not valid; buffer skipped");
			continue;
		}
		start_buffer(s, offset, end);
		return 1;
	}
	s->pos = s->end = 0;
	return 0;
}

/*
 * A compressed buffer (its header at @h, @disk bytes on disk at @off):
 * its records decompressed into @s->buf after the header; the end of
 * them, or 0 when they cannot be (reported).
 */
static uint32_t load_compressed(struct nttrace_etl_reader *r, struct stream *s,
				const uint8_t *h, uint64_t off, uint32_t disk, uint32_t end)
{
	uint32_t zlen = disk - NTTRACE_WMI_BUFFER_HEADER_SIZE;
	size_t got;

	if (zlen > r->zcap) {
		uint8_t *z = realloc(r->zbuf, zlen);

		if (!z) {
			problem(r, off, "no memory for the buffer");
			return 0;
		}
		r->zbuf = z;
		r->zcap = zlen;
	}
	if (read_at(r->fd, r->zbuf, zlen, off + NTTRACE_WMI_BUFFER_HEADER_SIZE)) {
		problem(r, off, "cannot read the buffer");
		return 0;
	}
	if (nttrace_xpress_decompress(r->zbuf, zlen, s->buf + NTTRACE_WMI_BUFFER_HEADER_SIZE,
				      end - NTTRACE_WMI_BUFFER_HEADER_SIZE, &got)) {
		problem(r, off, "the compressed buffer does not decompress; buffer skipped");
		return 0;
	}
	if (got != end - NTTRACE_WMI_BUFFER_HEADER_SIZE) {
		problem(r, off, "the compressed buffer gives %zu bytes of records, its header "
			"says %u; %zu read", got, end - NTTRACE_WMI_BUFFER_HEADER_SIZE, got);
		r->counts.bytes_skipped += end - NTTRACE_WMI_BUFFER_HEADER_SIZE - got;
	}
	return NTTRACE_WMI_BUFFER_HEADER_SIZE + got;
}

/*
 * Load the stream's next good buffer; 0 when it has none left. Its header
 * is read again and checked as the index checked it: the file may have
 * changed since, and the records are bounded by this header, the one read
 * with them. Only the used part (up to the records' end) is read and held.
 * In the header buffer, the records start after the header event.
 */
static int load_buffer(struct nttrace_etl_reader *r, struct stream *s)
{
	uint32_t size = r->info.buffer_size;

	if (r->load)
		return load_live(r, s);

	while (s->next < s->n) {
		struct buf_ref *ref = &s->refs[s->next++];
		uint8_t h[NTTRACE_WMI_BUFFER_HEADER_SIZE];
		uint32_t end, disk;

		if (read_at(r->fd, h, sizeof(h), ref->offset)) {
			problem(r, ref->offset, "cannot read the buffer");
			r->counts.buffers_skipped++;
			continue;
		}
		disk = buffer_disk_size(r, h, ref->offset);
		if (disk != ref->disk) {
			problem(r, ref->offset, "buffer header changed since the file was "
				"indexed; buffer skipped");
			r->counts.buffers_skipped++;
			continue;
		}
		end = records_end(h, size);
		if (end > s->buf_cap) {
			uint8_t *b = realloc(in_arena(r, s->buf) ? NULL : s->buf, end);

			if (!b) {
				problem(r, ref->offset, "no memory for the buffer");
				r->counts.buffers_skipped += s->n - s->next + 1;
				return 0;
			}
			s->buf = b;
			s->buf_cap = end;
		}
		memcpy(s->buf, h, sizeof(h));
		if (get(h + 0x34, 2) & NTTRACE_WMI_BUFFER_FLAG_COMPRESSED) {
			end = load_compressed(r, s, h, ref->offset, disk, end);
		} else if (read_at(r->fd, s->buf + sizeof(h), end - sizeof(h),
				   ref->offset + sizeof(h))) {
			problem(r, ref->offset, "cannot read the buffer");
			end = 0;
		}
		if (!end) {
			r->counts.buffers_skipped++;
			continue;
		}
		start_buffer(s, ref->offset, end);
		if (!ref->offset && r->info.has_header) {
			/* Checked by read_header(): within the buffer's records. */
			uint32_t len = (get(s->buf + NTTRACE_WMI_BUFFER_HEADER_SIZE + 4, 2) + 7) &
				       ~7u;

			s->pos = NTTRACE_WMI_BUFFER_HEADER_SIZE + len < end ?
				 NTTRACE_WMI_BUFFER_HEADER_SIZE + len : end;
		}
		return 1;
	}
	return 0;
}

/* The record size and kind at @p (@room bytes left); 0 if it has none. */
static uint32_t record_size(const uint8_t *p, uint32_t room, int *message)
{
	uint32_t size;

	if (room < 8 || !(p[3] & 0x80))
		return 0;
	*message = p[3] == NTTRACE_MESSAGE_TRACE_MARKER_BYTE;
	/* System, compact and perfinfo headers keep Size after a 4-byte marker. */
	size = ntr_record_size(p);
	if (size < 8 || ((size + 7) & ~7u) > room)
		return size >= 8 && size <= room ? size : 0;
	return size;
}

/* Parse a message record's items into @ev; -1 if they overrun it. */
static int parse_message(struct nttrace_etl_event *ev)
{
	const uint8_t *p = ev->rec;
	uint32_t at = 8, f;

	ev->number = get(p + 4, 2);
	ev->flags = f = get(p + 6, 2);
	if (f & TRACE_MESSAGE_SEQUENCE) {
		if (at + 4 > ev->size)
			return -1;
		ev->sequence = get(p + at, 4);
		at += 4;
	}
	if (f & (TRACE_MESSAGE_COMPONENTID | TRACE_MESSAGE_GUID)) {
		ev->guid_len = f & TRACE_MESSAGE_COMPONENTID ? 4 : 16;
		if (at + ev->guid_len > ev->size)
			return -1;
		ev->guid = p + at;
		at += ev->guid_len;
	}
	if (f & (TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_PERFORMANCE_TIMESTAMP)) {
		if (at + 8 > ev->size)
			return -1;
		if (f & TRACE_MESSAGE_TIMESTAMP) {
			ev->timestamp = get(p + at, 8);
			ev->has_timestamp = 1;
		}
		at += 8;
	}
	if (f & TRACE_MESSAGE_SYSTEMINFO) {
		if (at + 8 > ev->size)
			return -1;
		ev->tid = get(p + at, 4);
		ev->pid = get(p + at + 4, 4);
		at += 8;
	}
	ev->data = p + at;
	ev->data_len = ev->size - at;
	return 0;
}

/*
 * What EVENT_TRACE_HEADER, EVENT_INSTANCE_GUID_HEADER and EVENT_HEADER
 * share, at the same offsets: the thread and process IDs, the time stamp
 * and the GUID (class or provider).
 */
static void parse_ids(struct nttrace_etl_event *ev)
{
	const uint8_t *p = ev->rec;

	ev->tid = get(p + 0x08, 4);
	ev->pid = get(p + 0x0C, 4);
	ev->timestamp = get(p + 0x10, 8);
	ev->has_timestamp = 1;
	ev->guid = p + 0x18;
	ev->guid_len = 16;
}

/*
 * A full-header (TraceEvent) or instance (TraceEventInstance) record: its
 * header's IDs, time stamp and GUID, and the data after it, into @ev; 0
 * also for a record of another kind (left as it is), -1 if the header
 * runs past the record.
 */
static int parse_classic(struct nttrace_etl_event *ev)
{
	const uint8_t *p = ev->rec;
	uint32_t hsize;

	if (p[3] != NTTRACE_TRACE_HEADER_MARKER_BYTE)
		return 0;
	switch (p[2]) {
	case NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER32:
	case NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER64:
		hsize = NTTRACE_EVENT_TRACE_HEADER_SIZE;
		break;
	case NTTRACE_TRACE_HEADER_TYPE_INSTANCE32:
	case NTTRACE_TRACE_HEADER_TYPE_INSTANCE64:
		hsize = NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE;
		break;
	default:
		return 0;
	}
	if (ev->size < hsize)
		return -1;
	ev->classic = hsize;
	parse_ids(ev);
	ev->data = p + hsize;
	ev->data_len = ev->size - hsize;
	return 0;
}

/*
 * The extended item at @at of the record @p (@size bytes): NULL and
 * *@item filled if it is whole, else what is wrong with it. The item's header
 * (uapi/nttrace.h, struct nttrace_event_extended_item_header) is four u16: Size
 * (this header and the data, padded to 8), ExtType, Linkage, DataSize.
 * Size must be exactly 8 + DataSize rounded up to 8 (our choice, strict:
 * it is what the writers of uapi/nttrace.h put there, and any other
 * value means the chain cannot be trusted to step by), so that a Size of
 * 0 cannot loop and an item cannot claim data outside itself.
 */
static const char *ext_item(const uint8_t *p, uint32_t size, uint32_t at,
			    struct nttrace_etl_ext *item)
{
	uint32_t isize, dsize;

	if (size < at || size - at < EXT_ITEM_HEADER)
		return "an extended item header runs past the record";
	isize = get(p + at, 2);
	dsize = get(p + at + 6, 2);
	if (isize != EXT_ITEM_HEADER + ((dsize + 7) & ~7u))
		return "an extended item's size is not its header and data padded to 8";
	if (isize > size - at)
		return "an extended item runs past the record";
	item->type = get(p + at + 2, 2);
	item->linkage = get(p + at + 4, 2);
	item->offset = at;
	item->data = p + at + EXT_ITEM_HEADER;
	item->data_size = dsize;
	return NULL;
}

int nttrace_etl_ext_next(const struct nttrace_etl_event *ev, uint32_t *at,
			 struct nttrace_etl_ext *item)
{
	uint32_t base;

	if (!ev->ext || *at >= ev->ext_len)
		return 0;
	/* Checked when the record was read; again, within @ext_len only. */
	base = ev->ext - ev->rec;
	if (ext_item(ev->rec, base + ev->ext_len, base + *at, item))
		return 0;
	*at += EXT_ITEM_HEADER + ((item->data_size + 7) & ~7u);
	return 1;
}

/*
 * An EventWrite record (EVENT_HEADER, 0x50 bytes, uapi/nttrace.h): its
 * IDs, time stamp, provider GUID, descriptor and activity ID into @ev, its
 * extended items walked (each bounded by the record), and the user data
 * after them. 0 also for a record of another kind (left as it is); -1 if
 * the header runs past the record (the record is skipped); else 0 with
 * *@why set when the item chain is malformed: the event is delivered
 * without user data, @ev->ext_bad at the bad item (<nttrace/etl.h>).
 */
static int parse_event_header(struct nttrace_etl_event *ev, const char **why)
{
	const uint8_t *p = ev->rec;
	uint32_t at = NTTRACE_EVENT_HEADER_SIZE;

	*why = NULL;
	if (p[3] != NTTRACE_TRACE_HEADER_MARKER_BYTE ||
	    (p[2] != NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER32 &&
	     p[2] != NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER64))
		return 0;
	if (ev->size < NTTRACE_EVENT_HEADER_SIZE)
		return -1;
	ev->event_header = NTTRACE_EVENT_HEADER_SIZE;
	ev->header_flags = get(p + 0x04, 2);
	ev->event_property = get(p + 0x06, 2);
	parse_ids(ev);
	ev->descriptor.id = get(p + 0x28, 2);
	ev->descriptor.version = p[0x2A];
	ev->descriptor.channel = p[0x2B];
	ev->descriptor.level = p[0x2C];
	ev->descriptor.opcode = p[0x2D];
	ev->descriptor.task = get(p + 0x2E, 2);
	ev->descriptor.keyword = get(p + 0x30, 8);
	ev->processor_time = get(p + 0x38, 8);
	ev->activity_id = p + 0x40;
	if (ev->header_flags & NTTRACE_EVENT_HEADER_FLAG_EXTENDED_INFO) {
		struct nttrace_etl_ext item;

		/*
		 * Linkage's bit 0 says whether another item follows; its other
		 * bits are Windows' Reserved2 and ignored. Each step moves by
		 * at least 8 bytes within the record: the walk ends.
		 */
		ev->ext = p + at;
		do {
			*why = ext_item(p, ev->size, at, &item);
			if (*why) {
				ev->ext_bad = at;
				if (!ev->ext_count)
					ev->ext = NULL;
				ev->data = NULL;
				ev->data_len = 0;
				return 0;
			}
			if (item.type == NTTRACE_EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID &&
			    item.data_size == 16 && !ev->related_activity_id)
				ev->related_activity_id = item.data;
			at += EXT_ITEM_HEADER + ((item.data_size + 7) & ~7u);
			ev->ext_len = at - NTTRACE_EVENT_HEADER_SIZE;
			ev->ext_count++;
		} while (item.linkage & 1);
	}
	ev->data = p + at;
	ev->data_len = ev->size - at;
	return 0;
}

/*
 * A kernel record (SYSTEM_TRACE_HEADER full or compact, PERFINFO_TRACE_
 * HEADER: see <nttrace/etl.h>) into @ev; 0 also for a record of another
 * kind (left as it is), -1 if its header or the items its marker
 * announces run past the record.
 */
static int parse_system(struct nttrace_etl_event *ev)
{
	const uint8_t *p = ev->rec;
	uint32_t hsize, marker;

	if (p[3] != NTTRACE_TRACE_HEADER_MARKER_BYTE)
		return 0;
	switch (p[2]) {
	case NTTRACE_TRACE_HEADER_TYPE_SYSTEM32:
	case NTTRACE_TRACE_HEADER_TYPE_SYSTEM64:
		hsize = NTTRACE_ETL_SYSTEM_HEADER_SIZE;
		break;
	case NTTRACE_TRACE_HEADER_TYPE_COMPACT32:
	case NTTRACE_TRACE_HEADER_TYPE_COMPACT64:
		hsize = NTTRACE_ETL_COMPACT_HEADER_SIZE;
		break;
	case NTTRACE_TRACE_HEADER_TYPE_PERFINFO32:
	case NTTRACE_TRACE_HEADER_TYPE_PERFINFO64:
		hsize = NTTRACE_ETL_PERFINFO_HEADER_SIZE;
		break;
	default:
		return 0;
	}
	if (ev->size < hsize)
		return -1;
	marker = get(p, 2);
	ev->system = hsize;
	ev->version = marker & 0xFF;
	ev->hook_id = get(p + 6, 2);
	if (hsize == NTTRACE_ETL_PERFINFO_HEADER_SIZE) {
		ev->timestamp = get(p + 8, 8);
	} else {
		ev->tid = get(p + 0x08, 4);
		ev->pid = get(p + 0x0C, 4);
		ev->timestamp = get(p + 0x10, 8);
	}
	ev->has_timestamp = 1;
	if (marker & 0x8000) {
		if (ev->size - hsize < 8)
			return -1;
		ev->pebs = p + hsize;
		hsize += 8;
	}
	ev->pmc_count = marker >> 8 & 7;
	if (ev->pmc_count) {
		if (ev->size - hsize < 8 * ev->pmc_count)
			return -1;
		ev->pmc = p + hsize;
		hsize += 8 * ev->pmc_count;
	}
	ev->data = p + hsize;
	ev->data_len = ev->size - hsize;
	return 0;
}

/*
 * The FILETIME of a time stamp in a file without a header: known only
 * for the system clock (the time stamp is one); the seconds since the
 * buffer's reference time from its clock rate (nttrace's rings write
 * both in the buffer header).
 */
static uint64_t headerless_filetime(const struct stream *s, uint64_t ts, double *relative)
{
	*relative = s->frequency && ts >= s->ref_clock ?
		    (double)(ts - s->ref_clock) / (double)s->frequency : 0;
	return (get(s->buf + 0x20, 8) & 7) == NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME ? ts : 0;
}

static const struct nttrace_etl_event no_event;

/* Fill the stream's next event; 0 when the stream is done. */
static int stream_peek(struct nttrace_etl_reader *r, struct stream *s)
{
	struct nttrace_etl_event *ev = &s->ev;

	for (;;) {
		const char *why = NULL;
		uint32_t size;
		int message = 0;

		if (!s->buf || s->pos >= s->end) {
			if (!load_buffer(r, s))
				return 0;
			continue;
		}
		size = record_size(s->buf + s->pos, s->end - s->pos, &message);
		if (!size) {
			problem(r, s->buf_offset + s->pos,
				"no valid record here; rest of the buffer skipped");
			r->counts.bytes_skipped += s->end - s->pos;
			s->pos = s->end;
			continue;
		}
		/*
		 * Cleared by a copy of an empty event: GCC makes it vector
		 * stores, where a memset of this size became rep stosq, whose
		 * start-up was a sixth of a record's time (perf, make bench).
		 */
		*ev = no_event;
		ev->offset = s->buf_offset + s->pos;
		ev->buffer_offset = s->buf_offset;
		ev->cpu = s - r->streams;
		ev->rec = s->buf + s->pos;
		ev->buffer = s->buf;
		ev->size = size;
		ev->message = message;
		s->pos += (size + 7) & ~7u;
		if (message && parse_message(ev)) {
			problem(r, ev->offset, "message items run past the record; skipped");
			r->counts.records_skipped++;
			continue;
		}
		if (!message && (parse_classic(ev) || parse_event_header(ev, &why) ||
				 parse_system(ev))) {
			problem(r, ev->offset, "event header runs past the record; skipped");
			r->counts.records_skipped++;
			continue;
		}
		if (why)
			problem(r, ev->offset + ev->ext_bad, "%s; the event has no user data",
				why);
		if (ev->has_timestamp)
			s->last_ts = ev->timestamp;
		else
			ev->timestamp = s->last_ts;
		ev->lost = s->lost;
		s->lost = 0;
		if (r->info.has_header)
			ev->filetime = clock_filetime(&r->clock, ev->timestamp, &ev->relative);
		else
			ev->filetime = headerless_filetime(s, ev->timestamp, &ev->relative);
		r->counts.records++;
		/*
		 * The stream's next record is read when this stream wins
		 * again, after the other streams' events: asked for now, it is
		 * in the cache by then (the buffer, read whole when loaded, is
		 * out of it again when many streams take turns).
		 */
		if (s->pos < s->end) {
			__builtin_prefetch(s->buf + s->pos);
			if (s->end - s->pos > 64)
				__builtin_prefetch(s->buf + s->pos + 64);
		}
		return 1;
	}
}

/* @a comes before @b in the merge: earlier, or as early and a lower CPU. */
static inline int key_before(const struct merge_key *a, const struct merge_key *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->stream < b->stream);
}

/* A stream's key: its next event's, or NO_EVENT. */
static struct merge_key stream_key(const struct nttrace_etl_reader *r, unsigned int i)
{
	struct merge_key k = { r->streams[i].ev.timestamp, i };

	return r->streams[i].have ? k : NO_EVENT;
}

/*
 * Stream @i's key changed, and it is the winner's stream (every match it
 * played is on its path to the root, so only they can change): replay
 * them, the earlier key going on up at each node and the later staying.
 * The nodes on the path follow from @i alone, so their loads need not
 * wait on the comparisons: a binary heap's descent, where each level's
 * address depends on the comparison above, read 256 interleaved streams
 * 20 to 30 % slower in A/B runs. Branch-free selects (masks, cmov) were
 * slower too: a longer chain of dependent instructions at each level.
 */
static void tree_replay(struct merge_key *tree, unsigned int n, unsigned int i)
{
	struct merge_key k = tree[n + i];
	unsigned int p;

	for (p = (n + i) / 2; p; p /= 2) {
		struct merge_key l = tree[p];

		if (key_before(&l, &k)) {
			tree[p] = k;
			k = l;
		}
	}
	tree[0] = k;
}

/* The matches of node @p's subtree, played from its leaves: its winner. */
static struct merge_key tree_build(struct merge_key *tree, unsigned int n, unsigned int p)
{
	struct merge_key a, b;

	if (p >= n)
		return tree[p];
	a = tree_build(tree, n, 2 * p);
	b = tree_build(tree, n, 2 * p + 1);
	if (key_before(&b, &a)) {
		tree[p] = a;
		return b;
	}
	tree[p] = b;
	return a;
}

/*
 * Every stream that holds no event is peeked, in index order: all of them
 * at the first call, and at every call when live (a CPU that had no buffer
 * may have one now). A stream that gains an event is no winner, so its
 * matches cannot be replayed alone: then the whole tree is played again.
 */
static void tree_fill(struct nttrace_etl_reader *r)
{
	unsigned int i, n = r->nstreams, joined = !r->primed;

	for (i = 0; i < n; i++) {
		struct stream *s = &r->streams[i];

		if (!s->have) {
			s->have = stream_peek(r, s);
			joined |= s->have;
			r->tree[n + i] = stream_key(r, i);
		}
	}
	r->primed = 1;
	if (joined && n)
		r->tree[0] = tree_build(r->tree, n, 1);
}

const struct nttrace_etl_event *nttrace_etl_next_ref(struct nttrace_etl_reader *r)
{
	struct stream *best;
	unsigned int i, n = r->nstreams;

	if (r->taken) {
		/* The last event's stream, peeked now that its event is done with. */
		i = r->tree[0].stream;
		r->taken = 0;
		r->streams[i].have = stream_peek(r, &r->streams[i]);
		r->tree[n + i] = stream_key(r, i);
		tree_replay(r->tree, n, i);
	}
	if (!r->primed || r->load)
		tree_fill(r);
	if (!n || r->tree[0].stream == NO_EVENT.stream) {
		problem_summary(r);
		return NULL;
	}
	best = &r->streams[r->tree[0].stream];
	best->have = 0;
	/*
	 * The event stays in its stream, and its record in the stream's
	 * buffer: the stream is peeked again (both overwritten) only at the
	 * next call.
	 */
	r->taken = 1;
	return &best->ev;
}

int nttrace_etl_next(struct nttrace_etl_reader *r, struct nttrace_etl_event *ev)
{
	const struct nttrace_etl_event *e = nttrace_etl_next_ref(r);

	if (!e)
		return 0;
	*ev = *e;
	return 1;
}

void nttrace_etl_close(struct nttrace_etl_reader *r)
{
	unsigned int i;

	if (!r)
		return;
	problem_summary(r);
	for (i = 0; i < r->nstreams; i++)
		if (!in_arena(r, r->streams[i].buf))
			free(r->streams[i].buf);
	if (r->arena)
		munmap(r->arena, r->arena_len);
	free(r->zbuf);
	free(r->refs);
	free(r->streams);
	free(r->tree);
	if (r->fd >= 0)
		close(r->fd);
	free(r);
}

int nttrace_etl_open_live(struct nttrace_etl_reader **rp,
			  const struct nttrace_etl_info *info,
			  nttrace_etl_load_fn load, void *ctx)
{
	struct nttrace_etl_reader *r;
	unsigned int i;

	if (info->buffer_size < NTTRACE_WMI_BUFFER_HEADER_SIZE + 8 ||
	    info->buffer_size > MAX_BUFFER || !info->nr_cpus)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->fd = -1;
	r->load = load;
	r->load_ctx = ctx;
	r->info = *info;
	clock_init(&r->clock, info);
	r->nstreams = info->nr_cpus;
	r->streams = calloc(r->nstreams, sizeof(*r->streams));
	r->tree = calloc(r->nstreams, 2 * sizeof(*r->tree));
	if (!r->streams || !r->tree)
		goto fail;
	/* Buffers are whole here: each stream holds one, allocated once. */
	for (i = 0; i < r->nstreams; i++) {
		r->streams[i].buf = malloc(info->buffer_size);
		if (!r->streams[i].buf)
			goto fail;
		r->streams[i].buf_cap = info->buffer_size;
	}
	*rp = r;
	return 0;
fail:
	nttrace_etl_close(r);
	return -ENOMEM;
}
