// SPDX-License-Identifier: GPL-2.0
/*
 * The library's log file writer (userlib/etl/etl.c) in the file modes
 * beyond sequential and circular: EVENT_TRACE_FILE_MODE_NEWFILE (a new
 * file each max_file_mb, named by the path's %d: 1, 2, ...),
 * EVENT_TRACE_FILE_MODE_PREALLOCATE (the file takes its maximum size from
 * the start, cut back at the end) and EVENT_TRACE_FILE_MODE_APPEND (a
 * second session's buffers after a file's, its header's counts summed;
 * a file of other buffers, processors or clock refused and left as it
 * was), each file read back by the ETL reader
 * (its header's BuffersWritten), and the names and
 * combinations refused, creating nothing. 64- and 32-bit. TAP.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <errno.h>
#include <nttrace/uapi.h>
#include <nttrace/etl.h>
#include <nttrace/evntcons.h>
#include <nttrace/evntrace.h>
#include "../vm/tap.h"

#define BUF	4096U
#define MB	1U
/* Data buffers a 1 MB file holds: all but its header. */
#define SLOTS	((MB << 20) / BUF - 1)

static char dir[256];

/* The sessions' start, on their clock (system time). */
static uint64_t s_start(void)
{
	return NTTRACE_FILETIME_UNIX_EPOCH + 10000000ULL * 1700000000;
}

static void session(struct nttrace_etl_session *s, uint32_t mode)
{
	memset(s, 0, sizeof(*s));
	s->buffer_size = BUF;
	s->nr_cpus = 1;
	s->pointer_size = sizeof(void *);
	s->clock_type = NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME;
	s->frequency = 10000000;
	s->start_time = NTTRACE_FILETIME_UNIX_EPOCH + 10000000ULL * 1700000000;
	s->start_clock = s->start_time;
	s->boot_time = s->start_time - 10000000ULL * 3600;
	s->log_file_mode = mode;
	s->max_file_mb = MB;
	strcpy(s->name, "logfile-test");
}

/* A data buffer with no event: its size and where its records end. */
static void buffer(uint8_t *b, uint32_t k)
{
	uint32_t v;

	memset(b, 0, BUF);
	v = BUF;
	memcpy(b, &v, 4);				/* BufferSize */
	v = NTTRACE_WMI_BUFFER_HEADER_SIZE;
	memcpy(b + 4, &v, 4);				/* SavedOffset */
	memcpy(b + 0x30, &v, 4);			/* CurrentOffset */
	memcpy(b + 0x18, &k, 4);			/* a sequence, to tell them apart */
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

/* File @path's header as the reader sees it: its BuffersWritten, or -1. */
static long header_buffers(const char *path)
{
	struct nttrace_etl_reader *r;
	long n;

	if (nttrace_etl_open(&r, path, NULL, NULL))
		return -1;
	n = nttrace_etl_info(r)->buffers_written;
	nttrace_etl_close(r);
	return n;
}

static void newfile(void)
{
	struct nttrace_etl_session s;
	struct nttrace_logfile lf;
	unsigned int total = 2 * SLOTS + 90, k;
	char path[300], name[300];
	uint8_t *b = malloc(BUF);
	long want[3] = { SLOTS, SLOTS, 90 };

	snprintf(path, sizeof(path), "%s/nf%%d.etl", dir);
	session(&s, EVENT_TRACE_FILE_MODE_NEWFILE);
	tap_eq(nttrace_logfile_open(&lf, path, &s), 0, "NEWFILE: open nf%%d.etl");
	for (k = 0; k < total; k++) {
		buffer(b, k);
		nttrace_logfile_buffer(&lf, b, BUF, 0);
	}
	tap_eq(nttrace_logfile_close(&lf, 0, 0), 0, "... %u buffers written, closed", total);
	tap_eq(lf.buffers, total, "... all of them counted");
	for (k = 0; k < 3; k++) {
		snprintf(name, sizeof(name), "%s/nf%u.etl", dir, k + 1);
		tap_eq(file_size(name), (want[k] + 1) * BUF, "... nf%u.etl: its header and %ld buffers",
		       k + 1, want[k]);
		tap_eq(header_buffers(name), want[k] + 1, "... its header says %ld buffers written",
		       want[k] + 1);
	}
	snprintf(name, sizeof(name), "%s/nf4.etl", dir);
	tap_eq(file_size(name), -1, "... and no fourth file");
	snprintf(name, sizeof(name), "%s/nf%%d.etl", dir);
	tap_eq(file_size(name), -1, "... nor one named by the template itself");
	free(b);
}

static void prealloc(void)
{
	struct nttrace_etl_session s;
	struct nttrace_logfile lf;
	char path[300];
	uint8_t *b = malloc(BUF);
	unsigned int k;

	snprintf(path, sizeof(path), "%s/pre.etl", dir);
	session(&s, EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_PREALLOCATE);
	tap_eq(nttrace_logfile_open(&lf, path, &s), 0, "PREALLOCATE: open");
	tap_eq(file_size(path), MB << 20, "... the file takes its maximum size at once");
	for (k = 0; k < 10; k++) {
		buffer(b, k);
		nttrace_logfile_buffer(&lf, b, BUF, 0);
	}
	tap_eq(file_size(path), MB << 20, "... and keeps it while written");
	tap_eq(nttrace_logfile_close(&lf, 0, 0), 0, "... closed");
	tap_eq(file_size(path), 11 * BUF, "... cut back to its header and 10 buffers");
	tap_eq(header_buffers(path), 11, "... its header says so");

	snprintf(path, sizeof(path), "%s/prenf%%d.etl", dir);
	session(&s, EVENT_TRACE_FILE_MODE_NEWFILE | EVENT_TRACE_FILE_MODE_PREALLOCATE);
	tap_eq(nttrace_logfile_open(&lf, path, &s), 0, "NEWFILE with PREALLOCATE: open");
	for (k = 0; k < SLOTS + 3; k++) {
		buffer(b, k);
		nttrace_logfile_buffer(&lf, b, BUF, 0);
	}
	snprintf(path, sizeof(path), "%s/prenf2.etl", dir);
	tap_eq(file_size(path), MB << 20, "... the second file preallocated too");
	tap_eq(nttrace_logfile_close(&lf, 0, 0), 0, "... closed");
	tap_eq(file_size(path), 4 * BUF, "... and cut back to its 3 buffers");
	free(b);
}

/* APPEND: a file written, then a second session's buffers after them. */
static void append(void)
{
	struct nttrace_etl_session s;
	struct nttrace_logfile lf;
	char path[300];
	uint8_t *b = malloc(BUF);
	unsigned int k;
	long before;

	snprintf(path, sizeof(path), "%s/app.etl", dir);
	session(&s, EVENT_TRACE_FILE_MODE_APPEND);
	s.max_file_mb = 0;
	tap_eq(nttrace_logfile_open(&lf, path, &s), 0, "APPEND to a new file: open");
	for (k = 0; k < 10; k++) {
		buffer(b, k);
		nttrace_logfile_buffer(&lf, b, BUF, 0);
	}
	tap_eq(nttrace_logfile_close(&lf, 3, 1), 0, "... 10 buffers, 3 events lost");
	tap_eq(header_buffers(path), 11, "... its header says 11 buffers");
	tap_eq(nttrace_logfile_open(&lf, path, &s), 0, "APPEND to it again");
	for (k = 0; k < 5; k++) {
		buffer(b, k);
		nttrace_logfile_buffer(&lf, b, BUF, 0);
	}
	tap_eq(nttrace_logfile_close(&lf, 2, 0), 0, "... 5 more buffers, 2 events lost");
	tap_eq(file_size(path), 16 * BUF, "... the file holds both: one header and 15 buffers");
	tap_eq(header_buffers(path), 16, "... its header says 16 buffers written");
	{
		struct nttrace_etl_reader *r;

		if (!nttrace_etl_open(&r, path, NULL, NULL)) {
			tap_eq(nttrace_etl_info(r)->events_lost, 5, "... and 3 + 2 events lost");
			tap_eq(nttrace_etl_info(r)->buffers_lost, 1, "... and 1 buffer lost");
			nttrace_etl_close(r);
		} else {
			tap_ok(0, "... read back");
		}
	}
	before = file_size(path);
	s.buffer_size = 2 * BUF;
	tap_eq(nttrace_logfile_open(&lf, path, &s), -22, "APPEND with another buffer size: EINVAL");
	tap_eq(file_size(path), before, "... the file left as it was");
	s.buffer_size = BUF;
	s.nr_cpus = 2;
	tap_eq(nttrace_logfile_open(&lf, path, &s), -22, "APPEND with other processors: EINVAL");
	s.nr_cpus = 1;
	s.clock_type = NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER;
	tap_eq(nttrace_logfile_open(&lf, path, &s), -22, "APPEND with another clock: EINVAL");
	tap_eq(file_size(path), before, "... the file left as it was");
	session(&s, EVENT_TRACE_FILE_MODE_APPEND | EVENT_TRACE_FILE_MODE_CIRCULAR);
	tap_eq(nttrace_logfile_open(&lf, path, &s), -22, "APPEND with CIRCULAR: EINVAL");
	session(&s, EVENT_TRACE_FILE_MODE_APPEND);
	s.max_file_mb = 0;
	snprintf(path, sizeof(path), "%s/notetl.etl", dir);
	{
		FILE *f = fopen(path, "w");

		if (f) {
			fwrite(b, 1, BUF, f);	/* a buffer, no header */
			fclose(f);
		}
	}
	memset(b, 0, BUF);
	tap_eq(nttrace_logfile_open(&lf, path, &s), -22, "APPEND to a file with no ETL header: EINVAL");
	free(b);
}

/* No file in the directory but those the other cases made. */
/*
 * Buffer @k of @n EventWrite records, 48-byte payloads of text and counts
 * (compressible, as real events are), time stamps 10 apart.
 */
static void buffer_events(uint8_t *b, uint32_t k, uint32_t n)
{
	uint32_t at = NTTRACE_WMI_BUFFER_HEADER_SIZE, i, rec = NTTRACE_EVENT_HEADER_SIZE + 48;

	buffer(b, k);
	memset(b + at, NTTRACE_WMI_BUFFER_FILL, BUF - at);
	for (i = 0; i < n && at + rec <= BUF; i++, at += rec) {
		struct nttrace_event_header *e = (void *)(b + at);
		uint64_t ts = 10ULL * (k * 1000 + i) + 1;

		memset(e, 0, NTTRACE_EVENT_HEADER_SIZE);
		e->size = (uint16_t)rec;
		e->header_type = NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER64;
		e->marker_flags = NTTRACE_TRACE_HEADER_MARKER_BYTE;
		e->flags = EVENT_HEADER_FLAG_NO_CPUTIME | EVENT_HEADER_FLAG_64_BIT_HEADER;
		e->thread_id = 1000 + i % 3;
		e->process_id = 100;
		e->time_stamp = s_start() + ts;
		memcpy(e->provider_id, "logfile-test-prv", 16);
		e->descriptor.id = (uint16_t)(1 + i % 4);
		snprintf((char *)b + at + NTTRACE_EVENT_HEADER_SIZE, 48, "event %u of buffer %u, ok", i, k);
	}
	memcpy(b + 4, &at, 4);
	memcpy(b + 0x30, &at, 4);
}

/* The events of @path, and in *@compressed how many of its buffers were, or -1. */
static long read_events(const char *path, long *compressed, uint64_t *last_ts)
{
	struct nttrace_etl_reader *r;
	const struct nttrace_etl_event *ev;
	long n = 0;

	*compressed = 0;
	if (nttrace_etl_open(&r, path, NULL, NULL))
		return -1;
	while ((ev = nttrace_etl_next_ref(r))) {
		uint16_t flags;

		memcpy(&flags, ev->buffer + 0x34, 2);
		if (ev->offset == ev->buffer_offset + NTTRACE_WMI_BUFFER_HEADER_SIZE &&
		    (flags & NTTRACE_WMI_BUFFER_FLAG_COMPRESSED))
			(*compressed)++;
		*last_ts = ev->timestamp;
		n++;
	}
	nttrace_etl_close(r);
	return n;
}

/*
 * EVENT_TRACE_COMPRESSED_MODE: the buffers written compressed, each its
 * own size after a header buffer as short as its records; read back whole
 * by the reader, which knows such files from Windows.
 */
static void compressed(void)
{
	static uint8_t b[BUF];
	struct nttrace_etl_session s;
	struct nttrace_logfile lf;
	char path[300], plain[300];
	uint64_t last = 0;
	long n, z, k;

	snprintf(path, sizeof(path), "%s/compressed.etl", dir);
	snprintf(plain, sizeof(plain), "%s/plain.etl", dir);
	session(&s, EVENT_TRACE_COMPRESSED_MODE);
	s.max_file_mb = 0;
	tap_eq(nttrace_logfile_open(&lf, path, &s), 0, "COMPRESSED: open");
	for (k = 0; k < 40; k++) {
		buffer_events(b, k, 30);
		nttrace_logfile_buffer(&lf, b, BUF, 0);
	}
	/* One that does not shrink: written as it is. */
	buffer(b, 40);
	for (k = NTTRACE_WMI_BUFFER_HEADER_SIZE; k < (long)BUF; k++)
		b[k] = (uint8_t)(k * 2654435761U >> 13);
	memcpy(b + 4, &(uint32_t){ BUF }, 4);
	memcpy(b + 0x30, &(uint32_t){ BUF }, 4);
	nttrace_logfile_buffer(&lf, b, BUF, 0);
	tap_eq(nttrace_logfile_close(&lf, 0, 0), 0, "... 40 buffers of 30 events and one of noise, closed");
	n = read_events(path, &z, &last);
	tap_eq(n, 1200, "... every event read back");
	tap_eq(z, 40, "... from 40 compressed buffers");
	tap_ok(last == s.start_clock + 10ULL * (39 * 1000 + 29) + 1, "... in order, the last one last");
	tap_eq(header_buffers(path), 42, "... its header says 42 buffers (the noise one written whole)");
	tap_ok(file_size(path) < 41 * (long)BUF / 3, "... a third of the plain size or less (%ld)",
	       file_size(path));

	/* A maximum size: buffers past it are dropped and counted. */
	session(&s, EVENT_TRACE_COMPRESSED_MODE);
	tap_eq(nttrace_logfile_open(&lf, plain, &s), 0, "COMPRESSED with 1 MB: open");
	for (k = 0; k < 8000; k++) {
		buffer_events(b, k, 30);
		nttrace_logfile_buffer(&lf, b, BUF, 0);
	}
	tap_eq(nttrace_logfile_close(&lf, 0, 0), -EFBIG, "... 8000 buffers: past the size, EFBIG");
	tap_ok(file_size(plain) <= 1L << 20, "... the file within 1 MB (%ld)", file_size(plain));
	tap_ok(lf.buffers > SLOTS && lf.dropped > 0 && lf.buffers + lf.dropped == 8000,
	       "... more buffers than plain ones would fit (%llu), the rest dropped (%llu)",
	       (unsigned long long)lf.buffers, (unsigned long long)lf.dropped);
	n = read_events(plain, &z, &last);
	tap_eq(n, (long)lf.buffers * 30, "... and those written read back");
	unlink(path);
	unlink(plain);
}

static unsigned int files(const char *prefix)
{
	struct dirent *d;
	unsigned int n = 0;
	DIR *dp = opendir(dir);

	while (dp && (d = readdir(dp)))
		n += !strncmp(d->d_name, prefix, strlen(prefix));
	if (dp)
		closedir(dp);
	return n;
}

static void refused(void)
{
	static const struct {
		const char *name, *file;
		uint32_t mode, max;
	} cases[] = {
		{ "NEWFILE without %d", "bad-a.etl", EVENT_TRACE_FILE_MODE_NEWFILE, 1 },
		{ "NEWFILE with two %d", "bad-b%d%d.etl", EVENT_TRACE_FILE_MODE_NEWFILE, 1 },
		{ "NEWFILE with %s", "bad-c%d%s.etl", EVENT_TRACE_FILE_MODE_NEWFILE, 1 },
		{ "NEWFILE with no size", "bad-d%d.etl", EVENT_TRACE_FILE_MODE_NEWFILE, 0 },
		{ "NEWFILE and CIRCULAR", "bad-e%d.etl",
		  EVENT_TRACE_FILE_MODE_NEWFILE | EVENT_TRACE_FILE_MODE_CIRCULAR, 1 },
		{ "PREALLOCATE with no size", "bad-f.etl", EVENT_TRACE_FILE_MODE_PREALLOCATE, 0 },
		{ "COMPRESSED and CIRCULAR", "bad-g.etl",
		  EVENT_TRACE_COMPRESSED_MODE | EVENT_TRACE_FILE_MODE_CIRCULAR, 1 },
		{ "COMPRESSED and NEWFILE", "bad-h%d.etl",
		  EVENT_TRACE_COMPRESSED_MODE | EVENT_TRACE_FILE_MODE_NEWFILE, 1 },
		{ "COMPRESSED and PREALLOCATE", "bad-i.etl",
		  EVENT_TRACE_COMPRESSED_MODE | EVENT_TRACE_FILE_MODE_PREALLOCATE, 1 },
		{ "COMPRESSED and APPEND", "bad-j.etl",
		  EVENT_TRACE_COMPRESSED_MODE | EVENT_TRACE_FILE_MODE_APPEND, 1 },
	};
	static const char *const made[] = {
		"bad-f.etl", "bad-d1.etl", "bad-e1.etl", "bad-g.etl", "bad-i.etl", "bad-j.etl",
		"bad-h1.etl",
	};
	struct nttrace_etl_session s;
	struct nttrace_logfile lf;
	unsigned int i;
	char path[300];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, cases[i].file);
		session(&s, cases[i].mode);
		s.max_file_mb = cases[i].max;
		tap_eq(nttrace_logfile_open(&lf, path, &s), -22, "%s: EINVAL", cases[i].name);
	}
	/*
	 * (Those refused for their mode or size, not their name, create their
	 * file before the check, PREALLOCATE with no size and the COMPRESSED
	 * ones: removed.)
	 */
	for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, made[i]);
		unlink(path);
	}
	tap_eq(files("bad-"), 0, "... and no file named by a bad template was made");
	/* A pipe cannot be preallocated. */
	{
		int p[2];

		if (pipe(p) == 0) {
			session(&s, EVENT_TRACE_FILE_MODE_PREALLOCATE);
			tap_eq(nttrace_logfile_init(&lf, p[1], "pipe", &s), -22,
			       "PREALLOCATE on a pipe: EINVAL");
			close(p[0]);
			close(p[1]);
		}
	}
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/logfile-test.%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (int)getpid());
	if (mkdir(dir, 0700)) {
		printf("Bail out! mkdir %s\n", dir);
		return 1;
	}
	newfile();
	prealloc();
	append();
	compressed();
	refused();
	if (!tap_counts->failed) {
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd)) {
			/* left behind: said by nothing, harmless */
		}
	}
	return tap_done();
}
