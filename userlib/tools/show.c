// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace show: the events of a live session (a real-time consumer) or of
 * a log file, one line (or JSON object) each as it arrives, through the
 * public consumer API (OpenTrace, ProcessTrace, CloseTrace) and render.c,
 * the renderer `nttrace dump` uses.
 *
 * ProcessTrace blocks: SIGINT and SIGTERM only set a flag, and a watcher
 * thread calls CloseTrace, which ends ProcessTrace (CloseTrace from another
 * thread is how a real-time ProcessTrace is meant to be ended). The same
 * thread keeps the status line on stderr when stdout is a terminal.
 */
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define MAX_FILTERS	64	/* ours: --provider and --pid each */
#define STATUS_NS	250000000	/* at most 4 refreshes a second */
#define WATCH_NS	50000000	/* how soon a signal is acted on */

static struct {
	GUID provider[MAX_FILTERS];
	uint32_t pid[MAX_FILTERS];
	unsigned int providers, pids;
	int level;		/* -1: any */
} filter = { .level = -1 };

static EVENT_TRACE_LOGFILEA lf;
static TRACEHANDLE handle;
static const char *session;	/* NULL for a file */
static volatile sig_atomic_t stop_signal;
static int done;		/* ProcessTrace returned (atomic) */
static uint64_t received;	/* events, the header event not counted (atomic) */
static ULONG consumer_lost;	/* lf.EventsLost, as of the last buffer (atomic) */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace show [--formats PATH[,PATH...]] [--manifest PATH[,PATH...]]\n"
		"                    [--provider GUID]... [--level N] [--pid N]... [--json]\n"
		"                    [--no-status]\n"
		"                    SESSION|FILE.etl\n"
		"       nttrace show --kernel FLAGS [NAME] [OPTIONS]\n\n"
		"Print the events of a running session (a real-time consumer: until the\n"
		"session stops or Ctrl-C) or of an ETL file, one line each as it arrives:\n"
		"time, CPU, then as `nttrace dump` prints it (provider GUID, thread and\n"
		"process, and the event); a line \"# cpu N: events lost before this event\"\n"
		"where the events' buffer says so. An argument that is an existing file or\n"
		"ends in .etl is a file, else a session name. With --kernel FLAGS, start\n"
		"the NT Kernel Logger (or the system logger NAME) in real-time mode with\n"
		"those kernel flags, as `nttrace start --kernel` does, and show its\n"
		"events until Ctrl-C (SIGINT or SIGTERM), which stops it: the events\n"
		"still in its buffers, and its rundown's, are shown before the end.\n\n"
		"  --formats P     message formats (binaries built with <nttrace/wpp.h>,\n"
		"                  format files), as for `nttrace dump`\n"
		"  --manifest P    instrumentation manifests (.man), as for `nttrace dump`\n"
		"  --provider GUID only this provider's events (a message's GUID); may repeat\n"
		"  --level N       only events of level N or lower (more severe); level 0\n"
		"                  (messages, events without a level) always shows\n"
		"  --pid N         only events of process N; may repeat (messages without\n"
		"                  their IDs have process 0)\n"
		"  --json          one JSON object a line, the fields of `nttrace dump --json`\n"
		"                  (a session's events have no \"offset\" in a file)\n"
		"  --no-status     no status line (there is one on stderr only when stdout\n"
		"                  is a terminal): events, events a second, events lost\n"
		"                  (by this consumer; a file's: as its header says) and\n"
		"                  buffers lost (the session's, or the file's)\n");
}

static int wanted(const EVENT_RECORD *er)
{
	const EVENT_HEADER *eh = &er->EventHeader;
	unsigned int i;

	/*
	 * Level 0 is "no level" (TRACE_LEVEL_NONE): as a session's level does
	 * not hold such events back from it, the filter lets them pass.
	 */
	if (filter.level >= 0 && eh->EventDescriptor.Level > filter.level)
		return 0;
	for (i = 0; i < filter.providers; i++)
		if (!memcmp(&eh->ProviderId, &filter.provider[i], sizeof(GUID)))
			break;
	if (filter.providers && i == filter.providers)
		return 0;
	for (i = 0; i < filter.pids; i++)
		if (eh->ProcessId == filter.pid[i])
			break;
	return !filter.pids || i < filter.pids;
}

static void WINAPI on_event(PEVENT_RECORD er)
{
	if (render_is_header_event(er))
		return;
	__atomic_add_fetch(&received, 1, __ATOMIC_RELAXED);
	if (wanted(er))
		render_event(er);
}

static ULONG WINAPI on_buffer(PEVENT_TRACE_LOGFILEA l)
{
	/* The events this consumer lost, as the library counts them. */
	__atomic_store_n(&consumer_lost, l->EventsLost, __ATOMIC_RELAXED);
	return TRUE;
}

static void on_signal(int sig)
{
	stop_signal = 1;
}

/*
 * The session's lost buffers (real-time consumers' and its log's), 0 if
 * unknown: ControlTrace's QUERY. Its EventsLost (full rings) is not added:
 * this consumer's count (EVENT_TRACE_LOGFILE.EventsLost) already holds
 * them (consumer/opentrace.c).
 */
static uint64_t session_buffers_lost(void)
{
	struct {
		EVENT_TRACE_PROPERTIES p;
		char names[2 * 1024];
	} q;

	memset(&q, 0, sizeof(q));
	q.p.Wnode.BufferSize = sizeof(q);
	if (ControlTraceA(0, session, &q.p, EVENT_TRACE_CONTROL_QUERY))
		return 0;
	return (uint64_t)q.p.RealTimeBuffersLost + q.p.LogBuffersLost;
}

/* "N events, R/s, lost L events[, B buffers]" on stderr, over the last line. */
static void print_status(double *last_t, uint64_t *last_n, int final)
{
	uint64_t n = __atomic_load_n(&received, __ATOMIC_RELAXED), events, buffers;
	double t = cli_now(), rate = t > *last_t ? (n - *last_n) / (t - *last_t) : 0;

	if (session) {
		events = __atomic_load_n(&consumer_lost, __ATOMIC_RELAXED);
		buffers = session_buffers_lost();
	} else {
		events = lf.LogfileHeader.EventsLost;
		buffers = lf.LogfileHeader.BuffersLost;
	}
	fprintf(stderr, "\r%" PRIu64 " events, %.0f/s, lost %" PRIu64 " events",
		n, rate, events);
	if (buffers)
		fprintf(stderr, ", %" PRIu64 " buffers", buffers);
	/*
	 * Back to the line's start: the next event (on stdout, longer than
	 * this) writes over it, and the next status over that.
	 */
	fputs(final ? "\033[K\n" : "\033[K\r", stderr);
	*last_t = t;
	*last_n = n;
}

/* Stop the session show started; 0, or says why not and returns 1. */
static int stop_started(uint32_t logger_id)
{
	struct nttrace_logger_info info;
	int ret;

	memset(&info, 0, sizeof(info));
	info.logger_id = logger_id;
	ret = nttrace_control(&info, EVENT_TRACE_CONTROL_STOP);
	return ret ? cli_fail_system(ret, "stop logger %u", logger_id) : 0;
}

/*
 * The session `show --kernel` started (its logger ID, 0: none). A signal
 * stops it rather than closing the trace, so that ProcessTrace delivers
 * what its buffers still hold and returns at the stop; the stop is
 * @stop_done's (atomic), tried once.
 */
static uint32_t started_id;
static int stop_done, stop_failed;
#define STOP_GRACE_S	5	/* then CloseTrace all the same */

static void *watcher(void *status)
{
	struct timespec step = { 0, WATCH_NS };
	double start = cli_now(), last_t = start, shown = start;
	uint64_t last_n = 0;

	double stopped_at = 0;

	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		if (stop_signal && started_id && !stopped_at) {
			stop_failed = stop_started(started_id);
			__atomic_store_n(&stop_done, 1, __ATOMIC_RELEASE);
			stopped_at = cli_now();
			if (stop_failed)
				stopped_at -= STOP_GRACE_S;
		}
		if (stop_signal && (!started_id || cli_now() - stopped_at >= STOP_GRACE_S)) {
			CloseTrace(handle);
			break;
		}
		if (status && cli_now() - shown >= STATUS_NS / 1e9) {
			print_status(&last_t, &last_n, 0);
			shown = cli_now();
		}
		nanosleep(&step, NULL);
	}
	/* The last: the average rate over the whole run. */
	if (status) {
		last_t = start;
		last_n = 0;
		print_status(&last_t, &last_n, 1);
	}
	return NULL;
}

/* A file (it exists, or ends in .etl) rather than a session name. */
static int is_file(const char *arg)
{
	size_t n = strlen(arg);
	struct stat st;

	return !stat(arg, &st) || (n >= 4 && !strcmp(arg + n - 4, ".etl"));
}

int cmd_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "formats", required_argument, NULL, 'f' },
		{ "manifest", required_argument, NULL, 'm' },
		{ "provider", required_argument, NULL, 'P' },
		{ "level", required_argument, NULL, 'l' },
		{ "pid", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-status", no_argument, NULL, 'n' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct nttrace_logger_info info;
	int kernel = 0, ret;
	uint32_t flags = 0;
	struct sigaction sa;
	pthread_t thread;
	int opt, status = 1, threaded;
	const char *arg;
	uint64_t v;
	ULONG err;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (render_load_formats(optarg))
				return 1;
			break;
		case 'm':
			if (render_load_manifests(optarg))
				return 1;
			break;
		case 'P':
			if (filter.providers == MAX_FILTERS) {
				fprintf(stderr, "nttrace: at most %d --provider\n", MAX_FILTERS);
				return CLI_USAGE;
			}
			if (cli_guid("--provider", optarg,
				     (uint8_t *)&filter.provider[filter.providers++]))
				return CLI_USAGE;
			break;
		case 'l':
			if (cli_uint("--level", optarg, 0, 255, 0, &v))
				return CLI_USAGE;
			filter.level = v;
			break;
		case 'p':
			if (filter.pids == MAX_FILTERS) {
				fprintf(stderr, "nttrace: at most %d --pid\n", MAX_FILTERS);
				return CLI_USAGE;
			}
			if (cli_uint("--pid", optarg, 0, UINT32_MAX, 0, &v))
				return CLI_USAGE;
			filter.pid[filter.pids++] = v;
			break;
		case 'j': render_json = 1; break;
		case 'n': status = 0; break;
		case 'k': {
			int ret = cli_kernel_flags(optarg, &flags);

			if (ret)
				return ret;
			kernel = 1;
			break;
		}
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return CLI_USAGE;
		}
	}
	if (optind != argc - 1 && !(kernel && optind == argc)) {
		usage(stderr);
		return CLI_USAGE;
	}
	arg = optind < argc ? argv[optind] : NTTRACE_KERNEL_LOGGER_NAME;
	memset(&lf, 0, sizeof(lf));
	if (kernel) {
		ret = cli_kernel_session(arg, flags, NTTRACE_EVENT_TRACE_REAL_TIME_MODE, &info);
		if (ret)
			return ret;
		ret = nttrace_start(&info);
		if (ret)
			return cli_fail_system(ret, "start %s", arg);
	}
	if (!kernel && is_file(arg)) {
		if (render_not_a_directory(arg))
			return 1;
		lf.LogFileName = (LPSTR)arg;
		lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	} else {
		session = arg;
		render_live = 1;
		lf.LoggerName = (LPSTR)arg;
		lf.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME |
				      PROCESS_TRACE_MODE_EVENT_RECORD;
		/* Each event as it comes, through a pipe too. */
		setvbuf(stdout, NULL, _IOLBF, 0);
	}
	lf.EventRecordCallback = on_event;
	lf.BufferCallback = on_buffer;
	handle = OpenTraceA(&lf);
	if (handle == INVALID_PROCESSTRACE_HANDLE) {
		err = GetLastError();
		if (kernel)
			stop_started(info.logger_id);
		return render_fail(err, arg, "OpenTrace");
	}
	render_start = lf.LogfileHeader.StartTime.QuadPart;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: a blocked read returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	status = status && isatty(STDOUT_FILENO);
	if (kernel)
		started_id = info.logger_id;
	threaded = !pthread_create(&thread, NULL, watcher, status ? &status : NULL);

	err = ProcessTrace(&handle, 1, NULL, NULL);

	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	if (threaded)
		pthread_join(thread, NULL);
	CloseTrace(handle);	/* ERROR_INVALID_HANDLE if the watcher did */
	/* The session started here ends with it. */
	if (kernel && !__atomic_load_n(&stop_done, __ATOMIC_ACQUIRE) &&
	    stop_started(info.logger_id))
		stop_failed = 1;
	nttrace_tmf_free(&render_formats);
	fflush(stdout);
	/* Stopped by a signal: the end the user asked for. */
	if (err && !stop_signal)
		return render_fail(err, arg, "ProcessTrace");
	return stop_failed;
}
