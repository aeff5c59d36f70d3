// SPDX-License-Identifier: GPL-2.0
/*
 * The consumer side from user space: attaching, the mmap protocol and its
 * protections, buffer and record layout, producers on both vCPUs against a
 * draining consumer (every event seen exactly once or counted lost), a
 * circular session, and a consumer killed mid-run that a new one replaces.
 * Runs in the VM, 64-bit and 32-bit.
 */
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emit.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define HDR NTTRACE_WMI_BUFFER_HEADER_SIZE

TEST_F(nttrace, attach_and_mmap)
{
	struct nttrace_logger_info info;
	struct nttrace_consumer *c, *c2;
	struct nttrace_attach a, ca;
	long pg = getpagesize();
	void *p;
	int fd;

	tap_eq(-nttrace_consumer_open(&c, 63), ENOENT, "%d-bit: attach to no session -> ENOENT", BITS);
	tap_eq(start_session("mm", 4, 4, 0, &info), 0, "%d-bit: start", BITS);

	fd = open(NTTRACE_DEVICE, O_RDWR);
	errno = 0;
	p = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
	tap_ok(p == MAP_FAILED && errno == EINVAL, "%d-bit: mmap before attach -> EINVAL", BITS);
	close(fd);

	tap_eq(nttrace_consumer_open(&c, info.logger_id), 0, "%d-bit: attach", BITS);
	nttrace_consumer_attach_info(c, &ca);
	tap_eq(-nttrace_consumer_open(&c2, info.logger_id), EBUSY,
	       "%d-bit: second consumer -> EBUSY", BITS);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.logger_id = info.logger_id;
	errno = 0;
	tap_ok(ioctl(nttrace_consumer_fd(c), NTTRACE_IOC_ATTACH, &a) < 0 && errno == EBUSY,
	       "%d-bit: attaching the same file twice -> EBUSY", BITS);

	tap_eq(ca.nr_cpus, info.nr_cpus, "%d-bit: attach reports the CPUs", BITS);
	tap_eq(ca.buffer_size, 4096, "%d-bit: attach reports the buffer size", BITS);
	tap_eq(ca.buffers_per_cpu, 4, "%d-bit: attach reports buffers per CPU", BITS);
	tap_eq(ca.data_size, (uint64_t)ca.nr_cpus * 4 * 4096, "%d-bit: data size", BITS);
	tap_ok(ca.heads_offset % pg == 0 && ca.acks_offset % pg == 0 &&
	       ca.data_offset % pg == 0, "%d-bit: regions page aligned", BITS);

	errno = 0;
	p = mmap(NULL, ca.heads_size, PROT_READ | PROT_WRITE, MAP_SHARED, nttrace_consumer_fd(c), ca.heads_offset);
	tap_ok(p == MAP_FAILED && errno == EPERM, "%d-bit: heads PROT_WRITE -> EPERM", BITS);
	errno = 0;
	p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, nttrace_consumer_fd(c), ca.data_offset);
	tap_ok(p == MAP_FAILED && errno == EPERM, "%d-bit: data PROT_WRITE -> EPERM", BITS);
	errno = 0;
	p = mmap(NULL, pg, PROT_READ | PROT_EXEC, MAP_SHARED, nttrace_consumer_fd(c), ca.data_offset);
	tap_ok(p == MAP_FAILED && errno == EPERM, "%d-bit: data PROT_EXEC -> EPERM", BITS);
	errno = 0;
	p = mmap(NULL, pg, PROT_READ | PROT_EXEC, MAP_SHARED, nttrace_consumer_fd(c), ca.heads_offset);
	tap_ok(p == MAP_FAILED && errno == EPERM, "%d-bit: heads PROT_EXEC -> EPERM", BITS);
	errno = 0;
	p = mmap(NULL, pg, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_SHARED, nttrace_consumer_fd(c), ca.acks_offset);
	tap_ok(p == MAP_FAILED && errno == EPERM, "%d-bit: acks PROT_EXEC -> EPERM", BITS);
	errno = 0;
	p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, nttrace_consumer_fd(c), ca.acks_offset);
	tap_ok(p == MAP_FAILED && errno == EINVAL, "%d-bit: acks MAP_PRIVATE -> EINVAL", BITS);
	errno = 0;
	p = mmap(NULL, ca.data_size + pg, PROT_READ, MAP_SHARED, nttrace_consumer_fd(c), ca.data_offset);
	tap_ok(p == MAP_FAILED && errno == EINVAL, "%d-bit: past a region's end -> EINVAL", BITS);
	errno = 0;
	p = mmap(NULL, pg, PROT_READ, MAP_SHARED, nttrace_consumer_fd(c), ca.data_offset + ca.data_size);
	tap_ok(p == MAP_FAILED && errno == EINVAL, "%d-bit: beyond all regions -> EINVAL", BITS);
	errno = 0;
	tap_ok(mprotect((void *)nttrace_consumer_heads(c), ca.heads_size, PROT_READ | PROT_WRITE) < 0 && errno == EACCES,
	       "%d-bit: mprotect heads writable -> EACCES", BITS);
	errno = 0;
	tap_ok(mprotect((void *)nttrace_consumer_ring(c, 0), pg, PROT_READ | PROT_EXEC) < 0 && errno == EACCES,
	       "%d-bit: mprotect data executable -> EACCES", BITS);

	nttrace_consumer_close(c);
	tap_eq(nttrace_consumer_open(&c, info.logger_id), 0,
	       "%d-bit: a new consumer attaches after the first closed", BITS);
	nttrace_consumer_close(c);
	stop_session(info.logger_id);
}

/* ---- Buffers and records ---- */

static int poll_events(struct nttrace_consumer *c)
{
	struct pollfd pfd = { .fd = nttrace_consumer_fd(c), .events = POLLIN };

	return poll(&pfd, 1, 0) == 1 ? pfd.revents : 0;
}

struct layout_ctx {
	unsigned int buffers, bad_header, bad_fill, records;
	uint32_t logger_id, nr_cpus;
	char payloads[3][8];
};

static int check_buffer(void *arg, const void *buf, uint32_t size, unsigned int cpu)
{
	struct layout_ctx *x = arg;
	const struct nttrace_wmi_buffer_header *h = buf;
	const uint8_t *b = buf;
	uint32_t off = HDR, i;

	x->buffers++;
	if (h->buffer_size != size || h->logger_id != x->logger_id || h->processor_number != cpu ||
	    h->saved_offset != h->offset || h->current_offset != h->offset || h->saved_offset % 8 ||
	    h->saved_offset > size || h->buffer_type != NTTRACE_WMI_BUFFER_TYPE_GENERIC ||
	    h->buffer_flag !=
		    (NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER | NTTRACE_WMI_BUFFER_FLAG_PROC_INDEX) ||
	    (h->clock_type_frequency & 7) != NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER)
		x->bad_header++;
	for (i = h->saved_offset; i < size; i++)
		if (b[i] != NTTRACE_WMI_BUFFER_FILL)
			x->bad_fill++;
	while (off < h->saved_offset) {
		const struct nttrace_message_trace_header *m = (const void *)(b + off);

		/* header(8) + payload(5) */
		if (m->size == 13 && m->version == 0x90 && m->reserved == 0 &&
		    m->message_number == 40 + x->records &&
		    m->option_flags == (sizeof(void *) == 8 ? NTTRACE_TRACE_MESSAGE_POINTER64 :
							       NTTRACE_TRACE_MESSAGE_POINTER32) &&
		    x->records < 3 && !memcmp(b + off + 8, x->payloads[x->records], 5) &&
		    !b[off + 13] && !b[off + 14] && !b[off + 15])
			x->records++;
		off += (m->size + 7) & ~7u;
	}
	return 0;
}

TEST_F(nttrace, layout)
{
	struct layout_ctx x = { .payloads = { "abcde", "fghij", "klmno" } };
	struct nttrace_logger_info info;
	struct nttrace_consumer *c;
	struct nttrace_attach ca;
	cpu_set_t one;
	int i;

	/* Keep the three events on one CPU, so they share a buffer. */
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof(one), &one);
	tap_eq(start_session("layout", 4, 4, 0, &info), 0, "%d-bit: start", BITS);
	tap_eq(nttrace_consumer_open(&c, info.logger_id), 0, "%d-bit: attach", BITS);
	nttrace_consumer_attach_info(c, &ca);
	for (i = 0; i < 3; i++)
		tap_eq(emit(info.logger_id, 0, 40 + i, x.payloads[i], 5), STATUS_SUCCESS,
		       "%d-bit: message %d", BITS, i);
	tap_eq(nttrace_consumer_drain(c, check_buffer, &x), 0,
	       "%d-bit: nothing published before a flush", BITS);
	tap_eq(poll_events(c), 0, "%d-bit: poll: nothing yet", BITS);
	memset(&info, 0, sizeof(info));
	info.logger_id = ca.logger_id;
	tap_eq(nttrace_control(&info, NTTRACE_EVENT_TRACE_CONTROL_FLUSH), 0, "%d-bit: flush", BITS);
	x.logger_id = ca.logger_id;
	tap_eq(poll_events(c), POLLIN, "%d-bit: poll: POLLIN after the flush", BITS);
	tap_eq(nttrace_consumer_drain(c, check_buffer, &x), 1, "%d-bit: one buffer published", BITS);
	tap_eq(poll_events(c), 0, "%d-bit: poll: nothing once drained", BITS);
	tap_eq(x.bad_header, 0, "%d-bit: WMI_BUFFER_HEADER fields", BITS);
	tap_eq(x.bad_fill, 0, "%d-bit: unused tail is 0xFF", BITS);
	tap_eq(x.records, 3, "%d-bit: three records, in order, padded with zeros", BITS);
	tap_eq(info.events_written, 3, "%d-bit: query counts 3 events", BITS);
	tap_eq(info.buffers_written, 1, "%d-bit: query counts 1 buffer", BITS);
	stop_session(ca.logger_id);
	tap_eq(poll_events(c), POLLHUP, "%d-bit: poll: POLLHUP after the stop", BITS);
	tap_ok(nttrace_consumer_stopped(c), "%d-bit: the mapping says stopped", BITS);
	nttrace_consumer_close(c);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	CPU_SET(1, &one);
	sched_setaffinity(0, sizeof(one), &one);
}

/* ---- Producers on both vCPUs against a draining consumer ---- */

#define N_PER_THREAD	20000
#define N_THREADS	2

struct payload {
	uint32_t thread;
	uint32_t n;
};

struct mp {
	uint32_t logger_id;
	uint8_t *seen;			/* [thread][n]: times seen */
	uint32_t *seqs;			/* sequence numbers seen */
	uint64_t nseq, bad, ok_status, full_status, gone_status, other_status;
	volatile int producers_left;
};

struct producer {
	struct mp *m;
	uint32_t t;
	pthread_t th;
};

static void *produce(void *arg)
{
	struct mp *m = ((struct producer *)arg)->m;
	uint32_t t = ((struct producer *)arg)->t;
	struct payload p = { .thread = t };
	cpu_set_t cpu;
	uint64_t ok = 0, full = 0, gone = 0, other = 0;

	CPU_ZERO(&cpu);
	CPU_SET(t, &cpu);
	sched_setaffinity(0, sizeof(cpu), &cpu);
	for (p.n = 0; p.n < N_PER_THREAD; p.n++) {
		uint32_t s = emit(m->logger_id, NTTRACE_TRACE_MESSAGE_SEQUENCE, 7, &p, sizeof(p));

		if (s == STATUS_SUCCESS)
			ok++;
		else if (s == STATUS_NO_MEMORY)
			full++;
		else if (s == STATUS_INVALID_HANDLE)
			gone++;		/* the session was stopped */
		else
			other++;
	}
	__atomic_add_fetch(&m->ok_status, ok, __ATOMIC_RELAXED);
	__atomic_add_fetch(&m->full_status, full, __ATOMIC_RELAXED);
	__atomic_add_fetch(&m->gone_status, gone, __ATOMIC_RELAXED);
	__atomic_add_fetch(&m->other_status, other, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&m->producers_left, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int take_buffer(void *arg, const void *buf, uint32_t size, unsigned int cpu)
{
	struct mp *m = arg;
	const struct nttrace_wmi_buffer_header *h = buf;
	const uint8_t *b = buf;
	uint32_t off = HDR;

	while (off < h->saved_offset) {
		const struct nttrace_message_trace_header *r = (const void *)(b + off);
		struct payload p;
		uint32_t seq;

		if (r->size != 8 + 4 + sizeof(p) || r->message_number != 7) {
			m->bad++;
			break;
		}
		memcpy(&seq, b + off + 8, 4);
		memcpy(&p, b + off + 12, sizeof(p));
		if (p.thread >= N_THREADS || p.n >= N_PER_THREAD)
			m->bad++;
		else
			m->seen[p.thread * N_PER_THREAD + p.n]++;
		if (m->nseq < N_THREADS * N_PER_THREAD)
			m->seqs[m->nseq++] = seq;
		off += (r->size + 7) & ~7u;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Drain until the session stops. The stop comes once the producers finish,
 * or, with @stop_early, while they are still writing.
 */
static void drain_to_end(struct nttrace_consumer *c, struct mp *m, int stop_early)
{
	int stop_sent = 0, rounds = 0;

	for (;;) {
		int stopped = nttrace_consumer_stopped(c);

		nttrace_consumer_drain(c, take_buffer, m);
		if (stopped)
			break;
		if (!stop_sent && ((stop_early && ++rounds == 2) ||
				   !__atomic_load_n(&m->producers_left, __ATOMIC_ACQUIRE))) {
			stop_session(m->logger_id);
			stop_sent = 1;
		}
		nttrace_consumer_wait(c, 50);
	}
}

static void account(struct mp *m, struct nttrace_consumer *c, const char *what)
{
	struct nttrace_counts n;
	uint64_t once = 0, twice = 0, i, dup_seq = 0;

	nttrace_consumer_counts(c, &n);
	for (i = 0; i < N_THREADS * N_PER_THREAD; i++) {
		once += m->seen[i] == 1;
		twice += m->seen[i] > 1;
	}
	qsort(m->seqs, m->nseq, sizeof(uint32_t), cmp_u32);
	for (i = 1; i < m->nseq; i++)
		dup_seq += m->seqs[i] == m->seqs[i - 1];
	printf("# %s: %llu seen, %llu written, %llu lost, %llu overwritten\n", what,
	       (unsigned long long)once, (unsigned long long)n.events_written,
	       (unsigned long long)n.events_lost, (unsigned long long)n.events_overwritten);
	tap_eq(m->bad, 0, "%d-bit: %s: every record well formed", BITS, what);
	tap_eq(twice, 0, "%d-bit: %s: no event seen twice", BITS, what);
	tap_eq(dup_seq, 0, "%d-bit: %s: sequence numbers unique", BITS, what);
	tap_eq(m->other_status, 0, "%d-bit: %s: only SUCCESS, NO_MEMORY or (after the stop) "
	       "INVALID_HANDLE", BITS, what);
	tap_eq(once + n.events_overwritten, n.events_written,
	       "%d-bit: %s: written = seen + overwritten", BITS, what);
	tap_eq(n.events_written, m->ok_status,
	       "%d-bit: %s: each event told SUCCESS was written", BITS, what);
	tap_eq(n.events_written + n.events_lost + m->gone_status,
	       (uint64_t)N_THREADS * N_PER_THREAD,
	       "%d-bit: %s: written + lost + refused after stop = all events", BITS, what);
	tap_eq(n.events_lost, m->full_status,
	       "%d-bit: %s: each lost event was told STATUS_NO_MEMORY", BITS, what);
}

static struct mp *new_mp(uint32_t logger_id)
{
	struct mp *m = calloc(1, sizeof(*m));

	m->logger_id = logger_id;
	m->seen = calloc(N_THREADS, N_PER_THREAD);
	m->seqs = calloc(N_THREADS * N_PER_THREAD, sizeof(uint32_t));
	m->producers_left = N_THREADS;
	return m;
}

static void free_mp(struct mp *m)
{
	free(m->seen);
	free(m->seqs);
	free(m);
}

static void run_producers(struct mp *m, struct producer *p)
{
	uint32_t t;

	for (t = 0; t < N_THREADS; t++) {
		p[t].m = m;
		p[t].t = t;
		pthread_create(&p[t].th, NULL, produce, &p[t]);
	}
}

/*
 * @late: the consumer reads only once the producers are done.
 * @stop_early: the session stops while the producers still write.
 */
static void test_two_producers(uint32_t mode, int late, int stop_early, const char *what)
{
	struct nttrace_logger_info info;
	struct nttrace_consumer *c;
	struct producer prod[N_THREADS];
	struct mp *m;
	int t;

	tap_eq(start_session(what, 4, 4, mode, &info), 0, "%d-bit: %s: start", BITS, what);
	tap_eq(nttrace_consumer_open(&c, info.logger_id), 0, "%d-bit: %s: attach", BITS, what);
	m = new_mp(info.logger_id);
	run_producers(m, prod);
	if (late) {
		while (__atomic_load_n(&m->producers_left, __ATOMIC_ACQUIRE))
			usleep(10000);
	}
	drain_to_end(c, m, stop_early);
	for (t = 0; t < N_THREADS; t++)
		pthread_join(prod[t].th, NULL);
	account(m, c, what);
	if (stop_early)
		tap_ok(m->gone_status > 0, "%d-bit: %s: stopped mid-run", BITS, what);
	if (mode & NTTRACE_EVENT_TRACE_BUFFERING_MODE)
		tap_ok(m->full_status == 0, "%d-bit: %s: circular never refuses", BITS, what);
	else if (late)
		tap_ok(m->full_status > 0, "%d-bit: %s: a full ring refuses", BITS, what);
	nttrace_consumer_close(c);
	free_mp(m);
}

/* Any byte of @p[@n] not zero (another process writes them). */
static int memchr_any(const volatile uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 1;
	return 0;
}

TEST_F(nttrace, two_producers_discard)
{
	test_two_producers(0, 0, 0, "discard");
}

TEST_F(nttrace, two_producers_discard_late)
{
	test_two_producers(0, 1, 0, "discard-late");
}

TEST_F(nttrace, two_producers_circular)
{
	test_two_producers(NTTRACE_EVENT_TRACE_BUFFERING_MODE, 1, 0, "circular");
}

TEST_F(nttrace, two_producers_stop_mid_run)
{
	test_two_producers(0, 0, 1, "stop-mid-run");
}

/*
 * A consumer killed mid-run; a new one attaches and continues where the
 * dead one acknowledged. Buffers the dead one read but did not acknowledge
 * come again, so here an event may be seen twice, but none is missed.
 */
TEST_F(nttrace, consumer_killed)
{
	struct nttrace_logger_info info;
	struct nttrace_consumer *c;
	struct producer prod[N_THREADS];
	struct nttrace_counts n;
	uint64_t missed = 0, i;
	struct mp *m;
	uint8_t *shared;
	pid_t child;
	int t, status;

	tap_eq(start_session("killed", 4, 64, 0, &info), 0, "%d-bit: killed: start", BITS);
	m = new_mp(info.logger_id);
	/* The child marks what it sees in memory the parent shares. */
	shared = mmap(NULL, N_THREADS * N_PER_THREAD, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	free(m->seen);
	m->seen = shared;
	child = fork();
	if (child == 0) {
		if (nttrace_consumer_open(&c, info.logger_id))
			_exit(1);
		for (;;) {	/* until killed */
			nttrace_consumer_drain(c, take_buffer, m);
			nttrace_consumer_wait(c, 20);
		}
	}
	run_producers(m, prod);
	/* Kill the child mid-run, once it has consumed an event. */
	while (!memchr_any(shared, N_THREADS * N_PER_THREAD))
		sched_yield();
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	tap_ok(WIFSIGNALED(status), "%d-bit: killed: consumer died by SIGKILL", BITS);
	tap_eq(nttrace_consumer_open(&c, info.logger_id), 0,
	       "%d-bit: killed: a new consumer attaches", BITS);
	drain_to_end(c, m, 0);
	for (t = 0; t < N_THREADS; t++)
		pthread_join(prod[t].th, NULL);
	nttrace_consumer_counts(c, &n);
	/* Every written event was seen by one of the two. */
	for (i = 0; i < N_THREADS * N_PER_THREAD; i++)
		missed += !m->seen[i];
	tap_eq(missed, n.events_lost, "%d-bit: killed: only events counted lost are missing", BITS);
	tap_eq(n.events_written + n.events_lost, (uint64_t)N_THREADS * N_PER_THREAD,
	       "%d-bit: killed: written + lost = all events", BITS);
	nttrace_consumer_close(c);
	munmap(shared, N_THREADS * N_PER_THREAD);
	m->seen = NULL;
	free_mp(m);
}

int main(int argc, char **argv)
{
	if (!tap_ok(nttrace_device_fd() >= 0, "%d-bit: open %s", BITS, NTTRACE_DEVICE))
		return tap_done();
	return harness_run(argc, argv);
}
