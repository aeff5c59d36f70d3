// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace autologger: sessions that start at boot, before the programs
 * they trace, configured as Windows configures its AutoLogger sessions
 * (the registry key HKLM\SYSTEM\CurrentControlSet\Control\WMI\Autologger\
 * NAME, whose values describe the session and whose subkeys, one a
 * provider GUID, the providers it enables):
 *
 *   nttrace autologger add NAME [VALUE=DATA]... [-p PROVIDER [VALUE=DATA]...]...
 *   nttrace autologger remove NAME
 *   nttrace autologger list [NAME]
 *   nttrace autologger boot
 *
 * The configuration directory (/etc/nttrace/autologger, or
 * NTTRACE_AUTOLOGGER_DIR) holds a directory a session, NAME/, which holds
 * the key's values in NAME/values and each provider's subkey in a file
 * named by its GUID, NAME/{GUID}: a "Value=Data" line a value, by the
 * registry's value names (any case, as the registry takes them). Numbers
 * are decimal or 0x hex; files are 0600 and written whole (a temporary
 * file renamed), so that a boot never reads half of one.
 *
 * Session values: Start (1: started at boot), Guid (the session's GUID,
 * kept and shown), FileName (default /var/log/nttrace/NAME.etl), FileMax
 * (more than 0: the file of each boot is FileName.NNN, NNN counting 1 to
 * FileMax and round again, as Windows numbers them), MaxFileSize (MB),
 * BufferSize (KB), MinimumBuffers and MaximumBuffers (the whole
 * session's, spread over the CPUs), FlushTimer (seconds), LogFileMode,
 * ClockType, and for a system logger (the session named "NT Kernel
 * Logger", or one whose LogFileMode has EVENT_TRACE_SYSTEM_LOGGER_MODE)
 * EnableFlags, its kernel flags. Provider values: Enabled,
 * EnableLevel, MatchAnyKeyword, MatchAllKeyword, EnableProperty. Any other
 * value name is refused when added and when booted: a setting that would
 * be ignored is not accepted.
 *
 * `boot` starts every session whose Start is 1, enables its providers
 * whose Enabled is not 0, and gives it its file (the logger process
 * StartTrace starts), unless its LogFileMode has EVENT_TRACE_BUFFERING_MODE:
 * such a session keeps its buffers in memory until a logger is given it
 * (`nttrace wpr -boottrace -stopboot`); buffer counts the machine's
 * limits refuse are halved until they fit (cli_start_fitted()), and said.
 * The systemd unit nttrace-autologger.service runs it
 * right after the module loads. As Windows records the outcome in the
 * key's Status value, it writes NAME/status: Status (0, or the errno
 * that stopped the session), LoggerId, File and FileCounter.
 *
 * Who may: what the directory's permissions allow (root's /etc), and what
 * starting each session needs (the NT Kernel Logger: CAP_PERFMON).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nttrace/nt.h>
#include <nttrace/tdh.h>
#include <nttrace/tmf.h>

#include "cli.h"
#include "../logger/logger_internal.h"

#define AUTOLOGGER_DIR		"/etc/nttrace/autologger"
#define DEFAULT_LOG_DIR		"/var/log/nttrace"
#define MAX_PROVIDERS		64
#define VALUES_FILE		"values"
#define STATUS_FILE		"status"

/* Numbers shown in hex (HEX32, HEX64) are bit masks; the rest counts. */
enum kind { NUM32, NUM64, HEX32, HEX64, TEXT };

/* A value's name, kind and, for a TEXT one, its place in struct values' texts. */
struct value_name {
	const char *name;
	enum kind kind;
	int text;
};
#define N_TEXTS	2	/* Guid and FileName */

/* The session key's values, in the order they are written. */
enum {
	S_START, S_GUID, S_FILENAME, S_FILEMAX, S_MAXFILESIZE, S_BUFFERSIZE, S_MINBUFFERS,
	S_MAXBUFFERS, S_FLUSHTIMER, S_LOGFILEMODE, S_CLOCKTYPE, S_ENABLEFLAGS, S_COUNT
};
static const struct value_name session_values[S_COUNT] = {
	{ "Start", NUM32, -1 }, { "Guid", TEXT, 0 }, { "FileName", TEXT, 1 }, { "FileMax", NUM32, -1 },
	{ "MaxFileSize", NUM32, -1 }, { "BufferSize", NUM32, -1 }, { "MinimumBuffers", NUM32, -1 },
	{ "MaximumBuffers", NUM32, -1 }, { "FlushTimer", NUM32, -1 }, { "LogFileMode", HEX32, -1 },
	{ "ClockType", NUM32, -1 }, { "EnableFlags", HEX32, -1 },
};

/* A provider subkey's values. */
enum { P_ENABLED, P_LEVEL, P_ANY, P_ALL, P_PROPERTY, P_COUNT };
static const struct value_name provider_values[P_COUNT] = {
	{ "Enabled", NUM32, -1 }, { "EnableLevel", NUM32, -1 }, { "MatchAnyKeyword", HEX64, -1 },
	{ "MatchAllKeyword", HEX64, -1 }, { "EnableProperty", HEX32, -1 },
};

/*
 * NAME/status, what the last boot did, as Windows keeps it in the key's
 * Status value: written and read as the other keys are.
 */
enum { T_STATUS, T_LOGGERID, T_FILE, T_FILECOUNTER, T_COUNT };
static const struct value_name status_values[T_COUNT] = {
	{ "Status", NUM32, -1 }, { "LoggerId", NUM32, -1 }, { "File", TEXT, 1 },
	{ "FileCounter", NUM64, -1 },
};

/* One key's values: which are set, the numbers, the texts (names[i].text). */
struct values {
	unsigned int set;		/* bit i: value i is set */
	uint64_t num[S_COUNT];
	char text[N_TEXTS][PATH_MAX];
};

struct provider {
	char guid[40];			/* "{...}", its file's name */
	struct values v;
};

struct autologger {
	char name[NTTRACE_NAME_MAX];
	struct values v;
	struct provider p[MAX_PROVIDERS];
	unsigned int n_p;
};

/*
 * Say what is wrong, with strerror(-@err) for a system error: returns 1
 * for one, CLI_USAGE (bad input) for @err 0.
 */
__attribute__((format(printf, 2, 3)))
static int al_fail(int err, const char *fmt, ...)
{
	va_list ap;

	fputs("nttrace autologger: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (err)
		fprintf(stderr, ": %s", strerror(-err));
	fputc('\n', stderr);
	return err ? 1 : CLI_USAGE;
}

static const char *config_dir(void)
{
	const char *d = getenv("NTTRACE_AUTOLOGGER_DIR");

	return d && *d ? d : AUTOLOGGER_DIR;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace autologger add NAME [VALUE=DATA]... [-p PROVIDER [VALUE=DATA]...]...\n"
		"       nttrace autologger remove NAME\n"
		"       nttrace autologger list [NAME]\n"
		"       nttrace autologger boot\n\n"
		"Sessions started at boot (the systemd unit nttrace-autologger.service runs\n"
		"`boot`), configured in %s (NTTRACE_AUTOLOGGER_DIR) with\n"
		"the values of Windows' Autologger registry keys:\n"
		"  session:  Start Guid FileName FileMax MaxFileSize BufferSize MinimumBuffers\n"
		"            MaximumBuffers FlushTimer LogFileMode ClockType EnableFlags\n"
		"  provider: Enabled EnableLevel MatchAnyKeyword MatchAllKeyword EnableProperty\n"
		"A new session gets Start=1, a new provider Enabled=1. PROVIDER: a GUID, or a\n"
		"name a loaded manifest gives. System loggers take EnableFlags (kernel flags):\n"
		"\"NT Kernel Logger\" (no providers), or LogFileMode with 0x2000000. With\n"
		"LogFileMode 0x400 (buffering) no file is written at boot.\n", config_dir());
}

/* A session name that is also a safe directory name. */
static int valid_name(const char *name)
{
	if (!*name || *name == '.' || strchr(name, '/') || strlen(name) >= NTTRACE_NAME_MAX)
		return al_fail(0, "'%s': not a session name (1 to %d characters, no '/', "
				"not starting with '.')", name, NTTRACE_NAME_MAX - 1);
	return 0;
}

static int find_value(const struct value_name *names, unsigned int n, const char *name,
		      size_t len)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strlen(names[i].name) == len && !strncasecmp(names[i].name, name, len))
			return (int)i;
	return -1;
}

/*
 * "Value=Data" into @v, by @names (@n of them), @where naming it in what
 * is said: 0, or says why not and returns CLI_USAGE.
 */
static int set_value(struct values *v, const struct value_name *names, unsigned int n,
		     const char *arg, const char *where)
{
	const char *eq = strchr(arg, '=');
	char what[PATH_MAX + 64];
	uint64_t x;
	int i;

	if (!eq || eq == arg)
		return al_fail(0, "%s: '%s' is not VALUE=DATA", where, arg);
	i = find_value(names, n, arg, eq - arg);
	if (i < 0)
		return al_fail(0, "%s: no value '%.*s' here (see nttrace autologger --help)",
				where, (int)(eq - arg), arg);
	/* A path too long for @what is cut short there; it only names the place. */
	if (snprintf(what, sizeof(what), "%s: %s", where, names[i].name) < 0)
		what[0] = 0;
	if (names[i].kind == TEXT) {
		if (!eq[1] || strlen(eq + 1) >= sizeof(v->text[0]) || strchr(eq + 1, '\n'))
			return al_fail(0, "%s: empty, too long or more than a line", what);
		strcpy(v->text[names[i].text], eq + 1);
	} else {
		if (cli_uint(what, eq + 1, 0, names[i].kind == NUM32 || names[i].kind == HEX32 ?
			     UINT32_MAX : UINT64_MAX, 0, &x))
			return CLI_USAGE;
		v->num[i] = x;
	}
	v->set |= 1U << i;
	return 0;
}

static int has(const struct values *v, int i)
{
	return !!(v->set & (1U << i));
}

/* The number @i of @v, or @def when it is not set. */
static uint64_t num(const struct values *v, int i, uint64_t def)
{
	return has(v, i) ? v->num[i] : def;
}

/* Value @i of @v as a "Value=Data" line, as it is written and listed. */
static void put_value(FILE *f, const struct values *v, const struct value_name *names,
		      unsigned int i, const char *indent)
{
	if (names[i].kind == TEXT)
		fprintf(f, "%s%s=%s\n", indent, names[i].name, v->text[names[i].text]);
	else if (names[i].kind == NUM32 || names[i].kind == NUM64)
		fprintf(f, "%s%s=%llu\n", indent, names[i].name, (unsigned long long)v->num[i]);
	else
		fprintf(f, "%s%s=0x%llx\n", indent, names[i].name, (unsigned long long)v->num[i]);
}

/* Read a key's file @path into @v: 0, -errno, or CLI_USAGE (said). */
static int read_values(const char *path, struct values *v, const struct value_name *names,
		       unsigned int n)
{
	char line[PATH_MAX + 64], where[PATH_MAX + 32];
	unsigned int no = 0;
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -errno;
	memset(v, 0, sizeof(*v));
	while (!ret && fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\r\n");

		no++;
		if (!line[len] && !feof(f)) {
			ret = al_fail(0, "%s:%u: line too long", path, no);
			break;
		}
		line[len] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		snprintf(where, sizeof(where), "%s:%u", path, no);
		ret = set_value(v, names, n, line, where);
	}
	fclose(f);
	return ret;
}

/* Write @v to @path whole: a temporary file of mode 0600, renamed. */
static int write_values(const char *path, const struct values *v,
			const struct value_name *names, unsigned int n)
{
	char tmp[PATH_MAX];
	unsigned int i;
	FILE *f;
	int fd, bad;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (!has(v, i))
			continue;
		put_value(f, v, names, i, "");
	}
	bad = ferror(f) | fflush(f) | fsync(fd);
	if (fclose(f) || bad || rename(tmp, path)) {
		int err = errno ? -errno : -EIO;

		unlink(tmp);
		return err;
	}
	return 0;
}

static int key_path(char *out, size_t room, const char *name, const char *file)
{
	int n = file ? snprintf(out, room, "%s/%s/%s", config_dir(), name, file) :
		       snprintf(out, room, "%s/%s", config_dir(), name);

	return n < 0 || (size_t)n >= room ? -ENAMETOOLONG : 0;
}

/* A provider's file name: a GUID in braces, "{xxxxxxxx-xxxx-...}"; else -1. */
static int is_guid_file(const char *name)
{
	unsigned int i;

	if (strlen(name) != 38 || name[0] != '{' || name[37] != '}')
		return -1;
	for (i = 1; i < 37; i++)
		if (i == 9 || i == 14 || i == 19 || i == 24 ? name[i] != '-' :
		    !isxdigit((unsigned char)name[i]))
			return -1;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct provider *)a)->guid, ((const struct provider *)b)->guid);
}

/* Load autologger @name: 0, -errno (-ENOENT: none such), or CLI_USAGE. */
static int load(const char *name, struct autologger *al)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret;

	memset(al, 0, sizeof(*al));
	snprintf(al->name, sizeof(al->name), "%s", name);
	if ((ret = key_path(path, sizeof(path), name, VALUES_FILE)) ||
	    (ret = read_values(path, &al->v, session_values, S_COUNT)))
		return ret;
	key_path(path, sizeof(path), name, NULL);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (is_guid_file(de->d_name))
			continue;
		if (al->n_p == MAX_PROVIDERS) {
			ret = al_fail(0, "%s: more than %d providers", path, MAX_PROVIDERS);
			break;
		}
		/* 38 characters: is_guid_file() said so. */
		memcpy(al->p[al->n_p].guid, de->d_name, 39);
		key_path(path, sizeof(path), name, de->d_name);
		ret = read_values(path, &al->p[al->n_p].v, provider_values, P_COUNT);
		if (ret)
			break;
		al->n_p++;
		key_path(path, sizeof(path), name, NULL);
	}
	closedir(d);
	qsort(al->p, al->n_p, sizeof(al->p[0]), by_name);
	return ret;
}

static int load_said(const char *name, struct autologger *al)
{
	int ret = load(name, al);

	if (ret == -ENOENT)
		return al_fail(0, "no autologger '%s' in %s", name, config_dir());
	if (ret < 0)
		return al_fail(ret, "autologger '%s' in %s", name, config_dir());
	return ret;
}

/* A system logger: the NT Kernel Logger, or a session with SYSTEM_LOGGER_MODE. */
static int system_logger(const struct autologger *al)
{
	return !strcasecmp(al->name, NTTRACE_KERNEL_LOGGER_NAME) ||
	       (num(&al->v, S_LOGFILEMODE, 0) & NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE);
}

int cli_autologger_add(int argc, char **argv, int quiet)
{
	PROVIDER_ENUMERATION_INFO *known = NULL;
	static struct autologger al;
	struct values *v;
	char path[PATH_MAX];
	const char *name = argv[0];
	int kernel = !strcasecmp(name, NTTRACE_KERNEL_LOGGER_NAME);
	unsigned int i, n_new = 0;
	int i_arg, ret, fresh = 0;

	if ((ret = valid_name(name)))
		return ret;
	ret = load(name, &al);
	if (ret == -ENOENT) {
		memset(&al, 0, sizeof(al));
		al.v.set = 1U << S_START;
		al.v.num[S_START] = 1;
		fresh = 1;
	} else if (ret) {
		return ret < 0 ? al_fail(ret, "autologger '%s'", name) : ret;
	}
	snprintf(al.name, sizeof(al.name), "%s", name);
	v = &al.v;
	for (i_arg = 1; i_arg < argc; i_arg++) {
		uint8_t guid[16];
		char text[40];
		int j;

		if (strcmp(argv[i_arg], "-p")) {
			if ((ret = set_value(v, v == &al.v ? session_values : provider_values,
					     v == &al.v ? S_COUNT : P_COUNT, argv[i_arg], name)))
				goto out;
			continue;
		}
		if (++i_arg == argc) {
			ret = al_fail(0, "-p: which provider?");
			goto out;
		}
		if (kernel) {
			ret = al_fail(0, "the NT Kernel Logger enables no providers: give its "
				       "EnableFlags");
			goto out;
		}
		if (cli_provider_guid(&known, argv[i_arg], guid)) {
			ret = al_fail(0, "-p %s: not a GUID, nor a provider a loaded manifest "
				       "names", argv[i_arg]);
			goto out;
		}
		nttrace_guid_string(guid, text + 1);
		text[0] = '{';
		strcpy(text + 37, "}");
		for (j = 0; j < (int)al.n_p && strcasecmp(al.p[j].guid, text); j++)
			;
		if (j == (int)al.n_p) {
			if (al.n_p == MAX_PROVIDERS) {
				ret = al_fail(0, "more than %d providers", MAX_PROVIDERS);
				goto out;
			}
			memset(&al.p[j], 0, sizeof(al.p[j]));
			strcpy(al.p[j].guid, text);
			al.p[j].v.set = 1U << P_ENABLED;
			al.p[j].v.num[P_ENABLED] = 1;
			al.n_p++;
			n_new++;
		}
		v = &al.p[j].v;
	}
	if (!system_logger(&al) && has(&al.v, S_ENABLEFLAGS)) {
		ret = al_fail(0, "EnableFlags: only a system logger takes kernel flags (the NT "
			      "Kernel Logger, or LogFileMode with 0x%x)",
			      NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE);
		goto out;
	}
	if ((num(&al.v, S_LOGFILEMODE, 0) & EVENT_TRACE_BUFFERING_MODE) &&
	    (has(&al.v, S_FILENAME) || has(&al.v, S_FILEMAX) || has(&al.v, S_MAXFILESIZE))) {
		ret = al_fail(0, "FileName, FileMax, MaxFileSize: a buffering session (LogFileMode "
			      "0x%x) writes no file at boot", EVENT_TRACE_BUFFERING_MODE);
		goto out;
	}
	if ((ret = key_path(path, sizeof(path), name, NULL)))
		goto failed;
	if ((ret = cli_make_dirs(config_dir())))
		goto failed;
	if (mkdir(path, 0700) && errno != EEXIST) {
		ret = -errno;
		goto failed;
	}
	for (i = 0; i < al.n_p; i++) {
		key_path(path, sizeof(path), name, al.p[i].guid);
		if ((ret = write_values(path, &al.p[i].v, provider_values, P_COUNT)))
			goto failed;
	}
	key_path(path, sizeof(path), name, VALUES_FILE);
	if ((ret = write_values(path, &al.v, session_values, S_COUNT)))
		goto failed;
	if (!quiet)
		printf("autologger '%s' %s: %u provider%s (%u new); it starts at the next "
		       "boot%s\n", name, fresh ? "added" : "updated", al.n_p,
		       al.n_p == 1 ? "" : "s", n_new,
		       num(&al.v, S_START, 0) == 1 ? "" : " only with Start=1");
	ret = 0;
	goto out;
failed:
	ret = al_fail(ret, "writing autologger '%s' in %s", name, config_dir());
	/* A new autologger is there whole or not at all. */
	if (fresh && !key_path(path, sizeof(path), name, NULL) && !access(path, F_OK))
		cli_autologger_remove(name, 1);
out:
	free(known);
	return ret;
}

/*
 * `remove`: the files the key is made of (its values, its status, its
 * providers', read or not: a file that does not parse goes too), then its
 * directory; a file of another kind is left, and said.
 */
int cli_autologger_remove(const char *name, int quiet)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret;

	if ((ret = valid_name(name)) || (ret = key_path(path, sizeof(path), name, NULL)))
		return ret < 0 ? al_fail(ret, "%s", name) : ret;
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? al_fail(0, "no autologger '%s' in %s", name, config_dir()) :
					 al_fail(-errno, "%s", path);
	while ((de = readdir(d))) {
		char file[PATH_MAX];

		if (strcmp(de->d_name, VALUES_FILE) && strcmp(de->d_name, STATUS_FILE) &&
		    is_guid_file(de->d_name))
			continue;
		if (!key_path(file, sizeof(file), name, de->d_name) && unlink(file)) {
			ret = al_fail(-errno, "%s", file);
			break;
		}
	}
	closedir(d);
	if (ret)
		return ret;
	if (rmdir(path))
		return al_fail(-errno, "%s (files of its own left in it)", path);
	if (!quiet)
		printf("autologger '%s' removed\n", name);
	return 0;
}

/*
 * The last boot's outcome into NAME/status: @err 0 or a -errno, written
 * as the errno (positive); @file "" when none was written. A failure to
 * write it is said.
 */
static void write_status(const char *name, int err, uint32_t id, const char *file,
			 uint64_t counter)
{
	static struct values v;
	char path[PATH_MAX];

	memset(&v, 0, sizeof(v));
	v.set = 1U << T_STATUS | 1U << T_LOGGERID | 1U << T_FILECOUNTER;
	v.num[T_STATUS] = (uint32_t)-err;
	v.num[T_LOGGERID] = id;
	v.num[T_FILECOUNTER] = counter;
	if (*file) {
		snprintf(v.text[status_values[T_FILE].text], sizeof(v.text[0]), "%s", file);
		v.set |= 1U << T_FILE;
	}
	if (key_path(path, sizeof(path), name, STATUS_FILE) ||
	    write_values(path, &v, status_values, T_COUNT))
		al_fail(-EIO, "%s: cannot write its status", name);
}

/* NAME/status into @v: 0, or -errno (-ENOENT: none), or CLI_USAGE (said). */
static int read_status(const char *name, struct values *v)
{
	char path[PATH_MAX];

	if (key_path(path, sizeof(path), name, STATUS_FILE))
		return -ENAMETOOLONG;
	return read_values(path, v, status_values, T_COUNT);
}

int cli_autologger_file(const char *name, char *file, size_t room)
{
	static struct values v;
	int ret = read_status(name, &v);

	if (ret)
		return ret < 0 ? ret : -EINVAL;
	if (!has(&v, T_FILE))
		return -ENOENT;
	if (snprintf(file, room, "%s", v.text[status_values[T_FILE].text]) >= (int)room)
		return -ENAMETOOLONG;
	return 0;
}

/* The last boot's FileCounter (0: none). */
static uint64_t last_counter(const char *name)
{
	static struct values v;

	return read_status(name, &v) ? 0 : num(&v, T_FILECOUNTER, 0);
}

static void print_values(const struct values *v, const struct value_name *names, unsigned int n,
			 const char *indent)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (has(v, i))
			put_value(stdout, v, names, i, indent);
}

static int list_one(const char *name)
{
	static struct autologger al;
	static struct values status;
	unsigned int i;
	int ret;

	if ((ret = load_said(name, &al)))
		return ret;
	printf("%s\n", name);
	print_values(&al.v, session_values, S_COUNT, "  ");
	for (i = 0; i < al.n_p; i++) {
		printf("  %s\n", al.p[i].guid);
		print_values(&al.p[i].v, provider_values, P_COUNT, "    ");
	}
	if (!read_status(name, &status)) {
		printf("  last boot:\n");
		print_values(&status, status_values, T_COUNT, "    ");
	}
	return 0;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int cli_autologger_names(char ***out, unsigned int *n)
{
	DIR *d = opendir(config_dir());
	struct dirent *de;
	char **v = NULL;

	*n = 0;
	*out = NULL;
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		char **nv;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= NTTRACE_NAME_MAX)
			continue;
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv || !(nv[*n] = strdup(de->d_name))) {
			cli_autologger_names_free(nv ? nv : v, *n);
			*n = 0;
			closedir(d);
			return -ENOMEM;
		}
		v = nv;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), by_text);
	*out = v;
	return 0;
}

void cli_autologger_names_free(char **v, unsigned int n)
{
	while (n)
		free(v[--n]);
	free(v);
}

/*
 * This boot's file of @al into @path, and its counter: FileName (or the
 * default in DEFAULT_LOG_DIR, made 0700), and with FileMax the next
 * number after the last boot's, 1 after FileMax.
 */
static int boot_file(const struct autologger *al, char *path, size_t room, uint64_t *counter)
{
	uint64_t max = num(&al->v, S_FILEMAX, 0);
	int n;

	*counter = 0;
	if (has(&al->v, S_FILENAME)) {
		n = snprintf(path, room, "%s", al->v.text[session_values[S_FILENAME].text]);
	} else {
		if (mkdir(DEFAULT_LOG_DIR, 0700) && errno != EEXIST)
			return -errno;
		n = snprintf(path, room, DEFAULT_LOG_DIR "/%s.etl", al->name);
	}
	if (max) {
		*counter = last_counter(al->name) % max + 1;
		n += snprintf(path + n, n < (int)room ? room - n : 0, ".%03llu",
			      (unsigned long long)*counter);
	}
	return n < 0 || (size_t)n >= room ? -ENAMETOOLONG : 0;
}

static int enable_provider(uint32_t id, const struct provider *p)
{
	struct nttrace_enable e = { .size = sizeof(e), .logger_id = id,
				    .control = EVENT_CONTROL_CODE_ENABLE_PROVIDER };
	int fd;

	if (cli_guid(p->guid, p->guid, e.guid))
		return -EINVAL;
	e.level = num(&p->v, P_LEVEL, 0);
	e.match_any_keyword = num(&p->v, P_ANY, 0);
	e.match_all_keyword = num(&p->v, P_ALL, 0);
	e.enable_property = num(&p->v, P_PROPERTY, 0);
	fd = nttrace_device_fd();
	if (fd < 0)
		return fd;
	return ioctl(fd, NTTRACE_IOC_ENABLE, &e) < 0 ? -errno : 0;
}

/* Start autologger @al as the boot does: 0, or -errno (said). */
static int boot_one(const struct autologger *al)
{
	struct nttrace_logger_info info;
	char file[PATH_MAX];
	uint64_t counter = 0;
	unsigned int i;
	pid_t pid;
	int ret;

	if (system_logger(al)) {
		if (cli_kernel_session(al->name, num(&al->v, S_ENABLEFLAGS, 0),
				       num(&al->v, S_LOGFILEMODE, 0), &info)) {
			ret = -EINVAL;
			goto said;
		}
	} else {
		memset(&info, 0, sizeof(info));
		nttrace_set_name(&info, al->name);
		info.log_file_mode = num(&al->v, S_LOGFILEMODE, 0);
	}
	info.buffer_size_kb = num(&al->v, S_BUFFERSIZE, 0);
	/* MinimumBuffers alone is the maximum too. */
	if (has(&al->v, S_MAXBUFFERS) || has(&al->v, S_MINBUFFERS))
		cli_session_buffers(&info, num(&al->v, S_MINBUFFERS, 0),
				    num(&al->v, S_MAXBUFFERS, num(&al->v, S_MINBUFFERS, 0)));
	info.flush_timer = num(&al->v, S_FLUSHTIMER, 0);
	info.clock_type = num(&al->v, S_CLOCKTYPE, 0);
	ret = cli_start_fitted(&info, al->name);
	if (ret == -EEXIST) {
		/* Started already (boot run twice): said; its status is the first run's. */
		printf("%s: already running\n", al->name);
		return 0;
	}
	if (ret) {
		cli_fail(ret, "autologger '%s': starting the session", al->name);
		goto said;
	}
	for (i = 0; i < al->n_p; i++) {
		if (!num(&al->p[i].v, P_ENABLED, 0))
			continue;
		ret = enable_provider(info.logger_id, &al->p[i]);
		if (ret) {
			cli_fail(ret, "autologger '%s': enabling %s", al->name, al->p[i].guid);
			goto stop;
		}
	}
	/* A buffering session keeps its buffers in memory, for a logger later. */
	file[0] = 0;
	ret = 0;
	if (!(info.log_file_mode & EVENT_TRACE_BUFFERING_MODE)) {
		ret = boot_file(al, file, sizeof(file), &counter);
		if (!ret)
			ret = nttrace_start_file_logger(info.logger_id, file,
							num(&al->v, S_MAXFILESIZE, 0), &pid);
	}
	if (ret) {
		al_fail(0, "autologger '%s': %s: %s", al->name, file, cli_create_error(ret));
		goto stop;
	}
	write_status(al->name, 0, info.logger_id, file, counter);
	printf("%s: logger %u, %s%s\n", al->name, info.logger_id, file[0] ? "file " : "in memory",
	       file);
	return 0;
stop:
	info.control_flags = NTTRACE_CONTROL_WAIT_CONSUMER;
	nttrace_control(&info, EVENT_TRACE_CONTROL_STOP);
said:
	write_status(al->name, ret, 0, "", counter);
	return ret ? ret : -EINVAL;
}

/* `boot`: every autologger whose Start is 1; 1 if any did not start. */
static int boot(void)
{
	static struct autologger al;
	unsigned int i, n, failed = 0, started = 0;
	char **v = NULL;
	int ret = cli_autologger_names(&v, &n);

	if (ret)
		return al_fail(ret, "%s", config_dir());
	cli_same_tool();
	for (i = 0; i < n; i++) {
		ret = load(v[i], &al);
		if (ret) {
			if (ret < 0)
				al_fail(ret, "autologger '%s'", v[i]);
			failed++;
			continue;
		}
		if (num(&al.v, S_START, 0) != 1)
			continue;
		if (boot_one(&al))
			failed++;
		else
			started++;
	}
	cli_autologger_names_free(v, n);
	printf("%u autologger%s started, %u failed\n", started, started == 1 ? "" : "s", failed);
	return failed ? 1 : 0;
}

int cmd_autologger(int argc, char **argv)
{
	unsigned int i, n;
	char **v;
	int ret = 0;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "add"))
		return cli_autologger_add(argc - 2, argv + 2, 0);
	if (argc == 3 && !strcmp(argv[1], "remove"))
		return cli_autologger_remove(argv[2], 0);
	if (argc == 3 && !strcmp(argv[1], "list"))
		return valid_name(argv[2]) ? CLI_USAGE : list_one(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "boot"))
		return boot();
	if (argc != 2 || strcmp(argv[1], "list")) {
		usage(stderr);
		return CLI_USAGE;
	}
	ret = cli_autologger_names(&v, &n);
	if (ret)
		return al_fail(ret, "%s", config_dir());
	for (i = 0; i < n; i++)
		ret |= list_one(v[i]);
	if (!n)
		printf("no autologgers in %s\n", config_dir());
	cli_autologger_names_free(v, n);
	return ret ? 1 : 0;
}
