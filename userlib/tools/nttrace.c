// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace: the command-line logger and tool. `nttrace --help` lists the
 * subcommands; each takes --help.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <nttrace/nt.h>
#include "cli.h"

static void print_status(NTSTATUS status)
{
	const char *name = nttrace_status_name(status);

	printf("0x%08X %s\n", (uint32_t)status, name ? name : "(unnamed)");
}

static int device_or_die(void)
{
	int fd = nttrace_device_fd();

	if (fd < 0) {
		fprintf(stderr, "nttrace: %s: %s (is nttrace.ko loaded?)\n",
			NTTRACE_DEVICE, strerror(-fd));
		exit(1);
	}
	return fd;
}

static int cmd_version(int argc, char **argv)
{
	struct nttrace_version v = { .size = sizeof(v) };
	unsigned int type;

	if (argc > 1) {
		printf("usage: nttrace version\n\n"
		       "Print the ABI version of the loaded nttrace module and the\n"
		       "NtTraceEvent types it implements.\n");
		return strcmp(argv[1], "--help") ? 2 : 0;
	}
	if (ioctl(device_or_die(), NTTRACE_IOC_VERSION, &v) < 0) {
		perror("nttrace: NTTRACE_IOC_VERSION");
		return 1;
	}
	printf("nttrace ABI %u (this tool: %u), features 0x%llx\n",
	       v.abi_version, NTTRACE_ABI_VERSION,
	       (unsigned long long)v.features);
	for (type = 0x100; type <= 0xFF00; type += 0x100) {
		const char *name = nttrace_type_name(type);

		if (name)
			printf("  0x%04X %-18s %s\n", type, name,
			       v.types & NTTRACE_TYPE_BIT(type) ?
			       "implemented" : "not implemented");
	}
	return 0;
}

static void call_usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace call [--handle N] [--size N] [--misalign | --null] FLAGS\n\n"
		"Call NtTraceEvent(TraceHandle, Flags, FieldSize, Fields) once and print\n"
		"the NTSTATUS. Fields points to FieldSize zeroed bytes (default 0x28, a\n"
		"MESSAGE_TRACE_USER) unless --misalign (one byte past an aligned buffer)\n"
		"or --null (a NULL Fields) is given. FLAGS and N take C notation.\n");
}

static int cmd_call(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "handle", required_argument, NULL, 'h' },
		{ "size", required_argument, NULL, 's' },
		{ "misalign", no_argument, NULL, 'm' },
		{ "null", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, '?' + 256 },
		{ 0 }
	};
	unsigned long long handle = 1;
	unsigned long size = 0x28, flags;
	int misalign = 0, null = 0, c;
	uint64_t buf[512] = { 0 };
	char *fields, *end;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'h': handle = strtoull(optarg, NULL, 0); break;
		case 's': size = strtoul(optarg, NULL, 0); break;
		case 'm': misalign = 1; break;
		case 'n': null = 1; break;
		case '?' + 256: call_usage(stdout); return 0;
		default: call_usage(stderr); return 2;
		}
	}
	if (optind != argc - 1 || size > sizeof(buf) - 1) {
		call_usage(stderr);
		return 2;
	}
	errno = 0;
	flags = strtoul(argv[optind], &end, 0);
	if (errno || *end || flags > 0xFFFFFFFFUL) {
		fprintf(stderr, "nttrace: bad FLAGS '%s'\n", argv[optind]);
		return 2;
	}
	device_or_die();
	fields = null ? NULL : (char *)buf + misalign;
	printf("NtTraceEvent(%llu, 0x%08lX <%s>, 0x%lX, %s) = ", handle, flags,
	       nttrace_type_name(flags & ETW_NT_TRACE_TYPE_MASK) ?: "invalid type",
	       size, null ? "NULL" : misalign ? "misaligned" : "buffer");
	print_status(NtTraceEvent((HANDLE)(uintptr_t)handle, flags, size, fields));
	return 0;
}

int cli_wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

const char *cli_strerror(int err)
{
	switch (-err) {
	case ENOENT: return "no such session";
	case EEXIST: return "a session of that name is running";
	case EMFILE: return "too many sessions running";
	case E2BIG: return "rings would exceed the per-session memory limit (module parameter max_session_mb)";
	case EPERM: return "the session belongs to another user";
	case EBUSY: return "the session already has a consumer";
	case ENODEV: case ENXIO: return "nttrace.ko is not loaded";
	default: return strerror(-err);
	}
}

int cli_session_arg(const char *arg, int by_id, struct nttrace_logger_info *info)
{
	char *end;

	memset(info, 0, sizeof(*info));
	if (by_id) {
		unsigned long id = strtoul(arg, &end, 0);

		if (*end || !id || id > 0xFFFF) {
			fprintf(stderr, "nttrace: bad logger ID '%s'\n", arg);
			return 2;
		}
		info->logger_id = id;
		return 0;
	}
	if (nttrace_set_name(info, arg)) {
		fprintf(stderr, "nttrace: session name too long (most %d bytes)\n",
			NTTRACE_NAME_MAX - 1);
		return 2;
	}
	return 0;
}

static const struct {
	const char *name;
	uint32_t bit;
} mode_names[] = {
	{ "sequential", EVENT_TRACE_FILE_MODE_SEQUENTIAL },
	{ "circular", EVENT_TRACE_FILE_MODE_CIRCULAR },
	{ "append", EVENT_TRACE_FILE_MODE_APPEND },
	{ "newfile", EVENT_TRACE_FILE_MODE_NEWFILE },
	{ "preallocate", EVENT_TRACE_FILE_MODE_PREALLOCATE },
	{ "nonstoppable", EVENT_TRACE_NONSTOPPABLE_MODE },
	{ "secure", EVENT_TRACE_SECURE_MODE },
	{ "realtime", EVENT_TRACE_REAL_TIME_MODE },
	{ "delay-open", EVENT_TRACE_DELAY_OPEN_FILE_MODE },
	{ "buffering", EVENT_TRACE_BUFFERING_MODE },
	{ "private", EVENT_TRACE_PRIVATE_LOGGER_MODE },
	{ "add-header", EVENT_TRACE_ADD_HEADER_MODE },
	{ "kbytes", EVENT_TRACE_USE_KBYTES_FOR_SIZE },
	{ "global-sequence", EVENT_TRACE_USE_GLOBAL_SEQUENCE },
	{ "local-sequence", EVENT_TRACE_USE_LOCAL_SEQUENCE },
	{ "relog", EVENT_TRACE_RELOG_MODE },
	{ "private-in-proc", EVENT_TRACE_PRIVATE_IN_PROC },
	{ "paged", EVENT_TRACE_USE_PAGED_MEMORY },
};
#define N_MODES (sizeof(mode_names) / sizeof(mode_names[0]))

/* "realtime,circular" or a number; -1 if a name is unknown. */
static int64_t parse_mode(const char *arg)
{
	char buf[256], *tok, *save, *end;
	uint32_t mode = 0;
	unsigned int i;

	if (arg[0] >= '0' && arg[0] <= '9') {
		unsigned long v = strtoul(arg, &end, 0);

		return *end || v > 0xFFFFFFFFUL ? -1 : (int64_t)v;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < N_MODES; i++)
			if (!strcmp(tok, mode_names[i].name))
				break;
		if (i == N_MODES)
			return -1;
		mode |= mode_names[i].bit;
	}
	return mode;
}

static void print_mode(uint32_t mode)
{
	unsigned int i;
	const char *sep = "";

	printf("0x%08X (", mode);
	for (i = 0; i < N_MODES; i++)
		if (mode & mode_names[i].bit) {
			printf("%s%s", sep, mode_names[i].name);
			sep = ",";
		}
	printf("%s)\n", *sep ? "" : "none");
}

static const char *const clock_names[] = {
	[EVENT_TRACE_CLOCK_PERFCOUNTER] = "perf",
	[EVENT_TRACE_CLOCK_SYSTEMTIME] = "system",
	[EVENT_TRACE_CLOCK_CPUCYCLE] = "cycle",
};

static void print_info(const struct nttrace_logger_info *i)
{
	printf("Name:              %s\n", (const char *)i->name);
	printf("Logger ID:         %u\n", i->logger_id);
	printf("Buffer size:       %u KB\n", i->buffer_size_kb);
	printf("Buffers per CPU:   %u min, %u max; %u CPUs\n", i->min_buffers,
	       i->max_buffers, i->nr_cpus);
	printf("Buffers:           %u allocated, %u free, %u written, %u lost\n",
	       i->number_of_buffers, i->free_buffers, i->buffers_written,
	       i->log_buffers_lost);
	printf("Events:            %llu written, %llu lost, %llu overwritten\n",
	       (unsigned long long)i->events_written,
	       (unsigned long long)i->events_lost,
	       (unsigned long long)i->events_overwritten);
	printf("Log file mode:     ");
	print_mode(i->log_file_mode);
	printf("Flush timer:       %u s\n", i->flush_timer);
	printf("Clock:             %s (%llu Hz)\n",
	       i->clock_type <= EVENT_TRACE_CLOCK_CPUCYCLE && clock_names[i->clock_type] ?
	       clock_names[i->clock_type] : "?",
	       (unsigned long long)i->clock_frequency);
	printf("Owner:             uid %u, pid %u\n", i->owner_uid, i->owner_pid);
}

static void start_usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace start NAME [--buffer-size KB] [--min-buffers N]\n"
		"                          [--max-buffers N] [--mode MODES]\n"
		"                          [--flush-timer SECONDS] [--clock perf|system|cycle]\n\n"
		"Start a logger session (StartTrace). Buffers are per CPU; 0 or an option\n"
		"left out takes the default (64 KB, 2 min, 16 max). MODES is a comma list\n"
		"of: sequential circular append newfile preallocate nonstoppable secure\n"
		"realtime delay-open buffering add-header kbytes global-sequence\n"
		"local-sequence paged, or a number. circular and buffering make full rings\n"
		"overwrite their oldest buffer; otherwise new events are dropped and\n"
		"counted. Prints the session as `query` does.\n");
}

static int cmd_start(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "min-buffers", required_argument, NULL, 'n' },
		{ "max-buffers", required_argument, NULL, 'x' },
		{ "mode", required_argument, NULL, 'm' },
		{ "flush-timer", required_argument, NULL, 'f' },
		{ "clock", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct nttrace_logger_info info;
	int64_t mode;
	int opt, ret;
	unsigned int i;

	memset(&info, 0, sizeof(info));
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'b': info.buffer_size_kb = strtoul(optarg, NULL, 0); break;
		case 'n': info.min_buffers = strtoul(optarg, NULL, 0); break;
		case 'x': info.max_buffers = strtoul(optarg, NULL, 0); break;
		case 'f': info.flush_timer = strtoul(optarg, NULL, 0); break;
		case 'm':
			mode = parse_mode(optarg);
			if (mode < 0) {
				fprintf(stderr, "nttrace: bad mode '%s'\n", optarg);
				return 2;
			}
			info.log_file_mode = mode;
			break;
		case 'c':
			for (i = 1; i <= EVENT_TRACE_CLOCK_CPUCYCLE; i++)
				if (!strcmp(optarg, clock_names[i]))
					info.clock_type = i;
			if (!info.clock_type) {
				fprintf(stderr, "nttrace: bad clock '%s'\n", optarg);
				return 2;
			}
			break;
		case 'h': start_usage(stdout); return 0;
		default: start_usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		start_usage(stderr);
		return 2;
	}
	if (nttrace_set_name(&info, argv[optind])) {
		fprintf(stderr, "nttrace: session name too long\n");
		return 2;
	}
	ret = nttrace_start(&info);
	if (ret) {
		fprintf(stderr, "nttrace: start %s: %s\n", argv[optind], cli_strerror(ret));
		return 1;
	}
	print_info(&info);
	return 0;
}

/* query, stop, flush: one session by NAME or --id N. */
static int cmd_control(int argc, char **argv, uint32_t code)
{
	struct nttrace_logger_info info;
	int by_id = argc == 3 && !strcmp(argv[1], "--id");
	int help = cli_wants_help(argc, argv);
	int ret;

	if (help || argc != 2 + by_id) {
		fprintf(help ? stdout : stderr,
			"usage: nttrace %s NAME | --id N\n\n%s\n", argv[0],
			code == EVENT_TRACE_CONTROL_STOP ?
			"Stop the session (ControlTrace STOP): everything in its buffers is\n"
			"published to its consumer first, and the command returns once the\n"
			"consumer (nttrace record) has let go of the session, its file\n"
			"complete. Prints the final counters." :
			code == EVENT_TRACE_CONTROL_FLUSH ?
			"Publish every CPU's partly filled buffer to the consumer now." :
			"Print the session's properties and counters (ControlTrace QUERY).");
		return help ? 0 : 2;
	}
	ret = cli_session_arg(argv[1 + by_id], by_id, &info);
	if (ret)
		return ret;
	if (code == EVENT_TRACE_CONTROL_STOP)
		info.control_flags = NTTRACE_CONTROL_WAIT_CONSUMER;
	ret = nttrace_control(&info, code);
	if (ret) {
		fprintf(stderr, "nttrace: %s %s: %s\n", argv[0], argv[1 + by_id],
			cli_strerror(ret));
		return 1;
	}
	print_info(&info);
	return 0;
}

static int cmd_list(int argc, char **argv)
{
	uint32_t ids[NTTRACE_MAX_LOGGERS], n, i;
	int ret;

	if (argc > 1) {
		int help = cli_wants_help(argc, argv);

		fprintf(help ? stdout : stderr,
			"usage: nttrace list\n\nOne line per running session, like `logman query`.\n");
		return help ? 0 : 2;
	}
	ret = nttrace_list(ids, NTTRACE_MAX_LOGGERS, &n);
	if (ret) {
		fprintf(stderr, "nttrace: list: %s\n", cli_strerror(ret));
		return 1;
	}
	printf("%-4s %-32s %12s %10s %10s\n", "ID", "Name", "Events", "Lost", "Buffers");
	for (i = 0; i < n && i < NTTRACE_MAX_LOGGERS; i++) {
		struct nttrace_logger_info info = { .logger_id = ids[i] };

		if (nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY))
			continue;	/* stopped meanwhile */
		printf("%-4u %-32s %12llu %10llu %10u\n", info.logger_id,
		       (const char *)info.name,
		       (unsigned long long)info.events_written,
		       (unsigned long long)(info.events_lost + info.events_overwritten),
		       info.buffers_written);
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: nttrace COMMAND [ARGS]   (COMMAND --help for more)\n\n"
		   "  start     start a logger session\n"
		   "  stop      stop a session\n"
		   "  query     a session's properties and counters\n"
		   "  list      the running sessions\n"
		   "  flush     publish partly filled buffers\n"
		   "  record    drain a session's buffers into a file\n"
		   "  dump      print the events of a log file\n"
		   "  formats   print the message formats of binaries\n"
		   "  version   ABI version and implemented NtTraceEvent types\n"
		   "  call      one raw NtTraceEvent call and its NTSTATUS\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "version"))
		return cmd_version(argc - 1, argv + 1);
	if (!strcmp(argv[1], "call"))
		return cmd_call(argc - 1, argv + 1);
	if (!strcmp(argv[1], "start"))
		return cmd_start(argc - 1, argv + 1);
	if (!strcmp(argv[1], "stop"))
		return cmd_control(argc - 1, argv + 1, EVENT_TRACE_CONTROL_STOP);
	if (!strcmp(argv[1], "query"))
		return cmd_control(argc - 1, argv + 1, EVENT_TRACE_CONTROL_QUERY);
	if (!strcmp(argv[1], "flush"))
		return cmd_control(argc - 1, argv + 1, EVENT_TRACE_CONTROL_FLUSH);
	if (!strcmp(argv[1], "list"))
		return cmd_list(argc - 1, argv + 1);
	if (!strcmp(argv[1], "record"))
		return cmd_record(argc - 1, argv + 1);
	if (!strcmp(argv[1], "dump"))
		return cmd_dump(argc - 1, argv + 1);
	if (!strcmp(argv[1], "formats"))
		return cmd_formats(argc - 1, argv + 1);
	fprintf(stderr, "nttrace: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
