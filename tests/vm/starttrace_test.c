// SPDX-License-Identifier: GPL-2.0
/*
 * StartTrace, ControlTrace and the Stop/Query/Flush/UpdateTrace calls, A and
 * W, on kernel sessions: EVENT_TRACE_PROPERTIES in and out, Win32 errors,
 * and a session started with a log file name whose file the library writes
 * and which is complete when StopTrace returns. Runs in the VM, 64-bit and
 * 32-bit.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include <nttrace/evntrace.h>
#include "expect.h"
#include "props.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)

/* ASCII to UTF-16 in @out. */
static WCHAR *wide(const char *s, WCHAR *out)
{
	unsigned int i = 0;

	do
		out[i] = (uint8_t)s[i];
	while (s[i++]);
	return out;
}

TEST_F(nttrace, properties)
{
	struct props pr, q;
	TRACEHANDLE h, h2;
	WCHAR wname[64], wout[64];
	char name[32];

	snprintf(name, sizeof(name), "st-%d", BITS);
	props_init(&pr, NULL, 0);
	pr.p.BufferSize = 8;
	pr.p.MaximumBuffers = 6;
	pr.p.FlushTimer = 1;
	if (!tap_eq(StartTraceA(&h, name, &pr.p), ERROR_SUCCESS, "%d-bit: StartTraceA", BITS))
		return;
	tap_ok(h > 0 && h < 0xFFFF, "%d-bit: the handle is the logger ID (%llu)", BITS,
	       (unsigned long long)h);
	tap_eq(pr.p.Wnode.HistoricalContext, h, "%d-bit: ... in Wnode.HistoricalContext too",
	       BITS);
	tap_eq(pr.p.BufferSize, 8, "%d-bit: BufferSize out", BITS);
	tap_eq(pr.p.MaximumBuffers, 6, "%d-bit: MaximumBuffers out", BITS);
	tap_ok(!strcmp(pr.logger_name, name), "%d-bit: LoggerName copied out", BITS);
	props_init(&q, NULL, 0);
	tap_eq(StartTraceA(&h2, name, &q.p), ERROR_ALREADY_EXISTS,
	       "%d-bit: the same name again -> ERROR_ALREADY_EXISTS", BITS);

	props_init(&q, NULL, 0);
	tap_eq(QueryTraceA(h, NULL, &q.p), ERROR_SUCCESS, "%d-bit: QueryTraceA by handle", BITS);
	tap_ok(!strcmp(q.logger_name, name), "%d-bit: ... its name", BITS);
	tap_eq(q.p.FlushTimer, 1, "%d-bit: ... its FlushTimer", BITS);
	props_init(&q, NULL, 0);
	tap_eq(QueryTraceW(0, wide(name, wname), &q.p), ERROR_SUCCESS,
	       "%d-bit: QueryTraceW by name", BITS);
	memcpy(wout, q.logger_name, sizeof(wout));
	tap_ok(!memcmp(wout, wname, (strlen(name) + 1) * sizeof(WCHAR)),
	       "%d-bit: ... its name in UTF-16", BITS);
	tap_eq(q.p.Wnode.HistoricalContext, h, "%d-bit: ... its handle", BITS);

	props_init(&q, NULL, 0);
	q.p.FlushTimer = 3;
	tap_eq(UpdateTraceA(h, NULL, &q.p), ERROR_SUCCESS, "%d-bit: UpdateTrace", BITS);
	tap_eq(q.p.FlushTimer, 3, "%d-bit: ... FlushTimer now 3", BITS);
	props_init(&q, NULL, 0);
	tap_eq(FlushTraceA(h, NULL, &q.p), ERROR_SUCCESS, "%d-bit: FlushTrace", BITS);

	/* Errors. */
	props_init(&q, NULL, 0);
	tap_eq(ControlTraceA(h, NULL, &q.p, 99), ERROR_INVALID_PARAMETER,
	       "%d-bit: an unknown ControlCode -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(ControlTraceA(0, NULL, &q.p, EVENT_TRACE_CONTROL_QUERY), ERROR_INVALID_PARAMETER,
	       "%d-bit: neither handle nor name -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(QueryTraceA(0xFFFF, NULL, &q.p), ERROR_WMI_INSTANCE_NOT_FOUND,
	       "%d-bit: handle 0xFFFF, no NT Kernel Logger -> ERROR_WMI_INSTANCE_NOT_FOUND", BITS);
	tap_eq(GetLastError(), ERROR_WMI_INSTANCE_NOT_FOUND, "%d-bit: ... also the last error",
	       BITS);
	tap_eq(QueryTraceA(0x10000, NULL, &q.p), ERROR_INVALID_HANDLE,
	       "%d-bit: handle 0x10000 -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(GetLastError(), ERROR_INVALID_HANDLE, "%d-bit: ... also the last error", BITS);
	tap_eq(QueryTraceA(0, "no-such-session", &q.p), ERROR_WMI_INSTANCE_NOT_FOUND,
	       "%d-bit: an unknown name -> ERROR_WMI_INSTANCE_NOT_FOUND", BITS);
	tap_eq(QueryTraceA(h, NULL, NULL), ERROR_INVALID_PARAMETER,
	       "%d-bit: NULL Properties -> ERROR_INVALID_PARAMETER", BITS);
	q.p.Wnode.BufferSize = 16;
	tap_eq(QueryTraceA(h, NULL, &q.p), ERROR_BAD_LENGTH,
	       "%d-bit: Wnode.BufferSize too small -> ERROR_BAD_LENGTH", BITS);
	props_init(&q, NULL, 0);
	q.p.LoggerNameOffset = sizeof(q) - 2;
	tap_eq(QueryTraceA(h, NULL, &q.p), ERROR_MORE_DATA,
	       "%d-bit: no room for the name -> ERROR_MORE_DATA", BITS);
	props_init(&q, NULL, 0);
	q.p.LoggerNameOffset = 8;
	tap_eq(QueryTraceA(h, NULL, &q.p), ERROR_INVALID_PARAMETER,
	       "%d-bit: LoggerNameOffset inside the structure -> ERROR_INVALID_PARAMETER",
	       BITS);

	props_init(&q, NULL, 0);
	tap_eq(StopTraceW(0, wname, &q.p), ERROR_SUCCESS, "%d-bit: StopTraceW by name", BITS);
	props_init(&q, NULL, 0);
	tap_eq(QueryTraceA(h, NULL, &q.p), ERROR_WMI_INSTANCE_NOT_FOUND,
	       "%d-bit: the stopped session is gone", BITS);
	tap_eq(TraceMessage(h, 0, NULL, 1, NULL), ERROR_INVALID_HANDLE,
	       "%d-bit: TraceMessage to it -> ERROR_INVALID_HANDLE", BITS);
}

/* ---- a log file the library writes ---- */

#define NTHREADS 2
#define PER_THREAD 2000

static TRACEHANDLE file_handle;
static uint8_t seen[NTHREADS][PER_THREAD];
static unsigned int ok_count[NTHREADS], refused[NTHREADS], other, bad;

static void *produce(void *arg)
{
	unsigned int t = (uintptr_t)arg, i;

	for (i = 0; i < PER_THREAD; i++) {
		uint32_t id = t << 16 | i;
		ULONG err = TraceMessage(file_handle, TRACE_MESSAGE_SEQUENCE, NULL, 5,
					 &id, sizeof(id), NULL);

		if (!err)
			ok_count[t]++;
		else if (err == ERROR_NOT_ENOUGH_MEMORY)
			refused[t]++;
		else
			other++;
	}
	return NULL;
}

static void on_record(void *ctx, const uint8_t *rec, uint32_t size)
{
	uint32_t id = get_le(rec + 12, 4), t = id >> 16, i = id & 0xFFFF;

	if (size != 16 || get_le(rec + 4, 2) != 5 || t >= NTHREADS || i >= PER_THREAD ||
	    seen[t][i]++)
		bad++;
}

TEST_F(nttrace, log_file)
{
	char path[64], bad_path[64];
	struct props pr, st;
	unsigned int t, i, nread = 0, sent = 0, nomem = 0, nbuf = 0;
	pthread_t th[NTHREADS];
	uint8_t *buf;
	struct stat sb;
	int fd;

	snprintf(bad_path, sizeof(bad_path), "/nonexistent-%d/x.etl", getpid());
	props_init(&pr, bad_path, 0);
	tap_eq(StartTraceA(&file_handle, "st-file", &pr.p), ERROR_PATH_NOT_FOUND,
	       "%d-bit: log file in a missing directory -> ERROR_PATH_NOT_FOUND", BITS);
	props_init(&st, NULL, 0);
	tap_eq(QueryTraceA(0, "st-file", &st.p), ERROR_WMI_INSTANCE_NOT_FOUND,
	       "%d-bit: ... and no session is left behind", BITS);

	snprintf(path, sizeof(path), "/tmp/st-%d.bin", getpid());
	props_init(&pr, path, 0);
	pr.p.BufferSize = 4;
	pr.p.MaximumBuffers = 16;
	if (!tap_eq(StartTraceA(&file_handle, "st-file", &pr.p), ERROR_SUCCESS,
		    "%d-bit: StartTrace with a log file", BITS))
		return;
	tap_ok(pr.p.LoggerThreadId != NULL, "%d-bit: LoggerThreadId is the logger's", BITS);
	for (t = 0; t < NTHREADS; t++)
		pthread_create(&th[t], NULL, produce, (void *)(uintptr_t)t);
	for (t = 0; t < NTHREADS; t++)
		pthread_join(th[t], NULL);
	props_init(&st, NULL, 0);
	tap_eq(StopTraceA(file_handle, NULL, &st.p), ERROR_SUCCESS, "%d-bit: StopTrace", BITS);

	/* StopTrace has returned: the file must be whole now. */
	fd = open(path, O_RDONLY);
	tap_ok(fd >= 0 && !fstat(fd, &sb) && sb.st_size > 0 && sb.st_size % 4096 == 0,
	       "%d-bit: the file is whole buffers", BITS);
	buf = malloc(4096);
	while (fd >= 0 && read(fd, buf, 4096) == 4096) {
		/* The ETL header buffer (BufferType 4) holds no events. */
		if (get_le(buf + 0x36, 2) == 4 && !nbuf++)
			continue;
		nbuf++;
		if (expect_walk(buf, on_record, NULL) < 0)
			bad++;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	unlink(path);
	for (t = 0; t < NTHREADS; t++) {
		sent += ok_count[t];
		nomem += refused[t];
		for (i = 0; i < PER_THREAD; i++)
			nread += seen[t][i];
	}
	printf("# log file: %u buffers, %u events, %u refused, EventsLost %u\n", nbuf, nread,
	       nomem, st.p.EventsLost);
	tap_eq(other + bad, 0, "%d-bit: records whole, each once", BITS);
	tap_eq(nread, sent, "%d-bit: every event traced is in the file", BITS);
	tap_eq(nread + st.p.EventsLost, NTHREADS * PER_THREAD,
	       "%d-bit: in the file + EventsLost = traced", BITS);
}

/*
 * EVENT_TRACE_COMPRESSED_MODE: the logger writes the buffers compressed
 * (the file is no longer whole 4 KB buffers) and every event traced is
 * read back by the reader, which takes such files from Windows.
 */
TEST_F(nttrace, compressed_file)
{
	const struct nttrace_etl_event *ev;
	struct nttrace_etl_reader *r;
	char path[64];
	struct props pr, st;
	unsigned int i, sent = 0, nread = 0, zbuf = 0;

	snprintf(path, sizeof(path), "/tmp/st-z-%d.etl", getpid());
	props_init(&pr, path, EVENT_TRACE_COMPRESSED_MODE | EVENT_TRACE_FILE_MODE_CIRCULAR);
	pr.p.MaximumFileSize = 1;
	tap_eq(StartTraceA(&file_handle, "st-z", &pr.p), ERROR_INVALID_PARAMETER,
	       "%d-bit: COMPRESSED with CIRCULAR -> ERROR_INVALID_PARAMETER", BITS);
	props_init(&pr, path, EVENT_TRACE_COMPRESSED_MODE);
	pr.p.BufferSize = 4;
	pr.p.MaximumBuffers = 16;
	if (!tap_eq(StartTraceA(&file_handle, "st-z", &pr.p), ERROR_SUCCESS,
		    "%d-bit: StartTrace with a compressed log file", BITS))
		return;
	for (i = 0; i < 3000; i++) {
		uint32_t id = i;

		sent += TraceMessage(file_handle, TRACE_MESSAGE_SEQUENCE, NULL, 5, &id,
				     sizeof(id), NULL) == ERROR_SUCCESS;
	}
	props_init(&st, NULL, 0);
	tap_eq(StopTraceA(file_handle, NULL, &st.p), ERROR_SUCCESS, "%d-bit: StopTrace", BITS);
	tap_ok(st.p.LogFileMode & EVENT_TRACE_COMPRESSED_MODE, "%d-bit: ... the session's mode "
	       "says COMPRESSED", BITS);
	if (!tap_eq(nttrace_etl_open(&r, path, NULL, NULL), 0, "%d-bit: the file opens", BITS))
		return;
	while ((ev = nttrace_etl_next_ref(r))) {
		uint16_t flags = (uint16_t)get_le(ev->buffer + 0x34, 2);

		if (ev->offset == ev->buffer_offset + 0x48 && (flags & 0x40))
			zbuf++;
		nread += ev->message;
	}
	nttrace_etl_close(r);
	unlink(path);
	printf("# compressed: %u events in %u compressed buffers, EventsLost %u\n", nread, zbuf,
	       st.p.EventsLost);
	tap_ok(zbuf > 0, "%d-bit: ... its buffers are compressed", BITS);
	tap_eq(nread, sent, "%d-bit: ... every event traced is in it", BITS);
	tap_eq(nread + st.p.EventsLost, 3000, "%d-bit: ... in the file + EventsLost = traced", BITS);
}

/*
 * EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING: threads on every CPU write to
 * one ring, one at a time, so the file holds one stream (processor 0) in
 * which the session's sequence numbers and the time stamps both rise in
 * file order, every event traced there once.
 */
#define NOPP_THREADS 4
#define NOPP_EVENTS 1500

static TRACEHANDLE nopp_handle;
static unsigned int nopp_sent[NOPP_THREADS];

static void *nopp_produce(void *arg)
{
	unsigned int t = (uintptr_t)arg, i;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(t % (ncpu > 0 ? ncpu : 1), &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = 0; i < NOPP_EVENTS; i++) {
		uint32_t id = t << 16 | i;

		nopp_sent[t] += TraceMessage(nopp_handle, TRACE_MESSAGE_SEQUENCE |
					     TRACE_MESSAGE_TIMESTAMP, NULL, 6, &id,
					     sizeof(id), NULL) == ERROR_SUCCESS;
	}
	return NULL;
}

TEST_F(nttrace, no_per_processor)
{
	static uint8_t seen_id[NOPP_THREADS][NOPP_EVENTS];
	const struct nttrace_etl_event *ev;
	struct nttrace_etl_reader *r;
	pthread_t th[NOPP_THREADS];
	struct props pr, q, st;
	char path[64];
	unsigned int t, sent = 0, nread = 0, off_cpu = 0, seq_back = 0, ts_back = 0,
		     dup = 0, ncpus = 0;
	uint32_t last_seq = 0;
	uint64_t last_ts = 0;

	snprintf(path, sizeof(path), "/tmp/st-nopp-%d.etl", getpid());
	props_init(&pr, path, EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING);
	pr.p.BufferSize = 4;
	pr.p.MinimumBuffers = 64;
	pr.p.MaximumBuffers = 64;
	if (!tap_eq(StartTraceA(&nopp_handle, "st-nopp", &pr.p), ERROR_SUCCESS,
		    "%d-bit: StartTrace with NO_PER_PROCESSOR_BUFFERING", BITS))
		return;
	props_init(&q, NULL, 0);
	tap_eq(QueryTraceA(nopp_handle, NULL, &q.p), ERROR_SUCCESS, "%d-bit: QueryTrace", BITS);
	tap_ok(q.p.LogFileMode & EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING,
	       "%d-bit: ... the mode is kept", BITS);
	tap_eq(q.p.NumberOfBuffers, 64, "%d-bit: ... 64 buffers in all: one ring, not one a CPU",
	       BITS);
	for (t = 0; t < NOPP_THREADS; t++)
		pthread_create(&th[t], NULL, nopp_produce, (void *)(uintptr_t)t);
	for (t = 0; t < NOPP_THREADS; t++) {
		pthread_join(th[t], NULL);
		sent += nopp_sent[t];
	}
	props_init(&st, NULL, 0);
	tap_eq(StopTraceA(nopp_handle, NULL, &st.p), ERROR_SUCCESS, "%d-bit: StopTrace", BITS);
	if (!tap_eq(nttrace_etl_open(&r, path, NULL, NULL), 0, "%d-bit: the file opens", BITS))
		return;
	ncpus = nttrace_etl_info(r)->nr_cpus;
	while ((ev = nttrace_etl_next_ref(r))) {
		uint32_t id;

		if (!ev->message || ev->number != 6 || ev->data_len != 4)
			continue;
		memcpy(&id, ev->data, 4);
		if ((id >> 16) >= NOPP_THREADS || (id & 0xFFFF) >= NOPP_EVENTS ||
		    seen_id[id >> 16][id & 0xFFFF]++)
			dup++;
		off_cpu += ev->cpu != 0;
		seq_back += nread && ev->sequence <= last_seq;
		ts_back += nread && ev->timestamp < last_ts;
		last_seq = ev->sequence;
		last_ts = ev->timestamp;
		nread++;
	}
	nttrace_etl_close(r);
	unlink(path);
	printf("# no per-processor buffering: %u sent, %u read, EventsLost %u, %ld CPUs\n", sent,
	       nread, st.p.EventsLost, sysconf(_SC_NPROCESSORS_ONLN));
	tap_eq(ncpus, 1, "%d-bit: ... the file has one processor's stream", BITS);
	tap_eq(off_cpu, 0, "%d-bit: ... every event in buffers of processor 0", BITS);
	tap_eq(dup, 0, "%d-bit: ... each event once, as written", BITS);
	tap_eq(nread, sent, "%d-bit: ... every event traced is in the file", BITS);
	tap_eq(nread + st.p.EventsLost, NOPP_THREADS * NOPP_EVENTS,
	       "%d-bit: ... in the file + EventsLost = traced", BITS);
	tap_eq(seq_back, 0, "%d-bit: ... sequence numbers rise in file order", BITS);
	tap_eq(ts_back, 0, "%d-bit: ... and so do the time stamps", BITS);
}

int main(int argc, char **argv)
{
	return harness_run(argc, argv);
}
