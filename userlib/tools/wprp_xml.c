// SPDX-License-Identifier: GPL-2.0
/*
 * A profile file's XML as a tree of elements (wprp.h), with expat.
 *
 * A .wprp file refers to its parts by Id (a profile names its collectors
 * and providers, and each may name a Base to start from), often before
 * they are defined, so it is read whole into a tree first and resolved
 * afterwards (wprp.c). The tree keeps what the resolver reads: each
 * element's local name (namespaces dropped), attributes, children in
 * document order and its line; text and comments are skipped, as WPR's
 * schema puts nothing in text.
 *
 * Hostile files cost what their size does: the tree is at most
 * WPRP_MAX_ELEMENTS elements and WPRP_MAX_DEPTH deep, each element's
 * memory proportional to its bytes in the file, and expat reads no
 * external entity and (since 2.4) refuses entity expansions that blow up.
 */
#include <stdlib.h>
#include <string.h>

#include "wprp.h"

#ifdef NTTRACE_NO_EXPAT

int wprp_xml_parse(const char *xml, size_t len, struct wprp_doc *doc)
{
	memset(doc, 0, sizeof(*doc));
	snprintf(doc->why, sizeof(doc->why), "this nttrace was built without expat");
	return -1;
}

#else

#include <expat.h>

struct build {
	XML_Parser xp;
	struct wprp_doc *doc;
	struct wprp_el *cur;
	unsigned int depth;
};

static void stop(struct build *b, const char *why)
{
	if (!b->doc->why[0])
		snprintf(b->doc->why, sizeof(b->doc->why), "line %lu: %s",
			 (unsigned long)XML_GetCurrentLineNumber(b->xp), why);
	XML_StopParser(b->xp, XML_FALSE);
}

/* A copy of @s kept until wprp_doc_free(); NULL when out of memory. */
static char *keep(struct wprp_doc *doc, const char *s)
{
	size_t n = strlen(s) + 1;
	struct wprp_chunk *c = malloc(sizeof(*c) + n);

	if (!c)
		return NULL;
	c->next = doc->chunks;
	doc->chunks = c;
	memcpy(c->data, s, n);
	return c->data;
}

static void XMLCALL on_start(void *ctx, const XML_Char *name, const XML_Char **atts)
{
	struct build *b = ctx;
	struct wprp_el *e;
	const char *local = strrchr(name, '|');
	unsigned int n = 0, i;

	if (++b->depth > WPRP_MAX_DEPTH)
		return stop(b, "elements nested too deep");
	if (b->doc->n_elements >= WPRP_MAX_ELEMENTS)
		return stop(b, "too many elements");
	while (atts[n])
		n++;
	e = calloc(1, sizeof(*e) + (n + 1) * sizeof(e->attr[0]));
	if (!e)
		return stop(b, "out of memory");
	/* Linked first, so that wprp_doc_free() finds it whatever follows. */
	e->all = b->doc->all;
	b->doc->all = e;
	b->doc->n_elements++;
	e->line = XML_GetCurrentLineNumber(b->xp);
	e->name = keep(b->doc, local ? local + 1 : name);
	for (i = 0; i < n; i++) {
		/* Attributes have no namespace in WPR's schema: the local name. */
		local = i % 2 ? NULL : strrchr(atts[i], '|');
		e->attr[i] = keep(b->doc, local ? local + 1 : atts[i]);
		if (!e->attr[i])
			return stop(b, "out of memory");
	}
	if (!e->name)
		return stop(b, "out of memory");
	e->parent = b->cur;
	if (!b->cur)
		b->doc->root = e;
	else if (b->cur->last)
		b->cur->last->next = e;
	else
		b->cur->first = e;
	if (b->cur)
		b->cur->last = e;
	b->cur = e;
}

static void XMLCALL on_end(void *ctx, const XML_Char *name)
{
	struct build *b = ctx;

	b->depth--;
	if (b->cur)
		b->cur = b->cur->parent;
}

int wprp_xml_parse(const char *xml, size_t len, struct wprp_doc *doc)
{
	struct build b = { .doc = doc };
	int ok;

	memset(doc, 0, sizeof(*doc));
	if (len > WPRP_MAX_FILE) {
		snprintf(doc->why, sizeof(doc->why), "larger than %u MB", WPRP_MAX_FILE >> 20);
		return -1;
	}
	/* '|' cannot be in a local name: "URI|local". */
	b.xp = XML_ParserCreateNS(NULL, '|');
	if (!b.xp) {
		snprintf(doc->why, sizeof(doc->why), "out of memory");
		return -1;
	}
	XML_SetUserData(b.xp, &b);
	XML_SetElementHandler(b.xp, on_start, on_end);
	ok = XML_Parse(b.xp, xml, (int)len, XML_TRUE) == XML_STATUS_OK;
	if (!ok && !doc->why[0])
		snprintf(doc->why, sizeof(doc->why), "line %lu: %s",
			 (unsigned long)XML_GetCurrentLineNumber(b.xp),
			 XML_ErrorString(XML_GetErrorCode(b.xp)));
	XML_ParserFree(b.xp);
	if (!ok) {
		wprp_doc_free(doc);
		return -1;
	}
	return 0;
}

#endif

void wprp_doc_free(struct wprp_doc *doc)
{
	while (doc->all) {
		struct wprp_el *e = doc->all;

		doc->all = e->all;
		free(e);
	}
	while (doc->chunks) {
		struct wprp_chunk *c = doc->chunks;

		doc->chunks = c->next;
		free(c);
	}
	free(doc->index);
	doc->index = NULL;
	doc->index_size = 0;
	doc->root = NULL;
	doc->n_elements = 0;
}

const char *wprp_attr(const struct wprp_el *e, const char *name)
{
	unsigned int i;

	for (i = 0; e->attr[i]; i += 2)
		if (!strcmp(e->attr[i], name))
			return e->attr[i + 1];
	return NULL;
}
