// SPDX-License-Identifier: GPL-2.0
/*
 * ETL files: the header buffer checked field by field at the offsets of
 * ../shared/notes/etl-format.md (written out here, not taken from the
 * library), events read back through the reader byte for byte, sequential
 * files with a maximum size, circular files, and damaged files. The
 * user-mode logger's part runs anywhere; the kernel session's part needs
 * /dev/nttrace. Runs in the VM (64- and 32-bit) and on the host (64-bit).
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
#include "tap.h"

#define BITS ((int)sizeof(void *) * 8)
#define PSZ ((int)sizeof(void *))
#define BUF 4096

struct props {
	EVENT_TRACE_PROPERTIES p;
	char logger_name[64];
	char log_file[128];
};

static void props_init(struct props *pr, const char *log_file, uint32_t mode,
		       uint32_t max_mb, uint32_t nbuf)
{
	memset(pr, 0, sizeof(*pr));
	pr->p.Wnode.BufferSize = sizeof(*pr);
	pr->p.LogFileMode = mode;
	pr->p.BufferSize = BUF / 1024;
	pr->p.MaximumBuffers = nbuf;
	pr->p.MaximumFileSize = max_mb;
	pr->p.LoggerNameOffset = offsetof(struct props, logger_name);
	if (log_file) {
		pr->p.LogFileNameOffset = offsetof(struct props, log_file);
		strcpy(pr->log_file, log_file);
	}
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
	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE, 0, 8);
	if (!tap_eq(StartTraceA(&h, name, &pr.p), 0, "%d-bit: user-mode logger starts", BITS))
		return;
	for (i = 0; i < N_EVENTS; i++)
		errs += trace_one(h, i, data, &len) != 0;
	props_init(&st, NULL, 0, 0, 0);
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
	props_init(&st, NULL, 0, 0, 0);
	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE, 1, 64);
	if (!tap_eq(StartTraceA(&h, "etl-max", &pr.p), 0, "%d-bit: 1 MB sequential", BITS))
		return;
	for (i = 0; i < 3000; i++) {
		ok += TraceMessage(h, 0, NULL, 1, big, sizeof(big), NULL) == 0;
		if (i % 64 == 0)
			FlushTraceA(h, NULL, &st.p);
	}
	props_init(&st, NULL, 0, 0, 0);
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
	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_FILE_MODE_CIRCULAR,
		   1, 16);
	if (!tap_eq(StartTraceA(&h, "etl-circ", &pr.p), 0, "%d-bit: 1 MB circular", BITS))
		return;
	for (i = 0; i < 2000; i++) {
		trace_one(h, i, data, &len);
		if (i % 20 == 0)
			FlushTraceA(h, NULL, &st.p);
	}
	props_init(&st, NULL, 0, 0, 0);
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
	props_init(&st, NULL, 0, 0, 0);
	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE, 0, 64);
	if (!tap_eq(StartTraceA(&h, "etl-full", &pr.p), 0, "%d-bit %s: logger starts", BITS,
		    how))
		return;
	for (i = 0; i < 2000; i++) {
		TraceMessage(h, TRACE_MESSAGE_SEQUENCE, NULL, (USHORT)i, data, sizeof(data),
			     NULL);
		if (i % 20 == 0)
			FlushTraceA(h, NULL, &st.p);
	}
	props_init(&st, NULL, 0, 0, 0);
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
	props_init(&pr, path, 0, 0, 16);
	if (!tap_eq(StartTraceA(&h, name, &pr.p), 0, "%d-bit: kernel session starts", BITS))
		return;
	for (i = 0; i < N_EVENTS; i++)
		errs += trace_one(h, i, data, &len) != 0;
	props_init(&st, NULL, 0, 0, 0);
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
	test_kernel();
	return tap_done();
}
