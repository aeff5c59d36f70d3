// SPDX-License-Identifier: GPL-2.0
/*
 * What the nttrace tool's subcommands share: help detection, errors in
 * words, the parsing of numbers, GUIDs and of a session argument (cli.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
