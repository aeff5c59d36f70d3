// SPDX-License-Identifier: GPL-2.0
/*
 * WPP-style messages: DoTraceMessage (<nttrace/wpp.h>) into the user-mode
 * logger, the formats read back from this program's own ELF section
 * (/proc/self/exe) and from a format file, and every event rendered as
 * text compared with what the C library's snprintf makes of the same
 * format and arguments. Then the decoder's defences: data that does not
 * match its format, damaged and truncated binaries, junk format files.
 * Runs in the VM (64- and 32-bit) and on the host (64-bit).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nttrace/evntrace.h>
#include <nttrace/etl.h>
#include <nttrace/tmf.h>
#include <nttrace/wpp.h>
#include "files.h"
#include "harness.h"
#include "props.h"

#define BITS ((int)sizeof(void *) * 8)
#define MAX_EVENTS 64

static char expected[MAX_EVENTS][256];
static unsigned int n_traced, trace_errors;

/* Trace through DoTraceMessage and keep what printf makes of it. */
#define TRACE(h, format, ...)						\
	do {								\
		DoTraceMessage(h, format, ##__VA_ARGS__);		\
		trace_errors += GetLastError() != ERROR_SUCCESS;	\
		snprintf(expected[n_traced++], sizeof(expected[0]), format, \
			 ##__VA_ARGS__);				\
	} while (0)

static void trace_all(TRACEHANDLE h)
{
	const char *volatile null_str = NULL;
	const char *name = "wpp";
	char buf[16] = "array";
	short sh = -2;
	unsigned char uc = 200;
	long l = -1234567L;
	unsigned long ul = (unsigned long)-1;
	long long ll = -(1LL << 40);
	size_t z = sizeof(buf);
	float f = 1.5f;
	double d = -2.25e10;
	void *p = &sh, *np = NULL;
	int i = 7;

	TRACE(h, "no arguments");
	TRACE(h, "int %d, negative %d, hex %#x, octal %o", i, -i, 0xBEEFu, 8);
	TRACE(h, "promoted short %d and uchar %u, char %c", sh, uc, 'A');
	TRACE(h, "long %ld ulong %lu long long %lld", l, ul, ll);
	TRACE(h, "size_t %zu, an expression %d", z, i * 6);
	TRACE(h, "double %f %.3e %g, float %.2f", d, d, 0.5, f);
	TRACE(h, "strings [%s] [%s] [%-6s|] [%.2s] [%s]", name, buf, "lit", name, null_str);
	TRACE(h, "pointers %p and %p", p, np);
	TRACE(h, "width from an argument [%*d] [%-*d]", 6, i, 4, i);
	TRACE(h, "percent %% and %5.1f%%", 99.5);
	TRACE(h, "twelve %d %d %d %d %d %d %d %d %d %d %d %s", 1, 2, 3, 4, 5, 6, 7, 8, 9,
	      10, 11, "end");
	TRACE(h, "hh %hhd h %hd, %hhu", 300, 70000, 511);
	for (i = 0; i < 3; i++)
		TRACE(h, "one call site, many events: %d", i);
}

static unsigned int problems;

static void on_etl_problem(void *ctx, uint64_t offset, const char *what)
{
	problems++;
	printf("# etl problem at %llu: %s\n", (unsigned long long)offset, what);
}

static void on_tmf_problem(void *ctx, const char *path, uint64_t offset, const char *what)
{
	problems++;
	if (!ctx)
		printf("# %s at %llu: %s\n", path, (unsigned long long)offset, what);
}

/* Render every event of @etl with @t; count those equal to expected[]. */
static unsigned int render_all(const char *etl, struct nttrace_tmf *t, unsigned int *events,
			       unsigned int *mism)
{
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	unsigned int same = 0;
	char text[256];

	*events = *mism = 0;
	if (nttrace_etl_open(&r, etl, on_etl_problem, NULL))
		return 0;
	while (nttrace_etl_next(r, &ev)) {
		const struct nttrace_tmf_format *f = NULL;
		unsigned int k = (*events)++;

		if (ev.message && ev.guid_len == 16)
			f = nttrace_tmf_find(t, ev.guid, ev.number,
					     ev.flags & TRACE_MESSAGE_POINTER32 ? 4 : 8);
		if (!f) {
			printf("# event %u: no format for message %u\n", k, ev.number);
			continue;
		}
		*mism += nttrace_tmf_render(f, ev.data, ev.data_len,
					    ev.flags & TRACE_MESSAGE_POINTER32 ? 4 : 8,
					    text, sizeof(text)) != 0;
		if (k < n_traced && !strcmp(text, expected[k]))
			same++;
		else
			printf("# event %u: got \"%s\", want \"%s\"\n", k, text,
			       k < n_traced ? expected[k] : "(none)");
	}
	nttrace_etl_close(r);
	return same;
}

static void test_round_trip(const char *etl, const char *tmf_path)
{
	struct nttrace_tmf t = { 0 }, t2 = { 0 };
	unsigned int events, mism, same;
	char line[512];
	GUID g, want;
	size_t i;
	FILE *out;
	int n;

	problems = 0;
	n = nttrace_tmf_load(&t, "/proc/self/exe", on_tmf_problem, NULL);
	/* 13 call sites in trace_all(); TRACE's own are the same ones. */
	tap_eq(n, 13, "%d-bit: 13 formats in this binary's " NTTRACE_WPP_SECTION " section",
	       BITS);
	tap_eq(problems, 0, "%d-bit: ... and no problem loading them", BITS);
	nttrace_wpp_file_guid(__FILE__, &want);
	for (i = 0, n = 0; i < t.n; i++) {
		n += !memcmp(t.v[i].guid, &want, 16) && t.v[i].ptr_size == sizeof(void *) &&
		     !strcmp(t.v[i].file, __FILE__) && t.v[i].number >= NTTRACE_WPP_FIRST_NUMBER;
	}
	tap_eq(n, t.n, "%d-bit: each has this file's GUID, name, pointer size, a number "
	       ">= 10", BITS);
	tap_ok((want.Data3 >> 12) == 8 && (want.Data4[0] & 0xC0) == 0x80,
	       "%d-bit: the file GUID is a version 8 UUID", BITS);
	nttrace_wpp_file_guid("userlib/sample/trace_sample.c", &g);
	tap_ok(g.Data1 != want.Data1, "%d-bit: another file, another GUID", BITS);

	same = render_all(etl, &t, &events, &mism);
	tap_eq(events, n_traced, "%d-bit: every DoTraceMessage event read back", BITS);
	tap_eq(same, n_traced, "%d-bit: each renders as snprintf renders it", BITS);
	tap_eq(mism, 0, "%d-bit: no event reported as a mismatch", BITS);

	/* The same formats through a format file. */
	out = fopen(tmf_path, "w");
	fprintf(out, "# written by wpp_test\n\n");
	for (i = 0; i < t.n; i++) {
		nttrace_tmf_line(&t.v[i], line, sizeof(line));
		fprintf(out, "%s\n", line);
	}
	fclose(out);
	problems = 0;
	n = nttrace_tmf_load(&t2, tmf_path, on_tmf_problem, NULL);
	tap_eq(n, t.n, "%d-bit: a format file of them loads back whole", BITS);
	same = render_all(etl, &t2, &events, &mism);
	tap_eq(same + problems, n_traced, "%d-bit: ... and renders the same", BITS);

	/* Loading the binary again adds nothing and reports nothing. */
	problems = 0;
	n = nttrace_tmf_load(&t2, "/proc/self/exe", on_tmf_problem, NULL);
	tap_ok(t2.n == t.n && problems == 0,
	       "%d-bit: the same formats twice are kept once, silently", BITS);
	nttrace_tmf_free(&t);
	nttrace_tmf_free(&t2);
}

/* Data that does not fit its format: shown in <>, reported, no overrun. */
static void test_mismatch(void)
{
	struct nttrace_tmf t = { 0 };
	const struct nttrace_tmf_format *f;
	uint8_t guid[16] = { 1 }, data[16] = { 5, 0, 0, 0, 'h', 'i', 0 };
	char text[64], small[12];
	const char *path = "/tmp/wpp-mismatch.tmf";
	static const char lines[] =
		"00000001-0000-0000-0000-000000000000 1 8 i x.c:1 \"%d and %s\"\n"
		"00000001-0000-0000-0000-000000000000 2 8 s x.c:2 \"%d\"\n"
		"00000001-0000-0000-0000-000000000000 3 8 is x.c:3 \"%d %s\"\n"
		"00000001-0000-0000-0000-000000000000 4 4 p x.c:4 \"%p\"\n"
		"this line is not a format\n"
		"00000001-0000-0000-0000-000000000000 5 8 i x.c:5 \"%d\" trailing\n"
		"00000001-0000-0000-0000-000000000000 6 8 i x.c:6 \"a\\\"b\\\\c\\n%d\"\n";

	spew(path, lines, sizeof(lines) - 1);
	problems = 0;
	tap_eq(nttrace_tmf_load(&t, path, on_tmf_problem, (void *)1), 5,
	       "%d-bit: format file: good lines load", BITS);
	tap_eq(problems, 2, "%d-bit: ... bad ones are reported", BITS);
	f = nttrace_tmf_find(&t, guid, 1, 8);
	tap_ok(f && nttrace_tmf_render(f, data, 4, 8, text, sizeof(text)) == -1 &&
	       !strcmp(text, "5 and <missing>"), "%d-bit: a missing argument: \"%s\"", BITS,
	       f ? text : "?");
	f = nttrace_tmf_find(&t, guid, 2, 8);
	tap_ok(f && nttrace_tmf_render(f, data + 4, 3, 8, text, sizeof(text)) == -1 &&
	       !strcmp(text, "<string>"), "%d-bit: a string for %%d: \"%s\"", BITS,
	       f ? text : "?");
	f = nttrace_tmf_find(&t, guid, 3, 8);
	tap_ok(f && nttrace_tmf_render(f, data, 6, 8, text, sizeof(text)) == -1,
	       "%d-bit: a string without its NUL is a mismatch (\"%s\")", BITS,
	       f ? text : "?");
	tap_ok(f && nttrace_tmf_render(f, data, 7, 8, small, sizeof(small)) == 0 &&
	       !strcmp(small, "5 hi"), "%d-bit: exact data renders (\"%s\")", BITS,
	       f ? small : "?");
	tap_ok(f && nttrace_tmf_render(f, data, 7, 8, small, 4) == 0 && strlen(small) == 3,
	       "%d-bit: output cut to the room given", BITS);
	memcpy(data + 8, "\x78\x56\x34\x12", 4);
	f = nttrace_tmf_find(&t, guid, 4, 8);
	tap_ok(f && nttrace_tmf_render(f, data + 8, 4, 0, text, sizeof(text)) == 0 &&
	       !strcmp(text, "0x12345678"), "%d-bit: POINTER32 pointer from the format's size "
	       "(\"%s\")", BITS, f ? text : "?");
	tap_ok(f && nttrace_tmf_render(f, data + 8, 4, 8, text, sizeof(text)) == -1,
	       "%d-bit: an event's POINTER64 wants 8 bytes", BITS);
	f = nttrace_tmf_find(&t, guid, 6, 8);
	tap_ok(f && nttrace_tmf_render(f, data, 4, 8, text, sizeof(text)) == 0 &&
	       !strcmp(text, "a\"b\\c\n5"), "%d-bit: escapes in a format file", BITS);
	tap_ok(f && nttrace_tmf_line(f, text, sizeof(text)) > 0 &&
	       strstr(text, "\"a\\\"b\\\\c\\n%d\""), "%d-bit: ... and written back escaped",
	       BITS);
	nttrace_tmf_free(&t);
	unlink(path);
}

/* Little-endian argument data, as DoTraceMessage lays it out. */
static uint32_t pack(uint8_t *d, uint32_t at, const void *v, uint32_t n)
{
	memcpy(d + at, v, n);
	return at + n;
}

static uint32_t pack_int(uint8_t *d, uint32_t at, int32_t v)
{
	return pack(d, at, &v, 4);
}

/* @f's text, @format and @types its own, from @len bytes of @data. */
static int render_with(const char *format, const char *types, const uint8_t *data,
		       uint32_t len, char *out, size_t size)
{
	struct nttrace_tmf_format f;
	char t[16], fm[64];

	memset(&f, 0, sizeof(f));
	snprintf(t, sizeof(t), "%s", types);
	snprintf(fm, sizeof(fm), "%s", format);
	f.ptr_size = sizeof(void *);
	f.types = t;
	f.file = t;
	f.format = fm;
	return nttrace_tmf_render(&f, data, len, 0, out, size);
}

/*
 * printf's corners. A negative '*' precision is taken as if it were
 * omitted (C11 7.21.6.1p5), as snprintf takes it, not made into an
 * invalid "%.-3d". A string longer than any buffer inside the renderer
 * comes out whole; one longer than the output is cut with "..." at the
 * end, where it shows. A %c of 0 does not end the text unseen. Widths
 * past 999 are capped at 999, not cut to their first three digits.
 */
static void test_render_edges(void)
{
	char *text = malloc(8192), *want = malloc(8192), *big = malloc(5001);
	uint8_t *data = malloc(6000);
	double d = 2.5;
	uint32_t n;
	int ret, ok;

	n = pack_int(data, 0, -3);
	n = pack_int(data, n, 42);
	ret = render_with("[%.*d]", "ii", data, n, text, 8192);
	snprintf(want, 8192, "[%.*d]", -3, 42);
	tap_ok(ret == 0 && !strcmp(text, want), "%d-bit: %%.*d with -3: \"%s\" as snprintf's "
	       "\"%s\"", BITS, text, want);
	n = pack_int(data, 0, -5);
	n = pack_int(data, n, -2);
	n = pack_int(data, n, 42);
	ret = render_with("[%*.*d]", "iii", data, n, text, 8192);
	snprintf(want, 8192, "[%*.*d]", -5, -2, 42);
	tap_ok(ret == 0 && !strcmp(text, want), "%d-bit: %%*.*d with -5, -2: \"%s\" as "
	       "snprintf's \"%s\"", BITS, text, want);
	n = pack_int(data, 0, -1);
	n = pack(data, n, "abc", 4);
	ret = render_with("[%.*s]", "is", data, n, text, 8192);
	snprintf(want, 8192, "[%.*s]", -1, "abc");
	tap_ok(ret == 0 && !strcmp(text, want), "%d-bit: %%.*s with -1: \"%s\" as snprintf's "
	       "\"%s\"", BITS, text, want);
	n = pack_int(data, 0, -1);
	n = pack(data, n, &d, 8);
	ret = render_with("[%9.*f]", "id", data, n, text, 8192);
	snprintf(want, 8192, "[%9.*f]", -1, d);
	tap_ok(ret == 0 && !strcmp(text, want), "%d-bit: %%9.*f with -1: \"%s\" as snprintf's "
	       "\"%s\"", BITS, text, want);

	memset(big, 'a', 5000);
	big[5000] = 0;
	n = pack(data, 0, big + 4000, 1001);	/* 1000 a's and the NUL */
	ret = render_with("[%s]", "s", data, n, text, 8192);
	snprintf(want, 8192, "[%s]", big + 4000);
	tap_ok(ret == 0 && !strcmp(text, want), "%d-bit: a 1000-character string renders "
	       "whole (%zu characters)", BITS, strlen(text));
	n = pack(data, n, big + 4000, 1001);	/* the same string twice */
	ret = render_with("[%.700s|%-1100s|]", "ss", data, n, text, 8192);
	snprintf(want, 8192, "[%.700s|%-999s|]", big + 4000, big + 4000);
	tap_ok(ret == 0 && !strcmp(text, want), "%d-bit: %%.700s and %%-1100s (width capped "
	       "at 999) of it as snprintf (%zu characters)", BITS, strlen(text));
	n = pack(data, 0, big, 5001);
	ret = render_with("[%s]", "s", data, n, text, 4096);
	ok = strlen(text) == 4095 && !strcmp(text + 4092, "...") &&
	     !strncmp(text, "[aaa", 4);
	tap_ok(ret == 0 && ok, "%d-bit: a 5000-character string in 4096 bytes is cut with "
	       "\"...\" at the end (%zu characters, ending \"%s\")", BITS, strlen(text),
	       text + (strlen(text) > 5 ? strlen(text) - 5 : 0));
	n = pack_int(data, 0, 0);
	ret = render_with("[%c]", "i", data, n, text, 8192);
	tap_ok(ret == 0 && !strcmp(text, "[\\0]"), "%d-bit: %%c of 0 shows as \\0, not as "
	       "the end of the text (\"%s\")", BITS, text);
	n = pack_int(data, 0, 7);
	ret = render_with("[%1200d]", "i", data, n, text, 8192);
	snprintf(want, 8192, "[%999d]", 7);
	tap_ok(ret == 0 && !strcmp(text, want), "%d-bit: %%1200d is %%999d (%zu characters)",
	       BITS, strlen(text));
	free(text);
	free(want);
	free(big);
	free(data);
}

/*
 * `nttrace formats` writes FILE:LINE; a path with spaces, quotes,
 * backslashes, control characters or of any length comes back from the
 * format file as it was, and the old unquoted form still loads.
 */
static void test_paths(void)
{
	static const char *const paths[] = {
		"my dir/a b.c", "q\"uote\\back\tslash.c", "C:\\src\\win.c",
		"\"starts with a quote.c", "new\nline.c", "dir/caf\xc3\xa9.c", "plain/x.c",
		"", NULL,
	};
	const char *path = "/tmp/wpp-paths.tmf";
	struct nttrace_tmf t = { 0 };
	struct nttrace_tmf_format f;
	uint8_t guid[16] = { 2 };
	char long_path[301], line[2048], types[] = "i", format[] = "%d";
	unsigned int k, same = 0, count;
	FILE *out = fopen(path, "w");

	memset(long_path, 'p', 300);
	long_path[300] = 0;
	memset(&f, 0, sizeof(f));
	memcpy(f.guid, guid, 16);
	f.ptr_size = 8;
	f.types = types;
	f.format = format;
	for (k = 0; k < 10; k++) {
		f.file = (char *)(k < 9 ? paths[k] : long_path);
		if (!f.file)
			continue;
		f.number = 100 + k;
		f.line = 1000 + k;
		nttrace_tmf_line(&f, line, sizeof(line));
		fprintf(out, "%s\n", line);
	}
	fprintf(out, "00000002-0000-0000-0000-000000000000 120 8 i old/style.c:7 \"%%d\"\n");
	fclose(out);
	problems = 0;
	count = nttrace_tmf_load(&t, path, on_tmf_problem, NULL);
	for (k = 0; k < 10; k++) {
		const char *want = k < 9 ? paths[k] : long_path;
		const struct nttrace_tmf_format *g = nttrace_tmf_find(&t, guid, 100 + k, 8);

		if (!want)
			continue;
		if (g && !strcmp(g->file, want) && g->line == 1000 + k)
			same++;
		else
			printf("# path %u: got \"%s\"\n", k, g ? g->file : "(none)");
	}
	tap_ok(count == 10 && same == 9 && problems == 0,
	       "%d-bit: file paths with spaces, quotes, backslashes, control characters, "
	       "300 characters round-trip through a format file (%u loaded, %u the same)",
	       BITS, count, same);
	{
		const struct nttrace_tmf_format *g = nttrace_tmf_find(&t, guid, 120, 8);

		tap_ok(g && !strcmp(g->file, "old/style.c") && g->line == 7,
		       "%d-bit: ... and an unquoted FILE:LINE still loads", BITS);
	}
	nttrace_tmf_free(&t);
	unlink(path);
}

/* Damaged binaries and junk: reported, never a crash. */
static void test_damaged(void)
{
	const char *path = "/tmp/wpp-damaged.bin";
	struct nttrace_tmf t = { 0 };
	size_t len, k;
	uint8_t *exe = slurp("/proc/self/exe", &len), *g;
	unsigned int found = 0, seed = 12345;
	int n, crashed = 0;

	if (!tap_ok(exe && len > 4096, "%d-bit: read this binary", BITS))
		return;
	g = malloc(len);
	/*
	 * An entry's magic flipped: the first with this file's name (the
	 * magic's bytes are in the code too).
	 */
	memcpy(g, exe, len);
	for (k = 0; k + 0x100 <= len; k += 8)
		if (!memcmp(g + k, "NTWP", 4) && g[k + 0x0F] < 16 &&
		    !strcmp((char *)g + k + 0x28 + g[k + 0x0F] + 1, __FILE__))
			break;
	if (k + 0x100 <= len)
		g[k] ^= 0xFF;
	spew(path, g, len);
	problems = 0;
	n = nttrace_tmf_load(&t, path, on_tmf_problem, (void *)1);
	tap_ok(n == 12 && problems >= 1, "%d-bit: a damaged entry is reported and the other "
	       "12 load (%d, %u problems)", BITS, n, problems);
	nttrace_tmf_free(&t);

	spew(path, exe, 300);
	problems = 0;
	n = nttrace_tmf_load(&t, path, on_tmf_problem, (void *)1);
	tap_ok(n < 0, "%d-bit: a truncated binary is an error (%d)", BITS, n);
	nttrace_tmf_free(&t);

	/* Random bytes, and this binary with random bytes flipped. */
	for (k = 0; k < 60; k++) {
		size_t i, m = k < 20 ? 4096 : len;

		memcpy(g, exe, len);
		for (i = 0; i < (k < 20 ? m : 64); i++) {
			seed = seed * 1103515245u + 12345u;
			g[k < 20 ? i : (seed >> 4) % len] = (uint8_t)(seed >> 16);
		}
		if (k == 5)
			memcpy(g, "\x7f" "ELF", 4);
		spew(path, g, m);
		n = nttrace_tmf_load(&t, path, on_tmf_problem, (void *)1);
		found += n >= 0 || n == -EINVAL;
		crashed += n < -EINVAL - 100;
		nttrace_tmf_free(&t);
	}
	tap_ok(found == 60 && !crashed, "%d-bit: 60 random or bit-flipped files: loaded or "
	       "refused, no crash", BITS);
	tap_eq(nttrace_tmf_load(&t, "/nonexistent/x", NULL, NULL), -ENOENT,
	       "%d-bit: a missing file is -ENOENT", BITS);
	free(g);
	free(exe);
	unlink(path);
}

/* The user-mode logger's file and the formats written from it. */
static char etl[64], tmf[64];

/* Every message traced, then read back from the file and rendered. */
TEST(round_trip)
{
	struct props pr, st;
	TRACEHANDLE h;

	props_init(&pr, etl, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	pr.p.BufferSize = 4;
	if (tap_eq(StartTraceA(&h, BITS == 64 ? "wpp-64" : "wpp-32", &pr.p), 0,
		   "%d-bit: user-mode logger starts", BITS)) {
		trace_all(h);
		props_init(&st, NULL, 0);
		tap_eq(StopTraceA(h, NULL, &st.p), 0, "%d-bit: stopped", BITS);
		tap_eq(trace_errors, 0, "%d-bit: every DoTraceMessage succeeded", BITS);
		test_round_trip(etl, tmf);
	}
}

TEST(mismatch)
{
	test_mismatch();
}

TEST(render_edges)
{
	test_render_edges();
}

TEST(paths)
{
	test_paths();
}

TEST(damaged)
{
	test_damaged();
}

int main(int argc, char **argv)
{
	int ret;

	snprintf(etl, sizeof(etl), "/tmp/wpp-%d.etl", getpid());
	snprintf(tmf, sizeof(tmf), "/tmp/wpp-%d.tmf", getpid());
	ret = harness_run(argc, argv);
	unlink(etl);
	unlink(tmf);
	return ret;
}
