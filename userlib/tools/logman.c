// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace logman: logman's trace commands for event trace sessions (-ets)
 * over nttrace's:
 *
 *   nttrace logman start|create trace NAME -ets [-p PROVIDER [FLAGS [LEVEL]]]
 *                  [-pf FILE] [-o PATH] [-bs KB] [-nb MIN MAX] [-max MB]
 *                  [-mode MODES] [-ft [[hh:]mm:]ss] [-ct perf|system|cycle]
 *                  [-rt] [-f bin|bincirc]
 *   nttrace logman update [trace] NAME -ets -p PROVIDER [FLAGS [LEVEL]]
 *   nttrace logman stop|delete NAME -ets
 *   nttrace logman query [NAME] -ets   |   query providers [NAME]
 *
 * "NT Kernel Logger" with -p "Windows Kernel Trace" (FLAGS: logman's
 * names, "(process,thread,img)", or a number) is the NT Kernel Logger, a
 * system logger (CAP_PERFMON). Other providers are a GUID or a name a
 * loaded manifest gives; FLAGS are keywords (a number, or names that
 * manifest gives), LEVEL a number or win:Critical ... win:Verbose. -o
 * writes a file from the start (a logger process, as StartTrace does);
 * without it the session keeps its buffers for a consumer (`nttrace
 * record`, `nttrace show`). -nb is the whole session's count, spread over
 * the CPUs.
 *
 * Not done, refused: anything without -ets (logman's saved Data Collector
 * Sets and their schedules), -f csv,
 * tsv and sql, -ul (the in-process logger is started by the process it
 * runs in). The file of a session started with -o is kept in a state file
 * of the user's own (cli_state_path()) for `query`.
 *
 * Output and errors are logman's: "The command completed successfully.",
 * or "Error:" and a message ("Data Collector Set was not found."), exit
 * status 1 (2 for a usage error).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <nttrace/nt.h>
#include <nttrace/tdh.h>

#include "cli.h"
#include "../logger/logger_internal.h"

#define KERNEL_PROVIDER "Windows Kernel Trace"
#define MAX_PROVIDERS	64

/* The "Windows Kernel Trace" provider's keywords, as `logman query providers` names them. */
static const struct {
	const char *name;
	uint32_t bits;
} kernel_keywords[] = {
	{ "process", NTTRACE_EVENT_TRACE_FLAG_PROCESS },
	{ "thread", NTTRACE_EVENT_TRACE_FLAG_THREAD },
	{ "img", NTTRACE_EVENT_TRACE_FLAG_IMAGE_LOAD },
	{ "proccntr", NTTRACE_EVENT_TRACE_FLAG_PROCESS_COUNTERS },
	{ "cswitch", NTTRACE_EVENT_TRACE_FLAG_CSWITCH },
	{ "dpc", NTTRACE_EVENT_TRACE_FLAG_DPC },
	{ "isr", NTTRACE_EVENT_TRACE_FLAG_INTERRUPT },
	{ "syscall", NTTRACE_EVENT_TRACE_FLAG_SYSTEMCALL },
	{ "disk", NTTRACE_EVENT_TRACE_FLAG_DISK_IO },
	{ "file", NTTRACE_EVENT_TRACE_FLAG_DISK_FILE_IO },
	{ "diskinit", NTTRACE_EVENT_TRACE_FLAG_DISK_IO_INIT },
	{ "dispatcher", NTTRACE_EVENT_TRACE_FLAG_DISPATCHER },
	{ "pf", NTTRACE_EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS },
	{ "hf", NTTRACE_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS },
	{ "virtalloc", NTTRACE_EVENT_TRACE_FLAG_VIRTUAL_ALLOC },
	{ "net", NTTRACE_EVENT_TRACE_FLAG_NETWORK_TCPIP },
	{ "registry", NTTRACE_EVENT_TRACE_FLAG_REGISTRY },
	{ "alpc", NTTRACE_EVENT_TRACE_FLAG_ALPC },
	{ "splitio", NTTRACE_EVENT_TRACE_FLAG_SPLIT_IO },
	{ "profile", NTTRACE_EVENT_TRACE_FLAG_PROFILE },
	{ "fileiocompletion", NTTRACE_EVENT_TRACE_FLAG_FILE_IO },
	{ "fileio", NTTRACE_EVENT_TRACE_FLAG_FILE_IO_INIT },
};
#define N_KERNEL_KEYWORDS (sizeof(kernel_keywords) / sizeof(kernel_keywords[0]))

/* The levels by manifest name, as -p takes them. */
static const char *const level_names[] = {
	"win:LogAlways", "win:Critical", "win:Error", "win:Warning", "win:Informational", "win:Verbose",
};

/* The -mode names logman takes, with their LogFileMode bits. */
static const struct {
	const char *name;
	uint32_t bit;
} modes[] = {
	{ "sequential", EVENT_TRACE_FILE_MODE_SEQUENTIAL },
	{ "circular", EVENT_TRACE_FILE_MODE_CIRCULAR },
	{ "append", EVENT_TRACE_FILE_MODE_APPEND },
	{ "newfile", EVENT_TRACE_FILE_MODE_NEWFILE },
	{ "preallocate", EVENT_TRACE_FILE_MODE_PREALLOCATE },
	{ "globalsequence", EVENT_TRACE_USE_GLOBAL_SEQUENCE },
	{ "localsequence", EVENT_TRACE_USE_LOCAL_SEQUENCE },
	{ "pagedmemory", EVENT_TRACE_USE_PAGED_MEMORY },
	{ "realtime", EVENT_TRACE_REAL_TIME_MODE },
	{ "buffering", EVENT_TRACE_BUFFERING_MODE },
	{ "secure", EVENT_TRACE_SECURE_MODE },
};

struct provider {
	const char *name, *flags, *level;
};

struct opts {
	const char *verb, *name, *out, *pf;
	struct provider p[MAX_PROVIDERS];
	unsigned int n_p;
	uint64_t bs, nb_min, nb_max, max, ft;
	uint32_t mode, clock;
	int ets, providers;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace logman start|create trace NAME -ets [-p PROVIDER [FLAGS [LEVEL]]]\n"
		"                      [-pf FILE] [-o PATH] [-bs KB] [-nb MIN MAX] [-max MB]\n"
		"                      [-mode MODES] [-ft [[hh:]mm:]ss] [-ct perf|system|cycle]\n"
		"                      [-rt] [-f bin|bincirc]\n"
		"       nttrace logman update [trace] NAME -ets -p PROVIDER [FLAGS [LEVEL]]\n"
		"       nttrace logman stop|delete NAME -ets\n"
		"       nttrace logman query [NAME] -ets  |  query providers [NAME]\n"
		"       nttrace logman create|update|delete|query trace autosession\\NAME [OPTIONS]\n\n"
		"logman's commands for event trace sessions (-ets). \"NT Kernel Logger\" -p\n"
		"\"" KERNEL_PROVIDER "\" (process,thread,img,...) is the kernel logger\n"
		"(CAP_PERFMON). PROVIDER is a GUID or a name a loaded manifest gives, FLAGS\n"
		"its keywords, LEVEL a number or win:Verbose etc. MODES: sequential,\n"
		"circular, append, newfile (-max MB, PATH with %%d), preallocate (-max MB),\n"
		"globalsequence, localsequence, pagedmemory, realtime, buffering, secure.\n"
		"Without -o the session keeps its buffers for a consumer (nttrace\n"
		"record, show). autosession\\NAME is a session that starts at each boot\n"
		"(`nttrace autologger`), with the options above. Other Data Collector\n"
		"Sets (no -ets) are not kept: refused.\n");
}

/* logman's way of failing: a blank line, "Error:", the message; 1. */
__attribute__((format(printf, 1, 2)))
static int lfail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "\nError:\n");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return 1;
}

static int done(void)
{
	printf("The command completed successfully.\n");
	return 0;
}

static int session_error(int err)
{
	if (err == -ENOENT)
		return lfail("Data Collector Set was not found.");
	if (err == -EEXIST)
		return lfail("Cannot create a file when that file already exists.");
	if (err == -EPERM || err == -EACCES)
		return lfail("Access is denied.%s", err == -EPERM ?
			     " (The kernel logger needs CAP_PERFMON or CAP_SYS_ADMIN in the initial "
			     "user and PID namespaces.)" : "");
	if (err == -ENODEV)
		return lfail("%s", CLI_NOT_LOADED);
	return lfail("%s", strerror(-err));
}

/* "(process,thread)" or "process,thread" or a number, for the kernel provider. */
static int kernel_flags(const char *arg, uint32_t *bits)
{
	char buf[512], *tok, *save;
	unsigned int i;
	uint64_t v;

	if (!arg) {
		*bits = NTTRACE_EVENT_TRACE_FLAG_PROCESS | NTTRACE_EVENT_TRACE_FLAG_THREAD |
			NTTRACE_EVENT_TRACE_FLAG_IMAGE_LOAD;
		return 0;
	}
	if (arg[0] >= '0' && arg[0] <= '9')
		return cli_uint("flags", arg, 0, UINT32_MAX, 0, &v) ? -1 : (*bits = v, 0);
	snprintf(buf, sizeof(buf), "%s", arg + (arg[0] == '('));
	buf[strcspn(buf, ")")] = 0;
	*bits = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < N_KERNEL_KEYWORDS && strcasecmp(tok, kernel_keywords[i].name); i++)
			;
		if (i == N_KERNEL_KEYWORDS) {
			fprintf(stderr, "nttrace logman: '%s' is not a keyword of \"" KERNEL_PROVIDER
				"\" (`nttrace logman query providers \"" KERNEL_PROVIDER "\"`)\n", tok);
			return -1;
		}
		*bits |= kernel_keywords[i].bits;
	}
	return 0;
}

static int level(const char *arg, uint32_t *lv)
{
	unsigned int i;
	uint64_t v;

	*lv = 0xFF;
	if (!arg)
		return 0;
	for (i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++)
		if (!strcasecmp(arg, level_names[i])) {
			*lv = i;
			return 0;
		}
	if (cli_uint("level", arg, 0, 255, 0, &v))
		return -1;
	*lv = v;
	return 0;
}

static int enable(uint32_t id, const struct provider *p, PROVIDER_ENUMERATION_INFO **known)
{
	struct nttrace_enable e = { .size = sizeof(e), .logger_id = id,
				    .control = EVENT_CONTROL_CODE_ENABLE_PROVIDER };
	uint64_t v = 0;
	int fd;

	if (cli_provider_guid(known, p->name, e.guid))
		return lfail("Element not found.\n(provider %s: give its GUID, or load its "
			     "manifest: nttrace manifest install)", p->name);
	if (p->flags && cli_uint("flags", p->flags + (p->flags[0] == '('), 0, UINT64_MAX, 0, &v))
		return CLI_USAGE;
	e.match_any_keyword = v;
	e.enable_flags = (uint32_t)v;
	if (level(p->level, &e.level))
		return CLI_USAGE;
	fd = nttrace_device_fd();
	if (fd < 0 || ioctl(fd, NTTRACE_IOC_ENABLE, &e) < 0)
		return session_error(fd < 0 ? fd : -errno);
	return 0;
}

/* -pf FILE: "{guid} [flags] [level] [name]" a line. */
static int provider_file(struct opts *o)
{
	static char lines[MAX_PROVIDERS][256];
	FILE *f = fopen(o->pf, "re");
	unsigned int n = 0;

	if (!f)
		return lfail("%s: %s", o->pf, strerror(errno));
	while (n < MAX_PROVIDERS && o->n_p < MAX_PROVIDERS && fgets(lines[n], sizeof(lines[n]), f)) {
		char *save, *guid = strtok_r(lines[n], " \t\r\n", &save);

		if (!guid || guid[0] == '#')
			continue;
		o->p[o->n_p].name = guid;
		o->p[o->n_p].flags = strtok_r(NULL, " \t\r\n", &save);
		o->p[o->n_p].level = o->p[o->n_p].flags ? strtok_r(NULL, " \t\r\n", &save) : NULL;
		o->n_p++;
		n++;
	}
	fclose(f);
	return 0;
}

/* The file of session @name, for `query` (the state; nothing is lost without it). */
static void remember(const char *name, const char *file)
{
	char real[PATH_MAX];

	if (realpath(file, real))
		cli_state_write("logman", name, real);
}

static int start(struct opts *o)
{
	struct nttrace_logger_info info;
	PROVIDER_ENUMERATION_INFO *known = NULL;
	int kernel = !strcasecmp(o->name, NTTRACE_KERNEL_LOGGER_NAME);
	unsigned int i, first = 0;
	char path[PATH_MAX];
	uint32_t flags = 0;
	pid_t pid;
	int ret;

	if (o->pf && (ret = provider_file(o)))
		return ret;
	if (kernel) {
		/* The kernel logger's provider, and nothing else, names its flags. */
		if (o->n_p > 1 || (o->n_p && strcasecmp(o->p[0].name, KERNEL_PROVIDER) &&
				   strcasecmp(o->p[0].name, "{9E814AAD-3204-11D2-9A82-006008A86939}")))
			return lfail("The NT Kernel Logger takes the provider \"" KERNEL_PROVIDER
				     "\" only.");
		if (kernel_flags(o->n_p ? o->p[0].flags : NULL, &flags))
			return CLI_USAGE;
		first = o->n_p;
		if (cli_kernel_session(NULL, flags, o->mode, &info))
			return CLI_USAGE;
	} else {
		memset(&info, 0, sizeof(info));
		if (nttrace_set_name(&info, o->name))
			return lfail("The session name provided is invalid.");
		info.log_file_mode = o->mode;
	}
	info.buffer_size_kb = o->bs;
	if (o->nb_max)
		cli_session_buffers(&info, o->nb_min, o->nb_max);
	info.flush_timer = o->ft;
	info.clock_type = o->clock;
	ret = cli_start_fitted(&info, o->name);
	if (ret)
		return session_error(ret);
	for (i = first; i < o->n_p; i++)
		if ((ret = enable(info.logger_id, &o->p[i], &known)))
			goto stop;
	if (o->out) {
		/* logman's PATH: a file, ".etl" added when it has no extension. */
		const char *base = strrchr(o->out, '/');

		snprintf(path, sizeof(path), "%s%s", o->out,
			 strchr(base ? base : o->out, '.') ? "" : ".etl");
		cli_same_tool();
		ret = nttrace_start_file_logger(info.logger_id, path, o->max, &pid);
		if (ret) {
			ret = lfail("%s: %s", path, cli_create_error(ret));
			goto stop;
		}
		remember(o->name, path);
	}
	free(known);
	return done();
stop:
	free(known);
	info.control_flags = NTTRACE_CONTROL_WAIT_CONSUMER;
	nttrace_control(&info, EVENT_TRACE_CONTROL_STOP);
	return ret;
}

static int update(struct opts *o)
{
	struct nttrace_logger_info info;
	PROVIDER_ENUMERATION_INFO *known = NULL;
	unsigned int i;
	int ret;

	if (o->pf && (ret = provider_file(o)))
		return ret;
	memset(&info, 0, sizeof(info));
	if (nttrace_set_name(&info, o->name))
		return lfail("Data Collector Set was not found.");
	ret = nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY);
	if (ret)
		return session_error(ret);
	if (!o->n_p) {
		usage(stderr);
		return CLI_USAGE;
	}
	for (i = 0; i < o->n_p; i++)
		if ((ret = enable(info.logger_id, &o->p[i], &known)))
			break;
	free(known);
	return ret ? ret : done();
}

static int stop(struct opts *o)
{
	struct nttrace_logger_info info;
	char file[PATH_MAX];
	int ret;

	memset(&info, 0, sizeof(info));
	if (nttrace_set_name(&info, o->name))
		return lfail("Data Collector Set was not found.");
	info.control_flags = NTTRACE_CONTROL_WAIT_CONSUMER;
	ret = nttrace_control(&info, EVENT_TRACE_CONTROL_STOP);
	if (ret)
		return session_error(ret);
	cli_state_read("logman", o->name, file, sizeof(file), 1);
	return done();
}

static const char *clock_name(uint32_t c)
{
	return c == NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME ? "System" :
	       c == NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE ? "Cycle" : "Performance";
}

static int query(struct opts *o)
{
	uint32_t ids[NTTRACE_MAX_LOGGERS], n, i;
	struct nttrace_logger_info info;
	char file[PATH_MAX];
	int ret;

	if (!o->name) {
		ret = nttrace_list(ids, NTTRACE_MAX_LOGGERS, &n);
		if (ret)
			return session_error(ret);
		printf("\n%-40s%-30s%s\n", "Data Collector Set", "Type", "Status");
		printf("-------------------------------------------------------------------------------\n");
		for (i = 0; i < n && i < NTTRACE_MAX_LOGGERS; i++) {
			struct nttrace_logger_info s = { .logger_id = ids[i] };

			if (nttrace_control(&s, EVENT_TRACE_CONTROL_QUERY))
				continue;
			printf("%-39s %-29s %s\n", (const char *)s.name, "Trace", "Running");
		}
		printf("\n");
		return done();
	}
	memset(&info, 0, sizeof(info));
	if (nttrace_set_name(&info, o->name))
		return lfail("Data Collector Set was not found.");
	ret = nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY);
	if (ret)
		return session_error(ret);
	if (cli_state_read("logman", o->name, file, sizeof(file), 0))
		file[0] = 0;
	printf("\n%-22s%s\n", "Name:", (const char *)info.name);
	printf("%-22s%s\n\n", "Status:", "Running");
	printf("%-22s%s\\%s\n", "Name:", (const char *)info.name, (const char *)info.name);
	printf("%-22s%s\n", "Type:", "Trace");
	if (file[0])
		printf("%-22s%s\n", "Output Location:", file);
	printf("%-22s%s\n", "Append:", "Off");
	printf("%-22s%s\n", "Circular:",
	       info.log_file_mode & EVENT_TRACE_FILE_MODE_CIRCULAR ? "On" : "Off");
	printf("%-22s%s\n", "Overwrite:", "Off");
	printf("%-22s%u\n", "Buffer Size:", info.buffer_size_kb);
	printf("%-22s%u\n", "Buffers Lost:", info.log_buffers_lost);
	printf("%-22s%u\n", "Buffers Written:", info.buffers_written);
	printf("%-22s%u\n", "Buffer Flush Timer:", info.flush_timer);
	printf("%-22s%s\n", "Clock Type:", clock_name(info.clock_type));
	printf("%-22s%s\n", "File Mode:", file[0] ? "File" : "Real-time");
	if (info.logger_id == NTTRACE_KERNEL_LOGGER_ID ||
	    (info.log_file_mode & NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE)) {
		printf("\nProvider:\n%-22s%s\n", "Name:", KERNEL_PROVIDER);
		printf("%-22s%s\n", "Provider Guid:", "{9E814AAD-3204-11D2-9A82-006008A86939}");
		printf("%-22s0x%08x (", "Flags:", info.group_mask[0]);
		cli_print_kernel_flags(stdout, info.group_mask[0]);
		printf(")\n");
	}
	printf("\n");
	return done();
}

static int query_providers(struct opts *o)
{
	PROVIDER_ENUMERATION_INFO *known = cli_tdh_providers();
	char guid[NTTRACE_GUID_STRING];
	unsigned int i;
	ULONG k;

	printf("\n%-41s%s\n", "Provider", "GUID");
	printf("-------------------------------------------------------------------------------\n");
	if (!o->name || !strcasecmp(o->name, KERNEL_PROVIDER))
		printf("%-40s %s\n", KERNEL_PROVIDER, "{9E814AAD-3204-11D2-9A82-006008A86939}");
	for (k = 0; known && k < known->NumberOfProviders; k++) {
		const TRACE_PROVIDER_INFO *t = &known->TraceProviderInfoArray[k];
		char *s = render_utf16((const WCHAR *)((const uint8_t *)known + t->ProviderNameOffset));

		nttrace_guid_string((const uint8_t *)&t->ProviderGuid, guid);
		if (s && (!o->name || !strcasecmp(o->name, s) || !strcasecmp(o->name, guid)))
			printf("%-40s %s\n", s, guid);
		free(s);
	}
	free(known);
	if (o->name && !strcasecmp(o->name, KERNEL_PROVIDER)) {
		printf("\n%-20s%-21s%s\n", "Value", "Keyword", "Description");
		printf("-------------------------------------------------------------------------------\n");
		for (i = 0; i < N_KERNEL_KEYWORDS; i++)
			printf("0x%016llx  %s\n", (unsigned long long)kernel_keywords[i].bits,
			       kernel_keywords[i].name);
	}
	printf("\n");
	return done();
}

/* "-opt", any case; logman's options have one dash. */
/* ---- autosession\NAME: the autologgers (autologger.c) ---- */

#define AUTOSESSION	"autosession\\"

static int auto_exists(const char *name)
{
	unsigned int i, n;
	char **v;
	int found = 0;

	if (cli_autologger_names(&v, &n))
		return 0;
	for (i = 0; i < n; i++)
		found |= !strcmp(v[i], name);
	cli_autologger_names_free(v, n);
	return found;
}

/*
 * logman create|update|delete|query trace autosession\NAME: the session
 * that starts at each boot, as logman configures Windows' AutoLogger key:
 * create writes the autologger (its values from the options, Start=1),
 * update sets the options given in one that exists, delete removes it,
 * query lists it. Not with -ets: it runs from the next boot.
 */
static int autosession(struct opts *o)
{
	static struct cli_args a;
	const char *name = o->name + strlen(AUTOSESSION);
	int kernel = !strcasecmp(name, NTTRACE_KERNEL_LOGGER_NAME), create, ret;
	unsigned int i;

	if (o->ets)
		return lfail("-ets: not with " AUTOSESSION "%s, which starts at the next boot.",
			     name);
	if (o->pf && (ret = provider_file(o)))
		return ret;
	if (!strcasecmp(o->verb, "delete")) {
		if (!auto_exists(name))
			return lfail("Data Collector Set was not found.");
		return cli_autologger_remove(name, 1) ? 1 : done();
	}
	if (!strcasecmp(o->verb, "query")) {
		char *argv[] = { (char *)"autologger", (char *)"list", (char *)name, NULL };

		if (!auto_exists(name))
			return lfail("Data Collector Set was not found.");
		return cmd_autologger(3, argv);
	}
	create = !strcasecmp(o->verb, "create");
	if (!create && strcasecmp(o->verb, "update"))
		return lfail("'%s' " AUTOSESSION "NAME: create, update, delete or query it.",
			     o->verb);
	if (create == auto_exists(name))
		return lfail(create ? "Data Collector Set already exists." :
			     "Data Collector Set was not found.");
	a.argc = a.full = 0;
	cli_arg(&a, "%s", name);
	if (o->out) {
		const char *base = strrchr(o->out, '/');

		cli_arg(&a, "FileName=%s%s", o->out, strchr(base ? base : o->out, '.') ? "" : ".etl");
	}
	if (o->bs)
		cli_arg(&a, "BufferSize=%llu", (unsigned long long)o->bs);
	if (o->nb_max) {
		cli_arg(&a, "MinimumBuffers=%llu", (unsigned long long)o->nb_min);
		cli_arg(&a, "MaximumBuffers=%llu", (unsigned long long)o->nb_max);
	}
	if (o->max)
		cli_arg(&a, "MaxFileSize=%llu", (unsigned long long)o->max);
	if (o->ft)
		cli_arg(&a, "FlushTimer=%llu", (unsigned long long)o->ft);
	if (o->mode)
		cli_arg(&a, "LogFileMode=0x%x", o->mode);
	if (o->clock)
		cli_arg(&a, "ClockType=%u", o->clock);
	for (i = 0; i < o->n_p; i++) {
		uint32_t lv, bits;
		uint64_t v = 0;

		if (kernel) {
			if (strcasecmp(o->p[i].name, KERNEL_PROVIDER) &&
			    strcasecmp(o->p[i].name, "{9E814AAD-3204-11D2-9A82-006008A86939}"))
				return lfail("The NT Kernel Logger takes the provider \""
					     KERNEL_PROVIDER "\" only.");
			if (kernel_flags(o->p[i].flags, &bits))
				return CLI_USAGE;
			cli_arg(&a, "EnableFlags=0x%x", bits);
			continue;
		}
		if (o->p[i].flags && cli_uint("flags", o->p[i].flags + (o->p[i].flags[0] == '('),
					      0, UINT64_MAX, 0, &v))
			return CLI_USAGE;
		if (level(o->p[i].level, &lv))
			return CLI_USAGE;
		cli_arg(&a, "-p");
		cli_arg(&a, "%s", o->p[i].name);
		if (o->p[i].flags)
			cli_arg(&a, "MatchAnyKeyword=0x%llx", (unsigned long long)v);
		cli_arg(&a, "EnableLevel=%u", lv);
	}
	if (a.full)
		return lfail("Too many options for one autologger.");
	return cli_autologger_add(a.argc, a.argv, 1) ? 1 : done();
}

static int opt_is(const char *arg, const char *name)
{
	return arg[0] == '-' && !strcasecmp(arg + 1, name);
}

/* [[hh:]mm:]ss */
static int flush_time(const char *arg, uint64_t *s)
{
	unsigned int a = 0, b = 0, c = 0;
	char end;
	int n = sscanf(arg, "%u:%u:%u%c", &a, &b, &c, &end);

	if (n == 3)
		*s = a * 3600ULL + b * 60 + c;
	else if (n == 2)
		*s = a * 60ULL + b;
	else if (n == 1)
		*s = a;
	else
		return -1;
	return 0;
}

int cmd_logman(int argc, char **argv)
{
	struct opts o = { .mode = 0 };
	int i;

	if (argc < 2 || opt_is(argv[1], "?") || opt_is(argv[1], "help") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_USAGE : 0;
	}
	o.verb = argv[1];
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];
		int has_next = i + 1 < argc && argv[i + 1][0] != '-';
		uint64_t v;

		if (opt_is(a, "ets")) {
			o.ets = 1;
		} else if (opt_is(a, "p") && has_next) {
			struct provider *p = &o.p[o.n_p];

			if (o.n_p == MAX_PROVIDERS)
				return CLI_USAGE;
			p->name = argv[++i];
			if (i + 1 < argc && argv[i + 1][0] != '-')
				p->flags = argv[++i];
			if (p->flags && i + 1 < argc && argv[i + 1][0] != '-')
				p->level = argv[++i];
			o.n_p++;
		} else if (opt_is(a, "pf") && has_next) {
			o.pf = argv[++i];
		} else if (opt_is(a, "o") && has_next) {
			o.out = argv[++i];
		} else if (opt_is(a, "bs") && has_next) {
			if (cli_uint("-bs", argv[++i], NTTRACE_MIN_BUFFER_KB, NTTRACE_MAX_BUFFER_KB, 0, &o.bs))
				return CLI_USAGE;
		} else if (opt_is(a, "nb") && i + 2 < argc) {
			if (cli_uint("-nb", argv[i + 1], 1, 1U << 20, 0, &o.nb_min) ||
			    cli_uint("-nb", argv[i + 2], o.nb_min, 1U << 20, 0, &o.nb_max))
				return CLI_USAGE;
			i += 2;
		} else if (opt_is(a, "max") && has_next) {
			if (cli_uint("-max", argv[++i], 0, UINT32_MAX, 0, &o.max))
				return CLI_USAGE;
		} else if (opt_is(a, "ft") && has_next) {
			if (flush_time(argv[++i], &o.ft)) {
				fprintf(stderr, "nttrace logman: -ft %s: not [[hh:]mm:]ss\n", argv[i]);
				return CLI_USAGE;
			}
		} else if (opt_is(a, "ct") && has_next) {
			const char *c = argv[++i];

			o.clock = !strcasecmp(c, "perf") ? NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER :
				  !strcasecmp(c, "system") ? NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME :
				  !strcasecmp(c, "cycle") ? NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE : 0;
			if (!o.clock) {
				fprintf(stderr, "nttrace logman: -ct %s: not perf, system or cycle\n", c);
				return CLI_USAGE;
			}
		} else if (opt_is(a, "a")) {
			o.mode |= EVENT_TRACE_FILE_MODE_APPEND;
		} else if (opt_is(a, "rt")) {
			o.mode |= EVENT_TRACE_REAL_TIME_MODE;
		} else if (opt_is(a, "f") && has_next) {
			const char *f = argv[++i];

			if (!strcasecmp(f, "bincirc")) {
				o.mode |= EVENT_TRACE_FILE_MODE_CIRCULAR;
			} else if (strcasecmp(f, "bin")) {
				fprintf(stderr, "nttrace logman: -f %s: not done here (bin and bincirc "
					"are)\n", f);
				return CLI_USAGE;
			}
		} else if (opt_is(a, "mode") && has_next) {
			char buf[256], *tok, *save;
			unsigned int k;

			snprintf(buf, sizeof(buf), "%s", argv[++i]);
			for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				for (k = 0; k < sizeof(modes) / sizeof(modes[0]) &&
					    strcasecmp(tok, modes[k].name); k++)
					;
				if (k < sizeof(modes) / sizeof(modes[0])) {
					o.mode |= modes[k].bit;
				} else if (!cli_uint("-mode", tok, 0, UINT32_MAX, 0, &v) &&
					   !(v & ~(uint64_t)NTTRACE_KERNEL_LOG_MODES)) {
					o.mode |= v;
				} else {
					fprintf(stderr, "nttrace logman: -mode %s: not done here\n", tok);
					return CLI_USAGE;
				}
			}
		} else if (!strcasecmp(a, "trace") && !o.name && !o.providers) {
			continue;
		} else if (!strcasecmp(a, "providers") && !o.name && !strcasecmp(o.verb, "query")) {
			o.providers = 1;
		} else if (opt_is(a, "n") && has_next) {
			o.name = argv[++i];
		} else if (a[0] != '-' && !o.name) {
			o.name = a;
		} else {
			fprintf(stderr, "nttrace logman: '%s': not an option of logman's taken here\n", a);
			usage(stderr);
			return CLI_USAGE;
		}
	}
	if (o.providers)
		return query_providers(&o);
	if (o.name && !strncasecmp(o.name, AUTOSESSION, strlen(AUTOSESSION)))
		return autosession(&o);
	if (!o.ets)
		return lfail("Data Collector Sets are not kept here: give -ets, for an event trace "
			     "session.");
	if (!strcasecmp(o.verb, "query"))
		return query(&o);
	if (!o.name) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (!strcasecmp(o.verb, "start") || !strcasecmp(o.verb, "create"))
		return start(&o);
	if (!strcasecmp(o.verb, "update"))
		return update(&o);
	if (!strcasecmp(o.verb, "stop") || !strcasecmp(o.verb, "delete"))
		return stop(&o);
	fprintf(stderr, "nttrace logman: '%s': not a verb taken here (start, create, update, stop, "
		"delete, query)\n", o.verb);
	return CLI_USAGE;
}
