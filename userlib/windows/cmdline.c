// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's command line (processenv.h's GetCommandLine,
 * shellapi.h's CommandLineToArgvW). Linux passes a program its arguments
 * apart; Windows passes one string the program splits. GetCommandLineW
 * rebuilds that string from /proc/self/cmdline, quoting each argument so
 * that CommandLineToArgvW gives it back as it was; CommandLineToArgvW
 * splits by Microsoft's documented rules ("Parsing C command-line
 * arguments"): white space separates, "..." groups, 2n backslashes and a
 * quote are n backslashes and a grouping quote, 2n+1 backslashes and a
 * quote are n backslashes and a literal quote, "" inside quotes is a
 * literal quote, other backslashes are themselves; the program's name,
 * the first argument, ends at its closing quote or white space, without
 * escapes.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../nt/nt_internal.h"
#include "crt.h"
#include "win.h"

static WCHAR *command_line_w;
static char *command_line_a;
static pthread_once_t command_line_once = PTHREAD_ONCE_INIT;

/* /proc/self/cmdline: NUL-separated arguments; malloc'd, its size in @n. */
static char *read_cmdline(size_t *n)
{
	size_t size = 4096, got = 0;
	char *buf = malloc(size), *grown;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t r;

	while (buf && fd >= 0 && (r = read(fd, buf + got, size - got)) > 0) {
		got += (size_t)r;
		if (got == size) {
			grown = realloc(buf, size * 2);
			if (!grown) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = grown;
			size *= 2;
		}
	}
	if (fd >= 0)
		close(fd);
	*n = got;
	return buf;
}

static void put_a(char *out, size_t *n, char c)
{
	if (out)
		out[*n] = c;
	(*n)++;
}

/* @arg quoted for CommandLineToArgvW at @out (NULL: counts); its bytes. */
static size_t quote_arg(char *out, const char *arg)
{
	size_t n = 0, slashes = 0;
	const char *c;

	if (*arg && !strpbrk(arg, " \t\"")) {
		if (out)
			memcpy(out, arg, strlen(arg));
		return strlen(arg);
	}
	put_a(out, &n, '"');
	for (c = arg; ; c++) {
		if (*c == '\\') {
			slashes++;
			continue;
		}
		/* Backslashes before a quote, or before the closing one, double. */
		if (*c == '"' || !*c)
			slashes *= 2;
		for (; slashes; slashes--)
			put_a(out, &n, '\\');
		if (!*c)
			break;
		if (*c == '"')
			put_a(out, &n, '\\');
		put_a(out, &n, *c);
	}
	put_a(out, &n, '"');
	return n;
}

static void build_command_line(void)
{
	size_t n, at, len = 0, units;
	char *args = read_cmdline(&n), *line;

	if (!args)
		return;
	for (at = 0; at < n; at += strlen(args + at) + 1)
		len += quote_arg(NULL, args + at) + 1;
	line = malloc(len + 1);
	if (!line) {
		free(args);
		return;
	}
	len = 0;
	for (at = 0; at < n; at += strlen(args + at) + 1) {
		if (len)
			line[len++] = ' ';
		/* The program's name is taken without escapes: only quoted. */
		if (!at && strpbrk(args, " \t")) {
			line[len++] = '"';
			memcpy(line + len, args, strlen(args));
			len += strlen(args);
			line[len++] = '"';
		} else {
			len += quote_arg(line + len, args + at);
		}
	}
	line[len] = 0;
	free(args);
	units = nttrace_win_utf8_to_16(NULL, SIZE_MAX, line, len + 1);
	command_line_w = malloc(units * sizeof(WCHAR));
	if (command_line_w)
		nttrace_win_utf8_to_16(command_line_w, units, line, len + 1);
	command_line_a = line;
}

WCHAR *nttrace_win_GetCommandLineW(void)
{
	static WCHAR empty[1];

	pthread_once(&command_line_once, build_command_line);
	return command_line_w ? command_line_w : empty;
}

char *nttrace_win_GetCommandLineA(void)
{
	static char empty[1];

	pthread_once(&command_line_once, build_command_line);
	return command_line_a ? command_line_a : empty;
}

static int blank(WCHAR c)
{
	return c == ' ' || c == '\t';
}

static void put_w(WCHAR *out, size_t *n, WCHAR c)
{
	if (out)
		out[*n] = c;
	(*n)++;
}

/* The program's name at *@at into @out (NULL: counts): no escapes. */
static size_t program_name(const WCHAR **at, WCHAR *out)
{
	const WCHAR *c = *at;
	WCHAR end = *c == '"' ? '"' : 0;
	size_t n = 0;

	if (end)
		c++;
	for (; *c && (end ? *c != end : !blank(*c)); c++)
		put_w(out, &n, *c);
	if (end && *c)
		c++;
	*at = c;
	return n;
}

/* Any other argument at *@at into @out (NULL: counts), by the rules above. */
static size_t argument(const WCHAR **at, WCHAR *out)
{
	const WCHAR *c = *at;
	size_t n = 0, slashes;
	int quoted = 0;

	while (*c && (quoted || !blank(*c))) {
		for (slashes = 0; *c == '\\'; c++)
			slashes++;
		if (*c != '"') {
			for (; slashes; slashes--)
				put_w(out, &n, '\\');
			if (*c && (quoted || !blank(*c)))
				put_w(out, &n, *c++);
			continue;
		}
		for (; slashes >= 2; slashes -= 2)
			put_w(out, &n, '\\');
		if (slashes) {
			put_w(out, &n, '"');
		} else if (quoted && c[1] == '"') {
			put_w(out, &n, '"');
			c++;
		} else {
			quoted = !quoted;
		}
		c++;
	}
	*at = c;
	return n;
}

/*
 * One argument at *@at into @out (NULL: counts), @at moved past it and
 * the white space after; its units.
 */
static size_t next_arg(const WCHAR **at, WCHAR *out, int first)
{
	size_t n = first ? program_name(at, out) : argument(at, out);

	while (blank(**at))
		(*at)++;
	return n;
}

WCHAR **nttrace_win_CommandLineToArgvW(const WCHAR *line, int *count)
{
	const WCHAR *at;
	size_t units = 0, args = 0, n;
	WCHAR **argv, *text;
	int i;

	if (!count) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	/* An empty line: the program's name alone, as Windows gives it. */
	if (!line || !*line)
		line = nttrace_win_GetCommandLineW();
	for (at = line; *at; args++)
		units += next_arg(&at, NULL, args == 0) + 1;
	argv = nttrace_win_LocalAlloc(0, (args + 1) * sizeof(*argv) + units * sizeof(WCHAR));
	if (!argv)
		return NULL;
	text = (WCHAR *)(argv + args + 1);
	for (at = line, i = 0; *at; i++) {
		argv[i] = text;
		n = next_arg(&at, text, i == 0);
		text[n] = 0;
		text += n + 1;
	}
	argv[args] = NULL;
	*count = (int)args;
	return argv;
}
