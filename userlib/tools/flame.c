// SPDX-License-Identifier: LGPL-2.1
/*
 * Flame graphs (see flame.h), and the call tree they hold as text. Drawn
 * as Brendan Gregg's flamegraph.pl
 * draws them: the stacks merged by common callers, each function a box as
 * wide as the samples under it, its callees stacked above it, siblings in
 * the order of their names; colours by a hash of the name in warm hues.
 * Boxes narrower than a tenth of a pixel are left out (with their
 * callees), so a graph of any size draws in the time its visible boxes
 * take. Every name reaches the SVG escaped for XML (a function's name is
 * the traced program's to choose), as text and in each box's <title>,
 * which viewers show on hovering.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"

#define FLAME_WIDTH	1200.0
#define FLAME_ROW	16
#define FLAME_TOP	40	/* room for the title */
#define FLAME_CHAR	7.0	/* pixels a character of the 12 px font takes */

struct fnode {
	char *name;
	uint32_t parent, child, next;	/* indexes; 0: none (node 0 is the root) */
	uint64_t count;
};

struct flame {
	struct fnode *nodes;
	size_t nr, cap;
	uint32_t *slots;	/* hash of (parent, name) -> node, 0 empty */
	size_t nr_slots;
	size_t depth;		/* the deepest stack */
};

static uint64_t flame_hash(uint32_t parent, const char *s)
{
	uint64_t h = 1469598103934665603ULL ^ parent;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* The slot of (@parent, @name): its node's, or the empty one it would take. */
static uint32_t *flame_slot(const struct flame *f, uint32_t parent, const char *name)
{
	size_t i = flame_hash(parent, name) & (f->nr_slots - 1);

	while (f->slots[i]) {
		const struct fnode *n = &f->nodes[f->slots[i]];

		if (n->parent == parent && !strcmp(n->name, name))
			break;
		i = (i + 1) & (f->nr_slots - 1);
	}
	return &f->slots[i];
}

static int flame_rehash(struct flame *f)
{
	size_t n = f->nr_slots ? 2 * f->nr_slots : 1024, i;
	uint32_t *old = f->slots;

	f->slots = calloc(n, sizeof(*f->slots));
	if (!f->slots) {
		f->slots = old;
		return -1;
	}
	f->nr_slots = n;
	for (i = 1; i < f->nr; i++)
		*flame_slot(f, f->nodes[i].parent, f->nodes[i].name) = (uint32_t)i;
	free(old);
	return 0;
}

struct flame *flame_new(void)
{
	struct flame *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->cap = 1024;
	f->nodes = calloc(f->cap, sizeof(*f->nodes));
	if (!f->nodes || flame_rehash(f)) {
		flame_free(f);
		return NULL;
	}
	f->nr = 1;	/* the root */
	return f;
}

/* The node @name under @parent, made if there is none; 0 without memory. */
static uint32_t flame_child(struct flame *f, uint32_t parent, const char *name)
{
	uint32_t *slot, i;

	if (2 * (f->nr + 1) > f->nr_slots && flame_rehash(f))
		return 0;
	slot = flame_slot(f, parent, name);
	if (*slot)
		return *slot;
	if (f->nr == f->cap || f->nr >= UINT32_MAX) {
		struct fnode *grown;

		if (f->nr >= UINT32_MAX)
			return 0;
		grown = realloc(f->nodes, 2 * f->cap * sizeof(*grown));
		if (!grown)
			return 0;
		f->nodes = grown;
		f->cap *= 2;
	}
	i = (uint32_t)f->nr;
	f->nodes[i] = (struct fnode){ .name = strdup(name), .parent = parent };
	if (!f->nodes[i].name)
		return 0;
	f->nodes[i].next = f->nodes[parent].child;
	f->nodes[parent].child = i;
	f->nr++;
	*slot = i;
	return i;
}

int flame_add(struct flame *f, const char *const *names, size_t n, uint64_t count)
{
	uint32_t at = 0, path[256];
	size_t i;

	if (n > sizeof(path) / sizeof(path[0]))
		n = sizeof(path) / sizeof(path[0]);
	for (i = 0; i < n; i++) {
		at = flame_child(f, at, names[i]);
		if (!at)
			return -1;
		path[i] = at;
	}
	/* Counted once the whole path is there: nothing half-added. */
	f->nodes[0].count += count;
	for (i = 0; i < n; i++)
		f->nodes[path[i]].count += count;
	if (n > f->depth)
		f->depth = n;
	return 0;
}

/*
 * @s as XML text: the five specials as entities; control characters and
 * every byte past ASCII '?' (a name's bytes need not be UTF-8, and the
 * document must be), so that a cut never splits a character either.
 */
static void flame_xml(FILE *out, const char *s, size_t max)
{
	size_t i;

	for (i = 0; s[i] && i < max; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default: fputc(c < 0x20 || c >= 0x7f ? '?' : c, out); break;
		}
	}
}

/* @s for a terminal: control characters '?', the rest as it is. */
static void flame_text_name(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

static int flame_by_name(const void *a, const void *b, void *ctx)
{
	const struct fnode *nodes = ctx;

	return strcmp(nodes[*(const uint32_t *)a].name, nodes[*(const uint32_t *)b].name);
}

/* Node @i and its callees, from @x pixels, at @depth (the root's callees: 0). */
static void flame_draw(const struct flame *f, FILE *out, uint32_t i, double x, size_t depth,
		       uint32_t *scratch)
{
	const struct fnode *n = &f->nodes[i];
	double total = (double)f->nodes[0].count, w = n->count / total * FLAME_WIDTH;
	size_t nr = 0, k;
	uint32_t c;

	if (w < 0.1)
		return;
	if (i) {
		double y = FLAME_TOP + (double)(f->depth - depth) * FLAME_ROW;
		uint64_t h = flame_hash(0, n->name);

		fprintf(out, "<g><title>");
		flame_xml(out, n->name, SIZE_MAX);
		fprintf(out, " (%" PRIu64 " samples, %.2f%%)</title>"
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
			"fill=\"rgb(%d,%d,%d)\" rx=\"2\"/>", n->count, 100.0 * n->count / total,
			x, y, w, FLAME_ROW - 1, 205 + (int)(h % 50), 80 + (int)((h >> 8) % 130),
			(int)((h >> 16) % 55));
		if (w > 3 * FLAME_CHAR) {
			size_t fit = (size_t)(w / FLAME_CHAR) - 1;

			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + FLAME_ROW - 4);
			flame_xml(out, n->name, strlen(n->name) > fit ? fit - 2 : fit);
			fputs(strlen(n->name) > fit ? "..</text>" : "</text>", out);
		}
		fputs("</g>\n", out);
	}
	/* The callees in name order, left to right, from this node's left edge. */
	for (c = n->child; c; c = f->nodes[c].next)
		scratch[nr++] = c;
	qsort_r(scratch, nr, sizeof(*scratch), flame_by_name, f->nodes);
	for (k = 0; k < nr; k++) {
		uint32_t *mine = scratch + nr;

		c = scratch[k];
		flame_draw(f, out, c, x, i ? depth + 1 : 0, mine);
		x += f->nodes[c].count / total * FLAME_WIDTH;
	}
}

int flame_svg(const struct flame *f, FILE *out, const char *title)
{
	double height = FLAME_TOP + (double)(f->depth + 1) * FLAME_ROW;
	uint32_t *scratch;

	/* Each level's callees follow its caller's: at most every node once. */
	scratch = malloc((f->nr + 1) * sizeof(*scratch));
	if (!scratch)
		return -1;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"Verdana,sans-serif\" "
		"font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f8\"/>\n"
		"<text x=\"%.0f\" y=\"24\" text-anchor=\"middle\" font-size=\"17\">",
		FLAME_WIDTH, height, FLAME_WIDTH, height, FLAME_WIDTH / 2);
	flame_xml(out, title, SIZE_MAX);
	fputs("</text>\n", out);
	if (f->nodes[0].count)
		flame_draw(f, out, 0, 0, 0, scratch);
	fputs("</svg>\n", out);
	free(scratch);
	return ferror(out) ? -1 : 0;
}

static int flame_by_count(const void *a, const void *b, void *ctx)
{
	const struct fnode *nodes = ctx, *x = &nodes[*(const uint32_t *)a],
			   *y = &nodes[*(const uint32_t *)b];

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Node @i's line and its callees', from @depth, the hottest first. */
static void flame_lines(const struct flame *f, FILE *out, uint32_t i, unsigned int depth,
			double min, uint32_t *scratch)
{
	const struct fnode *n = &f->nodes[i];
	size_t nr = 0, k;
	uint32_t c;

	if (i) {
		fprintf(out, "%6.1f%%  %*s", 100.0 * n->count / f->nodes[0].count, 2 * depth, "");
		flame_text_name(out, n->name);
		fputc('\n', out);
	}
	for (c = n->child; c; c = f->nodes[c].next)
		if ((double)f->nodes[c].count >= min)
			scratch[nr++] = c;
	qsort_r(scratch, nr, sizeof(*scratch), flame_by_count, f->nodes);
	for (k = 0; k < nr; k++)
		flame_lines(f, out, scratch[k], i ? depth + 1 : 0, min, scratch + nr);
}

int flame_text(const struct flame *f, FILE *out, double min_share)
{
	uint32_t *scratch = malloc((f->nr + 1) * sizeof(*scratch));

	if (!scratch)
		return -1;
	flame_lines(f, out, 0, 0, min_share * (double)f->nodes[0].count, scratch);
	free(scratch);
	return ferror(out) ? -1 : 0;
}

void flame_free(struct flame *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 1; i < f->nr; i++)
		free(f->nodes[i].name);
	free(f->nodes);
	free(f->slots);
	free(f);
}
