// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace wpr: Windows Performance Recorder's command line over nttrace's
 * sessions, for the habits and the .wprp files Windows users bring:
 *
 *   nttrace wpr -start CPU [-start FILE.wprp!Name ...] [-filemode]
 *                      [-recordtempto DIR] [-instancename NAME]
 *   nttrace wpr -stop FILE.etl   |   -cancel   |   -status   |   -flush
 *   nttrace wpr -profiles [FILE.wprp]
 *
 * What -start does, as WPR does it: the profiles (wprp.c) give collectors;
 * each becomes a session named WPR_initiated_<instance>_<collector name>:
 * the system collector a system logger ("WPR System Collector", so
 * CAP_PERFMON is needed, as WPR needs an administrator) with the kernel
 * flags of its keywords and the stacks asked for; each event collector a
 * session enabling its providers. In memory mode (the default) the
 * sessions keep their newest buffers in memory (BUFFERING) and nothing is
 * written until -stop, which attaches a logger to each (it reads what the
 * rings hold), stops them and merges the files; in file mode
 * (-filemode) a logger writes each session's file in the temporary
 * directory from the start. Either way -stop leaves one file, merged as
 * `nttrace merge` merges (the kernel events and the providers' in time
 * order, the rundown written at the stop in it).
 *
 * Between -start and -stop, what was started is kept in a state file of
 * the user's own (cli_state_path()): the mode, the temporary directory,
 * the start time, the profiles and the sessions.
 *
 * Errors are WPR's messages and codes ("Error code: 0xc5583000"); the exit
 * status is 1 (an 8-bit exit status cannot hold WPR's HRESULT), 2 for a
 * usage error. Whatever a failed -start started is stopped again.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/nt.h>
#include <nttrace/tdh.h>

#include "utf16.h"
#include "cli.h"
#include "wprp.h"
#include "../logger/logger_internal.h"

#define WPR_DEFAULT_INSTANCE	"WprApp"
#define WPR_MAX_FILES		16	/* .wprp files on one command line */
#define WPR_MAX_CAPTURES	64	/* providers with CaptureStateOnSave */

struct wpr_opts {
	const char *starts[64];
	unsigned int n_starts;
	int file_mode;
	const char *temp_dir;
	const char *instance;
	const char *stop_file;
	const char *profiles_file;
	enum { W_NONE, W_START, W_STOP, W_CANCEL, W_STATUS, W_PROFILES, W_FLUSH, W_ADDBOOT,
	       W_STOPBOOT, W_CANCELBOOT, W_MARKER } what;
	const char *marker;
	int marker_flush;
	int boottrace;
};

/* What -start leaves for the others (the state file). */
struct wpr_state {
	int file_mode;
	char temp_dir[PATH_MAX];
	long long started;
	char profiles[1024];
	char sessions[WPRP_MAX_COLLECTORS][NTTRACE_NAME_MAX];
	unsigned int n_sessions;
	/* CaptureStateOnSave: what -stop asks the providers for, by session. */
	struct wpr_capture {
		unsigned int session;	/* in @sessions */
		uint8_t guid[16];
		uint8_t level;
		uint64_t keywords;
	} captures[WPR_MAX_CAPTURES];
	unsigned int n_captures;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace wpr -start PROFILE [-start PROFILE]... [-filemode]\n"
		"                   [-recordtempto DIR] [-instancename NAME]\n"
		"       nttrace wpr -stop FILE.etl [DESCRIPTION] [-instancename NAME]\n"
		"       nttrace wpr -cancel | -status | -flush [-instancename NAME]\n"
		"       nttrace wpr -profiles [FILE.wprp]\n"
		"       nttrace wpr -marker TEXT | -markerflush TEXT [-instancename NAME]\n"
		"       nttrace wpr -boottrace -addboot PROFILE [-addboot PROFILE]... [-filemode]\n"
		"                   [-recordtempto DIR] [-instancename NAME]\n"
		"       nttrace wpr -boottrace -stopboot FILE.etl | -cancelboot [-instancename NAME]\n\n"
		"Windows Performance Recorder's commands. PROFILE is a built-in profile\n"
		"(`-profiles` lists them), or FILE.wprp!NAME, a profile of a WPR profile\n"
		"file (FILE.wprp alone: its Default one), either with .Light or .Verbose\n"
		"(Verbose when left out). Several are merged into one recording.\n"
		"-start records in memory (the newest buffers are kept) unless\n"
		"-filemode writes files in DIR (-recordtempto; default $TMPDIR or /tmp)\n"
		"from the start; -stop saves the recording to FILE.etl, one file\n"
		"(`nttrace dump`, `nttrace profile`, WPA), -cancel discards it.\n"
		"What a profile asks that Linux cannot record is listed once at -start.\n"
		"-marker puts TEXT into the recording (the kernel's PerfInfo Mark event,\n"
		"EtwSetMark's), -markerflush also flushes the sessions' buffers.\n"
		"-boottrace -addboot configures the same sessions as autologgers that\n"
		"start at the next boot (`nttrace autologger`); -stopboot saves that\n"
		"boot's recording as -stop does, -cancelboot discards it; both remove\n"
		"the configuration.\n"
		"The kernel's events need CAP_PERFMON, as WPR needs an administrator.\n"
		"Options take - or /, in any case. Exit status: 0, 1 with WPR's error\n"
		"code printed, 2 for a usage error.\n");
}

/* WPR's way of failing: the message, what it is about, the code; exit status 1. */
__attribute__((format(printf, 3, 4)))
static int wpr_fail(uint32_t code, const char *message, const char *fmt, ...)
{
	char what[2048];
	va_list ap;

	fprintf(stderr, "%s\n", message);
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
		wprp_put_clean(stderr, what, 0, 1);
		fputc('\n', stderr);
	}
	fprintf(stderr, "\nError code: 0x%08x\n", code);
	return 1;
}

/* ---- the state file ---- */

static int save_state(const char *instance, const struct wpr_state *s)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	unsigned int i;
	FILE *f;
	int fd, ret;

	ret = cli_state_path("wpr", instance, path, sizeof(path));
	if (ret)
		return ret;
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	fprintf(f, "mode %s\ntempdir %s\nstarted %lld\nprofiles %s\n",
		s->file_mode ? "file" : "memory", s->temp_dir, s->started, s->profiles);
	for (i = 0; i < s->n_sessions; i++)
		fprintf(f, "session %s\n", s->sessions[i]);
	for (i = 0; i < s->n_captures; i++) {
		char g[NTTRACE_GUID_STRING];

		nttrace_guid_string(s->captures[i].guid, g);
		fprintf(f, "capture %u %s %u 0x%llx\n", s->captures[i].session, g,
			s->captures[i].level, (unsigned long long)s->captures[i].keywords);
	}
	ret = ferror(f) ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

/* @src into @dst of @room bytes, cut if longer. */
static void copy(char *dst, size_t room, const char *src)
{
	size_t n = strnlen(src, room - 1);

	memcpy(dst, src, n);
	dst[n] = 0;
}

/* A "capture SESSION GUID LEVEL KEYWORDS" line's rest into @s; a bad one is left out. */
static void load_capture(struct wpr_state *s, const char *text)
{
	struct wpr_capture *c = &s->captures[s->n_captures];
	unsigned int session, level;
	unsigned long long keywords;
	char g[40];

	if (sscanf(text, "%u %39s %u %llx", &session, g, &level, &keywords) != 4 ||
	    session >= s->n_sessions || level > 255 || cli_guid("capture", g, c->guid))
		return;
	c->session = session;
	c->level = (uint8_t)level;
	c->keywords = keywords;
	s->n_captures++;
}

/* 0 with @s, -ENOENT when there is none, or -errno. */
static int load_state(const char *instance, struct wpr_state *s)
{
	char path[PATH_MAX], line[PATH_MAX + 16];
	FILE *f;
	int fd, ret;

	memset(s, 0, sizeof(*s));
	ret = cli_state_path("wpr", instance, path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "mode ", 5))
			s->file_mode = !strcmp(line + 5, "file");
		else if (!strncmp(line, "tempdir ", 8))
			copy(s->temp_dir, sizeof(s->temp_dir), line + 8);
		else if (!strncmp(line, "started ", 8))
			s->started = atoll(line + 8);
		else if (!strncmp(line, "profiles ", 9))
			copy(s->profiles, sizeof(s->profiles), line + 9);
		else if (!strncmp(line, "session ", 8) && s->n_sessions < WPRP_MAX_COLLECTORS)
			copy(s->sessions[s->n_sessions++], NTTRACE_NAME_MAX, line + 8);
		else if (!strncmp(line, "capture ", 8) && s->n_captures < WPR_MAX_CAPTURES)
			load_capture(s, line + 8);
	}
	fclose(f);
	return 0;
}

static void remove_state(const char *instance)
{
	char path[PATH_MAX];

	if (!cli_state_path("wpr", instance, path, sizeof(path)))
		unlink(path);
}

/*
 * The temporary file of session @name: DIR/NAME.etl, as WPR names it; a
 * '/' of a collector's name (a profile file's text) as '_', so that the
 * file is in DIR whatever the profile says.
 */
static int temp_file(const struct wpr_state *s, const char *name, char *path, size_t room)
{
	size_t n = snprintf(path, room, "%s/", s->temp_dir), k;

	if (n + strlen(name) + 5 > room)
		return -ENAMETOOLONG;
	for (k = 0; name[k]; k++)
		path[n + k] = name[k] == '/' ? '_' : name[k];
	memcpy(path + n + k, ".etl", 5);
	return 0;
}

/* ---- starting ---- */

/* Session @name's properties into @info: 0 when it runs, else -errno. */
static int query_named(const char *name, struct nttrace_logger_info *info)
{
	memset(info, 0, sizeof(*info));
	nttrace_set_name(info, name);
	return nttrace_control(info, EVENT_TRACE_CONTROL_QUERY);
}

/* How many sessions -start started for @instance are running (not a boot trace's). */
static unsigned int running(const char *instance)
{
	uint32_t ids[NTTRACE_MAX_LOGGERS], n, i, found = 0;
	char prefix[NTTRACE_NAME_MAX + 32];

	snprintf(prefix, sizeof(prefix), "WPR_initiated_%s_", instance);
	if (nttrace_list(ids, NTTRACE_MAX_LOGGERS, &n))
		return 0;
	for (i = 0; i < n && i < NTTRACE_MAX_LOGGERS; i++) {
		struct nttrace_logger_info info = { .logger_id = ids[i] };

		if (!nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY) &&
		    !strncmp((const char *)info.name, prefix, strlen(prefix)) &&
		    strncmp((const char *)info.name + strlen(prefix), "boottr_", 7))
			found++;
	}
	return found;
}

/* A module parameter's value, or @dflt when it cannot be read. */
static unsigned long module_param(const char *name, unsigned long dflt)
{
	char path[128];
	unsigned long v;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/nttrace/parameters/%s", name);
	f = fopen(path, "re");
	if (!f)
		return dflt;
	if (fscanf(f, "%lu", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

/*
 * A collector's buffers fitted to the module: WPR's BufferSize within
 * NTTRACE_MIN/MAX_BUFFER_KB, and its Buffers (a count for the whole
 * session, or a share of the machine's memory) spread over the CPUs,
 * each CPU's count within NTTRACE_MIN/MAX_BUFFERS and the whole within
 * the module's max_session_mb. Said when it differs from what was asked.
 */
static void fit_buffers(const struct wprp_collector *c, const char *name,
			struct nttrace_logger_info *info)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t kb = c->buffer_kb ? c->buffer_kb : 128, total, per_cpu, room_kb;

	if (cpus < 1)
		cpus = 1;
	if (kb < NTTRACE_MIN_BUFFER_KB)
		kb = NTTRACE_MIN_BUFFER_KB;
	if (kb > NTTRACE_MAX_BUFFER_KB)
		kb = NTTRACE_MAX_BUFFER_KB;
	if (c->buffers_pct > 0) {
		uint64_t mem_kb = (uint64_t)sysconf(_SC_PHYS_PAGES) * (sysconf(_SC_PAGESIZE) / 1024);
		uint64_t want_kb = (uint64_t)(mem_kb * c->buffers_pct / 100);

		if (c->max_buffer_mb && want_kb > c->max_buffer_mb * 1024)
			want_kb = c->max_buffer_mb * 1024;
		total = want_kb / kb;
	} else {
		total = c->buffers ? c->buffers : 64;
	}
	per_cpu = (total + cpus - 1) / cpus;
	room_kb = module_param("max_session_mb", 64) * 1024;
	if (per_cpu * kb * cpus > room_kb)
		per_cpu = room_kb / (kb * cpus);
	if (per_cpu < NTTRACE_MIN_BUFFERS)
		per_cpu = NTTRACE_MIN_BUFFERS;
	if (per_cpu > NTTRACE_MAX_BUFFERS)
		per_cpu = NTTRACE_MAX_BUFFERS;
	info->buffer_size_kb = kb;
	info->min_buffers = info->max_buffers = per_cpu;
	if ((c->buffer_kb && kb != c->buffer_kb) || per_cpu * cpus != total)
		printf("%s: %llu buffers of %u KB asked%s; %ld CPUs x %llu buffers of %llu KB given "
		       "(the module's limits)\n", name, (unsigned long long)total, c->buffer_kb ? c->buffer_kb : 128,
		       c->buffers_pct > 0 ? " (a share of memory)" : "", cpus,
		       (unsigned long long)per_cpu, (unsigned long long)kb);
}

/* What -start says it skipped, once, after everything is started. */
struct skipped {
	char text[2048];
	size_t len;
};

static void note(struct skipped *sk, const char *what)
{
	if (strstr(sk->text, what))
		return;
	if (sk->len < sizeof(sk->text))
		sk->len += snprintf(sk->text + sk->len, sizeof(sk->text) - sk->len, "%s%s",
				    sk->len ? ", " : "", what);
}

/*
 * Collector @c's session name after @prefix (WPR_initiated_INSTANCE_,
 * and boottr_ after it for a boot trace) into @name: 0, or WPR's error
 * said (1) when it is too long for a session name.
 */
static int collector_name(const char *prefix, const struct wprp_collector *c, char *name,
			  size_t room)
{
	snprintf(name, room, "%s%s", prefix,
		 c->system ? "WPR System Collector" : c->name ? c->name : c->id);
	if (strlen(name) >= NTTRACE_NAME_MAX)
		return wpr_fail(WPR_E_START, "Failed to start the profiles.",
				"Collector Id: %s\nThe session name %s is longer than %d bytes.",
				c->id, name, NTTRACE_NAME_MAX - 1);
	return 0;
}

/* Collector @c's LogFileMode: file mode's sequential or circular file, or memory. */
static uint32_t collector_mode(const struct wpr_opts *o, const struct wprp_collector *c)
{
	if (!o->file_mode)
		return EVENT_TRACE_BUFFERING_MODE;
	return c->max_file_mb && !c->file_sequential ? EVENT_TRACE_FILE_MODE_CIRCULAR :
	       EVENT_TRACE_FILE_MODE_SEQUENTIAL;
}

/*
 * Provider @p's GUID into @guid when nttrace can enable it: 1; else 0,
 * with why noted in @sk (what it asks that nttrace cannot do, or a name
 * no loaded manifest gives).
 */
static int usable_provider(const struct wprp_provider *p, PROVIDER_ENUMERATION_INFO **known,
			   uint8_t guid[16], struct skipped *sk)
{
	char what[160];

	if (p->unsupported || p->capture_state_only) {
		snprintf(what, sizeof(what), "provider %.60s (%s)", p->name,
			 p->capture_state_only ? "CaptureStateOnly" : p->unsupported);
		note(sk, what);
		return 0;
	}
	if (cli_provider_guid(known, p->name, guid)) {
		snprintf(what, sizeof(what), "provider %.60s (not known here)", p->name);
		note(sk, what);
		return 0;
	}
	return 1;
}

/*
 * How long the providers' callbacks may take to write the state asked of
 * them before the recording goes on (or is saved) without the rest: our
 * choice, WPR's own is not documented.
 */
#define CAPTURE_TIMEOUT_MS	5000

/*
 * EnableTraceEx2's CAPTURE_STATE for provider @guid in logger @id, with the
 * level and keywords of the state wanted: the providers' callbacks are
 * told, and they write their state; the call waits for them up to
 * CAPTURE_TIMEOUT_MS where the module can (-ETIMEDOUT past it). 0 or -errno.
 */
static int capture_state(int fd, uint32_t id, const uint8_t guid[16], uint8_t level,
			 uint64_t keywords)
{
	struct nttrace_enable e = { .size = sizeof(e), .logger_id = id,
				    .control = EVENT_CONTROL_CODE_CAPTURE_STATE,
				    .level = level, .match_any_keyword = keywords };

	if (nttrace_module_features() & NTTRACE_FEAT_ENABLE_TIMEOUT)
		e.timeout_ms = CAPTURE_TIMEOUT_MS;
	memcpy(e.guid, guid, 16);
	return ioctl(fd, NTTRACE_IOC_ENABLE, &e) < 0 ? -errno : 0;
}

/*
 * Enable collector @c's providers in logger @id, the session @s's last:
 * CaptureStateOnStart asked at once, CaptureStateOnSave kept in @s for
 * -stop. The providers enabled, or -errno.
 */
static int enable_providers(const struct wprp_collector *c, uint32_t id, struct wpr_state *s,
			    struct skipped *sk)
{
	PROVIDER_ENUMERATION_INFO *known = NULL;
	unsigned int i, enabled = 0;
	int fd = nttrace_device_fd();

	if (fd < 0)
		return fd;
	for (i = 0; i < c->n_prov; i++) {
		const struct wprp_provider *p = &c->prov[i];
		struct nttrace_enable e = { .size = sizeof(e), .logger_id = id,
					    .control = EVENT_CONTROL_CODE_ENABLE_PROVIDER };
		char what[160];

		if (!usable_provider(p, &known, e.guid, sk))
			continue;
		e.level = p->level;
		e.match_any_keyword = p->keywords;
		e.enable_flags = (uint32_t)p->keywords;
		if (p->stack)
			e.enable_property = NTTRACE_ENABLE_PROPERTY_STACK_TRACE;
		if (p->filter) {
			e.filter_flags = NTTRACE_ENABLE_FILTER_EVENT_ID |
					 (p->filter > 0 ? NTTRACE_ENABLE_FILTER_EVENT_ID_IN : 0);
			e.event_id_count = p->n_ids;
			e.event_ids = (uintptr_t)p->ids;
		}
		if (ioctl(fd, NTTRACE_IOC_ENABLE, &e) < 0) {
			int err = -errno;

			free(known);
			fprintf(stderr, "nttrace wpr: enabling %s: %s\n", p->name, strerror(-err));
			return err;
		}
		enabled++;
		if (p->start_keywords)
			capture_state(fd, id, e.guid, p->level, p->start_keywords);
		if (p->save_keywords && s->n_captures < WPR_MAX_CAPTURES) {
			struct wpr_capture *k = &s->captures[s->n_captures++];

			k->session = s->n_sessions - 1;
			memcpy(k->guid, e.guid, 16);
			k->level = p->level;
			k->keywords = p->save_keywords;
		} else if (p->save_keywords) {
			snprintf(what, sizeof(what), "provider %.60s's CaptureStateOnSave (more "
				 "than %d)", p->name, WPR_MAX_CAPTURES);
			note(sk, what);
		}
	}
	free(known);
	return enabled;
}

/* The kernel flags and stacks of the system collector @c. */
static uint32_t system_flags(const struct wprp_collector *c, uint16_t *hooks, uint32_t *n_hooks,
			     struct skipped *sk)
{
	uint32_t flags = NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG, built = 0, f;
	int cpu_config = wpr_keyword_index("CpuConfig");
	unsigned int i, j;
	char what[96];

	if (nttrace_system_flags(&built))
		built = ~0U;
	for (i = 0; i < WPRP_KEYWORD_WORDS * 64; i++) {
		if (!(c->keywords[i / 64] >> (i % 64) & 1))
			continue;
		if ((int)i == cpu_config) {
			flags &= ~NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG;
			continue;
		}
		f = wpr_keyword_flags(i);
		if (f && !(f & ~built)) {
			flags |= f;
		} else {
			snprintf(what, sizeof(what), "keyword %s", wpr_keyword_name(i));
			note(sk, what);
		}
	}
	*n_hooks = 0;
	for (i = 0; i < WPRP_STACK_WORDS * 64; i++) {
		uint16_t hook;

		if (!(c->stacks[i / 64] >> (i % 64) & 1))
			continue;
		hook = wpr_stack_hook(i);
		if (hook && *n_hooks < NTTRACE_STACKS_MAX) {
			hooks[(*n_hooks)++] = hook;
		} else {
			snprintf(what, sizeof(what), "stack %s", wpr_stack_name(i));
			note(sk, what);
		}
	}
	for (j = 0; j < c->n_custom_stacks; j++) {
		for (i = 0; i < WPRP_STACK_WORDS * 64 && wpr_stack_hook(i) != c->custom_stacks[j]; i++)
			;
		if (i < WPRP_STACK_WORDS * 64 && *n_hooks < NTTRACE_STACKS_MAX) {
			hooks[(*n_hooks)++] = c->custom_stacks[j];
		} else {
			snprintf(what, sizeof(what), "CustomStack 0x%04x", c->custom_stacks[j]);
			note(sk, what);
		}
	}
	for (j = 0; j < c->n_custom_keywords; j++) {
		snprintf(what, sizeof(what), "CustomKeyword 0x%08x", c->custom_keywords[j]);
		note(sk, what);
	}
	return flags;
}

/* Stop what a failed -start started. */
static void undo(struct wpr_state *s)
{
	unsigned int i;

	for (i = 0; i < s->n_sessions; i++) {
		struct nttrace_logger_info info;
		char path[PATH_MAX];

		memset(&info, 0, sizeof(info));
		nttrace_set_name(&info, s->sessions[i]);
		info.control_flags = NTTRACE_CONTROL_WAIT_CONSUMER;
		nttrace_control(&info, EVENT_TRACE_CONTROL_STOP);
		if (!temp_file(s, s->sessions[i], path, sizeof(path)))
			unlink(path);
	}
}

static int start_collector(const struct wpr_opts *o, const struct wprp_collector *c,
			   struct wpr_state *s, struct skipped *sk)
{
	uint16_t hooks[NTTRACE_STACKS_MAX];
	struct nttrace_logger_info info;
	char name[NTTRACE_NAME_MAX + 64], path[PATH_MAX], prefix[NTTRACE_NAME_MAX + 64];
	uint32_t n_hooks = 0, flags = 0, mode;
	pid_t pid;
	int ret;

	snprintf(prefix, sizeof(prefix), "WPR_initiated_%s_", o->instance);
	if (collector_name(prefix, c, name, sizeof(name)))
		return 1;
	if (!c->system && !c->n_prov) {
		/* WPR refuses an event session without providers; one left empty here is skipped. */
		char what[128];

		snprintf(what, sizeof(what), "collector %.80s (no providers)", c->id);
		note(sk, what);
		return 0;
	}
	mode = collector_mode(o, c);
	if (c->system) {
		flags = system_flags(c, hooks, &n_hooks, sk);
		if (cli_kernel_session(name, flags, mode, &info))
			return 1;
	} else {
		memset(&info, 0, sizeof(info));
		nttrace_set_name(&info, name);
		info.log_file_mode = mode;
	}
	fit_buffers(c, name, &info);
	info.flush_timer = c->flush_timer;
	/* Beyond the module's total or the user's share: half as many. */
	ret = cli_start_fitted(&info, name);
	if (ret == -ENODEV)
		return wpr_fail(WPR_E_START, "Failed to start the profiles.", "%s", CLI_NOT_LOADED);
	if (ret == -EEXIST)
		return wpr_fail(WPR_E_COLLECTOR_RUNNING, "The event collector was already running.",
				"Collector Id: %s\nSession: %s", c->id, name);
	if (ret == -EPERM || ret == -EACCES)
		return wpr_fail(WPR_E_POLICY, "Failed to enable the policy to profile system performance.",
				"Collector Id: %s\n%s needs CAP_PERFMON (or CAP_SYS_ADMIN) in the "
				"initial namespaces.", c->id, c->system ? "The kernel's events" :
				"Starting a session");
	if (ret)
		return wpr_fail(WPR_E_START, "Failed to start the profiles.", "Collector Id: %s\n%s: %s",
				c->id, name, strerror(-ret));
	/* Shorter than NTTRACE_NAME_MAX: collector_name() said so. */
	memcpy(s->sessions[s->n_sessions++], name, strlen(name) + 1);
	if (n_hooks) {
		uint16_t refused[NTTRACE_STACKS_MAX];
		uint32_t n_refused, k, i;

		ret = cli_set_stacks_each(info.logger_id, hooks, &n_hooks, refused, &n_refused);
		if (ret)
			return wpr_fail(WPR_E_START, "Failed to start the profiles.",
					"Collector Id: %s\nstacks: %s", c->id, strerror(-ret));
		/* Stacks of events this module does not write: by WPR's name. */
		for (k = 0; k < n_refused; k++) {
			char what[96];

			for (i = 0; i < WPRP_STACK_WORDS * 64 && wpr_stack_hook(i) != refused[k]; i++)
				;
			if (i < WPRP_STACK_WORDS * 64)
				snprintf(what, sizeof(what), "stack %s", wpr_stack_name(i));
			else
				snprintf(what, sizeof(what), "CustomStack 0x%04x", refused[k]);
			note(sk, what);
		}
	}
	if (!c->system && (ret = enable_providers(c, info.logger_id, s, sk)) <= 0) {
		if (ret < 0)
			return wpr_fail(WPR_E_START, "Failed to start the profiles.",
					"Collector Id: %s", c->id);
		/* None of its providers could be enabled: no session for it. */
		s->n_sessions--;
		info.control_flags = 0;
		nttrace_control(&info, EVENT_TRACE_CONTROL_STOP);
		return 0;
	}
	if (o->file_mode) {
		ret = temp_file(s, name, path, sizeof(path));
		if (!ret)
			ret = nttrace_start_file_logger(info.logger_id, path, c->max_file_mb, &pid);
		if (ret)
			return wpr_fail(WPR_E_START, "Failed to start the profiles.",
					"Collector Id: %s\n%s: %s", c->id, path, cli_create_error(ret));
	}
	return 0;
}

/* The profile files a command line names, and the built-in ones. */
struct wpr_docs {
	struct wprp_doc builtin, files[WPR_MAX_FILES];
	unsigned int n_files;
};

static void docs_free(struct wpr_docs *d, struct wprp_plan *plan)
{
	unsigned int i;

	for (i = 0; i < d->n_files; i++)
		wprp_doc_free(&d->files[i]);
	wprp_plan_free(plan);
	wprp_doc_free(&d->builtin);
}

/*
 * What -start's (or -addboot's) profiles @o->starts ask for, into @plan,
 * and the temporary directory and the profiles' names into @s: 0, or 1
 * with WPR's error said. docs_free() frees @d and @plan either way.
 */
static int make_plan(const struct wpr_opts *o, struct wpr_docs *d, struct wprp_plan *plan,
		     struct wpr_state *s)
{
	static char paths[WPR_MAX_FILES][PATH_MAX];
	const char *tmp = o->temp_dir;
	unsigned int i, k;

	if (!tmp)
		tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	if (!realpath(tmp, s->temp_dir) || strchr(s->temp_dir, '\n'))
		return wpr_fail(WPR_E_TEMP_DIR, "Invalid temporary trace directory.", "%s: %s", tmp,
				strerror(errno));
	if (wprp_load_builtin(&d->builtin))
		return wpr_fail(WPR_E_SCHEMA, "The built-in schema for the profiles file is not valid.",
				"%s", d->builtin.why);
	for (i = 0; i < o->n_starts; i++) {
		const char *arg = o->starts[i], *bang = strchr(arg, '!'), *name = arg;
		struct wprp_doc *doc = NULL;
		size_t n = strlen(arg);
		char file[PATH_MAX];

		/* FILE.wprp!NAME, FILE.wprp (its Default profile), or a built-in NAME. */
		file[0] = 0;
		if (bang) {
			snprintf(file, sizeof(file), "%.*s", (int)(bang - arg), arg);
			name = bang[1] ? bang + 1 : NULL;
		} else if (n > 5 && !strcasecmp(arg + n - 5, ".wprp")) {
			snprintf(file, sizeof(file), "%s", arg);
			name = NULL;
		}
		if (file[0]) {
			for (k = 0; k < d->n_files && strcmp(paths[k], file); k++)
				;
			if (k == d->n_files) {
				if (d->n_files == WPR_MAX_FILES)
					return wpr_fail(WPR_E_START, "Failed to start the profiles.",
							"More than %d profile files.", WPR_MAX_FILES);
				memcpy(paths[k], file, sizeof(file));
				if (wprp_load(paths[k], &d->files[k]) || wprp_index(&d->files[k])) {
					int ret = wpr_fail(WPR_E_FILE,
							   "The profile file is missing or corrupt.",
							   "%s: %s", paths[k], d->files[k].why);

					wprp_doc_free(&d->files[k]);
					return ret;
				}
				d->n_files++;
			}
			doc = &d->files[k];
		}
		if (wprp_add_profile(plan, doc, &d->builtin, name))
			return wpr_fail(plan->code, plan->code == WPR_E_NO_PROFILE ?
					"The <Profile> element could not be found in the profile file." :
					"The profile could not be read.", "%s: %s", arg, plan->why);
	}
	for (i = 0; i < plan->n_profiles; i++) {
		size_t len = strlen(s->profiles);

		snprintf(s->profiles + len, sizeof(s->profiles) - len, "%s%s", i ? ", " : "",
			 plan->profiles[i]);
	}
	return 0;
}

/* What was skipped, once: "Not recorded on Linux: ...". */
static void say_skipped(const struct wprp_plan *plan, struct skipped *sk)
{
	unsigned int i;

	for (i = 0; i < plan->n_skipped; i++)
		note(sk, plan->skipped[i]);
	if (sk->len) {
		printf("Not recorded on Linux: ");
		wprp_put_clean(stdout, sk->text, 0, 1);
		printf(".\n");
	}
}

static int wpr_start(const struct wpr_opts *o)
{
	struct wpr_docs d = { .n_files = 0 };
	struct wprp_plan plan = { .file_mode = o->file_mode };
	struct wpr_state s = { .file_mode = o->file_mode };
	struct skipped sk = { .len = 0 };
	unsigned int i;
	int ret = 1;

	if (running(o->instance))
		return wpr_fail(WPR_E_RUNNING, "The profiles are already running.", NULL);
	if (make_plan(o, &d, &plan, &s))
		goto out;
	s.started = time(NULL);
	cli_same_tool();
	for (i = 0; i < plan.n_col; i++) {
		if (start_collector(o, &plan.col[i], &s, &sk)) {
			undo(&s);
			goto out;
		}
	}
	if (!s.n_sessions) {
		ret = wpr_fail(WPR_E_START, "Failed to start the profiles.",
			       "Nothing they ask for can be recorded here%s%s.",
			       sk.len ? ": " : "", sk.text);
		goto out;
	}
	ret = save_state(o->instance, &s);
	if (ret) {
		undo(&s);
		ret = wpr_fail(WPR_E_START, "Failed to start the profiles.", "state file: %s",
			       strerror(-ret));
		goto out;
	}
	say_skipped(&plan, &sk);
	ret = 0;
out:
	docs_free(&d, &plan);
	return ret;
}

/* ---- stopping, status ---- */

/*
 * Stop each session of the state @s. With @save, first give a memory-mode
 * session its logger (which reads what the rings hold), and collect the
 * files written in @files (*@n_files); else remove them. The events lost
 * in all of them in *@lost. 0, or the last -errno.
 */
static int stop_sessions(const struct wpr_state *s, int save, char files[][PATH_MAX],
			 unsigned int *n_files, uint64_t *lost)
{
	unsigned int i;
	int ret = 0;

	*n_files = 0;
	*lost = 0;
	for (i = 0; i < s->n_sessions; i++) {
		struct nttrace_logger_info info;
		char *path = files[*n_files];
		int err, stopped;
		pid_t pid;

		if (query_named(s->sessions[i], &info)) {
			fprintf(stderr, "nttrace wpr: session %s has gone\n", s->sessions[i]);
			ret = -ENOENT;
			continue;
		}
		err = temp_file(s, s->sessions[i], path, PATH_MAX);
		if (!err && save && !s->file_mode)
			err = nttrace_start_file_logger(info.logger_id, path, 0, &pid);
		if (err) {
			fprintf(stderr, "nttrace wpr: %s: %s\n", path, cli_create_error(err));
			ret = err;
		}
		info.control_flags = NTTRACE_CONTROL_WAIT_CONSUMER;
		stopped = nttrace_control(&info, EVENT_TRACE_CONTROL_STOP);
		if (stopped) {
			fprintf(stderr, "nttrace wpr: stopping %s: %s\n", s->sessions[i],
				strerror(-stopped));
			ret = stopped;
		}
		*lost += info.events_lost;
		if (save && !err && !stopped)
			(*n_files)++;
		else
			unlink(path);
	}
	return ret;
}

/*
 * CaptureStateOnSave: each provider asked for its state before the
 * sessions stop, so that what it writes at once goes into the recording.
 * A session gone or a request refused is said; the save goes on.
 */
static void ask_saved_state(const struct wpr_state *s)
{
	int fd = nttrace_device_fd();
	unsigned int i;

	for (i = 0; i < s->n_captures && fd >= 0; i++) {
		const struct wpr_capture *c = &s->captures[i];
		struct nttrace_logger_info info;
		int err;

		if (query_named(s->sessions[c->session], &info))
			continue;	/* said by stop_sessions() */
		err = capture_state(fd, info.logger_id, c->guid, c->level, c->keywords);
		if (err == -ETIMEDOUT)
			fprintf(stderr, "nttrace wpr: %s: CaptureStateOnSave: a provider's callback "
				"had not returned after %d ms; the state it writes later is not in "
				"the recording\n", s->sessions[c->session], CAPTURE_TIMEOUT_MS);
		else if (err)
			fprintf(stderr, "nttrace wpr: %s: CaptureStateOnSave: %s\n",
				s->sessions[c->session], strerror(-err));
	}
}

/*
 * Stop the sessions of @s and, with @save, merge their files into
 * @o->stop_file, as -stop does (and -stopboot, -cancel, -cancelboot).
 */
static int stop_and_save(const struct wpr_opts *o, const struct wpr_state *s, int save)
{
	char files[WPRP_MAX_COLLECTORS][PATH_MAX];
	char *argv[WPRP_MAX_COLLECTORS + 8];
	unsigned int n, i, argc = 0;
	uint64_t lost;
	int ret;

	cli_same_tool();
	if (save)
		ask_saved_state(s);
	ret = stop_sessions(s, save, files, &n, &lost);
	if (!save)
		return ret ? 1 : 0;
	if (ret || !n) {
		for (i = 0; i < n; i++)
			unlink(files[i]);
		return wpr_fail(WPR_E_SAVE, "Failed to save the profiles.", "%s", strerror(-ret));
	}
	argv[argc++] = (char *)"merge";
	argv[argc++] = (char *)"-o";
	argv[argc++] = (char *)o->stop_file;
	for (i = 0; i < n; i++)
		argv[argc++] = files[i];
	argv[argc] = NULL;
	optind = 0;
	ret = cmd_merge(argc, argv);
	for (i = 0; i < n; i++)
		unlink(files[i]);
	if (ret)
		return wpr_fail(WPR_E_SAVE, "Failed to save the profiles.", "merging into %s",
				o->stop_file);
	if (lost)
		printf("This trace has dropped %llu events. Please record this trace again.\n",
		       (unsigned long long)lost);
	printf("The trace was successfully saved.\n");
	return 0;
}

static int wpr_stop(const struct wpr_opts *o, int save)
{
	struct wpr_state s;
	int ret;

	ret = load_state(o->instance, &s);
	if (ret == -ENOENT || (!ret && !running(o->instance))) {
		if (!ret)
			remove_state(o->instance);
		return wpr_fail(WPR_E_NOT_RUNNING, "There are no trace profiles running.", NULL);
	}
	if (ret)
		return wpr_fail(save ? WPR_E_SAVE : WPR_E_NOT_RUNNING, "Failed to read the state.",
				"%s", strerror(-ret));
	remove_state(o->instance);
	return stop_and_save(o, &s, save);
}

/*
 * -marker TEXT, -markerflush TEXT: EtwSetMark's mark (NtTraceEvent's
 * TRACE_MARK, ETW_SET_MARK_INFORMATION: a ULONG of flags, the text in
 * UTF-16) in the recording's system collector, which WPA shows as a Mark;
 * with -markerflush, ETW_SET_MARK_WITH_FLUSH, then every session of the
 * recording flushed, as WPR flushes its buffers with the mark.
 */
static int wpr_marker(const struct wpr_opts *o)
{
	struct {
		uint32_t flag;
		uint16_t text[1024];
	} mark = { .flag = o->marker_flush ? 0x1 : 0 };
	struct nttrace_logger_info info;
	struct wpr_state s;
	unsigned int i, marked = 0;
	size_t n;
	NTSTATUS st;

	if (load_state(o->instance, &s) || !running(o->instance))
		return wpr_fail(WPR_E_NOT_RUNNING, "There are no trace profiles running.", NULL);
	/* UTF-16LE, invalid UTF-8 as U+FFFD, cut to fit with its NUL. */
	n = ntr_utf8_to_utf16((uint8_t *)mark.text, sizeof(mark.text) / 2 - 1, o->marker,
			      (uint32_t)strlen(o->marker));
	mark.text[n++] = 0;
	for (i = 0; i < s.n_sessions; i++) {
		if (query_named(s.sessions[i], &info))
			continue;
		if (info.log_file_mode & NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE ||
		    !strcmp((const char *)info.name, NTTRACE_KERNEL_LOGGER_NAME)) {
			st = NtTraceEvent((HANDLE)(uintptr_t)info.logger_id,
					  NTTRACE_ETW_NT_FLAGS_TRACE_MARK,
					  sizeof(mark.flag) + n * 2, &mark);
			if (st)
				return wpr_fail(WPR_E_START, "Failed to set the marker.",
						"%s: NTSTATUS 0x%08x", s.sessions[i], (unsigned int)st);
			marked++;
		}
		if (o->marker_flush)
			nttrace_control(&info, EVENT_TRACE_CONTROL_FLUSH);
	}
	if (!marked)
		return wpr_fail(WPR_E_START, "Failed to set the marker.",
				"The recording has no system collector to hold it.");
	printf("The marker was successfully set.\n");
	return 0;
}

/* ---- boot traces: the sessions as autologgers (autologger.c) ---- */

/*
 * A boot trace's sessions are autologgers named as -start names its
 * sessions, with "boottr_" before the collector's name
 * ("WPR_initiated_WprApp_boottr_WPR System Collector"), so that a boot
 * trace and a recording of the same instance can be configured at once.
 * The autologgers say what was configured; no state file is kept (the
 * user's runtime directory does not survive the boot).
 */
static void boot_prefix(const struct wpr_opts *o, char *out, size_t room)
{
	snprintf(out, room, "WPR_initiated_%s_boottr_", o->instance);
}

/* The boot trace's autologgers, into @s->sessions: their count, or -errno. */
static int boot_sessions(const struct wpr_opts *o, struct wpr_state *s)
{
	char prefix[NTTRACE_NAME_MAX + 32], **v;
	unsigned int n, i;
	int ret = cli_autologger_names(&v, &n);

	if (ret)
		return ret;
	boot_prefix(o, prefix, sizeof(prefix));
	s->n_sessions = 0;
	for (i = 0; i < n && s->n_sessions < WPRP_MAX_COLLECTORS; i++)
		if (!strncmp(v[i], prefix, strlen(prefix)))
			snprintf(s->sessions[s->n_sessions++], NTTRACE_NAME_MAX, "%s", v[i]);
	cli_autologger_names_free(v, n);
	return s->n_sessions;
}

/*
 * Collector @c as an autologger: what start_collector() would start, as
 * the values `nttrace autologger add` takes. 1 with it written, 0 when
 * nothing of @c can be recorded (said in @sk), or -1 with WPR's error said.
 */
static int boot_collector(const struct wpr_opts *o, const struct wprp_collector *c,
			  const struct wpr_state *s, struct skipped *sk,
			  PROVIDER_ENUMERATION_INFO **known)
{
	static struct cli_args a;
	struct nttrace_logger_info info = { .size = 0 };
	uint16_t hooks[NTTRACE_STACKS_MAX];
	char name[NTTRACE_NAME_MAX + 64], path[PATH_MAX], what[160], prefix[NTTRACE_NAME_MAX + 64];
	uint32_t n_hooks = 0, mode;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	unsigned int i, n_prov = 0;

	boot_prefix(o, prefix, sizeof(prefix));
	if (collector_name(prefix, c, name, sizeof(name)))
		return -1;
	a.argc = a.full = 0;
	cli_arg(&a, "%s", name);
	fit_buffers(c, name, &info);
	cli_arg(&a, "BufferSize=%u", info.buffer_size_kb);
	cli_arg(&a, "MinimumBuffers=%llu", (unsigned long long)info.min_buffers * (cpus > 0 ? cpus : 1));
	cli_arg(&a, "MaximumBuffers=%llu", (unsigned long long)info.max_buffers * (cpus > 0 ? cpus : 1));
	if (c->flush_timer)
		cli_arg(&a, "FlushTimer=%u", c->flush_timer);
	mode = collector_mode(o, c);
	if (c->system) {
		cli_arg(&a, "EnableFlags=0x%x", system_flags(c, hooks, &n_hooks, sk));
		mode |= NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE;
		if (n_hooks)
			note(sk, "stacks of a boot trace");
	}
	cli_arg(&a, "LogFileMode=0x%x", mode);
	if (o->file_mode) {
		if (temp_file(s, name, path, sizeof(path)))
			return -wpr_fail(WPR_E_TEMP_DIR, "Invalid temporary trace directory.", "%s",
					 s->temp_dir);
		cli_arg(&a, "FileName=%s", path);
		if (c->max_file_mb)
			cli_arg(&a, "MaxFileSize=%u", c->max_file_mb);
	}
	for (i = 0; i < c->n_prov; i++) {
		const struct wprp_provider *p = &c->prov[i];
		uint8_t guid[16];
		char text[NTTRACE_GUID_STRING];

		if (!usable_provider(p, known, guid, sk))
			continue;
		/* An autologger's provider has no event ID filter: all its events. */
		if (p->filter) {
			snprintf(what, sizeof(what), "provider %.60s's EventFilters at boot (all "
				 "its events recorded)", p->name);
			note(sk, what);
		}
		/* An autologger enables; it asks no state of its providers. */
		if (p->save_keywords || p->start_keywords) {
			snprintf(what, sizeof(what), "provider %.60s's CaptureState in a boot trace",
				 p->name);
			note(sk, what);
		}
		nttrace_guid_string(guid, text);
		cli_arg(&a, "-p");
		cli_arg(&a, "{%s}", text);
		cli_arg(&a, "EnableLevel=%u", p->level);
		cli_arg(&a, "MatchAnyKeyword=0x%llx", (unsigned long long)p->keywords);
		if (p->stack)
			cli_arg(&a, "EnableProperty=0x%x", NTTRACE_ENABLE_PROPERTY_STACK_TRACE);
		n_prov++;
	}
	if (!c->system && !n_prov) {
		snprintf(what, sizeof(what), "collector %.80s (no providers)", c->id);
		note(sk, what);
		return 0;
	}
	if (a.full || cli_autologger_add(a.argc, a.argv, 1))
		return -wpr_fail(WPR_E_START, "Failed to start the profiles.",
				 "Collector Id: %s\nautologger %s not written", c->id, name);
	return 1;
}

/* -boottrace -addboot: the profiles' sessions as autologgers for the next boot. */
static int wpr_addboot(const struct wpr_opts *o)
{
	PROVIDER_ENUMERATION_INFO *known = NULL;
	struct wpr_docs d = { .n_files = 0 };
	struct wprp_plan plan = { .file_mode = o->file_mode };
	static struct wpr_state s;
	struct skipped sk = { .len = 0 };
	unsigned int i, added = 0;
	int ret = boot_sessions(o, &s);

	if (ret < 0)
		return wpr_fail(WPR_E_START, "Failed to start the profiles.",
				"the autologgers: %s", strerror(-ret));
	if (ret)
		return wpr_fail(WPR_E_RUNNING, "The profiles are already running.",
				"A boot trace is configured (%s): -boottrace -cancelboot removes it.",
				s.sessions[0]);
	memset(&s, 0, sizeof(s));
	ret = 1;
	if (make_plan(o, &d, &plan, &s))
		goto out;
	for (i = 0; i < plan.n_col; i++) {
		int r = boot_collector(o, &plan.col[i], &s, &sk, &known);

		if (r < 0)
			goto undo;
		added += r;
	}
	if (!added) {
		wpr_fail(WPR_E_START, "Failed to start the profiles.",
			 "Nothing they ask for can be recorded here%s%s.", sk.len ? ": " : "", sk.text);
		goto out;
	}
	say_skipped(&plan, &sk);
	printf("The boot trace starts at the next boot (%s; `nttrace autologger list`).\n",
	       s.profiles);
	ret = 0;
	goto out;
undo:
	if (boot_sessions(o, &s) > 0)
		for (i = 0; i < s.n_sessions; i++)
			cli_autologger_remove(s.sessions[i], 1);
out:
	free(known);
	docs_free(&d, &plan);
	return ret;
}

/*
 * -boottrace -stopboot FILE (@save) and -cancelboot: the boot trace's
 * sessions stopped (those the boot started), saved as -stop saves, and
 * their autologgers removed: a boot trace records one boot, as WPR's.
 */
static int wpr_stopboot(const struct wpr_opts *o, int save)
{
	static struct wpr_state s, run;
	char file[PATH_MAX], *slash;
	unsigned int i;
	int ret = boot_sessions(o, &s);

	if (ret <= 0)
		return wpr_fail(WPR_E_NOT_RUNNING, "There are no trace profiles running.",
				ret < 0 ? "the autologgers: %s" : "No boot trace is configured.",
				strerror(-ret));
	/* The boot's sessions (a file-mode one's directory is where its file is). */
	memset(&run, 0, sizeof(run));
	for (i = 0; i < s.n_sessions; i++) {
		struct nttrace_logger_info info;

		if (query_named(s.sessions[i], &info))
			continue;
		if (!cli_autologger_file(s.sessions[i], file, sizeof(file)) &&
		    (slash = strrchr(file, '/'))) {
			*slash = 0;
			snprintf(run.temp_dir, sizeof(run.temp_dir), "%s", *file ? file : "/");
			run.file_mode = 1;
		}
		memcpy(run.sessions[run.n_sessions++], s.sessions[i], NTTRACE_NAME_MAX);
	}
	if (!run.file_mode) {
		const char *tmp = o->temp_dir ? o->temp_dir :
				  getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

		if (!realpath(tmp, run.temp_dir))
			return wpr_fail(WPR_E_TEMP_DIR, "Invalid temporary trace directory.",
					"%s: %s", tmp, strerror(errno));
	}
	for (i = 0; i < s.n_sessions; i++)
		cli_autologger_remove(s.sessions[i], 1);
	if (!run.n_sessions) {
		if (!save)
			return 0;
		return wpr_fail(WPR_E_NOT_RUNNING, "There are no trace profiles running.",
				"The boot trace did not run (no boot since -addboot); its "
				"configuration is removed.");
	}
	return stop_and_save(o, &run, save);
}

static int wpr_status(const struct wpr_opts *o)
{
	struct wpr_state s;
	unsigned int i;
	uint64_t lost = 0;
	long long t;

	if (load_state(o->instance, &s) || !running(o->instance)) {
		printf("WPR is not recording\n");
		return 0;
	}
	for (i = 0; i < s.n_sessions; i++) {
		struct nttrace_logger_info info;

		memset(&info, 0, sizeof(info));
		nttrace_set_name(&info, s.sessions[i]);
		if (!nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY))
			lost += info.events_lost;
	}
	t = time(NULL) - s.started;
	printf("WPR recording is in progress...\n\n");
	printf("Time since start        : %02lld:%02lld:%02lld\n", t / 3600, t / 60 % 60, t % 60);
	printf("Dropped event           : %llu\n", (unsigned long long)lost);
	printf("Logging mode            : %s\n", s.file_mode ? "File" : "Memory");
	printf("Profile                 : %s\n", s.profiles);
	for (i = 0; i < s.n_sessions; i++) {
		struct nttrace_logger_info info;

		if (query_named(s.sessions[i], &info))
			continue;
		printf("\nCollector Name          : %s\n", s.sessions[i]);
		printf("Buffer Size (KB)        : %u\n", info.buffer_size_kb);
		printf("Number of Buffers       : %u\n", info.max_buffers * info.nr_cpus);
		printf("Events Lost             : %llu\n", (unsigned long long)info.events_lost);
		if (info.log_file_mode & NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE) {
			printf("System Keywords         : ");
			cli_print_kernel_flags(stdout, info.group_mask[0]);
			printf("\n");
		}
	}
	if (s.file_mode)
		printf("\nTemp Folder             : %s\n", s.temp_dir);
	return 0;
}

static int wpr_flush(const struct wpr_opts *o)
{
	struct wpr_state s;
	unsigned int i;
	int ret = 0;

	if (load_state(o->instance, &s) || !running(o->instance))
		return wpr_fail(WPR_E_NOT_RUNNING, "There are no trace profiles running.", NULL);
	for (i = 0; i < s.n_sessions; i++) {
		struct nttrace_logger_info info;

		memset(&info, 0, sizeof(info));
		nttrace_set_name(&info, s.sessions[i]);
		if (nttrace_control(&info, EVENT_TRACE_CONTROL_FLUSH))
			ret = 1;
	}
	return ret;
}

static int wpr_profiles(const struct wpr_opts *o)
{
	struct wprp_doc doc;

	if (o->profiles_file ? wprp_load(o->profiles_file, &doc) || wprp_index(&doc) :
	    wprp_load_builtin(&doc)) {
		int ret = wpr_fail(WPR_E_FILE, "The profile file is missing or corrupt.", "%s: %s",
				   o->profiles_file ? o->profiles_file : "(built in)", doc.why);

		wprp_doc_free(&doc);
		return ret;
	}
	wprp_list_profiles(&doc, stdout);
	wprp_doc_free(&doc);
	return 0;
}

/* ---- the command line ---- */

static const char *const options[] = {
	"help", "h", "?", "start", "filemode", "recordtempto", "instancename", "stop", "cancel",
	"status", "flush", "profiles", "boottrace", "addboot", "stopboot", "cancelboot",
	"marker", "markerflush",
};

/* "-start", "/start", "--start", any case, is option @name. */
static int is_opt(const char *arg, const char *name)
{
	if (arg[0] == '-' && arg[1] == '-')
		arg++;
	return (arg[0] == '-' || arg[0] == '/') && !strcasecmp(arg + 1, name);
}

/*
 * An option, not a value: anything starting with '-', and "/NAME" for an
 * option's NAME (so that an absolute path is a value, as it must be).
 */
static int is_any_opt(const char *arg)
{
	unsigned int i;

	if (arg[0] == '-')
		return 1;
	for (i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (is_opt(arg, options[i]))
			return 1;
	return 0;
}

static int set_what(struct wpr_opts *o, unsigned int what)
{
	if (o->what != W_NONE && (unsigned int)o->what != what) {
		usage(stderr);
		return CLI_USAGE;
	}
	o->what = what;
	return 0;
}

int cmd_wpr(int argc, char **argv)
{
	struct wpr_opts o = { .instance = WPR_DEFAULT_INSTANCE };
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		int has_next = next && !is_any_opt(next);

		if (is_opt(a, "help") || is_opt(a, "h") || is_opt(a, "?")) {
			usage(stdout);
			return 0;
		} else if (is_opt(a, "start") && has_next) {
			if (set_what(&o, W_START) || o.n_starts == 64)
				return CLI_USAGE;
			o.starts[o.n_starts++] = argv[++i];
		} else if (is_opt(a, "boottrace")) {
			o.boottrace = 1;
		} else if (is_opt(a, "addboot") && has_next) {
			if (set_what(&o, W_ADDBOOT) || o.n_starts == 64)
				return CLI_USAGE;
			o.starts[o.n_starts++] = argv[++i];
		} else if (is_opt(a, "stopboot") && has_next) {
			if (set_what(&o, W_STOPBOOT))
				return CLI_USAGE;
			o.stop_file = argv[++i];
		} else if ((is_opt(a, "marker") || is_opt(a, "markerflush")) && has_next) {
			if (set_what(&o, W_MARKER))
				return CLI_USAGE;
			o.marker_flush = is_opt(a, "markerflush");
			o.marker = argv[++i];
		} else if (is_opt(a, "cancelboot")) {
			if (set_what(&o, W_CANCELBOOT))
				return CLI_USAGE;
		} else if (is_opt(a, "filemode")) {
			o.file_mode = 1;
		} else if (is_opt(a, "recordtempto") && has_next) {
			o.temp_dir = argv[++i];
		} else if (is_opt(a, "instancename") && has_next) {
			o.instance = argv[++i];
		} else if (is_opt(a, "stop") && has_next) {
			if (set_what(&o, W_STOP))
				return CLI_USAGE;
			o.stop_file = argv[++i];
			/* A problem description: kept nowhere, which is said. */
			if (i + 1 < argc && !is_any_opt(argv[i + 1])) {
				fprintf(stderr, "nttrace wpr: the description \"%s\" is not stored in "
					"the trace\n", argv[++i]);
			}
		} else if (is_opt(a, "cancel")) {
			if (set_what(&o, W_CANCEL))
				return CLI_USAGE;
		} else if (is_opt(a, "status")) {
			if (set_what(&o, W_STATUS))
				return CLI_USAGE;
		} else if (is_opt(a, "flush")) {
			if (set_what(&o, W_FLUSH))
				return CLI_USAGE;
		} else if (is_opt(a, "profiles")) {
			if (set_what(&o, W_PROFILES))
				return CLI_USAGE;
			if (has_next)
				o.profiles_file = argv[++i];
		} else {
			fprintf(stderr, "Invalid command syntax.\n\tInvalid option: %s\n\n", a);
			usage(stderr);
			return CLI_USAGE;
		}
	}
	if (!*o.instance || strlen(o.instance) > 32 || strpbrk(o.instance, "/\n")) {
		fprintf(stderr, "nttrace wpr: -instancename: 1 to 32 characters, no / or newline\n");
		return CLI_USAGE;
	}
	/* -addboot, -stopboot and -cancelboot go with -boottrace, and it with them. */
	if (o.boottrace != (o.what == W_ADDBOOT || o.what == W_STOPBOOT || o.what == W_CANCELBOOT)) {
		fprintf(stderr, "Invalid command syntax.\n\t-boottrace goes with -addboot, "
			"-stopboot or -cancelboot\n\n");
		usage(stderr);
		return CLI_USAGE;
	}
	switch (o.what) {
	case W_MARKER: return wpr_marker(&o);
	case W_ADDBOOT: return wpr_addboot(&o);
	case W_STOPBOOT: return wpr_stopboot(&o, 1);
	case W_CANCELBOOT: return wpr_stopboot(&o, 0);
	case W_START: return wpr_start(&o);
	case W_STOP: return wpr_stop(&o, 1);
	case W_CANCEL: return wpr_stop(&o, 0);
	case W_STATUS: return wpr_status(&o);
	case W_FLUSH: return wpr_flush(&o);
	case W_PROFILES: return wpr_profiles(&o);
	default:
		usage(stderr);
		return CLI_USAGE;
	}
}
