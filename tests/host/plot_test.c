// SPDX-License-Identifier: GPL-2.0
/*
 * `nttrace plot` over a file it can be checked against, with no module:
 * the user-mode logger writes events of two providers in two bursts more
 * than a second apart; the table plot draws (--table) must count each
 * provider's events, every CPU's and no loss;
 * then the picture: gnuplot succeeds and writes a PNG. Nothing depends
 * on the host's speed: only the first event's bucket and the second
 * burst's are known. TAP.
 *
 *   plot_test NTTRACE DIR
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include "../vm/props.h"
#include "../vm/tap.h"

#define FIRST_A		30
#define SECOND_A	5
#define SECOND_B	20
#define MAX_COLS	64

/* {6e747472-0031-4c54-8000-00000000000a}, ...0b: the two providers. */
static const GUID guid_a = { 0x6e747472, 0x0031, 0x4c54, { 0x80, 0, 0, 0, 0, 0, 0, 0x0a } };
static const GUID guid_b = { 0x6e747472, 0x0031, 0x4c54, { 0x80, 0, 0, 0, 0, 0, 0, 0x0b } };

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

int main(int argc, char **argv)
{
	char path[200];

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
	}
	return tap_done();
}
