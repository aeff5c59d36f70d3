// SPDX-License-Identifier: LGPL-2.1
/*
 * `nttrace profile FILE`: where the CPU samples of a kernel trace
 * (PerfInfo SampledProfile, EVENT_TRACE_FLAG_PROFILE) fell, by function:
 * the hottest functions by their own samples (self) and by the samples
 * whose stacks pass through them (total), or, with --folded, one line per
 * distinct stack, "process;outermost;...;innermost COUNT", the folded
 * text that flamegraph.pl, inferno and speedscope read; or, with --svg, a
 * flame graph picture of those stacks; or, with --tree, the call tree of
 * each process and thread (flame.c); or, with --lines, the hottest source
 * lines ("file:line (function)", from the image's DWARF line table, else
 * "function+0xOFFSET (image)"). --from and --to keep the samples of a
 * time range, in seconds from the trace's start.
 *
 * A sample is its thread's instruction pointer, and its stack where the
 * trace has one (samples.c says how they are read). Addresses
 * become functions through the images the trace names for the sample's
 * process (Image/Load and the image rundown: path, base, size), read with
 * elfutils' libdwfl (its symbol tables, and DWARF where there is some),
 * where the tool is built with it; else, and for an address of no image,
 * "image+0xOFFSET" or the address. Kernel addresses are their
 * functions by this machine's /proc/kallsyms when the trace is of this
 * boot and the user may see kernel addresses (kallsyms.c), else
 * "[kernel]" (and the report says why).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/etl.h>

#include "cli.h"
#include "flame.h"
#include "kallsyms.h"
#include "samples.h"

#if defined(__x86_64__) && !defined(NTTRACE_NO_LIBDW)
#define HAVE_LIBDW 1
#include <elfutils/libdwfl.h>
#endif

#define NAME_MAX_LEN	512

/* A function's counts, by its name (a small open-addressing table). */
struct func {
	char *name;
	uint64_t self, total;
	uint64_t seen;		/* the sample that last counted it in total */
};

static struct prof_trace T;

static struct {
	struct func *funcs;
	size_t cap_funcs, nr_funcs;
	int ksyms_tried, ksyms;		/* kernel symbols looked for, found */
	int lines;			/* --lines: by source line, not function */
	const char *ksyms_why;		/* why not */
} P;

#ifdef HAVE_LIBDW
static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* The image of process @p holding @a, as libdwfl reported it; NULL if none. */
static Dwfl_Module *dwfl_module_of(struct prof_proc *p, uint64_t a)
{
	const struct prof_image *im;
	Dwfl *dwfl;
	size_t i, n;

	if (!p->dwfl_tried) {
		p->dwfl_tried = 1;
		dwfl = dwfl_begin(&dwfl_callbacks);
		p->dwfl = dwfl;
		if (!dwfl)
			return NULL;
		dwfl_report_begin(dwfl);
		/* The file's mapping at ImageBase: where its offset 0 is. */
		im = prof_images_of(&T, p->pid, &n);
		for (i = 0; i < n; i++)
			dwfl_report_elf(dwfl, im[i].path, im[i].path, -1, im[i].base, false);
		dwfl_report_end(dwfl, NULL, NULL);
	}
	return p->dwfl ? dwfl_addrmodule(p->dwfl, a) : NULL;
}

/* The function at @a in process @p's images, by libdwfl; NULL if none. */
static const char *dwfl_name(struct prof_proc *p, uint64_t a)
{
	Dwfl_Module *m = dwfl_module_of(p, a);

	return m ? dwfl_module_addrname(m, a) : NULL;
}

/*
 * The source line of @a, "file:line (function)", from the image's DWARF
 * line table; else "function+0xOFFSET (image)" from its symbols. 0 when
 * libdwfl knows neither.
 */
static int dwfl_line(struct prof_proc *p, uint64_t a, const char *image, char *out,
		     size_t room)
{
	Dwfl_Module *m = dwfl_module_of(p, a);
	const char *fn, *file = NULL;
	Dwfl_Line *line;
	GElf_Off off = 0;
	GElf_Sym sym;
	int lineno = 0;

	if (!m)
		return 0;
	fn = dwfl_module_addrinfo(m, a, &off, &sym, NULL, NULL, NULL);
	line = dwfl_module_getsrc(m, a);
	if (line)
		file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	if (file && lineno > 0)
		snprintf(out, room, "%s:%d (%s)", file, lineno, fn ? fn : image);
	else if (fn)
		snprintf(out, room, "%s+0x%" PRIx64 " (%s)", fn, (uint64_t)off, image);
	else
		return 0;
	return 1;
}
#endif

/*
 * The name of the function at @a in process @pid, into @out; with
 * --lines (P.lines) the source line there, where the image says it.
 */
static void name_of(uint32_t pid, uint64_t a, char *out, size_t room)
{
	const struct prof_image *im;
	const char *base, *fn = NULL;
	struct prof_proc *p;

	if (a >= PROF_KERNEL_START) {
		if (!P.ksyms_tried) {
			P.ksyms_tried = 1;
			P.ksyms = ksyms_load(T.info.boot_time, &P.ksyms_why);
		}
		if (!P.ksyms || !ksyms_name(a, out, room))
			snprintf(out, room, "[kernel]");
		return;
	}
	if (!a) {
		snprintf(out, room, "[unknown]");
		return;
	}
	im = prof_image_at(&T, pid, a);
	if (!im) {
		snprintf(out, room, "0x%" PRIx64, a);
		return;
	}
	base = strrchr(im->path, '/');
	base = base ? base + 1 : im->path;
	p = prof_proc_of(&T, pid, 1);
#ifdef HAVE_LIBDW
	if (P.lines && dwfl_line(p, a, base, out, room))
		return;
	fn = dwfl_name(p, a);
#else
	(void)p;
#endif
	if (fn)
		snprintf(out, room, "%s (%s)", fn, base);
	else
		snprintf(out, room, "%s+0x%" PRIx64, base, a - im->base);
}

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* @name's slot in the table: its entry, or the empty slot it would take. */
static struct func *func_slot(const char *name)
{
	size_t i;

	for (i = hash(name) & (P.cap_funcs - 1); P.funcs[i].name; i = (i + 1) & (P.cap_funcs - 1))
		if (!strcmp(P.funcs[i].name, name))
			break;
	return &P.funcs[i];
}

static struct func *func_of(const char *name)
{
	struct func *f;

	if (2 * (P.nr_funcs + 1) > P.cap_funcs) {
		struct func *old = P.funcs;
		size_t oldcap = P.cap_funcs, j;

		P.cap_funcs = oldcap ? 2 * oldcap : 1024;
		P.funcs = calloc(P.cap_funcs, sizeof(*P.funcs));
		if (!P.funcs)
			exit(1);
		/* The entries move, their names with them. */
		for (j = 0; j < oldcap; j++)
			if (old[j].name)
				*func_slot(old[j].name) = old[j];
		free(old);
	}
	f = func_slot(name);
	if (!f->name) {
		f->name = strdup(name);
		if (!f->name)
			exit(1);
		P.nr_funcs++;
	}
	return f;
}

static int by_self(const void *a, const void *b)
{
	const struct func *x = *(const struct func *const *)a, *y = *(const struct func *const *)b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return x->total < y->total ? 1 : x->total > y->total ? -1 : strcmp(x->name, y->name);
}

/* The flame graph into file @path: 0, or 1 having said why not. */
static int profile_svg(struct flame *flame, const char *path, const char *etl, uint64_t n)
{
	char title[600];
	int fd = nttrace_trace_file_create(path), bad;
	FILE *out;

	if (fd < 0) {
		fprintf(stderr, "nttrace: %s: %s\n", path, strerror(-fd));
		flame_free(flame);
		return 1;
	}
	out = fdopen(fd, "w");
	if (!out) {
		close(fd);
		flame_free(flame);
		return 1;
	}
	snprintf(title, sizeof(title), "%s: %" PRIu64 " samples", etl, n);
	bad = flame_svg(flame, out, title);
	bad |= fclose(out);
	flame_free(flame);
	if (bad) {
		fprintf(stderr, "nttrace: %s: %s\n", path, strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace profile [--folded | --svg OUT | --tree | --lines] [--top N]\n"
		"                       [--pid PID] [--tid TID] [--process NAME] [--from S]\n"
		"                       [--to S] FILE\n\n"
		"Where the CPU samples of FILE (a kernel trace with --kernel profile) fell,\n"
		"by function: the N (default 20) hottest by their own samples (self), with\n"
		"the samples whose stacks pass through them (total; stacks come with\n"
		"`nttrace record --stacks profile`). --folded prints one line per stack,\n"
		"\"process;outermost;...;innermost COUNT\", for flamegraph.pl, inferno and\n"
		"speedscope; --svg draws them as a flame graph into the file OUT (an SVG\n"
		"picture, made 0600; a browser shows it). --tree prints the call tree of\n"
		"each process and thread, callers above callees, the hottest first, down\n"
		"to the functions of 1%% of the samples. --lines ranks source lines instead\n"
		"of functions, \"file:line (function)\" from the image's DWARF, else\n"
		"\"function+0xOFFSET (image)\". --pid, --tid and --process (its\n"
		"ImageFileName, as `nttrace dump` shows it) keep one process's or thread's\n"
		"samples; --from and --to those of a time range, in seconds (fractions\n"
		"allowed) from the trace's start.\n"
		"Functions are named from the images the trace recorded%s.\n",
#ifdef HAVE_LIBDW
		" (elfutils' libdwfl)"
#else
		" (this build has no\nlibdwfl: image+offset)"
#endif
		);
}

int cmd_profile(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "folded", no_argument, NULL, 'f' },
		{ "svg", required_argument, NULL, 's' },
		{ "tree", no_argument, NULL, 'T' },
		{ "lines", no_argument, NULL, 'L' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'U' },
		{ "top", required_argument, NULL, 'n' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "process", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint64_t top = 20, want_pid = 0, want_tid = 0, n = 0, stacks = 0;
	int folded = 0, tree = 0, has_pid = 0, has_tid = 0, opt;
	double from = -1e300, to = 1e300;
	const char *want_name = NULL, *svg = NULL;
	static char frame_names[PROF_MAX_FRAMES + 2][NAME_MAX_LEN];
	const char *stack_names[PROF_MAX_FRAMES + 2];
	struct flame *flame = NULL;
	struct func **list;
	size_t i, j, k;
	char name[NAME_MAX_LEN], *line = NULL;
	size_t line_len = 0;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'f': folded = 1; break;
		case 's': svg = optarg; break;
		case 'T': tree = 1; break;
		case 'L': P.lines = 1; break;
		case 'F':
		case 'U':
			if (cli_seconds(opt == 'F' ? "--from" : "--to", optarg, 1e9,
					opt == 'F' ? &from : &to))
				return CLI_USAGE;
			break;
		case 'n':
			if (cli_uint("--top", optarg, 1, 1000000, 0, &top))
				return CLI_USAGE;
			break;
		case 'p':
			if (cli_uint("--pid", optarg, 0, UINT32_MAX, 0, &want_pid))
				return CLI_USAGE;
			has_pid = 1;
			break;
		case 't':
			if (cli_uint("--tid", optarg, 0, UINT32_MAX, 0, &want_tid))
				return CLI_USAGE;
			has_tid = 1;
			break;
		case 'P': want_name = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return CLI_USAGE;
		}
	}
	if (optind != argc - 1 || folded + tree + !!svg + P.lines > 1) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (prof_load(&T, argv[optind]))
		return 1;
	if (svg || tree) {
		flame = flame_new();
		if (!flame) {
			fprintf(stderr, "nttrace: profile: out of memory\n");
			return 1;
		}
	}

	for (i = 0; i < T.nr_samples; i++) {
		struct prof_sample *s = &T.samples[i];
		struct prof_proc *pr;

		if ((has_pid && s->pid != want_pid) || (has_tid && s->tid != want_tid))
			continue;
		if (from > -1e300 || to < 1e300) {
			double rel = 0;

			nttrace_etl_filetime(&T.info, s->ts, &rel);
			if (rel < from || rel > to)
				continue;
		}
		pr = prof_proc_of(&T, s->pid, 0);
		if (want_name && (!pr || strcmp(pr->name, want_name)))
			continue;
		n++;
		stacks += s->stack;
		if (flame) {
			/* The process (the tree: and thread), then the frames, outermost first. */
			uint32_t m = 0;

			snprintf(frame_names[m], NAME_MAX_LEN, "%s", pr && pr->name[0] ?
				 pr->name : s->tid ? "?" : "[idle]");
			if (tree)
				snprintf(frame_names[m] + strlen(frame_names[m]),
					 NAME_MAX_LEN - strlen(frame_names[m]), " (process %u)", s->pid);
			stack_names[m] = frame_names[m];
			m++;
			if (tree) {
				snprintf(frame_names[m], NAME_MAX_LEN, "thread %u", s->tid);
				stack_names[m] = frame_names[m];
				m++;
			}
			for (j = s->nr; j-- > 0 && m <= PROF_MAX_FRAMES + 1; m++) {
				name_of(s->pid, s->frames[j], frame_names[m], NAME_MAX_LEN);
				stack_names[m] = frame_names[m];
			}
			if (flame_add(flame, stack_names, m, 1)) {
				fprintf(stderr, "nttrace: profile: out of memory\n");
				return 1;
			}
			continue;
		}
		if (folded) {
			/* process;outermost;...;innermost */
			size_t len;

			len = (size_t)snprintf(name, sizeof(name), "%s", pr && pr->name[0] ?
					       pr->name : s->tid ? "?" : "[idle]");
			free(line);
			line = strdup(name);
			line_len = len;
			for (j = s->nr; j-- > 0;) {
				char *grown;

				name_of(s->pid, s->frames[j], name, sizeof(name));
				grown = realloc(line, line_len + strlen(name) + 2);
				if (!grown)
					exit(1);
				line = grown;
				line_len += (size_t)sprintf(line + line_len, ";%s", name);
			}
			/* Folded lines take no ' ' in names: flamegraph.pl splits there. */
			for (k = 0; k < line_len; k++)
				if (line[k] == ' ')
					line[k] = '_';
			func_of(line)->self++;
			continue;
		}
		name_of(s->pid, s->frames[0], name, sizeof(name));
		func_of(name)->self++;
		for (j = 0; j < s->nr; j++) {
			struct func *f;

			/* A caller's frame is a return address: its call is the byte before. */
			name_of(s->pid, s->frames[j] - (j && P.lines), name, sizeof(name));
			f = func_of(name);
			if (f->seen != i + 1) {
				f->seen = i + 1;
				f->total++;
			}
		}
	}
	free(line);
	if (flame && tree) {
		printf("# %" PRIu64 " samples, %" PRIu64 " with stacks\n", n, stacks);
		opt = flame_text(flame, stdout, 0.01);
		flame_free(flame);
		return opt ? 1 : 0;
	}
	if (flame)
		return profile_svg(flame, svg, argv[optind], n);
	list = malloc((P.nr_funcs + 1) * sizeof(*list));
	if (!list)
		return 1;
	for (i = 0, j = 0; i < P.cap_funcs; i++)
		if (P.funcs[i].name)
			list[j++] = &P.funcs[i];
	qsort(list, j, sizeof(*list), by_self);
	if (folded) {
		for (i = 0; i < j; i++)
			printf("%s %" PRIu64 "\n", list[i]->name, list[i]->self);
	} else {
		printf("# %" PRIu64 " samples, %" PRIu64 " with stacks\n", n, stacks);
		if (P.ksyms_tried && !P.ksyms)
			printf("# kernel functions shown as [kernel]: %s\n", P.ksyms_why);
		printf("#  self%%  total%%  %s\n", P.lines ? "line" : "function");
		for (i = 0; i < j && i < top; i++)
			printf("%6.1f%% %6.1f%%  %s\n", n ? 100.0 * list[i]->self / n : 0.0,
			       n ? 100.0 * list[i]->total / n : 0.0, list[i]->name);
	}
	free(list);
	return 0;
}
