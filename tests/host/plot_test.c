// SPDX-License-Identifier: GPL-2.0
/*
 * `nttrace plot` over a file it can be checked against, with no module:
 * the user-mode logger writes events of two providers in two bursts more
 * than a second apart; the table plot draws (--table) must count each
 * provider's events, every CPU's and no loss;
 * then the picture: gnuplot succeeds and writes a PNG. Nothing depends
 * on the host's speed: only the first event's bucket and the second
 * burst's are known. Then what must not reach gnuplot as a command: file
 * names and output paths with quotes, backquotes, $(...), system(...),
 * line breaks and ';', and a TraceLogging provider of such a name; none
 * may run a command (gnuplot would create a marker file). And the
 * picture's file: mode 0600 whatever the umask, a symbolic link at its
 * path refused and its target left as it was. TAP.
 *
 *   plot_test NTTRACE DIR
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/traceloggingprovider.h>
#include "../vm/props.h"
#include "../vm/tap.h"

#define FIRST_A		30
#define SECOND_A	5
#define SECOND_B	20
#define MAX_COLS	64
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* {6e747472-0031-4c54-8000-00000000000a}, ...0b: the two providers. */
static const GUID guid_a = { 0x6e747472, 0x0031, 0x4c54, { 0x80, 0, 0, 0, 0, 0, 0, 0x0a } };
static const GUID guid_b = { 0x6e747472, 0x0031, 0x4c54, { 0x80, 0, 0, 0, 0, 0, 0, 0x0b } };

/*
 * {6e747472-0031-4c54-8000-00000000000c}: a provider whose name and event
 * names would be commands, were they read as gnuplot's.
 */
TRACELOGGING_DEFINE_PROVIDER(evil_provider,
			     "p`touch PWNED`$(touch PWNED)\"; system(\"touch PWNED\"); '\n"
			     "system('touch PWNED');@x",
			     (0x6e747472, 0x0031, 0x4c54, 0x80, 0, 0, 0, 0, 0, 0, 0x0c));
static const GUID guid_evil = { 0x6e747472, 0x0031, 0x4c54,
				{ 0x80, 0, 0, 0, 0, 0, 0, 0x0c } };

/* Where gnuplot would run a command the test smuggles in: in DIR, the cwd. */
#define PWNED	"PWNED"

static void burst(REGHANDLE h, unsigned int n)
{
	EVENT_DESCRIPTOR d = { .Id = 1, .Level = 4 };
	unsigned int i;

	for (i = 0; i < n; i++)
		EventWrite(h, &d, 0, NULL);
}

static int write_file(const char *path)
{
	REGHANDLE a = 0, b = 0;
	TRACEHANDLE h = 0;
	struct props pr;

	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (!tap_eq(StartTraceA(&h, "plot-test", &pr.p), ERROR_SUCCESS, "user-mode logger"))
		return 0;
	tap_eq(EventRegister(&guid_a, NULL, NULL, &a), ERROR_SUCCESS, "provider A");
	tap_eq(EventRegister(&guid_b, NULL, NULL, &b), ERROR_SUCCESS, "provider B");
	EnableTraceEx2(h, &guid_a, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL);
	EnableTraceEx2(h, &guid_b, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL);
	burst(a, FIRST_A);
	/* The second burst at least a second later: another bucket. */
	usleep(1200 * 1000);
	burst(a, SECOND_A);
	burst(b, SECOND_B);
	tap_eq(ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS, "stop");
	EventUnregister(a);
	EventUnregister(b);
	return 1;
}

/* Split @line at tabs into @col; the count. */
static int split(char *line, char **col)
{
	int n = 0;

	line[strcspn(line, "\n")] = 0;
	for (col[n++] = line; n < MAX_COLS && (line = strchr(line, '\t')); col[n++] = ++line)
		*line = 0;
	return n;
}

static void check_table(const char *tool, const char *path)
{
	char cmd[512], head[4096], line[4096], *name[MAX_COLS], *val[MAX_COLS];
	double sum[MAX_COLS] = { 0 }, a_first = 0, b_first = 0;
	int cols, c, rows = 0, col_a = -1, col_b = -1, col_lost = -1;
	double cpus = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s plot --table %s", tool, path);
	f = popen(cmd, "r");
	if (!tap_ok(f && fgets(head, sizeof(head), f), "plot --table: a header"))
		return;
	cols = split(head, name);
	for (c = 1; c < cols; c++) {
		if (strstr(name[c], "6e747472-0031-4c54-8000-00000000000a"))
			col_a = c;
		else if (strstr(name[c], "6e747472-0031-4c54-8000-00000000000b"))
			col_b = c;
		else if (strstr(name[c], "lost"))
			col_lost = c;
	}
	tap_ok(col_a > 0 && col_b > 0 && col_lost > 0, "... a column per provider, and losses");
	while (fgets(line, sizeof(line), f)) {
		if (split(line, val) != cols)
			break;
		for (c = 1; c < cols; c++)
			sum[c] += strtod(val[c], NULL);
		if (!rows && col_a > 0 && col_b > 0) {
			a_first = strtod(val[col_a], NULL);
			b_first = strtod(val[col_b], NULL);
		}
		rows++;
	}
	tap_eq(pclose(f), 0, "plot --table: exit 0");
	for (c = 1; c < cols; c++)
		if (!strncmp(name[c], "\"CPU ", 5))
			cpus += sum[c];
	tap_ok(rows >= 2, "at least two buckets (%d)", rows);
	/* Whatever the host's speed: the first event opens bucket 0, and
	 * the second burst starts more than a second after it. */
	tap_ok(a_first >= 1, "provider A's first event in the first bucket");
	tap_eq((unsigned int)b_first, 0, "provider B's, all a second later, in later buckets");
	tap_eq(col_a > 0 ? (unsigned int)sum[col_a] : 0, FIRST_A + SECOND_A, "provider A's events");
	tap_eq(col_b > 0 ? (unsigned int)sum[col_b] : 0, SECOND_B, "provider B's events");
	tap_eq((unsigned int)cpus, FIRST_A + SECOND_A + SECOND_B,
	       "the CPUs count every event (the file's header is not drawn)");
	tap_eq(col_lost > 0 ? (unsigned int)sum[col_lost] : 1, 0, "no loss");
}

static void check_png(const char *tool, const char *dir, const char *path)
{
	char cmd[1024], png[512];
	unsigned char magic[8];
	long size = 0;
	FILE *f;

	snprintf(png, sizeof(png), "%s/plot_test.png", dir);
	unlink(png);
	snprintf(cmd, sizeof(cmd), "%s plot -o %s %s > /dev/null", tool, png, path);
	tap_eq(system(cmd), 0, "plot -o: exit 0 (gnuplot ran)");
	f = fopen(png, "rb");
	tap_ok(f && fread(magic, 1, 8, f) == 8 && !memcmp(magic, "\x89PNG\r\n\x1a\n", 8),
	       "... a PNG");
	if (f && !fseek(f, 0, SEEK_END))
		size = ftell(f);
	tap_ok(size > 10000, "... of a picture's size (%ld bytes)", size);
	if (f)
		fclose(f);
	snprintf(cmd, sizeof(cmd), "%s plot -o %s /nonexistent.etl 2> /dev/null", tool, png);
	tap_ok(system(cmd) != 0, "a missing file: an error");
}

/*
 * A file whose name would end gnuplot's strings and add commands: drawn
 * under that name, and no command run.
 */
static void check_quoting(const char *tool, const char *dir, const char *path)
{
	static const char evil[] = "x\"; system(\"touch PWNED\"); print \"y'; "
				   "system('touch PWNED'); print '";
	/* gnuplot would run them in its directory, this one. */
	const char *pwned = "PWNED";
	char cmd[2048], copy[1024];

	snprintf(copy, sizeof(copy), "%s/%s.etl", dir, evil);
	unlink(pwned);
	snprintf(cmd, sizeof(cmd), "cp %s '%s/x\"; system(\"touch PWNED\"); print \"y'\\''; "
		 "system('\\''touch PWNED'\\''); print '\\''.etl' && %s plot '%s/x\"'* > /dev/null",
		 path, dir, tool, dir);
	tap_eq(system(cmd), 0, "a file named with quotes and commands: drawn");
	tap_ok(access(pwned, F_OK) != 0, "... and no command of its name run");
	unlink(copy);
	copy[strlen(copy) - 3] = 0;
	strcat(copy, "png");
	tap_ok(access(copy, F_OK) == 0, "... its picture under its own name");
	unlink(copy);
	unlink(pwned);
}

/* The evil provider's events in @path. */
static int write_evil(const char *path)
{
	TRACEHANDLE h = 0;
	struct props pr;

	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (!tap_eq(StartTraceA(&h, "plot-test-names", &pr.p), ERROR_SUCCESS,
		    "user-mode logger (hostile names)"))
		return 0;
	tap_eq(TraceLoggingRegister(evil_provider), 0, "... a provider of a hostile name");
	EnableTraceEx2(h, &guid_evil, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL);
	TraceLoggingWrite(evil_provider, "e`touch PWNED`;system(\"touch PWNED\")\n",
			  TraceLoggingInt32(1, "f`touch PWNED`"));
	TraceLoggingWrite(evil_provider, "e2$(touch PWNED)'; system('touch PWNED')");
	tap_eq(ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS,
	       "... stop");
	TraceLoggingUnregister(evil_provider);
	return 1;
}

/* The tool run with @argv (no shell between), its output dropped; its exit status. */
static int run(char *const *argv)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* @src copied to @dst: 0 on success. */
static int copy(const char *src, const char *dst)
{
	char buf[65536];
	int in = open(src, O_RDONLY), out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n = 0;

	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			n = -1;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return in < 0 || out < 0 || n < 0;
}

/*
 * Files named as commands, drawn with their own names and with -o so
 * named, and a file whose provider is so named: drawn, no command run.
 */
static void check_names(const char *tool, const char *path, const char *evil_path)
{
	static const char *const names[] = {
		"b`touch PWNED`.etl",
		"d$(touch PWNED).etl",
		"s\"; system(\"touch PWNED\"); print \".etl",
		"q'; system('touch PWNED'); print '.etl",
		"n\nsystem('touch PWNED')\nprint 'x.etl",
		"c; `touch PWNED`; @x.etl",
	};
	char out[256], png[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *argv[] = { (char *)tool, "plot", (char *)names[i], NULL };
		char *argv_o[] = { (char *)tool, "plot", "-o", out, (char *)path, NULL };
		size_t n = strlen(names[i]) - 4;

		unlink(PWNED);
		if (!tap_eq(copy(path, names[i]), 0, "a file named as commands (%u)", i))
			continue;
		snprintf(png, sizeof(png), "%.*s.png", (int)n, names[i]);
		unlink(png);
		tap_eq(run(argv), 0, "... drawn");
		tap_ok(access(PWNED, F_OK) != 0, "... and no command of its name run");
		tap_ok(access(png, F_OK) == 0, "... its picture under its own name");
		unlink(png);
		unlink(names[i]);
		/* The same as an output path. */
		snprintf(out, sizeof(out), "%.*s.png", (int)n, names[i]);
		tap_eq(run(argv_o), 0, "an output path of commands (%u): drawn", i);
		tap_ok(access(PWNED, F_OK) != 0, "... and no command of its name run");
		tap_ok(access(out, F_OK) == 0, "... the picture at that path");
		unlink(out);
	}
	if (evil_path) {
		char *argv[] = { (char *)tool, "plot", "-o", "evil.png", (char *)evil_path, NULL };
		char cmd[512], head[4096] = "";
		FILE *f;

		unlink(PWNED);
		tap_eq(run(argv), 0, "a provider named as commands: drawn");
		tap_ok(access(PWNED, F_OK) != 0, "... and no command of its name run");
		unlink("evil.png");
		snprintf(cmd, sizeof(cmd), "%s plot --table %s", tool, evil_path);
		f = popen(cmd, "r");
		tap_ok(f && fgets(head, sizeof(head), f) && strstr(head, "p`touch PWNED`$(touch") &&
		       !strchr(strchr(head, '\n') ? strchr(head, '\n') + 1 : head, '\n'),
		       "... named in the table, on one line");
		if (f)
			pclose(f);
	}
	unlink(PWNED);
}

/* The picture's mode with umask 0; a symbolic link at -o's path refused. */
static void check_mode(const char *tool, const char *path)
{
	char *argv[] = { (char *)tool, "plot", "-o", "mode.png", (char *)path, NULL };
	char *argv_l[] = { (char *)tool, "plot", "-o", "link.png", (char *)path, NULL };
	mode_t old = umask(0);
	struct stat st;
	char buf[16] = "";
	int fd;

	unlink("mode.png");
	tap_eq(run(argv), 0, "plot with umask 0: drawn");
	tap_ok(!stat("mode.png", &st) && (st.st_mode & 0777) == 0600,
	       "... the picture is 0600 (%o)", (unsigned int)(st.st_mode & 0777));
	/* An existing picture, readable by all: made 0600 too. */
	chmod("mode.png", 0644);
	tap_eq(run(argv), 0, "... drawn again over a 0644 picture");
	tap_ok(!stat("mode.png", &st) && (st.st_mode & 0777) == 0600,
	       "... which is 0600 now (%o)", (unsigned int)(st.st_mode & 0777));
	unlink("mode.png");
	umask(old);
	unlink("link.png");
	unlink("target");
	fd = open("target", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	tap_ok(fd >= 0 && write(fd, "keep", 4) == 4, "a file to point at");
	if (fd >= 0)
		close(fd);
	tap_eq(symlink("target", "link.png"), 0, "... a symbolic link to it at -o's path");
	tap_ok(run(argv_l) == 1, "plot -o a symbolic link: refused");
	fd = open("target", O_RDONLY);
	tap_ok(fd >= 0 && read(fd, buf, sizeof(buf)) == 4 && !memcmp(buf, "keep", 4),
	       "... the link's target untouched");
	if (fd >= 0)
		close(fd);
	unlink("link.png");
	unlink("target");
}

int main(int argc, char **argv)
{
	char path[200], evil[200];

	if (argc != 3) {
		fprintf(stderr, "usage: plot_test NTTRACE DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/plot_test.etl", argv[2]);
	unlink(path);
	if (write_file(path)) {
		check_table(argv[1], path);
		check_png(argv[1], argv[2], path);
		check_quoting(argv[1], argv[2], path);
		char *tool = realpath(argv[1], NULL), *file = realpath(path, NULL);

		snprintf(evil, sizeof(evil), "%s/plot_names.etl", argv[2]);
		unlink(evil);
		if (!tool || !file || !write_evil(evil) || chdir(argv[2])) {
			tap_ok(0, "the tool, the file and DIR for the names' checks");
		} else {
			check_names(tool, file, "plot_names.etl");
			check_mode(tool, file);
		}
		free(tool);
		free(file);
	}
	return tap_done();
}
