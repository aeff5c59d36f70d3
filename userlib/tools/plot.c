// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace plot: the first picture of a trace. Events per second over the
 * trace's time, one line a provider and one a CPU, and where events were
 * lost, drawn by gnuplot into a PNG; --table prints the numbers drawn
 * instead. The file is read with OpenTrace and ProcessTrace, as dump does.
 *
 * The counts are kept per bucket of whole seconds from the first event,
 * one second at first; past MAX_BUCKETS the buckets double in width (each
 * pair added), so that memory stays bounded whatever the trace's length,
 * and a rate is its bucket's count over the bucket's seconds. At most
 * MAX_PROVIDERS providers and MAX_CPUS CPUs get a line each; the rest
 * are counted in "other", never dropped. A provider is named as the
 * kernel's classes name their group, else as TDH names it (TraceLogging's
 * and manifests' providers), else by GUID. gnuplot gets the table as a
 * data block on its standard input: no file is left behind.
 *
 * Nothing read from the file or given on the command line reaches gnuplot
 * where it would read it as a command: names are data (the data block's
 * header, which gnuplot takes as text: columnheader), the title is in
 * single quotes (where gnuplot expands neither backquotes nor macros), and
 * the picture's path is not gnuplot's: gnuplot writes the PNG to its
 * standard output, which is the file this tool opened (mode 0600, no
 * symbolic link followed: nttrace_trace_file_create()).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/consumer.h>
#include <nttrace/etl.h>
#include <nttrace/tdh.h>
#include <nttrace/tmf.h>
#include "cli.h"

#define MAX_BUCKETS	2048
#define MAX_PROVIDERS	12
#define MAX_CPUS	32
/* The columns of a bucket: providers and their "other", CPUs and theirs, losses. */
#define COL_CPU		(MAX_PROVIDERS + 1)
#define COL_LOST	(COL_CPU + MAX_CPUS + 1)
#define COLS		(COL_LOST + 1)
#define TICKS_PER_SECOND 10000000LL

static struct {
	uint64_t (*n)[COLS];	/* counts, one row a bucket */
	size_t rows;		/* buckets in use */
	unsigned int width;	/* seconds a bucket */
	int64_t t0;		/* the first event's FILETIME */
	int started;
	GUID guid[MAX_PROVIDERS];
	char name[MAX_PROVIDERS][80];
	unsigned int providers, cpus;
	uint64_t events;
	ULONG events_lost, buffers_lost;	/* the file's header says */
} p;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace plot [-o OUT.png] [--table] FILE\n\n"
		"Draw FILE (an ETL file) as a picture: events per second over the trace's\n"
		"time, one line a provider (the first %d met get one each, the rest \"other\"),\n"
		"one line a CPU, and the events lost, in a PNG that gnuplot draws\n"
		"(gnuplot-nox; default OUT: FILE with .png for its extension). Time is in\n"
		"seconds from the first event, in buckets of one second, wider for a long\n"
		"trace (the title says). --table prints the numbers drawn instead: a\n"
		"line a bucket, its start and each line's events per second. As dump, a\n"
		"damaged part of the file is skipped and said, and the exit status is 1.\n",
		MAX_PROVIDERS);
}

/* Each pair of buckets as one, twice as wide. */
static void coarsen(void)
{
	size_t i;
	int c;

	for (i = 0; i < p.rows; i += 2)
		for (c = 0; c < COLS; c++)
			p.n[i / 2][c] = p.n[i][c] + (i + 1 < p.rows ? p.n[i + 1][c] : 0);
	p.rows = (p.rows + 1) / 2;
	memset(p.n[p.rows], 0, (MAX_BUCKETS - p.rows) * sizeof(p.n[0]));
	p.width *= 2;
}

/*
 * A provider's name made a quoted name of the table (--table's, and the
 * data block's header, which gnuplot reads as data, never as a command):
 * a quote, a backslash or a control would end the name or the line.
 */
static void gp_safe(char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\' || *s == '\'' || (unsigned char)*s < 0x20 ||
		    *s == 0x7F)
			*s = '?';
}

/*
 * @s in gnuplot's single quotes, where gnuplot expands nothing (no
 * backquotes, no @macros) and '' stands for one quote; a control is shown
 * as '?', for a line break would end the command.
 */
static void gp_quoted(FILE *gp, const char *s)
{
	fputc('\'', gp);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', gp);
		fputc((unsigned char)*s < 0x20 || *s == 0x7F ? '?' : *s, gp);
	}
	fputc('\'', gp);
}

/* The provider's column: known, new, or "other". */
static int provider_col(const EVENT_RECORD *er)
{
	const GUID *g = &er->EventHeader.ProviderId;
	const struct nttrace_kernel_class *cls;
	PTRACE_EVENT_INFO info;
	ULONG size = 0;
	unsigned int i;

	for (i = 0; i < p.providers; i++)
		if (!memcmp(&p.guid[i], g, sizeof(*g)))
			return (int)i;
	if (p.providers == MAX_PROVIDERS)
		return MAX_PROVIDERS;
	p.guid[i] = *g;
	nttrace_guid_string((const uint8_t *)g, p.name[i]);
	/*
	 * The logger's own (EventTrace), the kernel's group ("Process" of
	 * Process/Start), else TDH's name.
	 */
	cls = nttrace_kernel_class_by_guid(g, er->EventHeader.EventDescriptor.Opcode,
					   er->EventHeader.EventDescriptor.Version);
	if (!memcmp(g, &EventTraceGuid, sizeof(*g))) {
		snprintf(p.name[i], sizeof(p.name[i]), "EventTrace");
	} else if (cls) {
		snprintf(p.name[i], sizeof(p.name[i]), "%.*s",
			 (int)strcspn(cls->event_name, "/"), cls->event_name);
	} else if (TdhGetEventInformation((PEVENT_RECORD)er, 0, NULL, NULL, &size) ==
	    ERROR_INSUFFICIENT_BUFFER && (info = malloc(size))) {
		if (!TdhGetEventInformation((PEVENT_RECORD)er, 0, NULL, info, &size) &&
		    info->ProviderNameOffset) {
			const WCHAR *w = (const WCHAR *)((const char *)info +
							 info->ProviderNameOffset);
			size_t k;

			/* Names are ASCII in practice; others show as '?'. */
			for (k = 0; w[k] && k + 1 < sizeof(p.name[i]); k++)
				p.name[i][k] = w[k] < 0x80 ? (char)w[k] : '?';
			p.name[i][k] = 0;
		}
		free(info);
	}
	gp_safe(p.name[i]);
	p.providers++;
	return (int)i;
}

static void WINAPI on_event(PEVENT_RECORD er)
{
	const struct nttrace_etl_event *ev = nttrace_current_record();
	int64_t t = er->EventHeader.TimeStamp.QuadPart;
	unsigned int cpu = er->BufferContext.ProcessorNumber;
	uint64_t b;

	if (render_is_header_event(er))
		return;
	/* ProcessTrace gives time order: the first event is the earliest. */
	if (!p.started) {
		p.t0 = t;
		p.started = 1;
	}
	b = (uint64_t)((t > p.t0 ? t - p.t0 : 0) / TICKS_PER_SECOND) / p.width;
	while (b >= MAX_BUCKETS) {
		coarsen();
		b /= 2;
	}
	if (b >= p.rows)
		p.rows = b + 1;
	p.n[b][provider_col(er)]++;
	if (cpu >= p.cpus && cpu < MAX_CPUS)
		p.cpus = cpu + 1;
	p.n[b][COL_CPU + (cpu < MAX_CPUS ? cpu : MAX_CPUS)]++;
	if (ev && ev->lost)
		p.n[b][COL_LOST]++;
	p.events++;
}

/* The columns printed: providers, "other" if used, CPUs, theirs, losses. */
static int col_used(int c)
{
	size_t i;

	if (c < (int)p.providers || (c >= COL_CPU && c < COL_CPU + (int)p.cpus) ||
	    c == COL_LOST)
		return 1;
	if (c != MAX_PROVIDERS && c != COL_CPU + MAX_CPUS)
		return 0;
	for (i = 0; i < p.rows; i++)
		if (p.n[i][c])
			return 1;
	return 0;
}

static void col_name(FILE *f, int c)
{
	if (c < MAX_PROVIDERS)
		fprintf(f, "\"%s\"", p.name[c]);
	else if (c == MAX_PROVIDERS)
		fprintf(f, "\"other providers\"");
	else if (c < COL_CPU + MAX_CPUS)
		fprintf(f, "\"CPU %d\"", c - COL_CPU);
	else if (c == COL_CPU + MAX_CPUS)
		fprintf(f, "\"other CPUs\"");
	else
		fprintf(f, "\"lost (marks)\"");
}

/*
 * The table: a header of quoted names, then a row a bucket, rates per
 * second. @closing adds a row at the last bucket's end, its values again,
 * so that gnuplot's steps draw the last bucket as wide as the others.
 */
static void write_table(FILE *f, int closing)
{
	size_t i;
	int c;

	fprintf(f, "\"second\"");
	for (c = 0; c < COLS; c++)
		if (col_used(c)) {
			fputc('\t', f);
			col_name(f, c);
		}
	fputc('\n', f);
	for (i = 0; i < p.rows + (closing && p.rows); i++) {
		size_t row = i < p.rows ? i : p.rows - 1;

		fprintf(f, "%zu", i * p.width);
		for (c = 0; c < COLS; c++)
			if (col_used(c))
				fprintf(f, "\t%g", (double)p.n[row][c] / p.width);
		fputc('\n', f);
	}
}

/* The table's column (gnuplot's, from 1) of column @c. */
static int gp_col(int c)
{
	int k, n = 2;

	for (k = 0; k < c; k++)
		n += col_used(k);
	return n;
}

/*
 * The y range of a panel of columns [@from, @to): from 0, and to 1 when
 * they are all 0 (gnuplot would say it cannot draw an empty range).
 */
static const char *y_range(int from, int to)
{
	size_t i;
	int c;

	for (i = 0; i < p.rows; i++)
		for (c = from; c < to; c++)
			if (p.n[i][c])
				return "set yrange [0:*]\n";
	return "set yrange [0:1]\n";
}

/* A panel: the used columns of [@from, @to) drawn with @style, from 0. */
static void panel(FILE *gp, int from, int to, const char *ylabel, const char *style)
{
	int c, first = 1;

	fprintf(gp, "%sset ylabel '%s'\n", y_range(from, to), ylabel);
	for (c = from; c < to; c++) {
		if (!col_used(c))
			continue;
		fprintf(gp, "%s$d using 1:%d with %s title columnhead", first ? "plot " : ", ",
			gp_col(c), style);
		first = 0;
	}
	fputs(first ? "plot 0 notitle\n" : "\n", gp);
}

/*
 * gnuplot, its standard input a pipe (*@in, to write its commands to) and
 * its standard output @out_fd; its process ID, or -1 with errno set.
 */
static pid_t gnuplot(int out_fd, FILE **in)
{
	static char *const argv[] = { "gnuplot", NULL };
	posix_spawn_file_actions_t fa;
	int fds[2], err;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	err = posix_spawn_file_actions_init(&fa);
	if (!err) {
		/* dup2 leaves the copies open across exec. */
		err = posix_spawn_file_actions_adddup2(&fa, fds[0], STDIN_FILENO);
		if (!err)
			err = posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
		if (!err)
			err = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	close(fds[0]);
	if (!err) {
		*in = fdopen(fds[1], "w");
		if (*in)
			return pid;
		err = errno;
		close(fds[1]);
		waitpid(pid, NULL, 0);
		errno = err;
		return -1;
	}
	close(fds[1]);
	errno = err;
	return -1;
}

/* The table as gnuplot's data block $d, then the three panels from it. */
static int draw(const char *out, const char *file)
{
	int fd = nttrace_trace_file_create(out), status = -1, written;
	void (*was)(int);
	char *title = NULL;
	FILE *gp = NULL;
	pid_t pid;

	if (fd < 0) {
		fprintf(stderr, "nttrace plot: %s: %s\n", out, cli_create_error(fd));
		return 1;
	}
	pid = gnuplot(fd, &gp);
	close(fd);
	if (pid < 0) {
		fprintf(stderr, "nttrace plot: gnuplot: %s%s\n", strerror(errno),
			errno == ENOENT ? " (not installed? Debian: apt install gnuplot-nox)" : "");
		unlink(out);
		return 1;
	}
	if (asprintf(&title, "%s: %" PRIu64 " events, buckets of %u s; the header counts "
		     "%lu events and %lu buffers lost", file, p.events, p.width,
		     (unsigned long)p.events_lost, (unsigned long)p.buffers_lost) < 0)
		title = NULL;
	/* A gnuplot that ends early: its status says why, not SIGPIPE. */
	was = signal(SIGPIPE, SIG_IGN);
	fprintf(gp, "$d << EOD\n");
	write_table(gp, 1);
	fprintf(gp, "EOD\nset terminal pngcairo size 1400,900 font ',10'\n"
		    "set datafile separator '\\t'\n"
		    "set key outside right top Left reverse noenhanced\nset grid\n"
		    "set offsets 0, 0, graph 0.08, 0\n"
		    "set lmargin at screen 0.06\nset rmargin at screen 0.70\n"
		    "set multiplot layout 3,1 title ");
	gp_quoted(gp, title ? title : file);
	fputs(" noenhanced\n", gp);
	panel(gp, 0, COL_CPU, "events/s by provider", "steps");
	panel(gp, COL_CPU, COL_LOST, "events/s by CPU", "steps");
	fputs("set xlabel 'seconds from the first event'\n", gp);
	panel(gp, COL_LOST, COLS, "losses/s", "impulses lw 2");
	fputs("unset multiplot\n", gp);
	written = !ferror(gp);
	written = !fclose(gp) && written;
	signal(SIGPIPE, was);
	free(title);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!written || status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "nttrace plot: gnuplot failed\n");
		unlink(out);
		return 1;
	}
	return 0;
}

/* @file with .png for its extension (or added). */
static char *default_out(const char *file)
{
	const char *dot = strrchr(file, '.'), *slash = strrchr(file, '/');
	size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - file) : strlen(file);
	char *out = malloc(n + 5);

	if (out)
		snprintf(out, n + 5, "%.*s.png", (int)n, file);
	return out;
}

static int plot_file(const char *file, const char *out, int table)
{
	EVENT_TRACE_LOGFILEA lf;
	struct nttrace_trace_counts counts;
	TRACEHANDLE h;
	ULONG err;
	int rc;

	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)file;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_event;
	h = OpenTraceA(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE)
		return render_fail(GetLastError(), file, "OpenTrace");
	p.events_lost = lf.LogfileHeader.EventsLost;
	p.buffers_lost = lf.LogfileHeader.BuffersLost;
	err = nttrace_trace_problems(h, render_problem, NULL);
	if (!err)
		err = ProcessTrace(&h, 1, NULL, NULL);
	memset(&counts, 0, sizeof(counts));
	nttrace_trace_counts(h, &counts);
	CloseTrace(h);
	if (err && err != ERROR_CANCELLED)
		return render_fail(err, file, "ProcessTrace");
	rc = counts.not_delivered || counts.buffers_skipped ? 1 : 0;
	if (rc)
		fprintf(stderr, "nttrace plot: %s: %" PRIu64 " records and %" PRIu64
			" buffers not read (nttrace dump says where)\n", file,
			counts.not_delivered, counts.buffers_skipped);
	if (table) {
		write_table(stdout, 0);
		return rc;
	}
	if (draw(out, file))
		rc = 1;
	else
		printf("%s: %" PRIu64 " events drawn\n", out, p.events);
	return rc;
}

int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "table", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char *out = NULL, *def = NULL;
	int opt, table = 0, rc;

	while ((opt = getopt_long(argc, argv, "o:th", opts, NULL)) != -1) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 't': table = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return CLI_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (render_not_a_directory(argv[optind]))
		return 1;
	if (!out && !table)
		out = def = default_out(argv[optind]);
	p.n = calloc(MAX_BUCKETS, sizeof(p.n[0]));
	p.width = 1;
	if (!p.n || (!out && !table)) {
		fprintf(stderr, "nttrace plot: out of memory\n");
		free(def);
		return 1;
	}
	rc = plot_file(argv[optind], out, table);
	free(p.n);
	free(def);
	return rc;
}
