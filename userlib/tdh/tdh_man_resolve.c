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
 *
 * Every lookup by name goes through a sorted index (struct key), built
 * once per table: a manifest of n names and references takes O(n log n)
 * comparisons, where a scan per reference would take n^2 (nttrace_man_steps
 * counts them, for tests of that growth).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tdh_man.h"

unsigned long nttrace_man_steps;

/*
 * A name, a group it is looked up in (an opcode's task, a field's
 * structure, a string's culture: the one picked or another) and the
 * position of what it names in its table.
 */
struct key {
	const char *name;
	int32_t group;
	uint32_t pos;
};

/* Sorted by name, group, position: the first of a name and group is the first defined. */
static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	nttrace_man_steps++;
	if (c)
		return c;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The index of the first key not before (@name, @group, @pos): @n if none. */
static uint32_t lower(const struct key *k, uint32_t n, const char *name, int32_t group,
		      uint32_t pos)
{
	struct key want = { name, group, pos };
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (key_cmp(&k[mid], &want) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int is(const struct key *k, const char *name, int32_t group)
{
	return !strcmp(k->name, name) && k->group == group;
}

/* The position of the first key of @name in @group; -1 if none. */
static int64_t first(const struct key *k, uint32_t n, const char *name, int32_t group)
{
	uint32_t i = lower(k, n, name, group, 0);

	return i < n && is(&k[i], name, group) ? (int64_t)k[i].pos : -1;
}

/* The position of the last key of @name in @group before position @pos; -1 if none. */
static int64_t last_before(const struct key *k, uint32_t n, const char *name, int32_t group,
			   uint32_t pos)
{
	uint32_t i = lower(k, n, name, group, pos);

	return i > 0 && is(&k[i - 1], name, group) ? (int64_t)k[i - 1].pos : -1;
}

/* @k sorted (@n keys; NULL when @n is 0). */
static void sort_keys(struct key *k, uint32_t n)
{
	if (n)
		qsort(k, n, sizeof(*k), key_cmp);
}

/* A list's items by name, and channels by chid too; NULL when out of memory. */
static struct key *list_keys(const struct nttrace_man_list *l, uint32_t *n)
{
	struct key *k = malloc((2 * (size_t)l->n + 1) * sizeof(*k));
	uint32_t i;

	*n = 0;
	for (i = 0; k && i < l->n; i++) {
		k[(*n)++] = (struct key){ l->v[i].name, 0, i };
		if (l->v[i].chid)
			k[(*n)++] = (struct key){ l->v[i].chid, 0, i };
	}
	if (k)
		sort_keys(k, *n);
	return k;
}

/* One provider's indexes. */
struct pkeys {
	struct key *levels, *tasks, *opcodes, *keywords, *channels, *tmpls, *maps;
	uint32_t nlevels, ntasks, nopcodes, nkeywords, nchannels, ntmpls, nmaps;
};

struct rs {
	struct nttrace_man *m;
	const char *culture;
	ULONG err;
	struct key *strings;	/* by ID, the picked culture's first */
	struct pkeys pk;	/* the provider's being resolved */
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

/* String @id (@n bytes): the picked culture's, else the first of any. */
static const char *lookup_string(struct rs *r, const char *id, size_t n)
{
	char *name = strndup(id, n);
	int64_t i;

	if (!name) {
		r->err = ERROR_NOT_ENOUGH_MEMORY;
		return NULL;
	}
	i = first(r->strings, r->m->nstrings, name, 0);
	if (i < 0)
		i = first(r->strings, r->m->nstrings, name, 1);
	free(name);
	return i < 0 ? NULL : r->m->strings[i].value;
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
	if (!v && !r->err)
		r->err = ERROR_XML_PARSE_ERROR;
	return v;
}

static void messages(struct rs *r, struct nttrace_man_list *l)
{
	uint32_t i;

	for (i = 0; i < l->n; i++)
		l->v[i].message = message(r, l->v[i].message_s);
}

/*
 * The provider's item named @name (or, a channel, of that chid) in list
 * @l, whose index is @k (@n keys), else winmeta.xml's; NULL if none.
 */
static const struct nttrace_man_item *find(const struct nttrace_man_list *l,
					   const struct key *k, uint32_t n,
					   enum nttrace_man_kind kind, const char *name)
{
	int64_t i = first(k, n, name, 0);

	return i >= 0 ? &l->v[i] : nttrace_man_winmeta(kind, name);
}

/* The opcodes' index: a task's by its value, the others in group -1. */
static struct key *opcode_keys(const struct nttrace_man_list *l, uint32_t *n)
{
	struct key *k = malloc(((size_t)l->n + 1) * sizeof(*k));
	uint32_t i;

	*n = 0;
	for (i = 0; k && i < l->n; i++)
		k[(*n)++] = (struct key){ l->v[i].name, l->v[i].in_task ? l->v[i].task : -1, i };
	if (k)
		sort_keys(k, *n);
	return k;
}

static const struct nttrace_man_item *find_opcode(const struct rs *r,
						  const struct nttrace_man_provider *p,
						  const struct nttrace_man_event *e)
{
	int64_t i = -1;

	/* An opcode of the event's task comes first: task opcodes may repeat names. */
	if (e->task_s)
		i = first(r->pk.opcodes, r->pk.nopcodes, e->opcode_s, e->task);
	if (i < 0)
		i = first(r->pk.opcodes, r->pk.nopcodes, e->opcode_s, -1);
	return i >= 0 ? &p->opcodes.v[i] : nttrace_man_winmeta(MAN_OPCODE, e->opcode_s);
}

static ULONG keywords(const struct rs *r, const struct nttrace_man_provider *p,
		      const char *list, uint64_t *mask)
{
	char *copy = strdup(list), *save = NULL, *w;
	ULONG err = ERROR_SUCCESS;

	if (!copy)
		return ERROR_NOT_ENOUGH_MEMORY;
	for (w = strtok_r(copy, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		const struct nttrace_man_item *k = find(&p->keywords, r->pk.keywords,
							r->pk.nkeywords, MAN_KEYWORD, w);

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
	int64_t i;

	if (e->level_s) {
		e->level_i = find(&p->levels, r->pk.levels, r->pk.nlevels, MAN_LEVEL, e->level_s);
		if (!e->level_i)
			return ERROR_XML_PARSE_ERROR;
		e->level = (uint8_t)e->level_i->value;
	}
	if (e->task_s) {
		e->task_i = find(&p->tasks, r->pk.tasks, r->pk.ntasks, MAN_TASK, e->task_s);
		if (!e->task_i)
			return ERROR_XML_PARSE_ERROR;
		e->task = (uint16_t)e->task_i->value;
	}
	if (e->opcode_s) {
		e->opcode_i = find_opcode(r, p, e);
		if (!e->opcode_i)
			return ERROR_XML_PARSE_ERROR;
		e->opcode = (uint8_t)e->opcode_i->value;
	}
	if (e->channel_s) {
		e->channel_i = find(&p->channels, r->pk.channels, r->pk.nchannels, MAN_CHANNEL,
				    e->channel_s);
		if (!e->channel_i)
			return ERROR_XML_PARSE_ERROR;
		e->channel = (uint8_t)e->channel_i->value;
	}
	if (e->keywords_s) {
		ULONG err = keywords(r, p, e->keywords_s, &e->keywords);

		if (err)
			return err;
	}
	if (e->template_s) {
		i = first(r->pk.tmpls, r->pk.ntmpls, e->template_s, 0);
		if (i < 0)
			return ERROR_XML_PARSE_ERROR;
		e->tmpl = &p->tmpls[i];
	}
	e->message = message(r, e->message_s);
	return ERROR_SUCCESS;
}

/*
 * A count or length: a number, or the name of a field before @i, the
 * nearest: in @i's structure, else at the top level (a structure's
 * members follow it, so that a member of it comes after every field at
 * the top level before it). @k indexes the template's fields that are no
 * structure, grouped by their structure.
 */
static int param(const struct nttrace_man_template *t, const struct key *k, uint32_t nk,
		 uint32_t i, const char *s, uint32_t *v, uint8_t *ref)
{
	const struct nttrace_man_data *d = &t->v[i];
	uint64_t n;
	int64_t j;

	if (!nttrace_man_number(s, 0xFFFF, &n)) {
		*v = (uint32_t)n;
		return 0;
	}
	j = last_before(k, nk, s, d->parent, i);
	if (j < 0 && d->parent >= 0)
		j = last_before(k, nk, s, -1, i);
	if (j < 0)
		return -1;
	*v = (uint32_t)j;
	*ref = 1;
	return 0;
}

static ULONG template(const struct rs *r, const struct nttrace_man_provider *p,
		      struct nttrace_man_template *t)
{
	struct key *fk = malloc(((size_t)t->n + 1) * sizeof(*fk));
	ULONG err = ERROR_XML_PARSE_ERROR;
	uint32_t i, nk = 0;
	int64_t k;

	if (!fk)
		return ERROR_NOT_ENOUGH_MEMORY;
	for (i = 0; i < t->n; i++)
		if (!t->v[i].is_struct)
			fk[nk++] = (struct key){ t->v[i].name, t->v[i].parent < 0 ? -1 :
						 t->v[i].parent, i };
	sort_keys(fk, nk);
	for (i = 0; i < t->n; i++) {
		struct nttrace_man_data *d = &t->v[i];

		if (d->count_s) {
			d->has_count = 1;
			if (param(t, fk, nk, i, d->count_s, &d->count, &d->count_ref))
				goto out;
		}
		if (d->length_s) {
			d->has_length = 1;
			if (param(t, fk, nk, i, d->length_s, &d->length, &d->length_ref))
				goto out;
		}
		if (d->is_struct)
			continue;
		d->in = nttrace_man_intype(d->in_s);
		if (!d->in)
			goto out;
		d->out = d->out_s ? nttrace_man_outtype(d->out_s) : TDH_OUTTYPE_NULL;
		if (!d->map_s)
			continue;
		k = first(r->pk.maps, r->pk.nmaps, d->map_s, 0);
		if (k < 0)
			goto out;
		d->map = &p->maps[k];
	}
	err = ERROR_SUCCESS;
out:
	if (err && i < t->n) {
		r->m->bad_line = t->v[i].line;
		r->m->bad_what = "a template's data has an unknown inType or map, or a count or length that names no field before it";
	}
	free(fk);
	return err;
}

static void pkeys_free(struct pkeys *pk)
{
	free(pk->levels);
	free(pk->tasks);
	free(pk->opcodes);
	free(pk->keywords);
	free(pk->channels);
	free(pk->tmpls);
	free(pk->maps);
	memset(pk, 0, sizeof(*pk));
}

/* The provider's indexes, in @r; 0, or -1 when out of memory. */
static int pkeys_make(struct rs *r, const struct nttrace_man_provider *p)
{
	struct pkeys *pk = &r->pk;
	uint32_t i;

	pk->levels = list_keys(&p->levels, &pk->nlevels);
	pk->tasks = list_keys(&p->tasks, &pk->ntasks);
	pk->opcodes = opcode_keys(&p->opcodes, &pk->nopcodes);
	pk->keywords = list_keys(&p->keywords, &pk->nkeywords);
	pk->channels = list_keys(&p->channels, &pk->nchannels);
	pk->tmpls = malloc(((size_t)p->ntmpls + 1) * sizeof(*pk->tmpls));
	pk->maps = malloc(((size_t)p->nmaps + 1) * sizeof(*pk->maps));
	if (!pk->levels || !pk->tasks || !pk->opcodes || !pk->keywords || !pk->channels ||
	    !pk->tmpls || !pk->maps)
		return -1;
	for (i = 0; i < p->ntmpls; i++)
		pk->tmpls[i] = (struct key){ p->tmpls[i].tid, 0, i };
	pk->ntmpls = p->ntmpls;
	sort_keys(pk->tmpls, pk->ntmpls);
	for (i = 0; i < p->nmaps; i++)
		pk->maps[i] = (struct key){ p->maps[i].name, 0, i };
	pk->nmaps = p->nmaps;
	sort_keys(pk->maps, pk->nmaps);
	return 0;
}

/* An event's Id and Version as one number, and its position. */
struct event_key {
	uint32_t key, pos;
};

/* By Id and Version, then in the manifest's order. */
static int event_cmp(const void *a, const void *b)
{
	const struct event_key *x = a, *y = b;

	nttrace_man_steps++;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

int nttrace_man_index_events(struct nttrace_man *m, struct nttrace_man_provider *p)
{
	struct event_key *k = malloc(((size_t)p->nevents + 1) * sizeof(*k));
	uint32_t i;

	p->by_id = nttrace_man_alloc(m, ((size_t)p->nevents + 1) * sizeof(*p->by_id));
	if (!k || !p->by_id) {
		free(k);
		return -1;
	}
	for (i = 0; i < p->nevents; i++)
		k[i] = (struct event_key){ (uint32_t)p->events[i].id << 8 | p->events[i].version, i };
	if (p->nevents)
		qsort(k, p->nevents, sizeof(*k), event_cmp);
	for (i = 0; i < p->nevents; i++)
		p->by_id[i] = k[i].pos;
	free(k);
	return 0;
}

static ULONG provider(struct rs *r, struct nttrace_man_provider *p)
{
	uint32_t i, k, next = 16;
	ULONG err = ERROR_SUCCESS;

	if (nttrace_man_index_events(r->m, p) || pkeys_make(r, p)) {
		pkeys_free(&r->pk);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
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
		err = template(r, p, &p->tmpls[i]);
	for (i = 0; i < p->nevents && !err; i++) {
		err = event(r, p, &p->events[i]);
		if (err) {
			r->m->bad_line = p->events[i].line;
			r->m->bad_what = "an event names a level, task, opcode, channel, keyword or template the manifest does not define";
		}
	}
	pkeys_free(&r->pk);
	return err ? err : r->err;
}

ULONG nttrace_man_resolve(struct nttrace_man *m)
{
	struct rs r = { m, pick_culture(m), ERROR_SUCCESS, NULL, { 0 } };
	ULONG err = ERROR_SUCCESS;
	uint32_t i;

	r.strings = malloc(((size_t)m->nstrings + 1) * sizeof(*r.strings));
	if (!r.strings)
		return ERROR_NOT_ENOUGH_MEMORY;
	for (i = 0; i < m->nstrings; i++)
		r.strings[i] = (struct key){ m->strings[i].id,
					     m->strings[i].culture == r.culture ? 0 : 1, i };
	sort_keys(r.strings, m->nstrings);
	for (i = 0; i < m->nprovs && !err; i++)
		err = provider(&r, &m->provs[i]);
	free(r.strings);
	return err;
}
