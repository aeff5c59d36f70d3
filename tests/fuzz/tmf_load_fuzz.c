// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the message-format loader (userlib/etl/tmf.c), both of
 * its inputs: ELF binaries (the "nttrace_wpp" section, 32- or 64-bit) and
 * text format files. The loader tells them apart by the ELF magic, as
 * `nttrace dump --formats` does.
 *
 * Input: the bytes of the file. It is loaded from a memfd; then every
 * format loaded is written as a format-file line (nttrace_tmf_line, what
 * `nttrace formats` prints) and those lines are loaded again, which must
 * give back the same formats field for field: the writer and the loader
 * agree on every path and format string the loader can produce, quoting
 * and escapes included. Each format is also found by its key and
 * rendered with the input's bytes as its data.
 *
 * Build and run: scripts/fuzz-lib (build/fuzz/tmf_load_fuzz); seeds in
 * tests/fuzz/corpus/tmf_load_fuzz/ (ELF objects with the section and a
 * format file: tests/fuzz/mkcorpus.c), crashes kept in
 * tests/fuzz/regressions/tmf_load_fuzz/ and replayed before every run:
 * path-with-a-space.o (a source path with a blank did not come back
 * from the format file; nor did nttrace_tmf_line() say its length).
 */
#include <string.h>

#include <nttrace/tmf.h>
#include "fuzz_file.h"

static struct fuzz_file file, lines;
static char text[512];
static volatile uint8_t sink;

static void on_problem(void *ctx, const char *path, uint64_t offset, const char *what)
{
	sink ^= (uint8_t)strlen(what);
}

static int same(const struct nttrace_tmf_format *a, const struct nttrace_tmf_format *b)
{
	return !memcmp(a->guid, b->guid, 16) && a->number == b->number &&
	       a->ptr_size == b->ptr_size && a->line == b->line &&
	       !strcmp(a->types, b->types) && !strcmp(a->file, b->file) &&
	       !strcmp(a->format, b->format);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nttrace_tmf t = { 0 }, t2 = { 0 };
	size_t i, all = 0, n;
	int ret;
	char *buf;

	fuzz_file_set(&file, "tmf_load_fuzz", data, size);
	ret = nttrace_tmf_load(&t, file.path, on_problem, NULL);
	if (ret < 0 || !t.n) {
		nttrace_tmf_free(&t);
		return 0;
	}

	/* Every format as a line, and the lines loaded back. */
	for (i = 0; i < t.n; i++)
		all += nttrace_tmf_line(&t.v[i], NULL, 0) + 1;
	buf = malloc(all + 1);
	for (i = 0, n = 0; i < t.n; i++) {
		size_t k = nttrace_tmf_line(&t.v[i], buf + n, all + 1 - n);

		if (k != strlen(buf + n))
			abort();	/* the length it says is what it wrote */
		n += k;
		buf[n++] = '\n';
	}
	fuzz_file_set(&lines, "tmf_load_fuzz_lines", (const uint8_t *)buf, n);
	free(buf);
	if (nttrace_tmf_load(&t2, lines.path, on_problem, NULL) != (int)t.n || t2.n != t.n)
		abort();
	for (i = 0; i < t.n; i++)
		if (!same(&t.v[i], &t2.v[i]))
			abort();

	for (i = 0; i < t.n; i++) {
		const struct nttrace_tmf_format *f = nttrace_tmf_find(&t, t.v[i].guid,
								      t.v[i].number,
								      t.v[i].ptr_size);

		if (f != &t.v[i])
			abort();
		nttrace_tmf_render(f, data, size > 64 ? 64 : size, 0, text, sizeof(text));
		sink ^= (uint8_t)text[0];
	}
	nttrace_tmf_free(&t);
	nttrace_tmf_free(&t2);
	return 0;
}
