// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace: the command-line logger and tool. `nttrace --help` lists the
 * subcommands; each takes --help (and `nttrace help COMMAND` prints it).
 * This file has main and the session and raw-call subcommands; record.c,
 * dump.c, show.c and providers.c have the others, cli.c what they all use
 * and render.c how dump and show print events.
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

/*
 * The package's version (the Makefile's VERSION), given by the build as
 * -DNTTRACE_VERSION="..."; a build that does not give it says so.
 */
#ifndef NTTRACE_VERSION
#define NTTRACE_VERSION "(version unknown)"
#endif

static void print_status(NTSTATUS status)
{
	const char *name = nttrace_status_name(status);

	printf("0x%08X %s\n", (uint32_t)status, name ? name : "(unnamed)");
}

static int device_or_die(void)
{
	int fd = nttrace_device_fd();

	if (fd == -ENODEV) {
		fprintf(stderr, "nttrace: %s\n", CLI_NOT_LOADED);
		exit(1);
	}
	if (fd < 0) {
		/* Not cli_fail(): its words are for the session ioctls. */
		fprintf(stderr, "nttrace: %s: %s\n", NTTRACE_DEVICE, strerror(-fd));
		exit(1);
	}
	return fd;
}

static int cmd_version(int argc, char **argv)
{
	struct nttrace_version v = { .size = sizeof(v) };
	unsigned int type;

	if (argc > 1) {
		int help = cli_wants_help(argc, argv);

		fprintf(help ? stdout : stderr,
			"usage: nttrace version\n\n"
			"Print this tool's version, the ABI version of the loaded nttrace\n"
			"module and the NtTraceEvent types it implements. Without the\n"
			"module it fails; `nttrace --version` prints the tool's version\n"
			"alone.\n");
		return help ? 0 : CLI_USAGE;
	}
	if (ioctl(device_or_die(), NTTRACE_IOC_VERSION, &v) < 0) {
		perror("nttrace: NTTRACE_IOC_VERSION");
		return 1;
	}
	printf("nttrace %s\n", NTTRACE_VERSION);
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
	if (v.features & NTTRACE_FEAT_SYSTEM_FLAGS) {
		printf("kernel flags with events: ");
		cli_print_kernel_flags(stdout, v.system_flags);
		printf("\n");
	}
	return 0;
}

#define CALL_BUF_WORDS	512
#define CALL_MAX_SIZE	(CALL_BUF_WORDS * 8 - 1)	/* room for --misalign */

static void call_usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace call [--handle N] [--size N] [--misalign | --null] FLAGS\n\n"
		"Call NtTraceEvent(TraceHandle, Flags, FieldSize, Fields) once and print\n"
		"the NTSTATUS. Fields points to FieldSize zeroed bytes (default 0x28, a\n"
		"MESSAGE_TRACE_USER; at most %u) unless --misalign (one byte past an\n"
		"aligned buffer) or --null (a NULL Fields) is given. FLAGS and N take C\n"
		"notation.\n", CALL_MAX_SIZE);
}

static int cmd_call(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "handle", required_argument, NULL, 'H' },
		{ "size", required_argument, NULL, 's' },
		{ "misalign", no_argument, NULL, 'm' },
		{ "null", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint64_t handle = 1, size = 0x28, flags;
	int misalign = 0, null = 0, c;
	uint64_t buf[CALL_BUF_WORDS] = { 0 };
	char *fields;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'H':
			/* A HANDLE: pointer-sized. */
			if (cli_uint("--handle", optarg, 0, UINTPTR_MAX, 0, &handle))
				return CLI_USAGE;
			break;
		case 's':
			if (cli_uint("--size", optarg, 0, CALL_MAX_SIZE, 0, &size))
				return CLI_USAGE;
			break;
		case 'm': misalign = 1; break;
		case 'n': null = 1; break;
		case 'h': call_usage(stdout); return 0;
		default: call_usage(stderr); return CLI_USAGE;
		}
	}
	if (optind != argc - 1) {
		call_usage(stderr);
		return CLI_USAGE;
	}
	if (cli_uint("FLAGS", argv[optind], 0, UINT32_MAX, 0, &flags))
		return CLI_USAGE;
	device_or_die();
	fields = null ? NULL : (char *)buf + misalign;
	printf("NtTraceEvent(%llu, 0x%08X <%s>, 0x%X, %s) = ",
	       (unsigned long long)handle, (uint32_t)flags,
	       nttrace_type_name(flags & NTTRACE_ETW_NT_TRACE_TYPE_MASK) ?: "invalid type",
	       (uint32_t)size, null ? "NULL" : misalign ? "misaligned" : "buffer");
	print_status(NtTraceEvent((HANDLE)(uintptr_t)handle, flags, size, fields));
	return 0;
}

/*
 * Log file modes by name, in bit order; @start marks those `nttrace start`
 * offers: the modes the kernel takes for a kernel session. The others are
 * named only to show a session's mode. PRIVATE_LOGGER_MODE and
 * PRIVATE_IN_PROC make the user-mode logger instead, which lives in the
 * process that calls StartTrace: started by this tool, it would end with
 * it.
 */
static const struct {
	const char *name;
	uint32_t bit;
	int start;
} mode_names[] = {
	{ "sequential", EVENT_TRACE_FILE_MODE_SEQUENTIAL, 1 },
	{ "circular", EVENT_TRACE_FILE_MODE_CIRCULAR, 1 },
	{ "append", EVENT_TRACE_FILE_MODE_APPEND, 1 },
	{ "newfile", EVENT_TRACE_FILE_MODE_NEWFILE, 1 },
	{ "preallocate", EVENT_TRACE_FILE_MODE_PREALLOCATE, 1 },
	{ "nonstoppable", EVENT_TRACE_NONSTOPPABLE_MODE, 0 },
	{ "secure", EVENT_TRACE_SECURE_MODE, 1 },
	{ "realtime", EVENT_TRACE_REAL_TIME_MODE, 1 },
	{ "delay-open", EVENT_TRACE_DELAY_OPEN_FILE_MODE, 0 },
	{ "buffering", EVENT_TRACE_BUFFERING_MODE, 1 },
	{ "private", EVENT_TRACE_PRIVATE_LOGGER_MODE, 0 },
	{ "add-header", EVENT_TRACE_ADD_HEADER_MODE, 0 },
	{ "kbytes", EVENT_TRACE_USE_KBYTES_FOR_SIZE, 0 },
	{ "global-sequence", EVENT_TRACE_USE_GLOBAL_SEQUENCE, 1 },
	{ "local-sequence", EVENT_TRACE_USE_LOCAL_SEQUENCE, 1 },
	{ "relog", EVENT_TRACE_RELOG_MODE, 0 },
	{ "private-in-proc", EVENT_TRACE_PRIVATE_IN_PROC, 0 },
	{ "paged", EVENT_TRACE_USE_PAGED_MEMORY, 1 },
	/* Set by `start --kernel` with a NAME of its own. */
	{ "system-logger", EVENT_TRACE_SYSTEM_LOGGER_MODE, 0 },
	{ "no-per-processor", EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING, 1 },
};
#define N_MODES (sizeof(mode_names) / sizeof(mode_names[0]))

/* Pairs the kernel refuses together (module/session.c). */
static const uint32_t exclusive_modes[][2] = {
	{ EVENT_TRACE_FILE_MODE_SEQUENTIAL, EVENT_TRACE_FILE_MODE_CIRCULAR },
	{ EVENT_TRACE_FILE_MODE_NEWFILE, EVENT_TRACE_FILE_MODE_SEQUENTIAL },
	{ EVENT_TRACE_FILE_MODE_NEWFILE, EVENT_TRACE_FILE_MODE_CIRCULAR },
	{ EVENT_TRACE_FILE_MODE_APPEND, EVENT_TRACE_FILE_MODE_CIRCULAR },
	{ EVENT_TRACE_FILE_MODE_APPEND, EVENT_TRACE_FILE_MODE_NEWFILE },
	{ EVENT_TRACE_FILE_MODE_APPEND, EVENT_TRACE_REAL_TIME_MODE },
	{ EVENT_TRACE_USE_GLOBAL_SEQUENCE, EVENT_TRACE_USE_LOCAL_SEQUENCE },
};

static uint32_t start_modes(void)
{
	uint32_t bits = 0;
	unsigned int i;

	for (i = 0; i < N_MODES; i++)
		if (mode_names[i].start)
			bits |= mode_names[i].bit;
	return bits;
}

static const char *mode_name(uint32_t bit)
{
	unsigned int i;

	for (i = 0; i < N_MODES; i++)
		if (mode_names[i].bit == bit)
			return mode_names[i].name;
	return "?";
}

/* The names `start` takes, "a, b, c", after @prefix, then a newline. */
static void print_start_modes(FILE *f, const char *prefix)
{
	const char *sep = "";
	unsigned int i;

	fputs(prefix, f);
	for (i = 0; i < N_MODES; i++)
		if (mode_names[i].start) {
			fprintf(f, "%s%s", sep, mode_names[i].name);
			sep = ", ";
		}
	fputc('\n', f);
}

static int bad_mode(const char *arg, const char *why, const char *name)
{
	fprintf(stderr, "nttrace: --mode '%s': %s", arg, why);
	if (name)
		fprintf(stderr, " '%s'", name);
	print_start_modes(stderr, "; kernel sessions take: ");
	if (name && (!strcmp(name, "private") || !strcmp(name, "private-in-proc")))
		fprintf(stderr, "nttrace: (the user-mode logger is started by StartTrace "
			"in the traced process itself)\n");
	return CLI_USAGE;
}

/* "realtime,circular", or a number made of those bits, into *@mode. */
static int parse_mode(const char *arg, uint32_t *mode)
{
	const char *tok = arg, *end;
	unsigned int i;
	uint64_t v;
	int ret;

	*mode = 0;
	if (arg[0] >= '0' && arg[0] <= '9') {
		ret = cli_uint("--mode", arg, 0, UINT32_MAX, 0, &v);
		if (ret)
			return ret;
		if (v & ~start_modes()) {
			char bits[16];

			snprintf(bits, sizeof(bits), "0x%x", (uint32_t)(v & ~start_modes()));
			return bad_mode(arg, "not modes of kernel sessions:", bits);
		}
		*mode = v;
	} else {
		for (;;) {
			char name[32];
			size_t len;

			end = strchr(tok, ',');
			len = end ? (size_t)(end - tok) : strlen(tok);
			if (!len)
				return bad_mode(arg, "an empty name", NULL);
			snprintf(name, sizeof(name), "%.*s", (int)len, tok);
			for (i = 0; i < N_MODES; i++)
				if (mode_names[i].start && len == strlen(mode_names[i].name) &&
				    !strncmp(tok, mode_names[i].name, len))
					break;
			if (i == N_MODES)
				return bad_mode(arg, "not a mode of kernel sessions:", name);
			*mode |= mode_names[i].bit;
			if (!end)
				break;
			tok = end + 1;
		}
	}
	for (i = 0; i < sizeof(exclusive_modes) / sizeof(exclusive_modes[0]); i++)
		if ((*mode & exclusive_modes[i][0]) && (*mode & exclusive_modes[i][1])) {
			fprintf(stderr, "nttrace: --mode '%s': %s and %s exclude each other\n",
				arg, mode_name(exclusive_modes[i][0]),
				mode_name(exclusive_modes[i][1]));
			return CLI_USAGE;
		}
	return 0;
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
	[NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER] = "perf",
	[NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME] = "system",
	[NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE] = "cycle",
};

static void print_info(const struct nttrace_logger_info *i)
{
	printf("Name:              %s\n", (const char *)i->name);
	printf("Logger ID:         %u\n", i->logger_id);
	printf("Buffer size:       %u KB\n", i->buffer_size_kb);
	if (i->log_file_mode & EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING)
		printf("Buffers:           %u min, %u max; one ring for all CPUs\n",
		       i->min_buffers, i->max_buffers);
	else
		printf("Buffers per CPU:   %u min, %u max; %u CPUs\n", i->min_buffers,
		       i->max_buffers, i->nr_cpus);
	printf("Buffers:           %u allocated, %u free, %u written, %u lost\n",
	       i->number_of_buffers, i->free_buffers, i->buffers_written,
	       i->log_buffers_lost);
	printf("Events:            %llu written, %llu lost, %llu overwritten\n",
	       (unsigned long long)i->events_written,
	       (unsigned long long)i->events_lost,
	       (unsigned long long)i->events_overwritten);
	printf("Real time:         %u buffers lost to real-time consumers\n",
	       i->real_time_buffers_lost);
	printf("Log file mode:     ");
	print_mode(i->log_file_mode);
	printf("Flush timer:       %u s\n", i->flush_timer);
	printf("Clock:             %s (%llu Hz)\n",
	       i->clock_type <= NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE && clock_names[i->clock_type] ?
	       clock_names[i->clock_type] : "?",
	       (unsigned long long)i->clock_frequency);
	printf("Owner:             uid %u, pid %u\n", i->owner_uid, i->owner_pid);
	/* A system logger's groups (uapi "System loggers"), by name. */
	if (i->logger_id == NTTRACE_KERNEL_LOGGER_ID ||
	    i->log_file_mode & NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE) {
		printf("Kernel flags:      0x%08X (", i->group_mask[0]);
		cli_print_kernel_flags(stdout, i->group_mask[0]);
		printf(")\n");
	}
}

static void start_usage(FILE *f)
{
	uint32_t built;

	fprintf(f,
		"usage: nttrace start NAME [--buffer-size KB] [--min-buffers N]\n"
		"                          [--max-buffers N] [--mode MODES]\n"
		"                          [--flush-timer SECONDS] [--clock perf|system|cycle]\n"
		"       nttrace start --kernel FLAGS [NAME] [OPTIONS]\n\n"
		"Start a logger session in the kernel (StartTrace) and print it as `query`\n"
		"does. With --kernel, start the NT Kernel Logger (NAME left out), or a\n"
		"system logger named NAME (EVENT_TRACE_SYSTEM_LOGGER_MODE), which records\n"
		"what the machine does: FLAGS (EnableFlags) is a comma or + list of these\n"
		"names, in any case, or a number made of EVENT_TRACE_FLAG_* bits:\n");
	cli_kernel_flag_names(f, "    ");
	fprintf(f,
		"(xperf's names: proc_thread is process,thread, loader image_load,\n"
		"hard_faults memory_hard_faults, perf_counter process_counters; its group\n"
		"diageasy is those with disk_io, dpc, interrupt and cswitch.)\n"
		"The loaded module writes events for ");
	if (nttrace_system_flags(&built))
		fputs("the flags `nttrace version` lists", f);
	else
		cli_print_kernel_flags(f, built);
	fprintf(f,
		";\n"
		"the others are taken with a warning. A system logger sees every process:\n"
		"starting or reading one needs CAP_PERFMON (or CAP_SYS_ADMIN) in the\n"
		"initial user and PID namespaces, and at most %d run at once.\n\n"
		"Buffers are per CPU (no-per-processor: one ring for all CPUs, which\n"
		"write to it one at a time, its events in time order): KB from %u to\n"
		"%u, N from %u to %u; 0 or an\n"
		"option left out takes the default (%u KB, %u min, %u max). MODES is a\n"
		"comma list of these, or a number made of their bits:\n",
		NTTRACE_MAX_SYSTEM_LOGGERS, NTTRACE_MIN_BUFFER_KB, NTTRACE_MAX_BUFFER_KB, NTTRACE_MIN_BUFFERS,
		NTTRACE_MAX_BUFFERS, NTTRACE_DEFAULT_BUFFER_KB, NTTRACE_MIN_BUFFERS,
		NTTRACE_DEFAULT_BUFFERS);
	print_start_modes(f, "    ");
	fprintf(f,
		"circular and buffering make full rings overwrite their oldest buffer;\n"
		"otherwise new events are dropped and counted. append (after the\n"
		"buffers of the file `record` is given), newfile (a new file each\n"
		"maximum size, its name's %%d counting 1, 2, ...) and preallocate (the\n"
		"maximum size reserved on disk) are for the file `record --max-size`\n"
		"writes. sequential and circular exclude each other and newfile,\n"
		"append excludes circular, newfile and realtime, and global-sequence\n"
		"and local-sequence exclude each other. (The\n"
		"in-process user-mode logger is started by StartTrace in the traced\n"
		"program itself.) Numbers take C notation; --option=VALUE works too.\n");
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
		{ "kernel", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct nttrace_logger_info info, k;
	const char *name;
	uint64_t v = 0;
	int opt, ret, kernel = 0;
	uint32_t flags = 0;
	unsigned int i;

	memset(&info, 0, sizeof(info));
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		ret = 0;
		switch (opt) {
		case 'b':
			ret = cli_uint("--buffer-size", optarg, NTTRACE_MIN_BUFFER_KB,
				       NTTRACE_MAX_BUFFER_KB, CLI_ZERO_DEFAULT, &v);
			info.buffer_size_kb = v;
			break;
		case 'n':
			ret = cli_uint("--min-buffers", optarg, NTTRACE_MIN_BUFFERS,
				       NTTRACE_MAX_BUFFERS, CLI_ZERO_DEFAULT, &v);
			info.min_buffers = v;
			break;
		case 'x':
			ret = cli_uint("--max-buffers", optarg, NTTRACE_MIN_BUFFERS,
				       NTTRACE_MAX_BUFFERS, CLI_ZERO_DEFAULT, &v);
			info.max_buffers = v;
			break;
		case 'f':
			/* 0: no flush timer. */
			ret = cli_uint("--flush-timer", optarg, 0, UINT32_MAX, 0, &v);
			info.flush_timer = v;
			break;
		case 'm':
			ret = parse_mode(optarg, &info.log_file_mode);
			break;
		case 'c':
			info.clock_type = 0;
			for (i = 1; i <= NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE; i++)
				if (!strcmp(optarg, clock_names[i]))
					info.clock_type = i;
			if (!info.clock_type) {
				fprintf(stderr, "nttrace: --clock '%s': "
					"not perf, system or cycle\n", optarg);
				ret = CLI_USAGE;
			}
			break;
		case 'k':
			ret = cli_kernel_flags(optarg, &flags);
			kernel = 1;
			break;
		case 'h': start_usage(stdout); return 0;
		default: start_usage(stderr); return CLI_USAGE;
		}
		if (ret)
			return ret;
	}
	/* NAME, which --kernel may leave out. */
	if (optind != argc - 1 && !(kernel && optind == argc)) {
		start_usage(stderr);
		return CLI_USAGE;
	}
	name = optind < argc ? argv[optind] : NTTRACE_KERNEL_LOGGER_NAME;
	if (kernel) {
		ret = cli_kernel_session(name, flags, info.log_file_mode, &k);
		if (ret)
			return ret;
		info.log_file_mode = k.log_file_mode;
		info.group_mask[0] = flags;
		memcpy(info.name, k.name, sizeof(info.name));
	} else if (nttrace_set_name(&info, name)) {
		fprintf(stderr, "nttrace: session name too long (most %d bytes)\n",
			NTTRACE_NAME_MAX - 1);
		return CLI_USAGE;
	}
	ret = nttrace_start(&info);
	if (ret)
		return kernel ? cli_fail_system(ret, "start %s", name) :
		       cli_fail(ret, "start %s", name);
	print_info(&info);
	return 0;
}

static void control_usage(FILE *f, const char *cmd, uint32_t code)
{
	fprintf(f, "usage: nttrace %s NAME | --id N\n\n%s\n", cmd,
		code == EVENT_TRACE_CONTROL_STOP ?
		"Stop the session (ControlTrace STOP): everything in its buffers is\n"
		"published to its consumer first, and the command returns once the\n"
		"consumer (nttrace record) has let go of the session, its file\n"
		"complete. Prints the final counters." :
		code == EVENT_TRACE_CONTROL_FLUSH ?
		"Publish every CPU's partly filled buffer to the consumer now." :
		"Print the session's properties and counters (ControlTrace QUERY).");
}

/* query, stop, flush: one session by NAME or --id N (--id=N). */
static int cmd_control(int argc, char **argv, uint32_t code)
{
	static const struct option opts[] = {
		{ "id", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct nttrace_logger_info info;
	const char *id = NULL, *what;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'i': id = optarg; break;
		case 'h': control_usage(stdout, argv[0], code); return 0;
		default: control_usage(stderr, argv[0], code); return CLI_USAGE;
		}
	}
	if (optind != argc - !id) {
		control_usage(stderr, argv[0], code);
		return CLI_USAGE;
	}
	what = id ? id : argv[optind];
	ret = cli_session_arg(what, !!id, &info);
	if (ret)
		return ret;
	if (code == EVENT_TRACE_CONTROL_STOP)
		info.control_flags = NTTRACE_CONTROL_WAIT_CONSUMER;
	ret = nttrace_control(&info, code);
	if (ret)
		return cli_fail(ret, "%s %s%s", argv[0], id ? "--id " : "", what);
	print_info(&info);
	return 0;
}

static int cmd_query(int argc, char **argv)
{
	return cmd_control(argc, argv, EVENT_TRACE_CONTROL_QUERY);
}

static int cmd_stop(int argc, char **argv)
{
	return cmd_control(argc, argv, EVENT_TRACE_CONTROL_STOP);
}

static int cmd_flush(int argc, char **argv)
{
	return cmd_control(argc, argv, EVENT_TRACE_CONTROL_FLUSH);
}

static int cmd_list(int argc, char **argv)
{
	uint32_t ids[NTTRACE_MAX_LOGGERS], n, i;
	int ret;

	if (argc > 1) {
		int help = cli_wants_help(argc, argv);

		fprintf(help ? stdout : stderr,
			"usage: nttrace list\n\n"
			"One line per running session, like `logman query`: logger ID, name,\n"
			"events written and lost, buffers written, and a system logger's\n"
			"kernel flags (- for other sessions).\n");
		return help ? 0 : CLI_USAGE;
	}
	ret = nttrace_list(ids, NTTRACE_MAX_LOGGERS, &n);
	if (ret)
		return cli_fail(ret, "list");
	printf("%-5s %-32s %12s %10s %10s  %s\n", "ID", "Name", "Events", "Lost", "Buffers",
	       "Kernel flags");
	for (i = 0; i < n && i < NTTRACE_MAX_LOGGERS; i++) {
		struct nttrace_logger_info info = { .logger_id = ids[i] };

		if (nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY))
			continue;	/* stopped meanwhile */
		printf("%-5u %-32s %12llu %10llu %10u  ", info.logger_id,
		       (const char *)info.name,
		       (unsigned long long)info.events_written,
		       (unsigned long long)(info.events_lost + info.events_overwritten),
		       info.buffers_written);
		/* A system logger's groups; "-" for other sessions. */
		if (info.logger_id == NTTRACE_KERNEL_LOGGER_ID ||
		    info.log_file_mode & NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE)
			cli_print_kernel_flags(stdout, info.group_mask[0]);
		else
			putchar('-');
		putchar('\n');
	}
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *what;
} commands[] = {
	{ "start", cmd_start, "start a logger session (--kernel: the NT Kernel Logger)" },
	{ "stop", cmd_stop, "stop a session" },
	{ "query", cmd_query, "a session's properties and counters" },
	{ "list", cmd_list, "the running sessions" },
	{ "flush", cmd_flush, "publish partly filled buffers" },
	{ "record", cmd_record, "drain a session's buffers into a file" },
	{ "dump", cmd_dump, "print the events of a log file" },
	{ "show", cmd_show, "print a session's or a file's events as they come" },
	{ "plot", cmd_plot, "draw a log file's events per second (gnuplot)" },
	{ "convert", cmd_convert, "write a log file or a session as CTF, or samples as perf.data" },
	{ "merge", cmd_merge, "merge log files into one, in time order" },
	{ "profile", cmd_profile, "where a trace's CPU samples fell, by function" },
	{ "tracerpt", cmd_tracerpt, "a log file as Windows' tracerpt dumps it: event XML, CSV" },
	{ "formats", cmd_formats, "print the message formats of binaries" },
	{ "enable", cmd_enable, "enable a provider GUID for a session" },
	{ "disable", cmd_disable, "stop a session enabling a provider GUID" },
	{ "providers", cmd_providers, "registered providers and their sessions" },
	{ "manifest", cmd_manifest, "install, uninstall, list the manifests TDH finds" },
	{ "mc", cmd_mc, "compile a manifest as mc.exe does: header, .rc, resources" },
	{ "wpr", cmd_wpr, "Windows Performance Recorder's commands: -start PROFILE, -stop FILE" },
	{ "logman", cmd_logman, "logman's trace commands: start NAME -p PROVIDER -o FILE -ets, stop" },
	{ "xperf", cmd_xperf, "xperf's commands: -on FLAGS, -start NAME -on PROVIDERS, -stop, -d" },
	{ "autologger", cmd_autologger, "sessions that start at boot: add, remove, list" },
	{ "version", cmd_version, "ABI version and implemented NtTraceEvent types" },
	{ "call", cmd_call, "one raw NtTraceEvent call and its NTSTATUS" },
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: nttrace COMMAND [ARGS]\n"
		   "       nttrace help COMMAND   (or COMMAND --help)\n"
		   "       nttrace --version\n\n");
	for (i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].what);
}

static int find_command(const char *name)
{
	unsigned int i;

	for (i = 0; i < N_COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return i;
	return -1;
}

/* `nttrace help TOPIC`: TOPIC's own --help. */
static int cmd_help(int argc, char **argv)
{
	char help[] = "--help";
	char *args[] = { argv[1], help, NULL };
	int i;

	if (argc == 1) {
		usage(stdout);
		return 0;
	}
	if (argc > 2) {
		fprintf(stderr, "usage: nttrace help [COMMAND]\n");
		return CLI_USAGE;
	}
	if (!strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	i = find_command(argv[1]);
	if (i < 0) {
		fprintf(stderr, "nttrace: help: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return CLI_USAGE;
	}
	return commands[i].fn(2, args);
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(1, argv + 1);
	if (!strcmp(argv[1], "help"))
		return cmd_help(argc - 1, argv + 1);
	/* The tool's own version, module or not (as --version goes). */
	if (!strcmp(argv[1], "--version") && argc == 2) {
		printf("nttrace %s\n", NTTRACE_VERSION);
		return 0;
	}
	i = find_command(argv[1]);
	if (i >= 0)
		return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "nttrace: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return CLI_USAGE;
}
