// SPDX-License-Identifier: GPL-2.0
/*
 * The NT Kernel Logger's own events, end to end: StartTrace(KERNEL_LOGGER_NAME)
 * with PROCESS, THREAD, IMAGE_LOAD, CSWITCH and DISPATCHER into a file,
 * a known program (a child that starts a thread, execs this program
 * again with known arguments, maps a file with execute permission and
 * exits with 7), StopTrace, and the file read back with nttrace's reader:
 * the child's Process, Thread and Image events with the right IDs, names
 * and command lines, its context switches and readyings, the rundowns
 * listing every process /proc listed, and one Process/Start compared
 * byte for byte with an encoder written here from Microsoft's
 * Process_V4_TypeGroup1 documentation. 64- and 32-bit (the records are
 * the 64-bit kernel's either way).
 *
 * What a process cannot choose: the child execs through /proc/self/exe
 * (which makes the comm "exe") and the parent renames itself
 * (prctl(PR_SET_NAME)) before the stop, and ImageFileName is still the
 * program file's name in the exec's Process/Start and the parent's DCEnd.
 * A file mapped readable and then made executable (mprotect(PROT_EXEC))
 * is an Image/Load as a mapping made executable at once is; its munmap()
 * is an Image/Unload.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include <nttrace/evntrace.h>
#include "expect.h"
#include "props.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define FLAGS (EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD | \
	       EVENT_TRACE_FLAG_IMAGE_LOAD | EVENT_TRACE_FLAG_CSWITCH | \
	       EVENT_TRACE_FLAG_DISPATCHER)
#define HOOK(g, t) ((g) << 8 | (t))

static char self[256];

static void *thread_fn(void *arg)
{
	int *pipe_w = arg;
	pid_t tid = syscall(SYS_gettid);

	if (write(*pipe_w, &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	usleep(20000);
	return NULL;
}

/*
 * After the exec: map this program's file executable, and again readable
 * only, that mapping then made executable; then exit 7.
 */
static int child_after_exec(void)
{
	int fd = open(self, O_RDONLY);
	void *p, *q;

	if (fd < 0)
		return 1;
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	q = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED || q == MAP_FAILED)
		return 2;
	if (mprotect(q, 4096, PROT_READ | PROT_EXEC))
		return 5;
	/* As dlclose() unmaps a library: an Image/Unload. */
	if (munmap(p, 4096))
		return 6;
	usleep(10000);
	return 7;
}

/*
 * The child: a thread, whose ID goes to the parent; then the exec, through
 * /proc/self/exe (the comm becomes "exe"; the program is this one).
 */
static void child(int pipe_w)
{
	pthread_t th;
	char *argv[] = { self, "--child", "alpha beta", NULL };

	if (pthread_create(&th, NULL, thread_fn, &pipe_w) || pthread_join(th, NULL))
		_exit(3);
	execv("/proc/self/exe", argv);
	_exit(4);
}

/* What was seen of the run. */
struct seen {
	pid_t parent, child, child_tid;
	int start_fork, start_exec, end_exec, end_final, thread_start, thread_end;
	int images_exec, images_mmap, cswitch, ready, unloads, unload_size_ok;
	int dcstart_idle, dcend_self;
	char dcend_image[32];	/* this process's ImageFileName at the stop */
	int config_cpu;		/* SysConfig CPU with the right count and name */
	int exit_status;
	char cmdline[256];
	uint8_t start_rec[512];
	uint32_t start_len, start_header;
	int *alive;		/* PIDs /proc listed, cleared as DCStart names them */
	int nalive;
};

/* UTF-16LE at @p (NUL-ended within @room) as ASCII into @out. */
static uint32_t utf16z(const uint8_t *p, uint32_t room, char *out, size_t out_room)
{
	uint32_t i = 0;

	while (i + 1 < room && (p[i] | p[i + 1])) {
		if (i / 2 + 1 < out_room)
			out[i / 2] = p[i];
		i += 2;
	}
	out[(i / 2 < out_room ? i / 2 : out_room - 1)] = 0;
	return i + 2;
}

/* Process_V4_TypeGroup1's fields up to ImageFileName, and the strings. */
struct process_fields {
	uint32_t pid, ppid;
	int32_t exit_status;
	const char *image;
	char cmdline[256];
};

static int parse_process(const uint8_t *d, uint32_t len, struct process_fields *f)
{
	uint32_t at, sid_len;

	if (len < 0x30)
		return -1;
	f->pid = get_le(d + 8, 4);
	f->ppid = get_le(d + 12, 4);
	f->exit_status = (int32_t)get_le(d + 20, 4);
	/* UserSID: TOKEN_USER (16 bytes), the SID: 8 + 4 per sub-authority. */
	at = 0x24;
	if (!get_le(d + at, 4))
		at += 4;
	else {
		sid_len = 8 + 4 * d[at + 16 + 1];
		at += 16 + sid_len;
	}
	if (at >= len)
		return -1;
	f->image = (const char *)d + at;
	at += strnlen(f->image, len - at) + 1;
	if (at > len)
		return -1;
	utf16z(d + at, len - at, f->cmdline, sizeof(f->cmdline));
	return 0;
}

static void on_event(struct seen *s, const struct nttrace_etl_event *ev)
{
	struct process_fields f;
	const uint8_t *d = ev->data;
	int i;

	switch (ev->hook_id) {
	case HOOK(3, 1):	/* Process/Start */
	case HOOK(3, 2):	/* Process/End */
	case HOOK(3, 3):	/* DCStart */
	case HOOK(3, 4):	/* DCEnd */
		if (parse_process(d, ev->data_len, &f))
			return;
		if (ev->hook_id == HOOK(3, 3)) {
			s->dcstart_idle += f.pid == 0;
			for (i = 0; i < s->nalive; i++)
				if (s->alive[i] == (int)f.pid)
					s->alive[i] = -1;
		}
		if (ev->hook_id == HOOK(3, 4) && f.pid == (uint32_t)s->parent) {
			s->dcend_self++;
			snprintf(s->dcend_image, sizeof(s->dcend_image), "%s", f.image);
		}
		if (f.pid != (uint32_t)s->child)
			return;
		if (ev->hook_id == HOOK(3, 1)) {
			if (!s->end_exec) {
				s->start_fork += f.ppid == (uint32_t)s->parent &&
						 ev->pid == (uint32_t)s->parent;
			} else {
				s->start_exec += f.ppid == (uint32_t)s->parent;
				snprintf(s->cmdline, sizeof(s->cmdline), "%s", f.cmdline);
				if (ev->size <= sizeof(s->start_rec)) {
					memcpy(s->start_rec, ev->rec, ev->size);
					s->start_len = ev->size;
					s->start_header = ev->system;
				}
			}
		} else if (ev->hook_id == HOOK(3, 2)) {
			if (!s->start_exec)
				s->end_exec += !f.image[0] && !f.exit_status;
			else {
				s->end_final++;
				s->exit_status = f.exit_status;
			}
		}
		break;
	case HOOK(5, 1):	/* Thread/Start */
	case HOOK(5, 2):
		if (ev->data_len >= 8 && get_le(d, 4) == (uint32_t)s->child &&
		    get_le(d + 4, 4) == (uint32_t)s->child_tid) {
			if (ev->hook_id == HOOK(5, 1))
				s->thread_start++;
			else
				s->thread_end++;
		}
		break;
	case HOOK(0x14, 10):	/* Image/Load */
	case HOOK(0x14, 2):	/* Image/Unload: the same layout */
		if (ev->data_len > 0x38 && get_le(d + 16, 4) == (uint32_t)s->child) {
			char name[256];

			utf16z(d + 0x38, ev->data_len - 0x38, name, sizeof(name));
			if (strcmp(name, self))
				break;
			if (ev->hook_id == HOOK(0x14, 2)) {
				s->unloads++;
				s->unload_size_ok += get_le(d + 8, 8) >= 4096 && ev->version == 3;
			} else {
				s->images_exec++;
			}
		}
		break;
	case HOOK(5, 36):	/* CSwitch */
		if (ev->data_len >= 8 && (get_le(d, 4) == (uint32_t)s->child_tid ||
					  get_le(d + 4, 4) == (uint32_t)s->child_tid))
			s->cswitch++;
		break;
	case HOOK(0x0B, 10): {	/* SysConfig CPU: MHz, processors, ... name at 0x14 */
		char name[80], host[80];

		if (ev->data_len < 0x14 + 512)
			break;
		utf16z(d + 0x14, 512, name, sizeof(name));
		gethostname(host, sizeof(host));
		s->config_cpu += get_le(d + 4, 4) == (uint32_t)sysconf(_SC_NPROCESSORS_ONLN) &&
				 !strcmp(name, host);
		break;
	}
	case HOOK(5, 50):	/* ReadyThread */
		if (ev->data_len >= 4 && get_le(d, 4) == (uint32_t)s->child_tid)
			s->ready++;
		break;
	}
}

/* Every PID /proc lists now. */
static int *list_pids(int *n)
{
	DIR *dir = opendir("/proc");
	struct dirent *de;
	int *pids = calloc(4096, sizeof(int));

	*n = 0;
	while (dir && pids && (de = readdir(dir)) && *n < 4096)
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
			pids[(*n)++] = atoi(de->d_name);
	if (dir)
		closedir(dir);
	return pids;
}

/*
 * Process_V4_TypeGroup1 as Microsoft's page and the WDK's MOF lay it out:
 * UniqueProcessKey (pointer), ProcessId, ParentId, SessionId, ExitStatus,
 * DirectoryTableBase (pointer), Flags, UserSID (TOKEN_USER, then the SID),
 * ImageFileName (ANSI, NUL), CommandLine, PackageFullName, ApplicationId
 * (UTF-16, NUL). The key and the Sid pointer are the record's.
 */
static uint32_t expect_process(uint8_t *out, const uint8_t *rec_data, uint32_t pid,
			       uint32_t ppid, uint32_t sid, const char *image,
			       const char *cmdline)
{
	uint8_t *p = out;
	size_t i;

	memcpy(p, rec_data, 8);				/* UniqueProcessKey */
	p = put_le(p + 8, pid, 4);
	p = put_le(p, ppid, 4);
	p = put_le(p, sid, 4);
	p = put_le(p, 0, 4);				/* ExitStatus */
	p = put_le(p, 0, 8);				/* DirectoryTableBase */
	p = put_le(p, 0, 4);				/* Flags */
	memcpy(p, rec_data + 0x24, 8);			/* TOKEN_USER.Sid */
	p = put_le(p + 8, 0, 8);			/* Attributes, padding */
	/* S-1-22-1-0: revision 1, two sub-authorities, authority 22. */
	*p++ = 1;
	*p++ = 2;
	p = put_le(p, 0, 5);
	*p++ = 22;
	p = put_le(p, 1, 4);
	p = put_le(p, 0, 4);
	memcpy(p, image, strlen(image) + 1);
	p += strlen(image) + 1;
	for (i = 0; i <= strlen(cmdline); i++)
		p = put_le(p, (uint8_t)cmdline[i], 2);
	p = put_le(p, 0, 2);				/* PackageFullName */
	p = put_le(p, 0, 2);				/* ApplicationId */
	return p - out;
}

static void check_file(const char *path, struct seen *s)
{
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	struct nttrace_etl_counts c;
	char want_cmd[300], comm[16];
	uint8_t want[600];
	uint32_t n;
	int i, missing = 0;

	if (!tap_eq(nttrace_etl_open(&r, path, NULL, NULL), 0, "%d-bit: the file opens", BITS))
		return;
	while (nttrace_etl_next(r, &ev))
		if (ev.system)
			on_event(s, &ev);
	nttrace_etl_counts(r, &c);
	nttrace_etl_close(r);
	tap_eq(c.records_skipped + c.buffers_skipped, 0,
	       "%d-bit: every record read, none skipped", BITS);

	tap_eq(s->start_fork, 1, "%d-bit: Process/Start at the fork: the child's PID, its parent, "
	       "written by the parent", BITS);
	tap_eq(s->end_exec, 1, "%d-bit: Process/End of the image before exec (status 0, no name)",
	       BITS);
	tap_eq(s->start_exec, 1, "%d-bit: Process/Start of the exec'd image, same PID and parent",
	       BITS);
	snprintf(want_cmd, sizeof(want_cmd), "%s --child alpha beta", self);
	tap_ok(!strcmp(s->cmdline, want_cmd), "%d-bit: ... its command line (\"%s\")", BITS,
	       s->cmdline);
	tap_eq(s->end_final, 1, "%d-bit: Process/End at its exit", BITS);
	tap_eq(s->exit_status, 7, "%d-bit: ... ExitStatus 7", BITS);
	tap_eq(s->thread_start, 1, "%d-bit: Thread/Start of its second thread", BITS);
	tap_eq(s->thread_end, 1, "%d-bit: Thread/End of it", BITS);
	tap_eq(s->images_exec, 3,
	       "%d-bit: Image/Load of the program at exec, at its mmap(PROT_EXEC) and at the mprotect(PROT_EXEC) of a readable mapping",
	       BITS);
	tap_eq(s->unloads, 1, "%d-bit: Image/Unload of the mapping it munmap()s, not of the one "
	       "left to the exit", BITS);
	tap_eq(s->unload_size_ok, 1, "%d-bit: ... version 3, its size a page or more", BITS);
	tap_ok(s->cswitch > 0, "%d-bit: CSwitch events of the child's thread (%d)", BITS,
	       s->cswitch);
	tap_ok(s->ready > 0, "%d-bit: ReadyThread events of it (%d)", BITS, s->ready);
	tap_eq(s->dcstart_idle, 1, "%d-bit: the rundown at start has the Idle process", BITS);
	for (i = 0; i < s->nalive; i++)
		if (s->alive[i] > 0 && !kill(s->alive[i], 0))
			missing++;
	tap_eq(missing, 0, "%d-bit: ... and every process /proc listed before (%d)", BITS,
	       s->nalive);
	tap_eq(s->dcend_self, 1, "%d-bit: the rundown at stop has this process", BITS);
	snprintf(comm, sizeof(comm), "%s", strrchr(self, '/') + 1);
	tap_ok(!strcmp(s->dcend_image, comm),
	       "%d-bit: ... its ImageFileName its program's name (\"%s\"), not the name it gave itself",
	       BITS, s->dcend_image);
	tap_eq(s->config_cpu, 1,
	       "%d-bit: SysConfig CPU at the start: the online CPUs, the host name", BITS);

	/*
	 * ImageFileName (in comm): the program file's name, 15 characters at
	 * most, though the child exec'd it as /proc/self/exe.
	 */
	if (s->start_header == 0x20) {
		const uint8_t *got = s->start_rec + 0x20;

		n = expect_process(want, got, s->child, s->parent, getsid(0), comm, want_cmd);
		for (i = 0; i < (int)n && 0x20 + i < (int)s->start_len; i++)
			if (got[i] != want[i])
				break;
		if (i < (int)n)
			printf("# first difference at payload byte %#x: %#x, want %#x (sizes %u, %u)\n",
			       i, got[i], want[i], s->start_len - 0x20, n);
		tap_ok(s->start_len == 0x20 + n && !memcmp(got, want, n),
		       "%d-bit: Process/Start byte for byte as Process_V4_TypeGroup1 (%u bytes)",
		       BITS, n);
		tap_eq(s->start_rec[2], 0x02, "%d-bit: ... a SYSTEM_TRACE_HEADER (64-bit)", BITS);
		tap_eq(s->start_rec[0], 4, "%d-bit: ... version 4", BITS);
		tap_eq(get_le(s->start_rec + 8, 4), (uint32_t)s->child,
		       "%d-bit: ... written by the child itself (its exec)", BITS);
	} else {
		tap_ok(0, "%d-bit: Process/Start of the exec has a full header (%u)", BITS,
		       s->start_header);
	}
}

/* The NT Kernel Logger over a child's life, stopped, its file checked. */
TEST_F(nttrace, process_thread_image)
{
	struct props pr;
	TRACEHANDLE h;
	struct seen s;
	char path[64];
	int pipefd[2], status;
	ssize_t got;

	memset(&s, 0, sizeof(s));
	s.parent = getpid();
	s.alive = list_pids(&s.nalive);
	snprintf(path, sizeof(path), "/tmp/kernel-logger-%d.etl", BITS);
	props_init(&pr, path, EVENT_TRACE_FILE_MODE_SEQUENTIAL);
	pr.p.Wnode.Guid = SystemTraceControlGuid;
	pr.p.EnableFlags = FLAGS;
	pr.p.BufferSize = 256;
	if (!tap_eq(StartTraceA(&h, KERNEL_LOGGER_NAMEA, &pr.p), ERROR_SUCCESS,
		    "%d-bit: StartTrace(NT Kernel Logger, PROCESS|THREAD|IMAGE_LOAD|CSWITCH|DISPATCHER)",
		    BITS))
		return;

	if (pipe(pipefd))
		exit(1);
	s.child = fork();
	if (s.child == 0) {
		close(pipefd[0]);
		child(pipefd[1]);
	}
	close(pipefd[1]);
	got = read(pipefd[0], &s.child_tid, sizeof(s.child_tid));
	close(pipefd[0]);
	waitpid(s.child, &status, 0);
	tap_ok(got == sizeof(s.child_tid) && WIFEXITED(status) && WEXITSTATUS(status) == 7,
	       "%d-bit: the child ran (thread %d, status %d)", BITS, (int)s.child_tid,
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);

	/* A name of our own choosing: the DCEnd rundown must not take it. */
	if (prctl(PR_SET_NAME, "spoofed-name"))
		exit(1);
	props_init(&pr, NULL, 0);
	tap_eq(ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS,
	       "%d-bit: StopTrace", BITS);
	tap_eq(pr.p.EventsLost, 0, "%d-bit: ... no event lost", BITS);
	check_file(path, &s);
	free(s.alive);
}

int main(int argc, char **argv)
{
	if (readlink("/proc/self/exe", self, sizeof(self) - 1) < 0)
		return 1;
	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child_after_exec();
	return harness_run(argc, argv);
}
