// SPDX-License-Identifier: GPL-2.0
/*
 * ETL files: the header buffer checked field by field at the offsets of
 * ../shared/notes/etl-format.md (written out here, not taken from the
 * library), events read back through the reader byte for byte, sequential
 * files with a maximum size, circular files, and damaged files; hand-made
 * files for the reader's defences (a tiny header buffer, a buffer changed
 * after indexing, a sparse file, thousands of bad buffers, a hostile
 * clock). The user-mode logger's part runs anywhere; the kernel session's
 * part needs /dev/nttrace. Runs in the VM (64- and 32-bit) and on the host (64-bit).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <nttrace/evntrace.h>
#include <nttrace/etl.h>
#include "expect.h"
#include "files.h"
#include "props.h"
#include "tap.h"

#define BITS ((int)sizeof(void *) * 8)
#define PSZ ((int)sizeof(void *))
#define BUF 4096

/* A session of BUF-sized buffers: @nbuf of them, files up to @max_mb. */
static void etl_props(struct props *pr, const char *log_file, uint32_t mode,
		      uint32_t max_mb, uint32_t nbuf)
{
	props_init(pr, log_file, mode);
	pr->p.BufferSize = BUF / 1024;
	pr->p.MaximumBuffers = nbuf;
	pr->p.MaximumFileSize = max_mb;
}

/* ---- the header buffer, field by field (psz: the header's pointer size) ---- */

static void check_header(const char *what, const uint8_t *f, size_t len, int psz,
			 const char *name, const char *path, uint32_t mode, uint32_t nr_cpus)
{
	const uint8_t *rec = f + 0x48, *lf = rec + 0x20;
	uint32_t end = get_le(f + 0x04, 4), tz = 0x38 + 2 * psz, i, ok = 1;
	uint32_t boot = psz == 8 ? 0xF8 : 0xF0, names = boot + 0x20;
	uint64_t start = get_le(lf + boot + 0x10, 8), fin = get_le(lf + 0x10, 8);

	tap_eq(get_le(f + 0x00, 4), BUF, "%d-bit %s: buffer 0 BufferSize", BITS, what);
	tap_ok(end > 0x48 && end <= BUF && end % 8 == 0 && get_le(f + 0x08, 4) == end &&
	       get_le(f + 0x30, 4) == end, "%d-bit %s: SavedOffset = CurrentOffset = Offset",
	       BITS, what);
	tap_eq(get_le(f + 0x36, 2), 4, "%d-bit %s: BufferType 4 (header)", BITS, what);
	for (i = end; i < BUF; i++)
		ok &= f[i] == 0xFF;
	tap_ok(ok, "%d-bit %s: 0xFF after the header event", BITS, what);
	tap_eq(get_le(rec + 0x00, 4), 0xC0020002, "%d-bit %s: SYSTEM_TRACE_HEADER marker", BITS,
	       what);
	tap_eq(get_le(rec + 0x06, 2), 0, "%d-bit %s: HookId 0", BITS, what);
	tap_ok(get_le(rec + 0x04, 2) >= 0x20 + names && 0x48 + get_le(rec + 0x04, 2) <= end,
	       "%d-bit %s: Size covers the logfile header and names", BITS, what);
	tap_eq(get_le(lf + 0x00, 4), BUF, "%d-bit %s: BufferSize", BITS, what);
	tap_eq(get_le(lf + 0x0C, 4), nr_cpus, "%d-bit %s: NumberOfProcessors", BITS, what);
	tap_eq(get_le(lf + 0x20, 4) & mode, mode, "%d-bit %s: LogFileMode", BITS, what);
	tap_eq(get_le(lf + 0x24, 4), len / BUF, "%d-bit %s: BuffersWritten = the file's",
	       BITS, what);
	tap_eq(get_le(lf + 0x2C, 4), psz, "%d-bit %s: PointerSize", BITS, what);
	tap_ok(get_le(lf + 0x38, 2 * psz) == 0, "%d-bit %s: name pointers 0 on disk", BITS,
	       what);
	for (i = 0, ok = 1; i < 0xAC; i++)
		ok &= lf[tz + i] == 0;
	tap_ok(ok, "%d-bit %s: TIME_ZONE_INFORMATION at 0x%x (UTC: zero)", BITS, what, tz);
	tap_ok(get_le(lf + boot, 8) > 116444736000000000ULL && get_le(lf + boot, 8) < start,
	       "%d-bit %s: BootTime at 0x%x, before StartTime", BITS, what, boot);
	tap_ok(get_le(lf + boot + 0x08, 8) == 1000000000, "%d-bit %s: PerfFreq 1 GHz", BITS,
	       what);
	tap_ok(fin >= start, "%d-bit %s: EndTime at 0x10 after StartTime at 0x%x", BITS, what,
	       boot + 0x10);
	tap_eq(get_le(lf + boot + 0x18, 4), 1, "%d-bit %s: ReservedFlags 1 (QPC)", BITS, what);
	for (i = 0, ok = 1; name[i]; i++)
		ok &= get_le(lf + names + 2 * i, 2) == (uint8_t)name[i];
	ok &= get_le(lf + names + 2 * i, 2) == 0;
	tap_ok(ok, "%d-bit %s: LoggerName in UTF-16 after the header", BITS, what);
	names += 2 * (i + 1);
	for (i = 0, ok = 1; path[i]; i++)
		ok &= get_le(lf + names + 2 * i, 2) == (uint8_t)path[i];
	tap_ok(ok, "%d-bit %s: LogFileName after it", BITS, what);
}

/* ---- round trip through the reader ---- */

#define N_EVENTS 300
static unsigned int problems;

static void on_problem(void *ctx, uint64_t offset, const char *what)
{
	problems++;
	printf("# problem at %llu: %s\n", (unsigned long long)offset, what);
}

/* Read @path through to the end; its events (problems go to on_problem). */
static unsigned int read_all(const char *path)
{
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	unsigned int n = 0;

	if (!nttrace_etl_open(&r, path, on_problem, NULL)) {
		while (nttrace_etl_next(r, &ev))
			n++;
		nttrace_etl_close(r);
	}
	return n;
}

static uint32_t trace_one(TRACEHANDLE h, unsigned int i, uint8_t *data, uint32_t *len)
{
	unsigned int k;

	*len = 1 + i % 29;
	for (k = 0; k < *len; k++)
		data[k] = (uint8_t)(i * 7 + k);
	return TraceMessage(h, TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_TIMESTAMP |
			    TRACE_MESSAGE_SYSTEMINFO, NULL, (USHORT)i, data, (size_t)*len,
			    NULL);
}

/* Read @path back: every event byte for byte, in time order. */
static void round_trip(const char *what, const char *path, unsigned int n, int ptr32)
{
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	unsigned int got = 0, bad = 0, order = 0, k;
	uint64_t last = 0;
	uint8_t data[32], want[64];

	problems = 0;
	if (!tap_eq(nttrace_etl_open(&r, path, on_problem, NULL), 0, "%d-bit %s: reader opens",
		    BITS, what))
		return;
	while (nttrace_etl_next(r, &ev)) {
		struct expect e;
		uint32_t len, size;

		memset(&e, 0, sizeof(e));
		e.number = ev.number;
		e.flags = TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_SYSTEMINFO;
		e.ptr32 = ptr32;
		e.seq = ev.number + 1;	/* one logger-wide sequence, from 1 */
		e.ts = ev.timestamp;
		e.tid = e.pid = getpid();
		len = 1 + ev.number % 29;
		for (k = 0; k < len; k++)
			data[k] = (uint8_t)(ev.number * 7 + k);
		e.data = data;
		e.len = len;
		size = expect_encode(&e, want);
		if (!ev.message || ev.size != size || memcmp(ev.rec, want, size) ||
		    ev.number != got)
			bad++;
		if (ev.timestamp < last)
			order++;
		last = ev.timestamp;
		got++;
	}
	tap_eq(got, n, "%d-bit %s: every event read back", BITS, what);
	tap_eq(bad, 0, "%d-bit %s: each byte for byte, in the order traced", BITS, what);
	tap_eq(order + problems, 0, "%d-bit %s: time order, no problem reported", BITS, what);
	nttrace_etl_close(r);
}

static void test_user_mode(void)
{
	char path[64], name[32];
	struct props pr, st;
	TRACEHANDLE h;
	unsigned int i, errs = 0;
	uint8_t data[32], *f;
	uint32_t len;
	size_t flen;

	snprintf(path, sizeof(path), "/tmp/etl-um-%d.etl", getpid());
	snprintf(name, sizeof(name), "etl-um-%d", BITS);
	etl_props(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE, 0, 8);
	if (!tap_eq(StartTraceA(&h, name, &pr.p), 0, "%d-bit: user-mode logger starts", BITS))
		return;
	for (i = 0; i < N_EVENTS; i++)
		errs += trace_one(h, i, data, &len) != 0;
	etl_props(&st, NULL, 0, 0, 0);
	tap_eq(StopTraceA(h, NULL, &st.p) + errs, 0, "%d-bit: traced and stopped", BITS);
	f = slurp(path, &flen);
	check_header("user-mode", f, flen, PSZ, name, path, EVENT_TRACE_PRIVATE_LOGGER_MODE,
		     64);
	round_trip("user-mode", path, N_EVENTS, BITS == 32);

	/* Damaged copies: the reader reports and goes on, never crashes. */
	if (f && flen > 2 * BUF) {
		unsigned int k, found = 0;
		int fd;

		for (k = 0; k < 3; k++) {
			uint8_t *g = malloc(flen);

			memcpy(g, f, flen);
			if (k == 0)
				g[BUF + 0x48] ^= 0x80;	/* the first record's size */
			if (k == 1)
				memset(g + BUF, 0x5A, 0x48);	/* a buffer header */
			fd = open(path, O_WRONLY | O_TRUNC);
			if (write(fd, g, k == 2 ? flen - 100 : flen) < 0)
				k = 99;
			close(fd);
			problems = 0;
			read_all(path);
			found += problems > 0;
			free(g);
		}
		tap_eq(found, 3, "%d-bit: a damaged record, buffer header and a truncated "
		       "file are each reported", BITS);
	}
	free(f);
	unlink(path);
}

/* Sequential with a maximum size: the rest is counted lost, not written. */
static void test_limits(void)
{
	char path[64];
	struct props pr, st;
	TRACEHANDLE h;
	unsigned int i, ok = 0;
	uint8_t data[32], big[1000], *f;
	uint32_t len;
	size_t flen;

	snprintf(path, sizeof(path), "/tmp/etl-max-%d.etl", getpid());
	memset(big, 7, sizeof(big));
	etl_props(&st, NULL, 0, 0, 0);
	etl_props(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE, 1, 64);
	if (!tap_eq(StartTraceA(&h, "etl-max", &pr.p), 0, "%d-bit: 1 MB sequential", BITS))
		return;
	for (i = 0; i < 3000; i++) {
		ok += TraceMessage(h, 0, NULL, 1, big, sizeof(big), NULL) == 0;
		if (i % 64 == 0)
			FlushTraceA(h, NULL, &st.p);
	}
	etl_props(&st, NULL, 0, 0, 0);
	StopTraceA(h, NULL, &st.p);
	f = slurp(path, &flen);
	tap_ok(flen <= 1 << 20 && flen % BUF == 0, "%d-bit: the file stays within 1 MB (%zu)",
	       BITS, flen);
	if (f && flen >= BUF) {
		uint32_t lost = get_le(f + 0x48 + 0x20 + 0x30, 4);
		unsigned int n = read_all(path);

		/* Refused events (no free buffer) are in EventsLost too. */
		tap_eq(n + lost, 3000, "%d-bit: events in the file + EventsLost = traced "
		       "(%u + %u; %u accepted)", BITS, n, lost, ok);
		tap_ok(n <= ok, "%d-bit: ... and no more in the file than were accepted", BITS);
	}
	free(f);

	/* Circular: the newest data within the size. */
	etl_props(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_FILE_MODE_CIRCULAR,
		   1, 16);
	if (!tap_eq(StartTraceA(&h, "etl-circ", &pr.p), 0, "%d-bit: 1 MB circular", BITS))
		return;
	for (i = 0; i < 2000; i++) {
		trace_one(h, i, data, &len);
		if (i % 20 == 0)
			FlushTraceA(h, NULL, &st.p);
	}
	etl_props(&st, NULL, 0, 0, 0);
	StopTraceA(h, NULL, &st.p);
	f = slurp(path, &flen);
	tap_ok(flen <= 1 << 20, "%d-bit: circular file within 1 MB (%zu)", BITS, flen);
	{
		struct nttrace_etl_reader *r;
		struct nttrace_etl_event ev;
		unsigned int n = 0, last = 0, gaps = 0;

		if (!nttrace_etl_open(&r, path, on_problem, NULL)) {
			while (nttrace_etl_next(r, &ev)) {
				gaps += n && ev.number != last + 1;
				last = ev.number;
				n++;
			}
			nttrace_etl_close(r);
		}
		tap_ok(n > 0 && last == 1999 && gaps == 0,
		       "%d-bit: it ends with the newest event, in order (%u events, last %u)",
		       BITS, n, last);
	}
	free(f);
	unlink(path);
}

/*
 * A log file that fills its disk: StopTrace says so, the file keeps whole
 * buffers and reads without a problem, and every traced event is in it or
 * counted in EventsLost. @dir is where the limit is: under RLIMIT_FSIZE
 * (EFBIG: runs anywhere) or a 64 KB tmpfs (ENOSPC: needs mount, so the
 * VM or a root host); @how names it.
 */
static void disk_full(const char *how, const char *dir, uint32_t want_err)
{
	char path[96];
	struct props pr, st;
	TRACEHANDLE h;
	unsigned int i, n = 0;
	uint8_t data[100], *f;
	ULONG err;
	size_t flen;

	snprintf(path, sizeof(path), "%s/etl-full-%d.etl", dir, getpid());
	memset(data, 3, sizeof(data));
	etl_props(&st, NULL, 0, 0, 0);
	etl_props(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE, 0, 64);
	if (!tap_eq(StartTraceA(&h, "etl-full", &pr.p), 0, "%d-bit %s: logger starts", BITS,
		    how))
		return;
	for (i = 0; i < 2000; i++) {
		TraceMessage(h, TRACE_MESSAGE_SEQUENCE, NULL, (USHORT)i, data, sizeof(data),
			     NULL);
		if (i % 20 == 0)
			FlushTraceA(h, NULL, &st.p);
	}
	etl_props(&st, NULL, 0, 0, 0);
	err = StopTraceA(h, NULL, &st.p);
	tap_eq(err, want_err, "%d-bit %s: StopTrace reports the full disk", BITS, how);
	f = slurp(path, &flen);
	tap_ok(flen >= 2 * BUF && flen % BUF == 0 && get_le(f + 0x48 + 0x20 + 0x24, 4) ==
	       flen / BUF, "%d-bit %s: whole buffers (%zu bytes), BuffersWritten says so",
	       BITS, how, flen);
	if (f && flen >= BUF) {
		uint32_t lost = get_le(f + 0x48 + 0x20 + 0x30, 4);
		uint32_t blost = get_le(f + 0x48 + 0x20 + (PSZ == 8 ? 0x114 : 0x10C), 4);

		problems = 0;
		n = read_all(path);
		tap_eq(problems, 0, "%d-bit %s: the file reads without a problem", BITS, how);
		tap_eq(n + lost, 2000, "%d-bit %s: events in the file + EventsLost = traced "
		       "(%u + %u)", BITS, how, n, lost);
		tap_ok(blost > 0, "%d-bit %s: BuffersLost counts the unwritten (%u)", BITS, how,
		       blost);
	}
	free(f);
	unlink(path);
}

static void test_disk_full(void)
{
	struct rlimit old, lim = { 6 * BUF + 100, RLIM_INFINITY };
	char dir[64];

	/* Past the limit write() fails with EFBIG, once SIGXFSZ is ignored. */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim.rlim_max = old.rlim_max;
	if (setrlimit(RLIMIT_FSIZE, &lim) == 0) {
		disk_full("file size limit", "/tmp", ERROR_LOG_FILE_FULL);
		setrlimit(RLIMIT_FSIZE, &old);
	} else {
		tap_ok(0, "%d-bit: setrlimit(RLIMIT_FSIZE)", BITS);
	}

	snprintf(dir, sizeof(dir), "/tmp/etl-tmpfs-%d", getpid());
	mkdir(dir, 0755);
	if (mount("nttrace-test", dir, "tmpfs", 0, "size=64k") == 0) {
		disk_full("64 KB tmpfs", dir, ERROR_DISK_FULL);
		umount(dir);
	} else {
		printf("ok %u - %d-bit: no tmpfs here (%s) # SKIP\n", ++tap_n, BITS,
		       strerror(errno));
	}
	rmdir(dir);
}

/* ---- hand-made files: the reader's defences ---- */

/* Problems counted, not printed (some files here have thousands). */
struct seen {
	const char *want;	/* a problem containing this sets @matched */
	unsigned int n, matched;
	uint64_t match_offset;
	char match[200], last[200];
};

static void on_seen(void *ctx, uint64_t offset, const char *what)
{
	struct seen *s = ctx;

	s->n++;
	if (s->want && strstr(what, s->want) && !s->matched++) {
		s->match_offset = offset;
		snprintf(s->match, sizeof(s->match), "%s", what);
	}
	snprintf(s->last, sizeof(s->last), "%s", what);
}

/*
 * A data buffer of @size bytes at @b: CPU @cpu, sequence @seq, clock word
 * @ctf (ClockType:3, Frequency:61) and reference clock 0, then @n message
 * records of @rec bytes (8: the bare header; 16: with a time stamp from
 * @ts[]), 0xFF after them. Returns the records' end (SavedOffset).
 */
static uint32_t make_buffer(uint8_t *b, uint32_t size, unsigned int cpu, uint64_t seq,
			    uint64_t ctf, unsigned int n, uint32_t rec, const uint64_t *ts)
{
	uint32_t at = 0x48, i;

	memset(b, 0xFF, size);
	memset(b, 0, 0x48);
	for (i = 0; i < n && at + rec <= size; i++, at += rec) {
		put_le(b + at, rec, 2);
		b[at + 2] = 0;
		b[at + 3] = 0x90;
		put_le(b + at + 4, i, 2);
		put_le(b + at + 6, rec == 16 ? TRACE_MESSAGE_TIMESTAMP : 0, 2);
		if (rec == 16)
			put_le(b + at + 8, ts ? ts[i] : seq * 1000 + i, 8);
	}
	expect_buffer_header(b, size, at, 0, seq, ctf, cpu, WMI_BUFFER_FLAG_FLUSH_MARKER);
	return at;
}

/* The header buffer of a session whose clock is QPC at 1 GHz, started at @start. */
static void make_header(uint8_t *b, uint32_t size, uint64_t start)
{
	struct nttrace_etl_session s;

	memset(&s, 0, sizeof(s));
	s.buffer_size = size;
	s.nr_cpus = 1;
	s.pointer_size = 8;
	s.clock_type = EVENT_TRACE_CLOCK_PERFCOUNTER;
	s.frequency = 1000000000;
	s.start_time = start;
	s.boot_time = start - 1;
	strcpy(s.name, "hand-made");
	nttrace_etl_header(b, &s, "hand.etl", start, 1, 0, 0);
}

/* Open @path, count its events; -errno from opening in *@ret. */
static unsigned int count_events(const char *path, struct seen *seen, int *ret)
{
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	unsigned int n = 0;

	*ret = nttrace_etl_open(&r, path, on_seen, seen);
	if (*ret)
		return 0;
	while (nttrace_etl_next(r, &ev))
		n++;
	nttrace_etl_close(r);
	return n;
}

/*
 * Buffer 0 smaller than a logfile header (0x50 bytes: room for one 8-byte
 * record): it is not read as one past its end. Under AddressSanitizer the
 * old reader's overrun shows; without it, the problem it reports tells.
 */
static void test_tiny_header(const char *path)
{
	uint8_t f[2 * 0x50];
	struct seen seen = { .want = "too small" };
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	unsigned int n = 0;

	make_buffer(f, 0x50, 0, 0, 0, 0, 8, NULL);
	put_le(f + 0x36, WMI_BUFFER_TYPE_HEADER, 2);
	put_le(f + 0x48, 0xC0020002, 4);	/* a logfile header event's marker */
	put_le(f + 0x4C, 0x138, 2);
	make_buffer(f + 0x50, 0x50, 0, 1, 0, 1, 8, NULL);
	spew(path, f, sizeof(f));
	if (!tap_eq(nttrace_etl_open(&r, path, on_seen, &seen), 0,
		    "%d-bit: 0x50-byte buffers: the reader opens", BITS))
		return;
	tap_ok(!nttrace_etl_info(r)->has_header && seen.matched,
	       "%d-bit: ... buffer 0 is too small for a logfile header, and said so (%s)",
	       BITS, seen.matched ? seen.match : seen.last);
	while (nttrace_etl_next(r, &ev))
		n++;
	nttrace_etl_close(r);
	tap_eq(n, 1, "%d-bit: ... the data buffer's event is read", BITS);
}

/*
 * A buffer header changed after the file was indexed (another process
 * writing it): the header read with the buffer bounds its records, and a
 * buffer whose header no longer holds is reported and skipped.
 */
static void test_changed_buffer(const char *path)
{
	static const struct {
		uint32_t size, saved;
		const char *what;
	} cases[] = {
		{ BUF, 0xFFFFFFF8, "SavedOffset 0xFFFFFFF8" },
		{ BUF, BUF + 64, "SavedOffset past the buffer" },
		{ 2 * BUF, BUF + 2048, "BufferSize and SavedOffset doubled" },
		{ BUF, 0x40, "SavedOffset inside the header" },
	};
	uint8_t *f = malloc(4 * BUF);
	unsigned int k;

	make_header(f, BUF, FILETIME_UNIX_EPOCH);
	for (k = 1; k < 4; k++)
		make_buffer(f + k * BUF, BUF, 0, k, (1000000000ULL << 3) | 1, 10, 16, NULL);
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct seen seen = { .want = "" };
		struct nttrace_etl_reader *r;
		struct nttrace_etl_event ev;
		unsigned int n = 0, at = 0;
		uint8_t h[8];
		int fd;

		spew(path, f, 4 * BUF);
		if (nttrace_etl_open(&r, path, on_seen, &seen)) {
			tap_ok(0, "%d-bit: changed buffer: the reader opens", BITS);
			continue;
		}
		put_le(h, cases[k].size, 4);
		put_le(h + 4, cases[k].saved, 4);
		fd = open(path, O_WRONLY);
		if (fd < 0 || pwrite(fd, h, 8, 2 * BUF) != 8)
			printf("# could not change %s\n", path);
		close(fd);
		seen.matched = 0;
		while (nttrace_etl_next(r, &ev)) {
			at += ev.offset >= 2 * BUF && ev.offset < 3 * BUF;
			n++;
		}
		nttrace_etl_close(r);
		tap_ok(n == 20 && !at && seen.matched && seen.match_offset == 2 * BUF,
		       "%d-bit: %s after indexing: that buffer is reported and skipped "
		       "(%u events, %u from it)", BITS, cases[k].what, n, at);
	}
	free(f);
}

/* The address space now, from /proc/self/statm; 0 if unknown. */
static uint64_t address_space(void)
{
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%lu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return (uint64_t)pages * sysconf(_SC_PAGESIZE);
}

/*
 * A sparse file of 1 GB in 128-byte buffers (8 million of them), 64 KB of
 * real buffers at each end (whole blocks for any file system): the reader
 * neither sizes its index by the file's apparent size nor reads the hole
 * buffer by buffer. Opened under an address-space limit of what the
 * process has plus 64 MB. And a file of 5000 bad buffers:
 * NTTRACE_ETL_MAX_PROBLEMS reports, then one that counts the rest.
 */
static void test_caps(const char *path)
{
	const uint64_t size = 1 << 30;
	struct seen seen = { .want = "hole" };
	unsigned int n, more = 0, k;
	uint8_t *g = malloc(5001 * 0x50);
	int fd, ret;

	for (k = 0; k < 512; k++)
		make_buffer(g + k * 128, 128, 0, k, 0, 1, 8, NULL);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, g, 65536) != 65536 || ftruncate(fd, size)) {
		tap_ok(0, "%d-bit: a 1 GB sparse file (%s)", BITS, strerror(errno));
	} else {
		struct rlimit old, lim;
		uint64_t as = address_space();

		for (k = 0; k < 512; k++)
			make_buffer(g + k * 128, 128, 0, 512 + k, 0, 1, 8, NULL);
		if (pwrite(fd, g, 65536, size - 65536) != 65536)
			printf("# pwrite: %s\n", strerror(errno));
		close(fd);
		getrlimit(RLIMIT_AS, &old);
		lim = old;
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
		if (as)
			lim.rlim_cur = as + (64 << 20);
#endif
		setrlimit(RLIMIT_AS, &lim);
		n = count_events(path, &seen, &ret);
		setrlimit(RLIMIT_AS, &old);
		/* The problems: no header, and the hole. */
		tap_ok(ret == 0 && n == 1024 && seen.matched == 1 && seen.n == 2,
		       "%d-bit: sparse 1 GB of 128-byte buffers: opens within 64 MB more, "
		       "every event, the hole reported once (%d, %u events, %u problems: %s)",
		       BITS, ret, n, seen.n, seen.last);
	}
	unlink(path);

	make_buffer(g, 0x50, 0, 1, 0, 1, 8, NULL);
	memset(g + 0x50, 0xEE, 5000 * 0x50);
	spew(path, g, 5001 * 0x50);
	free(g);
	memset(&seen, 0, sizeof(seen));
	n = count_events(path, &seen, &ret);
	/* 5001 problems: no header, then each of the 5000 bad buffers. */
	tap_ok(ret == 0 && n == 1 && seen.n == NTTRACE_ETL_MAX_PROBLEMS + 1 &&
	       sscanf(seen.last, "%u more problems", &more) == 1 &&
	       more == 5001 - NTTRACE_ETL_MAX_PROBLEMS,
	       "%d-bit: 5000 bad buffers: %d problems reported, then one that says how "
	       "many more (%u reported, the last \"%s\")", BITS, NTTRACE_ETL_MAX_PROBLEMS,
	       seen.n, seen.last);
	unlink(path);
}

/*
 * A hostile clock: Frequency 1 Hz and time stamps up to 2^62 make
 * FILETIMEs past 2^64. Times that do not fit are unknown (0), never a
 * float-to-integer conversion out of range (undefined: UBSan's
 * float-cast-overflow) or a wrapped sum.
 */
static void test_hostile_clock(const char *path)
{
	static const uint64_t ts[] = { 3, 1844000000000ULL, 1ULL << 62 };
	const uint64_t start = FILETIME_UNIX_EPOCH + 10000000ULL * 1700000000;
	uint64_t got[3] = { 0 };
	double rel[3] = { 0 };
	struct seen seen = { .want = "" };
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	uint8_t f[2 * BUF];
	unsigned int n = 0;

	make_header(f, BUF, start);
	make_buffer(f + BUF, BUF, 0, 1, (1ULL << 3) | 1, 3, 16, ts);
	spew(path, f, sizeof(f));
	if (!tap_eq(nttrace_etl_open(&r, path, on_seen, &seen), 0,
		    "%d-bit: a 1 Hz clock: the reader opens", BITS))
		return;
	while (nttrace_etl_next(r, &ev)) {
		if (n < 3) {
			got[n] = ev.filetime;
			rel[n] = ev.relative;
		}
		n++;
	}
	nttrace_etl_close(r);
	tap_ok(n == 3 && got[0] == start + 30000000 && rel[0] == 3.0,
	       "%d-bit: 1 Hz, 3 ticks: 3 s after the start", BITS);
	tap_ok(got[1] == 0 && got[2] == 0 && rel[2] > 4e18,
	       "%d-bit: FILETIMEs past 2^64 are unknown, not wrapped or converted out of "
	       "range (0x%llx, 0x%llx)", BITS, (unsigned long long)got[1],
	       (unsigned long long)got[2]);
}

/*
 * CPUs past 255: a buffer with WMI_BUFFER_FLAG_PROC_INDEX carries the whole
 * 16-bit processor index (the kernel's rings on a machine with many CPUs);
 * one without it, only ProcessorNumber's 8 bits.
 */
static void test_proc_index(const char *path)
{
	uint8_t f[3 * 0x1000];
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	unsigned int cpus[4] = { 0 }, n = 0;

	make_header(f, 0x1000, 1000);
	make_buffer(f + 0x1000, 0x1000, 300 & 0xFF, 1, 0, 1, 8, NULL);
	put_le(f + 0x1000 + 0x28, 300, 2);
	put_le(f + 0x1000 + 0x34, WMI_BUFFER_FLAG_FLUSH_MARKER | WMI_BUFFER_FLAG_PROC_INDEX, 2);
	make_buffer(f + 0x2000, 0x1000, 7, 2, 0, 1, 8, NULL);
	f[0x2000 + 0x29] = 0xAB;	/* Alignment: not part of the CPU here */
	spew(path, f, sizeof(f));
	if (!tap_eq(nttrace_etl_open(&r, path, NULL, NULL), 0,
		    "%d-bit: a file with CPU 300: the reader opens", BITS))
		return;
	while (n < 4 && nttrace_etl_next(r, &ev))
		cpus[n++] = ev.cpu;
	nttrace_etl_close(r);
	tap_ok(n == 2 && ((cpus[0] == 300 && cpus[1] == 7) || (cpus[0] == 7 && cpus[1] == 300)),
	       "%d-bit: ... 16-bit processor index with PROC_INDEX, 8 bits without (%u, %u)",
	       BITS, cpus[0], cpus[1]);
}

static void test_hand_made(void)
{
	char path[64];

	snprintf(path, sizeof(path), "/tmp/etl-hand-%d.etl", getpid());
	test_tiny_header(path);
	test_changed_buffer(path);
	test_caps(path);
	test_hostile_clock(path);
	test_proc_index(path);
	unlink(path);
}

/* A kernel session with a log file: the same checks through the module. */
static void test_kernel(void)
{
	char path[64], name[32];
	struct props pr, st;
	TRACEHANDLE h;
	unsigned int i, errs = 0;
	uint8_t data[32], *f;
	uint32_t len;
	size_t flen;

	if (access("/dev/nttrace", F_OK)) {
		printf("# no /dev/nttrace: kernel sessions not tested here\n");
		return;
	}
	snprintf(path, sizeof(path), "/tmp/etl-k-%d.etl", getpid());
	snprintf(name, sizeof(name), "etl-k-%d", BITS);
	etl_props(&pr, path, 0, 0, 16);
	if (!tap_eq(StartTraceA(&h, name, &pr.p), 0, "%d-bit: kernel session starts", BITS))
		return;
	for (i = 0; i < N_EVENTS; i++)
		errs += trace_one(h, i, data, &len) != 0;
	etl_props(&st, NULL, 0, 0, 0);
	tap_eq(StopTraceA(h, NULL, &st.p) + errs, 0, "%d-bit: traced and stopped", BITS);
	f = slurp(path, &flen);
	check_header("kernel", f, flen, 8, name, path, 0, get_le(f + 0x48 + 0x20 + 0x0C, 4));
	tap_ok(get_le(f + 0x48 + 0x20 + 0x0C, 4) >= 1, "%d-bit kernel: processors >= 1", BITS);
	round_trip("kernel", path, N_EVENTS, BITS == 32);
	free(f);
	unlink(path);
}

int main(void)
{
	test_user_mode();
	test_limits();
	test_disk_full();
	test_hand_made();
	test_kernel();
	return tap_done();
}
