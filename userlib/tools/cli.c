// SPDX-License-Identifier: GPL-2.0
/*
 * What the nttrace tool's subcommands share: help detection, errors in
 * words, the parsing of numbers, GUIDs and of a session argument (cli.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/nt.h>
#include "cli.h"

int cli_wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

/* A session function's -errno in words. */
static const char *cli_strerror(int err)
{
	switch (-err) {
	case ENOENT: return "no such session";
	case EEXIST: return "a session of that name is running";
	case EMFILE: return "too many sessions running";
	case E2BIG:
		return "rings would exceed the per-session memory limit "
		       "(module parameter max_session_mb)";
	/* strerror() would say "Disk quota exceeded", "No buffer space". */
	case EDQUOT:
		return "this user has too many sessions running "
		       "(module parameter max_user_sessions)";
	case ENOBUFS:
		return "all sessions' memory would exceed its limit "
		       "(module parameter max_total_mb)";
	case EPERM:
		return "not permitted (needs CAP_PERFMON, CAP_SYS_ADMIN or the "
		       "module's control_gid group)";
	case EXDEV: return "the session was started in another PID namespace";
	case EBUSY: return "the session already has a consumer";
	/* The library's word for it (<nttrace/session.h>). */
	case ENODEV: return CLI_NOT_LOADED;
	default: return strerror(-err);
	}
}

int cli_fail(int err, const char *fmt, ...)
{
	va_list ap;

	/* Whatever was asked, the one thing to say is that. */
	if (err == -ENODEV) {
		fprintf(stderr, "nttrace: %s\n", CLI_NOT_LOADED);
		return 1;
	}
	fputs("nttrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", cli_strerror(err));
	return 1;
}

int cli_fail_system(int err, const char *fmt, ...)
{
	va_list ap;

	if (err == -ENODEV) {
		fprintf(stderr, "nttrace: %s\n", CLI_NOT_LOADED);
		return 1;
	}
	fputs("nttrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	/* module/policy.c: the control group is not enough for these. */
	if (err == -EPERM)
		fprintf(stderr, ": not permitted (a system logger needs CAP_PERFMON or "
			"CAP_SYS_ADMIN in the initial user and PID namespaces)\n");
	else if (err == -EMFILE)
		fprintf(stderr, ": too many sessions running (at most %d system loggers)\n",
			NTTRACE_MAX_SYSTEM_LOGGERS);
	else
		fprintf(stderr, ": %s\n", cli_strerror(err));
	return 1;
}

static int bad_value(const char *what, const char *arg, const char *why)
{
	fprintf(stderr, "nttrace: %s '%s': %s\n", what, arg, why);
	return CLI_USAGE;
}

static int out_of_range(const char *what, const char *arg, uint64_t min,
			uint64_t max, unsigned int flags)
{
	fprintf(stderr, "nttrace: %s '%s': out of range (%s%" PRIu64 " to %" PRIu64 ")\n",
		what, arg, flags & CLI_ZERO_DEFAULT ? "0 for the default, or " : "",
		min, max);
	return CLI_USAGE;
}

int cli_uint(const char *what, const char *arg, uint64_t min, uint64_t max,
	     unsigned int flags, uint64_t *val)
{
	unsigned long long v;
	char *end;

	/* strtoull would take "-1" as ULLONG_MAX and skip leading spaces. */
	if (arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9')
		return out_of_range(what, arg, min, max, flags);
	if (arg[0] < '0' || arg[0] > '9')
		return bad_value(what, arg, "not a number");
	errno = 0;
	v = strtoull(arg, &end, 0);
	if (*end)
		return bad_value(what, arg, "not a number");
	if (errno == ERANGE || v > max || (v < min && (v || !(flags & CLI_ZERO_DEFAULT))))
		return out_of_range(what, arg, min, max, flags);
	*val = v;
	return 0;
}

int cli_seconds(const char *what, const char *arg, double max, double *val)
{
	double v;
	char *end;

	if (arg[0] == '-' && ((arg[1] >= '0' && arg[1] <= '9') || arg[1] == '.')) {
		fprintf(stderr, "nttrace: %s '%s': out of range (0 to %.0f seconds)\n",
			what, arg, max);
		return CLI_USAGE;
	}
	/* A digit or a point first: no sign, space, "inf" or "nan". */
	if ((arg[0] < '0' || arg[0] > '9') && arg[0] != '.')
		return bad_value(what, arg, "not a number of seconds");
	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end)
		return bad_value(what, arg, "not a number of seconds");
	if (errno == ERANGE || !isfinite(v) || v > max) {
		fprintf(stderr, "nttrace: %s '%s': out of range (0 to %.0f seconds)\n",
			what, arg, max);
		return CLI_USAGE;
	}
	*val = v;
	return 0;
}

int cli_session_arg(const char *arg, int by_id, struct nttrace_logger_info *info)
{
	uint64_t id;
	int ret;

	memset(info, 0, sizeof(*info));
	if (by_id) {
		/* 1 to 64, or the NT Kernel Logger's 65535 (0xFFFF). */
		ret = cli_uint("logger ID", arg, 1, NTTRACE_KERNEL_LOGGER_ID, 0, &id);
		if (!ret && id > NTTRACE_MAX_LOGGERS && id != NTTRACE_KERNEL_LOGGER_ID) {
			fprintf(stderr, "nttrace: logger ID '%s': 1 to %d, or %u (the NT Kernel Logger)\n",
				arg, NTTRACE_MAX_LOGGERS, NTTRACE_KERNEL_LOGGER_ID);
			ret = CLI_USAGE;
		}
		if (ret)
			return ret;
		info->logger_id = id;
		return 0;
	}
	if (nttrace_set_name(info, arg)) {
		fprintf(stderr, "nttrace: session name too long (most %d bytes)\n",
			NTTRACE_NAME_MAX - 1);
		return CLI_USAGE;
	}
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int cli_guid(const char *what, const char *arg, uint8_t out[16])
{
	/* Where each byte of the text form goes in the GUID's memory. */
	static const uint8_t place[16] = { 3, 2, 1, 0, 5, 4, 7, 6,
					   8, 9, 10, 11, 12, 13, 14, 15 };
	size_t len = strlen(arg), i, b = 0;
	const char *s = arg;

	if (len == 38 && arg[0] == '{' && arg[37] == '}') {
		s++;
		len -= 2;
	}
	if (len != 36)
		return bad_value(what, arg, "not a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)");
	for (i = 0; i < 36; ) {
		int hi, lo;

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i++] != '-')
				return bad_value(what, arg, "not a GUID "
						 "(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)");
			continue;
		}
		hi = hex_digit(s[i]);
		lo = hex_digit(s[i + 1]);
		if (hi < 0 || lo < 0)
			return bad_value(what, arg, "not a GUID "
					 "(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)");
		out[place[b++]] = (uint8_t)(hi << 4 | lo);
		i += 2;
	}
	return 0;
}

unsigned long cli_name_steps;

struct name_slot {
	const char *name;	/* NULL: free */
	unsigned int next;	/* the next suffix to try for this name */
};

struct name_set {
	struct name_slot *slot;
	size_t cap;		/* a power of 2, at least twice the names */
	uint32_t seed;
};

static size_t name_hash(const struct name_set *s, const char *name)
{
	uint32_t h = 2166136261U ^ s->seed;	/* FNV-1a, from a seed of this run */

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619U;
	/* Every bit into the low ones the index takes. */
	h ^= h >> 16;
	h *= 0x7FEB352DU;
	h ^= h >> 15;
	return h & (s->cap - 1);
}

/* @name's slot: its own, or the free one where it would go. */
static struct name_slot *name_slot(const struct name_set *s, const char *name)
{
	size_t i = name_hash(s, name);

	for (;; i = (i + 1) & (s->cap - 1)) {
		cli_name_steps++;
		if (!s->slot[i].name || !strcmp(s->slot[i].name, name))
			return &s->slot[i];
	}
}

uint64_t cli_seed(void)
{
	static uint64_t seed;
	static int seeded;

	if (!seeded) {
		if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
			seed = (uint64_t)(uintptr_t)&seed ^ (uint64_t)getpid() ^
			       (uint64_t)time(NULL);
		seeded = 1;
	}
	return seed;
}

double cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int cli_unique_names(char **names, unsigned int n)
{
	struct name_set s = { NULL, 16, 0 };
	unsigned int i;
	int ret = -1;

	if (n < 2)
		return 0;	/* nothing to collide */
	while (s.cap < 2 * (size_t)n)
		s.cap *= 2;
	s.slot = calloc(s.cap, sizeof(*s.slot));
	if (!s.slot)
		return -1;
	/*
	 * The names come from a file: this run's seed, so that they cannot be
	 * chosen in advance to collide (drawn once: convert asks for every
	 * event, and a system call each time was a fifth of its cost).
	 */
	s.seed = (uint32_t)cli_seed();
	for (i = 0; i < n; i++) {
		struct name_slot *e = name_slot(&s, names[i]);
		unsigned int k;
		char *r;

		if (!e->name) {
			*e = (struct name_slot){ names[i], 2 };
			continue;
		}
		/*
		 * Taken: the first suffix not taken, from where the last
		 * search for this name ended (the names only grow in number,
		 * so that those before stay taken).
		 */
		r = malloc(strlen(names[i]) + 12);
		if (!r)
			goto out;
		for (k = e->next;; k++) {
			sprintf(r, "%s_%u", names[i], k);
			if (!name_slot(&s, r)->name)
				break;
		}
		e->next = k + 1;
		free(names[i]);
		names[i] = r;
		*name_slot(&s, r) = (struct name_slot){ r, 2 };
	}
	ret = 0;
out:
	free(s.slot);
	return ret;
}

const char *cli_create_error(int err)
{
	switch (err) {
	case -ELOOP:
		return "a symbolic link: not followed, nothing written";
	case -EINVAL:
		return "not a file, FIFO or device: nothing written";
	case -EPERM:
		return "another user's file: nothing written";
	}
	return strerror(-err);
}

/*
 * The NT Kernel Logger's flags by name: EVENT_TRACE_FLAG_X as "x" (the
 * uapi's list, in bit order), then the names xperf and logman users type
 * for the same bits. xperf's kernel flags (PROC_THREAD, LOADER, ...) and
 * its group DiagEasy are those of Microsoft's "WPA Providers" page (the
 * Windows Performance Toolkit's documentation of `xperf -on`); "img" and
 * "net" are logman's and tracelog's short names. Case does not matter,
 * as for xperf.
 */
static const struct {
	const char *name;
	uint32_t bits;
	int alias;	/* not listed first in the usage texts */
} kernel_flags[] = {
	{ "process", NTTRACE_EVENT_TRACE_FLAG_PROCESS, 0 },
	{ "thread", NTTRACE_EVENT_TRACE_FLAG_THREAD, 0 },
	{ "image_load", NTTRACE_EVENT_TRACE_FLAG_IMAGE_LOAD, 0 },
	{ "process_counters", NTTRACE_EVENT_TRACE_FLAG_PROCESS_COUNTERS, 0 },
	{ "cswitch", NTTRACE_EVENT_TRACE_FLAG_CSWITCH, 0 },
	{ "dpc", NTTRACE_EVENT_TRACE_FLAG_DPC, 0 },
	{ "interrupt", NTTRACE_EVENT_TRACE_FLAG_INTERRUPT, 0 },
	{ "systemcall", NTTRACE_EVENT_TRACE_FLAG_SYSTEMCALL, 0 },
	{ "disk_io", NTTRACE_EVENT_TRACE_FLAG_DISK_IO, 0 },
	{ "disk_file_io", NTTRACE_EVENT_TRACE_FLAG_DISK_FILE_IO, 0 },
	{ "disk_io_init", NTTRACE_EVENT_TRACE_FLAG_DISK_IO_INIT, 0 },
	{ "dispatcher", NTTRACE_EVENT_TRACE_FLAG_DISPATCHER, 0 },
	{ "memory_page_faults", NTTRACE_EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS, 0 },
	{ "memory_hard_faults", NTTRACE_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS, 0 },
	{ "virtual_alloc", NTTRACE_EVENT_TRACE_FLAG_VIRTUAL_ALLOC, 0 },
	{ "vamap", NTTRACE_EVENT_TRACE_FLAG_VAMAP, 0 },
	{ "network_tcpip", NTTRACE_EVENT_TRACE_FLAG_NETWORK_TCPIP, 0 },
	{ "registry", NTTRACE_EVENT_TRACE_FLAG_REGISTRY, 0 },
	{ "dbgprint", NTTRACE_EVENT_TRACE_FLAG_DBGPRINT, 0 },
	{ "job", NTTRACE_EVENT_TRACE_FLAG_JOB, 0 },
	{ "alpc", NTTRACE_EVENT_TRACE_FLAG_ALPC, 0 },
	{ "split_io", NTTRACE_EVENT_TRACE_FLAG_SPLIT_IO, 0 },
	{ "debug_events", NTTRACE_EVENT_TRACE_FLAG_DEBUG_EVENTS, 0 },
	{ "profile", NTTRACE_EVENT_TRACE_FLAG_PROFILE, 0 },
	{ "file_io", NTTRACE_EVENT_TRACE_FLAG_FILE_IO, 0 },
	{ "file_io_init", NTTRACE_EVENT_TRACE_FLAG_FILE_IO_INIT, 0 },
	{ "no_sysconfig", NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG, 0 },
	{ "img", NTTRACE_EVENT_TRACE_FLAG_IMAGE_LOAD, 1 },
	{ "net", NTTRACE_EVENT_TRACE_FLAG_NETWORK_TCPIP, 1 },
	{ "proc_thread", NTTRACE_EVENT_TRACE_FLAG_PROCESS | NTTRACE_EVENT_TRACE_FLAG_THREAD, 1 },
	{ "loader", NTTRACE_EVENT_TRACE_FLAG_IMAGE_LOAD, 1 },
	{ "hard_faults", NTTRACE_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS, 1 },
	{ "perf_counter", NTTRACE_EVENT_TRACE_FLAG_PROCESS_COUNTERS, 1 },
	{ "diageasy", NTTRACE_EVENT_TRACE_FLAG_PROCESS | NTTRACE_EVENT_TRACE_FLAG_THREAD |
		      NTTRACE_EVENT_TRACE_FLAG_IMAGE_LOAD | NTTRACE_EVENT_TRACE_FLAG_DISK_IO |
		      NTTRACE_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS | NTTRACE_EVENT_TRACE_FLAG_DPC |
		      NTTRACE_EVENT_TRACE_FLAG_INTERRUPT | NTTRACE_EVENT_TRACE_FLAG_CSWITCH |
		      NTTRACE_EVENT_TRACE_FLAG_PROCESS_COUNTERS, 1 },
};
#define N_KERNEL_FLAGS (sizeof(kernel_flags) / sizeof(kernel_flags[0]))

/* Every name, wrapped after @prefix: the flags, then "also: " the others. */
void cli_kernel_flag_names(FILE *f, const char *prefix)
{
	size_t col = 0, i;

	for (i = 0; i < N_KERNEL_FLAGS; i++) {
		const char *name = kernel_flags[i].name;
		int first_alias = i && kernel_flags[i].alias && !kernel_flags[i - 1].alias;

		if (!col || first_alias || col + strlen(name) + 2 > 76) {
			if (col)
				fputs(first_alias ? "\n" : ",\n", f);
			col = fprintf(f, "%s%s", prefix, first_alias ? "also: " : "");
		} else {
			col += fprintf(f, ", ");
		}
		col += fprintf(f, "%s", name);
	}
	fputc('\n', f);
}

static int bad_flags(const char *arg, const char *why, const char *name)
{
	fprintf(stderr, "nttrace: --kernel '%s': %s", arg, why);
	if (name)
		fprintf(stderr, " '%s'", name);
	fprintf(stderr, "; the flags are:\n");
	cli_kernel_flag_names(stderr, "  ");
	fprintf(stderr, "  or a number made of EVENT_TRACE_FLAG_* bits\n");
	return CLI_USAGE;
}

int cli_kernel_flags(const char *arg, uint32_t *flags)
{
	const char *tok = arg, *end;
	uint32_t not_built, built;
	uint64_t v;
	size_t i;

	*flags = 0;
	/* A number, or what cli_uint() says is out of range ("-1"). */
	if ((arg[0] >= '0' && arg[0] <= '9') ||
	    (arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9')) {
		if (cli_uint("--kernel", arg, 0, UINT32_MAX, 0, &v))
			return CLI_USAGE;
		*flags = v;
	} else {
		for (;;) {
			char name[40];
			size_t len;

			end = tok + strcspn(tok, ",+");
			len = end - tok;
			if (!len)
				return bad_flags(arg, "an empty name", NULL);
			snprintf(name, sizeof(name), "%.*s", (int)len, tok);
			for (i = 0; i < N_KERNEL_FLAGS; i++)
				if (len == strlen(kernel_flags[i].name) &&
				    !strncasecmp(tok, kernel_flags[i].name, len))
					break;
			if (i == N_KERNEL_FLAGS)
				return bad_flags(arg, "no such flag", name);
			*flags |= kernel_flags[i].bits;
			if (!*end)
				break;
			tok = end + 1;
		}
	}
	/*
	 * The flags the loaded module writes no events for (none known
	 * without one: starting the session says it is missing), which it
	 * would refuse: said here by name. NO_SYSCONFIG asks for less: it
	 * produces nothing by itself.
	 */
	if (nttrace_system_flags(&built))
		built = *flags;
	not_built = *flags & ~built & ~NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG;
	if (not_built) {
		fprintf(stderr, "nttrace: --kernel '%s': nttrace writes no events for ", arg);
		cli_print_kernel_flags(stderr, not_built);
		fprintf(stderr, " (see `nttrace version`)\n");
		return 1;
	}
	return 0;
}

void cli_print_kernel_flags(FILE *f, uint32_t flags)
{
	const char *sep = "";
	uint32_t rest = flags;
	size_t i;

	for (i = 0; i < N_KERNEL_FLAGS; i++)
		if (!kernel_flags[i].alias && (flags & kernel_flags[i].bits)) {
			fprintf(f, "%s%s", sep, kernel_flags[i].name);
			rest &= ~kernel_flags[i].bits;
			sep = ",";
		}
	if (rest)
		fprintf(f, "%s0x%x", sep, rest);
	else if (!*sep)
		fputs("none", f);
}

/* xperf's -stackwalk names of the kernel events nttrace writes, and their HookIds. */
static const struct {
	const char *name;
	uint16_t hook;
} stack_events[] = {
	{ "Profile", 0x0F2E }, { "CSwitch", 0x0524 }, { "ReadyThread", 0x0532 },
	{ "SyscallEnter", 0x0F33 }, { "SyscallExit", 0x0F34 },
	{ "ProcessCreate", 0x0301 }, { "ProcessDelete", 0x0302 },
	{ "ThreadCreate", 0x0501 }, { "ThreadDelete", 0x0502 }, { "ImageLoad", 0x140A },
	{ "DiskReadInit", 0x010C }, { "DiskWriteInit", 0x010D }, { "ImageUnload", 0x1402 },
	{ "PagefaultTransition", 0x020A }, { "PagefaultDemandZero", 0x020B },
	{ "PagefaultCopyOnWrite", 0x020C }, { "PagefaultHard", 0x020E },
	{ "PagefaultAV", 0x020F }, { "HardFault", 0x0220 }, { "VirtualAlloc", 0x0262 },
	{ "VirtualFree", 0x0263 }, { "FileCreate", 0x0440 }, { "FileCleanup", 0x0441 },
	{ "FileClose", 0x0442 }, { "FileRead", 0x0443 }, { "FileWrite", 0x0444 },
	{ "FileDelete", 0x0446 }, { "FileRename", 0x0447 }, { "FileFlush", 0x0449 },
	{ "FileOpEnd", 0x044C },
};
#define N_STACK_EVENTS (sizeof(stack_events) / sizeof(stack_events[0]))

int cli_stack_hook(const char *name, uint16_t *hook)
{
	size_t i;

	for (i = 0; i < N_STACK_EVENTS; i++)
		if (!strcasecmp(name, stack_events[i].name)) {
			*hook = stack_events[i].hook;
			return 0;
		}
	return -1;
}

int cli_stack_events(const char *arg, uint16_t *hooks, uint32_t *n)
{
	const char *tok = arg, *end;
	size_t i, len;

	*n = 0;
	for (;;) {
		end = tok + strcspn(tok, ",+");
		len = end - tok;
		for (i = 0; i < N_STACK_EVENTS; i++)
			if (len && len == strlen(stack_events[i].name) &&
			    !strncasecmp(tok, stack_events[i].name, len))
				break;
		if (i == N_STACK_EVENTS || *n == NTTRACE_STACKS_MAX) {
			size_t col = 1;

			fprintf(stderr, "nttrace: --stacks '%s': no event '%.*s'; the events are:\n ",
				arg, (int)len, tok);
			for (i = 0; i < N_STACK_EVENTS; i++) {
				size_t w = strlen(stack_events[i].name) + 1;

				if (col + w > 78) {
					fputs("\n ", stderr);
					col = 1;
				}
				fprintf(stderr, " %s", stack_events[i].name);
				col += w;
			}
			fprintf(stderr, "\n");
			return CLI_USAGE;
		}
		hooks[(*n)++] = stack_events[i].hook;
		if (!*end)
			return 0;
		tok = end + 1;
	}
}

int cli_set_stacks(uint32_t logger_id, const uint16_t *hooks, uint32_t n)
{
	struct nttrace_stacks st = {
		.size = sizeof(st), .logger_id = logger_id, .flags = NTTRACE_STACKS_SET,
		.count = n, .hooks = (uintptr_t)hooks,
	};
	int fd = nttrace_device_fd();

	if (fd < 0)
		return fd;
	return ioctl(fd, NTTRACE_IOC_STACKS, &st) < 0 ? -errno : 0;
}

int cli_set_stacks_each(uint32_t logger_id, uint16_t *hooks, uint32_t *n, uint16_t *refused,
			uint32_t *n_refused)
{
	uint32_t i, kept = 0;
	int ret = cli_set_stacks(logger_id, hooks, *n);

	*n_refused = 0;
	if (ret != -EOPNOTSUPP)
		return ret;
	/* Which of them the module writes no event for: one at a time. */
	for (i = 0; i < *n; i++) {
		hooks[kept] = hooks[i];
		ret = cli_set_stacks(logger_id, hooks, kept + 1);
		if (!ret)
			kept++;
		else if (ret == -EOPNOTSUPP)
			refused[(*n_refused)++] = hooks[i];
		else
			return ret;
	}
	*n = kept;
	return cli_set_stacks(logger_id, hooks, kept);
}

int cli_kernel_session(const char *name, uint32_t flags, uint32_t mode,
		       struct nttrace_logger_info *info)
{
	memset(info, 0, sizeof(*info));
	if (!name)
		name = NTTRACE_KERNEL_LOGGER_NAME;
	if (nttrace_set_name(info, name)) {
		fprintf(stderr, "nttrace: session name too long (most %d bytes)\n",
			NTTRACE_NAME_MAX - 1);
		return CLI_USAGE;
	}
	info->log_file_mode = mode;
	/* Another name: a system logger of its own (uapi "System loggers"). */
	if (strcasecmp(name, NTTRACE_KERNEL_LOGGER_NAME))
		info->log_file_mode |= NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE;
	info->group_mask[0] = flags;
	return 0;
}

int cli_state_path(const char *tool, const char *name, char *path, size_t room)
{
	const char *base = getenv("XDG_RUNTIME_DIR");
	char dir[PATH_MAX];
	struct stat st;
	size_t n;

	if (!base || base[0] != '/')
		base = "/tmp";
	snprintf(dir, sizeof(dir), "%s/nttrace-%s-%u", base, tool, (unsigned int)geteuid());
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	if (lstat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077))
		return -EPERM;
	n = snprintf(path, room, "%s/", dir);
	/* The name as a file name: '/' and '%' as %2F and %25. */
	for (; *name && n + 4 < room; name++) {
		if (*name == '/' || *name == '%')
			n += snprintf(path + n, room - n, "%%%02X", *name);
		else
			path[n++] = *name;
	}
	if (*name || n >= room)
		return -ENAMETOOLONG;
	path[n] = 0;
	return 0;
}

int cli_start_fitted(struct nttrace_logger_info *info, const char *name)
{
	for (;;) {
		struct nttrace_logger_info try = *info;
		int ret = nttrace_start(&try);

		if ((ret == -ENOBUFS || ret == -ENOMEM || ret == -E2BIG) &&
		    info->max_buffers / 2 >= NTTRACE_MIN_BUFFERS) {
			info->max_buffers /= 2;
			if (info->min_buffers > info->max_buffers)
				info->min_buffers = info->max_buffers;
			printf("%s: %u buffers a CPU do not fit (%s); trying %u\n", name,
			       info->max_buffers * 2, cli_strerror(ret), info->max_buffers);
			continue;
		}
		if (!ret)
			*info = try;
		return ret;
	}
}

void cli_same_tool(void)
{
	static char self[PATH_MAX];
	ssize_t n;

	if (getenv("NTTRACE_TOOL"))
		return;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = 0;
		setenv("NTTRACE_TOOL", self, 1);
	}
}

int cli_state_write(const char *tool, const char *name, const char *text)
{
	char path[PATH_MAX];
	int fd, ret = cli_state_path(tool, name, path, sizeof(path));
	size_t n = strlen(text);

	if (ret)
		return ret;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	ret = write(fd, text, n) == (ssize_t)n ? 0 : -EIO;
	close(fd);
	if (ret)
		unlink(path);
	return ret;
}

int cli_state_read(const char *tool, const char *name, char *text, size_t room, int remove)
{
	char path[PATH_MAX];
	int fd, ret = cli_state_path(tool, name, path, sizeof(path));
	ssize_t n;

	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, text, room - 1);
	close(fd);
	if (remove)
		unlink(path);
	if (n <= 0)
		return -ENOENT;
	text[n] = 0;
	return 0;
}

void cli_session_buffers(struct nttrace_logger_info *info, uint64_t min_total, uint64_t max_total)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t max, min;

	if (cpus < 1)
		cpus = 1;
	max = (max_total + cpus - 1) / cpus;
	min = (min_total + cpus - 1) / cpus;
	if (max < NTTRACE_MIN_BUFFERS)
		max = NTTRACE_MIN_BUFFERS;
	if (max > NTTRACE_MAX_BUFFERS)
		max = NTTRACE_MAX_BUFFERS;
	if (min < NTTRACE_MIN_BUFFERS)
		min = NTTRACE_MIN_BUFFERS;
	if (min > max)
		min = max;
	info->max_buffers = max;
	info->min_buffers = min;
}

void cli_arg(struct cli_args *a, const char *fmt, ...)
{
	va_list ap;

	if (a->argc == CLI_ARGS) {
		a->full = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(a->text[a->argc], sizeof(a->text[0]), fmt, ap);
	va_end(ap);
	a->argv[a->argc] = a->text[a->argc];
	a->argv[++a->argc] = NULL;
}

int cli_make_dirs(const char *dir)
{
	char path[PATH_MAX], *p;

	if ((size_t)snprintf(path, sizeof(path), "%s", dir) >= sizeof(path))
		return -ENAMETOOLONG;
	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(path, 0755) && errno != EEXIST ? -errno : 0;
}
