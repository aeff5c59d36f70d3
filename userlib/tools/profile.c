// SPDX-License-Identifier: LGPL-2.1
/*
 * `nttrace profile FILE`: where the CPU samples of a kernel trace
 * (PerfInfo SampledProfile, EVENT_TRACE_FLAG_PROFILE) fell, by function:
 * the hottest functions by their own samples (self) and by the samples
 * whose stacks pass through them (total), or, with --folded, one line per
 * distinct stack, "process;outermost;...;innermost COUNT", the folded
 * text that flamegraph.pl, inferno and speedscope read.
 *
 * A sample is its thread's instruction pointer; the StackWalk event right
 * after it on its CPU, with the same time stamp and thread, is its stack
 * (TraceStackTracingInfo, `nttrace record --stacks profile`). Addresses
 * become functions through the images the trace names for the sample's
 * process (Image/Load and the image rundown: path, base, size), read with
 * elfutils' libdwfl (its symbol tables, and DWARF where there is some),
 * where the tool is built with it; else, and for an address of no image,
 * "image+0xOFFSET" or the address. Kernel addresses are "[kernel]".
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/etl.h>

#include "cli.h"

#if defined(__x86_64__) && !defined(NTTRACE_NO_LIBDW)
#define HAVE_LIBDW 1
#include <elfutils/libdwfl.h>
#endif

/* x86-64's kernel half: no image of a process lies there. */
#define KERNEL_START	0xffff800000000000ULL
#define MAX_FRAMES	192
#define NAME_MAX_LEN	512

struct image {
	uint32_t pid;
	uint64_t base, size;
	char *path;
};

struct proc {
	uint32_t pid;
	char name[64];
#ifdef HAVE_LIBDW
	Dwfl *dwfl;		/* its images, reported when first needed */
	int dwfl_tried;
#endif
};

struct sample {
	uint32_t tid, pid;
	uint64_t ts;
	uint32_t nr;		/* frames, innermost first; frames[0] the IP */
	int stack;		/* a StackWalk event gave them */
	uint64_t *frames;
};

/* A function's counts, by its name (a small open-addressing table). */
struct func {
	char *name;
	uint64_t self, total;
	uint64_t seen;		/* the sample that last counted it in total */
};

static struct {
	struct image *images;
	size_t nr_images, cap_images;
	struct proc *procs;
	size_t nr_procs, cap_procs;
	uint32_t *thread_pid;		/* indexed by TID, grown as needed */
	size_t cap_threads;
	struct sample *samples;
	size_t nr_samples, cap_samples;
	size_t last_sample[256];	/* per CPU: index + 1 of its last sample */
	struct func *funcs;
	size_t cap_funcs, nr_funcs;
} P;

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return p;
	while (n < need)
		n *= 2;
	q = realloc(p, n * size);
	if (!q) {
		fprintf(stderr, "nttrace: profile: out of memory\n");
		exit(1);
	}
	memset((char *)q + *cap * size, 0, (n - *cap) * size);
	*cap = n;
	return q;
}

static struct proc *proc_of(uint32_t pid, int add)
{
	size_t i;

	for (i = 0; i < P.nr_procs; i++)
		if (P.procs[i].pid == pid)
			return &P.procs[i];
	if (!add)
		return NULL;
	P.procs = grow(P.procs, &P.cap_procs, P.nr_procs + 1, sizeof(*P.procs));
	P.procs[P.nr_procs].pid = pid;
	return &P.procs[P.nr_procs++];
}

/* The field @name of a kernel event's payload: 1 with *@v, else 0. */
static int field(const struct nttrace_kernel_class *cls, const uint8_t *data, uint32_t len,
		 unsigned int psize, const char *name, struct nttrace_kernel_value *v)
{
	struct nttrace_kernel_decoder d;

	nttrace_kernel_decode_init(&d, cls, data, len, psize);
	while (nttrace_kernel_decode_next(&d, v))
		if (!strcmp(v->field->name, name))
			return 1;
	return 0;
}

/* An 8-bit or UTF-16 string field as ASCII ('?' beyond), into @out. */
static void text_of(const struct nttrace_kernel_value *v, char *out, size_t room)
{
	size_t i, n = 0;
	int wide = v->field->type == NTTRACE_KT_WSTRING;

	for (i = 0; v->text && i + wide < v->text_size && n + 1 < room; i += 1 + wide) {
		unsigned int c = v->text[i] | (wide ? v->text[i + 1] << 8 : 0);

		out[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	out[n] = 0;
}

static void on_kernel(const struct nttrace_etl_event *ev, uint16_t hook, unsigned int hsize,
		      unsigned int psize, uint8_t version)
{
	const uint8_t *d = ev->rec + hsize;
	uint32_t len = ev->size - hsize;
	const struct nttrace_kernel_class *cls = nttrace_kernel_class(hook, version);
	struct nttrace_kernel_value v;
	struct sample *s;
	uint32_t pid, tid, i;

	switch (hook) {
	case 0x0F2E:	/* SampledProfile */
		if (len < psize + 4)
			return;
		P.samples = grow(P.samples, &P.cap_samples, P.nr_samples + 1, sizeof(*P.samples));
		s = &P.samples[P.nr_samples++];
		s->frames = malloc(sizeof(*s->frames));
		if (!s->frames)
			exit(1);
		s->frames[0] = psize == 8 ? *(const uint64_t *)d : *(const uint32_t *)d;
		memcpy(&s->tid, d + psize, 4);
		s->nr = 1;
		s->ts = ev->timestamp;
		s->pid = s->tid < P.cap_threads ? P.thread_pid[s->tid] : 0;
		P.last_sample[ev->cpu & 255] = P.nr_samples;
		break;
	case 0x1820:	/* StackWalk: the stack of the sample before it on its CPU */
		i = P.last_sample[ev->cpu & 255];
		if (!i || len < 16 + psize)
			return;
		s = &P.samples[i - 1];
		memcpy(&tid, d + 12, 4);
		if (tid != s->tid || memcmp(&s->ts, d, 8) || s->stack)
			return;
		s->stack = 1;
		free(s->frames);
		s->nr = (len - 16) / psize;
		if (s->nr > MAX_FRAMES)
			s->nr = MAX_FRAMES;
		s->frames = malloc(s->nr * sizeof(*s->frames));
		if (!s->frames)
			exit(1);
		for (i = 0; i < s->nr; i++)
			s->frames[i] = psize == 8 ? ((const uint64_t *)(d + 16))[i] :
						    ((const uint32_t *)(d + 16))[i];
		memcpy(&s->pid, d + 8, 4);
		P.last_sample[ev->cpu & 255] = 0;
		break;
	case 0x0301: case 0x0303:	/* Process/Start, DCStart */
		if (cls && field(cls, d, len, psize, "ProcessId", &v)) {
			struct proc *p = proc_of((uint32_t)v.u, 1);

			if (field(cls, d, len, psize, "ImageFileName", &v))
				text_of(&v, p->name, sizeof(p->name));
		}
		break;
	case 0x0501: case 0x0503:	/* Thread/Start, DCStart */
		if (cls && field(cls, d, len, psize, "ProcessId", &v)) {
			pid = (uint32_t)v.u;
			if (field(cls, d, len, psize, "TThreadId", &v) && v.u < (1U << 22)) {
				P.thread_pid = grow(P.thread_pid, &P.cap_threads, v.u + 1,
						    sizeof(*P.thread_pid));
				P.thread_pid[v.u] = pid;
			}
		}
		break;
	case 0x140A: case 0x1403:	/* Image/Load, DCStart */
		if (cls && field(cls, d, len, psize, "ProcessId", &v)) {
			struct image im = { .pid = (uint32_t)v.u };
			char path[1024];

			if (!field(cls, d, len, psize, "ImageBase", &v))
				break;
			im.base = v.u;
			if (!field(cls, d, len, psize, "ImageSize", &v))
				break;
			im.size = v.u;
			if (!field(cls, d, len, psize, "FileName", &v))
				break;
			text_of(&v, path, sizeof(path));
			im.path = strdup(path);
			P.images = grow(P.images, &P.cap_images, P.nr_images + 1, sizeof(*P.images));
			P.images[P.nr_images++] = im;
		}
		break;
	}
}

static const struct image *image_at(uint32_t pid, uint64_t a)
{
	size_t i;

	for (i = 0; i < P.nr_images; i++)
		if (P.images[i].pid == pid && a - P.images[i].base < P.images[i].size)
			return &P.images[i];
	return NULL;
}

#ifdef HAVE_LIBDW
static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* The function at @a in process @p's images, by libdwfl; NULL if none. */
static const char *dwfl_name(struct proc *p, uint64_t a)
{
	Dwfl_Module *m;
	size_t i;

	if (!p->dwfl_tried) {
		p->dwfl_tried = 1;
		p->dwfl = dwfl_begin(&dwfl_callbacks);
		if (!p->dwfl)
			return NULL;
		dwfl_report_begin(p->dwfl);
		/* The file's mapping at ImageBase: where its offset 0 is. */
		for (i = 0; i < P.nr_images; i++)
			if (P.images[i].pid == p->pid)
				dwfl_report_elf(p->dwfl, P.images[i].path, P.images[i].path, -1,
						P.images[i].base, false);
		dwfl_report_end(p->dwfl, NULL, NULL);
	}
	if (!p->dwfl)
		return NULL;
	m = dwfl_addrmodule(p->dwfl, a);
	return m ? dwfl_module_addrname(m, a) : NULL;
}
#endif

/* The name of the function at @a in process @pid, into @out. */
static void name_of(uint32_t pid, uint64_t a, char *out, size_t room)
{
	const struct image *im;
	const char *base, *fn = NULL;
	struct proc *p;

	if (a >= KERNEL_START) {
		snprintf(out, room, "[kernel]");
		return;
	}
	if (!a) {
		snprintf(out, room, "[unknown]");
		return;
	}
	im = image_at(pid, a);
	if (!im) {
		snprintf(out, room, "0x%" PRIx64, a);
		return;
	}
	base = strrchr(im->path, '/');
	base = base ? base + 1 : im->path;
	p = proc_of(pid, 1);
#ifdef HAVE_LIBDW
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

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace profile [--folded] [--top N] [--pid PID] [--tid TID]\n"
		"                       [--process NAME] FILE\n\n"
		"Where the CPU samples of FILE (a kernel trace with --kernel profile) fell,\n"
		"by function: the N (default 20) hottest by their own samples (self), with\n"
		"the samples whose stacks pass through them (total; stacks come with\n"
		"`nttrace record --stacks profile`). --folded prints one line per stack,\n"
		"\"process;outermost;...;innermost COUNT\", for flamegraph.pl, inferno and\n"
		"speedscope. --pid, --tid and --process (its ImageFileName, as `nttrace\n"
		"dump` shows it) keep one process's or thread's samples.\n"
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
		{ "top", required_argument, NULL, 'n' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "process", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	uint64_t top = 20, want_pid = 0, want_tid = 0, n = 0, stacks = 0;
	int folded = 0, has_pid = 0, has_tid = 0, opt, ret;
	const char *want_name = NULL;
	struct func **list;
	size_t i, j, k;
	char name[NAME_MAX_LEN], *line = NULL;
	size_t line_len = 0;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'f': folded = 1; break;
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
	if (optind != argc - 1) {
		usage(stderr);
		return CLI_USAGE;
	}
	ret = nttrace_etl_open(&r, argv[optind], NULL, NULL);
	if (ret) {
		fprintf(stderr, "nttrace: %s: %s\n", argv[optind],
			ret == -EINVAL ? "not an ETL file" : strerror(-ret));
		return 1;
	}
	while (nttrace_etl_next(r, &ev)) {
		const uint8_t *p = ev.rec;
		unsigned int hsize, psize;

		/* The kernel's own records: SYSTEM32/64, PERFINFO32/64 headers. */
		if (ev.size < 0x10 || p[3] != 0xC0)
			continue;
		switch (p[2]) {
		case 1: hsize = 0x20; psize = 4; break;
		case 2: hsize = 0x20; psize = 8; break;
		case 0x10: hsize = 0x10; psize = 4; break;
		case 0x11: hsize = 0x10; psize = 8; break;
		default: continue;
		}
		if (ev.size < hsize)
			continue;
		on_kernel(&ev, (uint16_t)(p[6] | p[7] << 8), hsize, psize, p[0]);
	}
	nttrace_etl_close(r);

	for (i = 0; i < P.nr_samples; i++) {
		struct sample *s = &P.samples[i];
		struct proc *pr;

		if ((has_pid && s->pid != want_pid) || (has_tid && s->tid != want_tid))
			continue;
		pr = proc_of(s->pid, 0);
		if (want_name && (!pr || strcmp(pr->name, want_name)))
			continue;
		n++;
		stacks += s->stack;
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

			name_of(s->pid, s->frames[j], name, sizeof(name));
			f = func_of(name);
			if (f->seen != i + 1) {
				f->seen = i + 1;
				f->total++;
			}
		}
	}
	free(line);
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
		printf("#  self%%  total%%  function\n");
		for (i = 0; i < j && i < top; i++)
			printf("%6.1f%% %6.1f%%  %s\n", n ? 100.0 * list[i]->self / n : 0.0,
			       n ? 100.0 * list[i]->total / n : 0.0, list[i]->name);
	}
	free(list);
	return 0;
}
