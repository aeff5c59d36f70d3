// SPDX-License-Identifier: GPL-2.0
/*
 * `nttrace mc`: Microsoft's message compiler (mc.exe) for an
 * instrumentation manifest, with its options:
 *
 *   nttrace mc [-um|-km] [-h DIR] [-r DIR] [-z NAME] [-b] [-W FILE] [-v] FILE.man
 *
 * It writes NAME.h in -h's directory (mc_header.c) and NAME.rc,
 * NAMETEMP.BIN and NAME_MSG00001.bin in -r's (mc_rc.c, mc_wevt.c,
 * mc_msg.c); NAME is -z's, else the manifest file's name without its
 * extension. Each output is made whole in memory, then written to a
 * temporary file in its directory (created exclusively, never through a
 * link at that name, then made 0644: they are sources of a build), and
 * the temporary files are renamed into place only once all of them are
 * written: a failure leaves no output, and none half written.
 *
 * -um (user mode: the header calls libnttrace) is the default; -km makes
 * the header of a Linux kernel module, over nttrace's kernel-mode API
 * (and refuses a Float or Double template argument: kernel code has no
 * floating point). -b (the message table named after the
 * base name) is what this tool always does: accepted. -W names mc.exe's
 * winmeta.xml: the file must exist, and is not read (TDH has winmeta.xml's
 * levels, opcodes, tasks, keywords, channels and types built in). Every
 * other option of mc.exe (-cs, -css, -s, -t, -m, -n, -c, -d, -e, -x,
 * -p, -P, -cp, -mof, -generateProjections, -a, -A, -o, -u, -U, -w, -co) is
 * refused, named: none is taken and ignored.
 *
 * A manifest that does not parse, that defines one symbol twice (events,
 * channels, levels, opcodes, tasks, keywords, providers), two templates
 * of one tid, two events of one Id and Version, or a template whose count
 * or length names no field before it, is refused with mc.exe's form of
 * message, "FILE(LINE): error : TEXT", and exit status 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "mc.h"

enum { OUT_H, OUT_RC, OUT_TEMP, OUT_MSG, N_OUT };

struct sym {
	const char *name;
	uint32_t line;
};

static int verbose;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace mc [-um|-km] [-h DIR] [-r DIR] [-z NAME] [-b] [-W FILE] [-v] FILE.man\n"
		"  the header (DIR/NAME.h), resource script (NAME.rc) and resources\n"
		"  (NAMETEMP.BIN, NAME_MSG00001.bin) Microsoft's mc.exe makes of a manifest\n"
		"  -um       user-mode header, over libnttrace (the default)\n"
		"  -km       kernel-mode header, over <nttrace/wdm.h>, for a kernel module\n"
		"  -h DIR    where the header goes (default .)\n"
		"  -r DIR    where the .rc and .bin files go (default .)\n"
		"  -z NAME   the outputs' base name (default the manifest's, without extension)\n"
		"  -b        the message table named NAME_MSG00001.bin (always so here)\n"
		"  -W FILE   mc.exe's winmeta.xml: must exist; not read (it is built in)\n"
		"  -v        say what is written\n");
}

static void say_error(const char *file, uint32_t line, const char *fmt, const char *a,
		  const char *b)
{
	if (line)
		fprintf(stderr, "%s(%u): error : ", file, line);
	else
		fprintf(stderr, "%s: error : ", file);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int add_list(struct sym *v, size_t *n, const struct nttrace_man_list *l)
{
	uint32_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].symbol)
			v[(*n)++] = (struct sym){ l->v[i].symbol, l->v[i].line };
	return 0;
}

/* The errors of @m a header cannot be made with, said; their number. */
static int check(const struct nttrace_man *m, int kernel, const char *file)
{
	const struct nttrace_man_data *bad;
	size_t n = 0, cap = 0, i;
	struct sym *v;
	const char *why;
	uint32_t p, k, j;
	int errs = 0;

	for (p = 0; p < m->nprovs; p++) {
		const struct nttrace_man_provider *pv = &m->provs[p];

		cap += 1 + pv->channels.n + pv->levels.n + pv->opcodes.n + pv->tasks.n +
		       pv->keywords.n + pv->nevents;
	}
	v = calloc(cap + 1, sizeof(*v));
	if (!v) {
		fprintf(stderr, "nttrace: mc: out of memory\n");
		return 1;
	}
	for (p = 0; p < m->nprovs; p++) {
		const struct nttrace_man_provider *pv = &m->provs[p];

		if (pv->symbol)
			v[n++] = (struct sym){ pv->symbol, pv->line };
		add_list(v, &n, &pv->channels);
		add_list(v, &n, &pv->levels);
		add_list(v, &n, &pv->opcodes);
		add_list(v, &n, &pv->tasks);
		add_list(v, &n, &pv->keywords);
		for (k = 0; k < pv->nevents; k++)
			if (pv->events[k].symbol)
				v[n++] = (struct sym){ pv->events[k].symbol, pv->events[k].line };
		for (k = 0; k < pv->ntmpls; k++)
			for (j = 0; j < k; j++)
				if (!strcmp(pv->tmpls[k].tid, pv->tmpls[j].tid)) {
					say_error(file, pv->tmpls[k].line,
					      "the template id %s is defined twice%s", pv->tmpls[k].tid,
					      "");
					errs++;
					break;
				}
		for (k = 0; k < pv->nevents; k++) {
			const struct nttrace_man_event *e = &pv->events[k];
			char idv[48];

			for (j = 0; j < k; j++)
				if (pv->events[j].id == e->id && pv->events[j].version == e->version)
					break;
			if (j < k) {
				snprintf(idv, sizeof(idv), "%u version %u", e->id, e->version);
				say_error(file, e->line, "two events have the value %s%s", idv, "");
				errs++;
			}
			if (e->symbol && mc_header_check_template(e->tmpl, kernel, &why, &bad)) {
				say_error(file, bad ? bad->line : e->tmpl->line,
				      "template %s: the generated code cannot write %s", e->tmpl->tid,
				      why);
				errs++;
			}
		}
	}
	qsort(v, n, sizeof(*v), sym_cmp);
	for (i = 1; i < n; i++)
		if (!strcmp(v[i].name, v[i - 1].name)) {
			char first[32];

			snprintf(first, sizeof(first), "%u", v[i - 1].line);
			say_error(file, v[i].line, "the symbol %s is defined twice (first on line %s)",
			      v[i].name, first);
			errs++;
		}
	free(v);
	return errs;
}

/* @o into a new temporary file beside @path: its name in @tmp, 0 or -1. */
static int write_temp(const char *path, const struct mc_out *o, char *tmp, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t off = 0;
	int fd;

	int n;

	if (slash)
		n = snprintf(tmp, size, "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
	else
		n = snprintf(tmp, size, ".%s.XXXXXX", path);
	if (n < 0 || (size_t)n >= size) {
		fprintf(stderr, "nttrace: mc: %s: path too long\n", path);
		tmp[0] = 0;
		return -1;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "nttrace: mc: %s: %s\n", tmp, strerror(errno));
		tmp[0] = 0;
		return -1;
	}
	while (off < o->len) {
		ssize_t w = write(fd, o->data + off, o->len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fprintf(stderr, "nttrace: mc: %s: %s\n", tmp, strerror(w ? errno : ENOSPC));
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	if (fchmod(fd, 0644) || fsync(fd) || close(fd)) {
		fprintf(stderr, "nttrace: mc: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	return 0;
}

static int path_of(char *buf, size_t size, const char *dir, const char *name, const char *suffix)
{
	return (size_t)snprintf(buf, size, "%s/%s%s", dir, name, suffix) >= size ? -1 : 0;
}

/* The base name of @file without its extension, newly allocated. */
static char *base_name(const char *file)
{
	const char *b = strrchr(file, '/');
	char *s, *dot;

	s = strdup(b ? b + 1 : file);
	dot = s ? strrchr(s, '.') : NULL;
	if (dot && dot != s)
		*dot = 0;
	return s;
}

static const char *const refused[] = {
	"-cs", "-css", "-s", "-t", "-m", "-n", "-c", "-d", "-e", "-x", "-p", "-P",
	"-cp", "-mof", "-generateProjections", "-a", "-A", "-o", "-u", "-U", "-w", "-co",
};

int cmd_mc(int argc, char **argv)
{
	const char *hdir = ".", *rdir = ".", *input = NULL, *what;
	static const char *const suffix[N_OUT] = { ".h", ".rc", "TEMP.BIN", "_MSG00001.bin" };
	char path[N_OUT][PATH_MAX], tmp[N_OUT][PATH_MAX];
	struct mc_out out[N_OUT] = { 0 };
	struct mc_opts opts = { 0 };
	struct mc_msgs msgs = { 0 };
	struct nttrace_man *m = NULL;
	struct nttrace_man_diag diag;
	char *name = NULL;
	int i, k, rc = 1;
	void *xml = NULL;
	size_t len;
	ULONG err;

	memset(tmp, 0, sizeof(tmp));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-?")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(a, "-um") || !strcmp(a, "-b")) {
			continue;
		} else if (!strcmp(a, "-km")) {
			opts.kernel = 1;
		} else if (!strcmp(a, "-v")) {
			verbose = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "-r") || !strcmp(a, "-z") ||
			   !strcmp(a, "-W")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "nttrace: mc: %s needs an argument\n", a);
				return 1;
			}
			if (!strcmp(a, "-h"))
				hdir = argv[++i];
			else if (!strcmp(a, "-r"))
				rdir = argv[++i];
			else if (!strcmp(a, "-z"))
				opts.name = argv[++i];
			else if (access(argv[++i], R_OK)) {
				fprintf(stderr, "nttrace: mc: -W %s: %s\n", argv[i], strerror(errno));
				return 1;
			}
		} else if (a[0] == '-' && a[1]) {
			for (k = 0; k < (int)(sizeof(refused) / sizeof(refused[0])); k++)
				if (!strcmp(a, refused[k]))
					break;
			if (!strcmp(a, "-cs") || !strcmp(a, "-css"))
				fprintf(stderr, "nttrace: mc: %s is not supported: no C# is generated\n",
					a);
			else if (k < (int)(sizeof(refused) / sizeof(refused[0])))
				fprintf(stderr, "nttrace: mc: %s is not supported\n", a);
			else if (a[1] && strchr("hrzW", a[1]) && a[2] == 'c' && !a[3])
				/*
				 * mc.exe reads its one-letter options run
				 * together ("-rc DIR": -r DIR and -c, as
				 * Microsoft's sample projects write it).
				 */
				fprintf(stderr, "nttrace: mc: %s is -%c and -c; -c (the customer bit in message IDs) is not supported: write -%c\n",
					a, a[1], a[1]);
			else
				fprintf(stderr, "nttrace: mc: unknown option %s\n", a);
			return 1;
		} else if (input) {
			fprintf(stderr, "nttrace: mc: one manifest only (%s, %s); .mc files are not supported\n",
				input, a);
			return 1;
		} else {
			input = a;
		}
	}
	if (!input) {
		usage(stderr);
		return 1;
	}
	name = opts.name ? strdup(opts.name) : base_name(input);
	if (!name || !name[0] || strchr(name, '/')) {
		fprintf(stderr, "nttrace: mc: %s: no base name for the outputs\n", input);
		goto out;
	}
	opts.name = name;
	for (k = 0; k < N_OUT; k++)
		if (path_of(path[k], sizeof(path[k]) - 16, k == OUT_H ? hdir : rdir, name,
			    suffix[k])) {
			fprintf(stderr, "nttrace: mc: %s: path too long\n", name);
			goto out;
		}
	err = nttrace_man_read_file(input, &xml, &len);
	if (err) {
		fprintf(stderr, "nttrace: mc: %s: cannot read it (Win32 error %lu)\n", input,
			(unsigned long)err);
		goto out;
	}
	err = nttrace_man_parse_diag(xml, len, &m, &diag);
	if (err) {
		what = diag.what ? diag.what : "the manifest does not parse";
		if (err == ERROR_NOT_ENOUGH_MEMORY)
			what = "out of memory";
		say_error(input, (uint32_t)diag.line, "%s%s", what, "");
		goto out;
	}
	if (check(m, opts.kernel, input))
		goto out;
	err = mc_messages(m, &msgs);
	if (!err)
		err = mc_write_header(m, &opts, &msgs, &out[OUT_H]);
	if (!err)
		err = mc_write_rc(&opts, &out[OUT_RC]);
	if (!err)
		err = mc_write_wevt(m, &msgs, &out[OUT_TEMP]);
	if (!err)
		err = mc_write_msg_table(&msgs, &out[OUT_MSG]);
	if (err) {
		fprintf(stderr, "%s: error : the outputs could not be made (Win32 error %lu)\n",
			input, (unsigned long)err);
		goto out;
	}
	for (k = 0; k < N_OUT; k++)
		if (write_temp(path[k], &out[k], tmp[k], sizeof(tmp[k])))
			goto out;
	for (k = 0; k < N_OUT; k++) {
		if (rename(tmp[k], path[k])) {
			fprintf(stderr, "nttrace: mc: %s: %s\n", path[k], strerror(errno));
			goto out;
		}
		tmp[k][0] = 0;
		if (verbose)
			printf("%s\n", path[k]);
	}
	rc = 0;
out:
	for (k = 0; k < N_OUT; k++) {
		if (tmp[k][0])
			unlink(tmp[k]);
		mc_out_free(&out[k]);
	}
	if (m) {
		mc_msgs_free(&msgs);
		nttrace_man_free(m);
	}
	free(xml);
	free(name);
	return rc;
}
