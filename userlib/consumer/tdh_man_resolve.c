// SPDX-License-Identifier: LGPL-2.1
/*
 * A manifest's references by name, resolved once it is read
 * (tdh_man_parse.c): $(string.ID) messages from the string table; an
 * event's level, task, opcode, keywords and channel (the provider's own,
 * else winmeta.xml's) and its template; a field's inType, outType, map,
 * and a count or length that names another field.
 *
 * As the message compiler (mc.exe) would, a manifest that names what it
 * does not define is refused (ERROR_XML_PARSE_ERROR, "the manifest did not
 * pass validation" in TdhLoadManifest's words), and so is an inType this
 * library does not know: it could not tell where the later fields start.
 * An unknown outType only changes how a value is shown: it is TDH_OUTTYPE_
 * NULL (the inType's own way), as TDH takes an OutType it does not know.
 *
 * Chosen here, where Microsoft says nothing:
 *  - the culture: the string table whose culture is the locale's (LC_ALL,
 *    LC_MESSAGES or LANG: de_DE.UTF-8 is de-DE), else en-US's, else the
 *    first; a string missing from it is taken from any other;
 *  - a channel with no value gets 16, 17, ... in the order of the manifest
 *    (the values mc.exe starts user channels at);
 *  - a count or length names a field before it in the same structure, or
 *    at the top level; it must be no structure itself.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tdh_man.h"

struct rs {
	struct nttrace_man *m;
	const char *culture;
	ULONG err;
};

static const char *locale_culture(char *buf, size_t size)
{
	const char *env = getenv("LC_ALL");
	size_t i;

	if (!env || !*env)
		env = getenv("LC_MESSAGES");
	if (!env || !*env)
		env = getenv("LANG");
	if (!env)
		return NULL;
	for (i = 0; i + 1 < size && env[i] && env[i] != '.' && env[i] != '@'; i++)
		buf[i] = env[i] == '_' ? '-' : env[i];
	buf[i] = 0;
	return buf;
}

static const char *pick_culture(const struct nttrace_man *m)
{
	const char *want[2] = { NULL, "en-US" };
	char buf[32];
	uint32_t i, k;

	want[0] = locale_culture(buf, sizeof(buf));
	for (k = 0; k < 2; k++)
		for (i = 0; want[k] && i < m->nstrings; i++)
			if (m->strings[i].culture && !strcasecmp(m->strings[i].culture, want[k]))
				return m->strings[i].culture;
	return m->nstrings ? m->strings[0].culture : NULL;
}

static const char *lookup_string(const struct rs *r, const char *id, size_t n)
{
	const struct nttrace_man *m = r->m;
	const char *any = NULL;
	uint32_t i;

	for (i = 0; i < m->nstrings; i++) {
		const struct nttrace_man_string *s = &m->strings[i];

		if (strlen(s->id) != n || memcmp(s->id, id, n))
			continue;
		if (s->culture == r->culture)
			return s->value;
		if (!any)
			any = s->value;
	}
	return any;
}

/* A message attribute: $(string.ID), or text as it is. */
static const char *message(struct rs *r, const char *s)
{
	static const char ref[] = "$(string.";
	size_t n;
	const char *v;

	if (!s || strncmp(s, ref, sizeof(ref) - 1))
		return s;
	n = strlen(s);
	if (s[n - 1] != ')') {
		r->err = ERROR_XML_PARSE_ERROR;
		return NULL;
	}
	v = lookup_string(r, s + sizeof(ref) - 1, n - sizeof(ref));
	if (!v)
		r->err = ERROR_XML_PARSE_ERROR;
	return v;
}

static void messages(struct rs *r, struct nttrace_man_list *l)
{
	uint32_t i;

	for (i = 0; i < l->n; i++)
		l->v[i].message = message(r, l->v[i].message_s);
}

/* The provider's item named @name, else winmeta.xml's; NULL if none. */
static const struct nttrace_man_item *find(const struct nttrace_man_list *l,
					   enum nttrace_man_kind kind, const char *name)
{
	uint32_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name) || (l->v[i].chid && !strcmp(l->v[i].chid, name)))
			return &l->v[i];
	return nttrace_man_winmeta(kind, name);
}

static const struct nttrace_man_item *find_opcode(const struct nttrace_man_provider *p,
						  const struct nttrace_man_event *e)
{
	uint32_t i;

	/* An opcode of the event's task comes first: task opcodes may repeat names. */
	for (i = 0; e->task_s && i < p->opcodes.n; i++)
		if (p->opcodes.v[i].in_task && p->opcodes.v[i].task == e->task &&
		    !strcmp(p->opcodes.v[i].name, e->opcode_s))
			return &p->opcodes.v[i];
	for (i = 0; i < p->opcodes.n; i++)
		if (!p->opcodes.v[i].in_task && !strcmp(p->opcodes.v[i].name, e->opcode_s))
			return &p->opcodes.v[i];
	return nttrace_man_winmeta(MAN_OPCODE, e->opcode_s);
}

static ULONG keywords(const struct nttrace_man_provider *p, const char *list, uint64_t *mask)
{
	char *copy = strdup(list), *save = NULL, *w;
	ULONG err = ERROR_SUCCESS;

	if (!copy)
		return ERROR_NOT_ENOUGH_MEMORY;
	for (w = strtok_r(copy, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		const struct nttrace_man_item *k = find(&p->keywords, MAN_KEYWORD, w);

		if (!k) {
			err = ERROR_XML_PARSE_ERROR;
			break;
		}
		*mask |= k->value;
	}
	free(copy);
	return err;
}

static ULONG event(struct rs *r, const struct nttrace_man_provider *p, struct nttrace_man_event *e)
{
	uint32_t i;

	if (e->level_s) {
		e->level_i = find(&p->levels, MAN_LEVEL, e->level_s);
		if (!e->level_i)
			return ERROR_XML_PARSE_ERROR;
		e->level = (uint8_t)e->level_i->value;
	}
	if (e->task_s) {
		e->task_i = find(&p->tasks, MAN_TASK, e->task_s);
		if (!e->task_i)
			return ERROR_XML_PARSE_ERROR;
		e->task = (uint16_t)e->task_i->value;
	}
	if (e->opcode_s) {
		e->opcode_i = find_opcode(p, e);
		if (!e->opcode_i)
			return ERROR_XML_PARSE_ERROR;
		e->opcode = (uint8_t)e->opcode_i->value;
	}
	if (e->channel_s) {
		e->channel_i = find(&p->channels, MAN_CHANNEL, e->channel_s);
		if (!e->channel_i)
			return ERROR_XML_PARSE_ERROR;
		e->channel = (uint8_t)e->channel_i->value;
	}
	if (e->keywords_s) {
		ULONG err = keywords(p, e->keywords_s, &e->keywords);

		if (err)
			return err;
	}
	if (e->template_s) {
		for (i = 0; i < p->ntmpls && strcmp(p->tmpls[i].tid, e->template_s); i++)
			;
		if (i == p->ntmpls)
			return ERROR_XML_PARSE_ERROR;
		e->tmpl = &p->tmpls[i];
	}
	e->message = message(r, e->message_s);
	return ERROR_SUCCESS;
}

/* A count or length: a number, or the name of a field before @i. */
static int param(const struct nttrace_man_template *t, uint32_t i, const char *s,
		 uint32_t *v, uint8_t *ref)
{
	const struct nttrace_man_data *d = &t->v[i];
	uint64_t n;
	uint32_t j;

	if (!nttrace_man_number(s, 0xFFFF, &n)) {
		*v = (uint32_t)n;
		return 0;
	}
	for (j = i; j-- > 0;) {
		const struct nttrace_man_data *o = &t->v[j];

		if ((o->parent == d->parent || o->parent < 0) && !o->is_struct &&
		    !strcmp(o->name, s)) {
			*v = j;
			*ref = 1;
			return 0;
		}
	}
	return -1;
}

static ULONG template(const struct nttrace_man_provider *p, struct nttrace_man_template *t)
{
	uint32_t i, k;

	for (i = 0; i < t->n; i++) {
		struct nttrace_man_data *d = &t->v[i];

		if (d->count_s) {
			d->has_count = 1;
			if (param(t, i, d->count_s, &d->count, &d->count_ref))
				return ERROR_XML_PARSE_ERROR;
		}
		if (d->length_s) {
			d->has_length = 1;
			if (param(t, i, d->length_s, &d->length, &d->length_ref))
				return ERROR_XML_PARSE_ERROR;
		}
		if (d->is_struct)
			continue;
		d->in = nttrace_man_intype(d->in_s);
		if (!d->in)
			return ERROR_XML_PARSE_ERROR;
		d->out = d->out_s ? nttrace_man_outtype(d->out_s) : TDH_OUTTYPE_NULL;
		if (!d->map_s)
			continue;
		for (k = 0; k < p->nmaps && strcmp(p->maps[k].name, d->map_s); k++)
			;
		if (k == p->nmaps)
			return ERROR_XML_PARSE_ERROR;
		d->map = &p->maps[k];
	}
	return ERROR_SUCCESS;
}

static ULONG provider(struct rs *r, struct nttrace_man_provider *p)
{
	uint32_t i, k, next = 16;
	ULONG err = ERROR_SUCCESS;

	p->message = message(r, p->message_s);
	messages(r, &p->levels);
	messages(r, &p->tasks);
	messages(r, &p->opcodes);
	messages(r, &p->keywords);
	messages(r, &p->channels);
	for (i = 0; i < p->channels.n; i++)
		if (!p->channels.v[i].has_value && next <= 0xFF)
			p->channels.v[i].value = next++;
	for (i = 0; i < p->nmaps; i++)
		for (k = 0; k < p->maps[i].n; k++)
			p->maps[i].v[k].message = message(r, p->maps[i].v[k].message_s);
	for (i = 0; i < p->ntmpls && !err; i++)
		err = template(p, &p->tmpls[i]);
	for (i = 0; i < p->nevents && !err; i++)
		err = event(r, p, &p->events[i]);
	return err ? err : r->err;
}

ULONG nttrace_man_resolve(struct nttrace_man *m)
{
	struct rs r = { m, pick_culture(m), ERROR_SUCCESS };
	ULONG err = ERROR_SUCCESS;
	uint32_t i;

	for (i = 0; i < m->nprovs && !err; i++)
		err = provider(&r, &m->provs[i]);
	return err;
}
