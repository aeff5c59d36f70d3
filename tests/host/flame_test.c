// SPDX-License-Identifier: GPL-2.0
/*
 * The flame graph of `nttrace profile --svg` (userlib/tools/flame.c),
 * linked in: stacks merged by common callers (each box's count in its
 * title), names escaped for XML (a hostile one: markup, quotes, a control
 * character, bytes past ASCII), the call tree as text, an empty graph, and 100000 distinct stacks
 * drawn (each added at the cost of its length: the callees are found by
 * hash). TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../vm/tap.h"
#include "flame.h"

/* The SVG of @f, read back into memory (freed by the caller). */
static char *draw(const struct flame *f, const char *title)
{
	FILE *t = tmpfile();
	char *buf;
	long n;

	if (!t || flame_svg(f, t, title))
		return NULL;
	n = ftell(t);
	buf = calloc(1, (size_t)n + 1);
	rewind(t);
	if (!buf || fread(buf, 1, (size_t)n, t) != (size_t)n)
		abort();
	fclose(t);
	return buf;
}

/* The call tree of @f down to @min_share, read back (freed by the caller). */
static char *text(const struct flame *f, double min_share)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *t = open_memstream(&buf, &len);

	if (!t)
		return NULL;
	if (flame_text(f, t, min_share)) {
		fclose(t);
		free(buf);
		return NULL;
	}
	fclose(t);
	return buf;
}

static int add(struct flame *f, const char *s0, const char *s1, const char *s2, uint64_t n)
{
	const char *v[3] = { s0, s1, s2 };

	return flame_add(f, v, s2 ? 3 : s1 ? 2 : 1, n);
}

int main(void)
{
	static const char hostile[] = "<script>&\"'\x01\xc3\xa9";
	struct flame *f = flame_new();
	char *svg, name[32];
	unsigned int i;
	int ok = 1;

	tap_ok(f != NULL, "flame_new");
	if (!f)
		return tap_done();
	add(f, "a", "b", "c", 2);
	add(f, "a", "b", "d", 1);
	add(f, "x", NULL, NULL, 1);
	add(f, "p", hostile, NULL, 1);
	svg = draw(f, "t <1>");
	tap_ok(svg && !strncmp(svg, "<?xml", 5) && strstr(svg, "</svg>\n"),
	       "an SVG document, whole");
	tap_ok(svg && strstr(svg, "<title>a (3 samples") && strstr(svg, "<title>b (3 samples") &&
	       strstr(svg, "<title>c (2 samples") && strstr(svg, "<title>d (1 samples"),
	       "a;b;c twice and a;b;d once: a and b 3, c 2, d 1");
	tap_ok(svg && strstr(svg, "<title>x (1 samples, 20.00%)"), "x: 1 of 5 samples, 20%%");
	tap_ok(svg && strstr(svg, "&lt;script&gt;&amp;&quot;&apos;???") && !strstr(svg, "<script"),
	       "a hostile name escaped: entities, '?' for control and non-ASCII bytes");
	tap_ok(svg && strstr(svg, ">t &lt;1&gt;</text>"), "the title escaped");
	free(svg);
	svg = text(f, 0.25);
	if (!tap_ok(svg && !strcmp(svg, "  60.0%  a\n  60.0%    b\n  40.0%      c\n"),
		    "the call tree down to 25%%: a, b, c, the hottest first, indented"))
		printf("# got:\n%s", svg ? svg : "(none)\n");
	free(svg);
	flame_free(f);

	f = flame_new();
	svg = f ? draw(f, "empty") : NULL;
	tap_ok(svg && !strstr(svg, "<rect x="), "no stacks: a picture with no boxes");
	free(svg);
	flame_free(f);

	f = flame_new();
	for (i = 0; f && i < 100000 && ok; i++) {
		const char *v[10];
		unsigned int d;

		snprintf(name, sizeof(name), "leaf%u", i);
		for (d = 0; d < 9; d++)
			v[d] = d & 1 ? "mid" : "top";
		v[9] = name;
		ok = !flame_add(f, v, 10, 1);
	}
	tap_ok(f && ok, "100000 stacks of 10 frames added");
	svg = f ? draw(f, "many") : NULL;
	tap_ok(svg && strstr(svg, "<title>top (100000 samples, 100.00%)") &&
	       !strstr(svg, "<title>leaf0 "),
	       "... drawn: their common caller 100%%, each leaf too narrow to draw left out");
	free(svg);
	flame_free(f);
	return tap_done();
}
