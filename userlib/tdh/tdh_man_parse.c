// SPDX-License-Identifier: LGPL-2.1
/*
 * An instrumentation manifest's XML into a struct nttrace_man (tdh_man.h),
 * with expat (Debian's libexpat1-dev; a stream parser: the handlers below
 * see each element's start with its attributes, and its end).
 *
 * What is read, as the EventManifest schema names it (learn.microsoft.com,
 * "Writing an instrumentation manifest" and the schema's element pages):
 *   instrumentation/events/provider (name, guid, message)
 *     events/event (value, version, level, task, opcode, keywords,
 *                   channel, template, message, name)
 *     levels/level, tasks/task (and task/opcodes/opcode), opcodes/opcode,
 *     keywords/keyword (mask), channels/channel and importChannel (chid,
 *     value), maps/valueMap and bitMap with map (value, message),
 *     templates/template (tid) with data (name, inType, outType, count,
 *     length, map) and struct (name, count, length) holding data
 *   localization/resources (culture)/stringTable/string (id, value)
 * and the symbol attributes of the provider, events, levels, tasks, opcodes,
 * keywords, channels, maps and their entries, the provider's resourceFileName, messageFileName
 * and parameterFileName, a task's eventGUID, a channel's type, enabled and
 * isolation, a template's name: what a message compiler needs besides.
 * Everything else (filters, descriptions, namespaces' URIs) is skipped. References by name are resolved afterwards
 * (tdh_man_resolve.c): the string tables come last in a manifest.
 *
 * Only the XML is trusted as far as expat checks it: expat reads no
 * external entity (no handler is set for them) and, since 2.4, refuses
 * entity expansions that blow up ("billion laughs").
 */
#include <stdlib.h>
#include <string.h>

#include "tdh_man.h"

#ifdef NTTRACE_NO_EXPAT

ULONG nttrace_man_parse(const void *xml, size_t len, struct nttrace_man **out)
{
	*out = NULL;
	return ERROR_NOT_SUPPORTED;
}

ULONG nttrace_man_parse_diag(const void *xml, size_t len, struct nttrace_man **out,
			     struct nttrace_man_diag *diag)
{
	diag->line = 0;
	diag->what = "this library was built without expat";
	*out = NULL;
	return ERROR_NOT_SUPPORTED;
}

#else

#include <expat.h>

/* Deeper elements are walked through, but none of them is read. */
#define MAX_DEPTH	32

enum el {
	E_OTHER, E_INSTRUMENTATION, E_EVENTS, E_PROVIDER, E_EVENT, E_LEVELS, E_LEVEL,
	E_TASKS, E_TASK, E_OPCODES, E_OPCODE, E_KEYWORDS, E_KEYWORD, E_CHANNELS,
	E_CHANNEL, E_IMPORTCHANNEL, E_MAPS, E_VALUEMAP, E_BITMAP, E_MAP, E_TEMPLATES,
	E_TEMPLATE, E_DATA, E_STRUCT, E_LOCALIZATION, E_RESOURCES, E_STRINGTABLE,
	E_STRING,
};

static const char *const el_names[] = {
	[E_INSTRUMENTATION] = "instrumentation", [E_EVENTS] = "events",
	[E_PROVIDER] = "provider", [E_EVENT] = "event", [E_LEVELS] = "levels",
	[E_LEVEL] = "level", [E_TASKS] = "tasks", [E_TASK] = "task",
	[E_OPCODES] = "opcodes", [E_OPCODE] = "opcode", [E_KEYWORDS] = "keywords",
	[E_KEYWORD] = "keyword", [E_CHANNELS] = "channels", [E_CHANNEL] = "channel",
	[E_IMPORTCHANNEL] = "importChannel", [E_MAPS] = "maps", [E_VALUEMAP] = "valueMap",
	[E_BITMAP] = "bitMap", [E_MAP] = "map", [E_TEMPLATES] = "templates",
	[E_TEMPLATE] = "template", [E_DATA] = "data", [E_STRUCT] = "struct",
	[E_LOCALIZATION] = "localization", [E_RESOURCES] = "resources",
	[E_STRINGTABLE] = "stringTable", [E_STRING] = "string",
};

struct ps {
	struct nttrace_man *m;
	XML_Parser xp;
	ULONG err;
	unsigned int depth;
	enum el stack[MAX_DEPTH];
	enum el opened[MAX_DEPTH];	/* what the element there opened, to close */
	struct nttrace_man_provider *prov;	/* the provider open, if any */
	int task;		/* the task open (its index), or -1 */
	struct nttrace_man_map *map;
	struct nttrace_man_template *tmpl;
	int32_t strct;		/* the struct open (its data index), or -1 */
	const char *culture;
	enum el opening;	/* set by a handler that opens a context */
	const char *why;	/* what a handler refused, for nttrace_man_parse_diag() */
	unsigned long why_line;
};

/* The line of the element being read (a compiler's messages name it). */
static uint32_t line(const struct ps *s)
{
	XML_Size l = XML_GetCurrentLineNumber(s->xp);

	return l > UINT32_MAX ? UINT32_MAX : (uint32_t)l;
}

static enum el element(const char *name)
{
	/* "URI|local" (XML_ParserCreateNS's form): the local name decides. */
	const char *local = strrchr(name, '|');
	size_t i;

	local = local ? local + 1 : name;
	for (i = 1; i < sizeof(el_names) / sizeof(el_names[0]); i++)
		if (!strcmp(el_names[i], local))
			return i;
	return E_OTHER;
}

static const char *attr(const XML_Char **atts, const char *name)
{
	for (; atts[0]; atts += 2)
		if (!strcmp(atts[0], name))
			return atts[1];
	return NULL;
}

static int hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}, the braces optional. */
static int guid(const char *s, GUID *g)
{
	static const int dash[] = { 8, 13, 18, 23 };
	uint8_t b[16] = { 0 };
	size_t len = strlen(s), i, k = 0;

	if (len == 38 && s[0] == '{' && s[37] == '}') {
		s++;
		len -= 2;
	}
	if (len != 36)
		return -1;
	for (i = 0; i < 4; i++)
		if (s[dash[i]] != '-')
			return -1;
	for (i = 0; i < 36; i++) {
		int d = hexdigit(s[i]);

		if (s[i] == '-')
			continue;
		if (d < 0)
			return -1;
		b[k / 2] |= d << (k & 1 ? 0 : 4);
		k++;
	}
	g->Data1 = (uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
	g->Data2 = b[4] << 8 | b[5];
	g->Data3 = b[6] << 8 | b[7];
	memcpy(g->Data4, b + 8, 8);
	return 0;
}

static void fail(struct ps *s, ULONG err)
{
	if (!s->err) {
		s->err = err;
		s->why_line = line(s);
	}
	XML_StopParser(s->xp, XML_FALSE);
}

/* A copy of attribute @name in the arena (NULL when absent). */
static const char *dup(struct ps *s, const XML_Char **atts, const char *name)
{
	const char *v = attr(atts, name);
	char *d;

	if (!v)
		return NULL;
	d = nttrace_man_strdup(s->m, v);
	if (!d)
		fail(s, ERROR_NOT_ENOUGH_MEMORY);
	return d;
}

/* Attribute @name as a number up to @max: 1 when there, 0 absent, -1 bad. */
static int num_attr(struct ps *s, const XML_Char **atts, const char *name, uint64_t max,
		    uint64_t *v)
{
	const char *a = attr(atts, name);

	if (!a)
		return 0;
	if (nttrace_man_number(a, max, v)) {
		fail(s, ERROR_XML_PARSE_ERROR);
		return -1;
	}
	return 1;
}

static void *push(struct ps *s, void *v, uint32_t *n, uint32_t *cap, size_t size)
{
	void *e = nttrace_man_push(s->m, v, n, cap, size);

	if (!e)
		fail(s, ERROR_NOT_ENOUGH_MEMORY);
	return e;
}

static void provider(struct ps *s, const XML_Char **atts)
{
	struct nttrace_man *m = s->m;
	struct nttrace_man_provider *p;
	const char *g = attr(atts, "guid");

	p = push(s, &m->provs, &m->nprovs, &m->capprovs, sizeof(*p));
	if (!p)
		return;
	if (!g || guid(g, &p->guid)) {
		fail(s, ERROR_XML_PARSE_ERROR);
		return;
	}
	p->name = dup(s, atts, "name");
	p->message_s = dup(s, atts, "message");
	p->symbol = dup(s, atts, "symbol");
	p->resource_file = dup(s, atts, "resourceFileName");
	p->message_file = dup(s, atts, "messageFileName");
	p->parameter_file = dup(s, atts, "parameterFileName");
	p->line = line(s);
	s->prov = p;
	s->opening = E_PROVIDER;
}

static void event(struct ps *s, const XML_Char **atts)
{
	struct nttrace_man_provider *p = s->prov;
	struct nttrace_man_event *e;
	uint64_t v = 0;

	e = push(s, &p->events, &p->nevents, &p->capevents, sizeof(*e));
	if (!e)
		return;
	if (num_attr(s, atts, "value", 0xFFFF, &v) != 1) {
		fail(s, ERROR_XML_PARSE_ERROR);
		return;
	}
	e->id = (uint16_t)v;
	e->line = line(s);
	v = 0;
	if (num_attr(s, atts, "version", 0xFF, &v) < 0)
		return;
	e->version = (uint8_t)v;
	e->name = dup(s, atts, "name");
	e->symbol = dup(s, atts, "symbol");
	e->level_s = dup(s, atts, "level");
	e->task_s = dup(s, atts, "task");
	e->opcode_s = dup(s, atts, "opcode");
	e->channel_s = dup(s, atts, "channel");
	e->keywords_s = dup(s, atts, "keywords");
	e->template_s = dup(s, atts, "template");
	e->message_s = dup(s, atts, "message");
}

/* A level, task, opcode, keyword or channel: its value attribute @vname. */
static struct nttrace_man_item *item(struct ps *s, struct nttrace_man_list *l,
				     const XML_Char **atts, const char *vname, uint64_t max,
				     int need_value)
{
	struct nttrace_man_item *it = push(s, &l->v, &l->n, &l->cap, sizeof(*it));
	int got;

	if (!it)
		return NULL;
	it->name = dup(s, atts, "name");
	it->message_s = dup(s, atts, "message");
	it->symbol = dup(s, atts, "symbol");
	it->line = line(s);
	got = num_attr(s, atts, vname, max, &it->value);
	if (got < 0 || !it->name || (need_value && !got)) {
		fail(s, ERROR_XML_PARSE_ERROR);
		return NULL;
	}
	it->has_value = got;
	return it;
}

static void task(struct ps *s, const XML_Char **atts)
{
	struct nttrace_man_item *it = item(s, &s->prov->tasks, atts, "value", 0xFFFF, 1);
	const char *g = attr(atts, "eventGUID");

	if (!it)
		return;
	if (g) {
		if (guid(g, &it->guid)) {
			fail(s, ERROR_XML_PARSE_ERROR);
			return;
		}
		it->has_guid = 1;
	}
	s->task = s->prov->tasks.n - 1;
	s->opening = E_TASK;
}

static void opcode(struct ps *s, const XML_Char **atts)
{
	struct nttrace_man_item *it = item(s, &s->prov->opcodes, atts, "value", 0xFF, 1);

	if (it && s->task >= 0 && (uint32_t)s->task < s->prov->tasks.n) {
		it->in_task = 1;
		it->task = (uint16_t)s->prov->tasks.v[s->task].value;
	}
}

static void channel(struct ps *s, const XML_Char **atts, int import)
{
	struct nttrace_man_item *it = item(s, &s->prov->channels, atts, "value", 0xFF, 0);
	const struct nttrace_man_item *w;

	if (!it)
		return;
	it->chid = dup(s, atts, "chid");
	it->type = dup(s, atts, "type");
	it->enabled = dup(s, atts, "enabled");
	it->isolation = dup(s, atts, "isolation");
	it->imported = import;
	/* An imported channel is winmeta.xml's (System, Application...). */
	if (import && !it->has_value) {
		w = nttrace_man_winmeta(MAN_CHANNEL, it->name);
		if (!w) {
			fail(s, ERROR_XML_PARSE_ERROR);
			return;
		}
		it->value = w->value;
		it->has_value = 1;
	}
}

static void map(struct ps *s, const XML_Char **atts, int bitmap)
{
	struct nttrace_man_provider *p = s->prov;
	struct nttrace_man_map *mp = push(s, &p->maps, &p->nmaps, &p->capmaps, sizeof(*mp));

	if (!mp)
		return;
	mp->name = dup(s, atts, "name");
	mp->symbol = dup(s, atts, "symbol");
	mp->bitmap = bitmap;
	if (!mp->name)
		fail(s, ERROR_XML_PARSE_ERROR);
	s->map = mp;
	s->opening = bitmap ? E_BITMAP : E_VALUEMAP;
}

static void map_entry(struct ps *s, const XML_Char **atts)
{
	struct nttrace_man_map *mp = s->map;
	struct nttrace_man_map_entry *e = push(s, &mp->v, &mp->n, &mp->cap, sizeof(*e));
	uint64_t v;

	if (!e)
		return;
	if (num_attr(s, atts, "value", 0xFFFFFFFF, &v) != 1) {
		fail(s, ERROR_XML_PARSE_ERROR);
		return;
	}
	e->value = (uint32_t)v;
	e->message_s = dup(s, atts, "message");
	e->symbol = dup(s, atts, "symbol");
}

static void template(struct ps *s, const XML_Char **atts)
{
	struct nttrace_man_provider *p = s->prov;
	struct nttrace_man_template *t = push(s, &p->tmpls, &p->ntmpls, &p->captmpls,
					      sizeof(*t));

	if (!t)
		return;
	t->tid = dup(s, atts, "tid");
	t->name = dup(s, atts, "name");
	t->line = line(s);
	if (!t->tid)
		fail(s, ERROR_XML_PARSE_ERROR);
	s->tmpl = t;
	s->opening = E_TEMPLATE;
}

static void data(struct ps *s, const XML_Char **atts, int is_struct)
{
	struct nttrace_man_template *t = s->tmpl;
	struct nttrace_man_data *d = push(s, &t->v, &t->n, &t->cap, sizeof(*d));

	if (!d)
		return;
	d->parent = s->strct;
	d->line = line(s);
	d->is_struct = is_struct;
	d->name = dup(s, atts, "name");
	d->count_s = dup(s, atts, "count");
	d->length_s = dup(s, atts, "length");
	if (!is_struct) {
		d->in_s = dup(s, atts, "inType");
		d->out_s = dup(s, atts, "outType");
		d->map_s = dup(s, atts, "map");
	}
	/* Structures hold data only (the schema's StructType). */
	if (!d->name || (!is_struct && !d->in_s) || (is_struct && s->strct >= 0)) {
		fail(s, ERROR_XML_PARSE_ERROR);
		return;
	}
	if (is_struct) {
		s->strct = t->n - 1;
		s->opening = E_STRUCT;
	}
}

static void string(struct ps *s, const XML_Char **atts)
{
	struct nttrace_man *m = s->m;
	struct nttrace_man_string *st = push(s, &m->strings, &m->nstrings, &m->capstrings,
					     sizeof(*st));

	if (!st)
		return;
	st->culture = s->culture;
	st->id = dup(s, atts, "id");
	st->value = dup(s, atts, "value");
	if (!st->id || !st->value)
		fail(s, ERROR_XML_PARSE_ERROR);
}

static void XMLCALL start(void *user, const XML_Char *name, const XML_Char **atts)
{
	struct ps *s = user;
	enum el e, up, up2;
	int in_prov;

	/* Past MAX_DEPTH only counted, so that their ends match. */
	if (s->depth >= MAX_DEPTH) {
		s->depth++;
		return;
	}
	e = element(name);
	up = s->depth ? s->stack[s->depth - 1] : E_OTHER;
	up2 = s->depth > 1 ? s->stack[s->depth - 2] : E_OTHER;
	in_prov = s->prov && up2 == E_PROVIDER;
	/* A provider in a provider (under elements of other names) is not read. */
	if (e == E_PROVIDER && up == E_EVENTS && up2 == E_INSTRUMENTATION && !s->prov)
		provider(s, atts);
	else if (e == E_EVENT && up == E_EVENTS && in_prov)
		event(s, atts);
	else if (e == E_LEVEL && up == E_LEVELS && in_prov)
		item(s, &s->prov->levels, atts, "value", 0xFF, 1);
	else if (e == E_TASK && up == E_TASKS && in_prov && s->task < 0)
		task(s, atts);
	else if (e == E_OPCODE && up == E_OPCODES && (in_prov || (s->prov && up2 == E_TASK)))
		opcode(s, atts);
	else if (e == E_KEYWORD && up == E_KEYWORDS && in_prov)
		item(s, &s->prov->keywords, atts, "mask", UINT64_MAX, 1);
	else if ((e == E_CHANNEL || e == E_IMPORTCHANNEL) && up == E_CHANNELS && in_prov)
		channel(s, atts, e == E_IMPORTCHANNEL);
	else if ((e == E_VALUEMAP || e == E_BITMAP) && up == E_MAPS && in_prov && !s->map)
		map(s, atts, e == E_BITMAP);
	else if (e == E_MAP && s->map && (up == E_VALUEMAP || up == E_BITMAP))
		map_entry(s, atts);
	else if (e == E_TEMPLATE && up == E_TEMPLATES && in_prov && !s->tmpl)
		template(s, atts);
	else if ((e == E_DATA || e == E_STRUCT) && s->tmpl && (up == E_TEMPLATE || up == E_STRUCT))
		data(s, atts, e == E_STRUCT);
	else if (e == E_RESOURCES && up == E_LOCALIZATION) {
		s->culture = dup(s, atts, "culture");
		s->opening = E_RESOURCES;
	}
	else if (e == E_STRING && up == E_STRINGTABLE && up2 == E_RESOURCES)
		string(s, atts);
	s->opened[s->depth] = e != E_OTHER && s->opening == e ? e : E_OTHER;
	s->opening = E_OTHER;
	s->stack[s->depth++] = e;
}

static void XMLCALL end(void *user, const XML_Char *name)
{
	struct ps *s = user;
	enum el e;

	if (!s->depth)
		return;
	if (--s->depth >= MAX_DEPTH)
		return;
	/* Only the element that opened a context closes it. */
	e = s->opened[s->depth];
	if (e == E_PROVIDER)
		s->prov = NULL;
	else if (e == E_TASK)
		s->task = -1;
	else if (e == E_VALUEMAP || e == E_BITMAP)
		s->map = NULL;
	else if (e == E_TEMPLATE)
		s->tmpl = NULL;
	else if (e == E_STRUCT)
		s->strct = -1;
	else if (e == E_RESOURCES)
		s->culture = NULL;
}

ULONG nttrace_man_parse(const void *xml, size_t len, struct nttrace_man **out)
{
	struct nttrace_man_diag diag;

	return nttrace_man_parse_diag(xml, len, out, &diag);
}

ULONG nttrace_man_parse_diag(const void *xml, size_t len, struct nttrace_man **out,
			     struct nttrace_man_diag *diag)
{
	struct ps s = { .task = -1, .strct = -1 };
	ULONG err;

	*out = NULL;
	diag->line = 0;
	diag->what = NULL;
	if (len > INT32_MAX)
		return ERROR_NOT_ENOUGH_MEMORY;
	s.m = calloc(1, sizeof(*s.m));
	/* '|' cannot be in a namespace URI's local name: "URI|local". */
	s.xp = s.m ? XML_ParserCreateNS(NULL, '|') : NULL;
	if (!s.xp) {
		free(s.m);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	XML_SetUserData(s.xp, &s);
	XML_SetElementHandler(s.xp, start, end);
	if (XML_Parse(s.xp, xml, (int)len, XML_TRUE) != XML_STATUS_OK && !s.err) {
		s.err = XML_GetErrorCode(s.xp) == XML_ERROR_NO_MEMORY ? ERROR_NOT_ENOUGH_MEMORY :
			ERROR_XML_PARSE_ERROR;
		diag->line = XML_GetCurrentLineNumber(s.xp);
		diag->what = XML_ErrorString(XML_GetErrorCode(s.xp));
	} else if (s.err) {
		diag->line = s.why_line;
		diag->what = "an element lacks an attribute it needs, or has one of a bad value";
	}
	XML_ParserFree(s.xp);
	err = s.err ? s.err : nttrace_man_resolve(s.m);
	if (err && !s.err) {
		diag->line = s.m->bad_line;
		diag->what = s.m->bad_what;
	}
	if (err) {
		nttrace_man_free(s.m);
		return err;
	}
	*out = s.m;
	return ERROR_SUCCESS;
}

#endif /* NTTRACE_NO_EXPAT */
