// SPDX-License-Identifier: GPL-2.0
/*
 * Logger sessions from user space: start, query, update, flush, stop, list,
 * and every error path (uapi/nttrace.h says which errno each limit gives).
 * Runs in the VM, 64-bit and 32-bit.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emit.h"
#include "files.h"
#include "params.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)

static int start_with(const char *name, void (*tweak)(struct nttrace_logger_info *))
{
	struct nttrace_logger_info info;
	int ret;

	memset(&info, 0, sizeof(info));
	nttrace_set_name(&info, name);
	if (tweak)
		tweak(&info);
	ret = nttrace_start(&info);
	if (!ret)
		stop_session(info.logger_id);
	return ret;
}

static void t_buf3(struct nttrace_logger_info *i) { i->buffer_size_kb = 3; }
static void t_buf2048(struct nttrace_logger_info *i) { i->buffer_size_kb = 2048; }
static void t_min1(struct nttrace_logger_info *i) { i->min_buffers = 1; }
static void t_minmax(struct nttrace_logger_info *i) { i->min_buffers = 9; i->max_buffers = 8; }
static void t_max1025(struct nttrace_logger_info *i) { i->max_buffers = 1025; }
static void t_mode_bad(struct nttrace_logger_info *i) { i->log_file_mode = 0x80000000; }
static void t_mode_seqcirc(struct nttrace_logger_info *i)
{
	i->log_file_mode = NTTRACE_EVENT_TRACE_FILE_MODE_SEQUENTIAL |
			   NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR;
}
static void t_mode_globloc(struct nttrace_logger_info *i)
{
	i->log_file_mode = NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE |
			   NTTRACE_EVENT_TRACE_USE_LOCAL_SEQUENCE;
}
static void t_clock4(struct nttrace_logger_info *i) { i->clock_type = 4; }
static uint32_t mode_bits;
static void t_mode(struct nttrace_logger_info *i) { i->log_file_mode = mode_bits; }

static void t_pad(struct nttrace_logger_info *i) { i->control_flags = 1; }
static void t_huge(struct nttrace_logger_info *i)
{
	i->buffer_size_kb = 1024;
	i->max_buffers = 1024;
}
static void t_name_tail(struct nttrace_logger_info *i) { i->name[40] = 'x'; }

TEST_F(nttrace, start_errors)
{
	char long_name[NTTRACE_NAME_MAX + 1];
	struct nttrace_logger_info info;

	tap_eq(-start_with("e1", t_buf3), EINVAL, "%d-bit: 3 KB buffers -> EINVAL", BITS);
	tap_eq(-start_with("e1", t_buf2048), EINVAL, "%d-bit: 2048 KB buffers -> EINVAL", BITS);
	tap_eq(-start_with("e1", t_min1), EINVAL, "%d-bit: 1 minimum buffer -> EINVAL", BITS);
	tap_eq(-start_with("e1", t_minmax), EINVAL, "%d-bit: min > max -> EINVAL", BITS);
	tap_eq(-start_with("e1", t_max1025), EINVAL, "%d-bit: 1025 buffers -> EINVAL", BITS);
	tap_eq(-start_with("e1", t_mode_bad), EINVAL, "%d-bit: unknown mode bit -> EINVAL", BITS);
	tap_eq(-start_with("e1", t_mode_seqcirc), EINVAL,
	       "%d-bit: sequential with circular -> EINVAL", BITS);
	tap_eq(-start_with("e1", t_mode_globloc), EINVAL,
	       "%d-bit: global with local sequence -> EINVAL", BITS);
	tap_eq(-start_with("e1", t_clock4), EINVAL, "%d-bit: clock type 4 -> EINVAL", BITS);
	tap_eq(-start_with("e1", t_pad), EINVAL, "%d-bit: control_flags on START -> EINVAL", BITS);
	tap_eq(-start_with("e1", t_huge), E2BIG, "%d-bit: over the memory limit -> E2BIG", BITS);
	tap_eq(-start_with("", NULL), EINVAL, "%d-bit: empty name -> EINVAL", BITS);
	tap_eq(-start_with("bad\tname", NULL), EINVAL, "%d-bit: control character -> EINVAL", BITS);
	tap_eq(-start_with("e1", t_name_tail), EINVAL,
	       "%d-bit: bytes after the name's NUL -> EINVAL", BITS);

	memset(&info, 0, sizeof(info));
	memset(long_name, 'n', sizeof(long_name));
	memcpy(info.name, long_name, NTTRACE_NAME_MAX);	/* no NUL */
	info.size = sizeof(info);
	errno = 0;
	tap_ok(ioctl(nttrace_device_fd(), NTTRACE_IOC_START_TRACE, &info) < 0 &&
	       errno == EINVAL, "%d-bit: unterminated name -> EINVAL", BITS);
	memset(&info, 0, sizeof(info));
	nttrace_set_name(&info, "e1");
	info.size = sizeof(info);
	info.control = NTTRACE_EVENT_TRACE_CONTROL_STOP;
	errno = 0;
	tap_ok(ioctl(nttrace_device_fd(), NTTRACE_IOC_START_TRACE, &info) < 0 &&
	       errno == EINVAL, "%d-bit: START with a control code -> EINVAL", BITS);
}

/* Modes the kernel takes do what Windows does; the rest are refused. */
TEST_F(nttrace, modes)
{
	static const struct {
		uint32_t bit;
		const char *name;
		int ok;
	} modes[] = {
		{ NTTRACE_EVENT_TRACE_FILE_MODE_SEQUENTIAL, "SEQUENTIAL", 1 },
		{ NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR, "CIRCULAR", 1 },
		{ NTTRACE_EVENT_TRACE_SECURE_MODE, "SECURE", 1 },
		{ NTTRACE_EVENT_TRACE_REAL_TIME_MODE, "REAL_TIME", 1 },
		{ NTTRACE_EVENT_TRACE_BUFFERING_MODE, "BUFFERING", 1 },
		{ NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE, "GLOBAL_SEQUENCE", 1 },
		{ NTTRACE_EVENT_TRACE_USE_LOCAL_SEQUENCE, "LOCAL_SEQUENCE", 1 },
		{ NTTRACE_EVENT_TRACE_FILE_MODE_APPEND, "APPEND", 1 },
		{ NTTRACE_EVENT_TRACE_FILE_MODE_APPEND | NTTRACE_EVENT_TRACE_FILE_MODE_SEQUENTIAL,
		  "APPEND|SEQUENTIAL", 1 },
		{ NTTRACE_EVENT_TRACE_FILE_MODE_APPEND | NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR,
		  "APPEND|CIRCULAR", 0 },
		{ NTTRACE_EVENT_TRACE_FILE_MODE_APPEND | NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE,
		  "APPEND|NEWFILE", 0 },
		{ NTTRACE_EVENT_TRACE_FILE_MODE_APPEND | NTTRACE_EVENT_TRACE_REAL_TIME_MODE,
		  "APPEND|REAL_TIME", 0 },
		{ NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE, "NEWFILE", 1 },
		{ NTTRACE_EVENT_TRACE_FILE_MODE_PREALLOCATE, "PREALLOCATE", 1 },
		{ NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE | NTTRACE_EVENT_TRACE_FILE_MODE_PREALLOCATE,
		  "NEWFILE|PREALLOCATE", 1 },
		{ NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE | NTTRACE_EVENT_TRACE_FILE_MODE_SEQUENTIAL,
		  "NEWFILE|SEQUENTIAL", 0 },
		{ NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE | NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR,
		  "NEWFILE|CIRCULAR", 0 },
		{ NTTRACE_EVENT_TRACE_INDEPENDENT_SESSION_MODE, "INDEPENDENT_SESSION", 1 },
		{ NTTRACE_EVENT_TRACE_COMPRESSED_MODE, "COMPRESSED", 1 },
		{ NTTRACE_EVENT_TRACE_COMPRESSED_MODE | NTTRACE_EVENT_TRACE_FILE_MODE_SEQUENTIAL,
		  "COMPRESSED|SEQUENTIAL", 1 },
		{ NTTRACE_EVENT_TRACE_COMPRESSED_MODE | NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR,
		  "COMPRESSED|CIRCULAR", 0 },
		{ NTTRACE_EVENT_TRACE_COMPRESSED_MODE | NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE,
		  "COMPRESSED|NEWFILE", 0 },
		{ NTTRACE_EVENT_TRACE_COMPRESSED_MODE | NTTRACE_EVENT_TRACE_FILE_MODE_APPEND,
		  "COMPRESSED|APPEND", 0 },
		{ NTTRACE_EVENT_TRACE_NONSTOPPABLE_MODE, "NONSTOPPABLE", 0 },
		{ NTTRACE_EVENT_TRACE_DELAY_OPEN_FILE_MODE, "DELAY_OPEN_FILE", 0 },
		{ NTTRACE_EVENT_TRACE_PRIVATE_LOGGER_MODE, "PRIVATE_LOGGER", 0 },
		{ NTTRACE_EVENT_TRACE_ADD_HEADER_MODE, "ADD_HEADER", 0 },
		{ NTTRACE_EVENT_TRACE_USE_KBYTES_FOR_SIZE, "USE_KBYTES_FOR_SIZE", 0 },
		{ NTTRACE_EVENT_TRACE_RELOG_MODE, "RELOG", 0 },
		{ NTTRACE_EVENT_TRACE_PRIVATE_IN_PROC, "PRIVATE_IN_PROC", 0 },
		{ NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY, "USE_PAGED_MEMORY", 1 },
		{ NTTRACE_EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING, "NO_PER_PROCESSOR_BUFFERING", 1 },
		{ NTTRACE_EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING |
		  NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR | NTTRACE_EVENT_TRACE_REAL_TIME_MODE,
		  "NO_PER_PROCESSOR_BUFFERING|CIRCULAR|REAL_TIME", 1 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		mode_bits = modes[i].bit;
		tap_eq(-start_with("modes", t_mode), modes[i].ok ? 0 : EINVAL,
		       "%d-bit: mode %s -> %s", BITS, modes[i].name,
		       modes[i].ok ? "accepted" : "EINVAL");
	}
}

/*
 * The sequence numbers of session @id's messages, all CPUs: stops the
 * session, then walks the first buffer of each CPU. Returns how many.
 */
static unsigned int read_seqs(uint32_t id, uint32_t *seqs, unsigned int room)
{
	struct nttrace_consumer *c;
	struct nttrace_attach a;
	unsigned int cpu, n = 0;

	if (nttrace_consumer_open(&c, id))
		return 0;
	nttrace_consumer_attach_info(c, &a);
	stop_session(id);
	for (cpu = 0; cpu < a.nr_cpus; cpu++) {
		const uint8_t *buf = nttrace_consumer_ring(c, cpu);
		const struct nttrace_wmi_buffer_header *h = (const void *)buf;
		uint32_t off = NTTRACE_WMI_BUFFER_HEADER_SIZE;

		if (!nttrace_consumer_head(c, cpu)->produced)
			continue;
		while (off + 12 <= h->saved_offset && n < room) {
			const struct nttrace_message_trace_header *m = (const void *)(buf + off);

			memcpy(&seqs[n++], buf + off + 8, 4);
			off += (m->size + 7) & ~7U;
		}
	}
	nttrace_consumer_close(c);
	return n;
}

/* GLOBAL_SEQUENCE numbers run across sessions; LOCAL ones per session. */
TEST_F(nttrace, sequence_modes)
{
	struct nttrace_logger_info g1, g2, l1;
	uint32_t s1[4] = { 0 }, s2[4] = { 0 }, sl[4] = { 0 }, lo, hi;
	unsigned int n1, n2, nl;

	start_session("glob1", 4, 2, NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE, &g1);
	start_session("glob2", 4, 2, NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE, &g2);
	start_session("local1", 4, 2, NTTRACE_EVENT_TRACE_USE_LOCAL_SEQUENCE, &l1);
	emit(g1.logger_id, NTTRACE_TRACE_MESSAGE_SEQUENCE, 1, "a", 1);
	emit(g2.logger_id, NTTRACE_TRACE_MESSAGE_SEQUENCE, 1, "b", 1);
	emit(g1.logger_id, NTTRACE_TRACE_MESSAGE_SEQUENCE, 1, "c", 1);
	emit(l1.logger_id, NTTRACE_TRACE_MESSAGE_SEQUENCE, 1, "d", 1);
	n1 = read_seqs(g1.logger_id, s1, 4);
	n2 = read_seqs(g2.logger_id, s2, 4);
	nl = read_seqs(l1.logger_id, sl, 4);
	lo = s1[0] < s1[1] ? s1[0] : s1[1];
	hi = s1[0] < s1[1] ? s1[1] : s1[0];
	tap_ok(n1 == 2 && n2 == 1 && hi == lo + 2 && s2[0] == lo + 1,
	       "%d-bit: global sequence runs across sessions (%u, %u, %u)",
	       BITS, lo, s2[0], hi);
	tap_ok(nl == 1 && sl[0] == 1, "%d-bit: local sequence starts at 1 per session", BITS);
}

TEST_F(nttrace, lifecycle)
{
	struct nttrace_logger_info a, b, q;
	uint32_t ids[4], n = 0;

	tap_eq(start_session("life", 0, 0, 0, &a), 0, "%d-bit: start with defaults", BITS);
	tap_ok(a.logger_id >= 1 && a.logger_id <= NTTRACE_MAX_LOGGERS,
	       "%d-bit: logger ID %u in 1..%d", BITS, a.logger_id, NTTRACE_MAX_LOGGERS);
	tap_eq(a.buffer_size_kb, NTTRACE_DEFAULT_BUFFER_KB, "%d-bit: default buffer size", BITS);
	tap_eq(a.min_buffers, NTTRACE_MIN_BUFFERS, "%d-bit: default minimum buffers", BITS);
	tap_eq(a.max_buffers, NTTRACE_DEFAULT_BUFFERS, "%d-bit: default maximum buffers", BITS);
	tap_eq(a.clock_type, NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER, "%d-bit: default clock", BITS);
	tap_eq(a.clock_frequency, 1000000000ULL, "%d-bit: perf clock frequency", BITS);
	tap_ok(a.nr_cpus >= 2, "%d-bit: a ring per CPU (%u)", BITS, a.nr_cpus);
	tap_eq(a.number_of_buffers, a.nr_cpus * a.max_buffers, "%d-bit: buffers allocated", BITS);
	tap_eq(a.free_buffers, a.number_of_buffers, "%d-bit: all buffers free", BITS);
	tap_eq(a.owner_uid, getuid(), "%d-bit: owner uid", BITS);
	tap_eq(a.owner_pid, getpid(), "%d-bit: owner pid", BITS);
	tap_eq(strcmp((char *)a.name, "life"), 0, "%d-bit: name echoed", BITS);

	tap_eq(-start_session("life", 0, 0, 0, &b), EEXIST, "%d-bit: same name -> EEXIST", BITS);
	tap_eq(-start_session("LIFE", 0, 0, 0, &b), EEXIST,
	       "%d-bit: names compare without case -> EEXIST", BITS);

	memset(&q, 0, sizeof(q));
	nttrace_set_name(&q, "Life");
	tap_eq(nttrace_control(&q, NTTRACE_EVENT_TRACE_CONTROL_QUERY), 0, "%d-bit: query by name",
	       BITS);
	tap_eq(q.logger_id, a.logger_id, "%d-bit: query by name finds the ID", BITS);
	memset(&q, 0, sizeof(q));
	q.logger_id = a.logger_id;
	tap_eq(nttrace_control(&q, NTTRACE_EVENT_TRACE_CONTROL_QUERY), 0, "%d-bit: query by ID",
	       BITS);

	tap_eq(nttrace_list(ids, 4, &n), 0, "%d-bit: list", BITS);
	tap_ok(n >= 1 && ids[0] <= a.logger_id, "%d-bit: list has the session", BITS);
	tap_eq(nttrace_list(ids, 0, &n), 0, "%d-bit: list with no room still counts", BITS);
	tap_ok(n >= 1, "%d-bit: list count without room", BITS);

	/* UPDATE: the flush timer may change; the rest may not. */
	memset(&q, 0, sizeof(q));
	q.logger_id = a.logger_id;
	q.flush_timer = 5;
	tap_eq(nttrace_control(&q, NTTRACE_EVENT_TRACE_CONTROL_UPDATE), 0,
	       "%d-bit: update flush timer", BITS);
	tap_eq(q.flush_timer, 5, "%d-bit: flush timer updated", BITS);
	memset(&q, 0, sizeof(q));
	q.logger_id = a.logger_id;
	q.buffer_size_kb = 128;
	tap_eq(-nttrace_control(&q, NTTRACE_EVENT_TRACE_CONTROL_UPDATE), EINVAL,
	       "%d-bit: update of the buffer size -> EINVAL", BITS);

	memset(&q, 0, sizeof(q));
	q.logger_id = a.logger_id;
	tap_eq(nttrace_control(&q, NTTRACE_EVENT_TRACE_CONTROL_FLUSH), 0, "%d-bit: flush", BITS);
	tap_eq(-nttrace_control(&q, 4), EINVAL, "%d-bit: control code 4 -> EINVAL", BITS);

	tap_eq(stop_session(a.logger_id), 0, "%d-bit: stop", BITS);
	tap_eq(-stop_session(a.logger_id), ENOENT, "%d-bit: stop again -> ENOENT", BITS);
	memset(&q, 0, sizeof(q));
	q.logger_id = a.logger_id;
	tap_eq(-nttrace_control(&q, NTTRACE_EVENT_TRACE_CONTROL_QUERY), ENOENT,
	       "%d-bit: query a stopped session -> ENOENT", BITS);
	tap_eq(emit(a.logger_id, 0, 1, "x", 1), STATUS_INVALID_HANDLE,
	       "%d-bit: message to a stopped session -> STATUS_INVALID_HANDLE", BITS);
	memset(&q, 0, sizeof(q));
	nttrace_set_name(&q, "nosuch");
	tap_eq(-nttrace_control(&q, NTTRACE_EVENT_TRACE_CONTROL_QUERY), ENOENT,
	       "%d-bit: unknown name -> ENOENT", BITS);
	memset(&q, 0, sizeof(q));
	q.logger_id = 0xFFFF;
	tap_eq(-nttrace_control(&q, NTTRACE_EVENT_TRACE_CONTROL_QUERY), ENOENT,
	       "%d-bit: ID 0xFFFF -> ENOENT", BITS);

	/* Sizes round up to whole pages. */
	tap_eq(start_session("round", 5, 2, 0, &b), 0, "%d-bit: start with 5 KB buffers", BITS);
	tap_eq(b.buffer_size_kb, 8, "%d-bit: 5 KB rounds up to 8 KB", BITS);
	stop_session(b.logger_id);
}

TEST_F(nttrace, limits)
{
	struct nttrace_logger_info info, more, third;
	uint32_t ids[NTTRACE_MAX_LOGGERS];
	unsigned int n = 0, i, bad = 0;
	long old_user, old_total, old_session;
	char name[32];

	/* A user's sessions: at most max_user_sessions. */
	old_user = set_param("max_user_sessions", 2);
	start_session("quota-1", 4, 2, 0, &info);
	start_session("quota-2", 4, 2, 0, &more);
	tap_eq(-start_session("quota-3", 4, 2, 0, &third), EDQUOT,
	       "%d-bit: a third session of one user, limit 2 -> EDQUOT", BITS);
	stop_session(info.logger_id);
	stop_session(more.logger_id);

	/* All sessions' memory: at most max_total_mb. */
	old_total = set_param("max_total_mb", 3);
	tap_eq(start_session("total-1", 128, 8, 0, &info), 0,
	       "%d-bit: one session of 2 MB under a 3 MB total", BITS);
	if (!tap_eq(-start_session("total-2", 128, 8, 0, &more), ENOBUFS,
		    "%d-bit: a second one past the total -> ENOBUFS", BITS))
		stop_session(more.logger_id);
	stop_session(info.logger_id);
	tap_eq(start_session("total-2", 128, 8, 0, &more), 0,
	       "%d-bit: memory given back at stop", BITS);
	stop_session(more.logger_id);
	set_param("max_total_mb", old_total);

	/* Defaults scale down to fit max_session_mb (many possible CPUs). */
	old_session = set_param("max_session_mb", 1);
	tap_eq(start_session("scaled", 0, 0, 0, &info), 0,
	       "%d-bit: defaults start under a 1 MB session limit", BITS);
	tap_ok(info.max_buffers >= NTTRACE_MIN_BUFFERS &&
	       info.max_buffers < NTTRACE_DEFAULT_BUFFERS &&
	       (uint64_t)info.nr_cpus * info.max_buffers * info.buffer_size_kb <= 1024,
	       "%d-bit: default buffers scaled to %u per CPU", BITS, info.max_buffers);
	stop_session(info.logger_id);
	tap_eq(-start_session("scaled", 0, 16, 0, &info), E2BIG,
	       "%d-bit: asking for 16 buffers still -> E2BIG", BITS);
	set_param("max_session_mb", old_session);

	set_param("max_user_sessions", NTTRACE_MAX_LOGGERS);

	for (i = 0; i < NTTRACE_MAX_LOGGERS + 1; i++) {
		snprintf(name, sizeof(name), "many-%u", i);
		if (start_session(name, 4, 2, 0, &info))
			break;
		ids[n++] = info.logger_id;
		if (info.logger_id == 0 || info.logger_id == 0xFFFF)
			bad++;
	}
	tap_eq(n, NTTRACE_MAX_LOGGERS, "%d-bit: %d sessions can run", BITS, NTTRACE_MAX_LOGGERS);
	tap_eq(-start_session("one-too-many", 4, 2, 0, &info), EMFILE,
	       "%d-bit: one more -> EMFILE", BITS);
	tap_eq(bad, 0, "%d-bit: IDs 0 and 0xFFFF never handed out", BITS);
	for (i = 0; i < n; i++)
		if (stop_session(ids[i]))
			bad++;
	tap_eq(bad, 0, "%d-bit: all stopped", BITS);
	set_param("max_user_sessions", old_user);
}

/* Another user may query, but neither stop nor consume. */
TEST_F(nttrace, permissions)
{
	struct nttrace_logger_info info;
	int status = -1;
	pid_t pid;

	if (getuid() != 0) {
		SKIP(return, "%d-bit: # SKIP permissions need root", BITS);
	}
	tap_eq(start_session("owned", 4, 2, 0, &info), 0, "%d-bit: start as root", BITS);
	pid = fork();
	if (pid == 0) {
		struct nttrace_logger_info q = { .logger_id = info.logger_id };
		struct nttrace_consumer *c;

		if (setuid(65534))
			_exit(10);
		if (nttrace_control(&q, NTTRACE_EVENT_TRACE_CONTROL_QUERY))
			_exit(11);
		if (nttrace_control(&q, NTTRACE_EVENT_TRACE_CONTROL_STOP) != -EPERM)
			_exit(12);
		if (nttrace_consumer_open(&c, info.logger_id) != -EPERM)
			_exit(13);
		if (emit(info.logger_id, 0, 1, "x", 1) != STATUS_SUCCESS)
			_exit(14);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	tap_eq(WIFEXITED(status) ? WEXITSTATUS(status) : 99, 0,
	       "%d-bit: other user: query yes, stop and attach EPERM, trace yes", BITS);
	tap_eq(stop_session(info.logger_id), 0, "%d-bit: owner stops", BITS);
}

/*
 * Ring memory is charged to the starter's memory cgroup: a session grows
 * the group's memory.current by about its size, and one larger than the
 * group's memory.max fails with ENOMEM (no OOM kill).
 */
#define CG "/sys/fs/cgroup"
TEST_F(nttrace, memcg)
{
	struct nttrace_logger_info info;
	long before, during;
	int status = -1;
	pid_t pid;

	mkdir(CG, 0755);
	if (getuid() != 0 ||
	    (access(CG "/cgroup.controllers", F_OK) &&
	     mount("none", CG, "cgroup2", 0, NULL)) ||
	    system("grep -qw memory " CG "/cgroup.controllers")) {
		SKIP(return, "%d-bit: # SKIP needs root and the memory controller", BITS);
	}
	spew(CG "/cgroup.subtree_control", "+memory\n", 8);
	rmdir(CG "/nttrace-test");
	mkdir(CG "/nttrace-test", 0755);
	spew(CG "/nttrace-test/memory.max", "8388608\n", 8);
	pid = fork();
	if (pid == 0) {
		char me[32];
		int n = snprintf(me, sizeof(me), "%d\n", getpid());

		spew(CG "/nttrace-test/cgroup.procs", me, n);
		before = read_number(CG "/nttrace-test/memory.current");
		if (start_session("memcg-small", 64, 16, 0, &info))
			_exit(10);
		during = read_number(CG "/nttrace-test/memory.current");
		stop_session(info.logger_id);
		printf("# memory.current %ld -> %ld with a %u KB session\n", before,
		       during, info.nr_cpus * info.max_buffers * info.buffer_size_kb);
		if ((long long)during - before < (long long)info.nr_cpus *
		    info.max_buffers * info.buffer_size_kb * 1024)
			_exit(11);
		if (start_session("memcg-big", 1024, 8, 0, &info) != -ENOMEM)
			_exit(12);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	tap_eq(WIFEXITED(status) ? WEXITSTATUS(status) : 99, 0,
	       "%d-bit: rings charged to the memory cgroup; past memory.max -> ENOMEM",
	       BITS);
	rmdir(CG "/nttrace-test");
}

/*
 * PID namespaces: a query reports the owner's PID as the caller's
 * namespace sees it (0 when it cannot), and only a consumer in the
 * starter's namespace, whose IDs the events carry, may attach.
 */
TEST_F(nttrace, pid_namespace)
{
	struct nttrace_logger_info info;
	int status = -1;
	pid_t pid;

	if (getuid() != 0) {
		SKIP(return, "%d-bit: # SKIP namespaces need root", BITS);
	}
	tap_eq(start_session("pidns", 4, 2, 0, &info), 0, "%d-bit: start", BITS);
	pid = fork();
	if (pid == 0) {
		struct nttrace_logger_info q;
		struct nttrace_consumer *c;
		int st = -1;
		pid_t inner;

		if (unshare(CLONE_NEWPID))
			_exit(errno == EINVAL ? 77 : 10);	/* no CONFIG_PID_NS */
		inner = fork();	/* the first child is PID 1 of the new namespace */
		if (inner == 0) {
			memset(&q, 0, sizeof(q));
			q.logger_id = info.logger_id;
			if (nttrace_control(&q, NTTRACE_EVENT_TRACE_CONTROL_QUERY) ||
			    q.owner_pid != 0)
				_exit(11);
			if (nttrace_consumer_open(&c, info.logger_id) != -EXDEV)
				_exit(12);
			_exit(getpid() == 1 ? 0 : 13);
		}
		waitpid(inner, &st, 0);
		_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 14);
	}
	waitpid(pid, &status, 0);
	/*
	 * Every kernel this runs on has PID namespaces (the test kernels'
	 * CONFIG_PID_NS, Debian's): without them this is a failure, not a
	 * skip, so that the check cannot silently stop running.
	 */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		tap_ok(0, "%d-bit: this kernel has no PID namespaces (CONFIG_PID_NS)", BITS);
	else
		tap_eq(WIFEXITED(status) ? WEXITSTATUS(status) : 99, 0,
		       "%d-bit: from a child PID namespace: owner PID 0, attach -> EXDEV",
		       BITS);
	stop_session(info.logger_id);
}

/* The flush timer publishes a partly filled buffer by itself. */
TEST_F(nttrace, flush_timer)
{
	struct nttrace_logger_info info;
	struct nttrace_consumer *c;
	int i;

	memset(&info, 0, sizeof(info));
	nttrace_set_name(&info, "timer");
	info.flush_timer = 1;
	tap_eq(nttrace_start(&info), 0, "%d-bit: start with a 1 s flush timer", BITS);
	tap_eq(nttrace_consumer_open(&c, info.logger_id), 0, "%d-bit: attach", BITS);
	tap_eq(emit(info.logger_id, NTTRACE_TRACE_MESSAGE_SEQUENCE, 1, "tick", 4), STATUS_SUCCESS,
	       "%d-bit: one event", BITS);
	/*
	 * Nothing else publishes it: wait for the timer however long it
	 * takes (a timer that never fires hangs here; vm-run's timeout
	 * reports it).
	 */
	for (i = 0; !nttrace_consumer_head(c, 0)->produced &&
		    !nttrace_consumer_head(c, 1)->produced; i++)
		usleep(100000);	/* a pace for the poll, not a limit */
	tap_ok(1, "%d-bit: published by the timer (after %d polls)", BITS, i);
	nttrace_consumer_close(c);
	stop_session(info.logger_id);
}

/*
 * Function-call IPIs the CPUs have received ("CAL" in /proc/interrupts,
 * x86), summed; -1 when the line is not there.
 */
static long call_ipis(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[4096], *p, *end;
	long total = -1, v;

	while (f && fgets(line, sizeof(line), f)) {
		for (p = line; *p == ' '; p++)
			;
		if (strncmp(p, "CAL:", 4))
			continue;
		total = 0;
		for (p += 4; (v = strtol(p, &end, 10)), end != p; p = end)
			total += v;
	}
	if (f)
		fclose(f);
	return total;
}

/*
 * The calls one CPU makes another run, as the kernel's trace events record
 * them (Linux 6.6 and later), in a tracefs instance of the test's own:
 * csd:csd_queue_cpu names the function queued for the target CPU
 * (smp_call_function_single(), a remote irq_work), ipi:ipi_send_cpu and
 * ipi:ipi_send_cpumask the interrupts sent with the code that asked for
 * them (callsite) and the function the target is to run (callback).
 */
#define TRACEFS		"/sys/kernel/tracing"
#define IPI_TRACE	TRACEFS "/instances/nttrace-ipi"
static const char *const ipi_events[] = {
	"csd/csd_queue_cpu", "ipi/ipi_send_cpu", "ipi/ipi_send_cpumask",
};

static void ipi_trace_enable(const char *value)
{
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(ipi_events) / sizeof(ipi_events[0]); i++) {
		snprintf(path, sizeof(path), IPI_TRACE "/events/%s/enable", ipi_events[i]);
		spew(path, value, 1);
	}
}

/* Start recording; 0, or -1 when the kernel has no such events. */
static int ipi_trace_start(void)
{
	char path[128];
	size_t i;

	if (access(TRACEFS "/events", F_OK))
		mount("nodev", TRACEFS, "tracefs", 0, NULL);
	for (i = 0; i < sizeof(ipi_events) / sizeof(ipi_events[0]); i++) {
		snprintf(path, sizeof(path), TRACEFS "/events/%s", ipi_events[i]);
		if (access(path, F_OK))
			return -1;
	}
	if (mkdir(IPI_TRACE, 0700) && errno != EEXIST)
		return -1;
	spew(IPI_TRACE "/trace", "", 0);
	ipi_trace_enable("1");
	return 0;
}

/*
 * Whether a traced call went from one CPU to another: csd_queue_cpu and
 * ipi_send_cpu name the target, which may be the sender itself (irq_work's
 * self-interrupt is one); ipi_send_cpumask, as smp_call_function_many()
 * sends it, never includes the sender.
 */
static int ipi_cross_cpu(const char *line)
{
	const char *p, *ev = strstr(line, "csd_queue_cpu: cpu=");
	int from = -1, to = -1;

	if (!ev)
		ev = strstr(line, "ipi_send_cpu: cpu=");
	if (!ev)
		return strstr(line, "ipi_send_cpumask:") != NULL;
	/* The sender: the first "[NNN]" after the task, "task-pid [001] ..." */
	for (p = strchr(line, '['); p && p < ev; p = strchr(p + 1, '['))
		if (sscanf(p, "[%d]", &from) == 1)
			break;
	sscanf(strchr(ev, '='), "=%d", &to);
	return from < 0 || from != to;
}

/*
 * Stop recording. Returns how many calls from one CPU to another
 * nttrace's code made or had the target run (a callsite, callback or
 * function in the module: "[nttrace]"), showing each; *@all gets how many
 * events were traced in all. -1 when the trace cannot tell: unreadable, or it lost
 * events (entries-in-buffer below entries-written).
 */
static long ipi_trace_stop(long *all)
{
	long ours = 0, in_buffer = -1, written = -2;
	char line[1024];
	FILE *f;

	ipi_trace_enable("0");
	*all = 0;
	f = fopen(IPI_TRACE "/trace", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "# entries-in-buffer/entries-written: %ld/%ld",
			   &in_buffer, &written) == 2 || line[0] == '#')
			continue;
		++*all;
		if (strstr(line, "[nttrace]") && ipi_cross_cpu(line)) {
			ours++;
			printf("# %s", line);
		}
	}
	if (f)
		fclose(f);
	rmdir(IPI_TRACE);
	return in_buffer == written ? ours : -1;
}

#define IPI_SESSIONS	8

/*
 * A writer pinned to @cpu: says it is ready on @ready, writes an event to
 * each session 10 times a second for 5 s once @go is written, says so,
 * and waits for @go to close. The events' status does not matter here:
 * in a session nobody reads, they are lost once its buffers are full (and
 * counted).
 */
static void timer_writer(const uint32_t *loggers, int cpu, int ready, int go, int go_out)
{
	cpu_set_t set;
	char c = 'r';
	int i, k;

	/* Only the parent may keep the write end: its close is our EOF. */
	close(go_out);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || write(ready, &c, 1) != 1 ||
	    read(go, &c, 1) != 1)
		_exit(2);
	for (i = 0; i < 50; i++) {
		for (k = 0; k < IPI_SESSIONS; k++)
			emit(loggers[k], 0, 1, "tick", 4);
		usleep(100000);
	}
	if (write(ready, &c, 1) != 1)
		_exit(2);
	while (read(go, &c, 1) > 0)
		;
	_exit(0);
}

/*
 * The flush timer calls no CPU from another: each ring's timer runs on its
 * own CPU. Both CPUs write to 8 sessions for 5 s with a 1 s timer; the
 * session-wide work it replaced sent, each period, a function-call IPI
 * from the CPU it ran on to the other, whose buffer was partly filled: 8
 * sessions, about 40 IPIs (measured: 8 for one session, on the bench
 * kernel). The guest sends some of its own (KFENCE's static keys, RCU),
 * as many as the time the run takes brings, so a count proves nothing:
 * the kernel's trace events say who asked another CPU to run what, and
 * nothing may come from the module. A kernel without those events skips the check.
 */
TEST_F(nttrace, flush_timer_no_ipi)
{
	int ready[2] = { -1, -1 }, go[2] = { -1, -1 }, status, i, ok = 1;
	uint32_t loggers[IPI_SESSIONS] = { 0 };
	struct nttrace_logger_info info;
	struct nttrace_consumer *c;
	pid_t pid[2] = { -1, -1 };
	long before, after, ours = -1, all = 0;
	int traced = -1;
	char byte;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || call_ipis() < 0) {
		SKIP(return, "%d-bit: flush timer IPIs # SKIP not 2 CPUs or no CAL line", BITS);
	}
	for (i = 0; ok && i < IPI_SESSIONS; i++) {
		char name[32];

		memset(&info, 0, sizeof(info));
		snprintf(name, sizeof(name), "timer-ipi-%d", i);
		nttrace_set_name(&info, name);
		info.flush_timer = 1;
		ok = nttrace_start(&info) == 0;
		loggers[i] = ok ? info.logger_id : 0;
	}
	tap_ok(ok, "%d-bit: %d sessions with a 1 s flush timer", BITS, IPI_SESSIONS);
	ok = ok && nttrace_consumer_open(&c, loggers[0]) == 0;
	if (ok && (pipe(ready) || pipe(go)))
		ok = 0;
	for (i = 0; ok && i < 2; i++) {
		pid[i] = fork();
		if (!pid[i])
			timer_writer(loggers, i, ready[1], go[0], go[1]);
		ok = pid[i] > 0;
	}
	/* Only the writers keep these: one that dies ends our reads. */
	close(ready[1]);
	close(go[0]);
	for (i = 0; ok && i < 2; i++)
		ok = read(ready[0], &byte, 1) == 1;
	traced = ok ? ipi_trace_start() : -1;
	before = call_ipis();
	ok = ok && write(go[1], "gg", 2) == 2;
	for (i = 0; ok && i < 2; i++)
		ok = read(ready[0], &byte, 1) == 1;
	after = call_ipis();
	if (!traced)
		ours = ipi_trace_stop(&all);
	close(go[1]);
	close(ready[0]);
	for (i = 0; i < 2; i++)
		ok = pid[i] > 0 && waitpid(pid[i], &status, 0) == pid[i] &&
		     WIFEXITED(status) && !WEXITSTATUS(status) && ok;
	tap_ok(ok, "%d-bit: two writers, one on each CPU, 5 s", BITS);
	printf("# function-call IPIs during the 5 s: %ld; csd and ipi events traced: %ld\n",
	       after - before, all);
	if (traced)
		tap_ok(1, "%d-bit: the flush timers send no IPI # SKIP no csd or ipi trace events", BITS);
	else
		tap_ok(ok && ours == 0,
		       "%d-bit: the flush timers send no IPI (%ld of the %ld traced came from nttrace)",
		       BITS, ours, all);
	tap_ok(ok && nttrace_consumer_head(c, 0)->produced &&
	       nttrace_consumer_head(c, 1)->produced,
	       "%d-bit: each CPU's buffers were published", BITS);
	if (loggers[0])
		nttrace_consumer_close(c);
	for (i = 0; i < IPI_SESSIONS; i++)
		if (loggers[i])
			stop_session(loggers[i]);
}

int main(int argc, char **argv)
{
	if (!tap_ok(nttrace_device_fd() >= 0, "%d-bit: open %s", BITS, NTTRACE_DEVICE))
		return tap_done();
	return harness_run(argc, argv);
}
