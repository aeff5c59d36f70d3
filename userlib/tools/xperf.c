// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace xperf: xperf's command line over nttrace's sessions.
 *
 *   nttrace xperf -on PROC_THREAD+LOADER+PROFILE -stackwalk Profile [-f kernel.etl]
 *   nttrace xperf -start NAME -on PROVIDER[:KEYWORDS[:LEVEL[:'stack']]]+... [-f user.etl]
 *   nttrace xperf -stop [NAME]... [-d merged.etl]   |   -d merged.etl
 *   nttrace xperf -flush [NAME]   |   -providers [K|KF|KG|I|R]   |   -merge IN... OUT
 *   nttrace xperf -loggers
 *
 * As xperf: the options before any -start are the kernel logger's (the
 * NT Kernel Logger, a system logger: CAP_PERFMON); each -start NAME
 * begins a session of its own, its providers' events written to its file
 * (\Kernel.etl and \User.etl on Windows, the root of the drive: here
 * kernel.etl and user.etl in the current directory). Buffer options are
 * xperf's: -BufferSize KB (4 to 1024, 64 by default), -MinBuffers and
 * -MaxBuffers for the whole session (64 and 320; nttrace's rings are per
 * CPU, so a CPU gets its share, and a count the module's limits refuse is
 * halved until it fits, which is said), -MaxFile MB, -FileMode Sequential,
 * Circular, Append or NewFile (-f's name then holds a %d), -FlushTimer s,
 * -ClockType PerfCounter|SystemTime|Cycle, -realtime. If one session of a
 * command fails, those it started are
 * stopped. -stop waits until each file is complete; -d merges the files of
 * the sessions it stopped (the kernel logger's when none is named), as
 * `nttrace merge` does.
 *
 * -buffering keeps a session in memory (EVENT_TRACE_BUFFERING_MODE: its
 * rings overwrite their oldest buffers, no file is written); -flush [NAME]
 * -f FILE then saves what the rings hold to FILE and the session goes on,
 * as xperf saves a buffering session. Each save takes the buffers
 * recorded since the one before it, as many as the rings still hold;
 * -stop ends such a session and keeps nothing. Flags and
 * stacks nttrace records nothing for are listed once, "not recorded".
 * Which file each session writes is kept in a state file of the user's own
 * (cli_state_path()) for -stop and -d.
 *
 * Errors are xperf's: "xperf: error: NAME: message (0xcode)."; exit
 * status 1, 2 for a usage error.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <nttrace/nt.h>
#include <nttrace/tdh.h>

#include "cli.h"
#include "xperf.h"
#include "../logger/logger_internal.h"

#define MAX_LOGGERS	8
#define MAX_STOPS	16

struct logger {
	const char *name;		/* NULL: the NT Kernel Logger */
	const char *on, *file, *stackwalk[16];
	unsigned int n_stackwalk;
	uint64_t buffer_kb, min_buffers, max_buffers, max_file, flush_timer;
	uint32_t clock;
	int circular, newfile, append, realtime, buffering;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace xperf -on FLAGS|GROUPS [-stackwalk EVENTS] [-f FILE] [OPTIONS]\n"
		"                     [-start NAME -on PROVIDERS [-f FILE] [OPTIONS]]...\n"
		"       nttrace xperf -stop [NAME]... [-d MERGED.etl]  |  -d MERGED.etl\n"
		"       nttrace xperf -flush [NAME] [-f FILE]  |  -providers [K|KF|KG|I|R]\n"
		"       nttrace xperf -loggers\n"
		"       nttrace xperf -merge IN.etl... OUT.etl\n\n"
		"xperf's commands. FLAGS are the kernel logger's flags and groups\n"
		"(`-providers K` lists them), joined by +; PROVIDERS are\n"
		"GUID|Name[:Keywords[:Level[:'stack']]] joined by +. OPTIONS: -BufferSize KB,\n"
		"-MinBuffers N, -MaxBuffers N, -MaxFile MB,\n"
		"-FileMode Sequential|Circular|Append|NewFile,\n"
		"-FlushTimer S, -ClockType PerfCounter|SystemTime|Cycle, -realtime,\n"
		"-buffering (in memory only, until -flush NAME -f FILE saves it). The\n"
		"kernel logger writes kernel.etl, a session user.etl (in the current\n"
		"directory) unless -f says else. -stackwalk takes xperf's event names\n"
		"(Profile, CSwitch, ReadyThread, ...) or 0xGGTT, joined by +. -stop with\n"
		"no NAME stops the kernel logger; -d merges the stopped sessions' files.\n"
		"The kernel logger needs CAP_PERFMON, as xperf needs an administrator.\n");
}

/* xperf's way of failing: "xperf: error: CONTEXT: message (0xcode)."; 1. */
static int xfail(const char *ctx, const char *message, uint32_t code)
{
	fprintf(stderr, "xperf: error: %s: %s (0x%x).\n", ctx, message, code);
	return 1;
}

static int is_kernel(const struct logger *l)
{
	return !l->name || !strcasecmp(l->name, NTTRACE_KERNEL_LOGGER_NAME);
}

static const char *logger_name(const struct logger *l)
{
	return l->name ? l->name : NTTRACE_KERNEL_LOGGER_NAME;
}

/* ---- starting ---- */

/* -stackwalk names or 0xGGTT, into @hooks; what nttrace has no stack for into @skipped. */
static int stack_hooks(const struct logger *l, uint16_t *hooks, uint32_t *n, char *skipped,
		       size_t room)
{
	unsigned int i;

	*n = 0;
	for (i = 0; i < l->n_stackwalk; i++) {
		const char *p = l->stackwalk[i];

		while (*p) {
			size_t len = strcspn(p, "+");
			char name[64];
			uint16_t hook;
			uint64_t v;

			snprintf(name, sizeof(name), "%.*s", (int)len, p);
			if (!strncasecmp(name, "0x", 2)) {
				if (cli_uint("-stackwalk", name, 0, 0xFFFF, 0, &v))
					return CLI_USAGE;
				hook = v;
			} else if (cli_stack_hook(name, &hook)) {
				hook = 0;
			}
			/* A HookId the module writes no event for is refused by it: listed. */
			if (hook && *n < NTTRACE_STACKS_MAX) {
				hooks[(*n)++] = hook;
			} else {
				size_t k = strlen(skipped);

				snprintf(skipped + k, room - k, "%sstack %s", k ? ", " : "", name);
			}
			p += len + !!p[len];
		}
	}
	return 0;
}

/* One provider of -on: GUID|Name[:Keywords[:Level[:'stack']]]. */
static int enable_one(uint32_t id, char *spec, PROVIDER_ENUMERATION_INFO **known)
{
	struct nttrace_enable e = { .size = sizeof(e), .logger_id = id,
				    .control = EVENT_CONTROL_CODE_ENABLE_PROVIDER, .level = 0xFF };
	char *field[4] = { spec, NULL, NULL, NULL };
	unsigned int k;
	uint64_t v;
	int fd;

	for (k = 1; k < 4; k++) {
		char *c = field[k - 1] ? strchr(field[k - 1], ':') : NULL;

		if (!c)
			break;
		*c = 0;
		field[k] = c + 1;
	}
	if (cli_provider_guid(known, field[0], e.guid))
		return xfail(field[0], "The provider is not known here: give its GUID", 0x2);
	if (field[1] && *field[1]) {
		if (cli_uint("keywords", field[1], 0, UINT64_MAX, 0, &v))
			return CLI_USAGE;
		e.match_any_keyword = v;
		e.enable_flags = (uint32_t)v;
	}
	if (field[2] && *field[2]) {
		if (cli_uint("level", field[2], 0, 255, 0, &v))
			return CLI_USAGE;
		e.level = v;
	}
	if (field[3] && *field[3]) {
		if (strcasecmp(field[3], "'stack'") && strcasecmp(field[3], "stack")) {
			fprintf(stderr, "nttrace xperf: %s: only 'stack' is taken there (not sid, "
				"tsid or a number)\n", field[3]);
			return CLI_USAGE;
		}
		e.enable_property = NTTRACE_ENABLE_PROPERTY_STACK_TRACE;
	}
	fd = nttrace_device_fd();
	if (fd < 0 || ioctl(fd, NTTRACE_IOC_ENABLE, &e) < 0)
		return xfail(field[0], strerror(fd < 0 ? -fd : errno), 0x57);
	return 0;
}

/* @arg's absolute path (its directory must exist), into @out. */
static int absolute(const char *arg, char *out, size_t room)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(arg, '/');

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - arg) : 1, slash ? arg : ".");
	if (slash == arg)
		snprintf(dir, sizeof(dir), "/");
	if (!realpath(dir, real))
		return -errno;
	return (size_t)snprintf(out, room, "%s/%s", strcmp(real, "/") ? real : "",
				slash ? slash + 1 : arg) >= room ? -ENAMETOOLONG : 0;
}

static int start_logger(const struct logger *l, char *skipped, size_t room)
{
	struct nttrace_logger_info info;
	const char *name = logger_name(l);
	uint16_t hooks[NTTRACE_STACKS_MAX];
	PROVIDER_ENUMERATION_INFO *known = NULL;
	char file[PATH_MAX], *spec;
	uint32_t n_hooks = 0, flags = 0, built, mode;
	pid_t pid;
	int ret;

	if (l->buffering && l->file) {
		fprintf(stderr, "nttrace xperf: -buffering writes no file: give -f to "
			"-flush %s, which saves the buffers\n", name);
		return CLI_USAGE;
	}
	if (l->buffering && l->realtime) {
		fprintf(stderr, "nttrace xperf: -buffering and -realtime exclude each other\n");
		return CLI_USAGE;
	}
	mode = l->buffering ? EVENT_TRACE_BUFFERING_MODE :
	       l->realtime ? EVENT_TRACE_REAL_TIME_MODE :
	       l->circular ? EVENT_TRACE_FILE_MODE_CIRCULAR :
	       l->newfile ? EVENT_TRACE_FILE_MODE_NEWFILE :
	       l->append ? EVENT_TRACE_FILE_MODE_APPEND : EVENT_TRACE_FILE_MODE_SEQUENTIAL;
	if (is_kernel(l)) {
		char none[512];
		const char *bad;
		size_t bad_len, k = strlen(skipped);

		if (xperf_kernel_flags(l->on, &flags, none, sizeof(none), &bad, &bad_len)) {
			fprintf(stderr, "xperf: error: -on: '%.*s' is not a kernel flag or group "
				"(`nttrace xperf -providers K` lists them)\n", (int)bad_len, bad);
			return CLI_USAGE;
		}
		if (none[0])
			snprintf(skipped + k, room - k, "%s%s", k ? ", " : "", none);
		/* Flags the loaded module has no events for, which it would refuse. */
		if (!nttrace_system_flags(&built) &&
		    (flags & ~built & ~NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG)) {
			k = strlen(skipped);
			if (k < room - 1) {
				FILE *m = fmemopen(skipped + k, room - k, "w");

				if (m) {
					fprintf(m, "%s", k ? ", " : "");
					cli_print_kernel_flags(m, flags & ~built &
							       ~NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG);
					fclose(m);
				}
			}
			flags &= built | NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG;
		}
		ret = stack_hooks(l, hooks, &n_hooks, skipped, room);
		if (ret)
			return ret;
		if (cli_kernel_session(NULL, flags, mode, &info))
			return CLI_USAGE;
	} else {
		if (l->n_stackwalk) {
			fprintf(stderr, "nttrace xperf: -stackwalk is the kernel logger's\n");
			return CLI_USAGE;
		}
		memset(&info, 0, sizeof(info));
		if (nttrace_set_name(&info, name)) {
			fprintf(stderr, "nttrace xperf: -start '%s': longer than %d bytes\n", name,
				NTTRACE_NAME_MAX - 1);
			return CLI_USAGE;
		}
		info.log_file_mode = mode;
	}
	info.buffer_size_kb = l->buffer_kb ? l->buffer_kb : 64;
	cli_session_buffers(&info, l->min_buffers ? l->min_buffers : 64,
			    l->max_buffers ? l->max_buffers : 320);
	info.flush_timer = l->flush_timer;
	info.clock_type = l->clock;
	ret = cli_start_fitted(&info, name);
	if (ret == -EEXIST)
		return xfail(name, "Cannot create a file when that file already exists.", 0xb7);
	if (ret == -EPERM && is_kernel(l))
		return xfail(name, "Access is denied: the kernel logger needs CAP_PERFMON or "
			     "CAP_SYS_ADMIN in the initial user and PID namespaces", 0x5);
	if (ret)
		return xfail(name, ret == -ENODEV ? CLI_NOT_LOADED : strerror(-ret), 0x57);
	if (n_hooks) {
		uint16_t refused[NTTRACE_STACKS_MAX];
		uint32_t n_refused, k;

		ret = cli_set_stacks_each(info.logger_id, hooks, &n_hooks, refused, &n_refused);
		if (ret) {
			ret = xfail(name, strerror(-ret), 0x57);
			goto stop;
		}
		/* Stacks of events this module does not write: listed. */
		for (k = 0; k < n_refused; k++) {
			size_t at = strlen(skipped);

			snprintf(skipped + at, room - at, "%sstack 0x%04x", at ? ", " : "",
				 refused[k]);
		}
	}
	for (spec = is_kernel(l) ? NULL : strtok(strdupa(l->on), "+"); spec; spec = strtok(NULL, "+"))
		if ((ret = enable_one(info.logger_id, spec, &known)))
			goto stop;
	if (!l->realtime && !l->buffering) {
		ret = absolute(l->file ? l->file : is_kernel(l) ? "kernel.etl" : "user.etl", file,
			       sizeof(file));
		cli_same_tool();
		if (!ret)
			ret = nttrace_start_file_logger(info.logger_id, file, l->max_file, &pid);
		if (!ret)
			ret = cli_state_write("xperf", name, file);
		if (ret) {
			ret = xfail(l->file ? l->file : name, cli_create_error(ret), 0x2);
			goto stop;
		}
	}
	free(known);
	return 0;
stop:
	free(known);
	info.control_flags = NTTRACE_CONTROL_WAIT_CONSUMER;
	nttrace_control(&info, EVENT_TRACE_CONTROL_STOP);
	return ret;
}

/* ---- stopping, merging ---- */

static int stop_one(const char *name, char *file, size_t room)
{
	struct nttrace_logger_info info;
	int ret;

	memset(&info, 0, sizeof(info));
	if (nttrace_set_name(&info, name))
		return xfail(name, "The instance name passed was not recognized as valid by a "
			     "WMI data provider.", 0x1069);
	info.control_flags = NTTRACE_CONTROL_WAIT_CONSUMER;
	ret = nttrace_control(&info, EVENT_TRACE_CONTROL_STOP);
	if (ret == -ENOENT)
		return xfail(name, "The instance name passed was not recognized as valid by a "
			     "WMI data provider.", 0x1069);
	if (ret == -EPERM)
		return xfail(name, "Access is denied.", 0x5);
	if (ret)
		return xfail(name, ret == -ENODEV ? CLI_NOT_LOADED : strerror(-ret), 0x57);
	if (cli_state_read("xperf", name, file, room, 1))
		file[0] = 0;
	if (info.events_lost)
		fprintf(stderr, "xperf: warning: %s: %llu events were lost.\n", name,
			(unsigned long long)info.events_lost);
	return 0;
}

/*
 * -flush NAME -f FILE of a session in buffering mode: what its rings hold,
 * its partly filled buffers flushed first, written to FILE as a logger
 * writes it; the session goes on. The buffers saved are released to it.
 */
static int save_buffers(const char *name, const char *file)
{
	struct nttrace_logger_info info;
	struct nttrace_etl_session es;
	struct nttrace_logfile lf;
	struct nttrace_consumer *c;
	struct nttrace_counts n;
	char path[PATH_MAX];
	long got;
	int ret;

	memset(&info, 0, sizeof(info));
	if (nttrace_set_name(&info, name) ||
	    nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY) == -ENOENT)
		return xfail(name, "The instance name passed was not recognized as valid by a "
			     "WMI data provider.", 0x1069);
	if (!(info.log_file_mode & EVENT_TRACE_BUFFERING_MODE))
		return xfail(name, "-f is for a session in buffering mode (-buffering); "
			     "this one writes its own file", 0x57);
	ret = nttrace_consumer_open(&c, info.logger_id);
	if (ret)
		return xfail(name, ret == -EPERM ? "Access is denied." : strerror(-ret),
			     ret == -EPERM ? 0x5 : 0x57);
	ret = nttrace_control(&info, EVENT_TRACE_CONTROL_FLUSH);
	if (!ret)
		ret = absolute(file, path, sizeof(path));
	if (ret) {
		nttrace_consumer_close(c);
		return xfail(name, strerror(-ret), 0x57);
	}
	nttrace_etl_from_info(&es, &info);
	ret = nttrace_logfile_open(&lf, path, &es);
	if (ret) {
		nttrace_consumer_close(c);
		return xfail(file, cli_create_error(ret), 0x2);
	}
	got = nttrace_consumer_drain(c, nttrace_logfile_buffer, &lf);
	nttrace_consumer_counts(c, &n);
	ret = nttrace_logfile_close(&lf, n.events_lost + n.events_overwritten,
				    n.buffers_overwritten);
	nttrace_consumer_close(c);
	if (got < 0 || ret) {
		unlink(path);
		return xfail(file, strerror(got < 0 ? (int)-got : -ret), 0x1d);
	}
	printf("%s: %llu events in %llu buffers saved to %s\n", name,
	       (unsigned long long)lf.events, (unsigned long long)lf.buffers, path);
	return 0;
}

static int merge(char **in, unsigned int n, const char *out)
{
	char *argv[MAX_STOPS + 64 + 4];
	unsigned int argc = 0, i;

	argv[argc++] = (char *)"merge";
	argv[argc++] = (char *)"-o";
	argv[argc++] = (char *)out;
	for (i = 0; i < n; i++)
		argv[argc++] = in[i];
	argv[argc] = NULL;
	optind = 0;
	if (cmd_merge(argc, argv))
		return xfail("Merge ETL", "The files could not be merged", 0x1f);
	printf("Merged Etl: %s\n", out);
	return 0;
}

/* ---- listing ---- */

static int providers(const char *what)
{
	PROVIDER_ENUMERATION_INFO *known;
	char *args[] = { (char *)"providers", NULL };
	ULONG i;

	if (!what || !strcasecmp(what, "K") || !strcasecmp(what, "KF") || !strcasecmp(what, "KG") ||
	    !strcasecmp(what, "KernelFlags") || !strcasecmp(what, "KernelGroups") ||
	    !strcasecmp(what, "Kernel"))
		xperf_list_flags(stdout, !what || strcasecmp(what, "KG"),
				 !what || (strcasecmp(what, "KF") && strcasecmp(what, "KernelFlags")));
	if (!what || !strcasecmp(what, "I") || !strcasecmp(what, "Installed")) {
		known = cli_tdh_providers();
		printf("Installed Providers:\n");
		for (i = 0; known && i < known->NumberOfProviders; i++) {
			const TRACE_PROVIDER_INFO *t = &known->TraceProviderInfoArray[i];
			const uint8_t *g = (const uint8_t *)&t->ProviderGuid;
			char *s = render_utf16((const WCHAR *)((const uint8_t *)known +
								 t->ProviderNameOffset));

			printf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x"
			       "                                 : %s\n",
			       g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6], g[8], g[9], g[10],
			       g[11], g[12], g[13], g[14], g[15], s ? s : "");
			free(s);
		}
		free(known);
	}
	if (!what || !strcasecmp(what, "R") || !strcasecmp(what, "Registered")) {
		printf("Registered Providers:\n");
		fflush(stdout);
		optind = 0;
		return cmd_providers(1, args);
	}
	return 0;
}

static int loggers(void)
{
	uint32_t ids[NTTRACE_MAX_LOGGERS], n, i;
	int ret = nttrace_list(ids, NTTRACE_MAX_LOGGERS, &n);

	if (ret)
		return xfail("-loggers", ret == -ENODEV ? CLI_NOT_LOADED : strerror(-ret), 0x57);
	for (i = 0; i < n && i < NTTRACE_MAX_LOGGERS; i++) {
		struct nttrace_logger_info info = { .logger_id = ids[i] };
		char file[PATH_MAX];

		if (nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY))
			continue;
		printf("Logger Name           : %s\n", (const char *)info.name);
		printf("Logger Id             : %u\n", info.logger_id);
		printf("Buffer Size           : %u\n", info.buffer_size_kb);
		printf("Maximum Buffers       : %u\n", info.max_buffers * info.nr_cpus);
		printf("Minimum Buffers       : %u\n", info.min_buffers * info.nr_cpus);
		printf("Number of Buffers     : %u\n", info.number_of_buffers);
		printf("Free Buffers          : %u\n", info.free_buffers);
		printf("Buffers Written       : %u\n", info.buffers_written);
		printf("Events Lost           : %llu\n", (unsigned long long)info.events_lost);
		printf("Log Buffers Lost      : %u\n", info.log_buffers_lost);
		printf("Real Time Buffers Lost: %u\n", info.real_time_buffers_lost);
		printf("Flush Timer           : %u\n", info.flush_timer);
		printf("Log Filename          : %s\n",
		       cli_state_read("xperf", (const char *)info.name, file, sizeof(file), 0) ? "" : file);
		if (info.logger_id == NTTRACE_KERNEL_LOGGER_ID ||
		    (info.log_file_mode & NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE)) {
			printf("Trace Flags           : ");
			cli_print_kernel_flags(stdout, info.group_mask[0]);
			printf("\n");
		}
		printf("\n");
	}
	return 0;
}

/* ---- the command line ---- */

static int opt_is(const char *arg, const char *name)
{
	return (arg[0] == '-' || arg[0] == '/') && !strcasecmp(arg + 1, name);
}

static int number(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *v)
{
	return cli_uint(opt, arg, min, max, 0, v);
}

int cmd_xperf(int argc, char **argv)
{
	struct logger lg[MAX_LOGGERS] = { { 0 } }, *cur = &lg[0];
	const char *stops[MAX_STOPS], *merged = NULL, *flush = NULL, *what = NULL;
	char files[MAX_STOPS][PATH_MAX], *to_merge[MAX_STOPS + 64];
	unsigned int n_lg = 1, n_stops = 0, n_merge = 0, i;
	int stop = 0, do_flush = 0, do_providers = 0, do_loggers = 0, merge_only = 0;
	char skipped[1024] = "";
	int ret = 0;

	for (i = 1; i < (unsigned int)argc; i++) {
		const char *a = argv[i];
		const char *next = i + 1 < (unsigned int)argc ? argv[i + 1] : NULL;
		int has_next = next && next[0] != '-';
		uint64_t v;

		if (opt_is(a, "help") || opt_is(a, "?") || opt_is(a, "h")) {
			usage(stdout);
			return 0;
		} else if (opt_is(a, "start") && has_next) {
			if (n_lg == MAX_LOGGERS)
				return xfail("-start", "too many sessions on one command line", 0x57);
			cur = &lg[n_lg++];
			cur->name = argv[++i];
		} else if (opt_is(a, "on") && has_next) {
			cur->on = argv[++i];
		} else if (opt_is(a, "f") && has_next) {
			cur->file = argv[++i];
		} else if (opt_is(a, "stackwalk") && has_next) {
			if (cur->n_stackwalk == 16)
				return CLI_USAGE;
			cur->stackwalk[cur->n_stackwalk++] = argv[++i];
		} else if (opt_is(a, "BufferSize") && has_next) {
			if (number(a, argv[++i], NTTRACE_MIN_BUFFER_KB, NTTRACE_MAX_BUFFER_KB, &v))
				return CLI_USAGE;
			cur->buffer_kb = v;
		} else if (opt_is(a, "MinBuffers") && has_next) {
			if (number(a, argv[++i], 1, 1U << 20, &cur->min_buffers))
				return CLI_USAGE;
		} else if (opt_is(a, "MaxBuffers") && has_next) {
			if (number(a, argv[++i], 1, 1U << 20, &cur->max_buffers))
				return CLI_USAGE;
		} else if (opt_is(a, "MaxFile") && has_next) {
			if (number(a, argv[++i], 0, UINT32_MAX, &cur->max_file))
				return CLI_USAGE;
		} else if (opt_is(a, "FlushTimer") && has_next) {
			if (number(a, argv[++i], 0, UINT32_MAX, &cur->flush_timer))
				return CLI_USAGE;
		} else if (opt_is(a, "FileMode") && has_next) {
			const char *m = argv[++i];

			if (!strcasecmp(m, "Circular") || !strcasecmp(m, "Sequential") ||
			    !strcasecmp(m, "NewFile") || !strcasecmp(m, "Append")) {
				cur->circular = !strcasecmp(m, "Circular");
				cur->newfile = !strcasecmp(m, "NewFile");
				cur->append = !strcasecmp(m, "Append");
			} else {
				fprintf(stderr, "nttrace xperf: -FileMode %s: not Sequential, Circular, "
					"Append or NewFile\n", m);
				return CLI_USAGE;
			}
		} else if (opt_is(a, "ClockType") && has_next) {
			const char *c = argv[++i];

			cur->clock = !strcasecmp(c, "PerfCounter") ? NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER :
				     !strcasecmp(c, "SystemTime") ? NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME :
				     !strcasecmp(c, "Cycle") ? NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE : 0;
			if (!cur->clock) {
				fprintf(stderr, "nttrace xperf: -ClockType %s: not PerfCounter, "
					"SystemTime or Cycle\n", c);
				return CLI_USAGE;
			}
		} else if (opt_is(a, "realtime")) {
			cur->realtime = 1;
		} else if (opt_is(a, "buffering")) {
			cur->buffering = 1;
		} else if (opt_is(a, "stop")) {
			unsigned int before = n_stops;

			stop = 1;
			while (i + 1 < (unsigned int)argc && argv[i + 1][0] != '-' && n_stops < MAX_STOPS)
				stops[n_stops++] = argv[++i];
			/* -stop alone is the kernel logger's. */
			if (n_stops == before && n_stops < MAX_STOPS)
				stops[n_stops++] = NTTRACE_KERNEL_LOGGER_NAME;
		} else if (opt_is(a, "d") && has_next) {
			merged = argv[++i];
		} else if (opt_is(a, "flush")) {
			do_flush = 1;
			if (has_next)
				flush = argv[++i];
		} else if (opt_is(a, "providers")) {
			do_providers = 1;
			if (has_next)
				what = argv[++i];
		} else if (opt_is(a, "loggers")) {
			do_loggers = 1;
		} else if (opt_is(a, "merge")) {
			merge_only = 1;
			while (i + 1 < (unsigned int)argc && argv[i + 1][0] != '-' && n_merge < 64)
				to_merge[n_merge++] = argv[++i];
		} else {
			fprintf(stderr, "xperf: error: Invalid option: %s\n", a);
			usage(stderr);
			return CLI_USAGE;
		}
	}
	if (do_providers)
		return providers(what);
	if (do_loggers)
		return loggers();
	if (merge_only) {
		if (n_merge < 2) {
			usage(stderr);
			return CLI_USAGE;
		}
		return merge(to_merge, n_merge - 1, to_merge[n_merge - 1]);
	}
	if (do_flush && lg[n_lg - 1].file)
		return save_buffers(flush ? flush : NTTRACE_KERNEL_LOGGER_NAME, lg[n_lg - 1].file);
	if (do_flush) {
		struct nttrace_logger_info info;

		memset(&info, 0, sizeof(info));
		nttrace_set_name(&info, flush ? flush : NTTRACE_KERNEL_LOGGER_NAME);
		ret = nttrace_control(&info, EVENT_TRACE_CONTROL_FLUSH);
		return ret ? xfail(flush ? flush : NTTRACE_KERNEL_LOGGER_NAME,
				   ret == -ENOENT ? "The instance name passed was not recognized "
				   "as valid by a WMI data provider." : strerror(-ret),
				   ret == -ENOENT ? 0x1069 : 0x57) : 0;
	}
	/* Start what has -on; with a stop, nothing else. */
	for (i = 0; i < n_lg && !stop && !merged; i++) {
		if (!lg[i].on) {
			/* The kernel logger's options may be left out; a -start's -on not. */
			if (i) {
				fprintf(stderr, "nttrace xperf: -start %s: no -on\n", lg[i].name);
				return CLI_USAGE;
			}
			continue;
		}
		ret = start_logger(&lg[i], skipped, sizeof(skipped));
		if (ret) {
			/* What this command started before is stopped again. */
			while (i--) {
				char f[PATH_MAX];

				if (lg[i].on && !stop_one(logger_name(&lg[i]), f, sizeof(f)) && f[0])
					unlink(f);
			}
			return ret;
		}
	}
	if (!stop && !merged) {
		if (n_lg == 1 && !lg[0].on) {
			usage(stderr);
			return CLI_USAGE;
		}
		if (skipped[0])
			printf("Not recorded on Linux: %s.\n", skipped);
		return 0;
	}
	if (!n_stops)
		stops[n_stops++] = NTTRACE_KERNEL_LOGGER_NAME;
	n_merge = 0;
	for (i = 0; i < n_stops; i++) {
		if (stop_one(stops[i], files[i], sizeof(files[i])))
			ret = 1;
		else if (files[i][0])
			to_merge[n_merge++] = files[i];
	}
	if (merged && n_merge)
		ret |= merge(to_merge, n_merge, merged);
	else if (merged && !ret)
		ret = xfail("Merge ETL", "No file of the sessions stopped to merge", 0x2);
	return ret;
}
