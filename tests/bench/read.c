// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace_bench_read: how fast the consumer side reads a file
 * (scripts/bench-read runs it; tests/bench/report.awk makes the table).
 *
 *   nttrace_bench_read gen FILE MB [CPUS]
 *	write an ETL file of MB megabytes (2^20 bytes) with the library's own
 *	writer, then fsync it and read it once, so that the timed reads
 *	find it in the page cache and no writeback runs beside them; with
 *	CPUS (1 to 256), the same events dealt to that many CPU streams
 *   nttrace_bench_read processtrace FILE REP [NAME]
 *	one timed OpenTraceA + ProcessTrace (PROCESS_TRACE_MODE_EVENT_RECORD)
 *	over FILE, in this thread, an EventRecordCallback that only counts
 *	(NAME: the reader's name in the output line; "processtrace")
 *   nttrace_bench_read next FILE REP NAME
 *	one timed nttrace_etl_open + nttrace_etl_next_ref to the end over
 *	FILE: the library's reader alone, without ProcessTrace's EVENT_RECORD
 *   nttrace_bench_read exec NAME REP EVENTS BYTES [-o OUT] -- CMD [ARG...]
 *	one timed run of CMD, its output to /dev/null (or OUT), for a reader
 *	that is a program of its own (`nttrace dump`, babeltrace2)
 *
 * The file: 64 KB buffers of EventWrite records (EVENT_HEADER, 0x50
 * bytes, and a 16-byte payload: 0x60 a record, 681 a buffer), as the
 * user-mode logger writes them; buffers of CPU 0 and CPU 1 alternate, and
 * their events interleave one by one in time (CPU 0 has the even time
 * stamps, CPU 1 the odd), so that the reader's merge of the two streams
 * changes CPU at every event: the dearest case for it. With CPUS, event g
 * of that same sequence goes to CPU g % CPUS, the CPUs' buffers are
 * written in turn, and each CPU's last buffer holds what is left: the
 * same events and times as the 2-CPU file of MB megabytes, in CPUS
 * streams that the merge visits in turn.
 *
 * Output, one a line: "FI KEY VALUE" facts of the file, "F PATH REP
 * EVENTS BYTES WALL_NS CPU_NS" for a timed read (CPU_NS: the reader's
 * user and system time), "F# TEXT" notes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/uapi.h>
#include <nttrace/evntcons.h>
#include <nttrace/evntrace.h>
#include <nttrace/etl.h>

#define BUF_SIZE	65536
/*
 * The payload: the same 16 bytes as the LTTng-UST events that babeltrace2
 * reads beside us (nttrace_bench lttng-trace), so that both readers carry
 * the same data (`nttrace dump` prints it as hex, babeltrace2 as an array
 * of integers: the tracepoint's field is not text-encoded).
 */
#define READ_PAYLOAD	16
static const char read_text[READ_PAYLOAD + 1] = "abcdefghijklmnop";
#define REC_SIZE	(NTTRACE_EVENT_HEADER_SIZE + READ_PAYLOAD)	/* 8-aligned */
#define PER_BUFFER	((BUF_SIZE - NTTRACE_WMI_BUFFER_HEADER_SIZE) / REC_SIZE)
/* Trace time between two events: 100 M events/s, any rate would do. */
#define TICK_NS		10

static uint64_t now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/*
 * CPU @cpu's buffer of @count events (at most @PER_BUFFER), the first the
 * stream's @first-th: the stream's l-th event is event l * @ncpu + @cpu
 * of the whole sequence, whose g-th is at @start + TICK_NS * g.
 */
static void fill_buffer(uint8_t *b, unsigned int cpu, unsigned int ncpu, uint64_t first,
			uint32_t count, uint64_t seq, uint64_t start)
{
	struct nttrace_wmi_buffer_header *h = (void *)b;
	uint32_t at = NTTRACE_WMI_BUFFER_HEADER_SIZE, i;
	uint64_t ts = 0;

	memset(b + NTTRACE_WMI_BUFFER_HEADER_SIZE, NTTRACE_WMI_BUFFER_FILL,
	       BUF_SIZE - NTTRACE_WMI_BUFFER_HEADER_SIZE);
	for (i = 0; i < count; i++, at += REC_SIZE) {
		struct nttrace_event_header *e = (void *)(b + at);

		ts = start + TICK_NS * ((first + i) * ncpu + cpu);
		memset(e, 0, NTTRACE_EVENT_HEADER_SIZE);
		e->size = REC_SIZE;
		e->header_type = NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER64;
		e->marker_flags = NTTRACE_TRACE_HEADER_MARKER_BYTE;
		e->flags = EVENT_HEADER_FLAG_NO_CPUTIME | EVENT_HEADER_FLAG_64_BIT_HEADER;
		e->thread_id = 1000 + cpu;
		e->process_id = 100;
		e->time_stamp = ts;
		memcpy(e->provider_id, "nttrace-readbnch", 16);
		e->descriptor.id = 1;
		e->descriptor.level = 4;
		memcpy(b + at + NTTRACE_EVENT_HEADER_SIZE, read_text, READ_PAYLOAD);
	}
	memset(h, 0, NTTRACE_WMI_BUFFER_HEADER_SIZE);
	h->buffer_size = BUF_SIZE;
	h->saved_offset = h->current_offset = h->offset = at;
	h->time_stamp = ts;
	h->sequence_number = seq;
	h->clock_type_frequency = (1000000000ULL << 3) | NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER;
	h->processor_index = cpu;
	h->logger_id = 1;
	h->buffer_flag = NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER | NTTRACE_WMI_BUFFER_FLAG_PROC_INDEX;
	h->buffer_type = NTTRACE_WMI_BUFFER_TYPE_GENERIC;
	h->start_time = start;
	h->start_perf_clock = start;
}

/* The events of CPU @cpu's stream when @total are dealt to @ncpu CPUs. */
static uint64_t stream_events(uint64_t total, unsigned int ncpu, unsigned int cpu)
{
	return total / ncpu + (cpu < total % ncpu);
}

/*
 * Write @total events dealt to @ncpu streams, a buffer of each CPU in
 * turn (the sequence numbers follow), into @lf; the buffers written, or 0.
 */
static uint64_t write_streams(struct nttrace_logfile *lf, const char *path, uint64_t total,
			      unsigned int ncpu, uint64_t start)
{
	static uint8_t b[BUF_SIZE];
	uint64_t first, n, left, k = 0;
	unsigned int cpu;
	int ret;

	/* CPU 0's stream is the longest: no CPU after one that is done has more. */
	for (first = 0; first < stream_events(total, ncpu, 0); first += PER_BUFFER) {
		for (cpu = 0; cpu < ncpu; cpu++) {
			n = stream_events(total, ncpu, cpu);
			if (n <= first)
				break;
			left = n - first;
			fill_buffer(b, cpu, ncpu, first, left < PER_BUFFER ? left : PER_BUFFER,
				    ++k, start);
			ret = nttrace_logfile_buffer(lf, b, BUF_SIZE, cpu);
			if (ret) {
				fprintf(stderr, "%s: writing buffer %llu: %s\n", path,
					(unsigned long long)k, strerror(-ret));
				return 0;
			}
		}
	}
	return k;
}

static int gen(const char *path, unsigned long mb, unsigned int ncpu)
{
	/*
	 * The events of the 2-CPU file: full buffers, buffer 0 the header,
	 * an even count of the rest, whatever @ncpu is.
	 */
	uint64_t total = ((((uint64_t)mb << 20) / BUF_SIZE - 1) & ~1ULL) * PER_BUFFER, nbuf;
	struct nttrace_etl_session s;
	struct nttrace_logfile lf;
	uint64_t t0, t1, t2, got = 0;
	static char rd[1 << 20];
	ssize_t r;
	int fd, ret;

	if (!total || !ncpu || ncpu > 256) {
		fprintf(stderr, "%s: %lu MB in %u CPU streams: not a file to write\n", path, mb,
			ncpu);
		return 1;
	}
	memset(&s, 0, sizeof(s));
	s.buffer_size = BUF_SIZE;
	s.nr_cpus = ncpu;
	s.pointer_size = 8;
	s.log_file_mode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
	s.clock_type = NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER;
	s.frequency = 1000000000;
	s.start_clock = nttrace_clock_now(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
	s.logger_pid = s.logger_tid = getpid();
	snprintf(s.name, sizeof(s.name), "bench-read");
	nttrace_etl_times(&s);

	t0 = now_ns(CLOCK_MONOTONIC);
	ret = nttrace_logfile_open(&lf, path, &s);
	if (ret) {
		fprintf(stderr, "%s: %s\n", path, strerror(-ret));
		return 1;
	}
	nbuf = write_streams(&lf, path, total, ncpu, s.start_clock);
	if (!nbuf) {
		nttrace_logfile_close(&lf, 0, 0);
		return 1;
	}
	if (lf.events != total) {
		fprintf(stderr, "%s: the writer counted %llu events, not %llu\n", path,
			(unsigned long long)lf.events, (unsigned long long)total);
		return 1;
	}
	ret = nttrace_logfile_close(&lf, 0, 0);
	if (ret) {
		fprintf(stderr, "%s: closing: %s\n", path, strerror(-ret));
		return 1;
	}
	/*
	 * On disk before any timed read: writeback of a gigabyte of dirty
	 * pages would otherwise take CPU and I/O beside the readers.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fsync(fd)) {
		perror(path);
		return 1;
	}
	t1 = now_ns(CLOCK_MONOTONIC);
	/* Read once: the timed reads then read the page cache. */
	while ((r = read(fd, rd, sizeof(rd))) > 0)
		got += r;
	t2 = now_ns(CLOCK_MONOTONIC);
	close(fd);
	if (got != (nbuf + 1) * BUF_SIZE) {
		fprintf(stderr, "%s: read back %llu bytes\n", path, (unsigned long long)got);
		return 1;
	}
	printf("FI events %llu\n", (unsigned long long)total);
	printf("FI bytes %llu\n", (unsigned long long)got);
	printf("FI buffers %llu\n", (unsigned long long)nbuf + 1);
	printf("FI buffer_kb %d\n", BUF_SIZE / 1024);
	printf("FI events_per_buffer %d\n", (int)PER_BUFFER);
	printf("FI record_bytes %d\n", REC_SIZE);
	printf("FI payload %d\n", READ_PAYLOAD);
	printf("FI cpus %u\n", ncpu);
	printf("FI write_fsync_ms %llu\n", (unsigned long long)(t1 - t0) / 1000000);
	printf("FI cache_read_ms %llu\n", (unsigned long long)(t2 - t1) / 1000000);
	return 0;
}

/* The counting consumer: the least a callback can do. */
static void WINAPI count_event(PEVENT_RECORD er)
{
	(*(uint64_t *)er->UserContext)++;
}

static int processtrace(const char *path, const char *rep, const char *name)
{
	EVENT_TRACE_LOGFILEA lf;
	uint64_t n = 0, w0, c0, w1, c1;
	TRACEHANDLE h;
	struct stat st;
	ULONG err;

	if (stat(path, &st)) {
		perror(path);
		return 1;
	}
	w0 = now_ns(CLOCK_MONOTONIC);
	c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = count_event;
	lf.Context = &n;
	h = OpenTraceA(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE) {
		fprintf(stderr, "%s: OpenTrace failed: %u\n", path, (unsigned)GetLastError());
		return 1;
	}
	err = ProcessTrace(&h, 1, NULL, NULL);
	CloseTrace(h);
	c1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	w1 = now_ns(CLOCK_MONOTONIC);
	if (err != ERROR_SUCCESS) {
		fprintf(stderr, "%s: ProcessTrace returned %u\n", path, (unsigned)err);
		return 1;
	}
	/* The header event is one of them: Windows delivers it too. */
	printf("F %s %s %llu %llu %llu %llu\n", name, rep, (unsigned long long)n,
	       (unsigned long long)st.st_size, (unsigned long long)(w1 - w0),
	       (unsigned long long)(c1 - c0));
	return 0;
}

/* The reader alone: every event of @path through nttrace_etl_next_ref(), counted. */
static int next(const char *path, const char *rep, const char *name)
{
	struct nttrace_etl_reader *r;
	struct nttrace_etl_counts c;
	uint64_t n = 0, w0, c0, w1, c1;
	struct stat st;
	int ret;

	if (stat(path, &st)) {
		perror(path);
		return 1;
	}
	w0 = now_ns(CLOCK_MONOTONIC);
	c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	ret = nttrace_etl_open(&r, path, NULL, NULL);
	if (ret) {
		fprintf(stderr, "%s: %s\n", path, strerror(-ret));
		return 1;
	}
	while (nttrace_etl_next_ref(r))
		n++;
	nttrace_etl_counts(r, &c);
	nttrace_etl_close(r);
	c1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	w1 = now_ns(CLOCK_MONOTONIC);
	if (c.records_skipped || c.buffers_skipped || c.bytes_skipped) {
		fprintf(stderr, "%s: the reader skipped part of it\n", path);
		return 1;
	}
	/* Not the header event: the reader starts after it. */
	printf("F %s %s %llu %llu %llu %llu\n", name, rep, (unsigned long long)n,
	       (unsigned long long)st.st_size, (unsigned long long)(w1 - w0),
	       (unsigned long long)(c1 - c0));
	return 0;
}

/* exec NAME REP EVENTS BYTES [-o OUT] -- CMD [ARG...] */
static int run(int argc, char **argv)
{
	const char *out = "/dev/null";
	struct rusage ru;
	uint64_t w0, w1, cpu;
	int i = 6, status, fd;
	pid_t pid;

	if (argc > 7 && !strcmp(argv[6], "-o")) {
		out = argv[7];
		i = 8;
	}
	if (argc <= i + 1 || strcmp(argv[i], "--"))
		return 2;
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(out);
		return 1;
	}
	w0 = now_ns(CLOCK_MONOTONIC);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (!pid) {
		dup2(fd, 1);
		execvp(argv[i + 1], argv + i + 1);
		perror(argv[i + 1]);
		_exit(127);
	}
	close(fd);
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("wait4");
		return 1;
	}
	w1 = now_ns(CLOCK_MONOTONIC);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "%s: exit status %d\n", argv[i + 1],
			WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		return 1;
	}
	cpu = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
	      (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
	printf("F %s %s %s %s %llu %llu\n", argv[2], argv[3], argv[4], argv[5],
	       (unsigned long long)(w1 - w0), (unsigned long long)cpu);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "gen"))
		return gen(argv[2], strtoul(argv[3], NULL, 10),
			   argc == 5 ? strtoul(argv[4], NULL, 10) : 2);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "processtrace"))
		return processtrace(argv[2], argv[3], argc == 5 ? argv[4] : "processtrace");
	if (argc == 5 && !strcmp(argv[1], "next"))
		return next(argv[2], argv[3], argv[4]);
	if (argc > 7 && !strcmp(argv[1], "exec")) {
		int ret = run(argc, argv);

		if (ret != 2)
			return ret;
	}
	fprintf(stderr, "usage: nttrace_bench_read gen FILE MB [CPUS]\n"
		"       nttrace_bench_read processtrace FILE REP [NAME]\n"
		"       nttrace_bench_read next FILE REP NAME\n"
		"       nttrace_bench_read exec NAME REP EVENTS BYTES [-o OUT] -- CMD [ARG...]\n");
	return 2;
}
