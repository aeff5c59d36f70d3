// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace record: attach to a session as its consumer and drain every
 * CPU's buffers through the mapping into an ETL file: the header buffer,
 * then each buffer unchanged (etl.c). Also the library's logger process
 * for a session StartTrace starts with a log file (--report-fd): its
 * detaching and report are the logger's (logger/logger_internal.h, the
 * other half of logger/filelogger.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "../logger/logger_internal.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace record NAME | --id N  -o FILE [--max-size MB]\n"
		"                      [--duration SECONDS] [--quiet] [-- COMMAND [ARGS]]\n"
		"       nttrace record --kernel FLAGS [--stacks EVENTS] [NAME] -o FILE [OPTIONS]\n"
		"                      [-- COMMAND [ARGS]]\n\n"
		"Attach to a session (by NAME, or by logger ID with --id N) as its\n"
		"consumer and write an ETL file: a header buffer, then every buffer of\n"
		"every CPU as it is, until the session stops, SECONDS pass (fractions\n"
		"allowed; 0: no limit), COMMAND exits, or SIGINT/SIGTERM (a session\n"
		"that goes on is flushed first, so that its last events are in the\n"
		"file). With --kernel\n"
		"FLAGS, start the NT Kernel Logger (or the system logger NAME) first, as\n"
		"`nttrace start --kernel` does, and stop it at the end. With a COMMAND\n"
		"(after --), run it once recording has begun, and stop when it exits; the\n"
		"summary then says how it ended. For example:\n"
		"    nttrace record --kernel process,thread,img -o t.etl -- make\n"
		"--stacks EVENTS (with --kernel) writes a stack after each of those kernel\n"
		"events, by xperf's -stackwalk names: Profile, CSwitch, ReadyThread,\n"
		"SyscallEnter, SyscallExit, ProcessCreate, ProcessDelete, ThreadCreate,\n"
		"ThreadDelete, ImageLoad, ImageUnload, DiskReadInit, DiskWriteInit,\n"
		"PagefaultTransition, PagefaultDemandZero, PagefaultCopyOnWrite,\n"
		"PagefaultHard, PagefaultAV, HardFault, VirtualAlloc, VirtualFree,\n"
		"FileCreate, FileCleanup, FileClose, FileRead, FileWrite, FileDelete,\n"
		"FileRename, FileFlush, FileOpEnd:\n"
		"    nttrace record --kernel profile,process,thread,img --stacks profile \\\n"
		"        -o t.etl -- ./app; nttrace profile t.etl\n"
		"With --max-size the file stays\n"
		"within MB megabytes (0: no limit): a circular session's file keeps the\n"
		"newest buffers, a sequential one's stops growing and counts the rest\n"
		"lost. On a terminal a status line shows events/s, events lost and\n"
		"buffers; a summary is printed at the end. Events lost are the session's\n"
		"own count (ring full), plus buffers overwritten before they could be\n"
		"read. --output FILE is -o FILE; --option=VALUE works too.\n"
		"`nttrace start --help` lists the kernel flags.\n"
		"--report-fd FD is for the library's StartTrace: record in the background\n"
		"and report on FD whether the session was attached and the file created.\n");
}

/*
 * COMMAND, after the "--" of @argv: its own process, standard streams and
 * signals as ours were. 0 with *@pid, or says why not and returns 1.
 */
static int run_command(char **cmd, pid_t *pid)
{
	*pid = fork();
	if (*pid < 0) {
		fprintf(stderr, "nttrace: fork: %s\n", strerror(errno));
		return 1;
	}
	if (!*pid) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(cmd[0], cmd);
		fprintf(stderr, "nttrace: %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	return 0;
}

/* How COMMAND ended, on the summary's last line. */
static void print_command_end(const char *cmd, int status)
{
	if (WIFEXITED(status))
		printf("%s exited with status %d\n", cmd, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf("%s was killed by signal %d (%s)\n", cmd, WTERMSIG(status),
		       strsignal(WTERMSIG(status)));
}

/* Stop the session record started; 0, or says why not. */
static int stop_started(uint32_t logger_id)
{
	struct nttrace_logger_info info;
	int ret;

	memset(&info, 0, sizeof(info));
	info.logger_id = logger_id;
	ret = nttrace_control(&info, EVENT_TRACE_CONTROL_STOP);
	if (ret)
		return cli_fail_system(ret, "stop logger %u", logger_id);
	return 0;
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "id", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "max-size", required_argument, NULL, 'm' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "report-fd", required_argument, NULL, 'r' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "stacks", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char **cmd = NULL;
	pid_t child = 0;
	int child_status = 0, kernel = 0, started = 0, stopping = 0, flushed = 0, i;
	uint32_t flags = 0, nr_stacks = 0;
	uint16_t stacks[NTTRACE_STACKS_MAX];
	struct nttrace_logger_info info;
	struct nttrace_etl_session es;
	struct nttrace_logfile r;
	struct nttrace_consumer *c;
	struct nttrace_counts n;
	const char *path = NULL, *id = NULL, *session;
	double duration = 0, start, last = 0;
	int quiet = 0, opt, ret, status_line, report_fd = -1;
	uint64_t max_mb = 0, last_events = 0, fd;

	/* COMMAND: all after the first "--" (getopt would mix it with NAME). */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			cmd = argv + i + 1;
			argc = i;
			break;
		}
	while ((opt = getopt_long(argc, argv, "o:d:m:qh", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			/* The file header's MaximumFileSize: a ULONG of MB. */
			if (cli_uint("--max-size", optarg, 0, UINT32_MAX, 0, &max_mb))
				return CLI_USAGE;
			break;
		case 'i': id = optarg; break;
		case 'o': path = optarg; break;
		case 'd':
			/* A billion seconds: "no limit" has its own value, 0. */
			if (cli_seconds("--duration", optarg, 1e9, &duration))
				return CLI_USAGE;
			break;
		case 'q': quiet = 1; break;
		case 'r':
			if (cli_uint("--report-fd", optarg, 3, 1023, 0, &fd))
				return CLI_USAGE;
			report_fd = (int)fd;
			break;
		case 'k': {
			int ret = cli_kernel_flags(optarg, &flags);

			if (ret)
				return ret;
			kernel = 1;
			break;
		}
		case 's':
			if (cli_stack_events(optarg, stacks, &nr_stacks))
				return CLI_USAGE;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return CLI_USAGE;
		}
	}
	if (nr_stacks && !kernel) {
		fprintf(stderr, "nttrace: record: --stacks goes with --kernel\n");
		return CLI_USAGE;
	}
	if (cmd && !cmd[0]) {
		fprintf(stderr, "nttrace: record: no COMMAND after --\n");
		usage(stderr);
		return CLI_USAGE;
	}
	if (kernel && (id || report_fd >= 0)) {
		fprintf(stderr, "nttrace: record: --kernel starts a session: it takes "
			"no --id or --report-fd\n");
		return CLI_USAGE;
	}
	/* --kernel may leave NAME out: the NT Kernel Logger. */
	if ((optind != argc - !id && !(kernel && optind == argc)) || !path) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (kernel) {
		session = optind < argc ? argv[optind] : NTTRACE_KERNEL_LOGGER_NAME;
		ret = cli_kernel_session(session, flags, 0, &info);
		if (ret)
			return ret;
		ret = nttrace_start(&info);
		if (ret)
			return cli_fail_system(ret, "start %s", session);
		started = 1;
		ret = nr_stacks ? cli_set_stacks(info.logger_id, stacks, nr_stacks) : 0;
		if (ret) {
			stop_started(info.logger_id);
			return cli_fail_system(ret, "stacks for %s", session);
		}
	} else {
		session = id ? id : argv[optind];
		ret = cli_session_arg(session, !!id, &info);
		if (ret)
			return ret;
	}
	if (report_fd >= 0) {
		ret = nttrace_file_logger_detach(report_fd);
		if (ret) {
			nttrace_file_logger_report(report_fd, ret, NTTRACE_LOGGER_FAILED_ATTACH);
			return 1;
		}
	}
	/* The file's header describes the session. */
	ret = nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY);
	if (ret) {
		nttrace_file_logger_report(report_fd, ret, NTTRACE_LOGGER_FAILED_ATTACH);
		return cli_fail(ret, "%s%s", id ? "--id " : "", session);
	}
	ret = nttrace_consumer_open(&c, info.logger_id);
	if (ret) {
		nttrace_file_logger_report(report_fd, ret, NTTRACE_LOGGER_FAILED_ATTACH);
		if (started)
			stop_started(info.logger_id);
		return cli_fail(ret, "attach to logger %u", info.logger_id);
	}
	nttrace_etl_from_info(&es, &info);
	es.max_file_mb = max_mb;
	ret = nttrace_logfile_open(&r, path, &es);
	if (ret) {
		nttrace_file_logger_report(report_fd, ret, NTTRACE_LOGGER_FAILED_FILE);
		fprintf(stderr, "nttrace: %s: %s\n", path, cli_create_error(ret));
		if (started)
			stop_started(info.logger_id);
		nttrace_consumer_close(c);
		return 1;
	}
	nttrace_file_logger_report(report_fd, 0, 0);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* COMMAND's output goes to the terminal: no status line over it. */
	status_line = !quiet && !cmd && isatty(STDERR_FILENO);
	start = cli_now();
	if (cmd && run_command(cmd, &child)) {
		child = 0;
		interrupted = 1;	/* record nothing more, stop what was started */
	}

	for (;;) {
		int stopped = nttrace_consumer_stopped(c), end;

		/* After the stop is seen, one more drain takes everything. */
		if (nttrace_consumer_drain(c, nttrace_logfile_buffer, &r) < 0)
			break;
		if (child > 0 && waitpid(child, &child_status, WNOHANG) == child)
			child = -1;	/* exited: the end of the recording */
		if (stopped)
			break;
		end = interrupted || child < 0 || (duration > 0 && cli_now() - start >= duration);
		/*
		 * The session started here is stopped here, and drained until
		 * the stop is seen: its last events (the rundown's DCEnd) too.
		 */
		if (end && started && !stopping) {
			stopping = 1;
			if (stop_started(info.logger_id))
				break;
			continue;
		}
		if (end && !started && !flushed) {
			/*
			 * Another's session goes on: what it holds in partly
			 * filled buffers (COMMAND's last events) is published
			 * now and drained once more. A caller who may read the
			 * session but not control it records what was published.
			 */
			struct nttrace_logger_info f = { .size = sizeof(f),
							 .logger_id = info.logger_id };

			flushed = 1;
			nttrace_control(&f, EVENT_TRACE_CONTROL_FLUSH);
			continue;
		}
		if (end && !started)
			break;
		if (status_line && cli_now() - last >= 0.5) {
			double t = cli_now();

			nttrace_consumer_counts(c, &n);
			fprintf(stderr, "\r%llu events (%.0f/s), %llu lost, %llu buffers   ",
				(unsigned long long)r.events,
				last ? (r.events - last_events) / (t - last) : 0.0,
				(unsigned long long)(n.events_lost + n.events_overwritten),
				(unsigned long long)nttrace_consumer_buffers(c));
			last = t;
			last_events = r.events;
		}
		nttrace_consumer_wait(c, 200);
	}
	if (status_line)
		fputc('\n', stderr);
	/* The counters live in the mapping, even once the session stopped. */
	nttrace_consumer_counts(c, &n);
	ret = nttrace_logfile_close(&r, n.events_lost + n.events_overwritten,
				    n.buffers_overwritten);

	printf("recorded %llu events in %llu buffers (%llu bytes) to %s\n",
	       (unsigned long long)r.events, (unsigned long long)r.buffers,
	       (unsigned long long)r.bytes, path);
	printf("lost: %llu events refused by full rings, %llu events in %llu buffers "
	       "overwritten before being read\n",
	       (unsigned long long)n.events_lost,
	       (unsigned long long)n.events_overwritten,
	       (unsigned long long)n.buffers_overwritten);
	nttrace_consumer_close(c);
	if (cmd) {
		/* COMMAND goes on when the recording ended first: wait for it. */
		if (child > 0 && waitpid(child, &child_status, 0) == child)
			child = -1;
		if (child < 0)
			print_command_end(cmd[0], child_status);
	}
	if (ret) {
		fprintf(stderr, "nttrace: writing %s: %s (%llu buffers not written, "
			"%llu events in them)\n", path, strerror(-ret),
			(unsigned long long)(r.failed + r.dropped),
			(unsigned long long)(r.dropped_events + r.failed_events));
		return 1;
	}
	return 0;
}
