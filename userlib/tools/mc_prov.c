// SPDX-License-Identifier: GPL-2.0
/*
 * A provider as mc.exe lays it out (mc_prov.h). Where the facts come from:
 * the outputs of a real mc.exe (a manifest's WEVT_TEMPLATE, message table
 * and header) for what they show, and for the rest the open-source
 * reimplementation of mc.exe in the EventTraceKit project, which
 * reproduces mc.exe's outputs.
 *
 * Message IDs: (tag << 28) | (provider index << 24) | (sub << 16) | low 16
 * bits, where:
 *   keyword   tag 1, low: the bit length of its mask (0x1 -> 1, 0x8 -> 4)
 *   opcode    tag 3, sub: the value of the task it is defined in (low 8
 *             bits; 0 for a provider-wide one), low: its value
 *   level     tag 5, low: its value
 *   task      tag 7, low: its value
 *   channel   tag 9, low: a counter, 1 up, the provider's own message
 *             taking the first (shared by every provider of the manifest)
 *   event     tag 11, sub: its version, low: its value; an event of the
 *             global channels (System, Application, Security) has tag 0
 *             and no version, its ID its value alone (as a real header
 *             shows it: version 1 events 0x00000001, 0x00000002 ...)
 *   valueMap  tag 13, low: a counter over every value map's entries
 *   bitMap    tag 15, low: a counter over every bit map's entries
 * Only the first 16 providers can have IDs (4 bits).
 *
 * winmeta.xml's levels, tasks, opcodes and keywords that events name
 * join the provider's lists (the sample's LEVL holds win:Error and
 * win:Informational). Their message IDs are the numbers above (Windows'
 * own message table has those texts); the message table carries them
 * only when the manifest's string table holds winmeta.xml's string for
 * them (level.Error: the sample's manifest does and gets
 * MSG_level_Error; another manifest that names win:Informational without
 * the string gets no MSG_level_ define).
 *
 * The lists' order: levels by value, opcodes by value then task value,
 * keywords by mask, tasks and channels in the manifest's order, events by
 * value; each stable, the winmeta.xml items after the provider's in the
 * order events first name them. An event's channel gives its keywords
 * the bit 63 - the channel's index (the first 8 channels), as the
 * sample's descriptors show (0x4000000000000001: Operational, the second).
 *
 * Every lookup is a sort or a binary search: a manifest's size costs
 * n log n, and memory in proportion to it.
 */
#include <stdlib.h>
#include <string.h>

#include "mc_prov.h"
#include "utf16.h"

struct mc_string_key {
	const char *id;
	uint32_t pos;
};

void mc_ctx_init(struct mc_ctx *c, const struct nttrace_man *m)
{
	memset(c, 0, sizeof(*c));
	c->m = m;
	c->generated = c->value_map = c->bit_map = 1;
}

void mc_ctx_free(struct mc_ctx *c)
{
	free(c->strings);
	c->strings = NULL;
}

uint32_t mc_utf16_units(const char *s)
{
	/* A manifest's strings are within the NTTRACE_MAN_MAX bytes read. */
	return s ? ntr_utf8_to_utf16(NULL, UINT32_MAX, s,
				     (uint32_t)strnlen(s, NTTRACE_MAN_MAX)) : 0;
}

uint32_t mc_put_utf16(struct mc_out *o, const char *s)
{
	uint32_t n = mc_utf16_units(s);
	uint8_t *w;

	if (!n)
		return 0;
	w = malloc((size_t)n * 2);
	if (!w) {
		o->oom = 1;
		return n;
	}
	ntr_utf8_to_utf16(w, n, s, (uint32_t)strlen(s));
	mc_out_bytes(o, w, (size_t)n * 2);
	free(w);
	return n;
}

static int skey_cmp(const void *a, const void *b)
{
	const struct mc_string_key *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The manifest's string @id (the first of any culture); NULL if none. */
static const char *string_by_id(struct mc_ctx *c, const char *id, int *oom)
{
	const struct nttrace_man *m = c->m;
	uint32_t lo = 0, hi, i;

	if (!c->strings && m->nstrings) {
		c->strings = malloc(m->nstrings * sizeof(*c->strings));
		if (!c->strings) {
			*oom = 1;
			return NULL;
		}
		for (i = 0; i < m->nstrings; i++)
			c->strings[i] = (struct mc_string_key){ m->strings[i].id, i };
		qsort(c->strings, m->nstrings, sizeof(*c->strings), skey_cmp);
		c->nstrings = m->nstrings;
	}
	hi = c->nstrings;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (strcmp(c->strings[mid].id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->nstrings && !strcmp(c->strings[lo].id, id))
		return m->strings[c->strings[lo].pos].value;
	return NULL;
}

/* The X of a message written $(string.X) (@len bytes); NULL for text as it is. */
static const char *string_id(const char *message_s, uint32_t *len)
{
	static const char ref[] = "$(string.";
	size_t n;

	if (!message_s || strncmp(message_s, ref, sizeof(ref) - 1))
		return NULL;
	n = strlen(message_s);
	if (n <= sizeof(ref) || message_s[n - 1] != ')')
		return NULL;
	*len = (uint32_t)(n - sizeof(ref));
	return message_s + sizeof(ref) - 1;
}

/*
 * winmeta.xml's string ID for its item @name of @kind (level.Error,
 * opcode.DCStart, keyword.Classic, channel.System), in @buf.
 */
static const char *winmeta_sid(enum nttrace_man_kind kind, const char *name, char *buf,
			       size_t size)
{
	static const char *const pre[] = {
		[MAN_LEVEL] = "level.", [MAN_TASK] = "task.", [MAN_OPCODE] = "opcode.",
		[MAN_KEYWORD] = "keyword.", [MAN_CHANNEL] = "channel.",
	};
	size_t k = strlen(pre[kind]);

	if (!strncmp(name, "win:", 4))
		name += 4;
	if (kind == MAN_KEYWORD && !strcmp(name, "EventlogClassic"))
		name = "Classic";
	if (k + strlen(name) >= size)
		return NULL;
	memcpy(buf, pre[kind], k);
	for (; *name; name++)
		if (kind != MAN_OPCODE || *name != '_')
			buf[k++] = *name;
	buf[k] = 0;
	return buf;
}

static uint32_t bit_length(uint64_t v)
{
	uint32_t n = 0;

	for (; v; v >>= 1)
		n++;
	return n;
}

static uint32_t msg_id(uint32_t tag, uint32_t prov, uint32_t sub, uint32_t low)
{
	return tag << 28 | (prov & 0xF) << 24 | (sub & 0xFF) << 16 | (low & 0xFFFF);
}

/* The winmeta.xml items of one kind events name, in the order first named. */
#define WINMETA_MAX	32

struct wused {
	int32_t at[WINMETA_MAX];	/* the list index of winmeta item i, or -1 */
	uint32_t order[WINMETA_MAX], n;
};

static void wused_init(struct wused *w)
{
	uint32_t i;

	for (i = 0; i < WINMETA_MAX; i++)
		w->at[i] = -1;
	w->n = 0;
}

static int winmeta_index(enum nttrace_man_kind kind, const struct nttrace_man_item *it)
{
	const struct nttrace_man_item *w;
	uint32_t i;

	for (i = 0; i < WINMETA_MAX && (w = nttrace_man_winmeta_at(kind, i)); i++)
		if (w == it)
			return (int)i;
	return -1;
}

static void wused_add(struct wused *w, enum nttrace_man_kind kind,
		      const struct nttrace_man_item *it)
{
	int i = winmeta_index(kind, it);

	if (i >= 0 && w->at[i] == -1) {
		w->at[i] = -2;
		w->order[w->n++] = (uint32_t)i;
	}
}

/* Whether @it is one of @l's (else it is winmeta.xml's). */
static int own(const struct nttrace_man_list *l, const struct nttrace_man_item *it)
{
	return it >= l->v && it < l->v + l->n;
}

struct sorted {
	uint64_t key;
	uint32_t pos;
};

static int sorted_cmp(const void *a, const void *b)
{
	const struct sorted *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * The list of @kind: @pl's items then the winmeta.xml ones of @w, sorted
 * if @sort; @inv[i] becomes the index of @pl's item i, w->at[] those of
 * winmeta.xml's. 0, or a Win32 error.
 */
static ULONG build(struct mc_ctx *c, struct mc_prov *v, enum nttrace_man_kind kind,
		   const struct nttrace_man_list *pl, struct wused *w, int sort,
		   struct mc_list *out, uint32_t *inv)
{
	uint32_t n = pl->n + w->n, i;
	struct mc_item *tmp = calloc(n + 1, sizeof(*tmp));
	struct sorted *s = calloc(n + 1, sizeof(*s));
	ULONG err = ERROR_SUCCESS;
	char buf[64];
	int oom = 0;

	if (!tmp || !s) {
		free(tmp);
		free(s);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	for (i = 0; i < n; i++) {
		const struct nttrace_man_item *it = i < pl->n ? &pl->v[i] :
			nttrace_man_winmeta_at(kind, w->order[i - pl->n]);
		struct mc_item *d = &tmp[i];

		d->name = it->name;
		d->value = it->value;
		d->guid = it->has_guid ? &it->guid : NULL;
		d->task = it->in_task ? it->task : 0;
		d->imported = it->imported;
		d->winmeta = i >= pl->n;
		if (d->winmeta || (kind == MAN_CHANNEL && it->imported && !it->message_s)) {
			d->sid = winmeta_sid(kind, it->name, buf, sizeof(buf));
			d->text = d->sid ? string_by_id(c, d->sid, &oom) : NULL;
		} else {
			d->text = it->message;
			d->sid = string_id(it->message_s, &d->sidlen);
		}
		/* winmeta.xml's string ID is made in @buf: kept by a copy. */
		if (d->sid == buf) {
			char *cp = strdup(buf);

			if (!cp)
				oom = 1;
			d->sid = cp;
			d->sidlen = cp ? (uint32_t)strlen(cp) : 0;
			d->sid_owned = 1;
		}
		d->msgid = MC_NO_MESSAGE;
		switch (kind) {
		case MAN_LEVEL:
			if (d->text || d->winmeta)
				d->msgid = msg_id(5, v->index, 0, (uint32_t)d->value);
			s[i].key = d->value;
			break;
		case MAN_TASK:
			if (d->text || d->winmeta)
				d->msgid = msg_id(7, v->index, 0, (uint32_t)d->value);
			break;
		case MAN_OPCODE:
			if (d->text || d->winmeta)
				d->msgid = msg_id(3, v->index, d->task, (uint32_t)d->value);
			s[i].key = d->value << 16 | d->task;
			break;
		case MAN_KEYWORD:
			if (d->text || d->winmeta)
				d->msgid = msg_id(1, v->index, 0, bit_length(d->value));
			s[i].key = d->value;
			break;
		case MAN_CHANNEL:
			if (d->text)
				d->msgid = msg_id(9, v->index, 0, c->generated++);
			break;
		}
		s[i].pos = i;
	}
	if (sort && n)
		qsort(s, n, sizeof(*s), sorted_cmp);
	out->v = calloc(n + 1, sizeof(*out->v));
	if (!out->v || oom) {
		for (i = 0; i < n; i++)
			if (tmp[i].sid_owned)
				free((char *)tmp[i].sid);
		free(out->v);
		out->v = NULL;
		err = ERROR_NOT_ENOUGH_MEMORY;
		goto done;
	}
	for (i = 0; i < n; i++) {
		uint32_t from = sort ? s[i].pos : i;

		out->v[i] = tmp[from];
		if (from < pl->n)
			inv[from] = i;
		else
			w->at[w->order[from - pl->n]] = (int32_t)i;
	}
	out->n = n;
done:
	free(tmp);
	free(s);
	return err;
}

static void list_free(struct mc_list *l)
{
	uint32_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].sid_owned)
			free((char *)l->v[i].sid);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void mc_prov_free(struct mc_prov *v)
{
	const struct nttrace_man_provider *p = v->p;
	uint32_t i;

	list_free(&v->levels);
	list_free(&v->tasks);
	list_free(&v->opcodes);
	list_free(&v->keywords);
	list_free(&v->channels);
	free(v->ev);
	free(v->kws);
	for (i = 0; v->maps && p && i < p->nmaps; i++)
		free(v->maps[i].v);
	free(v->maps);
	memset(v, 0, sizeof(*v));
}

/* The provider's keywords by name, for the events' lists. */
struct kw_key {
	const char *name;
	uint32_t pos;
};

static int kw_cmp(const void *a, const void *b)
{
	const struct kw_key *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Whether @name (NUL-terminated) is before, at (0) or after @w (@n bytes). */
static int name_cmp(const char *name, const char *w, size_t n)
{
	int c = strncmp(name, w, n);

	return c ? c : name[n] ? 1 : 0;
}

/*
 * The keyword named by @w (@n bytes): its index in the provider's list
 * (>= 0), or -(winmeta index) - 2; -1 when neither defines it.
 */
static int64_t find_keyword(const struct nttrace_man_provider *p, const struct kw_key *k,
			    const char *w, size_t n)
{
	uint32_t lo = 0, hi = p->keywords.n;
	const struct nttrace_man_item *it;
	char buf[64];
	int i;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (name_cmp(k[mid].name, w, n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->keywords.n && !name_cmp(k[lo].name, w, n))
		return k[lo].pos;
	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, w, n);
	buf[n] = 0;
	it = nttrace_man_winmeta(MAN_KEYWORD, buf);
	i = it ? winmeta_index(MAN_KEYWORD, it) : -1;
	return i >= 0 ? -(int64_t)i - 2 : -1;
}

/* The next word of @s from *@at: its start and length; 0 at the end. */
static size_t next_word(const char *s, size_t *at, const char **w)
{
	size_t i = *at, n;

	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')
		i++;
	*w = s + i;
	for (n = 0; s[i + n] && s[i + n] != ' ' && s[i + n] != '\t' && s[i + n] != '\r' &&
	     s[i + n] != '\n'; n++)
		;
	*at = i + n;
	return n;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* An index into a list of the item @it of @pl (provider's, through @inv) or winmeta's. */
static int32_t item_index(enum nttrace_man_kind kind, const struct nttrace_man_list *pl,
			  const uint32_t *inv, const struct wused *w,
			  const struct nttrace_man_item *it)
{
	int i;

	if (!it)
		return -1;
	if (own(pl, it))
		return (int32_t)inv[it - pl->v];
	i = winmeta_index(kind, it);
	return i >= 0 ? w->at[i] : -1;
}

static int ev_cmp(const void *a, const void *b)
{
	const struct mc_ev *x = a, *y = b;

	if (x->e->id != y->e->id)
		return x->e->id < y->e->id ? -1 : 1;
	return x->e < y->e ? -1 : x->e > y->e;
}

static int map_item_cmp(const void *a, const void *b)
{
	const struct mc_map_item *x = a, *y = b;

	return x->value < y->value ? -1 : x->value > y->value;
}

static ULONG maps(struct mc_ctx *c, struct mc_prov *v)
{
	const struct nttrace_man_provider *p = v->p;
	uint32_t i, k;

	v->maps = calloc((size_t)p->nmaps + 1, sizeof(*v->maps));
	if (!v->maps)
		return ERROR_NOT_ENOUGH_MEMORY;
	for (i = 0; i < p->nmaps; i++) {
		const struct nttrace_man_map *mp = &p->maps[i];
		struct mc_map_item *d = calloc((size_t)mp->n + 1, sizeof(*d));

		if (!d)
			return ERROR_NOT_ENOUGH_MEMORY;
		v->maps[i].m = mp;
		v->maps[i].v = d;
		for (k = 0; k < mp->n; k++) {
			d[k].value = mp->v[k].value;
			d[k].text = mp->v[k].message;
			d[k].sid = string_id(mp->v[k].message_s, &d[k].sidlen);
			d[k].msgid = MC_NO_MESSAGE;
			if (!d[k].text)
				continue;
			/* Both counters are numbered in the manifest's order. */
			if (mp->bitmap)
				d[k].msgid = msg_id(15, v->index, 0, c->bit_map++);
			else
				d[k].msgid = msg_id(13, v->index, 0, c->value_map++);
		}
		/* Sorted by value: qsort's order of equal values is of no matter here. */
		qsort(d, mp->n, sizeof(*d), map_item_cmp);
	}
	return ERROR_SUCCESS;
}

/* Whether @e's channel is winmeta.xml's System, Application or Security (8, 9, 10). */
static int global_channel(const struct nttrace_man_provider *p, const struct nttrace_man_event *e)
{
	const struct nttrace_man_item *ch = e->channel_i;

	return ch && (ch->imported || !own(&p->channels, ch)) && ch->value >= 8 &&
	       ch->value <= 10;
}

static ULONG events(struct mc_prov *v, const struct kw_key *kk, const uint32_t *inv_l,
		    const uint32_t *inv_t, const uint32_t *inv_o, const uint32_t *inv_c,
		    const struct wused *wl, const struct wused *wt, const struct wused *wo,
		    const struct wused *wk, const uint32_t *inv_k, size_t nwords)
{
	const struct nttrace_man_provider *p = v->p;
	uint32_t i, nk = 0, taken;
	struct wused none;

	wused_init(&none);
	v->ev = calloc((size_t)p->nevents + 1, sizeof(*v->ev));
	v->kws = calloc(nwords + 1, sizeof(*v->kws));
	if (!v->ev || !v->kws)
		return ERROR_NOT_ENOUGH_MEMORY;
	for (i = 0; i < p->nevents; i++) {
		const struct nttrace_man_event *e = &p->events[i];
		struct mc_ev *d = &v->ev[i];
		size_t at = 0, n;
		const char *w;
		uint32_t k;

		d->e = e;
		d->level = item_index(MAN_LEVEL, &p->levels, inv_l, wl, e->level_i);
		d->task = item_index(MAN_TASK, &p->tasks, inv_t, wt, e->task_i);
		d->opcode = item_index(MAN_OPCODE, &p->opcodes, inv_o, wo, e->opcode_i);
		d->channel = item_index(MAN_CHANNEL, &p->channels, inv_c, &none, e->channel_i);
		d->keywords = e->keywords;
		if (d->channel >= 0 && d->channel < 8)
			d->keywords |= 1ULL << (63 - d->channel);
		d->kw = nk;
		while (e->keywords_s && (n = next_word(e->keywords_s, &at, &w))) {
			int64_t f = find_keyword(p, kk, w, n);

			if (f == -1)
				return ERROR_INVALID_DATA;
			v->kws[nk++] = f >= 0 ? inv_k[f] : (uint32_t)wk->at[-f - 2];
		}
		/* By mask (the list's order), each once. */
		qsort(v->kws + d->kw, nk - d->kw, sizeof(*v->kws), u32_cmp);
		for (k = d->kw; k < nk; k++)
			if (k == d->kw || v->kws[k] != v->kws[d->kw + d->nkw - 1])
				v->kws[d->kw + d->nkw++] = v->kws[k];
		nk = d->kw + d->nkw;
		d->msgid = MC_NO_MESSAGE;
		if (e->message)
			d->msgid = global_channel(p, e) ? msg_id(0, v->index, 0, e->id) :
				   msg_id(11, v->index, e->version, e->id);
	}
	if (p->nevents)
		qsort(v->ev, p->nevents, sizeof(*v->ev), ev_cmp);
	/*
	 * Two versions of one event in the global channels would share the
	 * value-alone ID (Microsoft's AdvancedProvider sample has such a
	 * pair). What mc.exe does then is not known here: each one after the
	 * first, in the manifest's order, takes the ID of an event of another
	 * channel (tag 11, its version), so that every message keeps an ID
	 * of its own. Equal IDs are neighbours: the events are by value.
	 */
	for (i = 0, taken = MC_NO_MESSAGE; i < p->nevents; i++) {
		struct mc_ev *d = &v->ev[i];

		if (d->msgid == MC_NO_MESSAGE || d->msgid >> 28 != 0)
			continue;
		if (d->msgid == taken)
			d->msgid = msg_id(11, v->index, d->e->version, d->e->id);
		else
			taken = d->msgid;
	}
	return ERROR_SUCCESS;
}

/* Whether @v has any message: the 17th provider on may have none. */
static int has_messages(const struct mc_prov *v)
{
	const struct mc_list *l[] = { &v->levels, &v->tasks, &v->opcodes, &v->keywords,
				      &v->channels };
	uint32_t i, k;

	if (v->text)
		return 1;
	for (i = 0; i < 5; i++)
		for (k = 0; k < l[i]->n; k++)
			if (l[i]->v[k].text)
				return 1;
	for (i = 0; i < v->p->nevents; i++)
		if (v->ev[i].e->message)
			return 1;
	for (i = 0; i < v->p->nmaps; i++)
		for (k = 0; k < v->p->maps[i].n; k++)
			if (v->maps[i].v[k].text)
				return 1;
	return 0;
}

ULONG mc_prov_make(struct mc_ctx *c, uint32_t pi, struct mc_prov *v)
{
	const struct nttrace_man_provider *p = &c->m->provs[pi];
	struct wused wl, wt, wo, wk;
	uint32_t *inv = NULL, *inv_l, *inv_t, *inv_o, *inv_k, *inv_c, i;
	struct kw_key *kk = NULL;
	size_t nwords = 0, total;
	ULONG err;

	memset(v, 0, sizeof(*v));
	v->p = p;
	v->index = pi;
	wused_init(&wl);
	wused_init(&wt);
	wused_init(&wo);
	wused_init(&wk);
	total = (size_t)p->levels.n + p->tasks.n + p->opcodes.n + p->keywords.n + p->channels.n;
	inv = calloc(total + 1, sizeof(*inv));
	kk = calloc((size_t)p->keywords.n + 1, sizeof(*kk));
	if (!inv || !kk) {
		err = ERROR_NOT_ENOUGH_MEMORY;
		goto out;
	}
	inv_l = inv;
	inv_t = inv_l + p->levels.n;
	inv_o = inv_t + p->tasks.n;
	inv_k = inv_o + p->opcodes.n;
	inv_c = inv_k + p->keywords.n;
	for (i = 0; i < p->keywords.n; i++)
		kk[i] = (struct kw_key){ p->keywords.v[i].name, i };
	if (p->keywords.n)
		qsort(kk, p->keywords.n, sizeof(*kk), kw_cmp);
	/* The winmeta.xml items events name, in the order first named. */
	for (i = 0; i < p->nevents; i++) {
		const struct nttrace_man_event *e = &p->events[i];
		size_t at = 0, n;
		const char *w;

		if (e->level_i && !own(&p->levels, e->level_i))
			wused_add(&wl, MAN_LEVEL, e->level_i);
		if (e->task_i && !own(&p->tasks, e->task_i))
			wused_add(&wt, MAN_TASK, e->task_i);
		if (e->opcode_i && !own(&p->opcodes, e->opcode_i))
			wused_add(&wo, MAN_OPCODE, e->opcode_i);
		while (e->keywords_s && (n = next_word(e->keywords_s, &at, &w))) {
			int64_t f = find_keyword(p, kk, w, n);

			nwords++;
			if (f < -1)
				wused_add(&wk, MAN_KEYWORD,
					  nttrace_man_winmeta_at(MAN_KEYWORD, (uint32_t)(-f - 2)));
		}
	}
	/* The provider's message takes the counter's next value before its channels'. */
	v->text = p->message;
	v->sid = string_id(p->message_s, &v->sidlen);
	v->msgid = p->message ? msg_id(9, pi, 0, c->generated++) : MC_NO_MESSAGE;
	err = build(c, v, MAN_CHANNEL, &p->channels, &(struct wused){ .n = 0 }, 0,
		    &v->channels, inv_c);
	if (!err)
		err = build(c, v, MAN_LEVEL, &p->levels, &wl, 1, &v->levels, inv_l);
	if (!err)
		err = build(c, v, MAN_TASK, &p->tasks, &wt, 0, &v->tasks, inv_t);
	if (!err)
		err = build(c, v, MAN_OPCODE, &p->opcodes, &wo, 1, &v->opcodes, inv_o);
	if (!err)
		err = build(c, v, MAN_KEYWORD, &p->keywords, &wk, 1, &v->keywords, inv_k);
	if (!err)
		err = maps(c, v);
	if (!err)
		err = events(v, kk, inv_l, inv_t, inv_o, inv_c, &wl, &wt, &wo, &wk, inv_k, nwords);
	if (!err && pi > 15 && has_messages(v))
		err = ERROR_INVALID_DATA;
out:
	free(inv);
	free(kk);
	if (err)
		mc_prov_free(v);
	return err;
}
