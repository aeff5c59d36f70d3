// SPDX-License-Identifier: GPL-2.0
/*
 * ETL files: the header buffer checked field by field at the offsets of
 * Windows' ETL layout (written out here, not taken from the library),
 * events read back through the reader byte for byte, sequential files
 * with a maximum size, circular files, and damaged files; hand-made
 * files for the reader's defences (a tiny header buffer, a buffer changed
 * after indexing, a sparse file, thousands of bad buffers, a hostile
 * clock). The user-mode logger's part runs anywhere; the kernel session's
 * part needs /dev/nttrace. Runs in the VM (64- and 32-bit) and on the host (64-bit).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/evntrace.h>
#include <nttrace/etl.h>
#include "../../userlib/internal.h"
#include "expect.h"
#include "files.h"
#include "props.h"
#include "state.h"

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

/*
 * A file past 2 GB: a buffer written at 3 GB (the file sparse below it).
 * The 32-bit library without large-file support failed it (EFBIG: its
 * open() had no O_LARGEFILE).
 */
static void test_large_file(void)
{
	struct nttrace_etl_session s;
	struct nttrace_logfile lf;
	char path[64];
	uint8_t *buf = calloc(1, BUF);
	struct stat st;
	int ret;

	snprintf(path, sizeof(path), "/tmp/etl-large-%d.etl", getpid());
	memset(&s, 0, sizeof(s));
	s.buffer_size = BUF;
	s.nr_cpus = 1;
	s.pointer_size = sizeof(void *);
	s.clock_type = NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER;
	s.frequency = 1000000000;
	ret = nttrace_logfile_open(&lf, path, &s);
	if (!tap_eq(ret, 0, "%d-bit: a file to write past 2 GB", BITS) || !buf) {
		free(buf);
		return;
	}
	expect_buffer_header(buf, BUF, NTTRACE_WMI_BUFFER_HEADER_SIZE, 0, 1, 0, 0, 0);
	memset(buf + NTTRACE_WMI_BUFFER_HEADER_SIZE, 0xFF, BUF - NTTRACE_WMI_BUFFER_HEADER_SIZE);
	if (lseek(lf.fd, 3LL << 30, SEEK_SET) < 0)
		printf("# lseek: %s\n", strerror(errno));
	nttrace_logfile_buffer(&lf, buf, BUF, 0);
	tap_ok(lf.buffers == 1 && !lf.failed && !lf.error,
	       "%d-bit: a buffer written at 3 GB (%llu written, %llu failed: %s)", BITS,
	       (unsigned long long)lf.buffers, (unsigned long long)lf.failed,
	       strerror(lf.error));
	tap_eq(nttrace_logfile_close(&lf, 0, 0), 0, "%d-bit: ... and the file closed", BITS);
	tap_ok(!stat(path, &st) && (uint64_t)st.st_size == (3ULL << 30) + BUF,
	       "%d-bit: ... the file is 3 GB and a buffer long", BITS);
	unlink(path);
	free(buf);
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

/*
 * nttrace_logfile_counted_n(), the user-mode logger writer's batch: @n
 * buffers of BUF bytes, buffer i filled with the byte i + 1 and holding
 * i + 1 events.
 */
static void batch(struct nttrace_logfile *lf, unsigned int n)
{
	static uint8_t bufs[20][BUF];
	uint8_t *p[20];
	uint32_t events[20];
	unsigned int i;

	for (i = 0; i < n; i++) {
		memset(bufs[i], i + 1, BUF);
		p[i] = bufs[i];
		events[i] = i + 1;
	}
	nttrace_logfile_counted_n(lf, p, events, n);
}

static int batch_open(struct nttrace_logfile *lf, const char *path, uint32_t mode,
		      uint32_t max_mb)
{
	struct nttrace_etl_session s = {
		.buffer_size = BUF, .nr_cpus = 1, .pointer_size = PSZ,
		.log_file_mode = mode, .max_file_mb = max_mb,
		.clock_type = NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER, .frequency = 1000000000,
	};

	return tap_eq(nttrace_logfile_open(lf, path, &s), 0, "%d-bit batch: file opens",
		      BITS);
}

/* Buffer i of a file (0 the header) is all the byte @b. */
static int holds(const uint8_t *f, size_t flen, unsigned int i, uint8_t b)
{
	size_t k;

	if ((i + 1) * (size_t)BUF > flen)
		return 0;
	for (k = 0; k < BUF; k++)
		if (f[i * BUF + k] != b)
			return 0;
	return 1;
}

static void test_batch_writes(void)
{
	struct rlimit old, lim = { 3 * BUF + 100, RLIM_INFINITY };
	struct nttrace_logfile lf;
	char path[64];
	uint8_t *f;
	size_t flen;
	unsigned int i, ok;

	snprintf(path, sizeof(path), "/tmp/etl-batch-%d.etl", getpid());

	/* The file size limit cuts a batch in its third buffer (EFBIG). */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim.rlim_max = old.rlim_max;
	if (batch_open(&lf, path, EVENT_TRACE_FILE_MODE_SEQUENTIAL, 0)) {
		if (setrlimit(RLIMIT_FSIZE, &lim) == 0) {
			batch(&lf, 5);
			setrlimit(RLIMIT_FSIZE, &old);
		}
		tap_ok(lf.buffers == 2 && lf.events == 1 + 2 && lf.failed == 3 &&
		       lf.failed_events == 3 + 4 + 5 && lf.error == EFBIG,
		       "%d-bit batch: cut in its third buffer: 2 written, 3 failed, EFBIG "
		       "(%llu, %llu, %d)", BITS, (unsigned long long)lf.buffers,
		       (unsigned long long)lf.failed, lf.error);
		nttrace_logfile_close(&lf, 0, 0);
		f = slurp(path, &flen);
		tap_ok(flen == 3 * BUF && holds(f, flen, 1, 1) && holds(f, flen, 2, 2),
		       "%d-bit batch: the file keeps the whole buffers only (%zu bytes)", BITS,
		       flen);
		free(f);
	}

	/*
	 * A maximum size of 1 MB: 255 buffers after the header. 13 batches
	 * of 20: the last stops after its 15th, the 5 after it (16 to 20
	 * events) are dropped, counted.
	 */
	if (batch_open(&lf, path, EVENT_TRACE_FILE_MODE_SEQUENTIAL, 1)) {
		for (i = 0; i < 13; i++)
			batch(&lf, 20);
		tap_ok(lf.buffers == 255 && lf.dropped == 5 &&
		       lf.dropped_events == 16 + 17 + 18 + 19 + 20 && lf.failed == 0 &&
		       lf.error == EFBIG, "%d-bit batch: 255 buffers fill 1 MB, 5 dropped "
		       "(%llu, %llu)", BITS, (unsigned long long)lf.buffers,
		       (unsigned long long)lf.dropped);
		nttrace_logfile_close(&lf, 0, 0);
		f = slurp(path, &flen);
		tap_ok(flen == 256 * BUF && holds(f, flen, 255, 15),
		       "%d-bit batch: the file is 1 MB, the last buffer the 15th of the last "
		       "batch (%zu bytes)", BITS, flen);
		free(f);
	}

	/*
	 * Circular, 1 MB: 255 slots. 13 batches of 20 wrap inside the last
	 * one; each slot holds the newest buffer that went there.
	 */
	if (batch_open(&lf, path, EVENT_TRACE_FILE_MODE_CIRCULAR, 1)) {
		for (i = 0; i < 13; i++)
			batch(&lf, 20);
		tap_ok(lf.buffers == 260 && lf.failed == 0 && lf.dropped == 0,
		       "%d-bit batch: circular, 260 buffers written", BITS);
		nttrace_logfile_close(&lf, 0, 0);
		f = slurp(path, &flen);
		/* Buffer k (0-based, of 260) is in slot k % 255, file buffer 1 + that. */
		for (ok = 1, i = 0; i < 255; i++) {
			unsigned int k = i < 5 ? 255 + i : i;

			ok &= holds(f, flen, 1 + i, k % 20 + 1);
		}
		tap_ok(flen == 256 * BUF && ok, "%d-bit batch: every slot holds the newest "
		       "buffer that went there (%zu bytes)", BITS, flen);
		free(f);
	}
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
		tap_ok(1, "%d-bit: no tmpfs here (%s) # SKIP", BITS, strerror(errno));
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
	expect_buffer_header(b, size, at, 0, seq, ctf, cpu, NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER);
	return at;
}

/*
 * The header buffer of a session whose clock is QPC at @freq Hz, started
 * at @start (the clock then 0).
 */
static void make_header_freq(uint8_t *b, uint32_t size, uint64_t start, uint64_t freq)
{
	struct nttrace_etl_session s;

	memset(&s, 0, sizeof(s));
	s.buffer_size = size;
	s.nr_cpus = 1;
	s.pointer_size = 8;
	s.clock_type = NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER;
	s.frequency = freq;
	s.start_time = start;
	s.boot_time = start - 1;
	strcpy(s.name, "hand-made");
	nttrace_etl_header(b, &s, "hand.etl", start, 1, 0, 0);
}

/* The same at 1 GHz. */
static void make_header(uint8_t *b, uint32_t size, uint64_t start)
{
	make_header_freq(b, size, start, 1000000000);
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
	put_le(f + 0x36, NTTRACE_WMI_BUFFER_TYPE_HEADER, 2);
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

	make_header(f, BUF, NTTRACE_FILETIME_UNIX_EPOCH);
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
		/* BufferSize, SavedOffset and Offset (the end readers go by). */
		put_le(h, cases[k].size, 4);
		put_le(h + 4, cases[k].saved, 4);
		fd = open(path, O_WRONLY);
		if (fd < 0 || pwrite(fd, h, 8, 2 * BUF) != 8 ||
		    pwrite(fd, h + 4, 4, 2 * BUF + 0x30) != 4)
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
 * A hostile clock: PerfFreq 1 Hz and time stamps up to 2^62 make
 * FILETIMEs past 2^64. Times that do not fit are unknown (0), never a
 * float-to-integer conversion out of range (undefined: UBSan's
 * float-cast-overflow) or a wrapped sum.
 */
static void test_hostile_clock(const char *path)
{
	static const uint64_t ts[] = { 3, 1844000000000ULL, 1ULL << 62 };
	const uint64_t start = NTTRACE_FILETIME_UNIX_EPOCH + 10000000ULL * 1700000000;
	uint64_t got[3] = { 0 };
	double rel[3] = { 0 };
	struct seen seen = { .want = "" };
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	uint8_t f[2 * BUF];
	unsigned int n = 0;

	make_header_freq(f, BUF, start, 1);
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
 * CPUs past 255: a buffer with NTTRACE_WMI_BUFFER_FLAG_PROC_INDEX carries the whole
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
	put_le(f + 0x1000 + 0x34,
	       NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER | NTTRACE_WMI_BUFFER_FLAG_PROC_INDEX, 2);
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

/* ---- EventWrite (EVENT_HEADER) records, hand-encoded ---- */

/*
 * One EventWrite record as this test writes it, byte by byte at the offsets
 * of Windows' record layout and uapi/nttrace.h's comments (no struct of the
 * library or the uapi): the 0x50-byte EVENT_HEADER, the extended items
 * (each {Size: header and data padded to 8, ExtType, Linkage, DataSize},
 * then the data and zeros to 8), then the user data. @hdr_size and @items
 * give malformed records.
 */
#define EH_AUTO 0x10000	/* an item's Size: its header and data padded to 8 */

struct eh_item {
	uint32_t size;		/* as written, or EH_AUTO */
	uint16_t type, linkage, data_size;
	const uint8_t *data;
	uint32_t len;		/* bytes of @data written (padded to 8) */
};

struct eh {
	int ptr32;
	uint16_t flags, property;	/* flags as written (the test sets all) */
	uint32_t tid, pid;
	uint64_t ts;
	uint8_t provider[16], activity[16];
	uint16_t id, task;
	uint8_t version, channel, level, opcode;
	uint64_t keyword;
	struct eh_item items[3];
	unsigned int nitems;
	const uint8_t *data;
	uint32_t len;
	uint32_t size;		/* the record's Size if not 0 (else the sum) */
	/* What the reader must make of it: */
	int skipped;		/* not delivered (header past the record) */
	uint32_t bad_at;	/* the malformed item's offset, or 0 */
	unsigned int good_items;	/* items before it */
	const uint8_t *related;	/* the related activity ID the reader finds */
	const char *text;	/* STRING_ONLY data as UTF-8 */
	uint32_t enc_size;	/* filled by eh_encode() */
	uint64_t offset;	/* in the file, filled by eh_buffer() */
	unsigned int cpu;
};

static uint32_t eh_encode(struct eh *e, uint8_t *out)
{
	uint32_t at = 0x50, i;

	memset(out, 0, 0x50);
	out[2] = e->ptr32 ? 0x12 : 0x13;
	out[3] = 0xC0;
	put_le(out + 0x04, e->flags, 2);
	put_le(out + 0x06, e->property, 2);
	put_le(out + 0x08, e->tid, 4);
	put_le(out + 0x0C, e->pid, 4);
	put_le(out + 0x10, e->ts, 8);
	memcpy(out + 0x18, e->provider, 16);
	put_le(out + 0x28, e->id, 2);
	out[0x2A] = e->version;
	out[0x2B] = e->channel;
	out[0x2C] = e->level;
	out[0x2D] = e->opcode;
	put_le(out + 0x2E, e->task, 2);
	put_le(out + 0x30, e->keyword, 8);
	put_le(out + 0x38, 0, 8);
	memcpy(out + 0x40, e->activity, 16);
	for (i = 0; i < e->nitems; i++) {
		const struct eh_item *it = &e->items[i];
		uint32_t pad = (it->len + 7) & ~7u;

		put_le(out + at, it->size == EH_AUTO ? 8 + pad : it->size, 2);
		put_le(out + at + 2, it->type, 2);
		put_le(out + at + 4, it->linkage, 2);
		put_le(out + at + 6, it->data_size, 2);
		memset(out + at + 8, 0, pad);
		memcpy(out + at + 8, it->data, it->len);
		at += 8 + pad;
	}
	memcpy(out + at, e->data, e->len);
	at += e->len;
	e->enc_size = e->size ? e->size : at;
	put_le(out, e->enc_size, 2);
	return e->enc_size;
}

/* A data buffer at @b of CPU @cpu with @n of the records @es (those of @cpu). */
static void eh_buffer(uint8_t *b, uint64_t boff, unsigned int cpu, uint64_t seq,
		      struct eh *es, unsigned int n)
{
	uint32_t at = 0x48, i;

	memset(b, 0xFF, BUF);
	memset(b, 0, 0x48);
	for (i = 0; i < n; i++) {
		uint32_t size;

		if (es[i].cpu != cpu)
			continue;
		memset(b + at, 0, 0x200);
		size = eh_encode(&es[i], b + at);
		es[i].offset = boff + at;
		at += (size + 7) & ~7u;
	}
	expect_buffer_header(b, BUF, at, 0, seq, (1000000000ULL << 3) | 1, cpu,
			     NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER);
}

static const uint8_t eh_prov[16] = { 0x78, 0x56, 0x34, 0x12, 0xbc, 0x9a, 0xf0, 0xde,
				     1, 2, 3, 4, 5, 6, 7, 8 };
static const uint8_t eh_act[16] = { 0xa1, 0xa2, 0xa3, 0xa4, 0xb1, 0xb2, 0xc1, 0xc2,
				    0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8 };
static const uint8_t eh_rel[16] = { 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8,
				    0xe9, 0xea, 0xeb, 0xec, 0xed, 0xee, 0xef, 0xf0 };
static const uint8_t eh_x[5] = { 0x11, 0x22, 0x33, 0x44, 0x55 };
static const uint8_t eh_bytes[40] = { 0x61, 0x62, 0x63, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
				      11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
				      24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36 };
/* UTF-16LE: H, e-acute, a quote, a newline, the euro sign, U+1F600, NUL. */
static const uint8_t eh_wstr[] = { 'H', 0, 0xE9, 0, '"', 0, '\n', 0, 0xAC, 0x20,
				   0x3D, 0xD8, 0x00, 0xDE, 0, 0 };
static const uint8_t eh_tail[8] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4 };

#define EH_N 10
#define EH_FLAGS64 (0x0040 | 0x0010)	/* 64_BIT_HEADER | NO_CPUTIME */
#define EH_FLAGS32 (0x0020 | 0x0010)	/* 32_BIT_HEADER | NO_CPUTIME */

/*
 * The records: in time order, over two CPUs. The good ones first (@with_bad
 * 0 writes only those), then the malformed: a header shorter than 0x50
 * (skipped), and item chains broken five ways (delivered, no data).
 */
static unsigned int eh_records(struct eh *es, int with_bad)
{
	struct eh *e;
	unsigned int i, n = with_bad ? EH_N : 3;

	memset(es, 0, EH_N * sizeof(*es));
	for (i = 0; i < EH_N; i++) {
		e = &es[i];
		e->ts = 1000 * (i + 1);
		e->cpu = i % 2;
		e->tid = 100 + i;
		e->pid = 50;
		memcpy(e->provider, eh_prov, 16);
		e->provider[15] = (uint8_t)i;
		e->id = 1000 + i;
		e->version = 1;
		e->channel = 16;
		e->level = 4;
		e->opcode = 1;
		e->task = 7;
		e->keyword = 0x8000000000000001ULL;
		e->flags = EH_FLAGS64;
	}
	/* 0: 64-bit, no extended items, 5 bytes of data. */
	e = &es[0];
	e->data = eh_bytes;
	e->len = 5;
	e->property = 4;
	/* 1: 32-bit, EventWriteString with a related activity ID. */
	e = &es[1];
	e->ptr32 = 1;
	e->flags = EH_FLAGS32 | 0x0001 | 0x0004;	/* EXTENDED_INFO, STRING_ONLY */
	e->level = 0;
	e->keyword = 0;
	e->items[0] = (struct eh_item){ EH_AUTO, 1, 0, 16, eh_rel, 16 };
	e->nitems = 1;
	e->related = eh_rel;
	e->data = eh_wstr;
	e->len = sizeof(eh_wstr);
	e->text = "H\xc3\xa9\"\n\xe2\x82\xac\xf0\x9f\x98\x80";
	/* 2: 64-bit, activity ID, related activity ID and another item. */
	e = &es[2];
	memcpy(e->activity, eh_act, 16);
	e->flags |= 0x0001;
	e->items[0] = (struct eh_item){ EH_AUTO, 1, 1, 16, eh_rel, 16 };
	e->items[1] = (struct eh_item){ EH_AUTO, 0x000B, 0, 5, eh_x, 5 };
	e->nitems = 2;
	e->related = eh_rel;
	e->data = eh_bytes;
	e->len = 40;
	/* 3: a header cut short (Size 0x40): skipped. */
	e = &es[3];
	e->size = 0x40;
	e->skipped = 1;
	/* 4: EXTENDED_INFO, and the record ends with the header. */
	e = &es[4];
	e->flags |= 0x0001;
	e->bad_at = 0x50;
	/* 5: an item runs past the record (Size 0x7FF8), after a good one. */
	e = &es[5];
	e->flags |= 0x0001;
	e->items[0] = (struct eh_item){ EH_AUTO, 1, 1, 16, eh_rel, 16 };
	e->items[1] = (struct eh_item){ 0x7FF8, 2, 0, 0x7FF0, eh_x, 5 };
	e->nitems = 2;
	e->data = eh_tail;
	e->len = 8;
	e->bad_at = 0x68;
	e->good_items = 1;
	e->related = eh_rel;
	/* 6: Size 16 for 16 bytes of data (not header + data). */
	e = &es[6];
	e->flags |= 0x0001;
	e->items[0] = (struct eh_item){ 16, 1, 0, 16, eh_rel, 16 };
	e->nitems = 1;
	e->data = eh_tail;
	e->len = 8;
	e->bad_at = 0x50;
	/* 7: Linkage 1 on the last item, where the record ends. */
	e = &es[7];
	e->flags |= 0x0001;
	e->items[0] = (struct eh_item){ EH_AUTO, 5, 1, 3, eh_x, 3 };
	e->nitems = 1;
	e->bad_at = 0x60;
	e->good_items = 1;
	/* 8: an item of Size 0 (a walker stepping by it would loop). */
	e = &es[8];
	e->flags |= 0x0001;
	e->items[0] = (struct eh_item){ 0, 0, 1, 0, NULL, 0 };
	e->nitems = 1;
	e->data = eh_tail;
	e->len = 8;
	e->bad_at = 0x50;
	/* 9: Size 24 for 3 bytes of data: more than its padding to 8. */
	e = &es[9];
	e->flags |= 0x0001;
	e->items[0] = (struct eh_item){ 24, 5, 0, 3, eh_x, 3 };
	e->nitems = 1;
	e->data = eh_tail;
	e->len = 8;
	e->bad_at = 0x50;
	return n;
}

static uint8_t eh_file_buf[3 * BUF];

/* Write the records into @path: the header buffer, then CPU 0's and 1's. */
static void eh_file(const char *path, struct eh *es, unsigned int n)
{
	uint8_t *f = eh_file_buf;

	make_header(f, BUF, NTTRACE_FILETIME_UNIX_EPOCH + 10000000ULL * 1700000000);
	eh_buffer(f + BUF, BUF, 0, 1, es, n);
	eh_buffer(f + 2 * BUF, 2 * BUF, 1, 2, es, n);
	spew(path, f, sizeof(eh_file_buf));
}

/* Problems with their offsets, for matching with the malformed records. */
struct eh_problems {
	unsigned int n;
	uint64_t at[16];
	char what[16][120];
};

static void on_eh_problem(void *ctx, uint64_t offset, const char *what)
{
	struct eh_problems *p = ctx;

	printf("# problem at %llu: %s\n", (unsigned long long)offset, what);
	if (p->n < 16) {
		p->at[p->n] = offset;
		snprintf(p->what[p->n], sizeof(p->what[0]), "%s", what);
	}
	p->n++;
}

/* Every field of @ev against @e; the number of mismatches (each said). */
static unsigned int eh_check(const struct nttrace_etl_event *ev, const struct eh *e)
{
	struct nttrace_etl_ext it;
	unsigned int bad = 0, k = 0;
	uint32_t at = 0;
#define EH_SAME(cond) do { if (!(cond)) { bad++; printf("# event %u: !(%s)\n", \
					e->id - 1000, #cond); } } while (0)

	EH_SAME(ev->event_header == 0x50 && !ev->message && !ev->classic);
	EH_SAME(ev->offset == e->offset && ev->cpu == e->cpu && ev->size == e->enc_size);
	EH_SAME(ev->rec[2] == (e->ptr32 ? 0x12 : 0x13) && ev->rec[3] == 0xC0);
	EH_SAME(ev->header_flags == e->flags && ev->event_property == e->property);
	EH_SAME(ev->tid == e->tid && ev->pid == e->pid);
	EH_SAME(ev->has_timestamp && ev->timestamp == e->ts);
	/* Within a rounding: x87 (32-bit) keeps more precision than a double. */
	EH_SAME(ev->relative - e->ts / 1e9 < 1e-15 && e->ts / 1e9 - ev->relative < 1e-15);
	EH_SAME(ev->guid_len == 16 && !memcmp(ev->guid, e->provider, 16));
	EH_SAME(ev->descriptor.id == e->id && ev->descriptor.version == e->version &&
		ev->descriptor.channel == e->channel && ev->descriptor.level == e->level &&
		ev->descriptor.opcode == e->opcode && ev->descriptor.task == e->task &&
		ev->descriptor.keyword == e->keyword);
	EH_SAME(ev->processor_time == 0);
	EH_SAME(!memcmp(ev->activity_id, e->activity, 16));
	EH_SAME(e->related ? ev->related_activity_id &&
		!memcmp(ev->related_activity_id, e->related, 16) : !ev->related_activity_id);
	EH_SAME(ev->ext_bad == e->bad_at);
	while (nttrace_etl_ext_next(ev, &at, &it)) {
		const struct eh_item *w = &e->items[k];

		EH_SAME(k < e->nitems && it.type == w->type && it.linkage == w->linkage &&
			it.data_size == w->data_size && !memcmp(it.data, w->data, w->len));
		k++;
	}
	EH_SAME(k == (e->bad_at ? e->good_items : e->nitems));
	EH_SAME(ev->ext_count == k && (k ? ev->ext == ev->rec + 0x50 : 1));
	if (e->bad_at)
		EH_SAME(!ev->data && !ev->data_len);
	else
		EH_SAME(ev->data_len == e->len && !memcmp(ev->data, e->data, e->len) &&
			ev->data + e->len == ev->rec + ev->size);
#undef EH_SAME
	return bad;
}

/* `nttrace dump [--json] @file`: the output and the exit status. */
static char *eh_dump(const char *tool, const char *opt, const char *file, int *status)
{
	char cmd[1024], *out = malloc(1 << 16);
	size_t len = 0, n;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s dump %s %s 2>&1", tool, opt, file);
	f = popen(cmd, "r");
	if (!f || !out) {
		free(out);
		return NULL;
	}
	while ((n = fread(out + len, 1, (1 << 16) - 1 - len, f)) > 0)
		len += n;
	out[len] = 0;
	*status = pclose(f);
	return out;
}

static void eh_guid(const uint8_t *g, char *s)
{
	sprintf(s, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6],
		g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
}

static size_t eh_hex(char *s, const uint8_t *d, uint32_t len, const char *sep)
{
	size_t n = 0;
	uint32_t i;

	for (i = 0; i < len; i++)
		n += sprintf(s + n, "%s%02x", sep, d[i]);
	return n;
}

/* The line `nttrace dump` must print for @e, as text, from " event_header". */
static void eh_text_line(const struct eh *e, char *s)
{
	static const uint8_t zero[16];
	char g[40];
	size_t n;
	unsigned int i;

	eh_guid(e->provider, g);
	n = sprintf(s, " event_header {%s} id %u version %u channel %u level %u opcode %u "
		    "task %u keyword 0x%llx tid %u pid %u %s", g, e->id, e->version,
		    e->channel, e->level, e->opcode, e->task, (unsigned long long)e->keyword,
		    e->tid, e->pid, e->ptr32 ? "ptr32" : "ptr64");
	if (memcmp(e->activity, zero, 16)) {
		eh_guid(e->activity, g);
		n += sprintf(s + n, " activity {%s}", g);
	}
	if (e->related) {
		eh_guid(e->related, g);
		n += sprintf(s + n, " related {%s}", g);
	}
	for (i = 0; i < (e->bad_at ? e->good_items : e->nitems); i++) {
		if (e->items[i].type == 1)
			continue;
		n += sprintf(s + n, " ext %u [%u bytes]", e->items[i].type,
			     e->items[i].data_size);
		n += eh_hex(s + n, e->items[i].data, e->items[i].len, " ");
	}
	if (e->bad_at) {
		uint8_t rec[0x200];
		uint32_t len = eh_encode((struct eh *)e, rec) - e->bad_at;

		n += sprintf(s + n, " extended items malformed at +%u, undecoded [%u bytes]",
			     e->bad_at, len);
		n += eh_hex(s + n, rec + e->bad_at, len < 32 ? len : 32, " ");
		n += sprintf(s + n, "%s", len > 32 ? " ..." : "");
	} else if (e->text) {
		/* The newline escaped; the quote, UTF-8 as it is. */
		n += sprintf(s + n, " \"H\xc3\xa9\"\\n\xe2\x82\xac\xf0\x9f\x98\x80\"");
	} else {
		n += sprintf(s + n, " [%u bytes]", e->len);
		n += eh_hex(s + n, e->data, e->len < 32 ? e->len : 32, " ");
		n += sprintf(s + n, "%s", e->len > 32 ? " ..." : "");
	}
	sprintf(s + n, "\n");
}

/* ... and as JSON, from "record" to the end of the line. */
static void eh_json_line(const struct eh *e, char *s)
{
	char g[40];
	size_t n;
	unsigned int i;

	eh_guid(e->provider, g);
	n = sprintf(s, "\"record\":\"event_header\",\"size\":%u,\"pointer_size\":%d,"
		    "\"header_flags\":%u,\"event_property\":%u,\"provider\":\"%s\",\"id\":%u,"
		    "\"version\":%u,\"channel\":%u,\"level\":%u,\"opcode\":%u,\"task\":%u,"
		    "\"keyword\":\"0x%016llx\",\"tid\":%u,\"pid\":%u", e->enc_size,
		    e->ptr32 ? 4 : 8, e->flags, e->property, g, e->id, e->version, e->channel,
		    e->level, e->opcode, e->task, (unsigned long long)e->keyword, e->tid,
		    e->pid);
	eh_guid(e->activity, g);
	n += sprintf(s + n, ",\"activity_id\":\"%s\"", g);
	if (e->related) {
		eh_guid(e->related, g);
		n += sprintf(s + n, ",\"related_activity_id\":\"%s\"", g);
	}
	n += sprintf(s + n, ",\"extended\":[");
	for (i = 0; i < (e->bad_at ? e->good_items : e->nitems); i++) {
		n += sprintf(s + n, "%s{\"type\":%u,\"size\":%u,\"data\":\"", i ? "," : "",
			     e->items[i].type, e->items[i].data_size);
		n += eh_hex(s + n, e->items[i].data, e->items[i].len, "");
		n += sprintf(s + n, "\"}");
	}
	n += sprintf(s + n, "]");
	if (e->bad_at) {
		uint8_t rec[0x200];
		uint32_t len = eh_encode((struct eh *)e, rec) - e->bad_at;

		n += sprintf(s + n, ",\"extended_malformed_at\":%u,\"undecoded\":\"",
			     e->bad_at);
		n += eh_hex(s + n, rec + e->bad_at, len, "");
	} else {
		n += sprintf(s + n, ",\"data\":\"");
		n += eh_hex(s + n, e->data, e->len, "");
	}
	n += sprintf(s + n, "\"");
	if (e->text)
		n += sprintf(s + n, ",\"text\":\"H\xc3\xa9\\\"\\u000a\xe2\x82\xac"
			     "\xf0\x9f\x98\x80\"");
	sprintf(s + n, "}\n");
}

/* Each event's line in the dump's output, text and JSON. */
static void eh_check_dump(const char *tool, const char *path, struct eh *es,
			  unsigned int n, int with_bad)
{
	char *text, *js, want[2048];
	unsigned int i, bad_text = 0, bad_json = 0;
	int st_text = -1, st_json = -1;

	text = eh_dump(tool, "", path, &st_text);
	js = eh_dump(tool, "--json", path, &st_json);
	if (!tap_ok(text && js, "%d-bit: nttrace dump and dump --json run (%s)", BITS, tool))
		goto out;
	/* A problem makes the exit status 1. */
	tap_ok(WIFEXITED(st_text) && WEXITSTATUS(st_text) == with_bad &&
	       WIFEXITED(st_json) && WEXITSTATUS(st_json) == with_bad,
	       "%d-bit: dump exits %d %s", BITS, with_bad,
	       with_bad ? "(problems in the file)" : "(a clean file)");
	for (i = 0; i < n; i++) {
		if (es[i].skipped)
			continue;
		eh_text_line(&es[i], want);
		if (!strstr(text, want)) {
			printf("# text: no \"%s\"\n", want);
			bad_text++;
		}
		eh_json_line(&es[i], want);
		if (!strstr(js, want)) {
			printf("# json: no %s\n", want);
			bad_json++;
		}
	}
	tap_eq(bad_text, 0, "%d-bit: dump: each EventWrite event's line%s", BITS,
	       with_bad ? ", malformed chains too" : "");
	tap_eq(bad_json, 0, "%d-bit: dump --json: each EventWrite event's object%s", BITS,
	       with_bad ? ", malformed chains too" : "");
	if (with_bad) {
		char g[40];

		eh_guid(es[3].provider, g);
		tap_ok(!strstr(text, g) && strstr(text, "event header runs past the record") &&
		       strstr(js, "{\"problem\":\"an extended item runs past the record"),
		       "%d-bit: dump: the cut-short header is only a problem line; the "
		       "chains' problems are printed", BITS);
	}
out:
	free(text);
	free(js);
}

static void test_event_header(const char *tool)
{
	struct eh es[EH_N];
	char path[64];
	int with_bad;

	snprintf(path, sizeof(path), "/tmp/etl-eh-%d.etl", getpid());
	for (with_bad = 0; with_bad < 2; with_bad++) {
		struct eh_problems pr = { 0 };
		struct nttrace_etl_reader *r;
		struct nttrace_etl_event ev;
		unsigned int n = eh_records(es, with_bad), i = 0, got = 0, bad = 0, k;
		const char *what = with_bad ? "malformed records" : "well-formed records";

		eh_file(path, es, n);
		if (!tap_eq(nttrace_etl_open(&r, path, on_eh_problem, &pr), 0,
			    "%d-bit: EventWrite %s: the reader opens", BITS, what))
			continue;
		while (nttrace_etl_next(r, &ev)) {
			while (i < n && es[i].skipped)
				i++;
			if (i >= n) {
				bad++;
				break;
			}
			/* In time order across the two CPUs: the records' own. */
			bad += eh_check(&ev, &es[i]);
			i++;
			got++;
		}
		nttrace_etl_close(r);
		tap_eq(got, with_bad ? n - 1 : n, "%d-bit: EventWrite %s: each delivered in "
		       "time order across 2 CPUs%s", BITS, what,
		       with_bad ? " (not the cut-short header)" : "");
		tap_eq(bad, 0, "%d-bit: EventWrite %s: every field (IDs, time, provider, "
		       "descriptor, activity IDs, extended items, data)", BITS, what);
		if (!with_bad) {
			tap_eq(pr.n, 0, "%d-bit: EventWrite %s: no problem", BITS, what);
		} else {
			/* One problem per malformed record, at the header or the bad item. */
			unsigned int matched = 0;

			for (i = 3; i < n; i++) {
				uint64_t want = es[i].offset + es[i].bad_at;

				for (k = 0; k < pr.n && k < 16; k++)
					matched += pr.at[k] == want;
			}
			tap_ok(pr.n == n - 3 && matched == n - 3,
			       "%d-bit: EventWrite %s: each reported once, at the record or "
			       "its bad item (%u problems, %u at the right offset)", BITS, what,
			       pr.n, matched);
		}
		eh_check_dump(tool, path, es, n, with_bad);
	}
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

/* The tool, beside the tests: u64/tests/etl_test -> u64/nttrace. */
static char tool[512];

TEST(event_header)
{
	test_event_header(tool);
}

TEST(user_mode)
{
	test_user_mode();
}

TEST(limits)
{
	test_limits();
}

TEST(large_file)
{
	test_large_file();
}

TEST(disk_full)
{
	test_disk_full();
}

TEST(batch_writes)
{
	test_batch_writes();
}

TEST(hand_made)
{
	test_hand_made();
}

TEST_F(nttrace, kernel)
{
	test_kernel();
}

int main(int argc, char **argv)
{
	char self[PATH_MAX];

	snprintf(self, sizeof(self), "%s", argc ? argv[0] : "");
	snprintf(tool, sizeof(tool), "%s/nttrace", dirname(dirname(self)));
	return harness_run(argc, argv);
}
