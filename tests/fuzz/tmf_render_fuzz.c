// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: rendering an event's data through a message format
 * (nttrace_tmf_render, userlib/etl/tmf.c), with formats the loader never
 * checked: any argument types, any printf format.
 *
 * Input, in order:
 *   1 byte   bits 0-1: the event's pointer size given to the renderer
 *            (0, 4, 8 or 3, which is not one); bits 2-3: the format's
 *            (4, 8, 0 or 5)
 *   2 bytes  the output buffer's size, little-endian, modulo 8193 (0 too);
 *            the buffer is allocated at exactly that size
 *   TYPES NUL FILE NUL FORMAT NUL   the format's fields
 *   the rest: the event's data
 * The text must be NUL-terminated within the buffer. When the types are
 * ones the loader accepts, the format is also written as a format-file
 * line and loaded back, and must come back the same (quoting and
 * escapes of any FILE and FORMAT).
 *
 * Build and run: scripts/fuzz-lib (build/fuzz/tmf_render_fuzz); seeds in
 * tests/fuzz/corpus/tmf_render_fuzz/ (the events of a traced program with
 * their formats: tests/fuzz/mkcorpus.c), crashes kept in
 * tests/fuzz/regressions/tmf_render_fuzz/ and replayed before every run:
 * unknown-argument-type (UBSan: a type not in the size table gave a null
 * pointer plus 1), digit-as-argument-type (a '1' matched the table's
 * digits: an 18-byte copy into 8 bytes on the stack),
 * line-length-empty-format (nttrace_tmf_line() with no room returned
 * less than the line's length).
 */
#include <string.h>

#include <nttrace/tmf.h>
#include "fuzz_file.h"

static struct fuzz_file lines;
static volatile uint8_t sink;

static const char *field(const uint8_t **p, const uint8_t *end)
{
	const uint8_t *nul = memchr(*p, 0, end - *p);
	const char *s = (const char *)*p;

	if (!nul)
		return NULL;
	*p = nul + 1;
	return s;
}

/* Write @f as a line, load it back: the same fields. */
static void round_trip(const struct nttrace_tmf_format *f)
{
	struct nttrace_tmf t = { 0 };
	size_t n = nttrace_tmf_line(f, NULL, 0);
	char *buf = malloc(n + 2);

	if (nttrace_tmf_line(f, buf, n + 1) != n || strlen(buf) != n)
		abort();
	buf[n] = '\n';
	fuzz_file_set(&lines, "tmf_render_fuzz", (const uint8_t *)buf, n + 1);
	free(buf);
	if (nttrace_tmf_load(&t, lines.path, NULL, NULL) != 1 || t.n != 1 ||
	    memcmp(t.v[0].guid, f->guid, 16) || t.v[0].number != f->number ||
	    t.v[0].ptr_size != f->ptr_size || t.v[0].line != f->line ||
	    strcmp(t.v[0].types, f->types) || strcmp(t.v[0].file, f->file) ||
	    strcmp(t.v[0].format, f->format))
		abort();
	nttrace_tmf_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int ev_psz[] = { 0, 4, 8, 3 }, f_psz[] = { 4, 8, 0, 5 };
	const uint8_t *p = data + 3, *end = data + size;
	struct nttrace_tmf_format f;
	const char *types, *file, *format;
	size_t out_size;
	char *out;
	int ret;

	if (size < 3)
		return 0;
	out_size = (data[1] | data[2] << 8) % 8193;
	types = field(&p, end);
	file = types ? field(&p, end) : NULL;
	format = file ? field(&p, end) : NULL;
	if (!format)
		return 0;
	memset(&f, 0, sizeof(f));
	memcpy(f.guid, data, size < 16 ? size : 16);
	f.number = size;
	f.ptr_size = f_psz[data[0] >> 2 & 3];
	f.line = size * 7;
	f.types = (char *)types;
	f.file = (char *)file;
	f.format = (char *)format;

	out = malloc(out_size ? out_size : 1);
	out[0] = 0;
	ret = nttrace_tmf_render(&f, p, end - p, ev_psz[data[0] & 3], out, out_size);
	if (out_size && strnlen(out, out_size) == out_size)
		abort();	/* not terminated within the buffer */
	if (!out_size && ret != -1)
		abort();
	sink ^= (uint8_t)out[0];
	free(out);

	if ((f.ptr_size == 4 || f.ptr_size == 8) && strlen(types) <= 255 &&
	    strspn(types, "bBhHiIqQfdps") == strlen(types))
		round_trip(&f);
	return 0;
}
